/*
 * `schedsim validate`'s report (sim/experiment/validate.h) as text, JSON
 * and one self-contained HTML page: each published figure beside the
 * model's, with the error model / real - 1, then each comparison's sign,
 * real and model, and whether they agree.
 */
#include "sim/output/validate_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sim/output/eval_report.h"
#include "sim/output/json.h"
#include "sim/output/report_html.h"
#include "sim/output/svg_chart.h"
#include "sim/xalloc.h"

static const char *sign_text(int s)
{
	return s > 0 ? "+" : s < 0 ? "-" : "0";
}

static void figure_names(const struct validation_figure *f, char *table, size_t tlen,
			 const char **row, const char **col)
{
	eval_table_name(&f->preset->tables[f->table], table, tlen);
	*row = f->preset->tables[f->table].rows[f->row].name;
	*col = f->preset->tables[f->table].cols[f->col].name;
}

struct summary {
	int figs, within5, within10, cmps, right;
	double median_abs;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void summarize(const struct validation *v, struct summary *s)
{
	double *abs_err = xcalloc((size_t)v->nfigs + 1, sizeof(*abs_err));

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < v->nfigs; i++)
		if (v->figs[i].pub && !isnan(v->figs[i].error)) {
			double a = fabs(v->figs[i].error);

			abs_err[s->figs++] = a;
			s->within5 += a <= 0.05;
			s->within10 += a <= 0.10;
		}
	qsort(abs_err, (size_t)s->figs, sizeof(*abs_err), cmp_double);
	s->median_abs = !s->figs ? NAN : s->figs % 2 ? abs_err[s->figs / 2] :
		(abs_err[s->figs / 2 - 1] + abs_err[s->figs / 2]) / 2;
	free(abs_err);
	s->cmps = v->ncmps;
	for (int i = 0; i < v->ncmps; i++)
		s->right += v->cmps[i].right;
}

static void fmt_error(char *buf, size_t len, double e)
{
	if (isnan(e))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f %%", e * 100);
}

void validate_report_text(FILE *f, const struct validation *v)
{
	int w[4] = { 10, 5, 3, 6 };
	char table[300], real[64], model[64], err[64];
	const char *row, *col;
	struct summary s;
	int wid = 0;

	fprintf(f, "schedsim %s validate: the published figures against the model's, %d "
		"iteration%s per cell (%d cells, %d runs)", PACKAGE_VERSION, v->ev.iterations,
		v->ev.iterations == 1 ? "" : "s", v->ev.ncells, v->ev.nruns);
	if (v->floor_ev.ncells)
		fprintf(f, "; %d for the orders whose entry sets that floor (%d cells, %d runs)",
			v->floor_iterations, v->floor_ev.ncells, v->floor_ev.nruns);
	fprintf(f, "\n\n");
	for (int i = 0; i < v->nfigs; i++) {
		const struct validation_figure *fg = &v->figs[i];
		int l[4];

		if (!fg->pub)
			continue;
		figure_names(fg, table, sizeof(table), &row, &col);
		l[0] = (int)strlen(fg->preset->name);
		l[1] = (int)strlen(table);
		l[2] = (int)strlen(row) + (fg->pub->per_row ? (int)strlen(fg->pub->per_row) + 3 : 0);
		l[3] = (int)strlen(col);
		for (int k = 0; k < 4; k++)
			w[k] = l[k] > w[k] ? l[k] : w[k];
	}
	fprintf(f, "%-*s  %-*s  %-*s  %-*s  %10s  %10s  %8s  %s\n", w[0], "evaluation", w[1],
		"table", w[2], "row", w[3], "column", "real", "model", "error", "n");
	for (int i = 0; i < v->nfigs; i++) {
		const struct validation_figure *fg = &v->figs[i];
		char rowname[300];

		if (!fg->pub)
			continue;
		figure_names(fg, table, sizeof(table), &row, &col);
		if (fg->pub->per_row)
			snprintf(rowname, sizeof(rowname), "%s / %s", row, fg->pub->per_row);
		else
			snprintf(rowname, sizeof(rowname), "%s", row);
		eval_format_value(real, sizeof(real), fg->real);
		eval_format_value(model, sizeof(model), fg->model);
		fmt_error(err, sizeof(err), fg->error);
		fprintf(f, "%-*s  %-*s  %-*s  %-*s  %10s  %10s  %8s  %d\n", w[0], fg->preset->name,
			w[1], table, w[2], rowname, w[3], col, real, model, err, fg->n);
	}
	for (int i = 0; i < v->ncmps; i++)
		if ((int)strlen(v->cmps[i].id) > wid)
			wid = (int)strlen(v->cmps[i].id);
	fprintf(f, "\nSigns of a - b (comparison \"a vs b\"): real and model; p: the Mann-Whitney "
		"U test of the model's two cells\n%-5s  %-*s  %4s  %5s  %5s\n", "", wid,
		"comparison", "real", "model", "p");
	for (int i = 0; i < v->ncmps; i++) {
		const struct validation_comparison *k = &v->cmps[i];
		char p[32];

		if (isnan(k->p))
			snprintf(p, sizeof(p), "-");
		else
			snprintf(p, sizeof(p), "%.3f", k->p);
		fprintf(f, "%-5s  %-*s  %4s  %5s  %5s", k->right ? "right" : "WRONG", wid, k->id,
			sign_text(k->real_sign), sign_text(k->model_sign), p);
		if (k->floor)
			fprintf(f, "  iterations: %d (the entry's floor %d)", k->iterations, k->floor);
		fprintf(f, "\n");
	}
	summarize(v, &s);
	fprintf(f, "\n%d of %d signs right; %d figures: %d within 5 %%, %d within 10 %%, median "
		"|error| %.1f %%\n", s.right, s.cmps, s.figs, s.within5, s.within10,
		s.median_abs * 100);
}

