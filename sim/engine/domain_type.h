/*
 * The kind of domain a guest kernel runs in: xl.cfg(5)'s type= (and the
 * deprecated builder=), or <domain type="..."> in a scenario.
 *
 *  - pv: a 64-bit paravirtualised kernel.  It runs deprivileged beside its
 *    user space, so its entries (system calls, faults) come through Xen and
 *    its page-table updates are hypercalls Xen validates.  x86 dom0 of the
 *    Xen releases modelled is PV, and xl.cfg(5) makes pv the default type.
 *  - pvh, hvm: hardware virtualisation (VT-x with EPT): the kernel's
 *    entries and page tables stay inside the guest.
 *  - native: no hypervisor at all, the bare-metal rows of a benchmark
 *    (the domain's vCPUs are the host's CPUs 1:1, sim/experiment/build.c).
 *
 * What a type costs the guest kernel's operations is workloads/kernel_ops.h's
 * business, in one table; the engine only carries the type (and charges a
 * native domain no hypervisor context switch, sim/engine/core.c).
 */
#ifndef SCHEDSIM_DOMAIN_TYPE_H
#define SCHEDSIM_DOMAIN_TYPE_H

#include <string.h>

enum domain_type {
	DOMAIN_TYPE_DEFAULT = 0,   /* not given: sim_build makes it DOMAIN_PV */
	DOMAIN_PV,
	DOMAIN_PVH,
	DOMAIN_HVM,
	DOMAIN_NATIVE,
	DOMAIN_TYPE_N
};

/* "pv", "pvh", "hvm", "native" ("default" for DOMAIN_TYPE_DEFAULT). */
static inline const char *domain_type_name(enum domain_type t)
{
	static const char *const names[DOMAIN_TYPE_N] = { "default", "pv", "pvh", "hvm",
							  "native" };

	return t >= 0 && t < DOMAIN_TYPE_N ? names[t] : "?";
}

/* The type named 'text' (not "default"); -1 when it names none. */
static inline int domain_type_parse(const char *text, enum domain_type *out)
{
	for (int t = DOMAIN_PV; t < DOMAIN_TYPE_N; t++)
		if (!strcmp(text, domain_type_name((enum domain_type)t))) {
			*out = (enum domain_type)t;
			return 0;
		}
	return -1;
}

#endif
