/*
 * hackbench-process-pipe: MMTests' run of `perf bench sched messaging
 * --pipe -g G -l LOOPS` (shellpack hackbench-bench of July 2019, config
 * config-scheduler-unbound: HACKBENCH_LOOPS=10000, groups 1 to 4 x CPUs),
 * perf's copy of hackbench.c (tools/perf/bench/sched-messaging.c), in
 * process mode over pipes:
 *
 *   - each of G groups has `fds` (20) receivers, each with a pipe of its
 *     own, and `fds` senders, each holding the write end of every
 *     receiver's pipe of its group;
 *   - every sender writes `loops` rounds, a round being one message of
 *     `size` (100) bytes to each receiver in turn, a write() each;
 *   - every receiver reads loops x fds messages, a read() of size bytes
 *     each (a 100-byte read gets one whole message: small writes merge into
 *     the pipe's last page, 40 to a page, and a read does not cross one);
 *   - the figure is the time from the start signal to the last child's
 *     exit (perf's "Total time"), in seconds, lower is better.
 *
 * The pipes are Linux 5.1's fs/pipe.c: PIPE_DEF_BUFFERS (16) pages, a
 * write merging into the last page while it has room, else taking a new
 * one, and blocking when all 16 are in use; a write wakes the sleepers on
 * the pipe's wait queue (its reader, when it waits for data), a read that
 * empties a page wakes them too (the writers waiting for room: every one
 * of them, the queue's entries are not exclusive).  A woken task pays the
 * switch to it (schedule, switch_to), its waker the wake-up
 * (try_to_wake_up, the IPI).  In a PV domain each read() and write() is a
 * system call through Xen and each switch a multicall
 * (workloads/kernel_ops.h), with the TLB refills after their page-table
 * switches (tlb_refill).
 *
 * Each sender and receiver is a worker (split.h) on a guest task: a sender
 * claims the writes its next pipes have room for (at most `batch`), a
 * receiver the messages its pipe holds (at most `batch`); the data and the
 * room appear when the batch's CPU work is done.  The room a sender claims
 * is reserved at once, so that no pipe is overfilled.
 *
 * The run simulates sim_loops of the loops and scales the elapsed time by
 * loops / sim_loops, taking the run after the start as a steady state.  It
 * is not exactly one: the time per round still grows with the rounds (5
 * groups: 2 to 8 % more per round at 2000 rounds than at 500; doc/workloads.md,
 * "hackbench", has the measurement), so the figure depends on sim_loops.
 *
 * A burst's CPU time varies as netperf's and mutilate's do (workload_cost):
 * a factor per run (run_noise) and a uniform one per burst (noise), drawn
 * from the workload's seeded stream, so that iterations are different
 * schedules and --seed reproduces them.  With both at 0 the costs are exact.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/kernel_ops.h"
#include "workloads/loopback.h"
#include "workloads/split.h"
#include "workloads/workload.h"

struct hackbench_config {
	long long groups, loops, sim_loops, fds, size, pipe_pages, batch;
	stime_t write_call, read_call, wake, switch_in, tlb_refill;
	double copy, noise, run_noise;
};

#define OFF(f) offsetof(struct hackbench_config, f)

/* The calibration (doc/workloads.md, "hackbench"): the 2019 HT column only. */
#define HB_WRITE_DEFAULT "290ns"
#define HB_READ_DEFAULT "290ns"
#define HB_TLB_REFILL_DEFAULT "0ns"

