// SPDX-License-Identifier: GPL-2.0
/* Text cells for the pools and devices tables, shared by screen and batch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hist.h"
#include "view.h"

const struct tcol pool_cols[PC_COUNT] = {
	[PC_NAME]	= { "POOL", 0, true, true, 8, 28 },
	[PC_BASE]	= { "BASE", 9, true, false, 0, 0 },
	[PC_SIZE]	= { "SIZE", 5, false, false, 0, 0 },
	[PC_USED]	= { "USED", 1, false, false, 0, 0 },
	[PC_USED_PCT]	= { "USE%", 2, false, false, 0, 0 },
	[PC_HIWATER]	= { "PEAK", 7, false, false, 0, 0 },
	[PC_HW_PCT]	= { "PEAK%", 6, false, false, 0, 0 },
	[PC_MAPS]	= { "MAPS/s", 2, false, false, 0, 0 },
	[PC_TO]		= { "TODEV/s", 4, false, false, 0, 0 },
	[PC_FROM]	= { "FROMDEV/s", 4, false, false, 0, 0 },
	[PC_INFLIGHT]	= { "INFLT", 8, false, false, 0, 0 },
	[PC_FAIL]	= { "FAIL", 3, false, false, 0, 0 },
	[PC_OOP]	= { "OOP", 1, false, false, 0, 0 },
	[PC_HISTORY]	= { "HISTORY", 5, true, false, 0, 0 },
};

const struct tcol dev_cols[DC_COUNT] = {
	[DC_NAME]	= { "DEVICE", 0, true, true, 8, 24 },
	[DC_POOL]	= { "POOL", 5, true, true, 6, 22 },
	[DC_INFLIGHT]	= { "INFLT", 3, false, false, 0, 0 },
	[DC_MAPS]	= { "MAPS/s", 2, false, false, 0, 0 },
	[DC_BYTES]	= { "BYTES/s", 2, false, false, 0, 0 },
	[DC_SIZE50]	= { "SZ50", 6, false, false, 0, 0 },
	[DC_SIZE99]	= { "SZ99", 4, false, false, 0, 0 },
	[DC_TIME50]	= { "T50", 6, false, false, 0, 0 },
	[DC_TIME99]	= { "T99", 4, false, false, 0, 0 },
	[DC_FAIL]	= { "FAIL", 3, false, false, 0, 0 },
	[DC_OOP]	= { "OOP", 1, false, false, 0, 0 },
};

#define NA "-"

static bool has(const struct rt_model *m, unsigned int f)
{
	return (m->features & f) == f;
}

static void cell_rate(char *c, const struct rt_model *m, unsigned int f,
		      uint64_t cur, uint64_t prev, bool bytes)
{
	double r;

	if (!has(m, f) || m->dt <= 0) {
		snprintf(c, VIEW_CELL, NA);
		return;
	}
	r = rt_rate(cur, prev, m->dt);
	if (bytes)
		fmt_bytes(c, VIEW_CELL, r);
	else
		fmt_count(c, VIEW_CELL, r);
}

static void cell_u64(char *c, const struct rt_model *m, unsigned int f, uint64_t v)
{
	if (has(m, f))
		fmt_count(c, VIEW_CELL, (double)v);
	else
		snprintf(c, VIEW_CELL, NA);
}

void view_scroll_move(struct view_scroll *v, int n, int visible, int delta)
{
	long sel = (long)v->sel + delta;

	if (visible < 1)
		visible = 1;
	if (sel >= n)
		sel = n - 1;
	if (sel < 0)
		sel = 0;
	v->sel = (int)sel;
	if (v->top > v->sel)
		v->top = v->sel;
	if (v->sel >= v->top + visible)
		v->top = v->sel - visible + 1;
	if (v->top > n - visible)
		v->top = n - visible;
	if (v->top < 0)
		v->top = 0;
}

void view_sparkline(const struct rt_pool *p, char *buf, size_t len)
{
	static const char levels[] = ".:-=+*#";
	const unsigned long span = RT_USE_HISTORY / VIEW_SPARK;
	unsigned long hi, lo, n;
	unsigned int j, top;
	bool unknown;
	uint8_t v;

	if (len < VIEW_SPARK + 1) {
		if (len)
			buf[0] = '\0';
		return;
	}
	/* Character VIEW_SPARK - 1 - j covers intervals [lo, hi): the newest last. */
	for (j = 0; j < VIEW_SPARK; j++) {
		char *c = &buf[VIEW_SPARK - 1 - j];

		if (p->use_n <= j * span) {
			*c = ' ';
			continue;
		}
		hi = p->use_n - j * span;
		lo = hi > span ? hi - span : 0;
		top = 0;
		unknown = true;
		for (n = lo; n < hi; n++) {
			v = p->use_hist[n % RT_USE_HISTORY];
			if (v == RT_USE_UNKNOWN)
				continue;
			unknown = false;
			if (v > top)
				top = v;
		}
		*c = unknown ? '?' : !top ? '_' :
		     levels[((top > 100 ? 100 : top) - 1) * (sizeof(levels) - 1) / 100];
	}
	buf[VIEW_SPARK] = '\0';
}

