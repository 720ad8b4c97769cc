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
 *
 * BPF has no instruction that counts bits, and a log2 written with
 * branches gives the verifier one path per slot: these are straight-line
 * shifts, masks and a multiply, in 32-bit operations where a constant
 * must fit in the instruction (a 64-bit one costs a 4-instruction load on
 * arm64).
 */
#ifndef RDMA_HIST_H
#define RDMA_HIST_H

#ifndef __always_inline		/* the host tests */
#define __always_inline inline __attribute__((always_inline))
#endif

/* The number of bits set in @v. */
static __always_inline __u32 rdma_popcount32(__u32 v)
{
	v = v - ((v >> 1) & 0x55555555);
	v = (v & 0x33333333) + ((v >> 2) & 0x33333333);
	v = (v + (v >> 4)) & 0x0f0f0f0f;
	return (v * 0x01010101) >> 24;
}

/* The bits @v needs: 0 for 0, else floor(log2(v)) + 1. */
static __always_inline __u32 rdma_bit_width(__u64 v)
{
	v |= v >> 1;
	v |= v >> 2;
	v |= v >> 4;
	v |= v >> 8;
	v |= v >> 16;
	v |= v >> 32;		/* now every bit below the top one is set */
	return rdma_popcount32(v) + rdma_popcount32(v >> 32);
}

/* The slot of any @v: the bits v - 1 needs, at most the last slot. */
static __always_inline __u32 rdma_hist_slot(__u64 v)
{
	__u32 r = rdma_bit_width(v > 1 ? v - 1 : 0);

	return r < RDMA_HIST_SLOTS ? r : RDMA_HIST_SLOTS - 1;
}

#endif /* RDMA_HIST_H */
