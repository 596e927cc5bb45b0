/*
 * The host axis of an experiment (--host=SETTING, each {a,b} group an axis
 * as in --sched): a setting is "key=value[:key=value...]", each key an
 * attribute of the scenario's <host> element, which it overrides in the
 * run's copy of the scenario:
 *
 *   --host=nodes=1:ipi-latency=2us
 *   --host=remote-penalty={1.2,1.6,2.0}
 *
 * The keys are the attributes the scenario loader reads (the topology,
 * ipi-latency, context-switch, and the hardware model's: hw, llc-size,
 * remote-penalty, ... of sim/engine/hw.h), checked as it checks them: an
 * unknown key or a bad value is refused before anything runs.  A value may
 * hold ':' when what follows is not another "key=" (so lists of ':' fields
 * pass).  A host given by its CPU map (--host=lscpu:FILE, <host lscpu=...>)
 * takes no topology key: the map is the topology.
 */
#ifndef SCHEDSIM_HOST_AXIS_H
#define SCHEDSIM_HOST_AXIS_H

#include "sim/engine/scenario.h"
#include "sim/err.h"

/* Applies one setting to sc->host; -1 with a one-line error naming the key. */
int host_axis_apply(struct scenario *sc, const char *setting, struct err *e);
/*
 * Applies a bench and a dom0-load setting to sc: the host setting first,
 * then the workload and dom0-load axes (workloads/axes.h).  NULL or ""
 * leaves that part as it is; the experiment's apply_axes.
 */
int bench_axes_apply(struct scenario *sc, const char *host, const char *workload,
		     const char *dom0_load, struct err *e);

#endif
