// SPDX-License-Identifier: GPL-2.0
/*
 * Coherent allocations of a device with a restricted pool come from that
 * pool: a virtio disk's virtqueues are allocated at probe and live as long
 * as the driver, so at idle its pool still holds slots.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../kselftest.h"
#include "rdma_board.h"

/* Whether the layout puts a disk behind this pool. */
static bool pool_has_disk(const struct rdma_board *b, const char *pool)
{
	for (int i = 0; i < b->ndevices; i++)
		if (!strcmp(b->devices[i].pool, pool) && !strcmp(b->devices[i].role, "blk"))
			return true;
	return false;
}

static void check_pool(const char *pool)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	uint64_t used;
	bool misplaced;

	if (rdma_pool_debugfs(pool, dir, sizeof(dir), &misplaced)) {
		ksft_test_result_fail("pool %s: debugfs directory\n", pool);
		return;
	}
	rdma_fmt(path, sizeof(path), "%s/io_tlb_used", dir);
	if (rdma_read_u64(path, &used)) {
		ksft_test_result_fail("pool %s: io_tlb_used readable\n", pool);
		return;
	}
	ksft_print_msg("pool %s: io_tlb_used %llu at idle\n", pool, (unsigned long long)used);
	ksft_test_result(used > 0, "pool %s: holds its disk's virtqueues at idle\n", pool);
}

int main(void)
{
	struct rdma_board b;
	int ndisk = 0;

	ksft_print_header();
	rdma_board_load(&b);
	for (int i = 0; i < b.npools; i++)
		ndisk += pool_has_disk(&b, b.pools[i].name);
	if (!ndisk)
		ksft_exit_skip("the layout lists no disk behind a restricted pool\n");

	ksft_set_plan(ndisk);
	for (int i = 0; i < b.npools; i++)
		if (pool_has_disk(&b, b.pools[i].name))
			check_pool(b.pools[i].name);
	ksft_finished();
}
