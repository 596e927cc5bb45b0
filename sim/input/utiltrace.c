/*
 * Reading utilisation traces (utiltrace.h): the PlanetLab/CoMon layout of
 * one value per line (CloudSim's workload/planetlab files, the layout
 * Beloglazov and Buyya's consolidation study replays) and the common
 * vm,timestamp,value CSV.  Values are per cent of one CPU over an
 * interval; the interval's length is the workload's (interval=), the CSV's
 * timestamps only order the values and must be evenly spaced, since a gap
 * would otherwise silently shift every later interval.
 */
#include "sim/input/utiltrace.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/input/textfile.h"
#include "sim/xalloc.h"

int utiltrace_format_parse(const char *s)
{
	static const char *const names[] = { "auto", "series", "csv" };

	for (int i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

/* One line without its end and surrounding blanks, in a scratch copy. */
struct line {
	char buf[512];
	int no;
	bool too_long;
};

static const char *next_line(const char *p, const char *end, struct line *ln)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *stop = nl ? nl : end;
	size_t n;

	while (p < stop && isspace((unsigned char)*p))
		p++;
	n = (size_t)(stop - p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	ln->too_long = n >= sizeof(ln->buf);
	if (ln->too_long)
		n = sizeof(ln->buf) - 1;
	memcpy(ln->buf, p, n);
	ln->buf[n] = '\0';
	ln->no++;
	return nl ? nl + 1 : end;
}

/* A whole field as a finite number; false when it is not one. */
static bool number(const char *s, double *out)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || !(isdigit((unsigned char)*s) || *s == '.' || *s == '-' || *s == '+'))
		return false;
	*out = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	return *end == '\0' && isfinite(*out);
}

static void push(struct util_series *out, int *cap, double v)
{
	if (out->n == *cap) {
		*cap = *cap ? 2 * *cap : 512;
		out->pct = xreallocarray(out->pct, (size_t)*cap, sizeof(*out->pct));
	}
	out->pct[out->n++] = v;
}

static int check_value(const char *name, const struct line *ln, const char *field, double v,
		       struct err *e)
{
	if (v < 0 || v > UTILTRACE_MAX_PCT)
		return err_set(e, "%s:%d: utilisation '%s' is out of range 0..%g (per cent of one CPU)",
			       name, ln->no, field, UTILTRACE_MAX_PCT);
	return 0;
}

/* Splits a CSV line into exactly three fields (in place); false otherwise. */
static bool split3(char *s, char *f[3])
{
	char *c1 = strchr(s, ','), *c2;

	if (!c1 || !(c2 = strchr(c1 + 1, ',')) || strchr(c2 + 1, ','))
		return false;
	*c1 = *c2 = '\0';
	f[0] = s;
	f[1] = c1 + 1;
	f[2] = c2 + 1;
	for (int i = 0; i < 3; i++) {
		size_t n;

		while (isspace((unsigned char)*f[i]))
			f[i]++;
		n = strlen(f[i]);
		while (n && isspace((unsigned char)f[i][n - 1]))
			f[i][--n] = '\0';
	}
	return true;
}

static int parse_series(const char *p, const char *end, const char *name,
			struct util_series *out, struct err *e)
{
	struct line ln = { .no = 0 };
	int cap = 0;

	while (p < end) {
		double v;

		p = next_line(p, end, &ln);
		if (!ln.buf[0] || ln.buf[0] == '#')
			continue;
		if (ln.too_long || !number(ln.buf, &v))
			return err_set(e, "%s:%d: expected one utilisation value (per cent of one CPU) a line, got '%.40s'",
				       name, ln.no, ln.buf);
		if (check_value(name, &ln, ln.buf, v, e) < 0)
			return -1;
		push(out, &cap, v);
	}
	return 0;
}

static int parse_csv(const char *p, const char *end, const char *name, const char *vm,
		     struct util_series *out, struct err *e)
{
	struct line ln = { .no = 0 };
	char first_vm[sizeof(ln.buf)] = "";
	double last_ts = 0, step = 0;
	bool data_seen = false;
	int cap = 0, other_vms = 0;

