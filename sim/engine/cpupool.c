/*
 * cpupools and scheduling granularity, as Xen's xen/common/sched/cpupool.c
 * and the unit and resource set-up of core.c (sched_alloc_unit,
 * schedule_cpu_add, sched_get_opt_cpumask) have them:
 *
 * - A pool owns a set of pCPUs (a pCPU is in exactly one), one scheduler
 *   instance and one granularity.  Its scheduler only ever sees its own
 *   pCPUs (res_valid, one master per resource) and its own domains.
 *   Pool-0 keeps every pCPU no other pool takes; pCPU 0 must stay in it
 *   (cpupool_unassign_cpu refuses to move it).
 * - sched-gran=cpu|core|socket groups a pool's pCPUs into scheduling
 *   resources of one pCPU, the threads of a core (cpu_sibling_mask) or of a
 *   socket (cpu_core_mask); a pool takes whole resources, and every core
 *   (socket) of the host must have as many threads for a granularity to
 *   exist (cpupool_check_granularity; Xen falls back to a smaller one at
 *   boot, schedsim refuses).  The resource's master is its lowest pCPU.
 * - A domain's vCPUs form units of as many vCPUs as a resource has
 *   threads: unit k holds vCPUs k*gran .. k*gran+gran-1 (fewer in the last
 *   one), unit_id being its first vCPU's id.
 *
 * Xen builds the pools at run time (Pool-0 gets every pCPU at boot; the
 * toolstack then moves pCPUs into new pools, migrating what ran there).
 * schedsim builds them as they end up, before any domain exists: the same
 * pools, without the moves.
 */
#include "sim/engine/cpupool.h"

#include <stdlib.h>
#include <string.h>

#include "sim/engine/scheduler.h"
#include "sim/xalloc.h"

static const char *const gran_names[] = { "cpu", "core", "socket" };

const char *sched_gran_name(enum sched_gran g)
{
	return gran_names[g];
}

int sched_spec_take_gran(const struct sched_spec *in, struct sched_spec *out,
			 enum sched_gran *gran, struct err *e)
{
	int i, g;

	memset(out, 0, sizeof(*out));
	memcpy(out->name, in->name, sizeof(out->name));
	memcpy(out->text, in->text, sizeof(out->text));
	*gran = SCHED_GRAN_CPU;
	for (i = 0; i < in->params.n; i++) {
		const struct kv *kv = &in->params.v[i];

		if (strcmp(kv->key, "gran") != 0) {
			kvlist_add(&out->params, kv->key, kv->value, kv->line);
			continue;
		}
		for (g = 0; g < 3 && strcmp(kv->value, gran_names[g]) != 0; g++)
			;
		if (g == 3) {
			sched_spec_free(out);
			return err_set(e, "%s: gran: '%s' is not one of cpu|core|socket", in->name,
				       kv->value);
		}
		*gran = (enum sched_gran)g;
	}
	return 0;
}

/* Xen's sched_get_opt_cpumask: the pCPUs that share cpu's resource under gran. */
static const struct cpumask *gran_mask(const struct sim *s, enum sched_gran gran, int cpu)
{
	switch (gran) {
	case SCHED_GRAN_CORE:
		return s->topo.sibling_mask[cpu];
	case SCHED_GRAN_SOCKET:
		return s->topo.core_mask[cpu];
	default:
		return NULL;
	}
}

/*
 * Xen's cpupool_check_granularity: pCPUs per resource, the same for every
 * pCPU of the host, or 0 when they differ.
 */
static int gran_size(const struct sim *s, enum sched_gran gran)
{
	int cpu, size = 0;

	if (gran == SCHED_GRAN_CPU)
		return 1;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		int n = (int)cpumask_weight(gran_mask(s, gran, cpu));

		if (size && n != size)
			return 0;
		size = n;
	}
	return size;
}

static struct cpupool *pool_new(struct sim *s, int id, const char *name)
{
	struct cpupool *c = xcalloc(1, sizeof(*c));

	c->id = id;
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->cpu_valid = cpumask_alloc((unsigned)s->nr_cpus);
	c->res_valid = cpumask_alloc((unsigned)s->nr_cpus);
	s->pools[s->nr_pools++] = c;
	return c;
}

