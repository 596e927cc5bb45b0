/*
 * PELT's runnable load average in Linux 4.4's integer arithmetic (see
 * pelt.h): kernel/sched/fair.c __update_load_avg, decay_load,
 * __compute_runnable_contrib and init_entity_runnable_average of v4.4.
 * An update splits the time since the last one into three segments: the
 * rest of the period it started in, which completes that period; the
 * whole periods after it, each contributing 1024 units decayed by its
 * age; and the start of the current period, counted whole.  The sum
 * before it decays by y per period crossed.  Time is shifted down to
 * 1024 ns units and what an update leaves below a unit is dropped, as
 * 4.4 sets last_update_time to now.  The frequency and CPU capacity
 * scales are 1 (x86's arch_scale_freq_capacity of 4.4, a guest of
 * identical vCPUs), so cap_scale does nothing and is left out.
 */
#include "workloads/pelt.h"

/*
 * y^n in 0.32 fixed point, (2^32 - 1) y^n rounded down; and
 * sum[n] = (sum[n-1] + 1024) y, the multiplication by pelt_y_inv[1]
 * rounded down.  Written out from those definitions, which check_pelt
 * recomputes; they are 4.4's runnable_avg_yN_inv and runnable_avg_yN_sum.
 */
const uint32_t pelt_y_inv[PELT_HALFLIFE] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

const uint32_t pelt_y_sum[PELT_HALFLIFE + 1] = {
	    0,  1002,  1982,  2941,  3880,  4798,  5697,  6576,  7437,  8279,  9103,
	 9909, 10698, 11470, 12226, 12966, 13690, 14398, 15091, 15769, 16433, 17082,
	17718, 18340, 18949, 19545, 20128, 20698, 21256, 21802, 22336, 22859, 23371,
};

/* A period, in 1024 ns units. */
#define PERIOD_UNITS 1024u

uint64_t pelt_decay_load(uint64_t val, uint64_t n)
{
	if (n == 0)
		return val;
	if (n > (uint64_t)PELT_HALFLIFE * 63)
		return 0;
	/* y^n = 2^-(n / 32) y^(n % 32); val is below 2^32 here (a sum of at most PELT_FULL * PELT_LOAD_MAX) */
	val >>= n / PELT_HALFLIFE;
	return (val * pelt_y_inv[n % PELT_HALFLIFE]) >> 32;
}

uint32_t pelt_runnable_contrib(uint64_t n)
{
	uint32_t c = 0;

	if (n <= PELT_HALFLIFE)
		return pelt_y_sum[n];
	if (n >= PELT_LOAD_MAX_N)
		return PELT_LOAD_MAX;
	/* whole half-lives: each halves what came before and adds one full table */
	do {
		c = c / 2 + pelt_y_sum[PELT_HALFLIFE];
		n -= PELT_HALFLIFE;
	} while (n > PELT_HALFLIFE);
	return (uint32_t)pelt_decay_load(c, n) + pelt_y_sum[n];
}

void pelt_init(struct pelt_avg *a, stime_t now)
{
	a->last_update = now;
	/* just short of a period, so that the first update decays */
	a->period_contrib = PERIOD_UNITS - 1;
	a->load_avg = PELT_FULL;
	a->load_sum = (uint64_t)PELT_FULL * PELT_LOAD_MAX;
}

bool pelt_update(struct pelt_avg *a, stime_t now, bool runnable)
{
	uint64_t units = (uint64_t)(now - a->last_update) >> 10;
	uint32_t weight = runnable ? PELT_FULL : 0;
	bool crossed = units + a->period_contrib >= PERIOD_UNITS;

	if (units == 0)
		return false;
	a->last_update = now;
	if (crossed) {
		uint32_t first = PERIOD_UNITS - a->period_contrib;
		uint64_t periods;

		a->load_sum += (uint64_t)weight * first;
		units -= first;
		periods = units / PERIOD_UNITS;
		units %= PERIOD_UNITS;
		a->load_sum = pelt_decay_load(a->load_sum, periods + 1);
		a->load_sum += (uint64_t)weight * pelt_runnable_contrib(periods);
		a->period_contrib = 0;
	}
	a->load_sum += (uint64_t)weight * units;
	a->period_contrib += (uint32_t)units;
	if (crossed)
		a->load_avg = (uint32_t)(a->load_sum / PELT_LOAD_MAX);
	return crossed;
}

void pelt_tick_updates(struct pelt_avg *a, stime_t now, stime_t tick)
{
	stime_t t = (a->last_update / tick + 1) * tick;
	uint64_t step = (uint64_t)tick >> 10, sum;
	uint32_t c;
	int64_t n;

	if (t > now)
		return;
	pelt_update(a, t, true);
	n = (now - t) / tick;
	if (n == 0)
		return;
	if (step < PERIOD_UNITS || step >= (uint64_t)PERIOD_UNITS * (PELT_HALFLIFE - 1)) {
		for (t += tick; t <= now; t += tick)
			pelt_update(a, t, true);
		return;
	}
	/*
	 * From one tick to the next: the same units each time (the update
	 * at a tick leaves last_update on it), each crossing the end of a
	 * period and decaying fewer than PELT_HALFLIFE periods; what
	 * pelt_update does then, for a runnable entity.
	 */
	sum = a->load_sum;
	c = a->period_contrib;
	for (int64_t i = 0; i < n; i++) {
		uint64_t first = PERIOD_UNITS - c, rest = step - first, periods = rest / PERIOD_UNITS;

		c = (uint32_t)(rest % PERIOD_UNITS);
		sum = (((sum + PELT_FULL * first) * pelt_y_inv[periods + 1]) >> 32) +
		      PELT_FULL * ((uint64_t)pelt_y_sum[periods] + c);
	}
	a->load_sum = sum;
	a->period_contrib = c;
	a->load_avg = (uint32_t)(sum / PELT_LOAD_MAX);
	a->last_update = t + n * tick;
}
