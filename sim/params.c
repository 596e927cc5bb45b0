/*
 * Named parameters as key=value text: the value parsers (durations,
 * integers, booleans), the table-driven filler of a module's config struct,
 * and the scheduler spec "name[:key=value...]".
 *
 * Parsers are strict on purpose: a typo in a parameter ("10sm", "1,5ms",
 * "ture") must fail with a message that says what is valid rather than
 * silently becoming 0 and skewing a run that takes an afternoon to redo.
 * Messages carry no file:line; callers that read a file add it.
 */
#include "sim/params.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim/xalloc.h"

/* ---- key=value lists ---- */

void kvlist_add(struct kvlist *l, const char *key, const char *value, int line)
{
	l->v = xreallocarray(l->v, (size_t)l->n + 1, sizeof(*l->v));
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].value = xstrdup(value);
	l->v[l->n].line = line;
	l->n++;
}

void kvlist_copy(struct kvlist *dst, const struct kvlist *src)
{
	dst->v = NULL;
	dst->n = 0;
	for (int i = 0; i < src->n; i++)
		kvlist_add(dst, src->v[i].key, src->v[i].value, src->v[i].line);
}

void kvlist_free(struct kvlist *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

const char *kvlist_get(const struct kvlist *l, const char *key)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return l->v[i].value;
	return NULL;
}

void kvlist_set(struct kvlist *l, const char *key, const char *value, int line)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0) {
			free(l->v[i].value);
			l->v[i].value = xstrdup(value);
			l->v[i].line = line;
			return;
		}
	kvlist_add(l, key, value, line);
}

/* ---- value parsers ---- */

static const struct {
	const char *name;
	int64_t ns;
	int digits;             /* decimal places that still give whole ns */
} units[] = {
	{ "ns", 1, 0 },
	{ "us", 1000, 3 },
	{ "ms", 1000000, 6 },
	{ "s", 1000000000, 9 },
};

#define UNITS_VALID "valid units: ns, us, ms, s"

static int all_alpha(const char *s)
{
	for (; *s; s++)
		if (!isalpha((unsigned char)*s))
			return 0;
	return 1;
}

/* The unit after the number: "" means ns. */
static int duration_unit(const char *s, const char *rest, int *u, struct err *e)
{
	if (!*rest) {
		*u = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(rest, units[i].name) == 0) {
			*u = (int)i;
			return 0;
		}
	}
	if (all_alpha(rest))
		return err_set(e, "'%s': unknown unit '%s' (" UNITS_VALID ")", s, rest);
	return err_set(e, "'%s' is not a duration: unexpected '%s' after the number (" UNITS_VALID ")",
		       s, rest);
}

int parse_duration(const char *s, stime_t *out, struct err *e)
{
	const char *p = s, *frac = NULL, *rest;
	uint64_t ip = 0;
	int64_t fns = 0, scale;
	int u = 0, nfrac = 0;

	if (!s || !*s)
		return err_set(e, "empty duration (expected a number and a unit: ns, us, ms or s)");
	if (*p == '-')
		return err_set(e, "'%s': a duration cannot be negative", s);
	if (!isdigit((unsigned char)*p))
		return err_set(e, "'%s' is not a duration (expected a number and a unit, e.g. 1.5ms; " UNITS_VALID ")", s);
	for (; isdigit((unsigned char)*p); p++) {
		if (ip > (uint64_t)INT64_MAX / 10)
			ip = (uint64_t)INT64_MAX + 1;   /* saturate: too large below */
		else
			ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		frac = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		nfrac = (int)(p - frac);
		if (nfrac == 0)
			return err_set(e, "'%s' is not a duration: no digits after the decimal point", s);
	}
	rest = p;
	if (duration_unit(s, rest, &u, e) < 0)
		return -1;
	scale = units[u].ns;
	for (int i = 0; i < nfrac; i++) {
		int d = frac[i] - '0';

		if (i < units[u].digits) {
			int64_t w = 1;

			for (int j = i + 1; j < units[u].digits; j++)
				w *= 10;
			fns += d * w;
		} else if (d != 0) {
			return err_set(e, "'%s' is finer than one nanosecond", s);
		}
	}
	if (ip > (uint64_t)((INT64_MAX - fns) / scale))
		return err_set(e, "'%s' is too large (the limit is %lldns, about 292 years)",
			       s, (long long)INT64_MAX);
	*out = (stime_t)ip * scale + fns;
	return 0;
}

