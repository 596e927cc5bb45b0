/*
 * xen-diff: runs one scenario under two schedulers through the same core
 * and compares their scheduling decisions, for the differential tests of
 * our models against Xen's own code (xen-shim/).
 *
 *   xen-diff [--duration=T] [--interleave=STEP] [--no-dump] SCENARIO SPEC_A SPEC_B
 *
 * A tracer records, per pCPU, every switch-in (the core's runstate-change
 * record with new state running): (time, vCPU).  The first divergence is
 * the earliest time at which the two sequences of some pCPU differ; it is
 * printed with the last common decisions on that pCPU and both
 * schedulers' dump just before that moment.  Per-vCPU run times are
 * compared too.  --interleave runs both at once, in turns of STEP of
 * simulated time, instead of one after the other (a check that instances
 * of the shim do not disturb each other).  --no-dump leaves out the dumps.
 * Exit 0: identical; 1: they diverge; 2: bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedulers/sched.h"
#include "sim/build.h"
#include "sim/params.h"
#include "sim/scenario.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

#define TRC_RUNSTATE_CHANGE 0x00021001u

struct rec {
	stime_t t;
	int dom, vcpu;
};

struct seq {
	struct rec *r;
	size_t n, cap;
};

struct recorder {
	struct tracer t;
	struct seq *cpu;
	int ncpu;
};

static void record(struct tracer *t, int cpu, stime_t now, uint32_t event, int n,
		   const uint32_t *data)
{
	struct recorder *r = (struct recorder *)t;
	struct seq *q;

	/* Only "runstate change to running": the vCPU switched in on cpu. */
	if ((event & ~0xff0u) != TRC_RUNSTATE_CHANGE || ((event >> 4) & 0xf) != RUNSTATE_RUNNING ||
	    n < 1 || cpu < 0 || cpu >= r->ncpu)
		return;
	q = &r->cpu[cpu];
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 1024;
		q->r = xreallocarray(q->r, q->cap, sizeof(*q->r));
	}
	q->r[q->n].t = now;
	q->r[q->n].vcpu = (int)(data[0] & 0xffff);
	q->r[q->n].dom = (int)(data[0] >> 16);
	q->n++;
}

struct run {
	struct sched_spec spec;
	struct sim *s;
	struct recorder rec;
};

static const char *vname(const struct rec *r, char *buf, size_t len)
{
	if (!r)
		snprintf(buf, len, "(nothing more)");
	else if (r->dom == DOMID_IDLE)
		snprintf(buf, len, "idle");
	else
		snprintf(buf, len, "d%dv%d", r->dom, r->vcpu);
	return buf;
}

static int build(struct run *r, const struct scenario *sc, const char *spec, bool tracing)
{
	struct err e = { "" };

	if (sched_spec_parse(spec, &r->spec, &e) < 0 ||
	    !(r->s = sim_build(sc, &r->spec, &e))) {
		fprintf(stderr, "xen-diff: %s\n", e.msg);
		return -1;
	}
	memset(&r->rec, 0, sizeof(r->rec));
	r->rec.t.record = record;
	r->rec.ncpu = r->s->nr_cpus;
	r->rec.cpu = xcalloc((size_t)r->s->nr_cpus, sizeof(*r->rec.cpu));
	if (tracing)
		r->s->tracer = &r->rec.t;
	return 0;
}

static int start(struct run *r, const struct scenario *sc, const char *spec, stime_t until,
		 bool tracing)
{
	if (build(r, sc, spec, tracing) < 0)
		return -1;
	sim_run_until(r->s, until);
	sim_account_all(r->s);
	return 0;
}

/*
 * Both runs advance in turns of 'step': two instances of the shim live in
 * one process and take turns, which must not change what either decides.
 */
static int start_interleaved(struct run *a, struct run *b, const struct scenario *sc,
			     const char *sa, const char *sb, stime_t step)
{
	stime_t t;

	if (build(a, sc, sa, true) < 0 || build(b, sc, sb, true) < 0)
		return -1;
	for (t = step; t < sc->duration + step; t += step) {
		stime_t until = t < sc->duration ? t : sc->duration;

		sim_run_until(a->s, until);
		sim_run_until(b->s, until);
	}
	sim_account_all(a->s);
	sim_account_all(b->s);
	return 0;
}

static void finish(struct run *r)
{
	int c;

	for (c = 0; c < r->rec.ncpu; c++)
		free(r->rec.cpu[c].r);
	free(r->rec.cpu);
	sim_destroy(r->s);
	sched_spec_free(&r->spec);
}

/* First index where the two sequences of one pCPU differ; its time in *t. */
static size_t first_diff(const struct seq *a, const struct seq *b, stime_t *t)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++) {
		if (a->r[i].t != b->r[i].t || a->r[i].dom != b->r[i].dom ||
		    a->r[i].vcpu != b->r[i].vcpu) {
			*t = a->r[i].t < b->r[i].t ? a->r[i].t : b->r[i].t;
			return i;
		}
	}
	if (i < a->n || i < b->n) {
		*t = i < a->n ? a->r[i].t : b->r[i].t;
		return i;
	}
	return (size_t)-1;
}

static void show_state(const struct scenario *sc, const char *spec, stime_t t)
{
	struct run r;

	/* Re-run to just before the divergence and ask the scheduler. */
	if (start(&r, sc, spec, t > 0 ? t - 1 : 0, false) < 0)
		return;
	printf("  --- %s just before (t=%lld ns):\n", spec, (long long)(t > 0 ? t - 1 : 0));
	fflush(stdout);
	if (r.s->sched->ops->dump)
		r.s->sched->ops->dump(r.s->sched, stdout);
	fflush(stdout);
	fflush(stderr);
	finish(&r);
}

