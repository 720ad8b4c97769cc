/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The non-interactive outputs. Each reads the model only; the screen is
 * in screen.h.
 */
#ifndef RDMATOP_OUTPUT_H
#define RDMATOP_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include "model.h"

/* -b: one plain-text block per interval. */
void out_batch(const struct rt_model *m, FILE *f, const char *filter);

/*
 * --json: one JSON object on one line per interval (keys: rdmatop.md).
 * RT_JSON_SCHEMA is its "schema" key, raised when a key changes meaning
 * or goes away (2: percentiles are bucket bounds, time has microseconds).
 */
#define RT_JSON_SCHEMA	2
void out_json(const struct rt_model *m, FILE *f, const char *filter);

/*
 * --prometheus: the text exposition format; prom_write replaces the file
 * whole (rename), without fsync().
 */
void prom_render(const struct rt_model *m, FILE *f);
int prom_write(const struct rt_model *m, const char *path, char *err, size_t errlen);

/*
 * --check: the verdict over the window. Prints one line per offending
 * device to @out (or one "ok" line) and returns the exit status. @signo:
 * the signal that cut the window short, 0 when it ran its course; a cut
 * window gives no "ok" (what it did not watch is not vouched for): the
 * failures seen in it, exit 1, or "no verdict" and 128 + @signo, as a
 * shell reports a command a signal ended.
 */
int check_verdict(const struct rt_model *m, bool failures_warn, double secs, int signo,
		  FILE *out);

#endif
