/*
 * Xen's credit2 scheduler, compiled from a Xen tree.  As in xen_credit.c,
 * the boot parameters are set per instance before init.  credit2_runqueue=
 * (2016 on, XS_CREDIT2_RUNQUEUE) is looked up by name in the tree's own
 * opt_runqueue_str, as its parser does: the choices changed over time
 * ("cpu" arrived in 2017, the numbering with it).
 */
#include "xen-sched/credit2.c"

#include "xen-shim/bridge.h"

static int credit2_apply_params(const struct xs_params *p, char *err, int errlen)
{
	static bool saved;
	static unsigned int def_resist;
#ifdef XS_CREDIT2_RUNQUEUE
	static int def_runqueue;
	unsigned int i;
#endif

	if (!saved) {
		def_resist = (unsigned int)opt_migrate_resist;
#ifdef XS_CREDIT2_RUNQUEUE
		def_runqueue = opt_runqueue;
#endif
		saved = true;
	}
	opt_migrate_resist = p->migrate_resist_us >= 0 ? p->migrate_resist_us : def_resist;
#ifdef XS_CREDIT2_RUNQUEUE
	opt_runqueue = def_runqueue;
	if (!p->runqueue)
		return 0;
	for (i = 0; i < ARRAY_SIZE(opt_runqueue_str); i++) {
		if (opt_runqueue_str[i] && strcmp(p->runqueue, opt_runqueue_str[i]) == 0) {
			opt_runqueue = (int)i;
			return 0;
		}
	}
	{
		int n = snprintf(err, (size_t)errlen, "runqueue=%s: this credit2.c knows", p->runqueue);

		for (i = 0; i < ARRAY_SIZE(opt_runqueue_str) && n > 0 && n < errlen; i++)
			if (opt_runqueue_str[i])
				n += snprintf(err + n, (size_t)(errlen - n), " %s", opt_runqueue_str[i]);
	}
	return -1;
#else
	if (p->runqueue) {
		snprintf(err, (size_t)errlen,
			 "runqueue=%s: this credit2.c has no credit2_runqueue= (added in 2016)",
			 p->runqueue);
		return -1;
	}
	return 0;
#endif
}

const struct xs_module xs_module_credit2 = {
	.file = "credit2",
	.def = &sched_credit2_def,
	.apply_params = credit2_apply_params,
};
