/*
 * Credit2 unit tests: the credit arithmetic, the load averages and each
 * decision function on small hand-built states.  A host is built from a
 * scenario without workloads (every vCPU starts blocked and nothing runs),
 * then the test puts vCPUs on pCPUs or runqueues by hand and calls the
 * internal function.  Expected values are worked out by hand from Xen's
 * credit2.c; the arithmetic is spelled out beside each assertion.
 */
#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "schedulers/credit2.h"
#include "sim/experiment/build.h"
#include "sim/input/scenario_load.h"
#include "tests/testlib.h"

static const struct credit2_internals *I = &credit2_internals;

#define P18 (1LL << 18)   /* 1.0 in the default Q-format */

struct host {
	struct sim *s;
	struct scheduler *ops;
	struct csched2_private *prv;
};

static struct host mk(const char *host_xml, const char *doms_xml, const char *sched)
{
	struct host h;

	h.s = test_build_host(host_xml, doms_xml, sched);
	h.ops = h.s->sched;
	h.prv = csched2_priv(h.ops);
	return h;
}

/* One socket, two cores of two threads: pCPUs {0,1} and {2,3}; one runqueue. */
static const char host4[] =
	"<host sockets=\"1\" cores-per-socket=\"2\" threads-per-core=\"2\"/>";
static const char six_vcpus[] = "<domain name=\"a\" vcpus=\"6\"/>";

static struct vcpu *V(struct host *h, int d, int i)
{
	return h->s->domains[d]->vcpus[i];
}

static struct csched2_unit *SVC(struct host *h, int d, int i)
{
	return V(h, d, i)->sched_priv;
}

static stime_t now(struct host *h)
{
	return sim_now(h->s);
}

static void set_mask(struct host *h, struct cpumask *m, const char *list)
{
	struct err e = { "" };

	if (cpulist_parse(&h->s->topo, list, m, &e) < 0)
		ck_abort_msg("cpulist %s: %s", list, e.msg);
}

static void set_soft(struct host *h, struct vcpu *v, const char *list)
{
	set_mask(h, v->soft, list);
	vcpu_update_soft_effective(v);
}

/* v runs on cpu with the given credit, having started ran_for ago. */
static void run_on(struct host *h, struct vcpu *v, int cpu, int credit, stime_t ran_for)
{
	struct csched2_unit *svc = v->sched_priv;
	struct csched2_runqueue_data *rqd = c2rqd(h->ops, cpu);

	if (svc->rqd != rqd)
		I->runq_move(svc, rqd);
	v->pause_flags = 0;
	v->processor = cpu;
	v->is_running = true;
	v->state_entry_time = now(h) - ran_for;
	h->s->pcpus[cpu].curr = h->s->pcpus[cpu].unit = v;
	svc->flags |= CSFLAG_scheduled;
	svc->credit = credit;
	svc->start_time = now(h);
	cpumask_clear_cpu(rqd->idle, (unsigned)cpu);
	cpumask_andnot(rqd->smt_idle, rqd->smt_idle, h->prv->pcpu[cpu].sibling_mask);
	rqd->load++;
}

/* v waits on the runqueue of cpu, assigned to cpu, with the given credit. */
static void queue(struct host *h, struct vcpu *v, int cpu, int credit)
{
	struct csched2_unit *svc = v->sched_priv;
	struct csched2_runqueue_data *rqd = c2rqd(h->ops, cpu);

	if (svc->rqd != rqd)
		I->runq_move(svc, rqd);
	v->pause_flags = 0;
	v->processor = cpu;
	svc->credit = credit;
	I->runq_insert(h->ops, svc);
	rqd->load++;
}

static void untickle(struct host *h, int cpu)
{
	cpumask_zero(c2rqd(h->ops, cpu)->tickled);
}

static int tickled_only(struct host *h, int cpu)
{
	struct cpumask *t = c2rqd(h->ops, cpu)->tickled;

	if (cpumask_weight(t) != 1)
		return -1;
	return (int)cpumask_first(t);
}

/* --- credit arithmetic --- */

START_TEST(t2c_residuals_and_c2t)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);
	struct csched2_unit *svc = SVC(&h, 0, 0);

	rqd->max_weight = 512;
	svc->weight = 256;
	svc->credit = 10000000;
	svc->residual = 0;
	I->t2c_update(rqd, 1000, svc, CSCHED2_CREDIT_MIN);
	ck_assert_int_eq(svc->credit, 10000000 - 2000);    /* 1000*512/256 */
	ck_assert_int_eq(svc->residual, 0);

	/* Weight 384: 512000/384 = 1333 rem 128, then 512128/384 = 1333 rem 256,
	 * then 512256/384 = 1334 rem 0: 3000 ns burn exactly 3000*512/384 = 4000. */
	svc->weight = 384;
	svc->credit = 10000000;
	I->t2c_update(rqd, 1000, svc, CSCHED2_CREDIT_MIN);
	ck_assert_int_eq(svc->credit, 9998667);
	ck_assert_int_eq(svc->residual, 128);
	I->t2c_update(rqd, 1000, svc, CSCHED2_CREDIT_MIN);
	ck_assert_int_eq(svc->credit, 9997334);
	ck_assert_int_eq(svc->residual, 256);
	I->t2c_update(rqd, 1000, svc, CSCHED2_CREDIT_MIN);
	ck_assert_int_eq(svc->credit, 9996000);
	ck_assert_int_eq(svc->residual, 0);

	/* Floor at CREDIT_MIN. */
	svc->weight = 512;
	svc->credit = -9999000;
	I->t2c_update(rqd, 5000, svc, CSCHED2_CREDIT_MIN);
	ck_assert_int_eq(svc->credit, -10000000);

	/* c2t: 3000 credits of a weight-384 vCPU under max 512 are 2250 ns. */
	svc->weight = 384;
	ck_assert_int_eq(I->c2t(rqd, 3000, svc), 2250);
	sim_destroy(h.s);
}
END_TEST

START_TEST(burn_credits_charges_budget)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct vcpu *v = V(&h, 0, 0);
	struct csched2_unit *svc = v->sched_priv;
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);

	run_on(&h, v, 0, 5000000, 0);
	svc->budget = 1000000;
	h.s->q.now += 300000;
	I->burn_credits(h.ops, rqd, svc, now(&h));
	ck_assert_int_eq(svc->credit, 4700000);   /* weight 256 = max_weight */
	ck_assert_int_eq(svc->budget, 700000);
	ck_assert_int_eq(svc->start_time, now(&h));
	sim_destroy(h.s);
}
END_TEST

START_TEST(reset_credit_adds_and_clips)
{
	struct host h = mk(host4, "<domain name=\"a\" vcpus=\"3\"/>", "credit2");
	struct csched2_unit *a = SVC(&h, 0, 0), *b = SVC(&h, 0, 1), *c = SVC(&h, 0, 2);

	a->credit = -200;
	b->credit = 9800000;
	c->credit = 300000;
	I->reset_credit(h.ops, 0, now(&h), a);
	ck_assert_int_eq(a->credit, 9999800);
	ck_assert_int_eq(b->credit, 10500000);    /* CREDIT_INIT + CARRYOVER_MAX */
	ck_assert_int_eq(c->credit, 10300000);

	/* snext at CREDIT_MIN: twice CREDIT_INIT, so it gets back above 0. */
	a->credit = -10000000;
	b->credit = -5000000;
	c->credit = 300000;
	I->reset_credit(h.ops, 0, now(&h), a);
	ck_assert_int_eq(a->credit, 10000000);
	ck_assert_int_eq(b->credit, 10500000);
	ck_assert_int_eq(c->credit, 10500000);
	sim_destroy(h.s);
}
END_TEST

START_TEST(reset_credit_2016_multiplier)
{
	struct host h = mk(host4, "<domain name=\"a\" vcpus=\"2\"/>",
			   "credit2:era=2016:runqueue=socket");
	struct csched2_unit *a = SVC(&h, 0, 0), *b = SVC(&h, 0, 1);
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);

	/* No CREDIT_MIN floor in 2016: 30 ms at weight 256 take 30e6 credits. */
	a->credit = 5000000;
	a->weight = 256;
	rqd->max_weight = 256;
	I->t2c_update(rqd, MSEC(30), a, h.prv->idle_credit + 1);
	ck_assert_int_eq(a->credit, -25000000);
	/* m = 1 + 25e6/10e6 = 3: everybody gets 30 ms of credit. */
	b->credit = -1000000;
	I->reset_credit(h.ops, 0, now(&h), a);
	ck_assert_int_eq(a->credit, 5000000);
	ck_assert_int_eq(b->credit, 10500000);
	sim_destroy(h.s);
}
END_TEST

/* --- load averages --- */

START_TEST(runq_load_ewma)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);

	/* W = 30 - 10 = 20, P = 18.  Load 2 for half a window on top of an
	 * average of 1.0: 1.0 + 2*0.5 - 1.0*0.5 = 1.5. */
	rqd->load = 2;
	rqd->avgload = rqd->b_avgload = P18;
	rqd->load_last_update = 1000;
	I->update_runq_load(h.ops, rqd, 1, (1000LL + (1 << 19)) << 10);
	ck_assert_int_eq(rqd->avgload, 393216);
	ck_assert_int_eq(rqd->b_avgload, 393216);
	ck_assert_int_eq(rqd->load, 3);
	ck_assert_int_eq(rqd->load_last_update, 1000 + (1 << 19));

	/* More than a whole window since the last update: the sample alone. */
	rqd->load_last_update = 1000;
	I->update_runq_load(h.ops, rqd, 0, (1000LL + (1 << 20) + 1) << 10);
	ck_assert_int_eq(rqd->avgload, 3 * P18);
	ck_assert_int_eq(rqd->b_avgload, 3 * P18);
	sim_destroy(h.s);
}
END_TEST

START_TEST(svc_load_ewma)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct csched2_unit *svc = SVC(&h, 0, 0);
	stime_t t = (1000LL + (1 << 18)) << 10;   /* a quarter window later */

	/* A new vCPU starts at 50 %. */
	ck_assert_int_eq(svc->avgload, P18 / 2);
	/* -1: it was runnable: 0.5 + 1*0.25 - 0.5*0.25 = 0.625. */
	svc->load_last_update = 1000;
	I->update_svc_load(h.ops, svc, -1, t);
	ck_assert_int_eq(svc->avgload, 163840);
	/* +1: it was not: 0.5 - 0.5*0.25 = 0.375. */
	svc->avgload = P18 / 2;
	svc->load_last_update = 1000;
	I->update_svc_load(h.ops, svc, 1, t);
	ck_assert_int_eq(svc->avgload, 98304);
	/* 0: whether it is runnable now (blocked from the build: 0). */
	svc->avgload = P18 / 2;
	svc->load_last_update = 1000;
	I->update_svc_load(h.ops, svc, 0, t);
	ck_assert_int_eq(svc->avgload, 98304);
	sim_destroy(h.s);
}
END_TEST

