/*
 * One simulated host: its pCPUs, domains and vCPUs, the event queue and
 * the random streams.  A struct sim owns everything of a run; nothing in
 * schedsim is global, so a test or an experiment can build many.
 *
 * The vCPU and pCPU state mirrors what Xen's scheduling core keeps
 * (xen/common/sched/core.c, private.h, cpupool.c): v->processor,
 * v->is_running, pause flags, runstates, and the state_entry_time that
 * both credit schedulers' ratelimits read.
 *
 * Schedulers schedule units on scheduling resources, as Xen's do.  With
 * sched-gran=cpu (the default) a unit is a vCPU and a resource a pCPU: the
 * same struct vcpu and struct pcpu serve both.  With sched-gran=core or socket
 * (Xen 4.13 and later, per cpupool) a unit is a struct vcpu of its own holding
 * one vCPU per thread of a core (socket), and a resource the threads of one
 * core (socket); the scheduler sees the unit and the resource's first pCPU
 * (its master) only, and the core (sim/engine/core.c) runs the unit's vCPUs on
 * the threads together.  The pCPUs are split into cpupools, each with its own
 * scheduler instance and granularity (sim/engine/cpupool.c).
 */
#ifndef SCHEDSIM_SIM_H
#define SCHEDSIM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/engine/cpumask.h"
#include "sim/engine/domain_type.h"
#include "sim/engine/guest_kernel.h"
#include "sim/engine/evq.h"
#include "sim/engine/hist.h"
#include "sim/engine/hw.h"
#include "sim/engine/rng.h"
#include "sim/engine/rt_params.h"
#include "sim/engine/topology.h"
#include "sim/stime.h"

struct scheduler;
struct cpupool;
struct sched_resource;
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
	struct hw_stats hw;            /* work done and time lost (sim/engine/hw.h) */
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
	int vcpu_id;                   /* within its domain (a unit: its first vCPU's, Xen's unit_id) */
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
	bool soft_narrows_pool;        /* that, and its pool's pCPUs ⊄ soft (has_soft_affinity) */
	void *sched_priv;              /* the scheduler's per-vCPU data */
	struct guest_vcpu *guest;      /* the guest layer's per-vCPU data */
	struct hw_vcpu hw;             /* where its cached lines are (sim/engine/hw.c) */
	struct vcpu_stats st;
	/*
	 * Scheduling unit (Xen's struct sched_unit).  A vCPU of a pool with
	 * sched-gran=cpu is its own unit (unit == the vCPU, members NULL).
	 * With a larger granularity, unit points to a struct vcpu that is the
	 * unit: members lists its vCPUs in the order of the resource's threads
	 * (idle units: the threads' idle vCPUs), its pause state summarises
	 * theirs (core.c keeps it: runnable when one of them is, VPF_* set
	 * when set in all), its processor is the resource's master, and its
	 * hard and soft affinities are what the scheduler reads (each member
	 * holds them widened to every thread of the resources they name).
	 */
	struct vcpu *unit;
	struct vcpu **members;
	int nr_members;
	bool force_context_switch;     /* gran > 1: its thread must switch alone */
	int dirty_cpu;                 /* the pCPU that holds its state (pcpu.loaded), or -1 */
	enum runstate new_state;       /* gran > 1: set for a unit about to run */
};

struct domain {
	int domid;
	char name[64];
	int weight, cap;
	int nr_vcpus;
	struct vcpu **vcpus;
	/* Its scheduling units (Xen's for_each_sched_unit): vcpus itself with sched-gran=cpu. */
	int nr_units;
	struct vcpu **units;
	struct cpupool *pool;          /* NULL for the idle domain */
	void *sched_priv;
	struct guest *guest;
	/* its vCPUs' runstate changes, which write woken_at (the guest's time accounting reads it) */
	unsigned runstate_changes;
	struct hw_domain hw;           /* where its memory is (sim/engine/hw.c) */
	enum domain_type type;         /* pv, pvh, hvm or native (never DEFAULT once built) */
	enum guest_kernel kernel;      /* whose placement its guest kernel follows (guest_kernel.h) */
	enum guest_llc llc;            /* the cache topology its guest kernel sees */
	bool is_idle;
};

