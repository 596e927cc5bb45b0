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

#include "tests/xen-diff/scengen.h"
#include "sim/engine/cpumask.h"
#include "sim/engine/rng.h"
#include "sim/xalloc.h"

#define MAX_DOMAINS 5
#define MAX_VCPUS 8

struct gen {
	struct scengen *out;
	const struct scengen_src *src;
	unsigned flags;
	int ncpus, threads;
	int dom_vcpus[MAX_DOMAINS];      /* vCPUs of each domain so far */
	bool dom0;                       /* the first domain is dom0 */
	int pool_first;                  /* SCENGEN_POOLS: p1's first pCPU, 0 if none */
	bool model_pool;                 /* p1 runs the credit1 model */
};

/* --- the drawing helpers (scengen.h) --- */

static uint64_t rng_src(void *arg, uint64_t n)
{
	return rng_below(arg, n);
}

void scengen_src_rng(struct scengen_src *src, struct rng *r)
{
	src->below = rng_src;
	src->arg = r;
}

int scengen_pick(const struct scengen_src *src, int lo, int hi)
{
	return lo + (int)src->below(src->arg, (uint64_t)(hi - lo + 1));
}

bool scengen_chance(const struct scengen_src *src, int percent)
{
	return scengen_pick(src, 0, 99) < percent;
}

struct cpumask *scengen_random_set(const struct scengen_src *src, int ncpus)
{
	struct cpumask *m = cpumask_alloc((unsigned)ncpus);
	int a, b, i, n;

	switch (scengen_pick(src, 0, 2)) {
	case 0:
		a = scengen_pick(src, 0, ncpus - 1);
		b = scengen_pick(src, a, ncpus - 1);
		for (i = a; i <= b; i++)
			cpumask_set(m, (unsigned)i);
		break;
	case 1:
		n = scengen_pick(src, 1, ncpus);
		for (i = 0; i < n; i++)
			cpumask_set(m, (unsigned)scengen_pick(src, 0, ncpus - 1));
		break;
	default:
		cpumask_set(m, (unsigned)scengen_pick(src, 0, ncpus - 1));
		break;
	}
	return m;
}

struct cpumask *scengen_random_meeting(const struct scengen_src *src, int ncpus,
				       const struct cpumask *meet)
{
	struct cpumask *m = scengen_random_set(src, ncpus);
	int k = scengen_pick(src, 0, (int)cpumask_weight(meet) - 1);
	unsigned c;

	for_each_cpu(c, meet)
		if (k-- == 0)
			cpumask_set(m, c);
	return m;
}

void scengen_init(struct scengen *g)
{
	memset(g, 0, sizeof(*g));
	g->cap = 4096;
	g->xml = xmalloc(g->cap);
	g->xml[0] = '\0';
}

void scengen_put(struct scengen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(g->xml + g->len, g->cap - g->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < g->cap - g->len)
			break;
		g->cap *= 2;
		g->xml = xreallocarray(g->xml, g->cap, 1);
	}
	g->len += (size_t)n;
}

void scengen_put_mask(struct scengen *g, const char *attr, const struct cpumask *m)
{
	char buf[512];

	scengen_put(g, " %s=\"%s\"", attr, cpumask_format(m, buf, sizeof(buf)));
}

void scengen_put_host(struct scengen *g, const struct scengen_src *src, int sockets, int cores,
		      int threads, int nodes, int cost_percent)
{
	scengen_put(g, "  <host sockets=\"%d\" cores-per-socket=\"%d\" threads-per-core=\"%d\""
		    " nodes=\"%d\"", sockets, cores, threads, nodes);
	if (scengen_chance(src, cost_percent))
		scengen_put(g, " ipi-latency=\"%dns\"", scengen_pick(src, 0, 20000));
	if (scengen_chance(src, cost_percent))
		scengen_put(g, " context-switch=\"%dns\"", scengen_pick(src, 0, 5000));
	scengen_put(g, "/>\n");
}

