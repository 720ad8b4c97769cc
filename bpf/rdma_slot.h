/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-place record of a bounce in flight (struct rdma_slot), shared by
 * the BPF program and rdmatop's host tests, which replay interleavings.
 *
 * The DMA API's unmap event comes after swiotlb has released the slots,
 * so another CPU can map the same first slot, and see its map event,
 * before the unmap event of the mapping that held it. A flag would then
 * be stamped twice and cleared once: the in-flight gauge would drift up
 * by one each time. The entry counts instead: map events add one, unmap
 * events take one away while any is held, in whatever order they come.
 * Only a mapping that held the slot alone is timed.
 */
#ifndef RDMA_SLOT_H
#define RDMA_SLOT_H

#ifndef __always_inline		/* the host tests */
#define __always_inline inline __attribute__((always_inline))
#endif

#define RDMA_SLOT_CAS_TRIES	4

/* A map event: @ts is its stamp, 0 when it is not timed. */
static __always_inline void rdma_slot_map(struct rdma_slot *s, __u64 ts)
{
	if (__sync_fetch_and_add(&s->held, 1) == 0)
		s->ts = ts;
	else
		s->ts = 0;	/* two mappings: neither stamp is sure */
}

/*
 * An unmap event. Returns 1 when it ends a mapping seen being made (it
 * was counted in flight), with *@ts the stamp to time it by (0: untimed);
 * 0 for a mapping made before the program attached.
 */
static __always_inline int rdma_slot_unmap(struct rdma_slot *s, __u64 *ts)
{
	__s64 old = s->held, cur;
	__u64 stamp;
	int i;

	*ts = 0;
	for (i = 0; i < RDMA_SLOT_CAS_TRIES; i++) {
		if (old <= 0)
			return 0;
		stamp = s->ts;
		cur = __sync_val_compare_and_swap(&s->held, old, old - 1);
		if (cur == old) {
			if (old == 1)
				*ts = stamp;
			return 1;
		}
		old = cur;
	}
	return 0;	/* contended beyond reason: leave it held */
}

#endif /* RDMA_SLOT_H */
