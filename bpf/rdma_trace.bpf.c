// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_trace: restricted DMA as the kernel does it, counted in the kernel.
 *
 * On the mapping path it attaches (tp_btf) to the series' dma:* events
 * only, one program run per map and one per unmap: attaching a program to
 * a tracepoint costs more than what the program then does, so the
 * swiotlb:* map and unmap events, which say the same for a bounce, are
 * left alone. A range inside the device's swiotlb pool is a bounce.
 *
 * Per pool and per device: mappings, bytes each way, mappings in flight,
 * failures, coherent allocations, out-of-pool ranges, and log2 histograms
 * of mapping size and of time in flight. Rare events (attach,
 * detach, failures, out of pool) come from the swiotlb:* events and go to
 * a ring buffer; everything else stays in maps that userspace reads once
 * an interval.
 *
 * The hot path takes no lock and makes no hash lookup: pools and devices
 * have entries in open-addressed tables (pool_keys[], devs[]), their
 * counters are per-CPU array entries updated without atomics (a
 * tracepoint runs with preemption off; only an interrupt mapping on the
 * same CPU mid-update can lose a count), and a bounce is tracked in flight
 * in the array entry of its first pool slot, which it owns until unmapped.
 * Reading the clock is the dearest single step (about 100 instructions on
 * arm64): one bounce in RDMA_TIME_SAMPLE is timed. The page events'
 * common case, a known restricted device bouncing inside its pool, has a
 * path of its own (bounce_dev()) that reads only the device's entry,
 * which also keeps the histogram slot of the size it maps (size_slot());
 * so has swiotlb_bounced on a kernel without the series.
 *
 * Its own out-of-pool check: every DMA API range handed to a device that
 * has a restricted pool is compared with that pool's bounds, read from
 * the device through BTF. It works whether or not the kernel's audit does.
 *
 * A restricted pool's mappings and histograms are counted on its devices
 * only, which is one per-CPU lookup less a call: userspace adds up a
 * pool's devices (rdma_dev_info.home_pool). Other pools (the default one)
 * are counted.
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
#include "rdma_slot.h"
#include "rdma_hist.h"

char LICENSE[] SEC("license") = "GPL";

#define DMA_MAPPING_ERROR	(~0ULL)
#define SG_CHAIN		0x01UL
#define SG_END			0x02UL
#define DMA_ATTR_SKIP_CPU_SYNC	(1UL << 5)
#define MAX_DMA_RANGES		8

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RDMA_MAX_POOLS);
	__type(key, __u32);
	__type(value, struct rdma_pool_info);
} pool_info SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RDMA_MAX_POOLS);
	__type(key, __u32);
	__type(value, struct rdma_counters);
} pool_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RDMA_MAX_DEVICES);
	__type(key, __u32);
	__type(value, struct rdma_counters);
} dev_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, RDMA_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct rdma_slot);
} inflight_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RDMA_MAX_INFLIGHT);
	/* Memory as mappings come, not 65536 entries up front. */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct rdma_inflight_key);
	__type(value, struct rdma_inflight);
} inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, RDMA_RINGBUF_SIZE);
} events SEC(".maps");

struct rdma_self self;
__u64 pool_keys[RDMA_MAX_POOLS];	/* obj_key() of each slot's io_tlb_mem; 0: free */
struct rdma_dev_info devs[RDMA_MAX_DEVICES];	/* open-addressed by device key */
__u64 pool_slot_base[RDMA_MAX_POOLS];	/* its first inflight_slots entry + 1; 0: none */

/*
 * Set by userspace before load, from the kernel's BTF: where the DMA API
 * calls come from (enum rdma_source), and whether the series' swiotlb
 * failure events exist (then a restricted pool's failures are theirs, not
 * read off a DMA_MAPPING_ERROR).
 */
const volatile __u32 dma_source = RDMA_SRC_TP;
const volatile bool pool_failure_events = true;
/*
 * rdmatop --restricted-only: the DMA API calls of a device without a
 * restricted pool end at the pool check, with no table or map touched.
 */
const volatile bool restricted_only = false;
/*
 * inflight_slots' size: userspace sizes it to the pools the board has
 * (bpf_map__set_max_entries); a pool past it is tracked by address.
 */
const volatile __u64 max_slots = RDMA_MAX_SLOTS;

/*
 * The board's RAM (userspace, from /proc/iomem): the own check counts a
 * range outside a device's pool only if some of it is RAM, as the
 * kernel's audit does; one with none is another device's registers
 * (dma_map_resource for slave DMA). nr_ram 0: not known, all is RAM.
 */
const volatile __u32 nr_ram = 0;
const volatile struct rdma_ram ram[RDMA_MAX_RAM] = {};
/* The kernel's page size: struct dma_coherent_mem counts pages. */
const volatile __u64 page_size = 4096;

/* Whether a DMA API call of @dev is left alone (--restricted-only). */
static __always_inline bool skip_dev(struct device *dev)
{
	struct io_tlb_mem *mem;

	if (!restricted_only)
		return false;
	mem = dev->dma_io_tlb_mem;
	return !mem || !mem->for_alloc;
}

/* The DMA API calls an out-of-pool event names. */
enum rdma_api {
	RDMA_API_MAP_PAGE,
	RDMA_API_MAP_RESOURCE,
	RDMA_API_MAP_SG,
	RDMA_API_ALLOC,
	RDMA_API_COUNT,
};

static const char api_names[RDMA_API_COUNT][RDMA_API_LEN] = {
	"dma_map_page", "dma_map_resource", "dma_map_sg", "dma_alloc",
};

/* ---- helpers ------------------------------------------------------ */

#define TABLE_PROBES	8

/*
 * A kernel object's identity as a number: its distance from our .bss.
 * The verifier allows no arithmetic on a pointer but subtracting another
 * pointer (for a program that may see kernel addresses), and the tables
 * hash their keys. 0 for NULL.
 */
static __always_inline __u64 obj_key(const void *p)
{
	__u64 v = (__u64)p;

	if (!v)
		return 0;
	/*
	 * Opaque past the test, so that clang cannot compute v - &self where
	 * it knows v is 0 (a scalar minus a pointer: 6.1's verifier refuses
	 * it, "tried to subtract pointer from scalar").
	 */
	barrier_var(v);
	return v - (__u64)&self;
}

static __always_inline __u32 key_hash(__u64 key)
{
	return (__u32)((key * 0x9E3779B97F4A7C15ULL) >> 32);
}

