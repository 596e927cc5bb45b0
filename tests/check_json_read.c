/*
 * The JSON reader behind `schedsim compare`: values, escapes, the number
 * grammar, and errors that name the line instead of crashing on a
 * truncated or hand-edited file.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "sim/input/json_read.h"

static int parse(const char *s, struct jval *v, struct err *e)
{
	return jval_parse(s, strlen(s), "t.json", v, e);
}

START_TEST(test_values)
{
	struct jval v;
	struct err e = { "" };
	const struct jval *a;

	ck_assert_int_eq(parse("{\"a\": [1, -2.5e3, true, null, \"x\\ty\"], \"b\": {}}", &v, &e), 0);
	ck_assert_int_eq(v.type, JVAL_OBJECT);
	a = jval_get(&v, "a");
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(a->n, 5);
	ck_assert_double_eq(a->items[0].num, 1);
	ck_assert_double_eq(a->items[1].num, -2500);
	ck_assert(a->items[2].b);
	ck_assert_int_eq(a->items[3].type, JVAL_NULL);
	ck_assert_str_eq(a->items[4].str, "x\ty");
	ck_assert_int_eq(jval_get(&v, "b")->n, 0);
	ck_assert_ptr_null(jval_get(&v, "c"));
	ck_assert_str_eq(jval_get_string(&v, "a", "def"), "def");
	jval_free(&v);
}
END_TEST

START_TEST(test_unicode)
{
	struct jval v;
	struct err e = { "" };

	/* U+00B1 (2 bytes), U+20AC (3 bytes), U+1F600 as a surrogate pair (4 bytes) */
	ck_assert_int_eq(parse("\"\\u00b1\\u20AC\\ud83d\\ude00\"", &v, &e), 0);
	ck_assert_str_eq(v.str, "\xc2\xb1\xe2\x82\xac\xf0\x9f\x98\x80");
	jval_free(&v);
	ck_assert_int_eq(parse("\"\\ud83d\"", &v, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "surrogate"));
}
END_TEST

START_TEST(test_errors)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "{\"a\": 1,\n\"b\": }", "t.json:2: " },
		{ "[1, 2", "t.json:1: " },
		{ "01", "t.json:1: unexpected text" },
		{ "1.", "digits expected after '.'" },
		{ "[1,]", "not JSON" },
		{ "{\"a\" 1}", "':' expected" },
		{ "\"abc", "unterminated string" },
		{ "\"a\nb\"", "control character" },
		{ "[1] x", "unexpected text after the document" },
		{ "", "unexpected end of input" },
		{ "tru", "unexpected word" },
	};
	struct jval v;
	struct err e;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		e.msg[0] = 0;
		ck_assert_msg(parse(bad[i].text, &v, &e) == -1, "accepted: %s", bad[i].text);
		ck_assert_msg(strstr(e.msg, bad[i].msg) != NULL, "%s: got '%s', want '%s'",
			      bad[i].text, e.msg, bad[i].msg);
	}
}
END_TEST

START_TEST(test_depth)
{
	char deep[2 * JVAL_MAX_DEPTH + 8];
	struct jval v;
	struct err e = { "" };
	int n = JVAL_MAX_DEPTH + 2;

	memset(deep, '[', n);
	memset(deep + n, ']', n);
	deep[2 * n] = 0;
	ck_assert_int_eq(parse(deep, &v, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "nesting too deep"));
}
END_TEST

static Suite *json_read_suite(void)
{
	Suite *s = suite_create("json_read");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_unicode);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_depth);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(json_read_suite());
}
