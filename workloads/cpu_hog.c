/*
 * cpu-hog: CPU-bound tasks that never sleep, one per vCPU by default.
 * The simplest way to load a domain: it wants every cycle it can get, so
 * its run time shows the share the scheduler gives it.
 */
#include <stddef.h>
#include <stdio.h>

#include "workloads/workload.h"

struct cpu_hog_config {
	long long tasks;   /* 0: one per vCPU */
};

static const struct param_def cpu_hog_params[] = {
	{ "tasks", PARAM_INT, "0", NULL, 0, 65536,
	  "number of always-runnable tasks (0: one per vCPU)",
	  offsetof(struct cpu_hog_config, tasks) },
	{ NULL }
};

static void hog_step(struct sim *s, struct task *t)
{
	task_run(s, t, STIME_MAX);
}

static int cpu_hog_setup(struct workload *w, struct err *e)
{
	const struct cpu_hog_config *c = w->config;
	struct guest *g = guest_of(w->dom);
	long long n = c->tasks ? c->tasks : w->dom->nr_vcpus, i;

	for (i = 0; i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "hog%lld", i);
		task_create(g, name, TASK_NORMAL, (int)(i % w->dom->nr_vcpus), false, hog_step,
			    NULL, 0);
	}
	return 0;
}

const struct workload_ops cpu_hog_ops = {
	.name = "cpu-hog",
	.summary = "always-runnable CPU-bound tasks (one per vCPU by default)",
	.params = cpu_hog_params,
	.config_size = sizeof(struct cpu_hog_config),
	.setup = cpu_hog_setup,
	.hw = { 0.65, 256 << 10, 0.1, 0 },
	.hw_source = "smt_speed 0.65: the kernbench figure, two compiler threads per core at 0.65 each "
		     "(real-measurements.md section 3); a compute loop that fits the L2 (256 KiB) and "
		     "seldom waits on memory (hardware.md: compute-bound work barely notices NUMA)",
};
