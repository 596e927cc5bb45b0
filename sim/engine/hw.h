/*
 * The hardware performance model: how fast each running vCPU does work.
 *
 * Workloads state CPU demand as work, in nanoseconds at full speed (on a
 * core whose other threads are idle, with warm caches and local memory).
 * Schedulers see time only, as in Xen: credit burns per nanosecond run, so
 * a vCPU slowed by a busy sibling burns the same credit for less work.
 * This module turns run time into work from the state of the machine
 * (../shared/reference/hardware.md; every parameter's source is in its
 * table, sim/engine/hw.c, and in doc/hardware.md):
 *
 *  - SMT: a thread runs slower while other threads of its core run
 *    non-idle vCPUs, by what both run.  A task's profile gives its speed
 *    beside a busy sibling running the same code (smt_speed; compilers
 *    0.65, the kernbench figure of real-measurements.md section 3); its
 *    pressure on the core's shared pipeline, sqrt(1/smt_speed - 1), is
 *    both what it takes from a sibling and what it loses to one: beside a
 *    sibling of profile b a unit of work takes 1 + pressure(a) *
 *    pressure(b) ns, summed over the busy siblings.
 *  - Memory bandwidth: a socket's memory controller serves the memory
 *    traffic of every thread running on it (mem_intensity of the time
 *    at full speed, streaming at memory-bandwidth, or at the profile's
 *    stream_gbps when its misses are prefetched ahead); the queueing delay
 *    as the socket's demand nears socket-memory-bandwidth, or the
 *    bandwidth itself beyond it, stretches each thread's memory time.
 *  - Caches: a vCPU whose working set is not warm where it starts
 *    refills it as its work touches the lines, not before: for the work
 *    in which a program touches its working set once (its fill time,
 *    from the footprint theory of locality and the power law of cache
 *    misses), each unit of work takes longer by the extra misses that
 *    the cold lines cost beyond those a warm cache has too (private-cache
 *    lines from the socket's last-level cache, the rest from memory, at
 *    the host's refill bandwidths).  A run cut short has touched, and
 *    paid for, only part of them.  Lines survive while the vCPU is away
 *    until the bytes that the others touched in that core's (socket's)
 *    cache exceed the room its own lines left there (LRU); moving to
 *    another core or socket leaves them behind.
 *  - NUMA: each domain's memory lives on nodes (sim/engine/numa_place.h for
 *    where xl puts it).  A task's time waiting on memory (its profile's
 *    mem_intensity) stretches by the remote penalty for the share of its
 *    domain's memory that is not on the node it runs on.
 *  - Idle states: a pCPU woken from idle runs its SCHEDULE_SOFTIRQ only
 *    after the exit latency of the deepest C-state (within max-cstate)
 *    whose target residency its idle time reached, so wake-to-run latency
 *    includes it, as in Xen's mwait_idle / acpi_processor_idle.
 *
 * The stretches add: a unit of work takes 1 + s + b + m + c ns of run
 * time, s from SMT, b from memory bandwidth, m from NUMA and c from a cold
 * cache while it fills, and the time lost is split between them in that
 * proportion.  With mode "ideal" every vCPU runs at full speed, memory is
 * uniform and pCPUs wake at once: the machine of the first schedsim.
 *
 * The data flow is one way: the core tells hw when a pCPU switches
 * vCPUs (hw_switch) and when it raises a softirq on a pCPU
 * (hw_wake_delay); the guest layer asks for the speed of the vCPU running
 * a task (hw_rate) and is told through the work_sync hook of struct
 * sim_hooks when it changes while the vCPU runs (a sibling thread, its
 * socket's memory load, once that has moved its time per unit of work by
 * more than 1 % of its full-speed time, or the end of its cache's fill).
 */
#ifndef SCHEDSIM_HW_H
#define SCHEDSIM_HW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/err.h"
#include "sim/params.h"
#include "sim/stime.h"

struct sim;
struct vcpu;
struct domain;

/* What a task's code asks of the hardware (workloads/workload.c sets it). */
struct hw_profile {
	double smt_speed;        /* speed beside a sibling thread of the same profile, (0, 1] */
	long long working_set;   /* bytes it keeps hot in the caches */
	double mem_intensity;    /* share of its full-speed time waiting on memory, [0, 1] */
	/*
	 * GB/s it streams from memory while it waits there, when its misses are
	 * prefetched ahead (a sequential sweep: workloads/stream.c); 0: a core's
	 * demand misses, memory-bandwidth.  Its traffic is mem_intensity times it.
	 */
	double stream_gbps;
};

