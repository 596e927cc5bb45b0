/*
 * Xen's RTDS scheduler (xen/common/sched/rt.c), modelled.
 *
 * The algorithm: global preemptive Earliest Deadline First over
 * "deferrable servers".  Each vCPU has a period and a budget (10 ms and
 * 4 ms unless the toolstack sets others with XEN_DOMCTL_SCHEDOP_putvcpuinfo)
 * and an extratime flag (on by default since 4.10, commit 463b958317
 * "towards work conserving RTDS").
 *
 * - Deadlines.  A vCPU's current period ends at cur_deadline; its budget
 *   (cur_budget) is refilled and its deadline moved on by whole periods at
 *   replenishment (rt_update_deadline).  Unused budget is lost then.
 * - Burning.  Only a running vCPU burns budget, by the time it ran since
 *   last_start (burn_budget, at every schedule).  A blocked vCPU keeps its
 *   budget (a deferrable server).  When the budget is gone, a vCPU with
 *   extratime gets a fresh budget at a lower priority (priority_level + 1);
 *   one without goes to the depleted queue and waits for its deadline.
 * - Priority (compare_unit_priority): lower priority_level first, then the
 *   earlier deadline.  So every vCPU's reserved budget comes before any
 *   extra time, and extra time is shared in EDF order level by level.
 * - Queues, global to the scheduler (one per cpupool in Xen): the runq of
 *   runnable vCPUs with budget (or extratime), sorted by priority; the
 *   depletedq of vCPUs without budget, unsorted; the replq of every vCPU
 *   that has a replenishment pending (runnable or running), sorted by
 *   the same comparison, whose head's deadline arms the one replenishment
 *   timer.  A running vCPU is on no runq but stays on the replq.
 * - The replenishment timer (repl_timer_handler) refills every vCPU whose
 *   deadline has come, re-sorts those on the runq, and then tickles: for a
 *   running replenished vCPU, the runq head if it now has the higher
 *   priority; for one that was depleted and is queued, the vCPU itself.
 * - Tickling (runq_tickle) a vCPU that became runnable: among the pCPUs of
 *   its hard affinity not tickled already, starting at its own, the first
 *   idle one; if none is idle, the one running the lowest-priority vCPU,
 *   if that is lower than the new one's.  Tickled pCPUs are remembered
 *   until they schedule and skipped, the vCPU's own included, so two
 *   wakes do not tickle one pCPU while another idles (de8b2f49d7, 2017).
 * - Scheduling (rt_schedule) on a pCPU: burn the current vCPU's budget,
 *   take the first vCPU of the runq allowed on this pCPU, keep the current
 *   one instead if it is runnable, has budget and higher priority, and run
 *   the choice for at most its remaining budget (the slice timer then
 *   burns it).  A vCPU taken from another pCPU's place moves here.  The
 *   vCPU switched out goes back to its queue when its context is saved
 *   (RTDS_delayed_runq_add, rt_context_saved), and is tickled again there.
 * - Wake (rt_unit_wake): a vCPU whose deadline passed while it was blocked
 *   starts a new period at once (full budget, deadline moved on); it joins
 *   the replq and the runq and is tickled.
 * - Placement (rt_res_pick): its current pCPU if allowed, else the next
 *   allowed one after it.
 *
 * ERAS (parameter era=2016|2017|4.17|current, default current).  RTDS's
 * scheduling code changed little between 4.17 and master-2026-08:
 *   - 0f1dec89d3 (Dec 2022, after 4.17 branched): when the runq's first
 *     vCPU turns out not runnable, rt_schedule drops it and looks again;
 *     4.17 drops it and idles.
 *   - 410d44fcf3 (2026): priority_level stops at UINT_MAX instead of
 *     wrapping to 0 (the highest priority) after 2^32 extratime refills.
 *   - 37b49cb48e (2026): turning extratime on for a depleted vCPU
 *     (putvcpuinfo, the adjust hook here) refills it at the next priority
 *     level and moves it to the runq; 4.17 leaves it with no budget.
 *   - eec1a570c0 (2026): the domain-wide XEN_DOMCTL_SCHEDOP_putinfo checks
 *     period and budget like putvcpuinfo.  schedsim's scenario loader
 *     applies putvcpuinfo's checks to every vCPU in both eras.
 *   2017     sched_rt.c of the 2016-11 and 2017-08 trees (Xen 4.8 to
 *            4.10-unstable), before extratime (463b958317, 4.10) and its
 *            priority levels: no extratime (an explicit extratime="on" is
 *            refused: rt_check_rt), so the
 *            budget is a hard limit; priority is the deadline alone, and
 *            - rt_schedule keeps the current vCPU on an equal deadline
 *              (cur_deadline <=; compare_unit_priority > 0 since);
 *            - it runs the runq's first allowed vCPU without asking
 *              whether it is runnable (the drop of 4.17 came later);
 *            - runq_tickle kicks the vCPU's own pCPU when it idles even if
 *              it was tickled already, and otherwise scans the pCPUs from
 *              0 up (for_each_cpu), not from the vCPU's own (de8b2f49d7).
 *   2016     sched_rt.c of the 2016-09 tree: 2017, and before the budget
 *            accounting fixes of October 2016 (514e5eb015, a418ec07cf):
 *            a replenishment does not restart the budget burn at now
 *            (last_start stays), and the replenishment timer clears a
 *            vCPU's depleted flag only when it is queued.
 * The event-driven design dates from 0709d59545 (March 2016); the
 * quantum-driven rt.c before it (the 2015 trees) has no era here.
 *
 * Not Xen's: the miss accounting.  A period whose vCPU was runnable from
 * its start to its deadline is judged; it is missed when budget is left at
 * the deadline at priority level 0 (the reservation was not delivered).
 * Periods in which the vCPU blocked or woke are not judged: a deferrable
 * server's guarantee only holds for a backlogged one.
 */
