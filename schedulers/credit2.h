/*
 * Credit2's private data structures, shared between schedulers/credit2.c
 * and its unit tests (tests/check_credit2.c).  The tests build tiny hosts
 * by hand and call the decision functions directly, so the structures and
 * a table of the internal functions are visible here; nothing else in
 * schedsim should need this header.  The layout follows Xen's credit2.c:
 * one csched2_runqueue_data per runqueue, one csched2_pcpu per pCPU, one
 * csched2_unit per vCPU (sched-gran=cpu) and one csched2_dom per domain.
 */
#ifndef SCHEDSIM_CREDIT2_H
#define SCHEDSIM_CREDIT2_H

#include <stdbool.h>
#include <stdint.h>

#include "schedulers/sched.h"

/* Constants (Xen's CSCHED2_*), in nanoseconds of credit or time. */
#define CSCHED2_DEFAULT_WEIGHT       256
#define CSCHED2_MIN_TIMER            USEC(500)
#define CSCHED2_CREDIT_INIT          MSEC(10)
#define CSCHED2_CREDIT_MIN           (-CSCHED2_CREDIT_INIT)
#define CSCHED2_IDLE_CREDIT          (CSCHED2_CREDIT_MIN - 1)
#define CSCHED2_IDLE_CREDIT_2016     (-(1 << 30))
#define CSCHED2_CARRYOVER_MAX        CSCHED2_MIN_TIMER
#define CSCHED2_MIGRATE_COMPENSATION USEC(50)
#define CSCHED2_RATELIMIT_TICKLE_TOLERANCE USEC(50)
#define CSCHED2_CREDIT_RESET         0
#define LOADAVG_GRANULARITY_SHIFT    10

/* Flags of a csched2_unit (Xen's CSFLAG_*). */
#define CSFLAG_scheduled            (1u << 1)
#define CSFLAG_delayed_runq_add     (1u << 2)
#define CSFLAG_runq_migrate_request (1u << 3)
#define CSFLAG_unit_yield           (1u << 4)
#define CSFLAG_pinned               (1u << 5)

/* In the order of the trees (../shared/xen-src); comparisons are meaningful. */
enum csched2_era { ERA_2015, ERA_2016, ERA_2016_SOCKET, ERA_2016_P20, ERA_2016_P21, ERA_2016_FULL,
		   ERA_417, ERA_422, ERA_CURRENT };
enum csched2_rq_arrangement { OPT_RQ_AUTO, OPT_RQ_CPU, OPT_RQ_CORE, OPT_RQ_SOCKET,
			      OPT_RQ_NODE, OPT_RQ_ALL };
enum csched2_switch { SW_AUTO, SW_ON, SW_OFF };
enum csched2_tickle_mode { TICKLE_AUTO, TICKLE_SCORE, TICKLE_LOWEST };
enum csched2_reset_mode { RESET_AUTO, RESET_TOP, RESET_SKIPPED, RESET_SNEXT };

/* Filled from the param_def table by params_apply(); 'auto' follows era. */
struct csched2_config {
	int era;
	int runqueue;
	long long ratelimit_us;
	long long migrate_resist_us;
	long long max_cpus_runqueue;     /* 0: era default (16, none in 2016) */
	long long load_window_shift;     /* 0: era default (30, or 28 in 2015) */
	long long load_precision_shift;
	long long cap_period_ms;
	int soft_affinity;
	int tickle;
	int reset;
	long long max_timer_us;          /* 0: era default */
	int caps;
	int inflight;
	int smt_idle;
	int tickled_cpu, yield, migrate_kick, tickle_mark, reset_burn, pick_bias;
	int tickle_ratelimit, smt_rq_siblings, idle_first, load_continue;
	int hard_affinity, ratelimit, idle_no_timer, tickle_idle_first, insert_pick, load_2016;
	bool smt_power_savings;
};

/* A minimal intrusive doubly linked list, like Xen's list.h. */
struct c2_list {
	struct c2_list *prev, *next;
};

struct csched2_runqueue_data {
	int id;
	struct c2_list runq;        /* runnable units, by credit, highest first */
	/* runq's units in runq's order, for runq_insert's search (see there):
	 * runq_n of them from runq_v + runq_off, in runq_cap places */
	struct csched2_unit **runq_v;
	size_t runq_off, runq_n, runq_cap;
	struct c2_list svc;         /* every unit assigned to this runqueue */
	int refcnt, nr_cpus;
	int load;                   /* units queued or running */
	stime_t load_last_update;   /* in 1024 ns units */
	stime_t avgload, b_avgload; /* Q-format, load_precision_shift bits */
	struct cpumask *active, *smt_idle, *tickled, *idle;
	struct cpumask_words words;   /* active's words, which hold idle and smt_idle too */
	int max_weight;
	int pick_bias;
};

struct csched2_unit;

/*
 * balance_load's pull candidates by load: a distinct value of twice a
 * candidate's load, and the first candidate (in the runqueue's list order)
 * that has it.
 */
struct c2_swap_key {
	stime_t load2;
	size_t first;
};

struct csched2_pcpu {
	struct cpumask *sibling_mask;   /* SMT siblings in the same runqueue */
	struct csched2_runqueue_data *rqd;
	struct csched2_unit *idle_svc;  /* the idle vCPU's scheduler data */
};

struct csched2_dom;

/*
 * The fields runq_insert and runq_candidate read of every queued vCPU they
 * walk past come first, together (the queue's link, credit, tickled_cpu,
 * unit, budget: 40 bytes), so that a step of those walks touches one or two
 * cache lines rather than three; nothing else depends on the order.
 */
