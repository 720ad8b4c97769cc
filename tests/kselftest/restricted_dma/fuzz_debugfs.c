// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded fuzzer for the pools' debugfs files (/sys/kernel/debug/swiotlb/
 * and its pool directories): malformed and edge-case writes to every file,
 * reads in odd pieces, then two writers at once while the test device maps
 * and unmaps through its pool.
 *
 * The writable files are knobs whose parsers are known exactly, so every
 * write has one right result:
 *  - io_tlb_used_hiwater (upstream's): kstrtoull() over the first 23 bytes
 *    (EINVAL, or ERANGE past 64 bits), and only 0 is accepted (it resets
 *    the peak);
 *  - strict: kstrtobool() over the first 3 bytes; on may be written at any
 *    time, off never once the pool is strict (EPERM). Outside the strict
 *    boot no input that means "on" is sent: it would outlive this test.
 * Every other file must refuse writes and keep what it said. A file that
 * takes writes and is not in this list fails the test: the fuzzer must
 * learn it first.
 *
 *   RDMA_FUZZ_SECONDS (default 10) bounds the random part; make fuzz runs
 *   longer. RDMA_FUZZ_SEED replays one run (each run prints its seed).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_pattern.h"
#include "rdma_stats.h"

#define SWIOTLB_DIR	"/sys/kernel/debug/swiotlb"
#define MAX_FILES	128
#define INPUT_MAX	8192
#define ATTR_BUF	23	/* simple_attr_write(): sizeof(set_buf) - 1 */
#define BOOL_BUF	3	/* kstrtobool_from_user(): sizeof(buf) - 1 */

enum kind { READ_ONLY, HIWATER, STRICT };

struct knob {
	char path[PATH_MAX];
	enum kind kind;
	bool fixed;		/* content that nothing in this test changes */
	char *was;		/* its content before the fuzzing */
	bool strict_on;		/* STRICT: the state the model expects */
};

static struct knob files[MAX_FILES];
static int nfiles;
static bool strict_boot;

/* A counter-based generator: reproducible from the printed seed. */
struct gen {
	uint64_t seed, n;
	unsigned long writes, accepted;
	char bad[512];			/* the first wrong result */
};

static uint64_t rnd(struct gen *g)
{
	return rdma_mix64(g->seed + 0x9e3779b97f4a7c15ULL * ++g->n);
}

static uint64_t pick(struct gen *g, uint64_t n)
{
	return rnd(g) % n;
}

/* Inputs as bytes: some hold a NUL, which the kernel's copy ends at. */
struct input {
	const char *s;
	size_t len;
};
#define IN(str)	{ str, sizeof(str) - 1 }

static const struct input fixed_inputs[] = {
	IN(""), IN("\n"), IN("0"), IN("0\n"), IN("0\n\n"), IN("00"), IN("+0"), IN("-0"),
	IN("0x0"), IN("0X0"), IN("0x"), IN("0x\n"), IN("0xg"), IN(" 0"), IN("0 "), IN("1"),
	IN("-1"), IN("4096"), IN("0x10"), IN("010"), IN("08"), IN("18446744073709551615"),
	IN("18446744073709551616"), IN("0xffffffffffffffff"), IN("0x10000000000000000"),
	IN("000000000000000000000000000001"), IN("0000000000000000000000001"), IN("y"),
	IN("Y"), IN("yes"), IN("n"), IN("N"), IN("no"), IN("on"), IN("ON"), IN("off"),
	IN("oN"), IN("of"), IN("o"), IN("oX"), IN("t"), IN("true"), IN("f"), IN("false"),
	IN("2"), IN("nan"), IN("Yfoo"), IN("\0" "1"), IN("0\0" "1"), IN("1\n"), IN("on\n"),
	IN("\0"), IN("+"), IN("++0"), IN("0x0\n"), IN("0\r"),
};

/*
 * kstrtoull(s, 0) as lib/kstrtox.c parses it: 0 and the value, -ERANGE
 * when the digits overflow (whatever follows them), else -EINVAL.
 */
static int parse_ull(const char *s, unsigned long long *val)
{
	unsigned long long v = 0;
	unsigned int base = 10, d;
	bool any = false, over = false;

	if (*s == '+')
		s++;
	if (s[0] == '0') {
		if ((s[1] | 0x20) == 'x' && s[2] && strchr("0123456789abcdefABCDEF", s[2]))
			base = 16, s += 2;
		else
			base = 8;
	}
	for (;; s++, any = true) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			d = (*s | 0x20) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (~0ULL - d) / base)
			over = true;
		v = v * base + d;
	}
	if (over)
		return -ERANGE;
	if (!any)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*val = v;
	return 0;
}

