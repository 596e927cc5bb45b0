/*
 * Parameter parsers and random distributions.  Expected values are worked
 * out by hand (1.5ms = 1,500,000 ns; INT64_MAX ns = 9223372036.854775807 s)
 * and the expected messages are the exact text a user sees, so a change in
 * wording must be deliberate.  Distribution checks draw 100,000 values and
 * compare the sample mean with the analytic mean (2 %) and one shape figure
 * each (P(X > mean) = 1/e for the exponential, P(X < mean) = Phi(sigma/2)
 * for the log-normal), so a wrong mu or a wrong scale both fail.
 */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "sim/engine/dist.h"
#include "sim/engine/rng.h"
#include "sim/params.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- durations ---- */

/* key=value:key=value text whose values hold ':' (--host, --workload settings). */
START_TEST(test_settings_value_end)
{
	const char *t = "cstates=C1:1us:C3:20us:max-cstate=1";

	ck_assert(params_starts_key("max-cstate=1"));
	ck_assert(params_starts_key("a_1=x"));
	ck_assert(!params_starts_key("C3:20us"));
	ck_assert(!params_starts_key("1us"));
	ck_assert(!params_starts_key("key"));
	ck_assert(!params_starts_key(""));
	ck_assert_str_eq(params_value_end(t + 8), ":max-cstate=1");
	ck_assert_str_eq(params_value_end(strchr(t + 9, 'm') + 11), "");
	ck_assert_str_eq(params_value_end("4M:window=1M"), ":window=1M");
}
END_TEST

/* The settings split as --host and --workload take them. */
START_TEST(test_split_settings)
{
	struct kvlist kv = { 0 };

	ck_assert_ptr_null(params_split_settings("cstates=C1:1us:C3:20us:max-cstate=1:x=", &kv));
	ck_assert_int_eq(kv.n, 3);
	ck_assert_str_eq(kv.v[0].key, "cstates");
	ck_assert_str_eq(kv.v[0].value, "C1:1us:C3:20us");
	ck_assert_str_eq(kv.v[1].key, "max-cstate");
	ck_assert_str_eq(kv.v[1].value, "1");
	ck_assert_str_eq(kv.v[2].key, "x");
	ck_assert_str_eq(kv.v[2].value, "");
	ck_assert_int_eq(kv.v[2].line, 0);
	kvlist_free(&kv);
	ck_assert_ptr_null(params_split_settings("", &kv));
	ck_assert_int_eq(kv.n, 0);
	/* a value runs to the next ':' that starts a key=, so only the start can be wrong */
	ck_assert_ptr_null(params_split_settings("a=1:B=2::c=3", &kv));
	ck_assert_int_eq(kv.n, 2);
	ck_assert_str_eq(kv.v[0].value, "1:B=2:");
	ck_assert_str_eq(kv.v[1].value, "3");
	kvlist_free(&kv);
	ck_assert_str_eq(params_split_settings("B=2:c=3", &kv), "B=2:c=3");
	ck_assert_int_eq(kv.n, 0);
	ck_assert_str_eq(params_split_settings("time", &kv), "time");
	ck_assert_int_eq(kv.n, 0);
}
END_TEST

START_TEST(test_duration_good)
{
	static const struct { const char *s; stime_t ns; } tab[] = {
		{ "0", 0 }, { "100", 100 }, { "100ns", 100 }, { "1us", 1000 },
		{ "1.5ms", 1500000 }, { "10s", 10000000000LL }, { "1.5us", 1500 },
		{ "0.000000001s", 1 }, { "2.50ms", 2500000 }, { "007ms", 7000000 },
		{ "1.000000000s", 1000000000 }, { "0.25s", 250000000 },
		{ "9223372036854775807", INT64_MAX }, { "9223372036854775807ns", INT64_MAX },
		{ "9223372036.854775807s", INT64_MAX }, { "9223372036854775.807us", INT64_MAX },
	};
	struct err e;

	for (int i = 0; i < N(tab); i++) {
		stime_t t = -1;

		ck_assert_msg(parse_duration(tab[i].s, &t, &e) == 0, "%s: %s", tab[i].s, e.msg);
		ck_assert_msg(t == tab[i].ns, "%s gave %lld", tab[i].s, (long long)t);
	}
}
END_TEST

