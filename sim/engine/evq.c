/*
 * The event queue: a 4-ary heap and a sorted array.  Profiling the 1024-pCPU benchmark
 * showed the heap dominated by cache misses: every comparison dereferenced
 * a timer embedded somewhere in a vCPU, task or pCPU.  So each slot keeps
 * its (expires, seq) key in a parallel array, and sifting reads only the
 * two arrays; a timer is touched once per move, to record its new slot.
 * A pop moves the hole at the root down along the smaller children to a
 * leaf and sifts the last entry up from there ("bottom-up"), which saves
 * about half the comparisons: the last entry usually belongs near the
 * bottom anyway.
 *
 * Profiling the seed evaluation's iperf runs showed the sifts a third of
 * the run: some 45 timers pending, most of them long (each pCPU's ticker
 * and slice, sleeps) and rarely due, while the events come from a few
 * short ones (guest CPUs' steps, softirqs, event channels).  A timer armed
 * less than EVQ_NEAR_NS ahead goes into the near set, the others into the
 * far heap, and the next event is the earlier of the two minima: both are
 * exact priority queues on the same keys, so events fire in exactly the
 * order one heap gives.  The near set holds 3 to 12 timers in the seed
 * evaluation: as a heap each pop went down to a leaf and back (about 100
 * instructions); it is now an array sorted with the earliest last, a pop
 * is len-- and an insert moves the few earlier entries up a slot (-7 % of
 * the instructions of an unloaded iperf run, -10 % of a loaded one).
 *
 * A far timer being fired stays in the heap's root until its callback returns
 * (evq_fire_begin/end): most callbacks re-arm their own timer (a guest
 * CPU's next step, a scheduler's next slice), and a re-arm of the root is
 * one sift down, where a pop and an insert are a sift down and a sift up.
 * The root's key is the smallest in the queue, so every timer armed or
 * moved meanwhile stays below it.
 */
#include "sim/engine/evq.h"

#include <stdlib.h>

#include "sim/xalloc.h"

#define ARITY 4
#define EVQ_NEAR_NS 1000000   /* 1 ms: a step or a wake-up, not a tick or a slice */
/* The near set is sorted up to this many timers, a heap beyond until it empties. */
#define EVQ_SORTED_MAX 32

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

static inline void place(struct evq_heap *h, size_t i, struct timer *t, struct evq_key k)
{
	h->heap[i] = t;
	h->keys[i] = k;
	t->heap_slot = (int)i;
}

static void sift_up(struct evq_heap *h, size_t i, struct timer *t, struct evq_key k)
{
	while (i > 0) {
		size_t parent = (i - 1) / ARITY;

		if (!before(&k, &h->keys[parent]))
			break;
		place(h, i, h->heap[parent], h->keys[parent]);
		i = parent;
	}
	place(h, i, t, k);
}

/*
 * The child of i with the smallest key; i must have at least one child.
 * Written with selects rather than branches: the winner among random keys
 * is unpredictable, and mispredictions were most of a pop's cost.
 */
static inline size_t min_child(const struct evq_heap *h, size_t i)
{
	size_t first = i * ARITY + 1, best = first, c, end;
	ukey kb = key_of(&h->keys[first]);

	end = first + ARITY < h->len ? first + ARITY : h->len;
	for (c = first + 1; c < end; c++) {
		ukey kc = key_of(&h->keys[c]);
		bool less = kc < kb;

		best = less ? c : best;
		kb = less ? kc : kb;
	}
	return best;
}

static void sift_down(struct evq_heap *h, size_t i, struct timer *t, struct evq_key k)
{
	while (i * ARITY + 1 < h->len) {
		size_t best = min_child(h, i);

		if (!before(&h->keys[best], &k))
			break;
		place(h, i, h->heap[best], h->keys[best]);
		i = best;
	}
	place(h, i, t, k);
}

