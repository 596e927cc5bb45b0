/*
 * xl's automatic NUMA placement and Xen's node affinity (see numa_place.h).
 * The candidate search enumerates the k-combinations of nodes in
 * lexicographic order for k = min_nodes .. nr_nodes and stops at the first
 * k that has a candidate, keeping the first best one, as libxl does.
 */
#include "sim/engine/numa_place.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "sim/engine/hw.h"
#include "sim/engine/sim.h"
#include "sim/xalloc.h"

#define NUMA_PLACE_MAX_NODES 16   /* libxl skips placement beyond this */

/* The next k-combination of 0..n-1 after it[], in lexicographic order. */
static bool comb_next(int *it, int n, int k)
{
	int i;

	for (i = k - 1; i >= 0 && it[i] == n - k + i; i--)
		;
	if (i < 0)
		return false;
	for (it[i]++, i++; i < k; i++)
		it[i] = it[i - 1] + 1;
	return true;
}

struct cand {
	int vcpus;
	long long free_mb;
};

/* libxl's numa_cmpf: fewer vCPUs able to run there, then more free memory. */
static bool better(const struct cand *a, const struct cand *b)
{
	if (a->vcpus != b->vcpus)
		return a->vcpus < b->vcpus;
	return a->free_mb > b->free_mb;
}

int numa_place_candidate(int nr_nodes, const int *cpus_per_node, const int *pool_cpus,
			 const long long *free_mb, const int *vcpus_on_node, int vcpus,
			 long long memory_mb, bool *chosen)
{
	int it[NUMA_PLACE_MAX_NODES], best[NUMA_PLACE_MAX_NODES], node[NUMA_PLACE_MAX_NODES];
	int min_nodes = 1, found = 0, nr_suit = 0;
	bool uniform = true;

	memset(chosen, 0, (size_t)nr_nodes * sizeof(*chosen));
	if (nr_nodes <= 1 || nr_nodes > NUMA_PLACE_MAX_NODES)
		return 0;
	/* The suitable nodes: those with a pCPU of the domain's pool. */
	for (int i = 0; i < nr_nodes; i++)
		if (!pool_cpus || pool_cpus[i] > 0)
			node[nr_suit++] = i;
	/* The host's pCPUs per node, if uniform, give the least number of nodes. */
	for (int i = 1; i < nr_nodes; i++)
		uniform = uniform && cpus_per_node[i] == cpus_per_node[0];
	if (uniform && cpus_per_node[0] > 0)
		min_nodes = (vcpus + cpus_per_node[0] - 1) / cpus_per_node[0];
	if (min_nodes > nr_suit)
		min_nodes = nr_suit;
	if (min_nodes < 1)
		min_nodes = 1;
	for (int k = min_nodes; k <= nr_suit && !found; k++) {
		struct cand bc = { 0, 0 };

		for (int i = 0; i < k; i++)
			it[i] = i;
		do {
			struct cand c = { 0, 0 };
			int cpus = 0;

			for (int i = 0; i < k; i++) {
				int n = node[it[i]];

				c.free_mb += free_mb[n];
				cpus += pool_cpus ? pool_cpus[n] : cpus_per_node[n];
				c.vcpus += vcpus_on_node[n];
			}
			if ((memory_mb && c.free_mb < memory_mb) || (vcpus && cpus < vcpus))
				continue;
			if (!found || better(&c, &bc)) {
				found = k;
				bc = c;
				memcpy(best, it, (size_t)k * sizeof(*it));
			}
		} while (comb_next(it, nr_suit, k));
	}
	for (int i = 0; i < found; i++)
		chosen[node[best[i]]] = true;
	return found;
}

void numa_vcpus_on_nodes(const struct sim *s, const struct cpumask *suitable, int *counts)
{
	int n = s->topo.nr_nodes;
	struct cpumask *where = cpumask_alloc((unsigned)s->nr_cpus);

	memset(counts, 0, (size_t)n * sizeof(*counts));
	for (int d = 0; d < s->nr_domains; d++) {
		const struct domain *dom = s->domains[d];

		if (!dom->hw.node_mb)
			continue;
		for (int i = 0; i < dom->nr_vcpus; i++)
			for (int node = 0; node < n; node++) {
				if (dom->hw.remote[node] >= 1.0)
					continue;
				/* a pCPU of the node, of the new domain's pool and of its own */
				cpumask_and(where, dom->vcpus[i]->hard, s->topo.node_mask[node]);
				cpumask_and(where, where, suitable);
				if (dom->pool)
					cpumask_and(where, where, dom->pool->cpu_valid);
				if (!cpumask_empty(where))
					counts[node]++;
			}
	}
	cpumask_free(where);
}

void numa_node_affinity(const struct sim *s, const struct domain *d, bool *nodes)
{
	struct cpumask *hard = cpumask_alloc((unsigned)s->nr_cpus);
	struct cpumask *soft = cpumask_alloc((unsigned)s->nr_cpus);
	const struct cpumask *use;
	unsigned cpu;

	for (int i = 0; i < d->nr_vcpus; i++) {
		cpumask_or(hard, hard, d->vcpus[i]->hard);
		cpumask_or(soft, soft, d->vcpus[i]->soft);
	}
	cpumask_and(hard, hard, s->online);
	cpumask_and(soft, soft, hard);
	use = cpumask_empty(soft) ? hard : soft;
	memset(nodes, 0, (size_t)s->topo.nr_nodes * sizeof(*nodes));
	for_each_cpu(cpu, use)
		nodes[s->topo.cpu_node[cpu]] = true;
	cpumask_free(hard);
	cpumask_free(soft);
}

int numa_parse_nodes(const char *text, int nr_nodes, bool *nodes, struct err *e)
{
	const char *p = text;

	memset(nodes, 0, (size_t)nr_nodes * sizeof(*nodes));
	if (!*p)
		return err_set(e, "numa-nodes: empty node list");
	for (;;) {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			return err_set(e, "numa-nodes: '%s' is not a node list (e.g. 0 or 0,1 or 0-3)",
				       text);
		errno = 0;
		lo = hi = strtol(p, &end, 10);
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return err_set(e, "numa-nodes: '%s' is not a node list (e.g. 0 or 0,1 or 0-3)",
					       text);
			hi = strtol(end + 1, &end, 10);
		}
		if (errno || lo > hi)
			return err_set(e, "numa-nodes: '%s' is not a node list (e.g. 0 or 0,1 or 0-3)",
				       text);
		if (hi >= nr_nodes) {
			char has[32];

			if (nr_nodes > 1)
				snprintf(has, sizeof(has), "nodes 0-%d", nr_nodes - 1);
			else
				snprintf(has, sizeof(has), "node 0");
			return err_set(e, "numa-nodes: node %ld out of range in \"%s\" (host has %s)",
				       hi, text, has);
		}
		for (long i = lo; i <= hi; i++)
			nodes[i] = true;
		if (!*end)
			return 0;
		if (*end != ',' || !end[1])
			return err_set(e, "numa-nodes: '%s' is not a node list (e.g. 0 or 0,1 or 0-3)",
				       text);
		p = end + 1;
	}
}
