/*
 * Unit tests of the Credit1 model on small hand-built states.  The test
 * includes schedulers/credit1.c so that it can call the static decision
 * functions (burn_credits, csched_acct, runq_insert, __runq_tickle,
 * _csched_cpu_pick, csched_runq_steal, ...) directly, as Xen's names.
 * Every expected value is worked out by hand from Xen's credit.c; the
 * comments show the arithmetic.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "schedulers/credit1.c"
#include "sim/experiment/build.h"
#include "sim/input/scenario_load.h"

/* A host built from XML with no workloads: every vCPU starts blocked. */
struct fx {
	struct scenario sc;
	struct sim *s;
	struct csched_private *prv;
};

static void fx_build(struct fx *f, const char *xml, const char *spec)
{
	struct sched_spec sp;
	struct err e;

	memset(f, 0, sizeof(*f));
	memset(&sp, 0, sizeof(sp));
	ck_assert_msg(scenario_load_memory(xml, (int)strlen(xml), "test", &f->sc, &e) == 0,
		      "%s", e.msg);
	ck_assert_msg(sched_spec_parse(spec, &sp, &e) == 0, "%s", e.msg);
	f->s = sim_build(&f->sc, &sp, &e);
	ck_assert_msg(f->s != NULL, "%s", e.msg);
	sched_spec_free(&sp);
	f->prv = CSCHED_PRIV(f->s->sched);
}

static void fx_free(struct fx *f)
{
	sim_destroy(f->s);
	scenario_free(&f->sc);
}

static struct vcpu *V(struct fx *f, int dom, int id)
{
	return f->s->domains[dom]->vcpus[id];
}

/* v runs on cpu since now, as after a context switch. */
static void make_running(struct fx *f, struct vcpu *v, int cpu)
{
	struct sim *s = f->s;
	struct pcpu *pc = &s->pcpus[cpu];
	struct csched_unit *svc = CSCHED_UNIT(v), *isvc = CSCHED_UNIT(pc->idle);

	if (__unit_on_runq(svc))
		runq_remove(f->prv, svc);
	v->pause_flags = 0;
	v->processor = cpu;
	v->is_running = true;
	v->runstate = RUNSTATE_RUNNING;
	v->state_entry_time = sim_now(s);
	svc->start_time = sim_now(s);
	svc->flags &= ~CSCHED_FLAG_UNIT_MIGRATING;
	pc->idle->is_running = false;
	pc->curr = pc->unit = v;
	inc_nr_runnable(f->prv, cpu);
	if (!__unit_on_runq(isvc))
		__runq_insert(f->prv, isvc);
	cpumask_clear_cpu(f->prv->idlers, (unsigned)cpu);
}

/* v is runnable and queued on cpu with priority pri. */
static struct csched_unit *make_queued(struct fx *f, struct vcpu *v, int cpu, int pri)
{
	struct csched_unit *svc = CSCHED_UNIT(v);

	v->pause_flags = 0;
	v->processor = cpu;
	svc->pri = pri;
	svc->flags &= ~CSCHED_FLAG_UNIT_MIGRATING;
	runq_insert(f->prv, svc);
	return svc;
}

static bool tickled(struct fx *f, int cpu)
{
	return timer_pending(&f->s->pcpus[cpu].softirq);
}

static void clear_tickles(struct fx *f)
{
	int c;

	for (c = 0; c < f->s->nr_cpus; c++)
		timer_stop(&f->s->q, &f->s->pcpus[c].softirq);
}

/* The runq of cpu as a string of "d.v" names, idle as "i". */
static const char *runq_str(struct fx *f, int cpu, char *buf, size_t len)
{
	struct clist *runq = &CSCHED_PCPU(f->prv, cpu)->runq, *i;

	buf[0] = '\0';
	for (i = runq->next; i != runq; i = i->next) {
		const struct vcpu *v = __runq_elem(i)->vcpu;
		char one[16];

		if (is_idle_vcpu(v))
			snprintf(one, sizeof(one), "%si", buf[0] ? " " : "");
		else
			snprintf(one, sizeof(one), "%s%d.%d", buf[0] ? " " : "", v->dom->domid,
				 v->vcpu_id);
		strncat(buf, one, len - strlen(buf) - 1);
	}
	return buf;
}

static const char *HOST4 =
	"<scenario duration='1s'>"
	"<host sockets='1' cores-per-socket='4' threads-per-core='1' nodes='1'/>"
	"<domain name='a' vcpus='4'/>"
	"<domain name='b' vcpus='1'/>"
	"</scenario>";

/* 2 sockets x 2 cores x 2 threads: 0,1 | 2,3 on socket 0; 4,5 | 6,7 on socket 1. */
static const char *HOST8 =
	"<scenario duration='1s'>"
	"<host sockets='2' cores-per-socket='2' threads-per-core='2' nodes='1'/>"
	"<domain name='a' vcpus='4'/>"
	"<domain name='b' vcpus='1'/>"
	"</scenario>";

static const char *HOST1 =
	"<scenario duration='1s'>"
	"<host sockets='1' cores-per-socket='1' threads-per-core='1' nodes='1'/>"
	"<domain name='a' vcpus='1' weight='256'/>"
	"<domain name='b' vcpus='1' weight='512'/>"
	"<domain name='c' vcpus='2' weight='256' cap='25'/>"
	"</scenario>";

/* --- burn_credits --- */

START_TEST(test_burn_credits_residual)
{
	struct csched_unit svc;

	memset(&svc, 0, sizeof(svc));
	/* 250 us: val = 250000*10 = 2.5e6 -> 2 credits, residual 5e5, start += 200 us */
	burn_credits(&svc, USEC(250));
	ck_assert_int_eq(svc.credit, -2);
	ck_assert_uint_eq(svc.residual, 500000);
	ck_assert_int_eq(svc.start_time, USEC(200));
	/* +100 us: val = 1e6 + 5e5 -> 1 credit, residual 5e5, start 300 us */
	burn_credits(&svc, USEC(300));
	ck_assert_int_eq(svc.credit, -3);
	ck_assert_uint_eq(svc.residual, 500000);
	ck_assert_int_eq(svc.start_time, USEC(300));
	/* +50 us: val = 5e5 + 5e5 = 1e6 -> 1 credit, residual 0; start runs ahead to 400 us */
	burn_credits(&svc, USEC(350));
	ck_assert_int_eq(svc.credit, -4);
	ck_assert_uint_eq(svc.residual, 0);
	ck_assert_int_eq(svc.start_time, USEC(400));
	/* now before start_time: nothing */
	burn_credits(&svc, USEC(399));
	ck_assert_int_eq(svc.credit, -4);
	ck_assert_int_eq(svc.start_time, USEC(400));
	/* a whole 30 ms timeslice is 300 credits */
	burn_credits(&svc, USEC(400) + MSEC(30));
	ck_assert_int_eq(svc.credit, -304);
}
END_TEST

/* --- csched_acct --- */

START_TEST(test_acct_weights)
{
	struct fx f;
	struct csched_unit *a, *b;

	fx_build(&f, HOST1, "credit1");
	a = CSCHED_UNIT(V(&f, 0, 0));
	b = CSCHED_UNIT(V(&f, 1, 0));
	ck_assert_uint_eq(f.prv->credit, 300);          /* one pCPU */
	__csched_unit_acct_start(f.prv, a);
	__csched_unit_acct_start(f.prv, b);
	ck_assert_uint_eq(f.prv->weight, 768);
	csched_acct(f.prv);
	/* b (first on the list): fair = (300*512 + 767)/768 = 200; a: (300*256 + 767)/768 = 100 */
	ck_assert_int_eq(b->credit, 200);
	ck_assert_int_eq(a->credit, 100);
	ck_assert_int_eq(a->pri, CSCHED_PRI_TS_UNDER);
	ck_assert_int_eq(f.prv->credit_balance, 300);
	ck_assert_uint_eq(f.prv->runq_sort, 1);

	/* Over the ceiling: 250 + 100 = 350 > 300 -> leaves the active list, halved. */
	a->credit = 250;
	b->credit = 0;
	csched_acct(f.prv);
	ck_assert_int_eq(a->credit, 175);
	ck_assert(clist_empty(&a->active_unit_elem));
	ck_assert_uint_eq(f.prv->weight, 512);

	/* Floor: -500 + 300 (b alone now) = -200, no clamp; -900 + 300 -> -300 */
	b->credit = -500;
	csched_acct(f.prv);
	ck_assert_int_eq(b->credit, -200);
	ck_assert_int_eq(b->pri, CSCHED_PRI_TS_OVER);
	b->credit = -900;
	csched_acct(f.prv);
	ck_assert_int_eq(b->credit, -300);
	fx_free(&f);
}
END_TEST

