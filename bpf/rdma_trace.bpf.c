// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_trace: restricted DMA as the kernel does it, counted in the kernel.
 *
 * Attaches (tp_btf) to the series' swiotlb:* and dma:* events and keeps,
 * per pool and per device: mappings, bytes each way, mappings in flight,
 * failures, coherent allocations, log2 histograms of mapping size and of
 * time in flight, and out-of-pool ranges. Rare events (attach, detach,
 * failures, out of pool) go to a ring buffer; everything else stays in
 * maps that userspace reads once an interval.
 *
 * Counters are per CPU and updated without atomics: a tracepoint runs with
 * preemption off, so only an interrupt that maps or unmaps on the same CPU
 * in the middle of an update can lose one count. Atomics cost more than
 * everything else together on the map path.
 *
 * Its own out-of-pool check: every DMA API range handed to a device that
 * has a restricted pool is compared with that pool's bounds, read from
 * the device through BTF. It works whether or not the kernel's audit does.
 *
 * On a kernel without the series only swiotlb_bounced exists; userspace
 * disables the other programs (bpf_program__set_autoload) and this one
 * counts bounces per pool and device.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "rdma_trace.h"

char LICENSE[] SEC("license") = "GPL";

#define DMA_MAPPING_ERROR	(~0ULL)
#define SG_CHAIN		0x01UL
#define SG_END			0x02UL
#define MAX_DMA_RANGES		8

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RDMA_MAX_POOLS);
	__type(key, __u64);
	__type(value, struct rdma_pool_info);
} pools SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, RDMA_MAX_POOLS);
	__type(key, __u64);
	__type(value, struct rdma_counters);
} pool_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RDMA_MAX_DEVICES);
	__type(key, __u64);
	__type(value, struct rdma_dev_info);
} devices SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, RDMA_MAX_DEVICES);
	__type(key, __u64);
	__type(value, struct rdma_counters);
} dev_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RDMA_MAX_INFLIGHT);
	__type(key, struct rdma_inflight_key);
	__type(value, struct rdma_inflight);
} inflight SEC(".maps");

/* Never written: the zeroes a new counters entry starts from. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rdma_counters);
} zero SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, RDMA_RINGBUF_SIZE);
} events SEC(".maps");

struct rdma_self self;

/* ---- helpers ------------------------------------------------------ */

static __always_inline __u32 log2_slot(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) r += 1;
	return r < RDMA_HIST_SLOTS ? r : RDMA_HIST_SLOTS - 1;
}

/* A new, zeroed counters entry (per CPU: the other CPUs' copies are zeroed too). */
static __always_inline struct rdma_counters *new_counters(void *map, __u64 key)
{
	__u32 z = 0;
	void *zv;

	zv = bpf_map_lookup_elem(&zero, &z);
	if (!zv)
		return NULL;
	bpf_map_update_elem(map, &key, zv, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, &key);
}

static __always_inline bool pool_restricted(struct io_tlb_mem *mem)
{
	return mem && mem->for_alloc;
}

/* Records a pool the first time it is seen. */
static __always_inline void touch_pool(struct io_tlb_mem *mem)
{
	struct rdma_pool_info info = {};
	__u64 key = (__u64)mem;
	const char *name;

	if (!mem || bpf_map_lookup_elem(&pools, &key))
		return;
	info.start = mem->start;
	info.end = mem->end;
	info.nslabs = mem->nslabs;
	info.restricted = mem->for_alloc;
	if (bpf_core_field_exists(mem->name)) {
		name = mem->name;
		if (name)
			bpf_probe_read_kernel_str(info.name, sizeof(info.name), name);
	}
	bpf_map_update_elem(&pools, &key, &info, BPF_NOEXIST);
}

static __always_inline void read_dev_name(struct device *dev, char *buf, __u32 len)
{
	const char *name = dev->init_name;

	if (!name)
		name = dev->kobj.name;
	if (name)
		bpf_probe_read_kernel_str(buf, len, name);
}

