/*
 * ARINC 653 unit tests: the default schedule, the checks of
 * XEN_SYSCTL_SCHEDOP_putinfo, the walk through minor and major frames,
 * what a pCPU runs in a frame (the entry's vCPU only if it is awake,
 * runnable and on this pCPU), and the eras' handling of a late schedule.
 * Hosts are built from scenarios without workloads; the test installs a
 * schedule and calls do_schedule at chosen instants.  Expected values are
 * worked out from Xen's arinc653.c, the arithmetic beside each assertion.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "schedulers/arinc653.h"
#include "sim/engine/scenario.h"
#include "sim/experiment/build.h"
#include "tests/testlib.h"

struct host {
	struct sim *s;
	struct scheduler *ops;
	struct a653sched_priv *prv;
};

static struct host mk(const char *host_xml, const char *doms_xml, const char *sched)
{
	struct host h;

	h.s = test_build_host(host_xml, doms_xml, sched);
	h.ops = h.s->sched;
	h.prv = a653_priv(h.ops);
	return h;
}

static const char host1[] = "<host sockets=\"1\" cores-per-socket=\"1\"/>";
static const char host2[] = "<host sockets=\"1\" cores-per-socket=\"2\"/>";
static const char two_doms[] = "<domain name=\"a\"/><domain name=\"b\"/>";   /* domids 1, 2 */

static struct vcpu *V(struct host *h, int d, int i)
{
	return h->s->domains[d]->vcpus[i];
}

static stime_t now(struct host *h)
{
	return sim_now(h->s);
}

static int install(struct host *h, stime_t major, int n, const int *domid, const int *vcpu,
		   const stime_t *runtime, struct err *e)
{
	struct arinc653_schedule sched;
	struct sched_global_op op = { &sched };

	memset(&sched, 0, sizeof(sched));
	sched.major_frame = major;
	sched.num_sched_entries = n;
	for (int i = 0; i < n && i < ARINC653_MAX_DOMAINS_PER_SCHEDULE; i++) {
		sched.entries[i].domid = domid[i];
		sched.entries[i].vcpu_id = vcpu[i];
		sched.entries[i].runtime = runtime[i];
	}
	return h->ops->ops->adjust_global(h->ops, &op, e);
}

/* a (domid 1) 5 ms, b (domid 2) 3 ms, in a 10 ms major frame: 2 ms idle at the end. */
static void install_ab(struct host *h)
{
	static const int dom[] = { 1, 2 }, vc[] = { 0, 0 };
	static const stime_t rt[] = { MSEC(5), MSEC(3) };
	struct err e = { "" };

	ck_assert_int_eq(install(h, MSEC(10), 2, dom, vc, rt, &e), 0);
}

static void wake(struct host *h, struct vcpu *v)
{
	v->pause_flags = 0;
	h->ops->ops->wake(h->ops, v);
}

static struct sched_decision schedule_at(struct host *h, int cpu, stime_t t)
{
	struct sched_decision d = { NULL, -1, false };

	h->s->q.now = t;
	h->s->this_cpu = cpu;
	h->ops->ops->do_schedule(h->ops, h->s->pcpus[cpu].curr, t, false, &d);
	return d;
}

START_TEST(default_schedule_is_dom0s_vcpus)
{
	const char *eras[] = { "arinc653", "arinc653:era=4.17" };

	for (int k = 0; k < 2; k++) {
		struct host h = mk(host2, "<domain name=\"g\"/><domain name=\"dom0\" vcpus=\"3\"/>",
				   eras[k]);

		/* One 10 ms entry per dom0 vCPU, the major frame their sum, the guest absent. */
		ck_assert_uint_eq(h.prv->num_schedule_entries, 3);
		ck_assert_int_eq(h.prv->major_frame, MSEC(30));
		for (int i = 0; i < 3; i++) {
			ck_assert_int_eq(h.prv->schedule[i].domid, 0);
			ck_assert_int_eq(h.prv->schedule[i].unit_id, i);
			ck_assert_int_eq(h.prv->schedule[i].runtime, MSEC(10));
			ck_assert_ptr_eq(h.prv->schedule[i].unit, V(&h, 1, i));
		}
		sim_destroy(h.s);
	}
}
END_TEST

