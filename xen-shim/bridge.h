/*
 * The narrow interface between the two halves of the shim.
 *
 * Xen's scheduler files and the simulator both define struct vcpu, struct
 * domain, struct scheduler and struct timer, so no file can include both.
 * glue.c (Xen's side, compiled against the stub headers) and adapter.c
 * (our side, compiled against sim/sim.h) talk only through this header:
 * plain C types and opaque handles.  Each Xen object keeps a void
 * pointer to its simulator twin (its "peer") and the reverse, so no
 * lookup is ever needed.
 */
#ifndef XEN_SHIM_BRIDGE_H
#define XEN_SHIM_BRIDGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The largest host the shim builds Xen's code for (its NR_CPUS). */
#define XS_NR_CPUS 256

struct xs_ctx;                   /* one scheduler instance, Xen's side */
struct xs_vcpu;                  /* Xen's struct vcpu, opaque here */
struct xs_dom;                   /* Xen's struct domain, opaque here */

/* Boot parameters of the Xen modules; negative = Xen's default. */
struct xs_params {
	long long ratelimit_us;      /* sched_ratelimit_us */
	long long tslice_ms;         /* credit: sched_credit_tslice_ms */
	int runqueue;                /* credit2: opt_runqueue, -1 or 0..4 */
	long long migrate_resist_us; /* credit2: opt_migrate_resist */
	long long vcpu_migr_delay_us; /* credit: vcpu_migration_delay_us */
};

/* What glue.c asks of the simulator (implemented in adapter.c). */
struct xs_host {
	void *sim;
	int nr_cpus;
	const int *cpu_socket, *cpu_core, *cpu_node;
	int nr_nodes;
	int64_t (*now)(void *sim);
	int (*cur_cpu)(void *sim);      /* -1 outside any pCPU's code */
	void (*set_cur_cpu)(void *sim, int cpu);
	void (*tickle)(void *sim, int cpu);
	unsigned int (*random)(void *sim);
	void *(*timer_new)(void *sim, void (*fire)(void *arg), void *arg);
	void (*timer_set)(void *sim, void *ev, int64_t when);
	void (*timer_stop)(void *sim, void *ev);
	void (*timer_free)(void *sim, void *ev);
	/* Current pause state of a simulated vCPU, in Xen's VPF bits. */
	void (*peer_state)(void *peer, unsigned long *flags, int *pause_count);
	/*
	 * Xen's side moved the vCPU, parked it (credit2 caps) or asked for it
	 * to move (_VPF_migrating: credit1's tick and tickle): mirror it.
	 */
	void (*peer_update)(void *peer, int processor, bool parked, bool migrating);
	void (*pause_nosync)(void *sim, void *peer);
	void (*unpause)(void *sim, void *peer);
	void (*trace)(void *sim, int cpu, uint32_t event, int n, const uint32_t *data);
	bool (*tracing)(void *sim);      /* a tracer is attached now */
};

/* One Xen scheduler file, as its wrapper exports it. */
struct xs_module {
	const char *name;                 /* "xen-credit2" */
	const void *def;                  /* its const struct scheduler */
	void (*apply_params)(const struct xs_params *p);
};

extern const struct xs_module xs_module_null, xs_module_credit, xs_module_credit2;

/* Xen's version the shim was written against ("4.17"). */
#define XS_TARGET_VERSION "4.17"

/* --- glue.c: the part of Xen's core.c the simulator needs --- */

struct xs_ctx *xs_ctx_new(const struct xs_module *m, const struct xs_host *h,
			  const struct xs_params *p, char *err, int errlen);
void xs_ctx_free(struct xs_ctx *c);
/* Builds pCPU cpu's resource, idle vCPU (peer: the simulator's) and pdata. */
void xs_cpu_add(struct xs_ctx *c, int cpu, void *idle_peer);
struct xs_dom *xs_domain_new(struct xs_ctx *c, void *peer, int domid, int nr_vcpus,
			     int weight, int cap);
void xs_domain_free(struct xs_ctx *c, struct xs_dom *d);
/* A vCPU as domain creation makes it: affinity all pCPUs, on processor. */
struct xs_vcpu *xs_vcpu_new(struct xs_ctx *c, struct xs_dom *d, void *peer, int vcpu_id,
			    int processor);
struct xs_vcpu *xs_idle_of(struct xs_ctx *c, int cpu);
void xs_vcpu_free(struct xs_ctx *c, struct xs_vcpu *v);
void xs_insert(struct xs_ctx *c, struct xs_vcpu *v);
void xs_remove(struct xs_ctx *c, struct xs_vcpu *v);
void xs_wake(struct xs_ctx *c, struct xs_vcpu *v);
void xs_sleep(struct xs_ctx *c, struct xs_vcpu *v);
void xs_yield(struct xs_ctx *c, struct xs_vcpu *v);
void xs_context_saved(struct xs_ctx *c, struct xs_vcpu *v);
int xs_pick_resource(struct xs_ctx *c, struct xs_vcpu *v);
void xs_migrate(struct xs_ctx *c, struct xs_vcpu *v, int cpu);
/* Runs do_schedule on cpu; returns the peer of the chosen vCPU. */
void *xs_do_schedule(struct xs_ctx *c, int cpu, struct xs_vcpu *prev, int64_t now,
		     bool tasklet, int64_t *slice, bool *migrated);
void xs_adjust(struct xs_ctx *c, struct xs_dom *d, int weight, int cap);
void xs_adjust_affinity(struct xs_ctx *c, struct xs_vcpu *v, const uint64_t *hard,
			const uint64_t *soft);
/* Xen's dump_settings and dump_cpu_state of every pCPU, printed to f. */
void xs_dump(struct xs_ctx *c, FILE *f);

#endif
