/*
 * The one place where the scheduler interfaces of Xen's eras differ, for
 * glue.c (compiled once per tree, with XS_IFACE and the other XS_* flags
 * from xen-shim/probe-tree.sh):
 *
 *   XS_IFACE_VCPU      up to Xen 4.12: the vCPU is what is scheduled
 *                      (xen/include/xen/sched-if.h, xen/common/sched_*.c):
 *                      hooks insert_vcpu, pick_cpu, do_schedule returning
 *                      struct task_slice, per-cpu schedule_data, the
 *                      scheduler's data in v->sched_priv, domains set up
 *                      by init_domain.  sched-if.h grew init_pdata and
 *                      switch_sched in 2016 (XS_HAVE_INIT_PDATA,
 *                      XS_HAVE_SWITCH_SCHED).
 *   XS_IFACE_UNIT      4.13 to 4.22: struct sched_unit and struct
 *                      sched_resource (xen/common/sched/private.h), the
 *                      hooks called through private.h's sched_*().
 *   XS_IFACE_UNIT_OPS  from 2026: the same, with the hooks moved out of
 *                      struct scheduler into a shared struct sched_ops.
 *
 * glue.c works on "xs_unit" (struct sched_unit, or struct vcpu before
 * 4.13) through the accessors and xs_sched_*() calls below, so what it
 * does in core.c's name (locks, curr, is_running, state_entry_time) is
 * written once.  A hook a scheduler does not set is skipped, as Xen's
 * SCHED_OP and private.h's wrappers do.
 */
#ifndef XEN_SHIM_IFACE_H
#define XEN_SHIM_IFACE_H

#define XS_IFACE_VCPU 1
#define XS_IFACE_UNIT 2
#define XS_IFACE_UNIT_OPS 3

#ifndef XS_IFACE
#error "XS_IFACE is set per tree by the build (xen-shim/probe-tree.sh)"
#endif

#if XS_IFACE == XS_IFACE_VCPU

#include <xen/sched-if.h>

typedef struct vcpu xs_unit;

#define XU_VCPU(u) (u)
#define XU_PRIV(u) ((u)->sched_priv)
#define XU_CPU(u) ((u)->processor)
#define XU_LOCK(u) vcpu_schedule_lock_irq(u)
#define XU_UNLOCK(l, u) vcpu_schedule_unlock_irq(l, u)
#define XS_CPU_LOCK(cpu) (per_cpu(schedule_data, cpu).schedule_lock)
#define XS_CPU_CURR(cpu) (per_cpu(schedule_data, cpu).curr)
#define XS_OPS(s) (s)

static inline void xs_sched_set_def(struct scheduler *s, const void *def)
{
	*s = *(const struct scheduler *)def;
}

#define XS_HOOK(s, fn, ...) do { if ((s)->fn) (s)->fn((s), ## __VA_ARGS__); } while (0)

static inline int xs_sched_init(struct scheduler *s)
{
	return s->init ? s->init(s) : 0;
}

static inline void xs_sched_deinit(struct scheduler *s)
{
	XS_HOOK(s, deinit);
}

static inline void *xs_sched_alloc_pdata(struct scheduler *s, int cpu)
{
	return s->alloc_pdata ? s->alloc_pdata(s, cpu) : NULL;
}

static inline void *xs_sched_alloc_udata(struct scheduler *s, xs_unit *u, void *dd)
{
	return s->alloc_vdata(s, u, dd);
}

/*
 * sched_init_domain(): init_domain sets d->sched_priv (its alloc_domdata
 * inside) where the interface has it (XS_HAVE_INIT_DOMAIN).
 */
static inline void *xs_sched_alloc_domdata(struct scheduler *s, struct domain *d)
{
#ifdef XS_HAVE_INIT_DOMAIN
	if (s->init_domain) {
		int rc = s->init_domain(s, d);

		return rc ? ERR_PTR(rc) : d->sched_priv;
	}
#endif
	return s->alloc_domdata ? s->alloc_domdata(s, d) : NULL;
}

static inline void xs_sched_insert(struct scheduler *s, xs_unit *u)
{
	XS_HOOK(s, insert_vcpu, u);
}

static inline void xs_sched_remove(struct scheduler *s, xs_unit *u)
{
	XS_HOOK(s, remove_vcpu, u);
}

static inline void xs_sched_wake(struct scheduler *s, xs_unit *u)
{
	XS_HOOK(s, wake, u);
}

static inline void xs_sched_sleep(struct scheduler *s, xs_unit *u)
{
	XS_HOOK(s, sleep, u);
}

static inline void xs_sched_yield(struct scheduler *s, xs_unit *u)
{
	XS_HOOK(s, yield, u);
}

static inline void xs_sched_context_saved(struct scheduler *s, xs_unit *u)
{
	XS_HOOK(s, context_saved, u);
}