START_TEST(test_acct_negative_balance)
{
	struct fx f;
	struct csched_unit *a, *b;

	fx_build(&f, HOST1, "credit1");
	a = CSCHED_UNIT(V(&f, 0, 0));
	b = CSCHED_UNIT(V(&f, 1, 0));
	__csched_unit_acct_start(f.prv, a);
	__csched_unit_acct_start(f.prv, b);
	/*
	 * balance -150: credit_total = 450.  b: peak = 300 + (150*512+767)/768 = 400,
	 * fair = (450*512+767)/768 = 300 < 400.  a: peak = 300 + (150*256+767)/768 = 350,
	 * fair = (450*256+767)/768 = 150.
	 */
	f.prv->credit_balance = -150;
	csched_acct(f.prv);
	ck_assert_int_eq(b->credit, 300);
	ck_assert_int_eq(a->credit, 150);
	ck_assert_int_eq(f.prv->credit_balance, 450);
	fx_free(&f);
}
END_TEST

START_TEST(test_acct_cap_redistribution)
{
	struct fx f;
	struct csched_unit *a, *c0;

	fx_build(&f, HOST1, "credit1");
	a = CSCHED_UNIT(V(&f, 0, 0));
	c0 = CSCHED_UNIT(V(&f, 2, 0));
	/* list order: c (started last) first, then a; weights 256 + 256 */
	__csched_unit_acct_start(f.prv, a);
	__csched_unit_acct_start(f.prv, c0);
	/*
	 * c, cap 25: capc = (25*300+99)/100 = 75 = peak; fair = (300*256+511)/512 = 150 >= 75,
	 * so the 75 it cannot use go on: ct += ((150-75)*512 + 255)/256 = 150 -> 450.
	 * a: fair = (450*256+511)/512 = 225.
	 */
	csched_acct(f.prv);
	ck_assert_int_eq(c0->credit, 75);
	ck_assert_int_eq(a->credit, 225);
	fx_free(&f);
}
END_TEST

START_TEST(test_acct_xtra_reorder)
{
	struct fx f;
	struct csched_unit *a, *c0;
	struct csched_dom *first;

	fx_build(&f, HOST1, "credit1");
	a = CSCHED_UNIT(V(&f, 0, 0));
	c0 = CSCHED_UNIT(V(&f, 2, 0));
	/* a first this time: it has spare credit (fair 150 < peak 300), so capped c moves ahead */
	__csched_unit_acct_start(f.prv, c0);
	__csched_unit_acct_start(f.prv, a);
	first = clist_entry(f.prv->active_sdom.next, struct csched_dom, active_sdom_elem);
	ck_assert_ptr_eq(first, a->sdom);
	csched_acct(f.prv);
	first = clist_entry(f.prv->active_sdom.next, struct csched_dom, active_sdom_elem);
	ck_assert_ptr_eq(first, c0->sdom);
	ck_assert_int_eq(a->credit, 150);
	ck_assert_int_eq(c0->credit, 75);
	fx_free(&f);
}
END_TEST

/* Parking below -capc and unparking at credit >= 0; BOOST on unpark only in 2016. */
static void cap_park_unpark(const char *spec, int pri_after_unpark)
{
	struct fx f;
	struct vcpu *v;
	struct csched_unit *c0;

	fx_build(&f, HOST1, spec);
	v = V(&f, 2, 0);
	c0 = CSCHED_UNIT(v);
	v->pause_flags = 0;                  /* runnable, not running, not queued */
	c0->flags &= ~CSCHED_FLAG_UNIT_MIGRATING;
	__csched_unit_acct_start(f.prv, c0);
	/* alone: capc = 75 = per-vCPU cap; -200 + 75 = -125 < -75 -> parked */
	c0->credit = -200;
	csched_acct(f.prv);
	ck_assert_int_eq(c0->credit, -125);
	ck_assert(c0->flags & CSCHED_FLAG_UNIT_PARKED);
	ck_assert_int_eq(v->pause_count, 1);
	/* -70 + 75 = 5 >= 0: unparked and woken */
	c0->credit = -70;
	csched_acct(f.prv);
	ck_assert(!(c0->flags & CSCHED_FLAG_UNIT_PARKED));
	ck_assert_int_eq(v->pause_count, 0);
	ck_assert(__unit_on_runq(c0));
	ck_assert_int_eq(c0->pri, pri_after_unpark);
	fx_free(&f);
}

START_TEST(test_cap_park_unpark_current)
{
	cap_park_unpark("credit1", CSCHED_PRI_TS_UNDER);
}
END_TEST

START_TEST(test_cap_park_unpark_2016)
{
	cap_park_unpark("credit1:era=2016", CSCHED_PRI_TS_BOOST);
}
END_TEST

/* --- run queue --- */

START_TEST(test_runq_insert_order)
{
	struct fx f;
	char buf[128];

	fx_build(&f, HOST4, "credit1");
	/* domain a is domid 1, b is domid 2; cpu 0 runs a.3, its idle is queued */
	make_running(&f, V(&f, 0, 3), 0);
	make_queued(&f, V(&f, 0, 0), 0, CSCHED_PRI_TS_OVER);
	make_queued(&f, V(&f, 0, 1), 0, CSCHED_PRI_TS_UNDER);
	make_queued(&f, V(&f, 1, 0), 0, CSCHED_PRI_TS_BOOST);
	make_queued(&f, V(&f, 0, 2), 0, CSCHED_PRI_TS_UNDER);
	ck_assert_str_eq(runq_str(&f, 0, buf, sizeof(buf)), "2.0 1.1 1.2 1.0 i");
	ck_assert_uint_eq(CSCHED_PCPU(f.prv, 0)->nr_runnable, 5);
	fx_free(&f);
}
END_TEST

START_TEST(test_runq_insert_yield)
{
	struct fx f;
	char buf[128];
	struct csched_unit *y;

	fx_build(&f, HOST4, "credit1");
	make_running(&f, V(&f, 0, 3), 0);
	make_queued(&f, V(&f, 0, 0), 0, CSCHED_PRI_TS_UNDER);
	make_queued(&f, V(&f, 0, 1), 0, CSCHED_PRI_TS_OVER);
	make_queued(&f, V(&f, 0, 2), 0, CSCHED_PRI_TS_OVER);
	/* A yielding UNDER vCPU goes behind one OVER vCPU, not behind all. */
	y = CSCHED_UNIT(V(&f, 1, 0));
	y->flags |= CSCHED_FLAG_UNIT_YIELD;
	make_queued(&f, V(&f, 1, 0), 0, CSCHED_PRI_TS_UNDER);
	ck_assert_str_eq(runq_str(&f, 0, buf, sizeof(buf)), "1.0 1.1 2.0 1.2 i");
	fx_free(&f);
}
END_TEST

START_TEST(test_runq_insert_yield_not_behind_idle)
{
	struct fx f;
	char buf[128];

	fx_build(&f, HOST4, "credit1");
	make_running(&f, V(&f, 0, 3), 0);
	CSCHED_UNIT(V(&f, 1, 0))->flags |= CSCHED_FLAG_UNIT_YIELD;
	make_queued(&f, V(&f, 1, 0), 0, CSCHED_PRI_TS_UNDER);
	ck_assert_str_eq(runq_str(&f, 0, buf, sizeof(buf)), "2.0 i");
	fx_free(&f);
}
END_TEST

START_TEST(test_runq_sort)
{
	struct fx f;
	char buf[128];

	fx_build(&f, HOST4, "credit1");
	make_running(&f, V(&f, 1, 0), 0);
	make_queued(&f, V(&f, 0, 0), 0, CSCHED_PRI_TS_UNDER);
	make_queued(&f, V(&f, 0, 1), 0, CSCHED_PRI_TS_UNDER);
	make_queued(&f, V(&f, 0, 2), 0, CSCHED_PRI_TS_UNDER);
	make_queued(&f, V(&f, 0, 3), 0, CSCHED_PRI_TS_UNDER);
	/* accounting changed priorities in place */
	CSCHED_UNIT(V(&f, 0, 0))->pri = CSCHED_PRI_TS_OVER;
	CSCHED_UNIT(V(&f, 0, 2))->pri = CSCHED_PRI_TS_OVER;
	CSCHED_UNIT(V(&f, 0, 3))->pri = CSCHED_PRI_TS_BOOST;
	/* same epoch: untouched */
	csched_runq_sort(f.prv, 0);
	ck_assert_str_eq(runq_str(&f, 0, buf, sizeof(buf)), "1.0 1.1 1.2 1.3 i");
	f.prv->runq_sort++;
	csched_runq_sort(f.prv, 0);
	/* UNDER and BOOST move ahead of OVER, each group in order; BOOST is not put first */
	ck_assert_str_eq(runq_str(&f, 0, buf, sizeof(buf)), "1.1 1.3 1.0 1.2 i");
	fx_free(&f);
}
END_TEST

/* --- wake, BOOST and the tick --- */