#include <limits.h>
#include <stdlib.h>

#include "schedulers/rtds.h"
#include "sim/xalloc.h"

/* --- queue helpers --- */

static bool unit_on_q(const struct rt_unit *svc)
{
	return !list_empty(&svc->q_elem);
}

static bool unit_on_replq(const struct rt_unit *svc)
{
	return !list_empty(&svc->replq_elem);
}

static struct rt_unit *q_elem(struct sched_list *elem)
{
	return list_entry(elem, struct rt_unit, q_elem);
}

static struct rt_unit *replq_elem(struct sched_list *elem)
{
	return list_entry(elem, struct rt_unit, replq_elem);
}

static bool has_extratime(const struct rt_unit *svc)
{
	return svc->flags & RTDS_extratime;
}

/* > 0 when v1 has the higher priority, < 0 when v2 has (Xen's sign convention). */
static stime_t compare_unit_priority(const struct rt_unit *v1, const struct rt_unit *v2)
{
	int prio = (int)(v2->priority_level - v1->priority_level);

	if (prio == 0)
		return v2->cur_deadline - v1->cur_deadline;
	return prio;
}

/*
 * Once now >= cur_deadline: the deadline moves on to the end of the
 * period holding now, and the budget is full again.
 */
static void rt_update_deadline(stime_t now, struct rt_unit *svc)
{
	if (svc->cur_deadline + (svc->period << RTDS_UPDATE_LIMIT_SHIFT) > now) {
		do
			svc->cur_deadline += svc->period;
		while (svc->cur_deadline <= now);
	} else {
		stime_t count = (now - svc->cur_deadline) / svc->period + 1;

		svc->cur_deadline += count * svc->period;
	}
	/* It may run at once: only the time from now on is burnt. */
	svc->last_start = now;
	svc->cur_budget = svc->budget;
	svc->priority_level = 0;
}

/* rt_update_deadline of the era: before 514e5eb015 (2016) the burn did not restart at now. */
static void update_deadline(const struct rt_private *prv, stime_t now, struct rt_unit *svc)
{
	stime_t last_start = svc->last_start;

	rt_update_deadline(now, svc);
	if (prv->era == RTDS_ERA_2016)
		svc->last_start = last_start;
}

/* Removes elem; true if it was the queue's first. */
static bool deadline_queue_remove(struct sched_list *queue, struct sched_list *elem)
{
	bool first = queue->next == elem;

	list_del_init(elem);
	return first;
}

/* Inserts in priority order, after its equals; true if it became the first. */
/*
 * Before the first unit of lower priority: after its equals, or up to
 * 4.10 (deadline <=, before 463b958317's compare_unit_priority) before them.
 */
