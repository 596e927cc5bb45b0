/* SCHEDULE_SOFTIRQ raising is the simulator's tickle. */
#ifndef XEN_SHIM_SOFTIRQ_H
#define XEN_SHIM_SOFTIRQ_H

#include <xen/cpumask.h>

enum { TIMER_SOFTIRQ, SCHEDULE_SOFTIRQ, NR_COMMON_SOFTIRQS };

#define cpu_raise_softirq(cpu, nr) xs_raise_softirq(cpu)
#define raise_softirq(nr) xs_raise_softirq(smp_processor_id())
#define cpumask_raise_softirq(mask, nr) do { \
	unsigned int c_; \
	for_each_cpu(c_, (mask)) \
		xs_raise_softirq(c_); \
} while (0)

#endif
