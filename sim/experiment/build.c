/*
 * sim_build(): from a scenario and a scheduler spec to a ready struct sim.
 * The order follows Xen's boot and domain creation: the cpupools are made
 * (sim/engine/cpupool.c: Pool-0 under the spec's scheduler, each <pool> under
 * its own) and their pCPUs join their schedulers with their idle units, then
 * each domain gets its pool's scheduler data, its vCPUs are placed (vCPU 0 as
 * the Xen tree of the pool's scheduler placed it, each next one on the
 * following pCPU: initial_cpu), grouped into units of the pool's granularity
 * and the units inserted, and then the configured affinities are set as xl
 * does after creation.  vCPUs start halted; the guest layer wakes those with
 * work.  Once every domain exists, a scenario's ARINC 653 schedule is
 * installed as the toolstack's XEN_SYSCTL_SCHEDOP_putinfo would, in the pool
 * that runs arinc653.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/experiment/build.h"
#include "schedulers/loader.h"
#include "schedulers/sched.h"
#include "sim/engine/cpupool.h"
#include "sim/engine/numa_place.h"
#include "sim/xalloc.h"
#include "workloads/guest.h"
#include "workloads/workload.h"

/* The seed stream of cpumask_any's draw for a new domain's vCPU 0 (plus its domid). */
#define INITIAL_CPU_STREAM 0x766370753000ULL


static struct domain *domain_new(int domid, const char *name, int nr_vcpus)
{
	struct domain *d = xcalloc(1, sizeof(*d));

	d->domid = domid;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->nr_vcpus = nr_vcpus;
	d->vcpus = xcalloc((size_t)nr_vcpus, sizeof(*d->vcpus));
	return d;
}

static int parse_mask(struct sim *s, const char *text, struct cpumask *m,
		      const char *source, int line, const char *what, struct err *e)
{
	if (!text) {
		cpumask_fill(m);
		return 0;
	}
	if (cpulist_parse(&s->topo, text, m, e) < 0)
		return err_prefix(e, "%s:%d: %s affinity", source, line, what);
	return 0;
}

/*
 * Parses the scenario's affinities of vCPU 'id' of ds into hard and soft
 * (all pCPUs where none is given); errors name the element's line.
 */
static int parse_affinities(struct sim *s, const struct domain_spec *ds, int id,
			    struct cpumask *hard, struct cpumask *soft, const char *source,
			    struct err *e)
{
	const char *htext = ds->hard, *stext = ds->soft;
	int line = ds->affinity_line ? ds->affinity_line : ds->line, i;
	char hb[128], sb[128];

	for (i = 0; i < ds->nvcpu_over; i++) {
		if (ds->vcpu_over[i].id != id)
			continue;
		if (ds->vcpu_over[i].hard)
			htext = ds->vcpu_over[i].hard;
		if (ds->vcpu_over[i].soft)
			stext = ds->vcpu_over[i].soft;
		line = ds->vcpu_over[i].line;
	}
	if (parse_mask(s, htext, hard, source, line, "hard", e) < 0 ||
	    parse_mask(s, stext, soft, source, line, "soft", e) < 0)
		return -1;
	if (!cpumask_intersects(hard, soft))
		return err_set(e, "%s:%d: soft affinity %s of %s vCPU %d does not intersect its hard affinity %s",
			       source, line, cpumask_format(soft, sb, sizeof(sb)), ds->name, id,
			       cpumask_format(hard, hb, sizeof(hb)));
	return 0;
}

/*
 * The RTDS parameters of vCPU 'id' of ds: its <vcpu> override's, else the
 * domain's (each value on its own); all zero where neither gives one.
 */
static struct rt_params rt_params_of(const struct domain_spec *ds, int id)
{
	struct rt_params p = ds->rt;
	int i;

	for (i = 0; i < ds->nvcpu_over; i++) {
		const struct rt_params *o = &ds->vcpu_over[i].rt;

		if (ds->vcpu_over[i].id != id)
			continue;
		if (o->period)
			p.period = o->period;
		if (o->budget)
			p.budget = o->budget;
		if (o->extratime != RT_EXTRATIME_DEFAULT)
			p.extratime = o->extratime;
	}
	return p;
}

