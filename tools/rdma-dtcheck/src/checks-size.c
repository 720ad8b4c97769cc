// SPDX-License-Identifier: GPL-2.0
/*
 * checks-size.c - pool size and alignment against swiotlb's slot
 * arithmetic (kernel/dma/swiotlb.c, rmem_swiotlb_device_init): nslabs =
 * size >> IO_TLB_SHIFT (2 KiB slots), segments of IO_TLB_SEGSIZE (128)
 * slots, and at most one segment (256 KiB) per mapping.
 */
#include <libfdt.h>

#include "checks.h"
#include "util.h"

/* Size is known: static reg, or a well-formed dynamic size. */
static bool size_known(const struct rmem *rm)
{
	return rm->cells_known && (rm->nreg || (rm->has_size && !rm->size_bad));
}

void check_pool_too_small(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;

	if (size_known(rm) && rm->size < SZ_2K)
		report(l, c, rm, rm->node, rm->nreg ? "reg" : "size",
		       "pool of %llu bytes holds no 2 KiB slot: every mapping through it fails",
		       (unsigned long long)rm->size);
}

void check_pool_below_max_mapping(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;

	if (size_known(rm) && rm->size < SZ_256K)
		report(l, c, rm, rm->node, rm->nreg ? "reg" : "size",
		       "pool of 0x%llx bytes is smaller than the largest single mapping (256 KiB, swiotlb_max_mapping_size): large mappings fail",
		       (unsigned long long)rm->size);
}

void check_pool_size_granule(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;

	if (size_known(rm) && rm->size % SZ_2K)
		report(l, c, rm, rm->node, rm->nreg ? "reg" : "size",
		       "size 0x%llx is not a multiple of the 2 KiB slot: the last 0x%llx bytes are never used",
		       (unsigned long long)rm->size,
		       (unsigned long long)(rm->size % SZ_2K));
}

void check_pool_size_segment(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;

	/* 6.12 caps the free counts at the pool's end (swiotlb_init_io_tlb_pool) */
	if (l->m->opts->kernel != KVER_6_1)
		return;
	if (size_known(rm) && rm->size % SZ_256K)
		report(l, c, rm, rm->node, rm->nreg ? "reg" : "size",
		       "size 0x%llx is not a multiple of 256 KiB (128 slots): the last segment is partial, which 6.1's slot free lists do not expect",
		       (unsigned long long)rm->size);
}

/*
 * A static pool should start and end on a page; a dynamic one is placed
 * by memblock with "alignment", or only SMP_CACHE_BYTES without it
 * (early_init_dt_alloc_reserved_memory_arch).
 */
void check_pool_alignment(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;
	uint64_t pg = l->m->opts->page_size;
	unsigned long long kib = (unsigned long long)(pg >> 10);

	if (!rm->cells_known)
		return;
	if (rm->nreg && rm->base % pg)
		report(l, c, rm, rm->node, "reg",
		       "base 0x%llx is not page-aligned (%llu KiB pages)",
		       (unsigned long long)rm->base, kib);
	else if (size_known(rm) && rm->size % pg)
		report(l, c, rm, rm->node, rm->nreg ? "reg" : "size",
		       "size 0x%llx is not a multiple of the page size (%llu KiB)",
		       (unsigned long long)rm->size, kib);
	else if (!rm->nreg && rm->has_size && !rm->size_bad && rm->align < pg)
		report(l, c, rm, rm->node, rm->align ? "alignment" : "size",
		       "dynamic pool without page alignment: the kernel places it on a cache-line boundary only; add alignment = <... 0x%llx> or more",
		       (unsigned long long)pg);
}
