// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rdmatop's pure parts, TAP output:
 *   unit                      run every test
 *   unit --emit-json FILE     write a sample --json interval (for validate.py)
 *   unit --emit-prom FILE     write a sample --prometheus file (atomically)
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "collect.h"
#include "format.h"
#include "hist.h"
#include "model.h"
#include "options.h"
#include "output.h"
#include "view.h"
#include "rdma_slot.h"
#include "rdma_hist.h"

static int tests, failures;

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		failures++;
}

static void diag(const char *what, const char *got)
{
	printf("# %s: '%s'\n", what, got);
}

/* ---- percentiles ---- */

/* The @p-th percentile of @h, -1 when there is none. */
static double pct(const uint64_t *h, double p)
{
	double v;

	return hist_percentile(h, RDMA_HIST_SLOTS, p, &v) ? v : -1;
}

/*
 * rdma_hist_slot() against the compiler's count of leading zeros: the
 * bits v - 1 needs, capped at the last slot. Every power of two and its
 * neighbours, then 100k values of every magnitude (a fixed-seed LCG).
 */
static uint32_t slot_by_clz(uint64_t v)
{
	uint32_t r = v > 1 ? 64 - __builtin_clzll(v - 1) : 0;

	return r < RDMA_HIST_SLOTS ? r : RDMA_HIST_SLOTS - 1;
}

static bool hist_slot_matches_clz(void)
{
	uint64_t x = 0x2545f4914f6cdd1dULL, v;
	int k, i;

	for (k = 0; k < 64; k++) {
		v = 1ULL << k;
		if (rdma_hist_slot(v - 1) != slot_by_clz(v - 1) ||
		    rdma_hist_slot(v) != slot_by_clz(v) ||
		    rdma_hist_slot(v + 1) != slot_by_clz(v + 1))
			return false;
	}
	for (i = 0; i < 100000; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		v = x >> (x & 63);	/* every magnitude, not only huge ones */
		if (rdma_hist_slot(v) != slot_by_clz(v))
			return false;
	}
	return rdma_hist_slot(~0ULL) == slot_by_clz(~0ULL);
}

static void test_hist(void)
{
	uint64_t h[RDMA_HIST_SLOTS] = { 0 };
	double v;

	ok(pct(h, 50) == -1, "hist: empty histogram has no percentile");
	h[12] = 1000;	/* 1000 maps of exactly 4096 bytes: (2048, 4096] */
	v = pct(h, 50);
	ok(v == 4096, "hist: p50 of 1000 maps of 4096 bytes is 4096 (%g)", v);
	v = pct(h, 100);
	ok(v == 4096, "hist: p100 is the slot's upper bound, which holds its values (%g)", v);
	h[20] = 1;	/* one outlier in (512 KiB, 1 MiB] */
	v = pct(h, 90);
	ok(v == 4096, "hist: p90 of 1000 small + 1 large stays in the small slot (%g)", v);
	h[20] = 100;
	v = pct(h, 99);
	ok(v == 1 << 20, "hist: p99 of 1000 small + 100 large is the large slot's bound (%g)", v);
	memset(h, 0, sizeof(h));
	h[0] = 4;
	v = pct(h, 50);
	ok(v == 1, "hist: slot 0 holds [0, 1] (%g)", v);
	ok(pct(h, 0) == -1 && pct(h, 101) == -1, "hist: percentiles outside (0, 100] are refused");
	ok(hist_total(h, RDMA_HIST_SLOTS) == 4, "hist: total");
	/* The BPF program's own bucketing (bpf/rdma_hist.h). */
	ok(rdma_hist_slot(4096) == 12,
	   "hist: a map of 4096 bytes goes in slot 12, whose bound is 4096");
	ok(rdma_hist_slot(4097) == 13 && rdma_hist_slot(2049) == 12,
	   "hist: slot 12 holds (2048, 4096]");
	ok(rdma_hist_slot(0) == 0 && rdma_hist_slot(1) == 0 && rdma_hist_slot(2) == 1,
	   "hist: slot 0 holds [0, 1], slot 1 holds 2");
	ok(rdma_hist_slot(1ULL << 32) == 32 && rdma_hist_slot((1ULL << 32) + 1) == 33 &&
	   rdma_hist_slot(0xffffffffU) == 32,
	   "hist: 64-bit values: 2^32 in slot 32, 2^32 + 1 in slot 33");
	ok(rdma_hist_slot(1ULL << 38) == 38 && rdma_hist_slot((1ULL << 38) + 1) == RDMA_HIST_SLOTS - 1 &&
	   rdma_hist_slot(~0ULL) == RDMA_HIST_SLOTS - 1,
	   "hist: the last slot holds the rest");
	/* 2 s in flight, in ns, is in the slot bounded by 2^31 ns. */
	ok(rdma_hist_slot(2000000000ULL) == 31, "hist: time: 2 s in flight in le=2^31 ns");
	ok(hist_slot_matches_clz(), "hist: the slot of every 2^k - 1, 2^k, 2^k + 1 and 100k others is the one clz gives");
}

/* ---- bounces in flight: interleavings of map and unmap events ---- */

static void test_slot(void)
{
	struct rdma_slot s = { 0 };
	__s64 inflight = 0;
	__u64 ts;
	int unmatched = 0;

	/*
	 * CPU0's mapping A is released by swiotlb, CPU1 maps B at the same
	 * first slot and its map event runs, then A's unmap event, then B's.
	 */
	rdma_slot_map(&s, 1796358298000000000ULL);		/* A */
	inflight++;
	rdma_slot_map(&s, 1796358298000500000ULL);		/* B, before A's unmap event */
	inflight++;
	if (rdma_slot_unmap(&s, &ts))				/* A's unmap event */
		inflight--;
	else
		unmatched++;
	if (rdma_slot_unmap(&s, &ts))				/* B's */
		inflight--;
	else
		unmatched++;
	ok(inflight == 0 && !unmatched && s.held == 0,
	   "slot: a slot reused before the unmap event: nothing left in flight (%lld, %d unmatched)",
	   (long long)inflight, unmatched);
	ok(ts == 0, "slot: neither of two overlapping mappings is timed");
	rdma_slot_map(&s, 1796358298001000000ULL);
	ok(rdma_slot_unmap(&s, &ts) && ts == 1796358298001000000ULL,
	   "slot: a mapping held alone is timed by its own stamp");
	ok(!rdma_slot_unmap(&s, &ts) && s.held == 0,
	   "slot: an unmap of a mapping made before attach is unmatched, held stays 0");
}

/* ---- formatting ---- */

static void expect(const char *got, const char *want, const char *what)
{
	ok(!strcmp(got, want), "format: %s is '%s'", what, want);
	if (strcmp(got, want))
		diag("got", got);
}

/* fmt_u64(), fmt_s64() and fmt_g6() write what printf writes. */
static void test_fmt_numbers(void)
{
	static const double fixed[] = {
		0, -0.0, 1, -1, 0.5, 0.1, 0.15, 2.5, 1e-4, 9.99999e-5, 0.000123456789,
		1234567, 999999, 999999.4, 999999.5, 999999.6, 123456.5, 99999.95,
		0.999999, 0.9999995, 1.0000005, 1e5, 1e6, 1e-5, 3.14159265358979,
		-42.125, 1e300, -1e-300, 1.5e15, 65536, 4096.0 / 3, 3.8e6, 1e22, 1e23,
		9.999995e-5, 1234565e10, 1e-17, 2.5e-18,
	};
	char mine[FMT_NUM_LEN], want[FMT_NUM_LEN];
	int i, bad = 0, n = 200000;
	unsigned long long x = 88172645463325252ULL;
	double v;

	fmt_u64(mine, 0);
	expect(mine, "0", "fmt_u64 0");
	fmt_u64(mine, UINT64_MAX);
	expect(mine, "18446744073709551615", "fmt_u64 UINT64_MAX");
	fmt_s64(mine, INT64_MIN);
	expect(mine, "-9223372036854775808", "fmt_s64 INT64_MIN");
	fmt_s64(mine, -7);
	expect(mine, "-7", "fmt_s64 -7");
	for (i = 0; i < (int)(sizeof(fixed) / sizeof(fixed[0])); i++) {
		snprintf(want, sizeof(want), "%.6g", fixed[i]);
		fmt_g6(mine, fixed[i]);
		ok(!strcmp(mine, want), "fmt_g6(%.17g): '%s', printf '%s'", fixed[i], mine, want);
	}
	/* Random magnitudes over %.6g's fixed-point range and beyond. */
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (double)(x >> 11) / (double)(1ULL << 53) * pow(10, (int)(x % 50) - 25);
		if (x & 1)
			v = -v;
		snprintf(want, sizeof(want), "%.6g", v);
		if (fmt_g6(mine, v) == (int)strlen(mine) && !strcmp(mine, want))
			continue;
		if (bad++ < 5)
			printf("# fmt_g6(%.17g): '%s', printf '%s'\n", v, mine, want);
	}
	/* Short decimals, 7 digits: ties at the sixth, exact or not. */
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (double)(x % 10000000) / pow(10, (int)((x >> 32) % 11));
		snprintf(want, sizeof(want), "%.6g", v);
		if (fmt_g6(mine, v) == (int)strlen(mine) && !strcmp(mine, want))
			continue;
		if (bad++ < 5)
			printf("# fmt_g6(%.17g): '%s', printf '%s'\n", v, mine, want);
	}
	ok(!bad, "fmt_g6: %d random values as printf writes them (%d differ)", 2 * n, bad);
}

