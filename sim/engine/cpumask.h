/*
 * cpumasks: bitmaps of pCPU ids sized at run time (a host may have
 * thousands of pCPUs).  All masks combined in one operation must have the
 * same size; every mask of a run is allocated with the host's pCPU count.
 *
 * The names follow Xen's cpumask.h so that scheduler code reads alike:
 * cpumask_cycle(n, m) is the next set bit after n, wrapping around.
 */
#ifndef SCHEDSIM_CPUMASK_H
#define SCHEDSIM_CPUMASK_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/err.h"

struct cpumask {
	unsigned nbits;
	unsigned nwords;
	uint64_t w[];
};

struct cpumask *cpumask_alloc(unsigned nbits);   /* all clear */
struct cpumask *cpumask_dup(const struct cpumask *m);
void cpumask_free(struct cpumask *m);

static inline void cpumask_set(struct cpumask *m, unsigned cpu)
{
	m->w[cpu / 64] |= 1ULL << (cpu % 64);
}
static inline void cpumask_clear_cpu(struct cpumask *m, unsigned cpu)
{
	m->w[cpu / 64] &= ~(1ULL << (cpu % 64));
}
static inline bool cpumask_test(const struct cpumask *m, unsigned cpu)
{
	return cpu < m->nbits && (m->w[cpu / 64] >> (cpu % 64)) & 1;
}

void cpumask_zero(struct cpumask *m);
void cpumask_fill(struct cpumask *m);
void cpumask_copy(struct cpumask *dst, const struct cpumask *src);
void cpumask_and(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
void cpumask_or(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
void cpumask_andnot(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
bool cpumask_empty(const struct cpumask *m);
bool cpumask_full(const struct cpumask *m);
bool cpumask_equal(const struct cpumask *a, const struct cpumask *b);
bool cpumask_subset(const struct cpumask *a, const struct cpumask *b);   /* a ⊆ b */
bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b);
unsigned cpumask_weight(const struct cpumask *m);

/*
 * The words [lo, hi) of a mask that hold its set bits (lo = hi: none).  A
 * topology mask (a core's threads, a socket's pCPUs) covers one or two
 * words of a 1024-bit mask: the *_words operations below touch only the
 * words given, and leave the others of dst as they are.
 */
struct cpumask_words {
	unsigned lo, hi;
};

struct cpumask_words cpumask_words_of(const struct cpumask *m);

/*
 * The operations within words w are inline: the schedulers call them on a
 * core's or a runqueue's one word at every switch, where a call cost more
 * than the loop.
 */

/* Whether a and b (and c) share a bit within words w; whether a ⊆ b there. */
static inline bool cpumask_intersects_words(const struct cpumask *a, const struct cpumask *b,
					    struct cpumask_words w)
{
	for (unsigned i = w.lo; i < w.hi; i++)
		if (a->w[i] & b->w[i])
			return true;
	return false;
}

static inline bool cpumask_intersects3_words(const struct cpumask *a, const struct cpumask *b,
					     const struct cpumask *c, struct cpumask_words w)
{
	for (unsigned i = w.lo; i < w.hi; i++)
		if (a->w[i] & b->w[i] & c->w[i])
			return true;
	return false;
}

static inline bool cpumask_subset_words(const struct cpumask *a, const struct cpumask *b,
					struct cpumask_words w)
{
	for (unsigned i = w.lo; i < w.hi; i++)
		if (a->w[i] & ~b->w[i])
			return false;
	return true;
}

/* Bits set in both a and b within words w. */
unsigned cpumask_weight_and_words(const struct cpumask *a, const struct cpumask *b,
				  struct cpumask_words w);

/* Within words w: dst = a & b, dst = a & ~b, dst = a | b, dst = 0, dst = src. */
static inline void cpumask_and_words(struct cpumask *dst, const struct cpumask *a,
				     const struct cpumask *b, struct cpumask_words w)
{
	for (unsigned i = w.lo; i < w.hi; i++)
		dst->w[i] = a->w[i] & b->w[i];
}

static inline void cpumask_andnot_words(struct cpumask *dst, const struct cpumask *a,
					const struct cpumask *b, struct cpumask_words w)
{
	for (unsigned i = w.lo; i < w.hi; i++)
		dst->w[i] = a->w[i] & ~b->w[i];
}

static inline void cpumask_or_words(struct cpumask *dst, const struct cpumask *a,
				    const struct cpumask *b, struct cpumask_words w)
{
	for (unsigned i = w.lo; i < w.hi; i++)
		dst->w[i] = a->w[i] | b->w[i];
}

static inline void cpumask_zero_words(struct cpumask *dst, struct cpumask_words w)
{
	for (unsigned i = w.lo; i < w.hi; i++)
		dst->w[i] = 0;
}

static inline void cpumask_copy_words(struct cpumask *dst, const struct cpumask *src,
				      struct cpumask_words w)
{
	for (unsigned i = w.lo; i < w.hi; i++)
		dst->w[i] = src->w[i];
}

/*
 * cpumask_next and cpumask_cycle within words w: the same answers as on a
 * mask whose other words are clear, whatever those words hold.
 */
unsigned cpumask_next_words(int n, const struct cpumask *m, struct cpumask_words w);
unsigned cpumask_cycle_words(int n, const struct cpumask *m, struct cpumask_words w);

/* First set bit, or nbits when empty. */
unsigned cpumask_first(const struct cpumask *m);
/* First set bit strictly after n (n may be -1), or nbits. */
unsigned cpumask_next(int n, const struct cpumask *m);
/* Next set bit after n, wrapping; n itself only if it is the only one; nbits when empty. */
unsigned cpumask_cycle(int n, const struct cpumask *m);
/* Xen's cpumask_test_or_cycle: n itself when set, else cpumask_cycle(n, m). */
static inline unsigned cpumask_test_or_cycle(int n, const struct cpumask *m)
{
	return cpumask_test(m, (unsigned)n) ? (unsigned)n : cpumask_cycle(n, m);
}
/* The same within words w (n among them). */
static inline unsigned cpumask_test_or_cycle_words(int n, const struct cpumask *m,
						   struct cpumask_words w)
{
	return cpumask_test(m, (unsigned)n) ? (unsigned)n : cpumask_cycle_words(n, m, w);
}
/* The set bit with k set bits before it (k = 0: the first), or nbits when there are fewer. */
unsigned cpumask_nth(const struct cpumask *m, unsigned k);

#define for_each_cpu(cpu, m) \
	for ((cpu) = cpumask_first(m); (cpu) < (m)->nbits; (cpu) = cpumask_next((int)(cpu), m))

/*
 * Formats m in xl's cpu-list syntax ("0-3,8"); returns buf.  An empty mask
 * is "none".
 */
char *cpumask_format(const struct cpumask *m, char *buf, unsigned len);

#endif
