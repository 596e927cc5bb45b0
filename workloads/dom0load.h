/* dom0 load: CPU-bound tasks competing with the back ends (dom0load.c). */
#ifndef SCHEDSIM_DOM0LOAD_H
#define SCHEDSIM_DOM0LOAD_H

#include "workloads/workload.h"

extern const struct workload_ops dom0load_ops;

#endif
