// SPDX-License-Identifier: GPL-2.0
/* -b/--batch: plain text for logs, as top -b does. */
#include "output.h"
#include "view.h"

#define BATCH_WIDTH	512	/* logs are not cut: every column shows */

static void put_line(void *ctx, int row, const char *text)
{
	(void)row;
	fprintf(ctx, "%s\n", text);
}

void out_batch(const struct rt_model *m, FILE *f, const char *filter)
{
	char line[1024];
	size_t i;

	view_header(m, line, sizeof(line));
	fprintf(f, "%s\n", line);
	view_unavailable(m, line, sizeof(line));
	if (line[0])
		fprintf(f, "%s\n", line);
	fputc('\n', f);
	view_pools_table(m, BATCH_WIDTH, filter, put_line, f);
	fputc('\n', f);
	view_devs_table(m, BATCH_WIDTH, filter, put_line, f);
	for (i = 0; i < m->ninterval; i++) {
		view_event(&m->interval_events[i], line, sizeof(line));
		fprintf(f, "event %s\n", line);
	}
	fputc('\n', f);
	fflush(f);
}
