/*
 * Per-cpu variables of the current context.  Each variable Xen's
 * scheduler code names has an id here; its storage (one slot per pCPU)
 * belongs to the struct xs_ctx that runs, so instances do not share it.
 * A per-cpu variable unknown to this list fails to compile, naming it.
 */
#ifndef XEN_SHIM_PERCPU_H
#define XEN_SHIM_PERCPU_H

#include <xen/shim.h>

enum {
	XS_PCPU_ID_sched_res,
	XS_PCPU_ID_cpumask_scratch,
	XS_PCPU_ID_cpu_sibling_mask,
	XS_PCPU_ID_cpu_core_mask,
	XS_PCPU_ID_last_tickle_cpu,
	/* Up to Xen 4.12 (sched-if.h, the older credit2 and null): */
	XS_PCPU_ID_schedule_data,
	XS_PCPU_ID_scheduler,
	XS_PCPU_ID_cpupool,
	XS_PCPU_ID_runq_map,
	XS_PCPU_ID_npc,
	XS_PCPU_NR_IDS
};

/* The tag object only carries the type; it is never read or written. */
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) per_cpu__##name
#define DEFINE_PER_CPU(type, name) \
	__typeof__(type) per_cpu__##name __attribute__((unused))
#define DEFINE_PER_CPU_READ_MOSTLY DEFINE_PER_CPU
#define per_cpu(var, cpu) \
	(*(__typeof__(per_cpu__##var) *)xs_percpu_ptr(XS_PCPU_ID_##var, \
						      sizeof(per_cpu__##var), (cpu)))
#define this_cpu(var) per_cpu(var, smp_processor_id())
#define smp_processor_id() xs_this_cpu()

#endif