START_TEST(test_duration_bad)
{
	static const struct { const char *s, *msg; } tab[] = {
		{ "", "empty duration (expected a number and a unit: ns, us, ms or s)" },
		{ "-5ms", "'-5ms': a duration cannot be negative" },
		{ "5min", "'5min': unknown unit 'min' (valid units: ns, us, ms, s)" },
		{ "5MS", "'5MS': unknown unit 'MS' (valid units: ns, us, ms, s)" },
		{ "5msx", "'5msx': unknown unit 'msx' (valid units: ns, us, ms, s)" },
		{ "5ms ", "'5ms ' is not a duration: unexpected 'ms ' after the number (valid units: ns, us, ms, s)" },
		{ "1.2.3ms", "'1.2.3ms' is not a duration: unexpected '.3ms' after the number (valid units: ns, us, ms, s)" },
		{ "1,5ms", "'1,5ms' is not a duration: unexpected ',5ms' after the number (valid units: ns, us, ms, s)" },
		{ "1.ms", "'1.ms' is not a duration: no digits after the decimal point" },
		{ "ms", "'ms' is not a duration (expected a number and a unit, e.g. 1.5ms; valid units: ns, us, ms, s)" },
		{ " 5ms", "' 5ms' is not a duration (expected a number and a unit, e.g. 1.5ms; valid units: ns, us, ms, s)" },
		{ "+5ms", "'+5ms' is not a duration (expected a number and a unit, e.g. 1.5ms; valid units: ns, us, ms, s)" },
		{ ".5ms", "'.5ms' is not a duration (expected a number and a unit, e.g. 1.5ms; valid units: ns, us, ms, s)" },
		{ "0.5ns", "'0.5ns' is finer than one nanosecond" },
		{ "1.5", "'1.5' is finer than one nanosecond" },
		{ "1.0000000001s", "'1.0000000001s' is finer than one nanosecond" },
		{ "9223372036854775808", "'9223372036854775808' is too large (the limit is 9223372036854775807ns, about 292 years)" },
		{ "9223372036.854775808s", "'9223372036.854775808s' is too large (the limit is 9223372036854775807ns, about 292 years)" },
		{ "9223372037s", "'9223372037s' is too large (the limit is 9223372036854775807ns, about 292 years)" },
		{ "99999999999999999999999999s", "'99999999999999999999999999s' is too large (the limit is 9223372036854775807ns, about 292 years)" },
	};

	for (int i = 0; i < N(tab); i++) {
		struct err e = { "" };
		stime_t t = 42;

		ck_assert_int_eq(parse_duration(tab[i].s, &t, &e), -1);
		ck_assert_str_eq(e.msg, tab[i].msg);
		ck_assert_int_eq(t, 42);
	}
}
END_TEST

/* "1e3ms": the unit is what follows the digits, "e3ms" is not all letters. */
START_TEST(test_duration_exponent)
{
	struct err e;
	stime_t t;

	ck_assert_int_eq(parse_duration("1e3ms", &t, &e), -1);
	ck_assert_str_eq(e.msg, "'1e3ms' is not a duration: unexpected 'e3ms' after the number (valid units: ns, us, ms, s)");
}
END_TEST

START_TEST(test_format_duration)
{
	static const struct { stime_t t; const char *s; } tab[] = {
		{ 0, "0s" }, { 1, "1ns" }, { 1500, "1500ns" }, { MSEC(30), "30ms" },
		{ USEC(1500), "1500us" }, { SEC(10), "10s" }, { MSEC(2500), "2500ms" },
		{ -MSEC(3), "-3ms" }, { INT64_MAX, "9223372036854775807ns" },
	};
	char buf[32];
	struct err e;

	for (int i = 0; i < N(tab); i++) {
		stime_t back;

		ck_assert_str_eq(format_duration(tab[i].t, buf, sizeof(buf)), tab[i].s);
		if (tab[i].t >= 0) {
			ck_assert_int_eq(parse_duration(buf, &back, &e), 0);
			ck_assert(back == tab[i].t);
		}
	}
}
END_TEST

/* ---- integers and booleans ---- */

START_TEST(test_int)
{
	static const struct { const char *s; long long min, max; const char *msg; } bad[] = {
		{ "", 0, 10, "empty value (expected an integer)" },
		{ "4x", 0, 10, "'4x' is not an integer" },
		{ "0x10", 0, 100, "'0x10' is not an integer" },
		{ "+5", 0, 10, "'+5' is not an integer" },
		{ " 5", 0, 10, "' 5' is not an integer" },
		{ "-", 0, 10, "'-' is not an integer" },
		{ "1.0", 0, 10, "'1.0' is not an integer" },
		{ "11", 0, 10, "'11' is out of range 0..10" },
		{ "-1", 0, 10, "'-1' is out of range 0..10" },
		{ "9223372036854775808", LLONG_MIN, LLONG_MAX,
		  "'9223372036854775808' is out of range -9223372036854775808..9223372036854775807" },
	};
	struct err e;
	long long v;

	ck_assert_int_eq(parse_int("42", 0, 100, &v, &e), 0);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(parse_int("-7", -10, 10, &v, &e), 0);
	ck_assert_int_eq(v, -7);
	ck_assert_int_eq(parse_int("10", 0, 10, &v, &e), 0);
	ck_assert_int_eq(v, 10);
	ck_assert_int_eq(parse_int("-9223372036854775808", LLONG_MIN, LLONG_MAX, &v, &e), 0);
	ck_assert(v == LLONG_MIN);
	for (int i = 0; i < N(bad); i++) {
		v = 99;
		ck_assert_int_eq(parse_int(bad[i].s, bad[i].min, bad[i].max, &v, &e), -1);
		ck_assert_str_eq(e.msg, bad[i].msg);
		ck_assert_int_eq(v, 99);
	}
}
END_TEST

