// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF collector: loads rdma_trace (skeleton), attaches the programs
 * whose tracepoints this kernel has, and reads its maps and ring buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "collect.h"
#include "sources.h"
#include "rdma_trace.skel.h"

struct rt_bpf {
	struct rdma_trace *skel;
	struct ring_buffer *rb;
	struct rt_model *model;		/* for the ring buffer callback */
	int ncpus;
	rt_counters *percpu;		/* one lookup's worth of per-CPU values */
	struct rt_sources src;		/* what this kernel gives */
	int stats_fd;			/* --self: keeps run-time statistics on; -1 */
};

static int verbosity;

static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (!verbosity || (level == LIBBPF_DEBUG && verbosity < 2))
		return 0;
	return vfprintf(stderr, fmt, args);
}

static double now_s(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct rt_bpf *b = ctx;

	if (size >= sizeof(struct rdma_event) && b->model)
		model_event(b->model, data, now_s());
	return 0;
}

/* The kernel memory the maps hold: their memlock, summed. */
static uint64_t maps_memlock(struct rt_bpf *b)
{
	struct bpf_map *map;
	uint64_t sum = 0, one;
	char path[64];
	int fd;

	bpf_object__for_each_map(map, b->skel->obj) {
		fd = bpf_map__fd(map);
		if (fd < 0)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
		if (!sys_memlock(path, &one))
			sum += one;
	}
	return sum;
}

/* What inflight_slots needs on this board: its pools' slots, capped. */
static __u64 pool_slots(const struct rt_model *m)
{
	return m->board_slots < RDMA_MAX_SLOTS ? m->board_slots : RDMA_MAX_SLOTS;
}

/* The kernel's ENOTSUPP (not in userspace's errno.h): fentry without direct calls. */
#define ENOTSUPP_KERNEL	524

/*
 * Opens, configures, loads and attaches the programs @vmlinux calls for
 * (without fentry/fexit with @no_fentry). Returns 0, or a negative errno
 * with a one-line reason in @err.
 */
static int load_attach(struct rt_bpf *b, const struct btf *vmlinux, bool restricted_only,
		       bool no_fentry, struct rt_model *m, char *err, size_t errlen)
{
	int ret;

	b->skel = rdma_trace__open();
	if (!b->skel) {
		ret = -errno;
		snprintf(err, errlen, "cannot open the BPF program: %s", strerror(errno));
		return ret;
	}
	sources_select(b->skel->obj, vmlinux, no_fentry, &b->src);
	m->features = b->src.features;
	m->source = b->src.dma;
	b->skel->rodata->dma_source = b->src.dma;
	b->skel->rodata->pool_failure_events = b->src.pool_failure_events;
	/*
	 * Only devices without a restricted pool are tracked by address: the
	 * hash that does it (RDMA_MAX_INFLIGHT entries, most of the kernel
	 * memory) shrinks to one entry.
	 */
	b->skel->rodata->restricted_only = restricted_only;
	m->restricted_only = restricted_only;
	b->skel->rodata->nr_ram = sys_ram("/proc/iomem", (struct rdma_ram *)b->skel->rodata->ram,
					  RDMA_MAX_RAM);
	b->skel->rodata->page_size = sysconf(_SC_PAGESIZE);
	/* One entry per slot of the restricted pools the board has. */
	b->skel->rodata->max_slots = pool_slots(m);
	if (bpf_map__set_max_entries(b->skel->maps.inflight_slots,
				     b->skel->rodata->max_slots ? b->skel->rodata->max_slots : 1)) {
		snprintf(err, errlen, "cannot size the pool slot map");
		return -EINVAL;
	}
	if (restricted_only && bpf_map__set_max_entries(b->skel->maps.inflight, 1)) {
		snprintf(err, errlen, "cannot size the in-flight map");
		return -EINVAL;
	}
	/*
	 * -vvv: the verifier's statistics for each program (BPF_LOG_STATS:
	 * its time, the instructions it processed), in libbpf's debug log;
	 * where a kernel spends rdmatop's start-up, a debug kernel above all.
	 */
	if (verbosity >= 3) {
		struct bpf_program *prog;

		bpf_object__for_each_program(prog, b->skel->obj)
			bpf_program__set_log_level(prog, 4);
	}
	ret = rdma_trace__load(b->skel);
	if (ret) {
		snprintf(err, errlen, "cannot load the BPF program: %s%s", strerror(-ret),
			 verbosity ? "" : " (-v shows libbpf's log)");
		return ret;
	}
	ret = rdma_trace__attach(b->skel);
	if (ret) {
		snprintf(err, errlen, "cannot attach the BPF program: %s%s",
			 ret == -ENOTSUPP_KERNEL ? "not supported by this kernel" : strerror(-ret),
			 verbosity ? "" : " (-v shows libbpf's log)");
		return ret;
	}
	return 0;
}

