// SPDX-License-Identifier: GPL-2.0
/*
 * --prometheus FILE: node_exporter's textfile-collector format, written
 * to a temporary file in the same directory and renamed over FILE, so a
 * scrape never sees half a file. Names follow Prometheus' conventions:
 * rdma_ prefix, unit in the name, counters end in _total; labels pool and
 * device. Counters count from rdmatop's start (rate() handles restarts).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output.h"

static bool has(const struct rt_model *m, unsigned int f)
{
	return (m->features & f) == f;
}

/* Whose sample: a pool (device NULL) or a device and its pool. */
struct who {
	const char *pool;
	const char *device;
};

static void label(FILE *f, const char *name, const char *value, bool first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", name);
	for (; *value; value++) {
		if (*value == '\n')
			fputs("\\n", f);
		else if (*value == '\\' || *value == '"')
			fprintf(f, "\\%c", *value);
		else
			fputc(*value, f);
	}
	fputc('"', f);
}

static void sample(FILE *f, const char *name, const struct who *w, const char *k,
		   const char *v, double value)
{
	fputs(name, f);
	fputc('{', f);
	if (w->device) {
		label(f, "device", w->device, true);
		label(f, "pool", w->pool[0] ? w->pool : "none", false);
	} else {
		label(f, "pool", w->pool, true);
	}
	if (k)
		label(f, k, v, false);
	fprintf(f, "} %.17g\n", value);
}

/* One metric family: its samples for one pool or device. */
struct fam {
	const char *suffix;	/* after rdma_pool_ or rdma_device_ */
	const char *type;
	unsigned int feature;	/* needed from the kernel; 0: always */
	bool pool_only;
	const char *help;
	void (*emit)(FILE *f, const char *name, const struct who *w,
		     const struct rt_pool *p, const rt_counters *c);
};

#define EMIT(fn, expr)								\
static void fn(FILE *f, const char *name, const struct who *w,			\
	       const struct rt_pool *p, const rt_counters *c)			\
{										\
	(void)p; (void)c;							\
	expr;									\
}

EMIT(e_size, sample(f, name, w, NULL, NULL, (double)p->size))
EMIT(e_slots, sample(f, name, w, NULL, NULL, (double)p->nslabs))
EMIT(e_used, if (p->have_used) sample(f, name, w, NULL, NULL, (double)rt_used_bytes(p)))
EMIT(e_hiwater,
     if (p->have_hiwater) sample(f, name, w, NULL, NULL, (double)rt_hiwater_bytes(p)))
EMIT(e_inflight, sample(f, name, w, NULL, NULL, c->inflight > 0 ? (double)c->inflight : 0))
EMIT(e_maps, sample(f, name, w, NULL, NULL, (double)c->maps))
EMIT(e_unmaps, sample(f, name, w, NULL, NULL, (double)c->unmaps))
EMIT(e_mapped, sample(f, name, w, NULL, NULL, (double)c->map_bytes))
EMIT(e_dir,
     sample(f, name, w, "direction", "to_device", (double)c->bytes_to_device);
     sample(f, name, w, "direction", "from_device", (double)c->bytes_from_device))
EMIT(e_mapfail, sample(f, name, w, NULL, NULL, (double)c->map_failures))
EMIT(e_allocfail, sample(f, name, w, NULL, NULL, (double)c->alloc_failures))
EMIT(e_oop,
     sample(f, name, w, "source", "kernel", (double)c->oop_kernel);
     sample(f, name, w, "source", "check", (double)c->oop_check))