static void test_format(void)
{
	char b[64];

	fmt_bytes(b, sizeof(b), 0);
	expect(b, "0", "0 bytes");
	fmt_bytes(b, sizeof(b), 512);
	expect(b, "512", "512 bytes");
	fmt_bytes(b, sizeof(b), 4096);
	expect(b, "4.0K", "4096 bytes");
	fmt_bytes(b, sizeof(b), 12 << 20);
	expect(b, "12M", "12 MiB");
	fmt_bytes(b, sizeof(b), 1023);
	expect(b, "1.0K", "1023 bytes (rounds into the next unit)");
	fmt_count(b, sizeof(b), 12345);
	expect(b, "12k", "a rate of 12345");
	fmt_count(b, sizeof(b), 2.5);
	expect(b, "2.5", "a rate of 2.5");
	fmt_ns(b, sizeof(b), 850);
	expect(b, "850ns", "850 ns");
	fmt_ns(b, sizeof(b), 3.4e6);
	expect(b, "3.4ms", "3.4 ms");
	fmt_ns(b, sizeof(b), 12e3);
	expect(b, "12us", "12 us");
	fmt_elide(b, sizeof(b), "blk-pool@70000000", 9);
	expect(b, "blk-~0000", "blk-pool@70000000 elided to 9");
	fmt_elide(b, sizeof(b), "short", 9);
	expect(b, "short", "a short name, unchanged");
}

/* ---- the model ---- */

static void fill_model(struct rt_model *m, unsigned int features)
{
	struct rt_pool *p;
	struct rt_dev *d;
	int i;

	model_init(m);
	m->features = features;
	model_begin(m, 1000.0);
	p = model_pool(m, "blk-pool@70000000");
	p->restricted = true;
	p->base = 0x70000000;
	p->size = 4 << 20;
	p->nslabs = 2048;
	p->used = 16;
	p->have_used = true;
	p->hiwater = 147;
	p->have_hiwater = features & RT_F_HIWATER;
	d = model_dev(m, "a003e00.virtio_mmio");
	snprintf(d->pool, sizeof(d->pool), "blk-pool@70000000");
	d->restricted = true;
	d = model_dev(m, "a003c00.virtio_mmio");
	/* A name that needs escaping in JSON and Prometheus. */
	d = model_dev(m, "odd\"name\\x");
	model_begin(m, 1002.0);
	model_pool(m, "blk-pool@70000000");
	model_dev(m, "a003e00.virtio_mmio");
	model_dev(m, "a003c00.virtio_mmio");
	model_dev(m, "odd\"name\\x");
	p = &m->pools[0];
	p->have_used = true;
	p->have_hiwater = features & RT_F_HIWATER;
	p->cur.maps = 2000;
	p->cur.unmaps = 1990;
	p->cur.map_bytes = 8 << 20;
	p->cur.bytes_to_device = 4 << 20;
	p->cur.bytes_from_device = 4 << 20;
	p->cur.inflight = 10;
	d = model_find_dev(m, "a003e00.virtio_mmio");
	d->cur = p->cur;
	for (i = 0; i < 10; i++)
		d->cur.size_hist[12] += 100, d->cur.time_hist[17] += 100;
	d->cur.time_ns = 1000 * 131072ULL;
}

static void test_model(void)
{
	struct rdma_counters cpu[2], sum;
	struct rdma_event ev;
	struct rt_model m;
	struct rt_dev *d;

	memset(cpu, 0, sizeof(cpu));
	memset(&sum, 0, sizeof(sum));
	cpu[0].maps = 5;
	cpu[0].inflight = 3;
	cpu[1].maps = 7;
	cpu[1].inflight = -1;	/* unmapped on another CPU than mapped */
	cpu[0].size_hist[3] = 2;
	cpu[1].size_hist[3] = 1;
	rt_counters_add(&sum, &cpu[0]);
	rt_counters_add(&sum, &cpu[1]);
	ok(sum.maps == 12 && sum.inflight == 2 && sum.size_hist[3] == 3,
	   "model: per-CPU counters sum, in-flight deltas included");
	memset(&cpu[1], 0, sizeof(cpu[1]));
	cpu[1].maps = 2;
	cpu[1].map_failures = 9;
	cpu[1].oop_check = 4;
	sum.unmaps = 3;
	sum.bytes_from_device = 4096;
	rt_counters_add_mappings(&cpu[1], &sum);
	ok(cpu[1].maps == 14 && cpu[1].unmaps == 3 && cpu[1].bytes_from_device == 4096 &&
	   cpu[1].inflight == 2 && cpu[1].map_failures == 9 && cpu[1].oop_check == 4 &&
	   cpu[1].size_hist[3] == 3,
	   "model: a pool adds its devices' mappings and histograms, not their failures");

	fill_model(&m, RT_F_ALL);
	ok(m.npools == 1 && m.ndevs == 3, "model: one pool and three devices, found by name");
	ok(model_pool(&m, "blk-pool@70000000") == &m.pools[0] && m.npools == 1,
	   "model: adding an existing pool finds it");
	ok(m.dt == 2.0 && rt_rate(m.pools[0].cur.maps, m.pools[0].prev.maps, m.dt) == 1000,
	   "model: rates over the interval (2000 maps in 2 s)");
	ok(rt_used_bytes(&m.pools[0]) == 32768 && rt_pct(32768, 4 << 20) > 0.78 &&
	   rt_pct(32768, 4 << 20) < 0.79, "model: used slots to bytes and percent");
	ok(model_total_size(&m) == 4 << 20 && model_total_used(&m) == 32768,
	   "model: totals over live restricted pools");

	model_begin(&m, 1003.0);
	model_pool(&m, "blk-pool@70000000");
	model_dev(&m, "a003e00.virtio_mmio");
	ok(model_dev_live(&m, model_find_dev(&m, "a003e00.virtio_mmio")) &&
	   !model_dev_live(&m, model_find_dev(&m, "a003c00.virtio_mmio")),
	   "model: a device not seen in an interval is gone, a seen one live");

	memset(&ev, 0, sizeof(ev));
	ev.type = RDMA_EV_ATTACH;
	snprintf(ev.dev_name, sizeof(ev.dev_name), "dma-test");
	snprintf(ev.pool_name, sizeof(ev.pool_name), "test-pool@70c00000");
	model_event(&m, &ev, 1003.5);
	d = model_find_dev(&m, "dma-test");
	ok(d && !strcmp(d->pool, "test-pool@70c00000") && d->restricted,
	   "model: an attach event adds the device with its pool");
	ev.type = RDMA_EV_OOP_CHECK;
	snprintf(ev.api, sizeof(ev.api), "dma_map_resource");
	ev.addr = 0x40000000;
	ev.size = 4096;
	model_event(&m, &ev, 1003.6);
	d = model_find_dev(&m, "dma-test");
	ok(d && d->last_oop.addr == 0x40000000 && !strcmp(d->last_oop.api, "dma_map_resource"),
	   "model: an out-of-pool event is kept on its device");
	ok(m.ninterval == 2 && m.nrecent == 2, "model: events kept for the interval and the screen");
	model_events_done(&m);
	ok(m.ninterval == 0 && m.nrecent == 2, "model: interval events forgotten, recent kept");
	ev.type = RDMA_EV_DETACH;
	model_event(&m, &ev, 1003.7);
	ok(!model_find_dev(&m, "dma-test")->pool[0], "model: a detach event clears the pool");

	model_sort(&m, RT_SORT_NAME, false);
	ok(!strcmp(m.devs[0].name, "a003c00.virtio_mmio"), "model: sort by name");
	model_find_dev(&m, "a003e00.virtio_mmio")->cur.maps += 5;
	model_sort(&m, RT_SORT_MAPS, false);
	ok(!strcmp(m.devs[0].name, "a003e00.virtio_mmio"), "model: sort by maps, busiest first");
	ok(rt_sort_parse("oop") == RT_SORT_OOP && rt_sort_parse("nope") < 0,
	   "model: sort names parse");
	model_free(&m);
}

