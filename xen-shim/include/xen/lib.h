/* Xen's xen/lib.h: assertions, printing, small helpers. */
#ifndef XEN_SHIM_LIB_H
#define XEN_SHIM_LIB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xen/compiler.h>
#include <xen/types.h>
#include <xen/errno.h>

struct vcpu;
#include <xen/shim.h>
/* The tree's own kernel.h (and, from 2023, macros.h): min, max, container_of. */
#include <xen/kernel.h>

#define BUG() xs_bug(__FILE__, __LINE__, "BUG")
#define BUG_ON(p) do { if (unlikely(p)) xs_bug(__FILE__, __LINE__, #p); } while (0)
#define WARN_ON(p) ({ bool w_ = (p); if (unlikely(w_)) fprintf(stderr, "xen-shim: WARN_ON(%s) at %s:%d\n", #p, __FILE__, __LINE__); w_; })
#define WARN() fprintf(stderr, "xen-shim: WARN at %s:%d\n", __FILE__, __LINE__)
#ifndef BUILD_BUG_ON
#define BUILD_BUG_ON(c) _Static_assert(!(c), "BUILD_BUG_ON(" #c ")")
#define BUILD_BUG_ON_ZERO(c) (sizeof(struct { int:(-!!(c)); }))
#endif
#ifdef XEN_SHIM_NO_ASSERT
#define ASSERT(p) do { if (0 && (p)) {} } while (0)
#else
#define ASSERT(p) do { if (unlikely(!(p))) xs_bug(__FILE__, __LINE__, "ASSERT(" #p ")"); } while (0)
#endif
#define ASSERT_UNREACHABLE() ASSERT(0)
/* Xen's kernel.h or (2023 on) macros.h may give these too. */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#endif
#ifndef DIV_ROUND_UP
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#endif
#ifndef ROUNDUP
#define ROUNDUP(x, a) (((x) + (a) - 1) & ~((a) - 1))
#endif
#ifndef IS_ALIGNED
#define IS_ALIGNED(v, a) (!((v) & ((a) - 1)))
#endif
#ifndef swap
#define swap(a, b) do { __typeof__(a) t_ = (a); (a) = (b); (b) = t_; } while (0)
#endif

/*
 * Console output: printed while dumping (into the dump's stream), dropped
 * otherwise so that boot banners do not clutter every run.
 */
void xs_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define printk(fmt, ...) xs_printk(fmt, ## __VA_ARGS__)
#define gprintk(lvl, fmt, ...) xs_printk(fmt, ## __VA_ARGS__)
#define dprintk(lvl, fmt, ...) xs_printk(fmt, ## __VA_ARGS__)
#define XENLOG_INFO ""
#define XENLOG_WARNING ""
#define XENLOG_ERR ""
#define XENLOG_G_INFO ""
#define XENLOG_G_WARNING ""
#define XENLOG_G_ERR ""
#define XENLOG_DEBUG ""
#define XENLOG_G_DEBUG ""
#define KERN_INFO ""
#define KERN_WARNING ""
#define KERN_ERR ""


#endif
