/*
 * The scheduling core: what Xen's xen/common/sched/core.c does around a
 * scheduler module, with sched-gran=cpu.
 *
 * - schedule(): the SCHEDULE_SOFTIRQ handler of one pCPU.  It stops the
 *   slice timer, asks the scheduler's do_schedule for the next vCPU and
 *   the slice, re-arms the slice timer, and if the choice differs from
 *   the running vCPU, switches: runstates of both change, the hardware
 *   model and the guest layer are told, and context_saved() runs for prev
 *   (with prev->is_running already false), followed by the end of a
 *   pending migration.  The context switch itself takes no pCPU time in
 *   this model, but the incoming vCPU's guest work starts
 *   context_switch_cost later, and later still when its caches are cold
 *   (sim/hw.h).
 * - cpu_raise_softirq(): "tickling".  Raised on the pCPU whose code is
 *   running it takes effect right after the current event; raised on
 *   another pCPU it arrives after an IPI latency, and an idle pCPU runs it
 *   after the exit latency of its C-state.  A raise on a pCPU with one
 *   already pending is merged into it, as Xen's pending bit does.
 * - vcpu_wake / vcpu_sleep_nosync / vcpu_block / vcpu_yield / pause /
 *   migrate: Xen's entry points, with runstate changes at the same places
 *   (a blocking vCPU changes runstate when it is switched out, not when it
 *   blocks; a woken blocked vCPU becomes runnable at once).
 *
 * Context switches happen at one instant, so context_saved() follows the
 * switch directly; Xen runs it a little later, after the lazy state save,
 * but no scheduler decision in this model falls in between.
 */
#include <stdio.h>
#include <string.h>

#include "schedulers/sched.h"
#include "sim/sim.h"
#include "sim/trace.h"

static void runstate_change(struct sim *s, struct vcpu *v, enum runstate new)
{
	stime_t now = sim_now(s), delta = now - v->runstate_entry;

	v->st.runstate_ns[v->runstate] += delta;
	if (v->runstate == RUNSTATE_RUNNING && cpumask_test(v->soft, (unsigned)v->processor))
		v->st.soft_run_ns += delta;
	if (v->runstate != new) {
		uint32_t data = (uint32_t)v->vcpu_id | (uint32_t)v->dom->domid << 16;

		sim_trace(s, v->processor,
			  TRC_SCHED_RUNSTATE_CHANGE | (uint32_t)v->runstate << 8 | (uint32_t)new << 4,
			  1, &data);
		if (new == RUNSTATE_RUNNABLE && v->runstate == RUNSTATE_BLOCKED)
			v->st.woken_at = now;
		else if (new == RUNSTATE_BLOCKED)
			v->st.woken_at = -1;
		if (new == RUNSTATE_RUNNING && v->st.woken_at >= 0) {
			hist_record(&v->st.wake_latency, now - v->st.woken_at);
			v->st.woken_at = -1;
		}
	}
	v->runstate = new;
	v->runstate_entry = now;
}

/*
 * An idle pCPU sleeps in a C-state: the softirq raised on it runs only once
 * it is awake again, after the exit latency (sim/hw.h).
 */
void cpu_raise_softirq(struct sim *s, int cpu)
{
	struct pcpu *pc = &s->pcpus[cpu];
	stime_t when = sim_now(s) + (cpu == s->this_cpu ? 0 : s->ipi_latency);

	if (timer_pending(&pc->softirq) && pc->softirq.expires <= when)
		return;
	if (s->hw) {
		when += hw_wake_delay(s->hw, cpu, when);
		if (timer_pending(&pc->softirq) && pc->softirq.expires <= when)
			return;
	}
	timer_set(&s->q, &pc->softirq, when);
}

static void migrate_finish(struct sim *s, struct vcpu *v)
{
	struct scheduler *sch = s->sched;
	int new_cpu;

	if (v->is_running || !(v->pause_flags & VPF_MIGRATING))
		return;
	new_cpu = sch->ops->pick_resource(sch, v);
	if (new_cpu != v->processor) {
		if (sch->ops->migrate)
			sch->ops->migrate(sch, v, new_cpu);
		else
			v->processor = new_cpu;
	}
	sched_clear_pause_flags(v, VPF_MIGRATING);
	vcpu_wake(s, v);
}

static void context_saved(struct sim *s, struct vcpu *prev)
{
	struct scheduler *sch = s->sched;

	prev->is_running = false;
	prev->state_entry_time = sim_now(s);
	if (sch->ops->context_saved)
		sch->ops->context_saved(sch, prev);
	migrate_finish(s, prev);
}

/* Xen's sched_switch_units: what ran, for how long, what runs next and its slice. */
static void trace_switch(struct sim *s, struct pcpu *pc, struct vcpu *prev,
			 struct vcpu *next, stime_t slice)
{
	stime_t now = sim_now(s);
	uint32_t d[4];

