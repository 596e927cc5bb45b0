/*
 * The scheduling core: what Xen's xen/common/sched/core.c does around a
 * scheduler module.  Each pCPU belongs to one cpupool (sim/engine/cpupool.c)
 * and calls its pool's scheduler; a vCPU's scheduler is its domain's pool's.
 *
 * - schedule(): the SCHEDULE_SOFTIRQ handler of one pCPU.  It stops the
 *   slice timer, asks the scheduler's do_schedule for the next vCPU and
 *   the slice, re-arms the slice timer, and if the choice differs from
 *   the running vCPU, switches: runstates of both change, the hardware
 *   model and the guest layer are told, and context_saved() runs for prev
 *   (with prev->is_running already false), followed by the end of a
 *   pending migration.  The context switch itself takes no pCPU time in
 *   this model, but the incoming vCPU's guest work starts
 *   context_switch_cost later (none when the pCPU still holds its state:
 *   switch_cost), and slower while its caches are cold (sim/engine/hw.h).
 * - cpu_raise_softirq(): "tickling".  Raised on the pCPU whose code is
 *   running it takes effect right after the current event; raised on
 *   another pCPU it arrives after an IPI latency, but an idle pCPU that
 *   sleeps in MWAIT gets no IPI (hw_needs_ipi) and runs it after the exit
 *   latency of its C-state.  A raise on a pCPU with one
 *   already pending is merged into it, as Xen's pending bit does.
 * - vcpu_wake / vcpu_sleep_nosync / vcpu_block / vcpu_yield / pause /
 *   migrate: Xen's entry points, with runstate changes at the same places
 *   (a blocking vCPU changes runstate when it is switched out, not when it
 *   blocks; a woken blocked vCPU becomes runnable at once).
 *
 * Context switches happen at one instant, so context_saved() follows the
 * switch directly; Xen runs it a little later, after the lazy state save,
 * but no scheduler decision in this model falls in between.
 *
 * With sched-gran=core or socket (a pool whose resources have several
 * threads) the scheduler picks units for resources, and core.c runs a
 * unit's vCPUs on the resource's threads together, as Xen 4.13 and later
 * do (schedule, sched_slave, sched_wait_rendezvous_in,
 * sched_switch_units, sched_force_context_switch):
 * - A SCHEDULE_SOFTIRQ on any thread starts a rendezvous: the other
 *   threads get SCHED_SLAVE_SOFTIRQ (an IPI away) and each one, when it
 *   arrives, stops running guest code.  When the last arrives the
 *   scheduler decides for the resource (at its master pCPU), and every
 *   thread switches to its vCPU of the chosen unit, or to its idle vCPU
 *   when that vCPU is not runnable or the unit has none for it; guest work
 *   resumes on all threads then (after the context switch cost where the
 *   vCPU changed).  A rendezvous whose decision keeps the unit still
 *   stopped the guest on every thread for its duration: that is the cost
 *   of core scheduling's synchronisation.  The guest resumes on all
 *   threads together, when the slowest thread's switch is done, even on a
 *   thread whose vCPU did not change (the rendezvous out of Xen 4.13's
 *   sched_context_switched, which continue_running passes too).
 * - A vCPU of a running unit that wakes or goes to sleep (pause) while
 *   its siblings keep running switches its own thread alone, with the
 *   idle vCPU (force_context_switch); a blocking vCPU asks for a
 *   rendezvous (its SCHEDULE_SOFTIRQ), as in Xen.
 * - A unit is runnable when one of its vCPUs is (unit_runnable); its
 *   state_entry_time and is_running are the unit's own; runstates are the
 *   vCPUs'.
 * With one thread per resource none of this runs: the unit is the vCPU
 * and the path is the one above.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine/scheduler.h"
#include "sim/engine/sim.h"
#include "sim/engine/trace_events.h"
#include "sim/xalloc.h"

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
		v->dom->runstate_changes++;
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

/* The scheduler of v's pool (an idle vCPU's: its pCPU's). */
static struct scheduler *vcpu_sched(const struct sim *s, const struct vcpu *v)
{
	return v->dom->pool ? v->dom->pool->sched : s->pcpus[v->processor].sched;
}

/*
 * An idle pCPU sleeps in a C-state: the softirq raised on it runs only once
 * it is awake again, after the exit latency (sim/engine/hw.h).
 */
