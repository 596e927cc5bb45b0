/*
 * The random scenario generator of the differential runs (scengen.h).
 *
 * Ranges, chosen for decisions that are easy to tell apart and still
 * cover what Xen's code branches on: 1-2 sockets of 1-4 cores of 1-2
 * threads, one node or one per socket (credit2's runqueue=node and the
 * NUMA steps of credit1's stealing); 1-5 domains of 1-8 vCPUs, a quarter
 * of them capped; domain hard and soft affinities, a sixth of the vCPUs
 * with their own; cpu-hog or 1-3 run/sleep phases with fixed,
 * exponential, uniform or lognormal lengths; sometimes other IPI and
 * context-switch costs.  Every scenario is valid input: a soft affinity
 * always meets the hard one it is used with, as the loader demands.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cpumask.h"
#include "sim/rng.h"
#include "sim/xalloc.h"
#include "tests/xen-diff/scengen.h"

#define MAX_DOMAINS 5
#define MAX_VCPUS 8

struct gen {
	struct scengen *out;
	const struct scengen_src *src;
	unsigned flags;
	int ncpus;
};

static void put(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct gen *g, const char *fmt, ...)
{
	struct scengen *o = g->out;
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->xml + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < o->cap - o->len)
			break;
		o->cap *= 2;
		o->xml = xreallocarray(o->xml, o->cap, 1);
	}
	o->len += (size_t)n;
}

static int pick(struct gen *g, int lo, int hi)   /* uniform in [lo, hi] */
{
	return lo + (int)g->src->below(g->src->arg, (uint64_t)(hi - lo + 1));
}

static int chance(struct gen *g, int percent)
{
	return pick(g, 0, 99) < percent;
}

/* A non-empty set of pCPUs: a range, a few scattered ids, or one pCPU. */
static struct cpumask *random_set(struct gen *g)
{
	struct cpumask *m = cpumask_alloc((unsigned)g->ncpus);
	int a, b, i, n;

	switch (pick(g, 0, 2)) {
	case 0:
		a = pick(g, 0, g->ncpus - 1);
		b = pick(g, a, g->ncpus - 1);
		for (i = a; i <= b; i++)
			cpumask_set(m, (unsigned)i);
		break;
	case 1:
		n = pick(g, 1, g->ncpus);
		for (i = 0; i < n; i++)
			cpumask_set(m, (unsigned)pick(g, 0, g->ncpus - 1));
		break;
	default:
		cpumask_set(m, (unsigned)pick(g, 0, g->ncpus - 1));
		break;
	}
	return m;
}

/* A random set with one pCPU of 'meet' added, so that the two intersect. */
static struct cpumask *random_meeting(struct gen *g, const struct cpumask *meet)
{
	struct cpumask *m = random_set(g);
	int k = pick(g, 0, (int)cpumask_weight(meet) - 1);
	unsigned c;

	for_each_cpu(c, meet)
		if (k-- == 0)
			cpumask_set(m, c);
	return m;
}

static void put_mask(struct gen *g, const char *attr, const struct cpumask *m)
{
	char buf[256];

	put(g, " %s=\"%s\"", attr, cpumask_format(m, buf, sizeof(buf)));
}

static void put_dist(struct gen *g, const char *attr, int lo_us, int hi_us)
{
	int a = pick(g, lo_us, hi_us), b = pick(g, a, hi_us);

	put(g, " %s=\"", attr);
	switch (pick(g, 0, 3)) {
	case 0: put(g, "%dus", a); break;
	case 1: put(g, "exp:%dus", a); break;
	case 2: put(g, "uniform:%dus:%dus", a, b); break;
	default: put(g, "lognormal:%dus:0.%d", a, pick(g, 1, 9)); break;
	}
	put(g, "\"");
}

static void gen_host(struct gen *g)
{
	int sockets = pick(g, 1, 2), cores = pick(g, 1, 4), threads = pick(g, 1, 2);
	int nodes = chance(g, 50) ? sockets : 1;

	g->ncpus = sockets * cores * threads;
	g->out->ncpus = g->ncpus;
	if (threads > 1)
		g->out->features |= SCENGEN_HAS_SMT;
	if (sockets > 1)
		g->out->features |= SCENGEN_HAS_SOCKETS;
	put(g, "  <host sockets=\"%d\" cores-per-socket=\"%d\" threads-per-core=\"%d\" nodes=\"%d\"",
	    sockets, cores, threads, nodes);
	if (chance(g, 25))
		put(g, " ipi-latency=\"%dns\"", pick(g, 0, 20000));
	if (chance(g, 25))
		put(g, " context-switch=\"%dns\"", pick(g, 0, 5000));
	put(g, "/>\n");
}

static void gen_workload(struct gen *g, int vcpus)
{
	int i, n;

	if (chance(g, 40)) {
		put(g, "    <workload type=\"cpu-hog\"");
		if (chance(g, 30))
			put(g, " tasks=\"%d\"", pick(g, 1, 2 * vcpus));
		put(g, "/>\n");
		return;
	}
	put(g, "    <workload type=\"phases\"");
	if (chance(g, 30))
		put(g, " tasks=\"%d\"", pick(g, 1, 2 * vcpus));
	put(g, ">");
	n = pick(g, 1, 3);
	for (i = 0; i < n; i++) {
		put(g, "<phase");
		put_dist(g, "run", 10, 8000);
		if (chance(g, 85))
			put_dist(g, "sleep", 10, 20000);
		put(g, "/>");
	}
	put(g, "</workload>\n");
}