#define TABLE_FRESH	0x10000		/* rdma_table_slot(): the slot was free */

/*
 * The slot of @key in an open-addressed table, devs[] or (@pools)
 * pool_keys[], whose entries start with their u64 key (0: free), taking
 * a free one (TABLE_FRESH) the first time: a multiply, a load and a
 * compare where a hash map costs a jhash, a bucket walk and a helper
 * call. Returns -1 when the table is full around @key.
 *
 * A global subprogram, so that the verifier walks its probes once per
 * program: inline, it walked them again for each way its callers could
 * reach it (rdmatop -vvv on 6.12: half of what the swiotlb events' and
 * dma_alloc's programs cost to load).
 */
__noinline int rdma_table_slot(__u32 pools, __u64 key)
{
	__u32 h = key_hash(key), n = pools ? RDMA_MAX_POOLS : RDMA_MAX_DEVICES, s;
	__u64 *keyp, cur;
	int i;

	for (i = 0; i < TABLE_PROBES; i++) {
		s = (h + i) & (n - 1);
		keyp = pools ? &pool_keys[s & (RDMA_MAX_POOLS - 1)] :
			       &devs[s & (RDMA_MAX_DEVICES - 1)].key;
		cur = *keyp;
		if (cur == key)
			return s;
		if (cur)
			continue;
		cur = __sync_val_compare_and_swap(keyp, 0, key);
		if (!cur)
			return s | TABLE_FRESH;
		if (cur == key)
			return s;
	}
	__sync_fetch_and_add(&self.untracked, 1);
	return -1;
}

/* rdma_table_slot(), with *@fresh set when the slot was taken now */
static __always_inline int table_slot(bool pools, __u64 key, bool *fresh)
{
	int s = rdma_table_slot(pools, key);

	*fresh = s >= 0 && (s & TABLE_FRESH);
	return s < 0 ? -1 : s & (TABLE_FRESH - 1);
}

/* ---- kernel layouts ----------------------------------------------- */

/*
 * struct io_tlb_mem as Linux 6.1 has it: the bounds are its own fields.
 * Since 6.6 they live in io_tlb_mem.defpool (a struct io_tlb_pool), which
 * is what vmlinux.h (6.12's) describes. CO-RE picks the one the running
 * kernel has: bpf_core_field_exists() is a constant after relocation, and
 * the verifier drops the other branch, whose reads stay unrelocated.
 */
struct io_tlb_mem___v61 {
	phys_addr_t start;
	phys_addr_t end;
} __attribute__((preserve_access_index));

/*
 * A pool's bounds through a pointer the verifier trusts (a tracepoint's
 * argument and what it points to): plain loads.
 */
static __always_inline __u64 mem_start(struct io_tlb_mem *mem)
{
	if (bpf_core_field_exists(mem->defpool))
		return mem->defpool.start;
	return ((struct io_tlb_mem___v61 *)mem)->start;
}

static __always_inline __u64 mem_end(struct io_tlb_mem *mem)
{
	if (bpf_core_field_exists(mem->defpool))
		return mem->defpool.end;
	return ((struct io_tlb_mem___v61 *)mem)->end;
}

/* The same through any pointer (a number, in a global subprogram). */
static __always_inline void mem_bounds_read(struct io_tlb_mem *mem, __u64 *start, __u64 *end)
{
	struct io_tlb_mem___v61 *old = (void *)mem;

	if (bpf_core_field_exists(mem->defpool)) {
		*start = BPF_CORE_READ(mem, defpool.start);
		*end = BPF_CORE_READ(mem, defpool.end);
	} else {
		*start = BPF_CORE_READ(old, start);
		*end = BPF_CORE_READ(old, end);
	}
}

static __always_inline bool pool_restricted(struct io_tlb_mem *mem)
{
	return mem && mem->for_alloc;
}

/*
 * A pool's slot. The first event of a pool records what it is and hands
 * it inflight_slots entries, one per pool slot, while any are left.
 */
static __always_inline int pool_index(struct io_tlb_mem *mem)
{
	struct rdma_pool_info *info;
	__u64 nslabs, base;
	const char *name;
	bool fresh;
	int i;

	if (!mem)
		return -1;
	i = table_slot(true, obj_key(mem), &fresh);
	if (i < 0 || !fresh)
		return i;
	info = bpf_map_lookup_elem(&pool_info, &i);
	if (!info)
		return i;
	nslabs = mem->nslabs;
	if (bpf_core_field_exists(mem->name)) {
		name = mem->name;
		if (name)
			bpf_probe_read_kernel_str(info->name, sizeof(info->name), name);
	}
	info->start = mem_start(mem);
	info->nslabs = nslabs;
	info->restricted = mem->for_alloc;
	info->end = mem_end(mem);	/* last: userspace skips a pool until it is set */
	if (nslabs <= max_slots) {
		base = __sync_fetch_and_add(&self.slots_next, nslabs);
		if (base + nslabs <= max_slots)
			pool_slot_base[i & (RDMA_MAX_POOLS - 1)] = base + 1;
	}
	return i;
}

/* dev_name(), through any pointer (rare events, new devices). */
static __always_inline void read_dev_name(struct device *dev, char *buf, __u32 len)
{
	const char *name = BPF_CORE_READ(dev, init_name);

	if (!name)
		name = BPF_CORE_READ(dev, kobj.name);
	if (name)
		bpf_probe_read_kernel_str(buf, len, name);
}

/*
 * Records the pool a device has now, and what the mapping path needs of
 * it (bounds, slot entries), so that path reads the device's entry only.
 */
static __always_inline void dev_set_pool(struct rdma_dev_info *d, struct io_tlb_mem *mem)
{
	int pool = pool_index(mem);

	d->pool_slot = pool;
	d->pool = obj_key(mem);
	d->restricted = pool_restricted(mem);
	if (d->restricted)
		d->home_pool = d->pool;
	d->pool_start = mem ? mem_start(mem) : 0;
	d->pool_end = mem ? mem_end(mem) : 0;
	d->slot_base = pool < 0 ? 0 : pool_slot_base[pool & (RDMA_MAX_POOLS - 1)];
}

/*
 * dev_entry() past its first probe: table_slot() over devs[], and a new
 * entry records the device's name and pool. A subprogram, so that the
 * mapping path's common case stays short and keeps its registers.
 */
