/* Nothing of this header is used by the scheduler files. */
#ifndef XEN_SHIM_XEN_CPU_H
#define XEN_SHIM_XEN_CPU_H
#include <xen/lib.h>
#endif
