/*
 * Statistics unit tests.  Every expected value was worked out independently of
 * sim/experiment/stats.c: Student t quantiles from published tables (and a
 * Simpson integration of the t density), Mann-Whitney p-values by enumerating
 * every ordering of the two samples (exact) or by hand from the tie-corrected
 * normal formula, median intervals from binomial(n, 1/2) sums with exact
 * fractions, and two cases from benchstat's own tests.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "tests/run_suite.h"
#include "sim/experiment/stats.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

START_TEST(test_basic)
{
	double x[] = { 4, 1, 3, 2, 10 };
	double even[] = { 5, 1, 2, 4 };

	ck_assert_double_eq_tol(stats_mean(x, N(x)), 4.0, 1e-12);
	/* deviations 0,-3,-1,-2,6: squares 50, / 4 = 12.5 */
	ck_assert_double_eq_tol(stats_stddev(x, N(x)), sqrt(12.5), 1e-12);
	ck_assert_double_eq(stats_median(x, N(x)), 3.0);
	ck_assert_double_eq(stats_median(even, N(even)), 3.0);
	ck_assert(isnan(stats_stddev(x, 1)));
	ck_assert(isnan(stats_median(x, 0)));
	/* the input stays untouched */
	ck_assert_double_eq(x[0], 4.0);
}
END_TEST

START_TEST(test_geomean)
{
	double a[] = { 1, 10, 100 }, b[] = { 2, 8 }, c[] = { 2, 0 };

	ck_assert_double_eq_tol(stats_geomean(a, 3), 10.0, 1e-12);
	ck_assert_double_eq_tol(stats_geomean(b, 2), 4.0, 1e-12);
	ck_assert(isnan(stats_geomean(c, 2)));
}
END_TEST

START_TEST(test_t_quantile)
{
	/* two-sided 95 %: the 0.975 quantile, as printed in t tables */
	static const struct { double df, t; } tab[] = {
		{ 1, 12.7062047362 }, { 2, 4.3026527297 }, { 5, 2.5705818356 },
		{ 10, 2.2281388520 }, { 14, 2.1447866879 }, { 29, 2.0452296421 },
		{ 1000, 1.9623390808 },
	};

	for (int i = 0; i < N(tab); i++) {
		ck_assert_double_eq_tol(stats_t_quantile(0.975, tab[i].df), tab[i].t, 1e-8);
		ck_assert_double_eq_tol(stats_t_quantile(0.025, tab[i].df), -tab[i].t, 1e-8);
		ck_assert_double_eq_tol(stats_t_cdf(tab[i].t, tab[i].df), 0.975, 1e-9);
	}
	/* df = 1 is the Cauchy distribution: F(1) = 3/4 */
	ck_assert_double_eq_tol(stats_t_cdf(1, 1), 0.75, 1e-12);
	ck_assert_double_eq_tol(stats_normal_cdf(1.959963984540054), 0.975, 1e-12);
}
END_TEST

START_TEST(test_mean_ci)
{
	/* benchstat's AssumeNormal test: mean 2, interval 2 -+ 5.3510928... */
	double x[] = { -8, 2, 3, 4, 5, 6 };
	struct stats_summary s;

	stats_summarize(x, N(x), 0.95, &s);
	ck_assert_int_eq(s.n, 6);
	ck_assert(s.has_mean_ci);
	ck_assert_double_eq_tol(s.mean, 2, 1e-12);
	ck_assert_double_eq_tol(s.mean_lo, -3.351092806089359, 1e-9);
	ck_assert_double_eq_tol(s.mean_hi, 7.351092806089359, 1e-9);
	ck_assert_double_eq(s.min, -8);
	ck_assert_double_eq(s.max, 6);
	ck_assert_double_eq(s.median, 3.5);
	stats_summarize(x, 1, 0.95, &s);
	ck_assert(!s.has_mean_ci);
	ck_assert(!s.has_median_ci);
}
END_TEST

START_TEST(test_median_ci)
{
	/* benchstat's AssumeNothing test: [-10, 6] at confidence 1 - 2/64 */
	double x[] = { -10, 2, 3, 4, 5, 6 };
	double y[15];
	struct stats_summary s;
	int lo, hi;

	stats_summarize(x, N(x), 0.95, &s);
	ck_assert(s.has_median_ci);
	ck_assert_double_eq(s.median_lo, -10);
	ck_assert_double_eq(s.median_hi, 6);
	ck_assert_double_eq_tol(s.median_conf, 0.96875, 1e-12);
	/* five samples cannot give 95 %: 1 - 2/32 = 0.9375 */
	stats_summarize(x, 5, 0.95, &s);
	ck_assert(!s.has_median_ci);
	ck_assert_int_eq(stats_median_ci_min_n(0.95), 6);
	ck_assert_int_eq(stats_median_ci_min_n(0.99), 8);
	/* orders from exact binomial sums (classical tables agree) */
	stats_median_ci_orders(8, 0.95, &lo, &hi);   /* left-biased */
	ck_assert_int_eq(lo, 1);
	ck_assert_int_eq(hi, 7);
	ck_assert_double_eq_tol(stats_median_ci_orders(9, 0.95, &lo, &hi), 0.9609375, 1e-12);
	ck_assert_int_eq(lo, 2);
	ck_assert_int_eq(hi, 8);
	ck_assert_double_eq_tol(stats_median_ci_orders(15, 0.95, &lo, &hi), 0.96484375, 1e-12);
	ck_assert_int_eq(lo, 4);
	ck_assert_int_eq(hi, 12);
	stats_median_ci_orders(20, 0.95, &lo, &hi);
	ck_assert_int_eq(lo, 6);
	ck_assert_int_eq(hi, 15);
	stats_median_ci_orders(30, 0.95, &lo, &hi);
	ck_assert_int_eq(lo, 10);
	ck_assert_int_eq(hi, 21);
	/* 15 samples in reverse order: interval is the 4th to the 12th smallest */
	for (int i = 0; i < 15; i++)
		y[i] = 150 - 10 * i;
	stats_summarize(y, 15, 0.95, &s);
	ck_assert_double_eq(s.median_lo, 40);
	ck_assert_double_eq(s.median_hi, 120);
}
END_TEST

