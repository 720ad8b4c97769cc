// SPDX-License-Identifier: GPL-2.0
/*
 * srcpos.c - build a path -> position map from dtc's annotated dts output.
 *
 * dtc 1.6.1 writes one node header ("label: name {") or one property
 * ("name = <...>;" or "name;") per line, each followed by a comment
 * "file:line:col-line:col"; a node touched by several fragments lists all
 * its spans, the defining one first. Lines without a usable comment, and
 * positions "<no-file>:<no-line>", are ignored.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "srcpos.h"
#include "util.h"

#define MAX_DEPTH 64

struct srcent {
	char *path;
	char *prop;		/* NULL for the node itself */
	int seq;		/* order in dtc's output: the first span wins */
	struct srcpos pos;
};

/* @file was first included from @from, at its line @line */
struct srcinc {
	const char *file;
	const char *from;
	int line;
};

struct srcmap {
	struct srcent *ent;
	int nent;
	struct srcinc *inc;
	int ninc;
	char **files;		/* interned file names */
	int nfiles;
};

static const char *intern(struct srcmap *m, const char *f, size_t len)
{
	char **slot;
	int i;

	for (i = 0; i < m->nfiles; i++)
		if (strlen(m->files[i]) == len && !strncmp(m->files[i], f, len))
			return m->files[i];
	slot = array_push(&m->files, &m->nfiles, sizeof(*slot));
	*slot = xmalloc(len + 1);
	memcpy(*slot, f, len);
	(*slot)[len] = '\0';
	return *slot;
}

/* Parse "file:line:col..." (the first span of the comment) into @pos. */
static int parse_span(struct srcmap *m, const char *c, struct srcpos *pos)
{
	const char *end = strstr(c, ", ");
	const char *p, *colon1 = NULL, *colon2 = NULL;

	if (!end)
		end = c + strlen(c);
	/* The first span ends at '-' after "line:col", or at end. */
	for (p = c; p < end; p++) {
		if (*p != ':')
			continue;
		if (p[1] >= '0' && p[1] <= '9') {
			char *q;
			long line = strtol(p + 1, &q, 10);

			if (*q == ':' && q[1] >= '0' && q[1] <= '9') {
				colon1 = p;
				colon2 = q;
				pos->line = (int)line;
				pos->col = (int)strtol(q + 1, NULL, 10);
				break;
			}
		}
	}
	if (!colon1 || !colon2 || colon1 == c)
		return -1;
	pos->file = intern(m, c, (size_t)(colon1 - c));
	return 0;
}

static void add(struct srcmap *m, const char *path, const char *prop,
		size_t proplen, const struct srcpos *pos)
{
	struct srcent *e = array_push(&m->ent, &m->nent, sizeof(*e));

	e->path = xstrdup(path);
	if (prop) {
		e->prop = xmalloc(proplen + 1);
		memcpy(e->prop, prop, proplen);
		e->prop[proplen] = '\0';
	}
	e->pos = *pos;
	e->seq = m->nent - 1;
}

/* Sort key: path, then the node before its properties, then dtc's order. */
static int cmp_ent(const void *a, const void *b)
{
	const struct srcent *x = a, *y = b;
	int r = strcmp(x->path, y->path);

	if (r)
		return r;
	if (!x->prop != !y->prop)
		return x->prop ? 1 : -1;
	if (x->prop && (r = strcmp(x->prop, y->prop)))
		return r;
	return x->seq - y->seq;
}

/* Node name from "lbl1: lbl2: name@unit {" (text before the brace). */
static int node_name(const char *s, size_t len, char *out, size_t outsz)
{
	const char *start = s, *p;
	size_t n;

	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	for (p = s; p < s + len; p++)
		if (*p == ':' && (p + 1 == s + len || p[1] == ' '))
			start = p + 1;
	while (start < s + len && (*start == ' ' || *start == '\t'))
		start++;
	n = (size_t)(s + len - start);
	if (!n || n >= outsz)
		return -1;
	memcpy(out, start, n);
	out[n] = '\0';
	return 0;
}

struct srcmap *srcmap_parse(FILE *f)
{
	struct srcmap *m = xcalloc(1, sizeof(*m));
	size_t plen[MAX_DEPTH + 1];
	char path[4096] = "";
	char *line = NULL;
	size_t cap = 0;
	int depth = -1;		/* -1: outside the root node */