void cpu_raise_softirq(struct sim *s, int cpu)
{
	struct pcpu *pc = &s->pcpus[cpu];
	stime_t when = sim_now(s) + (cpu == s->this_cpu || !hw_needs_ipi(s->hw, cpu) ? 0 :
				     s->ipi_latency);

	if (timer_pending(&pc->softirq) && pc->softirq.expires <= when)
		return;
	if (s->hw) {
		when += hw_wake_delay(s->hw, cpu, when);
		if (timer_pending(&pc->softirq) && pc->softirq.expires <= when)
			return;
	}
	timer_set(&s->q, &pc->softirq, when);
}

/* SCHED_SLAVE_SOFTIRQ: an IPI like the above, and an idle thread wakes from its C-state first. */
void cpu_raise_slave_softirq(struct sim *s, int cpu)
{
	struct pcpu *pc = &s->pcpus[cpu];
	stime_t when = sim_now(s) + (cpu == s->this_cpu || !hw_needs_ipi(s->hw, cpu) ? 0 :
				     s->ipi_latency);

	if (timer_pending(&pc->slave) && pc->slave.expires <= when)
		return;
	if (s->hw) {
		when += hw_wake_delay(s->hw, cpu, when);
		if (timer_pending(&pc->slave) && pc->slave.expires <= when)
			return;
	}
	timer_set(&s->q, &pc->slave, when);
}

/* Xen's sched_unit_migrate_finish: a unit off its resource gets a new one, its vCPUs wake. */
static void migrate_finish(struct sim *s, struct vcpu *v)
{
	struct scheduler *sch = vcpu_sched(s, v);
	int new_cpu, i;

	if (v->is_running || !(v->pause_flags & VPF_MIGRATING))
		return;
	new_cpu = sch->ops->pick_resource(sch, v);
	if (new_cpu != v->processor) {
		if (sch->ops->migrate)
			sch->ops->migrate(sch, v, new_cpu);
		else
			sched_set_res(s, v, new_cpu);
	}
	sched_clear_pause_flags(v, VPF_MIGRATING);
	if (!v->members) {
		vcpu_wake(s, v);
		return;
	}
	for (i = 0; i < v->nr_members; i++)
		vcpu_wake(s, v->members[i]);
}

