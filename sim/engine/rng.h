/*
 * Pseudo-random numbers: xoshiro256** seeded through splitmix64.  Every
 * run owns its generators; nothing random happens outside them, so the same
 * seed gives the same run.  rng_derive() makes an independent stream for a
 * sub-component (a workload, an iteration) from a parent seed and a label,
 * so adding randomness in one place does not shift another's draws.
 */
#ifndef SCHEDSIM_RNG_H
#define SCHEDSIM_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, 1). */
double rng_uniform(struct rng *r);
/* Uniform integer in [0, n), n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Exponential with the given mean. */
double rng_exp(struct rng *r, double mean);
/* Standard normal (Box-Muller, one value per call). */
double rng_normal(struct rng *r);
/* A seed derived from a parent seed and a stream number (splitmix64 mixing). */
uint64_t seed_derive(uint64_t parent, uint64_t stream);

#endif
