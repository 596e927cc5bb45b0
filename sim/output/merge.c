/*
 * Loading the parts of a sharded matrix for `schedsim merge` (merge.h).
 *
 * The first part's "matrix" is the reference: every other part must carry
 * the same one, member by member, so a part of another sweep (another
 * seed, scenario, list of schedulers...) is named with what differs.  The
 * results come from the parts' encoded bytes (see shard.c for why), each at
 * its index in the matrix, after checking that it is the run that index
 * stands for.
 */
#include "sim/output/merge.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sim/experiment/host_axis.h"
#include "sim/experiment/shard.h"
#include "sim/input/json_read.h"
#include "sim/input/scenario_load.h"
#include "sim/xalloc.h"
#include "workloads/axes.h"

static int parse_args(int argc, char **argv, struct merge *m, bool *alpha_set,
		      struct err *e)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		PLOT_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	static const char *const formats[] = { "text", "json", "markdown", "csv" };
	bool ok = false;
	char *end;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'F': m->format = optarg; break;
		case 'o': m->output = optarg; break;
		case 'a':
			m->alpha = strtod(optarg, &end);
			if (end == optarg || *end || !(m->alpha > 0 && m->alpha < 1))
				return err_set(e, "--alpha: '%s' must be a number between 0 and 1",
					       optarg);
			*alpha_set = true;
			break;
		case PLOT_OPT_DIR: case PLOT_OPT_FORMAT: case PLOT_OPT_TIMELINE:
		case PLOT_OPT_WINDOW: case PLOT_OPT_CREDIT:
			if (plot_cli_option(&m->pc, c, optarg, e) < 0)
				return -1;
			break;
		default:
			return err_set(e, "option '%s' is not valid (valid: --format, --alpha, "
				       "--output, --plot...)", argv[optind - 1]);
		}
	}
	for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++)
		ok = ok || !strcmp(m->format, formats[k]);
	if (!ok)
		return err_set(e, "--format: '%s' is not valid (valid: text, json, markdown, csv)",
			       m->format);
	if (optind >= argc)
		return err_set(e, "give the parts (schedsim merge PART.json...)");
	return plot_cli_check(&m->pc, e);
}

static bool jval_equal(const struct jval *a, const struct jval *b)
{
	if (!a || !b || a->type != b->type)
		return a == b;
	switch (a->type) {
	case JVAL_NULL: return true;
	case JVAL_BOOL: return a->b == b->b;
	case JVAL_NUMBER: return a->num == b->num;
	case JVAL_STRING: return !strcmp(a->str, b->str);
	case JVAL_ARRAY:
	case JVAL_OBJECT:
		if (a->n != b->n)
			return false;
		for (int k = 0; k < a->n; k++)
			if ((a->type == JVAL_OBJECT && strcmp(a->keys[k], b->keys[k])) ||
			    !jval_equal(&a->items[k], &b->items[k]))
				return false;
		return true;
	}
	return false;
}

/* "[a, b, c]", cut short to fit. */
static void show_list(const struct jval *v, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "[");

	for (int k = 0; k < v->n && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? ", " : "",
					 v->items[k].type == JVAL_STRING ? v->items[k].str : "?");
	if (used < len)
		snprintf(buf + used, len - used, "]");
}

static void jval_show(const struct jval *v, char *buf, size_t len)
{
	if (!v)
		snprintf(buf, len, "none");
	else if (v->type == JVAL_STRING)
		snprintf(buf, len, "'%s'", v->str);
	else if (v->type == JVAL_NUMBER)
		snprintf(buf, len, "%.17g", v->num);
	else if (v->type == JVAL_BOOL)
		snprintf(buf, len, "%s", v->b ? "true" : "false");
	else if (v->type == JVAL_ARRAY)
		show_list(v, buf, len);
	else
		snprintf(buf, len, "another value");
}

