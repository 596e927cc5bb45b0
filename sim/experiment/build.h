/*
 * Builds a struct sim from a scenario and a scheduler spec: topology,
 * pCPUs with their idle vCPUs, the scheduler instance, domains and vCPUs
 * with affinities, and the workloads on the guest layer.  Errors name the
 * scenario's file:line.
 */
#ifndef SCHEDSIM_BUILD_H
#define SCHEDSIM_BUILD_H

#include "sim/engine/scenario.h"
#include "sim/engine/sim.h"
#include "sim/params.h"

struct workload;
struct sched_modules;

struct sim *sim_build(const struct scenario *sc, const struct sched_spec *spec,
		      struct err *e);
/* The same, with the scheduler modules loaded (schedulers/loader.h; NULL: built-ins only). */
struct sim *sim_build_with(const struct scenario *sc, const struct sched_spec *spec,
			   const struct sched_modules *modules, struct err *e);
void sim_destroy(struct sim *s);
/* Workloads attached by sim_build, in scenario order. */
int sim_workloads(struct sim *s, struct workload ***out);

#endif