/*
 * default_vcpu0_location (xen/common/domctl.c until d5438accce, 2016):
 * among the pool's pCPUs that are not the first thread of a core with
 * several (one per core), the one fewest vCPUs of the existing domains
 * sit on, the highest-numbered on a tie, starting from pCPU 0's second
 * thread.  That start may lie outside the pool (one of the bugs the
 * commit removing it names); the model takes the pool's next pCPU then.
 */
static int least_used_cpu(const struct sim *s, const struct domain *d, const struct cpumask *cpus)
{
	const struct cpumask *sib0 = s->topo.sibling_mask[0];
	struct cpumask *exclude = cpumask_dup(sib0);
	int *cnt = xcalloc((size_t)s->nr_cpus, sizeof(*cnt));
	int cpu = (int)cpumask_first(sib0), i, next;

	/* the new domain's own vCPUs are still down (VPF_down): not counted */
	for (i = 0; i < s->nr_domains; i++)
		for (int k = 0; s->domains[i] != d && k < s->domains[i]->nr_vcpus; k++)
			if (s->domains[i]->vcpus[k])
				cnt[s->domains[i]->vcpus[k]->processor]++;
	next = (int)cpumask_next((unsigned)cpu, sib0);
	if (next < s->nr_cpus)
		cpu = next;
	for (i = (int)cpumask_first(cpus); i < s->nr_cpus; i = (int)cpumask_next((unsigned)i, cpus)) {
		const struct cpumask *sib = s->topo.sibling_mask[i];

		if (cpumask_test(exclude, (unsigned)i))
			continue;
		if (i == (int)cpumask_first(sib) && (int)cpumask_next((unsigned)i, sib) < s->nr_cpus)
			continue;
		cpumask_or(exclude, exclude, sib);
		if (cnt[i] <= cnt[cpu])
			cpu = i;
	}
	free(cnt);
	cpumask_free(exclude);
	return cpumask_test(cpus, (unsigned)cpu) ? cpu : (int)cpumask_cycle((unsigned)cpu, cpus);
}

/*
 * Where a new domain's vCPU starts, before its scheduler's insert: vCPU 0
 * by the rule of the Xen tree the pool's scheduler follows (enum
 * initial_cpu_rule, sim/engine/scheduler.h), each next vCPU on the pCPU after
 * its predecessor's.  dom0's vCPU 0 is on the first pCPU in every tree
 * (built at boot: alloc_dom0_vcpu0, later sched_select_initial_cpu).
 * With node affinity still "all", 4.13's sched_select_initial_cpu takes
 * the first pCPU of the pool.  The first vCPU of a unit places the unit
 * (sched_set_res on that pCPU's resource: cpupool_domain_units).
 */
static int initial_cpu(struct sim *s, struct domain *d, struct vcpu *v)
{
	const struct cpumask *cpus = d->pool->cpu_valid;
	int cpu;

	if (v->vcpu_id == 0) {
		if (d->domid == 0)
			return (int)cpumask_first(cpus);
		switch (d->pool->sched->initial_cpu) {
		case INITIAL_CPU_ANY: {
			/* cpumask_any: get_random() % weight, from a stream of the run's seed */
			struct rng r;

			rng_seed(&r, seed_derive(s->seed, INITIAL_CPU_STREAM + (uint64_t)d->domid));
			cpu = (int)cpumask_nth(cpus, (unsigned)rng_below(&r, cpumask_weight(cpus)));
			break;
		}
		case INITIAL_CPU_LEAST_USED:
			cpu = least_used_cpu(s, d, cpus);
			break;
		case INITIAL_CPU_FIRST:
		default:
			cpu = (int)cpumask_first(cpus);
			break;
		}
	} else {
		cpu = (int)cpumask_cycle(d->vcpus[v->vcpu_id - 1]->processor, cpus);
	}
	if (v->vcpu_id % d->pool->sched_gran == 0)
		cpu = sched_get_resource_cpu(s, cpu);
	return cpu;
}

