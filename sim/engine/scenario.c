/*
 * Life cycle of a struct scenario: freeing, deep copying (an experiment
 * changes a copy per configuration and must not touch the original) and
 * lookup by domain name.  Loading lives in sim/input/scenario_xml.c.
 */
#include "sim/engine/scenario.h"

#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void replay_demand_free(struct replay_demand *d)
{
	for (int i = 0; i < d->nvcpus; i++)
		free(d->vcpus[i].bursts);
	free(d->vcpus);
	memset(d, 0, sizeof(*d));
}

void replay_demand_copy(struct replay_demand *dst, const struct replay_demand *src)
{
	*dst = *src;
	dst->vcpus = NULL;
	if (!src->nvcpus)
		return;
	dst->vcpus = xcalloc((size_t)src->nvcpus, sizeof(*dst->vcpus));
	for (int i = 0; i < src->nvcpus; i++) {
		const struct replay_vcpu *sv = &src->vcpus[i];

		dst->vcpus[i] = *sv;
		dst->vcpus[i].bursts = NULL;
		if (sv->n) {
			dst->vcpus[i].bursts = xcalloc((size_t)sv->n, sizeof(*sv->bursts));
			memcpy(dst->vcpus[i].bursts, sv->bursts, (size_t)sv->n * sizeof(*sv->bursts));
		}
	}
}

void scenario_free_workload(struct workload_spec *w)
{
	kvlist_free(&w->params);
	free(w->phases);
	free(w->util.pct);
	replay_demand_free(&w->replay);
}

void scenario_free_domain(struct domain_spec *d)
{
	free(d->affinity_source);
	free(d->source);
	free(d->numa_nodes);
	free(d->hard);
	free(d->soft);
	for (int i = 0; i < d->nvcpu_over; i++) {
		free(d->vcpu_over[i].hard);
		free(d->vcpu_over[i].soft);
	}
	free(d->vcpu_over);
	for (int i = 0; i < d->nworkloads; i++)
		scenario_free_workload(&d->workloads[i]);
	free(d->workloads);
}

void scenario_free(struct scenario *sc)
{
	free(sc->host.cpu_map);
	free(sc->host.map_source);
	sc->host.cpu_map = NULL;
	sc->host.map_source = NULL;
	sc->host.ncpus_map = 0;
	for (int i = 0; i < sc->ndoms; i++)
		scenario_free_domain(&sc->doms[i]);
	free(sc->doms);
	sc->doms = NULL;
	sc->ndoms = 0;
	sc->capdoms = 0;
	for (int i = 0; i < sc->npools; i++) {
		free(sc->pools[i].cpus);
		free(sc->pools[i].sched);
	}
	free(sc->pools);
	sc->pools = NULL;
	sc->npools = 0;
	free(sc->arinc653.frames);
	memset(&sc->arinc653, 0, sizeof(sc->arinc653));
	kvlist_free(&sc->host.hw);
}

static void workload_copy(struct workload_spec *dst, const struct workload_spec *src)
{
	*dst = *src;
	kvlist_copy(&dst->params, &src->params);
	dst->phases = NULL;
	if (src->nphases) {
		dst->phases = xcalloc((size_t)src->nphases, sizeof(*dst->phases));
		memcpy(dst->phases, src->phases, (size_t)src->nphases * sizeof(*dst->phases));
	}
	dst->util.pct = NULL;
	if (src->util.n) {
		dst->util.pct = xcalloc((size_t)src->util.n, sizeof(*dst->util.pct));
		memcpy(dst->util.pct, src->util.pct, (size_t)src->util.n * sizeof(*dst->util.pct));
	}
	replay_demand_copy(&dst->replay, &src->replay);
}

static void domain_copy(struct domain_spec *dst, const struct domain_spec *src)
{
	*dst = *src;
	dst->affinity_source = dup_or_null(src->affinity_source);
	dst->source = dup_or_null(src->source);
	dst->numa_nodes = dup_or_null(src->numa_nodes);
	dst->hard = dup_or_null(src->hard);
	dst->soft = dup_or_null(src->soft);
	dst->vcpu_over = NULL;
	dst->workloads = NULL;
	if (src->nvcpu_over)
		dst->vcpu_over = xcalloc((size_t)src->nvcpu_over, sizeof(*dst->vcpu_over));
	for (int i = 0; i < src->nvcpu_over; i++) {
		dst->vcpu_over[i] = src->vcpu_over[i];
		dst->vcpu_over[i].hard = dup_or_null(src->vcpu_over[i].hard);
		dst->vcpu_over[i].soft = dup_or_null(src->vcpu_over[i].soft);
	}
	if (src->nworkloads)
		dst->workloads = xcalloc((size_t)src->nworkloads, sizeof(*dst->workloads));
	for (int i = 0; i < src->nworkloads; i++)
		workload_copy(&dst->workloads[i], &src->workloads[i]);
}