/* Records a device, and the pool it has now. */
static __always_inline void touch_dev(struct device *dev, struct io_tlb_mem *mem)
{
	struct rdma_dev_info *old, info = {};
	__u64 key = (__u64)dev;
	__u32 restricted = pool_restricted(mem);

	old = bpf_map_lookup_elem(&devices, &key);
	if (old) {
		if (old->pool != (__u64)mem || old->restricted != restricted) {
			old->pool = (__u64)mem;
			old->restricted = restricted;
		}
		return;
	}
	info.pool = (__u64)mem;
	info.restricted = restricted;
	read_dev_name(dev, info.name, sizeof(info.name));
	bpf_map_update_elem(&devices, &key, &info, BPF_NOEXIST);
}

/*
 * The counters of a pool and of a device. The first event of either also
 * records what it is (name, bounds), so the hot path costs one lookup.
 */
static __always_inline struct rdma_counters *pool_counters(struct io_tlb_mem *mem)
{
	__u64 key = (__u64)mem;
	struct rdma_counters *c = bpf_map_lookup_elem(&pool_stats, &key);

	if (c || !mem)
		return c;
	touch_pool(mem);
	return new_counters(&pool_stats, key);
}

static __always_inline struct rdma_counters *dev_counters(struct device *dev,
							  struct io_tlb_mem *mem)
{
	__u64 key = (__u64)dev;
	struct rdma_counters *c = bpf_map_lookup_elem(&dev_stats, &key);

	if (c)
		return c;
	touch_dev(dev, mem);
	return new_counters(&dev_stats, key);
}

static __always_inline void count_map(struct rdma_counters *c, __u64 size, int dir,
				      bool tracked)
{
	if (!c)
		return;
	c->maps += 1;
	c->map_bytes += size;
	if (tracked) {
		c->inflight += 1;
		c->inflight_bytes += size;
	}
	if (dir == RDMA_DIR_TO_DEVICE || dir == RDMA_DIR_BIDI)
		c->bytes_to_device += size;
	c->size_hist[log2_slot(size)] += 1;
}

static __always_inline void count_unmap(struct rdma_counters *c, __u64 size,
					int dir, __u64 ns, bool timed)
{
	if (!c)
		return;
	c->unmaps += 1;
	if (dir == RDMA_DIR_FROM_DEVICE || dir == RDMA_DIR_BIDI)
		c->bytes_from_device += size;
	if (!timed)
		return;
	c->inflight -= 1;
	c->inflight_bytes -= size;
	c->time_ns += ns;
	c->time_hist[log2_slot(ns)] += 1;
}

static __always_inline void track_map(struct device *dev, __u64 addr, __u64 size,
				      struct io_tlb_mem *mem)
{
	struct rdma_inflight_key k = { .dev = (__u64)dev, .addr = addr };
	struct rdma_inflight v = {
		.ts = bpf_ktime_get_ns(), .size = size, .pool = (__u64)mem,
	};

	if (bpf_map_update_elem(&inflight, &k, &v, BPF_ANY))
		__sync_fetch_and_add(&self.inflight_full, 1);
}

/*
 * Ends a tracked mapping: the time it was in flight, or false when it was
 * made before we attached (or not tracked).
 */
static __always_inline bool track_unmap(struct device *dev, __u64 addr, __u64 *ns,
					__u64 *size)
{
	struct rdma_inflight_key k = { .dev = (__u64)dev, .addr = addr };
	struct rdma_inflight *v;

	v = bpf_map_lookup_elem(&inflight, &k);
	if (!v) {
		__sync_fetch_and_add(&self.unmatched, 1);
		return false;
	}
	*ns = bpf_ktime_get_ns() - v->ts;
	*size = v->size;
	bpf_map_delete_elem(&inflight, &k);
	return true;
}

static __always_inline struct rdma_event *event_new(__u32 type, struct device *dev,
						    struct io_tlb_mem *mem)
{
	struct rdma_event *e;
	const char *name;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&self.ringbuf_drops, 1);
		return NULL;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->type = type;
	e->ts = bpf_ktime_get_ns();
	e->dev = (__u64)dev;
	e->pool = (__u64)mem;
	read_dev_name(dev, e->dev_name, sizeof(e->dev_name));
	if (mem) {
		e->pool_start = mem->start;
		e->pool_end = mem->end;
		e->nslabs = mem->nslabs;
		if (bpf_core_field_exists(mem->name)) {
			name = mem->name;
			if (name)
				bpf_probe_read_kernel_str(e->pool_name,
							  sizeof(e->pool_name), name);
		}
	}
	return e;
}

