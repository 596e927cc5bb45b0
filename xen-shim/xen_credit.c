/*
 * Xen's credit (credit1) scheduler, compiled from a Xen tree.  Its boot
 * parameters are file-scope variables of credit.c, reachable from here
 * because the file is included: each instance sets them (or restores
 * Xen's defaults, saved on first use) before init reads them.  The
 * migration delay is vcpu_migration_delay (us) up to 4.10, then
 * vcpu_migration_delay_us (XS_CREDIT_MIGR_DELAY, from probe-tree.sh).
 */
#include "xen-sched/credit.c"

#include "xen-shim/bridge.h"

static int credit_apply_params(const struct xs_params *p, char *err, int errlen)
{
	static bool saved;
	static int def_tslice;
	static unsigned int def_delay;

	(void)err;
	(void)errlen;
	if (!saved) {
		def_tslice = sched_credit_tslice_ms;
		def_delay = XS_CREDIT_MIGR_DELAY;
		saved = true;
	}
	sched_credit_tslice_ms = p->tslice_ms >= 0 ? (int)p->tslice_ms : def_tslice;
	XS_CREDIT_MIGR_DELAY = p->vcpu_migr_delay_us >= 0 ?
			       (unsigned int)p->vcpu_migr_delay_us : def_delay;
	return 0;
}

const struct xs_module xs_module_credit = {
	.file = "credit",
	.def = &sched_credit_def,
	.apply_params = credit_apply_params,
};
