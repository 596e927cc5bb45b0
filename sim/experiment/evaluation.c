/*
 * Named evaluations (see evaluation.h): a preset's cells resolved into
 * scenarios and scheduler specs, run in one pool of workers (workers.h),
 * and grouped into its tables with MMTests' centres and gains.
 */
#include "sim/experiment/evaluation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/experiment/experiment.h"
#include "sim/experiment/host_axis.h"
#include "sim/experiment/workers.h"
#include "sim/input/scenario_load.h"
#include "sim/xalloc.h"

#ifndef SCHEDSIM_DATADIR
#define SCHEDSIM_DATADIR "/usr/local/share/schedsim"
#endif

#define RUN_SHARE "run-share:"

/* ------------------------------------------------------------ presets */

const struct eval_preset *eval_preset_find(const char *name)
{
	int n;
	const struct eval_preset *const *all = eval_presets(&n);

	for (int i = 0; i < n; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

static bool axis_uses_examples(const struct eval_axis *a)
{
	return a->scenario && strcmp(a->scenario, "default");
}

bool eval_preset_uses_examples(const struct eval_preset *p)
{
	for (int t = 0; t < p->ntables; t++) {
		const struct eval_table *tb = &p->tables[t];

		if (axis_uses_examples(&tb->base))
			return true;
		for (int c = 0; c < tb->ncols; c++)
			if (axis_uses_examples(&tb->cols[c]))
				return true;
		for (int r = 0; r < tb->nrows; r++)
			if (axis_uses_examples(&tb->rows[r]))
				return true;
	}
	return false;
}

void eval_presets_list(FILE *f)
{
	int n;
	const struct eval_preset *const *all = eval_presets(&n);

	for (int i = 0; i < n; i++) {
		const struct eval_preset *p = all[i];
		int cells = 0;

		for (int t = 0; t < p->ntables; t++)
			cells += p->tables[t].nrows * p->tables[t].ncols;
		fprintf(f, "%s\n    %s\n    %s\n    %d tables, %d cells, %d iterations%s\n",
			p->name, p->title, p->source, p->ntables, cells, p->iterations,
			eval_preset_uses_examples(p) ? "; runs scenario files of the examples" : "");
		for (int t = 0; t < p->ntables; t++) {
			const struct eval_table *tb = &p->tables[t];

			fprintf(f, "    %s%s%s: %s (", tb->benchmark, tb->config[0] ? " " : "",
				tb->config, tb->param);
			for (int r = 0; r < tb->nrows; r++)
				fprintf(f, "%s%s", r ? ", " : "", tb->rows[r].name);
			fputs(") x ", f);
			for (int c = 0; c < tb->ncols; c++)
				fprintf(f, "%s%s", c ? ", " : "", tb->cols[c].name);
			fputc('\n', f);
		}
	}
}

static bool is_dir(const char *path)
{
	return path && *path && access(path, R_OK | X_OK) == 0;
}

const char *eval_examples_dir(struct err *e)
{
	const char *env = getenv("SCHEDSIM_EXAMPLES");

	if (env && *env) {
		if (is_dir(env))
			return env;
		err_set(e, "SCHEDSIM_EXAMPLES=%s: not a readable folder", env);
		return NULL;
	}
#ifdef SCHEDSIM_SRCDIR
	if (is_dir(SCHEDSIM_SRCDIR "/examples"))
		return SCHEDSIM_SRCDIR "/examples";
#endif
	if (is_dir(SCHEDSIM_DATADIR "/examples"))
		return SCHEDSIM_DATADIR "/examples";
	err_set(e, "the examples' files are not in %s (install schedsim, or set "
		"SCHEDSIM_EXAMPLES to the source tree's examples/)", SCHEDSIM_DATADIR "/examples");
	return NULL;
}

/* -------------------------------------------------------------- cells */

void eval_init(struct evaluation *ev, const struct eval_options *o)
{
	memset(ev, 0, sizeof(*ev));
	ev->o = *o;
	ev->iterations = o->iterations;
}

/* A loaded scenario, kept while cells are added (each cell copies it). */
struct eval_scenario_cache {
	char name[512];
	struct scenario sc;
};

static const struct scenario *load_scenario(struct eval_scenario_cache **cache, int *n,
					    const char *name, struct err *e)
{
	char path[4096];
	const char *dir;
	struct scenario sc;

	for (int i = 0; i < *n; i++)
		if (!strcmp((*cache)[i].name, name))
			return &(*cache)[i].sc;
	if (!strcmp(name, "default")) {
		if (scenario_load_default(&sc, e) < 0)
			return NULL;
	} else {
		dir = eval_examples_dir(e);
		if (!dir)
			return NULL;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (scenario_load_file(path, &sc, e) < 0)
			return NULL;
	}
	*cache = xreallocarray(*cache, (size_t)*n + 1, sizeof(**cache));
	snprintf((*cache)[*n].name, sizeof((*cache)[*n].name), "%s", name);
	(*cache)[*n].sc = sc;
	return &(*cache)[(*n)++].sc;
}

static void free_cache(struct eval_scenario_cache *cache, int n)
{
	for (int i = 0; i < n; i++)
		scenario_free(&cache[i].sc);
	free(cache);
}

/* What the cell has for one field: the row's, else the column's, else the base's. */
static int pick(const char *what, const char *base, const char *col, const char *row,
		const char **out, struct err *e)
{
	if (row && col)
		return err_set(e, "both its column and its row set the %s", what);
	*out = row ? row : col ? col : base;
	return 0;
}

static void join_host(char *buf, size_t len, const char *const parts[3])
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < 3; i++)
		if (parts[i] && *parts[i] && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ":" : "", parts[i]);
}

