/* RCU as no-ops: nothing runs concurrently in the simulator. */
#ifndef XEN_SHIM_RCUPDATE_H
#define XEN_SHIM_RCUPDATE_H

struct rcu_head {
	void *next;
};
typedef struct { int unused; } rcu_read_lock_t;
#define DEFINE_RCU_READ_LOCK(x) rcu_read_lock_t x
#define rcu_read_lock(x) ((void)(x))
#define rcu_read_unlock(x) ((void)(x))
#define rcu_dereference(p) (p)
#define rcu_assign_pointer(p, v) ((p) = (v))

#endif
