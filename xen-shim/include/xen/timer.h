/*
 * Xen timers on the simulator's event queue.  The handle is the adapter's
 * event; the callback runs as if on the timer's pCPU.
 */
#ifndef XEN_SHIM_TIMER_H
#define XEN_SHIM_TIMER_H

#include <xen/types.h>

/* Xen's timer states (rt.c asks whether its timer was ever set up). */
#define TIMER_STATUS_invalid 0
#define TIMER_STATUS_inactive 1
#define TIMER_STATUS_killed 2
#define TIMER_STATUS_in_heap 3

struct timer {
	s_time_t expires;
	unsigned char status;  /* TIMER_STATUS_*: invalid until init_timer */
	void (*function)(void *data);
	void *data;
	unsigned int cpu;
	bool killed;
	void *handle;          /* the simulator's event, NULL until init_timer */
	struct xs_ctx *ctx;
};

void init_timer(struct timer *t, void (*fn)(void *), void *data, unsigned int cpu);
void set_timer(struct timer *t, s_time_t expires);
void stop_timer(struct timer *t);
void kill_timer(struct timer *t);
void migrate_timer(struct timer *t, unsigned int cpu);
bool timer_is_active(const struct timer *t);
#define active_timer(t) timer_is_active(t)

#endif