START_TEST(test_bool)
{
	static const char *const yes[] = { "on", "true", "1", "yes", "ON", "True" };
	static const char *const no[] = { "off", "false", "0", "no", "OFF", "No" };
	struct err e;
	bool b;

	for (int i = 0; i < N(yes); i++) {
		b = false;
		ck_assert_int_eq(parse_bool(yes[i], &b, &e), 0);
		ck_assert(b);
		ck_assert_int_eq(parse_bool(no[i], &b, &e), 0);
		ck_assert(!b);
	}
	ck_assert_int_eq(parse_bool("ture", &b, &e), -1);
	ck_assert_str_eq(e.msg, "'ture' is not a boolean (valid: on|off|true|false|1|0|yes|no)");
	ck_assert_int_eq(parse_bool("", &b, &e), -1);
	ck_assert_str_eq(e.msg, "'' is not a boolean (valid: on|off|true|false|1|0|yes|no)");
	ck_assert_int_eq(parse_bool("2", &b, &e), -1);
}
END_TEST

/* ---- sizes ---- */

START_TEST(test_size)
{
	static const struct { const char *s; long long bytes; } good[] = {
		{ "0", 0 }, { "4096", 4096 }, { "512B", 512 }, { "256KiB", 262144 },
		{ "256K", 262144 }, { "8MiB", 8388608 }, { "6GiB", 6442450944LL },
		{ "1T", 1LL << 40 }, { "9223372036854775807", LLONG_MAX },
	};
	static const struct { const char *s, *msg; } bad[] = {
		{ "", "empty size (expected a number of bytes, e.g. 8MiB)" },
		{ "-1KiB", "'-1KiB': a size cannot be negative" },
		{ "8MB", "'8MB': unknown unit 'MB' (valid units: B, KiB, MiB, GiB, TiB (or K, M, G, T))" },
		{ "1.5MiB", "'1.5MiB': unknown unit '.5MiB' (valid units: B, KiB, MiB, GiB, TiB (or K, M, G, T))" },
		{ "lots", "'lots' is not a size (expected a whole number and a unit, e.g. 256KiB; valid units: B, KiB, MiB, GiB, TiB (or K, M, G, T))" },
		{ "9223372036854775808", "'9223372036854775808' is too large" },
		{ "8388608TiB", "'8388608TiB' is too large" },
	};
	static const struct { long long bytes; const char *s; } fmt[] = {
		{ 0, "0B" }, { 1000, "1000B" }, { 262144, "256KiB" }, { 1572864, "1536KiB" },
		{ 8388608, "8MiB" }, { 6442450944LL, "6GiB" },
	};
	static const struct param_def d = { "llc", PARAM_SIZE, "8MiB", NULL, 1024, 1 << 30,
					    "cache", 0 };
	struct err e;
	char buf[32];
	long long v;

	for (int i = 0; i < N(good); i++) {
		v = -1;
		ck_assert_msg(parse_size(good[i].s, &v, &e) == 0, "%s: %s", good[i].s, e.msg);
		ck_assert_msg(v == good[i].bytes, "%s: %lld", good[i].s, v);
	}
	for (int i = 0; i < N(bad); i++) {
		ck_assert_msg(parse_size(bad[i].s, &v, &e) == -1, "%s accepted", bad[i].s);
		ck_assert_str_eq(e.msg, bad[i].msg);
	}
	for (int i = 0; i < N(fmt); i++)
		ck_assert_str_eq(format_size(fmt[i].bytes, buf, sizeof(buf)), fmt[i].s);
	/* As a parameter: the range is checked and named in binary units. */
	ck_assert_int_eq(param_set(&d, &v, "4KiB", &e), 0);
	ck_assert(v == 4096);
	ck_assert_int_eq(param_set(&d, &v, "2GiB", &e), -1);
	ck_assert_str_eq(e.msg, "'2GiB' is out of range 1KiB..1GiB");
}
END_TEST

/* ---- params_apply ---- */

struct cfg {
	long long tslice;
	bool migrate;
	int runqueue;
	stime_t ratelimit;
	double load_scale;
	char label[PARAM_STRING_MAX];
	long long unbounded;
};

static const struct param_def defs[] = {
	{ "tslice_ms", PARAM_INT, "30", NULL, 1, 1000, "time slice", offsetof(struct cfg, tslice) },
	{ "migrate", PARAM_BOOL, "on", NULL, 0, 0, "allow migrations", offsetof(struct cfg, migrate) },
	{ "runqueue", PARAM_ENUM, "socket", "cpu|core|socket|node|all", 0, 0, "runqueue arrangement",
	  offsetof(struct cfg, runqueue) },
	{ "ratelimit", PARAM_DURATION, "1ms", NULL, 0, 1e9, "minimum run time",
	  offsetof(struct cfg, ratelimit) },
	{ "load_scale", PARAM_DOUBLE, "0.5", NULL, 0, 1, "load weight", offsetof(struct cfg, load_scale) },
	{ "label", PARAM_STRING, "x", NULL, 0, 0, "a label", offsetof(struct cfg, label) },
	{ "unbounded", PARAM_INT, "-3", NULL, 0, 0, "any integer", offsetof(struct cfg, unbounded) },
	{ NULL },
};