char *format_duration(stime_t t, char *buf, size_t len)
{
	int i;

	if (t == 0) {
		snprintf(buf, len, "0s");
		return buf;
	}
	for (i = (int)(sizeof(units) / sizeof(units[0])) - 1; i > 0; i--)
		if (t % units[i].ns == 0)
			break;
	snprintf(buf, len, "%lld%s", (long long)(t / units[i].ns), units[i].name);
	return buf;
}

int parse_int(const char *s, long long min, long long max, long long *out, struct err *e)
{
	const char *d = s;
	char *end;
	long long v;

	if (!s || !*s)
		return err_set(e, "empty value (expected an integer)");
	if (*d == '-')
		d++;
	if (!isdigit((unsigned char)*d))
		return err_set(e, "'%s' is not an integer", s);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end)
		return err_set(e, "'%s' is not an integer", s);
	if (errno == ERANGE || v < min || v > max)
		return err_set(e, "'%s' is out of range %lld..%lld", s, min, max);
	*out = v;
	return 0;
}

int parse_seed(const char *s, uint64_t *out, struct err *e)
{
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return err_set(e, "empty value (expected an integer)");
	if (*s == '-' && isdigit((unsigned char)s[1]))
		return err_set(e, "'%s' is out of range 0..%" PRIu64, s, UINT64_MAX);
	if (!isdigit((unsigned char)*s))     /* strtoull would take "+1", " 1" and "-1" */
		return err_set(e, "'%s' is not an integer", s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return err_set(e, "'%s' is not an integer", s);
	if (errno == ERANGE)
		return err_set(e, "'%s' is out of range 0..%" PRIu64, s, UINT64_MAX);
	*out = (uint64_t)v;
	return 0;
}

static const struct {
	const char *name;
	int shift;
} size_units[] = {
	{ "B", 0 }, { "K", 10 }, { "KiB", 10 }, { "M", 20 }, { "MiB", 20 },
	{ "G", 30 }, { "GiB", 30 }, { "T", 40 }, { "TiB", 40 },
};

#define SIZE_UNITS_VALID "valid units: B, KiB, MiB, GiB, TiB (or K, M, G, T)"

int parse_size(const char *s, long long *out, struct err *e)
{
	const char *p = s;
	unsigned long long v = 0;

	if (!s || !*s)
		return err_set(e, "empty size (expected a number of bytes, e.g. 8MiB)");
	if (*p == '-')
		return err_set(e, "'%s': a size cannot be negative", s);
	if (!isdigit((unsigned char)*p))
		return err_set(e, "'%s' is not a size (expected a whole number and a unit, e.g. 256KiB; "
			       SIZE_UNITS_VALID ")", s);
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (unsigned long long)LLONG_MAX / 10)
			return err_set(e, "'%s' is too large", s);
		v = v * 10 + (unsigned long long)(*p - '0');
	}
	if (*p) {
		size_t i;

		for (i = 0; i < sizeof(size_units) / sizeof(size_units[0]); i++)
			if (strcmp(p, size_units[i].name) == 0)
				break;
		if (i == sizeof(size_units) / sizeof(size_units[0]))
			return err_set(e, "'%s': unknown unit '%s' (" SIZE_UNITS_VALID ")", s, p);
		if (v > ((unsigned long long)LLONG_MAX >> size_units[i].shift))
			return err_set(e, "'%s' is too large", s);
		v <<= size_units[i].shift;
	}
	if (v > (unsigned long long)LLONG_MAX)
		return err_set(e, "'%s' is too large", s);
	*out = (long long)v;
	return 0;
}

char *format_size(long long bytes, char *buf, size_t len)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;

	while (i < 4 && bytes != 0 && bytes % 1024 == 0) {
		bytes /= 1024;
		i++;
	}
	snprintf(buf, len, "%lld%s", bytes, names[i]);
	return buf;
}