static __noinline struct rdma_dev_info *dev_entry_slow(struct device *dev,
							struct io_tlb_mem *mem,
							__u64 key, int *slot)
{
	struct rdma_dev_info *d;
	bool fresh;
	int s;

	s = table_slot(false, key, &fresh);
	if (s < 0)
		return NULL;
	*slot = s;
	d = &devs[s & (RDMA_MAX_DEVICES - 1)];
	if (fresh) {
		dev_set_pool(d, mem);
		read_dev_name(dev, d->name, sizeof(d->name));
	}
	return d;
}

/*
 * A device's entry in devs[] and its slot (*slot), taking a free one the
 * first time. NULL when the table is full around its key.
 */
static __always_inline struct rdma_dev_info *dev_entry(struct device *dev,
							struct io_tlb_mem *mem, int *slot)
{
	__u64 key = obj_key(dev);
	__u32 s = key_hash(key) & (RDMA_MAX_DEVICES - 1);

	*slot = s;
	if (devs[s].key == key)
		return &devs[s];
	return dev_entry_slow(dev, mem, key, slot);
}

static __always_inline struct rdma_counters *pool_counters_at(int i)
{
	return i < 0 ? NULL : bpf_map_lookup_elem(&pool_stats, &i);
}

static __always_inline struct rdma_counters *pool_counters(struct io_tlb_mem *mem)
{
	return pool_counters_at(pool_index(mem));
}

static __always_inline struct rdma_counters *dev_counters(struct device *dev,
							  struct io_tlb_mem *mem)
{
	int i;

	return dev_entry(dev, mem, &i) ? bpf_map_lookup_elem(&dev_stats, &i) : NULL;
}

/*
 * A device's entry with the pool it has now: one whose pool changed
 * without an attach or detach event seen (rdmatop started later) is
 * recorded again.
 */
static __always_inline struct rdma_dev_info *dev_entry_now(struct device *dev,
							    struct io_tlb_mem *mem, int *slot)
{
	struct rdma_dev_info *d = dev_entry(dev, mem, slot);

	if (d && d->pool != obj_key(mem))
		dev_set_pool(d, mem);
	return d;
}

/* Records a device and the pool it has now (attach, detach, rare events). */
static __always_inline void touch_dev(struct device *dev, struct io_tlb_mem *mem)
{
	int i;

	dev_entry_now(dev, mem, &i);
}

/*
 * rdma_hist_slot() as a global subprogram, which the verifier checks once
 * and whose result it knows only by the bound its callers test. Inline,
 * the log2 with branches sent each slot down the rest of the function
 * as a path of its own (11.5k of the 19k instructions processed to load
 * dma_map_resource on 6.12); branch-free, as it is now, inline still
 * costs 4k instructions more over all the programs (49.6k against 45.3k
 * on 6.12), and the call nothing make bench can see: it is made on a
 * size-slot miss and on the one unmap in eight that is timed.
 */
__noinline int rdma_hist_index(__u64 v)
{
	return rdma_hist_slot(v);
}

static __always_inline __u32 hist_slot(__u64 v)
{
	__u32 s = rdma_hist_index(v);

	return s < RDMA_HIST_SLOTS ? s : RDMA_HIST_SLOTS - 1;
}

/*
 * The histogram slot of a bounce of @size through @d: a device mostly
 * maps one size again and again, whose slot its entry keeps (a load and
 * a compare where the slot's computation is about 40 instructions on
 * arm64). A bounce is under 256 MiB (pools with slot entries are), so
 * its slot is under 32: 5 bits, which also tell the verifier the slot
 * is inside the histogram.
 */
static __always_inline __u32 size_slot(struct rdma_dev_info *d, __u64 size)
{
	__u64 cached = d->size_slot;
	__u32 slot;

	if (cached >> 5 == size)
		return cached & 31;
	slot = rdma_hist_index(size) & 31;
	d->size_slot = size << 5 | slot;
	return slot;
}

/* @bucket: hist_slot(size) */
static __always_inline void count_map(struct rdma_counters *c, __u64 size, int dir,
				      bool tracked, __u32 bucket)
{
	if (!c)
		return;
	c->maps += 1;
	c->map_bytes += size;
	if (tracked) {
		c->inflight += 1;
		c->inflight_bytes += size;
	}
	if ((__u32)dir <= RDMA_DIR_TO_DEVICE)	/* RDMA_DIR_BIDI or RDMA_DIR_TO_DEVICE */
		c->bytes_to_device += size;
	c->size_hist[bucket] += 1;
}

/* @tracked: it was counted in flight; @timed: @ns is its time in flight */
static __always_inline void count_unmap(struct rdma_counters *c, __u64 size,
					bool from_device, bool tracked, __u64 ns,
					bool timed)
{
	if (!c)
		return;
	c->unmaps += 1;
	if (from_device)
		c->bytes_from_device += size;
	if (tracked) {
		c->inflight -= 1;
		c->inflight_bytes -= size;
	}
	if (!timed)
		return;
	c->time_ns += ns;
	c->time_hist[hist_slot(ns)] += 1;
}

/*
 * Whether an unmap in direction @dir copies back from the device:
 * RDMA_DIR_FROM_DEVICE or RDMA_DIR_BIDI (bits 2 and 0 of 0x5), unless
 * the caller skips the CPU sync. Without a branch.
 */
static __always_inline bool unmap_from_device(__u32 dir, __u64 attrs)
{
	return (0x5 >> (dir & 3)) & 1 & ~(attrs >> 5);	/* DMA_ATTR_SKIP_CPU_SYNC */
}

/* Tracking by address, for mappings that do not bounce through a pool. */
static __always_inline bool track_map(__u64 dev, __u64 addr, __u64 size, __u64 mem)
{
	struct rdma_inflight_key k = { .dev = dev, .addr = addr };
	struct rdma_inflight v = { .ts = bpf_ktime_get_ns(), .size = size, .pool = mem };

	if (!bpf_map_update_elem(&inflight, &k, &v, BPF_ANY))
		return true;
	__sync_fetch_and_add(&self.inflight_full, 1);
	return false;
}

/*
 * Ends a mapping tracked by address: the time it was in flight, or false
 * when it was made before we attached (or not tracked).
 */
static __always_inline bool track_unmap(__u64 dev, __u64 addr, __u64 *ns, __u64 *size)
{
	struct rdma_inflight_key k = { .dev = dev, .addr = addr };
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

/* A rare event, through any pointers to the device and its pool. */
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
		mem_bounds_read(mem, &e->pool_start, &e->pool_end);
		e->nslabs = BPF_CORE_READ(mem, nslabs);
		if (bpf_core_field_exists(mem->name)) {
			name = BPF_CORE_READ(mem, name);
			if (name)
				bpf_probe_read_kernel_str(e->pool_name,
							  sizeof(e->pool_name), name);
		}
	}
	return e;
}

