/*
 * The workload models piece by piece: ring indexes and Xen's notification
 * suppression, the TCP window, make's stage barriers, event channels on a
 * running machine, and the make-xen, iperf and dom0-load models against
 * timings worked out by hand on a host where every vCPU has its own pCPU
 * (the null scheduler), plus the experiment axes' scenario rewriting.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "sim/engine/scenario.h"
#include "sim/experiment/build.h"
#include "sim/experiment/run.h"
#include "tests/testlib.h"
#include "workloads/axes.h"
#include "workloads/breakdown.h"
#include "workloads/iperf.h"
#include "workloads/makexen.h"
#include "workloads/nic.h"
#include "workloads/split.h"
#include "workloads/tcp.h"

/* --- rings --- */

/* A fresh ring asks for the first request (req_event = 1), then no more. */
START_TEST(ring_first_push_notifies_then_busy_consumer_is_left_alone)
{
	struct ring r;

	ring_init(&r, 8);
	ck_assert_uint_eq(ring_free_requests(&r), 8);
	ring_queue_requests(&r, 1);
	ck_assert(ring_push_requests(&r));
	/* The back end is busy (it has not re-armed req_event): no notification. */
	ring_queue_requests(&r, 2);
	ck_assert(!ring_push_requests(&r));
	ck_assert_uint_eq(ring_unconsumed_requests(&r), 3);
	ck_assert_uint_eq(ring_free_requests(&r), 5);
}
END_TEST

/* A consumer that goes to sleep sets event = cons + 1: the next batch notifies once. */
START_TEST(ring_sleeping_consumer_gets_one_notification_per_batch)
{
	struct ring r;

	ring_init(&r, 8);
	ring_queue_requests(&r, 2);
	ck_assert(ring_push_requests(&r));
	ring_consume_requests(&r, 2);
	ck_assert(!ring_final_check_requests(&r));
	ck_assert_uint_eq(r.req_event, 3);
	ring_queue_requests(&r, 2);          /* indexes 2, 3: crosses event 3 */
	ck_assert(ring_push_requests(&r));
	ring_queue_requests(&r, 1);
	ck_assert(!ring_push_requests(&r));
	/* Work published before the final check: the consumer sees it and stays awake. */
	ring_consume_requests(&r, 1);
	ck_assert(ring_final_check_requests(&r));
	ck_assert_uint_eq(r.req_event, 3);   /* not re-armed: it did not sleep */
	ck_assert_uint_eq(r.notifies_req, 2);
}
END_TEST

/* Responses free request slots; the response side suppresses the same way. */
START_TEST(ring_responses_free_slots_and_notify_front)
{
	struct ring r;

	ring_init(&r, 4);
	ring_queue_requests(&r, 4);
	ring_push_requests(&r);
	ck_assert_uint_eq(ring_free_requests(&r), 0);
	ring_consume_requests(&r, 4);
	ring_queue_responses(&r, 2);
	ck_assert(ring_push_responses(&r));      /* rsp_event starts at 1 */
	ring_queue_responses(&r, 1);
	ck_assert(!ring_push_responses(&r));
	ck_assert_uint_eq(ring_unconsumed_responses(&r), 3);
	ring_consume_responses(&r, 3);
	ck_assert_uint_eq(ring_free_requests(&r), 3);
	ck_assert(!ring_final_check_responses(&r));
	ck_assert_uint_eq(r.rsp_event, 4);
	ring_queue_responses(&r, 1);
	ck_assert(ring_push_responses(&r));
}
END_TEST

/* The back end never sees more requests than slots not holding responses. */
START_TEST(ring_unconsumed_requests_bounded_by_ring)
{
	struct ring r;

	ring_init(&r, 4);
	/* A misbehaving front end publishing 6 requests into 4 slots. */
	r.req_prod = r.req_prod_pvt = 6;
	ck_assert_uint_eq(ring_unconsumed_requests(&r), 4);
	ring_consume_requests(&r, 4);
	ck_assert_uint_eq(ring_unconsumed_requests(&r), 0);
	ring_queue_responses(&r, 1);
	ck_assert_uint_eq(ring_unconsumed_requests(&r), 1);
}
END_TEST

/* Free-running 32-bit indexes wrap; the arithmetic must not care. */
START_TEST(ring_index_wraparound)
{
	struct ring r;
	ring_idx_t base = 0xfffffffeu;

	ring_init(&r, 8);
	r.req_prod = r.req_prod_pvt = r.req_cons = base;
	r.rsp_prod = r.rsp_prod_pvt = r.rsp_cons = base;
	r.req_event = base + 1;                 /* 0xffffffff */
	ring_queue_requests(&r, 3);             /* prod wraps to 1 */
	ck_assert_uint_eq(r.req_prod_pvt, 1);
	ck_assert_uint_eq(ring_free_requests(&r), 5);
	ck_assert(ring_push_requests(&r));
	ck_assert_uint_eq(ring_unconsumed_requests(&r), 3);
	ring_consume_requests(&r, 3);
	ck_assert(!ring_final_check_requests(&r));
	ck_assert_uint_eq(r.req_event, 2);
	ring_queue_requests(&r, 1);             /* index 1 -> 2: crosses 2 */
	ck_assert(ring_push_requests(&r));
}
END_TEST

/* --- TCP flow control (tcp.h) --- */

/*
 * The three limits and their order: no data, then TSQ (truesize in the
 * driver above tcp_limit_output_bytes), then the receive window; the send
 * buffer in truesize, and the writer woken once free >= queued / 2.
 */
START_TEST(tcp_limits_are_linuxs)
{
	struct tcp_params p = { .segment = 65536, .skb_overhead = 2624, .limit_output = 262144,
				.sndbuf = 4 * 68160, .rcvbuf = 6291456, .adv_win_scale = 1 };
	struct tcp_stream t;
	int sent = 0;

	ck_assert_uint_eq(tcp_rcv_window(&p), 3145728);    /* 6 MiB - 6 MiB / 2 */
	p.adv_win_scale = 2;
	ck_assert_uint_eq(tcp_rcv_window(&p), 4718592);    /* 6 MiB - 6 MiB / 4 */
	p.adv_win_scale = -1;
	ck_assert_uint_eq(tcp_rcv_window(&p), 3145728);    /* 6 MiB / 2 */
	p.adv_win_scale = 1;
	tcp_init(&t, &p);
	ck_assert_int_eq(tcp_send_limit(&t), TCP_NO_DATA);
	/* the send buffer holds four segments' truesize */
	for (int i = 0; i < 4; i++) {
		ck_assert(tcp_may_write(&t, 65536));
		tcp_write(&t, 65536);
	}
	ck_assert(!tcp_may_write(&t, 65536));
	ck_assert(!tcp_writeable(&t));
	/* TSQ: sending goes on while the driver holds no more than 256 KiB of truesize */
	while (tcp_send_limit(&t) == TCP_CAN_SEND) {
		tcp_send(&t);
		sent++;
	}
	ck_assert_int_eq(sent, 4);                         /* 3 x 68160 <= 262144 < 4 x 68160 */
	ck_assert_int_eq(tcp_send_limit(&t), TCP_NO_DATA);
	tcp_write(&t, 65536);
	ck_assert_int_eq(tcp_send_limit(&t), TCP_TSQ);
	tcp_tx_freed(&t, 65536);
	ck_assert_int_eq(tcp_send_limit(&t), TCP_CAN_SEND);
	/* an ACK frees the send buffer; the writer wakes once free >= queued / 2 */
	tcp_ack(&t, 65536, 65536 + 3145728);
	ck_assert(!tcp_writeable(&t));                     /* queued 4 x 68160: none free */
	tcp_ack(&t, 2 * 65536, 2 * 65536 + 3145728);
	ck_assert(!tcp_writeable(&t));                     /* 3 queued, 1 free: < 3 / 2 */
	tcp_ack(&t, 3 * 65536, 3 * 65536 + 3145728);
	ck_assert(tcp_writeable(&t));                      /* 2 queued, 2 free */
	tcp_ack(&t, 65536, 0);                             /* stale: ignored */
	ck_assert_uint_eq(t.snd_una, 3 * 65536);
	tcp_ack(&t, 9 * 65536, 0);                         /* beyond what was sent: ignored */
	ck_assert_uint_eq(t.snd_una, 3 * 65536);
	/* the receive window: a small one stops the sender before TSQ does */
	p.rcvbuf = 2 * 65536;
	tcp_init(&t, &p);
	tcp_write(&t, 2 * 65536);
	ck_assert_int_eq(tcp_send_limit(&t), TCP_CAN_SEND);
	tcp_send(&t);
	ck_assert_int_eq(tcp_send_limit(&t), TCP_RWND);     /* window: one segment */
	tcp_tx_freed(&t, 65536);
	ck_assert_int_eq(tcp_send_limit(&t), TCP_RWND);     /* TX completion is no ACK */
	tcp_ack(&t, 65536, 2 * 65536);
	ck_assert_int_eq(tcp_send_limit(&t), TCP_CAN_SEND);
}
END_TEST

/* --- make's stage barriers --- */

START_TEST(build_barriers_and_serial_steps)
{
	struct build b;
	struct err e;

	ck_assert_int_eq(build_init(&b, "3,0,2", &e), 0);
	ck_assert_int_eq(build_total_jobs(&b), 5);
	ck_assert_int_eq(build_next(&b), BUILD_JOB);
	ck_assert_int_eq(build_next(&b), BUILD_JOB);
	ck_assert_int_eq(build_next(&b), BUILD_JOB);
	ck_assert_int_eq(build_next(&b), BUILD_WAIT);    /* all started, none done */
	build_job_done(&b);
	build_job_done(&b);
	ck_assert_int_eq(build_next(&b), BUILD_WAIT);    /* one still compiling */
	build_job_done(&b);
	ck_assert_int_eq(build_next(&b), BUILD_SERIAL);
	ck_assert_int_eq(build_next(&b), BUILD_WAIT);    /* only one serial step */
	ck_assert(!build_serial_done(&b));
	ck_assert_int_eq(build_next(&b), BUILD_SERIAL);  /* empty stage: serial at once */
	ck_assert(!build_serial_done(&b));
	ck_assert_int_eq(build_next(&b), BUILD_JOB);
	ck_assert_int_eq(build_next(&b), BUILD_JOB);
	ck_assert_int_eq(build_next(&b), BUILD_WAIT);
	build_job_done(&b);
	build_job_done(&b);
	ck_assert_int_eq(build_next(&b), BUILD_SERIAL);
	ck_assert(build_serial_done(&b));
	ck_assert_int_eq(build_next(&b), BUILD_DONE);
	build_free(&b);
}
END_TEST

