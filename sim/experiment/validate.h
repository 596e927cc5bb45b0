/*
 * `schedsim validate`: every published table the project reproduces, real
 * against model.  The real figures are data (published.c): each one names
 * the cell of a named evaluation (evaluation.h) that models it, so adding a
 * published column is adding lines there.  validate runs those cells (and
 * no others), and gives per figure the model's value and its error, model
 * / real - 1, and per comparison of two figures (loaded against unloaded,
 * -j8 against -j4, csc against HT, one configuration against another)
 * whether the model's difference has the real one's sign.
 *
 * The comparisons are made from the figures: in a table, each row against
 * the row before it with a figure (in each column), each column against the
 * first column with a figure (in each row); across the tables of one
 * benchmark, each configuration against the first (at the same row and
 * column).  Two real figures closer than their published precision make no
 * comparison.  An order published without figures is a comparison of its
 * own (published_orders).
 */
#ifndef SCHEDSIM_VALIDATE_H
#define SCHEDSIM_VALIDATE_H

#include <stdbool.h>

#include "sim/err.h"
#include "sim/experiment/evaluation.h"

/*
 * A published figure: the cell of evaluation `preset`, table `table` (its
 * benchmark and configuration, as eval_table_name writes it), row and
 * column.  per_row: NULL, or the row the figure is divided by in the same
 * column, real and model alike (when the units differ: netperf's Mbps
 * against iperf's Gbit/s).  precision: the relative precision of the
 * publication (0: as printed).
 */
struct published_figure {
	const char *preset, *table, *row, *col;
	double value;
	const char *per_row;
	double precision;
	const char *source;
};

/*
 * An order published without figures: the sign of (row_a - row_b) in a
 * column.  min_iterations: 0, or the iterations the model needs for a
 * stable sign (a measurement, cited where it is set); validate runs the
 * order's cells that many times when --iterations is lower.
 */
struct published_order {
	const char *preset, *table, *col, *row_a, *row_b;
	int sign;
	const char *source;
	int min_iterations;
};

const struct published_figure *published_figures(int *n);
const struct published_order *published_orders(int *n);

struct validation_figure {
	const struct published_figure *pub;
	const struct eval_preset *preset;
	int table, row, col, per_row;   /* per_row: -1 for an absolute figure */
	int cell, per_cell;             /* cells of the evaluation; per_cell -1 */
	double real, model;             /* model: Amean or Hmean, or their ratio */
	int n;                          /* iterations with a figure */
	double error;                   /* model / real - 1 */
	bool floored;                   /* in floor_ev: an order's cell run to its floor */
};

struct validation_comparison {
	char id[600];                   /* "PRESET TABLE COLUMN: ROW vs ROW" */
	char kind[16];                  /* "rows", "columns", "configs", "order" */
	int a, b;                       /* figures (-1: an order's cells) */
	int cell_a, cell_b;             /* their cells (for the U test) */
	int real_sign, model_sign;      /* -1, 0, +1 */
	bool right;
	double p;                       /* the U test of the two model cells; NaN for ratios */
	int iterations;                 /* per cell, as run */
	int floor;                      /* an order's min_iterations when it raised them, else 0 */
};

struct validation {
	struct evaluation ev;
	struct validation_figure *figs;
	int nfigs;
	struct validation_comparison *cmps;
	int ncmps;
	double alpha;
	/*
	 * The cells of the orders whose min_iterations is above --iterations,
	 * run apart at the highest such floor (floor_iterations; 0: none).
	 */
	struct evaluation floor_ev;
	int floor_iterations;
};

/*
 * The cells of the presets named in only (all when nonly == 0; "2016" and
 * the like name a preset by its full name); -1 with a one-line error for a
 * name that is no preset, or a figure whose cell is no cell.
 *
 * rows (nrows > 0): of the published figures, only those of the rows
 * named, where "first" names, in each table and column, the first row
 * with a figure (a sample of the cells that reaches every table, column
 * and kind of comparison in fewer runs); the published orders whole.  -1
 * with a one-line error for a name that is no row of a figure validated.
 */
int validate_prepare(struct validation *v, const char *const *only, int nonly,
		     const char *const *rows, int nrows,
		     const struct eval_options *o, struct err *e);
/* Runs the cells, then fills figures and comparisons; EXP_OK, EXP_ERROR or EXP_INTERRUPTED. */
int validate_run(struct validation *v, double alpha, struct err *e);
void validate_free(struct validation *v);

/* Checks that every published figure and order names a cell; -1 with e naming the first. */
int published_check(struct err *e);

#endif
