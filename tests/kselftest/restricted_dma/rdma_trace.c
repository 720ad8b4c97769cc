// SPDX-License-Identifier: GPL-2.0
/*
 * Trace event formats and trace buffer contents, from tracefs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_board.h"
#include "rdma_trace.h"

#define TRACEFS		"/sys/kernel/tracing"
#define MAX_FIELDS	32
#define FIELD_LEN	64

char *rdma_trace_read(void)
{
	return rdma_read_file(TRACEFS "/trace", NULL);
}

/*
 * The field name of a format line "\tfield:TYPE NAME[N];\toffset:..."
 * into name; false for other lines and for common_* fields.
 */
static bool format_field(const char *line, char *name)
{
	const char *p = strstr(line, "field:"), *semi = p ? strchr(p, ';') : NULL, *start;
	size_t len;

	if (!semi)
		return false;
	for (start = semi; start > p && start[-1] != ' '; start--)
		;
	len = strcspn(start, "[;");
	if (!len || len >= FIELD_LEN || !strncmp(start, "common_", 7))
		return false;
	memcpy(name, start, len);
	name[len] = '\0';
	return true;
}

static bool in_list(char list[][FIELD_LEN], int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

int rdma_trace_check_fields(const char *event, const char *want, char *why, size_t len)
{
	char path[PATH_MAX], have[MAX_FIELDS][FIELD_LEN], need[MAX_FIELDS][FIELD_LEN];
	char *text, *line, *save, *copy;
	int nhave = 0, nneed = 0, ret = 0;
	size_t used = 0;

	rdma_fmt(path, sizeof(path), TRACEFS "/events/%s/format", event);
	text = rdma_read_file(path, NULL);
	if (!text) {
		rdma_fmt(why, len, "no %s", path);
		return -ENOENT;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (nhave < MAX_FIELDS && format_field(line, have[nhave]))
			nhave++;
	free(text);
	copy = strdup(want);
	for (line = strtok_r(copy, " ", &save); line && nneed < MAX_FIELDS;
	     line = strtok_r(NULL, " ", &save))
		rdma_fmt(need[nneed++], FIELD_LEN, "%s", line);
	free(copy);

	why[0] = '\0';
	for (int i = 0; i < nneed; i++) {
		if (in_list(have, nhave, need[i]))
			continue;
		used += snprintf(why + used, used < len ? len - used : 0, "missing %s; ", need[i]);
		ret = -EINVAL;
	}
	for (int i = 0; i < nhave; i++) {
		if (in_list(need, nneed, have[i]))
			continue;
		used += snprintf(why + used, used < len ? len - used : 0, "extra %s; ", have[i]);
		ret = -EINVAL;
	}
	return ret;
}

long long rdma_trace_sum(const char *trace, const char *name, const char *const *needles,
			 const char *field, unsigned int unit)
{
	char tag[RDMA_NAME_LEN], key[RDMA_NAME_LEN];
	const char *line = trace;
	long long n = 0;

	rdma_fmt(tag, sizeof(tag), " %s: ", name);
	if (field)
		rdma_fmt(key, sizeof(key), " %s=", field);
	while (line && *line) {
		const char *eol = strchrnul(line, '\n'), *v;
		size_t len = eol - line;
		bool match = memmem(line, len, tag, strlen(tag));

		for (int i = 0; match && needles && needles[i]; i++)
			match = memmem(line, len, needles[i], strlen(needles[i]));
		if (match && !field) {
			n++;
		} else if (match) {
			v = memmem(line, len, key, strlen(key));
			if (!v)
				return -1;
			n += (strtoull(v + strlen(key), NULL, 10) + unit - 1) / unit;
		}
		line = *eol ? eol + 1 : NULL;
	}
	return n;
}

long rdma_trace_count(const char *trace, const char *name, const char *const *needles)
{
	return rdma_trace_sum(trace, name, needles, NULL, 1);
}

long long rdma_trace_kept_slots(const char *trace, const char *const *needles)
{
	return rdma_trace_sum(trace, "swiotlb_alloc", needles, "size", RDMA_SLOT_SIZE) -
	       rdma_trace_sum(trace, "swiotlb_free", needles, "size", RDMA_SLOT_SIZE);
}

int rdma_trace_buffer_kb(unsigned int kb, unsigned int *old)
{
	char val[16], *cur;

	if (old) {
		/* "7 (expanded: 1408)" until the first trace: the number comes first */
		cur = rdma_read_file(TRACEFS "/buffer_size_kb", NULL);
		if (!cur)
			return -errno;
		*old = (unsigned int)strtoul(cur, NULL, 10);
		free(cur);
	}
	rdma_fmt(val, sizeof(val), "%u", kb);
	return rdma_write_str(TRACEFS "/buffer_size_kb", val);
}

long rdma_trace_lost(void)
{
	char path[PATH_MAX];
	long lost = 0;
	int cpu;

	for (cpu = 0;; cpu++) {
		char *stats, *p;

		rdma_fmt(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/stats", cpu);
		stats = rdma_read_file(path, NULL);
		if (!stats)
			break;
		p = strstr(stats, "overrun: ");
		if (p)
			lost += strtol(p + 9, NULL, 10);
		free(stats);
		if (!p)
			return -1;
	}
	return cpu ? lost : -1;
}
