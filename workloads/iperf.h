/*
 * iperf: one TCP stream between a guest and dom0 over netfront/netback,
 * either way (workloads/pvnet.h the path, workloads/tcp.h its flow control).
 */
#ifndef SCHEDSIM_IPERF_H
#define SCHEDSIM_IPERF_H

#include "workloads/workload.h"

/*
 * Stages in iperf's breakdown: the client, netback, its dealloc thread,
 * the server, the guest-rx thread, netfront and TCP's sender; from dom0
 * the dealloc thread has nothing to do (netback copies the guest's ACKs).
 */
#define IPERF_STAGES_TO_DOM0 7
#define IPERF_STAGES_FROM_DOM0 6

extern const struct workload_ops iperf_ops;

#endif