/* kstrtobool(): 1, 0, or -1 for anything else. */
static int parse_bool(const char *s)
{
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		return 1;
	case 'n': case 'N': case 'f': case 'F': case '0':
		return 0;
	case 'o': case 'O':
		if ((s[1] | 0x20) == 'n')
			return 1;
		if ((s[1] | 0x20) == 'f')
			return 0;
	}
	return -1;
}

/* What the kernel copies of an input: its first max bytes, as a C string. */
static void head(char *dst, const char *in, size_t len, size_t max)
{
	size_t n = len < max ? len : max;

	memcpy(dst, in, n);
	dst[n] = '\0';
}

static int hiwater_result(const char *in, size_t len)
{
	char s[ATTR_BUF + 1];
	unsigned long long v;
	int ret;

	head(s, in, len, ATTR_BUF);
	ret = parse_ull(s, &v);
	return ret ? ret : v ? -EINVAL : (int)len;
}

static int strict_meaning(const char *in, size_t len)
{
	char s[BOOL_BUF + 1];

	head(s, in, len, BOOL_BUF);
	return parse_bool(s);
}

/* A random input: a number in some spelling, a word, bytes, or a long run. */
static size_t make_input(struct gen *g, char *in)
{
	static const char *const pre[] = { "", "", "+", "-", " ", "0x", "0X", "0", "\t" };
	static const struct input post[] = {
		IN(""), IN(""), IN("\n"), IN("\n\n"), IN(" "), IN("x"), IN("\0" "7"), IN("k"),
	};
	static const char *const words[] = { "y", "n", "on", "off", "o", "true", "no", "Z" };
	const struct input *q;
	const char *p;
	size_t n, i;
	uint64_t v;

	switch (pick(g, 6)) {
	case 0:
	case 1:
		v = pick(g, 3) ? pick(g, 3) : rnd(g) >> pick(g, 64);
		p = pre[pick(g, ARRAY_SIZE(pre))];
		q = &post[pick(g, ARRAY_SIZE(post))];
		if (p[0] == '0' && p[1])
			n = (size_t)snprintf(in, INPUT_MAX, "%s%" PRIx64, p, v);
		else
			n = (size_t)snprintf(in, INPUT_MAX, "%s%" PRIu64, p, v);
		memcpy(in + n, q->s, q->len);
		return n + q->len;
	case 2:
		return (size_t)snprintf(in, INPUT_MAX, "%s%s", words[pick(g, ARRAY_SIZE(words))],
					pick(g, 2) ? "\n" : "");
	case 3:
		n = pick(g, 65);
		for (i = 0; i < n; i++)
			in[i] = (char)pick(g, 256);
		return n;
	case 4:
		/* past the kernel's buffers: digits that still parse, or not */
		n = 24 + pick(g, INPUT_MAX - 24);
		memset(in, pick(g, 2) ? '0' : '9', n);
		return n;
	default:
		q = &fixed_inputs[pick(g, ARRAY_SIZE(fixed_inputs))];
		memcpy(in, q->s, q->len);
		return q->len;
	}
}

static char *slurp(const char *path)
{
	return rdma_read_file(path, NULL);
}

/*
 * Write one input to a file and check the result against the model. In
 * a boot that is not strict, inputs meaning "on" are not sent to strict.
 */
static void try_write(struct gen *g, struct knob *k, const char *in, size_t len)
{
	static const off_t offsets[] = { 0, 0, 1, 4096, 1LL << 40 };
	int fd, want, meaning = 0;
	ssize_t got;
	char *now;

	if (k->kind == STRICT) {
		meaning = strict_meaning(in, len);
		if (meaning == 1 && !k->strict_on)
			return;
	}
	fd = open(k->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		if (k->kind == READ_ONLY)	/* refused at open: as good */
			return;
		rdma_fmt(g->bad, sizeof(g->bad), "%s: open: %s", k->path, strerror(errno));
		return;
	}
	/* Most of these files cannot seek (ESPIPE): then it writes at 0. */
	lseek(fd, offsets[pick(g, ARRAY_SIZE(offsets))], SEEK_SET);
	got = write(fd, in, len);
	if (got < 0)
		got = -errno;
	close(fd);
	g->writes++;
	g->accepted += got >= 0;

	switch (k->kind) {
	case READ_ONLY:
		if (got >= 0)
			rdma_fmt(g->bad, sizeof(g->bad), "%s took a write of %zu bytes", k->path,
				 len);
		return;
	case HIWATER:
		want = hiwater_result(in, len);
		break;
	default:
		want = meaning < 0 ? -EINVAL : meaning == 0 && k->strict_on ? -EPERM : (int)len;
		break;
	}
	if (got != want) {
		rdma_fmt(g->bad, sizeof(g->bad), "%s: write of %zu bytes \"%.32s\" gave %zd, not %d",
			 k->path, len, in, got, want);
		return;
	}
	if (k->kind == STRICT) {
		now = slurp(k->path);
		if (!now || strcmp(now, k->strict_on ? "Y\n" : "N\n"))
			rdma_fmt(g->bad, sizeof(g->bad), "%s reads %s after \"%.32s\"", k->path,
				 now ? now : "nothing", in);
		free(now);
	}
}