/* Where run time that did no work went; cstate is wake-to-run time instead. */
enum hw_loss { HW_LOST_SMT, HW_LOST_CACHE, HW_LOST_NUMA, HW_LOST_CSTATE, HW_LOST_MEMBW,
	       HW_NR_LOST };
extern const char *const hw_loss_names[HW_NR_LOST];   /* "smt", "cache", ..., "membw" */

/* Per vCPU, in struct vcpu_stats. */
struct hw_stats {
	stime_t work_ns;                /* work done, ns at full speed */
	stime_t lost_ns[HW_NR_LOST];
};

/* Per vCPU: where its cached lines are (hw.c's business). */
struct hw_figures;
struct hw_vcpu {
	const struct hw_profile *prof;  /* of the task it ran last: what its lines hold */
	const struct hw_figures *figures; /* what hw.c worked out of a profile, last asked */
	const struct hw_figures *figures_before[3]; /* of the profiles asked before it */
	int warm_core, warm_socket;     /* -1: its lines are nowhere */
	long long core_bytes, llc_bytes;/* resident there when it left */
	double core_mark, llc_mark;     /* the caches' touched-bytes counters when it left */
	long long cold_core, cold_llc;  /* cold where this run started */
	/*
	 * This run's fill: its work in which the task touches its working set
	 * once, the part of it not done yet, the extra run time per unit of
	 * work meanwhile (the cold lines' misses), and the bytes touched per
	 * unit of work meanwhile.  The fill progresses from fill_from at
	 * fill_rate (work per ns run, as hw_rate last gave it; 0: not asked).
	 */
	double fill_work, fill_left, fill_extra, fill_touch;
	stime_t fill_from;
	double fill_rate;
};

/* Per domain: its memory. */
struct hw_domain {
	long long memory_mb;
	long long *node_mb;             /* per node */
	double *remote;                 /* per node: share of its memory elsewhere */
};

/* A vCPU's speed as the guest layer keeps it between changes. */
struct hw_rate {
	double rate;                    /* work per ns run (1: full speed) */
	double per_rate;                /* ns run per unit of work: 1 + the time lost */
	double smt_share;               /* share of the lost time due to SMT, */
	double membw_share;             /* to the socket's memory traffic, */
	double cache_share;             /* to a cold cache's fill; NUMA the rest */
};

enum hw_mode { HW_MODEL, HW_IDEAL };

/* Host hardware parameters: the <host> attributes of hw_host_params. */
struct hw_config {
	int mode;                       /* enum hw_mode */
	long long l2_size, llc_size;
	double llc_gbps, mem_gbps;      /* refill bandwidths, GB/s = bytes per ns */
	double socket_mem_gbps;         /* a socket's memory controller, GB/s */
	long long memory_per_node;
	double remote_penalty;          /* remote / local time of a memory access */
	char cstates[PARAM_STRING_MAX]; /* name:type:exit-latency:target-residency,... */
	long long max_cstate;           /* Xen's max_cstate= */
	bool autoballoon;               /* xl frees each domain's memory from dom0 */
	bool smt;                       /* Xen's smt=: off, one online thread per core */
};

/* The <host> attributes hw owns (NULL-terminated), for the loader and --list-host. */
extern const struct param_def hw_host_params[];
/* Defaults, then the given attributes; semantic checks (the C-state table). */
int hw_config_init(struct hw_config *c, const struct kvlist *attrs, int *line, struct err *e);
/* Checks what single attributes cannot (the C-state table's form and order). */
int hw_config_check(const struct hw_config *c, struct err *e);
/* --list-host: every host parameter, default, range, unit and source. */
void hw_list(FILE *f);

/*
 * The model of s's host (sim_build makes none for the ideal machine: a
 * NULL struct hw is the ideal machine, and every function below takes it).
 */
struct hw *hw_create(struct sim *s, const struct hw_config *c);
void hw_free(struct hw *hw);
static inline bool hw_is_ideal(const struct hw *hw)
{
	return !hw;
}
/* The profile of tasks that carry none. */
const struct hw_profile *hw_default_profile(void);

/* ---- the core (sim/engine/core.c) ---- */

/*
 * pCPU cpu switches from prev to next (either may be its idle vCPU),
 * after prev's guest layer has been told it stops and before next's is
 * told it starts; next's work starts at work_from, its cache's fill with
 * it.  Siblings whose speed changes hear it through the hook.
 */
void hw_model_switch(struct hw *hw, int cpu, struct vcpu *prev, struct vcpu *next,
		     stime_t work_from);