START_TEST(load_shifts_are_parameters)
{
	struct host h = mk(host4, six_vcpus,
			   "credit2:load_window_shift=25:load_precision_shift=10");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);

	/* W = 15, P = 10: load 1 for half a window from 0 gives 0.5 = 512. */
	ck_assert_uint_eq(h.prv->load_window_shift, 15);
	rqd->load = 1;
	rqd->avgload = rqd->b_avgload = 0;
	rqd->load_last_update = 0;
	I->update_runq_load(h.ops, rqd, 0, (1LL << 14) << 10);
	ck_assert_int_eq(rqd->avgload, 512);
	sim_destroy(h.s);
}
END_TEST

/* --- runq_tickle and tickle_score --- */

START_TEST(tickle_idle_core_first)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct csched2_unit *n = SVC(&h, 0, 1);

	/* All idle: the vCPU's own pCPU. */
	queue(&h, V(&h, 0, 1), 2, 1000);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 2);
	ck_assert_int_eq(n->tickled_cpu, 2);
	sim_destroy(h.s);

	/* pCPU 0 busy: its idle sibling 1 is passed over for the idle core {2,3}. */
	h = mk(host4, six_vcpus, "credit2");
	n = SVC(&h, 0, 1);
	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	queue(&h, V(&h, 0, 1), 1, 1000);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 2);
	sim_destroy(h.s);

	/* smt_power_savings: the idle thread of the busy core instead. */
	h = mk(host4, six_vcpus, "credit2:smt_power_savings=on");
	n = SVC(&h, 0, 1);
	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	queue(&h, V(&h, 0, 1), 1, 1000);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 1);
	sim_destroy(h.s);

	/*
	 * smt_idle=off (before 9bb9c73884): no idle-core step, so the vCPU's
	 * own idle pCPU 1 beside the busy 0, in both tickle paths.
	 */
	h = mk(host4, six_vcpus, "credit2:smt_idle=off");
	n = SVC(&h, 0, 1);
	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	queue(&h, V(&h, 0, 1), 1, 1000);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 1);
	sim_destroy(h.s);
	h = mk(host4, six_vcpus, "credit2:era=2016:runqueue=socket:smt_idle=off");
	n = SVC(&h, 0, 1);
	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	queue(&h, V(&h, 0, 1), 1, 1000);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 1);
	sim_destroy(h.s);
	/* The same in era=2016 with smt_idle left at auto: the idle core. */
	h = mk(host4, six_vcpus, "credit2:era=2016:runqueue=socket");
	n = SVC(&h, 0, 1);
	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	queue(&h, V(&h, 0, 1), 1, 1000);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 2);
	sim_destroy(h.s);
}
END_TEST

START_TEST(tickle_soft_step)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct csched2_unit *n = SVC(&h, 0, 1);

	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	set_soft(&h, V(&h, 0, 1), "3");
	queue(&h, V(&h, 0, 1), 1, 1000);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 3);
	sim_destroy(h.s);

	/* soft_affinity=off: the hard step's choice, 2. */
	h = mk(host4, six_vcpus, "credit2:soft_affinity=off");
	n = SVC(&h, 0, 1);
	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	set_soft(&h, V(&h, 0, 1), "3");
	queue(&h, V(&h, 0, 1), 1, 1000);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 2);
	sim_destroy(h.s);
}
END_TEST

/* All four pCPUs busy, with credits 4.9M, 1M, 3M, 2M; new vCPU 4 on cpu 0. */
static struct host busy4(const char *sched, int new_credit)
{
	struct host h = mk(host4, six_vcpus, sched);

	run_on(&h, V(&h, 0, 0), 0, 4900000, MSEC(2));
	run_on(&h, V(&h, 0, 1), 1, 1000000, MSEC(2));
	run_on(&h, V(&h, 0, 2), 2, 3000000, MSEC(2));
	run_on(&h, V(&h, 0, 3), 3, 2000000, MSEC(2));
	queue(&h, V(&h, 0, 4), 0, new_credit);
	return h;
}

START_TEST(tickle_score_values)
{
	struct host h = busy4("credit2", 5000000);
	struct csched2_unit *n = SVC(&h, 0, 4);

	/* Own pCPU: 5M - 4.9M = 100k, + CREDIT_INIT (in new's soft = all). */
	ck_assert_int_eq(I->tickle_score(h.ops, now(&h), n, 0), 10100000);
	/* cpu 1: 5M - 1M - MIGRATE_RESIST 500k = 3.5M, + 10M. */
	ck_assert_int_eq(I->tickle_score(h.ops, now(&h), n, 1), 13500000);
	/* cpu 3 runs a vCPU outside its soft affinity: another + 10M. */
	set_soft(&h, V(&h, 0, 3), "0");
	ck_assert_int_eq(I->tickle_score(h.ops, now(&h), n, 3), 22500000);
	/* Not enough credit: negative, no bonus. 1.5M - 2M - 500k. */
	n->credit = 1500000;
	ck_assert_int_eq(I->tickle_score(h.ops, now(&h), n, 3), -1000000);
	/* Protected by the ratelimit (ran 500 us < 1000 - 50 us): -1. */
	n->credit = 5000000;
	V(&h, 0, 1)->state_entry_time = now(&h) - USEC(500);
	ck_assert_int_eq(I->tickle_score(h.ops, now(&h), n, 1), -1);
	sim_destroy(h.s);

	/* soft_affinity=off: no bonus for cpu 3's vCPU being outside its soft. */
	h = busy4("credit2:soft_affinity=off", 5000000);
	n = SVC(&h, 0, 4);
	set_soft(&h, V(&h, 0, 3), "0");
	ck_assert_int_eq(I->tickle_score(h.ops, now(&h), n, 3), 12500000);
	sim_destroy(h.s);
}
END_TEST

START_TEST(tickle_busy_choice)
{
	struct host h = busy4("credit2", 5000000);
	struct csched2_unit *n = SVC(&h, 0, 4);

	/* Own pCPU scores > 0 and is in new's soft affinity: taken at once,
	 * although cpu 1 (13.5M) would score higher. */
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 0);
	ck_assert_int_eq(n->tickled_cpu, 0);

	/* Soft affinity {1,2}: cpu 0 scores only 100k; cpu 1 13.5M beats
	 * cpu 2 (2M - 500k + 10M = 11.5M) and cpu 3 (2.5M). */
	untickle(&h, 0);
	set_soft(&h, V(&h, 0, 4), "1-2");
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 1);

	/* cpu 1 protected by the ratelimit: cpu 2. */
	untickle(&h, 0);
	V(&h, 0, 1)->state_entry_time = now(&h) - USEC(500);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 2);
	sim_destroy(h.s);

	/* Less credit than everybody: nobody is tickled. */
	h = busy4("credit2", 500000);
	n = SVC(&h, 0, 4);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(cpumask_weight(c2rqd(h.ops, 0)->tickled), 0);
	ck_assert_int_eq(n->tickled_cpu, -1);
	sim_destroy(h.s);
}
END_TEST

START_TEST(tickle_2016_lowest_credit)
{
	struct host h = busy4("credit2:era=2016:runqueue=socket", 5000000);
	struct csched2_unit *n = SVC(&h, 0, 4);

	/* Own pCPU's vCPU has less credit (4.9M < 5M): tickle it. */
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 0);

	/* Own pCPU richer: the lowest elsewhere, cpu 1 (1M + 500k <= 5M),
	 * regardless of cpu 1's ratelimit (no such check in 4.8). */
	untickle(&h, 0);
	SVC(&h, 0, 0)->credit = 6000000;
	V(&h, 0, 1)->state_entry_time = now(&h) - USEC(500);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 1);

	/* Within MIGRATE_RESIST of the lowest: nobody. */
	untickle(&h, 0);
	n->tickled_cpu = -1;
	n->credit = 1400000;
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(cpumask_weight(c2rqd(h.ops, 0)->tickled), 0);
	ck_assert_int_eq(n->tickled_cpu, -1);
	sim_destroy(h.s);
}
END_TEST

/* --- placement --- */

/* Two sockets of two pCPUs: runqueues {0,1} and {2,3}. */
static const char host2x2[] =
	"<host sockets=\"2\" cores-per-socket=\"2\" threads-per-core=\"1\" nodes=\"2\" hw=\"ideal\"/>";

START_TEST(res_pick_least_loaded)
{
	struct host h = mk(host2x2, "<domain name=\"a\" vcpus=\"4\"/>", "credit2");
	struct csched2_runqueue_data *r0 = c2rqd(h.ops, 0), *r1 = c2rqd(h.ops, 2);
	struct vcpu *v = V(&h, 0, 0);
	struct csched2_unit *svc = v->sched_priv;

	ck_assert_ptr_ne(r0, r1);
	I->runq_move(svc, r0);
	v->processor = 0;
	svc->avgload = P18 / 2;
	r0->b_avgload = 3 * P18;   /* ours: 3 - 0.5 = 2.5 */
	r1->b_avgload = P18;
	r0->pick_bias = 0;
	r1->pick_bias = 2;
	ck_assert_int_eq(I->res_pick(h.ops, v), 3);   /* next after pick_bias 2 */
	ck_assert_int_eq(r1->pick_bias, 3);
	ck_assert_int_eq(I->res_pick(h.ops, v), 2);

	/* Soft affinity {0,1}: the least loaded runqueue holding some of it,
	 * r0; but as in Xen the pCPU cycles from the pick_bias of the least
	 * loaded runqueue overall, r1 (2), and that one is updated: 0. */
	set_soft(&h, v, "0-1");
	ck_assert_int_eq(I->res_pick(h.ops, v), 0);
	ck_assert_int_eq(r1->pick_bias, 0);
	ck_assert_int_eq(r0->pick_bias, 0);

	/* A balance_load request names the runqueue, whatever the loads. */
	set_soft(&h, v, "all");
	r1->b_avgload = 9 * P18;
	svc->migrate_rqd = r1;
	svc->flags |= CSFLAG_runq_migrate_request;
	ck_assert_int_eq(I->res_pick(h.ops, v), 2);   /* next after r1's pick_bias 0 */
	ck_assert(!(svc->flags & CSFLAG_runq_migrate_request));
	/* ... and without it the lighter one again: next after r0's pick_bias 0. */
	ck_assert_int_eq(I->res_pick(h.ops, v), 1);

	/* Hard affinity decides first. */
	set_mask(&h, v->hard, "3");
	ck_assert_int_eq(I->res_pick(h.ops, v), 3);
	sim_destroy(h.s);
}
END_TEST

