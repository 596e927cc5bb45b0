/*
 * Credit1: a model of Xen's credit scheduler (xen/common/sched/credit.c),
 * kept close enough to that file, function by function, that a reader can
 * hold both side by side and port a patch by hand.
 *
 * The algorithm
 * -------------
 * Every pCPU has its own run queue, sorted by priority: BOOST (0), UNDER
 * (-1), OVER (-2) and IDLE (-64), FIFO among equals.  The pCPU's idle vCPU
 * sits at the tail whenever it is not running, so the head of the queue is
 * always what the pCPU should run next.
 *
 * Credits.  A vCPU burns 10 credits per ms it runs (1 credit = 100 us);
 * burn_credits() charges whole credits and carries the sub-credit
 * remainder in 'residual', so nothing is lost across descheduling.  Every
 * timeslice (30 ms) the master pCPU runs csched_acct(): 300 credits per pCPU
 * are shared among the *active* vCPUs in proportion to their domain's
 * weight, each domain getting at most what would run all its active vCPUs
 * for a whole timeslice (more when the system is in debt), further limited
 * by its cap.  A vCPU left with credit < 0 becomes OVER, otherwise UNDER.
 * Credit never drops below -300 (the floor); a vCPU whose credit climbs
 * above 300 has been idling, so it leaves the active list (it stops
 * earning) with its credit halved.  A vCPU rejoins the active list when a
 * tick (every 10 ms) finds it running.
 *
 * Caps.  When a capped domain's vCPU falls below minus its per-vCPU cap
 * share at accounting, it is parked (paused); a later accounting that
 * brings it back to credit >= 0 unparks it, without BOOST (with BOOST in
 * the 2016 code, see unpark_boost).
 *
 * BOOST.  A vCPU that wakes from a block while UNDER gets BOOST and so
 * preempts CPU hogs; the next tick that finds it running drops it back to
 * UNDER, so only vCPUs that run briefly and block stay boosted.
 *
 * Tickling.  On wake, __runq_tickle() decides which pCPUs to interrupt:
 * the vCPU's own pCPU if it is idle (or if no pCPU is idle and the woken
 * vCPU beats the running one), else idle pCPUs inside its soft affinity,
 * then inside its hard affinity (one of them, round robin, or all with
 * tickle_one_idle_cpu=off).
 *
 * Placement.  _csched_cpu_pick() chooses a pCPU for a vCPU, soft affinity
 * first, preferring an idle pCPU with the most idle neighbours: idle SMT
 * siblings within a socket, idle threads of the whole socket across
 * sockets (where a move needs twice as many).  It is used when a vCPU is
 * placed or migrated and at every tick for the running vCPU, which is then
 * migrated if a "more idle" pCPU exists.
 *
 * Scheduling.  csched_schedule() charges the running vCPU, keeps it if it
 * has run less than the ratelimit (1 ms) and is not yielding, else puts it
 * back in the queue and takes the head.  When the head is OVER or IDLE, it
 * first tries to steal strictly better work from the queues of busy pCPUs
 * (csched_load_balance / csched_runq_steal), node by node, soft affinity
 * first, skipping cache-hot vCPUs when vcpu_migration_delay_us is set.
 *
 * Eras
 * ----
 * era= names the Xen tree whose credit.c (sched_credit.c before 2020) the
 * model follows; ../shared/xen-src holds each of them:
 *
 *   2015-kick-bug  tree 2015-11-credit1-kick-bug (957af2e22c, Nov 2015)
 *   2015           tree 2015-11-credit1-kick-fixed (f02a5760c7, Nov 2015)
 *   2016-pre       tree 2016-09-before-series (c496f489f0, Sep 2016)
 *   2016           tree 2016-11-runq-socket (3a782c7603, Nov 2016): the
 *                  Credit1 of the 2016 series' table, = RELEASE-4.8.0
 *   2017           trees 2017-08-credit2-* (their credit1 is one file)
 *   4.17           tree 4.17.5 (Debian 12)
 *   4.22, current  trees 4.22.0 and master-2026-08 (the same credit.c)
 *
 * Each behaviour that changed between them is a switch named after what
 * changed, 'era' (the default) taking the era's value, with the commit:
 *
 *   tickle_kick           always|cur|new: when a woken vCPU preempts cur
 *                         and finds no idler, cur is asked to migrate
 *                         (VPF_MIGRATING): always before f02a5760c7 (Nov
 *                         2015); only if cur's hard affinity holds an
 *                         idler after it; since 8a04eaa8ea (Sep 2019, the
 *                         unit rename) the test reads new's affinity,
 *                         which never holds one there: no kick at all.
 *   migrate_boost         on before 66c7449a4d (Feb 2016): the wake that
 *                         ends a migration BOOSTs the vCPU like any wake.
 *   insert_pick           off before 9f358ddd69 (Jul 2016): a new vCPU is
 *                         queued on the pCPU it was created on, with no
 *                         res_pick.
 *   tickle_suitable       off before f83fc393b2 (Sep 2016): the idler
 *                         tickled is any idle pCPU of the pool, not one of
 *                         those the woken vCPU may run on.
 *   ratelimit_remaining   off before 0053127890 (Sep 2016): a ratelimited
 *                         vCPU gets a whole ratelimit_us more, not the rest.
 *   ratelimit_yield       on before 9fdd2f3c9c (Sep 2016): the ratelimit
 *                         holds a yielding vCPU too.
 *   tickle_clear_idlers   on from 47d5292995 (Apr 2017): tickled pCPUs
 *                         leave the idlers mask at once.
 *   lb_skip_single        on from 341450eaf7 (Apr 2017): stealing skips
 *                         peers with at most one runnable vCPU.
 *   lb_balance_bias       on from 89216c7999 (Apr 2017): stealing starts
 *                         after the peer last stolen from in the node.
 *   unpark_boost          on before 5c8c0ae7c4 (May 2019): an unparked
 *                         capped vCPU is BOOSTed by the wake.
 *   yield_no_steal        on from e282067cf2 (Jun 2023): YIELD stays set
 *                         while the vCPU is queued and stealing skips it.
 *   lb_ratelimit          on from 58feb9e0ac (Sep 2023): at most one steal
 *                         attempt per load_balance_ratelimit_us per pCPU.
 *
 * What else differs between those files changes no decision the
 * simulator can reach (doc/xen-shim.md lists it): locking, cpupools,
 * the fast path of __runq_tickle for a vCPU pinned to an idle pCPU
 * (b37b61d178, 2018: kept in every era, it tickles the pCPU the older code
 * tickles too, as that pCPU runs its idle vCPU),
 * statistics and tracing, where the cache-hot time is read (the core's
 * last_run_time before 608639ffa0, this file's last_sched_time after: the
 * same instant for every queued vCPU).
 *
 * The tick of an idle pCPU: since 969f58bde2 (Oct 2019) csched_schedule
 * stops it when the pCPU goes idle and restarts it, on a tick boundary,
 * when it leaves idle; before, the idle driver did the same through
 * sched_tick_suspend/resume, but only when it entered a C-state (on a
 * host whose idle loop only halts the tick ran on).  tick_suspend (on in
 * every era) chooses.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedulers/sched.h"
#include "sim/engine/trace_events.h"
#include "sim/xalloc.h"

/*
 * Trace points (sim/engine/trace_events.h): without --trace each costs one test of
 * s->tracer, marked unlikely so that the record's arguments are not
 * worked out ahead of it.
 */
#define TRACING(s) __builtin_expect((s)->tracer != NULL, 0)

/* Basic constants (Xen's names). */
#define CSCHED_DEFAULT_WEIGHT     256
#define CSCHED_TICKS_PER_TSLICE   3
#define CSCHED_DEFAULT_TSLICE_MS  30
#define CSCHED_CREDITS_PER_MSEC   10
/*
 * Xen sets this to XEN_SYSCTL_SCHED_RATELIMIT_MIN (100) and compares it
 * with nanoseconds, so it is 100 ns, not the 100 us that was meant.
 */
#define CSCHED_MIN_TIMER          NSEC(100)
#define SCHED_RATELIMIT_MIN_US    100
#define SCHED_RATELIMIT_MAX_US    500000

/* Priorities. */
#define CSCHED_PRI_TS_BOOST   0
#define CSCHED_PRI_TS_UNDER  -1
#define CSCHED_PRI_TS_OVER   -2
#define CSCHED_PRI_IDLE     -64

/* svc->flags */
#define CSCHED_FLAG_UNIT_PARKED    (1u << 0)  /* over its cap, paused */
#define CSCHED_FLAG_UNIT_YIELD     (1u << 1)
#define CSCHED_FLAG_UNIT_MIGRATING (1u << 2)  /* placed by res_pick: no BOOST on wake */
#define CSCHED_FLAG_UNIT_PINNED    (1u << 3)  /* hard affinity is one pCPU */

/* In the order of the trees; comparisons between them are meaningful. */
enum { ERA_2015_KICK_BUG, ERA_2015, ERA_2016_PRE, ERA_2016, ERA_2017, ERA_4_17, ERA_4_22,
       ERA_CURRENT };
enum { SW_ERA, SW_ON, SW_OFF };
enum { KICK_ERA, KICK_ALWAYS, KICK_CUR, KICK_NEW };

