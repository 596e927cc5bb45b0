/*
 * The guest layer: what runs inside a domain.  Each domain runs tasks
 * (threads) on its vCPUs under a small guest-kernel scheduler modelled on
 * Linux CFS: per-vCPU run queues ordered by virtual runtime, a slice of
 * max(latency / nr_running, min_granularity), wake-up preemption, and
 * pulling work to a vCPU that goes idle.  A vCPU with nothing to run
 * blocks in Xen (SCHEDOP_block) and is woken through the scheduler's wake
 * path when one of its tasks becomes runnable.
 *
 * A task only progresses while its vCPU runs on a pCPU: when Xen deschedules
 * the vCPU the task's burst is frozen (steal time).  That is how hypervisor
 * scheduling decisions reach a workload's figure.  A burst is work,
 * nanoseconds at full speed; the hardware model (sim/engine/hw.h) gives how
 * much work a nanosecond of run time does, and the guest's CFS accounting
 * (vruntime, slices) stays in time, as Linux's does.
 *
 * A task's behaviour is a step function, called when the task needs to
 * decide what to do next: at start, when its CPU burst is done, when its
 * sleep ends and when it is woken from a block.  The step calls exactly
 * one of task_run, task_sleep, task_block or task_exit.  Start and the
 * end of a sleep are the guest CPU's timer interrupt: they are taken when
 * Xen runs that CPU's vCPU, so a task's first step may come later.
 *
 * Placement and balancing are Linux 4.4's (kernel/sched/fair.c), or, for
 * a domain with kernel="5.1", 5.1's placement of woken and forked tasks
 * (guest.c, "Placement of a 5.1 guest kernel") and its idle CPUs'
 * load_balance (guest.c idle_pull_51, with the active balance that steal
 * time's lower capacity starts, active_pull_51), over the cache topology
 * the domain's llc= gives (sim/engine/guest_kernel.h).  4.4's: a woken
 * task goes where select_task_rq_fair puts it (wake_affine towards the
 * waker's CPU, then select_idle_sibling), a CPU going idle pulls a waiting
 * task (idle_balance, when its average idle time is long enough), and a
 * CPU with tasks waiting makes idle CPUs pull at its next tick (nohz idle
 * balancing).  Load is PELT's runnable average (pelt.h).  Bound tasks never move.
 *
 * Interrupt-class tasks (TASK_IRQ) model interrupt and softirq work (an
 * event-channel upcall, netback's NAPI poll): they are bound to one vCPU
 * and run before any normal task on it, preempting at once.  A step may
 * move its task between the classes (task_set_class): softirq work past
 * Linux's bound continues in ksoftirqd, a normal task.
 */
#ifndef SCHEDSIM_GUEST_H
#define SCHEDSIM_GUEST_H

#include <stdbool.h>

#include "sim/engine/sim.h"
#include "workloads/pelt.h"

struct task;
struct nic;
typedef void (*task_step_fn)(struct sim *s, struct task *t);
/* Decides a burst's work when its task gets its CPU (task_run_claimed). */
typedef stime_t (*task_claim_fn)(struct sim *s, struct task *t);

enum task_class { TASK_IRQ = 0, TASK_NORMAL = 1 };
enum task_state { TASK_READY, TASK_RUNNING, TASK_SLEEPING, TASK_BLOCKED, TASK_DEAD };

/*
 * Where a timed task's time goes (task_time_start), one category at every
 * instant, so the categories add up to the time since the start:
 *
 *   TT_RUN         it owns its guest CPU and Xen runs that vCPU
 *   TT_GUEST_WAIT  ready, but another task (a hog, an interrupt) owns its
 *                  guest CPU while Xen runs the vCPU: the guest's CFS
 *   TT_XEN_WAIT    ready or owning its CPU, but the vCPU is runnable in
 *                  Xen and not running (preempted, or a timer interrupt
 *                  that waits for the vCPU): Xen's scheduler
 *   TT_XEN_WAKE    the same right after the vCPU was woken from halt,
 *                  until it first runs: the vCPU's wake-up latency
 *   TT_SLEEP       sleeping on a timer
 *   TT_DONE        exited
 *   TT_BLOCKED + r blocked, for the reason r its workload gave
 *                  (task_block_reason; 0 unless given)
 */
enum task_time {
	TT_RUN, TT_GUEST_WAIT, TT_XEN_WAIT, TT_XEN_WAKE, TT_SLEEP, TT_DONE, TT_BLOCKED
};
#define TASK_BLOCK_REASONS 4
#define TT_N (TT_BLOCKED + TASK_BLOCK_REASONS)