/* The part's own checks: a schedsim part of this version and layout. */
static int check_part(const char *path, const struct jval *doc, struct err *e)
{
	const char *version = jval_get_string(doc, "version", NULL);
	const struct jval *mx = jval_get(doc, "matrix"), *sh = jval_get(doc, "shard"), *enc;
	char shown[200];

	if (!version)
		return err_set(e, "%s: not a schedsim result (no \"version\")", path);
	if (!mx || mx->type != JVAL_OBJECT || !sh || sh->type != JVAL_OBJECT)
		return err_set(e, "%s: not a part of a sweep (no \"matrix\" and \"shard\"; parts "
			       "are written with --shard=I/N or --run=K)", path);
	if (strcmp(version, PACKAGE_VERSION))
		return err_set(e, "%s: written by schedsim %s, this is %s: merge with the "
			       "version that ran the parts", path, version, PACKAGE_VERSION);
	enc = jval_get(mx, "result_encoding");
	if (!enc || enc->type != JVAL_NUMBER || enc->num != RUN_RESULT_ENCODING) {
		jval_show(enc, shown, sizeof(shown));
		return err_set(e, "%s: results in encoding %s, this schedsim reads %d: merge with "
			       "the version that ran the parts", path, shown, RUN_RESULT_ENCODING);
	}
	return 0;
}

static int same_matrix(const char *path, const struct jval *doc, const char *ref_path,
		       const struct jval *ref, bool alpha_set, struct err *e)
{
	const struct jval *mx = jval_get(doc, "matrix"), *rx = jval_get(ref, "matrix");
	char a[200], b[200];

	for (int k = 0; k < rx->n; k++) {
		const struct jval *v = jval_get(mx, rx->keys[k]);

		if (jval_equal(v, &rx->items[k]))
			continue;
		jval_show(v, a, sizeof(a));
		jval_show(&rx->items[k], b, sizeof(b));
		return err_set(e, "%s: not the same matrix as %s: %s is %s there, %s here",
			       path, ref_path, rx->keys[k], b, a);
	}
	if (mx->n != rx->n)
		return err_set(e, "%s: not the same matrix as %s: other members in \"matrix\"",
			       path, ref_path);
	if (!alpha_set && !jval_equal(jval_get(doc, "alpha"), jval_get(ref, "alpha"))) {
		jval_show(jval_get(doc, "alpha"), a, sizeof(a));
		jval_show(jval_get(ref, "alpha"), b, sizeof(b));
		return err_set(e, "%s: alpha %s, but %s in %s (give --alpha)", path, a, b,
			       ref_path);
	}
	return 0;
}

/* A list of names from the matrix into fixed-size slots. */
static int names(const char *path, const struct jval *mx, const char *key,
		 char (**out)[EXP_NAME_MAX], int *n, struct err *e)
{
	const struct jval *a = jval_get(mx, key);

	if (!a || a->type != JVAL_ARRAY)
		return err_set(e, "%s: \"matrix\" has no \"%s\" list", path, key);
	*out = xcalloc((size_t)a->n + 1, sizeof(**out));
	*n = a->n;
	for (int k = 0; k < a->n; k++) {
		if (a->items[k].type != JVAL_STRING || strlen(a->items[k].str) >= EXP_NAME_MAX)
			return err_set(e, "%s:%d: \"%s\" must hold short names", path,
				       a->items[k].line, key);
		snprintf((*out)[k], EXP_NAME_MAX, "%s", a->items[k].str);
	}
	return 0;
}

static bool whole_number(const struct jval *v, double lo, double hi)
{
	return v && v->type == JVAL_NUMBER && v->num == floor(v->num) && v->num >= lo &&
	       v->num <= hi;
}