struct csched2_unit {
	struct c2_list runq_elem;
	int credit;
	int tickled_cpu;
	struct vcpu *unit;
	stime_t budget;                 /* STIME_MAX: not capped */
	struct csched2_dom *sdom;       /* NULL for idle vCPUs */
	struct csched2_runqueue_data *rqd;
	int weight;
	unsigned residual;
	unsigned flags;
	stime_t budget_quota;
	stime_t start_time;
	stime_t load_last_update;
	stime_t avgload;
	struct c2_list parked_elem, rqd_elem;
	struct csched2_runqueue_data *migrate_rqd;
	struct csched2_runqueue_data *runq_rqd;   /* whose runq holds it */
};

struct csched2_dom {
	struct domain *dom;
	struct scheduler *ops;
	stime_t tot_budget, budget;
	struct timer repl_timer;
	int repl_cpu;          /* pCPU the timer fires on (cpumask_any at creation) */
	stime_t next_repl;
	struct c2_list parked_units;
	int weight, cap, nr_units;
};

struct csched2_private {
	struct csched2_config cfg;      /* with every 'auto' resolved */
	struct sim *sim;
	int ratelimit_us;
	stime_t migrate_resist;
	stime_t max_timer;
	stime_t bdgt_repl_period;
	unsigned load_window_shift;     /* already minus LOADAVG_GRANULARITY_SHIFT */
	unsigned load_precision_shift;
	int max_cpus_runqueue;          /* INT_MAX when unlimited */
	int idle_credit;
	int reset;                      /* RESET_TOP, RESET_SKIPPED or RESET_SNEXT */
	bool soft_aff, caps, inflight, tickle_score, reset_top, smt_idle;
	/* The era switches, resolved (see the table at the top of credit2.c). */
	bool tickled_cpu, yield, migrate_kick, tickle_mark, reset_burn, pick_bias;
	bool tickle_ratelimit, smt_rq_siblings, idle_first, load_continue;
	bool hard_affinity, idle_no_timer, tickle_idle_first, insert_pick, load_2016;
	struct csched2_runqueue_data **rql;   /* by id */
	int nr_rqs;
	struct csched2_pcpu *pcpu;      /* per pCPU, NULL rqd until init_pdata */
	struct cpumask *initialized;
	struct cpumask *scratch, *scratch2, *scratch3;
	/* balance_load's pull candidates and their sorted loads (grown as needed) */
	struct csched2_unit **pulls;
	struct c2_swap_key *pull_keys;
	size_t pulls_cap;
};

/* The internal functions, for the unit tests (names as in Xen). */
struct credit2_internals {
	void (*t2c_update)(struct csched2_runqueue_data *rqd, stime_t time,
			   struct csched2_unit *svc, int credit_floor);
	stime_t (*c2t)(const struct csched2_runqueue_data *rqd, stime_t credit,
		       const struct csched2_unit *svc);
	void (*burn_credits)(struct scheduler *ops, struct csched2_runqueue_data *rqd,
			     struct csched2_unit *svc, stime_t now);
	void (*reset_credit)(struct scheduler *ops, int cpu, stime_t now,
			     struct csched2_unit *snext);
	void (*update_runq_load)(struct scheduler *ops, struct csched2_runqueue_data *rqd,
				 int change, stime_t now);
	void (*update_svc_load)(struct scheduler *ops, struct csched2_unit *svc,
				int change, stime_t now);
	void (*runq_insert)(struct scheduler *ops, struct csched2_unit *svc);
	void (*runq_remove)(struct csched2_unit *svc);
	void (*runq_tickle)(struct scheduler *ops, struct csched2_unit *new, stime_t now);
	stime_t (*tickle_score)(struct scheduler *ops, stime_t now,
				struct csched2_unit *new, int cpu);
	int (*res_pick)(struct scheduler *ops, struct vcpu *v);
	int (*get_fallback_cpu)(struct scheduler *ops, struct csched2_unit *svc);
	struct csched2_unit *(*runq_candidate)(struct scheduler *ops,
					       struct csched2_runqueue_data *rqd,
					       struct csched2_unit *scurr, int cpu,
					       stime_t now, int *skipped);
	stime_t (*runtime)(struct scheduler *ops, int cpu, struct csched2_unit *snext,
			   stime_t now, bool has_inflight, int inflight);
	void (*balance_load)(struct scheduler *ops, int cpu, stime_t now);
	void (*migrate)(struct scheduler *ops, struct csched2_unit *svc,
			struct csched2_runqueue_data *trqd, stime_t now);
	bool (*unit_grab_budget)(struct scheduler *ops, struct csched2_unit *svc);
	void (*replenish_domain_budget)(struct timer *t, void *data);
	struct csched2_unit *(*svc_of)(struct scheduler *ops, struct vcpu *v);
	bool (*unit_on_runq)(const struct csched2_unit *svc);
	size_t (*swap_keys_build)(struct c2_swap_key *keys, size_t n);
	bool (*best_swap)(const struct c2_swap_key *keys, size_t nk, stime_t base,
			  stime_t *delta, size_t *first);
	/* Moves svc's runqueue assignment (deassign + assign), for test setups. */
	void (*runq_move)(struct csched2_unit *svc, struct csched2_runqueue_data *rqd);
};

extern const struct sched_ops credit2_ops;
extern const struct credit2_internals credit2_internals;

static inline struct csched2_private *csched2_priv(const struct scheduler *ops)
{
	return ops->priv;
}

static inline struct csched2_runqueue_data *c2rqd(const struct scheduler *ops, int cpu)
{
	return csched2_priv(ops)->pcpu[cpu].rqd;
}

#endif
