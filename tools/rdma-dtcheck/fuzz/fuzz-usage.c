// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-usage.c - libFuzzer target for --usage: rdmatop records, line by
 * line, through the JSON reader into the per-pool summary and the size
 * suggestion.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "usage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;
	struct usage u = { 0 };
	char err[256];

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (usage_add_record(&u, s, len, err, sizeof(err)))
			break;
		s += len + 1;
	}
	for (int i = 0; i < u.npools; i++)
		(void)usage_suggest(&u.pools[i], u.pools[i].size);
	usage_free(&u);
	return 0;
}
