// SPDX-License-Identifier: GPL-2.0
/*
 * Mapping until the pool is full fails cleanly and leaves the pool whole.
 *
 * The test device maps 256 KiB buffers (the largest swiotlb mapping, one
 * segment each) until a map fails. The failure must be an ordinary
 * -ENOMEM from dma_map_single(), counted once in map_failures and traced
 * once as swiotlb:swiotlb_map_failed naming the device and the pool;
 * every successful mapping must stay inside the pool. After the release
 * the pool is back where it was: io_tlb_used, free_run_max, and a new
 * mapping works. scripts/vm fails the run if the kernel complains.
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
#include "rdma_trace.h"

#define BIG		(256 * 1024)
#define MAX_MAPS	256
#define EVENT		"swiotlb/swiotlb_map_failed"

static struct rdma_board board;

FIXTURE(full) {
	struct rdma_testdev t;
	struct rdma_stats before;
};

FIXTURE_SETUP(full)
{
	char why[256];

	ASSERT_EQ(0, rdma_testdev_open(&self->t, &board, false, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &self->before));
}

FIXTURE_TEARDOWN(full)
{
	rdma_trace_stop(EVENT);
	rdma_testdev_close(&self->t);
}

TEST_F(full, map_until_full)
{
	const uint64_t free_slots = rdma_stat(&self->before, "nslabs") -
				    rdma_stat(&self->before, "used");
	char dev_needle[RDMA_NAME_LEN + 16], pool_needle[RDMA_NAME_LEN + 16];
	const char *needles[] = { dev_needle, pool_needle, "size=262144 ", NULL };
	struct rdma_map m[MAX_MAPS], again;
	struct rdma_stats full, after;
	int n = 0, ret, outside = 0;
	char *trace;
	bool ok;

	ASSERT_EQ(0, rdma_trace_start(EVENT));
	while (n < MAX_MAPS) {
		ret = rdma_map(&self->t.ctl, BIG, 0, "to", &m[n]);
		if (ret)
			break;
		outside += !m[n].inpool || m[n].dma < self->t.base ||
			   m[n].dma + BIG > self->t.end;
		n++;
	}
	rdma_trace_stop(EVENT);
	TH_LOG("%d mappings of 256 KiB until full; then: %s", n, self->t.ctl.res);
	ASSERT_EQ(-ENOMEM, ret);
	EXPECT_EQ(0, outside);
	/* The test pool is idle but for the test: whole free segments. */
	EXPECT_EQ(free_slots / 128, (uint64_t)n);

	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &full));
	EXPECT_EQ(1U, rdma_stat_delta(&self->before, &full, "map_failures"));
	EXPECT_EQ((uint64_t)n, rdma_stat_delta(&self->before, &full, "maps"));
	EXPECT_EQ(0U, rdma_stat(&full, "free_run_max") / 128) {
		TH_LOG("free_run_max %llu with the pool full",
		       (unsigned long long)rdma_stat(&full, "free_run_max"));
	}
	EXPECT_LE(rdma_stat(&full, "used_hiwater"), rdma_stat(&full, "nslabs"));
	EXPECT_LE((uint64_t)n * 128, rdma_stat(&full, "used_hiwater"));

	rdma_fmt(dev_needle, sizeof(dev_needle), "dev_name: %s ", self->t.dev->name);
	rdma_fmt(pool_needle, sizeof(pool_needle), "pool=%s ", self->t.pool->name);
	trace = rdma_trace_read();
	ASSERT_NE(NULL, trace);
	EXPECT_EQ(1, rdma_trace_count(trace, "swiotlb_map_failed", needles)) {
		TH_LOG("trace:\n%s", trace);
	}
	free(trace);

	for (int i = 0; i < n; i++) {
		EXPECT_EQ(0, rdma_unmap(&self->t.ctl, m[i].id, &ok));
		EXPECT_TRUE(ok);
	}
	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &after));
	EXPECT_EQ(rdma_stat(&self->before, "used"), rdma_stat(&after, "used"));
	EXPECT_EQ(rdma_stat(&self->before, "free_run_max"), rdma_stat(&after, "free_run_max"));
	EXPECT_EQ((uint64_t)n, rdma_stat_delta(&self->before, &after, "unmaps"));
	EXPECT_EQ(1U, rdma_stat_delta(&self->before, &after, "map_failures"));

	/* Whole again: the largest mapping fits. */
	ASSERT_EQ(0, rdma_map(&self->t.ctl, BIG, 0, "bidi", &again)) TH_LOG("%s", self->t.ctl.res);
	EXPECT_TRUE(again.bounce_ok);
	EXPECT_EQ(0, rdma_unmap(&self->t.ctl, again.id, &ok));
	EXPECT_TRUE(ok);
}

int main(int argc, char **argv)
{
	rdma_board_load(&board);
	return test_harness_run(argc, argv);
}
