/*
 * cpupools and sched-gran (sim/engine/cpupool.c, the unit paths of
 * sim/engine/core.c): pools keep their domains on their pCPUs under their own
 * scheduler, a domain's vCPUs form units of the pool's granularity on the
 * threads of one core, and the invariant checker catches two domains on the
 * threads of one core under sched-gran=core.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "schedulers/sched.h"
#include "sim/engine/cpupool.h"
#include "sim/experiment/build.h"
#include "sim/input/scenario_load.h"
#include "tests/testlib.h"

static struct sim *build(const char *xml, const char *sched, struct scenario *sc)
{
	struct sim *s = test_build(sc, xml, sched);

	s->check = true;
	return s;
}

static void done(struct sim *s, struct scenario *sc)
{
	sim_destroy(s);
	scenario_free(sc);
}

/* Two domains of four hogs on four cores of two threads. */
static const char two_guests[] =
	"<scenario duration=\"1s\">"
	"<host sockets=\"1\" cores-per-socket=\"4\" threads-per-core=\"2\"/>"
	"<domain name=\"a\" vcpus=\"4\"><workload type=\"cpu-hog\"/></domain>"
	"<domain name=\"b\" vcpus=\"3\"><workload type=\"cpu-hog\"/></domain>"
	"</scenario>";

START_TEST(gran_cpu_units_are_the_vcpus)
{
	struct scenario sc;
	struct sim *s = build(two_guests, "credit2", &sc);
	int i;

	ck_assert_int_eq(s->nr_pools, 1);
	ck_assert_int_eq(s->pools[0]->sched_gran, 1);
	ck_assert_ptr_eq(s->domains[0]->units, s->domains[0]->vcpus);
	sim_run_until(s, MSEC(20));
	ck_assert_str_eq(s->check_error, "");
	for (i = 0; i < s->nr_cpus; i++)
		ck_assert_ptr_eq(s->pcpus[i].unit, s->pcpus[i].curr);
	done(s, &sc);
}
END_TEST

/* Units of two vCPUs (the last of b's with one), each on the two threads of one core. */
START_TEST(gran_core_units_hold_siblings)
{
	struct scenario sc;
	struct sim *s = build(two_guests, "credit1:gran=core", &sc);
	struct domain *b = s->domains[1];
	int d, k, i;

	ck_assert_int_eq(s->pools[0]->sched_gran, 2);
	ck_assert_int_eq(s->pools[0]->nr_res, 4);
	ck_assert_int_eq(s->domains[0]->nr_units, 2);
	ck_assert_int_eq(b->nr_units, 2);
	ck_assert_int_eq(b->units[1]->nr_members, 1);
	sim_run_until(s, MSEC(200));
	ck_assert_str_eq(s->check_error, "");
	for (d = 0; d < 2; d++)
		for (k = 0; k < s->domains[d]->nr_units; k++) {
			const struct vcpu *u = s->domains[d]->units[k];

			ck_assert_int_eq(u->processor % 2, 0);         /* a core's master */
			for (i = 0; i < u->nr_members; i++)
				ck_assert_int_eq(u->members[i]->processor, u->processor + i);
		}
	/* b's single-vCPU unit leaves its core's second thread idle. */
	for (i = 0; i < s->nr_cpus; i++)
		if (s->pcpus[i].unit == b->units[1])
			ck_assert(i % 2 == 0 || is_idle_vcpu(s->pcpus[i].curr));
	done(s, &sc);
}
END_TEST

/*
 * The checker is not a check that cannot fail: swap a vCPU of one domain
 * onto a thread whose sibling runs the other domain.
 */