START_TEST(test_wake_boost)
{
	struct fx f;
	struct vcpu *v;
	struct csched_unit *svc;

	fx_build(&f, HOST4, "credit1");
	v = V(&f, 1, 0);
	svc = CSCHED_UNIT(v);
	/* the first wake after insert is a placement (res_pick set MIGRATING): no BOOST */
	ck_assert(svc->flags & CSCHED_FLAG_UNIT_MIGRATING);
	v->pause_flags = 0;
	csched_unit_wake(f.s->sched, v);
	ck_assert_int_eq(svc->pri, CSCHED_PRI_TS_UNDER);
	ck_assert(!(svc->flags & CSCHED_FLAG_UNIT_MIGRATING));
	runq_remove(f.prv, svc);
	/* a wake from a block while UNDER: BOOST */
	csched_unit_wake(f.s->sched, v);
	ck_assert_int_eq(svc->pri, CSCHED_PRI_TS_BOOST);
	ck_assert(__unit_on_runq(svc));
	ck_assert(tickled(&f, v->processor));
	runq_remove(f.prv, svc);
	/* OVER stays OVER */
	svc->pri = CSCHED_PRI_TS_OVER;
	csched_unit_wake(f.s->sched, v);
	ck_assert_int_eq(svc->pri, CSCHED_PRI_TS_OVER);
	fx_free(&f);
}
END_TEST

START_TEST(test_tick_acct)
{
	struct fx f;
	struct vcpu *v;
	struct csched_unit *svc;

	fx_build(&f, HOST4, "credit1");
	v = V(&f, 0, 0);
	svc = CSCHED_UNIT(v);
	f.s->q.now = MSEC(10);
	make_running(&f, v, 0);
	svc->start_time = 0;
	svc->pri = CSCHED_PRI_TS_BOOST;
	/* first tick: BOOST ends, 10 ms = 100 credits burnt, joins the active list */
	csched_unit_acct(f.prv, 0);
	ck_assert_int_eq(svc->pri, CSCHED_PRI_TS_UNDER);
	ck_assert_int_eq(svc->credit, -100);
	ck_assert(!clist_empty(&svc->active_unit_elem));
	ck_assert_uint_eq(f.prv->weight, 256);
	/* next tick, nobody waiting on cpu 0: it is as idle as any, stays */
	csched_unit_acct(f.prv, 0);
	ck_assert(!(v->pause_flags & VPF_MIGRATING));
	ck_assert(!tickled(&f, 0));
	/* someone waits on cpu 0 and cpu 1 is idle: migrate the running vCPU */
	make_queued(&f, V(&f, 1, 0), 0, CSCHED_PRI_TS_UNDER);
	csched_unit_acct(f.prv, 0);
	ck_assert(v->pause_flags & VPF_MIGRATING);
	ck_assert(tickled(&f, 0));
	fx_free(&f);
}
END_TEST

/* --- __runq_tickle --- */

START_TEST(test_tickle_idle_cpu)
{
	struct fx f;

	fx_build(&f, HOST4, "credit1");
	make_queued(&f, V(&f, 1, 0), 0, CSCHED_PRI_TS_UNDER);
	__runq_tickle(f.prv, CSCHED_UNIT(V(&f, 1, 0)));
	ck_assert(tickled(&f, 0));
	ck_assert(!tickled(&f, 1) && !tickled(&f, 2) && !tickled(&f, 3));
	fx_free(&f);
}
END_TEST

START_TEST(test_tickle_no_idlers)
{
	struct fx f;
	struct csched_unit *n;
	int c;

	fx_build(&f, HOST4, "credit1");
	for (c = 0; c < 4; c++)
		make_running(&f, V(&f, 0, c), c);
	n = make_queued(&f, V(&f, 1, 0), 0, CSCHED_PRI_TS_UNDER);
	/* UNDER does not preempt UNDER */
	__runq_tickle(f.prv, n);
	for (c = 0; c < 4; c++)
		ck_assert(!tickled(&f, c));
	/* BOOST does, on its own pCPU */
	n->pri = CSCHED_PRI_TS_BOOST;
	__runq_tickle(f.prv, n);
	ck_assert(tickled(&f, 0));
	ck_assert(!tickled(&f, 1));
	fx_free(&f);
}
END_TEST

static void tickle_round_robin(const char *spec, bool cleared)
{
	struct fx f;
	struct csched_unit *n;

	fx_build(&f, HOST4, spec);
	make_running(&f, V(&f, 0, 0), 0);
	make_running(&f, V(&f, 0, 1), 1);
	n = make_queued(&f, V(&f, 1, 0), 0, CSCHED_PRI_TS_UNDER);
	/* idlers {2,3}: last_tickle_cpu = cycle(0, {2,3}) = 2 */
	__runq_tickle(f.prv, n);
	ck_assert(tickled(&f, 2) && !tickled(&f, 3) && !tickled(&f, 0));
	ck_assert(cpumask_test(f.prv->idlers, 2) != cleared);
	clear_tickles(&f);
	/* then cycle(2, ...) = 3 */
	__runq_tickle(f.prv, n);
	ck_assert(tickled(&f, 3) && !tickled(&f, 2));
	fx_free(&f);
}

START_TEST(test_tickle_one_idle_current)
{
	tickle_round_robin("credit1", true);
}
END_TEST

START_TEST(test_tickle_one_idle_2016)
{
	tickle_round_robin("credit1:era=2016", false);
}
END_TEST

START_TEST(test_tickle_all_idle)
{
	struct fx f;
	struct csched_unit *n;

	fx_build(&f, HOST4, "credit1:tickle_one_idle_cpu=off");
	make_running(&f, V(&f, 0, 0), 0);
	make_running(&f, V(&f, 0, 1), 1);
	n = make_queued(&f, V(&f, 1, 0), 0, CSCHED_PRI_TS_UNDER);
	__runq_tickle(f.prv, n);
	ck_assert(tickled(&f, 2) && tickled(&f, 3) && !tickled(&f, 0));
	fx_free(&f);
}
END_TEST

static void tickle_soft(const char *spec, int expect)
{
	struct fx f;
	struct csched_unit *n;
	struct vcpu *v;

	fx_build(&f, HOST4, spec);
	make_running(&f, V(&f, 0, 0), 0);
	make_running(&f, V(&f, 0, 1), 1);
	v = V(&f, 1, 0);
	cpumask_zero(v->soft);
	cpumask_set(v->soft, 3);
	vcpu_update_soft_effective(v);
	n = make_queued(&f, v, 0, CSCHED_PRI_TS_UNDER);
	__runq_tickle(f.prv, n);
	ck_assert(tickled(&f, expect));
	ck_assert(!tickled(&f, 5 - expect));
	fx_free(&f);
}

START_TEST(test_tickle_soft_first)
{
	tickle_soft("credit1", 3);
}
END_TEST

START_TEST(test_tickle_soft_off)
{
	tickle_soft("credit1:soft_affinity=off", 2);
}
END_TEST

/* new pinned to busy cpu 0 and BOOSTed; idlers {2,3}; cur = a.0 may go anywhere. */
static void tickle_kick(const char *spec, bool kicked)
{
	struct fx f;
	struct csched_unit *n;
	struct vcpu *v, *cur;

	fx_build(&f, HOST4, spec);
	cur = V(&f, 0, 0);
	make_running(&f, cur, 0);
	make_running(&f, V(&f, 0, 1), 1);
	v = V(&f, 1, 0);
	cpumask_zero(v->hard);
	cpumask_set(v->hard, 0);
	vcpu_update_soft_effective(v);
	csched_aff_cntl(f.s->sched, v);
	ck_assert(CSCHED_UNIT(v)->flags & CSCHED_FLAG_UNIT_PINNED);
	n = make_queued(&f, v, 0, CSCHED_PRI_TS_BOOST);
	__runq_tickle(f.prv, n);
	ck_assert(tickled(&f, 0));
	ck_assert(!tickled(&f, 2) && !tickled(&f, 3));
	ck_assert_int_eq(!!(cur->pause_flags & VPF_MIGRATING), kicked);
	fx_free(&f);
}

START_TEST(test_tickle_kick_away_2016)
{
	tickle_kick("credit1:era=2016", true);
}
END_TEST

START_TEST(test_tickle_kick_away_current)
{
	tickle_kick("credit1", false);
}
END_TEST

START_TEST(test_tickle_kick_away_switch)
{
	tickle_kick("credit1:tickle_kick=cur", true);
	tickle_kick("credit1:era=2016:tickle_kick=new", false);
	tickle_kick("credit1:era=2015", true);
	tickle_kick("credit1:era=2017", true);
}
END_TEST

/*
 * The 2015 bug (before f02a5760c7): cur is pinned to the same busy pCPU, so
 * no idler can take it, yet it is asked to migrate; the fix asks only when
 * cur's hard affinity holds an idler.
 */
