/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_trace: the one definition of everything the BPF program
 * (rdma_trace.bpf.c) shares with userspace (tools/rdmatop).
 *
 * Pools and devices live in small tables indexed by slot: the program's
 * .bss array pool_keys[] gives the pool (struct io_tlb_mem) of each slot,
 * 0 for a free one, and the array map pool_info describes it; the .bss
 * array devs[] describes the device of each slot (struct rdma_dev_info).
 * The per-CPU array maps pool_stats/dev_stats count for them. A slot, once taken, is never reused,
 * so its counters only ever grow, except the in-flight gauges, which are
 * deltas whose sum over all CPUs is the current value.
 */
#ifndef RDMA_TRACE_H
#define RDMA_TRACE_H

#define RDMA_NAME_LEN		48	/* device and pool names, NUL included */
#define RDMA_API_LEN		20	/* "dma_map_resource" and the like */
#define RDMA_HIST_SLOTS		40	/* log2 buckets: slot i holds (2^(i-1), 2^i],
					 * slot 0 [0, 1]: Prometheus' le */
#define RDMA_MAX_DEVICES	512	/* slots in the device table: a power of 2 */
#define RDMA_MAX_POOLS		64	/* slots in the pool table: a power of 2 */
#define RDMA_MAX_INFLIGHT	65536	/* mappings tracked by address (no pool) */
#define RDMA_MAX_SLOTS		(1 << 17)	/* pool slots tracked in place: 256 MiB */
#define RDMA_MAX_SG		128	/* scatterlist segments walked per call (the
					 * dma: events' DMA_TRACE_MAX_ENTRIES) */
#define RDMA_TIME_SAMPLE	8	/* one bounce in 8 is timed (a power of 2) */
#define RDMA_MAX_RAM		32	/* RAM ranges the own check knows */
#define RDMA_RINGBUF_SIZE	(256 * 1024)

/*
 * A range of the board's RAM, [start, end), from /proc/iomem: what the
 * own check tells RAM from another device's registers by.
 */
struct rdma_ram {
	__u64 start;
	__u64 end;
};

/* DMA directions, as enum dma_data_direction. */
enum rdma_dir {
	RDMA_DIR_BIDI = 0,
	RDMA_DIR_TO_DEVICE = 1,
	RDMA_DIR_FROM_DEVICE = 2,
	RDMA_DIR_NONE = 3,
};

/**
 * struct rdma_counters - per-pool or per-device counters
 * @maps: mappings (bounces through the pool for a restricted device,
 *	DMA API mappings for a device without one)
 * @unmaps: their ends
 * @map_bytes: bytes mapped
 * @bytes_to_device: bytes bounced towards the device at map time
 * @bytes_from_device: bytes bounced back at unmap time
 * @inflight: mappings not yet unmapped (a delta: sum over CPUs)
 * @inflight_bytes: their bytes (a delta: sum over CPUs)
 * @map_failures: mappings the pool could not serve
 * @alloc_failures: coherent allocations the pool could not serve
 * @allocs: coherent allocations served by the pool
 * @frees: their frees
 * @oop_kernel: out-of-pool ranges the kernel's own audit reported
 * @oop_check: out-of-pool ranges found by this program's own check
 * @refused: out-of-pool ranges refused by a strict pool
 * @unchecked: scatterlist segments past the RDMA_MAX_SG the program walks:
 *	neither counted as mappings nor checked against the pool
 * @time_ns: total time in flight of the timed mappings, in ns
 * @size_hist: log2 histogram of mapping sizes in bytes
 * @time_hist: log2 histogram of the time from map to unmap in ns, of the
 *	timed mappings: every mapping tracked by address, one bounce in
 *	RDMA_TIME_SAMPLE (per device and CPU) through a pool
 */
struct rdma_counters {
	__u64 maps;
	__u64 unmaps;
	__u64 map_bytes;
	__u64 bytes_to_device;
	__u64 bytes_from_device;
	__s64 inflight;
	__s64 inflight_bytes;
	__u64 map_failures;
	__u64 alloc_failures;
	__u64 allocs;
	__u64 frees;
	__u64 oop_kernel;
	__u64 oop_check;
	__u64 refused;
	__u64 unchecked;
	__u64 time_ns;
	__u64 size_hist[RDMA_HIST_SLOTS];
	__u64 time_hist[RDMA_HIST_SLOTS];
};

/**
 * struct rdma_pool_info - one swiotlb pool, keyed by its struct io_tlb_mem
 * @start: first physical address
 * @end: one past the last
 * @nslabs: slots of 2 KiB
 * @restricted: a restricted-dma-pool (io_tlb_mem.for_alloc)
 * @name: reserved-memory node name; empty when the kernel does not name
 *	pools (without the series)
 */
