/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data the zoo tests write and check: every byte a function of where it
 * goes and of which write put it there, so a read that returns the wrong
 * sector, a stale one or a damaged one is caught.
 */
#ifndef RDMA_PATTERN_H
#define RDMA_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define RDMA_SECTOR	512

/* splitmix64's finalizer: a well-mixed 64-bit value from any input. */
uint64_t rdma_mix64(uint64_t x);

/* The contents of a sector for write generation gen; 0 is a new disk's zeros. */
void rdma_sector_fill(uint8_t *p, uint64_t sector, uint32_t gen);

/* Byte pos of the stream seed. */
uint8_t rdma_stream_byte(uint64_t seed, uint64_t pos);

/* FNV-1a over a buffer, continuing from h (start: RDMA_FNV_START). */
#define RDMA_FNV_START	0xcbf29ce484222325ULL
uint64_t rdma_fnv(uint64_t h, const uint8_t *p, size_t len);

#endif /* RDMA_PATTERN_H */
