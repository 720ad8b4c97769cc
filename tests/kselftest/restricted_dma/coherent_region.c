// SPDX-License-Identifier: GPL-2.0
/*
 * The binding's two-region configuration (reserved-memory/
 * shared-dma-pool.yaml): a device names a restricted pool for its
 * streaming DMA and a shared-dma-pool for its coherent allocations. The
 * board's /dma-test-dual does; the test driver attaches the shared pool
 * at probe, as a real driver would. Coherent memory must come from the
 * shared pool, mappings must bounce through the restricted pool, and the
 * audit must count neither as out of pool. With restricted_dma=strict
 * (the strict boot runs this test too) both must still work, while RAM
 * outside both regions is still counted, and refused. Only the shared
 * pool can serve coherent memory in atomic context.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_harness.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_stats.h"
#include "rdma_trace.h"

#define EVENT		"swiotlb/swiotlb_out_of_pool"
#define STRICT		"restricted_dma=strict"
/* RAM above every region of the board */
#define HIGH_PHYS	0x7f000000ULL

static struct rdma_board board;

FIXTURE(dual) {
	struct rdma_testdev t;
	char coherent[RDMA_NAME_LEN];
	uint64_t cbase, cend;
	struct rdma_stats before;
	bool strict;
};

/* The layout's test device whose node also names a shared-dma-pool. */
static const struct rdma_device *dual_device(char *region, size_t len)
{
	for (int i = 0; i < board.ndevices; i++) {
		const struct rdma_device *d = &board.devices[i];

		if (!strcmp(d->role, "test") &&
		    !rdma_dt_device_region(d->name, "shared-dma-pool", region, len))
			return d;
	}
	return NULL;
}

FIXTURE_SETUP(dual)
{
	const struct rdma_device *d = dual_device(self->coherent, sizeof(self->coherent));
	uint64_t size;
	char why[256];

	ASSERT_NE(NULL, d) TH_LOG("no test device of the layout names a shared-dma-pool");
	ASSERT_EQ(0, rdma_dt_pool_reg(self->coherent, &self->cbase, &size));
	self->cend = self->cbase + size;
	ASSERT_EQ(0, rdma_testdev_open_dev(&self->t, &board, d, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	self->strict = rdma_cmdline_has(STRICT);
	ASSERT_EQ(0, rdma_stats_read(self->t.pool->name, &self->before));
	ASSERT_EQ(0, rdma_trace_start(EVENT));
}

FIXTURE_TEARDOWN(dual)
{
	rdma_trace_stop(EVENT);
	rdma_testdev_close(&self->t);
}

/* The device's out-of-pool events since setup. */
static long events(FIXTURE_DATA(dual) *self)
{
	char needle[RDMA_NAME_LEN + 16];
	const char *needles[] = { needle, NULL };
	char *trace = rdma_trace_read();
	long n;

	if (!trace)
		return -1;
	rdma_fmt(needle, sizeof(needle), "dev_name: %s ", self->t.dev->name);
	n = rdma_trace_count(trace, "swiotlb_out_of_pool", needles);
	free(trace);
	return n;
}

static uint64_t delta(FIXTURE_DATA(dual) *self, const char *key)
{
	struct rdma_stats now;

	if (rdma_stats_read(self->t.pool->name, &now))
		return UINT64_MAX;
	return rdma_stat_delta(&self->before, &now, key);
}

TEST_F(dual, strict_as_booted)
{
	char path[512], *s;

	ASSERT_EQ(0, rdma_pool_file(self->t.pool->name, "strict", path, sizeof(path)));
	s = rdma_read_file(path, NULL);
	ASSERT_NE(NULL, s);
	EXPECT_STREQ(self->strict ? "Y\n" : "N\n", s);
	free(s);
}

/* Coherent memory comes from the shared pool, whole, and is not reported. */
TEST_F(dual, coherent_from_shared_pool)
{
	static const size_t sizes[] = { 4096, 65536, 262144 };
	uint64_t id[3], dma, size;

	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "alloc %zu", sizes[i])) {
			TH_LOG("alloc %zu: %s", sizes[i], self->t.ctl.res);
		}
		ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "id", &id[i]));
		ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "dma", &dma));
		ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "size", &size));
		EXPECT_TRUE(dma >= self->cbase && dma < self->cend && size <= self->cend - dma) {
			TH_LOG("alloc %zu at %#llx: not in %s [%#llx, %#llx)", sizes[i],
			       (unsigned long long)dma, self->coherent,
			       (unsigned long long)self->cbase, (unsigned long long)self->cend);
		}
	}
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "free %llu", (unsigned long long)id[i]));
	rdma_trace_stop(EVENT);
	EXPECT_EQ(0U, delta(self, "out_of_pool"));
	EXPECT_EQ(0U, delta(self, "mmio"));
	EXPECT_EQ(0U, delta(self, "allocs")) TH_LOG("served by the restricted pool");
	EXPECT_EQ(0, events(self));
}