/* ---- tables fit the terminal ---- */

struct lines {
	int n;
	int widest;
	char first[1024];
	char all[8192];
};

static void collect(void *ctx, int row, const char *text)
{
	struct lines *l = ctx;
	int w = (int)strlen(text);

	if (!row)
		snprintf(l->first, sizeof(l->first), "%s", text);
	if (w > l->widest)
		l->widest = w;
	strncat(l->all, text, sizeof(l->all) - strlen(l->all) - 2);
	strcat(l->all, "\n");
	l->n++;
}

static void test_fit(void)
{
	struct tcol cols[3] = {
		{ "NAME", 0, true, true, 6, 20 }, { "A", 2, false, false, 0, 0 },
		{ "B", 1, false, false, 0, 0 },
	};
	int natural[3] = { 20, 5, 5 }, widths[3];
	bool shown[3];
	struct lines l;
	struct rt_model m;
	struct rt_dev *d;
	int w;

	w = table_fit(cols, 3, natural, 80, shown, widths);
	ok(w == 32 && shown[0] && shown[1] && shown[2], "fit: everything fits in 80");
	w = table_fit(cols, 3, natural, 27, shown, widths);
	ok(w == 27 && shown[0] && shown[1] && shown[2] && widths[0] == 15,
	   "fit: names are shortened before any column is dropped (name %d)", widths[0]);
	w = table_fit(cols, 3, natural, 15, shown, widths);
	ok(w == 15 && shown[0] && !shown[1] && shown[2] && widths[0] == 9,
	   "fit: then the least important column goes, the name takes the room (name %d)",
	   widths[0]);
	w = table_fit(cols, 3, natural, 10, shown, widths);
	ok(w <= 10 && shown[0] && widths[0] >= 6, "fit: names shrink, not below their minimum");

	fill_model(&m, RT_F_ALL);
	memset(&l, 0, sizeof(l));
	view_devs_table(&m, 80, NULL, collect, &l);
	ok(l.n == 4 && l.widest <= 80, "fit: devices table in 80 columns (widest %d)", l.widest);
	ok(strstr(l.first, "DEVICE") && strstr(l.first, "OOP") && strstr(l.first, "POOL"),
	   "fit: 80 columns keep DEVICE, POOL and OOP");
	model_free(&m);
	/* A long device name at 80 columns: shortened, and POOL stays. */
	fill_model(&m, RT_F_ALL);
	d = model_dev(&m, "0000:00:02.0-nvme-controller-with-a-long-name");
	snprintf(d->pool, sizeof(d->pool), "pcie-pool@70400000");
	d->restricted = true;
	d->seen = m.gen;
	memset(&l, 0, sizeof(l));
	view_devs_table(&m, 80, NULL, collect, &l);
	ok(l.widest <= 80 && strstr(l.first, "POOL") && strstr(l.first, "T99") &&
	   strstr(l.all, "pcie-pool@70400000"),
	   "fit: a long device name is shortened at 80 columns, POOL and T99 stay (widest %d)",
	   l.widest);
	memset(&l, 0, sizeof(l));
	view_pools_table(&m, 40, NULL, collect, &l);
	ok(l.widest <= 40 && strstr(l.first, "POOL") && strstr(l.first, "USED"),
	   "fit: pools table in 40 columns keeps POOL and USED (widest %d)", l.widest);
	memset(&l, 0, sizeof(l));
	view_devs_table(&m, 512, "blk-pool", collect, &l);
	ok(l.n == 2 && strstr(l.all, "a003e00.virtio_mmio"), "fit: filter by pool name");
	model_free(&m);

	fill_model(&m, RT_F_BPF);
	memset(&l, 0, sizeof(l));
	view_pools_table(&m, 512, NULL, collect, &l);
	ok(strstr(l.all, " - ") != NULL, "view: unavailable columns show '-'");
	{
		char line[512];

		view_unavailable(&m, line, sizeof(line));
		ok(strstr(line, "fallback") && strstr(line, "INFLT") && strstr(line, "OOP"),
		   "view: fallback names the unavailable columns");
		model_free(&m);
		fill_model(&m, RT_F_ALL);
		view_unavailable(&m, line, sizeof(line));
		ok(!line[0], "view: nothing unavailable with the series");
	}
	model_free(&m);
}

/* ---- options ---- */

