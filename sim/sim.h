/*
 * One simulated host: its pCPUs, domains and vCPUs, the event queue and
 * the random streams.  A struct sim owns everything of a run; nothing in
 * schedsim is global, so a test or an experiment can build many.
 *
 * The vCPU and pCPU state mirrors what Xen's scheduling core keeps
 * (xen/common/sched/core.c, with sched-gran=cpu, so a "unit" is a vCPU):
 * v->processor, v->is_running, pause flags, runstates, and the
 * state_entry_time that both credit schedulers' ratelimits read.
 */
#ifndef SCHEDSIM_SIM_H
#define SCHEDSIM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/cpumask.h"
#include "sim/evq.h"
#include "sim/hist.h"
#include "sim/hw.h"
#include "sim/rng.h"
#include "sim/rt_params.h"
#include "sim/stime.h"
#include "sim/topology.h"

struct scheduler;
struct guest;
struct guest_vcpu;
struct tracer;
struct workload;

/* Xen's runstates (public/vcpu.h); the values are Xen's. */
enum runstate {
	RUNSTATE_RUNNING = 0,
	RUNSTATE_RUNNABLE = 1,
	RUNSTATE_BLOCKED = 2,
	RUNSTATE_OFFLINE = 3,
	NR_RUNSTATES
};

/* Pause flags (Xen's _VPF_*): any flag set makes a vCPU not runnable. */
#define VPF_BLOCKED   (1u << 0)  /* halted, waiting for an event */
#define VPF_DOWN      (1u << 1)  /* offline */
#define VPF_MIGRATING (1u << 2)  /* must move: taken off its pCPU, then placed anew */
#define VPF_PARKED    (1u << 3)  /* Credit2: out of cap budget */

#define DOMID_IDLE 32767

struct vcpu_stats {
	stime_t runstate_ns[NR_RUNSTATES];
	struct hist wake_latency;      /* blocked -> runnable -> running */
	uint64_t migrations;           /* runs started on another pCPU than the last */
	uint64_t context_switches;     /* times switched in */
	stime_t soft_run_ns;           /* run time on pCPUs of its soft affinity */
	struct cpumask *pcpus;         /* pCPUs it ran on */
	struct hw_stats hw;            /* work done and time lost (sim/hw.h) */
	stime_t woken_at;              /* -1 unless waiting to run after a wake */
	int last_cpu;                  /* pCPU of its last run, -1 before the first */
	/*
	 * Kept by a scheduler with deadlines (RTDS): periods it judged (the
	 * vCPU was runnable from the period's start to its deadline), of
	 * those the periods that ended with part of the budget not delivered,
	 * and the largest part not delivered.
	 */
	uint64_t deadlines, deadline_misses;
	stime_t deadline_worst_miss_ns;
};

struct vcpu {
	int vcpu_id;                   /* within its domain */
	struct domain *dom;
	int processor;                 /* pCPU it is assigned to */
	bool is_running;               /* on a pCPU now */
	unsigned pause_flags;          /* VPF_* */
	int pause_count;               /* vcpu_pause nesting */
	enum runstate runstate;
	stime_t runstate_entry;
	stime_t state_entry_time;      /* Xen's unit->state_entry_time */
	struct cpumask *hard, *soft;   /* affinities */
	struct rt_params rt;           /* RTDS period, budget, extratime */
	bool soft_aff_effective;       /* soft ∩ hard non-empty and hard ⊄ soft */
	void *sched_priv;              /* the scheduler's per-vCPU data */
	struct guest_vcpu *guest;      /* the guest layer's per-vCPU data */
	struct hw_vcpu hw;             /* where its cached lines are (sim/hw.c) */
	struct vcpu_stats st;
};

struct domain {
	int domid;
	char name[64];
	int weight, cap;
	int nr_vcpus;
	struct vcpu **vcpus;
	void *sched_priv;
	struct guest *guest;
	struct hw_domain hw;           /* where its memory is (sim/hw.c) */
	bool is_idle;
};

struct pcpu {
	struct sim *sim;
	int id;
	struct vcpu *curr;             /* running vCPU (its idle vCPU when idle) */
	struct vcpu *idle;
	void *sched_priv;
	struct timer s_timer;          /* end of the current slice */
	struct timer softirq;          /* delivery of a raised SCHEDULE_SOFTIRQ */
};

/*
 * The guest layer's side of the core.  vcpu_start and vcpu_stop: a vCPU
 * starts and stops running on a pCPU.  work_sync: a running vCPU's work
 * is to be brought up to now and its pending step re-timed; the hardware
 * model (sim/hw.h) calls it after the vCPU's speed changed (what ran
 * before ran at the old speed), the core when it closes a run's
 * accounting.  check (optional) is the layer's own part of the invariant
 * checker: it returns false and fills s->check_error at a violation.
 */
struct sim_hooks {
	void (*vcpu_start)(struct sim *s, struct vcpu *v, stime_t work_from);
	void (*vcpu_stop)(struct sim *s, struct vcpu *v);
	void (*work_sync)(struct sim *s, struct vcpu *v);
	bool (*check)(struct sim *s);
};

