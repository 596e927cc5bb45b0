/* Trace records of Xen's code go to the simulator's tracer, if any. */
#ifndef XEN_SHIM_TRACE_H
#define XEN_SHIM_TRACE_H

#include <xen/shim.h>

#define tb_init_done xs_tracing()
#define __trace_var(ev, cyc, size, data) xs_trace((ev), (size), (data))
#define trace_var(ev, cyc, size, data) xs_trace((ev), (size), (data))
#define XS_TRACE_(ev, ...) do { \
	if (unlikely(tb_init_done)) { \
		uint32_t d_[] = { __VA_ARGS__ }; \
		xs_trace((ev), sizeof(d_), d_); \
	} \
} while (0)
#define TRACE_0D(ev) do { if (unlikely(tb_init_done)) xs_trace((ev), 0, NULL); } while (0)
#define TRACE_1D(ev, a) XS_TRACE_(ev, a)
#define TRACE_2D(ev, a, b) XS_TRACE_(ev, a, b)
#define TRACE_3D(ev, a, b, c) XS_TRACE_(ev, a, b, c)
#define TRACE_4D(ev, a, b, c, d) XS_TRACE_(ev, a, b, c, d)
#define TRACE_5D(ev, a, b, c, d, e) XS_TRACE_(ev, a, b, c, d, e)

/*
 * The interface of 2024 on: trace_time(event, size, data) and
 * TRACE_TIME(event, args...), whose records carry a cycle count (the
 * flag is Xen's; our trace writer stamps every record with the time).
 */
#define TRC_HD_CYCLE_FLAG (1u << 31)
#define trace(ev, size, data) xs_trace((ev) & ~TRC_HD_CYCLE_FLAG, (size), (data))
#define trace_time(ev, size, data) xs_trace((ev) & ~TRC_HD_CYCLE_FLAG, (size), (data))
#define TRACE(ev, ...) do { \
	if (unlikely(tb_init_done)) { \
		uint32_t d_[] = { 0, ## __VA_ARGS__ }; \
		xs_trace((ev) & ~TRC_HD_CYCLE_FLAG, sizeof(d_) - sizeof(d_[0]), d_ + 1); \
	} \
} while (0)
#define TRACE_TIME(ev, ...) TRACE((ev) | TRC_HD_CYCLE_FLAG, ## __VA_ARGS__)

/* Event classes and ids of public/trace.h the schedulers use. */
#define TRC_SCHED_CLASS_EVT(_c, _e) \
	((0x00022000u | ((TRC_SCHED_##_c << 9) & 0xe00u)) + ((_e) & ~0xe00u))
#define TRC_SCHED_CSCHED 0
#define TRC_SCHED_CSCHED2 1
#define TRC_SCHED_ARINC653 3
#define TRC_SCHED_RTDS 4
#define TRC_SCHED_SNULL 5

#endif