static void tickle_kick_pinned_cur(const char *spec, bool kicked)
{
	struct fx f;
	struct csched_unit *n;
	struct vcpu *v, *cur;

	fx_build(&f, HOST4, spec);
	cur = V(&f, 0, 0);
	cpumask_zero(cur->hard);
	cpumask_set(cur->hard, 0);
	vcpu_update_soft_effective(cur);
	make_running(&f, cur, 0);
	make_running(&f, V(&f, 0, 1), 1);
	v = V(&f, 1, 0);
	cpumask_zero(v->hard);
	cpumask_set(v->hard, 0);
	vcpu_update_soft_effective(v);
	n = make_queued(&f, v, 0, CSCHED_PRI_TS_BOOST);
	__runq_tickle(f.prv, n);
	ck_assert(tickled(&f, 0));
	ck_assert_int_eq(!!(cur->pause_flags & VPF_MIGRATING), kicked);
	fx_free(&f);
}

START_TEST(test_tickle_kick_2015_bug)
{
	tickle_kick_pinned_cur("credit1:era=2015-kick-bug", true);
	tickle_kick_pinned_cur("credit1:era=2015", false);
	tickle_kick_pinned_cur("credit1:era=2016", false);
	tickle_kick_pinned_cur("credit1:tickle_kick=always", true);
}
END_TEST

/*
 * Before f83fc393b2 the idler tickled is the next of all idlers {2,3}
 * after last_tickle_cpu (0): 2, although new may only run on {0,3}.
 */
static void tickle_suitable(const char *spec, int expect)
{
	struct fx f;
	struct csched_unit *n;
	struct vcpu *v;

	fx_build(&f, HOST4, spec);
	make_running(&f, V(&f, 0, 0), 0);
	make_running(&f, V(&f, 0, 1), 1);
	v = V(&f, 1, 0);
	cpumask_zero(v->hard);
	cpumask_set(v->hard, 0);
	cpumask_set(v->hard, 3);
	vcpu_update_soft_effective(v);
	n = make_queued(&f, v, 0, CSCHED_PRI_TS_UNDER);
	__runq_tickle(f.prv, n);
	ck_assert(tickled(&f, expect));
	ck_assert(!tickled(&f, 5 - expect) && !tickled(&f, 0));
	fx_free(&f);
}

START_TEST(test_tickle_suitable_idler)
{
	tickle_suitable("credit1", 3);
	tickle_suitable("credit1:era=2016", 3);
	tickle_suitable("credit1:era=2016-pre", 2);
	tickle_suitable("credit1:era=2015-kick-bug", 2);
	tickle_suitable("credit1:era=2016-pre:tickle_suitable=on", 3);
}
END_TEST

/* Before 66c7449a4d the wake that ends a move BOOSTs (res_pick sets no mark). */
static void migrate_wake(const char *spec, int pri)
{
	struct fx f;
	struct vcpu *v;

	fx_build(&f, HOST4, spec);
	v = V(&f, 1, 0);
	CSCHED_UNIT(v)->flags &= ~CSCHED_FLAG_UNIT_MIGRATING;
	v->processor = csched_res_pick(f.s->sched, v);
	v->pause_flags = 0;
	csched_unit_wake(f.s->sched, v);
	ck_assert_int_eq(CSCHED_UNIT(v)->pri, pri);
	fx_free(&f);
}

START_TEST(test_wake_after_migrate)
{
	migrate_wake("credit1", CSCHED_PRI_TS_UNDER);
	migrate_wake("credit1:era=2016-pre", CSCHED_PRI_TS_UNDER);
	migrate_wake("credit1:era=2015", CSCHED_PRI_TS_BOOST);
	migrate_wake("credit1:era=2015-kick-bug", CSCHED_PRI_TS_BOOST);
	migrate_wake("credit1:migrate_boost=on", CSCHED_PRI_TS_BOOST);
}
END_TEST

/*
 * Before 9f358ddd69 insert does no res_pick: the vCPU stays on the pCPU it
 * was created on (1, busy with a waiter), where res_pick moves it to an
 * idle core.
 */
static int insert_on_busy(const char *spec)
{
	struct fx f;
	struct vcpu *v;
	int cpu;

	fx_build(&f, HOST8, spec);
	make_running(&f, V(&f, 0, 0), 1);
	make_queued(&f, V(&f, 0, 1), 1, CSCHED_PRI_TS_UNDER);
	v = V(&f, 1, 0);
	v->processor = 1;
	CSCHED_UNIT(v)->flags &= ~CSCHED_FLAG_UNIT_MIGRATING;
	csched_unit_insert(f.s->sched, v);
	cpu = v->processor;
	/* the mark that keeps the next wake from BOOSTing comes with the pick */
	ck_assert_int_eq(!!(CSCHED_UNIT(v)->flags & CSCHED_FLAG_UNIT_MIGRATING), cpu != 1);
	fx_free(&f);
	return cpu;
}

START_TEST(test_insert_pick)
{
	ck_assert_int_eq(insert_on_busy("credit1:era=2015"), 1);
	ck_assert_int_eq(insert_on_busy("credit1:era=2016-pre:insert_pick=off"), 1);
	ck_assert_int_ne(insert_on_busy("credit1:era=2016-pre"), 1);
	ck_assert_int_ne(insert_on_busy("credit1"), 1);
}
END_TEST

/* Each era's switches, as the table in the header says. */
START_TEST(test_era_presets)
{
	static const struct {
		const char *era;
		int kick;
		bool mboost, ipick, suitable, rl_rem, rl_yield, clear, skip, bias,
		     unpark, ynosteal, lbrl;
	} t[] = {
		{ "2015-kick-bug", KICK_ALWAYS, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0 },
		{ "2015", KICK_CUR, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0 },
		{ "2016-pre", KICK_CUR, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0 },
		{ "2016", KICK_CUR, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0 },
		{ "2017", KICK_CUR, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0 },
		{ "4.17", KICK_NEW, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0 },
		{ "4.22", KICK_NEW, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1 },
		{ "current", KICK_NEW, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1 },
	};
	unsigned i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char spec[64];
		struct fx f;
		const struct csched_behaviour *b;

		snprintf(spec, sizeof(spec), "credit1:era=%s", t[i].era);
		fx_build(&f, HOST4, spec);
		b = &f.prv->b;
		ck_assert_msg(b->kick == t[i].kick && b->migrate_boost == t[i].mboost &&
			      b->insert_pick == t[i].ipick && b->tickle_suitable == t[i].suitable &&
			      b->ratelimit_remaining == t[i].rl_rem &&
			      b->ratelimit_yield == t[i].rl_yield && b->clear_idlers == t[i].clear &&
			      b->lb_skip_single == t[i].skip && b->lb_balance_bias == t[i].bias &&
			      b->unpark_boost == t[i].unpark &&
			      b->yield_no_steal == t[i].ynosteal && b->lb_ratelimit == t[i].lbrl,
			      "era %s", t[i].era);
		fx_free(&f);
	}
}
END_TEST

/* --- _csched_cpu_pick --- */

START_TEST(test_pick_all_idle_stays)
{
	struct fx f;
	struct vcpu *v;

	fx_build(&f, HOST8, "credit1");
	v = V(&f, 1, 0);
	v->processor = 0;
	/* every core and socket equally idle: no move */
	ck_assert_int_eq(_csched_cpu_pick(f.prv, v, false), 0);
	fx_free(&f);
}
END_TEST

START_TEST(test_pick_idle_core)
{
	struct fx f;
	struct vcpu *v;

	fx_build(&f, HOST8, "credit1");
	make_running(&f, V(&f, 0, 1), 1);
	v = V(&f, 1, 0);
	v->processor = 0;
	/*
	 * cpu 0 is idle but its sibling 1 is busy (1 idle thread in the core);
	 * core {2,3} has 2: move to cycle(idle_bias=7, {2,3}) = 2.  Across
	 * sockets: 3*2 < 4 is false, stay on socket 0.
	 */
	ck_assert_int_eq(_csched_cpu_pick(f.prv, v, true), 2);
	ck_assert_int_eq(CSCHED_PCPU(f.prv, 2)->idle_bias, 2);
	/* ties rotate: now cycle(idle_bias=2, {2,3}) = 3; without commit the bias stays */
	ck_assert_int_eq(_csched_cpu_pick(f.prv, v, false), 3);
	ck_assert_int_eq(CSCHED_PCPU(f.prv, 2)->idle_bias, 2);
	ck_assert_int_eq(_csched_cpu_pick(f.prv, v, true), 3);
	ck_assert_int_eq(CSCHED_PCPU(f.prv, 2)->idle_bias, 3);
	fx_free(&f);
}
END_TEST