/* vcpu_move_locked(): the scheduler's migrate, or just the new processor. */
static inline void xs_sched_migrate(struct scheduler *s, xs_unit *u, unsigned int cpu)
{
	if (s->migrate)
		s->migrate(s, u, cpu);
	else
		u->processor = cpu;
}

static inline unsigned int xs_sched_pick(struct scheduler *s, xs_unit *u)
{
	return (unsigned int)s->pick_cpu(s, u);
}

/* The hook from 4.11 (XS_HAVE_ADJUST_AFFINITY); before, Xen only changes the masks. */
static inline void xs_sched_adjust_affinity(struct scheduler *s, xs_unit *u,
					    const cpumask_t *hard, const cpumask_t *soft)
{
#ifdef XS_HAVE_ADJUST_AFFINITY
	XS_HOOK(s, adjust_affinity, u, hard, soft);
#endif
}

static inline int xs_sched_adjust_dom(struct scheduler *s, struct domain *d,
				      struct xen_domctl_scheduler_op *op)
{
	return s->adjust ? s->adjust(s, d, op) : 0;
}

static inline int xs_sched_adjust_global(struct scheduler *s, struct xen_sysctl_scheduler_op *op)
{
	return s->adjust_global ? s->adjust_global(s, op) : 0;
}

static inline void xs_sched_dump_settings(struct scheduler *s)
{
	XS_HOOK(s, dump_settings);
}

static inline void xs_sched_dump_cpu_state(struct scheduler *s, int cpu)
{
	XS_HOOK(s, dump_cpu_state, cpu);
}

/* schedule(): the decision comes back as a struct task_slice. */
static inline xs_unit *xs_sched_do_schedule(struct scheduler *s, xs_unit *prev, s_time_t now,
					    bool tasklet, s_time_t *slice, bool *migrated)
{
	struct task_slice ts = s->do_schedule(s, now, tasklet);

	*slice = ts.time;
	*migrated = ts.migrated;
	return ts.task;
}

#else /* XS_IFACE_UNIT, XS_IFACE_UNIT_OPS */

#include "xen-sched/private.h"

typedef struct sched_unit xs_unit;

#define XU_VCPU(u) ((u)->vcpu_list)
#define XU_PRIV(u) ((u)->priv)
#define XU_CPU(u) sched_unit_master(u)
#define XU_LOCK(u) unit_schedule_lock_irq(u)
#define XU_UNLOCK(l, u) unit_schedule_unlock_irq(l, u)
#define XS_CPU_LOCK(cpu) (get_sched_res(cpu)->schedule_lock)
#define XS_CPU_CURR(cpu) (get_sched_res(cpu)->curr)

#if XS_IFACE == XS_IFACE_UNIT_OPS
#define XS_OPS(s) ((s)->ops)
static inline void xs_sched_set_def(struct scheduler *s, const void *def)
{
	s->ops = def;
}
#else
#define XS_OPS(s) (s)
static inline void xs_sched_set_def(struct scheduler *s, const void *def)
{
	*s = *(const struct scheduler *)def;
}
#endif

#define xs_sched_init sched_init
#define xs_sched_deinit sched_deinit
#define xs_sched_alloc_pdata sched_alloc_pdata
#define xs_sched_alloc_udata sched_alloc_udata
#define xs_sched_alloc_domdata sched_alloc_domdata
#define xs_sched_insert sched_insert_unit
#define xs_sched_remove sched_remove_unit
#define xs_sched_wake sched_wake
#define xs_sched_sleep sched_sleep
#define xs_sched_yield sched_yield
#define xs_sched_context_saved sched_context_saved
#define xs_sched_migrate sched_migrate
#define xs_sched_adjust_affinity sched_adjust_affinity
#define xs_sched_adjust_dom sched_adjust_dom
#define xs_sched_adjust_global sched_adjust_cpupool
#define xs_sched_dump_settings sched_dump_settings
#define xs_sched_dump_cpu_state sched_dump_cpu_state

static inline unsigned int xs_sched_pick(struct scheduler *s, xs_unit *u)
{
	return sched_pick_resource(s, u)->master_cpu;
}

/* schedule(): the decision comes back in prev->next_task and next_time. */
static inline xs_unit *xs_sched_do_schedule(struct scheduler *s, xs_unit *prev, s_time_t now,
					    bool tasklet, s_time_t *slice, bool *migrated)
{
	prev->next_task = NULL;
	XS_OPS(s)->do_schedule(s, prev, now, tasklet);
	*slice = prev->next_time;
	*migrated = prev->next_task ? prev->next_task->migrated : false;
	return prev->next_task;
}

#endif

static inline int xs_sched_global_init(struct scheduler *s)
{
	return XS_OPS(s)->global_init ? XS_OPS(s)->global_init() : 0;
}

#endif