START_TEST(build_rejects_bad_stage_lists)
{
	static const char *bad[] = { "", "a", "1,,2", "-1", "3,", "2;3" };
	struct build b;
	struct err e;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(build_init(&b, bad[i], &e) == -1, "accepted '%s'", bad[i]);
		ck_assert_ptr_nonnull(strstr(e.msg, "stage"));
	}
}
END_TEST

/* --- on a running machine --- */

/* Runs xml under sched; returns the run's metric (which must be valid). */
static double metric_of(const char *xml, const char *sched)
{
	struct run_options o = { .check = true };
	struct run_result r;
	double v;

	test_run(xml, sched, &o, &r);
	ck_assert_msg(r.check_error[0] == '\0', "invariant: %s", r.check_error);
	ck_assert_msg(r.metric.valid, "no metric");
	v = r.metric.value;
	run_result_free(&r);
	return v;
}

struct probe {
	struct evtchn *ev;
	stime_t seen[8];
	int nseen;
};

static stime_t probe_poll(struct sim *s, struct worker *w)
{
	struct probe *p = w->ctx;

	if (!evtchn_test_and_clear(p->ev))
		return 0;
	p->seen[p->nseen++] = sim_now(s);
	return USEC(1);
}

static void probe_done(struct sim *s, struct worker *w)
{
	(void)s;
	(void)w;
}

static struct timer send_timer;

static void send_three(struct timer *t, void *arg)
{
	(void)t;
	evtchn_send(arg);
	evtchn_send(arg);
	evtchn_send(arg);
}

/* Sends while a delivery is pending coalesce; delivery comes after the latency. */
START_TEST(evtchn_coalesces_and_delivers_after_latency)
{
	static const char xml[] =
		"<scenario duration=\"10ms\"><host sockets=\"1\" cores-per-socket=\"2\""
		" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"dom0\" vcpus=\"1\"/><domain name=\"g\" vcpus=\"1\"/></scenario>";
	struct scenario sc;
	struct sim *s;
	struct evtchn ev;
	struct probe p = { &ev, { 0 }, 0 };
	struct worker *w;

	s = test_build(&sc, xml, "null");
	ck_assert_ptr_eq(split_dom0(s), s->domains[0]);
	w = worker_create(guest_of(s->domains[1]), "probe", TASK_IRQ, 0, true,
			  probe_poll, probe_done, &p);
	evtchn_init(&ev, s, w, USEC(5));
	timer_init(&send_timer, send_three, &ev);
	timer_set(&s->q, &send_timer, MSEC(1));
	sim_run_until(s, MSEC(2));
	ck_assert_int_eq(p.nseen, 1);
	ck_assert_uint_eq(ev.sent, 3);
	ck_assert_uint_eq(ev.delivered, 1);
	/*
	 * The idle vCPU is woken (null: its own pCPU, no IPI or switch cost);
	 * the worker claims when its task gets the CPU.
	 */
	ck_assert_int_eq(p.seen[0], MSEC(1) + USEC(5));
	timer_set(&s->q, &send_timer, MSEC(3));
	sim_run_until(s, MSEC(4));
	ck_assert_int_eq(p.nseen, 2);
	ck_assert_int_eq(p.seen[1], MSEC(3) + USEC(5));
	evtchn_close(&ev);
	sim_destroy(s);
	worker_free(w);
	scenario_free(&sc);
}
END_TEST

/* The dom0 worker: 1 us of work per delivery; records when the work is done. */
struct local_probe {
	struct evtchn *ev;
	stime_t done_at;
	int sends;
};

static stime_t local_poll(struct sim *s, struct worker *w)
{
	struct local_probe *p = w->ctx;

	(void)s;
	return evtchn_test_and_clear(p->ev) ? USEC(1) : 0;
}

static void local_done(struct sim *s, struct worker *w)
{
	struct local_probe *p = w->ctx;

	p->done_at = sim_now(s);
}

static void send_one(struct timer *t, void *arg)
{
	(void)t;
	evtchn_send(arg);
}

/* The guest's sender: starts at 1 ms, runs 14 ms, then notifies dom0 and runs on. */
static void sender_step(struct sim *s, struct task *t)
{
	struct local_probe *p = t->ctx;

	if (p->sends++ == 1)
		evtchn_send(p->ev);
	task_run(s, t, p->sends == 1 ? MSEC(14) : STIME_MAX);
}

/*
 * Xen's EVTCHNOP_send wakes the target vCPU from inside the sender's
 * hypercall, so the tickle it causes is raised on the sender's own pCPU
 * when that is the pCPU picked: local, no IPI.  One pCPU, Credit1, a 7 us
 * IPI.  A send from no pCPU at 0 has dom0's vCPU run once (a vCPU's
 * first wake after insert_unit gets no BOOST, as in Xen); the guest
 * starts at 1 ms, its BOOST-free run is UNDER at 15 ms when it sends.
 * dom0's vCPU wakes with BOOST, the tickle goes to the guest's (the
 * sender's) pCPU at once, dom0 runs at 15 ms + 5 us (the channel's
 * latency) and finishes its 1 us at 15.006 ms.
 */
START_TEST(evtchn_wake_tickles_from_the_senders_pcpu)
{
	static const char xml[] =
		"<scenario duration=\"30ms\"><host sockets=\"1\" cores-per-socket=\"1\""
		" ipi-latency=\"7us\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"dom0\" vcpus=\"1\"/><domain name=\"g\" vcpus=\"1\"/></scenario>";
	struct scenario sc;
	struct sim *s;
	struct evtchn ev;
	struct local_probe p = { &ev, -1, 0 };
	struct worker *w;

	s = test_build(&sc, xml, "credit1");
	s->check = true;
	w = worker_create(guest_of(s->domains[0]), "probe", TASK_IRQ, 0, true,
			  local_poll, local_done, &p);
	evtchn_init(&ev, s, w, USEC(5));
	task_create(guest_of(s->domains[1]), "sender", TASK_NORMAL, 0, true, sender_step, &p,
		    MSEC(1));
	timer_init(&send_timer, send_one, &ev);
	timer_set(&s->q, &send_timer, 0);
	sim_run_until(s, MSEC(1));
	/* From no pCPU: the IPI is paid (5 us + 7 us, then 1 us of work). */
	ck_assert_int_eq(p.done_at, USEC(13));
	sim_run_until(s, sc.duration);
	ck_assert_str_eq(s->check_error, "");
	ck_assert_uint_eq(ev.delivered, 2);
	ck_assert_int_eq(p.done_at, MSEC(15) + USEC(5) + USEC(1));
	evtchn_close(&ev);
	sim_destroy(s);
	worker_free(w);
	scenario_free(&sc);
}
END_TEST

/* A ring stand-in: 'items' wait; each poll takes them all, 10 us each. */
struct claim_probe {
	struct worker *w;
	int items;
	int batch[4];
	int nbatch;
	stime_t done_at;
	struct timer add, pause, unpause;
	int adds;
};

static stime_t claim_poll(struct sim *s, struct worker *w)
{
	struct claim_probe *p = w->ctx;
	int n = p->items;

	(void)s;
	if (!n)
		return 0;
	p->items = 0;
	p->batch[p->nbatch++] = n;
	return (stime_t)n * USEC(10);
}

static void claim_done(struct sim *s, struct worker *w)
{
	struct claim_probe *p = w->ctx;

	p->done_at = sim_now(s);
}

/* 3 items and a kick at 2 ms, 2 more and a kick at 3 ms. */
static void claim_add(struct timer *t, void *arg)
{
	struct claim_probe *p = arg;
	struct sim *s = p->w->task->g->sim;

	p->items += p->adds++ == 0 ? 3 : 2;
	worker_kick(s, p->w);
	if (p->adds == 1)
		timer_set(&s->q, t, MSEC(3));
}

/*
 * A worker claims its batch when its task runs, not when it is woken: a
 * NAPI poll or kthread takes what the ring holds when its CPU gets to it.
 * Null scheduler; the worker's vCPU is paused from 1 ms to 5 ms.  Kicked
 * at 2 ms (3 items) and 3 ms (2 more), it first runs at 5 ms and must take
 * all 5 in one batch of 50 us, done at 5.05 ms.  Claiming at the wake gave
 * a batch of 3 and then one of 2.
 */
START_TEST(worker_claims_when_it_runs_not_when_woken)
{
	static const char xml[] =
		"<scenario duration=\"10ms\"><host sockets=\"1\" cores-per-socket=\"1\""
		" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"g\" vcpus=\"1\"/></scenario>";
	struct scenario sc;
	struct sim *s;
	struct claim_probe p = { 0 };
	struct vcpu *v;

	s = test_build(&sc, xml, "null");
	s->check = true;
	v = s->domains[0]->vcpus[0];
	p.w = worker_create(guest_of(s->domains[0]), "claim", TASK_IRQ, 0, true,
			    claim_poll, claim_done, &p);
	timer_init(&p.add, claim_add, &p);
	timer_init(&p.pause, test_pause_vcpu, v);
	timer_init(&p.unpause, test_unpause_vcpu, v);
	timer_set(&s->q, &p.pause, MSEC(1));
	timer_set(&s->q, &p.add, MSEC(2));
	timer_set(&s->q, &p.unpause, MSEC(5));
	sim_run_until(s, sc.duration);
	ck_assert_str_eq(s->check_error, "");
	ck_assert_int_eq(p.nbatch, 1);
	ck_assert_int_eq(p.batch[0], 5);
	ck_assert_int_eq(p.done_at, MSEC(5) + USEC(50));
	ck_assert_uint_eq(p.w->batches, 1);
	sim_destroy(s);
	worker_free(p.w);
	scenario_free(&sc);
}
END_TEST

/* An interrupt worker that always finds work: 'cost' per batch. */
struct flood_probe {
	struct worker *w;
	stime_t cost;
	int nclaims;
	int first_normal;          /* index of the first claim made as ksoftirqd */
	stime_t first_normal_at;
	struct timer kick;
};

static stime_t flood_poll(struct sim *s, struct worker *w)
{
	struct flood_probe *p = w->ctx;

	if (p->first_normal < 0 && w->task->cls == TASK_NORMAL) {
		p->first_normal = p->nclaims;
		p->first_normal_at = sim_now(s);
	}
	p->nclaims++;
	return p->cost;
}

