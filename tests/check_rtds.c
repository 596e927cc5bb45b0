/*
 * RTDS unit tests: the deadline and budget arithmetic, the queues, the
 * pick, tickling, wake, the replenishment timer and the era switches, on
 * small hand-built states.  A host is built from a scenario without
 * workloads (every vCPU starts blocked, nothing runs; insert at t=0 gave
 * each vCPU deadline = period and a full budget), then the test puts vCPUs
 * on pCPUs or queues by hand and calls the functions.  Expected values are
 * worked out from Xen's rt.c; the arithmetic is spelled out beside each
 * assertion.
 */
#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "schedulers/rtds.h"
#include "sim/engine/scenario.h"
#include "sim/experiment/build.h"
#include "tests/testlib.h"

static const struct rtds_internals *I = &rtds_internals;

struct host {
	struct sim *s;
	struct scheduler *ops;
	struct rt_private *prv;
};

static struct host mk(const char *host_xml, const char *doms_xml, const char *sched)
{
	struct host h;

	h.s = test_build_host(host_xml, doms_xml, sched);
	h.ops = h.s->sched;
	h.prv = rt_priv(h.ops);
	return h;
}

/* On the full-speed machine (hw="ideal"): no C-state exits in the tickles. */
static const char host1[] = "<host sockets=\"1\" cores-per-socket=\"1\" hw=\"ideal\"/>";
static const char host2[] = "<host sockets=\"1\" cores-per-socket=\"2\" hw=\"ideal\"/>";
static const char host4[] = "<host sockets=\"1\" cores-per-socket=\"4\" hw=\"ideal\"/>";

static struct vcpu *V(struct host *h, int d, int i)
{
	return h->s->domains[d]->vcpus[i];
}

static struct rt_unit *SVC(struct host *h, int d, int i)
{
	return rt_unit(V(h, d, i));
}

static stime_t now(struct host *h)
{
	return sim_now(h->s);
}

static bool on_runq(struct host *h, struct rt_unit *svc)
{
	struct sched_list *it;

	list_for_each(it, &h->prv->runq)
		if (it == &svc->q_elem)
			return true;
	return false;
}

static bool on_depletedq(struct host *h, struct rt_unit *svc)
{
	struct sched_list *it;

	list_for_each(it, &h->prv->depletedq)
		if (it == &svc->q_elem)
			return true;
	return false;
}

static bool on_replq(struct rt_unit *svc)
{
	return !list_empty(&svc->replq_elem);
}

/* The i-th unit of a queue (runq or replq through its member). */
static struct rt_unit *runq_at(struct host *h, int i)
{
	struct sched_list *it;

	list_for_each(it, &h->prv->runq)
		if (i-- == 0)
			return list_entry(it, struct rt_unit, q_elem);
	return NULL;
}

static struct rt_unit *replq_at(struct host *h, int i)
{
	struct sched_list *it;

	list_for_each(it, &h->prv->replq)
		if (i-- == 0)
			return list_entry(it, struct rt_unit, replq_elem);
	return NULL;
}

/* v runs on cpu since now, with budget left and the given deadline. */
static void run_on(struct host *h, struct vcpu *v, int cpu, stime_t budget_left, stime_t deadline)
{
	struct rt_unit *svc = rt_unit(v);

	v->pause_flags = 0;
	v->processor = cpu;
	v->is_running = true;
	h->s->pcpus[cpu].curr = h->s->pcpus[cpu].unit = v;
	svc->flags |= RTDS_scheduled;
	svc->cur_budget = budget_left;
	svc->cur_deadline = deadline;
	svc->last_start = now(h);
	if (!on_replq(svc))
		I->replq_insert(h->prv, svc);
}

/* v waits, assigned to cpu, with budget left and the given deadline. */
static void queue(struct host *h, struct vcpu *v, int cpu, stime_t budget_left, stime_t deadline)
{
	struct rt_unit *svc = rt_unit(v);

	v->pause_flags = 0;
	v->processor = cpu;
	svc->cur_budget = budget_left;
	svc->cur_deadline = deadline;
	I->replq_insert(h->prv, svc);
	I->runq_insert(h->prv, svc);
}

static bool tickled(struct host *h, int cpu)
{
	return cpumask_test(h->prv->tickled, (unsigned)cpu);
}

static struct sched_decision schedule_on(struct host *h, int cpu)
{
	struct sched_decision d = { NULL, -1, false };

