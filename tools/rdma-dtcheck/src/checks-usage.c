// SPDX-License-Identifier: GPL-2.0
/*
 * checks-usage.c - pool sizes against what rdmatop saw on the device
 * (--usage FILE). A suggested size is validated by linting the tree once
 * more with the pool resized: placement rules (RAM, overlaps, dma-ranges,
 * highmem) may forbid growing it where it is.
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "usage.h"
#include "util.h"

static const struct pool_use *pool_usage(const struct lint *l, const struct rmem *rm)
{
	const struct usage *u = l->m->opts->usage;
	const char *name;

	if (!u || !rm->available || (!rm->nreg && !rm->has_size))
		return NULL;
	name = strrchr(rm->path, '/');
	return usage_find(u, name ? name + 1 : rm->path, rm->base, rm->nreg > 0);
}

/* Write @v big-endian into @cells cells at @p; false if it does not fit. */
static bool cells_write(void *p, int cells, uint64_t v)
{
	uint8_t *b = p;

	if (cells < 1 || cells > 2 || (cells == 1 && v >> 32))
		return false;
	for (int i = cells * 4 - 1; i >= 0; i--, v >>= 8)
		b[i] = (uint8_t)v;
	return true;
}

/* Was a finding like @f (check, node, property) already made for this input? */
static bool seen_before(const struct lint *l, const struct finding *f)
{
	for (int i = l->first; i < l->out->n; i++) {
		const struct finding *o = &l->out->v[i];

		if (o->check == f->check && !strcmp(o->path, f->path) &&
		    !strcmp(o->prop ? o->prop : "", f->prop ? f->prop : ""))
			return true;
	}
	return false;
}

/*
 * Lint the tree again with @rm's size set to @size; describe the outcome
 * in @buf: clean, or the first new warning or error it brings.
 */
static void validate(const struct lint *l, const struct rmem *rm, uint64_t size,
		     char *buf, size_t len)
{
	const struct model *m = l->m;
	struct model_opts o = *m->opts;
	struct dt_input in = { .name = l->in->name };
	struct findings fs = { 0 };
	struct model m2;
	struct lint l2;
	int plen, nnew = 0;
	const struct finding *first = NULL;
	void *copy;
	uint8_t *p;

	if (m->overlay || !m->root_cells_known) {
		snprintf(buf, len, "not validated: %s",
			 m->overlay ? "an overlay alone (lint it with --base)" : "the root cells are unknown");
		return;
	}
	copy = xmalloc(fdt_totalsize(m->fdt));
	memcpy(copy, m->fdt, fdt_totalsize(m->fdt));
	p = fdt_getprop_w(copy, rm->node, rm->nreg ? "reg" : "size", &plen);
	if (!p || plen < (rm->nreg ? m->root_ac + m->root_sc : m->root_sc) * 4 ||
	    !cells_write(p + (rm->nreg ? m->root_ac * 4 : 0), m->root_sc, size)) {
		snprintf(buf, len, "not validated: 0x%llx does not fit %d size cell%s",
			 (unsigned long long)size, m->root_sc, m->root_sc == 1 ? "" : "s");
		free(copy);
		return;
	}
	o.usage = NULL;		/* no second round of suggestions */
	model_build(&m2, copy, &o);
	l2 = (struct lint){ .m = &m2, .in = &in, .conf = l->conf, .out = &fs };
	checks_run(&l2);
	for (int i = 0; i < fs.n; i++) {
		if (fs.v[i].sev < SEV_WARNING || seen_before(l, &fs.v[i]))
			continue;
		if (!nnew++)
			first = &fs.v[i];
	}
	if (!first)
		snprintf(buf, len, "validated: the tree with it lints without new findings");
	else
		snprintf(buf, len, "but with it %s%s%s gets: %s (%s%s): move the pool or make it dynamic",
			 first->path, first->prop ? ":" : "", first->prop ? first->prop : "",
			 first->msg, check_table[first->check].name,
			 nnew > 1 ? ", and more" : "");
	findings_free(&fs);
	model_free(&m2);
	free(copy);
}