/* The line of pool c's <pool>, or of the <pool> that split c's core (Pool-0). */
static int pool_line(const struct scenario *sc, const struct cpupool *c,
		     const struct cpupool *other)
{
	const struct cpupool *at = c->id ? c : other;

	return at->id ? sc->pools[at->id - 1].line : sc->line;
}

/*
 * A pool with sched-gran=core (socket) holds whole cores (sockets), as
 * cpupool_assign_cpu_locked adds them: refuse a pool that holds part of one.
 */
static int pool_whole_resources(struct sim *s, const struct scenario *sc,
				const struct cpupool *c, struct err *e)
{
	const char *what = c->gran == SCHED_GRAN_CORE ? "core" : "socket";
	unsigned cpu, t;
	int k;

	if (c->gran == SCHED_GRAN_CPU)
		return 0;
	for_each_cpu(cpu, c->cpu_valid) {
		const struct cpumask *m = gran_mask(s, c->gran, (int)cpu);
		const struct cpupool *other = NULL;

		if (cpumask_subset(m, c->cpu_valid))
			continue;
		for_each_cpu(t, m)
			if (!cpumask_test(c->cpu_valid, t))
				break;
		for (k = 0; k < s->nr_pools; k++)
			if (cpumask_test(s->pools[k]->cpu_valid, t))
				other = s->pools[k];
		return err_set(e, "%s:%d: cpupool %s has sched-gran=%s and pCPU %u, but pCPU %u of "
			       "the same %s is in %s (a pool takes whole %ss)", sc->source,
			       pool_line(sc, c, other), c->name, sched_gran_name(c->gran), cpu, t,
			       what, other->name, what);
	}
	return 0;
}

/*
 * An idle unit for resource r of a pool with gran > 1: the threads' idle
 * vCPUs are its members; it runs from the start.
 */
static struct vcpu *idle_unit_new(struct sim *s, struct sched_resource *r)
{
	struct vcpu *u = sim_vcpu_new(s, s->idle_domain, r->cpus[0]);
	int i;

	u->processor = r->cpus[0];
	u->is_running = true;
	u->runstate = RUNSTATE_RUNNING;
	u->members = xcalloc((size_t)r->nr_cpus, sizeof(*u->members));
	u->nr_members = r->nr_cpus;
	for (i = 0; i < r->nr_cpus; i++) {
		u->members[i] = s->pcpus[r->cpus[i]].idle;
		u->members[i]->unit = u;
	}
	return u;
}

/* Groups c's pCPUs (whole resources) into resources, each with its idle unit. */
static void pool_resources(struct sim *s, struct cpupool *c)
{
	struct cpumask *left = cpumask_dup(c->cpu_valid);
	unsigned cpu, t;
	int i, k;

	c->res = xcalloc((size_t)cpumask_weight(c->cpu_valid), sizeof(*c->res));
	for (cpu = cpumask_first(left); cpu < left->nbits; cpu = cpumask_first(left)) {
		const struct cpumask *m = gran_mask(s, c->gran, (int)cpu);
		struct sched_resource *r = &c->res[c->nr_res++];

		r->pool = c;
		r->nr_cpus = c->sched_gran;
		r->cpus = xcalloc((size_t)r->nr_cpus, sizeof(*r->cpus));
		i = 0;
		if (m) {
			for_each_cpu(t, m)
				r->cpus[i++] = (int)t;
		} else {
			r->cpus[0] = (int)cpu;
		}
		for (i = 0; i < r->nr_cpus; i++) {
			struct pcpu *pc = &s->pcpus[r->cpus[i]];

			cpumask_clear_cpu(left, (unsigned)r->cpus[i]);
			pc->res = r;
			pc->res_idx = i;
		}
		cpumask_set(c->res_valid, (unsigned)r->cpus[0]);
		r->idle = r->nr_cpus > 1 ? idle_unit_new(s, r) : s->pcpus[r->cpus[0]].idle;
		r->curr = r->idle;
		for (k = 0; k < r->nr_cpus; k++) {
			s->pcpus[r->cpus[k]].idle_unit = r->idle;
			s->pcpus[r->cpus[k]].unit = r->idle;
		}
	}
	cpumask_free(left);
}

/*
 * Pool c's scheduler spec (its own, or spec) without gran, and its
 * granularity in c; errors at the pool's line (none for Pool-0: --sched).
 */
