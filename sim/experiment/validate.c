/*
 * `schedsim validate` (see validate.h): the published figures' cells run
 * as one evaluation, each figure's model value and error, and the signs of
 * the comparisons the figures make.
 */
#include "sim/experiment/validate.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim/experiment/experiment.h"
#include "sim/xalloc.h"

/* ------------------------------------------------------------- lookup */

static int find_table(const struct eval_preset *p, const char *name)
{
	for (int t = 0; t < p->ntables; t++) {
		const struct eval_table *tb = &p->tables[t];
		size_t b = strlen(tb->benchmark);

		if (!strncmp(name, tb->benchmark, b) &&
		    (tb->config[0] ? name[b] == ' ' && !strcmp(name + b + 1, tb->config) : !name[b]))
			return t;
	}
	return -1;
}

static int find_axis(const struct eval_axis *a, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(a[i].name, name))
			return i;
	return -1;
}

/* A published cell's place: -1 with e naming what is not there. */
static int locate(const char *preset, const char *table, const char *row, const char *col,
		  const struct eval_preset **p, int *t, int *r, int *c, struct err *e)
{
	*p = eval_preset_find(preset);
	if (!*p)
		return err_set(e, "published figure: no evaluation '%s'", preset);
	*t = find_table(*p, table);
	if (*t < 0)
		return err_set(e, "published figure: %s has no table '%s'", preset, table);
	*r = find_axis((*p)->tables[*t].rows, (*p)->tables[*t].nrows, row);
	if (*r < 0)
		return err_set(e, "published figure: %s %s has no row '%s'", preset, table, row);
	*c = find_axis((*p)->tables[*t].cols, (*p)->tables[*t].ncols, col);
	if (*c < 0)
		return err_set(e, "published figure: %s %s has no column '%s'", preset, table, col);
	return 0;
}

int published_check(struct err *e)
{
	const struct published_figure *f;
	const struct published_order *o;
	const struct eval_preset *p;
	int n, t, r, c;

	f = published_figures(&n);
	for (int i = 0; i < n; i++)
		if (locate(f[i].preset, f[i].table, f[i].row, f[i].col, &p, &t, &r, &c, e) < 0 ||
		    (f[i].per_row &&
		     locate(f[i].preset, f[i].table, f[i].per_row, f[i].col, &p, &t, &r, &c, e) < 0))
			return -1;
	o = published_orders(&n);
	for (int i = 0; i < n; i++)
		if (locate(o[i].preset, o[i].table, o[i].row_a, o[i].col, &p, &t, &r, &c, e) < 0 ||
		    locate(o[i].preset, o[i].table, o[i].row_b, o[i].col, &p, &t, &r, &c, e) < 0)
			return -1;
	return 0;
}

/* ------------------------------------------------------------ prepare */

static bool named(const char *const *only, int nonly, const char *preset)
{
	if (nonly == 0)
		return true;
	for (int i = 0; i < nonly; i++)
		if (!strcmp(only[i], preset))
			return true;
	return false;
}

/* The cells validate runs: those of a published figure or order, in ev or floor_ev. */
static bool wanted_in(const struct validation *v, bool floored, const struct eval_preset *p,
		      int table, int row, int col)
{
	for (int i = 0; i < v->nfigs; i++) {
		const struct validation_figure *f = &v->figs[i];

		if (f->floored == floored && f->preset == p && f->table == table && f->col == col &&
		    (f->row == row || f->per_row == row))
			return true;
	}
	return false;
}

static bool wanted(const void *ctx, const struct eval_preset *p, int table, int row, int col)
{
	return wanted_in(ctx, false, p, table, row, col);
}

static bool wanted_floor(const void *ctx, const struct eval_preset *p, int table, int row,
			 int col)
{
	return wanted_in(ctx, true, p, table, row, col);
}

static const struct evaluation *fig_ev(const struct validation *v,
				       const struct validation_figure *f)
{
	return f->floored ? &v->floor_ev : &v->ev;
}

/*
 * Whether --rows keeps figure k: its row is named, or "first" is and no
 * figure of its table and column is in a row before it.
 */