static const struct fam fams[] = {
	{ "size_bytes", "gauge", 0, true, "Size of the restricted pool.", e_size },
	{ "slots", "gauge", 0, true, "Slots of 2 KiB in the pool.", e_slots },
	{ "used_bytes", "gauge", 0, true,
	  "Bytes of the pool in use (debugfs io_tlb_used).", e_used },
	{ "used_hiwater_bytes", "gauge", RT_F_HIWATER, true,
	  "Most bytes of the pool ever in use (debugfs io_tlb_used_hiwater).", e_hiwater },
	{ "inflight_mappings", "gauge", RT_F_UNMAP, false,
	  "Mappings made since rdmatop started and not yet unmapped.", e_inflight },
	{ "maps_total", "counter", RT_F_BPF, false,
	  "Mappings since rdmatop started.", e_maps },
	{ "unmaps_total", "counter", RT_F_UNMAP, false,
	  "Unmaps since rdmatop started.", e_unmaps },
	{ "mapped_bytes_total", "counter", RT_F_BPF, false,
	  "Bytes mapped since rdmatop started.", e_mapped },
	{ "dma_bytes_total", "counter", RT_F_DIRECTION, false,
	  "Bytes bounced (restricted devices) or mapped (others), by direction.", e_dir },
	{ "map_failures_total", "counter", RT_F_FAILURES, false,
	  "Mappings the pool could not serve.", e_mapfail },
	{ "alloc_failures_total", "counter", RT_F_FAILURES, false,
	  "Coherent allocations the pool could not serve.", e_allocfail },
	{ "out_of_pool_total", "counter", RT_F_OOP_CHECK, false,
	  "DMA ranges outside the device's restricted pool: source=kernel is the "
	  "kernel's audit, source=check rdmatop's own check.", e_oop },
};

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/*
 * A log2 histogram as a Prometheus histogram with fixed buckets (le =
 * 2^k for k in [lo, hi], times @scale), so the series stay the same from
 * one scrape to the next. Slot i holds (2^(i-1), 2^i]: it is counted in
 * every bucket whose bound is at least 2^i (a 4096-byte map in le="4096").
 */
static void histogram(FILE *f, const char *name, const struct who *w, const __u64 *slots,
		      int lo, int hi, double scale, double sum)
{
	char metric[96], le[32];
	uint64_t cum = 0, total = 0;
	int k, i = 0;

	for (k = 0; k < RDMA_HIST_SLOTS; k++)
		total += slots[k];
	snprintf(metric, sizeof(metric), "%s_bucket", name);
	for (k = lo; k <= hi; k++) {
		for (; i <= k && i < RDMA_HIST_SLOTS; i++)
			cum += slots[i];
		snprintf(le, sizeof(le), "%.17g", (double)(1ULL << k) * scale);
		sample(f, metric, w, "le", le, (double)cum);
	}
	sample(f, metric, w, "le", "+Inf", (double)total);
	snprintf(metric, sizeof(metric), "%s_sum", name);
	sample(f, metric, w, NULL, NULL, sum);
	snprintf(metric, sizeof(metric), "%s_count", name);
	sample(f, metric, w, NULL, NULL, (double)total);
}

/*
 * Whether @d's series are written: it is listed (not aged out) and its
 * numbers have @feature (--restricted-only leaves other devices out).
 */
static bool dev_has(const struct rt_model *m, const struct rt_dev *d, unsigned int feature)
{
	return model_dev_listed(m, d) && (rt_dev_features(m, d) & feature) == feature;
}