struct pcpu {
	struct sim *sim;
	int id;
	struct vcpu *curr;             /* running vCPU (its idle vCPU when idle) */
	struct vcpu *idle;             /* its idle vCPU */
	/*
	 * The guest vCPU whose state the pCPU holds (Xen's per-CPU curr_vcpu):
	 * the last one it ran, kept while it idles (a switch to idle is lazy),
	 * NULL once that vCPU ran elsewhere (its state was synced away).
	 */
	struct vcpu *loaded;
	/*
	 * What the scheduler sees of the pCPU (on every thread of a
	 * resource alike): the unit its resource runs (Xen's curr_on_cpu())
	 * and the resource's idle unit; with sched-gran=cpu, curr and idle.
	 */
	struct vcpu *unit;
	struct vcpu *idle_unit;
	struct sched_resource *res;
	int res_idx;                   /* its place among res's threads */
	struct scheduler *sched;       /* its pool's scheduler */
	void *sched_priv;              /* the scheduler's, on a resource's master */
	struct timer s_timer;          /* end of the current slice (the master's serves its resource) */
	struct timer softirq;          /* delivery of a raised SCHEDULE_SOFTIRQ */
	/* sched-gran > 1: Xen's SCHED_SLAVE_SOFTIRQ and the rendezvous */
	struct timer slave;
	bool in_rendezvous;            /* waits for the other threads of its resource */
	bool guest_stopped;            /* its vCPU runs no guest code meanwhile */
	bool schedule_deferred;        /* SCHEDULE_SOFTIRQ raised while waiting */
};

/* Xen's sched-gran= (cpupool.c): the pCPUs of one scheduling resource. */
enum sched_gran { SCHED_GRAN_CPU, SCHED_GRAN_CORE, SCHED_GRAN_SOCKET };

/*
 * A scheduling resource (Xen's struct sched_resource): the pCPUs one
 * decision of the scheduler covers, all threads of a core (socket) under
 * sched-gran=core (socket), one pCPU otherwise.
 */
struct sched_resource {
	struct cpupool *pool;
	int nr_cpus;                   /* the pool's granularity */
	int *cpus;                     /* its pCPUs, master (the lowest) first */
	struct vcpu *curr;             /* the unit it runs */
	struct vcpu *idle;             /* its idle unit */
	int rendezvous_in;             /* threads yet to join the rendezvous under way, or 0 */
};

/*
 * A cpupool (Xen's struct cpupool): pCPUs with their own scheduler
 * instance and granularity.  Pool-0 (id 0) holds every pCPU that no other
 * pool of the scenario takes, and its scheduler is the one --sched names.
 */
struct cpupool {
	int id;
	char name[64];
	struct scheduler *sched;
	enum sched_gran gran;
	int sched_gran;                /* pCPUs per resource */
	struct cpumask *cpu_valid;     /* its pCPUs */
	struct cpumask *res_valid;     /* the master of each of its resources */
	int nr_res;
	struct sched_resource *res;
};

/*
 * The guest layer's side of the core.  vcpu_start and vcpu_stop: a vCPU
 * starts and stops running on a pCPU.  work_sync: a running vCPU's work
 * is to be brought up to now and its pending step re-timed; the hardware
 * model (sim/engine/hw.h) calls it after the vCPU's speed changed (what ran
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
	struct cpumask *online;        /* every pCPU of the host (cpu_online_map) */
	struct rng rng;                /* core randomness */
	uint64_t seed;
	int nr_cpus;
	struct pcpu *pcpus;
	int nr_domains;
	struct domain **domains;
	struct domain *idle_domain;
	int nr_pools;
	struct cpupool **pools;        /* Pool-0 first */
	struct scheduler *sched;       /* Pool-0's: the one --sched names */
	struct hw *hw;                 /* how fast running vCPUs work (sim/engine/hw.h) */
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

/* For a unit: one of its vCPUs is runnable (Xen's unit_runnable). */
static inline bool vcpu_runnable(const struct vcpu *v)
{
	return !v->pause_flags && !v->pause_count;
}

static inline bool is_idle_vcpu(const struct vcpu *v)
{
	return v->dom->is_idle;
}

/* The unit cpu's scheduling resource runs (Xen's curr_on_cpu). */
static inline struct vcpu *curr_on(const struct sim *s, int cpu)
{
	return s->pcpus[cpu].unit;
}

/* The idle unit of cpu's scheduling resource (Xen's sched_idle_unit). */
static inline struct vcpu *sched_idle_unit(const struct sim *s, int cpu)
{
	return s->pcpus[cpu].idle_unit;
}

/* The master of cpu's scheduling resource (Xen's sched_get_resource_cpu). */
static inline int sched_get_resource_cpu(const struct sim *s, int cpu)
{
	return s->pcpus[cpu].res->cpus[0];
}

/* The pCPUs d's scheduler sees: one per resource (Xen's cpupool_domain_master_cpumask). */
static inline const struct cpumask *cpupool_domain_master_cpumask(const struct domain *d)
{
	return d->pool->res_valid;
}

