/*
 * Xen's Credit2 scheduler (xen/common/sched/credit2.c), modelled.
 *
 * Read this beside Xen's file: the functions have the same names and the
 * same order of decisions.  Where Xen's behaviour changed since 2016 the
 * old behaviour is kept behind a parameter (the 'era' switches below), so
 * that one table can compare the Credit2 of a 2016 patch series with
 * today's.
 *
 * THE ALGORITHM
 *
 * Credit.  Every vCPU holds credit, counted in nanoseconds.  While it runs
 * it burns credit: the vCPU with the highest weight on its runqueue burns
 * one credit per nanosecond, a vCPU of weight w burns max_weight/w per
 * nanosecond (t2c_update, with the remainder of the division kept in
 * 'residual' so that many short runs add up exactly).  Credit never falls
 * below CREDIT_MIN (-10 ms).  A new vCPU starts with CREDIT_INIT (10 ms).
 *
 * Runqueues.  pCPUs are grouped into runqueues by topology (one per pCPU,
 * core, socket, NUMA node, or one for all), SMT siblings always together,
 * and at most max_cpus_runqueue pCPUs in one (spread evenly).  A runqueue
 * keeps its runnable vCPUs sorted by credit, highest first.  A pCPU runs
 * whichever of (the vCPU it was running, the head of the runqueue) has
 * more credit: so, in effect, the vCPU that has received least service for
 * its weight.
 *
 * Epochs.  When the best vCPU that wants to run has no credit left (the
 * top of the runqueue is <= 0), everybody on that runqueue receives
 * CREDIT_INIT more, clipped to CREDIT_INIT + CARRYOVER_MAX (reset_credit).
 * A reset is also when load balancing between runqueues happens.
 *
 * Time slices.  A vCPU runs until its credit would reach the credit of
 * the next waiting vCPU (or zero, if nobody waits): csched2_runtime turns
 * that credit difference back into time (c2t), clamped to
 * [MIN_TIMER (500 us) or what the ratelimit still requires, MAX_TIMER].
 *
 * Waking up.  A vCPU that wakes is inserted by credit and runq_tickle
 * chooses a pCPU to poke: an idle pCPU of a fully idle core first, then
 * any idle untickled pCPU (each first inside the soft affinity, then the
 * hard affinity), otherwise the busy pCPU where preempting is best
 * (tickle_score: the credit difference, minus MIGRATE_RESIST for a move,
 * plus bonuses for landing inside the new vCPU's soft affinity and for
 * kicking out a vCPU running outside its own).  A running vCPU is only
 * preemptable once it has run for the ratelimit (1 ms).  A tickled pCPU is
 * remembered (the 'tickled' mask and the vCPU's tickled_cpu), so that no
 * other pCPU steals the vCPU meanwhile.
 *
 * Choosing (runq_candidate).  The running vCPU keeps the pCPU while the
 * ratelimit protects it.  Otherwise the first runqueue entry that may run
 * here (hard affinity, not reserved for another tickled pCPU, not on
 * another pCPU unless it has MIGRATE_RESIST more credit, has cap budget)
 * replaces the current vCPU if it has more credit, or if the current one
 * yields.  A vCPU running outside its soft affinity gives way when a pCPU
 * of its soft affinity is idle.  A vCPU that moves pCPU gets
 * MIGRATE_COMPENSATION (50 us) of credit.
 *
 * Context switches.  A vCPU being switched out is still 'scheduled' until
 * context_saved; if it wakes or is preempted meanwhile it is put back on
 * the runqueue then (delayed_runq_add), never before.
 *
 * Load.  Each runqueue and vCPU keeps an exponentially decaying average of
 * its load (number of runnable vCPUs; for a vCPU, the fraction of time it
 * is runnable) over a window of 2^load_window_shift ns, in fixed point
 * with load_precision_shift fractional bits (update_runq_load,
 * update_svc_load).  Placement (csched2_res_pick) chooses the least loaded
 * runqueue, preferring runqueues that hold some of the soft affinity; the
 * pCPU inside it is left to runq_tickle.  balance_load, after a reset,
 * finds the runqueue whose load differs most from this one and, if the
 * difference is large enough, pushes, pulls or swaps the vCPUs that bring
 * the two loads closest (migrate; a running vCPU is asked to move through
 * VPF_MIGRATING and moves once it is off its pCPU).
 *
 * Caps.  A domain with a cap gets a budget of cap% of cap_period_ms every
 * period, from a per-domain timer (replenish_domain_budget).  Each vCPU
 * takes a quota of it before running (unit_grab_budget) and returns what
 * it did not use when it stops.  A vCPU that finds no budget is parked
 * (VPF_PARKED, off the runqueue) until the next replenishment or a return
 * of budget unparks it.
 *
 * ERAS (parameter era=, default current)
 *
 * era= names the Xen tree whose credit2.c (sched_credit2.c before 2020)
 * the model follows; ../shared/xen-src holds each of them:
 *
 *   2015         2015-11-credit1-kick-* (f02a5760c7; both trees have the
 *                same credit2.c): Credit2 "experimental", without hard
 *                affinity, ratelimit or SMT awareness
 *   2016         2016-09-before-series (c496f489f0): Sep 2016, just before
 *                the series "Credit1 and Credit2 improvements... and
 *                soft-affinity for Credit2!"
 *   2016-socket  2016-11-runq-socket (3a782c7603): its patches 1-15 and 22
 *                merged, runqueues per socket by default
 *   2016-p20     2017-08-credit2-p20 (afd44e2aca): up to patch 20, soft
 *                affinity; MAX_TIMER 2 ms, as the series was posted and
 *                measured (the tree has 10 ms: max_timer_us=10000)
 *   2016-p21     2017-08-credit2-p21 (8c271ba070): patch 21 only reorders
 *                runq_candidate for an idle scurr; same decisions as p20
 *   2016-full    2017-08-credit2-full (4b6923acff): the whole series
 *   4.17         4.17.5
 *   4.22, current  4.22.0 and master-2026-08 (the same credit2.c)
 *
 * Each behaviour that changed between them is a switch named after what
 * changed; 'auto' (or 0) takes the era's value:
 *
 *   hard_affinity   b6fa4c81b2 (Mar 2016): hard affinity at all; before,
 *                   placement takes the pCPU after the vCPU's own in the
 *                   runqueue and a move inside a runqueue leaves it where
 *                   it was (schedsim refuses a scenario that pins vCPUs
 *                   to a scheduler that would not honour it)
 *   idle_no_timer   2c6f317a2b (Mar 2016): an idle pCPU sets no slice;
 *                   before, it rescheduled every MAX_TIMER
 *   load_2016       d205f8a7f4 (Jul 2016, with adf7d04317 and d933b37eb4):
 *                   the load averages' window and precision apart, moves
 *                   leave the vCPU's own average alone, loads not below 0
 *   tickle_idle_first  e4c1792b58 (Jul 2016): idle pCPUs before the
 *                   vCPU's own busy one
 *   insert_pick     9f358ddd69 (Jul 2016): a new vCPU is placed by res_pick
 *   ratelimit       2615485905 (Aug 2016): credit2 applies ratelimit_us
 *   runqueue        socket (fixed) in 2015, core from bcd46d3912 (Apr
 *                   2016), socket again from 3a782c7603 (Nov 2016)
 *   max_timer_us    2 ms before da92ec5bd1 (Sep 2016, patch 22), 10 ms after
 *   tickled_cpu     069cf39fb1 (Sep 2016): a woken vCPU is kept for the
 *                   pCPU tickled for it
 *   yield           a7fa4d5f53 (Sep 2016): credit2 honours yield at all
 *   migrate_kick    115e4c5e52 (Sep 2016): balance_load's move of a
 *                   running vCPU pokes its pCPU
 *   reset           snext (snext <= 0) before 5e4b419966 (Sep 2016), then
 *                   skipped (and no waiter passed over), top (the best of
 *                   snext and the runqueue head <= 0, CREDIT_MIN floor,
 *                   runq_candidate's stop-at-first-poorer loop) from
 *                   dae7b62e97, 36f3662f27 (2020) and 07b0eb5d0e (2021)
 *   tickle_mark     a76645240b (Mar 2017): sleep's and migrate's pokes mark
 *                   the pCPU tickled and empty its core from smt_idle
 *   reset_burn      4fa4f8a3cd (Mar 2017): a reset charges the running vCPUs
 *   pick_bias       6348214c5d (Apr 2017): res_pick and migrate rotate from
 *                   the runqueue's pick_bias instead of cpumask_any()
 *   soft_affinity, tickle=score
 *                   72faea7126, a64ccd3970, a5948a2b52, afd44e2aca (Aug
 *                   2017, patches 16-20): soft affinity everywhere
 *   tickle_ratelimit  4b6923acff (Aug 2017, patch 24)
 *   caps            ad4b3e1e9d (Sep 2017); with it, every new domain draws
 *                   (cpumask_any) the pCPU of its replenishment timer
 *   idle_first      a9400d630b (Nov 2018): the idle mask is updated before
 *                   a reset's balancing
 *   smt_rq_siblings 753ba43d6d (Mar 2019): smt_idle counts a core's threads
 *                   inside the runqueue only
 *   max_cpus_runqueue 16 from 8e2aa76dc1 (2020), no limit before
 *   load_continue   89052b9fa2 (2021): a vCPU that goes on running updates
 *                   its own load average
 *   inflight        ae648e9f80 (Jul 2025)
 *   smt_idle        9bb9c73884 (Jul 2016)
 *
 * What else differs between those files changes no decision the simulator
 * can reach: locking, cpupools, tracing and statistics, the fast path of
 * runq_tickle for a vCPU pinned to an idle pCPU (b37b61d178, 2018: kept in
 * every era, the steps after it pick the same pCPU), patch 21, per-cpu
 * data layout, and the runqueue setup rework of 2020 (the same runqueues
 * without a max_cpus_runqueue limit).  doc/xen-shim.md has the list.
 *
 * Each era was run beside its own tree's credit2.c (xen-shim/) by the
 * random differential driver; doc/xen-shim.md has the figures.
 */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "schedulers/credit2.h"
#include "sim/engine/trace_events.h"
#include "sim/xalloc.h"

/* --- small list helpers (Xen's list.h) --- */

#define c2_entry(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

static void c2_list_init(struct c2_list *l)
{
	l->prev = l->next = l;
}

static bool c2_list_empty(const struct c2_list *l)
{
	return l->next == l;
}

/* Inserts e just before 'at' (at the tail when 'at' is the head). */
static void c2_list_add_tail(struct c2_list *e, struct c2_list *at)
{
	e->prev = at->prev;
	e->next = at;
	at->prev->next = e;
	at->prev = e;
}

/* Inserts e right after the head. */
static void c2_list_add(struct c2_list *e, struct c2_list *head)
{
	c2_list_add_tail(e, head->next);
}

static void c2_list_del_init(struct c2_list *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	c2_list_init(e);
}

/* Moves every entry of 'from' to the tail of 'to'. */
static void c2_list_splice_init(struct c2_list *from, struct c2_list *to)
{
	while (!c2_list_empty(from)) {
		struct c2_list *e = from->next;

		c2_list_del_init(e);
		c2_list_add_tail(e, to);
	}
}

#define runq_elem(l) c2_entry(l, struct csched2_unit, runq_elem)
#define rqd_elem(l) c2_entry(l, struct csched2_unit, rqd_elem)
#define parked_elem(l) c2_entry(l, struct csched2_unit, parked_elem)

/* --- accessors --- */

static struct sim *c2sim(const struct scheduler *ops)
{
	return ops->sim;
}

static struct csched2_unit *csched2_unit(struct scheduler *ops, struct vcpu *v)
{
	struct csched2_private *prv = csched2_priv(ops);

	if (is_idle_vcpu(v)) {
		struct csched2_unit *idle = prv->pcpu[v->processor].idle_svc;

		idle->unit = v;
		return idle;
	}
	return v->sched_priv;
}

/* The idle vCPU of cpu, as Xen's sched_idle_unit(cpu). */
static struct csched2_unit *idle_svc(struct scheduler *ops, int cpu)
{
	struct csched2_unit *idle = csched2_priv(ops)->pcpu[cpu].idle_svc;

	idle->unit = sched_idle_unit(c2sim(ops), cpu);
	return idle;
}

static struct csched2_unit *curr_svc(struct scheduler *ops, int cpu)
{
	return csched2_unit(ops, curr_on(c2sim(ops), cpu));
}

static bool is_idle_unit(const struct csched2_unit *svc)
{
	return svc->sdom == NULL;
}

static bool has_cap(const struct csched2_unit *svc)
{
	return svc->budget != STIME_MAX;
}

static bool unit_on_runq(const struct csched2_unit *svc)
{
	return !c2_list_empty(&svc->runq_elem);
}

/* Soft affinity as this instance sees it: soft_affinity=off ignores it. */
static bool c2_has_soft(struct scheduler *ops, const struct vcpu *v)
{
	return csched2_priv(ops)->soft_aff && has_soft_affinity(c2sim(ops), v);
}

/* cpu in v's raw soft mask (everything is "inside" with soft_affinity=off). */
static bool c2_in_soft(struct scheduler *ops, const struct vcpu *v, int cpu)
{
	return !csched2_priv(ops)->soft_aff || cpumask_test(v->soft, (unsigned)cpu);
}

/* v's hard affinity, or every pCPU before credit2 had hard affinity (b6fa4c81b2). */
static const struct cpumask *c2_hard(struct scheduler *ops, const struct vcpu *v)
{
	return csched2_priv(ops)->hard_affinity ? v->hard : cpupool_domain_master_cpumask(v->dom);
}

/* The pCPU whose trace buffer gets a record: the one running the code, else cpu. */
static int trace_cpu_or(const struct sim *s, int cpu)
{
	return s->this_cpu >= 0 ? s->this_cpu : cpu;
}

/*
 * Trace points (sim/engine/trace_events.h): without --trace each costs one test of
 * s->tracer, marked unlikely so that the record's arguments are not worked
 * out ahead of it.  The records of the small functions on the hot path are
 * built out of line (cold), so that those functions stay leaves.
 */
#define TRACING(s) __builtin_expect((s)->tracer != NULL, 0)
#define TRACE_COLD __attribute__((cold, noinline))

/* update_max_weight's record; the callers have the svc that leads to the sim. */
static void trace_max_weight(const struct csched2_unit *svc,
			     const struct csched2_runqueue_data *rqd)
{
	struct sim *s = svc->sdom->ops->sim;

	if (TRACING(s))
		trace_csched2_max_weight(s, trc_cpu(s, svc->unit), (unsigned)rqd->id,
					 (unsigned)rqd->max_weight);
}

static TRACE_COLD void trace_burn(struct scheduler *ops, const struct csched2_unit *svc,
				  stime_t delta)
{
	trace_csched2_burn(ops->sim, trc_cpu(ops->sim, svc->unit), svc->unit, svc->credit,
			   has_cap(svc) ? (int)svc->budget : INT_MIN, (int)delta);
}

/*
 * Outside any pCPU's code (a wake from a device or timer), a runqueue's
 * records go where the vCPU concerned (svc, if any) is, as its own do.
 */
