/* cpumasks (up to 4096 pCPUs), topology numbering and xl cpu-list parsing. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "sim/engine/cpumask.h"
#include "sim/engine/topology.h"

START_TEST(cpumask_ops_4096)
{
	struct cpumask *a = cpumask_alloc(4096), *b = cpumask_alloc(4096), *c = cpumask_alloc(4096);
	char buf[128];

	cpumask_set(a, 0);
	cpumask_set(a, 63);
	cpumask_set(a, 64);
	cpumask_set(a, 4095);
	ck_assert_uint_eq(cpumask_weight(a), 4);
	ck_assert_uint_eq(cpumask_first(a), 0);
	ck_assert_uint_eq(cpumask_next(0, a), 63);
	ck_assert_uint_eq(cpumask_next(63, a), 64);
	ck_assert_uint_eq(cpumask_next(64, a), 4095);
	ck_assert_uint_eq(cpumask_next(4095, a), 4096);
	ck_assert_uint_eq(cpumask_cycle(4095, a), 0);
	ck_assert_uint_eq(cpumask_cycle(100, a), 4095);
	ck_assert_uint_eq(cpumask_test_or_cycle(64, a), 64);      /* set: itself */
	ck_assert_uint_eq(cpumask_test_or_cycle(4095, a), 4095);
	ck_assert_uint_eq(cpumask_test_or_cycle(100, a), 4095);   /* clear: the next one */
	ck_assert_uint_eq(cpumask_test_or_cycle_words(62, a, cpumask_words_of(a)), 63);
	ck_assert_uint_eq(cpumask_nth(a, 0), 0);
	ck_assert_uint_eq(cpumask_nth(a, 2), 64);
	ck_assert_uint_eq(cpumask_nth(a, 3), 4095);
	ck_assert_uint_eq(cpumask_nth(a, 4), 4096);
	ck_assert(!cpumask_test(a, 4096));
	cpumask_fill(b);
	ck_assert_uint_eq(cpumask_weight(b), 4096);
	ck_assert(cpumask_full(b));
	ck_assert(cpumask_subset(a, b));
	ck_assert(!cpumask_subset(b, a));
	cpumask_andnot(c, b, a);
	ck_assert_uint_eq(cpumask_weight(c), 4092);
	ck_assert(!cpumask_intersects(c, a));
	cpumask_and(c, a, b);
	ck_assert(cpumask_equal(c, a));
	ck_assert_str_eq(cpumask_format(a, buf, sizeof(buf)), "0,63-64,4095");
	cpumask_zero(c);
	ck_assert(cpumask_empty(c));
	ck_assert_uint_eq(cpumask_first(c), 4096);
	ck_assert_uint_eq(cpumask_cycle(5, c), 4096);
	ck_assert_uint_eq(cpumask_test_or_cycle(5, c), 4096);     /* empty: nbits */
	ck_assert_uint_eq(cpumask_nth(c, 0), 4096);
	ck_assert_str_eq(cpumask_format(c, buf, sizeof(buf)), "none");
	cpumask_free(a);
	cpumask_free(b);
	cpumask_free(c);
}
END_TEST

START_TEST(cpumask_cycle_single_bit_returns_itself)
{
	struct cpumask *a = cpumask_alloc(70);

	cpumask_set(a, 69);
	ck_assert_uint_eq(cpumask_cycle(69, a), 69);
	ck_assert_uint_eq(cpumask_cycle(-1, a), 69);
	cpumask_fill(a);
	ck_assert_uint_eq(cpumask_weight(a), 70);
	cpumask_free(a);
}
END_TEST

/*
 * The *_words operations equal the whole-mask ones where the words given
 * hold every bit of b, and leave dst's other words alone; a topology's
 * words are those of its masks, wherever its numbering puts a core's
 * threads (here 2 sockets x 96 cores x 2 threads, siblings 192 apart).
 */
