// SPDX-License-Identifier: GPL-2.0
/*
 * usage.c - rdmatop's JSON records (Documentation/rdmatop.md, "JSON")
 * folded into one summary a pool, and the size that summary asks for.
 *
 * Counters in a record count from rdmatop's start, so failures are summed
 * as increments between records, and a counter that goes down starts a new
 * rdmatop run (files of several runs can be concatenated). Events belong
 * to their record's interval and are taken one by one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "usage.h"
#include "util.h"

#define USAGE_SLOT	SZ_2K		/* IO_TLB_SIZE */
#define USAGE_SEGMENT	SZ_256K		/* IO_TLB_SEGSIZE slots */

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return v % a ? v - v % a + a : v;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static struct pool_use *pool_get(struct usage *u, const char *name)
{
	struct pool_use *pu;

	for (int i = 0; i < u->npools; i++)
		if (!strcmp(u->pools[i].name, name))
			return &u->pools[i];
	pu = array_push(&u->pools, &u->npools, sizeof(*pu));
	pu->name = xstrdup(name);
	return pu;
}

/* Add a counter's increase since the previous record to *sum. */
static void add_counter(uint64_t v, uint64_t *last, uint64_t *sum)
{
	*sum += v >= *last ? v - *last : v;
	*last = v;
}

static void take_pool(struct usage *u, const struct jval *p)
{
	const char *name = json_member_str(p, "name");
	struct pool_use *pu;
	const struct jval *p99;
	uint64_t v;

	if (!name)
		return;
	pu = pool_get(u, name);
	pu->records++;
	if (json_member(p, "restricted") && json_member(p, "restricted")->t == J_BOOL)
		pu->restricted = json_member(p, "restricted")->b;
	json_member_u64(p, "base", &pu->base);
	json_member_u64(p, "size", &pu->size);
	if (json_member_u64(p, "hiwater_bytes", &v) || json_member_u64(p, "used_bytes", &v)) {
		pu->have_peak = true;
		pu->peak = max_u64(pu->peak, v);
	}
	if (json_member_u64(p, "used_bytes", &v))
		pu->peak = max_u64(pu->peak, v);
	if (json_member_u64(p, "map_failures_total", &v)) {
		pu->have_failures = true;
		add_counter(v, &pu->last_map, &pu->map_failures);
	}
	if (json_member_u64(p, "alloc_failures_total", &v))
		add_counter(v, &pu->last_alloc, &pu->alloc_failures);
	p99 = json_member(p, "size_p99_bytes");
	if (p99 && p99->t == J_NUM && p99->num > 0 && p99->num < 1e18)
		pu->largest = max_u64(pu->largest, (uint64_t)p99->num + 1);
}

static void take_event(struct usage *u, const struct jval *e)
{
	const char *type = json_member_str(e, "type"), *pool = json_member_str(e, "pool");
	uint64_t size = 0, used = 0, nslabs = 0;
	struct pool_use *pu;
	bool have_slots;

	if (!type || !pool || (strcmp(type, "map_failed") && strcmp(type, "alloc_failed")))
		return;
	pu = pool_get(u, pool);
	pu->nfail_events++;
	json_member_u64(e, "size", &size);
	have_slots = json_member_u64(e, "used_slots", &used) && json_member_u64(e, "nslabs", &nslabs) &&
		     nslabs && used <= nslabs;
	if (size > USAGE_SEGMENT) {
		pu->oversize++;
		return;		/* no pool serves it: it says nothing of the size */
	}
	pu->largest = max_u64(pu->largest, size);
	if (!have_slots)
		return;
	pu->fail_demand = max_u64(pu->fail_demand,
				  used * USAGE_SLOT + round_up(size, USAGE_SLOT));
	/* Enough slots were free, but no run of them in one segment. */
	if ((nslabs - used) * USAGE_SLOT >= round_up(size, USAGE_SLOT))
		pu->frag_failures++;
}

static int take_record(struct usage *u, const struct jval *r, char *err, size_t errlen)
{
	const struct jval *pools = json_member(r, "pools"), *ev = json_member(r, "events");

	if (r->t != J_OBJ || !pools || pools->t != J_ARR) {
		snprintf(err, errlen, "not an rdmatop --json record (no \"pools\" array)");
		return -1;
	}
	for (int i = 0; i < pools->n; i++)
		take_pool(u, &pools->v[i]);
	if (ev && ev->t == J_ARR)
		for (int i = 0; i < ev->n; i++)
			take_event(u, &ev->v[i]);
	u->records++;
	return 0;
}

int usage_add_record(struct usage *u, const char *line, size_t len, char *err,
		     size_t errlen)
{
	struct jval r;
	size_t i;
	int ret;

	for (i = 0; i < len && line[i] && strchr(" \t\r\n", line[i]); i++)
		;
	if (i == len)
		return 0;
	ret = json_parse(line, len, &r, err, errlen) ||
	      take_record(u, &r, err, errlen) ? -1 : 0;
	json_free(&r);
	return ret;
}

int usage_load(const char *path, struct usage *u, char *err, size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL, msg[256];
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, ret = 0;

	memset(u, 0, sizeof(*u));
	u->file = xstrdup(path);
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (usage_add_record(u, line, (size_t)len, msg, sizeof(msg))) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, msg);
			ret = -1;
			break;
		}
	}
	if (!ret && ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		ret = -1;
	}
	if (!ret)
		u->hits = xcalloc((size_t)u->npools + 1, sizeof(*u->hits));
	if (!ret && !u->records) {
		snprintf(err, errlen, "%s: no rdmatop records (rdmatop --json output, one object a line)",
			 path);
		ret = -1;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return ret;
}

void usage_free(struct usage *u)
{
	for (int i = 0; i < u->npools; i++)
		free(u->pools[i].name);
	free(u->pools);
	free(u->hits);
	free(u->file);
	memset(u, 0, sizeof(*u));
}

const struct pool_use *usage_find(const struct usage *u, const char *name,
				  uint64_t base, bool have_base)
{
	int hit = -1;

	for (int i = 0; hit < 0 && i < u->npools; i++)
		if (!strcmp(u->pools[i].name, name))
			hit = i;
	for (int i = 0; hit < 0 && have_base && i < u->npools; i++)
		if (u->pools[i].size && u->pools[i].base == base)
			hit = i;
	if (hit < 0)
		return NULL;
	if (u->hits)
		u->hits[hit]++;
	return &u->pools[hit];
}

/*
 * Demand D is the peak in use, or at the worst failure what was in use
 * plus the request that failed (a failure without details: the whole
 * pool). On top: a quarter of D, or all of D again when failures showed
 * fragmentation (swiotlb needs a free run inside one segment), and at
 * least the largest mapping. Rounded up to whole segments.
 */
uint64_t usage_suggest(const struct pool_use *pu, uint64_t cur)
{
	uint64_t d = max_u64(pu->peak, pu->fail_demand), head, large, s;
	bool failed = pu->map_failures || pu->alloc_failures || pu->nfail_events > pu->oversize;

	if (failed && !pu->fail_demand)
		d = max_u64(d, cur);
	head = pu->frag_failures ? d : d / 4;
	large = round_up(pu->largest < USAGE_SEGMENT ? pu->largest : USAGE_SEGMENT, USAGE_SLOT);
	s = d + max_u64(head, large);
	s = max_u64(s, USAGE_SEGMENT);
	return round_up(s, USAGE_SEGMENT);
}