/*
 * A driver that needs coherent memory in atomic context: the shared pool
 * serves it without sleeping. Its restricted pool alone would have to
 * remap the memory for this device, which does not snoop caches.
 */
TEST_F(dual, atomic_alloc_from_shared_pool)
{
	uint64_t id, dma;

	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "alloc 4096 atomic")) TH_LOG("%s", self->t.ctl.res);
	ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "id", &id));
	ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "dma", &dma));
	EXPECT_TRUE(dma >= self->cbase && dma < self->cend) {
		TH_LOG("atomic alloc at %#llx: not in %s", (unsigned long long)dma, self->coherent);
	}
	EXPECT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "free %llu", (unsigned long long)id));
}

/*
 * The same device with its restricted pool only (the board's plain test
 * device, which does not snoop caches either): the allocation would be
 * remapped in atomic context, which can sleep (a "sleeping function
 * called from invalid context" BUG on the debug kernel). It is refused
 * instead ("dma-direct: refuse atomic allocations that a restricted pool
 * would remap"); a blocking one still comes from the pool.
 */
FIXTURE(plain) {
	struct rdma_testdev t;
};

FIXTURE_SETUP(plain)
{
	char why[256];

	ASSERT_EQ(0, rdma_testdev_open(&self->t, &board, false, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
}

FIXTURE_TEARDOWN(plain)
{
	rdma_testdev_close(&self->t);
}

TEST_F(plain, atomic_alloc_without_shared_pool_is_refused)
{
	uint64_t id;

	EXPECT_EQ(-ENOMEM, rdma_ctl_cmd(&self->t.ctl, "alloc 4096 atomic")) {
		TH_LOG("%s: atomic alloc: %s", self->t.dev->name, self->t.ctl.res);
	}
	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "alloc 4096")) TH_LOG("%s", self->t.ctl.res);
	EXPECT_TRUE(rdma_res_is(self->t.ctl.res, "inpool", "1")) TH_LOG("%s", self->t.ctl.res);
	ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "id", &id));
	EXPECT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "free %llu", (unsigned long long)id));
}

/*
 * A driver whose error path releases the reserved memory while buffers
 * are live ("swiotlb: keep a device on its restricted pool while it holds
 * slots there"): the device keeps its pool until it probes again, so the
 * buffers are freed and unmapped through it, and it stays restricted.
 * Before, it moved at once: freeing the coherent buffer gave the pool's
 * page to the page allocator, both buffers' 4 slots stayed in use, and
 * the next mapping landed outside the pool.
 */
TEST_F(plain, release_with_buffers_live_keeps_the_pool)
{
	struct rdma_map m, again;
	uint64_t id, used;
	bool ok;

	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "alloc 4096")) TH_LOG("%s", self->t.ctl.res);
	ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "id", &id));
	ASSERT_EQ(0, rdma_map(&self->t.ctl, 4096, 0, "bidi", &m)) TH_LOG("%s", self->t.ctl.res);
	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "release force")) TH_LOG("%s", self->t.ctl.res);
	EXPECT_TRUE(rdma_res_is(self->t.ctl.res, "pool", self->t.pool->name)) {
		TH_LOG("released with buffers live: %s", self->t.ctl.res);
	}
	EXPECT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "free %llu", (unsigned long long)id));
	EXPECT_EQ(0, rdma_unmap(&self->t.ctl, m.id, &ok));
	EXPECT_TRUE(ok) TH_LOG("the mapping's data did not come back");
	ASSERT_EQ(0, rdma_pool_u64(self->t.pool->name, "io_tlb_used", &used));
	EXPECT_EQ(0U, used) TH_LOG("slots of the freed buffers still in use");
	ASSERT_EQ(0, rdma_map(&self->t.ctl, 4096, 0, "to", &again)) TH_LOG("%s", self->t.ctl.res);
	EXPECT_TRUE(again.inpool) TH_LOG("mapped outside its pool after the release");
	EXPECT_EQ(0, rdma_unmap(&self->t.ctl, again.id, &ok));
}

/* Streaming DMA still bounces through the restricted pool. */
TEST_F(dual, mappings_bounce_through_restricted_pool)
{
	struct rdma_map m;
	bool ok;

	ASSERT_EQ(0, rdma_map(&self->t.ctl, 16384, 100, "bidi", &m)) TH_LOG("%s", self->t.ctl.res);
	EXPECT_TRUE(m.inpool) TH_LOG("mapped at %#llx", (unsigned long long)m.dma);
	EXPECT_TRUE(m.bounce_ok);
	EXPECT_EQ(0, rdma_unmap(&self->t.ctl, m.id, &ok));
	EXPECT_TRUE(ok);
	rdma_trace_stop(EVENT);
	EXPECT_EQ(1U, delta(self, "maps"));
	EXPECT_EQ(0U, delta(self, "out_of_pool"));
	EXPECT_EQ(0, events(self));
}

