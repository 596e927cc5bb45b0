/*
 * `schedsim merge PART.json... [--format=FMT] [--output=FILE] [--alpha=A]
 * [--plot=DIR...]`: the parts written by --shard or --run
 * (sim/output/shard_part.h) put back into the whole matrix, so that the tables
 * and plots come out as the single process makes them, byte for byte.  Plots
 * re-run chosen runs, so --plot needs the scenario file the parts ran (checked
 * by its digest).
 *
 * The parts must come from the same schedsim version and result layout
 * and describe the same matrix (seed, scenario and its digest, duration,
 * schedulers, workloads, dom0 loads, iterations), and together hold every
 * run exactly once; anything else is a one-line error.
 */
#ifndef SCHEDSIM_MERGE_H
#define SCHEDSIM_MERGE_H

#include "sim/engine/scenario.h"
#include "sim/err.h"
#include "sim/experiment/experiment.h"
#include "sim/output/plot.h"
#include "sim/params.h"

struct merge {
	const char *format;      /* text, json, markdown, csv */
	const char *output;      /* NULL: stdout */
	double alpha;
	struct experiment x;     /* runs filled from the parts */
	struct sched_spec *specs;
	char (*hosts)[EXP_NAME_MAX];
	char (*workloads)[EXP_NAME_MAX];
	char (*dom0_loads)[EXP_NAME_MAX];
	struct scenario sc;      /* the header names its source; loaded for --plot */
	bool sc_loaded;
	struct plot_cli pc;      /* --plot and its options, as for an experiment */
};

/* Parses merge's arguments (after "merge") and loads the parts; -1 with e set. */
int merge_load(int argc, char **argv, struct merge *m, struct err *e);
void merge_free(struct merge *m);

#endif
