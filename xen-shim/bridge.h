/*
 * The narrow interface between the two halves of the shim.
 *
 * Xen's scheduler files and the simulator both define struct vcpu, struct
 * domain, struct scheduler and struct timer, so no file can include both.
 * glue.c (Xen's side, compiled against the stub headers) and adapter.c
 * (our side, compiled against sim/engine/sim.h) talk only through this header:
 * plain C types and opaque handles.  Each Xen object keeps a void
 * pointer to its simulator twin (its "peer") and the reverse, so no
 * lookup is ever needed.  glue.c is compiled once per Xen tree; each
 * build of it exports one struct xs_tree.
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

/* Boot parameters of the Xen modules; negative or NULL = the tree's default. */
struct xs_params {
	long long ratelimit_us;      /* sched_ratelimit_us */
	long long tslice_ms;         /* credit: sched_credit_tslice_ms */
	const char *runqueue;        /* credit2: credit2_runqueue=, by name */
	long long migrate_resist_us; /* credit2: opt_migrate_resist */
	long long vcpu_migr_delay_us; /* credit: vcpu_migration_delay(_us) */
	bool tick_suspend;           /* up to 4.12: the idle driver stops the tick */
};

/* A simulated vCPU's state as Xen's core keeps it (bit numbers Xen's). */
struct xs_peer_state {
	unsigned long pause_flags;
	int pause_count;
	int runstate;                /* RUNSTATE_* */
	int64_t runstate_entry;      /* v->runstate.state_entry_time */
};

/* What glue.c asks of the simulator (implemented in adapter.c). */
struct xs_host {
	void *sim;
	int nr_cpus;
	const int *cpu_socket, *cpu_core, *cpu_node;
	int nr_nodes;
	/*
	 * The cpupool this instance schedules: 0 for Pool-0, whose pCPUs join
	 * at boot; another's join later, moved in by xl cpupool-cpu-add.
	 */
	int pool_id;
	/*
	 * Its sched-gran (0 cpu, 1 core, 2 socket) and the pCPUs of each
	 * scheduling resource (1 at cpu; 4.13 on only).
	 */
	int gran, sched_gran;
	int64_t (*now)(void *sim);
	int (*cur_cpu)(void *sim);      /* -1 outside any pCPU's code */
	void (*set_cur_cpu)(void *sim, int cpu);
	void (*tickle)(void *sim, int cpu);
	unsigned int (*random)(void *sim);
	void *(*timer_new)(void *sim, void (*fire)(void *arg), void *arg);
	void (*timer_set)(void *sim, void *ev, int64_t when);
	void (*timer_stop)(void *sim, void *ev);
	void (*timer_free)(void *sim, void *ev);
	void (*peer_state)(void *peer, struct xs_peer_state *st);
	/*
	 * Xen's side moved the vCPU, parked it (credit2 caps) or asked for it
	 * to move (_VPF_migrating: credit1's tick and tickle): mirror it.
	 */
	void (*peer_update)(void *sim, void *peer, int processor, bool parked, bool migrating);
	/* Member idx of a unit of several vCPUs (its peer), NULL while not made yet. */
	void *(*unit_member)(void *unit_peer, int idx);
	void (*pause_nosync)(void *sim, void *peer);
	void (*unpause)(void *sim, void *peer);
	void (*trace)(void *sim, int cpu, uint32_t event, int n, const uint32_t *data);
	bool (*tracing)(void *sim);      /* a tracer is attached now */
};

/* One Xen scheduler file, as its wrapper (xen_credit2.c ...) exports it. */
struct xs_module {
	const char *file;                 /* "credit2" */
	const void *def;                  /* its const struct scheduler (or sched_ops) */
	/* Sets its boot parameters before init; -1 with a message if it cannot. */
	int (*apply_params)(const struct xs_params *p, char *err, int errlen);
};

enum { XS_NULL, XS_CREDIT, XS_CREDIT2, XS_RTDS, XS_ARINC653, XS_NR_MODULES };


/* One minor frame of an ARINC 653 schedule: a domain by domid. */
struct xs_a653_entry {
	int domid, vcpu_id;
	int64_t runtime;             /* ns */
};

