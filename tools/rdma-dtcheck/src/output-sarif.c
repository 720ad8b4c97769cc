// SPDX-License-Identifier: GPL-2.0
/*
 * output-sarif.c - SARIF 2.1.0 for code-scanning services: one run, one
 * rule per check, one result per finding.
 */
#include <string.h>

#include "checks.h"
#include "output.h"

static const char *level(enum severity s)
{
	return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "note";
}

/* artifactLocation.uri: a relative URI reference, percent-encoded. */
static void uri(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || strchr("-._~/", ch))
			fputc(ch, f);
		else
			fprintf(f, "%%%02X", ch);
	}
	fputc('"', f);
}

static void rules(FILE *f)
{
	int i;

	for (i = 0; i < check_count; i++) {
		const struct check *c = &check_table[i];

		fprintf(f, "%s\n        {\"id\": ", i ? "," : "");
		json_str(f, c->name);
		fputs(", \"name\": ", f);
		json_str(f, c->name);
		fputs(", \"shortDescription\": {\"text\": ", f);
		json_str(f, c->summary);
		fprintf(f, "}, \"help\": {\"text\": \"See rdma-dtcheck(1) and Documentation/rdma-dtcheck.md, section %s.\"}",
			c->name);
		fprintf(f, ", \"defaultConfiguration\": {\"level\": \"%s\"}}",
			level(c->sev));
	}
}

/* The include chain as relatedLocations, innermost first. */
static void related(FILE *f, const struct finding *fd)
{
	if (!fd->nchain)
		return;
	fputs(", \"relatedLocations\": [", f);
	for (int k = 0; k < fd->nchain; k++) {
		fprintf(f, "%s{\"id\": %d, \"message\": {\"text\": \"included from here\"}, \"physicalLocation\": {\"artifactLocation\": {\"uri\": ",
			k ? ", " : "", k);
		uri(f, fd->chain[k].file);
		fprintf(f, "}, \"region\": {\"startLine\": %d}}}",
			fd->chain[k].line > 0 ? fd->chain[k].line : 1);
	}
	fputc(']', f);
}

void output_sarif(FILE *f, const struct findings *fs, bool quiet)
{
	const char *sep = "";
	int i;

	fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	      "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n"
	      "      \"tool\": {\"driver\": {\"name\": \"rdma-dtcheck\", ", f);
	fprintf(f, "\"version\": \"%s\", \"semanticVersion\": \"%s\", \"rules\": [",
		RDMA_DTCHECK_VERSION, RDMA_DTCHECK_VERSION);
	rules(f);
	fputs("\n      ]}},\n      \"results\": [", f);
	for (i = 0; i < fs->n; i++) {
		const struct finding *fd = &fs->v[i];

		if (quiet && fd->sev == SEV_INFO)
			continue;
		fprintf(f, "%s\n        {\"ruleId\": ", sep);
		json_str(f, check_table[fd->check].name);
		fprintf(f, ", \"ruleIndex\": %d, \"level\": \"%s\", \"message\": {\"text\": ",
			fd->check, level(fd->sev));
		json_str(f, fd->msg);
		fputs("}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", f);
		uri(f, fd->file);
		fputc('}', f);
		if (fd->line > 0)
			fprintf(f, ", \"region\": {\"startLine\": %d, \"startColumn\": %d}",
				fd->line, fd->col > 0 ? fd->col : 1);
		fputs("}, \"logicalLocations\": [{\"fullyQualifiedName\": ", f);
		json_str(f, fd->path);
		fputs(", \"kind\": \"object\"}]}]", f);
		related(f, fd);
		fputs(", \"properties\": {\"input\": ", f);
		json_str(f, fd->input_name);
		fputs("}}", f);
		sep = ",";
	}
	fprintf(f, "\n      ],\n      \"properties\": {\"files\": %d, \"inputErrors\": %d, \"pools\": %d, \"consumers\": %d}\n    }\n  ]\n}\n",
		fs->files, fs->input_errors, fs->pools, fs->consumers);
}
