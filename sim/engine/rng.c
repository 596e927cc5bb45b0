#include "sim/engine/rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	uint64_t x = seed;
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double rng_uniform(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = rng_next(r);
	while (x >= limit);
	return x % n;
}

double rng_exp(struct rng *r, double mean)
{
	return -mean * log1p(-rng_uniform(r));
}

double rng_normal(struct rng *r)
{
	double u1 = rng_uniform(r), u2 = rng_uniform(r);

	return sqrt(-2.0 * log1p(-u1)) * cos(2.0 * M_PI * u2);
}

uint64_t seed_derive(uint64_t parent, uint64_t stream)
{
	uint64_t x = parent ^ (stream * 0xd1342543de82ef95ULL);

	splitmix64(&x);
	return splitmix64(&x);
}