START_TEST(cpumask_words_ops)
{
	struct cpumask *a = cpumask_alloc(300), *b = cpumask_alloc(300);
	struct cpumask *whole = cpumask_alloc(300), *part = cpumask_alloc(300);
	struct cpumask_words w;
	struct topology t;
	struct topology_cpu cpus[384];
	struct err e;

	for (unsigned c = 0; c < 300; c += 3)
		cpumask_set(a, c);
	cpumask_set(b, 70);
	cpumask_set(b, 129);
	cpumask_set(b, 150);
	w = cpumask_words_of(b);
	ck_assert_uint_eq(w.lo, 1);
	ck_assert_uint_eq(w.hi, 3);
	ck_assert_uint_eq(cpumask_weight_and_words(a, b, w), 2);   /* 129 and 150 */
	cpumask_and(whole, a, b);
	cpumask_fill(part);
	cpumask_and_words(part, a, b, w);
	ck_assert_uint_eq(part->w[0], ~0ULL);                     /* left alone */
	ck_assert_uint_eq(part->w[1], whole->w[1]);
	ck_assert_uint_eq(part->w[2], whole->w[2]);
	cpumask_zero_words(part, (struct cpumask_words){ 0, 1 });
	cpumask_zero_words(part, (struct cpumask_words){ 3, 5 });
	ck_assert(cpumask_equal(part, whole));
	cpumask_andnot(whole, a, b);
	cpumask_copy(part, a);
	cpumask_andnot_words(part, part, b, w);
	ck_assert(cpumask_equal(part, whole));
	cpumask_zero(b);
	w = cpumask_words_of(b);
	ck_assert_uint_eq(w.lo, w.hi);
	ck_assert_uint_eq(cpumask_weight_and_words(a, b, w), 0);

	for (int c = 0; c < 384; c++)
		cpus[c] = (struct topology_cpu){ (c % 192) / 96, c % 192, (c % 192) / 96 };
	ck_assert_int_eq(topology_init_map(&t, cpus, 384, &e), 0);
	for (int c = 0; c < 384; c++) {
		struct cpumask_words sw = t.sibling_words[c], cw = t.core_words[c];

		ck_assert_uint_eq(cpumask_weight_and_words(t.sibling_mask[c], t.sibling_mask[c], sw),
				  cpumask_weight(t.sibling_mask[c]));
		ck_assert_uint_eq(cpumask_weight_and_words(t.core_mask[c], t.core_mask[c], cw),
				  cpumask_weight(t.core_mask[c]));
	}
	ck_assert_uint_eq(t.sibling_words[5].lo, 0);                 /* threads 5 and 197 */
	ck_assert_uint_eq(t.sibling_words[5].hi, 4);
	topology_free(&t);
	cpumask_free(a);
	cpumask_free(b);
	cpumask_free(whole);
	cpumask_free(part);
}
END_TEST

/*
 * The other *_words operations against the whole-mask ones on copies whose
 * words outside w are cleared: random masks of 300 bits, random spans, and
 * ones outside the span of every operand, which must not matter.
 */
