/*
 * The invariant checker (tests, and --check on the CLI), run after every
 * event: a vCPU runs on at most one pCPU and only inside its hard
 * affinity and its domain's cpupool, a pCPU runs exactly one vCPU, is_running and the running
 * runstate agree with where vCPUs run, each vCPU's runstate times add up
 * to the simulated time and its soft_aff_effective and soft_narrows_pool
 * are what its affinities (and its pool) make them; with sched-gran=core (socket) a thread runs
 * only its resource's unit's vCPU or its idle vCPU, so that no two
 * domains ever run on threads of one core (socket) at the same instant;
 * then the guest layer's own checks (a hook) and the hardware model's.
 * The first violation is kept in s->check_error; later ones are not
 * looked for.
 */
#include <stdio.h>
#include <string.h>

#include "sim/engine/sim.h"

static bool fail(struct sim *s, const char *what, const struct vcpu *v, int cpu)
{
	snprintf(s->check_error, sizeof(s->check_error),
		 "invariant violated at %lld ns: %s (d%dv%d, pCPU %d)",
		 (long long)sim_now(s), what, v ? v->dom->domid : -1,
		 v ? v->vcpu_id : -1, cpu);
	return false;
}

static bool check_vcpu(struct sim *s, struct vcpu *v)
{
	stime_t total = sim_now(s) - v->runstate_entry;
	int r;

	for (r = 0; r < NR_RUNSTATES; r++)
		total += v->st.runstate_ns[r];
	if (total != sim_now(s))
		return fail(s, "runstate times do not add up to the simulated time", v, v->processor);
	if ((v->runstate == RUNSTATE_RUNNING) != v->is_running)
		return fail(s, "runstate 'running' disagrees with is_running", v, v->processor);
	if (v->is_running && s->pcpus[v->processor].curr != v)
		return fail(s, "running vCPU is not current on its processor", v, v->processor);
	if (v->soft_aff_effective != (!cpumask_subset(v->hard, v->soft) &&
				      cpumask_intersects(v->soft, v->hard)))
		return fail(s, "soft_aff_effective disagrees with the vCPU's affinities", v,
			    v->processor);
	if (v->soft_narrows_pool !=
	    (v->soft_aff_effective &&
	     !cpumask_subset(cpupool_domain_master_cpumask(v->dom), v->soft)))
		return fail(s, "soft_narrows_pool disagrees with the vCPU's affinities and pool", v,
			    v->processor);
	return true;
}

/*
 * sched-gran > 1 (Xen's core scheduling): what runs on cpu is the vCPU of
 * its resource's unit for that thread or the idle vCPU, and no thread of
 * the same core (socket) runs a vCPU of another domain.
 */
static bool check_gran(struct sim *s, int cpu)
{
	const struct pcpu *pc = &s->pcpus[cpu];
	const struct cpupool *pool = pc->res->pool;
	const struct vcpu *c = pc->curr;
	const struct cpumask *share = pool->gran == SCHED_GRAN_CORE ? s->topo.sibling_mask[cpu] :
				      s->topo.core_mask[cpu];
	unsigned t;

	if (pc->unit != pc->res->curr)
		return fail(s, "thread's unit is not its resource's", c, cpu);
	if (is_idle_vcpu(c))
		return true;
	if (c->unit != pc->unit || pc->unit->members[pc->res_idx] != c)
		return fail(s, "vCPU runs on a thread of a resource running another unit", c, cpu);
	for_each_cpu(t, share) {
		const struct vcpu *o = s->pcpus[t].curr;

		if (!is_idle_vcpu(o) && o->dom != c->dom)
			return fail(s, pool->gran == SCHED_GRAN_CORE ?
				    "two domains run on threads of one core under sched-gran=core" :
				    "two domains run on threads of one socket under sched-gran=socket",
				    c, cpu);
	}
	return true;
}

/*
 * Every pCPU's current vCPU is running there (processor == that pCPU), and
 * every running vCPU is current on its processor: together they mean a
 * vCPU runs on at most one pCPU, in O(pCPUs + vCPUs).
 */
bool sim_check_invariants(struct sim *s)
{
	char why[256];
	int cpu, d, i;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct vcpu *c = s->pcpus[cpu].curr;

		if (!c)
			return fail(s, "pCPU runs no vCPU", NULL, cpu);
		if (is_idle_vcpu(c) && c != s->pcpus[cpu].idle)
			return fail(s, "pCPU runs another pCPU's idle vCPU", c, cpu);
		if (!c->is_running)
			return fail(s, "pCPU's current vCPU is not marked running", c, cpu);
		if (c->processor != cpu)
			return fail(s, "vCPU runs on a pCPU other than its processor (on two pCPUs?)", c, cpu);
		if (!is_idle_vcpu(c) && !cpumask_test(c->hard, (unsigned)cpu))
			return fail(s, "vCPU runs outside its hard affinity", c, cpu);
		/* cpupool.c: a domain's vCPUs run only on its pool's pCPUs. */
		if (!is_idle_vcpu(c) && !cpumask_test(c->dom->pool->cpu_valid, (unsigned)cpu))
			return fail(s, "vCPU runs outside its domain's cpupool", c, cpu);
		if (!check_vcpu(s, s->pcpus[cpu].idle))
			return false;
		if (s->pcpus[cpu].res->nr_cpus > 1 && !check_gran(s, cpu))
			return false;
	}
	for (d = 0; d < s->nr_domains; d++)
		for (i = 0; i < s->domains[d]->nr_vcpus; i++)
			if (!check_vcpu(s, s->domains[d]->vcpus[i]))
				return false;
	if (s->hooks.check && !s->hooks.check(s))
		return false;
	if (!hw_check(s->hw, why, sizeof(why))) {
		snprintf(s->check_error, sizeof(s->check_error), "invariant violated at %lld ns: %s",
			 (long long)sim_now(s), why);
		return false;
	}
	return true;
}