/* Whether [phys, phys + size) lies inside [start, end). */
static __always_inline bool in_pool(__u64 phys, __u64 size, __u64 start, __u64 end)
{
	return phys >= start && phys < end && size <= end - phys;
}

/* Whether [phys, phys + size) overlaps the board's RAM; no sum can wrap. */
static __noinline bool holds_ram(__u64 phys, __u64 size)
{
	__u32 i;

	if (!nr_ram)
		return true;
	for (i = 0; i < RDMA_MAX_RAM && i < nr_ram; i++)
		if (phys < ram[i].end && (phys >= ram[i].start || ram[i].start - phys < size))
			return true;
	return false;
}

/*
 * Whether a coherent allocation lies in the device's own coherent pool
 * (dev->dma_mem, in DMA addresses): the shared-dma-pool its node names
 * beside the restricted pool, as the binding recommends, which the
 * kernel's audit allows too.
 */
static __always_inline bool in_dev_coherent(struct device *dev, __u64 dma_addr, __u64 size)
{
	struct dma_coherent_mem *cm;
	__u64 base;

	if (!bpf_core_field_exists(dev->dma_mem))
		return false;
	cm = BPF_CORE_READ(dev, dma_mem);
	if (!cm)
		return false;
	base = BPF_CORE_READ(cm, device_base);
	return in_pool(dma_addr, size, base, base + BPF_CORE_READ(cm, size) * page_size);
}

/* ---- swiotlb: what happens inside a pool --------------------------- */

SEC("tp_btf/swiotlb_attach")
int BPF_PROG(swiotlb_attach, struct device *dev, struct io_tlb_mem *mem)
{
	struct rdma_event *e;

	struct rdma_dev_info *d;
	int i;

	pool_index(mem);
	/* A new device may have the address of one that went away. */
	d = dev_entry(dev, mem, &i);
	if (d) {
		dev_set_pool(d, mem);
		read_dev_name(dev, d->name, sizeof(d->name));
	}
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

static __always_inline void count_coherent(struct device *dev, bool alloc)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_counters *c;

	pool_index(mem);
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

	pool_index(mem);
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

/*
 * The series' audit. Its later form adds a sixth argument, mmio: a range
 * with no RAM in it (another device's registers), which is not out of
 * pool. The argument is read only where the event's record has the field,
 * so the program loads on kernels whose event has five.
 */
SEC("tp_btf/swiotlb_out_of_pool")
int BPF_PROG(swiotlb_out_of_pool, struct device *dev, const char *api,
	     dma_addr_t dma_addr, size_t size, bool refused)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_counters *c;
	struct rdma_event *e;
	int i;

	if (bpf_core_field_exists(struct trace_event_raw_swiotlb_out_of_pool, mmio) &&
	    (__u8)ctx[5])
		return 0;
	pool_index(mem);
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

/*
 * Stock 6.1: the only event there is. Fires on map only. A pool other
 * than a restricted one is counted too (a restricted pool's mappings are
 * its devices', added up by userspace).
 */
static __noinline int bounced_general(struct device *dev, __u64 size)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_counters *c;
	__u32 bucket = hist_slot(size);

	c = pool_restricted(mem) ? NULL : pool_counters(mem);
	if (c) {
		c->maps += 1;
		c->map_bytes += size;
		c->size_hist[bucket] += 1;
	}
	c = dev_counters(dev, mem);
	if (c) {
		c->maps += 1;
		c->map_bytes += size;
		c->size_hist[bucket] += 1;
	}
	return 0;
}

/*
 * The common case, a known device bouncing through the restricted pool
 * it was recorded with, reads its devs[] entry and counts on it alone.
 */
SEC("tp_btf/swiotlb_bounced")
int BPF_PROG(swiotlb_bounced, struct device *dev, dma_addr_t dev_addr, size_t size)
{
	__u64 key = (__u64)dev - (__u64)&self;	/* obj_key(): dev is never NULL */
	struct rdma_counters *c;
	struct rdma_dev_info *d;
	__u32 i;

	i = key_hash(key) & (RDMA_MAX_DEVICES - 1);
	d = &devs[i];
	barrier_var(d);
	if (d->key != key || !d->restricted || size >= (1U << 28) ||
	    mem_start(dev->dma_io_tlb_mem) != d->pool_start)
		return bounced_general(dev, size);
	c = bpf_map_lookup_elem(&dev_stats, &i);
	if (!c)
		return 0;
	c->maps += 1;
	c->map_bytes += size;
	c->size_hist[size_slot(d, size)] += 1;
	return 0;
}

/* ---- dma: the DMA API, for every device ----------------------------- */

/*
 * Ranges handed to a device, from the DMA API: the dma: trace events
 * where the kernel has them, else fentry/fexit on the exported functions
 * (dma_source). One program run per map and one per unmap.
 *
 * A range inside the device's swiotlb pool is a bounce: it counts for
 * the pool and is tracked in place (its slot entry). A device with a
 * restricted pool must only get such ranges; any other is out of pool.
 * Anything else (a device mapping directly) is tracked by address.
 *
 * The general way takes everything a range needs as plain numbers (struct
 * dma_range) into one global subprogram, rdma_dma_range(), which the
 * verifier checks once, whatever calls it: a scatterlist's walk calls it
 * per segment from a bpf_loop() callback.
 */
struct dma_range {
	__u64 dev;		/* struct device * */
	__u64 mem;		/* its struct io_tlb_mem *, 0: none */
	__u64 ranges;		/* its dma_range_map, 0: none */
	__u64 start, end;	/* the pool's bounds */
	__u64 slot_base;	/* its first inflight_slots entry + 1; 0: none */
	__u64 addr, size;
	__u64 attrs;
	__s32 dev_slot;		/* devs[] slot, -1: past the table */
	__s32 pool_slot;	/* pool_keys[] slot, -1: none */
	__u32 dir;
	__u32 api;		/* enum rdma_api */
	__u32 restricted;
	__u32 unmap;
};