	h->s->this_cpu = cpu;
	h->ops->ops->do_schedule(h->ops, h->s->pcpus[cpu].curr, now(h), false, &d);
	return d;
}

/* --- parameters --- */

START_TEST(defaults_and_scenario_parameters)
{
	struct host h = mk(host1,
			   "<domain name=\"a\" vcpus=\"3\" period=\"20ms\" extratime=\"off\">"
			   "<vcpu id=\"1\" budget=\"7ms\"/><vcpu id=\"2\" period=\"1ms\" budget=\"500us\" "
			   "extratime=\"on\"/></domain><domain name=\"b\"/>", "rtds");

	/* a: period 20 ms, budget RTDS_DEFAULT_BUDGET, no extratime. */
	ck_assert_int_eq(SVC(&h, 0, 0)->period, MSEC(20));
	ck_assert_int_eq(SVC(&h, 0, 0)->budget, MSEC(4));
	ck_assert(!(SVC(&h, 0, 0)->flags & RTDS_extratime));
	/* vCPU 1 overrides the budget only; vCPU 2 everything. */
	ck_assert_int_eq(SVC(&h, 0, 1)->period, MSEC(20));
	ck_assert_int_eq(SVC(&h, 0, 1)->budget, MSEC(7));
	ck_assert(!(SVC(&h, 0, 1)->flags & RTDS_extratime));
	ck_assert_int_eq(SVC(&h, 0, 2)->period, MSEC(1));
	ck_assert_int_eq(SVC(&h, 0, 2)->budget, USEC(500));
	ck_assert(SVC(&h, 0, 2)->flags & RTDS_extratime);
	/* b: Xen's alloc_udata defaults, 10 ms / 4 ms / extratime. */
	ck_assert_int_eq(SVC(&h, 1, 0)->period, MSEC(10));
	ck_assert_int_eq(SVC(&h, 1, 0)->budget, MSEC(4));
	ck_assert(SVC(&h, 1, 0)->flags & RTDS_extratime);
	/* Inserted at t=0 (rt_unit_insert: now >= cur_deadline 0): a first period. */
	ck_assert_int_eq(SVC(&h, 0, 0)->cur_deadline, MSEC(20));
	ck_assert_int_eq(SVC(&h, 0, 2)->cur_deadline, MSEC(1));
	ck_assert_int_eq(SVC(&h, 0, 1)->cur_budget, MSEC(7));
	/* Blocked at creation: on no queue. */
	ck_assert(!on_replq(SVC(&h, 0, 0)) && list_empty(&h.prv->runq));
	sim_destroy(h.s);
}
END_TEST

START_TEST(check_params_is_putvcpuinfo)
{
	struct err e = { "" };

	ck_assert_int_eq(rtds_check_params(MSEC(10), MSEC(4), &e), 0);
	ck_assert_int_eq(rtds_check_params(USEC(10), USEC(10), &e), 0);
	ck_assert_int_eq(rtds_check_params(MSEC(5), MSEC(6), &e), -1);
	ck_assert_str_eq(e.msg, "budget 6ms is more than the period 5ms (RTDS needs budget <= period)");
	ck_assert_int_eq(rtds_check_params(MSEC(5), USEC(9), &e), -1);
	ck_assert_str_eq(e.msg, "budget 9us is below RTDS's minimum of 10us");
	ck_assert_int_eq(rtds_check_params(USEC(9), USEC(9), &e), -1);
	ck_assert(strstr(e.msg, "period 9us is out of range 10us.."));
	ck_assert_int_eq(rtds_check_params(MSEC(5), 1500, &e), -1);
	ck_assert(strstr(e.msg, "whole microseconds"));
	ck_assert_int_eq(rtds_check_params(RTDS_MAX_PARAM + USEC(1), MSEC(1), &e), -1);
}
END_TEST

/* --- arithmetic --- */