static bool deadline_queue_insert(const struct rt_private *prv,
				  struct rt_unit *(*qelem)(struct sched_list *),
				  struct rt_unit *svc, struct sched_list *elem,
				  struct sched_list *queue)
{
	struct sched_list *iter;
	bool first = true;

	list_for_each(iter, queue) {
		if (compare_unit_priority(svc, qelem(iter)) > 0 ||
		    (prv->era <= RTDS_ERA_2017 && svc->cur_deadline == qelem(iter)->cur_deadline))
			break;
		first = false;
	}
	list_add_tail(elem, iter);
	return first;
}

static void q_remove(struct rt_unit *svc)
{
	list_del_init(&svc->q_elem);
}

static void replq_remove(struct rt_private *prv, struct rt_unit *svc)
{
	struct sched_list *replq = &prv->replq;

	/* It leaves the replq when it stops being runnable: no longer backlogged. */
	svc->backlogged = false;
	if (deadline_queue_remove(replq, &svc->replq_elem)) {
		if (!list_empty(replq))
			timer_set(&prv->sim->q, &prv->repl_timer, replq_elem(replq->next)->cur_deadline);
		else
			timer_stop(&prv->sim->q, &prv->repl_timer);
	}
}

/* A unit with budget (or extratime) joins the runq in order; one without, the depletedq. */
static void runq_insert(struct rt_private *prv, struct rt_unit *svc)
{
	if (svc->cur_budget > 0 || has_extratime(svc))
		deadline_queue_insert(prv, q_elem, svc, &svc->q_elem, &prv->runq);
	else
		list_add(&svc->q_elem, &prv->depletedq);
}

static void replq_insert(struct rt_private *prv, struct rt_unit *svc)
{
	if (deadline_queue_insert(prv, replq_elem, svc, &svc->replq_elem, &prv->replq))
		timer_set(&prv->sim->q, &prv->repl_timer, svc->cur_deadline);
}

/* Moves svc to its place in the replq (its deadline changed); re-arms the timer if needed. */
static void replq_reinsert(struct rt_private *prv, struct rt_unit *svc)
{
	struct sched_list *replq = &prv->replq;
	const struct rt_unit *rearm_svc = svc;
	bool rearm;

	if (deadline_queue_remove(replq, &svc->replq_elem)) {
		deadline_queue_insert(prv, replq_elem, svc, &svc->replq_elem, replq);
		rearm_svc = replq_elem(replq->next);
		rearm = true;
	} else {
		rearm = deadline_queue_insert(prv, replq_elem, svc, &svc->replq_elem, replq);
	}
	if (rearm)
		timer_set(&prv->sim->q, &prv->repl_timer, rearm_svc->cur_deadline);
}

/* --- the miss accounting (not Xen's; see the top) --- */

static void account_period(struct rt_unit *svc, stime_t now)
{
	struct vcpu *v = svc->v;
	stime_t left = svc->cur_budget;

	if (!svc->backlogged || !vcpu_runnable(v))
		return;
	if (v->is_running)
		left -= now - svc->last_start;
	v->st.deadlines++;
	if (svc->priority_level == 0 && left > 0) {
		v->st.deadline_misses++;
		if (left > v->st.deadline_worst_miss_ns)
			v->st.deadline_worst_miss_ns = left;
	}
}

/* --- placement --- */

static int rt_res_pick(struct rt_private *prv, const struct vcpu *v)
{
	struct cpumask *cpus = prv->scratch;

	cpumask_and(cpus, cpupool_domain_master_cpumask(v->dom), v->hard);
	return (int)cpumask_test_or_cycle(v->processor, cpus);
}

static int rt_pick_resource(struct scheduler *ops, struct vcpu *v)
{
	return rt_res_pick(rt_priv(ops), v);
}

/* --- life cycle --- */

static void repl_timer_handler(struct timer *t, void *data);

