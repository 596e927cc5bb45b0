/*
 * Pictures of an experiment, drawn by gnuplot: `--plot=DIR` writes, for
 * every picture, a data file, the gnuplot script that draws it (a header
 * with the settings of this experiment, then the body of plots/NAME.gp)
 * and the picture itself, so a user can restyle a script and re-run it
 * in DIR with `gnuplot NAME.gp`.
 *
 *   comparison.*          one panel per workload, a bar per configuration
 *                         and dom0-load setting, 95 % interval of the mean
 *   latency-W-D.*         wake-to-run latency CDFs (log time axis) of the
 *                         benchmark guest's and dom0's vCPUs, one curve
 *                         per configuration, for workload W, dom0 load D
 *   timeline-runN.*       which vCPU ran on which pCPU in a window of run N
 *   credit-runN.*         credit of chosen vCPUs over that window
 *
 * The last two come from re-running run N in this process with a tracer
 * that records runstate changes and samples the scheduler's unit_credit
 * on a timer: the runs are deterministic, so the re-run is the run of the
 * tables (plot.c checks that its figure is the same).
 *
 * gnuplot is looked up in PATH when the options are checked, before
 * anything runs; doc/plots.md describes the files.
 */
#ifndef SCHEDSIM_PLOT_H
#define SCHEDSIM_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/err.h"
#include "sim/experiment/experiment.h"
#include "sim/experiment/report.h"
#include "sim/stime.h"

enum plot_format { PLOT_PNG, PLOT_SVG, PLOT_PDF };

#define PLOT_MAX_RUNS 16
#define PLOT_MAX_VCPUS 16

struct plot_vcpu {
	int domid, vcpu;
};

/* Command-line options; plain data, nothing to free. */
struct plot_cli {
	const char *dir;                  /* NULL: no plots */
	enum plot_format format;
	bool format_set;
	int runs[PLOT_MAX_RUNS];          /* --plot-timeline; none: see plot.c */
	int nruns;
	stime_t from, to;                 /* --plot-window */
	bool window_set;
	struct plot_vcpu vcpus[PLOT_MAX_VCPUS];   /* --plot-credit; none: a default */
	int nvcpus;
	char gnuplot[4096];               /* found by plot_cli_check */
};

/* Option codes for getopt_long: outside the range of any character. */
enum { PLOT_OPT_DIR = 0x7501, PLOT_OPT_FORMAT, PLOT_OPT_TIMELINE, PLOT_OPT_WINDOW,
       PLOT_OPT_CREDIT };

#define PLOT_LONG_OPTIONS \
	{ "plot", required_argument, NULL, PLOT_OPT_DIR }, \
	{ "plot-format", required_argument, NULL, PLOT_OPT_FORMAT }, \
	{ "plot-timeline", required_argument, NULL, PLOT_OPT_TIMELINE }, \
	{ "plot-window", required_argument, NULL, PLOT_OPT_WINDOW }, \
	{ "plot-credit", required_argument, NULL, PLOT_OPT_CREDIT }

#define PLOT_USAGE \
	"  --plot=DIR              draw the experiment with gnuplot into DIR: pictures,\n" \
	"                          data files and the scripts (implies an experiment)\n" \
	"  --plot-format=png|svg|pdf  picture format (default png)\n" \
	"  --plot-timeline=RUN[,RUN...]  runs drawn as pCPU timeline and credit plots,\n" \
	"                          by number in the JSON \"runs\" array (default: the\n" \
	"                          first iteration of the last cell, each configuration)\n" \
	"  --plot-window=FROM:TO   simulated time of those plots (default 1s:1.1s)\n" \
	"  --plot-credit=dDvV,...  vCPUs of the credit plot, e.g. d1v0,d0v0\n" \
	"                          (default: the benchmark guest's v0 and v1, dom0's v0)\n"

/* Parses one of PLOT_OPT_*; -1 with e set on bad input. */
int plot_cli_option(struct plot_cli *c, int opt, const char *arg, struct err *e);
/*
 * Checks the options together and finds gnuplot in PATH (fills c->gnuplot);
 * -1 with e set, naming the Debian package when gnuplot is missing.
 */
int plot_cli_check(struct plot_cli *c, struct err *e);
/*
 * Before experiment_run: asks for the latency histograms in the results
 * and checks the run numbers and vCPUs against the matrix; -1 with e set.
 */
int plot_prepare(const struct plot_cli *c, struct experiment *x, struct err *e);
/* After the tables: writes DIR and runs gnuplot on every script; -1 with e set. */
int plot_experiment(const struct plot_cli *c, const struct experiment *x,
		    const struct report_table *t, struct err *e);
/*
 * One table drawn as the comparison picture draws a workload (a group of
 * bars per row, named by its workload field, a bar per column), into
 * c->dir as NAME.dat, NAME.gp and the picture, titled title.
 */
int plot_table(const struct plot_cli *c, const char *name, const char *title,
	       const struct report_table *t, int iterations, struct err *e);

/* --- Pieces, exposed for the unit tests (tests/check_plot.c) --- */

/* Searches PATH (a colon list; NULL: $PATH) for an executable 'name'. */
bool plot_find_program(const char *name, const char *path, char *out, size_t len);
/* "d1v0" -> {1, 0}; -1 with e set. */
int plot_parse_vcpu(const char *s, struct plot_vcpu *v, struct err *e);
/*
 * One latency CDF: for each non-empty bucket of h, a line "LABEL X F C"
 * with X the bucket's upper edge in us (as hist_quantile reports it, at
 * least 1 ns), F the fraction of samples <= X and C their count.
 */
void plot_write_cdf(FILE *f, const char *label, const struct hist *h);

/*
 * The recorder the re-run uses, usable on any struct sim: intervals of
 * vCPUs running on pCPUs inside [from, to] go to 'timeline' as they end
 * (one line "PCPU START_MS END_MS DOMINDEX DOMID VCPU"), credit samples of
 * the chosen vCPUs every 'period' from 'from' to 'to' go to 'credit' when
 * the run ends, one block per vCPU ("T_MS INDEX CREDIT RUNNING"), blocks
 * separated by two blank lines.  Either file may be NULL.
 */
struct plot_recorder;
struct plot_recorder *plot_recorder_new(FILE *timeline, FILE *credit, stime_t from,
					stime_t to, stime_t period,
					const struct plot_vcpu *vcpus, int nvcpus);
struct tracer *plot_recorder_tracer(struct plot_recorder *r);
/* Intervals written, credit samples written. */
long plot_recorder_intervals(const struct plot_recorder *r);
long plot_recorder_samples(const struct plot_recorder *r);
void plot_recorder_free(struct plot_recorder *r);

#endif
