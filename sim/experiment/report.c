/*
 * The comparison-table model: cells of values, their statistics, and the
 * comparison of every column against the baseline column (see report.h).
 * The formats in report_text.c and report_data.c only print what is
 * computed here, so every format shows the same numbers.
 */
#include "sim/experiment/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

void report_init(struct report_table *t, int nrows, int ncols)
{
	memset(t, 0, sizeof(*t));
	t->nrows = nrows;
	t->ncols = ncols;
	t->rows = xcalloc(nrows > 0 ? nrows : 1, sizeof(*t->rows));
	t->cols = xcalloc(ncols > 0 ? ncols : 1, sizeof(*t->cols));
	t->cells = xcalloc(nrows * ncols > 0 ? (size_t)nrows * ncols : 1, sizeof(*t->cells));
	t->alpha = 0.05;
	t->confidence = 0.95;
}

void report_free(struct report_table *t)
{
	for (int i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].values);
	for (int i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cells);
	free(t->cols);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

struct report_cell *report_cell(struct report_table *t, int row, int col)
{
	return &t->cells[row * t->ncols + col];
}

void report_add_value(struct report_cell *c, double v)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->values = xreallocarray(c->values, c->cap, sizeof(*c->values));
	}
	c->values[c->n++] = v;
}

static void compare_cell(struct report_cell *c, const struct report_cell *base)
{
	if (c->n == 0 || base->n == 0 || !(base->s.mean != 0))
		return;
	c->has_cmp = true;
	c->delta_pct = (c->s.mean - base->s.mean) / base->s.mean * 100;
	c->speedup = c->s.mean / base->s.mean;
	stats_mann_whitney(base->values, base->n, c->values, c->n, &c->mwu);
}

void report_compute(struct report_table *t)
{
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			struct report_cell *cell = report_cell(t, r, c);

			stats_summarize(cell->values, cell->n, t->confidence, &cell->s);
		}
		for (int c = 1; c < t->ncols; c++)
			compare_cell(report_cell(t, r, c), report_cell(t, r, 0));
	}
}

const char *report_dom0_name(const char *dom0_load)
{
	if (!strcmp(dom0_load, "off"))
		return "no dom0 load";
	if (!strcmp(dom0_load, "on"))
		return "with dom0 load";
	if (!dom0_load[0])
		return "default";
	return dom0_load;
}

void report_row_name(const struct report_row *r, char *buf, size_t len)
{
	const char *w = r->workload[0] ? r->workload : (r->metric[0] ? r->metric : "default");

	if (r->config[0])
		snprintf(buf, len, "%s %s", r->config, w);
	else
		snprintf(buf, len, "%s", w);
	if (r->dom0_load[0]) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " dom0=%s", r->dom0_load);
	}
	if (r->host[0]) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " host:%s", r->host);
	}
}

void report_bench_name(const struct report_row *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", r->workload[0] ? r->workload : r->metric,
		 r->host[0] ? " host:" : "", r->host);
}