START_TEST(test_mwu_exact)
{
	double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	double a5[] = { 1, 2, 3, 4, 5 }, b5[] = { 6, 7, 8, 9, 10 };
	double c[] = { 1, 3, 5 }, d[] = { 2, 4, 6, 8 };
	double e[] = { 1.1, 2.2, 3.3, 4.4 }, f[] = { 0.5, 2.5, 3.5, 5.5, 6.5 };
	double g[] = { 10, 20, 30, 40, 50, 60, 70 };
	double h[] = { 15, 25, 35, 45, 55, 65, 75, 85 };
	struct mwu_result r;

	ck_assert_double_eq_tol(stats_mann_whitney(a3, 3, b3, 3, &r), 0.1, 1e-12);
	ck_assert(r.exact);
	ck_assert_double_eq(r.u, 0);
	/* symmetric in the order of the samples */
	ck_assert_double_eq_tol(stats_mann_whitney(b3, 3, a3, 3, &r), 0.1, 1e-12);
	ck_assert_double_eq(r.u, 9);
	ck_assert_double_eq_tol(stats_mann_whitney(a5, 5, b5, 5, &r), 2.0 / 252, 1e-12);
	ck_assert_double_eq_tol(stats_mann_whitney(c, 3, d, 4, &r), 0.4, 1e-12);
	ck_assert_double_eq(r.u, 3);
	ck_assert_double_eq_tol(stats_mann_whitney(e, 4, f, 5, &r), 5.0 / 9, 1e-12);
	ck_assert_double_eq(r.u, 7);
	ck_assert_double_eq_tol(stats_mann_whitney(g, 7, h, 8, &r), 994.0 / 2145, 1e-12);
	ck_assert_double_eq(r.u, 21);
	/* an empty sample: no test */
	ck_assert_double_eq(stats_mann_whitney(a3, 3, b3, 0, &r), 1);
}
END_TEST

START_TEST(test_mwu_asymptotic)
{
	/* benchstat's tied case; by hand: U1 = 4, sigma^2 = 16/12 * (9 - 120/56) */
	double a[] = { 1, -1, -1, -1 }, b[] = { -1, 1, 1, 1 };
	double c[] = { 1, 2, 2, 3 }, d[] = { 2, 3, 4, 4, 5 };
	double x[30], y[30], same[] = { 7, 7, 7 };
	struct mwu_result r;

	ck_assert_double_eq_tol(stats_mann_whitney(a, 4, b, 4, &r), 0.24706152509165813, 1e-12);
	ck_assert(!r.exact);
	ck_assert_double_eq(r.u, 4);
	ck_assert_double_eq_tol(stats_mann_whitney(c, 4, d, 5, &r), 0.07854585095119071, 1e-12);
	ck_assert_double_eq(r.u, 2.5);
	/* no ties but too large for the exact count: U1 = 190 */
	for (int i = 0; i < 30; i++) {
		x[i] = i + 1;
		y[i] = i + 11.5;
	}
	ck_assert_double_eq_tol(stats_mann_whitney(x, 30, y, 30, &r), 0.0001247705378910613, 1e-12);
	ck_assert(!r.exact);
	ck_assert_double_eq(r.u, 190);
	ck_assert_double_eq(stats_mann_whitney(same, 3, same, 3, &r), 1);
	ck_assert(r.all_equal);
}
END_TEST

START_TEST(test_mwu_min)
{
	/* 2 / C(2n, n), and the n benchstat asks for at alpha 0.05 and 0.01 */
	ck_assert_double_eq_tol(stats_mwu_min_p(3), 0.1, 1e-15);
	ck_assert_double_eq_tol(stats_mwu_min_p(4), 0.02857142857142857, 1e-15);
	ck_assert_int_eq(stats_mwu_min_n(0.05), 4);
	ck_assert_int_eq(stats_mwu_min_n(0.01), 5);
	ck_assert_int_eq(stats_mwu_min_n(1), 1);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_basic);
	tcase_add_test(tc, test_geomean);
	tcase_add_test(tc, test_t_quantile);
	tcase_add_test(tc, test_mean_ci);
	tcase_add_test(tc, test_median_ci);
	tcase_add_test(tc, test_mwu_exact);
	tcase_add_test(tc, test_mwu_asymptotic);
	tcase_add_test(tc, test_mwu_min);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(stats_suite());
}
