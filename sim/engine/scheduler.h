/*
 * The scheduler interface: one ops table per scheduler, mirroring Xen's
 * struct scheduler (xen/common/sched/private.h).  A scheduler schedules
 * units on scheduling resources: a Xen "unit" is a struct vcpu here (the
 * vCPU itself with sched-gran=cpu, a unit of several with core or socket:
 * see sim/engine/sim.h), a resource is named by its master pCPU.  Each instance
 * serves one cpupool (scheduler->pool) and sees only that pool's
 * resources (its res_valid) and domains.  The core (sim/engine/core.c) calls
 * these hooks at the moments Xen's core.c does:
 *
 *   insert_unit    a vCPU joins (after alloc_udata); not running yet
 *   remove_unit    a vCPU leaves
 *   wake           vcpu_wake() on a runnable vCPU
 *   sleep          vcpu_sleep_nosync() on a vCPU that is not runnable
 *                  (pause, migration start); NOT on a plain block
 *   yield          the vCPU yields; the core then reschedules its pCPU
 *   do_schedule    SCHEDULE_SOFTIRQ on a pCPU: pick what runs next
 *   context_saved  prev is fully off its pCPU (is_running already false)
 *   pick_resource  choose a pCPU for a vCPU (migration finish, insert)
 *   migrate        move a not-running vCPU to new_cpu (optional: the core
 *                  sets v->processor when absent)
 *   adjust         XEN_DOMCTL_SCHEDOP_put(vcpu)info on a domain
 *   adjust_global  XEN_SYSCTL_SCHEDOP_putinfo: a pool-wide setting that
 *                  key=value parameters cannot carry (the ARINC 653 schedule)
 *
 * do_schedule returns its choice in struct sched_decision, like Xen's
 * prev->next_task / next_time / migrated.  Per-instance state lives in
 * scheduler->priv; nothing is global.
 */
#ifndef SCHEDSIM_ENGINE_SCHEDULER_H
#define SCHEDSIM_ENGINE_SCHEDULER_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/engine/sim.h"
#include "sim/params.h"

struct sched_decision {
	struct vcpu *next;
	stime_t time_slice;   /* < 0: no slice timer */
	bool migrated;        /* next was taken from another pCPU's queue */
};

/*
 * Xen's struct xen_sysctl_arinc653_schedule (public/sysctl.h), with a
 * domain named by its domid where Xen has its handle (UUID).
 */
#define ARINC653_MAX_DOMAINS_PER_SCHEDULE 64

struct arinc653_entry {
	int domid;
	int vcpu_id;
	stime_t runtime;
};

struct arinc653_schedule {
	stime_t major_frame;
	int num_sched_entries;
	struct arinc653_entry entries[ARINC653_MAX_DOMAINS_PER_SCHEDULE];
};

/* What XEN_SYSCTL_SCHEDOP_putinfo carries (Xen's union in xen_sysctl_scheduler_op). */
struct sched_global_op {
	const struct arinc653_schedule *arinc653;
};

struct scheduler;

struct sched_ops {
	const char *name;            /* "credit2" */
	const char *alias;           /* "credit" for credit1, or NULL */
	const char *summary;         /* one line for --list-schedulers */
	const struct param_def *params;  /* NULL-terminated, may be NULL */
	size_t config_size;          /* size of the struct params fill */

	/* s->config is filled; allocate s->priv.  May fail (bad combination). */
	int (*init)(struct scheduler *s, struct err *e);
	void (*deinit)(struct scheduler *s);
	/* pCPU cpu joins the scheduler (alloc_pdata + init_pdata + switch_sched). */
	void (*init_pdata)(struct scheduler *s, int cpu);
	void *(*alloc_domdata)(struct scheduler *s, struct domain *d);
	void (*free_domdata)(struct scheduler *s, void *data);
	/*
	 * Optional: refuses RTDS parameters a domain's vCPUs are to get
	 * (rt[0..nr-1], the future v->rt) that this scheduler cannot take,
	 * filling e; before the domain is built.
	 */
	int (*check_rt)(struct scheduler *s, const struct rt_params *rt, int nr, struct err *e);
	/*
	 * Optional: refuses a domain's cap (percent of one pCPU, not 0) that
	 * this scheduler cannot take with the domain's nr_units scheduling
	 * units, filling e; before the domain is built.
	 */
	int (*check_cap)(struct scheduler *s, int cap, int nr_units, struct err *e);
	void *(*alloc_udata)(struct scheduler *s, struct vcpu *v, void *domdata);
	void (*free_udata)(struct scheduler *s, void *data);

