/*
 * xentrace: a recorded domain's CPU demand replayed from a Xen host's
 * xentrace (sim/input/xentrace_read.h, read by the loader into the
 * workload's spec: each vCPU's bursts, from its wake to its next block,
 * with the time it ran in between).
 *
 * Each recorded vCPU becomes one task bound to the domain's vCPU of the
 * same index, so that the vCPU blocks in Xen when its task sleeps and is
 * woken when its task's timer fires (or, for a burst the recording woke
 * from another pCPU, from that pCPU), as the recorded vCPU was: a burst is
 * the run time the vCPU had between its wake and its block (the time it
 * waited runnable, or parked offline with work, is the recorded scheduler's
 * and is not asked again), and the time between bursts is a sleep.
 *
 * mode=open: each burst is due at its recorded wake, whatever the replayed
 * scheduler did before (a burst still running at the next one's wake runs
 * on into it: the next starts when it ends).  mode=closed: each burst is
 * due its recorded sleep after the previous one ended in the replay, so a
 * scheduler slower than the recorded one stretches the whole run.
 *
 * The run time is CPU time as the recording host measured it, hardware
 * effects included, so the replay asks for CPU time (the same hardware
 * profile as the utilisation workload: nothing stretches it again), less
 * the hypervisor's context switch of each time the vCPU was switched in
 * during the burst: the recorded run time holds the recording host's,
 * and the replay's host charges its own (struct sim's
 * context_switch_cost, <host context-switch=...>) each time the replayed
 * vCPU is switched in.  For the same reason the replayed vCPUs start with
 * the replay's profile in their caches, so that no first run pays a fill.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/xalloc.h"
#include "workloads/workload.h"

struct xt_config {
	char file[PARAM_STRING_MAX];
	long long domain;
	int mode;
	double cpu_khz;
};

enum { XT_OPEN, XT_CLOSED };

static const struct param_def xt_params[] = {
	{ "file", PARAM_STRING, "", NULL, 0, 0,
	  "the xentrace file (xentrace -e 0x0002f000), relative to the scenario file "
	  "(doc/traces.md)",
	  offsetof(struct xt_config, file) },
	{ "domain", PARAM_INT, "-1", NULL, -1, 32751,
	  "the recorded domain's id (0 is dom0) whose demand this domain replays",
	  offsetof(struct xt_config, domain) },
	{ "mode", PARAM_ENUM, "open", "open|closed", 0, 0,
	  "open: each burst at its recorded wake; closed: its recorded sleep after the "
	  "previous burst ended",
	  offsetof(struct xt_config, mode) },
	{ "cpu_khz", PARAM_DOUBLE, "0", NULL, 0, 1e8,
	  "the recording host's TSC frequency in kHz (0: measured from the trace's switch "
	  "records)",
	  offsetof(struct xt_config, cpu_khz) },
	{ NULL }
};

struct xt_task {
	struct workload *w;
	const struct replay_vcpu *v;
	struct task *t;
	struct timer wake;    /* a burst woken from another pCPU: when it is due */
	int next;             /* the burst due next, or running */
	bool running;
	bool done;            /* every burst replayed (its task has exited) */
	stime_t last_end;     /* when the replay's previous burst ended */
};

struct xt_priv {
	struct xt_task *tasks;
	int ntasks;
	int mode;
};

/* When burst k of ut is due in the replay. */
static stime_t due(const struct xt_task *ut, int mode, int k)
{
	const struct replay_burst *b = &ut->v->bursts[k];

	if (mode == XT_OPEN || k == 0)
		return b->wake;
	return ut->last_end + (b->wake - ut->v->bursts[k - 1].end);
}

/* A burst's work: its run time less the context switches it was recorded with. */
static stime_t burst_work(const struct sim *s, const struct replay_burst *b)
{
	stime_t work = b->run - b->switches * s->context_switch_cost;

	return work > 0 ? work : 1;
}

static void xt_step(struct sim *s, struct task *t)
{
	struct xt_task *ut = t->ctx;
	const struct xt_priv *p = ut->w->priv;
	stime_t now = sim_now(s), at;

	if (ut->running) {
		ut->running = false;
		ut->last_end = now;
		ut->next++;
	}
	while (ut->next < ut->v->n && ut->v->bursts[ut->next].run <= 0) {
		/* a burst with no run time (one the trace began inside a blocked ...) */
		ut->next++;
	}
	if (ut->next >= ut->v->n) {
		ut->done = true;
		if (ut->last_end < now)
			ut->last_end = now;
		task_exit(s, t);
		return;
	}
	at = due(ut, p->mode, ut->next);
	if (at > now) {
		if (ut->v->bursts[ut->next].waker >= 0) {
			task_block(s, t);
			timer_set(&s->q, &ut->wake, at);
		} else {
			task_sleep(s, t, at - now);
		}
		return;
	}
	ut->running = true;
	task_run(s, t, burst_work(s, &ut->v->bursts[ut->next]));
}

/*
 * A burst the recording woke from another pCPU than the vCPU's own (an
 * event channel from a vCPU there: a netback's notification) is woken from
 * that pCPU in the replay too, as split.c's evtchn_fire wakes its target
 * from the sender's: the scheduler's tickle of the vCPU's pCPU is then an
 * IPI, as it was (sim/engine/core.c, cpu_raise_softirq), where a wake by
 * the vCPU's own timer is local.  A pCPU the replay's host lacks wakes it
 * from no pCPU's code.
 */
