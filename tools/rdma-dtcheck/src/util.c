// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - allocation helpers that never return NULL, and cell decoding.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void oom(void)
{
	fputs("rdma-dtcheck: out of memory\n", stderr);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		oom();
	return d;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (!d)
		oom();
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom();
	va_end(ap);
	return s;
}

void *array_push(void *arrp, int *n, size_t elsz)
{
	void **arr = arrp;
	char *base;

	/* Grow by doubling; capacity is implied by powers of two of *n. */
	if ((*n & (*n - 1)) == 0 || *n == 0) {
		size_t cap = *n ? (size_t)*n * 2 : 4;

		*arr = xrealloc(*arr, cap * elsz);
	}
	base = *arr;
	memset(base + (size_t)*n * elsz, 0, elsz);
	return base + (size_t)(*n)++ * elsz;
}

uint64_t cells_read(const void *p, int cells)
{
	const uint8_t *b = p;
	uint64_t v = 0;
	int i;

	for (i = 0; i < cells; i++, b += 4)
		v = (v << 32) | ((uint64_t)b[0] << 24 | (uint64_t)b[1] << 16 |
				 (uint64_t)b[2] << 8 | b[3]);
	return v;
}

int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	int shift = 0;
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'T': case 't': shift += 10; /* fall through */
	case 'G': case 'g': shift += 10; /* fall through */
	case 'M': case 'm': shift += 10; /* fall through */
	case 'K': case 'k': shift += 10;
		end++;
		break;
	}
	if (*end == 'i' || *end == 'B')
		end += *end == 'i' && end[1] == 'B' ? 2 : 1;
	if (*end || (shift && v > (~0ULL >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}
