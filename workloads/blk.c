/*
 * blkfront/blkback over a shared ring, with a parallel disk behind dom0.
 * The stages follow Linux: blkfront pushes a request and notifies only if
 * blkback asked (ring event index); blkback's interrupt handler just wakes
 * its kthread, which maps and issues the requests; the disk's completion
 * interrupt in dom0 writes the responses and notifies blkfront, whose
 * interrupt handler completes the requests.  Every stage costs CPU on a
 * vCPU, so a descheduled dom0 vCPU delays guest I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/blk.h"

static unsigned slot_of(const struct blkdev *b, ring_idx_t i)
{
	return i % (unsigned)b->p.ring_size;
}

/* Puts one request into the ring (there is room) and notifies if asked. */
static void front_put(struct blkdev *b, const struct blk_req *r)
{
	int id = b->free_ids[--b->nfree];

	b->slots[id].req = *r;
	b->req_ids[slot_of(b, b->ring.req_prod_pvt)] = id;
	ring_queue_requests(&b->ring, 1);
	b->requests++;
	if (ring_push_requests(&b->ring))
		evtchn_send(&b->to_back);
}

void blk_submit(struct blkdev *b, bool write, uint32_t bytes, blk_done_fn done,
		void *cookie)
{
	struct blk_req r = { write, bytes, done, cookie };

	if (b->wq_len == 0 && ring_free_requests(&b->ring) > 0 && b->nfree > 0) {
		front_put(b, &r);
		return;
	}
	if (b->wq_len == b->wq_cap) {
		int ncap = b->wq_cap ? 2 * b->wq_cap : 16;
		struct blk_req *n = xcalloc(ncap, sizeof(*n));

		for (int i = 0; i < b->wq_len; i++)
			n[i] = b->waitq[(b->wq_head + i) % b->wq_cap];
		free(b->waitq);
		b->waitq = n;
		b->wq_cap = ncap;
		b->wq_head = 0;
	}
	b->waitq[(b->wq_head + b->wq_len++) % b->wq_cap] = r;
}

/* dom0's interrupt handler: one short pass that wakes the kthread. */
static stime_t back_irq_poll(struct sim *s, struct worker *w)
{
	struct blkdev *b = w->ctx;

	(void)s;
	return evtchn_test_and_clear(&b->to_back) ? b->p.back_irq_cost + 1 : 0;
}

static void back_irq_done(struct sim *s, struct worker *w)
{
	struct blkdev *b = w->ctx;

	worker_kick(s, b->kthread);
}

static stime_t kthread_poll(struct sim *s, struct worker *w)
{
	struct blkdev *b = w->ctx;
	unsigned n = ring_unconsumed_requests(&b->ring);

	(void)s;
	if (!n && !ring_final_check_requests(&b->ring))
		return 0;
	n = ring_unconsumed_requests(&b->ring);
	if (n > (unsigned)b->p.batch)
		n = b->p.batch;
	for (unsigned i = 0; i < n; i++)
		b->claimed[i] = b->req_ids[slot_of(b, b->ring.req_cons + i)];
	b->nclaimed = n;
	ring_consume_requests(&b->ring, n);
	return (stime_t)n * b->p.back_cost + 1;
}

static void disk_done(struct timer *t, void *arg)
{
	struct blk_slot *sl = arg;
	struct blkdev *b = sl->b;

	(void)t;
	b->completed[b->ncompleted++] = (int)(sl - b->slots);
	worker_kick(b->sim, b->disk_irq);
}

static void kthread_done(struct sim *s, struct worker *w)
{
	struct blkdev *b = w->ctx;

	for (int i = 0; i < b->nclaimed; i++) {
		struct blk_slot *sl = &b->slots[b->claimed[i]];
		stime_t t = dist_draw(&b->p.disk, b->rng);

		if (b->p.disk_bw > 0)
			t += (stime_t)(sl->req.bytes / b->p.disk_bw * 1e9);
		timer_set(&s->q, &sl->disk_timer, sim_now(s) + t);
	}
	b->nclaimed = 0;
}

static stime_t disk_irq_poll(struct sim *s, struct worker *w)
{
	struct blkdev *b = w->ctx;

	(void)s;
	if (!b->ncompleted)
		return 0;
	memcpy(b->finished, b->completed, b->ncompleted * sizeof(int));
	b->nfinished = b->ncompleted;
	b->ncompleted = 0;
	return (stime_t)b->nfinished * b->p.complete_cost + 1;
}