	while (p < end) {
		char *f[3];
		double ts, v;

		p = next_line(p, end, &ln);
		if (!ln.buf[0] || ln.buf[0] == '#')
			continue;
		if (ln.too_long || !split3(ln.buf, f))
			return err_set(e, "%s:%d: expected three comma-separated fields vm,timestamp,value",
				       name, ln.no);
		if (!data_seen && !number(f[2], &v) && !number(f[1], &ts)) {
			data_seen = true;   /* a header line */
			continue;
		}
		data_seen = true;
		if (!f[0][0])
			return err_set(e, "%s:%d: empty vm field", name, ln.no);
		if (!first_vm[0] && !(vm && vm[0]))
			snprintf(first_vm, sizeof(first_vm), "%s", f[0]);
		if (strcmp(f[0], vm && vm[0] ? vm : first_vm) != 0) {
			other_vms++;
			continue;
		}
		if (!number(f[1], &ts))
			return err_set(e, "%s:%d: timestamp '%.40s' is not a number of seconds", name,
				       ln.no, f[1]);
		if (!number(f[2], &v))
			return err_set(e, "%s:%d: utilisation '%.40s' is not a number", name, ln.no,
				       f[2]);
		if (check_value(name, &ln, f[2], v, e) < 0)
			return -1;
		if (out->n >= 1 && ts <= last_ts)
			return err_set(e, "%s:%d: timestamp %.17g of vm '%s' is not after the previous one (%.17g)",
				       name, ln.no, ts, f[0], last_ts);
		if (out->n == 1)
			step = ts - last_ts;
		else if (out->n > 1 && fabs(ts - last_ts - step) > 1e-6 * step)
			return err_set(e, "%s:%d: timestamp %.17g of vm '%s' is %.17g s after the previous one, not %.17g s as before (the values must be evenly spaced)",
				       name, ln.no, ts, f[0], ts - last_ts, step);
		last_ts = ts;
		push(out, &cap, v);
	}
	if (vm && vm[0] && !out->n)
		return err_set(e, "%s: no line of vm '%s'", name, vm);
	if (!(vm && vm[0]) && other_vms)
		return err_set(e, "%s: holds more than one vm (the first is '%s'); choose one with vm=",
			       name, first_vm);
	return 0;
}

int utiltrace_parse(const char *text, size_t len, const char *name,
		    enum utiltrace_format fmt, const char *vm, struct util_series *out,
		    struct err *e)
{
	const char *end = text + len;
	int rc;

	memset(out, 0, sizeof(*out));
	if (fmt == UTILTRACE_AUTO) {
		const char *q = text, *nl;

		/* The first line that is not blank or a comment decides. */
		while (q < end && (*q == '#' || isspace((unsigned char)*q))) {
			nl = *q == '#' ? memchr(q, '\n', (size_t)(end - q)) : q;
			q = nl ? nl + 1 : end;
		}
		nl = memchr(q, '\n', (size_t)(end - q));
		fmt = memchr(q, ',', (size_t)((nl ? nl : end) - q)) ? UTILTRACE_CSV
								     : UTILTRACE_SERIES;
	}
	if (vm && vm[0] && fmt == UTILTRACE_SERIES)
		return err_set(e, "%s: vm= selects a vm of a CSV file; this is a file of one vm's values",
			       name);
	rc = fmt == UTILTRACE_CSV ? parse_csv(text, end, name, vm, out, e)
				  : parse_series(text, end, name, out, e);
	if (rc == 0 && !out->n)
		rc = err_set(e, "%s: no utilisation values", name);
	if (rc < 0) {
		free(out->pct);
		memset(out, 0, sizeof(*out));
	}
	return rc;
}

int utiltrace_load(const char *path, enum utiltrace_format fmt, const char *vm,
		   struct util_series *out, struct err *e)
{
	char *text;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	if (textfile_read_max(path, UTILTRACE_MAX_FILE, &text, &len, e) < 0)
		return -1;
	rc = utiltrace_parse(text, len, path, fmt, vm, out, e);
	free(text);
	return rc;
}
