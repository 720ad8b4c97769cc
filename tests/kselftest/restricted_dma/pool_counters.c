// SPDX-License-Identifier: GPL-2.0
/*
 * A pool's counters move exactly as the test driver's operations predict.
 *
 * What 6.1's swiotlb copies, and so counts (kernel/dma/swiotlb.c):
 * - map: the whole mapping into the slot, whatever the direction
 *   (swiotlb_tbl_map_single() bounces unconditionally so that a
 *   DMA_FROM_DEVICE slot never shows stale pool content): +S to device;
 * - unmap: back to the buffer for FROM_DEVICE and BIDIRECTIONAL: +S from;
 * - sync for CPU: from the slot for FROM_DEVICE and BIDIRECTIONAL;
 * - sync for device: into the slot for TO_DEVICE and BIDIRECTIONAL.
 * A mapping of S bytes takes ceil(S / 2 KiB) slots: the board's platform
 * devices have no min_align_mask, so the buffer's offset is not kept.
 * The test pool serves only the test device, so the deltas are exact.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "rdma_harness.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_stats.h"

#define NMAPS		8
#define SLOTS(size)	(((size) + RDMA_SLOT_SIZE - 1) / RDMA_SLOT_SIZE)

static struct rdma_board board;

static void read_stats(struct __test_metadata *_metadata, const struct rdma_testdev *t,
		       struct rdma_stats *s)
{
	ASSERT_EQ(0, rdma_stats_read(t->pool->name, s)) {
		TH_LOG("pool %s: stats unreadable or malformed", t->pool->name);
	}
}

static void open_testdev(struct __test_metadata *_metadata, struct rdma_testdev *t)
{
	char why[256];

	ASSERT_EQ(0, rdma_testdev_open(t, &board, false, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
}

FIXTURE(dir) {
	struct rdma_testdev t;
	struct rdma_stats before;
};

/* What each operation copies, in bytes per byte mapped. */
FIXTURE_VARIANT(dir) {
	const char *dir;
	size_t size;
	size_t offset;
	int unmap_from;		/* unmap: slot -> buffer */
	int sync_cpu_from;	/* sync cpu: slot -> buffer */
	int sync_device_to;	/* sync device: buffer -> slot */
};

FIXTURE_VARIANT_ADD(dir, to) {
	.dir = "to", .size = 4096, .offset = 0,
	.unmap_from = 0, .sync_cpu_from = 0, .sync_device_to = 1,
};

FIXTURE_VARIANT_ADD(dir, from) {
	.dir = "from", .size = 5000, .offset = 123,
	.unmap_from = 1, .sync_cpu_from = 1, .sync_device_to = 0,
};

FIXTURE_VARIANT_ADD(dir, bidi) {
	.dir = "bidi", .size = 777, .offset = 4095,
	.unmap_from = 1, .sync_cpu_from = 1, .sync_device_to = 1,
};

FIXTURE_SETUP(dir)
{
	open_testdev(_metadata, &self->t);
	read_stats(_metadata, &self->t, &self->before);
}

FIXTURE_TEARDOWN(dir)
{
	rdma_testdev_close(&self->t);
}

TEST_F(dir, map_unmap)
{
	const uint64_t n = NMAPS, s = variant->size;
	struct rdma_stats mapped, after;
	struct rdma_map m[NMAPS];
	uint64_t used;

	for (int i = 0; i < NMAPS; i++) {
		ASSERT_EQ(0, rdma_map(&self->t.ctl, s, variant->offset, variant->dir, &m[i])) {
			TH_LOG("map %zu %zu %s: %s", variant->size, variant->offset,
			       variant->dir, self->t.ctl.res);
		}
	}
	read_stats(_metadata, &self->t, &mapped);
	EXPECT_EQ(n, rdma_stat_delta(&self->before, &mapped, "maps"));
	EXPECT_EQ(0U, rdma_stat_delta(&self->before, &mapped, "unmaps"));
	EXPECT_EQ(n * s, rdma_stat_delta(&self->before, &mapped, "bytes_to_device"));
	EXPECT_EQ(0U, rdma_stat_delta(&self->before, &mapped, "bytes_from_device"));
	EXPECT_EQ(0U, rdma_stat_delta(&self->before, &mapped, "map_failures"));
	EXPECT_EQ(n * SLOTS(s), rdma_stat_delta(&self->before, &mapped, "used"));
	ASSERT_EQ(0, rdma_pool_u64(self->t.pool->name, "io_tlb_used", &used));
	EXPECT_EQ(rdma_stat(&mapped, "used"), used);

	for (int i = 0; i < NMAPS; i++) {
		bool ok;

		ASSERT_EQ(0, rdma_unmap(&self->t.ctl, m[i].id, &ok));
		EXPECT_TRUE(ok) TH_LOG("unmap %d: %s", m[i].id, self->t.ctl.res);
	}
	read_stats(_metadata, &self->t, &after);
	EXPECT_EQ(n, rdma_stat_delta(&self->before, &after, "unmaps"));
	EXPECT_EQ(n, rdma_stat_delta(&self->before, &after, "maps"));
	EXPECT_EQ(n * s, rdma_stat_delta(&self->before, &after, "bytes_to_device"));
	EXPECT_EQ(n * s * variant->unmap_from,
		  rdma_stat_delta(&self->before, &after, "bytes_from_device"));
	EXPECT_EQ(rdma_stat(&self->before, "used"), rdma_stat(&after, "used"));
	ASSERT_EQ(0, rdma_pool_u64(self->t.pool->name, "io_tlb_used", &used));
	EXPECT_EQ(rdma_stat(&self->before, "used"), used);
}

