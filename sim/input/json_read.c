/*
 * Recursive-descent JSON parser (see json_read.h).  Strings are decoded
 * to UTF-8, including \u escapes and surrogate pairs; numbers go through
 * strtod after their syntax is checked, so "1." or "01" are refused as
 * the grammar says.
 */
#include "sim/input/json_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

struct parser {
	const char *p, *end;
	int line;
	const char *name;
	struct err *e;
};

static int fail(struct parser *ps, const char *what)
{
	if (ps->name)
		return err_set(ps->e, "%s:%d: %s", ps->name, ps->line, what);
	return err_set(ps->e, "line %d: %s", ps->line, what);
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n')
			ps->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		ps->p++;
	}
}

static bool literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return false;
	ps->p += n;
	return true;
}

static void put_utf8(char **buf, size_t *len, size_t *cap, unsigned cp)
{
	char tmp[4];
	int n;

	if (cp < 0x80) {
		tmp[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		tmp[0] = (char)(0xc0 | cp >> 6);
		tmp[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		tmp[0] = (char)(0xe0 | cp >> 12);
		tmp[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		tmp[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		tmp[0] = (char)(0xf0 | cp >> 18);
		tmp[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		tmp[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		tmp[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	if (*len + n + 1 > *cap) {
		*cap = 2 * (*len + n + 1);
		*buf = xreallocarray(*buf, *cap, 1);
	}
	memcpy(*buf + *len, tmp, n);
	*len += n;
}

static int hex4(struct parser *ps, unsigned *out)
{
	*out = 0;
	if (ps->end - ps->p < 4)
		return fail(ps, "truncated \\u escape");
	for (int i = 0; i < 4; i++) {
		char c = *ps->p++;

		*out <<= 4;
		if (c >= '0' && c <= '9')
			*out |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*out |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*out |= (unsigned)(c - 'A' + 10);
		else
			return fail(ps, "bad hex digit in \\u escape");
	}
	return 0;
}

static int escape(struct parser *ps, unsigned *cp)
{
	char c;

	if (ps->p >= ps->end)
		return fail(ps, "unterminated string");
	c = *ps->p++;
	switch (c) {
	case '"': *cp = '"'; return 0;
	case '\\': *cp = '\\'; return 0;
	case '/': *cp = '/'; return 0;
	case 'b': *cp = '\b'; return 0;
	case 'f': *cp = '\f'; return 0;
	case 'n': *cp = '\n'; return 0;
	case 'r': *cp = '\r'; return 0;
	case 't': *cp = '\t'; return 0;
	case 'u':
		if (hex4(ps, cp))
			return -1;
		if (*cp >= 0xd800 && *cp < 0xdc00) {
			unsigned lo;

			if (!literal(ps, "\\u") || hex4(ps, &lo) || lo < 0xdc00 || lo >= 0xe000)
				return fail(ps, "unpaired surrogate in \\u escape");
			*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
		} else if (*cp >= 0xdc00 && *cp < 0xe000) {
			return fail(ps, "unpaired surrogate in \\u escape");
		}
		if (*cp == 0)
			return fail(ps, "\\u0000 in a string");
		return 0;
	default:
		return fail(ps, "bad escape in string");
	}
}

static int parse_string(struct parser *ps, char **out)
{
	size_t len = 0, cap = 16;
	char *buf = xmalloc(cap);

	ps->p++;    /* opening quote */
	for (;;) {
		unsigned char c;
		unsigned cp = 0;

		if (ps->p >= ps->end) {
			free(buf);
			return fail(ps, "unterminated string");
		}
		c = (unsigned char)*ps->p++;
		if (c == '"')
			break;
		if (c < 0x20) {
			free(buf);
			return fail(ps, "control character in string");
		}
		if (c == '\\') {
			if (escape(ps, &cp)) {
				free(buf);
				return -1;
			}
			put_utf8(&buf, &len, &cap, cp);
			continue;
		}
		if (len + 2 > cap) {
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
		buf[len++] = (char)c;
	}
	buf[len] = 0;
	*out = buf;
	return 0;
}

static int parse_number(struct parser *ps, double *out)
{
	const char *s = ps->p;
	char tmp[64];
	size_t n;

	if (s < ps->end && *s == '-')
		s++;
	if (s >= ps->end || !(*s >= '0' && *s <= '9'))
		return fail(ps, "bad number");
	if (*s == '0')
		s++;
	else
		while (s < ps->end && *s >= '0' && *s <= '9')
			s++;
	if (s < ps->end && *s == '.') {
		s++;
		if (s >= ps->end || !(*s >= '0' && *s <= '9'))
			return fail(ps, "bad number: digits expected after '.'");
		while (s < ps->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < ps->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < ps->end && (*s == '+' || *s == '-'))
			s++;
		if (s >= ps->end || !(*s >= '0' && *s <= '9'))
			return fail(ps, "bad number: digits expected in exponent");
		while (s < ps->end && *s >= '0' && *s <= '9')
			s++;
	}
	n = (size_t)(s - ps->p);
	if (n >= sizeof(tmp))
		return fail(ps, "number too long");
	memcpy(tmp, ps->p, n);
	tmp[n] = 0;
	*out = strtod(tmp, NULL);
	ps->p = s;
	return 0;
}

static int parse_value(struct parser *ps, struct jval *v, int depth);

static void grow(struct jval *v, int *cap, bool keys)
{
	if (v->n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 8;
	v->items = xreallocarray(v->items, *cap, sizeof(*v->items));
	if (keys)
		v->keys = xreallocarray(v->keys, *cap, sizeof(*v->keys));
}

static int parse_container(struct parser *ps, struct jval *v, int depth, bool object)
{
	char close = object ? '}' : ']';
	int cap = 0;

	if (depth >= JVAL_MAX_DEPTH)
		return fail(ps, "nesting too deep");
	v->type = object ? JVAL_OBJECT : JVAL_ARRAY;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		skip_ws(ps);
		if (object) {
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "member name expected");
			if (parse_string(ps, &key))
				return -1;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				return fail(ps, "':' expected after member name");
			}
			ps->p++;
		}
		grow(v, &cap, object);
		memset(&v->items[v->n], 0, sizeof(v->items[v->n]));
		if (object)
			v->keys[v->n] = key;
		v->n++;
		if (parse_value(ps, &v->items[v->n - 1], depth + 1))
			return -1;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return 0;
		}
		return fail(ps, object ? "',' or '}' expected" : "',' or ']' expected");
	}
}

static int parse_value(struct parser *ps, struct jval *v, int depth)
{
	skip_ws(ps);
	v->line = ps->line;
	if (ps->p >= ps->end)
		return fail(ps, "unexpected end of input");
	switch (*ps->p) {
	case '{':
		return parse_container(ps, v, depth, true);
	case '[':
		return parse_container(ps, v, depth, false);
	case '"':
		v->type = JVAL_STRING;
		return parse_string(ps, &v->str);
	case 't':
	case 'f':
		v->type = JVAL_BOOL;
		v->b = *ps->p == 't';
		if (literal(ps, v->b ? "true" : "false"))
			return 0;
		return fail(ps, "unexpected word");
	case 'n':
		v->type = JVAL_NULL;
		if (literal(ps, "null"))
			return 0;
		return fail(ps, "unexpected word");
	default:
		if (*ps->p != '-' && !(*ps->p >= '0' && *ps->p <= '9'))
			return fail(ps, "not JSON: unexpected character");
		v->type = JVAL_NUMBER;
		{
			const char *start = ps->p;

			if (parse_number(ps, &v->num))
				return -1;
			/* The literal too: 64-bit integers (seeds) do not fit a double. */
			v->str = xmalloc((size_t)(ps->p - start) + 1);
			memcpy(v->str, start, (size_t)(ps->p - start));
			v->str[ps->p - start] = '\0';
			return 0;
		}
	}
}

int jval_parse(const char *text, size_t len, const char *name, struct jval *out,
	       struct err *e)
{
	struct parser ps = { text, text + len, 1, name, e };

	memset(out, 0, sizeof(*out));
	if (parse_value(&ps, out, 0))
		goto bad;
	skip_ws(&ps);
	if (ps.p != ps.end) {
		fail(&ps, "unexpected text after the document");
		goto bad;
	}
	return 0;
bad:
	jval_free(out);
	return -1;
}

int jval_parse_file(const char *path, struct jval *out, struct err *e)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	int rc;

	if (!f)
		return err_set(e, "%s: %s", path, strerror(errno));
	do {
		if (len + 65536 > cap) {
			cap = 2 * (len + 65536);
			buf = xreallocarray(buf, cap, 1);
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got > 0);
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return err_set(e, "%s: read error", path);
	}
	fclose(f);
	rc = jval_parse(buf, len, path, out, e);
	free(buf);
	return rc;
}

void jval_free(struct jval *v)
{
	for (int i = 0; i < v->n; i++) {
		jval_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

const struct jval *jval_get(const struct jval *v, const char *key)
{
	if (!v || v->type != JVAL_OBJECT)
		return NULL;
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

const char *jval_get_string(const struct jval *v, const char *key, const char *def)
{
	const struct jval *m = jval_get(v, key);

	return m && m->type == JVAL_STRING ? m->str : def;
}

int jval_uint64(const struct jval *v, uint64_t *out)
{
	uint64_t x = 0;

	if (!v || v->type != JVAL_NUMBER || !v->str || !v->str[0])
		return -1;
	for (const char *p = v->str; *p; p++) {
		if (*p < '0' || *p > '9' || x > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	*out = x;
	return 0;
}
