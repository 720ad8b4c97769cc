/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line options. */
#ifndef RDMATOP_OPTIONS_H
#define RDMATOP_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>
#include "model.h"

enum rt_mode {
	RT_MODE_SCREEN,		/* ncurses, the default on a terminal */
	RT_MODE_BATCH,		/* plain text for logs */
	RT_MODE_JSON,		/* NDJSON, one object per interval */
	RT_MODE_CHECK,		/* a verdict, exit 0 or 1 */
	RT_MODE_QUIET,		/* only --prometheus */
};

/* Exit statuses. */
enum {
	RT_EXIT_OK = 0,
	RT_EXIT_CHECK_FAILED = 1,
	RT_EXIT_SETUP = 2,	/* usage or setup errors */
};

struct rt_opts {
	enum rt_mode mode;
	double delay;		/* seconds between intervals */
	long iterations;	/* 0: until stopped */
	double duration;	/* --check window in seconds */
	const char *prometheus;	/* textfile to write every interval */
	const char *filter;	/* device or pool name substring */
	enum rt_sort sort;
	bool reverse;
	bool failures_warn;	/* --check: pool failures do not fail */
	bool no_bpf;		/* debugfs only */
	bool restricted_only;	/* trace devices with a restricted pool only */
	bool self;		/* --self: rdmatop's own cost (BPF statistics) */
	int verbose;
	bool help;
	bool version;
};

/*
 * options_parse - fill @o from argv
 * @tty: stdout is a terminal (the default mode is then the screen)
 * @err: where a usage error goes
 *
 * Returns 0, or RT_EXIT_SETUP after printing one line to @err.
 */
int options_parse(struct rt_opts *o, int argc, char **argv, bool tty, FILE *err);
void options_usage(FILE *out);

#endif