static bool row_kept(const struct validation *v, int k, const char *const *rows, int nrows)
{
	const struct validation_figure *f = &v->figs[k];
	const char *name = f->preset->tables[f->table].rows[f->row].name;
	bool first = false;

	for (int i = 0; i < nrows; i++) {
		if (!strcmp(rows[i], name))
			return true;
		first = first || !strcmp(rows[i], "first");
	}
	if (!first)
		return false;
	for (int i = 0; i < v->nfigs; i++) {
		const struct validation_figure *g = &v->figs[i];

		if (g->pub && g->preset == f->preset && g->table == f->table &&
		    g->col == f->col && g->row < f->row)
			return false;
	}
	return true;
}

/* --rows: keeps the published figures of the rows named (validate.h); -1 for a name that is none. */
static int select_rows(struct validation *v, const char *const *rows, int nrows, struct err *e)
{
	bool *keep;
	int m = 0;

	for (int i = 0; i < nrows; i++) {
		bool found = !strcmp(rows[i], "first");

		for (int k = 0; k < v->nfigs && !found; k++) {
			const struct validation_figure *f = &v->figs[k];

			found = f->pub && !strcmp(rows[i], f->preset->tables[f->table].rows[f->row].name);
		}
		if (!found)
			return err_set(e, "validate: --rows: '%s' is not 'first' nor the row of a "
				       "published figure validated", rows[i]);
	}
	keep = xcalloc((size_t)v->nfigs + 1, sizeof(*keep));
	for (int k = 0; k < v->nfigs; k++)
		keep[k] = !v->figs[k].pub || row_kept(v, k, rows, nrows);
	for (int k = 0; k < v->nfigs; k++)
		if (keep[k])
			v->figs[m++] = v->figs[k];
	v->nfigs = m;
	free(keep);
	return 0;
}

int validate_prepare(struct validation *v, const char *const *only, int nonly,
		     const char *const *rows, int nrows,
		     const struct eval_options *o, struct err *e)
{
	const struct published_figure *pf;
	const struct published_order *po;
	const struct eval_preset *const *all;
	int n, np;

	memset(v, 0, sizeof(*v));
	all = eval_presets(&np);
	for (int i = 0; i < nonly; i++)
		if (!eval_preset_find(only[i]))
			return err_set(e, "validate: --only: '%s' is not a named evaluation", only[i]);
	if (published_check(e) < 0)
		return -1;
	pf = published_figures(&n);
	for (int i = 0; i < n; i++) {
		struct validation_figure f = { .pub = &pf[i], .per_row = -1, .cell = -1,
					       .per_cell = -1, .real = pf[i].value };

		if (!named(only, nonly, pf[i].preset))
			continue;
		locate(pf[i].preset, pf[i].table, pf[i].row, pf[i].col, &f.preset, &f.table,
		       &f.row, &f.col, e);
		if (pf[i].per_row)
			locate(pf[i].preset, pf[i].table, pf[i].per_row, pf[i].col, &f.preset,
			       &f.table, &f.per_row, &f.col, e);
		v->figs = xreallocarray(v->figs, (size_t)v->nfigs + 1, sizeof(*v->figs));
		v->figs[v->nfigs++] = f;
	}
	if (nrows > 0 && select_rows(v, rows, nrows, e) < 0)
		return -1;
	/*
	 * An order's two cells are figures without a value (pub NULL, real
	 * NaN); in floor_ev when the order's floor is above the iterations.
	 */
	po = published_orders(&n);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 2 && named(only, nonly, po[i].preset); k++) {
			struct validation_figure f = { .per_row = -1, .cell = -1, .per_cell = -1,
						       .real = NAN };

			if (po[i].min_iterations > o->iterations) {
				f.floored = true;
				if (po[i].min_iterations > v->floor_iterations)
					v->floor_iterations = po[i].min_iterations;
			}

			locate(po[i].preset, po[i].table, k ? po[i].row_b : po[i].row_a, po[i].col,
			       &f.preset, &f.table, &f.row, &f.col, e);
			v->figs = xreallocarray(v->figs, (size_t)v->nfigs + 1, sizeof(*v->figs));
			v->figs[v->nfigs++] = f;
		}
	eval_init(&v->ev, o);
	{
		struct eval_options fo = *o;

		fo.iterations = v->floor_iterations;
		eval_init(&v->floor_ev, &fo);
	}
	for (int i = 0; i < np; i++) {
		bool used = false, used_floor = false;

		for (int k = 0; k < v->nfigs; k++) {
			used = used || (v->figs[k].preset == all[i] && !v->figs[k].floored);
			used_floor = used_floor || (v->figs[k].preset == all[i] && v->figs[k].floored);
		}
		if (used && eval_add(&v->ev, all[i], wanted, v, e) < 0)
			return -1;
		if (used_floor && eval_add(&v->floor_ev, all[i], wanted_floor, v, e) < 0)
			return -1;
	}
	for (int k = 0; k < v->nfigs; k++) {
		struct validation_figure *f = &v->figs[k];
		const struct evaluation *ev = fig_ev(v, f);

		f->cell = eval_find(ev, f->preset, f->table, f->row, f->col);
		if (f->per_row >= 0)
			f->per_cell = eval_find(ev, f->preset, f->table, f->per_row, f->col);
	}
	return 0;
}

