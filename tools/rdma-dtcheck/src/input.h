/* SPDX-License-Identifier: GPL-2.0 */
/*
 * input.h - turn a command-line argument into a validated flattened tree.
 */
#ifndef RDMA_DTCHECK_INPUT_H
#define RDMA_DTCHECK_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "srcpos.h"

struct input_opts {
	const char **incdirs;	/* -I directories, passed to cpp and dtc */
	int nincdirs;
	bool no_cpp;		/* feed .dts to dtc without preprocessing */
	const char *dtc;	/* dtc binary ("dtc") */
	const char *cpp;	/* cpp binary ("cpp") */
};

struct overlay_map;

struct dt_input {
	char *name;		/* as given; "<stdin>" for "-" */
	void *blob;		/* validated with fdt_check_full() */
	size_t size;
	struct srcmap *src;	/* positions; NULL for binary input */
	struct overlay_map *map;	/* --base: blob is base + this overlay */
};

/*
 * Load @arg (a path or "-"). Binary trees are recognised by their magic,
 * anything else is compiled as source. Returns 0, or -1 with a message in
 * @err.
 */
int input_load(const char *arg, const struct input_opts *o,
	       struct dt_input *in, char *err, size_t errlen);

/* Validate a binary tree held in memory; takes a private copy. */
int input_from_memory(const char *name, const void *data, size_t len,
		      struct dt_input *in, char *err, size_t errlen);

void input_free(struct dt_input *in);

#endif
