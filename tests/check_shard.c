/*
 * Unit tests of the sweep pieces: slicing (every run in exactly one slice,
 * for many matrix sizes, slice counts and cost patterns; the balance bound
 * of longest-first assignment; a case worked by hand), the matrix
 * coordinates against experiment_index(), base64 against RFC 4648's test
 * vectors, the base64 text of a result (independent of where it lived in
 * memory), and the {a,b} expansion of scheduler specs.
 */
#include <check.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "sim/experiment/experiment.h"
#include "sim/experiment/shard.h"
#include "sim/experiment/spec_axes.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Costs of m runs in one of a few patterns, from a small LCG. */
static void costs(uint64_t *c, int m, int pattern)
{
	uint32_t x = 12345u + (uint32_t)pattern;

	for (int k = 0; k < m; k++) {
		x = x * 1103515245u + 12345u;
		switch (pattern) {
		case 0: c[k] = 1; break;                          /* all equal */
		case 1: c[k] = (x >> 16) % 2300 + 1; break;        /* spread */
		case 2: c[k] = k % 4 == 0 ? 2300 : 40; break;      /* a few heavy */
		default: c[k] = (uint64_t)(m - k); break;          /* descending */
		}
	}
}

START_TEST(test_assign_covers)
{
	static const int ms[] = { 1, 2, 3, 7, 24, 30, 104, 257 };
	static const int ns[] = { 1, 2, 3, 4, 5, 7, 16, 24, 31, 300 };

	for (int a = 0; a < N(ms); a++)
		for (int b = 0; b < N(ns); b++)
			for (int p = 0; p < 4; p++) {
				int m = ms[a], n = ns[b];
				uint64_t *c = calloc(m, sizeof(*c)), cmax = 0;
				uint64_t *load = calloc(n, sizeof(*load));
				int *own = calloc(m, sizeof(*own)), *again = calloc(m, sizeof(*again));
				uint64_t lo = UINT64_MAX, hi = 0;
				int used = 0;

				costs(c, m, p);
				shard_assign(c, m, n, own);
				shard_assign(c, m, n, again);
				for (int k = 0; k < m; k++) {
					/* one slice per run, in range, the same every time */
					ck_assert_int_ge(own[k], 0);
					ck_assert_int_lt(own[k], n);
					ck_assert_int_eq(own[k], again[k]);
					load[own[k]] += c[k];
					if (c[k] > cmax)
						cmax = c[k];
				}
				for (int s = 0; s < n; s++) {
					lo = load[s] < lo ? load[s] : lo;
					hi = load[s] > hi ? load[s] : hi;
					used += load[s] > 0;
				}
				/*
				 * Each run goes to the lightest slice, so the spread
				 * never exceeds the costliest run; every slice has work
				 * while there are runs enough.
				 */
				ck_assert_msg(hi - lo <= cmax, "m=%d n=%d p=%d: %llu..%llu", m, n, p,
					      (unsigned long long)lo, (unsigned long long)hi);
				ck_assert_int_eq(used, m < n ? m : n);
				free(c);
				free(load);
				free(own);
				free(again);
			}
}
END_TEST

START_TEST(test_assign_by_hand)
{
	/*
	 * Costs 5 3 3 2 1 on two slices: 5 -> s0 (5); 3 (run 1) -> s1 (3);
	 * 3 (run 2) -> s1, the lighter (6); 2 -> s0 (7); 1 -> s1 (7).
	 */
	uint64_t c[] = { 5, 3, 3, 2, 1 };
	int own[5], want[] = { 0, 1, 1, 0, 1 };

	shard_assign(c, 5, 2, own);
	for (int k = 0; k < 5; k++)
		ck_assert_int_eq(own[k], want[k]);
	/* Equal costs: round robin, in run order. */
	uint64_t e[] = { 7, 7, 7, 7, 7, 7, 7 };
	int own2[7], want2[] = { 0, 1, 2, 0, 1, 2, 0 };

	shard_assign(e, 7, 3, own2);
	for (int k = 0; k < 7; k++)
		ck_assert_int_eq(own2[k], want2[k]);
}
END_TEST

