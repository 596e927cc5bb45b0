/*
 * The tables of a named evaluation (see eval_report.h).
 *
 * The text form follows MMTests' compare-kernels.sh (bin/lib/MMTests/
 * Compare.pm and PrintGeneric.pm): per row the operation ("Amean" or
 * "Hmean") and the row's name, then per column the figure and its gain
 * against the first column, " (  4.30%)", or " *  4.30%*" when the
 * difference is significant.  The gain is MMTests' pdiff for rates
 * (new / base x 100 - 100) and pndiff for times (100 - new / base x 100):
 * positive is better in both.  MMTests marks significance with a t-test;
 * here it is the Mann-Whitney U test the other tables use
 * (sim/experiment/stats.h), at --alpha.
 */
#include "sim/output/eval_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sim/output/json.h"
#include "sim/output/run_report.h"
#include "sim/xalloc.h"

#define VALUE_WIDTH 12          /* MMTests' field length */
#define GAIN_WIDTH 10           /* " (%6.2f%%)" */

void eval_table_name(const struct eval_table *tb, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", tb->benchmark, tb->config[0] ? " " : "", tb->config);
}

void eval_format_value(char *buf, size_t len, double v)
{
	int decimals = 2;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (v != 0 && fabs(v) < 10)
		decimals = 3 - (int)floor(log10(fabs(v)));
	if (decimals < 2)
		decimals = 2;
	if (decimals > 8)
		decimals = 8;
	snprintf(buf, len, "%.*f", decimals, v);
}

static const char *op_name(const struct eval_result_table *rt, int r)
{
	return rt->t.rows[r].higher_better ? "Hmean" : "Amean";
}

static void gain_text(char *buf, size_t len, const struct eval_result_table *rt, int r, int c)
{
	const struct eval_result_cell *rc = &rt->cells[r * rt->t.ncols + c];

	if (c == 0 && !isnan(rc->center))
		snprintf(buf, len, " (%6.2f%%)", 0.0);
	else if (isnan(rc->gain_pct))
		snprintf(buf, len, "%*s", GAIN_WIDTH, "");
	else if (rc->significant)
		snprintf(buf, len, " *%6.2f%%*", rc->gain_pct);
	else
		snprintf(buf, len, " (%6.2f%%)", rc->gain_pct);
}

static void better_text(char *buf, size_t len, const struct eval_result_table *rt)
{
	const struct report_row *row = NULL;

	for (int r = 0; r < rt->t.nrows && !row; r++)
		if (rt->t.rows[r].metric[0])
			row = &rt->t.rows[r];
	if (!row) {
		snprintf(buf, len, "no figure");
		return;
	}
	snprintf(buf, len, "%s, %s; %s: %s is better", row->metric, row->unit,
		 row->higher_better ? "Hmean" : "Amean", row->higher_better ? "higher" : "lower");
}

static void header(FILE *f, const struct eval_report *r, const char *prefix)
{
	const struct eval_preset *p = r->preset;

	fprintf(f, "%sschedsim %s: --eval=%s, %s\n", prefix, PACKAGE_VERSION, p->name, p->title);
	fprintf(f, "%sPublished: %s\n", prefix, p->source);
	fprintf(f, "%s%d iteration%s per cell, iteration i of every cell with the same seed; "
		"%d cells, %d runs\n", prefix, r->ev->iterations, r->ev->iterations == 1 ? "" : "s",
		r->ev->ncells, r->ev->nruns);
}

static void footer(FILE *f, const struct eval_report *r, const char *prefix)
{
	fprintf(f, "%s(%%): gain against the first column, positive is better (100 - new/base x 100 "
		"for times, new/base x 100 - 100 for rates); *%%*: significant, Mann-Whitney U "
		"p < %g\n", prefix, r->alpha);
}

