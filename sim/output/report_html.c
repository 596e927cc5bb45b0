/*
 * The HTML report (see report_html.h): the data from an experiment or
 * from its JSON, then one writer.  The statistics come from the same
 * report_table the text formats print (sim/report*.c): a table rebuilt
 * from the JSON summary's values computes the same numbers, so a report
 * made from saved results is the report of the run, but for the line
 * naming where it came from.
 */
#include "sim/output/report_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sim/input/json_read.h"
#include "sim/output/svg_chart.h"
#include "sim/xalloc.h"

/* ------------------------------------------------------------ input */

char *html_command_line(int argc, char *const *argv)
{
	size_t cap = 1, n = 0;
	char *s;

	for (int i = 0; i < argc; i++)
		cap += 4 * strlen(argv[i]) + 3;
	s = xmalloc(cap);
	s[0] = '\0';
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool plain = a[0] != '\0';

		for (const char *p = a; *p; p++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "_@%+=:,./-", *p))
				plain = false;
		if (i)
			s[n++] = ' ';
		if (plain) {
			memcpy(s + n, a, strlen(a));
			n += strlen(a);
			continue;
		}
		s[n++] = '\'';
		for (const char *p = a; *p; p++) {
			if (*p == '\'') {
				memcpy(s + n, "'\\''", 4);
				n += 4;
			} else {
				s[n++] = *p;
			}
		}
		s[n++] = '\'';
	}
	s[n] = '\0';
	return s;
}

/* The benchmark guest of a run: the domain with the figure, else the first after dom0. */
static int bench_domain(const struct run_result *r)
{
	for (int d = 0; d < r->ndoms; d++)
		if (r->doms[d].metric.valid)
			return d;
	for (int d = 0; d < r->ndoms; d++)
		if (r->doms[d].domid != 0)
			return d;
	return -1;
}

/* The p99 wake-to-run latency of each vCPU that woke up at all. */
static double *p99s(const struct domain_result *d, int *n)
{
	double *v = xcalloc((size_t)d->nvcpus + 1, sizeof(*v));

	*n = 0;
	for (int i = 0; i < d->nvcpus; i++)
		if (d->vcpus[i].wakeups > 0)
			v[(*n)++] = (double)d->vcpus[i].wake_p99;
	return v;
}

void html_report_from_experiment(struct html_report *h, const struct experiment *x,
				 double alpha, const char *scenario, const char *command)
{
	memset(h, 0, sizeof(*h));
	h->command = xstrdup(command);
	snprintf(h->version, sizeof(h->version), "%s", PACKAGE_VERSION);
	snprintf(h->origin, sizeof(h->origin), "this run");
	snprintf(h->scenario, sizeof(h->scenario), "%s", scenario);
	h->seed = x->seed;
	h->iterations = x->iterations;
	experiment_table(x, &h->t);
	h->t.alpha = alpha;
	report_compute(&h->t);
	h->runs = xcalloc((size_t)x->nruns + 1, sizeof(*h->runs));
	h->nruns = x->nruns;
	for (int i = 0; i < x->nruns; i++) {
		const struct run_result *r = &x->runs[i];
		struct html_run *o = &h->runs[i];
		int b = bench_domain(r);

		snprintf(o->label, sizeof(o->label), "%s", r->label);
		snprintf(o->host, sizeof(o->host), "%s", r->host);
		snprintf(o->workload, sizeof(o->workload), "%s", r->workload);
		snprintf(o->dom0_load, sizeof(o->dom0_load), "%s", r->dom0_load);
		snprintf(o->check_error, sizeof(o->check_error), "%s", r->check_error);
		o->iteration = r->iteration;
		o->seed = r->seed;
		o->has_metric = r->metric.valid;
		o->metric = r->metric.value;
		for (int d = 0; d < r->ndoms; d++) {
			if (d == b) {
				snprintf(o->bench, sizeof(o->bench), "%s", r->doms[d].name);
				o->bench_p99 = p99s(&r->doms[d], &o->nbench);
			} else if (r->doms[d].domid == 0 && !o->dom0_p99) {
				o->dom0_p99 = p99s(&r->doms[d], &o->ndom0);
			}
		}
	}
}

