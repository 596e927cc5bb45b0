#ifndef XEN_SHIM_SMP_H
#define XEN_SHIM_SMP_H
#include <xen/percpu.h>
#include <xen/cpumask.h>
DECLARE_PER_CPU(cpumask_var_t, cpu_sibling_mask);
DECLARE_PER_CPU(cpumask_var_t, cpu_core_mask);
#endif
