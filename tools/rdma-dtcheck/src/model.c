// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - read a flattened tree the way Linux 6.1 does at boot.
 *
 * Sources followed: drivers/of/fdt.c (early_init_dt_scan_root,
 * early_init_dt_scan_memory, __fdt_scan_reserved_mem,
 * __reserved_mem_reserve_reg), drivers/of/of_reserved_mem.c
 * (__reserved_mem_alloc_size), drivers/of/device.c
 * (of_dma_set_restricted_buffer, of_dma_configure_id) and drivers/pci/of.c
 * (pci_set_of_node, of_pci_find_child_device).
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

#define ROOT_CELLS_DEFAULT 1	/* OF_ROOT_NODE_{ADDR,SIZE}_CELLS_DEFAULT, arm64 */
#define MAX_DEPTH 64

enum {
	NODE_MEMORY = 1,	/* device_type = "memory" */
	NODE_POOL = 2,		/* compatible has "restricted-dma-pool" */
	NODE_MEMREGION = 4,	/* has memory-region */
	NODE_PCI = 8,		/* device_type = "pci"/"pciex" */
	NODE_META = 16,		/* in __symbols__, __fixups__, __local_fixups__ */
	NODE_OVERLAY = 32,	/* /<fragment>/__overlay__ */
};

static bool has_string(const char *list, int len, const char *s)
{
	int i = 0;

	while (i < len) {
		if (!strcmp(list + i, s))
			return true;
		i += (int)strnlen(list + i, (size_t)(len - i)) + 1;
	}
	return false;
}

static uint8_t node_flags(const void *fdt, int node, uint32_t *phandle)
{
	uint8_t f = 0;
	int p;

	fdt_for_each_property_offset(p, fdt, node) {
		const char *name, *v;
		int len;

		v = fdt_getprop_by_offset(fdt, p, &name, &len);
		if (!v || !name)
			continue;
		if (!strcmp(name, "device_type") && len > 0 && !v[len - 1]) {
			if (!strcmp(v, "memory"))
				f |= NODE_MEMORY;
			else if (!strcmp(v, "pci") || !strcmp(v, "pciex"))
				f |= NODE_PCI;
		} else if (!strcmp(name, "compatible") && len > 0 && !v[len - 1]) {
			if (has_string(v, len, "restricted-dma-pool"))
				f |= NODE_POOL;
		} else if (!strcmp(name, "memory-region")) {
			f |= NODE_MEMREGION;
		} else if (!strcmp(name, "phandle") && len == 4) {
			*phandle = fdt32_to_cpu(*(const fdt32_t *)v);
		}
	}
	return f;
}

/*
 * One walk over the tree records each node's parent, phandle and the few
 * properties the scans look for; libfdt's fdt_parent_offset() and
 * fdt_node_offset_by_phandle() rescan the tree on every call.
 */
static void build_index(struct model *m)
{
	int stack[MAX_DEPTH], depth = 0, node = 0, slots, cap = 0;

	slots = (int)(fdt_size_dt_struct(m->fdt) / 4) + 1;
	m->parents = xmalloc((size_t)slots * sizeof(int));
	m->phandles = xcalloc((size_t)slots, sizeof(uint32_t));
	m->flags = xcalloc((size_t)slots, 1);
	m->nparents = slots;
	for (int i = 0; i < slots; i++)
		m->parents[i] = -1;
	while (node >= 0 && depth >= 0) {
		if (depth < MAX_DEPTH && node / 4 < slots) {
			int par = depth ? stack[depth - 1] : -1;
			const char *n = fdt_get_name(m->fdt, node, NULL);

			stack[depth] = node;
			m->parents[node / 4] = par;
			m->flags[node / 4] = node_flags(m->fdt, node, &m->phandles[node / 4]);
			if ((par >= 0 && (m->flags[par / 4] & NODE_META)) ||
			    (depth == 1 && n && (!strcmp(n, "__symbols__") ||
						 !strcmp(n, "__fixups__") ||
						 !strcmp(n, "__local_fixups__"))))
				m->flags[node / 4] |= NODE_META;
			if (depth == 2 && n && !strcmp(n, "__overlay__"))
				m->flags[node / 4] |= NODE_OVERLAY;
			if (!(m->flags[node / 4] & NODE_META)) {
				if (m->nnodes == cap) {
					cap = cap ? cap * 2 : 256;
					m->nodes = xrealloc(m->nodes, (size_t)cap * sizeof(int));
				}
				m->nodes[m->nnodes++] = node;
				if (m->flags[node / 4] & NODE_PCI)
					m->has_pci = true;
			}
		}
		node = fdt_next_node(m->fdt, node, &depth);
	}
}

