/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The log2 histogram slot of a value, shared by the BPF program and
 * rdmatop's host tests (one definition: what the tests check is what the
 * kernel runs).
 *
 * Slot i holds (2^(i-1), 2^i], slot 0 holds [0, 1]: the slot's bound holds
 * its values, as a Prometheus bucket's le does, so a 4096-byte map is
 * counted at 4096 and a percentile read as the slot's bound is exact for
 * the power-of-two sizes most mappings have. The last slot holds the rest.
 */
#ifndef RDMA_HIST_H
#define RDMA_HIST_H

#ifndef __always_inline		/* the host tests */
#define __always_inline inline __attribute__((always_inline))
#endif

/*
 * floor(log2(@v)), 0 for 0, in 32-bit operations, whose constants fit in
 * the instruction: a 64-bit one costs a 4-instruction load on arm64.
 */
static __always_inline __u32 rdma_log2_32(__u32 v)
{
	__u32 r = 0;

	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) r += 1;
	return r;
}

/* The slot of @v < 2^32: ceil(log2(v)), the bit count of v - 1. */
static __always_inline __u32 rdma_hist_slot32(__u32 v)
{
	return v > 1 ? rdma_log2_32(v - 1) + 1 : 0;
}

/* The slot of any @v. */
static __always_inline __u32 rdma_hist_slot(__u64 v)
{
	__u64 w = v > 1 ? v - 1 : 0;
	__u32 hi = w >> 32;
	__u32 r;

	if (v <= 1)
		return 0;
	r = hi ? 33 + rdma_log2_32(hi) : rdma_log2_32(w) + 1;
	return r < RDMA_HIST_SLOTS ? r : RDMA_HIST_SLOTS - 1;
}

#endif /* RDMA_HIST_H */