START_TEST(test_costs)
{
	/* iperf without dom0 load is the costliest cell, make-xen without the cheapest */
	ck_assert_uint_gt(shard_run_cost("iperf", "off"), shard_run_cost("make-xen", "on"));
	ck_assert_uint_gt(shard_run_cost("make-xen", "on"), shard_run_cost("iperf", "on"));
	ck_assert_uint_gt(shard_run_cost("iperf", "on"), shard_run_cost("make-xen", "off"));
	ck_assert_uint_eq(shard_run_cost("iperf", ""), shard_run_cost("iperf", "off"));
	ck_assert_uint_gt(shard_run_cost("", ""), 0);
	/* A workload spec costs as its workload. */
	ck_assert_uint_eq(shard_run_cost("iperf:tcp_rmem_max=1048576", "on"),
			  shard_run_cost("iperf", "on"));
	ck_assert_uint_eq(shard_run_cost("iperfx", "on"), shard_run_cost("", ""));
}
END_TEST

START_TEST(test_coords)
{
	struct experiment x;
	char w[3][EXP_NAME_MAX] = { "a", "b", "c" }, d[2][EXP_NAME_MAX] = { "off", "on" };
	char h[2][EXP_NAME_MAX] = { "nodes=1", "nodes=2" };
	int seen[2 * 2 * 3 * 2 * 4] = { 0 };

	memset(&x, 0, sizeof(x));
	x.nscheds = 2;
	x.workloads = w;
	x.nworkloads = 3;
	x.dom0_loads = d;
	x.ndom0 = 2;
	x.iterations = 4;
	ck_assert_int_eq(shard_total(&x), 48);
	for (int k = 0; k < 48; k++) {
		struct experiment_coords c = experiment_coords(&x, k);

		ck_assert_int_eq(experiment_index(&x, c.s, c.b, c.d, c.i), k);
		ck_assert_ptr_null(experiment_host(&x, c.b));
		ck_assert_str_eq(experiment_workload(&x, c.b), w[c.b]);
		seen[k]++;
	}
	for (int k = 0; k < 48; k++)
		ck_assert_int_eq(seen[k], 1);
	/* A host axis: benches are host x workload, the workload varying fastest. */
	x.hosts = h;
	x.nhosts = 2;
	ck_assert_int_eq(shard_total(&x), 96);
	ck_assert_int_eq(experiment_nbench(&x), 6);
	for (int k = 0; k < 96; k++) {
		struct experiment_coords c = experiment_coords(&x, k);

		ck_assert_int_eq(experiment_index(&x, c.s, c.b, c.d, c.i), k);
		ck_assert_str_eq(experiment_host(&x, c.b), h[c.b / 3]);
		ck_assert_str_eq(experiment_workload(&x, c.b), w[c.b % 3]);
		seen[k]++;
	}
	for (int k = 0; k < 96; k++)
		ck_assert_int_eq(seen[k], k < 48 ? 2 : 1);
	x.nhosts = 0;
	x.nworkloads = 0;       /* the scenario's own workloads: an axis of one */
	x.ndom0 = 0;
	ck_assert_int_eq(shard_total(&x), 8);
	ck_assert_ptr_null(experiment_workload(&x, 0));
}
END_TEST

START_TEST(test_base64)
{
	static const char *const vec[][2] = {    /* RFC 4648, section 10 */
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" }, { "foo", "Zm9v" },
		{ "foob", "Zm9vYg==" }, { "fooba", "Zm9vYmE=" }, { "foobar", "Zm9vYmFy" },
	};
	unsigned char bin[256];
	char enc[400], *dec;
	size_t len;

	for (int k = 0; k < N(vec); k++) {
		base64_encode(vec[k][0], strlen(vec[k][0]), enc);
		ck_assert_str_eq(enc, vec[k][1]);
		ck_assert_int_eq(base64_decode(vec[k][1], &dec, &len), 0);
		ck_assert_uint_eq(len, strlen(vec[k][0]));
		ck_assert(memcmp(dec, vec[k][0], len) == 0);
		free(dec);
	}
	for (int k = 0; k < 256; k++)
		bin[k] = (unsigned char)(255 - k);
	base64_encode(bin, sizeof(bin), enc);
	ck_assert_int_eq(base64_decode(enc, &dec, &len), 0);
	ck_assert_uint_eq(len, sizeof(bin));
	ck_assert(memcmp(dec, bin, len) == 0);
	free(dec);
	ck_assert_int_eq(base64_decode("Zm9", &dec, &len), -1);       /* not 4-aligned */
	ck_assert_int_eq(base64_decode("Zm9*", &dec, &len), -1);      /* not the alphabet */
	ck_assert_int_eq(base64_decode("Zg==Zm9v", &dec, &len), -1);  /* padding inside */
	ck_assert_int_eq(base64_decode("Z===", &dec, &len), -1);      /* too much padding */
}
END_TEST