/*
 * xl's automatic NUMA placement of d (memory_mb MiB): the chosen nodes in
 * nodes[], and every vCPU's soft affinity set to their pCPUs, as
 * libxl__build_pre does with libxl_set_vcpuaffinity_all.  Without a
 * candidate the domain may go anywhere and keeps its affinities.  With
 * autoballoon the free memory placement sees is what xl's freemem() had
 * dom0 give back for d, spread over the nodes: no single node holds it,
 * so the candidate spans them all (a soft affinity of every pCPU).
 */
static int xl_place(struct sim *s, struct domain *d, long long memory_mb, bool *nodes)
{
	int n = s->topo.nr_nodes, *cpus = xcalloc((size_t)n, sizeof(int));
	int *pool_cpus = xcalloc((size_t)n, sizeof(int)), *vcpus = xcalloc((size_t)n, sizeof(int));
	long long *free_mb = xcalloc((size_t)n, sizeof(long long));
	struct cpumask *soft = cpumask_alloc((unsigned)s->nr_cpus);

	/* libxl's numa_place_domain considers only the pCPUs of the domain's pool */
	for (int i = 0; i < n; i++) {
		cpus[i] = (int)cpumask_weight(s->topo.node_mask[i]);
		cpumask_and(soft, s->topo.node_mask[i], d->pool->cpu_valid);
		pool_cpus[i] = (int)cpumask_weight(soft);
		free_mb[i] = hw_autoballoon(s->hw) ? memory_mb / n + (i < memory_mb % n)
						    : hw_node_free_mb(s->hw, i);
	}
	numa_vcpus_on_nodes(s, d->pool->cpu_valid, vcpus);
	cpumask_zero(soft);
	if (!numa_place_candidate(n, cpus, pool_cpus, free_mb, vcpus, d->nr_vcpus, memory_mb,
				  nodes)) {
		memset(nodes, 1, (size_t)n * sizeof(*nodes));
	} else {
		for (int i = 0; i < n; i++)
			if (nodes[i])
				cpumask_or(soft, soft, s->topo.node_mask[i]);
		for (int i = 0; i < d->nr_vcpus; i++)
			vcpu_set_affinity(s, d->vcpus[i], NULL, soft);
	}
	cpumask_free(soft);
	free(pool_cpus);
	free(cpus);
	free(vcpus);
	free(free_mb);
	return 0;
}

/* xl's default memory= (libxl_create.c, libxl__domain_build_info_setdefault). */
#define XL_DEFAULT_MEMORY_MB 32

/*
 * Where d's memory goes (sim/engine/numa_place.h): the nodes the scenario
 * names; dom0's over all nodes (it is allocated at boot, not by xl); Xen's
 * node affinity when the scenario gives an affinity; else xl's automatic
 * placement, which also sets every vCPU's soft affinity to the pCPUs of the
 * chosen nodes.  The ideal machine has uniform memory: nothing is placed and
 * xl finds no NUMA to place on.
 */
static int place_memory(struct sim *s, const struct scenario *sc, const struct domain_spec *ds,
			struct domain *d, struct err *e)
{
	int n = s->topo.nr_nodes, rc = 0;
	bool *nodes = xcalloc((size_t)n, sizeof(*nodes)), strict = false;
	long long mb = ds->memory_mb;