	d[0] = (uint32_t)prev->dom->domid;
	d[1] = (uint32_t)prev->vcpu_id;
	d[2] = (uint32_t)(now - prev->state_entry_time);
	trace_words(s, pc->id, TRC_SCHED_SWITCH_INFPREV, 3, d);
	d[0] = (uint32_t)next->dom->domid;
	d[1] = (uint32_t)next->vcpu_id;
	d[2] = next->runstate == RUNSTATE_RUNNABLE ? (uint32_t)(now - next->state_entry_time) : 0;
	d[3] = (uint32_t)slice;
	trace_words(s, pc->id, TRC_SCHED_SWITCH_INFNEXT, 4, d);
	d[0] = (uint32_t)prev->dom->domid;
	d[1] = (uint32_t)prev->vcpu_id;
	d[2] = (uint32_t)next->dom->domid;
	d[3] = (uint32_t)next->vcpu_id;
	trace_words(s, pc->id, TRC_SCHED_SWITCH, 4, d);
}

static void switch_to(struct sim *s, struct pcpu *pc, struct vcpu *prev,
		      struct vcpu *next, stime_t slice)
{
	stime_t now = sim_now(s), work_from;

	if (s->tracer)
		trace_switch(s, pc, prev, next, slice);
	if (!is_idle_vcpu(prev) && s->hooks.vcpu_stop)
		s->hooks.vcpu_stop(s, prev);
	runstate_change(s, prev, (prev->pause_flags & VPF_BLOCKED) ? RUNSTATE_BLOCKED :
				 vcpu_runnable(prev) ? RUNSTATE_RUNNABLE : RUNSTATE_OFFLINE);

	/*
	 * Xen's core does not set next's processor: the scheduler does when it
	 * takes a vCPU from another pCPU.  Left alone here, a scheduler that
	 * forgets shows up in --check instead of being silently repaired.
	 */
	runstate_change(s, next, RUNSTATE_RUNNING);
	next->is_running = true;
	next->state_entry_time = now;
	pc->curr = next;
	/* The hardware model: siblings' speed, next's cache refill. */
	work_from = hw_switch(s->hw, pc->id, prev, next, now + s->context_switch_cost);
	if (!is_idle_vcpu(next)) {
		next->st.context_switches++;
		if (next->st.last_cpu >= 0 && next->st.last_cpu != pc->id)
			next->st.migrations++;
		next->st.last_cpu = pc->id;
		cpumask_set(next->st.pcpus, (unsigned)pc->id);
		if (s->hooks.vcpu_start)
			s->hooks.vcpu_start(s, next, work_from);
	}
	context_saved(s, prev);
}

static void schedule(struct sim *s, struct pcpu *pc)
{
	struct scheduler *sch = s->sched;
	struct vcpu *prev = pc->curr;
	struct sched_decision d = { NULL, -1, false };
	stime_t now = sim_now(s);

	s->this_cpu = pc->id;
	timer_stop(&s->q, &pc->s_timer);
	timer_stop(&s->q, &pc->softirq);
	sch->ops->do_schedule(sch, prev, now, false, &d);
	if (d.time_slice >= 0)
		timer_set(&s->q, &pc->s_timer, now + d.time_slice);
	if (d.next == prev) {
		if (s->tracer) {
			uint32_t c[4] = { (uint32_t)prev->dom->domid, (uint32_t)prev->vcpu_id,
					  (uint32_t)(now - prev->runstate_entry),
					  (uint32_t)d.time_slice };

			trace_words(s, pc->id, TRC_SCHED_SWITCH_INFCONT, 4, c);
			trace_unit(s, pc->id, TRC_SCHED_CONTINUE_RUNNING, prev);
		}
		return;
	}
	switch_to(s, pc, prev, d.next, d.time_slice);
}

static void softirq_fn(struct timer *t, void *arg)
{
	struct pcpu *pc = arg;

	schedule(pc->sim, pc);
}

void vcpu_wake(struct sim *s, struct vcpu *v)
{
	trace_vcpu_event(s, TRC_SCHED_WAKE, v);
	if (vcpu_runnable(v)) {
		if (v->runstate >= RUNSTATE_BLOCKED)
			runstate_change(s, v, RUNSTATE_RUNNABLE);
		s->sched->ops->wake(s->sched, v);
	} else if (!(v->pause_flags & VPF_BLOCKED)) {
		if (v->runstate == RUNSTATE_BLOCKED)
			runstate_change(s, v, RUNSTATE_OFFLINE);
	}
}

/* Xen's vcpu_sleep_nosync_locked: what migration start shares with sleep, no trace record. */
static void sleep_nosync_locked(struct sim *s, struct vcpu *v)
{
	if (vcpu_runnable(v))
		return;
	if (v->runstate == RUNSTATE_RUNNABLE)
		runstate_change(s, v, RUNSTATE_OFFLINE);
	s->sched->ops->sleep(s->sched, v);
}