static bool node_has(const struct model *m, int node, uint8_t flag)
{
	return node >= 0 && node / 4 < m->nparents && (m->flags[node / 4] & flag);
}

/* fdt_node_offset_by_phandle() over the index. */
static int by_phandle(const struct model *m, uint32_t ph)
{
	int i;

	if (!ph || ph == (uint32_t)-1)
		return -1;
	for (i = 0; i < m->nnodes; i++)
		if (m->phandles[m->nodes[i] / 4] == ph)
			return m->nodes[i];
	return -1;
}

int node_parent(const struct model *m, int node)
{
	if (node < 0 || node / 4 >= m->nparents)
		return -1;
	return m->parents[node / 4];
}

bool fdt_is_available(const void *fdt, int node)
{
	const char *s = fdt_getprop(fdt, node, "status", NULL);

	return !s || !strcmp(s, "okay") || !strcmp(s, "ok");
}

bool node_is_pci_bus(const struct model *m, int node)
{
	return node_has(m, node, NODE_PCI);
}

static int get_u32(const void *fdt, int node, const char *prop, int *val)
{
	int len;
	const fdt32_t *p = fdt_getprop(fdt, node, prop, &len);

	if (!p || len != 4)
		return -1;
	*val = (int)fdt32_to_cpu(*p);
	return 0;
}

char *model_real_path(const struct model *m, int node)
{
	char buf[4096];

	if (fdt_get_path(m->fdt, node, buf, sizeof(buf)))
		return xstrdup("?");
	return xstrdup(buf);
}

char *model_path(const struct model *m, int node)
{
	char *real = model_real_path(m, node);
	int i;

	for (i = 0; i < m->nfrag; i++) {
		const char *tgt = m->frag[i].target;
		char pre[4096], *t;
		size_t l;

		if (fdt_get_path(m->fdt, m->frag[i].overlay, pre, sizeof(pre)))
			continue;
		l = strlen(pre);
		if (strncmp(real, pre, l) || (real[l] && real[l] != '/'))
			continue;
		/* "/" + "/child" must not become "//child" */
		if (real[l])
			t = xasprintf("%s%s", strcmp(tgt, "/") ? tgt : "", real + l);
		else
			t = xstrdup(tgt);
		free(real);
		return t;
	}
	return real;
}

/* Label of an overlay fixup at @path:@prop:@off, or NULL. */
static const char *fixup_label(const void *fdt, const char *path,
			       const char *prop, int off)
{
	int fx = fdt_path_offset(fdt, "/__fixups__"), p;
	char want[4200];

	if (fx < 0)
		return NULL;
	snprintf(want, sizeof(want), "%s:%s:%d", path, prop, off);
	fdt_for_each_property_offset(p, fdt, fx) {
		const char *name, *v;
		int len, i = 0;

		v = fdt_getprop_by_offset(fdt, p, &name, &len);
		while (v && i < len) {
			if (!strcmp(v + i, want))
				return name;
			i += (int)strnlen(v + i, (size_t)(len - i)) + 1;
		}
	}
	return NULL;
}