static int rt_init(struct scheduler *ops, struct err *e)
{
	const struct rtds_config *cfg = ops->config;
	struct rt_private *prv = xcalloc(1, sizeof(*prv));

	prv->sim = ops->sim;
	prv->era = cfg->era >= RTDS_ERA_2016 && cfg->era <= RTDS_ERA_CURRENT ?
		   (enum rtds_era)cfg->era : RTDS_ERA_CURRENT;
	ops->initial_cpu = prv->era < RTDS_ERA_4_17 ? INITIAL_CPU_ANY :      /* d5438accce */
			   INITIAL_CPU_FIRST;                                 /* 8d3c326f67 */
	list_init(&prv->runq);
	list_init(&prv->depletedq);
	list_init(&prv->replq);
	timer_init(&prv->repl_timer, repl_timer_handler, prv);
	prv->repl_timer_cpu = -1;
	prv->tickled = cpumask_alloc((unsigned)ops->sim->nr_cpus);
	prv->scratch = cpumask_alloc((unsigned)ops->sim->nr_cpus);
	ops->priv = prv;
	(void)e;
	return 0;
}

static void rt_deinit(struct scheduler *ops)
{
	struct rt_private *prv = rt_priv(ops);

	timer_stop(&prv->sim->q, &prv->repl_timer);
	cpumask_free(prv->tickled);
	cpumask_free(prv->scratch);
	free(prv);
}

/* rt_switch_sched: the first pCPU to join hosts the replenishment timer. */
static void rt_init_pdata(struct scheduler *ops, int cpu)
{
	struct rt_private *prv = rt_priv(ops);

	if (prv->repl_timer_cpu < 0)
		prv->repl_timer_cpu = cpu;
}

static void rt_apply_params(struct rt_unit *svc, const struct rt_params *p)
{
	if (p->period)
		svc->period = p->period;
	if (p->budget)
		svc->budget = p->budget;
	if (p->extratime == RT_EXTRATIME_OFF)
		svc->flags &= ~RTDS_extratime;
	else if (p->extratime == RT_EXTRATIME_ON)
		svc->flags |= RTDS_extratime;
}

/*
 * Xen's defaults, then the toolstack's parameters in v->rt.  sim_build
 * stores them before the vCPU is allocated: on a real host they are set
 * after creation but long before the domain is unpaused, so the first
 * deadline a vCPU gets when it wakes is already computed from them.
 */
static void *rt_alloc_udata(struct scheduler *ops, struct vcpu *v, void *dd)
{
	struct rt_unit *svc = xcalloc(1, sizeof(*svc));

	list_init(&svc->q_elem);
	list_init(&svc->replq_elem);
	svc->v = v;
	svc->flags = RTDS_extratime;
	svc->period = RTDS_DEFAULT_PERIOD;
	if (!is_idle_vcpu(v)) {
		svc->budget = RTDS_DEFAULT_BUDGET;
		rt_apply_params(svc, &v->rt);
	}
	if (rt_priv(ops)->era <= RTDS_ERA_2017)    /* before 463b958317: no extratime */
		svc->flags &= ~RTDS_extratime;
	(void)dd;
	return svc;
}

/*
 * Before 463b958317 (Xen 4.10) rt.c has no extratime: a scenario that asks
 * for it explicitly is refused rather than run without it (Xen's own rt.c
 * of those trees, xen-rtds@TREE, refuses it the same way).
 */
static int rt_check_rt(struct scheduler *ops, const struct rt_params *rt, int nr, struct err *e)
{
	if (rt_priv(ops)->era > RTDS_ERA_2017)
		return 0;
	for (int i = 0; i < nr; i++)
		if (rt[i].extratime == RT_EXTRATIME_ON)
			return err_set(e, "vCPU %d: extratime=\"on\": rtds:era=%s has no extratime "
				       "(463b958317, Xen 4.10); its vCPUs never run beyond their budget",
				       i, rt_priv(ops)->era == RTDS_ERA_2016 ? "2016" : "2017");
	return 0;
}

static void rt_free_udata(struct scheduler *ops, void *priv)
{
	(void)ops;
	free(priv);
}

static void rt_unit_insert(struct scheduler *ops, struct vcpu *v)
{
	struct rt_private *prv = rt_priv(ops);
	struct rt_unit *svc = rt_unit(v);
	stime_t now = sim_now(prv->sim);

	sched_set_res(prv->sim, v, rt_res_pick(prv, v));
	if (now >= svc->cur_deadline)
		update_deadline(prv, now, svc);
	if (!unit_on_q(svc) && vcpu_runnable(v)) {
		replq_insert(prv, svc);
		if (!v->is_running)
			runq_insert(prv, svc);
	}
}

