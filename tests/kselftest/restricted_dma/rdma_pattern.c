// SPDX-License-Identifier: GPL-2.0
#include "rdma_pattern.h"

uint64_t rdma_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void rdma_sector_fill(uint8_t *p, uint64_t sector, uint32_t gen)
{
	uint64_t *q = (uint64_t *)p;

	for (int i = 0; i < RDMA_SECTOR / 8; i++)
		q[i] = gen ? rdma_mix64(sector << 32 | (uint64_t)gen << 6 | i) : 0;
}

uint8_t rdma_stream_byte(uint64_t seed, uint64_t pos)
{
	return (uint8_t)(rdma_mix64(seed ^ (pos >> 3) << 8) >> ((pos & 7) * 8));
}

uint64_t rdma_fnv(uint64_t h, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}
