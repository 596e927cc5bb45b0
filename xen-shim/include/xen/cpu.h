/*
 * Xen's cpu.h: CPU hotplug notifiers.  Credit2 of 2015 registers one to
 * finish a pCPU's set-up at CPU_STARTING when its topology was not known
 * at alloc_pdata; the shim brings every pCPU up with its topology known,
 * so alloc_pdata does it all and no notifier is ever called.
 */
#ifndef XEN_SHIM_XEN_CPU_H
#define XEN_SHIM_XEN_CPU_H
#include <xen/lib.h>

struct notifier_block {
	int (*notifier_call)(struct notifier_block *nb, unsigned long action, void *hcpu);
	struct notifier_block *next;
	int priority;
};

#define NOTIFY_DONE 0
#define NOTIFY_OK 1
#define NOTIFY_STOP_MASK 0x8000
#define notifier_from_errno(e) (NOTIFY_STOP_MASK | (-(e)))
enum { CPU_UP_PREPARE = 1, CPU_UP_CANCELED, CPU_STARTING, CPU_ONLINE, CPU_DYING,
       CPU_DOWN_PREPARE, CPU_DOWN_FAILED, CPU_DEAD, CPU_RESUME_FAILED };
#define register_cpu_notifier(nb) ((void)(nb))

#endif
