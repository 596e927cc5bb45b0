/*
 * xl domain configuration files: a lexer and a recursive-descent parser
 * for xl's grammar, then the scheduling keys mapped onto a domain_spec
 * (see xlcfg.h for the syntax and the keys).  Written from xl's grammar
 * and documentation, not from its code; where this reader differs from
 * xl it says so below:
 *  - a comment on the last line without a newline ends the file (xl's
 *    lexer wants the newline and reports a lexical error);
 *  - numeric escapes in strings (\x41, \101) are refused: xl's dequoting
 *    of them does not give the character (the digits are consumed and
 *    nothing or an error comes out), so no working file has them.
 * A carriage return is refused with a hint, as xl's lexer refuses it too.
 */
#include "sim/input/xlcfg.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedulers/rtds.h"
#include "sim/input/textfile.h"
#include "sim/xalloc.h"

/* ------------------------------------------------------------ lexer */

enum tok {
	T_END, T_NEWLINE, T_IDENT, T_NUMBER, T_STRING, T_COMMA, T_LBRACKET, T_RBRACKET,
	T_ASSIGN, T_APPEND, T_SEMICOLON
};

struct lexer {
	const char *p, *end, *name;
	int line;
	struct err *e;
	/* the current token */
	enum tok tok;
	const char *start;      /* its text */
	size_t len;
	char *str;              /* T_STRING, T_IDENT, T_NUMBER: its value (owned until taken) */
	int tok_line;
};

static int lex_fail(struct lexer *lx, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int lex_fail(struct lexer *lx, int line, const char *fmt, ...)
{
	char msg[sizeof(lx->e->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_set(lx->e, "%s:%d: %s", lx->name, line, msg);
}

static char *dup_range(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* A quoted string at lx->p (its quote char q); its value into lx->str. */
static int lex_string(struct lexer *lx)
{
	char q = *lx->p, *out;
	const char *s = lx->p + 1;
	size_t n = 0;

	out = xmalloc((size_t)(lx->end - s) + 1);
	for (;; s++) {
		if (s >= lx->end || *s == '\n') {
			free(out);
			return lex_fail(lx, lx->line, "string not closed on its line (a %c is missing)", q);
		}
		if (*s == q)
			break;
		if (*s != '\\') {
			out[n++] = *s;
			continue;
		}
		s++;
		if (s >= lx->end || *s == '\n') {
			free(out);
			return lex_fail(lx, lx->line, "backslash at the end of a line inside a string "
					"(xl strings do not continue on the next line)");
		}
		switch (*s) {
		case '"': case '\'': case '\\': out[n++] = *s; break;
		case 'a': out[n++] = '\a'; break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		case 't': out[n++] = '\t'; break;
		case 'v': out[n++] = '\v'; break;
		default:
			free(out);
			if (*s == 'x' || (*s >= '0' && *s <= '7'))
				return lex_fail(lx, lx->line, "numeric escape '\\%c' in a string: xl "
						"does not decode these; write the character itself", *s);
			return lex_fail(lx, lx->line, "invalid character after backslash in a string: "
					"'\\%c'", isprint((unsigned char)*s) ? *s : '?');
		}
	}
	out[n] = '\0';
	lx->str = out;
	lx->len = (size_t)(s + 1 - lx->p);
	lx->p = s + 1;
	return 0;
}

/* Advances to the next token; -1 on a lexical error. */
static int lex(struct lexer *lx)
{
	free(lx->str);
	lx->str = NULL;
	while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t'))
		lx->p++;
	lx->start = lx->p;
	lx->tok_line = lx->line;
	if (lx->p >= lx->end) {
		lx->tok = T_END;
		lx->len = 0;
		return 0;
	}
	char c = *lx->p;

	if (c == '#') {             /* a comment runs to the newline, which it ends with */
		const char *nl = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));

		lx->p = nl ? nl + 1 : lx->end;
		lx->tok = nl ? T_NEWLINE : T_END;
		if (nl)
			lx->line++;
		lx->len = 1;
		return 0;
	}
	if (c == '\n') {
		lx->p++;
		lx->line++;
		lx->tok = T_NEWLINE;
		lx->len = 1;
		return 0;
	}
	if (c >= 'a' && c <= 'z') {
		const char *s = lx->p;

		while (s < lx->end && ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
				       *s == '_' || *s == '.'))
			s++;
		lx->tok = T_IDENT;
		lx->len = (size_t)(s - lx->p);
		lx->str = dup_range(lx->p, lx->len);
		lx->p = s;
		return 0;
	}
	if (c >= '0' && c <= '9') {
		const char *s = lx->p;

		while (s < lx->end && ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
				       *s == 'x'))
			s++;
		lx->tok = T_NUMBER;
		lx->len = (size_t)(s - lx->p);
		lx->str = dup_range(lx->p, lx->len);
		lx->p = s;
		return 0;
	}
	if (c == '"' || c == '\'') {
		lx->tok = T_STRING;
		return lex_string(lx);
	}
	lx->len = 1;
	switch (c) {
	case ',': lx->tok = T_COMMA; lx->p++; return 0;
	case '[': lx->tok = T_LBRACKET; lx->p++; return 0;
	case ']': lx->tok = T_RBRACKET; lx->p++; return 0;
	case ';': lx->tok = T_SEMICOLON; lx->p++; return 0;
	case '=': lx->tok = T_ASSIGN; lx->p++; return 0;
	case '+':
		if (lx->p + 1 < lx->end && lx->p[1] == '=') {
			lx->tok = T_APPEND;
			lx->p += 2;
			lx->len = 2;
			return 0;
		}
		break;
	case '\r':
		return lex_fail(lx, lx->line, "carriage return (a DOS line ending?): xl's "
				"syntax takes plain newlines");
	}
	if (c >= 'A' && c <= 'Z')
		return lex_fail(lx, lx->line, "lexical error near '%c': keys are lowercase in xl's "
				"syntax", c);
	if (strchr("+-.():", c))
		return lex_fail(lx, lx->line, "lexical error near '%c' (an xl config is not Python: "
				"values are numbers, quoted strings or [lists])", c);
	return lex_fail(lx, lx->line, "lexical error near '%c'",
			isprint((unsigned char)c) ? c : '?');
}

