/*
 * The HTML report of an experiment: one self-contained file to attach to
 * a mail or a bug.  It holds the exact command line, the schedsim version
 * and the seed, the mailing-list boxes, the benchstat-style statistics
 * table, inline SVG plots (the figure of merit per workload with each
 * iteration's value, the wake-to-run latency of each vCPU), and the list
 * of runs with their seeds.  No script, no style sheet, font or image to
 * fetch: a Content-Security-Policy of default-src 'none' makes a browser
 * refuse anything the file would load, so a reference that crept in shows
 * as a console error (tests/report/browser.sh).
 *
 * Two ways in, one way out: html_report_from_experiment() after a run
 * (--report=FILE.html), html_report_from_json() from saved results
 * (`schedsim report RESULTS.json`), both filling a struct html_report that
 * report_html() writes.  The output is a function of its input only (no
 * date), so the same results give the same bytes.
 */
#ifndef SCHEDSIM_REPORT_HTML_H
#define SCHEDSIM_REPORT_HTML_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/err.h"
#include "sim/experiment/experiment.h"
#include "sim/output/report_formats.h"

/* One run as the report shows it. */
struct html_run {
	char label[512];
	char host[EXP_NAME_MAX], workload[EXP_NAME_MAX], dom0_load[EXP_NAME_MAX];  /* "": the scenario's */
	int iteration;
	uint64_t seed;
	bool has_metric;
	double metric;
	char bench[64];              /* the benchmark guest's name, "" when there is none */
	double *bench_p99, *dom0_p99; /* per vCPU: wake-to-run latency p99, ns */
	int nbench, ndom0;
	char check_error[512];
};

struct html_report {
	char *command;               /* the exact command line, shell-quoted */
	char version[32];            /* the schedsim that ran the experiment */
	char origin[512];            /* "this run", or the results file it was made from */
	char scenario[256];          /* "" when not known (results files do not name it) */
	uint64_t seed;
	int iterations;
	struct report_table t;       /* computed */
	struct html_run *runs;
	int nruns;
};

/* The command line as a shell would take it back: arguments quoted where needed. */
char *html_command_line(int argc, char *const *argv);

/* From an experiment just run; t's alpha is used. */
void html_report_from_experiment(struct html_report *h, const struct experiment *x,
				 double alpha, const char *scenario, const char *command);
/* From the JSON an experiment wrote (--format=json); alpha < 0: the file's. */
int html_report_from_json(struct html_report *h, const char *path, double alpha,
			  const char *command, struct err *e);
void html_report_free(struct html_report *h);

/* Writes the document. */
void report_html(FILE *f, const struct html_report *h);

/*
 * The page around a report, for the other pages (sim/output/eval_report.h):
 * the document's head with its Content-Security-Policy and style, up to
 * <body> (title_html already escaped); and the closing note and tags.
 */
void html_page_begin(FILE *f, const char *title_html);
void html_page_end(FILE *f);

#endif
