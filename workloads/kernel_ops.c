/*
 * The guest kernel's operations by domain type (see kernel_ops.h).  Only
 * 64-bit PV costs more than bare metal here; each PV figure is the work of
 * the path the operation takes through Xen 4.12/4.13 and Linux 5.1's
 * arch/x86/xen (the 2019 evaluation's), counted from the code and priced
 * with two primitives:
 *
 *   T_ENTER  an entry into the hypervisor and back without a page-table
 *            switch (SYSCALL / SYSRET and the dispatch): ~40 ns, gVisor's
 *            measured ring-0 sysenter (google/gvisor issue 2354, 2020);
 *   T_TOGGLE Xen's toggle_guest_mode (xen/arch/x86/pv/domain.c): the switch
 *            between the guest kernel's and the guest user's page tables on
 *            a bounce into the guest or an iret out of it.  With the 2019
 *            host's mitigations off dom0 has no XPTI (spec_ctrl.c: spec-ctrl=no
 *            clears opt_xpti_hwdom) and so no PCID (pv/domain.c: pcid=xpti,
 *            the default, gives PCID only to domains with XPTI), and the
 *            toggle is swapgs, the saved GS base and one plain CR3 write
 *            (_toggle_guest_pt: write_cr3, no CR4 flip); around it Xen
 *            writes the bounce frame on the guest's stack
 *            (create_bounce_frame) or reads the iret frame (do_iret).  A
 *            CR3 write costs "on the order of a hundred cycles" (Linux's
 *            Documentation/x86/pti.rst, Runtime Cost, a); with the rest,
 *            about 200 cycles: 60 ns at 3.3 GHz (the host's CPU is not
 *            published; the Xeon E3-1200 v6 or E-2100 class that
 *            doc/validation.md's stream section assumes runs at 3 to
 *            3.8 GHz), an order of 30 to 150 ns.  (It was 300 ns, gVisor's
 *            SwitchToUser of the same issue: a whole ring-3 round trip of
 *            Go code in a KVM guest, sysret and sysenter included, not a
 *            toggle; doc/validation.md, "The price of a PV system call".)
 *
 * What a toggle's CR3 write flushes: pv_make_cr4 sets CR4.PGE for a PV
 * domain without XPTI or PCID, and adjust_guest_l1e (xen/arch/x86/pv/mm.h)
 * makes every user mapping of a 64-bit PV guest global and no kernel one,
 * so the write drops the guest kernel's translations and keeps the user's
 * (and Xen's, global too).  The refill a workload declares per toggle
 * (tlb_refill_ns) is therefore the kernel's refill on its entry, counted
 * over the two toggles of a call as the workloads' calibrations were made
 * (each figure is half a refill per entry).  The context switch's
 * NEW_BASEPTR (new_guest_cr3 -> write_ptbase -> switch_cr3_cr4) flips
 * CR4.PGE and flushes the global entries too: its one T_TOGGLE stands for
 * those three control-register writes.
 *
 * HVM and PVH (VT-x with EPT): system calls, page faults, page-table
 * writes and CR3 loads do not leave the guest, so none of these costs
 * more than on bare metal (what EPT costs instead is longer TLB walks,
 * not per operation, and is not modelled).
 *
 * Wake-up exits (kernel_wake_cost).  What an HVM guest does leave the
 * guest for is a wake-up on another vCPU.  Linux 5.1 in an HVM guest of
 * Xen with the vector callback (XENFEAT_hvm_callback_vector, which Xen
 * 4.12/4.13 offers) sends its reschedule IPIs as event channels
 * (arch/x86/xen/smp_hvm.c: smp_send_reschedule = xen_smp_send_reschedule,
 * EVTCHNOP_send), and times its ticks with Xen's one-shot timer
 * (arch/x86/xen/time.c, xen_hvm_init_time_ops with
 * XENFEAT_hvm_safe_pvclock: VCPUOP_set_singleshot_timer), so neither an
 * x2APIC ICR write nor a TSC-deadline MSR write is on its path (which
 * APICv or posted interrupts would have spared: they would not spare
 * these).  Its idle loop halts (HLT exits: Xen's vmx_vmexit_handler
 * EXIT_REASON_HLT -> hvm_hlt -> SCHEDOP_block).  Per wake-up of a task
 * on another vCPU, when Linux sends the IPI (the CPU is idle, or the
 * woken task preempts its current one):
 *   - the waker: the hypercall, a VMCALL exit (WAKE_IPI_SEND);
 *   - the woken vCPU, running (WAKE_IPI_TAKE): the physical IPI by which
 *     Xen kicks it (vcpu_kick) exits it (EXIT_REASON_EXTERNAL_INTERRUPT)
 *     and the callback vector is injected on the way back;
 *   - the woken vCPU, halted (WAKE_HALT_TAKE): its wake is Xen's
 *     scheduler's (modelled by the engine), and it resumes by the entry
 *     back of the HLT exit it halted with (hvm_hlt blocked it inside that
 *     exit: vmx_do_resume, vmx_intr_assist injecting the callback vector,
 *     vmx_vmenter_helper, VMRESUME), then leaving the idle loop restarts
 *     the tick it stopped (tick_nohz_idle_exit: with no cpuidle driver in
 *     the guest the tick is always stopped), one set_singleshot_timer
 *     hypercall exit: T_VMENTRY + T_VMEXIT.
 * Linux sends no IPI to a CPU whose current task already has its
 * reschedule flag (resched_curr); the guest layer decides.  The halt's
 * exit half and the hypercall that stopped the tick are taken as the vCPU
 * goes idle, not on a wake-up's path, and are not charged (about
 * 1.5 x T_VMEXIT of pCPU time per idle period); neither is the handlers'
 * work (evtchn_send, vcpu_kick) nor the guest's event-channel upcall
 * (xen_evtchn_do_upcall and the reschedule handler), which a PV domain
 * does too.  A PV domain makes the same hypercalls through SYSCALL (T_ENTER)
 * and takes the event as an upcall bounce with its iret hypercall: not
 * charged either, an omission of some 0.1 to 0.5 us a wake-up that the
 * dom0 and 2016 calibrations were made with.
 *
 *   T_VMEXIT a VM exit and the entry back with Xen's dispatch: the
 *            hardware's round trip, about 500 cycles on Intel cores since
 *            Sandy Bridge (Agesen, Mattson, Rugina, Sheldon, "Software
 *            techniques for avoiding hardware virtualization exits",
 *            USENIX ATC 2012, figure 1), some 150 ns at the host's clock,
 *            and Xen's exit and entry path (vmx_asm_vmexit_handler, the
 *            VMREADs of vmx_vmexit_handler, vmx_intr_assist and
 *            vmx_vmenter_helper on the way back; no speculation
 *            mitigations, which the 2019 host ran without), an estimate of
 *            350 ns: 500 ns, order 0.3 to 1 us.
 *   T_VMENTRY the entry half of that round trip (the hardware's entry and
 *            Xen's entry path, vmx_intr_assist and vmx_vmenter_helper):
 *            half of T_VMEXIT, the same estimate split evenly.
 */