START_TEST(test_apply_defaults)
{
	struct cfg c;
	struct err e;

	memset(&c, 0xff, sizeof(c));
	ck_assert_int_eq(params_apply(defs, &c, NULL, "credit9", &e), 0);
	ck_assert_int_eq(c.tslice, 30);
	ck_assert(c.migrate);
	ck_assert_int_eq(c.runqueue, 2);
	ck_assert(c.ratelimit == MSEC(1));
	ck_assert_double_eq(c.load_scale, 0.5);
	ck_assert_str_eq(c.label, "x");
	ck_assert_int_eq(c.unbounded, -3);
}
END_TEST

START_TEST(test_apply_values)
{
	struct kvlist kv = { 0 };
	struct cfg c;
	struct err e;
	int line = -1;

	kvlist_add(&kv, "runqueue", "core", 3);
	kvlist_add(&kv, "tslice_ms", "1000", 4);
	kvlist_add(&kv, "migrate", "no", 5);
	kvlist_add(&kv, "ratelimit", "0", 6);
	kvlist_add(&kv, "load_scale", "1", 7);
	kvlist_add(&kv, "label", "hello world", 8);
	kvlist_add(&kv, "unbounded", "-9223372036854775808", 9);
	ck_assert_int_eq(params_apply_at(defs, &c, &kv, "credit9", &line, &e), 0);
	ck_assert_int_eq(line, 0);
	ck_assert_int_eq(c.runqueue, 1);
	ck_assert_int_eq(c.tslice, 1000);
	ck_assert(!c.migrate);
	ck_assert(c.ratelimit == 0);
	ck_assert_double_eq(c.load_scale, 1.0);
	ck_assert_str_eq(c.label, "hello world");
	ck_assert(c.unbounded == LLONG_MIN);
	ck_assert_str_eq(kvlist_get(&kv, "label"), "hello world");
	ck_assert_ptr_eq(params_find(defs, "runqueue"), &defs[2]);
	ck_assert_ptr_null(params_find(defs, "nope"));
	ck_assert_ptr_null(kvlist_get(&kv, "nope"));
	kvlist_free(&kv);
	ck_assert_int_eq(kv.n, 0);
}
END_TEST

START_TEST(test_apply_errors)
{
	static const struct { const char *key, *value, *msg; } tab[] = {
		{ "tslice", "5", "credit9: unknown parameter 'tslice' (valid: tslice_ms, migrate, runqueue, ratelimit, load_scale, label, unbounded)" },
		{ "runqueue", "numa", "credit9: runqueue: 'numa' is not one of cpu|core|socket|node|all" },
		{ "runqueue", "", "credit9: runqueue: '' is not one of cpu|core|socket|node|all" },
		{ "runqueue", "cor", "credit9: runqueue: 'cor' is not one of cpu|core|socket|node|all" },
		{ "tslice_ms", "0", "credit9: tslice_ms: '0' is out of range 1..1000" },
		{ "tslice_ms", "1001", "credit9: tslice_ms: '1001' is out of range 1..1000" },
		{ "tslice_ms", "ten", "credit9: tslice_ms: 'ten' is not an integer" },
		{ "migrate", "maybe", "credit9: migrate: 'maybe' is not a boolean (valid: on|off|true|false|1|0|yes|no)" },
		{ "ratelimit", "2s", "credit9: ratelimit: '2s' is out of range 0s..1s" },
		{ "ratelimit", "5parsecs", "credit9: ratelimit: '5parsecs': unknown unit 'parsecs' (valid units: ns, us, ms, s)" },
		{ "ratelimit", "-1ms", "credit9: ratelimit: '-1ms': a duration cannot be negative" },
		{ "load_scale", "1.5", "credit9: load_scale: '1.5' is out of range 0..1" },
		{ "load_scale", "nan", "credit9: load_scale: 'nan' is not a number" },
		{ "load_scale", "0.5x", "credit9: load_scale: '0.5x' is not a number" },
		{ "unbounded", "99999999999999999999", "credit9: unbounded: '99999999999999999999' is out of range -9223372036854775808..9223372036854775807" },
	};

	for (int i = 0; i < N(tab); i++) {
		struct kvlist kv = { 0 };
		struct cfg c;
		struct err e = { "" };
		int line = -1;

		kvlist_add(&kv, "tslice_ms", "7", 10);
		kvlist_add(&kv, tab[i].key, tab[i].value, 11);
		ck_assert_int_eq(params_apply_at(defs, &c, &kv, "credit9", &line, &e), -1);
		ck_assert_str_eq(e.msg, tab[i].msg);
		ck_assert_int_eq(line, 11);
		ck_assert_int_eq(params_apply(defs, &c, &kv, "credit9", &e), -1);
		ck_assert_str_eq(e.msg, tab[i].msg);
		kvlist_free(&kv);
	}
}
END_TEST

