// SPDX-License-Identifier: GPL-2.0
/*
 * --prometheus FILE: node_exporter's textfile-collector format, written
 * to a temporary file in the same directory and renamed over FILE, so a
 * scrape never sees half a file.
 *
 * Names: the restricted_dma_ namespace (rdma_ is RDMA's, InfiniBand and
 * RoCE), unit in the name, counters end in _total; labels pool and
 * device. Counters count from rdmatop's start (restricted_dma_start_time_seconds):
 * a restart is an ordinary counter reset. A family whose numbers the
 * kernel cannot give is left out, and restricted_dma_feature says so.
 * Documentation/rdmatop-metrics.md lists every family.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output.h"

#define NS "restricted_dma_"

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

/* Whose families: pools only, devices only, or both. */
enum { FOR_POOLS = 1, FOR_DEVS = 2, FOR_BOTH = 3 };

/* One metric family: its samples for one pool or device. */
struct fam {
	const char *suffix;	/* after restricted_dma_pool_ or restricted_dma_device_ */
	const char *type;
	unsigned int all;	/* features needed from the kernel, all of them; 0: none */
	unsigned int any;	/* or: at least one of these */
	unsigned int whose;
	const char *help;
	void (*emit)(FILE *f, const char *name, const struct who *w,
		     const struct rt_pool *p, const struct rt_dev *d, const rt_counters *c);
};

#define EMIT(fn, expr)								\
static void fn(FILE *f, const char *name, const struct who *w,			\
	       const struct rt_pool *p, const struct rt_dev *d,			\
	       const rt_counters *c)						\
{										\
	(void)p; (void)d; (void)c;						\
	expr;									\
}

EMIT(e_size, sample(f, name, w, NULL, NULL, (double)p->size))
EMIT(e_slots, sample(f, name, w, NULL, NULL, (double)p->nslabs))
EMIT(e_base, sample(f, name, w, NULL, NULL, (double)p->base))
EMIT(e_prestricted, sample(f, name, w, NULL, NULL, p->restricted))
EMIT(e_used, if (p->have_used) sample(f, name, w, NULL, NULL, (double)rt_used_bytes(p)))
EMIT(e_hiwater,
     if (p->have_hiwater) sample(f, name, w, NULL, NULL, (double)rt_hiwater_bytes(p)))
EMIT(e_drestricted, sample(f, name, w, NULL, NULL, d->restricted))
EMIT(e_bound, sample(f, name, w, NULL, NULL, d->bound))
/* In flight counts mappings made since rdmatop started: never below 0. */
EMIT(e_inflight, sample(f, name, w, NULL, NULL, c->inflight > 0 ? (double)c->inflight : 0))
EMIT(e_inflight_bytes,
     sample(f, name, w, NULL, NULL, c->inflight_bytes > 0 ? (double)c->inflight_bytes : 0))
EMIT(e_maps, sample(f, name, w, NULL, NULL, (double)c->maps))
EMIT(e_unmaps, sample(f, name, w, NULL, NULL, (double)c->unmaps))
EMIT(e_mapped, sample(f, name, w, NULL, NULL, (double)c->map_bytes))
EMIT(e_dir,
     sample(f, name, w, "direction", "to_device", (double)c->bytes_to_device);
     sample(f, name, w, "direction", "from_device", (double)c->bytes_from_device))
EMIT(e_mapfail, sample(f, name, w, NULL, NULL, (double)c->map_failures))
EMIT(e_allocfail, sample(f, name, w, NULL, NULL, (double)c->alloc_failures))
EMIT(e_allocs, sample(f, name, w, NULL, NULL, (double)c->allocs))
EMIT(e_frees, sample(f, name, w, NULL, NULL, (double)c->frees))
EMIT(e_oop, sample(f, name, w, NULL, NULL, (double)rt_oop(c)))
EMIT(e_oop_kernel, sample(f, name, w, NULL, NULL, (double)c->oop_kernel))
EMIT(e_oop_check, sample(f, name, w, NULL, NULL, (double)c->oop_check))
EMIT(e_refused, sample(f, name, w, NULL, NULL, (double)c->refused))