START_TEST(test_pick_idle_socket)
{
	struct fx f;
	struct vcpu *v;

	fx_build(&f, HOST8, "credit1");
	make_running(&f, V(&f, 0, 0), 0);
	make_running(&f, V(&f, 0, 1), 1);
	make_running(&f, V(&f, 0, 2), 2);
	/* someone waits on cpu 0, so it does not count as idle for v */
	make_queued(&f, V(&f, 0, 3), 0, CSCHED_PRI_TS_UNDER);
	v = V(&f, 1, 0);
	v->processor = 0;
	/* start at the idler 3; socket 1 has 4 idlers > 1*2: move to 4, then 4 vs 6 tie */
	ck_assert_int_eq(_csched_cpu_pick(f.prv, v, false), 4);
	fx_free(&f);
}
END_TEST

START_TEST(test_pick_soft)
{
	struct fx f;
	struct vcpu *v;

	fx_build(&f, HOST8, "credit1");
	v = V(&f, 1, 0);
	v->processor = 0;
	cpumask_zero(v->soft);
	cpumask_set(v->soft, 6);
	vcpu_update_soft_effective(v);
	ck_assert_int_eq(_csched_cpu_pick(f.prv, v, false), 6);
	fx_free(&f);
}
END_TEST

START_TEST(test_pick_soft_off)
{
	struct fx f;
	struct vcpu *v;

	fx_build(&f, HOST8, "credit1:soft_affinity=off");
	v = V(&f, 1, 0);
	v->processor = 0;
	cpumask_zero(v->soft);
	cpumask_set(v->soft, 6);
	vcpu_update_soft_effective(v);
	ck_assert_int_eq(_csched_cpu_pick(f.prv, v, false), 0);
	fx_free(&f);
}
END_TEST

START_TEST(test_pick_soft_busy_falls_back)
{
	struct fx f;
	struct vcpu *v;

	fx_build(&f, HOST8, "credit1");
	make_running(&f, V(&f, 0, 0), 6);
	v = V(&f, 1, 0);
	v->processor = 0;
	cpumask_zero(v->soft);
	cpumask_set(v->soft, 6);
	vcpu_update_soft_effective(v);
	/* soft step finds 6 busy, so the hard step runs: 0 (as all-idle but 6) */
	ck_assert_int_eq(_csched_cpu_pick(f.prv, v, false), 0);
	fx_free(&f);
}
END_TEST

/* --- work stealing --- */

/* cpu 1 runs a.0 and queues a.1 (UNDER) then a.2 (OVER). */
static void steal_setup(struct fx *f, const char *spec)
{
	fx_build(f, HOST4, spec);
	f->s->q.now = MSEC(10);
	make_running(f, V(f, 0, 0), 1);
	make_queued(f, V(f, 0, 1), 1, CSCHED_PRI_TS_UNDER);
	make_queued(f, V(f, 0, 2), 1, CSCHED_PRI_TS_OVER);
}

START_TEST(test_steal_first_better)
{
	struct fx f;
	struct csched_unit *got;

	steal_setup(&f, "credit1");
	ck_assert_uint_eq(CSCHED_PCPU(f.prv, 1)->nr_runnable, 3);
	got = csched_runq_steal(f.prv, 1, 0, CSCHED_PRI_IDLE, BALANCE_HARD_AFFINITY);
	ck_assert_ptr_eq(got, CSCHED_UNIT(V(&f, 0, 1)));
	ck_assert_int_eq(V(&f, 0, 1)->processor, 0);
	ck_assert_uint_eq(CSCHED_PCPU(f.prv, 1)->nr_runnable, 2);
	ck_assert_uint_eq(CSCHED_PCPU(f.prv, 0)->nr_runnable, 1);
	fx_free(&f);
}
END_TEST

/* Since e282067cf2 a queued yielder keeps YIELD and is not stolen. */
START_TEST(test_steal_skips_yielder)
{
	struct fx f;

	steal_setup(&f, "credit1");
	CSCHED_UNIT(V(&f, 0, 1))->flags |= CSCHED_FLAG_UNIT_YIELD;
	ck_assert_ptr_eq(csched_runq_steal(f.prv, 1, 0, CSCHED_PRI_IDLE, BALANCE_HARD_AFFINITY),
			 CSCHED_UNIT(V(&f, 0, 2)));
	fx_free(&f);
	steal_setup(&f, "credit1:era=4.17");
	CSCHED_UNIT(V(&f, 0, 1))->flags |= CSCHED_FLAG_UNIT_YIELD;
	ck_assert_ptr_eq(csched_runq_steal(f.prv, 1, 0, CSCHED_PRI_IDLE, BALANCE_HARD_AFFINITY),
			 CSCHED_UNIT(V(&f, 0, 1)));
	/* leaving the queue ends the yield */
	ck_assert(!(CSCHED_UNIT(V(&f, 0, 1))->flags & CSCHED_FLAG_UNIT_YIELD));
	fx_free(&f);
}
END_TEST

START_TEST(test_steal_strictly_better)
{
	struct fx f;

	steal_setup(&f, "credit1");
	/* an UNDER thief finds the UNDER head not better: stop there */
	ck_assert_ptr_null(csched_runq_steal(f.prv, 1, 0, CSCHED_PRI_TS_UNDER,
					     BALANCE_HARD_AFFINITY));
	/* an OVER thief takes the UNDER one */
	ck_assert_ptr_eq(csched_runq_steal(f.prv, 1, 0, CSCHED_PRI_TS_OVER, BALANCE_HARD_AFFINITY),
			 CSCHED_UNIT(V(&f, 0, 1)));
	fx_free(&f);
}
END_TEST

START_TEST(test_steal_hard_affinity)
{
	struct fx f;
	struct vcpu *v;

	steal_setup(&f, "credit1");
	v = V(&f, 0, 1);
	cpumask_zero(v->hard);
	cpumask_set(v->hard, 1);
	vcpu_update_soft_effective(v);
	ck_assert_ptr_eq(csched_runq_steal(f.prv, 1, 0, CSCHED_PRI_IDLE, BALANCE_HARD_AFFINITY),
			 CSCHED_UNIT(V(&f, 0, 2)));
	fx_free(&f);
}
END_TEST

START_TEST(test_steal_cache_hot)
{
	struct fx f;

	steal_setup(&f, "credit1:vcpu_migration_delay_us=1000");
	CSCHED_UNIT(V(&f, 0, 1))->last_sched_time = MSEC(10) - USEC(500);   /* hot */
	CSCHED_UNIT(V(&f, 0, 2))->last_sched_time = MSEC(10) - USEC(2000);  /* cold */
	ck_assert_ptr_eq(csched_runq_steal(f.prv, 1, 0, CSCHED_PRI_IDLE, BALANCE_HARD_AFFINITY),
			 CSCHED_UNIT(V(&f, 0, 2)));
	fx_free(&f);
}
END_TEST

START_TEST(test_steal_soft_step)
{
	struct fx f;
	struct vcpu *v;

	steal_setup(&f, "credit1");
	/* soft step: a.1 has no soft affinity, skipped; a.2 prefers 0 */
	ck_assert_ptr_null(csched_runq_steal(f.prv, 1, 0, CSCHED_PRI_IDLE, BALANCE_SOFT_AFFINITY));
	v = V(&f, 0, 2);
	cpumask_zero(v->soft);
	cpumask_set(v->soft, 0);
	vcpu_update_soft_effective(v);
	ck_assert_ptr_eq(csched_runq_steal(f.prv, 1, 0, CSCHED_PRI_IDLE, BALANCE_SOFT_AFFINITY),
			 CSCHED_UNIT(v));
	fx_free(&f);
}
END_TEST

START_TEST(test_steal_idle_peer)
{
	struct fx f;

	fx_build(&f, HOST4, "credit1");
	make_queued(&f, V(&f, 0, 1), 1, CSCHED_PRI_TS_UNDER);
	/* cpu 1 runs its idle vCPU: it will take a.1 itself */
	ck_assert_ptr_null(csched_runq_steal(f.prv, 1, 0, CSCHED_PRI_IDLE, BALANCE_HARD_AFFINITY));
	fx_free(&f);
}
END_TEST

/* cpu 1 runs a.0 queuing a.1, a.2; cpu 2 runs a.3 queuing b.0; cpu 0 balances twice. */
static void balance_bias(const char *spec, int second_from)
{
	struct fx f;
	struct csched_unit *idle0, *got;
	bool stolen = false;

	fx_build(&f, HOST4, spec);
	make_running(&f, V(&f, 0, 0), 1);
	make_queued(&f, V(&f, 0, 1), 1, CSCHED_PRI_TS_UNDER);
	make_queued(&f, V(&f, 0, 2), 1, CSCHED_PRI_TS_UNDER);
	make_running(&f, V(&f, 0, 3), 2);
	make_queued(&f, V(&f, 1, 0), 2, CSCHED_PRI_TS_UNDER);
	idle0 = CSCHED_UNIT(f.s->pcpus[0].idle);
	__runq_insert(f.prv, idle0);
	/* first: from 1 (2016: the first worker; later: cycle(balance_bias=0) = 1) */
	got = csched_load_balance(f.prv, 0, idle0, &stolen);
	ck_assert(stolen);
	ck_assert_ptr_eq(got, CSCHED_UNIT(V(&f, 0, 1)));
	stolen = false;
	got = csched_load_balance(f.prv, 0, idle0, &stolen);
	ck_assert(stolen);
	ck_assert_int_eq(got->vcpu == V(&f, 0, 2) ? 1 : got->vcpu == V(&f, 1, 0) ? 2 : -1,
			 second_from);
	fx_free(&f);
}

