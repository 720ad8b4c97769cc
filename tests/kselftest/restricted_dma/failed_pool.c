// SPDX-License-Identifier: GPL-2.0
/*
 * The memory of a restricted pool the kernel could not set up must stay
 * reserved, or be memory the kernel can really use. strict-board.dtso
 * adds four such pools (its own boot, as strict_probe); one of them
 * shares 64 KiB with a no-map region, which must stay out of the page
 * allocator when the pool is refused:
 *
 *   scripts/vm --append restricted_dma=strict \
 *     --dtso tests/kselftest/restricted_dma/strict-board.dtso \
 *     -- /kselftest/run_kselftest.sh -t restricted_dma:failed_pool
 *
 * Since 6.12 the kernel sets up "reg" regions after the linear map is
 * built, yet it cleared the no-map flag of one whose setup failed: its
 * pages went to the page allocator with no linear mapping, and the first
 * allocation to get one oopsed in clear_page() (kernel/6.12/patches:
 * "of: reserved_mem: leave a no-map region alone when its setup fails").
 * The test checks the no-map pool's pages in /proc/kpageflags, then
 * takes nearly all free memory, writing every page, so that the page
 * allocator hands out whatever pages it has: on a kernel with the bug
 * the boot ends in that oops, which scripts/vm reports.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/kernel-page-flags.h>

#include "../kselftest.h"
#include "rdma_board.h"

/* Kernel-internal flag, exported by /proc/kpageflags but not in uapi. */
#define KPF_RESERVED	32
/* Memory is taken a chunk at a time, down to this much left free. */
#define HOG_CHUNK	(1UL << 20)
#define HOG_FLOOR_KB	(32UL << 10)

static const char *const pools[] = {
	"nomap-pool@71800000", "unaligned-pool@71900800", "tiny-pool@71b00000",
	"overlap-pool@72000000",
};

struct span {
	const char *pool;
	uint64_t first_pfn, npages;
};

struct page_count {
	uint64_t reserved, buddy, other;
};

static int kpageflags_fd = -1;

static int count_pages(const struct span *s, struct page_count *c)
{
	uint64_t i, flags;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < s->npages; i++) {
		off_t off = (off_t)((s->first_pfn + i) * sizeof(flags));

		if (pread(kpageflags_fd, &flags, sizeof(flags), off) != sizeof(flags))
			return -errno;
		if (flags & (1ULL << KPF_RESERVED))
			c->reserved++;
		else if (flags & (1ULL << KPF_BUDDY))
			c->buddy++;
		else
			c->other++;
	}
	return 0;
}

static uint64_t mem_free_kb(void)
{
	char *info = rdma_read_file("/proc/meminfo", NULL), *p;
	uint64_t kb = 0;

	p = info ? strstr(info, "MemFree:") : NULL;
	if (p)
		kb = strtoull(p + strlen("MemFree:"), NULL, 10);
	free(info);
	return kb;
}

/*
 * Take free memory a chunk at a time, writing each page (the kernel
 * clears a new page through its linear mapping first), until less than
 * HOG_FLOOR_KB is left. Returns the chunks taken.
 */
static void **hog(size_t *nchunks)
{
	void **chunks = NULL, *p;
	size_t taken = 0;

	while (mem_free_kb() > HOG_FLOOR_KB) {
		void **grown = realloc(chunks, (taken + 1) * sizeof(*chunks));

		if (!grown)
			break;
		chunks = grown;
		p = mmap(NULL, HOG_CHUNK, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		memset(p, 0xa5, HOG_CHUNK);
		chunks[taken++] = p;
	}
	*nchunks = taken;
	return chunks;
}

int main(void)
{
	struct span spans[ARRAY_SIZE(pools)];
	uint64_t free_before, free_after;
	unsigned int i, n = 0;
	struct page_count c;
	size_t nchunks, k;
	void **chunks;

	ksft_print_header();
	for (i = 0; i < ARRAY_SIZE(pools); i++) {
		uint64_t base, size, page = (uint64_t)sysconf(_SC_PAGESIZE);

		if (rdma_dt_pool_reg(pools[i], &base, &size))
			ksft_exit_skip("%s is not in the device tree: needs strict-board.dtso (see the source)\n",
				       pools[i]);
		spans[n].pool = pools[i];
		spans[n].first_pfn = base / page;
		spans[n].npages = (base + size + page - 1) / page - base / page;
		n++;
	}
	kpageflags_fd = open("/proc/kpageflags", O_RDONLY);
	if (kpageflags_fd < 0)
		ksft_exit_skip("/proc/kpageflags: %s (needs root and CONFIG_PROC_PAGE_MONITOR)\n",
			       strerror(errno));
	ksft_set_plan(2);

	for (i = 0; i < n; i++) {
		if (count_pages(&spans[i], &c))
			ksft_exit_fail_msg("reading /proc/kpageflags: %s\n", strerror(errno));
		ksft_print_msg("%s: %llu pages: %llu reserved, %llu free, %llu other\n",
			       spans[i].pool, (unsigned long long)spans[i].npages,
			       (unsigned long long)c.reserved, (unsigned long long)c.buddy,
			       (unsigned long long)c.other);
		if (i)
			continue;
		/* Before 6.12 the region is set up before the linear map. */
		if (!ksft_min_kernel_version(6, 12))
			ksft_test_result_skip("%s: before 6.12 a failed no-map region becomes RAM\n",
					      spans[i].pool);
		else
			ksft_test_result(c.reserved == spans[i].npages,
					 "%s: a no-map region whose setup failed stays reserved\n",
					 spans[i].pool);
	}

	free_before = mem_free_kb();
	chunks = hog(&nchunks);
	free_after = mem_free_kb();
	ksft_print_msg("took %zu MiB of free memory: %llu KiB free before, %llu after\n",
		       nchunks, (unsigned long long)free_before,
		       (unsigned long long)free_after);
	ksft_test_result(free_after <= HOG_FLOOR_KB + (HOG_CHUNK >> 10),
			 "the kernel hands out all but %lu MiB of its free memory\n",
			 HOG_FLOOR_KB >> 10);

	for (k = 0; k < nchunks; k++)
		munmap(chunks[k], HOG_CHUNK);
	free(chunks);
	close(kpageflags_fd);
	ksft_finished();
}
