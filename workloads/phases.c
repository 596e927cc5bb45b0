/*
 * phases: tasks that repeat a list of run/sleep phases, one task per vCPU by
 * default.  Each <phase run="..." sleep="..."/> runs for 'run' of CPU time
 * (which survives preemption: a descheduled vCPU freezes the task), then
 * sleeps for 'sleep' of wall time.  Lengths are distributions
 * (sim/engine/dist.h: "2ms", "exp:2ms", "uniform:1ms:5ms",
 * "lognormal:2ms:0.5"), drawn from the workload's own seeded stream.  Tasks
 * start spread over the first phase's sleep, so vCPUs do not all wake in
 * lockstep.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/xalloc.h"
#include "workloads/workload.h"

struct phases_config {
	long long tasks;   /* 0: one per vCPU */
};

static const struct param_def phases_params[] = {
	{ "tasks", PARAM_INT, "0", NULL, 0, 65536,
	  "number of tasks, each repeating the phases (0: one per vCPU)",
	  offsetof(struct phases_config, tasks) },
	{ NULL }
};

struct phases_task {
	struct workload *w;
	int phase;
	bool sleeping_next;   /* the next step starts this phase's sleep */
};

struct phases_priv {
	struct phases_task *tasks;
};

static void phases_step(struct sim *s, struct task *t)
{
	struct phases_task *pt = t->ctx;
	const struct workload_spec *spec = pt->w->spec;
	const struct phase_spec *ph = &spec->phases[pt->phase];

	if (!pt->sleeping_next) {
		pt->sleeping_next = true;
		task_run(s, t, dist_draw(&ph->run, &pt->w->rng));
		return;
	}
	pt->sleeping_next = false;
	pt->phase = (pt->phase + 1) % spec->nphases;
	task_sleep(s, t, dist_draw(&ph->sleep, &pt->w->rng));
}

static int phases_setup(struct workload *w, struct err *e)
{
	const struct phases_config *c = w->config;
	struct phases_priv *p;
	long long n = c->tasks ? c->tasks : w->dom->nr_vcpus, i;

	if (w->spec->nphases < 1)
		return err_set(e, "%s:%d: workload 'phases' needs at least one <phase run=\"..\" sleep=\"..\"/>",
			       w->source, w->spec->line);
	/* Phases that take no time at all would repeat forever at one instant. */
	for (i = 0; i < w->spec->nphases; i++)
		if (dist_mean(&w->spec->phases[i].run) > 0 || dist_mean(&w->spec->phases[i].sleep) > 0)
			break;
	if (i == w->spec->nphases)
		return err_set(e, "%s:%d: workload 'phases': every phase has zero run and sleep time; give one of them a length",
			       w->source, w->spec->phases[0].line ? w->spec->phases[0].line : w->spec->line);
	p = xcalloc(1, sizeof(*p));
	p->tasks = xcalloc((size_t)n, sizeof(*p->tasks));
	w->priv = p;
	for (i = 0; i < n; i++) {
		struct phases_task *pt = &p->tasks[i];
		stime_t first_sleep = (stime_t)dist_mean(&w->spec->phases[0].sleep);
		char name[32];

		pt->w = w;
		snprintf(name, sizeof(name), "phases%lld", i);
		task_create(guest_of(w->dom), name, TASK_NORMAL, (int)(i % w->dom->nr_vcpus),
			    false, phases_step, pt,
			    first_sleep > 0 ? (stime_t)rng_below(&w->rng, (uint64_t)first_sleep) : 0);
	}
	return 0;
}

static void phases_destroy(struct workload *w)
{
	struct phases_priv *p = w->priv;

	if (p) {
		free(p->tasks);
		free(p);
	}
}

const struct workload_ops phases_ops = {
	.name = "phases",
	.summary = "tasks repeating run/sleep phases (<phase run=\"200us\" sleep=\"exp:5ms\"/>)",
	.params = phases_params,
	.config_size = sizeof(struct phases_config),
	.setup = phases_setup,
	.hw = { 0.65, 256 << 10, 0.1, 0 },
	.hw_source = "as cpu-hog: kernbench's 0.65 (real-measurements.md section 3), a compute loop in "
		     "the L2 that seldom waits on memory (hardware.md)",
	.destroy = phases_destroy,
};