/*
 * What a part carries for a result: its encoding in base64.  Nothing in it
 * depends on where the result lived: the same figures copied to other
 * memory give the same text, and the text decodes to every figure.
 */
START_TEST(test_result_text)
{
	struct run_result r, back;
	struct domain_result doms[2], doms2[2];
	struct vcpu_result vc[3], vc2[3];
	int pc[3][2] = { { 0, 3 }, { 5, 0 }, { 0, 0 } }, pc2[3][2];
	uint64_t buckets[HIST_BUCKETS] = { 0 }, buckets2[HIST_BUCKETS];
	char *buf, *buf2, *text, *text2, *dec;
	size_t len, len2, declen;

	memset(&r, 0, sizeof(r));
	memset(doms, 0, sizeof(doms));
	memset(vc, 0, sizeof(vc));
	buckets[3] = 7;
	buckets[HIST_BUCKETS - 1] = 1;
	for (int v = 0; v < 3; v++) {
		vc[v].id = v;
		vc[v].run_ns = 1000 * (v + 1);
		vc[v].pcpus = pc[v];
		vc[v].npcpus = 2 - v;            /* 2, 1 and 0 pCPUs */
		vc[v].wake_latency.buckets = v == 1 ? NULL : buckets;
		vc[v].wake_latency.count = v == 1 ? 0 : 8;
	}
	doms[0].vcpus = vc;
	doms[0].nvcpus = 2;
	doms[1].vcpus = vc + 2;
	doms[1].nvcpus = 1;
	r.doms = doms;
	r.ndoms = 2;
	r.iteration = 4;
	run_result_pack(&r, &buf, &len);
	/* a copy in other memory */
	memcpy(doms2, doms, sizeof(doms));
	memcpy(vc2, vc, sizeof(vc));
	memcpy(pc2, pc, sizeof(pc));
	memcpy(buckets2, buckets, sizeof(buckets));
	for (int v = 0; v < 3; v++) {
		vc2[v].pcpus = pc2[v];
		vc2[v].wake_latency.buckets = v == 1 ? NULL : buckets2;
	}
	doms2[0].vcpus = vc2;
	doms2[1].vcpus = vc2 + 2;
	r.doms = doms2;
	run_result_pack(&r, &buf2, &len2);
	text = malloc(4 * ((len + 2) / 3) + 1);
	text2 = malloc(4 * ((len2 + 2) / 3) + 1);
	base64_encode(buf, len, text);
	base64_encode(buf2, len2, text2);
	ck_assert_str_eq(text, text2);
	/* Every figure survives the text. */
	ck_assert_int_eq(base64_decode(text, &dec, &declen), 0);
	ck_assert_uint_eq(declen, len);
	ck_assert_int_eq(run_result_unpack(dec, declen, &back, NULL), 0);
	ck_assert_int_eq(back.iteration, 4);
	ck_assert_int_eq(back.ndoms, 2);
	ck_assert_int_eq(back.doms[0].nvcpus, 2);
	ck_assert_int_eq(back.doms[1].nvcpus, 1);
	ck_assert_int_eq(back.doms[0].vcpus[1].run_ns, 2000);
	ck_assert_int_eq(back.doms[0].vcpus[0].pcpus[1], 3);
	ck_assert_int_eq(back.doms[0].vcpus[1].pcpus[0], 5);
	ck_assert_int_eq(back.doms[1].vcpus[0].npcpus, 0);
	ck_assert_uint_eq(back.doms[0].vcpus[0].wake_latency.count, 8);
	ck_assert_uint_eq(back.doms[0].vcpus[0].wake_latency.buckets[3], 7);
	ck_assert_uint_eq(back.doms[1].vcpus[0].wake_latency.buckets[HIST_BUCKETS - 1], 1);
	ck_assert_ptr_null(back.doms[0].vcpus[1].wake_latency.buckets);
	run_result_free(&back);
	/* A text cut short is refused. */
	free(dec);
	text[strlen(text) - 4] = '\0';
	ck_assert_int_eq(base64_decode(text, &dec, &declen), 0);
	ck_assert_int_eq(run_result_unpack(dec, declen, &back, NULL), -1);
	free(dec);
	free(text);
	free(text2);
	free(buf);
	free(buf2);
}
END_TEST