static int trace_rqd_cpu(struct sim *s, const struct csched2_runqueue_data *rqd,
			 const struct csched2_unit *svc)
{
	return trace_cpu_or(s, svc ? svc->unit->processor : (int)cpumask_first(rqd->active));
}

static TRACE_COLD void trace_runq_load(struct scheduler *ops,
				       const struct csched2_runqueue_data *rqd,
				       const struct csched2_unit *svc)
{
	trace_csched2_runq_load(ops->sim, trace_rqd_cpu(ops->sim, rqd, svc),
				(unsigned)rqd->id, (unsigned)rqd->load, (uint64_t)rqd->avgload,
				(uint64_t)rqd->b_avgload, csched2_priv(ops)->load_precision_shift);
}

static TRACE_COLD void trace_svc_load(struct scheduler *ops, const struct csched2_unit *svc)
{
	trace_csched2_unit_load(ops->sim, trc_cpu(ops->sim, svc->unit), svc->unit,
				(uint64_t)svc->avgload, csched2_priv(ops)->load_precision_shift);
}

/* update_load's record (no payload). */
static TRACE_COLD void trace_update_load(struct scheduler *ops,
					 const struct csched2_runqueue_data *rqd,
					 const struct csched2_unit *svc)
{
	trace_words(ops->sim, trace_rqd_cpu(ops->sim, rqd, svc), TRC_CSCHED2_UPDATE_LOAD, 0, NULL);
}

static TRACE_COLD void trace_tickle_check(struct sim *s, int cpu, const struct csched2_unit *cur,
					  stime_t score)
{
	trace_csched2_tickle_check(s, trace_cpu_or(s, cpu), cur->unit, cur->credit, (int)score);
}

static TRACE_COLD void trace_tickle_new(struct sim *s, const struct csched2_unit *new)
{
	trace_csched2_tickle_new(s, trc_cpu(s, new->unit), new->unit, new->credit);
}

static TRACE_COLD void trace_tickle(struct sim *s, const struct csched2_unit *new, int ipid)
{
	trace_csched2_tickle(s, trc_cpu(s, new->unit), ipid);
}

static TRACE_COLD void trace_ratelimit(struct sim *s, int cpu, const struct vcpu *v,
				       stime_t now)
{
	trace_csched2_ratelimit(s, trace_cpu_or(s, cpu), v, now - v->state_entry_time);
}

/*
 * runq_candidate looks at it, if Xen would: Xen stops at the first entry
 * with no more credit than snext (the queue is sorted); we look further
 * but skip all of those, so only the first is one that Xen looks at.
 */
static TRACE_COLD void trace_cand_check(struct sim *s, int cpu,
					const struct csched2_runqueue_data *rqd,
					const struct c2_list *it, const struct csched2_unit *snext,
					bool yield)
{
	const struct csched2_unit *svc = runq_elem(it);

	if (yield || svc->credit > snext->credit || it->prev == &rqd->runq ||
	    runq_elem(it->prev)->credit > snext->credit)
		trace_csched2_cand_check(s, trace_cpu_or(s, cpu), svc->unit);
}

static TRACE_COLD void trace_candidate(struct sim *s, int cpu, const struct csched2_unit *snext)
{
	trace_csched2_candidate(s, trace_cpu_or(s, cpu), snext->unit, snext->tickled_cpu,
				snext->credit);
}

static TRACE_COLD void trace_schedule(struct sim *s, int cpu,
				      const struct csched2_runqueue_data *rqd,
				      bool tasklet, bool idle, bool tickled)
{
	trace_csched2_schedule(s, cpu, (unsigned)rqd->id, tasklet, idle,
			       cpumask_test(rqd->smt_idle, (unsigned)cpu), tickled);
}

/* runq_insert's record: the position svc took in rqd's queue. */
static TRACE_COLD void trace_runq_pos(struct scheduler *ops,
				      const struct csched2_runqueue_data *rqd,
				      const struct csched2_unit *svc)
{
	const struct c2_list *it;
	unsigned pos = 0;

	for (it = rqd->runq.next; it != &svc->runq_elem; it = it->next)
		pos++;
	trace_csched2_runq_pos(ops->sim, trc_cpu(ops->sim, svc->unit), svc->unit, pos);
}

/* --- SMT idleness (smt_idle holds whole cores that are idle and untickled) --- */

/*
 * A core's threads: those in cpu's runqueue since 753ba43d6d (2019), all of
 * them before (the topology's sibling mask, of which threads in another
 * runqueue, with runqueue=cpu, are never in this runqueue's masks).
 */
static const struct cpumask *smt_siblings(struct scheduler *ops, int cpu)
{
	struct csched2_private *prv = csched2_priv(ops);

	return prv->smt_rq_siblings ? prv->pcpu[cpu].sibling_mask :
	       c2sim(ops)->topo.sibling_mask[cpu];
}

/*
 * Xen's smt_idle_mask_set(cpu, idle minus tickled, smt_idle): cpu's core
 * joins smt_idle when all its threads are idle and untickled.  Either mask
 * of siblings lies in the words of the core's threads, so idle minus
 * tickled is made only there (not in a whole-host scratch mask).
 */
static void smt_idle_mask_set_untickled(struct scheduler *ops, int cpu,
					struct csched2_runqueue_data *rqd)
{
	const struct cpumask *sibs = smt_siblings(ops, cpu);
	struct cpumask_words w = c2sim(ops)->topo.sibling_words[cpu];

	for (unsigned k = w.lo; k < w.hi; k++)
		if (sibs->w[k] & ~(rqd->idle->w[k] & ~rqd->tickled->w[k]))
			return;
	cpumask_or_words(rqd->smt_idle, rqd->smt_idle, sibs, w);
}

/* Only a whole core leaves the mask since a76645240b (2017); before, any bits. */
static void smt_idle_mask_clear(struct scheduler *ops, int cpu, struct cpumask *mask)
{
	const struct cpumask *sibs = smt_siblings(ops, cpu);
	struct cpumask_words w = c2sim(ops)->topo.sibling_words[cpu];

	if (!csched2_priv(ops)->tickle_mark || cpumask_subset_words(sibs, mask, w))
		cpumask_andnot_words(mask, mask, sibs, w);
}

/* --- credit arithmetic --- */

/*
 * Burns 'time' ns of run time as credit, scaled by max_weight/weight, with
 * the division's remainder carried in residual.  credit_floor is
 * CREDIT_MIN since 36f3662f27 (2020); INT_MIN means none, as before it:
 * the credit, an int, may then fall below the idle vCPU's (so that the
 * vCPU loses to idle until the next reset) and wraps as Xen's would.
 */
static void t2c_update(struct csched2_runqueue_data *rqd, stime_t time,
		       struct csched2_unit *svc, int credit_floor)
{
	int64_t val = time * rqd->max_weight + svc->residual;
	int64_t credit;

	svc->residual = (unsigned)(val % svc->weight);
	val /= svc->weight;
	credit = (int64_t)svc->credit - val;
	if (credit_floor == INT_MIN)
		svc->credit = (int32_t)(uint32_t)(uint64_t)credit;
	else
		svc->credit = credit < credit_floor ? credit_floor : (int)credit;
}

static stime_t c2t(const struct csched2_runqueue_data *rqd, stime_t credit,
		   const struct csched2_unit *svc)
{
	return credit * svc->weight / rqd->max_weight;
}

static void burn_credits(struct scheduler *ops, struct csched2_runqueue_data *rqd,
			 struct csched2_unit *svc, stime_t now)
{
	struct csched2_private *prv = csched2_priv(ops);
	stime_t delta;

	if (is_idle_unit(svc))
		return;
	delta = now - svc->start_time;
	if (delta <= 0)
		goto out;
	t2c_update(rqd, delta, svc, prv->reset_top ? (int)CSCHED2_CREDIT_MIN : INT_MIN);
	if (has_cap(svc))
		svc->budget -= delta;
	svc->start_time = now;
out:
	if (TRACING(ops->sim))
		trace_burn(ops, svc, delta);
}

/* --- runqueue membership and load --- */

static void update_max_weight(struct csched2_runqueue_data *rqd, int new_weight,
			      int old_weight)
{
	struct c2_list *it;
	int max = 1;

	if (new_weight > rqd->max_weight) {
		rqd->max_weight = new_weight;
		return;
	}
	if (old_weight != rqd->max_weight)
		return;
	/* The maximum may have left: look again. */
	for (it = rqd->svc.next; it != &rqd->svc; it = it->next)
		if (rqd_elem(it)->weight > max)
			max = rqd_elem(it)->weight;
	rqd->max_weight = max;
}

/*
 * The decaying averages.  Time is sampled in units of 1024 ns; W is the
 * window shift in those units and P the number of fractional bits.  The
 * new sample has been in force for delta of the last W, so it weighs
 * delta/W; after a whole window of silence the sample alone counts.
 */
/*
 * Before d205f8a7f4 (Jul 2016) the average was (d * sample + (2^W - d) *
 * avg) / 2^W, with W fractional bits, in unsigned 64-bit arithmetic: a
 * negative average (b_avgload could go below 0 then) wraps, as in Xen.
 */
static stime_t ewma_2015(stime_t avg, uint64_t sample, stime_t delta, unsigned W)
{
	uint64_t d = (uint64_t)delta;

	return (stime_t)((d * (sample << W) + ((1ULL << W) - d) * (uint64_t)avg) >> W);
}

static void __update_runq_load(struct scheduler *ops, struct csched2_runqueue_data *rqd,
			       int change, stime_t now)
{
	struct csched2_private *prv = csched2_priv(ops);
	unsigned W = prv->load_window_shift, P = prv->load_precision_shift;
	stime_t load = rqd->load, delta;

	now >>= LOADAVG_GRANULARITY_SHIFT;
	if (!prv->load_2016 && rqd->load_last_update + (1LL << W) >= now) {
		delta = now - rqd->load_last_update;
		rqd->avgload = ewma_2015(rqd->avgload, (uint64_t)load, delta, W);
		rqd->b_avgload = ewma_2015(rqd->b_avgload, (uint64_t)load, delta, W);
	} else if (rqd->load_last_update + (1LL << W) < now) {
		rqd->avgload = load << P;
		rqd->b_avgload = load << P;
	} else {
		delta = now - rqd->load_last_update;
		if (delta < 0)
			delta = 0;
		rqd->avgload += ((delta * (load << P)) >> W) - ((delta * rqd->avgload) >> W);
		rqd->b_avgload += ((delta * (load << P)) >> W) - ((delta * rqd->b_avgload) >> W);
	}
	rqd->load += change;
	rqd->load_last_update = now;
}

/* With its record; update_load writes its own, on svc's pCPU outside pCPU code. */
static void update_runq_load(struct scheduler *ops, struct csched2_runqueue_data *rqd,
			     int change, stime_t now)
{
	__update_runq_load(ops, rqd, change, now);
	if (TRACING(ops->sim))
		trace_runq_load(ops, rqd, NULL);
}

/*
 * A vCPU's own average: the sample is whether it was runnable during the
 * interval that just ended (a -1 change means it was, +1 that it was not).
 */
static void update_svc_load(struct scheduler *ops, struct csched2_unit *svc,
			    int change, stime_t now)
{
	struct csched2_private *prv = csched2_priv(ops);
	unsigned W = prv->load_window_shift, P = prv->load_precision_shift;
	stime_t sample, delta;

	if (change == -1)
		sample = 1;
	else if (change == 1)
		sample = 0;
	else
		sample = vcpu_runnable(svc->unit);
	now >>= LOADAVG_GRANULARITY_SHIFT;
	if (!prv->load_2016 && svc->load_last_update + (1LL << W) >= now) {
		svc->avgload = ewma_2015(svc->avgload, (uint64_t)sample, now - svc->load_last_update, W);
	} else if (svc->load_last_update + (1LL << W) < now) {
		svc->avgload = sample << P;
	} else {
		delta = now - svc->load_last_update;
		if (delta < 0)
			delta = 0;
		svc->avgload += ((delta * (sample << P)) >> W) - ((delta * svc->avgload) >> W);
	}
	svc->load_last_update = now;
	if (TRACING(ops->sim))
		trace_svc_load(ops, svc);
}

static void update_load(struct scheduler *ops, struct csched2_runqueue_data *rqd,
			struct csched2_unit *svc, int change, stime_t now)
{
	if (TRACING(ops->sim))
		trace_update_load(ops, rqd, svc);
	__update_runq_load(ops, rqd, change, now);
	if (TRACING(ops->sim))
		trace_runq_load(ops, rqd, svc);
	if (svc)
		update_svc_load(ops, svc, change, now);
}

static void _runq_assign(struct csched2_unit *svc, struct csched2_runqueue_data *rqd)
{
	svc->rqd = rqd;
	c2_list_add_tail(&svc->rqd_elem, &rqd->svc);
	update_max_weight(rqd, svc->weight, 0);
	trace_max_weight(svc, rqd);
	/* Anticipate the load this vCPU brings, for placement and balancing. */
	rqd->b_avgload += svc->avgload;
	if (TRACING(svc->sdom->ops->sim))
		trace_csched2_runq_assign(svc->sdom->ops->sim,
					  trc_cpu(svc->sdom->ops->sim, svc->unit), svc->unit,
					  (unsigned)rqd->id);
}

static void runq_assign(struct scheduler *ops, struct vcpu *v)
{
	struct csched2_unit *svc = v->sched_priv;

	_runq_assign(svc, c2rqd(ops, v->processor));
}

static void _runq_deassign(struct csched2_unit *svc)
{
	struct csched2_runqueue_data *rqd = svc->rqd;

	c2_list_del_init(&svc->rqd_elem);
	update_max_weight(rqd, 0, svc->weight);
	trace_max_weight(svc, rqd);
	rqd->b_avgload -= svc->avgload;
	/* d933b37eb4 (Jul 2016); the 2015 code let it go negative. */
	if (rqd->b_avgload < 0 && csched2_priv(svc->sdom->ops)->load_2016)
		rqd->b_avgload = 0;
	svc->rqd = NULL;
}

/*
 * rqd->runq_v holds the queued vCPUs in the list's order from runq_off on,
 * with room on both sides: an insert or a removal moves the shorter side,
 * so that taking the first one (csched2_schedule's snext, most removals)
 * moves nothing.  Re-laid out with a quarter used when a side is full.
 */
static void runq_v_insert(struct csched2_runqueue_data *rqd, size_t i,
			  struct csched2_unit *svc)
{
	size_t n = rqd->runq_n, off = rqd->runq_off;
	struct csched2_unit **q;

	if (off == 0 || off + n == rqd->runq_cap) {
		size_t cap = rqd->runq_cap < 4 * (n + 1) ? 4 * (n + 1) : rqd->runq_cap;
		size_t noff = (cap - n) / 2;

		if (cap > rqd->runq_cap) {
			q = xreallocarray(NULL, cap, sizeof(*q));
			if (n)
				memcpy(q + noff, rqd->runq_v + off, n * sizeof(*q));
			free(rqd->runq_v);
			rqd->runq_v = q;
			rqd->runq_cap = cap;
		} else if (n) {
			memmove(rqd->runq_v + noff, rqd->runq_v + off, n * sizeof(*q));
		}
		rqd->runq_off = off = noff;
	}
	q = rqd->runq_v + off;
	if (i < n - i) {
		if (i)
			memmove(q - 1, q, i * sizeof(*q));
		rqd->runq_off = off - 1;
		q--;
	} else if (n - i) {
		memmove(q + i + 1, q + i, (n - i) * sizeof(*q));
	}
	q[i] = svc;
	rqd->runq_n = n + 1;
}

