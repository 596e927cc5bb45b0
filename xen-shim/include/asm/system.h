/* Memory barriers: nothing runs concurrently in the simulator. */
#ifndef XEN_SHIM_ASM_SYSTEM_H
#define XEN_SHIM_ASM_SYSTEM_H

#include <xen/compiler.h>

#define mb() barrier()
#define rmb() barrier()
#define wmb() barrier()
#define smp_mb() barrier()
#define smp_rmb() barrier()
#define smp_wmb() barrier()
#define smp_mb__before_atomic() barrier()
#define smp_mb__after_atomic() barrier()
#define local_irq_disable() ((void)0)
#define local_irq_enable() ((void)0)
#define local_irq_save(f) ((f) = 0)
#define local_irq_restore(f) ((void)(f))
/* Xen's scheduler code runs as in the hypervisor: interrupts off. */
#define local_irq_is_enabled() 0
#define cpu_relax() ((void)0)

#endif
