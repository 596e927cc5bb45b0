#ifndef XEN_SHIM_RANDOM_H
#define XEN_SHIM_RANDOM_H
#include <xen/shim.h>
#define get_random() xs_get_random()
#endif