struct task {
	char name[32];
	struct guest *g;
	enum task_class cls;
	enum task_state state;
	int cpu;                /* guest CPU (vCPU index) it is queued on / ran on */
	bool bound;             /* never moved to another vCPU */
	stime_t remaining;      /* work left in the current burst (ns at full speed) */
	stime_t exit_debt;      /* wake-up exits owed, added to its next burst (guest.c) */
	task_claim_fn claim;    /* set: the burst's work is decided when it gets its CPU */
	stime_t vruntime;
	stime_t cpu_ns;         /* CPU time consumed in total */
	const struct hw_profile *prof;   /* what its code asks of the hardware (NULL: default) */
	task_step_fn step;
	void *ctx;              /* the behaviour's data */
	struct timer sleep_timer;
	struct task *next;      /* run-queue link */
	bool in_step;
	bool wake_pending;      /* woken while its own step ran: taken after it */
	int pending_action;     /* what the step asked for (guest.c) */
	stime_t pending_arg;
	bool timer_irq;         /* its sleep ended, the vCPU has yet to take it */
	/* placement (guest.c, after Linux 4.4 kernel/sched/fair.c) */
	int waker_cpu;          /* guest CPU whose code woke it (-1: a timer, or none) */
	struct pelt_avg load;   /* its runnable load average (pelt.h) */
	bool load_on;           /* runnable since load.last_update */
	stime_t last_ran;       /* when it last ran (cache-hot test) */
	stime_t enqueued_at;    /* when it last became runnable (rq->cfs_tasks order) */
	/*
	 * times it left its CPU's queue (picked, moved) or stopped being
	 * runnable: dequeue_entity's, which clear_buddies follows (guest_check)
	 */
	unsigned dequeues;
	struct task_group *tg;  /* its session's autogroup (NULL: the root group) */
	/* placement of a 5.1 guest kernel (guest.c; <domain kernel="5.1">) */
	struct task *waker;     /* the normal task whose step woke it (NULL: none) */
	bool wake_sync;         /* that wake was WF_SYNC (task_wake_sync) */
	bool fork_pending;      /* its next burst is a new process (task_fork) */
	int recent_used_cpu;    /* p->recent_used_cpu */
	struct task *last_wakee;        /* record_wakee: the last task it woke */
	unsigned wakee_flips;           /* ... how often that changed, halved each second */
	stime_t wakee_flip_decay_ts;
	/* time accounting (task_time_start) */
	bool timed;
	bool time_dirty;        /* an input of its category written since the last pass */
	/* the timed tasks of its guest CPU (guest.c times_update), NULL-ended */
	struct task *cpu_timed_prev, *cpu_timed_next;
	int block_reason;       /* why its next block waits (0..TASK_BLOCK_REASONS-1) */
	int time_cat;           /* its category since time_from */
	stime_t time_from;
	stime_t time_ns[TT_N];
};

/* Creates a task in g, ready to take its first step at time 'start'. */
struct task *task_create(struct guest *g, const char *name, enum task_class cls,
			 int cpu, bool bound, task_step_fn step, void *ctx, stime_t start);
/* Next: run for 'work' ns of CPU at full speed (STIME_MAX: forever). */
void task_run(struct sim *s, struct task *t, stime_t work);
/*
 * Next: run the work that claim returns, asked at the instant t gets its
 * CPU on a running vCPU (0: none, t steps again at once).  For work a task
 * takes from a queue when it runs, not when it is woken: a NAPI poll, a
 * kthread (split.h's workers).  claim only decides: it must not wake,
 * block or move any task.
 */
void task_run_claimed(struct sim *s, struct task *t, task_claim_fn claim);
/* Next: sleep for 'd' ns of wall time, then step again. */
void task_sleep(struct sim *s, struct task *t, stime_t d);
/* Next: wait until task_wake(). */
void task_block(struct sim *s, struct task *t);
/* Next: nothing, ever. */
void task_exit(struct sim *s, struct task *t);
/*
 * Wakes a blocked task (its step runs now); no-op when not blocked.  A
 * wake during the task's own step is taken when the step returns: if the
 * step chose to block, it steps again at once instead.
 */
void task_wake(struct sim *s, struct task *t);
/*
 * task_wake with WF_SYNC: the waker says it will sleep soon (a socket's or
 * a pipe's reader or writer woken by wake_up_interruptible_sync_poll).  A
 * guest kernel of 5.1 (<domain kernel="5.1">) may then put t on the
 * waker's CPU (wake_affine_idle, wake_affine_weight); 4.4's model takes it
 * as a plain wake.
 */