/* ----------------------------------------------------------- parser */

static const char *tok_text(const struct lexer *lx, char *buf, size_t len)
{
	switch (lx->tok) {
	case T_END: return "the end of the file";
	case T_NEWLINE: return "the end of the line";
	default:
		snprintf(buf, len, "'%.*s'", (int)(lx->len > 40 ? 40 : lx->len), lx->start);
		return buf;
	}
}

static int syntax(struct lexer *lx, const char *expected)
{
	char buf[64];

	return lex_fail(lx, lx->tok_line, "syntax error near %s: expected %s",
			tok_text(lx, buf, sizeof(buf)), expected);
}

static void value_free(struct xlcfg_value *v)
{
	free(v->s);
	for (int i = 0; i < v->n; i++)
		value_free(&v->items[i]);
	free(v->items);
	memset(v, 0, sizeof(*v));
}

static int skip_newlines(struct lexer *lx)
{
	while (lx->tok == T_NEWLINE)
		if (lex(lx) < 0)
			return -1;
	return 0;
}

static int parse_value(struct lexer *lx, struct xlcfg_value *v, int depth)
{
	memset(v, 0, sizeof(*v));
	v->line = lx->tok_line;
	if (lx->tok == T_STRING || lx->tok == T_NUMBER) {
		v->type = XLCFG_STRING;
		v->s = lx->str;
		lx->str = NULL;
		return lex(lx);
	}
	if (lx->tok != T_LBRACKET)
		return syntax(lx, "a value (a number, a \"string\" or a [list])");
	if (depth >= XLCFG_MAX_DEPTH)
		return lex_fail(lx, lx->tok_line, "lists nested more than %d deep", XLCFG_MAX_DEPTH);
	v->type = XLCFG_LIST;
	if (lex(lx) < 0 || skip_newlines(lx) < 0)
		return -1;
	while (lx->tok != T_RBRACKET) {
		if ((v->n & (v->n - 1)) == 0)
			v->items = xreallocarray(v->items, v->n ? 2 * (size_t)v->n : 1,
						 sizeof(*v->items));
		if (parse_value(lx, &v->items[v->n], depth + 1) < 0) {
			value_free(&v->items[v->n]);
			return -1;
		}
		v->n++;
		if (skip_newlines(lx) < 0)
			return -1;
		if (lx->tok == T_RBRACKET)
			break;
		if (lx->tok != T_COMMA)
			return syntax(lx, "',' or ']' in a list");
		if (lex(lx) < 0 || skip_newlines(lx) < 0)
			return -1;
	}
	return lex(lx);
}

