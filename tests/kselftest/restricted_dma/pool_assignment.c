// SPDX-License-Identifier: GPL-2.0
/*
 * Every restricted pool of the board exists with its size, and every
 * device that should have one got it: the device tree names it, the kernel
 * log says "assigned reserved memory node", debugfs shows the pool with
 * one slot per 2 KiB. Devices without a pool got none.
 *
 * A pool is attached when its device's driver probes, so the board's test
 * devices (roles "test" and "shared", no driver of their own) get dma_map_benchmark
 * bound for the duration.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest.h"
#include "rdma_board.h"

#define TEST_DRIVER	"dma_map_benchmark"

static bool log_has_assignment(const char *log, const char *dev, const char *pool)
{
	char needle[2 * RDMA_NAME_LEN + 64];

	rdma_fmt(needle, sizeof(needle), " %s: assigned reserved memory node %s\n", dev, pool);
	return strstr(log, needle);
}

static bool log_has_any_assignment(const char *log, const char *dev)
{
	char needle[RDMA_NAME_LEN + 64];

	rdma_fmt(needle, sizeof(needle), " %s: assigned reserved memory node ", dev);
	return strstr(log, needle);
}

static void check_pool(const struct rdma_pool *p)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	uint64_t size, nslabs;
	bool misplaced;

	if (rdma_dt_pool_size(p->name, &size))
		ksft_test_result_fail("pool %s: in the device tree\n", p->name);
	else
		ksft_test_result(size == p->size,
				 "pool %s: device-tree size 0x%llx, expected 0x%llx\n", p->name,
				 (unsigned long long)size, (unsigned long long)p->size);

	if (rdma_pool_debugfs(p->name, dir, sizeof(dir), &misplaced)) {
		ksft_test_result_fail("pool %s: debugfs directory\n", p->name);
		ksft_test_result_skip("pool %s: io_tlb_nslabs (no debugfs directory)\n", p->name);
		return;
	}
	/* At the debugfs root it is 6.1's probe-order bug (kernel/patches/0001). */
	ksft_test_result(!misplaced, "pool %s: debugfs directory %s\n", p->name, dir);

	rdma_fmt(path, sizeof(path), "%s/io_tlb_nslabs", dir);
	if (rdma_read_u64(path, &nslabs))
		ksft_test_result_fail("pool %s: io_tlb_nslabs readable\n", p->name);
	else
		ksft_test_result(nslabs == p->size / RDMA_SLOT_SIZE,
				 "pool %s: io_tlb_nslabs %llu == size / 2 KiB (%llu)\n", p->name,
				 (unsigned long long)nslabs,
				 (unsigned long long)(p->size / RDMA_SLOT_SIZE));
}

static void check_device(const struct rdma_device *d, const char *log)
{
	char pool[RDMA_NAME_LEN];
	bool want = d->pool[0];

	if (rdma_dt_device_pool(d->name, pool, sizeof(pool))) {
		ksft_test_result_fail("device %s: present\n", d->name);
		ksft_test_result_skip("device %s: pool assignment (device missing)\n", d->name);
		return;
	}
	ksft_test_result(!strcmp(pool, d->pool),
			 "device %s: device tree gives pool '%s', expected '%s'\n",
			 d->name, pool, d->pool);
	if (want)
		ksft_test_result(log_has_assignment(log, d->name, d->pool),
				 "device %s: kernel assigned %s\n", d->name, d->pool);
	else
		ksft_test_result(!log_has_any_assignment(log, d->name),
				 "device %s: kernel assigned no pool\n", d->name);
}

int main(void)
{
	struct rdma_board b;
	char *log;

	ksft_print_header();
	rdma_board_load(&b);

	for (int i = 0; i < b.ndevices; i++) {
		if (!rdma_device_driverless(&b.devices[i]))
			continue;
		if (rdma_bind_driver(b.devices[i].name, TEST_DRIVER))
			ksft_print_msg("cannot bind %s to %s (CONFIG_DMA_MAP_BENCHMARK?)\n",
				       TEST_DRIVER, b.devices[i].name);
	}
	log = rdma_kernel_log();
	if (!log)
		ksft_exit_fail_msg("cannot read the kernel log\n");

	ksft_set_plan(3 * b.npools + 2 * b.ndevices);
	for (int i = 0; i < b.npools; i++)
		check_pool(&b.pools[i]);
	for (int i = 0; i < b.ndevices; i++)
		check_device(&b.devices[i], log);
	free(log);
	for (int i = 0; i < b.ndevices; i++)
		if (rdma_device_driverless(&b.devices[i]))
			rdma_unbind_driver(b.devices[i].name, TEST_DRIVER);
	ksft_finished();
}
