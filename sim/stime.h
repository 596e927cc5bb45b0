/* Simulated time: signed 64-bit nanoseconds, like Xen's s_time_t. */
#ifndef SCHEDSIM_STIME_H
#define SCHEDSIM_STIME_H

#include <stdint.h>

typedef int64_t stime_t;

#define STIME_MAX INT64_MAX
#define NSEC(x) ((stime_t)(x))
#define USEC(x) ((stime_t)(x) * 1000LL)
#define MSEC(x) ((stime_t)(x) * 1000000LL)
#define SEC(x) ((stime_t)(x) * 1000000000LL)

#endif
