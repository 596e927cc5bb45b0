/*
 * Where a workload's time went: for each stage of its pipeline (one task,
 * or a group of like tasks such as make's job slots), the time spent in
 * each state of the guest layer's accounting (workloads/guest.h, enum
 * task_time: running, waiting for the guest's CPU, waiting for Xen,
 * waking, blocked for a reason the workload names), over one interval.
 * A stage may also be a state machine of the workload's own (the TCP
 * sender's limits), filled part by part.
 *
 * The contract (doc/json.md): every stage's parts add up to
 * tasks x (to_ns - from_ns).
 */
#ifndef SCHEDSIM_BREAKDOWN_H
#define SCHEDSIM_BREAKDOWN_H

#include <stdbool.h>

#include "sim/stime.h"
#include "workloads/guest.h"

#define BREAKDOWN_STAGES 12
#define BREAKDOWN_PARTS 12

struct breakdown_part {
	char name[24];
	stime_t ns;
};

struct breakdown_stage {
	char name[32];
	char domain[64];
	int tasks;                 /* tasks it sums (1 for a single task) */
	int nparts;
	struct breakdown_part parts[BREAKDOWN_PARTS];
};

struct breakdown {
	bool valid;
	stime_t from_ns, to_ns;
	int nstages;
	struct breakdown_stage stages[BREAKDOWN_STAGES];
};

/* Starts an empty breakdown of [from, to]. */
void breakdown_init(struct breakdown *b, stime_t from, stime_t to);
/* A new stage (NULL when all BREAKDOWN_STAGES are taken). */
struct breakdown_stage *breakdown_stage(struct breakdown *b, const char *name,
					const char *domain, int tasks);
/* Adds ns to the stage's part 'name' (created on first use, in order). */
void breakdown_part(struct breakdown_stage *st, const char *name, stime_t ns);
/*
 * A stage of n timed tasks (task_time_start), their times summed: parts
 * run, guest_wait, xen_wait, xen_wake, then "blocked:<reason>" for each
 * non-NULL reasons[r] (reasons may be NULL: one part "blocked"), then
 * sleep and exited.  Times the tasks spent blocked for a reason left
 * unnamed go to the first named one.
 */
struct breakdown_stage *breakdown_tasks(struct breakdown *b, struct sim *s, const char *name,
					struct task *const *t, int n,
					const char *const reasons[TASK_BLOCK_REASONS]);
/* The sum of a stage's parts. */
stime_t breakdown_stage_total(const struct breakdown_stage *st);

#endif
