#include "sim/topology.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

int topology_init(struct topology *t, int sockets, int cores_per_socket,
		  int threads_per_core, int nodes, struct err *e)
{
	long long total;
	int cpu, total_cores, n;

	memset(t, 0, sizeof(*t));
	if (sockets < 1 || cores_per_socket < 1 || threads_per_core < 1 || nodes < 1)
		return err_set(e, "sockets, cores-per-socket, threads-per-core and nodes must be at least 1");
	total = (long long)sockets * cores_per_socket * threads_per_core;
	if (total > TOPOLOGY_MAX_CPUS)
		return err_set(e, "host has %lld pCPUs, more than the %d supported", total,
			       TOPOLOGY_MAX_CPUS);
	total_cores = sockets * cores_per_socket;
	if (nodes > total_cores)
		return err_set(e, "%d NUMA nodes but only %d cores", nodes, total_cores);
	if (nodes % sockets != 0 && sockets % nodes != 0)
		return err_set(e, "%d NUMA nodes cannot be laid over %d sockets (one must divide the other)",
			       nodes, sockets);
	if (nodes > sockets && cores_per_socket % (nodes / sockets) != 0)
		return err_set(e, "%d cores per socket cannot be split into %d nodes per socket",
			       cores_per_socket, nodes / sockets);

	t->nr_cpus = (int)total;
	t->nr_nodes = nodes;
	t->nr_sockets = sockets;
	t->cores_per_socket = cores_per_socket;
	t->threads_per_core = threads_per_core;
	t->cpu_node = xcalloc((size_t)total, sizeof(int));
	t->cpu_socket = xcalloc((size_t)total, sizeof(int));
	t->cpu_core = xcalloc((size_t)total, sizeof(int));
	t->sibling_mask = xcalloc((size_t)total, sizeof(*t->sibling_mask));
	t->core_mask = xcalloc((size_t)total, sizeof(*t->core_mask));
	t->node_mask = xcalloc((size_t)nodes, sizeof(*t->node_mask));
	t->all = cpumask_alloc((unsigned)total);
	cpumask_fill(t->all);
	for (n = 0; n < nodes; n++)
		t->node_mask[n] = cpumask_alloc((unsigned)total);

	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		int core = cpu / threads_per_core;

		t->cpu_core[cpu] = core;
		t->cpu_socket[cpu] = core / cores_per_socket;
		t->cpu_node[cpu] = (int)((long long)core * nodes / total_cores);
		cpumask_set(t->node_mask[t->cpu_node[cpu]], (unsigned)cpu);
	}
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		int first_thread = t->cpu_core[cpu] * threads_per_core;
		int first_of_socket = t->cpu_socket[cpu] * cores_per_socket * threads_per_core;
		int i;

		t->sibling_mask[cpu] = cpumask_alloc((unsigned)total);
		for (i = 0; i < threads_per_core; i++)
			cpumask_set(t->sibling_mask[cpu], (unsigned)(first_thread + i));
		t->core_mask[cpu] = cpumask_alloc((unsigned)total);
		for (i = 0; i < cores_per_socket * threads_per_core; i++)
			cpumask_set(t->core_mask[cpu], (unsigned)(first_of_socket + i));
	}
	return 0;
}

void topology_free(struct topology *t)
{
	int i;

	for (i = 0; i < t->nr_cpus; i++) {
		if (t->sibling_mask)
			cpumask_free(t->sibling_mask[i]);
		if (t->core_mask)
			cpumask_free(t->core_mask[i]);
	}
	for (i = 0; t->node_mask && i < t->nr_nodes; i++)
		cpumask_free(t->node_mask[i]);
	cpumask_free(t->all);
	free(t->cpu_node);
	free(t->cpu_socket);
	free(t->cpu_core);
	free(t->sibling_mask);
	free(t->core_mask);
	free(t->node_mask);
	memset(t, 0, sizeof(*t));
}

/* Parses "A" or "A-B" of non-negative decimal ids; returns -1 on error. */
static int parse_range(const char *s, size_t len, long *lo, long *hi)
{
	char buf[64], *end;
	char *dash;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!isdigit((unsigned char)buf[0]))
		return -1;
	errno = 0;
	*lo = strtol(buf, &end, 10);
	if (errno)
		return -1;
	if (*end == '\0') {
		*hi = *lo;
		return 0;
	}
	if (*end != '-')
		return -1;
	dash = end + 1;
	if (!isdigit((unsigned char)*dash))
		return -1;
	*hi = strtol(dash, &end, 10);
	if (errno || *end != '\0' || *hi < *lo)
		return -1;
	return 0;
}

int cpulist_parse(const struct topology *t, const char *s, struct cpumask *out,
		  struct err *e)
{
	const char *p = s;
	bool first = true;

	cpumask_zero(out);
	if (!s || !*s)
		return err_set(e, "empty cpu list");
	while (*p) {
		const char *item = p, *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		bool remove = false, nodes = false;
		long lo, hi, i;

		while (len && isspace((unsigned char)*item)) {
			item++;
			len--;
		}
		while (len && isspace((unsigned char)item[len - 1]))
			len--;
		if (len && *item == '^') {
			remove = true;
			item++;
			len--;
			if (first)
				cpumask_fill(out);
		}
		first = false;
		if (len >= 6 && strncmp(item, "nodes:", 6) == 0) {
			nodes = true;
			item += 6;
			len -= 6;
		} else if (len >= 5 && strncmp(item, "node:", 5) == 0) {
			nodes = true;
			item += 5;
			len -= 5;
		}
		if (!nodes && len == 3 && strncmp(item, "all", 3) == 0) {
			lo = 0;
			hi = t->nr_cpus - 1;
		} else if (parse_range(item, len, &lo, &hi) < 0) {
			return err_set(e, "malformed cpu list item '%.*s' in \"%s\"", (int)len, item, s);
		}
		if (nodes && hi >= t->nr_nodes)
			return err_set(e, "node %ld out of range in \"%s\" (host has nodes 0-%d)",
				       hi, s, t->nr_nodes - 1);
		if (!nodes && hi >= t->nr_cpus)
			return err_set(e, "pCPU %ld out of range in \"%s\" (host has pCPUs 0-%d)",
				       hi, s, t->nr_cpus - 1);
		for (i = lo; i <= hi; i++) {
			if (nodes) {
				if (remove)
					cpumask_andnot(out, out, t->node_mask[i]);
				else
					cpumask_or(out, out, t->node_mask[i]);
			} else if (remove) {
				cpumask_clear_cpu(out, (unsigned)i);
			} else {
				cpumask_set(out, (unsigned)i);
			}
		}
		if (!comma)
			break;
		p = comma + 1;
		if (!*p)
			return err_set(e, "malformed cpu list \"%s\" (trailing comma)", s);
	}
	if (cpumask_empty(out))
		return err_set(e, "cpu list \"%s\" selects no pCPU", s);
	return 0;
}
