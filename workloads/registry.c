/* The registered workloads: add a module's ops table here. */
#include <string.h>

#include "workloads/workload.h"

extern const struct workload_ops cpu_hog_ops;
extern const struct workload_ops phases_ops;
extern const struct workload_ops makexen_ops;
extern const struct workload_ops iperf_ops;
extern const struct workload_ops dom0load_ops;
extern const struct workload_ops utilisation_ops;
extern const struct workload_ops kernbench_ops;
extern const struct workload_ops netperf_ops;
extern const struct workload_ops mutilate_ops;
extern const struct workload_ops hackbench_ops;
extern const struct workload_ops xentrace_ops;
extern const struct workload_ops stream_ops;

static const struct workload_ops *const registry[] = {
	&cpu_hog_ops,
	&phases_ops,
	&makexen_ops,
	&iperf_ops,
	&dom0load_ops,
	&utilisation_ops,
	&kernbench_ops,
	&netperf_ops,
	&mutilate_ops,
	&hackbench_ops,
	&xentrace_ops,
	&stream_ops,
	NULL
};

const struct workload_ops *const *workload_all(void)
{
	return registry;
}

const struct workload_ops *workload_find(const char *name)
{
	int i;

	for (i = 0; registry[i]; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}