START_TEST(insert_skips_the_locked_runqueue)
{
	/* Default affinities, initial pCPU 0: Xen's trylock on runqueue 0's
	 * lock (held by insert) fails, so runqueue 1 it is, although the
	 * loads are equal: next after its pick_bias 2. */
	struct host h = mk(host2x2, "<domain name=\"a\" vcpus=\"1\"/>", "credit2");

	ck_assert_int_eq(V(&h, 0, 0)->processor, 3);
	ck_assert_ptr_eq(SVC(&h, 0, 0)->rqd, c2rqd(h.ops, 2));
	sim_destroy(h.s);

	/* Given a soft affinity: inserted as above (pCPU 3), then the affinity
	 * call migrates it: res_pick chooses runqueue 0, the one holding the
	 * soft affinity, and pCPU 1 (cycle from its pick_bias 0); migrate()
	 * then cycles again from the updated pick_bias, giving pCPU 0, as
	 * Xen's csched2_unit_migrate -> migrate() does. */
	h = mk(host2x2, "<domain name=\"a\" vcpus=\"1\"><affinity soft=\"0-1\"/></domain>",
	       "credit2");
	ck_assert_int_eq(V(&h, 0, 0)->processor, 0);
	ck_assert_ptr_eq(SVC(&h, 0, 0)->rqd, c2rqd(h.ops, 0));
	sim_destroy(h.s);
}
END_TEST

START_TEST(fallback_cpu_order)
{
	struct host h = mk(host2x2, "<domain name=\"a\" vcpus=\"1\"/>", "credit2");
	struct vcpu *v = V(&h, 0, 0);
	struct csched2_unit *svc = v->sched_priv;

	I->runq_move(svc, c2rqd(h.ops, 0));
	v->processor = 1;
	/* Soft {2} is not in our runqueue: skip to hard, where cpu 1 is fine. */
	set_soft(&h, v, "2");
	ck_assert_int_eq(I->get_fallback_cpu(h.ops, svc), 1);
	/* Soft {0}: in our runqueue. */
	set_soft(&h, v, "0");
	ck_assert_int_eq(I->get_fallback_cpu(h.ops, svc), 0);
	/* Hard {2,3}, nothing of it in our runqueue: its first pCPU. */
	set_soft(&h, v, "all");
	set_mask(&h, v->hard, "2-3");
	vcpu_update_soft_effective(v);
	ck_assert_int_eq(I->get_fallback_cpu(h.ops, svc), 2);
	sim_destroy(h.s);
}
END_TEST

/* --- runq_candidate --- */

/*
 * runq_insert searches rqd->runq_v, which must hold the list's vCPUs in
 * the list's order after every insert and remove, and must place a vCPU
 * where Xen's walk of the list does (before the first one it has more
 * credit than) even when the queue is out of order, as the 2016 credits'
 * wrap can leave it.
 */
static void runq_matches(struct host *h, struct csched2_runqueue_data *rqd,
			 const int *want, size_t n)
{
	struct c2_list *it = rqd->runq.next;
	size_t i;

	ck_assert_uint_eq(rqd->runq_n, n);
	for (i = 0; i < n; i++, it = it->next) {
		ck_assert_ptr_ne(it, &rqd->runq);
		ck_assert_ptr_eq(it, &SVC(h, 0, want[i])->runq_elem);
		ck_assert_ptr_eq(rqd->runq_v[rqd->runq_off + i], SVC(h, 0, want[i]));
		ck_assert_ptr_eq(SVC(h, 0, want[i])->runq_rqd, rqd);
	}
	ck_assert_ptr_eq(it, &rqd->runq);
}

START_TEST(runq_order_mirror)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);
	int i;

	for (i = 0; i < 6; i++)
		if (I->unit_on_runq(SVC(&h, 0, i)))
			I->runq_remove(SVC(&h, 0, i));
	ck_assert_uint_eq(rqd->runq_n, 0);
	queue(&h, V(&h, 0, 0), 0, 5);
	queue(&h, V(&h, 0, 1), 0, 3);
	queue(&h, V(&h, 0, 2), 0, 3);     /* after the equal one */
	queue(&h, V(&h, 0, 3), 0, 7);     /* first */
	runq_matches(&h, rqd, (const int[]){ 3, 0, 1, 2 }, 4);
	/* Out of order: 0 drops to 1 in place; 4 (credit 2) goes before 0,
	 * the first it beats, not before 1 and 2, where it would sort. */
	SVC(&h, 0, 0)->credit = 1;
	queue(&h, V(&h, 0, 4), 0, 2);
	runq_matches(&h, rqd, (const int[]){ 3, 4, 0, 1, 2 }, 5);
	I->runq_remove(SVC(&h, 0, 4));
	runq_matches(&h, rqd, (const int[]){ 3, 0, 1, 2 }, 4);
	ck_assert(!I->unit_on_runq(SVC(&h, 0, 4)));
	I->runq_remove(SVC(&h, 0, 2));
	I->runq_remove(SVC(&h, 0, 3));
	queue(&h, V(&h, 0, 5), 0, 0);     /* last */
	runq_matches(&h, rqd, (const int[]){ 0, 1, 5 }, 3);
	sim_destroy(h.s);
}
END_TEST

START_TEST(candidate_credit_ratelimit_resist)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);
	struct csched2_unit *cur = SVC(&h, 0, 0), *x = SVC(&h, 0, 1);
	int skipped;

	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	queue(&h, V(&h, 0, 1), 0, 6000000);
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), x);
	ck_assert_int_eq(skipped, 0);

	/* Within the ratelimit the current vCPU stays. */
	V(&h, 0, 0)->state_entry_time = now(&h) - USEC(500);
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), cur);
	V(&h, 0, 0)->state_entry_time = now(&h) - MSEC(2);

	/* On another pCPU: needs MIGRATE_RESIST more: 5.4M < 5M + 500k.
	 * (Skipped entries are counted only for the 2016 reset test.) */
	V(&h, 0, 1)->processor = 1;
	x->credit = 5400000;
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), cur);
	ck_assert_int_eq(skipped, 0);
	x->credit = 5600000;
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), x);

	/* Reserved for tickled pCPU 2 while 2 has not scheduled. */
	V(&h, 0, 1)->processor = 0;
	x->credit = 6000000;
	x->tickled_cpu = 2;
	cpumask_set(rqd->tickled, 2);
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), cur);
	cpumask_clear_cpu(rqd->tickled, 2);
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), x);

	/* Hard affinity excludes it. */
	x->tickled_cpu = -1;
	set_mask(&h, V(&h, 0, 1)->hard, "1");
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), cur);
	set_mask(&h, V(&h, 0, 1)->hard, "all");

	/* Not runnable (parked, say): passed over. */
	V(&h, 0, 1)->pause_flags = VPF_PARKED;
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), cur);
	V(&h, 0, 1)->pause_flags = 0;

	/* Yield: the waiter runs even with less credit, and the flag is used up. */
	x->credit = 1000000;
	cur->flags |= CSFLAG_unit_yield;
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), x);
	ck_assert(!(cur->flags & CSFLAG_unit_yield));
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), cur);
	sim_destroy(h.s);
}
END_TEST

/*
 * Xen 4.17's scan: a capped entry that finds no budget is parked and the
 * scan looks on, so the next entry runs; 4.8's ended the scan there.
 */
START_TEST(candidate_skips_capped_without_budget)
{
	struct host h = mk(host4, "<domain name=\"a\" vcpus=\"2\"/>"
			   "<domain name=\"c\" vcpus=\"1\" cap=\"10\"/>", "credit2");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);
	struct csched2_unit *cur = SVC(&h, 0, 0), *x = SVC(&h, 0, 1), *capped = SVC(&h, 1, 0);
	int skipped;

	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	queue(&h, V(&h, 1, 0), 0, 7000000);   /* the head, but out of budget */
	queue(&h, V(&h, 0, 1), 0, 6000000);
	capped->budget = 0;
	capped->sdom->budget = 0;
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), x);
	ck_assert(V(&h, 1, 0)->pause_flags & VPF_PARKED);
	sim_destroy(h.s);
}
END_TEST

START_TEST(candidate_soft_affinity_preemption)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);
	struct csched2_unit *cur = SVC(&h, 0, 0), *x = SVC(&h, 0, 1), *c;
	int skipped;

	/* cur runs on 0 but wants {2}, which is idle: it gives way, to idle... */
	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	set_soft(&h, V(&h, 0, 0), "2");
	c = I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped);
	ck_assert_ptr_eq(c->unit, h.s->pcpus[0].idle);
	/* ... or to a waiter with less credit than cur. */
	queue(&h, V(&h, 0, 1), 0, -1000000);
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), x);
	/* cpu 2 already tickled: no better place, cur stays. */
	cpumask_set(rqd->tickled, 2);
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), cur);
	sim_destroy(h.s);

	h = mk(host4, six_vcpus, "credit2:soft_affinity=off");
	rqd = c2rqd(h.ops, 0);
	cur = SVC(&h, 0, 0);
	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	set_soft(&h, V(&h, 0, 0), "2");
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), cur);
	sim_destroy(h.s);
}
END_TEST

START_TEST(candidate_parks_capped_without_budget)
{
	struct host h = mk(host4, "<domain name=\"a\" vcpus=\"1\"/>"
			   "<domain name=\"c\" vcpus=\"1\" cap=\"10\"/>", "credit2");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);
	struct csched2_unit *cur = SVC(&h, 0, 0), *x = SVC(&h, 1, 0);
	int skipped;

	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	queue(&h, V(&h, 1, 0), 0, 6000000);
	x->sdom->budget = 0;
	x->budget = 0;
	ck_assert_ptr_eq(I->runq_candidate(h.ops, rqd, cur, 0, now(&h), &skipped), cur);
	ck_assert(V(&h, 1, 0)->pause_flags & VPF_PARKED);
	ck_assert(!I->unit_on_runq(x));
	sim_destroy(h.s);
}
END_TEST

/* --- csched2_runtime --- */

