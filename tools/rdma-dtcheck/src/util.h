/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - allocation and cell helpers shared by every rdma-dtcheck file.
 */
#ifndef RDMA_DTCHECK_UTIL_H
#define RDMA_DTCHECK_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define SZ_2K	0x800ULL
#define SZ_4K	0x1000ULL
#define SZ_256K	0x40000ULL

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *arr (element size @elsz) so that index *n is valid; returns it. */
void *array_push(void *arrp, int *n, size_t elsz);

/*
 * Parse a size or address: decimal or 0x hex, optional K/M/G/T suffix
 * (binary units). Returns 0, or -1 if @s is not one.
 */
int parse_size(const char *s, uint64_t *out);

/* Read @cells big-endian 32-bit cells as one number (cells > 2 keep the low 64 bits). */
uint64_t cells_read(const void *p, int cells);

#endif
