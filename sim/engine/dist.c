/*
 * Random durations for workload phases ("exp:2ms", "uniform:1ms:5ms"...).
 * A log-normal is given by its mean rather than by mu, because the mean is
 * what a user measures on a real host and wants the model to reproduce;
 * mu follows as ln(mean) - sigma^2 / 2.  Draws are clamped to a day so that
 * a wild tail can never overflow the simulated clock.
 */
#include "sim/engine/dist.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/params.h"

#define DIST_SYNTAX "const:T, uniform:T:T, exp:T, lognormal:T:SIGMA or T"
#define DIST_MAX_DRAW SEC(86400)
#define SIGMA_MAX 10.0

/* Splits s at ':' into at most 'max' fields of up to 63 characters. */
static int split(const char *s, char f[][64], int max)
{
	int n = 0;

	for (const char *p = s;; n++) {
		const char *c = strchr(p, ':');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (n == max || len >= 64)
			return -1;
		memcpy(f[n], p, len);
		f[n][len] = '\0';
		if (!c)
			return n + 1;
		p = c + 1;
	}
}

static int parse_sigma(const char *s, const char *all, double *out, struct err *e)
{
	char *end;
	double v;

	const char *p = s;

	if (!*s)
		return err_set(e, "'%s': missing sigma (%s)", all, DIST_SYNTAX);
	/* Digits with an optional fraction, as the schema says; no strtod extras. */
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.' && p > s)
		for (p++; isdigit((unsigned char)*p); p++)
			;
	v = strtod(s, &end);
	if (p == s || *p || p[-1] == '.' || end != p || !isfinite(v) || v > SIGMA_MAX)
		return err_set(e, "'%s': sigma '%s' is not a number in 0..%g", all, s, SIGMA_MAX);
	*out = v;
	return 0;
}

static int want(int n, int expect, const char *s, struct err *e)
{
	if (n != expect)
		return err_set(e, "'%s' is not a distribution (%s)", s, DIST_SYNTAX);
	return 0;
}

static int dur(const char *f, const char *s, stime_t *out, struct err *e)
{
	if (parse_duration(f, out, e) < 0)
		return strcmp(f, s) == 0 ? -1 : err_prefix(e, "'%s'", s);
	if (*out > DIST_MAX_DRAW && strcmp(f, s) == 0)
		return err_set(e, "'%s' is longer than a day", s);
	if (*out > DIST_MAX_DRAW)
		return err_set(e, "'%s': '%s' is longer than a day", s, f);
	return 0;
}

int dist_parse(const char *s, struct dist *d, struct err *e)
{
	char f[3][64];
	int n;

	memset(d, 0, sizeof(*d));
	if (!s || !*s)
		return err_set(e, "empty distribution (%s)", DIST_SYNTAX);
	n = split(s, f, 3);
	if (n < 0)
		return err_set(e, "'%s' is not a distribution (%s)", s, DIST_SYNTAX);
	if (n == 1) {
		d->kind = DIST_CONST;
		return dur(f[0], s, &d->a, e);
	}
	if (strcmp(f[0], "const") == 0) {
		d->kind = DIST_CONST;
		return want(n, 2, s, e) < 0 ? -1 : dur(f[1], s, &d->a, e);
	}
	if (strcmp(f[0], "exp") == 0) {
		d->kind = DIST_EXP;
		if (want(n, 2, s, e) < 0 || dur(f[1], s, &d->a, e) < 0)
			return -1;
		if (d->a == 0)
			return err_set(e, "'%s': the mean must be above 0", s);
		return 0;
	}
	if (strcmp(f[0], "uniform") == 0) {
		d->kind = DIST_UNIFORM;
		if (want(n, 3, s, e) < 0 || dur(f[1], s, &d->a, e) < 0 ||
		    dur(f[2], s, &d->b, e) < 0)
			return -1;
		if (d->a > d->b)
			return err_set(e, "'%s': the lower bound is above the upper bound", s);
		return 0;
	}
	if (strcmp(f[0], "lognormal") == 0) {
		d->kind = DIST_LOGNORMAL;
		if (want(n, 3, s, e) < 0 || dur(f[1], s, &d->a, e) < 0 ||
		    parse_sigma(f[2], s, &d->sigma, e) < 0)
			return -1;
		if (d->a == 0)
			return err_set(e, "'%s': the mean must be above 0", s);
		return 0;
	}
	return err_set(e, "'%s': unknown distribution '%s' (%s)", s, f[0], DIST_SYNTAX);
}

static stime_t clamp(double v)
{
	if (!(v > 0))
		return 0;
	if (v >= (double)DIST_MAX_DRAW)
		return DIST_MAX_DRAW;
	return (stime_t)llround(v);
}

stime_t dist_draw(const struct dist *d, struct rng *r)
{
	double mu;

	switch (d->kind) {
	case DIST_CONST:
		return d->a;
	case DIST_UNIFORM:
		return d->a + (stime_t)rng_below(r, (uint64_t)(d->b - d->a) + 1);
	case DIST_EXP:
		return clamp(rng_exp(r, (double)d->a));
	case DIST_LOGNORMAL:
		mu = log((double)d->a) - d->sigma * d->sigma / 2;
		return clamp(exp(mu + d->sigma * rng_normal(r)));
	}
	return d->a;
}

double dist_mean(const struct dist *d)
{
	if (d->kind == DIST_UNIFORM)
		return ((double)d->a + (double)d->b) / 2;
	return (double)d->a;
}