static inline void hw_switch(struct hw *hw, int cpu, struct vcpu *prev, struct vcpu *next,
			     stime_t work_from)
{
	if (hw)
		hw_model_switch(hw, cpu, prev, next, work_from);
}
/*
 * SCHEDULE_SOFTIRQ reaches pCPU cpu at time at: how much later it runs
 * (the exit latency when the pCPU sleeps in a C-state, else 0).
 */
stime_t hw_model_wake_delay(struct hw *hw, int cpu, stime_t at);
/*
 * Whether a softirq raised on pCPU cpu from another one is sent as an IPI:
 * not to an idle pCPU that sleeps in MWAIT (it monitors the softirq's
 * line); the ideal machine has no idle states and always sends it.
 */
bool hw_model_needs_ipi(const struct hw *hw, int cpu);
static inline bool hw_needs_ipi(const struct hw *hw, int cpu)
{
	return hw ? hw_model_needs_ipi(hw, cpu) : true;
}
static inline stime_t hw_wake_delay(struct hw *hw, int cpu, stime_t at)
{
	return hw ? hw_model_wake_delay(hw, cpu, at) : 0;
}
/* ---- the guest layer (workloads/guest.c) ---- */

/* The speed of running vCPU v doing a task of profile p (NULL: the default). */
void hw_rate(struct hw *hw, struct vcpu *v, const struct hw_profile *p, struct hw_rate *r);
/*
 * Whether running vCPU v, given speed r for profile p, would be given r
 * again, with nothing else to change but what it does here (the timing of
 * its cache fill's end, at the same instant): a query whose inputs (its
 * core's vCPUs and their profiles, its socket's memory time, whether its
 * cache fills) have not changed since it was given r.
 */
bool hw_rate_kept(struct hw *hw, struct vcpu *v, const struct hw_profile *p,
		  const struct hw_rate *r);

/* Work done in d ns run at rate r; the time lost is charged to st. */
static inline stime_t hw_charge(struct hw_stats *st, const struct hw_rate *r, stime_t d)
{
	stime_t work, lost, smt, membw, cache;

	if (r->rate == 1.0) {
		st->work_ns += d;
		return d;
	}
	work = (stime_t)((double)d * r->rate + 0.5);
	lost = d - work;
	smt = (stime_t)((double)lost * r->smt_share + 0.5);
	membw = (stime_t)((double)lost * r->membw_share + 0.5);
	if (membw > lost - smt)
		membw = lost - smt;
	cache = (stime_t)((double)lost * r->cache_share + 0.5);
	if (cache > lost - smt - membw)
		cache = lost - smt - membw;
	st->work_ns += work;
	st->lost_ns[HW_LOST_SMT] += smt;
	st->lost_ns[HW_LOST_MEMBW] += membw;
	st->lost_ns[HW_LOST_CACHE] += cache;
	st->lost_ns[HW_LOST_NUMA] += lost - smt - membw - cache;
	return work;
}

/*
 * Run time that 'work' takes at rate r (rounded up; STIME_MAX stays): work
 * times the time per unit of work, the number r->rate is the inverse of (a
 * product where a division by the rate cost a twentieth of a run's time).
 */
static inline stime_t hw_time_for(const struct hw_rate *r, stime_t work)
{
	double t;
	stime_t ti;

	if (r->rate == 1.0 || work <= 0 || work == STIME_MAX)
		return work;
	t = (double)work * r->per_rate;
	if (t >= (double)STIME_MAX)
		return STIME_MAX;
	ti = (stime_t)t;
	return ti < t ? ti + 1 : ti;
}

/* ---- domain memory (sim/experiment/build.c) ---- */

/* Free memory of node n, MiB. */
long long hw_node_free_mb(const struct hw *hw, int node);
/*
 * The host's autoballoon setting: xl then finds free, when it places a
 * domain, only what dom0's balloon driver gave back for it, an equal share
 * on each node.
 */
bool hw_autoballoon(const struct hw *hw);
/*
 * Puts memory_mb of d's memory on the nodes set in 'nodes' (nr_nodes
 * flags), evenly; what a node cannot hold goes to the others of the set,
 * then, unless strict, to any node with room.  memory_mb 0 takes no
 * memory but spreads d evenly over the set.  -1 when it does not fit.
 */
int hw_domain_memory(struct hw *hw, struct domain *d, const bool *nodes, long long memory_mb,
		     bool strict, struct err *e);

/* ---- checks ---- */

/* For --check: the per-core busy counts agree with what the pCPUs run. */
bool hw_check(struct hw *hw, char *msg, size_t len);

#endif