START_TEST(runtime_slices)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct csched2_unit *sn = SVC(&h, 0, 0), *w = SVC(&h, 0, 1);

	V(&h, 0, 0)->pause_flags = 0;
	sn->credit = 5000000;
	ck_assert_int_eq(I->runtime(h.ops, 0, sn, now(&h), false, 0), MSEC(5));
	queue(&h, V(&h, 0, 1), 0, 3000000);
	ck_assert_int_eq(I->runtime(h.ops, 0, sn, now(&h), false, 0), MSEC(2));
	/* The inflight (just preempted) vCPU has more than the head: 5M - 4M. */
	ck_assert_int_eq(I->runtime(h.ops, 0, sn, now(&h), true, 4000000), MSEC(1));
	ck_assert_int_eq(I->runtime(h.ops, 0, sn, now(&h), true, 2000000), MSEC(2));
	/* Half the weight of the runqueue's max: the credit lasts half as long. */
	sn->weight = 128;
	ck_assert_int_eq(I->runtime(h.ops, 0, sn, now(&h), false, 0), MSEC(1));
	sn->weight = 256;
	/* Capped: never beyond the budget. */
	sn->budget = USEC(1500);
	ck_assert_int_eq(I->runtime(h.ops, 0, sn, now(&h), false, 0), USEC(1500));
	sn->budget = STIME_MAX;
	/* Close to the head: at least the ratelimit (not yet running). */
	w->credit = 4900000;
	ck_assert_int_eq(I->runtime(h.ops, 0, sn, now(&h), false, 0), MSEC(1));
	/* Running for 700 us: the rest of the ratelimit is 300 us < MIN_TIMER. */
	V(&h, 0, 0)->is_running = true;
	V(&h, 0, 0)->state_entry_time = now(&h) - USEC(700);
	ck_assert_int_eq(I->runtime(h.ops, 0, sn, now(&h), false, 0), USEC(500));
	/* A negative head does not count; alone at the cap of credit: MAX_TIMER. */
	w->credit = -1;
	sn->credit = 10500000;
	ck_assert_int_eq(I->runtime(h.ops, 0, sn, now(&h), false, 0), MSEC(10));
	sim_destroy(h.s);

	h = mk(host4, six_vcpus, "credit2:era=2016");
	sn = SVC(&h, 0, 0);
	sn->credit = 10500000;
	ck_assert_int_eq(I->runtime(h.ops, 0, sn, now(&h), false, 0), MSEC(2));
	sim_destroy(h.s);
}
END_TEST

/* --- do_schedule --- */

static void schedule_on(struct host *h, int cpu, struct sched_decision *d)
{
	h->s->this_cpu = cpu;
	h->ops->ops->do_schedule(h->ops, h->s->pcpus[cpu].curr, now(h), false, d);
	h->s->this_cpu = -1;
}

START_TEST(schedule_migration_compensation_and_inflight)
{
	struct sched_decision d;
	const char *eras[] = { "credit2", "credit2:era=4.17" };
	stime_t slice[] = { USEC(2050), USEC(7050) };
	int i;

	for (i = 0; i < 2; i++) {
		struct host h = mk(host4, six_vcpus, eras[i]);
		struct csched2_unit *cur = SVC(&h, 0, 0), *x = SVC(&h, 0, 1);

		run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
		queue(&h, V(&h, 0, 1), 1, 7000000);
		schedule_on(&h, 0, &d);
		ck_assert_ptr_eq(d.next, V(&h, 0, 1));
		ck_assert(d.migrated);
		ck_assert_int_eq(V(&h, 0, 1)->processor, 0);
		ck_assert_int_eq(x->credit, 7050000);   /* + MIGRATE_COMPENSATION */
		ck_assert(x->flags & CSFLAG_scheduled);
		ck_assert(!I->unit_on_runq(x));
		ck_assert(cur->flags & CSFLAG_delayed_runq_add);
		/* current: the slice stops where x meets the preempted cur (5M);
		 * 4.17: nobody waits on the runqueue, 7.05M of credit. */
		ck_assert_int_eq(d.time_slice, slice[i]);
		sim_destroy(h.s);
	}
}
END_TEST

START_TEST(schedule_reset_tests)
{
	struct sched_decision d;
	struct host h = mk(host4, six_vcpus, "credit2");

	/* Top credit max(-100, -50) <= 0: reset, although the waiter was
	 * skipped (on another pCPU, within MIGRATE_RESIST). */
	run_on(&h, V(&h, 0, 0), 0, -100, MSEC(2));
	queue(&h, V(&h, 0, 1), 1, -50);
	schedule_on(&h, 0, &d);
	ck_assert_ptr_eq(d.next, V(&h, 0, 0));
	ck_assert_int_eq(SVC(&h, 0, 0)->credit, 9999900);
	ck_assert_int_eq(SVC(&h, 0, 1)->credit, 9999950);
	ck_assert_int_eq(SVC(&h, 0, 2)->credit, 10500000);   /* blocked ones too */
	sim_destroy(h.s);

	/* 2016-socket (5e4b419966): a skipped waiter means no reset. */
	h = mk(host4, six_vcpus, "credit2:era=2016-socket");
	run_on(&h, V(&h, 0, 0), 0, -100, MSEC(2));
	queue(&h, V(&h, 0, 1), 1, -50);
	schedule_on(&h, 0, &d);
	ck_assert_ptr_eq(d.next, V(&h, 0, 0));
	ck_assert_int_eq(SVC(&h, 0, 0)->credit, -100);
	ck_assert_int_eq(SVC(&h, 0, 1)->credit, -50);
	sim_destroy(h.s);

	/* 2016, before it: snext at -100 resets, skipped waiter or not. */
	h = mk(host4, six_vcpus, "credit2:era=2016:runqueue=socket");
	run_on(&h, V(&h, 0, 0), 0, -100, MSEC(2));
	queue(&h, V(&h, 0, 1), 1, -50);
	schedule_on(&h, 0, &d);
	ck_assert_ptr_eq(d.next, V(&h, 0, 0));
	ck_assert_int_eq(SVC(&h, 0, 0)->credit, 9999900);
	ck_assert_int_eq(SVC(&h, 0, 1)->credit, 9999950);
	sim_destroy(h.s);
}
END_TEST

/* --- era switches --- */

static bool softirq_pending(struct host *h, int cpu)
{
	return timer_pending(&h->s->pcpus[cpu].softirq);
}

/* Before 069cf39fb1 (era 2016) nobody remembers which pCPU was tickled. */
START_TEST(era_tickled_cpu)
{
	struct host h = mk(host4, six_vcpus, "credit2:era=2016:runqueue=socket");
	struct csched2_unit *n = SVC(&h, 0, 1);

	queue(&h, V(&h, 0, 1), 2, 1000);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(tickled_only(&h, 0), 2);
	ck_assert_int_eq(n->tickled_cpu, -1);
	sim_destroy(h.s);
	h = mk(host4, six_vcpus, "credit2:era=2016-socket");
	n = SVC(&h, 0, 1);
	queue(&h, V(&h, 0, 1), 2, 1000);
	I->runq_tickle(h.ops, n, now(&h));
	ck_assert_int_eq(n->tickled_cpu, 2);
	sim_destroy(h.s);
}
END_TEST

/* Credit2 had no yield before a7fa4d5f53 (era 2016). */
START_TEST(era_yield)
{
	struct host h = mk(host4, six_vcpus, "credit2:era=2016");

	h.ops->ops->yield(h.ops, V(&h, 0, 0));
	ck_assert(!(SVC(&h, 0, 0)->flags & CSFLAG_unit_yield));
	sim_destroy(h.s);
	h = mk(host4, six_vcpus, "credit2:era=2016-socket");
	h.ops->ops->yield(h.ops, V(&h, 0, 0));
	ck_assert(SVC(&h, 0, 0)->flags & CSFLAG_unit_yield);
	sim_destroy(h.s);
}
END_TEST

/*
 * A running vCPU asked to go to pCPU 3's runqueue: 2016 sets the request and
 * waits (no poke, 115e4c5e52); 2016-socket pokes pCPU 0 without marking it
 * tickled (a76645240b); 2016-p20 tickles it.  Sleep likewise, without the
 * first difference.
 */
static void migrate_and_sleep(const char *spec, bool poked, bool marked)
{
	struct host h = mk(host2x2, "<domain name=\"a\" vcpus=\"4\"/>", spec);
	struct vcpu *v = V(&h, 0, 0);

	run_on(&h, v, 0, 5000000, MSEC(2));
	I->migrate(h.ops, v->sched_priv, c2rqd(h.ops, 3), now(&h));
	ck_assert(v->pause_flags & VPF_MIGRATING);
	ck_assert_int_eq(softirq_pending(&h, 0), poked);
	ck_assert_int_eq(cpumask_test(c2rqd(h.ops, 0)->tickled, 0), marked);
	sim_destroy(h.s);

	h = mk(host2x2, "<domain name=\"a\" vcpus=\"4\"/>", spec);
	v = V(&h, 0, 0);
	run_on(&h, v, 0, 5000000, MSEC(2));
	v->pause_flags |= VPF_BLOCKED;
	h.ops->ops->sleep(h.ops, v);
	ck_assert(softirq_pending(&h, 0));
	ck_assert_int_eq(cpumask_test(c2rqd(h.ops, 0)->tickled, 0), marked);
	sim_destroy(h.s);
}

START_TEST(era_migrate_kick_and_tickle_mark)
{
	migrate_and_sleep("credit2:era=2016:runqueue=socket", false, false);
	migrate_and_sleep("credit2:era=2016-socket", true, false);
	migrate_and_sleep("credit2:era=2016-p20", true, true);
	migrate_and_sleep("credit2", true, true);
}
END_TEST

/* Before 4fa4f8a3cd a reset forgives what the other running vCPUs ran. */
START_TEST(era_reset_burn)
{
	const char *spec[] = { "credit2:era=2016-socket", "credit2:era=2016-p20" };
	int burnt[] = { 0, 1 }, i;

	for (i = 0; i < 2; i++) {
		struct host h = mk(host4, six_vcpus, spec[i]);
		struct csched2_unit *o = SVC(&h, 0, 1);

		run_on(&h, V(&h, 0, 0), 0, -100, 0);
		run_on(&h, V(&h, 0, 1), 1, 1000000, 0);
		h.s->q.now += MSEC(1);
		I->reset_credit(h.ops, 0, now(&h), SVC(&h, 0, 0));
		/* 1M + 10M = 11M capped; with the charge: 1M - 1M + 10M = 10M */
		ck_assert_int_eq(o->credit, burnt[i] ? 10000000 : 10500000);
		sim_destroy(h.s);
	}
}
END_TEST