static void rt_unit_remove(struct scheduler *ops, struct vcpu *v)
{
	struct rt_private *prv = rt_priv(ops);
	struct rt_unit *svc = rt_unit(v);

	if (unit_on_q(svc))
		q_remove(svc);
	if (unit_on_replq(svc))
		replq_remove(prv, svc);
}

/* --- budget and the pick --- */

static void burn_budget(struct rt_private *prv, struct rt_unit *svc, stime_t now)
{
	stime_t delta;

	if (is_idle_vcpu(svc->v))
		return;
	delta = now - svc->last_start;
	if (delta < 0) {          /* Xen: only under nested virtualisation */
		svc->last_start = now;
		return;
	}
	svc->cur_budget -= delta;
	svc->last_start = now;
	if (svc->cur_budget <= 0) {
		if (has_extratime(svc)) {
			/* 410d44fcf3: saturate; 4.17 wraps to level 0 after 2^32 refills. */
			if (prv->era <= RTDS_ERA_4_17 || svc->priority_level < UINT_MAX)
				svc->priority_level++;
			svc->cur_budget = svc->budget;
		} else {
			svc->cur_budget = 0;
			svc->flags |= RTDS_depleted;
		}
	}
}

/* The first unit of the runq allowed on cpu, or NULL. */
static struct rt_unit *runq_pick(struct rt_private *prv, int cpu)
{
	struct sched_list *iter;

	list_for_each(iter, &prv->runq) {
		struct rt_unit *svc = q_elem(iter);

		if (cpumask_test(svc->v->hard, (unsigned)cpu) &&
		    cpumask_test(cpupool_domain_master_cpumask(svc->v->dom), (unsigned)cpu))
			return svc;
	}
	return NULL;
}

static void rt_schedule(struct scheduler *ops, struct vcpu *curr, stime_t now,
			bool tasklet_work_scheduled, struct sched_decision *out)
{
	struct rt_private *prv = rt_priv(ops);
	int cpu = prv->sim->this_cpu;
	struct rt_unit *const scurr = rt_unit(curr);
	struct rt_unit *const sidle = rt_unit(sched_idle_unit(prv->sim, cpu));
	struct rt_unit *snext;
	bool migrated = false;

	cpumask_clear_cpu(prv->tickled, (unsigned)cpu);
	burn_budget(prv, scurr, now);

	if (tasklet_work_scheduled) {
		snext = sidle;
	} else {
		for (;;) {
			snext = runq_pick(prv, cpu);
			if (!snext) {
				snext = sidle;
				break;
			}
			/* Up to 4.10 the pick is not asked whether it is runnable. */
			if (prv->era <= RTDS_ERA_2017 || vcpu_runnable(snext->v))
				break;
			/* A queued unit that is not runnable (paused behind the scheduler's back). */
			q_remove(snext);
			replq_remove(prv, snext);
			if (prv->era == RTDS_ERA_4_17) {   /* before 0f1dec89d3: give up */
				snext = sidle;
				break;
			}
		}
		/* The current unit stays if it is runnable, has budget and the higher priority. */
		if (!is_idle_vcpu(curr) && vcpu_runnable(curr) && scurr->cur_budget > 0 &&
		    (snext == sidle || compare_unit_priority(scurr, snext) > 0 ||
		     (prv->era <= RTDS_ERA_2017 && scurr->cur_deadline == snext->cur_deadline)))
			snext = scurr;
	}

	if (snext != scurr && !is_idle_vcpu(curr) && vcpu_runnable(curr))
		scurr->flags |= RTDS_delayed_runq_add;

	snext->last_start = now;
	out->time_slice = -1;
	if (snext != sidle) {
		if (snext != scurr) {
			q_remove(snext);
			snext->flags |= RTDS_scheduled;
		}
		if (snext->v->processor != cpu) {
			sched_set_res(prv->sim, snext->v, cpu);
			migrated = true;
		}
		out->time_slice = snext->cur_budget;
	}
	out->next = snext->v;
	out->migrated = migrated;
}

/* --- tickling, wake, sleep, context saved --- */