/* Builds m->x (without its runs) from the reference part's matrix. */
static int build_matrix(const char *path, const struct jval *doc, struct merge *m,
			bool alpha_set, struct err *e)
{
	const struct jval *mx = jval_get(doc, "matrix"), *sch = jval_get(mx, "schedulers");
	const struct jval *it = jval_get(mx, "iterations"), *runs = jval_get(mx, "runs");
	const struct jval *alpha = jval_get(doc, "alpha");
	const char *seed = jval_get_string(mx, "seed", "");
	char *end;

	if (!alpha_set) {
		if (!alpha || alpha->type != JVAL_NUMBER)
			return err_set(e, "%s: no \"alpha\" (give --alpha)", path);
		m->alpha = alpha->num;
	}
	m->x.seed = strtoull(seed, &end, 10);
	if (!*seed || *end)
		return err_set(e, "%s: \"matrix\" has no \"seed\"", path);
	if (!sch || sch->type != JVAL_ARRAY || sch->n < 1)
		return err_set(e, "%s: \"matrix\" has no \"schedulers\"", path);
	m->specs = xcalloc((size_t)sch->n, sizeof(*m->specs));
	for (int s = 0; s < sch->n; s++) {
		if (sch->items[s].type != JVAL_STRING ||
		    sched_spec_parse(sch->items[s].str, &m->specs[s], e) < 0)
			return err_set(e, "%s:%d: a scheduler of \"matrix\" is not a spec", path,
				       sch->items[s].line);
		m->x.nscheds = s + 1;
	}
	m->x.scheds = m->specs;
	if (names(path, mx, "hosts", &m->hosts, &m->x.nhosts, e) ||
	    names(path, mx, "workloads", &m->workloads, &m->x.nworkloads, e) ||
	    names(path, mx, "dom0_loads", &m->dom0_loads, &m->x.ndom0, e))
		return -1;
	m->x.hosts = m->hosts;
	m->x.workloads = m->workloads;
	m->x.dom0_loads = m->dom0_loads;
	if (!whole_number(it, 1, 1000000))
		return err_set(e, "%s: \"matrix\" has no \"iterations\"", path);
	m->x.iterations = (int)it->num;
	if (!whole_number(runs, 1, INT32_MAX / 2) || (int)runs->num != shard_total(&m->x))
		return err_set(e, "%s: \"matrix\" \"runs\" does not match its axes", path);
	m->x.nruns = shard_total(&m->x);
	m->x.runs = xcalloc((size_t)m->x.nruns, sizeof(*m->x.runs));
	snprintf(m->sc.source, sizeof(m->sc.source), "%s", jval_get_string(mx, "scenario", ""));
	m->sc.seed = m->x.seed;
	m->x.base = &m->sc;
	return 0;
}

static void describe(const struct experiment *x, int k, char *buf, size_t len)
{
	struct experiment_coords c = experiment_coords(x, k);
	const char *h = experiment_host(x, c.b), *w = experiment_workload(x, c.b);

	snprintf(buf, len, "run %d: %s%s%s%s%s%s%s iteration %d", k, x->scheds[c.s].text,
		 h ? " --host=" : "", h ? h : "", w ? " " : "", w ? w : "",
		 x->ndom0 ? " dom0-load=" : "", x->ndom0 ? x->dom0_loads[c.d] : "", c.i);
}

/* The result must be the run its index stands for. */
static bool in_place(const struct experiment *x, int k, const struct run_result *r)
{
	struct experiment_coords c = experiment_coords(x, k);
	const char *h = experiment_host(x, c.b), *w = experiment_workload(x, c.b);

	return r->iteration == c.i && !strcmp(r->label, x->scheds[c.s].text) &&
	       !strcmp(r->host, h ? h : "") && !strcmp(r->workload, w ? w : "") &&
	       !strcmp(r->dom0_load, x->ndom0 ? x->dom0_loads[c.d] : "") &&
	       r->seed == experiment_seed(x->seed, c.i);
}

static int take_runs(char **paths, int part, const struct jval *doc, struct merge *m,
		     int *owner, struct err *e)
{
	const char *path = paths[part];
	const struct jval *sh = jval_get(doc, "shard");
	const struct jval *idx = jval_get(sh, "runs"), *res = jval_get(sh, "results");
	char what[700];

	if (!idx || idx->type != JVAL_ARRAY || !res || res->type != JVAL_ARRAY ||
	    idx->n != res->n)
		return err_set(e, "%s: \"shard\" needs \"runs\" and \"results\" of one length", path);
	for (int j = 0; j < idx->n; j++) {
		struct run_result *r;
		struct err why = { "" };
		char *buf;
		size_t len;
		int k;

		if (!whole_number(&idx->items[j], 0, m->x.nruns - 1))
			return err_set(e, "%s:%d: not a run of this matrix (0 to %d)", path,
				       idx->items[j].line, m->x.nruns - 1);
		k = (int)idx->items[j].num;
		describe(&m->x, k, what, sizeof(what));
		if (owner[k] >= 0)
			return err_set(e, "%s is in both %s and %s: a part given twice, or parts of "
				       "two slicings", what, paths[owner[k]], path);
		if (res->items[j].type != JVAL_STRING ||
		    base64_decode(res->items[j].str, &buf, &len))
			return err_set(e, "%s:%d: the result of %s is not base64", path,
				       res->items[j].line, what);
		r = &m->x.runs[k];
		if (run_result_unpack(buf, len, r, &why)) {
			free(buf);
			return err_set(e, "%s:%d: the result of %s is damaged (%s)", path,
				       res->items[j].line, what, why.msg);
		}
		free(buf);
		owner[k] = part;
		if (!in_place(&m->x, k, r))
			return err_set(e, "%s:%d: the result given for %s is another run's", path,
				       res->items[j].line, what);
	}
	return 0;
}

