// SPDX-License-Identifier: GPL-2.0
/*
 * checks-consumer.c - memory-region as drivers/of/device.c
 * of_dma_set_restricted_buffer() and of_dma_configure_id() read it, and
 * how many devices end up on each pool.
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"

void check_region_unresolved(struct lint *l, const struct check *c, const void *obj)
{
	const struct consumer *cn = obj;
	int i;

	if (cn->bad_len)
		report(l, c, cn, cn->node, "memory-region",
		       "length is not a multiple of 4: the trailing bytes are ignored");
	for (i = 0; i < cn->nref; i++)
		if (cn->refs[i].target < 0 && !cn->refs[i].fixup)
			report(l, c, cn, cn->node, "memory-region",
			       "entry %d (phandle 0x%x) resolves to no node: of_parse_phandle() fails and it is skipped",
			       i, cn->refs[i].phandle);
}

void check_pool_disabled_ref(struct lint *l, const struct check *c, const void *obj)
{
	const struct consumer *cn = obj;
	const void *fdt = l->m->fdt;
	int i;

	for (i = 0; i < cn->nref; i++) {
		const struct mref *r = &cn->refs[i];

		if (r->target < 0 ||
		    fdt_node_check_compatible(fdt, r->target, "restricted-dma-pool") ||
		    fdt_is_available(fdt, r->target))
			continue;
		if (cn->pool)
			report(l, c, cn, cn->node, "memory-region",
			       "entry %d names disabled restricted pool %s; the kernel skips it and uses %s instead",
			       i, r->rm ? r->rm->path : "?", cn->pool->path);
		else
			report(l, c, cn, cn->node, "memory-region",
			       "entry %d names disabled restricted pool %s; the kernel skips it and the device gets ordinary DMA",
			       i, r->rm ? r->rm->path : "?");
	}
}

void check_multiple_pools(struct lint *l, const struct check *c, const void *obj)
{
	const struct consumer *cn = obj;
	const void *fdt = l->m->fdt;
	int i;

	if (cn->pool_idx < 0)
		return;
	for (i = cn->pool_idx + 1; i < cn->nref; i++) {
		const struct mref *r = &cn->refs[i];

		if (r->target >= 0 &&
		    !fdt_node_check_compatible(fdt, r->target, "restricted-dma-pool") &&
		    fdt_is_available(fdt, r->target))
			report(l, c, cn, cn->node, "memory-region",
			       "entry %d (%s) is ignored: only the first restricted pool (entry %d) is used",
			       i, r->rm ? r->rm->path : "?", cn->pool_idx);
	}
}

/*
 * of_reserved_mem_device_init() (index 0) makes an earlier shared-dma-pool
 * the device's coherent pool: dma_alloc_coherent() then never touches the
 * restricted one.
 */
void check_shared_before_restricted(struct lint *l, const struct check *c, const void *obj)
{
	const struct consumer *cn = obj;
	int i;

	for (i = 0; i < cn->pool_idx; i++) {
		const struct rmem *rm = cn->refs[i].rm;

		if (rm && rm->shared_pool && rm->available)
			report(l, c, cn, cn->node, "memory-region",
			       "shared-dma-pool %s (entry %d) comes before restricted pool %s (entry %d): coherent allocations come from the shared pool and bypass the restricted one",
			       rm->path, i, cn->pool->path, cn->pool_idx);
	}
}

/*
 * of_dma_configure_id(): of_dma_set_restricted_buffer() only if no IOMMU.
 * For PCI the host bridge's iommu-map decides per requester ID.
 */
void check_iommu_and_pool(struct lint *l, const struct check *c, const void *obj)
{
	const struct consumer *cn = obj;
	char *ip, rids[96] = "";
	int i, n = 0, len = 0;

	if (!cn->pool || cn->iommu < 0 || !cn->available)
		return;
	for (i = 0; i < cn->nrid; i++) {
		if (cn->rids[i].iommu < 0)
			continue;
		n++;
		if (len < (int)sizeof(rids) - 16)
			len += snprintf(rids + len, sizeof(rids) - (size_t)len, "%s%02x:%02x.%x",
					len ? ", " : "", cn->rids[i].rid >> 8,
					(cn->rids[i].rid >> 3) & 0x1f, cn->rids[i].rid & 7);
	}
	ip = model_path(l->m, cn->iommu);
	if (!cn->nrid)
		report(l, c, cn, cn->node, "memory-region",
		       "the device is behind IOMMU %s (iommus): IOMMU translation protects it and restricted pool %s is ignored",
		       ip, cn->pool->path);
	else if (cn->iommu_all)
		report(l, c, cn, cn->node, "memory-region",
		       "iommu-map sends every PCI function here (%s) to IOMMU %s: restricted pool %s is ignored for them",
		       rids, ip, cn->pool->path);
	else
		report(l, c, cn, cn->node, "memory-region",
		       "iommu-map sends %d of %d PCI functions (%s) to IOMMU %s: they ignore restricted pool %s, the others bounce through it",
		       n, cn->nrid, rids, ip, cn->pool->path);
	free(ip);
}

/*
 * of_dma_configure() runs for platform/AMBA devices, PCI functions and
 * their host bridges only; a memory-region anywhere else is never read
 * for DMA and the device behind it DMAs wherever its controller does.
 */
void check_not_dma_master(struct lint *l, const struct check *c, const void *obj)
{
	const struct consumer *cn = obj;
	char *carrier;

	if (!cn->pool || !cn->available || cn->master != MASTER_NO)
		return;
	if (cn->carrier < 0) {
		report(l, c, cn, cn->node, "memory-region",
		       "never used: %s; restricted pool %s protects nothing",
		       cn->master_why, cn->pool->path);
		return;
	}
	carrier = model_path(l->m, cn->carrier);
	report(l, c, cn, cn->node, "memory-region",
	       "never used: %s; put it on %s instead",
	       cn->master_why, carrier);
	free(carrier);
}

void check_pool_unreferenced(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;

	if (!rm->refs && rm->available)
		report(l, c, rm, rm->node, NULL,
		       "no memory-region names this restricted pool: its memory is reserved and never used");
}

void check_pool_shared(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;

	if (rm->users > 1)
		report(l, c, rm, rm->node, NULL,
		       "restricted pool used by %d devices: each can read the others' bounce buffers",
		       rm->users);
}
