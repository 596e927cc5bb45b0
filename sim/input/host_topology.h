/*
 * A real host's CPU topology, read from what its tools print, so that a
 * user simulates their own machine with its own CPU numbering:
 *
 *   lscpu -p                    util-linux lscpu(1), "parsable" output: a
 *   lscpu -p=CPU,CORE,SOCKET,NODE  header comment naming the columns
 *                               ("# CPU,Core,Socket,Node,,L1d,L1i,L2,L3")
 *                               and one comma-separated line per online
 *                               CPU; Node is empty on a host without NUMA
 *   xl info -n                  Xen's xl (tools/xl/xl_info.c,
 *                               output_topologyinfo): the cpu_topology
 *                               table "cpu: core socket node", one row
 *                               "%3d:    %4d     %4d     %4d" per pCPU
 *
 * lscpu describes the machine Linux runs on: run it on the host booted
 * without Xen (in dom0 it shows dom0's vCPUs, not the host; lscpu(1) says
 * so under BUGS).  Under Xen, xl info -n gives the pCPUs as Xen numbers
 * them.  Every CPU 0..N-1 must be listed once (schedsim has no offline
 * pCPUs); the threads of a core must be on one node.  Errors name the
 * file and line and exit through the CLI with status 2.
 */
#ifndef SCHEDSIM_HOST_TOPOLOGY_H
#define SCHEDSIM_HOST_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/engine/scenario.h"
#include "sim/engine/topology.h"
#include "sim/err.h"

enum host_topology_format { HOST_TOPOLOGY_LSCPU, HOST_TOPOLOGY_XL_INFO };

/* "lscpu" or "xl-info": the names used in --host=KIND:FILE and <host KIND="FILE">. */
const char *host_topology_kind(enum host_topology_format f);

/*
 * Parses text (len bytes, NUL-terminated) of the given format into a new
 * map (*cpus, free() it) of *ncpus CPUs, CPU i at index i; messages start
 * with "name:line: ".
 */
int host_topology_parse(const char *text, size_t len, const char *name,
			enum host_topology_format f, struct topology_cpu **cpus, int *ncpus,
			struct err *e);

/*
 * Reads path and makes it h's topology: h->cpu_map, ncpus_map, map_source,
 * and sockets, cores_per_socket, threads_per_core, nodes summarising it.
 * Other host settings are kept.
 */
int host_topology_load(struct host_spec *h, enum host_topology_format f, const char *path,
		       struct err *e);

/*
 * Whether a --host value names a CPU map, KIND:FILE, rather than host settings
 * key=value[:key=value...] (sim/experiment/host_axis.h): a ':' before any '='.
 */
bool host_topology_option_is_map(const char *arg);
/* The command line's --host=lscpu:FILE or --host=xl-info:FILE. */
int host_topology_option(struct host_spec *h, const char *arg, struct err *e);

#endif
