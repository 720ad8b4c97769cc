// SPDX-License-Identifier: GPL-2.0
/*
 * Strict mode (kernel/VER/patches: "dma-mapping: audit devices ..."): with
 * restricted_dma=strict every restricted pool refuses RAM outside it (a
 * device's registers are MMIO and pass, counted apart), fences a device
 * whose pool is released under its driver, refuses what a driver's own
 * dma_map_ops allocate outside it without warning in atomic context, and
 * stays strict: its swiotlb/<pool>/strict debugfs file can turn strict on,
 * never off (EPERM). Strictness cannot be undone within a boot,
 * so this runs in the strict boot, with strict_probe:
 *
 *   scripts/vm --append restricted_dma=strict \
 *     --dtso tests/kselftest/restricted_dma/strict-board.dtso \
 *     -- /kselftest/run_kselftest.sh -t restricted_dma:strict_mode
 *
 * Without restricted_dma=strict on the command line every test skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_harness.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_stats.h"
#include "rdma_trace.h"

#define STRICT		"restricted_dma=strict"
#define EVENT		"swiotlb/swiotlb_out_of_pool"
#define UART_PHYS	0x9000000ULL	/* QEMU virt's PL011, outside every pool */
#define HIGH_PHYS	0x7f000000ULL	/* RAM above every pool */

static struct rdma_board board;

FIXTURE(strict) {
	struct rdma_testdev t;
	bool open;
};

FIXTURE_SETUP(strict)
{
	char why[256];

	if (!rdma_cmdline_has(STRICT))
		SKIP(return, "needs %s: the strict boot (see the source)", STRICT);
	ASSERT_EQ(0, rdma_testdev_open(&self->t, &board, false, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	self->open = true;
}

FIXTURE_TEARDOWN(strict)
{
	rdma_trace_stop(EVENT);
	if (self->open)
		rdma_testdev_close(&self->t);
}

/* The pool's strict file, as read now (malloc'd), or NULL. */
static char *strict_now(FIXTURE_DATA(strict) *self)
{
	char path[PATH_MAX];

	if (rdma_pool_file(self->t.pool->name, "strict", path, sizeof(path)))
		return NULL;
	return rdma_read_file(path, NULL);
}

static void expect_strict(struct __test_metadata *_metadata,
			  FIXTURE_DATA(strict) *self, const char *when)
{
	char *s = strict_now(self);

	ASSERT_NE(NULL, s);
	EXPECT_STREQ("Y\n", s) TH_LOG("%s: strict reads %s", when, s);
	free(s);
}

TEST_F(strict, on_from_boot)
{
	expect_strict(_metadata, self, "at boot");
}

TEST_F(strict, cannot_be_turned_off)
{
	const char *pool = self->t.pool->name;

	EXPECT_EQ(-EPERM, rdma_pool_write(pool, "strict", "0"));
	expect_strict(_metadata, self, "after writing 0");
	EXPECT_EQ(-EPERM, rdma_pool_write(pool, "strict", "N\n"));
	expect_strict(_metadata, self, "after writing N");
	EXPECT_EQ(-EINVAL, rdma_pool_write(pool, "strict", "maybe"));
	EXPECT_EQ(0, rdma_pool_write(pool, "strict", "1"));
	expect_strict(_metadata, self, "after writing 1");
}

/* One refusal since @before: counted out of pool once, traced once as @needles say. */
static void expect_one_refusal(struct __test_metadata *_metadata,
			       FIXTURE_DATA(strict) *self,
			       const struct rdma_stats *before, const char *const *needles)
{
	struct rdma_stats after;
	char *trace;

	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &after));
	EXPECT_EQ(1U, rdma_stat_delta(before, &after, "out_of_pool"));
	trace = rdma_trace_read();
	ASSERT_NE(NULL, trace);
	EXPECT_EQ(1, rdma_trace_count(trace, "swiotlb_out_of_pool", needles));
	free(trace);
}