/* dma_to_phys(): through the device's dma-ranges when it has any. */
static __always_inline __u64 dev_dma_to_phys(struct device *dev, __u64 addr)
{
	const struct bus_dma_region *m = dev->dma_range_map;
	__u64 size, start;
	int i;

	if (!m)
		return addr;
	for (i = 0; i < MAX_DMA_RANGES; i++, m++) {
		size = BPF_CORE_READ(m, size);
		if (!size)
			break;
		start = BPF_CORE_READ(m, dma_start);
		if (addr >= start && addr - start < size)
			return addr + BPF_CORE_READ(m, offset);
	}
	return ~0ULL;
}

/*
 * The out-of-pool check: is [addr, addr + size) of a restricted device
 * inside its pool? Counted on the device and the pool, and reported.
 */
static __always_inline void check_range(struct device *dev, struct io_tlb_mem *mem,
					const char *api, __u64 addr, __u64 size)
{
	__u64 phys = dev_dma_to_phys(dev, addr);
	__u64 start = mem->start;
	__u64 end = mem->end;
	struct rdma_counters *c;
	struct rdma_event *e;

	if (phys >= start && phys < end && size <= end - phys)
		return;
	c = dev_counters(dev, mem);
	if (c)
		c->oop_check += 1;
	c = pool_counters(mem);
	if (c)
		c->oop_check += 1;
	e = event_new(RDMA_EV_OOP_CHECK, dev, mem);
	if (!e)
		return;
	e->addr = addr;
	e->size = size;
	bpf_probe_read_kernel_str(e->api, sizeof(e->api), api);
	bpf_ringbuf_submit(e, 0);
}

/* ---- swiotlb: what happens inside a pool --------------------------- */

SEC("tp_btf/swiotlb_attach")
int BPF_PROG(swiotlb_attach, struct device *dev, struct io_tlb_mem *mem)
{
	struct rdma_event *e;

	touch_pool(mem);
	touch_dev(dev, mem);
	e = event_new(RDMA_EV_ATTACH, dev, mem);
	if (e)
		bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/swiotlb_detach")
int BPF_PROG(swiotlb_detach, struct device *dev, struct io_tlb_mem *mem)
{
	struct rdma_event *e;

	touch_dev(dev, NULL);
	e = event_new(RDMA_EV_DETACH, dev, mem);
	if (e)
		bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/swiotlb_map")
int BPF_PROG(swiotlb_map, struct device *dev, phys_addr_t orig_addr,
	     phys_addr_t tlb_addr, dma_addr_t dma_addr, size_t mapping_size,
	     size_t alloc_size, enum dma_data_direction dir, unsigned long attrs)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;

	count_map(pool_counters(mem), mapping_size, dir, true);
	if (pool_restricted(mem)) {
		count_map(dev_counters(dev, mem), mapping_size, dir, true);
	}
	track_map(dev, tlb_addr, mapping_size, mem);
	return 0;
}

SEC("tp_btf/swiotlb_unmap")
int BPF_PROG(swiotlb_unmap, struct device *dev, phys_addr_t orig_addr,
	     phys_addr_t tlb_addr, size_t mapping_size, enum dma_data_direction dir,
	     unsigned long attrs)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	__u64 ns = 0, size = mapping_size;
	bool timed;

	timed = track_unmap(dev, tlb_addr, &ns, &size);
	count_unmap(pool_counters(mem), size, dir, ns, timed);
	if (pool_restricted(mem))
		count_unmap(dev_counters(dev, mem), size, dir, ns, timed);
	return 0;
}

static __always_inline void count_coherent(struct device *dev, bool alloc)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_counters *c;

	touch_pool(mem);
	touch_dev(dev, mem);
	c = pool_counters(mem);
	if (c && alloc)
		c->allocs++;
	else if (c)
		c->frees++;
	c = dev_counters(dev, mem);
	if (c && alloc)
		c->allocs++;
	else if (c)
		c->frees++;
}

