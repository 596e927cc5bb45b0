/*
 * The event queue: a calendar queue (a ring of buckets by time) for the
 * timers due soon and a 4-ary heap for the others.
 *
 * Why not one heap.  Profiling the seed evaluation's iperf runs found some
 * 45 timers pending, most of them long (each pCPU's ticker and slice,
 * sleeps) and rarely due, while the events come from a few short ones
 * (guest CPUs' steps, softirqs, event channels); the 1024-pCPU benchmark
 * keeps about 400 timers due within the next millisecond and 8 000 later
 * ones, and a pop from heaps of that size was a fifth of its instructions
 * (about 410 each, six levels of four children).  A calendar queue
 * (R. Brown, "Calendar queues", CACM 31(10), 1988) puts each timer in the
 * bucket of its time, EVQ_BUCKET_NS wide: arming one is an append to its
 * bucket, and only the earliest bucket is ever sorted, when it becomes the
 * earliest, so that taking its next timer is head++.  With a few timers per
 * bucket that costs a handful of comparisons per timer at any host size.
 *
 * The ring holds up to EVQ_RING_MAX buckets, about 33 ms: every tick,
 * slice and step of the models falls inside; a timer due later (a long
 * sleep, a credit1 accounting period) waits in the heap.  Both are exact
 * priority queues on the same (time, arming order) keys and the next event
 * is the earlier of the two minima, so events fire in exactly the order of
 * one heap, whatever the ring's length.  It starts at EVQ_RING_MIN buckets
 * (1 ms) and doubles while the heap holds more than a quarter as many
 * timers as it has buckets.  A small host keeps some 45 timers, one per
 * bucket: in a ring of 8192 each arm and pop touched a line of a 200 KB
 * header array and one of the buckets' arrays, which the cache had lost
 * since the ring's last turn (three fifths of timer_set's CPU samples in
 * the default evaluation's iperf runs); a host of 1024 pCPUs, 8 000 timers,
 * grows the ring to its full length at once.  Bucket b & ring_mask holds
 * the timers due in bucket b;
 * since no timer is due before now, the buckets from now's on hold times
 * of at most one turn of the ring, and a slot is reused only when time
 * has passed all of its timers.  A bitmap of the buckets that hold any
 * finds the next one in a few word scans.
 *
 * A bucket's array has room for a power of two of entries and doubles when
 * full.  A bucket can hold many timers for a while (timers due at the
 * same instant: at 128 pCPUs credit1's ticks and accounting put 147 in one
 * bucket), and since such instants move across the ring, each bucket would
 * in time keep the largest array it ever needed: at 128 pCPUs that was
 * 8.7 MB after 10 simulated seconds, and growing.  So an emptied bucket gives an array larger than the smallest
 * back to a pool, one free list per size, from which growing buckets take
 * theirs: the arrays allocated are the most that were in use at once, not
 * the sum of each bucket's past.
 *
 * The heap keeps each slot's (expires, seq) key in an array beside the
 * pointers, and sifting reads only the two arrays; a timer is touched once
 * per move, to record its new slot.  A pop moves the hole at the root down
 * along the smaller children to a leaf and sifts the last entry up from
 * there ("bottom-up"), which saves about half the comparisons.  Its root
 * being fired stays in the root until its callback returns
 * (evq_fire_next/evq_fire_end): a callback that re-arms its own timer
 * later than the ring then costs one sift down instead of a pop and an
 * insert.
 */
#include "sim/engine/evq.h"

#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

#define ARITY 4
/*
 * 2^12 ns (4.1 us) per bucket; the ring starts with 256 buckets (1.05 ms
 * ahead) and doubles up to 8192 (33.6 ms) while the heap holds more than
 * a quarter as many timers as the ring has buckets (ring_grow).
 */
#define EVQ_BUCKET_SHIFT 12
#define EVQ_RING_MIN 256u
#define EVQ_RING_MAX 8192u

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

static inline uint64_t bucket_of(stime_t t)
{
	return (uint64_t)t >> EVQ_BUCKET_SHIFT;
}

/* ------------------------------------------------------------- the heap */

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