TEST_F(strict, refuses_out_of_pool)
{
	const char *needles[] = { "api=dma_map_resource ", " REFUSED", NULL };
	struct rdma_stats before;
	struct rdma_map m;
	bool ok;

	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &before));
	ASSERT_EQ(0, rdma_trace_start(EVENT));
	EXPECT_EQ(-EIO, rdma_ctl_cmd(&self->t.ctl, "map_resource %#llx 4096 to", HIGH_PHYS)) {
		TH_LOG("strict pool, map_resource of RAM: %s", self->t.ctl.res);
	}
	rdma_trace_stop(EVENT);
	expect_one_refusal(_metadata, self, &before, needles);

	/* Strict refuses only what is outside: the pool still works. */
	ASSERT_EQ(0, rdma_map(&self->t.ctl, 4096, 0, "bidi", &m)) TH_LOG("%s", self->t.ctl.res);
	EXPECT_TRUE(m.inpool && m.bounce_ok);
	EXPECT_EQ(0, rdma_unmap(&self->t.ctl, m.id, &ok));
}

/* A device's registers are not RAM: counted as mmio, never refused. */
TEST_F(strict, mmio_not_refused)
{
	const char *needles[] = { "api=dma_map_resource ", " MMIO", NULL };
	struct rdma_stats before, after;
	uint64_t id;
	char *trace;

	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &before));
	ASSERT_EQ(0, rdma_trace_start(EVENT));
	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "map_resource %#llx 4096 to", UART_PHYS)) {
		TH_LOG("strict pool, map_resource of the UART: %s", self->t.ctl.res);
	}
	rdma_trace_stop(EVENT);
	ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "id", &id));
	EXPECT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "unmap_resource %llu", (unsigned long long)id));
	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &after));
	EXPECT_EQ(1U, rdma_stat_delta(&before, &after, "mmio"));
	EXPECT_EQ(0U, rdma_stat_delta(&before, &after, "out_of_pool"));
	trace = rdma_trace_read();
	ASSERT_NE(NULL, trace);
	EXPECT_EQ(1, rdma_trace_count(trace, "swiotlb_out_of_pool", needles));
	EXPECT_EQ(NULL, strstr(trace, "REFUSED"));
	free(trace);
}

/*
 * A part of the device given dma_map_ops of its own by its driver (the
 * test driver's "ops_alloc"), whose coherent memory comes from outside
 * the pool: refused and freed, also when the driver allocates in atomic
 * context with interrupts off. There the kernel must not free it in
 * place: dma_free_attrs() warns with interrupts off, and the part's free
 * may sleep (scripts/vm fails the boot on either report). The board's
 * kernels have no struct dma_map_ops on arm64 (it needs CONFIG_XEN) and
 * skip; the debug kernel has them.
 */
TEST_F(strict, own_dma_ops_alloc_refused_in_any_context)
{
	const char *needles[] = { "api=dma_alloc ", " REFUSED", NULL };
	const char *const how[] = { "", " atomic" };
	struct rdma_stats before;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &before));
		ASSERT_EQ(0, rdma_trace_start(EVENT));
		rc = rdma_ctl_cmd(&self->t.ctl, "ops_alloc 8192%s", how[i]);
		rdma_trace_stop(EVENT);
		if (rc == -EOPNOTSUPP)
			SKIP(return, "no struct dma_map_ops in this kernel (CONFIG_XEN on arm64)");
		ASSERT_EQ(0, rc) TH_LOG("ops_alloc 8192%s: %s", how[i], self->t.ctl.res);
		EXPECT_TRUE(rdma_res_is(self->t.ctl.res, "alloc", "failed")) {
			TH_LOG("ops_alloc 8192%s not refused: %s", how[i], self->t.ctl.res);
		}
		EXPECT_TRUE(rdma_res_is(self->t.ctl.res, "freed", "1")) {
			TH_LOG("ops_alloc 8192%s, the refused buffer: %s", how[i], self->t.ctl.res);
		}
		expect_one_refusal(_metadata, self, &before, needles);
	}
}

/*
 * A driver that releases its device's reserved memory and goes on (as
 * some drivers' error paths do) must not get DMA to all of memory: the
 * device is fenced, every mapping and allocation fails, until it probes
 * again and gets its pool back.
 */
