/*
 * --plot: the options, finding gnuplot, writing each picture's data file
 * and script into DIR, and running gnuplot on the scripts (see plot.h).
 *
 * The scripts' bodies are plots/NAME.gp, compiled into the binary
 * (plots/scripts.c, made by sim/embed-text.sh) so that the program and its
 * pictures always match; SCHEDSIM_PLOTS=DIR reads them from DIR instead,
 * for whoever is editing them.  Each script written to DIR is a header
 * with this experiment's settings (terminal, output, names, counts) and
 * then that body, so it re-runs on its own in DIR.
 *
 * The data files hold plain numbers with a commented header naming the
 * columns; strings are double-quoted, which gnuplot reads as one column.
 * Means and intervals are printed with 17 digits: they are the numbers of
 * the tables, and a test compares them with the JSON summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/output/plot.h"
#include "config.h"
#include "sim/experiment/run.h"
#include "sim/params.h"
#include "sim/xalloc.h"

/* plots/scripts.c */
extern const char plot_gp_comparison[], plot_gp_latency[], plot_gp_timeline[],
	plot_gp_credit[];

#define DEFAULT_FROM MSEC(1000)
#define DEFAULT_TO MSEC(1100)
#define CREDIT_SAMPLES 2000     /* per vCPU over the window */

static const char *const format_ext[] = { "png", "svg", "pdf" };

/* ----------------------------------------------------------- options */

static int parse_window(const char *arg, stime_t *from, stime_t *to, struct err *e)
{
	const char *colon = strchr(arg, ':');
	char part[128];
	size_t len;

	if (!colon)
		return err_set(e, "--plot-window: '%s' is not FROM:TO (e.g. 2s:2.1s)", arg);
	len = (size_t)(colon - arg);
	if (len == 0 || len >= sizeof(part) || !colon[1])
		return err_set(e, "--plot-window: '%s' needs both FROM and TO (e.g. 2s:2.1s)", arg);
	memcpy(part, arg, len);
	part[len] = '\0';
	if (parse_duration(part, from, e) < 0)
		return err_prefix(e, "--plot-window: FROM");
	if (parse_duration(colon + 1, to, e) < 0)
		return err_prefix(e, "--plot-window: TO");
	if (*from < 0 || *to <= *from)
		return err_set(e, "--plot-window: '%s': TO must be after FROM, both >= 0", arg);
	return 0;
}

int plot_parse_vcpu(const char *s, struct plot_vcpu *v, struct err *e)
{
	char *end;
	long d, n;

	if (s[0] != 'd' || !(s[1] >= '0' && s[1] <= '9'))
		goto bad;
	d = strtol(s + 1, &end, 10);
	if (*end != 'v' || !(end[1] >= '0' && end[1] <= '9'))
		goto bad;
	n = strtol(end + 1, &end, 10);
	if (*end || d > 65535 || n > 65535)
		goto bad;
	v->domid = (int)d;
	v->vcpu = (int)n;
	return 0;
bad:
	return err_set(e, "--plot-credit: '%s' is not a vCPU (write dDOMIDvVCPU, e.g. d1v0)", s);
}

/* Calls fn on each item of a comma list (items copied, at most 63 characters). */
static int each_item(const char *opt, const char *arg, int max, int *n,
		     int (*fn)(const char *item, void *ctx, int i, struct err *e), void *ctx,
		     struct err *e)
{
	const char *p = arg;

	*n = 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char item[64];