START_TEST(checker_catches_two_domains_on_one_core)
{
	struct scenario sc;
	struct sim *s = build(two_guests, "credit2:gran=core", &sc);
	int c0 = -1, x = -1, i;
	struct vcpu *v1, *w;

	sim_run_until(s, MSEC(50));
	ck_assert_str_eq(s->check_error, "");
	ck_assert(sim_check_invariants(s));
	/* The first core with both threads busy, and a later thread of another domain. */
	for (i = 0; i + 1 < s->nr_cpus && c0 < 0; i += 2)
		if (!is_idle_vcpu(s->pcpus[i].curr) && !is_idle_vcpu(s->pcpus[i + 1].curr))
			c0 = i;
	ck_assert_int_ge(c0, 0);
	for (i = c0 + 2; i < s->nr_cpus && x < 0; i++)
		if (!is_idle_vcpu(s->pcpus[i].curr) &&
		    s->pcpus[i].curr->dom != s->pcpus[c0].curr->dom)
			x = i;
	ck_assert_int_ge(x, 0);
	v1 = s->pcpus[c0 + 1].curr;
	w = s->pcpus[x].curr;
	s->pcpus[c0 + 1].curr = w;
	w->processor = c0 + 1;
	s->pcpus[x].curr = v1;
	v1->processor = x;
	ck_assert(!sim_check_invariants(s));
	ck_assert_msg(strstr(s->check_error, "two domains run on threads of one core"), "%s",
		      s->check_error);
	s->pcpus[c0 + 1].curr = v1;
	v1->processor = c0 + 1;
	s->pcpus[x].curr = w;
	w->processor = x;
	s->check_error[0] = '\0';
	ck_assert(sim_check_invariants(s));
	done(s, &sc);
}
END_TEST

/*
 * The rendezvous out (Xen's sched_context_switched): when one vCPU of a
 * running unit blocks, the rendezvous keeps the unit and that thread
 * switches to its idle vCPU; its sibling keeps its vCPU but resumes guest
 * code only when that switch is done.  Both switches of the sleeper's
 * thread, to idle and back to the vCPU whose state it still holds, are
 * lazy in Xen (context_switch skips __context_switch), so with a 500 us
 * context switch the hog beside a vCPU that blocks 750 times loses none
 * of its second (before the lazy switch it lost 375 ms, 500 us a block).
 */
START_TEST(rendezvous_out_of_lazy_switches_costs_nothing)
{
	static const char xml[] =
		"<scenario duration=\"1s\" seed=\"1\">"
		"<host sockets=\"1\" cores-per-socket=\"1\" threads-per-core=\"2\" hw=\"ideal\""
		" context-switch=\"500us\"/>"
		"<domain name=\"a\" vcpus=\"2\"><workload type=\"cpu-hog\" tasks=\"1\"/>"
		"<workload type=\"phases\"><phase run=\"200us\" sleep=\"2ms\"/></workload>"
		"</domain></scenario>";
	struct scenario sc;
	struct sim *s = build(xml, "credit2:gran=core", &sc);
	struct vcpu *hog, *sleeper;
	long long blocks;

	sim_run_until(s, SEC(1));
	ck_assert_str_eq(s->check_error, "");
	hog = s->domains[0]->vcpus[0];
	sleeper = s->domains[0]->vcpus[1];
	blocks = (long long)sleeper->st.wake_latency.count;
	ck_assert_int_ge(blocks, 500);
	ck_assert_int_le(hog->st.context_switches, 2);         /* it never left its thread */
	/* only the first loads of the two vCPUs' states cost (a few of 500 us) */
	ck_assert_msg(hog->st.hw.work_ns >= SEC(1) - 10 * USEC(500),
		      "hog worked %lld ns beside %lld blocks", (long long)hog->st.hw.work_ns,
		      blocks);
	done(s, &sc);
}
END_TEST

/* Pool-0 under --sched's credit2, p1 under null: each domain only on its pool's pCPUs. */
START_TEST(pools_keep_their_domains)
{
	static const char xml[] =
		"<scenario duration=\"1s\">"
		"<host sockets=\"1\" cores-per-socket=\"8\" threads-per-core=\"1\"/>"
		"<pool name=\"p1\" cpus=\"6-7\" sched=\"null\"/>"
		"<domain name=\"dom0\" vcpus=\"8\"><workload type=\"cpu-hog\"/></domain>"
		"<domain name=\"g\" vcpus=\"3\" pool=\"p1\"><workload type=\"cpu-hog\"/></domain>"
		"</scenario>";
	struct scenario sc;
	struct sim *s = build(xml, "credit2", &sc);
	struct domain *dom0 = s->domains[0], *g = s->domains[1];
	int i, ran = 0;

	ck_assert_int_eq(s->nr_pools, 2);
	ck_assert_str_eq(dom0->pool->sched->ops->name, "credit2");
	ck_assert_str_eq(g->pool->sched->ops->name, "null");
	sim_run_until(s, MSEC(300));
	sim_account_all(s);
	ck_assert_str_eq(s->check_error, "");
	for (i = 0; i < dom0->nr_vcpus; i++) {
		ck_assert(cpumask_subset(dom0->vcpus[i]->st.pcpus, dom0->pool->cpu_valid));
		ck_assert(!cpumask_test(dom0->vcpus[i]->st.pcpus, 6));
	}
	/* null: two of g's three vCPUs own pCPUs 6 and 7, the third waits. */
	for (i = 0; i < g->nr_vcpus; i++) {
		ck_assert(cpumask_subset(g->vcpus[i]->st.pcpus, g->pool->cpu_valid));
		ran += g->vcpus[i]->st.runstate_ns[RUNSTATE_RUNNING] > MSEC(290);
	}
	ck_assert_int_eq(ran, 2);
	done(s, &sc);
}
END_TEST

