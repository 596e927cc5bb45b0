/*
 * Xen guest_access.h: the toolstack's arrays (RTDS putvcpuinfo, the
 * ARINC 653 schedule) are plain pointers of the simulator's side, so a
 * copy never faults.
 */
#ifndef XEN_SHIM_GUEST_ACCESS_H
#define XEN_SHIM_GUEST_ACCESS_H

#include <string.h>

#define copy_from_guest_offset(dst, hnd, off, nr) \
	(memcpy((dst), (hnd).p + (off), (nr) * sizeof(*(dst))), 0)
#define copy_to_guest_offset(hnd, off, src, nr) \
	(memcpy((hnd).p + (off), (src), (nr) * sizeof(*(src))), 0)
#define copy_from_guest(dst, hnd, nr) copy_from_guest_offset(dst, hnd, 0, nr)
#define copy_to_guest(hnd, src, nr) copy_to_guest_offset(hnd, 0, src, nr)
/* The toolstack's calls are never preempted here. */
#define hypercall_preempt_check() 0

#endif
