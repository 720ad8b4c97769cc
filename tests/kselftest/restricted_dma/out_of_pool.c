// SPDX-License-Identifier: GPL-2.0
/*
 * The out-of-pool audit (the series' "dma-mapping: audit devices ..."
 * patch): RAM outside the regions a device with a restricted pool is
 * allowed, handed to that device, is counted (out_of_pool in stats) and
 * traced (swiotlb:swiotlb_out_of_pool), and refused when the pool is
 * strict. dma_map_resource() never goes through the pool: of RAM below
 * and above the pool it is such a range; of a device register, here a
 * page of the board's PL011 UART, it is MMIO, counted apart (mmio) and
 * traced as such, however often it is mapped at once (and DMA-API debug,
 * when on, must not call two such mappings overlapping). The board's real
 * devices, after I/O on their disks, show none. Strict mode cannot be
 * turned off once on, so its refusals are tested in the strict boot
 * (strict_mode.c); the two-region configuration in coherent_region.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma_harness.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_stats.h"
#include "rdma_trace.h"

#define EVENT		"swiotlb/swiotlb_out_of_pool"
#define UART_PHYS	0x9000000ULL	/* QEMU virt's PL011, outside every pool */
/* RAM above every pool of the board: the audit must not wrap past a pool's end */
#define HIGH_PHYS	0x7f000000ULL
/* RAM below every pool: the board's first page of RAM */
#define LOW_PHYS	0x40000000ULL
#define CHUNK		(64 * 1024)
#define NCHUNKS		8
/* DMA-API debug's error count, on kernels with CONFIG_DMA_API_DEBUG */
#define DMA_API_ERRORS	"/sys/kernel/debug/dma-api/error_count"

static struct rdma_board board;

FIXTURE(audit) {
	struct rdma_testdev t;
	struct rdma_stats before;
	char dev_needle[RDMA_NAME_LEN + 16];
	char pool_needle[RDMA_NAME_LEN + 16];
};

FIXTURE_SETUP(audit)
{
	char why[256];

	ASSERT_EQ(0, rdma_testdev_open(&self->t, &board, false, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &self->before));
	rdma_fmt(self->dev_needle, sizeof(self->dev_needle), "dev_name: %s ", self->t.dev->name);
	rdma_fmt(self->pool_needle, sizeof(self->pool_needle), "pool=%s ", self->t.pool->name);
}

FIXTURE_TEARDOWN(audit)
{
	rdma_trace_stop(EVENT);
	rdma_testdev_close(&self->t);
}

/* The out-of-pool events of the last trace for the test device and pool. */
static long traced(FIXTURE_DATA(audit) *self, const char *extra)
{
	const char *needles[] = { self->dev_needle, self->pool_needle,
				  "api=dma_map_resource ", extra, NULL };
	char *trace = rdma_trace_read();
	long n;

	if (!trace)
		return -1;
	n = rdma_trace_count(trace, "swiotlb_out_of_pool", needles);
	free(trace);
	return n;
}

/*
 * A resource mapping at phys is handed out, counted once and traced once:
 * as mmio when mmio, else as out_of_pool.
 */
static void resource_counted(struct __test_metadata *_metadata,
			     FIXTURE_DATA(audit) *self, unsigned long long phys, bool mmio)
{
	struct rdma_stats after;
	uint64_t id, inpool;
	char expect[64];

	ASSERT_EQ(0, rdma_trace_start(EVENT));
	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "map_resource %#llx 4096 to", phys)) {
		TH_LOG("map_resource: %s", self->t.ctl.res);
	}
	rdma_trace_stop(EVENT);
	ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "id", &id));
	ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "inpool", &inpool));
	EXPECT_EQ(0U, inpool);
	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &after));
	EXPECT_EQ(mmio ? 0U : 1U, rdma_stat_delta(&self->before, &after, "out_of_pool"));
	EXPECT_EQ(mmio ? 1U : 0U, rdma_stat_delta(&self->before, &after, "mmio"));
	rdma_fmt(expect, sizeof(expect), "dma_addr=%llx size=4096", phys);
	EXPECT_EQ(1, traced(self, expect));
	EXPECT_EQ(mmio ? 1 : 0, traced(self, " MMIO"));
	EXPECT_EQ(0, traced(self, "REFUSED"));
	EXPECT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "unmap_resource %llu", (unsigned long long)id));
}

/* A device's registers: MMIO, not RAM out of the pool. */
TEST_F(audit, resource_mmio_counted_apart)
{
	resource_counted(_metadata, self, UART_PHYS, true);
}