/* Before 6348214c5d, res_pick draws its pCPU with cpumask_any (the run's rng). */
START_TEST(era_pick_bias)
{
	const char *spec[] = { "credit2:era=2016-socket", "credit2:era=2016-p20" };
	int i;

	for (i = 0; i < 2; i++) {
		struct host h = mk(host4, six_vcpus, spec[i]);
		struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);
		struct rng before = h.s->rng;
		int bias = rqd->pick_bias, cpu = I->res_pick(h.ops, V(&h, 0, 5));

		ck_assert(cpu >= 0 && cpu < 4);
		if (i == 0) {
			ck_assert_int_eq(rqd->pick_bias, bias);
			ck_assert(memcmp(&before, &h.s->rng, sizeof(before)) != 0);
		} else {
			ck_assert_int_eq(cpu, (bias + 1) % 4);
			ck_assert_int_eq(rqd->pick_bias, cpu);
			ck_assert(memcmp(&before, &h.s->rng, sizeof(before)) == 0);
		}
		sim_destroy(h.s);
	}
}
END_TEST

/* 4b6923acff (patch 24): a pCPU inside its ratelimit scores -1. */
START_TEST(era_tickle_ratelimit)
{
	struct host h = busy4("credit2:era=2016-p21", 5000000);

	V(&h, 0, 1)->state_entry_time = now(&h) - USEC(500);
	ck_assert_int_eq(I->tickle_score(h.ops, now(&h), SVC(&h, 0, 4), 1), 13500000);
	sim_destroy(h.s);
	h = busy4("credit2:era=2016-full", 5000000);
	V(&h, 0, 1)->state_entry_time = now(&h) - USEC(500);
	ck_assert_int_eq(I->tickle_score(h.ops, now(&h), SVC(&h, 0, 4), 1), -1);
	sim_destroy(h.s);
}
END_TEST

/* 89052b9fa2: a vCPU that goes on running updates its own load too. */
START_TEST(era_load_continue)
{
	const char *spec[] = { "credit2:era=2016-full", "credit2:era=4.17" };
	int i;

	for (i = 0; i < 2; i++) {
		struct sched_decision d;
		struct host h = mk(host4, six_vcpus, spec[i]);
		stime_t before;

		run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
		before = SVC(&h, 0, 0)->load_last_update;
		h.s->q.now += MSEC(3);
		schedule_on(&h, 0, &d);
		ck_assert_ptr_eq(d.next, V(&h, 0, 0));
		ck_assert_int_eq(SVC(&h, 0, 0)->load_last_update != before, i == 1);
		sim_destroy(h.s);
	}
}
END_TEST

/*
 * runqueue=cpu: before 753ba43d6d smt_idle groups the topology's threads,
 * so pCPU 0's core {0,1} spans two runqueues; with a76645240b's "whole
 * cores only" clear, pCPU 0 stays in its runqueue's smt_idle while busy.
 */
START_TEST(era_smt_rq_siblings)
{
	const char *spec[] = { "credit2:era=2016-socket:runqueue=cpu",
			       "credit2:era=2016-p20:runqueue=cpu",
			       "credit2:era=4.17:runqueue=cpu" };
	bool stays[] = { false, true, false };
	int i;

	for (i = 0; i < 3; i++) {
		struct sched_decision d;
		struct host h = mk(host4, six_vcpus, spec[i]);
		struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);

		queue(&h, V(&h, 0, 0), 0, 5000000);
		schedule_on(&h, 0, &d);
		ck_assert_ptr_eq(d.next, V(&h, 0, 0));
		ck_assert_int_eq(cpumask_test(rqd->smt_idle, 0), stays[i]);
		sim_destroy(h.s);
	}
}
END_TEST

/* Before e4c1792b58 (2015): new's own busy pCPU first, although 2 and 3 idle. */
START_TEST(era_2015_tickle_own_first)
{
	const char *spec[] = { "credit2:era=2015", "credit2:era=2016:runqueue=socket" };
	int expect[] = { 0, 2 }, i;

	for (i = 0; i < 2; i++) {
		struct host h = mk(host4, six_vcpus, spec[i]);
		struct csched2_unit *n = SVC(&h, 0, 1);

		run_on(&h, V(&h, 0, 0), 0, 1000, MSEC(2));
		run_on(&h, V(&h, 0, 2), 1, 1000, MSEC(2));
		queue(&h, V(&h, 0, 1), 0, 5000000);
		I->runq_tickle(h.ops, n, now(&h));
		ck_assert_int_eq(tickled_only(&h, 0), expect[i]);
		sim_destroy(h.s);
	}
}
END_TEST

/* Before 2c6f317a2b an idle pCPU rescheduled every MAX_TIMER (2 ms). */
START_TEST(era_2015_idle_slice)
{
	struct host h = mk(host4, six_vcpus, "credit2:era=2015");

	ck_assert_int_eq(I->runtime(h.ops, 0, I->svc_of(h.ops, h.s->pcpus[0].idle), now(&h),
				    false, 0), MSEC(2));
	ck_assert_int_eq(h.prv->ratelimit_us, 0);        /* no ratelimit before 2615485905 */
	sim_destroy(h.s);
	h = mk(host4, six_vcpus, "credit2:era=2016");
	ck_assert_int_eq(I->runtime(h.ops, 0, I->svc_of(h.ops, h.s->pcpus[0].idle), now(&h),
				    false, 0), -1);
	ck_assert_int_eq(h.prv->ratelimit_us, 1000);
	sim_destroy(h.s);
}
END_TEST

/*
 * Before b6fa4c81b2 credit2 had no hard affinity: placement takes the pCPU
 * after the vCPU's own in the chosen runqueue, and a waiter pinned
 * elsewhere is taken all the same.
 */
START_TEST(era_2015_no_hard_affinity)
{
	struct host h = mk(host4, six_vcpus, "credit2:era=2015");
	struct csched2_unit *w = SVC(&h, 0, 1), *got;
	int skipped;

	V(&h, 0, 5)->processor = 2;
	ck_assert_int_eq(I->res_pick(h.ops, V(&h, 0, 5)), 3);
	set_mask(&h, V(&h, 0, 1)->hard, "3");
	queue(&h, V(&h, 0, 1), 0, 5000000);
	got = I->runq_candidate(h.ops, c2rqd(h.ops, 0), I->svc_of(h.ops, h.s->pcpus[0].idle), 0,
				now(&h), &skipped);
	ck_assert_ptr_eq(got, w);
	sim_destroy(h.s);
	h = mk(host4, six_vcpus, "credit2:era=2016:runqueue=socket");
	w = SVC(&h, 0, 1);
	set_mask(&h, V(&h, 0, 1)->hard, "3");
	queue(&h, V(&h, 0, 1), 0, 5000000);
	got = I->runq_candidate(h.ops, c2rqd(h.ops, 0), I->svc_of(h.ops, h.s->pcpus[0].idle), 0,
				now(&h), &skipped);
	ck_assert_ptr_ne(got, w);
	sim_destroy(h.s);
}
END_TEST

/*
 * The 2015 averages (before d205f8a7f4): (d * load + (2^W - d) * avg) / 2^W
 * with W = 18 fractional bits, in unsigned arithmetic.
 */
START_TEST(era_2015_load_average)
{
	struct host h = mk(host4, six_vcpus, "credit2:era=2015");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);
	stime_t t0 = rqd->load_last_update << LOADAVG_GRANULARITY_SHIFT;

	ck_assert_int_eq(h.prv->load_window_shift, 18);
	ck_assert_int_eq(h.prv->load_precision_shift, 18);
	ck_assert_int_eq(SVC(&h, 0, 0)->avgload, 1 << 17);   /* 50 % of 2^18 */
	rqd->load = 2;
	rqd->avgload = 0;
	rqd->b_avgload = -1;
	/* half a window (2^17 units of 1024 ns): 2^17 * (2 << 18) >> 18 = 2^18 */
	I->update_runq_load(h.ops, rqd, 0, t0 + ((stime_t)1 << 17 << LOADAVG_GRANULARITY_SHIFT));
	ck_assert_int_eq(rqd->avgload, 1 << 18);
	/* -1 as unsigned: (2^17 * 2^19 + 2^17 * (2^64 - 1)) mod 2^64 >> 18 */
	ck_assert_int_eq(rqd->b_avgload,
			 (stime_t)((((uint64_t)1 << 36) + ((uint64_t)1 << 17) * UINT64_MAX) >> 18));
	sim_destroy(h.s);
}
END_TEST

/*
 * Before 9f358ddd69 insert does no res_pick: the initial pCPUs stay.  In
 * the 2015 tree those are domctl's: vCPU 0 on default_vcpu0_location's
 * pick (no other domain, so every count is 0, and without SMT every pCPU
 * is a candidate: the highest, pCPU 3), the next ones on the following
 * pCPUs.
 */
START_TEST(era_2015_insert_in_place)
{
	struct host h = mk(host2x2, "<domain name=\"a\" vcpus=\"4\"/>", "credit2:era=2015");
	int i;

	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(V(&h, 0, i)->processor, (3 + i) % 4);
		ck_assert_ptr_eq(SVC(&h, 0, i)->rqd, c2rqd(h.ops, (3 + i) % 4));
	}
	sim_destroy(h.s);
}
END_TEST

/*
 * Before 2020 credit had no floor and Xen's int arithmetic wraps (the
 * figures of a real divergence against the 2017-08 p20 tree): a weight-1
 * vCPU under max_weight 4096 burning 1 ms, a reset with the multiplier,
 * tickle_score's and csched2_runtime's differences of two credits.
 */
