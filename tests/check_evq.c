/* Event queue: ordering by (time, arming order), re-arming, cancellation. */
#include <check.h>
#include <stdlib.h>

#include "tests/run_suite.h"
#include "sim/engine/evq.h"
#include "sim/engine/rng.h"

struct rec {
	int order[64];
	int n;
};

struct ev {
	struct timer t;
	struct rec *r;
	int id;
};

static void fire(struct timer *t, void *arg)
{
	struct ev *e = arg;

	e->r->order[e->r->n++] = e->id;
}

/* An empty queue and n events numbered 0.. that record their firing in r. */
static void setup(struct evq *q, struct rec *r, struct ev *ev, int n)
{
	evq_init(q);
	for (int i = 0; i < n; i++) {
		ev[i].r = r;
		ev[i].id = i;
		timer_init(&ev[i].t, fire, &ev[i]);
	}
}

START_TEST(equal_times_fire_in_arming_order)
{
	struct evq q;
	struct rec r = { {0}, 0 };
	struct ev ev[5];

	setup(&q, &r, ev, 5);
	timer_set(&q, &ev[3].t, 100);
	timer_set(&q, &ev[1].t, 50);
	timer_set(&q, &ev[4].t, 100);
	timer_set(&q, &ev[0].t, 100);
	timer_set(&q, &ev[2].t, 10);
	ck_assert_uint_eq(evq_run_until(&q, 1000), 5);
	ck_assert_int_eq(r.order[0], 2);
	ck_assert_int_eq(r.order[1], 1);
	ck_assert_int_eq(r.order[2], 3);
	ck_assert_int_eq(r.order[3], 4);
	ck_assert_int_eq(r.order[4], 0);
	ck_assert_int_eq(q.now, 1000);
	evq_free(&q);
}
END_TEST

START_TEST(cancel_and_rearm)
{
	struct evq q;
	struct rec r = { {0}, 0 };
	struct ev ev[3];

	setup(&q, &r, ev, 3);
	timer_set(&q, &ev[0].t, 10);
	timer_set(&q, &ev[1].t, 20);
	timer_set(&q, &ev[2].t, 30);
	timer_stop(&q, &ev[1].t);
	ck_assert(!timer_pending(&ev[1].t));
	timer_stop(&q, &ev[1].t);               /* harmless twice */
	timer_set(&q, &ev[0].t, 40);            /* re-arm moves it after ev2 */
	ck_assert_uint_eq(evq_run_until(&q, 35), 1);
	ck_assert_int_eq(r.order[0], 2);
	ck_assert_uint_eq(evq_run_until(&q, 100), 1);
	ck_assert_int_eq(r.order[1], 0);
	ck_assert_int_eq(r.n, 2);
	evq_free(&q);
}
END_TEST

/*
 * Re-arms within one bucket of the ring (4096 ns wide), before and after
 * the bucket is sorted: each re-armed timer takes its new place, and one
 * re-armed to the same time goes after the others due then.
 */
START_TEST(rearm_within_a_bucket)
{
	struct evq q;
	struct rec r = { {0}, 0 };
	struct ev ev[5];

	setup(&q, &r, ev, 5);
	timer_set(&q, &ev[0].t, 100);
	timer_set(&q, &ev[1].t, 200);
	timer_set(&q, &ev[2].t, 300);
	timer_set(&q, &ev[3].t, 400);
	timer_set(&q, &ev[4].t, 200);
	timer_set(&q, &ev[1].t, 350);           /* unsorted: later in place */
	ck_assert_ptr_eq(evq_peek(&q), &ev[0].t); /* sorts the bucket */
	timer_set(&q, &ev[0].t, 300);           /* sorted: past 4, after 2 */
	timer_set(&q, &ev[3].t, 50);            /* sorted: to the head */
	timer_set(&q, &ev[4].t, 200);           /* the same time, where it was */
	ck_assert_uint_eq(evq_run_until(&q, 1000), 5);
	ck_assert_int_eq(r.order[0], 3);
	ck_assert_int_eq(r.order[1], 4);
	ck_assert_int_eq(r.order[2], 2);
	ck_assert_int_eq(r.order[3], 0);
	ck_assert_int_eq(r.order[4], 1);
	evq_free(&q);
}
END_TEST