/* v runs guest code now: it is current on its pCPU, not held in a rendezvous. */
static inline bool vcpu_in_guest(const struct sim *s, const struct vcpu *v)
{
	return s->pcpus[v->processor].curr == v && !s->pcpus[v->processor].guest_stopped;
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

/* --- Scheduling core (sim/engine/core.c): what Xen's core.c does --- */

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
/*
 * Xen's sched_unit_pause_nosync / sched_unit_unpause (private.h): every
 * vCPU of unit u is paused (unpaused); u itself at sched-gran=cpu.
 */
static inline void sched_unit_pause_nosync(struct sim *s, struct vcpu *u)
{
	int i;

	if (!u->members)
		vcpu_pause_nosync(s, u);
	for (i = 0; u->members && i < u->nr_members; i++)
		vcpu_pause_nosync(s, u->members[i]);
}
static inline void sched_unit_unpause(struct sim *s, struct vcpu *u)
{
	int i;

	if (!u->members)
		vcpu_unpause(s, u);
	for (i = 0; u->members && i < u->nr_members; i++)
		vcpu_unpause(s, u->members[i]);
}
/* Recomputes unit u's pause state from its vCPUs' (sched-gran > 1). */
void unit_pause_sync(struct vcpu *u);
/* Sets or clears f on every vCPU of unit u (sched-gran > 1). */
void unit_change_pause_flags(struct vcpu *u, unsigned f, bool set);
/*
 * Set and clear pause flags without side effects (Xen's
 * sched_set_pause_flags): on a unit, on each of its vCPUs.
 */
static inline void sched_set_pause_flags(struct vcpu *v, unsigned f)
{
	if (v->members) {
		unit_change_pause_flags(v, f, true);
		return;
	}
	v->pause_flags |= f;
	if (v->unit != v)
		unit_pause_sync(v->unit);
}
static inline void sched_clear_pause_flags(struct vcpu *v, unsigned f)
{
	if (v->members) {
		unit_change_pause_flags(v, f, false);
		return;
	}
	v->pause_flags &= ~f;
	if (v->unit != v)
		unit_pause_sync(v->unit);
}
/* Assigns unit u its vCPUs' threads on the resource of master cpu (sched-gran > 1). */
void unit_set_res_members(struct sim *s, struct vcpu *u);
/*
 * Xen's sched_set_res: unit u is assigned to the scheduling resource
 * whose master is cpu; with sched-gran > 1 its vCPUs to that resource's
 * threads, in order.  Schedulers move units with it.
 */
static inline void sched_set_res(struct sim *s, struct vcpu *u, int cpu)
{
	u->processor = cpu;
	if (u->members)
		unit_set_res_members(s, u);
}
/*
 * Moves v: flags it VPF_MIGRATING; once it is off its pCPU the scheduler's
 * pick_resource chooses the new pCPU and v is woken there.
 */
void vcpu_migrate(struct sim *s, struct vcpu *v);
/*
 * Changes affinities (masks sized nr_cpus; NULL leaves one unchanged) and,
 * as Xen does, migrates v so its placement is re-evaluated.  Fails when
 * hard holds no pCPU the pool's scheduler sees (with sched-gran > 1 the
 * affinities are its unit's, and only masters count).
 */
int vcpu_set_affinity(struct sim *s, struct vcpu *v, const struct cpumask *hard,
		      const struct cpumask *soft);
/*
 * Recomputes v->soft_aff_effective and v->soft_narrows_pool from v's
 * masks and its domain's pool (whose pCPUs are set before any vCPU is
 * made, and do not change during a run).
 */
void vcpu_update_soft_effective(struct vcpu *v);

/*
 * A vCPU of d (its own unit, affinities "all"), and its release: sim_build
 * makes the domains' and the idle vCPUs with it, cpupool.c the units.
 */
struct vcpu *sim_vcpu_new(struct sim *s, struct domain *d, int id);
void sim_vcpu_free(struct vcpu *v);
/* Sets up pCPU cpu's core state (its timers); sim_build calls it. */
void sim_core_init_pcpu(struct sim *s, int cpu);
/* Raise SCHED_SLAVE_SOFTIRQ on cpu (sched-gran > 1): at once when local, after an IPI otherwise. */
void cpu_raise_slave_softirq(struct sim *s, int cpu);
/* Runs the simulation until 'until'; returns events handled. */
uint64_t sim_run_until(struct sim *s, stime_t until);
/* Closes the runstate and work accounting at now (before reading statistics). */
void sim_account_all(struct sim *s);
/* Invariant checker: returns false and fills s->check_error at the first violation. */
bool sim_check_invariants(struct sim *s);

#endif
