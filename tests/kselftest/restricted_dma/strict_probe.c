// SPDX-License-Identifier: GPL-2.0
/*
 * Strict restricted DMA at probe (kernel/patches/0007): with
 * restricted_dma=strict, a device whose device tree names a restricted
 * pool that cannot be set up must not probe, rather than run with DMA to
 * all of memory. strict-board.dtso adds such a device, dma-test-nomap,
 * whose pool has no-map (6.1 rejects that pool). This needs its own boot:
 *
 *   scripts/vm --append restricted_dma=strict \
 *     --dtso tests/kselftest/restricted_dma/strict-board.dtso \
 *     -- /kselftest/run_kselftest.sh -t restricted_dma:strict_probe
 *
 * Without restricted_dma=strict on the command line the test skips; with
 * it, a missing dma-test-nomap is a failure (the overlay was not applied).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_stats.h"

#define STRICT		"restricted_dma=strict"
#define NOMAP_DEV	"dma-test-nomap"

static bool has_driver(const char *devname)
{
	char path[PATH_MAX];

	rdma_fmt(path, sizeof(path), "/sys/bus/platform/devices/%s/driver", devname);
	return !access(path, F_OK);
}

static void check_refused(void)
{
	char needle[RDMA_NAME_LEN + 128], *log;
	int ret = rdma_drv_bind(NOMAP_DEV);

	ksft_print_msg("binding %s to %s: %s\n", RDMA_TEST_DRIVER, NOMAP_DEV,
		       ret ? strerror(-ret) : "bound");
	ksft_test_result(ret && !has_driver(NOMAP_DEV),
			 "%s: a device whose pool cannot be set up does not probe\n", NOMAP_DEV);
	rdma_drv_unbind(NOMAP_DEV);

	log = rdma_kernel_log();
	rdma_fmt(needle, sizeof(needle),
		 " %s: failed to initialise \"restricted-dma-pool\" memory node (", NOMAP_DEV);
	ksft_test_result(log && strstr(log, needle) && strstr(log, "refusing unrestricted DMA"),
			 "%s: the kernel log says why\n", NOMAP_DEV);
	free(log);
}

/* The board's own test device still works, and its pool starts strict. */
static void check_board_device(const struct rdma_board *b)
{
	char why[256], path[PATH_MAX], *strict = NULL;
	struct rdma_testdev t;
	struct rdma_map m;
	bool ok = false;

	if (!rdma_testdev_open(&t, b, false, why, sizeof(why))) {
		ok = !rdma_map(&t.ctl, 4096, 0, "bidi", &m) && m.inpool && m.bounce_ok;
		if (!rdma_pool_file(t.pool->name, "strict", path, sizeof(path)))
			strict = rdma_read_file(path, NULL);
		rdma_testdev_close(&t);
	} else {
		ksft_print_msg("%s\n", why);
	}
	ksft_test_result(ok, "the board's test device maps through its pool in strict mode\n");
	ksft_test_result(strict && !strcmp(strict, "Y\n"),
			 "restricted_dma=strict makes the pool's strict knob Y\n");
	free(strict);
}

int main(void)
{
	struct rdma_board b;
	char path[PATH_MAX];

	ksft_print_header();
	if (!rdma_cmdline_has(STRICT))
		ksft_exit_skip("needs %s and strict-board.dtso: a boot of its own (see the source)\n",
			       STRICT);
	rdma_board_load(&b);
	ksft_set_plan(5);

	rdma_fmt(path, sizeof(path), "/sys/bus/platform/devices/%s", NOMAP_DEV);
	ksft_test_result(!access(path, F_OK), "%s exists (strict-board.dtso applied)\n",
			 NOMAP_DEV);
	check_refused();
	check_board_device(&b);
	ksft_finished();
}
