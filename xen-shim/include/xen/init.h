/* Xen's init.h: up to 4.12 it also declared the boot parameters (now param.h). */
#ifndef XEN_SHIM_XEN_INIT_H
#define XEN_SHIM_XEN_INIT_H
#include <xen/lib.h>
#include <xen/param.h>
#endif
