/*
 * What the trace writers share (sim/output/trace.c), private to them: the file,
 * the window [from, to] and its state machine, and a map from Xen's
 * (domid, vcpu) pair in a record back to the struct vcpu, so that a writer
 * can keep per-vCPU state in flat arrays and ask the scheduler about it.
 *
 * A writer sees the machine only between start and stop.  Records before
 * the window are dropped; the first record at or after 'from' opens the
 * window (the writer describes the machine as it is then: nothing has
 * changed yet in that event, because the core emits a runstate record
 * before it changes the state), and the first record after 'to', or stop,
 * closes it.
 */
#ifndef SCHEDSIM_TRACE_WRITER_H
#define SCHEDSIM_TRACE_WRITER_H

#include <stdio.h>

#include "sim/output/trace.h"

enum trace_window_state { TW_BEFORE, TW_OPEN, TW_CLOSED };

struct trace_writer {
	struct tracer t;               /* first: the core sees only this */
	/* Called with the window's bounds; the machine is in w->sim. */
	void (*open)(struct trace_writer *w, stime_t at);
	void (*close)(struct trace_writer *w, stime_t at);
	void (*emit)(struct trace_writer *w, int cpu, stime_t now, uint32_t event,
		     int n, const uint32_t *data);
	/* Writes the file's tail and frees the writer's own state. */
	void (*finish)(struct trace_writer *w);
	FILE *f;
	char *path;
	stime_t from, to;
	enum trace_window_state state;
	struct sim *sim;               /* between start and stop */
	/* (domid, vcpu) -> slot: idle vCPUs first, then each domain's. */
	int nr_slots;
	int max_domid;
	int *dom_base;                 /* by domid, -1 if none; size max_domid + 1 */
	struct vcpu **slot_vcpu;
};

/* Sets up the common part; the writer fills open/close/emit/finish. */
int trace_writer_init(struct trace_writer *w, const char *path, stime_t from, stime_t to,
		      struct err *e);
/* The slot of (domid, vcpu), -1 when the pair is not a vCPU of this machine. */
int trace_slot(const struct trace_writer *w, unsigned domid, unsigned vcpu);
/* The slot of a vCPU. */
int trace_vcpu_slot(const struct trace_writer *w, const struct vcpu *v);

#endif
