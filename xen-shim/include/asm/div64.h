#ifndef XEN_SHIM_ASM_DIV64_H
#define XEN_SHIM_ASM_DIV64_H
#include <xen/types.h>
/* Divides n in place by base, returns the remainder (Linux/Xen semantics). */
#define do_div(n, base) ({ uint32_t b_ = (base); uint32_t r_ = (uint32_t)((uint64_t)(n) % b_); (n) = (uint64_t)(n) / b_; r_; })
#endif
