// SPDX-License-Identifier: GPL-2.0
/*
 * json_check FILE: every line of FILE is one complete JSON object
 * (NDJSON), per RFC 8259's grammar. Prints "N objects" or the first
 * error with its line and column; exits 0 or 1.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct p {
	const char *s;
	size_t i;
	int depth;
};

static bool value(struct p *p);

static void ws(struct p *p)
{
	while (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\r')
		p->i++;
}

static bool lit(struct p *p, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(p->s + p->i, w, n))
		return false;
	p->i += n;
	return true;
}

static bool string(struct p *p)
{
	unsigned char c;
	int k;

	if (p->s[p->i++] != '"')
		return false;
	for (;;) {
		c = (unsigned char)p->s[p->i++];
		if (c == '"')
			return true;
		if (c < 0x20)
			return false;
		if (c != '\\')
			continue;
		c = (unsigned char)p->s[p->i++];
		if (c == 'u') {
			for (k = 0; k < 4; k++)
				if (!isxdigit((unsigned char)p->s[p->i++]))
					return false;
		} else if (!strchr("\"\\/bfnrt", c) || !c) {
			return false;
		}
	}
}

static bool digits(struct p *p)
{
	size_t start = p->i;

	while (isdigit((unsigned char)p->s[p->i]))
		p->i++;
	return p->i > start;
}

static bool number(struct p *p)
{
	if (p->s[p->i] == '-')
		p->i++;
	if (p->s[p->i] == '0')
		p->i++;
	else if (!digits(p))
		return false;
	if (p->s[p->i] == '.') {
		p->i++;
		if (!digits(p))
			return false;
	}
	if (p->s[p->i] == 'e' || p->s[p->i] == 'E') {
		p->i++;
		if (p->s[p->i] == '+' || p->s[p->i] == '-')
			p->i++;
		if (!digits(p))
			return false;
	}
	return true;
}

static bool container(struct p *p, char close, bool object)
{
	p->i++;
	if (++p->depth > 64)
		return false;
	ws(p);
	if (p->s[p->i] == close) {
		p->i++;
		p->depth--;
		return true;
	}
	for (;;) {
		ws(p);
		if (object) {
			if (!string(p))
				return false;
			ws(p);
			if (p->s[p->i++] != ':')
				return false;
		}
		if (!value(p))
			return false;
		ws(p);
		if (p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->s[p->i++] != close)
			return false;
		p->depth--;
		return true;
	}
}

static bool value(struct p *p)
{
	ws(p);
	switch (p->s[p->i]) {
	case '{': return container(p, '}', true);
	case '[': return container(p, ']', false);
	case '"': return string(p);
	case 't': return lit(p, "true");
	case 'f': return lit(p, "false");
	case 'n': return lit(p, "null");
	default: return number(p);
	}
}

int main(int argc, char **argv)
{
	static char line[1 << 20];
	unsigned long n = 0, objects = 0;
	struct p p;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: json_check FILE\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		n++;
		line[strcspn(line, "\n")] = '\0';
		p = (struct p){ line, 0, 0 };
		ws(&p);
		if (line[p.i] != '{' || !value(&p) || (ws(&p), line[p.i])) {
			printf("line %lu, column %zu: not one JSON object\n", n, p.i + 1);
			return 1;
		}
		objects++;
	}
	fclose(f);
	printf("%lu objects\n", objects);
	return objects ? 0 : 1;
}
