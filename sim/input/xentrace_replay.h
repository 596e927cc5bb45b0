/*
 * schedsim replay: a scenario made of a xentrace's recorded domains
 * (sim/input/xentrace_read.h), each replaying its own demand through the
 * xentrace workload (workloads/xentrace.c) on the scenario's host.
 */
#ifndef SCHEDSIM_XENTRACE_REPLAY_H
#define SCHEDSIM_XENTRACE_REPLAY_H

#include "sim/input/xentrace_read.h"

/*
 * sc's domains replaced by the trace's (path), one a
 * recorded domain, named dom0 and dN (N its id), with as many vCPUs as it
 * ran and a xentrace workload in 'mode' replaying its demand.
 */
int xentrace_scenario(struct scenario *sc, const struct xentrace_host *h, const char *path,
		      const char *mode, struct err *e);

#endif