/*
 * Sorted by credit; a vCPU goes after all those with equal credit: before
 * the first queued vCPU it has more credit than, as Xen's walk of the list.
 * The walk goes over rqd->runq_v, the queued vCPUs in the list's order,
 * rather than along the list: the same comparisons in the same order, but
 * the loads of the vCPUs' credits do not wait on each other (at 1024 pCPUs
 * a socket's runqueue holds hundreds, a cache miss each, and the list walk
 * was an eighth of a run's CPU time).
 */
static void runq_insert(struct scheduler *ops, struct csched2_unit *svc)
{
	struct csched2_runqueue_data *rqd = c2rqd(ops, svc->unit->processor);
	struct csched2_unit **q = rqd->runq_v + rqd->runq_off;
	size_t i, n = rqd->runq_n;
	int credit = svc->credit;

	for (i = 0; i < n; i++)
		if (credit > q[i]->credit)
			break;
	c2_list_add_tail(&svc->runq_elem, i < n ? &q[i]->runq_elem : &rqd->runq);
	runq_v_insert(rqd, i, svc);
	svc->runq_rqd = rqd;
	if (TRACING(ops->sim))
		trace_runq_pos(ops, rqd, svc);
}

static void runq_remove(struct csched2_unit *svc)
{
	struct csched2_runqueue_data *rqd = svc->runq_rqd;
	struct csched2_unit **q = rqd->runq_v + rqd->runq_off;
	size_t i = 0, n = rqd->runq_n;

	while (q[i] != svc)
		i++;
	if (i < n - 1 - i) {
		if (i)
			memmove(q + 1, q, i * sizeof(*q));
		rqd->runq_off++;
	} else if (n - 1 - i) {
		memmove(q + i, q + i + 1, (n - 1 - i) * sizeof(*q));
	}
	rqd->runq_n = n - 1;
	svc->runq_rqd = NULL;
	c2_list_del_init(&svc->runq_elem);
}

static void tickle_cpu(struct scheduler *ops, int cpu, struct csched2_runqueue_data *rqd)
{
	cpumask_set(rqd->tickled, (unsigned)cpu);
	smt_idle_mask_clear(ops, cpu, rqd->smt_idle);
	cpu_raise_softirq(c2sim(ops), cpu);
}

/*
 * sleep's and migrate's poke at a vCPU's pCPU: a tickle since a76645240b
 * (2017), a bare SCHEDULE_SOFTIRQ before (the pCPU is not marked tickled).
 */
static void poke_cpu(struct scheduler *ops, int cpu, struct csched2_runqueue_data *rqd)
{
	if (csched2_priv(ops)->tickle_mark)
		tickle_cpu(ops, cpu, rqd);
	else
		cpu_raise_softirq(c2sim(ops), cpu);
}

/* --- tickling --- */

/*
 * What runq_tickle's scoring reads of the scheduler for every pCPU it
 * scores, read once per tickle: nothing the scoring does (burn_credits on
 * the pCPU's current vCPU, a trace record) changes any of it.
 */
struct tickle_ctx {
	struct scheduler *ops;
	const struct pcpu *pcpus;   /* the sim's, for curr_on */
	struct csched2_unit *new;
	stime_t now;
	/* The running vCPU has used up its ratelimit protection (with
	 * tolerance) when it has run longer than protect; no protection at
	 * all without the tickle ratelimit or with a ratelimit within the
	 * tolerance (ratelimit false). */
	stime_t protect;
	bool ratelimit;
};

static void tickle_ctx_init(struct tickle_ctx *t, struct scheduler *ops,
			    struct csched2_unit *new, stime_t now)
{
	struct csched2_private *prv = csched2_priv(ops);
	stime_t rl = USEC(prv->ratelimit_us);

	t->ops = ops;
	t->pcpus = c2sim(ops)->pcpus;
	t->new = new;
	t->now = now;
	t->ratelimit = prv->tickle_ratelimit && rl > CSCHED2_RATELIMIT_TICKLE_TOLERANCE;
	t->protect = rl - CSCHED2_RATELIMIT_TICKLE_TOLERANCE;
}

/*
 * How much we would gain by having 'new' preempt what runs on cpu:
 * negative when we would not.  Positive scores get CREDIT_INIT for cpu
 * being in new's soft affinity and CREDIT_INIT for cpu being outside the
 * current vCPU's, so soft affinity orders the candidates before credit.
 * Inlined into runq_tickle's loop over every busy pCPU of a runqueue (a
 * call each was a tenth of a 1024-pCPU run's instructions); a pCPU whose
 * vCPU is still inside its ratelimit (Xen's is_preemptable false) is
 * refused before anything else is looked up, as most are on a busy host.
 */
static inline __attribute__((always_inline)) stime_t
tickle_score(const struct tickle_ctx *t, int cpu)
{
	struct scheduler *ops = t->ops;
	struct csched2_private *prv = csched2_priv(ops);
	struct vcpu *curv = t->pcpus[cpu].unit;    /* curr_on */
	struct csched2_unit *new = t->new, *cur;
	stime_t score;

	/*
	 * Not an idle pCPU, nor one still inside its ratelimit (4b6923acff,
	 * patch 24 of the series).  A vCPU's svc has it as its unit, so its
	 * ratelimit is read on the vCPU, before its svc is looked at.
	 */
	if (is_idle_vcpu(curv)) {
		cur = csched2_unit(ops, curv);
		if (is_idle_unit(cur))
			return -1;
	} else {
		if (t->ratelimit && t->now - curv->state_entry_time <= t->protect)
			return -1;
		cur = curv->sched_priv;
		if (is_idle_unit(cur))
			return -1;
	}
	if (t->ratelimit && t->now - cur->unit->state_entry_time <= t->protect)
		return -1;
	burn_credits(ops, c2rqd(ops, cpu), cur, t->now);
	/* Xen subtracts the two int credits as ints: with the credits of
	 * before 2020 (no floor) that can wrap, and so here. */
	score = (int32_t)((uint32_t)new->credit - (uint32_t)cur->credit);
	if (new->unit->processor != cpu)
		score -= prv->migrate_resist;
	if (score > 0) {
		if (c2_in_soft(ops, new->unit, cpu))
			score += CSCHED2_CREDIT_INIT;
		if (!c2_in_soft(ops, cur->unit, cpu))
			score += CSCHED2_CREDIT_INIT;
	}
	if (TRACING(ops->sim))
		trace_tickle_check(ops->sim, cpu, cur, score);
	return score;
}

static void tickle_and_record(struct scheduler *ops, struct csched2_unit *new, int ipid,
			      struct csched2_runqueue_data *rqd)
{
	if (TRACING(ops->sim))
		trace_tickle(ops->sim, new, ipid);
	tickle_cpu(ops, ipid, rqd);
	/* Reserved for ipid (069cf39fb1, Sep 2016); before, anyone may take it. */
	if (csched2_priv(ops)->tickled_cpu)
		new->tickled_cpu = ipid;
}

/*
 * The 2016 (Xen 4.8) tickling: idle pCPUs first as today but with no
 * soft-affinity step, then the busy pCPU whose vCPU has the least credit,
 * own pCPU first, a move only when the gain exceeds MIGRATE_RESIST.
 */
static void runq_tickle_2016(struct scheduler *ops, struct csched2_unit *new, stime_t now)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct sim *s = c2sim(ops);
	int cpu = new->unit->processor, ipid = -1, i;
	struct csched2_runqueue_data *rqd = c2rqd(ops, cpu);
	struct cpumask *aff = prv->scratch, *mask = prv->scratch2;
	stime_t lowest = 1 << 30;
	unsigned c;

	/*
	 * Before e4c1792b58 (Jul 2016): new's own pCPU first, idle or not, if
	 * what runs there has less credit; then the idle untickled pCPU after
	 * it (not itself), then the lowest credit elsewhere.
	 */
	if (!prv->tickle_idle_first) {
		struct csched2_unit *cur = curr_svc(ops, cpu);

		burn_credits(ops, rqd, cur, now);
		if (cur->credit < new->credit) {
			i = cpu;
			goto tickle_i;
		}
		cpumask_andnot(mask, rqd->idle, rqd->tickled);
		cpumask_and(mask, mask, c2_hard(ops, new->unit));
		i = (int)cpumask_cycle(cpu, mask);
		if (i < s->nr_cpus)
			goto tickle_i;
		cpumask_andnot(mask, rqd->active, rqd->idle);
		cpumask_andnot(mask, mask, rqd->tickled);
		cpumask_and(mask, mask, c2_hard(ops, new->unit));
		goto lowest_elsewhere;
	}

	cpumask_and(aff, c2_hard(ops, new->unit), cpupool_domain_master_cpumask(new->unit->dom));
	if (prv->smt_idle) {
		if (prv->cfg.smt_power_savings)
			cpumask_andnot(mask, rqd->idle, rqd->smt_idle);
		else
			cpumask_copy(mask, rqd->smt_idle);
		cpumask_and(mask, mask, aff);
		i = (int)cpumask_test_or_cycle(cpu, mask);
		if (i < s->nr_cpus)
			goto tickle_i;
	}
	cpumask_andnot(mask, rqd->idle, rqd->tickled);
	cpumask_and(mask, mask, aff);
	i = (int)cpumask_test_or_cycle(cpu, mask);
	if (i < s->nr_cpus)
		goto tickle_i;

	cpumask_andnot(mask, rqd->active, rqd->idle);
	cpumask_andnot(mask, mask, rqd->tickled);
	cpumask_and(mask, mask, aff);
	if (cpumask_test(mask, (unsigned)cpu)) {
		struct csched2_unit *cur = curr_svc(ops, cpu);

		burn_credits(ops, rqd, cur, now);
		if (cur->credit < new->credit) {
			i = cpu;
			goto tickle_i;
		}
	}
lowest_elsewhere:
	for_each_cpu(c, mask) {
		struct csched2_unit *cur;

		if ((int)c == cpu)
			continue;
		cur = curr_svc(ops, (int)c);
		if (is_idle_unit(cur))
			continue;
		burn_credits(ops, rqd, cur, now);
		if (cur->credit < lowest) {
			ipid = (int)c;
			lowest = cur->credit;
		}
	}
	if (ipid == -1 || lowest + prv->migrate_resist > new->credit)
		return;
	i = ipid;
tickle_i:
	tickle_and_record(ops, new, i, rqd);
}

/*
 * Pokes the pCPU that should pick 'new' up: a fully idle core, then any
 * idle untickled pCPU (soft affinity first, then hard), then the busy
 * pCPU with the best tickle_score (own pCPU first, taken at once if it is
 * in new's soft affinity).
 */
static void runq_tickle(struct scheduler *ops, struct csched2_unit *new, stime_t now)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct sim *s = c2sim(ops);
	struct vcpu *v = new->unit;
	int cpu = v->processor, ipid = -1, i, bs;
	struct csched2_runqueue_data *rqd = c2rqd(ops, cpu);
	struct cpumask *aff = prv->scratch, *mask = prv->scratch2;
	const struct cpumask *pool = cpupool_domain_master_cpumask(v->dom);
	struct cpumask_words w = rqd->words;
	struct tickle_ctx t;
	stime_t max = 0, score;
	unsigned c;

	if (TRACING(s))
		trace_tickle_new(s, new);
	if (!prv->tickle_score) {
		runq_tickle_2016(ops, new, now);
		return;
	}

	/*
	 * Exclusively pinned to an idle pCPU: no need to look further
	 * (b37b61d178, 2018; kept in every era: the steps below find that pCPU).
	 */
	if (prv->hard_affinity && (new->flags & CSFLAG_pinned) &&
	    cpumask_test(rqd->idle, (unsigned)cpu) &&
	    !cpumask_test(rqd->tickled, (unsigned)cpu)) {
		ipid = cpu;
		goto tickle;
	}

	/*
	 * Every mask below is and'ed with rqd's idle, smt_idle or active
	 * pCPUs, so only rqd's words are computed and scanned (a socket's
	 * runqueue is two words of a 1024-pCPU mask); the other words of the
	 * scratch masks are never read.  Each step's masks are made in one
	 * pass over those words (aff is the step's affinity and'ed with the
	 * pool, which every use of it is), and a candidate mask found empty
	 * is not scanned: cpumask_test_or_cycle_words finds nothing in it.
	 */
	for_each_affinity_balance_step(bs) {
		const struct cpumask *a0 = v->hard, *a1 = NULL;
		uint64_t any = 0;

		if (bs == BALANCE_SOFT_AFFINITY) {
			if (!c2_has_soft(ops, v))
				continue;
			if (v->soft_aff_effective)   /* affinity_balance_cpumask's soft ∩ hard */
				a1 = v->soft;
		} else if (!prv->hard_affinity) {
			a0 = pool;
		}
		for (unsigned k = w.lo; k < w.hi; k++) {
			uint64_t a = a0->w[k] & pool->w[k];

			if (a1)
				a &= a1->w[k];
			aff->w[k] = a;
		}

		/* A fully idle core first (9bb9c73884; smt_idle=off skips it). */
		if (prv->smt_idle) {
			bool save = prv->cfg.smt_power_savings;

			for (unsigned k = w.lo; k < w.hi; k++) {
				uint64_t m = save ? rqd->idle->w[k] & ~rqd->smt_idle->w[k] :
						    rqd->smt_idle->w[k];

				mask->w[k] = m & aff->w[k];
				any |= mask->w[k];
			}
			if (any) {
				i = (int)cpumask_test_or_cycle_words(cpu, mask, w);
				if (i < s->nr_cpus) {
					ipid = i;
					goto tickle;
				}
			}
		}

		any = 0;
		for (unsigned k = w.lo; k < w.hi; k++) {
			mask->w[k] = rqd->idle->w[k] & ~rqd->tickled->w[k] & aff->w[k];
			any |= mask->w[k];
		}
		if (any) {
			i = (int)cpumask_test_or_cycle_words(cpu, mask, w);
			if (i < s->nr_cpus) {
				ipid = i;
				goto tickle;
			}
		}
	}

	/* aff now holds hard ∩ pool, from the last step. */
	tickle_ctx_init(&t, ops, new, now);
	for (unsigned k = w.lo; k < w.hi; k++)
		mask->w[k] = rqd->active->w[k] & ~rqd->idle->w[k] & ~rqd->tickled->w[k] &
			     aff->w[k];
	if (cpumask_test(mask, (unsigned)cpu)) {
		cpumask_clear_cpu(mask, (unsigned)cpu);
		score = tickle_score(&t, cpu);
		if (score > max) {
			max = score;
			ipid = cpu;
			if (c2_in_soft(ops, v, cpu))
				goto tickle;
		}
	}
	/* for_each_cpu over rqd's words, a word at a time (tickle_score leaves mask alone) */
	for (unsigned k = w.lo; k < w.hi; k++) {
		for (uint64_t bits = mask->w[k]; bits; bits &= bits - 1) {
			c = k * 64 + (unsigned)__builtin_ctzll(bits);
			score = tickle_score(&t, (int)c);
			if (score > max) {
				max = score;
				ipid = (int)c;
			}
		}
	}
	if (ipid == -1)
		return;
