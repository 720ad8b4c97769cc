// SPDX-License-Identifier: GPL-2.0
/*
 * --json: NDJSON, one object per interval. Every key is documented in
 * Documentation/rdmatop.md; a number the kernel cannot give is null.
 */
#include <math.h>
#include <string.h>
#include "format.h"
#include "hist.h"
#include "output.h"

struct jw {
	FILE *f;
	bool first;
};

/* Runs that need no escaping (keys, nearly every name) go out whole. */
static void j_str(FILE *f, const char *s)
{
	const char *run;
	unsigned char c;

	fputc('"', f);
	for (;;) {
		for (run = s; (c = (unsigned char)*s) >= 0x20 && c != '"' && c != '\\'; s++)
			;
		fwrite(run, 1, (size_t)(s - run), f);
		if (!c)
			break;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else
			fprintf(f, "\\u%04x", c);
		s++;
	}
	fputc('"', f);
}

static void j_key(struct jw *w, const char *k)
{
	if (!w->first)
		fputc(',', w->f);
	w->first = false;
	j_str(w->f, k);
	fputc(':', w->f);
}

static void j_open(struct jw *w, const char *k, char brace)
{
	if (k)
		j_key(w, k);
	else if (!w->first)
		fputc(',', w->f);
	w->first = true;
	fputc(brace, w->f);
}

static void j_close(struct jw *w, char brace)
{
	fputc(brace, w->f);
	w->first = false;
}

/* A value already formatted (@len bytes of @buf), or null when @len < 0. */
static void j_val(struct jw *w, const char *k, const char *buf, int len)
{
	j_key(w, k);
	if (len >= 0)
		fwrite(buf, 1, (size_t)len, w->f);
	else
		fputs("null", w->f);
}

static void j_u64(struct jw *w, const char *k, uint64_t v, bool avail)
{
	char buf[FMT_NUM_LEN];

	j_val(w, k, buf, avail ? fmt_u64(buf, v) : -1);
}

static void j_s64(struct jw *w, const char *k, int64_t v, bool avail)
{
	char buf[FMT_NUM_LEN];

	j_val(w, k, buf, avail ? fmt_s64(buf, v) : -1);
}

/* Seconds since the epoch, to the microsecond. */
static void j_time(struct jw *w, const char *k, double t)
{
	char buf[40];
	int n = snprintf(buf, sizeof(buf), "%.6f", t);

	j_val(w, k, buf, isfinite(t) && n > 0 ? n : -1);
}

static void j_num(struct jw *w, const char *k, double v, bool avail)
{
	char buf[FMT_NUM_LEN];

	j_val(w, k, buf, avail && isfinite(v) ? fmt_g6(buf, v) : -1);
}

static void j_bool(struct jw *w, const char *k, bool v)
{
	j_key(w, k);
	fputs(v ? "true" : "false", w->f);
}

static void j_string(struct jw *w, const char *k, const char *v)
{
	j_key(w, k);
	if (v)
		j_str(w->f, v);
	else
		fputs("null", w->f);
}

static bool has_f(unsigned int features, unsigned int f)
{
	return (features & f) == f;
}

static bool has(const struct rt_model *m, unsigned int f)
{
	return (m->features & f) == f;
}

/* The counters pools and devices share. */
/* @f: the features these numbers have (rt_dev_features() for a device). */
static void j_counters(struct jw *w, const struct rt_model *m, unsigned int f,
		       const rt_counters *c, const rt_counters *p)
{
	bool bpf = has_f(f, RT_F_BPF), dir = has_f(f, RT_F_DIRECTION);
	bool unmap = has_f(f, RT_F_UNMAP), rate = bpf && m->dt > 0;

	j_u64(w, "maps_total", c->maps, bpf);
	j_num(w, "maps_per_s", rt_rate(c->maps, p->maps, m->dt), rate);
	j_u64(w, "unmaps_total", c->unmaps, unmap);
	j_u64(w, "map_bytes_total", c->map_bytes, bpf);
	j_num(w, "map_bytes_per_s", rt_rate(c->map_bytes, p->map_bytes, m->dt), rate);
	j_u64(w, "bytes_to_device_total", c->bytes_to_device, dir);
	j_u64(w, "bytes_from_device_total", c->bytes_from_device, dir);
	j_num(w, "bytes_to_device_per_s",
	      rt_rate(c->bytes_to_device, p->bytes_to_device, m->dt), rate && dir);
	j_num(w, "bytes_from_device_per_s",
	      rt_rate(c->bytes_from_device, p->bytes_from_device, m->dt), rate && dir);
	j_s64(w, "inflight", c->inflight, unmap);
	j_s64(w, "inflight_bytes", c->inflight_bytes, unmap);
	j_u64(w, "map_failures_total", c->map_failures, has_f(f, RT_F_FAILURES));
	j_u64(w, "alloc_failures_total", c->alloc_failures, has_f(f, RT_F_FAILURES));
	j_u64(w, "allocs_total", c->allocs, has_f(f, RT_F_COHERENT));
	j_u64(w, "frees_total", c->frees, has_f(f, RT_F_COHERENT));
	j_u64(w, "out_of_pool_kernel_total", c->oop_kernel, has_f(f, RT_F_OOP_KERNEL));
	j_u64(w, "out_of_pool_check_total", c->oop_check, has_f(f, RT_F_OOP_CHECK));
	j_u64(w, "refused_total", c->refused, has_f(f, RT_F_OOP_KERNEL));
}

