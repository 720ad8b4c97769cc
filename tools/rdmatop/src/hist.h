/* SPDX-License-Identifier: GPL-2.0 */
/* Percentiles from the BPF program's log2 histograms. */
#ifndef RDMATOP_HIST_H
#define RDMATOP_HIST_H

#include <stdbool.h>
#include <stdint.h>

/*
 * hist_percentile - bound the @p-th percentile (0 < p <= 100), nearest rank
 * @slots: counts; slot i holds values in (2^(i-1), 2^i], slot 0 [0, 1]
 *	(bpf/rdma_hist.h)
 * @n: number of slots
 * @out: the upper bound of the slot the percentile's sample is in: no
 *	larger than twice the sample, equal to it for a power of two
 *
 * Returns false when the histogram is empty or @p is out of range.
 */
bool hist_percentile(const uint64_t *slots, int n, double p, double *out);

/* Sum of all slots. */
uint64_t hist_total(const uint64_t *slots, int n);

#endif
