/*
 * Unit tests of the null scheduler model's eras on small hand-built
 * states.  The test includes schedulers/null.c so that it can reach the
 * private state (which vCPU holds which pCPU, the wait queue).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "schedulers/null.c"
#include "sim/experiment/build.h"
#include "sim/input/scenario_load.h"

static const char *HOST2 =
	"<scenario duration='1s'>"
	"<host sockets='1' cores-per-socket='2' threads-per-core='1' nodes='1'/>"
	"<domain name='a' vcpus='3'/>"
	"</scenario>";

struct fx {
	struct scenario sc;
	struct sim *s;
};

static void fx_build(struct fx *f, const char *spec)
{
	struct sched_spec sp;
	struct err e;

	memset(f, 0, sizeof(*f));
	memset(&sp, 0, sizeof(sp));
	ck_assert_msg(scenario_load_memory(HOST2, (int)strlen(HOST2), "test", &f->sc, &e) == 0,
		      "%s", e.msg);
	ck_assert_msg(sched_spec_parse(spec, &sp, &e) == 0, "%s", e.msg);
	f->s = sim_build(&f->sc, &sp, &e);
	ck_assert_msg(f->s != NULL, "%s", e.msg);
	sched_spec_free(&sp);
}

static void fx_free(struct fx *f)
{
	sim_destroy(f->s);
	scenario_free(&f->sc);
}

/*
 * vCPUs 0 and 1 hold pCPUs 0 and 1, vCPU 2 waits.  vCPU 0 goes offline:
 * since d545f1d6c2 (4.17) its pCPU passes to the waiter; before (2017) it
 * keeps it and the waiter goes on waiting.
 */
static void offline(const char *spec, bool handed_over)
{
	struct fx f;
	struct vcpu *v0, *v2;

	fx_build(&f, spec);
	v0 = f.s->domains[0]->vcpus[0];
	v2 = f.s->domains[0]->vcpus[2];
	ck_assert_ptr_eq(null_pcpu(f.s->sched, 0)->unit, v0);
	ck_assert(null_unit(v2)->in_waitq);
	v0->pause_flags |= VPF_DOWN;
	null_sleep(f.s->sched, v0);
	ck_assert_ptr_eq(null_pcpu(f.s->sched, 0)->unit, handed_over ? v2 : v0);
	ck_assert_int_eq(null_unit(v2)->in_waitq, !handed_over);
	fx_free(&f);
}

START_TEST(test_offline_deassign)
{
	offline("null", true);
	offline("null:era=4.17", true);
	offline("null:era=2017", false);
	offline("null:era=2017:offline_deassign=on", true);
	offline("null:offline_deassign=off", false);
}
END_TEST

START_TEST(test_bad_era)
{
	struct sched_spec sp;
	struct err e;
	struct scenario sc;

	memset(&sp, 0, sizeof(sp));
	ck_assert(scenario_load_memory(HOST2, (int)strlen(HOST2), "test", &sc, &e) == 0);
	ck_assert(sched_spec_parse("null:era=2016", &sp, &e) == 0);
	ck_assert_ptr_null(sim_build(&sc, &sp, &e));
	ck_assert_msg(strstr(e.msg, "2017|4.17|4.22|current") != NULL, "%s", e.msg);
	sched_spec_free(&sp);
	scenario_free(&sc);
}
END_TEST

static Suite *null_suite(void)
{
	Suite *s = suite_create("null");
	TCase *tc = tcase_create("eras");

	tcase_add_test(tc, test_offline_deassign);
	tcase_add_test(tc, test_bad_era);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(null_suite());
}
