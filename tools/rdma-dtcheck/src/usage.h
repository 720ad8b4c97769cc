/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usage.h - what rdmatop saw a board's pools do (--usage FILE): peak
 * use, failed mappings, the largest mappings and fragmentation, per pool,
 * from its JSON records; and the pool size that would have served it.
 */
#ifndef RDMA_DTCHECK_USAGE_H
#define RDMA_DTCHECK_USAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One pool over every record of the file. */
struct pool_use {
	char *name;		/* reserved-memory node name, as rdmatop gives it */
	bool restricted;	/* a restricted pool (not the default swiotlb) */
	uint64_t base, size;	/* as the kernel reported it */
	int records;		/* records that list the pool */
	bool have_peak;
	uint64_t peak;		/* largest hiwater_bytes / used_bytes seen */
	bool have_failures;	/* the kernel gave failure counts (not fallback) */
	uint64_t map_failures, alloc_failures;	/* summed over rdmatop runs */
	uint64_t last_map, last_alloc;	/* previous record's counters */
	uint64_t largest;	/* largest mapping: p99 of sizes, failed requests */
	uint64_t fail_demand;	/* used bytes + request, at the worst failure */
	uint64_t nfail_events;	/* map_failed / alloc_failed events */
	uint64_t frag_failures;	/* of those: enough free slots, no free run */
	uint64_t oversize;	/* requests above one 256 KiB segment */
};

struct usage {
	char *file;
	int records;
	int npools;
	struct pool_use *pools;
	int *hits;		/* per pool: lookups that found it (usage_find) */
};

/*
 * Read rdmatop --json output (one object a line) from @path. Returns 0,
 * or -1 with "FILE:LINE: ..." in @err.
 */
int usage_load(const char *path, struct usage *u, char *err, size_t errlen);
void usage_free(struct usage *u);

/* Add one record (@len bytes, one line; blank is fine). 0, or -1 and @err. */
int usage_add_record(struct usage *u, const char *line, size_t len, char *err,
		     size_t errlen);

/*
 * The pool named @name (node name), else the one at @base; or NULL. Counts
 * the hit, so that pools no tree has can be named afterwards.
 */
const struct pool_use *usage_find(const struct usage *u, const char *name,
				  uint64_t base, bool have_base);

/*
 * The smallest size that serves what was seen, with headroom, and meets
 * swiotlb's rules: whole 256 KiB segments (so whole slots and pages), at
 * least one segment. @cur is the pool's size in the tree.
 */
uint64_t usage_suggest(const struct pool_use *pu, uint64_t cur);

#endif
