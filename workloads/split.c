/*
 * Split-driver plumbing: shared rings with notification suppression,
 * batch workers on guest tasks, and event channels.  See split.h for the
 * model; the index arithmetic follows the contract of Xen's io/ring.h
 * (free-running unsigned indexes, event index = "consumer + 1").
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim/xalloc.h"
#include "workloads/split.h"

void ring_init(struct ring *r, unsigned size)
{
	*r = (struct ring){ .size = size, .req_event = 1, .rsp_event = 1 };
}

unsigned ring_free_requests(const struct ring *r)
{
	return r->size - (ring_idx_t)(r->req_prod_pvt - r->rsp_cons);
}

void ring_queue_requests(struct ring *r, unsigned n)
{
	r->req_prod_pvt += n;
}

/*
 * Notify only if the consumer's event index lies in (old, new]: it asked
 * to hear about one of the requests published now.  The unsigned
 * differences make that test right across index wrap-around.
 */
static bool crosses(ring_idx_t old, ring_idx_t new, ring_idx_t event)
{
	return (ring_idx_t)(new - event) < (ring_idx_t)(new - old);
}

bool ring_push_requests(struct ring *r)
{
	ring_idx_t old = r->req_prod;

	r->req_prod = r->req_prod_pvt;
	if (!crosses(old, r->req_prod, r->req_event))
		return false;
	r->notifies_req++;
	return true;
}

unsigned ring_unconsumed_responses(const struct ring *r)
{
	return (ring_idx_t)(r->rsp_prod - r->rsp_cons);
}

void ring_consume_responses(struct ring *r, unsigned n)
{
	r->rsp_cons += n;
}

bool ring_final_check_responses(struct ring *r)
{
	if (ring_unconsumed_responses(r))
		return true;
	r->rsp_event = r->rsp_cons + 1;
	return ring_unconsumed_responses(r) != 0;
}

/* Requests published, bounded by the slots not holding an unsent response. */
unsigned ring_unconsumed_requests(const struct ring *r)
{
	ring_idx_t req = r->req_prod - r->req_cons;
	ring_idx_t room = r->size - (ring_idx_t)(r->req_cons - r->rsp_prod_pvt);

	return req < room ? req : room;
}

void ring_consume_requests(struct ring *r, unsigned n)
{
	r->req_cons += n;
}

void ring_queue_responses(struct ring *r, unsigned n)
{
	r->rsp_prod_pvt += n;
}

bool ring_push_responses(struct ring *r)
{
	ring_idx_t old = r->rsp_prod;

	r->rsp_prod = r->rsp_prod_pvt;
	if (!crosses(old, r->rsp_prod, r->rsp_event))
		return false;
	r->notifies_rsp++;
	return true;
}

bool ring_final_check_requests(struct ring *r)
{
	if (ring_unconsumed_requests(r))
		return true;
	r->req_event = r->req_cons + 1;
	return ring_unconsumed_requests(r) != 0;
}

/*
 * Before an interrupt-class worker claims a batch: the first claim after
 * it was woken starts a softirq run; a run that has lasted softirq_time
 * (wall time, as Linux's jiffies: time its vCPU lost to Xen counts) or
 * softirq_restarts batches goes on in ksoftirqd, a normal task, until the
 * worker finds no work and blocks.
 */
static void softirq_bound(struct sim *s, struct worker *w)
{
	if (w->cls != TASK_IRQ || w->task->cls != TASK_IRQ)
		return;
	if (!w->in_softirq) {
		w->in_softirq = true;
		w->softirq_from = sim_now(s);
		w->passes = 0;
		return;
	}
	if ((w->softirq_restarts > 0 && w->passes >= w->softirq_restarts) ||
	    (w->softirq_time > 0 && sim_now(s) - w->softirq_from >= w->softirq_time)) {
		w->in_softirq = false;
		w->handoffs++;
		task_set_class(s, w->task, TASK_NORMAL);
	}
}

