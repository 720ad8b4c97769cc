/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diag.h - findings and the one helper that formats a diagnostic line.
 */
#ifndef RDMA_DTCHECK_DIAG_H
#define RDMA_DTCHECK_DIAG_H

#include <stdio.h>

enum severity {
	SEV_INFO = 1,
	SEV_WARNING,
	SEV_ERROR,
};

struct finding {
	int check;		/* index into check_table */
	enum severity sev;
	char *file;		/* source file, or the input name for blobs */
	int line, col;		/* 0 when unknown (binary input) */
	char *path;		/* logical node path */
	char *prop;		/* property, or NULL */
	char *msg;
	const void *obj;	/* model object it is about (prerequisites) */
	int input;		/* index of the input it came from */
	const char *input_name;	/* the top-level file given (owned by findings) */
	int nchain;		/* include chain of ->file, innermost first */
	struct incpos {
		char *file;
		int line;
	} *chain;
};

/* Everything one run found, plus what it examined. */
struct findings {
	struct finding *v;
	int n;
	int files;		/* inputs loaded */
	int pools;		/* restricted pools seen */
	int consumers;		/* nodes with memory-region */
	int input_errors;	/* inputs that could not be read */
	char **inputs;		/* names of the inputs, by index */
	int ninputs;
	int count[SEV_ERROR + 1];
};

const char *sev_name(enum severity s);

/* "file:line:col: severity: /path[:prop]: message [check]" */
void diag_format(FILE *f, const struct finding *fd);

void findings_free(struct findings *fs);

#endif
