/*
 * The tables of a named evaluation (`schedsim --eval=NAME`,
 * sim/experiment/evaluation.h) as MMTests' compare-kernels.sh prints
 * them: a line per row of each table, its centre per column (Amean for
 * times, Hmean for rates), the gain against the first column in per cent
 * in brackets, between stars when the Mann-Whitney U test finds the
 * difference significant; and the same numbers as Markdown, CSV and JSON
 * (with every run), an HTML page and gnuplot pictures.
 */
#ifndef SCHEDSIM_EVAL_REPORT_H
#define SCHEDSIM_EVAL_REPORT_H

#include <stdio.h>

#include "sim/err.h"
#include "sim/experiment/evaluation.h"

struct plot_cli;

struct eval_report {
	const struct eval_preset *preset;
	const struct evaluation *ev;
	const struct eval_result_table *tables;
	int ntables;
	double alpha;
	const char *command;       /* the command line, for the HTML page; NULL */
};

void eval_report_text(FILE *f, const struct eval_report *r);
void eval_report_markdown(FILE *f, const struct eval_report *r);
void eval_report_csv(FILE *f, const struct eval_report *r);
void eval_report_json(FILE *f, const struct eval_report *r);
void eval_report_html(FILE *f, const struct eval_report *r);
/* The pictures of --plot=DIR: one bar chart per table (plots/comparison.gp). */
int eval_report_plot(const struct plot_cli *c, const struct eval_report *r, struct err *e);

/* "MAKEXEN", "kernbench HVM-v8": a table's name. */
void eval_table_name(const struct eval_table *tb, char *buf, size_t len);
/* A figure with at least four significant digits and two decimals, as MMTests prints. */
void eval_format_value(char *buf, size_t len, double v);

#endif