static void flood_done(struct sim *s, struct worker *w)
{
	(void)s;
	(void)w;
}

static void flood_kick(struct timer *t, void *arg)
{
	struct flood_probe *p = arg;

	(void)t;
	worker_kick(p->w->task->g->sim, p->w);
}

static void hog_step(struct sim *s, struct task *t)
{
	task_run(s, t, STIME_MAX);
}

/*
 * One vCPU (null scheduler, its own pCPU): a hog, and an interrupt worker
 * kicked at 1 ms that always has work.  Returns the hog's CPU time by
 * 20 ms; *p tells when the worker went on as ksoftirqd.
 */
static stime_t flood(struct flood_probe *p, stime_t time, int restarts)
{
	static const char xml[] =
		"<scenario duration=\"20ms\"><host sockets=\"1\" cores-per-socket=\"1\""
		" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"g\" vcpus=\"1\"/></scenario>";
	struct scenario sc;
	struct sim *s;
	struct task *hog;
	stime_t hog_ns;
	struct guest *g;

	s = test_build(&sc, xml, "null");
	s->check = true;
	g = guest_of(s->domains[0]);
	hog = task_create(g, "hog", TASK_NORMAL, 0, true, hog_step, NULL, 0);
	p->first_normal = -1;
	p->w = worker_create(g, "flood", TASK_IRQ, 0, true, flood_poll, flood_done, p);
	p->w->softirq_time = time;
	p->w->softirq_restarts = restarts;
	/* Its first step (at 0) claims: let that find nothing. */
	p->cost = 0;
	sim_run_until(s, USEC(500));
	p->cost = USEC(500);
	p->nclaims = 0;
	timer_init(&p->kick, flood_kick, p);
	timer_set(&s->q, &p->kick, MSEC(1));
	sim_run_until(s, sc.duration);
	ck_assert_str_eq(s->check_error, "");
	hog_ns = hog->cpu_ns;
	sim_destroy(s);
	worker_free(p->w);
	scenario_free(&sc);
	return hog_ns;
}

/*
 * Softirq work is bounded as Linux's __do_softirq bounds it.  Claims are
 * at 1 ms (when the woken worker gets the CPU), 1.5, 2 and 2.5 ms; at 3 ms
 * the run has lasted 2 ms, no longer before its end (time_before): the
 * fifth claim is made as ksoftirqd, which then shares the vCPU with the
 * hog under CFS (the hog gets its share: at least a quarter of the 20 ms).  With 10 restarts
 * and no time bound, the eleventh claim is ksoftirqd's, at 6 ms.  Without
 * a bound the hog never runs again after 1 ms.
 */
START_TEST(softirq_work_moves_to_ksoftirqd_after_its_bound)
{
	struct flood_probe p = { 0 };

	ck_assert_int_ge(flood(&p, SOFTIRQ_TIME_DEFAULT, 0), MSEC(5));
	ck_assert_int_eq(p.first_normal, 4);
	ck_assert_int_eq(p.first_normal_at, MSEC(3));
	ck_assert_int_ge(flood(&p, 0, SOFTIRQ_RESTARTS_DEFAULT), MSEC(5));
	ck_assert_int_eq(p.first_normal, 10);
	ck_assert_int_eq(p.first_normal_at, MSEC(6));
	ck_assert_int_eq(flood(&p, 0, 0), MSEC(1));
	ck_assert_int_eq(p.first_normal, -1);
	/* The defaults are Linux's. */
	ck_assert_int_eq(SOFTIRQ_TIME_DEFAULT, MSEC(2));
	ck_assert_int_eq(SOFTIRQ_RESTARTS_DEFAULT, 10);
}
END_TEST

/* A host where every vCPU has a pCPU, switches are free and every vCPU runs at
 * full speed (hw="ideal"): timings are exact. */
#define HOST "<host sockets=\"1\" cores-per-socket=\"8\" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"

static char *makexen_xml(int vcpus, const char *attrs)
{
	static char buf[2048];

	snprintf(buf, sizeof(buf),
		 "<scenario duration=\"100s\">" HOST
		 "<domain name=\"dom0\" vcpus=\"2\"/>"
		 "<domain name=\"g\" vcpus=\"%d\"><workload type=\"make-xen\" noise=\"0\" run_noise=\"0\""
		 " serial=\"const:30ms\" link=\"const:50ms\" compile=\"const:100ms\" %s/>"
		 "</domain></scenario>", vcpus, attrs);
	return buf;
}

/*
 * Two stages of 4 jobs on 4 vCPUs, no I/O: 100 ms of compiles, the 30 ms
 * serial step, 100 ms, the 50 ms link: 280 ms.  Without the barrier the
 * second stage would overlap the serial step (250 ms).
 */
START_TEST(makexen_stage_barrier_timing)
{
	double t = metric_of(makexen_xml(4, "stages=\"4,4\" reads=\"0\" writes=\"0\""), "null");

	ck_assert_msg(t > 0.2799 && t < 0.2802, "build_time %.6f s, expected 0.280", t);
}
END_TEST

/* -j2 on 4 vCPUs: two rounds per stage: 200 + 30 + 200 + 50 ms. */
START_TEST(makexen_jobs_limit_parallelism)
{
	double t = metric_of(makexen_xml(4, "stages=\"4,4\" reads=\"0\" writes=\"0\" jobs=\"2\""),
			     "null");

	ck_assert_msg(t > 0.4799 && t < 0.4802, "build_time %.6f s, expected 0.480", t);
}
END_TEST

/*
 * One 10 ms read before each compile: each of the two stages waits one
 * read (all four jobs read in parallel), 280 + 2 x 10 ms plus the driver
 * path (event channels, blkback, IRQs: tens of microseconds).
 */
START_TEST(makexen_reads_go_through_blkback)
{
	double t = metric_of(makexen_xml(4, "stages=\"4,4\" reads=\"1\" writes=\"1\""
					    " disk=\"const:10ms\" disk_mbps=\"0\""), "null");

	ck_assert_msg(t > 0.300 && t < 0.3015, "build_time %.6f s, expected 0.300..0.3015", t);
}
END_TEST

/* Zero-cost driver stages still hand their batches on (a build that hung would time out). */
START_TEST(makexen_zero_cost_drivers_complete)
{
	double t = metric_of(makexen_xml(4, "stages=\"4,4\" reads=\"1\" writes=\"1\""
					    " disk=\"const:10ms\" disk_mbps=\"0\" blkfront_cost=\"0\""
					    " blkback_cost=\"0\" blkback_irq_cost=\"0\" complete_cost=\"0\""),
			     "null");

	ck_assert_msg(t > 0.300 && t < 0.3002, "build_time %.6f s, expected 0.300", t);
}
END_TEST

/*
 * A one-slot blkif ring: the four jobs' 10 ms reads go through it one at a
 * time (the others wait in blkfront's queue), so the last job starts
 * compiling after 40 ms: 40 + 100 ms, then the 50 ms link: 190 ms.
 */
START_TEST(makexen_full_blk_ring_queues_requests)
{
	double t = metric_of(makexen_xml(4, "stages=\"4\" reads=\"1\" writes=\"0\""
					    " ring_size=\"1\" disk=\"const:10ms\" disk_mbps=\"0\""),
			     "null");

	ck_assert_msg(t > 0.190 && t < 0.1903, "build_time %.6f s, expected 0.190", t);
}
END_TEST

