// SPDX-License-Identifier: GPL-2.0
/*
 * The test driver's control file takes sizes, offsets and counts from user
 * space: every malformed or out-of-range command must fail with EINVAL
 * before anything is allocated or mapped, and leave the device usable.
 * A command whose size plus offset wraps (map 0xfffffffffffffff8 16 to)
 * once allocated 8 bytes and filled far past them: on such a kernel this
 * test brings the board down (scripts/vm reports the oops).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../kselftest.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_stats.h"

static const char *const bad[] = {
	"map 0xfffffffffffffff8 16 to",		/* size + offset wraps */
	"map 0xffffffffffffffff 0 to",		/* larger than kmalloc gives */
	"map 0x80000000 0 to",
	"map 4096 4096 to",			/* offset past the page */
	"map 0 0 to",
	"map 4096 0 sideways",
	"map 4096 0",
	"map_sg 4294967297 16 0 to",		/* 2^32 + 1 entries: an int of 1 */
	"map_sg 33 16 0 to",
	"map_sg 0 16 0 to",
	"map_sg 2 0xfffffffffffffff0 32 bidi",
	"alloc 0",
	"alloc 0xffffffffffffffff",
	"alloc 0x100000000",
	"map_resource 0x9000000 0 to",
	"unmap not-a-number",
	"sync 1",
	"frobnicate 1 2 3",
	"   ",					/* nothing but blanks */
};
#define NBAD	ARRAY_SIZE(bad)

int main(void)
{
	const struct rdma_device *dev;
	struct rdma_testdev t;
	struct rdma_stats before, after;
	struct rdma_board b;
	struct rdma_map m;
	bool ok;

	ksft_print_header();
	rdma_board_load(&b);
	ksft_set_plan(NBAD + 2);
	dev = rdma_board_test_device(&b, false);
	if (!dev || rdma_testdev_open(&t, &b, false, NULL, 0))
		ksft_exit_fail_msg("cannot drive the test device\n");
	if (rdma_stats_read(t.pool->name, &before))
		ksft_exit_fail_msg("cannot read the stats of %s\n", t.pool->name);

	for (size_t i = 0; i < NBAD; i++) {
		int ret = rdma_ctl_cmd(&t.ctl, "%s", bad[i]);

		ksft_test_result(ret == -EINVAL, "driver refuses \"%s\" with EINVAL (got %d: %s)\n",
				 bad[i], ret, t.ctl.res);
	}

	/* Nothing was mapped or allocated, and the device still works. */
	ok = !rdma_stats_read(t.pool->name, &after) &&
	     rdma_stat_delta(&before, &after, "maps") == 0 &&
	     rdma_stat_delta(&before, &after, "allocs") == 0 &&
	     rdma_stat(&before, "used") == rdma_stat(&after, "used");
	ksft_test_result(ok, "refused commands mapped and allocated nothing\n");
	ok = !rdma_map(&t.ctl, 4096, 8, "bidi", &m) && m.inpool && m.bounce_ok &&
	     !rdma_unmap(&t.ctl, m.id, &ok) && ok;
	ksft_test_result(ok, "device maps and unmaps after the refused commands\n");
	rdma_testdev_close(&t);
	ksft_finished();
}