TEST_F(dir, sync)
{
	const uint64_t s = variant->size;
	struct rdma_stats a, b, c;
	struct rdma_map m;
	bool ok;

	ASSERT_EQ(0, rdma_map(&self->t.ctl, s, variant->offset, variant->dir, &m));
	read_stats(_metadata, &self->t, &a);

	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "sync %d cpu", m.id));
	EXPECT_TRUE(rdma_res_is(self->t.ctl.res, "data", "ok")) TH_LOG("%s", self->t.ctl.res);
	read_stats(_metadata, &self->t, &b);
	EXPECT_EQ(s * variant->sync_cpu_from, rdma_stat_delta(&a, &b, "bytes_from_device"));
	EXPECT_EQ(0U, rdma_stat_delta(&a, &b, "bytes_to_device"));

	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "sync %d device", m.id));
	EXPECT_TRUE(rdma_res_is(self->t.ctl.res, "data", "ok")) TH_LOG("%s", self->t.ctl.res);
	read_stats(_metadata, &self->t, &c);
	EXPECT_EQ(s * variant->sync_device_to, rdma_stat_delta(&b, &c, "bytes_to_device"));
	EXPECT_EQ(0U, rdma_stat_delta(&b, &c, "bytes_from_device"));
	EXPECT_EQ(0U, rdma_stat_delta(&a, &c, "maps"));

	ASSERT_EQ(0, rdma_unmap(&self->t.ctl, m.id, &ok));
	EXPECT_TRUE(ok) TH_LOG("%s", self->t.ctl.res);
}

FIXTURE(pool) {
	struct rdma_testdev t;
	struct rdma_stats before;
};

FIXTURE_SETUP(pool)
{
	open_testdev(_metadata, &self->t);
	read_stats(_metadata, &self->t, &self->before);
}

FIXTURE_TEARDOWN(pool)
{
	rdma_testdev_close(&self->t);
}

static uint64_t pool_value(struct __test_metadata *_metadata, const struct rdma_testdev *t,
			   const char *file)
{
	uint64_t v = UINT64_MAX;

	EXPECT_EQ(0, rdma_pool_u64(t->pool->name, file, &v)) TH_LOG("%s unreadable", file);
	return v;
}

#define BIG		(64 * 1024)
#define NBIG		4

/*
 * io_tlb_used_hiwater, as mainline has it since 6.5 (and the 6.1 backport
 * reproduces): the peak of io_tlb_used, exact; writing 0 resets it to 0,
 * whatever is in use, and the next mapping raises it to the use then.
 */