		if (len == 0 || len >= sizeof(item))
			return err_set(e, "%s: '%s' has an empty or overlong item", opt, arg);
		if (*n == max)
			return err_set(e, "%s: at most %d items", opt, max);
		memcpy(item, p, len);
		item[len] = '\0';
		if (fn(item, ctx, (*n)++, e) < 0)
			return -1;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int run_item(const char *item, void *ctx, int i, struct err *e)
{
	struct plot_cli *c = ctx;
	long long v;

	if (parse_int(item, 0, 1 << 30, &v, e) < 0)
		return err_prefix(e, "--plot-timeline: run '%s'", item);
	c->runs[i] = (int)v;
	for (int j = 0; j < i; j++)
		if (c->runs[j] == c->runs[i])
			return err_set(e, "--plot-timeline: run %s is listed twice", item);
	return 0;
}

static int vcpu_item(const char *item, void *ctx, int i, struct err *e)
{
	struct plot_cli *c = ctx;

	return plot_parse_vcpu(item, &c->vcpus[i], e);
}

int plot_cli_option(struct plot_cli *c, int opt, const char *arg, struct err *e)
{
	switch (opt) {
	case PLOT_OPT_DIR:
		if (!arg[0])
			return err_set(e, "--plot: the directory name is empty");
		c->dir = arg;
		return 0;
	case PLOT_OPT_FORMAT:
		for (int f = 0; f < 3; f++)
			if (!strcmp(arg, format_ext[f])) {
				c->format = (enum plot_format)f;
				c->format_set = true;
				return 0;
			}
		return err_set(e, "--plot-format: '%s' is not valid (valid: png, svg, pdf)", arg);
	case PLOT_OPT_TIMELINE:
		return each_item("--plot-timeline", arg, PLOT_MAX_RUNS, &c->nruns, run_item, c, e);
	case PLOT_OPT_WINDOW:
		c->window_set = true;
		return parse_window(arg, &c->from, &c->to, e);
	case PLOT_OPT_CREDIT:
		return each_item("--plot-credit", arg, PLOT_MAX_VCPUS, &c->nvcpus, vcpu_item, c, e);
	}
	return err_set(e, "plot: unknown option code %d", opt);
}

bool plot_find_program(const char *name, const char *path, char *out, size_t len)
{
	const char *p;

	if (!path)
		path = getenv("PATH");
	if (!path)
		return false;
	for (p = path;;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		struct stat st;

		/* An empty entry is the current directory, as for execvp. */
		if (n + strlen(name) + 2 < len) {
			if (n)
				snprintf(out, len, "%.*s/%s", (int)n, p, name);
			else
				snprintf(out, len, "./%s", name);
			if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
				return true;
		}
		if (!colon)
			return false;
		p = colon + 1;
	}
}

int plot_cli_check(struct plot_cli *c, struct err *e)
{
	if (!c->dir) {
		if (c->format_set)
			return err_set(e, "--plot-format needs --plot=DIR");
		if (c->nruns)
			return err_set(e, "--plot-timeline needs --plot=DIR");
		if (c->window_set)
			return err_set(e, "--plot-window needs --plot=DIR");
		if (c->nvcpus)
			return err_set(e, "--plot-credit needs --plot=DIR");
		return 0;
	}
	if (!c->window_set) {
		c->from = DEFAULT_FROM;
		c->to = DEFAULT_TO;
	}
	if (!plot_find_program("gnuplot", NULL, c->gnuplot, sizeof(c->gnuplot)))
		return err_set(e, "--plot: gnuplot is not installed (not found in PATH); "
			       "install the Debian package gnuplot-nox");
	return 0;
}

/* ------------------------------------------------- the matrix, again */

struct coords {
	int s, w, d, i;         /* w: the bench (host setting x workload) */
};

static int axis_len(int n)
{
	return n > 0 ? n : 1;
}

static struct coords run_coords(const struct experiment *x, int idx)
{
	struct experiment_coords c = experiment_coords(x, idx);

	return (struct coords){ c.s, c.b, c.d, c.i };
}

static int matrix_runs(const struct experiment *x)
{
	return experiment_total(x);
}

/* Bench w's name: "iperf:tcp_rmem_max=1048576 host:nodes=1"; "" for the scenario's own. */
static void bench_name(const struct experiment *x, int w, char *buf, size_t len)
{
	const char *h = experiment_host(x, w), *wl = experiment_workload(x, w);

	snprintf(buf, len, "%s%s%s", wl ? wl : "", h ? (wl ? " host:" : "host:") : "", h ? h : "");
}

/* The scenario run idx ran (its seed included), as experiment.c builds it. */
static int run_scenario_of(const struct experiment *x, int idx, struct scenario *sc,
			   struct err *e)
{
	struct coords c = run_coords(x, idx);

	if (experiment_scenario(x, c.w, c.d, sc, e))
		return -1;
	sc->seed = experiment_seed(x->seed, c.i);
	return 0;
}

/* The domid sim_build gives scenario domain k: dom0 is 0, the others 1, 2, ... */
static int scenario_domid(const struct scenario *sc, int k)
{
	int next = 1;

	for (int i = 0; i < k; i++)
		if (strcmp(sc->doms[i].name, "dom0"))
			next++;
	return strcmp(sc->doms[k].name, "dom0") ? next : 0;
}

static int check_vcpus(const struct plot_cli *c, const struct experiment *x, int run,
		       struct err *e)
{
	struct scenario sc;

