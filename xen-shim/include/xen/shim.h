/*
 * The heart of the stub headers: what every Xen scheduler file sees of
 * the hypervisor around it, and the instance ("context") it runs in.
 *
 * Xen's code assumes one hypervisor per address space; the simulator may
 * hold many (one per run).  Each scheduler instance of the shim owns a
 * struct xs_ctx, and xs_cur points at the one whose code runs now: the
 * adapter sets it on every entry (xs_enter/xs_leave in glue.c).  That one
 * pointer, nr_cpu_ids and sched_ratelimit_us are the only globals Xen's
 * code forces on us; they are reloaded from the context on each entry.
 */
#ifndef XEN_SHIM_SHIM_H
#define XEN_SHIM_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xen-shim/bridge.h"

/* Enough for the test machines; the adapter refuses larger hosts. */
#define NR_CPUS XS_NR_CPUS

struct xs_ctx;
extern struct xs_ctx *xs_cur;

/* Per-cpu storage of the current context: base of variable id, then cpu. */
void *xs_percpu_ptr(int id, size_t size, unsigned int cpu);
unsigned int xs_this_cpu(void);
int64_t xs_now(void);
void xs_raise_softirq(unsigned int cpu);
unsigned int xs_get_random(void);
void xs_trace(uint32_t event, unsigned int bytes, const void *data);
bool xs_tracing(void);
void xs_vcpu_pause_nosync(struct vcpu *v);
void xs_vcpu_unpause(struct vcpu *v);
void xs_bug(const char *file, int line, const char *what) __attribute__((noreturn));

#endif