	if (ds->numa_nodes) {
		rc = numa_parse_nodes(ds->numa_nodes, n, nodes, e);
		strict = true;
	} else if (d->domid == 0 || d->type == DOMAIN_NATIVE || hw_is_ideal(s->hw)) {
		memset(nodes, 1, (size_t)n * sizeof(*nodes));
	} else if (ds->hard || ds->soft || ds->nvcpu_over) {
		numa_node_affinity(s, d, nodes);
	} else {
		rc = xl_place(s, d, mb ? mb : XL_DEFAULT_MEMORY_MB, nodes);
	}
	if (rc == 0 && !hw_is_ideal(s->hw)) {
		if (!mb && d->domid != 0)
			mb = XL_DEFAULT_MEMORY_MB;
		rc = hw_domain_memory(s->hw, d, nodes, mb, strict, e);
	}
	free(nodes);
	if (rc < 0)
		return err_prefix(e, "%s:%d: domain '%s'", ds->source ? ds->source : sc->source,
				  ds->line, ds->name);
	return 0;
}

/*
 * With sched-gran > 1 the vCPUs of a unit share one hard and one soft
 * affinity (Xen keeps them in the unit: setting one vCPU's sets the
 * unit's) and one set of RTDS parameters (putvcpuinfo on one sets the
 * unit's).  A scenario that gives them different ones cannot be run as
 * written, and is refused.
 */
static int unit_params_agree(struct sim *s, const struct scenario *sc,
			     const struct domain_spec *ds, const struct cpupool *pool, struct err *e)
{
	struct cpumask *hard = cpumask_alloc((unsigned)s->nr_cpus);
	struct cpumask *soft = cpumask_alloc((unsigned)s->nr_cpus);
	struct cpumask *hard0 = cpumask_alloc((unsigned)s->nr_cpus);
	struct cpumask *soft0 = cpumask_alloc((unsigned)s->nr_cpus);
	int i, ret = 0;

	for (i = 0; i < ds->vcpus && ret == 0; i++) {
		int first = i - i % pool->sched_gran;
		struct rt_params p = rt_params_of(ds, i), p0 = rt_params_of(ds, first);

		if (first == i) {
			ret = parse_affinities(s, ds, i, hard0, soft0, sc->source, e);
			continue;
		}
		ret = parse_affinities(s, ds, i, hard, soft, sc->source, e);
		if (ret == 0 && (!cpumask_equal(hard, hard0) || !cpumask_equal(soft, soft0)))
			ret = err_set(e, "%s:%d: %s vCPUs %d and %d form one scheduling unit "
				      "(sched-gran=%s), so they need the same hard and soft affinity",
				      sc->source, ds->affinity_line ? ds->affinity_line : ds->line,
				      ds->name, first, i, sched_gran_name(pool->gran));
		else if (ret == 0 && (p.period != p0.period || p.budget != p0.budget ||
				      p.extratime != p0.extratime))
			ret = err_set(e, "%s:%d: %s vCPUs %d and %d form one scheduling unit "
				      "(sched-gran=%s), so they need the same period, budget and "
				      "extratime", sc->source, ds->line, ds->name, first, i,
				      sched_gran_name(pool->gran));
	}
	cpumask_free(hard);
	cpumask_free(soft);
	cpumask_free(hard0);
	cpumask_free(soft0);
	return ret;
}

/*
 * Creates the domain the way Xen and xl do: in its pool, every vCPU is
 * made and the units of the pool's granularity inserted into the pool's
 * scheduler with default affinities; then the configured affinities are
 * set (hard, then soft), each setting migrating the unit so that the
 * scheduler places it anew.  A scheduler that leaves a unit outside its
 * new hard affinity (arinc653 keeps vCPUs where they were created) cannot
 * run the scenario as written: that is refused.  The RTDS parameters are
 * in place before the scheduler allocates the unit (see rtds.c); those a
 * scheduler cannot take (its check_rt hook) are refused before any of
 * the domain's vCPUs is built, and so is a cap it cannot take with the
 * domain's units (check_cap: credit2's 100 per unit at sched-gran > cpu).
 * Then its memory is placed (which may set the soft affinities as xl's
 * NUMA placement does).
 */
/*
 * A native domain is the bare-metal run of a benchmark: one operating
 * system alone on the machine, its CPUs the host's threads.  So it is the
 * scenario's only domain, its vCPU i is pinned to the i-th pCPU of its
 * pool (native_cpu), and it takes no affinity of its own; whichever
 * scheduler runs it then runs each vCPU on its own pCPU (the null
 * scheduler's 1:1), and the core charges it no hypervisor context switch.
 */