START_TEST(past_times_are_clamped_to_now)
{
	struct evq q;
	struct rec r = { {0}, 0 };
	struct ev ev;

	evq_init(&q);
	evq_run_until(&q, 500);
	ev.r = &r;
	ev.id = 7;
	timer_init(&ev.t, fire, &ev);
	timer_set(&q, &ev.t, 100);
	ck_assert_int_eq(ev.t.expires, 500);
	evq_run_until(&q, 500);
	ck_assert_int_eq(r.n, 1);
	evq_free(&q);
}
END_TEST

/* A random mix of arms, re-arms and cancels pops in sorted order, in the ring and beyond. */
START_TEST(random_operations_keep_heap_order)
{
	enum { N = 2000 };
	struct evq q;
	struct timer *t = calloc(N, sizeof(*t));
	struct rng rng;
	stime_t last = -1;
	uint64_t last_seq = 0;
	int i, popped = 0, armed = 0;

	evq_init(&q);
	rng_seed(&rng, 42);
	for (i = 0; i < N; i++)
		timer_init(&t[i], NULL, NULL);
	for (i = 0; i < 20 * N; i++) {
		struct timer *x = &t[rng_below(&rng, N)];

		if (rng_below(&rng, 4) == 0)
			timer_stop(&q, x);
		else
			/* in one bucket, a few apart, and beyond the ring, with ties */
			timer_set(&q, x, (stime_t)rng_below(&rng, 1000) +
					 (stime_t)rng_below(&rng, 3) * 20000000);
	}
	for (i = 0; i < N; i++)
		armed += timer_pending(&t[i]);
	ck_assert_uint_eq(q.len, (unsigned)armed);
	while (q.len) {
		struct timer *x = evq_pop(&q);

		ck_assert(x->expires > last || (x->expires == last && x->seq > last_seq));
		last = x->expires;
		last_seq = x->seq;
		ck_assert_int_eq(x->heap_slot, -1);
		popped++;
	}
	ck_assert_int_eq(popped, armed);
	evq_free(&q);
	free(t);
}
END_TEST

/*
 * The ring of buckets (4.1 us each, 33.6 ms in all) and the heap beyond:
 * populations that swing from none to 300 timers while time runs over
 * many turns of the ring, armed at now (ties), within a bucket, across
 * buckets, at the ring's horizon and beyond it, and in bursts of one
 * instant (sorted another way past 16), with stops and re-arms between
 * pops, pop each time the earliest pending timer found by a scan.
 */
START_TEST(ring_and_heap_keep_order)
{
	enum { N = 300 };
	static const stime_t horizon = 4096LL * 8192;
	struct evq q;
	struct timer *t = calloc(N, sizeof(*t));
	struct rng rng;
	int i, round;

	evq_init(&q);
	rng_seed(&rng, 7);
	for (i = 0; i < N; i++)
		timer_init(&t[i], NULL, NULL);
	for (round = 0; round < 3000; round++) {
		int goal = round % 3 ? (int)rng_below(&rng, N) : (int)rng_below(&rng, 6), pops;
		stime_t burst = q.now + (stime_t)rng_below(&rng, 20000);

		for (i = 0; i < 3 * N && (int)q.len < goal; i++) {
			struct timer *x = &t[rng_below(&rng, N)];
			stime_t when = q.now;

			switch (rng_below(&rng, 8)) {
			case 0: timer_stop(&q, x); continue;
			case 1: break;
			case 2: when += (stime_t)rng_below(&rng, 50); break;
			case 3: when += (stime_t)rng_below(&rng, 200000); break;
			case 4: when += horizon - 8192 + (stime_t)rng_below(&rng, 16384); break;
			case 5: when += (stime_t)rng_below(&rng, 3) * horizon +
					(stime_t)rng_below(&rng, 1000000); break;
			default: when = burst; break;
			}
			timer_set(&q, x, when);
		}
		pops = (int)q.len - (int)rng_below(&rng, 3);
		while (pops-- > 0 && q.len) {
			struct timer *want = NULL, *x;

			for (i = 0; i < N; i++)
				if (timer_pending(&t[i]) &&
				    (!want || t[i].expires < want->expires ||
				     (t[i].expires == want->expires && t[i].seq < want->seq)))
					want = &t[i];
			ck_assert_ptr_eq(evq_peek(&q), want);
			x = evq_pop(&q);
			ck_assert_msg(x == want, "round %d: popped %ld, earliest %ld", round,
				      (long)(x - t), (long)(want - t));
			q.now = x->expires;
			/* now and then a stop or a re-arm between two pops */
			if (rng_below(&rng, 4) == 0) {
				x = &t[rng_below(&rng, N)];
				if (rng_below(&rng, 2))
					timer_stop(&q, x);
				else
					timer_set(&q, x, q.now + (stime_t)rng_below(&rng, 9000));
			}
		}
	}
	ck_assert_int_gt(q.now, 20 * horizon);
	evq_free(&q);
	for (i = 0; i < N; i++)
		ck_assert_int_eq(t[i].heap_slot, -1);
	free(t);
}
END_TEST

