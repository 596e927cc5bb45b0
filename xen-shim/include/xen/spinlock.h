/*
 * Locks as assertions: taking a held lock, or releasing a free one, is a
 * bug the shim reports (on one thread it would be a deadlock in Xen).
 * spin_is_locked() answers truthfully, so Xen's own ASSERTs still check
 * that the glue takes the locks core.c takes.
 */
#ifndef XEN_SHIM_SPINLOCK_H
#define XEN_SHIM_SPINLOCK_H

#include <xen/lib.h>

typedef struct { int held; } spinlock_t;
typedef struct { int readers, writer; } rwlock_t;

#define SPIN_LOCK_UNLOCKED { 0 }
#define DEFINE_SPINLOCK(l) spinlock_t l = SPIN_LOCK_UNLOCKED
#define spin_lock_init(l) ((l)->held = 0)
#define rwlock_init(l) ((l)->readers = (l)->writer = 0)
#define DEFINE_RWLOCK(l) rwlock_t l = { 0, 0 }

static inline void _spin_lock(spinlock_t *l)
{
	ASSERT(!l->held);
	l->held = 1;
}

static inline void spin_unlock(spinlock_t *l)
{
	ASSERT(l->held);
	l->held = 0;
}

static inline void _spin_lock_irq(spinlock_t *l)
{
	_spin_lock(l);
}

static inline unsigned long _spin_lock_irqsave(spinlock_t *l)
{
	_spin_lock(l);
	return 0;
}

static inline int spin_trylock(spinlock_t *l)
{
	if (l->held)
		return 0;
	l->held = 1;
	return 1;
}

#define spin_lock(l) _spin_lock(l)
#define spin_lock_irq(l) _spin_lock_irq(l)
#define spin_lock_irqsave(l, f) ((f) = _spin_lock_irqsave(l))
#define spin_unlock_irq(l) spin_unlock(l)
#define spin_unlock_irqrestore(l, f) ((void)(f), spin_unlock(l))
#define spin_is_locked(l) ((l)->held != 0)

static inline void read_lock(rwlock_t *l)
{
	ASSERT(!l->writer);
	l->readers++;
}

static inline void read_unlock(rwlock_t *l)
{
	ASSERT(l->readers > 0);
	l->readers--;
}

static inline int read_trylock(rwlock_t *l)
{
	if (l->writer)
		return 0;
	l->readers++;
	return 1;
}

static inline void write_lock(rwlock_t *l)
{
	ASSERT(!l->writer && !l->readers);
	l->writer = 1;
}

static inline void write_unlock(rwlock_t *l)
{
	ASSERT(l->writer);
	l->writer = 0;
}

#define read_lock_irqsave(l, f) ((f) = 0, read_lock(l))
#define read_unlock_irqrestore(l, f) ((void)(f), read_unlock(l))
#define write_lock_irqsave(l, f) ((f) = 0, write_lock(l))
#define write_unlock_irqrestore(l, f) ((void)(f), write_unlock(l))
#define write_lock_irq(l) write_lock(l)
#define write_unlock_irq(l) write_unlock(l)
#define rw_is_locked(l) ((l)->writer || (l)->readers)
#define rw_is_write_locked(l) ((l)->writer != 0)

#endif
