/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which of rdma_trace's programs a kernel gets, decided from its BTF
 * alone: rdmatop does it against /sys/kernel/btf/vmlinux before loading,
 * the host CO-RE test against each built kernel's vmlinux.
 *
 * One source per count: the DMA API's calls come from the dma: trace
 * events (6.12; 6.1 with the series), else from fentry/fexit on the
 * exported functions where the kernel can attach them (ftrace direct
 * calls: x86 6.1, arm64 from 6.4), else only swiotlb_bounced counts
 * bounces (stock 6.1 on arm64). The series' swiotlb: events add what only the pool knows.
 */
#ifndef RDMATOP_SOURCES_H
#define RDMATOP_SOURCES_H

#include <stdbool.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "rdma_trace.h"

struct rt_sources {
	enum rdma_source dma;		/* where the DMA API calls come from */
	bool series;			/* the series' swiotlb: events */
	bool pool_failure_events;	/* swiotlb_map_failed, swiotlb_alloc_failed */
	unsigned int features;		/* enum rt_feature bits */
	int programs;			/* programs left to load */
};

/*
 * sources_select - sets each program of @obj to load or not, for the
 * kernel whose BTF is @vmlinux, and says what it gives (@out).
 * @no_fentry: do not use fentry/fexit (they failed to attach here).
 */
void sources_select(struct bpf_object *obj, const struct btf *vmlinux, bool no_fentry,
		    struct rt_sources *out);

#endif
