/*
 * iperf: one TCP stream from a guest (iperf -c) to dom0 (iperf -s) over
 * netfront/netback.  The stream's flow control is workloads/tcp.h.
 */
#ifndef SCHEDSIM_IPERF_H
#define SCHEDSIM_IPERF_H

#include "workloads/workload.h"

/* Stages in iperf's breakdown: six tasks and TCP's sender. */
#define IPERF_STAGES 7

extern const struct workload_ops iperf_ops;

#endif
