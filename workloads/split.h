/*
 * Split drivers: the pieces a front end in a guest and a back end in dom0
 * share, modelled on Xen's include/xen/interface/io/ring.h and on how
 * Linux's netfront/netback and blkfront/blkback drive them.
 *
 * struct ring: one shared ring of 'size' slots, requests produced by the
 * front end and responses by the back end, with free-running 32-bit
 * indexes and Xen's notification suppression: each consumer publishes an
 * event index ("notify me when the producer passes this index") when it is
 * about to sleep, so a busy consumer gets no notifications and a sleeping
 * one gets one per batch.  Only indexes live here; what a slot carries is
 * kept by the driver in its own arrays, indexed by (index % size).
 *
 * struct worker: a guest task that repeatedly claims a batch of work
 * (poll), burns the batch's CPU time, then makes its effects visible
 * (done), and blocks when poll finds nothing.  A woken worker claims its
 * batch when its task runs, not when it is woken.  An interrupt-class
 * worker's run of batches is bounded as Linux bounds softirq work; past
 * the bound it goes on as a normal task (ksoftirqd) under the guest's CFS.  Every stage of a split
 * driver (netback's poll, blkback's kthread, an iperf sender) is one.
 * Effects happen at the end of the CPU burst, so a stage whose vCPU is
 * descheduled by Xen holds everything behind it.
 *
 * struct evtchn: an event channel into one worker, normally a TASK_IRQ
 * worker bound to a vCPU of the receiving domain.  Sending marks it
 * pending and, after 'latency' (hypercall, upcall), kicks the worker: the
 * guest layer wakes the vCPU through the scheduler's wake path.  Sends
 * while a delivery is pending coalesce, as Xen's pending bit does.  The
 * wake runs as the sender's pCPU, as Xen's EVTCHNOP_send does inside the
 * hypercall: a tickle of that pCPU is local, without an IPI.
 */
#ifndef SCHEDSIM_SPLIT_H
#define SCHEDSIM_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/engine/sim.h"
#include "workloads/guest.h"

typedef uint32_t ring_idx_t;

struct ring {
	unsigned size;                     /* slots */
	/* the shared page */
	ring_idx_t req_prod, req_event;
	ring_idx_t rsp_prod, rsp_event;
	/* the front end's private copies */
	ring_idx_t req_prod_pvt, rsp_cons;
	/* the back end's */
	ring_idx_t rsp_prod_pvt, req_cons;
	uint64_t notifies_req, notifies_rsp;   /* notifications the pushes asked for */
};

void ring_init(struct ring *r, unsigned size);

/* Front end. */
unsigned ring_free_requests(const struct ring *r);
void ring_queue_requests(struct ring *r, unsigned n);
/* Publishes queued requests; true when the back end must be notified. */
bool ring_push_requests(struct ring *r);
unsigned ring_unconsumed_responses(const struct ring *r);
void ring_consume_responses(struct ring *r, unsigned n);
/* Before sleeping: asks for a notification, true if responses are waiting. */
bool ring_final_check_responses(struct ring *r);

/* Back end. */
unsigned ring_unconsumed_requests(const struct ring *r);
void ring_consume_requests(struct ring *r, unsigned n);
void ring_queue_responses(struct ring *r, unsigned n);
bool ring_push_responses(struct ring *r);
bool ring_final_check_requests(struct ring *r);

/*
 * Linux's bound on softirq work (kernel/softirq.c): __do_softirq hands
 * what is left to ksoftirqd after MAX_SOFTIRQ_TIME (2 ms) or
 * MAX_SOFTIRQ_RESTART (10) passes.  A worker batch (one NAPI poll, up to
 * its budget) counts as a pass.
 */
#define SOFTIRQ_TIME_DEFAULT MSEC(2)
#define SOFTIRQ_RESTARTS_DEFAULT 10

struct worker;
/* Claims work; returns its CPU time, or 0 when there is none (then block). */
typedef stime_t (*worker_poll_fn)(struct sim *s, struct worker *w);
/* The claimed work is done: publish its effects. */
typedef void (*worker_done_fn)(struct sim *s, struct worker *w);

struct worker {
	struct task *task;
	worker_poll_fn poll;
	worker_done_fn done;
	void *ctx;
	enum task_class cls;   /* its class when woken */
	bool busy;             /* a claimed batch is being run */
	bool asleep;           /* blocked: the next step is a wake-up */
	/*
	 * An interrupt-class worker runs its batches back to back as softirq
	 * for at most softirq_time or softirq_restarts batches (0: no bound)
	 * after it first claims; then its task becomes a normal one (ksoftirqd)
	 * until it finds no work.
	 */
	stime_t softirq_time;
	int softirq_restarts;
	/*
	 * Set by poll: this batch goes on with the previous one's pass (the
	 * next packet of one NAPI poll or tasklet run), so it does not count
	 * as a new pass towards softirq_restarts.
	 */
	bool continues_pass;
	bool in_softirq;       /* a softirq run is going on */
	stime_t softirq_from;
	int passes;            /* batches in this softirq run */
	uint64_t handoffs;     /* runs handed to ksoftirqd */
	uint64_t batches;
	uint64_t kicks;
};

/* A worker whose task lives in guest g, on 'cpu' (IRQ workers always bound). */
struct worker *worker_create(struct guest *g, const char *name, enum task_class cls,
			     int cpu, bool bound, worker_poll_fn poll,
			     worker_done_fn done, void *ctx);
/* There may be work: wake the worker if it sleeps. */
void worker_kick(struct sim *s, struct worker *w);
/* The same, its wake WF_SYNC (a socket's sock_def_readable or write_space: task_wake_sync). */
void worker_kick_sync(struct sim *s, struct worker *w);
void worker_free(struct worker *w);

struct evtchn {
	struct sim *sim;
	struct timer timer;
	struct worker *target;
	stime_t latency;
	bool pending;          /* delivered, not yet acknowledged by the handler */
	int from_cpu;          /* pCPU of the send being delivered (-1: none) */
	uint64_t sent, delivered;
};

void evtchn_init(struct evtchn *ev, struct sim *s, struct worker *target,
		 stime_t latency);
void evtchn_send(struct evtchn *ev);
/* The handler's side: true once per delivery. */
bool evtchn_test_and_clear(struct evtchn *ev);
void evtchn_close(struct evtchn *ev);

/* dom0 (domid 0), or NULL. */
struct domain *split_dom0(struct sim *s);

#endif