TEST_F(pool, hiwater)
{
	const char *name = self->t.pool->name;
	uint64_t used0, peak;
	struct rdma_map m[NBIG + 1];
	bool ok;

	ASSERT_EQ(0, rdma_pool_write(name, "io_tlb_used_hiwater", "0"));
	used0 = pool_value(_metadata, &self->t, "io_tlb_used");
	EXPECT_EQ(0U, pool_value(_metadata, &self->t, "io_tlb_used_hiwater"));

	for (int i = 0; i < NBIG; i++)
		ASSERT_EQ(0, rdma_map(&self->t.ctl, BIG, 0, "to", &m[i]));
	peak = used0 + NBIG * SLOTS(BIG);
	EXPECT_EQ(peak, pool_value(_metadata, &self->t, "io_tlb_used"));
	EXPECT_EQ(peak, pool_value(_metadata, &self->t, "io_tlb_used_hiwater"));

	/* Below the peak again: the peak stays. */
	ASSERT_EQ(0, rdma_unmap(&self->t.ctl, m[0].id, &ok));
	ASSERT_EQ(0, rdma_unmap(&self->t.ctl, m[1].id, &ok));
	ASSERT_EQ(0, rdma_map(&self->t.ctl, BIG, 0, "to", &m[NBIG]));
	EXPECT_EQ(peak - SLOTS(BIG), pool_value(_metadata, &self->t, "io_tlb_used"));
	EXPECT_EQ(peak, pool_value(_metadata, &self->t, "io_tlb_used_hiwater"));

	/* Only 0 resets; anything else is EINVAL and changes nothing. */
	EXPECT_EQ(-EINVAL, rdma_pool_write(name, "io_tlb_used_hiwater", "7"));
	EXPECT_EQ(-EINVAL, rdma_pool_write(name, "io_tlb_used_hiwater", "-1"));
	EXPECT_EQ(-EINVAL, rdma_pool_write(name, "io_tlb_used_hiwater", "zero"));
	EXPECT_EQ(peak, pool_value(_metadata, &self->t, "io_tlb_used_hiwater"));

	/* A reset with mappings held reads 0, not the use now... */
	ASSERT_EQ(0, rdma_pool_write(name, "io_tlb_used_hiwater", "0"));
	EXPECT_EQ(0U, pool_value(_metadata, &self->t, "io_tlb_used_hiwater"));
	EXPECT_EQ(peak - SLOTS(BIG), pool_value(_metadata, &self->t, "io_tlb_used"));

	/* ...and the next mapping raises it to the use after that mapping. */
	ASSERT_EQ(0, rdma_map(&self->t.ctl, BIG, 0, "to", &m[0]));
	EXPECT_EQ(peak, pool_value(_metadata, &self->t, "io_tlb_used_hiwater"));
	ASSERT_EQ(0, rdma_unmap(&self->t.ctl, m[0].id, &ok));
	for (int i = 2; i <= NBIG; i++)
		ASSERT_EQ(0, rdma_unmap(&self->t.ctl, m[i].id, &ok));
	EXPECT_EQ(used0, pool_value(_metadata, &self->t, "io_tlb_used"));
	EXPECT_EQ(peak, pool_value(_metadata, &self->t, "io_tlb_used_hiwater"));
}

/* Coherent memory from the pool: allocs, frees, alloc_failures. */
TEST_F(pool, alloc_free)
{
	const uint64_t size = 8192, too_big = 512 * 1024;
	struct rdma_stats a, b, c;
	uint64_t id, dma, inpool;

	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "alloc %llu", (unsigned long long)size)) {
		TH_LOG("alloc: %s", self->t.ctl.res);
	}
	ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "id", &id));
	ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "dma", &dma));
	ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "inpool", &inpool));
	EXPECT_EQ(1U, inpool) TH_LOG("%s", self->t.ctl.res);
	read_stats(_metadata, &self->t, &a);
	EXPECT_EQ(1U, rdma_stat_delta(&self->before, &a, "allocs"));
	EXPECT_EQ(0U, rdma_stat_delta(&self->before, &a, "frees"));
	EXPECT_EQ(SLOTS(size), rdma_stat_delta(&self->before, &a, "used"));
	EXPECT_EQ(0U, rdma_stat_delta(&self->before, &a, "maps"));

	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "free %llu", (unsigned long long)id));
	read_stats(_metadata, &self->t, &b);
	EXPECT_EQ(1U, rdma_stat_delta(&a, &b, "frees"));
	EXPECT_EQ(rdma_stat(&self->before, "used"), rdma_stat(&b, "used"));

	/* More than one 128-slot segment can never be served. */
	EXPECT_EQ(-ENOMEM, rdma_ctl_cmd(&self->t.ctl, "alloc %llu", (unsigned long long)too_big)) {
		TH_LOG("alloc %llu: %s", (unsigned long long)too_big, self->t.ctl.res);
	}
	read_stats(_metadata, &self->t, &c);
	EXPECT_EQ(1U, rdma_stat_delta(&b, &c, "alloc_failures"));
	EXPECT_EQ(0U, rdma_stat_delta(&b, &c, "allocs"));
	EXPECT_EQ(rdma_stat(&self->before, "used"), rdma_stat(&c, "used"));
}

int main(int argc, char **argv)
{
	rdma_board_load(&board);
	return test_harness_run(argc, argv);
}