/*
 * The ring starts short (1 ms) and doubles while the heap fills: a few
 * timers within the first millisecond, the earliest bucket sorted and
 * partly taken, then 2 000 more over 40 ms.  The ring has grown to its
 * full 33.6 ms, the first 256 ring timers moved into it as they were, and
 * every pop is the earliest pending timer found by a scan.
 */
START_TEST(ring_grows_and_keeps_order)
{
	enum { N = 2000, EARLY = 40 };
	struct evq q;
	struct timer *t = calloc(N, sizeof(*t));
	struct rng rng;
	int i, popped = 0;

	evq_init(&q);
	rng_seed(&rng, 11);
	for (i = 0; i < N; i++)
		timer_init(&t[i], NULL, NULL);
	for (i = 0; i < EARLY; i++)     /* ties and near times in the first buckets */
		timer_set(&q, &t[i], (stime_t)rng_below(&rng, 4) * 1000);
	ck_assert_uint_eq(q.ring_mask + 1, 256);
	for (; popped < 5; popped++)
		q.now = evq_pop(&q)->expires;
	for (i = EARLY; i < N; i++)
		timer_set(&q, &t[i], q.now + (stime_t)rng_below(&rng, 40000000));
	ck_assert_uint_eq(q.ring_mask + 1, 8192);
	for (; q.len > 0; popped++) {
		struct timer *want = NULL, *x;

		for (i = 0; i < N; i++)
			if (timer_pending(&t[i]) &&
			    (!want || t[i].expires < want->expires ||
			     (t[i].expires == want->expires && t[i].seq < want->seq)))
				want = &t[i];
		x = evq_pop(&q);
		ck_assert_msg(x == want, "pop %d: popped %ld, earliest %ld", popped, (long)(x - t),
			      (long)(want - t));
		q.now = x->expires;
		if (popped < N && popped % 7 == 0)      /* re-arms into the grown ring and beyond it */
			timer_set(&q, &t[rng_below(&rng, N)], q.now + (stime_t)rng_below(&rng, 50000000));
	}
	ck_assert_int_ge(popped, N);
	evq_free(&q);
	free(t);
}
END_TEST

/*
 * Callbacks that re-arm, stop and arm timers, their own included, in the
 * ring and beyond it, while a fired timer of the heap still holds its root
 * (evq_fire_next): every event is still the earliest armed one, checked
 * against a plain scan.
 */
enum { NCB = 300 };

struct cb_world {
	struct evq q;
	struct timer t[NCB];
	bool armed[NCB];
	struct rng rng;
	int fired;
	bool bad;
};

static void cb_set(struct cb_world *w, int i, stime_t when)
{
	timer_set(&w->q, &w->t[i], when);
	w->armed[i] = true;
}

static void cb_stop(struct cb_world *w, int i)
{
	timer_stop(&w->q, &w->t[i]);
	w->armed[i] = false;
}

