/*
 * The pieces of --plot that need no gnuplot: option parsing and checking,
 * the PATH search, the latency CDF lines of a hand-built histogram, and
 * the recorder of the timeline and credit plots on small machines, where
 * what it writes can be checked against the core's own accounting.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/run_suite.h"
#include "schedulers/sched.h"
#include "sim/engine/scenario.h"
#include "sim/experiment/run.h"
#include "sim/output/plot.h"
#include "tests/testlib.h"

/* ------------------------------------------------------------ options */

START_TEST(parse_vcpu)
{
	static const char *const bad[] = { "d1", "1v0", "dv0", "d1v", "d1v0x", "x1v0", "d-1v0",
					   "d1v-1", "d70000v0", "" };
	struct plot_vcpu v;
	struct err e = { "" };

	ck_assert_int_eq(plot_parse_vcpu("d1v0", &v, &e), 0);
	ck_assert_int_eq(v.domid, 1);
	ck_assert_int_eq(v.vcpu, 0);
	ck_assert_int_eq(plot_parse_vcpu("d0v15", &v, &e), 0);
	ck_assert_int_eq(v.domid, 0);
	ck_assert_int_eq(v.vcpu, 15);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(plot_parse_vcpu(bad[i], &v, &e) < 0, "'%s' accepted", bad[i]);
		ck_assert_ptr_nonnull(strstr(e.msg, "--plot-credit"));
	}
}
END_TEST

START_TEST(options)
{
	struct plot_cli c = { 0 };
	struct err e = { "" };

	ck_assert_int_eq(plot_cli_option(&c, PLOT_OPT_FORMAT, "svg", &e), 0);
	ck_assert_int_eq(c.format, PLOT_SVG);
	ck_assert_int_lt(plot_cli_option(&c, PLOT_OPT_FORMAT, "gif", &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "png, svg, pdf"));
	/* Options of the pictures without the directory are refused. */
	ck_assert_int_lt(plot_cli_check(&c, &e), 0);
	ck_assert_str_eq(e.msg, "--plot-format needs --plot=DIR");

	ck_assert_int_eq(plot_cli_option(&c, PLOT_OPT_TIMELINE, "3,0,12", &e), 0);
	ck_assert_int_eq(c.nruns, 3);
	ck_assert_int_eq(c.runs[0], 3);
	ck_assert_int_eq(c.runs[2], 12);
	ck_assert_int_lt(plot_cli_option(&c, PLOT_OPT_TIMELINE, "1,1", &e), 0);
	ck_assert_int_lt(plot_cli_option(&c, PLOT_OPT_TIMELINE, "1,,2", &e), 0);
	ck_assert_int_lt(plot_cli_option(&c, PLOT_OPT_TIMELINE, "-1", &e), 0);

	ck_assert_int_eq(plot_cli_option(&c, PLOT_OPT_WINDOW, "2s:2.5s", &e), 0);
	ck_assert_int_eq(c.from, 2000000000LL);
	ck_assert_int_eq(c.to, 2500000000LL);
	ck_assert_int_lt(plot_cli_option(&c, PLOT_OPT_WINDOW, "2s:1s", &e), 0);
	ck_assert_int_lt(plot_cli_option(&c, PLOT_OPT_WINDOW, "2s", &e), 0);
	ck_assert_int_lt(plot_cli_option(&c, PLOT_OPT_WINDOW, ":1s", &e), 0);

	ck_assert_int_eq(plot_cli_option(&c, PLOT_OPT_CREDIT, "d1v0,d0v3", &e), 0);
	ck_assert_int_eq(c.nvcpus, 2);
	ck_assert_int_eq(c.vcpus[1].domid, 0);
	ck_assert_int_eq(c.vcpus[1].vcpu, 3);
	ck_assert_int_lt(plot_cli_option(&c, PLOT_OPT_DIR, "", &e), 0);
}
END_TEST

