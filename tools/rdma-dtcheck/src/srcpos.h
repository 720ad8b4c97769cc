/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcpos.h - source positions of nodes and properties, read from the
 * annotations of "dtc -O dts -T -T" (file:line:col-line:col comments).
 */
#ifndef RDMA_DTCHECK_SRCPOS_H
#define RDMA_DTCHECK_SRCPOS_H

#include <stdio.h>

struct srcpos {
	const char *file;	/* interned in the map; NULL when dtc had none */
	int line;
	int col;
};

struct srcmap;

struct srcmap *srcmap_parse(FILE *annotated);
void srcmap_free(struct srcmap *m);

/*
 * Position of property @prop of node @path (the real path in the blob),
 * or of the node itself when @prop is NULL. NULL when unknown.
 */
const struct srcpos *srcmap_find(const struct srcmap *m, const char *path,
				 const char *prop);

/*
 * Read cpp's line markers in @pp (the preprocessed source) to learn where
 * each file was first included from.
 */
void srcmap_read_includes(struct srcmap *m, FILE *pp);

/*
 * The include chain of @file, innermost first: where it was included
 * from, where that file was, and so on up to the top-level file. Returns
 * the number of positions stored in @out (at most @max).
 */
int srcmap_chain(const struct srcmap *m, const char *file,
		 struct srcpos *out, int max);

#endif
