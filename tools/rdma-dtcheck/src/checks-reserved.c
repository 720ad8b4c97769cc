// SPDX-License-Identifier: GPL-2.0
/*
 * checks-reserved.c - /reserved-memory and the pool node itself, as
 * drivers/of/fdt.c and kernel/dma/swiotlb.c read them at boot.
 */
#include <libfdt.h>
#include <stdint.h>

#include "checks.h"
#include "util.h"

/*
 * __reserved_mem_check_root(): #size-cells and #address-cells must equal
 * the root's, and ranges must exist, else every region is ignored.
 */
void check_resmem_root(struct lint *l, const struct check *c, const void *obj)
{
	const struct model *m = obj;
	static const char *const names[] = { "#address-cells", "#size-cells" };
	const int want[] = { m->root_ac, m->root_sc };
	int i, len;

	if (m->resmem < 0)
		return;
	for (i = 0; i < 2; i++) {
		const fdt32_t *p = fdt_getprop(m->fdt, m->resmem, names[i], &len);

		/*
		 * An overlay alone cannot know what the base tree already
		 * has: only what it sets itself is judged.
		 */
		if (m->overlay && !p)
			continue;
		if (!p || len != 4)
			report(l, c, m, m->resmem, NULL,
			       "%s is missing: the kernel ignores every reserved region, restricted pools included",
			       names[i]);
		else if (m->root_cells_known && (int)fdt32_to_cpu(*p) != want[i])
			report(l, c, m, m->resmem, names[i],
			       "is %u but the root's is %d: the kernel ignores every reserved region, restricted pools included",
			       fdt32_to_cpu(*p), want[i]);
	}
	if (!m->overlay && !fdt_getprop(m->fdt, m->resmem, "ranges", NULL))
		report(l, c, m, m->resmem, NULL,
		       "ranges is missing: the kernel ignores every reserved region, restricted pools included");
}

/* early_init_fdt_scan_reserved_mem() only walks /reserved-memory. */
void check_pool_location(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;

	if (!rm->in_resmem)
		report(l, c, rm, rm->node, NULL,
		       "restricted-dma-pool outside /reserved-memory is never reserved or set up; devices naming it get ordinary DMA");
}

/* rmem_swiotlb_setup() returns -EINVAL for these four properties. */
void check_pool_rejected_prop(struct lint *l, const struct check *c, const void *obj)
{
	static const char *const bad[] = {
		"no-map", "reusable", "linux,cma-default", "linux,dma-default",
	};
	const struct rmem *rm = obj;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (fdt_getprop(l->m->fdt, rm->node, bad[i], NULL))
			report(l, c, rm, rm->node, bad[i],
			       "the kernel rejects a restricted-dma-pool with this property (rmem_swiotlb_setup: -EINVAL); its devices get ordinary DMA");
}

/*
 * __reserved_mem_reserve_reg() skips a node whose reg length is not a
 * multiple of one entry; __reserved_mem_alloc_size() one whose size or
 * alignment length differs from the root cells.
 */
void check_pool_reg_format(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;
	const struct model *m = l->m;

	if (!rm->cells_known)
		return;
	if (rm->reg_bad)
		report(l, c, rm, rm->node, "reg",
		       "length is not a multiple of %d cells (#address-cells + #size-cells): the kernel skips this node",
		       m->root_ac + m->root_sc);
	if (rm->size_bad)
		report(l, c, rm, rm->node,
		       rm->has_size ? "size" : "alignment",
		       "length does not match the root cells: the kernel cannot allocate this pool");
}

/*
 * __fdt_scan_reserved_mem() saves a node only with reg, or with size for
 * a dynamically allocated pool; otherwise __find_rmem() finds nothing.
 */
void check_pool_no_region(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;

	if (!rm->has_reg && !rm->has_size)
		report(l, c, rm, rm->node, NULL,
		       "pool has neither reg nor size: it is never reserved and its devices get ordinary DMA");
	else if (rm->has_reg && rm->cells_known && !rm->nreg)
		report(l, c, rm, rm->node, "reg",
		       "is empty: the pool is never reserved and its devices get ordinary DMA");
}

/* __reserved_mem_reserve_reg(): only the first entry is saved. */
void check_pool_reg_multiple(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;

	if (rm->nreg > 1)
		report(l, c, rm, rm->node, "reg",
		       "has %d entries: all are reserved but only the first (0x%llx, 0x%llx bytes) becomes the pool",
		       rm->nreg, (unsigned long long)rm->base,
		       (unsigned long long)rm->size);
}
