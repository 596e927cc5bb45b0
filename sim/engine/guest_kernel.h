/*
 * What the guest kernel's task placement follows, and the cache topology
 * it sees: <domain kernel="4.4|5.1" llc="shared|vcpu"> in a scenario.
 * The engine only carries them; workloads/guest.c places tasks by them.
 *
 *  - kernel: the Linux release whose kernel/sched/fair.c decides where a
 *    woken or forked task goes.  "4.4" (the default: the dom0 and guest
 *    kernels of the 2016 host) is wake_affine's load test and
 *    select_idle_sibling's scan; forks are not placed (a task keeps its
 *    vCPU).  "5.1" (the 2019 core-scheduling evaluation's kernel 5.1.7)
 *    adds sync wake-ups (WF_SYNC: wake_affine_idle, wake_affine_weight),
 *    wake_wide, recent_used_cpu, places forked processes with
 *    find_idlest_cpu (SD_BALANCE_FORK), and lets steal time lower a
 *    CPU's capacity, so that an idle CPU pulls a task running alone on
 *    a vCPU Xen keeps waiting (update_irq_load_avg, need_active_balance).
 *  - llc: which vCPUs the guest believes share a last-level cache (Linux's
 *    cpu_llc_shared_mask, from CPUID leaf 4's "logical processors sharing
 *    this cache" field and the initial APIC IDs).  "shared" (the default):
 *    one LLC over all vCPUs, so select_idle_sibling may pick any idle
 *    vCPU.  "vcpu": each vCPU is its own LLC, as libxc's
 *    intel_xc_cpuid_policy of 2019 (tools/libxc/xc_cpuid_x86.c, leaf 4:
 *    EAX keeps bits 0-9 and the core count, clearing bits 14-25) makes an
 *    HVM guest see it; select_idle_sibling then never leaves its target.
 *    A PV guest of that Xen (dom0) gets leaf 1's initial APIC ID zeroed for
 *    every vCPU (xen/arch/x86/cpuid.c, guest_cpuid) and the host's leaf 4,
 *    so Linux puts all its vCPUs in one LLC: "shared".
 */
#ifndef SCHEDSIM_GUEST_KERNEL_H
#define SCHEDSIM_GUEST_KERNEL_H

#include <string.h>

enum guest_kernel { GUEST_KERNEL_4_4 = 0, GUEST_KERNEL_5_1, GUEST_KERNEL_N };
enum guest_llc { GUEST_LLC_SHARED = 0, GUEST_LLC_VCPU, GUEST_LLC_N };

static inline const char *guest_kernel_name(enum guest_kernel k)
{
	static const char *const names[GUEST_KERNEL_N] = { "4.4", "5.1" };

	return k >= 0 && k < GUEST_KERNEL_N ? names[k] : "?";
}

static inline const char *guest_llc_name(enum guest_llc l)
{
	static const char *const names[GUEST_LLC_N] = { "shared", "vcpu" };

	return l >= 0 && l < GUEST_LLC_N ? names[l] : "?";
}

/* The era or topology named 'text'; -1 when it names none. */
static inline int guest_kernel_parse(const char *text, enum guest_kernel *out)
{
	for (int k = 0; k < GUEST_KERNEL_N; k++)
		if (!strcmp(text, guest_kernel_name((enum guest_kernel)k))) {
			*out = (enum guest_kernel)k;
			return 0;
		}
	return -1;
}

static inline int guest_llc_parse(const char *text, enum guest_llc *out)
{
	for (int l = 0; l < GUEST_LLC_N; l++)
		if (!strcmp(text, guest_llc_name((enum guest_llc)l))) {
			*out = (enum guest_llc)l;
			return 0;
		}
	return -1;
}

#endif