/* Deep copy of a value. */
static void value_copy(struct xlcfg_value *dst, const struct xlcfg_value *src)
{
	*dst = *src;
	dst->s = src->s ? xstrdup(src->s) : NULL;
	dst->items = NULL;
	if (src->n)
		dst->items = xcalloc((size_t)src->n, sizeof(*dst->items));
	for (int i = 0; i < src->n; i++)
		value_copy(&dst->items[i], &src->items[i]);
}

const struct xlcfg_setting *xlcfg_get(const struct xlcfg *c, const char *key)
{
	for (int i = c->n - 1; i >= 0; i--)
		if (!strcmp(c->set[i].key, key))
			return &c->set[i];
	return NULL;
}

/* key += value: the previous value of key, then value. */
static int append_to_previous(struct lexer *lx, const struct xlcfg *c, const char *key,
			      struct xlcfg_value *v)
{
	const struct xlcfg_setting *prev = xlcfg_get(c, key);

	if (!prev)
		return 0;
	if (prev->value.type != v->type)
		return lex_fail(lx, v->line, "%s += : cannot add a %s to a %s (line %d)", key,
				v->type == XLCFG_LIST ? "[list]" : "\"string\"",
				prev->value.type == XLCFG_LIST ? "[list]" : "\"string\"", prev->line);
	if (v->type == XLCFG_STRING) {
		size_t a = strlen(prev->value.s), b = strlen(v->s);
		char *s = xmalloc(a + b + 1);

		memcpy(s, prev->value.s, a);
		memcpy(s + a, v->s, b + 1);
		free(v->s);
		v->s = s;
	} else {
		struct xlcfg_value *items = xcalloc((size_t)prev->value.n + (size_t)v->n + 1,
						    sizeof(*items));

		for (int i = 0; i < prev->value.n; i++)
			value_copy(&items[i], &prev->value.items[i]);
		if (v->n)     /* an empty [] has no items to move */
			memcpy(items + prev->value.n, v->items, (size_t)v->n * sizeof(*items));
		free(v->items);
		v->items = items;
		v->n += prev->value.n;
	}
	return 0;
}

static int parse_setting(struct lexer *lx, struct xlcfg *c)
{
	struct xlcfg_setting s = { lx->str, { 0 }, lx->tok_line, false };

	lx->str = NULL;
	if (lex(lx) < 0)
		goto fail;
	if (lx->tok != T_ASSIGN && lx->tok != T_APPEND) {
		syntax(lx, "'=' or '+=' after the key");
		goto fail;
	}
	s.append = lx->tok == T_APPEND;
	if (lex(lx) < 0 || parse_value(lx, &s.value, 0) < 0)
		goto fail;
	if (s.append && append_to_previous(lx, c, s.key, &s.value) < 0)
		goto fail;
	if (lx->tok != T_NEWLINE && lx->tok != T_SEMICOLON && lx->tok != T_END) {
		syntax(lx, "the end of the setting (a newline or ';')");
		goto fail;
	}
	if ((c->n & (c->n - 1)) == 0)
		c->set = xreallocarray(c->set, c->n ? 2 * (size_t)c->n : 1, sizeof(*c->set));
	c->set[c->n++] = s;
	return 0;
fail:
	free(s.key);
	value_free(&s.value);
	return -1;
}

void xlcfg_free(struct xlcfg *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->set[i].key);
		value_free(&c->set[i].value);
	}
	free(c->set);
	c->set = NULL;
	c->n = 0;
}