START_TEST(era_2016_int_credit_wraps)
{
	struct host h = mk(host4, six_vcpus, "credit2:era=2016-p20");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);
	struct csched2_unit *svc = SVC(&h, 0, 0), *n;

	rqd->max_weight = 4096;
	svc->weight = 1;
	svc->residual = 0;
	svc->credit = 10500000;
	I->t2c_update(rqd, MSEC(1), svc, INT_MIN);
	ck_assert_int_eq(svc->credit, 209467296);         /* 10.5M - 4.096e9 + 2^32 */
	svc->credit = 10500000;
	I->t2c_update(rqd, MSEC(1), svc, CSCHED2_CREDIT_MIN);
	ck_assert_int_eq(svc->credit, CSCHED2_CREDIT_MIN);
	sim_destroy(h.s);

	/* reset: m = 1 + 687036512 / 10M = 69; 1559930784 + 690M wraps */
	h = mk(host4, six_vcpus, "credit2:era=2016-p20");
	SVC(&h, 0, 0)->credit = -687036512;
	SVC(&h, 0, 1)->credit = 1559930784;
	I->reset_credit(h.ops, 0, now(&h), SVC(&h, 0, 0));
	ck_assert_int_eq(SVC(&h, 0, 1)->credit, -2045036512);
	sim_destroy(h.s);

	/* tickle_score: -1838482704 - 1395222432 wraps to 1061262160 */
	h = busy4("credit2:era=2016-p20", 5000000);
	n = SVC(&h, 0, 4);
	n->credit = -1838482704;
	SVC(&h, 0, 1)->credit = 1395222432;
	ck_assert_int_eq(I->tickle_score(h.ops, now(&h), n, 1),
			 1061262160 - 500000 + CSCHED2_CREDIT_INIT);
	sim_destroy(h.s);

	/* runtime: -2e9 - 1e9 wraps to 1294967296: MAX_TIMER, not MIN_TIMER */
	h = mk(host4, six_vcpus, "credit2:era=2016-p20");
	run_on(&h, V(&h, 0, 0), 0, -2000000000, 0);
	queue(&h, V(&h, 0, 1), 0, 1000000000);
	ck_assert_int_eq(I->runtime(h.ops, 0, SVC(&h, 0, 0), now(&h), false, 0), MSEC(2));
	sim_destroy(h.s);
}
END_TEST

/* Each era's switches, as the table at the top of credit2.c says. */
START_TEST(era_presets)
{
	static const struct {
		const char *era;
		int rq, reset;
		stime_t max_timer;
		bool tcpu, yield, kick, mark, burn, bias, soft, score, trl, caps, idle1, rqsib,
		     lcont, infl;
	} t[] = {
		{ "2015", OPT_RQ_SOCKET, RESET_SNEXT, MSEC(2), 0,0,0,0,0,0,0,0,0,0,0,0,0,0 },
		{ "2016", OPT_RQ_CORE, RESET_SNEXT, MSEC(2), 0,0,0,0,0,0,0,0,0,0,0,0,0,0 },
		{ "2016-socket", OPT_RQ_SOCKET, RESET_SKIPPED, MSEC(10), 1,1,1,0,0,0,0,0,0,0,0,0,0,0 },
		{ "2016-p20", OPT_RQ_SOCKET, RESET_SKIPPED, MSEC(2), 1,1,1,1,1,1,1,1,0,0,0,0,0,0 },
		{ "2016-p21", OPT_RQ_SOCKET, RESET_SKIPPED, MSEC(2), 1,1,1,1,1,1,1,1,0,0,0,0,0,0 },
		{ "2016-full", OPT_RQ_SOCKET, RESET_SKIPPED, MSEC(10), 1,1,1,1,1,1,1,1,1,0,0,0,0,0 },
		{ "4.17", OPT_RQ_SOCKET, RESET_TOP, MSEC(10), 1,1,1,1,1,1,1,1,1,1,1,1,1,0 },
		{ "4.22", OPT_RQ_SOCKET, RESET_TOP, MSEC(10), 1,1,1,1,1,1,1,1,1,1,1,1,1,1 },
		{ "current", OPT_RQ_SOCKET, RESET_TOP, MSEC(10), 1,1,1,1,1,1,1,1,1,1,1,1,1,1 },
	};
	unsigned i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char spec[64];
		struct host h;
		const struct csched2_private *p;

		snprintf(spec, sizeof(spec), "credit2:era=%s", t[i].era);
		h = mk(host4, six_vcpus, spec);
		p = h.prv;
		ck_assert_msg(p->cfg.runqueue == t[i].rq && p->reset == t[i].reset &&
			      p->max_timer == t[i].max_timer && p->tickled_cpu == t[i].tcpu &&
			      p->yield == t[i].yield && p->migrate_kick == t[i].kick &&
			      p->tickle_mark == t[i].mark && p->reset_burn == t[i].burn &&
			      p->pick_bias == t[i].bias && p->soft_aff == t[i].soft &&
			      p->tickle_score == t[i].score && p->tickle_ratelimit == t[i].trl &&
			      p->caps == t[i].caps && p->idle_first == t[i].idle1 &&
			      p->smt_rq_siblings == t[i].rqsib && p->load_continue == t[i].lcont &&
			      p->inflight == t[i].infl &&
			      p->smt_idle == (i > 0) && p->hard_affinity == (i > 0) &&
			      p->idle_no_timer == (i > 0) && p->tickle_idle_first == (i > 0) &&
			      p->insert_pick == (i > 0) && p->load_2016 == (i > 0) &&
			      p->max_cpus_runqueue == (t[i].caps ? 16 : INT_MAX),
			      "era %s", t[i].era);
		sim_destroy(h.s);
	}
}
END_TEST

/*
 * A new domain draws from the run's random stream only where Xen's
 * alloc_domdata calls cpumask_any(): for the cap replenishment timer, since
 * ad4b3e1e9d (Sep 2017).  A draw the tree does not make shifts every later
 * cpumask_any, which places vCPUs in 2015 and 2016 (before pick_bias): the
 * 2016 model took one and sat vCPUs on other pCPUs than Xen's 2016 trees.
 */
START_TEST(era_domain_draws_only_with_caps)
{
	static const struct {
		const char *era;
		bool draws;
	} t[] = {
		{ "2015", false }, { "2016", false }, { "2016-socket", false },
		{ "2016-p20", false }, { "2016-full", false }, { "4.17", true }, { "current", true },
	};
	unsigned i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char spec[64];
		struct host h;
		struct rng before, after_one;
		void *dd;

		snprintf(spec, sizeof(spec), "credit2:era=%s", t[i].era);
		h = mk(host4, "<domain name=\"a\" vcpus=\"1\"/>", spec);
		before = after_one = h.s->rng;
		rng_next(&after_one);
		dd = h.ops->ops->alloc_domdata(h.ops, h.s->domains[0]);
		ck_assert_msg(memcmp(&h.s->rng, t[i].draws ? &after_one : &before,
				     sizeof(before)) == 0,
			      "era %s: alloc_domdata should draw %s", t[i].era,
			      t[i].draws ? "once" : "nothing");
		h.ops->ops->free_domdata(h.ops, dd);
		sim_destroy(h.s);
	}
}
END_TEST

/* --- wake, sleep, context_saved --- */

START_TEST(delayed_runq_add_and_load)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);
	struct vcpu *v = V(&h, 0, 1);
	struct csched2_unit *svc = v->sched_priv;
	int load;

	/* Woken while still being switched out (its load still counted from
	 * when it ran): queued only at context_saved, load unchanged. */
	rqd->load++;
	load = rqd->load;
	svc->flags |= CSFLAG_scheduled;
	v->pause_flags = 0;
	h.ops->ops->wake(h.ops, v);
	ck_assert(!I->unit_on_runq(svc));
	ck_assert(svc->flags & CSFLAG_delayed_runq_add);
	h.ops->ops->context_saved(h.ops, v);
	ck_assert(I->unit_on_runq(svc));
	ck_assert(!(svc->flags & (CSFLAG_delayed_runq_add | CSFLAG_scheduled)));
	ck_assert_int_eq(rqd->load, load);
	ck_assert_int_eq(svc->tickled_cpu, v->processor);   /* all idle: its own */

	/* Sleep while queued: off the runqueue, one less load. */
	v->pause_flags = VPF_BLOCKED;
	h.ops->ops->sleep(h.ops, v);
	ck_assert(!I->unit_on_runq(svc));
	ck_assert_int_eq(rqd->load, load - 1);

	/* A plain wake: queued, one more. */
	v->pause_flags = 0;
	h.ops->ops->wake(h.ops, v);
	ck_assert(I->unit_on_runq(svc));
	ck_assert_int_eq(rqd->load, load);
	sim_destroy(h.s);
}
END_TEST

START_TEST(context_saved_blocked_drops_load)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);
	struct vcpu *v = V(&h, 0, 0);
	int load;

	run_on(&h, v, 0, 5000000, MSEC(2));
	load = rqd->load;
	v->pause_flags = VPF_BLOCKED;
	v->is_running = false;
	h.s->pcpus[0].curr = h.s->pcpus[0].unit = h.s->pcpus[0].idle;
	h.ops->ops->context_saved(h.ops, v);
	ck_assert_int_eq(rqd->load, load - 1);
	ck_assert(!I->unit_on_runq(v->sched_priv));
	sim_destroy(h.s);
}
END_TEST

/* --- balance_load --- */

static void set_loads(struct host *h, stime_t a, stime_t b, stime_t d, stime_t e)
{
	struct csched2_runqueue_data *r0 = c2rqd(h->ops, 0), *r1 = c2rqd(h->ops, 2);
	stime_t t = now(h) >> LOADAVG_GRANULARITY_SHIFT;
	stime_t loads[4] = { a, b, d, e };
	int i;

	/* vCPUs 0,1 on runqueue 0 and 2,3 on runqueue 1, in that order. */
	for (i = 0; i < 4; i++) {
		struct csched2_unit *svc = SVC(h, 0, i);

		I->runq_move(svc, i < 2 ? r0 : r1);
		V(h, 0, i)->processor = i;
		svc->avgload = loads[i];
		svc->load_last_update = t;
	}
	r0->b_avgload = r0->avgload = a + b;
	r1->b_avgload = r1->avgload = d + e;
	r0->load = r1->load = 0;
	r0->load_last_update = r1->load_last_update = t;
	r1->pick_bias = 2;
}

