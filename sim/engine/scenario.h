/*
 * A scenario: the host, the domains with their vCPUs, weights, caps and
 * affinities, the workloads they run, the duration and the seed.  One plain
 * struct, built from the embedded default, an XML file (both
 * sim/input/scenario_load.h) or CLI flags, and
 * turned into a struct sim by sim_build() (sim/experiment/build.h).
 *
 * Every element remembers its line in the file so that errors found later
 * (a cpu id out of range, a bad workload parameter) still name file:line.
 */
#ifndef SCHEDSIM_SCENARIO_H
#define SCHEDSIM_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/engine/dist.h"
#include "sim/engine/domain_type.h"
#include "sim/engine/guest_kernel.h"
#include "sim/engine/rt_params.h"
#include "sim/engine/topology.h"
#include "sim/err.h"
#include "sim/params.h"
#include "sim/stime.h"

struct phase_spec {
	struct dist run, sleep;
	int line;
};

/*
 * A VM's CPU demand as a series of per-interval utilisations, read from a
 * user's trace by the loader (sim/input/utiltrace.h): per cent of one CPU,
 * one value per interval, in time order.
 */
struct util_series {
	double *pct;
	int n;
};

/*
 * A recorded domain's CPU demand, rebuilt from a host's xentrace by the
 * loader (sim/input/xentrace_read.h): each vCPU's bursts in time order.  A
 * burst runs from the vCPU leaving blocked (its wake) to its next block;
 * it ran for 'run' of that time and waited (runnable, or offline while it
 * had work) for the rest.  Times are ns from the trace's start.
 */
struct replay_burst {
	stime_t wake;                 /* it left blocked */
	stime_t end;                  /* it blocked again (the trace's end for the last) */
	stime_t run;                  /* time it ran in between */
	int switches;                 /* times it was switched in during the burst */
	/*
	 * The pCPU whose code woke it, when not the one it last ran on: a wake
	 * from another pCPU (an event channel from a vCPU running there); -1
	 * for its own (its timer), or not known.
	 */
	int waker;
};

struct replay_vcpu {
	struct replay_burst *bursts;
	int n;
	stime_t ran, waited, slept;   /* the recorded totals: running, runnable or offline
					 with work, blocked (or offline without) */
};

struct replay_demand {
	int domid;                    /* the recorded domain's id */
	struct replay_vcpu *vcpus;    /* by recorded vCPU id (0 bursts: never seen) */
	int nvcpus;
	stime_t length;               /* the trace's length */
};

struct workload_spec {
	char type[32];
	struct kvlist params;         /* attributes other than type, each with its line */
	struct phase_spec *phases;    /* <phase> children (the phases workload) */
	int nphases;
	struct util_series util;      /* the file= series (the utilisation workload) */
	struct replay_demand replay;  /* the file= domain= demand (the xentrace workload) */
	int line;
};

struct vcpu_spec {                /* <vcpu id=".." hard=".." soft=".." period=".."/> overrides */
	int id;
	char *hard, *soft;            /* NULL: the domain's */
	struct rt_params rt;          /* each value not given: the domain's */
	int line;
};

struct domain_spec {
	char name[64];
	int vcpus, weight, cap;
	int memory_mb;                /* <domain memory="MiB">, xl's memory=; 0: not given */
	char *numa_nodes;             /* nodes holding its memory ("0,1"); NULL: automatic */
	char *hard, *soft;            /* cpu lists; NULL: all */
	struct rt_params rt;          /* period=, budget=, extratime= (RTDS) */
	struct vcpu_spec *vcpu_over;
	int nvcpu_over;
	struct workload_spec *workloads;
	int nworkloads;
	char pool[64];                /* <domain pool="NAME"> (xl's pool=); "": Pool-0 */
	enum domain_type type;        /* <domain type=".."> (xl's type=); DEFAULT: not given */
	enum guest_kernel kernel;     /* <domain kernel=".."> (guest_kernel.h); 4.4 unless given */
	enum guest_llc llc;           /* <domain llc=".."> (guest_kernel.h); shared unless given */
	int line, affinity_line;
	char *affinity_source;        /* the file of affinity_line and the vcpu_over lines
					 when an xl config gave them; NULL: the scenario */
	char *source;                 /* the file of line when the whole domain is an xl
					 config's (--domain=FILE.cfg); NULL: the scenario */
};

struct host_spec {
	int sockets, cores_per_socket, threads_per_core, nodes;
	/*
	 * A machine's own CPU map (lscpu -p, xl info -n: sim/input/host_topology.h),
	 * NULL for the regular shape above; with a map the four counts above
	 * summarise it (sockets; the largest socket, core; nodes).
	 */
	struct topology_cpu *cpu_map;
	int ncpus_map;
	char *map_source;             /* "lscpu:FILE" or "xl-info:FILE" */
	stime_t ipi_latency, context_switch;
	struct kvlist hw;             /* hardware attributes (sim/engine/hw.h), each with its line */
	int line;
};

