// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - read a flattened tree the way Linux does at boot: the index,
 * overlay fragments, memory, /memreserve/ and /reserved-memory.
 *
 * Sources followed: drivers/of/fdt.c (early_init_dt_scan_root,
 * early_init_dt_scan_memory, __fdt_scan_reserved_mem,
 * __reserved_mem_reserve_reg) and drivers/of/of_reserved_mem.c
 * (__reserved_mem_alloc_size). Consumers and PCI are in model-dev.c.
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"

#define ROOT_CELLS_DEFAULT 1	/* OF_ROOT_NODE_{ADDR,SIZE}_CELLS_DEFAULT */
#define MAX_DEPTH 64		/* FDT_MAX_DEPTH; fdt_verify() refuses deeper */

/* libfdt's fdt_stringlist_contains() never reads past @len. */
bool has_string(const char *list, int len, const char *s)
{
	return len > 0 && fdt_stringlist_contains(list, len, s);
}

const char *prop_string(const void *fdt, int node, const char *name)
{
	/* NULL unless the value is a NUL-terminated string */
	return node >= 0 ? fdt_stringlist_get(fdt, node, name, 0, NULL) : NULL;
}

/* A node being indexed: its flags and phandle gather property by property. */
struct ixnode {
	int node, depth;
	const char *name;
	uint8_t flags;
	uint32_t ph, legacy;	/* "phandle", "linux,phandle" (dtc -H legacy) */
};

/* What one property tells the index about its node. */
static void prop_flags(struct ixnode *n, const char *name, const char *v, uint32_t len)
{
	switch (name[0]) {
	case 'd':
		if (!strcmp(name, "device_type") && len > 0 && !v[len - 1]) {
			if (!strcmp(v, "memory"))
				n->flags |= NODE_MEMORY;
			else if (!strcmp(v, "pci") || !strcmp(v, "pciex"))
				n->flags |= NODE_PCI;
		}
		break;
	case 'c':
		if (!strcmp(name, "compatible") && has_string(v, (int)len, "restricted-dma-pool"))
			n->flags |= NODE_POOL;
		break;
	case 'm':
		if (!strcmp(name, "memory-region"))
			n->flags |= NODE_MEMREGION;
		break;
	case 'p':
		if (len == 4 && !strcmp(name, "phandle"))
			n->ph = fdt32_ld((const fdt32_t *)v);
		break;
	case 'l':
		if (len == 4 && !strcmp(name, "linux,phandle"))
			n->legacy = fdt32_ld((const fdt32_t *)v);
		break;
	}
}

/* libfdt's name match: "cpus" finds "cpus" and "cpus@0". */
static bool name_matches(const char *n, const char *want)
{
	size_t l = strlen(want);

	return !strncmp(n, want, l) && (!n[l] || n[l] == '@');
}