#include "workloads/kernel_ops.h"

#include <math.h>
#include <stdbool.h>

#define T_ENTER 40.0
#define T_TOGGLE 60.0
#define T_VMEXIT 500
#define T_VMENTRY (T_VMEXIT / 2)
/*
 * Xen validating one page-table entry (mod_l1_entry -> get_page_from_l1e:
 * the frame's owner and type count, a few memory references and an atomic
 * update; put_page_from_l1e when it is cleared): an estimate of that code's
 * work, 20 ns.
 */
#define T_VALIDATE 20.0
/*
 * A small process's page tables: 12 pages (VmPTE 44-48 kB of sh and grep,
 * /proc/PID/status, measured on Linux 6.1).  Pinning one (xen_pgd_pin,
 * arch/x86/xen/mmu_pv.c: made read-only through update_va_mapping in a
 * multicall, then MMUEXT_PIN_L4_TABLE, whose alloc_l1_table checks all
 * 512 entries and takes a reference on each present one, ~100) costs
 * 512 x 5 ns + 100 x T_VALIDATE; unpinning puts the references back.
 */
#define PT_PAGES 12.0
#define T_PIN_PAGE (512 * 5.0 + 100 * T_VALIDATE + T_ENTER)
#define T_UNPIN_PAGE (100 * T_VALIDATE + T_ENTER)

