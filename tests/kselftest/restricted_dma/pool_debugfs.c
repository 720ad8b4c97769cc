// SPDX-License-Identifier: GPL-2.0
/*
 * Every pool of the board has the per-pool debugfs files of the series
 * (its statistics and audit patches) and they agree with each other and
 * with the board: io_tlb_nslabs, io_tlb_used, io_tlb_used_hiwater,
 * stats, devices, strict. stats has exactly the documented keys, its single values match
 * the single files, base and size match the pool's reg in the device tree
 * and devices lists the devices the layout gives the pool.
 *
 * A restricted pool is set up when its first device probes, so the
 * board's test devices get the test driver bound for the duration.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_stats.h"

static const char *const files[] = {
	"io_tlb_nslabs", "io_tlb_used", "io_tlb_used_hiwater", "stats", "devices", "strict",
	"scrub", "exclusive",
};
#define NFILES		ARRAY_SIZE(files)

/* The keys of stats, as Documentation/ABI/testing/debugfs-swiotlb lists them. */
static const char *const stats_keys[] = {
	"base", "size", "nslabs", "used", "used_hiwater", "free_run_max", "maps", "unmaps",
	"map_failures", "bytes_to_device", "bytes_from_device", "allocs", "frees",
	"alloc_failures", "out_of_pool", "mmio", "devices",
};
#define NKEYS		ARRAY_SIZE(stats_keys)
#define CHECKS_PER_POOL	(1 + NFILES + 5)

/* devices: one "name state" line a device, in the documented states */
static bool devices_parse(char *text)
{
	static const char *const states[] = { "live", "unbound" };
	char *line, *save, *sp;
	bool ok = !text[0] || (text[strlen(text) - 1] == '\n' && !strstr(text, "\n\n"));

	for (line = strtok_r(text, "\n", &save); ok && line; line = strtok_r(NULL, "\n", &save)) {
		bool known = false;

		sp = strchr(line, ' ');
		ok = sp && sp > line && !strchr(sp + 1, ' ');
		for (size_t i = 0; ok && i < ARRAY_SIZE(states); i++)
			known |= !strcmp(sp + 1, states[i]);
		ok = ok && known;
	}
	return ok;
}

/* Whether one file of the pool reads as its kind of value. */
static bool file_parses(const char *pool, const char *file)
{
	char path[PATH_MAX], *text;
	struct rdma_stats st;
	uint64_t v;
	bool ok;

	if (!strcmp(file, "stats"))
		return !rdma_stats_read(pool, &st);
	if (strncmp(file, "io_tlb_", 7) == 0)
		return !rdma_pool_u64(pool, file, &v);
	if (rdma_pool_file(pool, file, path, sizeof(path)))
		return false;
	text = rdma_read_file(path, NULL);
	if (!text)
		return false;
	if (strcmp(file, "devices"))	/* strict, scrub, exclusive */
		ok = !strcmp(text, "Y\n") || !strcmp(text, "N\n");
	else
		ok = devices_parse(text);
	free(text);
	return ok;
}

static void check_keys(const char *pool, const struct rdma_stats *st)
{
	bool ok = st->n == (int)NKEYS;
	uint64_t v;

	for (size_t i = 0; i < NKEYS; i++) {
		if (rdma_stats_get(st, stats_keys[i], &v)) {
			ksft_print_msg("pool %s: stats has no '%s'\n", pool, stats_keys[i]);
			ok = false;
		}
	}
	if (st->n != (int)NKEYS)
		ksft_print_msg("pool %s: stats has %d keys, expected %zu\n", pool, st->n, NKEYS);
	ksft_test_result(ok, "pool %s: stats keys are exactly the documented ones\n", pool);
}

/* stats against the single files; read twice around stats in case of I/O. */
static void check_agreement(const char *pool, const struct rdma_stats *st)
{
	static const char *const pairs[][2] = {
		{ "nslabs", "io_tlb_nslabs" },
		{ "used", "io_tlb_used" },
		{ "used_hiwater", "io_tlb_used_hiwater" },
	};
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
		uint64_t v = UINT64_MAX;

		rdma_pool_u64(pool, pairs[i][1], &v);
		if (v != rdma_stat(st, pairs[i][0])) {
			ksft_print_msg("pool %s: stats %s %llu, %s %llu\n", pool, pairs[i][0],
				       (unsigned long long)rdma_stat(st, pairs[i][0]), pairs[i][1],
				       (unsigned long long)v);
			ok = false;
		}
	}
	ksft_test_result(ok, "pool %s: stats agrees with io_tlb_nslabs, io_tlb_used, io_tlb_used_hiwater\n",
			 pool);
}

static void check_reg(const char *pool, const struct rdma_stats *st)
{
	uint64_t base = 0, size = 0;

	rdma_dt_pool_reg(pool, &base, &size);
	ksft_print_msg("pool %s: stats base 0x%llx size 0x%llx, device tree 0x%llx 0x%llx\n", pool,
		       (unsigned long long)rdma_stat(st, "base"),
		       (unsigned long long)rdma_stat(st, "size"),
		       (unsigned long long)base, (unsigned long long)size);
	ksft_test_result(size && rdma_stat(st, "base") == base && rdma_stat(st, "size") == size &&
			 rdma_stat(st, "nslabs") == size / RDMA_SLOT_SIZE,
			 "pool %s: base, size and nslabs match the device tree's reg\n", pool);
}

