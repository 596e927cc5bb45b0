/*
 * schedsim's command line: parse flags, build the list of runs, run them,
 * print the report.  Bad input of any kind ends here with one line on
 * stderr and exit status 2.  Options of other concerns (traces, plots)
 * are parsed here and handed to their modules; the work stays there.
 *
 * Two paths.  Single runs (the default) print each run's per-vCPU report.  The
 * experiment matrix (--iterations, or several workload / dom0-load
 * combinations, or a table format) runs schedulers x workloads x dom0 loads x
 * iterations in worker processes and prints the comparison tables
 * (sim/experiment/experiment.c, sim/report*.c).  `schedsim compare A.json
 * B.json` compares saved results.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "schedulers/loader.h"
#include "schedulers/sched.h"
#include "sim/engine/hw.h"
#include "sim/experiment/compare.h"
#include "sim/experiment/evaluation.h"
#include "sim/experiment/experiment.h"
#include "sim/experiment/host_axis.h"
#include "sim/experiment/run.h"
#include "sim/experiment/shard.h"
#include "sim/experiment/spec_axes.h"
#include "sim/experiment/validate.h"
#include "sim/input/host_topology.h"
#include "sim/input/scenario_load.h"
#include "sim/input/xentrace_replay.h"
#include "sim/input/xlcfg.h"
#include "sim/output/eval_report.h"
#include "sim/output/json.h"
#include "sim/output/merge.h"
#include "sim/output/plot.h"
#include "sim/output/report_formats.h"
#include "sim/output/report_html.h"
#include "sim/output/run_report.h"
#include "sim/output/shard_part.h"
#include "sim/output/trace.h"
#include "sim/output/validate_report.h"
#include "sim/params.h"
#include "sim/xalloc.h"
#include "workloads/axes.h"
#include "workloads/workload.h"

#define EXIT_BADINPUT 2
#define EXIT_INTERRUPTED 130
#define DEFAULT_SCHED "credit2"
#define DEFAULT_ITERATIONS 5
#define DEFAULT_EVAL_SCHEDS "credit1,credit2"
#define DEFAULT_EVAL_WORKLOADS "make-xen,iperf"
#define DEFAULT_EVAL_DOM0 "off,on"

struct cli {
	const char *sched;
	const char *scenario;
	const char *duration;
	const char *seed;
	const char *format;
	const char *output;
	const char *workload;     /* experiment axes, comma lists */
	const char *dom0_load;
	const char *host;         /* --host=key=value[:...] settings, an axis */
	const char *iterations;
	const char *jobs;
	const char *alpha;
	const char *hw;           /* --hw: ideal or model, over the scenario's */
	bool check;
	struct shard_cli *shard;  /* --shard, --run, --list-runs */
	const char *host_map;     /* --host=lscpu:FILE|xl-info:FILE: the CPU map */
	const char **domains;     /* --domain=FILE.cfg, in order */
	int ndomains;
	const char *report;       /* --report=FILE.html */
	const char *eval;         /* --eval=NAME: a named evaluation */
	const char *replay;       /* schedsim replay FILE: the xentrace to replay */
	const char *replay_mode;  /* --mode=open|closed */
	const char *cpu_khz;      /* --cpu-khz: the recording host's TSC frequency */
	char *command;            /* the command line, for the report */
	struct sched_modules *modules;   /* loaded from --sched and the pools' sched= */
};

static void usage(FILE *f)
{
	fputs("Usage: schedsim [OPTION]...\n"
	      "Simulate Xen's vCPU schedulers on a scenario and report what each vCPU got.\n"
	      "Without --sched, --scenario, --workload and --dom0-load: the default evaluation,\n"
	      "--sched=" DEFAULT_EVAL_SCHEDS " --workload=" DEFAULT_EVAL_WORKLOADS
	      " --dom0-load=" DEFAULT_EVAL_DOM0 ".\n"
	      "\n"
	      "  --sched=SPEC[,SPEC...]  schedulers to run, each name[:key=value...]\n"
	      "                          (default " DEFAULT_SCHED "), e.g. credit2:runqueue=core\n"
	      "  --scenario=FILE         scenario file (XML); default: the embedded one\n"
	      "  --host=lscpu:FILE       the host's CPU topology from `lscpu -p` output, or\n"
	      "  --host=xl-info:FILE     from `xl info -n` output (its own CPU numbering);\n"
	      "                          another --host may give settings (see Experiments)\n"
	      "  --domain=FILE.cfg       add the domain of an xl configuration file (repeatable;\n"
	      "                          with the embedded scenario they replace its guest)\n"
	      "  --duration=T            simulated time (ns, us, ms, s), overrides the scenario's\n"
	      "  --seed=N                seed (0..2^64-1), overrides the scenario's; in an\n"
	      "                          experiment the base of the iterations' seeds: rerun\n"
	      "                          one alone with its JSON seed and no --iterations\n"
	      "  --format=FMT            text (default) or json; for experiments also\n"
	      "                          markdown or csv\n"
	      "  --output=FILE           write the report to FILE (atomically) instead of stdout\n"
	      "  --check                 run the invariant checker after every event\n"
	      "  --hw=MODE               model (default): SMT, caches, NUMA memory and idle\n"
	      "                          states decide how fast vCPUs run; ideal: full speed\n"
	      "                          always; over the scenario's <host hw=...>\n"
	      TRACE_USAGE
	      "\n"
	      "Experiments (every combination of the lists, each --iterations times):\n"
	      "  --workload=LIST         benchmarks, e.g. make-xen,iperf, each name[:key=value...],\n"
	      "                          {a,b} an axis: iperf:tcp_rmem_max={1048576,6291456}\n"
	      "  --dom0-load=LIST        off, on, or off,on; on[:key=value...] sets the load's\n"
	      "                          parameters: on:tasks={12,16}\n"
	      "  --host=LIST             <host> settings, each key=value[:key=value...], {a,b}\n"
	      "                          an axis: --host=ipi-latency={1us,2us}\n"
	      "  --iterations=N          runs per combination (default 5 in an experiment);\n"
	      "                          iteration i of every combination uses the same seed\n"
	      "  --jobs=N                worker processes (default: online CPUs)\n"
	      "  --alpha=A               significance level of the U test (default 0.05)\n"
	      "  --report=FILE.html      also write the experiment as one self-contained HTML\n"
	      "                          file: boxes, statistics, plots, command, version, seed\n"
	      "  --eval=NAME             run a published evaluation's whole matrix and print\n"
	      "                          its tables as MMTests does (--list-evals)\n"
	      PLOT_USAGE
	      SHARD_USAGE
	      "  schedsim compare OLD.json NEW.json [...]\n"
	      "                          compare saved results (--format=text|markdown|csv,\n"
	      "                          --alpha)\n"
	      "  schedsim report RESULT.json [--output=FILE.html] [--alpha=A]\n"
	      "                          the HTML report of saved results (--format=json)\n"
	      "  schedsim replay FILE [OPTION]...\n"
	      "                          replay a Xen host's xentrace (xentrace -e 0x0002f000):\n"
	      "                          each recorded domain's vCPU bursts, on the trace's\n"
	      "                          pCPUs or --scenario's host, under --sched\n"
	      "  --mode=open|closed      replay: each burst at its recorded wake (open, the\n"
	      "                          default) or its recorded sleep after the previous one\n"
	      "                          ended (closed)\n"
	      "  --cpu-khz=KHZ           replay: the trace's TSC frequency (default: measured\n"
	      "                          from its switch records)\n"
	      "  schedsim validate [--only=EVAL[,EVAL...]] [--rows=first|ROW[,...]]\n"
	      "                          [--iterations=N] [--jobs=N] [--format=text|json]\n"
	      "                          [--output=FILE] [--report=FILE.html]\n"
	      "                          every published figure the project reproduces, real\n"
	      "                          against model: errors and the signs of comparisons\n"
	      "  --list-schedulers       list schedulers and their parameters\n"
	      "  --list-workloads        list workloads and their parameters\n"
	      "  --list-host             list the host's hardware parameters (<host> attributes)\n"
	      "  --list-evals            list the named evaluations (--eval) and their tables\n"
	      "  --help                  this text\n"
	      "  --version               version\n", f);
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "schedsim: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return EXIT_BADINPUT;
}