tickle:
	tickle_and_record(ops, new, ipid, rqd);
}

/* --- credit reset --- */

/*
 * The epoch is over: every vCPU of the runqueue, blocked ones included,
 * gets CREDIT_INIT more (twice that if snext sits at CREDIT_MIN), clipped
 * to CREDIT_INIT + CARRYOVER_MAX.  The 2016 code added CREDIT_INIT times
 * 1 + (-credit / CREDIT_INIT) when snext was below -CREDIT_INIT.
 */
static void reset_credit(struct scheduler *ops, int cpu, stime_t now,
			 struct csched2_unit *snext)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct csched2_runqueue_data *rqd = c2rqd(ops, cpu);
	int64_t add = CSCHED2_CREDIT_INIT;
	struct c2_list *it;

	if (prv->reset_top) {
		if (snext->credit == CSCHED2_CREDIT_MIN)
			add += CSCHED2_CREDIT_INIT;
	} else if (snext->credit < -CSCHED2_CREDIT_INIT) {
		add *= 1 + (-(int64_t)snext->credit) / CSCHED2_CREDIT_INIT;
	}

	for (it = rqd->svc.next; it != &rqd->svc; it = it->next) {
		struct csched2_unit *svc = rqd_elem(it);
		int svc_cpu = svc->unit->processor;
		int64_t credit;

		/* Before 4fa4f8a3cd (2017) a running vCPU's run since start_time is forgiven. */
		if (prv->reset_burn && curr_on(c2sim(ops), svc_cpu) == svc->unit) {
			burn_credits(ops, rqd, svc, now);
			if (svc->budget <= 0)
				tickle_cpu(ops, svc_cpu, rqd);
		}
		credit = svc->credit + add;
		/* With the multiplier (before 2020) the int credit can wrap, as in Xen. */
		if (!prv->reset_top)
			credit = (int32_t)(uint32_t)(uint64_t)credit;
		if (credit > CSCHED2_CREDIT_INIT + CSCHED2_CARRYOVER_MAX)
			credit = CSCHED2_CREDIT_INIT + CSCHED2_CARRYOVER_MAX;
		if (TRACING(ops->sim))
			trace_csched2_credit_reset(ops->sim, trace_cpu_or(ops->sim, cpu), svc->unit,
						   svc->credit, (int)credit);
		svc->credit = (int)credit;
		svc->start_time = now;
	}
}

/* --- caps: budgets, parking --- */

static void park_unit(struct scheduler *ops, struct csched2_unit *svc)
{
	sched_set_pause_flags(svc->unit, VPF_PARKED);
	if (unit_on_runq(svc)) {
		runq_remove(svc);
		update_load(ops, svc->rqd, svc, -1, sim_now(c2sim(ops)));
	}
	c2_list_add(&svc->parked_elem, &svc->sdom->parked_units);
}

/* Ensures svc has budget to run; false (and svc parked) when there is none. */
static bool unit_grab_budget(struct scheduler *ops, struct csched2_unit *svc)
{
	struct csched2_dom *sdom = svc->sdom;

	if (svc->budget > 0)
		return true;
	/* An overrun (budget < 0) is paid from the domain's pool. */
	sdom->budget += svc->budget;
	if (sdom->budget > 0) {
		stime_t take = sdom->budget >= svc->budget_quota ? svc->budget_quota : sdom->budget;

		svc->budget = take;
		sdom->budget -= take;
	} else {
		svc->budget = 0;
		park_unit(ops, svc);
	}
	return svc->budget > 0;
}

static void unit_return_budget(struct csched2_unit *svc, struct c2_list *parked)
{
	struct csched2_dom *sdom = svc->sdom;

	sdom->budget += svc->budget;
	svc->budget = 0;
	if (sdom->budget > 0)
		c2_list_splice_init(&sdom->parked_units, parked);
}

static void unpark_parked_units(struct scheduler *ops, struct c2_list *units)
{
	while (!c2_list_empty(units)) {
		struct csched2_unit *svc = parked_elem(units->next);

		sched_clear_pause_flags(svc->unit, VPF_PARKED);
		if (svc->flags & CSFLAG_scheduled) {
			/* Still being switched out: context_saved will queue it. */
			svc->flags |= CSFLAG_delayed_runq_add;
		} else if (vcpu_runnable(svc->unit)) {
			stime_t now = sim_now(c2sim(ops));

			update_load(ops, svc->rqd, svc, 1, now);
			runq_insert(ops, svc);
			runq_tickle(ops, svc, now);
		}
		c2_list_del_init(&svc->parked_elem);
	}
}

static void do_replenish(struct csched2_private *prv, struct csched2_dom *sdom)
{
	sdom->next_repl += prv->bdgt_repl_period;
	sdom->budget += sdom->tot_budget;
}

static void replenish_domain_budget(struct timer *t, void *data)
{
	struct csched2_dom *sdom = data;
	struct scheduler *ops = sdom->ops;
	struct csched2_private *prv = csched2_priv(ops);
	stime_t now = sim_now(c2sim(ops));
	struct c2_list parked;

	/* Xen's timer fires on the pCPU it was bound to: its tickles are local there. */
	c2sim(ops)->this_cpu = sdom->repl_cpu;
	c2_list_init(&parked);
	do_replenish(prv, sdom);
	/* Late by whole periods: each missed one still adds its budget. */
	while (sdom->next_repl <= now)
		do_replenish(prv, sdom);
	if (sdom->budget > 0) {
		if (sdom->budget > sdom->tot_budget)
			sdom->budget = sdom->tot_budget;
		c2_list_splice_init(&sdom->parked_units, &parked);
		unpark_parked_units(ops, &parked);
	}
	timer_set(&c2sim(ops)->q, t, sdom->next_repl);
}

/* --- placement --- */

/*
 * Where to go when res_pick cannot decide: the current pCPU, then the
 * current runqueue, inside the soft affinity and then the hard one; and
 * as a last resort any pCPU of the hard affinity.
 */
static int get_fallback_cpu(struct scheduler *ops, struct csched2_unit *svc)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct vcpu *v = svc->unit;
	struct cpumask *m = prv->scratch;
	int bs;

	for_each_affinity_balance_step(bs) {
		int cpu = v->processor;

		if (bs == BALANCE_SOFT_AFFINITY && !c2_has_soft(ops, v))
			continue;
		affinity_balance_cpumask(v, (enum balance_step)bs, m);
		cpumask_and(m, m, cpupool_domain_master_cpumask(v->dom));
		if (cpumask_test(m, (unsigned)cpu))
			return cpu;
		if (svc->rqd && cpumask_intersects(m, svc->rqd->active)) {
			cpumask_and(m, m, svc->rqd->active);
			return (int)cpumask_first(m);
		}
		if (bs == BALANCE_SOFT_AFFINITY)
			continue;
		return (int)cpumask_first(m);
	}
	return v->processor;
}

/*
 * A pCPU of m (not empty) in rqd: the next after rqd's pick_bias, which
 * then remembers it, since 6348214c5d (Apr 2017); before, cpumask_any().
 */
static int pick_in(struct scheduler *ops, struct csched2_runqueue_data *rqd,
		   const struct cpumask *m)
{
	int cpu;

	if (!csched2_priv(ops)->pick_bias)
		return sim_cpumask_any(c2sim(ops), m);
	cpu = (int)cpumask_cycle(rqd->pick_bias, m);
	rqd->pick_bias = cpu;
	return cpu;
}

/*
 * The runqueue with the lowest load (counting ours without our own share),
 * preferring those that hold part of the soft affinity; the pCPU is the
 * next after the runqueue's pick_bias.  A balance_load migrate request
 * names the runqueue instead.
 *
 * 'locked' is a runqueue whose lock Xen's caller holds while the vCPU is
 * not (yet) assigned to it: Xen reads other runqueues' loads under a
 * trylock, which fails on that one, so it is left out (at insert, the
 * runqueue of the vCPU's initial pCPU).
 */
static int res_pick(struct scheduler *ops, struct vcpu *v,
		    const struct csched2_runqueue_data *locked)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct csched2_unit *svc = v->sched_priv;
	struct cpumask *hard = prv->scratch3, *m = prv->scratch2;
	struct csched2_runqueue_data *min_rqd = NULL, *min_s_rqd = NULL;
	stime_t min_avgload = STIME_MAX, min_s_avgload = STIME_MAX;
	bool has_soft;
	int new_cpu, r;

	cpumask_and(hard, c2_hard(ops, v), cpupool_domain_master_cpumask(v->dom));

	if (svc->flags & CSFLAG_runq_migrate_request) {
		svc->flags &= ~CSFLAG_runq_migrate_request;
		if (svc->migrate_rqd && cpumask_intersects(hard, svc->migrate_rqd->active)) {
			cpumask_and(m, hard, svc->migrate_rqd->active);
			/* Before b6fa4c81b2: the pCPU after v's in the runqueue. */
			new_cpu = prv->hard_affinity ? pick_in(ops, svc->migrate_rqd, m) :
				  (int)cpumask_cycle(v->processor, m);
			if (TRACING(ops->sim))
				trace_csched2_picked_cpu(ops->sim, trc_cpu(ops->sim, v), v,
							 (uint64_t)min_avgload, 0xffffu, new_cpu);
			return new_cpu;
		}
	}

	has_soft = c2_has_soft(ops, v);
	for (r = 0; r < prv->nr_rqs; r++) {
		struct csched2_runqueue_data *rqd = prv->rql[r];
		stime_t load;

		if (!cpumask_intersects(hard, rqd->active))
			continue;
		if (rqd == svc->rqd) {
			load = rqd->b_avgload - svc->avgload;
			if (load < 0 && prv->load_2016)        /* d933b37eb4 */
				load = 0;
		} else if (rqd == locked) {
			load = STIME_MAX;
		} else {
			load = rqd->b_avgload;
		}
		if (has_soft && load < min_s_avgload) {
			cpumask_and(m, hard, rqd->active);
			if (cpumask_intersects(m, v->soft)) {
				min_s_avgload = load;
				min_s_rqd = rqd;
			}
		}
		if (load < min_avgload) {
			min_avgload = load;
			min_rqd = rqd;
		}
	}

	/*
	 * With a soft-affinity runqueue chosen, Xen still cycles from (and
	 * updates) the pick_bias of min_rqd, the least loaded runqueue overall,
	 * not min_s_rqd's: it looks unintended, but it is what every Xen since
	 * 4.10 does, so the model does it too (the xen-diff soft-affinity
	 * scenario diverged on it).
	 */
	if (has_soft && min_s_rqd) {
		cpumask_and(m, hard, v->soft);
		cpumask_and(m, m, min_s_rqd->active);
	} else if (min_rqd) {
		cpumask_and(m, hard, min_rqd->active);
	} else {
		new_cpu = get_fallback_cpu(ops, svc);
		if (TRACING(ops->sim))
			trace_csched2_picked_cpu(ops->sim, trc_cpu(ops->sim, v), v,
						 (uint64_t)c2rqd(ops, new_cpu)->b_avgload,
						 (unsigned)c2rqd(ops, new_cpu)->id, new_cpu);
		return new_cpu;
	}
	new_cpu = prv->hard_affinity ? pick_in(ops, min_rqd, m) :
		  (int)cpumask_cycle(v->processor, m);
	if (TRACING(ops->sim))
		trace_csched2_picked_cpu(ops->sim, trc_cpu(ops->sim, v), v, (uint64_t)min_avgload,
					 (unsigned)min_rqd->id, new_cpu);
	return new_cpu;
}

static int csched2_res_pick(struct scheduler *ops, struct vcpu *v)
{
	return res_pick(ops, v, NULL);
}

/* --- load balancing --- */

struct balance_state {
	stime_t load_delta;
	struct csched2_unit *best_push_svc, *best_pull_svc;
	struct csched2_runqueue_data *lrqd, *orqd;
};

/* Keeps (push, pull) if it leaves the two loads closer than the best so far. */
static void consider(struct balance_state *st, struct csched2_unit *push_svc,
		     struct csched2_unit *pull_svc)
{
	stime_t l_load = st->lrqd->b_avgload, o_load = st->orqd->b_avgload, delta;

	if (push_svc) {
		l_load -= push_svc->avgload;
		o_load += push_svc->avgload;
	}
	if (pull_svc) {
		l_load += pull_svc->avgload;
		o_load -= pull_svc->avgload;
	}
	delta = l_load - o_load;
	if (delta < 0)
		delta = -delta;
	if (delta < st->load_delta) {
		st->load_delta = delta;
		st->best_push_svc = push_svc;
		st->best_pull_svc = pull_svc;
	}
}

/* The keys' order: by load, then by candidate (a total order, so any sort gives the same). */
static inline bool swap_key_less(const struct c2_swap_key *x, const struct c2_swap_key *y)
{
	return x->load2 < y->load2 || (x->load2 == y->load2 && x->first < y->first);
}

static void swap_key_sift(struct c2_swap_key *keys, size_t root, size_t n)
{
	for (size_t child; (child = 2 * root + 1) < n; root = child) {
		struct c2_swap_key t;

		if (child + 1 < n && swap_key_less(&keys[child], &keys[child + 1]))
			child++;
		if (!swap_key_less(&keys[root], &keys[child]))
			return;
		t = keys[root];
		keys[root] = keys[child];
		keys[child] = t;
	}
}

/*
 * Sorts keys[0..n) in swap_key_less order: by insertion up to 32 keys
 * (a runqueue's few dozen candidates), by heap above; inline comparisons
 * instead of qsort's call per comparison and its merge buffer.
 */
static void swap_keys_sort(struct c2_swap_key *keys, size_t n)
{
	if (n <= 32) {
		for (size_t k = 1; k < n; k++) {
			struct c2_swap_key t = keys[k];
			size_t j = k;

			for (; j > 0 && swap_key_less(&t, &keys[j - 1]); j--)
				keys[j] = keys[j - 1];
			keys[j] = t;
		}
		return;
	}
	for (size_t k = n / 2; k-- > 0;)
		swap_key_sift(keys, k, n);
	for (size_t end = n - 1; end > 0; end--) {
		struct c2_swap_key t = keys[0];

		keys[0] = keys[end];
		keys[end] = t;
		swap_key_sift(keys, 0, end);
	}
}

/*
 * keys[k] = (twice candidate k's load, k) for k < n on entry; sorts them
 * by load and keeps one key per distinct load, the first candidate's.
 * Returns the number kept.
 */
static size_t swap_keys_build(struct c2_swap_key *keys, size_t n)
{
	size_t kept = 0;

	if (!n)
		return 0;       /* keys may be NULL then */
	swap_keys_sort(keys, n);
	for (size_t k = 0; k < n; k++)
		if (kept == 0 || keys[kept - 1].load2 != keys[k].load2)
			keys[kept++] = keys[k];
	return kept;
}

