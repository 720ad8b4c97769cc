// SPDX-License-Identifier: GPL-2.0
/*
 * check-table.c - every check rdma-dtcheck knows, in the order they run.
 * Documentation/rdma-dtcheck.md explains each one (why, kernel source,
 * fix) under the same name.
 */
#include "checks.h"
#include "util.h"

#define CHECK(n, s, sc, fn_, sum, ...) \
	{ .name = n, .sev = s, .scope = sc, .summary = sum, .fn = fn_, \
	  .prereq = { __VA_ARGS__ } }

const struct check check_table[] = {
	/* /reserved-memory and where pools live */
	CHECK("reserved-memory-root", SEV_ERROR, SCOPE_TREE, check_resmem_root,
	      "/reserved-memory cells or ranges differ from what the kernel requires", NULL),
	CHECK("pool-location", SEV_ERROR, SCOPE_POOL, check_pool_location,
	      "restricted-dma-pool outside /reserved-memory is never set up", NULL),
	CHECK("pool-rejected-prop", SEV_ERROR, SCOPE_POOL, check_pool_rejected_prop,
	      "no-map, reusable, linux,cma-default or linux,dma-default make the kernel reject the pool",
	      "pool-location"),
	CHECK("pool-reg-format", SEV_ERROR, SCOPE_POOL, check_pool_reg_format,
	      "reg, size or alignment length does not match the root cells",
	      "pool-location", "reserved-memory-root"),
	CHECK("pool-no-region", SEV_ERROR, SCOPE_POOL, check_pool_no_region,
	      "pool has neither reg nor size", "pool-location", "pool-reg-format"),
	CHECK("pool-reg-multiple", SEV_WARNING, SCOPE_POOL, check_pool_reg_multiple,
	      "reg has several entries; only the first becomes the pool",
	      "pool-reg-format"),
	/* size and alignment, as swiotlb slices the pool */
	CHECK("pool-too-small", SEV_ERROR, SCOPE_POOL, check_pool_too_small,
	      "pool smaller than one 2 KiB slot: every mapping fails",
	      "pool-no-region", "pool-reg-format"),
	CHECK("pool-below-max-mapping", SEV_WARNING, SCOPE_POOL, check_pool_below_max_mapping,
	      "pool smaller than the largest single mapping (256 KiB)", "pool-too-small"),
	CHECK("pool-size-granule", SEV_WARNING, SCOPE_POOL, check_pool_size_granule,
	      "pool size not a multiple of the 2 KiB slot: the tail is lost", "pool-too-small"),
	CHECK("pool-size-segment", SEV_WARNING, SCOPE_POOL, check_pool_size_segment,
	      "6.1 only: pool size not a multiple of 256 KiB: a partial segment",
	      "pool-too-small", "pool-size-granule", "pool-below-max-mapping"),
	CHECK("pool-alignment", SEV_WARNING, SCOPE_POOL, check_pool_alignment,
	      "pool base or size not page-aligned", "pool-no-region", "pool-reg-format"),
	/* placement in the physical address map */
	CHECK("pool-outside-memory", SEV_ERROR, SCOPE_POOL, check_pool_outside_memory,
	      "pool not inside a /memory range", "pool-too-small", "reserved-memory-root"),
	CHECK("pool-overlap", SEV_ERROR, SCOPE_POOL, check_pool_overlap,
	      "pool overlaps a reserved region, a /memreserve/ entry or another pool",
	      "pool-too-small", "reserved-memory-root"),
	CHECK("pool-highmem", SEV_ERROR, SCOPE_POOL, check_pool_highmem,
	      "32-bit ARM: pool (or where memblock puts a dynamic one) in highmem or past the linear map",
	      "pool-too-small", "reserved-memory-root"),
	/* consumers and memory-region */
	CHECK("memory-region-unresolved", SEV_ERROR, SCOPE_CONSUMER, check_region_unresolved,
	      "memory-region entry that resolves to no node", NULL),
	CHECK("pool-disabled-referenced", SEV_ERROR, SCOPE_CONSUMER, check_pool_disabled_ref,
	      "memory-region names a disabled restricted pool, which the kernel skips", NULL),
	CHECK("consumer-multiple-pools", SEV_WARNING, SCOPE_CONSUMER, check_multiple_pools,
	      "restricted pool listed after another one: only the first counts", NULL),
	CHECK("shared-pool-before-restricted", SEV_WARNING, SCOPE_CONSUMER,
	      check_shared_before_restricted,
	      "shared-dma-pool before the restricted pool: coherent allocations bypass it", NULL),
	CHECK("memory-region-not-dma-master", SEV_ERROR, SCOPE_CONSUMER, check_not_dma_master,
	      "memory-region on a node the kernel never configures for DMA (SDIO, I2C, SPI, USB child, bus)",
	      NULL),
	CHECK("consumer-iommu", SEV_WARNING, SCOPE_CONSUMER, check_iommu_and_pool,
	      "device has an IOMMU and a restricted pool: the pool is ignored", NULL),
	CHECK("pool-dma-unreachable", SEV_ERROR, SCOPE_CONSUMER, check_dma_unreachable,
	      "pool (or where memblock puts a dynamic one) outside the consumer's dma-ranges windows",
	      "memory-region-unresolved"),
	CHECK("pci-memory-region-unmatched", SEV_WARNING, SCOPE_CONSUMER, check_pci_unmatched,
	      "memory-region under a PCI bus where the 6.1 lookup never reads it", NULL),
	CHECK("pool-unreferenced", SEV_WARNING, SCOPE_POOL, check_pool_unreferenced,
	      "restricted pool no memory-region names: memory wasted", "pool-location"),
	CHECK("pool-shared", SEV_INFO, SCOPE_POOL, check_pool_shared,
	      "restricted pool used by several devices: they see each other's bounce buffers",
	      "pool-location"),
	CHECK("pci-pool-lookup", SEV_INFO, SCOPE_PCI, check_pci_lookup,
	      "which restricted pool 6.1 gives the PCI functions at each node", NULL),
	/* --usage: sizes against the field; last, so a re-lint sees every finding */
	CHECK("pool-usage-failed", SEV_ERROR, SCOPE_POOL, check_usage_failed,
	      "--usage: mappings through the pool failed on the device; a size that serves them",
	      "pool-too-small"),
	CHECK("pool-usage-headroom", SEV_WARNING, SCOPE_POOL, check_usage_headroom,
	      "--usage: peak use on the device leaves too little free; a size with headroom",
	      "pool-too-small"),
	CHECK("pool-usage-oversized", SEV_INFO, SCOPE_POOL, check_usage_oversized,
	      "--usage: the pool is over four times what the device used; a smaller size",
	      "pool-too-small"),
};

const int check_count = ARRAY_SIZE(check_table);

/* prerequisites and failures are one bit per check in a uint64_t */
_Static_assert(ARRAY_SIZE(check_table) <= 64, "at most 64 checks");
