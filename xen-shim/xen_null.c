/*
 * Xen's null scheduler (Xen 4.10 on), compiled from a Xen tree: the file
 * is included, never copied, and its ops table exported for glue.c.
 */
#include "xen-sched/null.c"

#include "xen-shim/bridge.h"

static int null_apply_params(const struct xs_params *p, char *err, int errlen)
{
	(void)p;
	(void)err;
	(void)errlen;
	return 0;
}

const struct xs_module xs_module_null = {
	.file = "null",
	.def = &sched_null_def,
	.apply_params = null_apply_params,
};