/* Every file of every pool, and what the fuzzer knows of it. */
static int collect(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	struct stat st;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		struct knob *k = &files[nfiles];

		if (e->d_name[0] == '.')
			continue;
		/* Leaving files out would pass a run that never wrote to them. */
		if (nfiles == MAX_FILES)
			ksft_exit_fail_msg("more than %d files under %s\n", MAX_FILES,
					   SWIOTLB_DIR);
		if (rdma_fmt(k->path, sizeof(k->path), "%s/%s", dir, e->d_name) ||
		    stat(k->path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			char sub[PATH_MAX];

			memcpy(sub, k->path, sizeof(sub));
			collect(sub);
			continue;
		}
		k->kind = !strcmp(e->d_name, "io_tlb_used_hiwater") ? HIWATER :
			  !strcmp(e->d_name, "strict") ? STRICT : READ_ONLY;
		if (k->kind == READ_ONLY && (st.st_mode & 0222))
			ksft_exit_fail_msg("%s is writable, and the fuzzer does not know it\n",
					   k->path);
		k->fixed = !strcmp(e->d_name, "io_tlb_nslabs") || !strcmp(e->d_name, "scrub") ||
			   !strcmp(e->d_name, "exclusive") || k->kind == STRICT;
		k->was = slurp(k->path);
		if (!k->was)
			ksft_exit_fail_msg("cannot read %s\n", k->path);
		k->strict_on = k->kind == STRICT && !strcmp(k->was, "Y\n");
		nfiles++;
	}
	closedir(d);
	return 0;
}