TEST_F(strict, released_pool_fences_the_device)
{
	char why[256];
	struct rdma_map m;
	bool ok;

	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "release")) TH_LOG("%s", self->t.ctl.res);
	EXPECT_TRUE(rdma_res_is(self->t.ctl.res, "pool", "fenced")) {
		TH_LOG("after release: %s", self->t.ctl.res);
	}
	EXPECT_EQ(-ENOMEM, rdma_ctl_cmd(&self->t.ctl, "map 4096 0 to")) {
		TH_LOG("map after release: %s", self->t.ctl.res);
	}
	EXPECT_EQ(-EIO, rdma_ctl_cmd(&self->t.ctl, "map_sg 4 4096 0 bidi")) {
		TH_LOG("map_sg after release: %s", self->t.ctl.res);
	}
	EXPECT_EQ(-ENOMEM, rdma_ctl_cmd(&self->t.ctl, "alloc 4096")) {
		TH_LOG("alloc after release: %s", self->t.ctl.res);
	}
	EXPECT_EQ(-EIO, rdma_ctl_cmd(&self->t.ctl, "map_resource %#llx 4096 to", HIGH_PHYS)) {
		TH_LOG("map_resource after release: %s", self->t.ctl.res);
	}

	/* A new probe gives the pool back. */
	rdma_testdev_close(&self->t);
	self->open = false;
	ASSERT_EQ(0, rdma_testdev_open(&self->t, &board, false, why, sizeof(why))) TH_LOG("%s", why);
	self->open = true;
	ASSERT_EQ(0, rdma_map(&self->t.ctl, 4096, 0, "bidi", &m)) TH_LOG("%s", self->t.ctl.res);
	EXPECT_TRUE(m.inpool && m.bounce_ok);
	EXPECT_EQ(0, rdma_unmap(&self->t.ctl, m.id, &ok));
}

/*
 * A driver that sets up DMA for a part of its device itself, with
 * of_dma_configure(), and ignores the result, as some do: strict-board.dtso
 * gives /dma-test a child node whose pool (tiny-pool) cannot be set up.
 * The configure fails, and the part is fenced: its mapping is refused.
 */
TEST_F(strict, failed_pool_fences_a_device_whose_driver_ignores_it)
{
	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "child")) TH_LOG("child: %s", self->t.ctl.res);
	EXPECT_FALSE(rdma_res_is(self->t.ctl.res, "configure", "0")) {
		TH_LOG("of_dma_configure() accepted a pool that cannot be set up: %s",
		       self->t.ctl.res);
	}
	EXPECT_TRUE(rdma_res_is(self->t.ctl.res, "map", "refused")) {
		TH_LOG("the part mapped with no restricted pool: %s", self->t.ctl.res);
	}
}

/*
 * The same part, configured the way bcma configures its cores: without
 * forcing DMA configuration, and with no dma-ranges anywhere up the tree.
 * of_dma_configure_id() returned success there before looking at the
 * restricted pool ("of: device: set up the restricted DMA pool of devices
 * without dma-ranges"), and the part mapped with no pool at all.
 */
TEST_F(strict, unforced_configure_does_not_skip_the_pool)
{
	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "child noforce")) {
		TH_LOG("child noforce: %s", self->t.ctl.res);
	}
	EXPECT_FALSE(rdma_res_is(self->t.ctl.res, "configure", "0")) {
		TH_LOG("of_dma_configure() skipped the pool: %s", self->t.ctl.res);
	}
	EXPECT_TRUE(rdma_res_is(self->t.ctl.res, "map", "refused")) {
		TH_LOG("the part mapped with no restricted pool: %s", self->t.ctl.res);
	}
	EXPECT_TRUE(rdma_res_is(self->t.ctl.res, "pool", "fenced")) {
		TH_LOG("the part is not fenced: %s", self->t.ctl.res);
	}
}

int main(int argc, char **argv)
{
	rdma_board_load(&board);
	return test_harness_run(argc, argv);
}
