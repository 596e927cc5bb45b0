/*
 * Loading saved results for `schedsim compare` (see compare.h).
 *
 * The summary entries of an experiment carry their values, so the tests
 * are redone here on the raw iterations, not on rounded summaries.  Files
 * written by a single run (no summary) still compare: each run's metric is
 * one value of its (label, workload, dom0 load) cell.
 */
#include "sim/experiment/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/input/json_read.h"
#include "sim/xalloc.h"

struct centry {
	int file, row;
	char scheduler[64];
	double *v;
	int n;
};

struct cload {
	struct report_row *rows;
	int nrows;
	struct centry *ents;
	int nents;
};

static int find_row(struct cload *L, const char *config, const char *host,
		    const char *workload, const char *dom0, const char *metric,
		    const char *unit, bool higher)
{
	struct report_row *r;

	for (int i = 0; i < L->nrows; i++) {
		r = &L->rows[i];
		if (!strcmp(r->config, config) && !strcmp(r->host, host) &&
		    !strcmp(r->workload, workload) && !strcmp(r->dom0_load, dom0))
			return i;
	}
	L->rows = xreallocarray(L->rows, L->nrows + 1, sizeof(*L->rows));
	r = &L->rows[L->nrows];
	memset(r, 0, sizeof(*r));
	snprintf(r->config, sizeof(r->config), "%s", config);
	snprintf(r->host, sizeof(r->host), "%s", host);
	snprintf(r->workload, sizeof(r->workload), "%s", workload);
	snprintf(r->dom0_load, sizeof(r->dom0_load), "%s", dom0);
	snprintf(r->metric, sizeof(r->metric), "%s", metric);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	r->higher_better = higher;
	return L->nrows++;
}

static struct centry *entry(struct cload *L, int file, int row, const char *sched)
{
	struct centry *c;

	for (int i = 0; i < L->nents; i++)
		if (L->ents[i].file == file && L->ents[i].row == row)
			return &L->ents[i];
	L->ents = xreallocarray(L->ents, L->nents + 1, sizeof(*L->ents));
	c = &L->ents[L->nents++];
	memset(c, 0, sizeof(*c));
	c->file = file;
	c->row = row;
	snprintf(c->scheduler, sizeof(c->scheduler), "%s", sched);
	return c;
}

static void add(struct centry *c, double v)
{
	c->v = xreallocarray(c->v, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = v;
}

static int load_summary(struct cload *L, int file, const char *path,
			const struct jval *sum, struct err *e)
{
	for (int i = 0; i < sum->n; i++) {
		const struct jval *s = &sum->items[i], *vals = jval_get(s, "values");
		const char *label = jval_get_string(s, "label", NULL);
		struct centry *c;
		int row;

		if (!label || !vals || vals->type != JVAL_ARRAY)
			return err_set(e, "%s:%d: summary entry without \"label\" or \"values\"",
				       path, s->line);
		row = find_row(L, label, jval_get_string(s, "host", ""),
			       jval_get_string(s, "workload", ""),
			       jval_get_string(s, "dom0_load", ""),
			       jval_get_string(s, "metric", ""), jval_get_string(s, "unit", ""),
			       !strcmp(jval_get_string(s, "better", ""), "higher"));
		c = entry(L, file, row, jval_get_string(s, "scheduler", ""));
		for (int k = 0; k < vals->n; k++) {
			if (vals->items[k].type != JVAL_NUMBER)
				return err_set(e, "%s:%d: \"values\" must hold numbers", path,
					       vals->items[k].line);
			add(c, vals->items[k].num);
		}
	}
	return 0;
}

static int load_runs(struct cload *L, int file, const char *path,
		     const struct jval *runs, struct err *e)
{
	for (int i = 0; i < runs->n; i++) {
		const struct jval *r = &runs->items[i], *m = jval_get(r, "metric");
		const struct jval *value = jval_get(m, "value");
		const char *label = jval_get_string(r, "label", jval_get_string(r, "scheduler", NULL));
		int row;

		if (!label)
			return err_set(e, "%s:%d: run without \"label\" or \"scheduler\"", path,
				       r->line);
		if (!m || m->type == JVAL_NULL)
			continue;       /* a run without a figure of merit */
		if (!value || value->type != JVAL_NUMBER)
			return err_set(e, "%s:%d: \"metric\" without a numeric \"value\"", path,
				       m->line);
		row = find_row(L, label, jval_get_string(r, "host", ""),
			       jval_get_string(r, "workload", ""),
			       jval_get_string(r, "dom0_load", ""),
			       jval_get_string(m, "name", ""), jval_get_string(m, "unit", ""),
			       !strcmp(jval_get_string(m, "better", ""), "higher"));
		add(entry(L, file, row, jval_get_string(r, "scheduler", "")), value->num);
	}
	return 0;
}

static int load_file(struct cload *L, int file, const char *path, struct err *e)
{
	struct jval doc;
	const struct jval *sum, *runs;
	int rc;

	if (jval_parse_file(path, &doc, e))
		return -1;
	sum = jval_get(&doc, "summary");
	runs = jval_get(&doc, "runs");
	if (sum && sum->type == JVAL_ARRAY)
		rc = load_summary(L, file, path, sum, e);
	else if (runs && runs->type == JVAL_ARRAY)
		rc = load_runs(L, file, path, runs, e);
	else
		rc = err_set(e, "%s: not a schedsim result (no \"summary\" or \"runs\" array)",
			     path);
	jval_free(&doc);
	return rc;
}

static void cload_free(struct cload *L)
{
	for (int i = 0; i < L->nents; i++)
		free(L->ents[i].v);
	free(L->ents);
	free(L->rows);
}

int compare_load(const char *const *files, int nfiles, struct report_table *t,
		 struct err *e)
{
	struct cload L = { NULL, 0, NULL, 0 };

	for (int f = 0; f < nfiles; f++)
		if (load_file(&L, f, files[f], e)) {
			cload_free(&L);
			return -1;
		}
	if (L.nrows == 0) {
		cload_free(&L);
		return err_set(e, "%s: no results with a metric to compare", files[0]);
	}
	report_init(t, L.nrows, nfiles);
	t->compare = true;
	memcpy(t->rows, L.rows, L.nrows * sizeof(*L.rows));
	for (int f = 0; f < nfiles; f++)
		t->cols[f] = xstrdup(files[f]);
	for (int i = 0; i < L.nents; i++) {
		struct centry *c = &L.ents[i];
		struct report_cell *cell = report_cell(t, c->row, c->file);

		snprintf(cell->label, sizeof(cell->label), "%s", L.rows[c->row].config);
		snprintf(cell->scheduler, sizeof(cell->scheduler), "%s", c->scheduler);
		for (int k = 0; k < c->n; k++)
			report_add_value(cell, c->v[k]);
	}
	for (int r = 0; r < t->nrows; r++)
		for (int f = 0; f < nfiles; f++) {
			struct report_cell *cell = report_cell(t, r, f);

			if (!cell->label[0])
				snprintf(cell->label, sizeof(cell->label), "%s", t->rows[r].config);
		}
	cload_free(&L);
	report_compute(t);
	return 0;
}
