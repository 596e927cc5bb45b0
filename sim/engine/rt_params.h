/*
 * A vCPU's RTDS parameters as a toolstack gives them: Xen's struct
 * xen_domctl_sched_rtds of XEN_DOMCTL_SCHEDOP_putvcpuinfo (period and
 * budget, the XEN_DOMCTL_SCHEDRT_extra flag).  The scenario carries them
 * per domain and per vCPU; sim_build stores the result in struct vcpu,
 * where the RTDS model reads them.  All zero means "not given": the
 * scheduler's defaults (10 ms, 4 ms, extratime on).  Other schedulers
 * ignore them.
 */
#ifndef SCHEDSIM_RT_PARAMS_H
#define SCHEDSIM_RT_PARAMS_H

#include "sim/stime.h"

/* Xen's RTDS_DEFAULT_PERIOD / _BUDGET (rt.c): what a vCPU gets unless told. */
#define RTDS_DEFAULT_PERIOD MSEC(10)
#define RTDS_DEFAULT_BUDGET MSEC(4)

enum rt_extratime { RT_EXTRATIME_DEFAULT = 0, RT_EXTRATIME_ON, RT_EXTRATIME_OFF };

struct rt_params {
	stime_t period, budget;        /* 0: not given */
	enum rt_extratime extratime;
};

#endif
