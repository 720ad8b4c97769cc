// SPDX-License-Identifier: GPL-2.0
/*
 * Real storage drivers when their restricted pool runs dry: the disks of
 * the board whose pool is under 2 MiB. The zoo board with zoo-exhaust.dtso
 * shrinks the shared pool and the NVMe drive's to 1 MiB: below what four
 * threads of 1 MiB O_DIRECT writes and reads keep in flight on one disk.
 * Each disk gets that load in turn (--all-at-once: every disk at once,
 * which the USB and NVMe drivers survive only since "swiotlb: keep
 * restricted pool allocations out of the mappings' way"; Documentation/
 * board.md). While the load runs:
 *   - each pool runs dry: its map_failures counter grows, and every
 *     failure is traced (swiotlb_map_failed);
 *   - every operation either completes with its data intact or fails
 *     with EIO: no other error, no damaged data, no hang (the driver
 *     retries, drops or resets as it sees fit; the counts are printed,
 *     Documentation/board.md says what each driver does);
 * and once the load stops:
 *   - every pool is whole: as many unmaps as maps, and io_tlb_used back to
 *     its start plus the coherent memory drivers allocated and keep;
 *   - verified I/O of a size the pool holds works again on every disk.
 * scripts/vm fails the boot on any oops, WARNING, lockdep report or hung
 * task the drivers log meanwhile. On a board whose disks' pools are not
 * shrunk it skips: the load would fit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rdma_board.h"
#include "rdma_pattern.h"
#include "rdma_stats.h"
#include "rdma_trace.h"

#define THREADS		4		/* per disk */
#define OPS		2		/* write + read pairs per thread */
#define IO_SIZE		(1u << 20)
#define LOAD_SECS	45		/* a disk's load (all disks': 90), or it hangs */
#define SETTLE_SECS	10
#define TRACE_KB	4096

static const char *const events[] = {
	"swiotlb/swiotlb_map_failed", "swiotlb/swiotlb_alloc", "swiotlb/swiotlb_free",
};
#define NEVENTS		((int)ARRAY_SIZE(events))

struct disk {
	const struct rdma_device *dev;
	char path[RDMA_NAME_LEN + 8];
	int fd;
	/* results of the load, under lock */
	pthread_mutex_t lock;
	unsigned int ok, eio, other, damaged;
	int other_errno;
};

struct worker {
	struct disk *disk;
	unsigned int index;
	pthread_t tid;
};

static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static unsigned int threads_done;

static void fill(uint8_t *p, uint64_t off, uint32_t gen)
{
	for (unsigned int s = 0; s < IO_SIZE / RDMA_SECTOR; s++)
		rdma_sector_fill(p + s * RDMA_SECTOR, off / RDMA_SECTOR + s, gen);
}

static void count(struct disk *d, ssize_t n, bool damaged)
{
	pthread_mutex_lock(&d->lock);
	if (n == (ssize_t)IO_SIZE && !damaged) {
		d->ok++;
	} else if (n == (ssize_t)IO_SIZE) {
		d->damaged++;
	} else if (n < 0 && errno == EIO) {
		d->eio++;
	} else {
		d->other++;
		d->other_errno = n < 0 ? errno : 0;
	}
	pthread_mutex_unlock(&d->lock);
}

/* A thread's own 1 MiB slots; a read is checked only after its write succeeded. */
static void *worker(void *arg)
{
	struct worker *w = arg;
	uint8_t *buf, *want;

	if (posix_memalign((void **)&buf, 4096, IO_SIZE) ||
	    posix_memalign((void **)&want, 4096, IO_SIZE))
		ksft_exit_fail_msg("out of memory\n");
	for (unsigned int i = 0; i < OPS; i++) {
		uint64_t off = ((uint64_t)w->index * OPS + i) * IO_SIZE;
		uint32_t gen = w->index * OPS + i + 1;
		ssize_t n;

		fill(want, off, gen);
		n = pwrite(w->disk->fd, want, IO_SIZE, off);
		count(w->disk, n, false);
		if (n != (ssize_t)IO_SIZE)
			continue;
		memset(buf, 0x5a, IO_SIZE);
		n = pread(w->disk->fd, buf, IO_SIZE, off);
		count(w->disk, n, n == (ssize_t)IO_SIZE && memcmp(buf, want, IO_SIZE));
	}
	free(buf);
	free(want);
	pthread_mutex_lock(&done_lock);
	threads_done++;
	pthread_cond_signal(&done_cond);
	pthread_mutex_unlock(&done_lock);
	return NULL;
}