START_TEST(balance_load_swap_push_threshold)
{
	struct host h = mk(host2x2, "<domain name=\"a\" vcpus=\"4\"/>", "credit2");
	struct csched2_runqueue_data *r0 = c2rqd(h.ops, 0), *r1 = c2rqd(h.ops, 2);

	/* l = 1.0 + 0.5, o = 0.25 + 0: gap 1.25 >= 1 (under 100 %: 1.5 < 2).
	 * push a: .75, swap a-d: .25, push b: .25 (not strictly better), so
	 * swap vCPU 0 with vCPU 2. */
	set_loads(&h, P18, P18 / 2, P18 / 4, 0);
	I->balance_load(h.ops, 0, now(&h));
	ck_assert_ptr_eq(SVC(&h, 0, 0)->rqd, r1);
	ck_assert_ptr_eq(SVC(&h, 0, 2)->rqd, r0);
	ck_assert_ptr_eq(SVC(&h, 0, 1)->rqd, r0);
	ck_assert_int_eq(V(&h, 0, 0)->processor, 3);   /* next after pick_bias 2 */
	ck_assert_int_eq(r0->b_avgload, P18 / 2 + P18 / 4);
	ck_assert_int_eq(r1->b_avgload, P18);
	sim_destroy(h.s);

	/* 1.0 + 1.0 against 0 (100 %: the 1/8 threshold), the vCPUs of
	 * runqueue 1 pinned there: the only choice is a push, of vCPU 0. */
	h = mk(host2x2, "<domain name=\"a\" vcpus=\"4\"/>", "credit2");
	r0 = c2rqd(h.ops, 0);
	r1 = c2rqd(h.ops, 2);
	set_loads(&h, P18, P18, 0, 0);
	set_mask(&h, V(&h, 0, 2)->hard, "2-3");
	set_mask(&h, V(&h, 0, 3)->hard, "2-3");
	I->balance_load(h.ops, 0, now(&h));
	ck_assert_ptr_eq(SVC(&h, 0, 0)->rqd, r1);
	ck_assert_ptr_eq(SVC(&h, 0, 1)->rqd, r0);
	ck_assert_ptr_eq(SVC(&h, 0, 2)->rqd, r1);
	ck_assert_int_eq(r0->b_avgload, P18);
	ck_assert_int_eq(r1->b_avgload, P18);
	sim_destroy(h.s);

	/* Nothing here (our vCPUs pinned here), 1.0 + 1.0 there: pull the first. */
	h = mk(host2x2, "<domain name=\"a\" vcpus=\"4\"/>", "credit2");
	r0 = c2rqd(h.ops, 0);
	r1 = c2rqd(h.ops, 2);
	set_loads(&h, 0, 0, P18, P18);
	set_mask(&h, V(&h, 0, 0)->hard, "0-1");
	set_mask(&h, V(&h, 0, 1)->hard, "0-1");
	I->balance_load(h.ops, 0, now(&h));
	ck_assert_ptr_eq(SVC(&h, 0, 2)->rqd, r0);
	ck_assert_ptr_eq(SVC(&h, 0, 3)->rqd, r1);
	ck_assert_int_le(V(&h, 0, 2)->processor, 1);
	ck_assert_int_eq(r0->b_avgload, P18);
	ck_assert_int_eq(r1->b_avgload, P18);
	sim_destroy(h.s);

	/* Gap 0.75 under 100 %: below the one-vCPU threshold, nothing moves. */
	h = mk(host2x2, "<domain name=\"a\" vcpus=\"4\"/>", "credit2");
	r0 = c2rqd(h.ops, 0);
	set_loads(&h, P18, P18 / 2, P18 / 2, P18 / 4);
	I->balance_load(h.ops, 0, now(&h));
	ck_assert_ptr_eq(SVC(&h, 0, 0)->rqd, r0);
	ck_assert_ptr_eq(SVC(&h, 0, 1)->rqd, r0);
	sim_destroy(h.s);
}
END_TEST

/*
 * balance_load's swaps: the first pull candidate nearest to balance, found
 * by binary search over the sorted loads, is the pair Xen's loop over
 * every candidate keeps.  Random loads from small ranges, so that equal
 * loads and candidates equally far on either side of balance are common.
 */
START_TEST(balance_swap_search_matches_pair_loop)
{
	struct rng r;
	struct c2_swap_key keys[100];
	stime_t load2[100];

	rng_seed(&r, 7);
	/* up to 39 keys (sorted by insertion), then up to 99 (by heap) */
	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)(rng_next(&r) % (round < 10000 ? 40 : 100)), nk, first, want_k = n;
		stime_t range = (stime_t)(1 + rng_next(&r) % (round % 2 ? 8 : 1000));
		stime_t base = (stime_t)(rng_next(&r) % (uint64_t)(4 * range + 1)) - 3 * range;
		stime_t best = STIME_MAX, delta;
		bool found;

		for (size_t k = 0; k < n; k++) {
			load2[k] = 2 * (stime_t)(rng_next(&r) % (uint64_t)range);
			keys[k] = (struct c2_swap_key){ load2[k], k };
		}
		/* Xen's order: every candidate in turn, kept when strictly better */
		for (size_t k = 0; k < n; k++) {
			stime_t d = base + load2[k] < 0 ? -(base + load2[k]) : base + load2[k];

			if (d < best) {
				best = d;
				want_k = k;
			}
		}
		nk = I->swap_keys_build(keys, n);
		found = I->best_swap(keys, nk, base, &delta, &first);
		ck_assert_int_eq(found, n > 0);
		if (!n)
			continue;
		ck_assert_msg(delta == best && first == want_k,
			      "round %d: n %zu base %lld: got %lld at %zu, loop %lld at %zu", round, n,
			      (long long)base, (long long)delta, first, (long long)best, want_k);
	}
}
END_TEST

START_TEST(balance_load_running_unit_gets_request)
{
	struct host h = mk(host2x2, "<domain name=\"a\" vcpus=\"4\"/>", "credit2");
	struct csched2_runqueue_data *r0 = c2rqd(h.ops, 0), *r1 = c2rqd(h.ops, 2);
	struct csched2_unit *a = SVC(&h, 0, 0);

	set_loads(&h, P18, P18, 0, 0);
	run_on(&h, V(&h, 0, 0), 0, 5000000, MSEC(2));
	r0->load = 0;
	I->balance_load(h.ops, 0, now(&h));
	/* Still on runqueue 0, asked to move to runqueue 1 once off pCPU 0. */
	ck_assert_ptr_eq(a->rqd, r0);
	ck_assert_ptr_eq(a->migrate_rqd, r1);
	ck_assert(a->flags & CSFLAG_runq_migrate_request);
	ck_assert(V(&h, 0, 0)->pause_flags & VPF_MIGRATING);
	ck_assert(cpumask_test(r0->tickled, 0));
	/* The core's migration finish asks res_pick: runqueue 1. */
	ck_assert_int_ge(I->res_pick(h.ops, V(&h, 0, 0)), 2);
	ck_assert(!(a->flags & CSFLAG_runq_migrate_request));
	sim_destroy(h.s);
}
END_TEST

/* --- caps --- */

START_TEST(cap_budget_grab_park_replenish)
{
	struct host h = mk(host4, "<domain name=\"c\" vcpus=\"1\" cap=\"25\"/>", "credit2");
	struct vcpu *v = V(&h, 0, 0);
	struct csched2_unit *svc = v->sched_priv;
	struct csched2_dom *sdom = svc->sdom;

	/* 25 % of 10 ms. */
	ck_assert_int_eq(sdom->tot_budget, USEC(2500));
	ck_assert_int_eq(sdom->budget, USEC(2500));
	ck_assert_int_eq(svc->budget, 0);
	ck_assert_int_eq(svc->budget_quota, USEC(2500));
	ck_assert(timer_pending(&sdom->repl_timer));

	ck_assert(I->unit_grab_budget(h.ops, svc));
	ck_assert_int_eq(svc->budget, USEC(2500));
	ck_assert_int_eq(sdom->budget, 0);

	/* Overran by 100 us: paid from the pool, which is empty: parked. */
	svc->budget = -USEC(100);
	ck_assert(!I->unit_grab_budget(h.ops, svc));
	ck_assert_int_eq(svc->budget, 0);
	ck_assert_int_eq(sdom->budget, -USEC(100));
	ck_assert(v->pause_flags & VPF_PARKED);

	/* Replenishment: -100 us + 2.5 ms; unparked and queued (now runnable). */
	v->pause_flags &= ~VPF_BLOCKED;
	h.s->q.now = sdom->next_repl;
	I->replenish_domain_budget(&sdom->repl_timer, sdom);
	ck_assert_int_eq(sdom->budget, USEC(2400));
	ck_assert(!(v->pause_flags & VPF_PARKED));
	ck_assert(I->unit_on_runq(svc));
	ck_assert_int_eq(sdom->repl_timer.expires, sdom->next_repl);

	/* Three periods late: three replenishments, clipped to tot_budget. */
	h.s->q.now = sdom->next_repl + MSEC(25);
	I->replenish_domain_budget(&sdom->repl_timer, sdom);
	ck_assert_int_eq(sdom->budget, USEC(2500));
	ck_assert_int_eq(sdom->next_repl, now(&h) + MSEC(5));
	sim_destroy(h.s);
}
END_TEST

START_TEST(cap_returned_budget_unparks)
{
	struct host h = mk(host4, "<domain name=\"c\" vcpus=\"2\" cap=\"50\"/>", "credit2");
	struct vcpu *v0 = V(&h, 0, 0), *v1 = V(&h, 0, 1);
	struct csched2_unit *s0 = v0->sched_priv, *s1 = v1->sched_priv;
	struct csched2_dom *sdom = s0->sdom;

	/* 5 ms a period, quota 2.5 ms each; v1 takes one, v0 the other, v0
	 * overruns and is parked while v1 runs. */
	v0->pause_flags = v1->pause_flags = 0;
	ck_assert(I->unit_grab_budget(h.ops, s1));
	ck_assert(I->unit_grab_budget(h.ops, s0));
	ck_assert_int_eq(sdom->budget, 0);
	s0->budget = -USEC(10);
	ck_assert(!I->unit_grab_budget(h.ops, s0));
	ck_assert(v0->pause_flags & VPF_PARKED);
	/* v1 stops with 1 ms left: it goes back to the pool, v0 is unparked. */
	run_on(&h, v1, 1, 5000000, MSEC(2));
	s1->budget = MSEC(1);
	v1->is_running = false;
	h.s->pcpus[1].curr = h.s->pcpus[1].unit = h.s->pcpus[1].idle;
	s1->flags &= ~CSFLAG_scheduled;
	h.ops->ops->context_saved(h.ops, v1);
	ck_assert_int_eq(sdom->budget, MSEC(1) - USEC(10));
	ck_assert_int_eq(s1->budget, 0);
	ck_assert(!(v0->pause_flags & VPF_PARKED));
	ck_assert(I->unit_on_runq(s0));
	sim_destroy(h.s);
}
END_TEST

/*
 * The cap is set once the domain's four vCPUs exist, as xl does: the
 * budget is cap 201 % of the 10 ms period, 20.1 ms, not the 10 ms of the
 * "cap 100 % per vCPU" limit that applies while only one exists.
 */
