// SPDX-License-Identifier: GPL-2.0
/*
 * Real storage drivers behind restricted pools (the zoo board: NVMe, AHCI,
 * USB storage on xHCI, an SD card on SDHCI). Each disk of role "disk" in
 * the layout gets verified I/O: writes then reads of 512 B to 1 MiB, with
 * O_DIRECT and through the page cache, at sequential and random offsets,
 * from buffers at every 512-byte offset in a page; then the whole region
 * is read back and compared sector by sector. Per disk it asserts:
 *   - the data is intact (and the checksum of what was written equals
 *     that of what was read);
 *   - the I/O went through the layout's pool: its byte counters grew by
 *     at least what was written and read, and every mapping the pool
 *     counted was traced, for this device, naming this pool (the other
 *     devices of a shared pool are idle meanwhile);
 *   - no out-of-pool DMA: the audit's counter did not move and no
 *     swiotlb_out_of_pool event names the device;
 *   - every slot came back: as many unmaps as maps, and io_tlb_used back
 *     to its start value plus the coherent memory the driver allocated
 *     and keeps (the pages of its dma_pools, traced as swiotlb_alloc).
 * On a board without such disks (the default one) it skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rdma_board.h"
#include "rdma_pattern.h"
#include "rdma_stats.h"
#include "rdma_trace.h"

#define SECTOR		RDMA_SECTOR
#define REGION		(16u << 20)	/* the part of each 64 MiB disk used */
#define PHASE_BYTES	(512u << 10)	/* bytes written per size, mode, order */
#define APPEAR_SECS	30		/* USB and SD disks show up late */
#define SETTLE_SECS	10
#define NTESTS_PER_DISK	5
#define TRACE_KB	16384	/* per CPU: no event of a disk's run lost */

static const unsigned int sizes[] = { 512, 4096, 65536, 262144, 1048576 };

static const char *const events[] = {
	"swiotlb/swiotlb_map", "swiotlb/swiotlb_out_of_pool",
	"swiotlb/swiotlb_alloc", "swiotlb/swiotlb_free",
};
#define NEVENTS		((int)ARRAY_SIZE(events))

struct disk_run {
	int fd_direct, fd_buffered;
	uint32_t *gen;		/* per sector: the write that last set it */
	uint32_t next_gen;
	uint8_t *buf;		/* 1 MiB + 4 KiB, page aligned */
	uint64_t ops, written, read, sum_written, sum_read;
	uint64_t seed;
	char why[256];
};

static int io_error(struct disk_run *r, const char *what, uint64_t off, size_t len, ssize_t n)
{
	snprintf(r->why, sizeof(r->why), "%s of %zu bytes at %llu: %s", what, len,
		 (unsigned long long)off, n < 0 ? strerror(errno) : "short transfer");
	return -1;
}

/* Compare a buffer read at off with what the generation map says. */
static int verify(struct disk_run *r, const uint8_t *p, uint64_t off, size_t len)
{
	uint8_t want[SECTOR];

	for (size_t done = 0; done < len; done += SECTOR) {
		uint64_t s = (off + done) / SECTOR;

		rdma_sector_fill(want, s, r->gen[s]);
		if (memcmp(want, p + done, SECTOR)) {
			snprintf(r->why, sizeof(r->why),
				 "sector %llu (generation %u) reads back wrong",
				 (unsigned long long)s, r->gen[s]);
			return -1;
		}
	}
	return 0;
}

/*
 * One phase: PHASE_BYTES in writes of size bytes, at consecutive or at
 * distinct random slots of a window of the region, then the same reads in
 * the same order, each checked.
 */