/*
 * The list of valid names in a message: whole, from two tables, and where
 * it does not fit, cut at a whole name with how many are left (credit2's
 * message used to end ", )" where the 33rd name did not fit).
 */
START_TEST(test_names)
{
	static const struct param_def one[] = {
		{ "alpha", PARAM_BOOL, "off", NULL, 0, 0, "", 0 },
		{ "beta", PARAM_BOOL, "off", NULL, 0, 0, "", 0 },
		{ "gamma", PARAM_BOOL, "off", NULL, 0, 0, "", 0 },
		{ NULL },
	};
	static const struct param_def two[] = {
		{ "delta", PARAM_BOOL, "off", NULL, 0, 0, "", 0 },
		{ NULL },
	};
	static const struct param_def none[] = { { NULL } };
	char buf[64], small[40], tiny[28];

	params_names(one, NULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "alpha, beta, gamma");
	params_names(one, two, buf, sizeof(buf));
	ck_assert_str_eq(buf, "alpha, beta, gamma, delta");
	params_names(none, two, buf, sizeof(buf));
	ck_assert_str_eq(buf, "delta");
	params_names(NULL, NULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	/* 40 bytes keep 15 for names: alpha and beta, then two are left */
	params_names(one, two, small, sizeof(small));
	ck_assert_str_eq(small, "alpha, beta ... and 2 more");
	params_names(one, two, tiny, sizeof(tiny));
	ck_assert_str_eq(tiny, "... and 4 more");
}
END_TEST

START_TEST(test_apply_misc)
{
	static const struct param_def none[] = { { NULL } };
	static const struct param_def bad_default[] = {
		{ "mode", PARAM_ENUM, "fast", "slow|safe", 0, 0, "", 0 },
		{ NULL },
	};
	struct kvlist kv = { 0 };
	char big[PARAM_STRING_MAX + 1];
	struct cfg c;
	struct err e;
	int mode;

	kvlist_add(&kv, "x", "1", 0);
	ck_assert_int_eq(params_apply(none, &c, &kv, "null", &e), -1);
	ck_assert_str_eq(e.msg, "null: unknown parameter 'x' (null takes no parameters)");
	ck_assert_int_eq(params_apply(NULL, &c, &kv, "null", &e), -1);
	ck_assert_str_eq(e.msg, "null: unknown parameter 'x' (null takes no parameters)");
	ck_assert_int_eq(params_apply(none, &c, NULL, "null", &e), 0);
	kvlist_free(&kv);

	ck_assert_int_eq(params_apply(bad_default, &mode, NULL, "w", &e), -1);
	ck_assert_str_eq(e.msg, "w: bad default for mode: 'fast' is not one of slow|safe");

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	kvlist_add(&kv, "label", big, 2);
	ck_assert_int_eq(params_apply(defs, &c, &kv, "credit9", &e), -1);
	ck_assert_str_eq(e.msg, "credit9: label: value too long (at most 255 characters)");
	kvlist_free(&kv);
	/* the last value of a key wins, as on a command line */
	kvlist_add(&kv, "tslice_ms", "5", 0);
	kvlist_add(&kv, "tslice_ms", "6", 0);
	ck_assert_int_eq(params_apply(defs, &c, &kv, "credit9", &e), 0);
	ck_assert_int_eq(c.tslice, 6);
	kvlist_free(&kv);
}
END_TEST

START_TEST(test_kvlist_copy)
{
	struct kvlist a = { 0 }, b;

	kvlist_add(&a, "k1", "v1", 4);
	kvlist_add(&a, "k2", "v2", 5);
	kvlist_copy(&b, &a);
	kvlist_free(&a);
	ck_assert_int_eq(b.n, 2);
	ck_assert_str_eq(b.v[0].key, "k1");
	ck_assert_str_eq(b.v[1].value, "v2");
	ck_assert_int_eq(b.v[1].line, 5);
	kvlist_free(&b);
}
END_TEST

START_TEST(test_describe)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	params_describe(f, defs, "  ");
	fclose(f);
	ck_assert_str_eq(text,
		"  tslice_ms          integer 1..1000            default 30       time slice\n"
		"  migrate            on|off                     default on       allow migrations\n"
		"  runqueue           cpu|core|socket|node|all   default socket   runqueue arrangement\n"
		"  ratelimit          duration 0s..1s            default 1ms      minimum run time\n"
		"  load_scale         number 0..1                default 0.5      load weight\n"
		"  label              string                     default x        a label\n"
		"  unbounded          integer                    default -3       any integer\n");
	free(text);
}
END_TEST

/* ---- scheduler specs ---- */