static int check_native(const struct scenario *sc, const struct domain_spec *ds,
			const struct cpupool *pool, struct err *e)
{
	unsigned cpus = cpumask_weight(pool->cpu_valid);

	if (sc->ndoms > 1)
		return err_set(e, "%s:%d: domain '%s' is native (bare metal): it must be the "
			       "scenario's only domain (there is no hypervisor to run another)",
			       sc->source, ds->line, ds->name);
	if (ds->hard || ds->soft || ds->nvcpu_over)
		return err_set(e, "%s:%d: domain '%s' is native: its vCPUs are the host's CPUs "
			       "1:1 and take no affinity", sc->source,
			       ds->affinity_line ? ds->affinity_line : ds->line, ds->name);
	if ((unsigned)ds->vcpus > cpus)
		return err_set(e, "%s:%d: domain '%s' is native with %d vCPUs but its pool has "
			       "%u pCPUs (one CPU per pCPU)", sc->source, ds->line, ds->name,
			       ds->vcpus, cpus);
	return 0;
}

/* A native domain's vCPU i runs on the i-th pCPU of its pool, alone. */
static void native_cpu(const struct cpupool *pool, int i, struct cpumask *hard)
{
	cpumask_zero(hard);
	cpumask_set(hard, cpumask_nth(pool->cpu_valid, (unsigned)i));
}

