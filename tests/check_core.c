/*
 * The scheduling core, the guest layer and the null scheduler, through
 * small scenarios: runstate accounting, the invariant checker, same seed
 * same run, and null's one-pCPU-per-vCPU behaviour.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "schedulers/sched.h"
#include "sim/engine/scenario.h"
#include "sim/experiment/build.h"
#include "sim/experiment/run.h"
#include "sim/output/trace.h"
#include "tests/testlib.h"
#include "workloads/guest.h"

/* Runs under the invariant checker, or without it. */
static const struct run_options checked = { .check = true };
static const struct run_options unchecked = { .check = false };

static const char three_hogs[] =
	"<scenario duration=\"2s\" seed=\"5\">"
	"<host sockets=\"1\" cores-per-socket=\"2\" threads-per-core=\"1\"/>"
	"<domain name=\"a\"><workload type=\"cpu-hog\"/></domain>"
	"<domain name=\"b\"><workload type=\"cpu-hog\"/></domain>"
	"<domain name=\"c\"><workload type=\"cpu-hog\"/></domain>"
	"</scenario>";

START_TEST(null_three_hogs_on_two_pcpus)
{
	struct run_result r;

	test_run(three_hogs, "null", &checked, &r);
	ck_assert_str_eq(r.check_error, "");
	ck_assert_int_eq(r.ndoms, 3);
	/* The first two get a pCPU each for the whole run, the third never runs. */
	ck_assert_int_ge(r.doms[0].vcpus[0].run_ns, 2000000000LL - 10000);
	ck_assert_int_ge(r.doms[1].vcpus[0].run_ns, 2000000000LL - 10000);
	ck_assert_int_eq(r.doms[2].vcpus[0].run_ns, 0);
	ck_assert_int_eq(r.doms[2].vcpus[0].runnable_ns, 2000000000LL);
	ck_assert_int_ne(r.doms[0].vcpus[0].pcpus[0], r.doms[1].vcpus[0].pcpus[0]);
	run_result_free(&r);
}
END_TEST

START_TEST(null_respects_hard_affinity)
{
	static const char xml[] =
		"<scenario duration=\"1s\">"
		"<host sockets=\"1\" cores-per-socket=\"4\"/>"
		"<domain name=\"a\" vcpus=\"2\"><affinity hard=\"2\"/><workload type=\"cpu-hog\"/></domain>"
		"</scenario>";
	struct run_result r;

	test_run(xml, "null", &checked, &r);
	ck_assert_str_eq(r.check_error, "");
	ck_assert_int_eq(r.doms[0].vcpus[0].npcpus, 1);
	ck_assert_int_eq(r.doms[0].vcpus[0].pcpus[0], 2);
	ck_assert_int_eq(r.doms[0].vcpus[1].run_ns, 0);
	run_result_free(&r);
}
END_TEST

static const char phases_xml[] =
	"<scenario duration=\"3s\" seed=\"11\">"
	"<host sockets=\"1\" cores-per-socket=\"2\" threads-per-core=\"2\"/>"
	"<domain name=\"io\" vcpus=\"3\"><workload type=\"phases\">"
	"<phase run=\"exp:300us\" sleep=\"uniform:1ms:3ms\"/><phase run=\"1ms\" sleep=\"exp:500us\"/>"
	"</workload></domain>"
	"<domain name=\"hog\" vcpus=\"2\"><workload type=\"cpu-hog\"/></domain>"
	"</scenario>";

START_TEST(runstate_times_add_up)
{
	struct run_result r;
	int d, i;

	test_run(phases_xml, "null", &checked, &r);
	ck_assert_str_eq(r.check_error, "");
	for (d = 0; d < r.ndoms; d++)
		for (i = 0; i < r.doms[d].nvcpus; i++) {
			const struct vcpu_result *v = &r.doms[d].vcpus[i];

			ck_assert_int_eq(v->run_ns + v->runnable_ns + v->blocked_ns + v->offline_ns,
					 r.sim_ns);
		}
	/* The io vCPUs ran in bursts and blocked in between. */
	ck_assert_int_gt(r.doms[0].vcpus[0].run_ns, 0);
	ck_assert_int_gt(r.doms[0].vcpus[0].blocked_ns, 0);
	ck_assert_uint_gt(r.doms[0].vcpus[0].wakeups, 100);
	run_result_free(&r);
}
END_TEST

