// SPDX-License-Identifier: GPL-2.0
/*
 * Data survives the bounce through the pool in every direction, for sizes
 * from 1 byte to the largest swiotlb mapping (256 KiB), at odd offsets of
 * the CPU buffer, for single buffers and scatterlists. The test driver
 * checks what the device would see: at map time the slot must hold the
 * CPU's data (bounce=ok: so a DMA_FROM_DEVICE slot never shows stale pool
 * content), and what the "device" writes into the slot must reach the
 * CPU buffer after sync and unmap (data=ok). The board's platform devices
 * have no min_align_mask, so swiotlb does not keep the buffer's offset in
 * the slot: 256 KiB at offset 4095 still takes exactly one 128-slot segment.
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

static const size_t sizes[] = { 1, 7, 511, 2048, 4095, 65537, 262144 };
static const size_t offsets[] = { 0, 1, 333, 4095 };
#define NSIZES		ARRAY_SIZE(sizes)
#define NOFFSETS	ARRAY_SIZE(offsets)
#define SG_NENTS	3
#define REUSE_SIZE	(64 * 1024)
#define REUSE_MAX	1024

static struct rdma_board board;

FIXTURE(bounce) {
	struct rdma_testdev t;
};

FIXTURE_VARIANT(bounce) {
	const char *dir;
};

FIXTURE_VARIANT_ADD(bounce, to) { .dir = "to" };
FIXTURE_VARIANT_ADD(bounce, from) { .dir = "from" };
FIXTURE_VARIANT_ADD(bounce, bidi) { .dir = "bidi" };

FIXTURE_SETUP(bounce)
{
	char why[256];

	ASSERT_EQ(0, rdma_testdev_open(&self->t, &board, false, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
}

FIXTURE_TEARDOWN(bounce)
{
	rdma_testdev_close(&self->t);
}

/* Run a command that must succeed and report key=ok; false otherwise. */
static bool cmd_ok(struct rdma_ctl *c, const char *key, const char *what)
{
	if (!rdma_ctl_cmd(c, "%s", what) && rdma_res_is(c->res, key, "ok"))
		return true;
	ksft_print_msg("%s: %s\n", what, c->res);
	return false;
}

/* map, sync for CPU, sync for device, unmap: every step must keep the data. */
TEST_F(bounce, single)
{
	int failed = 0;

	for (size_t s = 0; s < NSIZES; s++) {
		for (size_t o = 0; o < NOFFSETS; o++) {
			struct rdma_ctl *c = &self->t.ctl;
			char cmd[64];
			struct rdma_map m;
			bool ok;

			if (rdma_map(c, sizes[s], offsets[o], variant->dir, &m) ||
			    !m.inpool || !m.bounce_ok) {
				ksft_print_msg("map %zu %zu %s: %s\n", sizes[s], offsets[o],
					       variant->dir, c->res);
				failed++;
				continue;
			}
			snprintf(cmd, sizeof(cmd), "sync %d cpu", m.id);
			failed += !cmd_ok(c, "data", cmd);
			snprintf(cmd, sizeof(cmd), "sync %d device", m.id);
			failed += !cmd_ok(c, "data", cmd);
			if (rdma_unmap(c, m.id, &ok) || !ok) {
				ksft_print_msg("unmap of %zu bytes at offset %zu %s: %s\n",
					       sizes[s], offsets[o], variant->dir, c->res);
				failed++;
			}
		}
	}
	EXPECT_EQ(0, failed);
}

TEST_F(bounce, scatterlist)
{
	int failed = 0;

	for (size_t s = 0; s < NSIZES; s++) {
		for (size_t o = 0; o < NOFFSETS; o++) {
			struct rdma_ctl *c = &self->t.ctl;
			uint64_t id;
			char cmd[64];

			if (rdma_ctl_cmd(c, "map_sg %d %zu %zu %s", SG_NENTS, sizes[s], offsets[o],
					 variant->dir) ||
			    !rdma_res_is(c->res, "inpool", "1") || !rdma_res_is(c->res, "bounce", "ok") ||
			    rdma_res_u64(c->res, "id", &id)) {
				ksft_print_msg("map_sg %d %zu %zu %s: %s\n", SG_NENTS, sizes[s],
					       offsets[o], variant->dir, c->res);
				failed++;
				continue;
			}
			snprintf(cmd, sizeof(cmd), "unmap_sg %llu", (unsigned long long)id);
			failed += !cmd_ok(c, "data", cmd);
		}
	}
	EXPECT_EQ(0, failed);
}

/*
 * A slot reused for a new mapping holds the new buffer's data, not what
 * the device wrote there for the previous one: fill the pool, let the
 * "device" write every slot and unmap, then fill it again with this
 * direction. Every slot of the second round was used in the first.
 */
TEST_F(bounce, reused_slots_hold_no_stale_data)
{
	static struct rdma_map first[REUSE_MAX], second[REUSE_MAX];
	struct rdma_ctl *c = &self->t.ctl;
	int n1 = 0, n2 = 0, stale = 0, reused = 0;
	bool ok;

	while (n1 < REUSE_MAX && !rdma_map(c, REUSE_SIZE, 0, "bidi", &first[n1]))
		n1++;
	ASSERT_LT(0, n1);
	for (int i = 0; i < n1; i++) {
		ASSERT_EQ(0, rdma_unmap(c, first[i].id, &ok));	/* the device wrote */
		EXPECT_TRUE(ok);
	}
	while (n2 < REUSE_MAX && !rdma_map(c, REUSE_SIZE, 0, variant->dir, &second[n2])) {
		stale += !second[n2].bounce_ok;
		for (int i = 0; i < n1; i++)
			reused += first[i].dma == second[n2].dma;
		n2++;
	}
	EXPECT_EQ(n1, n2);
	EXPECT_EQ(n2, reused) TH_LOG("only %d of %d mappings reused a slot", reused, n2);
	EXPECT_EQ(0, stale) TH_LOG("%d mappings showed the device stale data", stale);
	for (int i = 0; i < n2; i++) {
		EXPECT_EQ(0, rdma_unmap(c, second[i].id, &ok));
		EXPECT_TRUE(ok);
	}
}

int main(int argc, char **argv)
{
	rdma_board_load(&board);
	return test_harness_run(argc, argv);
}
