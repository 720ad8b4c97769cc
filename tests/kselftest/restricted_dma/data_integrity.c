// SPDX-License-Identifier: GPL-2.0
/*
 * Data written through a restricted pool reads back bit-exact: random
 * data of several sizes up to the largest swiotlb mapping (256 KiB), at
 * page-aligned and misaligned buffer offsets, O_DIRECT to each disk
 * behind a pool and back into a buffer poisoned beforehand.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rdma_board.h"

static const size_t sizes[] = { 512, 4096, 4608, 65536, 67072, 262144 };
#define NSIZES		(sizeof(sizes) / sizeof(sizes[0]))
/* Offsets of the buffer within its page: aligned, and sector-misaligned. */
static const size_t buf_offsets[] = { 0, 1536 };
#define NOFFSETS	(sizeof(buf_offsets) / sizeof(buf_offsets[0]))
#define MAX_SIZE	262144
#define DISK_STRIDE	(1024 * 1024)

/* Returns the first differing byte, -1 when equal, -2 on an I/O error. */
static long roundtrip(int fd, size_t size, size_t boff, off_t where, uint64_t seed)
{
	static unsigned char *wbuf, *rbuf;
	unsigned char *w, *r;

	if (!wbuf && (posix_memalign((void **)&wbuf, 4096, MAX_SIZE + 4096) ||
		      posix_memalign((void **)&rbuf, 4096, MAX_SIZE + 4096)))
		return -2;
	w = wbuf + boff;
	r = rbuf + boff;
	rdma_fill_random(w, size, seed);
	memset(r, 0xa5, size);
	if (pwrite(fd, w, size, where) != (ssize_t)size)
		return -2;
	if (pread(fd, r, size, where) != (ssize_t)size)
		return -2;
	for (size_t i = 0; i < size; i++)
		if (w[i] != r[i])
			return i;
	return -1;
}

static void check_device(const struct rdma_device *d)
{
	char disk[64];
	int fd = -1;

	if (!rdma_block_device(d->name, disk, sizeof(disk)))
		fd = open(disk, O_RDWR | O_DIRECT);
	for (size_t s = 0; s < NSIZES; s++) {
		for (size_t o = 0; o < NOFFSETS; o++) {
			uint64_t seed = (uint64_t)(s + 1) << 8 | o;
			off_t where = (off_t)(s * NOFFSETS + o) * DISK_STRIDE;
			long diff;

			if (fd < 0) {
				ksft_test_result_fail("device %s: %zu bytes at buffer offset %zu: no disk\n",
						      d->name, sizes[s], buf_offsets[o]);
				continue;
			}
			diff = roundtrip(fd, sizes[s], buf_offsets[o], where, seed);
			if (diff >= 0)
				ksft_print_msg("device %s: byte %ld differs (seed %llu)\n",
					       d->name, diff, (unsigned long long)seed);
			ksft_test_result(diff == -1,
					 "device %s: %zu bytes at buffer offset %zu read back exact%s\n",
					 d->name, sizes[s], buf_offsets[o],
					 diff == -2 ? " (I/O error)" : "");
		}
	}
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	struct rdma_board b;
	int n = 0;

	ksft_print_header();
	rdma_board_load(&b);
	for (int i = 0; i < b.ndevices; i++)
		n += b.devices[i].pool[0] && !strcmp(b.devices[i].role, "blk");
	if (!n)
		ksft_exit_skip("the layout lists no disk behind a restricted pool\n");

	ksft_set_plan(n * NSIZES * NOFFSETS);
	for (int i = 0; i < b.ndevices; i++)
		if (b.devices[i].pool[0] && !strcmp(b.devices[i].role, "blk"))
			check_device(&b.devices[i]);
	ksft_finished();
}