static void runq_tickle(struct rt_private *prv, struct rt_unit *new)
{
	struct sim *s = prv->sim;
	const struct rt_unit *latest_deadline_unit = NULL;   /* lowest priority */
	struct cpumask *not_tickled = prv->scratch;
	int cpu_to_tickle;
	unsigned cpu;

	if (!new || is_idle_vcpu(new->v))
		return;
	cpumask_and(not_tickled, cpupool_domain_master_cpumask(new->v->dom), new->v->hard);
	cpumask_andnot(not_tickled, not_tickled, prv->tickled);

	/*
	 * Up to 4.10 (before de8b2f49d7): its own pCPU if idle, tickled or
	 * not; then the others from pCPU 0 up.
	 */
	if (prv->era <= RTDS_ERA_2017) {
		if (is_idle_vcpu(curr_on(s, new->v->processor))) {
			cpu_to_tickle = new->v->processor;
			goto out;
		}
		cpu = cpumask_first(not_tickled);
	} else {
		/* An idle pCPU, its own first (for the cache); meanwhile the lowest priority running. */
		cpu = cpumask_test_or_cycle(new->v->processor, not_tickled);
	}
	while (cpu < not_tickled->nbits) {
		struct vcpu *iter = curr_on(s, (int)cpu);
		const struct rt_unit *iter_svc;

		if (is_idle_vcpu(iter)) {
			cpu_to_tickle = (int)cpu;
			goto out;
		}
		iter_svc = rt_unit(iter);
		if (!latest_deadline_unit ||
		    compare_unit_priority(iter_svc, latest_deadline_unit) < 0)
			latest_deadline_unit = iter_svc;
		cpumask_clear_cpu(not_tickled, cpu);
		cpu = prv->era <= RTDS_ERA_2017 ? cpumask_next((int)cpu, not_tickled) :
						  cpumask_cycle((int)cpu, not_tickled);
	}
	/* None idle: preempt the lowest-priority one if the new unit beats it. */
	if (latest_deadline_unit && compare_unit_priority(latest_deadline_unit, new) < 0) {
		cpu_to_tickle = latest_deadline_unit->v->processor;
		goto out;
	}
	return;
out:
	cpumask_set(prv->tickled, (unsigned)cpu_to_tickle);
	cpu_raise_softirq(s, cpu_to_tickle);
}

static void rt_unit_wake(struct scheduler *ops, struct vcpu *v)
{
	struct rt_private *prv = rt_priv(ops);
	struct rt_unit *const svc = rt_unit(v);
	stime_t now;
	bool missed;

	if (curr_on(prv->sim, v->processor) == v || unit_on_q(svc))
		return;
	/* A deadline that passed while it was blocked: a new period from now. */
	now = sim_now(prv->sim);
	missed = now >= svc->cur_deadline;
	if (missed)
		update_deadline(prv, now, svc);
	/* Not context-saved yet: context_saved queues it (and its replenishment stays). */
	if (svc->flags & RTDS_scheduled) {
		svc->flags |= RTDS_delayed_runq_add;
		if (missed)
			replq_reinsert(prv, svc);
		return;
	}
	replq_insert(prv, svc);
	runq_insert(prv, svc);
	runq_tickle(prv, svc);
}

static void rt_unit_sleep(struct scheduler *ops, struct vcpu *v)
{
	struct rt_private *prv = rt_priv(ops);
	struct rt_unit *const svc = rt_unit(v);

	if (curr_on(prv->sim, v->processor) == v) {
		cpu_raise_softirq(prv->sim, v->processor);
	} else if (unit_on_q(svc)) {
		q_remove(svc);
		replq_remove(prv, svc);
	} else if (svc->flags & RTDS_delayed_runq_add) {
		svc->flags &= ~RTDS_delayed_runq_add;
	}
}

static void rt_context_saved(struct scheduler *ops, struct vcpu *v)
{
	struct rt_private *prv = rt_priv(ops);
	struct rt_unit *svc = rt_unit(v);

	svc->flags &= ~RTDS_scheduled;
	if (is_idle_vcpu(v))
		return;
	if ((svc->flags & RTDS_delayed_runq_add) && vcpu_runnable(v)) {
		svc->flags &= ~RTDS_delayed_runq_add;
		runq_insert(prv, svc);
		runq_tickle(prv, svc);
	} else {
		svc->flags &= ~RTDS_delayed_runq_add;
		replq_remove(prv, svc);
	}
}