struct csched_config {
	long long tslice_ms, ratelimit_us, vcpu_migration_delay_us;
	long long load_balance_ratelimit_us;
	bool tickle_one_idle_cpu, soft_affinity;
	int era;
	int tickle_kick, migrate_boost, insert_pick, tickle_suitable;
	int ratelimit_remaining, ratelimit_yield;
	int tickle_clear_idlers, lb_skip_single, lb_balance_bias;
	int unpark_boost, yield_no_steal, lb_ratelimit, tick_suspend;
};

/* A circular doubly-linked list, for run queues and active lists. */
struct clist {
	struct clist *next, *prev;
};

#define clist_entry(p, type, member) \
	((type *)((char *)(p) - offsetof(type, member)))

static void clist_init(struct clist *l)
{
	l->next = l->prev = l;
}

static bool clist_empty(const struct clist *l)
{
	return l->next == l;
}

/* Links n just before pos (at the tail when pos is the head). */
static void clist_add_before(struct clist *n, struct clist *pos)
{
	n->prev = pos->prev;
	n->next = pos;
	pos->prev->next = n;
	pos->prev = n;
}

/* Links n just after pos (at the front when pos is the head). */
static void clist_add_after(struct clist *n, struct clist *pos)
{
	clist_add_before(n, pos->next);
}

static void clist_del_init(struct clist *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	clist_init(n);
}

struct csched_private;

struct csched_pcpu {
	struct clist runq;
	unsigned runq_sort_last;
	int idle_bias;
	unsigned nr_runnable;          /* non-idle vCPUs queued or running here */
	stime_t last_load_balance;
	unsigned tick;
	struct timer ticker;
	int cpu;
	struct csched_private *prv;
	/*
	 * Per node n: the queued vCPUs with a useful soft affinity whose
	 * soft ∩ hard has a pCPU of node n (their soft_nodes), the only ones a
	 * soft-affinity step of a pCPU of node n can take.
	 */
	unsigned nr_soft[];
};

struct csched_dom;

struct csched_unit {
	struct clist runq_elem;
	struct clist active_unit_elem;
	struct csched_dom *sdom;       /* NULL for idle vCPUs */
	struct vcpu *vcpu;
	stime_t start_time;            /* absolute while running, an offset otherwise */
	unsigned flags;
	int pri;
	int credit;
	unsigned residual;             /* sub-credit remainder, in ns*10 */
	stime_t last_sched_time;
	bool soft_counted;             /* queued and counted in its pCPU's nr_soft */
	/*
	 * The nodes holding a pCPU of its soft ∩ hard (the steal's soft step
	 * can move it only there), worked out when its affinity is set.
	 */
	int nr_soft_nodes;
	int *soft_nodes;
};

struct csched_dom {
	struct clist active_unit;
	struct clist active_sdom_elem;
	struct domain *dom;
	uint16_t active_unit_count;
	uint16_t weight;
	uint16_t cap;
};

/* The era's behaviours, resolved from the switches. */
struct csched_behaviour {
	int kick;                      /* KICK_ALWAYS, KICK_CUR or KICK_NEW */
	bool migrate_boost, insert_pick, tickle_suitable;
	bool ratelimit_remaining, ratelimit_yield;
	bool clear_idlers, lb_skip_single, lb_balance_bias;
	bool unpark_boost, yield_no_steal, lb_ratelimit, tick_suspend;
	bool tickle_one_idle, soft_affinity;
};

struct csched_private {
	struct sim *sim;
	struct cpumask *idlers;
	struct cpumask *cpus;
	const struct cpumask *res_valid;   /* its pool's (Xen's c->res_valid) */
	int *balance_bias;             /* per node */
	/*
	 * Xen's DEFINE_PER_CPU last_tickle_cpu: per thread, not per resource
	 * (with sched-gran > cpu each thread that tickles cycles its own).
	 */
	int *last_tickle_cpu;
	unsigned runq_sort;
	unsigned ncpus;
	unsigned tick_period_us, ticks_per_tslice;
	stime_t ratelimit, tslice, unit_migr_delay, load_balance_ratelimit;
	struct clist active_sdom;
	uint32_t weight;
	uint32_t credit;
	int credit_balance;
	unsigned credits_per_tslice;
	int master;
	struct timer master_ticker;
	struct csched_behaviour b;
	/* Scratch masks, one set per function so that calls can nest. */
	struct cpumask *t_mask, *t_idle, *t_scratch;
	struct cpumask *p_cpus, *p_idlers, *p_nxt_idlers;
	struct cpumask *lb_workers, *lb_visit;
	/*
	 * pCPUs whose runqueue head is a non-idle vCPU (waiting_work) and an
	 * UNDER or BOOST one (waiting_under): what the head's priority says
	 * of each queue, kept up to date as heads change, so that the
	 * work-stealing scan visits only the peers that can have better work
	 * (csched_load_balance).  Bookkeeping of the model; Xen reads each
	 * peer's queue.
	 */
	struct cpumask *waiting_work, *waiting_under;
	/*
	 * Per node n, the pCPUs with nr_soft[n] > 0: the only ones a
	 * soft-affinity step of a pCPU of node n can steal from.
	 */
	struct cpumask **waiting_soft;
	int nr_nodes;                  /* entries of waiting_soft and nr_soft[] */
};

#define CSCHED_PRIV(sch)      ((struct csched_private *)(sch)->priv)
#define CSCHED_UNIT(v)        ((struct csched_unit *)(v)->sched_priv)
#define CSCHED_DOM(d)         ((struct csched_dom *)(d)->sched_priv)

static inline struct csched_pcpu *CSCHED_PCPU(const struct csched_private *prv, int cpu)
{
	return prv->sim->pcpus[cpu].sched_priv;
}

static inline struct csched_unit *__runq_elem(struct clist *elem)
{
	return clist_entry(elem, struct csched_unit, runq_elem);
}

static inline bool __unit_on_runq(const struct csched_unit *svc)
{
	return !clist_empty(&svc->runq_elem);
}

/* Xen's smp_processor_id(), falling back to v's pCPU outside pCPU context. */
static inline int this_cpu_or(const struct csched_private *prv, const struct vcpu *v)
{
	return prv->sim->this_cpu >= 0 ? prv->sim->this_cpu : v->processor;
}

/* soft_affinity=off makes every vCPU look as if it had none. */
static inline bool csched_has_soft(const struct csched_private *prv, const struct vcpu *v)
{
	return prv->b.soft_affinity && has_soft_affinity(prv->sim, v);
}

/* Nobody but (maybe) the idle vCPU waits on cpu. */
static bool is_runq_idle(const struct csched_private *prv, int cpu)
{
	struct csched_pcpu *spc = CSCHED_PCPU(prv, cpu);

	return clist_empty(&spc->runq) || is_idle_vcpu(__runq_elem(spc->runq.next)->vcpu);
}

static void inc_nr_runnable(struct csched_private *prv, int cpu)
{
	CSCHED_PCPU(prv, cpu)->nr_runnable++;
}

static void dec_nr_runnable(struct csched_private *prv, int cpu)
{
	struct csched_pcpu *spc = CSCHED_PCPU(prv, cpu);

	if (spc->nr_runnable > 0)
		spc->nr_runnable--;
}

/* cpu's queue has a new head, or its head a new priority: waiting_* follow. */
static void runq_head_update(struct csched_private *prv, int cpu)
{
	const struct clist *runq = &CSCHED_PCPU(prv, cpu)->runq;
	int pri = clist_empty(runq) ? CSCHED_PRI_IDLE : __runq_elem(runq->next)->pri;

	if (pri > CSCHED_PRI_IDLE)
		cpumask_set(prv->waiting_work, (unsigned)cpu);
	else
		cpumask_clear_cpu(prv->waiting_work, (unsigned)cpu);
	if (pri > CSCHED_PRI_TS_OVER)
		cpumask_set(prv->waiting_under, (unsigned)cpu);
	else
		cpumask_clear_cpu(prv->waiting_under, (unsigned)cpu);
}

/* svc joins (+1) or leaves (-1) the soft-affine vCPUs queued on cpu, under each of its nodes. */
static void runq_soft_count(struct csched_private *prv, struct csched_unit *svc, int cpu,
			    int change)
{
	struct csched_pcpu *spc = CSCHED_PCPU(prv, cpu);

	svc->soft_counted = change > 0;
	for (int i = 0; i < svc->nr_soft_nodes; i++) {
		int node = svc->soft_nodes[i];

		spc->nr_soft[node] = (unsigned)((int)spc->nr_soft[node] + change);
		if (spc->nr_soft[node])
			cpumask_set(prv->waiting_soft[node], (unsigned)cpu);
		else
			cpumask_clear_cpu(prv->waiting_soft[node], (unsigned)cpu);
	}
}

/* svc's soft_nodes from its vCPU's affinities (none without a useful soft affinity). */
static void soft_nodes_update(const struct csched_private *prv, struct csched_unit *svc)
{
	const struct vcpu *v = svc->vcpu;
	const struct topology *t = &prv->sim->topo;

	svc->nr_soft_nodes = 0;
	if (!v->hard || !v->soft || !v->soft_aff_effective)
		return;
	for (int node = 0; node < t->nr_nodes; node++)
		if (cpumask_intersects3_words(v->soft, v->hard, t->node_mask[node],
					      t->node_words[node]))
			svc->soft_nodes[svc->nr_soft_nodes++] = node;
}

