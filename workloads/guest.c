/*
 * The guest layer (see guest.h): per-domain task scheduling on the
 * domain's vCPUs, and the coupling to Xen's scheduling core through two
 * hooks (a vCPU starts / stops running on a pCPU) and two calls
 * (vcpu_block when a guest CPU has nothing to run, vcpu_unblock when it
 * gets something).
 *
 * The current task of a guest CPU progresses only between vcpu_start and
 * vcpu_stop (from the moment the context switch is done), at the speed the
 * hardware model gives (sim/engine/hw.h).  One timer
 * per guest CPU fires when the current task's burst ends or its slice runs
 * out, whichever is first; it is re-armed whenever that changes, and when the
 * hardware says the speed changed (the work_sync hook: what ran until then is
 * accounted at the old speed).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/guest.h"
#include "workloads/kernel_ops.h"
#include "sim/xalloc.h"

enum action { ACT_NONE, ACT_RUN, ACT_CLAIM, ACT_SLEEP, ACT_BLOCK, ACT_EXIT };

/* Tasks in the order they came, linked through their next. */
struct task_fifo {
	struct task *head, *tail;
};

static void fifo_push(struct task_fifo *f, struct task *t)
{
	t->next = NULL;
	if (f->tail)
		f->tail->next = t;
	else
		f->head = t;
	f->tail = t;
}

static struct task *fifo_pop(struct task_fifo *f)
{
	struct task *t = f->head;

	if (t) {
		f->head = t->next;
		if (!f->head)
			f->tail = NULL;
		t->next = NULL;
	}
	return t;
}

struct guest_vcpu {
	struct guest *g;
	struct vcpu *v;
	int idx;
	struct task *curr;            /* task owning this guest CPU; NULL: idle */
	struct task_fifo irq;         /* ready interrupt-class tasks */
	struct task *rq;              /* ready normal tasks, by vruntime */
	int nr_rq;
	bool idle;                    /* cpu_idle() as of its last change (idle_sync) */
	bool on_pcpu;                 /* Xen runs the vCPU now */
	stime_t progress_from;        /* curr progresses from here while on_pcpu */
	struct hw_rate rate;          /* its speed since progress_from ... */
	const struct task *rate_for;  /* ... for this task (NULL: to be asked) */
	stime_t ran;                  /* curr's run time since it was picked (delta_exec) */
	stime_t min_vruntime;
	/*
	 * A woken task should preempt curr but cannot yet: curr's own step
	 * is running, or Xen has the vCPU descheduled.  Linux's
	 * need_resched, acted on when the step returns or the vCPU runs.
	 */
	bool need_resched;
	/*
	 * Tasks whose sleep timer expired while Xen did not run this vCPU:
	 * the guest's timer interrupt is taken when the vCPU next runs.
	 */
	struct task_fifo timer_irqs;
	/*
	 * cfs_rq->next and cfs_rq->last: the task a wake-up preempted curr
	 * for and the curr it preempted (check_preempt_wakeup), which the
	 * next pick prefers while they are at most a wake-up granularity
	 * ahead of the leftmost (pick_next_entity); NULL: none.
	 */
	struct task *next_buddy, *last_buddy;
	/* each buddy's dequeues when it was marked: guest_check holds them unchanged */
	unsigned next_buddy_mark, last_buddy_mark;
	struct timer work_timer;
	struct timer upcall_timer;    /* takes the pending timer interrupts */
	/* the timed tasks whose CPU it is, and its xen_view at the last pass (-1: none) */
	struct task *timed;
	int time_view;
	/* Linux's rq->idle_stamp (-1: not idle) and rq->avg_idle */
	stime_t idle_stamp, avg_idle;
	/* periodic balancing of this CPU while busy: sd->balance_interval, the timer */
	stime_t balance_interval;
	int nr_balance_failed;        /* sd->nr_balance_failed (busy_balance; 5.1: idle too) */
	stime_t idle_next_balance;    /* 5.1: when its next idle balance is due (rq->next_balance) */
	struct timer balance_timer;
	/* 5.1: the steal time its capacity loses (capacity_51), and the steal clock read last */
	struct pelt_avg steal_avg;
	stime_t steal_seen;
	stime_t stopped_at;           /* when Xen last took the vCPU off its pCPU */
	/*
	 * cpu_load's sum (Linux's cfs_rq runnable load, kept as enqueue and
	 * dequeue keep it): the load averages of its members, the normal curr
	 * and the queued tasks, each added as it joins (load_join) and taken
	 * off as it leaves (load_leave); it holds while no guest tick has
	 * passed since the last walk (load_tick: now / tick then, -1 none).
	 */
	double load_sum;
	stime_t load_tick;
};

struct task_group {
	int nr_runnable;              /* its tasks ready or running, on every CPU */
};

static struct guest_vcpu *gcpu(const struct task *t)
{
	return t->g->cpus[t->cpu];
}

static stime_t vmax(stime_t a, stime_t b)
{
	return a > b ? a : b;
}

/* load.weight of a nice-0 task (scale_load_down(NICE_0_LOAD)), and calc_cfs_shares' floor */
#define NICE_0_WEIGHT 1024.0
#define MIN_SHARES 2.0

/*
 * t's CFS weight: NICE_0_WEIGHT, or its share of its autogroup's (guest.h),
 * at least MIN_SHARES.  The larger of the two by a comparison: both are
 * numbers, where libm's fmax() was a call on every charge of a grouped task.
 */
static double task_weight(const struct task *t)
{
	double w;

	if (!t->tg || t->tg->nr_runnable <= 1)
		return NICE_0_WEIGHT;
	w = NICE_0_WEIGHT / t->tg->nr_runnable;
	return w > MIN_SHARES ? w : MIN_SHARES;
}

/* calc_delta_fair: run time d in t's vruntime (d itself at nice 0). */
static stime_t delta_fair(const struct task *t, stime_t d)
{
	double w = task_weight(t);

	return w == NICE_0_WEIGHT ? d : (stime_t)((double)d * NICE_0_WEIGHT / w);
}

static void set_this_cpu(struct guest_vcpu *gv)
{
	gv->g->sim->this_cpu = gv->v->processor;
}

/*
 * Time accounting (guest.h, enum task_time).  A timed task's category is
 * a function of its state, its guest CPU and Xen's view of that vCPU;
 * every entry into the guest layer ends with times_update(), which
 * charges the time since the last change to the category that held and
 * takes the new one.  Nothing changes between two events, so the
 * categories add up to the elapsed time exactly.
 */
static int time_category(const struct task *t)
{
	const struct guest_vcpu *gv;

	switch (t->state) {
	case TASK_BLOCKED:
		return TT_BLOCKED + t->block_reason;
	case TASK_DEAD:
		return TT_DONE;
	case TASK_SLEEPING:
		if (!t->timer_irq)
			return TT_SLEEP;
		break;
	case TASK_READY:
	case TASK_RUNNING:
		break;
	}
	/* only a task that may hold or wait for its CPU reads it */
	gv = gcpu(t);
	if (!gv->on_pcpu)
		return gv->v->st.woken_at >= 0 ? TT_XEN_WAKE : TT_XEN_WAIT;
	return gv->curr == t ? TT_RUN : TT_GUEST_WAIT;
}

static void time_charge(struct task *t, stime_t now)
{
	int cat = time_category(t);

	if (cat == t->time_cat)
		return;
	t->time_ns[t->time_cat] += now - t->time_from;
	t->time_from = now;
	t->time_cat = cat;
}

/*
 * What a timed task's category reads of its guest CPU beyond curr: 2 when
 * Xen runs the vCPU, else 1 while it waits after a wake-up, 0 otherwise.
 */
static int xen_view(const struct guest_vcpu *gv)
{
	return gv->on_pcpu ? 2 : gv->v->st.woken_at >= 0;
}

/* An input of t's own category (state, block reason, timer_irq, CPU, being curr) was written. */
static void time_mark(struct task *t)
{
	struct guest *g;

	if (!t || !t->timed || t->time_dirty)
		return;
	g = t->g;
	t->time_dirty = true;
	g->time_dirty[g->nr_time_dirty++] = t;
}

static void cpu_timed_link(struct task *t)
{
	struct guest_vcpu *gv = gcpu(t);

	t->cpu_timed_prev = NULL;
	t->cpu_timed_next = gv->timed;
	if (gv->timed)
		gv->timed->cpu_timed_prev = t;
	gv->timed = t;
}

static void cpu_timed_unlink(struct task *t)
{
	if (t->cpu_timed_prev)
		t->cpu_timed_prev->cpu_timed_next = t->cpu_timed_next;
	else
		gcpu(t)->timed = t->cpu_timed_next;
	if (t->cpu_timed_next)
		t->cpu_timed_next->cpu_timed_prev = t->cpu_timed_prev;
}

/* t takes guest CPU cpu; a timed task moves to that CPU's list. */
static void task_set_cpu(struct task *t, int cpu)
{
	if (t->timed)
		cpu_timed_unlink(t);
	t->cpu = cpu;
	if (t->timed)
		cpu_timed_link(t);
	time_mark(t);
}

/*
 * Called at the end of every entry into the guest layer; charges only
 * the tasks whose category may have changed since the last pass, which
 * charges nothing for the others.  A category reads the task's own state,
 * block reason, timer_irq and CPU, whether it is its CPU's curr (each
 * write marks the task: time_mark), and its CPU's xen_view: a write of
 * on_pcpu sets views_stale, and the domain's runstate_changes counts the
 * writes of its vCPUs' woken_at; then each guest CPU whose view moved
 * has all its timed tasks charged.  With fewer timed tasks than guest
 * CPUs (netperf's two), charging them all costs less than that scan, and
 * the views are not kept: each new timed task sets them unknown.
 * When nothing was written the pass returns at once: mutilate's client,
 * going from one system call to the next in the same state, makes most
 * of its events such entries.
 * A task not marked took its category at its CPU's time_view (a task
 * starts marked), so a view back where the last pass saw it has changed
 * none of them.  Charges are per task, so their order does not matter.
 * A guest without timed tasks returns at once, its views scanned at
 * the first pass with some.
 * guest_check holds every category current after each event.
 */
static void times_update(struct guest *g)
{
	stime_t now = sim_now(g->sim);
	struct task *const *dirty = g->time_dirty;
	int n = g->nr_time_dirty;

	if (!g->nr_timed)
		return;
	if (g->views_stale || g->dom->runstate_changes != g->runstate_seen) {
		g->views_stale = false;
		g->runstate_seen = g->dom->runstate_changes;
		if (g->nr_timed < g->nr_cpus) {
			for (int i = 0; i < g->nr_timed; i++)
				time_charge(g->timed[i], now);
		} else {
			for (int c = 0; c < g->nr_cpus; c++) {
				struct guest_vcpu *gv = g->cpus[c];
				int view = xen_view(gv);

				if (view == gv->time_view)
					continue;
				gv->time_view = view;
				for (struct task *t = gv->timed; t; t = t->cpu_timed_next)
					time_charge(t, now);
			}
		}
	}
	for (int i = 0; i < n; i++) {
		time_charge(dirty[i], now);
		dirty[i]->time_dirty = false;
	}
	g->nr_time_dirty = 0;
}

void task_time_start(struct sim *s, struct task *t)
{
	struct guest *g = t->g;

	if (!t->timed) {
		g->timed = xreallocarray(g->timed, (size_t)g->nr_timed + 1, sizeof(*g->timed));
		g->time_dirty = xreallocarray(g->time_dirty, (size_t)g->nr_timed + 1,
					      sizeof(*g->time_dirty));
		g->timed[g->nr_timed++] = t;
		t->timed = true;
		cpu_timed_link(t);
		for (int c = 0; c < g->nr_cpus; c++)
			g->cpus[c]->time_view = -1;     /* see times_update */
	}
	memset(t->time_ns, 0, sizeof(t->time_ns));
	t->time_from = sim_now(s);
	t->time_cat = time_category(t);
	time_mark(t);           /* its CPU's view may move before the next pass */
}