int xlcfg_parse(const char *text, size_t len, const char *name, struct xlcfg *c,
		struct err *e)
{
	struct lexer lx = { text, text + len, name, 1, e, T_END, text, 0, NULL, 1 };
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (lex(&lx) < 0)
		return -1;
	while (rc == 0 && lx.tok != T_END) {
		if (lx.tok == T_NEWLINE || lx.tok == T_SEMICOLON)
			rc = lex(&lx);
		else if (lx.tok == T_IDENT)
			rc = parse_setting(&lx, c);
		else
			rc = syntax(&lx, "a setting (key = value)");
	}
	free(lx.str);
	if (rc < 0)
		xlcfg_free(c);
	return rc;
}

/* ------------------------------------------------- scheduling keys */

struct apply {
	const char *name;        /* the file, for messages */
	struct err *e;
};

static int bad(const struct apply *a, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(const struct apply *a, int line, const char *fmt, ...)
{
	char msg[sizeof(a->e->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_set(a->e, "%s:%d: %s", a->name, line, msg);
}

/* A single value (not a list), as xlu_cfg_get_string wants it. */
static const char *string_of(const struct apply *a, const struct xlcfg_setting *s)
{
	if (s->value.type != XLCFG_STRING) {
		bad(a, s->line, "%s: a list, but it takes a single value", s->key);
		return NULL;
	}
	return s->value.s;
}

/*
 * A number as xl reads it (strtol, base 0: decimal, 0x hex, 0 octal, and
 * a quoted "4" as well), within [min, max]; ret 1 when the key is absent.
 */
static int number_of(const struct apply *a, const struct xlcfg *c, const char *key,
		     long min, long max, long *out)
{
	const struct xlcfg_setting *s = xlcfg_get(c, key);
	const char *v;
	char *end;
	long x;

	if (!s)
		return 1;
	if (s->append)
		return bad(a, s->line, "%s: += does not apply to numbers", key);
	if (!(v = string_of(a, s)))
		return -1;
	errno = 0;
	x = strtol(v, &end, 0);
	if (end == v || *end)
		return bad(a, s->line, "%s: '%s' is not a number", key, v);
	if (errno == ERANGE || x < min || x > max) {
		if (min == LONG_MIN)
			return bad(a, s->line, "%s: %s is more than %ld", key, v, max);
		return bad(a, s->line, "%s: %s is out of range %ld..%ld", key, v, min, max);
	}
	*out = x;
	return 0;
}

/* A domain name as the scenario takes them (sim/input/scenario_xml.c). */
static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= sizeof(((struct domain_spec *)0)->name))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_-.", s[i]))
			return false;
	return true;
}

/*
 * One item of an xl cpu list: ['^'] [node: | nodes:] (all | N | N-M).
 * Its form is checked here; the host's size when the run is built.
 */
struct cpu_item {
	bool remove, nodes, all;
};

static bool cpu_item(const char *s, size_t n, struct cpu_item *it)
{
	size_t i = 0;

	memset(it, 0, sizeof(*it));
	if (n && s[0] == '^') {
		it->remove = true;
		i++;
	}
	if (n - i >= 5 && !strncmp(s + i, "node:", 5)) {
		it->nodes = true;
		i += 5;
	} else if (n - i >= 6 && !strncmp(s + i, "nodes:", 6)) {
		it->nodes = true;
		i += 6;
	}
	if (n - i == 3 && !strncmp(s + i, "all", 3)) {
		it->all = true;
		return true;
	}
	unsigned long lo = 0, hi;

	if (i >= n || !isdigit((unsigned char)s[i]))
		return false;
	for (; i < n && isdigit((unsigned char)s[i]); i++)
		if (lo < 100000000)      /* larger ids are refused against the host later */
			lo = lo * 10 + (unsigned long)(s[i] - '0');
	hi = lo;
	if (i < n && s[i] == '-') {
		i++;
		if (i >= n || !isdigit((unsigned char)s[i]))
			return false;
		hi = 0;
		for (; i < n && isdigit((unsigned char)s[i]); i++)
			if (hi < 100000000)
				hi = hi * 10 + (unsigned long)(s[i] - '0');
	}
	return i == n && hi >= lo;     /* xl refuses a range that runs backwards */
}

/*
 * An xl cpu list in the scenario's syntax (sim/engine/topology.h).  They differ
 * in one thing: xl starts from no pCPU, so removals before the first
 * addition remove nothing, where the scenario's syntax starts such a list
 * from all pCPUs; those removals are dropped here.  As in xl, empty items
 * are skipped, "^all" is refused and "nodes:all" is "all".  NULL with a
 * message when the list is malformed or selects nothing.
 */
static char *cpu_list(const struct apply *a, const char *key, const char *s, int line)
{
	size_t cap = strlen(s) + 2, n = 0;
	char *out = xmalloc(cap);
	bool added = false;
	const char *p = s;

	out[0] = '\0';
	for (;;) {
		const char *comma = strchr(p, ','), *q = p, *qe = comma ? comma : p + strlen(p);
		struct cpu_item it;
		size_t len;

		while (q < qe && isspace((unsigned char)*q))
			q++;
		while (qe > q && isspace((unsigned char)qe[-1]))
			qe--;
		len = (size_t)(qe - q);
		if (len && !cpu_item(q, len, &it)) {
			free(out);
			bad(a, line, "%s: malformed cpu list item '%.*s' in \"%s\" (xl's forms: all, "
			    "3, 0-3, nodes:0, ^2)", key, (int)len, q, s);
			return NULL;
		}
		if (len && it.remove && it.all) {
			free(out);
			bad(a, line, "%s: '%.*s': xl cannot combine '^' and 'all'", key, (int)len, q);
			return NULL;
		}
		if (len && (!it.remove || added)) {
			if (it.all)
				n += (size_t)snprintf(out + n, cap - n, "%sall", n ? "," : "");
			else
				n += (size_t)snprintf(out + n, cap - n, "%s%.*s", n ? "," : "",
						      (int)len, q);
			added = true;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	if (!added) {
		free(out);
		bad(a, line, "%s: \"%s\" selects no pCPU (an xl cpu list starts from none: "
		    "\"all\" is every pCPU, a leading '^' removes from nothing)", key, s);
		return NULL;
	}
	return out;
}

/* Sets the override of vCPU id in d (creating it), hard or soft. */
static void set_vcpu(struct domain_spec *d, int id, bool hard, char *list, int line)
{
	struct vcpu_spec *v = NULL;

	for (int i = 0; i < d->nvcpu_over; i++)
		if (d->vcpu_over[i].id == id)
			v = &d->vcpu_over[i];
	if (!v) {
		d->vcpu_over = xreallocarray(d->vcpu_over, (size_t)d->nvcpu_over + 1,
					     sizeof(*d->vcpu_over));
		v = &d->vcpu_over[d->nvcpu_over++];
		memset(v, 0, sizeof(*v));
		v->id = id;
		v->line = line;
	}
	if (hard) {
		free(v->hard);
		v->hard = list;
	} else {
		free(v->soft);
		v->soft = list;
	}
}

/* The domain's affinity comes from this file: its lines are the file's. */
static void affinity_from(const struct apply *a, const struct xlcfg_setting *s,
			  struct domain_spec *d)
{
	if (!d->affinity_source || s->line < d->affinity_line)
		d->affinity_line = s->line;
	if (!d->affinity_source)
		d->affinity_source = xstrdup(a->name);
}

/* cpus= or cpus_soft=: a string for every vCPU, or a list with one per vCPU. */
static int affinity(const struct apply *a, const struct xlcfg *c, const char *key, bool hard,
		    int maxvcpus, struct domain_spec *d)
{
	const struct xlcfg_setting *s = xlcfg_get(c, key);

	if (!s)
		return 0;
	if (s->value.type == XLCFG_STRING) {
		affinity_from(a, s, d);
		char *list = cpu_list(a, key, s->value.s, s->line);

		if (!list)
			return -1;
		if (hard) {
			free(d->hard);
			d->hard = list;
		} else {
			free(d->soft);
			d->soft = list;
		}
		return 0;
	}
	for (int i = 0; i < s->value.n; i++) {
		const struct xlcfg_value *item = &s->value.items[i];
		char *list;

		if (item->type != XLCFG_STRING)
			return bad(a, item->line, "%s: item %d is a list; each item is the cpu list "
				   "of one vCPU (\"2\", \"3-5\")", key, i);
		if (i >= maxvcpus)      /* xl ignores entries for vCPUs that do not exist */
			break;
		if (!(list = cpu_list(a, key, item->s, item->line)))
			return -1;
		if (i >= d->vcpus) {    /* an offline vCPU: not simulated */
			free(list);
			continue;
		}
		affinity_from(a, s, d);
		set_vcpu(d, i, hard, list, item->line);
	}
	return 0;
}

/* type= (or the deprecated builder=): the domain's type; without either, xl's default, pv. */
static int guest_type(const struct apply *a, const struct xlcfg *c, struct domain_spec *d)
{
	static const char *const types[] = { "pv", "pvh", "hvm", NULL };
	const struct xlcfg_setting *t = xlcfg_get(c, "type"), *b = xlcfg_get(c, "builder");
	const char *tv = NULL, *bv = NULL;
	int i;

	if (t) {
		if (!(tv = string_of(a, t)))
			return -1;
		for (i = 0; types[i] && strcmp(tv, types[i]); i++)
			;
		if (!types[i])
			return bad(a, t->line, "type: '%s' is not a domain type (valid: pv, pvh, hvm)", tv);
	}
	if (b) {
		if (!(bv = string_of(a, b)))
			return -1;
		if (strcmp(bv, "generic") && strcmp(bv, "hvm"))
			return bad(a, b->line, "builder: '%s' is not valid (valid: generic, hvm; "
				   "deprecated: write type=)", bv);
		if (tv && strcmp(tv, !strcmp(bv, "hvm") ? "hvm" : "pv"))
			return bad(a, b->line, "builder=\"%s\" contradicts type=\"%s\" (line %d)",
				   bv, tv, t->line);
		if (!tv)
			tv = !strcmp(bv, "hvm") ? "hvm" : "pv";
	}
	if (tv)
		domain_type_parse(tv, &d->type);
	return 0;
}

int xlcfg_domain(const struct xlcfg *c, const char *name, struct domain_spec *d,
		 struct err *e)
{
	struct apply a = { name, e };
	const struct xlcfg_setting *s;
	long v, maxvcpus;
	int rc;

	if ((s = xlcfg_get(c, "name"))) {
		const char *n = string_of(&a, s);

		if (!n)
			return -1;
		if (!valid_name(n))
			return bad(&a, s->line, "name: '%s' is not a name schedsim takes (1 to %zu "
				   "letters, digits, '_', '-', '.')", n, sizeof(d->name) - 1);
		snprintf(d->name, sizeof(d->name), "%s", n);
		d->line = s->line;
	}
	if (guest_type(&a, c, d) < 0)
		return -1;
	if ((s = xlcfg_get(c, "pool"))) {
		const char *p = string_of(&a, s);

		if (!p)
			return -1;
		if (!valid_name(p) || strlen(p) >= sizeof(d->pool))
			return bad(&a, s->line, "pool: '%s' is not a pool name schedsim takes (1 to %zu "
				   "letters, digits, '_', '-', '.')", p, sizeof(d->pool) - 1);
		/* Pool-0 is the default pool, stored as "" (a <pool> names the others) */
		snprintf(d->pool, sizeof(d->pool), "%s", strcmp(p, "Pool-0") ? p : "");
	}
	/* vcpus below 1 is 1, as xl makes it */
	if ((rc = number_of(&a, c, "vcpus", LONG_MIN, SCENARIO_MAX_VCPUS, &v)) < 0)
		return -1;
	if (rc == 0)
		d->vcpus = v < 1 ? 1 : (int)v;
	maxvcpus = d->vcpus;
	if ((rc = number_of(&a, c, "maxvcpus", LONG_MIN, LONG_MAX, &v)) < 0)
		return -1;
	if (rc == 0 && v != 0) {
		if (v < d->vcpus)
			return bad(&a, xlcfg_get(c, "maxvcpus")->line, "maxvcpus=%ld is less than "
				   "vcpus=%d (xl refuses it too)", v, d->vcpus);
		maxvcpus = v;
	}
	if ((rc = number_of(&a, c, "cpu_weight", 1, 65535, &v)) < 0)
		return -1;
	if (rc == 0)
		d->weight = (int)v;
	/* As the scenario's cap: a percentage of one pCPU, 100 per vCPU at most. */
	if ((rc = number_of(&a, c, "cap", 0, 100L * d->vcpus, &v)) < 0)
		return -1;
	if (rc == 0)
		d->cap = (int)v;
	if ((rc = number_of(&a, c, "memory", 1, SCENARIO_MAX_MEMORY_MB, &v)) < 0)
		return -1;
	if (rc == 0)
		d->memory_mb = (int)v;
	/*
	 * RTDS: libxl's sched_params.period in microseconds, extratime a
	 * boolean (libxl_sched.c, sched_rtds_domain_set); xl.cfg has no budget.
	 */
	if ((rc = number_of(&a, c, "period", RTDS_MIN_PERIOD / 1000, RTDS_MAX_PARAM / 1000, &v)) < 0)
		return -1;
	if (rc == 0)
		d->rt.period = USEC(v);
	if ((rc = number_of(&a, c, "extratime", LONG_MIN, LONG_MAX, &v)) < 0)
		return -1;
	if (rc == 0)
		d->rt.extratime = v ? RT_EXTRATIME_ON : RT_EXTRATIME_OFF;
	if (affinity(&a, c, "cpus", true, (int)(maxvcpus < INT_MAX ? maxvcpus : INT_MAX), d) < 0 ||
	    affinity(&a, c, "cpus_soft", false, (int)(maxvcpus < INT_MAX ? maxvcpus : INT_MAX), d) < 0)
		return -1;
	return 0;
}

int xlcfg_load(const char *path, struct domain_spec *d, struct err *e)
{
	struct xlcfg c;
	char *text;
	size_t len;
	int rc;

	if (textfile_read(path, &text, &len, e) < 0)
		return -1;
	rc = xlcfg_parse(text, len, path, &c, e);
	free(text);
	if (rc < 0)
		return -1;
	rc = xlcfg_domain(&c, path, d, e);
	xlcfg_free(&c);
	return rc;
}

int xlcfg_add_domain(struct scenario *sc, const char *path, bool replace_guests,
		     struct err *e)
{
	struct domain_spec d, *other;
	struct xlcfg c = { NULL, 0 };
	char *text;
	size_t len;

	memset(&d, 0, sizeof(d));
	d.vcpus = 1;
	d.weight = 256;
	d.line = 1;
	if (textfile_read(path, &text, &len, e) < 0)
		return -1;
	if (xlcfg_parse(text, len, path, &c, e) < 0) {
		free(text);
		return -1;
	}
	free(text);
	if (xlcfg_domain(&c, path, &d, e) < 0)
		goto fail;
	if (!d.name[0]) {
		err_set(e, "%s:1: no name= (xl requires a domain's name)", path);
		goto fail;
	}
	if (replace_guests) {
		for (int i = 1; i < sc->ndoms; i++)
			scenario_free_domain(&sc->doms[i]);
		if (sc->ndoms > 1)
			sc->ndoms = 1;
	}
	/* As the loader checks a scenario's domains: Xen's putvcpuinfo rules. */
	if (d.rt.period && rtds_check_params(d.rt.period, RTDS_DEFAULT_BUDGET, e) < 0) {
		err_prefix(e, "%s:%d: period (with RTDS's default budget, xl.cfg having no "
			   "budget key)", path, xlcfg_get(&c, "period")->line);
		goto fail;
	}
	if (d.pool[0] && !scenario_pool(sc, d.pool)) {
		err_set(e, "%s:%d: pool: '%s' is not a cpupool of the scenario (a <pool> "
			"element makes one; Pool-0 is the default)", path,
			xlcfg_get(&c, "pool")->line, d.pool);
		goto fail;
	}
	other = scenario_domain(sc, d.name);
	if (other) {
		err_set(e, "%s:%d: a domain named '%s' is already in the scenario", path, d.line,
			d.name);
		goto fail;
	}
	if (sc->ndoms >= SCENARIO_MAX_DOMAINS) {
		err_set(e, "%s: more than %d domains", path, SCENARIO_MAX_DOMAINS);
		goto fail;
	}
	d.source = xstrdup(path);
	*scenario_domain_add(sc) = d;
	xlcfg_free(&c);
	return 0;
fail:
	xlcfg_free(&c);
	scenario_free_domain(&d);
	return -1;
}
