// SPDX-License-Identifier: GPL-2.0
/* Number formatting and column fitting. */
#include <math.h>
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

/*
 * Drops shown columns of priority above @above, least important first,
 * until the table fits @width.
 */
static void drop_columns(const struct tcol *cols, int ncols, int width, int above,
			 bool *shown, const int *widths)
{
	int i, drop;

	while (used_width(shown, widths, ncols) > width) {
		drop = -1;
		for (i = 0; i < ncols; i++)
			if (shown[i] && cols[i].prio > above &&
			    (drop < 0 || cols[i].prio >= cols[drop].prio))
				drop = i;
		if (drop < 0)
			return;
		shown[drop] = false;
	}
}

int table_fit(const struct tcol *cols, int ncols, const int *natural, int width,
	      bool *shown, int *widths)
{
	int i, excess, cut, room, full[TABLE_MAX_COLS];

	for (i = 0; i < ncols && i < TABLE_MAX_COLS; i++) {
		shown[i] = true;
		widths[i] = natural[i];
		if (cols[i].flex && cols[i].max && widths[i] > cols[i].max)
			widths[i] = cols[i].max;
		if (widths[i] < (int)strlen(cols[i].title))
			widths[i] = (int)strlen(cols[i].title);
		full[i] = widths[i];
	}
	ncols = i;
	/*
	 * The least important columns go first, then names are shortened
	 * down to their minimum, then the other columns go ...
	 */
	drop_columns(cols, ncols, width, TABLE_NAME_PRIO, shown, widths);
	for (i = 0; i < ncols; i++) {
		excess = used_width(shown, widths, ncols) - width;
		if (excess <= 0)
			break;
		if (!shown[i] || !cols[i].flex || widths[i] <= cols[i].min)
			continue;
		cut = widths[i] - cols[i].min;
		widths[i] -= excess < cut ? excess : cut;
	}
	drop_columns(cols, ncols, width, 0, shown, widths);
	/* ... and the names take back the room a dropped column left. */
	for (i = 0; i < ncols; i++) {
		room = width - used_width(shown, widths, ncols);
		if (room <= 0)
			break;
		if (!shown[i] || !cols[i].flex || widths[i] >= full[i])
			continue;
		widths[i] += room < full[i] - widths[i] ? room : full[i] - widths[i];
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

int fmt_u64(char *buf, uint64_t v)
{
	char tmp[20], *p = tmp + sizeof(tmp);
	int n;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	n = (int)(tmp + sizeof(tmp) - p);
	memcpy(buf, p, (size_t)n);
	buf[n] = '\0';
	return n;
}

int fmt_s64(char *buf, int64_t v)
{
	if (v >= 0)
		return fmt_u64(buf, (uint64_t)v);
	buf[0] = '-';
	return 1 + fmt_u64(buf + 1, -(uint64_t)v);
}

/*
 * @a (>= 0) times 10^@k rounded to an integer as printf rounds: from the
 * exact value, ties to even. The product (or quotient) is rounded once
 * already; fma() gives exactly what that lost, which decides the only
 * case it matters, a result that landed on a tie. False when 10^|@k| is
 * not exact in a double.
 */
static bool round_scaled(double a, int k, uint64_t *out)
{
	static const double p10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};
	double d, q, lost;

	if (k > 22 || k < -22)
		return false;
	if (k >= 0) {
		d = p10[k];
		q = a * d;
		lost = fma(a, d, -q);
	} else {
		d = p10[-k];
		q = a / d;
		lost = fma(-q, d, a);	/* the remainder: its sign is the quotient's error's */
	}
	if (q - floor(q) == 0.5 && lost != 0)
		q = lost > 0 ? ceil(q) : floor(q);
	else
		q = nearbyint(q);
	*out = (uint64_t)q;
	return true;
}

/*
 * %.6g: six significant digits, in fixed point when the decimal exponent
 * e (after rounding) is from -4 to 5, else as d.ddddde+XX; trailing zeros
 * of the fraction dropped. Infinities, NaN and exponents whose power of
 * ten is not exact go to snprintf.
 */
int fmt_g6(char *buf, double v)
{
	char digits[FMT_NUM_LEN];
	double a = fabs(v);
	int e, i, n, dec, frac, len = 0, tries;
	uint64_t m = 0;

	if (a == 0) {
		if (signbit(v))
			buf[len++] = '-';
		buf[len++] = '0';
		buf[len] = '\0';
		return len;
	}
	if (!isfinite(v))
		return snprintf(buf, FMT_NUM_LEN, "%.6g", v);
	e = (int)floor(log10(a));
	/* m: the six digits, 100000 to 999999; log10() may be one off. */
	for (tries = 0; tries < 3; tries++) {
		if (!round_scaled(a, 5 - e, &m))
			return snprintf(buf, FMT_NUM_LEN, "%.6g", v);
		if (m == 1000000) {	/* rounded up to the next power of ten */
			m = 100000;
			e++;
		}
		if (m > 1000000)
			e++;
		else if (m < 100000)
			e--;
		else
			break;
	}
	if (tries == 3)
		return snprintf(buf, FMT_NUM_LEN, "%.6g", v);
	if (v < 0)
		buf[len++] = '-';
	/* The fraction's trailing zeros go. */
	dec = e >= -4 && e < 6 ? 5 - e : 5;
	while (dec > 0 && m % 10 == 0) {
		m /= 10;
		dec--;
	}
	n = fmt_u64(digits, m);
	frac = n < dec ? n : dec;	/* the digits after the point */
	if (n <= dec) {		/* fixed point below 1 */
		buf[len++] = '0';
		buf[len++] = '.';
		for (i = n; i < dec; i++)
			buf[len++] = '0';
	} else {
		memcpy(buf + len, digits, (size_t)(n - dec));
		len += n - dec;
		if (dec)
			buf[len++] = '.';
	}
	memcpy(buf + len, digits + n - frac, (size_t)frac);
	len += frac;
	if (e < -4 || e >= 6) {
		buf[len++] = 'e';
		buf[len++] = e < 0 ? '-' : '+';
		if (e > -10 && e < 10)
			buf[len++] = '0';
		len += fmt_u64(buf + len, (uint64_t)(e < 0 ? -e : e));
	}
	buf[len] = '\0';
	return len;
}
