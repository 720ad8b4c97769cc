/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model every output reads: pools, devices and the rare events of
 * the last interval. Collectors (BPF, debugfs, the device tree) fill it;
 * outputs (screen, batch, JSON, Prometheus, check) only read it.
 */
#ifndef RDMATOP_MODEL_H
#define RDMATOP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "rdma_trace.h"

#define RT_SLOT_SIZE	2048	/* swiotlb slot: 1 << IO_TLB_SHIFT */
#define RT_RECENT	8	/* rare events kept for the screen */

/* What the running kernel gives us: each bit is a set of columns. */
enum rt_feature {
	RT_F_BPF	= 1 << 0,	/* the BPF program is attached at all */
	RT_F_UNMAP	= 1 << 1,	/* unmaps: in flight, time in flight */
	RT_F_DIRECTION	= 1 << 2,	/* bytes each way */
	RT_F_FAILURES	= 1 << 3,	/* map and alloc failures */
	RT_F_OOP_KERNEL	= 1 << 4,	/* the kernel's out-of-pool audit */
	RT_F_OOP_CHECK	= 1 << 5,	/* rdmatop's own out-of-pool check */
	RT_F_HIWATER	= 1 << 6,	/* debugfs io_tlb_used_hiwater */
	RT_F_COHERENT	= 1 << 7,	/* coherent allocations */
	RT_F_DMA_API	= 1 << 8,	/* devices without a pool */
	RT_F_ALL	= (1 << 9) - 1,
};

/* One name per feature, for "unavailable: ..." lines and JSON. */
const char *rt_feature_name(unsigned int feature);
/* enum rdma_source's name: "tracepoints", "fentry", "swiotlb_bounced". */
const char *rt_source_name(unsigned int source);

/* A mapping counter set, summed over CPUs; cumulative since start. */
typedef struct rdma_counters rt_counters;

#define RT_USE_HISTORY	60	/* intervals of pool use kept for the screen */
#define RT_USE_UNKNOWN	255

struct rt_pool {
	char name[RDMA_NAME_LEN];
	uint64_t key;		/* its pool_keys[] entry, once BPF saw it */
	uint64_t base;
	uint64_t size;
	uint64_t nslabs;
	bool restricted;
	bool have_used;		/* debugfs io_tlb_used read this interval */
	bool have_hiwater;
	uint64_t used;		/* slots */
	uint64_t hiwater;	/* slots */
	uint64_t ndevices;	/* devices attached, from debugfs */
	rt_counters cur;	/* BPF, cumulative */
	rt_counters prev;	/* BPF, at the previous interval */
	unsigned long seen;	/* generation it was last seen in */
	/* Use in percent of each of the last RT_USE_HISTORY intervals, a
	 * ring (RT_USE_UNKNOWN: not read); use_n counts every interval. */
	uint8_t use_hist[RT_USE_HISTORY];
	unsigned long use_n;
};

struct rt_oop {
	char api[RDMA_API_LEN];
	uint64_t addr;
	uint64_t size;
	uint64_t pool_start;
	uint64_t pool_end;
};

struct rt_dev {
	char name[RDMA_NAME_LEN];
	char pool[RDMA_NAME_LEN];	/* "" when it has no restricted pool */
	uint64_t key;			/* its dev_keys[] entry, once BPF saw it */
	bool restricted;
	bool bound;			/* a driver is bound (sysfs) */
	char bus[32];			/* the sysfs bus it was last found on */
	rt_counters cur;
	rt_counters prev;
	struct rt_oop last_oop;		/* the last out-of-pool range seen */
	unsigned long seen;
	double gone_since;		/* when it left sysfs; 0: it is there */
};

/* Seconds a gone device stays listed, marked (gone), before it is aged out. */
#define RT_GONE_KEEP	30

struct rt_event {
	struct rdma_event ev;
	double time;			/* seconds since the epoch */
};

struct rt_model {
	char host[65];			/* uname: the node name ... */
	char kernel[65];		/* ... and the kernel's release */
	struct rt_pool *pools;
	size_t npools, pools_cap;
	struct rt_dev *devs;
	size_t ndevs, devs_cap;

	unsigned long gen;		/* interval number, 1 for the first */
	double now;			/* seconds since the epoch */
	double dt;			/* seconds since the previous interval */
	double started;			/* the first interval's start: counters count from it */
	double interval;		/* the interval asked for (-d); 0: unknown */
	unsigned int features;		/* enum rt_feature bits available */
	unsigned int source;		/* enum rdma_source: where DMA API counts come from */

	struct rt_event recent[RT_RECENT];	/* ring, newest at recent_head-1 */
	size_t recent_head, nrecent;
	struct rt_event *interval_events;	/* this interval's, in order */
	size_t ninterval, interval_cap;