static const struct fam fams[] = {
	{ "size_bytes", "gauge", 0, 0, FOR_POOLS, "Size of the pool.", e_size },
	{ "slots", "gauge", 0, 0, FOR_POOLS, "Slots of 2 KiB in the pool.", e_slots },
	{ "base_address", "gauge", 0, 0, FOR_POOLS,
	  "Physical address where the pool starts.", e_base },
	{ "restricted", "gauge", 0, 0, FOR_POOLS,
	  "1 for a restricted-dma-pool, 0 for another swiotlb pool.", e_prestricted },
	{ "used_bytes", "gauge", 0, 0, FOR_POOLS,
	  "Bytes of the pool in use (debugfs io_tlb_used).", e_used },
	{ "used_hiwater_bytes", "gauge", RT_F_HIWATER, 0, FOR_POOLS,
	  "Most bytes of the pool ever in use (debugfs io_tlb_used_hiwater).", e_hiwater },
	{ "restricted", "gauge", 0, 0, FOR_DEVS,
	  "1 when the device's DMA is confined to a restricted pool.", e_drestricted },
	{ "bound", "gauge", 0, 0, FOR_DEVS,
	  "1 when a driver is bound to the device.", e_bound },
	{ "inflight_mappings", "gauge", RT_F_UNMAP, 0, FOR_BOTH,
	  "Mappings made since rdmatop started and not yet unmapped.", e_inflight },
	{ "inflight_bytes", "gauge", RT_F_UNMAP, 0, FOR_BOTH,
	  "Bytes of the mappings in flight.", e_inflight_bytes },
	{ "maps_total", "counter", RT_F_BPF, 0, FOR_BOTH,
	  "Mappings since rdmatop started.", e_maps },
	{ "unmaps_total", "counter", RT_F_UNMAP, 0, FOR_BOTH,
	  "Unmaps since rdmatop started.", e_unmaps },
	{ "mapped_bytes_total", "counter", RT_F_BPF, 0, FOR_BOTH,
	  "Bytes mapped since rdmatop started.", e_mapped },
	{ "dma_bytes_total", "counter", RT_F_DIRECTION, 0, FOR_BOTH,
	  "Bytes bounced (restricted devices) or mapped (others), by direction.", e_dir },
	{ "map_failures_total", "counter", RT_F_FAILURES, 0, FOR_BOTH,
	  "Mappings the pool could not serve.", e_mapfail },
	{ "alloc_failures_total", "counter", RT_F_FAILURES, 0, FOR_BOTH,
	  "Coherent allocations the pool could not serve.", e_allocfail },
	{ "allocs_total", "counter", RT_F_COHERENT, 0, FOR_BOTH,
	  "Coherent allocations the pool served.", e_allocs },
	{ "frees_total", "counter", RT_F_COHERENT, 0, FOR_BOTH,
	  "Frees of coherent allocations from the pool.", e_frees },
	{ "out_of_pool_total", "counter", 0, RT_F_OOP_KERNEL | RT_F_OOP_CHECK, FOR_BOTH,
	  "DMA ranges outside the device's restricted pool, each counted once: the larger "
	  "of the kernel's audit and rdmatop's check.", e_oop },
	{ "out_of_pool_kernel_total", "counter", RT_F_OOP_KERNEL, 0, FOR_BOTH,
	  "Out-of-pool ranges the kernel's audit reported (swiotlb_out_of_pool).", e_oop_kernel },
	{ "out_of_pool_check_total", "counter", RT_F_OOP_CHECK, 0, FOR_BOTH,
	  "Out-of-pool ranges rdmatop's own check found in the DMA API calls.", e_oop_check },
	{ "refused_total", "counter", RT_F_OOP_KERNEL, 0, FOR_BOTH,
	  "Out-of-pool ranges a strict pool refused.", e_refused },
};

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A family of one unlabelled sample. */
static void single(FILE *f, const char *name, const char *type, const char *help,
		   double value)
{
	head(f, name, type, help);
	fprintf(f, "%s %.15g\n", name, value);
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
 * Whether @d's series are written: it is listed (not gone for longer than
 * RT_GONE_KEEP) and its numbers have @all (--restricted-only leaves other
 * devices' counts out) or one of @any.
 */
static bool dev_has(const struct rt_model *m, const struct rt_dev *d, unsigned int all,
		    unsigned int any)
{
	unsigned int f = rt_dev_features(m, d);

	if (!model_dev_listed(m, d))
		return false;
	return (f & all) == all && (!any || (f & any));
}

static bool fam_written(const struct rt_model *m, const struct fam *fm)
{
	return has(m, fm->all) && (!fm->any || (m->features & fm->any));
}

/*
 * restricted_dma_feature: one series per feature, 1 when this kernel
 * gives it, 0 when not, so that "no data" can be told from "not
 * supported". source: where its numbers come from.
 */
static const struct {
	unsigned int bit;	/* 0: pool use, from debugfs */
	const char *source;
} features[] = {
	{ RT_F_BPF, "bpf" },
	{ RT_F_UNMAP, "bpf" },
	{ RT_F_DIRECTION, "bpf" },
	{ RT_F_FAILURES, "bpf" },
	{ RT_F_OOP_KERNEL, "kernel_audit" },
	{ RT_F_OOP_CHECK, "rdmatop_check" },
	{ RT_F_HIWATER, "debugfs" },
	{ RT_F_COHERENT, "bpf" },
	{ RT_F_DMA_API, "bpf" },
	{ 0, "debugfs" },
};

static void render_global(const struct rt_model *m, FILE *f)
{
	size_t i;

	head(f, NS "info", "gauge",
	     "Always 1: the kernel, whether it has the restricted DMA series, where the DMA "
	     "API counts come from, what is traced, whether debugfs is there.");
	fputs(NS "info{", f);
	label(f, "kernel", m->kernel, true);
	label(f, "series", has(m, RT_F_OOP_KERNEL) ? "yes" : "no", false);
	label(f, "mode", rt_full_mode(m) ? "full" : "fallback", false);
	label(f, "dma_api_source", has(m, RT_F_BPF) && m->source != RDMA_SRC_NONE ?
	      rt_source_name(m->source) : "none", false);
	label(f, "traced", m->restricted_only ? "restricted" : "all", false);
	label(f, "debugfs", m->no_debugfs ? "no" : "yes", false);
	fputs("} 1\n", f);

	head(f, NS "feature", "gauge",
	     "1 when the kernel gives this feature's numbers, 0 when it does not "
	     "(its families are then left out).");
	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		bool on = features[i].bit ? has(m, features[i].bit) : !m->no_debugfs;

		fputs(NS "feature{", f);
		label(f, "feature", features[i].bit ? rt_feature_name(features[i].bit) :
		      "pool_use", true);
		label(f, "source", features[i].source, false);
		fprintf(f, "} %d\n", on);
	}
	single(f, NS "fallback_mode", "gauge",
	       "1 when the kernel lacks the restricted DMA series and some metrics are missing.",
	       !rt_full_mode(m));
	single(f, NS "last_update_timestamp_seconds", "gauge",
	       "When rdmatop wrote this file (its age is how stale the numbers are).", m->now);
	single(f, NS "start_time_seconds", "gauge",
	       "When rdmatop started: the counters count from then.", m->started);
	if (m->interval > 0)
		single(f, NS "update_interval_seconds", "gauge",
		       "How often rdmatop writes this file (-d).", m->interval);
	if (has(m, RT_F_BPF)) {
		single(f, NS "ringbuf_drops_total", "counter",
		       "Rare events lost because rdmatop's ring buffer was full.",
		       (double)m->self.ringbuf_drops);
		single(f, NS "program_runs_missed_total", "counter",
		       "DMA API calls rdmatop did not see: runs of its program the kernel "
		       "skipped (nested on a CPU).", (double)m->runs_missed);
		single(f, NS "inflight_untracked_total", "counter",
		       "Mappings not tracked in flight: rdmatop's in-flight table was full.",
		       (double)m->self.inflight_full);
		single(f, NS "events_untracked_total", "counter",
		       "Events of pools or devices past rdmatop's tables.",
		       (double)m->self.untracked);
	}
	if (m->self_stats) {
		single(f, NS "program_runs_total", "counter", "Runs of rdmatop's BPF programs.",
		       (double)m->prog_runs);
		single(f, NS "program_run_seconds_total", "counter",
		       "Time spent in rdmatop's BPF programs (kernel run-time statistics).",
		       m->prog_run_ns * 1e-9);
	}
	if (m->kernel_bytes)
		single(f, NS "kernel_memory_bytes", "gauge",
		       "Kernel memory held by rdmatop's BPF maps (their memlock).",
		       (double)m->kernel_bytes);
	if (has(m, RT_F_UNMAP))
		single(f, NS "unmatched_unmaps_total", "counter",
		       "Unmaps of mappings made before rdmatop started (not counted in flight).",
		       (double)m->self.unmatched);
}