/* Page-table switches (toggle_guest_mode or NEW_BASEPTR) on each operation's PV path. */
static const double pv_toggles[KOP_N] = { 2, 2, 0, 0, 1 };

static const char *const op_names[KOP_N] = { "syscall", "page_fault", "fork", "exec", "ctxsw" };

/*
 * PV, per operation:
 *  - syscall: SYSCALL enters Xen (entry.S lstar_enter), which toggles to
 *    the guest kernel and bounces; the return is HYPERVISOR_iret (Linux's
 *    PV syscall exit uses the iret hypercall), which toggles back:
 *    2 T_TOGGLE + T_ENTER (the hypercall);
 *  - page_fault: #PF enters Xen (T_ENTER), is bounced to the guest kernel
 *    (T_TOGGLE); the new PTE is an mmu_update hypercall (xen_set_pte_at:
 *    T_ENTER + T_VALIDATE); the return is HYPERVISOR_iret (T_TOGGLE); the
 *    page's later unmap is validated too, in a batched multicall
 *    (T_VALIDATE);
 *  - fork: the child's page tables pinned (PT_PAGES x T_PIN_PAGE), and
 *    unpinned at its exit (PT_PAGES x T_UNPIN_PAGE);
 *  - exec: the old tables unpinned, the new ones pinned: the same sum;
 *  - ctxsw: xen_end_context_switch issues the batched multicall of the
 *    new stack (stack_switch), TLS (3 update_descriptor) and page tables
 *    (MMUEXT_NEW_BASEPTR and NEW_USER_BASEPTR, which flush the TLB):
 *    T_ENTER + 5 T_ENTER of Xen's work per entry + T_TOGGLE for the TLB.
 */
static double pv_cost(enum kernel_op op)
{
	switch (op) {
	case KOP_SYSCALL:
		return 2 * T_TOGGLE + T_ENTER;
	case KOP_PAGE_FAULT:
		return 2 * T_ENTER + 2 * T_TOGGLE + 2 * T_VALIDATE;
	case KOP_FORK:
	case KOP_EXEC:
		return PT_PAGES * (T_PIN_PAGE + T_UNPIN_PAGE);
	case KOP_CTXSW:
		return 6 * T_ENTER + T_TOGGLE;
	case KOP_N:
		break;
	}
	return 0;
}

const char *kernel_op_name(enum kernel_op op)
{
	return op >= 0 && op < KOP_N ? op_names[op] : "?";
}

double kernel_op_pv_toggles(enum kernel_op op)
{
	return op >= 0 && op < KOP_N ? pv_toggles[op] : 0;
}

static bool is_pv(enum domain_type t)
{
	return t == DOMAIN_PV || t == DOMAIN_TYPE_DEFAULT;
}

double kernel_op_cost_ns(enum domain_type t, enum kernel_op op)
{
	return is_pv(t) ? pv_cost(op) : 0;
}

/*
 * llround(x), without the library call for the sums below: for 0 <= x <
 * 2^62 the integer part i is exact as a double and x - i is exact (x's
 * fraction, or 0 once x is an integer), so the half-way test is exact
 * and rounds half away from zero as llround does.  Other x go to llround.
 */
static inline stime_t round_ns(double x)
{
	stime_t i;

	if (!(x >= 0 && x < 0x1p62))
		return (stime_t)llround(x);
	i = (stime_t)x;
	return x - (double)i >= 0.5 ? i + 1 : i;
}

/* n operations of one kind in a PV domain: their cost and their TLB refills, in ns. */
static inline double pv_ops_ns(enum kernel_op op, double n, double tlb_refill_ns)
{
	return n * (pv_cost(op) + pv_toggles[op] * tlb_refill_ns);
}

