/*
 * The interface of a scheduler module built outside schedsim's tree and
 * loaded at run time (--sched=./mysched.so, doc/modules.md): the one
 * header a module includes.  It brings what the built-in schedulers use
 * (the ops table of sim/engine/scheduler.h, the machine of sim/engine/sim.h,
 * cpumasks, Xen's list, the affinity helpers, param_def, the trace points,
 * allocation), installed under $(includedir)/schedsim; `pkg-config
 * --cflags schedsim` names that folder.
 *
 * A module fills a struct sched_ops as a built-in scheduler does and ends
 * with SCHEDSIM_MODULE(its_ops).  That defines the two symbols the loader
 * (schedulers/loader.c) looks up: schedsim_module_abi, the ABI version the
 * module was built for, read first and refused unless it is this
 * schedsim's; then schedsim_module, the ops table and the sizes of the
 * structures the module shares with the simulator, as its compiler saw
 * them, so that a module built against other headers is refused by name
 * rather than run on a misread layout.
 *
 * SCHEDSIM_MODULE_ABI goes up whenever a change to these headers means a
 * module built before would misbehave: a member of a shared struct added,
 * moved or retyped, a hook's signature or meaning changed, a function the
 * headers declare removed.
 */
#ifndef SCHEDSIM_MODULE_H
#define SCHEDSIM_MODULE_H

#include <stddef.h>

#include "schedulers/list.h"
#include "schedulers/sched.h"
#include "sim/engine/scheduler.h"
#include "sim/engine/sim.h"
#include "sim/engine/trace_events.h"
#include "sim/params.h"
#include "sim/xalloc.h"

#define SCHEDSIM_MODULE_ABI 2       /* 2: struct domain's kernel and llc (guest_kernel.h) */

/* What a module exports beside its ABI version (schedsim_module). */
struct schedsim_module {
	const struct sched_ops *ops;
	/* sizeof of the shared structures as the module was compiled */
	size_t sched_ops_size, scheduler_size, sim_size, vcpu_size, domain_size,
	       pcpu_size, cpupool_size, param_def_size;
};

#define SCHEDSIM_MODULE_SIZES \
	sizeof(struct sched_ops), sizeof(struct scheduler), sizeof(struct sim), \
	sizeof(struct vcpu), sizeof(struct domain), sizeof(struct pcpu), \
	sizeof(struct cpupool), sizeof(struct param_def)

/* Ends a module's file: exports ops (a const struct sched_ops) to the loader. */
#define SCHEDSIM_MODULE(ops) \
	extern const unsigned schedsim_module_abi; \
	extern const struct schedsim_module schedsim_module; \
	const unsigned schedsim_module_abi = SCHEDSIM_MODULE_ABI; \
	const struct schedsim_module schedsim_module = { &(ops), SCHEDSIM_MODULE_SIZES }

#endif
