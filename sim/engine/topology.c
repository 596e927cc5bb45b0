/*
 * Host topology (see topology.h): the regular shape of <host sockets=...>,
 * a machine's own CPU map, and xl's cpu-list syntax over either.
 */
#include "sim/engine/topology.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

/* Allocates the per-cpu arrays of a host of n pCPUs and 'nodes' nodes. */
static void topology_alloc(struct topology *t, int n, int nodes)
{
	t->nr_cpus = n;
	t->nr_nodes = nodes;
	t->cpu_node = xcalloc((size_t)n, sizeof(int));
	t->cpu_socket = xcalloc((size_t)n, sizeof(int));
	t->cpu_core = xcalloc((size_t)n, sizeof(int));
	t->sibling_mask = xcalloc((size_t)n, sizeof(*t->sibling_mask));
	t->core_mask = xcalloc((size_t)n, sizeof(*t->core_mask));
	t->sibling_words = xcalloc((size_t)n, sizeof(*t->sibling_words));
	t->core_words = xcalloc((size_t)n, sizeof(*t->core_words));
	t->node_mask = xcalloc((size_t)nodes, sizeof(*t->node_mask));
	t->node_words = xcalloc((size_t)nodes, sizeof(*t->node_words));
	t->all = cpumask_alloc((unsigned)n);
	cpumask_fill(t->all);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The distinct values of v[0..n-1], sorted, into a new array; their number in *m. */
static int *distinct(const int *v, int n, int *m)
{
	int *d = xcalloc((size_t)n, sizeof(int)), k = 0;

	memcpy(d, v, (size_t)n * sizeof(int));
	qsort(d, (size_t)n, sizeof(int), cmp_int);
	for (int i = 0; i < n; i++)
		if (i == 0 || d[i] != d[k - 1])
			d[k++] = d[i];
	*m = k;
	return d;
}

static int index_of(const int *sorted, int m, int v)
{
	const int *p = bsearch(&v, sorted, (size_t)m, sizeof(int), cmp_int);

	return (int)(p - sorted);
}

/*
 * The masks from the per-cpu arrays: siblings share cpu_core (a dense
 * global index), a socket's pCPUs share cpu_socket (any id), a node's share
 * cpu_node.  A core's or a socket's pCPUs need not be adjacent, as in a
 * machine's own numbering; each pCPU gets its own copy of both masks.
 */
static void topology_masks(struct topology *t)
{
	int n = t->nr_cpus, ncores, nsockets;
	int *cores = distinct(t->cpu_core, n, &ncores);
	int *sockets = distinct(t->cpu_socket, n, &nsockets);
	struct cpumask **core_m = xcalloc((size_t)ncores, sizeof(*core_m));
	struct cpumask **socket_m = xcalloc((size_t)nsockets, sizeof(*socket_m));

	for (int k = 0; k < ncores; k++)
		core_m[k] = cpumask_alloc((unsigned)n);
	for (int k = 0; k < nsockets; k++)
		socket_m[k] = cpumask_alloc((unsigned)n);
	for (int nd = 0; nd < t->nr_nodes; nd++)
		t->node_mask[nd] = cpumask_alloc((unsigned)n);
	for (int cpu = 0; cpu < n; cpu++) {
		cpumask_set(t->node_mask[t->cpu_node[cpu]], (unsigned)cpu);
		cpumask_set(core_m[index_of(cores, ncores, t->cpu_core[cpu])], (unsigned)cpu);
		cpumask_set(socket_m[index_of(sockets, nsockets, t->cpu_socket[cpu])], (unsigned)cpu);
	}
	for (int cpu = 0; cpu < n; cpu++) {
		t->sibling_mask[cpu] = cpumask_dup(core_m[index_of(cores, ncores, t->cpu_core[cpu])]);
		t->core_mask[cpu] = cpumask_dup(socket_m[index_of(sockets, nsockets,
								  t->cpu_socket[cpu])]);
		t->sibling_words[cpu] = cpumask_words_of(t->sibling_mask[cpu]);
		t->core_words[cpu] = cpumask_words_of(t->core_mask[cpu]);
	}
	for (int nd = 0; nd < t->nr_nodes; nd++)
		t->node_words[nd] = cpumask_words_of(t->node_mask[nd]);
	t->nr_sockets = nsockets;
	for (int k = 0; k < ncores; k++)
		cpumask_free(core_m[k]);
	for (int k = 0; k < nsockets; k++)
		cpumask_free(socket_m[k]);
	free(core_m);
	free(socket_m);
	free(cores);
	free(sockets);
}

int topology_init(struct topology *t, int sockets, int cores_per_socket,
		  int threads_per_core, int nodes, struct err *e)
{
	long long total;
	int cpu, total_cores;

	memset(t, 0, sizeof(*t));
	if (sockets < 1 || cores_per_socket < 1 || threads_per_core < 1 || nodes < 1)
		return err_set(e, "sockets, cores-per-socket, threads-per-core and nodes must be at least 1");
	total = (long long)sockets * cores_per_socket * threads_per_core;
	if (total > TOPOLOGY_MAX_CPUS)
		return err_set(e, "host has %lld pCPUs, more than the %d supported", total,
			       TOPOLOGY_MAX_CPUS);
	total_cores = sockets * cores_per_socket;
	if (nodes > total_cores)
		return err_set(e, "%d NUMA nodes but only %d core%s", nodes, total_cores,
			       total_cores == 1 ? "" : "s");
	if (nodes % sockets != 0 && sockets % nodes != 0)
		return err_set(e, "%d NUMA nodes cannot be laid over %d sockets (one must divide the other)",
			       nodes, sockets);
	if (nodes > sockets && cores_per_socket % (nodes / sockets) != 0)
		return err_set(e, "%d cores per socket cannot be split into %d nodes per socket",
			       cores_per_socket, nodes / sockets);

	topology_alloc(t, (int)total, nodes);
	t->cores_per_socket = cores_per_socket;
	t->threads_per_core = threads_per_core;
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		int core = cpu / threads_per_core;

		t->cpu_core[cpu] = core;
		t->cpu_socket[cpu] = core / cores_per_socket;
		t->cpu_node[cpu] = (int)((long long)core * nodes / total_cores);
	}
	topology_masks(t);
	return 0;
}