stime_t kernel_ops_cost(enum domain_type t, const struct kernel_ops *ops)
{
	double ns = 0;

	/* elsewhere every operation costs what it does on bare metal: 0 */
	if (!is_pv(t))
		return 0;
	for (int op = 0; op < KOP_N; op++)
		if (ops->n[op] > 0)
			ns += pv_ops_ns((enum kernel_op)op, ops->n[op], ops->tlb_refill_ns);
	return round_ns(ns);
}

/*
 * kernel_ops_cost of one kind of operation: the same sum, whose one term
 * is added to 0 (x itself, or +0 for -0: the same rounding).
 */
stime_t kernel_op_n_cost(enum domain_type t, enum kernel_op op, double n, double tlb_refill_ns)
{
	if (!is_pv(t) || !(n > 0))
		return 0;
	return round_ns(pv_ops_ns(op, n, tlb_refill_ns));
}

stime_t kernel_wake_cost(enum domain_type t, enum wake_side side)
{
	if (t != DOMAIN_HVM && t != DOMAIN_PVH)
		return 0;
	switch (side) {
	case WAKE_IPI_SEND:
	case WAKE_IPI_TAKE:
		return T_VMEXIT;
	case WAKE_HALT_TAKE:
		return T_VMENTRY + T_VMEXIT;
	case WAKE_SIDE_N:
		break;
	}
	return 0;
}

void kernel_ops_list(FILE *f)
{
	fputs("Domain types: what a guest kernel's operations cost beyond bare metal, ns "
	      "(<domain type=...>, xl's type=;\nworkloads that declare their operations add "
	      "it to their work: doc/workloads.md, \"Domain types\")\n", f);
	fprintf(f, "    %-12s", "");
	for (int t = DOMAIN_PV; t < DOMAIN_TYPE_N; t++)
		fprintf(f, "%10s", domain_type_name((enum domain_type)t));
	fputc('\n', f);
	for (int op = 0; op < KOP_N; op++) {
		fprintf(f, "    %-12s", op_names[op]);
		for (int t = DOMAIN_PV; t < DOMAIN_TYPE_N; t++)
			fprintf(f, "%10.0f", kernel_op_cost_ns((enum domain_type)t, (enum kernel_op)op));
		fputc('\n', f);
	}
	fputs("    source: pv: the paths through Xen 4.12/4.13 and Linux 5.1 arch/x86/xen priced "
	      "with gVisor's measured\n    ring transition (40 ns, google/gvisor#2354) and "
	      "Xen's page-table toggle without XPTI or PCID\n    (60 ns: a CR3 write, ~100 "
	      "cycles per Linux's pti.rst, and the bounce frame); hvm, pvh (EPT),\n    "
	      "native: none\n", f);
	fprintf(f, "    %-12s", "ipi_send");
	for (int t = DOMAIN_PV; t < DOMAIN_TYPE_N; t++)
		fprintf(f, "%10lld", (long long)kernel_wake_cost((enum domain_type)t, WAKE_IPI_SEND));
	fprintf(f, "\n    %-12s", "ipi_take");
	for (int t = DOMAIN_PV; t < DOMAIN_TYPE_N; t++)
		fprintf(f, "%10lld", (long long)kernel_wake_cost((enum domain_type)t, WAKE_IPI_TAKE));
	fprintf(f, "\n    %-12s", "halt_take");
	for (int t = DOMAIN_PV; t < DOMAIN_TYPE_N; t++)
		fprintf(f, "%10lld", (long long)kernel_wake_cost((enum domain_type)t, WAKE_HALT_TAKE));
	fputs("\n    source: a wake-up's reschedule IPI, charged by the guest layer: in hvm and "
	      "pvh one VM exit\n    each side (the event-channel hypercall; the kick), ~500 "
	      "cycles of hardware (Agesen\n    et al., USENIX ATC 2012) and Xen's exit path, "
	      "500 ns; a halted vCPU's wake the HLT\n    exit's entry back (half of one) and the "
	      "tick's restart; pv, native: not charged\n", f);
}