void scengen_put_dist(struct scengen *g, const struct scengen_src *src, const char *attr,
		      int lo_us, int hi_us)
{
	int a = scengen_pick(src, lo_us, hi_us), b = scengen_pick(src, a, hi_us);

	scengen_put(g, " %s=\"", attr);
	switch (scengen_pick(src, 0, 3)) {
	case 0: scengen_put(g, "%dus", a); break;
	case 1: scengen_put(g, "exp:%dus", a); break;
	case 2: scengen_put(g, "uniform:%dus:%dus", a, b); break;
	default: scengen_put(g, "lognormal:%dus:0.%d", a, scengen_pick(src, 1, 9)); break;
	}
	scengen_put(g, "\"");
}

/* Text into the scenario, and the generator's draws from its source. */
#define put(g, ...) scengen_put((g)->out, __VA_ARGS__)

static int pick(struct gen *g, int lo, int hi)
{
	return scengen_pick(g->src, lo, hi);
}

static bool chance(struct gen *g, int percent)
{
	return scengen_chance(g->src, percent);
}

static void gen_host(struct gen *g)
{
	int sockets = pick(g, 1, 2), cores = pick(g, 1, 4), threads = pick(g, 1, 2);
	int nodes = chance(g, 50) ? sockets : 1;

	g->ncpus = sockets * cores * threads;
	g->threads = threads;
	g->out->ncpus = g->ncpus;
	if (threads > 1)
		g->out->features |= SCENGEN_HAS_SMT;
	if (sockets > 1)
		g->out->features |= SCENGEN_HAS_SOCKETS;
	scengen_put_host(g->out, g->src, sockets, cores, threads, nodes, 25);
}

/*
 * SCENGEN_POOLS: p1 takes the pCPUs from a drawn boundary on (pCPU 0
 * stays in Pool-0, as Xen wants), under the run's scheduler, or one time
 * in four under the credit1 model whatever the run's.
 */
static void gen_pools(struct gen *g)
{
	int units = g->flags & SCENGEN_UNITS ? g->ncpus / g->threads : g->ncpus;

	if (units < 2)
		return;
	g->pool_first = pick(g, 1, units - 1) * (g->ncpus / units);
	g->model_pool = chance(g, 25);
	put(g, "  <pool name=\"p1\" cpus=\"%d-%d\"%s/>\n", g->pool_first, g->ncpus - 1,
	    g->model_pool ? " sched=\"credit1\"" : "");
}

/* The pCPUs of a domain's pool (p1 when in_p1, else Pool-0). */
static struct cpumask *pool_mask(struct gen *g, bool in_p1)
{
	struct cpumask *m = cpumask_alloc((unsigned)g->ncpus);
	int i;

	for (i = 0; i < g->ncpus; i++)
		if (!g->pool_first || (i >= g->pool_first) == in_p1)
			cpumask_set(m, (unsigned)i);
	return m;
}

/*
 * A hard affinity: with pools, it holds a pCPU of the domain's pool; for
 * units, a core's first thread (the pCPU of a resource its scheduler sees).
 */
static struct cpumask *random_hard(struct gen *g, const struct cpumask *pool)
{
	struct cpumask *meet, *m;
	int i;

	if (!(g->flags & SCENGEN_UNITS))
		return g->pool_first ? scengen_random_meeting(g->src, g->ncpus, pool)
				     : scengen_random_set(g->src, g->ncpus);
	meet = cpumask_alloc((unsigned)g->ncpus);
	for (i = 0; i < g->ncpus; i += g->threads)
		if (cpumask_test(pool, (unsigned)i))
			cpumask_set(meet, (unsigned)i);
	m = scengen_random_meeting(g->src, g->ncpus, meet);
	cpumask_free(meet);
	return m;
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
		scengen_put_dist(g->out, g->src, "run", 10, 8000);
		if (chance(g, 85))
			scengen_put_dist(g->out, g->src, "sleep", 10, 20000);
		put(g, "/>");
	}
	put(g, "</workload>\n");
}