/* A percentile: a bucket's bound, a power of two, written exactly. */
static void j_pct(struct jw *w, const char *k, const uint64_t *d, double p, bool avail)
{
	double v = 0;

	avail = avail && hist_percentile(d, RDMA_HIST_SLOTS, p, &v);
	j_u64(w, k, (uint64_t)v, avail);
}

static void j_percentiles(struct jw *w, unsigned int f, const rt_counters *c,
			  const rt_counters *p)
{
	uint64_t d[RDMA_HIST_SLOTS];

	rt_hist_delta(c->size_hist, p->size_hist, d);
	j_pct(w, "size_p50_bytes", d, 50, has_f(f, RT_F_BPF));
	j_pct(w, "size_p99_bytes", d, 99, has_f(f, RT_F_BPF));
	rt_hist_delta(c->time_hist, p->time_hist, d);
	j_pct(w, "time_p50_ns", d, 50, has_f(f, RT_F_UNMAP));
	j_pct(w, "time_p99_ns", d, 99, has_f(f, RT_F_UNMAP));
}

static void j_pool(struct jw *w, const struct rt_model *m, const struct rt_pool *p)
{
	j_open(w, NULL, '{');
	j_string(w, "name", p->name);
	j_bool(w, "live", model_pool_live(m, p));
	j_bool(w, "restricted", p->restricted);
	j_u64(w, "base", p->base, true);
	j_u64(w, "size", p->size, true);
	j_u64(w, "nslabs", p->nslabs, true);
	j_u64(w, "used_slots", p->used, p->have_used);
	j_u64(w, "used_bytes", rt_used_bytes(p), p->have_used);
	j_num(w, "used_pct", rt_pct(rt_used_bytes(p), p->size), p->have_used);
	j_u64(w, "hiwater_slots", p->hiwater, p->have_hiwater);
	j_u64(w, "hiwater_bytes", rt_hiwater_bytes(p), p->have_hiwater);
	j_num(w, "hiwater_pct", rt_pct(rt_hiwater_bytes(p), p->size), p->have_hiwater);
	j_counters(w, m, m->features, &p->cur, &p->prev);
	j_percentiles(w, m->features, &p->cur, &p->prev);
	j_close(w, '}');
}

static void j_dev(struct jw *w, const struct rt_model *m, const struct rt_dev *d)
{
	const struct rt_oop *o = &d->last_oop;

	j_open(w, NULL, '{');
	j_string(w, "name", d->name);
	j_string(w, "pool", d->pool[0] ? d->pool : NULL);
	j_bool(w, "live", model_dev_live(m, d));
	j_bool(w, "restricted", d->restricted);
	j_bool(w, "bound", d->bound);
	j_counters(w, m, rt_dev_features(m, d), &d->cur, &d->prev);
	j_percentiles(w, rt_dev_features(m, d), &d->cur, &d->prev);
	if (o->api[0]) {
		j_open(w, "last_out_of_pool", '{');
		j_string(w, "api", o->api);
		j_u64(w, "addr", o->addr, true);
		j_u64(w, "size", o->size, true);
		j_u64(w, "pool_start", o->pool_start, true);
		j_u64(w, "pool_end", o->pool_end, true);
		j_close(w, '}');
	} else {
		j_string(w, "last_out_of_pool", NULL);
	}
	j_close(w, '}');
}

