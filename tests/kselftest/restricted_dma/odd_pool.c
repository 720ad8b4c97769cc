// SPDX-License-Identifier: GPL-2.0
/*
 * A pool whose size is not a whole number of 256 KiB segments never hands
 * out memory at or past its end.
 *
 * The board's odd pool is 4 MiB + 64 KiB: sixteen 128-slot segments and a
 * partial one of 32 slots. Stock 6.1 starts slot 2048's free count at 128
 * (kernel/patches/0002), so a 256 KiB mapping could land on the last 64
 * KiB and run 192 KiB past the pool. Each case fills the pool with
 * mappings of one size until a map fails: every DMA range must lie inside
 * the pool, the fill must use the partial segment whenever a mapping fits
 * in it, and the number of mappings must be what the slot layout allows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_harness.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_stats.h"

#define SEGSIZE		128	/* IO_TLB_SEGSIZE: slots per segment */

static struct rdma_board board;

FIXTURE(odd) {
	struct rdma_testdev t;
	uint64_t nslabs;
};

FIXTURE_VARIANT(odd) {
	size_t size;
	size_t offset;
	bool exact;	/* a power-of-two slot count: the fill count is exact */
};

FIXTURE_VARIANT_ADD(odd, slot_2k) { .size = 2048, .offset = 0, .exact = true };
FIXTURE_VARIANT_ADD(odd, page_4k) { .size = 4096, .offset = 1, .exact = true };
FIXTURE_VARIANT_ADD(odd, odd_6k) { .size = 6144, .offset = 0, .exact = false };
FIXTURE_VARIANT_ADD(odd, seg_64k) { .size = 65536, .offset = 0, .exact = true };
FIXTURE_VARIANT_ADD(odd, max_256k) { .size = 262144, .offset = 0, .exact = true };

FIXTURE_SETUP(odd)
{
	char why[256];
	uint64_t used;

	ASSERT_EQ(0, rdma_testdev_open(&self->t, &board, true, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	ASSERT_EQ(0, rdma_pool_u64(self->t.pool->name, "io_tlb_nslabs", &self->nslabs));
	ASSERT_EQ(self->t.end - self->t.base, self->nslabs * RDMA_SLOT_SIZE);
	ASSERT_NE(0U, self->nslabs % SEGSIZE) {
		TH_LOG("pool %s has whole segments only: not an odd-size pool", self->t.pool->name);
	}
	ASSERT_EQ(0, rdma_pool_u64(self->t.pool->name, "io_tlb_used", &used));
	ASSERT_EQ(0U, used) TH_LOG("pool %s is not idle", self->t.pool->name);
}

FIXTURE_TEARDOWN(odd)
{
	rdma_testdev_close(&self->t);
}

TEST_F(odd, fill_stays_inside)
{
	const uint64_t k = (variant->size + RDMA_SLOT_SIZE - 1) / RDMA_SLOT_SIZE;
	const uint64_t tail = self->nslabs % SEGSIZE;
	const uint64_t tail_start = self->t.end - tail * RDMA_SLOT_SIZE;
	uint64_t highest = 0, outside = 0, bad = 0, used;
	struct rdma_map *maps;
	int n = 0, ret;

	maps = calloc(self->nslabs + 1, sizeof(*maps));
	ASSERT_NE(NULL, maps);
	for (;;) {
		struct rdma_map *m = &maps[n];

		ret = rdma_map(&self->t.ctl, variant->size, variant->offset, "to", m);
		if (ret)
			break;
		n++;
		if (m->dma < self->t.base || m->dma + variant->size > self->t.end) {
			if (!outside++)
				TH_LOG("map %d: dma 0x%llx + %zu outside 0x%llx-0x%llx", n,
				       (unsigned long long)m->dma, variant->size,
				       (unsigned long long)self->t.base,
				       (unsigned long long)self->t.end);
		}
		if (!m->inpool || !m->bounce_ok) {
			if (!bad++)
				TH_LOG("map %d: %s", n, self->t.ctl.res);
		}
		if (m->dma > highest)
			highest = m->dma;
		if ((uint64_t)n > self->nslabs)
			break;
	}
	TH_LOG("%zu-byte mappings: %d until full, highest dma 0x%llx, pool 0x%llx-0x%llx",
	       variant->size, n, (unsigned long long)highest,
	       (unsigned long long)self->t.base, (unsigned long long)self->t.end);
	EXPECT_EQ(-ENOMEM, ret) TH_LOG("the failing map: %s", self->t.ctl.res);
	EXPECT_EQ(0U, outside);
	EXPECT_EQ(0U, bad);
	if (variant->exact)
		EXPECT_EQ((self->nslabs / SEGSIZE) * (SEGSIZE / k) + tail / k, (uint64_t)n);
	if (k <= tail)
		EXPECT_LE(tail_start, highest) {
			TH_LOG("the fill never used the partial segment at 0x%llx",
			       (unsigned long long)tail_start);
		}

	for (int i = 0; i < n; i++) {
		bool ok;

		EXPECT_EQ(0, rdma_unmap(&self->t.ctl, maps[i].id, &ok));
	}
	free(maps);
	ASSERT_EQ(0, rdma_pool_u64(self->t.pool->name, "io_tlb_used", &used));
	EXPECT_EQ(0U, used);
}

int main(int argc, char **argv)
{
	rdma_board_load(&board);
	return test_harness_run(argc, argv);
}
