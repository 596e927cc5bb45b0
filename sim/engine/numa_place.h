/*
 * Where a domain's memory goes, as Xen and xl decide it at creation:
 *
 *  - xl's automatic NUMA placement (libxl: tools/libs/light/libxl_numa.c,
 *    libxl__get_numa_candidate, and libxl_dom.c, numa_place_domain and
 *    numa_cmpf), run when the config gives neither cpus= nor cpus_soft=:
 *    among the sets of nodes with enough free memory and at least as many
 *    pCPUs as the domain has vCPUs, the smallest sets first, the one on
 *    which the fewest vCPUs of existing domains can run, then the one with
 *    the most free memory; xl then sets the soft affinity of every vCPU to
 *    the pCPUs of those nodes.  None is found on a host with one node, more
 *    than 16, or not enough memory: the domain then goes anywhere.
 *  - Xen's domain_update_node_affinity (xen/common/sched/core.c) when an
 *    affinity is given: the nodes of the pCPUs in the union of the vCPUs'
 *    hard affinities intersected with the union of their soft ones (the
 *    hard ones alone if that is empty); the allocator takes memory there.
 *
 * Pure functions of plain arrays, so they can be checked without a host.
 */
#ifndef SCHEDSIM_NUMA_PLACE_H
#define SCHEDSIM_NUMA_PLACE_H

#include <stdbool.h>

#include "sim/err.h"

struct sim;
struct domain;
struct cpumask;

/*
 * xl's choice for a domain of 'vcpus' vCPUs and memory_mb MiB on a host of
 * nr_nodes nodes: cpus_per_node[n] pCPUs, pool_cpus[n] of them in the
 * domain's cpupool (NULL: all of them), free_mb[n] MiB free and
 * vcpus_on_node[n] vCPUs of other domains able to run there.  As libxl's
 * numa_place_domain and libxl__get_numa_candidate: only nodes with a pCPU
 * of the pool are candidates, and a candidate's pCPUs are those of the
 * pool.  Fills chosen[] and returns the number of nodes in it; 0 when
 * there is no candidate.
 */
int numa_place_candidate(int nr_nodes, const int *cpus_per_node, const int *pool_cpus,
			 const long long *free_mb, const int *vcpus_on_node, int vcpus,
			 long long memory_mb, bool *chosen);

/*
 * The count libxl's nr_vcpus_on_nodes makes over the domains of s that
 * already have memory placed: for each of their vCPUs, each node of the
 * domain's memory (its node affinity) that holds a pCPU of the vCPU's hard
 * affinity which is also in 'suitable' (the new domain's pool) and in the
 * vCPU's own pool.  counts has s->topo.nr_nodes entries.
 */
void numa_vcpus_on_nodes(const struct sim *s, const struct cpumask *suitable, int *counts);

/* Xen's node affinity of d from its vCPUs' masks (see above) into nodes[]. */
void numa_node_affinity(const struct sim *s, const struct domain *d, bool *nodes);

/* Parses a node list "0", "0,1", "0-3,6" into nodes[] (nr_nodes flags). */
int numa_parse_nodes(const char *text, int nr_nodes, bool *nodes, struct err *e);

#endif
