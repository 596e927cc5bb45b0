/*
 * Comparing the decisions of two schedulers on one scenario: the part of
 * xen-diff shared by xen-diff itself (one scenario, full report), the
 * random driver (many scenarios, one line each) and the fuzzer.
 *
 * A run records, per pCPU, every switch-in: the core's runstate-change
 * trace record with new state running, as (time, domain, vCPU).  Two
 * runs decide identically when every pCPU's sequence is the same; the
 * first divergence is the earliest time at which some pCPU's sequences
 * differ.  Run times per vCPU are compared as well.
 */
#ifndef SCHEDSIM_XEN_DIFF_H
#define SCHEDSIM_XEN_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sim/engine/scenario.h"
#include "sim/engine/sim.h"
#include "sim/err.h"
#include "sim/params.h"

struct sched_modules;

struct diff_switch {
	stime_t t;
	int dom, vcpu;            /* dom DOMID_IDLE: the idle vCPU */
};

struct diff_seq {
	struct diff_switch *r;
	size_t n, cap;
};

struct diff_recorder {
	struct tracer t;
	struct diff_seq *cpu;
	int ncpu;
};

struct diff_run {
	struct sched_spec spec;
	struct sim *s;
	struct diff_recorder rec;
};

/*
 * Builds the run of scenario sc under spec, recording switches if
 * 'record', under the invariant checker (sim/engine/check.c) if 'check'.
 * spec may name a scheduler module loaded into mods (NULL: built-in
 * schedulers only; schedulers/loader.h).
 */
int diff_run_build(struct diff_run *r, const struct scenario *sc, const char *spec,
		   const struct sched_modules *mods, bool record, bool check, struct err *e);
/*
 * Builds and runs it to 'until', then closes the accounting; -1 with the
 * checker's message in e if an invariant broke.
 */
int diff_run(struct diff_run *r, const struct scenario *sc, const char *spec,
	     const struct sched_modules *mods, stime_t until, bool check, struct err *e);
void diff_run_free(struct diff_run *r);

/* Where two runs first decide differently. */
struct diff_point {
	int cpu;                  /* -1: identical */
	size_t index;             /* switch number on that pCPU */
	stime_t t;
	const struct diff_switch *a, *b;   /* NULL: that run has no more there */
	size_t common;            /* identical switches before it, on all pCPUs */
};

/* Fills p; returns true when the decisions differ. */
bool diff_first(const struct diff_run *a, const struct diff_run *b, struct diff_point *p);
/* Total switches recorded by a run. */
size_t diff_switches(const struct diff_run *r);
/*
 * Number of vCPUs whose run time differs; *worst gets the largest
 * difference.  With f, prints each (name, both times, percent).
 */
int diff_runtimes(const struct diff_run *a, const struct diff_run *b, stime_t *worst, FILE *f);
/* "d1v0", "idle", "(nothing more)". */
const char *diff_name(const struct diff_switch *r, char *buf, size_t len);

#endif
