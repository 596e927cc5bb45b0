/*
 * utilisation: a VM's CPU demand replayed from a utilisation trace, one
 * value per interval in per cent of one CPU (the PlanetLab/CoMon series,
 * or a vm,timestamp,value CSV: sim/input/utiltrace.h, read by the loader
 * into the workload's spec).
 *
 * A trace says how busy a VM was over minutes, not how its work came, so
 * the bursts inside an interval are a model: an on/off (alternating
 * renewal) process per task.  On-bursts draw their work from burst=
 * (default exponential, mean 4 ms: the CPU-I/O burst cycle, whose measured
 * burst lengths are exponential or hyperexponential with most bursts under
 * 8 ms, Silberschatz, Galvin and Gagne, "Operating System Concepts",
 * "CPU-I/O Burst Cycle"); off-times are exponential with mean
 * burst * (1 - u) / u, so that over an interval of utilisation u the
 * busy fraction is u (renewal-reward).  An off-time that would cross an
 * interval's end stops there and is drawn again under the next
 * interval's u (exact for an exponential off-time: it is memoryless); an
 * on-burst runs to its end.  The bursts keep a planned timeline (each
 * starts an off-time after the previous one's planned end), so a burst
 * the scheduler delays does not push the later ones back while the VM has
 * slack; one burst at a time runs, and a plan that has fallen behind
 * starts again at the current interval's start: work an interval could
 * not get is dropped.  What the scheduler withheld is the shortfall the
 * run reports (demand against delivered run time).
 *
 * speedup=S shortens every interval to interval / S of simulated time and
 * leaves the bursts as they are: each interval keeps its utilisation and
 * the scheduler sees bursts of the same lengths (its ticks, slices, boosts
 * and wake-ups as on the real host), but an interval holds S times fewer
 * bursts (doc/traces.md).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/xalloc.h"
#include "workloads/workload.h"

struct util_config {
	char file[PARAM_STRING_MAX];
	char vm[PARAM_STRING_MAX];
	int format;
	stime_t interval;
	char burst[PARAM_STRING_MAX];
	double speedup;
};

static const struct param_def util_params[] = {
	{ "file", PARAM_STRING, "", NULL, 0, 0,
	  "the trace, relative to the scenario file: one value a line (per cent of one CPU), "
	  "or vm,timestamp,value CSV lines (doc/traces.md)",
	  offsetof(struct util_config, file) },
	{ "vm", PARAM_STRING, "", NULL, 0, 0,
	  "the vm of a CSV file to replay (\"\": the file holds one)",
	  offsetof(struct util_config, vm) },
	{ "format", PARAM_ENUM, "auto", "auto|series|csv", 0, 0,
	  "the file's layout (auto: CSV when its first line has a comma)",
	  offsetof(struct util_config, format) },
	{ "interval", PARAM_DURATION, "300s", NULL, 1e6, 1e15,
	  "the time one value covers: 5 minutes in the PlanetLab/CoMon traces "
	  "(../shared/traces/README.md)",
	  offsetof(struct util_config, interval) },
	{ "burst", PARAM_STRING, "exp:4ms", NULL, 0, 0,
	  "work of an on-burst, a distribution (sim/engine/dist.h); exponential, mean 4 ms: "
	  "measured CPU bursts are exponential or hyperexponential, most under 8 ms "
	  "(Silberschatz, Galvin, Gagne, Operating System Concepts, CPU-I/O Burst Cycle)",
	  offsetof(struct util_config, burst) },
	{ "speedup", PARAM_DOUBLE, "1", NULL, 1, 1e6,
	  "each interval lasts interval/speedup of simulated time; bursts keep their lengths",
	  offsetof(struct util_config, speedup) },
	{ NULL }
};

struct util_task {
	struct workload *w;
	stime_t at;           /* planned: the end of its last burst, then the next one's start */
	stime_t work;         /* the burst now running */
	bool in_burst;
};

struct util_priv {
	struct util_task *tasks;
	int ntasks;
	stime_t step;         /* one interval in simulated time */
	struct dist burst;
	double on_mean;       /* ns */
};

/* The busy fraction each task is to have in interval k (0 past the series' end). */
static double task_u(const struct workload *w, const struct util_priv *p, int64_t k)
{
	double u;

	if (k >= w->spec->util.n)
		return 0;
	u = w->spec->util.pct[k] / 100.0 / p->ntasks;
	return u > 1 ? 1 : u;
}

/*
 * From the planned end of a burst (ut->at) to the planned start of the
 * next: an off-time drawn under the interval's u, drawn again from the
 * interval's end when it would cross it.  A plan behind the clock starts
 * again at the current interval's start: work an interval could not get
 * is dropped with it, not carried on.
 */
static void plan_next(struct util_task *ut, const struct util_priv *p, stime_t now)
{
	const struct workload *w = ut->w;
	stime_t cur = now / p->step * p->step;

	if (ut->at < cur)
		ut->at = cur;
	for (;;) {
		int64_t k = ut->at / p->step;
		stime_t end = (k + 1) * p->step, off;
		double u = task_u(w, p, k);

		if (k >= w->spec->util.n)
			return;
		if (u >= 1)
			off = 0;
		else if (u <= 0)
			off = end - ut->at;
		else
			off = (stime_t)rng_exp(&ut->w->rng, p->on_mean * (1 - u) / u);
		if (ut->at + off < end) {
			ut->at += off;
			return;
		}
		ut->at = end;
	}
}

