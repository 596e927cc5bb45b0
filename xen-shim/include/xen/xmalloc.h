#ifndef XEN_SHIM_XMALLOC_H
#define XEN_SHIM_XMALLOC_H

#include <stdlib.h>

void *_xmalloc(unsigned long size, unsigned long align);
void *_xzalloc(unsigned long size, unsigned long align);
void xfree(void *p);

#define xmalloc(t) ((t *)_xmalloc(sizeof(t), __alignof__(t)))
#define xzalloc(t) ((t *)_xzalloc(sizeof(t), __alignof__(t)))
#define xmalloc_array(t, n) ((t *)_xmalloc(sizeof(t) * (n), __alignof__(t)))
#define xzalloc_array(t, n) ((t *)_xzalloc(sizeof(t) * (n), __alignof__(t)))
#define xmalloc_bytes(n) _xmalloc(n, sizeof(long))
#define xzalloc_bytes(n) _xzalloc(n, sizeof(long))
#define XFREE(p) do { xfree(p); (p) = NULL; } while (0)

#endif