START_TEST(putinfo_checks)
{
	struct host h = mk(host1, two_doms, "arinc653");
	int dom[65], vc[65];
	stime_t rt[65];
	struct err e = { "" };

	for (int i = 0; i < 65; i++) {
		dom[i] = 1;
		vc[i] = 0;
		rt[i] = USEC(100);
	}
	ck_assert_int_eq(install(&h, 0, 1, dom, vc, rt, &e), -1);          /* no major frame */
	ck_assert_int_eq(install(&h, MSEC(10), 0, dom, vc, rt, &e), -1);   /* no entry */
	ck_assert_int_eq(install(&h, MSEC(10), 65, dom, vc, rt, &e), -1);  /* more than 64 */
	ck_assert(strstr(e.msg, "1 to 64 entries"));
	rt[1] = 0;
	ck_assert_int_eq(install(&h, MSEC(10), 2, dom, vc, rt, &e), -1);   /* a zero runtime */
	rt[1] = MSEC(10);
	ck_assert_int_eq(install(&h, MSEC(10), 2, dom, vc, rt, &e), -1);   /* 10.1 ms > 10 ms */
	ck_assert(strstr(e.msg, "more than the major frame"));
	/* Refused schedules leave the default (empty: no dom0) alone. */
	ck_assert_uint_eq(h.prv->num_schedule_entries, 0);
	/* 64 entries of 100 us fill 6.4 ms of 10: accepted; a vCPU that does not exist idles. */
	vc[1] = 7;
	rt[1] = USEC(100);
	ck_assert_int_eq(install(&h, MSEC(10), 64, dom, vc, rt, &e), 0);
	ck_assert_uint_eq(h.prv->num_schedule_entries, 64);
	ck_assert_ptr_eq(h.prv->schedule[0].unit, V(&h, 0, 0));
	ck_assert_ptr_null(h.prv->schedule[1].unit);
	ck_assert_int_eq(h.prv->next_major_frame, now(&h));   /* effective at once */
	sim_destroy(h.s);
}
END_TEST

START_TEST(frames_in_order_then_idle_then_again)
{
	const char *eras[] = { "arinc653", "arinc653:era=4.17" };

	for (int k = 0; k < 2; k++) {
		struct host h = mk(host1, two_doms, eras[k]);
		struct vcpu *a = V(&h, 0, 0), *b = V(&h, 1, 0);
		stime_t t = now(&h);
		struct sched_decision d;

		install_ab(&h);
		wake(&h, a);
		wake(&h, b);
		d = schedule_at(&h, 0, t);
		ck_assert_ptr_eq(d.next, a);
		ck_assert_int_eq(d.time_slice, MSEC(5));
		ck_assert(!d.migrated);
		d = schedule_at(&h, 0, t + MSEC(5));
		ck_assert_ptr_eq(d.next, b);
		ck_assert_int_eq(d.time_slice, MSEC(3));
		d = schedule_at(&h, 0, t + MSEC(8));       /* after the last: idle to the end */
		ck_assert(is_idle_vcpu(d.next));
		ck_assert_int_eq(d.time_slice, MSEC(2));
		d = schedule_at(&h, 0, t + MSEC(10));      /* the next major frame */
		ck_assert_ptr_eq(d.next, a);
		ck_assert_int_eq(d.time_slice, MSEC(5));
		d = schedule_at(&h, 0, t + MSEC(11));      /* a wake in the middle of a's frame */
		ck_assert_ptr_eq(d.next, a);
		ck_assert_int_eq(d.time_slice, MSEC(4));
		sim_destroy(h.s);
	}
}
END_TEST

START_TEST(frame_idles_unless_awake_and_runnable)
{
	struct host h = mk(host1, two_doms, "arinc653");
	struct vcpu *a = V(&h, 0, 0), *b = V(&h, 1, 0);
	stime_t t = now(&h);
	struct sched_decision d;

	install_ab(&h);
	/* b is awake, a never woke: a's frame idles, to its end. */
	wake(&h, b);
	d = schedule_at(&h, 0, t + MSEC(1));
	ck_assert(is_idle_vcpu(d.next));
	ck_assert_int_eq(d.time_slice, MSEC(4));
	/* Woken but blocked again (awake stays set): still idle. */
	wake(&h, a);
	a->pause_flags = VPF_BLOCKED;
	d = schedule_at(&h, 0, t + MSEC(2));
	ck_assert(is_idle_vcpu(d.next));
	/* Runnable: a runs the rest of its frame; then asleep (paused): idle. */
	a->pause_flags = 0;
	d = schedule_at(&h, 0, t + MSEC(3));
	ck_assert_ptr_eq(d.next, a);
	ck_assert_int_eq(d.time_slice, MSEC(2));
	a->pause_count = 1;
	h.ops->ops->sleep(h.ops, a);
	ck_assert(!((struct arinc653_unit *)a->sched_priv)->awake);
	d = schedule_at(&h, 0, t + MSEC(4));
	ck_assert(is_idle_vcpu(d.next));
	/* Nothing else takes a's time: b waits for its own frame. */
	d = schedule_at(&h, 0, t + MSEC(5));
	ck_assert_ptr_eq(d.next, b);
	sim_destroy(h.s);
}
END_TEST