/*
 * dma_to_phys() through the dma-ranges of @r's device (r->ranges, its
 * dma_range_map, read here as a number). 6.1's struct bus_dma_region has
 * an offset that 6.12's lacks (32 bytes then, 24 now): the entries are
 * strided by the running kernel's size, and the address translated with
 * the fields both have. ~0 when no range holds the address.
 *
 * A global subprogram, so that the verifier walks its loop once per
 * program: inline in rdma_dma_range(), it walked it once for each way the
 * counter lookups before it can end (2.8k of the 6.9k instructions it
 * processed to load dma_map_page on 6.12). The loop is a bpf_loop()
 * callback: as a bounded loop the verifier walked all MAX_DMA_RANGES
 * rounds (643 instructions a program on 6.12, 105 now with the callback).
 */
struct ranges_walk {
	__u64 map;		/* the dma_range_map */
	__u64 addr;		/* the DMA address */
	__u64 phys;		/* its physical address, ~0: none yet */
};

static int range_entry(__u32 i, void *data)
{
	const __u32 stride = bpf_core_type_size(struct bus_dma_region);
	struct ranges_walk *w = data;
	const struct bus_dma_region *m = (const void *)(w->map + (__u64)i * stride);
	__u64 size = BPF_CORE_READ(m, size), start;

	if (!size)
		return 1;
	start = BPF_CORE_READ(m, dma_start);
	if (w->addr < start || w->addr - start >= size)
		return 0;
	w->phys = w->addr - start + BPF_CORE_READ(m, cpu_start);
	return 1;
}

__noinline __u64 rdma_ranges_dma_to_phys(const struct dma_range *r, __u64 addr)
{
	struct ranges_walk w = { .addr = addr, .phys = ~0ULL };

	if (!r)
		return ~0ULL;
	w.map = r->ranges;
	bpf_loop(MAX_DMA_RANGES, range_entry, &w, 0);
	return w.phys;
}

/* Most devices have no dma-ranges: their DMA address is the physical one. */
static __always_inline __u64 range_dma_to_phys(const struct dma_range *r, __u64 addr)
{
	return r->ranges ? rdma_ranges_dma_to_phys(r, addr) : addr;
}

/*
 * rdmatop's own out-of-pool check found range @r handed to a restricted
 * device outside its pool: counted on the device (@dc; NULL when it is
 * past the device table, then on self.oop_untracked, so that --check
 * still fails) and its pool (@pc), and reported. A global subprogram:
 * inline, the event's reads and their branches were walked again for
 * each way its caller went on.
 */
__noinline int rdma_out_of_pool(const struct dma_range *r, struct rdma_counters *dc,
				struct rdma_counters *pc)
{
	struct rdma_event *e;

	if (!r)
		return 0;
	if (dc)
		dc->oop_check += 1;
	else
		__sync_fetch_and_add(&self.oop_untracked, 1);
	if (pc)
		pc->oop_check += 1;
	e = event_new(RDMA_EV_OOP_CHECK, (struct device *)r->dev, (struct io_tlb_mem *)r->mem);
	if (!e)
		return 0;
	e->addr = r->addr;
	e->size = r->size;
	if (r->api < RDMA_API_COUNT)
		__builtin_memcpy(e->api, api_names[r->api], sizeof(e->api));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/*
 * What is per call: the device, its pool and their slots, looked up once.
 * A device past the table is still checked, against its pool's bounds
 * read here: it is counted as untracked, never misjudged.
 */
static __always_inline void dma_range_init(struct dma_range *r, struct device *dev)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_dev_info *d;
	int i;

	__builtin_memset(r, 0, sizeof(*r));
	r->dev = (__u64)dev;
	r->mem = (__u64)mem;
	r->ranges = (__u64)dev->dma_range_map;
	d = dev_entry_now(dev, mem, &i);
	if (!d) {
		r->dev_slot = -1;
		r->pool_slot = pool_index(mem);
		r->restricted = pool_restricted(mem);
		if (mem) {
			r->start = mem_start(mem);
			r->end = mem_end(mem);
		}
		return;
	}
	/* Recorded while its pool was being set up by another CPU. */
	if (!d->slot_base && d->pool_slot >= 0)
		d->slot_base = pool_slot_base[d->pool_slot & (RDMA_MAX_POOLS - 1)];
	r->dev_slot = i;
	r->pool_slot = d->pool_slot;
	r->restricted = d->restricted;
	r->start = d->pool_start;
	r->end = d->pool_end;
	r->slot_base = d->slot_base;
}

/*
 * The in-place record of a mapping at @phys: the entry of its first pool
 * slot (bpf/rdma_slot.h). NULL outside the pool, or when the pool got no
 * entries (the tables were full).
 */
static __always_inline __u32 slot_index(__u64 slot_base, __u64 start, __u64 phys)
{
	return slot_base - 1 + ((phys - start) >> 11);	/* IO_TLB_SHIFT */
}

/*
 * The clock is the dearest step of a bounce's accounting: one bounce in
 * RDMA_TIME_SAMPLE per device and CPU is timed (0: not timed).
 */
static __always_inline __u64 bounce_stamp(struct rdma_counters *dc)
{
	if (dc && !(dc->maps & (RDMA_TIME_SAMPLE - 1)))
		return bpf_ktime_get_ns();
	return 0;
}

/*
 * count_map() and count_unmap() for the general way, global subprograms:
 * inline, their branches (no counters, not tracked, the direction, the
 * histogram slot's clamp) doubled the paths the verifier walked through
 * the rest of their callers, twice over since each counts on the device
 * and its pool. The page events' common case keeps them inline.
 */
__noinline int rdma_count_map(struct rdma_counters *c, __u64 size, __u32 dir, __u32 tracked)
{
	count_map(c, size, dir, tracked, hist_slot(size));
	return 0;
}

/* What rdma_count_unmap() is told, in one argument (a BPF call passes five). */
#define UNMAP_FROM_DEVICE	1
#define UNMAP_TRACKED		2
#define UNMAP_TIMED		4
#define UNMAP_HOW(from_device, tracked, timed) \
	((from_device) * UNMAP_FROM_DEVICE | (tracked) * UNMAP_TRACKED | (timed) * UNMAP_TIMED)

__noinline int rdma_count_unmap(struct rdma_counters *c, __u64 size, __u64 ns, __u32 how)
{
	count_unmap(c, size, how & UNMAP_FROM_DEVICE, how & UNMAP_TRACKED, ns,
		    how & UNMAP_TIMED);
	return 0;
}

/*
 * The two halves of rdma_dma_range() are global subprograms as well, each
 * verified on its own: inline, the verifier walked each of their paths
 * once for every way the lookups before them can end.
 */
