/*
 * Workload modules: each fills one ops table and is registered by name
 * (workloads/registry.c).  A scenario's <workload type="..." key="value"/>
 * becomes a struct workload attached to one domain; setup() creates its
 * guest tasks (workloads/guest.h).  A workload may report one figure of
 * merit (build seconds, Gbit/s) and may end the run early when its job is
 * done (sim_request_stop).  Every workload also takes the hardware profile
 * parameters (smt_speed, working_set, mem_intensity: sim/engine/hw.h), with
 * defaults of its own; the tasks its setup creates carry that profile.
 */
#ifndef SCHEDSIM_WORKLOAD_H
#define SCHEDSIM_WORKLOAD_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/engine/rng.h"
#include "sim/engine/scenario.h"
#include "sim/engine/sim.h"
#include "sim/params.h"
#include "workloads/breakdown.h"
#include "workloads/guest.h"

struct metric {
	bool valid;
	char name[32];        /* "build_time", "throughput" */
	char unit[16];        /* "s", "Gbit/s" */
	double value;
	bool higher_better;
};

struct workload;

struct workload_ops {
	const char *name;
	const char *summary;
	const struct param_def *params;  /* NULL-terminated, may be NULL */
	size_t config_size;
	/*
	 * What its tasks' code asks of the hardware (sim/engine/hw.h), the defaults
	 * of the profile parameters every workload takes (workload.c), and
	 * where those defaults come from.
	 */
	struct hw_profile hw;
	const char *hw_source;
	/* Creates tasks in w->dom; errors name the scenario line. */
	int (*setup)(struct workload *w, struct err *e);
	/* The figure of merit, if any, at the end of the run. */
	void (*metric)(struct workload *w, struct metric *m);
	/*
	 * Where its time went (workloads/breakdown.h), if it keeps account;
	 * leaves b->valid false when there is nothing to show yet.
	 */
	void (*breakdown)(struct workload *w, struct breakdown *b);
	/*
	 * For a workload replaying recorded demand: the CPU time (ns of one
	 * CPU) its record asked for from the start to now, to set against the
	 * run time it got.  False when it has none.
	 */
	bool (*demand)(struct workload *w, stime_t *ns);
	void (*destroy)(struct workload *w);
};

struct workload {
	const struct workload_ops *ops;
	struct sim *sim;
	struct domain *dom;
	const struct workload_spec *spec;
	const char *source;   /* scenario file, for messages */
	void *config;
	void *priv;
	struct rng rng;       /* this workload's own stream */
	struct hw_profile prof;   /* its tasks' hardware profile (ops->hw, then the spec's) */
};

const struct workload_ops *workload_find(const char *name);
const struct workload_ops *const *workload_all(void);
void workload_list(FILE *f);
/* Validates parameters and sets the workload up in domain d. */
struct workload *workload_create(struct sim *s, struct domain *d,
				 const struct workload_spec *spec, const char *source,
				 uint64_t seed, struct err *e);
void workload_destroy(struct workload *w);
/*
 * The CPU of `base` ns of work in this run: the run's factor (its run-to-run
 * noise), times a uniform draw within +-half_width when that is above 0,
 * rounded down, plus 1 ns, so that no step is free.  The per-packet and
 * per-call costs of pvnet, netperf and mutilate.
 */
stime_t workload_cost(struct rng *rng, double run_factor, double half_width, double base);
/*
 * The measured window of a workload that runs for warmup + time (iperf,
 * netperf, mutilate): warm(arg) fires at warmup, where the workload starts
 * counting, and the run stops at warmup + time (time 0: it does not stop
 * it).  Cancelled, both timers, by the workload's destroy.
 */
struct workload_window {
	struct timer warm, stop;
};
void workload_window_arm(struct workload_window *win, struct sim *s, stime_t warmup,
			 stime_t time, timer_fn warm, void *arg);
void workload_window_cancel(struct workload_window *win, struct sim *s);
/* Checks parameters given as key=value (its own and the hardware profile's). */
int workload_check_params(const struct workload_ops *ops, const struct kvlist *kv,
			  struct err *e);

#endif
