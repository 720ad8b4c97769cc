// SPDX-License-Identifier: GPL-2.0
/*
 * Scrubbing (the series' "swiotlb: zero the slots of restricted pools as
 * they are freed"): a device of a restricted pool can read the whole pool,
 * so what it finds outside its live mappings must be zeroes, never data
 * the kernel bounced or allocated for an earlier mapping. The test driver
 * plays that device: "peek" counts the bytes that are not zero in a range
 * of the pool.
 *
 * Scrubbing is off by default (it costs a memset and a cache clean per
 * unmap: Documentation/kernel-series.md); restricted_dma=scrub turns it
 * on, as the strict boot does. Each case first dirties the pool: mappings
 * that fill it, into which the "device" writes a pattern before they are
 * unmapped. Without scrubbing the pattern stays: booted without
 * restricted_dma=scrub, freed_slots checks that it does and the other
 * cases skip (run anyway, they fail).
 *
 * peek reads through the CPU's cacheable mapping of the pool. QEMU models
 * no caches, so these tests cannot see whether the zeroes were written
 * back to memory for a device that does not snoop (arch_sync_dma_for_device()
 * in the scrub); on real hardware peek could read zeroes still in a cache.
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

#define SCRUB		"restricted_dma=scrub"
#define SLOT		2048ULL		/* IO_TLB_SIZE */
#define DIRTY_CHUNK	(128 * 1024)	/* half a segment */
#define MAX_MAPS	4096

static struct rdma_board board;

FIXTURE(scrub) {
	struct rdma_testdev t;
	bool on;		/* restricted_dma=scrub */
};

FIXTURE_SETUP(scrub)
{
	char why[256];

	self->on = rdma_cmdline_has(SCRUB);
	ASSERT_EQ(0, rdma_testdev_open(&self->t, &board, false, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
}

/* The cases that need a scrubbing pool skip without one. */
#define NEED_SCRUB()							\
	do {								\
		if (!self->on)						\
			SKIP(return, "needs %s (the strict boot has it)", SCRUB); \
	} while (0)

FIXTURE_TEARDOWN(scrub)
{
	/* Unbinding resets min_align too. */
	rdma_testdev_close(&self->t);
}

/* Bytes that are not zero in [start, end) of the device's pool. */
static uint64_t nonzero(struct __test_metadata *_metadata,
			FIXTURE_DATA(scrub) *self, uint64_t start, uint64_t end)
{
	uint64_t n = UINT64_MAX;

	if (start == end)
		return 0;
	EXPECT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "peek %#llx %llu",
				  (unsigned long long)start,
				  (unsigned long long)(end - start))) {
		TH_LOG("peek %#llx..%#llx: %s", (unsigned long long)start,
		       (unsigned long long)end, self->t.ctl.res);
	}
	EXPECT_EQ(0, rdma_res_u64(self->t.ctl.res, "nonzero", &n));
	return n;
}

/*
 * Fill the pool with FROM_DEVICE mappings, have the "device" write its
 * pattern into each, and unmap them all: every slot has held data. Where
 * the slot search starts depends on the tests before, so large mappings
 * leave gaps: halving sizes down to one slot fill them.
 */
static void dirty_pool(struct __test_metadata *_metadata, FIXTURE_DATA(scrub) *self)
{
	static struct rdma_map m[MAX_MAPS];
	uint64_t nslabs = (self->t.end - self->t.base) / SLOT, used;
	int n = 0;
	bool ok;

	ASSERT_EQ(0, rdma_pool_u64(self->t.pool->name, "io_tlb_used", &used));
	ASSERT_EQ(0U, used) TH_LOG("%s is in use: cannot dirty all of it", self->t.pool->name);
	for (size_t size = DIRTY_CHUNK; size >= SLOT; size /= 2)
		while (n < MAX_MAPS && !rdma_map(&self->t.ctl, size, 0, "from", &m[n]))
			n++;
	ASSERT_EQ(0, rdma_pool_u64(self->t.pool->name, "io_tlb_used", &used));
	EXPECT_EQ(nslabs, used) TH_LOG("%d mappings left slots of %s unused", n,
				       self->t.pool->name);
	for (int i = 0; i < n; i++) {
		ASSERT_EQ(0, rdma_unmap(&self->t.ctl, m[i].id, &ok));
		ASSERT_TRUE(ok);
	}
}

/* The pool's scrub file says what the command line asked, and is read-only. */
TEST_F(scrub, scrub_follows_the_command_line)
{
	char path[PATH_MAX];
	char *s;

	ASSERT_EQ(0, rdma_pool_file(self->t.pool->name, "scrub", path, sizeof(path)));
	s = rdma_read_file(path, NULL);
	ASSERT_NE(NULL, s) TH_LOG("%s: %s", path, strerror(errno));
	EXPECT_STREQ(self->on ? "Y\n" : "N\n", s);
	free(s);
	EXPECT_NE(0, rdma_write_str(path, self->on ? "N" : "Y"));
}

