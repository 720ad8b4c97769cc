// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a pool's debugfs statistics.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma_board.h"
#include "rdma_stats.h"

int rdma_pool_file(const char *pool, const char *file, char *path, size_t len)
{
	char dir[PATH_MAX];
	bool misplaced;

	if (rdma_pool_debugfs(pool, dir, sizeof(dir), &misplaced))
		return -ENOENT;
	return rdma_fmt(path, len, "%s/%s", dir, file);
}

int rdma_pool_u64(const char *pool, const char *file, uint64_t *val)
{
	char path[PATH_MAX];
	int ret = rdma_pool_file(pool, file, path, sizeof(path));

	return ret ? ret : rdma_read_u64(path, val);
}

int rdma_pool_write(const char *pool, const char *file, const char *s)
{
	char path[PATH_MAX];
	int ret = rdma_pool_file(pool, file, path, sizeof(path));

	return ret ? ret : rdma_write_str(path, s);
}

/* One "key value" line into s; -EINVAL when malformed or repeated. */
static int stats_line(struct rdma_stats *s, const char *line)
{
	char key[RDMA_STATS_KEY_LEN], val[32], extra[2];
	uint64_t dummy;
	char *end;

	if (sscanf(line, "%31s %31s %1s", key, val, extra) != 2 || val[0] == '-')
		return -EINVAL;
	if (s->n == RDMA_STATS_MAX || !rdma_stats_get(s, key, &dummy))
		return -EINVAL;
	errno = 0;
	s->val[s->n] = strtoull(val, &end, 10);
	if (errno || *end)
		return -EINVAL;
	strcpy(s->key[s->n++], key);
	return 0;
}

int rdma_stats_read(const char *pool, struct rdma_stats *s)
{
	char path[PATH_MAX], *text, *line, *save;
	int ret = rdma_pool_file(pool, "stats", path, sizeof(path));

	memset(s, 0, sizeof(*s));
	if (ret)
		return ret;
	text = rdma_read_file(path, NULL);
	if (!text)
		return -errno;
	for (line = strtok_r(text, "\n", &save); line && !ret; line = strtok_r(NULL, "\n", &save))
		ret = stats_line(s, line);
	free(text);
	return ret;
}

int rdma_stats_get(const struct rdma_stats *s, const char *key, uint64_t *val)
{
	for (int i = 0; i < s->n; i++) {
		if (!strcmp(s->key[i], key)) {
			*val = s->val[i];
			return 0;
		}
	}
	return -ENOENT;
}

uint64_t rdma_stat(const struct rdma_stats *s, const char *key)
{
	uint64_t v;

	return rdma_stats_get(s, key, &v) ? UINT64_MAX : v;
}

uint64_t rdma_stat_delta(const struct rdma_stats *before,
			 const struct rdma_stats *after, const char *key)
{
	uint64_t a, b;

	if (rdma_stats_get(before, key, &b) || rdma_stats_get(after, key, &a))
		return UINT64_MAX;
	return a - b;
}

int rdma_pool_wait_used(const char *pool, uint64_t want, int secs, uint64_t *used)
{
	for (int i = 0; i <= secs * 10; i++) {
		if (rdma_pool_u64(pool, "io_tlb_used", used))
			return -1;
		if (*used == want)
			return 0;
		usleep(100 * 1000);
	}
	return -1;
}
