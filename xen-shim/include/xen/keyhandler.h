/* Nothing of this header is used by the scheduler files. */
#ifndef XEN_SHIM_XEN_KEYHANDLER_H
#define XEN_SHIM_XEN_KEYHANDLER_H
#include <xen/lib.h>
#endif
