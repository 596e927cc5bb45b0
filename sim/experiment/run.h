/*
 * One run: a scenario and a scheduler spec in, a struct run_result out.
 * run_scenario() builds the struct sim (sim/experiment/build.c), runs it for
 * the scenario's duration (or until a workload ends it) and extracts every
 * figure the reports need.  It keeps nothing: results are plain data that can
 * be written as JSON, sent between processes and compared.
 */
#ifndef SCHEDSIM_RUN_H
#define SCHEDSIM_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/engine/scenario.h"
#include "sim/engine/sim.h"
#include "sim/err.h"
#include "sim/params.h"
#include "workloads/workload.h"

struct sched_modules;

struct vcpu_result {
	int id;
	stime_t run_ns, runnable_ns, blocked_ns, offline_ns;
	uint64_t wakeups;
	stime_t wake_p50, wake_p95, wake_p99, wake_max;
	uint64_t migrations, context_switches;
	stime_t soft_affinity_run_ns;
	uint64_t deadlines, deadline_misses;   /* RTDS: periods judged, and missed */
	stime_t deadline_worst_miss_ns;        /* the most budget a missed period lacked */
	stime_t work_ns;                  /* work done, ns at full speed (sim/engine/hw.h) */
	stime_t lost_ns[HW_NR_LOST];      /* run time lost to smt, cache, numa; cstate: wake time */
	int *pcpus;              /* ids of the pCPUs it ran on, ascending */
	int npcpus;
	struct hist wake_latency;   /* full histogram, for plots (may be empty) */
};

struct domain_result {
	char name[64];
	int domid, weight, cap;
	int nvcpus;
	struct vcpu_result *vcpus;
	struct metric metric;    /* its workload's figure, if any */
	bool has_demand;         /* a workload replays recorded demand (workload_ops.demand) */
	stime_t demand_ns;       /* what the record asked for, ns of one CPU */
	long long memory_mb;     /* its memory as placed (0: the ideal machine places none) */
	int *numa_nodes;         /* the nodes holding it, ascending */
	int nnuma_nodes;
};

struct run_result {
	char scheduler[64];      /* registered name */
	char label[512];         /* the spec as given ("credit2:runqueue=core") */
	char host[256];          /* experiment axis value (--host), "" for the scenario's */
	char workload[256];      /* experiment axis value, "" for the scenario's own */
	char dom0_load[256];     /* "off", "on", "on:tasks=12", or "" */
	int iteration;
	uint64_t seed;
	stime_t sim_ns;          /* simulated time at the end */
	uint64_t events;
	struct metric metric;    /* the run's headline figure (first valid workload metric) */
	struct breakdown breakdown;   /* where the first workload keeping account spent its time */
	int ndoms;
	struct domain_result *doms;
	char check_error[512];   /* first invariant violation with --check, "" if none */
};

struct run_options {
	bool check;              /* invariant checker after every event */
	struct tracer *tracer;   /* NULL: no trace */
	bool keep_histograms;    /* copy wake-latency histograms into the result */
	/* the scheduler modules loaded (schedulers/loader.h); NULL: built-ins only */
	const struct sched_modules *modules;
};

int run_scenario(const struct scenario *sc, const struct sched_spec *spec,
		 const struct run_options *o, struct run_result *out, struct err *e);
void run_result_free(struct run_result *r);

/*
 * Calls fn(arg, out, e) in a child process and brings its result back
 * (run_result_pack()), so that a run that crashes, in a scheduler module
 * say, ends the child only: -1 with e set, and *signo the signal that
 * killed it (0 when it did not die of one: fn's error, or a bad exit).
 */
typedef int (*run_fn)(void *arg, struct run_result *out, struct err *e);
int run_in_child(run_fn fn, void *arg, struct run_result *out, int *signo, struct err *e);

#endif