void prom_render(const struct rt_model *m, FILE *f)
{
	char name[96];
	struct who w;
	size_t i, k;

	head(f, "rdma_fallback_mode", "gauge",
	     "1 when the kernel lacks the restricted DMA series and some metrics are missing.");
	fprintf(f, "rdma_fallback_mode %d\n", !rt_full_mode(m));
	head(f, "rdma_info", "gauge",
	     "Always 1: the kernel, where the DMA API counts come from, and what is traced.");
	fputs("rdma_info{", f);
	label(f, "kernel", m->kernel, true);
	label(f, "dma_api_source", has(m, RT_F_BPF) && m->source != RDMA_SRC_NONE ?
	      rt_source_name(m->source) : "none", false);
	label(f, "traced", m->restricted_only ? "restricted" : "all", false);
	label(f, "debugfs", m->no_debugfs ? "no" : "yes", false);
	fputs("} 1\n", f);
	head(f, "rdma_last_update_timestamp_seconds", "gauge",
	     "When rdmatop last wrote this file.");
	fprintf(f, "rdma_last_update_timestamp_seconds %.3f\n", m->now);
	if (has(m, RT_F_BPF)) {
		head(f, "rdma_ringbuf_drops_total", "counter",
		     "Rare events lost because rdmatop's ring buffer was full.");
		fprintf(f, "rdma_ringbuf_drops_total %llu\n",
			(unsigned long long)m->self.ringbuf_drops);
		head(f, "rdma_program_runs_missed_total", "counter",
		     "DMA API calls rdmatop did not see: runs of its program the kernel skipped "
		     "(nested on a CPU).");
		fprintf(f, "rdma_program_runs_missed_total %llu\n",
			(unsigned long long)m->runs_missed);
	}
	if (m->self_stats) {
		head(f, "rdma_program_runs_total", "counter", "Runs of rdmatop's BPF programs.");
		fprintf(f, "rdma_program_runs_total %llu\n", (unsigned long long)m->prog_runs);
		head(f, "rdma_program_run_seconds_total", "counter",
		     "Time spent in rdmatop's BPF programs (kernel run-time statistics).");
		fprintf(f, "rdma_program_run_seconds_total %.9g\n", m->prog_run_ns * 1e-9);
	}
	if (m->kernel_bytes) {
		head(f, "rdma_kernel_memory_bytes", "gauge",
		     "Kernel memory held by rdmatop's BPF maps (their memlock).");
		fprintf(f, "rdma_kernel_memory_bytes %llu\n", (unsigned long long)m->kernel_bytes);
	}
	if (has(m, RT_F_UNMAP)) {
		head(f, "rdma_unmatched_unmaps_total", "counter",
		     "Unmaps of mappings made before rdmatop started (not counted in flight).");
		fprintf(f, "rdma_unmatched_unmaps_total %llu\n",
			(unsigned long long)m->self.unmatched);
	}

	for (k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		const struct fam *fm = &fams[k];

		if (fm->feature && !has(m, fm->feature))
			continue;
		snprintf(name, sizeof(name), "rdma_pool_%s", fm->suffix);
		head(f, name, fm->type, fm->help);
		for (i = 0; i < m->npools; i++) {
			const struct rt_pool *p = &m->pools[i];

			if (!model_pool_live(m, p))
				continue;
			w.pool = p->name;
			w.device = NULL;
			fm->emit(f, name, &w, p, &p->cur);
		}
		if (fm->pool_only)
			continue;
		snprintf(name, sizeof(name), "rdma_device_%s", fm->suffix);
		head(f, name, fm->type, fm->help);
		for (i = 0; i < m->ndevs; i++) {
			const struct rt_dev *d = &m->devs[i];

			if (!dev_has(m, d, fm->feature))
				continue;
			w.pool = d->pool;
			w.device = d->name;
			fm->emit(f, name, &w, NULL, &d->cur);
		}
	}

	if (has(m, RT_F_BPF)) {
		head(f, "rdma_device_mapping_size_bytes", "histogram",
		     "Sizes of the device's mappings since rdmatop started.");
		for (i = 0; i < m->ndevs; i++) {
			if (!dev_has(m, &m->devs[i], RT_F_BPF))
				continue;
			w.pool = m->devs[i].pool;
			w.device = m->devs[i].name;
			histogram(f, "rdma_device_mapping_size_bytes", &w,
				  m->devs[i].cur.size_hist, 9, 22, 1,
				  (double)m->devs[i].cur.map_bytes);
		}
	}
	if (has(m, RT_F_UNMAP)) {
		head(f, "rdma_device_inflight_time_seconds", "histogram",
		     "Time from map to unmap of the device's mappings since rdmatop started.");
		for (i = 0; i < m->ndevs; i++) {
			if (!dev_has(m, &m->devs[i], RT_F_UNMAP))
				continue;
			w.pool = m->devs[i].pool;
			w.device = m->devs[i].name;
			histogram(f, "rdma_device_inflight_time_seconds", &w,
				  m->devs[i].cur.time_hist, 10, 34, 1e-9,
				  (double)m->devs[i].cur.time_ns * 1e-9);
		}
	}
}

int prom_write(const struct rt_model *m, const char *path, char *err, size_t errlen)
{
	size_t n = strlen(path) + 8;
	char *tmp = malloc(n);
	FILE *f;
	int fd;

	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* Same directory, a name the textfile collector ignores (not *.prom). */
	snprintf(tmp, n, "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create a file beside %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	fchmod(fd, 0644);
	f = fdopen(fd, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	prom_render(m, f);
	/*
	 * No fsync(): the file is written again next interval, and one a
	 * second would wear eMMC. rename() still swaps it whole.
	 */
	if (fflush(f) || ferror(f)) {
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		fclose(f);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	fclose(f);
	if (rename(tmp, path)) {
		snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