/* ------------------------------------------------------------ figures */

static double cell_center(const struct evaluation *ev, int k, int *n, double **values)
{
	const struct eval_cell *c = &ev->cells[k];
	double *x = xcalloc((size_t)ev->iterations + 1, sizeof(*x));
	bool higher = false;
	double center;
	int m = 0;

	for (int i = 0; i < ev->iterations; i++) {
		struct metric met;

		if (eval_figure(c, &ev->runs[k * ev->iterations + i], &met)) {
			x[m++] = met.value;
			higher = met.higher_better;
		}
	}
	center = higher ? stats_hmean(x, m) : stats_mean(x, m);
	*n = m;
	if (values)
		*values = x;
	else
		free(x);
	return center;
}

static int sign(double d)
{
	return (d > 0) - (d < 0);
}

static void add_cmp(struct validation *v, const char *kind, int a, int b, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void add_cmp(struct validation *v, const char *kind, int a, int b, const char *fmt, ...)
{
	const struct validation_figure *fa = &v->figs[a], *fb = &v->figs[b];
	struct validation_comparison k = { .a = a, .b = b, .cell_a = fa->cell, .cell_b = fb->cell,
					   .p = NAN, .iterations = fig_ev(v, fa)->iterations };
	double prec = fa->pub && fb->pub ? fmax(fa->pub->precision, fb->pub->precision) : 0;
	va_list ap;

	if (fa->per_row != fb->per_row)
		return;
	if (fa->pub && fb->pub) {
		if (fabs(fa->real - fb->real) <= prec * fmax(fabs(fa->real), fabs(fb->real)))
			return;
		k.real_sign = sign(fa->real - fb->real);
	}
	va_start(ap, fmt);
	vsnprintf(k.id, sizeof(k.id), fmt, ap);
	va_end(ap);
	snprintf(k.kind, sizeof(k.kind), "%s", kind);
	k.model_sign = sign(fa->model - fb->model);
	if (fa->per_row < 0 && fa->cell >= 0 && fb->cell >= 0) {
		double *x, *y;
		int nx, ny;
		struct mwu_result mw;

		cell_center(fig_ev(v, fa), fa->cell, &nx, &x);
		cell_center(fig_ev(v, fb), fb->cell, &ny, &y);
		if (nx && ny)
			k.p = stats_mann_whitney(x, nx, y, ny, &mw);
		free(x);
		free(y);
	}
	k.right = k.real_sign != 0 && k.model_sign == k.real_sign;
	v->cmps = xreallocarray(v->cmps, (size_t)v->ncmps + 1, sizeof(*v->cmps));
	v->cmps[v->ncmps++] = k;
}

static const char *tname(const struct validation_figure *f, char *buf, size_t len)
{
	const struct eval_table *tb = &f->preset->tables[f->table];

	snprintf(buf, len, "%s%s%s", tb->benchmark, tb->config[0] ? " " : "", tb->config);
	return buf;
}

/* The figure of (preset, table, row, col) with a published value, or -1. */
static int figure_at(const struct validation *v, const struct eval_preset *p, int t, int r,
		     int c)
{
	for (int i = 0; i < v->nfigs; i++) {
		const struct validation_figure *f = &v->figs[i];

		if (f->pub && f->preset == p && f->table == t && f->row == r && f->col == c)
			return i;
	}
	return -1;
}

static void comparisons(struct validation *v)
{
	char tn[300];
	int norders;
	const struct published_order *po = published_orders(&norders);

	for (int i = 0; i < v->nfigs; i++) {
		const struct validation_figure *f = &v->figs[i];
		const struct eval_table *tb;
		int j;

		if (!f->pub)
			continue;
		tb = &f->preset->tables[f->table];
		tname(f, tn, sizeof(tn));
		/* rows: against the row before with a figure, in this column */
		for (int r = f->row - 1; r >= 0; r--)
			if ((j = figure_at(v, f->preset, f->table, r, f->col)) >= 0) {
				add_cmp(v, "rows", i, j, "%s %s %s: %s vs %s", f->preset->name, tn,
					tb->cols[f->col].name, tb->rows[f->row].name,
					tb->rows[r].name);
				break;
			}
		/* columns: against the first column with a figure, in this row */
		for (int c = 0; c < f->col; c++)
			if ((j = figure_at(v, f->preset, f->table, f->row, c)) >= 0) {
				add_cmp(v, "columns", i, j, "%s %s %s: %s vs %s", f->preset->name,
					tn, tb->rows[f->row].name, tb->cols[f->col].name,
					tb->cols[c].name);
				break;
			}
		/* configurations: against the first table of this benchmark with a figure here */
		for (int t = 0; t < f->table; t++) {
			const struct eval_table *o = &f->preset->tables[t];
			int r = -1, c = -1;

			if (strcmp(o->benchmark, tb->benchmark))
				continue;
			for (int k = 0; k < o->nrows; k++)
				if (!strcmp(o->rows[k].name, tb->rows[f->row].name))
					r = k;
			for (int k = 0; k < o->ncols; k++)
				if (!strcmp(o->cols[k].name, tb->cols[f->col].name))
					c = k;
			if (r >= 0 && c >= 0 && (j = figure_at(v, f->preset, t, r, c)) >= 0) {
				add_cmp(v, "configs", i, j, "%s %s %s %s: %s vs %s",
					f->preset->name, tb->benchmark, tb->rows[f->row].name,
					tb->cols[f->col].name, tb->config, o->config);
				break;
			}
		}
	}
	/* the published orders: their figures were added in order, two each */
	for (int i = 0, k = 0; i < norders; i++) {
		while (k < v->nfigs && v->figs[k].pub)
			k++;
		if (k + 1 >= v->nfigs || strcmp(v->figs[k].preset->name, po[i].preset))
			continue;
		{
			const struct validation_figure *f = &v->figs[k];
			const struct eval_table *tb = &f->preset->tables[f->table];
			int before = v->ncmps;

			add_cmp(v, "order", k, k + 1, "%s %s %s: %s vs %s", f->preset->name,
				tname(f, tn, sizeof(tn)), tb->cols[f->col].name,
				tb->rows[f->row].name, tb->rows[v->figs[k + 1].row].name);
			if (v->ncmps > before) {
				if (f->floored)
					v->cmps[before].floor = po[i].min_iterations;
				v->cmps[before].real_sign = po[i].sign;
				v->cmps[before].right = v->cmps[before].model_sign == po[i].sign;
			}
		}
		k += 2;
	}
}

int validate_run(struct validation *v, double alpha, struct err *e)
{
	int rc = eval_run(&v->ev, e);

	if (rc == EXP_OK && v->floor_ev.ncells)
		rc = eval_run(&v->floor_ev, e);
	if (rc != EXP_OK)
		return rc;
	v->alpha = alpha;
	for (int i = 0; i < v->nfigs; i++) {
		struct validation_figure *f = &v->figs[i];

		f->model = NAN;
		if (f->cell < 0)
			continue;
		f->model = cell_center(fig_ev(v, f), f->cell, &f->n, NULL);
		if (f->per_cell >= 0) {
			int n;

			f->model /= cell_center(fig_ev(v, f), f->per_cell, &n, NULL);
		}
		f->error = f->pub && f->real != 0 ? f->model / f->real - 1 : NAN;
	}
	comparisons(v);
	return EXP_OK;
}

void validate_free(struct validation *v)
{
	eval_free(&v->ev);
	eval_free(&v->floor_ev);
	free(v->figs);
	free(v->cmps);
	memset(v, 0, sizeof(*v));
}