/*
 * Trace sink (xentrace export etc.); NULL when tracing is off.  start and
 * stop are optional: the core calls start before the first event of a run
 * (sim_run_until) and stop when the run's accounting closes
 * (sim_account_all), so a writer can describe the machine as it is when
 * its window opens and close every open interval at the end.
 */
struct tracer {
	void (*record)(struct tracer *t, int cpu, stime_t now, uint32_t event,
		       int n, const uint32_t *data);
	void (*start)(struct tracer *t, struct sim *s);
	void (*stop)(struct tracer *t, struct sim *s);
};

struct sim {
	struct evq q;
	struct topology topo;
	struct cpumask *online;        /* the pCPUs of the (single) cpupool */
	struct rng rng;                /* core randomness */
	uint64_t seed;
	int nr_cpus;
	struct pcpu *pcpus;
	int nr_domains;
	struct domain **domains;
	struct domain *idle_domain;
	struct scheduler *sched;
	struct hw *hw;                 /* how fast running vCPUs work (sim/hw.h) */
	struct workload **workloads;   /* attached by sim_build */
	int nr_workloads;
	struct sim_hooks hooks;
	struct tracer *tracer;
	int this_cpu;                  /* pCPU whose code runs now, -1 if none */
	bool check;                    /* run the invariant checker */
	stime_t ipi_latency;           /* remote SCHEDULE_SOFTIRQ delivery */
	stime_t context_switch_cost;   /* guest work starts this long after a switch */
	bool stop_requested;           /* a workload finished its job */
	char check_error[512];         /* first invariant violation, "" if none */
};

static inline stime_t sim_now(const struct sim *s)
{
	return s->q.now;
}

static inline bool vcpu_runnable(const struct vcpu *v)
{
	return !v->pause_flags && !v->pause_count;
}

static inline bool is_idle_vcpu(const struct vcpu *v)
{
	return v->dom->is_idle;
}

static inline struct vcpu *curr_on(const struct sim *s, int cpu)
{
	return s->pcpus[cpu].curr;
}

static inline void sim_trace(struct sim *s, int cpu, uint32_t event, int n,
			     const uint32_t *data)
{
	if (s->tracer)
		s->tracer->record(s->tracer, cpu, s->q.now, event, n, data);
}

/* Ends the run after the current event (a workload's job is done). */
static inline void sim_request_stop(struct sim *s)
{
	s->stop_requested = true;
}

/* --- Scheduling core (sim/core.c): what Xen's core.c does --- */

/* Raise SCHEDULE_SOFTIRQ on cpu: at once when local, after an IPI otherwise. */
void cpu_raise_softirq(struct sim *s, int cpu);
/* The vCPU can run again (its wake path in the scheduler decides when). */
void vcpu_wake(struct sim *s, struct vcpu *v);
/* The vCPU must not run; if it runs, its pCPU reschedules. */
void vcpu_sleep_nosync(struct sim *s, struct vcpu *v);
/* The guest halts the vCPU (SCHEDOP_block). */
void vcpu_block(struct sim *s, struct vcpu *v);
/* An event for a halted vCPU: clears VPF_BLOCKED and wakes it. */
void vcpu_unblock(struct sim *s, struct vcpu *v);
/* The guest yields (SCHEDOP_yield). */
void vcpu_yield(struct sim *s, struct vcpu *v);
void vcpu_pause_nosync(struct sim *s, struct vcpu *v);
void vcpu_unpause(struct sim *s, struct vcpu *v);
/* Set and clear pause flags without side effects (Xen's sched_set_pause_flags). */
static inline void sched_set_pause_flags(struct vcpu *v, unsigned f)
{
	v->pause_flags |= f;
}
static inline void sched_clear_pause_flags(struct vcpu *v, unsigned f)
{
	v->pause_flags &= ~f;
}
/*
 * Moves v: flags it VPF_MIGRATING; once it is off its pCPU the scheduler's
 * pick_resource chooses the new pCPU and v is woken there.
 */
void vcpu_migrate(struct sim *s, struct vcpu *v);
/*
 * Changes affinities (masks sized nr_cpus; NULL leaves one unchanged) and,
 * as Xen does, migrates v so its placement is re-evaluated.  Fails when
 * hard holds no pCPU of the pool.
 */
int vcpu_set_affinity(struct sim *s, struct vcpu *v, const struct cpumask *hard,
		      const struct cpumask *soft);
/* Recomputes v->soft_aff_effective from v's masks. */
void vcpu_update_soft_effective(struct vcpu *v);

/* Sets up pCPU cpu's core state (its timers); sim_build calls it. */
void sim_core_init_pcpu(struct sim *s, int cpu);
/* Runs the simulation until 'until'; returns events handled. */
uint64_t sim_run_until(struct sim *s, stime_t until);
/* Closes the runstate and work accounting at now (before reading statistics). */
void sim_account_all(struct sim *s);
/* Invariant checker: returns false and fills s->check_error at the first violation. */
bool sim_check_invariants(struct sim *s);

#endif
