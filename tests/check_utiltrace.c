/*
 * Utilisation traces: the reader (sim/input/utiltrace.c) on both layouts
 * and on bad and hostile files, and the utilisation workload's on/off
 * burst model (workloads/utilisation.c) on a machine where the VM has a
 * pCPU of its own (each interval's busy fraction is its value, the bursts
 * have the mean of burst=) and on one where two VMs share a pCPU (the
 * closed loop delivers less than the demand, and the run says so).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/run_suite.h"
#include "sim/experiment/run.h"
#include "sim/input/utiltrace.h"
#include "tests/testlib.h"
#include "workloads/guest.h"

#define DATA TESTS_SRCDIR "/data/util/"

/* Parses text; the message, or NULL (then *out holds the series). */
static const char *parse(const char *text, enum utiltrace_format fmt, const char *vm,
			 struct util_series *out)
{
	static struct err e;

	memset(&e, 0, sizeof(e));
	if (utiltrace_parse(text, strlen(text), "t.csv", fmt, vm, out, &e) < 0)
		return e.msg;
	return NULL;
}

static const char *parse_error(const char *text, enum utiltrace_format fmt, const char *vm)
{
	struct util_series s;
	const char *msg = parse(text, fmt, vm, &s);

	if (!msg) {
		free(s.pct);
		return "(accepted)";
	}
	return msg;
}

START_TEST(series_one_value_a_line)
{
	struct util_series s;

	ck_assert_ptr_null(parse("# comment\n47\n4\n\n38.5\n  0  \n", UTILTRACE_AUTO, NULL, &s));
	ck_assert_int_eq(s.n, 4);
	ck_assert(s.pct[0] == 47 && s.pct[1] == 4 && s.pct[2] == 38.5 && s.pct[3] == 0);
	free(s.pct);
	/* A file of the PlanetLab layout on disk (no final newline is fine too). */
	{
		struct err e = { "" };

		ck_assert_msg(utiltrace_load(DATA "four.series", UTILTRACE_AUTO, NULL, &s, &e) == 0,
			      "%s", e.msg);
		ck_assert_int_eq(s.n, 5);
		ck_assert(s.pct[3] == 100);
		free(s.pct);
	}
}
END_TEST

START_TEST(csv_with_header_and_vms)
{
	static const char csv[] =
		"vm,timestamp,value\n"
		"a,0,10\n"
		"b,0,90\n"
		"a,300,20\n"
		"b,300,80\n"
		"a, 600 , 30\n";
	struct util_series s;

	ck_assert_ptr_null(parse(csv, UTILTRACE_AUTO, "a", &s));
	ck_assert_int_eq(s.n, 3);
	ck_assert(s.pct[0] == 10 && s.pct[1] == 20 && s.pct[2] == 30);
	free(s.pct);
	ck_assert_ptr_null(parse(csv, UTILTRACE_CSV, "b", &s));
	ck_assert_int_eq(s.n, 2);
	ck_assert(s.pct[1] == 80);
	free(s.pct);
	/* One vm and no header: vm= may be left out. */
	ck_assert_ptr_null(parse("x,10,5\nx,20,6\n", UTILTRACE_AUTO, NULL, &s));
	ck_assert_int_eq(s.n, 2);
	free(s.pct);
}
END_TEST

START_TEST(bad_files_name_their_line)
{
	ck_assert_str_eq(parse_error("47\nforty\n", UTILTRACE_AUTO, NULL),
			 "t.csv:2: expected one utilisation value (per cent of one CPU) a line, got 'forty'");
	ck_assert_str_eq(parse_error("1\n-3\n", UTILTRACE_AUTO, NULL),
			 "t.csv:2: utilisation '-3' is out of range 0..409600 (per cent of one CPU)");
	ck_assert_str_eq(parse_error("nan\n", UTILTRACE_SERIES, NULL),
			 "t.csv:1: expected one utilisation value (per cent of one CPU) a line, got 'nan'");
	ck_assert_str_eq(parse_error("1e999\n", UTILTRACE_SERIES, NULL),
			 "t.csv:1: expected one utilisation value (per cent of one CPU) a line, got '1e999'");
	ck_assert_str_eq(parse_error("# nothing\n\n", UTILTRACE_AUTO, NULL),
			 "t.csv: no utilisation values");
	ck_assert_str_eq(parse_error("a,0,1\nb,0,2\n", UTILTRACE_AUTO, NULL),
			 "t.csv: holds more than one vm (the first is 'a'); choose one with vm=");
	ck_assert_str_eq(parse_error("a,0,1\n", UTILTRACE_AUTO, "z"), "t.csv: no line of vm 'z'");
	ck_assert_str_eq(parse_error("a,0,1\na,300,2\na,900,3\n", UTILTRACE_AUTO, NULL),
			 "t.csv:3: timestamp 900 of vm 'a' is 600 s after the previous one, not 300 s as before (the values must be evenly spaced)");
	ck_assert_str_eq(parse_error("a,300,1\na,300,2\n", UTILTRACE_AUTO, NULL),
			 "t.csv:2: timestamp 300 of vm 'a' is not after the previous one (300)");
	ck_assert_str_eq(parse_error("a,0,1\na,1\n", UTILTRACE_AUTO, NULL),
			 "t.csv:2: expected three comma-separated fields vm,timestamp,value");
	ck_assert_str_eq(parse_error("a,0,1\na,x,1\n", UTILTRACE_AUTO, NULL),
			 "t.csv:2: timestamp 'x' is not a number of seconds");
	ck_assert_str_eq(parse_error("12\n", UTILTRACE_SERIES, "a"),
			 "t.csv: vm= selects a vm of a CSV file; this is a file of one vm's values");
}
END_TEST

