/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading tracefs: an event's format (its fields) and the text of the
 * trace buffer. rdma_board.h starts and stops tracing.
 */
#ifndef RDMA_TRACE_H
#define RDMA_TRACE_H

#include <stddef.h>

/* The trace buffer's text (malloc'd), or NULL. */
char *rdma_trace_read(void);

/*
 * Whether the event's format (events/SYSTEM/NAME/format) has exactly the
 * fields named in want (space-separated; common_* fields aside). 0; or
 * -ENOENT when the event does not exist, -EINVAL when the fields differ;
 * why says what differs.
 */
int rdma_trace_check_fields(const char *event, const char *want, char *why, size_t len);

/*
 * The number of lines in trace of event NAME (no system) that contain
 * every string of needles (NULL-terminated).
 */
long rdma_trace_count(const char *trace, const char *name, const char *const *needles);

/*
 * The sum, over the same lines, of the decimal value of " FIELD=" each
 * rounded up to a multiple of unit and divided by it (unit 2048 turns
 * size= into slots); -1 when a matching line lacks the field.
 */
long long rdma_trace_sum(const char *trace, const char *name, const char *const *needles,
			 const char *field, unsigned int unit);

/*
 * Slots of coherent memory allocated and not freed in the trace, over
 * the swiotlb_alloc and swiotlb_free lines with every needle.
 */
long long rdma_trace_kept_slots(const char *trace, const char *const *needles);

/* Set the per-CPU trace buffer size in KiB, *old (if not NULL) the one before; 0 or -errno. */
int rdma_trace_buffer_kb(unsigned int kb, unsigned int *old);

/* Events the trace buffers lost (overrun, summed over CPUs); -1 when unreadable. */
long rdma_trace_lost(void);

#endif /* RDMA_TRACE_H */
