/*
 * A minimal JSON reader for `schedsim compare`: parses a whole document
 * into a tree of values.  Strict (RFC 8259, no comments, no trailing
 * commas), bounded nesting, and every error names its line, so a
 * truncated or hand-edited result file gets a clear message, not a crash.
 */
#ifndef SCHEDSIM_JSON_READ_H
#define SCHEDSIM_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/err.h"

enum jval_type { JVAL_NULL, JVAL_BOOL, JVAL_NUMBER, JVAL_STRING, JVAL_ARRAY, JVAL_OBJECT };

struct jval {
	enum jval_type type;
	bool b;
	double num;
	char *str;               /* JVAL_STRING, NUL-terminated UTF-8; JVAL_NUMBER: as written */
	struct jval *items;      /* array elements or object member values */
	char **keys;             /* object member names */
	int n;
	int line;
};

#define JVAL_MAX_DEPTH 64

/* Parses text[0..len-1]; on error "name:N: problem" (or "line N: ...") and -1. */
int jval_parse(const char *text, size_t len, const char *name, struct jval *out,
	       struct err *e);
/* Reads and parses a file; errors name it and the line. */
int jval_parse_file(const char *path, struct jval *out, struct err *e);
void jval_free(struct jval *v);
/* The member 'key' of an object, or NULL (also when v is not an object). */
const struct jval *jval_get(const struct jval *v, const char *key);
/* A number written as a non-negative integer, exactly (64 bits); -1 otherwise. */
int jval_uint64(const struct jval *v, uint64_t *out);
/* The string member 'key', or def when missing or not a string. */
const char *jval_get_string(const struct jval *v, const char *key, const char *def);

#endif