START_TEST(test_balance_bias_current)
{
	balance_bias("credit1", 2);
}
END_TEST

START_TEST(test_balance_bias_2016)
{
	balance_bias("credit1:era=2016", 1);
}
END_TEST

START_TEST(test_balance_nothing_better)
{
	struct fx f;
	struct csched_unit *idle0, *got;
	bool stolen = false;

	fx_build(&f, HOST4, "credit1");
	make_running(&f, V(&f, 0, 0), 1);
	idle0 = CSCHED_UNIT(f.s->pcpus[0].idle);
	__runq_insert(f.prv, idle0);
	got = csched_load_balance(f.prv, 0, idle0, &stolen);
	ck_assert(!stolen);
	ck_assert_ptr_eq(got, idle0);
	ck_assert(!__unit_on_runq(idle0));
	fx_free(&f);
}
END_TEST

/*
 * The scan's filters (waiting_work, waiting_under, waiting_soft) say what
 * each queue holds: after every event of a busy run with soft affinities,
 * caps (parking) and accounting, each pCPU's bits agree with its queue.
 * A queued vCPU counts for node n when it has a useful soft affinity and
 * its soft and hard affinities share a pCPU of node n, worked out here from
 * the masks themselves.
 */
static void check_scan_masks(struct fx *f, stime_t t)
{
	const struct topology *topo = &f->s->topo;
	int cpu, node;

	for (cpu = 0; cpu < f->s->nr_cpus; cpu++) {
		struct clist *runq = &CSCHED_PCPU(f->prv, cpu)->runq, *i;
		int pri = clist_empty(runq) ? CSCHED_PRI_IDLE : __runq_elem(runq->next)->pri;

		ck_assert_msg(cpumask_test(f->prv->waiting_work, (unsigned)cpu) ==
			      (pri > CSCHED_PRI_IDLE) &&
			      cpumask_test(f->prv->waiting_under, (unsigned)cpu) ==
			      (pri > CSCHED_PRI_TS_OVER),
			      "t=%lld pCPU %d: head pri %d", (long long)t, cpu, pri);
		for (node = 0; node < topo->nr_nodes; node++) {
			unsigned soft = 0;

			for (i = runq->next; i != runq; i = i->next) {
				const struct vcpu *v = __runq_elem(i)->vcpu;
				unsigned c;
				bool in_node = false;

				for_each_cpu(c, topo->node_mask[node])
					in_node |= cpumask_test(v->soft, c) && cpumask_test(v->hard, c);
				soft += csched_has_soft(f->prv, v) && in_node;
			}
			ck_assert_msg(cpumask_test(f->prv->waiting_soft[node], (unsigned)cpu) ==
				      (soft > 0) &&
				      CSCHED_PCPU(f->prv, cpu)->nr_soft[node] == soft,
				      "t=%lld pCPU %d: %u soft-affine queued for node %d, counted %u",
				      (long long)t, cpu, soft, node,
				      CSCHED_PCPU(f->prv, cpu)->nr_soft[node]);
		}
	}
}

/* Accounting turns a queued head OVER in place: waiting_under follows. */
START_TEST(test_scan_masks_after_acct)
{
	struct fx f;
	struct csched_unit *a;

	fx_build(&f, HOST4, "credit1");
	make_running(&f, V(&f, 0, 0), 1);
	a = make_queued(&f, V(&f, 1, 0), 1, CSCHED_PRI_TS_UNDER);
	ck_assert(cpumask_test(f.prv->waiting_under, 1));
	__csched_unit_acct_start(f.prv, a);
	a->credit = -2000;      /* still negative after its share: OVER */
	csched_acct(f.prv);
	ck_assert_int_eq(a->pri, CSCHED_PRI_TS_OVER);
	ck_assert(!cpumask_test(f.prv->waiting_under, 1));
	ck_assert(cpumask_test(f.prv->waiting_work, 1));
	fx_free(&f);
}
END_TEST

/* v's soft affinity becomes the pCPUs listed (-1 ends the list), as vcpu_set_affinity sets it. */
static void set_soft(struct fx *f, struct vcpu *v, const int *cpus)
{
	cpumask_zero(v->soft);
	for (; *cpus >= 0; cpus++)
		cpumask_set(v->soft, (unsigned)*cpus);
	vcpu_update_soft_effective(v);
	csched_aff_cntl(f->s->sched, v);
}

/* cpu's queue counts n0 soft-affine vCPUs for node 0 and n1 for node 1, and its bits say so. */
static void assert_soft_counts(struct fx *f, int cpu, unsigned n0, unsigned n1)
{
	const unsigned want[2] = { n0, n1 };

	for (int node = 0; node < 2; node++) {
		ck_assert_uint_eq(CSCHED_PCPU(f->prv, cpu)->nr_soft[node], want[node]);
		ck_assert(cpumask_test(f->prv->waiting_soft[node], (unsigned)cpu) == (want[node] > 0));
	}
}

/*
 * A queued vCPU that gets a soft affinity counts for the soft step at once,
 * under the node of its soft pCPUs, and moves with them.
 */
START_TEST(test_scan_masks_after_affinity)
{
	static const char *xml =
		"<scenario duration='1s'>"
		"<host sockets='2' cores-per-socket='2' threads-per-core='1' nodes='2'/>"
		"<domain name='a' vcpus='4' numa-nodes='0-1'/>"
		"<domain name='b' vcpus='1' numa-nodes='0-1'/>"   /* no soft affinity from xl */
		"</scenario>";
	static const int on_node1[] = { 2, -1 }, on_node0[] = { 0, -1 }, on_both[] = { 0, 3, -1 };
	struct fx f;
	struct vcpu *v;

	fx_build(&f, xml, "credit1");
	ck_assert_int_eq(f.s->topo.cpu_node[1], 0);
	ck_assert_int_eq(f.s->topo.cpu_node[2], 1);
	make_running(&f, V(&f, 0, 0), 1);
	v = V(&f, 1, 0);
	make_queued(&f, v, 1, CSCHED_PRI_TS_UNDER);
	assert_soft_counts(&f, 1, 0, 0);
	set_soft(&f, v, on_node1);      /* pCPU 2, node 1: counted there only */
	assert_soft_counts(&f, 1, 0, 1);
	set_soft(&f, v, on_node0);      /* pCPU 0 while queued: the count moves */
	assert_soft_counts(&f, 1, 1, 0);
	set_soft(&f, v, on_both);
	assert_soft_counts(&f, 1, 1, 1);
	runq_remove(f.prv, CSCHED_UNIT(v));
	assert_soft_counts(&f, 1, 0, 0);
	fx_free(&f);
}
END_TEST

START_TEST(test_scan_masks_follow_queues)
{
	static const char *xml =
		"<scenario duration='1s' seed='3'>"
		"<host sockets='2' cores-per-socket='2' threads-per-core='2' nodes='2'/>"
		"<domain name='a' vcpus='6' weight='512'><affinity soft='nodes:0'/>"
		"<workload type='phases'><phase run='exp:3ms' sleep='exp:1ms'/></workload></domain>"
		"<domain name='b' vcpus='6' cap='150'>"
		"<workload type='cpu-hog'/></domain>"
		"<domain name='c' vcpus='4'><vcpu id='1' hard='5' soft='5'/><vcpu id='2' soft='1-2'/>"
		"<workload type='phases'><phase run='exp:200us' sleep='exp:2ms'/></workload></domain>"
		"</scenario>";
	const char *eras[] = { "credit1", "credit1:era=2016" };
	unsigned e;

	for (e = 0; e < 2; e++) {
		struct fx f;
		stime_t t;

		fx_build(&f, xml, eras[e]);
		for (t = USEC(50); t <= MSEC(400); t += USEC(50)) {
			sim_run_until(f.s, t);
			check_scan_masks(&f, t);
		}
		ck_assert_uint_gt(f.s->q.fired, 3000);
		fx_free(&f);
	}
}
END_TEST

/* --- csched_schedule: ratelimit and yield --- */

static struct sched_decision schedule_at(struct fx *f, struct vcpu *curr, stime_t now)
{
	struct sched_decision d = { NULL, -1, false };

	f->s->this_cpu = curr->processor;
	f->s->q.now = now;
	csched_schedule(f->s->sched, curr, now, false, &d);
	return d;
}