void view_pool_cells(const struct rt_model *m, const struct rt_pool *p,
		     char c[PC_COUNT][VIEW_CELL])
{
	const rt_counters *cur = &p->cur, *prev = &p->prev;

	snprintf(c[PC_NAME], VIEW_CELL, "%s%s", p->name, model_pool_live(m, p) ? "" : " (gone)");
	snprintf(c[PC_BASE], VIEW_CELL, "%#llx", (unsigned long long)p->base);
	fmt_bytes(c[PC_SIZE], VIEW_CELL, (double)p->size);
	if (p->have_used) {
		fmt_bytes(c[PC_USED], VIEW_CELL, (double)rt_used_bytes(p));
		snprintf(c[PC_USED_PCT], VIEW_CELL, "%.1f", rt_pct(rt_used_bytes(p), p->size));
	} else {
		snprintf(c[PC_USED], VIEW_CELL, NA);
		snprintf(c[PC_USED_PCT], VIEW_CELL, NA);
	}
	if (p->have_hiwater) {
		fmt_bytes(c[PC_HIWATER], VIEW_CELL, (double)rt_hiwater_bytes(p));
		snprintf(c[PC_HW_PCT], VIEW_CELL, "%.1f", rt_pct(rt_hiwater_bytes(p), p->size));
	} else {
		snprintf(c[PC_HIWATER], VIEW_CELL, NA);
		snprintf(c[PC_HW_PCT], VIEW_CELL, NA);
	}
	cell_rate(c[PC_MAPS], m, RT_F_BPF, cur->maps, prev->maps, false);
	cell_rate(c[PC_TO], m, RT_F_DIRECTION, cur->bytes_to_device, prev->bytes_to_device, true);
	cell_rate(c[PC_FROM], m, RT_F_DIRECTION, cur->bytes_from_device,
		  prev->bytes_from_device, true);
	cell_u64(c[PC_INFLIGHT], m, RT_F_UNMAP, cur->inflight > 0 ? (uint64_t)cur->inflight : 0);
	cell_u64(c[PC_FAIL], m, RT_F_FAILURES, rt_failures(cur));
	cell_u64(c[PC_OOP], m, RT_F_OOP_CHECK, rt_oop(cur));
	view_sparkline(p, c[PC_HISTORY], VIEW_CELL);
}

static void cell_pct(char *c, const struct rt_model *m, unsigned int f, const __u64 *cur,
		     const __u64 *prev, double p, bool ns)
{
	uint64_t delta[RDMA_HIST_SLOTS];
	double v;

	rt_hist_delta(cur, prev, delta);
	if (!has(m, f) || !hist_percentile(delta, RDMA_HIST_SLOTS, p, &v)) {
		snprintf(c, VIEW_CELL, NA);
		return;
	}
	if (ns)
		fmt_ns(c, VIEW_CELL, v);
	else
		fmt_bytes(c, VIEW_CELL, v);
}

/* A feature bit no model has: a cell that is never available. */
#define RT_F_NEVER	(1u << 31)

/* @f when the device's numbers have it (rt_dev_features()), else RT_F_NEVER. */
static unsigned int dev_f(unsigned int dev_features, unsigned int f)
{
	return (dev_features & f) == f ? f : RT_F_NEVER;
}