/*
 * RTDS parameters (SCENGEN_RT): period 100 us to 50 ms, budget 10 us to
 * the period, both whole us as putvcpuinfo takes them; extratime on, off
 * or not given (RTDS's default, on since 4.10).  Off always with
 * SCENGEN_NO_EXTRA.  The draws come first, whatever is written.
 */
static void put_rt(struct gen *g)
{
	int period = pick(g, 100, 50000), budget = pick(g, 10, period), extra = pick(g, 0, 2);

	if (g->flags & SCENGEN_NO_EXTRA)
		extra = 2;
	put(g, " period=\"%dus\" budget=\"%dus\"", period, budget);
	if (extra == 1)
		put(g, " extratime=\"on\"");
	else if (extra == 2)
		put(g, " extratime=\"off\"");
	/* Not given is on (the model's and Xen's default from 4.10). */
	if (extra != 2)
		g->out->features |= SCENGEN_HAS_EXTRA;
}

static void gen_domain(struct gen *g, int k)
{
	static const int weights[] = { 1, 64, 128, 256, 512, 1024, 4096, 65535 };
	struct cpumask *all = cpumask_alloc((unsigned)g->ncpus), *hard = NULL, *soft = NULL;
	bool soft_ok = !(g->flags & SCENGEN_NO_SOFT), hard_ok = !(g->flags & SCENGEN_NO_HARD);
	int vcpus = pick(g, 1, MAX_VCPUS), weight = 256, cap = 0, i;
	bool in_p1 = false;
	struct cpumask *pool;

	cpumask_fill(all);
	if (chance(g, 60))
		weight = weights[pick(g, 0, 7)];
	if (chance(g, 25))
		cap = pick(g, 1, 100 * vcpus);
	if (g->flags & SCENGEN_NO_CAPS)
		cap = 0;
	/* Units (sched-gran=core): credit2 takes at most 100 per unit. */
	if ((g->flags & SCENGEN_UNITS) && cap > 100 * ((vcpus + g->threads - 1) / g->threads))
		cap = 100 * ((vcpus + g->threads - 1) / g->threads);
	g->out->nvcpus += vcpus;
	/* The first domain is sometimes dom0 (domain id 0), else d0 (id 1). */
	g->dom_vcpus[k] = vcpus;
	if (k == 0 && chance(g, 50)) {
		put(g, "  <domain name=\"dom0\" vcpus=\"%d\"", vcpus);
		g->dom0 = true;
	} else
		put(g, "  <domain name=\"d%d\" vcpus=\"%d\"", k, vcpus);
	/* Pools: dom0 stays in Pool-0, another domain goes into p1 one time in two. */
	if (g->pool_first && !(k == 0 && g->dom0) && chance(g, 50)) {
		in_p1 = true;
		put(g, " pool=\"p1\"");
		g->out->features |= g->model_pool ? SCENGEN_HAS_MODELPOOL : SCENGEN_HAS_POOL;
	}
	pool = pool_mask(g, in_p1);
	if (weight != 256) {
		put(g, " weight=\"%d\"", weight);
		g->out->features |= SCENGEN_HAS_WEIGHT;
	}
	if (cap) {
		put(g, " cap=\"%d\"", cap);
		g->out->features |= SCENGEN_HAS_CAP;
	}
	/* RTDS: the domain's parameters (or the defaults: extratime on). */
	if (g->flags & SCENGEN_RT) {
		if (chance(g, 80))
			put_rt(g);
		else if (g->flags & SCENGEN_NO_EXTRA)
			put(g, " extratime=\"off\"");
		else
			g->out->features |= SCENGEN_HAS_EXTRA;
	}
	put(g, ">\n");
	if (chance(g, 50)) {
		bool want_hard = chance(g, 60), want_soft = chance(g, 60);

		if (want_hard)
			hard = random_hard(g, pool);
		if (want_soft)
			soft = scengen_random_meeting(g->src, g->ncpus, hard ? hard : all);
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
				scengen_put_mask(g->out, "hard", hard);
			if (soft)
				scengen_put_mask(g->out, "soft", soft);
			put(g, "/>\n");
		}
	}
	for (i = 0; i < vcpus && !(g->flags & SCENGEN_UNITS); i++) {
		struct cpumask *vh, *vs = NULL;

		/* RTDS: some vCPUs get parameters of their own, in an element of their own. */
		if ((g->flags & SCENGEN_RT) && chance(g, 25)) {
			put(g, "    <vcpu id=\"%d\"", i);
			put_rt(g);
			put(g, "/>\n");
			g->out->features |= SCENGEN_HAS_RTVCPU;
			continue;
		}
		if (!chance(g, 15))
			continue;
		vh = random_hard(g, pool);
		/* The domain's soft would be inherited: it must meet vh. */
		if (chance(g, 50) || (soft && !cpumask_intersects(soft, vh)))
			vs = scengen_random_meeting(g->src, g->ncpus, vh);
		if (!soft_ok && vs) {
			cpumask_free(vs);
			vs = NULL;
		}
		if (hard_ok || vs) {
			put(g, "    <vcpu id=\"%d\"", i);
			if (hard_ok) {
				scengen_put_mask(g->out, "hard", vh);
				if (!cpumask_full(vh))
					g->out->features |= SCENGEN_HAS_HARD;
			}
			if (vs) {
				scengen_put_mask(g->out, "soft", vs);
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
	cpumask_free(pool);
}

/*
 * An ARINC 653 schedule (SCENGEN_ARINC653): 1 to 8 minor frames of 100 us
 * to 10 ms, each naming a vCPU of a domain of the scenario, and a major
 * frame that is their sum (not given), or that plus idle time.
 */
static void gen_arinc653(struct gen *g)
{
	int dom[8], vcpu[8], runtime[8], n, i, total = 0, idle;

	if (chance(g, 20))     /* none: the default schedule, dom0's vCPUs */
		return;
	n = pick(g, 1, 8);
	for (i = 0; i < n; i++) {
		dom[i] = pick(g, 0, g->out->ndoms - 1);
		vcpu[i] = pick(g, 0, g->dom_vcpus[dom[i]] - 1);
		runtime[i] = pick(g, 100, 10000);
		total += runtime[i];
	}
	idle = chance(g, 50) ? pick(g, 0, 10000) : -1;
	put(g, "  <arinc653");
	if (idle >= 0)
		put(g, " major-frame=\"%dus\"", total + idle);
	put(g, ">\n");
	for (i = 0; i < n; i++) {
		if (dom[i] == 0 && g->dom0)
			put(g, "    <minor-frame domain=\"dom0\"");
		else
			put(g, "    <minor-frame domain=\"d%d\"", dom[i]);
		put(g, " vcpu=\"%d\" runtime=\"%dus\"/>\n", vcpu[i], runtime[i]);
	}
	put(g, "  </arinc653>\n");
}

void scengen_generate(struct scengen *o, const struct scengen_src *src, unsigned flags)
{
	/* arinc653 keeps vCPUs where they were created: no hard affinity. */
	struct gen g = { .out = o, .src = src,
			 .flags = flags & SCENGEN_ARINC653 ? flags | SCENGEN_NO_HARD : flags };
	int k, ms, seed;

	scengen_init(o);
	ms = flags & SCENGEN_SHORT ? pick(&g, 20, 200) : pick(&g, 300, 1500);
	seed = pick(&g, 0, 1000000);
	scengen_put(o, "<scenario duration=\"%dms\" seed=\"%d\">\n", ms, seed);
	gen_host(&g);
	if (flags & SCENGEN_POOLS)
		gen_pools(&g);
	o->ndoms = pick(&g, 1, MAX_DOMAINS);
	for (k = 0; k < o->ndoms; k++)
		gen_domain(&g, k);
	if (flags & SCENGEN_ARINC653)
		gen_arinc653(&g);
	scengen_put(o, "</scenario>\n");
	if (o->nvcpus > o->ncpus)
		o->features |= SCENGEN_HAS_OVER;
}

void scengen_seeded(struct scengen *g, uint64_t seed, unsigned flags)
{
	struct rng r;
	struct scengen_src src;

	rng_seed(&r, seed);
	scengen_src_rng(&src, &r);
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