START_TEST(same_seed_same_run)
{
	struct run_result a, b, c;
	int i;

	test_run(phases_xml, "null", &unchecked, &a);
	test_run(phases_xml, "null", &unchecked, &b);
	ck_assert_uint_eq(a.events, b.events);
	for (i = 0; i < a.doms[0].nvcpus; i++) {
		ck_assert_int_eq(a.doms[0].vcpus[i].run_ns, b.doms[0].vcpus[i].run_ns);
		ck_assert_int_eq(a.doms[0].vcpus[i].wake_p99, b.doms[0].vcpus[i].wake_p99);
	}
	{
		char xml[sizeof(phases_xml) + 8];
		char *p;

		strcpy(xml, phases_xml);
		p = strstr(xml, "seed=\"11\"");
		memcpy(p, "seed=\"12\"", 9);
		test_run(xml, "null", &unchecked, &c);
	}
	ck_assert_int_ne(a.doms[0].vcpus[0].run_ns, c.doms[0].vcpus[0].run_ns);
	run_result_free(&a);
	run_result_free(&b);
	run_result_free(&c);
}
END_TEST

/* Two CPU-bound tasks on one vCPU share it about equally (guest CFS). */
START_TEST(guest_tasks_share_a_vcpu)
{
	static const char xml[] =
		"<scenario duration=\"2s\">"
		"<host sockets=\"1\" cores-per-socket=\"1\"/>"
		"<domain name=\"a\" vcpus=\"1\"><workload type=\"cpu-hog\" tasks=\"2\"/></domain>"
		"</scenario>";
	struct scenario sc;
	struct sim *s;
	struct guest *g;
	stime_t t0, t1;

	s = test_build(&sc, xml, "null");
	s->check = true;
	sim_run_until(s, sc.duration);
	ck_assert_str_eq(s->check_error, "");
	g = guest_of(s->domains[0]);
	ck_assert_int_eq(g->nr_tasks, 2);
	t0 = g->tasks[0]->cpu_ns;
	t1 = g->tasks[1]->cpu_ns;
	/* The current task's last few ms are not accounted until it is next charged. */
	ck_assert_int_gt(t0 + t1, SEC(2) - MSEC(10));
	ck_assert_int_lt(llabs(t0 - t1), MSEC(50));
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

/*
 * Wake-up preemption decided while the current task's own step runs.
 * "A" burns 3 ms, then (in its step) wakes "B" on the same (only) vCPU and
 * goes on running.  B's wake must be judged once A's next move is known:
 * as soon as A's step returns, B preempts A (an interrupt-class B always,
 * a normal B when A's vruntime leads B's by more than the wake-up
 * granularity: 3 ms - 0 > 1 ms).  B runs 100 us and records when it ends.
 */
struct wake_probe {
	struct task *a, *b;
	int a_steps, b_steps;
	stime_t b_done;
};

static void probe_a_step(struct sim *s, struct task *t)
{
	struct wake_probe *p = t->ctx;

	if (p->a_steps++ == 0) {
		task_run(s, t, MSEC(3));
		return;
	}
	task_wake(s, p->b);
	task_run(s, t, STIME_MAX);
}

static void probe_b_step(struct sim *s, struct task *t)
{
	struct wake_probe *p = t->ctx;

	switch (p->b_steps++) {
	case 0:
		task_block(s, t);
		return;
	case 1:
		task_run(s, t, USEC(100));
		return;
	default:
		p->b_done = sim_now(s);
		task_block(s, t);
	}
}

static stime_t wake_in_step(enum task_class b_class)
{
	static const char xml[] =
		"<scenario duration=\"20ms\">"
		"<host sockets=\"1\" cores-per-socket=\"1\" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"a\" vcpus=\"1\"/>"
		"</scenario>";
	struct scenario sc;
	struct wake_probe p = { NULL, NULL, 0, 0, -1 };
	struct guest *g;
	struct sim *s;

	s = test_build(&sc, xml, "null");
	s->check = true;
	g = guest_of(s->domains[0]);
	p.b = task_create(g, "b", b_class, 0, true, probe_b_step, &p, 0);
	p.a = task_create(g, "a", TASK_NORMAL, 0, true, probe_a_step, &p, 0);
	sim_run_until(s, sc.duration);
	ck_assert_str_eq(s->check_error, "");
	ck_assert_int_eq(p.b_steps, 3);
	sim_destroy(s);
	scenario_free(&sc);
	return p.b_done;
}

START_TEST(wake_during_current_step_preempts_after_it)
{
	/* Before the fix the interrupt task starved behind A's endless burst. */
	ck_assert_int_eq(wake_in_step(TASK_IRQ), MSEC(3) + USEC(100));
	/* ... and the normal one waited for A's 6 ms slice to run out. */
	ck_assert_int_eq(wake_in_step(TASK_NORMAL), MSEC(3) + USEC(100));
}
END_TEST

/*
 * A task woken while its own step runs (here it wakes itself, as a
 * worker whose done() kicks it would) must not have its step re-entered:
 * Linux's try_to_wake_up on the running task only marks it runnable, so
 * the block it then asks for does not sleep.  The wake is remembered and
 * taken once the step has returned: step 3 starts after step 2 ended,
 * at 2 ms (the timer's wake), and runs its 1 ms to end at 3 ms.
 */
struct self_wake {
	struct task *t;
	struct timer kick;
	int steps;
	bool step2_returned, nested;
	stime_t step3_at, step4_at;
};

static void self_wake_step(struct sim *s, struct task *t)
{
	struct self_wake *p = t->ctx;

	switch (++p->steps) {
	case 1:
		task_block(s, t);
		return;
	case 2:
		task_wake(s, t);
		if (p->steps != 2)
			p->nested = true;
		task_block(s, t);
		p->step2_returned = true;
		return;
	case 3:
		p->step3_at = sim_now(s);
		task_run(s, t, MSEC(1));
		return;
	default:
		p->step4_at = sim_now(s);
		task_block(s, t);
	}
}

static void self_wake_kick(struct timer *tm, void *arg)
{
	struct self_wake *p = arg;

	(void)tm;
	task_wake(p->t->g->sim, p->t);
}

START_TEST(wake_during_own_step_is_taken_after_it)
{
	static const char xml[] =
		"<scenario duration=\"10ms\">"
		"<host sockets=\"1\" cores-per-socket=\"1\" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"a\" vcpus=\"1\"/>"
		"</scenario>";
	struct scenario sc;
	struct self_wake p = { 0 };
	struct sim *s;

	s = test_build(&sc, xml, "null");
	s->check = true;
	p.t = task_create(guest_of(s->domains[0]), "t", TASK_NORMAL, 0, true,
			  self_wake_step, &p, 0);
	timer_init(&p.kick, self_wake_kick, &p);
	timer_set(&s->q, &p.kick, MSEC(2));
	sim_run_until(s, sc.duration);
	ck_assert_str_eq(s->check_error, "");
	ck_assert(!p.nested);
	ck_assert(p.step2_returned);
	ck_assert_int_eq(p.steps, 4);
	ck_assert_int_eq(p.step3_at, MSEC(2));
	ck_assert_int_eq(p.step4_at, MSEC(3));
	ck_assert_int_eq(p.t->state, TASK_BLOCKED);
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

/* A tracer that counts the records of one event. */
struct count_tracer {
	struct tracer t;
	uint32_t event;
	int n;
};

static void count_record(struct tracer *t, int cpu, stime_t now, uint32_t event, int n,
			 const uint32_t *data)
{
	struct count_tracer *c = (struct count_tracer *)t;

	(void)cpu;
	(void)now;
	(void)n;
	(void)data;
	if (event == c->event)
		c->n++;
}

/*
 * Xen's sched_unit_migrate_start puts the vCPU to sleep through
 * vcpu_sleep_nosync_locked, which writes no TRC_SCHED_SLEEP record; only
 * the public vcpu_sleep_nosync (as vcpu_pause_nosync calls it) does.
 */
START_TEST(migration_writes_no_sleep_record)
{
	struct scenario sc;
	struct count_tracer ct = { { count_record, NULL, NULL }, TRC_SCHED_SLEEP, 0 };
	struct cpumask *hard;
	struct vcpu *v;
	struct sim *s;

	s = test_build(&sc, three_hogs, "credit1");
	sim_run_until(s, MSEC(10));
	s->tracer = &ct.t;
	v = s->domains[0]->vcpus[0];
	hard = cpumask_alloc((unsigned)s->nr_cpus);
	cpumask_set(hard, 1);
	ck_assert_int_eq(vcpu_set_affinity(s, v, hard, NULL), 0);
	ck_assert_int_eq(ct.n, 0);
	vcpu_pause_nosync(s, v);
	ck_assert_int_eq(ct.n, 1);
	vcpu_unpause(s, v);
	s->tracer = NULL;
	cpumask_free(hard);
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

static void hog_forever(struct sim *s, struct task *t)
{
	task_run(s, t, STIME_MAX);
}

/* Runs 1 ms, then sleeps for the rest of the test. */
static void run_then_sleep(struct sim *s, struct task *t)
{
	int *steps = t->ctx;

	if ((*steps)++ == 0)
		task_run(s, t, MSEC(1));
	else
		task_sleep(s, t, SEC(1));
}

/*
 * An idle guest CPU pulls from the busiest CPU that has a movable task.
 * Guest CPU 0 runs three tasks bound to it (two queued), CPU 1 a bound hog
 * with the movable "e" queued behind it, CPU 2 a task that sleeps at 1 ms.
 * CPU 2 must then take "e", although CPU 0 has the longer queue.
 */
START_TEST(idle_pull_passes_over_an_all_bound_queue)
{
	static const char xml[] =
		"<scenario duration=\"5ms\">"
		"<host sockets=\"1\" cores-per-socket=\"3\" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"a\" vcpus=\"3\"/>"
		"</scenario>";
	struct scenario sc;
	struct guest *g;
	struct task *movable_task;
	struct sim *s;
	int steps = 0;

	s = test_build(&sc, xml, "null");
	s->check = true;
	g = guest_of(s->domains[0]);
	task_create(g, "f", TASK_NORMAL, 2, true, run_then_sleep, &steps, 0);
	task_create(g, "a", TASK_NORMAL, 0, true, hog_forever, NULL, 0);
	task_create(g, "b", TASK_NORMAL, 0, true, hog_forever, NULL, 0);
	task_create(g, "c", TASK_NORMAL, 0, true, hog_forever, NULL, 0);
	task_create(g, "d", TASK_NORMAL, 1, true, hog_forever, NULL, 0);
	movable_task = task_create(g, "e", TASK_NORMAL, 1, false, hog_forever, NULL, 0);
	sim_run_until(s, USEC(500));
	ck_assert_int_eq(movable_task->cpu, 1);
	ck_assert_int_eq(movable_task->state, TASK_READY);
	sim_run_until(s, sc.duration);
	ck_assert_str_eq(s->check_error, "");
	ck_assert_int_eq(movable_task->cpu, 2);
	ck_assert_int_eq(movable_task->state, TASK_RUNNING);
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

/* --- wake placement and balancing (Linux 4.4 kernel/sched/fair.c) --- */

struct waker {
	struct task *wakee;
	stime_t run;        /* CPU per step */
	bool ran;
};

/* Runs w->run, then (still running) wakes its wakee and sleeps 1 ms; for ever. */
static void waker_step(struct sim *s, struct task *t)
{
	struct waker *w = t->ctx;

	if (w->ran) {
		w->ran = false;
		task_wake(s, w->wakee);
		task_sleep(s, t, MSEC(1));
		return;
	}
	w->ran = true;
	task_run(s, t, w->run);
}

/* Runs 100 us whenever woken. */
static void wakee_step(struct sim *s, struct task *t)
{
	bool *ran = t->ctx;

	if (*ran)
		task_block(s, t);
	else
		task_run(s, t, USEC(100));
	*ran = !*ran;
}

static struct sim *place_sim(struct scenario *sc, int vcpus)
{
	char xml[512];
	struct sim *s;

	snprintf(xml, sizeof(xml),
		 "<scenario duration=\"1s\"><host sockets=\"1\" cores-per-socket=\"4\""
		 " ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		 "<domain name=\"a\" vcpus=\"%d\"/>"
		 "</scenario>", vcpus);
	s = test_build(sc, xml, "null");
	s->check = true;
	return s;
}

/*
 * wake_affine: woken from an interrupt on a CPU with no task of its own,
 * a task goes to that CPU (its load, none, is below its previous CPU's);
 * woken by a busy task it stays on its idle previous CPU.
 */
START_TEST(wake_affine_pulls_to_an_interrupts_idle_cpu)
{
	for (int busy = 0; busy < 2; busy++) {
		struct scenario sc;
		struct sim *s = place_sim(&sc, 3);
		struct guest *g = guest_of(s->domains[0]);
		bool ran = false;
		struct waker w = { NULL, busy ? USEC(900) : USEC(10), false };

		w.wakee = task_create(g, "wakee", TASK_NORMAL, 2, false, wakee_step, &ran, 0);
		task_create(g, "waker", busy ? TASK_NORMAL : TASK_IRQ, 0, busy, waker_step, &w, 0);
		sim_run_until(s, MSEC(20));
		ck_assert_str_eq(s->check_error, "");
		ck_assert_int_eq(w.wakee->cpu, (busy ? 2 : 0));
		sim_destroy(s);
		scenario_free(&sc);
	}
}
END_TEST

/*
 * select_idle_sibling: when the waker's CPU and the wakee's previous one
 * are both busy, the wakee goes to the first idle CPU after the target.
 */
START_TEST(select_idle_sibling_finds_an_idle_cpu)
{
	struct scenario sc;
	struct sim *s = place_sim(&sc, 4);
	struct guest *g = guest_of(s->domains[0]);
	bool ran = false;
	struct waker w = { NULL, USEC(10), false };

	task_create(g, "hog0", TASK_NORMAL, 0, true, hog_forever, NULL, 0);
	task_create(g, "hog1", TASK_NORMAL, 1, true, hog_forever, NULL, 0);
	w.wakee = task_create(g, "wakee", TASK_NORMAL, 1, false, wakee_step, &ran, MSEC(5));
	task_create(g, "waker", TASK_IRQ, 0, true, waker_step, &w, 0);
	sim_run_until(s, MSEC(20));
	ck_assert_str_eq(s->check_error, "");
	ck_assert_int_eq(w.wakee->cpu, 2);
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

/* Runs 22 ms, then sleeps for good. */
static void run_22ms(struct sim *s, struct task *t)
{
	int *n = t->ctx;

	if ((*n)++ == 0)
		task_run(s, t, MSEC(22));
	else
		task_sleep(s, t, SEC(100));
}

/*
 * An idle CPU pulls a waiting task at the busy CPU's next tick (nohz idle
 * balance, 1/HZ = 4 ms), and only a task that is not cache-hot (it has
 * not run for the 0.5 ms migration cost).  e arrives on CPU 0 at 21.5 ms
 * and, a sleeper ahead of the hog d, runs its 6 ms slice; CPU 1 is idle
 * from 22 ms, so its balance runs at 26 ms (e runs: nothing to take) and
 * 30 ms (e has waited since 27.5 ms): e moves then.
 */
START_TEST(an_idle_cpu_pulls_at_the_busy_cpus_tick)
{
	struct scenario sc;
	struct sim *s = place_sim(&sc, 2);
	struct guest *g = guest_of(s->domains[0]);
	struct task *e;
	int n = 0;

	task_create(g, "f", TASK_NORMAL, 1, true, run_22ms, &n, 0);
	task_create(g, "d", TASK_NORMAL, 0, true, hog_forever, NULL, 0);
	e = task_create(g, "e", TASK_NORMAL, 0, false, hog_forever, NULL, MSEC(21) + USEC(500));
	sim_run_until(s, MSEC(22) + USEC(100));
	ck_assert_int_eq(e->cpu, 0);
	ck_assert_int_eq(e->state, TASK_RUNNING);
	sim_run_until(s, MSEC(29) + USEC(900));
	ck_assert_int_eq(e->cpu, 0);
	ck_assert_int_eq(e->state, TASK_READY);
	sim_run_until(s, MSEC(30) + USEC(100));
	ck_assert_str_eq(s->check_error, "");
	ck_assert_int_eq(e->cpu, 1);
	ck_assert_int_eq(e->state, TASK_RUNNING);
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

/*
 * check_preempt_tick's slice is the queue's as it is now, not as it was
 * when curr was picked.  One guest CPU (sched_latency 6 ms): the hog d is
 * picked alone at 0, e arrives at 0.5 ms less than wakeup_granularity
 * behind it, so it does not preempt at the wake; with two tasks d's
 * slice is 3 ms, so e runs from 3 ms (not from 6 ms, the slice d had
 * alone) and for its own 3 ms.
 */
START_TEST(a_queued_task_cuts_the_slice_curr_was_picked_with)
{
	struct scenario sc;
	struct sim *s = place_sim(&sc, 1);
	struct guest *g = guest_of(s->domains[0]);
	struct task *d, *e;

	d = task_create(g, "d", TASK_NORMAL, 0, true, hog_forever, NULL, 0);
	e = task_create(g, "e", TASK_NORMAL, 0, true, hog_forever, NULL, USEC(500));
	sim_run_until(s, MSEC(2) + USEC(900));
	ck_assert_int_eq(d->state, TASK_RUNNING);
	ck_assert_int_eq(e->state, TASK_READY);
	sim_run_until(s, MSEC(3) + USEC(100));
	ck_assert_int_eq(e->state, TASK_RUNNING);
	sim_run_until(s, MSEC(5) + USEC(900));
	ck_assert_int_eq(e->state, TASK_RUNNING);
	sim_run_until(s, MSEC(6) + USEC(100));
	ck_assert_str_eq(s->check_error, "");
	ck_assert_int_eq(d->state, TASK_RUNNING);
	ck_assert_int_eq(e->cpu_ns, MSEC(3));
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

/*
 * Periodic balancing of busy CPUs (load_balance with CPU_NOT_IDLE): three
 * guest CPUs each run a bound hog, and CPU 0 from 5 ms a fourth hog b.  No CPU
 * is ever idle, so only a busy CPU's balance can move b: CPU 1's or 2's,
 * every 96 ms while it finds the imbalance (min_interval 3 ms x
 * busy_factor 32).  That is 16 of CPU 0's 6 ms periods of a and b, so b
 * is in the same phase at every balance: running.  The balances fail
 * (load_balance's nr_balance_failed), and the fourth pushes b off CPU 0
 * (need_active_balance, active_load_balance_cpu_stop), within 400 ms.
 * Bound, b stays.
 */
START_TEST(a_busy_cpu_pulls_from_one_running_two)
{
	for (int bound = 0; bound < 2; bound++) {
		struct scenario sc;
		struct sim *s = place_sim(&sc, 3);
		struct guest *g = guest_of(s->domains[0]);
		struct task *b;

		task_create(g, "a", TASK_NORMAL, 0, true, hog_forever, NULL, 0);
		task_create(g, "c", TASK_NORMAL, 1, true, hog_forever, NULL, 0);
		task_create(g, "d", TASK_NORMAL, 2, true, hog_forever, NULL, 0);
		b = task_create(g, "b", TASK_NORMAL, 0, bound, hog_forever, NULL, MSEC(5));
		sim_run_until(s, MSEC(400));
		ck_assert_str_eq(s->check_error, "");
		if (bound)
			ck_assert_int_eq(b->cpu, 0);
		else
			ck_assert_int_ne(b->cpu, 0);
		sim_destroy(s);
		scenario_free(&sc);
	}
}
END_TEST

/*
 * Autogroup (guest.h): a session of three hogs, one per CPU, weighs about
 * 1024 / 3 on each, so a lone CPU-bound task beside one of them gets
 * 1024 / (1024 + 341) = 75 % of its CPU; without the group, half.
 */
START_TEST(an_autogroup_shares_a_cpu_as_one_task)
{
	for (int grouped = 0; grouped < 2; grouped++) {
		struct scenario sc;
		struct sim *s = place_sim(&sc, 3);
		struct guest *g = guest_of(s->domains[0]);
		struct task_group *tg = grouped ? task_group_create(g) : NULL;
		struct task *lone;
		double share;

		for (int i = 0; i < 3; i++) {
			char name[8];
			struct task *h;

			snprintf(name, sizeof(name), "h%d", i);
			h = task_create(g, name, TASK_NORMAL, i, true, hog_forever, NULL, 0);
			if (tg)
				task_join_group(h, tg);
		}
		lone = task_create(g, "lone", TASK_NORMAL, 0, true, hog_forever, NULL, 0);
		sim_run_until(s, SEC(1));
		ck_assert_str_eq(s->check_error, "");
		share = (double)lone->cpu_ns / SEC(1);
		if (grouped)
			ck_assert_msg(share > 0.72 && share < 0.78, "lone's share %.3f", share);
		else
			ck_assert_msg(share > 0.47 && share < 0.53, "lone's share %.3f", share);
		sim_destroy(s);
		scenario_free(&sc);
	}
}
END_TEST

/* Sleeps 10 ms, then records where and when it runs 100 us. */
struct timer_probe {
	int steps;
	int cpu;
	stime_t done;
};

static void sleeper_step(struct sim *s, struct task *t)
{
	struct timer_probe *p = t->ctx;

	switch (p->steps++) {
	case 0:
		task_sleep(s, t, MSEC(10));
		return;
	case 1:
		task_run(s, t, USEC(100));
		return;
	default:
		p->cpu = t->cpu;
		p->done = sim_now(s);
		task_block(s, t);
	}
}

/*
 * A guest timer interrupt reaches the guest only when Xen runs the vCPU
 * the timer is on.  Null scheduler, a pCPU per vCPU: guest CPU 0 and 2
 * run hogs, CPU 1 is idle; a sleeper on CPU 2 sleeps 10 ms from 0.  Xen
 * takes vCPU 2 off its pCPU (paused) from 5 ms to 20 ms.  The sleeper's
 * timer expires at 10 ms, but its vCPU only takes the interrupt at 20 ms;
 * then the sleeper wakes onto the idle CPU 1 and is done at 20.1 ms.  It
 * must not run on CPU 1 at 10 ms while the vCPU its timer is on is off.
 */
START_TEST(timer_wake_waits_for_its_vcpu)
{
	static const char xml[] =
		"<scenario duration=\"50ms\">"
		"<host sockets=\"1\" cores-per-socket=\"3\" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"a\" vcpus=\"3\"/>"
		"</scenario>";
	struct scenario sc;
	struct timer_probe p = { 0, -1, -1 };
	struct timer pause_t, unpause_t;
	struct guest *g;
	struct sim *s;

	s = test_build(&sc, xml, "null");
	s->check = true;
	g = guest_of(s->domains[0]);
	task_create(g, "hog0", TASK_NORMAL, 0, true, hog_forever, NULL, 0);
	task_create(g, "hog2", TASK_NORMAL, 2, true, hog_forever, NULL, 0);
	task_create(g, "sleeper", TASK_NORMAL, 2, false, sleeper_step, &p, 0);
	timer_init(&pause_t, test_pause_vcpu, s->domains[0]->vcpus[2]);
	timer_init(&unpause_t, test_unpause_vcpu, s->domains[0]->vcpus[2]);
	timer_set(&s->q, &pause_t, MSEC(5));
	timer_set(&s->q, &unpause_t, MSEC(20));
	sim_run_until(s, sc.duration);
	ck_assert_str_eq(s->check_error, "");
	ck_assert_int_eq(p.steps, 3);
	ck_assert_int_eq(p.cpu, 1);
	ck_assert_int_eq(p.done, MSEC(20) + USEC(100));
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

/* The checker is not a test that cannot fail: corrupt a state and see it caught. */
START_TEST(invariant_checker_catches_violations)
{
	struct scenario sc;
	struct sim *s;
	struct vcpu *v, *other;

	s = test_build(&sc, three_hogs, "null");
	sim_run_until(s, MSEC(10));
	ck_assert(sim_check_invariants(s));
	v = s->pcpus[0].curr;
	ck_assert(!is_idle_vcpu(v));
	cpumask_clear_cpu(v->hard, 0);
	ck_assert(!sim_check_invariants(s));
	ck_assert_msg(strstr(s->check_error, "outside its hard affinity"), "%s", s->check_error);
	cpumask_set(v->hard, 0);
	s->check_error[0] = '\0';
	/* A pCPU taken out of the domain's pool while its vCPU runs there. */
	cpumask_clear_cpu(v->dom->pool->cpu_valid, 0);
	ck_assert(!sim_check_invariants(s));
	ck_assert_msg(strstr(s->check_error, "outside its domain's cpupool"), "%s", s->check_error);
	cpumask_set(v->dom->pool->cpu_valid, 0);
	s->check_error[0] = '\0';
	other = s->pcpus[1].curr;
	s->pcpus[1].curr = v;          /* the same vCPU on two pCPUs */
	ck_assert(!sim_check_invariants(s));
	ck_assert_msg(strstr(s->check_error, "other than its processor"), "%s", s->check_error);
	s->pcpus[1].curr = other;
	s->check_error[0] = '\0';
	v->st.runstate_ns[RUNSTATE_RUNNING] += 1;
	ck_assert(!sim_check_invariants(s));
	ck_assert_msg(strstr(s->check_error, "add up"), "%s", s->check_error);
	v->st.runstate_ns[RUNSTATE_RUNNING] -= 1;
	ck_assert(sim_check_invariants(s));
	/* The guest layer's part: a halted vCPU whose hog still has work. */
	v->pause_flags |= VPF_BLOCKED;
	ck_assert(!sim_check_invariants(s));
	ck_assert_msg(strstr(s->check_error, "halted while its guest CPU has work"), "%s",
		      s->check_error);
	v->pause_flags &= ~VPF_BLOCKED;
	s->check_error[0] = '\0';
	/* ... and a vCPU the guest believes runs while Xen runs the idle vCPU. */
	s->pcpus[0].curr = s->pcpus[0].idle;
	s->pcpus[0].idle->is_running = true;
	s->pcpus[0].idle->runstate = RUNSTATE_RUNNING;
	v->is_running = false;
	v->runstate = RUNSTATE_RUNNABLE;
	ck_assert(!sim_check_invariants(s));
	ck_assert_msg(strstr(s->check_error, "on-pCPU flag disagrees"), "%s", s->check_error);
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

/* Remote tickles take the IPI latency: a wake on another pCPU runs that much later. */
START_TEST(remote_wake_pays_ipi_latency)
{
	static const char xml[] =
		"<scenario duration=\"1s\">"
		"<host sockets=\"1\" cores-per-socket=\"2\" ipi-latency=\"7us\" hw=\"ideal\"/>"
		"<domain name=\"a\" vcpus=\"1\"><workload type=\"phases\"><phase run=\"100us\" sleep=\"1ms\"/></workload></domain>"
		"</scenario>";
	struct run_result r;

	test_run(xml, "null", &checked, &r);
	ck_assert_str_eq(r.check_error, "");
	/* Guest timers fire on the vCPU's own pCPU: a local wake, no IPI. */
	ck_assert_int_eq(r.doms[0].vcpus[0].wake_max, 0);
	run_result_free(&r);
}
END_TEST

/*
 * Where a new domain's vCPU 0 starts (sim/experiment/build.c initial_cpu)
 * follows the Xen tree of the scheduler's era: default_vcpu0_location in 2015
 * (the least used second thread, the highest-numbered on a tie: dom0 has one
 * vCPU on each pCPU, so pCPU 15), domctl's cpumask_any from July 2016 to 4.12
 * (a draw from the seed: the same seed the same pCPU), and the first pCPU from
 * 4.13.  The next vCPUs follow on the next pCPUs; dom0's vCPU 0 is on pCPU 0
 * in every tree.  At build every pCPU is idle, so credit1's insert
 * (csched_cpu_pick from 2016) leaves each vCPU where it starts (credit2's
 * insert picks in its runqueue, so it would hide the rule).
 */
static void initial_placement(const char *sched, unsigned long long seed, int out[8])
{
	char xml[512];
	struct scenario sc;
	struct sim *s;

	snprintf(xml, sizeof(xml),
		 "<scenario duration=\"1ms\" seed=\"%llu\"><host sockets=\"2\" "
		 "cores-per-socket=\"4\" threads-per-core=\"2\" hw=\"ideal\"/>"
		 "<domain name=\"dom0\" vcpus=\"16\"/><domain name=\"g\" vcpus=\"8\"/>"
		 "</scenario>", seed);
	s = test_build(&sc, xml, sched);
	ck_assert_int_eq(s->domains[0]->vcpus[0]->processor, 0);
	for (int i = 0; i < 8; i++)
		out[i] = s->domains[1]->vcpus[i]->processor;
	sim_destroy(s);
	scenario_free(&sc);
}

START_TEST(a_new_domains_vcpu0_starts_where_its_tree_put_it)
{
	int p[8], q[8], first[16] = { 0 }, distinct = 0;

	initial_placement("credit1:era=2015", 1, p);
	ck_assert_int_eq(p[0], 15);
	ck_assert_int_eq(p[1], 0);
	ck_assert_int_eq(p[7], 6);
	initial_placement("credit1:era=4.17", 1, p);
	ck_assert_int_eq(p[0], 0);
	ck_assert_int_eq(p[7], 7);
	for (unsigned long long seed = 1; seed <= 16; seed++) {
		initial_placement("credit1:era=2016", seed, p);
		initial_placement("credit1:era=2016", seed, q);
		ck_assert_int_eq(p[0], q[0]);
		ck_assert_int_eq(p[1], (p[0] + 1) % 16);
		if (!first[p[0]]++)
			distinct++;
	}
	ck_assert_int_ge(distinct, 6);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, null_three_hogs_on_two_pcpus);
	tcase_add_test(tc, null_respects_hard_affinity);
	tcase_add_test(tc, runstate_times_add_up);
	tcase_add_test(tc, same_seed_same_run);
	tcase_add_test(tc, guest_tasks_share_a_vcpu);
	tcase_add_test(tc, invariant_checker_catches_violations);
	tcase_add_test(tc, remote_wake_pays_ipi_latency);
	tcase_add_test(tc, wake_during_current_step_preempts_after_it);
	tcase_add_test(tc, wake_during_own_step_is_taken_after_it);
	tcase_add_test(tc, migration_writes_no_sleep_record);
	tcase_add_test(tc, idle_pull_passes_over_an_all_bound_queue);
	tcase_add_test(tc, wake_affine_pulls_to_an_interrupts_idle_cpu);
	tcase_add_test(tc, select_idle_sibling_finds_an_idle_cpu);
	tcase_add_test(tc, an_idle_cpu_pulls_at_the_busy_cpus_tick);
	tcase_add_test(tc, a_queued_task_cuts_the_slice_curr_was_picked_with);
	tcase_add_test(tc, a_busy_cpu_pulls_from_one_running_two);
	tcase_add_test(tc, an_autogroup_shares_a_cpu_as_one_task);
	tcase_add_test(tc, timer_wake_waits_for_its_vcpu);
	tcase_add_test(tc, a_new_domains_vcpu0_starts_where_its_tree_put_it);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