/* A scratch directory holding one file, executable or not. */
static void make_tool(char *dir, size_t len, const char *name, mode_t mode)
{
	char path[512];
	FILE *f;

	snprintf(dir, len, "/tmp/check_plot.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("#!/bin/sh\n", f);
	fclose(f);
	ck_assert_int_eq(chmod(path, mode), 0);
}

static void remove_tool(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	remove(path);
	rmdir(dir);
}

START_TEST(find_program)
{
	char dir[64], path[1024], out[1024];

	make_tool(dir, sizeof(dir), "gnuplot", 0755);
	snprintf(path, sizeof(path), "/nonexistent:%s:/usr/bin", dir);
	ck_assert(plot_find_program("gnuplot", path, out, sizeof(out)));
	ck_assert_str_eq(out, (snprintf(path, sizeof(path), "%s/gnuplot", dir), path));
	ck_assert(!plot_find_program("gnuplot", "/nonexistent:/also-not", out, sizeof(out)));
	/* A directory of that name is not the program. */
	ck_assert(!plot_find_program("check_plot.XXXXXX", "/tmp", out, sizeof(out)) ||
		  strcmp(out, "/tmp/check_plot.XXXXXX"));
	remove_tool(dir, "gnuplot");

	make_tool(dir, sizeof(dir), "gnuplot", 0644);   /* not executable */
	ck_assert(!plot_find_program("gnuplot", dir, out, sizeof(out)));
	remove_tool(dir, "gnuplot");
}
END_TEST

START_TEST(missing_gnuplot_names_the_package)
{
	struct plot_cli c = { 0 };
	struct err e = { "" };
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	ck_assert_int_eq(plot_cli_option(&c, PLOT_OPT_DIR, "out", &e), 0);
	setenv("PATH", "/nonexistent", 1);
	ck_assert_int_lt(plot_cli_check(&c, &e), 0);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	ck_assert_ptr_nonnull(strstr(e.msg, "gnuplot-nox"));
	ck_assert_ptr_null(strchr(e.msg, '\n'));
	/* Defaults are filled in when --plot is given. */
	ck_assert_int_eq(c.from, 1000000000LL);
	ck_assert_int_eq(c.to, 1100000000LL);
}
END_TEST

/* ---------------------------------------------------------- latency CDF */

START_TEST(cdf_of_a_hand_built_histogram)
{
	/*
	 * Values 0, 5, 100, 100, 1000 ns.  Buckets (16 per power of two):
	 * 0 and 5 are exact; 100 is in [100, 104) and 1000 in [992, 1024), whose
	 * upper edges 103 and 1023 (the second capped at the max, 1000) are
	 * what hist_quantile reports.  0 ns is drawn at 1 ns.
	 */
	static const char want[] =
		"L 0.001 0 0\n"
		"L 0.001 0.20000000000000001 1\n"
		"L 0.005 0.40000000000000002 2\n"
		"L 0.103 0.80000000000000004 4\n"
		"L 1 1 5\n";
	struct hist h = { 0, 0, 0, NULL };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	hist_record(&h, 100);
	hist_record(&h, 0);
	hist_record(&h, 1000);
	hist_record(&h, 5);
	hist_record(&h, 100);
	ck_assert_int_eq(hist_quantile(&h, 0.5), 103);
	plot_write_cdf(f, "L", &h);
	fclose(f);
	ck_assert_str_eq(buf, want);
	free(buf);
	hist_free(&h);

	/* An empty histogram writes nothing. */
	f = open_memstream(&buf, &len);
	plot_write_cdf(f, "L", &h);
	fclose(f);
	ck_assert_str_eq(buf, "");
	free(buf);
}
END_TEST

/* ------------------------------------------------------------ recorder */

struct interval {
	int cpu, dom, domid, vcpu;
	double a, b;
};

/* Runs xml under sched; with rec, the recorder's files come back as strings. */
static void run(const char *xml, const char *sched, stime_t from, stime_t to, stime_t period,
		const struct plot_vcpu *sel, int nsel, bool rec, struct run_result *r,
		char **tl, char **cr)
{
	struct run_options o = { .check = true };
	struct plot_recorder *p = NULL;
	size_t l1, l2;
	FILE *f1 = NULL, *f2 = NULL;

	if (rec) {
		f1 = open_memstream(tl, &l1);
		f2 = open_memstream(cr, &l2);
		p = plot_recorder_new(f1, f2, from, to, period, sel, nsel);
		o.tracer = plot_recorder_tracer(p);
	}
	test_run(xml, sched, &o, r);
	ck_assert_str_eq(r->check_error, "");
	if (rec) {
		plot_recorder_free(p);
		fclose(f1);
		fclose(f2);
	}
}

static int parse_intervals(const char *s, struct interval *out, int max)
{
	int n = 0;

	for (const char *line = s; *line; line = strchr(line, '\n') + 1) {
		ck_assert_int_lt(n, max);
		ck_assert_int_eq(sscanf(line, "%d %lf %lf %d %d %d", &out[n].cpu, &out[n].a,
					&out[n].b, &out[n].dom, &out[n].domid, &out[n].vcpu), 6);
		ck_assert(out[n].b > out[n].a);
		n++;
	}
	return n;
}

/* No pCPU runs two vCPUs at once. */
static void assert_no_overlap(const struct interval *iv, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (iv[i].cpu == iv[j].cpu)
				ck_assert_msg(iv[i].b <= iv[j].a || iv[j].b <= iv[i].a,
					      "pCPU %d: [%f,%f) and [%f,%f) overlap", iv[i].cpu,
					      iv[i].a, iv[i].b, iv[j].a, iv[j].b);
}

/* Two hogs and a sleeper on two pCPUs: Credit2 moves them around. */
static const char busy_xml[] =
	"<scenario duration=\"400ms\" seed=\"3\">"
	"<host sockets=\"1\" cores-per-socket=\"2\" threads-per-core=\"1\"/>"
	"<domain name=\"dom0\"><workload type=\"cpu-hog\"/></domain>"
	"<domain name=\"a\" vcpus=\"2\"><workload type=\"cpu-hog\"/></domain>"
	"</scenario>";

START_TEST(timeline_matches_the_runstate_accounting)
{
	enum { MAX = 20000 };
	struct interval *iv = calloc(MAX, sizeof(*iv));
	struct run_result plain, r;
	char *tl, *cr;
	double run_ms[3] = { 0 };
	int n;

	run(busy_xml, "credit2", 0, MSEC(400), MSEC(10), NULL, 0, true, &r, &tl, &cr);
	run(busy_xml, "credit2", 0, 0, 0, NULL, 0, false, &plain, NULL, NULL);
	n = parse_intervals(tl, iv, MAX);
	ck_assert_int_gt(n, 3);
	assert_no_overlap(iv, n);
	for (int i = 0; i < n; i++) {
		int k = iv[i].domid == 0 ? 0 : 1 + iv[i].vcpu;

		ck_assert_int_eq(iv[i].dom, iv[i].domid);   /* dom0 first, then a */
		ck_assert(iv[i].cpu >= 0 && iv[i].cpu < 2);
		run_ms[k] += iv[i].b - iv[i].a;
	}
	/* Each vCPU's intervals add up to its run time (ns printed exactly). */
	ck_assert_double_eq_tol(run_ms[0], r.doms[0].vcpus[0].run_ns / 1e6, 1e-6 * n);
	ck_assert_double_eq_tol(run_ms[1], r.doms[1].vcpus[0].run_ns / 1e6, 1e-6 * n);
	ck_assert_double_eq_tol(run_ms[2], r.doms[1].vcpus[1].run_ns / 1e6, 1e-6 * n);
	/* Three hogs on two pCPUs: both are always busy. */
	ck_assert_double_eq_tol(run_ms[0] + run_ms[1] + run_ms[2], 800.0, 0.1);
	/* Recording changes nothing in the run. */
	for (int d = 0; d < 2; d++)
		for (int v = 0; v < r.doms[d].nvcpus; v++) {
			ck_assert_int_eq(r.doms[d].vcpus[v].run_ns, plain.doms[d].vcpus[v].run_ns);
			ck_assert_int_eq(r.doms[d].vcpus[v].context_switches,
					 plain.doms[d].vcpus[v].context_switches);
		}
	free(tl);
	free(cr);
	free(iv);
	run_result_free(&r);
	run_result_free(&plain);
}
END_TEST

START_TEST(timeline_window_clips)
{
	enum { MAX = 20000 };
	struct interval *iv = calloc(MAX, sizeof(*iv));
	struct run_result r;
	char *tl, *cr;
	double busy[2] = { 0, 0 };
	int n;

	run(busy_xml, "credit1", MSEC(100), MSEC(150), MSEC(1), NULL, 0, true, &r, &tl, &cr);
	n = parse_intervals(tl, iv, MAX);
	assert_no_overlap(iv, n);
	for (int i = 0; i < n; i++) {
		ck_assert(iv[i].a >= 100.0 && iv[i].b <= 150.0);
		busy[iv[i].cpu] += iv[i].b - iv[i].a;
	}
	/* Hogs leave no gap but the context switches themselves (none last). */
	ck_assert_double_eq_tol(busy[0], 50.0, 1e-6 * n);
	ck_assert_double_eq_tol(busy[1], 50.0, 1e-6 * n);
	ck_assert_str_eq(cr, "");     /* no vCPU chosen: no credit */
	free(tl);
	free(cr);
	free(iv);
	run_result_free(&r);
}
END_TEST

START_TEST(credit_samples)
{
	static const struct plot_vcpu sel[] = { { 1, 0 }, { 1, 1 }, { 0, 0 }, { 7, 0 } };
	struct run_result r;
	char *tl, *cr, *line;
	int count[4] = { 0 }, blocks = 0, running_at[41] = { 0 };
	double last_t = -1;

	/* From 100 ms to 300 ms every 5 ms: 41 samples of each vCPU. */
	run(busy_xml, "credit2", MSEC(100), MSEC(300), MSEC(5), sel, 4, true, &r, &tl, &cr);
	for (line = cr; *line; line = strchr(line, '\n') + 1) {
		double t;
		int i, running;
		long long c;

		if (*line == '#')
			continue;
		if (*line == '\n') {
			blocks += line[1] == '\n';
			last_t = -1;
			continue;
		}
		ck_assert_int_eq(sscanf(line, "%lf %d %lld %d", &t, &i, &c, &running), 4);
		ck_assert(i >= 0 && i < 3);          /* d7v0 does not exist: no samples */
		ck_assert_int_eq(i, blocks);         /* one block per vCPU, in order */
		ck_assert(t > last_t && t >= 100.0 && t <= 300.0);
		ck_assert_double_eq_tol(t, 100.0 + 5.0 * count[i], 1e-9);
		/* Credit2: between CREDIT_MIN (-10 ms) and CREDIT_INIT + carry (2 x 10.5 ms). */
		ck_assert(c >= -10500000LL && c <= 21000000LL);
		running_at[count[i]] += running;
		count[i]++;
		last_t = t;
	}
	ck_assert_int_eq(blocks, 4);
	ck_assert_int_eq(count[0], 41);
	ck_assert_int_eq(count[1], 41);
	ck_assert_int_eq(count[2], 41);
	/* Three always-runnable hogs on two pCPUs: two run at every sample. */
	for (int k = 0; k < 41; k++)
		ck_assert_int_eq(running_at[k], 2);
	free(tl);
	free(cr);
	run_result_free(&r);
}
END_TEST

START_TEST(null_keeps_no_credit)
{
	static const struct plot_vcpu sel[] = { { 1, 0 } };
	struct run_result r;
	char *tl, *cr;

	run(busy_xml, "null", MSEC(10), MSEC(20), MSEC(1), sel, 1, true, &r, &tl, &cr);
	ck_assert_str_eq(cr, "# vCPU 0: d1v0\n\n\n");    /* an empty block */
	ck_assert_ptr_nonnull(strstr(tl, " 1 1 0\n"));   /* null: d1v0 holds a pCPU */
	free(tl);
	free(cr);
	run_result_free(&r);
}
END_TEST

static Suite *plot_suite(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("plot");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, parse_vcpu);
	tcase_add_test(tc, options);
	tcase_add_test(tc, find_program);
	tcase_add_test(tc, missing_gnuplot_names_the_package);
	tcase_add_test(tc, cdf_of_a_hand_built_histogram);
	tcase_add_test(tc, timeline_matches_the_runstate_accounting);
	tcase_add_test(tc, timeline_window_clips);
	tcase_add_test(tc, credit_samples);
	tcase_add_test(tc, null_keeps_no_credit);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(plot_suite());
}
