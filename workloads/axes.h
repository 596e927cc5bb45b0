/*
 * The experiment's workload and dom0-load axes.  An experiment crosses
 * schedulers with --workload=make-xen,iperf and --dom0-load=off,on; each
 * cell runs a copy of one scenario rewritten by workload_axes_apply():
 *
 *  - dom0 is the scenario's first domain (it gets domid 0);
 *  - the benchmark runs in the first other domain, created when missing
 *    (AXES_GUEST_VCPUS vCPUs, weight 256: see docs/workloads.md for why);
 *  - a benchmark workload of the same type already in the scenario is kept
 *    with its parameters, so a scenario file can tune make-xen and iperf;
 *    the other benchmark's workloads are removed;
 *  - dom0-load "on" adds a <workload type="dom0-load"/> to dom0 (unless
 *    there is one), "off" removes it;
 *  - the duration is made long enough for the benchmark to finish (make-xen
 *    ends the run itself when the build is done, iperf after its own time).
 *
 * A NULL or empty axis value leaves that part of the scenario as it is.
 */
#ifndef SCHEDSIM_AXES_H
#define SCHEDSIM_AXES_H

#include "sim/err.h"
#include "sim/scenario.h"

#define AXES_GUEST_VCPUS 8
#define AXES_GUEST_NAME "guest"

/* Rewrites sc in place; -1 with a one-line error for unknown values. */
int workload_axes_apply(struct scenario *sc, const char *workload,
			const char *dom0_load, struct err *e);

#endif
