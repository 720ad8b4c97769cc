/* SPDX-License-Identifier: GPL-2.0 */
/* Percentiles from the BPF program's log2 histograms. */
#ifndef RDMATOP_HIST_H
#define RDMATOP_HIST_H

#include <stdbool.h>
#include <stdint.h>

/*
 * hist_percentile - estimate the @p-th percentile (0 < p <= 100)
 * @slots: counts; slot i holds values in [2^i, 2^(i+1)), slot 0 [0, 2)
 * @n: number of slots
 * @out: the estimate, interpolated linearly inside its slot
 *
 * Returns false when the histogram is empty.
 */
bool hist_percentile(const uint64_t *slots, int n, double p, double *out);

/* Sum of all slots. */
uint64_t hist_total(const uint64_t *slots, int n);

#endif