/*
 * Before the first element of lower priority: FIFO among equals.  A
 * yielding vCPU goes one further back, behind one lower-priority vCPU, but
 * never behind the idle vCPU.
 */
static void __runq_insert(struct csched_private *prv, struct csched_unit *svc)
{
	int cpu = svc->vcpu->processor;
	struct clist *runq = &CSCHED_PCPU(prv, cpu)->runq;
	struct clist *iter;

	for (iter = runq->next; iter != runq; iter = iter->next)
		if (svc->pri > __runq_elem(iter)->pri)
			break;
	if ((svc->flags & CSCHED_FLAG_UNIT_YIELD) && iter != runq &&
	    __runq_elem(iter)->pri > CSCHED_PRI_IDLE)
		iter = iter->next;
	clist_add_before(&svc->runq_elem, iter);
	if (runq->next == &svc->runq_elem)
		runq_head_update(prv, cpu);
	if (csched_has_soft(prv, svc->vcpu))
		runq_soft_count(prv, svc, cpu, 1);
}

static void runq_insert(struct csched_private *prv, struct csched_unit *svc)
{
	__runq_insert(prv, svc);
	inc_nr_runnable(prv, svc->vcpu->processor);
}

/*
 * Leaving the queue ends a yield (e282067cf2; before it the flag was
 * already cleared when the yielder was queued, so this changes nothing).
 */
static void __runq_remove(struct csched_private *prv, struct csched_unit *svc)
{
	int cpu = svc->vcpu->processor;
	bool head = svc->runq_elem.prev == &CSCHED_PCPU(prv, cpu)->runq;

	clist_del_init(&svc->runq_elem);
	svc->flags &= ~CSCHED_FLAG_UNIT_YIELD;
	if (head)
		runq_head_update(prv, cpu);
	if (svc->soft_counted)
		runq_soft_count(prv, svc, cpu, -1);
}

static void runq_remove(struct csched_private *prv, struct csched_unit *svc)
{
	dec_nr_runnable(prv, svc->vcpu->processor);
	__runq_remove(prv, svc);
}

/*
 * Charges the time run since start_time in whole credits; the remainder
 * stays in residual and start_time only advances by what was charged.
 */
static void burn_credits(struct csched_unit *svc, stime_t now)
{
	stime_t delta = now - svc->start_time;
	uint64_t val;
	unsigned credits;

	if (delta <= 0)
		return;
	val = (uint64_t)delta * CSCHED_CREDITS_PER_MSEC + svc->residual;
	svc->residual = (unsigned)(val % (uint64_t)MSEC(1));
	credits = (unsigned)(val / (uint64_t)MSEC(1));
	svc->credit -= (int)credits;
	svc->start_time += (stime_t)credits * MSEC(1) / CSCHED_CREDITS_PER_MSEC;
}

/*
 * new was just queued on its pCPU: interrupt the pCPUs that should look at
 * it.  Prefer idle pCPUs (soft affinity first) to preempting the running
 * vCPU, which is likely cache-hot.
 */
static void __runq_tickle(struct csched_private *prv, struct csched_unit *new)
{
	struct sim *s = prv->sim;
	struct vcpu *v = new->vcpu;
	int cpu = v->processor;
	struct csched_unit *cur = CSCHED_UNIT(curr_on(s, cpu));
	struct cpumask *mask = prv->t_mask, *idle_mask = prv->t_idle;
	struct cpumask *scratch = prv->t_scratch;
	bool idlers_empty;
	unsigned c;
	int step;

	cpumask_zero(mask);
	cpumask_and(idle_mask, prv->idlers, cpupool_domain_master_cpumask(v->dom));
	idlers_empty = cpumask_empty(idle_mask);

	if ((new->flags & CSCHED_FLAG_UNIT_PINNED) &&
	    cpumask_test(idle_mask, (unsigned)cpu)) {
		cpumask_set(mask, (unsigned)cpu);
		goto tickle;
	}

	if (cur->pri == CSCHED_PRI_IDLE || (idlers_empty && new->pri > cur->pri)) {
		cpumask_set(mask, (unsigned)cpu);
	} else if (!idlers_empty) {
		for_each_affinity_balance_step(step) {
			bool new_idlers_empty;

			if (step == BALANCE_SOFT_AFFINITY && !csched_has_soft(prv, v))
				continue;
			affinity_balance_cpumask(v, step, scratch);
			cpumask_and(scratch, scratch, idle_mask);
			new_idlers_empty = cpumask_empty(scratch);
			/* No idler in soft affinity: look at hard affinity first. */
			if (new_idlers_empty && step == BALANCE_SOFT_AFFINITY)
				continue;
			if (new_idlers_empty && new->pri > cur->pri) {
				/*
				 * new preempts cur here; cur may move to an idler.
				 * Before f02a5760c7 cur always moves; then only if
				 * its hard affinity holds an idler; since the 2019
				 * rename the test reads new's, never true here (new
				 * has no idler).  Only the HARD step gets here.
				 */
				if (prv->b.kick == KICK_ALWAYS ||
				    cpumask_intersects(prv->b.kick == KICK_CUR ? cur->vcpu->hard :
						       v->hard, idle_mask))
					sched_set_pause_flags(cur->vcpu, VPF_MIGRATING);
				cpumask_set(mask, (unsigned)cpu);
			} else if (!new_idlers_empty) {
				/* Before f83fc393b2: among all idlers, suitable or not. */
				const struct cpumask *pool = prv->b.tickle_suitable ? scratch :
							     idle_mask;

				if (prv->b.tickle_one_idle) {
					int *last = &prv->last_tickle_cpu[this_cpu_or(prv, v)];

					*last = (int)cpumask_cycle(*last, pool);
					cpumask_set(mask, (unsigned)*last);
				} else {
					cpumask_or(mask, mask, pool);
				}
			}
			if (!cpumask_empty(mask))
				break;
		}
	}

tickle:
	if (TRACING(s))
		for_each_cpu(c, mask)
			trace_csched_tickle(s, this_cpu_or(prv, v), (int)c);
	for_each_cpu(c, mask) {
		/* A tickled pCPU counts as busy until it schedules (2017). */
		if (prv->b.clear_idlers)
			cpumask_clear_cpu(prv->idlers, c);
		cpu_raise_softirq(s, (int)c);
	}
}

/* vcpu_migration_delay_us: a vCPU descheduled recently is still cache-hot. */
static bool __csched_vcpu_is_cache_hot(const struct csched_private *prv,
				       const struct csched_unit *svc)
{
	return prv->unit_migr_delay &&
	       sim_now(prv->sim) - svc->last_sched_time < prv->unit_migr_delay;
}

static bool __csched_unit_is_migrateable(const struct csched_private *prv,
					 const struct csched_unit *svc, int dest_cpu,
					 enum balance_step step)
{
	return !__csched_vcpu_is_cache_hot(prv, svc) &&
	       affinity_balance_test(svc->vcpu, step, (unsigned)dest_cpu);
}

/*
 * A pCPU for v: an idle one if there is one, soft affinity first; among
 * idle pCPUs the one whose core (same socket) or socket (across sockets,
 * twice as idle needed) has the most idle threads.  With commit, remember
 * the choice in the winning pCPU's idle_bias, so that ties rotate.
 */
static int _csched_cpu_pick(struct csched_private *prv, const struct vcpu *v, bool commit)
{
	struct sim *s = prv->sim;
	const struct topology *t = &s->topo;
	struct cpumask *cpus = prv->p_cpus, *idlers = prv->p_idlers;
	struct cpumask *nxt_idlers = prv->p_nxt_idlers;
	struct csched_pcpu *spc = NULL;
	int cpu = v->processor;
	int step;

	for_each_affinity_balance_step(step) {
		affinity_balance_cpumask(v, step, cpus);
		cpumask_and(cpus, cpus, cpupool_domain_master_cpumask(v->dom));
		if (step == BALANCE_SOFT_AFFINITY &&
		    (!csched_has_soft(prv, v) || cpumask_empty(cpus)))
			continue;

		/* If present, prefer v's current pCPU. */
		cpu = (int)cpumask_test_or_cycle(v->processor, cpus);

		/* v's own pCPU counts as idle if v is all that would run there. */
		cpumask_and(idlers, s->online, prv->idlers);
		if (v->processor == cpu && is_runq_idle(prv, cpu))
			cpumask_set(idlers, (unsigned)cpu);
		cpumask_and(cpus, idlers, cpus);

		/* Start from an idle pCPU, if any, so SMT siblings compare fairly. */
		if (!cpumask_test(cpus, (unsigned)cpu) && !cpumask_empty(cpus))
			cpu = (int)cpumask_cycle(cpu, cpus);
		cpumask_clear_cpu(cpus, (unsigned)cpu);

		/*
		 * Xen's loop, with each mask operation on the words of the
		 * core or socket it concerns (a topology mask is zero
		 * elsewhere): nxt_idlers is zero outside the words of this
		 * round's nxt mask, and cleared again at the end of the round.
		 */
		cpumask_zero(nxt_idlers);
		while (!cpumask_empty(cpus)) {
			int nxt = (int)cpumask_cycle(cpu, cpus);
			int weight_cpu, weight_nxt, migrate_factor;
			const struct cpumask *cpu_mask, *nxt_mask;
			struct cpumask_words cpu_words, nxt_words;

			if (cpumask_test(t->core_mask[nxt], (unsigned)cpu)) {
				migrate_factor = 1;
				cpu_mask = t->sibling_mask[cpu];
				cpu_words = t->sibling_words[cpu];
				nxt_mask = t->sibling_mask[nxt];
				nxt_words = t->sibling_words[nxt];
			} else {
				migrate_factor = 2;
				cpu_mask = t->core_mask[cpu];
				cpu_words = t->core_words[cpu];
				nxt_mask = t->core_mask[nxt];
				nxt_words = t->core_words[nxt];
			}
			cpumask_and_words(nxt_idlers, idlers, nxt_mask, nxt_words);
			weight_cpu = (int)cpumask_weight_and_words(idlers, cpu_mask, cpu_words);
			weight_nxt = (int)cpumask_weight_and_words(idlers, nxt_mask, nxt_words);
			/* sched_smt_power_savings is off: spread work. */
			if (weight_cpu * migrate_factor < weight_nxt) {
				cpumask_and_words(nxt_idlers, nxt_idlers, cpus, nxt_words);
				spc = CSCHED_PCPU(prv, nxt);
				cpu = (int)cpumask_cycle(spc->idle_bias, nxt_idlers);
				cpumask_andnot_words(cpus, cpus, t->sibling_mask[cpu],
						     t->sibling_words[cpu]);
			} else {
				cpumask_andnot_words(cpus, cpus, nxt_idlers, nxt_words);
			}
			cpumask_zero_words(nxt_idlers, nxt_words);
		}

		if (cpumask_test(idlers, (unsigned)cpu))
			break;
	}

	if (commit && spc)
		spc->idle_bias = cpu;
	if (TRACING(s))
		trace_csched_picked_cpu(s, v, cpu);
	return cpu;
}