struct rt_bpf *bpf_open(int verbose, bool restricted_only, bool self, struct rt_model *m,
			char *err, size_t errlen)
{
	struct rt_bpf *b = calloc(1, sizeof(*b));
	struct btf *vmlinux;
	int ret;

	if (!b) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	b->stats_fd = -1;
	verbosity = verbose;
	libbpf_set_print(libbpf_log);
	b->ncpus = libbpf_num_possible_cpus();
	if (b->ncpus <= 0) {
		snprintf(err, errlen, "cannot count the CPUs: %s", strerror(-b->ncpus));
		goto fail;
	}
	b->percpu = calloc((size_t)b->ncpus, sizeof(*b->percpu));
	if (!b->percpu) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		snprintf(err, errlen, "cannot read the kernel's BTF (/sys/kernel/btf/vmlinux): "
			 "%s; rebuild the kernel with CONFIG_DEBUG_INFO_BTF=y", strerror(errno));
		goto fail;
	}
	ret = load_attach(b, vmlinux, restricted_only, false, m, err, errlen);
	if (ret == -ENOTSUPP_KERNEL && b->src.dma == RDMA_SRC_FENTRY) {
		/* The BTF promised fentry, the kernel refused: swiotlb_bounced only. */
		if (verbose)
			fprintf(stderr, "rdmatop: fentry does not attach here (%s): "
				"counting bounces only\n", err);
		rdma_trace__destroy(b->skel);
		b->skel = NULL;
		ret = load_attach(b, vmlinux, restricted_only, true, m, err, errlen);
	}
	btf__free(vmlinux);
	if (ret)
		goto fail;
	b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.events), on_event, b, NULL);
	if (!b->rb) {
		snprintf(err, errlen, "cannot open the ring buffer: %s", strerror(errno));
		goto fail;
	}
	m->kernel_bytes = maps_memlock(b);
	if (self) {
		/* Costs two clock reads a run while the fd is open. */
		b->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (b->stats_fd < 0) {
			snprintf(err, errlen, "cannot enable BPF run-time statistics: %s",
				 strerror(-b->stats_fd));
			goto fail;
		}
		m->self_stats = true;
	}
	if (verbose)
		fprintf(stderr, "rdmatop: %d programs loaded; the maps hold %.1f KiB of kernel "
			"memory\n", b->src.programs, m->kernel_bytes / 1024.0);
	return b;
fail:
	bpf_close(b);
	return NULL;
}

int bpf_events_fd(struct rt_bpf *b)
{
	return ring_buffer__epoll_fd(b->rb);
}

void bpf_events(struct rt_bpf *b, struct rt_model *m)
{
	b->model = m;
	ring_buffer__consume(b->rb);
	b->model = NULL;
}

/* Sums one slot's per-CPU counters. */
static bool read_counters(struct rt_bpf *b, int fd, __u32 slot, rt_counters *sum)
{
	int i;

	if (bpf_map_lookup_elem(fd, &slot, b->percpu))
		return false;
	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < b->ncpus; i++)
		rt_counters_add(sum, &b->percpu[i]);
	return true;
}

static struct rt_pool *pool_for(struct rt_model *m, __u64 key, const struct rdma_pool_info *pi)
{
	struct rt_pool *p;
	char name[RDMA_NAME_LEN];

