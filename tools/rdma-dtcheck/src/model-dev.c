// SPDX-License-Identifier: GPL-2.0
/*
 * model-dev.c - the devices of a tree as the kernel configures them for
 * DMA: which nodes are DMA masters (of_platform_populate, PCI), which
 * restricted pool each gets (of_dma_set_restricted_buffer) and whether an
 * IOMMU takes precedence (of_iommu_configure, of_map_id for PCI).
 *
 * Sources: drivers/of/platform.c (of_platform_bus_create and
 * of_default_bus_match_table), drivers/of/device.c (of_dma_configure_id,
 * of_dma_set_restricted_buffer), drivers/of/base.c (of_map_id),
 * drivers/pci/of.c (pci_set_of_node, of_pci_find_child_device).
 */
#include <libfdt.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

/* of_pci_get_devfn(): reads three cells of reg, devfn in bits 15..8. */
static int pci_devfn(const void *fdt, int node, int *busnr)
{
	int len;
	const fdt32_t *reg = fdt_getprop(fdt, node, "reg", &len);

	if (!reg || len < 12)
		return -1;
	if (busnr)
		*busnr = (int)((fdt32_to_cpu(reg[0]) >> 16) & 0xff);
	return (int)((fdt32_to_cpu(reg[0]) >> 8) & 0xff);
}

/*
 * Is @node the first child of @bus (or of a "multifunc-device" child of it)
 * with its devfn? of_pci_find_child_device() stops at the first match.
 */
static bool pci_first_match(const void *fdt, int bus, int node, int devfn)
{
	int c, c2;

	fdt_for_each_subnode(c, fdt, bus) {
		if (pci_devfn(fdt, c, NULL) == devfn)
			return c == node;
		if (node_name_is(fdt, c, "multifunc-device"))
			fdt_for_each_subnode(c2, fdt, c)
				if (pci_devfn(fdt, c2, NULL) == devfn)
					return c2 == node;
	}
	return false;
}

struct pci_info model_classify(const struct model *m, int node)
{
	const void *fdt = m->fdt;
	struct pci_info pi = { DEV_PLATFORM, -1, -1, 0, NULL };
	int parent = node_parent(m, node), bus, up;

	if (!m->has_pci)
		return pi;
	if (node_is_pci_bus(m, node) && !node_is_pci_bus(m, parent)) {
		int gp = parent >= 0 ? node_parent(m, parent) : -1;

		if (!(node_name_is(fdt, parent, "multifunc-device") && node_is_pci_bus(m, gp))) {
			pi.kind = DEV_PCI_HOST;
			pi.host = node;
			return pi;
		}
	}
	/* Find the host bridge above, if any. */
	for (up = parent; up > 0; up = node_parent(m, up))
		if (node_is_pci_bus(m, up))
			pi.host = up;
	if (pi.host < 0)
		return pi;
	while (node_is_pci_bus(m, node_parent(m, pi.host)))
		pi.host = node_parent(m, pi.host);

	pi.kind = DEV_PCI_FUNC;
	pi.devfn = pci_devfn(fdt, node, &pi.busnr);
	bus = parent;
	if (node_name_is(fdt, bus, "multifunc-device"))
		bus = node_parent(m, bus);
	if (!node_is_pci_bus(m, bus)) {
		pi.kind = DEV_PCI_UNREAD;
		pi.why = "its parent is a PCI function, not a bus: no device is created for it";
	} else if (pi.devfn < 0) {
		pi.kind = DEV_PCI_UNREAD;
		pi.why = "its reg gives no device/function (needs 3 address cells)";
	} else if (!pci_first_match(fdt, bus, node, pi.devfn)) {
		pi.kind = DEV_PCI_UNREAD;
		pi.why = "an earlier sibling has the same device/function and is matched first";
	} else if (bus != pi.host && model_classify(m, bus).kind != DEV_PCI_FUNC) {
		pi.kind = DEV_PCI_UNREAD;
		pi.why = "the bridge above it is never matched, so its bus has no node";
	}
	return pi;
}

/*
 * of_map_id(): the IOMMU that @np's iommu-map sends requester ID @rid to,
 * after iommu-map-mask. -1 when nothing translates it (no map, or no
 * entry covers it): the device then has no IOMMU and the pool applies.
 */
