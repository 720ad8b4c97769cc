// SPDX-License-Identifier: GPL-2.0
/*
 * checks-placement.c - where a static pool sits in the physical address
 * map: inside RAM (early_init_dt_scan_memory), clear of other reservations
 * (__rmem_check_for_overlap, early_init_fdt_scan_reserved_mem's
 * /memreserve/ loop) and reachable by its consumers (of_dma_get_range,
 * dma_capable() in the swiotlb map path).
 */
#include <stdlib.h>

#include "checks.h"

static bool static_pool(const struct rmem *rm)
{
	return rm->cells_known && rm->nreg > 0 && rm->size > 0;
}

static bool overlaps(uint64_t a, uint64_t as, uint64_t b, uint64_t bs)
{
	if (!as || !bs)
		return false;
	return a >= b ? a - b < bs : b - a < as;
}

static bool contains(const struct region *w, uint64_t base, uint64_t size)
{
	return base >= w->base && base - w->base < w->size &&
	       size <= w->size - (base - w->base);
}

void check_pool_outside_memory(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;
	const struct model *m = l->m;
	uint64_t base, left;
	int i;

	if (!m->mem_known)
		return;
	if (!static_pool(rm)) {
		/* __reserved_mem_alloc_size(): "failed to allocate memory for node" */
		if (rm->dyn_tried && !rm->dyn_placed)
			report(l, c, rm, rm->node, rm->nalloc ? "alloc-ranges" : "size",
			       "no room for a dynamic pool of 0x%llx bytes in %s, around the regions reserved before it: the kernel allocates nothing and its devices get ordinary DMA",
			       (unsigned long long)rm->size,
			       rm->nalloc ? "RAM inside its alloc-ranges" : "RAM");
		return;
	}
	/* Walk the sorted /memory ranges, letting adjacent ones join. */
	base = rm->base;
	left = rm->size;
	for (i = 0; i < m->nmem && left; i++) {
		const struct region *r = &m->mem[i];
		uint64_t take;

		if (!(base >= r->base && base - r->base < r->size))
			continue;
		take = r->size - (base - r->base);
		if (take >= left)
			return;
		base += take;
		left -= take;
	}
	report(l, c, rm, rm->node, "reg",
	       "pool 0x%llx-0x%llx is not inside any /memory range: the kernel would reserve memory that is not RAM",
	       (unsigned long long)rm->base,
	       (unsigned long long)(rm->base + rm->size - 1));
}

void check_pool_overlap(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;
	const struct model *m = l->m;
	int i, k;

	if (!static_pool(rm))
		return;
	for (i = 0; i < m->nrsv; i++)
		if (overlaps(rm->base, rm->size, m->rsv[i].base, m->rsv[i].size))
			report(l, c, rm, rm->node, "reg",
			       "pool overlaps /memreserve/ 0x%llx (0x%llx bytes)",
			       (unsigned long long)m->rsv[i].base,
			       (unsigned long long)m->rsv[i].size);
	for (i = 0; i < m->nrmem; i++) {
		const struct rmem *o = &m->rmem[i];

		if (o == rm || !o->in_resmem || !o->available || !o->cells_known)
			continue;
		/* A pair of pools is reported once, on the later one. */
		if (o->pool && static_pool(o) && o > rm)
			continue;
		for (k = 0; k < o->nreg; k++) {
			if (!overlaps(rm->base, rm->size, o->regs[k].base, o->regs[k].size))
				continue;
			report(l, c, rm, rm->node, "reg",
			       "pool overlaps %s %s (0x%llx, 0x%llx bytes): both would use the same memory",
			       o->pool ? "restricted pool" : "reserved region", o->path,
			       (unsigned long long)o->regs[k].base,
			       (unsigned long long)o->regs[k].size);
			break;
		}
	}
}

/* Where the pool is, or (dynamic) where memblock will put it. */
static bool pool_place(const struct model *m, const struct rmem *rm,
		       struct region *r, bool *dynamic)
{
	*dynamic = !static_pool(rm);
	if (!*dynamic) {
		r->base = rm->base;
		r->size = rm->size;
		return true;
	}
	return model_dynamic_place(m, rm, r);
}

void check_dma_unreachable(struct lint *l, const struct check *c, const void *obj)
{
	const struct consumer *cn = obj;
	const struct model *m = l->m;
	const struct rmem *rm = cn->pool;
	struct region *win, at;
	int n, i, owner, bus;
	bool dynamic;
	char *opath;

	if (!rm || cn->pci.kind == DEV_PCI_UNREAD || m->overlay || !cn->available ||
	    !pool_place(m, rm, &at, &dynamic))
		return;
	bus = cn->pci.kind == DEV_PCI_HOST ? cn->node : model_dma_bus(m, cn);
	n = model_dma_windows(m, bus, &win, &owner);
	for (i = 0; i < n; i++)
		if (contains(&win[i], at.base, at.size))
			break;
	if (n && i == n) {
		opath = model_path(m, owner);
		report(l, c, cn, cn->node, "memory-region",
		       "pool %s (%s0x%llx-0x%llx) is outside every dma-ranges window of %s (first: 0x%llx-0x%llx): bounce buffers are not DMA-able and every mapping fails%s",
		       rm->path, dynamic ? "dynamic: memblock places it top-down at " : "",
		       (unsigned long long)at.base,
		       (unsigned long long)(at.base + at.size - 1), opath,
		       (unsigned long long)win[0].base,
		       (unsigned long long)(win[0].base + win[0].size - 1),
		       dynamic ? "; give the pool alloc-ranges inside the window" : "");
		free(opath);
	}
	free(win);
}

/*
 * 32-bit ARM: rmem_swiotlb_device_init() rejects a pool whose base page
 * is highmem ("must be accessible within the linear mapping") and
 * otherwise reaches the pool through phys_to_virt(), so all of it must
 * be in the linear map (lowmem). A
 * dynamic pool without alloc-ranges goes to the top of RAM
 * (MEMBLOCK_ALLOC_ANYWHERE), which is highmem on any board with more
 * than 768 MiB.
 */
void check_pool_highmem(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;
	const struct model *m = l->m;
	uint64_t low;
	struct region at;
	bool dynamic;

	if (m->arch != ARCH_ARM || !m->mem_known || !pool_place(m, rm, &at, &dynamic))
		return;
	low = m->mem[0].base + ARM32_LOWMEM_SIZE;
	if (at.base >= low && dynamic)
		report(l, c, rm, rm->node, "size",
		       "dynamic pool: memblock places it at 0x%llx, in highmem (lowmem ends at 0x%llx with the default 3G/1G split): the kernel rejects it and its devices get ordinary DMA; add alloc-ranges below that limit",
		       (unsigned long long)at.base, (unsigned long long)low);
	else if (at.base >= low)
		report(l, c, rm, rm->node, "reg",
		       "pool at 0x%llx is in highmem (lowmem ends at 0x%llx with the default 3G/1G split): the kernel rejects it and its devices get ordinary DMA",
		       (unsigned long long)at.base, (unsigned long long)low);
	else if (at.base + at.size > low)
		report(l, c, rm, rm->node, dynamic ? "size" : "reg",
		       "pool 0x%llx-0x%llx runs past the end of lowmem (0x%llx): its tail is outside the linear map the bounce buffers are copied through",
		       (unsigned long long)at.base,
		       (unsigned long long)(at.base + at.size - 1),
		       (unsigned long long)low);
}