static const struct param_def hackbench_params[] = {
	{ "groups", PARAM_INT, "1", NULL, 1, 4096,
	  "groups of fds senders and fds receivers (perf bench sched messaging -g)", OFF(groups) },
	{ "loops", PARAM_INT, "10000", NULL, 1, 100000000,
	  "rounds each sender writes, one message to each receiver of its group (-l; "
	  "MMTests' HACKBENCH_LOOPS of 2019)", OFF(loops) },
	{ "sim_loops", PARAM_INT, "500", NULL, 1, 100000000,
	  "rounds simulated (at most loops); the elapsed time is scaled by loops / rounds "
	  "simulated", OFF(sim_loops) },
	{ "fds", PARAM_INT, "20", NULL, 1, 64,
	  "senders and receivers per group (perf's num_fds)", OFF(fds) },
	{ "size", PARAM_INT, "100", NULL, 1, 4096, "bytes of a message (perf's DATASIZE)",
	  OFF(size) },
	{ "pipe_pages", PARAM_INT, "16", NULL, 1, 1024,
	  "pages a pipe holds (Linux's PIPE_DEF_BUFFERS)", OFF(pipe_pages) },
	{ "batch", PARAM_INT, "40", NULL, 1, 100000,
	  "most reads or writes a task's CPU burst takes at once (the model's granularity: "
	  "their effects appear at the burst's end)", OFF(batch) },
	{ "write_cost", PARAM_DURATION, HB_WRITE_DEFAULT, NULL, 0, 0,
	  "kernel and user CPU per write() to a pipe: the system call, vfs_write, pipe_write's "
	  "lock, merge and wake-up call (calibrated on the 2019 HVMx2-v8 HT cells)",
	  OFF(write_call) },
	{ "read_cost", PARAM_DURATION, HB_READ_DEFAULT, NULL, 0, 0,
	  "kernel and user CPU per read() from a pipe: the system call, vfs_read, pipe_read "
	  "(calibrated on the 2019 HVMx2-v8 HT cells)", OFF(read_call) },
	{ "copy_cost", PARAM_DOUBLE, LO_COPY_DEFAULT, NULL, 0, 100,
	  "ns per byte copied between user space and a pipe page (loopback's copy_cost)",
	  OFF(copy) },
	{ "wake_cost", PARAM_DURATION, LO_WAKE_DEFAULT, NULL, 0, 0,
	  "kernel CPU of waking a task that sleeps on a pipe (try_to_wake_up, the IPI), on the "
	  "waker (loopback's wake_cost)", OFF(wake) },
	{ "switch_cost", PARAM_DURATION, LO_SWITCH_DEFAULT, NULL, 0, 0,
	  "kernel CPU of switching to a woken task (schedule, switch_mm, switch_to), on the "
	  "wakee (loopback's switch_cost)", OFF(switch_in) },
	{ "tlb_refill", PARAM_DURATION, HB_TLB_REFILL_DEFAULT, NULL, 0, 0,
	  "PV only: work refilling the TLB after each page-table switch of a pipe call or "
	  "context switch (0, its bound: the 2019 dom0 HT cells are too slow even at 0 and "
	  "dom0 is not calibrated; doc/validation.md, hackbench)", OFF(tlb_refill) },
	LO_NOISE_PARAMS(OFF, "CPU burst's time", "; netperf's and mutilate's"),
	{ NULL }
};

struct hb_pipe {
	uint64_t msgs;          /* messages in the pipe, readable */
	uint64_t reserved;      /* room claimed by writes in flight */
	uint64_t read;          /* messages read in all (its pages emptied) */
	uint64_t waiters;       /* senders of the group asleep for room in it (bit per sender) */
	struct worker *reader;
};

struct hackbench;

struct hb_task {
	struct hackbench *h;
	struct worker *w;
	int group, idx;
	bool sender;
	uint64_t left;          /* messages still to write or read */
	int next;               /* sender: the receiver its next write goes to */
	uint64_t claimed;       /* in the running batch */
	int claim_from;         /* sender: the first receiver of the batch */
	stime_t debt;           /* wake-ups made in the last commit, switch-ins */
	uint64_t calls, wakes, blocks;
};

struct hackbench {
	struct workload *w;
	uint64_t rounds;        /* rounds simulated: min(loops, sim_loops) */
	struct hackbench_config *c;
	struct hb_pipe *pipes;  /* groups x fds */
	struct hb_task *tasks;  /* per group: fds senders, then fds receivers */
	int ntasks;
	uint64_t cap;           /* messages a pipe holds */
	uint64_t per_page;      /* messages a page holds */
	int running;            /* tasks not yet done */
	stime_t t_end;
	bool finished;
	double run_factor;      /* this run's factor on every cost (run_noise) */
	double half_width;      /* of a burst's uniform factor (noise) */
};

/* The PV extra of n operations op of this workload's domain. */
static stime_t pv_extra(const struct hackbench *h, enum kernel_op op, double n)
{
	return kernel_op_n_cost(h->w->dom->type, op, n, (double)h->c->tlb_refill);
}

static stime_t call_work(const struct hackbench *h, uint64_t n, stime_t call)
{
	double w = (double)n * ((double)call + (double)h->c->size * h->c->copy);

	return (stime_t)w + pv_extra(h, KOP_SYSCALL, (double)n);
}

static struct hb_pipe *pipe_of(struct hackbench *h, int group, int r)
{
	return &h->pipes[group * h->c->fds + r];
}

