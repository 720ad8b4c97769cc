/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a small JSON reader for rdmatop's records (--usage): one value
 * parsed into a tree, depth and size bounded, every error with a column.
 */
#ifndef RDMA_DTCHECK_JSON_H
#define RDMA_DTCHECK_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype t;
	bool b;
	double num;
	bool is_u64;		/* a non-negative integer that fits uint64_t */
	uint64_t u64;
	char *str;
	int n;			/* J_ARR, J_OBJ: members */
	struct jval *v;
	char **keys;		/* J_OBJ: the member names */
};

/*
 * Parse one JSON value from @s (@len bytes; trailing blanks allowed).
 * Returns 0, or -1 with a message in @err naming the byte offset.
 */
int json_parse(const char *s, size_t len, struct jval *out, char *err,
	       size_t errlen);
void json_free(struct jval *v);

/* Member @key of object @o, or NULL. */
const struct jval *json_member(const struct jval *o, const char *key);
/* @key as an unsigned integer; false when absent, null or not one. */
bool json_member_u64(const struct jval *o, const char *key, uint64_t *out);
/* @key as a string, or NULL. */
const char *json_member_str(const struct jval *o, const char *key);

#endif