static const char *kib(uint64_t v, char *b, size_t len)
{
	if (v >= (1ULL << 20) && !(v % (1ULL << 20)))
		snprintf(b, len, "%llu MiB", (unsigned long long)(v >> 20));
	else
		snprintf(b, len, "%llu KiB", (unsigned long long)((v + 1023) >> 10));
	return b;
}

/* The suggestion and its validation, as the tail of a message. */
static void suggestion(const struct lint *l, const struct rmem *rm,
		       const struct pool_use *pu, char *buf, size_t len)
{
	uint64_t s = usage_suggest(pu, rm->size);
	char v[1024], k[32];

	validate(l, rm, s, v, sizeof(v));
	snprintf(buf, len, "suggested size %s (0x%llx), %s", kib(s, k, sizeof(k)),
		 (unsigned long long)s, v);
}

void check_usage_failed(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;
	const struct pool_use *pu = pool_usage(l, rm);
	char frag[160] = "", big[160] = "", sug[1400], k1[32], k2[32];

	if (!pu || !(pu->map_failures || pu->alloc_failures || pu->nfail_events))
		return;
	if (pu->frag_failures)
		snprintf(frag, sizeof(frag),
			 "; %llu failed with enough free slots but no free run in one segment (fragmentation)",
			 (unsigned long long)pu->frag_failures);
	if (pu->oversize)
		snprintf(big, sizeof(big),
			 "; %llu asked for more than one 256 KiB segment, which no pool size serves (the driver must split them)",
			 (unsigned long long)pu->oversize);
	suggestion(l, rm, pu, sug, sizeof(sug));
	report(l, c, rm, rm->node, rm->nreg ? "reg" : "size",
	       "on the device %llu mappings and %llu coherent allocations failed (%d records of %s); peak use %s of %s%s%s; %s",
	       (unsigned long long)pu->map_failures, (unsigned long long)pu->alloc_failures,
	       pu->records, l->m->opts->usage->file, kib(pu->peak, k1, sizeof(k1)),
	       kib(rm->size, k2, sizeof(k2)), frag, big, sug);
}

void check_usage_headroom(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;
	const struct pool_use *pu = pool_usage(l, rm);
	char sug[1400], k1[32], k2[32], k3[32];

	if (!pu || pu->map_failures || pu->alloc_failures || pu->nfail_events ||
	    !pu->have_peak || usage_suggest(pu, rm->size) <= rm->size)
		return;
	suggestion(l, rm, pu, sug, sizeof(sug));
	report(l, c, rm, rm->node, rm->nreg ? "reg" : "size",
	       "peak use on the device %s of %s (%llu%%) leaves less than a quarter free or less than its largest mapping (%s); %s",
	       kib(pu->peak, k1, sizeof(k1)), kib(rm->size, k2, sizeof(k2)),
	       (unsigned long long)(rm->size ? pu->peak * 100 / rm->size : 0),
	       kib(pu->largest, k3, sizeof(k3)), sug);
}

void check_usage_oversized(struct lint *l, const struct check *c, const void *obj)
{
	const struct rmem *rm = obj;
	const struct pool_use *pu = pool_usage(l, rm);
	char sug[1400], k1[32], k2[32];
	uint64_t s;

	if (!pu || !pu->have_peak || !pu->have_failures || pu->map_failures ||
	    pu->alloc_failures || pu->nfail_events)
		return;
	s = usage_suggest(pu, rm->size);
	if (s * 4 > rm->size)
		return;
	suggestion(l, rm, pu, sug, sizeof(sug));
	report(l, c, rm, rm->node, rm->nreg ? "reg" : "size",
	       "peak use on the device %s of %s: the pool is over four times what it needed; %s",
	       kib(pu->peak, k1, sizeof(k1)), kib(rm->size, k2, sizeof(k2)), sug);
}