__noinline int rdma_range_mapped(struct dma_range *r, struct rdma_counters *dc,
				 struct rdma_counters *pc, struct rdma_slot *slot, __u64 phys)
{
	/* A restricted pool's mappings are added up from its devices. */
	struct rdma_counters *mc;
	bool tracked = true;

	if (!r)
		return 0;
	mc = r->restricted ? NULL : pc;
	if (r->addr == DMA_MAPPING_ERROR) {
		/* With the series, a restricted pool's come with swiotlb_map_failed. */
		if (r->restricted && pool_failure_events)
			return 0;
		if (dc)
			dc->map_failures += 1;
		if (pc)
			pc->map_failures += 1;
		return 0;
	}
	if (r->restricted && !in_pool(phys, r->size, r->start, r->end) && holds_ram(phys, r->size))
		rdma_out_of_pool(r, dc, pc);
	if (slot) {
		rdma_slot_map(slot, bounce_stamp(dc));
		rdma_count_map(mc, r->size, r->dir, true);
	} else {
		tracked = track_map(r->dev, r->addr, r->size, r->mem);
	}
	rdma_count_map(dc, r->size, r->dir, tracked);
	return 0;
}

__noinline int rdma_range_unmapped(struct dma_range *r, struct rdma_counters *dc,
				   struct rdma_counters *pc, struct rdma_slot *slot)
{
	struct rdma_counters *mc;
	bool tracked = false, timed = false, from_device;
	__u64 ns = 0, ts, size;

	if (!r)
		return 0;
	from_device = unmap_from_device(r->dir, r->attrs);
	mc = r->restricted ? NULL : pc;
	size = r->size;
	if (slot) {
		tracked = rdma_slot_unmap(slot, &ts);
		if (!tracked)
			__sync_fetch_and_add(&self.unmatched, 1);
		if (ts) {
			ns = bpf_ktime_get_ns() - ts;
			timed = true;
		}
		rdma_count_unmap(mc, size, ns, UNMAP_HOW(from_device, tracked, timed));
	} else {
		tracked = timed = track_unmap(r->dev, r->addr, &ns, &size);
	}
	rdma_count_unmap(dc, size, ns, UNMAP_HOW(from_device, tracked, timed));
	return 0;
}

/*
 * One range, any device, any address: a global subprogram, verified once
 * on its own (its argument is plain numbers; pointers are read through
 * bpf_probe_read_kernel()).
 */
__noinline int rdma_dma_range(struct dma_range *r)
{
	struct rdma_counters *dc = NULL, *pc = NULL;
	struct rdma_slot *slot = NULL;
	__u64 phys;
	__u32 k;
	int i;

	if (!r)
		return 0;
	i = r->dev_slot;
	if (i >= 0)
		dc = bpf_map_lookup_elem(&dev_stats, &i);
	i = r->pool_slot;
	if (i >= 0)
		pc = bpf_map_lookup_elem(&pool_stats, &i);
	phys = range_dma_to_phys(r, r->addr);
	if (r->slot_base && phys >= r->start && phys < r->end) {
		k = slot_index(r->slot_base, r->start, phys);
		slot = bpf_map_lookup_elem(&inflight_slots, &k);
	}
	if (r->unmap)
		return rdma_range_unmapped(r, dc, pc, slot);
	return rdma_range_mapped(r, dc, pc, slot, phys);
}

/*
 * What a call did, in one argument (a BPF call passes five): its
 * direction, whether it unmaps, and the API (enum rdma_api).
 */
#define HOW(api, dir, unmap)	((dir) | (unmap) << 8 | (api) << 16)
#define HOW_DIR(how)		((how) & 0xff)
#define HOW_UNMAP(how)		(((how) >> 8) & 1)
#define HOW_API(how)		((how) >> 16)

/* A static subprogram, so that the page events' common case keeps its registers. */
static __noinline int dma_general(struct device *dev, __u64 addr, __u64 size, __u64 attrs,
				  __u32 how)
{
	struct dma_range r;

	if (skip_dev(dev))
		return 0;
	dma_range_init(&r, dev);
	r.api = HOW_API(how);
	r.addr = addr;
	r.size = size;
	r.dir = HOW_DIR(how);
	r.attrs = attrs;
	r.unmap = HOW_UNMAP(how);
	return rdma_dma_range(&r);
}

/*
 * The common case of a page event, what a device with restricted DMA
 * does on every map and unmap: the device is recorded with the pool it
 * has now, has no dma-ranges (the DMA address is the physical one) and
 * the range lies inside that pool. Everything the case needs is in the
 * device's devs[] entry, read through one pointer with nothing copied
 * to the stack; every other case takes the general way (dma_general()).
 * Returns the entry and the bounce's inflight_slots index (*entry), or
 * NULL: not this case.
 */
static __always_inline struct rdma_dev_info *bounce_dev(struct device *dev, __u64 addr,
							__u64 size, __u32 *slot, __u32 *entry)
{
	__u64 key = (__u64)dev - (__u64)&self;	/* obj_key(): dev is never NULL here */
	struct rdma_dev_info *d;
	__u64 mem, start, end, base;

	*slot = key_hash(key) & (RDMA_MAX_DEVICES - 1);
	d = &devs[*slot];
	/* One address for the entry, not one per field (each is 4 on arm64). */
	barrier_var(d);
	if (d->key != key || !d->restricted)
		return NULL;
	/*
	 * The pool it was recorded with: compared by key, from the pointer
	 * alone, with no read through it.
	 */
	mem = (__u64)dev->dma_io_tlb_mem - (__u64)&self;
	barrier_var(mem);
	if (mem != d->pool || dev->dma_range_map)
		return NULL;
	start = d->pool_start;
	end = d->pool_end;
	base = d->slot_base;
	if (!base)
		return NULL;
	/* Also rules out DMA_MAPPING_ERROR. */
	if (addr - start >= end - start || size > end - addr)
		return NULL;
	/* The bounce's inflight_slots entry, from the values just checked. */
	*entry = slot_index(base, start, addr);
	return d;
}

/*
 * Past bounce_dev() the lookups cannot fail (the slot's index is inside
 * the pool's entries, the device's inside dev_stats): the checks are for
 * the verifier, and nothing falls back to the general way, which would
 * keep the call's arguments alive across the lookups.
 */