/*
 * pick_resource: also marks v so that the wake that follows does not BOOST
 * (66c7449a4d; with migrate_boost it does).
 */
static int csched_res_pick(struct scheduler *sch, struct vcpu *v)
{
	struct csched_private *prv = CSCHED_PRIV(sch);
	struct csched_unit *svc = CSCHED_UNIT(v);

	if (!prv->b.migrate_boost)
		svc->flags |= CSCHED_FLAG_UNIT_MIGRATING;
	return _csched_cpu_pick(prv, v, true);
}

static void __csched_unit_acct_start(struct csched_private *prv, struct csched_unit *svc)
{
	struct csched_dom *sdom = svc->sdom;

	if (!clist_empty(&svc->active_unit_elem))
		return;
	sdom->active_unit_count++;
	clist_add_after(&svc->active_unit_elem, &sdom->active_unit);
	/* The weight is per active vCPU. */
	prv->weight += sdom->weight;
	if (clist_empty(&sdom->active_sdom_elem))
		clist_add_after(&sdom->active_sdom_elem, &prv->active_sdom);
	if (TRACING(prv->sim))
		trace_csched_account(prv->sim, true, svc->vcpu, sdom->active_unit_count);
}

static void __csched_unit_acct_stop_locked(struct csched_private *prv,
					   struct csched_unit *svc)
{
	struct csched_dom *sdom = svc->sdom;

	sdom->active_unit_count--;
	clist_del_init(&svc->active_unit_elem);
	prv->weight -= sdom->weight;
	if (clist_empty(&sdom->active_unit))
		clist_del_init(&sdom->active_sdom_elem);
	if (TRACING(prv->sim))
		trace_csched_account(prv->sim, false, svc->vcpu, sdom->active_unit_count);
}

/*
 * The tick's accounting of the running vCPU: end its BOOST, charge it,
 * make it active if it was not, else see whether a more idle pCPU exists
 * and, if so, migrate it there.
 */
static void csched_unit_acct(struct csched_private *prv, int cpu)
{
	struct sim *s = prv->sim;
	struct vcpu *curr = curr_on(s, cpu);
	struct csched_unit *svc = CSCHED_UNIT(curr);
	int new_cpu;

	if (svc->pri == CSCHED_PRI_TS_BOOST) {
		svc->pri = CSCHED_PRI_TS_UNDER;
		if (TRACING(s))
			trace_csched_boost(s, false, curr);
	}
	burn_credits(svc, sim_now(s));

	if (clist_empty(&svc->active_unit_elem)) {
		__csched_unit_acct_start(prv, svc);
		return;
	}
	new_cpu = _csched_cpu_pick(prv, curr, false);
	if (new_cpu != cpu) {
		sched_set_pause_flags(curr, VPF_MIGRATING);
		cpu_raise_softirq(s, cpu);
	}
}

static void *csched_alloc_udata(struct scheduler *sch, struct vcpu *v, void *dd)
{
	struct csched_unit *svc = xcalloc(1, sizeof(*svc));

	(void)sch;
	clist_init(&svc->runq_elem);
	clist_init(&svc->active_unit_elem);
	svc->sdom = dd;
	svc->vcpu = v;
	svc->pri = is_idle_vcpu(v) ? CSCHED_PRI_IDLE : CSCHED_PRI_TS_UNDER;
	if (v->hard && cpumask_weight(v->hard) == 1)
		svc->flags |= CSCHED_FLAG_UNIT_PINNED;
	svc->soft_nodes = xcalloc((size_t)CSCHED_PRIV(sch)->nr_nodes, sizeof(*svc->soft_nodes));
	soft_nodes_update(CSCHED_PRIV(sch), svc);
	return svc;
}

static void csched_free_udata(struct scheduler *sch, void *data)
{
	struct csched_unit *svc = data;

	(void)sch;
	if (svc)
		free(svc->soft_nodes);
	free(svc);
}

static void csched_unit_insert(struct scheduler *sch, struct vcpu *v)
{
	struct csched_private *prv = CSCHED_PRIV(sch);
	struct csched_unit *svc = CSCHED_UNIT(v);

	/* Before 9f358ddd69 a new vCPU stays where it was created. */
	if (prv->b.insert_pick)
		sched_set_res(prv->sim, v, csched_res_pick(sch, v));
	if (!__unit_on_runq(svc) && vcpu_runnable(v) && !v->is_running)
		runq_insert(prv, svc);
}

static void csched_unit_remove(struct scheduler *sch, struct vcpu *v)
{
	struct csched_private *prv = CSCHED_PRIV(sch);
	struct csched_unit *svc = CSCHED_UNIT(v);

	if (__unit_on_runq(svc))
		runq_remove(prv, svc);
	if (svc->flags & CSCHED_FLAG_UNIT_PARKED) {
		svc->flags &= ~CSCHED_FLAG_UNIT_PARKED;
		sched_unit_unpause(prv->sim, v);
	}
	if (!clist_empty(&svc->active_unit_elem))
		__csched_unit_acct_stop_locked(prv, svc);
}

static void csched_unit_sleep(struct scheduler *sch, struct vcpu *v)
{
	struct csched_private *prv = CSCHED_PRIV(sch);
	struct csched_unit *svc = CSCHED_UNIT(v);

	if (curr_on(prv->sim, v->processor) == v)
		cpu_raise_softirq(prv->sim, v->processor);
	else if (__unit_on_runq(svc))
		runq_remove(prv, svc);
}

static void csched_unit_wake(struct scheduler *sch, struct vcpu *v)
{
	struct csched_private *prv = CSCHED_PRIV(sch);
	struct csched_unit *svc = CSCHED_UNIT(v);
	bool migrating;

	if (curr_on(prv->sim, v->processor) == v || __unit_on_runq(svc))
		return;

	/*
	 * BOOST a vCPU that wakes from a block while UNDER; not one that is
	 * only being moved, nor a capped one coming back from parking.
	 */
	migrating = svc->flags & CSCHED_FLAG_UNIT_MIGRATING;
	svc->flags &= ~CSCHED_FLAG_UNIT_MIGRATING;
	if (!migrating && svc->pri == CSCHED_PRI_TS_UNDER &&
	    !(svc->flags & CSCHED_FLAG_UNIT_PARKED)) {
		if (TRACING(prv->sim))
			trace_csched_boost(prv->sim, true, v);
		svc->pri = CSCHED_PRI_TS_BOOST;
	}

	runq_insert(prv, svc);
	__runq_tickle(prv, svc);
}

static void csched_unit_yield(struct scheduler *sch, struct vcpu *v)
{
	(void)sch;
	CSCHED_UNIT(v)->flags |= CSCHED_FLAG_UNIT_YIELD;
}

/* Xen's csched_dom_cntl putinfo: the new weight and cap are in d. */
static void csched_dom_cntl(struct scheduler *sch, struct domain *d)
{
	struct csched_private *prv = CSCHED_PRIV(sch);
	struct csched_dom *sdom = CSCHED_DOM(d);

	if (d->weight > 0) {
		if (!clist_empty(&sdom->active_sdom_elem)) {
			prv->weight -= (uint32_t)sdom->weight * sdom->active_unit_count;
			prv->weight += (uint32_t)d->weight * sdom->active_unit_count;
		}
		sdom->weight = (uint16_t)d->weight;
	}
	sdom->cap = (uint16_t)d->cap;
}

