/* SPDX-License-Identifier: GPL-2.0 */
/*
 * checks.h - the check table and the context check functions report to.
 *
 * A check is one function and one entry in check_table[] (check-table.c):
 * its name (the handle for -W/-E and the documentation key), default
 * severity, the kind of object it looks at, and the checks that must have
 * passed on the same object before it runs.
 */
#ifndef RDMA_DTCHECK_CHECKS_H
#define RDMA_DTCHECK_CHECKS_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "input.h"
#include "model.h"

enum scope {
	SCOPE_TREE,		/* obj: struct model */
	SCOPE_POOL,		/* obj: struct rmem with ->pool set */
	SCOPE_CONSUMER,		/* obj: struct consumer */
	SCOPE_PCI,		/* obj: struct pci_node */
};

struct lint;
struct check;

typedef void (*check_fn)(struct lint *l, const struct check *c,
			 const void *obj);

struct check {
	const char *name;
	enum severity sev;
	enum scope scope;
	bool off;		/* disabled unless enabled with -W/-E */
	const char *summary;
	const char *prereq[3];	/* names of checks that must pass first */
	check_fn fn;
};

extern const struct check check_table[];
extern const int check_count;

/* Per-run configuration of each check (from -W/-E). */
struct check_conf {
	bool enabled;
	enum severity sev;
};

struct lint {
	const struct model *m;
	const struct dt_input *in;
	const struct check_conf *conf;
	struct findings *out;
	int first;		/* first finding of this input in out->v */
	int input;
	uint64_t *failed[SCOPE_PCI + 1];	/* per scope and object: checks that reported */
};

int check_lookup(const char *name);
void check_conf_init(struct check_conf *conf);
void checks_run(struct lint *l);

/*
 * Record a finding about @node (property @prop, or the node itself when
 * NULL). @obj is the model object the check was called for.
 */
void report(struct lint *l, const struct check *c, const void *obj, int node,
	    const char *prop, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* check functions, one per table entry */
void check_resmem_root(struct lint *l, const struct check *c, const void *obj);
void check_pool_location(struct lint *l, const struct check *c, const void *obj);
void check_pool_rejected_prop(struct lint *l, const struct check *c, const void *obj);
void check_pool_reg_format(struct lint *l, const struct check *c, const void *obj);
void check_pool_no_region(struct lint *l, const struct check *c, const void *obj);
void check_pool_reg_multiple(struct lint *l, const struct check *c, const void *obj);
void check_pool_too_small(struct lint *l, const struct check *c, const void *obj);
void check_pool_below_max_mapping(struct lint *l, const struct check *c, const void *obj);
void check_pool_size_granule(struct lint *l, const struct check *c, const void *obj);
void check_pool_size_segment(struct lint *l, const struct check *c, const void *obj);
void check_pool_alignment(struct lint *l, const struct check *c, const void *obj);
void check_pool_outside_memory(struct lint *l, const struct check *c, const void *obj);
void check_pool_overlap(struct lint *l, const struct check *c, const void *obj);
void check_pool_unreferenced(struct lint *l, const struct check *c, const void *obj);
void check_pool_shared(struct lint *l, const struct check *c, const void *obj);
void check_region_unresolved(struct lint *l, const struct check *c, const void *obj);
void check_pool_disabled_ref(struct lint *l, const struct check *c, const void *obj);
void check_multiple_pools(struct lint *l, const struct check *c, const void *obj);
void check_shared_before_restricted(struct lint *l, const struct check *c, const void *obj);
void check_not_dma_master(struct lint *l, const struct check *c, const void *obj);
void check_iommu_and_pool(struct lint *l, const struct check *c, const void *obj);
void check_pool_highmem(struct lint *l, const struct check *c, const void *obj);
void check_dma_unreachable(struct lint *l, const struct check *c, const void *obj);
void check_pci_unmatched(struct lint *l, const struct check *c, const void *obj);
void check_pci_lookup(struct lint *l, const struct check *c, const void *obj);
void check_usage_failed(struct lint *l, const struct check *c, const void *obj);
void check_usage_headroom(struct lint *l, const struct check *c, const void *obj);
void check_usage_oversized(struct lint *l, const struct check *c, const void *obj);

#endif
