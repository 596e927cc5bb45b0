#include "sim/output/json.h"

#include <math.h>

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->has_items[0] = false;
}

static void put_escaped(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void item(struct json *j, const char *key)
{
	int i;

	if (j->depth > 0) {
		fputs(j->has_items[j->depth] ? ",\n" : "\n", j->f);
		j->has_items[j->depth] = true;
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	if (key) {
		put_escaped(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_(struct json *j, const char *key, char c)
{
	item(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->has_items[j->depth] = false;
}

static void close_(struct json *j, char c)
{
	int i;
	bool had = j->has_items[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had) {
		fputc('\n', j->f);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
}

void json_object_begin(struct json *j, const char *key) { open_(j, key, '{'); }
void json_object_end(struct json *j) { close_(j, '}'); }
void json_array_begin(struct json *j, const char *key) { open_(j, key, '['); }
void json_array_end(struct json *j) { close_(j, ']'); }

void json_string(struct json *j, const char *key, const char *value)
{
	item(j, key);
	put_escaped(j->f, value ? value : "");
}

void json_int(struct json *j, const char *key, long long value)
{
	item(j, key);
	fprintf(j->f, "%lld", value);
}

void json_uint(struct json *j, const char *key, unsigned long long value)
{
	item(j, key);
	fprintf(j->f, "%llu", value);
}

void json_double(struct json *j, const char *key, double value, int digits)
{
	item(j, key);
	if (!isfinite(value))
		fputs("null", j->f);
	else
		fprintf(j->f, "%.*g", digits, value);
}

void json_bool(struct json *j, const char *key, bool value)
{
	item(j, key);
	fputs(value ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	item(j, key);
	fputs("null", j->f);
}

void json_finish(struct json *j)
{
	fputc('\n', j->f);
}