START_TEST(cap_set_after_all_vcpus)
{
	struct host h = mk(host4, "<domain name=\"a\" vcpus=\"4\" cap=\"201\" weight=\"64\"/>"
			   "<domain name=\"b\" vcpus=\"2\"/>", "credit2");
	struct csched2_dom *sdom = h.s->domains[0]->sched_priv;
	int i;

	ck_assert_int_eq(sdom->cap, 201);
	ck_assert_int_eq(sdom->tot_budget, 20100000);
	ck_assert_int_eq(sdom->budget, 20100000);
	ck_assert_int_eq(sdom->weight, 64);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(SVC(&h, 0, i)->budget_quota, 5025000);
		ck_assert_int_eq(SVC(&h, 0, i)->weight, 64);
	}
	ck_assert_int_eq(c2rqd(h.ops, 0)->max_weight, 256);
	sim_destroy(h.s);
}
END_TEST

START_TEST(cap_quota_per_vcpu)
{
	struct host h = mk(host4, "<domain name=\"c\" vcpus=\"4\" cap=\"100\"/>"
			   "<domain name=\"d\" vcpus=\"4\" cap=\"10\"/>", "credit2");

	ck_assert_int_eq(SVC(&h, 0, 3)->budget_quota, USEC(2500));   /* 10 ms / 4 */
	ck_assert_int_eq(SVC(&h, 1, 0)->budget_quota, USEC(500));    /* max(250 us, MIN_TIMER) */
	sim_destroy(h.s);

	h = mk(host4, "<domain name=\"c\" vcpus=\"1\" cap=\"25\"/>", "credit2:caps=off");
	ck_assert_int_eq(SVC(&h, 0, 0)->budget, STIME_MAX);
	sim_destroy(h.s);
}
END_TEST

/* --- runqueue arrangements --- */

static const char host8[] =
	"<host sockets=\"2\" cores-per-socket=\"2\" threads-per-core=\"2\" nodes=\"2\"/>";

static void expect_rqs(const char *host, const char *sched, int n, const char *first)
{
	struct host h = mk(host, "<domain name=\"a\" vcpus=\"1\"/>", sched);
	char buf[64];

	ck_assert_msg(h.prv->nr_rqs == n, "%s: %d runqueues, expected %d", sched,
		      h.prv->nr_rqs, n);
	cpumask_format(h.prv->rql[0]->active, buf, sizeof(buf));
	ck_assert_msg(strcmp(buf, first) == 0, "%s: first runqueue %s, expected %s", sched, buf,
		      first);
	sim_destroy(h.s);
}

START_TEST(runqueue_arrangements)
{
	expect_rqs(host8, "credit2:runqueue=cpu", 8, "0");
	expect_rqs(host8, "credit2:runqueue=core", 4, "0-1");
	expect_rqs(host8, "credit2:runqueue=socket", 2, "0-3");
	expect_rqs(host8, "credit2:runqueue=node", 2, "0-3");
	expect_rqs(host8, "credit2:runqueue=all", 1, "0-7");
	expect_rqs(host8, "credit2", 2, "0-3");                 /* socket */
	expect_rqs(host8, "credit2:era=2016", 4, "0-1");        /* core */
	/* At most 4 (spread: 8 / ceil(8/4)); siblings stay together. */
	expect_rqs(host8, "credit2:runqueue=all:max_cpus_runqueue=4", 2, "0-3");
	expect_rqs(host8, "credit2:runqueue=all:max_cpus_runqueue=2", 4, "0-1");
	/* Even beyond the limit, siblings are not split. */
	expect_rqs(host8, "credit2:runqueue=all:max_cpus_runqueue=1", 4, "0-1");
	/* 6 pCPUs with at most 4: spread as 3 + 3, not 4 + 2. */
	expect_rqs("<host sockets=\"1\" cores-per-socket=\"6\" threads-per-core=\"1\"/>",
		   "credit2:runqueue=all:max_cpus_runqueue=4", 2, "0-2");
	/* Two sockets on one node. */
	expect_rqs("<host sockets=\"2\" cores-per-socket=\"2\" threads-per-core=\"1\" nodes=\"1\"/>",
		   "credit2:runqueue=node", 1, "0-3");
}
END_TEST

START_TEST(sibling_masks_follow_runqueues)
{
	struct host h = mk(host8, "<domain name=\"a\" vcpus=\"1\"/>", "credit2:runqueue=core");
	char buf[64];

	cpumask_format(h.prv->pcpu[5].sibling_mask, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4-5");
	sim_destroy(h.s);
	h = mk(host8, "<domain name=\"a\" vcpus=\"1\"/>", "credit2:runqueue=cpu");
	cpumask_format(h.prv->pcpu[5].sibling_mask, buf, sizeof(buf));
	ck_assert_str_eq(buf, "5");
	sim_destroy(h.s);
}
END_TEST

START_TEST(max_weight_tracking)
{
	struct host h = mk(host4, "<domain name=\"a\" vcpus=\"1\" weight=\"128\"/>"
			   "<domain name=\"b\" vcpus=\"1\" weight=\"512\"/>", "credit2");
	struct csched2_runqueue_data *rqd = c2rqd(h.ops, 0);

	ck_assert_int_eq(rqd->max_weight, 512);
	/* The heaviest leaves: a full rescan finds 128. */
	I->runq_move(SVC(&h, 1, 0), rqd);
	h.ops->ops->remove_unit(h.ops, V(&h, 1, 0));
	ck_assert_int_eq(rqd->max_weight, 128);
	/* A weight change through adjust. */
	h.s->domains[0]->weight = 1024;
	h.ops->ops->adjust(h.ops, h.s->domains[0]);
	ck_assert_int_eq(rqd->max_weight, 1024);
	ck_assert_int_eq(SVC(&h, 0, 0)->weight, 1024);
	sim_destroy(h.s);
}
END_TEST

START_TEST(dump_and_credit_readout)
{
	struct host h = mk(host4, six_vcpus, "credit2");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	long long credit = 0;

	queue(&h, V(&h, 0, 1), 0, 1234);
	h.ops->ops->dump(h.ops, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "Runqueue 0: cpus=0-3 max_weight=256"));
	ck_assert_ptr_nonnull(strstr(buf, "q [1.1] flags=0 cpu=0 credit=1234 [w=256]"));
	free(buf);
	ck_assert(h.ops->ops->unit_credit(h.ops, V(&h, 0, 1), &credit));
	ck_assert_int_eq(credit, 1234);
	sim_destroy(h.s);
}
END_TEST

START_TEST(bad_parameters)
{
	struct sched_spec spec;
	struct err e = { "" };
	struct scenario sc;
	const char *bad[] = { "credit2:ratelimit_us=50", "credit2:runqueue=rack",
			      "credit2:era=2019", "credit2:load_precision_shift=2",
			      "credit2:max_timer_us=100", "credit2:nosuch=1",
			      "credit2:load_window_shift=40:load_precision_shift=30" };
	size_t i;

	ck_assert_int_eq(scenario_load_default(&sc, &e), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sim *s;

		ck_assert_int_eq(sched_spec_parse(bad[i], &spec, &e), 0);
		e.msg[0] = 0;
		s = sim_build(&sc, &spec, &e);
		ck_assert_msg(s == NULL, "%s accepted", bad[i]);
		ck_assert_msg(e.msg[0] && !strchr(e.msg, '\n'), "%s: '%s'", bad[i], e.msg);
		sched_spec_free(&spec);
	}
	scenario_free(&sc);
}
END_TEST

static Suite *credit2_suite(void)
{
	Suite *s = suite_create("credit2");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, t2c_residuals_and_c2t);
	tcase_add_test(tc, burn_credits_charges_budget);
	tcase_add_test(tc, reset_credit_adds_and_clips);
	tcase_add_test(tc, reset_credit_2016_multiplier);
	tcase_add_test(tc, runq_load_ewma);
	tcase_add_test(tc, svc_load_ewma);
	tcase_add_test(tc, load_shifts_are_parameters);
	tcase_add_test(tc, tickle_idle_core_first);
	tcase_add_test(tc, tickle_soft_step);
	tcase_add_test(tc, tickle_score_values);
	tcase_add_test(tc, tickle_busy_choice);
	tcase_add_test(tc, tickle_2016_lowest_credit);
	tcase_add_test(tc, res_pick_least_loaded);
	tcase_add_test(tc, insert_skips_the_locked_runqueue);
	tcase_add_test(tc, fallback_cpu_order);
	tcase_add_test(tc, runq_order_mirror);
	tcase_add_test(tc, candidate_credit_ratelimit_resist);
	tcase_add_test(tc, candidate_skips_capped_without_budget);
	tcase_add_test(tc, candidate_soft_affinity_preemption);
	tcase_add_test(tc, candidate_parks_capped_without_budget);
	tcase_add_test(tc, runtime_slices);
	tcase_add_test(tc, schedule_migration_compensation_and_inflight);
	tcase_add_test(tc, schedule_reset_tests);
	tcase_add_test(tc, delayed_runq_add_and_load);
	tcase_add_test(tc, context_saved_blocked_drops_load);
	tcase_add_test(tc, balance_load_swap_push_threshold);
	tcase_add_test(tc, balance_swap_search_matches_pair_loop);
	tcase_add_test(tc, balance_load_running_unit_gets_request);
	tcase_add_test(tc, cap_budget_grab_park_replenish);
	tcase_add_test(tc, cap_returned_budget_unparks);
	tcase_add_test(tc, cap_quota_per_vcpu);
	tcase_add_test(tc, cap_set_after_all_vcpus);
	tcase_add_test(tc, runqueue_arrangements);
	tcase_add_test(tc, sibling_masks_follow_runqueues);
	tcase_add_test(tc, max_weight_tracking);
	tcase_add_test(tc, dump_and_credit_readout);
	tcase_add_test(tc, bad_parameters);
	tcase_add_test(tc, era_tickled_cpu);
	tcase_add_test(tc, era_yield);
	tcase_add_test(tc, era_migrate_kick_and_tickle_mark);
	tcase_add_test(tc, era_reset_burn);
	tcase_add_test(tc, era_pick_bias);
	tcase_add_test(tc, era_tickle_ratelimit);
	tcase_add_test(tc, era_load_continue);
	tcase_add_test(tc, era_smt_rq_siblings);
	tcase_add_test(tc, era_2015_tickle_own_first);
	tcase_add_test(tc, era_2015_idle_slice);
	tcase_add_test(tc, era_2015_no_hard_affinity);
	tcase_add_test(tc, era_2015_load_average);
	tcase_add_test(tc, era_2015_insert_in_place);
	tcase_add_test(tc, era_2016_int_credit_wraps);
	tcase_add_test(tc, era_presets);
	tcase_add_test(tc, era_domain_draws_only_with_caps);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(credit2_suite());
}