void view_dev_cells(const struct rt_model *m, const struct rt_dev *d,
		    char c[DC_COUNT][VIEW_CELL])
{
	const rt_counters *cur = &d->cur, *prev = &d->prev;
	unsigned int df = rt_dev_features(m, d);

	snprintf(c[DC_NAME], VIEW_CELL, "%s%s", d->name, model_dev_live(m, d) ? "" : " (gone)");
	snprintf(c[DC_POOL], VIEW_CELL, "%s", d->pool[0] ? d->pool : "none");
	cell_u64(c[DC_INFLIGHT], m, dev_f(df, RT_F_UNMAP),
		 cur->inflight > 0 ? (uint64_t)cur->inflight : 0);
	cell_rate(c[DC_MAPS], m, dev_f(df, RT_F_BPF), cur->maps, prev->maps, false);
	cell_rate(c[DC_BYTES], m, dev_f(df, RT_F_BPF), cur->map_bytes, prev->map_bytes, true);
	cell_pct(c[DC_SIZE50], m, dev_f(df, RT_F_BPF), cur->size_hist, prev->size_hist, 50, false);
	cell_pct(c[DC_SIZE99], m, dev_f(df, RT_F_BPF), cur->size_hist, prev->size_hist, 99, false);
	cell_pct(c[DC_TIME50], m, dev_f(df, RT_F_UNMAP), cur->time_hist, prev->time_hist, 50, true);
	cell_pct(c[DC_TIME99], m, dev_f(df, RT_F_UNMAP), cur->time_hist, prev->time_hist, 99, true);
	cell_u64(c[DC_FAIL], m, dev_f(df, RT_F_FAILURES), rt_failures(cur));
	cell_u64(c[DC_OOP], m, dev_f(df, RT_F_OOP_CHECK), rt_oop(cur));
}

void view_header(const struct rt_model *m, char *buf, size_t len)
{
	char used[16], size[16], evs[16], clock[16], missed[48] = "", self[32] = "";
	time_t t = (time_t)m->now;
	struct tm tm;
	size_t i, live = 0;

	for (i = 0; i < m->npools; i++)
		live += model_pool_live(m, &m->pools[i]) && m->pools[i].restricted;
	localtime_r(&t, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	fmt_bytes(used, sizeof(used), (double)model_total_used(m));
	fmt_bytes(size, sizeof(size), (double)model_total_size(m));
	if (has(m, RT_F_BPF) && m->dt > 0)
		fmt_count(evs, sizeof(evs), model_events_per_s(m));
	else
		snprintf(evs, sizeof(evs), NA);
	if (m->self_stats && m->dt > 0)
		snprintf(self, sizeof(self), "  self %.1f%% CPU",
			 (double)(m->prog_run_ns - m->prev_prog_run_ns) / (m->dt * 1e7));
	if (m->runs_missed)
		snprintf(missed, sizeof(missed), "  (%llu runs missed)",
			 (unsigned long long)m->runs_missed);
	snprintf(buf, len, "rdmatop %s  %zu pools  used %s of %s (%.1f%%)  %s events/s%s%s%s",
		 clock, live, used, size, rt_pct(model_total_used(m), model_total_size(m)),
		 evs, self, m->self.ringbuf_drops ? "  (rare events dropped)" : "", missed);
}

void view_unavailable(const struct rt_model *m, char *buf, size_t len)
{
	static const struct { unsigned int f; const char *what; } cols[] = {
		{ RT_F_BPF, "MAPS/s BYTES/s SZ50 SZ99 (no BPF)" },
		{ RT_F_UNMAP, "INFLT T50 T99" },
		{ RT_F_DIRECTION, "TODEV/s FROMDEV/s" },
		{ RT_F_HIWATER, "PEAK PEAK%" },
		{ RT_F_FAILURES, "FAIL" },
		{ RT_F_OOP_CHECK, "OOP" },
		{ RT_F_OOP_KERNEL, "OOP(kernel audit)" },
		{ RT_F_DMA_API, "devices without a pool" },
	};
	size_t i, pos;
	int n;

	buf[0] = '\0';
	if (rt_full_mode(m)) {
		snprintf(buf, len, "%s%s%s", m->no_debugfs ? "no debugfs: unavailable: USED USE% "
			 "PEAK PEAK%" : "", m->no_debugfs && m->restricted_only ? "; " : "",
			 m->restricted_only ? "--restricted-only: devices without a restricted "
			 "pool are not traced" : "");
		return;
	}
	n = snprintf(buf, len, "fallback mode (kernel without the restricted DMA series; DMA API "
		     "from %s): unavailable:", rt_source_name(m->source));
	pos = n > 0 ? (size_t)n : 0;
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]) && pos < len; i++) {
		if (has(m, cols[i].f))
			continue;
		n = snprintf(buf + pos, len - pos, " %s", cols[i].what);
		if (n < 0)
			break;
		pos += (size_t)n;
	}
	if (m->no_debugfs && pos < len) {
		n = snprintf(buf + pos, len - pos, "%s USED USE%% (no debugfs)",
			     has(m, RT_F_HIWATER) ? " PEAK PEAK%" : "");
		pos += n > 0 ? (size_t)n : 0;
	}
	if (m->restricted_only && pos < len)
		snprintf(buf + pos, len - pos, "; --restricted-only: devices without a "
			 "restricted pool are not traced");
}

