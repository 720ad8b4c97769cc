// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - recursive-descent JSON (RFC 8259) for rdmatop's records.
 * Nesting is capped at JSON_MAX_DEPTH, so the stack is bounded whatever
 * the input; every step consumes input, so the time is linear.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

#define JSON_MAX_DEPTH 32

struct jp {
	const char *s;
	size_t len, pos;
	char *err;
	size_t errlen;
	bool failed;
};

static int fail(struct jp *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));	/* __printf() is the kernel's */

static int fail(struct jp *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->failed)
		return -1;
	p->failed = true;
	n = snprintf(p->err, p->errlen, "column %zu: ", p->pos + 1);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_ws(struct jp *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
		p->pos++;
}

static int peek(const struct jp *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int literal(struct jp *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return fail(p, "expected a value");
	p->pos += n;
	return 0;
}

static int hex4(struct jp *p, unsigned int *out)
{
	unsigned int v = 0;

	for (int i = 0; i < 4; i++) {
		int c = peek(p);

		if (c >= '0' && c <= '9')
			v = v * 16 + (unsigned int)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = v * 16 + (unsigned int)((c | 0x20) - 'a' + 10);
		else
			return fail(p, "bad \\u escape");
		p->pos++;
	}
	*out = v;
	return 0;
}

/* UTF-8 of @cp into @b (at least 4 bytes); returns the length. */
static int utf8(unsigned int cp, char *b)
{
	if (cp < 0x80) {
		b[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (char)(0xf0 | cp >> 18);
	b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	b[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int parse_string(struct jp *p, char **out)
{
	size_t cap = 16, n = 0;
	char *b;

	if (peek(p) != '"')
		return fail(p, "expected a string");
	p->pos++;
	b = xmalloc(cap);
	for (;;) {
		int c = peek(p);
		char tmp[4];
		int k = 1;

		if (c < 0) {
			free(b);
			return fail(p, "unterminated string");
		}
		if (c < 0x20) {
			free(b);
			return fail(p, "control character in a string");
		}
		p->pos++;
		if (c == '"')
			break;
		tmp[0] = (char)c;
		if (c == '\\') {
			unsigned int cp, lo;

			c = peek(p);
			p->pos++;
			switch (c) {
			case '"': case '\\': case '/':
				tmp[0] = (char)c;
				break;
			case 'b':
				tmp[0] = '\b';
				break;
			case 'f':
				tmp[0] = '\f';
				break;
			case 'n':
				tmp[0] = '\n';
				break;
			case 'r':
				tmp[0] = '\r';
				break;
			case 't':
				tmp[0] = '\t';
				break;
			case 'u':
				if (hex4(p, &cp)) {
					free(b);
					return -1;
				}
				if (cp >= 0xd800 && cp < 0xdc00 && peek(p) == '\\' &&
				    p->pos + 1 < p->len && p->s[p->pos + 1] == 'u') {
					p->pos += 2;
					if (hex4(p, &lo)) {
						free(b);
						return -1;
					}
					if (lo >= 0xdc00 && lo < 0xe000)
						cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				}
				if (!cp)
					cp = '?';	/* no NUL inside C strings */
				k = utf8(cp, tmp);
				break;
			default:
				p->pos--;
				free(b);
				return fail(p, "bad escape");
			}
		}
		if (n + (size_t)k + 1 > cap) {
			cap *= 2;
			b = xrealloc(b, cap);
		}
		memcpy(b + n, tmp, (size_t)k);
		n += (size_t)k;
	}
	b[n] = '\0';
	*out = b;
	return 0;
}

static int parse_number(struct jp *p, struct jval *v)
{
	size_t start = p->pos;
	bool frac = false;
	char buf[64];

	if (peek(p) == '-')
		p->pos++;
	if (peek(p) == '0') {
		p->pos++;
	} else if (peek(p) >= '1' && peek(p) <= '9') {
		while (peek(p) >= '0' && peek(p) <= '9')
			p->pos++;
	} else {
		return fail(p, "expected a value");
	}
	if (peek(p) == '.') {
		frac = true;
		p->pos++;
		if (!(peek(p) >= '0' && peek(p) <= '9'))
			return fail(p, "digit expected after '.'");
		while (peek(p) >= '0' && peek(p) <= '9')
			p->pos++;
	}
	if (peek(p) == 'e' || peek(p) == 'E') {
		frac = true;
		p->pos++;
		if (peek(p) == '+' || peek(p) == '-')
			p->pos++;
		if (!(peek(p) >= '0' && peek(p) <= '9'))
			return fail(p, "digit expected in the exponent");
		while (peek(p) >= '0' && peek(p) <= '9')
			p->pos++;
	}
	if (p->pos - start >= sizeof(buf))
		return fail(p, "number too long");
	memcpy(buf, p->s + start, p->pos - start);
	buf[p->pos - start] = '\0';
	v->t = J_NUM;
	v->num = strtod(buf, NULL);
	if (!frac && buf[0] != '-') {
		errno = 0;
		v->u64 = strtoull(buf, NULL, 10);
		v->is_u64 = errno == 0;
	}
	return 0;
}

static int value(struct jp *p, struct jval *v, int depth);

static int members(struct jp *p, struct jval *v, int depth, char close)
{
	p->pos++;
	skip_ws(p);
	if (peek(p) == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		struct jval *m;
		char *key = NULL;

		skip_ws(p);
		if (close == '}') {
			if (parse_string(p, &key))
				return -1;
			skip_ws(p);
			if (peek(p) != ':') {
				free(key);
				return fail(p, "':' expected");
			}
			p->pos++;
		}
		m = array_push(&v->v, &v->n, sizeof(*v->v));
		memset(m, 0, sizeof(*m));
		if (close == '}') {
			v->keys = xrealloc(v->keys, (size_t)v->n * sizeof(*v->keys));
			v->keys[v->n - 1] = key;
		}
		if (value(p, m, depth + 1))
			return -1;
		skip_ws(p);
		if (peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (peek(p) == close) {
			p->pos++;
			return 0;
		}
		return fail(p, "',' or '%c' expected", close);
	}
}

static int value(struct jp *p, struct jval *v, int depth)
{
	memset(v, 0, sizeof(*v));
	if (depth > JSON_MAX_DEPTH)
		return fail(p, "nested deeper than %d", JSON_MAX_DEPTH);
	skip_ws(p);
	switch (peek(p)) {
	case '{':
		v->t = J_OBJ;
		return members(p, v, depth, '}');
	case '[':
		v->t = J_ARR;
		return members(p, v, depth, ']');
	case '"':
		v->t = J_STR;
		return parse_string(p, &v->str);
	case 't':
		v->t = J_BOOL;
		v->b = true;
		return literal(p, "true");
	case 'f':
		v->t = J_BOOL;
		return literal(p, "false");
	case 'n':
		return literal(p, "null");
	default:
		return parse_number(p, v);
	}
}

int json_parse(const char *s, size_t len, struct jval *out, char *err,
	       size_t errlen)
{
	struct jp p = { .s = s, .len = len, .err = err, .errlen = errlen };

	if (value(&p, out, 0) == 0) {
		skip_ws(&p);
		if (p.pos == p.len)
			return 0;
		fail(&p, "trailing data after the value");
	}
	json_free(out);
	return -1;
}

void json_free(struct jval *v)
{
	for (int i = 0; i < v->n; i++) {
		json_free(&v->v[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->v);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

const struct jval *json_member(const struct jval *o, const char *key)
{
	if (!o || o->t != J_OBJ)
		return NULL;
	for (int i = 0; i < o->n; i++)
		if (o->keys[i] && !strcmp(o->keys[i], key))
			return &o->v[i];
	return NULL;
}

bool json_member_u64(const struct jval *o, const char *key, uint64_t *out)
{
	const struct jval *v = json_member(o, key);

	if (!v || v->t != J_NUM || !v->is_u64)
		return false;
	*out = v->u64;
	return true;
}

const char *json_member_str(const struct jval *o, const char *key)
{
	const struct jval *v = json_member(o, key);

	return v && v->t == J_STR ? v->str : NULL;
}
