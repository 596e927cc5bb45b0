/*
 * The experiment's workload and dom0-load axes.  An experiment crosses
 * schedulers with --workload=make-xen,iperf and --dom0-load=off,on; each
 * cell runs a copy of one scenario rewritten by workload_axes_apply():
 *
 *  - dom0 is the scenario's first domain (it gets domid 0);
 *  - the benchmark runs in the first other domain, created when missing
 *    (AXES_GUEST_VCPUS vCPUs, weight 256: see docs/workloads.md for why),
 *    or in dom0 when the scenario gives dom0 a benchmark and no guest one
 *    of the axis' type (the 2019 evaluation's benchmarks in dom0): dom0
 *    then keeps its workloads but the other benchmarks, and refuses
 *    --dom0-load=on;
 *  - a benchmark workload of the same type already in the scenario is kept
 *    with its parameters, so a scenario file can tune make-xen and iperf;
 *    the other benchmark's workloads are removed, and the benchmark runs
 *    alone in its guest (other workloads of that domain are dropped);
 *  - dom0-load "off" leaves dom0 with nothing but the back ends (its
 *    workloads are dropped: the default scenario's light dom0 activity
 *    would otherwise be a load of its own); "on" leaves exactly one
 *    <workload type="dom0-load"/> there (one given in the file is kept);
 *  - with a benchmark but no dom0-load value, dom0 keeps only a
 *    dom0-load the file gives, so a benchmark always measures its guest
 *    against the back ends and nothing else the scenario happened to run;
 *  - other domains keep their workloads (background load in a test);
 *  - the duration is made long enough for the benchmark to finish (make-xen
 *    ends the run itself when the build is done, iperf after its own time).
 *
 * A NULL or empty axis value leaves that part of the scenario as it is.
 *
 * An axis value may carry parameters, as a scheduler spec does:
 * "iperf:tcp_rmem_max=1048576:segment=16384" sets them on the benchmark
 * (over the file's), "on:tasks=12:run=5ms" on dom0's dom0-load workload.
 * A value holds ':' when what follows is not another "key=" (so
 * "compile=lognormal:362ms:0.8" is one parameter).  Unknown parameters and
 * bad values are refused here, before anything runs.  The host setting
 * (--host) is sim/experiment/host_axis.h's: bench_axes_apply applies it,
 * then these.
 */
#ifndef SCHEDSIM_AXES_H
#define SCHEDSIM_AXES_H

#include "sim/engine/scenario.h"
#include "sim/err.h"

#define AXES_GUEST_VCPUS 8
#define AXES_GUEST_NAME "guest"

/* Rewrites sc in place; -1 with a one-line error for unknown values. */
int workload_axes_apply(struct scenario *sc, const char *workload, const char *dom0_load,
			struct err *e);

#endif
