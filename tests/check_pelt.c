/*
 * PELT in Linux 4.4's integer arithmetic (workloads/pelt.c): its tables
 * against their definition, decay and the sum of whole periods against
 * the real numbers they round, an average under random runnable and
 * sleeping spells against the same series summed in doubles unit by
 * unit, and 4.4's particular ways: nothing moves under 1024 ns, what an
 * update leaves below 1024 ns is lost, the average moves only when a
 * period ends; the tick's updates land on its multiples.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "tests/run_suite.h"
#include "workloads/pelt.h"

/* y = 2^(-1/32) */
static double y_pow(double n)
{
	return pow(0.5, n / PELT_HALFLIFE);
}

START_TEST(tables_follow_their_definition)
{
	uint32_t sum = 0;

	for (unsigned n = 0; n < PELT_HALFLIFE; n++)
		ck_assert_uint_eq(pelt_y_inv[n], (uint32_t)floor(4294967295.0 * y_pow(n)));
	ck_assert_uint_eq(pelt_y_sum[0], 0);
	for (unsigned n = 1; n <= PELT_HALFLIFE; n++) {
		sum = (uint32_t)(((uint64_t)(sum + 1024) * pelt_y_inv[1]) >> 32);
		ck_assert_uint_eq(pelt_y_sum[n], sum);
	}
}
END_TEST

/* LOAD_AVG_MAX is where a sum that decays one period and gains a full one stops growing. */
START_TEST(load_max_is_the_full_sum)
{
	uint64_t s = 0, last;

	do {
		last = s;
		s = pelt_decay_load(s, 1) + 1024;
	} while (s != last);
	ck_assert_uint_eq(s, PELT_LOAD_MAX);
	ck_assert_uint_eq(pelt_runnable_contrib(PELT_LOAD_MAX_N), PELT_LOAD_MAX);
	ck_assert_uint_eq(pelt_runnable_contrib(100000), PELT_LOAD_MAX);
}
END_TEST

START_TEST(decay_rounds_the_real_product_down)
{
	ck_assert_uint_eq(pelt_decay_load(12345, 0), 12345);
	ck_assert_uint_eq(pelt_decay_load(1u << 30, PELT_HALFLIFE * 63 + 1), 0);
	for (uint64_t n = 1; n < 40 * PELT_HALFLIFE; n += 7) {
		uint64_t v = (uint64_t)PELT_FULL * PELT_LOAD_MAX - 13 * n;
		double want = (double)v * y_pow((double)n);

		ck_assert_uint_le(pelt_decay_load(v, n), (uint64_t)want);
		ck_assert_uint_ge(pelt_decay_load(v, n) + 2, (uint64_t)want);
	}
}
END_TEST

/*
 * The sum of 1024 y^i over n whole periods, within the rounding of its
 * steps; from PELT_LOAD_MAX_N periods on it is PELT_LOAD_MAX, which also
 * counts i = 0 (4.4's bound, load_max_is_the_full_sum).
 */
START_TEST(whole_periods_sum_the_series)
{
	uint32_t prev = 0;

	for (uint64_t n = 1; n < PELT_LOAD_MAX_N; n++) {
		double want = 1024 * y_pow(1) * (1 - y_pow((double)n)) / (1 - y_pow(1));
		uint32_t got = pelt_runnable_contrib(n);

		ck_assert_uint_ge(got, prev);
		ck_assert_msg(fabs(got - want) < 0.002 * want + 2, "n=%llu: %u against %.1f",
			      (unsigned long long)n, got, want);
		prev = got;
	}
}
END_TEST

/*
 * Random spells, updates on whole 1024 ns units: load_avg after each update
 * that ends a period is the series sum_k (runnable units of period k) y^age(k)
 * over PELT_LOAD_MAX, age 0 for the period running, summed in doubles unit
 * by unit, within the integer rounding.
 */
START_TEST(average_follows_the_series_it_rounds)
{
	struct pelt_avg a = { 0, 0, 0, 0 };
	double done = 0, cur = 0;  /* the ended periods' sum (decayed to the running period), the running period's */
	uint64_t unit = 0;
	unsigned seed = 36;
	int crossings = 0;

	for (int spell = 0; spell < 3000; spell++) {
		bool on = rand_r(&seed) % 2;
		uint64_t len = 1 + rand_r(&seed) % (rand_r(&seed) % 4 ? 700 : 40000);

		for (uint64_t i = 0; i < len; i++) {
			cur += on ? 1024 : 0;
			if (++unit % 1024 == 0) {
				done = (done + cur) * y_pow(1);
				cur = 0;
			}
		}
		if (pelt_update(&a, (stime_t)(unit << 10), on)) {
			double want = (done + cur) / PELT_LOAD_MAX;

			crossings++;
			ck_assert_msg(a.load_avg <= want + 1e-9 && a.load_avg + 3 >= want,
				      "spell %d: %u against %.3f", spell, a.load_avg, want);
		}
		ck_assert_uint_eq(a.period_contrib, unit % 1024);
	}
	ck_assert_int_gt(crossings, 1000);
}
END_TEST

START_TEST(under_a_unit_nothing_moves)
{
	struct pelt_avg a;

	pelt_init(&a, 5000);
	ck_assert(!pelt_update(&a, 5000 + 1023, true));
	ck_assert_int_eq(a.last_update, 5000);
	ck_assert_uint_eq(a.period_contrib, 1023);
	ck_assert_uint_eq(a.load_sum, (uint64_t)PELT_FULL * PELT_LOAD_MAX);
}
END_TEST