int parse_bool(const char *s, bool *out, struct err *e)
{
	static const char *const yes[] = { "on", "true", "1", "yes" };
	static const char *const no[] = { "off", "false", "0", "no" };

	for (int i = 0; s && i < 4; i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return err_set(e, "'%s' is not a boolean (valid: on|off|true|false|1|0|yes|no)",
		       s ? s : "");
}

/* Index of s in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *s)
{
	size_t n = strlen(s);
	int i = 0;

	for (const char *c = choices; c; i++) {
		const char *bar = strchr(c, '|');
		size_t len = bar ? (size_t)(bar - c) : strlen(c);

		if (len == n && strncmp(c, s, n) == 0)
			return i;
		c = bar ? bar + 1 : NULL;
	}
	return -1;
}

static int parse_double(const char *s, double min, double max, double *out, struct err *e)
{
	char *end;
	double v;

	if (!s || !*s)
		return err_set(e, "empty value (expected a number)");
	if (isspace((unsigned char)*s))
		return err_set(e, "'%s' is not a number", s);
	errno = 0;
	v = strtod(s, &end);
	if (*end || !isfinite(v) || errno == ERANGE)
		return err_set(e, "'%s' is not a number", s);
	if (min != max && (v < min || v > max))
		return err_set(e, "'%s' is out of range %g..%g", s, min, max);
	*out = v;
	return 0;
}

static int parse_duration_range(const struct param_def *d, const char *s, stime_t *out,
				struct err *e)
{
	char a[32], b[32];

	if (parse_duration(s, out, e) < 0)
		return -1;
	if (d->min != d->max && (*out < (stime_t)d->min || *out > (stime_t)d->max))
		return err_set(e, "'%s' is out of range %s..%s", s,
			       format_duration((stime_t)d->min, a, sizeof(a)),
			       format_duration((stime_t)d->max, b, sizeof(b)));
	return 0;
}

static int parse_int_range(const struct param_def *d, const char *s, long long *out,
			   struct err *e)
{
	long long min = LLONG_MIN, max = LLONG_MAX;

	if (d->min != d->max) {
		min = (long long)d->min;
		max = (long long)d->max;
	}
	return parse_int(s, min, max, out, e);
}

static int parse_size_range(const struct param_def *d, const char *s, long long *out,
			    struct err *e)
{
	char a[32], b[32];
	long long v = 0;   /* set by parse_size unless it fails (gcc -flto cannot tell) */

	if (parse_size(s, &v, e) < 0)
		return -1;
	if (d->min != d->max && (v < (long long)d->min || v > (long long)d->max))
		return err_set(e, "'%s' is out of range %s..%s", s,
			       format_size((long long)d->min, a, sizeof(a)),
			       format_size((long long)d->max, b, sizeof(b)));
	*out = v;
	return 0;
}

/* Parses s as d's type and stores it in cfg. */
int param_set(const struct param_def *d, void *cfg, const char *s, struct err *e)
{
	char *field = (char *)cfg + d->offset;
	int idx;

	switch (d->type) {
	case PARAM_INT:
		return parse_int_range(d, s, (long long *)(void *)field, e);
	case PARAM_BOOL:
		return parse_bool(s, (bool *)(void *)field, e);
	case PARAM_ENUM:
		idx = choice_index(d->choices, s);
		if (idx < 0)
			return err_set(e, "'%s' is not one of %s", s, d->choices);
		*(int *)(void *)field = idx;
		return 0;
	case PARAM_DURATION:
		return parse_duration_range(d, s, (stime_t *)(void *)field, e);
	case PARAM_DOUBLE:
		return parse_double(s, d->min, d->max, (double *)(void *)field, e);
	case PARAM_STRING:
		if (strlen(s) >= PARAM_STRING_MAX)
			return err_set(e, "value too long (at most %d characters)",
				       PARAM_STRING_MAX - 1);
		strcpy(field, s);
		return 0;
	case PARAM_SIZE:
		return parse_size_range(d, s, (long long *)(void *)field, e);
	}
	return err_set(e, "parameter of unknown type");
}

const struct param_def *params_find(const struct param_def *defs, const char *key)
{
	for (; defs && defs->name; defs++)
		if (strcmp(defs->name, key) == 0)
			return defs;
	return NULL;
}

/* How many names there are from d to the end of its table, and in more. */
static int names_left(const struct param_def *d, const struct param_def *more)
{
	int n = 0;

	for (; d && d->name; d++)
		n++;
	for (; more && more->name; more++)
		n++;
	return n;
}

void params_names(const struct param_def *defs, const struct param_def *more, char *buf,
		  size_t size)
{
	/* room kept for " ... and 9999 more" */
	const size_t tail = 24;
	size_t len = 0;

	buf[0] = '\0';
	for (int list = 0; list < 2; list++) {
		const struct param_def *d = list ? more : defs;

		for (; d && d->name; d++) {
			size_t need = (len ? 2 : 0) + strlen(d->name);

			if (len + need + tail >= size) {
				int left = names_left(d, list ? NULL : more);

				snprintf(buf + len, size - len, "%s... and %d more", len ? " " : "",
					 left);
				return;
			}
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
						d->name);
		}
	}
}