/* --- replenishment --- */

static void repl_timer_handler(struct timer *t, void *data)
{
	struct rt_private *prv = data;
	struct sim *s = prv->sim;
	struct sched_list *replq = &prv->replq, *runq = &prv->runq, *iter, *tmp;
	struct sched_list tmp_replq;
	stime_t now = sim_now(s);

	(void)t;
	s->this_cpu = prv->repl_timer_cpu;
	list_init(&tmp_replq);
	/* Refill every unit whose deadline has come; re-sort the queued ones. */
	list_for_each_safe(iter, tmp, replq) {
		struct rt_unit *svc = replq_elem(iter);

		if (now < svc->cur_deadline)
			break;
		list_del_init(&svc->replq_elem);
		account_period(svc, now);
		update_deadline(prv, now, svc);
		svc->backlogged = vcpu_runnable(svc->v);
		list_add(&svc->replq_elem, &tmp_replq);
		if (unit_on_q(svc)) {
			q_remove(svc);
			runq_insert(prv, svc);
		}
	}
	/*
	 * A replenished running unit: tickle the runq head if it now beats
	 * it.  A replenished depleted unit on a queue: tickle it.  Then back
	 * on the replq in order.
	 */
	list_for_each_safe(iter, tmp, &tmp_replq) {
		struct rt_unit *svc = replq_elem(iter);

		if (curr_on(s, svc->v->processor) == svc->v && !list_empty(runq)) {
			struct rt_unit *next_on_runq = q_elem(runq->next);

			if (compare_unit_priority(svc, next_on_runq) < 0)
				runq_tickle(prv, next_on_runq);
		} else {
			bool was_depleted = svc->flags & RTDS_depleted;

			/* a418ec07cf (2016): cleared always; before, only when queued. */
			if (prv->era != RTDS_ERA_2016 || unit_on_q(svc))
				svc->flags &= ~RTDS_depleted;
			if (was_depleted && unit_on_q(svc))
				runq_tickle(prv, svc);
		}
		list_del_init(&svc->replq_elem);
		deadline_queue_insert(prv, replq_elem, svc, &svc->replq_elem, replq);
	}
	if (!list_empty(replq))
		timer_set(&s->q, &prv->repl_timer, replq_elem(replq->next)->cur_deadline);
}

/*
 * XEN_DOMCTL_SCHEDOP_putvcpuinfo for every vCPU of d, from v->rt (a value
 * not given is kept): the new period and budget apply from the next
 * replenishment on; the current period keeps its deadline and budget.
 */
static void rt_dom_cntl(struct scheduler *ops, struct domain *d)
{
	struct rt_private *prv = rt_priv(ops);
	int i;

	for (i = 0; i < d->nr_units; i++) {
		struct rt_unit *svc = rt_unit(d->units[i]);
		const struct rt_params *p = &d->units[i]->rt;
		bool had_extratime = has_extratime(svc);

		rt_apply_params(svc, p);
		if (prv->era <= RTDS_ERA_2017)   /* before 463b958317: no extratime */
			svc->flags &= ~RTDS_extratime;
		/*
		 * 37b49cb48e: extratime turned on while depleted refills at the
		 * next level and leaves the depletedq; 4.17 leaves the unit with
		 * no budget until its deadline (or queues it with none later).
		 */
		if (prv->era == RTDS_ERA_CURRENT && has_extratime(svc) && !had_extratime &&
		    svc->cur_budget <= 0) {
			svc->priority_level++;
			svc->cur_budget = svc->budget;
			svc->flags &= ~RTDS_depleted;
			if (unit_on_q(svc)) {
				q_remove(svc);
				runq_insert(prv, svc);
			}
		}
	}
}

static void rt_dump_unit(FILE *f, const struct rt_unit *svc)
{
	fprintf(f, "  d%dv%d cpu %d (%lld, %lld) cur_b=%lld cur_d=%lld last_start=%lld "
		"priority_level=%u extratime=%d onQ=%d runnable=%d flags=%x\n",
		svc->v->dom->domid, svc->v->vcpu_id, svc->v->processor, (long long)svc->period,
		(long long)svc->budget, (long long)svc->cur_budget, (long long)svc->cur_deadline,
		(long long)svc->last_start, svc->priority_level, has_extratime(svc),
		unit_on_q(svc), vcpu_runnable(svc->v), svc->flags);
}

