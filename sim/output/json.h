/*
 * A small streaming JSON writer: nested objects and arrays, escaped
 * strings, and numbers printed the same way on every run (so equal results
 * give equal bytes).  Output is indented for people; scripts do not care.
 */
#ifndef SCHEDSIM_JSON_H
#define SCHEDSIM_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	bool has_items[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f);
/* key is NULL inside arrays and at the top level. */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *value);
void json_int(struct json *j, const char *key, long long value);
void json_uint(struct json *j, const char *key, unsigned long long value);
/* Finite doubles with up to 'digits' significant digits; NaN/inf as null. */
void json_double(struct json *j, const char *key, double value, int digits);
void json_bool(struct json *j, const char *key, bool value);
void json_null(struct json *j, const char *key);
/* Ends the document with a newline. */
void json_finish(struct json *j);

#endif