TEST_F(audit, resource_ram_below_pool_counted)
{
	resource_counted(_metadata, self, LOW_PHYS, false);
}

/* Above the pool: the audit's range check must not wrap past its end. */
TEST_F(audit, resource_ram_above_pool_counted)
{
	resource_counted(_metadata, self, HIGH_PHYS, false);
}

/*
 * Two mappings of one register page held at once, as two DMA channels
 * reading one FIFO do: both are handed out and counted as MMIO. A debug
 * kernel's DMA-API debug must not count an error for them: there is no
 * CPU cache maintenance of a resource, so no overlapping cachelines.
 */
TEST_F(audit, resource_mapped_twice)
{
	uint64_t id[2], errors_before = 0, errors_after = 0;
	bool dma_debug = !rdma_read_u64(DMA_API_ERRORS, &errors_before);
	struct rdma_stats after;
	int i;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "map_resource %#llx 4096 from",
					  UART_PHYS)) {
			TH_LOG("map_resource %d: %s", i, self->t.ctl.res);
		}
		ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "id", &id[i]));
	}
	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &after));
	EXPECT_EQ(2U, rdma_stat_delta(&self->before, &after, "mmio"));
	EXPECT_EQ(0U, rdma_stat_delta(&self->before, &after, "out_of_pool"));
	for (i = 0; i < 2; i++)
		EXPECT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "unmap_resource %llu",
					  (unsigned long long)id[i]));
	if (!dma_debug)
		return;
	ASSERT_EQ(0, rdma_read_u64(DMA_API_ERRORS, &errors_after));
	EXPECT_EQ(errors_before, errors_after) {
		TH_LOG("DMA-API debug counted %llu errors (see the kernel log)",
		       (unsigned long long)(errors_after - errors_before));
	}
}

/* O_DIRECT writes then reads on a disk; 0 or -1. */
static int disk_io(const char *disk)
{
	void *buf;
	int fd, ret = 0;

	if (posix_memalign(&buf, 4096, CHUNK))
		return -1;
	rdma_fill_random(buf, CHUNK, 7);
	fd = open(disk, O_RDWR | O_DIRECT);
	if (fd < 0) {
		free(buf);
		return -1;
	}
	for (int i = 0; i < NCHUNKS && !ret; i++)
		ret = pwrite(fd, buf, CHUNK, (off_t)i * CHUNK) == CHUNK ? 0 : -1;
	for (int i = 0; i < NCHUNKS && !ret; i++)
		ret = pread(fd, buf, CHUNK, (off_t)i * CHUNK) == CHUNK ? 0 : -1;
	close(fd);
	free(buf);
	return ret;
}

/* The board's disks: no test driver involved. */
FIXTURE(disks) {
};

FIXTURE_SETUP(disks)
{
}

FIXTURE_TEARDOWN(disks)
{
}

/* Every disk behind a pool: I/O, then its pool has had no out-of-pool DMA. */
TEST_F(disks, board_devices_stay_in_pool)
{
	int ndisks = 0;

	for (int i = 0; i < board.ndevices; i++) {
		const struct rdma_device *d = &board.devices[i];
		struct rdma_stats before, after;
		char disk[64];

		if (!d->pool[0] || strcmp(d->role, "blk"))
			continue;
		ndisks++;
		ASSERT_EQ(0, rdma_block_device(d->name, disk, sizeof(disk))) {
			TH_LOG("device %s: no virtio disk", d->name);
		}
		ASSERT_EQ(0, rdma_stats_read(d->pool, &before)) TH_LOG("pool %s: stats", d->pool);
		ASSERT_EQ(0, disk_io(disk)) TH_LOG("device %s: O_DIRECT I/O on %s", d->name, disk);
		ASSERT_EQ(0, rdma_stats_read(d->pool, &after));
		EXPECT_LE(2U * NCHUNKS, rdma_stat_delta(&before, &after, "maps")) {
			TH_LOG("device %s: its I/O did not go through %s", d->name, d->pool);
		}
		EXPECT_EQ(0U, rdma_stat(&after, "out_of_pool")) {
			TH_LOG("device %s: pool %s counted DMA outside it", d->name, d->pool);
		}
	}
	ASSERT_LT(0, ndisks) TH_LOG("the layout lists no disk behind a pool");
}

int main(int argc, char **argv)
{
	rdma_board_load(&board);
	return test_harness_run(argc, argv);
}
