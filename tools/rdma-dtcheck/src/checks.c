// SPDX-License-Identifier: GPL-2.0
/*
 * checks.c - run the check table over a model; record findings.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "overlay.h"
#include "util.h"

int check_lookup(const char *name)
{
	int i;

	for (i = 0; i < check_count; i++)
		if (!strcmp(check_table[i].name, name))
			return i;
	return -1;
}

void check_conf_init(struct check_conf *conf)
{
	int i;

	for (i = 0; i < check_count; i++) {
		conf[i].enabled = !check_table[i].off;
		conf[i].sev = check_table[i].sev;
	}
}

/* check_lookup() of each prerequisite, once. */
static int prereq_index(const struct check *c, int i)
{
	static int idx[64][ARRAY_SIZE(c->prereq)];
	static bool done;

	if (!done) {
		for (int k = 0; k < check_count; k++)
			for (int j = 0; j < (int)ARRAY_SIZE(c->prereq); j++)
				idx[k][j] = check_table[k].prereq[j] ?
					    check_lookup(check_table[k].prereq[j]) : -1;
		done = true;
	}
	return idx[c - check_table][i];
}

/* Which objects of a scope @obj belongs to, and its index there. */
static int obj_slot(const struct lint *l, enum scope sc, const void *obj)
{
	const struct model *m = l->m;

	switch (sc) {
	case SCOPE_POOL:
		return (int)((const struct rmem *)obj - m->rmem);
	case SCOPE_CONSUMER:
		return (int)((const struct consumer *)obj - m->cons);
	case SCOPE_PCI:
		return (int)((const struct pci_node *)obj - m->pci);
	default:
		return 0;
	}
}

static uint64_t *fail_mask(const struct lint *l, enum scope sc, const void *obj)
{
	return &l->failed[sc][obj_slot(l, sc, obj)];
}

/*
 * Did a prerequisite of @c report something about @obj (or, for a tree
 * check, at all)? A prerequisite that was itself skipped counts as failed,
 * as in dtc. report() keeps one bit per check and object, so this costs
 * nothing however many findings there are.
 */
static bool prereq_failed(const struct lint *l, const struct check *c,
			  const void *obj, int depth)
{
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(c->prereq) && c->prereq[i]; i++) {
		int p = prereq_index(c, i);
		const struct check *pc;

		if (p < 0 || depth > 8)
			continue;
		pc = &check_table[p];
		if (pc->scope == SCOPE_TREE && (*l->failed[SCOPE_TREE] >> p & 1))
			return true;
		if (pc->scope == c->scope && (*fail_mask(l, c->scope, obj) >> p & 1))
			return true;
		if (prereq_failed(l, pc, obj, depth + 1))
			return true;
	}
	return false;
}

static void run_one(struct lint *l, const struct check *c, const void *obj)
{
	if (!prereq_failed(l, c, obj, 0))
		c->fn(l, c, obj);
}

void checks_run(struct lint *l)
{
	const struct model *m = l->m;
	const int counts[] = { 1, m->nrmem, m->ncons, m->npci };
	int i, k;

	_Static_assert(ARRAY_SIZE(counts) == SCOPE_PCI + 1, "one count a scope");
	for (i = 0; i <= SCOPE_PCI; i++)
		l->failed[i] = xcalloc((size_t)counts[i] + 1, sizeof(uint64_t));
	l->first = l->out->n;
	for (i = 0; i < check_count; i++) {
		const struct check *c = &check_table[i];

		if (!l->conf[i].enabled)
			continue;
		switch (c->scope) {
		case SCOPE_TREE:
			run_one(l, c, m);
			break;
		case SCOPE_POOL:
			for (k = 0; k < m->nrmem; k++)
				if (m->rmem[k].pool)
					run_one(l, c, &m->rmem[k]);
			break;
		case SCOPE_CONSUMER:
			for (k = 0; k < m->ncons; k++)
				run_one(l, c, &m->cons[k]);
			break;
		case SCOPE_PCI:
			for (k = 0; k < m->npci; k++)
				run_one(l, c, &m->pci[k]);
			break;
		}
	}
	for (i = 0; i <= SCOPE_PCI; i++) {
		free(l->failed[i]);
		l->failed[i] = NULL;
	}
}

void report(struct lint *l, const struct check *c, const void *obj, int node,
	    const char *prop, const char *fmt, ...)
{
	int idx = (int)(c - check_table);
	const struct srcpos *pos = NULL;
	struct finding *f;
	va_list ap;

	f = array_push(&l->out->v, &l->out->n, sizeof(*f));
	*fail_mask(l, c->scope, obj) |= 1ULL << idx;
	f->check = idx;
	f->sev = l->conf[idx].sev;
	f->obj = obj;
	f->input = l->input;
	f->input_name = l->input < l->out->ninputs ? l->out->inputs[l->input] : l->in->name;
	f->path = model_path(l->m, node);
	f->prop = prop ? xstrdup(prop) : NULL;
	if (l->in->src) {
		char *real = model_real_path(l->m, node);

		/* --base: the merged tree's path, as the overlay wrote it */
		if (l->in->map) {
			char *ov = overlay_source_path(l->in->map, real);

			free(real);
			real = ov;
		}
		pos = real && prop ? srcmap_find(l->in->src, real, prop) : NULL;
		if (!pos && real)
			pos = srcmap_find(l->in->src, real, NULL);
		free(real);
	}
	if (pos && pos->file) {
		struct srcpos ch[16];
		int n = srcmap_chain(l->in->src, pos->file, ch, (int)ARRAY_SIZE(ch));

		f->file = xstrdup(pos->file);
		f->line = pos->line;
		f->col = pos->col;
		for (int i = 0; i < n; i++) {
			struct incpos *ip = array_push(&f->chain, &f->nchain,
						       sizeof(*ip));

			ip->file = xstrdup(ch[i].file);
			ip->line = ch[i].line;
		}
	} else if (l->in->map && (!pos || !pos->file)) {
		/* only in the base tree: the overlay did not write it */
		f->file = xstrdup(l->in->map->base_name);
	} else {
		f->file = xstrdup(l->in->name);
	}
	va_start(ap, fmt);
	if (vasprintf(&f->msg, fmt, ap) < 0)
		f->msg = xstrdup("(message lost)");
	va_end(ap);
	l->out->count[f->sev]++;
}
