/*
 * iperf: one TCP stream between a guest and dom0 over netfront/netback,
 * or a remote host through dom0's NIC (workloads/nic.h), either way (workloads/pvnet.h the path, workloads/tcp.h its flow control).
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
/*
 * With peer=remote the remote end has no task; dom0's NIC (its NAPI poll)
 * and the link (busy or idle in the data's direction) are stages.
 */
#define IPERF_STAGES_TO_REMOTE 8
#define IPERF_STAGES_FROM_REMOTE 7

extern const struct workload_ops iperf_ops;

#endif
