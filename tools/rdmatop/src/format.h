/* SPDX-License-Identifier: GPL-2.0 */
/* Number formatting and fitting table columns into a width. */
#ifndef RDMATOP_FORMAT_H
#define RDMATOP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes in binary units, at most 6 characters: "512", "4.0K", "12M". */
void fmt_bytes(char *buf, size_t len, double v);
/* A count or rate, at most 6 characters: "999", "12.3k", "4.1M". */
void fmt_count(char *buf, size_t len, double v);
/* A duration: "850ns", "12us", "3.4ms", "1.2s". */
void fmt_ns(char *buf, size_t len, double ns);
/*
 * Numbers for the machine-readable outputs, as printf would write them
 * but without its machinery (most of an interval's cost at 1 s):
 * fmt_u64() and fmt_s64() as "%llu" and "%lld", fmt_g6() as "%.6g".
 * @buf holds FMT_NUM_LEN bytes; they return the length written.
 */
#define FMT_NUM_LEN	32
int fmt_u64(char *buf, uint64_t v);
int fmt_s64(char *buf, int64_t v);
int fmt_g6(char *buf, double v);
/* Fits @s into @w columns, eliding the middle with '~'. */
void fmt_elide(char *buf, size_t len, const char *s, int w);

#define TABLE_MAX_COLS	24
#define TABLE_GAP	1	/* spaces between columns */
#define TABLE_NAME_PRIO	5	/* columns less important than this go before
				 * names are shortened */

/**
 * struct tcol - one column of a table
 * @title: header text
 * @prio: 0 is never dropped; when the width is short, the column with
 *	the largest @prio goes first
 * @left: left-aligned (names); numbers are right-aligned
 * @flex: may be elided down to @min characters (names)
 * @min: smallest width a flex column is shrunk to
 * @max: widest a flex column grows to (0: no limit)
 */
struct tcol {
	const char *title;
	int prio;
	bool left;
	bool flex;
	int min;
	int max;
};

/**
 * table_fit - choose the columns and widths for a total @width
 * @natural: the widest cell (header included) of each column
 * @shown: out, whether each column is shown
 * @widths: out, each shown column's width
 *
 * Columns of priority above TABLE_NAME_PRIO are dropped first (least
 * important first), then names (flex columns) are shortened down to
 * their @min, then other columns are dropped; the names take back the
 * room a dropped column leaves.
 *
 * Returns the total width used (never more than @width unless even the
 * never-dropped columns at their minimum do not fit).
 */
int table_fit(const struct tcol *cols, int ncols, const int *natural, int width,
	      bool *shown, int *widths);

/* One row of cells as a line (no newline), using table_fit's result. */
void table_row(char *out, size_t len, const struct tcol *cols, int ncols,
	       const bool *shown, const int *widths, const char *const *cells);

#endif