/*
 * Of the pull candidates (keys, from swap_keys_build), the one that
 * leaves |base + 2 pull| least, the first in list order among equals:
 * the nearest loads on either side of -base, by binary search.  false
 * when there are none.
 */
static bool best_swap(const struct c2_swap_key *keys, size_t nk, stime_t base, stime_t *delta,
		      size_t *first)
{
	stime_t want = -base;
	size_t lo = 0, hi = nk;

	if (!nk)
		return false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (keys[mid].load2 < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* keys[lo] is the least load at or above want, keys[lo - 1] the greatest below */
	if (lo == nk || (lo > 0 && (want - keys[lo - 1].load2 < keys[lo].load2 - want ||
				   (want - keys[lo - 1].load2 == keys[lo].load2 - want &&
				    keys[lo - 1].first < keys[lo].first))))
		lo--;
	*delta = keys[lo].load2 >= want ? keys[lo].load2 - want : want - keys[lo].load2;
	*first = keys[lo].first;
	return true;
}

/*
 * consider(st, push_svc, pulls[k]) for every pull candidate k in list
 * order, as Xen's inner loop does: the loads' difference after the swap
 * is (lrqd - orqd - 2 push) + 2 pull, so the pair that would win is the
 * first of those nearest to balance, and it wins only if it beats the
 * best so far.  Xen examines every pair; with hundreds of vCPUs a side
 * (1024 pCPUs, xl's soft affinities) that was a fifth of the run.
 */
static void consider_swaps(struct balance_state *st, struct csched2_unit *push_svc,
			   struct csched2_unit *const *pulls, const struct c2_swap_key *keys,
			   size_t nk)
{
	stime_t base = st->lrqd->b_avgload - st->orqd->b_avgload - 2 * push_svc->avgload;
	stime_t delta;
	size_t first;

	if (best_swap(keys, nk, base, &delta, &first) && delta < st->load_delta) {
		st->load_delta = delta;
		st->best_push_svc = push_svc;
		st->best_pull_svc = pulls[first];
	}
}

/*
 * Moves svc to trqd.  A vCPU that is scheduled cannot move under its pCPU:
 * it is flagged VPF_MIGRATING with a request naming trqd, and its pCPU is
 * poked; the core moves it once it is off (res_pick honours the request).
 */
static void migrate(struct scheduler *ops, struct csched2_unit *svc,
		    struct csched2_runqueue_data *trqd, stime_t now)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct vcpu *v = svc->unit;
	int cpu = v->processor;

	if (TRACING(ops->sim))
		trace_csched2_migrate(ops->sim, trc_cpu(ops->sim, v), v, (unsigned)svc->rqd->id,
				      (unsigned)trqd->id);
	if (svc->flags & CSFLAG_scheduled) {
		svc->migrate_rqd = trqd;
		sched_set_pause_flags(v, VPF_MIGRATING);
		svc->flags |= CSFLAG_runq_migrate_request;
		/* Poked off its pCPU since 115e4c5e52; before, it moves when next descheduled. */
		if (prv->migrate_kick)
			poke_cpu(ops, cpu, svc->rqd);
	} else {
		bool on_runq = false;
		struct cpumask *m = prv->scratch;

		/* Before adf7d04317 (May 2016) the vCPU's own average moved too. */
		struct csched2_unit *own = prv->load_2016 ? NULL : svc;

		if (unit_on_runq(svc)) {
			runq_remove(svc);
			update_load(ops, svc->rqd, own, -1, now);
			on_runq = true;
		}
		_runq_deassign(svc);
		cpumask_and(m, c2_hard(ops, v), cpupool_domain_master_cpumask(v->dom));
		cpumask_and(m, m, trqd->active);
		sched_set_res(c2sim(ops), v, pick_in(ops, trqd, m));
		_runq_assign(svc, trqd);
		if (on_runq) {
			update_load(ops, svc->rqd, own, 1, now);
			runq_insert(ops, svc);
			runq_tickle(ops, svc, now);
		}
	}
}

static bool unit_is_migrateable(struct scheduler *ops, const struct csched2_unit *svc,
				const struct csched2_runqueue_data *rqd)
{
	/* hard ∩ pool ∩ rqd's pCPUs, on rqd's words */
	return !(svc->flags & CSFLAG_runq_migrate_request) &&
	       cpumask_intersects3_words(c2_hard(ops, svc->unit),
					 cpupool_domain_master_cpumask(svc->unit->dom), rqd->active,
					 rqd->words);
}

/*
 * After a reset on cpu's runqueue: find the runqueue whose load differs
 * most from ours; if the gap is worth it (a whole vCPU when under 100 %,
 * an eighth when over), try every push, pull and swap and do the one that
 * leaves the loads closest.
 */
static void balance_load(struct scheduler *ops, int cpu, stime_t now)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct balance_state st = { 0 };
	struct csched2_runqueue_data *max_delta_rqd = NULL;
	struct c2_list *push_it, *pull_it;
	bool inner_load_updated = false;
	size_t nr_pulls = 0, nr_keys = 0;
	unsigned P = prv->load_precision_shift;
	stime_t load_max;
	int r, cpus_max;

	st.lrqd = c2rqd(ops, cpu);
	update_runq_load(ops, st.lrqd, 0, now);

	st.load_delta = 0;
	for (r = 0; r < prv->nr_rqs; r++) {
		stime_t delta;

		st.orqd = prv->rql[r];
		if (st.orqd == st.lrqd)
			continue;
		update_runq_load(ops, st.orqd, 0, now);
		delta = st.lrqd->b_avgload - st.orqd->b_avgload;
		if (delta < 0)
			delta = -delta;
		if (delta > st.load_delta) {
			st.load_delta = delta;
			max_delta_rqd = st.orqd;
		}
	}
	if (!max_delta_rqd)
		return;

	/*
	 * Xen compares against st.orqd here, which the loop above left at the
	 * last runqueue of the list, not at max_delta_rqd; so do we.
	 */
	load_max = st.lrqd->b_avgload;
	if (st.orqd->b_avgload > load_max)
		load_max = st.orqd->b_avgload;
	cpus_max = st.lrqd->nr_cpus > st.orqd->nr_cpus ? st.lrqd->nr_cpus : st.orqd->nr_cpus;
	if (TRACING(ops->sim))
		trace_csched2_load_check(ops->sim, trace_cpu_or(ops->sim, cpu),
					 (unsigned)st.lrqd->id, (unsigned)st.orqd->id,
					 (uint32_t)st.load_delta);
	if (load_max < ((stime_t)cpus_max << P)) {
		if (st.load_delta < (1LL << (P + 0)))    /* credit2_balance_under = 0 */
			return;
	} else if (st.load_delta < (1LL << (P - 3))) {  /* credit2_balance_over = -3 */
		return;
	}

	st.orqd = max_delta_rqd;
	if (TRACING(ops->sim))
		trace_csched2_load_balance(ops->sim, trace_cpu_or(ops->sim, cpu),
					   (uint64_t)st.lrqd->b_avgload, (uint64_t)st.orqd->b_avgload,
					   (unsigned)st.lrqd->id, (unsigned)st.orqd->id);
	/*
	 * Xen asks unit_is_migrateable of every pull candidate once per push
	 * candidate; the answer depends on the pull candidate alone and
	 * nothing below changes it, so it is asked once here, and the pairs
	 * are considered in Xen's order.  At 1024 pCPUs with soft affinities
	 * the repeated question was a fifth of the run (doc/performance.md).
	 */
	for (pull_it = st.orqd->svc.next; pull_it != &st.orqd->svc; pull_it = pull_it->next) {
		struct csched2_unit *pull_svc = rqd_elem(pull_it);

		if (!unit_is_migrateable(ops, pull_svc, st.lrqd))
			continue;
		if (nr_pulls == prv->pulls_cap) {
			prv->pulls_cap = prv->pulls_cap ? 2 * prv->pulls_cap : 64;
			prv->pulls = xreallocarray(prv->pulls, prv->pulls_cap, sizeof(*prv->pulls));
			prv->pull_keys = xreallocarray(prv->pull_keys, prv->pulls_cap,
						       sizeof(*prv->pull_keys));
		}
		prv->pulls[nr_pulls++] = pull_svc;
	}
	for (push_it = st.lrqd->svc.next; push_it != &st.lrqd->svc; push_it = push_it->next) {
		struct csched2_unit *push_svc = rqd_elem(push_it);

		update_svc_load(ops, push_svc, 0, now);
		if (!unit_is_migrateable(ops, push_svc, st.orqd))
			continue;
		/* the first time, every pull candidate's load, as Xen's first inner loop */
		if (!inner_load_updated) {
			for (pull_it = st.orqd->svc.next; pull_it != &st.orqd->svc;
			     pull_it = pull_it->next)
				update_svc_load(ops, rqd_elem(pull_it), 0, now);
			for (size_t k = 0; k < nr_pulls; k++)
				prv->pull_keys[k] = (struct c2_swap_key){ 2 * prv->pulls[k]->avgload, k };
			nr_keys = swap_keys_build(prv->pull_keys, nr_pulls);
			inner_load_updated = true;
		}
		consider_swaps(&st, push_svc, prv->pulls, prv->pull_keys, nr_keys);
		consider(&st, push_svc, NULL);
	}
	for (size_t k = 0; k < nr_pulls; k++)
		consider(&st, NULL, prv->pulls[k]);

	if (st.best_push_svc)
		migrate(ops, st.best_push_svc, st.orqd, now);
	if (st.best_pull_svc)
		migrate(ops, st.best_pull_svc, st.lrqd, now);
}

/* --- choosing what runs --- */

/*
 * The best vCPU for cpu: scurr under ratelimit protection; otherwise the
 * first eligible runqueue entry if it beats scurr (or idle, when scurr
 * cannot or should not go on).  *skipped counts entries passed over, for
 * the 2016 reset test.
 */
static struct csched2_unit *runq_candidate(struct scheduler *ops,
					   struct csched2_runqueue_data *rqd,
					   struct csched2_unit *scurr, int cpu, stime_t now,
					   int *skipped)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct sim *s = c2sim(ops);
	struct csched2_unit *snext;
	struct c2_list *it, *next;
	bool yield = false, soft_aff_preempt = false;

	*skipped = 0;
	if (is_idle_unit(scurr)) {
		snext = scurr;
		goto check_runq;
	}

	yield = scurr->flags & CSFLAG_unit_yield;
	scurr->flags &= ~CSFLAG_unit_yield;

	if (!yield && prv->ratelimit_us && vcpu_runnable(scurr->unit) &&
	    now - scurr->unit->state_entry_time < USEC(prv->ratelimit_us)) {
		if (TRACING(s))
			trace_ratelimit(s, cpu, scurr->unit, now);
		return scurr;
	}

	/* Running outside its soft affinity while a pCPU of it idles? Let it go. */
	if (c2_has_soft(ops, scurr->unit) &&
	    !affinity_balance_test(scurr->unit, BALANCE_SOFT_AFFINITY, (unsigned)cpu)) {
		/* and'ed with rqd's idle pCPUs: only rqd's words matter */
		struct cpumask *m = prv->scratch;
		struct cpumask_words w = rqd->words;

		affinity_balance_cpumask_words(scurr->unit, BALANCE_SOFT_AFFINITY, m, w);
		cpumask_and_words(m, m, rqd->idle, w);
		cpumask_andnot_words(m, m, rqd->tickled, w);
		soft_aff_preempt = cpumask_intersects_words(
			m, cpupool_domain_master_cpumask(scurr->unit->dom), w);
	}

	if (vcpu_runnable(scurr->unit) && !soft_aff_preempt)
		snext = scurr;
	else
		snext = idle_svc(ops, cpu);

check_runq:
	for (it = rqd->runq.next; it != &rqd->runq; it = next) {
		struct csched2_unit *svc = runq_elem(it);

		next = it->next;      /* a failed budget grab parks svc: off the list */
		if (TRACING(s))
			trace_cand_check(s, cpu, rqd, it, snext, yield);
		/*
		 * Xen since the 2020 rework of this loop (with the top-credit reset
		 * test; 4.17 has it): stop at the first entry not better than
		 * snext, skip entries that cannot run here, and skip a capped one
		 * that finds no budget, looking on.  Before (4.8): every check
		 * counts a skipped entry, and the first entry passing them ends
		 * the scan, taken only if better and, when capped, with budget.
		 */
		if (prv->reset_top) {
			if (!yield && svc->credit <= snext->credit)
				break;
			if (!vcpu_runnable(svc->unit) ||
			    !cpumask_test(c2_hard(ops, svc->unit), (unsigned)cpu))
				continue;
			if (svc->tickled_cpu != -1 && svc->tickled_cpu != cpu &&
			    cpumask_test(rqd->tickled, (unsigned)svc->tickled_cpu))
				continue;
			if (svc->unit->processor != cpu &&
			    (int64_t)snext->credit + prv->migrate_resist > svc->credit)
				continue;
			if (has_cap(svc) && !unit_grab_budget(ops, svc))
				continue;
			snext = svc;
			break;
		}
		if (!vcpu_runnable(svc->unit))
			continue;
		if (!cpumask_test(c2_hard(ops, svc->unit), (unsigned)cpu)) {
			(*skipped)++;
			continue;
		}
		/* Reserved for the pCPU that was tickled for it. */
		if (svc->tickled_cpu != -1 && svc->tickled_cpu != cpu &&
		    cpumask_test(rqd->tickled, (unsigned)svc->tickled_cpu)) {
			(*skipped)++;
			continue;
		}
		if (svc->unit->processor != cpu &&
		    (int64_t)snext->credit + prv->migrate_resist > svc->credit) {
			(*skipped)++;
			continue;
		}
		if ((yield || svc->credit > snext->credit) &&
		    (!has_cap(svc) || unit_grab_budget(ops, svc)))
			snext = svc;
		break;
	}
	if (TRACING(s))
		trace_candidate(s, cpu, snext);
	return snext;
}

/*
 * The slice: until snext's credit falls to that of the best waiter (or of
 * the preempted vCPU about to be queued, with inflight), or to zero;
 * never beyond the cap budget; within [MIN_TIMER or the rest of the
 * ratelimit, MAX_TIMER].
 */
static stime_t csched2_runtime(struct scheduler *ops, int cpu, struct csched2_unit *snext,
			       stime_t now, bool has_inflight, int inflight)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct csched2_runqueue_data *rqd = c2rqd(ops, cpu);
	stime_t time, min_time = CSCHED2_MIN_TIMER, waiting = 0;
	int64_t rt_credit;

	/* An idle pCPU set a MAX_TIMER slice before 2c6f317a2b (Mar 2016). */
	if (is_idle_unit(snext))
		return prv->idle_no_timer ? -1 : prv->max_timer;

	if (prv->ratelimit_us) {
		stime_t ratelimit_min = USEC(prv->ratelimit_us);

		if (snext->unit->is_running)
			ratelimit_min = snext->unit->state_entry_time + USEC(prv->ratelimit_us) - now;
		if (ratelimit_min > min_time)
			min_time = ratelimit_min;
	}

	if (!c2_list_empty(&rqd->runq)) {
		struct csched2_unit *swait = runq_elem(rqd->runq.next);

		if (!is_idle_unit(swait) && swait->credit > 0)
			waiting = swait->credit;
	}
	if (has_inflight && inflight > waiting)
		waiting = inflight;
	/* An int in Xen, as the difference of two int credits: it can wrap. */
	rt_credit = waiting > 0 ? (int32_t)((uint32_t)snext->credit - (uint32_t)waiting) :
		    snext->credit;

	time = rt_credit > 0 ? c2t(rqd, rt_credit, snext) : 0;
	if (has_cap(snext) && snext->budget < time)
		time = snext->budget;
	if (time < min_time)
		time = min_time;
	else if (time > prv->max_timer)
		time = prv->max_timer;
	return time;
}