static void scan_fragments(struct model *m)
{
	const void *fdt = m->fdt;
	int ni;

	for (ni = 0; ni < m->nnodes; ni++) {
		int ov = m->nodes[ni], frag = node_parent(m, ov);
		struct fragment *f;
		const char *tp;
		char *fpath;

		if (!node_has(m, ov, NODE_OVERLAY))
			continue;
		m->overlay = true;
		f = array_push(&m->frag, &m->nfrag, sizeof(*f));
		f->overlay = ov;
		tp = fdt_getprop(fdt, frag, "target-path", NULL);
		if (tp) {
			f->target = xstrdup(tp);
			continue;
		}
		fpath = model_real_path(m, frag);
		tp = fixup_label(fdt, fpath, "target", 0);
		free(fpath);
		if (tp) {
			f->target = xasprintf("&%s", tp);
		} else {
			const fdt32_t *t = fdt_getprop(fdt, frag, "target", NULL);
			int n = t ? by_phandle(m, fdt32_to_cpu(*t)) : -1;

			f->target = n >= 0 ? model_real_path(m, n) : xstrdup("?");
		}
	}
}

/*
 * The /reserved-memory node: in an overlay, the __overlay__ of a fragment
 * aimed at it, or a reserved-memory child of one aimed at /.
 */
static int find_resmem(struct model *m)
{
	int i, n;

	if (!m->overlay)
		return fdt_path_offset(m->fdt, "/reserved-memory");
	for (i = 0; i < m->nfrag; i++) {
		if (!strcmp(m->frag[i].target, "/reserved-memory"))
			return m->frag[i].overlay;
		if (strcmp(m->frag[i].target, "/"))
			continue;
		n = fdt_subnode_offset(m->fdt, m->frag[i].overlay, "reserved-memory");
		if (n >= 0)
			return n;
	}
	return -1;
}

static void scan_root(struct model *m)
{
	int i;

	m->root_ac = m->root_sc = ROOT_CELLS_DEFAULT;
	m->root_cells_known = !m->overlay;
	if (!m->overlay) {
		get_u32(m->fdt, 0, "#address-cells", &m->root_ac);
		get_u32(m->fdt, 0, "#size-cells", &m->root_sc);
		return;
	}
	/* An overlay knows the root cells only if a fragment for / sets them. */
	for (i = 0; i < m->nfrag; i++) {
		int ac, sc;

		if (strcmp(m->frag[i].target, "/"))
			continue;
		if (!get_u32(m->fdt, m->frag[i].overlay, "#address-cells", &ac) &&
		    !get_u32(m->fdt, m->frag[i].overlay, "#size-cells", &sc)) {
			m->root_ac = ac;
			m->root_sc = sc;
			m->root_cells_known = true;
		}
	}
}

static bool cells_ok(int c)
{
	return c >= 1 && c <= 2;
}

static int cmp_region(const void *a, const void *b)
{
	const struct region *x = a, *y = b;

	return x->base < y->base ? -1 : x->base > y->base;
}

static void scan_memory(struct model *m)
{
	const void *fdt = m->fdt;
	int node, t;

	if (!m->root_cells_known || !cells_ok(m->root_ac) || !cells_ok(m->root_sc))
		return;
	t = (m->root_ac + m->root_sc) * 4;
	for (int ni = 0; ni < m->nnodes; ni++) {
		const uint8_t *reg;
		char *p;
		int len, i;
		bool top;

		node = m->nodes[ni];
		if (!node_has(m, node, NODE_MEMORY) || !fdt_is_available(fdt, node))
			continue;
		p = model_path(m, node);
		top = p[0] == '/' && !strchr(p + 1, '/');
		free(p);
		if (!top)
			continue;
		reg = fdt_getprop(fdt, node, "linux,usable-memory", &len);
		if (!reg || len <= 0)
			reg = fdt_getprop(fdt, node, "reg", &len);
		for (i = 0; reg && i + t <= len; i += t) {
			struct region r = {
				cells_read(reg + i, m->root_ac),
				cells_read(reg + i + m->root_ac * 4, m->root_sc),
			};

			if (!r.size)
				continue;
			*(struct region *)array_push(&m->mem, &m->nmem,
						     sizeof(r)) = r;
		}
	}
	m->mem_known = m->nmem > 0;
	if (m->nmem > 1)
		qsort(m->mem, (size_t)m->nmem, sizeof(*m->mem), cmp_region);
}