static int build_domain(struct sim *s, const struct scenario *sc, const struct domain_spec *ds,
			int domid, struct err *e)
{
	struct domain *d = domain_new(domid, ds->name, ds->vcpus);
	struct cpumask *hard = cpumask_alloc((unsigned)s->nr_cpus);
	struct cpumask *soft = cpumask_alloc((unsigned)s->nr_cpus);
	struct scheduler *sch;
	char hb[128], pb[128];
	int i, ret = 0;

	d->weight = ds->weight;
	d->cap = ds->cap;
	d->type = ds->type != DOMAIN_TYPE_DEFAULT ? ds->type : DOMAIN_PV;
	d->kernel = ds->kernel;
	d->llc = ds->llc;
	d->pool = cpupool_find(s, ds->pool);
	s->domains[s->nr_domains++] = d;
	if (!d->pool) {
		d->pool = s->pools[0];
		ret = err_set(e, "%s:%d: domain %s is in cpupool '%s', which the scenario does not "
			      "have", sc->source, ds->line, ds->name, ds->pool);
		goto out;
	}
	if (d->type == DOMAIN_NATIVE && (ret = check_native(sc, ds, d->pool, e)) < 0)
		goto out;
	sch = d->pool->sched;
	if (d->pool->sched_gran > 1 && (ret = unit_params_agree(s, sc, ds, d->pool, e)) < 0)
		goto out;
	if (sch->ops->check_rt) {
		struct rt_params *rt = xcalloc((size_t)ds->vcpus, sizeof(*rt));

		for (i = 0; i < ds->vcpus; i++)
			rt[i] = rt_params_of(ds, i);
		ret = sch->ops->check_rt(sch, rt, ds->vcpus, e);
		free(rt);
		if (ret < 0) {
			err_prefix(e, "%s:%d: domain '%s'", sc->source, ds->line, ds->name);
			goto out;
		}
	}
	if (d->cap && sch->ops->check_cap) {
		int units = (ds->vcpus + d->pool->sched_gran - 1) / d->pool->sched_gran;

		ret = sch->ops->check_cap(sch, d->cap, units, e);
		if (ret < 0) {
			err_prefix(e, "%s:%d: domain '%s'", sc->source, ds->line, ds->name);
			goto out;
		}
	}
	cpupool_domain_units_alloc(d);
	if (sch->ops->alloc_domdata)
		d->sched_priv = sch->ops->alloc_domdata(sch, d);
	/* vCPU by vCPU, each placed after its predecessor's unit was inserted (sched_init_vcpu). */
	for (i = 0; i < d->nr_vcpus; i++) {
		struct vcpu *v = sim_vcpu_new(s, d, i), *u;

		d->vcpus[i] = v;
		vcpu_update_soft_effective(v);
		v->processor = initial_cpu(s, d, v);
		v->pause_flags = VPF_BLOCKED;
		v->runstate = RUNSTATE_BLOCKED;
		v->rt = rt_params_of(ds, i);
		u = cpupool_vcpu_unit(s, d, v);
		if (!u)
			continue;
		u->sched_priv = sch->ops->alloc_udata(sch, u, d->sched_priv);
		if (sch->ops->insert_unit)
			sch->ops->insert_unit(sch, u);
	}
	for (i = 0; i < d->nr_vcpus && ret == 0; i++) {
		struct vcpu *v = d->vcpus[i], *u = v->unit;

		ret = parse_affinities(s, ds, i, hard, soft,
				       ds->affinity_source ? ds->affinity_source : sc->source, e);
		if (ret < 0)
			break;
		if (d->type == DOMAIN_NATIVE)
			native_cpu(d->pool, i, hard);
		if (!cpumask_full(hard) &&
		    vcpu_set_affinity(s, v, hard, NULL) < 0)
			ret = err_set(e, "%s:%d: hard affinity %s of %s vCPU %d holds no pCPU "
				      "that %s's scheduler sees (%s%s)",
				      ds->affinity_source ? ds->affinity_source : sc->source,
				      ds->affinity_line ? ds->affinity_line : ds->line,
				      cpumask_format(hard, hb, sizeof(hb)), ds->name, i, d->pool->name,
				      cpumask_format(cpupool_domain_master_cpumask(d), pb, sizeof(pb)),
				      d->pool->sched_gran > 1 ?
				      ": the first thread of each scheduling resource" : "");
		else if (!cpumask_test(u->hard, (unsigned)u->processor))
			ret = err_set(e, "%s:%d: the %s scheduler leaves %s vCPU %d on pCPU %d, outside "
				      "its hard affinity %s (it does not honour hard affinity)",
				      ds->affinity_source ? ds->affinity_source : sc->source,
				      ds->affinity_line ? ds->affinity_line : ds->line,
				      sch->ops->name, ds->name, i, v->processor,
				      cpumask_format(u->hard, hb, sizeof(hb)));
		if (ret == 0 && !cpumask_full(soft))
			vcpu_set_affinity(s, v, NULL, soft);
	}
out:
	cpumask_free(hard);
	cpumask_free(soft);
	if (ret == 0)
		ret = place_memory(s, sc, ds, d, e);
	return ret;
}

/*
 * The pool a scenario's <arinc653> is for: the one it names, else the
 * one whose scheduler takes a schedule (NULL: none does, and the
 * schedule is ignored, as schedulers without one ignore it).
 */
static int arinc653_pool(struct sim *s, const struct scenario *sc, struct cpupool **out,
			 struct err *e)
{
	const struct arinc653_spec *a = &sc->arinc653;
	int i;

	*out = NULL;
	if (a->pool[0]) {
		struct cpupool *c = cpupool_find(s, a->pool);

		if (!c)
			return err_set(e, "%s:%d: <arinc653> is for cpupool '%s', which the scenario "
				       "does not have", sc->source, a->line, a->pool);
		if (c->sched->ops->adjust_global)
			*out = c;
		return 0;
	}
	for (i = 0; i < s->nr_pools; i++) {
		if (!s->pools[i]->sched->ops->adjust_global)
			continue;
		if (*out)
			return err_set(e, "%s:%d: cpupools %s and %s both run a scheduler that takes "
				       "an ARINC 653 schedule: say which with <arinc653 pool=\"...\">",
				       sc->source, a->line, (*out)->name, s->pools[i]->name);
		*out = s->pools[i];
	}
	return 0;
}

