/*
 * Xen's null scheduler (xen/common/sched/null.c), modelled.
 *
 * The algorithm: each vCPU is assigned a pCPU of its own and, once there,
 * is the only thing that ever runs on it; a pCPU either runs its vCPU or
 * idles.  There is no time slice and no preemption.  vCPUs that find no
 * free pCPU (inside their affinity) wait in a FIFO wait queue and do not
 * run at all until a pCPU frees up.
 *
 * Placement (pick_res), for the soft-affinity step and then the hard one:
 * keep the current pCPU if it is free or already ours and inside the step's
 * mask; else take the first free pCPU inside it.  With none free, any pCPU
 * of the hard affinity is returned (the vCPU then waits).
 *
 * A pCPU that loses its vCPU (deassign) looks through the wait queue,
 * first for a waiter whose soft affinity holds it, then hard, and takes the
 * first match.  A wake of an assigned vCPU just tickles its pCPU; a vCPU
 * coming back with no pCPU gets its old one if free and fitting, else it
 * joins the wait queue and every free pCPU it could use is tickled, the
 * first to schedule taking it in do_schedule.
 *
 * Eras (era=2017|4.17|4.22|current): the trees of ../shared/xen-src that
 * have null.c (sched_null.c before 2020): 2017-08-credit2-* (4b6923acff and
 * its two parents; one file), 4.17.5, 4.22.0 and master-2026-08 (the same
 * file as 4.22.0).  One switch differs between them:
 *   offline_deassign  from d545f1d6c2 and faa2c904fb (Aug 2019): a vCPU
 *                     going offline gives its pCPU back (or leaves the
 *                     wait queue), and comes back through wake as a new
 *                     arrival; before, it kept its pCPU while offline.
 * What else differs changes no decision the simulator can reach: locking
 * (4.17 takes a waiter only if its old pCPU's lock can be taken), the
 * removal of a vCPU that never got a pCPU (8a13397211, 2023), and the
 * pCPU's cpus_free bit being set again in do_schedule (the same bit
 * deassign sets).
 */
#include <stddef.h>
#include <stdlib.h>

#include "schedulers/sched.h"
#include "sim/xalloc.h"

struct null_pcpu {
	struct vcpu *unit;          /* assigned vCPU, NULL when free */
};

struct null_unit {
	struct vcpu *v;
	struct null_unit *wq_next, *wq_prev;
	bool in_waitq;
};

enum { NULL_ERA_2017, NULL_ERA_4_17, NULL_ERA_4_22, NULL_ERA_CURRENT };
enum { NULL_SW_ERA, NULL_SW_ON, NULL_SW_OFF };

struct null_config {
	int era;
	int offline_deassign;
};

struct null_private {
	bool offline_deassign;      /* resolved from the era */
	struct cpumask *cpus_free;
	struct cpumask *scratch;
	struct null_unit *waitq_head, *waitq_tail;
};

static struct null_private *null_priv(struct scheduler *s)
{
	return s->priv;
}

static struct null_unit *null_unit(const struct vcpu *v)
{
	return v->sched_priv;
}

static struct null_pcpu *null_pcpu(struct scheduler *s, int cpu)
{
	return s->sim->pcpus[cpu].sched_priv;
}

static void waitq_add_tail(struct null_private *prv, struct null_unit *nvc)
{
	nvc->wq_next = NULL;
	nvc->wq_prev = prv->waitq_tail;
	if (prv->waitq_tail)
		prv->waitq_tail->wq_next = nvc;
	else
		prv->waitq_head = nvc;
	prv->waitq_tail = nvc;
	nvc->in_waitq = true;
}

static void waitq_del(struct null_private *prv, struct null_unit *nvc)
{
	if (!nvc->in_waitq)
		return;
	if (nvc->wq_prev)
		nvc->wq_prev->wq_next = nvc->wq_next;
	else
		prv->waitq_head = nvc->wq_next;
	if (nvc->wq_next)
		nvc->wq_next->wq_prev = nvc->wq_prev;
	else
		prv->waitq_tail = nvc->wq_prev;
	nvc->wq_next = nvc->wq_prev = NULL;
	nvc->in_waitq = false;
}