static void gen_domain(struct gen *g, int k)
{
	static const int weights[] = { 1, 64, 128, 256, 512, 1024, 4096, 65535 };
	struct cpumask *all = cpumask_alloc((unsigned)g->ncpus), *hard = NULL, *soft = NULL;
	bool soft_ok = !(g->flags & SCENGEN_NO_SOFT), hard_ok = !(g->flags & SCENGEN_NO_HARD);
	int vcpus = pick(g, 1, MAX_VCPUS), weight = 256, cap = 0, i;

	cpumask_fill(all);
	if (chance(g, 60))
		weight = weights[pick(g, 0, 7)];
	if (chance(g, 25))
		cap = pick(g, 1, 100 * vcpus);
	if (g->flags & SCENGEN_NO_CAPS)
		cap = 0;
	g->out->nvcpus += vcpus;
	/* The first domain is sometimes dom0 (domain id 0), else d0 (id 1). */
	if (k == 0 && chance(g, 50))
		put(g, "  <domain name=\"dom0\" vcpus=\"%d\"", vcpus);
	else
		put(g, "  <domain name=\"d%d\" vcpus=\"%d\"", k, vcpus);
	if (weight != 256) {
		put(g, " weight=\"%d\"", weight);
		g->out->features |= SCENGEN_HAS_WEIGHT;
	}
	if (cap) {
		put(g, " cap=\"%d\"", cap);
		g->out->features |= SCENGEN_HAS_CAP;
	}
	put(g, ">\n");
	if (chance(g, 50)) {
		bool want_hard = chance(g, 60), want_soft = chance(g, 60);

		if (want_hard)
			hard = random_set(g);
		if (want_soft)
			soft = random_meeting(g, hard ? hard : all);
		if (!soft_ok && soft) {
			cpumask_free(soft);
			soft = NULL;
		}
		if (!hard_ok && hard) {
			cpumask_free(hard);
			hard = NULL;
		}
		if (hard || soft) {
			put(g, "    <affinity");
			if (hard)
				put_mask(g, "hard", hard);
			if (soft)
				put_mask(g, "soft", soft);
			put(g, "/>\n");
		}
	}
	for (i = 0; i < vcpus; i++) {
		struct cpumask *vh, *vs = NULL;

		if (!chance(g, 15))
			continue;
		vh = random_set(g);
		/* The domain's soft would be inherited: it must meet vh. */
		if (chance(g, 50) || (soft && !cpumask_intersects(soft, vh)))
			vs = random_meeting(g, vh);
		if (!soft_ok && vs) {
			cpumask_free(vs);
			vs = NULL;
		}
		if (hard_ok || vs) {
			put(g, "    <vcpu id=\"%d\"", i);
			if (hard_ok) {
				put_mask(g, "hard", vh);
				if (!cpumask_full(vh))
					g->out->features |= SCENGEN_HAS_HARD;
			}
			if (vs) {
				put_mask(g, "soft", vs);
				g->out->features |= SCENGEN_HAS_SOFT;
			}
			put(g, "/>\n");
			g->out->features |= SCENGEN_HAS_VCPU;
		}
		cpumask_free(vh);
		if (vs)
			cpumask_free(vs);
	}
	if (hard && !cpumask_full(hard))
		g->out->features |= SCENGEN_HAS_HARD;
	if (soft)
		g->out->features |= SCENGEN_HAS_SOFT;
	gen_workload(g, vcpus);
	put(g, "  </domain>\n");
	if (hard)
		cpumask_free(hard);
	if (soft)
		cpumask_free(soft);
	cpumask_free(all);
}

void scengen_generate(struct scengen *o, const struct scengen_src *src, unsigned flags)
{
	struct gen g = { o, src, flags, 0 };
	int k, ms, seed;

	memset(o, 0, sizeof(*o));
	o->cap = 4096;
	o->xml = xmalloc(o->cap);
	o->xml[0] = '\0';
	ms = flags & SCENGEN_SHORT ? pick(&g, 20, 200) : pick(&g, 300, 1500);
	seed = pick(&g, 0, 1000000);
	put(&g, "<scenario duration=\"%dms\" seed=\"%d\">\n", ms, seed);
	gen_host(&g);
	o->ndoms = pick(&g, 1, MAX_DOMAINS);
	for (k = 0; k < o->ndoms; k++)
		gen_domain(&g, k);
	put(&g, "</scenario>\n");
	if (o->nvcpus > o->ncpus)
		o->features |= SCENGEN_HAS_OVER;
}

static uint64_t rng_src(void *arg, uint64_t n)
{
	return rng_below(arg, n);
}

void scengen_seeded(struct scengen *g, uint64_t seed, unsigned flags)
{
	struct rng r;
	struct scengen_src src = { rng_src, &r };

	rng_seed(&r, seed);
	scengen_generate(g, &src, flags);
}

void scengen_free(struct scengen *g)
{
	free(g->xml);
	g->xml = NULL;
}

const char *scengen_features(unsigned features, char *buf, size_t len)
{
	static const char *const names[] = SCENGEN_FEATURE_NAMES;
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < SCENGEN_NFEATURES; i++)
		if (features & (1u << i))
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
					      n ? "," : "", names[i]);
	if (!n)
		snprintf(buf, len, "-");
	return buf;
}
