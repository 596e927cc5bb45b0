/*
 * Fuzz target: the scheduler-spec parser ("credit2:runqueue=core:...",
 * sim/params.c) and, for a spec that names a registered scheduler, the
 * parameter tables behind it: every value the parser passes on must be
 * either refused with a one-line message or accepted by the scheduler's
 * init on a small host.  The first byte picks nothing special; the whole
 * input is the spec, as a user would type it after --sched=.
 */
#include "fuzz/fuzz.h"

#include "schedulers/sched.h"
#include "sim/experiment/run.h"
#include "sim/input/scenario_load.h"
#include "sim/params.h"

/* 4 pCPUs in 2 cores, one cpu-hog domain: enough for init and a few ticks. */
static const char small_host[] =
	"<scenario duration=\"2ms\">"
	"<host sockets=\"1\" cores-per-socket=\"2\" threads-per-core=\"2\"/>"
	"<domain name=\"d\" vcpus=\"3\"><workload type=\"cpu-hog\"/></domain>"
	"</scenario>";

static void try_run(const struct sched_spec *spec)
{
	struct run_options o = { .check = true };
	struct scenario sc;
	struct run_result r;
	struct err e = { "" };

	if (scenario_load_memory(small_host, (int)strlen(small_host), "<fuzz>", &sc, &e) < 0) {
		fprintf(stderr, "fuzz_sched_spec: built-in scenario: %s\n", e.msg);
		abort();
	}
	if (run_scenario(&sc, spec, &o, &r, &e) < 0) {
		fuzz_check_error(&e, "fuzz_sched_spec: run", fuzz_has_break(spec->text));
	} else {
		if (r.check_error[0]) {
			fprintf(stderr, "fuzz_sched_spec: '%s': invariant violated: %s\n",
				spec->text, r.check_error);
			abort();
		}
		run_result_free(&r);
	}
	scenario_free(&sc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sched_spec spec;
	struct err e = { "" };
	char *s;

	if (size > 4096)
		return 0;
	s = fuzz_cstring(data, size);
	if (sched_spec_parse(s, &spec, &e) < 0) {
		fuzz_check_error(&e, "fuzz_sched_spec: parse", fuzz_has_break(s));
	} else {
		if (strlen(spec.name) == 0 || strncmp(s, spec.name, strlen(spec.name)) != 0) {
			fprintf(stderr, "fuzz_sched_spec: name '%s' not a prefix of '%s'\n",
				spec.name, s);
			abort();
		}
		if (sched_find(spec.name))
			try_run(&spec);
		sched_spec_free(&spec);
	}
	free(s);
	return 0;
}
