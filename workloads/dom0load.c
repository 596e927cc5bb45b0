/*
 * dom0 load: CPU-bound tasks in dom0 (by default about one per dom0 vCPU), as
 * when the benchmarks are run "with dom0 load".  They keep every dom0 vCPU
 * busy, so netback and blkback compete with them inside dom0 (the guest
 * kernel's scheduler) and the guest competes with dom0 for pCPUs (Xen's).
 * Optionally the tasks pause now and then (sleep > 0) to model a load that
 * is heavy but not a pure spinner.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/dom0load.h"

struct dom0load_config {
	long long tasks;
	stime_t run, sleep, start;
	bool autogroup;
};

#define OFF(f) offsetof(struct dom0load_config, f)

/*
 * How many tasks the load has is not known (real-measurements.md section
 * 1: "it overcommits the host"); the model runs one per dom0 vCPU, the
 * least that keeps every vCPU busy (fewer leave a vCPU without one, which
 * then blocks and waits for Xen's wake-up whenever netback or blkback on
 * it idles), and more change nothing Xen sees.  doc/validation.md: with
 * the profile below, make-xen's loaded Credit1 cell comes out within 2 %
 * of the real one without a fitted count.
 */
static const struct param_def dom0load_params[] = {
	{ "tasks", PARAM_INT, "0", NULL, 0, 65536,
	  "CPU-bound tasks (0: one per vCPU of the domain)", OFF(tasks) },
	{ "run", PARAM_DURATION, "0", NULL, 0, 0,
	  "CPU burst between pauses (0: never pause)", OFF(run) },
	{ "sleep", PARAM_DURATION, "0", NULL, 0, 0,
	  "pause after each burst", OFF(sleep) },
	{ "start", PARAM_DURATION, "0", NULL, 0, 0,
	  "when the load starts", OFF(start) },
	{ "autogroup", PARAM_BOOL, "on", NULL, 0, 0,
	  "the tasks share one autogroup, their session's (CONFIG_SCHED_AUTOGROUP, on in the "
	  "2016 distribution kernels; the load started from a shell or login of its own): CFS "
	  "weighs them together as one nice-0 task per CPU's worth; off: each competes as a "
	  "task of its own (autogroup off, or the load in the benchmark's own session)",
	  OFF(autogroup) },
	{ NULL }
};

struct hog {
	const struct dom0load_config *c;
	bool ran;
};

static void hog_step(struct sim *s, struct task *t)
{
	struct hog *h = t->ctx;

	if (h->c->run <= 0) {
		task_run(s, t, STIME_MAX);
		return;
	}
	if (h->ran && h->c->sleep > 0) {
		h->ran = false;
		task_sleep(s, t, h->c->sleep);
		return;
	}
	h->ran = true;
	task_run(s, t, h->c->run);
}

static int dom0load_setup(struct workload *w, struct err *e)
{
	struct dom0load_config *c = w->config;
	int n = c->tasks ? (int)c->tasks : w->dom->nr_vcpus;
	struct hog *h;
	struct task_group *tg = c->autogroup ? task_group_create(guest_of(w->dom)) : NULL;

	h = xcalloc(n, sizeof(*h));

	(void)e;
	w->priv = h;
	for (int i = 0; i < n; i++) {
		char name[32];
		struct task *t;

		snprintf(name, sizeof(name), "load%d", i);
		h[i].c = c;
		t = task_create(guest_of(w->dom), name, TASK_NORMAL, i % w->dom->nr_vcpus,
				false, hog_step, &h[i], c->start);
		if (tg)
			task_join_group(t, tg);
	}
	return 0;
}

static void dom0load_destroy(struct workload *w)
{
	free(w->priv);
	w->priv = NULL;
}

const struct workload_ops dom0load_ops = {
	.name = "dom0-load",
	.summary = "CPU-bound tasks in the domain (dom0), about one per vCPU by default: "
		   "the --dom0-load=on setting",
	.params = dom0load_params,
	.config_size = sizeof(struct dom0load_config),
	.setup = dom0load_setup,
	.hw = { 0.99, 2 << 20, 0.3, 0 },
	.hw_source = "the benchmark's dom0 load is CPU and memory synthetic processes (real-"
		     "measurements.md section 1) whose nature is not known: their SMT pressure is "
		     "calibrated on make-xen's loaded Credit1 cell (doc/validation.md: 0.97 gave "
		     "45.18 s, 0.99 43.43 s, real 43.955 s), a load that hardly slows its sibling, as "
		     "latency-bound loops (stress's sqrt(rand()), a PAUSE spin) do; working set and "
		     "memory intensity between a compute loop (L2-sized, 0.1) and a memory toucher "
		     "(LLC-sized, 0.5)",
	.destroy = dom0load_destroy,
};