/*
 * The scenario's <arinc653> as XEN_SYSCTL_SCHEDOP_putinfo carries it,
 * domains by domid, installed through the pool's scheduler's
 * adjust_global; each minor frame's domain must be in that pool.
 */
static int install_arinc653(struct sim *s, const struct scenario *sc, struct err *e)
{
	const struct arinc653_spec *a = &sc->arinc653;
	struct arinc653_schedule sched;
	struct sched_global_op op = { &sched };
	struct cpupool *pool;
	stime_t total = 0;
	int i, d;

	if (!a->line)
		return 0;
	if (arinc653_pool(s, sc, &pool, e) < 0)
		return -1;
	if (!pool)
		return 0;
	memset(&sched, 0, sizeof(sched));
	if (a->nframes > ARINC653_MAX_DOMAINS_PER_SCHEDULE)
		return err_set(e, "%s:%d: more than %d minor frames", sc->source, a->line,
			       ARINC653_MAX_DOMAINS_PER_SCHEDULE);
	for (i = 0; i < a->nframes; i++) {
		const struct minor_frame_spec *f = &a->frames[i];

		for (d = 0; d < s->nr_domains; d++)
			if (strcmp(s->domains[d]->name, f->domain) == 0)
				break;
		if (d == s->nr_domains || f->vcpu >= s->domains[d]->nr_vcpus)
			return err_set(e, "%s:%d: <minor-frame> names %s vCPU %d, which does not exist",
				       sc->source, f->line, f->domain, f->vcpu);
		if (s->domains[d]->pool != pool)
			return err_set(e, "%s:%d: <minor-frame> names %s, which is in cpupool %s, "
				       "not in %s (whose arinc653 scheduler takes the schedule)",
				       sc->source, f->line, f->domain, s->domains[d]->pool->name,
				       pool->name);
		sched.entries[i].domid = s->domains[d]->domid;
		sched.entries[i].vcpu_id = f->vcpu;
		sched.entries[i].runtime = f->runtime;
		total += f->runtime;
	}
	sched.num_sched_entries = a->nframes;
	sched.major_frame = a->major_frame ? a->major_frame : total;
	if (pool->sched->ops->adjust_global(pool->sched, &op, e) < 0)
		return err_prefix(e, "%s:%d", sc->source, a->line);
	return 0;
}

struct sim *sim_build(const struct scenario *sc, const struct sched_spec *spec, struct err *e)
{
	return sim_build_with(sc, spec, NULL, e);
}