static void disk_irq_done(struct sim *s, struct worker *w)
{
	struct blkdev *b = w->ctx;

	(void)s;
	for (int i = 0; i < b->nfinished; i++) {
		b->rsp_ids[slot_of(b, b->ring.rsp_prod_pvt)] = b->finished[i];
		ring_queue_responses(&b->ring, 1);
	}
	b->nfinished = 0;
	if (ring_push_responses(&b->ring))
		evtchn_send(&b->to_front);
}

static stime_t front_irq_poll(struct sim *s, struct worker *w)
{
	struct blkdev *b = w->ctx;
	unsigned n = ring_unconsumed_responses(&b->ring);

	(void)s;
	evtchn_test_and_clear(&b->to_front);
	if (!n && !ring_final_check_responses(&b->ring))
		return 0;
	n = ring_unconsumed_responses(&b->ring);
	for (unsigned i = 0; i < n; i++)
		b->reaped[i] = b->rsp_ids[slot_of(b, b->ring.rsp_cons + i)];
	b->nreaped = n;
	ring_consume_responses(&b->ring, n);
	return (stime_t)n * b->p.front_cost + 1;
}

/* Completes the reaped requests, then refills the ring from the wait queue. */
static void front_irq_done(struct sim *s, struct worker *w)
{
	struct blkdev *b = w->ctx;
	int n = b->nreaped;

	b->nreaped = 0;
	for (int i = 0; i < n; i++) {
		int id = b->reaped[i];
		struct blk_req r = b->slots[id].req;

		b->free_ids[b->nfree++] = id;
		b->completions++;
		if (r.done)
			r.done(s, r.cookie);
	}
	while (b->wq_len && ring_free_requests(&b->ring) > 0 && b->nfree > 0) {
		struct blk_req r = b->waitq[b->wq_head];

		b->wq_head = (b->wq_head + 1) % b->wq_cap;
		b->wq_len--;
		front_put(b, &r);
	}
}

struct blkdev *blk_create(struct sim *s, struct guest *g, struct guest *d0,
			  const struct blk_params *p, struct rng *rng, const char *name)
{
	struct blkdev *b = xcalloc(1, sizeof(*b));
	int n = p->ring_size;
	char buf[32];

	b->sim = s;
	b->p = *p;
	b->rng = rng;
	ring_init(&b->ring, n);
	b->req_ids = xcalloc(n, sizeof(int));
	b->rsp_ids = xcalloc(n, sizeof(int));
	b->free_ids = xcalloc(n, sizeof(int));
	b->completed = xcalloc(n, sizeof(int));
	b->claimed = xcalloc(n, sizeof(int));
	b->finished = xcalloc(n, sizeof(int));
	b->reaped = xcalloc(n, sizeof(int));
	b->slots = xcalloc(n, sizeof(*b->slots));
	for (int i = 0; i < n; i++) {
		b->slots[i].b = b;
		timer_init(&b->slots[i].disk_timer, disk_done, &b->slots[i]);
		b->free_ids[b->nfree++] = n - 1 - i;
	}
	snprintf(buf, sizeof(buf), "blkfront-%s", name);
	b->front_irq = worker_create(g, buf, TASK_IRQ, p->guest_vcpu, true,
				     front_irq_poll, front_irq_done, b);
	snprintf(buf, sizeof(buf), "blkif-irq-%s", name);
	b->back_irq = worker_create(d0, buf, TASK_IRQ, p->dom0_vcpu, true,
				    back_irq_poll, back_irq_done, b);
	snprintf(buf, sizeof(buf), "blkback-%s", name);
	b->kthread = worker_create(d0, buf, TASK_NORMAL, p->dom0_vcpu, false,
				   kthread_poll, kthread_done, b);
	snprintf(buf, sizeof(buf), "disk-irq-%s", name);
	b->disk_irq = worker_create(d0, buf, TASK_IRQ, p->dom0_vcpu, true,
				    disk_irq_poll, disk_irq_done, b);
	evtchn_init(&b->to_back, s, b->back_irq, p->evtchn_latency);
	evtchn_init(&b->to_front, s, b->front_irq, p->evtchn_latency);
	return b;
}

void blk_free(struct blkdev *b)
{
	if (!b)
		return;
	evtchn_close(&b->to_back);
	evtchn_close(&b->to_front);
	for (int i = 0; i < b->p.ring_size; i++)
		timer_stop(&b->sim->q, &b->slots[i].disk_timer);
	worker_free(b->front_irq);
	worker_free(b->back_irq);
	worker_free(b->kthread);
	worker_free(b->disk_irq);
	free(b->req_ids);
	free(b->rsp_ids);
	free(b->free_ids);
	free(b->completed);
	free(b->claimed);
	free(b->finished);
	free(b->reaped);
	free(b->slots);
	free(b->waitq);
	free(b);
}