void task_time_read(struct sim *s, struct task *t, stime_t out[TT_N])
{
	memcpy(out, t->time_ns, sizeof(t->time_ns));
	if (t->timed)
		out[t->time_cat] += sim_now(s) - t->time_from;
}

void task_block_reason(struct task *t, int reason)
{
	if (reason < 0 || reason >= TASK_BLOCK_REASONS) {
		fprintf(stderr, "schedsim: internal error: task %s: block reason %d\n", t->name,
			reason);
		abort();
	}
	t->block_reason = reason;
	time_mark(t);
}

/* The speed of t on gv's vCPU, asked of the hardware model once per change. */
static const struct hw_rate *rate_of(struct guest_vcpu *gv, const struct task *t)
{
	if (gv->rate_for != t) {
		hw_rate(gv->g->sim->hw, gv->v, t->prof, &gv->rate);
		gv->rate_for = t;
	}
	return &gv->rate;
}

/* Charges the CPU time curr consumed since progress_from, and the work it did. */
static void account(struct guest_vcpu *gv, stime_t now)
{
	struct task *t = gv->curr;
	stime_t d, work;

	if (!gv->on_pcpu || !t || now <= gv->progress_from) {
		if (gv->on_pcpu && now > gv->progress_from)
			gv->progress_from = now;
		return;
	}
	d = now - gv->progress_from;
	work = hw_charge(&gv->v->st.hw, rate_of(gv, t), d);
	if (t->remaining != STIME_MAX)
		t->remaining -= work;
	t->vruntime += delta_fair(t, d);
	t->cpu_ns += d;
	gv->ran += d;
	gv->progress_from = now;
	if (t->cls == TASK_NORMAL) {
		stime_t m = t->vruntime;

		if (gv->rq && gv->rq->vruntime < m)
			m = gv->rq->vruntime;
		gv->min_vruntime = vmax(gv->min_vruntime, m);
	}
}

/*
 * sched_slice: curr's share of the period (__sched_period: sched_latency,
 * or min_granularity per task past sched_nr_latency of them) by its weight
 * against the queue's, curr's included.  With equal weights this is
 * max(latency / nr, min_granularity).
 */
static stime_t guest_slice(const struct guest_vcpu *gv)
{
	const struct guest_params *p = &gv->g->p;
	int nr = gv->nr_rq + 1;
	stime_t period = p->sched_latency, sl;
	double w = NICE_0_WEIGHT, total = NICE_0_WEIGHT;
	bool equal = true;

	/* without autogroups every weight is NICE_0_WEIGHT: no walk of the queue */
	if (gv->g->nr_groups) {
		w = total = task_weight(gv->curr);
		equal = w == NICE_0_WEIGHT;
		for (const struct task *t = gv->rq; t; t = t->next) {
			double tw = task_weight(t);

			total += tw;
			equal &= tw == NICE_0_WEIGHT;
		}
	}
	if (equal) {
		sl = p->sched_latency / nr;
		return sl < p->min_granularity ? p->min_granularity : sl;
	}
	if ((stime_t)nr * p->min_granularity > period)
		period = (stime_t)nr * p->min_granularity;
	return (stime_t)((double)period * w / total);
}

/*
 * Run time left before check_preempt_tick (kernel/sched/fair.c, 4.4-4.8)
 * preempts curr for the queue's leftmost task: when curr has run its
 * sched_slice since it was picked, or, after min_granularity, when its
 * vruntime is more than that slice ahead of the leftmost's.  The slice is
 * that of the queue as it is now, not as it was at the pick: a task woken
 * beside a curr picked alone cuts that curr's slice (24 ms on 16 CPUs) to
 * its share (12 ms with one other).  Linux tests this at each tick; the
 * model at the instant it holds.  Only meaningful with a task queued.
 */
static stime_t slice_left(const struct guest_vcpu *gv)
{
	stime_t ideal = guest_slice(gv);
	stime_t by_time = ideal - gv->ran;
	stime_t ahead = gv->curr->vruntime - gv->rq->vruntime;
	stime_t by_lag = vmax(gv->g->p.min_granularity - gv->ran, ideal - ahead + 1);

	return by_time < by_lag ? by_time : by_lag;
}

/* t has its CPU on a running vCPU: its burst's work is decided now (task_run_claimed). */
static void claim_now(struct sim *s, struct task *t)
{
	task_claim_fn claim = t->claim;
	stime_t work;

	t->claim = NULL;
	work = claim(s, t);
	t->remaining = (work > 0 ? work : 0) + t->exit_debt;
	t->exit_debt = 0;
}

/*
 * Times curr's next step: the end of its burst at its speed, or the end of
 * its slice.  Every path by which a task gets its CPU on a running vCPU
 * (resched, the vCPU starting) comes through here, so a claimed burst is
 * decided here.
 */
static void arm(struct guest_vcpu *gv)
{
	struct sim *s = gv->g->sim;
	struct task *t = gv->curr;
	stime_t left;

	if (!gv->on_pcpu || !t) {
		timer_stop(&s->q, &gv->work_timer);
		return;
	}
	if (t->claim)
		claim_now(s, t);
	left = hw_time_for(rate_of(gv, t), t->remaining);
	if (t->cls == TASK_NORMAL && gv->nr_rq > 0) {
		stime_t sl = vmax(slice_left(gv), 0);

		if (sl < left)
			left = sl;
	}
	if (left == STIME_MAX) {
		timer_stop(&s->q, &gv->work_timer);
		return;
	}
	timer_set(&s->q, &gv->work_timer, vmax(gv->progress_from, sim_now(s)) + vmax(left, 0));
}

/*
 * A guest CPU is idle (Linux's idle_cpu) when it runs no task of its own
 * (interrupt work runs on the idle task) and none waits.  gv->idle keeps
 * that, and g->nr_idle counts them, so that asking whether any CPU is idle
 * needs no scan: every write of curr, nr_rq or the current task's class
 * calls idle_sync(), and guest_check holds both equal to a recount.
 */
static inline bool idle_now(const struct guest_vcpu *gv)
{
	return (!gv->curr || gv->curr->cls == TASK_IRQ) && gv->nr_rq == 0;
}

static inline void idle_sync(struct guest_vcpu *gv)
{
	bool idle = idle_now(gv);

	if (idle != gv->idle) {
		gv->idle = idle;
		gv->g->nr_idle += idle ? 1 : -1;
	}
}

/*
 * t, runnable, joins gv's load sum (cpu_load) with its average as it is:
 * brought through the ticks due by whatever let it join, where it may not
 * be (load_ticks).  Without autogroups (the only case the sum is read in)
 * a member's load is its load_avg, an integer, so the sum is exact in any
 * order.
 */
static inline void load_join(struct guest_vcpu *gv, const struct task *t)
{
	gv->load_sum += t->load.load_avg;
}

/*
 * t's average brought through the ticks due, as a walk would bring it
 * (pelt_tick_updates: which ticks have been applied does not depend on
 * when), before it joins a sum it was not up to date for: moved from a
 * CPU whose sum may not have been walked in this tick, or becoming a
 * normal task.  A task made ready is (load_set), and one joining the CPU
 * it left is while that CPU's sum holds.
 */
static inline void load_ticks(struct task *t, stime_t now)
{
	if (t->load_on)
		pelt_tick_updates(&t->load, now, t->g->p.tick);
}

/* t leaves gv's load sum, with the average it has been counted at. */
static inline void load_leave(struct guest_vcpu *gv, const struct task *t)
{
	gv->load_sum -= t->load.load_avg;
}

static void rq_insert(struct guest_vcpu *gv, struct task *t)
{
	struct task **pp;

	if (t->cls == TASK_IRQ) {
		fifo_push(&gv->irq, t);
		return;
	}
	for (pp = &gv->rq; *pp && (*pp)->vruntime <= t->vruntime; pp = &(*pp)->next)
		;
	t->next = *pp;
	*pp = t;
	gv->nr_rq++;
	load_join(gv, t);
	gv->g->nr_queued++;
	if (gv->idle) {         /* a waiting task: not idle */
		gv->idle = false;
		gv->g->nr_idle--;
	}
}

/* clear_buddies: t is no longer gv's next or last buddy (picked, or off its queue). */
static inline void clear_buddies(struct guest_vcpu *gv, const struct task *t)
{
	if (gv->next_buddy == t)
		gv->next_buddy = NULL;
	if (gv->last_buddy == t)
		gv->last_buddy = NULL;
}

/* Takes the normal task at *pp off gv's queue. */
static inline struct task *rq_unlink(struct guest_vcpu *gv, struct task **pp)
{
	struct task *t = *pp;

	clear_buddies(gv, t);
	t->dequeues++;
	*pp = t->next;
	t->next = NULL;
	gv->nr_rq--;
	load_leave(gv, t);
	gv->g->nr_queued--;
	if (!gv->nr_rq)         /* with tasks still waiting it stays busy */
		idle_sync(gv);
	return t;
}

/*
 * gv's running task leaves its CPU, ready (put_prev_task's bookkeeping):
 * charged up to now, its last run stamped, the CPU without a current task.
 * Returns it, on no queue.
 */
static struct task *curr_off(struct guest_vcpu *gv, stime_t now)
{
	struct task *t = gv->curr;

	account(gv, now);
	t->state = TASK_READY;
	t->last_ran = now;
	if (t->cls == TASK_NORMAL)
		load_leave(gv, t);
	gv->curr = NULL;
	time_mark(t);           /* its state, and it is no longer gv's curr */
	idle_sync(gv);
	return t;
}

/* t, on no queue, moves from `from` to `to`, keeping its lag (migrate_task_rq_fair). */
static void task_moved(struct guest_vcpu *from, struct guest_vcpu *to, struct task *t)
{
	clear_buddies(from, t);
	t->dequeues++;
	load_ticks(t, sim_now(t->g->sim));
	t->vruntime = t->vruntime - from->min_vruntime + to->min_vruntime;
	task_set_cpu(t, to->idx);
}

/*
 * wakeup_preempt_entity(b, leftmost) < 1: b is not more than a wake-up
 * granularity (in the leftmost's vruntime) ahead of the leftmost.
 */
static bool buddy_fair(const struct guest_vcpu *gv, const struct task *b)
{
	const struct task *left = gv->rq;

	return b->vruntime - left->vruntime <= delta_fair(left, gv->g->p.wakeup_granularity);
}

/*
 * A buddy mark that outlived a dequeue of its task (a clear_buddies
 * missed): guest_check's test.
 */
static bool buddy_stale(const struct guest_vcpu *gv)
{
	return (gv->next_buddy && gv->next_buddy->dequeues != gv->next_buddy_mark) ||
	       (gv->last_buddy && gv->last_buddy->dequeues != gv->last_buddy_mark);
}

static bool check_fail(struct sim *s, const struct guest_vcpu *gv, const char *what);
#define BUDDY_STALE "guest CPU's buddy was dequeued since it was marked (clear_buddies)"

static struct task *rq_pop(struct guest_vcpu *gv)
{
	struct task *pick, **pp;

	if (gv->irq.head)
		return fifo_pop(&gv->irq);
	if (!gv->rq)
		return NULL;
	/* pick_next_entity: the leftmost, else the last buddy, else the next, if fair */
	pick = gv->rq;
	if (gv->next_buddy || gv->last_buddy) {
		struct sim *s = gv->g->sim;

		/*
		 * Under --check a stale mark is reported here, where the pick
		 * would follow it off the queue within the event, and not
		 * followed.
		 */
		if (s->check && buddy_stale(gv)) {
			if (!s->check_error[0])
				check_fail(s, gv, BUDDY_STALE);
			gv->next_buddy = gv->last_buddy = NULL;
		}
		if (gv->last_buddy && buddy_fair(gv, gv->last_buddy))
			pick = gv->last_buddy;
		if (gv->next_buddy && buddy_fair(gv, gv->next_buddy))
			pick = gv->next_buddy;
	}
	for (pp = &gv->rq; *pp != pick; pp = &(*pp)->next)
		;
	return rq_unlink(gv, pp);
}