	void (*insert_unit)(struct scheduler *s, struct vcpu *v);
	void (*remove_unit)(struct scheduler *s, struct vcpu *v);
	void (*sleep)(struct scheduler *s, struct vcpu *v);
	void (*wake)(struct scheduler *s, struct vcpu *v);
	void (*yield)(struct scheduler *s, struct vcpu *v);
	void (*context_saved)(struct scheduler *s, struct vcpu *v);
	void (*do_schedule)(struct scheduler *s, struct vcpu *curr, stime_t now,
			    bool tasklet_work_scheduled, struct sched_decision *out);
	int (*pick_resource)(struct scheduler *s, struct vcpu *v);
	void (*migrate)(struct scheduler *s, struct vcpu *v, int new_cpu);
	/*
	 * Scheduling parameters of d changed, already stored: d->weight,
	 * d->cap, and each vCPU's RTDS parameters (v->rt).
	 */
	void (*adjust)(struct scheduler *s, struct domain *d);
	/* Installs op (fails, filling e, on values the scheduler refuses). */
	int (*adjust_global)(struct scheduler *s, const struct sched_global_op *op,
			     struct err *e);
	/* Affinities of v changed (already stored in v->hard, v->soft). */
	void (*adjust_affinity)(struct scheduler *s, struct vcpu *v);
	void (*dump)(struct scheduler *s, FILE *f);
	/* Current credit of v in the scheduler's own unit, for plots and traces. */
	bool (*unit_credit)(struct scheduler *s, struct vcpu *v, long long *credit);
};

/*
 * Where Xen puts a new domain's vCPU 0 before the scheduler's insert sees
 * it (the others follow, each on the pCPU after its predecessor's).  That
 * is domain-creation code, not the scheduler's, but it changed with the
 * tree an era names, so the scheduler's init says which rule its tree had
 * (sim/experiment/build.c applies it):
 */
enum initial_cpu_rule {
	/* 4.13 on, sched_select_initial_cpu (8d3c326f67, 2019): the first pCPU */
	INITIAL_CPU_FIRST,
	/* 2016-07-15 (d5438accce) to 4.12, XEN_DOMCTL_max_vcpus: cpumask_any(online), a random one */
	INITIAL_CPU_ANY,
	/* before: default_vcpu0_location, the least used pCPU that is not a core's first thread */
	INITIAL_CPU_LEAST_USED,
};

struct scheduler {
	const struct sched_ops *ops;
	struct sim *sim;
	struct cpupool *pool;   /* the pool it serves (Xen's scheduler->cpupool) */
	void *config;     /* filled from ops->params */
	void *priv;
	enum initial_cpu_rule initial_cpu;   /* set by init (its era's tree); FIRST unless set */
};

/* The pCPUs sch sees: one per scheduling resource of its pool (Xen's cpupool->res_valid). */
static inline const struct cpumask *sched_res_valid(const struct scheduler *sch)
{
	return sch->pool->res_valid;
}

/*
 * Makes pool's scheduler instance from a spec (gran= already taken out:
 * see sim/engine/cpupool.h).  The engine knows no scheduler by name: the
 * layer that builds a machine passes the module loader's factory
 * (schedulers/loader.h) and its context, the modules loaded, to
 * cpupools_build.
 */
typedef struct scheduler *sched_factory(const void *ctx, struct sim *s, struct cpupool *pool,
				       const struct sched_spec *spec, struct err *e);

#endif