/*
 * One verified write and read of 64 KiB past the load's slots: a transfer
 * the shrunk pool holds at rest (a 1 MiB one need not fit: AHCI keeps four
 * 256 KiB commands of it in flight).
 */
#define SMALL_IO	(64u << 10)
static int io_works(struct disk *d)
{
	uint64_t off = (uint64_t)THREADS * OPS * IO_SIZE;
	uint8_t *buf, *want;
	int ret = -1;

	if (posix_memalign((void **)&buf, 4096, IO_SIZE) ||
	    posix_memalign((void **)&want, 4096, IO_SIZE))
		return -1;
	fill(want, off, 0xfffff);
	if (pwrite(d->fd, want, SMALL_IO, off) == (ssize_t)SMALL_IO &&
	    pread(d->fd, buf, SMALL_IO, off) == (ssize_t)SMALL_IO && !memcmp(buf, want, SMALL_IO))
		ret = 0;
	free(buf);
	free(want);
	return ret;
}

/*
 * THREADS workers on each of disks[from..to), until they finish or the
 * deadline; -1 when they hang (threads stuck in the kernel cannot be
 * joined or killed: it says where they are).
 */
static int load(struct disk *disks, int from, int to)
{
	static struct worker workers[RDMA_MAX_DEVICES * THREADS];
	unsigned int nthreads = 0;
	struct timespec deadline;
	bool hung = false;

	threads_done = 0;
	for (int i = from; i < to; i++)
		for (unsigned int t = 0; t < THREADS; t++, nthreads++) {
			workers[nthreads] = (struct worker){ .disk = &disks[i], .index = t };
			if (pthread_create(&workers[nthreads].tid, NULL, worker, &workers[nthreads]))
				ksft_exit_fail_msg("pthread_create failed\n");
		}
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += (to - from > 1 ? 2 : 1) * LOAD_SECS;
	pthread_mutex_lock(&done_lock);
	while (threads_done < nthreads && !hung)
		hung = pthread_cond_timedwait(&done_cond, &done_lock, &deadline) == ETIMEDOUT;
	pthread_mutex_unlock(&done_lock);
	if (hung) {
		for (int i = from; i < to; i++) {
			struct disk *d = &disks[i];

			pthread_mutex_lock(&d->lock);
			ksft_print_msg("device %s (%s): %u of %u transfers done\n", d->dev->name,
				       d->path, d->ok + d->eio + d->other + d->damaged,
				       THREADS * OPS * 2);
			pthread_mutex_unlock(&d->lock);
		}
		return -1;
	}
	for (unsigned int t = 0; t < nthreads; t++)
		pthread_join(workers[t].tid, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	static struct disk disks[RDMA_MAX_DEVICES];
	struct rdma_stats before[RDMA_MAX_POOLS], after[RDMA_MAX_POOLS];
	uint64_t used0[RDMA_MAX_POOLS];
	unsigned int trace_kb;
	int ndisks = 0, npools = 0, pools[RDMA_MAX_POOLS];
	bool all_at_once = argc == 2 && !strcmp(argv[1], "--all-at-once");
	struct rdma_board b;
	char *trace;

	if (argc > 2 || (argc == 2 && !all_at_once))
		ksft_exit_fail_msg("usage: zoo_exhaust [--all-at-once]\n");
	rdma_board_load(&b);
	/* The disks whose pools are shrunk, and those pools, each once. */
	for (int i = 0; i < b.npools; i++) {
		uint64_t size;
		bool used = false;

		if (!rdma_pool_shrunk(b.pools[i].name, &size))
			continue;
		for (int j = 0; j < b.ndevices; j++)
			if (!strcmp(b.devices[j].role, "disk") &&
			    !strcmp(b.devices[j].pool, b.pools[i].name)) {
				disks[ndisks++].dev = &b.devices[j];
				used = true;
			}
		if (used)
			pools[npools++] = i;
	}
	if (!ndisks)
		ksft_exit_skip("no disk of the board has a pool under 2 MiB (the zoo board with zoo-exhaust.dtso has)\n");
	ksft_print_header();
	ksft_set_plan(npools * 2 + ndisks * 2);

	for (int i = 0; i < ndisks; i++) {
		char name[RDMA_NAME_LEN];

		if (rdma_device_class_wait(disks[i].dev->name, "block", name, sizeof(name), 30))
			ksft_exit_fail_msg("device %s has no disk\n", disks[i].dev->name);
		rdma_fmt(disks[i].path, sizeof(disks[i].path), "/dev/%s", name);
		disks[i].fd = rdma_disk_open(disks[i].path, O_RDWR | O_DIRECT, 30);
		if (disks[i].fd < 0)
			ksft_exit_fail_msg("open %s: %s\n", disks[i].path, strerror(errno));
		pthread_mutex_init(&disks[i].lock, NULL);
	}
	for (int p = 0; p < npools; p++)
		if (rdma_stats_read(b.pools[pools[p]].name, &before[p]) ||
		    rdma_pool_u64(b.pools[pools[p]].name, "io_tlb_used", &used0[p]))
			ksft_exit_fail_msg("pool %s: no statistics\n", b.pools[pools[p]].name);
	if (rdma_trace_buffer_kb(TRACE_KB, &trace_kb) || rdma_trace_start_events(events, NEVENTS))
		ksft_exit_fail_msg("cannot trace the swiotlb events\n");

	/* The load: each disk in turn, or every disk at once. */
	for (int first = 0; first < ndisks; first = all_at_once ? ndisks : first + 1)
		if (load(disks, all_at_once ? 0 : first, all_at_once ? ndisks : first + 1))
			ksft_exit_fail_msg("the load did not finish in %d s\n",
					   all_at_once ? 2 * LOAD_SECS : LOAD_SECS);
	rdma_trace_stop_events(events, NEVENTS);

	trace = rdma_trace_read();
	for (int p = 0; p < npools; p++) {
		const char *name = b.pools[pools[p]].name;
		char pool[RDMA_NAME_LEN + 16];
		const char *in_pool[] = { pool, NULL };
		uint64_t failures, used = 0;
		long long traced, kept;
		bool settled;

		rdma_fmt(pool, sizeof(pool), " pool=%s ", name);
		rdma_stats_read(name, &after[p]);
		failures = rdma_stat_delta(&before[p], &after[p], "map_failures");
		traced = trace ? rdma_trace_count(trace, "swiotlb_map_failed", in_pool) : -1;
		ksft_test_result(failures > 0 && failures != UINT64_MAX &&
				 (uint64_t)traced == failures && !rdma_trace_lost(),
				 "pool %s ran dry: %llu mapping failures counted, %lld traced\n",
				 name, (unsigned long long)failures, traced);

		kept = trace ? rdma_trace_kept_slots(trace, in_pool) : 0;
		settled = !rdma_pool_wait_used(name, used0[p] + kept, SETTLE_SECS, &used);
		rdma_stats_read(name, &after[p]);
		ksft_test_result(settled && rdma_stat_delta(&before[p], &after[p], "maps") ==
					    rdma_stat_delta(&before[p], &after[p], "unmaps"),
				 "pool %s whole after the load: %llu maps, %llu unmaps; io_tlb_used %llu -> %llu, %lld of them coherent memory kept\n",
				 name, (unsigned long long)rdma_stat_delta(&before[p], &after[p], "maps"),
				 (unsigned long long)rdma_stat_delta(&before[p], &after[p], "unmaps"),
				 (unsigned long long)used0[p], (unsigned long long)used, kept);
	}
	free(trace);
	rdma_trace_buffer_kb(trace_kb, NULL);

	for (int i = 0; i < ndisks; i++) {
		struct disk *d = &disks[i];

		ksft_test_result(!d->other && !d->damaged,
				 "device %s (%s): under the load %u transfers intact, %u failed with EIO, %u other errors (last: %s), %u damaged\n",
				 d->dev->name, d->path, d->ok, d->eio, d->other,
				 d->other ? strerror(d->other_errno) : "none", d->damaged);
		ksft_test_result(!io_works(d), "device %s: verified 64 KiB write and read after the load\n",
				 d->dev->name);
		close(d->fd);
	}
	ksft_finished();
}
