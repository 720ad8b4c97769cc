// SPDX-License-Identifier: GPL-2.0
/*
 * output-json.c - one JSON document: findings and what was examined.
 */
#include "checks.h"
#include "output.h"

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

void output_json(FILE *f, const struct findings *fs, bool quiet)
{
	const char *sep = "";
	int i;

	fprintf(f, "{\n  \"tool\": \"rdma-dtcheck\",\n  \"version\": \"%s\",\n  \"findings\": [",
		RDMA_DTCHECK_VERSION);
	for (i = 0; i < fs->n; i++) {
		const struct finding *fd = &fs->v[i];

		if (quiet && fd->sev == SEV_INFO)
			continue;
		fprintf(f, "%s\n    {\"check\": ", sep);
		json_str(f, check_table[fd->check].name);
		fprintf(f, ", \"severity\": \"%s\", \"input\": ", sev_name(fd->sev));
		json_str(f, fd->input_name);
		fputs(", \"file\": ", f);
		json_str(f, fd->file);
		if (fd->line > 0)
			fprintf(f, ", \"line\": %d, \"column\": %d", fd->line, fd->col);
		if (fd->nchain) {
			fputs(", \"included_from\": [", f);
			for (int k = 0; k < fd->nchain; k++) {
				fputs(k ? ", {\"file\": " : "{\"file\": ", f);
				json_str(f, fd->chain[k].file);
				fprintf(f, ", \"line\": %d}", fd->chain[k].line);
			}
			fputc(']', f);
		}
		fputs(", \"path\": ", f);
		json_str(f, fd->path);
		if (fd->prop) {
			fputs(", \"property\": ", f);
			json_str(f, fd->prop);
		}
		fputs(", \"message\": ", f);
		json_str(f, fd->msg);
		fputc('}', f);
		sep = ",";
	}
	fprintf(f, "%s],\n  \"summary\": {\"files\": %d, \"input_errors\": %d, \"pools\": %d, \"consumers\": %d, \"errors\": %d, \"warnings\": %d, \"infos\": %d}\n}\n",
		fs->n ? "\n  " : "", fs->files, fs->input_errors, fs->pools,
		fs->consumers, fs->count[SEV_ERROR], fs->count[SEV_WARNING],
		fs->count[SEV_INFO]);
}
