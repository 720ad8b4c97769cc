// SPDX-License-Identifier: GPL-2.0
/* Percentiles from log2 histograms. */
#include <math.h>
#include "hist.h"

uint64_t hist_total(const uint64_t *slots, int n)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += slots[i];
	return sum;
}

/*
 * Slot i holds (2^(i-1), 2^i] (slot 0: [0, 1]), as Prometheus buckets
 * hold values up to their bound: a percentile is the bound of the slot
 * its rank falls in, a value no sample of the slot exceeds (exact for
 * powers of two, the common mapping sizes).
 */
bool hist_percentile(const uint64_t *slots, int n, double p, double *out)
{
	uint64_t total = hist_total(slots, n), before = 0;
	double rank;
	int i;

	if (!total || p <= 0 || p > 100)
		return false;
	/* The rank of the sample we want, 1-based: nearest-rank method. */
	rank = ceil(p / 100.0 * (double)total);
	for (i = 0; i < n; i++) {
		if (!slots[i])
			continue;
		if ((double)(before + slots[i]) >= rank) {
			*out = ldexp(1.0, i);
			return true;
		}
		before += slots[i];
	}
	return false;	/* not reached: rank <= total */
}