void task_wake_sync(struct sim *s, struct task *t);
/*
 * From inside t's own step, before task_run or task_run_claimed: the
 * burst is a new process, forked (and exec'd) by one that ran on t's
 * CPU, whose previous process exited (a make job's shell and compiler).
 * A 5.1 guest kernel places it as a fork (find_idlest_cpu,
 * SD_BALANCE_FORK) with a new process's load; under 4.4's model t keeps
 * its CPU.
 */
void task_fork(struct sim *s, struct task *t);

/*
 * From inside t's own step: t runs as class cls from now on.  Softirq work
 * that outlasts its bound moves to ksoftirqd (TASK_NORMAL); a demoted
 * running task is placed as a woken thread and competes under CFS.
 */
void task_set_class(struct sim *s, struct task *t, enum task_class cls);

/*
 * Starts (or restarts) accounting t's time at now: every category is
 * zeroed, and from now on they add up to the time elapsed.
 */
void task_time_start(struct sim *s, struct task *t);
/* t's time per category (enum task_time) from its start to now. */
void task_time_read(struct sim *s, struct task *t, stime_t out[TT_N]);
/* From t's step, before task_block: what it will wait for (see TT_BLOCKED). */
void task_block_reason(struct task *t, int reason);

/*
 * A session's autogroup (CONFIG_SCHED_AUTOGROUP, kernel/sched/auto_group.c,
 * on by default in the distribution kernels of 2016: setsid() gives a
 * session a task group of its own, shares NICE_0_LOAD).  CFS then shares a
 * CPU between the group as a whole and the other groups and kernel
 * threads, not task by task: a session of N CPU-bound tasks spread over N
 * CPUs weighs about 1024/N on each (calc_cfs_shares, kernel/sched/fair.c
 * 4.4-4.8), so a task of another session beside one of them gets most of
 * that CPU when it wants it.  The model flattens the hierarchy: each
 * runnable task of a group weighs NICE_0_LOAD / (the group's runnable
 * tasks), its weight entering vruntime, sched_slice, the wake-up
 * granularity and PELT load as a task's own weight does (guest.c).  Exact
 * for one task of the group per CPU; the group's load is its runnable
 * count, not PELT's average of it.  A task outside every group (kernel
 * threads, and sessions of one task: a group with all its load on one
 * CPU weighs NICE_0_LOAD, as a task does) weighs NICE_0_LOAD.
 */
struct task_group;
/* A new autogroup of g (freed with g). */
struct task_group *task_group_create(struct guest *g);
/* Puts t, not yet runnable, in tg's session. */
void task_join_group(struct task *t, struct task_group *tg);

struct guest_params {
	stime_t sched_latency;        /* CFS target latency */
	stime_t min_granularity;
	stime_t wakeup_granularity;
	stime_t migration_cost;       /* sysctl_sched_migration_cost */
	stime_t tick;                 /* 1/HZ: when a nohz idle balance runs */
	int imbalance_pct;            /* of the vCPUs' sched domain */
};

struct guest {
	struct sim *sim;
	struct domain *dom;
	struct guest_params p;
	struct rng rng;               /* the domain's random stream */
	int nr_cpus;
	struct guest_vcpu **cpus;
	struct task **tasks;
	int nr_tasks, cap_tasks;
	int nr_queued;                /* ready normal tasks queued on all guest CPUs */
	int nr_idle;                  /* its idle guest CPUs (guest.c idle_sync) */
	bool idle_pull;               /* pull work to a vCPU that goes idle */
	struct task **timed;          /* tasks whose time is accounted */
	int nr_timed;
	/*
	 * What changed since the last pass of times_update: the timed tasks
	 * whose own inputs were written (capacity nr_timed), whether a guest
	 * CPU's on_pcpu was, and the runstate_changes of the domain it saw.
	 */
	struct task **time_dirty;
	int nr_time_dirty;
	bool views_stale;
	unsigned runstate_seen;
	struct task_group **groups;   /* its autogroups (task_group_create) */
	int nr_groups;
	int stepping_cpu;             /* guest CPU whose task's step runs now, or -1 */
	struct task *stepping_task;   /* that task (NULL: none) */
	enum guest_kernel kernel;     /* whose placement it follows (sim/engine/guest_kernel.h) */
	enum guest_llc llc;           /* the vCPUs it believes share a last-level cache */
	struct timer nohz_timer;      /* idle CPUs balance at the busy one's next tick */
	struct nic *nic;              /* dom0's physical NIC, once a workload uses it (nic.h) */
};

/* Sets up the guest layer for every domain of s and installs the core hooks. */
void guest_attach_all(struct sim *s);
void guest_free_all(struct sim *s);
/* The guest of domain d. */
static inline struct guest *guest_of(struct domain *d)
{
	return d->guest;
}

#endif