static void csched2_schedule(struct scheduler *ops, struct vcpu *currunit, stime_t now,
			     bool tasklet_work_scheduled, struct sched_decision *out)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct sim *s = c2sim(ops);
	int cpu = s->this_cpu >= 0 ? s->this_cpu : currunit->processor;
	struct csched2_runqueue_data *rqd = c2rqd(ops, cpu);
	struct csched2_unit *scurr = csched2_unit(ops, currunit), *snext;
	bool migrated = false, has_inflight = false, tickled = false;
	int skipped = 0, inflight = 0;

	if (cpumask_test(rqd->tickled, (unsigned)cpu)) {
		cpumask_clear_cpu(rqd->tickled, (unsigned)cpu);
		smt_idle_mask_set_untickled(ops, cpu, rqd);
		tickled = true;
	}
	if (TRACING(s))
		trace_schedule(s, cpu, rqd, tasklet_work_scheduled, is_idle_unit(scurr), tickled);

	burn_credits(ops, rqd, scurr, now);
	if (scurr->budget <= 0)
		unit_grab_budget(ops, scurr);

	if (tasklet_work_scheduled) {
		scurr->flags &= ~CSFLAG_unit_yield;
		if (TRACING(s))
			trace_words(s, cpu, TRC_CSCHED2_SCHED_TASKLET, 0, NULL);
		snext = idle_svc(ops, cpu);
	} else {
		snext = runq_candidate(ops, rqd, scurr, cpu, now, &skipped);
	}

	if (snext != scurr && !is_idle_unit(scurr) && vcpu_runnable(currunit))
		scurr->flags |= CSFLAG_delayed_runq_add;

	if (!is_idle_unit(snext)) {
		bool reset;

		if (snext != scurr) {
			runq_remove(snext);
			snext->flags |= CSFLAG_scheduled;
		} else if (prv->load_continue) {
			/* Its own average too, while it goes on running (89052b9fa2, 2021). */
			update_load(ops, rqd, snext, 0, now);
		}
		/* Before a9400d630b (2018) the idle mask is cleared after the balancing. */
		if (prv->idle_first && cpumask_test(rqd->idle, (unsigned)cpu)) {
			cpumask_clear_cpu(rqd->idle, (unsigned)cpu);
			smt_idle_mask_clear(ops, cpu, rqd->smt_idle);
		}

		if (prv->reset == RESET_TOP) {
			int top = snext->credit;

			if (!c2_list_empty(&rqd->runq) && runq_elem(rqd->runq.next)->credit > top)
				top = runq_elem(rqd->runq.next)->credit;
			reset = top <= CSCHED2_CREDIT_RESET;
		} else if (prv->reset == RESET_SKIPPED) {
			reset = skipped == 0 && snext->credit <= CSCHED2_CREDIT_RESET;
		} else {
			reset = snext->credit <= CSCHED2_CREDIT_RESET;
		}
		if (reset) {
			reset_credit(ops, cpu, now, snext);
			balance_load(ops, cpu, now);
		}
		if (!prv->idle_first && cpumask_test(rqd->idle, (unsigned)cpu)) {
			cpumask_clear_cpu(rqd->idle, (unsigned)cpu);
			smt_idle_mask_clear(ops, cpu, rqd->smt_idle);
		}

		if (prv->inflight && (scurr->flags & CSFLAG_delayed_runq_add)) {
			has_inflight = true;
			inflight = scurr->credit;
		}
		snext->start_time = now;
		snext->tickled_cpu = -1;
		if (snext->unit->processor != cpu) {
			snext->credit += CSCHED2_MIGRATE_COMPENSATION;
			sched_set_res(s, snext->unit, cpu);
			migrated = true;
		}
	} else {
		if (tasklet_work_scheduled) {
			if (cpumask_test(rqd->idle, (unsigned)cpu)) {
				cpumask_clear_cpu(rqd->idle, (unsigned)cpu);
				smt_idle_mask_clear(ops, cpu, rqd->smt_idle);
			}
		} else if (!cpumask_test(rqd->idle, (unsigned)cpu)) {
			cpumask_set(rqd->idle, (unsigned)cpu);
			smt_idle_mask_set_untickled(ops, cpu, rqd);
		}
		/* Keep the average moving even when nothing happens. */
		update_load(ops, rqd, NULL, 0, now);
	}

	out->time_slice = csched2_runtime(ops, cpu, snext, now, has_inflight, inflight);
	out->next = snext->unit;
	out->migrated = migrated;
}

/* --- vCPU lifecycle hooks --- */

static void csched2_unit_sleep(struct scheduler *ops, struct vcpu *v)
{
	struct csched2_unit *svc = v->sched_priv;

	if (curr_on(c2sim(ops), v->processor) == v) {
		poke_cpu(ops, v->processor, svc->rqd);
	} else if (unit_on_runq(svc)) {
		update_load(ops, svc->rqd, svc, -1, sim_now(c2sim(ops)));
		runq_remove(svc);
	} else {
		svc->flags &= ~CSFLAG_delayed_runq_add;
	}
}

static void csched2_unit_wake(struct scheduler *ops, struct vcpu *v)
{
	struct csched2_unit *svc = v->sched_priv;
	stime_t now;

	if (curr_on(c2sim(ops), v->processor) == v || unit_on_runq(svc))
		return;
	/* Not yet off its old pCPU: context_saved will queue it. */
	if (svc->flags & CSFLAG_scheduled) {
		svc->flags |= CSFLAG_delayed_runq_add;
		return;
	}
	if (!svc->rqd)
		runq_assign(ops, v);
	now = sim_now(c2sim(ops));
	update_load(ops, svc->rqd, svc, 1, now);
	runq_insert(ops, svc);
	runq_tickle(ops, svc, now);
}

/* Credit2 had no yield before a7fa4d5f53 (Sep 2016): the core just reschedules. */
static void csched2_unit_yield(struct scheduler *ops, struct vcpu *v)
{
	struct csched2_unit *svc = v->sched_priv;

	if (csched2_priv(ops)->yield)
		svc->flags |= CSFLAG_unit_yield;
}

static void csched2_context_saved(struct scheduler *ops, struct vcpu *v)
{
	struct csched2_unit *svc = csched2_unit(ops, v);
	stime_t now = sim_now(c2sim(ops));
	struct c2_list were_parked;

	c2_list_init(&were_parked);
	svc->flags &= ~CSFLAG_scheduled;
	if (has_cap(svc) && svc->budget > 0)
		unit_return_budget(svc, &were_parked);

	if ((svc->flags & CSFLAG_delayed_runq_add) && vcpu_runnable(v)) {
		svc->flags &= ~CSFLAG_delayed_runq_add;
		runq_insert(ops, svc);
		runq_tickle(ops, svc, now);
	} else {
		svc->flags &= ~CSFLAG_delayed_runq_add;
		if (!is_idle_unit(svc))
			update_load(ops, svc->rqd, svc, -1, now);
	}
	unpark_parked_units(ops, &were_parked);
}

static void csched2_unit_migrate(struct scheduler *ops, struct vcpu *v, int new_cpu)
{
	struct csched2_unit *svc = v->sched_priv;
	struct csched2_runqueue_data *trqd = c2rqd(ops, new_cpu);

	if (trqd != svc->rqd)
		migrate(ops, svc, trqd, sim_now(c2sim(ops)));
	else if (csched2_priv(ops)->hard_affinity)
		sched_set_res(c2sim(ops), v, new_cpu);     /* before b6fa4c81b2 it stayed where it was */
}

/* --- domains: weight and cap (Xen's csched2_dom_cntl putinfo) --- */

static void set_budget_quotas(struct csched2_dom *sdom)
{
	struct domain *d = sdom->dom;
	int i;

	for (i = 0; i < d->nr_units; i++) {
		struct csched2_unit *svc = d->units[i] ? d->units[i]->sched_priv : NULL;
		stime_t quota;

		if (!svc)
			continue;
		quota = sdom->nr_units ? sdom->tot_budget / sdom->nr_units : sdom->tot_budget;
		svc->budget_quota = quota > CSCHED2_MIN_TIMER ? quota : CSCHED2_MIN_TIMER;
	}
}

/*
 * csched2_dom_cntl: a cap is valid up to 100 per unit, as many pCPUs'
 * worth as the domain has scheduling units; above, Xen returns -EINVAL
 * and xl fails.  The scenario loader refuses more than 100 per vCPU, so
 * this refuses only at sched-gran > cpu.  Eras without caps ignore a cap.
 */
static int csched2_check_cap(struct scheduler *ops, int cap, int nr_units, struct err *e)
{
	if (!csched2_priv(ops)->caps || cap <= 100 * nr_units)
		return 0;
	return err_set(e, "cap %d is more than credit2 takes, 100 per scheduling unit "
		       "(%d units): Xen refuses it (csched2_dom_cntl, -EINVAL)", cap, nr_units);
}

static void csched2_set_cap(struct scheduler *ops, struct csched2_dom *sdom, int cap)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct sim *s = c2sim(ops);
	struct domain *d = sdom->dom;
	int i;

	/* above 100 per unit refused before the domain was built (csched2_check_cap) */
	sdom->tot_budget = prv->bdgt_repl_period * cap / 100;
	set_budget_quotas(sdom);
	if (sdom->cap != 0) {
		sdom->cap = cap;
		return;
	}
	sdom->budget = sdom->tot_budget;
	sdom->next_repl = sim_now(s) + prv->bdgt_repl_period;
	timer_set(&s->q, &sdom->repl_timer, sdom->next_repl);
	for (i = 0; i < d->nr_units; i++) {
		struct vcpu *v = d->units[i];
		struct csched2_unit *svc = v ? v->sched_priv : NULL;

		if (!svc)
			continue;
		if (v->is_running) {
			struct csched2_runqueue_data *rqd = c2rqd(ops, v->processor);

			/* Charge the run so far to credit only, then ask for budget. */
			burn_credits(ops, rqd, svc, sim_now(s));
			cpumask_set(rqd->tickled, (unsigned)v->processor);
			cpu_raise_softirq(s, v->processor);
		}
		svc->budget = 0;
	}
	sdom->cap = cap;
}

static void csched2_clear_cap(struct scheduler *ops, struct csched2_dom *sdom)
{
	struct domain *d = sdom->dom;
	struct c2_list parked;
	int i;

	c2_list_init(&parked);
	timer_stop(&c2sim(ops)->q, &sdom->repl_timer);
	for (i = 0; i < d->nr_units; i++) {
		struct csched2_unit *svc = d->units[i] ? d->units[i]->sched_priv : NULL;

		if (svc) {
			svc->budget = STIME_MAX;
			svc->budget_quota = 0;
		}
	}
	sdom->cap = 0;
	c2_list_splice_init(&sdom->parked_units, &parked);
	unpark_parked_units(ops, &parked);
}

static void csched2_dom_cntl(struct scheduler *ops, struct domain *d)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct csched2_dom *sdom = d->sched_priv;
	int i, cap = prv->caps ? d->cap : 0;

	if (d->weight > 0 && d->weight != sdom->weight) {
		int old_weight = sdom->weight;

		sdom->weight = d->weight;
		for (i = 0; i < d->nr_units; i++) {
			struct csched2_unit *svc = d->units[i] ? d->units[i]->sched_priv : NULL;

			if (!svc)
				continue;
			svc->weight = sdom->weight;
			if (svc->rqd) {
				update_max_weight(svc->rqd, svc->weight, old_weight);
				trace_max_weight(svc, svc->rqd);
			}
		}
	}
	if (cap > 0)
		csched2_set_cap(ops, sdom, cap);
	else if (sdom->cap != 0)
		csched2_clear_cap(ops, sdom);
}

static void *csched2_alloc_domdata(struct scheduler *ops, struct domain *d)
{
	struct csched2_dom *sdom = xcalloc(1, sizeof(*sdom));

	sdom->dom = d;
	sdom->ops = ops;
	sdom->weight = CSCHED2_DEFAULT_WEIGHT;   /* the domain's own comes with its last vCPU */
	timer_init(&sdom->repl_timer, replenish_domain_budget, sdom);
	/*
	 * Since the caps (ad4b3e1e9d, Sep 2017) Xen binds the timer to
	 * cpumask_any(pool) for every domain, capped or not; before, there is
	 * no timer, and no random draw that would shift every later
	 * cpumask_any (the 2015 and 2016 trees place vCPUs with it).
	 */
	if (csched2_priv(ops)->caps)
		sdom->repl_cpu = sim_cpumask_any(c2sim(ops), cpupool_domain_master_cpumask(d));
	c2_list_init(&sdom->parked_units);
	return sdom;
}

static void csched2_free_domdata(struct scheduler *ops, void *data)
{
	struct csched2_dom *sdom = data;

	if (!sdom)
		return;
	timer_stop(&c2sim(ops)->q, &sdom->repl_timer);
	free(sdom);
}

static void init_unit(struct scheduler *ops, struct csched2_unit *svc, struct vcpu *v,
		      struct csched2_dom *sdom)
{
	struct csched2_private *prv = csched2_priv(ops);

	c2_list_init(&svc->runq_elem);
	c2_list_init(&svc->rqd_elem);
	c2_list_init(&svc->parked_elem);
	svc->sdom = sdom;
	svc->unit = v;
	if (sdom) {
		svc->credit = CSCHED2_CREDIT_INIT;
		svc->weight = sdom->weight;
		svc->avgload = 1LL << (prv->load_precision_shift - 1);   /* start at 50 % */
		/* In ns (a units slip) before adf7d04317: the same at time 0. */
		svc->load_last_update = prv->load_2016 ?
					sim_now(c2sim(ops)) >> LOADAVG_GRANULARITY_SHIFT :
					sim_now(c2sim(ops));
	} else {
		svc->credit = prv->idle_credit;
		svc->weight = 0;
	}
	svc->tickled_cpu = -1;
	svc->budget = STIME_MAX;
}

static void *csched2_alloc_udata(struct scheduler *ops, struct vcpu *v, void *dd)
{
	struct csched2_unit *svc = xcalloc(1, sizeof(*svc));

	if (!dd && v->dom)
		dd = v->dom->sched_priv;
	init_unit(ops, svc, v, is_idle_vcpu(v) ? NULL : dd);
	return svc;
}

static void csched2_free_udata(struct scheduler *ops, void *data)
{
	free(data);
}