static void rt_dump(struct scheduler *ops, FILE *f)
{
	struct rt_private *prv = rt_priv(ops);
	struct sched_list *iter;

	fprintf(f, "Global RunQueue info:\n");
	list_for_each(iter, &prv->runq)
		rt_dump_unit(f, q_elem(iter));
	fprintf(f, "Global DepletedQueue info:\n");
	list_for_each(iter, &prv->depletedq)
		rt_dump_unit(f, q_elem(iter));
	fprintf(f, "Global Replenishment Events info:\n");
	list_for_each(iter, &prv->replq)
		rt_dump_unit(f, replq_elem(iter));
}

/* The budget left, as "credit" for plots and traces (ns of run time at its level). */
static bool rt_unit_credit(struct scheduler *ops, struct vcpu *v, long long *credit)
{
	(void)ops;
	if (is_idle_vcpu(v))
		return false;
	*credit = rt_unit(v)->cur_budget;
	return true;
}

/* --- parameters, validation, the ops table --- */

int rtds_check_params(stime_t period, stime_t budget, struct err *e)
{
	char a[32], b[32];

	if (period % USEC(1) || budget % USEC(1))
		return err_set(e, "period and budget must be whole microseconds "
			       "(XEN_DOMCTL_SCHEDOP_putvcpuinfo takes them in us)");
	if (period < RTDS_MIN_PERIOD || period > RTDS_MAX_PARAM)
		return err_set(e, "period %s is out of range 10us..%s", format_duration(period, a, sizeof(a)),
			       format_duration(RTDS_MAX_PARAM, b, sizeof(b)));
	if (budget < RTDS_MIN_BUDGET)
		return err_set(e, "budget %s is below RTDS's minimum of 10us",
			       format_duration(budget, a, sizeof(a)));
	if (budget > period)
		return err_set(e, "budget %s is more than the period %s (RTDS needs budget <= period)",
			       format_duration(budget, a, sizeof(a)), format_duration(period, b, sizeof(b)));
	return 0;
}

static const struct param_def rtds_params[] = {
	{ "era", PARAM_ENUM, "current", "2016|2017|4.17|current", 0, 0,
	  "which rt.c: 2016 (Sep 2016 tree, before 514e5eb015/a418ec07cf), 2017 (Xen 4.8 to "
	  "4.10-unstable: no extratime, deadline-only priority, tickle before de8b2f49d7), "
	  "4.17 (Xen 4.17, Debian 12) or current (master: 0f1dec89d3 retries the "
	  "pick past a not-runnable runq head, 410d44fcf3 saturates priority_level, "
	  "37b49cb48e refills a depleted vCPU whose extratime is turned on)",
	  offsetof(struct rtds_config, era) },
	{ NULL }
};

const struct sched_ops rtds_ops = {
	.name = "rtds",
	.summary = "Xen's RTDS: global EDF over per-vCPU budgets and periods (deferrable "
		   "servers), extratime; set period/budget/extratime on <domain> and <vcpu>",
	.params = rtds_params,
	.config_size = sizeof(struct rtds_config),
	.init = rt_init,
	.deinit = rt_deinit,
	.init_pdata = rt_init_pdata,
	.alloc_udata = rt_alloc_udata,
	.free_udata = rt_free_udata,
	.insert_unit = rt_unit_insert,
	.remove_unit = rt_unit_remove,
	.sleep = rt_unit_sleep,
	.wake = rt_unit_wake,
	.context_saved = rt_context_saved,
	.do_schedule = rt_schedule,
	.pick_resource = rt_pick_resource,
	.adjust = rt_dom_cntl,
	.check_rt = rt_check_rt,
	.dump = rt_dump,
	.unit_credit = rt_unit_credit,
};

const struct rtds_internals rtds_internals = {
	.compare_unit_priority = compare_unit_priority,
	.update_deadline = rt_update_deadline,
	.burn_budget = burn_budget,
	.runq_insert = runq_insert,
	.replq_insert = replq_insert,
	.runq_pick = runq_pick,
	.runq_tickle = runq_tickle,
	.repl_timer_handler = repl_timer_handler,
};