static void heap_insert(struct evq_heap *h, struct timer *t, struct evq_key k)
{
	if (h->len == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 64;
		h->heap = xreallocarray(h->heap, h->cap, sizeof(*h->heap));
		h->keys = xreallocarray(h->keys, h->cap, sizeof(*h->keys));
	}
	sift_up(h, h->len++, t, k);
}

static void heap_remove_at(struct evq_heap *h, size_t i)
{
	h->heap[i]->heap_slot = -1;
	if (i != --h->len)
		sift(h, i, h->heap[h->len], h->keys[h->len]);
}

/* Removes the root of h, whose timer is already marked disarmed. */
static void heap_drop_root(struct evq_heap *h)
{
	struct timer *last;
	struct evq_key k;
	size_t i = 0;

	if (--h->len == 0)
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

/* ------------------------------------------------------------- the ring */

static inline void entry_put(struct evq_bucket *b, uint32_t i, struct evq_entry e)
{
	b->e[i] = e;
	e.t->heap_slot = (int)i;
}

/* Sorts e[0..n) in ascending order of keys, by insertion. */
static void entries_insertion_sort(struct evq_entry *e, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		struct evq_entry x = e[i];
		uint32_t j = i;

		while (j > 0 && before(&x.key, &e[j - 1].key)) {
			e[j] = e[j - 1];
			j--;
		}
		e[j] = x;
	}
}

static inline void entries_swap(struct evq_entry *a, struct evq_entry *b)
{
	struct evq_entry x = *a;

	*a = *b;
	*b = x;
}

/*
 * Sorts e[0..n) in ascending order of keys: quicksort on the median of
 * three (the keys are distinct: every timer has its own seq), insertion
 * below 16, the smaller side first so that the depth stays logarithmic.
 */
