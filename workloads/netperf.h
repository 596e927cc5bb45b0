/*
 * netperf: UDP_STREAM, TCP_STREAM and TCP_RR between netperf and netserver,
 * as MMTests runs them; the path between the two is a peer (netperf.c),
 * peer=loopback the sockets over lo of workloads/loopback.h, peer=dom0
 * TCP_RR between a guest and dom0 over netfront/netback.
 */
#ifndef SCHEDSIM_NETPERF_H
#define SCHEDSIM_NETPERF_H

#include "workloads/workload.h"

extern const struct workload_ops netperf_ops;

#endif