/* dom0-load: one task per vCPU by default; run/sleep sets its duty cycle. */
START_TEST(dom0load_tasks_and_duty_cycle)
{
	static const char xml[] =
		"<scenario duration=\"1s\">" HOST
		"<domain name=\"dom0\" vcpus=\"3\"><workload type=\"dom0-load\"/></domain>"
		"<domain name=\"g\" vcpus=\"2\"><workload type=\"dom0-load\" run=\"1ms\""
		" sleep=\"3ms\"/></domain></scenario>";
	struct scenario sc;
	struct sim *s;
	struct guest *g0, *g;

	s = test_build(&sc, xml, "null");
	sim_run_until(s, SEC(1));
	g0 = guest_of(s->domains[0]);
	g = guest_of(s->domains[1]);
	ck_assert_int_eq(g0->nr_tasks, 3);
	ck_assert_int_eq(g->nr_tasks, 2);
	/* Always runnable: each keeps its vCPU running for the whole second. */
	sim_account_all(s);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(s->domains[0]->vcpus[i]->st.runstate_ns[RUNSTATE_RUNNING], SEC(1));
	/* 1 ms of every 4 ms: 250 ms. */
	for (int i = 0; i < 2; i++)
		ck_assert_msg(llabs(g->tasks[i]->cpu_ns - MSEC(250)) <= MSEC(1),
			      "cpu %lld", (long long)g->tasks[i]->cpu_ns);
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

static char *iperf_xml(const char *attrs)
{
	static char buf[2048];

	snprintf(buf, sizeof(buf),
		 "<scenario duration=\"100s\">" HOST
		 "<domain name=\"dom0\" vcpus=\"4\"/>"
		 "<domain name=\"g\" vcpus=\"2\"><workload type=\"iperf\" noise=\"0\" run_noise=\"0\""
		 " warmup=\"10ms\" time=\"200ms\" write_cost=\"0\" tx_cost=\"100us\" gc_cost=\"0\""
		 " netback_cost=\"100us\" dealloc_cost=\"10us\" server_cost=\"100us\""
		 " ack_cost=\"10us\" evtchn_latency=\"2us\" %s/></domain>"
		 "</scenario>", attrs);
	return buf;
}

/*
 * A receive window of one segment (a 128 KiB buffer, half of it window)
 * is stop-and-wait on ACKs, sent from netfront's softirq as each ACK
 * opens the window: per 64 KiB, 10 us taking the ACK, 100 us sending,
 * 2 us event, 100 us netback, 100 us server, 10 us guest-rx, 2 us event:
 * 324 us.  (TX completions come back meanwhile and cost nothing.)
 */
START_TEST(iperf_window_of_one_segment_is_stop_and_wait)
{
	double t = metric_of(iperf_xml("tcp_rmem_max=\"131072\" ack_rx_cost=\"10us\""), "null");
	double expect = 65536.0 * 8 / 324e3;

	/* 617 cycles in the 200 ms measured: a part cycle at either end is 0.2 % */
	ck_assert_msg(t > expect * 0.997 && t < expect * 1.003,
		      "throughput %.4f Gbit/s, expected %.4f", t, expect);
}
END_TEST

/*
 * TSQ holding one segment: the next is sent when the driver frees the
 * last, which waits for netback and then its dealloc thread: 100 us
 * sending, 2 us, 100 us netback, 10 us unmap and respond, 2 us: 214 us
 * per 64 KiB, whatever the receive window (the ACKs come later and are
 * not waited for: ack_rx_cost is 0 here so they do not delay the loop).
 */
START_TEST(iperf_tsq_waits_for_tx_completion)
{
	double t = metric_of(iperf_xml("tcp_limit_output_bytes=\"1024\" ack_rx_cost=\"0\""), "null");
	double expect = 65536.0 * 8 / 214e3;

	ck_assert_msg(t > expect * 0.997 && t < expect * 1.003,
		      "throughput %.4f Gbit/s, expected %.4f", t, expect);
}
END_TEST

/* A TX ring of 20 slots holds one segment (17 slots and 3 kept free): the same loop. */
START_TEST(iperf_full_ring_throttles_like_tsq)
{
	double t = metric_of(iperf_xml("ring_slots=\"20\" ack_rx_cost=\"0\""), "null");
	double expect = 65536.0 * 8 / 214e3;

	ck_assert_msg(t > expect * 0.997 && t < expect * 1.003,
		      "throughput %.4f Gbit/s, expected %.4f", t, expect);
}
END_TEST

/*
 * With Linux's limits the stages overlap: the slowest (100 us per segment:
 * the client's copy, netback, the server) bounds the rate, well above
 * either loop.  The client and the server are pinned off the interrupts'
 * vCPUs, so placement does not stack them.
 */
START_TEST(iperf_default_limits_pipeline)
{
	static const char xml[] =
		"<scenario duration=\"100s\">" HOST
		"<domain name=\"dom0\" vcpus=\"4\"/>"
		"<domain name=\"g\" vcpus=\"2\"><workload type=\"iperf\" noise=\"0\" run_noise=\"0\""
		" warmup=\"10ms\" time=\"200ms\" write_cost=\"100us\" tx_cost=\"1us\" gc_cost=\"0\""
		" netback_cost=\"100us\" dealloc_cost=\"1us\" server_cost=\"100us\" ack_cost=\"1us\""
		" ack_rx_cost=\"1us\" client_vcpu=\"1\" server_vcpu=\"1\"/></domain></scenario>";
	double t = metric_of(xml, "null");
	double bound = 65536.0 * 8 / 100e3;

	ck_assert_msg(t < bound * 1.003 && t > 0.85 * bound, "throughput %.4f, bound %.4f", t, bound);
}
END_TEST

/*
 * The other direction, dom0 sending to the guest: dom0's client in one
 * vCPU, the guest's server pinned off netfront's.  Costs chosen apart so
 * that each stage shows in the sum.
 */
static char *iperf_rx_xml(const char *attrs)
{
	static char buf[2048];

	snprintf(buf, sizeof(buf),
		 "<scenario duration=\"100s\">" HOST
		 "<domain name=\"dom0\" vcpus=\"4\"/>"
		 "<domain name=\"g\" vcpus=\"2\"><workload type=\"iperf\" direction=\"from-dom0\""
		 " noise=\"0\" run_noise=\"0\" warmup=\"10ms\" time=\"200ms\" write_cost=\"0\""
		 " gc_cost=\"0\" grant_copy_op=\"0\" grant_copy_kib=\"1us\" evtchn_latency=\"2us\""
		 " client_vcpu=\"3\" server_vcpu=\"1\" %s/></domain>"
		 "</scenario>", attrs);
	return buf;
}

#define SLOW_RX "tx_cost=\"100us\" netfront_rx_cost=\"50us\" server_cost=\"100us\""

/*
 * A one-segment window from dom0: each ACK opens it.  Per 64 KiB: 20 us
 * netback's poll taking the guest's ACK (its copy and dom0's tcp_ack),
 * 100 us sending from that softirq, 74 us the guest-rx thread's grant copy
 * (10 us its skb, 64 KiB at 1 us a KiB), 2 us event, 50 us netfront, 100 us
 * the server, 2 us event: 348 us.
 */
START_TEST(iperf_from_dom0_window_of_one_segment_is_stop_and_wait)
{
	double t = metric_of(iperf_rx_xml(SLOW_RX " tcp_rmem_max=\"131072\" ack_cost=\"10us\""
					  " ack_rx_cost=\"10us\""), "null");
	double expect = 65536.0 * 8 / 348e3;

	ck_assert_msg(t > expect * 0.997 && t < expect * 1.003,
		      "throughput %.4f Gbit/s, expected %.4f", t, expect);
}
END_TEST

/*
 * dom0's TSQ holding one segment: the guest-rx thread frees it when its
 * copy is done (tcp_wfree), and the TSQ tasklet then sends the next on
 * that thread's CPU: 64 us copying, 100 us sending, 164 us per 64 KiB.
 */
START_TEST(iperf_from_dom0_tsq_is_released_by_the_copy)
{
	double t = metric_of(iperf_rx_xml(SLOW_RX " tcp_limit_output_bytes=\"1024\" ack_cost=\"0\""
					  " ack_rx_cost=\"0\""), "null");
	double expect = 65536.0 * 8 / 164e3;

	ck_assert_msg(t > expect * 0.99 && t < expect * 1.003,
		      "throughput %.4f Gbit/s, expected %.4f", t, expect);
}
END_TEST

/*
 * An RX ring of 20 slots holds one segment: the guest-rx thread copies it
 * and waits until netfront takes it and posts its buffers again (an event
 * back): 64 us copying, 2 us to netfront, 2 us back: 68 us per 64 KiB,
 * with the senders and the server (10 us) far faster.
 */
START_TEST(iperf_from_dom0_rx_ring_throttles_the_copy)
{
	double t = metric_of(iperf_rx_xml("ring_slots=\"20\" tx_cost=\"10us\" server_cost=\"10us\""
					  " netfront_rx_cost=\"10us\" ack_cost=\"0\" ack_rx_cost=\"0\""),
			     "null");
	double expect = 65536.0 * 8 / 68e3;

	ck_assert_msg(t > expect * 0.99 && t < expect * 1.003,
		      "throughput %.4f Gbit/s, expected %.4f", t, expect);
}
END_TEST

/* --- where the time goes --- */

/* A task that runs 1 ms and sleeps 1 ms, for ever. */
static void duty_step(struct sim *s, struct task *t)
{
	bool *ran = t->ctx;

	if (*ran)
		task_sleep(s, t, MSEC(1));
	else
		task_run(s, t, MSEC(1));
	*ran = !*ran;
}

/*
 * The categories on a 1-pCPU host with free switches and the ideal
 * machine (no C-state exits, so the phases stay 2 ms): the timed task's
 * run time is exactly the CPU it got; it waits for its guest CPU when two
 * hogs share its vCPU (it wants more than its third), for Xen when its
 * vCPU, kept busy by a hog, shares the pCPU with another domain, and the
 * parts add up to the time since the start in every case.
 */
START_TEST(task_time_categories_add_up)
{
	static const char *const xml[] = {
		"<scenario duration=\"1s\"><host sockets=\"1\" cores-per-socket=\"1\""
		" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"dom0\" vcpus=\"1\"/></scenario>",
		"<scenario duration=\"1s\"><host sockets=\"1\" cores-per-socket=\"1\""
		" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"dom0\" vcpus=\"1\"><workload type=\"cpu-hog\" tasks=\"2\"/>"
		"</domain></scenario>",
		"<scenario duration=\"1s\"><host sockets=\"1\" cores-per-socket=\"1\""
		" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"dom0\" vcpus=\"1\"><workload type=\"cpu-hog\"/></domain>"
		"<domain name=\"other\" vcpus=\"1\"><workload type=\"cpu-hog\"/></domain></scenario>",
	};
	for (int k = 0; k < 3; k++) {
		struct scenario sc;
		struct sim *s;
		struct task *t;
		stime_t ns[TT_N], sum = 0, cpu0;
		bool ran = false;

		s = test_build(&sc, xml[k], "credit1");
		t = task_create(guest_of(s->domains[0]), "duty", TASK_NORMAL, 0, false, duty_step,
				&ran, 0);
		sim_run_until(s, MSEC(100));
		task_time_start(s, t);
		cpu0 = t->cpu_ns;
		sim_run_until(s, MSEC(900));
		task_time_read(s, t, ns);
		for (int c = 0; c < TT_N; c++)
			sum += ns[c];
		ck_assert_int_eq(sum, MSEC(800));
		ck_assert_int_eq(ns[TT_RUN], t->cpu_ns - cpu0);
		ck_assert_int_gt(ns[TT_SLEEP], MSEC(100));
		if (k == 0) {
			ck_assert_int_eq(ns[TT_GUEST_WAIT], 0);
			ck_assert_int_eq(ns[TT_XEN_WAIT] + ns[TT_XEN_WAKE], 0);
		} else if (k == 1) {
			ck_assert_int_gt(ns[TT_GUEST_WAIT], MSEC(10));
			ck_assert_int_eq(ns[TT_XEN_WAIT] + ns[TT_XEN_WAKE], 0);
		} else {
			ck_assert_int_gt(ns[TT_XEN_WAIT], MSEC(10));
		}
		sim_destroy(s);
		scenario_free(&sc);
	}
}
END_TEST

/* The breakdown of a run: each stage's parts add up to its tasks x the interval. */
static void check_breakdown(const char *workload, const char *sched, int nstages)
{
	char xml[1024];
	struct run_options o = { .check = true };
	struct run_result r;
	const struct breakdown *b = &r.breakdown;

	snprintf(xml, sizeof(xml),
		 "<scenario duration=\"400ms\"><host sockets=\"2\" cores-per-socket=\"2\""
		 " threads-per-core=\"2\"/>"
		 "<domain name=\"dom0\" vcpus=\"8\"><workload type=\"dom0-load\"/></domain>"
		 "<domain name=\"g\" vcpus=\"4\">%s</domain></scenario>", workload);
	test_run(xml, sched, &o, &r);
	ck_assert_msg(r.check_error[0] == '\0', "invariant: %s", r.check_error);
	ck_assert(b->valid);
	ck_assert_int_eq(b->to_ns, r.sim_ns);
	ck_assert_int_eq(b->nstages, nstages);
	for (int i = 0; i < b->nstages; i++) {
		const struct breakdown_stage *st = &b->stages[i];

		ck_assert_msg(breakdown_stage_total(st) == st->tasks * (b->to_ns - b->from_ns),
			      "%s: stage %s adds up to %lld, not %d x %lld", sched, st->name,
			      (long long)breakdown_stage_total(st), st->tasks,
			      (long long)(b->to_ns - b->from_ns));
		for (int k = 0; k < st->nparts; k++)
			ck_assert_int_ge(st->parts[k].ns, 0);
	}
	run_result_free(&r);
}

START_TEST(breakdown_adds_up_to_the_run)
{
	static const char iperf[] = "<workload type=\"iperf\" warmup=\"100ms\" time=\"300ms\"/>";
	static const char makexen[] = "<workload type=\"make-xen\" stages=\"8,8\""
				      " compile=\"lognormal:20ms:0.8\" serial=\"const:5ms\""
				      " link=\"const:10ms\"/>";

	static const char iperf_rx[] = "<workload type=\"iperf\" direction=\"from-dom0\""
				       " warmup=\"100ms\" time=\"300ms\"/>";
	static const char iperf_remote[] = "<workload type=\"iperf\" peer=\"remote\""
					   " nic_rate=\"1G\" warmup=\"100ms\" time=\"300ms\"/>";
	static const char iperf_remote_rx[] = "<workload type=\"iperf\" peer=\"remote\""
					      " direction=\"from-dom0\" warmup=\"100ms\""
					      " time=\"300ms\"/>";
	/* netperf's UDP through dom0's NIC: the stream's stages and UDP_RR's */
	static const char udp_remote[] = "<workload type=\"netperf\" test=\"UDP_STREAM\""
					 " peer=\"remote\" size=\"1472\" nic_rate=\"1G\""
					 " warmup=\"100ms\" time=\"300ms\"/>";
	static const char udp_remote_rx[] = "<workload type=\"netperf\" test=\"UDP_STREAM\""
					    " peer=\"remote\" direction=\"from-dom0\" size=\"64\""
					    " warmup=\"100ms\" time=\"300ms\"/>";
	static const char udp_rr_remote[] = "<workload type=\"netperf\" test=\"UDP_RR\""
					    " peer=\"remote\" warmup=\"100ms\" time=\"300ms\"/>";
	static const char udp_rr_remote_rx[] = "<workload type=\"netperf\" test=\"UDP_RR\""
					       " peer=\"remote\" direction=\"from-dom0\""
					       " warmup=\"100ms\" time=\"300ms\"/>";

	check_breakdown(iperf, "credit1", IPERF_STAGES_TO_DOM0);
	check_breakdown(iperf, "credit2", IPERF_STAGES_TO_DOM0);
	check_breakdown(iperf_rx, "credit1", IPERF_STAGES_FROM_DOM0);
	check_breakdown(iperf_rx, "credit2:era=2016", IPERF_STAGES_FROM_DOM0);
	check_breakdown(iperf_remote, "credit1", IPERF_STAGES_TO_REMOTE);
	check_breakdown(iperf_remote, "credit2", IPERF_STAGES_TO_REMOTE);
	check_breakdown(iperf_remote_rx, "credit1:era=2016", IPERF_STAGES_FROM_REMOTE);
	check_breakdown(iperf_remote_rx, "credit2", IPERF_STAGES_FROM_REMOTE);
	check_breakdown(udp_remote, "credit1", 7);
	check_breakdown(udp_remote_rx, "credit2", 6);
	check_breakdown(udp_rr_remote, "credit1:era=2016", 5);
	check_breakdown(udp_rr_remote_rx, "credit2", 5);
	check_breakdown(makexen, "credit1", 3);
	check_breakdown(makexen, "credit2:era=2016", 3);
}
END_TEST

/* --- UDP on the wire (nic.h), worked out by hand --- */

/*
 * A datagram of s bytes is an IP packet of s + 8 + 20 bytes, in pieces of
 * 1480 bytes of IP payload at a 1500-byte MTU, each piece a frame of its
 * own with 20 bytes of IP header and 38 of Ethernet (header 14, FCS 4,
 * preamble 8, gap 12), the IP packet padded to 46.
 */
START_TEST(udp_datagrams_on_the_wire)
{
	ck_assert_uint_eq(nic_udp_frags(1500, 1), 1);
	ck_assert_uint_eq(nic_udp_frags(1500, 1472), 1);     /* 1480 of UDP: one frame */
	ck_assert_uint_eq(nic_udp_frags(1500, 1473), 2);
	ck_assert_uint_eq(nic_udp_frags(1500, 16384), 12);   /* 16392 = 11 x 1480 + 112 */
	ck_assert_uint_eq(nic_udp_frags(1500, 65507), 45);
	ck_assert_uint_eq(nic_udp_frags(9000, 8192), 1);
	ck_assert_uint_eq(nic_udp_frags(576, 1024), 2);      /* 556 -> 552, a multiple of 8 */
	/* 1 + 8 + 20 = 29 bytes, padded to 46, + 38 */
	ck_assert_uint_eq(nic_udp_wire_bytes(1500, 1), 84);
	ck_assert_uint_eq(nic_udp_wire_bytes(1500, 18), 84); /* exactly 46 */
	ck_assert_uint_eq(nic_udp_wire_bytes(1500, 19), 85);
	ck_assert_uint_eq(nic_udp_wire_bytes(1500, 64), 130);
	ck_assert_uint_eq(nic_udp_wire_bytes(1500, 1472), 1538);
	ck_assert_uint_eq(nic_udp_wire_bytes(1500, 1473), 1538 + 46 + 38);  /* 1 byte, padded */
	ck_assert_uint_eq(nic_udp_wire_bytes(1500, 16384), 11 * 1538 + 112 + 20 + 38);
	ck_assert_uint_eq(nic_udp_wire_bytes(9000, 8192), 8200 + 20 + 38);
	ck_assert_uint_eq(nic_udp_wire_bytes(576, 1024), 552 + 20 + 38 + 480 + 20 + 38);
}
END_TEST

/*
 * A TCP_RR message on the wire (nic.h's NIC_MSG), by hand: segments of
 * mss = mtu - 52 (IPv4 20, TCP 20, timestamps 12), each frame + 38 (the
 * headers alone fill the 46-byte minimum: no padding).
 */
START_TEST(tcp_messages_on_the_wire)
{
	ck_assert_uint_eq(nic_tcp_segs(1500, 0), 1);
	ck_assert_uint_eq(nic_tcp_segs(1500, 1), 1);
	ck_assert_uint_eq(nic_tcp_segs(1500, 1448), 1);
	ck_assert_uint_eq(nic_tcp_segs(1500, 1449), 2);
	ck_assert_uint_eq(nic_tcp_segs(9000, 8948), 1);
	ck_assert_uint_eq(nic_tcp_wire_bytes(1500, 0), 52 + 38);      /* a pure ACK's 90 */
	ck_assert_uint_eq(nic_tcp_wire_bytes(1500, 1), 1 + 52 + 38);  /* 91: UDP's is 84 */
	ck_assert_uint_eq(nic_tcp_wire_bytes(1500, 1448), 1538);
	ck_assert_uint_eq(nic_tcp_wire_bytes(1500, 1449), 1538 + 1 + 52 + 38);
	ck_assert_uint_eq(nic_tcp_wire_bytes(1500, 16384), 11 * 1538 + (16384 - 11 * 1448) + 52 + 38);
}
END_TEST

/* --- the experiment axes --- */

static const char axes_xml[] =
	"<scenario duration=\"10s\">"
	"<host sockets=\"2\" cores-per-socket=\"4\" threads-per-core=\"2\" nodes=\"2\"/>"
	"<domain name=\"dom0\" vcpus=\"16\"><workload type=\"cpu-hog\"/></domain>"
	"<domain name=\"guest\" vcpus=\"8\"><workload type=\"iperf\" tcp_rmem_max=\"131072\"/>"
	"<workload type=\"cpu-hog\"/></domain>"
	"<domain name=\"other\" vcpus=\"2\"><workload type=\"cpu-hog\"/></domain>"
	"</scenario>";

START_TEST(axes_rewrite_the_scenario)
{
	struct scenario sc;
	struct err e;

	test_load(&sc, axes_xml);
	ck_assert_int_eq(workload_axes_apply(&sc, "iperf", "on", &e), 0);
	/* The file's iperf (with its receive buffer) stays, alone in its guest. */
	ck_assert_int_eq(sc.doms[1].nworkloads, 1);
	ck_assert_str_eq(sc.doms[1].workloads[0].type, "iperf");
	ck_assert_str_eq(kvlist_get(&sc.doms[1].workloads[0].params, "tcp_rmem_max"), "131072");
	ck_assert_int_eq(sc.doms[0].nworkloads, 1);
	ck_assert_str_eq(sc.doms[0].workloads[0].type, "dom0-load");
	ck_assert_int_eq(sc.doms[2].nworkloads, 1);          /* untouched */
	ck_assert_int_eq(sc.duration, SEC(11));              /* warmup + time */
	ck_assert_int_eq(workload_axes_apply(&sc, "make-xen", "off", &e), 0);
	ck_assert_int_eq(sc.doms[1].nworkloads, 1);
	ck_assert_str_eq(sc.doms[1].workloads[0].type, "make-xen");
	ck_assert_int_eq(sc.doms[0].nworkloads, 0);
	ck_assert_int_ge(sc.duration, SEC(600));
	ck_assert_int_eq(workload_axes_apply(&sc, "sort", "off", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "--workload=sort"));
	ck_assert_int_eq(workload_axes_apply(&sc, "iperf", "maybe", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "--dom0-load=maybe"));
	scenario_free(&sc);
}
END_TEST

/* A scenario with dom0 only gets the benchmark guest (8 vCPUs). */
START_TEST(axes_add_the_guest)
{
	static const char xml[] =
		"<scenario><host sockets=\"2\" cores-per-socket=\"4\" threads-per-core=\"2\"/>"
		"<domain name=\"dom0\" vcpus=\"16\"/></scenario>";
	struct scenario sc;
	struct err e;

	test_load(&sc, xml);
	ck_assert_int_eq(workload_axes_apply(&sc, "make-xen", NULL, &e), 0);
	ck_assert_int_eq(sc.ndoms, 2);
	ck_assert_str_eq(sc.doms[1].name, AXES_GUEST_NAME);
	ck_assert_int_eq(sc.doms[1].vcpus, AXES_GUEST_VCPUS);
	ck_assert_int_eq(sc.doms[1].weight, 256);
	ck_assert_str_eq(sc.doms[1].workloads[0].type, "make-xen");
	scenario_free(&sc);
}
END_TEST

/* Bad parameters name the file and line; a benchmark needs dom0 apart from it. */
START_TEST(workload_errors_name_the_line)
{
	static const char xml[] =
		"<scenario>\n<host sockets=\"1\" cores-per-socket=\"2\"/>\n"
		"<domain name=\"dom0\" vcpus=\"1\"/>\n<domain name=\"g\" vcpus=\"2\">\n"
		"<workload type=\"iperf\" ring_slots=\"19\"/>\n</domain>\n</scenario>\n";
	static const char xml2[] =
		"<scenario>\n<host sockets=\"1\" cores-per-socket=\"2\"/>\n"
		"<domain name=\"dom0\" vcpus=\"1\">\n<workload type=\"make-xen\"/>\n</domain>\n"
		"</scenario>\n";
	static const char xml3[] =
		"<scenario>\n<host sockets=\"1\" cores-per-socket=\"2\"/>\n"
		"<domain name=\"dom0\" vcpus=\"1\"/>\n<domain name=\"g\" vcpus=\"2\">\n"
		"<workload type=\"make-xen\" stages=\"1,x\"/>\n</domain>\n</scenario>\n";
	const char *cases[][2] = {
		{ xml, "test.xml:5: iperf: ring_slots=19 cannot take a segment" },
		{ xml2, "test.xml:4: make-xen runs in a guest" },
		{ xml3, "test.xml:5: make-xen: stages=\"1,x\"" },
	};
	struct sched_spec spec;
	struct err e;

	ck_assert_int_eq(sched_spec_parse("credit2", &spec, &e), 0);
	for (int i = 0; i < 3; i++) {
		struct scenario sc;
		struct sim *s;

		test_load(&sc, cases[i][0]);
		s = sim_build(&sc, &spec, &e);
		ck_assert_ptr_null(s);
		ck_assert_msg(strstr(e.msg, cases[i][1]), "'%s' lacks '%s'", e.msg, cases[i][1]);
		scenario_free(&sc);
	}
	sched_spec_free(&spec);
}
END_TEST

/*
 * The NIC tests' host: xml built under credit2, its scenario freed at once
 * (as test_build_host does); *s is the sim, for sim_destroy.  Returns dom0.
 */
static struct guest *nic_test_dom0(const char *xml, struct sim **s)
{
	struct scenario sc;

	*s = test_build(&sc, xml, "credit2");
	scenario_free(&sc);
	return guest_of((*s)->domains[0]);
}

/*
 * dom0's NIC is the host's (nic_get): a netperf guest and an iperf guest
 * with peer=remote hold one NIC, set up by the first; another user with the
 * same parameters gets it too, one with others is refused naming the guest
 * that set it up; the last nic_put frees it and clears dom0's pointer.
 */
START_TEST(nic_is_the_hosts_and_shared_by_every_workload)
{
	static const char xml[] =
		"<scenario>\n<host sockets=\"1\" cores-per-socket=\"4\"/>\n"
		"<domain name=\"dom0\" vcpus=\"2\"/>\n"
		"<domain name=\"g1\" vcpus=\"1\"><workload type=\"netperf\" test=\"TCP_STREAM\" "
		"peer=\"remote\" nic_rate=\"1G\"/></domain>\n"
		"<domain name=\"g2\" vcpus=\"1\"><workload type=\"iperf\" peer=\"remote\" "
		"nic_rate=\"1G\"/></domain>\n</scenario>\n";
	struct err e;
	struct sim *s;
	struct guest *d0 = nic_test_dom0(xml, &s);
	struct nic *n, *again;
	struct nic_config other;
	bool first = true;

	n = d0->nic;
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(n->users, 2);
	ck_assert_str_eq(n->first, "g1");
	ck_assert_double_eq_tol(n->rate, 1e9, 1);
	/* a third user with the same NIC gets it */
	again = nic_get(d0, &n->conf, &n->u, true, 0, "test", "g3", &first, &e);
	ck_assert_ptr_eq(again, n);
	ck_assert(!first);
	ck_assert_int_eq(n->users, 3);
	nic_put(again);
	ck_assert_int_eq(n->users, 2);
	/* one asking for another MTU is refused */
	other = n->conf;
	other.mtu = 9000;
	ck_assert_ptr_null(nic_get(d0, &other, &n->u, true, 0, "test", "g3", &first, &e));
	ck_assert_msg(strstr(e.msg, "test: dom0's NIC is g1's, set up with other"), "%s", e.msg);
	ck_assert_int_eq(n->users, 2);
	sim_destroy(s);       /* each workload lets go of it; the last frees it */
}
END_TEST

static void no_frame(void *ctx, const struct nic_frame *f)
{
	(void)ctx;
	(void)f;
}

static stime_t no_cost(void *ctx, double base)
{
	(void)ctx;
	return (stime_t)base;
}

/* The first nic_get sets the NIC up on dom0; the last nic_put frees it and clears it. */
START_TEST(nic_last_put_frees_the_hosts_nic)
{
	static const char xml[] =
		"<scenario>\n<host sockets=\"1\" cores-per-socket=\"2\"/>\n"
		"<domain name=\"dom0\" vcpus=\"1\"/>\n</scenario>\n";
	const struct nic_user u = { NULL, no_frame, no_frame, no_frame, no_cost };
	struct nic_config c = { .rate = "2.5G", .mtu = 1500, .peer_latency = USEC(20) };
	struct err e;
	struct sim *s;
	struct guest *d0 = nic_test_dom0(xml, &s);
	struct nic *n, *m;
	bool first = false;

	ck_assert_ptr_null(d0->nic);
	n = nic_get(d0, &c, &u, true, 0, "a", "dom0", &first, &e);
	ck_assert_ptr_nonnull(n);
	ck_assert(first);
	ck_assert_ptr_eq(d0->nic, n);
	ck_assert_double_eq_tol(nic_goodput(n), 2.5e9 / 8 * 1448 / 1538, 1);
	m = nic_get(d0, &c, &u, false, 0, "b", "dom0", &first, &e);
	ck_assert_ptr_eq(m, n);
	ck_assert(!first);
	nic_put(m);
	ck_assert_ptr_eq(d0->nic, n);
	nic_put(n);
	ck_assert_ptr_null(d0->nic);
	sim_destroy(s);
}
END_TEST

/* --- the guest kernel's placement (guest.c; <domain kernel= llc=>) --- */

/*
 * The placement probes' scaffolding: dom0 of 4 vCPUs with dom_attrs on 4
 * pCPUs (null: each vCPU its own), ideal machine, no IPI or switch cost,
 * duration long; setup creates the probe's tasks in dom0's kernel and
 * returns the one watched.  Runs to 'until' with the invariant checker and
 * returns the vCPU the watched task is on then.
 */
static int placement_probe(const char *dom_attrs, const char *duration, stime_t until,
			   struct task *(*setup)(struct guest *g, void *probe), void *probe)
{
	char xml[512];
	struct scenario sc;
	struct sim *s;
	struct task *watched;
	int cpu;

	snprintf(xml, sizeof(xml),
		 "<scenario duration=\"%s\"><host sockets=\"1\" cores-per-socket=\"4\""
		 " ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		 "<domain name=\"dom0\" vcpus=\"4\" %s/></scenario>", duration, dom_attrs);
	s = test_build(&sc, xml, "null");
	s->check = true;
	watched = setup(guest_of(s->domains[0]), probe);
	sim_run_until(s, until);
	ck_assert_str_eq(s->check_error, "");
	cpu = watched->cpu;
	sim_destroy(s);
	scenario_free(&sc);
	return cpu;
}

/*
 * A waker bound to vCPU 0 (beside a hog there when 'hog'), a wakee that
 * ran 100 us on vCPU 2 and blocked; at 5 ms the waker wakes it (WF_SYNC
 * when 'sync') and runs on.  4 vCPUs on 4 pCPUs (null), ideal machine.
 */
struct wake_probe {
	struct task *wakee;
	bool sync, hog;
	int steps, wakee_steps;
};

static void waker_step(struct sim *s, struct task *t)
{
	struct wake_probe *p = t->ctx;

	if (p->steps++ == 1) {
		if (p->sync)
			task_wake_sync(s, p->wakee);
		else
			task_wake(s, p->wakee);
	}
	task_run(s, t, p->steps == 1 ? MSEC(5) : STIME_MAX);
}

static void wakee_step(struct sim *s, struct task *t)
{
	struct wake_probe *p = t->ctx;

	switch (p->wakee_steps++) {
	case 0:
		task_run(s, t, USEC(100));
		break;
	case 1:
		task_block(s, t);
		break;
	default:
		task_run(s, t, STIME_MAX);
		break;
	}
}

static void forever_step(struct sim *s, struct task *t)
{
	task_run(s, t, STIME_MAX);
}

static struct task *wake_setup(struct guest *g, void *probe)
{
	struct wake_probe *p = probe;

	p->wakee = task_create(g, "wakee", TASK_NORMAL, 2, false, wakee_step, p, 0);
	task_create(g, "waker", TASK_NORMAL, 0, true, waker_step, p, 0);
	if (p->hog)
		task_create(g, "hog", TASK_NORMAL, 0, true, forever_step, NULL, 0);
	return p->wakee;
}

static int wakee_cpu(const char *dom_attrs, bool sync, bool hog)
{
	struct wake_probe p = { NULL, sync, hog, 0, 0 };
	/* just after the wake: idle balancing may move it later */
	int cpu = placement_probe(dom_attrs, "20ms", MSEC(5) + USEC(1), wake_setup, &p);

	ck_assert_int_eq(p.wakee_steps, 3);
	return cpu;
}

/*
 * Linux 5.1 with each vCPU its own LLC (a 2019 HVM guest): a sync wake
 * from a waker alone on its CPU takes the wakee there (wake_affine_idle:
 * nr_running 1), and select_idle_sibling does not look at the idle prev,
 * which shares no cache with it.  One LLC over the vCPUs: the idle prev.
 * 4.4's model and a plain wake: the idle prev.
 */
START_TEST(sync_wake_of_a_lone_waker_stacks_without_a_shared_llc)
{
	ck_assert_int_eq(wakee_cpu("kernel=\"5.1\" llc=\"vcpu\"", true, false), 0);
	ck_assert_int_eq(wakee_cpu("kernel=\"5.1\" llc=\"shared\"", true, false), 2);
	ck_assert_int_eq(wakee_cpu("kernel=\"5.1\" llc=\"vcpu\"", false, false), 2);
	ck_assert_int_eq(wakee_cpu("", true, false), 2);
	ck_assert_int_eq(wakee_cpu("llc=\"vcpu\"", true, false), 2);
}
END_TEST

/*
 * The waker's CPU also runs a hog: a sync wake is no longer
 * wake_affine_idle's, and wake_affine_weight keeps the wakee on its idle
 * prev vCPU (its own LLC): this CPU's load less the waker's is a hog's.
 */
START_TEST(sync_wake_keeps_an_idle_prev_when_the_waker_is_not_alone)
{
	ck_assert_int_eq(wakee_cpu("kernel=\"5.1\" llc=\"vcpu\"", true, true), 2);
}
END_TEST

/* A task forking at 'at' (task_fork) on vCPU 0; one that ran 'busy' (if not 0) on vCPU 1 then slept. */
struct fork_probe {
	stime_t at, busy;
	int steps, other_steps;
};

static void forker_step(struct sim *s, struct task *t)
{
	struct fork_probe *p = t->ctx;

	if (p->steps++ == 0) {
		task_sleep(s, t, p->at);
		return;
	}
	if (p->steps == 2)
		task_fork(s, t);
	task_run(s, t, STIME_MAX);
}

static void once_step(struct sim *s, struct task *t)
{
	struct fork_probe *p = t->ctx;

	if (p->other_steps++ == 0)
		task_run(s, t, p->busy);
	else
		task_sleep(s, t, SEC(10));
}

static struct task *fork_setup(struct guest *g, void *probe)
{
	struct fork_probe *p = probe;
	struct task *t = task_create(g, "forker", TASK_NORMAL, 0, false, forker_step, p, 0);

	if (p->busy)
		task_create(g, "other", TASK_NORMAL, 1, false, once_step, p, 0);
	return t;
}

static int forked_cpu(const char *dom_attrs, stime_t busy)
{
	struct fork_probe p = { MSEC(60), busy, 0, 0 };
	int cpu = placement_probe(dom_attrs, "100ms", MSEC(70), fork_setup, &p);

	ck_assert_int_eq(p.steps, 2);
	return cpu;
}

/*
 * A fork on an idle machine (5.1's find_idlest_cpu): the forking CPU's
 * process has exited, every CPU's runnable load is 0, and the child goes
 * to the first CPU after the parent's whose load average is no higher by
 * the imbalance: vCPU 1; past it to vCPU 2 when vCPU 1 holds the blocked
 * load of a task that ran there 50 ms until 10 ms before.  4.4's model
 * keeps the task where it ran.
 */
START_TEST(fork_on_an_idle_machine_goes_to_the_idlest_vcpu)
{
	ck_assert_int_eq(forked_cpu("kernel=\"5.1\" llc=\"vcpu\"", 0), 1);
	ck_assert_int_eq(forked_cpu("kernel=\"5.1\" llc=\"shared\"", 0), 1);
	ck_assert_int_eq(forked_cpu("kernel=\"5.1\" llc=\"vcpu\"", MSEC(50)), 2);
	ck_assert_int_eq(forked_cpu("", 0), 0);
}
END_TEST

/* Runs 200 us, sleeps 10 us; for ever (ctx: its step count). */
static void short_bursts_step(struct sim *s, struct task *t)
{
	int *n = t->ctx;

	if ((*n)++ % 2 == 0)
		task_run(s, t, USEC(200));
	else
		task_sleep(s, t, USEC(10));
}

/*
 * Whether two tasks of short bursts, both started on vCPU 0 of four, are
 * still there together at 'at'.  Each waits on the queue only while the
 * other runs a burst, so it is always cache-hot (it ran less than 0.5 ms
 * ago), and a timer's wake keeps it on its busy vCPU when no LLC spans
 * two vCPUs.
 */
static bool still_stacked(const char *dom_attrs, stime_t at)
{
	char xml[512];
	struct scenario sc;
	struct sim *s;
	struct guest *g;
	struct task *a, *b;
	int na = 0, nb = 0;
	bool stacked;

	snprintf(xml, sizeof(xml),
		 "<scenario duration=\"1s\"><host sockets=\"1\" cores-per-socket=\"4\""
		 " ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		 "<domain name=\"dom0\" vcpus=\"4\" %s/></scenario>", dom_attrs);
	s = test_build(&sc, xml, "null");
	s->check = true;
	g = guest_of(s->domains[0]);
	a = task_create(g, "a", TASK_NORMAL, 0, false, short_bursts_step, &na, 0);
	b = task_create(g, "b", TASK_NORMAL, 0, false, short_bursts_step, &nb, 0);
	sim_run_until(s, at);
	ck_assert_str_eq(s->check_error, "");
	ck_assert_int_gt(na, 10);
	ck_assert_int_gt(nb, 10);
	stacked = a->cpu == 0 && b->cpu == 0;
	sim_destroy(s);
	scenario_free(&sc);
	return stacked;
}

/*
 * 5.1's load_balance for an idle CPU (nohz_idle_balance): a waiting task
 * that is cache-hot cannot move (can_migrate_task, task_hot) until the
 * idle CPU's balance has failed more than cache_nice_tries (1) times; a
 * failed balance keeps sd->balance_interval at min_interval (4 ms on 4
 * CPUs, one tick).  So the third balance, 8 ms after the first, moves it,
 * and the two then run apart.  4.4's model never lets a cache-hot task
 * go to an idle CPU: the pair stays stacked.
 */
START_TEST(idle_balance_lets_a_cache_hot_task_go_after_two_failures)
{
	ck_assert(still_stacked("kernel=\"5.1\" llc=\"vcpu\"", MSEC(10)));
	ck_assert(!still_stacked("kernel=\"5.1\" llc=\"vcpu\"", MSEC(30)));
	ck_assert(still_stacked("llc=\"vcpu\"", MSEC(30)));
}
END_TEST

/* A 10 us burst every 30 ms: woken half a latency back, it preempts the CPU's task. */
static void blip_step(struct sim *s, struct task *t)
{
	int *n = t->ctx;

	if ((*n)++ % 2 == 0)
		task_sleep(s, t, MSEC(30));
	else
		task_run(s, t, USEC(10));
}

/*
 * CFS's buddies (check_preempt_wakeup, pick_next_entity): one vCPU with
 * nine hogs and a task that wakes every 30 ms for 10 us.  Its wake-up
 * preempts the running hog, which becomes the last buddy (ten tasks, at
 * least sched_nr_latency), so when the short task sleeps again the CPU
 * goes back to that hog, not to the leftmost of the others, as long as
 * the hog is at most a wakeup granularity (1 ms on one CPU) ahead of it:
 * it ran at most its 0.75 ms slice.  Counts the wake-ups after which the
 * same hog runs, of 20.
 */
START_TEST(a_preempted_task_gets_its_cpu_back_as_last_buddy)
{
	static const char xml[] =
		"<scenario duration=\"1s\"><host sockets=\"1\" cores-per-socket=\"1\""
		" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		"<domain name=\"dom0\" vcpus=\"1\"/></scenario>";
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct guest *g = guest_of(s->domains[0]);
	struct task *hogs[9];
	int n = 0, same = 0;

	s->check = true;
	for (int i = 0; i < 9; i++)
		hogs[i] = task_create(g, "hog", TASK_NORMAL, 0, true, hog_step, NULL, 0);
	task_create(g, "blip", TASK_NORMAL, 0, true, blip_step, &n, 0);
	for (int k = 1; k <= 20; k++) {
		/* the k-th wake-up at 30 ms + (k - 1) x 30.01 ms, its sleep 10 us later */
		stime_t wake = MSEC(30) + (k - 1) * (MSEC(30) + USEC(10));
		struct task *before = NULL, *after = NULL;

		sim_run_until(s, wake - USEC(1));
		for (int i = 0; i < 9; i++)
			if (hogs[i]->state == TASK_RUNNING)
				before = hogs[i];
		sim_run_until(s, wake + USEC(11));
		for (int i = 0; i < 9; i++)
			if (hogs[i]->state == TASK_RUNNING)
				after = hogs[i];
		ck_assert_ptr_nonnull(before);
		same += before == after;
	}
	ck_assert_str_eq(s->check_error, "");
	ck_assert_int_ge(same, 18);
	sim_destroy(s);
	scenario_free(&sc);
}
END_TEST

/*
 * How many times a hog of dom0's (one of two vCPUs, the other idle) changes
 * vCPU in 1 s, sampled every 10 ms, when another domain's hog shares the one
 * pCPU with it (steal, half its time) or not.
 */
static int hog_moves(const char *dom_attrs, bool neighbour)
{
	char xml[512];
	struct scenario sc;
	struct sim *s;
	struct task *h;
	int moves = 0, last = 0;

	snprintf(xml, sizeof(xml),
		 "<scenario duration=\"2s\"><host sockets=\"1\" cores-per-socket=\"1\""
		 " ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		 "<domain name=\"dom0\" vcpus=\"2\" %s/>%s</scenario>", dom_attrs,
		 neighbour ? "<domain name=\"n\" vcpus=\"1\"><workload type=\"cpu-hog\"/></domain>" :
			     "");
	s = test_build(&sc, xml, "credit2");
	s->check = true;
	h = task_create(guest_of(s->domains[0]), "h", TASK_NORMAL, 0, false, hog_step, NULL, 0);
	for (stime_t at = MSEC(10); at <= SEC(1); at += MSEC(10)) {
		sim_run_until(s, at);
		moves += h->cpu != last;
		last = h->cpu;
	}
	ck_assert_str_eq(s->check_error, "");
	sim_destroy(s);
	scenario_free(&sc);
	return moves;
}

/*
 * 5.1 with steal time lowering a CPU's capacity (update_rq_clock_task's
 * update_irq_load_avg of the steal, check_cpu_capacity): the hog's vCPU,
 * which Xen runs half the time, kicks the nohz balance, but the idle
 * vCPU's balance (load_balance with CPU_IDLE, single-CPU groups) finds the
 * domain balanced (find_busiest_group: a group running one task is not
 * overloaded, and the idle group has but one idle CPU more), so the hog
 * stays; no CPU goes newly idle.  Without steal and under 4.4 it stays too.
 */
START_TEST(steal_alone_does_not_move_a_single_hog_under_51)
{
	ck_assert_int_eq(hog_moves("kernel=\"5.1\" llc=\"vcpu\"", true), 0);
	ck_assert_int_eq(hog_moves("kernel=\"5.1\" llc=\"vcpu\"", false), 0);
	ck_assert_int_eq(hog_moves("llc=\"vcpu\"", true), 0);
}
END_TEST

/*
 * The vCPU the second of two hogs started on vCPU 0 goes to, at the first
 * nohz balance (4 ms), with vCPUs 1-3 idle and no newly idle balance
 * (the hogs are queued after the idle vCPUs halted).
 */
static int second_hog_cpu(const char *dom_attrs)
{
	char xml[512];
	struct scenario sc;
	struct sim *s;
	struct task *h[2];
	int cpu;

	snprintf(xml, sizeof(xml),
		 "<scenario duration=\"1s\"><host sockets=\"1\" cores-per-socket=\"4\""
		 " ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"
		 "<domain name=\"dom0\" vcpus=\"4\" %s/></scenario>", dom_attrs);
	s = test_build(&sc, xml, "null");
	s->check = true;
	for (int i = 0; i < 2; i++)
		h[i] = task_create(guest_of(s->domains[0]), "h", TASK_NORMAL, 0, false, hog_step,
				   NULL, MSEC(1));
	sim_run_until(s, MSEC(6));
	ck_assert_str_eq(s->check_error, "");
	ck_assert(h[0]->cpu == 0 || h[1]->cpu == 0);
	cpu = h[0]->cpu == 0 ? h[1]->cpu : h[0]->cpu;
	sim_destroy(s);
	scenario_free(&sc);
	return cpu;
}

/*
 * Linux 5.1's nohz idle balance (kick_ilb -> find_new_ilb,
 * _nohz_idle_balance): the kicked CPU is the first idle one (vCPU 1), and
 * it balances the other idle CPUs in mask order before itself, so vCPU 2
 * takes the waiting hog.  4.4's model lets the lowest idle vCPU take it.
 */
START_TEST(nohz_balance_kicks_the_first_idle_cpu_which_balances_itself_last_under_51)
{
	ck_assert_int_eq(second_hog_cpu("kernel=\"5.1\" llc=\"vcpu\""), 2);
	ck_assert_int_eq(second_hog_cpu("llc=\"vcpu\""), 1);
}
END_TEST

/* --- stream (workloads/stream.c) --- */

static char *stream_xml(const char *host, const char *attrs)
{
	static char buf[2048];

	snprintf(buf, sizeof(buf),
		 "<scenario duration=\"100s\">%s"
		 "<domain name=\"dom0\" vcpus=\"4\"><workload type=\"stream\""
		 " array_size=\"1000000\" ntimes=\"4\" %s/></domain></scenario>", host, attrs);
	return buf;
}

/*
 * On the ideal machine each thread moves its bytes at thread_bandwidth:
 * 2 threads of 10 GB/s move 20 GB/s, which is 20000 MB/s counted for copy
 * (non-temporal: 16 B moved, 16 counted), 20000 x 16/24 for scale (the
 * write-allocate read of b), 20000 x 24/32 for add and triad, and 20000 x
 * 16/24 for a copy kept as a loop (copy_nt=off).
 */
START_TEST(stream_figure_counts_what_stream_c_counts)
{
	static const struct { const char *attrs; double mbps; } cases[] = {
		{ "figure=\"copy\"", 20000 },
		{ "figure=\"scale\"", 20000.0 * 16 / 24 },
		{ "figure=\"add\"", 20000.0 * 24 / 32 },
		{ "figure=\"triad\"", 20000.0 * 24 / 32 },
		{ "figure=\"copy\" copy_nt=\"off\"", 20000.0 * 16 / 24 },
		{ "figure=\"triad\" threads=\"1\"", 10000.0 * 24 / 32 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char attrs[128];
		double v;

		snprintf(attrs, sizeof(attrs), "thread_bandwidth=\"10\" %s", cases[i].attrs);
		v = metric_of(stream_xml(HOST, attrs), "null");
		ck_assert_msg(v > cases[i].mbps * 0.999 && v < cases[i].mbps * 1.001,
			      "%s: %.1f MB/s, expected %.1f", cases[i].attrs, v, cases[i].mbps);
	}
}
END_TEST

/*
 * The best time is the shortest loop after the first sweep: a thread
 * sharing its vCPU with a hog makes every loop as slow as its slowest
 * thread (the barrier), so the figure halves when one of two threads runs
 * at half its vCPU.
 */
START_TEST(stream_loop_waits_for_its_slowest_thread)
{
	double alone = metric_of(stream_xml(HOST, "thread_bandwidth=\"10\""), "null");
	double v = metric_of("<scenario duration=\"100s\">" HOST
			     "<domain name=\"dom0\" vcpus=\"2\"><workload type=\"stream\""
			     " array_size=\"1000000\" ntimes=\"4\" thread_bandwidth=\"10\"/>"
			     "<workload type=\"cpu-hog\" tasks=\"1\"/></domain></scenario>",
			     "null");

	ck_assert_msg(v < alone * 0.75, "beside a hog %.0f MB/s, alone %.0f", v, alone);
}
END_TEST

/*
 * On the hardware model the socket's memory controller is shared: two
 * threads that each stream 24 GB/s alone get the socket's 35 GB/s (and its
 * own queueing), not 48; on a controller of 1000 GB/s they get 48 (less
 * the wake-ups from the barrier, C-state exits included: 2 % of these
 * 0.33 ms loops).
 */
START_TEST(stream_threads_share_the_sockets_bandwidth)
{
	const char *narrow = "<host sockets=\"1\" cores-per-socket=\"4\" socket-memory-bandwidth=\"35\"/>";
	const char *wide = "<host sockets=\"1\" cores-per-socket=\"4\" socket-memory-bandwidth=\"1000\"/>";
	double n = metric_of(stream_xml(narrow, "thread_bandwidth=\"24\""), "null");
	double w = metric_of(stream_xml(wide, "thread_bandwidth=\"24\""), "null");
	double one = metric_of(stream_xml(narrow, "thread_bandwidth=\"24\" threads=\"1\""), "null");

	ck_assert_msg(n > 35000 && n < 35000 * 1.1, "2 threads on 35 GB/s: %.0f MB/s", n);
	ck_assert_msg(w > 48000 * 0.97 && w < 48000 * 1.001, "2 threads on 1000 GB/s: %.0f MB/s", w);
	ck_assert_msg(one > 24000 * 0.97 && one < 24000 * 1.001, "1 thread on 35 GB/s: %.0f MB/s", one);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("workloads");
	TCase *unit = tcase_create("pieces"), *sim = tcase_create("machine");

	tcase_add_test(unit, ring_first_push_notifies_then_busy_consumer_is_left_alone);
	tcase_add_test(unit, ring_sleeping_consumer_gets_one_notification_per_batch);
	tcase_add_test(unit, ring_responses_free_slots_and_notify_front);
	tcase_add_test(unit, ring_unconsumed_requests_bounded_by_ring);
	tcase_add_test(unit, ring_index_wraparound);
	tcase_add_test(unit, tcp_limits_are_linuxs);
	tcase_add_test(unit, build_barriers_and_serial_steps);
	tcase_add_test(unit, build_rejects_bad_stage_lists);
	tcase_add_test(unit, axes_rewrite_the_scenario);
	tcase_add_test(unit, axes_add_the_guest);
	tcase_add_test(unit, udp_datagrams_on_the_wire);
	tcase_add_test(unit, tcp_messages_on_the_wire);
	suite_add_tcase(s, unit);
	tcase_set_timeout(sim, 60);
	tcase_add_test(sim, evtchn_coalesces_and_delivers_after_latency);
	tcase_add_test(sim, evtchn_wake_tickles_from_the_senders_pcpu);
	tcase_add_test(sim, worker_claims_when_it_runs_not_when_woken);
	tcase_add_test(sim, softirq_work_moves_to_ksoftirqd_after_its_bound);
	tcase_add_test(sim, makexen_stage_barrier_timing);
	tcase_add_test(sim, makexen_jobs_limit_parallelism);
	tcase_add_test(sim, makexen_reads_go_through_blkback);
	tcase_add_test(sim, makexen_full_blk_ring_queues_requests);
	tcase_add_test(sim, makexen_zero_cost_drivers_complete);
	tcase_add_test(sim, dom0load_tasks_and_duty_cycle);
	tcase_add_test(sim, iperf_window_of_one_segment_is_stop_and_wait);
	tcase_add_test(sim, iperf_tsq_waits_for_tx_completion);
	tcase_add_test(sim, iperf_full_ring_throttles_like_tsq);
	tcase_add_test(sim, iperf_default_limits_pipeline);
	tcase_add_test(sim, iperf_from_dom0_window_of_one_segment_is_stop_and_wait);
	tcase_add_test(sim, iperf_from_dom0_tsq_is_released_by_the_copy);
	tcase_add_test(sim, iperf_from_dom0_rx_ring_throttles_the_copy);
	tcase_add_test(sim, task_time_categories_add_up);
	tcase_add_test(sim, breakdown_adds_up_to_the_run);
	tcase_add_test(sim, workload_errors_name_the_line);
	tcase_add_test(sim, nic_is_the_hosts_and_shared_by_every_workload);
	tcase_add_test(sim, nic_last_put_frees_the_hosts_nic);
	tcase_add_test(sim, sync_wake_of_a_lone_waker_stacks_without_a_shared_llc);
	tcase_add_test(sim, sync_wake_keeps_an_idle_prev_when_the_waker_is_not_alone);
	tcase_add_test(sim, fork_on_an_idle_machine_goes_to_the_idlest_vcpu);
	tcase_add_test(sim, idle_balance_lets_a_cache_hot_task_go_after_two_failures);
	tcase_add_test(sim, steal_alone_does_not_move_a_single_hog_under_51);
	tcase_add_test(sim, nohz_balance_kicks_the_first_idle_cpu_which_balances_itself_last_under_51);
	tcase_add_test(sim, a_preempted_task_gets_its_cpu_back_as_last_buddy);
	tcase_add_test(sim, stream_figure_counts_what_stream_c_counts);
	tcase_add_test(sim, stream_loop_waits_for_its_slowest_thread);
	tcase_add_test(sim, stream_threads_share_the_sockets_bandwidth);
	suite_add_tcase(s, sim);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
