/*
 * stream: John McCalpin's STREAM (stream.c, version 5.10) as MMTests runs
 * it (shellpack stream-bench of mid-2019: "gcc -DSTREAM_ARRAY_SIZE=N
 * -fopenmp -m64 -lm -O3 stream.c", OMP_NUM_THREADS=STREAM_THREADS, N =
 * STREAM_SIZE / 3 / sizeof(double), STREAM_SIZE 512 MiB in every stream
 * config of 2019).
 *
 * The program sweeps three arrays of N doubles NTIMES times (10, stream.c's
 * default); each sweep runs four kernels in turn, each an OpenMP parallel
 * loop over the N elements split evenly between the threads (the static
 * schedule) and closed by the loop's barrier:
 *
 *   copy   c[j] = a[j]             counted 16 B an element
 *   scale  b[j] = s * c[j]         counted 16 B
 *   add    c[j] = a[j] + b[j]      counted 24 B
 *   triad  a[j] = b[j] + s * c[j]  counted 24 B
 *
 * stream.c times each kernel on the master thread's clock, from before
 * the loop to after its barrier, and prints for each kernel its "Best Rate
 * MB/s": the counted bytes over the shortest of the NTIMES - 1 times that
 * follow the first; MMTests (ExtractStream.pm) averages that figure over
 * its iterations.  The figure here is one run's best rate of the kernel
 * chosen by figure=.
 *
 * The bytes that cross the memory bus are not those counted: an ordinary
 * store to a line not in the cache first reads it (write-allocate), so
 * scale moves 24 B an element and add and triad 32 B.  Copy is a plain
 * copy loop, which gcc -O3 turns into a call of memcpy
 * (-ftree-loop-distribute-patterns), and glibc's memcpy writes a copy
 * larger than its non-temporal threshold (a fraction of the LLC) with
 * non-temporal stores, which do not read the line first: 16 B
 * (copy_nt=off: the loop kept, 24 B).
 *
 * A thread's share of a kernel is work: the bytes it moves at the rate one
 * thread streams alone (thread_bandwidth).  Its tasks' hardware profile
 * says they wait on memory all their time (mem_intensity 1) at that rate
 * (stream_gbps), so the hardware model (sim/engine/hw.h) slows them as
 * the socket's memory controller fills with their traffic and that of the
 * other threads of the socket; nothing of the arrays stays in a cache for
 * the next sweep (working_set 0).  A thread done with its share waits at
 * the barrier, blocked (libgomp spins a while first: not modelled); the
 * last one to arrive releases the others into the next kernel.  The
 * untimed start (the arrays' first touch, the clock's granularity check)
 * is not modelled: it only precedes the timed sweeps.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/workload.h"

enum { K_COPY, K_SCALE, K_ADD, K_TRIAD, K_N };

/* stream.c's bytes[]: counted per element. */
static const int counted_bytes[K_N] = { 16, 16, 24, 24 };
/* Moved per element: one write-allocate read per stored line (copy: see copy_nt). */
static const int moved_bytes[K_N] = { 24, 24, 32, 32 };

struct stream_config {
	long long threads, array_size, ntimes;
	int figure;
	double thread_gbps;
	bool copy_nt;
};

#define OFF(f) offsetof(struct stream_config, f)

static const struct param_def stream_params[] = {
	{ "threads", PARAM_INT, "2", NULL, 1, 4096,
	  "OpenMP threads (OMP_NUM_THREADS; MMTests' stream-omp-nodes: 2 per NUMA node)",
	  OFF(threads) },
	{ "array_size", PARAM_INT, "22369621", NULL, 1, 1LL << 40,
	  "elements of each of the three arrays (STREAM_ARRAY_SIZE; MMTests: 512 MiB / 3 / 8)",
	  OFF(array_size) },
	{ "ntimes", PARAM_INT, "10", NULL, 2, 1000,
	  "sweeps of the four kernels (NTIMES, stream.c's default 10; the first is not counted)",
	  OFF(ntimes) },
	{ "figure", PARAM_ENUM, "copy", "copy|scale|add|triad", 0, 0,
	  "the kernel whose best rate (MB/s) is the figure of merit", OFF(figure) },
	{ "thread_bandwidth", PARAM_DOUBLE, "24", NULL, 0.1, 1000,
	  "GB/s one thread streams from memory alone (its prefetched misses; doc/workloads.md, "
	  "stream)", OFF(thread_gbps) },
	{ "copy_nt", PARAM_BOOL, "on", NULL, 0, 0,
	  "copy writes with non-temporal stores (gcc -O3 makes the loop a memcpy; glibc's "
	  "memcpy of a large copy bypasses the cache): 16 B an element cross the bus, off: 24",
	  OFF(copy_nt) },
	{ NULL }
};

struct stream;

struct stream_thread {
	struct stream *st;
	struct task *t;
	long long elems;         /* its share of each loop */
	bool waiting;            /* at the barrier (or not started): its step runs a share */
};

