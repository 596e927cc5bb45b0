/* Xen prefetch.h (up to 2018, list.h): no-ops. */
#ifndef XEN_SHIM_PREFETCH_H
#define XEN_SHIM_PREFETCH_H
#define prefetch(x) ((void)(x))
#define prefetchw(x) ((void)(x))
#endif