static void csched_aff_cntl(struct scheduler *sch, struct vcpu *v)
{
	struct csched_private *prv = CSCHED_PRIV(sch);
	struct csched_unit *svc = CSCHED_UNIT(v);

	if (cpumask_weight(v->hard) == 1)
		svc->flags |= CSCHED_FLAG_UNIT_PINNED;
	else
		svc->flags &= ~CSCHED_FLAG_UNIT_PINNED;
	/* A queued vCPU may gain or lose a useful soft affinity, or change nodes: recount it. */
	if (svc->soft_counted)
		runq_soft_count(prv, svc, v->processor, -1);
	soft_nodes_update(prv, svc);
	if (__unit_on_runq(svc) && csched_has_soft(prv, v))
		runq_soft_count(prv, svc, v->processor, 1);
}

static void *csched_alloc_domdata(struct scheduler *sch, struct domain *d)
{
	struct csched_dom *sdom = xcalloc(1, sizeof(*sdom));

	(void)sch;
	clist_init(&sdom->active_unit);
	clist_init(&sdom->active_sdom_elem);
	sdom->dom = d;
	sdom->weight = d->weight > 0 ? (uint16_t)d->weight : CSCHED_DEFAULT_WEIGHT;
	sdom->cap = (uint16_t)d->cap;
	return sdom;
}

static void csched_free_domdata(struct scheduler *sch, void *data)
{
	(void)sch;
	free(data);
}

/*
 * After accounting changed priorities: one pass that moves every UNDER or
 * BOOST vCPU ahead of the OVER ones, keeping each group in its order.
 */
static void csched_runq_sort(struct csched_private *prv, int cpu)
{
	struct csched_pcpu *spc = CSCHED_PCPU(prv, cpu);
	struct clist *runq = &spc->runq, *elem, *next, *last_under;

	if (prv->runq_sort == spc->runq_sort_last)
		return;
	spc->runq_sort_last = prv->runq_sort;

	last_under = runq;
	for (elem = runq->next; elem != runq; elem = next) {
		next = elem->next;
		if (__runq_elem(elem)->pri >= CSCHED_PRI_TS_UNDER) {
			if (elem->prev != last_under) {
				clist_del_init(elem);
				clist_add_after(elem, last_under);
			}
			last_under = elem;
		}
	}
	runq_head_update(prv, cpu);
}

/*
 * One vCPU's new credit: priority, parking, floor, and leaving the active
 * list when it has more than a timeslice's worth.  Returns the credit kept.
 */
static int csched_acct_unit(struct csched_private *prv, struct csched_dom *sdom,
			    struct csched_unit *svc, uint32_t credit_fair,
			    uint32_t credit_cap)
{
	struct sim *s = prv->sim;
	int credit;

	svc->credit += (int)credit_fair;
	credit = svc->credit;

	if (credit < 0) {
		svc->pri = CSCHED_PRI_TS_OVER;
		/* Park the vCPUs of a capped domain that overspent. */
		if (sdom->cap != 0 && credit < -(int)credit_cap &&
		    !(svc->flags & CSCHED_FLAG_UNIT_PARKED)) {
			svc->flags |= CSCHED_FLAG_UNIT_PARKED;
			sched_unit_pause_nosync(s, svc->vcpu);
		}
		if (credit < -(int)prv->credits_per_tslice) {
			credit = -(int)prv->credits_per_tslice;
			svc->credit = credit;
		}
		return credit;
	}

	svc->pri = CSCHED_PRI_TS_UNDER;
	if (svc->flags & CSCHED_FLAG_UNIT_PARKED) {
		/* Clearing the flag after the unpause keeps the wake from BOOSTing. */
		if (prv->b.unpark_boost) {
			svc->flags &= ~CSCHED_FLAG_UNIT_PARKED;
			sched_unit_unpause(s, svc->vcpu);
		} else {
			sched_unit_unpause(s, svc->vcpu);
			svc->flags &= ~CSCHED_FLAG_UNIT_PARKED;
		}
	}
	if (credit > (int)prv->credits_per_tslice) {
		/* Idling: stop earning, and restart half-way ahead. */
		__csched_unit_acct_stop_locked(prv, svc);
		credit /= 2;
		svc->credit = credit;
	}
	return credit;
}

/*
 * Every timeslice, on the master pCPU: share the period's credit among
 * active domains by weight, capped by what they can use (all their active
 * vCPUs for a timeslice, or their cap), handing what one cannot use to the
 * domains after it.
 */
static void csched_acct(struct csched_private *prv)
{
	struct clist *iter_sdom, *next_sdom, *iter_unit, *next_unit;
	uint32_t credit_total, weight_total, weight_left;
	uint32_t credit_fair, credit_peak, credit_cap;
	int credit_balance, credit_xtra;
	unsigned c;

	weight_total = prv->weight;
	credit_total = prv->credit;
	/* Converge the balance towards 0 when it drops negative. */
	if (prv->credit_balance < 0)
		credit_total -= (uint32_t)prv->credit_balance;
	if (weight_total == 0) {
		prv->credit_balance = 0;
		return;
	}

	weight_left = weight_total;
	credit_balance = 0;
	credit_xtra = 0;
	credit_cap = 0;

	for (iter_sdom = prv->active_sdom.next; iter_sdom != &prv->active_sdom;
	     iter_sdom = next_sdom) {
		struct csched_dom *sdom = clist_entry(iter_sdom, struct csched_dom,
						      active_sdom_elem);
		uint32_t n = sdom->active_unit_count;

		next_sdom = iter_sdom->next;
		weight_left -= sdom->weight * n;

		credit_peak = n * prv->credits_per_tslice;
		if (prv->credit_balance < 0)
			credit_peak += ((uint32_t)(-prv->credit_balance) * sdom->weight * n +
					(weight_total - 1)) / weight_total;
		if (sdom->cap != 0) {
			credit_cap = (sdom->cap * prv->credits_per_tslice + 99) / 100;
			if (credit_cap < credit_peak)
				credit_peak = credit_cap;
			credit_cap = (credit_cap + (n - 1)) / n;
		}

		credit_fair = (credit_total * sdom->weight * n + (weight_total - 1)) /
			      weight_total;
		if (credit_fair < credit_peak) {
			credit_xtra = 1;
		} else {
			/* Give the domains after this one what it cannot use. */
			if (weight_left != 0)
				credit_total += ((credit_fair - credit_peak) * weight_total +
						 (weight_left - 1)) / weight_left;
			if (credit_xtra) {
				/* Keep domains that had spare credit at the front. */
				clist_del_init(&sdom->active_sdom_elem);
				clist_add_after(&sdom->active_sdom_elem, &prv->active_sdom);
			}
			credit_fair = credit_peak;
		}

		/* Per vCPU. */
		credit_fair = (credit_fair + (n - 1)) / n;

		for (iter_unit = sdom->active_unit.next; iter_unit != &sdom->active_unit;
		     iter_unit = next_unit) {
			struct csched_unit *svc = clist_entry(iter_unit, struct csched_unit,
							      active_unit_elem);

			next_unit = iter_unit->next;
			credit_balance += csched_acct_unit(prv, sdom, svc, credit_fair,
							   credit_cap);
		}
	}

	prv->credit_balance = credit_balance;
	/* Every pCPU re-sorts its queue at its next tick. */
	prv->runq_sort++;
	/* Queued vCPUs changed priority in place: their queues' heads too. */
	for_each_cpu(c, prv->cpus)
		runq_head_update(prv, (int)c);
}

static void csched_acct_timer(struct timer *t, void *arg)
{
	struct csched_private *prv = arg;

	(void)t;
	/* Accounting runs on the master pCPU (last_tickle_cpu, IPIs). */
	prv->sim->this_cpu = prv->master;
	csched_acct(prv);
	timer_set(&prv->sim->q, &prv->master_ticker, sim_now(prv->sim) + prv->tslice);
}

static void csched_tick(struct timer *t, void *arg)
{
	struct csched_pcpu *spc = arg;
	struct csched_private *prv = spc->prv;
	struct sim *s = prv->sim;

	(void)t;
	/* The tick runs on its own pCPU: tickling that pCPU is local. */
	s->this_cpu = spc->cpu;
	spc->tick++;
	if (!is_idle_vcpu(curr_on(s, spc->cpu)))
		csched_unit_acct(prv, spc->cpu);
	csched_runq_sort(prv, spc->cpu);
	timer_set(&s->q, &spc->ticker, sim_now(s) + USEC(prv->tick_period_us));
}

/*
 * The first vCPU on peer_cpu's queue that is strictly better than pri,
 * not running, allowed on cpu for this balance step and not cache-hot;
 * moved to cpu.  NULL when there is none.
 */