static int check_complete(const struct merge *m, const int *owner, struct err *e)
{
	int missing = 0, first = -1;
	char what[700];

	for (int k = 0; k < m->x.nruns; k++)
		if (owner[k] < 0 && missing++ == 0)
			first = k;
	if (!missing)
		return 0;
	describe(&m->x, first, what, sizeof(what));
	return err_set(e, "%d of %d runs missing (the first is %s): a part is left out",
		       missing, m->x.nruns, what);
}

/*
 * For --plot: the scenario of the matrix, which the re-runs need, as the
 * single process had it (the file the parts ran, their duration and seed).
 */
static int plot_scenario(const char *path, const struct jval *doc, struct merge *m,
			 struct err *e)
{
	const struct jval *mx = jval_get(doc, "matrix"), *dur = jval_get(mx, "duration_ns");
	const struct jval *check = jval_get(mx, "check");
	const char *source = jval_get_string(mx, "scenario", "");
	const char *digest = jval_get_string(mx, "scenario_digest", "");
	char here[17];
	int rc;

	if (!dur || dur->type != JVAL_NUMBER)
		return err_set(e, "%s: \"matrix\" has no \"duration_ns\"", path);
	if (*digest) {
		if (shard_file_digest(source, here, e))
			return err_set(e, "--plot: the parts ran the scenario %s, which is not here "
				       "to re-run", source);
		if (strcmp(here, digest))
			return err_set(e, "--plot: %s is not the scenario the parts ran (its "
				       "contents differ)", source);
	}
	rc = *digest ? scenario_load_file(source, &m->sc, e) : scenario_load_default(&m->sc, e);
	if (rc < 0)
		return -1;
	m->sc_loaded = true;
	m->sc.duration = (stime_t)dur->num;
	m->sc.seed = m->x.seed;
	m->x.base = &m->sc;
	m->x.apply_axes = bench_axes_apply;
	m->x.ropt.check = check && check->type == JVAL_BOOL && check->b;
	return plot_prepare(&m->pc, &m->x, e);
}

static int load_parts(char **paths, int n, struct merge *m, bool alpha_set, struct err *e)
{
	struct jval ref, doc;
	int *owner = NULL, rc = -1;

	if (jval_parse_file(paths[0], &ref, e))
		return -1;
	if (check_part(paths[0], &ref, e) || build_matrix(paths[0], &ref, m, alpha_set, e))
		goto out;
	owner = xcalloc((size_t)m->x.nruns, sizeof(*owner));
	for (int k = 0; k < m->x.nruns; k++)
		owner[k] = -1;
	if (take_runs(paths, 0, &ref, m, owner, e))
		goto out;
	for (int p = 1; p < n; p++) {
		if (jval_parse_file(paths[p], &doc, e))
			goto out;
		if (check_part(paths[p], &doc, e) ||
		    same_matrix(paths[p], &doc, paths[0], &ref, alpha_set, e) ||
		    take_runs(paths, p, &doc, m, owner, e)) {
			jval_free(&doc);
			goto out;
		}
		jval_free(&doc);
	}
	rc = check_complete(m, owner, e);
	m->x.ndone = m->x.nruns;
	if (rc == 0 && m->pc.dir)
		rc = plot_scenario(paths[0], &ref, m, e);
out:
	free(owner);
	jval_free(&ref);
	return rc;
}

int merge_load(int argc, char **argv, struct merge *m, struct err *e)
{
	bool alpha_set = false;

	memset(m, 0, sizeof(*m));
	m->format = "text";
	if (parse_args(argc, argv, m, &alpha_set, e))
		return -1;
	return load_parts(argv + optind, argc - optind, m, alpha_set, e);
}

void merge_free(struct merge *m)
{
	experiment_free(&m->x);
	for (int s = 0; s < m->x.nscheds; s++)
		sched_spec_free(&m->specs[s]);
	free(m->specs);
	free(m->hosts);
	free(m->workloads);
	free(m->dom0_loads);
	m->specs = NULL;
	m->hosts = m->workloads = m->dom0_loads = NULL;
	if (m->sc_loaded)
		scenario_free(&m->sc);
	m->sc_loaded = false;
}