/*
 * One Xen tree, as glue.c compiled for it exports it: its schedulers and
 * the calls of Xen's core.c the simulator needs.  It is the only symbol
 * of the tree's object that stays global (the build localises the rest,
 * so several trees link into one program).
 */
struct xs_tree {
	const char *name;                 /* "4.17.5": --with-xen-source=NAME=DIR */
	const char *version;              /* Xen's, from xen/Makefile */
	const char *iface;                /* "vcpu", "unit", "unit-ops" */
	int initial_cpu;                  /* sim's enum initial_cpu_rule (XS_INITIAL_CPU) */
	const struct xs_module *modules[XS_NR_MODULES];   /* NULL: not in this tree */

	struct xs_ctx *(*ctx_new)(const struct xs_module *m, const struct xs_host *h,
				  const struct xs_params *p, char *err, int errlen);
	void (*ctx_free)(struct xs_ctx *c);
	/*
	 * Builds pCPU cpu's resource, idle vCPU (peer: the simulator's) and
	 * pdata; the instance sees only the pCPUs added (its cpupool's).
	 * With sched-gran > cpu, the resource of nr threads (threads[0] its
	 * master), their idle vCPUs' peers, and the peer of the idle unit.
	 */
	void (*cpu_add)(struct xs_ctx *c, int nr, const int *threads, void *const *idle_peers,
			void *idle_unit_peer);
	struct xs_vcpu *(*idle_of)(struct xs_ctx *c, int cpu);
	struct xs_dom *(*domain_new)(struct xs_ctx *c, void *peer, int domid, int nr_vcpus);
	void (*domain_free)(struct xs_ctx *c, struct xs_dom *d);
	/*
	 * A vCPU as domain creation makes it: affinity all pCPUs, on processor.
	 * With sched-gran > cpu, the unit of nr vCPUs from vcpu_id (peer: the
	 * simulator's unit, whose members unit_member gives); returns its first.
	 */
	struct xs_vcpu *(*vcpu_new)(struct xs_ctx *c, struct xs_dom *d, void *peer, int vcpu_id,
				    int processor, int nr);
	void (*vcpu_free)(struct xs_ctx *c, struct xs_vcpu *v);
	void (*insert)(struct xs_ctx *c, struct xs_vcpu *v);
	void (*remove)(struct xs_ctx *c, struct xs_vcpu *v);
	void (*wake)(struct xs_ctx *c, struct xs_vcpu *v);
	void (*sleep)(struct xs_ctx *c, struct xs_vcpu *v);
	void (*yield)(struct xs_ctx *c, struct xs_vcpu *v);
	void (*context_saved)(struct xs_ctx *c, struct xs_vcpu *v);
	int (*pick_resource)(struct xs_ctx *c, struct xs_vcpu *v);
	void (*migrate)(struct xs_ctx *c, struct xs_vcpu *v, int cpu);
	/* Runs do_schedule on cpu; returns the peer of the chosen vCPU. */
	void *(*do_schedule)(struct xs_ctx *c, int cpu, struct xs_vcpu *prev, int64_t now,
			     bool tasklet, int64_t *slice, bool *migrated);
	/* XEN_DOMCTL_SCHEDOP_putinfo of weight and cap; Xen's result. */
	int (*adjust)(struct xs_ctx *c, struct xs_dom *d, int weight, int cap);
	bool rt_extratime;                /* its rt.c has extratime (463b958317, 4.10) */
	/*
	 * RTDS parameters (us) of d's vCPU vcpu_id, as the toolstack sets them
	 * (putvcpuinfo).  Returns Xen's result (0, or -EINVAL for values it
	 * refuses).
	 */
	int (*put_rt)(struct xs_ctx *c, struct xs_dom *d, int vcpu_id, long long period_us,
		      long long budget_us, bool extratime);
	/* XEN_SYSCTL_SCHEDOP_putinfo of the ARINC 653 schedule; Xen's result. */
	int (*put_arinc653)(struct xs_ctx *c, int64_t major_frame, int n,
			    const struct xs_a653_entry *entries);
	void (*adjust_affinity)(struct xs_ctx *c, struct xs_vcpu *v, const uint64_t *hard,
				const uint64_t *soft);
	/* Xen's dump_settings and dump_cpu_state of every pCPU, printed to f. */
	void (*dump)(struct xs_ctx *c, FILE *f);
};

#endif