/* schedsim replay's options: checked before anything is read. */
static int replay_options(const struct cli *cli)
{
	if (!cli->replay && (cli->replay_mode || cli->cpu_khz))
		return bad("%s", "--mode and --cpu-khz are options of schedsim replay FILE");
	if (!cli->replay)
		return 0;
	if (cli->replay_mode && strcmp(cli->replay_mode, "open") && strcmp(cli->replay_mode, "closed"))
		return bad("replay: --mode: '%s' is not valid (valid: open, closed)", cli->replay_mode);
	if (cli->cpu_khz) {
		char *end;
		double khz = strtod(cli->cpu_khz, &end);

		if (end == cli->cpu_khz || *end || !(khz >= XENTRACE_MIN_KHZ && khz <= XENTRACE_MAX_KHZ))
			return bad("replay: --cpu-khz: '%s' is not a frequency in kHz from 1000 to 1e8",
				   cli->cpu_khz);
	}
	if (cli->eval)
		return bad("%s", "replay: --eval runs its own scenarios, not a trace's");
	if (cli->workload || cli->dom0_load)
		return bad("%s", "replay: --workload and --dom0-load change the scenario's domains, "
			   "which the trace gives (--domain=FILE.cfg adds one)");
	return 0;
}

/*
 * schedsim replay's scenario: --scenario's host and settings, or a host of
 * the trace's pCPUs (one socket of single-thread cores: a xentrace records
 * no topology), with the trace's domains and its length.
 */
static int replay_scenario(const struct cli *cli, struct scenario *sc, struct err *e)
{
	struct xentrace_host h;
	double khz = cli->cpu_khz ? strtod(cli->cpu_khz, NULL) : 0;
	int rc;

	if (xentrace_load(cli->replay, khz, &h, e) < 0)
		return -1;
	for (int i = 0; i < h.nwarn; i++)
		fprintf(stderr, "schedsim: warning: %s\n", h.warn[i]);
	if (cli->scenario) {
		rc = scenario_load_file(cli->scenario, sc, e);
	} else {
		char xml[256];
		int n = snprintf(xml, sizeof(xml),
				 "<scenario><host sockets=\"1\" cores-per-socket=\"%d\" "
				 "threads-per-core=\"1\"/><domain name=\"dom0\"/></scenario>",
				 h.npcpus);

		rc = scenario_load_memory(xml, n, cli->replay, sc, e);   /* its domain is replaced */
	}
	if (rc == 0) {
		sc->duration = h.length > 0 ? h.length : 1;
		rc = xentrace_scenario(sc, &h, cli->replay,
				       cli->replay_mode ? cli->replay_mode : "open", e);
		if (rc < 0)
			scenario_free(sc);
	}
	xentrace_host_free(&h);
	return rc;
}

/* Splits a comma list, keeping commas inside {...} together. */
static int split_list(const char *s, char ***out)
{
	char **items = NULL;
	int n = 0, depth = 0;
	const char *start = s, *p;

	for (p = s;; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}' && depth > 0)
			depth--;
		if (*p == '\0' || (*p == ',' && depth == 0)) {
			items = xreallocarray(items, (size_t)n + 1, sizeof(*items));
			items[n] = xmalloc((size_t)(p - start) + 1);
			memcpy(items[n], start, (size_t)(p - start));
			items[n][p - start] = '\0';
			n++;
			if (!*p)
				break;
			start = p + 1;
		}
	}
	*out = items;
	return n;
}

static void free_list(char **items, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(items[i]);
	free(items);
}

/* Writes through a temporary file renamed into place, so a stopped run leaves nothing half-written. */
static FILE *open_output(const char *path, char *tmp, size_t len)
{
	if (!path)
		return stdout;
	snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid());
	return fopen(tmp, "w");
}

static int close_output(FILE *f, const char *path, const char *tmp)
{
	if (f == stdout)
		return fflush(stdout) == 0 ? 0 : -1;
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		remove(tmp);
		return -1;
	}
	return 0;
}

static const char *const formats[] = { "text", "json", "markdown", "csv", NULL };

static bool valid_format(const char *f)
{
	for (int i = 0; formats[i]; i++)
		if (!strcmp(f, formats[i]))
			return true;
	return false;
}

static int parse_alpha(const char *s, double *alpha)
{
	char *end;

	*alpha = 0.05;
	if (!s)
		return 0;
	*alpha = strtod(s, &end);
	if (end == s || *end || !(*alpha > 0 && *alpha < 1))
		return bad("--alpha: '%s' must be a number between 0 and 1", s);
	return 0;
}

/*
 * Splits an axis list into fixed-size names, each {a,b} group expanded as
 * in --sched; duplicates and empty names are refused.
 */