static void scan_memreserve(struct model *m)
{
	int i, n = fdt_num_mem_rsv(m->fdt);

	for (i = 0; i < n; i++) {
		struct region r;

		if (fdt_get_mem_rsv(m->fdt, i, &r.base, &r.size) || !r.size)
			continue;
		*(struct region *)array_push(&m->rsv, &m->nrsv, sizeof(r)) = r;
	}
}

static void parse_rmem(struct model *m, struct rmem *rm, int ac, int sc)
{
	const void *fdt = m->fdt;
	const uint8_t *p;
	int len, t, i;

	rm->cells_known = cells_ok(ac) && cells_ok(sc);
	rm->has_reg = fdt_getprop(fdt, rm->node, "reg", NULL) != NULL;
	rm->has_size = fdt_getprop(fdt, rm->node, "size", NULL) != NULL;
	if (!rm->cells_known)
		return;
	t = (ac + sc) * 4;
	p = fdt_getprop(fdt, rm->node, "reg", &len);
	rm->has_reg = p != NULL;
	if (p && rm->cells_known) {
		rm->reg_bad = len % t != 0;
		for (i = 0; i + t <= len; i += t) {
			struct region r = { cells_read(p + i, ac),
					    cells_read(p + i + ac * 4, sc) };

			*(struct region *)array_push(&rm->regs, &rm->nreg,
						     sizeof(r)) = r;
		}
		if (rm->nreg) {
			rm->base = rm->regs[0].base;
			rm->size = rm->regs[0].size;
		}
	}
	p = fdt_getprop(fdt, rm->node, "size", &len);
	rm->has_size = p != NULL;
	if (p && rm->cells_known) {
		if (len != sc * 4)
			rm->size_bad = true;
		else if (!rm->has_reg)
			rm->size = cells_read(p, sc);
	}
	p = fdt_getprop(fdt, rm->node, "alignment", &len);
	if (p && rm->cells_known) {
		if (len != ac * 4)
			rm->size_bad = true;
		else
			rm->align = cells_read(p, ac);
	}
}

static void add_rmem(struct model *m, int node, bool in_resmem, int ac, int sc)
{
	struct rmem *rm = array_push(&m->rmem, &m->nrmem, sizeof(*rm));

	rm->node = node;
	rm->path = model_path(m, node);
	rm->available = fdt_is_available(m->fdt, node);
	rm->pool = !fdt_node_check_compatible(m->fdt, node, "restricted-dma-pool");
	rm->shared_pool = !fdt_node_check_compatible(m->fdt, node, "shared-dma-pool");
	rm->in_resmem = in_resmem;
	rm->phandle = fdt_get_phandle(m->fdt, node);
	parse_rmem(m, rm, ac, sc);
	if (rm->pool)
		m->npools++;
}

static void scan_reserved(struct model *m)
{
	const void *fdt = m->fdt;
	int node, child, ac = m->root_ac, sc = m->root_sc;

	m->resmem = find_resmem(m);
	if (m->resmem >= 0) {
		/* An overlay carries the cells on its own reserved-memory node. */
		if (!m->root_cells_known &&
		    (get_u32(fdt, m->resmem, "#address-cells", &ac) ||
		     get_u32(fdt, m->resmem, "#size-cells", &sc)))
			ac = sc = 0;
		fdt_for_each_subnode(child, fdt, m->resmem)
			add_rmem(m, child, true, ac, sc);
	}
	/* Restricted pools anywhere else are never scanned by the kernel. */
	for (int ni = 0; ni < m->nnodes; ni++) {
		node = m->nodes[ni];
		if (!node_has(m, node, NODE_POOL))
			continue;
		if (m->resmem >= 0 && node_parent(m, node) == m->resmem)
			continue;
		add_rmem(m, node, false, 0, 0);
	}
}

