/*
 * What the unit tests share: a scenario read from a string, and a host
 * built from one under a scheduler spec, each aborting the test (with the
 * loader's or builder's message) when the text or the spec is wrong.
 * Included by tests/check_*.c after <check.h>; everything is static, so
 * each test program has its own copy.
 */
#ifndef SCHEDSIM_TESTS_TESTLIB_H
#define SCHEDSIM_TESTS_TESTLIB_H

#include <stdio.h>
#include <string.h>

#include "sim/experiment/build.h"
#include "sim/input/scenario_load.h"

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

#endif
