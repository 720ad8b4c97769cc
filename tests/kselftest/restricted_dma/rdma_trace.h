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

#endif /* RDMA_TRACE_H */