static int phase(struct disk_run *r, unsigned int size, bool direct, bool random)
{
	unsigned int n = PHASE_BYTES / size, window = 2 * n;
	uint64_t base, *offs;
	int fd = direct ? r->fd_direct : r->fd_buffered, ret = -1;
	/* O_DIRECT from buffers at every sector offset within a page */
	unsigned int shift = (unsigned int)(r->ops % 8) * SECTOR;
	uint8_t *p = r->buf + shift;

	offs = calloc(window, sizeof(*offs));
	if (!offs)
		return -1;
	base = (rdma_mix64(r->seed++) % ((REGION - (uint64_t)window * size) / size + 1)) * size;
	for (unsigned int i = 0; i < window; i++)
		offs[i] = base + (uint64_t)i * size;
	if (random)	/* the first n of a shuffle: distinct slots */
		for (unsigned int i = 0; i < n; i++) {
			unsigned int j = i + rdma_mix64(r->seed++) % (window - i);
			uint64_t t = offs[i];

			offs[i] = offs[j];
			offs[j] = t;
		}

	for (unsigned int i = 0; i < n; i++) {
		uint32_t g = ++r->next_gen;
		ssize_t w;

		for (unsigned int s = 0; s < size / SECTOR; s++) {
			r->gen[offs[i] / SECTOR + s] = g;
			rdma_sector_fill(p + s * SECTOR, offs[i] / SECTOR + s, g);
		}
		w = pwrite(fd, p, size, offs[i]);
		if (w != (ssize_t)size) {
			io_error(r, "write", offs[i], size, w);
			goto out;
		}
		r->sum_written = rdma_fnv(r->sum_written, p, size);
		r->written += size;
		r->ops++;
	}
	/* Buffered: to the disk, and out of the page cache, so reads hit the disk. */
	if (!direct && (fsync(fd) || ioctl(fd, BLKFLSBUF, 0))) {
		snprintf(r->why, sizeof(r->why), "fsync/BLKFLSBUF: %s", strerror(errno));
		goto out;
	}
	for (unsigned int i = 0; i < n; i++) {
		ssize_t got;

		memset(p, 0xa5, size);
		got = pread(fd, p, size, offs[i]);
		if (got != (ssize_t)size) {
			io_error(r, "read", offs[i], size, got);
			goto out;
		}
		if (verify(r, p, offs[i], size))
			goto out;
		r->sum_read = rdma_fnv(r->sum_read, p, size);
		r->read += size;
		r->ops++;
	}
	ret = 0;
out:
	free(offs);
	return ret;
}

static int workload(struct disk_run *r, const char *disk)
{
	uint64_t zero_range[2] = { 0, REGION };
	char path[RDMA_NAME_LEN + 8];
	int ret = -1;

	rdma_fmt(path, sizeof(path), "/dev/%s", disk);
	r->fd_direct = rdma_disk_open(path, O_RDWR | O_DIRECT, APPEAR_SECS);
	r->fd_buffered = rdma_disk_open(path, O_RDWR, APPEAR_SECS);
	if (r->fd_direct < 0 || r->fd_buffered < 0) {
		snprintf(r->why, sizeof(r->why), "open %s: %s", path, strerror(errno));
		goto out;
	}
	/* Other tests write the disks too: the region starts as zeros (generation 0). */
	if (ioctl(r->fd_direct, BLKZEROOUT, zero_range)) {
		snprintf(r->why, sizeof(r->why), "BLKZEROOUT %s: %s", path, strerror(errno));
		goto out;
	}
	for (int d = 1; d >= 0; d--)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			for (int rnd = 0; rnd <= 1; rnd++)
				if (phase(r, sizes[i], d, rnd))
					goto out;
	/* The whole region again, in 1 MiB direct reads: every sector as last written. */
	for (uint64_t off = 0; off < REGION; off += 1u << 20) {
		ssize_t got = pread(r->fd_direct, r->buf, 1u << 20, off);

		if (got != 1 << 20) {
			io_error(r, "read", off, 1u << 20, got);
			goto out;
		}
		if (verify(r, r->buf, off, 1u << 20))
			goto out;
		r->read += 1u << 20;
	}
	ret = 0;
out:
	if (r->fd_direct >= 0)
		close(r->fd_direct);
	if (r->fd_buffered >= 0)
		close(r->fd_buffered);
	return ret;
}

