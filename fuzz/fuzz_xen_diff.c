/*
 * Fuzz target: a model against Xen's own code of its era, on scenarios
 * made from the fuzzer's bytes.  The bytes are the choices of the random
 * differential runs' generator (tests/xen-diff/scengen.c: topology,
 * domains, weights, caps, affinities, workloads), so every input is a
 * valid scenario and the fuzzer steers what it contains (runs of 20 to
 * 200 ms, for speed); both schedulers run it under the invariant checker, and the input fails (abort) when
 * they decide differently, when an invariant breaks or Xen's code trips
 * an ASSERT.
 *
 * Which pair: FUZZ_XEN_DIFF_PAIR="MODEL,XEN@TREE[,FLAGS]" (FLAGS as in
 * tests/xen-diff/pairs: nocaps, nosoft, nohard), e.g.
 *   FUZZ_XEN_DIFF_PAIR=credit1:era=4.17,xen-credit@4.17.5 fuzz/fuzz_xen_diff -max_total_time=600 DIR
 * else every pair of tests/xen-diff/pairs that must be identical on all
 * scenarios (MIN% 100) and whose tree is built, the first byte choosing.
 * A pair whose tree this build lacks makes every input a no-op.
 */
#include "fuzz/fuzz.h"

#include "schedulers/sched.h"
#include "sim/input/scenario_load.h"
#include "tests/xen-diff/diff.h"
#include "tests/xen-diff/pair_table.h"
#include "tests/xen-diff/scengen.h"

#ifndef XEN_DIFF_PAIRS
#define XEN_DIFF_PAIRS "tests/xen-diff/pairs"
#endif

/* The bytes as the generator's choices; 0 once they run out. */
struct bytes {
	const uint8_t *p;
	size_t n;
};

static uint64_t bytes_below(void *arg, uint64_t n)
{
	struct bytes *b = arg;
	uint64_t v = 0;
	int k, need = n <= 256 ? 1 : n <= 65536 ? 2 : 4;

	for (k = 0; k < need && b->n; k++, b->p++, b->n--)
		v = v << 8 | *b->p;
	return v % n;
}

/* The pairs, read once (the harness's only state). */
static struct pair *pairs;
static int npairs = -1;

static void load(void)
{
	const char *one = getenv("FUZZ_XEN_DIFF_PAIR");
	struct err e = { "" };
	struct pair *all;
	int n, i;

	npairs = 0;
	if (one && *one) {
		pairs = malloc(sizeof(*pairs));
		if (!pairs || pair_parse(one, pairs, NULL, &e) < 0) {
			fprintf(stderr, "fuzz_xen_diff: FUZZ_XEN_DIFF_PAIR: %s\n", e.msg);
			exit(2);
		}
		npairs = pairs->skip ? 0 : 1;
		return;
	}
	if (pairs_load(XEN_DIFF_PAIRS, &all, &n, &e) < 0) {
		fprintf(stderr, "fuzz_xen_diff: %s\n", e.msg);
		exit(2);
	}
	pairs = all;
	for (i = 0; i < n; i++)
		if (!all[i].skip && all[i].need >= 100)
			pairs[npairs++] = all[i];
}

/* For fuzz/replay.c: nothing to replay against without a pair's tree. */
const char *fuzz_replay_skip(void);

const char *fuzz_replay_skip(void)
{
	if (npairs < 0)
		load();
	return npairs ? NULL : "no pair of tests/xen-diff/pairs has its Xen tree in this build";
}

static void finding(const struct pair *p, const struct scengen *g, const char *what)
{
	fprintf(stderr, "fuzz_xen_diff: %s vs %s: %s\nthe scenario:\n%s", p->model, p->xen, what,
		g->xml);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bytes b = { data, size };
	struct scengen_src src = { bytes_below, &b };
	const struct pair *p;
	struct scengen g;
	struct scenario sc;
	struct err e = { "" };
	struct diff_run x, y;
	struct diff_point pt;
	stime_t worst;
	char what[700], na[32], nb[32];

	if (npairs < 0)
		load();
	if (!npairs)
		return 0;
	p = &pairs[size ? data[0] % npairs : 0];
	if (size) {
		b.p++;
		b.n--;
	}
	/* Short runs: many more inputs per second, and divergences show early. */
	scengen_generate(&g, &src, p->flags | SCENGEN_SHORT);
	if (scenario_load_memory(g.xml, (int)g.len, "fuzz.xml", &sc, &e) < 0) {
		snprintf(what, sizeof(what), "the generated scenario does not load: %s", e.msg);
		finding(p, &g, what);
	}
	if (diff_run(&x, &sc, p->model, NULL, sc.duration, true, &e) < 0) {
		snprintf(what, sizeof(what), "%s", e.msg);
		finding(p, &g, what);
	}
	if (diff_run(&y, &sc, p->xen, NULL, sc.duration, true, &e) < 0) {
		snprintf(what, sizeof(what), "%s", e.msg);
		finding(p, &g, what);
	}
	if (diff_first(&x, &y, &pt)) {
		snprintf(what, sizeof(what),
			 "first divergence at t=%lld ns on pCPU %d (switch #%zu there): %s / %s",
			 (long long)pt.t, pt.cpu, pt.index, diff_name(pt.a, na, sizeof(na)),
			 diff_name(pt.b, nb, sizeof(nb)));
		finding(p, &g, what);
	}
	if (diff_runtimes(&x, &y, &worst, NULL)) {
		snprintf(what, sizeof(what), "same decisions, run times differ by up to %lld ns",
			 (long long)worst);
		finding(p, &g, what);
	}
	diff_run_free(&x);
	diff_run_free(&y);
	scenario_free(&sc);
	scengen_free(&g);
	return 0;
}
