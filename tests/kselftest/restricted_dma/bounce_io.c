// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming DMA of a device with a restricted pool bounces through it;
 * a device without one does not bounce at all. Each board disk gets
 * O_DIRECT writes and reads while swiotlb:swiotlb_bounced is traced, and
 * the events are counted per device.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rdma_board.h"

#define EVENT		"swiotlb/swiotlb_bounced"
#define CHUNK		(64 * 1024)
#define NCHUNKS		16

/* NCHUNKS writes then NCHUNKS reads of CHUNK bytes; 0 or -1. */
static int do_io(const char *disk)
{
	void *buf;
	int fd, ret = 0;

	if (posix_memalign(&buf, 4096, CHUNK))
		return -1;
	rdma_fill_random(buf, CHUNK, 42);
	fd = open(disk, O_RDWR | O_DIRECT);
	if (fd < 0) {
		free(buf);
		return -1;
	}
	for (int i = 0; i < NCHUNKS && !ret; i++)
		if (pwrite(fd, buf, CHUNK, (off_t)i * CHUNK) != CHUNK)
			ret = -1;
	for (int i = 0; i < NCHUNKS && !ret; i++)
		if (pread(fd, buf, CHUNK, (off_t)i * CHUNK) != CHUNK)
			ret = -1;
	close(fd);
	free(buf);
	return ret;
}

static void check_device(const struct rdma_device *d)
{
	char disk[64];
	long n;

	if (rdma_block_device(d->name, disk, sizeof(disk))) {
		ksft_test_result_fail("device %s: has a virtio disk\n", d->name);
		return;
	}
	if (rdma_trace_start(EVENT)) {
		ksft_test_result_fail("device %s: cannot enable %s\n", d->name, EVENT);
		return;
	}
	if (do_io(disk)) {
		rdma_trace_stop(EVENT);
		ksft_test_result_fail("device %s: O_DIRECT I/O on %s\n", d->name, disk);
		return;
	}
	rdma_trace_stop(EVENT);
	n = rdma_trace_count_device(d->name);
	ksft_print_msg("device %s (%s): %ld swiotlb_bounced events for %d requests\n",
		       d->name, disk, n, 2 * NCHUNKS);
	if (d->pool[0])
		ksft_test_result(n >= 2 * NCHUNKS,
				 "device %s: streaming I/O bounces through %s\n", d->name, d->pool);
	else
		ksft_test_result(n == 0, "device %s: streaming I/O does not bounce\n", d->name);
}

int main(void)
{
	struct rdma_board b;
	int nblk = 0;

	ksft_print_header();
	rdma_board_load(&b);
	for (int i = 0; i < b.ndevices; i++)
		nblk += !strcmp(b.devices[i].role, "blk");
	if (!nblk)
		ksft_exit_skip("the layout lists no disk (role blk)\n");

	ksft_set_plan(nblk);
	for (int i = 0; i < b.ndevices; i++)
		if (!strcmp(b.devices[i].role, "blk"))
			check_device(&b.devices[i]);
	ksft_finished();
}
