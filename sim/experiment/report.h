/*
 * Comparison tables: the figures of many runs grouped into cells, with
 * statistics over the iterations of each cell and against a baseline.
 *
 * A table is rows x columns.  For an experiment the columns are the
 * scheduler configurations (the first is the baseline) and the rows the
 * host x workload x dom0-load combinations; for `schedsim compare` the columns
 * are the result files (the first is the old one) and the rows also carry
 * the configuration label.  The model is plain data so that the formats
 * (text, markdown, csv, json) and compare all print the same numbers.
 */
#ifndef SCHEDSIM_REPORT_H
#define SCHEDSIM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/experiment/stats.h"

struct report_row {
	char config[512];        /* compare only: the configuration label, else "" */
	char host[256];          /* --host setting ("llc-size=12MiB"), "" for the scenario's */
	char workload[256];      /* workload spec; "" for the scenario's own workloads */
	char dom0_load[256];     /* "off", "on", "on:tasks=12", or "" */
	char metric[32];         /* "build_time", "throughput"; "" when no run had one */
	char unit[16];
	bool higher_better;
};

struct report_cell {
	char label[512];         /* configuration label ("credit2:runqueue=core") */
	char scheduler[256];     /* registered scheduler name */
	double *values;          /* one per iteration with a valid metric */
	int n, cap;
	struct stats_summary s;
	/* Against the baseline column of the same row (not for column 0). */
	bool has_cmp;
	double delta_pct;        /* (mean - base mean) / base mean * 100 */
	double speedup;          /* mean / base mean */
	struct mwu_result mwu;
};

struct report_table {
	int nrows, ncols;
	struct report_row *rows;
	char **cols;             /* column names: labels, or file names for compare */
	struct report_cell *cells;   /* nrows * ncols, row-major */
	double alpha, confidence;
	bool compare;            /* columns are files: add the speedup column */
};

/* An empty table of the given shape; cells are filled by report_add_value(). */
void report_init(struct report_table *t, int nrows, int ncols);
void report_free(struct report_table *t);
struct report_cell *report_cell(struct report_table *t, int row, int col);
void report_add_value(struct report_cell *c, double v);
/* Computes every cell's statistics and its comparison with column 0. */
void report_compute(struct report_table *t);

/* "make-xen dom0=on host:nodes=1" style names used by the formats. */
void report_row_name(const struct report_row *r, char *buf, size_t len);
/* The bench of a row: its workload (or metric) and " host:SETTING" if any. */
void report_bench_name(const struct report_row *r, char *buf, size_t len);
const char *report_dom0_name(const char *dom0_load);

#endif