START_TEST(update_deadline_moves_by_whole_periods)
{
	struct host h = mk(host1, "<domain name=\"a\"/>", "rtds");
	struct rt_unit *svc = SVC(&h, 0, 0);

	/* 10 + 10k > 35: 40 ms; full budget, level 0, burning from now. */
	svc->cur_deadline = MSEC(10);
	svc->cur_budget = 5;
	svc->priority_level = 3;
	I->update_deadline(MSEC(35), svc);
	ck_assert_int_eq(svc->cur_deadline, MSEC(40));
	ck_assert_int_eq(svc->cur_budget, MSEC(4));
	ck_assert_uint_eq(svc->priority_level, 0);
	ck_assert_int_eq(svc->last_start, MSEC(35));
	/* At the deadline exactly: the next one. */
	I->update_deadline(MSEC(40), svc);
	ck_assert_int_eq(svc->cur_deadline, MSEC(50));
	/* More than 2^10 periods behind: one multiplication, (20 ms / 10 us) + 1 periods. */
	svc->period = USEC(10);
	svc->cur_deadline = 0;
	I->update_deadline(MSEC(20), svc);
	ck_assert_int_eq(svc->cur_deadline, MSEC(20) + USEC(10));
	sim_destroy(h.s);
}
END_TEST

START_TEST(priority_is_level_then_deadline)
{
	struct rt_unit a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.cur_deadline = MSEC(20);
	b.cur_deadline = MSEC(10);
	ck_assert(I->compare_unit_priority(&a, &b) < 0);   /* later deadline: lower */
	ck_assert(I->compare_unit_priority(&b, &a) > 0);
	b.priority_level = 1;                              /* extra time loses to any budget */
	ck_assert(I->compare_unit_priority(&a, &b) > 0);
	b.priority_level = 0;
	b.cur_deadline = MSEC(20);
	ck_assert(I->compare_unit_priority(&a, &b) == 0);
}
END_TEST

START_TEST(burn_budget_extratime_and_depletion)
{
	struct host h = mk(host1, "<domain name=\"a\" vcpus=\"2\"><vcpu id=\"1\" extratime=\"off\"/>"
			   "</domain>", "rtds");
	struct rt_unit *x = SVC(&h, 0, 0), *n = SVC(&h, 0, 1);
	struct rt_unit *idle = rt_unit(h.s->pcpus[0].idle);

	x->cur_budget = MSEC(4);
	x->last_start = now(&h) - MSEC(1);
	I->burn_budget(h.prv, x, now(&h));
	ck_assert_int_eq(x->cur_budget, MSEC(3));
	ck_assert_int_eq(x->last_start, now(&h));
	/* Used up with extratime: a fresh budget one level down. */
	x->last_start = now(&h) - MSEC(3);
	I->burn_budget(h.prv, x, now(&h));
	ck_assert_uint_eq(x->priority_level, 1);
	ck_assert_int_eq(x->cur_budget, MSEC(4));
	ck_assert(!(x->flags & RTDS_depleted));
	/* Without: nothing left, depleted. */
	n->cur_budget = MSEC(1);
	n->last_start = now(&h) - MSEC(2);
	I->burn_budget(h.prv, n, now(&h));
	ck_assert_int_eq(n->cur_budget, 0);
	ck_assert(n->flags & RTDS_depleted);
	/* A clock behind last_start only moves last_start. */
	n->cur_budget = MSEC(1);
	n->last_start = now(&h) + 5;
	I->burn_budget(h.prv, n, now(&h));
	ck_assert_int_eq(n->cur_budget, MSEC(1));
	ck_assert_int_eq(n->last_start, now(&h));
	/* The idle unit has nothing to burn. */
	idle->last_start = 0;
	I->burn_budget(h.prv, idle, now(&h));
	ck_assert_int_eq(idle->last_start, 0);
	sim_destroy(h.s);
}
END_TEST

/* 410d44fcf3: current saturates priority_level; 4.17 wraps to 0, the highest. */
START_TEST(priority_level_saturates_only_in_current)
{
	const char *eras[] = { "rtds", "rtds:era=4.17" };
	const unsigned want[] = { UINT_MAX, 0 };

	for (int k = 0; k < 2; k++) {
		struct host h = mk(host1, "<domain name=\"a\"/>", eras[k]);
		struct rt_unit *x = SVC(&h, 0, 0);

		x->priority_level = UINT_MAX;
		x->cur_budget = 1;
		x->last_start = now(&h) - 1;
		I->burn_budget(h.prv, x, now(&h));
		ck_assert_uint_eq(x->priority_level, want[k]);
		sim_destroy(h.s);
	}
}
END_TEST

/* --- queues and pick --- */

