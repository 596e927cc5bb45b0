/*
 * schedsim's command line: parse flags, build the list of runs, run them,
 * print the report.  Bad input of any kind ends here with one line on
 * stderr and exit status 2.  Options of other concerns (traces, plots)
 * are parsed here and handed to their modules; the work stays there.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "schedulers/sched.h"
#include "sim/params.h"
#include "sim/run.h"
#include "sim/run_report.h"
#include "sim/scenario.h"
#include "sim/xalloc.h"
#include "workloads/workload.h"

#define EXIT_BADINPUT 2
#define DEFAULT_SCHED "credit2"

struct cli {
	const char *sched;
	const char *scenario;
	const char *duration;
	const char *seed;
	const char *format;
	const char *output;
	bool check;
};

static void usage(FILE *f)
{
	fputs("Usage: schedsim [OPTION]...\n"
	      "Simulate Xen's vCPU schedulers on a scenario and report what each vCPU got.\n"
	      "\n"
	      "  --sched=SPEC[,SPEC...]  schedulers to run, each name[:key=value...]\n"
	      "                          (default " DEFAULT_SCHED "), e.g. credit2:runqueue=core\n"
	      "  --scenario=FILE         scenario file (XML); default: the embedded one\n"
	      "  --duration=T            simulated time (ns, us, ms, s), overrides the scenario's\n"
	      "  --seed=N                base seed, overrides the scenario's\n"
	      "  --format=text|json      report format (default text)\n"
	      "  --output=FILE           write the report to FILE (atomically) instead of stdout\n"
	      "  --check                 run the invariant checker after every event\n"
	      "  --list-schedulers       list schedulers and their parameters\n"
	      "  --list-workloads        list workloads and their parameters\n"
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

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sched", required_argument, NULL, 's' },
		{ "scenario", required_argument, NULL, 'f' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "check", no_argument, NULL, 'c' },
		{ "list-schedulers", no_argument, NULL, 'L' },
		{ "list-workloads", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli cli = { DEFAULT_SCHED, NULL, NULL, NULL, "text", NULL, false };
	struct scenario sc;
	struct sched_spec *specs;
	struct run_result *runs;
	struct err e = { "" };
	char **items, tmp[4096];
	int c, n, i, status = 0;
	FILE *out;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': cli.sched = optarg; break;
		case 'f': cli.scenario = optarg; break;
		case 'd': cli.duration = optarg; break;
		case 'S': cli.seed = optarg; break;
		case 'F': cli.format = optarg; break;
		case 'o': cli.output = optarg; break;
		case 'c': cli.check = true; break;
		case 'L': sched_list(stdout); return 0;
		case 'W': workload_list(stdout); return 0;
		case 'h': usage(stdout); return 0;
		case 'V': printf("schedsim %s\n", PACKAGE_VERSION); return 0;
		default:
			if (optopt)
				return bad("option '-%c' is not valid (see --help)", (char[]){ (char)optopt, 0 });
			return bad("option '%s' is not valid or lacks its value (see --help)",
				   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad("unexpected argument '%s' (see --help)", argv[optind]);
	if (strcmp(cli.format, "text") && strcmp(cli.format, "json"))
		return bad("--format: '%s' is not valid (valid: text, json)", cli.format);

	if ((cli.scenario ? scenario_load_file(cli.scenario, &sc, &e)
			  : scenario_load_default(&sc, &e)) < 0)
		return bad("%s", e.msg);
	if (cli.duration && parse_duration(cli.duration, &sc.duration, &e) < 0) {
		scenario_free(&sc);
		return bad("--duration: %s", e.msg);
	}
	if (cli.duration && sc.duration <= 0) {
		scenario_free(&sc);
		return bad("--duration: '%s' must be more than 0", cli.duration);
	}
	if (cli.seed) {
		long long seed;

		if (parse_int(cli.seed, 0, INT64_MAX, &seed, &e) < 0) {
			scenario_free(&sc);
			return bad("--seed: %s", e.msg);
		}
		sc.seed = (uint64_t)seed;
	}

	n = split_list(cli.sched, &items);
	specs = xcalloc((size_t)n, sizeof(*specs));
	runs = xcalloc((size_t)n, sizeof(*runs));
	for (i = 0; i < n; i++) {
		if (sched_spec_parse(items[i], &specs[i], &e) < 0) {
			status = bad("--sched: %s", e.msg);
			goto out;
		}
		if (!sched_find(specs[i].name)) {
			const struct sched_ops *const *all = sched_all();
			char names[256] = "";
			int k;

			for (k = 0; all[k]; k++) {
				strncat(names, k ? ", " : "", sizeof(names) - strlen(names) - 1);
				strncat(names, all[k]->name, sizeof(names) - strlen(names) - 1);
			}
			snprintf(e.msg, sizeof(e.msg), "unknown scheduler '%s' (valid: %s)",
				 specs[i].name, names);
			status = bad("--sched: %s", e.msg);
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		struct run_options o = { cli.check, NULL, false };

		if (run_scenario(&sc, &specs[i], &o, &runs[i], &e) < 0) {
			status = bad("%s", e.msg);
			n = i;
			goto out;
		}
		if (runs[i].check_error[0]) {
			fprintf(stderr, "schedsim: %s: %s\n", runs[i].label, runs[i].check_error);
			status = 1;
		}
	}
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
	for (i = 0; i < n; i++)
		sched_spec_free(&specs[i]);
	free(runs);
	free(specs);
	free_list(items, n);
	scenario_free(&sc);
	return status;
}