struct rmem *model_rmem_at(const struct model *m, int node)
{
	int i;

	for (i = 0; i < m->nrmem; i++)
		if (m->rmem[i].node == node)
			return &m->rmem[i];
	return NULL;
}

/* of_pci_get_devfn(): reads three cells of reg, devfn in bits 15..8. */
static int pci_devfn(const void *fdt, int node)
{
	int len;
	const fdt32_t *reg = fdt_getprop(fdt, node, "reg", &len);

	if (!reg || len < 12)
		return -1;
	return (int)((fdt32_to_cpu(reg[0]) >> 8) & 0xff);
}

static bool name_is(const void *fdt, int node, const char *name)
{
	const char *n = fdt_get_name(fdt, node, NULL);
	size_t l = strlen(name);

	return n && !strncmp(n, name, l) && (!n[l] || n[l] == '@');
}

/*
 * Is @node the first child of @bus (or of a "multifunc-device" child of it)
 * with its devfn? of_pci_find_child_device() stops at the first match.
 */
static bool pci_first_match(const void *fdt, int bus, int node, int devfn)
{
	int c, c2;

	fdt_for_each_subnode(c, fdt, bus) {
		if (pci_devfn(fdt, c) == devfn)
			return c == node;
		if (name_is(fdt, c, "multifunc-device"))
			fdt_for_each_subnode(c2, fdt, c)
				if (pci_devfn(fdt, c2) == devfn)
					return c2 == node;
	}
	return false;
}

static struct pci_info classify(const struct model *m, int node)
{
	const void *fdt = m->fdt;
	struct pci_info pi = { DEV_PLATFORM, -1, -1, 0, NULL };
	int parent = node_parent(m, node), bus, up;

	if (node_is_pci_bus(m, node) && !node_is_pci_bus(m, parent)) {
		int gp = parent >= 0 ? node_parent(m, parent) : -1;

		if (!(name_is(fdt, parent, "multifunc-device") && node_is_pci_bus(m, gp))) {
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
	pi.devfn = pci_devfn(fdt, node);
	if (pi.devfn >= 0)
		pi.busnr = (int)((fdt32_to_cpu(*(const fdt32_t *)fdt_getprop(fdt, node, "reg", NULL)) >> 16) & 0xff);
	bus = parent;
	if (name_is(fdt, bus, "multifunc-device"))
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
	} else if (bus != pi.host && classify(m, bus).kind != DEV_PCI_FUNC) {
		pi.kind = DEV_PCI_UNREAD;
		pi.why = "the bridge above it is never matched, so its bus has no node";
	}
	return pi;
}

/* The IOMMU that of_iommu_configure() would attach, or -1. */
static int find_iommu(const struct model *m, struct consumer *c)
{
	const void *fdt = m->fdt;
	const fdt32_t *p;
	int len, np = c->node, n;

	c->iommu_prop = "iommus";
	if (c->pci.kind == DEV_PCI_FUNC) {
		/* PCI: the host bridge's iommu-map, keyed by requester ID */
		np = c->pci.host;
		c->iommu_prop = "iommu-map";
		p = fdt_getprop(fdt, np, "iommu-map", &len);
		if (!p || len < 8)
			return -1;
		n = by_phandle(m, fdt32_to_cpu(p[1]));
	} else {
		p = fdt_getprop(fdt, np, "iommus", &len);
		if (!p || len < 4)
			return -1;
		n = by_phandle(m, fdt32_to_cpu(p[0]));
	}
	/* of_iommu_xlate() gives up on an unavailable IOMMU node. */
	if (n >= 0 && !fdt_is_available(fdt, n))
		return -1;
	return n >= 0 ? n : np;
}

static void resolve_refs(struct model *m, struct consumer *c, const fdt32_t *p,
			 int len)
{
	char *real = model_real_path(m, c->node);
	int i;

	c->bad_len = len % 4 != 0;
	c->pool_idx = -1;
	for (i = 0; i < len / 4; i++) {
		struct mref *r = array_push(&c->refs, &c->nref, sizeof(*r));

		r->phandle = fdt32_to_cpu(p[i]);
		r->fixup = m->overlay ? fixup_label(m->fdt, real, "memory-region", i * 4) : NULL;
		r->target = r->fixup ? -1 : by_phandle(m, r->phandle);
		if (r->target < 0)
			r->target = -1;
		r->rm = r->target >= 0 ? model_rmem_at(m, r->target) : NULL;
		if (r->rm)
			r->rm->refs++;
		/* of_dma_set_restricted_buffer(): first available restricted pool */
		if (c->pool_idx < 0 && r->target >= 0 &&
		    !fdt_node_check_compatible(m->fdt, r->target, "restricted-dma-pool") &&
		    fdt_is_available(m->fdt, r->target)) {
			c->pool_idx = i;
			c->pool = r->rm;
		}
	}
	free(real);
}

static void scan_consumers(struct model *m)
{
	const void *fdt = m->fdt;
	int node, i;

	for (int ni = 0; ni < m->nnodes; ni++) {
		const fdt32_t *p;
		struct consumer *c;
		int len;

		node = m->nodes[ni];
		if (!node_has(m, node, NODE_MEMREGION))
			continue;
		p = fdt_getprop(fdt, node, "memory-region", &len);
		if (!p)
			continue;
		c = array_push(&m->cons, &m->ncons, sizeof(*c));
		c->node = node;
		c->path = model_path(m, node);
		c->pci = classify(m, node);
		resolve_refs(m, c, p, len);
		c->iommu = find_iommu(m, c);
	}
	for (i = 0; i < m->ncons; i++)
		if (m->cons[i].pool && m->cons[i].pci.kind != DEV_PCI_UNREAD)
			m->cons[i].pool->users++;
}

static struct consumer *consumer_at(const struct model *m, int node)
{
	int i;