static const char *event_type(unsigned int t)
{
	static const char *const names[] = {
		[RDMA_EV_ATTACH] = "attach", [RDMA_EV_DETACH] = "detach",
		[RDMA_EV_MAP_FAILED] = "map_failed", [RDMA_EV_ALLOC_FAILED] = "alloc_failed",
		[RDMA_EV_OOP_KERNEL] = "out_of_pool_kernel",
		[RDMA_EV_OOP_CHECK] = "out_of_pool_check",
	};

	return t < sizeof(names) / sizeof(names[0]) && names[t] ? names[t] : "unknown";
}

static void j_event(struct jw *w, const struct rt_event *e)
{
	const struct rdma_event *ev = &e->ev;

	j_open(w, NULL, '{');
	j_string(w, "type", event_type(ev->type));
	j_time(w, "time", e->time);
	j_string(w, "device", ev->dev_name);
	j_string(w, "pool", ev->pool_name[0] ? ev->pool_name : NULL);
	j_string(w, "api", ev->api[0] ? ev->api : NULL);
	j_u64(w, "addr", ev->addr, true);
	j_u64(w, "size", ev->size, true);
	j_u64(w, "pool_start", ev->pool_start, true);
	j_u64(w, "pool_end", ev->pool_end, true);
	j_u64(w, "used_slots", ev->used, true);
	j_u64(w, "nslabs", ev->nslabs, true);
	j_bool(w, "refused", ev->refused);
	j_close(w, '}');
}

void out_json(const struct rt_model *m, FILE *f, const char *filter)
{
	struct jw w = { .f = f, .first = true };
	unsigned int bit;
	size_t i;

	j_open(&w, NULL, '{');
	j_u64(&w, "schema", RT_JSON_SCHEMA, true);
	j_time(&w, "time", m->now);
	j_string(&w, "host", m->host[0] ? m->host : NULL);
	j_string(&w, "kernel", m->kernel[0] ? m->kernel : NULL);
	j_num(&w, "interval_s", m->dt, m->dt > 0);
	j_string(&w, "mode", rt_full_mode(m) ? "full" : "fallback");
	j_open(&w, "unavailable", '[');
	for (bit = 1; bit & RT_F_ALL; bit <<= 1) {
		if (m->features & bit)
			continue;
		if (!w.first)
			fputc(',', f);
		w.first = false;
		j_str(f, rt_feature_name(bit));
	}
	j_close(&w, ']');
	j_string(&w, "dma_api_source", has(m, RT_F_BPF) && m->source != RDMA_SRC_NONE ?
		 rt_source_name(m->source) : NULL);
	j_bool(&w, "restricted_only", m->restricted_only);
	j_u64(&w, "ringbuf_drops_total", m->self.ringbuf_drops, has(m, RT_F_BPF));
	j_u64(&w, "inflight_untracked_total", m->self.inflight_full, has(m, RT_F_BPF));
	j_u64(&w, "events_untracked_total", m->self.untracked, has(m, RT_F_BPF));
	j_u64(&w, "unmatched_unmaps_total", m->self.unmatched, has(m, RT_F_UNMAP));
	j_u64(&w, "program_runs_missed_total", m->runs_missed, has(m, RT_F_BPF));
	j_u64(&w, "kernel_memory_bytes", m->kernel_bytes, m->kernel_bytes != 0);
	j_u64(&w, "program_runs_total", m->prog_runs, m->self_stats);
	j_u64(&w, "program_run_time_ns_total", m->prog_run_ns, m->self_stats);
	j_open(&w, "pools", '[');
	for (i = 0; i < m->npools; i++)
		if (rt_pool_match(&m->pools[i], filter))
			j_pool(&w, m, &m->pools[i]);
	j_close(&w, ']');
	j_open(&w, "devices", '[');
	for (i = 0; i < m->ndevs; i++)
		if (model_dev_listed(m, &m->devs[i]) && rt_dev_match(&m->devs[i], filter))
			j_dev(&w, m, &m->devs[i]);
	j_close(&w, ']');
	j_open(&w, "events", '[');
	for (i = 0; i < m->ninterval; i++)
		j_event(&w, &m->interval_events[i]);
	j_close(&w, ']');
	j_close(&w, '}');
	fputc('\n', f);
	fflush(f);
}
