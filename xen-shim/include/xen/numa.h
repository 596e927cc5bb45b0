#ifndef XEN_SHIM_NUMA_H
#define XEN_SHIM_NUMA_H
#define MAX_NUMNODES 64
#define NUMA_NO_NODE 0xFF
#endif
