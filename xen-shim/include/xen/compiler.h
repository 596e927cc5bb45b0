/* The GCC attributes and helpers Xen's code spells with its own names. */
#ifndef XEN_SHIM_COMPILER_H
#define XEN_SHIM_COMPILER_H

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define always_inline inline __attribute__((always_inline))
#define noinline __attribute__((noinline))
#define __init
#define __initdata
#define __exit
#define __read_mostly
#define __ro_after_init
#define __cacheline_aligned
#define __used __attribute__((used))
#define __used_section(s) __attribute__((used, section(s)))
#define __maybe_unused __attribute__((unused))
#define __packed __attribute__((packed))
#define __must_check __attribute__((warn_unused_result))
#define barrier() __asm__ __volatile__("" ::: "memory")
#define ACCESS_ONCE(x) (*(volatile __typeof__(x) *)&(x))
#define read_atomic(p) (*(const volatile __typeof__(*(p)) *)(p))
#define write_atomic(p, x) (*(volatile __typeof__(*(p)) *)(p) = (x))
#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)
#define count_args_(dot, a1, a2, a3, a4, a5, a6, a7, a8, x, ...) x
#define count_args(args...) \
	count_args_(., ## args, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define cf_check
#define nocall
#define __nonstring
#define fallthrough __attribute__((__fallthrough__))
#define attr_const __attribute__((__const__))
#define __must_be_array(a) \
	BUILD_BUG_ON_ZERO(__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])))
/* C23's type-inferring auto (Xen's macros.h uses it since 2024), before C23. */
#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 202311L
#define auto __auto_type
#endif

/* Kconfig options: IS_ENABLED(CONFIG_X) is 1 when CONFIG_X is defined as 1. */
#define CONFIG_HAS_FAST_MULTIPLY 1
#define CONFIG_NR_CPUS XS_NR_CPUS
/* Xen's default (2025 on optional): the sysctl scheduler ops, ARINC 653's putinfo. */
#define CONFIG_SYSCTL 1
#define XS_PLACEHOLDER_1 0,
#define xs_second_(ignored, val, ...) val
#define xs_enabled3_(junk) xs_second_(junk 1, 0, 0)
#define xs_enabled2_(value) xs_enabled3_(XS_PLACEHOLDER_##value)
#define IS_ENABLED(option) xs_enabled2_(option)

#define block_lock_speculation() ((void)0)
#define block_speculation() ((void)0)

#endif