START_TEST(test_spec_good)
{
	struct sched_spec s;
	struct err e;

	ck_assert_int_eq(sched_spec_parse("credit2:runqueue=core:ratelimit_us=0", &s, &e), 0);
	ck_assert_str_eq(s.name, "credit2");
	ck_assert_str_eq(s.text, "credit2:runqueue=core:ratelimit_us=0");
	ck_assert_int_eq(s.params.n, 2);
	ck_assert_str_eq(s.params.v[0].key, "runqueue");
	ck_assert_str_eq(s.params.v[0].value, "core");
	ck_assert_int_eq(s.params.v[0].line, 0);
	ck_assert_str_eq(s.params.v[1].key, "ratelimit_us");
	ck_assert_str_eq(s.params.v[1].value, "0");
	sched_spec_free(&s);

	ck_assert_int_eq(sched_spec_parse("null", &s, &e), 0);
	ck_assert_str_eq(s.name, "null");
	ck_assert_int_eq(s.params.n, 0);
	sched_spec_free(&s);

	/* values may hold '=' (only the first one splits) */
	ck_assert_int_eq(sched_spec_parse("x:label=a=b", &s, &e), 0);
	ck_assert_str_eq(s.params.v[0].value, "a=b");
	sched_spec_free(&s);

	/* a shim module names its Xen tree after '@' */
	ck_assert_int_eq(sched_spec_parse("xen-credit2@2017-08-credit2-p20:runqueue=core", &s, &e), 0);
	ck_assert_str_eq(s.name, "xen-credit2@2017-08-credit2-p20");
	ck_assert_str_eq(s.params.v[0].key, "runqueue");
	sched_spec_free(&s);
}
END_TEST

/* A module's file as the name (schedulers/loader.h): any printable path, longer than a name. */
START_TEST(test_spec_module)
{
	static const char *const bad[] = { "./a b.so", "./a=b.so", "./{a}.so", "dir/a,b" };
	char path[200];
	struct sched_spec s;
	struct err e = { "" };

	ck_assert_int_eq(sched_spec_parse("./rr.so:slice=30ms", &s, &e), 0);
	ck_assert_str_eq(s.name, "./rr.so");
	ck_assert_str_eq(s.params.v[0].key, "slice");
	sched_spec_free(&s);
	ck_assert_int_eq(sched_spec_parse("rr.so", &s, &e), 0);
	sched_spec_free(&s);
	memset(path, 'a', sizeof(path) - 4);
	memcpy(path + sizeof(path) - 4, ".so", 4);
	ck_assert_int_eq(sched_spec_parse(path, &s, &e), 0);
	ck_assert_str_eq(s.name, path);
	sched_spec_free(&s);
	for (int i = 0; i < N(bad); i++)
		ck_assert_int_eq(sched_spec_parse(bad[i], &s, &e), -1);
	ck_assert(sched_name_is_file("x/y", 3) && sched_name_is_file("y.so", 4));
	ck_assert(!sched_name_is_file("credit2", 7) && !sched_name_is_file(".so", 3));
}
END_TEST

START_TEST(test_spec_bad)
{
	static const struct { const char *s, *msg; } tab[] = {
		{ "", "empty scheduler spec (expected name[:key=value...])" },
		{ ":a=1", "bad scheduler spec ':a=1': empty scheduler name" },
		{ "credit2:", "bad scheduler spec 'credit2:': empty parameter (expected name:key=value:...)" },
		{ "credit2::a=1", "bad scheduler spec 'credit2::a=1': empty parameter (expected name:key=value:...)" },
		{ "credit2:runqueue", "bad scheduler spec 'credit2:runqueue': missing '=' in 'runqueue' (expected key=value)" },
		{ "credit2:=core", "bad scheduler spec 'credit2:=core': empty key in '=core'" },
		{ "credit2:runqueue=", "bad scheduler spec 'credit2:runqueue=': empty value for 'runqueue'" },
		{ "credit2:a=1:b=2:a=3", "bad scheduler spec 'credit2:a=1:b=2:a=3': duplicate parameter 'a'" },
		{ "cred it2", "bad scheduler spec 'cred it2': bad scheduler name 'cred it2'" },
		{ "credit2:ru n=1", "bad scheduler spec 'credit2:ru n=1': bad key 'ru n' (letters, digits, '_', '-', '.')" },
		{ "credit2,credit1", "bad scheduler spec 'credit2,credit1': bad scheduler name 'credit2,credit1'" },
		{ "xen-credit2@", "bad scheduler spec 'xen-credit2@': bad scheduler name 'xen-credit2@'" },
		{ "@4.17.5", "bad scheduler spec '@4.17.5': bad scheduler name '@4.17.5'" },
		{ "a@b@c", "bad scheduler spec 'a@b@c': bad scheduler name 'a@b@c'" },
		{ "credit2:era@=1", "bad scheduler spec 'credit2:era@=1': bad key 'era@' (letters, digits, '_', '-', '.')" },
		{ "a234567890123456789012345678901234567890123456789012345678901234",
		  "bad scheduler spec 'a234567890123456789012345678901234567890123456789012345678901234': scheduler name too long" },
	};

	for (int i = 0; i < N(tab); i++) {
		struct sched_spec s;
		struct err e = { "" };

		ck_assert_int_eq(sched_spec_parse(tab[i].s, &s, &e), -1);
		ck_assert_str_eq(e.msg, tab[i].msg);
		ck_assert_int_eq(s.params.n, 0);
		ck_assert_ptr_null(s.params.v);
	}
}
END_TEST

