// SPDX-License-Identifier: GPL-2.0
/*
 * phandle.c - is the model's phandle index worth keeping over libfdt's
 * fdt_node_offset_by_phandle()? For every phandle of every DTB given:
 * both answers must agree (phandle and linux,phandle alike), and each
 * lookup is timed both ways. Also times building the model, index
 * included. Usage: bench-phandle FILE.dtb...
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "input.h"
#include "model.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const struct model_opts mo = { .kernel = KVER_6_12, .page_size = 0x1000 };
	const struct input_opts io = { .dtc = "dtc", .cpp = "cpp" };
	double t_index = 0, t_libfdt = 0, t_build = 0, t0;
	long lookups = 0, wrong = 0, nodes = 0;
	volatile long sink = 0;
	int files = 0;

	for (int a = 1; a < argc; a++) {
		struct dt_input in;
		struct model m;
		char err[512];

		if (input_load(argv[a], &io, &in, err, sizeof(err))) {
			fprintf(stderr, "bench-phandle: %s\n", err);
			continue;
		}
		t0 = now();
		model_build(&m, in.blob, &mo);
		t_build += now() - t0;
		files++;
		nodes += m.nnodes;
		t0 = now();
		for (int i = 0; i < m.nphs; i++)
			sink += model_by_phandle(&m, m.phs[i].ph);
		t_index += now() - t0;
		t0 = now();
		for (int i = 0; i < m.nphs; i++)
			sink += fdt_node_offset_by_phandle(in.blob, m.phs[i].ph);
		t_libfdt += now() - t0;
		for (int i = 0; i < m.nphs; i++)
			if (model_by_phandle(&m, m.phs[i].ph) !=
			    fdt_node_offset_by_phandle(in.blob, m.phs[i].ph))
				wrong++;
		lookups += m.nphs;
		model_free(&m);
		input_free(&in);
	}
	if (!lookups)
		return 1;
	printf("%d files, %ld nodes, %ld phandles: lookup %.0f ns (index) vs %.0f ns (fdt_node_offset_by_phandle), %ld disagree; model build %.0f us a file\n",
	       files, nodes, lookups, t_index / (double)lookups * 1e9,
	       t_libfdt / (double)lookups * 1e9, wrong, t_build / files * 1e6);
	return wrong ? 1 : 0;
}