	while (getline(&line, &cap, f) >= 0) {
		char *c = strstr(line, "/* "), *s = line, *brace, *cend;
		struct srcpos pos = { 0 };
		bool have;

		/* The annotation is the last comment on the line. */
		for (char *n = c; n; n = strstr(n + 3, "/* "))
			c = n;
		cend = c ? strstr(c, " */") : NULL;
		if (cend)
			*cend = '\0';
		have = c && cend && !parse_span(m, c + 3, &pos);
		if (c)
			*c = '\0';
		while (*s == ' ' || *s == '\t')
			s++;

		if (!strncmp(s, "};", 2)) {
			if (depth >= 0)
				path[plen[depth]] = '\0';
			depth--;
			continue;
		}
		brace = strrchr(s, '{');
		if (brace && !strchr(s, '=') && !strchr(s, ';')) {
			char name[512];

			if (node_name(s, (size_t)(brace - s), name, sizeof(name)))
				continue;
			if (depth + 1 >= MAX_DEPTH)
				break;
			plen[++depth] = strlen(path);
			if (depth == 0) {
				strcpy(path, "/");
			} else {
				size_t l = strlen(path);

				if (l + strlen(name) + 2 > sizeof(path))
					break;
				snprintf(path + l, sizeof(path) - l, "%s%s",
					 l > 1 ? "/" : "", name);
			}
			if (have)
				add(m, path, NULL, 0, &pos);
			continue;
		}
		if (depth >= 0 && have && *s && *s != '/') {
			size_t n = strcspn(s, " =;");

			if (n)
				add(m, path, s, n, &pos);
		}
	}
	free(line);
	if (m->nent > 1)
		qsort(m->ent, (size_t)m->nent, sizeof(*m->ent), cmp_ent);
	return m;
}

void srcmap_free(struct srcmap *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->nent; i++) {
		free(m->ent[i].path);
		free(m->ent[i].prop);
	}
	for (i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	free(m->inc);
	free(m->ent);
	free(m->files);
	free(m);
}

const struct srcpos *srcmap_find(const struct srcmap *m, const char *path,
				 const char *prop)
{
	struct srcent key = { .path = (char *)path, .prop = (char *)prop, .seq = -1 };
	int lo = 0, hi;

	if (!m)
		return NULL;
	/* The first entry not below the key (seq -1 sorts before any). */
	hi = m->nent;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (cmp_ent(&m->ent[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nent && !strcmp(m->ent[lo].path, path) &&
	    (!prop ? !m->ent[lo].prop : m->ent[lo].prop && !strcmp(m->ent[lo].prop, prop)))
		return &m->ent[lo].pos;
	return NULL;
}

static const struct srcinc *find_inc(const struct srcmap *m, const char *file)
{
	for (int i = 0; i < m->ninc; i++)
		if (!strcmp(m->inc[i].file, file))
			return &m->inc[i];
	return NULL;
}

/*
 * cpp writes '# LINE "FILE" 1' on entering an included file and
 * '# LINE "FILE" 2' on returning; the includer's line counter then still
 * points at the #include directive.
 */
void srcmap_read_includes(struct srcmap *m, FILE *pp)
{
	const char *cur = NULL;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;

	if (!m)
		return;
	while (getline(&line, &cap, pp) >= 0) {
		char *q1, *q2, *end;
		long n;

		if (line[0] != '#' || line[1] != ' ') {
			lineno++;
			continue;
		}
		n = strtol(line + 2, &end, 10);
		q1 = strchr(end, '"');
		q2 = q1 ? strrchr(q1 + 1, '"') : NULL;
		if (end == line + 2 || !q2)
			continue;
		if (atoi(q2 + 1) == 1 && cur) {
			const char *f = intern(m, q1 + 1, (size_t)(q2 - q1 - 1));

			if (!find_inc(m, f) && m->ninc < 4096) {
				struct srcinc *e = array_push(&m->inc, &m->ninc, sizeof(*e));

				e->file = f;
				e->from = cur;
				e->line = lineno;
			}
		}
		cur = intern(m, q1 + 1, (size_t)(q2 - q1 - 1));
		lineno = (int)n;
	}
	free(line);
}

int srcmap_chain(const struct srcmap *m, const char *file,
		 struct srcpos *out, int max)
{
	const struct srcinc *e;
	int n = 0;

	if (!m || !file)
		return 0;
	/* the chain of a well-formed file ends; max guards a cycle */
	while (n < max && (e = find_inc(m, file))) {
		out[n].file = e->from;
		out[n].line = e->line;
		out[n].col = 0;
		n++;
		file = e->from;
	}
	return n;
}
