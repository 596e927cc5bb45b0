/*
 * Random distributions of durations, written as text in scenario files:
 *   "2ms"                   constant
 *   "const:2ms"             constant
 *   "uniform:1ms:5ms"       uniform between the two
 *   "exp:2ms"               exponential with that mean
 *   "lognormal:2ms:0.5"     log-normal with that mean and shape sigma
 * Draws come from the run's seeded generator.
 */
#ifndef SCHEDSIM_DIST_H
#define SCHEDSIM_DIST_H

#include "sim/engine/rng.h"
#include "sim/err.h"
#include "sim/stime.h"

enum dist_kind { DIST_CONST, DIST_UNIFORM, DIST_EXP, DIST_LOGNORMAL };

struct dist {
	enum dist_kind kind;
	stime_t a, b;      /* const: a; uniform: [a, b]; exp: mean a; lognormal: mean a */
	double sigma;      /* lognormal shape */
};

int dist_parse(const char *s, struct dist *d, struct err *e);
stime_t dist_draw(const struct dist *d, struct rng *r);
double dist_mean(const struct dist *d);

#endif