static void csched2_aff_cntl(struct scheduler *ops, struct vcpu *v)
{
	struct csched2_unit *svc = v->sched_priv;

	if (!svc || is_idle_vcpu(v))
		return;
	if (cpumask_weight(v->hard) == 1)
		svc->flags |= CSFLAG_pinned;
	else
		svc->flags &= ~CSFLAG_pinned;
}

static void csched2_unit_insert(struct scheduler *ops, struct vcpu *v)
{
	struct csched2_unit *svc = v->sched_priv;
	struct csched2_dom *sdom = svc->sdom;

	/*
	 * Xen inserts a vCPU with the default affinities (sim_build does the
	 * same and sets the configured ones afterwards, migrating the vCPU as
	 * xl's affinity call does), holding the lock of its initial pCPU's
	 * runqueue, which res_pick therefore skips.
	 */
	/* Before 9f358ddd69 (Jul 2016) a vCPU joined its initial pCPU's runqueue. */
	if (csched2_priv(ops)->insert_pick)
		sched_set_res(c2sim(ops), v, res_pick(ops, v, c2rqd(ops, v->processor)));
	runq_assign(ops, v);
	sdom->nr_units++;
	csched2_aff_cntl(ops, v);
	if (sdom->cap)
		svc->budget = 0;
	/*
	 * xl sets the domain's weight and cap once all its vCPUs exist (until
	 * then it has Xen's default weight and no cap): a cap set vCPU by vCPU
	 * would start the domain with the budget of a smaller cap.
	 */
	if (v == sdom->dom->units[sdom->dom->nr_units - 1])
		csched2_dom_cntl(ops, sdom->dom);
}

static void csched2_unit_remove(struct scheduler *ops, struct vcpu *v)
{
	struct csched2_unit *svc = v->sched_priv;

	if (unit_on_runq(svc)) {
		update_load(ops, svc->rqd, svc, -1, sim_now(c2sim(ops)));
		runq_remove(svc);
	}
	if (!c2_list_empty(&svc->parked_elem))
		c2_list_del_init(&svc->parked_elem);
	if (svc->rqd)
		_runq_deassign(svc);
	svc->sdom->nr_units--;
}

/* --- pCPUs and runqueues --- */

static bool cpu_runqueue_match(struct scheduler *ops, const struct csched2_runqueue_data *rqd,
			       int cpu)
{
	const struct topology *t = &c2sim(ops)->topo;
	int peer = rqd->pick_bias;

	switch (csched2_priv(ops)->cfg.runqueue) {
	case OPT_RQ_ALL:
		return true;
	case OPT_RQ_CORE:
		return t->cpu_socket[peer] == t->cpu_socket[cpu] &&
		       t->cpu_core[peer] == t->cpu_core[cpu];
	case OPT_RQ_SOCKET:
		return t->cpu_socket[peer] == t->cpu_socket[cpu];
	case OPT_RQ_NODE:
		return t->cpu_node[peer] == t->cpu_node[cpu];
	default:
		return false;   /* per pCPU: never share */
	}
}

/* Would cpu and its siblings (and those already in rqd, with theirs) fit? */
static bool cpu_runqueue_siblings_match(struct scheduler *ops,
					const struct csched2_runqueue_data *rqd, int cpu,
					int max_cpus_runq)
{
	const struct topology *t = &c2sim(ops)->topo;
	struct cpumask *counted = csched2_priv(ops)->scratch;
	int tot = 0;
	unsigned rcpu;

	cpumask_zero(counted);
	for_each_cpu(rcpu, rqd->active) {
		if (!cpumask_intersects(t->sibling_mask[rcpu], counted)) {
			cpumask_or(counted, counted, t->sibling_mask[rcpu]);
			tot += (int)cpumask_weight(t->sibling_mask[rcpu]);
		}
	}
	return tot + (int)cpumask_weight(t->sibling_mask[cpu]) <= max_cpus_runq;
}

static struct csched2_runqueue_data *cpu_add_to_runqueue(struct scheduler *ops, int cpu)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct sim *s = c2sim(ops);
	struct csched2_runqueue_data *rqd, *rqd_valid = NULL;
	int online = (int)cpumask_weight(s->online), min_rqs, max_cpus_runq, r;

	/* Spread evenly: as few runqueues as the limit allows, equally filled. */
	min_rqs = (online - 1) / prv->max_cpus_runqueue + 1;
	max_cpus_runq = online / min_rqs;

	for (r = 0; r < prv->nr_rqs; r++) {
		rqd = prv->rql[r];
		if (!cpu_runqueue_match(ops, rqd, cpu))
			continue;
		/* Siblings stay together, even beyond the limit. */
		if (cpumask_intersects(rqd->active, s->topo.sibling_mask[cpu])) {
			rqd_valid = rqd;
			break;
		}
		if (rqd->refcnt < max_cpus_runq &&
		    cpu_runqueue_siblings_match(ops, rqd, cpu, max_cpus_runq) &&
		    (!rqd_valid || rqd->refcnt < rqd_valid->refcnt))
			rqd_valid = rqd;
	}
	if (!rqd_valid) {
		rqd = xcalloc(1, sizeof(*rqd));
		rqd->id = prv->nr_rqs;
		rqd->pick_bias = cpu;
		c2_list_init(&rqd->runq);
		c2_list_init(&rqd->svc);
		rqd->active = cpumask_alloc((unsigned)s->nr_cpus);
		rqd->idle = cpumask_alloc((unsigned)s->nr_cpus);
		rqd->tickled = cpumask_alloc((unsigned)s->nr_cpus);
		rqd->smt_idle = cpumask_alloc((unsigned)s->nr_cpus);
		prv->rql = xreallocarray(prv->rql, (size_t)prv->nr_rqs + 1, sizeof(*prv->rql));
		prv->rql[prv->nr_rqs++] = rqd;
		rqd_valid = rqd;
	}
	rqd_valid->refcnt++;
	return rqd_valid;
}

static void init_cpu_runqueue(struct scheduler *ops, int cpu, struct csched2_runqueue_data *rqd)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct csched2_pcpu *spc = &prv->pcpu[cpu];
	unsigned rcpu;

	if (!rqd->nr_cpus)
		rqd->max_weight = 1;
	cpumask_set(spc->sibling_mask, (unsigned)cpu);
	if (rqd->nr_cpus > 0)
		for_each_cpu(rcpu, c2sim(ops)->topo.sibling_mask[cpu])
			if (cpumask_test(rqd->active, rcpu)) {
				cpumask_set(prv->pcpu[rcpu].sibling_mask, (unsigned)cpu);
				cpumask_set(spc->sibling_mask, rcpu);
			}
	cpumask_set(rqd->idle, (unsigned)cpu);
	cpumask_set(rqd->active, (unsigned)cpu);
	rqd->words = cpumask_words_of(rqd->active);
	cpumask_set(prv->initialized, (unsigned)cpu);
	cpumask_set(rqd->smt_idle, (unsigned)cpu);
	rqd->nr_cpus++;
	if (rqd->nr_cpus == 1)
		rqd->pick_bias = cpu;
}

static void csched2_init_pdata(struct scheduler *ops, int cpu)
{
	struct csched2_private *prv = csched2_priv(ops);
	struct csched2_pcpu *spc = &prv->pcpu[cpu];
	struct csched2_runqueue_data *rqd = cpu_add_to_runqueue(ops, cpu);

	spc->rqd = rqd;
	spc->idle_svc->unit = sched_idle_unit(c2sim(ops), cpu);
	init_cpu_runqueue(ops, cpu, rqd);
}

/* --- parameters --- */

#define CFG(f) offsetof(struct csched2_config, f)

static const struct param_def csched2_params[] = {
	{ "era", PARAM_ENUM, "current",
	  "2015|2016|2016-socket|2016-p20|2016-p21|2016-full|4.17|4.22|current", 0, 0,
	  "the Xen tree whose credit2.c to follow: 2015 (f02a5760c7, Nov 2015), 2016 "
	  "(c496f489f0, before the Sep 2016 series), 2016-socket (3a782c7603), 2016-p20 / 2016-p21 (afd44e2aca / 8c271ba070, "
	  "the series up to patch 20 / 21, with the 2 ms MAX_TIMER they were posted with), "
	  "2016-full (4b6923acff, the whole series), 4.17 (4.17.5), 4.22 or current "
	  "(master c447b7308b, same file as 4.22.0); sets every 'auto' switch below",
	  CFG(era) },
	{ "runqueue", PARAM_ENUM, "auto", "auto|cpu|core|socket|node|all", 0, 0,
	  "pCPUs sharing a runqueue (credit2_runqueue); auto: socket in 2015 (fixed), core in "
	  "2016 (bcd46d3912), socket from 3a782c7603 (Nov 2016, era 2016-socket)", CFG(runqueue) },
	{ "ratelimit_us", PARAM_INT, "1000", NULL, 0, 500000,
	  "minimum run before preemption, us (sched_ratelimit_us); 0 = off, else >= 100",
	  CFG(ratelimit_us) },
	{ "migrate_resist_us", PARAM_INT, "500", NULL, 0, 1000000,
	  "credit a vCPU on another pCPU must have above the current one to be pulled, us "
	  "(sched_credit2_migrate_resist)", CFG(migrate_resist_us) },
	{ "max_cpus_runqueue", PARAM_INT, "0", NULL, 0, 65536,
	  "most pCPUs in one runqueue, spread evenly (sched_credit2_max_cpus_runqueue, "
	  "8e2aa76dc1, 2020); 0 = era default: 16 from 4.17, no limit before",
	  CFG(max_cpus_runqueue) },
	{ "load_window_shift", PARAM_INT, "0", NULL, 0, 40,
	  "load average window, 2^n ns (credit2_load_window_shift); 0 = era default: 30, "
	  "or 28 in 2015 (its credit2_load_window_shift=18, in units of 1024 ns)",
	  CFG(load_window_shift) },
	{ "load_precision_shift", PARAM_INT, "18", NULL, 4, 30,
	  "fractional bits of the load averages (credit2_load_precision_shift; with "
	  "load_2016=off as many as the window has)", CFG(load_precision_shift) },
	{ "cap_period_ms", PARAM_INT, "10", NULL, 1, 10000,
	  "cap budget replenishment period, ms (credit2_cap_period_ms)", CFG(cap_period_ms) },
	{ "soft_affinity", PARAM_ENUM, "auto", "auto|on|off",
	  0, 0, "honour soft affinity (tickle steps and bonuses, placement, soft preemption: "
	  "72faea7126, a64ccd3970, a5948a2b52, afd44e2aca, patches 16-20, Aug 2017); off ignores "
	  "it everywhere; auto: on from 2016-p20", CFG(soft_affinity) },
	{ "tickle", PARAM_ENUM, "auto", "auto|score|lowest", 0, 0,
	  "busy-pCPU choice in runq_tickle: score (tickle_score with soft-affinity bonuses, "
	  "72faea7126) or lowest (before: lowest credit, MIGRATE_RESIST margin); "
	  "auto: score from 2016-p20", CFG(tickle) },
	{ "tickle_ratelimit", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "tickle_score passes over a pCPU whose vCPU is still inside its ratelimit "
	  "(4b6923acff, patch 24); auto: on from 2016-full", CFG(tickle_ratelimit) },
	{ "tickled_cpu", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "a woken vCPU is kept for the pCPU tickled for it: runq_candidate elsewhere skips it "
	  "(069cf39fb1, Sep 2016); auto: on from 2016-socket", CFG(tickled_cpu) },
	{ "yield", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "honour yield: runq_candidate takes the next waiter even if poorer, and no ratelimit "
	  "(a7fa4d5f53, Sep 2016); off: yield only reschedules; auto: on from 2016-socket",
	  CFG(yield) },
	{ "migrate_kick", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "balance_load's move of a running vCPU pokes its pCPU (115e4c5e52, Sep 2016); off: "
	  "it moves when next descheduled; auto: on from 2016-socket", CFG(migrate_kick) },
	{ "reset", PARAM_ENUM, "auto", "auto|top|skipped|snext", 0, 0,
	  "credit reset test: top (max of snext and runq head <= 0, CREDIT_MIN floor, "
	  "dae7b62e97 and 36f3662f27, 2020, with runq_candidate's 2021 loop), skipped (snext <= 0 "
	  "and no waiter skipped, 5e4b419966, Sep 2016) or snext (snext <= 0); the last two with "
	  "the multiplier reset and no floor; auto: snext in 2016, top from 4.17", CFG(reset) },
	{ "max_timer_us", PARAM_INT, "0", NULL, 0, 1000000,
	  "longest slice, us; 0 = era default: 2000 in 2016, 2016-p20 and 2016-p21 (as posted, "
	  "before patch 22, da92ec5bd1), else 10000 (the 2017 trees have 10000 too)",
	  CFG(max_timer_us) },
	{ "tickle_mark", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "the pokes of sleep and migrate mark the pCPU tickled and take its core out of "
	  "smt_idle (a76645240b, Mar 2017); off: a bare softirq; auto: on from 2016-p20",
	  CFG(tickle_mark) },
	{ "reset_burn", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "a credit reset first charges the vCPUs running on the runqueue (4fa4f8a3cd, Mar "
	  "2017); off: their run since the last charge is forgiven; auto: on from 2016-p20",
	  CFG(reset_burn) },
	{ "pick_bias", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "res_pick and migrate take the pCPU after the runqueue's pick_bias (6348214c5d, "
	  "Apr 2017); off: cpumask_any, a random draw; auto: on from 2016-p20", CFG(pick_bias) },
	{ "caps", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "enforce domain caps with budgets and parking, a new domain drawing the pCPU of its "
	  "replenishment timer (ad4b3e1e9d, Sep 2017); auto: on from 4.17", CFG(caps) },
	{ "idle_first", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "csched2_schedule takes its pCPU out of the idle mask before a reset's balancing, "
	  "not after (a9400d630b, Nov 2018); auto: on from 4.17", CFG(idle_first) },
	{ "smt_rq_siblings", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "smt_idle groups a core's threads inside the runqueue, not all of them (753ba43d6d, "
	  "Mar 2019; differs with runqueue=cpu); auto: on from 4.17", CFG(smt_rq_siblings) },
	{ "load_continue", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "a vCPU that goes on running updates its load average too (89052b9fa2, Mar 2021); "
	  "auto: on from 4.17", CFG(load_continue) },
	{ "inflight", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "slice also limited by the credit of the vCPU just preempted (ae648e9f80, Jul 2025); "
	  "auto: on from 4.22", CFG(inflight) },
	{ "hard_affinity", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "honour hard affinity (b6fa4c81b2, Mar 2016); off: vCPUs run anywhere (--check "
	  "reports it), placement takes the pCPU after the vCPU's, a move within a runqueue "
	  "keeps the old pCPU; auto: off in 2015", CFG(hard_affinity) },
	{ "ratelimit", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "apply ratelimit_us at all (2615485905, Aug 2016); auto: off in 2015", CFG(ratelimit) },
	{ "idle_no_timer", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "an idle pCPU sets no slice timer (2c6f317a2b, Mar 2016); off: it reschedules every "
	  "max_timer_us; auto: off in 2015", CFG(idle_no_timer) },
	{ "tickle_idle_first", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "runq_tickle tries idle pCPUs before the vCPU's own busy one (e4c1792b58, Jul 2016); "
	  "off: its own pCPU first if what runs there has less credit; auto: off in 2015",
	  CFG(tickle_idle_first) },
	{ "insert_pick", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "a new vCPU is placed by res_pick (9f358ddd69, Jul 2016); off: it joins its initial "
	  "pCPU's runqueue; auto: off in 2015", CFG(insert_pick) },
	{ "load_2016", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "the load averages of d205f8a7f4 (Jul 2016: precision apart from the window), with "
	  "adf7d04317 and d933b37eb4 (a move leaves the vCPU's own average alone, runqueue "
	  "loads do not go below 0); off: the 2015 arithmetic; auto: off in 2015",
	  CFG(load_2016) },
	{ "smt_idle", PARAM_ENUM, "auto", "auto|on|off", 0, 0,
	  "runq_tickle tries a fully idle core (smt_idle mask) before any idle pCPU "
	  "(commit 9bb9c73884 \"implement true SMT support\", July 2016); off: any idle "
	  "untickled pCPU, as before it; auto: off in 2015", CFG(smt_idle) },
	{ "smt_power_savings", PARAM_BOOL, "off", NULL, 0, 0,
	  "prefer idle threads of busy cores over idle cores (sched_smt_power_savings; "
	  "needs smt_idle)", CFG(smt_power_savings) },
	{ NULL }
};