/* Reading a file a byte at a time gives what one read gives. */
static bool read_in_pieces(struct knob *k, char *why, size_t len)
{
	char whole[8192], piece[8192];
	ssize_t n, m = 0, r;
	int fd = open(k->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		goto no_open;
	n = read(fd, whole, sizeof(whole));
	close(fd);
	fd = open(k->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto no_open;
	while (m < (ssize_t)sizeof(piece) && (r = read(fd, piece + m, 1)) == 1)
		m++;
	/* Past the end, where the file can seek there: nothing. */
	r = lseek(fd, 1LL << 40, SEEK_SET) < 0 ? 0 : read(fd, piece, 1);
	close(fd);
	if (n < 0 || r != 0) {
		rdma_fmt(why, len, "%s: read %zd, read past the end %zd", k->path, n, r);
		return false;
	}
	if (k->fixed && (m != n || memcmp(whole, piece, n))) {
		rdma_fmt(why, len, "%s: %zd bytes in one read, %zd a byte at a time", k->path,
			 n, m);
		return false;
	}
	return true;
no_open:
	rdma_fmt(why, len, "cannot open %s: %s", k->path, strerror(errno));
	return false;
}

struct writer {
	struct gen g;
	double until;
	pthread_t thread;
};

static void *write_randomly(void *arg)
{
	struct writer *w = arg;
	static __thread char in[INPUT_MAX];

	while (!w->g.bad[0] && rdma_now() < w->until) {
		size_t len = make_input(&w->g, in);

		try_write(&w->g, &files[pick(&w->g, nfiles)], in, len);
	}
	return NULL;
}

struct mapper {
	struct rdma_ctl ctl;
	double until;
	unsigned long maps;
	char bad[RDMA_RESULT_LEN + 64];
	pthread_t thread;
};

/* The device maps and unmaps, so that the peak the writers reset moves. */
static void *map_meanwhile(void *arg)
{
	struct mapper *m = arg;
	struct rdma_map map;
	bool ok;

	while (!m->bad[0] && rdma_now() < m->until) {
		if (rdma_map(&m->ctl, 65536 >> (m->maps % 5), 0, "bidi", &map) ||
		    !map.inpool || rdma_unmap(&m->ctl, map.id, &ok) || !ok)
			rdma_fmt(m->bad, sizeof(m->bad), "map %lu: %s", m->maps, m->ctl.res);
		m->maps++;
	}
	return NULL;
}

int main(void)
{
	struct writer w[2] = { 0 };
	struct mapper mp = { 0 };
	struct rdma_testdev t;
	struct rdma_board b;
	struct gen g = { 0 };
	char why[512] = "";
	uint64_t seed, used;
	bool ok = true;
	double secs;
	char *in;

	ksft_print_header();
	rdma_board_load(&b);
	ksft_set_plan(5);
	rdma_fuzz_setup(10, &secs, &seed);
	strict_boot = rdma_cmdline_has("restricted_dma=strict");
	/* The test device first: its pool's directory must be there. */
	if (rdma_testdev_open(&t, &b, false, why, sizeof(why)))
		ksft_exit_fail_msg("cannot drive the test device: %s\n", why);
	if (collect(SWIOTLB_DIR))
		ksft_exit_fail_msg("no %s\n", SWIOTLB_DIR);
	if (!nfiles)
		ksft_exit_fail_msg("no files under %s\n", SWIOTLB_DIR);
	ksft_test_result_pass("%d files under %s, each writable one a known knob\n",
			      nfiles, SWIOTLB_DIR);

	in = malloc(INPUT_MAX);
	if (!in)
		ksft_exit_fail_msg("out of memory\n");
	g.seed = seed;
	for (int i = 0; i < nfiles && !g.bad[0]; i++) {
		for (size_t j = 0; j < ARRAY_SIZE(fixed_inputs) && !g.bad[0]; j++)
			try_write(&g, &files[i], fixed_inputs[j].s, fixed_inputs[j].len);
		/* every length around the kernels' buffers, all zeros */
		for (size_t len = 1; len <= 64 && !g.bad[0]; len++) {
			memset(in, '0', len);
			try_write(&g, &files[i], in, len);
		}
	}
	ksft_test_result(!g.bad[0], "fixed inputs: %lu writes, %lu taken, each as the parsers say%s%s\n",
			 g.writes, g.accepted, g.bad[0] ? ": " : "", g.bad);

	for (int i = 0; i < nfiles && ok; i++)
		ok = read_in_pieces(&files[i], why, sizeof(why));
	ksft_test_result(ok, "reads a byte at a time agree with whole reads%s%s\n",
			 ok ? "" : ": ", ok ? "" : why);

	mp.until = w[0].until = w[1].until = rdma_now() + secs;
	if (rdma_ctl_open(&mp.ctl, t.dev->name))
		ksft_exit_fail_msg("cannot open a second control handle\n");
	for (int i = 0; i < 2; i++) {
		w[i].g.seed = seed + i + 1;
		if (pthread_create(&w[i].thread, NULL, write_randomly, &w[i]))
			ksft_exit_fail_msg("pthread_create failed\n");
	}
	if (pthread_create(&mp.thread, NULL, map_meanwhile, &mp))
		ksft_exit_fail_msg("pthread_create failed\n");
	for (int i = 0; i < 2; i++)
		pthread_join(w[i].thread, NULL);
	pthread_join(mp.thread, NULL);
	rdma_ctl_close(&mp.ctl);
	ksft_print_msg("two writers: %lu and %lu writes (%lu and %lu taken), %lu maps meanwhile\n",
		       w[0].g.writes, w[1].g.writes, w[0].g.accepted, w[1].g.accepted, mp.maps);
	ok = !w[0].g.bad[0] && !w[1].g.bad[0] && !mp.bad[0] && mp.maps;
	ksft_test_result(ok, "two writers and a mapper: each result as the parsers say%s%s%s%s\n",
			 ok ? "" : ": ", w[0].g.bad[0] ? w[0].g.bad : w[1].g.bad,
			 mp.bad[0] ? " / " : "", mp.bad);

	/* Nothing the fuzzing did may outlive it. */
	ok = !rdma_pool_wait_used(t.pool->name, 0, 5, &used);
	for (int i = 0; i < nfiles && ok; i++) {
		char *now = slurp(files[i].path);

		if (files[i].fixed && (!now || strcmp(now, files[i].was))) {
			rdma_fmt(why, sizeof(why), "%s said %s, now %s", files[i].path,
				 files[i].was, now ? now : "nothing");
			ok = false;
		}
		free(now);
	}
	if (ok) {
		struct rdma_map m;
		bool data;

		ok = !rdma_map(&t.ctl, 4096, 0, "bidi", &m) && m.inpool &&
		     !rdma_unmap(&t.ctl, m.id, &data) && data;
		if (!ok)
			rdma_fmt(why, sizeof(why), "the device no longer maps: %s", t.ctl.res);
	} else if (!why[0]) {
		rdma_fmt(why, sizeof(why), "%" PRIu64 " slots still in use", used);
	}
	ksft_test_result(ok, "knobs and pool as before, the device still maps in its pool%s%s\n",
			 ok ? "" : ": ", ok ? "" : why);
	rdma_testdev_close(&t);
	for (int i = 0; i < nfiles; i++)
		free(files[i].was);
	free(in);
	ksft_finished();
}
