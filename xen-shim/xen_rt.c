/*
 * Xen's RTDS scheduler (rt.c, sched_rt.c up to 4.12), compiled from a Xen
 * tree: the file is included, never copied.  It has no boot parameters;
 * the toolstack's per-vCPU (or, before 2016, per-domain) period, budget
 * and extratime arrive through its adjust hook (glue.c's put_rt).
 */
#include "xen-sched/rt.c"

#include "xen-shim/bridge.h"

static int rt_apply_params(const struct xs_params *p, char *err, int errlen)
{
	(void)p;
	(void)err;
	(void)errlen;
	return 0;
}

const struct xs_module xs_module_rt = {
	.file = "rtds",
	.def = &sched_rtds_def,
	.apply_params = rt_apply_params,
};