static void text_table(FILE *f, const struct eval_result_table *rt)
{
	const struct eval_table *tb = &rt->preset->tables[rt->table];
	const struct report_table *t = &rt->t;
	int namew = 0, *colw = xcalloc((size_t)t->ncols + 1, sizeof(*colw));
	char name[300], what[200], v[64], g[64];

	eval_table_name(tb, name, sizeof(name));
	better_text(what, sizeof(what), rt);
	fprintf(f, "%s (%s)\n", name, what);
	for (int r = 0; r < t->nrows; r++)
		if ((int)strlen(tb->rows[r].name) > namew)
			namew = (int)strlen(tb->rows[r].name);
	if ((int)strlen(tb->param) > namew)
		namew = (int)strlen(tb->param);
	for (int c = 0; c < t->ncols; c++) {
		colw[c] = VALUE_WIDTH + GAIN_WIDTH;
		if ((int)strlen(t->cols[c]) + 2 > colw[c])
			colw[c] = (int)strlen(t->cols[c]) + 2;
	}
	fprintf(f, "%-5s %-*s", "", namew, tb->param);
	for (int c = 0; c < t->ncols; c++)
		fprintf(f, "%*s", colw[c], t->cols[c]);
	fputc('\n', f);
	for (int r = 0; r < t->nrows; r++) {
		fprintf(f, "%-5s %-*s", op_name(rt, r), namew, tb->rows[r].name);
		for (int c = 0; c < t->ncols; c++) {
			eval_format_value(v, sizeof(v), rt->cells[r * t->ncols + c].center);
			gain_text(g, sizeof(g), rt, r, c);
			fprintf(f, "%*s%s", colw[c] - GAIN_WIDTH, v, g);
		}
		fputc('\n', f);
	}
	free(colw);
}

/* Copies text to f without the blanks that padding leaves at line ends. */
static void put_trimmed(FILE *out, const char *text, size_t len)
{
	size_t start = 0;

	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		size_t end = i;

		while (end > start && text[end - 1] == ' ')
			end--;
		fwrite(text + start, 1, end - start, out);
		if (i < len)
			fputc('\n', out);
		start = i + 1;
	}
}

void eval_report_text(FILE *out, const struct eval_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	header(f, r, "");
	for (int t = 0; t < r->ntables; t++) {
		fputc('\n', f);
		text_table(f, &r->tables[t]);
	}
	fputc('\n', f);
	footer(f, r, "");
	fclose(f);
	put_trimmed(out, buf, len);
	free(buf);
}

static void markdown_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '*' || *s == '_' || *s == '~')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void eval_report_markdown(FILE *f, const struct eval_report *r)
{
	char name[300], what[200], v[64], g[64];

	header(f, r, "");
	for (int i = 0; i < r->ntables; i++) {
		const struct eval_result_table *rt = &r->tables[i];
		const struct eval_table *tb = &rt->preset->tables[rt->table];
		const struct report_table *t = &rt->t;

		eval_table_name(tb, name, sizeof(name));
		better_text(what, sizeof(what), rt);
		fputs("\n**", f);
		markdown_text(f, name);
		fputs("** (", f);
		markdown_text(f, what);
		fputs(")\n\n| | ", f);
		markdown_text(f, tb->param);
		fputs(" |", f);
		for (int c = 0; c < t->ncols; c++) {
			fputc(' ', f);
			markdown_text(f, t->cols[c]);
			fputs(" |", f);
		}
		fputs("\n|---|---|", f);
		for (int c = 0; c < t->ncols; c++)
			fputs("---:|", f);
		fputc('\n', f);
		for (int row = 0; row < t->nrows; row++) {
			fprintf(f, "| %s | ", op_name(rt, row));
			markdown_text(f, tb->rows[row].name);
			fputs(" |", f);
			for (int c = 0; c < t->ncols; c++) {
				char *s = g;

				eval_format_value(v, sizeof(v), rt->cells[row * t->ncols + c].center);
				gain_text(g, sizeof(g), rt, row, c);
				while (*s == ' ')
					s++;
				fprintf(f, " %s ", v);
				markdown_text(f, s);
				fputs(" |", f);
			}
			fputc('\n', f);
		}
	}
	fputc('\n', f);
	footer(f, r, "");
}

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
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, "%.10g", v);
}

void eval_report_csv(FILE *f, const struct eval_report *r)
{
	fputs("eval,benchmark,config,row,column,metric,unit,better,center_kind,n,center,mean,"
	      "stddev,min,max,gain_pct,p_value,significant\n", f);
	for (int i = 0; i < r->ntables; i++) {
		const struct eval_result_table *rt = &r->tables[i];
		const struct eval_table *tb = &rt->preset->tables[rt->table];
		const struct report_table *t = &rt->t;

		for (int row = 0; row < t->nrows; row++)
			for (int c = 0; c < t->ncols; c++) {
				const struct report_row *rw = &t->rows[row];
				const struct report_cell *cell = &t->cells[row * t->ncols + c];
				const struct eval_result_cell *rc = &rt->cells[row * t->ncols + c];
				const char *const fields[] = { r->preset->name, tb->benchmark, tb->config,
							       tb->rows[row].name, t->cols[c],
							       rw->metric, rw->unit };

				for (int k = 0; k < 7; k++) {
					if (k)
						fputc(',', f);
					csv_string(f, fields[k]);
				}
				fprintf(f, ",%s,%s,%d", !rw->metric[0] ? "" :
					rw->higher_better ? "higher" : "lower",
					!rw->metric[0] ? "" : rw->higher_better ? "hmean" : "amean",
					cell->n);
				csv_number(f, rc->center);
				csv_number(f, cell->n ? cell->s.mean : NAN);
				csv_number(f, cell->n > 1 ? cell->s.stddev : NAN);
				csv_number(f, cell->n ? cell->s.min : NAN);
				csv_number(f, cell->n ? cell->s.max : NAN);
				csv_number(f, rc->gain_pct);
				csv_number(f, cell->has_cmp ? cell->mwu.p : NAN);
				fprintf(f, ",%s\n", cell->has_cmp ? (rc->significant ? "yes" : "no") : "");
			}
	}
}

