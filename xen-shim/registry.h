/*
 * The shim's schedulers for schedulers/registry.c: for every Xen tree of
 * the build (XEN_SHIM_TREES in xen-trees.h, written by configure), its
 * xen-null@NAME (when the tree has null.c), xen-credit@NAME,
 * xen-credit2@NAME, xen-rtds@NAME and xen-arinc653@NAME (when it has rt.c,
 * arinc653.c), defined in xen-shim/adapter.c.
 */
#ifndef XEN_SHIM_REGISTRY_H
#define XEN_SHIM_REGISTRY_H

#include "xen-trees.h"

#ifdef HAVE_XEN_SOURCE
#define XS_IF_0(...)
#define XS_IF_1(...) __VA_ARGS__
#define XS_IF(cond, ...) XS_IF_##cond(__VA_ARGS__)

#define XS_REG_DECLARE(i, name, version, has_null, has_credit, has_credit2, has_runq, has_tick, \
			has_rt, has_a653) \
	XS_IF(has_null, extern const struct sched_ops xen_null_ops_##i;) \
	XS_IF(has_credit, extern const struct sched_ops xen_credit_ops_##i;) \
	XS_IF(has_credit2, extern const struct sched_ops xen_credit2_ops_##i;) \
	XS_IF(has_rt, extern const struct sched_ops xen_rtds_ops_##i;) \
	XS_IF(has_a653, extern const struct sched_ops xen_arinc653_ops_##i;)
XEN_SHIM_TREES(XS_REG_DECLARE)

#define XS_REG_LIST(i, name, version, has_null, has_credit, has_credit2, has_runq, has_tick, \
		    has_rt, has_a653) \
	XS_IF(has_null, &xen_null_ops_##i,) XS_IF(has_credit, &xen_credit_ops_##i,) \
	XS_IF(has_credit2, &xen_credit2_ops_##i,) XS_IF(has_rt, &xen_rtds_ops_##i,) \
	XS_IF(has_a653, &xen_arinc653_ops_##i,)
#define XEN_SHIM_OPS XEN_SHIM_TREES(XS_REG_LIST)
#else
#define XEN_SHIM_OPS
#endif

#endif