/*
 * Placement and balancing, after Linux 4.4 kernel/sched/fair.c (the
 * dom0 and guest kernels of a 2016 host).  The guest sees its vCPUs as
 * one flat sched domain (no SMT siblings, one LLC), so a sched group is
 * one CPU.  Parameters: guest_params (default_params) and the constants
 * here, each with its source.
 */

/*
 * t's runnable load average (se.avg.load_avg, pelt.h) as of its last
 * update: when it last became runnable or stopped being runnable, or the
 * last guest tick since while it is runnable (entity_tick; Linux updates
 * the running task there and the queued ones in their CPU's sum).  A
 * sleeping task's is as of its sleep, as wake_affine reads a wakee's.
 * Times its weight: for a task of an autogroup, what its group's entity
 * contributes (task_h_load).
 */
static double task_load(struct task *t, stime_t now)
{
	double w = task_weight(t);

	if (t->load_on)
		pelt_tick_updates(&t->load, now, t->g->p.tick);
	return w == NICE_0_WEIGHT ? t->load.load_avg : t->load.load_avg * w / NICE_0_WEIGHT;
}

/* t becomes runnable (on, enqueue) or stops being runnable (dequeue): its average's update. */
static void load_set(struct task *t, stime_t now, bool on)
{
	if (t->tg && on != t->load_on)
		t->tg->nr_runnable += on ? 1 : -1;
	if (t->load_on)
		pelt_tick_updates(&t->load, now, t->g->p.tick);
	pelt_update(&t->load, now, t->load_on);
	t->load_on = on;
	t->dequeues += !on;     /* dequeue_entity (guest_check's buddy test) */
}

/* weighted_cpuload's sum, walked: the runnable load of the CPU's normal tasks. */
static double cpu_load_walk(const struct guest_vcpu *gv, stime_t now)
{
	double l = 0;

	if (gv->curr && gv->curr->cls == TASK_NORMAL)
		l += task_load(gv->curr, now);
	for (struct task *t = gv->rq; t; t = t->next)
		l += task_load(t, now);
	return l;
}

/*
 * weighted_cpuload.  A wake-up asks it of two CPUs and a balance of every
 * CPU, and with hackbench's hundreds of tasks the queues are long, so the
 * sum is kept (struct guest_vcpu, load_sum) as members join and leave, the
 * same bits as a walk: a member's load changes only at the guest ticks
 * that task_load applies (the walk leaves every member updated to the last
 * tick at or before now, a member joining is brought there, so until the
 * next tick there is none to apply) and at load_set, which is called on
 * no member (make_ready's task joins after it, step_once's leaves before
 * it).  At the first call in a tick the sum is walked.  With autogroups a
 * task's weight follows its group's runnable count on every CPU, so there
 * the sum is walked each time.  guest_check holds every sum that applies
 * equal to a walk.
 */
static double cpu_load(struct guest_vcpu *gv, stime_t now)
{
	stime_t tick;

	if (gv->g->nr_groups)
		return cpu_load_walk(gv, now);
	tick = now / gv->g->p.tick;
	if (gv->load_tick != tick) {
		gv->load_sum = cpu_load_walk(gv, now);
		gv->load_tick = tick;
	}
	return gv->load_sum;
}

/* idle_cpu(): no task of its own (interrupt work runs on the idle task); see idle_now. */
static bool cpu_idle(const struct guest_vcpu *gv)
{
	return gv->idle;
}

/*
 * wake_affine (4.4): move the wakee to the waker's CPU when that CPU's
 * load with the wakee is no more than its previous CPU's load without it
 * (effective_load(tg, prev_cpu, 0, weight) is 0 for the root group),
 * allowing half the domain's imbalance_pct; a waker's CPU with no load
 * at all always qualifies.  The capacities are equal:
 * with the Kconfig default TICK_CPU_ACCOUNTING, interrupt time does not
 * lower a CPU's capacity (scale_rt_capacity sees no IRQ time).  Wakes
 * are taken as not WF_SYNC.
 */
static bool wake_affine(const struct guest *g, struct task *t, int this_cpu,
			int prev_cpu, stime_t now)
{
	double this_load = cpu_load(g->cpus[this_cpu], now);
	double load = cpu_load(g->cpus[prev_cpu], now);
	double weight = task_load(t, now);
	double this_eff = 100, prev_eff = 100 + (g->p.imbalance_pct - 100) / 2.0;

	if (this_load > 0) {
		this_eff *= this_load + weight;
		prev_eff *= load;
	}
	return this_eff <= prev_eff;
}

/*
 * select_idle_sibling (4.4): the target if it is idle, else the previous
 * CPU if it is idle, else the first idle CPU after the target in the
 * domain's group order, else the target.
 */
static int select_idle_sibling(const struct guest *g, int prev, int target)
{
	if (cpu_idle(g->cpus[target]))
		return target;
	if (prev != target && cpu_idle(g->cpus[prev]))
		return prev;
	if (!g->nr_idle)        /* the scan would find none */
		return target;
	for (int i = 1; i < g->nr_cpus; i++) {
		int c = (target + i) % g->nr_cpus;

		if (cpu_idle(g->cpus[c]))
			return c;
	}
	return target;
}

/*
 * Placement of a 5.1 guest kernel (<domain kernel="5.1">), after Linux 5.1
 * kernel/sched/fair.c: select_task_rq_fair with wake_wide, wake_affine
 * (wake_affine_idle, then wake_affine_weight), select_idle_sibling with
 * recent_used_cpu, and find_idlest_cpu for a fork.  The vCPUs form one
 * sched domain of single-CPU groups (the guest sees no SMT siblings);
 * whether they also share an LLC is the domain's llc= (guest_kernel.h):
 * with llc="vcpu" there is no sd_llc, cpus_share_cache holds only for a
 * CPU and itself, sd_llc_size is 1, and select_idle_sibling never looks
 * past its target and prev.  The parameters are the 4.4 model's
 * (default_params): sd->imbalance_pct 125, the load indices
 * (wake_idx, forkexec_idx) 0 as sd_init sets them, so target_load and
 * source_load are the CPU's runnable load.  The capacities are equal
 * (wake_cap is 0).  Not modelled: SIS_PROP's bound on the idle scan (the
 * scan here visits every CPU of the LLC), select_idle_core (no SMT
 * siblings), PF_EXITING (a waker is never exiting).
 */

/* cpus_share_cache: the same sd_llc_id. */
static bool share_cache(const struct guest *g, int a, int b)
{
	return a == b || g->llc == GUEST_LLC_SHARED;
}

/* rq->nr_running of a CPU (its fair tasks: interrupt work is not a task). */
static int nr_running(const struct guest_vcpu *gv)
{
	return (gv->curr && gv->curr->cls == TASK_NORMAL) + gv->nr_rq;
}

/* record_wakee: the waker's count of changes of wakee, halved once a second. */
static void record_wakee(struct task *waker, struct task *p, stime_t now)
{
	if (now > waker->wakee_flip_decay_ts + SEC(1)) {
		waker->wakee_flips >>= 1;
		waker->wakee_flip_decay_ts = now;
	}
	if (waker->last_wakee != p) {
		waker->last_wakee = p;
		waker->wakee_flips++;
	}
}

/* wake_wide: waker and wakee switch partners more often than an LLC has CPUs. */
static bool wake_wide(const struct guest *g, const struct task *waker, const struct task *p)
{
	unsigned master = waker ? waker->wakee_flips : 0, slave = p->wakee_flips;
	unsigned factor = g->llc == GUEST_LLC_SHARED ? (unsigned)g->nr_cpus : 1;

	if (master < slave) {
		unsigned x = master;

		master = slave;
		slave = x;
	}
	return !(slave < factor || master < slave * factor);
}

/*
 * wake_affine_weight (5.1): this CPU if its load with the wakee, less the
 * waker's own on a sync wake, is below prev's load less the wakee's, the
 * latter raised by half the domain's imbalance_pct (in Linux's integer
 * arithmetic); a sync wake takes this CPU outright when the waker is its
 * whole load, and wins a tie.
 */
static bool wake_affine_weight(const struct guest *g, struct task *p, struct task *waker,
			       int this_cpu, int prev_cpu, bool sync, stime_t now)
{
	double this_eff = cpu_load(g->cpus[this_cpu], now), prev_eff, load;
	int bias = 100 + (g->p.imbalance_pct - 100) / 2;

	if (sync) {
		double cur = waker ? task_load(waker, now) : 0;

		if (cur > this_eff)
			return true;
		this_eff -= cur;
	}
	load = task_load(p, now);
	this_eff = (this_eff + load) * 100 * NICE_0_WEIGHT;
	prev_eff = (cpu_load(g->cpus[prev_cpu], now) - load) * bias * NICE_0_WEIGHT;
	if (sync)
		prev_eff += 1;
	return this_eff < prev_eff;
}

/* wake_affine (5.1): wake_affine_idle, else wake_affine_weight; prev_cpu if neither. */
static int wake_affine_51(const struct guest *g, struct task *p, struct task *waker,
			  int this_cpu, int prev_cpu, bool sync, stime_t now)
{
	const struct guest_vcpu *tc = g->cpus[this_cpu];

	if (cpu_idle(tc) && share_cache(g, this_cpu, prev_cpu))
		return cpu_idle(g->cpus[prev_cpu]) ? prev_cpu : this_cpu;
	if (sync && nr_running(tc) == 1)
		return this_cpu;
	return wake_affine_weight(g, p, waker, this_cpu, prev_cpu, sync, now) ? this_cpu
									    : prev_cpu;
}

/*
 * select_idle_sibling (5.1): the target if idle; prev if idle and sharing
 * the target's cache; the wakee's recent_used_cpu on the same terms (it
 * then remembers prev); with an sd_llc, the first idle CPU of the LLC from
 * the target on (select_idle_cpu); else the target.
 */
static int select_idle_sibling_51(const struct guest *g, struct task *p, int prev, int target)
{
	int r = p->recent_used_cpu;

	if (cpu_idle(g->cpus[target]))
		return target;
	if (prev != target && share_cache(g, prev, target) && cpu_idle(g->cpus[prev]))
		return prev;
	if (r >= 0 && r != prev && r != target && share_cache(g, r, target) &&
	    cpu_idle(g->cpus[r])) {
		p->recent_used_cpu = prev;
		return r;
	}
	if (g->llc != GUEST_LLC_SHARED || !g->nr_idle)
		return target;
	for (int i = 1; i < g->nr_cpus; i++) {
		int c = (target + i) % g->nr_cpus;

		if (cpu_idle(g->cpus[c]))
			return c;
	}
	return target;
}

/*
 * cfs_rq_load_avg: the load of the CPU's fair tasks, runnable or blocked
 * there (a sleeper's average decayed to now), but for 'skip'.
 */
static double cpu_load_avg(const struct guest *g, int cpu, const struct task *skip, stime_t now)
{
	double l = 0;

	for (int i = 0; i < g->nr_tasks; i++) {
		struct task *x = g->tasks[i];
		struct pelt_avg a;

		if (x == skip || x->cpu != cpu || x->cls != TASK_NORMAL || x->state == TASK_DEAD)
			continue;
		if (x->load_on) {
			l += task_load(x, now);
			continue;
		}
		a = x->load;
		pelt_update(&a, now, false);
		l += a.load_avg * task_weight(x) / NICE_0_WEIGHT;
	}
	return l;
}

