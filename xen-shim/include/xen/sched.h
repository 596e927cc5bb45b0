/*
 * Cut-down struct vcpu, struct domain and struct sched_unit: the fields
 * Xen's scheduler files read, named as Xen names them, with sched-gran=cpu
 * (one vCPU per unit).  xs_peer points at the simulator's own vCPU or
 * domain; glue.c keeps the two sides in step.  Also the few public ABI
 * definitions (domctl/sysctl scheduler operations) the schedulers use.
 */
#ifndef XEN_SHIM_SCHED_H
#define XEN_SHIM_SCHED_H

#include <xen/lib.h>
#include <xen/types.h>
#include <xen/list.h>
#include <xen/cpumask.h>
#include <xen/nodemask.h>
#include <xen/percpu.h>
#include <xen/spinlock.h>
#include <xen/timer.h>
#include <xen/rcupdate.h>
#include <xen/time.h>
#include <xen/xmalloc.h>
#include <xen/smp.h>
#include <asm/atomic.h>
#include <asm/bitops.h>

#define DOMID_IDLE 0x7FFFU

/* Runstates (public/vcpu.h). */
#define RUNSTATE_running 0
#define RUNSTATE_runnable 1
#define RUNSTATE_blocked 2
#define RUNSTATE_offline 3

/* Pause flags: the bit numbers are Xen's. */
#define _VPF_blocked 0
#define VPF_blocked (1UL << _VPF_blocked)
#define _VPF_down 1
#define VPF_down (1UL << _VPF_down)
#define _VPF_blocked_in_xen 2
#define _VPF_migrating 3
#define VPF_migrating (1UL << _VPF_migrating)
#define _VPF_parked 8
#define VPF_parked (1UL << _VPF_parked)

struct vcpu_runstate_info {
	int state;
	s_time_t state_entry_time;
};

struct vcpu {
	unsigned int vcpu_id;
	unsigned int processor;
	unsigned long pause_flags;
	atomic_t pause_count;
	bool is_running;
	int new_state;
	struct vcpu_runstate_info runstate;
	struct domain *domain;
	struct sched_unit *sched_unit;
	struct vcpu *next_in_list;
	/* Up to Xen 4.12 the vCPU itself is what is scheduled: */
	void *sched_priv;
	cpumask_var_t cpu_hard_affinity;
	cpumask_var_t cpu_soft_affinity;
	s_time_t last_run_time;
	bool is_urgent;
	bool affinity_broken;
	bool soft_aff_effective;        /* 4.12's (struct sched_unit's from 4.13) */
	void *xs_peer;
	/*
	 * sched-gran > cpu: the simulator's unit this vCPU belongs to, and its
	 * place in it (xs_peer is found from these once the member exists).
	 */
	void *xs_unit_peer;
	int xs_member;
};

/* public/xen.h: a domain's UUID. */
typedef uint8_t xen_domain_handle_t[16];

struct domain {
	domid_t domain_id;
	unsigned int max_vcpus;
	struct vcpu **vcpu;
	struct sched_unit *sched_unit_list;
	void *sched_priv;
	struct cpupool *cpupool;
	atomic_t pause_count;
	nodemask_t node_affinity;
	xen_domain_handle_t handle;     /* ARINC 653 names domains by it */
	void *xs_peer;
};

struct sched_unit {
	struct domain *domain;
	struct vcpu *vcpu_list;
	void *priv;
	struct sched_unit *next_in_list;
	struct sched_resource *res;
	unsigned int unit_id;
	bool is_running;
	bool migrated;
	bool soft_aff_effective;
	bool affinity_broken;
	s_time_t state_entry_time;
	unsigned int runstate_cnt[4];
	cpumask_var_t cpu_hard_affinity;
	cpumask_var_t cpu_soft_affinity;
	struct sched_unit *next_task;
	s_time_t next_time;
};

#define for_each_sched_unit(d, u) \
	for ((u) = (d)->sched_unit_list; (u) != NULL; (u) = (u)->next_in_list)
#define for_each_sched_unit_vcpu(u, v) \
	for ((v) = (u)->vcpu_list; (v) != NULL && (v)->sched_unit == (u); \
	     (v) = (v)->next_in_list)
#define for_each_vcpu(d, v) \
	for ((v) = (d)->vcpu[0]; (v) != NULL; (v) = (v)->next_in_list)

static inline bool is_idle_domain(const struct domain *d)
{
	return d->domain_id == DOMID_IDLE;
}

/* The toolstack's domain: dom0 here (Xen: d->is_privileged). */
static inline bool is_control_domain(const struct domain *d)
{
	return d->domain_id == 0;
}

static inline bool is_idle_vcpu(const struct vcpu *v)
{
	return is_idle_domain(v->domain);
}

static inline bool is_vcpu_online(const struct vcpu *v)
{
	return !test_bit(_VPF_down, &v->pause_flags);
}

static inline bool vcpu_runnable(const struct vcpu *v)
{
	return !(v->pause_flags | (unsigned long)atomic_read(&v->pause_count) |
		 (unsigned long)atomic_read(&v->domain->pause_count));
}

static inline struct sched_unit *sched_unit_of(const struct vcpu *v)
{
	return v->sched_unit;
}

/* The simulator's entry points, renamed: its own core has these names. */
#define vcpu_pause_nosync(v) xs_vcpu_pause_nosync(v)
#define vcpu_unpause(v) xs_vcpu_unpause(v)

