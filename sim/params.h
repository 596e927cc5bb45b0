/*
 * Named parameters given as key=value text, for schedulers
 * ("credit2:runqueue=core:ratelimit_us=0") and workloads (XML attributes).
 * A module declares a table of struct param_def describing each parameter
 * (type, default, range, help) and where it lives in the module's config
 * struct; params_apply() fills the struct from the defaults and the given
 * values, with one-line errors that list what is valid.  The same table
 * prints the --list-schedulers / --list-workloads documentation.
 */
#ifndef SCHEDSIM_PARAMS_H
#define SCHEDSIM_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/err.h"
#include "sim/stime.h"

enum param_type {
	PARAM_INT,      /* long long, decimal */
	PARAM_BOOL,     /* bool: on|off|true|false|1|0|yes|no */
	PARAM_ENUM,     /* int: index into choices ("cpu|core|socket") */
	PARAM_DURATION, /* stime_t: "10ms", "200us", "1.5s", "100ns" */
	PARAM_DOUBLE,   /* double */
	PARAM_STRING,   /* char[PARAM_STRING_MAX] */
	PARAM_SIZE,     /* long long bytes: "256KiB", "8MiB", "6GiB", "4096" */
};

#define PARAM_STRING_MAX 256

struct param_def {
	const char *name;
	enum param_type type;
	const char *def;      /* default, as text */
	const char *choices;  /* PARAM_ENUM: "a|b|c" */
	double min, max;      /* PARAM_INT/DOUBLE/DURATION (ns) bounds, inclusive; min == max: unbounded */
	const char *help;
	size_t offset;        /* where the value lives in the config struct */
};

struct kv {
	char *key, *value;
	int line;             /* scenario file line, 0 when from the CLI */
};

struct kvlist {
	struct kv *v;
	int n;
};

void kvlist_add(struct kvlist *l, const char *key, const char *value, int line);
void kvlist_copy(struct kvlist *dst, const struct kvlist *src);
void kvlist_free(struct kvlist *l);
const char *kvlist_get(const struct kvlist *l, const char *key);
/* Sets key to value: the existing entry's value, or a new entry. */
void kvlist_set(struct kvlist *l, const char *key, const char *value, int line);

/*
 * Fills cfg with the defaults of defs (a table ended by a {NULL} entry),
 * then with the values in kv.  'owner' names the module in messages
 * ("credit2").  Unknown keys and bad values fail.
 */
int params_apply(const struct param_def *defs, void *cfg, const struct kvlist *kv,
		 const char *owner, struct err *e);
/*
 * The same, and on failure *line is the line of the offending entry (0 when
 * it came from the CLI or the error is not about one entry), so that a caller
 * with a file can prefix "file:line".
 */
int params_apply_at(const struct param_def *defs, void *cfg, const struct kvlist *kv,
		    const char *owner, int *line, struct err *e);
/* Prints one line per parameter: name, type or choices, default, help. */
void params_describe(FILE *f, const struct param_def *defs, const char *indent);
/* The line of one parameter, with its default given as text (NULL: d's own). */
void params_describe_one(FILE *f, const struct param_def *d, const char *def,
			 const char *indent);
/* The entry of defs named key, or NULL. */
const struct param_def *params_find(const struct param_def *defs, const char *key);
/*
 * The names of defs, then of more (either may be NULL), as "a, b, c" in
 * buf, for a message that lists the valid keys.  A list longer than buf
 * ends "... and N more" at a whole name, never at a comma.
 */
void params_names(const struct param_def *defs, const struct param_def *more, char *buf,
		  size_t size);
/* Parses s as d's type and range into cfg; the message names no owner or key. */
int param_set(const struct param_def *d, void *cfg, const char *s, struct err *e);

/* "10s", "200us", "5ms", "1.5ms", "100ns"; a bare number is nanoseconds. */
int parse_duration(const char *s, stime_t *out, struct err *e);
/* A size in bytes, binary units: "4096", "512B", "256KiB", "8MiB", "6GiB" (or K, M, G). */
int parse_size(const char *s, long long *out, struct err *e);
/* Formats a size with the largest exact binary unit ("8MiB", "1536KiB"). */
char *format_size(long long bytes, char *buf, size_t len);
/* A decimal integer in [min, max]. */
int parse_int(const char *s, long long min, long long max, long long *out, struct err *e);
/* A decimal integer in [0, 2^64-1] (a seed): no sign, no blanks, nothing after. */
int parse_seed(const char *s, uint64_t *out, struct err *e);
int parse_bool(const char *s, bool *out, struct err *e);
/* Formats a duration with the largest exact unit ("30ms", "1500us"). */
char *format_duration(stime_t t, char *buf, size_t len);

/*
 * "key=value:key=value..." option text whose values may hold ':' (the
 * --host and --workload settings): true when s starts "key=", key being
 * [a-z0-9_-] with a letter first; and where the value that starts at v
 * ends: at the next ':' that starts another key=, or at the end.
 */
bool params_starts_key(const char *s);
const char *params_value_end(const char *v);
/*
 * Adds the settings of such text to out, in order, at line 0.  Returns
 * NULL, or where the text stops being key=value settings (out then holds
 * those before).
 */
const char *params_split_settings(const char *text, struct kvlist *out);

/*
 * A scheduler spec: "name[:key=value...]".  'text' keeps the spec as
 * written, used as the configuration's label.  The name may be a
 * scheduler module's file (schedulers/loader.h): "./mysched.so:key=value".
 */
#define SCHED_NAME_MAX 64   /* a scheduler's name and its NUL (a module's file: name[]) */

struct sched_spec {
	char name[256];
	char text[512];
	struct kvlist params;
};

int sched_spec_parse(const char *s, struct sched_spec *out, struct err *e);
/*
 * Whether the scheduler name s[0..n-1] names a module's file rather than a
 * scheduler: it holds a '/' or ends in ".so".
 */
bool sched_name_is_file(const char *s, size_t n);
void sched_spec_free(struct sched_spec *s);

#endif