/* One schedule for the pool: a frame runs on its vCPU's pCPU, the others idle. */
START_TEST(frames_are_serialised_over_pcpus)
{
	struct host h = mk(host2, "<domain name=\"x\" vcpus=\"2\"/>", "arinc653");
	static const int dom[] = { 1, 1 }, vc[] = { 0, 1 };
	static const stime_t rt[] = { MSEC(5), MSEC(5) };
	struct vcpu *x0 = V(&h, 0, 0), *x1 = V(&h, 0, 1);
	stime_t t = now(&h);
	struct err e = { "" };
	struct sched_decision d;

	ck_assert_int_eq(x0->processor, 0);
	ck_assert_int_eq(x1->processor, 1);
	ck_assert_int_eq(install(&h, MSEC(10), 2, dom, vc, rt, &e), 0);
	wake(&h, x0);
	wake(&h, x1);
	d = schedule_at(&h, 0, t);
	ck_assert_ptr_eq(d.next, x0);
	d = schedule_at(&h, 1, t);
	ck_assert(is_idle_vcpu(d.next));           /* x0's frame: not on pCPU 1 */
	ck_assert_int_eq(d.time_slice, MSEC(5));
	d = schedule_at(&h, 1, t + MSEC(5));
	ck_assert_ptr_eq(d.next, x1);
	d = schedule_at(&h, 0, t + MSEC(5));
	ck_assert(is_idle_vcpu(d.next));
	/* And it stays where it is: pick_resource keeps its pCPU. */
	ck_assert_int_eq(h.ops->ops->pick_resource(h.ops, x1), 1);
	sim_destroy(h.s);
}
END_TEST

/*
 * A schedule 0.5 ms late at a major frame boundary: 4.17 starts the frame
 * from now, so every later frame moves by 0.5 ms; current (f2927d8343)
 * keeps the grid and shortens the first minor frame instead.
 */
START_TEST(late_schedule_drifts_in_4_17_only)
{
	const char *eras[] = { "arinc653", "arinc653:era=4.17" };
	const stime_t slice[] = { USEC(4500), MSEC(5) };
	const stime_t next_major[] = { MSEC(20), USEC(20500) };

	for (int k = 0; k < 2; k++) {
		struct host h = mk(host1, two_doms, eras[k]);
		stime_t t = now(&h);
		struct sched_decision d;

		install_ab(&h);
		wake(&h, V(&h, 0, 0));
		wake(&h, V(&h, 1, 0));
		schedule_at(&h, 0, t);
		d = schedule_at(&h, 0, t + USEC(10500));
		ck_assert_ptr_eq(d.next, V(&h, 0, 0));
		ck_assert_int_eq(d.time_slice, slice[k]);
		ck_assert_int_eq(h.prv->next_major_frame, t + next_major[k]);
		sim_destroy(h.s);
	}
}
END_TEST

/*
 * More than a major frame late (at 26 ms, the last schedule at 0): current
 * finds the frame 26 ms falls in: (26 - 10) mod 10 = 6 ms into the major
 * frame that began at 20 ms, which is b's (5 to 8 ms); 4.17 starts over
 * with a.
 */
START_TEST(very_late_schedule_finds_the_frame_in_current)
{
	const char *eras[] = { "arinc653", "arinc653:era=4.17" };

	for (int k = 0; k < 2; k++) {
		struct host h = mk(host1, two_doms, eras[k]);
		stime_t t = now(&h);
		struct sched_decision d;

		install_ab(&h);
		wake(&h, V(&h, 0, 0));
		wake(&h, V(&h, 1, 0));
		schedule_at(&h, 0, t);
		d = schedule_at(&h, 0, t + MSEC(26));
		if (k == 0) {
			ck_assert_ptr_eq(d.next, V(&h, 1, 0));
			ck_assert_int_eq(d.time_slice, MSEC(2));
			ck_assert_int_eq(h.prv->next_major_frame, t + MSEC(30));
		} else {
			ck_assert_ptr_eq(d.next, V(&h, 0, 0));
			ck_assert_int_eq(d.time_slice, MSEC(5));
			ck_assert_int_eq(h.prv->next_major_frame, t + MSEC(36));
		}
		sim_destroy(h.s);
	}
}
END_TEST

START_TEST(wake_reschedules_the_vcpus_pcpu)
{
	struct host h = mk(host2, "<domain name=\"x\" vcpus=\"2\"/>", "arinc653");
	struct vcpu *x1 = V(&h, 0, 1);
	struct arinc653_unit *av = x1->sched_priv;

	ck_assert(!av->awake);                       /* created asleep */
	h.s->this_cpu = 0;
	wake(&h, x1);
	ck_assert(av->awake);
	ck_assert(timer_pending(&h.s->pcpus[1].softirq));
	ck_assert(!timer_pending(&h.s->pcpus[0].softirq));
	sim_destroy(h.s);
}
END_TEST

static Suite *arinc653_suite(void)
{
	Suite *s = suite_create("arinc653");
	TCase *tc = tcase_create("arinc653");

	tcase_add_test(tc, default_schedule_is_dom0s_vcpus);
	tcase_add_test(tc, putinfo_checks);
	tcase_add_test(tc, frames_in_order_then_idle_then_again);
	tcase_add_test(tc, frame_idles_unless_awake_and_runnable);
	tcase_add_test(tc, frames_are_serialised_over_pcpus);
	tcase_add_test(tc, late_schedule_drifts_in_4_17_only);
	tcase_add_test(tc, very_late_schedule_finds_the_frame_in_current);
	tcase_add_test(tc, wake_reschedules_the_vcpus_pcpu);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(arinc653_suite());
}