void scenario_copy(struct scenario *dst, const struct scenario *src)
{
	*dst = *src;
	dst->host.map_source = dup_or_null(src->host.map_source);
	dst->host.cpu_map = NULL;
	if (src->host.cpu_map) {
		size_t n = (size_t)src->host.ncpus_map * sizeof(*src->host.cpu_map);

		dst->host.cpu_map = xmalloc(n);
		memcpy(dst->host.cpu_map, src->host.cpu_map, n);
	}
	kvlist_copy(&dst->host.hw, &src->host.hw);
	dst->doms = NULL;
	dst->capdoms = src->ndoms;
	if (src->ndoms)
		dst->doms = xcalloc((size_t)src->ndoms, sizeof(*dst->doms));
	for (int i = 0; i < src->ndoms; i++)
		domain_copy(&dst->doms[i], &src->doms[i]);
	dst->pools = NULL;
	if (src->npools)
		dst->pools = xcalloc((size_t)src->npools, sizeof(*dst->pools));
	for (int i = 0; i < src->npools; i++) {
		dst->pools[i] = src->pools[i];
		dst->pools[i].cpus = dup_or_null(src->pools[i].cpus);
		dst->pools[i].sched = dup_or_null(src->pools[i].sched);
	}
	dst->arinc653.frames = NULL;
	if (src->arinc653.nframes) {
		dst->arinc653.frames = xcalloc((size_t)src->arinc653.nframes,
					       sizeof(*dst->arinc653.frames));
		memcpy(dst->arinc653.frames, src->arinc653.frames,
		       (size_t)src->arinc653.nframes * sizeof(*dst->arinc653.frames));
	}
}

bool host_spec_smt(const struct host_spec *h)
{
	const char *v = kvlist_get(&h->hw, "smt");
	bool on = true;

	if (v && parse_bool(v, &on, NULL) < 0)
		on = true;      /* the loader and --host refuse it before */
	return on;
}

/* t without its second and later threads (cpu_sibling_mask order: CPU order). */
static int first_threads(struct topology *t, struct err *e)
{
	struct topology_cpu *keep = xcalloc((size_t)t->nr_cpus, sizeof(*keep));
	struct topology online;
	int n = 0, rc;

	for (int cpu = 0; cpu < t->nr_cpus; cpu++)
		if ((int)cpumask_first(t->sibling_mask[cpu]) == cpu)
			keep[n++] = (struct topology_cpu){ t->cpu_socket[cpu], t->cpu_core[cpu],
							   t->cpu_node[cpu] };
	rc = topology_init_map(&online, keep, n, e);
	free(keep);
	if (rc < 0)
		return -1;
	topology_free(t);
	*t = online;
	return 0;
}

int host_spec_topology(const struct host_spec *h, struct topology *t, struct err *e)
{
	bool smt = host_spec_smt(h);

	if (!h->cpu_map)
		return topology_init(t, h->sockets, h->cores_per_socket,
				     smt ? h->threads_per_core : 1, h->nodes, e);
	if (topology_init_map(t, h->cpu_map, h->ncpus_map, e) < 0)
		return -1;
	if (smt || t->threads_per_core == 1)
		return 0;
	if (first_threads(t, e) < 0) {
		topology_free(t);
		return -1;
	}
	return 0;
}

int host_spec_cpus(const struct host_spec *h)
{
	struct topology t;
	int n;

	if (!host_spec_smt(h) && h->cpu_map) {
		if (host_spec_topology(h, &t, NULL) < 0)
			return h->ncpus_map;
		n = t.nr_cpus;
		topology_free(&t);
		return n;
	}
	if (h->cpu_map)
		return h->ncpus_map;
	return h->sockets * h->cores_per_socket * (host_spec_smt(h) ? h->threads_per_core : 1);
}

struct domain_spec *scenario_domain_add(struct scenario *sc)
{
	struct domain_spec *d;

	if (sc->ndoms >= sc->capdoms) {
		int cap = sc->ndoms < 4 ? 4 : 2 * sc->ndoms;

		sc->doms = xreallocarray(sc->doms, (size_t)cap, sizeof(*sc->doms));
		sc->capdoms = cap;
	}
	d = &sc->doms[sc->ndoms++];
	memset(d, 0, sizeof(*d));
	return d;
}

struct domain_spec *scenario_domain(struct scenario *sc, const char *name)
{
	for (int i = 0; i < sc->ndoms; i++)
		if (strcmp(sc->doms[i].name, name) == 0)
			return &sc->doms[i];
	return NULL;
}

struct pool_spec *scenario_pool(struct scenario *sc, const char *name)
{
	for (int i = 0; i < sc->npools; i++)
		if (strcmp(sc->pools[i].name, name) == 0)
			return &sc->pools[i];
	return NULL;
}
