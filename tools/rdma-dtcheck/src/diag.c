// SPDX-License-Identifier: GPL-2.0
/*
 * diag.c - diagnostic formatting shared by every check.
 */
#include <stdlib.h>

#include "checks.h"
#include "diag.h"

const char *sev_name(enum severity s)
{
	switch (s) {
	case SEV_ERROR:
		return "error";
	case SEV_WARNING:
		return "warning";
	default:
		return "info";
	}
}

void diag_format(FILE *f, const struct finding *fd)
{
	/* as gcc does: "In file included from a.dtsi:3,\n from b.dts:6:" */
	for (int i = 0; i < fd->nchain; i++)
		fprintf(f, "%s %s:%d%s\n", i ? "                 from" :
			"In file included from", fd->chain[i].file,
			fd->chain[i].line, i + 1 < fd->nchain ? "," : ":");
	if (fd->line > 0)
		fprintf(f, "%s:%d:%d: ", fd->file, fd->line, fd->col > 0 ? fd->col : 1);
	else
		fprintf(f, "%s: ", fd->file);
	fprintf(f, "%s: %s%s%s: %s [%s]\n", sev_name(fd->sev), fd->path,
		fd->prop ? ":" : "", fd->prop ? fd->prop : "", fd->msg,
		check_table[fd->check].name);
}

void findings_free(struct findings *fs)
{
	int i;

	for (i = 0; i < fs->n; i++) {
		free(fs->v[i].file);
		free(fs->v[i].path);
		free(fs->v[i].prop);
		free(fs->v[i].msg);
		for (int k = 0; k < fs->v[i].nchain; k++)
			free(fs->v[i].chain[k].file);
		free(fs->v[i].chain);
	}
	for (i = 0; i < fs->ninputs; i++)
		free(fs->inputs[i]);
	free(fs->inputs);
	fs->inputs = NULL;
	fs->ninputs = 0;
	free(fs->v);
	fs->v = NULL;
	fs->n = 0;
}