static int pool_spec(struct sim *s, struct cpupool *c, const struct pool_spec *ps,
		     const struct sched_spec *spec, const char *source, struct sched_spec *own,
		     struct err *e)
{
	struct sched_spec parsed;
	int ret;

	if (ps && ps->sched) {
		if (sched_spec_parse(ps->sched, &parsed, e) < 0)
			return err_prefix(e, "%s:%d: <pool name=\"%s\"> sched", source, ps->line,
					  ps->name);
		ret = sched_spec_take_gran(&parsed, own, &c->gran, e);
		sched_spec_free(&parsed);
	} else {
		ret = sched_spec_take_gran(spec, own, &c->gran, e);
	}
	if (ret < 0)
		return ps ? err_prefix(e, "%s:%d", source, ps->line) : -1;
	c->sched_gran = gran_size(s, c->gran);
	if (!c->sched_gran) {
		sched_spec_free(own);
		err_set(e, "sched-gran=%s needs every %s of the host to have as many pCPUs (Xen "
			"falls back to a smaller granularity)", sched_gran_name(c->gran),
			c->gran == SCHED_GRAN_CORE ? "core" : "socket");
		return ps ? err_prefix(e, "%s:%d", source, ps->line) : -1;
	}
	return 0;
}

/* The pCPUs of each <pool>: valid, not pCPU 0, not another pool's. */
static int pool_cpus(struct sim *s, const struct scenario *sc, struct err *e)
{
	struct cpumask *taken = cpumask_alloc((unsigned)s->nr_cpus);
	int i, k, ret = 0;
	unsigned cpu;

	for (i = 0; i < sc->npools && ret == 0; i++) {
		const struct pool_spec *ps = &sc->pools[i];
		struct cpupool *c = pool_new(s, i + 1, ps->name);
		char used[128];

		if (cpulist_parse(&s->topo, ps->cpus, c->cpu_valid, e) < 0) {
			ret = err_prefix(e, "%s:%d: <pool name=\"%s\"> cpus", sc->source, ps->line,
					 ps->name);
		} else if (cpumask_test(c->cpu_valid, 0)) {
			ret = err_set(e, "%s:%d: cpupool %s takes pCPU 0, which must stay in Pool-0 "
				      "(Xen's cpupool_unassign_cpu refuses to move it)", sc->source,
				      ps->line, ps->name);
		} else if (cpumask_intersects(c->cpu_valid, taken)) {
			for (k = 1; k < i + 1; k++)
				if (cpumask_intersects(s->pools[k]->cpu_valid, c->cpu_valid))
					break;
			cpumask_and(taken, s->pools[k]->cpu_valid, c->cpu_valid);
			ret = err_set(e, "%s:%d: cpupools %s and %s both take pCPU%s %s (a pCPU is "
				      "in one pool)", sc->source, ps->line, s->pools[k]->name,
				      ps->name, cpumask_weight(taken) > 1 ? "s" : "",
				      cpumask_format(taken, used, sizeof(used)));
		} else {
			cpumask_or(taken, taken, c->cpu_valid);
		}
	}
	for (cpu = 0; ret == 0 && cpu < (unsigned)s->nr_cpus; cpu++)
		if (!cpumask_test(taken, cpu))
			cpumask_set(s->pools[0]->cpu_valid, cpu);
	cpumask_free(taken);
	return ret;
}

