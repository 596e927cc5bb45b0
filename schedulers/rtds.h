/*
 * RTDS's constants and private data structures, shared between
 * schedulers/rtds.c, the scenario loader (which checks a vCPU's period and
 * budget the way Xen's XEN_DOMCTL_SCHEDOP_putvcpuinfo does, to name the
 * file and line of a wrong one) and the unit tests (tests/check_rtds.c),
 * which build tiny hosts and call the decision functions directly.  The
 * layout follows Xen's xen/common/sched/rt.c: one rt_private per
 * scheduler instance with the global run, depleted and replenishment
 * queues, one rt_unit per vCPU (sched-gran=cpu).
 */
#ifndef SCHEDSIM_RTDS_H
#define SCHEDSIM_RTDS_H

#include <stdbool.h>
#include <stdint.h>

#include "schedulers/list.h"
#include "schedulers/sched.h"
#include "sim/engine/rt_params.h"

/* RTDS_DEFAULT_PERIOD, RTDS_DEFAULT_BUDGET: sim/engine/rt_params.h */
/* Xen's RTDS_MIN_PERIOD / RTDS_MIN_BUDGET: "considering the scheduling overhead". */
#define RTDS_MIN_PERIOD USEC(10)
#define RTDS_MIN_BUDGET USEC(10)
/*
 * XEN_DOMCTL_SCHEDOP_putvcpuinfo carries period and budget as uint32_t
 * microseconds (public/domctl.h, struct xen_domctl_sched_rtds), so that is
 * the largest value and the granularity a toolstack can set.
 */
#define RTDS_MAX_PARAM USEC(UINT32_MAX)
/* Xen's UPDATE_LIMIT_SHIFT: rt_update_deadline adds periods up to 2^10 of them. */
#define RTDS_UPDATE_LIMIT_SHIFT 10

/* rt_unit flags (Xen's __RTDS_*, as bit values). */
#define RTDS_scheduled        (1u << 1)  /* running, or not yet context-saved */
#define RTDS_delayed_runq_add (1u << 2)  /* queue it again at context_saved */
#define RTDS_depleted         (1u << 3)  /* ran out of budget (no extratime) */
#define RTDS_extratime        (1u << 4)  /* may run beyond its budget, at lower priority */

/*
 * The checks of Xen's putvcpuinfo (rt_validate_params in master): period
 * and budget at least 10 us, budget at most period, whole microseconds up
 * to 2^32 - 1.  Fills e ("budget 6ms is more than the period 5ms ...").
 */
int rtds_check_params(stime_t period, stime_t budget, struct err *e);

/* In time order: a comparison "era <= RTDS_ERA_4_17" means "4.17 or before". */
enum rtds_era { RTDS_ERA_2016, RTDS_ERA_2017, RTDS_ERA_4_17, RTDS_ERA_CURRENT };

struct rtds_config {
	int era;
};

struct rt_unit {
	struct sched_list q_elem;      /* on the runq or the depletedq */
	struct sched_list replq_elem;  /* on the replenishment queue */
	stime_t period, budget;
	stime_t cur_budget;            /* left in this period */
	stime_t last_start;            /* budget burnt up to here */
	stime_t cur_deadline;          /* end of this period */
	struct vcpu *v;
	unsigned priority_level;       /* 0, or the number of extratime refills */
	unsigned flags;                /* RTDS_* */
	/* Observation, not Xen's: runnable since this period began (for misses). */
	bool backlogged;
};

struct rt_private {
	struct sim *sim;
	enum rtds_era era;
	struct sched_list runq;        /* runnable units with budget, by priority */
	struct sched_list depletedq;   /* units without budget, unordered */
	struct sched_list replq;       /* units awaiting replenishment, by deadline */
	struct timer repl_timer;
	int repl_timer_cpu;            /* the pCPU the timer runs on (the first one) */
	struct cpumask *tickled;       /* pCPUs tickled and not yet scheduled */
	struct cpumask *scratch;
};

/* The internal functions, for tests/check_rtds.c. */
struct rtds_internals {
	stime_t (*compare_unit_priority)(const struct rt_unit *v1, const struct rt_unit *v2);
	void (*update_deadline)(stime_t now, struct rt_unit *svc);
	void (*burn_budget)(struct rt_private *prv, struct rt_unit *svc, stime_t now);
	void (*runq_insert)(struct rt_private *prv, struct rt_unit *svc);
	void (*replq_insert)(struct rt_private *prv, struct rt_unit *svc);
	struct rt_unit *(*runq_pick)(struct rt_private *prv, int cpu);
	void (*runq_tickle)(struct rt_private *prv, struct rt_unit *svc);
	void (*repl_timer_handler)(struct timer *t, void *data);
};

extern const struct sched_ops rtds_ops;
extern const struct rtds_internals rtds_internals;

static inline struct rt_private *rt_priv(const struct scheduler *ops)
{
	return ops->priv;
}

static inline struct rt_unit *rt_unit(const struct vcpu *v)
{
	return v->sched_priv;
}

#endif
