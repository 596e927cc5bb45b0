/*
 * Random scenarios for differential runs (a model against Xen's own code
 * of its era): small hosts where every decision matters, a few domains
 * with weights, caps, hard and soft affinity at domain and vCPU level,
 * always-runnable and run/sleep workloads whose lengths are drawn from
 * distributions, 0.3 to 1.5 s simulated.
 *
 * The generator takes its choices from a source of numbers: a seeded
 * generator (scengen_seeded: scenario i of a run is seed_derive(base, i))
 * or the bytes of a fuzzer's input (fuzz/fuzz_xen_diff.c), so the same
 * code serves the random driver and the fuzzer.  Every draw is made
 * whatever the flags: SCENGEN_NO_CAPS only leaves the caps out of the
 * text, so a scenario with and without caps is otherwise the same (and
 * likewise SCENGEN_NO_SOFT, SCENGEN_NO_HARD for the affinities).
 * SCENGEN_RT adds RTDS parameters (period, budget, extratime on domains
 * and vCPUs), with draws of its own, so scenarios without it are those
 * of before; SCENGEN_NO_EXTRA then writes extratime="off" everywhere
 * (RTDS before 463b958317, Xen 4.10, had none).  SCENGEN_ARINC653 adds
 * an ARINC 653 schedule after the domains (or, one time in five, none:
 * dom0's default schedule), with draws of its own, and implies
 * SCENGEN_NO_HARD (arinc653 keeps vCPUs where they were created).
 * SCENGEN_POOLS splits a host of two or more pCPUs into Pool-0 (pCPU 0
 * up to a drawn boundary) and a cpupool "p1" of the rest, under the
 * scheduler of the run (the pair's side) or, one time in four, under the
 * credit1 model on both sides; half the domains but dom0 go into p1, and
 * each hard affinity then holds a pCPU of its domain's pool (draws of
 * its own too, so scenarios without it are those of before).
 * SCENGEN_UNITS is for pairs at sched-gran=core: no per-vCPU <vcpu>
 * settings (the vCPUs of a unit share them, and the loader refuses
 * otherwise), caps of at most 100 per unit (credit2 refuses more), and
 * with SCENGEN_POOLS p1 starts at a core's first thread.
 *
 * No yields: no workload of workloads/ ever calls the core's yield, so
 * the generator has none to ask for.
 *
 * Its drawing helpers (scengen_pick ... scengen_put_dist) are exported
 * for tests/check_random.c's generator, which draws its own scenarios
 * the same way.
 */
#ifndef SCHEDSIM_SCENGEN_H
#define SCHEDSIM_SCENGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cpumask;
struct rng;

/* Where the generator's choices come from: below(arg, n) in [0, n), n > 0. */
struct scengen_src {
	uint64_t (*below)(void *arg, uint64_t n);
	void *arg;
};

enum {
	SCENGEN_NO_CAPS = 1 << 0,   /* the scheduler of that era has no caps */
	SCENGEN_NO_SOFT = 1 << 1,   /* ... or no soft affinity */
	SCENGEN_NO_HARD = 1 << 2,   /* ... or ignores hard affinity (credit2 of 2015) */
	SCENGEN_SHORT = 1 << 3,     /* 20 to 200 ms instead of 0.3 to 1.5 s (the fuzzer) */
	SCENGEN_RT = 1 << 4,        /* RTDS period/budget/extratime (the rtds pairs) */
	SCENGEN_NO_EXTRA = 1 << 5,  /* with SCENGEN_RT: no extratime (RTDS before 4.10) */
	SCENGEN_ARINC653 = 1 << 6,  /* an <arinc653> schedule, no hard affinity (the arinc653 pairs) */
	SCENGEN_POOLS = 1 << 7,     /* Pool-0 and a cpupool p1 of the other pCPUs (the pools pairs) */
	SCENGEN_UNITS = 1 << 8,     /* for sched-gran=core: no per-vCPU settings, pools of whole cores */
};