static bool unit_check_affinity(struct scheduler *s, const struct vcpu *v, int cpu,
				enum balance_step step)
{
	struct cpumask *m = null_priv(s)->scratch;

	affinity_balance_cpumask(v, step, m);
	cpumask_and(m, m, cpupool_domain_master_cpumask(v->dom));
	return cpumask_test(m, (unsigned)cpu);
}

static int null_init(struct scheduler *s, struct err *e)
{
	const struct null_config *c = s->config;
	struct null_private *prv = xcalloc(1, sizeof(*prv));

	(void)e;
	s->initial_cpu = c->era < NULL_ERA_4_17 ? INITIAL_CPU_ANY : INITIAL_CPU_FIRST; /* 8d3c326f67 */
	prv->offline_deassign = c->offline_deassign == NULL_SW_ERA ? c->era >= NULL_ERA_4_17 :
				c->offline_deassign == NULL_SW_ON;
	prv->cpus_free = cpumask_alloc((unsigned)s->sim->nr_cpus);
	prv->scratch = cpumask_alloc((unsigned)s->sim->nr_cpus);
	s->priv = prv;
	return 0;
}

static void null_deinit(struct scheduler *s)
{
	struct null_private *prv = null_priv(s);
	unsigned cpu;

	/* Only its own pool's pCPUs hold its data. */
	for_each_cpu(cpu, sched_res_valid(s)) {
		free(s->sim->pcpus[cpu].sched_priv);
		s->sim->pcpus[cpu].sched_priv = NULL;
	}
	cpumask_free(prv->cpus_free);
	cpumask_free(prv->scratch);
	free(prv);
}

static void null_init_pdata(struct scheduler *s, int cpu)
{
	s->sim->pcpus[cpu].sched_priv = xcalloc(1, sizeof(struct null_pcpu));
	cpumask_set(null_priv(s)->cpus_free, (unsigned)cpu);
}

static void *null_alloc_udata(struct scheduler *s, struct vcpu *v, void *dd)
{
	struct null_unit *nvc = xcalloc(1, sizeof(*nvc));

	nvc->v = v;
	return nvc;
}

static void null_free_udata(struct scheduler *s, void *data)
{
	free(data);
}

static int pick_res(struct scheduler *s, const struct vcpu *v)
{
	struct null_private *prv = null_priv(s);
	struct cpumask *m = prv->scratch;
	int cpu = v->processor, step;
	struct null_pcpu *npc = null_pcpu(s, cpu);
	unsigned new_cpu;

	for_each_affinity_balance_step(step) {
		if (step == BALANCE_SOFT_AFFINITY && !has_soft_affinity(s->sim, v))
			continue;
		affinity_balance_cpumask(v, step, m);
		cpumask_and(m, m, cpupool_domain_master_cpumask(v->dom));
		if ((!npc->unit || npc->unit == v) && cpumask_test(m, (unsigned)cpu))
			return cpu;
		cpumask_and(m, m, prv->cpus_free);
		new_cpu = cpumask_first(m);
		if (new_cpu < m->nbits)
			return (int)new_cpu;
	}
	/* No free pCPU: any pCPU of the hard affinity (Xen's cpumask_any is random). */
	cpumask_and(m, cpupool_domain_master_cpumask(v->dom), v->hard);
	return sim_cpumask_any(s->sim, m);
}

static void unit_assign(struct scheduler *s, struct vcpu *v, int cpu)
{
	null_pcpu(s, cpu)->unit = v;
	sched_set_res(s->sim, v, cpu);
	cpumask_clear_cpu(null_priv(s)->cpus_free, (unsigned)cpu);
}