static void cb_fire(struct timer *t, void *arg)
{
	struct cb_world *w = arg;
	int self = (int)(t - w->t), best = -1;

	/* the earliest of those armed before this event, by the plain scan */
	for (int i = 0; i < NCB; i++)
		if (w->armed[i] && (best < 0 || w->t[i].expires < w->t[best].expires ||
				    (w->t[i].expires == w->t[best].expires &&
				     w->t[i].seq < w->t[best].seq)))
			best = i;
	if (best != self || timer_pending(t) || t->expires != w->q.now)
		w->bad = true;
	w->armed[self] = false;
	w->fired++;
	for (int k = (int)rng_below(&w->rng, 5); k > 0; k--) {
		int which = rng_below(&w->rng, 3) == 0 ? self : (int)rng_below(&w->rng, NCB);
		stime_t when = w->q.now + (stime_t)rng_below(&w->rng, 50) +
			       (rng_below(&w->rng, 4) == 0 ? 40000000 : 0);

		if (rng_below(&w->rng, 3) == 0)
			cb_stop(w, which);
		else
			cb_set(w, which, when);
	}
	if (timer_pending(t) != w->armed[self])
		w->bad = true;
}

START_TEST(callbacks_rearming_themselves_keep_order)
{
	struct cb_world *w = calloc(1, sizeof(*w));

	evq_init(&w->q);
	rng_seed(&w->rng, 7);
	for (int i = 0; i < NCB; i++)
		timer_init(&w->t[i], cb_fire, w);
	for (int i = 0; i < NCB; i += 2)
		cb_set(w, i, (stime_t)rng_below(&w->rng, 100));
	evq_run_until(&w->q, 1000000000);
	ck_assert(!w->bad);
	ck_assert_int_gt(w->fired, 10 * NCB);
	for (int i = 0; i < NCB; i++)
		ck_assert_int_eq(timer_pending(&w->t[i]), w->armed[i]);
	evq_free(&w->q);
	free(w);
}
END_TEST

static void nop(struct timer *t, void *arg)
{
}

/*
 * A bucket that once held 1000 timers, drained (by firing them, or by
 * stopping them), gives its array back: the same 1000 in 50 other buckets
 * one after the other need no more memory than the first time.
 */
START_TEST(drained_buckets_give_their_memory_back)
{
	enum { N = 1000, ROUNDS = 50 };
	struct timer *t = calloc(N, sizeof(*t));
	struct evq q;
	size_t first = 0;

	evq_init(&q);
	for (int i = 0; i < N; i++)
		timer_init(&t[i], nop, NULL);
	for (int round = 0; round < ROUNDS; round++) {
		/* 1 ms apart: a different bucket of the ring each round */
		stime_t at = (stime_t)(round + 1) * 1000000;

		for (int i = 0; i < N; i++)
			timer_set(&q, &t[i], at);
		ck_assert_uint_eq(q.len, N);
		if (round % 2)
			ck_assert_uint_eq(evq_run_until(&q, at), N);
		else {
			for (int i = N - 1; i >= 0; i--)
				timer_stop(&q, &t[i]);
			evq_run_until(&q, at);
		}
		ck_assert_uint_eq(q.len, 0);
		if (round == 0) {
			/* arrays of 8 to 1024 entries, and the smallest's chunk */
			first = q.pool.slots;
			ck_assert_uint_ge(first, N);
			ck_assert_uint_le(first, 2 * 1024 + EVQ_CHUNK_ARRAYS * EVQ_BUCKET_MIN);
		}
		ck_assert_uint_eq(q.pool.slots, first);
	}
	evq_free(&q);
	free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("evq");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, equal_times_fire_in_arming_order);
	tcase_add_test(tc, cancel_and_rearm);
	tcase_add_test(tc, past_times_are_clamped_to_now);
	tcase_add_test(tc, rearm_within_a_bucket);
	tcase_add_test(tc, random_operations_keep_heap_order);
	tcase_add_test(tc, ring_and_heap_keep_order);
	tcase_add_test(tc, ring_grows_and_keeps_order);
	tcase_add_test(tc, callbacks_rearming_themselves_keep_order);
	tcase_add_test(tc, drained_buckets_give_their_memory_back);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
