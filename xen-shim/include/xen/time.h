#ifndef XEN_SHIM_TIME_H
#define XEN_SHIM_TIME_H

#include <xen/types.h>
#include <xen/shim.h>

#define NOW() ((s_time_t)xs_now())
#define SECONDS(s) ((s_time_t)((s) * 1000000000ULL))
#define MILLISECS(ms) ((s_time_t)((ms) * 1000000ULL))
#define MICROSECS(us) ((s_time_t)((us) * 1000ULL))
#define PRI_stime PRId64
/* The largest time difference Xen's timer code handles: a quarter of the range. */
#define STIME_DELTA_MAX ((s_time_t)(UINT64_MAX / 4))
#include <inttypes.h>

#endif
