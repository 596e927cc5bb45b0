/*
 * ARINC 653's private data structures, shared between
 * schedulers/arinc653.c and its unit tests (tests/check_arinc653.c).  The
 * layout follows Xen's xen/common/sched/arinc653.c: one a653sched_priv
 * per scheduler instance holding the schedule and where in it the pool
 * is, one arinc653_unit per vCPU.
 */
#ifndef SCHEDSIM_ARINC653_H
#define SCHEDSIM_ARINC653_H

#include <stdbool.h>

#include "schedulers/list.h"
#include "schedulers/sched.h"

/* Xen's DEFAULT_TIMESLICE: each of dom0's vCPUs in the default schedule. */
#define A653_DEFAULT_TIMESLICE MSEC(10)

/* What the scheduler does: 4.17's arinc653.c (also the older trees') or today's. */
enum a653_era { A653_ERA_4_17, A653_ERA_CURRENT };
/*
 * The era= choices: the trees.  2015 to 2017 run 4.17's arinc653.c and
 * differ from it only in where domain creation puts vCPU 0 (doc/eras.md).
 */
enum a653_tree { A653_TREE_2015, A653_TREE_2016, A653_TREE_2017, A653_TREE_4_17,
		 A653_TREE_CURRENT };

struct a653_config {
	int era;   /* enum a653_tree */
};

struct arinc653_unit {
	struct vcpu *unit;
	bool awake;                    /* woken, and not put to sleep since */
	struct sched_list list;        /* on unit_list (not idle units) */
};

struct a653_sched_entry {
	int domid;                     /* Xen: dom_handle */
	int unit_id;
	stime_t runtime;
	struct vcpu *unit;             /* NULL while no such vCPU exists */
};

struct a653sched_priv {
	struct sim *sim;
	enum a653_era era;
	struct a653_sched_entry schedule[ARINC653_MAX_DOMAINS_PER_SCHEDULE];
	unsigned num_schedule_entries;
	stime_t major_frame;
	stime_t next_major_frame;      /* when the next major frame starts */
	struct sched_list unit_list;
	/* Where the pool is in the schedule (function statics in 4.17). */
	unsigned sched_index;
	stime_t next_switch_time;
};

extern const struct sched_ops arinc653_ops;

static inline struct a653sched_priv *a653_priv(const struct scheduler *ops)
{
	return ops->priv;
}

#endif