static void render_fam(const struct rt_model *m, FILE *f, const struct fam *fm)
{
	char name[96];
	struct who w;
	size_t i;

	if (fm->whose & FOR_POOLS) {
		snprintf(name, sizeof(name), NS "pool_%s", fm->suffix);
		head(f, name, fm->type, fm->help);
		for (i = 0; i < m->npools; i++) {
			const struct rt_pool *p = &m->pools[i];

			if (!model_pool_live(m, p))
				continue;
			w.pool = p->name;
			w.device = NULL;
			fm->emit(f, name, &w, p, NULL, &p->cur);
		}
	}
	if (fm->whose & FOR_DEVS) {
		snprintf(name, sizeof(name), NS "device_%s", fm->suffix);
		head(f, name, fm->type, fm->help);
		for (i = 0; i < m->ndevs; i++) {
			const struct rt_dev *d = &m->devs[i];

			if (!dev_has(m, d, fm->all, fm->any))
				continue;
			w.pool = d->pool;
			w.device = d->name;
			fm->emit(f, name, &w, NULL, d, &d->cur);
		}
	}
}

void prom_render(const struct rt_model *m, FILE *f)
{
	struct who w;
	size_t i, k;

	render_global(m, f);
	for (k = 0; k < sizeof(fams) / sizeof(fams[0]); k++)
		if (fam_written(m, &fams[k]))
			render_fam(m, f, &fams[k]);

	if (has(m, RT_F_BPF)) {
		head(f, NS "device_mapping_size_bytes", "histogram",
		     "Sizes of the device's mappings since rdmatop started.");
		for (i = 0; i < m->ndevs; i++) {
			if (!dev_has(m, &m->devs[i], RT_F_BPF, 0))
				continue;
			w.pool = m->devs[i].pool;
			w.device = m->devs[i].name;
			histogram(f, NS "device_mapping_size_bytes", &w,
				  m->devs[i].cur.size_hist, 9, 22, 1,
				  (double)m->devs[i].cur.map_bytes);
		}
	}
	if (has(m, RT_F_UNMAP)) {
		head(f, NS "device_inflight_time_seconds", "histogram",
		     "Time from map to unmap of the device's mappings since rdmatop started.");
		for (i = 0; i < m->ndevs; i++) {
			if (!dev_has(m, &m->devs[i], RT_F_UNMAP, 0))
				continue;
			w.pool = m->devs[i].pool;
			w.device = m->devs[i].name;
			histogram(f, NS "device_inflight_time_seconds", &w,
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
