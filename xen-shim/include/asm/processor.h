/*
 * x86's per-CPU data, as far as the scheduler files read it: the number
 * of SMT siblings of each pCPU's core.  Up to 4.17 credit2.c calls
 * cpu_nr_siblings() from the arch headers; from 4.22 it defines it
 * itself on cpu_data[cpu].x86_num_siblings under CONFIG_X86
 * (XS_CREDIT2_OWN_NR_SIBLINGS).  The values belong to the running
 * instance (glue.c).
 */
#ifndef XEN_SHIM_ASM_PROCESSOR_H
#define XEN_SHIM_ASM_PROCESSOR_H
#include <xen/lib.h>

#define CONFIG_X86 1

struct cpuinfo_x86 {
	unsigned int x86_num_siblings;
};

const struct cpuinfo_x86 *xs_cpu_data(void);
#define cpu_data (xs_cpu_data())

#ifndef XS_CREDIT2_OWN_NR_SIBLINGS
static inline unsigned int cpu_nr_siblings(unsigned int cpu)
{
	return cpu_data[cpu].x86_num_siblings;
}
#endif

#endif
