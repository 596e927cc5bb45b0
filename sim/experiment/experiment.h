/*
 * The experiment matrix: schedulers x host settings x workloads x dom0-load
 * settings x iterations, each combination one run of a copy of the base
 * scenario.
 *
 * A host setting ("llc-size=12MiB:nodes=1", --host) and a workload spec
 * ("iperf:tcp_rmem_max=6291456", --workload) together make a bench: the
 * rows of the tables are benches x dom0 loads, and a run's place in the
 * matrix is (configuration, bench, dom0 load, iteration), the bench index
 * b = host index x workloads + workload index.
 *
 * Iteration i of every configuration runs with the same seed, derived from
 * the base seed and i alone (a paired design: every configuration sees the
 * same random workload, so differences come from the scheduler).  The runs
 * are spread over worker processes, and their results are kept in a fixed
 * order, so the output does not depend on the number of workers.
 */
#ifndef SCHEDSIM_EXPERIMENT_H
#define SCHEDSIM_EXPERIMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/engine/scenario.h"
#include "sim/err.h"
#include "sim/experiment/report.h"
#include "sim/experiment/run.h"
#include "sim/experiment/workers.h"
#include "sim/params.h"

/*
 * Rewrites a scenario copy for one host setting, workload spec and dom0-load
 * value (NULL: leave that part as it is): sim/experiment/host_axis.h and
 * workload_axes_apply() in workloads/axes.h.
 */
typedef int (*experiment_axes_fn)(struct scenario *sc, const char *host,
				  const char *workload, const char *dom0_load,
				  struct err *e);

#define EXP_NAME_MAX 256

struct experiment {
	/* What to run (filled by the caller). */
	const struct scenario *base;
	const struct sched_spec *scheds;
	int nscheds;
	char (*hosts)[EXP_NAME_MAX];       /* nhosts == 0: the scenario's host */
	int nhosts;
	char (*workloads)[EXP_NAME_MAX];   /* nworkloads == 0: the scenario's own */
	int nworkloads;
	char (*dom0_loads)[EXP_NAME_MAX];  /* ndom0 == 0: the scenario's own */
	int ndom0;
	int iterations;
	uint64_t seed;                     /* base seed */
	int jobs;                          /* worker processes; <= 0: online CPUs */
	bool progress;                     /* progress line on stderr */
	struct run_options ropt;
	experiment_axes_fn apply_axes;     /* NULL: axes are labels only */
	const int *only;                   /* run only these indices (sim/experiment/shard.h); NULL: all */
	int nonly;

	/* Results, in matrix order (experiment_index()). */
	int nruns;
	struct run_result *runs;
	int ndone;                         /* runs completed (all unless stopped) */
};

/* Return values of experiment_run(). */
#define EXP_OK WORKERS_OK
#define EXP_ERROR WORKERS_ERROR
#define EXP_INTERRUPTED WORKERS_INTERRUPTED

/*
 * Validates the matrix (every axis value applies), runs it, fills x->runs.
 * SIGINT stops it: the workers are ended and EXP_INTERRUPTED returned.
 */
int experiment_run(struct experiment *x, struct err *e);
void experiment_free(struct experiment *x);

/* Position of (scheduler, bench, dom0 load, iteration) in x->runs. */
int experiment_index(const struct experiment *x, int s, int b, int d, int i);
/* The inverse of experiment_index(). */
struct experiment_coords {
	int s, b, d, i;
};
struct experiment_coords experiment_coords(const struct experiment *x, int idx);
/* Number of benches (host settings x workloads, each at least 1) and of runs. */
int experiment_nbench(const struct experiment *x);
int experiment_total(const struct experiment *x);
/* Bench b's host setting and workload spec, NULL when that axis is not given. */
const char *experiment_host(const struct experiment *x, int b);
const char *experiment_workload(const struct experiment *x, int b);
/* Applies bench b and dom0 load d to a copy of the base scenario (x->apply_axes). */
int experiment_scenario(const struct experiment *x, int b, int d, struct scenario *sc,
			struct err *e);
/* Checks that every bench and dom0-load value applies to the base scenario. */
int experiment_check_axes(const struct experiment *x, struct err *e);
/* The seed of iteration i. */
uint64_t experiment_seed(uint64_t base, int iteration);

/* Groups the runs' metrics into a table (columns: schedulers). */
void experiment_table(const struct experiment *x, struct report_table *t);

/*
 * Run results as bytes: the form the workers send back and the parts of a
 * sharded sweep carry (sim/experiment/shard.h).  Every field is encoded on its
 * own, fixed width and little-endian, with a version and a checksum (the
 * format is described in experiment.c): no pointer or padding leaves the
 * process, and the bytes mean the same on any machine.
 */
#define RUN_RESULT_ENCODING 6
void run_result_pack(const struct run_result *r, char **buf, size_t *len);
/*
 * Decodes into *r (overwritten).  Any truncated, damaged or foreign input
 * gives -1, e (may be NULL) set to what is wrong and where, and *r empty.
 */
int run_result_unpack(const char *buf, size_t len, struct run_result *r, struct err *e);

#endif