/* ------------------------------------------------------------ JSON */

struct jload {
	const char *path;
	struct err *e;
};

static int jfail(const struct jload *L, const struct jval *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int jfail(const struct jload *L, const struct jval *v, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_set(L->e, "%s:%d: %s", L->path, v && v->line > 0 ? v->line : 1, msg);
}

/* Member key of o as a string (copied into out); -1 with a message if missing. */
static int jstring(const struct jload *L, const struct jval *o, const char *key, char *out,
		   size_t len, const char *what)
{
	const struct jval *v = jval_get(o, key);

	if (!v || v->type != JVAL_STRING)
		return jfail(L, o, "%s has no string \"%s\"", what, key);
	if (strlen(v->str) >= len)
		return jfail(L, v, "%s: \"%s\" is too long", what, key);
	memcpy(out, v->str, strlen(v->str) + 1);
	return 0;
}

/*
 * The summary as a table: columns in order of first appearance of each
 * label, rows of each (host setting, workload, dom0 load), the values of
 * each cell (results without a host axis have no "host").
 * The writer puts them row by row, so the order is the experiment's.
 */
static int load_summary(const struct jload *L, const struct jval *sum, struct report_table *t)
{
	struct report_row *rows = NULL;
	char (*labels)[512] = NULL;
	char (*scheds)[64] = NULL;
	int nrows = 0, ncols = 0, *rowof, *colof;
	char what[64];

	if (sum->n == 0)
		return jfail(L, sum, "\"summary\" is empty");
	rowof = xcalloc((size_t)sum->n, sizeof(int));
	colof = xcalloc((size_t)sum->n, sizeof(int));
	for (int i = 0; i < sum->n; i++) {
		const struct jval *s = &sum->items[i];
		struct report_row row;
		char label[512], sched[64], better[8];
		int r, c;

		memset(&row, 0, sizeof(row));
		snprintf(what, sizeof(what), "summary entry %d", i);
		if (s->type != JVAL_OBJECT) {
			jfail(L, s, "%s is not an object", what);
			goto fail;
		}
		if (jstring(L, s, "label", label, sizeof(label), what) ||
		    jstring(L, s, "scheduler", sched, sizeof(sched), what) ||
		    jstring(L, s, "workload", row.workload, sizeof(row.workload), what) ||
		    jstring(L, s, "dom0_load", row.dom0_load, sizeof(row.dom0_load), what) ||
		    jstring(L, s, "metric", row.metric, sizeof(row.metric), what) ||
		    jstring(L, s, "unit", row.unit, sizeof(row.unit), what) ||
		    jstring(L, s, "better", better, sizeof(better), what))
			goto fail;
		row.higher_better = !strcmp(better, "higher");
		snprintf(row.host, sizeof(row.host), "%s", jval_get_string(s, "host", ""));
		for (r = 0; r < nrows; r++)
			if (!strcmp(rows[r].host, row.host) && !strcmp(rows[r].workload, row.workload) &&
			    !strcmp(rows[r].dom0_load, row.dom0_load))
				break;
		if (r == nrows) {
			rows = xreallocarray(rows, (size_t)nrows + 1, sizeof(*rows));
			rows[nrows++] = row;
		} else if (!rows[r].metric[0] && row.metric[0]) {
			rows[r] = row;
		}
		for (c = 0; c < ncols && strcmp(labels[c], label); c++)
			;
		if (c == ncols) {
			labels = xreallocarray(labels, (size_t)ncols + 1, sizeof(*labels));
			scheds = xreallocarray(scheds, (size_t)ncols + 1, sizeof(*scheds));
			memcpy(labels[ncols], label, sizeof(label));
			memcpy(scheds[ncols], sched, sizeof(sched));
			ncols++;
		}
		rowof[i] = r;
		colof[i] = c;
	}
	report_init(t, nrows, ncols);
	for (int r = 0; r < nrows; r++)
		t->rows[r] = rows[r];
	for (int c = 0; c < ncols; c++) {
		t->cols[c] = xstrdup(labels[c]);
		for (int r = 0; r < nrows; r++) {
			struct report_cell *cell = report_cell(t, r, c);

			snprintf(cell->label, sizeof(cell->label), "%s", labels[c]);
			snprintf(cell->scheduler, sizeof(cell->scheduler), "%s", scheds[c]);
		}
	}
	for (int i = 0; i < sum->n; i++) {
		const struct jval *v = jval_get(&sum->items[i], "values");
		struct report_cell *cell = report_cell(t, rowof[i], colof[i]);

		if (!v || v->type != JVAL_ARRAY) {
			jfail(L, &sum->items[i], "summary entry %d has no array \"values\"", i);
			goto fail_table;
		}
		if (cell->n) {
			jfail(L, &sum->items[i], "summary entry %d repeats the cell of %s, %s", i,
			      cell->label, t->rows[rowof[i]].workload);
			goto fail_table;
		}
		for (int k = 0; k < v->n; k++) {
			if (v->items[k].type != JVAL_NUMBER) {
				jfail(L, &v->items[k], "summary entry %d: value %d is not a number", i, k);
				goto fail_table;
			}
			report_add_value(cell, v->items[k].num);
		}
	}
	free(rows);
	free(labels);
	free(scheds);
	free(rowof);
	free(colof);
	return 0;
fail_table:
	report_free(t);
fail:
	free(rows);
	free(labels);
	free(scheds);
	free(rowof);
	free(colof);
	return -1;
}

static double *jp99s(const struct jval *dom, int *n)
{
	const struct jval *vcpus = jval_get(dom, "vcpus");
	double *v;

	*n = 0;
	if (!vcpus || vcpus->type != JVAL_ARRAY)
		return NULL;
	v = xcalloc((size_t)vcpus->n + 1, sizeof(*v));
	for (int i = 0; i < vcpus->n; i++) {
		const struct jval *w = jval_get(jval_get(&vcpus->items[i], "wake_latency_ns"), "p99");
		const struct jval *k = jval_get(&vcpus->items[i], "wakeups");

		if (w && w->type == JVAL_NUMBER && k && k->type == JVAL_NUMBER && k->num > 0)
			v[(*n)++] = w->num;
	}
	return v;
}

static int load_runs(const struct jload *L, const struct jval *runs, struct html_report *h)
{
	h->runs = xcalloc((size_t)runs->n + 1, sizeof(*h->runs));
	for (int i = 0; i < runs->n; i++) {
		const struct jval *r = &runs->items[i], *v, *doms;
		struct html_run *o = &h->runs[h->nruns];
		int bench = -1;
		char what[32];

		snprintf(what, sizeof(what), "run %d", i);
		if (r->type != JVAL_OBJECT)
			return jfail(L, r, "%s is not an object", what);
		if (jstring(L, r, "label", o->label, sizeof(o->label), what))
			return -1;
		h->nruns++;
		snprintf(o->host, sizeof(o->host), "%s", jval_get_string(r, "host", ""));
		snprintf(o->workload, sizeof(o->workload), "%s", jval_get_string(r, "workload", ""));
		snprintf(o->dom0_load, sizeof(o->dom0_load), "%s", jval_get_string(r, "dom0_load", ""));
		snprintf(o->check_error, sizeof(o->check_error), "%s",
			 jval_get_string(r, "check_error", ""));
		if ((v = jval_get(r, "iteration")) && v->type == JVAL_NUMBER)
			o->iteration = (int)v->num;
		if (jval_uint64(jval_get(r, "seed"), &o->seed) < 0)
			return jfail(L, r, "%s has no integer \"seed\"", what);
		v = jval_get(jval_get(r, "metric"), "value");
		if (v && v->type == JVAL_NUMBER) {
			o->has_metric = true;
			o->metric = v->num;
		}
		doms = jval_get(r, "domains");
		if (!doms || doms->type != JVAL_ARRAY)
			continue;
		/* The benchmark guest: the domain with a figure, else the first after dom0. */
		for (int d = 0; d < doms->n && bench < 0; d++) {
			const struct jval *m = jval_get(&doms->items[d], "metric");

			if (m && m->type == JVAL_OBJECT)
				bench = d;
		}
		for (int d = 0; d < doms->n && bench < 0; d++) {
			const struct jval *id = jval_get(&doms->items[d], "domid");

			if (id && id->type == JVAL_NUMBER && id->num != 0)
				bench = d;
		}
		for (int d = 0; d < doms->n; d++) {
			const struct jval *dom = &doms->items[d], *id = jval_get(dom, "domid");

			if (d == bench) {
				snprintf(o->bench, sizeof(o->bench), "%s", jval_get_string(dom, "name", "?"));
				o->bench_p99 = jp99s(dom, &o->nbench);
			} else if (id && id->type == JVAL_NUMBER && id->num == 0 && !o->dom0_p99) {
				o->dom0_p99 = jp99s(dom, &o->ndom0);
			}
		}
	}
	return 0;
}

int html_report_from_json(struct html_report *h, const char *path, double alpha,
			  const char *command, struct err *e)
{
	struct jload L = { path, e };
	struct jval doc;
	const struct jval *v, *sum, *runs;
	int rc = -1;

	memset(h, 0, sizeof(*h));
	if (jval_parse_file(path, &doc, e) < 0)
		return -1;
	if (doc.type != JVAL_OBJECT) {
		jfail(&L, &doc, "not a schedsim result (an object with \"runs\" and \"summary\")");
		goto out;
	}
	sum = jval_get(&doc, "summary");
	runs = jval_get(&doc, "runs");
	if (!sum || sum->type != JVAL_ARRAY) {
		jfail(&L, &doc, "no \"summary\": not the result of an experiment (write one with "
		      "--format=json and --iterations, or several workloads or dom0 loads)");
		goto out;
	}
	if (!runs || runs->type != JVAL_ARRAY) {
		jfail(&L, &doc, "no \"runs\" array");
		goto out;
	}
	if (jstring(&L, &doc, "version", h->version, sizeof(h->version), "the result"))
		goto out;
	if (jval_uint64(jval_get(&doc, "seed"), &h->seed) < 0) {
		jfail(&L, &doc, "the result has no integer \"seed\"");
		goto out;
	}
	v = jval_get(&doc, "iterations");
	h->iterations = v && v->type == JVAL_NUMBER ? (int)v->num : 0;
	if (alpha < 0) {
		v = jval_get(&doc, "alpha");
		if (!v || v->type != JVAL_NUMBER || !(v->num > 0 && v->num < 1)) {
			jfail(&L, &doc, "the result has no \"alpha\" between 0 and 1");
			goto out;
		}
		alpha = v->num;
	}
	if (load_summary(&L, sum, &h->t) < 0)
		goto out;
	h->t.alpha = alpha;
	report_compute(&h->t);
	h->command = xstrdup(command);
	snprintf(h->origin, sizeof(h->origin), "%s", path);
	if (load_runs(&L, runs, h) < 0)
		goto out;
	rc = 0;
out:
	jval_free(&doc);
	if (rc < 0)
		html_report_free(h);
	return rc;
}

void html_report_free(struct html_report *h)
{
	for (int i = 0; i < h->nruns; i++) {
		free(h->runs[i].bench_p99);
		free(h->runs[i].dom0_p99);
	}
	free(h->runs);
	free(h->command);
	report_free(&h->t);
	memset(h, 0, sizeof(*h));
}

/* ----------------------------------------------------------- output */

static void text(FILE *f, const char *s)
{
	svg_text(f, s);
}

static const char style[] =
	"body{font-family:sans-serif;margin:24px;max-width:1180px;color:#111;background:#fff}"
	"h1{font-size:1.5em;margin:0 0 12px}h2{font-size:1.2em;margin:28px 0 8px;"
	"border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse}td,th{padding:3px 9px;border:1px solid #ccc;"
	"vertical-align:top}th{background:#f0f0f0;text-align:left}"
	"table.stats td.num{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}table.stats td.vs{white-space:nowrap}"
	"table.meta th{width:11em}code,pre{font-family:monospace}"
	"code.cmd{white-space:pre-wrap;word-break:break-all}"
	"pre.boxes{background:#f7f7f7;border:1px solid #ddd;padding:8px;display:inline-block;"
	"margin:0 12px 12px 0;vertical-align:top}"
	"div.figs{display:flex;flex-wrap:wrap;gap:8px 24px;align-items:flex-start}"
	"figure{display:table;width:1px;margin:0 0 12px}"
	"figcaption{display:table-caption;caption-side:bottom;font-size:.9em;color:#444}"
	"svg.chart text{font-family:sans-serif;fill:#111}svg.chart .title{font-size:14px;"
	"font-weight:bold}svg.chart .axis{font-size:12px}svg.chart .tick,svg.chart .legend,"
	"svg.chart .value{font-size:11px}svg.chart .grid{stroke:#ddd;stroke-width:1}"
	"svg.chart .axisline{stroke:#444;stroke-width:1}svg.chart .whisker{stroke:#111;"
	"stroke-width:1.4;fill:none}svg.chart .dot{fill:#111;fill-opacity:.55}"
	"svg.chart .median{stroke:#111;stroke-width:2}"
	"p.note{font-size:.9em;color:#444}td.err{color:#a00}";

/* The dom0-load setting in words; without the axis the scenario decides. */
static const char *dom0_words(const char *dom0_load)
{
	return dom0_load[0] ? report_dom0_name(dom0_load) : "dom0 as in the scenario";
}

/* "a, b and c" of the distinct non-empty strings, in order. */
static void list_of(FILE *f, const char *const *items, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			fputs(i == n - 1 ? " and " : ", ", f);
		text(f, items[i]);
	}
}

