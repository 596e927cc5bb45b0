/*
 * Xen's credit (credit1) scheduler, compiled from the user's Xen tree.
 * Its boot parameters are file-scope variables of credit.c, reachable
 * from here because the file is included: each instance sets them
 * (or restores Xen's defaults, saved on first use) before init reads them.
 */
#include "xen-sched/credit.c"

#include "xen-shim/bridge.h"

static void credit_apply_params(const struct xs_params *p)
{
	static bool saved;
	static int def_tslice;
	static unsigned int def_delay;

	if (!saved) {
		def_tslice = sched_credit_tslice_ms;
		def_delay = vcpu_migration_delay_us;
		saved = true;
	}
	sched_credit_tslice_ms = p->tslice_ms >= 0 ? (int)p->tslice_ms : def_tslice;
	vcpu_migration_delay_us = p->vcpu_migr_delay_us >= 0 ?
				  (unsigned int)p->vcpu_migr_delay_us : def_delay;
}

const struct xs_module xs_module_credit = {
	.name = "xen-credit",
	.def = &sched_credit_def,
	.apply_params = credit_apply_params,
};