START_TEST(test_spec_long)
{
	char buf[600];
	struct sched_spec s;
	struct err e;

	memset(buf, 'a', sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = '\0';
	ck_assert_int_eq(sched_spec_parse(buf, &s, &e), -1);
	ck_assert_str_eq(e.msg, "scheduler spec too long (at most 511 characters)");
	/* a key of 300 characters fits the spec but not a parameter */
	memcpy(buf, "x:", 2);
	buf[302] = '=';
	buf[303] = '1';
	buf[304] = '\0';
	ck_assert_int_eq(sched_spec_parse(buf, &s, &e), -1);
	ck_assert(strstr(e.msg, "': key or value too long (at most 255 characters)") != NULL);
	ck_assert_int_eq(strncmp(e.msg, "bad scheduler spec 'x:aaa", 25), 0);
}
END_TEST

/* ---- distributions ---- */

START_TEST(test_dist_parse)
{
	struct dist d;
	struct err e;

	ck_assert_int_eq(dist_parse("2ms", &d, &e), 0);
	ck_assert(d.kind == DIST_CONST && d.a == MSEC(2));
	ck_assert_int_eq(dist_parse("const:0", &d, &e), 0);
	ck_assert(d.kind == DIST_CONST && d.a == 0);
	ck_assert_int_eq(dist_parse("uniform:1ms:5ms", &d, &e), 0);
	ck_assert(d.kind == DIST_UNIFORM && d.a == MSEC(1) && d.b == MSEC(5));
	ck_assert_double_eq(dist_mean(&d), 3e6);
	ck_assert_int_eq(dist_parse("exp:2.5us", &d, &e), 0);
	ck_assert(d.kind == DIST_EXP && d.a == 2500);
	ck_assert_int_eq(dist_parse("lognormal:2ms:0.5", &d, &e), 0);
	ck_assert(d.kind == DIST_LOGNORMAL && d.a == MSEC(2));
	ck_assert_double_eq(d.sigma, 0.5);
	ck_assert_double_eq(dist_mean(&d), 2e6);
}
END_TEST

START_TEST(test_dist_bad)
{
	static const char syntax[] = "(const:T, uniform:T:T, exp:T, lognormal:T:SIGMA or T)";
	static const struct { const char *s, *msg; } tab[] = {
		{ "", "empty distribution " },
		{ "gauss:1ms", "'gauss:1ms': unknown distribution 'gauss' " },
		{ "exp", "'exp' is not a duration (expected a number and a unit, e.g. 1.5ms; valid units: ns, us, ms, s)" },
		{ "exp:", "'exp:': empty duration (expected a number and a unit: ns, us, ms or s)" },
		{ "exp:0", "'exp:0': the mean must be above 0" },
		{ "exp:1ms:2ms", "'exp:1ms:2ms' is not a distribution " },
		{ "uniform:1ms", "'uniform:1ms' is not a distribution " },
		{ "uniform:5ms:1ms", "'uniform:5ms:1ms': the lower bound is above the upper bound" },
		{ "uniform:1ms:2min", "'uniform:1ms:2min': '2min': unknown unit 'min' (valid units: ns, us, ms, s)" },
		{ "lognormal:2ms", "'lognormal:2ms' is not a distribution " },
		{ "lognormal:2ms:", "'lognormal:2ms:': missing sigma " },
		{ "lognormal:2ms:-1", "'lognormal:2ms:-1': sigma '-1' is not a number in 0..10" },
		{ "lognormal:2ms:11", "'lognormal:2ms:11': sigma '11' is not a number in 0..10" },
		{ "lognormal:2ms:1e-1", "'lognormal:2ms:1e-1': sigma '1e-1' is not a number in 0..10" },
		{ "lognormal:2ms:0.", "'lognormal:2ms:0.': sigma '0.' is not a number in 0..10" },
		{ "lognormal:0:1", "'lognormal:0:1': the mean must be above 0" },
		{ "const:2ms:3ms", "'const:2ms:3ms' is not a distribution " },
		{ "a:b:c:d", "'a:b:c:d' is not a distribution " },
		{ "-2ms", "'-2ms': a duration cannot be negative" },
		{ "2d", "'2d': unknown unit 'd' (valid units: ns, us, ms, s)" },
		{ "exp:2s:x", "'exp:2s:x' is not a distribution " },
		{ "100000s", "'100000s' is longer than a day" },
		{ "uniform:0:100000s", "'uniform:0:100000s': '100000s' is longer than a day" },
	};

	for (int i = 0; i < N(tab); i++) {
		char want[300];
		size_t n = strlen(tab[i].msg);
		struct dist d;
		struct err e = { "" };

		snprintf(want, sizeof(want), "%s%s", tab[i].msg,
			 n && tab[i].msg[n - 1] == ' ' ? syntax : "");
		ck_assert_int_eq(dist_parse(tab[i].s, &d, &e), -1);
		ck_assert_str_eq(e.msg, want);
	}
}
END_TEST

#define DRAWS 100000

static double sample_mean(const char *spec, double *frac_above_mean, stime_t *lo, stime_t *hi)
{
	struct dist d;
	struct err e;
	struct rng r;
	double sum = 0, mean;
	stime_t *x = malloc(DRAWS * sizeof(*x));
	int above = 0;

	ck_assert_int_eq(dist_parse(spec, &d, &e), 0);
	rng_seed(&r, 12345);
	*lo = STIME_MAX;
	*hi = -1;
	for (int i = 0; i < DRAWS; i++) {
		x[i] = dist_draw(&d, &r);
		sum += (double)x[i];
		if (x[i] < *lo)
			*lo = x[i];
		if (x[i] > *hi)
			*hi = x[i];
	}
	mean = dist_mean(&d);
	for (int i = 0; i < DRAWS; i++)
		above += (double)x[i] > mean;
	*frac_above_mean = (double)above / DRAWS;
	free(x);
	return sum / DRAWS;
}

START_TEST(test_dist_means)
{
	double m, above;
	stime_t lo, hi;

	m = sample_mean("const:2ms", &above, &lo, &hi);
	ck_assert(lo == MSEC(2) && hi == MSEC(2));
	ck_assert_double_eq(m, 2e6);

	m = sample_mean("uniform:1ms:5ms", &above, &lo, &hi);
	ck_assert_double_eq_tol(m, 3e6, 0.02 * 3e6);
	ck_assert(lo >= MSEC(1) && hi <= MSEC(5));
	/* the bounds are reached (almost): within 0.1 % of the width */
	ck_assert(lo < MSEC(1) + 4000 && hi > MSEC(5) - 4000);
	ck_assert_double_eq_tol(above, 0.5, 0.01);

	/* both ends inclusive: uniform over {0, 1, 2} has mean 1 */
	m = sample_mean("uniform:0:2", &above, &lo, &hi);
	ck_assert(lo == 0 && hi == 2);
	ck_assert_double_eq_tol(m, 1.0, 0.02);

	m = sample_mean("exp:2ms", &above, &lo, &hi);
	ck_assert_double_eq_tol(m, 2e6, 0.02 * 2e6);
	ck_assert_double_eq_tol(above, exp(-1), 0.01);
	ck_assert(lo >= 0);

	/* P(X < mean) = Phi(sigma / 2): Phi(0.25) = 0.598706 */
	m = sample_mean("lognormal:2ms:0.5", &above, &lo, &hi);
	ck_assert_double_eq_tol(m, 2e6, 0.02 * 2e6);
	ck_assert_double_eq_tol(1 - above, 0.598706, 0.01);
	ck_assert(lo > 0);

	/* sigma 1: Phi(0.5) = 0.691462 */
	m = sample_mean("lognormal:500us:1", &above, &lo, &hi);
	ck_assert_double_eq_tol(m, 5e5, 0.02 * 5e5);
	ck_assert_double_eq_tol(1 - above, 0.691462, 0.01);

	/* sigma 0 is a constant */
	m = sample_mean("lognormal:1ms:0", &above, &lo, &hi);
	ck_assert(lo == MSEC(1) && hi == MSEC(1));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("params");
	TCase *t = tcase_create("parsers");

	tcase_add_test(t, test_settings_value_end);
	tcase_add_test(t, test_split_settings);
	tcase_add_test(t, test_duration_good);
	tcase_add_test(t, test_duration_bad);
	tcase_add_test(t, test_duration_exponent);
	tcase_add_test(t, test_format_duration);
	tcase_add_test(t, test_int);
	tcase_add_test(t, test_bool);
	tcase_add_test(t, test_size);
	tcase_add_test(t, test_apply_defaults);
	tcase_add_test(t, test_apply_values);
	tcase_add_test(t, test_apply_errors);
	tcase_add_test(t, test_apply_misc);
	tcase_add_test(t, test_names);
	tcase_add_test(t, test_kvlist_copy);
	tcase_add_test(t, test_describe);
	tcase_add_test(t, test_spec_good);
	tcase_add_test(t, test_spec_bad);
	tcase_add_test(t, test_spec_module);
	tcase_add_test(t, test_spec_long);
	suite_add_tcase(s, t);
	t = tcase_create("dist");
	tcase_add_test(t, test_dist_parse);
	tcase_add_test(t, test_dist_bad);
	tcase_add_test(t, test_dist_means);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
