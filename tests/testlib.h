/*
 * What the unit tests share: a scenario read from a string, a host built
 * from one under a scheduler spec, a whole run of one, each aborting the
 * test (with the loader's, builder's or run's message) when the text or
 * the spec is wrong; and timer callbacks that pause and unpause a vCPU
 * from Xen's side.  Included by tests/check_*.c after <check.h>;
 * everything is static, so each test program has its own copy.
 */
#ifndef SCHEDSIM_TESTS_TESTLIB_H
#define SCHEDSIM_TESTS_TESTLIB_H

#include <stdio.h>
#include <string.h>

#include "sim/experiment/build.h"
#include "sim/experiment/run.h"
#include "sim/input/scenario_load.h"
#include "workloads/guest.h"

/* Reads scenario text xml into sc (freed by the caller). */
static inline void test_load(struct scenario *sc, const char *xml)
{
	struct err e = { "" };

	if (scenario_load_memory(xml, (int)strlen(xml), "test.xml", sc, &e) < 0)
		ck_abort_msg("scenario: %s", e.msg);
}

/* Builds scenario text xml under the spec sched; sc is the caller's to free. */
static inline struct sim *test_build(struct scenario *sc, const char *xml, const char *sched)
{
	struct sched_spec spec;
	struct err e = { "" };
	struct sim *s;

	test_load(sc, xml);
	if (sched_spec_parse(sched, &spec, &e) < 0)
		ck_abort_msg("spec %s: %s", sched, e.msg);
	s = sim_build(sc, &spec, &e);
	if (!s)
		ck_abort_msg("build: %s", e.msg);
	sched_spec_free(&spec);
	return s;
}

/*
 * A one-second scenario of a <host> element and domain elements, built
 * under sched, with the clock at 1 s: the hand-built states of the
 * schedulers' decision tests.
 */
static inline struct sim *test_build_host(const char *host_xml, const char *doms_xml,
					  const char *sched)
{
	char xml[2048];
	struct scenario sc;
	struct sim *s;
	int n = snprintf(xml, sizeof(xml), "<scenario duration=\"1s\">%s%s</scenario>",
			 host_xml, doms_xml);

	ck_assert_msg(n > 0 && (size_t)n < sizeof(xml), "test scenario too long");
	s = test_build(&sc, xml, sched);
	scenario_free(&sc);
	s->q.now = SEC(1);
	return s;
}

/*
 * Runs scenario text xml under the spec sched with the options o into r
 * (freed by the caller with run_result_free).  What the invariant checker
 * found is left in r->check_error for the caller to judge.
 */
static inline void test_run(const char *xml, const char *sched, const struct run_options *o,
			    struct run_result *r)
{
	struct scenario sc;
	struct sched_spec spec;
	struct err e = { "" };

	test_load(&sc, xml);
	if (sched_spec_parse(sched, &spec, &e) < 0)
		ck_abort_msg("spec %s: %s", sched, e.msg);
	if (run_scenario(&sc, &spec, o, r, &e) < 0)
		ck_abort_msg("run: %s", e.msg);
	sched_spec_free(&spec);
	scenario_free(&sc);
}

/* Timer callbacks: Xen takes the vCPU arg off its pCPU (paused), or gives it back. */
static inline void test_pause_vcpu(struct timer *t, void *arg)
{
	struct vcpu *v = arg;

	(void)t;
	vcpu_pause_nosync(v->dom->guest->sim, v);
}

static inline void test_unpause_vcpu(struct timer *t, void *arg)
{
	struct vcpu *v = arg;

	(void)t;
	vcpu_unpause(v->dom->guest->sim, v);
}

#endif
