/*
 * What the scheduler modules share: the registry of the built-in
 * schedulers (by name, for --sched and --list-schedulers), making an
 * instance from a spec, and the affinity helpers of Xen's private.h.  The
 * interface each module fills, its ops table, is the engine's:
 * sim/engine/scheduler.h; schedulers/loader.h loads modules built outside
 * the tree (schedulers/module.h).
 */
#ifndef SCHEDSIM_SCHED_H
#define SCHEDSIM_SCHED_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/engine/scheduler.h"
#include "sim/engine/sim.h"
#include "sim/params.h"

/* Registered schedulers (schedulers/registry.c). */
const struct sched_ops *sched_find(const char *name);
/* sched_find, or NULL with "unknown scheduler 'x' (valid: ...)" in e. */
const struct sched_ops *sched_lookup(const char *name, struct err *e);
/* NULL-terminated list. */
const struct sched_ops *const *sched_all(void);
/*
 * Creates pool's instance of ops from a spec (gran= already taken out: see
 * sim/engine/cpupool.h): validates parameters, calls init.  The factory
 * that finds ops by the spec's name is the module loader's
 * (schedulers/loader.h), which knows the built-in schedulers and the
 * modules loaded.
 */
struct scheduler *sched_create(const struct sched_ops *ops, struct sim *s, struct cpupool *pool,
			       const struct sched_spec *spec, struct err *e);
void sched_destroy(struct scheduler *sch);
/*
 * --list-schedulers: one scheduler and its parameters, under name as
 * --sched takes it (NULL: ops->name) and with from, the module file it
 * came from (NULL for a built-in one); then the notes that end the list.
 */
void sched_describe(FILE *f, const char *name, const struct sched_ops *ops, const char *from);
void sched_list_notes(FILE *f);

/* --- Affinity helpers shared by schedulers (Xen's private.h) --- */

enum balance_step { BALANCE_SOFT_AFFINITY = 0, BALANCE_HARD_AFFINITY = 1 };
#define for_each_affinity_balance_step(step) \
	for ((step) = BALANCE_SOFT_AFFINITY; (step) <= BALANCE_HARD_AFFINITY; (step)++)

/*
 * soft_aff_effective and v's pool (the pCPUs its scheduler sees) is not
 * inside soft: kept by vcpu_update_soft_effective (sim/engine/sim.h), asked for
 * every queued vCPU of every peer in Credit1's steal.
 */
static inline bool has_soft_affinity(const struct sim *s, const struct vcpu *v)
{
	(void)s;
	return v->soft_narrows_pool;
}
/* SOFT: soft ∩ hard (hard if that is empty); HARD: hard.  Written into mask. */
void affinity_balance_cpumask(const struct vcpu *v, enum balance_step step,
			      struct cpumask *mask);
/*
 * Whether cpu is in the mask affinity_balance_cpumask writes, without
 * writing it: a test of one bit where the mask is 1024 bits of and, empty
 * and copy (Credit1's steal asks it of every queued vCPU of every peer).
 */
static inline bool affinity_balance_test(const struct vcpu *v, enum balance_step step,
					 unsigned cpu)
{
	if (!cpumask_test(v->hard, cpu))
		return false;   /* in neither soft ∩ hard nor hard */
	if (step == BALANCE_HARD_AFFINITY || cpumask_test(v->soft, cpu))
		return true;
	/*
	 * cpu is in hard but not soft, so hard is not inside soft, and
	 * soft_aff_effective says whether soft ∩ hard has a pCPU: only if it
	 * has none is the mask hard (the invariant checker holds the flag to
	 * the masks).
	 */
	return !v->soft_aff_effective;
}
/* affinity_balance_cpumask within the words w of mask only (sim/engine/cpumask.h). */
void affinity_balance_cpumask_words(const struct vcpu *v, enum balance_step step,
				    struct cpumask *mask, struct cpumask_words w);
/*
 * Xen's cpumask_any: the first pCPU of m, moved on by get_random() % weight
 * places when m has more than one; get_random() is the upper half of a
 * draw from the run's core generator.  m must not be empty.
 */
int sim_cpumask_any(struct sim *s, const struct cpumask *m);

#endif
