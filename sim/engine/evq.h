/*
 * The event queue: timers ordered by (time, sequence), those due within
 * the next 33 ms in a ring of 4 us buckets (a calendar queue), the later
 * ones in a 4-ary min-heap (sim/engine/evq.c), popped as one queue.
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
	int heap_slot;    /* its slot in its bucket or the heap; -1 when not armed */
	bool later;       /* in the heap of the timers beyond the ring (see evq.c) */
	timer_fn fn;
	void *arg;
};

/* A heap entry's sort key, kept beside the pointer so that sifting compares
 * without touching the timers themselves (they are scattered in memory). */
struct evq_key {
	stime_t expires;
	uint64_t seq;
};

/* A 4-ary min-heap of timers and, beside them, their keys (sim/engine/evq.c). */
struct evq_heap {
	struct timer **heap;
	struct evq_key *keys;    /* keys[i] is heap[i]'s (expires, seq) */
	size_t len, cap;
};

/* A timer of a bucket with its key. */
struct evq_entry {
	struct evq_key key;
	struct timer *t;
};

/*
 * The timers of one bucket of the ring, e[head] to e[len - 1]: in the
 * order they came (head 0), or (sorted) in ascending order, the earliest
 * at head.  e has room for cap entries (a power of two from
 * EVQ_BUCKET_MIN on, or none).
 */
struct evq_bucket {
	struct evq_entry *e;
	uint32_t head, len, cap;
	bool sorted;
};

/*
 * The bucket arrays that emptied buckets gave back (evq.c), one list per
 * capacity: free[c] links arrays of EVQ_BUCKET_MIN << c entries.  The
 * smallest arrays are cut from chunks of EVQ_CHUNK_ARRAYS of them, linked
 * in 'chunks'.
 */
#define EVQ_BUCKET_MIN 4u
#define EVQ_CLASSES 30
#define EVQ_CHUNK_ARRAYS 64u
struct evq_pool {
	void *free[EVQ_CLASSES];
	void *chunks;
	size_t slots;            /* entries allocated for the ring, in buckets and here */
};

struct evq {
	/*
	 * The ring (evq.c): bucket b & ring_mask holds the timers due in
	 * [b, b + 1) << EVQ_BUCKET_SHIFT ns, for the ring_mask + 1 buckets
	 * from now's on; 'nonempty' has a bit per bucket that holds
	 * any, 'first' is the earliest such bucket.  The timers due later
	 * are in the heap.  The next event is the earlier of the first
	 * bucket's earliest timer and the heap's root.
	 */
	struct evq_bucket *ring;
	uint32_t ring_mask;      /* the ring's buckets less one (a power of two, 256 to 8192) */
	uint64_t *nonempty;
	size_t ring_len;         /* timers in the ring */
	uint64_t first;          /* the earliest bucket holding any, while ring_len > 0 */
	struct evq_pool pool;
	struct evq_heap later;
	size_t len;              /* timers armed, in both */
	uint64_t next_seq;
	stime_t now;      /* time of the event being handled */
	uint64_t fired;   /* events handled so far */
	/*
	 * The heap's root being fired is still at the root (evq_fire_next):
	 * its callback may re-arm it, which is then one sift down from the
	 * root instead of a pop and an insert.
	 */
	bool root_fired;
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
struct timer *evq_peek(struct evq *q);
/*
 * Takes the earliest timer, if it is due no later than 'until', to fire
 * it: it is disarmed at once (pending no more, re-armable, stopping it is
 * harmless); one of the heap is left in the heap's root until
 * evq_fire_end, after its callback.  Its key is the smallest there is, so
 * nothing armed meanwhile can pass it, and the order of events is exactly
 * that of evq_pop.  Returns NULL when the queue is empty or the earliest
 * is later than 'until'; q->now is then unchanged, else it is the timer's
 * time.
 */
struct timer *evq_fire_next(struct evq *q, stime_t until);
/* After the callback of evq_fire_next's timer: drops it unless it was re-armed. */
void evq_fire_end(struct evq *q);
/* Removes and returns the earliest timer without running it. */
struct timer *evq_pop(struct evq *q);
/*
 * Runs events in order until the next one is later than 'until' (or the
 * queue is empty); now is left at 'until'.  Returns the number run.
 */
uint64_t evq_run_until(struct evq *q, stime_t until);

#endif
