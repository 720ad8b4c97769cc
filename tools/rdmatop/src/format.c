// SPDX-License-Identifier: GPL-2.0
/* Number formatting and column fitting. */
#include <stdio.h>
#include <string.h>
#include "format.h"

static void fmt_scaled(char *buf, size_t len, double v, double base, const char *units)
{
	int u = 0;

	if (v < 0)
		v = 0;
	while (v >= 999.5 && units[u + 1]) {
		v /= base;
		u++;
	}
	if (!u)
		snprintf(buf, len, "%.0f", v);
	else if (v < 9.95)
		snprintf(buf, len, "%.1f%c", v, units[u]);
	else
		snprintf(buf, len, "%.0f%c", v, units[u]);
}

void fmt_bytes(char *buf, size_t len, double v)
{
	fmt_scaled(buf, len, v, 1024, " KMGTP");
}

void fmt_count(char *buf, size_t len, double v)
{
	if (v > 0 && v < 9.95 && v != (double)(long)v)
		snprintf(buf, len, "%.1f", v);
	else
		fmt_scaled(buf, len, v, 1000, " kMGTP");
}

void fmt_ns(char *buf, size_t len, double ns)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	int u = 0;

	if (ns < 0)
		ns = 0;
	while (ns >= 999.5 && u < 3) {
		ns /= 1000;
		u++;
	}
	snprintf(buf, len, ns < 9.95 && u ? "%.1f%s" : "%.0f%s", ns, units[u]);
}

void fmt_elide(char *buf, size_t len, const char *s, int w)
{
	int n = (int)strlen(s), head, tail;

	if (w < 1 || len < 2) {
		if (len)
			buf[0] = '\0';
		return;
	}
	if (n <= w || w < 3) {
		snprintf(buf, len, "%.*s", w, s);
		return;
	}
	head = (w - 1) / 2;
	tail = w - 1 - head;
	snprintf(buf, len, "%.*s~%s", head, s, s + n - tail);
}

static int used_width(const bool *shown, const int *widths, int ncols)
{
	int i, sum = 0, n = 0;

	for (i = 0; i < ncols; i++)
		if (shown[i]) {
			sum += widths[i];
			n++;
		}
	return n ? sum + (n - 1) * TABLE_GAP : 0;
}

int table_fit(const struct tcol *cols, int ncols, const int *natural, int width,
	      bool *shown, int *widths)
{
	int i, drop, excess, cut;

	for (i = 0; i < ncols; i++) {
		shown[i] = true;
		widths[i] = natural[i];
		if (cols[i].flex && cols[i].max && widths[i] > cols[i].max)
			widths[i] = cols[i].max;
		if (widths[i] < (int)strlen(cols[i].title))
			widths[i] = (int)strlen(cols[i].title);
	}
	/* Least important columns go first. */
	while (used_width(shown, widths, ncols) > width) {
		drop = -1;
		for (i = 0; i < ncols; i++)
			if (shown[i] && cols[i].prio &&
			    (drop < 0 || cols[i].prio >= cols[drop].prio))
				drop = i;
		if (drop < 0)
			break;
		shown[drop] = false;
	}
	/* Then names are elided, never below their minimum. */
	for (i = 0; i < ncols; i++) {
		excess = used_width(shown, widths, ncols) - width;
		if (excess <= 0)
			break;
		if (!shown[i] || !cols[i].flex || widths[i] <= cols[i].min)
			continue;
		cut = widths[i] - cols[i].min;
		widths[i] -= excess < cut ? excess : cut;
	}
	return used_width(shown, widths, ncols);
}

void table_row(char *out, size_t len, const struct tcol *cols, int ncols,
	       const bool *shown, const int *widths, const char *const *cells)
{
	char cell[256];
	size_t pos = 0;
	bool first = true;
	int i, n;

	if (!len)
		return;
	out[0] = '\0';
	for (i = 0; i < ncols && pos < len; i++) {
		if (!shown[i])
			continue;
		fmt_elide(cell, sizeof(cell), cells[i] ? cells[i] : "", widths[i]);
		n = snprintf(out + pos, len - pos, cols[i].left ? "%s%-*s" : "%s%*s",
			     first ? "" : " ", widths[i], cell);
		if (n < 0)
			break;
		pos += (size_t)n;
		first = false;
	}
	/* Left-aligned last columns leave trailing blanks: trim them. */
	if (pos >= len)
		pos = len - 1;
	while (pos && out[pos - 1] == ' ')
		out[--pos] = '\0';
}
