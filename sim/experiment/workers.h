/*
 * Runs many runs in worker processes: the experiment matrix
 * (experiment.h) and the named evaluations (evaluation.h) hand their runs
 * here by index, and get each result back at its index, so their output
 * does not depend on the number of workers or the order of completion.
 *
 * What a run is belongs to the caller: run(ctx, idx) makes run idx's
 * result in the worker, describe(ctx, idx) names it in a message (its
 * configuration, iteration and seed, so that it can be rerun alone).
 */
#ifndef SCHEDSIM_WORKERS_H
#define SCHEDSIM_WORKERS_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/err.h"
#include "sim/experiment/run.h"

/* Return values of workers_run(). */
#define WORKERS_OK 0
#define WORKERS_ERROR (-1)
#define WORKERS_INTERRUPTED 1

struct worker_pool {
	/* What to run (filled by the caller). */
	int (*run)(const void *ctx, int idx, struct run_result *r, struct err *e);
	void (*describe)(const void *ctx, int idx, char *buf, size_t len);
	const void *ctx;
	int nruns;                 /* the runs, and the size of runs[] */
	const int *only;           /* run only these indices; NULL: all */
	int nonly;
	int jobs;                  /* worker processes; <= 0: online CPUs */
	bool progress;             /* progress line on stderr */

	/* Results: runs[idx] for every index run (allocated by the caller). */
	struct run_result *runs;
	int ndone;
};

/*
 * Runs the pool's runs.  SIGINT stops it: the workers are ended and
 * WORKERS_INTERRUPTED returned with e saying how far it got; a run that
 * fails or a worker that dies is WORKERS_ERROR, e naming the run.
 */
int workers_run(struct worker_pool *p, struct err *e);

#endif