/*
 * find_idlest_cpu for a fork (SD_BALANCE_FORK) from this_cpu, whose
 * previous process (p's) has exited: find_idlest_group over the one
 * domain's single-CPU groups, visited from the one after the local CPU
 * (build_sched_groups' order), with forkexec_idx 0 and no spare-capacity
 * test (skipped for a fork).  A group replaces the idlest so far when its
 * runnable load is lower by more than the imbalance (a nice-0 load times
 * imbalance_pct - 100 per cent), or when it is no higher by that much and
 * its load average (blocked load included) is lower by more than half
 * the imbalance_pct; the local CPU is kept when the idlest is not lower
 * on the same terms.  A group of one CPU is its own idlest CPU.
 */
static int fork_cpu(struct guest *g, struct task *p, int this_cpu, stime_t now)
{
	double imb = NICE_0_WEIGHT * (g->p.imbalance_pct - 100) / 100;
	int scale = 100 + (g->p.imbalance_pct - 100) / 2, idlest = -1;
	double this_rl = 0, this_al = cpu_load_avg(g, this_cpu, p, now);
	double min_rl = INFINITY, min_al = INFINITY;
	const struct guest_vcpu *tc = g->cpus[this_cpu];

	if (tc->curr && tc->curr != p && tc->curr->cls == TASK_NORMAL)
		this_rl += task_load(tc->curr, now);
	for (struct task *x = tc->rq; x; x = x->next)
		if (x != p)
			this_rl += task_load(x, now);
	for (int i = 1; i < g->nr_cpus; i++) {
		int c = (this_cpu + i) % g->nr_cpus;
		double rl = cpu_load(g->cpus[c], now), al = cpu_load_avg(g, c, p, now);

		if (min_rl > rl + imb) {
			min_rl = rl;
			min_al = al;
			idlest = c;
		} else if (rl < min_rl + imb && 100 * min_al > scale * al) {
			min_al = al;
			idlest = c;
		}
	}
	if (idlest < 0 || min_rl > this_rl + imb ||
	    (this_rl < min_rl + imb && 100 * this_al < scale * min_al))
		return this_cpu;
	return idlest;
}

/* select_task_rq_fair (5.1) for a wake-up (SD_BALANCE_WAKE) or a fork. */
static int select_cpu_51(struct task *t, int this_cpu, struct task *waker, bool sync,
			 bool fork, stime_t now)
{
	struct guest *g = t->g;
	int prev = t->cpu, new_cpu = prev;
	bool want_affine;

	if (this_cpu < 0)         /* a timer's wake: on the task's own CPU */
		this_cpu = prev;
	if (fork)
		return fork_cpu(g, t, this_cpu, now);
	if (waker)
		record_wakee(waker, t, now);
	want_affine = !wake_wide(g, waker, t);
	if (want_affine && this_cpu != prev)
		new_cpu = wake_affine_51(g, t, waker, this_cpu, prev, sync, now);
	new_cpu = select_idle_sibling_51(g, t, prev, new_cpu);
	if (want_affine && waker)
		waker->recent_used_cpu = this_cpu;
	return new_cpu;
}

/* select_task_rq_fair for a wake-up (SD_BALANCE_WAKE), or a fork under 5.1. */
static int select_cpu(struct task *t, bool fork, stime_t now)
{
	struct guest *g = t->g;
	int prev = t->cpu, this_cpu = t->waker_cpu, target = prev;
	struct task *waker = t->waker;
	bool sync = t->wake_sync;

	t->waker_cpu = -1;
	t->waker = NULL;
	t->wake_sync = false;
	if (t->bound)
		return prev;
	if (g->kernel == GUEST_KERNEL_5_1)
		return select_cpu_51(t, this_cpu, waker, sync, fork, now);
	if (this_cpu >= 0 && this_cpu != prev && wake_affine(g, t, this_cpu, prev, now))
		target = this_cpu;
	if (g->llc != GUEST_LLC_SHARED)       /* 4.4 without an sd_llc: the target, idle or not */
		return target;
	return select_idle_sibling(g, prev, target);
}

/* task_hot: it ran less than sysctl_sched_migration_cost ago. */
static bool cache_hot(const struct guest *g, const struct task *t, stime_t now)
{
	return now - t->last_ran < g->p.migration_cost;
}

/* The first task of gv's queue that may move (not bound, not cache-hot), or NULL. */
static struct task **movable(struct guest_vcpu *gv, stime_t now)
{
	struct task **pp;

	for (pp = &gv->rq; *pp; pp = &(*pp)->next)
		if (!(*pp)->bound && !cache_hot(gv->g, *pp, now))
			return pp;
	return NULL;
}

/*
 * Takes a waiting task off the busiest other CPU, for an idle one
 * (load_balance with the dst CPU idle): only a CPU with a task waiting
 * behind another is a source (a lone running task stays: find_busiest_group
 * finds no imbalance worth it), and of its queue a task that may move.  A
 * CPU whose waiting tasks cannot move is passed over, as Linux's balancer
 * retries without an all-pinned CPU.  The task keeps its lag behind the
 * queue it leaves (migrate_task_rq_fair).
 */
static struct task *pull_task(struct guest_vcpu *to, stime_t now)
{
	struct guest *g = to->g;
	struct guest_vcpu *busiest = NULL;
	struct task **pp = NULL, **cand, *t;
	double busiest_load = 0;
	int i;

	/* Most of the time nothing waits anywhere: skip the scan. */
	if (g->nr_queued - to->nr_rq <= 0)
		return NULL;
	for (i = 0; i < g->nr_cpus; i++) {
		struct guest_vcpu *o = g->cpus[i];
		double l;

		/* load_balance moves tasks only off a CPU running more than one */
		if (o == to || o->nr_rq == 0 ||
		    o->nr_rq + (o->curr && o->curr->cls == TASK_NORMAL) < 2)
			continue;
		l = cpu_load(o, now);
		if (busiest && l <= busiest_load)
			continue;
		cand = movable(o, now);
		if (cand) {
			busiest = o;
			busiest_load = l;
			pp = cand;
		}
	}
	if (!busiest)
		return NULL;
	t = rq_unlink(busiest, pp);
	task_moved(busiest, to, t);
	return t;
}

/*
 * idle_balance: a CPU about to go idle pulls only if it has been idle long
 * enough on average to pay for it (rq->avg_idle >= migration cost); under
 * a 5.1 guest kernel as idle_pull_51 says.
 */
static struct task *idle_pull_51(struct guest_vcpu *to, bool newidle, stime_t now);

static struct task *newidle_pull(struct guest_vcpu *gv, stime_t now)
{
	if (!gv->g->idle_pull || gv->avg_idle < gv->g->p.migration_cost)
		return NULL;
	if (gv->g->kernel == GUEST_KERNEL_5_1)
		return idle_pull_51(gv, true, now);
	return pull_task(gv, now);
}

static bool should_preempt(struct guest_vcpu *gv, struct task *t);
static inline void preempt_curr(struct guest_vcpu *gv);
static void resched(struct guest_vcpu *gv);

/* Ready normal tasks on gv, the running one included (rq->cfs.h_nr_running). */
static int cpu_nr_running(const struct guest_vcpu *gv)
{
	return gv->nr_rq + (gv->curr && gv->curr->cls == TASK_NORMAL);
}

/*
 * How much load a busy CPU with load `local` should pull from the busiest
 * CPU, `busiest` (calculate_imbalance and fix_small_imbalance, 4.4-4.8,
 * for sched groups of one CPU of equal capacity; avg is the domain's
 * average load per CPU).  0: balanced.
 */
static double busy_imbalance(double local, int nr_local, double busiest, int nr_busiest,
			     double avg)
{
	double lpt_b = busiest / nr_busiest, lpt_l = nr_local ? local / nr_local : 0;
	double imb = 0, now, move;
	int imbn = 2;

	if (busiest > avg && local < avg)
		imb = fmin(busiest - avg, avg - local);
	if (imb >= lpt_b)
		return imb;
	if (lpt_b > lpt_l)
		imbn = 1;
	if (busiest + lpt_b >= local + lpt_b * imbn)
		return lpt_b;
	/* no imbalance worth it, unless moving a task adds used capacity */
	now = fmin(lpt_b, busiest) + fmin(lpt_l, local);
	move = (busiest > lpt_b ? fmin(lpt_b, busiest - lpt_b) : 0) +
	       fmin(lpt_l, local + fmin(busiest, lpt_b));
	return move > now ? lpt_b : 0;
}

/*
 * load_balance's failure count (sd->nr_balance_failed, 4.4-4.8): a busy
 * CPU's balance that finds an imbalance but moves nothing counts a
 * failure; past the domain's cache_nice_tries (1: sd_init for an MC or
 * NUMA-less flat domain) can_migrate_task lets cache-hot tasks go, and
 * past cache_nice_tries + 2 need_active_balance has the busiest CPU's
 * stopper push a task (active_load_balance_cpu_stop), after which the
 * count is set to cache_nice_tries + 1.  A balanced domain resets it.
 */
#define CACHE_NICE_TRIES 1

enum balance_result { BAL_BALANCED, BAL_MOVED, BAL_FAILED, BAL_ACTIVE };

/* Moves t, off every queue, from busiest to `to`'s queue (task_moved). */
static void attach_moved(struct guest_vcpu *busiest, struct guest_vcpu *to, struct task *t)
{
	task_moved(busiest, to, t);
	rq_insert(to, t);
}

/*
 * active_load_balance_cpu_stop: the stopper preempts the busiest CPU's
 * task and detach_one_task moves the first movable task of its cfs_tasks
 * list, the most recently enqueued one (account_entity_enqueue adds at
 * the head), cache-hot or not.  The stopper needs its CPU: only while Xen
 * runs that vCPU and no interrupt work holds it; otherwise the next
 * balance tries again.  Returns the task moved, or NULL.
 */
static struct task *active_pull(struct guest_vcpu *busiest, struct guest_vcpu *to, stime_t now)
{
	struct task *t = NULL, **pp, **from = NULL;

	if (!busiest->on_pcpu || !busiest->curr || busiest->curr->cls != TASK_NORMAL)
		return NULL;
	if (!busiest->curr->bound)
		t = busiest->curr;
	for (pp = &busiest->rq; *pp; pp = &(*pp)->next)
		if (!(*pp)->bound && (!t || (*pp)->enqueued_at > t->enqueued_at)) {
			t = *pp;
			from = pp;
		}
	if (!t)
		return NULL;
	if (from) {
		attach_moved(busiest, to, rq_unlink(busiest, from));
		arm(busiest);
		return t;
	}
	attach_moved(busiest, to, curr_off(busiest, now));
	resched(busiest);
	return t;
}

/*
 * A 5.1 guest's capacity of a CPU that Xen does not always run (Linux 5.1
 * with CONFIG_PARAVIRT_TIME_ACCOUNTING, kernel/sched/core.c
 * update_rq_clock_task): the steal time Xen's runstate area reports
 * (drivers/xen/time.c xen_steal_clock: time runnable or offline, which an
 * HVM guest with the vector callback reads too, arch/x86/xen/time.c) is
 * taken from the task clock and, with sched_feat(NONTASK_CAPACITY),
 * averaged by update_irq_load_avg as PELT time "running" at the end of
 * each update's interval; scale_rt_capacity / scale_irq_capacity then
 * leave a CPU (1024 - that average) of its 1024, with no RT or deadline
 * work.  The average is brought up to now from the vCPU's runstate times
 * (struct vcpu_stats), the steal clock Xen keeps, in pelt.h's arithmetic
 * (4.4's; 5.1's average decays by the same y per 1024 us period).
 */
static stime_t steal_clock(const struct vcpu *v, stime_t now)
{
	stime_t st = v->st.runstate_ns[RUNSTATE_RUNNABLE] + v->st.runstate_ns[RUNSTATE_OFFLINE];

	if (v->runstate == RUNSTATE_RUNNABLE || v->runstate == RUNSTATE_OFFLINE)
		st += now - v->runstate_entry;
	return st;
}

