/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The human views of the model, as text cells: the header line, the pools
 * and devices tables, rare events. The screen and batch outputs both draw
 * these, so a column means the same everywhere.
 */
#ifndef RDMATOP_VIEW_H
#define RDMATOP_VIEW_H

#include <stddef.h>
#include "format.h"
#include "model.h"

#define VIEW_CELL	64
#define VIEW_SPARK	12	/* characters of a pool's use history */

/*
 * view_sparkline - a pool's use over its last RT_USE_HISTORY intervals in
 * VIEW_SPARK characters, oldest first, each the highest use of its
 * RT_USE_HISTORY / VIEW_SPARK intervals: '_' 0%, then ".:-=+*#" up to
 * 100%; ' ' before the history starts, '?' when use was not readable.
 */
void view_sparkline(const struct rt_pool *p, char *buf, size_t len);

enum pool_col {
	PC_NAME, PC_BASE, PC_SIZE, PC_USED, PC_USED_PCT, PC_HIWATER, PC_HW_PCT,
	PC_MAPS, PC_TO, PC_FROM, PC_INFLIGHT, PC_FAIL, PC_OOP, PC_HISTORY, PC_COUNT,
};

enum dev_col {
	DC_NAME, DC_POOL, DC_INFLIGHT, DC_MAPS, DC_BYTES, DC_SIZE50, DC_SIZE99,
	DC_TIME50, DC_TIME99, DC_FAIL, DC_OOP, DC_COUNT,
};

extern const struct tcol pool_cols[PC_COUNT];
extern const struct tcol dev_cols[DC_COUNT];

void view_pool_cells(const struct rt_model *m, const struct rt_pool *p,
		     char cells[PC_COUNT][VIEW_CELL]);
void view_dev_cells(const struct rt_model *m, const struct rt_dev *d,
		    char cells[DC_COUNT][VIEW_CELL]);

/* A panel's selected row and first row shown (both from 0, data rows). */
struct view_scroll {
	int sel;
	int top;
};

#define VIEW_SCROLL_HOME	(-1000000)	/* deltas that go to an end */
#define VIEW_SCROLL_END		1000000

/*
 * view_scroll_move - move the selection of a panel of @n rows, @visible
 * of them shown, by @delta rows (0: only fit a changed @n or @visible),
 * clamped to the list, scrolling so that it stays shown.
 */
void view_scroll_move(struct view_scroll *v, int n, int visible, int delta);

/* "rdmatop HH:MM:SS  4 pools  used 1.2M of 18M (6.6%)  1234 events/s" */
void view_header(const struct rt_model *m, char *buf, size_t len);
/* "fallback: kernel without the series; unavailable: ..." or "". */
void view_unavailable(const struct rt_model *m, char *buf, size_t len);
/* One rare event as a line. */
void view_event(const struct rt_event *e, char *buf, size_t len);

/*
 * A whole table as lines, fitted into @width: calls @line for the header
 * and each row. @filter selects rows by name (NULL: all).
 */
typedef void (*view_line_fn)(void *ctx, int row, const char *text);
void view_pools_table(const struct rt_model *m, int width, const char *filter,
		      view_line_fn line, void *ctx);
void view_devs_table(const struct rt_model *m, int width, const char *filter,
		     view_line_fn line, void *ctx);

#endif