static int axis_list(const char *opt, const char *s, char (**out)[EXP_NAME_MAX], int *n)
{
	struct err e = { "" };
	char **items;
	int k;

	*out = NULL;
	*n = 0;
	if (!s)
		return 0;
	k = split_list(s, &items);
	if (spec_axes_expand(&items, &k, &e) < 0) {
		fprintf(stderr, "schedsim: %s: %s\n", opt, e.msg);
		free_list(items, k);
		return EXIT_BADINPUT;
	}
	*out = xcalloc((size_t)k, sizeof(**out));
	for (int i = 0; i < k; i++) {
		if (!items[i][0] || strlen(items[i]) >= EXP_NAME_MAX) {
			fprintf(stderr, "schedsim: %s: '%s' is not a valid name\n", opt, items[i]);
			free_list(items, k);
			free(*out);
			*out = NULL;
			return EXIT_BADINPUT;
		}
		for (int j = 0; j < i; j++)
			if (!strcmp(items[i], items[j])) {
				fprintf(stderr, "schedsim: %s: '%s' is listed twice\n", opt, items[i]);
				free_list(items, k);
				free(*out);
				*out = NULL;
				return EXIT_BADINPUT;
			}
		snprintf((*out)[i], EXP_NAME_MAX, "%s", items[i]);
	}
	*n = k;
	free_list(items, k);
	return 0;
}

/* How many values an axis has (1 when not given), and its first one. */
static int axis_count(const char *opt, const char *s, char first[EXP_NAME_MAX], int *n)
{
	char (*v)[EXP_NAME_MAX];
	int rc = axis_list(opt, s, &v, n);

	if (rc)
		return rc;
	if (*n)
		snprintf(first, EXP_NAME_MAX, "%s", v[0]);
	else
		*n = 1;
	free(v);
	return 0;
}

static void experiment_header(FILE *f, const struct experiment *x, const struct scenario *sc)
{
	int nw = x->nworkloads ? x->nworkloads : 1, nd = x->ndom0 ? x->ndom0 : 1;
	char hosts[64] = "";

	if (x->nhosts)
		snprintf(hosts, sizeof(hosts), " x %d host setting%s", x->nhosts,
			 x->nhosts > 1 ? "s" : "");
	fprintf(f, "schedsim %s: %d configuration%s%s x %d workload%s x %d dom0 load%s x %d "
		"iteration%s, scenario %s, seed %llu\n\n", PACKAGE_VERSION,
		x->nscheds, x->nscheds > 1 ? "s" : "", hosts, nw, nw > 1 ? "s" : "",
		nd, nd > 1 ? "s" : "", x->iterations, x->iterations > 1 ? "s" : "",
		sc->source, (unsigned long long)x->seed);
}

static void experiment_json(FILE *f, const struct experiment *x, const struct report_table *t)
{
	struct json j;

	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_string(&j, "version", PACKAGE_VERSION);
	json_uint(&j, "seed", x->seed);
	json_int(&j, "iterations", x->iterations);
	json_double(&j, "alpha", t->alpha, 17);
	json_array_begin(&j, "runs");
	for (int i = 0; i < x->nruns; i++)
		run_result_json(&j, &x->runs[i]);
	json_array_end(&j);
	report_json_summary(&j, t);
	json_object_end(&j);
	json_finish(&j);
}

static void print_table(FILE *f, const char *format, const struct report_table *t, bool boxes)
{
	if (!strcmp(format, "markdown"))
		report_markdown(f, t, boxes);
	else if (!strcmp(format, "csv"))
		report_csv(f, t);
	else
		report_text(f, t, boxes);
}

static bool table_has_values(const struct report_table *t)
{
	for (int i = 0; i < t->nrows * t->ncols; i++)
		if (t->cells[i].n > 0)
			return true;
	return false;
}

/*
 * A run's invariant violation (--check): 1, or 2 when its scheduler is a
 * module (bad input: the module breaks the core's rules), said so first.
 */
static int check_error(const struct sched_modules *m, const char *sched, const char *what,
		       const char *error)
{
	const struct sched_module *mod = sched_modules_get(m, sched);

	if (mod) {
		fprintf(stderr, "schedsim: scheduler module %s breaks an invariant under --check: "
			"%s: %s\n", mod->name, what, error);
		return EXIT_BADINPUT;
	}
	fprintf(stderr, "schedsim: %s: %s\n", what, error);
	return 1;
}

/* Reports the runs the invariant checker failed; 1 if any, 2 if a module's. */
static int check_errors(const struct experiment *x)
{
	int status = 0;

	for (int i = 0; i < x->nruns; i++)
		if (x->runs[i].check_error[0]) {
			char what[1400];
			int rc;

			snprintf(what, sizeof(what), "%s%s%s %s %s iteration %d", x->runs[i].label,
				 x->runs[i].host[0] ? " --host=" : "", x->runs[i].host,
				 x->runs[i].workload, x->runs[i].dom0_load, x->runs[i].iteration);
			rc = check_error(x->ropt.modules,
					 x->scheds[experiment_coords(x, i).s].name, what,
					 x->runs[i].check_error);
			status = rc > status ? rc : status;
		}
	return status;
}

/*
 * The tables (and plots) of a whole matrix, run here or put together by
 * `schedsim merge` from its parts: one path, so both print the same bytes.
 */
/* Writes the HTML report of x to path (atomically); 0, or a status. */
static int write_report(const char *path, const struct html_report *h)
{
	char tmp[4096];
	FILE *out = open_output(path, tmp, sizeof(tmp));

	if (!out)
		return bad("--report: cannot write '%s'", path);
	report_html(out, h);
	if (close_output(out, path, tmp) < 0) {
		fprintf(stderr, "schedsim: --report: cannot write '%s'\n", path);
		return 1;
	}
	return 0;
}

