/*
 * Host topology: NUMA nodes, sockets, cores per socket and SMT threads per
 * core.  pCPU ids are numbered the way Xen numbers them on a usual x86 host
 * (in APIC id order): the threads of a core are adjacent, then the cores of
 * a socket, then the sockets, so with 2 threads pCPUs 0 and 1 are siblings.
 * Nodes are contiguous ranges of cores: either each node holds whole sockets
 * or each socket is split into whole nodes.
 *
 * A real machine numbers its CPUs its own way (Linux on a two-socket Xeon
 * often puts the second threads of all cores after the first ones, so
 * that CPUs 0 and 8 are siblings).  topology_init_map() builds the same
 * structure from an explicit map, one (socket, core, node) per CPU, as
 * lscpu -p or xl info -n report it (sim/input/host_topology.h).
 */
#ifndef SCHEDSIM_TOPOLOGY_H
#define SCHEDSIM_TOPOLOGY_H

#include "sim/engine/cpumask.h"
#include "sim/err.h"

#define TOPOLOGY_MAX_CPUS 65536

/* Where one CPU is: its socket, its core (any id, unique within the socket) and node. */
struct topology_cpu {
	int socket, core, node;
};

/* Socket and core ids in a CPU map are below this. */
#define TOPOLOGY_MAX_ID (1 << 20)
/* Node ids too: Linux's most (MAX_NUMNODES with CONFIG_NODES_SHIFT=10; Xen's x86 has 64). */
#define TOPOLOGY_MAX_NODES 1024

struct topology {
	int nr_cpus, nr_nodes, nr_sockets, cores_per_socket, threads_per_core;
	int *cpu_node, *cpu_socket, *cpu_core;  /* cpu_core: global core index */
	/* With a map: sockets counted, cores_per_socket and threads_per_core the largest. */
	struct cpumask **sibling_mask;  /* per cpu: SMT threads of its core */
	struct cpumask **core_mask;     /* per cpu: all cpus of its socket (Xen's cpu_core_mask) */
	/* per cpu: the words of its sibling_mask and core_mask that hold bits */
	struct cpumask_words *sibling_words, *core_words;
	struct cpumask **node_mask;     /* per node */
	struct cpumask_words *node_words;   /* per node: the words of its node_mask */
	struct cpumask *all;            /* every pCPU */
};

/* Builds t; an impossible shape fails with a message naming the problem. */
int topology_init(struct topology *t, int sockets, int cores_per_socket,
		  int threads_per_core, int nodes, struct err *e);
/*
 * Builds t from an explicit map: CPU i is cpus[i].  Sockets keep their
 * ids; cores are numbered globally in order of first appearance of each
 * (socket, core) pair; nr_nodes is the highest node id plus one (a node
 * may have no CPU).  Fails when the threads of one core are on different
 * nodes or an id is out of range.
 */
int topology_init_map(struct topology *t, const struct topology_cpu *cpus, int ncpus,
		      struct err *e);
void topology_free(struct topology *t);

/*
 * Parses a cpu list in xl's syntax into out (sized t->nr_cpus):
 * "all", "3", "0-3,8", "nodes:0", "node:0-1", and "^" before an item to
 * remove it ("0-7,^2").  A list that starts with a removal starts from
 * "all" ("^2" is every pCPU but 2).  Ids out of range, malformed items and
 * an empty result are errors.
 */
int cpulist_parse(const struct topology *t, const char *s, struct cpumask *out,
		  struct err *e);

#endif