	if (!c->nvcpus)
		return 0;
	if (run_scenario_of(x, run, &sc, e))
		return -1;
	for (int i = 0; i < c->nvcpus; i++) {
		bool found = false;
		char doms[256] = "";

		for (int k = 0; k < sc.ndoms; k++) {
			size_t n = strlen(doms);

			if (scenario_domid(&sc, k) == c->vcpus[i].domid &&
			    c->vcpus[i].vcpu < sc.doms[k].vcpus)
				found = true;
			snprintf(doms + n, sizeof(doms) - n, "%sd%d %s: %d vCPUs", k ? ", " : "",
				 scenario_domid(&sc, k), sc.doms[k].name, sc.doms[k].vcpus);
		}
		if (!found) {
			err_set(e, "--plot-credit: d%dv%d is not a vCPU of run %d (%s)",
				c->vcpus[i].domid, c->vcpus[i].vcpu, run, doms);
			scenario_free(&sc);
			return -1;
		}
	}
	scenario_free(&sc);
	return 0;
}

static int make_dir(const char *dir, struct err *e);

/*
 * Without --plot-timeline: iteration 0 of the last workload and dom0-load
 * cell (the loaded one, in the usual order off,on) for every configuration,
 * so the pictures compare the schedulers on the same random workload.
 */
static int default_run(const struct experiment *x, int s)
{
	return experiment_index(x, s, experiment_nbench(x) - 1, axis_len(x->ndom0) - 1, 0);
}

int plot_prepare(const struct plot_cli *c, struct experiment *x, struct err *e)
{
	int n = matrix_runs(x);

	if (!c->dir)
		return 0;
	/* Now, not after a long experiment: a directory we cannot make fails at once. */
	if (make_dir(c->dir, e))
		return -1;
	x->ropt.keep_histograms = true;
	for (int i = 0; i < c->nruns; i++)
		if (c->runs[i] >= n)
			return err_set(e, "--plot-timeline: run %d does not exist (the experiment "
				       "has %d runs, numbered 0 to %d as in the JSON \"runs\")",
				       c->runs[i], n, n - 1);
	for (int i = 0; i < c->nruns; i++)
		if (check_vcpus(c, x, c->runs[i], e))
			return -1;
	for (int s = 0; !c->nruns && s < x->nscheds && s < PLOT_MAX_RUNS; s++)
		if (check_vcpus(c, x, default_run(x, s), e))
			return -1;
	return 0;
}

/* ------------------------------------------------------ file helpers */

static int make_dir(const char *dir, struct err *e)
{
	char path[4096];
	size_t len = strlen(dir);

	if (len >= sizeof(path))
		return err_set(e, "--plot: '%s' is too long", dir);
	memcpy(path, dir, len + 1);
	for (char *p = path + 1;; p++) {
		if (*p == '/' || !*p) {
			char save = *p;

			*p = '\0';
			if (mkdir(path, 0777) && errno != EEXIST)
				return err_set(e, "--plot: cannot create '%s': %s", path,
					       strerror(errno));
			*p = save;
			if (!save)
				break;
		}
	}
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return err_set(e, "--plot: '%s' is not a directory", dir);
	return 0;
}

static FILE *open_in(const char *dir, const char *name, struct err *e)
{
	char path[4608];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		err_set(e, "--plot: cannot write '%s': %s", path, strerror(errno));
	return f;
}

static int close_in(FILE *f, const char *dir, const char *name, struct err *e)
{
	if (ferror(f) | (fclose(f) != 0))
		return err_set(e, "--plot: error writing '%s/%s'", dir, name);
	return 0;
}

/* A gnuplot single-quoted string: only ' needs escaping (doubled). */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* A data-file string column: double-quoted, inner quotes dropped. */
static void dat_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		if (*s != '"' && *s != '\n')
			fputc(*s, f);
	fputc('"', f);
}

static void dat_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.17g", v);
	else
		fputs(" NaN", f);
}

/* "make-xen" -> "make-xen"; anything outside [A-Za-z0-9._-] becomes '_'. */
static void file_part(char *out, size_t len, const char *s, const char *empty)
{
	size_t n = 0;

	if (!s[0])
		s = empty;
	for (; *s && n + 1 < len; s++)
		out[n++] = (strchr("._-", *s) || (*s >= '0' && *s <= '9') ||
			    (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')) ? *s : '_';
	out[n] = '\0';
}

/* ----------------------------------------------------------- scripts */

struct script {
	FILE *f;
	char name[256];         /* without extension */
};

static int read_body(const char *name, const char *embedded, char **out, struct err *e)
{
	const char *dir = getenv("SCHEDSIM_PLOTS");
	char path[4096];
	FILE *f;
	long n;

	if (!dir || !dir[0]) {
		*out = xstrdup(embedded);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s.gp", dir, name);
	f = fopen(path, "r");
	if (!f)
		return err_set(e, "--plot: SCHEDSIM_PLOTS: cannot read '%s': %s", path,
			       strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*out = xmalloc((size_t)(n > 0 ? n : 0) + 1);
	n = (long)fread(*out, 1, (size_t)(n > 0 ? n : 0), f);
	(*out)[n] = '\0';
	fclose(f);
	return 0;
}

/* Opens DIR/NAME.gp and writes the terminal and output settings. */
static int script_open(struct script *sc, const struct plot_cli *c, const char *name,
		       int width, int height, struct err *e)
{
	char file[300];
	FILE *f;

	snprintf(sc->name, sizeof(sc->name), "%s", name);
	snprintf(file, sizeof(file), "%s.gp", name);
	f = sc->f = open_in(c->dir, file, e);
	if (!f)
		return -1;
	fprintf(f, "# Written by schedsim %s --plot.  Restyle and re-run here:\n"
		"#     gnuplot %s.gp\n"
		"# The settings of this picture come first, then the body of plots/%s.gp.\n\n",
		PACKAGE_VERSION, name, name);
	switch (c->format) {
	case PLOT_PNG:
		fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			"    set terminal pngcairo noenhanced size %d,%d font 'sans,10'\n"
			"} else {\n"
			"    set terminal png noenhanced size %d,%d\n"
			"}\n", width, height, width, height);
		break;
	case PLOT_SVG:
		fprintf(f, "set terminal svg noenhanced size %d,%d font 'sans,10' "
			"background rgb 'white'\n", width, height);
		break;
	case PLOT_PDF:
		fprintf(f, "set terminal pdfcairo noenhanced size %.2fin,%.2fin font 'sans,8'\n",
			width / 96.0, height / 96.0);
		break;
	}
	fprintf(f, "set output '%s.%s'\n", name, format_ext[c->format]);
	return 0;
}

static void script_array(FILE *f, const char *var, const char *const *items, int n)
{
	fprintf(f, "array %s[%d] = [", var, n);
	for (int i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		gp_string(f, items[i]);
	}
	fputs("]\n", f);
}

/* Appends the body and closes the script. */
static int script_close(struct script *sc, const struct plot_cli *c, const char *body_name,
			const char *embedded, struct err *e)
{
	char *body;
	char file[300];

	snprintf(file, sizeof(file), "%s.gp", sc->name);
	if (read_body(body_name, embedded, &body, e)) {
		fclose(sc->f);
		return -1;
	}
	fprintf(sc->f, "\n# --- plots/%s.gp ---\n", body_name);
	fputs(body, sc->f);
	free(body);
	return close_in(sc->f, c->dir, file, e);
}

/* The last non-empty line of a file (gnuplot's error), "" when none. */
static void last_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[strspn(line, " \t^")])
			snprintf(out, len, "%s", line + strspn(line, " \t"));
	}
	fclose(f);
}

