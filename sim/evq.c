/*
 * The event queue's 4-ary heap.  Profiling the 1024-pCPU benchmark showed
 * the heap dominated by cache misses: every comparison dereferenced a
 * timer embedded somewhere in a vCPU, task or pCPU.  So each slot keeps
 * its (expires, seq) key in a parallel array, and sifting reads only the
 * two arrays; a timer is touched once per move, to record its new slot.
 * A pop moves the hole at the root down along the smaller children to a
 * leaf and sifts the last entry up from there ("bottom-up"), which saves
 * about half the comparisons: the last entry usually belongs near the
 * bottom anyway.  A timer being fired stays in the root until its callback
 * returns (evq_fire_begin/end): most callbacks re-arm their own timer (a
 * guest CPU's next step, a scheduler's next slice), and a re-arm of the
 * root is one sift down, where a pop and an insert are a sift down and a
 * sift up.  The root's key is the smallest in the heap, so every timer
 * armed or moved meanwhile stays below it.
 */
#include "sim/evq.h"

#include <stdlib.h>

#include "sim/xalloc.h"

#define ARITY 4

typedef unsigned __int128 ukey;

/* (expires, seq) as one number: times are never negative (clamped to now). */
static inline ukey key_of(const struct evq_key *k)
{
	return (ukey)(uint64_t)k->expires << 64 | k->seq;
}

static inline bool before(const struct evq_key *a, const struct evq_key *b)
{
	return key_of(a) < key_of(b);
}

static inline void place(struct evq *q, size_t i, struct timer *t, struct evq_key k)
{
	q->heap[i] = t;
	q->keys[i] = k;
	t->heap_slot = (int)i;
}

static void sift_up(struct evq *q, size_t i, struct timer *t, struct evq_key k)
{
	while (i > 0) {
		size_t parent = (i - 1) / ARITY;

		if (!before(&k, &q->keys[parent]))
			break;
		place(q, i, q->heap[parent], q->keys[parent]);
		i = parent;
	}
	place(q, i, t, k);
}

/*
 * The child of i with the smallest key; i must have at least one child.
 * Written with selects rather than branches: the winner among random keys
 * is unpredictable, and mispredictions were most of a pop's cost.
 */
static inline size_t min_child(const struct evq *q, size_t i)
{
	size_t first = i * ARITY + 1, best = first, c, end;
	ukey kb = key_of(&q->keys[first]);

	end = first + ARITY < q->len ? first + ARITY : q->len;
	for (c = first + 1; c < end; c++) {
		ukey kc = key_of(&q->keys[c]);
		bool less = kc < kb;

		best = less ? c : best;
		kb = less ? kc : kb;
	}
	return best;
}

static void sift_down(struct evq *q, size_t i, struct timer *t, struct evq_key k)
{
	while (i * ARITY + 1 < q->len) {
		size_t best = min_child(q, i);

		if (!before(&q->keys[best], &k))
			break;
		place(q, i, q->heap[best], q->keys[best]);
		i = best;
	}
	place(q, i, t, k);
}

void evq_init(struct evq *q)
{
	q->heap = NULL;
	q->keys = NULL;
	q->len = q->cap = 0;
	q->next_seq = 0;
	q->now = 0;
	q->fired = 0;
	q->root_fired = false;
}

void evq_free(struct evq *q)
{
	size_t i;

	for (i = 0; i < q->len; i++)
		q->heap[i]->heap_slot = -1;
	free(q->heap);
	free(q->keys);
	q->heap = NULL;
	q->keys = NULL;
	q->len = q->cap = 0;
	q->root_fired = false;
}

void timer_init(struct timer *t, timer_fn fn, void *arg)
{
	t->expires = 0;
	t->seq = 0;
	t->heap_slot = -1;
	t->fn = fn;
	t->arg = arg;
}

static void remove_at(struct evq *q, size_t i)
{
	struct timer *last;
	struct evq_key k;

	q->heap[i]->heap_slot = -1;
	if (i == --q->len)
		return;
	last = q->heap[q->len];
	k = q->keys[q->len];
	if (i > 0 && before(&k, &q->keys[(i - 1) / ARITY]))
		sift_up(q, i, last, k);
	else
		sift_down(q, i, last, k);
}

void timer_stop(struct evq *q, struct timer *t)
{
	if (t->heap_slot >= 0)
		remove_at(q, (size_t)t->heap_slot);
}

static void grow(struct evq *q)
{
	q->cap = q->cap ? q->cap * 2 : 64;
	q->heap = xreallocarray(q->heap, q->cap, sizeof(*q->heap));
	q->keys = xreallocarray(q->keys, q->cap, sizeof(*q->keys));
}

void timer_set(struct evq *q, struct timer *t, stime_t when)
{
	struct evq_key k;

	if (when < q->now)
		when = q->now;
	t->expires = when;
	t->seq = q->next_seq++;
	k.expires = when;
	k.seq = t->seq;
	if (q->root_fired && q->heap[0] == t) {
		/* Re-armed from its own callback: it still holds the root. */
		q->root_fired = false;
		sift_down(q, 0, t, k);
		return;
	}
	if (t->heap_slot >= 0) {
		/* Re-arming in place: one sift instead of a remove and an insert. */
		size_t i = (size_t)t->heap_slot;

		if (i > 0 && before(&k, &q->keys[(i - 1) / ARITY]))
			sift_up(q, i, t, k);
		else
			sift_down(q, i, t, k);
		return;
	}
	if (q->len == q->cap)
		grow(q);
	sift_up(q, q->len++, t, k);
}

/* Removes the root, whose timer is already marked disarmed. */
static void drop_root(struct evq *q)
{
	struct timer *last;
	struct evq_key k;
	size_t i = 0;

	if (--q->len == 0)
		return;
	last = q->heap[q->len];
	k = q->keys[q->len];
	/* Bottom-up: the hole goes down to a leaf, then last rises from it. */
	while (i * ARITY + 1 < q->len) {
		size_t best = min_child(q, i);

		place(q, i, q->heap[best], q->keys[best]);
		i = best;
	}
	sift_up(q, i, last, k);
}

struct timer *evq_pop(struct evq *q)
{
	struct timer *t;

	if (!q->len)
		return NULL;
	t = q->heap[0];
	t->heap_slot = -1;
	drop_root(q);
	return t;
}

struct timer *evq_fire_begin(struct evq *q)
{
	struct timer *t;

	if (!q->len)
		return NULL;
	t = q->heap[0];
	t->heap_slot = -1;
	q->root_fired = true;
	return t;
}

void evq_fire_end(struct evq *q)
{
	if (!q->root_fired)
		return;
	q->root_fired = false;
	drop_root(q);
}

uint64_t evq_run_until(struct evq *q, stime_t until)
{
	uint64_t n = 0;

	while (q->len && q->keys[0].expires <= until) {
		struct timer *t = evq_fire_begin(q);

		q->now = t->expires;
		q->fired++;
		n++;
		t->fn(t, t->arg);
		evq_fire_end(q);
	}
	if (q->now < until)
		q->now = until;
	return n;
}