static void check_disk(const struct rdma_device *d, uint64_t seed)
{
	struct rdma_stats before, after;
	struct disk_run r = { .fd_direct = -1, .fd_buffered = -1, .seed = seed,
			      .sum_written = RDMA_FNV_START,
			      .sum_read = RDMA_FNV_START };
	uint64_t used0, used, to_dev, from_dev, pool_maps;
	char disk[64], *trace;
	struct timespec t0, t1;
	long maps, oop, lost;
	long long kept;
	bool settled;
	int ok;

	if (rdma_device_class_wait(d->name, "block", disk, sizeof(disk), APPEAR_SECS)) {
		ksft_test_result_fail("device %s: has a disk (none after %d s)\n", d->name,
				      APPEAR_SECS);
		for (int j = 1; j < NTESTS_PER_DISK; j++)
			ksft_test_result_skip("device %s: no disk\n", d->name);
		return;
	}
	ksft_print_msg("device %s: disk /dev/%s, pool %s\n", d->name, disk, d->pool);
	r.gen = calloc(REGION / SECTOR, sizeof(*r.gen));
	if (!r.gen || posix_memalign((void **)&r.buf, 4096, (1u << 20) + 4096))
		ksft_exit_fail_msg("out of memory\n");

	if (rdma_stats_read(d->pool, &before) || rdma_pool_u64(d->pool, "io_tlb_used", &used0)) {
		/* no debugfs directory: no device was ever given the pool */
		ksft_test_result_fail("device %s: its pool %s is in use (no statistics)\n",
				      d->name, d->pool);
		for (int j = 1; j < NTESTS_PER_DISK; j++)
			ksft_test_result_skip("device %s: pool %s not in use\n", d->name, d->pool);
		goto out;
	}
	if (rdma_trace_start_events(events, NEVENTS))
		ksft_exit_fail_msg("cannot trace the swiotlb events\n");

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ok = !workload(&r, disk);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sync();
	rdma_stats_read(d->pool, &after);	/* while tracing: every counted map traced */
	rdma_trace_stop_events(events, NEVENTS);
	ksft_test_result(ok && r.sum_written == r.sum_read,
			 "device %s: data intact: %llu KiB written, %llu KiB read in %llu ops, checksums %016llx %016llx (%.1f s)%s%s\n",
			 d->name, (unsigned long long)r.written >> 10,
			 (unsigned long long)r.read >> 10, (unsigned long long)r.ops,
			 (unsigned long long)r.sum_written, (unsigned long long)r.sum_read,
			 (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
			 ok ? "" : ": ", r.why);

	to_dev = rdma_stat_delta(&before, &after, "bytes_to_device");
	from_dev = rdma_stat_delta(&before, &after, "bytes_from_device");
	ksft_test_result(to_dev != UINT64_MAX && from_dev != UINT64_MAX &&
			 to_dev >= r.written && from_dev >= r.read,
			 "device %s: its pool %s bounced it: %llu KiB to the device (>= %llu written), %llu KiB from it (>= %llu read)\n",
			 d->name, d->pool, (unsigned long long)to_dev >> 10,
			 (unsigned long long)r.written >> 10, (unsigned long long)from_dev >> 10,
			 (unsigned long long)r.read >> 10);

	trace = rdma_trace_read();
	lost = rdma_trace_lost();
	{
		char dev[RDMA_NAME_LEN + 16], pool[RDMA_NAME_LEN + 16];
		const char *any[] = { dev, NULL }, *in_pool[] = { dev, pool, NULL };

		snprintf(dev, sizeof(dev), "dev_name: %s ", d->name);
		snprintf(pool, sizeof(pool), " pool=%s ", d->pool);
		maps = trace ? rdma_trace_count(trace, "swiotlb_map", in_pool) : -1;
		oop = trace ? rdma_trace_count(trace, "swiotlb_out_of_pool", any) : -1;
		kept = trace ? rdma_trace_kept_slots(trace, in_pool) : 0;
	}
	free(trace);
	pool_maps = rdma_stat_delta(&before, &after, "maps");
	ksft_test_result(lost == 0 && maps > 0 && (uint64_t)maps == pool_maps,
			 "device %s: all %llu mappings of pool %s traced, for it and in that pool: %ld (%ld events lost)\n",
			 d->name, (unsigned long long)pool_maps, d->pool, maps, lost);
	ksft_test_result(rdma_stat_delta(&before, &after, "out_of_pool") == 0 && oop == 0,
			 "device %s: no out-of-pool DMA (audit counter +%llu, %ld events)\n",
			 d->name,
			 (unsigned long long)rdma_stat_delta(&before, &after, "out_of_pool"), oop);
	settled = !rdma_pool_wait_used(d->pool, used0 + kept, SETTLE_SECS, &used);
	rdma_stats_read(d->pool, &after);
	ksft_test_result(settled && rdma_stat_delta(&before, &after, "maps") ==
				    rdma_stat_delta(&before, &after, "unmaps"),
			 "device %s: every slot back: %llu maps, %llu unmaps; io_tlb_used %llu -> %llu, %lld of them coherent memory it kept\n",
			 d->name, (unsigned long long)rdma_stat_delta(&before, &after, "maps"),
			 (unsigned long long)rdma_stat_delta(&before, &after, "unmaps"),
			 (unsigned long long)used0, (unsigned long long)used, kept);
out:
	free(r.gen);
	free(r.buf);
}

int main(void)
{
	struct rdma_board b;
	unsigned int trace_kb;
	int n = 0;

	rdma_board_load(&b);
	for (int i = 0; i < b.ndevices; i++)
		n += !strcmp(b.devices[i].role, "disk");
	if (!n)
		ksft_exit_skip("the board has no real-driver disks (the zoo board has: scripts/vm --board zoo)\n");
	ksft_print_header();
	ksft_set_plan(n * NTESTS_PER_DISK);
	if (rdma_trace_buffer_kb(TRACE_KB, &trace_kb))
		ksft_exit_fail_msg("cannot size the trace buffer\n");
	for (int i = 0; i < b.ndevices; i++)
		if (!strcmp(b.devices[i].role, "disk"))
			check_disk(&b.devices[i], 0x5eed0000ULL + i);
	rdma_trace_buffer_kb(trace_kb, NULL);
	ksft_finished();
}