static void ratelimit_case(const char *spec, stime_t ran, bool yield, bool keeps,
			   stime_t slice)
{
	struct fx f;
	struct vcpu *cur;
	struct sched_decision d;

	fx_build(&f, HOST4, spec);
	f.s->q.now = MSEC(10);
	cur = V(&f, 0, 0);
	make_running(&f, cur, 0);
	cur->state_entry_time = MSEC(10) - ran;
	make_queued(&f, V(&f, 1, 0), 0, CSCHED_PRI_TS_BOOST);
	if (yield)
		CSCHED_UNIT(cur)->flags |= CSCHED_FLAG_UNIT_YIELD;
	d = schedule_at(&f, cur, MSEC(10));
	ck_assert_ptr_eq(d.next, keeps ? cur : V(&f, 1, 0));
	ck_assert_int_eq(d.time_slice, slice);
	fx_free(&f);
}

START_TEST(test_ratelimit_remaining)
{
	ratelimit_case("credit1", USEC(300), false, true, USEC(700));
}
END_TEST

START_TEST(test_ratelimit_full)
{
	ratelimit_case("credit1:ratelimit_remaining=off", USEC(300), false, true, USEC(1000));
}
END_TEST

START_TEST(test_ratelimit_min_timer)
{
	/* CSCHED_MIN_TIMER is 100 (ns) in Xen */
	ratelimit_case("credit1", NSEC(50), false, true, NSEC(100));
}
END_TEST

START_TEST(test_ratelimit_expired)
{
	ratelimit_case("credit1", USEC(1000), false, false, MSEC(30));
}
END_TEST

START_TEST(test_ratelimit_off)
{
	ratelimit_case("credit1:ratelimit_us=0", USEC(300), false, false, MSEC(30));
}
END_TEST

START_TEST(test_ratelimit_not_on_yield)
{
	ratelimit_case("credit1", USEC(300), true, false, MSEC(30));
}
END_TEST

START_TEST(test_ratelimit_on_yield_old)
{
	ratelimit_case("credit1:ratelimit_yield=on", USEC(300), true, true, USEC(700));
	/* before the 2016 series: the yielder is held, for a whole ratelimit */
	ratelimit_case("credit1:era=2016-pre", USEC(300), true, true, USEC(1000));
	ratelimit_case("credit1:era=2016", USEC(300), true, false, MSEC(30));
}
END_TEST

START_TEST(test_ratelimit_clamped_to_tslice)
{
	/* ratelimit 5 ms > tslice 3 ms: ratelimit is 3 ms; ran 1 ms -> 2 ms more */
	ratelimit_case("credit1:tslice_ms=3:ratelimit_us=5000", MSEC(1), false, true, MSEC(2));
}
END_TEST

/* tick_suspend=off: an idle pCPU's tick runs on (an idle loop that only halts). */
START_TEST(test_tick_suspend_switch)
{
	const char *spec[] = { "credit1", "credit1:era=2017:tick_suspend=off" };
	int i;

	for (i = 0; i < 2; i++) {
		struct fx f;
		struct vcpu *cur;

		fx_build(&f, HOST4, spec[i]);
		f.s->q.now = MSEC(10);
		cur = V(&f, 0, 0);
		make_running(&f, cur, 0);
		cur->pause_flags |= VPF_BLOCKED;
		(void)schedule_at(&f, cur, MSEC(10));
		ck_assert_int_eq(timer_pending(&CSCHED_PCPU(f.prv, 0)->ticker), i == 1);
		fx_free(&f);
	}
}
END_TEST

START_TEST(test_schedule_block_and_idle)
{
	struct fx f;
	struct vcpu *cur;
	struct sched_decision d;

	fx_build(&f, HOST4, "credit1");
	f.s->q.now = MSEC(10);
	cur = V(&f, 0, 0);
	make_running(&f, cur, 0);
	cur->state_entry_time = MSEC(5);
	CSCHED_UNIT(cur)->start_time = MSEC(5);
	ck_assert_uint_eq(CSCHED_PCPU(f.prv, 0)->nr_runnable, 1);
	/* it blocks: 5 ms burnt (50 credits), the pCPU goes idle and into idlers */
	cur->pause_flags |= VPF_BLOCKED;
	d = schedule_at(&f, cur, MSEC(10));
	ck_assert_ptr_eq(d.next, f.s->pcpus[0].idle);
	ck_assert_int_eq(d.time_slice, -1);
	ck_assert_int_eq(CSCHED_UNIT(cur)->credit, -50);
	ck_assert_uint_eq(CSCHED_PCPU(f.prv, 0)->nr_runnable, 0);
	ck_assert(cpumask_test(f.prv->idlers, 0));
	ck_assert(!timer_pending(&CSCHED_PCPU(f.prv, 0)->ticker));
	fx_free(&f);
}
END_TEST

START_TEST(test_lb_ratelimit)
{
	struct fx f;
	struct vcpu *cur;
	struct sched_decision d;

	/* cpu 0 runs a.0 (OVER) with nothing queued; cpu 1 runs a.1 and queues a.2 (UNDER) */
	fx_build(&f, HOST4, "credit1:era=current");
	f.s->q.now = MSEC(10);
	cur = V(&f, 0, 0);
	make_running(&f, cur, 0);
	CSCHED_UNIT(cur)->pri = CSCHED_PRI_TS_OVER;
	cur->state_entry_time = MSEC(5);
	make_running(&f, V(&f, 0, 1), 1);
	make_queued(&f, V(&f, 0, 2), 1, CSCHED_PRI_TS_UNDER);
	/* last balance 0.5 ms ago < 1 ms: no stealing, a.0 goes on */
	CSCHED_PCPU(f.prv, 0)->last_load_balance = MSEC(10) - USEC(500);
	d = schedule_at(&f, cur, MSEC(10));
	ck_assert_ptr_eq(d.next, cur);
	ck_assert(!d.migrated);
	/* 2 ms later it may steal */
	CSCHED_PCPU(f.prv, 0)->last_load_balance = MSEC(10) - USEC(2000);
	cur->state_entry_time = MSEC(5);
	d = schedule_at(&f, cur, MSEC(10));
	ck_assert_ptr_eq(d.next, V(&f, 0, 2));
	ck_assert(d.migrated);
	fx_free(&f);
}
END_TEST

START_TEST(test_lb_no_ratelimit_417)
{
	struct fx f;
	struct vcpu *cur;
	struct sched_decision d;

	fx_build(&f, HOST4, "credit1:era=4.17");
	f.s->q.now = MSEC(10);
	cur = V(&f, 0, 0);
	make_running(&f, cur, 0);
	CSCHED_UNIT(cur)->pri = CSCHED_PRI_TS_OVER;
	cur->state_entry_time = MSEC(5);
	make_running(&f, V(&f, 0, 1), 1);
	make_queued(&f, V(&f, 0, 2), 1, CSCHED_PRI_TS_UNDER);
	CSCHED_PCPU(f.prv, 0)->last_load_balance = MSEC(10) - USEC(500);
	d = schedule_at(&f, cur, MSEC(10));
	ck_assert_ptr_eq(d.next, V(&f, 0, 2));
	fx_free(&f);
}
END_TEST

/* Two nodes: cpus 0,1 on node 0, cpus 2,3 on node 1.  Own node first, then the next. */
START_TEST(test_balance_across_nodes)
{
	static const char *xml =
		"<scenario duration='1s'>"
		"<host sockets='2' cores-per-socket='2' threads-per-core='1' nodes='2'/>"
		"<domain name='a' vcpus='4'/>"
		"</scenario>";
	struct fx f;
	struct csched_unit *idle0, *got;
	bool stolen = false;

	fx_build(&f, xml, "credit1");
	make_running(&f, V(&f, 0, 0), 2);
	make_queued(&f, V(&f, 0, 1), 2, CSCHED_PRI_TS_UNDER);
	make_running(&f, V(&f, 0, 2), 1);
	make_queued(&f, V(&f, 0, 3), 1, CSCHED_PRI_TS_UNDER);
	idle0 = CSCHED_UNIT(f.s->pcpus[0].idle);
	__runq_insert(f.prv, idle0);
	got = csched_load_balance(f.prv, 0, idle0, &stolen);
	ck_assert_ptr_eq(got, CSCHED_UNIT(V(&f, 0, 3)));
	got = csched_load_balance(f.prv, 0, idle0, &stolen);
	ck_assert_ptr_eq(got, CSCHED_UNIT(V(&f, 0, 1)));
	ck_assert_int_eq(V(&f, 0, 1)->processor, 0);
	fx_free(&f);
}
END_TEST