static struct csched_unit *csched_runq_steal(struct csched_private *prv, int peer_cpu,
					     int cpu, int pri, int balance_step)
{
	struct sim *s = prv->sim;
	struct csched_pcpu *peer_pcpu = CSCHED_PCPU(prv, peer_cpu);
	struct clist *iter;

	/* An idle peer is about to take its own work. */
	if (is_idle_vcpu(curr_on(s, peer_cpu)))
		return NULL;

	for (iter = peer_pcpu->runq.next; iter != &peer_pcpu->runq; iter = iter->next) {
		struct csched_unit *speer = __runq_elem(iter);
		struct vcpu *v = speer->vcpu;

		if (speer->pri <= pri)
			break;
		/* A yielder waits for a reason (e282067cf2). */
		if (prv->b.yield_no_steal && (speer->flags & CSCHED_FLAG_UNIT_YIELD))
			continue;
		if (v->is_running ||
		    (balance_step == BALANCE_SOFT_AFFINITY && !csched_has_soft(prv, v)))
			continue;
		if (__csched_unit_is_migrateable(prv, speer, cpu, balance_step)) {
			if (TRACING(s))
				trace_csched_stolen(s, cpu, peer_cpu, v);
			runq_remove(prv, speer);
			sched_set_res(s, v, cpu);
			inc_nr_runnable(prv, cpu);
			return speer;
		}
	}
	return NULL;
}

/*
 * snext (the head of cpu's queue) is OVER or IDLE: look for better work on
 * the busy pCPUs, this node first, soft-affine work before hard-affine.
 * Returns what cpu should run, already off every queue.
 *
 * Xen visits every busy peer of each node, in order from the node's
 * balance_bias, and csched_runq_steal() gives up on a peer at once when
 * its queue's head is no better than snext.  The model visits the same
 * peers in the same order but only those whose head is better (the
 * waiting_* masks) and, in the soft-affinity step, that queue a vCPU with
 * a soft affinity that has a pCPU in cpu's node (waiting_soft[node]; with
 * xl's placement most soft-affine vCPUs of other nodes cannot come here):
 * the only ones a steal can come from, so the same decisions without
 * reading the queue of every peer of the host.
 * With --trace every peer is visited, for its TRC_CSCHED_STEAL_CHECK.
 */
static struct csched_unit *csched_load_balance(struct csched_private *prv, int cpu,
					       struct csched_unit *snext, bool *stolen)
{
	struct sim *s = prv->sim;
	const struct topology *t = &s->topo;
	struct cpumask *workers = prv->lb_workers, *visit = workers;
	const struct cpumask *better = NULL;
	int node = t->cpu_node[cpu];
	int bstep;

	if (!cpumask_test(prv->res_valid, (unsigned)cpu))
		goto out;
	if (!TRACING(s)) {
		if (snext->pri == CSCHED_PRI_IDLE)
			better = prv->waiting_work;
		else if (snext->pri == CSCHED_PRI_TS_OVER)
			better = prv->waiting_under;
		if (better)
			visit = prv->lb_visit;
	}

	for_each_affinity_balance_step(bstep) {
		int peer_node = node;

		do {
			/* workers lie in the node's words: only those are computed and scanned */
			struct cpumask_words nw = t->node_words[peer_node];
			int first_cpu, peer_cpu;

			cpumask_andnot_words(workers, prv->res_valid, prv->idlers, nw);
			cpumask_and_words(workers, workers, t->node_mask[peer_node], nw);
			cpumask_clear_cpu(workers, (unsigned)cpu);

			if (prv->b.lb_balance_bias)
				first_cpu = (int)cpumask_cycle_words(prv->balance_bias[peer_node],
								     workers, nw);
			else
				first_cpu = (int)cpumask_next_words(-1, workers, nw);
			if (first_cpu >= s->nr_cpus)
				goto next_node;
			/* From first_cpu on, the workers that can give work (all with --trace). */
			if (better) {
				cpumask_and_words(visit, workers, better, nw);
				if (bstep == BALANCE_SOFT_AFFINITY)
					cpumask_and_words(visit, visit, prv->waiting_soft[node], nw);
				if (!cpumask_test(visit, (unsigned)first_cpu))
					first_cpu = (int)cpumask_cycle_words(first_cpu, visit, nw);
				if (first_cpu >= s->nr_cpus)
					goto next_node;
			}
			peer_cpu = first_cpu;
			do {
				struct csched_unit *speer;

				if (prv->b.lb_skip_single &&
				    CSCHED_PCPU(prv, peer_cpu)->nr_runnable <= 1) {
					if (TRACING(s))
						trace_csched_steal_check(s, cpu, peer_cpu, false);
					goto next_cpu;
				}
				if (TRACING(s))
					trace_csched_steal_check(s, cpu, peer_cpu, true);
				speer = cpumask_test(prv->res_valid, (unsigned)peer_cpu) ?
					csched_runq_steal(prv, peer_cpu, cpu, snext->pri, bstep) :
					NULL;
				if (speer) {
					*stolen = true;
					if (prv->b.lb_balance_bias)
						prv->balance_bias[peer_node] = peer_cpu;
					return speer;
				}
next_cpu:
				peer_cpu = (int)cpumask_cycle_words(peer_cpu, visit, nw);
			} while (peer_cpu != first_cpu);
next_node:
			peer_node = (peer_node + 1) % t->nr_nodes;
		} while (peer_node != node);
	}
out:
	__runq_remove(prv, snext);
	return snext;
}

static void csched_schedule(struct scheduler *sch, struct vcpu *curr, stime_t now,
			    bool tasklet_work_scheduled, struct sched_decision *out)
{
	struct csched_private *prv = CSCHED_PRIV(sch);
	int cpu = this_cpu_or(prv, curr);
	struct csched_pcpu *spc = CSCHED_PCPU(prv, cpu);
	struct csched_unit *scurr = CSCHED_UNIT(curr), *snext;
	stime_t runtime, tslice;
	bool migrated = false;

	if (TRACING(prv->sim))
		trace_csched_schedule(prv->sim, cpu, tasklet_work_scheduled, is_idle_vcpu(curr));
	runtime = now - curr->state_entry_time;
	if (runtime < 0)
		runtime = 0;

	if (!is_idle_vcpu(curr)) {
		burn_credits(scurr, now);
		scurr->start_time -= now;
		scurr->last_sched_time = now;
	} else {
		/* A tasklet may have boosted the idle vCPU. */
		scurr->pri = CSCHED_PRI_IDLE;
	}

	/*
	 * Ratelimit: a vCPU that has run less than the limit keeps the pCPU
	 * until it reaches it, unless it yields.
	 */
	if ((!(scurr->flags & CSCHED_FLAG_UNIT_YIELD) || prv->b.ratelimit_yield) &&
	    !tasklet_work_scheduled && prv->ratelimit && vcpu_runnable(curr) &&
	    !is_idle_vcpu(curr) && runtime < prv->ratelimit) {
		snext = scurr;
		snext->start_time += now;
		if (prv->b.ratelimit_remaining) {
			tslice = prv->ratelimit - runtime;
			if (runtime < CSCHED_MIN_TIMER)
				tslice = CSCHED_MIN_TIMER;
		} else {
			tslice = prv->ratelimit;
		}
		if (TRACING(prv->sim))
			trace_csched_ratelimit(prv->sim, cpu, curr, runtime);
		goto out;
	}
	tslice = prv->tslice;

	if (vcpu_runnable(curr))
		__runq_insert(prv, scurr);
	else
		dec_nr_runnable(prv, cpu);     /* it blocked, paused or is moving */
	/* Since e282067cf2 the yield ends when it leaves the queue instead. */
	if (!prv->b.yield_no_steal)
		scurr->flags &= ~CSCHED_FLAG_UNIT_YIELD;

	do {
		snext = __runq_elem(spc->runq.next);
		if (tasklet_work_scheduled) {
			if (TRACING(prv->sim))
				trace_words(prv->sim, cpu, TRC_CSCHED_SCHED_TASKLET, 0, NULL);
			snext = CSCHED_UNIT(sched_idle_unit(prv->sim, cpu));
			snext->pri = CSCHED_PRI_TS_BOOST;
		}
		/* Nothing good here: try to steal better work from busy pCPUs. */
		if (snext->pri <= CSCHED_PRI_TS_OVER &&
		    (!prv->b.lb_ratelimit ||
		     now - spc->last_load_balance > prv->load_balance_ratelimit)) {
			spc->last_load_balance = now;
			snext = csched_load_balance(prv, cpu, snext, &migrated);
		} else if (__unit_on_runq(snext)) {
			__runq_remove(prv, snext);
		}
	} while (!vcpu_runnable(snext->vcpu));

	/* Idle pCPUs wait to be tickled. */
	if (!tasklet_work_scheduled && snext->pri == CSCHED_PRI_IDLE)
		cpumask_set(prv->idlers, (unsigned)cpu);
	else
		cpumask_clear_cpu(prv->idlers, (unsigned)cpu);

	if (!is_idle_vcpu(snext->vcpu))
		snext->start_time += now;

out:
	out->next = snext->vcpu;
	out->time_slice = is_idle_vcpu(snext->vcpu) ? -1 : tslice;
	out->migrated = migrated;

	/*
	 * The tick stops while idle and restarts on a tick boundary (with
	 * tick_suspend=off it runs on, as under an idle loop that only halts).
	 */
	if (!prv->b.tick_suspend) {
	} else if (!is_idle_vcpu(curr) && is_idle_vcpu(snext->vcpu)) {
		timer_stop(&prv->sim->q, &spc->ticker);
	} else if (is_idle_vcpu(curr) && !is_idle_vcpu(snext->vcpu)) {
		stime_t p = USEC(prv->tick_period_us);

		timer_set(&prv->sim->q, &spc->ticker, now + p - now % p);
	}
}

