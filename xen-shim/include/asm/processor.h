/* Nothing of this header is used by the scheduler files. */
#ifndef XEN_SHIM_ASM_PROCESSOR_H
#define XEN_SHIM_ASM_PROCESSOR_H
#include <xen/lib.h>
#endif
