// SPDX-License-Identifier: GPL-2.0
/*
 * dma-ranges.c - which CPU addresses a device can reach by DMA.
 *
 * Follows drivers/of/device.c of_dma_configure_id() for the bus node,
 * drivers/of/address.c of_dma_get_range() for the nearest non-empty
 * dma-ranges and of_translate_dma_address() for carrying each window up
 * to CPU addresses.
 */
#include <libfdt.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

#define ROOT_CELLS_DEFAULT 1

/* of_bus_n_addr_cells()/of_bus_n_size_cells(): own value, else inherited. */
static int bus_cells(const struct model *m, int node, const char *name)
{
	for (; node >= 0; node = node_parent(m, node)) {
		int len;
		const fdt32_t *p = fdt_getprop(m->fdt, node, name, &len);

		if (p && len == 4)
			return (int)fdt32_to_cpu(*p);
	}
	return ROOT_CELLS_DEFAULT;
}

int model_dma_bus(const struct model *m, const struct consumer *c)
{
	/* PCI functions are configured with the host bridge node as np. */
	if (c->pci.kind == DEV_PCI_FUNC)
		return c->pci.host;
	return node_parent(m, c->node);
}

/*
 * Translate @addr (in the address space of @node's children) up to CPU
 * addresses through every dma-ranges above. Empty or missing dma-ranges
 * translate 1:1. Returns false when no window covers it.
 */
static bool translate_up(const struct model *m, int node, uint64_t *addr)
{
	for (; node > 0; node = node_parent(m, node)) {
		const uint8_t *p;
		int len, na, pna, ns, t, i;
		bool hit = false;

		p = fdt_getprop(m->fdt, node, "dma-ranges", &len);
		if (!p || len <= 0)
			continue;
		na = bus_cells(m, node, "#address-cells");
		ns = bus_cells(m, node, "#size-cells");
		pna = bus_cells(m, node_parent(m, node), "#address-cells");
		if (na < 1 || na > 3 || pna < 1 || pna > 3 || ns < 1 || ns > 2)
			return false;
		t = (na + pna + ns) * 4;
		for (i = 0; i + t <= len; i += t) {
			uint64_t child = cells_read(p + i, na);
			uint64_t par = cells_read(p + i + na * 4, pna);
			uint64_t size = cells_read(p + i + (na + pna) * 4, ns);

			if (*addr >= child && *addr - child < size) {
				*addr = par + (*addr - child);
				hit = true;
				break;
			}
		}
		if (!hit)
			return false;
	}
	return true;
}

int model_dma_windows(const struct model *m, int bus, struct region **win,
		      int *owner)
{
	const uint8_t *p = NULL;
	bool found = false;
	int node, len = 0, na, pna, ns, t, i, n = 0;

	*win = NULL;
	*owner = -1;
	/* of_dma_get_range(): nearest non-empty dma-ranges */
	for (node = bus; node >= 0; node = node_parent(m, node)) {
		p = fdt_getprop(m->fdt, node, "dma-ranges", &len);
		if (p && len > 0)
			break;
		if (found && !p)
			return 0;	/* -ENODEV: no limits from the tree */
		found = true;
	}
	if (node < 0 || !p)
		return 0;
	*owner = node;
	na = bus_cells(m, node, "#address-cells");
	ns = bus_cells(m, node, "#size-cells");
	pna = bus_cells(m, node_parent(m, node), "#address-cells");
	if (na < 1 || na > 3 || pna < 1 || pna > 3 || ns < 1 || ns > 2)
		return 0;
	t = (na + pna + ns) * 4;
	for (i = 0; i + t <= len; i += t) {
		struct region r;
		uint64_t cpu = cells_read(p + i + na * 4, pna);

		r.size = cells_read(p + i + (na + pna) * 4, ns);
		if (!translate_up(m, node_parent(m, node), &cpu))
			continue;	/* OF_BAD_ADDR: the kernel skips it */
		r.base = cpu;
		*(struct region *)array_push(win, &n, sizeof(r)) = r;
	}
	return n;
}