	struct rdma_self self;		/* the BPF program's own counters */
	/*
	 * Runs of the program the kernel skipped (bpf_prog_info's
	 * recursion_misses): a DMA API call made on a CPU while the program
	 * ran there (an interrupt) is not seen.
	 */
	uint64_t runs_missed;
	/* Kernel memory the program's maps hold (their memlock); 0: unknown. */
	uint64_t kernel_bytes;
	/* Slots of the board's restricted pools at start: inflight_slots' size. */
	uint64_t board_slots;
	bool restricted_only;		/* --restricted-only: other devices not traced */
	bool no_debugfs;		/* debugfs is not there: pool use unknown */
	/*
	 * --self: the kernel's run-time statistics of rdmatop's programs,
	 * summed (bpf_prog_info run_cnt, run_time_ns), now and an interval ago.
	 */
	bool self_stats;
	uint64_t prog_runs, prog_run_ns;
	uint64_t prev_prog_runs, prev_prog_run_ns;
};

void model_init(struct rt_model *m);
void model_free(struct rt_model *m);

/* Starts an interval at @now: what is not seen in it is gone. */
void model_begin(struct rt_model *m, double now);
/* Appends each pool's use this interval to its history (after the collectors). */
void model_record_use(struct rt_model *m);
/* Forgets this interval's rare events, once every output has read them. */
void model_events_done(struct rt_model *m);

/* Find or add by name; NULL only when out of memory. Marks it seen. */
struct rt_pool *model_pool(struct rt_model *m, const char *name);
struct rt_dev *model_dev(struct rt_model *m, const char *name);
struct rt_pool *model_find_pool(const struct rt_model *m, const char *name);
struct rt_pool *model_pool_by_key(const struct rt_model *m, uint64_t key);
struct rt_pool *model_pool_by_base(const struct rt_model *m, uint64_t base);
struct rt_dev *model_find_dev(const struct rt_model *m, const char *name);

/* Records a rare event from BPF (updates device and pool state too). */
void model_event(struct rt_model *m, const struct rdma_event *ev, double time);

/* Whether a pool or device is still there (seen this interval). */
bool model_pool_live(const struct rt_model *m, const struct rt_pool *p);
bool model_dev_live(const struct rt_model *m, const struct rt_dev *d);

/* Derived numbers, the same for every output. */
double rt_rate(uint64_t cur, uint64_t prev, double dt);
uint64_t rt_used_bytes(const struct rt_pool *p);
uint64_t rt_hiwater_bytes(const struct rt_pool *p);
double rt_pct(uint64_t part, uint64_t whole);
uint64_t rt_oop(const rt_counters *c);	/* max of the kernel's and ours */
uint64_t rt_failures(const rt_counters *c);

/* Accumulate one CPU's counters into a sum. */
void rt_counters_add(rt_counters *sum, const rt_counters *one);
/*
 * Adds @one's mapping counters (maps, unmaps, bytes, in flight, time, the
 * histograms) to @sum: a restricted pool's are its devices' (see
 * rdma_dev_info.home_pool); failures and out-of-pool ranges are counted on
 * the pool itself.
 */
void rt_counters_add_mappings(rt_counters *sum, const rt_counters *one);

/* Interval histograms: cur - prev, slot by slot. */
void rt_hist_delta(const __u64 *cur, const __u64 *prev, uint64_t *out);

/* Totals over live pools. */
uint64_t model_total_used(const struct rt_model *m);
uint64_t model_total_size(const struct rt_model *m);
double model_events_per_s(const struct rt_model *m);

/* Sorting for the list outputs. */
enum rt_sort {
	RT_SORT_NAME,
	RT_SORT_POOL,
	RT_SORT_USED,
	RT_SORT_MAPS,
	RT_SORT_BYTES,
	RT_SORT_INFLIGHT,
	RT_SORT_FAILURES,
	RT_SORT_OOP,
	RT_SORT_COUNT,
};
const char *rt_sort_name(enum rt_sort s);
int rt_sort_parse(const char *name);
void model_sort(struct rt_model *m, enum rt_sort by, bool reverse);

/* A case-sensitive substring filter on device or pool names ("" = all). */
bool rt_pool_match(const struct rt_pool *p, const char *filter);
bool rt_dev_match(const struct rt_dev *d, const char *filter);

/*
 * The features a device's numbers have: the model's, less the BPF counts
 * for a device without a restricted pool under --restricted-only.
 */
unsigned int rt_dev_features(const struct rt_model *m, const struct rt_dev *d);

/*
 * Whether the kernel gives everything (not the fallback mode): the
 * features, less what only debugfs adds when debugfs is not there.
 */
bool rt_full_mode(const struct rt_model *m);

/*
 * Whether the screen, -b, --json and --prometheus list @d: it is there,
 * or gone for less than RT_GONE_KEEP seconds. --check judges every device.
 */
bool model_dev_listed(const struct rt_model *m, const struct rt_dev *d);

#endif /* RDMATOP_MODEL_H */