static unsigned capacity_51(struct guest_vcpu *gv, stime_t now)
{
	stime_t total = steal_clock(gv->v, now), d = total - gv->steal_seen;

	if (d < 0)
		d = 0;
	if (d > now - gv->steal_avg.last_update)
		d = now - gv->steal_avg.last_update;
	pelt_update(&gv->steal_avg, now - d, false);
	pelt_update(&gv->steal_avg, now, true);
	gv->steal_seen = total;
	return gv->steal_avg.load_avg >= PELT_FULL ? 1 : PELT_FULL - gv->steal_avg.load_avg;
}

/*
 * check_cpu_capacity: steal (here the only non-CFS use) took more than
 * imbalance_pct leaves of a capacity cap (capacity_51's).
 */
static bool capacity_reduced(const struct guest *g, unsigned cap)
{
	return (uint64_t)cap * (uint64_t)g->p.imbalance_pct < (uint64_t)PELT_FULL * 100u;
}

/* The CPU runs one CFS task, which may move, and nothing waits: cfs.h_nr_running == 1. */
static struct task *single_movable(const struct guest_vcpu *gv)
{
	struct task *t = gv->curr;

	if (gv->nr_rq != 0 || !t || t->cls != TASK_NORMAL || t->bound)
		return NULL;
	return t;
}

/*
 * The active balance a newly idle CPU starts for a CPU that runs a single
 * task on a capacity steal time reduced (Linux 5.1 kernel/sched/fair.c,
 * load_balance with CPU_NEWLY_IDLE): find_busiest_group's imbalance_pct
 * test passes against the idle CPU's zero load and calculate_imbalance
 * leaves one; find_busiest_queue keeps a single-task rq only when
 * check_cpu_capacity says it is reduced; detach_tasks cannot take the
 * running task, so need_active_balance decides (voluntary_active_balance:
 * the idle CPU's capacity exceeds the busy one's by imbalance_pct).  Of
 * several, the lowest capacity is the busiest (highest avg_load, load
 * over capacity, for equal loads).  A CPU_IDLE balance never gets here
 * (idle_pull_51).  The stopper (active_load_balance_cpu_stop) needs the
 * busy CPU: only while Xen runs that vCPU (active_pull's rule).  Returns
 * the task, off every queue and moved to `to`'s clock, or NULL.
 */
static struct task *active_pull_51(struct guest_vcpu *to, stime_t now)
{
	struct guest *g = to->g;
	struct guest_vcpu *busiest = NULL;
	unsigned here = capacity_51(to, now), low = 0;
	struct task *t;

	for (int i = 0; i < g->nr_cpus; i++) {
		struct guest_vcpu *o = g->cpus[i];
		unsigned c;

		if (o == to || !single_movable(o))
			continue;
		c = capacity_51(o, now);
		if (!capacity_reduced(g, c) ||
		    (uint64_t)c * (uint64_t)g->p.imbalance_pct >= (uint64_t)here * 100u)
			continue;
		if (!busiest || c < low) {
			busiest = o;
			low = c;
		}
	}
	if (!busiest || !busiest->on_pcpu)
		return NULL;
	t = curr_off(busiest, now);
	resched(busiest);
	task_moved(busiest, to, t);
	return t;
}

/* A CPU of g runs a single task on a capacity steal time reduced (nohz_balancer_kick's test). */
static bool capacity_kick_51(struct guest *g, stime_t now)
{
	if (g->kernel != GUEST_KERNEL_5_1)
		return false;
	for (int i = 0; i < g->nr_cpus; i++)
		if (single_movable(g->cpus[i]) && g->cpus[i]->on_pcpu &&
		    capacity_reduced(g, capacity_51(g->cpus[i], now)))
			return true;
	return false;
}

/*
 * rd->overload as idle_balance reads it: some CPU runs more than one task
 * (add_nr_running sets it when a run queue reaches two; the root domain's
 * next load_balance, update_sd_lb_stats, sets it to what it sees).  Taken
 * here as the state of the moment, as if that balance had just run.
 */
static bool rd_overload_51(const struct guest *g)
{
	for (int i = 0; i < g->nr_cpus; i++)
		if (cpu_nr_running(g->cpus[i]) >= 2)
			return true;
	return false;
}

/*
 * load_balance for an idle CPU under a 5.1 guest kernel (Linux 5.1
 * kernel/sched/fair.c): CPU_NEWLY_IDLE from idle_balance, CPU_IDLE from
 * nohz_idle_balance -> rebalance_domains.  The domain's groups are single
 * CPUs of equal capacity.  find_busiest_group: the most loaded CPU running
 * more than one task (taken as group_overloaded, whose util_avg exceeds
 * capacity / imbalance_pct: two tasks sharing a CPU keep it busy), which an
 * idle CPU with spare capacity pulls from at once (force_balance, no
 * imbalance_pct test); a CPU whose waiting tasks are all bound is passed
 * over (LBF_ALL_PINNED, the redo without it).  detach_tasks walks the
 * queue from its least recently queued task (the tail of rq->cfs_tasks);
 * can_migrate_task refuses a bound task, the running one, and a cache-hot
 * one (task_hot: it ran less than sysctl_sched_migration_cost ago) unless
 * sd->nr_balance_failed > sd->cache_nice_tries.  A balance that moves
 * nothing counts a failure, but not a newly idle one (load_balance:
 * nr_balance_failed grows for idle != CPU_NEWLY_IDLE); a move, or no
 * busiest CPU, resets the count.  need_active_balance (failures past
 * cache_nice_tries + 2) is not reached here: the second failure already
 * lets a cache-hot task go.  The calculate_imbalance bound on what moves
 * is not applied (one task moves, as an idle CPU's fix_small_imbalance
 * allows a task of average load).  Without a waiting task to take, a
 * CPU_IDLE balance (nohz) moves nothing: of single-CPU groups a CPU
 * running one task is never overloaded (group_is_overloaded wants more
 * tasks than CPUs), and find_busiest_group calls an idle destination's
 * domain balanced when its group has no more idle CPUs than the
 * busiest's plus one (the busiest not overloaded): one idle CPU against
 * none.  A newly idle balance runs only while rd->overload holds
 * (idle_balance), and may then start active_pull_51's stopper.  Returns
 * the task, off every queue and moved to `to`'s clock, or NULL.
 */
static struct task *idle_pull_51(struct guest_vcpu *to, bool newidle, stime_t now)
{
	struct guest *g = to->g;
	struct guest_vcpu *busiest = NULL;
	struct task **pp, **take = NULL, *t;
	bool hot_ok = to->nr_balance_failed > CACHE_NICE_TRIES;
	double busiest_load = 0;

	if (g->nr_queued - to->nr_rq <= 0) {
		to->nr_balance_failed = 0;
		return newidle && rd_overload_51(g) ? active_pull_51(to, now) : NULL;
	}
	for (int i = 0; i < g->nr_cpus; i++) {
		struct guest_vcpu *o = g->cpus[i];
		bool unbound = false;
		double l;

		if (o == to || o->nr_rq == 0 || cpu_nr_running(o) < 2)
			continue;
		for (t = o->rq; t && !unbound; t = t->next)
			unbound = !t->bound;
		l = cpu_load(o, now);
		if (!unbound || (busiest && l <= busiest_load))
			continue;
		busiest = o;
		busiest_load = l;
	}
	if (!busiest) {
		to->nr_balance_failed = 0;
		return newidle && rd_overload_51(g) ? active_pull_51(to, now) : NULL;
	}
	for (pp = &busiest->rq; *pp; pp = &(*pp)->next) {
		t = *pp;
		if (t->bound || (!hot_ok && cache_hot(g, t, now)))
			continue;
		if (!take || t->enqueued_at < (*take)->enqueued_at)
			take = pp;
	}
	if (!take) {
		if (!newidle)
			to->nr_balance_failed++;
		return NULL;
	}
	to->nr_balance_failed = 0;
	t = rq_unlink(busiest, take);
	task_moved(busiest, to, t);
	return t;
}

/*
 * load_balance on a busy CPU (rebalance_domains with CPU_NOT_IDLE,
 * kernel/sched/fair.c 4.4-4.8): find_busiest_group's tests (the busiest
 * CPU runs more than one task; this CPU's load is below both its and the
 * domain's average; the busiest exceeds it by imbalance_pct), then
 * detach_tasks: queued tasks that may move (not bound, not cache-hot
 * unless balancing has failed often enough), skipping one whose load is
 * more than twice what is left to move, until the imbalance is covered.
 * Each keeps its lag (migrate_task_rq_fair) and may preempt this CPU's
 * task as a wake-up would (check_preempt_curr in attach_task).  Nothing
 * moved: a failure, and past enough of them an active balance.  Called
 * from a timer, so no task is in its step, and only while Xen runs this
 * vCPU.  Interrupt work is no load (no IRQ-time capacity).
 */
static enum balance_result busy_balance(struct guest_vcpu *to, stime_t now)
{
	struct guest *g = to->g;
	struct guest_vcpu *busiest = NULL;
	double local = cpu_load(to, now), total = 0, busiest_load = 0, imb;
	bool moved = false, preempt = false, hot_ok, any_unbound = false;
	struct task **pp, *t;

	for (int i = 0; i < g->nr_cpus; i++) {
		struct guest_vcpu *o = g->cpus[i];
		double l = cpu_load(o, now);

		total += l;
		if (o != to && cpu_nr_running(o) > 1 && o->nr_rq > 0 && l > busiest_load) {
			busiest = o;
			busiest_load = l;
		}
	}
	if (!busiest || local >= busiest_load || local * g->nr_cpus >= total ||
	    100 * busiest_load <= g->p.imbalance_pct * local) {
		to->nr_balance_failed = 0;
		return BAL_BALANCED;
	}
	imb = busy_imbalance(local, cpu_nr_running(to), busiest_load, cpu_nr_running(busiest),
			     total / g->nr_cpus);
	hot_ok = to->nr_balance_failed > CACHE_NICE_TRIES;
	/* attach_task's enqueue updates curr first (update_curr), so min_vruntime is current */
	account(to, now);
	for (pp = &busiest->rq; *pp && imb > 0;) {
		double l;

		t = *pp;
		l = task_load(t, now);
		any_unbound |= !t->bound;
		if (t->bound || (!hot_ok && cache_hot(g, t, now)) || l / 2 > imb) {
			pp = &t->next;
			continue;
		}
		attach_moved(busiest, to, rq_unlink(busiest, pp));
		preempt |= to->curr && should_preempt(to, t);
		imb -= l;
		moved = true;
	}
	if (!moved) {
		/* every waiting task pinned (LBF_ALL_PINNED): out_all_pinned, no failure */
		if (!any_unbound && !(busiest->curr && !busiest->curr->bound)) {
			to->nr_balance_failed = 0;
			return BAL_BALANCED;
		}
		to->nr_balance_failed++;
		if (to->nr_balance_failed <= CACHE_NICE_TRIES + 2)
			return BAL_FAILED;
		to->nr_balance_failed = CACHE_NICE_TRIES + 1;
		t = active_pull(busiest, to, now);
		if (!t)
			return BAL_ACTIVE;
		preempt = to->curr && should_preempt(to, t);
	} else {
		to->nr_balance_failed = 0;
	}
	if (!to->curr)
		resched(to);
	else if (preempt)
		preempt_curr(to);
	else
		arm(to);
	return moved ? BAL_MOVED : BAL_ACTIVE;
}

/*
 * Each CPU's periodic balance (scheduler_tick -> trigger_load_balance ->
 * rebalance_domains): every balance_interval x busy_factor while busy,
 * the interval doubling up to the domain's max_interval while balanced
 * and back to min_interval after a move (sd_init: min_interval sd_weight
 * ms, max_interval twice that, busy_factor 32: 0.5 to 1 s on 16 CPUs).
 * A CPU without a task of its own balances through nohz (above); a busy
 * vCPU Xen does not run takes no tick, and tries again a tick later.
 */
#define BALANCE_BUSY_FACTOR 32