	for (i = 0; i < m->ncons; i++)
		if (m->cons[i].node == node)
			return &m->cons[i];
	return NULL;
}

static void scan_pci(struct model *m)
{
	int node;

	if (!m->has_pci)
		return;
	for (int ni = 0; ni < m->nnodes; ni++) {
		struct pci_info pi;
		struct pci_node *pn;

		node = m->nodes[ni];
		pi = classify(m, node);
		if (pi.kind != DEV_PCI_HOST && pi.kind != DEV_PCI_FUNC)
			continue;
		pn = array_push(&m->pci, &m->npci, sizeof(*pn));
		pn->node = node;
		pn->path = model_path(m, node);
		pn->pci = pi;
		pn->own = consumer_at(m, node);
		pn->host = consumer_at(m, pi.host);
	}
}

int model_build(struct model *m, const void *fdt)
{
	memset(m, 0, sizeof(*m));
	m->fdt = fdt;
	m->resmem = -1;
	build_index(m);
	scan_fragments(m);
	scan_root(m);
	scan_memory(m);
	scan_memreserve(m);
	scan_reserved(m);
	scan_consumers(m);
	scan_pci(m);
	return 0;
}

void model_free(struct model *m)
{
	int i;

	for (i = 0; i < m->nrmem; i++) {
		free(m->rmem[i].path);
		free(m->rmem[i].regs);
	}
	for (i = 0; i < m->ncons; i++) {
		free(m->cons[i].path);
		free(m->cons[i].refs);
	}
	for (i = 0; i < m->npci; i++)
		free(m->pci[i].path);
	for (i = 0; i < m->nfrag; i++)
		free(m->frag[i].target);
	free(m->rmem);
	free(m->cons);
	free(m->pci);
	free(m->frag);
	free(m->mem);
	free(m->rsv);
	free(m->parents);
	free(m->phandles);
	free(m->flags);
	free(m->nodes);
	memset(m, 0, sizeof(*m));
}