/* What a generated scenario contains (to tell divergences apart). */
enum {
	SCENGEN_HAS_CAP = 1 << 0,
	SCENGEN_HAS_HARD = 1 << 1,     /* a hard affinity other than all pCPUs */
	SCENGEN_HAS_SOFT = 1 << 2,
	SCENGEN_HAS_VCPU = 1 << 3,     /* a per-vCPU override */
	SCENGEN_HAS_WEIGHT = 1 << 4,   /* a weight other than 256 */
	SCENGEN_HAS_SMT = 1 << 5,
	SCENGEN_HAS_SOCKETS = 1 << 6,  /* more than one socket */
	SCENGEN_HAS_OVER = 1 << 7,     /* more vCPUs than pCPUs */
	SCENGEN_HAS_EXTRA = 1 << 8,    /* an RTDS vCPU with extratime */
	SCENGEN_HAS_RTVCPU = 1 << 9,   /* RTDS parameters of a vCPU of its own */
	SCENGEN_HAS_POOL = 1 << 10,    /* a domain in cpupool p1 under the run's scheduler */
	SCENGEN_HAS_MODELPOOL = 1 << 11, /* p1 under the credit1 model on both sides */
};
#define SCENGEN_FEATURE_NAMES { "cap", "hard", "soft", "vcpu", "weight", "smt", \
				"sockets", "over", "extra", "rtvcpu", "pool", "modelpool" }
#define SCENGEN_NFEATURES 12

struct scengen {
	char *xml;                 /* NUL-terminated scenario file text */
	size_t len, cap;
	unsigned features;         /* SCENGEN_HAS_* */
	int ncpus, ndoms, nvcpus;
};

/* Generates one scenario into g (which it allocates; free with scengen_free). */
void scengen_generate(struct scengen *g, const struct scengen_src *src, unsigned flags);
/* The same from a seed, through the run's generator (sim/engine/rng.h). */
void scengen_seeded(struct scengen *g, uint64_t seed, unsigned flags);
void scengen_free(struct scengen *g);
/* "cap,soft,vcpu" for a features mask, into buf. */
const char *scengen_features(unsigned features, char *buf, size_t len);

/*
 * The drawing helpers.  Each takes its draws from src, always the same
 * ones in the same order for the same answers, so that a generator built
 * on them gives the same scenario for the same source.
 */
/* A source that draws from the seeded generator r. */
void scengen_src_rng(struct scengen_src *src, struct rng *r);
/* Uniform in [lo, hi], lo <= hi: one draw. */
int scengen_pick(const struct scengen_src *src, int lo, int hi);
/* True percent times in a hundred: one draw. */
bool scengen_chance(const struct scengen_src *src, int percent);
/* A non-empty set of the pCPUs 0..ncpus-1: a range, a few scattered ids, or one pCPU. */
struct cpumask *scengen_random_set(const struct scengen_src *src, int ncpus);
/* A random set with one pCPU of meet (not empty) added, so that the two intersect. */
struct cpumask *scengen_random_meeting(const struct scengen_src *src, int ncpus,
				       const struct cpumask *meet);

/* An empty text in g, for scengen_put (free with scengen_free). */
void scengen_init(struct scengen *g);
/* Appends printf-style text to g->xml, which grows as needed. */
void scengen_put(struct scengen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* ' attr="0-3,8"': the pCPUs of m in xl's cpu-list syntax. */
void scengen_put_mask(struct scengen *g, const char *attr, const struct cpumask *m);
/*
 * The <host> element of that shape, and in it an IPI latency (0 to 20 us)
 * and a context-switch cost (0 to 5 us), each drawn cost_percent times in
 * a hundred.
 */
void scengen_put_host(struct scengen *g, const struct scengen_src *src, int sockets, int cores,
		      int threads, int nodes, int cost_percent);
/*
 * ' attr="..."': a length between lo_us and hi_us microseconds, fixed,
 * exponential, uniform or lognormal ("200us", "exp:1000us",
 * "uniform:50us:2000us", "lognormal:300us:0.5").
 */
void scengen_put_dist(struct scengen *g, const struct scengen_src *src, const char *attr,
		      int lo_us, int hi_us);

#endif