/*
 * Runs gnuplot NAME.gp in DIR, its messages going to DIR/NAME.log; the log
 * is removed when it is empty, kept (and named) otherwise.
 */
static int run_gnuplot(const struct plot_cli *c, const char *name, struct err *e)
{
	char log[4608], script[300], logname[300], msg[512];
	struct stat st;
	int status;
	pid_t pid;

	snprintf(script, sizeof(script), "%s.gp", name);
	snprintf(logname, sizeof(logname), "%s.log", name);
	snprintf(log, sizeof(log), "%s/%s", c->dir, logname);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return err_set(e, "--plot: fork: %s", strerror(errno));
	if (pid == 0) {
		int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		int null = open("/dev/null", O_RDWR);

		if (out < 0 || null < 0 || chdir(c->dir) < 0)
			_exit(126);
		dup2(null, STDIN_FILENO);
		dup2(out, STDOUT_FILENO);
		dup2(out, STDERR_FILENO);
		execl(c->gnuplot, "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return err_set(e, "--plot: waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		last_line(log, msg, sizeof(msg));
		return err_set(e, "--plot: gnuplot failed on %s/%s: %s (see %s)", c->dir, script,
			       msg[0] ? msg : "no message", log);
	}
	if (stat(log, &st) == 0 && st.st_size == 0)
		remove(log);
	return 0;
}

/* -------------------------------------------------------- comparison */

static void metric_label(const struct report_row *row, char *buf, size_t len)
{
	char name[32];

	if (!row->metric[0]) {
		snprintf(buf, len, "no figure");
		return;
	}
	snprintf(name, sizeof(name), "%s", row->metric);
	for (char *p = name; *p; p++)
		if (*p == '_')
			*p = ' ';
	snprintf(buf, len, "%s (%s), %s is better", name, row->unit,
		 row->higher_better ? "higher" : "lower");
}

/* One line of comparison.dat: the cell's figures as the tables have them. */
static void comparison_line(FILE *f, const struct report_row *row,
			    const struct report_cell *cell, int panel, int d, int k)
{
	dat_string(f, row->workload);
	fputc(' ', f);
	dat_string(f, row->dom0_load);
	fputc(' ', f);
	dat_string(f, cell->label);
	fprintf(f, " %d %d %d %d", panel, d, k, cell->n);
	dat_number(f, cell->n ? cell->s.mean : NAN);
	dat_number(f, cell->s.has_mean_ci ? cell->s.mean_lo : NAN);
	dat_number(f, cell->s.has_mean_ci ? cell->s.mean_hi : NAN);
	dat_number(f, cell->n ? cell->s.median : NAN);
	dat_number(f, cell->n > 1 ? cell->s.stddev : NAN);
	dat_number(f, cell->n ? cell->s.min : NAN);
	dat_number(f, cell->n ? cell->s.max : NAN);
	fputc('\n', f);
}

static int plot_comparison(const struct plot_cli *c, const struct experiment *x,
			   const struct report_table *t, struct err *e)
{
	int nw = experiment_nbench(x), nd = axis_len(x->ndom0);
	char (*wname)[600] = xcalloc((size_t)nw, sizeof(*wname));
	const char **wl = xcalloc((size_t)nw, sizeof(*wl));
	const char **dl = xcalloc((size_t)nd, sizeof(*dl));
	const char **cl = xcalloc((size_t)t->ncols, sizeof(*cl));
	char (*yl)[96] = xcalloc((size_t)nw, sizeof(*yl));
	const char **ylp = xcalloc((size_t)nw, sizeof(*ylp));
	int *panel = xcalloc((size_t)nw, sizeof(*panel)), np = 0;
	double *ymax = xcalloc((size_t)nw, sizeof(*ymax));
	struct script sc;
	FILE *f;
	int rc = -1;

	/* A panel for each workload with a figure (gnuplot cannot draw none). */
	for (int w = 0; w < nw; w++) {
		panel[w] = -1;
		for (int r = w * nd; r < (w + 1) * nd; r++)
			for (int k = 0; k < t->ncols; k++)
				if (t->cells[r * t->ncols + k].n > 0)
					panel[w] = np;
		np += panel[w] >= 0;
	}
	f = open_in(c->dir, "comparison.dat", e);
	if (!f)
		goto out;
	fputs("# schedsim comparison: one line per cell, the figures of the tables\n"
	      "# (ci95: Student t interval of the mean; NaN: not defined; panel -1: no figure)\n"
	      "# workload dom0_load label panel dindex cindex n mean ci95_low ci95_high "
	      "median stddev min max\n", f);
	for (int r = 0; r < t->nrows; r++) {
		const struct report_row *row = &t->rows[r];
		int w = r / nd, d = r % nd, p = panel[w];

		dl[d] = report_dom0_name(row->dom0_load);
		for (int k = 0; p >= 0 && k < t->ncols; k++) {
			const struct report_cell *cell = &t->cells[r * t->ncols + k];

			ymax[p] = fmax(ymax[p], cell->n ? cell->s.mean : 0);
			ymax[p] = fmax(ymax[p], cell->s.has_mean_ci ? cell->s.mean_hi : 0);
		}
		if (p >= 0) {
			if (row->workload[0] || row->host[0])
				report_bench_name(row, wname[p], sizeof(wname[p]));
			else
				snprintf(wname[p], sizeof(wname[p]), "scenario");
			wl[p] = wname[p];
			if (row->metric[0] && !yl[p][0])
				metric_label(row, yl[p], sizeof(yl[p]));
		}
		for (int k = 0; k < t->ncols; k++)
			comparison_line(f, row, &t->cells[r * t->ncols + k], p, d, k);
	}
	if (close_in(f, c->dir, "comparison.dat", e))
		goto out;
	if (!np) {
		fprintf(stderr, "schedsim: note: --plot: no run reported a figure; "
			"no comparison picture\n");
		rc = 1;
		goto out;
	}
	for (int k = 0; k < t->ncols; k++)
		cl[k] = t->cols[k];
	for (int p = 0; p < np; p++)
		ylp[p] = yl[p];
	if (script_open(&sc, c, "comparison", 80 + 420 * np, 480, e))
		goto out;
	fprintf(sc.f, "datafile = 'comparison.dat'\n"
		"nworkloads = %d\nndom0 = %d\nnconfigs = %d\n", np, nd, t->ncols);
	script_array(sc.f, "workload", wl, np);
	script_array(sc.f, "ylabel", ylp, np);
	fprintf(sc.f, "array ymax[%d] = [", np);
	for (int p = 0; p < np; p++)
		fprintf(sc.f, "%s%.17g", p ? ", " : "", ymax[p]);
	fputs("]\n", sc.f);
	script_array(sc.f, "dom0", dl, nd);
	script_array(sc.f, "config", cl, t->ncols);
	fprintf(sc.f, "iterations = %d\n", x->iterations);
	rc = script_close(&sc, c, "comparison", plot_gp_comparison, e);
out:
	free(wl);
	free(wname);
	free(dl);
	free(cl);
	free(yl);
	free(ylp);
	free(panel);
	free(ymax);
	return rc;
}

/*
 * One table as the comparison picture draws a workload: a group of bars per
 * row, a bar per column (a named evaluation's table, eval_report.h).
 */
int plot_table(const struct plot_cli *c, const char *name, const char *title,
	       const struct report_table *t, int iterations, struct err *e)
{
	const char **rows = xcalloc((size_t)t->nrows + 1, sizeof(*rows));
	const char **cols = xcalloc((size_t)t->ncols + 1, sizeof(*cols));
	char ylabel[96] = "", file[300], base[256];
	const char *yl = ylabel;
	double ymax = 0;
	struct script sc;
	FILE *f;
	int rc = -1;

	if (make_dir(c->dir, e))
		goto out;
	file_part(base, sizeof(base), name, "table");
	snprintf(file, sizeof(file), "%s.dat", base);
	f = open_in(c->dir, file, e);
	if (!f)
		goto out;
	fputs("# schedsim table: one line per cell (rows are the groups, columns the bars)\n"
	      "# (ci95: Student t interval of the mean; NaN: not defined)\n"
	      "# row unused label panel dindex cindex n mean ci95_low ci95_high "
	      "median stddev min max\n", f);
	for (int r = 0; r < t->nrows; r++) {
		rows[r] = t->rows[r].workload;
		if (t->rows[r].metric[0] && !ylabel[0])
			metric_label(&t->rows[r], ylabel, sizeof(ylabel));
		for (int k = 0; k < t->ncols; k++) {
			const struct report_cell *cell = &t->cells[r * t->ncols + k];

			ymax = fmax(ymax, cell->n ? cell->s.mean : 0);
			ymax = fmax(ymax, cell->s.has_mean_ci ? cell->s.mean_hi : 0);
			comparison_line(f, &t->rows[r], cell, 0, r, k);
		}
	}
	if (close_in(f, c->dir, file, e))
		goto out;
	for (int k = 0; k < t->ncols; k++)
		cols[k] = t->cols[k];
	if (!ylabel[0])
		yl = "no figure";
	if (script_open(&sc, c, base, 160 + 70 * t->nrows * (t->ncols + 1), 480, e))
		goto out;
	fprintf(sc.f, "datafile = '%s'\nnworkloads = 1\nndom0 = %d\nnconfigs = %d\n", file,
		t->nrows, t->ncols);
	script_array(sc.f, "workload", &title, 1);
	script_array(sc.f, "ylabel", &yl, 1);
	fprintf(sc.f, "array ymax[1] = [%.17g]\n", ymax);
	script_array(sc.f, "dom0", rows, t->nrows);
	script_array(sc.f, "config", cols, t->ncols);
	fprintf(sc.f, "iterations = %d\n", iterations);
	if (script_close(&sc, c, "comparison", plot_gp_comparison, e) == 0 &&
	    run_gnuplot(c, base, e) == 0)
		rc = 0;
out:
	free(rows);
	free(cols);
	return rc;
}

/* ----------------------------------------------------------- latency */

void plot_write_cdf(FILE *f, const char *label, const struct hist *h)
{
	uint64_t seen = 0;
	bool first = true;

	if (!h->count || !h->buckets)
		return;
	for (int i = 0; i < HIST_BUCKETS; i++) {
		stime_t high;

		if (!h->buckets[i])
			continue;
		if (first) {            /* the curve rises from the bucket's low edge */
			stime_t low = hist_bucket_low(i);

			fprintf(f, "%s %.6g 0 0\n", label, (low < 1 ? 1 : low) / 1e3);
			first = false;
		}
		seen += h->buckets[i];
		high = i + 1 < HIST_BUCKETS ? hist_bucket_low(i + 1) - 1 : h->max;
		if (high > h->max)
			high = h->max;
		fprintf(f, "%s %.6g %.17g %llu\n", label, (high < 1 ? 1 : high) / 1e3,
			(double)seen / (double)h->count, (unsigned long long)seen);
	}
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

static int dom0_domain(const struct run_result *r)
{
	for (int d = 0; d < r->ndoms; d++)
		if (r->doms[d].domid == 0)
			return d;
	return -1;
}

static void merge_domain(struct hist *h, const struct run_result *r, int d)
{
	if (d < 0)
		return;
	for (int v = 0; v < r->doms[d].nvcpus; v++)
		hist_merge(h, &r->doms[d].vcpus[v].wake_latency);
}

static int plot_latency_row(const struct plot_cli *c, const struct experiment *x, int w,
			    int d, struct err *e)
{
	char bench[600], wpart[200], dpart[200], name[420], dat[430], label[32], panel[2][160];
	char rowtitle[700];
	const char *panels[2] = { panel[0], panel[1] };
	const char **cl = xcalloc((size_t)x->nscheds * 2, sizeof(*cl));
	char (*ct)[600] = xcalloc((size_t)x->nscheds * 2, sizeof(*ct));
	size_t wlen = 12 * (size_t)x->nscheds + 1;
	char *with[2] = { xcalloc(wlen, 1), xcalloc(wlen, 1) };   /* curves with points */
	stime_t top[2] = { 0, 0 };    /* the longest latency of each panel */
	const struct run_result *r0 = &x->runs[experiment_index(x, 0, w, d, 0)];
	int bd = bench_domain(r0), dd = dom0_domain(r0);
	struct script sc;
	FILE *f;
	int rc = -1;

	bench_name(x, w, bench, sizeof(bench));
	file_part(wpart, sizeof(wpart), bench, "scenario");
	file_part(dpart, sizeof(dpart), x->ndom0 ? x->dom0_loads[d] : "", "");
	snprintf(name, sizeof(name), "latency-%s%s%s", wpart, dpart[0] ? "-" : "", dpart);
	snprintf(dat, sizeof(dat), "%s.dat", name);
	snprintf(panel[0], sizeof(panel[0]), "%s vCPUs%s", bd >= 0 ? r0->doms[bd].name : "-",
		 bd >= 0 && r0->doms[bd].metric.valid ? " (the benchmark guest)" : "");
	snprintf(panel[1], sizeof(panel[1]), "%s vCPUs", dd >= 0 ? r0->doms[dd].name : "-");
	snprintf(rowtitle, sizeof(rowtitle), "%s%s%s", bench,
		 bench[0] && x->ndom0 ? ", " : "",
		 x->ndom0 ? report_dom0_name(x->dom0_loads[d]) : "");
	f = open_in(c->dir, dat, e);
	if (!f)
		goto out;
	fputs("# schedsim wake-to-run latency CDF: every vCPU of the domain, every iteration\n"
	      "# panel (0: benchmark guest, 1: dom0) config latency_us fraction_le count_le\n", f);
	for (int p = 0; p < 2; p++)
		for (int s = 0; s < x->nscheds; s++) {
			struct hist h = { 0, 0, 0, NULL };

			for (int i = 0; i < x->iterations; i++) {
				const struct run_result *r = &x->runs[experiment_index(x, s, w, d, i)];

				merge_domain(&h, r, p == 0 ? bench_domain(r) : dom0_domain(r));
			}
			fprintf(f, "# %s, %s: %llu wake-ups\n", panel[p], x->scheds[s].text,
				(unsigned long long)h.count);
			snprintf(ct[p * x->nscheds + s], sizeof(ct[0]), "%s (%llu wake-ups)",
				 x->scheds[s].text, (unsigned long long)h.count);
			cl[p * x->nscheds + s] = ct[p * x->nscheds + s];
			if (h.max > top[p])
				top[p] = h.max;
			if (h.count)
				snprintf(with[p] + strlen(with[p]), wlen - strlen(with[p]), "%s%d",
					 with[p][0] ? " " : "", s);
			snprintf(label, sizeof(label), "%d %d", p, s);
			plot_write_cdf(f, label, &h);
			fputs("\n", f);
			hist_free(&h);
		}
	if (close_in(f, c->dir, dat, e))
		goto out;
	if (script_open(&sc, c, name, 1000, 440, e))
		goto out;
	fprintf(sc.f, "datafile = '%s'\nnconfigs = %d\nrowtitle = ", dat, x->nscheds);
	gp_string(sc.f, rowtitle);
	fputc('\n', sc.f);
	script_array(sc.f, "panel", panels, 2);
	script_array(sc.f, "curve", cl, 2 * x->nscheds);
	script_array(sc.f, "drawn", (const char *const *)with, 2);
	fprintf(sc.f, "array xmax_us[2] = [%.6g, %.6g]\n", top[0] / 1e3, top[1] / 1e3);
	fprintf(sc.f, "iterations = %d\n", x->iterations);
	rc = script_close(&sc, c, "latency", plot_gp_latency, e);
	if (!rc)
		rc = run_gnuplot(c, name, e);
out:
	free(cl);
	free(ct);
	free(with[0]);
	free(with[1]);
	return rc;
}

/* ------------------------------------------------ timeline and credit */

/* ms of run time per unit of the scheduler's credit, for a common axis. */
static double credit_scale(const char *sched, const char **unit)
{
	if (!strcmp(sched, "credit1")) {
		*unit = "credit (ms of run time; 1 credit = 0.1 ms)";
		return 0.1;
	}
	if (!strcmp(sched, "credit2")) {
		*unit = "credit (ms of run time at the highest weight)";
		return 1e-6;
	}
	if (!strcmp(sched, "rtds")) {
		*unit = "budget left in the period (ms)";
		return 1e-6;
	}
	*unit = "credit (the scheduler's units)";
	return 1;
}

static void default_vcpus(const struct run_result *r, struct plot_vcpu *out, int *n)
{
	int bd = bench_domain(r), dd = dom0_domain(r);

	*n = 0;
	for (int v = 0; bd >= 0 && v < 2 && v < r->doms[bd].nvcpus; v++)
		out[(*n)++] = (struct plot_vcpu){ r->doms[bd].domid, v };
	if (dd >= 0 && r->doms[dd].nvcpus > 0)
		out[(*n)++] = (struct plot_vcpu){ 0, 0 };
}

static const char *domain_name(const struct run_result *r, int domid)
{
	for (int d = 0; d < r->ndoms; d++)
		if (r->doms[d].domid == domid)
			return r->doms[d].name;
	return "?";
}

static void run_title(const struct experiment *x, int idx, char *buf, size_t len)
{
	struct coords k = run_coords(x, idx);
	char bench[600];

	bench_name(x, k.w, bench, sizeof(bench));
	snprintf(buf, len, "%s%s%s%s%s, iteration %d (run %d, seed %llu)", x->scheds[k.s].text,
		 bench[0] ? ", " : "", bench,
		 x->ndom0 ? ", " : "", x->ndom0 ? report_dom0_name(x->dom0_loads[k.d]) : "",
		 k.i, idx, (unsigned long long)experiment_seed(x->seed, k.i));
}

/* Re-runs run idx with the recorder; the data files are written as it goes. */
static int rerun(const struct plot_cli *c, const struct experiment *x, int idx,
		 const struct plot_vcpu *sel, int nsel, const char *tl_dat, const char *cr_dat,
		 struct run_result *out, long *samples, struct err *e)
{
	struct coords k = run_coords(x, idx);
	const struct run_result *orig = &x->runs[idx];
	struct plot_recorder *rec;
	struct run_options o = { false, NULL, false, x->ropt.modules };
	struct scenario sc;
	FILE *tl, *cr;
	int rc;

	if (run_scenario_of(x, idx, &sc, e))
		return -1;
	tl = open_in(c->dir, tl_dat, e);
	cr = tl ? open_in(c->dir, cr_dat, e) : NULL;
	if (!cr) {
		if (tl)
			fclose(tl);
		scenario_free(&sc);
		return -1;
	}
	fputs("# schedsim timeline: a vCPU running on a pCPU (idle: the gaps)\n"
	      "# pcpu start_ms end_ms domain_index domid vcpu\n", tl);
	fputs("# schedsim credit samples: the scheduler's credit of each chosen vCPU\n"
	      "# time_ms vcpu_index credit running\n", cr);
	rec = plot_recorder_new(tl, cr, c->from, c->to, (c->to - c->from) / CREDIT_SAMPLES,
				sel, nsel);
	o.tracer = plot_recorder_tracer(rec);
	rc = run_scenario(&sc, &x->scheds[k.s], &o, out, e);
	*samples = plot_recorder_samples(rec);
	plot_recorder_free(rec);
	scenario_free(&sc);
	if (close_in(tl, c->dir, tl_dat, e) | close_in(cr, c->dir, cr_dat, e) || rc)
		return -1;
	/* The runs are deterministic: a different figure means the picture is of another run. */
	if (out->metric.valid != orig->metric.valid ||
	    (out->metric.valid && out->metric.value != orig->metric.value) ||
	    out->sim_ns != orig->sim_ns)
		fprintf(stderr, "schedsim: warning: --plot: the re-run of run %d differs from it "
			"(figure %.17g, was %.17g)\n", idx, out->metric.value, orig->metric.value);
	if (c->from >= out->sim_ns)
		return err_set(e, "--plot-window: run %d ended at %.3f s, before the window "
			       "opens at %.3f s", idx, out->sim_ns / 1e9, c->from / 1e9);
	return 0;
}

/* timeline-runN.gp for the re-run r of run idx, window [c->from, to]. */
static int timeline_script(const struct plot_cli *c, const struct experiment *x,
			   const struct run_result *r, const char *name, const char *title,
			   stime_t to, struct err *e)
{
	const struct host_spec *host = &x->base->host;
	int ncpus = host_spec_cpus(host);
	int ndoms = r->ndoms < 64 ? r->ndoms : 64;
	const char *doms[64];
	struct script sc;

	for (int d = 0; d < ndoms; d++)
		doms[d] = r->doms[d].name;
	if (script_open(&sc, c, name, 1200, 170 + 24 * (ncpus < 96 ? ncpus : 96), e))
		return -1;
	fprintf(sc.f, "datafile = '%s.dat'\nruntitle = ", name);
	gp_string(sc.f, title);
	fprintf(sc.f, "\nncpus = %d\nfrom_ms = %.6f\nto_ms = %.6f\nndoms = %d\n",
		ncpus, c->from / 1e6, to / 1e6, ndoms);
	script_array(sc.f, "domain", doms, ndoms);
	return script_close(&sc, c, "timeline", plot_gp_timeline, e);
}

/* credit-runN.gp for the re-run r: the chosen vCPUs sel[0..nsel-1]. */
static int credit_script(const struct plot_cli *c, const struct run_result *r,
			 const struct plot_vcpu *sel, int nsel, const char *name,
			 const char *title, stime_t to, struct err *e)
{
	char vname[PLOT_MAX_VCPUS][96];
	const char *names[PLOT_MAX_VCPUS], *unit;
	double scale = credit_scale(r->scheduler, &unit);
	struct script sc;

	for (int i = 0; i < nsel; i++) {
		snprintf(vname[i], sizeof(vname[i]), "%s v%d (d%dv%d)",
			 domain_name(r, sel[i].domid), sel[i].vcpu, sel[i].domid, sel[i].vcpu);
		names[i] = vname[i];
	}
	if (script_open(&sc, c, name, 1100, 480, e))
		return -1;
	fprintf(sc.f, "datafile = '%s.dat'\nruntitle = ", name);
	gp_string(sc.f, title);
	fprintf(sc.f, "\nfrom_ms = %.6f\nto_ms = %.6f\ncredit_scale = %.17g\ncredit_label = ",
		c->from / 1e6, to / 1e6, scale);
	gp_string(sc.f, unit);
	fprintf(sc.f, "\nnvcpus = %d\n", nsel);
	script_array(sc.f, "vcpu", names, nsel);
	return script_close(&sc, c, "credit", plot_gp_credit, e);
}

/* The timeline and credit pictures of run idx, from one re-run. */
static int plot_run(const struct plot_cli *c, const struct experiment *x, int idx,
		    struct err *e)
{
	char tl[64], cr[64], tl_dat[80], cr_dat[80], title[2048];
	struct plot_vcpu sel[PLOT_MAX_VCPUS];
	struct run_result r;
	int nsel, rc = -1;
	long samples;
	stime_t to;

	memset(&r, 0, sizeof(r));
	snprintf(tl, sizeof(tl), "timeline-run%d", idx);
	snprintf(cr, sizeof(cr), "credit-run%d", idx);
	snprintf(tl_dat, sizeof(tl_dat), "%s.dat", tl);
	snprintf(cr_dat, sizeof(cr_dat), "%s.dat", cr);
	if (c->nvcpus) {
		nsel = c->nvcpus;
		memcpy(sel, c->vcpus, sizeof(sel[0]) * (size_t)nsel);
	} else {
		default_vcpus(&x->runs[idx], sel, &nsel);
	}
	if (rerun(c, x, idx, sel, nsel, tl_dat, cr_dat, &r, &samples, e))
		goto out;
	to = c->to < r.sim_ns ? c->to : r.sim_ns;
	run_title(x, idx, title, sizeof(title));
	if (timeline_script(c, x, &r, tl, title, to, e) || run_gnuplot(c, tl, e))
		goto out;
	if (samples == 0) {     /* the null scheduler keeps no credit */
		fprintf(stderr, "schedsim: note: --plot: %s keeps no credit of these vCPUs; "
			"no credit plot of run %d\n", r.scheduler, idx);
		rc = 0;
		goto out;
	}
	rc = credit_script(c, &r, sel, nsel, cr, title, to, e) || run_gnuplot(c, cr, e) ? -1 : 0;
out:
	run_result_free(&r);
	return rc;
}

int plot_experiment(const struct plot_cli *c, const struct experiment *x,
		    const struct report_table *t, struct err *e)
{
	int rc;

	if (!c->dir)
		return 0;
	if (x->ndone < x->nruns)
		return err_set(e, "--plot: the experiment did not finish");
	if (make_dir(c->dir, e))
		return -1;
	rc = plot_comparison(c, x, t, e);
	if (rc < 0 || (rc == 0 && run_gnuplot(c, "comparison", e)))
		return -1;
	for (int w = 0; w < experiment_nbench(x); w++)
		for (int d = 0; d < axis_len(x->ndom0); d++)
			if (plot_latency_row(c, x, w, d, e))
				return -1;
	for (int i = 0; i < c->nruns; i++)
		if (plot_run(c, x, c->runs[i], e))
			return -1;
	for (int s = 0; !c->nruns && s < x->nscheds && s < PLOT_MAX_RUNS; s++)
		if (plot_run(c, x, default_run(x, s), e))
			return -1;
	return 0;
}