static int distinct(const char **out, const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(out[i], s))
			return n;
	out[n] = s;
	return n + 1;
}

void html_page_begin(FILE *f, const char *title_html)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", f);
	fprintf(f, "<meta name=\"generator\" content=\"schedsim %s\">\n<title>%s</title>\n"
		"<style>%s</style>\n</head>\n<body>\n", PACKAGE_VERSION, title_html, style);
}

void html_page_end(FILE *f)
{
	fprintf(f, "<p class=\"note\">Written by schedsim %s; the figures are a simulation's "
		"predictions, not measurements.</p>\n</body>\n</html>\n", PACKAGE_VERSION);
}

static void header(FILE *f, const struct html_report *h)
{
	const struct report_table *t = &h->t;
	FILE *title;
	char *tbuf = NULL;
	size_t tlen = 0;
	const char **w = xcalloc((size_t)t->nrows + 1, sizeof(*w));
	const char **d = xcalloc((size_t)t->nrows + 1, sizeof(*d));
	int nw = 0, nd = 0;

	for (int r = 0; r < t->nrows; r++) {
		nw = distinct(w, t->rows[r].workload[0] ? t->rows[r].workload : "the scenario's own", nw);
		nd = distinct(d, dom0_words(t->rows[r].dom0_load), nd);
	}
	title = open_memstream(&tbuf, &tlen);
	fputs("schedsim: ", title);
	list_of(title, (const char *const *)t->cols, t->ncols);
	fputs(" &mdash; ", title);
	list_of(title, w, nw);
	fclose(title);
	html_page_begin(f, tbuf);
	free(tbuf);
	fputs("<h1>schedsim report</h1>\n<table class=\"meta\">\n", f);
	if (!strcmp(h->origin, "this run")) {
		fputs("<tr><th>Command</th><td><code class=\"cmd\">", f);
		text(f, h->command ? h->command : "");
		fputs("</code></td></tr>\n", f);
	} else {
		fputs("<tr><th>Command</th><td>not recorded in <code>", f);
		text(f, h->origin);
		fputs("</code> (a results file holds the runs, not the command that made them); "
		      "this report: <code class=\"cmd\">", f);
		text(f, h->command ? h->command : "");
		fputs("</code></td></tr>\n", f);
	}
	fputs("<tr><th>Configurations</th><td>", f);
	for (int c = 0; c < t->ncols; c++) {
		fputs(c ? ", <code>" : "<code>", f);
		text(f, t->cols[c]);
		fputs("</code>", f);
	}
	fprintf(f, " (the first is the baseline)</td></tr>\n<tr><th>Benchmarks</th><td>");
	list_of(f, w, nw);
	fputs("; ", f);
	list_of(f, d, nd);
	fprintf(f, "</td></tr>\n<tr><th>Iterations</th><td>%d per cell; iteration <i>i</i> of "
		"every cell runs with the same seed</td></tr>\n"
		"<tr><th>Seed</th><td>%llu</td></tr>\n<tr><th>Significance</th><td>alpha = %g "
		"(Mann-Whitney U test against the baseline)</td></tr>\n"
		"<tr><th>schedsim</th><td>", h->iterations, (unsigned long long)h->seed, t->alpha);
	text(f, h->version);
	if (strcmp(h->version, PACKAGE_VERSION))
		fprintf(f, " (this report: schedsim %s)", PACKAGE_VERSION);
	fputs("</td></tr>\n", f);
	if (h->scenario[0]) {
		fputs("<tr><th>Scenario</th><td><code>", f);
		text(f, h->scenario);
		fputs("</code></td></tr>\n", f);
	}
	fputs("<tr><th>Results</th><td>", f);
	if (!strcmp(h->origin, "this run")) {
		fputs("from this run", f);
	} else {
		fputs("from <code>", f);
		text(f, h->origin);
		fputs("</code>", f);
	}
	fputs("</td></tr>\n</table>\n", f);
	free(w);
	free(d);
}

