/*
 * Fuzz target: the scenario loader (sim/input/scenario_xml.c) on arbitrary
 * bytes.  A rejected input must come back with a one-line message; an
 * accepted one must satisfy the loader's own limits, and when the host is
 * small it is also built and run for a moment under the invariant checker
 * with one of the registered schedulers, so that the cpu-list parser, the
 * builder and the schedulers see every odd shape the loader lets through.
 */
#include "fuzz/fuzz.h"

#include "schedulers/sched.h"
#include "sim/experiment/build.h"
#include "sim/experiment/run.h"
#include "sim/input/scenario_load.h"
#include "sim/params.h"

#define SMALL_CPUS 64
#define SMALL_VCPUS 256
/* Accepted small hosts run this long, or this many events (a phase of 1ns
 * with no sleep is legal and slow: the budget keeps each input fast); the
 * model depends on the input's size. */
#define RUN_FOR MSEC(5)
#define MAX_EVENTS 20000

static void check_limits(const struct scenario *sc)
{
	long long total = 0;
	int i;

	if (sc->duration <= 0 || sc->ndoms < 1 || sc->host.sockets < 1 ||
	    sc->host.cores_per_socket < 1 || sc->host.threads_per_core < 1) {
		fprintf(stderr, "fuzz_scenario: accepted a scenario outside the limits\n");
		abort();
	}
	for (i = 0; i < sc->ndoms; i++) {
		if (sc->doms[i].vcpus < 1 || sc->doms[i].vcpus > SCENARIO_MAX_VCPUS) {
			fprintf(stderr, "fuzz_scenario: domain %d has %d vCPUs\n", i,
				sc->doms[i].vcpus);
			abort();
		}
		total += sc->doms[i].vcpus;
	}
	if (total > SCENARIO_MAX_TOTAL_VCPUS)
		abort();
}

static long long host_cpus(const struct scenario *sc)
{
	return host_spec_cpus(&sc->host);
}

static long long all_vcpus(const struct scenario *sc)
{
	long long n = 0;

	for (int i = 0; i < sc->ndoms; i++)
		n += sc->doms[i].vcpus;
	return n;
}

/* A line break can reach an attribute value only as &#10; or &#13;. */
static int char_refs(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i + 1 < size; i++)
		if (data[i] == '&' && data[i + 1] == '#')
			return 1;
	return 0;
}

static bool always_zero(const struct dist *d)
{
	return d->kind == DIST_UNIFORM ? d->b == 0 : d->a == 0;
}

/*
 * A phases workload whose phases all take no time, run and sleep, used to
 * loop forever at one instant (fuzz/regressions/); sim_build refuses it
 * now, and the harness still skips it rather than spend runs on it.
 */
static bool known_hang(const struct scenario *sc)
{
	for (int i = 0; i < sc->ndoms; i++)
		for (int w = 0; w < sc->doms[i].nworkloads; w++) {
			const struct workload_spec *ws = &sc->doms[i].workloads[w];
			bool zero = ws->nphases > 0;

			for (int p = 0; p < ws->nphases; p++)
				if (!always_zero(&ws->phases[p].run) ||
				    !always_zero(&ws->phases[p].sleep))
					zero = false;
			if (zero)
				return true;
		}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario sc;
	struct err e = { "" };

	if (size > SCENARIO_MAX_FILE)
		return 0;
	if (scenario_load_memory((const char *)data, (int)size, "fuzz.xml", &sc, &e) < 0) {
		fuzz_check_error(&e, "fuzz_scenario: load", char_refs(data, size));
		return 0;
	}
	check_limits(&sc);
	if (host_cpus(&sc) <= SMALL_CPUS && all_vcpus(&sc) <= SMALL_VCPUS && !known_hang(&sc))
		fuzz_run_briefly(&sc, size, RUN_FOR, MAX_EVENTS, "fuzz_scenario",
				 char_refs(data, size));
	scenario_free(&sc);
	return 0;
}