static int parse(struct rt_opts *o, bool tty, const char *args)
{
	char buf[256], *argv[16];
	int argc = 0;
	FILE *null = fopen("/dev/null", "w");
	int r;

	snprintf(buf, sizeof(buf), "rdmatop %s", args);
	for (char *t = strtok(buf, " "); t && argc < 15; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	r = options_parse(o, argc, argv, tty, null);
	fclose(null);
	return r;
}

static void test_options(void)
{
	struct rt_opts o;

	ok(!parse(&o, true, "") && o.mode == RT_MODE_SCREEN && o.delay == 1,
	   "options: a terminal gets the screen, 1 s");
	ok(!parse(&o, false, "") && o.mode == RT_MODE_BATCH, "options: a pipe gets batch");
	ok(!parse(&o, true, "-b -d 0.5 -n 3") && o.mode == RT_MODE_BATCH && o.delay == 0.5 &&
	   o.iterations == 3, "options: -b -d 0.5 -n 3");
	ok(!parse(&o, true, "--check --duration 5 --failures-warn") && o.mode == RT_MODE_CHECK &&
	   o.duration == 5 && o.failures_warn, "options: --check --duration 5 --failures-warn");
	ok(!parse(&o, true, "--prometheus /tmp/x.prom") && o.mode == RT_MODE_QUIET &&
	   !strcmp(o.prometheus, "/tmp/x.prom"), "options: --prometheus alone is quiet");
	ok(!parse(&o, true, "--json --prometheus f") && o.mode == RT_MODE_JSON && o.prometheus,
	   "options: --json with --prometheus");
	ok(!parse(&o, true, "-s oop -r -f blk") && o.sort == RT_SORT_OOP && o.reverse &&
	   !strcmp(o.filter, "blk"), "options: -s oop -r -f blk");
	ok(parse(&o, true, "--json --batch") == RT_EXIT_SETUP, "options: --json with --batch: 2");
	ok(parse(&o, true, "--duration 3") == RT_EXIT_SETUP, "options: --duration alone: 2");
	ok(parse(&o, true, "-d 0") == RT_EXIT_SETUP, "options: -d 0: 2");
	ok(parse(&o, true, "-d x") == RT_EXIT_SETUP, "options: -d x: 2");
	ok(parse(&o, true, "-n -1") == RT_EXIT_SETUP, "options: -n -1: 2");
	ok(parse(&o, true, "--bogus") == RT_EXIT_SETUP, "options: unknown option: 2");
	ok(parse(&o, true, "-d") == RT_EXIT_SETUP, "options: missing argument: 2");
	ok(parse(&o, true, "-s size") == RT_EXIT_SETUP, "options: unknown sort column: 2");
	ok(parse(&o, true, "stray") == RT_EXIT_SETUP, "options: stray argument: 2");
	ok(parse(&o, true, "--check --no-bpf") == RT_EXIT_SETUP, "options: --check --no-bpf: 2");
	ok(!parse(&o, true, "--restricted-only -b") && o.restricted_only,
	   "options: --restricted-only");
	ok(parse(&o, true, "--restricted-only --no-bpf") == RT_EXIT_SETUP,
	   "options: --restricted-only --no-bpf: 2");
	ok(!parse(&o, true, "-h") && o.help, "options: -h");
}

/* ---- --check ---- */

static int verdict(struct rt_model *m, bool warn, char *out, size_t len)
{
	FILE *f = fmemopen(out, len, "w");
	int r = check_verdict(m, warn, 3, 0, f);

	fclose(f);
	return r;
}

/* A window cut short by SIGINT (2): no "ok", but what was seen still fails. */
static void verdict_cut(char *out, size_t len)
{
	struct rt_model m;
	FILE *f;
	int r;

	fill_model(&m, RT_F_ALL);
	f = fmemopen(out, len, "w");
	r = check_verdict(&m, false, 1.5, 2, f);
	fclose(f);
	ok(r == 130 && !strstr(out, "ok:") && strstr(out, "interrupted after 1.5s: no verdict"),
	   "check: a window cut by SIGINT gives no ok: exit 130, \"no verdict\" (%d)", r);
	model_find_dev(&m, "a003e00.virtio_mmio")->cur.oop_check = 1;
	f = fmemopen(out, len, "w");
	r = check_verdict(&m, false, 1.5, 2, f);
	fclose(f);
	ok(r == 1 && strstr(out, "FAIL a003e00.virtio_mmio"),
	   "check: out of pool seen before SIGINT: exit 1 all the same");
	model_free(&m);
}

static void test_check(void)
{
	struct rt_model m;
	char out[2048];
	struct rt_dev *d;

	fill_model(&m, RT_F_ALL);
	ok(verdict(&m, false, out, sizeof(out)) == 0 && !strncmp(out, "rdmatop: ok:", 12),
	   "check: clean window: exit 0, one ok line");
	d = model_find_dev(&m, "a003c00.virtio_mmio");
	d->cur.map_failures = 2;
	ok(verdict(&m, false, out, sizeof(out)) == 1 && strstr(out, "FAIL a003c00.virtio_mmio"),
	   "check: pool failures: exit 1 naming the device");
	ok(verdict(&m, true, out, sizeof(out)) == 0 && strstr(out, "WARN a003c00.virtio_mmio"),
	   "check: --failures-warn: exit 0 with a WARN line");
	d = model_find_dev(&m, "a003e00.virtio_mmio");
	d->cur.oop_check = 1;
	snprintf(d->last_oop.api, sizeof(d->last_oop.api), "dma_map_resource");
	d->last_oop.addr = 0x40000000;
	ok(verdict(&m, true, out, sizeof(out)) == 1 &&
	   strstr(out, "FAIL a003e00.virtio_mmio: 1 out-of-pool") && strstr(out, "0x40000000"),
	   "check: out of pool: exit 1, device, range and API named");
	model_free(&m);

	/* Holes in what was seen are never an "ok". */
	fill_model(&m, RT_F_ALL);
	m.self.unchecked = 3;
	model_find_dev(&m, "a003c00.virtio_mmio")->cur.unchecked = 3;
	ok(verdict(&m, false, out, sizeof(out)) == 1 &&
	   strstr(out, "FAIL a003c00.virtio_mmio: 3 scatterlist segment(s)"),
	   "check: scatterlist segments past the walk: exit 1, device named");
	model_free(&m);
	fill_model(&m, RT_F_ALL);
	m.self.oop_untracked = 2;
	m.self.untracked = 5;
	ok(verdict(&m, false, out, sizeof(out)) == 1 &&
	   strstr(out, "FAIL: 2 out-of-pool DMA range(s) of devices past rdmatop's table"),
	   "check: out of pool on a device past the table: exit 1");
	model_free(&m);
	fill_model(&m, RT_F_ALL);
	m.self.untracked = 5;
	ok(verdict(&m, false, out, sizeof(out)) == 0 && strstr(out, "5 event(s) of devices or "
	   "pools past rdmatop's tables") && strstr(out, "rdmatop: ok:"),
	   "check: devices past the table are reported, still checked");
	model_free(&m);
	fill_model(&m, RT_F_ALL & ~RT_F_FAILURES);
	ok(verdict(&m, false, out, sizeof(out)) == 0 && !strstr(out, "no pool failure") &&
	   strstr(out, "pool failures are not visible"),
	   "check: no claim about pool failures the kernel cannot show");
	model_free(&m);
	verdict_cut(out, sizeof(out));
}

/* ---- exact numbers in the machine outputs ---- */

static void test_exact(void)
{
	char buf[1 << 16];
	struct rt_model m;
	struct rt_dev *d;
	FILE *f;

	fill_model(&m, RT_F_ALL);
	m.now = 1796358298.123456;
	snprintf(m.host, sizeof(m.host), "board-7");
	snprintf(m.kernel, sizeof(m.kernel), "6.1.192");
	m.source = RDMA_SRC_FENTRY;
	f = fmemopen(buf, sizeof(buf), "w");
	out_json(&m, f, "");
	fclose(f);
	ok(strstr(buf, "\"time\":1796358298.123456,") != NULL,
	   "json: time has microseconds (1796358298.123456)");
	d = model_find_dev(&m, "a003e00.virtio_mmio");
	memset(d->cur.size_hist, 0, sizeof(d->cur.size_hist));
	memset(d->cur.time_hist, 0, sizeof(d->cur.time_hist));
	d->cur.size_hist[20] = 1000;	/* 1000 maps of 1 MiB ... */
	d->cur.time_hist[31] = 1000;	/* ... each in flight for 2 s */
	f = fmemopen(buf, sizeof(buf), "w");
	out_json(&m, f, "");
	fclose(f);
	ok(strstr(buf, "\"size_p50_bytes\":1048576,") &&
	   strstr(buf, "\"time_p99_ns\":2147483648,"),
	   "json: percentiles are exact integers (1048576 bytes, 2147483648 ns)");
	f = fmemopen(buf, sizeof(buf), "w");
	prom_render(&m, f);
	fclose(f);
	ok(strstr(buf, "\nrestricted_dma_info{kernel=\"6.1.192\",series=\"yes\",mode=\"full\","
		  "dma_api_source=\"fentry\",traced=\"all\",debugfs=\"yes\"} 1\n") != NULL,
	   "prom: restricted_dma_info names the kernel, the DMA API source and what is traced");
	f = fmemopen(buf, sizeof(buf), "w");
	out_json(&m, f, "");
	fclose(f);
	ok(!strncmp(buf, "{\"schema\":2,", 12),
	   "json: each record starts with its schema version (2)");
	ok(strstr(buf, "\"host\":\"board-7\",\"kernel\":\"6.1.192\",") &&
	   strstr(buf, "\"dma_api_source\":\"fentry\","),
	   "json: each record names its host, kernel and DMA API source");
	d = model_find_dev(&m, "a003e00.virtio_mmio");
	memset(d->cur.size_hist, 0, sizeof(d->cur.size_hist));
	d->cur.size_hist[12] = 1000;		/* 1000 maps of 4096 bytes */
	f = fmemopen(buf, sizeof(buf), "w");
	prom_render(&m, f);
	fclose(f);
	ok(strstr(buf, "restricted_dma_device_mapping_size_bytes_bucket{device=\"a003e00.virtio_mmio\","
		   "pool=\"blk-pool@70000000\",le=\"4096\"} 1000\n") &&
	   strstr(buf, "restricted_dma_device_mapping_size_bytes_bucket{device=\"a003e00.virtio_mmio\","
		   "pool=\"blk-pool@70000000\",le=\"2048\"} 0\n"),
	   "prom: 1000 maps of 4096 bytes are in le=\"4096\", none in le=\"2048\"");
	model_free(&m);
}

/* ---- Prometheus: families and their features ---- */

/* @buf's sample @line (a whole line, without its newline) is there. */
static bool has_line(const char *buf, const char *line)
{
	size_t n = strlen(line);
	const char *p = buf;

	while ((p = strstr(p, line))) {
		if ((p == buf || p[-1] == '\n') && p[n] == '\n')
			return true;
		p++;
	}
	return false;
}

static void render(const struct rt_model *m, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	prom_render(m, f);
	fclose(f);
}

static void test_prom_families(void)
{
	static char buf[1 << 16];
	struct rt_model m;
	struct rt_dev *d;
	struct rt_pool *p;

	/* One out-of-pool range, seen by the kernel's audit and by rdmatop. */
	fill_model(&m, RT_F_ALL);
	m.now = 1796358298.5;
	m.started = 1796358000.25;
	m.interval = 15;
	d = model_find_dev(&m, "a003e00.virtio_mmio");
	d->cur.oop_kernel = 1;
	d->cur.oop_check = 1;
	d->cur.refused = 1;
	d->cur.inflight_bytes = 40960;
	d->cur.allocs = 3;
	d->cur.frees = 2;
	d->bound = true;
	render(&m, buf, sizeof(buf));
	ok(has_line(buf, "restricted_dma_device_out_of_pool_total{device=\"a003e00.virtio_mmio\","
		    "pool=\"blk-pool@70000000\"} 1"),
	   "prom: one range seen by both the audit and the check counts once in out_of_pool_total");
	ok(has_line(buf, "restricted_dma_device_out_of_pool_kernel_total{device=\"a003e00.virtio_mmio\","
		    "pool=\"blk-pool@70000000\"} 1") &&
	   has_line(buf, "restricted_dma_device_out_of_pool_check_total{device=\"a003e00.virtio_mmio\","
		    "pool=\"blk-pool@70000000\"} 1") && !strstr(buf, "\",source=\"kernel\""),
	   "prom: each source of out-of-pool counts is its own family, no source label");
	ok(has_line(buf, "restricted_dma_device_refused_total{device=\"a003e00.virtio_mmio\","
		    "pool=\"blk-pool@70000000\"} 1") &&
	   has_line(buf, "restricted_dma_device_inflight_bytes{device=\"a003e00.virtio_mmio\","
		    "pool=\"blk-pool@70000000\"} 40960") &&
	   has_line(buf, "restricted_dma_device_allocs_total{device=\"a003e00.virtio_mmio\","
		    "pool=\"blk-pool@70000000\"} 3") &&
	   has_line(buf, "restricted_dma_device_frees_total{device=\"a003e00.virtio_mmio\","
		    "pool=\"blk-pool@70000000\"} 2"),
	   "prom: refused mappings, bytes in flight, coherent allocs and frees");
	ok(has_line(buf, "restricted_dma_device_restricted{device=\"a003e00.virtio_mmio\","
		    "pool=\"blk-pool@70000000\"} 1") &&
	   has_line(buf, "restricted_dma_device_bound{device=\"a003e00.virtio_mmio\","
		    "pool=\"blk-pool@70000000\"} 1") &&
	   has_line(buf, "restricted_dma_device_restricted{device=\"a003c00.virtio_mmio\","
		    "pool=\"none\"} 0") &&
	   has_line(buf, "restricted_dma_pool_base_address{pool=\"blk-pool@70000000\"} 1879048192") &&
	   has_line(buf, "restricted_dma_pool_restricted{pool=\"blk-pool@70000000\"} 1"),
	   "prom: whether a device is restricted and bound, a pool's base (0x70000000)");
	ok(has_line(buf, "restricted_dma_last_update_timestamp_seconds 1796358298.5") &&
	   has_line(buf, "restricted_dma_start_time_seconds 1796358000.25") &&
	   has_line(buf, "restricted_dma_update_interval_seconds 15"),
	   "prom: when written, when started (counters count from then), how often");
	ok(has_line(buf, "restricted_dma_feature{feature=\"out_of_pool_kernel\",source=\"kernel_audit\"} 1") &&
	   has_line(buf, "restricted_dma_feature{feature=\"pool_use\",source=\"debugfs\"} 1") &&
	   !strstr(buf, "feature=\"?\""),
	   "prom: restricted_dma_feature lists every feature, 1 when given");
	model_free(&m);

	/* A stock kernel: no out-of-pool audit event, no debugfs. */
	fill_model(&m, RT_F_ALL & ~(RT_F_OOP_KERNEL | RT_F_HIWATER));
	m.no_debugfs = true;
	m.pools[0].have_used = false;
	d = model_find_dev(&m, "a003e00.virtio_mmio");
	d->cur.oop_check = 2;
	render(&m, buf, sizeof(buf));
	ok(!strstr(buf, "out_of_pool_kernel_total") && !strstr(buf, "refused_total") &&
	   has_line(buf, "restricted_dma_device_out_of_pool_total{device=\"a003e00.virtio_mmio\","
		    "pool=\"blk-pool@70000000\"} 2"),
	   "prom: without the audit event, no kernel count of 0; out_of_pool_total is the check's");
	ok(has_line(buf, "restricted_dma_feature{feature=\"out_of_pool_kernel\",source=\"kernel_audit\"} 0") &&
	   has_line(buf, "restricted_dma_feature{feature=\"pool_use\",source=\"debugfs\"} 0") &&
	   !strstr(buf, "restricted_dma_pool_used_bytes{") &&
	   strstr(buf, "series=\"no\"") && strstr(buf, "debugfs=\"no\""),
	   "prom: without debugfs the pool use is missing and restricted_dma_feature says why");
	model_free(&m);

	/* No DMA API events (no dma_map_page): the kernel's audit still counts. */
	fill_model(&m, RT_F_ALL & ~(RT_F_OOP_CHECK | RT_F_DMA_API));
	d = model_find_dev(&m, "a003e00.virtio_mmio");
	d->cur.oop_kernel = 4;
	p = &m.pools[0];
	p->cur.oop_kernel = 4;
	render(&m, buf, sizeof(buf));
	ok(has_line(buf, "restricted_dma_device_out_of_pool_kernel_total{device=\"a003e00.virtio_mmio\","
		    "pool=\"blk-pool@70000000\"} 4") &&
	   has_line(buf, "restricted_dma_pool_out_of_pool_total{pool=\"blk-pool@70000000\"} 4") &&
	   !strstr(buf, "out_of_pool_check_total"),
	   "prom: without rdmatop's check the kernel's audit counts stay");
	model_free(&m);

	/* Nothing at all from BPF: the families say nothing, the feature metric says why. */
	fill_model(&m, 0);
	render(&m, buf, sizeof(buf));
	ok(!strstr(buf, "out_of_pool_total") && !strstr(buf, "maps_total") &&
	   has_line(buf, "restricted_dma_feature{feature=\"bpf\",source=\"bpf\"} 0") &&
	   has_line(buf, "restricted_dma_fallback_mode 1") &&
	   !strstr(buf, "restricted_dma_update_interval_seconds"),
	   "prom: without BPF only the pools' numbers and the features (all 0)");
	model_free(&m);
}

/* ---- what the program did not see: unmatched unmaps, skipped runs ---- */

static void test_unseen(void)
{
	char buf[1 << 16];
	struct rt_model m;
	FILE *f;
	int r;

	fill_model(&m, RT_F_ALL);
	m.self.unmatched = 16;		/* the virtqueues' mappings, made before attach */
	m.runs_missed = 3;		/* nested on a CPU: the kernel skipped them */
	f = fmemopen(buf, sizeof(buf), "w");
	out_json(&m, f, "");
	fclose(f);
	ok(strstr(buf, "\"unmatched_unmaps_total\":16,") &&
	   strstr(buf, "\"program_runs_missed_total\":3,"),
	   "json: unmatched unmaps and skipped program runs are shown");
	f = fmemopen(buf, sizeof(buf), "w");
	prom_render(&m, f);
	fclose(f);
	ok(strstr(buf, "\nrestricted_dma_unmatched_unmaps_total 16\n") &&
	   strstr(buf, "\nrestricted_dma_program_runs_missed_total 3\n"),
	   "prom: unmatched unmaps and skipped program runs are counters");
	view_header(&m, buf, sizeof(buf));
	ok(strstr(buf, "3 runs missed") != NULL, "view: the header says runs were missed (%s)", buf);
	f = fmemopen(buf, sizeof(buf), "w");
	r = check_verdict(&m, false, 3, 0, f);
	fclose(f);
	ok(r == 0 && strstr(buf, "rdmatop: ok:") &&
	   strstr(buf, "3 DMA API calls not seen (program runs the kernel skipped"),
	   "check: skipped runs qualify the ok line");
	model_free(&m);
}

/* ---- --restricted-only: devices without a restricted pool show nothing ---- */

static void test_restricted_only(void)
{
	char c[DC_COUNT][VIEW_CELL], buf[1 << 16], line[512];
	struct rt_model m;
	struct rt_dev *d;
	FILE *f;

	fill_model(&m, RT_F_ALL);
	m.restricted_only = true;
	d = model_find_dev(&m, "a003c00.virtio_mmio");
	d->restricted = false;			/* the board's disk without a pool */
	d->pool[0] = '\0';
	view_dev_cells(&m, d, c);
	ok(!strcmp(c[DC_MAPS], "-") && !strcmp(c[DC_INFLIGHT], "-") && !strcmp(c[DC_OOP], "-"),
	   "restricted-only: a device without a restricted pool shows - (%s %s)", c[DC_MAPS],
	   c[DC_INFLIGHT]);
	view_dev_cells(&m, model_find_dev(&m, "a003e00.virtio_mmio"), c);
	ok(strcmp(c[DC_MAPS], "-") != 0, "restricted-only: a restricted device is counted (%s)",
	   c[DC_MAPS]);
	f = fmemopen(buf, sizeof(buf), "w");
	out_json(&m, f, "");
	fclose(f);
	ok(strstr(buf, "{\"name\":\"a003c00.virtio_mmio\"") &&
	   strstr(strstr(buf, "{\"name\":\"a003c00.virtio_mmio\""), "\"maps_total\":null,") &&
	   strstr(buf, "\"restricted_only\":true,"),
	   "restricted-only: json gives null for it, and says restricted_only");
	view_unavailable(&m, line, sizeof(line));
	ok(strstr(line, "devices without a restricted pool are not traced") != NULL,
	   "restricted-only: the unavailable line says so (%s)", line);
	model_free(&m);
}

/* ---- gone devices: shown as gone for a while, then aged out ---- */

static void test_aging(void)
{
	char buf[1 << 16];
	struct rt_model m;
	struct rt_dev *d;
	struct lines l;
	FILE *f;

	fill_model(&m, RT_F_ALL);
	m.now = 1796358298.0;
	d = model_find_dev(&m, "a003c00.virtio_mmio");
	d->seen = 0;				/* no longer in sysfs ... */
	d->gone_since = m.now - 5;		/* ... for 5 s */
	memset(&l, 0, sizeof(l));
	view_devs_table(&m, 512, NULL, collect, &l);
	ok(strstr(l.all, "a003c00.vir") && strstr(l.all, "(gone)"),
	   "aging: a device gone 5 s ago is shown as gone");
	d->gone_since = m.now - RT_GONE_KEEP - 1;
	memset(&l, 0, sizeof(l));
	view_devs_table(&m, 512, NULL, collect, &l);
	ok(!strstr(l.all, "a003c00.virtio_mmio") && strstr(l.all, "a003e00.virtio_mmio"),
	   "aging: a device gone for longer than %d s is aged out of the table", RT_GONE_KEEP);
	f = fmemopen(buf, sizeof(buf), "w");
	out_json(&m, f, "");
	fclose(f);
	ok(!strstr(buf, "\"name\":\"a003c00.virtio_mmio\""), "aging: and out of --json");
	f = fmemopen(buf, sizeof(buf), "w");
	prom_render(&m, f);
	fclose(f);
	ok(!strstr(buf, "device=\"a003c00.virtio_mmio\"") &&
	   strstr(buf, "device=\"a003e00.virtio_mmio\""), "aging: and out of --prometheus");
	d->cur.oop_check = 1;
	f = fmemopen(buf, sizeof(buf), "w");
	ok(check_verdict(&m, false, 3, 0, f) == 1, "aging: --check still judges an aged-out device");
	fclose(f);
	model_free(&m);
}

/* ---- a pool's use history ---- */

static void test_history(void)
{
	struct rt_model m;
	struct rt_pool *p;
	struct lines l;
	char spark[VIEW_CELL];
	int i;

	fill_model(&m, RT_F_ALL);
	p = model_find_pool(&m, "blk-pool@70000000");	/* 4 MiB: 2048 slots */
	view_sparkline(p, spark, sizeof(spark));
	ok(!strcmp(spark, "            "), "history: none yet: blank ('%s')", spark);
	for (i = 0; i < RT_USE_HISTORY; i++) {
		/* 0% for 30 intervals, then 25%, 50%, 100% for 10 each */
		p->used = i < 30 ? 0 : i < 40 ? 512 : i < 50 ? 1024 : 2048;
		p->have_used = !(i >= 10 && i < 15);	/* unreadable for 5 */
		model_record_use(&m);
	}
	view_sparkline(p, spark, sizeof(spark));
	ok(!strcmp(spark, "__?___::==##"), "history: 60 intervals in 12 characters, the highest "
	   "use of each 5 ('%s')", spark);
	p->used = 0;
	p->have_used = true;
	model_record_use(&m);
	view_sparkline(p, spark, sizeof(spark));
	ok(!strcmp(spark, "_____::==###"),
	   "history: the window moves one interval ('%s')", spark);
	memset(&l, 0, sizeof(l));
	view_pools_table(&m, 80, NULL, collect, &l);
	ok(l.widest <= 80 && strstr(l.first, "HISTORY") && strstr(l.all, "#"),
	   "history: the pools table shows it at 80 columns (widest %d)", l.widest);
	model_free(&m);
}

/* ---- scrolling and selection in a panel ---- */

static void test_scroll(void)
{
	struct view_scroll v = { 0, 0 };

	/* 40 devices in a panel showing 10 rows. */
	view_scroll_move(&v, 40, 10, 1);
	ok(v.sel == 1 && v.top == 0, "scroll: down selects the next row (%d, %d)", v.sel, v.top);
	view_scroll_move(&v, 40, 10, 9);
	ok(v.sel == 10 && v.top == 1, "scroll: past the last row shown, the panel scrolls "
	   "(%d, %d)", v.sel, v.top);
	view_scroll_move(&v, 40, 10, VIEW_SCROLL_END);
	ok(v.sel == 39 && v.top == 30, "scroll: End: the last row, at the bottom (%d, %d)",
	   v.sel, v.top);
	view_scroll_move(&v, 40, 10, -10);
	ok(v.sel == 29 && v.top == 29, "scroll: a page up (%d, %d)", v.sel, v.top);
	view_scroll_move(&v, 40, 10, VIEW_SCROLL_HOME);
	ok(v.sel == 0 && v.top == 0, "scroll: Home (%d, %d)", v.sel, v.top);
	view_scroll_move(&v, 40, 10, -1);
	ok(v.sel == 0 && v.top == 0, "scroll: not above the first row");
	v.sel = 39;
	v.top = 30;
	view_scroll_move(&v, 12, 10, 0);	/* the list shrank to 12 */
	ok(v.sel == 11 && v.top == 2, "scroll: a shorter list keeps the selection in it "
	   "(%d, %d)", v.sel, v.top);
	view_scroll_move(&v, 0, 10, 0);
	ok(v.sel == 0 && v.top == 0, "scroll: an empty list");
}

/* ---- without debugfs: pools from the device tree, their use unknown ---- */

static void put(const char *root, const char *rel, const void *data, size_t len);

static void test_no_debugfs(void)
{
	static const unsigned char reg[16] = { 0, 0, 0, 0, 0x70, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0 };
	static const unsigned char cells2[4] = { 0, 0, 0, 2 };
	char root[] = "/tmp/rdmatop-nodbg.XXXXXX", dbg[256], dt[256], sys[256], cmd[300];
	char line[512], c[PC_COUNT][VIEW_CELL];
	struct sys_paths sp = { dbg, dt, sys };
	struct rt_model m;
	struct rt_pool *p;

	if (!mkdtemp(root)) {
		ok(0, "no debugfs: temporary directory");
		return;
	}
	snprintf(dbg, sizeof(dbg), "%s/debug", root);	/* not there: not mounted */
	snprintf(dt, sizeof(dt), "%s/dt", root);
	snprintf(sys, sizeof(sys), "%s/nosys", root);
	put(root, "dt/reserved-memory/#address-cells", cells2, 4);
	put(root, "dt/reserved-memory/#size-cells", cells2, 4);
	put(root, "dt/reserved-memory/blk-pool@70000000/reg", reg, sizeof(reg));
	put(root, "dt/reserved-memory/blk-pool@70000000/compatible", "restricted-dma-pool", 20);
	model_init(&m);
	m.features = RT_F_ALL & ~RT_F_HIWATER;	/* the series' events, no debugfs */
	model_begin(&m, 1796358298.0);
	sys_pools(&m, &sp, true);
	p = model_find_pool(&m, "blk-pool@70000000");
	ok(m.no_debugfs && p && p->size == 4 << 20 && !p->have_used,
	   "no debugfs: the pool from the device tree, its use unknown (not 0)");
	model_begin(&m, 1796358299.0);
	sys_pools(&m, &sp, false);
	ok(p && !p->have_used && p->seen == m.gen, "no debugfs: a refresh keeps it so");
	view_pool_cells(&m, p, c);
	ok(!strcmp(c[PC_USED], "-") && !strcmp(c[PC_USED_PCT], "-"),
	   "no debugfs: USED and USE%% show - (%s %s)", c[PC_USED], c[PC_USED_PCT]);
	view_unavailable(&m, line, sizeof(line));
	ok(!strstr(line, "fallback") && strstr(line, "no debugfs") && strstr(line, "USED"),
	   "no debugfs: not the fallback mode; says what is missing (%s)", line);
	model_free(&m);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		diag("cleanup", root);
}

/* ---- --self: rdmatop's own cost, from the kernel's BPF run-time statistics ---- */

static void test_self_cost(void)
{
	char buf[1 << 16], line[512];
	struct rt_model m;
	FILE *f;

	fill_model(&m, RT_F_ALL);
	view_header(&m, line, sizeof(line));
	ok(!strstr(line, "self"), "self: no cost shown without the statistics");
	m.self_stats = true;
	m.dt = 2;
	m.prog_runs = 65536;		/* this interval: 32768 a second ... */
	m.prog_run_ns = 40000000;	/* ... 20 ms a second */
	m.prev_prog_runs = 0;
	m.prev_prog_run_ns = 0;
	view_header(&m, line, sizeof(line));
	ok(strstr(line, "self 2.0% CPU") != NULL, "self: the header shows 2.0%% of a CPU (%s)", line);
	f = fmemopen(buf, sizeof(buf), "w");
	out_json(&m, f, "");
	fclose(f);
	ok(strstr(buf, "\"program_runs_total\":65536,") &&
	   strstr(buf, "\"program_run_time_ns_total\":40000000,"),
	   "self: json has the runs and their time");
	f = fmemopen(buf, sizeof(buf), "w");
	prom_render(&m, f);
	fclose(f);
	ok(strstr(buf, "\nrestricted_dma_program_run_seconds_total 0.04\n") &&
	   strstr(buf, "\nrestricted_dma_program_runs_total 65536\n"), "self: prometheus has them");
	model_free(&m);
}

/* ---- the kernel memory of the maps, from fdinfo ---- */

static void test_memlock(void)
{
	/* A dev_stats map's fdinfo on the board (6.12, 2 CPUs). */
	static const char fdinfo[] = "pos:\t0\nflags:\t02000002\nmnt_id:\t15\nino:\t1057\n"
		"map_type:\t6\nkey_size:\t4\nvalue_size:\t744\nmax_entries:\t512\n"
		"map_flags:\t0x0\nmap_extra:\t0x0\nmemlock:\t770048\nmap_id:\t5\nfrozen:\t0\n";
	char path[] = "/tmp/rdmatop-fdinfo.XXXXXX", buf[1 << 16];
	struct rt_model m;
	uint64_t bytes = 0;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	if (fd < 0) {
		ok(0, "memlock: temporary file");
		return;
	}
	if (write(fd, fdinfo, sizeof(fdinfo) - 1) != (ssize_t)sizeof(fdinfo) - 1)
		bytes = 1;
	close(fd);
	ok(!sys_memlock(path, &bytes) && bytes == 770048, "memlock: read from fdinfo (%llu)",
	   (unsigned long long)bytes);
	unlink(path);
	ok(sys_memlock(path, &bytes), "memlock: a missing fdinfo is an error");
	fill_model(&m, RT_F_ALL);
	m.kernel_bytes = 3 << 20;
	f = fmemopen(buf, sizeof(buf), "w");
	out_json(&m, f, "");
	fclose(f);
	ok(strstr(buf, "\"kernel_memory_bytes\":3145728,") != NULL, "json: kernel memory shown");
	f = fmemopen(buf, sizeof(buf), "w");
	prom_render(&m, f);
	fclose(f);
	ok(strstr(buf, "\nrestricted_dma_kernel_memory_bytes 3145728\n") != NULL, "prom: kernel memory shown");
	model_free(&m);
}

/* Write @text to a new temporary file named in @path; 0 or -1. */
static int temp_file(char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = mkstemp(path);
	bool whole;

	if (fd < 0)
		return -1;
	whole = write(fd, text, len) == (ssize_t)len;
	close(fd);
	return whole ? 0 : -1;
}

static void test_ram(void)
{
	/* The board's /proc/iomem (6.12): no-map dual-coherent is top-level "reserved". */
	static const char board[] =
		"08000000-0800ffff : GICD\n"
		"09000000-09000fff : pl011@9000000\n"
		"  09000000-09000fff : 9000000.pl011 pl011@9000000\n"
		"10000000-3efeffff : pcie@10000000\n"
		"  10000000-10000fff : 0000:00:01.0\n"
		"40000000-715fffff : System RAM\n"
		"  40200000-40c3ffff : Kernel code\n"
		"  71500000-715fffff : reserved\n"
		"71600000-716fffff : reserved\n"
		"71700000-7fffffff : System RAM\n"
		"  7ed00000-7fdfffff : reserved\n"
		"4010000000-401fffffff : PCI ECAM\n"
		"8000000000-ffffffffff : pcie@10000000\n";
	/* The same read without CAP_SYS_ADMIN: every address is 0. */
	static const char unprivileged[] =
		"00000000-00000000 : pl011@9000000\n"
		"00000000-00000000 : System RAM\n"
		"00000000-00000000 : System RAM\n";
	/* Two banks with a hole, the second above 4 GiB. */
	static const char banks[] =
		"80000000-bfffffff : System RAM\n"
		"c0000000-c0ffffff : a0000000.wifi\n"
		"880000000-8ffffffff : System RAM\n";
	char path[] = "/tmp/rdmatop-iomem.XXXXXX";
	struct rdma_ram r[RDMA_MAX_RAM];
	char many[RDMA_MAX_RAM * 2 * 48];
	size_t len = 0;
	int n;

	if (temp_file(path, board)) {
		ok(0, "ram: temporary file");
		return;
	}
	n = sys_ram(path, r, RDMA_MAX_RAM);
	ok(n == 1 && r[0].start == 0x40000000 && r[0].end == 0x80000000,
	   "ram: the board's RAM is one range, no-map memory included (%d)", n);
	unlink(path);
	ok(sys_ram(path, r, RDMA_MAX_RAM) == 0, "ram: a missing file tells nothing");
	strcpy(path, "/tmp/rdmatop-iomem.XXXXXX");
	if (!temp_file(path, unprivileged)) {
		ok(sys_ram(path, r, RDMA_MAX_RAM) == 0, "ram: zero addresses tell nothing");
		unlink(path);
	}
	strcpy(path, "/tmp/rdmatop-iomem.XXXXXX");
	if (!temp_file(path, banks)) {
		n = sys_ram(path, r, RDMA_MAX_RAM);
		ok(n == 2 && r[0].start == 0x80000000 && r[0].end == 0xc0000000 &&
		   r[1].start == 0x880000000ULL && r[1].end == 0x900000000ULL,
		   "ram: two banks, the device between them left out (%d)", n);
		ok(sys_ram(path, r, 1) == 0, "ram: more banks than room tells nothing");
		unlink(path);
	}
	/* RDMA_MAX_RAM + 1 banks, each with a gap after it */
	for (int i = 0; i <= RDMA_MAX_RAM; i++)
		len += snprintf(many + len, sizeof(many) - len, "%x-%x : System RAM\n",
				0x40000000 + i * 0x200000, 0x40000000 + i * 0x200000 + 0xfffff);
	strcpy(path, "/tmp/rdmatop-iomem.XXXXXX");
	if (!temp_file(path, many)) {
		ok(sys_ram(path, r, RDMA_MAX_RAM) == 0, "ram: %d banks, over the table, tell nothing",
		   RDMA_MAX_RAM + 1);
		unlink(path);
	}
}

/* ---- the Prometheus textfile: whole, and no fsync() a interval ---- */

int __real_fsync(int fd);
static int fsyncs;

/* Linked with --wrap=fsync (Makefile): counts the calls. */
int __wrap_fsync(int fd)
{
	fsyncs++;
	return __real_fsync(fd);
}

static void test_prom_write(void)
{
	char dir[] = "/tmp/rdmatop-prom.XXXXXX", path[256], err[256], buf[1 << 16];
	struct rt_model m;
	size_t len = 0;
	FILE *f;
	int i, fails = 0;

	if (!mkdtemp(dir)) {
		ok(0, "prom: temporary directory");
		return;
	}
	snprintf(path, sizeof(path), "%s/rdmatop.prom", dir);
	fill_model(&m, RT_F_ALL);
	fsyncs = 0;
	for (i = 0; i < 3; i++)		/* three intervals */
		fails += prom_write(&m, path, err, sizeof(err)) != 0;
	f = fopen(path, "r");
	if (f) {
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[len] = '\0';
	ok(!fails && strstr(buf, "restricted_dma_last_update_timestamp_seconds ") != NULL,
	   "prom: three intervals written, the file whole");
	ok(fsyncs == 0, "prom: no fsync() per interval (%d in 3 intervals)", fsyncs);
	unlink(path);
	rmdir(dir);
	model_free(&m);
}

/* ---- the sys collector on a fake debugfs and device tree ---- */

static void put(const char *root, const char *rel, const void *data, size_t len)
{
	char path[512], dir[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "wb");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

#define PUTS(root, rel, s) put(root, rel, s, strlen(s))

static void test_sys(void)
{
	static const unsigned char reg[16] = { 0, 0, 0, 0, 0x71, 0, 0, 0, 0, 0, 0, 0, 0, 0x41, 0, 0 };
	static const unsigned char cells2[4] = { 0, 0, 0, 2 };
	char root[] = "/tmp/rdmatop-unit.XXXXXX", dbg[256], dt[256], sys[256], cmd[300];
	struct sys_paths sp = { dbg, dt, sys };
	struct rt_model m;
	struct rt_pool *p;
	struct rt_dev *d;

	if (!mkdtemp(root)) {
		ok(0, "sys: temporary directory");
		return;
	}
	snprintf(dbg, sizeof(dbg), "%s/debug", root);
	snprintf(dt, sizeof(dt), "%s/dt", root);
	snprintf(sys, sizeof(sys), "%s/nosys", root);
	/* The series' layout ... */
	PUTS(root, "debug/swiotlb/blk-pool@70000000/io_tlb_nslabs", "2048\n");
	PUTS(root, "debug/swiotlb/blk-pool@70000000/io_tlb_used", "16\n");
	PUTS(root, "debug/swiotlb/blk-pool@70000000/io_tlb_used_hiwater", "147\n");
	PUTS(root, "debug/swiotlb/blk-pool@70000000/stats",
	     "base 1879048192\nsize 4194304\nnslabs 2048\nused 16\ndevices 1\n");
	/* "name state" lines, as the series writes them, and a bare name */
	PUTS(root, "debug/swiotlb/blk-pool@70000000/devices",
	     "a003e00.virtio_mmio live\n0000:01:00.0 unbound\nplatform-wlan\n");
	PUTS(root, "debug/swiotlb/io_tlb_nslabs", "0\n");	/* the default pool */
	/* ... and stock 6.1's, a pool at the debugfs root, sized by the DT. */
	PUTS(root, "debug/odd-pool@71000000/io_tlb_nslabs", "2080\n");
	PUTS(root, "debug/odd-pool@71000000/io_tlb_used", "3\n");
	put(root, "dt/reserved-memory/#address-cells", cells2, 4);
	put(root, "dt/reserved-memory/#size-cells", cells2, 4);
	put(root, "dt/reserved-memory/odd-pool@71000000/reg", reg, sizeof(reg));
	put(root, "dt/reserved-memory/odd-pool@71000000/compatible", "restricted-dma-pool", 20);

	model_init(&m);
	model_begin(&m, 1);
	sys_pools(&m, &sp, true);
	sys_devices(&m, &sp, true);
	p = model_find_pool(&m, "blk-pool@70000000");
	ok(p && p->base == 0x70000000 && p->size == 4 << 20 && p->used == 16 && p->have_hiwater &&
	   p->hiwater == 147, "sys: a pool under swiotlb/ with the series' files");
	p = model_find_pool(&m, "odd-pool@71000000");
	ok(p && p->base == 0x71000000 && p->size == 0x410000 && p->used == 3 && !p->have_hiwater,
	   "sys: a stock pool at the debugfs root, base and size from the device tree");
	ok(m.npools == 2, "sys: the default pool is not a restricted pool");
	d = model_find_dev(&m, "a003e00.virtio_mmio");
	ok(d && !strcmp(d->pool, "blk-pool@70000000") && d->restricted,
	   "sys: devices from the pool's devices file");
	d = model_find_dev(&m, "0000:01:00.0");
	ok(d && !strcmp(d->pool, "blk-pool@70000000") && !model_find_dev(&m, "0000:01:00.0 unbound"),
	   "sys: a device's state is not part of its name");
	d = model_find_dev(&m, "platform-wlan");
	ok(d && d->restricted, "sys: a devices line with a name alone");
	ok(m.features & RT_F_HIWATER, "sys: hiwater available with the series");

	/* Between rescans only used and peak are read again, in both layouts. */
	PUTS(root, "debug/swiotlb/blk-pool@70000000/io_tlb_used", "40\n");
	PUTS(root, "debug/swiotlb/blk-pool@70000000/io_tlb_used_hiwater", "150\n");
	PUTS(root, "debug/odd-pool@71000000/io_tlb_used", "7\n");
	PUTS(root, "debug/swiotlb/late-pool@72000000/io_tlb_nslabs", "64\n");
	PUTS(root, "debug/swiotlb/late-pool@72000000/io_tlb_used", "1\n");
	model_begin(&m, 2);
	sys_pools(&m, &sp, false);
	p = model_find_pool(&m, "blk-pool@70000000");
	ok(p && p->have_used && p->used == 40 && p->hiwater == 150 && p->seen == m.gen,
	   "sys: a refresh reads a pool's used and peak slots again");
	p = model_find_pool(&m, "odd-pool@71000000");
	ok(p && p->have_used && p->used == 7 && p->seen == m.gen,
	   "sys: a refresh finds a stock pool at the debugfs root");
	ok(!model_find_pool(&m, "late-pool@72000000"), "sys: a refresh does not walk debugfs");
	model_begin(&m, 3);
	sys_pools(&m, &sp, true);
	ok(model_find_pool(&m, "late-pool@72000000") != NULL, "sys: a rescan finds a new pool");

	/* Devices: on a usual bus or another, bound or not, then gone. */
	snprintf(sys, sizeof(sys), "%s/sys", root);
	PUTS(root, "sys/bus/platform/devices/a003e00.virtio_mmio/driver/bind", "");
	PUTS(root, "sys/bus/amba/devices/9000000.pl011/uevent", "");
	model_dev(&m, "9000000.pl011");
	model_begin(&m, 4);
	sys_devices(&m, &sp, false);
	d = model_find_dev(&m, "a003e00.virtio_mmio");
	ok(d && d->seen == m.gen && d->bound && !strcmp(d->bus, "platform"),
	   "sys: a bound platform device is live");
	d = model_find_dev(&m, "9000000.pl011");
	ok(d && d->seen == m.gen && !d->bound && !strcmp(d->bus, "amba"),
	   "sys: an unbound device on another bus is live, its bus remembered");
	snprintf(cmd, sizeof(cmd), "rm -rf %s/sys/bus/amba/devices/9000000.pl011", root);
	if (system(cmd))
		diag("rm", cmd);
	model_begin(&m, 5);
	sys_devices(&m, &sp, false);
	d = model_find_dev(&m, "9000000.pl011");
	ok(d && d->seen != m.gen && d->gone_since == 5,
	   "sys: a device gone from sysfs is not live, gone since this interval (%g)",
	   d ? d->gone_since : -1);
	model_begin(&m, 6);
	sys_devices(&m, &sp, false);
	ok(d->gone_since == 5, "sys: and stays gone since then");
	d = model_find_dev(&m, "a003e00.virtio_mmio");
	ok(d && d->seen == m.gen && d->bound && !d->gone_since, "sys: and the others still are");
	model_free(&m);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		diag("cleanup", root);
}

/* ---- samples for the external parsers ---- */

static int emit(const char *what, const char *path)
{
	struct rt_model m;
	struct rdma_event ev;
	char err[256];
	FILE *f;
	int r = 0;

	fill_model(&m, RT_F_ALL);
	memset(&ev, 0, sizeof(ev));
	ev.type = RDMA_EV_OOP_KERNEL;
	snprintf(ev.dev_name, sizeof(ev.dev_name), "dma-test");
	snprintf(ev.pool_name, sizeof(ev.pool_name), "test-pool@70c00000");
	snprintf(ev.api, sizeof(ev.api), "dma_map_resource");
	model_event(&m, &ev, 1002.5);
	if (!strcmp(what, "json")) {
		f = fopen(path, "w");
		if (!f)
			return 1;
		out_json(&m, f, NULL);
		m.features = RT_F_BPF;	/* and a fallback line */
		out_json(&m, f, NULL);
		fclose(f);
	} else if (prom_write(&m, path, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		r = 1;
	}
	model_free(&m);
	return r;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--emit-json"))
		return emit("json", argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--emit-prom"))
		return emit("prom", argv[2]);
	test_hist();
	test_slot();
	test_exact();
	test_prom_write();
	test_prom_families();
	test_unseen();
	test_memlock();
	test_ram();
	test_restricted_only();
	test_aging();
	test_history();
	test_scroll();
	test_no_debugfs();
	test_self_cost();
	test_format();
	test_fmt_numbers();
	test_model();
	test_fit();
	test_options();
	test_check();
	test_sys();
	printf("1..%d\n", tests);
	return failures ? 1 : 0;
}
