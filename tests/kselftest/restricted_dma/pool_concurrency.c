// SPDX-License-Identifier: GPL-2.0
/*
 * Several threads mapping and unmapping at once leave the pool as they
 * found it. Each thread has its own control handle (the test driver keeps
 * one result per open file) and for a few seconds maps buffers of varying
 * size, direction and offset, holding a few at a time, and unmaps them.
 * With 2 vCPUs the pool's lock and its per-CPU counters are contended.
 * Afterwards io_tlb_used is back at its start, maps and unmaps moved by
 * the same amount, which is the number of mappings the threads made, and
 * every mapping stayed in the pool with its data intact.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rdma_harness.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_stats.h"

#define NTHREADS	4
#define HOLD		4	/* mappings a thread holds at once */
#define SECONDS		4

static struct rdma_board board;

struct worker {
	pthread_t thread;
	const char *dev;
	unsigned int seed;
	long maps, unmaps, failures, bad;
	int open_error;
};

static void *work(void *arg)
{
	static const char *const dirs[] = { "to", "from", "bidi" };
	struct worker *w = arg;
	struct rdma_map held[HOLD];
	double end = rdma_now() + SECONDS;
	struct rdma_ctl c;
	int nheld = 0;
	bool ok;

	w->open_error = rdma_ctl_open(&c, w->dev);
	if (w->open_error)
		return NULL;
	while (rdma_now() < end || nheld) {
		if (nheld < HOLD && rdma_now() < end) {
			size_t size = 1 + rand_r(&w->seed) % (64 * 1024);
			size_t offset = rand_r(&w->seed) % 4096;
			const char *dir = dirs[rand_r(&w->seed) % 3];

			if (rdma_map(&c, size, offset, dir, &held[nheld])) {
				w->failures++;
			} else {
				w->maps++;
				w->bad += !held[nheld].inpool || !held[nheld].bounce_ok;
				nheld++;
			}
			if (nheld < HOLD && rand_r(&w->seed) % 2)
				continue;
		}
		if (nheld) {
			nheld--;
			if (rdma_unmap(&c, held[nheld].id, &ok))
				w->bad++;
			else
				w->unmaps++;
			w->bad += !ok;
		}
	}
	rdma_ctl_close(&c);
	return NULL;
}

FIXTURE(threads) {
	struct rdma_testdev t;
};

FIXTURE_SETUP(threads)
{
	char why[256];

	ASSERT_EQ(0, rdma_testdev_open(&self->t, &board, false, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
}

FIXTURE_TEARDOWN(threads)
{
	rdma_testdev_close(&self->t);
}

TEST_F_TIMEOUT(threads, map_unmap_in_parallel, 60)
{
	struct worker w[NTHREADS] = {};
	struct rdma_stats before, after;
	long maps = 0, unmaps = 0, failures = 0, bad = 0;

	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &before));
	for (int i = 0; i < NTHREADS; i++) {
		w[i].dev = self->t.dev->name;
		w[i].seed = 1000 + i;
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, work, &w[i]));
	}
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(w[i].thread, NULL);
		EXPECT_EQ(0, w[i].open_error);
		maps += w[i].maps;
		unmaps += w[i].unmaps;
		failures += w[i].failures;
		bad += w[i].bad;
	}
	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &after));
	TH_LOG("%d threads, %d s: %ld maps, %ld unmaps, %ld failed maps", NTHREADS, SECONDS,
	       maps, unmaps, failures);

	EXPECT_LT(NTHREADS * 10, maps) TH_LOG("too few mappings to mean anything");
	EXPECT_EQ(maps, unmaps);
	EXPECT_EQ(0, bad) TH_LOG("mappings outside the pool or with bad data");
	EXPECT_EQ(rdma_stat(&before, "used"), rdma_stat(&after, "used"));
	EXPECT_EQ(rdma_stat_delta(&before, &after, "maps"),
		  rdma_stat_delta(&before, &after, "unmaps"));
	EXPECT_EQ((uint64_t)maps, rdma_stat_delta(&before, &after, "maps"));
	EXPECT_EQ((uint64_t)failures, rdma_stat_delta(&before, &after, "map_failures"));
}

int main(int argc, char **argv)
{
	rdma_board_load(&board);
	return test_harness_run(argc, argv);
}