/* Frees v's pCPU and hands it to a suitable waiter; true if one was tickled. */
static bool unit_deassign(struct scheduler *s, struct vcpu *v)
{
	struct null_private *prv = null_priv(s);
	int cpu = v->processor, step;
	struct null_unit *w;

	null_pcpu(s, cpu)->unit = NULL;
	cpumask_set(prv->cpus_free, (unsigned)cpu);
	for_each_affinity_balance_step(step) {
		for (w = prv->waitq_head; w; w = w->wq_next) {
			if (step == BALANCE_SOFT_AFFINITY && !has_soft_affinity(s->sim, w->v))
				continue;
			if (unit_check_affinity(s, w->v, cpu, step)) {
				waitq_del(prv, w);
				unit_assign(s, w->v, cpu);
				cpu_raise_softirq(s->sim, cpu);
				return true;
			}
		}
	}
	return false;
}

static void null_insert_unit(struct scheduler *s, struct vcpu *v)
{
	struct null_private *prv = null_priv(s);

	for (;;) {
		int cpu = pick_res(s, v);

		sched_set_res(s->sim, v, cpu);
		if (!null_pcpu(s, cpu)->unit) {
			unit_assign(s, v, cpu);
			return;
		}
		cpumask_and(prv->scratch, v->hard, cpupool_domain_master_cpumask(v->dom));
		if (!cpumask_intersects(prv->cpus_free, prv->scratch)) {
			waitq_add_tail(prv, null_unit(v));
			return;
		}
	}
}

static void null_remove_unit(struct scheduler *s, struct vcpu *v)
{
	struct null_unit *nvc = null_unit(v);

	if (nvc->in_waitq)
		waitq_del(null_priv(s), nvc);
	else if (null_pcpu(s, v->processor)->unit == v)
		unit_deassign(s, v);
}

static void null_wake(struct scheduler *s, struct vcpu *v)
{
	struct null_private *prv = null_priv(s);
	struct null_unit *nvc = null_unit(v);
	int cpu = v->processor;
	struct null_pcpu *npc = null_pcpu(s, cpu);
	unsigned c;

	if (curr_on(s->sim, cpu) == v || nvc->in_waitq)
		return;
	if (npc->unit == v) {
		cpu_raise_softirq(s->sim, cpu);
		return;
	}
	if (!npc->unit && unit_check_affinity(s, v, cpu, BALANCE_HARD_AFFINITY) &&
	    (!has_soft_affinity(s->sim, v) ||
	     unit_check_affinity(s, v, cpu, BALANCE_SOFT_AFFINITY))) {
		unit_assign(s, v, cpu);
		cpu_raise_softirq(s->sim, cpu);
		return;
	}
	waitq_add_tail(prv, nvc);
	cpumask_and(prv->scratch, v->hard, cpupool_domain_master_cpumask(v->dom));
	cpumask_and(prv->scratch, prv->scratch, prv->cpus_free);
	for_each_cpu(c, prv->scratch)
		cpu_raise_softirq(s->sim, (int)c);
}

static void null_sleep(struct scheduler *s, struct vcpu *v)
{
	struct null_unit *nvc = null_unit(v);
	bool tickled = false;

	/*
	 * Only an offlined vCPU gives up its pCPU (since d545f1d6c2); a paused
	 * or migrating one keeps it.
	 */
	if ((v->pause_flags & VPF_DOWN) && null_priv(s)->offline_deassign) {
		if (nvc->in_waitq)
			waitq_del(null_priv(s), nvc);
		else if (null_pcpu(s, v->processor)->unit == v)
			tickled = unit_deassign(s, v);
	}
	if (!tickled && curr_on(s->sim, v->processor) == v)
		cpu_raise_softirq(s->sim, v->processor);
}

static int null_pick_resource(struct scheduler *s, struct vcpu *v)
{
	return pick_res(s, v);
}