static void expand(const char *const *in, int n, const char *const *want, int nwant)
{
	char **items = malloc(n * sizeof(*items));
	struct err e = { "" };

	for (int k = 0; k < n; k++)
		items[k] = strdup(in[k]);
	ck_assert_int_eq(spec_axes_expand(&items, &n, &e), 0);
	ck_assert_int_eq(n, nwant);
	for (int k = 0; k < n; k++) {
		ck_assert_str_eq(items[k], want[k]);
		free(items[k]);
	}
	free(items);
}

START_TEST(test_axes)
{
	const char *a[] = { "credit2:ratelimit_us={0,500,1000}:runqueue={core,socket}" };
	const char *wa[] = {
		"credit2:ratelimit_us=0:runqueue=core", "credit2:ratelimit_us=0:runqueue=socket",
		"credit2:ratelimit_us=500:runqueue=core", "credit2:ratelimit_us=500:runqueue=socket",
		"credit2:ratelimit_us=1000:runqueue=core", "credit2:ratelimit_us=1000:runqueue=socket",
	};
	const char *b[] = { "credit1", "credit{1,2}:x={a}", "null" };
	const char *wb[] = { "credit1", "credit1:x=a", "credit2:x=a", "null" };

	char **items = malloc(sizeof(*items));
	struct err e = { "" };
	int n = 1;

	items[0] = strdup("c:a={0,1,2,3,4,5,6,7}:b={0,1,2,3,4,5,6,7}:c={0,1,2,3,4,5,6,7}:"
			  "d={0,1,2,3,4,5,6,7}");
	ck_assert_int_eq(spec_axes_expand(&items, &n, &e), 0);
	ck_assert_int_eq(n, 4096);
	ck_assert_str_eq(items[0], "c:a=0:b=0:c=0:d=0");
	ck_assert_str_eq(items[9], "c:a=0:b=0:c=1:d=1");
	ck_assert_str_eq(items[4095], "c:a=7:b=7:c=7:d=7");
	for (int k = 0; k < n; k++)
		free(items[k]);
	free(items);
	expand(a, 1, wa, N(wa));
	expand(b, 3, wb, N(wb));
}
END_TEST

static void refuse(const char *spec, const char *msg)
{
	char **items = malloc(sizeof(*items));
	struct err e = { "" };
	int n = 1;

	items[0] = strdup(spec);
	ck_assert_int_eq(spec_axes_expand(&items, &n, &e), -1);
	ck_assert_msg(strstr(e.msg, msg) != NULL, "'%s' gave '%s'", spec, e.msg);
	ck_assert_int_eq(n, 1);              /* the list is left as it was */
	ck_assert_str_eq(items[0], spec);
	free(items[0]);
	free(items);
}

START_TEST(test_axes_errors)
{
	refuse("credit2:a={0,1", "'{' without '}'");
	refuse("credit2:a=0}", "'}' without '{'");
	refuse("credit2:a={0,{1}}", "do not nest");
	refuse("credit2:a={}", "empty value");
	refuse("credit2:a={0,,1}", "empty value in {0,,1}");
	/* 8 x 8 x 8 x 8 = 4096 is the most, twice that is refused */
	refuse("c:a={0,1,2,3,4,5,6,7}:b={0,1,2,3,4,5,6,7}:c={0,1,2,3,4,5,6,7}:"
	       "d={0,1,2,3,4,5,6,7}:e={0,1}", "more than 4096 configurations");
}
END_TEST

static Suite *shard_suite(void)
{
	Suite *s = suite_create("shard");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_assign_covers);
	tcase_add_test(tc, test_assign_by_hand);
	tcase_add_test(tc, test_costs);
	tcase_add_test(tc, test_coords);
	tcase_add_test(tc, test_base64);
	tcase_add_test(tc, test_result_text);
	tcase_add_test(tc, test_axes);
	tcase_add_test(tc, test_axes_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(shard_suite());
}
