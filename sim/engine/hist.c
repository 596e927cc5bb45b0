#include "sim/engine/hist.h"

#include <stdlib.h>

#include "sim/xalloc.h"

int hist_bucket_of(stime_t v)
{
	uint64_t u = v < 0 ? 0 : (uint64_t)v;
	int msb, shift;

	if (u < HIST_SUB)
		return (int)u;
	msb = 63 - __builtin_clzll(u);
	shift = msb - HIST_SUB_BITS;
	return (shift + 1) * HIST_SUB + (int)((u >> shift) - HIST_SUB);
}

stime_t hist_bucket_low(int i)
{
	int group = i / HIST_SUB, sub = i % HIST_SUB;

	if (group == 0)
		return sub;
	return (stime_t)((uint64_t)(HIST_SUB + sub) << (group - 1));
}

void hist_record(struct hist *h, stime_t v)
{
	if (v < 0)
		v = 0;
	if (!h->buckets)
		h->buckets = xcalloc(HIST_BUCKETS, sizeof(uint64_t));
	h->buckets[hist_bucket_of(v)]++;
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

stime_t hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0;
	int i;

	if (!h->count)
		return 0;
	if (q <= 0)
		q = 0;
	rank = (uint64_t)(q * (double)h->count);
	if (rank >= h->count)
		rank = h->count - 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen > rank) {
			stime_t high = i + 1 < HIST_BUCKETS ? hist_bucket_low(i + 1) - 1 : h->max;

			return high < h->max ? high : h->max;
		}
	}
	return h->max;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	int i;

	if (!src->count)
		return;
	if (!dst->buckets)
		dst->buckets = xcalloc(HIST_BUCKETS, sizeof(uint64_t));
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->max > dst->max)
		dst->max = src->max;
}

void hist_free(struct hist *h)
{
	free(h->buckets);
	h->buckets = NULL;
	h->count = 0;
	h->max = h->sum = 0;
}