/* 4.4 sets last_update_time to now: the part of a unit an update leaves is lost. */
START_TEST(an_update_drops_what_is_left_of_a_unit)
{
	struct pelt_avg a = { 0, 0, 0, 0 };

	pelt_update(&a, 1900, true);
	pelt_update(&a, 3800, true);
	ck_assert_uint_eq(a.period_contrib, 2);     /* 3800 ns whole would be 3 units */
	ck_assert_uint_eq(a.load_sum, 2 * 1024);
	ck_assert_int_eq(a.last_update, 3800);
}
END_TEST

START_TEST(average_moves_only_when_a_period_ends)
{
	struct pelt_avg a = { 0, 0, 0, 0 };

	ck_assert(!pelt_update(&a, 1023 << 10, true));
	ck_assert_uint_eq(a.load_avg, 0);
	ck_assert_uint_gt(a.load_sum, 0);
	ck_assert(pelt_update(&a, 1025 << 10, true));
	ck_assert_uint_eq(a.load_avg, (uint32_t)(a.load_sum / PELT_LOAD_MAX));
	ck_assert_uint_gt(a.load_avg, 0);
}
END_TEST

/* The tick's updates land on its multiples whenever they are made. */
START_TEST(tick_updates_do_not_depend_on_when_they_are_made)
{
	struct pelt_avg a, b;
	const stime_t tick = MSEC(4);
	unsigned seed = 7;

	pelt_init(&a, USEC(1234));
	pelt_update(&a, USEC(2500), false);
	b = a;
	for (stime_t t = USEC(2500); t < MSEC(900); t += rand_r(&seed) % USEC(9000))
		pelt_tick_updates(&a, t, tick);
	pelt_tick_updates(&a, MSEC(900), tick);
	pelt_tick_updates(&b, MSEC(900), tick);
	ck_assert_int_eq(a.last_update, MSEC(900));   /* a multiple of the tick */
	ck_assert_int_eq(b.last_update, a.last_update);
	ck_assert_uint_eq(b.load_sum, a.load_sum);
	ck_assert_uint_eq(b.period_contrib, a.period_contrib);
	ck_assert_uint_eq(b.load_avg, a.load_avg);
	/* no tick passed: nothing changes */
	pelt_tick_updates(&a, MSEC(900) + tick - 1, tick);
	ck_assert_int_eq(a.last_update, MSEC(900));
}
END_TEST

/* The tick's updates are pelt_update at each multiple of the tick, for any tick. */
START_TEST(tick_updates_are_updates_at_each_tick)
{
	static const stime_t ticks[] = { 1000, 100000, MSEC(1), MSEC(4), MSEC(10), MSEC(31), MSEC(40) };

	for (unsigned i = 0; i < sizeof(ticks) / sizeof(ticks[0]); i++) {
		stime_t tick = ticks[i], end = 3000 * tick + 77;
		struct pelt_avg a, b;

		pelt_init(&a, 12345);
		pelt_update(&a, 12345 + 5 * tick / 3, false);
		b = a;
		pelt_tick_updates(&a, end, tick);
		for (stime_t t = (b.last_update / tick + 1) * tick; t <= end; t += tick)
			pelt_update(&b, t, true);
		ck_assert_int_eq(a.last_update, b.last_update);
		ck_assert_uint_eq(a.load_sum, b.load_sum);
		ck_assert_uint_eq(a.period_contrib, b.period_contrib);
		ck_assert_uint_eq(a.load_avg, b.load_avg);
	}
}
END_TEST

/* A new task (full load) asleep for 32 periods has half its load; one always runnable keeps nearly all. */
START_TEST(half_life_and_full_load)
{
	struct pelt_avg a;
	uint32_t start;

	pelt_init(&a, 0);
	pelt_update(&a, 1024, false);   /* ends the period init left open: one period's decay */
	start = a.load_avg;
	ck_assert_uint_eq(start, (uint32_t)(PELT_FULL * pow(0.5, 1.0 / 32)));
	pelt_update(&a, 1024 + (stime_t)32 * 1024 * 1024, false);
	ck_assert_uint_ge(a.load_avg, start / 2 - 1);
	ck_assert_uint_le(a.load_avg, start / 2);
	pelt_init(&a, 0);
	for (stime_t t = USEC(100); t <= SEC(1); t += USEC(100))
		pelt_update(&a, t, true);
	/* the ended periods weigh 1024 y / (1 - y) of PELT_LOAD_MAX's 1024 / (1 - y), and the running one adds its start */
	ck_assert_uint_ge(a.load_avg, 1000);
	ck_assert_uint_le(a.load_avg, PELT_FULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pelt");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, tables_follow_their_definition);
	tcase_add_test(tc, load_max_is_the_full_sum);
	tcase_add_test(tc, decay_rounds_the_real_product_down);
	tcase_add_test(tc, whole_periods_sum_the_series);
	tcase_add_test(tc, average_follows_the_series_it_rounds);
	tcase_add_test(tc, under_a_unit_nothing_moves);
	tcase_add_test(tc, an_update_drops_what_is_left_of_a_unit);
	tcase_add_test(tc, average_moves_only_when_a_period_ends);
	tcase_add_test(tc, tick_updates_do_not_depend_on_when_they_are_made);
	tcase_add_test(tc, tick_updates_are_updates_at_each_tick);
	tcase_add_test(tc, half_life_and_full_load);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