static void __csched_set_tslice(struct csched_private *prv, unsigned tslice_ms)
{
	prv->tslice = MSEC(tslice_ms);
	prv->ticks_per_tslice = CSCHED_TICKS_PER_TSLICE;
	if (tslice_ms < prv->ticks_per_tslice)
		prv->ticks_per_tslice = 1;
	prv->tick_period_us = tslice_ms * 1000 / prv->ticks_per_tslice;
	prv->credits_per_tslice = CSCHED_CREDITS_PER_MSEC * tslice_ms;
	prv->credit = prv->credits_per_tslice * prv->ncpus;
}

/* An era switch: "era" takes the era's value, else on or off. */
static bool era_switch(int sw, bool era_value)
{
	return sw == SW_ERA ? era_value : sw == SW_ON;
}

/* Each switch's value in the era: the commit that changed it, and when. */
static void csched_resolve_behaviour(struct csched_private *prv,
				     const struct csched_config *c)
{
	int era = c->era;

	if (c->tickle_kick != KICK_ERA)
		prv->b.kick = c->tickle_kick;
	else
		prv->b.kick = era == ERA_2015_KICK_BUG ? KICK_ALWAYS :     /* f02a5760c7 */
			      era < ERA_4_17 ? KICK_CUR : KICK_NEW;      /* 8a04eaa8ea */
	prv->b.migrate_boost = era_switch(c->migrate_boost, era < ERA_2016_PRE);  /* 66c7449a4d */
	prv->b.insert_pick = era_switch(c->insert_pick, era >= ERA_2016_PRE);     /* 9f358ddd69 */
	prv->b.tickle_suitable = era_switch(c->tickle_suitable, era >= ERA_2016); /* f83fc393b2 */
	prv->b.ratelimit_remaining = era_switch(c->ratelimit_remaining,
						era >= ERA_2016);                 /* 0053127890 */
	prv->b.ratelimit_yield = era_switch(c->ratelimit_yield, era < ERA_2016);  /* 9fdd2f3c9c */
	prv->b.clear_idlers = era_switch(c->tickle_clear_idlers, era >= ERA_2017); /* 47d5292995 */
	prv->b.lb_skip_single = era_switch(c->lb_skip_single, era >= ERA_2017);   /* 341450eaf7 */
	prv->b.lb_balance_bias = era_switch(c->lb_balance_bias, era >= ERA_2017); /* 89216c7999 */
	prv->b.unpark_boost = era_switch(c->unpark_boost, era < ERA_4_17);        /* 5c8c0ae7c4 */
	prv->b.yield_no_steal = era_switch(c->yield_no_steal, era >= ERA_4_22);   /* e282067cf2 */
	prv->b.lb_ratelimit = era_switch(c->lb_ratelimit, era >= ERA_4_22);       /* 58feb9e0ac */
	prv->b.tick_suspend = era_switch(c->tick_suspend, true);                 /* 969f58bde2 */
	prv->b.tickle_one_idle = c->tickle_one_idle_cpu;
	prv->b.soft_affinity = c->soft_affinity;
}

static int csched_init(struct scheduler *sch, struct err *e)
{
	const struct csched_config *c = sch->config;
	struct sim *s = sch->sim;
	struct csched_private *prv;
	unsigned n = (unsigned)s->nr_cpus;

	if (c->ratelimit_us != 0 && c->ratelimit_us < SCHED_RATELIMIT_MIN_US)
		return err_set(e, "credit1: ratelimit_us=%lld: must be 0 (off) or %d..%d",
			       c->ratelimit_us, SCHED_RATELIMIT_MIN_US, SCHED_RATELIMIT_MAX_US);

	prv = xcalloc(1, sizeof(*prv));
	prv->sim = s;
	sch->initial_cpu = c->era <= ERA_2015 ? INITIAL_CPU_LEAST_USED :     /* d5438accce */
			   c->era <= ERA_2017 ? INITIAL_CPU_ANY : INITIAL_CPU_FIRST; /* 8d3c326f67 */
	prv->idlers = cpumask_alloc(n);
	prv->cpus = cpumask_alloc(n);
	prv->res_valid = sched_res_valid(sch);
	prv->last_tickle_cpu = xcalloc((size_t)s->nr_cpus, sizeof(*prv->last_tickle_cpu));
	prv->balance_bias = xcalloc((size_t)(s->topo.nr_nodes > 0 ? s->topo.nr_nodes : 1),
				    sizeof(int));
	prv->t_mask = cpumask_alloc(n);
	prv->t_idle = cpumask_alloc(n);
	prv->t_scratch = cpumask_alloc(n);
	prv->p_cpus = cpumask_alloc(n);
	prv->p_idlers = cpumask_alloc(n);
	prv->p_nxt_idlers = cpumask_alloc(n);
	prv->lb_workers = cpumask_alloc(n);
	prv->lb_visit = cpumask_alloc(n);
	prv->waiting_work = cpumask_alloc(n);
	prv->waiting_under = cpumask_alloc(n);
	prv->nr_nodes = s->topo.nr_nodes > 0 ? s->topo.nr_nodes : 1;
	prv->waiting_soft = xcalloc((size_t)prv->nr_nodes, sizeof(*prv->waiting_soft));
	for (int node = 0; node < prv->nr_nodes; node++)
		prv->waiting_soft[node] = cpumask_alloc(n);
	clist_init(&prv->active_sdom);
	prv->master = -1;
	timer_init(&prv->master_ticker, csched_acct_timer, prv);

	__csched_set_tslice(prv, (unsigned)c->tslice_ms);
	/* A ratelimit longer than the timeslice is the timeslice. */
	if (USEC(c->ratelimit_us) > prv->tslice)
		prv->ratelimit = prv->tslice;
	else
		prv->ratelimit = USEC(c->ratelimit_us);
	prv->unit_migr_delay = USEC(c->vcpu_migration_delay_us);
	prv->load_balance_ratelimit = USEC(c->load_balance_ratelimit_us);
	csched_resolve_behaviour(prv, c);
	sch->priv = prv;
	return 0;
}

static void csched_deinit(struct scheduler *sch)
{
	struct csched_private *prv = CSCHED_PRIV(sch);
	struct sim *s;
	unsigned cpu;

	if (!prv)
		return;
	s = prv->sim;
	timer_stop(&s->q, &prv->master_ticker);
	for_each_cpu(cpu, prv->cpus) {
		struct csched_pcpu *spc = s->pcpus[cpu].sched_priv;

		if (!spc || spc->prv != prv)
			continue;
		timer_stop(&s->q, &spc->ticker);
		free(spc);
		s->pcpus[cpu].sched_priv = NULL;
	}
	cpumask_free(prv->idlers);
	cpumask_free(prv->cpus);
	cpumask_free(prv->t_mask);
	cpumask_free(prv->t_idle);
	cpumask_free(prv->t_scratch);
	cpumask_free(prv->p_cpus);
	cpumask_free(prv->p_idlers);
	cpumask_free(prv->p_nxt_idlers);
	cpumask_free(prv->lb_workers);
	cpumask_free(prv->lb_visit);
	cpumask_free(prv->waiting_work);
	cpumask_free(prv->waiting_under);
	for (int node = 0; node < prv->nr_nodes; node++)
		cpumask_free(prv->waiting_soft[node]);
	free(prv->waiting_soft);
	free(prv->balance_bias);
	free(prv->last_tickle_cpu);
	free(prv);
	sch->priv = NULL;
}

/* Xen's alloc_pdata + init_pdata: the pCPU joins, idle (its idle vCPU has its svc). */
static void csched_init_pdata(struct scheduler *sch, int cpu)
{
	struct csched_private *prv = CSCHED_PRIV(sch);
	struct sim *s = prv->sim;
	struct pcpu *pc = &s->pcpus[cpu];
	struct csched_pcpu *spc = xcalloc(1, sizeof(*spc) +
					     (size_t)prv->nr_nodes * sizeof(spc->nr_soft[0]));
	int node = s->topo.cpu_node[cpu];
	unsigned c, in_node = 0;

	spc->prv = prv;
	spc->cpu = cpu;
	pc->sched_priv = spc;

	prv->credit += prv->credits_per_tslice;
	prv->ncpus++;
	cpumask_set(prv->cpus, (unsigned)cpu);
	if (prv->ncpus == 1) {
		prv->master = cpu;
		timer_set(&s->q, &prv->master_ticker, sim_now(s) + prv->tslice);
	}
	for_each_cpu(c, prv->cpus)
		if (s->topo.cpu_node[c] == node)
			in_node++;
	if (in_node == 1)
		prv->balance_bias[node] = cpu;

	timer_init(&spc->ticker, csched_tick, spc);
	timer_set(&s->q, &spc->ticker, sim_now(s) + USEC(prv->tick_period_us));

	clist_init(&spc->runq);
	spc->runq_sort_last = prv->runq_sort;
	spc->idle_bias = s->nr_cpus - 1;
	cpumask_set(prv->idlers, (unsigned)cpu);
	spc->nr_runnable = 0;
	spc->last_load_balance = sim_now(s);
}