static int unknown_key(const struct param_def *defs, const char *key, const char *owner,
		       struct err *e)
{
	char valid[800];

	if (!defs || !defs->name)
		return err_set(e, "%s: unknown parameter '%s' (%s takes no parameters)",
			       owner, key, owner);
	params_names(defs, NULL, valid, sizeof(valid));
	return err_set(e, "%s: unknown parameter '%s' (valid: %s)", owner, key, valid);
}

int params_apply_at(const struct param_def *defs, void *cfg, const struct kvlist *kv,
		    const char *owner, int *line, struct err *e)
{
	if (line)
		*line = 0;
	for (const struct param_def *d = defs; d && d->name; d++) {
		if (!d->def)
			continue;
		if (param_set(d, cfg, d->def, e) < 0)
			return err_prefix(e, "%s: bad default for %s", owner, d->name);
	}
	for (int i = 0; kv && i < kv->n; i++) {
		const struct param_def *d = params_find(defs, kv->v[i].key);

		if (line)
			*line = kv->v[i].line;
		if (!d)
			return unknown_key(defs, kv->v[i].key, owner, e);
		if (param_set(d, cfg, kv->v[i].value, e) < 0)
			return err_prefix(e, "%s: %s", owner, d->name);
	}
	if (line)
		*line = 0;
	return 0;
}

int params_apply(const struct param_def *defs, void *cfg, const struct kvlist *kv,
		 const char *owner, struct err *e)
{
	return params_apply_at(defs, cfg, kv, owner, NULL, e);
}

static const char *type_text(const struct param_def *d, char *buf, size_t len)
{
	char a[32], b[32];
	bool bounded = d->min != d->max;

	switch (d->type) {
	case PARAM_INT:
		if (bounded)
			snprintf(buf, len, "integer %lld..%lld", (long long)d->min,
				 (long long)d->max);
		else
			snprintf(buf, len, "integer");
		return buf;
	case PARAM_BOOL:
		return "on|off";
	case PARAM_ENUM:
		return d->choices;
	case PARAM_DURATION:
		if (bounded)
			snprintf(buf, len, "duration %s..%s",
				 format_duration((stime_t)d->min, a, sizeof(a)),
				 format_duration((stime_t)d->max, b, sizeof(b)));
		else
			snprintf(buf, len, "duration");
		return buf;
	case PARAM_DOUBLE:
		if (bounded)
			snprintf(buf, len, "number %g..%g", d->min, d->max);
		else
			snprintf(buf, len, "number");
		return buf;
	case PARAM_STRING:
		return "string";
	case PARAM_SIZE:
		if (bounded)
			snprintf(buf, len, "size %s..%s", format_size((long long)d->min, a, sizeof(a)),
				 format_size((long long)d->max, b, sizeof(b)));
		else
			snprintf(buf, len, "size");
		return buf;
	}
	return "?";
}

void params_describe_one(FILE *f, const struct param_def *d, const char *def,
			 const char *indent)
{
	char buf[96];

	if (!def)
		def = d->def ? d->def : "-";
	fprintf(f, "%s%-18s %-26s default %-8s %s\n", indent ? indent : "", d->name,
		type_text(d, buf, sizeof(buf)), def, d->help ? d->help : "");
}

void params_describe(FILE *f, const struct param_def *defs, const char *indent)
{

	for (; defs && defs->name; defs++)
		params_describe_one(f, defs, NULL, indent);
}

/* ---- scheduler specs ---- */

static bool valid_name(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return false;
	return true;
}

bool sched_name_is_file(const char *s, size_t n)
{
	return memchr(s, '/', n) || (n > 3 && !memcmp(s + n - 3, ".so", 3));
}

/*
 * A scheduler name may also name the Xen tree of a shim module
 * (xen-credit2@4.17.5), or a module's file: any path of printable
 * characters but the spec's own ':', ',', '=', '{' and '}'.
 */
static bool valid_sched_name(const char *s, size_t n)
{
	const char *at = memchr(s, '@', n);

	if (sched_name_is_file(s, n)) {
		for (size_t i = 0; i < n; i++)
			if (!isgraph((unsigned char)s[i]) || strchr(",={}", s[i]))
				return false;
		return true;
	}
	if (!at)
		return valid_name(s, n);
	return at > s && (size_t)(at - s) + 1 < n && valid_name(s, (size_t)(at - s)) &&
	       valid_name(at + 1, n - (size_t)(at - s) - 1);
}

