/*
 * cpupools and scheduling granularity: which pCPUs each scheduler instance
 * owns, how they group into scheduling resources, and how a domain's vCPUs
 * group into scheduling units (Xen's cpupool.c, and sched_alloc_unit,
 * schedule_cpu_add and sched-gran= of core.c).  sim_build
 * (sim/experiment/build.c) calls it; the core (sim/engine/core.c) runs what it
 * sets up.
 */
#ifndef SCHEDSIM_CPUPOOL_H
#define SCHEDSIM_CPUPOOL_H

#include "sim/engine/scenario.h"
#include "sim/engine/scheduler.h"
#include "sim/engine/sim.h"
#include "sim/err.h"
#include "sim/params.h"

/* "cpu", "core", "socket". */
const char *sched_gran_name(enum sched_gran g);

/*
 * Splits a scheduler spec into its granularity (gran=cpu|core|socket, a
 * key every scheduler takes, default cpu) and the scheduler's own spec
 * (out: the same without gran; free it with sched_spec_free).
 */
int sched_spec_take_gran(const struct sched_spec *in, struct sched_spec *out,
			 enum sched_gran *gran, struct err *e);

/*
 * Builds s->pools: Pool-0 with every pCPU no <pool> of the scenario takes
 * and the scheduler of spec, then each <pool> with its own (its sched=,
 * else spec).  Each pool's pCPUs are grouped into resources by its
 * granularity; every pCPU gets its resource, its resource's idle unit and
 * its pool's scheduler, and each resource's master joins the scheduler
 * (alloc_udata of the idle unit, then init_pdata), in pCPU order.  Each
 * pool's scheduler instance is made by make(ctx, ...) (sim_build passes
 * the module loader's sched_modules_create and the modules loaded).
 * Errors name the scenario's file:line.
 */
int cpupools_build(struct sim *s, const struct scenario *sc, const struct sched_spec *spec,
		   sched_factory *make, const void *ctx, struct err *e);
/* Frees what cpupools_build made but the schedulers' data (sim_destroy frees those first). */
void cpupools_free(struct sim *s);
/* The pool named name ("Pool-0" or "" is Pool-0), or NULL. */
struct cpupool *cpupool_find(struct sim *s, const char *name);

/*
 * d's unit list (Xen's for_each_sched_unit): its vCPU list itself with
 * one pCPU per resource, else room for one unit per gran vCPUs.
 */
void cpupool_domain_units_alloc(struct domain *d);
/*
 * Puts the new vCPU v (placed on its initial pCPU) into its unit, as
 * Xen's sched_init_vcpu does with sched_alloc_unit: with one pCPU per
 * resource v is its own unit; otherwise vCPUs k*gran .. k*gran+gran-1
 * form unit k (unit_id: its first vCPU's id), made on the resource of its
 * first vCPU's initial pCPU, each vCPU on the thread of its place.
 * Returns the unit when v starts one (for alloc_udata and insert_unit),
 * NULL when v joined its unit.
 */
struct vcpu *cpupool_vcpu_unit(struct sim *s, struct domain *d, struct vcpu *v);
/* Frees d's unit objects (not the vCPUs). */
void cpupool_domain_units_free(struct domain *d);

#endif