START_TEST(runq_is_edf_fifo_among_equals_depleted_apart)
{
	struct host h = mk(host1, "<domain name=\"a\" vcpus=\"5\"><vcpu id=\"4\" extratime=\"off\"/>"
			   "</domain>", "rtds");

	queue(&h, V(&h, 0, 0), 0, MSEC(1), MSEC(1030));
	queue(&h, V(&h, 0, 1), 0, MSEC(1), MSEC(1020));
	queue(&h, V(&h, 0, 2), 0, MSEC(1), MSEC(1020));
	SVC(&h, 0, 3)->priority_level = 1;                 /* extra time: after all budgets */
	queue(&h, V(&h, 0, 3), 0, MSEC(1), MSEC(1005));
	queue(&h, V(&h, 0, 4), 0, 0, MSEC(1001));          /* no budget, no extratime */
	ck_assert_ptr_eq(runq_at(&h, 0), SVC(&h, 0, 1));
	ck_assert_ptr_eq(runq_at(&h, 1), SVC(&h, 0, 2));  /* equal deadline: behind v1 */
	ck_assert_ptr_eq(runq_at(&h, 2), SVC(&h, 0, 0));
	ck_assert_ptr_eq(runq_at(&h, 3), SVC(&h, 0, 3));
	ck_assert_ptr_null(runq_at(&h, 4));
	ck_assert(on_depletedq(&h, SVC(&h, 0, 4)));
	/* The replq holds all five; the timer is armed at its head's deadline. */
	ck_assert_ptr_eq(replq_at(&h, 0), SVC(&h, 0, 4));
	ck_assert_int_eq(h.prv->repl_timer.expires, MSEC(1001));
	sim_destroy(h.s);
}
END_TEST

START_TEST(runq_pick_skips_units_not_allowed_here)
{
	struct host h = mk(host2, "<domain name=\"a\" vcpus=\"2\"><vcpu id=\"0\" hard=\"1\"/></domain>",
			   "rtds");

	queue(&h, V(&h, 0, 0), 1, MSEC(1), MSEC(1010));
	queue(&h, V(&h, 0, 1), 0, MSEC(1), MSEC(1020));
	ck_assert_ptr_eq(I->runq_pick(h.prv, 0), SVC(&h, 0, 1));
	ck_assert_ptr_eq(I->runq_pick(h.prv, 1), SVC(&h, 0, 0));
	sim_destroy(h.s);
}
END_TEST

/* --- tickling --- */

START_TEST(tickle_idle_own_first_then_cycling)
{
	struct host h = mk(host4, "<domain name=\"a\" vcpus=\"3\"/>", "rtds");
	struct rt_unit *x = SVC(&h, 0, 0), *y = SVC(&h, 0, 1);

	V(&h, 0, 0)->processor = 2;
	I->runq_tickle(h.prv, x);
	ck_assert(tickled(&h, 2));
	ck_assert(timer_pending(&h.s->pcpus[2].softirq));
	/* pCPU 2 is tickled already: the next idle one after it. */
	V(&h, 0, 1)->processor = 2;
	I->runq_tickle(h.prv, y);
	ck_assert(tickled(&h, 3));
	ck_assert_uint_eq(cpumask_weight(h.prv->tickled), 2);
	sim_destroy(h.s);
}
END_TEST

START_TEST(tickle_busy_lowest_priority_if_beaten)
{
	struct host h = mk(host4, "<domain name=\"a\" vcpus=\"6\"/>", "rtds");
	stime_t t = now(&h);

	/* Deadlines 50, 60, 40, 30 ms ahead on pCPUs 0..3. */
	run_on(&h, V(&h, 0, 0), 0, MSEC(1), t + MSEC(50));
	run_on(&h, V(&h, 0, 1), 1, MSEC(1), t + MSEC(60));
	run_on(&h, V(&h, 0, 2), 2, MSEC(1), t + MSEC(40));
	run_on(&h, V(&h, 0, 3), 3, MSEC(1), t + MSEC(30));
	/* A later deadline than all: nobody. */
	SVC(&h, 0, 4)->cur_deadline = t + MSEC(70);
	V(&h, 0, 4)->processor = 0;
	I->runq_tickle(h.prv, SVC(&h, 0, 4));
	ck_assert(cpumask_empty(h.prv->tickled));
	/* 45 beats the 60 on pCPU 1. */
	SVC(&h, 0, 4)->cur_deadline = t + MSEC(45);
	I->runq_tickle(h.prv, SVC(&h, 0, 4));
	ck_assert(tickled(&h, 1) && cpumask_weight(h.prv->tickled) == 1);
	/* pCPU 1 tickled: the lowest of the others is the 50 on pCPU 0. */
	SVC(&h, 0, 5)->cur_deadline = t + MSEC(45);
	V(&h, 0, 5)->processor = 3;
	I->runq_tickle(h.prv, SVC(&h, 0, 5));
	ck_assert(tickled(&h, 0));
	sim_destroy(h.s);
}
END_TEST

