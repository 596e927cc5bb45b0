/* Xen's keyhandler.h: the dump buffer of the older files (keyhandler_scratch). */
#ifndef XEN_SHIM_XEN_KEYHANDLER_H
#define XEN_SHIM_XEN_KEYHANDLER_H
#include <xen/lib.h>
extern char keyhandler_scratch[1024];
#endif
