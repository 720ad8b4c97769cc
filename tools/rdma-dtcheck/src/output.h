/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - the three report formats. All read the same findings.
 */
#ifndef RDMA_DTCHECK_OUTPUT_H
#define RDMA_DTCHECK_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "diag.h"

#define RDMA_DTCHECK_VERSION "0.2.0"

void output_text(FILE *f, const struct findings *fs, bool quiet);
void output_json(FILE *f, const struct findings *fs, bool quiet);
void output_sarif(FILE *f, const struct findings *fs, bool quiet);

/* JSON string (with quotes) for @s. */
void json_str(FILE *f, const char *s);

#endif