static bool switch_on(int sw, bool era_default)
{
	return sw == SW_AUTO ? era_default : sw == SW_ON;
}

static int csched2_init(struct scheduler *ops, struct err *e)
{
	struct csched2_config *cfg = ops->config;
	struct csched2_private *prv;
	struct sim *s = ops->sim;
	int era = cfg->era, cpu;
	long long window;

	if (cfg->ratelimit_us > 0 && cfg->ratelimit_us < 100)
		return err_set(e, "credit2: ratelimit_us=%lld is out of range (0, or 100 to 500000)",
			       cfg->ratelimit_us);
	ops->initial_cpu = era == ERA_2015 ? INITIAL_CPU_LEAST_USED :        /* d5438accce */
			   era < ERA_417 ? INITIAL_CPU_ANY : INITIAL_CPU_FIRST;  /* 8d3c326f67 */
	/* 0: the era's window, 2^30 ns (2^28 in 2015: credit2_load_window_shift=18). */
	window = cfg->load_window_shift ? cfg->load_window_shift : era == ERA_2015 ? 28 : 30;
	if (window < 11)
		return err_set(e, "credit2: load_window_shift=%lld is out of range (0, or 11 to 40)",
			       cfg->load_window_shift);
	/* Xen's averages need W + P bits of headroom over the load: keep 15. */
	if (window - LOADAVG_GRANULARITY_SHIFT + cfg->load_precision_shift > 48)
		return err_set(e, "credit2: load_window_shift - 10 + load_precision_shift is %lld, "
			       "at most 48 keeps the load averages from overflowing",
			       window - LOADAVG_GRANULARITY_SHIFT + cfg->load_precision_shift);
	if (cfg->max_timer_us > 0 && cfg->max_timer_us < 500)
		return err_set(e, "credit2: max_timer_us=%lld is below MIN_TIMER (500)",
			       cfg->max_timer_us);

	prv = xcalloc(1, sizeof(*prv));
	prv->cfg = *cfg;
	prv->sim = s;
	/* Credit2 applies sched_ratelimit_us from 2615485905 (Aug 2016). */
	prv->ratelimit_us = switch_on(cfg->ratelimit, era >= ERA_2016) ? (int)cfg->ratelimit_us : 0;
	prv->migrate_resist = USEC(cfg->migrate_resist_us);
	prv->bdgt_repl_period = MSEC(cfg->cap_period_ms);
	prv->load_window_shift = (unsigned)window - LOADAVG_GRANULARITY_SHIFT;
	/* Before d205f8a7f4 the average had as many fractional bits as its window. */
	prv->load_2016 = switch_on(cfg->load_2016, era >= ERA_2016);
	prv->load_precision_shift = prv->load_2016 ? (unsigned)cfg->load_precision_shift :
				    prv->load_window_shift;

	/*
	 * The era's value of every switch left at auto: the commit that
	 * changed it and the first era that has it (the table at the top).
	 */
	/* Per socket, fixed, in 2015; core from bcd46d3912 (Apr 2016); socket from 3a782c7603. */
	if (prv->cfg.runqueue == OPT_RQ_AUTO)
		prv->cfg.runqueue = era == ERA_2016 ? OPT_RQ_CORE : OPT_RQ_SOCKET;
	/* da92ec5bd1 (patch 22); the series as posted ran p20 and p21 with 2 ms. */
	prv->max_timer = cfg->max_timer_us ? USEC(cfg->max_timer_us) :
			 era <= ERA_2016 || era == ERA_2016_P20 || era == ERA_2016_P21 ?
			 MSEC(2) : MSEC(10);
	prv->max_cpus_runqueue = cfg->max_cpus_runqueue ? (int)cfg->max_cpus_runqueue :
				 era >= ERA_417 ? 16 : INT_MAX;      /* 8e2aa76dc1 */
	prv->smt_idle = switch_on(cfg->smt_idle, era >= ERA_2016);     /* 9bb9c73884 */
	prv->hard_affinity = switch_on(cfg->hard_affinity, era >= ERA_2016); /* b6fa4c81b2 */
	prv->idle_no_timer = switch_on(cfg->idle_no_timer, era >= ERA_2016); /* 2c6f317a2b */
	prv->tickle_idle_first = switch_on(cfg->tickle_idle_first, era >= ERA_2016); /* e4c1792b58 */
	prv->insert_pick = switch_on(cfg->insert_pick, era >= ERA_2016);     /* 9f358ddd69 */
	prv->tickled_cpu = switch_on(cfg->tickled_cpu, era >= ERA_2016_SOCKET); /* 069cf39fb1 */
	prv->yield = switch_on(cfg->yield, era >= ERA_2016_SOCKET);             /* a7fa4d5f53 */
	prv->migrate_kick = switch_on(cfg->migrate_kick, era >= ERA_2016_SOCKET); /* 115e4c5e52 */
	prv->reset = cfg->reset != RESET_AUTO ? cfg->reset :
		     era >= ERA_417 ? RESET_TOP :                     /* dae7b62e97 */
		     era >= ERA_2016_SOCKET ? RESET_SKIPPED : RESET_SNEXT; /* 5e4b419966 */
	prv->tickle_mark = switch_on(cfg->tickle_mark, era >= ERA_2016_P20);    /* a76645240b */
	prv->reset_burn = switch_on(cfg->reset_burn, era >= ERA_2016_P20);      /* 4fa4f8a3cd */
	prv->pick_bias = switch_on(cfg->pick_bias, era >= ERA_2016_P20);        /* 6348214c5d */
	prv->soft_aff = switch_on(cfg->soft_affinity, era >= ERA_2016_P20);     /* 72faea7126.. */
	prv->tickle_score = cfg->tickle == TICKLE_AUTO ? era >= ERA_2016_P20 :  /* 72faea7126 */
			    cfg->tickle == TICKLE_SCORE;
	prv->tickle_ratelimit = switch_on(cfg->tickle_ratelimit, era >= ERA_2016_FULL); /* 4b6923acff */
	prv->caps = switch_on(cfg->caps, era >= ERA_417);                      /* ad4b3e1e9d */
	prv->idle_first = switch_on(cfg->idle_first, era >= ERA_417);          /* a9400d630b */
	prv->smt_rq_siblings = switch_on(cfg->smt_rq_siblings, era >= ERA_417); /* 753ba43d6d */
	prv->load_continue = switch_on(cfg->load_continue, era >= ERA_417);    /* 89052b9fa2 */
	prv->inflight = switch_on(cfg->inflight, era >= ERA_422);              /* 2025 */
	prv->reset_top = prv->reset == RESET_TOP;                    /* with 36f3662f27 */
	prv->idle_credit = prv->reset_top ? (int)CSCHED2_IDLE_CREDIT : CSCHED2_IDLE_CREDIT_2016;

	prv->pcpu = xcalloc((size_t)s->nr_cpus, sizeof(*prv->pcpu));
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		prv->pcpu[cpu].sibling_mask = cpumask_alloc((unsigned)s->nr_cpus);
		prv->pcpu[cpu].idle_svc = xcalloc(1, sizeof(struct csched2_unit));
	}
	prv->initialized = cpumask_alloc((unsigned)s->nr_cpus);
	prv->scratch = cpumask_alloc((unsigned)s->nr_cpus);
	prv->scratch2 = cpumask_alloc((unsigned)s->nr_cpus);
	prv->scratch3 = cpumask_alloc((unsigned)s->nr_cpus);
	ops->priv = prv;
	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		init_unit(ops, prv->pcpu[cpu].idle_svc, NULL, NULL);
	return 0;
}

static void csched2_deinit(struct scheduler *ops)
{
	struct csched2_private *prv = csched2_priv(ops);
	int i;

	if (!prv)
		return;
	for (i = 0; i < prv->nr_rqs; i++) {
		cpumask_free(prv->rql[i]->active);
		cpumask_free(prv->rql[i]->idle);
		cpumask_free(prv->rql[i]->tickled);
		cpumask_free(prv->rql[i]->smt_idle);
		free(prv->rql[i]->runq_v);
		free(prv->rql[i]);
	}
	free(prv->rql);
	for (i = 0; i < prv->sim->nr_cpus; i++) {
		cpumask_free(prv->pcpu[i].sibling_mask);
		free(prv->pcpu[i].idle_svc);
	}
	free(prv->pcpu);
	cpumask_free(prv->initialized);
	cpumask_free(prv->scratch);
	cpumask_free(prv->scratch2);
	cpumask_free(prv->scratch3);
	free(prv->pulls);
	free(prv->pull_keys);
	free(prv);
	ops->priv = NULL;
}

/* --- dump and credit readout --- */

static void dump_unit(struct csched2_private *prv, const struct csched2_unit *svc, FILE *f)
{
	fprintf(f, "[%d.%d] flags=%x cpu=%d credit=%d [w=%d]", svc->unit->dom->domid,
		svc->unit->vcpu_id, svc->flags, svc->unit->processor, svc->credit, svc->weight);
	if (has_cap(svc))
		fprintf(f, " budget=%lld(%lld)", (long long)svc->budget,
			(long long)svc->budget_quota);
	fprintf(f, " load=%lld (~%lld%%)\n", (long long)svc->avgload,
		(long long)((svc->avgload * 100) >> prv->load_precision_shift));
}

static void csched2_dump(struct scheduler *ops, FILE *f)
{
	struct csched2_private *prv = csched2_priv(ops);
	char buf[256];
	int r;

	fprintf(f, "credit2: %d runqueues, ratelimit %d us, max timer %lld us\n", prv->nr_rqs,
		prv->ratelimit_us, (long long)(prv->max_timer / 1000));
	for (r = 0; r < prv->nr_rqs; r++) {
		struct csched2_runqueue_data *rqd = prv->rql[r];
		struct c2_list *it;

		fprintf(f, "Runqueue %d: cpus=%s max_weight=%d load=%d avgload=%lld (~%lld%%)\n",
			rqd->id, cpumask_format(rqd->active, buf, sizeof(buf)), rqd->max_weight,
			rqd->load, (long long)rqd->avgload,
			(long long)((rqd->avgload * 100) >> prv->load_precision_shift));
		fprintf(f, "  idle=%s", cpumask_format(rqd->idle, buf, sizeof(buf)));
		fprintf(f, " tickled=%s", cpumask_format(rqd->tickled, buf, sizeof(buf)));
		fprintf(f, " smt_idle=%s\n", cpumask_format(rqd->smt_idle, buf, sizeof(buf)));
		for (it = rqd->svc.next; it != &rqd->svc; it = it->next) {
			fprintf(f, "  %s", unit_on_runq(rqd_elem(it)) ? "q " : "  ");
			dump_unit(prv, rqd_elem(it), f);
		}
	}
}

static bool csched2_unit_credit(struct scheduler *ops, struct vcpu *v, long long *credit)
{
	struct csched2_unit *svc = csched2_unit(ops, v);

	if (!svc)
		return false;
	*credit = svc->credit;
	return true;
}

/* --- the tables --- */

static void internal_burn_credits(struct scheduler *ops, struct csched2_runqueue_data *rqd,
				  struct csched2_unit *svc, stime_t now)
{
	burn_credits(ops, rqd, svc, now);
}

static struct csched2_unit *internal_svc_of(struct scheduler *ops, struct vcpu *v)
{
	return csched2_unit(ops, v);
}

static stime_t internal_tickle_score(struct scheduler *ops, stime_t now,
				     struct csched2_unit *new, int cpu)
{
	struct tickle_ctx t;

	tickle_ctx_init(&t, ops, new, now);
	return tickle_score(&t, cpu);
}

static void internal_runq_move(struct csched2_unit *svc, struct csched2_runqueue_data *rqd)
{
	if (svc->rqd)
		_runq_deassign(svc);
	_runq_assign(svc, rqd);
}

const struct credit2_internals credit2_internals = {
	.t2c_update = t2c_update,
	.c2t = c2t,
	.burn_credits = internal_burn_credits,
	.reset_credit = reset_credit,
	.update_runq_load = update_runq_load,
	.update_svc_load = update_svc_load,
	.runq_insert = runq_insert,
	.runq_remove = runq_remove,
	.runq_tickle = runq_tickle,
	.swap_keys_build = swap_keys_build,
	.best_swap = best_swap,
	.tickle_score = internal_tickle_score,
	.res_pick = csched2_res_pick,
	.get_fallback_cpu = get_fallback_cpu,
	.runq_candidate = runq_candidate,
	.runtime = csched2_runtime,
	.balance_load = balance_load,
	.migrate = migrate,
	.unit_grab_budget = unit_grab_budget,
	.replenish_domain_budget = replenish_domain_budget,
	.svc_of = internal_svc_of,
	.unit_on_runq = unit_on_runq,
	.runq_move = internal_runq_move,
};

const struct sched_ops credit2_ops = {
	.name = "credit2",
	.summary = "Xen's Credit2: per-runqueue credit by weight, load balancing, "
		   "soft affinity, caps; eras 2016 to current",
	.params = csched2_params,
	.config_size = sizeof(struct csched2_config),
	.init = csched2_init,
	.deinit = csched2_deinit,
	.init_pdata = csched2_init_pdata,
	.alloc_domdata = csched2_alloc_domdata,
	.check_cap = csched2_check_cap,
	.free_domdata = csched2_free_domdata,
	.alloc_udata = csched2_alloc_udata,
	.free_udata = csched2_free_udata,
	.insert_unit = csched2_unit_insert,
	.remove_unit = csched2_unit_remove,
	.sleep = csched2_unit_sleep,
	.wake = csched2_unit_wake,
	.yield = csched2_unit_yield,
	.context_saved = csched2_context_saved,
	.do_schedule = csched2_schedule,
	.pick_resource = csched2_res_pick,
	.migrate = csched2_unit_migrate,
	.adjust = csched2_dom_cntl,
	.adjust_affinity = csched2_aff_cntl,
	.dump = csched2_dump,
	.unit_credit = csched2_unit_credit,
};
