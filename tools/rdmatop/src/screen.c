// SPDX-License-Identifier: GPL-2.0
/*
 * The interactive screen (ncurses). Every frame is drawn into curses'
 * virtual screen and sent with one refresh(), which only writes what
 * changed: no flicker. Sizes are re-read on every frame, so a resize
 * (KEY_RESIZE) simply draws again; 80x24 shows the most important
 * columns of both panels (format.h: table_fit).
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include "screen.h"
#include "view.h"

#define FILTER_LEN	RDMA_NAME_LEN

enum panel { PANEL_POOLS, PANEL_DEVICES };

struct screen {
	SCREEN *term;
	enum panel focus;
	bool paused;
	bool help;
	bool editing;			/* typing a filter after '/' */
	char filter[FILTER_LEN];
	char edit[FILTER_LEN];
	struct view_scroll scroll[2];	/* per panel */
	int shown[2];			/* data rows each panel showed last frame */
	int count[2];			/* and rows it had */
};

struct screen *screen_open(void)
{
	struct screen *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	/* Not initscr(): it exits when the terminal is unknown. */
	s->term = newterm(NULL, stdout, stdin);
	if (!s->term) {
		free(s);
		return NULL;
	}
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	return s;
}

void screen_close(struct screen *s)
{
	if (!s)
		return;
	endwin();
	delscreen(s->term);
	free(s);
}

bool screen_paused(const struct screen *s)
{
	return s->paused;
}

static enum screen_action edit_key(struct screen *s, struct rt_opts *o, int c)
{
	size_t n = strlen(s->edit);

	switch (c) {
	case '\n':
	case KEY_ENTER:
		memcpy(s->filter, s->edit, sizeof(s->filter));
		o->filter = s->filter[0] ? s->filter : NULL;
		s->editing = false;
		break;
	case 27:	/* Esc */
		s->editing = false;
		break;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (n)
			s->edit[n - 1] = '\0';
		break;
	default:
		if (c >= 0x20 && c < 0x7f && n + 1 < sizeof(s->edit)) {
			s->edit[n] = (char)c;
			s->edit[n + 1] = '\0';
		}
	}
	return SCREEN_REDRAW;
}

/* The rows a scrolling key moves the focused panel's selection by. */
static int scroll_delta(int c, int page)
{
	switch (c) {
	case KEY_UP:
	case 'k':
		return -1;
	case KEY_DOWN:
	case 'j':
		return 1;
	case KEY_PPAGE:
		return -page;
	case KEY_NPAGE:
		return page;
	case KEY_HOME:
	case 'g':
		return VIEW_SCROLL_HOME;
	default:
		return VIEW_SCROLL_END;
	}
}

enum screen_action screen_keys(struct screen *s, struct rt_opts *o)
{
	enum screen_action a = SCREEN_NONE;
	int c;

	while ((c = getch()) != ERR) {
		if (c == KEY_RESIZE) {
			a = SCREEN_REDRAW;
			continue;
		}
		if (s->editing) {
			a = edit_key(s, o, c);
			continue;
		}
		if (s->help) {
			s->help = false;
			a = SCREEN_REDRAW;
			continue;
		}
		switch (c) {
		case 'q':
		case 'Q':
			return SCREEN_QUIT;
		case 's':
		case '>':	/* top's next sort column */
			o->sort = (o->sort + 1) % RT_SORT_COUNT;
			a = SCREEN_REDRAW;
			break;
		case '<':	/* top's previous one */
			o->sort = (o->sort + RT_SORT_COUNT - 1) % RT_SORT_COUNT;
			a = SCREEN_REDRAW;
			break;
		case 'S':
		case 'R':	/* top's reverse */
			o->reverse = !o->reverse;
			a = SCREEN_REDRAW;
			break;
		case '\t':
			s->focus = s->focus == PANEL_POOLS ? PANEL_DEVICES : PANEL_POOLS;
			a = SCREEN_REDRAW;
			break;
		case '/':
			s->editing = true;
			memcpy(s->edit, s->filter, sizeof(s->edit));
			a = SCREEN_REDRAW;
			break;
		case 'h':
		case '?':
			s->help = true;
			a = SCREEN_REDRAW;
			break;
		case KEY_UP:
		case 'k':
		case KEY_DOWN:
		case 'j':
		case KEY_PPAGE:
		case KEY_NPAGE:
		case KEY_HOME:
		case 'g':
		case KEY_END:
		case 'G':
			view_scroll_move(&s->scroll[s->focus], s->count[s->focus],
					 s->shown[s->focus], scroll_delta(c, s->shown[s->focus]));
			a = SCREEN_REDRAW;
			break;
		case ' ':
			s->paused = !s->paused;
			a = SCREEN_REDRAW;
			break;
		case '+':
			o->delay = o->delay * 2 > 60 ? 60 : o->delay * 2;
			a = SCREEN_INTERVAL;
			break;
		case '-':
			o->delay = o->delay / 2 < 0.25 ? 0.25 : o->delay / 2;
			a = SCREEN_INTERVAL;
			break;
		}
		if (a == SCREEN_INTERVAL)
			return a;
	}
	return a;
}

struct draw_ctx {
	int y0;		/* first screen row of the table */
	int rows;	/* rows it may use, header included */
	int cols;
	bool focus;
	const struct view_scroll *scroll;
};

