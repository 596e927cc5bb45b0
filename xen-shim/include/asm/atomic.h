/* atomic_t without atomics: the simulator is single-threaded. */
#ifndef XEN_SHIM_ASM_ATOMIC_H
#define XEN_SHIM_ASM_ATOMIC_H

typedef struct { int counter; } atomic_t;

#define ATOMIC_INIT(i) { (i) }
#define atomic_read(v) ((v)->counter)
#define _atomic_read(v) ((v).counter)
#define atomic_set(v, i) ((v)->counter = (i))
#define _atomic_set(v, i) ((v)->counter = (i))
#define atomic_inc(v) ((void)((v)->counter++))
#define atomic_dec(v) ((void)((v)->counter--))
#define atomic_add(i, v) ((void)((v)->counter += (i)))
#define atomic_sub(i, v) ((void)((v)->counter -= (i)))
#define atomic_inc_return(v) (++(v)->counter)
#define atomic_dec_return(v) (--(v)->counter)
#define atomic_dec_and_test(v) (--(v)->counter == 0)
#define atomic_inc_and_test(v) (++(v)->counter == 0)
#define cmpxchg(p, o, n) ({ __typeof__(*(p)) o_ = (o); if (*(p) == o_) *(p) = (n); else o_ = *(p); o_; })
#define xchg(p, n) ({ __typeof__(*(p)) x_ = *(p); *(p) = (n); x_; })

#endif