/* Wakes a task of the run (waker pays try_to_wake_up, wakee the switch to it). */
static void wake(struct hackbench *h, struct hb_task *waker, struct hb_task *t)
{
	if (t->w->task->state != TASK_BLOCKED)
		return;
	waker->debt += h->c->wake;
	waker->wakes++;
	t->debt += h->c->switch_in + pv_extra(h, KOP_CTXSW, 1);
	worker_kick(h->w->sim, t->w);
}

static void task_done(struct sim *s, struct hackbench *h)
{
	if (--h->running == 0) {
		h->finished = true;
		h->t_end = sim_now(s);
		sim_request_stop(s);
	}
}

/*
 * A batch's work with the task's debt, with the run's and the burst's
 * noise (workload_cost); without noise exactly that, at least 1 ns, as a
 * worker's batch of nothing is none.
 */
static stime_t take_debt(struct hb_task *t, stime_t work)
{
	const struct hackbench *h = t->h;

	work += t->debt;
	t->debt = 0;
	if (h->half_width > 0 || h->run_factor != 1)
		return workload_cost(&h->w->rng, h->run_factor, h->half_width, (double)work);
	return work > 0 ? work : 1;
}

/*
 * Writes of a batch of n from receiver t->next on that go to the pipe at
 * offset d < fds from it: the writes d, d + fds, ... below n, that is
 * n / fds of them and one more for the first n % fds offsets (the batch's
 * quotient and remainder, worked out once per batch, not per pipe).
 */
static uint64_t writes_to(uint64_t quot, uint64_t rem, uint64_t d)
{
	return quot + (d < rem);
}

/*
 * A sender's batch: consecutive writes, round the receivers from t->next,
 * while each pipe has room: the pipe at offset d from t->next takes the
 * writes d, d + fds, ..., so the first that finds it full is write
 * d + room x fds.
 */
static stime_t sender_poll(struct sim *s, struct worker *wk)
{
	struct hb_task *t = wk->ctx;
	struct hackbench *h = t->h;
	uint64_t fds = (uint64_t)h->c->fds, n = (uint64_t)h->c->batch;
	struct hb_pipe *group = pipe_of(h, t->group, 0);
	uint64_t r = (uint64_t)t->next, quot, rem;

	(void)s;
	if (!t->left)
		return 0;
	if (n > t->left)
		n = t->left;
	for (uint64_t d = 0; d < fds && d < n; d++, r = r + 1 == fds ? 0 : r + 1) {
		uint64_t used = group[r].msgs + group[r].reserved;
		uint64_t stop = d + (used < h->cap ? h->cap - used : 0) * fds;

		if (stop < n)
			n = stop;
	}
	if (!n) {
		/* pipe_wait on the full pipe until a read empties a page */
		group[t->next].waiters |= 1ULL << t->idx;
		t->blocks++;
		return 0;
	}
	r = (uint64_t)t->next;
	quot = n / fds;
	rem = n % fds;
	for (uint64_t d = 0; d < fds && d < n; d++, r = r + 1 == fds ? 0 : r + 1)
		group[r].reserved += writes_to(quot, rem, d);
	t->claim_from = t->next;
	t->claimed = n;
	t->next = (int)((t->next + n) % fds);
	t->calls += n;
	return take_debt(t, call_work(h, n, h->c->write_call));
}

static void sender_done(struct sim *s, struct worker *wk)
{
	struct hb_task *t = wk->ctx;
	struct hackbench *h = t->h;
	uint64_t fds = (uint64_t)h->c->fds, n = t->claimed;
	struct hb_pipe *group = pipe_of(h, t->group, 0);
	uint64_t r = (uint64_t)t->claim_from, quot = n / fds, rem = n % fds;

	for (uint64_t d = 0; d < fds && d < n; d++, r = r + 1 == fds ? 0 : r + 1) {
		uint64_t k = writes_to(quot, rem, d);

		group[r].reserved -= k;
		group[r].msgs += k;
		wake(h, t, group[r].reader->ctx);
	}
	t->left -= n;
	t->claimed = 0;
	if (!t->left)
		task_done(s, h);
}

static stime_t receiver_poll(struct sim *s, struct worker *wk)
{
	struct hb_task *t = wk->ctx;
	struct hackbench *h = t->h;
	struct hb_pipe *p = pipe_of(h, t->group, t->idx);
	uint64_t n = p->msgs < (uint64_t)h->c->batch ? p->msgs : (uint64_t)h->c->batch;

	(void)s;
	if (!n) {
		if (t->left)
			t->blocks++;
		return 0;
	}
	p->msgs -= n;
	t->claimed = n;
	t->calls += n;
	return take_debt(t, call_work(h, n, h->c->read_call));
}

