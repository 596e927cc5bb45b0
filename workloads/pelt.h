/*
 * PELT, a task's runnable load average, in the integer arithmetic of the
 * guest kernel the model follows: Linux 4.4, kernel/sched/fair.c
 * (__update_load_avg with decay_load and __compute_runnable_contrib,
 * init_entity_runnable_average).  Time counts in units of 1024 ns; a
 * period is 1024 units; a period's runnable units count whole while it
 * lasts and decay by y (y^32 = 1/2) each period after; the average is
 * the sum over its largest value, 0 to 1024 for a nice-0 task, and moves
 * only when an update crosses a period boundary.
 */
#ifndef SCHEDSIM_PELT_H
#define SCHEDSIM_PELT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/stime.h"

/* The full load of a nice-0 task: scale_load_down(NICE_0_LOAD). */
#define PELT_FULL 1024u
/* LOAD_AVG_PERIOD, LOAD_AVG_MAX and LOAD_AVG_MAX_N of 4.4's fair.c */
#define PELT_HALFLIFE 32u
#define PELT_LOAD_MAX 47742u
#define PELT_LOAD_MAX_N 345u

/* One entity's struct sched_avg, its load half. */
struct pelt_avg {
	stime_t last_update;      /* last_update_time (ns) */
	uint64_t load_sum;
	uint32_t period_contrib;  /* units of the current period already summed */
	uint32_t load_avg;        /* load_sum / PELT_LOAD_MAX, as of the last decay */
};

/* A new task's average at full load (init_entity_runnable_average), from now. */
void pelt_init(struct pelt_avg *a, stime_t now);

/*
 * Brings a up to now (__update_load_avg), runnable or not since its last
 * update; true when a period boundary was crossed (load_avg recomputed).
 */
bool pelt_update(struct pelt_avg *a, stime_t now, bool runnable);

/*
 * The updates the scheduler tick makes while the entity is runnable
 * (entity_tick -> update_load_avg): one at each multiple of tick after
 * the last update, up to now.  Which ticks have been applied does not
 * depend on when this is called.
 */
void pelt_tick_updates(struct pelt_avg *a, stime_t now, stime_t tick);

/* val * y^n, rounded down (decay_load); exported for its test. */
uint64_t pelt_decay_load(uint64_t val, uint64_t n);

/* The sum of 1024 y^i for i = 1..n (__compute_runnable_contrib). */
uint32_t pelt_runnable_contrib(uint64_t n);

/* The tables behind them, exported for their test: y^n in 0.32 fixed point, n < 32, and the sums for n <= 32. */
extern const uint32_t pelt_y_inv[PELT_HALFLIFE];
extern const uint32_t pelt_y_sum[PELT_HALFLIFE + 1];

#endif