/* The header, then the data rows from scroll->top; the selected one stands out. */
static void put_row(void *vctx, int row, const char *text)
{
	struct draw_ctx *d = vctx;
	int idx = row - 1, y;
	attr_t attr;

	if (!row) {
		attron(A_REVERSE);
		mvaddnstr(d->y0, 0, text, d->cols);
		attroff(A_REVERSE);
		return;
	}
	y = 1 + idx - d->scroll->top;
	if (y < 1 || y >= d->rows)
		return;
	attr = d->focus && idx == d->scroll->sel ? A_STANDOUT : A_NORMAL;
	attron(attr);
	mvaddnstr(d->y0 + y, 0, text, d->cols);
	attroff(attr);
}

/* Rows of a panel's table: what passes the filter (and for devices, is listed). */
static int panel_count(const struct rt_model *m, enum panel p, const char *filter)
{
	size_t i;
	int n = 0;

	if (p == PANEL_POOLS) {
		for (i = 0; i < m->npools; i++)
			n += rt_pool_match(&m->pools[i], filter);
		return n;
	}
	for (i = 0; i < m->ndevs; i++)
		n += model_dev_listed(m, &m->devs[i]) && rt_dev_match(&m->devs[i], filter);
	return n;
}

static void title(int y, int cols, const char *text, bool focus)
{
	if (focus)
		attron(A_BOLD);
	mvaddnstr(y, 0, text, cols);
	if (focus)
		attroff(A_BOLD);
}

/* Draws one panel's title and table in @rows rows from @y. */
static void draw_panel(struct screen *s, const struct rt_model *m, const struct rt_opts *o,
		       enum panel p, int y, int rows, int cols)
{
	struct draw_ctx d = { y + 1, rows - 1, cols, s->focus == p, &s->scroll[p] };
	char line[256];

	s->count[p] = panel_count(m, p, o->filter);
	s->shown[p] = rows - 2 > 1 ? rows - 2 : 1;
	view_scroll_move(&s->scroll[p], s->count[p], s->shown[p], 0);
	/* The focused panel's title carries the sort, interval and filter. */
	if (s->focus == p)
		snprintf(line, sizeof(line), "%s  sort %s%s  interval %.2gs%s%s%s  h: help",
			 p == PANEL_POOLS ? "Pools" : "Devices", rt_sort_name(o->sort),
			 o->reverse ? " (reversed)" : "", o->delay, s->paused ? "  PAUSED" : "",
			 o->filter ? "  filter " : "", o->filter ? o->filter : "");
	else
		snprintf(line, sizeof(line), "%s", p == PANEL_POOLS ? "Pools" : "Devices");
	title(y, cols, line, s->focus == p);
	if (p == PANEL_POOLS)
		view_pools_table(m, cols, o->filter, put_row, &d);
	else
		view_devs_table(m, cols, o->filter, put_row, &d);
}


static void draw_help(int rows, int cols)
{
	static const char *const lines[] = {
		"rdmatop keys",
		"",
		"  q        quit",
		"  s / S    next sort column / reverse the sort (top's > < R too)",
		"  tab      switch panel (the focused one gets the room)",
		"  up/down, j/k, PgUp/PgDn, Home/End (g/G)  select and scroll",
		"  /        filter by device or pool name (Enter sets, Esc cancels)",
		"  space    pause and resume",
		"  + / -    slower / faster interval",
		"  h        this help (any key closes it)",
		"",
		"OOP: out-of-pool DMA ranges; FAIL: pool map or allocation failures;",
		"INFLT: mappings not yet unmapped; SZ/T: size and time in flight p50/p99",
	};
	int i, n = (int)(sizeof(lines) / sizeof(lines[0]));

	for (i = 0; i < n && i + 2 < rows; i++) {
		move(i + 2, 0);
		clrtoeol();
		mvaddnstr(i + 2, 2, lines[i], cols - 2);
	}
}

void screen_draw(struct screen *s, const struct rt_model *m, const struct rt_opts *o)
{
	char line[1024];
	int rows, cols, y, pool_rows, dev_rows, avail;
	size_t npools = m->npools, ndevs = m->ndevs;

	getmaxyx(stdscr, rows, cols);
	erase();
	view_header(m, line, sizeof(line));
	mvaddnstr(0, 0, line, cols);
	view_unavailable(m, line, sizeof(line));
	mvaddnstr(1, 0, line, cols);

	/* Two panels share the rows between line 2 and the last line. */
	avail = rows - 4;
	if (avail < 4)
		avail = 4;
	pool_rows = (int)npools + 2;
	dev_rows = (int)ndevs + 2;
	if (pool_rows + dev_rows > avail) {
		if (s->focus == PANEL_POOLS) {
			dev_rows = avail / 3 > 3 ? avail / 3 : 3;
			if (pool_rows > avail - dev_rows)
				pool_rows = avail - dev_rows;
			dev_rows = avail - pool_rows;
		} else {
			pool_rows = avail / 3 > 3 ? avail / 3 : 3;
			if (dev_rows > avail - pool_rows)
				dev_rows = avail - pool_rows;
			pool_rows = avail - dev_rows;
		}
	}
	y = 2;
	draw_panel(s, m, o, PANEL_POOLS, y, pool_rows, cols);
	y += pool_rows;
	draw_panel(s, m, o, PANEL_DEVICES, y, dev_rows, cols);

	/* The last line: the newest rare event, or the filter being typed. */
	if (s->editing) {
		snprintf(line, sizeof(line), "filter: %s_", s->edit);
	} else if (m->nrecent) {
		view_event(&m->recent[(m->recent_head + RT_RECENT - 1) % RT_RECENT], line,
			   sizeof(line));
	} else {
		snprintf(line, sizeof(line), "no rare events (attach, failure, out of pool) yet");
	}
	mvaddnstr(rows - 1, 0, line, cols);
	if (s->help)
		draw_help(rows, cols);
	refresh();
}