static int experiment_output(const char *format, const char *output,
			     const struct plot_cli *pc, const struct experiment *x,
			     const struct scenario *sc, double alpha, const char *report,
			     const char *command)
{
	struct report_table t;
	struct err e = { "" };
	char tmp[4096];
	FILE *out;
	int status = check_errors(x);

	if (status == EXIT_BADINPUT)    /* a module broke the core's rules: no results */
		return status;
	experiment_table(x, &t);
	t.alpha = alpha;
	report_compute(&t);
	if (!table_has_values(&t))
		fprintf(stderr, "schedsim: note: no run reported a figure of merit (the "
			"scenario's workloads have none; try --workload=make-xen,iperf)\n");
	out = open_output(output, tmp, sizeof(tmp));
	if (!out) {
		report_free(&t);
		return bad("--output: cannot write '%s'", output);
	}
	if (!strcmp(format, "json")) {
		experiment_json(out, x, &t);
	} else {
		if (strcmp(format, "csv"))
			experiment_header(out, x, sc);
		print_table(out, format, &t, true);
	}
	if (close_output(out, output, tmp) < 0) {
		fprintf(stderr, "schedsim: cannot write the report\n");
		status = 1;
	}
	if (pc && plot_experiment(pc, x, &t, &e) < 0)
		status = bad("%s", e.msg);
	if (report) {
		struct html_report h;
		int rc;

		html_report_from_experiment(&h, x, alpha, sc->source, command);
		rc = write_report(report, &h);
		html_report_free(&h);
		status = rc ? rc : status;
	}
	report_free(&t);
	return status;
}

static int run_experiment(const struct cli *cli, const struct plot_cli *pc,
			  const struct scenario *sc, const struct sched_spec *specs, int nspecs)
{
	struct experiment x;
	struct report_table t;
	struct err e = { "" };
	long long v;
	int rc, status = 0;

	memset(&x, 0, sizeof(x));
	x.base = sc;
	x.scheds = specs;
	x.nscheds = nspecs;
	x.seed = sc->seed;
	x.iterations = DEFAULT_ITERATIONS;
	x.progress = isatty(STDERR_FILENO);
	x.ropt = (struct run_options){ cli->check, NULL, false, cli->modules };
	x.apply_axes = bench_axes_apply;
	if (cli->iterations) {
		if (parse_int(cli->iterations, 1, 1000000, &v, &e) < 0)
			return bad("--iterations: %s", e.msg);
		x.iterations = (int)v;
	}
	if (cli->jobs) {
		if (parse_int(cli->jobs, 1, 4096, &v, &e) < 0)
			return bad("--jobs: %s", e.msg);
		x.jobs = (int)v;
	}
	if ((rc = axis_list("--host", cli->host, &x.hosts, &x.nhosts)) ||
	    (rc = axis_list("--workload", cli->workload, &x.workloads, &x.nworkloads)) ||
	    (rc = axis_list("--dom0-load", cli->dom0_load, &x.dom0_loads, &x.ndom0))) {
		free(x.hosts);
		free(x.workloads);
		free(x.dom0_loads);
		return rc;
	}
	report_init(&t, 0, 0);
	if (parse_alpha(cli->alpha, &t.alpha)) {
		status = EXIT_BADINPUT;
		goto out;
	}
	if (plot_prepare(pc, &x, &e) < 0) {
		status = bad("%s", e.msg);
		goto out;
	}
	if (shard_cli_active(cli->shard) &&
	    (rc = shard_prepare(cli->shard, &x, sc, cli->scenario, stdout, &e)) != 0) {
		status = rc < 0 ? bad("%s", e.msg) : 0;
		goto out;
	}
	rc = experiment_run(&x, &e);
	if (rc == EXP_INTERRUPTED) {
		fprintf(stderr, "schedsim: %s\n", e.msg);
		status = EXIT_INTERRUPTED;
		goto out;
	}
	if (rc != EXP_OK) {
		status = bad("%s", e.msg);
		goto out;
	}
	if (shard_cli_partial(cli->shard)) {
		status = check_errors(&x);
		if (status != EXIT_BADINPUT &&
		    shard_output(cli->shard, cli->output, &x, t.alpha, &e) < 0)
			status = bad("%s", e.msg);
		goto out;
	}
	status = experiment_output(cli->format, cli->output, pc, &x, sc, t.alpha, cli->report,
				   cli->command);
out:
	report_free(&t);
	experiment_free(&x);
	free(x.hosts);
	free(x.workloads);
	free(x.dom0_loads);
	if (cli->shard)
		shard_cli_free(cli->shard);
	return status;
}

/* `schedsim merge PART.json...`: the parts of a sharded matrix (sim/output/merge.h). */
static int merge_main(int argc, char **argv)
{
	struct merge m;
	struct err e = { "" };
	int status;

	if (merge_load(argc, argv, &m, &e) < 0) {
		merge_free(&m);
		return bad("merge: %s", e.msg);
	}
	status = experiment_output(m.format, m.output, &m.pc, &m.x, &m.sc, m.alpha, NULL, NULL);
	merge_free(&m);
	return status;
}

/* `schedsim report RESULT.json`: the HTML report of saved results (sim/output/report_html.h). */
static int report_main(int argc, char **argv, char *command)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "alpha", required_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 }
	};
	const char *output = NULL, *alpha_s = NULL;
	struct html_report h;
	struct err e = { "" };
	double alpha = -1;
	int c, status;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'o': output = optarg; break;
		case 'a': alpha_s = optarg; break;
		default:
			return bad("report: option '%s' is not valid (valid: --output, --alpha)",
				   argv[optind - 1]);
		}
	}
	if (alpha_s && parse_alpha(alpha_s, &alpha))
		return EXIT_BADINPUT;
	if (argc - optind != 1)
		return bad("%s", "report: give one result file (schedsim report RESULT.json "
			   "--output=REPORT.html)");
	if (html_report_from_json(&h, argv[optind], alpha, command, &e) < 0)
		return bad("report: %s", e.msg);
	if (output) {
		status = write_report(output, &h);
	} else {
		report_html(stdout, &h);
		status = fflush(stdout) == 0 ? 0 : 1;
	}
	html_report_free(&h);
	return status;
}

static int compare_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	const char *format = "text", *alpha_s = NULL, *output = NULL;
	struct report_table t;
	struct err e = { "" };
	double alpha;
	char tmp[4096];
	FILE *out;
	int c, status = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'F': format = optarg; break;
		case 'a': alpha_s = optarg; break;
		case 'o': output = optarg; break;
		default:
			return bad("compare: option '%s' is not valid (valid: --format, --alpha, --output)",
				   argv[optind - 1]);
		}
	}
	if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "csv"))
		return bad("compare: --format: '%s' is not valid (valid: text, markdown, csv)", format);
	if (parse_alpha(alpha_s, &alpha))
		return EXIT_BADINPUT;
	if (argc - optind < 2)
		return bad("%s", "compare: give at least two result files (schedsim compare OLD.json NEW.json)");
	if (compare_load((const char *const *)argv + optind, argc - optind, &t, &e) < 0)
		return bad("compare: %s", e.msg);
	t.alpha = alpha;
	report_compute(&t);
	out = open_output(output, tmp, sizeof(tmp));
	if (!out) {
		report_free(&t);
		return bad("--output: cannot write '%s'", output);
	}
	print_table(out, format, &t, false);
	if (close_output(out, output, tmp) < 0) {
		fprintf(stderr, "schedsim: cannot write the report\n");
		status = 1;
	}
	report_free(&t);
	return status;
}

