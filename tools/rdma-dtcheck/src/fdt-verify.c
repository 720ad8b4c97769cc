// SPDX-License-Identifier: GPL-2.0
/*
 * fdt-verify.c - a bounded walk over a blob's structure block, run before
 * any libfdt call that iterates over tags.
 *
 * Debian's libfdt 1.6.1 trusts a property's length in fdt_next_tag(): a
 * length of -12 gives back the offset it started from, so fdt_check_full()
 * (and fdtdump) spin forever; other lengths jump backwards into a loop.
 * Here every step must move forward inside the block, so the walk ends
 * after at most size_dt_struct / 4 steps whatever the blob says.
 */
#include <libfdt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fdt-verify.h"

struct walk {
	const char *sb;		/* structure block */
	uint32_t sboff;		/* its offset in the blob */
	uint32_t size;		/* its size */
	const char *strs;	/* strings block */
	uint32_t strsize;
	char *why;
	size_t whylen;
};

static int fail(struct walk *w, uint32_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct walk *w, uint32_t off, const char *fmt, ...)
{
	int n = snprintf(w->why, w->whylen, "tag at offset 0x%x: ",
			 w->sboff + off);
	va_list ap;

	if (n >= 0 && (size_t)n < w->whylen) {
		va_start(ap, fmt);
		vsnprintf(w->why + n, w->whylen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -FDT_ERR_BADSTRUCTURE;
}

static uint32_t be32_at(const struct walk *w, uint32_t off)
{
	fdt32_t v;

	memcpy(&v, w->sb + off, sizeof(v));
	return fdt32_to_cpu(v);
}

/* Length of the NUL-terminated string at @s, or -1 if it runs past @max. */
static long str_len(const char *s, uint32_t max)
{
	const char *nul = memchr(s, '\0', max);

	return nul ? nul - s : -1;
}

static uint32_t tag_align(uint32_t off)
{
	return (off + FDT_TAGSIZE - 1) & ~(uint32_t)(FDT_TAGSIZE - 1);
}

/* Check one FDT_PROP at @off; on success *next is the following tag. */
static int walk_prop(struct walk *w, uint32_t off, uint32_t *next)
{
	uint32_t len, nameoff;

	if (w->size - off < sizeof(struct fdt_property))
		return fail(w, off, "property header runs past the end of the block");
	len = be32_at(w, off + 4);
	nameoff = be32_at(w, off + 8);
	if (len > w->size - off - sizeof(struct fdt_property))
		return fail(w, off, "property length 0x%x runs past the end of the block (0x%x bytes)",
			    len, w->size);
	if (nameoff >= w->strsize || str_len(w->strs + nameoff, w->strsize - nameoff) < 0)
		return fail(w, off, "property name offset 0x%x is outside the strings block (0x%x bytes)",
			    nameoff, w->strsize);
	*next = tag_align(off + (uint32_t)sizeof(struct fdt_property) + len);
	return 0;
}

static int walk(struct walk *w)
{
	uint32_t off = 0, next;
	long depth = 0;
	bool root_done = false;

	while (off < w->size) {
		uint32_t tag;
		long nl;

		if (w->size - off < FDT_TAGSIZE)
			break;
		tag = be32_at(w, off);
		switch (tag) {
		case FDT_BEGIN_NODE:
			if (root_done)
				return fail(w, off, "a second root node");
			nl = str_len(w->sb + off + FDT_TAGSIZE, w->size - off - FDT_TAGSIZE);
			if (nl < 0)
				return fail(w, off, "node name runs past the end of the block");
			if (!depth && nl)
				return fail(w, off, "the root node has a name");
			/* unflatten_dt_nodes() stops at FDT_MAX_DEPTH too */
			if (++depth > FDT_VERIFY_MAX_DEPTH)
				return fail(w, off, "nodes nested deeper than %d levels",
					    FDT_VERIFY_MAX_DEPTH);
			next = tag_align(off + FDT_TAGSIZE + (uint32_t)nl + 1);
			break;
		case FDT_END_NODE:
			if (!depth)
				return fail(w, off, "end of a node that was never begun");
			if (!--depth)
				root_done = true;
			next = off + FDT_TAGSIZE;
			break;
		case FDT_PROP:
			if (!depth)
				return fail(w, off, "property outside any node");
			if (walk_prop(w, off, &next))
				return -FDT_ERR_BADSTRUCTURE;
			break;
		case FDT_NOP:
			next = off + FDT_TAGSIZE;
			break;
		case FDT_END:
			if (!root_done)
				return fail(w, off, depth ? "end of the block inside a node" :
						     "end of the block before any node");
			return 0;
		default:
			return fail(w, off, "unknown tag 0x%x", tag);
		}
		/* Every tag is at least 4 bytes: the walk always moves on. */
		off = next;
	}
	return fail(w, off, "no FDT_END tag before the end of the block");
}

int fdt_verify(const void *fdt, size_t len, char *why, size_t whylen)
{
	struct walk w = { .why = why, .whylen = whylen };
	uint32_t soff, ssize;
	int r;

	why[0] = '\0';
	if (len < sizeof(struct fdt_header) || fdt_totalsize(fdt) > len) {
		snprintf(why, whylen, "truncated");
		return -FDT_ERR_TRUNCATED;
	}
	/* Before 16 node names were full paths and tags aligned differently. */
	if (fdt_version(fdt) < 16) {
		snprintf(why, whylen, "version %u predates 16, not supported",
			 fdt_version(fdt));
		return -FDT_ERR_BADVERSION;
	}
	r = fdt_check_header(fdt);
	if (r) {
		snprintf(why, whylen, "header: %s", fdt_strerror(r));
		return r;
	}
	soff = fdt_off_dt_struct(fdt);
	/* Version 16 has no size_dt_struct: the block may reach the end. */
	ssize = fdt_version(fdt) >= 17 ? fdt_size_dt_struct(fdt) :
					 fdt_totalsize(fdt) - soff;
	if (soff > fdt_totalsize(fdt) || ssize > fdt_totalsize(fdt) - soff ||
	    fdt_off_dt_strings(fdt) > fdt_totalsize(fdt) ||
	    fdt_size_dt_strings(fdt) > fdt_totalsize(fdt) - fdt_off_dt_strings(fdt)) {
		snprintf(why, whylen, "header: blocks outside the blob");
		return -FDT_ERR_TRUNCATED;
	}
	w.sb = (const char *)fdt + soff;
	w.sboff = soff;
	w.size = ssize;
	w.strs = (const char *)fdt + fdt_off_dt_strings(fdt);
	w.strsize = fdt_size_dt_strings(fdt);
	return walk(&w);
}
