/*
 * Xen's bit operations (xen/bitops.h and asm/bitops.h), in plain C, for
 * every tree: Xen's own header changed shape across releases (generic
 * C versions beside arch hooks in 2024) while what the scheduler files
 * and cpumask.h/bitmap.h call did not, so this one replaces them all.
 * The simulator runs Xen's code on one thread, so the atomic and
 * non-atomic forms are the same.  Bit n lives in 32-bit word n / 32 as
 * on x86, which also suits unsigned long bitmaps on a little-endian host.
 */
#ifndef XEN_SHIM_BITOPS_H
#define XEN_SHIM_BITOPS_H

#include <xen/types.h>

static inline uint32_t *xs_bitword(int nr, volatile void *addr)
{
	return (uint32_t *)addr + (nr >> 5);
}

static inline void set_bit(int nr, volatile void *addr)
{
	*xs_bitword(nr, addr) |= 1u << (nr & 31);
}

static inline void clear_bit(int nr, volatile void *addr)
{
	*xs_bitword(nr, addr) &= ~(1u << (nr & 31));
}

static inline void change_bit(int nr, volatile void *addr)
{
	*xs_bitword(nr, addr) ^= 1u << (nr & 31);
}

static inline int test_bit(int nr, const volatile void *addr)
{
	return (((const uint32_t *)addr)[nr >> 5] >> (nr & 31)) & 1;
}

static inline int test_and_set_bit(int nr, volatile void *addr)
{
	int old = test_bit(nr, addr);

	set_bit(nr, addr);
	return old;
}

static inline int test_and_clear_bit(int nr, volatile void *addr)
{
	int old = test_bit(nr, addr);

	clear_bit(nr, addr);
	return old;
}

static inline int test_and_change_bit(int nr, volatile void *addr)
{
	int old = test_bit(nr, addr);

	change_bit(nr, addr);
	return old;
}

#define __set_bit set_bit
#define __clear_bit clear_bit
#define __change_bit change_bit
#define __test_and_set_bit test_and_set_bit
#define __test_and_clear_bit test_and_clear_bit
#define __test_and_change_bit test_and_change_bit

unsigned int xs_find_next_bit(const unsigned long *addr, unsigned int size,
			      unsigned int off, bool zero);

#define find_next_bit(addr, size, off) \
	xs_find_next_bit((const unsigned long *)(addr), (size), (off), false)
#define find_next_zero_bit(addr, size, off) \
	xs_find_next_bit((const unsigned long *)(addr), (size), (off), true)
#define find_first_bit(addr, size) find_next_bit(addr, size, 0)
#define find_first_zero_bit(addr, size) find_next_zero_bit(addr, size, 0)

/* Not the C library's ffs/ffsl (strings.h). */
#define ffs xs_ffs
#define ffsl xs_ffsl
#define fls xs_fls
#define flsl xs_flsl

static inline int ffs(int x)
{
	return __builtin_ffs(x);
}

static inline int ffsl(unsigned long x)
{
	return __builtin_ffsl((long)x);
}

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int flsl(unsigned long x)
{
	return x ? 64 - __builtin_clzl(x) : 0;
}

static inline unsigned int __ffs(unsigned long x)
{
	return (unsigned int)__builtin_ctzl(x);
}

static inline unsigned long ffz(unsigned long x)
{
	return __ffs(~x);
}

#define hweight_long(x) ((unsigned int)__builtin_popcountl(x))
#define hweightl(x) hweight_long(x)
#define hweight64(x) ((unsigned int)__builtin_popcountll(x))
#define hweight32(x) ((unsigned int)__builtin_popcount(x))
#define hweight16(x) ((unsigned int)__builtin_popcount((x) & 0xffff))
#define hweight8(x) ((unsigned int)__builtin_popcount((x) & 0xff))

#define GENMASK(h, l) ((~0UL << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)

#endif
