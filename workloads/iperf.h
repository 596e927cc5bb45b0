/*
 * iperf: one TCP stream from a guest (iperf -c) to dom0 (iperf -s) over
 * netfront/netback.  struct tcp_flow is the sender's view of the bytes in
 * flight, bounded by the window; it is kept apart so it can be tested
 * without a machine.
 */
#ifndef SCHEDSIM_IPERF_H
#define SCHEDSIM_IPERF_H

#include <stdbool.h>
#include <stdint.h>

#include "workloads/workload.h"

struct tcp_flow {
	uint64_t window;      /* bytes that may be unacknowledged */
	uint64_t sent;        /* bytes handed to the device */
	uint64_t acked;       /* highest cumulative ACK received */
};

/* True when 'bytes' more can be sent without exceeding the window. */
bool flow_can_send(const struct tcp_flow *f, uint64_t bytes);
void flow_sent(struct tcp_flow *f, uint64_t bytes);
/* A cumulative ACK (older ones are ignored, as TCP does). */
void flow_ack(struct tcp_flow *f, uint64_t ack);
uint64_t flow_in_flight(const struct tcp_flow *f);

/* Stages in iperf's breakdown. */
#define IPERF_STAGES 5

extern const struct workload_ops iperf_ops;

#endif