START_TEST(cpumask_words_against_whole)
{
	const unsigned n = 300, nw = 5;
	struct cpumask *m[3], *r[3], *dst = cpumask_alloc(n), *want = cpumask_alloc(n);
	struct cpumask *filled = cpumask_alloc(n);
	uint64_t x = 88172645463325252ULL;

	for (int k = 0; k < 3; k++) {
		m[k] = cpumask_alloc(n);
		r[k] = cpumask_alloc(n);
	}
	for (int round = 0; round < 3000; round++) {
		struct cpumask_words w;
		unsigned lo, hi;
		int start;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		lo = (unsigned)(x % nw);
		hi = lo + (unsigned)((x >> 8) % (nw - lo + 1));
		w = (struct cpumask_words){ lo, hi };
		for (int k = 0; k < 3; k++) {
			cpumask_zero(m[k]);
			cpumask_zero(r[k]);
			for (unsigned c = 0; c < n; c++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				/* sparse in some rounds, so that empty words and masks occur */
				if (x % 16 < (uint64_t)(round % 5 ? 1 : 8)) {
					cpumask_set(m[k], c);
					if (c / 64 >= lo && c / 64 < hi)
						cpumask_set(r[k], c);
				}
			}
			for (unsigned i = 0; i < nw; i++)   /* outside w: anything */
				if (i < lo || i >= hi)
					m[k]->w[i] |= 0x5555000000000001ULL & (i == nw - 1 ? 0xfffULL : ~0ULL);
		}
		ck_assert_int_eq(cpumask_intersects_words(m[0], m[1], w), cpumask_intersects(r[0], r[1]));
		ck_assert_int_eq(cpumask_subset_words(m[0], m[1], w), cpumask_subset(r[0], r[1]));
		cpumask_and(want, r[0], r[1]);
		ck_assert_int_eq(cpumask_intersects3_words(m[0], m[1], m[2], w),
				 cpumask_intersects(want, r[2]));
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		start = (int)(x % (n + 1)) - 1;
		ck_assert_uint_eq(cpumask_next_words(start, m[0], w), cpumask_next(start, r[0]));
		ck_assert_uint_eq(cpumask_next_words(-1, m[0], w), cpumask_first(r[0]));
		ck_assert_uint_eq(cpumask_cycle_words(start, m[0], w), cpumask_cycle(start, r[0]));
		cpumask_fill(dst);
		cpumask_copy(filled, dst);
		cpumask_or_words(dst, m[0], m[1], w);
		cpumask_or(want, r[0], r[1]);
		for (unsigned i = 0; i < nw; i++)   /* outside w: left as filled */
			ck_assert_uint_eq(dst->w[i], i >= lo && i < hi ? want->w[i] : filled->w[i]);
		cpumask_zero(dst);
		cpumask_copy_words(dst, m[2], w);
		ck_assert(cpumask_equal(dst, r[2]));
	}
	for (int k = 0; k < 3; k++) {
		cpumask_free(m[k]);
		cpumask_free(r[k]);
	}
	cpumask_free(dst);
	cpumask_free(want);
	cpumask_free(filled);
}
END_TEST

START_TEST(topology_numbering_like_xen)
{
	struct topology t;
	struct err e;
	char buf[64];

	ck_assert_int_eq(topology_init(&t, 2, 4, 2, 2, &e), 0);
	ck_assert_int_eq(t.nr_cpus, 16);
	/* Threads of a core are adjacent, then cores, then sockets. */
	ck_assert_int_eq(t.cpu_core[0], t.cpu_core[1]);
	ck_assert_int_ne(t.cpu_core[1], t.cpu_core[2]);
	ck_assert_int_eq(t.cpu_socket[7], 0);
	ck_assert_int_eq(t.cpu_socket[8], 1);
	ck_assert_int_eq(t.cpu_node[7], 0);
	ck_assert_int_eq(t.cpu_node[8], 1);
	ck_assert_str_eq(cpumask_format(t.sibling_mask[5], buf, sizeof(buf)), "4-5");
	ck_assert_str_eq(cpumask_format(t.core_mask[9], buf, sizeof(buf)), "8-15");
	ck_assert_str_eq(cpumask_format(t.node_mask[1], buf, sizeof(buf)), "8-15");
	topology_free(&t);

	/* Two nodes inside one socket split its cores. */
	ck_assert_int_eq(topology_init(&t, 1, 4, 2, 2, &e), 0);
	ck_assert_str_eq(cpumask_format(t.node_mask[0], buf, sizeof(buf)), "0-3");
	ck_assert_str_eq(cpumask_format(t.node_mask[1], buf, sizeof(buf)), "4-7");
	topology_free(&t);
}
END_TEST