static const char *event_name(unsigned int type)
{
	switch (type) {
	case RDMA_EV_ATTACH: return "attach";
	case RDMA_EV_DETACH: return "detach";
	case RDMA_EV_MAP_FAILED: return "map-failed";
	case RDMA_EV_ALLOC_FAILED: return "alloc-failed";
	case RDMA_EV_OOP_KERNEL: return "out-of-pool(kernel)";
	case RDMA_EV_OOP_CHECK: return "out-of-pool(check)";
	default: return "?";
	}
}

void view_event(const struct rt_event *e, char *buf, size_t len)
{
	const struct rdma_event *ev = &e->ev;
	time_t t = (time_t)e->time;
	char clock[16];
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	switch (ev->type) {
	case RDMA_EV_MAP_FAILED:
	case RDMA_EV_ALLOC_FAILED:
		snprintf(buf, len, "%s %s %s pool %s: %llu bytes, %llu of %llu slots used",
			 clock, event_name(ev->type), ev->dev_name, ev->pool_name,
			 (unsigned long long)ev->size, (unsigned long long)ev->used,
			 (unsigned long long)ev->nslabs);
		break;
	case RDMA_EV_OOP_KERNEL:
	case RDMA_EV_OOP_CHECK:
		snprintf(buf, len, "%s %s %s %s %#llx+%llu outside %s [%#llx-%#llx)%s",
			 clock, event_name(ev->type), ev->dev_name, ev->api,
			 (unsigned long long)ev->addr, (unsigned long long)ev->size,
			 ev->pool_name[0] ? ev->pool_name : "its pool",
			 (unsigned long long)ev->pool_start, (unsigned long long)ev->pool_end,
			 ev->refused ? " REFUSED" : "");
		break;
	default:
		snprintf(buf, len, "%s %s %s pool %s", clock, event_name(ev->type),
			 ev->dev_name, ev->pool_name[0] ? ev->pool_name : "?");
	}
}

static void emit_table(const struct tcol *cols, int ncols, char (*cells)[VIEW_CELL],
		       size_t nrows, int width, view_line_fn line, void *ctx)
{
	int natural[TABLE_MAX_COLS] = { 0 }, widths[TABLE_MAX_COLS];
	bool shown[TABLE_MAX_COLS];
	const char *row[TABLE_MAX_COLS];
	char text[1024];
	size_t r;
	int i, n;

	for (i = 0; i < ncols; i++) {
		natural[i] = (int)strlen(cols[i].title);
		for (r = 0; r < nrows; r++) {
			n = (int)strlen(cells[r * ncols + i]);
			if (n > natural[i])
				natural[i] = n;
		}
	}
	table_fit(cols, ncols, natural, width, shown, widths);
	for (i = 0; i < ncols; i++)
		row[i] = cols[i].title;
	table_row(text, sizeof(text), cols, ncols, shown, widths, row);
	line(ctx, 0, text);
	for (r = 0; r < nrows; r++) {
		for (i = 0; i < ncols; i++)
			row[i] = cells[r * ncols + i];
		table_row(text, sizeof(text), cols, ncols, shown, widths, row);
		line(ctx, (int)r + 1, text);
	}
}

void view_pools_table(const struct rt_model *m, int width, const char *filter,
		      view_line_fn line, void *ctx)
{
	char (*cells)[VIEW_CELL] = calloc(m->npools ? m->npools * PC_COUNT : 1, VIEW_CELL);
	size_t i, n = 0;

	if (!cells)
		return;
	for (i = 0; i < m->npools; i++)
		if (rt_pool_match(&m->pools[i], filter))
			view_pool_cells(m, &m->pools[i], (char (*)[VIEW_CELL])cells[n++ * PC_COUNT]);
	emit_table(pool_cols, PC_COUNT, cells, n, width, line, ctx);
	free(cells);
}

void view_devs_table(const struct rt_model *m, int width, const char *filter,
		     view_line_fn line, void *ctx)
{
	char (*cells)[VIEW_CELL] = calloc(m->ndevs ? m->ndevs * DC_COUNT : 1, VIEW_CELL);
	size_t i, n = 0;

	if (!cells)
		return;
	for (i = 0; i < m->ndevs; i++)
		if (model_dev_listed(m, &m->devs[i]) && rt_dev_match(&m->devs[i], filter))
			view_dev_cells(m, &m->devs[i], (char (*)[VIEW_CELL])cells[n++ * DC_COUNT]);
	emit_table(dev_cols, DC_COUNT, cells, n, width, line, ctx);
	free(cells);
}