void vcpu_sleep_nosync(struct sim *s, struct vcpu *v)
{
	trace_vcpu_event(s, TRC_SCHED_SLEEP, v);
	sleep_nosync_locked(s, v);
}

void vcpu_block(struct sim *s, struct vcpu *v)
{
	sched_set_pause_flags(v, VPF_BLOCKED);
	trace_vcpu_event(s, TRC_SCHED_BLOCK, v);
	cpu_raise_softirq(s, v->processor);
}

void vcpu_unblock(struct sim *s, struct vcpu *v)
{
	if (!(v->pause_flags & VPF_BLOCKED))
		return;
	sched_clear_pause_flags(v, VPF_BLOCKED);
	vcpu_wake(s, v);
}

void vcpu_yield(struct sim *s, struct vcpu *v)
{
	if (s->sched->ops->yield)
		s->sched->ops->yield(s->sched, v);
	trace_vcpu_event(s, TRC_SCHED_YIELD, v);
	cpu_raise_softirq(s, v->processor);
}

void vcpu_pause_nosync(struct sim *s, struct vcpu *v)
{
	v->pause_count++;
	vcpu_sleep_nosync(s, v);
}

void vcpu_unpause(struct sim *s, struct vcpu *v)
{
	if (v->pause_count > 0 && --v->pause_count == 0)
		vcpu_wake(s, v);
}

void vcpu_migrate(struct sim *s, struct vcpu *v)
{
	sched_set_pause_flags(v, VPF_MIGRATING);
	sleep_nosync_locked(s, v);
	if (!v->is_running)
		migrate_finish(s, v);
}

void vcpu_update_soft_effective(struct vcpu *v)
{
	v->soft_aff_effective = !cpumask_subset(v->hard, v->soft) &&
				cpumask_intersects(v->soft, v->hard);
}

/*
 * Xen's vcpu_set_affinity: store the mask, let the scheduler adjust, and
 * always start a migration so the scheduler re-evaluates the placement
 * (sched_unit_migrate_start/finish), even when the current pCPU stays
 * allowed.  Hard and soft are separate calls in Xen, and so separate
 * migrations here.
 */
static void set_one_affinity(struct sim *s, struct vcpu *v, struct cpumask *dst,
			     const struct cpumask *src)
{
	cpumask_copy(dst, src);
	vcpu_update_soft_effective(v);
	if (s->sched->ops->adjust_affinity)
		s->sched->ops->adjust_affinity(s->sched, v);
	vcpu_migrate(s, v);
}

int vcpu_set_affinity(struct sim *s, struct vcpu *v, const struct cpumask *hard,
		      const struct cpumask *soft)
{
	if (hard && !cpumask_intersects(hard, s->online))
		return -1;
	if (hard)
		set_one_affinity(s, v, v->hard, hard);
	if (soft)
		set_one_affinity(s, v, v->soft, soft);
	return 0;
}

void sim_core_init_pcpu(struct sim *s, int cpu)
{
	struct pcpu *pc = &s->pcpus[cpu];

	pc->sim = s;
	pc->id = cpu;
	timer_init(&pc->s_timer, softirq_fn, pc);
	timer_init(&pc->softirq, softirq_fn, pc);
}

uint64_t sim_run_until(struct sim *s, stime_t until)
{
	struct evq *q = &s->q;
	uint64_t n = 0;

	if (s->tracer && s->tracer->start)
		s->tracer->start(s->tracer, s);
	while (q->len && q->heap[0]->expires <= until && !s->stop_requested) {
		struct timer *t = evq_pop(q);

		q->now = t->expires;
		q->fired++;
		n++;
		s->this_cpu = -1;
		t->fn(t, t->arg);
		if (s->check && !s->check_error[0])
			sim_check_invariants(s);
	}
	s->this_cpu = -1;
	if (!s->stop_requested && q->now < until)
		q->now = until;
	return n;
}

static void account_vcpu(struct sim *s, struct vcpu *v)
{
	runstate_change(s, v, v->runstate);
}

void sim_account_all(struct sim *s)
{
	int d, i;

	for (i = 0; i < s->nr_cpus; i++)
		account_vcpu(s, s->pcpus[i].idle);
	for (d = 0; d < s->nr_domains; d++)
		for (i = 0; i < s->domains[d]->nr_vcpus; i++) {
			struct vcpu *v = s->domains[d]->vcpus[i];

			account_vcpu(s, v);
			if (v->is_running && s->hooks.work_sync)
				s->hooks.work_sync(s, v);
		}
	hw_account_all(s->hw);
	if (s->tracer && s->tracer->stop)
		s->tracer->stop(s->tracer, s);
}