static __always_inline int page_mapped(struct device *dev, __u64 dma_addr, __u64 size,
				       __u32 dir, __u64 attrs)
{
	struct rdma_counters *dc;
	struct rdma_dev_info *d;
	struct rdma_slot *slot;
	__u32 i, k;

	d = bounce_dev(dev, dma_addr, size, &i, &k);
	if (!d)
		return dma_general(dev, dma_addr, size, attrs, HOW(RDMA_API_MAP_PAGE, dir, 0));
	slot = bpf_map_lookup_elem(&inflight_slots, &k);
	dc = bpf_map_lookup_elem(&dev_stats, &i);
	if (!slot || !dc)
		return 0;
	/* bounce_stamp(), with the device's counters at hand */
	rdma_slot_map(slot, dc->maps & (RDMA_TIME_SAMPLE - 1) ? 0 : bpf_ktime_get_ns());
	count_map(dc, size, dir, true, size_slot(d, size));
	return 0;
}

static __always_inline int page_unmapped(struct device *dev, __u64 addr, __u64 size,
					 __u32 dir, __u64 attrs)
{
	struct rdma_counters *dc;
	struct rdma_dev_info *d;
	struct rdma_slot *slot;
	bool from_device, tracked;
	__u64 ts;
	__u32 i, k;

	d = bounce_dev(dev, addr, size, &i, &k);
	if (!d)
		return dma_general(dev, addr, size, attrs, HOW(RDMA_API_MAP_PAGE, dir, 1));
	slot = bpf_map_lookup_elem(&inflight_slots, &k);
	dc = bpf_map_lookup_elem(&dev_stats, &i);
	if (!slot || !dc)
		return 0;
	from_device = unmap_from_device(dir, attrs);
	/* As rdma_range_unmapped() does for a bounce. */
	tracked = rdma_slot_unmap(slot, &ts);
	if (!tracked)	/* mapped before we attached */
		__sync_fetch_and_add(&self.unmatched, 1);
	count_unmap(dc, size, from_device, tracked, ts ? bpf_ktime_get_ns() - ts : 0, ts != 0);
	return 0;
}

/*
 * Scatterlists, segment by segment, each as a range of its own, over
 * the first RDMA_MAX_SG (the dma: events' own cap):
 * segments past them are counted as unchecked (--check fails on them).
 * dma_unmap_sg passes the list as mapped, DMA addresses included; a
 * segment merged into an earlier one has no DMA length.
 *
 * sg_step() is sg_next(): NULL after the last entry; follows chain links.
 */
static __always_inline struct scatterlist *sg_step(struct scatterlist *sg)
{
	__u64 link = BPF_CORE_READ(sg, page_link);

	if (link & SG_END)
		return NULL;
	sg = (void *)((__u64)sg + bpf_core_type_size(struct scatterlist));
	link = BPF_CORE_READ(sg, page_link);
	if (link & SG_CHAIN)
		sg = (void *)(link & ~(SG_CHAIN | SG_END));
	return sg;
}

/*
 * One segment of a list, through rdma_dma_range(): a bpf_loop() callback,
 * which the verifier checks until its state repeats (a few rounds), where
 * a bounded loop had it walk all RDMA_MAX_SG rounds: 27k instructions to
 * load dma_map_sg on 6.12 then, 7k now.
 */
struct sg_walk_ctx {
	struct dma_range r;
	__u64 sg;		/* the next entry, 0: past the last */
};

static int sg_segment(__u32 i, void *data)
{
	struct sg_walk_ctx *w = data;
	struct scatterlist *sg = (void *)w->sg;
	__u64 addr, len;

	if (!sg)
		return 1;
	addr = BPF_CORE_READ(sg, dma_address);
	if (bpf_core_field_exists(sg->dma_length))
		len = BPF_CORE_READ(sg, dma_length);
	else
		len = BPF_CORE_READ(sg, length);
	w->r.addr = addr;
	w->r.size = len;
	if (!w->r.unmap || len)
		rdma_dma_range(&w->r);
	w->sg = (__u64)sg_step(sg);
	return 0;
}

static __noinline int sg_walk(struct device *dev, struct scatterlist *sg, int count,
			      __u64 attrs, __u32 how)
{
	bool unmap = HOW_UNMAP(how);
	struct rdma_counters *c;
	struct sg_walk_ctx w;
	__u64 rest;

	if (skip_dev(dev) || count <= 0)
		return 0;
	dma_range_init(&w.r, dev);
	w.r.api = RDMA_API_MAP_SG;
	w.r.dir = HOW_DIR(how);
	w.r.attrs = attrs;
	w.r.unmap = unmap;
	/*
	 * The list as a number the verifier does not track: kept as the
	 * pointer it is, each round's sg_step() would add to its offset, and
	 * no round's state would match the one before (one walk per round).
	 */
	bpf_probe_read_kernel(&w.sg, sizeof(w.sg), &sg);
	bpf_loop(count < RDMA_MAX_SG ? count : RDMA_MAX_SG, sg_segment, &w, 0);
	if (unmap || count <= RDMA_MAX_SG)
		return 0;
	rest = count - RDMA_MAX_SG;
	__sync_fetch_and_add(&self.unchecked, rest);
	c = w.r.dev_slot >= 0 ? bpf_map_lookup_elem(&dev_stats, &w.r.dev_slot) : NULL;
	if (c)
		c->unchecked += rest;
	c = pool_counters_at(w.r.pool_slot);
	if (c)
		c->unchecked += rest;
	return 0;
}

/*
 * A coherent allocation: a restricted device's must come from its pool
 * (the series counts those with swiotlb_alloc); others are counted here.
 */
static __always_inline void coherent(struct device *dev, void *virt_addr, __u64 dma_addr,
				     __u64 size, bool alloc)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct rdma_counters *c, *pc;
	struct dma_range r;
	__u64 phys;

	if (skip_dev(dev))
		return;
	if (alloc && virt_addr && pool_restricted(mem)) {
		dma_range_init(&r, dev);
		phys = range_dma_to_phys(&r, dma_addr);
		if (!in_pool(phys, size, r.start, r.end) && !in_dev_coherent(dev, dma_addr, size) &&
		    holds_ram(phys, size)) {
			c = r.dev_slot >= 0 ? bpf_map_lookup_elem(&dev_stats, &r.dev_slot) : NULL;
			pc = pool_counters_at(r.pool_slot);
			r.api = RDMA_API_ALLOC;
			r.addr = dma_addr;
			r.size = size;
			rdma_out_of_pool(&r, c, pc);
		}
		if (pool_failure_events)
			return;
	} else if (pool_restricted(mem) && pool_failure_events) {
		return;
	}
	touch_dev(dev, mem);
	c = dev_counters(dev, mem);
	if (!c)
		return;
	if (!alloc)
		c->frees += 1;
	else if (virt_addr)
		c->allocs += 1;
	else
		c->alloc_failures += 1;
}

