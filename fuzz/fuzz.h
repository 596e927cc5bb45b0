/*
 * Shared by the libFuzzer harnesses (fuzz/fuzz_*.c) and the plain-C corpus
 * replayer (fuzz/replay.c).  Each harness is one LLVMFuzzerTestOneInput();
 * clang links it with libFuzzer for `make fuzz`, and the normal compiler
 * links the very same function with replay.c so that `make check` feeds
 * it every file of the seed corpus.  A harness reports a problem by
 * aborting, which both libFuzzer and the test driver see as a failure.
 */
#ifndef SCHEDSIM_FUZZ_H
#define SCHEDSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedulers/sched.h"
#include "sim/err.h"
#include "sim/experiment/build.h"
#include "sim/params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Every rejected input must say why, on one line.  Known and reported
 * (fuzz/known-bugs/README.md): the parsers quote the offending text as is,
 * so a value with a line break in it gives a message with one.  A harness
 * passes echo = true when its input could carry such a value; the break
 * is then tolerated (unless FUZZ_STRICT_ONE_LINE is defined) so that the
 * fuzzers keep looking for other problems.
 */
static inline void fuzz_check_error(const struct err *e, const char *what, int echo)
{
	int broken = strpbrk(e->msg, "\n\r") != NULL;

#ifndef FUZZ_STRICT_ONE_LINE
	if (echo)
		broken = 0;
#endif
	if (!e->msg[0] || broken) {
		fprintf(stderr, "%s: error message empty or not one line: '%s'\n",
			what, e->msg);
		abort();
	}
}

static inline int fuzz_has_break(const char *s)
{
	return strpbrk(s, "\n\r") != NULL;
}

/* The input as a C string (the parsers take text). */
static inline char *fuzz_cstring(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * One of the scheduler models, chosen by pick, parsed into spec: the models
 * only, so that the choice does not depend on which Xen trees the build has
 * (their code, xen-*@TREE, has fuzz_xen_diff).
 */
static inline void fuzz_model_spec(size_t pick, struct sched_spec *spec)
{
	const struct sched_ops *const *all = sched_all();
	const char *models[64];
	struct err e = { "" };
	int n = 0;

	for (int k = 0; all[k] && n < 64; k++)
		if (!strchr(all[k]->name, '@'))
			models[n++] = all[k]->name;
	if (sched_spec_parse(models[pick % (size_t)n], spec, &e) < 0)
		abort();
}

/*
 * Builds sc under the model pick chooses and runs it under the invariant
 * checker until run_for (or the scenario's end) or max_events, whichever
 * comes first: a refused build must say why on one line, a broken
 * invariant aborts.  who names the harness in its messages.
 */
static inline void fuzz_run_briefly(const struct scenario *sc, size_t pick, stime_t run_for,
				    uint64_t max_events, const char *who, int echo)
{
	struct sched_spec spec;
	struct err e = { "" };
	struct sim *s;
	stime_t end = sc->duration < run_for ? sc->duration : run_for;

	fuzz_model_spec(pick, &spec);
	s = sim_build(sc, &spec, &e);
	if (!s) {
		char what[64];

		snprintf(what, sizeof(what), "%s: sim_build", who);
		fuzz_check_error(&e, what, echo);
		sched_spec_free(&spec);
		return;
	}
	s->check = true;
	while (sim_now(s) < end && s->q.fired < max_events && !s->check_error[0] &&
	       !s->stop_requested)
		sim_run_until(s, sim_now(s) + USEC(100) < end ? sim_now(s) + USEC(100) : end);
	if (s->check_error[0]) {
		fprintf(stderr, "%s: %s: invariant violated: %s\n", who, spec.name,
			s->check_error);
		abort();
	}
	sim_destroy(s);
	sched_spec_free(&spec);
}

#endif
