/*
 * Named evaluations (sim/experiment/evaluation.h) and the published
 * figures of validate (sim/experiment/validate.h): every preset's cells
 * resolve into a scenario and a scheduler (no field set by both a column
 * and a row, every scenario loads, every override applies), every
 * published figure and order names a cell, and a table's statistics are
 * MMTests': Amean of times, Hmean of rates, the gain against the first
 * column positive when better, significance from the U test.  The
 * expected figures are worked out by hand in the comments.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "sim/experiment/evaluation.h"
#include "sim/experiment/experiment.h"
#include "sim/experiment/validate.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void use_source_examples(void)
{
	setenv("SCHEDSIM_EXAMPLES", TESTS_SRCDIR "/../examples", 1);
}

START_TEST(test_every_preset_resolves)
{
	int n;
	const struct eval_preset *const *all = eval_presets(&n);
	struct eval_options o = { 0 };

	use_source_examples();
	ck_assert_int_ge(n, 4);
	for (int i = 0; i < n; i++) {
		struct evaluation ev;
		struct err e = { "" };
		int cells = 0;

		for (int t = 0; t < all[i]->ntables; t++)
			cells += all[i]->tables[t].nrows * all[i]->tables[t].ncols;
		eval_init(&ev, &o);
		ck_assert_msg(eval_add(&ev, all[i], NULL, NULL, &e) == 0, "%s: %s", all[i]->name,
			      e.msg);
		ck_assert_int_eq(ev.ncells, cells);
		ck_assert_int_eq(ev.iterations, all[i]->iterations);
		ck_assert_ptr_eq(eval_preset_find(all[i]->name), all[i]);
		for (int j = 0; j < i; j++)
			ck_assert_str_ne(all[j]->name, all[i]->name);
		eval_free(&ev);
	}
	ck_assert_ptr_null(eval_preset_find("nosuch"));
}
END_TEST

START_TEST(test_published_names_cells)
{
	struct err e = { "" };
	int n;

	use_source_examples();
	ck_assert_msg(published_check(&e) == 0, "%s", e.msg);
	published_figures(&n);
	ck_assert_int_ge(n, 4);
}
END_TEST

START_TEST(test_hmean)
{
	double x[] = { 1, 2, 4 }, z[] = { 1, 0 };

	/* 3 / (1 + 1/2 + 1/4) = 12/7 */
	ck_assert_double_eq_tol(stats_hmean(x, 3), 12.0 / 7, 1e-12);
	ck_assert(isnan(stats_hmean(z, 2)));
	ck_assert(isnan(stats_hmean(x, 0)));
}
END_TEST

/* A preset of two columns on the default scenario, for hand-made runs. */
static const struct eval_axis cols[] = {
	{ .name = "old", .sched = "credit1" },
	{ .name = "new", .sched = "credit2" },
};
static const struct eval_axis rows[] = {
	{ .name = "time", .workload = "make-xen" },
	{ .name = "rate", .workload = "iperf" },
};
static const struct eval_table tables[] = {
	{ "bench", "", "kind", { .name = "bench" }, cols, 2, rows, 2 },
};
static const struct eval_preset preset = { "test", "a test", "nowhere", 4, tables, 1 };

static void set_metric(struct run_result *r, double v, bool higher)
{
	memset(r, 0, sizeof(*r));
	r->metric.valid = true;
	r->metric.value = v;
	r->metric.higher_better = higher;
	strcpy(r->metric.name, higher ? "throughput" : "build_time");
	strcpy(r->metric.unit, higher ? "Gbit/s" : "s");
}

START_TEST(test_mmtests_centres_and_gains)
{
	/* [cell][iteration]: cells in order (time, old), (time, new), (rate, old), (rate, new) */
	static const double v[4][4] = {
		{ 10, 10, 10, 10 }, { 8, 8, 8, 9 },    /* Amean 10 and 8.25: gain 100 - 82.5 = 17.5 */
		{ 1, 2, 4, 4 }, { 2, 4, 8, 8 },        /* Hmean 2 and 4: gain 100 */
	};
	struct eval_options o = { .iterations = 4 };
	struct evaluation ev;
	struct eval_result_table *t;
	struct err e = { "" };

	eval_init(&ev, &o);
	ck_assert_msg(eval_add(&ev, &preset, NULL, NULL, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ev.ncells, 4);
	ev.nruns = 16;
	ev.runs = calloc(16, sizeof(*ev.runs));
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 4; i++)
			set_metric(&ev.runs[k * 4 + i], v[k][i], k >= 2);
	ck_assert_int_eq(eval_results(&ev, &preset, 0.05, &t), 1);
	ck_assert(!t[0].t.rows[0].higher_better && t[0].t.rows[1].higher_better);
	ck_assert_double_eq_tol(t[0].cells[0].center, 10, 1e-12);
	ck_assert_double_eq_tol(t[0].cells[1].center, 8.25, 1e-12);
	ck_assert(isnan(t[0].cells[0].gain_pct));
	ck_assert_double_eq_tol(t[0].cells[1].gain_pct, 17.5, 1e-9);
	ck_assert_double_eq_tol(t[0].cells[2].center, 2, 1e-12);
	ck_assert_double_eq_tol(t[0].cells[3].center, 4, 1e-12);
	ck_assert_double_eq_tol(t[0].cells[3].gain_pct, 100, 1e-9);
	/*
	 * Times: every new value below every old one, with ties inside: the
	 * asymptotic U test, p = 0.0177 < 0.05.  Rates: 2,4,8,8 against
	 * 1,2,4,4 overlap: p = 0.231.
	 */
	ck_assert(t[0].cells[1].significant);
	ck_assert(!t[0].cells[3].significant);
	ck_assert(!t[0].cells[0].significant);
	eval_results_free(t, 1);
	eval_free(&ev);
}
END_TEST

/* A column and a row both setting one field is refused, naming the cell. */
static const struct eval_axis clash_rows[] = {
	{ .name = "r", .sched = "null" },
};
static const struct eval_table clash_tables[] = {
	{ "bench", "cfg", "p", { .name = "b" }, cols, 2, clash_rows, 1 },
};
static const struct eval_preset clash = { "clash", "", "", 1, clash_tables, 1 };

static const struct eval_axis bad_rows[] = {
	{ .name = "r", .workload = "nosuch-workload" },
};
static const struct eval_table bad_tables[] = {
	{ "bench", "", "p", { .name = "b" }, cols, 2, bad_rows, 1 },
};
static const struct eval_preset bad = { "bad", "", "", 1, bad_tables, 1 };

START_TEST(test_bad_presets)
{
	struct eval_options o = { 0 };
	struct evaluation ev;
	struct err e = { "" };

	eval_init(&ev, &o);
	ck_assert_int_eq(eval_add(&ev, &clash, NULL, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, "--eval=clash: bench cfg, r, old: both its column and its row "
				    "set the scheduler"), "%s", e.msg);
	eval_free(&ev);
	eval_init(&ev, &o);
	ck_assert_int_eq(eval_add(&ev, &bad, NULL, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, "--eval=bad: bench, r, old: ") && strstr(e.msg, "nosuch-workload"),
		      "%s", e.msg);
	eval_free(&ev);
}
END_TEST

static Suite *eval_suite(void)
{
	Suite *s = suite_create("eval");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_every_preset_resolves);
	tcase_add_test(tc, test_published_names_cells);
	tcase_add_test(tc, test_hmean);
	tcase_add_test(tc, test_mmtests_centres_and_gains);
	tcase_add_test(tc, test_bad_presets);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(eval_suite());
}