/* Puts t with key k at slot i of h, up or down as its key says. */
static void sift(struct evq_heap *h, size_t i, struct timer *t, struct evq_key k)
{
	if (i > 0 && before(&k, &h->keys[(i - 1) / ARITY]))
		sift_up(h, i, t, k);
	else
		sift_down(h, i, t, k);
}

/*
 * The near timers: a handful (3.5 on average in an unloaded iperf run, 9
 * with dom0 load), kept sorted with the earliest last, so that taking it
 * is len--.  An insert moves the entries due before it up by one slot; a
 * heap of that size cost a sift down to a leaf and back for every pop.
 */
static inline size_t min_slot(const struct evq_heap *h)
{
	return h->sorted ? h->len - 1 : 0;
}

/* Puts t with key k into the sorted h, whose slot len is free. */
static void sorted_insert(struct evq_heap *h, struct timer *t, struct evq_key k)
{
	size_t i = h->len++;

	/* from the earliest end, move every entry due before t one slot on */
	while (i > 0 && before(&h->keys[i - 1], &k)) {
		place(h, i, h->heap[i - 1], h->keys[i - 1]);
		i--;
	}
	place(h, i, t, k);
}

/*
 * The sorted h, grown past EVQ_SORTED_MAX (a host of hundreds of pCPUs),
 * becomes a heap: the array reversed is in ascending order, which is a
 * valid min-heap.  It is sorted again once empty.
 */
static void sorted_to_heap(struct evq_heap *h)
{
	for (size_t i = 0, j = h->len - 1; i < j; i++, j--) {
		struct timer *ti = h->heap[i], *tj = h->heap[j];
		struct evq_key ki = h->keys[i], kj = h->keys[j];

		place(h, i, tj, kj);
		place(h, j, ti, ki);
	}
	h->sorted = false;
}

/* Closes the gap at slot i of the sorted h (len already one less). */
static void sorted_close(struct evq_heap *h, size_t i)
{
	for (; i < h->len; i++)
		place(h, i, h->heap[i + 1], h->keys[i + 1]);
}

static void heap_free(struct evq_heap *h)
{
	for (size_t i = 0; i < h->len; i++)
		h->heap[i]->heap_slot = -1;
	free(h->heap);
	free(h->keys);
	h->heap = NULL;
	h->keys = NULL;
	h->len = h->cap = 0;
}

void evq_init(struct evq *q)
{
	q->near = (struct evq_heap){ NULL, NULL, 0, 0, true };
	q->far = (struct evq_heap){ NULL, NULL, 0, 0, false };
	q->len = 0;
	q->next_seq = 0;
	q->now = 0;
	q->fired = 0;
	q->root_fired = NULL;
}

void evq_free(struct evq *q)
{
	heap_free(&q->near);
	heap_free(&q->far);
	q->len = 0;
	q->root_fired = NULL;
}

void timer_init(struct timer *t, timer_fn fn, void *arg)
{
	t->expires = 0;
	t->seq = 0;
	t->heap_slot = -1;
	t->far = false;
	t->fn = fn;
	t->arg = arg;
}

static inline struct evq_heap *heap_of(struct evq *q, const struct timer *t)
{
	return t->far ? &q->far : &q->near;
}

static void remove_at(struct evq *q, struct evq_heap *h, size_t i)
{
	h->heap[i]->heap_slot = -1;
	q->len--;
	if (i == --h->len) {
		h->sorted |= h->len == 0 && h == &q->near;
		return;
	}
	if (h->sorted)
		sorted_close(h, i);
	else
		sift(h, i, h->heap[h->len], h->keys[h->len]);
}

void timer_stop(struct evq *q, struct timer *t)
{
	if (t->heap_slot >= 0)
		remove_at(q, heap_of(q, t), (size_t)t->heap_slot);
}

static void insert(struct evq *q, struct evq_heap *h, struct timer *t, struct evq_key k)
{
	if (h->len == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 64;
		h->heap = xreallocarray(h->heap, h->cap, sizeof(*h->heap));
		h->keys = xreallocarray(h->keys, h->cap, sizeof(*h->keys));
	}
	q->len++;
	if (h->sorted && h->len == EVQ_SORTED_MAX)
		sorted_to_heap(h);
	if (h->sorted)
		sorted_insert(h, t, k);
	else
		sift_up(h, h->len++, t, k);
}