static int map_rid(const struct model *m, int np, uint32_t rid)
{
	const fdt32_t *p, *mk;
	uint32_t mask = 0xffffffff, id;
	int len, i;

	p = fdt_getprop(m->fdt, np, "iommu-map", &len);
	if (!p)
		return -1;
	mk = fdt_getprop(m->fdt, np, "iommu-map-mask", &i);
	if (mk && i == 4)
		mask = fdt32_to_cpu(*mk);
	id = rid & mask;
	for (i = 0; i + 4 <= len / 4; i += 4) {
		uint32_t base = fdt32_to_cpu(p[i]), n = fdt32_to_cpu(p[i + 3]);

		if (id >= base && id - base < n) {
			int t = model_by_phandle(m, fdt32_to_cpu(p[i + 1]));

			return t >= 0 ? t : np;
		}
	}
	return -1;
}

/* of_iommu_xlate() gives up on an unavailable IOMMU node. */
static int usable_iommu(const struct model *m, int n)
{
	return n >= 0 && fdt_is_available(m->fdt, n) ? n : -1;
}

static void add_rid(struct consumer *c, int rid, int iommu)
{
	struct rid_iommu *r = array_push(&c->rids, &c->nrid, sizeof(*r));

	r->rid = rid;
	r->iommu = iommu;
}

/*
 * A host bridge's pool serves every function without its own
 * memory-region; ask iommu-map about each such function the tree names,
 * or, when it names none, about the root port (00:00.0) and the first
 * endpoint (01:00.0).
 */
static bool below(const struct model *m, int node, int top)
{
	for (node = node_parent(m, node); node >= 0; node = node_parent(m, node))
		if (node == top)
			return true;
	return false;
}

static void host_rids(const struct model *m, struct consumer *c)
{
	int ni = 0, hi = m->nnodes;

	/* m->nodes is in document order, so offsets ascend: find the host. */
	while (ni < hi) {
		int mid = ni + (hi - ni) / 2;

		if (m->nodes[mid] <= c->node)
			ni = mid + 1;
		else
			hi = mid;
	}
	for (; ni < m->nnodes && below(m, m->nodes[ni], c->node); ni++) {
		int n = m->nodes[ni], bus = 0, devfn;
		struct pci_info pi = model_classify(m, n);

		if (pi.kind != DEV_PCI_FUNC || pi.host != c->node ||
		    fdt_getprop(m->fdt, n, "memory-region", NULL))
			continue;
		devfn = pci_devfn(m->fdt, n, &bus);
		add_rid(c, bus << 8 | devfn,
			usable_iommu(m, map_rid(m, c->node, (uint32_t)(bus << 8 | devfn))));
	}
	if (!c->nrid) {
		add_rid(c, 0x0000, usable_iommu(m, map_rid(m, c->node, 0x0000)));
		add_rid(c, 0x0100, usable_iommu(m, map_rid(m, c->node, 0x0100)));
	}
}

/* The IOMMU that of_iommu_configure() would attach instead of the pool. */
static void find_iommu(const struct model *m, struct consumer *c)
{
	const fdt32_t *p;
	int len, i, n;

	c->iommu = -1;
	c->iommu_prop = "iommus";
	if (c->pci.kind == DEV_PCI_FUNC || c->pci.kind == DEV_PCI_HOST) {
		c->iommu_prop = "iommu-map";
		if (c->pci.kind == DEV_PCI_FUNC)
			add_rid(c, c->pci.busnr << 8 | c->pci.devfn,
				usable_iommu(m, map_rid(m, c->pci.host,
					(uint32_t)(c->pci.busnr << 8 | c->pci.devfn))));
		else
			host_rids(m, c);
		c->iommu_all = true;
		for (i = 0; i < c->nrid; i++) {
			if (c->rids[i].iommu < 0)
				c->iommu_all = false;
			else if (c->iommu < 0)
				c->iommu = c->rids[i].iommu;
		}
		return;
	}
	p = fdt_getprop(m->fdt, c->node, "iommus", &len);
	if (!p || len < 4)
		return;
	n = model_by_phandle(m, fdt32_to_cpu(p[0]));
	c->iommu = n >= 0 ? usable_iommu(m, n) : c->node;
	c->iommu_all = c->iommu >= 0;
}