/* The vCPU running on the pCPU whose code runs now. */
struct vcpu *xs_current(void);
#define current xs_current()

#define idle_vcpu xs_idle_vcpus()
struct vcpu **xs_idle_vcpus(void);

/* Topology of the simulated host. */
unsigned int cpu_to_socket(unsigned int cpu);
unsigned int cpu_to_core(unsigned int cpu);
unsigned int cpu_to_node(unsigned int cpu);
extern cpumask_t cpu_online_map;
#define node_online_map xs_node_online_map
extern nodemask_t xs_node_online_map;
const cpumask_t *xs_node_to_cpumask(unsigned int node);
#define node_to_cpumask(n) (*xs_node_to_cpumask(n))
#define sched_smt_power_savings 0

/* Public ABI: scheduler ids and the domctl/sysctl scheduler operations. */
#define XEN_SCHEDULER_CREDIT 5
#define XEN_SCHEDULER_CREDIT2 6
#define XEN_SCHEDULER_ARINC653 7
#define XEN_SCHEDULER_RTDS 8
#define XEN_SCHEDULER_NULL 9
#define XEN_DOMCTL_SCHEDOP_putinfo 0
#define XEN_DOMCTL_SCHEDOP_getinfo 1
#define XEN_DOMCTL_SCHEDOP_putvcpuinfo 2
#define XEN_DOMCTL_SCHEDOP_getvcpuinfo 3
#define XEN_SYSCTL_SCHEDOP_putinfo 0
#define XEN_SYSCTL_SCHEDOP_getinfo 1
#define XEN_SYSCTL_SCHED_RATELIMIT_MAX 500000
#define XEN_SYSCTL_SCHED_RATELIMIT_MIN 100
#define XEN_SYSCTL_CSCHED_TSLICE_MAX 1000
#define XEN_SYSCTL_CSCHED_TSLICE_MIN 1
#define XEN_SYSCTL_CSCHED_MGR_DLY_MAX_US (100 * 1000)
#define XEN_INVALID_SOCKET_ID (~0U)

/* A guest handle is a plain pointer here (see xen/guest_access.h). */
#define XEN_GUEST_HANDLE(type) struct { type *p; }
#define XEN_GUEST_HANDLE_64(type) XEN_GUEST_HANDLE(type)

/* RTDS's parameters in us; flags (4.10 on): XEN_DOMCTL_SCHEDRT_extra. */
struct xen_domctl_sched_rtds {
	uint32_t period;
	uint32_t budget;
	uint32_t flags;
};
#define _XEN_DOMCTL_SCHEDRT_extra 0
#define XEN_DOMCTL_SCHEDRT_extra (1U << _XEN_DOMCTL_SCHEDRT_extra)

struct xen_domctl_schedparam_vcpu {
	union {
		struct {
			uint16_t weight;
			uint16_t cap;
		} credit, credit2;
		struct xen_domctl_sched_rtds rtds;
	} u;
	uint32_t vcpuid;
};
typedef struct xen_domctl_schedparam_vcpu xen_domctl_schedparam_vcpu_t;

struct xen_domctl_scheduler_op {
	uint32_t sched_id;
	uint32_t cmd;
	union {
		struct {
			uint16_t weight;
			uint16_t cap;
		} credit, credit2;
		struct xen_domctl_sched_rtds rtds;
		struct {
			XEN_GUEST_HANDLE_64(xen_domctl_schedparam_vcpu_t) vcpus;
			uint32_t nr_vcpus;
		} v;
	} u;
};

struct xen_sysctl_credit_schedule {
	uint32_t tslice_ms;
	uint32_t ratelimit_us;
	uint32_t vcpu_migr_delay_us;
};

struct xen_sysctl_credit2_schedule {
	uint32_t ratelimit_us;
};

/* The ARINC 653 schedule (public/sysctl.h): domains by handle. */
#define ARINC653_MAX_DOMAINS_PER_SCHEDULE 64
struct xen_sysctl_arinc653_schedule {
	uint64_t major_frame;
	uint8_t num_sched_entries;
	struct {
		xen_domain_handle_t dom_handle;
		unsigned int vcpu_id;
		uint64_t runtime;
	} sched_entries[ARINC653_MAX_DOMAINS_PER_SCHEDULE];
};
typedef struct xen_sysctl_arinc653_schedule xen_sysctl_arinc653_schedule_t;

typedef struct xen_sysctl_credit_schedule xen_sysctl_credit_schedule_t;
typedef struct xen_sysctl_credit2_schedule xen_sysctl_credit2_schedule_t;

struct xen_sysctl_scheduler_op {
	uint32_t cpupool_id;
	uint32_t sched_id;
	uint32_t cmd;
	union {
		struct xen_sysctl_credit_schedule sched_credit;
		struct xen_sysctl_credit2_schedule sched_credit2;
		struct {
			XEN_GUEST_HANDLE_64(xen_sysctl_arinc653_schedule_t) schedule;
		} sched_arinc653;
	} u;
};

/* Scheduler statistics (perf counters) are not kept. */
#define SCHED_STAT_CRANK(x) ((void)0)
#define perfc_incr(x) ((void)0)
#define perfc_incra(x, i) ((void)0)

#include <asm/processor.h>

#endif