/*
 * After every mapping is gone, the whole pool reads zero. Without
 * scrubbing the device still reads what the mappings held: what the
 * other cases would see too, and the proof that peek finds it.
 */
TEST_F(scrub, freed_slots)
{
	uint64_t left;

	dirty_pool(_metadata, self);
	left = nonzero(_metadata, self, self->t.base, self->t.end);
	if (self->on) {
		EXPECT_EQ(0U, left);
	} else {
		EXPECT_LT((self->t.end - self->t.base) / 2, left);
	}
}

/*
 * A mapping that keeps its offset in the slot (min_align_mask, as NVMe's
 * do): the slack before it and the tail of its last slot read zero, while
 * the mapping itself shows the CPU's data. Sizes and offsets are odd on
 * purpose: a mapping never fills its slots by accident.
 */
TEST_F(scrub, slack_and_tail_read_zero)
{
	static const struct { size_t size, offset; const char *dir; } cases[] = {
		{ 3000, 0x301, "from" },
		{ 1, 0xfff, "from" },
		{ 65536 - 5, 0x7ff, "to" },
		{ 200001, 0x801, "bidi" },
	};

	NEED_SCRUB();
	dirty_pool(_metadata, self);
	ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "min_align 0xfff")) {
		TH_LOG("min_align: %s", self->t.ctl.res);
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t end, slot_end;
		struct rdma_map m;
		bool ok;

		ASSERT_EQ(0, rdma_map(&self->t.ctl, cases[i].size, cases[i].offset,
				      cases[i].dir, &m)) TH_LOG("map: %s", self->t.ctl.res);
		EXPECT_TRUE(m.inpool);
		EXPECT_TRUE(m.bounce_ok) TH_LOG("the device does not see the CPU's data");
		/* min_align_mask kept the buffer's offset in its page */
		EXPECT_EQ(cases[i].offset, m.dma & 0xfff);
		end = m.dma + cases[i].size;
		slot_end = (end + SLOT - 1) & ~(SLOT - 1);
		EXPECT_EQ(0U, nonzero(_metadata, self, m.dma & ~(SLOT - 1), m.dma)) {
			TH_LOG("%zu bytes at offset %#zx: the slack before it holds data",
			       cases[i].size, cases[i].offset);
		}
		EXPECT_EQ(0U, nonzero(_metadata, self, end, slot_end)) {
			TH_LOG("%zu bytes at offset %#zx: the tail of its last slot holds data",
			       cases[i].size, cases[i].offset);
		}
		ASSERT_EQ(0, rdma_unmap(&self->t.ctl, m.id, &ok));
		EXPECT_TRUE(ok);
		EXPECT_EQ(0U, nonzero(_metadata, self, m.dma & ~(SLOT - 1), slot_end));
	}
}

/*
 * Two live mappings: the device's view of the second never shows the
 * first's data, and once the first is unmapped its slots read zero while
 * the second keeps its own.
 */
TEST_F(scrub, live_mappings_do_not_leak)
{
	struct rdma_map a, b;
	bool ok;

	NEED_SCRUB();
	dirty_pool(_metadata, self);
	ASSERT_EQ(0, rdma_map(&self->t.ctl, 16 * 4096, 0, "to", &a));
	ASSERT_EQ(0, rdma_map(&self->t.ctl, 4096 + 123, 0, "from", &b));
	EXPECT_TRUE(b.bounce_ok);
	EXPECT_EQ(0U, nonzero(_metadata, self, b.dma + b.size,
			      (b.dma + b.size + SLOT - 1) & ~(SLOT - 1)));
	ASSERT_EQ(0, rdma_unmap(&self->t.ctl, a.id, &ok));
	EXPECT_EQ(0U, nonzero(_metadata, self, a.dma, a.dma + a.size));
	ASSERT_EQ(0, rdma_unmap(&self->t.ctl, b.id, &ok));
	EXPECT_TRUE(ok);
}

/* A coherent buffer the CPU wrote reads zero once it is freed. */
TEST_F(scrub, freed_coherent_buffer_reads_zero)
{
	static const size_t sizes[] = { 4096, 16 * 4096, 256 * 1024 };

	NEED_SCRUB();
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t id, dma, inpool;

		ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "alloc %zu", sizes[i])) {
			TH_LOG("alloc %zu: %s", sizes[i], self->t.ctl.res);
		}
		ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "id", &id));
		ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "dma", &dma));
		ASSERT_EQ(0, rdma_res_u64(self->t.ctl.res, "inpool", &inpool));
		ASSERT_EQ(1U, inpool);
		/* The driver wrote its pattern, and the device sees it */
		EXPECT_LT(sizes[i] / 2, nonzero(_metadata, self, dma, dma + sizes[i]));
		ASSERT_EQ(0, rdma_ctl_cmd(&self->t.ctl, "free %llu", (unsigned long long)id));
		EXPECT_EQ(0U, nonzero(_metadata, self, dma, dma + sizes[i]));
	}
}

int main(int argc, char **argv)
{
	rdma_board_load(&board);
	return test_harness_run(argc, argv);
}