/* --- schedule --- */

START_TEST(schedule_keeps_higher_current_and_takes_ties)
{
	struct host h = mk(host2, "<domain name=\"a\" vcpus=\"2\"/>", "rtds");
	struct vcpu *a = V(&h, 0, 0), *b = V(&h, 0, 1);
	stime_t t = now(&h);
	struct sched_decision d;

	run_on(&h, a, 0, MSEC(3), t + MSEC(20));
	queue(&h, b, 1, MSEC(4), t + MSEC(30));
	/* a ran 1 ms of its 3: 2 left; deadline 20 beats 30, a goes on for its 2 ms. */
	h.s->q.now += MSEC(1);
	d = schedule_on(&h, 0);
	ck_assert_ptr_eq(d.next, a);
	ck_assert_int_eq(d.time_slice, MSEC(2));
	ck_assert_int_eq(SVC(&h, 0, 0)->cur_budget, MSEC(2));
	ck_assert(!(SVC(&h, 0, 0)->flags & RTDS_delayed_runq_add));
	/* A tie on the deadline: scurr stays only when strictly higher, so b. */
	SVC(&h, 0, 1)->cur_deadline = t + MSEC(20);
	d = schedule_on(&h, 0);
	ck_assert_ptr_eq(d.next, b);
	ck_assert_int_eq(d.time_slice, MSEC(4));
	ck_assert(d.migrated);                              /* b was on pCPU 1 */
	ck_assert_int_eq(b->processor, 0);
	ck_assert(SVC(&h, 0, 1)->flags & RTDS_scheduled);
	ck_assert(!on_runq(&h, SVC(&h, 0, 1)));
	ck_assert(SVC(&h, 0, 0)->flags & RTDS_delayed_runq_add);  /* queued at context_saved */
	sim_destroy(h.s);
}
END_TEST

START_TEST(schedule_blocked_current_leaves_replq_at_context_saved)
{
	struct host h = mk(host1, "<domain name=\"a\"/>", "rtds");
	struct vcpu *a = V(&h, 0, 0);
	struct sched_decision d;

	run_on(&h, a, 0, MSEC(3), now(&h) + MSEC(5));
	a->pause_flags = VPF_BLOCKED;
	d = schedule_on(&h, 0);
	ck_assert(is_idle_vcpu(d.next));
	ck_assert_int_eq(d.time_slice, -1);
	ck_assert(!(SVC(&h, 0, 0)->flags & RTDS_delayed_runq_add));
	a->is_running = false;
	h.s->pcpus[0].curr = d.next;
	h.ops->ops->context_saved(h.ops, a);
	ck_assert(!on_replq(SVC(&h, 0, 0)));
	ck_assert(!timer_pending(&h.prv->repl_timer));
	/* It keeps its budget while blocked: a deferrable server. */
	ck_assert_int_eq(SVC(&h, 0, 0)->cur_budget, MSEC(3));
	sim_destroy(h.s);
}
END_TEST

/*
 * A queued unit that is not runnable (a pause the scheduler was not told
 * of): 0f1dec89d3 drops it and looks again; 4.17 drops it and idles.
 */
START_TEST(schedule_retries_past_unrunnable_head_only_in_current)
{
	const char *eras[] = { "rtds", "rtds:era=4.17" };

	for (int k = 0; k < 2; k++) {
		struct host h = mk(host1, "<domain name=\"a\" vcpus=\"2\"/>", eras[k]);
		struct sched_decision d;

		queue(&h, V(&h, 0, 0), 0, MSEC(1), now(&h) + MSEC(5));
		queue(&h, V(&h, 0, 1), 0, MSEC(1), now(&h) + MSEC(8));
		V(&h, 0, 0)->pause_count = 1;
		d = schedule_on(&h, 0);
		ck_assert(!on_runq(&h, SVC(&h, 0, 0)) && !on_replq(SVC(&h, 0, 0)));
		if (k == 0) {
			ck_assert_ptr_eq(d.next, V(&h, 0, 1));
		} else {
			ck_assert(is_idle_vcpu(d.next));
			ck_assert(on_runq(&h, SVC(&h, 0, 1)));
		}
		sim_destroy(h.s);
	}
}
END_TEST

