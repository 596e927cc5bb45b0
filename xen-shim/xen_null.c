/*
 * Xen's null scheduler, compiled from the user's Xen tree (configure
 * --with-xen-source): the file is included, never copied, and its ops
 * table exported for adapter.c.
 */
#include "xen-sched/null.c"

#include "xen-shim/bridge.h"

static void null_apply_params(const struct xs_params *p)
{
	(void)p;
}

const struct xs_module xs_module_null = {
	.name = "xen-null",
	.def = &sched_null_def,
	.apply_params = null_apply_params,
};