/* Errors at build time name the file and line of the <pool>. */
START_TEST(pool_errors)
{
	static const struct { const char *xml, *sched, *msg; } bad[] = {
		{ "<pool name=\"p\" cpus=\"3-7\" sched=\"credit2:gran=core\"/><domain name=\"a\"/>",
		  "credit2", "test.xml:1: cpupool p has sched-gran=core and pCPU 3, but pCPU 2 of the "
		  "same core is in Pool-0 (a pool takes whole cores)" },
		{ "<pool name=\"p\" cpus=\"0-1\"/><domain name=\"a\"/>", "credit2",
		  "test.xml:1: cpupool p takes pCPU 0, which must stay in Pool-0" },
		{ "<pool name=\"p\" cpus=\"2-5\"/><pool name=\"q\" cpus=\"4-7\"/><domain name=\"a\"/>",
		  "credit2", "test.xml:1: cpupools p and q both take pCPUs 4-5 (a pCPU is in one pool)" },
		{ "<pool name=\"p\" cpus=\"4-7\"/><domain name=\"a\" pool=\"p\"><affinity hard=\"0-3\"/></domain>",
		  "credit2", "hard affinity 0-3 of a vCPU 0 holds no pCPU that p's scheduler sees (4-7)" },
		{ "<domain name=\"a\"><affinity hard=\"1\"/></domain>", "credit2:gran=core",
		  "holds no pCPU that Pool-0's scheduler sees (0,2,4,6: the first thread of each "
		  "scheduling resource)" },
		{ "<domain name=\"a\" vcpus=\"2\"><vcpu id=\"1\" hard=\"2-3\"/></domain>",
		  "credit2:gran=core", "a vCPUs 0 and 1 form one scheduling unit (sched-gran=core), "
		  "so they need the same hard and soft affinity" },
		{ "<pool name=\"p\" cpus=\"4-7\" sched=\"credit2:gran=thread\"/><domain name=\"a\"/>",
		  "credit2", "test.xml:1: credit2: gran: 'thread' is not one of cpu|core|socket" },
	};
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char xml[1024];
		struct scenario sc;
		struct sched_spec spec;
		struct err e = { "" };

		snprintf(xml, sizeof(xml), "<scenario duration=\"1s\"><host sockets=\"1\" "
			 "cores-per-socket=\"4\" threads-per-core=\"2\"/>%s</scenario>",
			 bad[i].xml);
		if (scenario_load_memory(xml, (int)strlen(xml), "test.xml", &sc, &e) < 0)
			ck_abort_msg("scenario %u: %s", i, e.msg);
		ck_assert_int_eq(sched_spec_parse(bad[i].sched, &spec, &e), 0);
		ck_assert_ptr_null(sim_build(&sc, &spec, &e));
		ck_assert_msg(strstr(e.msg, bad[i].msg), "%u: %s", i, e.msg);
		sched_spec_free(&spec);
		scenario_free(&sc);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cpupool");
	TCase *tc = tcase_create("cpupool");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, gran_cpu_units_are_the_vcpus);
	tcase_add_test(tc, gran_core_units_hold_siblings);
	tcase_add_test(tc, checker_catches_two_domains_on_one_core);
	tcase_add_test(tc, rendezvous_out_of_lazy_switches_costs_nothing);
	tcase_add_test(tc, pools_keep_their_domains);
	tcase_add_test(tc, pool_errors);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
