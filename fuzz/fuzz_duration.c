/*
 * Fuzz target: the value parsers behind every scenario attribute and CLI
 * flag (sim/params.c, sim/engine/dist.c, sim/engine/topology.c): durations, integers,
 * booleans, distributions and cpu lists.  Besides "no crash, one-line
 * errors" it checks properties that must hold for any text:
 *  - a parsed duration is >= 0 and survives format_duration() and a
 *    second parse unchanged;
 *  - a parsed integer is within the bounds asked for;
 *  - a parsed distribution has a non-negative mean;
 *  - a parsed cpu list is a non-empty subset of the host.
 */
#include "fuzz/fuzz.h"

#include "sim/engine/cpumask.h"
#include "sim/engine/dist.h"
#include "sim/engine/topology.h"
#include "sim/params.h"

static void fail(const char *what, const char *s)
{
	fprintf(stderr, "fuzz_duration: %s: '%s'\n", what, s);
	abort();
}

static void duration(const char *s)
{
	struct err e = { "" };
	char buf[64];
	stime_t t, t2;

	if (parse_duration(s, &t, &e) < 0) {
		fuzz_check_error(&e, "parse_duration", fuzz_has_break(s));
		return;
	}
	if (t < 0)
		fail("negative duration accepted", s);
	format_duration(t, buf, sizeof(buf));
	if (parse_duration(buf, &t2, &e) < 0 || t2 != t)
		fail("duration does not survive format_duration", s);
}

static void integer(const char *s)
{
	struct err e = { "" };
	long long v;

	if (parse_int(s, -1000, 65536, &v, &e) < 0)
		fuzz_check_error(&e, "parse_int", fuzz_has_break(s));
	else if (v < -1000 || v > 65536)
		fail("integer out of bounds accepted", s);
}

static void boolean(const char *s)
{
	struct err e = { "" };
	bool b;

	if (parse_bool(s, &b, &e) < 0)
		fuzz_check_error(&e, "parse_bool", fuzz_has_break(s));
}

static void distribution(const char *s)
{
	struct err e = { "" };
	struct dist d;

	if (dist_parse(s, &d, &e) < 0)
		fuzz_check_error(&e, "dist_parse", fuzz_has_break(s));
	else if (!(dist_mean(&d) >= 0))
		fail("distribution with a negative or NaN mean accepted", s);
}

/* 2 nodes, 2 sockets x 4 cores x 2 threads: the default host. */
static void cpulist(const char *s)
{
	struct topology t;
	struct cpumask *m;
	struct err e = { "" };

	if (topology_init(&t, 2, 4, 2, 2, &e) < 0)
		abort();
	m = cpumask_alloc((unsigned)t.nr_cpus);
	if (cpulist_parse(&t, s, m, &e) < 0)
		fuzz_check_error(&e, "cpulist_parse", fuzz_has_break(s));
	else if (cpumask_empty(m) || !cpumask_subset(m, t.all))
		fail("cpu list empty or outside the host accepted", s);
	cpumask_free(m);
	topology_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size > 1024)
		return 0;
	s = fuzz_cstring(data, size);
	duration(s);
	integer(s);
	boolean(s);
	distribution(s);
	cpulist(s);
	free(s);
	return 0;
}