static void balance_timer_fn(struct timer *tm, void *arg)
{
	struct guest_vcpu *gv = arg;
	struct guest *g = gv->g;
	struct sim *s = g->sim;
	stime_t now = sim_now(s), min = MSEC(1) * g->nr_cpus;

	(void)tm;
	if (!gv->on_pcpu && !cpu_idle(gv)) {
		timer_set(&s->q, &gv->balance_timer, now + g->p.tick);
		return;
	}
	set_this_cpu(gv);
	/* 5.1: an idle CPU's balancing is nohz_idle_balance_51's, over the same sd */
	if (g->kernel == GUEST_KERNEL_5_1 && cpu_idle(gv)) {
		timer_set(&s->q, &gv->balance_timer,
			  now + gv->balance_interval * BALANCE_BUSY_FACTOR);
		return;
	}
	/*
	 * load_balance: back to min_interval when it found an imbalance and
	 * kicked no active balance, doubling (up to max_interval) otherwise
	 */
	switch (g->idle_pull && !cpu_idle(gv) ? busy_balance(gv, now) : BAL_BALANCED) {
	case BAL_MOVED:
	case BAL_FAILED:
		gv->balance_interval = min;
		break;
	case BAL_BALANCED:
	case BAL_ACTIVE:
		if (gv->balance_interval < 2 * min)
			gv->balance_interval *= 2;
		break;
	}
	timer_set(&s->q, &gv->balance_timer, now + gv->balance_interval * BALANCE_BUSY_FACTOR);
	times_update(g);
}

static bool any_idle(const struct guest *g)
{
	return g->nr_idle > 0;
}

/*
 * nohz_kick_needed: a CPU with more than one task, while some CPU is idle,
 * kicks an idle CPU to balance at its next tick (scheduler_tick ->
 * trigger_load_balance, every 1/HZ).
 */
static void nohz_kick_check(struct guest_vcpu *gv)
{
	struct guest *g = gv->g;
	int running = (gv->curr && gv->curr->cls == TASK_NORMAL) + gv->nr_rq;

	if (!g->idle_pull || running < 2 || timer_pending(&g->nohz_timer) || !any_idle(g))
		return;
	timer_set(&g->sim->q, &g->nohz_timer, sim_now(g->sim) + g->p.tick);
}

/* A CPU went idle while tasks wait elsewhere: the busy CPU's next tick kicks it. */
static void nohz_kick_idle(struct guest *g)
{
	if (g->idle_pull && g->nr_queued > 0 && !timer_pending(&g->nohz_timer))
		timer_set(&g->sim->q, &g->nohz_timer, sim_now(g->sim) + g->p.tick);
}

/* ttwu_do_wakeup: an idle CPU gets work; its idle time feeds avg_idle (update_avg). */
static void idle_ends(struct guest_vcpu *gv, stime_t now)
{
	stime_t max = 2 * gv->g->p.migration_cost;

	if (gv->idle_stamp < 0)
		return;
	gv->avg_idle += (now - gv->idle_stamp - gv->avg_idle) / 8;
	if (gv->avg_idle > max)
		gv->avg_idle = max;
	gv->idle_stamp = -1;
}

/* Guest CPU without a current task: pick one, or go idle (halt the vCPU). */
static void resched(struct guest_vcpu *gv)
{
	struct sim *s = gv->g->sim;
	struct task *t = rq_pop(gv);

	gv->need_resched = false;
	if (!t && gv->on_pcpu)
		t = newidle_pull(gv, sim_now(s));
	time_mark(gv->curr);
	gv->curr = t;
	if (t && t->cls == TASK_NORMAL)
		load_join(gv, t);
	time_mark(t);
	idle_sync(gv);
	if (t) {
		t->state = TASK_RUNNING;
		t->last_ran = sim_now(s);
		gv->ran = 0;
		if (gv->on_pcpu)
			gv->progress_from = vmax(gv->progress_from, sim_now(s));
		if (gv->v->pause_flags & VPF_BLOCKED)
			vcpu_unblock(s, gv->v);
		arm(gv);
		return;
	}
	timer_stop(&s->q, &gv->work_timer);
	if (gv->idle_stamp < 0)
		gv->idle_stamp = sim_now(s);
	nohz_kick_idle(gv->g);
	if (gv->on_pcpu && !gv->timer_irqs.head && !(gv->v->pause_flags & VPF_BLOCKED))
		vcpu_block(s, gv->v);
}

/*
 * A task was just queued on gv, which has no current task: Linux's
 * resched_curr of its idle task.  If Xen runs the vCPU it schedules now;
 * if the vCPU halted, the wake-up (the IPI or the event) unblocks it and
 * it schedules when Xen runs it.
 */
static void run_queued(struct guest_vcpu *gv)
{
	if (gv->on_pcpu)
		resched(gv);
	else if (gv->v->pause_flags & VPF_BLOCKED)
		vcpu_unblock(gv->g->sim, gv->v);
}

/* Puts curr back on its queue (preempted by the guest scheduler). */
static inline void preempt_curr(struct guest_vcpu *gv)
{
	rq_insert(gv, curr_off(gv, sim_now(gv->g->sim)));
	resched(gv);
}

static bool should_preempt(struct guest_vcpu *gv, struct task *t)
{
	struct task *c = gv->curr;

	if (c->cls == TASK_IRQ)
		return false;
	if (t->cls == TASK_IRQ)
		return true;
	/* wakeup_gran: the granularity in the woken task's vruntime */
	return c->vruntime - t->vruntime > delta_fair(t, gv->g->p.wakeup_granularity);
}

/*
 * The VM exits of t's wake-up on gv (kernel_ops.h, kernel_wake_cost),
 * before t is queued there: Linux 5.1's ttwu sends the reschedule IPI when
 * the woken task goes to another CPU that is idle (resched_curr of its idle
 * task: a halting idle loop does not poll) or whose current task it
 * preempts (check_preempt_curr); all the guest's CPUs share a cache, so no
 * queued-wakeup IPI.  None when that CPU's current task already has
 * TIF_NEED_RESCHED: resched_curr returns before the IPI, and
 * check_preempt_wakeup before resched_curr (kernel/sched/core.c and
 * fair.c).  That is the idle task of a CPU with tasks queued and none
 * running (the first of them set the flag; the CPU has not scheduled
 * since: its vCPU waits for Xen), or a curr already marked (need_resched).
 * The waker (the task whose step this is) pays the sending hypercall in
 * its next burst; t pays its vCPU's exit on the way in: kicked while
 * running, the external interrupt's; woken from a halt (by the IPI or a
 * timer), the HLT exit's entry back and the tick's restart.
 */
static void wake_exits(struct guest_vcpu *gv, struct task *t, bool preempts)
{
	enum domain_type type = gv->g->dom->type;
	struct task *waker = gv->g->stepping_task;
	int from = gv->g->stepping_cpu;
	bool resched_set = gv->curr ? gv->need_resched : gv->nr_rq > 0 || gv->irq.head;
	bool ipi = from >= 0 && from != gv->idx && waker && waker != t && !resched_set &&
		   (!gv->curr || preempts);
	bool halted = (gv->v->pause_flags & VPF_BLOCKED) != 0;

	if (ipi)
		waker->exit_debt += kernel_wake_cost(type, WAKE_IPI_SEND);
	if (halted)
		t->exit_debt += kernel_wake_cost(type, WAKE_HALT_TAKE);
	else if (ipi && gv->on_pcpu)
		t->exit_debt += kernel_wake_cost(type, WAKE_IPI_TAKE);
}

/* A task becomes ready (woken, created, or back from sleep). */
static void make_ready(struct sim *s, struct task *t)
{
	stime_t now = sim_now(s);
	bool fork = t->fork_pending;
	int old = t->cpu, c;
	struct guest_vcpu *gv;

	t->fork_pending = false;
	c = select_cpu(t, fork, now);
	gv = t->g->cpus[c];
	task_set_cpu(t, c);
	/* enqueue_entity: update_curr first, so min_vruntime is current */
	if (gv->curr && gv->on_pcpu)
		account(gv, now);
	if (t->cls == TASK_NORMAL && fork) {
		/* place_entity(initial) with START_DEBIT: a vslice after min_vruntime */
		stime_t sl = gv->g->p.sched_latency / (nr_running(gv) + 1);

		t->vruntime = gv->min_vruntime + vmax(sl, gv->g->p.min_granularity);
	} else if (t->cls == TASK_NORMAL) {
		/* migrate_task_rq_fair keeps the lag; place_entity gives sleepers half a latency */
		if (c != old)
			t->vruntime = t->vruntime - t->g->cpus[old]->min_vruntime + gv->min_vruntime;
		t->vruntime = vmax(t->vruntime, gv->min_vruntime - gv->g->p.sched_latency / 2);
	}
	if (fork) {
		/* a new process: init_entity_runnable_average, recent_used_cpu its CPU */
		pelt_init(&t->load, now);
		t->load_on = false;
		t->recent_used_cpu = c;
	}
	load_set(t, now, true);
	t->enqueued_at = now;
	wake_exits(gv, t, gv->curr && should_preempt(gv, t));
	idle_ends(gv, now);
	t->state = TASK_READY;
	time_mark(t);
	rq_insert(gv, t);
	if (!gv->curr) {
		run_queued(gv);
		return;
	}
	nohz_kick_check(gv);
	if (!should_preempt(gv, t)) {
		if (!gv->curr->in_step)
			arm(gv);
		return;
	}
	/*
	 * check_preempt_wakeup (4.4 to 5.1) on a wake-up preemption of a fair
	 * curr that no earlier wake-up has marked for resched: t becomes the
	 * next buddy and, with sched_nr_latency (sched_latency /
	 * min_granularity, 8) tasks or more on the CPU, curr the last buddy.
	 */
	if (!gv->need_resched && t->cls == TASK_NORMAL && gv->curr->cls == TASK_NORMAL) {
		gv->next_buddy = t;
		gv->next_buddy_mark = t->dequeues;
		if (nr_running(gv) >= (int)(gv->g->p.sched_latency / gv->g->p.min_granularity)) {
			gv->last_buddy = gv->curr;
			gv->last_buddy_mark = gv->curr->dequeues;
		}
	}
	/* While curr's own step runs, its next move is not known yet: decide after. */
	if (gv->curr->in_step || !gv->on_pcpu) {
		gv->need_resched = true;
		if (!gv->curr->in_step)
			arm(gv);
		return;
	}
	preempt_curr(gv);
}

static void step_once(struct sim *s, struct task *t)
{
	struct guest_vcpu *gv = gcpu(t);
	bool was_curr = gv->curr == t;

	int outer = t->g->stepping_cpu;
	struct task *outer_task = t->g->stepping_task;

	t->pending_action = ACT_NONE;
	t->wake_pending = false;
	t->in_step = true;
	t->g->stepping_cpu = t->cpu;
	t->g->stepping_task = t;
	t->step(s, t);
	t->g->stepping_cpu = outer;
	t->g->stepping_task = outer_task;
	t->in_step = false;
	switch (t->pending_action) {
	case ACT_RUN:
	case ACT_CLAIM:
		t->remaining = t->pending_arg;
		if (t->pending_action == ACT_RUN && t->remaining != STIME_MAX) {
			t->remaining += t->exit_debt;
			t->exit_debt = 0;
		}
		if (was_curr && t->fork_pending) {
			/*
			 * its process exits here (dequeue_entity: its load off,
			 * its buddy marks cleared; curr_off's charge finds
			 * nothing left, work_timer charged it at this instant);
			 * the one forked from this CPU is placed anew
			 */
			clear_buddies(gv, t);
			curr_off(gv, sim_now(s));
			load_set(t, sim_now(s), false);
			t->waker_cpu = t->cpu;
			make_ready(s, t);
			return;
		}
		if (!was_curr)
			make_ready(s, t);
		return;
	case ACT_SLEEP:
		t->state = TASK_SLEEPING;
		timer_set(&s->q, &t->sleep_timer, sim_now(s) + vmax(t->pending_arg, 0));
		break;
	case ACT_BLOCK:
		t->state = TASK_BLOCKED;
		break;
	case ACT_EXIT:
		t->state = TASK_DEAD;
		break;
	default:
		fprintf(stderr, "schedsim: internal error: task %s step chose nothing\n", t->name);
		abort();
	}
	time_mark(t);           /* its state (and its CPU's curr, when it was) */
	t->fork_pending = false;
	if (was_curr) {
		t->last_ran = sim_now(s);
		if (t->cls == TASK_NORMAL)
			load_leave(gv, t);
		gv->curr = NULL;
		idle_sync(gv);
	}
	load_set(t, sim_now(s), false);
	clear_buddies(gv, t);   /* dequeue_entity */
}