static int spec_param(const char *spec, const char *item, size_t n, struct sched_spec *out,
		      struct err *e)
{
	char key[PARAM_STRING_MAX], value[PARAM_STRING_MAX];
	const char *eq = memchr(item, '=', n);
	size_t klen, vlen;

	if (n == 0)
		return err_set(e, "bad scheduler spec '%s': empty parameter (expected name:key=value:...)",
			       spec);
	if (!eq)
		return err_set(e, "bad scheduler spec '%s': missing '=' in '%.*s' (expected key=value)",
			       spec, (int)n, item);
	klen = (size_t)(eq - item);
	vlen = n - klen - 1;
	if (klen == 0)
		return err_set(e, "bad scheduler spec '%s': empty key in '%.*s'", spec, (int)n, item);
	if (!valid_name(item, klen))
		return err_set(e, "bad scheduler spec '%s': bad key '%.*s' (letters, digits, '_', '-', '.')",
			       spec, (int)klen, item);
	if (vlen == 0)
		return err_set(e, "bad scheduler spec '%s': empty value for '%.*s'", spec,
			       (int)klen, item);
	if (klen >= sizeof(key) || vlen >= sizeof(value))
		return err_set(e, "bad scheduler spec '%s': key or value too long (at most %d characters)",
			       spec, PARAM_STRING_MAX - 1);
	memcpy(key, item, klen);
	key[klen] = '\0';
	memcpy(value, eq + 1, vlen);
	value[vlen] = '\0';
	if (kvlist_get(&out->params, key))
		return err_set(e, "bad scheduler spec '%s': duplicate parameter '%s'", spec, key);
	kvlist_add(&out->params, key, value, 0);
	return 0;
}

bool params_starts_key(const char *s)
{
	if (!islower((unsigned char)*s))
		return false;
	while (islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '-' || *s == '_')
		s++;
	return *s == '=';
}

const char *params_value_end(const char *v)
{
	while (*v && !(*v == ':' && params_starts_key(v + 1)))
		v++;
	return v;
}

const char *params_split_settings(const char *text, struct kvlist *out)
{
	const char *p = text;

	while (*p) {
		const char *eq = strchr(p, '='), *end;
		char *key, *value;

		if (!params_starts_key(p) || !eq)
			return p;
		end = params_value_end(eq + 1);
		key = xmalloc((size_t)(eq - p) + 1);
		memcpy(key, p, (size_t)(eq - p));
		key[eq - p] = '\0';
		value = xmalloc((size_t)(end - eq));
		memcpy(value, eq + 1, (size_t)(end - eq - 1));
		value[end - eq - 1] = '\0';
		kvlist_add(out, key, value, 0);
		free(key);
		free(value);
		p = *end ? end + 1 : end;
	}
	return NULL;
}

int sched_spec_parse(const char *s, struct sched_spec *out, struct err *e)
{
	const char *colon, *p;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!s || !*s)
		return err_set(e, "empty scheduler spec (expected name[:key=value...])");
	if (strlen(s) >= sizeof(out->text))
		return err_set(e, "scheduler spec too long (at most %zu characters)",
			       sizeof(out->text) - 1);
	strcpy(out->text, s);
	colon = strchr(s, ':');
	n = colon ? (size_t)(colon - s) : strlen(s);
	if (n == 0)
		return err_set(e, "bad scheduler spec '%s': empty scheduler name", s);
	/* a scheduler's name fits run_result's; a module's file may be longer */
	if (n >= (sched_name_is_file(s, n) ? sizeof(out->name) : SCHED_NAME_MAX))
		return err_set(e, "bad scheduler spec '%s': scheduler name too long", s);
	if (!valid_sched_name(s, n))
		return err_set(e, "bad scheduler spec '%s': bad scheduler name '%.*s'", s, (int)n, s);
	memcpy(out->name, s, n);
	for (p = colon; p; p = colon) {
		p++;
		colon = strchr(p, ':');
		n = colon ? (size_t)(colon - p) : strlen(p);
		if (spec_param(s, p, n, out, e) < 0) {
			sched_spec_free(out);
			return -1;
		}
	}
	return 0;
}

void sched_spec_free(struct sched_spec *s)
{
	kvlist_free(&s->params);
}
