// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-dtb.c - libFuzzer target for the binary input path: validation,
 * model building, every check and every output format. Every pool also
 * gets a --usage summary (failures on even pools, a high peak on odd
 * ones), so the suggestions re-lint each mutated tree with a new size.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "input.h"
#include "model.h"
#include "output.h"
#include "usage.h"
#include "util.h"

static void fake_usage(const struct model *m, struct usage *u)
{
	for (int i = 0; i < m->nrmem; i++) {
		const struct rmem *rm = &m->rmem[i];
		const char *name = strrchr(rm->path, '/');
		struct pool_use *pu;

		if (!rm->pool)
			continue;
		pu = array_push(&u->pools, &u->npools, sizeof(*pu));
		pu->name = xstrdup(name ? name + 1 : rm->path);
		pu->records = 1;
		pu->have_peak = pu->have_failures = true;
		pu->peak = rm->size - rm->size / 10;
		pu->largest = rm->size / 3;
		if (!(i & 1)) {
			pu->map_failures = 1;
			pu->fail_demand = rm->size + 4096;
			pu->frag_failures = i & 2;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct check_conf conf[64];
	static FILE *sink;
	/* the semantics with the most checks on: 6.1 */
	struct model_opts mo = { .kernel = KVER_6_1, .page_size = 0x1000 };
	struct usage u = { .file = (char *)"fuzz.json" };
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
	fake_usage(&m, &u);
	mo.usage = &u;
	fs.files = 1;
	l = (struct lint){ .m = &m, .in = &in, .conf = conf, .out = &fs };
	checks_run(&l);
	output_text(sink, &fs, false);
	output_json(sink, &fs, false);
	output_sarif(sink, &fs, false);
	findings_free(&fs);
	model_free(&m);
	input_free(&in);
	for (int i = 0; i < u.npools; i++)
		free(u.pools[i].name);
	free(u.pools);
	return 0;
}
