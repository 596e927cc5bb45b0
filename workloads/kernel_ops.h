/*
 * What the guest kernel's own operations cost in each kind of domain
 * (sim/engine/domain_type.h): the one place the domain type meets the
 * workloads.
 *
 * A workload's CPU costs are what its code takes on bare metal, the
 * kernel's share included (the calibrated work).  In a 64-bit PV domain
 * some of that kernel work leaves the guest: a system call enters Xen
 * first, which switches to the guest kernel's page tables and bounces it
 * there, and returns through the iret hypercall; a page fault does the
 * same, and the page-table entry it writes is a hypercall Xen validates;
 * fork and exec pin and unpin every page-table page of an address space
 * (Xen validates each); a context switch loads the stack, TLS and page
 * tables through one multicall.  HVM and PVH guests (VT-x with EPT) do all
 * of this inside the guest, as bare metal does.  kernel_ops_cost() is that
 * extra work: per operation, by domain type, each figure with its source in
 * kernel_ops.c and doc/workloads.md ("Domain types").
 *
 * A workload declares the operations of a step (struct kernel_ops: how
 * many page faults, system calls, forks, execs, context switches a compile
 * job or a message makes) and adds kernel_ops_cost(dom->type, &ops) to the
 * step's work:
 *
 *     struct kernel_ops ops = { { [KOP_SYSCALL] = 2, [KOP_CTXSW] = 1 } };
 *     task_run(s, t, work + kernel_ops_cost(w->dom->type, &ops));
 *
 * A 64-bit PV guest also loses TLB entries at each page-table switch:
 * with XPTI off Xen uses no PCID, and the guest kernel's mappings are never
 * global (Xen's adjust_guest_l1e makes the user's global, not the
 * kernel's), so each toggle drops the kernel's translations and the code
 * after the next entry walks them again.  How much that costs depends on
 * how many pages the code touches between two entries: the workload
 * declares it per toggle (tlb_refill_ns, half its refill per entry, as the
 * calibrations count it); kernel_ops_cost() multiplies it by the toggles
 * of each operation's path (kernel_ops.c says what each switch flushes).
 *
 * The extra work is work like any other: it runs at the vCPU's speed (SMT,
 * memory) and waits when Xen deschedules the vCPU.  make-xen and iperf
 * declare none (their costs were calibrated with their domains as they are).
 */
#ifndef SCHEDSIM_KERNEL_OPS_H
#define SCHEDSIM_KERNEL_OPS_H

#include <stdio.h>

#include "sim/engine/domain_type.h"
#include "sim/stime.h"

enum kernel_op {
	KOP_SYSCALL,      /* a system call: entry and return */
	KOP_PAGE_FAULT,   /* a page mapped on a fault (and unmapped later, at munmap or exit) */
	KOP_FORK,         /* fork() of a small process, and the child's exit */
	KOP_EXEC,         /* execve(): the old address space torn down, a new one built */
	KOP_CTXSW,        /* the guest kernel switches between two tasks */
	KOP_N
};

/*
 * How many of each operation a step makes (fractions allowed: a mean), and
 * what the step's code pays to refill its TLB after each switch of page
 * tables a PV entry makes (ns of work; 0: nothing declared).
 */
struct kernel_ops {
	double n[KOP_N];
	double tlb_refill_ns;
};

/* "syscall", "page_fault", "fork", "exec", "ctxsw". */
const char *kernel_op_name(enum kernel_op op);
/* The page-table switches on op's PV path, each paying tlb_refill_ns (0 to 2). */
double kernel_op_pv_toggles(enum kernel_op op);

/* One operation's work in a domain of type t beyond what it takes on bare metal, ns. */
double kernel_op_cost_ns(enum domain_type t, enum kernel_op op);

/* The work ops add in a domain of type t (ns at full speed, rounded). */
stime_t kernel_ops_cost(enum domain_type t, const struct kernel_ops *ops);

/* kernel_ops_cost of n operations of one kind, with tlb_refill_ns. */
stime_t kernel_op_n_cost(enum domain_type t, enum kernel_op op, double n, double tlb_refill_ns);

/*
 * The VM exits of a cross-CPU wake-up (kernel_ops.c, "Wake-up exits"): in
 * an HVM or PVH guest of Linux 5.1 on Xen 4.12/4.13 the reschedule IPI a
 * waker sends another vCPU is an event-channel hypercall (a VMCALL exit),
 * and the vCPU that takes it pays an exit too: the external interrupt that
 * kicks it out of the guest when it runs, or, when it was halted, the
 * entry back from its HLT exit and the hypercall that restarts its tick as
 * it leaves the idle loop.  A PV domain makes the same hypercalls through
 * SYSCALL (not charged: see kernel_ops.c); bare metal none.  The guest
 * layer (workloads/guest.c) decides when a wake-up sends an IPI and
 * charges these.
 */
enum wake_side {
	WAKE_IPI_SEND,      /* the waker: EVTCHNOP_send */
	WAKE_IPI_TAKE,      /* the woken CPU, running: its exit on the way in */
	WAKE_HALT_TAKE,     /* the woken CPU, halted: the HLT exit's entry, the tick's restart */
	WAKE_SIDE_N
};

/* One wake-up's extra work on side in a domain of type t, ns at full speed. */
stime_t kernel_wake_cost(enum domain_type t, enum wake_side side);

/* The table of kernel_op_cost_ns with its sources (--list-workloads). */
void kernel_ops_list(FILE *f);

#endif
