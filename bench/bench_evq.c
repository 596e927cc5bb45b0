/*
 * Event-queue microbenchmark: N pending timers; each step pops the
 * earliest and re-arms it a random delay later, as a simulation does.
 * Prints insert+pop pairs per second for N = 1000 (the target:
 * at least 20 million on one core), 10000 and 100000 (cache effects).
 * The timers are spread over memory like the simulator's (embedded in
 * larger objects), so that a heap which dereferences them pays for it.
 * Time is this thread's CPU time, so that a loaded machine (other builds,
 * fuzzers) does not distort the figure; on an idle core it equals wall time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sim/engine/evq.h"
#include "sim/engine/rng.h"
#include "sim/xalloc.h"

struct object {
	char other[200];          /* the rest of a vCPU, a task...: spreads timers */
	struct timer t;
};

static void nop(struct timer *t, void *arg)
{
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double bench(int n, long steps, uint64_t *check)
{
	struct object *obj = xcalloc((size_t)n, sizeof(*obj));
	struct evq q;
	struct rng r;
	double t0, t1;
	long i;

	evq_init(&q);
	rng_seed(&r, 42);
	for (i = 0; i < n; i++) {
		timer_init(&obj[i].t, nop, NULL);
		timer_set(&q, &obj[i].t, (stime_t)rng_below(&r, 1000000));
	}
	t0 = now_s();
	for (i = 0; i < steps; i++) {
		struct timer *t = evq_pop(&q);

		q.now = t->expires;
		timer_set(&q, t, t->expires + 1 + (stime_t)rng_below(&r, 1000000));
	}
	t1 = now_s();
	*check += (uint64_t)q.now;
	evq_free(&q);
	free(obj);
	return (double)steps / (t1 - t0);
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 1000, 10000, 100000 };
	long steps = argc > 1 ? atol(argv[1]) : 20000000;
	uint64_t check = 0;

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		printf("evq: %6d pending: %6.1f M insert+pop pairs/s\n", sizes[k],
		       bench(sizes[k], steps, &check) / 1e6);
	return check == 0;   /* keeps the loop from being optimised away */
}
