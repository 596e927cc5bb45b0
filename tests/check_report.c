/*
 * Report formats: a fixed table (hand-picked values whose statistics are
 * easy to check) printed in every format and compared byte for byte with
 * tests/golden/report.{txt,md,csv,json}.  The numbers in those files were
 * checked against an independent calculation (exact enumeration of the
 * Mann-Whitney distribution, means by hand); the asserts below pin the
 * ones the tables print.  SCHEDSIM_REGEN_GOLDEN=1 rewrites the files after
 * a deliberate format change (review the diff before committing it).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "sim/output/json.h"
#include "sim/output/report_formats.h"
#include "sim/xalloc.h"

static void set_row(struct report_row *r, const char *w, const char *d, const char *metric,
		    const char *unit, bool higher)
{
	snprintf(r->workload, sizeof(r->workload), "%s", w);
	snprintf(r->dom0_load, sizeof(r->dom0_load), "%s", d);
	snprintf(r->metric, sizeof(r->metric), "%s", metric);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	r->higher_better = higher;
}

static void fill(struct report_table *t, int row, int col, const double *v, int n)
{
	struct report_cell *c = report_cell(t, row, col);

	snprintf(c->label, sizeof(c->label), "%s", t->cols[col]);
	snprintf(c->scheduler, sizeof(c->scheduler), "%.7s", t->cols[col]);
	for (int i = 0; i < n; i++)
		report_add_value(c, v[i]);
}

/*
 * Rows: make-xen off/on, iperf off/on, and a workload that gave no figure.
 * Columns: credit1 (baseline) and credit2:runqueue=core.
 */
static void build(struct report_table *t)
{
	static const double mx_off1[] = { 30, 31, 32, 33, 34 };
	static const double mx_off2[] = { 29.5, 30.5, 31.5, 32.5, 33.5 };
	static const double mx_on1[] = { 40, 42, 44, 46, 48 };
	static const double mx_on2[] = { 50, 52, 54, 56, 58 };
	static const double ip_off1[] = { 10 }, ip_off2[] = { 11 };
	static const double ip_on[] = { 5, 5, 5 };

	report_init(t, 5, 2);
	t->cols[0] = xstrdup("credit1");
	t->cols[1] = xstrdup("credit2:runqueue=core");
	set_row(&t->rows[0], "make-xen", "off", "build_time", "s", false);
	set_row(&t->rows[1], "make-xen", "on", "build_time", "s", false);
	set_row(&t->rows[2], "iperf", "off", "throughput", "Gbit/s", true);
	set_row(&t->rows[3], "iperf", "on", "throughput", "Gbit/s", true);
	set_row(&t->rows[4], "idle", "off", "", "", false);
	fill(t, 0, 0, mx_off1, 5);
	fill(t, 0, 1, mx_off2, 5);
	fill(t, 1, 0, mx_on1, 5);
	fill(t, 1, 1, mx_on2, 5);
	fill(t, 2, 0, ip_off1, 1);
	fill(t, 2, 1, ip_off2, 1);
	fill(t, 3, 0, ip_on, 3);
	fill(t, 3, 1, ip_on, 3);
	fill(t, 4, 0, NULL, 0);
	fill(t, 4, 1, NULL, 0);
	report_compute(t);
}

START_TEST(test_numbers)
{
	struct report_table t;

	build(&t);
	/* 31.5 vs 32: -1.5625 %; U = 10 of 25 pairs, exact p = 174/252 */
	ck_assert_double_eq_tol(report_cell(&t, 0, 1)->delta_pct, -1.5625, 1e-12);
	ck_assert_double_eq_tol(report_cell(&t, 0, 1)->mwu.p, 174.0 / 252, 1e-12);
	/* fully separated: +22.7273 %, p = 2/252 */
	ck_assert_double_eq_tol(report_cell(&t, 1, 1)->delta_pct, 1000.0 / 44, 1e-12);
	ck_assert_double_eq_tol(report_cell(&t, 1, 1)->mwu.p, 2.0 / 252, 1e-12);
	/* one sample each: no interval, p = 1 */
	ck_assert(!report_cell(&t, 2, 0)->s.has_mean_ci);
	ck_assert_double_eq(report_cell(&t, 2, 1)->mwu.p, 1);
	ck_assert(report_cell(&t, 3, 1)->mwu.all_equal);
	ck_assert(!report_cell(&t, 4, 1)->has_cmp);
	/* mean CI of {30..34}: 32 -+ 2.776445 * sqrt(2.5) / sqrt(5) */
	ck_assert_double_eq_tol(report_cell(&t, 0, 0)->s.mean_hi, 32 + 2.7764451052 * sqrt(0.5),
				1e-8);
	report_free(&t);
}
END_TEST

static char *render(const struct report_table *t, const char *fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!strcmp(fmt, "txt")) {
		report_text(f, t, true);
	} else if (!strcmp(fmt, "md")) {
		report_markdown(f, t, true);
	} else if (!strcmp(fmt, "csv")) {
		report_csv(f, t);
	} else {
		struct json j;

		json_init(&j, f);
		json_object_begin(&j, NULL);
		report_json_summary(&j, t);
		json_object_end(&j);
		json_finish(&j);
	}
	fclose(f);
	return buf;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xmalloc((size_t)n + 1);
	buf[fread(buf, 1, (size_t)n, f)] = 0;
	fclose(f);
	return buf;
}

static void check_golden(const char *fmt)
{
	struct report_table t;
	char path[4096], *got, *want;

	build(&t);
	got = render(&t, fmt);
	snprintf(path, sizeof(path), "%s/golden/report.%s", TESTS_SRCDIR, fmt);
	if (getenv("SCHEDSIM_REGEN_GOLDEN")) {
		FILE *f = fopen(path, "w");

		ck_assert_ptr_nonnull(f);
		fputs(got, f);
		fclose(f);
	}
	want = slurp(path);
	ck_assert_msg(want != NULL, "missing %s", path);
	ck_assert_msg(!strcmp(got, want), "%s differs; got:\n%s", path, got);
	free(got);
	free(want);
	report_free(&t);
}

START_TEST(test_golden_text) { check_golden("txt"); }
END_TEST
START_TEST(test_golden_markdown) { check_golden("md"); }
END_TEST
START_TEST(test_golden_csv) { check_golden("csv"); }
END_TEST
START_TEST(test_golden_json) { check_golden("json"); }
END_TEST

START_TEST(test_best_marks)
{
	struct report_table t;
	char *txt;

	build(&t);
	txt = render(&t, "txt");
	/* lower is better for make-xen: credit2 wins without load, credit1 with */
	ck_assert_ptr_nonnull(strstr(txt, "| no dom0 load   |  31.500* "));
	ck_assert_ptr_nonnull(strstr(txt, "| with dom0 load |  44.000* "));
	/* the significant difference is printed, the others are ~ */
	ck_assert_ptr_nonnull(strstr(txt, "+22.73% (p=0.008 n=5)"));
	ck_assert_ptr_nonnull(strstr(txt, "~ (p=0.690 n=5)"));
	free(txt);
	report_free(&t);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_best_marks);
	tcase_add_test(tc, test_golden_text);
	tcase_add_test(tc, test_golden_markdown);
	tcase_add_test(tc, test_golden_csv);
	tcase_add_test(tc, test_golden_json);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(report_suite());
}
