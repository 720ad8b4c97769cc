// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-dtb.c - libFuzzer target for the binary input path: validation,
 * model building, every check and every output format.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "input.h"
#include "model.h"
#include "output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct check_conf conf[64];
	static FILE *sink;
	/* the semantics with the most checks on: 6.1 */
	static const struct model_opts mo = { .kernel = KVER_6_1, .page_size = 0x1000 };
	struct findings fs = { 0 };
	struct dt_input in;
	struct model m;
	struct lint l;
	char err[512];

	if (!sink) {
		sink = fopen("/dev/null", "w");
		check_conf_init(conf);
		/* Run the off-by-default checks too. */
		for (int i = 0; i < check_count; i++)
			conf[i].enabled = true;
	}
	if (input_from_memory("fuzz", data, size, &in, err, sizeof(err)))
		return 0;
	model_build(&m, in.blob, &mo);
	fs.files = 1;
	l = (struct lint){ .m = &m, .in = &in, .conf = conf, .out = &fs };
	checks_run(&l);
	output_text(sink, &fs, false);
	output_json(sink, &fs, false);
	output_sarif(sink, &fs, false);
	findings_free(&fs);
	model_free(&m);
	input_free(&in);
	return 0;
}
