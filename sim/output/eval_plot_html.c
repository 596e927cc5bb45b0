/*
 * A named evaluation's tables as pictures: the HTML page of --report (one
 * self-contained file, as sim/output/report_html.c writes an experiment's:
 * the same head, style and policy, inline SVG charts) and the gnuplot
 * pictures of --plot (one per table, sim/output/plot.h's plot_table).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sim/output/eval_report.h"
#include "sim/output/plot.h"
#include "sim/output/report_html.h"
#include "sim/output/svg_chart.h"
#include "sim/xalloc.h"

static void text(FILE *f, const char *s)
{
	svg_text(f, s);
}

static void meta(FILE *f, const struct eval_report *r)
{
	fputs("<table class=\"meta\">\n<tr><th>Evaluation</th><td><code>", f);
	text(f, r->preset->name);
	fputs("</code>: ", f);
	text(f, r->preset->title);
	fputs("</td></tr>\n<tr><th>Published</th><td>", f);
	text(f, r->preset->source);
	fputs("</td></tr>\n<tr><th>Command</th><td><code class=\"cmd\">", f);
	text(f, r->command ? r->command : "");
	fprintf(f, "</code></td></tr>\n<tr><th>Iterations</th><td>%d per cell; iteration <i>i</i> "
		"of every cell runs with the same seed (%d cells, %d runs)</td></tr>\n"
		"<tr><th>Statistics</th><td>Amean of times, Hmean of rates; the gain against the "
		"first column in per cent, positive when better (MMTests' pndiff and pdiff), "
		"between stars when significant (Mann-Whitney U, alpha = %g)</td></tr>\n"
		"<tr><th>schedsim</th><td>%s</td></tr>\n</table>\n", r->ev->iterations,
		r->ev->ncells, r->ev->nruns, r->alpha, PACKAGE_VERSION);
}

static void html_table(FILE *f, const struct eval_result_table *rt)
{
	const struct eval_table *tb = &rt->preset->tables[rt->table];
	const struct report_table *t = &rt->t;
	char v[64];

	fputs("<table class=\"stats\">\n<tr><th></th><th>", f);
	text(f, tb->param);
	fputs("</th>", f);
	for (int c = 0; c < t->ncols; c++) {
		fputs("<th colspan=\"2\">", f);
		text(f, t->cols[c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (int r = 0; r < t->nrows; r++) {
		fprintf(f, "<tr><td>%s</td><td>", t->rows[r].higher_better ? "Hmean" : "Amean");
		text(f, tb->rows[r].name);
		fputs("</td>", f);
		for (int c = 0; c < t->ncols; c++) {
			const struct eval_result_cell *rc = &rt->cells[r * t->ncols + c];

			eval_format_value(v, sizeof(v), rc->center);
			fprintf(f, "<td class=\"num\">%s</td><td class=\"num\">", v);
			if (c == 0 && !isnan(rc->center))
				fputs("(0.00%)", f);
			else if (!isnan(rc->gain_pct))
				fprintf(f, rc->significant ? "<b>*%.2f%%*</b>" : "(%.2f%%)",
					rc->gain_pct);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void metric_label(char *buf, size_t len, const struct report_table *t)
{
	for (int r = 0; r < t->nrows; r++)
		if (t->rows[r].metric[0]) {
			snprintf(buf, len, "%s (%s), %s is better", t->rows[r].metric,
				 t->rows[r].unit, t->rows[r].higher_better ? "higher" : "lower");
			return;
		}
	snprintf(buf, len, "no figure");
}

static void chart(FILE *f, const struct eval_result_table *rt, const char *name)
{
	const struct report_table *t = &rt->t;
	int n = t->nrows * t->ncols;
	const char **groups = xcalloc((size_t)t->nrows + 1, sizeof(*groups));
	double *mean = xcalloc((size_t)n + 1, sizeof(*mean));
	double *lo = xcalloc((size_t)n + 1, sizeof(*lo));
	double *hi = xcalloc((size_t)n + 1, sizeof(*hi));
	const double **values = xcalloc((size_t)n + 1, sizeof(*values));
	int *nvalues = xcalloc((size_t)n + 1, sizeof(*nvalues));
	char ylabel[200];
	const char *unit = "";
	struct svg_bars b;

	metric_label(ylabel, sizeof(ylabel), t);
	for (int r = 0; r < t->nrows; r++) {
		groups[r] = t->rows[r].workload;
		if (t->rows[r].unit[0])
			unit = t->rows[r].unit;
	}
	for (int k = 0; k < n; k++) {
		const struct report_cell *c = &t->cells[k];

		mean[k] = c->n ? c->s.mean : NAN;
		lo[k] = c->s.has_mean_ci ? c->s.mean_lo : NAN;
		hi[k] = c->s.has_mean_ci ? c->s.mean_hi : NAN;
		values[k] = c->values;
		nvalues[k] = c->n;
	}
	b = (struct svg_bars){ name, ylabel, unit, t->nrows, t->ncols, groups,
			       (const char *const *)t->cols, mean, lo, hi, values, nvalues };
	fputs("<figure>", f);
	svg_bars(f, &b);
	fputs("<figcaption>Bars: the mean of the iterations, whiskers: its 95 % interval, "
	      "dots: the iterations.</figcaption></figure>\n", f);
	free(groups);
	free(mean);
	free(lo);
	free(hi);
	free(values);
	free(nvalues);
}

void eval_report_html(FILE *f, const struct eval_report *r)
{
	char name[300], *title = NULL;
	size_t tlen = 0;
	FILE *t = open_memstream(&title, &tlen);

	fputs("schedsim: --eval=", t);
	text(t, r->preset->name);
	fclose(t);
	html_page_begin(f, title);
	free(title);
	fputs("<h1>schedsim: ", f);
	text(f, r->preset->title);
	fputs("</h1>\n", f);
	meta(f, r);
	for (int i = 0; i < r->ntables; i++) {
		const struct eval_result_table *rt = &r->tables[i];

		eval_table_name(&rt->preset->tables[rt->table], name, sizeof(name));
		fputs("<h2>", f);
		text(f, name);
		fputs("</h2>\n", f);
		html_table(f, rt);
		fputs("<div class=\"figs\">", f);
		chart(f, rt, name);
		fputs("</div>\n", f);
	}
	html_page_end(f);
}

int eval_report_plot(const struct plot_cli *c, const struct eval_report *r, struct err *e)
{
	char name[300], file[320];

	for (int i = 0; i < r->ntables; i++) {
		const struct eval_result_table *rt = &r->tables[i];

		eval_table_name(&rt->preset->tables[rt->table], name, sizeof(name));
		snprintf(file, sizeof(file), "eval-%s", name);
		if (plot_table(c, file, name, &rt->t, r->ev->iterations, e) < 0)
			return -1;
	}
	return 0;
}