static void num(struct json *j, const char *key, double v)
{
	json_double(j, key, v, 17);
}

static void json_table(struct json *j, const struct eval_report *r,
		       const struct eval_result_table *rt)
{
	const struct eval_table *tb = &rt->preset->tables[rt->table];
	const struct report_table *t = &rt->t;
	const struct report_row *fig = NULL;

	for (int row = 0; row < t->nrows && !fig; row++)
		if (t->rows[row].metric[0])
			fig = &t->rows[row];
	json_object_begin(j, NULL);
	json_string(j, "benchmark", tb->benchmark);
	json_string(j, "config", tb->config);
	json_string(j, "param", tb->param);
	json_string(j, "metric", fig ? fig->metric : "");
	json_string(j, "unit", fig ? fig->unit : "");
	json_string(j, "better", !fig ? "" : fig->higher_better ? "higher" : "lower");
	json_string(j, "center", !fig ? "" : fig->higher_better ? "hmean" : "amean");
	json_array_begin(j, "columns");
	for (int c = 0; c < t->ncols; c++)
		json_string(j, NULL, t->cols[c]);
	json_array_end(j);
	json_array_begin(j, "rows");
	for (int row = 0; row < t->nrows; row++) {
		json_object_begin(j, NULL);
		json_string(j, "name", tb->rows[row].name);
		json_array_begin(j, "cells");
		for (int c = 0; c < t->ncols; c++) {
			const struct report_cell *cell = &t->cells[row * t->ncols + c];
			const struct eval_result_cell *rc = &rt->cells[row * t->ncols + c];
			const struct eval_cell *ec = rc->first_run >= 0 ?
				&r->ev->cells[rc->first_run / r->ev->iterations] : NULL;

			json_object_begin(j, NULL);
			json_string(j, "column", t->cols[c]);
			json_bool(j, "run", rc->run);
			if (ec) {
				json_string(j, "sched", ec->spec.text);
				json_string(j, "host", ec->host);
				json_string(j, "workload", ec->workload);
				json_string(j, "dom0_load", ec->dom0_load);
				json_string(j, "scenario", ec->sc.source);
				json_int(j, "first_run", rc->first_run);
			}
			json_int(j, "n", cell->n);
			num(j, "center", rc->center);
			num(j, "mean", cell->n ? cell->s.mean : NAN);
			num(j, "stddev", cell->n > 1 ? cell->s.stddev : NAN);
			num(j, "min", cell->n ? cell->s.min : NAN);
			num(j, "max", cell->n ? cell->s.max : NAN);
			num(j, "gain_pct", rc->gain_pct);
			num(j, "p_value", cell->has_cmp ? cell->mwu.p : NAN);
			if (cell->has_cmp)
				json_bool(j, "significant", rc->significant);
			else
				json_null(j, "significant");
			json_array_begin(j, "values");
			for (int i = 0; i < cell->n; i++)
				num(j, NULL, cell->values[i]);
			json_array_end(j);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

void eval_report_json(FILE *f, const struct eval_report *r)
{
	struct json j;

	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_string(&j, "version", PACKAGE_VERSION);
	json_string(&j, "eval", r->preset->name);
	json_string(&j, "title", r->preset->title);
	json_string(&j, "source", r->preset->source);
	json_int(&j, "iterations", r->ev->iterations);
	num(&j, "alpha", r->alpha);
	json_array_begin(&j, "runs");
	for (int i = 0; i < r->ev->nruns; i++)
		run_result_json(&j, &r->ev->runs[i]);
	json_array_end(&j);
	json_array_begin(&j, "tables");
	for (int t = 0; t < r->ntables; t++)
		json_table(&j, r, &r->tables[t]);
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}