static int cmp_phandle(const void *a, const void *b)
{
	const struct phandle_ent *x = a, *y = b;

	if (x->ph != y->ph)
		return x->ph < y->ph ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static bool is_meta_name(const char *n)
{
	return !strcmp(n, "__symbols__") || !strcmp(n, "__fixups__") ||
	       !strcmp(n, "__local_fixups__");
}

static uint32_t tag_align(uint32_t off)
{
	return (off + FDT_TAGSIZE - 1) & ~(uint32_t)(FDT_TAGSIZE - 1);
}

/* A node takes 12 bytes at least: begin tag, its name's NUL, end tag. */
static int nd_cap(const struct model *m)
{
	return m->nslots / 3 + 1;
}

/* @n's properties are all read: record it. */
static void node_done(struct model *m, const struct ixnode *n, int parent,
		      int *cap, int *pcap)
{
	uint32_t ph = n->ph ? n->ph : n->legacy;	/* fdt_get_phandle() */
	const struct mnode *up = model_node(m, parent);
	struct mnode *d;

	if (m->nnd >= nd_cap(m))
		return;		/* fdt_verify() rules this out */
	d = &m->nd[m->nnd++];
	m->slot[n->node / 4] = m->nnd;
	*d = (struct mnode){ .parent = parent, .flags = n->flags };
	if ((up && (up->flags & NODE_META)) ||
	    (n->depth == 1 && is_meta_name(n->name)))
		d->flags |= NODE_META;
	if (n->depth == 2 && !strcmp(n->name, "__overlay__"))
		d->flags |= NODE_OVERLAY;
	/* the root's children the scans look up, as fdt_path_offset() would */
	if (n->depth == 1) {
		if (m->root_cpus < 0 && name_matches(n->name, "cpus"))
			m->root_cpus = n->node;
		if (m->root_resmem < 0 && name_matches(n->name, "reserved-memory"))
			m->root_resmem = n->node;
		if (m->root_fixups < 0 && name_matches(n->name, "__fixups__"))
			m->root_fixups = n->node;
	}
	if (ph && ph != (uint32_t)-1) {
		if (m->nphs == *pcap) {
			*pcap = *pcap ? *pcap * 2 : 64;
			m->phs = xrealloc(m->phs, (size_t)*pcap * sizeof(*m->phs));
		}
		m->phs[m->nphs++] = (struct phandle_ent){ ph, n->node };
	}
	if (!(d->flags & NODE_META)) {
		if (m->nnodes == *cap) {
			*cap = *cap ? *cap * 2 : 256;
			m->nodes = xrealloc(m->nodes, (size_t)*cap * sizeof(int));
		}
		m->nodes[m->nnodes++] = n->node;
		if (d->flags & NODE_PCI)
			m->has_pci = true;
	}
}

/*
 * One walk over the structure block records each node's parent, its
 * phandle and the few properties the scans look for. libfdt's
 * fdt_parent_offset() and fdt_node_offset_by_phandle() rescan the tree on
 * every call (with thousands of consumers that was most of the run time),
 * and walking with fdt_next_node() and fdt_for_each_property_offset()
 * re-reads every tag several times: this walk reads each once. It relies
 * on fdt_verify() having checked every tag, name and length, and sees
 * what libfdt sees: a node's properties are those before its first child.
 */
static void build_index(struct model *m)
{
	const char *sb = (const char *)m->fdt + fdt_off_dt_struct(m->fdt);
	const char *strs = (const char *)m->fdt + fdt_off_dt_strings(m->fdt);
	struct ixnode stack[MAX_DEPTH + 1], *cur = NULL;
	int depth = -1, cap = 0, pcap = 0;
	uint32_t size, off = 0;

	/* Version 16 has no size_dt_struct (fdt_verify() bounded it so). */
	size = fdt_version(m->fdt) >= 17 ? fdt_size_dt_struct(m->fdt) :
	       fdt_totalsize(m->fdt) - fdt_off_dt_struct(m->fdt);
	m->nslots = (int)(size / 4) + 1;
	m->slot = xcalloc((size_t)m->nslots, sizeof(int));
	m->nd = xmalloc((size_t)nd_cap(m) * sizeof(*m->nd));
	while (size - off >= FDT_TAGSIZE) {
		uint32_t tag = fdt32_ld((const fdt32_t *)(sb + off)), len;
		const char *name;

		switch (tag) {
		case FDT_BEGIN_NODE:
			if (cur) {
				node_done(m, cur, depth ? stack[depth - 1].node : -1, &cap, &pcap);
				cur = NULL;
			}
			if (++depth > MAX_DEPTH)
				goto out;	/* fdt_verify() rules this out */
			name = sb + off + FDT_TAGSIZE;
			len = (uint32_t)strnlen(name, size - off - FDT_TAGSIZE);
			cur = &stack[depth];
			*cur = (struct ixnode){ .node = (int)off, .depth = depth, .name = name };
			off = tag_align(off + FDT_TAGSIZE + len + 1);
			break;
		case FDT_END_NODE:
			if (cur) {
				node_done(m, cur, depth ? stack[depth - 1].node : -1, &cap, &pcap);
				cur = NULL;
			}
			if (--depth < 0)
				goto out;
			off += FDT_TAGSIZE;
			break;
		case FDT_PROP:
			if (size - off < sizeof(struct fdt_property))
				goto out;
			len = fdt32_ld((const fdt32_t *)(sb + off + 4));
			if (cur)
				prop_flags(cur, strs + fdt32_ld((const fdt32_t *)(sb + off + 8)),
					   sb + off + sizeof(struct fdt_property), len);
			off = tag_align(off + (uint32_t)sizeof(struct fdt_property) + len);
			break;
		case FDT_NOP:
			off += FDT_TAGSIZE;
			break;
		default:	/* FDT_END */
			goto out;
		}
	}
out:
	/* Ties keep document order: libfdt returns the first node. */
	if (m->nphs > 1)
		qsort(m->phs, (size_t)m->nphs, sizeof(*m->phs), cmp_phandle);
}

static bool node_has(const struct model *m, int node, uint8_t flag)
{
	const struct mnode *n = model_node(m, node);

	return n && (n->flags & flag);
}

int model_by_phandle(const struct model *m, uint32_t ph)
{
	int lo = 0, hi = m->nphs;

	if (!ph || ph == (uint32_t)-1)
		return -1;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (m->phs[mid].ph < ph)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nphs && m->phs[lo].ph == ph ? m->phs[lo].node : -1;
}

int node_parent(const struct model *m, int node)
{
	const struct mnode *n = model_node(m, node);

	return n ? n->parent : -1;
}

bool fdt_is_available(const void *fdt, int node)
{
	const char *s;
	int len;

	/* of_fdt_device_is_available(): no status, "okay" or "ok" */
	if (!fdt_getprop(fdt, node, "status", &len))
		return true;
	s = prop_string(fdt, node, "status");
	return s && (!strcmp(s, "okay") || !strcmp(s, "ok"));
}

bool node_is_pci_bus(const struct model *m, int node)
{
	return node_has(m, node, NODE_PCI);
}

bool node_name_is(const void *fdt, int node, const char *name)
{
	const char *n = node >= 0 ? fdt_get_name(fdt, node, NULL) : NULL;
	size_t l = strlen(name);

	return n && !strncmp(n, name, l) && (!n[l] || n[l] == '@');
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

/* Path from @top (exclusive) down to @node, joined by '/'; "" if equal. */
static char *path_below(const struct model *m, int top, int node)
{
	const char *names[MAX_DEPTH + 1];
	size_t len = 1;
	int n = 0, i;
	char *s, *p;

	for (; node > 0 && node != top && n <= MAX_DEPTH; node = node_parent(m, node)) {
		names[n] = fdt_get_name(m->fdt, node, NULL);
		if (!names[n])
			names[n] = "?";
		len += strlen(names[n++]) + 1;
	}
	p = s = xmalloc(len);
	*p = '\0';
	for (i = n - 1; i >= 0; i--)
		p += sprintf(p, "/%s", names[i]);
	return s;
}

char *model_real_path(const struct model *m, int node)
{
	char *s = path_below(m, 0, node);

	if (!*s) {
		free(s);
		return xstrdup("/");
	}
	return s;
}

char *model_path(const struct model *m, int node)
{
	int up, f = 0;
	char *rest, *t;

	/* The nearest __overlay__ above (or at) @node, if any. */
	for (up = node; up > 0; up = node_parent(m, up)) {
		f = model_frag_at(m, up);
		if (f)
			break;
	}
	if (!f)
		return model_real_path(m, node);
	rest = path_below(m, up, node);
	/* "/" + "/child" must not become "//child" */
	if (!*rest)
		t = xstrdup(m->frag[f - 1].target);
	else
		t = xasprintf("%s%s", strcmp(m->frag[f - 1].target, "/") ?
			      m->frag[f - 1].target : "", rest);
	free(rest);
	return t;
}

static int cmp_fixup(const void *a, const void *b)
{
	return strcmp(((const struct fixup_ent *)a)->loc,
		      ((const struct fixup_ent *)b)->loc);
}

/* Every "path:prop:offset" entry of /__fixups__, sorted for lookups. */
static void index_fixups(struct model *m)
{
	int fx = m->root_fixups, p;

	if (fx < 0)
		return;
	fdt_for_each_property_offset(p, m->fdt, fx) {
		const char *name, *v;
		int len, i = 0;

		v = fdt_getprop_by_offset(m->fdt, p, &name, &len);
		while (v && name && i < len) {
			struct fixup_ent *e = array_push(&m->fixups, &m->nfixups,
							 sizeof(*e));

			e->loc = xstrndup(v + i, (size_t)(len - i));
			e->label = name;
			i += (int)strnlen(v + i, (size_t)(len - i)) + 1;
		}
	}
	if (m->nfixups > 1)
		qsort(m->fixups, (size_t)m->nfixups, sizeof(*m->fixups), cmp_fixup);
}

const char *model_fixup(const struct model *m, const char *path,
			const char *prop, int off)
{
	struct fixup_ent key, *e;

	if (!m->nfixups)
		return NULL;
	key.loc = xasprintf("%s:%s:%d", path, prop, off);
	e = bsearch(&key, m->fixups, (size_t)m->nfixups, sizeof(*m->fixups),
		    cmp_fixup);
	free(key.loc);
	return e ? e->label : NULL;
}

static void scan_fragments(struct model *m)
{
	const void *fdt = m->fdt;

	for (int ni = 0; ni < m->nnodes; ni++) {
		int ov = m->nodes[ni], frag = node_parent(m, ov);
		struct fragment *f;
		const char *tp;
		char *fpath;

		if (!node_has(m, ov, NODE_OVERLAY))
			continue;
		m->overlay = true;
		f = array_push(&m->frag, &m->nfrag, sizeof(*f));
		model_node(m, ov)->frag = m->nfrag;
		f->overlay = ov;
		tp = prop_string(fdt, frag, "target-path");
		if (tp) {
			f->target = xstrdup(tp);
			f->resolved = tp[0] == '/';
			continue;
		}
		fpath = model_real_path(m, frag);
		tp = model_fixup(m, fpath, "target", 0);
		free(fpath);
		if (tp) {
			/* &label: the base tree knows where it is, we do not */
			f->target = xasprintf("&%s", tp);
		} else {
			int len;
			const fdt32_t *t = fdt_getprop(fdt, frag, "target", &len);
			int n = t && len == 4 ? model_by_phandle(m, fdt32_to_cpu(*t)) : -1;

			f->target = n >= 0 ? model_real_path(m, n) : xstrdup("?");
			f->resolved = n >= 0;
		}
	}
}

/* Is @node's logical path exactly @path? */
static bool at_path(const struct model *m, int node, const char *path)
{
	char *p = model_path(m, node);
	bool r = !strcmp(p, path);

	free(p);
	return r;
}

/*
 * /reserved-memory. In an overlay: the __overlay__ of a fragment aimed at
 * it (by path, or by a label we cannot resolve but whose pools say what it
 * is), or a reserved-memory node added at /. Several fragments may each
 * add to it: every one is marked NODE_RESMEM, the first is m->resmem.
 */
static void find_resmem(struct model *m)
{
	int i, n;

	m->resmem = -1;
	if (!m->overlay) {
		n = m->root_resmem;
		if (n >= 0) {
			model_node(m, n)->flags |= NODE_RESMEM;
			m->resmem = n;
		}
		return;
	}
	for (i = 0; i < m->nfrag; i++) {
		const struct fragment *f = &m->frag[i];
		int c, ov = f->overlay;

		n = -1;
		if (f->resolved && !strcmp(f->target, "/reserved-memory")) {
			n = ov;
		} else if (f->resolved && !strcmp(f->target, "/")) {
			n = fdt_subnode_offset(m->fdt, ov, "reserved-memory");
		} else if (!f->resolved) {
			fdt_for_each_subnode(c, m->fdt, ov)
				if (node_has(m, c, NODE_POOL))
					n = ov;
		}
		if (n < 0)
			continue;
		model_node(m, n)->flags |= NODE_RESMEM;
		if (m->resmem < 0) {
			m->resmem = n;
			/* A fragment aimed at it edits the base's node. */
			m->resmem_base = n == ov;
		}
	}
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

/* A top-level node: its logical parent is / */
static bool top_level(const struct model *m, int node)
{
	int par = node_parent(m, node);

	if (par == 0)
		return true;
	return par > 0 && model_frag_at(m, par) && at_path(m, par, "/");
}

static void scan_memory(struct model *m)
{
	const void *fdt = m->fdt;
	int t;

	if (m->opts && m->opts->nmem) {
		/* --memory replaces /memory, as a bootloader rewrites it */
		for (int i = 0; i < m->opts->nmem; i++)
			*(struct region *)array_push(&m->mem, &m->nmem,
						     sizeof(*m->mem)) = m->opts->mem[i];
		m->mem_from_opts = true;
		goto sort;
	}
	if (!m->root_cells_known || !cells_ok(m->root_ac) || !cells_ok(m->root_sc))
		return;
	t = (m->root_ac + m->root_sc) * 4;
	for (int ni = 0; ni < m->nnodes; ni++) {
		int node = m->nodes[ni], len, i;
		const uint8_t *reg;

		if (!node_has(m, node, NODE_MEMORY) || !fdt_is_available(fdt, node) ||
		    !top_level(m, node))
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
sort:
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

/* Entries of (@ac + @sc)-cell pairs in @prop; false if the length is off. */
static bool read_pairs(const void *fdt, int node, const char *prop, int ac,
		       int sc, struct region **out, int *n)
{
	int len, t = (ac + sc) * 4, i;
	const uint8_t *p = fdt_getprop(fdt, node, prop, &len);

	if (!p)
		return true;
	for (i = 0; i + t <= len; i += t) {
		struct region r = { cells_read(p + i, ac), cells_read(p + i + ac * 4, sc) };

		*(struct region *)array_push(out, n, sizeof(r)) = r;
	}
	return len % t == 0;
}

static void parse_rmem(struct model *m, struct rmem *rm, int ac, int sc)
{
	const void *fdt = m->fdt;
	const uint8_t *p;
	int len;

	rm->cells_known = cells_ok(ac) && cells_ok(sc);
	rm->has_reg = fdt_getprop(fdt, rm->node, "reg", NULL) != NULL;
	rm->has_size = fdt_getprop(fdt, rm->node, "size", NULL) != NULL;
	if (!rm->cells_known)
		return;
	rm->reg_bad = !read_pairs(fdt, rm->node, "reg", ac, sc, &rm->regs, &rm->nreg);
	if (rm->nreg) {
		rm->base = rm->regs[0].base;
		rm->size = rm->regs[0].size;
	}
	p = fdt_getprop(fdt, rm->node, "size", &len);
	if (p) {
		if (len != sc * 4)
			rm->size_bad = true;
		else if (!rm->has_reg)
			rm->size = cells_read(p, sc);
	}
	p = fdt_getprop(fdt, rm->node, "alignment", &len);
	if (p) {
		if (len != ac * 4)
			rm->size_bad = true;
		else
			rm->align = cells_read(p, ac);
	}
	if (!rm->has_reg && !read_pairs(fdt, rm->node, "alloc-ranges", ac, sc,
					&rm->alloc, &rm->nalloc))
		rm->size_bad = true;
}

static void add_rmem(struct model *m, int node, bool in_resmem, int ac, int sc)
{
	struct rmem *rm = array_push(&m->rmem, &m->nrmem, sizeof(*rm));

	model_node(m, node)->rmem = m->nrmem;
	rm->node = node;
	rm->path = model_path(m, node);
	rm->available = fdt_is_available(m->fdt, node);
	rm->pool = node_has(m, node, NODE_POOL);
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

	find_resmem(m);
	for (int ni = 0; ni < m->nnodes; ni++) {
		int node = m->nodes[ni], par = node_parent(m, node);
		int ac = m->root_ac, sc = m->root_sc, f;
		bool guessed;

		if (!node_has(m, par, NODE_RESMEM)) {
			/* Restricted pools elsewhere are never scanned. */
			if (node_has(m, node, NODE_POOL))
				add_rmem(m, node, false, 0, 0);
			continue;
		}
		f = model_frag_at(m, par);
		guessed = f && !m->frag[f - 1].resolved;
		/*
		 * The kernel reads reg and size with the root's cells; an
		 * overlay that does not carry them has only its own
		 * reserved-memory node's, which must equal the root's.
		 */
		if (!m->root_cells_known &&
		    (get_u32(fdt, par, "#address-cells", &ac) ||
		     get_u32(fdt, par, "#size-cells", &sc)))
			ac = sc = 0;
		add_rmem(m, node, true, ac, sc);
		m->rmem[m->nrmem - 1].where_unknown = guessed;
	}
}

static uint64_t align_down(uint64_t v, uint64_t a)
{
	return a && !(a & (a - 1)) ? v & ~(a - 1) : a ? v - v % a : v;
}

/* Memory memblock will not hand out: /memreserve/, static regions, earlier dynamic ones. */
struct busy {
	int n;
	struct region *r;
};

static void busy_add(struct busy *b, uint64_t base, uint64_t size)
{
	if (size)
		*(struct region *)array_push(&b->r, &b->n, sizeof(*b->r)) =
			(struct region){ base, size };
}

/* The highest busy region overlapping [lo, hi), or NULL. */
static const struct region *busy_hit(const struct busy *b, uint64_t lo, uint64_t hi)
{
	const struct region *hit = NULL;

	for (int i = 0; i < b->n; i++) {
		uint64_t e = b->r[i].base + b->r[i].size;

		if (e < b->r[i].base)
			e = UINT64_MAX;
		if (b->r[i].base < hi && e > lo && (!hit || b->r[i].base > hit->base))
			hit = &b->r[i];
	}
	return hit;
}

/*
 * Top-down in [lo, hi) over free RAM, like __memblock_find_range_top_down():
 * from the top of each RAM range, the highest aligned start whose range
 * misses every busy region.
 */
static bool place_in(const struct model *m, const struct busy *b, uint64_t lo,
		     uint64_t hi, uint64_t size, uint64_t align, struct region *out)
{
	for (int i = m->nmem - 1; i >= 0; i--) {
		uint64_t rb = m->mem[i].base, e = rb + m->mem[i].size, top;
		const struct region *hit;

		if (e < rb)
			e = UINT64_MAX;
		rb = rb > lo ? rb : lo;
		e = e < hi ? e : hi;
		/* each step moves e below one busy region: at most b->n + 1 */
		for (int step = 0; step <= b->n && e > rb && e - rb >= size; step++) {
			top = align_down(e - size, align);
			if (top < rb)
				break;
			hit = busy_hit(b, top, top + size);
			if (!hit) {
				*out = (struct region){ top, size };
				return true;
			}
			e = hit->base;
		}
	}
	return false;
}

/*
 * __reserved_mem_alloc_size() for @rm: alignment (SMP_CACHE_BYTES at
 * least, early_init_dt_alloc_reserved_memory_arch()), then the first
 * alloc-range that has room, or anywhere in RAM.
 */
static bool place_one(const struct model *m, const struct busy *b,
		      const struct rmem *rm, struct region *out)
{
	uint64_t align = rm->align ? rm->align : 64;

	if (!rm->nalloc)
		return place_in(m, b, 0, UINT64_MAX, rm->size, align, out);
	for (int i = 0; i < rm->nalloc; i++) {
		uint64_t e = rm->alloc[i].base + rm->alloc[i].size;

		if (place_in(m, b, rm->alloc[i].base, e < rm->alloc[i].base ? UINT64_MAX : e,
			     rm->size, align, out))
			return true;
	}
	return false;
}

/*
 * Dynamic regions are allocated after every static one is reserved, in
 * document order (fdt_scan_reserved_mem(); 6.1: fdt_init_reserved_mem()),
 * each avoiding the ones before it. The kernel image, initrd and firmware
 * reservations are not in the tree: this is where memblock starts.
 */
static void place_dynamic(struct model *m)
{
	struct busy b = { 0 };
	int i, k;

	if (!m->mem_known || m->overlay)
		return;
	for (i = 0; i < m->nrsv; i++)
		busy_add(&b, m->rsv[i].base, m->rsv[i].size);
	for (i = 0; i < m->nrmem; i++)
		for (k = 0; m->rmem[i].in_resmem && m->rmem[i].available &&
			    m->rmem[i].cells_known && k < m->rmem[i].nreg; k++)
			busy_add(&b, m->rmem[i].regs[k].base, m->rmem[i].regs[k].size);
	for (i = 0; i < m->nrmem; i++) {
		struct rmem *rm = &m->rmem[i];

		if (!rm->in_resmem || !rm->available || rm->nreg || !rm->has_size ||
		    rm->size_bad || !rm->size || !rm->cells_known)
			continue;
		rm->dyn_tried = true;
		rm->dyn_placed = place_one(m, &b, rm, &rm->dyn_at);
		if (rm->dyn_placed)
			busy_add(&b, rm->dyn_at.base, rm->dyn_at.size);
	}
	free(b.r);
}

bool model_dynamic_place(const struct model *m, const struct rmem *rm,
			 struct region *out)
{
	(void)m;
	if (!rm->dyn_placed)
		return false;
	*out = rm->dyn_at;
	return true;
}

struct rmem *model_rmem_at(const struct model *m, int node)
{
	const struct mnode *n = model_node(m, node);

	return n && n->rmem ? &m->rmem[n->rmem - 1] : NULL;
}

struct consumer *model_consumer_at(const struct model *m, int node)
{
	const struct mnode *n = model_node(m, node);

	return n && n->cons ? &m->cons[n->cons - 1] : NULL;
}

int model_build(struct model *m, const void *fdt, const struct model_opts *o)
{
	memset(m, 0, sizeof(*m));
	m->fdt = fdt;
	m->opts = o;
	m->root_cpus = m->root_resmem = m->root_fixups = -1;
	build_index(m);
	m->arch = o->arch != ARCH_UNKNOWN ? o->arch : model_guess_arch(m);
	index_fixups(m);
	scan_fragments(m);
	scan_root(m);
	scan_memory(m);
	scan_memreserve(m);
	scan_reserved(m);
	place_dynamic(m);
	model_scan_consumers(m);
	model_scan_pci(m);
	return 0;
}

void model_free(struct model *m)
{
	int i;

	for (i = 0; i < m->nrmem; i++) {
		free(m->rmem[i].path);
		free(m->rmem[i].regs);
		free(m->rmem[i].alloc);
	}
	for (i = 0; i < m->ncons; i++) {
		free(m->cons[i].path);
		free(m->cons[i].refs);
		free(m->cons[i].rids);
	}
	for (i = 0; i < m->npci; i++)
		free(m->pci[i].path);
	for (i = 0; i < m->nfrag; i++)
		free(m->frag[i].target);
	for (i = 0; i < m->nfixups; i++)
		free(m->fixups[i].loc);
	free(m->fixups);
	free(m->rmem);
	free(m->cons);
	free(m->pci);
	free(m->frag);
	free(m->mem);
	free(m->rsv);
	free(m->slot);
	free(m->nd);
	free(m->phs);
	free(m->nodes);
	memset(m, 0, sizeof(*m));
}
