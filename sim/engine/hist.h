/*
 * A fixed-memory latency histogram (log-linear buckets, HDR style): values
 * are grouped by power of two and each group is split into HIST_SUB equal
 * buckets, so a quantile is known within 1/HIST_SUB of its value whatever
 * the run length.  Memory does not grow with simulated time.
 */
#ifndef SCHEDSIM_HIST_H
#define SCHEDSIM_HIST_H

#include <stdint.h>

#include "sim/stime.h"

#define HIST_SUB_BITS 4
#define HIST_SUB (1 << HIST_SUB_BITS)
#define HIST_GROUPS 64
#define HIST_BUCKETS (HIST_GROUPS * HIST_SUB)

struct hist {
	uint64_t count;
	stime_t max, sum;
	uint64_t *buckets;   /* HIST_BUCKETS counters, allocated on first record */
};

void hist_record(struct hist *h, stime_t v);
/* Value at quantile q in [0,1] (upper edge of its bucket, capped by max); 0 when empty. */
stime_t hist_quantile(const struct hist *h, double q);
void hist_merge(struct hist *dst, const struct hist *src);
void hist_free(struct hist *h);
/* Lower edge of bucket i, and index of the bucket holding v (for plots). */
stime_t hist_bucket_low(int i);
int hist_bucket_of(stime_t v);

#endif