/* `schedsim validate`: the published figures against the model (sim/experiment/validate.h). */
static int validate_main(int argc, char **argv, const char *command)
{
	static const struct option opts[] = {
		{ "only", required_argument, NULL, 'O' },
		{ "rows", required_argument, NULL, 'r' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, 'R' },
		{ "alpha", required_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 }
	};
	const char *only = NULL, *rows = NULL, *format = "text", *output = NULL, *report = NULL;
	const char *alpha_s = NULL;
	struct eval_options o = { .iterations = DEFAULT_ITERATIONS };
	struct validation v;
	struct err e = { "" };
	char **names = NULL, **row_names = NULL, tmp[4096];
	int c, nnames = 0, nrows = 0, rc, status = 0;
	double alpha;
	long long n;
	FILE *out;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'O': only = optarg; break;
		case 'r': rows = optarg; break;
		case 'F': format = optarg; break;
		case 'o': output = optarg; break;
		case 'R': report = optarg; break;
		case 'a': alpha_s = optarg; break;
		case 'i':
			if (parse_int(optarg, 1, 1000000, &n, &e) < 0)
				return bad("validate: --iterations: %s", e.msg);
			o.iterations = (int)n;
			break;
		case 'j':
			if (parse_int(optarg, 1, 4096, &n, &e) < 0)
				return bad("validate: --jobs: %s", e.msg);
			o.jobs = (int)n;
			break;
		default:
			return bad("validate: option '%s' is not valid (valid: --only, --rows, "
				   "--iterations, --jobs, --format, --output, --report, --alpha)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad("validate: unexpected argument '%s'", argv[optind]);
	if (strcmp(format, "text") && strcmp(format, "json"))
		return bad("validate: --format: '%s' is not valid (valid: text, json)", format);
	if (parse_alpha(alpha_s, &alpha))
		return EXIT_BADINPUT;
	if (report) {
		out = open_output(report, tmp, sizeof(tmp));
		if (!out)
			return bad("--report: cannot write '%s'", report);
		fclose(out);
		remove(tmp);
	}
	if (rows && !rows[0])
		return bad("%s", "validate: --rows: empty (give first or row names, comma-separated)");
	if (only)
		nnames = split_list(only, &names);
	if (rows)
		nrows = split_list(rows, &row_names);
	o.progress = isatty(STDERR_FILENO);
	rc = validate_prepare(&v, (const char *const *)names, nnames,
			      (const char *const *)row_names, nrows, &o, &e);
	free_list(names, nnames);
	free_list(row_names, nrows);
	if (rc < 0) {
		validate_free(&v);
		return bad("%s", e.msg);
	}
	rc = validate_run(&v, alpha, &e);
	if (rc != EXP_OK) {
		validate_free(&v);
		if (rc == EXP_INTERRUPTED) {
			fprintf(stderr, "schedsim: %s\n", e.msg);
			return EXIT_INTERRUPTED;
		}
		return bad("%s", e.msg);
	}
	out = open_output(output, tmp, sizeof(tmp));
	if (!out) {
		validate_free(&v);
		return bad("--output: cannot write '%s'", output);
	}
	if (!strcmp(format, "json"))
		validate_report_json(out, &v);
	else
		validate_report_text(out, &v);
	if (close_output(out, output, tmp) < 0) {
		fprintf(stderr, "schedsim: cannot write the report\n");
		status = 1;
	}
	if (report) {
		out = open_output(report, tmp, sizeof(tmp));
		if (!out) {
			status = bad("--report: cannot write '%s'", report);
		} else {
			validate_report_html(out, &v, command);
			if (close_output(out, report, tmp) < 0) {
				fprintf(stderr, "schedsim: --report: cannot write '%s'\n", report);
				status = 1;
			}
		}
	}
	validate_free(&v);
	return status;
}

/* One single run (of the per-vCPU report), its trace written as it goes. */
struct single_run {
	const struct scenario *sc;
	const struct sched_spec *spec;
	struct trace_cli *tc;
	int i, n;
	bool check;
	const struct sched_modules *modules;
};

static int single_run(void *arg, struct run_result *r, struct err *e)
{
	const struct single_run *a = arg;
	struct run_options o = { a->check, trace_cli_open(a->tc, a->i, a->n, e), false,
				 a->modules };

	if ((a->tc->path && !o.tracer) || run_scenario(a->sc, a->spec, &o, r, e) < 0 ||
	    trace_close(o.tracer, e) < 0)
		return -1;
	return 0;
}

/* A single run that died of a signal: in its module, or in one of a pool's. */
static int module_crash(const struct sched_modules *m, const struct sched_spec *spec,
			uint64_t seed, const char *why)
{
	const struct sched_module *mod = sched_modules_get(m, spec->name);
	char names[600] = "";

	for (int k = 0; !mod && k < m->n; k++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 k ? ", " : "", m->m[k].name);
	fprintf(stderr, "schedsim: scheduler module %s%s%s crashed: %s (seed %llu): %s\n",
		mod ? mod->name : "(of ", mod ? "" : names, mod ? "" : ")", spec->text,
		(unsigned long long)seed, why);
	return EXIT_BADINPUT;
}

/* Loads the modules the scenario's pools name (sched="./mysched.so"); 0, or a status. */
static int load_pool_modules(struct sched_modules *m, const struct scenario *sc)
{
	for (int i = 0; i < sc->npools; i++) {
		const struct pool_spec *ps = &sc->pools[i];
		struct sched_spec spec;
		struct err e = { "" };
		int bad_one;

		/* a spec that does not parse is the build's to report, with the rest */
		if (!ps->sched || sched_spec_parse(ps->sched, &spec, &e) < 0)
			continue;
		bad_one = !sched_modules_load(m, spec.name, &e);
		sched_spec_free(&spec);
		if (bad_one) {
			err_prefix(&e, "%s:%d: <pool name=\"%s\">", sc->source, ps->line, ps->name);
			return bad("%s", e.msg);
		}
	}
	return 0;
}

/* --list-schedulers: the built-in ones, the modules of --sched, those of SCHEDSIM_MODULE_PATH. */
static int list_schedulers(const char *sched)
{
	struct sched_modules m;
	struct err e = { "" };
	char **items = NULL;
	int n = 0, status = 0;

	sched_modules_init(&m, getenv("SCHEDSIM_MODULE_PATH"));
	if (sched)
		n = split_list(sched, &items);
	for (int i = 0; i < n && !status; i++) {
		struct sched_spec spec;

		if (sched_spec_parse(items[i], &spec, &e) < 0 ||
		    (!sched_modules_load(&m, spec.name, &e) && (sched_spec_free(&spec), 1)))
			status = bad("--sched: %s", e.msg);
		else
			sched_spec_free(&spec);
	}
	if (!status)
		sched_modules_list(&m, stdout);
	free_list(items, n);
	sched_modules_free(&m);
	return status;
}

/* The first option given that a named evaluation sets itself, or NULL. */
static const char *eval_conflict(const struct cli *cli, const struct trace_cli *tc,
				 const struct plot_cli *pc, const struct shard_cli *shc)
{
	if (cli->sched)
		return "--sched";
	if (cli->scenario)
		return "--scenario";
	if (cli->workload)
		return "--workload";
	if (cli->dom0_load)
		return "--dom0-load";
	if (cli->host || cli->host_map)
		return "--host";
	if (cli->ndomains)
		return "--domain";
	if (cli->duration)
		return "--duration";
	if (tc->path)
		return "--trace";
	if (shard_cli_active(shc))
		return "--shard, --run or --list-runs";
	if (pc->nruns || pc->window_set || pc->nvcpus)
		return "--plot-timeline, --plot-window or --plot-credit";
	return NULL;
}

/* Writes the tables of a finished evaluation in the chosen format, and its report and plots. */
static int eval_output(const struct cli *cli, const struct plot_cli *pc, const struct eval_report *r)
{
	char tmp[4096];
	FILE *out = open_output(cli->output, tmp, sizeof(tmp));
	struct err e = { "" };
	int status = 0;

	if (!out)
		return bad("--output: cannot write '%s'", cli->output);
	if (!strcmp(cli->format, "json"))
		eval_report_json(out, r);
	else if (!strcmp(cli->format, "markdown"))
		eval_report_markdown(out, r);
	else if (!strcmp(cli->format, "csv"))
		eval_report_csv(out, r);
	else
		eval_report_text(out, r);
	if (close_output(out, cli->output, tmp) < 0) {
		fprintf(stderr, "schedsim: cannot write the report\n");
		status = 1;
	}
	if (cli->report) {
		out = open_output(cli->report, tmp, sizeof(tmp));
		if (!out)
			return bad("--report: cannot write '%s'", cli->report);
		eval_report_html(out, r);
		if (close_output(out, cli->report, tmp) < 0) {
			fprintf(stderr, "schedsim: --report: cannot write '%s'\n", cli->report);
			status = 1;
		}
	}
	if (pc->dir && eval_report_plot(pc, r, &e) < 0)
		status = bad("%s", e.msg);
	return status;
}

/* `schedsim --eval=NAME`: a named evaluation (sim/experiment/evaluation.h). */
static int eval_main(const struct cli *cli, const struct trace_cli *tc, const struct plot_cli *pc,
		     const struct shard_cli *shc, const char *command)
{
	const struct eval_preset *p = eval_preset_find(cli->eval);
	const char *conflict = eval_conflict(cli, tc, pc, shc);
	struct eval_options o = { 0 };
	struct evaluation ev;
	struct eval_result_table *tables = NULL;
	struct eval_report r;
	struct err e = { "" };
	char tmp[4096];
	double alpha;
	long long v;
	int rc, n = 0, status = 0;

	if (!p) {
		char names[1024] = "";
		int np;
		const struct eval_preset *const *all = eval_presets(&np);

		for (int i = 0; i < np; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", all[i]->name);
		fprintf(stderr, "schedsim: --eval: '%s' is not a named evaluation (valid: %s)\n",
			cli->eval, names);
		return EXIT_BADINPUT;
	}
	if (conflict) {
		fprintf(stderr, "schedsim: --eval=%s: %s cannot be combined with it: the "
			"evaluation sets each cell's scenario, scheduler and benchmark itself\n",
			cli->eval, conflict);
		return EXIT_BADINPUT;
	}
	if (parse_alpha(cli->alpha, &alpha))
		return EXIT_BADINPUT;
	if (cli->iterations) {
		if (parse_int(cli->iterations, 1, 1000000, &v, &e) < 0)
			return bad("--iterations: %s", e.msg);
		o.iterations = (int)v;
	}
	if (cli->jobs) {
		if (parse_int(cli->jobs, 1, 4096, &v, &e) < 0)
			return bad("--jobs: %s", e.msg);
		o.jobs = (int)v;
	}
	if (cli->seed) {
		if (parse_seed(cli->seed, &o.seed, &e) < 0)
			return bad("--seed: %s", e.msg);
		o.has_seed = true;
	}
	if (cli->report) {      /* now, not after the runs: a file we cannot write fails at once */
		FILE *out = open_output(cli->report, tmp, sizeof(tmp));

		if (!out)
			return bad("--report: cannot write '%s'", cli->report);
		fclose(out);
		remove(tmp);
	}
	o.hw = cli->hw;
	o.progress = isatty(STDERR_FILENO);
	o.ropt.check = cli->check;
	eval_init(&ev, &o);
	if (eval_add(&ev, p, NULL, NULL, &e) < 0) {
		eval_free(&ev);
		return bad("%s", e.msg);
	}
	rc = eval_run(&ev, &e);
	if (rc == EXP_INTERRUPTED) {
		fprintf(stderr, "schedsim: %s\n", e.msg);
		eval_free(&ev);
		return EXIT_INTERRUPTED;
	}
	if (rc != EXP_OK) {
		eval_free(&ev);
		return bad("%s", e.msg);
	}
	for (int i = 0; i < ev.nruns; i++)
		if (ev.runs[i].check_error[0]) {
			char what[2048];

			snprintf(what, sizeof(what), "--eval=%s run %d (%s %s %s iteration %d)",
				 p->name, i, ev.runs[i].label, ev.runs[i].workload,
				 ev.runs[i].dom0_load, ev.runs[i].iteration);
			fprintf(stderr, "schedsim: %s: %s\n", what, ev.runs[i].check_error);
			status = 1;
		}
	n = eval_results(&ev, p, alpha, &tables);
	r = (struct eval_report){ p, &ev, tables, n, alpha, command };
	rc = eval_output(cli, pc, &r);
	status = rc ? rc : status;
	eval_results_free(tables, n);
	eval_free(&ev);
	return status;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sched", required_argument, NULL, 's' },
		{ "scenario", required_argument, NULL, 'f' },
		{ "host", required_argument, NULL, 'H' },
		{ "domain", required_argument, NULL, 'X' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "check", no_argument, NULL, 'c' },
		{ "workload", required_argument, NULL, 'w' },
		{ "dom0-load", required_argument, NULL, 'D' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "report", required_argument, NULL, 'R' },
		{ "list-schedulers", no_argument, NULL, 'L' },
		{ "list-workloads", no_argument, NULL, 'W' },
		{ "list-host", no_argument, NULL, 'T' },
		{ "eval", required_argument, NULL, 'E' },
		{ "list-evals", no_argument, NULL, 'K' },
		{ "hw", required_argument, NULL, 'M' },
		{ "mode", required_argument, NULL, 'm' },
		{ "cpu-khz", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		TRACE_LONG_OPTIONS,
		PLOT_LONG_OPTIONS,
		SHARD_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct cli cli = { .format = "text" };
	struct scenario sc;
	struct sched_spec *specs;
	struct run_result *runs;
	struct err e = { "" };
	char **items, tmp[4096];
	int c, n, nitems, i, status = 0, nw = 1, nd = 1, nh = 1;
	char one_w[EXP_NAME_MAX] = "", one_d[EXP_NAME_MAX] = "", one_h[EXP_NAME_MAX] = "";
	bool experiment;
	struct trace_cli tc = { 0 };
	struct plot_cli pc = { 0 };
	struct shard_cli shc = { 0 };
	const char *domain_files[argc];   /* --domain values: at most one per argument */
	FILE *out;
	struct sched_modules mods;
	bool list_scheds = false;

	cli.domains = domain_files;
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "merge"))
		return merge_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "validate")) {
		char *command = html_command_line(argc, argv);

		status = validate_main(argc - 1, argv + 1, command);
		free(command);
		return status;
	}
	if (argc > 1 && !strcmp(argv[1], "report")) {
		char *command = html_command_line(argc, argv);

		status = report_main(argc - 1, argv + 1, command);
		free(command);
		return status;
	}
	if (argc > 1 && !strcmp(argv[1], "replay")) {
		if (argc < 3 || argv[2][0] == '-')
			return bad("%s", "replay: give the xentrace file (schedsim replay FILE.trc "
				   "[OPTION]...)");
		cli.replay = argv[2];
		optind = 3;
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': cli.sched = optarg; break;
		case 'f': cli.scenario = optarg; break;
		case 'H':         /* a CPU map (KIND:FILE) or the host settings */
			if (host_topology_option_is_map(optarg))
				cli.host_map = optarg;
			else
				cli.host = optarg;
			break;
		case 'X': domain_files[cli.ndomains++] = optarg; break;
		case 'd': cli.duration = optarg; break;
		case 'S': cli.seed = optarg; break;
		case 'F': cli.format = optarg; break;
		case 'o': cli.output = optarg; break;
		case 'c': cli.check = true; break;
		case 'w': cli.workload = optarg; break;
		case 'D': cli.dom0_load = optarg; break;
		case 'i': cli.iterations = optarg; break;
		case 'j': cli.jobs = optarg; break;
		case 'a': cli.alpha = optarg; break;
		case 'R': cli.report = optarg; break;
		case 'E': cli.eval = optarg; break;
		case 'm': cli.replay_mode = optarg; break;
		case 'k': cli.cpu_khz = optarg; break;
		case 'K': eval_presets_list(stdout); return 0;
		case 'M':
			if (strcmp(optarg, "ideal") && strcmp(optarg, "model"))
				return bad("--hw: '%s' is not valid (valid: model, ideal)", optarg);
			cli.hw = optarg;
			break;
		case TRACE_OPT_FILE: case TRACE_OPT_FORMAT: case TRACE_OPT_WINDOW:
			if (trace_cli_option(&tc, c, optarg, &e) < 0)
				return bad("%s", e.msg);
			break;
		case PLOT_OPT_DIR: case PLOT_OPT_FORMAT: case PLOT_OPT_TIMELINE:
		case PLOT_OPT_WINDOW: case PLOT_OPT_CREDIT:
			if (plot_cli_option(&pc, c, optarg, &e) < 0)
				return bad("%s", e.msg);
			break;
		case SHARD_OPT_SHARD: case SHARD_OPT_RUN: case SHARD_OPT_LIST:
			if (shard_cli_option(&shc, c, optarg, &e) < 0)
				return bad("%s", e.msg);
			break;
		case 'L': list_scheds = true; break;
		case 'W': workload_list(stdout); return 0;
		case 'T': hw_list(stdout); return 0;
		case 'h': usage(stdout); return 0;
		case 'V': printf("schedsim %s\n", PACKAGE_VERSION); return 0;
		default:
			/* A long option (unknown, or missing its value) is named as
			 * written; optopt then holds its internal code, not a letter. */
			if (strncmp(argv[optind - 1], "--", 2) != 0 && optopt)
				return bad("option '-%c' is not valid (see --help)", (char[]){ (char)optopt, 0 });
			return bad("option '%s' is not valid or lacks its value (see --help)",
				   argv[optind - 1]);
		}
	}
	if (list_scheds)
		return list_schedulers(cli.sched);
	if (optind < argc)
		return bad("unexpected argument '%s' (see --help)", argv[optind]);
	if (!valid_format(cli.format))
		return bad("--format: '%s' is not valid (valid: text, json, markdown, csv)", cli.format);
	if ((status = replay_options(&cli)))
		return status;
	if (cli.eval) {
		char *command;

		if (plot_cli_check(&pc, &e) < 0)
			return bad("%s", e.msg);
		command = html_command_line(argc, argv);

		status = eval_main(&cli, &tc, &pc, &shc, command);
		free(command);
		return status;
	}
	/* Nothing chosen: the evaluation Xen scheduler work is judged by. */
	if (!cli.sched && !cli.scenario && !cli.workload && !cli.dom0_load && !cli.replay) {
		cli.sched = DEFAULT_EVAL_SCHEDS;
		cli.workload = DEFAULT_EVAL_WORKLOADS;
		cli.dom0_load = DEFAULT_EVAL_DOM0;
	}
	if (!cli.sched)
		cli.sched = DEFAULT_SCHED;
	/* The axes' values, {a,b} groups expanded (checked again by the experiment). */
	if ((status = axis_count("--workload", cli.workload, one_w, &nw)) ||
	    (status = axis_count("--dom0-load", cli.dom0_load, one_d, &nd)) ||
	    (status = axis_count("--host", cli.host, one_h, &nh)))
		return status;
	experiment = cli.iterations || cli.jobs || nw * nd * nh > 1 ||
		!strcmp(cli.format, "markdown") || !strcmp(cli.format, "csv");
	experiment = experiment || pc.dir || cli.report;     /* pictures are of an experiment */
	experiment = experiment || shard_cli_active(&shc);
	cli.shard = &shc;
	if (trace_cli_check(&tc, experiment, &e) < 0 || plot_cli_check(&pc, &e) < 0 ||
	    shard_cli_check(&shc, cli.format, pc.dir != NULL, &e) < 0)
		return bad("%s", e.msg);

	if (shard_cli_partial(&shc) && cli.report)
		return bad("%s", "--report: a part of a sweep writes JSON only; merge the parts "
			   "(schedsim merge --format=json) and make the report from that "
			   "(schedsim report)");
	if (shard_cli_partial(&shc) && (cli.host_map || cli.ndomains))
		return bad("%s", "--host and --domain change the scenario, which a sweep's parts "
			   "name only by file: write them into it (<host lscpu=...>, <domain xl=...>)");
	if (cli.replay ? replay_scenario(&cli, &sc, &e) < 0
		       : (cli.scenario ? scenario_load_file(cli.scenario, &sc, &e)
				       : scenario_load_default(&sc, &e)) < 0)
		return bad("%s", e.msg);
	if (cli.host_map && host_topology_option(&sc.host, cli.host_map, &e) < 0) {
		scenario_free(&sc);
		return bad("%s", e.msg);
	}
	/* The embedded dom0 has one vCPU per pCPU, as Xen gives dom0 by default. */
	if (cli.host_map && !cli.scenario && !cli.replay) {
		int cpus = host_spec_cpus(&sc.host);

		sc.doms[0].vcpus = cpus < SCENARIO_MAX_VCPUS ? cpus : SCENARIO_MAX_VCPUS;
	}
	for (i = 0; i < cli.ndomains; i++)
		if (xlcfg_add_domain(&sc, cli.domains[i], i == 0 && !cli.scenario && !cli.replay,
				     &e) < 0) {
			scenario_free(&sc);
			return bad("--domain: %s", e.msg);
		}
	if (cli.duration && parse_duration(cli.duration, &sc.duration, &e) < 0) {
		scenario_free(&sc);
		return bad("--duration: %s", e.msg);
	}
	if (cli.duration && sc.duration <= 0) {
		scenario_free(&sc);
		return bad("--duration: '%s' must be more than 0", cli.duration);
	}
	if (cli.hw)
		kvlist_set(&sc.host.hw, "hw", cli.hw, 0);
	if (cli.seed) {
		if (parse_seed(cli.seed, &sc.seed, &e) < 0) {
			scenario_free(&sc);
			return bad("--seed: %s", e.msg);
		}
	}
	/* A single run with one host, workload and dom0-load value: apply it here. */
	if (!experiment && (cli.workload || cli.dom0_load || cli.host) &&
	    bench_axes_apply(&sc, one_h, one_w, one_d, &e) < 0) {
		scenario_free(&sc);
		return bad("%s", e.msg);
	}

	nitems = split_list(cli.sched, &items);
	if (spec_axes_expand(&items, &nitems, &e) < 0) {   /* {a,b} parameter axes */
		free_list(items, nitems);
		scenario_free(&sc);
		return bad("--sched: %s", e.msg);
	}
	sched_modules_init(&mods, getenv("SCHEDSIM_MODULE_PATH"));
	cli.modules = &mods;
	n = nitems;
	specs = xcalloc((size_t)n, sizeof(*specs));
	runs = xcalloc((size_t)n, sizeof(*runs));
	for (i = 0; i < n; i++) {
		if (sched_spec_parse(items[i], &specs[i], &e) < 0) {
			status = bad("--sched: %s", e.msg);
			goto out;
		}
		if (!sched_modules_load(&mods, specs[i].name, &e)) {
			status = bad("--sched: %s", e.msg);
			goto out;
		}
	}
	if ((status = load_pool_modules(&mods, &sc)))
		goto out;
	if (experiment) {
		if (cli.report) {
			/* Now, not after a long experiment: a file we cannot write fails at once. */
			out = open_output(cli.report, tmp, sizeof(tmp));
			if (!out) {
				status = bad("--report: cannot write '%s'", cli.report);
				goto out;
			}
			fclose(out);
			remove(tmp);
			cli.command = html_command_line(argc, argv);
		}
		status = run_experiment(&cli, &pc, &sc, specs, n);
		free(cli.command);
		goto out;
	}
	if (cli.alpha) {
		status = bad("%s", "--alpha: only meaningful for an experiment (--iterations)");
		goto out;
	}
	/* With a module loaded, each run in a process of its own: a crash is reported. */
	for (i = 0; i < n; i++) {
		struct single_run a = { &sc, &specs[i], &tc, i, n, cli.check, &mods };
		int sig = 0, rc;

		rc = mods.n ? run_in_child(single_run, &a, &runs[i], &sig, &e)
			    : single_run(&a, &runs[i], &e);
		if (rc < 0) {
			status = sig ? module_crash(&mods, &specs[i], sc.seed, e.msg)
				     : bad("%s", e.msg);
			n = i;
			goto out;
		}
		if (runs[i].check_error[0]) {
			rc = check_error(&mods, specs[i].name, runs[i].label, runs[i].check_error);
			status = rc > status ? rc : status;
		}
	}
	if (status == EXIT_BADINPUT)    /* a module broke the core's rules: no report */
		goto out;
	out = open_output(cli.output, tmp, sizeof(tmp));
	if (!out) {
		status = bad("--output: cannot write '%s'", cli.output);
		goto out;
	}
	if (strcmp(cli.format, "json") == 0) {
		runs_json(out, sc.seed, runs, n);
	} else {
		for (i = 0; i < n; i++) {
			if (i)
				fputc('\n', out);
			run_result_text(out, &runs[i]);
		}
	}
	if (close_output(out, cli.output, tmp) < 0) {
		fprintf(stderr, "schedsim: cannot write the report\n");
		status = 1;
	}
out:
	for (i = 0; i < n; i++)
		run_result_free(&runs[i]);
	for (i = 0; i < nitems; i++)
		sched_spec_free(&specs[i]);
	free(runs);
	free(specs);
	free_list(items, nitems);
	scenario_free(&sc);
	sched_modules_free(&mods);
	return status;
}