/* The allowance is the two regions, not all of RAM. */
TEST_F(dual, ram_outside_both_regions_reported)
{
	uint64_t id;
	int ret;

	ret = rdma_ctl_cmd(&self->t.ctl, "map_resource %#llx 4096 to", HIGH_PHYS);
	rdma_trace_stop(EVENT);
	if (self->strict) {
		EXPECT_EQ(-EIO, ret) TH_LOG("strict, map_resource: %s", self->t.ctl.res);
	} else {
		ASSERT_EQ(0, ret) TH_LOG("map_resource: %s", self->t.ctl.res);
		ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "id", &id));
		EXPECT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "unmap_resource %llu",
					  (unsigned long long)id));
	}
	EXPECT_EQ(1U, delta(self, "out_of_pool"));
	EXPECT_EQ(1, events(self));
}

/*
 * A driver that leaves the reserved memory assigned (dma_map_benchmark),
 * then one that releases it on unbind (the test driver, for its shared
 * pool). Every probe assigns the restricted pool again; the region is
 * listed once per device ("of: reserved_mem: list a region assigned to a
 * device once"), so a release after many probes releases the pool once:
 * before, once per probe, and each release after the first took the
 * default pool's uninitialised device list and oopsed.
 */
FIXTURE(rebind) {
};

FIXTURE_SETUP(rebind)
{
}

FIXTURE_TEARDOWN(rebind)
{
}

/* Probe and unbind a driver that keeps the reserved memory, n times. */
static int probes_without_release(const struct rdma_device *d, int n)
{
	for (int i = 0; i < n; i++) {
		int ret = rdma_bind_driver(d->name, "dma_map_benchmark");

		if (ret)
			return ret;
		rdma_unbind_driver(d->name, "dma_map_benchmark");
	}
	return 0;
}

TEST_F(rebind, after_a_driver_that_keeps_the_pool)
{
	char region[RDMA_NAME_LEN], why[256];
	const struct rdma_device *d = dual_device(region, sizeof(region));
	struct rdma_testdev t;
	struct rdma_map m;
	bool ok;

	ASSERT_NE(NULL, d) TH_LOG("no test device of the layout names a shared-dma-pool");
	ASSERT_EQ(0, probes_without_release(d, 2)) {
		TH_LOG("cannot bind dma_map_benchmark to %s", d->name);
	}
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(0, rdma_testdev_open_dev(&t, &board, d, why, sizeof(why))) TH_LOG("%s", why);
		EXPECT_EQ(0, rdma_map(&t.ctl, 4096, 0, "bidi", &m)) TH_LOG("%s", t.ctl.res);
		EXPECT_TRUE(m.inpool) TH_LOG("bind %d: mapped outside the pool", i);
		EXPECT_EQ(0, rdma_unmap(&t.ctl, m.id, &ok));
		rdma_testdev_close(&t);
	}
}

/* Probes without releases, then one release: one swiotlb_detach. */
TEST_F(rebind, release_once_after_many_probes)
{
	static const char *const event = "swiotlb/swiotlb_detach";
	char region[RDMA_NAME_LEN], why[256], *trace;
	const struct rdma_device *d = dual_device(region, sizeof(region));
	const char *needles[] = { d ? d->name : "", NULL };
	struct rdma_testdev t;
	long n;

	ASSERT_NE(NULL, d) TH_LOG("no test device of the layout names a shared-dma-pool");
	ASSERT_EQ(0, probes_without_release(d, 3)) {
		TH_LOG("cannot bind dma_map_benchmark to %s", d->name);
	}
	ASSERT_EQ(0, rdma_testdev_open_dev(&t, &board, d, why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(0, rdma_trace_start(event));
	EXPECT_EQ(0, rdma_ctl_cmd(&t.ctl, "release")) TH_LOG("%s", t.ctl.res);
	rdma_trace_stop(event);
	rdma_testdev_close(&t);
	trace = rdma_trace_read();
	ASSERT_NE(NULL, trace);
	n = rdma_trace_count(trace, "swiotlb_detach", needles);
	free(trace);
	EXPECT_EQ(1, n) TH_LOG("releasing %s after 4 probes detached it from its pool %ld times",
			       d->name, n);
}

int main(int argc, char **argv)
{
	rdma_board_load(&board);
	return test_harness_run(argc, argv);
}