static void entries_sort(struct evq_entry *e, uint32_t n)
{
	while (n > 16) {
		uint32_t mid = n / 2, i = 0, j = n - 1;
		struct evq_key pivot;

		if (before(&e[mid].key, &e[0].key))
			entries_swap(&e[mid], &e[0]);
		if (before(&e[n - 1].key, &e[0].key))
			entries_swap(&e[n - 1], &e[0]);
		if (before(&e[n - 1].key, &e[mid].key))
			entries_swap(&e[n - 1], &e[mid]);
		pivot = e[mid].key;
		/* Hoare's partition: e[0..j] before or at pivot, e[j+1..n) after */
		for (;;) {
			while (before(&e[i].key, &pivot))
				i++;
			while (before(&pivot, &e[j].key))
				j--;
			if (i >= j)
				break;
			entries_swap(&e[i], &e[j]);
			i++;
			j--;
		}
		if (j + 1 < n - j - 1) {
			entries_sort(e, j + 1);
			e += j + 1;
			n -= j + 1;
		} else {
			entries_sort(e + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	entries_insertion_sort(e, n);
}

/*
 * Sorts b (head 0) in ascending order of keys.  Not inlined: in earliest()
 * it took the registers that every pop then saved and restored, sort or no
 * sort.
 */
static __attribute__((noinline)) void bucket_sort(struct evq_bucket *b)
{
	entries_sort(b->e, b->len);
	for (uint32_t i = 0; i < b->len; i++)
		b->e[i].t->heap_slot = (int)i;
	b->sorted = true;
}

/* The earliest bucket from 'from' on that holds any (the ring holds some). */
static uint64_t next_nonempty(const struct evq *q, uint64_t from)
{
	unsigned slot = (unsigned)(from & q->ring_mask), w = slot / 64;
	unsigned words_mask = q->ring_mask / 64;        /* the ring's words less one */
	uint64_t bits = q->nonempty[w] & (~0ULL << (slot % 64));

	while (!bits) {
		w = (w + 1) & words_mask;
		bits = q->nonempty[w];
	}
	return from + ((w * 64 + (unsigned)__builtin_ctzll(bits) - slot) & q->ring_mask);
}

/* ------------------------------------------------------- bucket arrays */

/* A free array of the pool: its first bytes link it to the next of its size. */
struct evq_free_array {
	struct evq_free_array *next;
};

/* The pool's list of arrays of EVQ_BUCKET_MIN << c entries. */
static inline unsigned class_of(uint32_t cap)
{
	return (unsigned)__builtin_ctz(cap / EVQ_BUCKET_MIN);
}

static inline void pool_put(struct evq_pool *p, struct evq_entry *e, unsigned c)
{
	struct evq_free_array *a = (struct evq_free_array *)(void *)e;

	a->next = p->free[c];
	p->free[c] = a;
}

/*
 * EVQ_CHUNK_ARRAYS arrays of the smallest size in one allocation, freed
 * together by evq_free.  Nearly every bucket of the ring takes one when
 * first used and keeps it: one allocation each cost a tenth of a short
 * run's time under AddressSanitizer (the random differential runs, whose
 * scenarios each build two queues).
 */
struct evq_chunk {
	struct evq_chunk *next;
	struct evq_entry e[];
};

static void pool_add_chunk(struct evq_pool *p)
{
	struct evq_chunk *k = xmalloc(sizeof(*k) + EVQ_CHUNK_ARRAYS * EVQ_BUCKET_MIN * sizeof(k->e[0]));

	k->next = p->chunks;
	p->chunks = k;
	p->slots += EVQ_CHUNK_ARRAYS * EVQ_BUCKET_MIN;
	for (unsigned i = EVQ_CHUNK_ARRAYS; i-- > 0;)
		pool_put(p, &k->e[i * EVQ_BUCKET_MIN], 0);
}

/* An array of EVQ_BUCKET_MIN << c entries: a free one, else a new one. */
static struct evq_entry *pool_get(struct evq_pool *p, unsigned c)
{
	struct evq_free_array *a;

	if (!p->free[c]) {
		if (c > 0) {
			p->slots += EVQ_BUCKET_MIN << c;
			return xreallocarray(NULL, EVQ_BUCKET_MIN << c, sizeof(struct evq_entry));
		}
		pool_add_chunk(p);
	}
	a = p->free[c];
	p->free[c] = a->next;
	return (struct evq_entry *)(void *)a;
}

/*
 * Room for one more entry at b's end.  The entries taken from the head
 * leave their room, used when there is at least as much of it as entries
 * to move: a bucket being drained at its head while timers are armed into
 * it (the earliest bucket of a dense run, mutilate's) moved every live
 * entry at every arm when one slot had been freed; otherwise the array
 * doubles, so that each entry is moved a bounded number of times.
 */
static void bucket_grow(struct evq_pool *p, struct evq_bucket *b)
{
	struct evq_entry *e;
	unsigned c;

	if (b->head > 0 && b->head >= b->len - b->head) {
		for (uint32_t i = b->head; i < b->len; i++)
			entry_put(b, i - b->head, b->e[i]);
		b->len -= b->head;
		b->head = 0;
		return;
	}
	if (!b->cap) {
		b->e = pool_get(p, 0);
		b->cap = EVQ_BUCKET_MIN;
		return;
	}
	/* twice the room: the entries keep their slots */
	c = class_of(b->cap);
	if (c + 1 >= EVQ_CLASSES)
		abort();        /* 2^31 timers in one bucket: more than memory holds */
	e = pool_get(p, c + 1);
	memcpy(e, b->e, b->len * sizeof(*e));
	pool_put(p, b->e, c);
	b->e = e;
	b->cap *= 2;
}

/* One more entry in bucket bn (at slot): the ring's count, its bit, its first bucket. */
static inline __attribute__((always_inline)) void ring_filled(struct evq *q, uint64_t bn,
							      unsigned slot)
{
	q->nonempty[slot / 64] |= 1ULL << (slot % 64);
	if (q->ring_len++ == 0 || bn < q->first)
		q->first = bn;
}

static void ring_insert(struct evq *q, uint64_t bn, struct timer *t, struct evq_key k)
{
	unsigned slot = (unsigned)(bn & q->ring_mask);
	struct evq_bucket *b;
	struct evq_entry e = { k, t };
	uint32_t i;

	if (!q->ring) {
		q->ring = xcalloc((size_t)q->ring_mask + 1, sizeof(*q->ring));
		q->nonempty = xcalloc(((size_t)q->ring_mask + 1) / 64, sizeof(*q->nonempty));
	}
	b = &q->ring[slot];
	if (b->len == b->cap)
		bucket_grow(&q->pool, b);
	i = b->len++;
	if (b->sorted) {
		/*
		 * From the latest end, move every entry due after t one slot
		 * on: a timer armed for now, after all those due now, moves
		 * none or few.
		 */
		while (i > b->head && before(&k, &b->e[i - 1].key)) {
			entry_put(b, i, b->e[i - 1]);
			i--;
		}
	}
	entry_put(b, i, e);
	ring_filled(q, bn, slot);
}

/*
 * Bucket bn (at slot) was left empty.  An array larger than the smallest
 * goes back to the pool, so that the ring's memory follows the timers
 * pending, not the most that each bucket ever held.
 */
static inline __attribute__((always_inline)) void ring_emptied(struct evq *q, struct evq_bucket *b,
								uint64_t bn, unsigned slot)
{
	if (b->cap > EVQ_BUCKET_MIN) {
		pool_put(&q->pool, b->e, class_of(b->cap));
		b->e = NULL;
		b->cap = 0;
	}
	b->head = b->len = 0;
	b->sorted = false;
	q->nonempty[slot / 64] &= ~(1ULL << (slot % 64));
	if (q->ring_len && bn == q->first)
		q->first = next_nonempty(q, bn + 1);
}

static void ring_remove(struct evq *q, struct timer *t)
{
	uint64_t bn = bucket_of(t->expires);
	unsigned slot = (unsigned)(bn & q->ring_mask);
	struct evq_bucket *b = &q->ring[slot];
	uint32_t i = (uint32_t)t->heap_slot;

	t->heap_slot = -1;
	q->ring_len--;
	if (b->len - b->head == 1) {
		ring_emptied(q, b, bn, slot);
		return;
	}
	if (!b->sorted) {
		if (i != --b->len)
			entry_put(b, i, b->e[b->len]);
	} else if (i - b->head < b->len - 1 - i) {
		/* the earlier ones close the gap, or the later ones: the fewer */
		for (; i > b->head; i--)
			entry_put(b, i, b->e[i - 1]);
		b->head++;
	} else {
		for (b->len--; i < b->len; i++)
			entry_put(b, i, b->e[i + 1]);
	}
}

/*
 * Armed t of bucket bn gets key k of the same bucket: its entry takes the
 * new key where it is, and a sorted bucket's entry moves to its new place
 * among the others (a re-armed timer's seq is the newest, so it moves at
 * most past the entries due between its old and its new time).  The same
 * order as ring_remove and ring_insert, without emptying and refilling
 * the bucket.
 */
static void ring_rekey(struct evq *q, uint64_t bn, struct timer *t, struct evq_key k)
{
	struct evq_bucket *b = &q->ring[bn & q->ring_mask];
	uint32_t i = (uint32_t)t->heap_slot;

	if (b->sorted) {
		while (i > b->head && before(&k, &b->e[i - 1].key)) {
			entry_put(b, i, b->e[i - 1]);
			i--;
		}
		while (i + 1 < b->len && before(&b->e[i + 1].key, &k)) {
			entry_put(b, i, b->e[i + 1]);
			i++;
		}
	}
	entry_put(b, i, (struct evq_entry){ k, t });
}

/* The first bucket, sorted: its earliest timer is its head entry. */
static struct evq_bucket *first_bucket(struct evq *q)
{
	struct evq_bucket *b = &q->ring[q->first & q->ring_mask];

	/* one timer (most buckets of a small host) is sorted as it is */
	if (!b->sorted) {
		if (b->len > 1)
			bucket_sort(b);
		b->sorted = true;
	}
	return b;
}

/* Takes the earliest timer of the ring, the head of its first bucket b. */
static struct timer *ring_take(struct evq *q, struct evq_bucket *b)
{
	struct timer *t = b->e[b->head++].t;
	uint64_t bn = q->first;

	t->heap_slot = -1;
	q->ring_len--;
	if (b->head == b->len)
		ring_emptied(q, b, bn, (unsigned)(bn & q->ring_mask));
	return t;
}

/* --------------------------------------------------------------- queue */

/*
 * The ring twice as large (q->ring NULL: only its size): every bucket
 * holds the timers of one bucket number bn, which the larger ring holds
 * at slot bn & its mask, with its entries as they are (their slots and
 * order, sorted or not).  The timers of the heap stay there: both are
 * exact, so any timer may be in either.
 */
static void ring_grow(struct evq *q)
{
	struct evq_bucket *old = q->ring;
	size_t n = (size_t)q->ring_mask + 1;

	q->ring_mask = (uint32_t)(2 * n - 1);
	if (!old)
		return;
	free(q->nonempty);
	q->ring = xcalloc(2 * n, sizeof(*q->ring));
	q->nonempty = xcalloc(2 * n / 64, sizeof(*q->nonempty));
	for (size_t i = 0; i < n; i++) {
		struct evq_bucket *b = &old[i];
		unsigned slot;

		if (b->len == b->head) {
			/* an idle bucket's array goes back to the pool */
			if (b->cap)
				pool_put(&q->pool, b->e, class_of(b->cap));
			continue;
		}
		slot = (unsigned)(bucket_of(b->e[b->head].key.expires) & q->ring_mask);
		q->ring[slot] = *b;
		q->nonempty[slot / 64] |= 1ULL << (slot % 64);
	}
	free(old);
}

/* Nothing is allocated until the first timer is armed (ring_insert). */
void evq_init(struct evq *q)
{
	memset(q, 0, sizeof(*q));
	q->ring_mask = EVQ_RING_MIN - 1;
}

void evq_free(struct evq *q)
{
	if (q->ring) {
		for (size_t i = 0; i <= q->ring_mask; i++) {
			for (uint32_t j = q->ring[i].head; j < q->ring[i].len; j++)
				q->ring[i].e[j].t->heap_slot = -1;
			if (q->ring[i].cap > EVQ_BUCKET_MIN)
				free(q->ring[i].e);
		}
	}
	/* the smallest arrays are in the chunks */
	for (unsigned c = 1; c < EVQ_CLASSES; c++) {
		while (q->pool.free[c]) {
			struct evq_free_array *a = q->pool.free[c];

			q->pool.free[c] = a->next;
			free(a);
		}
	}
	while (q->pool.chunks) {
		struct evq_chunk *k = q->pool.chunks;

		q->pool.chunks = k->next;
		free(k);
	}
	for (size_t i = 0; i < q->later.len; i++)
		q->later.heap[i]->heap_slot = -1;
	free(q->later.heap);
	free(q->later.keys);
	free(q->ring);
	free(q->nonempty);
	evq_init(q);
}

void timer_init(struct timer *t, timer_fn fn, void *arg)
{
	t->expires = 0;
	t->seq = 0;
	t->heap_slot = -1;
	t->later = false;
	t->fn = fn;
	t->arg = arg;
}

/* Takes armed t out of where it is. */
static void unlink_timer(struct evq *q, struct timer *t)
{
	q->len--;
	if (t->later)
		heap_remove_at(&q->later, (size_t)t->heap_slot);
	else
		ring_remove(q, t);
}

void timer_stop(struct evq *q, struct timer *t)
{
	if (t->heap_slot >= 0)
		unlink_timer(q, t);
}

/* timer_set's every case: re-arms, the heap, a bucket to grow or sorted. */
static __attribute__((noinline)) void timer_set_any(struct evq *q, struct timer *t, stime_t when)
{
	struct evq_key k;
	uint64_t bn;
	bool later;

	if (when < q->now)
		when = q->now;
	bn = bucket_of(when);
	later = bn - bucket_of(q->now) > q->ring_mask;
	while (later && q->ring_mask + 1 < EVQ_RING_MAX && q->later.len >= (q->ring_mask + 1) / 4) {
		/* the heap fills: a longer ring takes more of its timers */
		ring_grow(q);
		later = bn - bucket_of(q->now) > q->ring_mask;
	}
	k.expires = when;
	k.seq = q->next_seq++;
	if (q->root_fired && q->later.heap[0] == t) {
		/* Re-armed from its own callback: it still holds the heap's root. */
		q->root_fired = false;
		if (later) {
			t->expires = when;
			t->seq = k.seq;
			q->len++;
			sift_down(&q->later, 0, t, k);
			return;
		}
		heap_drop_root(&q->later);
	} else if (t->heap_slot >= 0) {
		if (t->later && later) {
			/* Re-arming in place: one sift instead of a remove and an insert. */
			t->expires = when;
			t->seq = k.seq;
			sift(&q->later, (size_t)t->heap_slot, t, k);
			return;
		}
		if (!t->later && !later && bucket_of(t->expires) == bn) {
			/* Within its bucket: the entry takes its new key where it is. */
			t->expires = when;
			t->seq = k.seq;
			ring_rekey(q, bn, t, k);
			return;
		}
		unlink_timer(q, t);
	}
	t->expires = when;
	t->seq = k.seq;
	t->later = later;
	q->len++;
	if (later)
		heap_insert(&q->later, t, k);
	else
		ring_insert(q, bn, t, k);
}

/*
 * Most arms are of a timer not armed, due within the ring, into a bucket
 * with room left, at its end: appended there, as ring_insert does.  In a
 * sorted bucket (the earliest, where a dense run's arms land) that is
 * when no entry is due after 'when': the new key's seq is the newest, so
 * it goes after every entry due at or before 'when', and the test is one
 * comparison of times with the last entry.  That case makes no call, so
 * it saves and restores no registers (a walk down the sorted bucket here
 * brought five saves back); every other goes to timer_set_any (one
 * prologue where it had one).  The same queue after it, and the same
 * order of events.
 */
void timer_set(struct evq *q, struct timer *t, stime_t when)
{
	struct evq_bucket *b;
	uint64_t bn;
	unsigned slot;
	uint32_t i;

	if (when < q->now)
		when = q->now;
	bn = bucket_of(when);
	if (t->heap_slot >= 0 || q->root_fired || !q->ring || bn - bucket_of(q->now) > q->ring_mask) {
		timer_set_any(q, t, when);
		return;
	}
	slot = (unsigned)(bn & q->ring_mask);
	b = &q->ring[slot];
	/* a sorted bucket holds at least one entry (an emptied one is unsorted) */
	if (b->len == b->cap || (b->sorted && when < b->e[b->len - 1].key.expires)) {
		timer_set_any(q, t, when);
		return;
	}
	t->expires = when;
	t->seq = q->next_seq++;
	t->later = false;
	q->len++;
	i = b->len++;
	entry_put(b, i, (struct evq_entry){ { when, t->seq }, t });
	ring_filled(q, bn, slot);
}

/*
 * The earliest timer: of the first bucket (*b set) or the heap's root (*b
 * NULL); NULL when the queue is empty.
 */
static inline __attribute__((always_inline)) struct timer *earliest(struct evq *q,
									struct evq_bucket **b)
{
	*b = NULL;
	if (!q->ring_len)
		return q->later.len ? q->later.heap[0] : NULL;
	*b = first_bucket(q);
	if (q->later.len && before(&q->later.keys[0], &(*b)->e[(*b)->head].key)) {
		*b = NULL;
		return q->later.heap[0];
	}
	return (*b)->e[(*b)->head].t;
}

struct timer *evq_peek(struct evq *q)
{
	struct evq_bucket *b;

	return earliest(q, &b);
}

struct timer *evq_pop(struct evq *q)
{
	struct evq_bucket *b;
	struct timer *t = earliest(q, &b);

	if (!t)
		return NULL;
	q->len--;
	if (b)
		return ring_take(q, b);
	t->heap_slot = -1;
	heap_drop_root(&q->later);
	return t;
}

struct timer *evq_fire_next(struct evq *q, stime_t until)
{
	struct evq_bucket *b;
	struct timer *t = earliest(q, &b);

	if (!t || t->expires > until)
		return NULL;
	q->now = t->expires;
	q->fired++;
	q->len--;
	if (b)
		return ring_take(q, b);
	t->heap_slot = -1;
	q->root_fired = true;
	return t;
}

void evq_fire_end(struct evq *q)
{
	if (!q->root_fired)
		return;
	q->root_fired = false;
	heap_drop_root(&q->later);
}

uint64_t evq_run_until(struct evq *q, stime_t until)
{
	uint64_t n = 0;
	struct timer *t;

	while ((t = evq_fire_next(q, until))) {
		n++;
		t->fn(t, t->arg);
		evq_fire_end(q);
	}
	if (q->now < until)
		q->now = until;
	return n;
}