static int compare_decisions(const struct scenario *sc, struct run *a, struct run *b,
			     const char *sa, const char *sb, bool dump)
{
	stime_t best_t = STIME_MAX, t;
	int best_cpu = -1, c;
	size_t best_i = 0, i, k;
	char x[64], y[64];

	for (c = 0; c < a->rec.ncpu; c++) {
		i = first_diff(&a->rec.cpu[c], &b->rec.cpu[c], &t);
		if (i != (size_t)-1 && t < best_t) {
			best_t = t;
			best_cpu = c;
			best_i = i;
		}
	}
	if (best_cpu < 0) {
		size_t n = 0;

		for (c = 0; c < a->rec.ncpu; c++)
			n += a->rec.cpu[c].n;
		printf("decisions: identical (%zu switches on %d pCPUs)\n", n, a->rec.ncpu);
		return 0;
	}
	{
		const struct seq *qa = &a->rec.cpu[best_cpu], *qb = &b->rec.cpu[best_cpu];
		const struct rec *ra = best_i < qa->n ? &qa->r[best_i] : NULL;
		const struct rec *rb = best_i < qb->n ? &qb->r[best_i] : NULL;

		printf("decisions: first divergence at t=%lld ns on pCPU %d (switch #%zu there)\n",
		       (long long)best_t, best_cpu, best_i);
		printf("  %-28s switches in %s at t=%lld\n", sa, vname(ra, x, sizeof(x)),
		       ra ? (long long)ra->t : -1LL);
		printf("  %-28s switches in %s at t=%lld\n", sb, vname(rb, y, sizeof(y)),
		       rb ? (long long)rb->t : -1LL);
		printf("  last common switches on pCPU %d:", best_cpu);
		for (k = best_i > 4 ? best_i - 4 : 0; k < best_i; k++)
			printf(" %s@%lld", vname(&qa->r[k], x, sizeof(x)), (long long)qa->r[k].t);
		printf("\n");
	}
	if (dump) {
		show_state(sc, sa, best_t);
		show_state(sc, sb, best_t);
	}
	return 1;
}

static int compare_runtimes(struct run *a, struct run *b)
{
	stime_t worst = 0;
	int d, i, diffs = 0;

	for (d = 0; d < a->s->nr_domains; d++) {
		struct domain *da = a->s->domains[d], *db = b->s->domains[d];

		for (i = 0; i < da->nr_vcpus; i++) {
			stime_t ra = da->vcpus[i]->st.runstate_ns[RUNSTATE_RUNNING];
			stime_t rb = db->vcpus[i]->st.runstate_ns[RUNSTATE_RUNNING];
			stime_t dd = ra > rb ? ra - rb : rb - ra;

			if (dd) {
				if (!diffs)
					printf("run times differ (ns):\n");
				printf("  %s v%d: %lld vs %lld (%+.2f%%)\n", da->name, i,
				       (long long)ra, (long long)rb,
				       ra ? 100.0 * (double)(rb - ra) / (double)ra : 0.0);
				diffs++;
			}
			if (dd > worst)
				worst = dd;
		}
	}
	if (!diffs)
		printf("run times: identical\n");
	else
		printf("run times: %d vCPU(s) differ, at most %lld ns\n", diffs, (long long)worst);
	return diffs ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct scenario sc;
	struct err e = { "" };
	struct run a, b;
	stime_t duration = -1, step = 0;
	bool dump = true;
	int rc, argi = 1;

	for (; argi < argc && argv[argi][0] == '-'; argi++) {
		if (strncmp(argv[argi], "--duration=", 11) == 0) {
			if (parse_duration(argv[argi] + 11, &duration, &e) < 0 || duration <= 0) {
				fprintf(stderr, "xen-diff: --duration: %s\n", e.msg[0] ? e.msg : "must be > 0");
				return 2;
			}
		} else if (strncmp(argv[argi], "--interleave=", 13) == 0) {
			if (parse_duration(argv[argi] + 13, &step, &e) < 0 || step <= 0) {
				fprintf(stderr, "xen-diff: --interleave: %s\n", e.msg[0] ? e.msg : "must be > 0");
				return 2;
			}
		} else if (strcmp(argv[argi], "--no-dump") == 0) {
			dump = false;
		} else {
			fprintf(stderr, "xen-diff: unknown option %s\n", argv[argi]);
			return 2;
		}
	}
	if (argc - argi != 3) {
		fprintf(stderr, "usage: xen-diff [--duration=T] [--interleave=STEP] [--no-dump] SCENARIO SPEC_A SPEC_B\n");
		return 2;
	}
	if (scenario_load_file(argv[argi], &sc, &e) < 0) {
		fprintf(stderr, "xen-diff: %s\n", e.msg);
		return 2;
	}
	if (duration > 0)
		sc.duration = duration;
	if (step > 0) {
		if (start_interleaved(&a, &b, &sc, argv[argi + 1], argv[argi + 2], step) < 0)
			return 2;
	} else if (start(&a, &sc, argv[argi + 1], sc.duration, true) < 0 ||
		   start(&b, &sc, argv[argi + 2], sc.duration, true) < 0) {
		return 2;
	}
	rc = compare_decisions(&sc, &a, &b, argv[argi + 1], argv[argi + 2], dump);
	rc |= compare_runtimes(&a, &b);
	finish(&a);
	finish(&b);
	scenario_free(&sc);
	return rc;
}
