// SPDX-License-Identifier: GPL-2.0
/*
 * checks-pci.c - restricted pools for PCI functions. 6.1 configures DMA
 * for a PCI function with the host bridge node (pci_dma_configure), and
 * of_dma_set_restricted_buffer() reads memory-region from the function's
 * own node, found by pci_set_of_node()/of_pci_find_child_device(), else
 * from the host bridge's node. Nothing in between is read.
 */
#include <libfdt.h>
#include <stdio.h>

#include "checks.h"

void check_pci_unmatched(struct lint *l, const struct check *c, const void *obj)
{
	const struct consumer *cn = obj;

	if (cn->pci.kind == DEV_PCI_UNREAD) {
		report(l, c, cn, cn->node, "memory-region",
		       "no PCI function reads this node: %s", cn->pci.why);
		return;
	}
	if (cn->pci.kind == DEV_PCI_FUNC && node_is_pci_bus(l->m, cn->node))
		report(l, c, cn, cn->node, "memory-region",
		       "on a PCI bridge it applies to the bridge function only; devices behind it use their own memory-region or the host bridge's");
}

static const char *pool_name(const struct consumer *cn)
{
	return cn && cn->pool ? cn->pool->path : NULL;
}

void check_pci_lookup(struct lint *l, const struct check *c, const void *obj)
{
	const struct pci_node *pn = obj;
	const char *own = pool_name(pn->own), *host = pool_name(pn->host);
	char where[32] = "";

	/* Only worth saying when the tree has restricted pools at all. */
	if (!l->m->npools)
		return;
	if (pn->pci.kind == DEV_PCI_HOST) {
		report(l, c, pn, pn->node, NULL,
		       "host bridge: PCI functions without their own memory-region get %s%s",
		       own ? "restricted pool " : "no restricted pool (ordinary DMA)",
		       own ? own : "");
		return;
	}
	snprintf(where, sizeof(where), "function %02x:%02x.%x", pn->pci.busnr,
		 pn->pci.devfn >> 3, pn->pci.devfn & 7);
	if (pn->own && own)
		report(l, c, pn, pn->node, NULL, "%s gets restricted pool %s (its own memory-region)",
		       where, own);
	else if (pn->own)
		report(l, c, pn, pn->node, NULL,
		       "%s has its own memory-region without an available restricted pool, so it gets none%s%s%s",
		       where, host ? " (the host bridge's " : "", host ? host : "",
		       host ? " is not consulted)" : "");
	else if (host)
		report(l, c, pn, pn->node, NULL, "%s gets restricted pool %s (from host bridge)",
		       where, host);
	else
		report(l, c, pn, pn->node, NULL, "%s gets no restricted pool (ordinary DMA)", where);
}