/*
 * A cpupool (<pool name=".." cpus=".." sched="..">, as xl cpupool-create
 * makes one): pCPUs taken out of Pool-0 with a scheduler of their own.
 */
struct pool_spec {
	char name[64];
	char *cpus;                   /* cpu list (xl syntax) */
	char *sched;                  /* scheduler spec, gran= included; NULL: --sched's */
	int line;
};

/*
 * The ARINC 653 schedule (<arinc653>): what the toolstack installs with
 * XEN_SYSCTL_SCHEDOP_putinfo.  Minor frames run in order, each giving one
 * vCPU its runtime; the major frame repeats them.
 */
struct minor_frame_spec {
	char domain[64];              /* a domain of the scenario, by name */
	int vcpu;
	stime_t runtime;
	int line;
};

struct arinc653_spec {
	char pool[64];                /* the cpupool it is for; "": the one running arinc653 */
	stime_t major_frame;          /* 0 when not given: the sum of the runtimes */
	struct minor_frame_spec *frames;
	int nframes;
	int line;                     /* 0: the scenario gives no schedule */
};

/*
 * Xen's smt= boot option, the <host smt="on|off"> attribute (a key of
 * h->hw, checked there; default on).  Off, Xen 4.12 and later park every
 * thread of a core but the first it brings up (xen/arch/x86/setup.c,
 * __start_xen: a CPU whose cpu_sibling_mask already holds another thread
 * is taken down again at once): parked threads are not in cpu_online_map,
 * no cpupool gets them, and their core's resources are the first thread's.
 */
bool host_spec_smt(const struct host_spec *h);
/*
 * The topology of the pCPUs Xen brings online on h: every CPU, or with
 * smt off the first thread of each core, numbered 0.. in CPU order (Xen
 * keeps the parked threads' ids: online 0, 2, 4, 6 on 1 x 4 x 2).
 */
int host_spec_topology(const struct host_spec *h, struct topology *t, struct err *e);
/* The host's pCPU count (online ones), with a map or without. */
int host_spec_cpus(const struct host_spec *h);

struct scenario {
	char source[256];             /* file name, or "<default>" */
	stime_t duration;
	uint64_t seed;
	struct host_spec host;
	struct domain_spec *doms;
	int ndoms;
	int capdoms;                  /* doms' allocated length */
	struct pool_spec *pools;      /* besides Pool-0 */
	int npools;
	struct arinc653_spec arinc653;
	int line;
};

#define SCENARIO_DEFAULT_DURATION SEC(10)
#define SCENARIO_DEFAULT_SEED 1

/* Limits the loader enforces. */
#define SCENARIO_MAX_FILE (16 << 20)
#define SCENARIO_MAX_VCPUS 4096           /* per domain */
#define SCENARIO_MAX_TOTAL_VCPUS (1 << 20)
#define SCENARIO_MAX_DOMAINS 4096
#define SCENARIO_MAX_MEMORY_MB (1 << 30)      /* MiB: 1 PiB */
#define SCENARIO_MAX_WORKLOAD_PARAMS 32
#define SCENARIO_MAX_ATTRS 256            /* per element, checked before parsing */
#define SCENARIO_MAX_MINOR_FRAMES 64      /* Xen's ARINC653_MAX_DOMAINS_PER_SCHEDULE */
#define SCENARIO_MAX_POOLS 256
void scenario_free(struct scenario *sc);
/* Frees and deep-copies a replay_demand (dst is overwritten). */
void replay_demand_free(struct replay_demand *d);
void replay_demand_copy(struct replay_demand *dst, const struct replay_demand *src);
/* Frees what one workload spec owns (its parameters, phases, series, demand). */
void scenario_free_workload(struct workload_spec *w);
/* Frees what one domain owns (its lists, overrides, workloads). */
void scenario_free_domain(struct domain_spec *d);
/* Deep copy (experiments modify copies per configuration). */
void scenario_copy(struct scenario *dst, const struct scenario *src);
/*
 * Appends a zeroed domain to sc->doms and returns it; the array grows by
 * doubling, so a file of thousands of domains loads in linear time.
 * Pointers to earlier domains are invalid after the call.
 */
struct domain_spec *scenario_domain_add(struct scenario *sc);
/* Finds a domain by name, or NULL. */
struct domain_spec *scenario_domain(struct scenario *sc, const char *name);
/* Finds a <pool> by name, or NULL (Pool-0 is none). */
struct pool_spec *scenario_pool(struct scenario *sc, const char *name);

#endif
