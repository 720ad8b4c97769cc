// SPDX-License-Identifier: GPL-2.0
/*
 * output-text.c - gcc/dtc style lines and a closing summary.
 */
#include "output.h"

void output_text(FILE *f, const struct findings *fs, bool quiet)
{
	int i;

	for (i = 0; i < fs->n; i++)
		if (!quiet || fs->v[i].sev > SEV_INFO)
			diag_format(f, &fs->v[i]);
	if (quiet)
		return;
	fprintf(f, "rdma-dtcheck: examined %d file%s, %d restricted pool%s, %d consumer%s: %d error%s, %d warning%s, %d info\n",
		fs->files, fs->files == 1 ? "" : "s",
		fs->pools, fs->pools == 1 ? "" : "s",
		fs->consumers, fs->consumers == 1 ? "" : "s",
		fs->count[SEV_ERROR], fs->count[SEV_ERROR] == 1 ? "" : "s",
		fs->count[SEV_WARNING], fs->count[SEV_WARNING] == 1 ? "" : "s",
		fs->count[SEV_INFO]);
}
