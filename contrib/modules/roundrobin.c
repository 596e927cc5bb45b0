/*
 * roundrobin: the template of a schedsim scheduler module (doc/modules.md).
 *
 * The algorithm: one FIFO run queue for the whole cpupool.  A pCPU that
 * schedules takes the first queued vCPU whose hard affinity holds it and
 * runs it for one slice (slice=); the vCPU it replaces, if it can still
 * run, goes to the tail once it is off its pCPU (context_saved), so every
 * runnable vCPU gets its turn.  A pCPU with nothing to take keeps running
 * its vCPU, or idles.  A vCPU that wakes joins the tail and an idle pCPU
 * of its hard affinity is tickled.  No weights, caps or soft affinity.
 *
 * Build it against an installed schedsim and run it beside credit2:
 *   cc -shared -fPIC $(pkg-config --cflags schedsim) roundrobin.c -o rr.so
 *   schedsim --sched=credit2,./rr.so:slice=30ms --iterations=5 --check
 */
#include <stddef.h>
#include <stdlib.h>

#include "schedulers/module.h"

struct rr_config { stime_t slice; };
struct rr_private { struct sched_list runq; };
struct rr_unit {
	struct sched_list elem;   /* on the run queue, or pointing to itself */
	struct vcpu *v;
	bool requeue;             /* to the tail once off its pCPU (context_saved) */
};

static struct rr_unit *rr_unit(const struct vcpu *v) { return v->sched_priv; }
static struct rr_private *rr_priv(const struct scheduler *s) { return s->priv; }

static int rr_init(struct scheduler *s, struct err *e)
{
	struct rr_private *prv = xcalloc(1, sizeof(*prv));

	list_init(&prv->runq);
	s->priv = prv;
	return 0;
}

static void rr_deinit(struct scheduler *s) { free(s->priv); }

static void *rr_alloc_udata(struct scheduler *s, struct vcpu *v, void *dd)
{
	struct rr_unit *u = xcalloc(1, sizeof(*u));

	list_init(&u->elem);
	u->v = v;
	return u;
}

static void rr_free_udata(struct scheduler *s, void *data) { free(data); }

/* Queues v at the tail and tickles an idle pCPU that may run it. */
static void enqueue(struct scheduler *s, struct vcpu *v)
{
	unsigned cpu;

	list_add_tail(&rr_unit(v)->elem, &rr_priv(s)->runq);
	for_each_cpu(cpu, sched_res_valid(s))
		if (cpumask_test(v->hard, cpu) && is_idle_vcpu(curr_on(s->sim, (int)cpu))) {
			cpu_raise_softirq(s->sim, (int)cpu);
			return;
		}
}

static void rr_wake(struct scheduler *s, struct vcpu *v)
{
	if (v->is_running)                  /* still on its pCPU: queue it when it is off */
		rr_unit(v)->requeue = true;
	else if (list_empty(&rr_unit(v)->elem))
		enqueue(s, v);
}

static void rr_insert_unit(struct scheduler *s, struct vcpu *v)
{
	if (vcpu_runnable(v))
		rr_wake(s, v);
}

static void rr_sleep(struct scheduler *s, struct vcpu *v)
{
	rr_unit(v)->requeue = false;
	if (!list_empty(&rr_unit(v)->elem))
		list_del_init(&rr_unit(v)->elem);
	else if (v->is_running)
		cpu_raise_softirq(s->sim, v->processor);
}

static void rr_context_saved(struct scheduler *s, struct vcpu *v)
{
	if (rr_unit(v)->requeue && vcpu_runnable(v))
		enqueue(s, v);
	rr_unit(v)->requeue = false;
}

static void rr_do_schedule(struct scheduler *s, struct vcpu *prev, stime_t now,
			   bool tasklet_work_scheduled, struct sched_decision *out)
{
	const struct rr_config *c = s->config;
	int cpu = s->sim->this_cpu;
	bool prev_runs = !is_idle_vcpu(prev) && vcpu_runnable(prev);
	struct sched_list *it;

	out->next = prev_runs ? prev : sched_idle_unit(s->sim, cpu);
	out->time_slice = prev_runs ? c->slice : -1;
	out->migrated = false;
	list_for_each(it, &rr_priv(s)->runq) {
		struct vcpu *v = list_entry(it, struct rr_unit, elem)->v;

		if (!cpumask_test(v->hard, (unsigned)cpu))
			continue;
		list_del_init(it);
		rr_unit(prev)->requeue = prev_runs;
		out->migrated = v->processor != cpu;
		sched_set_res(s->sim, v, cpu);
		out->next = v;
		out->time_slice = c->slice;
		return;
	}
}

/* Where a moving vCPU goes: where it was if it may stay, else the first pCPU it may use. */
static int rr_pick_resource(struct scheduler *s, struct vcpu *v)
{
	unsigned cpu;

	if (cpumask_test(v->hard, (unsigned)v->processor) &&
	    cpumask_test(sched_res_valid(s), (unsigned)v->processor))
		return v->processor;
	for_each_cpu(cpu, sched_res_valid(s))
		if (cpumask_test(v->hard, cpu))
			return (int)cpu;
	return v->processor;
}

static const struct param_def rr_params[] = {
	{ "slice", PARAM_DURATION, "10ms", NULL, 100000, 1e9,
	  "how long a vCPU runs before the next in the queue gets the pCPU",
	  offsetof(struct rr_config, slice) },
	{ NULL, 0, NULL, NULL, 0, 0, NULL, 0 }
};

static const struct sched_ops rr_ops = {
	.name = "roundrobin",
	.summary = "one FIFO run queue per pool, a fixed slice each (the module template)",
	.params = rr_params,
	.config_size = sizeof(struct rr_config),
	.init = rr_init,
	.deinit = rr_deinit,
	.alloc_udata = rr_alloc_udata,
	.free_udata = rr_free_udata,
	.insert_unit = rr_insert_unit,
	.remove_unit = rr_sleep,
	.sleep = rr_sleep,
	.wake = rr_wake,
	.context_saved = rr_context_saved,
	.do_schedule = rr_do_schedule,
	.pick_resource = rr_pick_resource,
};

SCHEDSIM_MODULE(rr_ops);
