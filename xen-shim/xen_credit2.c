/*
 * Xen's credit2 scheduler, compiled from the user's Xen tree.  As in
 * xen_credit.c, the boot parameters are set per instance before init.
 */
#include "xen-sched/credit2.c"

#include "xen-shim/bridge.h"

static void credit2_apply_params(const struct xs_params *p)
{
	static bool saved;
	static int def_runqueue;
	static unsigned int def_resist;

	if (!saved) {
		def_runqueue = opt_runqueue;
		def_resist = opt_migrate_resist;
		saved = true;
	}
	opt_runqueue = p->runqueue >= 0 ? p->runqueue : def_runqueue;
	opt_migrate_resist = p->migrate_resist_us >= 0 ?
			     (unsigned int)p->migrate_resist_us : def_resist;
}

const struct xs_module xs_module_credit2 = {
	.name = "xen-credit2",
	.def = &sched_credit2_def,
	.apply_params = credit2_apply_params,
};