static void num(struct json *j, const char *key, double v)
{
	json_double(j, key, v, 17);
}

void validate_report_json(FILE *out, const struct validation *v)
{
	struct json j;
	struct summary s;
	char table[300];
	const char *row, *col;

	summarize(v, &s);
	json_init(&j, out);
	json_object_begin(&j, NULL);
	json_string(&j, "version", PACKAGE_VERSION);
	json_int(&j, "iterations", v->ev.iterations);
	num(&j, "alpha", v->alpha);
	json_array_begin(&j, "figures");
	for (int i = 0; i < v->nfigs; i++) {
		const struct validation_figure *fg = &v->figs[i];

		if (!fg->pub)
			continue;
		figure_names(fg, table, sizeof(table), &row, &col);
		json_object_begin(&j, NULL);
		json_string(&j, "evaluation", fg->preset->name);
		json_string(&j, "table", table);
		json_string(&j, "row", row);
		json_string(&j, "column", col);
		if (fg->pub->per_row)
			json_string(&j, "per_row", fg->pub->per_row);
		else
			json_null(&j, "per_row");
		num(&j, "real", fg->real);
		num(&j, "model", fg->model);
		json_int(&j, "n", fg->n);
		num(&j, "error", fg->error);
		json_string(&j, "source", fg->pub->source);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_array_begin(&j, "comparisons");
	for (int i = 0; i < v->ncmps; i++) {
		const struct validation_comparison *k = &v->cmps[i];

		json_object_begin(&j, NULL);
		json_string(&j, "id", k->id);
		json_string(&j, "kind", k->kind);
		json_int(&j, "real_sign", k->real_sign);
		json_int(&j, "model_sign", k->model_sign);
		json_bool(&j, "right", k->right);
		num(&j, "p", k->p);
		json_int(&j, "iterations", k->iterations);
		if (k->floor)
			json_int(&j, "iterations_floor", k->floor);
		else
			json_null(&j, "iterations_floor");
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_begin(&j, "summary");
	json_int(&j, "figures", s.figs);
	json_int(&j, "within_5pct", s.within5);
	json_int(&j, "within_10pct", s.within10);
	num(&j, "median_abs_error", s.median_abs);
	json_int(&j, "comparisons", s.cmps);
	json_int(&j, "right", s.right);
	json_object_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

static void text(FILE *f, const char *s)
{
	svg_text(f, s);
}

void validate_report_html(FILE *f, const struct validation *v, const char *command)
{
	char table[300], real[64], model[64], err[64];
	const char *row, *col;
	struct summary s;

	summarize(v, &s);
	html_page_begin(f, "schedsim: validate");
	fputs("<h1>schedsim validate: the published figures against the model's</h1>\n"
	      "<table class=\"meta\">\n<tr><th>Command</th><td><code class=\"cmd\">", f);
	text(f, command ? command : "");
	fprintf(f, "</code></td></tr>\n<tr><th>Iterations</th><td>%d per cell (%d cells, %d "
		"runs)</td></tr>\n<tr><th>Model figure</th><td>Amean of times, Hmean of rates; "
		"error = model / real &minus; 1</td></tr>\n<tr><th>Summary</th><td>%d of %d signs "
		"right; %d figures: %d within 5 %%, %d within 10 %%</td></tr>\n"
		"<tr><th>schedsim</th><td>%s</td></tr>\n</table>\n", v->ev.iterations, v->ev.ncells,
		v->ev.nruns, s.right, s.cmps, s.figs, s.within5, s.within10, PACKAGE_VERSION);
	if (v->floor_ev.ncells)
		fprintf(f, "<p class=\"note\">The orders whose entry sets a floor above that ran "
			"%d iterations per cell (%d cells, %d runs).</p>\n", v->floor_iterations,
			v->floor_ev.ncells, v->floor_ev.nruns);
	fputs("<h2>Figures</h2>\n<table class=\"stats\">\n<tr><th>evaluation</th><th>table</th>"
	      "<th>row</th><th>column</th><th>real</th><th>model</th><th>error</th><th>n</th>"
	      "<th>published</th></tr>\n", f);
	for (int i = 0; i < v->nfigs; i++) {
		const struct validation_figure *fg = &v->figs[i];

		if (!fg->pub)
			continue;
		figure_names(fg, table, sizeof(table), &row, &col);
		eval_format_value(real, sizeof(real), fg->real);
		eval_format_value(model, sizeof(model), fg->model);
		fmt_error(err, sizeof(err), fg->error);
		fputs("<tr><td>", f);
		text(f, fg->preset->name);
		fputs("</td><td>", f);
		text(f, table);
		fputs("</td><td>", f);
		text(f, row);
		if (fg->pub->per_row) {
			fputs(" / ", f);
			text(f, fg->pub->per_row);
		}
		fputs("</td><td>", f);
		text(f, col);
		fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
			"<td class=\"num\">%s</td><td class=\"num\">%d</td><td>", real, model, err,
			fg->n);
		text(f, fg->pub->source);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<h2>Signs</h2>\n<p class=\"note\">The sign of a &minus; b for each "
	      "comparison \"a vs b\", real and model; p: the Mann-Whitney U test of the model's "
	      "two cells.</p>\n<table class=\"stats\">\n<tr><th></th><th>comparison</th>"
	      "<th>real</th><th>model</th><th>p</th></tr>\n", f);
	for (int i = 0; i < v->ncmps; i++) {
		const struct validation_comparison *k = &v->cmps[i];

		fprintf(f, "<tr><td%s>%s</td><td>", k->right ? "" : " class=\"err\"",
			k->right ? "right" : "wrong");
		text(f, k->id);
		if (k->floor)
			fprintf(f, " (iterations: %d, the entry's floor %d)", k->iterations, k->floor);
		fprintf(f, "</td><td>%s</td><td>%s</td><td class=\"num\">", sign_text(k->real_sign),
			sign_text(k->model_sign));
		if (isnan(k->p))
			fputs("-", f);
		else
			fprintf(f, "%.3f", k->p);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	html_page_end(f);
}
