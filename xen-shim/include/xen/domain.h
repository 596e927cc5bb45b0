/* Nothing of this header is used by the scheduler files. */
#ifndef XEN_SHIM_XEN_DOMAIN_H
#define XEN_SHIM_XEN_DOMAIN_H
#include <xen/lib.h>
#endif