/* Removes the root of h, whose timer is already marked disarmed. */
static void drop_root(struct evq *q, struct evq_heap *h)
{
	struct timer *last;
	struct evq_key k;
	size_t i = 0;

	q->len--;
	if (--h->len == 0) {
		h->sorted = h == &q->near;
		return;
	}
	if (h->sorted)
		return;
	last = h->heap[h->len];
	k = h->keys[h->len];
	/* Bottom-up: the hole goes down to a leaf, then last rises from it. */
	while (i * ARITY + 1 < h->len) {
		size_t best = min_child(h, i);

		place(h, i, h->heap[best], h->keys[best]);
		i = best;
	}
	sift_up(h, i, last, k);
}

void timer_set(struct evq *q, struct timer *t, stime_t when)
{
	struct evq_heap *h;
	struct evq_key k;
	bool far;

	if (when < q->now)
		when = q->now;
	far = when - q->now >= EVQ_NEAR_NS;
	h = far ? &q->far : &q->near;
	t->expires = when;
	t->seq = q->next_seq++;
	k.expires = when;
	k.seq = t->seq;
	if (q->root_fired && q->root_fired->heap[0] == t) {
		/* Re-armed from its own callback: it still holds its heap's root. */
		struct evq_heap *was = q->root_fired;

		q->root_fired = NULL;
		if (was == h) {
			sift_down(h, 0, t, k);
			return;
		}
		drop_root(q, was);
	} else if (t->heap_slot >= 0) {
		struct evq_heap *was = heap_of(q, t);

		if (was == h && !h->sorted) {
			/* Re-arming in place: one sift instead of a remove and an insert. */
			sift(h, (size_t)t->heap_slot, t, k);
			return;
		}
		remove_at(q, was, (size_t)t->heap_slot);
	}
	t->far = far;
	insert(q, h, t, k);
}

/* The heap whose root fires next (both non-empty or one of them). */
static struct evq_heap *next_heap(const struct evq *q)
{
	const struct evq_heap *n = &q->near, *f = &q->far;

	if (!f->len)
		return (struct evq_heap *)n;
	if (!n->len)
		return (struct evq_heap *)f;
	return (struct evq_heap *)(before(&f->keys[0], &n->keys[min_slot(n)]) ? f : n);
}

struct timer *evq_peek(const struct evq *q)
{
	const struct evq_heap *h;

	if (!q->len)
		return NULL;
	h = next_heap(q);
	return h->heap[min_slot(h)];
}

/* The earliest timer, marked as out of the queue; *hp: the heap whose root it is. */
static struct timer *take_root(struct evq *q, struct evq_heap **hp)
{
	struct timer *t;

	*hp = next_heap(q);
	t = (*hp)->heap[min_slot(*hp)];
	t->heap_slot = -1;
	return t;
}

struct timer *evq_pop(struct evq *q)
{
	struct evq_heap *h;
	struct timer *t;

	if (!q->len)
		return NULL;
	t = take_root(q, &h);
	drop_root(q, h);
	return t;
}

struct timer *evq_fire_begin(struct evq *q)
{
	struct timer *t;

	if (!q->len)
		return NULL;
	t = take_root(q, &q->root_fired);
	/* The sorted set gives its earliest up at once: a pop there is len--. */
	if (q->root_fired->sorted) {
		drop_root(q, q->root_fired);
		q->root_fired = NULL;
	}
	return t;
}

void evq_fire_end(struct evq *q)
{
	struct evq_heap *h = q->root_fired;

	if (!h)
		return;
	q->root_fired = NULL;
	drop_root(q, h);
}

uint64_t evq_run_until(struct evq *q, stime_t until)
{
	uint64_t n = 0;
	struct timer *t;

	while ((t = evq_peek(q)) && t->expires <= until) {
		evq_fire_begin(q);
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
