// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures on the restricted-DMA paths, injected one at a time.
 *
 * /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION, with failslab and
 * fail_page_alloc told to fail sleeping allocations too, and kmemleak's
 * own allocations left out through the stack-trace filter) makes the
 * n-th allocation of the next operation fail. Each case sweeps n = 1, 2, ...
 * until the operation completes before its n-th allocation, so every
 * allocation it makes fails once:
 *
 *  - probe: binding the test driver to /dma-test-fault, whose pool no
 *    other test touches. Its probes set up the pool (io_tlb_mem, slots,
 *    areas, debugfs, the device list) until one succeeds. With
 *    restricted_dma=strict a failure must fail the bind and leave the
 *    device unbound; a bind that succeeds must give a device that maps
 *    inside its pool, whatever allocation failed on the way.
 *  - map, map_sg and alloc through the control file of the board's test
 *    device (its pool's debugfs intact for the counts): each failure reads
 *    ENOMEM, frees what it took (the pool's io_tlb_used is back where it
 *    was), and is not counted as a pool failure (map_failures,
 *    alloc_failures): the pool itself never ran out.
 *
 * Afterwards the pool still maps, kmemleak (which must be on) finds no
 * new leak, and DMA-API debug has not turned itself off.
 *
 * It needs the debug kernel (make kernel-debug) in the strict boot, with
 * strict-board.dtso:
 *
 *   scripts/vm --debug --append restricted_dma=strict \
 *     --dtso tests/kselftest/restricted_dma/strict-board.dtso \
 *     -- /kselftest/run_kselftest.sh -t restricted_dma:fault_injection
 *
 * Without fail-nth (a kernel without fault injection) it skips.
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

#define FAULT_DEV	"dma-test-fault"
#define FAULT_POOL	"fault-pool@70e00000"
#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define STRICT		"restricted_dma=strict"
#define KMEMLEAK	"/sys/kernel/debug/kmemleak"
#define DMA_API_OFF	"/sys/kernel/debug/dma-api/disabled"
#define SWEPT		"/tmp/rdma-fault-pool-swept"
/* No sweep of ours comes near this many allocations: a bound, not a goal. */
#define MAX_NTH		4000
/* kmemleak reports only objects older than 5 s (MSECS_MIN_AGE). */
#define LEAK_AGE	6

/*
 * The knobs set for the run, and restored afterwards. NULL: where kmemleak
 * allocates (kmemleak_text()), which the count must skip. kmemleak allocates
 * an object of its own for each allocation and carries on if that fails,
 * so counted, every other n would let a probe through that should have
 * failed, and it would set the pool up for good.
 */
static const struct knob {
	const char *path, *value;
} knobs[] = {
	{ "/sys/kernel/debug/failslab/ignore-gfp-wait", "N" },
	{ "/sys/kernel/debug/failslab/verbose", "0" },
	{ "/sys/kernel/debug/failslab/reject-start", NULL },
	{ "/sys/kernel/debug/failslab/reject-end", NULL },
	{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N" },
	{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", "N" },
	{ "/sys/kernel/debug/fail_page_alloc/min-order", "0" },
	{ "/sys/kernel/debug/fail_page_alloc/verbose", "0" },
	{ "/sys/kernel/debug/fail_page_alloc/reject-start", NULL },
	{ "/sys/kernel/debug/fail_page_alloc/reject-end", NULL },
};
#define NKNOBS	(sizeof(knobs) / sizeof(knobs[0]))

FIXTURE(fault) {
	int nth;			/* /proc/thread-self/fail-nth */
	char *saved[NKNOBS];
	char why[256];
};

/*
 * Where kmemleak allocates an object and saves its stack trace: 6.12's
 * __alloc_object(), 6.1's __create_object() (mm/kmemleak.c), from
 * /proc/kallsyms, up to the next function. 0, or -ENOENT.
 */
static int kmemleak_text(unsigned long long *start, unsigned long long *end)
{
	unsigned long long addr, newer = 0, older = 0;
	char type, name[256];
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return -errno;
	while (fscanf(f, "%llx %c %255s%*[^\n]", &addr, &type, name) == 3) {
		if (type != 't' && type != 'T')
			continue;
		if (!strcmp(name, "__alloc_object"))
			newer = addr;
		else if (!strcmp(name, "__create_object"))
			older = addr;
	}
	*start = newer ? newer : older;
	*end = ~0ULL;
	rewind(f);
	while (*start && fscanf(f, "%llx %c %255s%*[^\n]", &addr, &type, name) == 3)
		if ((type == 't' || type == 'T') && addr > *start && addr < *end)
			*end = addr;
	fclose(f);
	return *start && *end != ~0ULL ? 0 : -ENOENT;
}

FIXTURE_SETUP(fault)
{
	unsigned long long start = 0, end = 0;
	char path[PATH_MAX], text[2][24];

	memset(self->saved, 0, sizeof(self->saved));
	self->nth = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	if (self->nth < 0)
		SKIP(return, "no %s: a kernel without CONFIG_FAULT_INJECTION", FAIL_NTH);
	if (!rdma_cmdline_has(STRICT))
		SKIP(return, "needs %s (and strict-board.dtso)", STRICT);
	rdma_fmt(path, sizeof(path), "/sys/bus/platform/devices/%s", FAULT_DEV);
	ASSERT_EQ(0, access(path, F_OK)) {
		TH_LOG("no %s: strict-board.dtso is not applied", FAULT_DEV);
	}
	ASSERT_EQ(0, kmemleak_text(&start, &end)) {
		TH_LOG("no kmemleak __alloc_object() or __create_object() in /proc/kallsyms");
	}
	snprintf(text[0], sizeof(text[0]), "%#llx", start);
	snprintf(text[1], sizeof(text[1]), "%#llx", end);
	for (size_t i = 0; i < NKNOBS; i++) {
		const char *v = knobs[i].value;

		if (!v)
			v = strstr(knobs[i].path, "-start") ? text[0] : text[1];
		self->saved[i] = rdma_read_file(knobs[i].path, NULL);
		ASSERT_NE(NULL, self->saved[i]) {
			TH_LOG("cannot read %s (CONFIG_FAULT_INJECTION_STACKTRACE_FILTER?)",
			       knobs[i].path);
		}
		ASSERT_EQ(0, rdma_write_str(knobs[i].path, v)) {
			TH_LOG("cannot set %s to %s", knobs[i].path, v);
		}
	}
	/*
	 * The leak check needs kmemleak on, and the leaks from before this
	 * test are not its business: what two scans report now is cleared
	 * (a new object is only reported by the second scan that sees it).
	 */
	ASSERT_EQ(0, rdma_write_str(KMEMLEAK, "scan")) {
		TH_LOG("kmemleak is off (CONFIG_DEBUG_KMEMLEAK, kmemleak=on?)");
	}
	ASSERT_EQ(0, rdma_write_str(KMEMLEAK, "scan"));
	ASSERT_EQ(0, rdma_write_str(KMEMLEAK, "clear"));
}

FIXTURE_TEARDOWN(fault)
{
	if (self->nth >= 0) {
		pwrite(self->nth, "0", 1, 0);
		close(self->nth);
	}
	for (size_t i = 0; i < NKNOBS; i++) {
		if (self->saved[i])
			rdma_write_str(knobs[i].path, self->saved[i]);
		free(self->saved[i]);
	}
}

/* Arm fail-nth for the calling thread: its n-th allocation from now fails. */
static int arm(int nth, unsigned int n)
{
	char s[16];
	int len = snprintf(s, sizeof(s), "%u", n);

	return pwrite(nth, s, len, 0) == len ? 0 : -errno;
}

/*
 * Disarm it; whether the n-th allocation was reached (and so failed). The
 * counter left is what remained when the operation finished.
 */
static bool disarm(int nth)
{
	char s[16] = "";
	ssize_t n = pread(nth, s, sizeof(s) - 1, 0);

	pwrite(nth, "0", 1, 0);
	return n > 0 && strtoul(s, NULL, 10) == 0;
}

/* Whether a driver is bound to the device (rdma_device_state()). */
static bool bound(const char *dev)
{
	return !strcmp(rdma_device_state(dev), "live");
}

/* The device maps a page inside its pool, and unmaps it intact. */
static int maps_in_pool(const char *dev, char *why, size_t len)
{
	struct rdma_ctl c;
	struct rdma_map m;
	bool ok = false;
	int ret;

	ret = rdma_ctl_open(&c, dev);
	if (ret) {
		rdma_fmt(why, len, "no control file: %s", strerror(-ret));
		return ret;
	}
	ret = rdma_map(&c, 4096, 0, "bidi", &m);
	if (ret)
		rdma_fmt(why, len, "map: %s", c.res);
	else if (!m.inpool)
		rdma_fmt(why, len, "mapped outside its pool: %s", c.res);
	else if (rdma_unmap(&c, m.id, &ok) || !ok)
		rdma_fmt(why, len, "unmap: %s", c.res);
	rdma_ctl_close(&c);
	return ret ? ret : (m.inpool && ok) ? 0 : -EIO;
}

/*
 * A kmemleak report whose backtrace passes through the code under test:
 * swiotlb and its restricted pools, their setup from the device tree, the
 * DMA API's direct mapping and the test driver.
 */
static bool ours(const char *report)
{
	static const char *const paths[] = {
		"swiotlb", "rmem_", "of_reserved_mem", "of_dma_", "rdt_", "dma_direct",
		"dma_map_", "dma_alloc_attrs", "dma_audit",
	};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (strstr(report, paths[i]))
			return true;
	return false;
}

/*
 * After LEAK_AGE seconds, a kmemleak scan finds no leak from the code
 * under test: 0, or 1 with the first such report (or what stopped the
 * check) in why. Task stacks are left out of that scan: the sweep leaves the
 * pointers it freed, or leaked, in stale stack frames, which would hide
 * a leak (stack=off; the reports are then narrowed to our code's).
 */
static int leaks(char *why, size_t len)
{
	char *report, *p, *next;
	int ret = 0;

	sleep(LEAK_AGE);
	if (rdma_write_str(KMEMLEAK, "stack=off") || rdma_write_str(KMEMLEAK, "scan") ||
	    rdma_write_str(KMEMLEAK, "scan")) {
		rdma_write_str(KMEMLEAK, "stack=on");
		rdma_fmt(why, len, "kmemleak no longer scans: it turned itself off");
		return 1;
	}
	report = rdma_read_file(KMEMLEAK, NULL);
	rdma_write_str(KMEMLEAK, "stack=on");
	for (p = report ? strstr(report, "unreferenced object") : NULL; p && !ret; p = next) {
		next = strstr(p + 1, "unreferenced object");
		if (next)
			next[-1] = '\0';
		if (ours(p)) {
			rdma_fmt(why, len, "%.400s", p);
			ret = 1;
		}
	}
	free(report);
	return ret;
}

/*
 * DMA-API debug turns itself off for good when an allocation of its own
 * fails: the sweep must leave it on, or every later test runs unchecked.
 * Without it (not the debug kernel), nothing to check.
 */
static bool dma_debug_on(void)
{
	char *v = rdma_read_file(DMA_API_OFF, NULL);
	bool on = !v || v[0] == 'N';

	free(v);
	return on;
}

/*
 * The harness's default of 30 s per test is too short for these loops on
 * the debug kernel (KASAN, kmemleak, lockdep) under TCG when make check
 * boots other boards beside it: both took over 30 s there.
 */
#define FAULT_TIMEOUT 240

/*
 * Bind the test driver to the fault device with the n-th allocation of
 * the bind failing, for every n, then check the device after each.
 */
TEST_F_TIMEOUT(fault, probe, FAULT_TIMEOUT)
{
	char override[PATH_MAX], bind[PATH_MAX], dir[PATH_MAX];
	unsigned int n, failed = 0, survived = 0;
	bool injected = true, misplaced;
	int fd, ret;

	rdma_fmt(override, sizeof(override), "/sys/bus/platform/devices/%s/driver_override",
		 FAULT_DEV);
	rdma_fmt(bind, sizeof(bind), "/sys/bus/platform/drivers/%s/bind", RDMA_TEST_DRIVER);
	ASSERT_FALSE(bound(FAULT_DEV)) {
		TH_LOG("%s is bound already: its pool is no longer fresh", FAULT_DEV);
	}
	/*
	 * A pool is set up once, for good, by the first probe of a device
	 * that names it: then the sweep would not reach its setup. Its
	 * directory shows that it was, unless an earlier sweep failed the
	 * directory's creation; that one left a mark (tmpfs: one a boot).
	 */
	ASSERT_NE(0, rdma_pool_debugfs(FAULT_POOL, dir, sizeof(dir), &misplaced)) {
		TH_LOG("%s is set up already (%s)", FAULT_POOL, dir);
	}
	fd = open(SWEPT, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	ASSERT_LE(0, fd) {
		TH_LOG("%s: %s", SWEPT, errno == EEXIST ?
		       "swept in this boot already, so its pool is set up" : strerror(errno));
	}
	close(fd);
	for (n = 1; injected && n <= MAX_NTH; n++) {
		ASSERT_EQ(0, rdma_write_str(override, RDMA_TEST_DRIVER));
		fd = open(bind, O_WRONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, arm(self->nth, n));
		ret = write(fd, FAULT_DEV, strlen(FAULT_DEV)) < 0 ? -errno : 0;
		injected = disarm(self->nth);
		close(fd);

		if (ret) {
			/* Reported: then nothing may be left bound. */
			ASSERT_TRUE(injected) {
				TH_LOG("bind failed without an injected failure: %s",
				       strerror(-ret));
			}
			ASSERT_FALSE(bound(FAULT_DEV)) {
				TH_LOG("allocation %u failed the bind (%s), yet the driver is bound",
				       n, strerror(-ret));
			}
			failed++;
			continue;
		}
		ASSERT_TRUE(bound(FAULT_DEV));
		ASSERT_EQ(0, maps_in_pool(FAULT_DEV, self->why, sizeof(self->why))) {
			TH_LOG("bound with allocation %u failing, then: %s", n, self->why);
		}
		survived += injected;
		rdma_drv_unbind(FAULT_DEV);
	}
	ASSERT_FALSE(injected) {
		TH_LOG("the bind still allocated after %u allocations", MAX_NTH);
	}
	ksft_print_msg("bind: %u allocations, %u failed it, %u it survived\n", n - 1,
		       failed, survived);
	/* Not a failure: debugfs files are best effort, as everywhere. */
	if (rdma_pool_debugfs(FAULT_POOL, dir, sizeof(dir), &misplaced))
		ksft_print_msg("the pool has no debugfs directory: its creation failed\n");
	ASSERT_LT(0U, failed) {
		TH_LOG("no injected failure failed the bind: fail-nth did not reach the probe");
	}

	/* The pool set up by the last bind serves the device. */
	ASSERT_EQ(0, rdma_drv_bind(FAULT_DEV));
	EXPECT_EQ(0, maps_in_pool(FAULT_DEV, self->why, sizeof(self->why))) {
		TH_LOG("after the sweep: %s", self->why);
	}
	rdma_drv_unbind(FAULT_DEV);
	EXPECT_TRUE(dma_debug_on()) {
		TH_LOG("DMA-API debug turned itself off in the probe sweep");
	}
	EXPECT_EQ(0, leaks(self->why, sizeof(self->why))) {
		TH_LOG("kmemleak after the probe sweep: %s", self->why);
	}
}

static const char *const commands[] = {
	"map 65536 0 bidi",
	"map 4096 769 from",
	"map_sg 8 16384 0 to",
	"alloc 65536",
};

/* Undo what a command that succeeded made. */
static int undo(struct rdma_ctl *c, const char *cmd)
{
	uint64_t id;

	if (rdma_res_u64(c->res, "id", &id))
		return -EINVAL;
	if (!strncmp(cmd, "map_sg", 6))
		return rdma_ctl_cmd(c, "unmap_sg %llu", (unsigned long long)id);
	if (!strncmp(cmd, "map", 3))
		return rdma_ctl_cmd(c, "unmap %llu", (unsigned long long)id);
	return rdma_ctl_cmd(c, "free %llu", (unsigned long long)id);
}

/*
 * Each command of the control file with its n-th allocation failing, for
 * every n: ENOMEM, nothing left in the pool, no pool failure counted.
 */
TEST_F_TIMEOUT(fault, map_and_alloc, FAULT_TIMEOUT)
{
	struct rdma_stats before, after;
	struct rdma_testdev t;
	struct rdma_board b;
	const char *pool;
	uint64_t used;
	int ret;

	rdma_board_load(&b);
	ASSERT_EQ(0, rdma_testdev_open(&t, &b, false, self->why, sizeof(self->why))) {
		TH_LOG("%s", self->why);
	}
	pool = t.pool->name;
	ASSERT_EQ(0, rdma_stats_read(pool, &before));

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		unsigned int n, failed = 0;
		bool injected = true;

		for (n = 1; injected && n <= MAX_NTH; n++) {
			ASSERT_EQ(0, arm(self->nth, n));
			ret = rdma_ctl_cmd(&t.ctl, "%s", commands[i]);
			injected = disarm(self->nth);
			if (ret) {
				ASSERT_TRUE(injected) {
					TH_LOG("'%s' failed with nothing injected: %s",
					       commands[i], t.ctl.res);
				}
				ASSERT_EQ(-ENOMEM, ret) {
					TH_LOG("'%s' with allocation %u failing: %s",
					       commands[i], n, t.ctl.res);
				}
				failed++;
			} else {
				ASSERT_TRUE(rdma_res_is(t.ctl.res, "inpool", "1")) {
					TH_LOG("'%s' with allocation %u failing: %s",
					       commands[i], n, t.ctl.res);
				}
				ASSERT_EQ(0, undo(&t.ctl, commands[i])) {
					TH_LOG("undoing '%s': %s", commands[i], t.ctl.res);
				}
			}
			ASSERT_EQ(0, rdma_pool_wait_used(pool, 0, 5, &used)) {
				TH_LOG("'%s' with allocation %u failing left %llu slots in use",
				       commands[i], n, (unsigned long long)used);
			}
		}
		ASSERT_FALSE(injected);
		ksft_print_msg("'%s': %u allocations, %u of them failed it\n",
			       commands[i], n - 1, failed);
		EXPECT_LT(0U, failed) {
			TH_LOG("'%s': no injected failure reached it", commands[i]);
		}
	}

	ASSERT_EQ(0, rdma_stats_read(pool, &after));
	EXPECT_EQ(0ULL, (unsigned long long)rdma_stat_delta(&before, &after, "map_failures"));
	EXPECT_EQ(0ULL, (unsigned long long)rdma_stat_delta(&before, &after, "alloc_failures"));
	EXPECT_EQ(0ULL, (unsigned long long)rdma_stat_delta(&before, &after, "out_of_pool"));
	rdma_testdev_close(&t);

	ASSERT_EQ(0, rdma_drv_bind(t.dev->name));
	EXPECT_EQ(0, maps_in_pool(t.dev->name, self->why, sizeof(self->why))) {
		TH_LOG("after the sweep: %s", self->why);
	}
	rdma_drv_unbind(t.dev->name);
	EXPECT_TRUE(dma_debug_on()) {
		TH_LOG("DMA-API debug turned itself off in the control-file sweep");
	}
	EXPECT_EQ(0, leaks(self->why, sizeof(self->why))) {
		TH_LOG("kmemleak after the control-file sweep: %s", self->why);
	}
}

TEST_HARNESS_MAIN
