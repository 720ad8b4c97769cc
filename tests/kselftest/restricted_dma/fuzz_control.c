// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded fuzzer for the test driver's control file, the kernel
 * interface the series adds that parses what user space writes: random
 * and malformed commands (numbers at every edge, wrapping sizes and
 * offsets, stale and huge ids, garbage words, inputs past the buffer),
 * first from fuzz-seeds (inputs that once broke a kernel, replayed every
 * run), then from a seeded generator, one writer and then two at once.
 *
 * Every result must be one the driver documents (a mapping inside the
 * pool, or EINVAL, ENOMEM, ENOENT, EIO); afterwards the pool must be
 * back where it started and the device must still map. A kernel report
 * (KASAN, UBSAN, lockdep, ... on the debug kernel) fails the boot.
 *
 *   RDMA_FUZZ_SECONDS (default 20) bounds the run; make fuzz runs longer.
 *   RDMA_FUZZ_SEED replays one run (each run prints its seed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_stats.h"

#define CMD_MAX		512	/* past the driver's 128-byte buffer */

static const uint64_t edges[] = {
	0, 1, 2, 7, 8, 15, 16, 31, 32, 33, 511, 512, 4095, 4096, 4097, 8192,
	65535, 65536, 262143, 262144, 262145, 1048576, 4194304, 4194305,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, 0x100000001,
	0x7fffffffffffffff, 0x8000000000000000, 0xfffffffffffff000,
	0xfffffffffffffff0, 0xfffffffffffffff8, 0xffffffffffffffff,
};
static const char *const ops[] = {
	"map", "map_sg", "alloc", "map_resource", "unmap", "unmap_sg", "sync",
	"free", "unmap_resource",
};
static const char *const words[] = {
	"to", "from", "bidi", "none", "cpu", "device", "", "-", "0x", "+", "1e3",
	"4096k", "-1", "--1", "0x-1", "08", "0b101", "nan", "\t", "\n", "map",
};

struct fuzz {
	uint64_t state;			/* xorshift64* */
	uint64_t base, end;		/* the pool */
	struct rdma_ctl ctl;
	unsigned long cmds, mapped, refused;
	char bad[CMD_MAX + RDMA_RESULT_LEN + 64];	/* the first unexpected result */
};

static uint64_t rnd(struct fuzz *f)
{
	f->state ^= f->state >> 12;
	f->state ^= f->state << 25;
	f->state ^= f->state >> 27;
	return f->state * 0x2545f4914f6cdd1dULL;
}

static uint64_t pick(struct fuzz *f, uint64_t n)
{
	return rnd(f) % n;
}

/* One number: an edge, a neighbour of one, a small id, or anything. */
static int put_number(struct fuzz *f, char *p, size_t len)
{
	uint64_t v;

	switch (pick(f, 6)) {
	case 0:
	case 1:
		v = edges[pick(f, ARRAY_SIZE(edges))];
		break;
	case 2:
		v = edges[pick(f, ARRAY_SIZE(edges))] + pick(f, 5) - 2;
		break;
	case 3:
		v = pick(f, 40);
		break;
	case 4:
		return snprintf(p, len, "%s", words[pick(f, ARRAY_SIZE(words))]);
	default:
		v = rnd(f) >> pick(f, 64);
	}
	switch (pick(f, 4)) {
	case 0:
		return snprintf(p, len, "%#" PRIx64, v);
	case 1:
		return snprintf(p, len, "%" PRId64, (int64_t)v);
	case 2:
		return snprintf(p, len, "0%" PRIo64, v);
	default:
		return snprintf(p, len, "%" PRIu64, v);
	}
}

/* A random command; returns its length. */
static size_t make_cmd(struct fuzz *f, char *cmd, size_t len)
{
	size_t n = 0, i, args = pick(f, 6);
	int k = (int)pick(f, ARRAY_SIZE(ops) + 1);

	if (k == ARRAY_SIZE(ops)) {
		/* Not a command at all: random bytes, up to past the buffer. */
		size_t m = 1 + pick(f, len - 1);

		for (i = 0; i < m; i++)
			cmd[i] = (char)(1 + pick(f, 255));
		return m;
	}
	if (!strcmp(ops[k], "map_resource") && pick(f, 2)) {
		/*
		 * A well-formed one stays inside the pool: the fuzzer must not
		 * raise out-of-pool events other tests count. Toward the device
		 * only: that memory may be a live coherent buffer of the same
		 * pool, which a device allowed to write there would overlap
		 * (DMA-API debug on 6.1 reports it, rightly).
		 */
		uint64_t addr = f->base + pick(f, f->end - f->base);

		return (size_t)snprintf(cmd, len, "map_resource %#" PRIx64 " %" PRIu64 " to",
					addr, 1 + pick(f, f->end - addr));
	}
	n += (size_t)snprintf(cmd + n, len - n, "%s", ops[k]);
	for (i = 0; i < args && n < len - 1; i++) {
		cmd[n++] = pick(f, 8) ? ' ' : '\t';
		/* Numbers in a map_resource could reach past the pool. */
		if (!strcmp(ops[k], "map_resource") || pick(f, 4) == 0)
			n += (size_t)snprintf(cmd + n, len - n, "%s",
					      words[pick(f, ARRAY_SIZE(words))]);
		else
			n += (size_t)put_number(f, cmd + n, len - n);
	}
	return n < len ? n : len - 1;
}

/* Run one command; note the first result the driver must never give. */
static void run_cmd(struct fuzz *f, const char *cmd, size_t len)
{
	uint64_t err, inpool;
	ssize_t n;

	f->cmds++;
	f->ctl.res[0] = '\0';
	if (write(f->ctl.fd, cmd, len) != (ssize_t)len) {
		if (errno != EINVAL && !f->bad[0])
			snprintf(f->bad, sizeof(f->bad), "write of \"%.*s\": %s",
				 (int)len, cmd, strerror(errno));
		f->refused++;
		return;
	}
	n = pread(f->ctl.fd, f->ctl.res, sizeof(f->ctl.res) - 1, 0);
	if (n < 0) {
		if (!f->bad[0])
			snprintf(f->bad, sizeof(f->bad), "reading the result: %s", strerror(errno));
		return;
	}
	f->ctl.res[n] = '\0';
	f->ctl.res[strcspn(f->ctl.res, "\n")] = '\0';
	if (!rdma_res_u64(f->ctl.res, "error", &err)) {
		int e = -(int)(int64_t)err;

		f->refused++;
		if (e != ENOMEM && e != ENOENT && e != EIO && e != EINVAL && !f->bad[0])
			snprintf(f->bad, sizeof(f->bad), "\"%.*s\" gave %s", (int)len, cmd,
				 f->ctl.res);
		return;
	}
	if (!rdma_res_u64(f->ctl.res, "inpool", &inpool)) {
		f->mapped++;
		if (inpool != 1 && !f->bad[0])
			snprintf(f->bad, sizeof(f->bad), "\"%.*s\" mapped outside the pool: %s",
				 (int)len, cmd, f->ctl.res);
	}
}

static double deadline;

static void *fuzz_loop(void *arg)
{
	struct fuzz *f = arg;
	char cmd[CMD_MAX];

	while (rdma_now() < deadline && !f->bad[0]) {
		size_t len = make_cmd(f, cmd, sizeof(cmd));

		run_cmd(f, cmd, len);
	}
	return NULL;
}

/* Replay fuzz-seeds: one input a line, C escapes (\t, \n, \xHH) allowed. */
static int replay_seeds(struct fuzz *f, unsigned long *count)
{
	char cmd[CMD_MAX], path[PATH_MAX], *file, *line, *save = NULL, *slash;
	ssize_t len = readlink("/proc/self/exe", path, sizeof(path) - 32);

	/* fuzz-seeds sits beside the test (TEST_FILES). */
	if (len <= 0)
		return -errno;
	path[len] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "fuzz-seeds");
	file = rdma_read_file(path, NULL);
	if (!file)
		return -ENOENT;
	*count = 0;
	for (line = strtok_r(file, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = 0;

		if (line[0] == '#')
			continue;
		for (char *p = line; *p && n < sizeof(cmd); p++) {
			if (*p != '\\' || !p[1]) {
				cmd[n++] = *p;
			} else if (p[1] == 't' || p[1] == 'n') {
				cmd[n++] = p[1] == 't' ? '\t' : '\n';
				p++;
			} else if (p[1] == 'x' && p[2] && p[3]) {
				char hex[3] = { p[2], p[3], 0 };

				cmd[n++] = (char)strtoul(hex, NULL, 16);
				p += 3;
			} else {
				cmd[n++] = *++p;
			}
		}
		run_cmd(f, cmd, n);
		(*count)++;
	}
	free(file);
	return 0;
}

int main(void)
{
	double secs;
	struct rdma_stats before, after;
	struct fuzz f[2] = { 0 };
	unsigned long seeds = 0;
	struct rdma_testdev t;
	struct rdma_board b;
	struct rdma_map m;
	pthread_t thread;
	uint64_t seed;
	bool ok;

	ksft_print_header();
	rdma_board_load(&b);
	ksft_set_plan(5);
	rdma_fuzz_setup(20, &secs, &seed);
	if (rdma_testdev_open(&t, &b, false, NULL, 0) || rdma_stats_read(t.pool->name, &before))
		ksft_exit_fail_msg("cannot drive the test device\n");

	for (int i = 0; i < 2; i++) {
		f[i].state = seed + 0x9e3779b97f4a7c15ULL * (i + 1);
		f[i].base = t.base;
		f[i].end = t.end;
		if (rdma_ctl_open(&f[i].ctl, t.dev->name))
			ksft_exit_fail_msg("cannot open a second control handle\n");
	}

	ok = !replay_seeds(&f[0], &seeds);
	ksft_test_result(ok && !f[0].bad[0], "%lu inputs of fuzz-seeds: only documented results%s%s\n",
			 seeds, f[0].bad[0] ? ": " : "", f[0].bad);

	deadline = rdma_now() + secs / 2;
	fuzz_loop(&f[0]);
	ksft_print_msg("one writer: %lu commands, %lu mapped or allocated, %lu refused\n",
		       f[0].cmds, f[0].mapped, f[0].refused);
	ksft_test_result(!f[0].bad[0] && f[0].mapped, "one writer: only documented results%s%s\n",
			 f[0].bad[0] ? ": " : "", f[0].bad);

	deadline = rdma_now() + secs / 2;
	if (pthread_create(&thread, NULL, fuzz_loop, &f[1]))
		ksft_exit_fail_msg("pthread_create failed\n");
	fuzz_loop(&f[0]);
	pthread_join(thread, NULL);
	ksft_print_msg("two writers: %lu and %lu commands in all\n", f[0].cmds, f[1].cmds);
	ksft_test_result(!f[0].bad[0] && !f[1].bad[0], "two writers at once: only documented results%s%s\n",
			 f[1].bad[0] ? ": " : "", f[1].bad);

	/* Closing the handles releases what they still hold. */
	for (int i = 0; i < 2; i++)
		rdma_ctl_close(&f[i].ctl);
	rdma_testdev_close(&t);
	ok = !rdma_stats_read(t.pool->name, &after) &&
	     rdma_stat(&after, "used") == rdma_stat(&before, "used");
	ksft_test_result(ok, "pool %s: %" PRIu64 " slots in use, as before the fuzzing\n",
			 t.pool->name, rdma_stat(&after, "used"));

	ok = !rdma_testdev_open(&t, &b, false, NULL, 0) &&
	     !rdma_map(&t.ctl, 4096, 8, "bidi", &m) && m.inpool && m.bounce_ok &&
	     !rdma_unmap(&t.ctl, m.id, &ok) && ok;
	ksft_test_result(ok, "the device still maps through its pool\n");
	rdma_testdev_close(&t);
	ksft_finished();
}