START_TEST(hostile_files)
{
	char *big = malloc(100000);
	struct err e = { "" };
	struct util_series s;
	FILE *f;
	char path[] = "/tmp/utiltrace-XXXXXX";
	int fd;

	/* A line longer than any value: refused, not cut into a number. */
	memset(big, '1', 99999);
	big[99999] = '\0';
	ck_assert_str_eq(parse_error(big, UTILTRACE_SERIES, NULL),
			 "t.csv:1: expected one utilisation value (per cent of one CPU) a line, got '1111111111111111111111111111111111111111'");
	free(big);
	/* A NUL byte: not a text file. */
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fwrite("12\n\0\n", 1, 5, f);
	fclose(f);
	ck_assert_int_eq(utiltrace_load(path, UTILTRACE_AUTO, NULL, &s, &e), -1);
	ck_assert_msg(strstr(e.msg, ":2: NUL byte") != NULL, "%s", e.msg);
	unlink(path);
	ck_assert_int_eq(utiltrace_load("/nonexistent/x", UTILTRACE_AUTO, NULL, &s, &e), -1);
	ck_assert_str_eq(e.msg, "/nonexistent/x: cannot open: No such file or directory");
}
END_TEST

/* --- the burst model on a running machine --- */

static char *scenario(const char *domains, const char *duration)
{
	static char xml[4096];

	snprintf(xml, sizeof(xml),
		 "<scenario duration=\"%s\"><host sockets=\"1\" cores-per-socket=\"2\" "
		 "threads-per-core=\"1\" hw=\"ideal\"/><domain name=\"dom0\" vcpus=\"1\"/>%s</scenario>",
		 duration, domains);
	return xml;
}