static void xt_wake_fire(struct timer *tm, void *arg)
{
	struct xt_task *ut = arg;
	struct sim *s = ut->w->sim;
	int cpu = ut->v->bursts[ut->next].waker;

	(void)tm;
	s->this_cpu = cpu < s->topo.nr_cpus ? cpu : -1;
	task_wake(s, ut->t);
}

static int xt_setup(struct workload *w, struct err *e)
{
	const struct xt_config *c = w->config;
	const struct replay_demand *rd = &w->spec->replay;
	struct xt_priv *p;
	int used = 0;

	if (!c->file[0] || c->domain < 0)
		return err_set(e, "%s:%d: workload 'xentrace' needs file= (a xentrace file) and "
			       "domain= (the recorded domain's id)", w->source, w->spec->line);
	for (int i = 0; i < rd->nvcpus; i++)
		if (rd->vcpus[i].n)
			used = i + 1;
	if (used > w->dom->nr_vcpus)
		return err_set(e, "%s:%d: xentrace: domain %lld of %s ran %d vCPUs, more than this "
			       "domain's %d", w->source, w->spec->line, c->domain, c->file, used,
			       w->dom->nr_vcpus);
	/* w->priv is set only once setup cannot fail: a failed setup has no destroy */
	p = xcalloc(1, sizeof(*p));
	w->priv = p;
	p->mode = c->mode;
	p->tasks = xcalloc((size_t)used + 1, sizeof(*p->tasks));
	for (int i = 0; i < used; i++) {
		const struct replay_vcpu *v = &rd->vcpus[i];
		struct xt_task *ut = &p->tasks[p->ntasks++];
		char name[32];

		ut->w = w;
		ut->v = v;
		if (!v->n)
			continue;
		snprintf(name, sizeof(name), "xt%d", i);
		timer_init(&ut->wake, xt_wake_fire, ut);
		ut->t = task_create(guest_of(w->dom), name, TASK_NORMAL, i, true, xt_step, ut,
				    v->bursts[0].wake);
		/*
		 * The vCPU's caches hold the replay's profile from the start (no
		 * working set): a vCPU that never ran is otherwise taken to hold the
		 * default profile's lines (sim/engine/hw.c, profile_of) and its first
		 * switch-in pays a cache fill of them, on top of the recorded first
		 * burst's run time, which already holds the recording's fill.
		 */
		w->dom->vcpus[i]->hw.prof = &w->prof;
	}
	return 0;
}

/*
 * The recorded run time of the bursts due by now: in open mode those whose
 * recorded wake has passed, in closed mode those the replay has started.
 */
static bool xt_demand(struct workload *w, stime_t *ns)
{
	const struct xt_priv *p = w->priv;
	stime_t now = sim_now(w->sim), sum = 0;

	if (!p)
		return false;
	for (int i = 0; i < p->ntasks; i++) {
		const struct xt_task *ut = &p->tasks[i];
		int upto = p->mode == XT_OPEN ? ut->v->n : ut->next + ut->running;

		for (int k = 0; k < upto && k < ut->v->n; k++) {
			if (p->mode == XT_OPEN && ut->v->bursts[k].wake >= now)
				break;
			sum += ut->v->bursts[k].run;
		}
	}
	*ns = sum;
	return true;
}

/*
 * finish_time: when the domain's last replayed burst ended, once every
 * burst of every vCPU has been replayed (none valid before).  The replay
 * cannot know the recorded guest's own figure of merit (a build's time, a
 * stream's throughput); for a recording that ends when its work is done
 * (make-xen), this is the replay's prediction of that end.
 */
static void xt_metric(struct workload *w, struct metric *m)
{
	const struct xt_priv *p = w->priv;
	stime_t end = 0;
	bool any = false;

	if (!p)
		return;
	for (int i = 0; i < p->ntasks; i++) {
		const struct xt_task *ut = &p->tasks[i];

		if (!ut->v->n)
			continue;
		if (!ut->done)
			return;
		any = true;
		if (ut->last_end > end)
			end = ut->last_end;
	}
	if (!any)
		return;
	m->valid = true;
	snprintf(m->name, sizeof(m->name), "finish_time");
	snprintf(m->unit, sizeof(m->unit), "s");
	m->value = (double)end / 1e9;
	m->higher_better = false;
}

static void xt_destroy(struct workload *w)
{
	struct xt_priv *p = w->priv;

	if (p) {
		free(p->tasks);
		free(p);
	}
}

const struct workload_ops xentrace_ops = {
	.name = "xentrace",
	.summary = "a recorded domain's vCPU demand replayed from a Xen host's xentrace "
		   "(file=, domain=); metric finish_time (s, when its last burst ended)",
	.params = xt_params,
	.config_size = sizeof(struct xt_config),
	.setup = xt_setup,
	.demand = xt_demand,
	.metric = xt_metric,
	.hw = { 1, 0, 0, 0 },
	.hw_source = "a trace's run time is CPU time as the recording host measured it, so the "
		     "replay asks for CPU time: no hardware effect stretches it",
	.destroy = xt_destroy,
};