static void util_step(struct sim *s, struct task *t)
{
	struct util_task *ut = t->ctx;
	struct workload *w = ut->w;
	struct util_priv *p = w->priv;
	stime_t now = sim_now(s);

	if (ut->in_burst) {
		ut->in_burst = false;
		ut->at += ut->work;
		plan_next(ut, p, now);
		if (ut->at > now) {
			task_sleep(s, t, ut->at - now);
			return;
		}
	}
	if (ut->at / p->step >= w->spec->util.n) {
		task_exit(s, t);
		return;
	}
	ut->work = dist_draw(&p->burst, &w->rng);
	if (ut->work <= 0)
		ut->work = 1;
	ut->in_burst = true;
	task_run(s, t, ut->work);
}

/* The setup's checks of c against the series; p's burst and step are set. */
static int util_check(struct workload *w, struct util_priv *p, struct err *e)
{
	const struct util_config *c = w->config;
	const struct util_series *ser = &w->spec->util;
	char a[32], b[32];

	if (dist_parse(c->burst, &p->burst, e) < 0)
		return err_prefix(e, "%s:%d: utilisation: burst", w->source, w->spec->line);
	p->on_mean = dist_mean(&p->burst);
	if (p->on_mean < 1e3)
		return err_set(e, "%s:%d: utilisation: burst '%s' has a mean under 1us", w->source,
			       w->spec->line, c->burst);
	p->step = (stime_t)((double)c->interval / c->speedup);
	if ((double)p->step < 10 * p->on_mean)
		return err_set(e, "%s:%d: utilisation: an interval of %s at speedup %g lasts %s, "
			       "shorter than ten mean bursts: lower speedup or burst",
			       w->source, w->spec->line, format_duration(c->interval, a, sizeof(a)),
			       c->speedup, format_duration(p->step, b, sizeof(b)));
	for (int i = 0; i < ser->n; i++)
		if (ser->pct[i] > 100.0 * w->dom->nr_vcpus)
			return err_set(e, "%s:%d: utilisation: interval %d of %s asks %g %% of one CPU, "
				       "more than the domain's %d vCPU%s give",
				       w->source, w->spec->line, i + 1, c->file, ser->pct[i],
				       w->dom->nr_vcpus, w->dom->nr_vcpus > 1 ? "s" : "");
	return 0;
}

static int util_setup(struct workload *w, struct err *e)
{
	const struct util_config *c = w->config;
	struct util_priv *p;

	if (!c->file[0] || !w->spec->util.n)
		return err_set(e, "%s:%d: workload 'utilisation' needs file= (a utilisation trace)",
			       w->source, w->spec->line);
	/* w->priv is set only once setup cannot fail: a failed setup has no destroy */
	p = xcalloc(1, sizeof(*p));
	if (util_check(w, p, e) < 0) {
		free(p);
		return -1;
	}
	w->priv = p;
	p->ntasks = w->dom->nr_vcpus;
	p->tasks = xcalloc((size_t)p->ntasks, sizeof(*p->tasks));
	for (int i = 0; i < p->ntasks; i++) {
		char name[32];

		p->tasks[i].w = w;
		plan_next(&p->tasks[i], p, 0);
		snprintf(name, sizeof(name), "util%d", i);
		task_create(guest_of(w->dom), name, TASK_NORMAL, i, false, util_step, &p->tasks[i],
			    p->tasks[i].at);
	}
	return 0;
}

/* The trace's demand up to now: each interval's share of one CPU over its part run. */
static bool util_demand(struct workload *w, stime_t *ns)
{
	const struct util_priv *p = w->priv;
	const struct util_series *ser = &w->spec->util;
	stime_t now = sim_now(w->sim);
	double sum = 0;

	if (!p || !p->step)
		return false;
	for (int64_t k = 0; k < ser->n && k * p->step < now; k++) {
		stime_t to = (k + 1) * p->step < now ? (k + 1) * p->step : now;

		sum += ser->pct[k] / 100.0 * (double)(to - k * p->step);
	}
	*ns = (stime_t)llround(sum);
	return true;
}

static void util_destroy(struct workload *w)
{
	struct util_priv *p = w->priv;

	if (p) {
		free(p->tasks);
		free(p);
	}
}

const struct workload_ops utilisation_ops = {
	.name = "utilisation",
	.summary = "a VM's CPU utilisation replayed from a trace (file=, one value per interval)",
	.params = util_params,
	.config_size = sizeof(struct util_config),
	.setup = util_setup,
	.demand = util_demand,
	.hw = { 1, 0, 0, 0 },
	.hw_source = "a trace's utilisation is CPU time as its host measured it, so the replay "
		     "asks for CPU time: no hardware effect stretches it",
	.destroy = util_destroy,
};
