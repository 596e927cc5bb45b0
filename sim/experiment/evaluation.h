/*
 * Named evaluations (`schedsim --eval=NAME`): a published evaluation's
 * whole matrix as data, run in one pool of workers and grouped into its
 * tables, as MMTests' compare-kernels.sh prints them.
 *
 * A preset is a list of tables, one per benchmark and configuration (the
 * 2019 core-scheduling evaluation: kernbench in HVM-v8, ...).  A table's
 * columns are the variants compared (HT, noHT, csc; Credit1, Credit2), its
 * rows a parameter of the benchmark (make -j, hackbench groups, a dom0
 * load).  Each cell is a scenario with overrides: what the table's base
 * says, unless its column or its row says otherwise (a field set by both
 * is an error in the preset, but for host settings, which add up: the
 * column's after the base's, the row's last).  The scenarios are the
 * embedded default one or files of the examples (examples/README.md),
 * found in $SCHEDSIM_EXAMPLES, the installed $(pkgdatadir)/examples or
 * the source tree's examples/.
 *
 * Iteration i of every cell runs with seed_derive(S, i), S the cell's
 * scenario seed (or --seed), as an experiment's iteration i does: a cell
 * of a preset gives the figures of the same experiment run by hand.
 */
#ifndef SCHEDSIM_EVALUATION_H
#define SCHEDSIM_EVALUATION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/engine/scenario.h"
#include "sim/err.h"
#include "sim/experiment/report.h"
#include "sim/experiment/run.h"
#include "sim/params.h"

/*
 * A column or a row of a table, or a table's base: its name and what it
 * sets (NULL: nothing).  figure: NULL for the run's figure of merit, or
 * "run-share:D[,D...]" for the mean share of a pCPU the vCPUs of those
 * domains ran (schedbench's figure).
 */
struct eval_axis {
	const char *name;
	const char *scenario;      /* "default", or a file of the examples ("DIR/FILE.xml") */
	const char *sched;         /* a scheduler spec, as --sched takes one */
	const char *host;          /* host settings, as --host takes them */
	const char *workload;      /* a workload spec, as --workload takes one */
	const char *dom0_load;     /* as --dom0-load takes one */
	const char *figure;
};

struct eval_table {
	const char *benchmark;     /* "kernbench" */
	const char *config;        /* "HVM-v8"; "" when the preset has one */
	const char *param;         /* what the rows are: "make -j", "dom0 load" */
	struct eval_axis base;
	const struct eval_axis *cols;
	int ncols;
	const struct eval_axis *rows;
	int nrows;
};

struct eval_preset {
	const char *name;          /* what --eval= takes */
	const char *title;
	const char *source;        /* where it was published */
	int iterations;            /* the default (the published count) */
	const struct eval_table *tables;
	int ntables;
};

/* Every preset, and one by name (NULL: none). */
const struct eval_preset *const *eval_presets(int *n);
const struct eval_preset *eval_preset_find(const char *name);
/* Whether a preset runs files of the examples. */
bool eval_preset_uses_examples(const struct eval_preset *p);
/* --list-evals. */
void eval_presets_list(FILE *f);

/* The folder of the examples' files, or NULL with e saying where it looked. */
const char *eval_examples_dir(struct err *e);

/* One cell to run: a table's (row, column) of a preset, resolved. */
struct eval_cell {
	const struct eval_preset *preset;
	int table, row, col;
	struct scenario sc;        /* the scenario with the cell's overrides applied */
	struct sched_spec spec;
	char host[256], workload[256], dom0_load[256];   /* as applied, "" when not set */
	const char *figure;        /* NULL: the figure of merit */
};

struct eval_options {
	int iterations;            /* <= 0: the first preset's */
	bool has_seed;             /* seed: over every scenario's */
	uint64_t seed;
	const char *hw;            /* "ideal" or "model" over every scenario's; NULL */
	int jobs;
	bool progress;
	struct run_options ropt;
};

/* What is run: cells of one or more presets, x iterations. */
struct evaluation {
	struct eval_options o;
	int iterations;
	struct eval_cell *cells;
	int ncells;
	struct run_result *runs;   /* ncells * iterations: cell k's iteration i at k * iterations + i */
	int nruns, ndone;
};

void eval_init(struct evaluation *ev, const struct eval_options *o);
/*
 * Adds the cells of preset p for which want(ctx, p, table, row, col) is
 * true (want NULL: all), loading and applying their scenarios; -1 with a
 * one-line error naming the preset, table and cell.
 */
typedef bool (*eval_want_fn)(const void *ctx, const struct eval_preset *p, int table, int row,
			     int col);
int eval_add(struct evaluation *ev, const struct eval_preset *p, eval_want_fn want,
	     const void *ctx, struct err *e);
/* Runs every cell; EXP_OK, EXP_ERROR or EXP_INTERRUPTED (experiment.h). */
int eval_run(struct evaluation *ev, struct err *e);
void eval_free(struct evaluation *ev);
/* The cell of (p, table, row, col), or -1 when it was not added. */
int eval_find(const struct evaluation *ev, const struct eval_preset *p, int table, int row,
	      int col);
/* Run i's figure under a cell's selector; false when it has none. */
bool eval_figure(const struct eval_cell *c, const struct run_result *r, struct metric *m);

/*
 * A table's results: rows and columns as the preset's, each cell's figures
 * (report_compute(): statistics, and the Mann-Whitney test against column
 * 0), and the centre MMTests gives it: the arithmetic mean of times (lower
 * is better), the harmonic mean of rates (higher is better), with the gain
 * against column 0 in per cent, positive when better (MMTests' pndiff and
 * pdiff).
 */
struct eval_result_cell {
	bool run;                  /* the cell was in the evaluation */
	double center;             /* Amean or Hmean; NaN without values */
	double gain_pct;           /* NaN in column 0 or without a figure */
	bool significant;          /* the U test's p < alpha */
	int first_run;             /* index in ev->runs of its iteration 0, or -1 */
};

struct eval_result_table {
	const struct eval_preset *preset;
	int table;
	struct report_table t;     /* rows: the preset's rows; cols: its columns */
	bool hmean;                /* the figure is a rate (higher is better) */
	struct eval_result_cell *cells;   /* as t.cells */
};

/* The tables of preset p in ev (every table of p, cells not run empty). */
int eval_results(const struct evaluation *ev, const struct eval_preset *p, double alpha,
		 struct eval_result_table **out);
void eval_results_free(struct eval_result_table *r, int n);

#endif