/* Steps t, then takes a wake that came during the step if it blocked. */
static void run_step(struct sim *s, struct task *t)
{
	do
		step_once(s, t);
	while (t->state == TASK_BLOCKED && t->wake_pending);
}

static void set_action(struct task *t, int action, stime_t arg)
{
	if (!t->in_step) {
		fprintf(stderr, "schedsim: internal error: task %s acted outside its step\n", t->name);
		abort();
	}
	t->pending_action = action;
	t->pending_arg = arg;
}

void task_run(struct sim *s, struct task *t, stime_t work)
{
	set_action(t, ACT_RUN, work);
}

void task_run_claimed(struct sim *s, struct task *t, task_claim_fn claim)
{
	set_action(t, ACT_CLAIM, 0);
	t->claim = claim;
}

void task_sleep(struct sim *s, struct task *t, stime_t d)
{
	set_action(t, ACT_SLEEP, d);
}

void task_block(struct sim *s, struct task *t)
{
	set_action(t, ACT_BLOCK, 0);
}

void task_exit(struct sim *s, struct task *t)
{
	set_action(t, ACT_EXIT, 0);
}

/*
 * A task woken from inside its own step (its done() kicks something that
 * kicks it back) must not be stepped re-entrantly: as Linux's wake of a
 * running task only marks it runnable, the wake is remembered and, if
 * the step then chose to block, taken at once after it returns.
 */
void task_wake(struct sim *s, struct task *t)
{
	if (t->in_step) {
		t->wake_pending = true;
		return;
	}
	if (t->state != TASK_BLOCKED)
		return;
	t->waker_cpu = t->g->stepping_cpu;
	t->waker = t->g->stepping_task && t->g->stepping_task->cls == TASK_NORMAL
		   ? t->g->stepping_task : NULL;
	run_step(s, t);
	t->waker = NULL;          /* a step that blocked again used neither */
	t->wake_sync = false;
	times_update(t->g);
}

void task_wake_sync(struct sim *s, struct task *t)
{
	if (!t->in_step && t->state == TASK_BLOCKED)
		t->wake_sync = true;
	task_wake(s, t);
}

void task_fork(struct sim *s, struct task *t)
{
	(void)s;
	if (!t->in_step) {
		fprintf(stderr, "schedsim: internal error: task %s forked outside its step\n",
			t->name);
		abort();
	}
	t->fork_pending = t->g->kernel == GUEST_KERNEL_5_1 && !t->bound &&
			  t->cls == TASK_NORMAL;
}

/*
 * Only from the task's own step, so t is either its CPU's current task or
 * on no queue.  A task demoted while current is placed as a thread woken
 * now (vruntime as make_ready gives a sleeper: its time as an interrupt
 * task is not CFS time) and re-judged against the queue when the step
 * returns, through need_resched.
 */
void task_set_class(struct sim *s, struct task *t, enum task_class cls)
{
	struct guest_vcpu *gv = gcpu(t);

	if (!t->in_step) {
		fprintf(stderr, "schedsim: internal error: task %s changed class outside its step\n",
			t->name);
		abort();
	}
	if (t->cls == cls)
		return;
	if (gv->curr == t && gv->on_pcpu)
		account(gv, sim_now(s));
	if (gv->curr == t && t->cls == TASK_NORMAL)
		load_leave(gv, t);
	t->cls = cls;
	if (gv->curr == t && cls == TASK_NORMAL) {
		load_ticks(t, sim_now(s));
		load_join(gv, t);
	}
	idle_sync(gv);
	if (cls != TASK_NORMAL)
		return;
	t->vruntime = gv->min_vruntime - gv->g->p.sched_latency / 2;
	if (gv->curr == t) {
		gv->ran = 0;
		if (gv->irq.head || gv->nr_rq > 0)
			gv->need_resched = true;
	}
}

/*
 * A task's sleep ends: its guest CPU's timer interrupt.  Xen raises it on
 * the vCPU's pCPU; the guest takes it only while the vCPU runs.  So the
 * step runs now if Xen runs the vCPU, else when it next does (a halted
 * vCPU is woken for it, as Xen's timer event does).
 */
static void sleep_timer_fn(struct timer *tm, void *arg)
{
	struct task *t = arg;
	struct guest_vcpu *gv = gcpu(t);
	struct sim *s = t->g->sim;

	set_this_cpu(gv);
	if (gv->on_pcpu) {
		run_step(s, t);
	} else {
		t->timer_irq = true;
		time_mark(t);
		fifo_push(&gv->timer_irqs, t);
		if (gv->v->pause_flags & VPF_BLOCKED)
			vcpu_unblock(s, gv->v);
	}
	times_update(t->g);
}

/* The vCPU runs again: the timer interrupts that waited for it. */
static void upcall_timer_fn(struct timer *tm, void *arg)
{
	struct guest_vcpu *gv = arg;
	struct sim *s = gv->g->sim;
	struct task *t;

	set_this_cpu(gv);
	while ((t = fifo_pop(&gv->timer_irqs))) {
		t->timer_irq = false;
		time_mark(t);
		run_step(s, t);
	}
	if (!gv->curr)
		resched(gv);
	times_update(gv->g);
}

static void work_timer(struct guest_vcpu *gv)
{
	struct sim *s = gv->g->sim;
	struct task *t = gv->curr;

	account(gv, sim_now(s));
	if (t->remaining <= 0) {
		run_step(s, t);
		if (!gv->curr) {
			resched(gv);
			return;
		}
	}
	if (gv->curr->cls == TASK_NORMAL &&
	    (gv->need_resched || (gv->nr_rq > 0 && slice_left(gv) <= 0)))
		preempt_curr(gv);
	else
		arm(gv);
}

static void work_timer_fn(struct timer *tm, void *arg)
{
	struct guest_vcpu *gv = arg;

	set_this_cpu(gv);
	work_timer(gv);
	times_update(gv->g);
}

/*
 * 5.1: an idle CPU's turn in nohz_idle_balance (rebalance_domains with
 * CPU_IDLE), when its rq->next_balance is due: every sd->balance_interval
 * (get_sd_balance_interval without busy_factor for an idle CPU), which
 * load_balance sets back to min_interval (sd_weight ms) after a move or a
 * failure and doubles, up to max_interval, while the domain is balanced.
 */
static struct task *nohz_idle_balance_51(struct guest_vcpu *gv, stime_t now)
{
	stime_t min = MSEC(1) * gv->g->nr_cpus;
	int failed = gv->nr_balance_failed;
	struct task *t;

	if (now < gv->idle_next_balance)
		return NULL;
	t = idle_pull_51(gv, false, now);
	if (t || gv->nr_balance_failed > failed)
		gv->balance_interval = min;
	else if (gv->balance_interval < 2 * min)
		gv->balance_interval *= 2;
	gv->idle_next_balance = now + gv->balance_interval;
	return t;
}

/*
 * capacity_kick_51 as of now, taken once and kept until a move changes
 * who runs what (*known false: not yet taken since the last move).
 */
static bool capacity_kick_now(struct guest *g, stime_t now, bool *known, bool *kick)
{
	if (!*known) {
		*kick = capacity_kick_51(g, now);
		*known = true;
	}
	return *kick;
}

/*
 * One idle CPU's turn in nohz_idle_balance: it pulls a waiting task from
 * the busiest CPU (rebalance_domains with CPU_IDLE), and its vCPU is woken
 * to run it.  False, and nothing done, when nothing is left to balance
 * for (no task waits and, under 5.1, no capacity kick holds).
 */
static bool nohz_balance_cpu(struct guest_vcpu *gv, stime_t now, bool *kick_known, bool *kick)
{
	struct guest *g = gv->g;
	struct task *t;

	if (g->nr_queued <= 0 && !capacity_kick_now(g, now, kick_known, kick))
		return false;
	if (!cpu_idle(gv))
		return true;
	if (g->kernel == GUEST_KERNEL_5_1)
		t = nohz_idle_balance_51(gv, now);
	else
		t = pull_task(gv, now);
	if (!t)
		return true;
	*kick_known = false;
	idle_ends(gv, now);
	rq_insert(gv, t);
	if (!gv->curr) {
		run_queued(gv);
	} else if (gv->on_pcpu && !gv->curr->in_step) {
		arm(gv);
	}
	return true;
}

/*
 * The kicked CPU's nohz_idle_balance.  Under 5.1 (kernel/sched/fair.c
 * v5.1, kick_ilb -> find_new_ilb, _nohz_idle_balance) the kicked CPU is
 * the first idle CPU of nohz.idle_cpus_mask; it balances every other
 * idle CPU in mask order and itself last, so of idle CPUs a < b, b takes
 * the first waiting task.  4.4's model lets the idle CPUs balance in
 * index order.  While tasks still wait and CPUs idle, the next tick
 * tries again.
 */
static void nohz_balance_fn(struct timer *tm, void *arg)
{
	struct guest *g = arg;
	struct sim *s = g->sim;
	stime_t now = sim_now(s);
	bool kick_known = false, kick = false, more = true;
	int ilb = -1;

	(void)tm;
	s->this_cpu = -1;
	for (int i = 0; g->kernel == GUEST_KERNEL_5_1 && ilb < 0 && i < g->nr_cpus; i++)
		if (cpu_idle(g->cpus[i]))
			ilb = i;
	for (int i = 0; more && i < g->nr_cpus; i++)
		if (i != ilb)
			more = nohz_balance_cpu(g->cpus[i], now, &kick_known, &kick);
	if (more && ilb >= 0)
		nohz_balance_cpu(g->cpus[ilb], now, &kick_known, &kick);
	if ((g->nr_queued > 0 || capacity_kick_now(g, now, &kick_known, &kick)) && any_idle(g))
		timer_set(&s->q, &g->nohz_timer, now + g->p.tick);
	times_update(g);
}

struct task_group *task_group_create(struct guest *g)
{
	struct task_group *tg = xcalloc(1, sizeof(*tg));

	g->groups = xreallocarray(g->groups, (size_t)g->nr_groups + 1, sizeof(*g->groups));
	g->groups[g->nr_groups++] = tg;
	return tg;
}

void task_join_group(struct task *t, struct task_group *tg)
{
	if (t->load_on) {
		fprintf(stderr, "schedsim: internal error: task %s joined a group while runnable\n",
			t->name);
		abort();
	}
	t->tg = tg;
}

struct task *task_create(struct guest *g, const char *name, enum task_class cls,
			 int cpu, bool bound, task_step_fn step, void *ctx, stime_t start)
{
	struct task *t = xcalloc(1, sizeof(*t));

	snprintf(t->name, sizeof(t->name), "%s", name);
	t->g = g;
	t->cls = cls;
	t->cpu = cpu % g->nr_cpus;
	t->bound = bound || cls == TASK_IRQ;
	t->step = step;
	t->ctx = ctx;
	t->state = TASK_SLEEPING;
	t->waker_cpu = -1;
	t->recent_used_cpu = t->cpu;
	pelt_init(&t->load, start);
	t->last_ran = -SEC(1000);
	timer_init(&t->sleep_timer, sleep_timer_fn, t);
	timer_set(&g->sim->q, &t->sleep_timer, start);
	if (g->nr_tasks == g->cap_tasks) {
		g->cap_tasks = g->cap_tasks ? 2 * g->cap_tasks : 16;
		g->tasks = xreallocarray(g->tasks, (size_t)g->cap_tasks, sizeof(*g->tasks));
	}
	g->tasks[g->nr_tasks++] = t;
	return t;
}