/* --- wake and sleep --- */

START_TEST(wake_after_deadline_starts_a_period_now)
{
	struct host h = mk(host2, "<domain name=\"a\" vcpus=\"2\"/>", "rtds");
	struct vcpu *v = V(&h, 0, 1);
	struct rt_unit *svc = SVC(&h, 0, 1);

	/* Deadline 10 ms (insert at 0), now 1 s: 10 + 10k > 1000: 1010 ms. */
	svc->cur_budget = MSEC(1);
	v->pause_flags = 0;
	h.ops->ops->wake(h.ops, v);
	ck_assert_int_eq(svc->cur_deadline, MSEC(1010));
	ck_assert_int_eq(svc->cur_budget, MSEC(4));
	ck_assert(on_runq(&h, svc) && on_replq(svc));
	ck_assert_int_eq(h.prv->repl_timer.expires, MSEC(1010));
	ck_assert(tickled(&h, 1));                         /* its own pCPU, idle */
	/* Woken again while queued: nothing changes. */
	h.ops->ops->wake(h.ops, v);
	ck_assert_ptr_eq(runq_at(&h, 0), svc);
	ck_assert_ptr_null(runq_at(&h, 1));
	/* Put to sleep while queued: off both queues, the timer stopped. */
	v->pause_count = 1;
	h.ops->ops->sleep(h.ops, v);
	ck_assert(!on_runq(&h, svc) && !on_replq(svc));
	ck_assert(!timer_pending(&h.prv->repl_timer));
	sim_destroy(h.s);
}
END_TEST

START_TEST(wake_before_deadline_keeps_period_and_budget)
{
	struct host h = mk(host1, "<domain name=\"a\"/>", "rtds");
	struct vcpu *v = V(&h, 0, 0);
	struct rt_unit *svc = SVC(&h, 0, 0);

	svc->cur_deadline = now(&h) + MSEC(3);
	svc->cur_budget = MSEC(2);
	v->pause_flags = 0;
	h.ops->ops->wake(h.ops, v);
	ck_assert_int_eq(svc->cur_deadline, now(&h) + MSEC(3));
	ck_assert_int_eq(svc->cur_budget, MSEC(2));
	ck_assert(on_runq(&h, svc));
	sim_destroy(h.s);
}
END_TEST

/* --- replenishment --- */

START_TEST(replenish_depleted_queued_unit_and_tickle_it)
{
	struct host h = mk(host2, "<domain name=\"a\" extratime=\"off\"/>", "rtds");
	struct rt_unit *svc = SVC(&h, 0, 0);
	stime_t t = now(&h);

	queue(&h, V(&h, 0, 0), 1, 0, t);
	svc->flags |= RTDS_depleted;
	ck_assert(on_depletedq(&h, svc));
	I->repl_timer_handler(&h.prv->repl_timer, h.prv);
	ck_assert(on_runq(&h, svc));
	ck_assert_int_eq(svc->cur_budget, MSEC(4));
	ck_assert_int_eq(svc->cur_deadline, t + MSEC(10));
	ck_assert(!(svc->flags & RTDS_depleted));
	ck_assert(tickled(&h, 1));
	ck_assert_int_eq(h.prv->repl_timer.expires, t + MSEC(10));
	/* The handler runs on the timer's pCPU, 0: pCPU 1 hears of it after an IPI. */
	ck_assert_int_eq(h.s->pcpus[1].softirq.expires, t + h.s->ipi_latency);
	sim_destroy(h.s);
}
END_TEST

START_TEST(replenish_running_unit_tickles_runq_head_if_it_wins)
{
	struct host h = mk(host2, "<domain name=\"a\" vcpus=\"2\"/>", "rtds");
	stime_t t = now(&h);

	/* a runs with deadline now: replenished to t + 10; b waits with t + 5. */
	run_on(&h, V(&h, 0, 0), 0, MSEC(1), t);
	queue(&h, V(&h, 0, 1), 1, MSEC(4), t + MSEC(5));
	I->repl_timer_handler(&h.prv->repl_timer, h.prv);
	ck_assert_int_eq(SVC(&h, 0, 0)->cur_deadline, t + MSEC(10));
	ck_assert(tickled(&h, 1));                         /* b's own pCPU, idle */
	ck_assert_ptr_eq(replq_at(&h, 0), SVC(&h, 0, 1));
	ck_assert_int_eq(h.prv->repl_timer.expires, t + MSEC(5));
	sim_destroy(h.s);
}
END_TEST

