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

/*
 * A 100-second scenario of one domain, "bm", of vcpus vCPUs and type type
 * (native, hvm, pv) on an 8-CPU ideal host with free context switches,
 * running a workload of type workload with the attributes off (those that
 * turn the workload's own noise or costs off) and params: the workloads' hand-timed
 * tests.  The text is in a buffer of this function's, valid until the next
 * call.
 */
static inline const char *test_ideal_xml(const char *type, int vcpus, const char *workload,
					 const char *off, const char *params)
{
	static char xml[1024];
	int n = snprintf(xml, sizeof(xml),
			 "<scenario duration=\"100s\">"
			 "<host sockets=\"1\" cores-per-socket=\"8\" hw=\"ideal\" context-switch=\"0\"/>"
			 "<domain name=\"bm\" vcpus=\"%d\" type=\"%s\">"
			 "<workload type=\"%s\" %s %s/>"
			 "</domain></scenario>", vcpus, type, workload, off, params);

	ck_assert_msg(n > 0 && (size_t)n < sizeof(xml), "test scenario too long");
	return xml;
}

/*
 * The figure of a run of scenario text xml under the null scheduler (one
 * vCPU per pCPU) with the invariant checker: an elapsed time, lower better,
 * in s.
 */
static inline double test_elapsed_null(const char *xml)
{
	struct run_options o = { .check = true };
	struct run_result r;
	double v;

	test_run(xml, "null", &o, &r);
	ck_assert_msg(r.check_error[0] == '\0', "invariant: %s", r.check_error);
	ck_assert_msg(r.metric.valid, "no metric");
	ck_assert_str_eq(r.metric.name, "elapsed");
	ck_assert(!r.metric.higher_better);
	v = r.metric.value;
	run_result_free(&r);
	return v;
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