static void csched_dump_unit(FILE *f, const struct csched_unit *svc)
{
	const struct vcpu *v = svc->vcpu;

	fprintf(f, "[%d.%d] pri=%d flags=%x cpu=%d", v->dom->domid, v->vcpu_id,
		svc->pri, svc->flags, v->processor);
	if (svc->sdom)
		fprintf(f, " credit=%d [w=%u,cap=%u]", svc->credit,
			svc->sdom->weight, svc->sdom->cap);
	fputc('\n', f);
}

static void csched_dump(struct scheduler *sch, FILE *f)
{
	struct csched_private *prv = CSCHED_PRIV(sch);
	struct sim *s = prv->sim;
	char buf[256];
	struct clist *i, *j;
	unsigned cpu;

	fprintf(f, "credit1: ncpus=%u master=%d credit=%u balance=%d weight=%u "
		"runq_sort=%u tslice=%lldms ratelimit=%lldus\n",
		prv->ncpus, prv->master, prv->credit, prv->credit_balance, prv->weight,
		prv->runq_sort, (long long)(prv->tslice / MSEC(1)),
		(long long)(prv->ratelimit / USEC(1)));
	fprintf(f, "idlers: %s\n", cpumask_format(prv->idlers, buf, sizeof(buf)));
	for_each_cpu(cpu, prv->cpus) {
		struct csched_pcpu *spc = CSCHED_PCPU(prv, cpu);
		int n = 0;

		fprintf(f, "CPU[%02u] nr_run=%u sort=%u\n", cpu, spc->nr_runnable,
			spc->runq_sort_last);
		if (!is_idle_vcpu(curr_on(s, (int)cpu))) {
			fputs("\trun: ", f);
			csched_dump_unit(f, CSCHED_UNIT(curr_on(s, (int)cpu)));
		}
		for (i = spc->runq.next; i != &spc->runq; i = i->next) {
			fprintf(f, "\t%3d: ", ++n);
			csched_dump_unit(f, __runq_elem(i));
		}
	}
	fputs("active vCPUs:\n", f);
	for (i = prv->active_sdom.next; i != &prv->active_sdom; i = i->next) {
		struct csched_dom *sdom = clist_entry(i, struct csched_dom, active_sdom_elem);

		for (j = sdom->active_unit.next; j != &sdom->active_unit; j = j->next) {
			fputc('\t', f);
			csched_dump_unit(f, clist_entry(j, struct csched_unit, active_unit_elem));
		}
	}
}

static bool csched_unit_credit(struct scheduler *sch, struct vcpu *v, long long *credit)
{
	(void)sch;
	if (!v->sched_priv || is_idle_vcpu(v))
		return false;
	*credit = CSCHED_UNIT(v)->credit;
	return true;
}

#define SWITCH_CHOICES "era|on|off"

static const struct param_def csched_params[] = {
	{ "tslice_ms", PARAM_INT, "30", NULL, 1, 1000,
	  "timeslice in ms (Xen's sched_credit_tslice_ms); accounting runs every "
	  "timeslice, the tick every third of it",
	  offsetof(struct csched_config, tslice_ms) },
	{ "ratelimit_us", PARAM_INT, "1000", NULL, 0, SCHED_RATELIMIT_MAX_US,
	  "minimum run before a vCPU can be preempted, us; 0 = off, else >= 100; "
	  "more than the timeslice means the timeslice",
	  offsetof(struct csched_config, ratelimit_us) },
	{ "vcpu_migration_delay_us", PARAM_INT, "0", NULL, 0, 100000,
	  "a vCPU descheduled less than this ago is cache-hot and is not stolen; 0 = off",
	  offsetof(struct csched_config, vcpu_migration_delay_us) },
	{ "tickle_one_idle_cpu", PARAM_BOOL, "on", NULL, 0, 0,
	  "on a wake, tickle one suitable idle pCPU (round robin) rather than all",
	  offsetof(struct csched_config, tickle_one_idle_cpu) },
	{ "load_balance_ratelimit_us", PARAM_INT, "1000", NULL, 0, 1000000,
	  "minimum interval between two work-stealing attempts of a pCPU, us "
	  "(used when lb_ratelimit is on)",
	  offsetof(struct csched_config, load_balance_ratelimit_us) },
	{ "soft_affinity", PARAM_BOOL, "on", NULL, 0, 0,
	  "off: ignore soft affinity everywhere (tickle, placement, stealing)",
	  offsetof(struct csched_config, soft_affinity) },
	{ "era", PARAM_ENUM, "current", "2015-kick-bug|2015|2016-pre|2016|2017|4.17|4.22|current",
	  0, 0,
	  "the Xen tree whose credit.c to follow: 2015-kick-bug (957af2e22c), 2015 (f02a5760c7), "
	  "2016-pre (c496f489f0, before the 2016 series), 2016 (3a782c7603, with the series; "
	  "= 4.8), 2017 (4b6923acff), 4.17 (4.17.5), 4.22 or current (master c447b7308b, "
	  "same file as 4.22.0); sets every switch below left at 'era'",
	  offsetof(struct csched_config, era) },
	{ "tickle_kick", PARAM_ENUM, "era", "era|always|cur|new", 0, 0,
	  "a woken vCPU that preempts cur and finds no idler asks cur to migrate: always "
	  "(before f02a5760c7, 2015: cur is then BOOSTed by the wake that ends its move), "
	  "cur (if cur's hard affinity holds an idler; 2015-2017), new (reads new's affinity "
	  "since 8a04eaa8ea, 2019: never)",
	  offsetof(struct csched_config, tickle_kick) },
	{ "migrate_boost", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "the wake that ends a migration BOOSTs the vCPU like any wake (before 66c7449a4d, "
	  "Feb 2016)", offsetof(struct csched_config, migrate_boost) },
	{ "insert_pick", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "a new vCPU is placed by res_pick (from 9f358ddd69, Jul 2016; before, it stays on "
	  "the pCPU it was created on)", offsetof(struct csched_config, insert_pick) },
	{ "tickle_suitable", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "the idler tickled is one the woken vCPU may run on (from f83fc393b2, Sep 2016; "
	  "before, any idler of the pool)", offsetof(struct csched_config, tickle_suitable) },
	{ "ratelimit_remaining", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "a ratelimited vCPU runs until it has run ratelimit_us in all (from 0053127890, "
	  "Sep 2016); off: for another full ratelimit_us",
	  offsetof(struct csched_config, ratelimit_remaining) },
	{ "ratelimit_yield", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "the ratelimit holds a yielding vCPU too (before 9fdd2f3c9c, Sep 2016)",
	  offsetof(struct csched_config, ratelimit_yield) },
	{ "tickle_clear_idlers", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "a tickled pCPU leaves the idlers mask at once (from 47d5292995, Apr 2017)",
	  offsetof(struct csched_config, tickle_clear_idlers) },
	{ "lb_skip_single", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "work stealing skips peers with at most one runnable vCPU (nr_runnable, from "
	  "341450eaf7, Apr 2017)", offsetof(struct csched_config, lb_skip_single) },
	{ "lb_balance_bias", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "work stealing starts after the peer last stolen from in the node (from 89216c7999, "
	  "Apr 2017; before, at the first busy pCPU)",
	  offsetof(struct csched_config, lb_balance_bias) },
	{ "unpark_boost", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "an unparked capped vCPU is BOOSTed on its wake (before 5c8c0ae7c4, May 2019)",
	  offsetof(struct csched_config, unpark_boost) },
	{ "yield_no_steal", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "a yielding vCPU keeps YIELD while queued and is not stolen (from e282067cf2, "
	  "Jun 2023)", offsetof(struct csched_config, yield_no_steal) },
	{ "tick_suspend", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "an idle pCPU's tick stops, to restart on a tick boundary when it leaves idle "
	  "(csched_schedule does it from 969f58bde2, Oct 2019; before, the idle driver's "
	  "sched_tick_suspend() on entering a C-state); off: it ticks on, as under an idle "
	  "loop that only halts (no cpuidle, or max_cstate=0, before 2019); era: on",
	  offsetof(struct csched_config, tick_suspend) },
	{ "lb_ratelimit", PARAM_ENUM, "era", SWITCH_CHOICES, 0, 0,
	  "rate-limit work stealing by load_balance_ratelimit_us (from 58feb9e0ac, Sep 2023)",
	  offsetof(struct csched_config, lb_ratelimit) },
	{ NULL, 0, NULL, NULL, 0, 0, NULL, 0 }
};

const struct sched_ops credit1_ops = {
	.name = "credit1",
	.alias = "credit",
	.summary = "Xen's Credit1: weights, caps, BOOST on wake, per-pCPU queues, work stealing",
	.params = csched_params,
	.config_size = sizeof(struct csched_config),
	.init = csched_init,
	.deinit = csched_deinit,
	.init_pdata = csched_init_pdata,
	.alloc_domdata = csched_alloc_domdata,
	.free_domdata = csched_free_domdata,
	.alloc_udata = csched_alloc_udata,
	.free_udata = csched_free_udata,
	.insert_unit = csched_unit_insert,
	.remove_unit = csched_unit_remove,
	.sleep = csched_unit_sleep,
	.wake = csched_unit_wake,
	.yield = csched_unit_yield,
	.do_schedule = csched_schedule,
	.pick_resource = csched_res_pick,
	.adjust = csched_dom_cntl,
	.adjust_affinity = csched_aff_cntl,
	.dump = csched_dump,
	.unit_credit = csched_unit_credit,
};