struct stream {
	struct workload *w;
	const struct stream_config *c;
	struct stream_thread *th;
	int nth;
	int sweep, kernel;       /* the loop running */
	int arrived;             /* threads at its barrier */
	stime_t loop_start;
	stime_t best[K_N];       /* shortest time of each kernel after the first sweep */
	bool done;
};

/* Bytes an element of kernel k moves across the memory bus. */
static int stream_moved(const struct stream_config *c, int k)
{
	return k == K_COPY && c->copy_nt ? counted_bytes[K_COPY] : moved_bytes[k];
}

/* Work (ns at full speed) of a thread's share of kernel k. */
static stime_t share_work(const struct stream *st, const struct stream_thread *th, int k)
{
	double bytes = (double)th->elems * stream_moved(st->c, k);
	stime_t work = (stime_t)(bytes / st->c->thread_gbps + 0.5);

	return work > 0 ? work : 1;
}

static void thread_step(struct sim *s, struct task *t)
{
	struct stream_thread *th = t->ctx;
	struct stream *st = th->st;

	if (st->done) {
		task_exit(s, t);
		return;
	}
	if (th->waiting) {
		/* released from the barrier (or the run starts): its share of the loop */
		th->waiting = false;
	} else {
		/* its share is done: the barrier */
		th->waiting = true;
		if (++st->arrived < st->nth) {
			task_block(s, t);
			return;
		}
		stime_t took = sim_now(s) - st->loop_start;

		if (st->sweep > 0 && (st->best[st->kernel] == 0 || took < st->best[st->kernel]))
			st->best[st->kernel] = took;
		st->arrived = 0;
		th->waiting = false;
		if (++st->kernel == K_N) {
			st->kernel = 0;
			if (++st->sweep == st->c->ntimes) {
				st->done = true;
				sim_request_stop(s);
				for (int i = 0; i < st->nth; i++)
					if (st->th[i].t != t)
						task_wake(s, st->th[i].t);
				task_exit(s, t);
				return;
			}
		}
		/* the last to arrive releases the others into the next loop */
		st->loop_start = sim_now(s);
		for (int i = 0; i < st->nth; i++)
			if (st->th[i].t != t)
				task_wake(s, st->th[i].t);
	}
	task_run(s, t, share_work(st, th, st->kernel));
}

static int stream_setup(struct workload *w, struct err *e)
{
	const struct stream_config *c = w->config;
	struct stream *st;

	(void)e;
	st = xcalloc(1, sizeof(*st));
	w->priv = st;
	st->w = w;
	st->c = c;
	st->nth = (int)c->threads;
	st->th = xcalloc((size_t)st->nth, sizeof(*st->th));
	w->prof.stream_gbps = c->thread_gbps;
	for (int i = 0; i < st->nth; i++) {
		char name[32];

		/* the static schedule: the first N % T threads take one more */
		st->th[i].st = st;
		st->th[i].elems = c->array_size / st->nth + (i < c->array_size % st->nth);
		st->th[i].waiting = true;
		snprintf(name, sizeof(name), "stream%d", i);
		st->th[i].t = task_create(guest_of(w->dom), name, TASK_NORMAL,
					  i % w->dom->nr_vcpus, false, thread_step, &st->th[i], 0);
	}
	return 0;
}

static void stream_metric(struct workload *w, struct metric *mt)
{
	const struct stream *st = w->priv;
	int k = st ? st->c->figure : 0;

	memset(mt, 0, sizeof(*mt));
	snprintf(mt->name, sizeof(mt->name), "best_rate");
	snprintf(mt->unit, sizeof(mt->unit), "MB/s");
	mt->higher_better = true;
	mt->valid = st && st->done && st->best[k] > 0;
	if (mt->valid)
		mt->value = 1e-6 * (double)counted_bytes[k] * (double)st->c->array_size /
			    ((double)st->best[k] / 1e9);
}

static void stream_destroy(struct workload *w)
{
	struct stream *st = w->priv;

	if (!st)
		return;
	free(st->th);
	free(st);
	w->priv = NULL;
}

const struct workload_ops stream_ops = {
	.name = "stream",
	.summary = "McCalpin's STREAM as MMTests runs it: OpenMP copy/scale/add/triad, best MB/s",
	.params = stream_params,
	.config_size = sizeof(struct stream_config),
	.setup = stream_setup,
	.metric = stream_metric,
	.destroy = stream_destroy,
	.hw = { 0.95, 0, 1.0, 0 },
	.hw_source = "mem_intensity 1: prefetched sweeps of arrays 60 times the LLC keep the "
		     "core waiting on memory (1 to 2 flops per 16 to 32 bytes); working_set 0: "
		     "nothing stays cached for the next sweep; smt_speed 0.95: a thread stalled on "
		     "memory leaves the core's pipeline to its sibling (an assumption, doc/workloads.md)",
};
