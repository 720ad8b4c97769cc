// SPDX-License-Identifier: GPL-2.0
/*
 * Strict restricted DMA at probe (kernel/VER/patches: "of: fail the probe
 * ..."): with restricted_dma=strict, a device whose device tree names a
 * restricted pool that cannot be set up must not probe, rather than run
 * with DMA to all of memory. strict-board.dtso adds four such devices:
 * a pool with no-map, one at an unaligned base and one smaller than a
 * segment ("swiotlb: reject restricted pools that are unaligned or under
 * a segment": the log names the node and the rule), and one that a no-map
 * region overlaps ("swiotlb: reject a restricted pool that is not all in
 * the linear map": before it, binding the device oopsed as swiotlb
 * cleared the pool). Its own boot:
 *
 *   scripts/vm --append restricted_dma=strict \
 *     --dtso tests/kselftest/restricted_dma/strict-board.dtso \
 *     -- /kselftest/run_kselftest.sh -t restricted_dma:strict_probe
 *
 * Without restricted_dma=strict on the command line the test skips; with
 * it, a missing device is a failure (the overlay was not applied).
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

/*
 * strict-board.dtso's devices whose pool cannot be set up, and what the
 * kernel log must say: the pool's setup error when the kernel rejects the
 * region itself (its node and the rule), then the probe's refusal.
 */
static const struct broken_pool {
	const char *dev, *pool, *setup_error;
} broken[] = {
	{ "dma-test-nomap", "nomap-pool@71800000", NULL },
	{ "dma-test-unaligned", "unaligned-pool@71900800",
	  "base and size must be multiples of the page size" },
	{ "dma-test-tiny", "tiny-pool@71b00000", "smaller than one swiotlb segment" },
	{ "dma-test-overlap", "overlap-pool@72000000",
	  "part of it is outside the linear map" },
};

static bool has_driver(const char *devname)
{
	char path[PATH_MAX];

	rdma_fmt(path, sizeof(path), "/sys/bus/platform/devices/%s/driver", devname);
	return !access(path, F_OK);
}

static void check_refused(const struct broken_pool *p)
{
	char needle[RDMA_NAME_LEN + 128], path[PATH_MAX], *log;
	int ret;

	rdma_fmt(path, sizeof(path), "/sys/bus/platform/devices/%s", p->dev);
	ksft_test_result(!access(path, F_OK), "%s exists (strict-board.dtso applied)\n", p->dev);

	ret = rdma_drv_bind(p->dev);
	ksft_print_msg("binding %s to %s: %s\n", RDMA_TEST_DRIVER, p->dev,
		       ret ? strerror(-ret) : "bound");
	ksft_test_result(ret && !has_driver(p->dev),
			 "%s: a device whose pool cannot be set up does not probe\n", p->dev);
	rdma_drv_unbind(p->dev);

	log = rdma_kernel_log();
	rdma_fmt(needle, sizeof(needle),
		 " %s: failed to initialise \"restricted-dma-pool\" memory node (", p->dev);
	ksft_test_result(log && strstr(log, needle) && strstr(log, "refusing unrestricted DMA"),
			 "%s: the kernel log says why it does not probe\n", p->dev);
	if (p->setup_error) {
		rdma_fmt(needle, sizeof(needle), "restricted DMA pool %s at ", p->pool);
		ksft_test_result(log && strstr(log, needle) && strstr(log, p->setup_error),
				 "%s: the kernel log names the node and the rule (%s)\n",
				 p->pool, p->setup_error);
	}
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
	unsigned int i, plan = 2;

	ksft_print_header();
	if (!rdma_cmdline_has(STRICT))
		ksft_exit_skip("needs %s and strict-board.dtso: a boot of its own (see the source)\n",
			       STRICT);
	rdma_board_load(&b);
	for (i = 0; i < ARRAY_SIZE(broken); i++)
		plan += broken[i].setup_error ? 4 : 3;
	ksft_set_plan(plan);

	for (i = 0; i < ARRAY_SIZE(broken); i++)
		check_refused(&broken[i]);
	check_board_device(&b);
	ksft_finished();
}