int cpupools_build(struct sim *s, const struct scenario *sc, const struct sched_spec *spec,
		   sched_factory *make, const void *ctx, struct err *e)
{
	struct sched_spec *own = xcalloc((size_t)sc->npools + 1, sizeof(*own));
	int i, k, ret;
	unsigned cpu;

	s->pools = xcalloc((size_t)sc->npools + 1, sizeof(*s->pools));
	pool_new(s, 0, "Pool-0");
	ret = pool_cpus(s, sc, e);
	for (i = 0; i < s->nr_pools && ret == 0; i++)
		ret = pool_spec(s, s->pools[i], i ? &sc->pools[i - 1] : NULL, spec, sc->source,
				&own[i], e);
	for (i = 0; i < s->nr_pools && ret == 0; i++)
		ret = pool_whole_resources(s, sc, s->pools[i], e);
	for (i = 0; i < s->nr_pools && ret == 0; i++) {
		struct cpupool *c = s->pools[i];

		pool_resources(s, c);
		c->sched = make(ctx, s, c, &own[i], e);
		if (!c->sched)
			ret = i ? err_prefix(e, "%s:%d: <pool name=\"%s\">", sc->source,
					     sc->pools[i - 1].line, c->name) : -1;
		for (k = 0; k < c->nr_res && ret == 0; k++) {
			const struct sched_resource *r = &c->res[k];
			int t;

			for (t = 0; t < r->nr_cpus; t++)
				s->pcpus[r->cpus[t]].sched = c->sched;
		}
	}
	for (i = 0; i < sc->npools + 1; i++)
		sched_spec_free(&own[i]);
	free(own);
	if (ret < 0)
		return -1;
	s->sched = s->pools[0]->sched;
	/* Each resource's master joins its pool's scheduler, in pCPU order (schedule_cpu_add). */
	for (cpu = 0; cpu < (unsigned)s->nr_cpus; cpu++) {
		struct pcpu *pc = &s->pcpus[cpu];
		struct scheduler *sch = pc->sched;

		if (pc->res_idx != 0)
			continue;
		pc->idle_unit->sched_priv = sch->ops->alloc_udata(sch, pc->idle_unit, NULL);
		if (sch->ops->init_pdata)
			sch->ops->init_pdata(sch, (int)cpu);
		/* Every thread reaches its resource's data (get_sched_res(cpu)->sched_priv). */
		for (k = 1; k < pc->res->nr_cpus; k++)
			s->pcpus[pc->res->cpus[k]].sched_priv = pc->sched_priv;
	}
	return 0;
}

void cpupools_free(struct sim *s)
{
	int i, k;

	for (i = 0; s->pools && i < s->nr_pools; i++) {
		struct cpupool *c = s->pools[i];

		for (k = 0; k < c->nr_res; k++) {
			struct sched_resource *r = &c->res[k];

			if (r->idle && r->idle->members) {
				free(r->idle->members);
				sim_vcpu_free(r->idle);
			}
			free(r->cpus);
		}
		free(c->res);
		cpumask_free(c->cpu_valid);
		cpumask_free(c->res_valid);
		free(c);
	}
	free(s->pools);
	s->pools = NULL;
	s->nr_pools = 0;
}

struct cpupool *cpupool_find(struct sim *s, const char *name)
{
	int i;

	if (!name[0])
		return s->pools[0];
	for (i = 0; i < s->nr_pools; i++)
		if (strcmp(s->pools[i]->name, name) == 0)
			return s->pools[i];
	return NULL;
}

void cpupool_domain_units_alloc(struct domain *d)
{
	int gran = d->pool->sched_gran;

	if (gran == 1) {
		d->units = d->vcpus;
		d->nr_units = d->nr_vcpus;
		return;
	}
	d->nr_units = (d->nr_vcpus + gran - 1) / gran;
	d->units = xcalloc((size_t)d->nr_units, sizeof(*d->units));
}

struct vcpu *cpupool_vcpu_unit(struct sim *s, struct domain *d, struct vcpu *v)
{
	int gran = d->pool->sched_gran, k = v->vcpu_id / gran;
	struct vcpu *u;

	if (gran == 1)
		return v;
	if (v->vcpu_id % gran == 0) {
		/* sched_alloc_unit: a new unit, on the resource of v's initial pCPU. */
		u = sim_vcpu_new(s, d, v->vcpu_id);
		u->members = &d->vcpus[v->vcpu_id];
		u->rt = v->rt;
		d->units[k] = u;
		u->processor = sched_get_resource_cpu(s, v->processor);
	} else {
		u = d->units[k];
	}
	u->nr_members++;
	v->unit = u;
	unit_pause_sync(u);
	sched_set_res(s, u, u->processor);
	return v->vcpu_id % gran == 0 ? u : NULL;
}

void cpupool_domain_units_free(struct domain *d)
{
	int k;

	if (d->units == d->vcpus || !d->units)
		return;
	for (k = 0; k < d->nr_units; k++)
		if (d->units[k])
			sim_vcpu_free(d->units[k]);
	free(d->units);
	d->units = NULL;
}