static void context_saved(struct sim *s, struct vcpu *prev)
{
	struct scheduler *sch = vcpu_sched(s, prev);

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

/*
 * The hypervisor's context switch on pc from prev to next: none on bare
 * metal, where a native domain's CPU only halts and resumes (its idle
 * states' exit latencies are the hardware model's).  In Xen the state
 * save and restore (__context_switch) is lazy: context_switch skips it
 * when next is the idle vCPU or the vCPU whose state the pCPU still holds
 * (per_cpu(curr_vcpu), left loaded while the pCPU idled), so a vCPU that
 * blocks and is woken back on its idle pCPU pays none of it
 * (xen/arch/x86/domain.c:1781-1788 of the July 2019 staging; the same
 * test since Xen 3).  The replay reader counts a recorded run's switches
 * by this same rule (sim/input/xentrace_read.c change).
 */
static stime_t switch_cost(const struct sim *s, const struct pcpu *pc, const struct vcpu *prev,
			   const struct vcpu *next)
{
	if ((is_idle_vcpu(prev) || prev->dom->type == DOMAIN_NATIVE) &&
	    (is_idle_vcpu(next) || next->dom->type == DOMAIN_NATIVE))
		return 0;
	if (is_idle_vcpu(next) || next == pc->loaded)
		return 0;
	return s->context_switch_cost;
}

/*
 * pc now holds next's state (its __context_switch ran, or it was still
 * there).  A vCPU whose state another pCPU held had it synced away first
 * (context_switch's flush_mask(FLUSH_VCPU_STATE) on its dirty_cpu), so that
 * pCPU holds none.
 */
static void state_load(struct sim *s, struct pcpu *pc, struct vcpu *next)
{
	if (is_idle_vcpu(next) || pc->loaded == next)
		return;
	if (pc->loaded)
		pc->loaded->dirty_cpu = -1;
	if (next->dirty_cpu >= 0)
		s->pcpus[next->dirty_cpu].loaded = NULL;
	pc->loaded = next;
	next->dirty_cpu = pc->id;
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
	pc->unit = next;
	/* The hardware model: siblings' speed, next's cache fill. */
	work_from = now + switch_cost(s, pc, prev, next);
	state_load(s, pc, next);
	hw_switch(s->hw, pc->id, prev, next, work_from);
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

static void schedule_gang(struct sim *s, struct pcpu *pc);

static void schedule(struct sim *s, struct pcpu *pc)
{
	struct scheduler *sch = pc->sched;
	struct vcpu *prev = pc->curr;
	struct sched_decision d = { NULL, -1, false };
	stime_t now = sim_now(s);

	if (pc->res->nr_cpus > 1) {
		schedule_gang(s, pc);
		return;
	}
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

/* ---- sched-gran > 1: units on the threads of a resource ---- */

/* Xen's unit_running: how many of u's vCPUs are in the running runstate. */
static int unit_running(const struct vcpu *u)
{
	int i, n = 0;

	for (i = 0; i < u->nr_members; i++)
		n += u->members[i]->runstate == RUNSTATE_RUNNING;
	return n;
}


/*
 * Xen's sched_unit2vcpu_cpu: unit u's vCPU for thread idx of its resource
 * if it is to run (runnable at the decision: Xen's new_state, which
 * unit_runnable_state sets), else the thread's idle vCPU.
 */
static struct vcpu *unit_vcpu_for(const struct vcpu *u, int idx, struct vcpu *idle)
{
	struct vcpu *v = u->members && idx < u->nr_members ? u->members[idx] : NULL;

	return v && vcpu_runnable(v) ? v : idle;
}

/*
 * One thread switches from vprev to vnext (the pCPU-level half of
 * sched_switch_units and context_switch); its guest work starts at
 * work_from.  The guest layer was already told vprev stopped.
 */
static void thread_switch(struct sim *s, struct pcpu *pc, struct vcpu *vprev,
			  struct vcpu *vnext, stime_t work_from)
{
	runstate_change(s, vprev, (vprev->pause_flags & VPF_BLOCKED) ? RUNSTATE_BLOCKED :
				  vcpu_runnable(vprev) ? RUNSTATE_RUNNABLE : RUNSTATE_OFFLINE);
	runstate_change(s, vnext, RUNSTATE_RUNNING);
	vprev->is_running = false;
	vnext->is_running = true;
	pc->curr = vnext;
	state_load(s, pc, vnext);
	/* The hardware model: siblings' speed, vnext's cache fill. */
	hw_switch(s->hw, pc->id, vprev, vnext, work_from);
	if (is_idle_vcpu(vnext))
		return;
	vnext->st.context_switches++;
	if (vnext->st.last_cpu >= 0 && vnext->st.last_cpu != pc->id)
		vnext->st.migrations++;
	vnext->st.last_cpu = pc->id;
	cpumask_set(vnext->st.pcpus, (unsigned)pc->id);
	if (s->hooks.vcpu_start)
		s->hooks.vcpu_start(s, vnext, work_from);
}

/* The thread's guest code stops (it entered the hypervisor for the rendezvous). */
static void guest_stop(struct sim *s, struct pcpu *pc)
{
	if (pc->guest_stopped)
		return;
	pc->guest_stopped = true;
	if (!is_idle_vcpu(pc->curr) && s->hooks.vcpu_stop)
		s->hooks.vcpu_stop(s, pc->curr);
}

/*
 * The last thread has arrived: the scheduler decides for the resource at
 * its master (do_schedule, then sched_switch_units on every thread), and
 * the rendezvous ends (unit_context_saved for the unit switched away).
 */
static void gang_switch(struct sim *s, struct sched_resource *r)
{
	struct pcpu *master = &s->pcpus[r->cpus[0]];
	struct scheduler *sch = master->sched;
	struct vcpu *prev = r->curr, *next;
	struct sched_decision d = { NULL, -1, false };
	stime_t now = sim_now(s), resume = now;
	int i;

	s->this_cpu = master->id;
	timer_stop(&s->q, &master->s_timer);
	sch->ops->do_schedule(sch, prev, now, false, &d);
	next = d.next;
	if (d.time_slice >= 0)
		timer_set(&s->q, &master->s_timer, now + d.time_slice);
	if (next != prev) {
		if (s->tracer)
			trace_switch(s, master, prev, next, d.time_slice);
		r->curr = next;
		next->is_running = true;
		next->state_entry_time = now;
	} else if (s->tracer) {
		trace_unit(s, master->id, TRC_SCHED_CONTINUE_RUNNING, prev);
	}
	/*
	 * The rendezvous out (sched_context_switched): each thread, whether
	 * its vCPU changed (context_switch) or not (continue_running), waits
	 * until every thread of the resource has finished its switch, so the
	 * guest resumes on all of them when the slowest switch is done.
	 */
	for (i = 0; i < r->nr_cpus; i++) {
		struct pcpu *pc = &s->pcpus[r->cpus[i]];
		struct vcpu *vnext = unit_vcpu_for(next, i, pc->idle);

		if (vnext != pc->curr && now + switch_cost(s, pc, pc->curr, vnext) > resume)
			resume = now + switch_cost(s, pc, pc->curr, vnext);
	}
	for (i = 0; i < r->nr_cpus; i++) {
		struct pcpu *pc = &s->pcpus[r->cpus[i]];
		struct vcpu *vprev = pc->curr, *vnext = unit_vcpu_for(next, i, pc->idle);

		pc->unit = next;
		pc->in_rendezvous = false;
		pc->guest_stopped = false;
		vnext->force_context_switch = false;
		if (vnext != vprev)
			thread_switch(s, pc, vprev, vnext, resume);
		else if (!is_idle_vcpu(vnext) && s->hooks.vcpu_start)
			s->hooks.vcpu_start(s, vnext, resume);
	}
	if (next != prev)
		context_saved(s, prev);
}

/* Thread pc joins the rendezvous under way on its resource. */
static void rendezvous_arrive(struct sim *s, struct pcpu *pc)
{
	struct sched_resource *r = pc->res;

	if (!pc->in_rendezvous) {
		pc->in_rendezvous = true;
		guest_stop(s, pc);
		r->rendezvous_in--;
	}
	if (r->rendezvous_in == 0)
		gang_switch(s, r);
}

/*
 * Xen's schedule() with sched-gran > 1: start the rendezvous (the other
 * threads get SCHED_SLAVE_SOFTIRQ), or join one under way.
 */
static void schedule_gang(struct sim *s, struct pcpu *pc)
{
	struct sched_resource *r = pc->res;
	int i;

	s->this_cpu = pc->id;
	timer_stop(&s->q, &pc->softirq);
	if (!r->rendezvous_in) {
		timer_stop(&s->q, &s->pcpus[r->cpus[0]].s_timer);
		r->rendezvous_in = r->nr_cpus;
		for (i = 0; i < r->nr_cpus; i++)
			if (r->cpus[i] != pc->id)
				cpu_raise_slave_softirq(s, r->cpus[i]);
	}
	rendezvous_arrive(s, pc);
}

/*
 * Xen's sched_force_context_switch: v, the vCPU of the running unit for
 * this thread, woke (runs now instead of idle) or went to sleep while a
 * sibling of its unit still runs (idle runs instead).  Returns false when
 * there is nothing to do (or v is its unit's last running vCPU: that
 * needs a decision of the scheduler).
 */
static bool force_switch(struct sim *s, struct pcpu *pc, struct vcpu *v)
{
	struct vcpu *vnext;

	v->force_context_switch = false;
	if (vcpu_runnable(v) == v->is_running)
		return false;
	if (vcpu_runnable(v))
		vnext = v;
	else if (unit_running(v->unit) == 1)
		return false;
	else
		vnext = pc->idle;
	guest_stop(s, pc);
	pc->guest_stopped = false;
	thread_switch(s, pc, pc->curr, vnext, sim_now(s) + switch_cost(s, pc, pc->curr, vnext));
	return true;
}

/* Xen's sched_slave (SCHED_SLAVE_SOFTIRQ). */
static void slave_fn(struct timer *t, void *arg)
{
	struct pcpu *pc = arg;
	struct sim *s = pc->sim;
	struct sched_resource *r = pc->res;
	struct vcpu *u = r->curr;
	struct vcpu *v = u->members && !is_idle_vcpu(u) && pc->res_idx < u->nr_members ?
			 u->members[pc->res_idx] : NULL;
	bool failed = false;

	(void)t;
	s->this_cpu = pc->id;
	if (v && v->force_context_switch && !pc->in_rendezvous) {
		if (force_switch(s, pc, v) && !r->rendezvous_in)
			return;
		failed = !r->rendezvous_in;
	}
	if (!r->rendezvous_in) {
		/* A forced switch that could not be done needs the scheduler. */
		if (failed)
			cpu_raise_softirq(s, pc->id);
		return;
	}
	rendezvous_arrive(s, pc);
}

static void softirq_fn(struct timer *t, void *arg)
{
	struct pcpu *pc = arg;

	schedule(pc->sim, pc);
}

/* Xen's sched_force_context_switch request: v's thread switches alone, at SCHED_SLAVE_SOFTIRQ. */
static void request_force_switch(struct sim *s, struct vcpu *v)
{
	v->force_context_switch = true;
	cpu_raise_slave_softirq(s, v->processor);
}

void vcpu_wake(struct sim *s, struct vcpu *v)
{
	struct vcpu *u = v->unit;
	struct scheduler *sch = vcpu_sched(s, v);

	trace_vcpu_event(s, TRC_SCHED_WAKE, v);
	if (vcpu_runnable(v)) {
		if (v->runstate >= RUNSTATE_BLOCKED)
			runstate_change(s, v, RUNSTATE_RUNNABLE);
		sch->ops->wake(sch, u);
		if (u != v && u->is_running && !v->is_running && !v->force_context_switch)
			request_force_switch(s, v);
	} else if (!(v->pause_flags & VPF_BLOCKED)) {
		if (v->runstate == RUNSTATE_BLOCKED)
			runstate_change(s, v, RUNSTATE_OFFLINE);
	}
}

/* Xen's vcpu_sleep_nosync_locked: what migration start shares with sleep, no trace record. */
static void sleep_nosync_locked(struct sim *s, struct vcpu *v)
{
	struct vcpu *u = v->unit;
	struct scheduler *sch = vcpu_sched(s, v);

	if (vcpu_runnable(v))
		return;
	if (v->runstate == RUNSTATE_RUNNABLE)
		runstate_change(s, v, RUNSTATE_OFFLINE);
	/* Only a unit none of whose vCPUs is runnable goes to sleep. */
	if (!vcpu_runnable(u))
		sch->ops->sleep(sch, u);
	else if (unit_running(u) > 1 && v->is_running && !v->force_context_switch)
		request_force_switch(s, v);
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
	struct scheduler *sch = vcpu_sched(s, v);

	if (sch->ops->yield)
		sch->ops->yield(sch, v->unit);
	trace_vcpu_event(s, TRC_SCHED_YIELD, v);
	cpu_raise_softirq(s, v->processor);
}

void vcpu_pause_nosync(struct sim *s, struct vcpu *v)
{
	v->pause_count++;
	if (v->unit != v)
		unit_pause_sync(v->unit);
	vcpu_sleep_nosync(s, v);
}

void vcpu_unpause(struct sim *s, struct vcpu *v)
{
	if (v->pause_count > 0 && --v->pause_count == 0) {
		if (v->unit != v)
			unit_pause_sync(v->unit);
		vcpu_wake(s, v);
	}
}

/* Xen's sched_unit_migrate_start (on v's unit) and, if it is off its resource, finish. */
void vcpu_migrate(struct sim *s, struct vcpu *v)
{
	struct vcpu *u = v->unit;
	int i;

	sched_set_pause_flags(u, VPF_MIGRATING);
	if (!u->members)
		sleep_nosync_locked(s, u);
	for (i = 0; i < u->nr_members; i++)
		sleep_nosync_locked(s, u->members[i]);
	if (!u->is_running)
		migrate_finish(s, u);
}

void vcpu_update_soft_effective(struct vcpu *v)
{
	v->soft_aff_effective = !cpumask_subset(v->hard, v->soft) &&
				cpumask_intersects(v->soft, v->hard);
	v->soft_narrows_pool = v->soft_aff_effective &&
			       !cpumask_subset(cpupool_domain_master_cpumask(v->dom), v->soft);
}

/*
 * Xen's vcpu_set_affinity: store the mask, let the scheduler adjust, and
 * always start a migration so the scheduler re-evaluates the placement
 * (sched_unit_migrate_start/finish), even when the current pCPU stays
 * allowed.  Hard and soft are separate calls in Xen, and so separate
 * migrations here.
 */
/*
 * With sched-gran > 1 the affinity is the unit's (Xen keeps it in
 * struct sched_unit); each of its vCPUs holds it widened to every thread
 * of the resources whose master it names, where they may run.
 */
static void unit_widen(const struct sim *s, const struct vcpu *u, const struct cpumask *m,
		       struct cpumask *out)
{
	unsigned cpu;
	int t;

	cpumask_zero(out);
	for_each_cpu(cpu, u->dom->pool->res_valid) {
		const struct sched_resource *r = s->pcpus[cpu].res;

		if (!cpumask_test(m, cpu))
			continue;
		for (t = 0; t < r->nr_cpus; t++)
			cpumask_set(out, (unsigned)r->cpus[t]);
	}
}

static void set_one_affinity(struct sim *s, struct vcpu *v, bool hard, const struct cpumask *src)
{
	struct vcpu *u = v->unit;
	struct scheduler *sch = vcpu_sched(s, v);
	int i;

	cpumask_copy(hard ? u->hard : u->soft, src);
	vcpu_update_soft_effective(u);
	for (i = 0; i < u->nr_members; i++) {
		struct vcpu *m = u->members[i];

		unit_widen(s, u, src, hard ? m->hard : m->soft);
		vcpu_update_soft_effective(m);
	}
	if (sch->ops->adjust_affinity)
		sch->ops->adjust_affinity(sch, u);
	vcpu_migrate(s, u);
}

int vcpu_set_affinity(struct sim *s, struct vcpu *v, const struct cpumask *hard,
		      const struct cpumask *soft)
{
	if (hard && !cpumask_intersects(hard, cpupool_domain_master_cpumask(v->dom)))
		return -1;
	if (hard)
		set_one_affinity(s, v, true, hard);
	if (soft)
		set_one_affinity(s, v, false, soft);
	return 0;
}

struct vcpu *sim_vcpu_new(struct sim *s, struct domain *d, int id)
{
	struct vcpu *v = xcalloc(1, sizeof(*v));

	v->vcpu_id = id;
	v->dom = d;
	v->unit = v;
	v->hard = cpumask_alloc((unsigned)s->nr_cpus);
	v->soft = cpumask_alloc((unsigned)s->nr_cpus);
	cpumask_fill(v->hard);
	cpumask_fill(v->soft);
	v->st.pcpus = cpumask_alloc((unsigned)s->nr_cpus);
	v->st.woken_at = -1;
	v->st.last_cpu = -1;
	v->dirty_cpu = -1;
	v->hw.warm_core = v->hw.warm_socket = -1;
	return v;
}

void sim_vcpu_free(struct vcpu *v)
{
	cpumask_free(v->hard);
	cpumask_free(v->soft);
	cpumask_free(v->st.pcpus);
	hist_free(&v->st.wake_latency);
	free(v);
}

void sim_core_init_pcpu(struct sim *s, int cpu)
{
	struct pcpu *pc = &s->pcpus[cpu];

	pc->sim = s;
	pc->id = cpu;
	timer_init(&pc->s_timer, softirq_fn, pc);
	timer_init(&pc->softirq, softirq_fn, pc);
	timer_init(&pc->slave, slave_fn, pc);
}

/*
 * Neither inlined nor cloned under another name (link-time optimisation
 * would do both): the run loop keeps its name for profilers, whose counts of
 * a run's events start and stop here (callgrind
 * --toggle-collect=sim_run_until, bench/run.sh).  One call per run.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define KEEP_NAME __attribute__((noipa))
#else
#define KEEP_NAME __attribute__((noinline))
#endif
KEEP_NAME uint64_t sim_run_until(struct sim *s, stime_t until)
{
	struct evq *q = &s->q;
	struct timer *t;
	uint64_t n = 0;

	if (s->tracer && s->tracer->start)
		s->tracer->start(s->tracer, s);
	while (!s->stop_requested && (t = evq_fire_next(q, until))) {
		n++;
		s->this_cpu = -1;
		t->fn(t, t->arg);
		evq_fire_end(q);
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
	if (s->tracer && s->tracer->stop)
		s->tracer->stop(s->tracer, s);
}

/*
 * A unit's pause state as the schedulers read it (vcpu_runnable on the
 * unit is Xen's unit_runnable): clear while one of its vCPUs is runnable;
 * otherwise the flags of all of them together, and a pause count when
 * only counts keep them.
 */
void unit_pause_sync(struct vcpu *u)
{
	unsigned flags = 0;
	int i, count = 0;

	for (i = 0; i < u->nr_members; i++) {
		const struct vcpu *v = u->members[i];

		if (vcpu_runnable(v)) {
			u->pause_flags = 0;
			u->pause_count = 0;
			return;
		}
		flags |= v->pause_flags;
		if (v->pause_count > count)
			count = v->pause_count;
	}
	u->pause_flags = flags;
	u->pause_count = flags ? 0 : count;
}

void unit_change_pause_flags(struct vcpu *u, unsigned f, bool set)
{
	int i;

	for (i = 0; i < u->nr_members; i++) {
		if (set)
			u->members[i]->pause_flags |= f;
		else
			u->members[i]->pause_flags &= ~f;
	}
	unit_pause_sync(u);
}

void unit_set_res_members(struct sim *s, struct vcpu *u)
{
	const struct sched_resource *r = s->pcpus[u->processor].res;
	int i;

	for (i = 0; i < u->nr_members; i++)
		u->members[i]->processor = r->cpus[i];
}