static void resolve_refs(struct model *m, struct consumer *c, const fdt32_t *p,
			 int len)
{
	char *real = m->nfixups ? model_real_path(m, c->node) : NULL;
	int i;

	c->bad_len = len % 4 != 0;
	c->pool_idx = -1;
	for (i = 0; i < len / 4; i++) {
		struct mref *r = array_push(&c->refs, &c->nref, sizeof(*r));

		r->phandle = fdt32_to_cpu(p[i]);
		r->fixup = real ? model_fixup(m, real, "memory-region", i * 4) : NULL;
		r->target = r->fixup ? -1 : model_by_phandle(m, r->phandle);
		r->rm = model_rmem_at(m, r->target);
		if (r->rm)
			r->rm->refs++;
		/* of_dma_set_restricted_buffer(): first available restricted pool */
		if (c->pool_idx < 0 && r->rm && r->rm->pool && r->rm->available) {
			c->pool_idx = i;
			c->pool = r->rm;
		}
	}
	free(real);
}

/* The first of the node's compatible strings, or "". */
static const char *compat0(const void *fdt, int node)
{
	const char *s = node >= 0 ? fdt_stringlist_get(fdt, node, "compatible", 0, NULL) : NULL;

	return s ? s : "";
}

/* of_default_bus_match_table: buses whose children become devices. */
static bool populated_bus(const void *fdt, int node)
{
	static const char *const bus[] = {
		"simple-bus", "simple-mfd", "isa", "arm,amba-bus",
	};
	const char *s;
	int len;

	if (node == 0)
		return true;
	s = fdt_getprop(fdt, node, "compatible", &len);
	for (unsigned int i = 0; s && len > 0 && i < ARRAY_SIZE(bus); i++)
		if (has_string(s, len, bus[i]))
			return true;
	return false;
}

/* "usb1234,5678" (binding usb-device.yaml): a USB device, not a host. */
static bool usb_device_compat(const char *c)
{
	size_t n;

	if (strncmp(c, "usb", 3))
		return false;
	n = strspn(c + 3, "0123456789abcdefABCDEF");
	return n >= 1 && n <= 4 && c[3 + n] == ',';
}

static bool name_in(const char *name, const char *const *names, int n)
{
	for (int i = 0; name && i < n; i++) {
		size_t l = strlen(names[i]);

		if (!strncmp(name, names[i], l) && (!name[l] || name[l] == '@'))
			return true;
	}
	return false;
}

/*
 * The name of @node's parent. When the parent is an overlay's
 * __overlay__ node, the last component of its target path (NULL when the
 * target is a label we cannot resolve); *in_base says so.
 */
static const char *parent_name(const struct model *m, int node, bool *in_base)
{
	int par = node_parent(m, node), f;
	const char *t;

	*in_base = false;
	if (par < 0)
		return NULL;
	f = model_frag_at(m, par);
	if (!f)
		return fdt_get_name(m->fdt, par, NULL);
	*in_base = true;
	if (!m->frag[f - 1].resolved)
		return NULL;
	t = strrchr(m->frag[f - 1].target, '/');
	return t ? t + 1 : NULL;
}

/*
 * Would of_dma_configure() ever run with this node? Platform and AMBA
 * devices come from of_platform_populate() walking simple-bus & co; SDIO
 * functions, I2C and SPI clients and USB devices are created by their bus
 * code, which never configures DMA from the node: the controller above
 * does the DMA. In an overlay, what cannot be seen is not judged.
 */