SEC("tp_btf/swiotlb_alloc")
int BPF_PROG(swiotlb_alloc, struct device *dev, phys_addr_t tlb_addr, size_t size)
{
	count_coherent(dev, true);
	return 0;
}

SEC("tp_btf/swiotlb_free")
int BPF_PROG(swiotlb_free, struct device *dev, phys_addr_t tlb_addr, size_t size)
{
	count_coherent(dev, false);
	return 0;
}

static __always_inline void pool_failure(struct device *dev, __u32 type, __u64 size,
					 __u64 used, __u64 nslabs)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	bool map = type == RDMA_EV_MAP_FAILED;
	struct rdma_counters *c;
	struct rdma_event *e;

	touch_pool(mem);
	touch_dev(dev, mem);
	c = pool_counters(mem);
	if (c && map)
		c->map_failures++;
	else if (c)
		c->alloc_failures++;
	c = dev_counters(dev, mem);
	if (c && map)
		c->map_failures++;
	else if (c)
		c->alloc_failures++;
	e = event_new(type, dev, mem);
	if (!e)
		return;
	e->size = size;
	e->used = used;
	e->nslabs = nslabs;
	bpf_ringbuf_submit(e, 0);
}

SEC("tp_btf/swiotlb_map_failed")
int BPF_PROG(swiotlb_map_failed, struct device *dev, size_t size,
	     unsigned long used, unsigned long nslabs)
{
	pool_failure(dev, RDMA_EV_MAP_FAILED, size, used, nslabs);
	return 0;
}

SEC("tp_btf/swiotlb_alloc_failed")
int BPF_PROG(swiotlb_alloc_failed, struct device *dev, size_t size,
	     unsigned long used, unsigned long nslabs)
{
	pool_failure(dev, RDMA_EV_ALLOC_FAILED, size, used, nslabs);
	return 0;
}

SEC("tp_btf/swiotlb_out_of_pool")
int BPF_PROG(swiotlb_out_of_pool, struct device *dev, const char *api,
	     dma_addr_t dma_addr, size_t size, bool refused)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_counters *c;
	struct rdma_event *e;
	int i;

	touch_pool(mem);
	touch_dev(dev, mem);
	for (i = 0; i < 2; i++) {
		c = i ? pool_counters(mem) : dev_counters(dev, mem);
		if (!c)
			continue;
		c->oop_kernel += 1;
		if (refused)
			c->refused += 1;
	}
	e = event_new(RDMA_EV_OOP_KERNEL, dev, mem);
	if (!e)
		return 0;
	e->addr = dma_addr;
	e->size = size;
	e->refused = refused;
	bpf_probe_read_kernel_str(e->api, sizeof(e->api), api);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* Stock 6.1: the only event there is. Fires on map only. */
SEC("tp_btf/swiotlb_bounced")
int BPF_PROG(swiotlb_bounced, struct device *dev, dma_addr_t dev_addr, size_t size)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_counters *c;

	c = pool_counters(mem);
	if (c) {
		c->maps += 1;
		c->map_bytes += size;
		c->size_hist[log2_slot(size)] += 1;
	}
	c = dev_counters(dev, mem);
	if (c) {
		c->maps += 1;
		c->map_bytes += size;
		c->size_hist[log2_slot(size)] += 1;
	}
	return 0;
}

/* ---- dma: the DMA API, for every device ----------------------------- */

/*
 * One range handed to a device. A restricted device's mappings are
 * counted where they bounce (swiotlb_map); here they are only checked.
 * A device without a restricted pool is counted here.
 */
static __always_inline void dma_mapped(struct device *dev, const char *api,
				       __u64 addr, __u64 size, int dir, bool track)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_counters *c;

	if (pool_restricted(mem)) {
		if (addr != DMA_MAPPING_ERROR)
			check_range(dev, mem, api, addr, size);
		return;
	}
	c = dev_counters(dev, mem);
	if (addr == DMA_MAPPING_ERROR) {
		if (c)
			c->map_failures += 1;
		return;
	}
	count_map(c, size, dir, track);
	if (track)
		track_map(dev, addr, size, NULL);
}