/*
 * Claims the next batch: its CPU time, or 0 when there is none.  poll()
 * returning 0 means "nothing to do", so a batch whose modelled cost is
 * zero must still claim at least a nanosecond.
 */
static stime_t worker_claim(struct sim *s, struct worker *w)
{
	stime_t cost;

	softirq_bound(s, w);
	w->continues_pass = false;
	cost = w->poll(s, w);
	if (cost <= 0)
		return 0;
	if (!w->continues_pass)
		w->passes++;
	w->busy = true;
	w->batches++;
	return cost;
}

/*
 * A woken worker's first batch: a NAPI poll or a kthread takes what the
 * ring holds when it runs, not when it is woken (its vCPU may wait for
 * Xen, or the task for the guest CPU), so the claim is made when the
 * task gets its CPU (task_run_claimed).
 */
static stime_t worker_claim_on_run(struct sim *s, struct task *t)
{
	return worker_claim(s, t->ctx);
}

/*
 * A worker's step: finish the batch that just ran, then claim the next
 * one or sleep.
 */
static void worker_step(struct sim *s, struct task *t)
{
	struct worker *w = t->ctx;
	stime_t cost;

	if (w->asleep) {
		w->asleep = false;
		task_run_claimed(s, t, worker_claim_on_run);
		return;
	}
	if (w->busy) {
		w->busy = false;
		w->done(s, w);
	}
	cost = worker_claim(s, w);
	if (cost <= 0) {
		w->asleep = true;
		w->in_softirq = false;
		if (w->task->cls != w->cls)
			task_set_class(s, t, w->cls);
		task_block(s, t);
		return;
	}
	task_run(s, t, cost);
}

struct worker *worker_create(struct guest *g, const char *name, enum task_class cls,
			     int cpu, bool bound, worker_poll_fn poll,
			     worker_done_fn done, void *ctx)
{
	struct worker *w = xcalloc(1, sizeof(*w));

	w->poll = poll;
	w->done = done;
	w->ctx = ctx;
	w->cls = cls;
	w->softirq_time = SOFTIRQ_TIME_DEFAULT;
	w->softirq_restarts = SOFTIRQ_RESTARTS_DEFAULT;
	w->task = task_create(g, name, cls, cpu, bound || cls == TASK_IRQ, worker_step, w, 0);
	return w;
}

void worker_kick(struct sim *s, struct worker *w)
{
	w->kicks++;
	if (w->task->state == TASK_BLOCKED)
		task_wake(s, w->task);
}

void worker_kick_sync(struct sim *s, struct worker *w)
{
	w->kicks++;
	if (w->task->state == TASK_BLOCKED)
		task_wake_sync(s, w->task);
}

void worker_free(struct worker *w)
{
	free(w);
}

static void evtchn_fire(struct timer *t, void *arg)
{
	struct evtchn *ev = arg;

	(void)t;
	ev->pending = true;
	ev->delivered++;
	ev->sim->this_cpu = ev->from_cpu;
	worker_kick(ev->sim, ev->target);
}

void evtchn_init(struct evtchn *ev, struct sim *s, struct worker *target,
		 stime_t latency)
{
	*ev = (struct evtchn){ .sim = s, .target = target, .latency = latency, .from_cpu = -1 };
	timer_init(&ev->timer, evtchn_fire, ev);
}

void evtchn_send(struct evtchn *ev)
{
	ev->sent++;
	if (timer_pending(&ev->timer))
		return;
	ev->from_cpu = ev->sim->this_cpu;
	timer_set(&ev->sim->q, &ev->timer, sim_now(ev->sim) + ev->latency);
}

bool evtchn_test_and_clear(struct evtchn *ev)
{
	bool p = ev->pending;

	ev->pending = false;
	return p;
}

void evtchn_close(struct evtchn *ev)
{
	if (ev->sim)
		timer_stop(&ev->sim->q, &ev->timer);
}

struct domain *split_dom0(struct sim *s)
{
	for (int i = 0; i < s->nr_domains; i++)
		if (s->domains[i]->domid == 0)
			return s->domains[i];
	return NULL;
}
