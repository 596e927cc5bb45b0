/*
 * Machine-readable forms of a comparison table: CSV (one line per cell) and
 * the JSON "summary" array (through the run JSON writer, sim/output/json.h).
 * Numbers are printed so that they read back exactly (17 digits in JSON); a
 * figure that does not exist (an interval of one sample, a comparison in the
 * baseline column) is empty in CSV and null in JSON, never a made-up zero.
 * The JSON entries carry the values themselves so that `schedsim compare` can
 * redo the tests.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/output/json.h"
#include "sim/output/report_formats.h"

static void csv_string(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
}

void report_csv(FILE *f, const struct report_table *t)
{
	/* compare: which file a line comes from leads the line */
	if (t->compare)
		fputs("file,", f);
	fputs("label,scheduler,workload,dom0_load,unit,n,mean,stddev,median,"
	      "ci95_low,ci95_high,delta_pct,p_value,host\n", f);
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++) {
			const struct report_row *row = &t->rows[r];
			const struct report_cell *cell = &t->cells[r * t->ncols + c];

			if (t->compare) {
				csv_string(f, t->cols[c]);
				fputc(',', f);
			}

			csv_string(f, cell->label);
			fputc(',', f);
			csv_string(f, cell->scheduler);
			fputc(',', f);
			csv_string(f, row->workload);
			fputc(',', f);
			csv_string(f, row->dom0_load);
			fputc(',', f);
			csv_string(f, row->unit);
			fprintf(f, ",%d,", cell->n);
			csv_number(f, cell->s.mean);
			fputc(',', f);
			csv_number(f, cell->s.stddev);
			fputc(',', f);
			csv_number(f, cell->s.median);
			fputc(',', f);
			csv_number(f, cell->s.mean_lo);
			fputc(',', f);
			csv_number(f, cell->s.mean_hi);
			fputc(',', f);
			csv_number(f, cell->has_cmp ? cell->delta_pct : NAN);
			fputc(',', f);
			csv_number(f, cell->has_cmp ? cell->mwu.p : NAN);
			fputc(',', f);
			csv_string(f, row->host);
			fputc('\n', f);
		}
}

static void num(struct json *j, const char *key, double v)
{
	json_double(j, key, v, 17);
}

static void json_cell(struct json *j, const struct report_table *t, int r, int c)
{
	const struct report_row *row = &t->rows[r];
	const struct report_cell *cell = &t->cells[r * t->ncols + c];
	const struct stats_summary *s = &cell->s;

	json_object_begin(j, NULL);
	json_string(j, "label", cell->label);
	json_string(j, "scheduler", cell->scheduler);
	if (row->host[0])
		json_string(j, "host", row->host);
	json_string(j, "workload", row->workload);
	json_string(j, "dom0_load", row->dom0_load);
	json_string(j, "metric", row->metric);
	json_string(j, "unit", row->unit);
	json_string(j, "better", !row->metric[0] ? "" : row->higher_better ? "higher" : "lower");
	json_int(j, "n", cell->n);
	num(j, "mean", s->mean);
	num(j, "stddev", s->stddev);
	num(j, "median", s->median);
	num(j, "min", s->min);
	num(j, "max", s->max);
	num(j, "ci95_low", s->mean_lo);
	num(j, "ci95_high", s->mean_hi);
	num(j, "median_ci95_low", s->median_lo);
	num(j, "median_ci95_high", s->median_hi);
	num(j, "delta_pct", cell->has_cmp ? cell->delta_pct : NAN);
	num(j, "p_value", cell->has_cmp ? cell->mwu.p : NAN);
	json_array_begin(j, "values");
	for (int i = 0; i < cell->n; i++)
		num(j, NULL, cell->values[i]);
	json_array_end(j);
	json_object_end(j);
}

void report_json_summary(struct json *j, const struct report_table *t)
{
	json_array_begin(j, "summary");
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			json_cell(j, t, r, c);
	json_array_end(j);
}