static __always_inline void dma_unmapped(struct device *dev, __u64 addr, __u64 size,
					 int dir, bool track)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	__u64 ns = 0;
	bool timed = false;

	if (pool_restricted(mem))
		return;
	if (track)
		timed = track_unmap(dev, addr, &ns, &size);
	count_unmap(dev_counters(dev, mem), size, dir, ns, timed);
}

SEC("tp_btf/dma_map_page")
int BPF_PROG(dma_map_page, struct device *dev, phys_addr_t phys_addr,
	     dma_addr_t dma_addr, size_t size, enum dma_data_direction dir,
	     unsigned long attrs)
{
	dma_mapped(dev, "dma_map_page", dma_addr, size, dir, true);
	return 0;
}

SEC("tp_btf/dma_unmap_page")
int BPF_PROG(dma_unmap_page, struct device *dev, dma_addr_t addr, size_t size,
	     enum dma_data_direction dir, unsigned long attrs)
{
	dma_unmapped(dev, addr, size, dir, true);
	return 0;
}

SEC("tp_btf/dma_map_resource")
int BPF_PROG(dma_map_resource, struct device *dev, phys_addr_t phys_addr,
	     dma_addr_t dma_addr, size_t size, enum dma_data_direction dir,
	     unsigned long attrs)
{
	dma_mapped(dev, "dma_map_resource", dma_addr, size, dir, true);
	return 0;
}

SEC("tp_btf/dma_unmap_resource")
int BPF_PROG(dma_unmap_resource, struct device *dev, dma_addr_t addr, size_t size,
	     enum dma_data_direction dir, unsigned long attrs)
{
	dma_unmapped(dev, addr, size, dir, true);
	return 0;
}

/*
 * Scatterlists: each mapped segment is checked (restricted devices) or
 * counted; segments are not tracked in flight, since dma_unmap_sg names
 * the CPU side only.
 */
SEC("tp_btf/dma_map_sg")
int BPF_PROG(dma_map_sg, struct device *dev, struct scatterlist *sgl, int nents,
	     int ents, enum dma_data_direction dir, unsigned long attrs)
{
	__u64 sz = bpf_core_type_size(struct scatterlist);
	struct scatterlist *sg = sgl;
	__u64 link, addr, len;
	int i;

	for (i = 0; i < RDMA_MAX_SG; i++) {
		if (i >= ents || !sg)
			break;
		addr = BPF_CORE_READ(sg, dma_address);
		if (bpf_core_field_exists(sg->dma_length))
			len = BPF_CORE_READ(sg, dma_length);
		else
			len = BPF_CORE_READ(sg, length);
		dma_mapped(dev, "dma_map_sg", addr, len, dir, false);
		link = BPF_CORE_READ(sg, page_link);
		if (link & SG_END)
			break;
		sg = (void *)((__u64)sg + sz);
		link = BPF_CORE_READ(sg, page_link);
		if (link & SG_CHAIN)
			sg = (void *)(link & ~(SG_CHAIN | SG_END));
	}
	return 0;
}

SEC("tp_btf/dma_unmap_sg")
int BPF_PROG(dma_unmap_sg, struct device *dev, struct scatterlist *sgl, int nents,
	     enum dma_data_direction dir, unsigned long attrs)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_counters *c;

	if (pool_restricted(mem))
		return 0;
	c = dev_counters(dev, mem);
	if (c)
		c->unmaps += nents;
	return 0;
}

SEC("tp_btf/dma_alloc")
int BPF_PROG(dma_alloc, struct device *dev, void *virt_addr, dma_addr_t dma_addr,
	     size_t size, gfp_t flags, unsigned long attrs)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_counters *c;

	if (!virt_addr)
		return 0;
	if (pool_restricted(mem)) {
		check_range(dev, mem, "dma_alloc", dma_addr, size);
		return 0;
	}
	touch_dev(dev, mem);
	c = dev_counters(dev, mem);
	if (c)
		c->allocs += 1;
	return 0;
}

SEC("tp_btf/dma_free")
int BPF_PROG(dma_free, struct device *dev, void *virt_addr, dma_addr_t dma_addr,
	     size_t size, unsigned long attrs)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_counters *c;

	if (pool_restricted(mem))
		return 0;
	c = dev_counters(dev, mem);
	if (c)
		c->frees += 1;
	return 0;
}