static void receiver_done(struct sim *s, struct worker *wk)
{
	struct hb_task *t = wk->ctx;
	struct hackbench *h = t->h;
	struct hb_pipe *p = pipe_of(h, t->group, t->idx);
	uint64_t pages = p->read / h->per_page;

	p->read += t->claimed;
	t->left -= t->claimed;
	t->claimed = 0;
	/* a page emptied: the writers waiting for room are all woken */
	if (p->read / h->per_page != pages && p->waiters) {
		uint64_t wt = p->waiters;

		p->waiters = 0;
		for (int i = 0; i < (int)h->c->fds; i++)
			if (wt & (1ULL << i))
				wake(h, t, &h->tasks[t->group * 2 * h->c->fds + i]);
	}
	if (!t->left)
		task_done(s, h);
}

static int hackbench_setup(struct workload *w, struct err *e)
{
	struct hackbench_config *c = w->config;
	struct hackbench *h = xcalloc(1, sizeof(*h));
	struct guest *g = guest_of(w->dom);
	int fds = (int)c->fds, n = 0;

	(void)e;
	w->priv = h;
	h->w = w;
	h->c = c;
	h->rounds = (uint64_t)(c->sim_loops < c->loops ? c->sim_loops : c->loops);
	h->half_width = c->noise * sqrt(3.0);
	h->run_factor = 1 + c->run_noise * sqrt(3.0) * (2 * rng_uniform(&w->rng) - 1);
	h->per_page = 4096 / (uint64_t)c->size;
	if (!h->per_page)
		h->per_page = 1;
	h->cap = h->per_page * (uint64_t)c->pipe_pages;
	h->pipes = xcalloc((size_t)(c->groups * fds), sizeof(*h->pipes));
	h->ntasks = (int)(c->groups * 2 * fds);
	h->tasks = xcalloc((size_t)h->ntasks, sizeof(*h->tasks));
	for (int gi = 0; gi < (int)c->groups; gi++) {
		for (int k = 0; k < 2 * fds; k++, n++) {
			struct hb_task *t = &h->tasks[n];
			bool snd = k < fds;
			char name[32];

			t->h = h;
			t->group = gi;
			t->idx = snd ? k : k - fds;
			t->sender = snd;
			t->left = h->rounds * (uint64_t)fds;
			t->next = 0;
			snprintf(name, sizeof(name), "hb%d-%s%d", gi, snd ? "s" : "r", t->idx);
			t->w = worker_create(g, name, TASK_NORMAL, n % w->dom->nr_vcpus, false,
					     snd ? sender_poll : receiver_poll,
					     snd ? sender_done : receiver_done, t);
			if (!snd)
				pipe_of(h, gi, t->idx)->reader = t->w;
		}
	}
	h->running = h->ntasks;
	return 0;
}

static void hackbench_metric(struct workload *w, struct metric *mt)
{
	struct hackbench *h = w->priv;

	memset(mt, 0, sizeof(*mt));
	snprintf(mt->name, sizeof(mt->name), "elapsed");
	snprintf(mt->unit, sizeof(mt->unit), "s");
	mt->higher_better = false;
	mt->valid = h && h->finished;
	if (mt->valid)
		mt->value = (double)h->t_end / 1e9 * (double)h->c->loops / (double)h->rounds;
}

static void hackbench_destroy(struct workload *w)
{
	struct hackbench *h = w->priv;

	if (!h)
		return;
	for (int i = 0; i < h->ntasks; i++)
		worker_free(h->tasks[i].w);
	free(h->tasks);
	free(h->pipes);
	free(h);
	w->priv = NULL;
}

const struct workload_ops hackbench_ops = {
	.name = "hackbench",
	.summary = "MMTests hackbench-process-pipe (perf bench sched messaging --pipe): groups of "
		   "20 sender and 20 receiver processes, each sender writing loops x 100-byte "
		   "messages to every receiver of its group through Linux 5.1's pipes (16 pages, "
		   "writers blocked when full, readers when empty, woken through the guest "
		   "scheduler); PV system calls and switches cost more; metric elapsed (s, lower "
		   "is better); the run ends with the last task",
	.params = hackbench_params,
	.config_size = sizeof(struct hackbench_config),
	.setup = hackbench_setup,
	.hw = { 0.6, 256 << 10, 0.2 },
	.hw_source = "the kernel's pipe path, as netperf's over lo: smt_speed 0.6, working set "
		     "256 KiB (the group's pipes and the tasks' stacks), mem_intensity 0.2: a "
		     "modelling choice",
	.metric = hackbench_metric,
	.destroy = hackbench_destroy,
};