static void null_migrate(struct scheduler *s, struct vcpu *v, int new_cpu)
{
	struct null_private *prv = null_priv(s);
	struct null_unit *nvc = null_unit(v);
	struct null_pcpu *npc;

	if (v->processor == new_cpu)
		return;
	if (null_pcpu(s, v->processor)->unit == v)
		unit_deassign(s, v);
	npc = null_pcpu(s, new_cpu);
	if (!npc->unit && unit_check_affinity(s, v, new_cpu, BALANCE_HARD_AFFINITY)) {
		waitq_del(prv, nvc);
		unit_assign(s, v, new_cpu);
	} else if (!nvc->in_waitq) {
		waitq_add_tail(prv, nvc);
	}
	sched_set_res(s->sim, v, new_cpu);
}

static void null_do_schedule(struct scheduler *s, struct vcpu *prev, stime_t now,
			     bool tasklet, struct sched_decision *out)
{
	struct null_private *prv = null_priv(s);
	int cpu = s->sim->this_cpu, step;
	struct null_pcpu *npc = null_pcpu(s, cpu);
	struct vcpu *next = tasklet ? NULL : npc->unit;
	struct null_unit *w;

	/* A free pCPU takes a waiter: soft-affinity matches first. */
	if (!next && !tasklet && prv->waitq_head) {
		for_each_affinity_balance_step(step) {
			for (w = prv->waitq_head; w; w = w->wq_next) {
				if (step == BALANCE_SOFT_AFFINITY && !has_soft_affinity(s->sim, w->v))
					continue;
				if (unit_check_affinity(s, w->v, cpu, step)) {
					unit_assign(s, w->v, cpu);
					waitq_del(prv, w);
					next = w->v;
					goto found;
				}
			}
		}
	}
found:
	if (!next && !tasklet)
		cpumask_set(prv->cpus_free, (unsigned)cpu);
	if (!next || !vcpu_runnable(next))
		next = sched_idle_unit(s->sim, cpu);
	out->next = next;
	out->time_slice = -1;
	out->migrated = false;
}

static void null_dump(struct scheduler *s, FILE *f)
{
	struct null_private *prv = null_priv(s);
	struct null_unit *w;
	char buf[256];
	unsigned cpu;

	fprintf(f, "null: cpus_free=%s\n", cpumask_format(prv->cpus_free, buf, sizeof(buf)));
	for_each_cpu(cpu, sched_res_valid(s)) {
		struct vcpu *u = null_pcpu(s, (int)cpu)->unit;

		if (u)
			fprintf(f, "  pCPU %u <- d%dv%d\n", cpu, u->dom->domid, u->vcpu_id);
	}
	fprintf(f, "  waitq:");
	for (w = prv->waitq_head; w; w = w->wq_next)
		fprintf(f, " d%dv%d", w->v->dom->domid, w->v->vcpu_id);
	fprintf(f, "\n");
}

static const struct param_def null_params[] = {
	{ "era", PARAM_ENUM, "current", "2017|4.17|4.22|current", 0, 0,
	  "the Xen tree whose null.c to follow: 2017 (4b6923acff), 4.17 (4.17.5), 4.22 or "
	  "current (master c447b7308b, same file as 4.22.0); sets offline_deassign",
	  offsetof(struct null_config, era) },
	{ "offline_deassign", PARAM_ENUM, "era", "era|on|off", 0, 0,
	  "a vCPU going offline frees its pCPU or leaves the wait queue (from d545f1d6c2, "
	  "Aug 2019; before, it keeps its pCPU)", offsetof(struct null_config, offline_deassign) },
	{ NULL, 0, NULL, NULL, 0, 0, NULL, 0 }
};

const struct sched_ops null_ops = {
	.name = "null",
	.summary = "Xen's null scheduler: one pCPU per vCPU, the rest wait (no time sharing)",
	.params = null_params,
	.config_size = sizeof(struct null_config),
	.init = null_init,
	.deinit = null_deinit,
	.init_pdata = null_init_pdata,
	.alloc_udata = null_alloc_udata,
	.free_udata = null_free_udata,
	.insert_unit = null_insert_unit,
	.remove_unit = null_remove_unit,
	.sleep = null_sleep,
	.wake = null_wake,
	.do_schedule = null_do_schedule,
	.pick_resource = null_pick_resource,
	.migrate = null_migrate,
	.dump = null_dump,
};
