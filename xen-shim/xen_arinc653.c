/*
 * Xen's ARINC 653 scheduler (arinc653.c, sched_arinc653.c up to 4.12),
 * compiled from a Xen tree: the file is included, never copied.  Its
 * schedule arrives through adjust_global (glue.c's put_arinc653).
 */
#include "xen-sched/arinc653.c"

#include "xen-shim/bridge.h"

static int arinc653_apply_params(const struct xs_params *p, char *err, int errlen)
{
	(void)p;
	(void)err;
	(void)errlen;
	return 0;
}

const struct xs_module xs_module_arinc653 = {
	.file = "arinc653",
	.def = &sched_arinc653_def,
	.apply_params = arinc653_apply_params,
};
