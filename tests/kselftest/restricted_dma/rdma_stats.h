/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pool's debugfs files (/sys/kernel/debug/swiotlb/<pool>/): the single
 * value files and the "key value" lines of stats.
 */
#ifndef RDMA_STATS_H
#define RDMA_STATS_H

#include <stdint.h>

#define RDMA_STATS_MAX		32
#define RDMA_STATS_KEY_LEN	32

struct rdma_stats {
	int n;
	char key[RDMA_STATS_MAX][RDMA_STATS_KEY_LEN];
	uint64_t val[RDMA_STATS_MAX];
};

/* The path of one of the pool's files; 0, or -ENOENT without a directory. */
int rdma_pool_file(const char *pool, const char *file, char *path, size_t len);

/* One number from one of the pool's files; 0 or -errno. */
int rdma_pool_u64(const char *pool, const char *file, uint64_t *val);

/* Write a string to one of the pool's files; 0 or -errno. */
int rdma_pool_write(const char *pool, const char *file, const char *s);

/*
 * Read and parse the pool's stats file. -errno when unreadable, -EINVAL
 * when a line is not "key decimal" or a key repeats.
 */
int rdma_stats_read(const char *pool, struct rdma_stats *s);

/* A value by key: 0, or -ENOENT. */
int rdma_stats_get(const struct rdma_stats *s, const char *key, uint64_t *val);

/* A value by key, or UINT64_MAX when missing: for deltas in checks. */
uint64_t rdma_stat(const struct rdma_stats *s, const char *key);

/* after - before for one key (both must have it, else UINT64_MAX). */
uint64_t rdma_stat_delta(const struct rdma_stats *before,
			 const struct rdma_stats *after, const char *key);

/*
 * Wait up to secs for the pool's io_tlb_used to be want; 0, or -1 when it
 * is not (or unreadable). *used: the last value read.
 */
int rdma_pool_wait_used(const char *pool, uint64_t want, int secs, uint64_t *used);

#endif /* RDMA_STATS_H */
