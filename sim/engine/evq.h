/*
 * The event queue: timers ordered by (time, sequence), the near ones in a
 * sorted array and the far ones in a 4-ary min-heap (sim/engine/evq.c), popped
 * as one queue.
 *
 * Every event in the simulator is a struct timer embedded in the object it
 * belongs to (a pCPU's schedule timer, a scheduler's accounting ticker, a
 * guest task's sleep).  Nothing is allocated per event.  A timer knows its
 * slot, so re-arming and cancelling need no search.  Two timers
 * due at the same time fire in the order they were armed, which makes runs
 * deterministic.
 */
#ifndef SCHEDSIM_EVQ_H
#define SCHEDSIM_EVQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/stime.h"

struct timer;
typedef void (*timer_fn)(struct timer *t, void *arg);

struct timer {
	stime_t expires;
	uint64_t seq;     /* arming order, breaks ties between equal times */
	int heap_slot;    /* -1 when not armed */
	bool far;         /* in the heap of the timers due later (see evq.c) */
	timer_fn fn;
	void *arg;
};

/* A heap entry's sort key, kept beside the pointer so that sifting compares
 * without touching the timers themselves (they are scattered in memory). */
struct evq_key {
	stime_t expires;
	uint64_t seq;
};

/*
 * One set of timers and, beside them, their keys: a 4-ary min-heap, or
 * (sorted) an array in descending order, the earliest last (sim/engine/evq.c).
 */
struct evq_heap {
	struct timer **heap;
	struct evq_key *keys;    /* keys[i] is heap[i]'s (expires, seq) */
	size_t len, cap;
	bool sorted;
};

struct evq {
	/*
	 * Timers due within EVQ_NEAR_NS of their arming, and the others: the
	 * busy few (a guest CPU's next step, a softirq) in a sorted array, the
	 * many long ones (tickers, slices, sleeps) in a heap.  The earliest
	 * event is the earlier of the array's last entry and the heap's root.
	 */
	struct evq_heap near, far;
	size_t len;              /* timers armed, in both */
	uint64_t next_seq;
	stime_t now;      /* time of the event being handled */
	uint64_t fired;   /* events handled so far */
	/*
	 * The timer being fired is still at the root (evq_fire_begin): its
	 * callback usually re-arms it, which is then one sift down from the
	 * root instead of a pop and an insert.
	 */
	struct evq_heap *root_fired;   /* the heap whose root it is, or NULL */
};

void evq_init(struct evq *q);
void evq_free(struct evq *q);

void timer_init(struct timer *t, timer_fn fn, void *arg);
/* Arms (or re-arms) t to fire at 'when' (clamped to now). */
void timer_set(struct evq *q, struct timer *t, stime_t when);
/* Disarms t; harmless when t is not armed. */
void timer_stop(struct evq *q, struct timer *t);
static inline bool timer_pending(const struct timer *t)
{
	return t->heap_slot >= 0;
}

/* Earliest armed timer, or NULL (not from inside a callback). */
struct timer *evq_peek(const struct evq *q);
/*
 * Takes the earliest timer to fire it: it is disarmed at once (pending no
 * more, re-armable, stopping it is harmless); a far one is left in the
 * heap's root until evq_fire_end, after its callback.  Its key is the smallest there
 * is, so nothing armed meanwhile can pass it, and the order of events is
 * exactly that of evq_pop.  Returns NULL when the queue is empty.
 */
struct timer *evq_fire_begin(struct evq *q);
/* After the callback of evq_fire_begin's timer: drops it unless it was re-armed. */
void evq_fire_end(struct evq *q);
/* Removes and returns the earliest timer without running it. */
struct timer *evq_pop(struct evq *q);
/*
 * Runs events in order until the next one is later than 'until' (or the
 * queue is empty); now is left at 'until'.  Returns the number run.
 */
uint64_t evq_run_until(struct evq *q, stime_t until);

#endif