/* devices lists exactly the layout's devices of the pool; stats counts them. */
static void check_devices(const struct rdma_board *b, const char *pool,
			  const struct rdma_stats *st)
{
	char path[PATH_MAX], *text = NULL, *line, *save;
	int listed = 0, expected = 0;
	bool ok = true;

	if (!rdma_pool_file(pool, "devices", path, sizeof(path)))
		text = rdma_read_file(path, NULL);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[RDMA_NAME_LEN], state[16];
		const char *want;
		bool known = false;

		listed++;
		if (sscanf(line, "%127s %15s", name, state) != 2) {
			ksft_print_msg("pool %s: devices line '%s' is not 'name state'\n", pool,
				       line);
			ok = false;
			continue;
		}
		for (int i = 0; i < b->ndevices; i++)
			known |= !strcmp(b->devices[i].name, name) && !strcmp(b->devices[i].pool, pool);
		if (!known) {
			ksft_print_msg("pool %s: devices lists %s, which the layout does not give it\n",
				       pool, name);
			ok = false;
		}
		want = rdma_device_state(name);
		if (strcmp(state, want)) {
			ksft_print_msg("pool %s: devices says %s is %s, sysfs %s\n", pool, name,
				       state, want);
			ok = false;
		}
	}
	for (int i = 0; i < b->ndevices; i++)
		expected += !strcmp(b->devices[i].pool, pool);
	if (listed != expected) {
		ksft_print_msg("pool %s: devices lists %d devices, the layout %d\n", pool, listed,
			       expected);
		ok = false;
	}
	if (rdma_stat(st, "devices") != (uint64_t)listed) {
		ksft_print_msg("pool %s: stats devices %llu, devices file %d lines\n", pool,
			       (unsigned long long)rdma_stat(st, "devices"), listed);
		ok = false;
	}
	free(text);
	ksft_test_result(text && ok, "pool %s: devices lists the layout's devices of the pool, live or not\n", pool);
}

/*
 * free_run_max is what one mapping could take: runs end at 128-slot
 * segment boundaries, so it is at most 128, and at most the free slots.
 * On an idle pool of at least one segment it is exactly 128 when a whole
 * segment is free.
 */
static void check_free_run(const char *pool, const struct rdma_stats *st)
{
	uint64_t run = rdma_stat(st, "free_run_max");
	uint64_t free_slots = rdma_stat(st, "nslabs") - rdma_stat(st, "used");
	bool ok = run <= 128 && run <= free_slots &&
		  (free_slots < rdma_stat(st, "nslabs") || run == (free_slots < 128 ? free_slots : 128));

	if (!ok)
		ksft_print_msg("pool %s: free_run_max %llu, %llu of %llu slots free\n", pool,
			       (unsigned long long)run, (unsigned long long)free_slots,
			       (unsigned long long)rdma_stat(st, "nslabs"));
	ksft_test_result(ok, "pool %s: free_run_max stays within one segment and the free slots\n",
			 pool);
}

static void check_pool(const struct rdma_board *b, const char *pool)
{
	char dir[PATH_MAX];
	struct rdma_stats st;
	bool misplaced;

	if (rdma_pool_debugfs(pool, dir, sizeof(dir), &misplaced) || misplaced) {
		ksft_test_result_fail("pool %s: directory under swiotlb/ in debugfs\n", pool);
		for (size_t i = 0; i < NFILES + 5; i++)
			ksft_test_result_skip("pool %s: no debugfs directory\n", pool);
		return;
	}
	ksft_test_result_pass("pool %s: directory under swiotlb/ in debugfs\n", pool);
	for (size_t i = 0; i < NFILES; i++)
		ksft_test_result(file_parses(pool, files[i]), "pool %s: %s exists and parses\n", pool,
				 files[i]);
	rdma_stats_read(pool, &st);
	check_keys(pool, &st);
	check_agreement(pool, &st);
	check_reg(pool, &st);
	check_devices(b, pool, &st);
	check_free_run(pool, &st);
}

int main(void)
{
	struct rdma_board b;

	ksft_print_header();
	rdma_board_load(&b);
	for (int i = 0; i < b.ndevices; i++)
		if (rdma_device_driverless(&b.devices[i]) && rdma_drv_bind(b.devices[i].name))
			ksft_print_msg("cannot bind %s to %s\n", RDMA_TEST_DRIVER, b.devices[i].name);

	ksft_set_plan(CHECKS_PER_POOL * b.npools);
	for (int i = 0; i < b.npools; i++)
		check_pool(&b, b.pools[i].name);

	for (int i = 0; i < b.ndevices; i++)
		if (rdma_device_driverless(&b.devices[i]))
			rdma_drv_unbind(b.devices[i].name);
	ksft_finished();
}