START_TEST(replenish_counts_judged_and_missed_periods)
{
	struct host h = mk(host2, "<domain name=\"a\" vcpus=\"4\" extratime=\"off\">"
			   "<vcpu id=\"3\" extratime=\"on\"/></domain>", "rtds");
	stime_t t = now(&h);

	/* a: running since 1 ms ago with 3 ms left: 2 ms not delivered, a miss. */
	run_on(&h, V(&h, 0, 0), 0, MSEC(3), t);
	SVC(&h, 0, 0)->last_start = t - MSEC(1);
	SVC(&h, 0, 0)->backlogged = true;
	/* b: got all its budget (depleted), judged, no miss. */
	queue(&h, V(&h, 0, 1), 1, 0, t);
	SVC(&h, 0, 1)->backlogged = true;
	/* c: budget left, but it woke within the period: not judged. */
	queue(&h, V(&h, 0, 2), 1, MSEC(1), t);
	/* d: extra time (level 1) left over: its reservation was delivered, no miss. */
	queue(&h, V(&h, 0, 3), 1, MSEC(1), t);
	SVC(&h, 0, 3)->priority_level = 1;
	SVC(&h, 0, 3)->backlogged = true;
	I->repl_timer_handler(&h.prv->repl_timer, h.prv);
	ck_assert_uint_eq(V(&h, 0, 0)->st.deadlines, 1);
	ck_assert_uint_eq(V(&h, 0, 0)->st.deadline_misses, 1);
	ck_assert_int_eq(V(&h, 0, 0)->st.deadline_worst_miss_ns, MSEC(2));
	ck_assert_uint_eq(V(&h, 0, 1)->st.deadlines, 1);
	ck_assert_uint_eq(V(&h, 0, 1)->st.deadline_misses, 0);
	ck_assert_uint_eq(V(&h, 0, 2)->st.deadlines, 0);
	ck_assert_uint_eq(V(&h, 0, 3)->st.deadlines, 1);
	ck_assert_uint_eq(V(&h, 0, 3)->st.deadline_misses, 0);
	/* All runnable at the start of the new period: all judged next time. */
	for (int i = 0; i < 4; i++)
		ck_assert(SVC(&h, 0, i)->backlogged);
	sim_destroy(h.s);
}
END_TEST

/*
 * Xen sorts the replq with compare_unit_priority, priority_level first: a
 * unit that wakes at level 1 (it used extra time, blocked and woke before
 * its deadline) is queued behind every level-0 unit, and the timer waits
 * for their deadline.  Its own deadline passes unreplenished, and when the
 * handler reaches it, whole periods are skipped: modelled as Xen does it.
 */
START_TEST(replq_orders_by_level_so_extratime_units_replenish_late)
{
	struct host h = mk(host1, "<domain name=\"a\" vcpus=\"2\"/>", "rtds");
	struct vcpu *x = V(&h, 0, 0);
	struct rt_unit *sx = SVC(&h, 0, 0);
	stime_t t = now(&h);

	queue(&h, V(&h, 0, 1), 0, MSEC(4), t + MSEC(30));
	sx->priority_level = 1;
	sx->cur_deadline = t + MSEC(10);
	x->pause_flags = 0;
	h.ops->ops->wake(h.ops, x);
	ck_assert_ptr_eq(replq_at(&h, 0), SVC(&h, 0, 1));
	ck_assert_ptr_eq(replq_at(&h, 1), sx);
	ck_assert_int_eq(h.prv->repl_timer.expires, t + MSEC(30));
	/* At t + 30: x's deadline moves from t + 10 to t + 40, past two periods. */
	h.s->q.now = t + MSEC(30);
	I->repl_timer_handler(&h.prv->repl_timer, h.prv);
	ck_assert_int_eq(sx->cur_deadline, t + MSEC(40));
	ck_assert_uint_eq(sx->priority_level, 0);
	sim_destroy(h.s);
}
END_TEST