static void classify_master(const struct model *m, struct consumer *c)
{
	static const char *const mmc[] = { "mmc", "sdhci", "sdio", "dwmmc" };
	static const char *const i2c[] = { "i2c" };
	static const char *const spi[] = { "spi" };
	const void *fdt = m->fdt;
	int par = node_parent(m, c->node), up, child;
	const char *pname;
	bool in_base;

	c->master = MASTER_YES;
	c->carrier = -1;
	if (c->pci.kind != DEV_PLATFORM || c->node == 0)
		return;
	if (usb_device_compat(compat0(fdt, c->node))) {
		for (up = par; up > 0 && usb_device_compat(compat0(fdt, up));)
			up = node_parent(m, up);
		c->master = MASTER_NO;
		c->master_why = "a USB device: the USB core configures no DMA from its node; the host controller does the DMA";
		c->carrier = up;
		return;
	}
	if (model_frag_at(m, c->node)) {
		/* an __overlay__ node: the node itself is in the base tree */
		c->master = MASTER_UNKNOWN;
		return;
	}
	pname = parent_name(m, c->node, &in_base);
	if (name_in(pname, mmc, ARRAY_SIZE(mmc))) {
		c->master = MASTER_NO;
		c->master_why = "an SDIO/MMC function: the MMC core configures no DMA from its node; the host controller does the DMA";
		c->carrier = par;
		return;
	}
	if (name_in(pname, i2c, 1) || name_in(pname, spi, 1)) {
		c->master = MASTER_NO;
		c->master_why = name_in(pname, i2c, 1) ?
			"an I2C client: the I2C core configures no DMA from its node; the controller does the DMA" :
			"an SPI device: the SPI core configures no DMA from its node; the controller does the DMA";
		c->carrier = par;
		return;
	}
	if (populated_bus(fdt, c->node)) {
		fdt_for_each_subnode(child, fdt, c->node)
			if (fdt_getprop(fdt, child, "compatible", NULL) &&
			    fdt_is_available(fdt, child))
				break;
		if (child >= 0) {
			c->master = MASTER_NO;
			c->master_why = "a bus: the devices below it are configured from their own nodes and never read the bus's memory-region";
			c->carrier = child;
			return;
		}
	}
	if (in_base) {
		/* Below a fragment: only a fragment for / shows the parent. */
		if (!pname || strcmp(m->frag[model_frag_at(m, par) - 1].target, "/")) {
			c->master = MASTER_UNKNOWN;
			return;
		}
	} else {
		for (up = par; up > 0; up = node_parent(m, up))
			if (model_frag_at(m, up) || !populated_bus(fdt, up))
				break;
		if (up > 0) {
			/* A child of a device: only its parent's driver creates it. */
			c->master = MASTER_UNKNOWN;
			return;
		}
	}
	if (!fdt_getprop(fdt, c->node, "compatible", NULL)) {
		c->master = MASTER_NO;
		c->master_why = "no compatible: of_platform_populate() creates no device for it";
	}
}

void model_scan_consumers(struct model *m)
{
	const void *fdt = m->fdt;
	int i;

	for (int ni = 0; ni < m->nnodes; ni++) {
		int node = m->nodes[ni], len;
		const fdt32_t *p;
		struct consumer *c;

		if (!(model_node(m, node)->flags & NODE_MEMREGION))
			continue;
		p = fdt_getprop(fdt, node, "memory-region", &len);
		if (!p)
			continue;
		c = array_push(&m->cons, &m->ncons, sizeof(*c));
		model_node(m, node)->cons = m->ncons;
		c->node = node;
		c->path = model_path(m, node);
		c->available = fdt_is_available(fdt, node);
		c->pci = model_classify(m, node);
		resolve_refs(m, c, p, len);
		find_iommu(m, c);
		classify_master(m, c);
	}
	for (i = 0; i < m->ncons; i++) {
		struct consumer *c = &m->cons[i];

		/* Only a device that exists, is configured and has no IOMMU. */
		c->uses_pool = c->pool && c->available && !c->iommu_all &&
			       c->pci.kind != DEV_PCI_UNREAD && c->master != MASTER_NO;
		if (c->uses_pool)
			c->pool->users++;
	}
}

void model_scan_pci(struct model *m)
{
	if (!m->has_pci)
		return;
	for (int ni = 0; ni < m->nnodes; ni++) {
		int node = m->nodes[ni];
		struct pci_info pi = model_classify(m, node);
		struct pci_node *pn;

		if (pi.kind != DEV_PCI_HOST && pi.kind != DEV_PCI_FUNC)
			continue;
		pn = array_push(&m->pci, &m->npci, sizeof(*pn));
		pn->node = node;
		pn->path = model_path(m, node);
		pn->pci = pi;
		pn->own = model_consumer_at(m, node);
		pn->host = model_consumer_at(m, pi.host);
	}
}