/* An UNDER head never looks elsewhere, even with BOOST work queued next door. */
START_TEST(test_schedule_under_keeps_local)
{
	struct fx f;
	struct vcpu *cur;
	struct sched_decision d;

	fx_build(&f, HOST4, "credit1:era=4.17");
	f.s->q.now = MSEC(10);
	cur = V(&f, 0, 0);
	make_running(&f, cur, 0);
	cur->state_entry_time = MSEC(5);
	make_running(&f, V(&f, 0, 1), 1);
	make_queued(&f, V(&f, 1, 0), 1, CSCHED_PRI_TS_BOOST);
	d = schedule_at(&f, cur, MSEC(10));
	ck_assert_ptr_eq(d.next, cur);
	ck_assert(!d.migrated);
	ck_assert_int_eq(d.time_slice, MSEC(30));
	ck_assert(__unit_on_runq(CSCHED_UNIT(V(&f, 1, 0))));
	fx_free(&f);
}
END_TEST

START_TEST(test_bad_ratelimit)
{
	struct scenario sc;
	struct sched_spec sp;
	struct err e;
	struct sim *s;

	memset(&sp, 0, sizeof(sp));
	ck_assert(scenario_load_memory(HOST4, (int)strlen(HOST4), "test", &sc, &e) == 0);
	ck_assert(sched_spec_parse("credit1:ratelimit_us=50", &sp, &e) == 0);
	s = sim_build(&sc, &sp, &e);
	ck_assert_ptr_null(s);
	ck_assert_msg(strstr(e.msg, "ratelimit_us") != NULL, "%s", e.msg);
	sched_spec_free(&sp);
	scenario_free(&sc);
}
END_TEST

START_TEST(test_dump)
{
	struct fx f;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	fx_build(&f, HOST4, "credit1");
	make_running(&f, V(&f, 0, 0), 1);
	make_queued(&f, V(&f, 1, 0), 1, CSCHED_PRI_TS_BOOST);
	m = open_memstream(&buf, &len);
	csched_dump(f.s->sched, m);
	fclose(m);
	ck_assert_msg(strstr(buf, "ncpus=4") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "idlers: 0,2-3") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "CPU[01] nr_run=2") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "[2.0] pri=0") != NULL, "%s", buf);
	free(buf);
	fx_free(&f);
}
END_TEST

/*
 * The steal loop's bit test gives what affinity_balance_cpumask's mask
 * holds, for every pCPU and both steps: masks of 130 bits (three words),
 * random and sparse, with soft ∩ hard empty, full, and in between.
 */
START_TEST(test_balance_test_matches_mask)
{
	const unsigned n = 130;
	struct vcpu v = { 0 };
	struct cpumask *mask = cpumask_alloc(n), *words = cpumask_alloc(n);
	struct cpupool pool = { 0 };
	struct domain d = { 0 };
	struct rng r;

	rng_seed(&r, 7);
	pool.res_valid = cpumask_alloc(n);
	cpumask_fill(pool.res_valid);
	d.pool = &pool;
	v.dom = &d;
	v.hard = cpumask_alloc(n);
	v.soft = cpumask_alloc(n);
	for (int round = 0; round < 400; round++) {
		/* density from none to all: rounds 0 and 399 are the extremes */
		uint64_t hard_in = rng_below(&r, 5), soft_in = rng_below(&r, 5);

		cpumask_zero(v.hard);
		cpumask_zero(v.soft);
		for (unsigned c = 0; c < n; c++) {
			if (rng_below(&r, 4) < hard_in)
				cpumask_set(v.hard, c);
			if (rng_below(&r, 4) < soft_in)
				cpumask_set(v.soft, c);
		}
		if (round % 3 == 0)         /* soft ∩ hard empty: the soft step falls back to hard */
			cpumask_andnot(v.soft, v.soft, v.hard);
		vcpu_update_soft_effective(&v);
		for (int step = BALANCE_SOFT_AFFINITY; step <= BALANCE_HARD_AFFINITY; step++) {
			/* the words variant on word 1 only, over a mask of ones */
			struct cpumask_words w1 = { 1, 2 };

			affinity_balance_cpumask(&v, (enum balance_step)step, mask);
			for (unsigned c = 0; c < n; c++)
				ck_assert_msg(affinity_balance_test(&v, (enum balance_step)step, c) ==
					      cpumask_test(mask, c),
					      "round %d step %d cpu %u", round, step, c);
			cpumask_fill(words);
			affinity_balance_cpumask_words(&v, (enum balance_step)step, words, w1);
			ck_assert_msg(words->w[1] == mask->w[1] && words->w[0] == ~0ULL,
				      "round %d step %d: words variant", round, step);
		}
	}
	cpumask_free(v.hard);
	cpumask_free(v.soft);
	cpumask_free(mask);
	cpumask_free(words);
	cpumask_free(pool.res_valid);
}
END_TEST

static Suite *credit1_suite(void)
{
	Suite *s = suite_create("credit1");
	TCase *tc;

	tc = tcase_create("accounting");
	tcase_add_test(tc, test_burn_credits_residual);
	tcase_add_test(tc, test_acct_weights);
	tcase_add_test(tc, test_acct_negative_balance);
	tcase_add_test(tc, test_acct_cap_redistribution);
	tcase_add_test(tc, test_acct_xtra_reorder);
	tcase_add_test(tc, test_cap_park_unpark_current);
	tcase_add_test(tc, test_cap_park_unpark_2016);
	suite_add_tcase(s, tc);

	tc = tcase_create("runq");
	tcase_add_test(tc, test_runq_insert_order);
	tcase_add_test(tc, test_runq_insert_yield);
	tcase_add_test(tc, test_runq_insert_yield_not_behind_idle);
	tcase_add_test(tc, test_runq_sort);
	tcase_add_test(tc, test_wake_boost);
	tcase_add_test(tc, test_tick_acct);
	suite_add_tcase(s, tc);

	tc = tcase_create("tickle");
	tcase_add_test(tc, test_tickle_idle_cpu);
	tcase_add_test(tc, test_tickle_no_idlers);
	tcase_add_test(tc, test_tickle_one_idle_current);
	tcase_add_test(tc, test_tickle_one_idle_2016);
	tcase_add_test(tc, test_tickle_all_idle);
	tcase_add_test(tc, test_tickle_soft_first);
	tcase_add_test(tc, test_tickle_soft_off);
	tcase_add_test(tc, test_tickle_kick_away_2016);
	tcase_add_test(tc, test_tickle_kick_away_current);
	tcase_add_test(tc, test_tickle_kick_away_switch);
	tcase_add_test(tc, test_tickle_kick_2015_bug);
	tcase_add_test(tc, test_tickle_suitable_idler);
	tcase_add_test(tc, test_wake_after_migrate);
	tcase_add_test(tc, test_insert_pick);
	tcase_add_test(tc, test_era_presets);
	suite_add_tcase(s, tc);

	tc = tcase_create("pick");
	tcase_add_test(tc, test_pick_all_idle_stays);
	tcase_add_test(tc, test_pick_idle_core);
	tcase_add_test(tc, test_pick_idle_socket);
	tcase_add_test(tc, test_pick_soft);
	tcase_add_test(tc, test_pick_soft_off);
	tcase_add_test(tc, test_pick_soft_busy_falls_back);
	suite_add_tcase(s, tc);

	tc = tcase_create("steal");
	tcase_add_test(tc, test_steal_first_better);
	tcase_add_test(tc, test_steal_strictly_better);
	tcase_add_test(tc, test_steal_skips_yielder);
	tcase_add_test(tc, test_scan_masks_follow_queues);
	tcase_add_test(tc, test_scan_masks_after_acct);
	tcase_add_test(tc, test_scan_masks_after_affinity);
	tcase_add_test(tc, test_steal_hard_affinity);
	tcase_add_test(tc, test_steal_cache_hot);
	tcase_add_test(tc, test_steal_soft_step);
	tcase_add_test(tc, test_balance_test_matches_mask);
	tcase_add_test(tc, test_steal_idle_peer);
	tcase_add_test(tc, test_balance_bias_current);
	tcase_add_test(tc, test_balance_bias_2016);
	tcase_add_test(tc, test_balance_nothing_better);
	suite_add_tcase(s, tc);

	tc = tcase_create("schedule");
	tcase_add_test(tc, test_ratelimit_remaining);
	tcase_add_test(tc, test_ratelimit_full);
	tcase_add_test(tc, test_ratelimit_min_timer);
	tcase_add_test(tc, test_ratelimit_expired);
	tcase_add_test(tc, test_ratelimit_off);
	tcase_add_test(tc, test_ratelimit_not_on_yield);
	tcase_add_test(tc, test_ratelimit_on_yield_old);
	tcase_add_test(tc, test_ratelimit_clamped_to_tslice);
	tcase_add_test(tc, test_schedule_block_and_idle);
	tcase_add_test(tc, test_tick_suspend_switch);
	tcase_add_test(tc, test_lb_ratelimit);
	tcase_add_test(tc, test_lb_no_ratelimit_417);
	tcase_add_test(tc, test_bad_ratelimit);
	tcase_add_test(tc, test_balance_across_nodes);
	tcase_add_test(tc, test_schedule_under_keeps_local);
	tcase_add_test(tc, test_dump);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(credit1_suite());
}