struct rdma_pool_info {
	__u64 start;
	__u64 end;
	__u64 nslabs;
	__u32 restricted;
	__u32 pad;
	char name[RDMA_NAME_LEN];
};

/**
 * struct rdma_dev_info - one device: an entry of the program's devs[]
 * @key: the device's key (see obj_key()); 0: a free entry
 * @pool: the key of its pool in pool_keys[], as last seen (0: none)
 * @home_pool: the key of the last restricted pool it had (0: none). A
 *	restricted pool's mappings are counted on its devices only, not on
 *	the pool: userspace adds up the devices whose home is the pool.
 * @pool_start: @pool's first physical address (the program's cache)
 * @pool_end: one past its last
 * @slot_base: @pool's first inflight_slots entry + 1; 0: none
 * @restricted: the pool is a restricted one
 * @pool_slot: @pool's slot in pool_keys[], -1: none
 * @size_slot: the program's cache of the histogram slot of the size its
 *	last bounce had: size << 5 | slot, one word so that a reader on
 *	another CPU never pairs a size with another's slot; 0: none yet
 * @name: dev_name(); empty until recorded
 */
struct rdma_dev_info {
	__u64 key;
	__u64 pool;
	__u64 home_pool;
	__u64 pool_start;
	__u64 pool_end;
	__u64 slot_base;
	__u32 restricted;
	__s32 pool_slot;
	__u64 size_slot;
	char name[RDMA_NAME_LEN];
};

/*
 * A mapping in flight. One that bounces through a pool is kept in place,
 * at its first pool slot (map inflight_slots, bpf/rdma_slot.h); the others
 * by address (map inflight).
 */
struct rdma_slot {
	__s64 held;	/* map events minus their unmap events */
	__u64 ts;	/* bpf_ktime_get_ns() of a timed map held alone; 0: none */
};	/* the size is the unmap's: the DMA API unmaps what it mapped */

struct rdma_inflight_key {
	__u64 dev;
	__u64 addr;	/* pool slot (restricted devices) or DMA address */
};

struct rdma_inflight {
	__u64 ts;
	__u64 size;
	__u64 pool;
};

/* Rare events, sent through the ring buffer. */
enum rdma_event_type {
	RDMA_EV_ATTACH = 1,
	RDMA_EV_DETACH,
	RDMA_EV_MAP_FAILED,
	RDMA_EV_ALLOC_FAILED,
	RDMA_EV_OOP_KERNEL,	/* the kernel's audit: swiotlb_out_of_pool */
	RDMA_EV_OOP_CHECK,	/* this program's own check */
};

/**
 * struct rdma_event - a rare event
 * @type: enum rdma_event_type
 * @refused: out-of-pool range refused by a strict pool
 * @ts: bpf_ktime_get_ns()
 * @dev: struct device
 * @pool: struct io_tlb_mem
 * @addr: DMA address (out of pool)
 * @size: bytes asked for
 * @pool_start: pool's first physical address (attach, out of pool)
 * @pool_end: one past its last
 * @used: slots in use (failures)
 * @nslabs: slots in the pool (failures)
 * @dev_name: dev_name()
 * @pool_name: pool name, empty when unknown
 * @api: the DMA API call (out of pool)
 */
struct rdma_event {
	__u32 type;
	__u32 refused;
	__u64 ts;
	__u64 dev;
	__u64 pool;
	__u64 addr;
	__u64 size;
	__u64 pool_start;
	__u64 pool_end;
	__u64 used;
	__u64 nslabs;
	char dev_name[RDMA_NAME_LEN];
	char pool_name[RDMA_NAME_LEN];
	char api[RDMA_API_LEN];
};

/* Global counters of the program itself, in the .bss map. */
struct rdma_self {
	__u64 ringbuf_drops;	/* rare events lost: the ring was full */
	__u64 inflight_full;	/* mappings not tracked: in-flight map full */
	__u64 unmatched;	/* unmaps of mappings made before attach */
	__u64 untracked;	/* events of pools or devices past the tables */
	__u64 slots_next;	/* inflight_slots entries handed to pools */
	__u64 oop_untracked;	/* out-of-pool ranges of devices past the tables */
	__u64 unchecked;	/* scatterlist segments past RDMA_MAX_SG */
};

/*
 * Where the mapping counts come from on this kernel: userspace picks one
 * from the kernel's BTF and tells the program (rodata), so that no count
 * has two sources.
 */
enum rdma_source {
	RDMA_SRC_NONE = 0,	/* no DMA API visibility: swiotlb_bounced only */
	RDMA_SRC_TP,		/* the dma: trace events (6.12; 6.1 with the series) */
	RDMA_SRC_FENTRY,	/* fentry/fexit on the DMA API (stock 6.1) */
};

#endif /* RDMA_TRACE_H */
