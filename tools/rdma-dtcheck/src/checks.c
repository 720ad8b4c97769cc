// SPDX-License-Identifier: GPL-2.0
/*
 * checks.c - run the check table over a model; record findings.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
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

/*
 * Did a prerequisite of @c report something about @obj (or, for a tree
 * check, at all)? A prerequisite that was itself skipped counts as failed,
 * as in dtc.
 */
static bool prereq_failed(const struct lint *l, const struct check *c,
			  const void *obj, int depth)
{
	int i, k;

	for (i = 0; i < (int)ARRAY_SIZE(c->prereq) && c->prereq[i]; i++) {
		int p = check_lookup(c->prereq[i]);

		if (p < 0 || depth > 8)
			continue;
		for (k = l->first; k < l->out->n; k++) {
			const struct finding *f = &l->out->v[k];

			if (f->check != p)
				continue;
			if (f->obj == obj || check_table[p].scope == SCOPE_TREE)
				return true;
		}
		if (prereq_failed(l, &check_table[p], obj, depth + 1))
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
	int i, k;

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
}

void report(struct lint *l, const struct check *c, const void *obj, int node,
	    const char *prop, const char *fmt, ...)
{
	int idx = (int)(c - check_table);
	const struct srcpos *pos = NULL;
	struct finding *f;
	va_list ap;

	f = array_push(&l->out->v, &l->out->n, sizeof(*f));
	f->check = idx;
	f->sev = l->conf[idx].sev;
	f->obj = obj;
	f->input = l->input;
	f->path = model_path(l->m, node);
	f->prop = prop ? xstrdup(prop) : NULL;
	if (l->in->src) {
		char *real = model_real_path(l->m, node);

		pos = prop ? srcmap_find(l->in->src, real, prop) : NULL;
		if (!pos)
			pos = srcmap_find(l->in->src, real, NULL);
		free(real);
	}
	if (pos && pos->file) {
		f->file = xstrdup(pos->file);
		f->line = pos->line;
		f->col = pos->col;
	} else {
		f->file = xstrdup(l->in->name);
	}
	va_start(ap, fmt);
	if (vasprintf(&f->msg, fmt, ap) < 0)
		f->msg = xstrdup("(message lost)");
	va_end(ap);
	l->out->count[f->sev]++;
}