/* The domains a run-share figure names exist in the cell's scenario. */
static int check_figure(const char *figure, const struct scenario *sc, struct err *e)
{
	char names[512], *save = NULL;

	if (!figure)
		return 0;
	if (strncmp(figure, RUN_SHARE, strlen(RUN_SHARE)))
		return err_set(e, "figure '%s' is not one (valid: the figure of merit, or "
			       RUN_SHARE "DOMAIN[,DOMAIN...])", figure);
	snprintf(names, sizeof(names), "%s", figure + strlen(RUN_SHARE));
	for (char *d = strtok_r(names, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
		int k = 0;

		while (k < sc->ndoms && strcmp(sc->doms[k].name, d))
			k++;
		if (k == sc->ndoms)
			return err_set(e, "figure '%s': the scenario has no domain '%s'", figure, d);
	}
	return 0;
}

static int add_cell(struct evaluation *ev, struct eval_scenario_cache **cache, int *ncache,
		    const struct eval_preset *p, int t, int r, int c, struct err *e)
{
	const struct eval_table *tb = &p->tables[t];
	const struct eval_axis *b = &tb->base, *col = &tb->cols[c], *row = &tb->rows[r];
	const char *scen = NULL, *sched = NULL, *wl = NULL, *d0 = NULL, *fig = NULL;
	const char *host[3] = { b->host, col->host, row->host };
	const struct scenario *base;
	struct eval_cell *cell;

	if (pick("scenario", b->scenario, col->scenario, row->scenario, &scen, e) ||
	    pick("scheduler", b->sched, col->sched, row->sched, &sched, e) ||
	    pick("workload", b->workload, col->workload, row->workload, &wl, e) ||
	    pick("dom0 load", b->dom0_load, col->dom0_load, row->dom0_load, &d0, e) ||
	    pick("figure", b->figure, col->figure, row->figure, &fig, e))
		return -1;
	if (!sched)
		return err_set(e, "no scheduler");
	base = load_scenario(cache, ncache, scen ? scen : "default", e);
	if (!base)
		return -1;
	ev->cells = xreallocarray(ev->cells, (size_t)ev->ncells + 1, sizeof(*ev->cells));
	cell = &ev->cells[ev->ncells];
	memset(cell, 0, sizeof(*cell));
	cell->preset = p;
	cell->table = t;
	cell->row = r;
	cell->col = c;
	cell->figure = fig;
	join_host(cell->host, sizeof(cell->host), host);
	snprintf(cell->workload, sizeof(cell->workload), "%s", wl ? wl : "");
	snprintf(cell->dom0_load, sizeof(cell->dom0_load), "%s", d0 ? d0 : "");
	scenario_copy(&cell->sc, base);
	if (ev->o.hw)
		kvlist_set(&cell->sc.host.hw, "hw", ev->o.hw, 0);
	if (ev->o.has_seed)
		cell->sc.seed = ev->o.seed;
	if (bench_axes_apply(&cell->sc, cell->host, wl, d0, e) < 0 ||
	    check_figure(fig, &cell->sc, e) < 0) {
		scenario_free(&cell->sc);
		return -1;
	}
	if (sched_spec_parse(sched, &cell->spec, e) < 0) {
		scenario_free(&cell->sc);
		return -1;
	}
	ev->ncells++;
	return 0;
}

int eval_add(struct evaluation *ev, const struct eval_preset *p, eval_want_fn want,
	     const void *ctx, struct err *e)
{
	struct eval_scenario_cache *cache = NULL;
	int ncache = 0, rc = 0;

	if (ev->iterations <= 0)
		ev->iterations = p->iterations;
	for (int t = 0; t < p->ntables && !rc; t++) {
		const struct eval_table *tb = &p->tables[t];

		for (int r = 0; r < tb->nrows && !rc; r++)
			for (int c = 0; c < tb->ncols && !rc; c++) {
				if (want && !want(ctx, p, t, r, c))
					continue;
				rc = add_cell(ev, &cache, &ncache, p, t, r, c, e);
				if (rc)
					err_prefix(e, "--eval=%s: %s%s%s, %s, %s", p->name,
						   tb->benchmark, tb->config[0] ? " " : "",
						   tb->config, tb->rows[r].name, tb->cols[c].name);
			}
	}
	free_cache(cache, ncache);
	return rc;
}

int eval_find(const struct evaluation *ev, const struct eval_preset *p, int table, int row,
	      int col)
{
	for (int k = 0; k < ev->ncells; k++) {
		const struct eval_cell *c = &ev->cells[k];

		if (c->preset == p && c->table == table && c->row == row && c->col == col)
			return k;
	}
	return -1;
}

/* ---------------------------------------------------------------- runs */

static void describe(const void *ctx, int idx, char *buf, size_t len)
{
	const struct evaluation *ev = ctx;
	const struct eval_cell *c = &ev->cells[idx / ev->iterations];
	const struct eval_table *tb = &c->preset->tables[c->table];
	int i = idx % ev->iterations;

	snprintf(buf, len, "--eval=%s %s%s%s, %s, %s (%s%s%s%s%s%s%s) iteration %d (seed %llu)",
		 c->preset->name, tb->benchmark, tb->config[0] ? " " : "", tb->config,
		 tb->rows[c->row].name, tb->cols[c->col].name, c->spec.text,
		 c->host[0] ? " --host=" : "", c->host, c->workload[0] ? " " : "", c->workload,
		 c->dom0_load[0] ? " dom0-load=" : "", c->dom0_load, i,
		 (unsigned long long)experiment_seed(c->sc.seed, i));
}

static int run_one(const void *ctx, int idx, struct run_result *r, struct err *e)
{
	const struct evaluation *ev = ctx;
	const struct eval_cell *c = &ev->cells[idx / ev->iterations];
	int i = idx % ev->iterations;
	struct scenario sc;
	int rc;

	scenario_copy(&sc, &c->sc);
	sc.seed = experiment_seed(c->sc.seed, i);
	rc = run_scenario(&sc, &c->spec, &ev->o.ropt, r, e);
	scenario_free(&sc);
	if (rc)
		return -1;
	snprintf(r->host, sizeof(r->host), "%s", c->host);
	snprintf(r->workload, sizeof(r->workload), "%s", c->workload);
	snprintf(r->dom0_load, sizeof(r->dom0_load), "%s", c->dom0_load);
	r->iteration = i;
	return 0;
}

int eval_run(struct evaluation *ev, struct err *e)
{
	struct worker_pool p = { .run = run_one, .describe = describe, .ctx = ev };
	int rc;

	if (ev->iterations < 1)
		ev->iterations = 1;
	ev->nruns = ev->ncells * ev->iterations;
	ev->runs = xcalloc((size_t)ev->nruns + 1, sizeof(*ev->runs));
	p.nruns = ev->nruns;
	p.jobs = ev->o.jobs;
	p.progress = ev->o.progress;
	p.runs = ev->runs;
	rc = workers_run(&p, e);
	ev->ndone = p.ndone;
	return rc;
}

void eval_free(struct evaluation *ev)
{
	for (int k = 0; k < ev->ncells; k++) {
		scenario_free(&ev->cells[k].sc);
		sched_spec_free(&ev->cells[k].spec);
	}
	for (int i = 0; ev->runs && i < ev->nruns; i++)
		run_result_free(&ev->runs[i]);
	free(ev->cells);
	free(ev->runs);
	memset(ev, 0, sizeof(*ev));
}

/* ------------------------------------------------------------- figures */

static double run_share(const struct run_result *r, const char *names)
{
	char buf[512], *save = NULL;
	double sum = 0;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", names);
	for (char *d = strtok_r(buf, ",", &save); d; d = strtok_r(NULL, ",", &save))
		for (int k = 0; k < r->ndoms; k++) {
			const struct domain_result *dr = &r->doms[k];
			stime_t run = 0;

			if (strcmp(dr->name, d) || dr->nvcpus == 0 || r->sim_ns <= 0)
				continue;
			for (int v = 0; v < dr->nvcpus; v++)
				run += dr->vcpus[v].run_ns;
			sum += (double)run / ((double)r->sim_ns * dr->nvcpus);
			n++;
		}
	return n ? sum / n : NAN;
}

bool eval_figure(const struct eval_cell *c, const struct run_result *r, struct metric *m)
{
	memset(m, 0, sizeof(*m));
	if (!c->figure) {
		*m = r->metric;
		return m->valid;
	}
	m->value = run_share(r, c->figure + strlen(RUN_SHARE));
	if (isnan(m->value))
		return false;
	m->valid = true;
	m->higher_better = true;
	snprintf(m->name, sizeof(m->name), "run_share");
	snprintf(m->unit, sizeof(m->unit), "share");
	return true;
}

/* ------------------------------------------------------------- tables */

static void table_result(const struct evaluation *ev, const struct eval_preset *p, int ti,
			 double alpha, struct eval_result_table *out)
{
	const struct eval_table *tb = &p->tables[ti];
	struct report_table *t = &out->t;

	memset(out, 0, sizeof(*out));
	out->preset = p;
	out->table = ti;
	report_init(t, tb->nrows, tb->ncols);
	t->alpha = alpha;
	out->cells = xcalloc((size_t)tb->nrows * tb->ncols + 1, sizeof(*out->cells));
	for (int c = 0; c < tb->ncols; c++)
		t->cols[c] = xstrdup(tb->cols[c].name);
	for (int r = 0; r < tb->nrows; r++) {
		struct report_row *row = &t->rows[r];

		snprintf(row->workload, sizeof(row->workload), "%s", tb->rows[r].name);
		for (int c = 0; c < tb->ncols; c++) {
			int k = eval_find(ev, p, ti, r, c);
			struct report_cell *cell = report_cell(t, r, c);
			struct eval_result_cell *rc = &out->cells[r * tb->ncols + c];

			snprintf(cell->label, sizeof(cell->label), "%s", tb->cols[c].name);
			rc->first_run = -1;
			if (k < 0)
				continue;
			rc->run = true;
			rc->first_run = k * ev->iterations;
			snprintf(cell->scheduler, sizeof(cell->scheduler), "%s",
				 ev->cells[k].spec.name);
			for (int i = 0; i < ev->iterations; i++) {
				struct metric m;

				if (!eval_figure(&ev->cells[k], &ev->runs[k * ev->iterations + i], &m))
					continue;
				if (!row->metric[0]) {
					snprintf(row->metric, sizeof(row->metric), "%s", m.name);
					snprintf(row->unit, sizeof(row->unit), "%s", m.unit);
					row->higher_better = m.higher_better;
				}
				report_add_value(cell, m.value);
			}
		}
		if (row->higher_better)
			out->hmean = true;
	}
	report_compute(t);
	for (int r = 0; r < tb->nrows; r++) {
		bool higher = t->rows[r].higher_better;
		double base = NAN;

		for (int c = 0; c < tb->ncols; c++) {
			const struct report_cell *cell = report_cell(t, r, c);
			struct eval_result_cell *rc = &out->cells[r * tb->ncols + c];

			rc->center = higher ? stats_hmean(cell->values, cell->n)
					    : stats_mean(cell->values, cell->n);
			if (c == 0)
				base = rc->center;
			/* MMTests: pdiff for rates, pndiff for times: positive is better */
			rc->gain_pct = NAN;
			if (c > 0 && base != 0 && !isnan(base) && !isnan(rc->center))
				rc->gain_pct = higher ? rc->center * 100 / base - 100
						      : 100 - rc->center * 100 / base;
			rc->significant = cell->has_cmp && !cell->mwu.all_equal &&
				cell->mwu.p < alpha;
		}
	}
}

int eval_results(const struct evaluation *ev, const struct eval_preset *p, double alpha,
		 struct eval_result_table **out)
{
	*out = xcalloc((size_t)p->ntables + 1, sizeof(**out));
	for (int t = 0; t < p->ntables; t++)
		table_result(ev, p, t, alpha, &(*out)[t]);
	return p->ntables;
}

void eval_results_free(struct eval_result_table *r, int n)
{
	for (int t = 0; r && t < n; t++) {
		report_free(&r[t].t);
		free(r[t].cells);
	}
	free(r);
}