static void vcpu_started(struct sim *s, struct guest_vcpu *gv, stime_t work_from)
{
	gv->on_pcpu = true;
	gv->g->views_stale = true;
	gv->progress_from = work_from;
	gv->rate_for = NULL;
	if (gv->timer_irqs.head)
		timer_set(&s->q, &gv->upcall_timer, work_from);
	if (!gv->curr) {
		resched(gv);
		return;
	}
	if (gv->curr->cls == TASK_NORMAL && (gv->irq.head || gv->need_resched))
		preempt_curr(gv);
	else
		arm(gv);
}

static void hook_start(struct sim *s, struct vcpu *v, stime_t work_from)
{
	struct guest_vcpu *gv = v->guest;
	struct guest *g = gv->g;

	vcpu_started(s, gv, work_from);
	/*
	 * 5.1: back from steal, the vCPU's next tick sees its capacity
	 * (nohz_balancer_kick: a CFS task on a CPU check_cpu_capacity finds
	 * reduced kicks an idle CPU to balance).  A tick that fell while Xen
	 * had the vCPU descheduled is taken as it resumes; otherwise the next
	 * one, if the vCPU still runs then (nohz_balance_fn).
	 */
	if (g->kernel == GUEST_KERNEL_5_1 && g->idle_pull && single_movable(gv) && any_idle(g) &&
	    !timer_pending(&g->nohz_timer) && capacity_reduced(g, capacity_51(gv, sim_now(s)))) {
		stime_t now = sim_now(s), last_tick = now / g->p.tick * g->p.tick;

		timer_set(&s->q, &g->nohz_timer,
			  last_tick > gv->stopped_at ? now : last_tick + g->p.tick);
	}
	times_update(g);
}

static void hook_stop(struct sim *s, struct vcpu *v)
{
	struct guest_vcpu *gv = v->guest;

	account(gv, sim_now(s));
	gv->on_pcpu = false;
	gv->stopped_at = sim_now(s);
	gv->g->views_stale = true;
	timer_stop(&s->q, &gv->work_timer);
	timer_stop(&s->q, &gv->upcall_timer);
	times_update(gv->g);
}

/*
 * What v's task ran until now is work at the speed it had (the hardware
 * changed it: a sibling thread started or stopped; or the run ends); the
 * pending step is re-timed at the new speed, if it differs.  Neither
 * happens inside a task's step: the hardware changes speeds only from the
 * core's context switches.
 */
static void hook_work_sync(struct sim *s, struct vcpu *v)
{
	struct guest_vcpu *gv = v->guest;
	double old;

	if (!gv || !gv->on_pcpu)
		return;
	/*
	 * Told in the instant its speed was worked out (its core's retold
	 * event, after its own task changed profile), nothing it depends on
	 * changed since: nothing ran to account, the speed and the armed step
	 * stay, and the time categories were charged when the event that
	 * asked ended (guest_check holds them to that).
	 */
	if (gv->curr && gv->rate_for == gv->curr && sim_now(s) <= gv->progress_from &&
	    hw_rate_kept(s->hw, v, gv->curr->prof, &gv->rate))
		return;
	account(gv, sim_now(s));
	if (gv->curr) {
		old = rate_of(gv, gv->curr)->rate;
		gv->rate_for = NULL;
		/* At the same speed the armed timer stays right. */
		if (rate_of(gv, gv->curr)->rate != old && !gv->curr->in_step)
			arm(gv);
	}
	times_update(gv->g);
}

/* A buddy (if any) is gv's curr or on its queue (clear_buddies on every dequeue). */
static bool buddy_queued(const struct guest_vcpu *gv, const struct task *b)
{
	if (!b || b == gv->curr)
		return true;
	for (const struct task *t = gv->rq; t; t = t->next)
		if (t == b)
			return true;
	return false;
}

static bool check_fail(struct sim *s, const struct guest_vcpu *gv, const char *what)
{
	snprintf(s->check_error, sizeof(s->check_error),
		 "invariant violated at %lld ns: %s (d%dv%d, pCPU %d)",
		 (long long)sim_now(s), what, gv->v->dom->domid, gv->v->vcpu_id,
		 gv->v->processor);
	return false;
}

/*
 * The guest layer's invariants, after every event under --check: a
 * halted vCPU has nothing to run (else a wake-up was lost), the guest
 * believes its vCPU runs exactly when Xen runs it, no task's work
 * timer is armed on a vCPU that Xen does not run (no progress while
 * descheduled), and a CFS buddy is a task its CPU runs or queues that has
 * not left the queue or stopped being runnable since it was marked
 * (Linux's clear_buddies in dequeue_entity and pick_next_entity: a stale
 * mark could be re-queued within one event and pass the first test).
 */
static bool guest_check(struct sim *s)
{
	int d, i, idle, listed;

	for (d = 0; d < s->nr_domains; d++) {
		struct guest *g = s->domains[d]->guest;

		for (i = 0; g && i < g->nr_timed; i++) {
			const struct task *t = g->timed[i], *o;

			if (t->time_cat != time_category(t))
				return check_fail(s, gcpu(t),
						  "a task's time category changed and was not charged");
			for (o = gcpu(t)->timed; o && o != t; o = o->cpu_timed_next)
				;
			if (!o)
				return check_fail(s, gcpu(t),
						  "a timed task is missing from its CPU's list");
		}
		for (i = 0, listed = 0; g && i < g->nr_cpus; i++)
			for (const struct task *o = g->cpus[i]->timed; o; o = o->cpu_timed_next)
				listed++;
		if (g && listed != g->nr_timed)
			return check_fail(s, g->cpus[0], "a CPU's list holds a task twice or an untimed one");
		for (i = 0, idle = 0; g && i < g->nr_cpus; i++) {
			const struct guest_vcpu *gv = g->cpus[i];
			const struct vcpu *v = gv->v;

			if (gv->idle != idle_now(gv))
				return check_fail(s, gv, "guest CPU's idle flag disagrees with its tasks");
			/*
			 * The kept sum against cpu_load_walk's: where it applies,
			 * the walk of this tick and every join since brought each
			 * member through this tick, so this walk applies no update
			 * (and any it applied would be the same at any later call:
			 * pelt_tick_updates).
			 */
			if (!g->nr_groups && gv->load_tick == sim_now(s) / g->p.tick &&
			    gv->load_sum != cpu_load_walk(gv, sim_now(s)))
				return check_fail(s, gv, "guest CPU's kept load differs from its tasks'");
			idle += gv->idle;
			if (!buddy_queued(gv, gv->next_buddy) || !buddy_queued(gv, gv->last_buddy))
				return check_fail(s, gv, "guest CPU's buddy is not a task it runs or queues");
			if (buddy_stale(gv))
				return check_fail(s, gv, BUDDY_STALE);

			if ((v->pause_flags & VPF_BLOCKED) &&
			    (gv->curr || gv->irq.head || gv->nr_rq || gv->timer_irqs.head))
				return check_fail(s, gv, "vCPU halted while its guest CPU has work");
			if (gv->on_pcpu != vcpu_in_guest(s, v))
				return check_fail(s, gv, "guest's on-pCPU flag disagrees with Xen");
			if (!gv->on_pcpu &&
			    (timer_pending(&gv->work_timer) || timer_pending(&gv->upcall_timer)))
				return check_fail(s, gv, "work timer armed while the vCPU is descheduled");
		}
		if (g && idle != g->nr_idle)
			return check_fail(s, g->cpus[0], "guest's count of idle CPUs is wrong");
	}
	return true;
}

/*
 * Linux 4.4's CFS tunables (kernel/sched/fair.c), the first three scaled
 * by 1 + log2(min(nr_cpus, 8)) (SCHED_TUNABLESCALING_LOG); the tick is
 * 1/HZ with Kconfig's default HZ_250; imbalance_pct 125 is sd_init's for
 * a domain of CPUs that are not SMT siblings.
 */
static void default_params(struct guest_params *p, int nr_cpus)
{
	int factor = 1, n = nr_cpus < 8 ? nr_cpus : 8;

	while (n > 1) {
		factor++;
		n >>= 1;
	}
	p->sched_latency = MSEC(6) * factor;
	p->min_granularity = USEC(750) * factor;
	p->wakeup_granularity = MSEC(1) * factor;
	p->migration_cost = USEC(500);
	p->tick = MSEC(4);
	p->imbalance_pct = 125;
}

void guest_attach_all(struct sim *s)
{
	int d, i;

	for (d = 0; d < s->nr_domains; d++) {
		struct domain *dom = s->domains[d];
		struct guest *g = xcalloc(1, sizeof(*g));

		g->sim = s;
		g->dom = dom;
		g->nr_cpus = dom->nr_vcpus;
		g->idle_pull = true;
		default_params(&g->p, g->nr_cpus);
		g->stepping_cpu = -1;
		g->kernel = dom->kernel;
		g->llc = dom->llc;
		timer_init(&g->nohz_timer, nohz_balance_fn, g);
		rng_seed(&g->rng, seed_derive(s->seed, 0x6775657374ULL + (uint64_t)dom->domid));
		g->cpus = xcalloc((size_t)g->nr_cpus, sizeof(*g->cpus));
		for (i = 0; i < g->nr_cpus; i++) {
			struct guest_vcpu *gv = xcalloc(1, sizeof(*gv));

			gv->g = g;
			gv->v = dom->vcpus[i];
			gv->idx = i;
			gv->time_view = -1;     /* no pass yet */
			gv->idle = true;        /* no task yet */
			gv->load_tick = -1;     /* no cpu_load sum walked yet */
			g->nr_idle++;
			gv->idle_stamp = 0;
			gv->avg_idle = 2 * g->p.migration_cost;
			timer_init(&gv->work_timer, work_timer_fn, gv);
			timer_init(&gv->upcall_timer, upcall_timer_fn, gv);
			/* sd->balance_interval starts at 1 ms; CPUs' first balances spread over one */
			gv->balance_interval = MSEC(1);
			timer_init(&gv->balance_timer, balance_timer_fn, gv);
			timer_set(&s->q, &gv->balance_timer,
				  MSEC(1) * BALANCE_BUSY_FACTOR * (i + 1) / g->nr_cpus);
			g->cpus[i] = gv;
			dom->vcpus[i]->guest = gv;
		}
		dom->guest = g;
	}
	s->hooks.vcpu_start = hook_start;
	s->hooks.vcpu_stop = hook_stop;
	s->hooks.work_sync = hook_work_sync;
	s->hooks.check = guest_check;
}

void guest_free_all(struct sim *s)
{
	int d, i;

	for (d = 0; d < s->nr_domains; d++) {
		struct guest *g = s->domains[d]->guest;

		if (!g)
			continue;
		timer_stop(&s->q, &g->nohz_timer);
		for (i = 0; i < g->nr_tasks; i++) {
			timer_stop(&s->q, &g->tasks[i]->sleep_timer);
			free(g->tasks[i]);
		}
		for (i = 0; i < g->nr_cpus; i++) {
			timer_stop(&s->q, &g->cpus[i]->work_timer);
			timer_stop(&s->q, &g->cpus[i]->upcall_timer);
			timer_stop(&s->q, &g->cpus[i]->balance_timer);
			s->domains[d]->vcpus[i]->guest = NULL;
			free(g->cpus[i]);
		}
		for (i = 0; i < g->nr_groups; i++)
			free(g->groups[i]);
		free(g->groups);
		free(g->tasks);
		free(g->timed);
		free(g->time_dirty);
		free(g->cpus);
		free(g);
		s->domains[d]->guest = NULL;
	}
}
