/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spawn.h - run a helper program (cpp, dtc) without a shell.
 */
#ifndef RDMA_DTCHECK_SPAWN_H
#define RDMA_DTCHECK_SPAWN_H

#include <stddef.h>

/*
 * Run argv[0] (searched in PATH) with stdin from @in_path (if not NULL),
 * stdout to @out_path and stderr
 * captured into @errbuf (NUL-terminated, truncated). Returns the exit
 * status, or -1 when the program could not be run.
 */
int spawn_run(char *const argv[], const char *in_path, const char *out_path,
	      char *errbuf,
	      size_t errlen);

#endif