/* A CPU of a map, sorted by (socket, core), then by its number. */
struct cpu_key {
	int socket, core, cpu;
};

static int cmp_key(const void *a, const void *b)
{
	const struct cpu_key *x = a, *y = b;

	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

int topology_init_map(struct topology *t, const struct topology_cpu *cpus, int ncpus,
		      struct err *e)
{
	int nodes = 0, ngroups = 0, *order, *group_first, *first_sorted;
	struct cpu_key *keys;

	memset(t, 0, sizeof(*t));
	if (ncpus < 1)
		return err_set(e, "the CPU map is empty");
	if (ncpus > TOPOLOGY_MAX_CPUS)
		return err_set(e, "host has %d pCPUs, more than the %d supported", ncpus,
			       TOPOLOGY_MAX_CPUS);
	for (int i = 0; i < ncpus; i++) {
		const struct topology_cpu *c = &cpus[i];

		if (c->socket < 0 || c->core < 0 || c->node < 0 || c->socket >= TOPOLOGY_MAX_ID ||
		    c->core >= TOPOLOGY_MAX_ID || c->node >= TOPOLOGY_MAX_NODES)
			return err_set(e, "CPU %d: socket %d, core %d, node %d: socket and core ids "
				       "must be 0..%d, nodes 0..%d", i, c->socket, c->core, c->node,
				       TOPOLOGY_MAX_ID - 1, TOPOLOGY_MAX_NODES - 1);
		if (c->node + 1 > nodes)
			nodes = c->node + 1;
	}
	/*
	 * Cores are the (socket, core) groups, numbered in order of their first
	 * CPU; sorting keeps this O(n log n) for any map.
	 */
	keys = xcalloc((size_t)ncpus, sizeof(*keys));
	order = xcalloc((size_t)ncpus, sizeof(int));
	group_first = xcalloc((size_t)ncpus, sizeof(int));   /* sorted position -> group's first CPU */
	for (int i = 0; i < ncpus; i++)
		keys[i] = (struct cpu_key){ cpus[i].socket, cpus[i].core, i };
	qsort(keys, (size_t)ncpus, sizeof(*keys), cmp_key);
	for (int i = 0; i < ncpus; i++)
		order[i] = keys[i].cpu;
	free(keys);
	topology_alloc(t, ncpus, nodes);
	for (int j = 0; j < ncpus; j++) {
		const struct topology_cpu *c = &cpus[order[j]];
		const struct topology_cpu *p = j ? &cpus[order[j - 1]] : NULL;

		if (!p || p->socket != c->socket || p->core != c->core) {
			group_first[j] = order[j];
			ngroups++;
		} else {
			group_first[j] = group_first[j - 1];
			if (cpus[group_first[j]].node != c->node) {
				err_set(e, "CPUs %d and %d are threads of core %d of socket %d but "
					"on nodes %d and %d", group_first[j], order[j], c->core,
					c->socket, cpus[group_first[j]].node, c->node);
				topology_free(t);
				free(order);
				free(group_first);
				return -1;
			}
		}
	}
	/* The global index of a core: the rank of its first CPU among the groups' firsts. */
	first_sorted = distinct(group_first, ncpus, &ngroups);
	for (int j = 0; j < ncpus; j++) {
		int cpu = order[j];

		t->cpu_core[cpu] = index_of(first_sorted, ngroups, group_first[j]);
		t->cpu_socket[cpu] = cpus[cpu].socket;
		t->cpu_node[cpu] = cpus[cpu].node;
	}
	topology_masks(t);
	/* The largest core and socket, for the counts that summarise the shape. */
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int threads = (int)cpumask_weight(t->sibling_mask[cpu]);

		if (threads > t->threads_per_core)
			t->threads_per_core = threads;
	}
	{
		int *socket_cores = xcalloc((size_t)ncpus, sizeof(int));
		int nsock, *sock = distinct(t->cpu_socket, ncpus, &nsock);

		for (int j = 0; j < ncpus; j++)
			if (group_first[j] == order[j])      /* one count per core */
				socket_cores[index_of(sock, nsock, cpus[order[j]].socket)]++;
		for (int k = 0; k < nsock; k++)
			if (socket_cores[k] > t->cores_per_socket)
				t->cores_per_socket = socket_cores[k];
		free(socket_cores);
		free(sock);
	}
	free(order);
	free(group_first);
	free(first_sorted);
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
	free(t->sibling_words);
	free(t->core_words);
	free(t->node_mask);
	free(t->node_words);
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
