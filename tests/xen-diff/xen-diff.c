/*
 * xen-diff: runs one scenario under two schedulers through the same core
 * and compares their scheduling decisions, for the differential tests of
 * our models against Xen's own code (xen-shim/).
 *
 *   xen-diff [--duration=T] [--interleave=STEP] [--no-dump] [--check] SCENARIO SPEC_A SPEC_B
 *
 * A tracer records, per pCPU, every switch-in (the core's runstate-change
 * record with new state running): (time, vCPU).  The first divergence is
 * the earliest time at which the two sequences of some pCPU differ; it is
 * printed with the last common decisions on that pCPU and both
 * schedulers' dump just before that moment.  Per-vCPU run times are
 * compared too.  --interleave runs both at once, in turns of STEP of
 * simulated time, instead of one after the other (a check that instances
 * of the shim do not disturb each other).  --no-dump leaves out the dumps;
 * --check runs both under the invariant checker (a violation: exit 2).
 * A spec may name a scheduler module's file (./credit2-mine.so, from
 * schedsim-xen-module; doc/modules.md), loaded as schedsim loads it.
 * Exit 0: identical; 1: they diverge; 2: bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedulers/loader.h"
#include "schedulers/sched.h"
#include "sim/engine/sim.h"
#include "sim/input/scenario_load.h"
#include "sim/params.h"
#include "tests/xen-diff/diff.h"

/*
 * Both runs advance in turns of 'step': two instances of the shim live in
 * one process and take turns, which must not change what either decides.
 */
static int start_interleaved(struct diff_run *a, struct diff_run *b, const struct scenario *sc,
			     const char *sa, const char *sb, const struct sched_modules *mods,
			     stime_t step, struct err *e)
{
	stime_t t;

	if (diff_run_build(a, sc, sa, mods, true, false, e) < 0)
		return -1;
	if (diff_run_build(b, sc, sb, mods, true, false, e) < 0) {
		diff_run_free(a);
		return -1;
	}
	for (t = step; t < sc->duration + step; t += step) {
		stime_t until = t < sc->duration ? t : sc->duration;

		sim_run_until(a->s, until);
		sim_run_until(b->s, until);
	}
	sim_account_all(a->s);
	sim_account_all(b->s);
	return 0;
}

static void show_state(const struct scenario *sc, const char *spec,
		       const struct sched_modules *mods, stime_t t)
{
	struct diff_run r;
	struct err e = { "" };
	stime_t until = t > 0 ? t - 1 : 0;

	/* Re-run to just before the divergence and ask the scheduler. */
	if (diff_run_build(&r, sc, spec, mods, false, false, &e) < 0)
		return;
	sim_run_until(r.s, until);
	sim_account_all(r.s);
	printf("  --- %s just before (t=%lld ns):\n", spec, (long long)until);
	fflush(stdout);
	if (r.s->sched->ops->dump)
		r.s->sched->ops->dump(r.s->sched, stdout);
	fflush(stdout);
	fflush(stderr);
	diff_run_free(&r);
}

static int compare_decisions(const struct scenario *sc, struct diff_run *a, struct diff_run *b,
			     const char *sa, const char *sb, const struct sched_modules *mods,
			     bool dump)
{
	struct diff_point p;
	char x[64], y[64];
	size_t k;

	if (!diff_first(a, b, &p)) {
		printf("decisions: identical (%zu switches on %d pCPUs)\n", diff_switches(a),
		       a->rec.ncpu);
		return 0;
	}
	printf("decisions: first divergence at t=%lld ns on pCPU %d (switch #%zu there)\n",
	       (long long)p.t, p.cpu, p.index);
	printf("  %-28s switches in %s at t=%lld\n", sa, diff_name(p.a, x, sizeof(x)),
	       p.a ? (long long)p.a->t : -1LL);
	printf("  %-28s switches in %s at t=%lld\n", sb, diff_name(p.b, y, sizeof(y)),
	       p.b ? (long long)p.b->t : -1LL);
	printf("  last common switches on pCPU %d:", p.cpu);
	for (k = p.index > 4 ? p.index - 4 : 0; k < p.index; k++) {
		const struct diff_switch *r = &a->rec.cpu[p.cpu].r[k];

		printf(" %s@%lld", diff_name(r, x, sizeof(x)), (long long)r->t);
	}
	printf("\n");
	if (dump) {
		show_state(sc, sa, mods, p.t);
		show_state(sc, sb, mods, p.t);
	}
	return 1;
}

static int compare_runtimes(const struct diff_run *a, const struct diff_run *b)
{
	stime_t worst;
	int diffs = diff_runtimes(a, b, &worst, stdout);

	if (!diffs)
		printf("run times: identical\n");
	else
		printf("run times: %d vCPU(s) differ, at most %lld ns\n", diffs, (long long)worst);
	return diffs ? 1 : 0;
}

/* Loads the module spec names, if it names a module's file; -1 with the loader's line. */
static int load_module(struct sched_modules *mods, const char *spec, struct err *e)
{
	struct sched_spec s;
	int rc = 0;

	if (sched_spec_parse(spec, &s, e) < 0)
		return -1;
	if (sched_name_is_file(s.name, strlen(s.name)) && !sched_modules_load(mods, s.name, e))
		rc = -1;
	sched_spec_free(&s);
	return rc;
}

int main(int argc, char **argv)
{
	struct scenario sc;
	struct sched_modules mods;
	struct err e = { "" };
	struct diff_run a, b;
	stime_t duration = -1, step = 0;
	bool dump = true, check = false;
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
		} else if (strcmp(argv[argi], "--check") == 0) {
			check = true;
		} else {
			fprintf(stderr, "xen-diff: unknown option %s\n", argv[argi]);
			return 2;
		}
	}
	if (argc - argi != 3) {
		fprintf(stderr, "usage: xen-diff [--duration=T] [--interleave=STEP] [--no-dump] [--check] SCENARIO SPEC_A SPEC_B\n");
		return 2;
	}
	if (scenario_load_file(argv[argi], &sc, &e) < 0) {
		fprintf(stderr, "xen-diff: %s\n", e.msg);
		return 2;
	}
	if (duration > 0)
		sc.duration = duration;
	sched_modules_init(&mods, NULL);
	if (load_module(&mods, argv[argi + 1], &e) < 0 || load_module(&mods, argv[argi + 2], &e) < 0) {
		fprintf(stderr, "xen-diff: %s\n", e.msg);
		return 2;
	}
	if (step > 0) {
		if (start_interleaved(&a, &b, &sc, argv[argi + 1], argv[argi + 2], &mods, step,
				      &e) < 0) {
			fprintf(stderr, "xen-diff: %s\n", e.msg);
			return 2;
		}
	} else if (diff_run(&a, &sc, argv[argi + 1], &mods, sc.duration, check, &e) < 0) {
		fprintf(stderr, "xen-diff: %s\n", e.msg);
		return 2;
	} else if (diff_run(&b, &sc, argv[argi + 2], &mods, sc.duration, check, &e) < 0) {
		fprintf(stderr, "xen-diff: %s\n", e.msg);
		diff_run_free(&a);
		return 2;
	}
	rc = compare_decisions(&sc, &a, &b, argv[argi + 1], argv[argi + 2], &mods, dump);
	rc |= compare_runtimes(&a, &b);
	diff_run_free(&a);
	diff_run_free(&b);
	scenario_free(&sc);
	sched_modules_free(&mods);
	return rc;
}