/* Alone on a pCPU: each interval's busy fraction is its value (30 70 0 100 50). */
START_TEST(each_interval_gets_its_utilisation)
{
	static const double want[] = { 0.30, 0.70, 0.0, 1.0, 0.50 };
	struct scenario sc;
	struct sim *s = test_build(&sc, scenario(
		"<domain name=\"vm\" vcpus=\"1\"><workload type=\"utilisation\" file=\"" DATA
		"four.series\" interval=\"4s\"/></domain>", "20s"), "null");
	struct task *t = guest_of(s->domains[1])->tasks[0];
	stime_t before = 0;

	for (int k = 0; k < 5; k++) {
		double got;

		sim_run_until(s, SEC(4) * (k + 1));
		got = (double)(t->cpu_ns - before) / (double)SEC(4);
		ck_assert_msg(fabs(got - want[k]) < 0.03, "interval %d: busy %.3f, want %.2f", k, got,
			      want[k]);
		before = t->cpu_ns;
	}
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

/* Bursts have burst='s mean: run time over the vCPU's switches in. */
START_TEST(bursts_have_the_mean_of_burst)
{
	static const char *const bursts[] = { "exp:4ms", "exp:1ms", "2ms" };
	static const double mean_ms[] = { 4, 1, 2 };

	for (int i = 0; i < 3; i++) {
		char dom[512];
		struct scenario sc;
		struct sim *s;
		struct vcpu *v;
		double got;

		snprintf(dom, sizeof(dom),
			 "<domain name=\"vm\" vcpus=\"1\"><workload type=\"utilisation\" file=\"" DATA
			 "four.series\" interval=\"4s\" burst=\"%s\"/></domain>", bursts[i]);
		s = test_build(&sc, scenario(dom, "4s"), "null");
		sim_run_until(s, SEC(4));
		sim_account_all(s);
		v = s->domains[1]->vcpus[0];
		got = (double)v->st.runstate_ns[RUNSTATE_RUNNING] / 1e6 / (double)v->st.context_switches;
		ck_assert_msg(fabs(got - mean_ms[i]) < 0.12 * mean_ms[i], "burst %s: mean %.3f ms",
			      bursts[i], got);
		sim_destroy(s);
		scenario_free(&sc);
	}
}
END_TEST

/* Two VMs of 100 % on one pCPU: each gets about half, and the run reports the shortfall. */
START_TEST(a_shared_pcpu_shows_the_shortfall)
{
	static const char doms[] =
		"<domain name=\"a\" vcpus=\"1\"><affinity hard=\"1\"/><workload type=\"utilisation\" file=\"" DATA
		"full.series\" interval=\"1s\"/></domain>"
		"<domain name=\"b\" vcpus=\"1\"><affinity hard=\"1\"/><workload type=\"utilisation\" file=\"" DATA
		"full.series\" interval=\"1s\"/></domain>";
	struct scenario sc;
	struct sched_spec spec;
	struct run_options o = { .check = true };
	struct run_result r;
	struct err e = { "" };

	test_load(&sc, scenario(doms, "2s"));
	ck_assert_int_eq(sched_spec_parse("credit2", &spec, &e), 0);
	ck_assert_msg(run_scenario(&sc, &spec, &o, &r, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(r.check_error, "");
	for (int d = 1; d <= 2; d++) {
		const struct domain_result *dr = &r.doms[d];

		ck_assert(dr->has_demand);
		ck_assert_int_eq(dr->demand_ns, SEC(2));
		ck_assert_msg(llabs(dr->vcpus[0].run_ns - SEC(1)) < MSEC(50), "%s ran %lld",
			      dr->name, (long long)dr->vcpus[0].run_ns);
	}
	ck_assert(!r.doms[0].has_demand);
	run_result_free(&r);
	sched_spec_free(&spec);
	scenario_free(&sc);
}
END_TEST

START_TEST(setup_refuses_what_cannot_be_replayed)
{
	static const char *const bad[][2] = {
		{ "<workload type=\"utilisation\"/>",
		  "test.xml:1: workload 'utilisation' needs file= (a utilisation trace)" },
		{ "<workload type=\"utilisation\" file=\"" DATA "four.series\" speedup=\"10000\"/>",
		  "test.xml:1: utilisation: an interval of 300s at speedup 10000 lasts 30ms, shorter "
		  "than ten mean bursts: lower speedup or burst" },
		{ "<workload type=\"utilisation\" file=\"" DATA "over.series\"/>",
		  "test.xml:1: utilisation: interval 2 of " DATA "over.series asks 150 % of one CPU, "
		  "more than the domain's 1 vCPU give" },
		{ "<workload type=\"utilisation\" file=\"" DATA "four.series\" burst=\"exp:x\"/>",
		  NULL },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char dom[1024];
		struct scenario sc;
		struct sched_spec spec;
		struct err e = { "" };
		struct sim *s;

		snprintf(dom, sizeof(dom), "<domain name=\"vm\" vcpus=\"1\">%s</domain>", bad[i][0]);
		test_load(&sc, scenario(dom, "1s"));
		ck_assert_int_eq(sched_spec_parse("credit2", &spec, &e), 0);
		s = sim_build(&sc, &spec, &e);
		ck_assert_msg(s == NULL, "accepted %s", bad[i][0]);
		if (bad[i][1])
			ck_assert_str_eq(e.msg, bad[i][1]);
		else
			ck_assert_msg(strncmp(e.msg, "test.xml:1: utilisation: burst", 30) == 0, "%s",
				      e.msg);
		sched_spec_free(&spec);
		scenario_free(&sc);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("utiltrace");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, series_one_value_a_line);
	tcase_add_test(tc, csv_with_header_and_vms);
	tcase_add_test(tc, bad_files_name_their_line);
	tcase_add_test(tc, hostile_files);
	tcase_add_test(tc, each_interval_gets_its_utilisation);
	tcase_add_test(tc, bursts_have_the_mean_of_burst);
	tcase_add_test(tc, a_shared_pcpu_shows_the_shortfall);
	tcase_add_test(tc, setup_refuses_what_cannot_be_replayed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