/* --- adjust (putvcpuinfo) --- */

/* 37b49cb48e: extratime turned on while depleted refills the unit; 4.17 does not. */
START_TEST(adjust_extratime_on_depleted_refills_only_in_current)
{
	const char *eras[] = { "rtds", "rtds:era=4.17" };

	for (int k = 0; k < 2; k++) {
		struct host h = mk(host1, "<domain name=\"a\" extratime=\"off\"/>", eras[k]);
		struct rt_unit *svc = SVC(&h, 0, 0);

		queue(&h, V(&h, 0, 0), 0, 0, now(&h) + MSEC(5));
		svc->flags |= RTDS_depleted;
		V(&h, 0, 0)->rt.extratime = RT_EXTRATIME_ON;
		V(&h, 0, 0)->rt.budget = MSEC(2);
		h.ops->ops->adjust(h.ops, h.s->domains[0]);
		ck_assert(svc->flags & RTDS_extratime);
		ck_assert_int_eq(svc->budget, MSEC(2));
		if (k == 0) {
			ck_assert_uint_eq(svc->priority_level, 1);
			ck_assert_int_eq(svc->cur_budget, MSEC(2));
			ck_assert(on_runq(&h, svc) && !(svc->flags & RTDS_depleted));
		} else {
			ck_assert_uint_eq(svc->priority_level, 0);
			ck_assert_int_eq(svc->cur_budget, 0);
			ck_assert(on_depletedq(&h, svc));
		}
		/* The deadline of the current period stays. */
		ck_assert_int_eq(svc->cur_deadline, now(&h) + MSEC(5));
		sim_destroy(h.s);
	}
}
END_TEST

/* --- placement --- */

START_TEST(pick_resource_keeps_or_cycles_within_hard)
{
	struct host h = mk(host4, "<domain name=\"a\"/>", "rtds");
	struct vcpu *v = V(&h, 0, 0);

	v->processor = 2;
	ck_assert_int_eq(h.ops->ops->pick_resource(h.ops, v), 2);
	cpumask_zero(v->hard);
	cpumask_set(v->hard, 0);
	cpumask_set(v->hard, 1);
	ck_assert_int_eq(h.ops->ops->pick_resource(h.ops, v), 0);   /* after 2, wrapping */
	v->processor = 0;
	ck_assert_int_eq(h.ops->ops->pick_resource(h.ops, v), 0);
	sim_destroy(h.s);
}
END_TEST

static Suite *rtds_suite(void)
{
	Suite *s = suite_create("rtds");
	TCase *tc = tcase_create("rtds");

	tcase_add_test(tc, defaults_and_scenario_parameters);
	tcase_add_test(tc, check_params_is_putvcpuinfo);
	tcase_add_test(tc, update_deadline_moves_by_whole_periods);
	tcase_add_test(tc, priority_is_level_then_deadline);
	tcase_add_test(tc, burn_budget_extratime_and_depletion);
	tcase_add_test(tc, priority_level_saturates_only_in_current);
	tcase_add_test(tc, runq_is_edf_fifo_among_equals_depleted_apart);
	tcase_add_test(tc, runq_pick_skips_units_not_allowed_here);
	tcase_add_test(tc, tickle_idle_own_first_then_cycling);
	tcase_add_test(tc, tickle_busy_lowest_priority_if_beaten);
	tcase_add_test(tc, schedule_keeps_higher_current_and_takes_ties);
	tcase_add_test(tc, schedule_blocked_current_leaves_replq_at_context_saved);
	tcase_add_test(tc, schedule_retries_past_unrunnable_head_only_in_current);
	tcase_add_test(tc, wake_after_deadline_starts_a_period_now);
	tcase_add_test(tc, wake_before_deadline_keeps_period_and_budget);
	tcase_add_test(tc, replenish_depleted_queued_unit_and_tickle_it);
	tcase_add_test(tc, replenish_running_unit_tickles_runq_head_if_it_wins);
	tcase_add_test(tc, replenish_counts_judged_and_missed_periods);
	tcase_add_test(tc, replq_orders_by_level_so_extratime_units_replenish_late);
	tcase_add_test(tc, adjust_extratime_on_depleted_refills_only_in_current);
	tcase_add_test(tc, pick_resource_keeps_or_cycles_within_hard);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(rtds_suite());
}