static void boxes(FILE *f, const struct report_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	report_text_boxes(m, t);
	fclose(m);
	fputs("<h2 id=\"boxes\">Mailing-list boxes</h2>\n<p class=\"note\">Means of the "
	      "iterations; <code>*</code> marks the best value of each position across the "
	      "boxes.</p>\n", f);
	/* One <pre> per box: the boxes are separated by blank lines. */
	for (char *p = buf, *end; p && *p; p = end) {
		end = strstr(p, "\n\n");
		if (end)
			*end = '\0', end += 2;
		while (*p == '\n')
			p++;
		if (*p) {
			fputs("<pre class=\"boxes\">", f);
			text(f, p);
			fputs("</pre>\n", f);
		}
		if (!end)
			break;
	}
	free(buf);
}

static void statistics(FILE *f, const struct report_table *t)
{
	struct report_grid g;

	report_grid_build(t, &g);
	fputs("<h2 id=\"statistics\">Statistics</h2>\n<p class=\"note\">Mean &plusmn; the "
	      "half-width of its 95&nbsp;% confidence interval as a percentage of the mean; "
	      "against the baseline: the difference of the means when the Mann-Whitney U test "
	      "finds it significant, <code>~</code> when not, with the p-value and the number "
	      "of iterations.</p>\n<table class=\"stats\">\n<tr><th rowspan=\"2\"></th>", f);
	for (int c = 1; c < g.ncols;) {
		int span = 1;

		while (c + span < g.ncols && g.group[c + span] == g.group[c])
			span++;
		fprintf(f, "<th colspan=\"%d\"><code>", span);
		text(f, g.cell[c]);
		fputs("</code></th>", f);
		c += span;
	}
	fputs("</tr>\n<tr>", f);
	for (int c = 1; c < g.ncols; c++) {
		fputs("<th>", f);
		text(f, g.cell[g.ncols + c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (int r = 2; r < g.nrows; r++) {
		fputs("<tr><th>", f);
		text(f, g.cell[r * g.ncols]);
		fputs("</th>", f);
		for (int c = 1; c < g.ncols; c++) {
			fprintf(f, "<td class=\"%s\">", g.kind[c] == REPORT_COL_VS ? "vs" : "num");
			text(f, g.cell[r * g.ncols + c]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	for (int i = 0; i < g.nnotes; i++) {
		fputs("<p class=\"note\">", f);
		text(f, g.notes[i]);
		fputs("</p>\n", f);
	}
	report_grid_free(&g);
}

static void metric_label(char *buf, size_t len, const struct report_row *row)
{
	char name[32];

	snprintf(name, sizeof(name), "%s", row->metric);
	for (char *p = name; *p; p++)
		if (*p == '_')
			*p = ' ';
	snprintf(buf, len, "%s (%s), %s is better", name, row->unit,
		 row->higher_better ? "higher" : "lower");
}

/*
 * One bar chart per benchmark (a workload on a host setting): its rows are
 * the groups, the configurations the bars.
 */
static void figure_charts(FILE *f, const struct report_table *t)
{
	bool *done = xcalloc((size_t)t->nrows + 1, sizeof(*done));
	int n = t->nrows * t->ncols + 1;
	const char **groups = xcalloc((size_t)t->nrows + 1, sizeof(*groups));
	double *mean = xcalloc((size_t)n, sizeof(double)), *lo = xcalloc((size_t)n, sizeof(double));
	double *hi = xcalloc((size_t)n, sizeof(double));
	const double **values = xcalloc((size_t)n, sizeof(*values));
	int *nvalues = xcalloc((size_t)n, sizeof(int));

	fputs("<h2 id=\"plots\">Plots</h2>\n<div class=\"figs\">\n", f);
	for (int r0 = 0; r0 < t->nrows; r0++) {
		const struct report_row *row = &t->rows[r0];
		char title[2 * EXP_NAME_MAX + 16], ylabel[96];
		int ng = 0;
		bool any = false;

		if (done[r0])
			continue;
		for (int r = r0; r < t->nrows; r++) {
			if (strcmp(t->rows[r].workload, row->workload) || strcmp(t->rows[r].host, row->host))
				continue;
			done[r] = true;
			groups[ng] = dom0_words(t->rows[r].dom0_load);
			for (int c = 0; c < t->ncols; c++) {
				const struct report_cell *cell = &t->cells[r * t->ncols + c];
				int i = ng * t->ncols + c;

				mean[i] = cell->n ? cell->s.mean : NAN;
				lo[i] = cell->s.has_mean_ci ? cell->s.mean_lo : NAN;
				hi[i] = cell->s.has_mean_ci ? cell->s.mean_hi : NAN;
				values[i] = cell->values;
				nvalues[i] = cell->n;
				any = any || cell->n > 0;
			}
			ng++;
		}
		if (row->workload[0])
			report_bench_name(row, title, sizeof(title));
		else
			snprintf(title, sizeof(title), "the scenario's workloads%s%s",
				 row->host[0] ? " host:" : "", row->host);
		if (!any) {
			fputs("<p class=\"note\">", f);
			text(f, title);
			fputs(": no run reported a figure, so there is no chart.</p>\n", f);
			continue;
		}
		metric_label(ylabel, sizeof(ylabel), row);
		fputs("<figure>\n", f);
		svg_bars(f, &(struct svg_bars){ title, ylabel, row->unit, ng, t->ncols, groups,
						(const char *const *)t->cols, mean, lo, hi, values,
						nvalues });
		fputs("<figcaption>", f);
		text(f, title);
		fputs(": the mean of each configuration's iterations (bars, labelled), the 95&nbsp;% "
		      "interval of the mean (whiskers) and each iteration's value (dots).</figcaption>\n"
		      "</figure>\n", f);
	}
	fputs("</div>\n", f);
	free(done);
	free(groups);
	free(mean);
	free(lo);
	free(hi);
	free(values);
	free(nvalues);
}

/* Per table row: every vCPU's p99 wake-to-run latency in every iteration, per configuration. */
static void latency_charts(FILE *f, const struct html_report *h)
{
	const struct report_table *t = &h->t;
	int nc = t->ncols;
	double **v = xcalloc((size_t)nc * 2, sizeof(*v));
	int *n = xcalloc((size_t)nc * 2, sizeof(int)), *cap = xcalloc((size_t)nc * 2, sizeof(int));

	fputs("<h2 id=\"latency\">Wake-to-run latency</h2>\n<div class=\"figs\">\n", f);
	for (int r = 0; r < t->nrows; r++) {
		const struct report_row *row = &t->rows[r];
		char title[4 * EXP_NAME_MAX], bench[80] = "";
		const char *panels[2];
		bool any = false;

		memset(n, 0, (size_t)nc * 2 * sizeof(int));
		for (int k = 0; k < h->nruns; k++) {
			const struct html_run *run = &h->runs[k];
			int c;

			if (strcmp(run->workload, row->workload) || strcmp(run->dom0_load, row->dom0_load) ||
			    strcmp(run->host, row->host))
				continue;
			for (c = 0; c < nc && strcmp(t->cols[c], run->label); c++)
				;
			if (c == nc)
				continue;
			if (run->bench[0] && !bench[0])
				snprintf(bench, sizeof(bench), "%s vCPUs", run->bench);
			for (int p = 0; p < 2; p++) {
				const double *src = p ? run->dom0_p99 : run->bench_p99;
				int m = p ? run->ndom0 : run->nbench, i = p * nc + c;

				if (n[i] + m > cap[i]) {
					cap[i] = 2 * (n[i] + m);
					v[i] = xreallocarray(v[i], (size_t)cap[i], sizeof(double));
				}
				for (int j = 0; j < m; j++)
					v[i][n[i]++] = src[j];
				any = any || m > 0;
			}
		}
		if (!any)
			continue;
		report_row_name(row, title, sizeof(title));
		panels[0] = bench[0] ? bench : "guest vCPUs";
		panels[1] = "dom0 vCPUs";
		fputs("<figure>\n", f);
		svg_strip(f, &(struct svg_strip){ title, "wake-to-run latency, p99 of each vCPU",
						  2, nc, panels, (const char *const *)t->cols,
						  (const double *const *)v, n });
		fputs("<figcaption>", f);
		text(f, title);
		fputs(": each vCPU's 99th percentile of wake-to-run latency in each iteration "
		      "(dots; log scale; vCPUs that never woke are left out, a latency of 0 "
		      "is drawn at 1 ns) and their median (bar), for the benchmark guest and "
		      "dom0.</figcaption>\n</figure>\n", f);
	}
	fputs("</div>\n", f);
	for (int i = 0; i < nc * 2; i++)
		free(v[i]);
	free(v);
	free(n);
	free(cap);
}

static void runs_table(FILE *f, const struct html_report *h)
{
	char num[64];

	fprintf(f, "<h2 id=\"runs\">Runs</h2>\n<details>\n<summary>%d runs, in the order of the "
		"JSON <code>runs</code> array</summary>\n<p class=\"note\">One run is repeated "
		"alone by its configuration, benchmark and seed: <code>schedsim --sched=LABEL "
		"--workload=W --dom0-load=D --host=H --seed=SEED</code> with the scenario of the "
		"experiment (no <code>--host</code> where the host is the scenario's).</p>\n"
		"<table>\n<tr><th>#</th><th>configuration</th><th>host</th><th>workload</th>"
		"<th>dom0 load</th>"
		"<th>iteration</th><th>seed</th><th>figure</th><th>invariant check</th></tr>\n",
		h->nruns);
	for (int i = 0; i < h->nruns; i++) {
		const struct html_run *r = &h->runs[i];

		fprintf(f, "<tr><td>%d</td><td><code>", i);
		text(f, r->label);
		fputs("</code></td><td>", f);
		text(f, r->host[0] ? r->host : "-");
		fputs("</td><td>", f);
		text(f, r->workload[0] ? r->workload : "-");
		fputs("</td><td>", f);
		text(f, r->dom0_load[0] ? r->dom0_load : "-");
		if (r->has_metric)
			snprintf(num, sizeof(num), "%.6g", r->metric);
		else
			snprintf(num, sizeof(num), "-");
		fprintf(f, "</td><td>%d</td><td>%llu</td><td>%s</td>", r->iteration,
			(unsigned long long)r->seed, num);
		if (r->check_error[0]) {
			fputs("<td class=\"err\">", f);
			text(f, r->check_error);
			fputs("</td></tr>\n", f);
		} else {
			fputs("<td></td></tr>\n", f);
		}
	}
	fputs("</table>\n</details>\n", f);
}

void report_html(FILE *f, const struct html_report *h)
{
	header(f, h);
	boxes(f, &h->t);
	statistics(f, &h->t);
	figure_charts(f, &h->t);
	latency_charts(f, h);
	runs_table(f, h);
	html_page_end(f);
}