struct sim *sim_build_with(const struct scenario *sc, const struct sched_spec *spec,
			   const struct sched_modules *modules, struct err *e)
{
	const struct host_spec *h = &sc->host;
	struct hw_config hwc;
	struct sim *s = xcalloc(1, sizeof(*s));
	int cpu, i, next_domid = 1, wl = 0;

	evq_init(&s->q);
	s->this_cpu = -1;
	s->seed = sc->seed;
	rng_seed(&s->rng, seed_derive(sc->seed, 1));
	if (host_spec_topology(h, &s->topo, e) < 0) {
		err_prefix(e, "%s:%d", sc->source, h->line);
		free(s);
		return NULL;
	}
	s->nr_cpus = s->topo.nr_cpus;
	s->online = cpumask_dup(s->topo.all);
	if (hw_config_init(&hwc, &h->hw, NULL, e) < 0) {
		err_prefix(e, "%s:%d: <host>", sc->source, h->line);
		topology_free(&s->topo);
		cpumask_free(s->online);
		free(s);
		return NULL;
	}
	s->ipi_latency = h->ipi_latency;
	s->context_switch_cost = h->context_switch;
	s->pcpus = xcalloc((size_t)s->nr_cpus, sizeof(*s->pcpus));
	s->domains = xcalloc((size_t)sc->ndoms + 1, sizeof(*s->domains));
	s->hw = hwc.mode == HW_IDEAL ? NULL : hw_create(s, &hwc);
	s->idle_domain = domain_new(DOMID_IDLE, "idle", s->nr_cpus);
	s->idle_domain->is_idle = true;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct vcpu *idle = sim_vcpu_new(s, s->idle_domain, cpu);

		sim_core_init_pcpu(s, cpu);
		idle->processor = cpu;
		idle->is_running = true;
		idle->runstate = RUNSTATE_RUNNING;
		s->idle_domain->vcpus[cpu] = idle;
		s->pcpus[cpu].idle = s->pcpus[cpu].curr = idle;
	}

	if (cpupools_build(s, sc, spec, sched_modules_create, modules, e) < 0)
		goto fail;

	for (i = 0; i < sc->ndoms; i++) {
		const struct domain_spec *ds = &sc->doms[i];
		int domid = strcmp(ds->name, "dom0") == 0 ? 0 : next_domid++;

		if (build_domain(s, sc, ds, domid, e) < 0)
			goto fail;
	}
	if (install_arinc653(s, sc, e) < 0)
		goto fail;

	guest_attach_all(s);
	for (i = 0; i < sc->ndoms; i++)
		wl += sc->doms[i].nworkloads;
	s->workloads = xcalloc((size_t)wl + 1, sizeof(*s->workloads));
	for (i = 0; i < sc->ndoms; i++) {
		int k;

		for (k = 0; k < sc->doms[i].nworkloads; k++) {
			struct workload *w = workload_create(s, s->domains[i], &sc->doms[i].workloads[k],
							     sc->source,
							     seed_derive(sc->seed, 1000 + (uint64_t)i * 64 + (uint64_t)k),
							     e);

			if (!w)
				goto fail;
			s->workloads[s->nr_workloads++] = w;
		}
	}
	return s;
fail:
	sim_destroy(s);
	return NULL;
}

int sim_workloads(struct sim *s, struct workload ***out)
{
	*out = s->workloads;
	return s->nr_workloads;
}

/* The unit's scheduler data, freed by the scheduler that made it. */
static void unit_free_udata(struct scheduler *sch, struct vcpu *u)
{
	if (sch && u->sched_priv && sch->ops->free_udata)
		sch->ops->free_udata(sch, u->sched_priv);
	u->sched_priv = NULL;
}

void sim_destroy(struct sim *s)
{
	int d, i;

	if (!s)
		return;
	/* Disarm every timer first, while everything that embeds one still exists. */
	evq_free(&s->q);
	for (i = 0; i < s->nr_workloads; i++)
		workload_destroy(s->workloads[i]);
	free(s->workloads);
	guest_free_all(s);
	hw_free(s->hw);
	for (d = 0; d < s->nr_domains; d++) {
		struct domain *dom = s->domains[d];
		struct scheduler *sch = dom->pool->sched;

		for (i = 0; dom->units && i < dom->nr_units; i++)
			if (dom->units[i])
				unit_free_udata(sch, dom->units[i]);
		cpupool_domain_units_free(dom);
		for (i = 0; i < dom->nr_vcpus; i++)
			if (dom->vcpus[i])
				sim_vcpu_free(dom->vcpus[i]);
		if (sch && dom->sched_priv && sch->ops->free_domdata)
			sch->ops->free_domdata(sch, dom->sched_priv);
		free(dom->vcpus);
		free(dom);
	}
	free(s->domains);
	for (i = 0; i < s->nr_cpus; i++)
		if (s->pcpus[i].idle_unit && s->pcpus[i].res_idx == 0)
			unit_free_udata(s->pcpus[i].sched, s->pcpus[i].idle_unit);
	for (i = 0; i < s->nr_pools; i++)
		sched_destroy(s->pools[i]->sched);
	cpupools_free(s);
	if (s->idle_domain) {
		for (i = 0; i < s->idle_domain->nr_vcpus; i++)
			if (s->idle_domain->vcpus[i])
				sim_vcpu_free(s->idle_domain->vcpus[i]);
		free(s->idle_domain->vcpus);
		free(s->idle_domain);
	}
	free(s->pcpus);
	cpumask_free(s->online);
	topology_free(&s->topo);
	free(s);
}