START_TEST(topology_impossible_shapes)
{
	struct topology t;
	struct err e;

	ck_assert_int_eq(topology_init(&t, 0, 4, 2, 1, &e), -1);
	ck_assert(strstr(e.msg, "at least 1"));
	ck_assert_int_eq(topology_init(&t, 3, 4, 1, 2, &e), -1);
	ck_assert(strstr(e.msg, "cannot be laid over 3 sockets"));
	ck_assert_int_eq(topology_init(&t, 1, 3, 1, 2, &e), -1);
	ck_assert(strstr(e.msg, "cannot be split"));
	ck_assert_int_eq(topology_init(&t, 1, 2, 1, 4, &e), -1);
	ck_assert(strstr(e.msg, "4 NUMA nodes but only 2 cores"));
	ck_assert_int_eq(topology_init(&t, 1024, 64, 2, 1, &e), -1);
	ck_assert(strstr(e.msg, "more than the"));
}
END_TEST

static const char *parse(struct topology *t, const char *s, char *buf, size_t len)
{
	struct cpumask *m = cpumask_alloc((unsigned)t->nr_cpus);
	struct err e;

	if (len > 200)
		len = 200;
	if (cpulist_parse(t, s, m, &e) < 0)
		snprintf(buf, len, "ERR %.*s", (int)len - 5, e.msg);
	else
		cpumask_format(m, buf, (unsigned)len);
	cpumask_free(m);
	return buf;
}

START_TEST(cpulist_xl_syntax)
{
	struct topology t;
	struct err e;
	char buf[256];

	ck_assert_int_eq(topology_init(&t, 2, 4, 2, 2, &e), 0);
	ck_assert_str_eq(parse(&t, "all", buf, sizeof(buf)), "0-15");
	ck_assert_str_eq(parse(&t, "0-3,8", buf, sizeof(buf)), "0-3,8");
	ck_assert_str_eq(parse(&t, "nodes:0", buf, sizeof(buf)), "0-7");
	ck_assert_str_eq(parse(&t, "node:1", buf, sizeof(buf)), "8-15");
	ck_assert_str_eq(parse(&t, "nodes:0-1,^3", buf, sizeof(buf)), "0-2,4-15");
	ck_assert_str_eq(parse(&t, "^2", buf, sizeof(buf)), "0-1,3-15");
	ck_assert_str_eq(parse(&t, "all,^nodes:1", buf, sizeof(buf)), "0-7");
	ck_assert_str_eq(parse(&t, " 1 , 5 ", buf, sizeof(buf)), "1,5");
	ck_assert_str_eq(parse(&t, "16", buf, sizeof(buf)),
			 "ERR pCPU 16 out of range in \"16\" (host has pCPUs 0-15)");
	ck_assert_str_eq(parse(&t, "nodes:2", buf, sizeof(buf)),
			 "ERR node 2 out of range in \"nodes:2\" (host has nodes 0-1)");
	ck_assert_str_eq(parse(&t, "3-1", buf, sizeof(buf)),
			 "ERR malformed cpu list item '3-1' in \"3-1\"");
	ck_assert_str_eq(parse(&t, "x", buf, sizeof(buf)), "ERR malformed cpu list item 'x' in \"x\"");
	ck_assert_str_eq(parse(&t, "1,", buf, sizeof(buf)),
			 "ERR malformed cpu list \"1,\" (trailing comma)");
	ck_assert_str_eq(parse(&t, "", buf, sizeof(buf)), "ERR empty cpu list");
	ck_assert_str_eq(parse(&t, "0-3,^0-3", buf, sizeof(buf)),
			 "ERR cpu list \"0-3,^0-3\" selects no pCPU");
	ck_assert_str_eq(parse(&t, "-1", buf, sizeof(buf)), "ERR malformed cpu list item '-1' in \"-1\"");
	ck_assert_str_eq(parse(&t, "99999999999999999999", buf, sizeof(buf)),
			 "ERR malformed cpu list item '99999999999999999999' in \"99999999999999999999\"");
	topology_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("machine");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, cpumask_ops_4096);
	tcase_add_test(tc, cpumask_cycle_single_bit_returns_itself);
	tcase_add_test(tc, cpumask_words_ops);
	tcase_add_test(tc, cpumask_words_against_whole);
	tcase_add_test(tc, topology_numbering_like_xen);
	tcase_add_test(tc, topology_impossible_shapes);
	tcase_add_test(tc, cpulist_xl_syntax);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
