#include "sim/evq.h"

#include <stdlib.h>

#include "sim/xalloc.h"

#define ARITY 4

static inline bool earlier(const struct timer *a, const struct timer *b)
{
	return a->expires < b->expires ||
	       (a->expires == b->expires && a->seq < b->seq);
}

static inline void place(struct evq *q, size_t i, struct timer *t)
{
	q->heap[i] = t;
	t->heap_slot = (int)i;
}

static void sift_up(struct evq *q, size_t i, struct timer *t)
{
	while (i > 0) {
		size_t parent = (i - 1) / ARITY;

		if (!earlier(t, q->heap[parent]))
			break;
		place(q, i, q->heap[parent]);
		i = parent;
	}
	place(q, i, t);
}

static void sift_down(struct evq *q, size_t i, struct timer *t)
{
	for (;;) {
		size_t first = i * ARITY + 1, best, c, end;

		if (first >= q->len)
			break;
		end = first + ARITY < q->len ? first + ARITY : q->len;
		best = first;
		for (c = first + 1; c < end; c++)
			if (earlier(q->heap[c], q->heap[best]))
				best = c;
		if (!earlier(q->heap[best], t))
			break;
		place(q, i, q->heap[best]);
		i = best;
	}
	place(q, i, t);
}

void evq_init(struct evq *q)
{
	q->heap = NULL;
	q->len = q->cap = 0;
	q->next_seq = 0;
	q->now = 0;
	q->fired = 0;
}

void evq_free(struct evq *q)
{
	size_t i;

	for (i = 0; i < q->len; i++)
		q->heap[i]->heap_slot = -1;
	free(q->heap);
	q->heap = NULL;
	q->len = q->cap = 0;
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
	struct timer *last = q->heap[--q->len];

	q->heap[i]->heap_slot = -1;
	if (i == q->len)
		return;
	if (i > 0 && earlier(last, q->heap[(i - 1) / ARITY]))
		sift_up(q, i, last);
	else
		sift_down(q, i, last);
}

void timer_stop(struct evq *q, struct timer *t)
{
	if (t->heap_slot >= 0)
		remove_at(q, (size_t)t->heap_slot);
}

void timer_set(struct evq *q, struct timer *t, stime_t when)
{
	if (when < q->now)
		when = q->now;
	timer_stop(q, t);
	t->expires = when;
	t->seq = q->next_seq++;
	if (q->len == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 64;
		q->heap = xreallocarray(q->heap, q->cap, sizeof(*q->heap));
	}
	q->len++;
	sift_up(q, q->len - 1, t);
}

struct timer *evq_pop(struct evq *q)
{
	struct timer *t;

	if (!q->len)
		return NULL;
	t = q->heap[0];
	remove_at(q, 0);
	return t;
}

uint64_t evq_run_until(struct evq *q, stime_t until)
{
	uint64_t n = 0;

	while (q->len && q->heap[0]->expires <= until) {
		struct timer *t = evq_pop(q);

		q->now = t->expires;
		q->fired++;
		n++;
		t->fn(t, t->arg);
	}
	if (q->now < until)
		q->now = until;
	return n;
}
