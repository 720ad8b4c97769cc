/* SPDX-License-Identifier: GPL-2.0 */
/* The interactive ncurses screen. */
#ifndef RDMATOP_SCREEN_H
#define RDMATOP_SCREEN_H

#include <stdbool.h>
#include "model.h"
#include "options.h"

enum screen_action {
	SCREEN_NONE,
	SCREEN_QUIT,
	SCREEN_REDRAW,		/* the view changed: draw again now */
	SCREEN_INTERVAL,	/* the interval changed */
};

struct screen;

struct screen *screen_open(void);
void screen_close(struct screen *s);
/* Handles waiting keys (stdin is readable); may change @o. */
enum screen_action screen_keys(struct screen *s, struct rt_opts *o);
void screen_draw(struct screen *s, const struct rt_model *m, const struct rt_opts *o);
bool screen_paused(const struct screen *s);

#endif