	p = model_pool_by_key(m, key);
	if (p) {
		p->seen = m->gen;
		return p;
	}
	if (pi->name[0]) {
		p = model_pool(m, pi->name);
	} else {
		/* A kernel without pool names: match the pool by its base. */
		p = model_pool_by_base(m, pi->start);
		if (p) {
			p->seen = m->gen;
		} else {
			if (pi->restricted)
				snprintf(name, sizeof(name), "pool@%llx",
					 (unsigned long long)pi->start);
			else
				snprintf(name, sizeof(name), "default");
			p = model_pool(m, name);
		}
	}
	if (!p)
		return NULL;
	p->key = key;
	if (!p->size) {
		p->base = pi->start;
		p->size = pi->end - pi->start;
		p->nslabs = pi->nslabs;
		p->restricted = pi->restricted;
	}
	return p;
}

/*
 * The runs of the loaded programs the kernel skipped (nested on a CPU),
 * and with --self their runs and run time.
 */
static void prog_stats(struct rt_bpf *b, struct rt_model *m)
{
	struct bpf_program *prog;
	struct bpf_prog_info info;
	__u64 sum = 0, runs = 0, ns = 0;
	__u32 len;
	int fd;

	bpf_object__for_each_program(prog, b->skel->obj) {
		fd = bpf_program__fd(prog);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		sum += info.recursion_misses;
		runs += info.run_cnt;
		ns += info.run_time_ns;
	}
	m->runs_missed = sum;
	if (m->self_stats) {
		m->prog_runs = runs;
		m->prog_run_ns = ns;
	}
}

/*
 * The pool keys and the device table are read from the program's .bss,
 * which the skeleton maps: an entry whose description is not written yet
 * is skipped until the next interval.
 */
void bpf_read(struct rt_bpf *b, struct rt_model *m)
{
	const volatile __u64 *pool_keys = b->skel->bss->pool_keys;
	const volatile struct rdma_dev_info *devs = b->skel->bss->devs;
	int pinfo_fd = bpf_map__fd(b->skel->maps.pool_info);
	int pstats_fd = bpf_map__fd(b->skel->maps.pool_stats);
	int dstats_fd = bpf_map__fd(b->skel->maps.dev_stats);
	struct rdma_pool_info pi;
	struct rdma_dev_info di;
	struct rt_pool *p;
	struct rt_dev *d;
	__u32 slot;
	__u64 key;

	for (slot = 0; slot < RDMA_MAX_POOLS; slot++) {
		key = pool_keys[slot];
		if (!key || bpf_map_lookup_elem(pinfo_fd, &slot, &pi) || !pi.end)
			continue;
		pi.name[RDMA_NAME_LEN - 1] = '\0';
		p = pool_for(m, key, &pi);
		if (p)
			read_counters(b, pstats_fd, slot, &p->cur);
	}
	for (slot = 0; slot < RDMA_MAX_DEVICES; slot++) {
		key = devs[slot].key;
		if (!key)
			continue;
		memcpy(&di, (const void *)&devs[slot], sizeof(di));
		if (!di.name[0])
			continue;
		di.name[RDMA_NAME_LEN - 1] = '\0';
		d = model_dev(m, di.name);
		if (!d)
			continue;
		d->key = key;
		p = model_pool_by_key(m, di.pool);
		if (p && p->restricted && di.restricted)
			snprintf(d->pool, sizeof(d->pool), "%s", p->name);
		if (!read_counters(b, dstats_fd, slot, &d->cur))
			continue;
		p = model_pool_by_key(m, di.home_pool);
		if (p)
			rt_counters_add_mappings(&p->cur, &d->cur);
	}
	m->self = b->skel->bss->self;
	prog_stats(b, m);
}

void bpf_close(struct rt_bpf *b)
{
	if (!b)
		return;
	if (b->stats_fd >= 0)
		close(b->stats_fd);
	ring_buffer__free(b->rb);
	rdma_trace__destroy(b->skel);
	free(b->percpu);
	free(b);
}