/* ---- the dma: trace events (6.12; 6.1 with the series) ---------------- */

SEC("tp_btf/dma_map_page")
int BPF_PROG(dma_map_page, struct device *dev, phys_addr_t phys_addr,
	     dma_addr_t dma_addr, size_t size, enum dma_data_direction dir,
	     unsigned long attrs)
{
	return page_mapped(dev, dma_addr, size, dir, attrs);
}

SEC("tp_btf/dma_unmap_page")
int BPF_PROG(dma_unmap_page, struct device *dev, dma_addr_t addr, size_t size,
	     enum dma_data_direction dir, unsigned long attrs)
{
	return page_unmapped(dev, addr, size, dir, attrs);
}

SEC("tp_btf/dma_map_resource")
int BPF_PROG(dma_map_resource, struct device *dev, phys_addr_t phys_addr,
	     dma_addr_t dma_addr, size_t size, enum dma_data_direction dir,
	     unsigned long attrs)
{
	return dma_general(dev, dma_addr, size, attrs, HOW(RDMA_API_MAP_RESOURCE, dir, 0));
}

SEC("tp_btf/dma_unmap_resource")
int BPF_PROG(dma_unmap_resource, struct device *dev, dma_addr_t addr, size_t size,
	     enum dma_data_direction dir, unsigned long attrs)
{
	return dma_general(dev, addr, size, attrs, HOW(RDMA_API_MAP_RESOURCE, dir, 1));
}

SEC("tp_btf/dma_map_sg")
int BPF_PROG(dma_map_sg, struct device *dev, struct scatterlist *sgl, int nents,
	     int ents, enum dma_data_direction dir, unsigned long attrs)
{
	return sg_walk(dev, sgl, ents, attrs, HOW(RDMA_API_MAP_SG, dir, 0));
}

SEC("tp_btf/dma_unmap_sg")
int BPF_PROG(dma_unmap_sg, struct device *dev, struct scatterlist *sgl, int nents,
	     enum dma_data_direction dir, unsigned long attrs)
{
	return sg_walk(dev, sgl, nents, attrs, HOW(RDMA_API_MAP_SG, dir, 1));
}

/* The arguments 6.1 (the series) and 6.12 share: dir came in between later. */
SEC("tp_btf/dma_alloc")
int BPF_PROG(dma_alloc, struct device *dev, void *virt_addr, dma_addr_t dma_addr,
	     size_t size)
{
	coherent(dev, virt_addr, dma_addr, size, true);
	return 0;
}

SEC("tp_btf/dma_free")
int BPF_PROG(dma_free, struct device *dev, void *virt_addr, dma_addr_t dma_addr,
	     size_t size)
{
	coherent(dev, virt_addr, dma_addr, size, false);
	return 0;
}

/*
 * ---- the exported DMA API (stock 6.1: no dma: events) -----------------
 * Maps on return (the address is the result), unmaps on entry (before
 * swiotlb releases the slots). dma_map_sgtable() does not go through
 * dma_map_sg_attrs() there; dma_unmap_sgtable() does.
 */

SEC("fexit/dma_map_page_attrs")
int BPF_PROG(fx_dma_map_page, struct device *dev, struct page *page, size_t offset,
	     size_t size, enum dma_data_direction dir, unsigned long attrs, dma_addr_t ret)
{
	return page_mapped(dev, ret, size, dir, attrs);
}

SEC("fentry/dma_unmap_page_attrs")
int BPF_PROG(fe_dma_unmap_page, struct device *dev, dma_addr_t addr, size_t size,
	     enum dma_data_direction dir, unsigned long attrs)
{
	return page_unmapped(dev, addr, size, dir, attrs);
}

SEC("fexit/dma_map_resource")
int BPF_PROG(fx_dma_map_resource, struct device *dev, phys_addr_t phys_addr, size_t size,
	     enum dma_data_direction dir, unsigned long attrs, dma_addr_t ret)
{
	return dma_general(dev, ret, size, attrs, HOW(RDMA_API_MAP_RESOURCE, dir, 0));
}

SEC("fentry/dma_unmap_resource")
int BPF_PROG(fe_dma_unmap_resource, struct device *dev, dma_addr_t addr, size_t size,
	     enum dma_data_direction dir, unsigned long attrs)
{
	return dma_general(dev, addr, size, attrs, HOW(RDMA_API_MAP_RESOURCE, dir, 1));
}

SEC("fexit/dma_map_sg_attrs")
int BPF_PROG(fx_dma_map_sg, struct device *dev, struct scatterlist *sg, int nents,
	     enum dma_data_direction dir, unsigned long attrs, unsigned int ret)
{
	return ret ? sg_walk(dev, sg, ret, attrs, HOW(RDMA_API_MAP_SG, dir, 0)) : 0;
}

SEC("fexit/dma_map_sgtable")
int BPF_PROG(fx_dma_map_sgtable, struct device *dev, struct sg_table *sgt,
	     enum dma_data_direction dir, unsigned long attrs, int ret)
{
	if (ret)
		return 0;
	return sg_walk(dev, BPF_CORE_READ(sgt, sgl), BPF_CORE_READ(sgt, nents), attrs,
		       HOW(RDMA_API_MAP_SG, dir, 0));
}

SEC("fentry/dma_unmap_sg_attrs")
int BPF_PROG(fe_dma_unmap_sg, struct device *dev, struct scatterlist *sg, int nents,
	     enum dma_data_direction dir, unsigned long attrs)
{
	return sg_walk(dev, sg, nents, attrs, HOW(RDMA_API_MAP_SG, dir, 1));
}

SEC("fexit/dma_alloc_attrs")
int BPF_PROG(fx_dma_alloc, struct device *dev, size_t size, dma_addr_t *dma_handle,
	     gfp_t flag, unsigned long attrs, void *ret)
{
	dma_addr_t addr = 0;

	if (ret)
		bpf_probe_read_kernel(&addr, sizeof(addr), dma_handle);
	coherent(dev, ret, addr, size, true);
	return 0;
}

SEC("fentry/dma_free_attrs")
int BPF_PROG(fe_dma_free, struct device *dev, size_t size, void *cpu_addr,
	     dma_addr_t dma_handle, unsigned long attrs)
{
	coherent(dev, cpu_addr, dma_handle, size, false);
	return 0;
}
