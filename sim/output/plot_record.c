/*
 * The recorder behind the timeline and credit plots: a struct tracer that
 * turns runstate-change records into "vCPU ran on pCPU from..to" intervals,
 * and a timer of its own that samples the scheduler's credit of chosen
 * vCPUs.  Both stream to files as they go, so memory does not grow with
 * the window.
 *
 * Why runstate changes: the core writes one for every vCPU that starts
 * (new state running) or stops (old state running) on a pCPU, with that
 * pCPU as the record's cpu, in that order within a switch.  They are the
 * same records xentrace gets, so the picture shows what a trace shows.
 *
 * Why a timer for credit: credit changes at the scheduler's own moments
 * (burns at scheduling points, resets, accounting ticks), and a periodic
 * sample shows the value the scheduler holds, between them too.  The timer
 * reads and changes nothing, so the run takes the same decisions.  The
 * samples are kept until the run ends and then written one block per
 * vCPU (gnuplot draws a block as one line); their number is fixed by the
 * period, not by the run's length.
 */
#include <stdlib.h>
#include <string.h>

#include "schedulers/sched.h"
#include "sim/output/plot.h"
#include "sim/output/trace.h"
#include "sim/xalloc.h"

struct running {
	int domid, vcpu;        /* domid -1: nothing recorded on this pCPU */
	stime_t since;
};

struct sample {
	stime_t t;
	long long credit;
	bool running;
};

struct plot_recorder {
	struct tracer t;        /* first: the core hands us &t */
	FILE *timeline, *credit;
	stime_t from, to, period;
	struct plot_vcpu *sel;
	int nsel;
	struct vcpu **selv;     /* resolved at start; NULL entries: not in this sim */
	struct sample **smp;    /* per chosen vCPU */
	long *nsmp, cap;
	struct sim *sim;
	struct running *cur;    /* per pCPU */
	int ncpus;
	int *dom_index;         /* domid -> position in s->domains */
	int max_domid;
	struct timer tick;
	long intervals, samples;
};

static double ms(stime_t t)
{
	return (double)t / 1e6;
}

static int dom_index(const struct plot_recorder *r, int domid)
{
	return domid >= 0 && domid <= r->max_domid ? r->dom_index[domid] : -1;
}

/* Writes the part of [start, end) inside the window. */
static void emit(struct plot_recorder *r, int cpu, const struct running *run, stime_t end)
{
	stime_t a = run->since > r->from ? run->since : r->from;
	stime_t b = end < r->to ? end : r->to;

	if (!r->timeline || b <= a)
		return;
	fprintf(r->timeline, "%d %.6f %.6f %d %d %d\n", cpu, ms(a), ms(b),
		dom_index(r, run->domid), run->domid, run->vcpu);
	r->intervals++;
}

static void rec_record(struct tracer *t, int cpu, stime_t now, uint32_t event, int n,
		       const uint32_t *data)
{
	struct plot_recorder *r = (struct plot_recorder *)t;
	unsigned oldst, newst;
	int domid, vcpu;

	if ((event & ~0xff0u) != TRC_SCHED_RUNSTATE_CHANGE || n < 1 || !r->sim ||
	    cpu < 0 || cpu >= r->ncpus)
		return;
	oldst = (event >> 8) & 0xfu;
	newst = (event >> 4) & 0xfu;
	domid = (int)(data[0] >> 16);
	vcpu = (int)(data[0] & 0xffffu);
	if (domid == DOMID_IDLE) {     /* idle time is the gaps */
		if (newst == RUNSTATE_RUNNING)
			r->cur[cpu].domid = -1;
		return;
	}
	if (oldst == RUNSTATE_RUNNING && r->cur[cpu].domid == domid && r->cur[cpu].vcpu == vcpu) {
		emit(r, cpu, &r->cur[cpu], now);
		r->cur[cpu].domid = -1;
	}
	if (newst == RUNSTATE_RUNNING)
		r->cur[cpu] = (struct running){ domid, vcpu, now };
}

static void sample(struct timer *tm, void *arg)
{
	struct plot_recorder *r = arg;
	struct scheduler *sch = r->sim->sched;
	stime_t now = sim_now(r->sim);

	for (int i = 0; i < r->nsel && r->credit; i++) {
		long long c;

		if (!r->selv[i] || !sch->ops->unit_credit ||
		    !sch->ops->unit_credit(sch, r->selv[i], &c))
			continue;
		if (r->nsmp[i] < r->cap)
			r->smp[i][r->nsmp[i]++] = (struct sample){ now, c, r->selv[i]->is_running };
	}
	if (now + r->period <= r->to)
		timer_set(&r->sim->q, tm, now + r->period);
}

static struct vcpu *find_vcpu(struct sim *s, const struct plot_vcpu *p)
{
	for (int d = 0; d < s->nr_domains; d++) {
		struct domain *dom = s->domains[d];

		if (dom->domid == p->domid)
			return p->vcpu >= 0 && p->vcpu < dom->nr_vcpus ? dom->vcpus[p->vcpu] : NULL;
	}
	return NULL;
}

static void rec_start(struct tracer *t, struct sim *s)
{
	struct plot_recorder *r = (struct plot_recorder *)t;

	if (r->sim == s)
		return;
	r->sim = s;
	r->ncpus = s->nr_cpus;
	free(r->cur);
	r->cur = xcalloc((size_t)s->nr_cpus, sizeof(*r->cur));
	for (int c = 0; c < s->nr_cpus; c++) {
		struct vcpu *v = s->pcpus[c].curr;

		/* What already runs when recording starts (nothing, at time 0). */
		r->cur[c].domid = v && !is_idle_vcpu(v) ? v->dom->domid : -1;
		r->cur[c].vcpu = v ? v->vcpu_id : 0;
		r->cur[c].since = v ? v->runstate_entry : 0;
	}
	r->max_domid = 0;
	for (int d = 0; d < s->nr_domains; d++)
		if (s->domains[d]->domid > r->max_domid)
			r->max_domid = s->domains[d]->domid;
	free(r->dom_index);
	r->dom_index = xmalloc(((size_t)r->max_domid + 1) * sizeof(int));
	for (int d = 0; d <= r->max_domid; d++)
		r->dom_index[d] = -1;
	for (int d = 0; d < s->nr_domains; d++)
		r->dom_index[s->domains[d]->domid] = d;
	for (int i = 0; i < r->nsel; i++)
		r->selv[i] = find_vcpu(s, &r->sel[i]);
	timer_init(&r->tick, sample, r);
	if (r->credit && r->nsel)
		timer_set(&s->q, &r->tick, r->from);
}

static void rec_stop(struct tracer *t, struct sim *s)
{
	struct plot_recorder *r = (struct plot_recorder *)t;
	stime_t now = sim_now(s);

	if (r->sim != s)
		return;
	for (int c = 0; c < r->ncpus; c++)
		if (r->cur[c].domid >= 0) {
			emit(r, c, &r->cur[c], now);
			r->cur[c].domid = -1;
		}
	timer_stop(&s->q, &r->tick);
	r->sim = NULL;
	for (int i = 0; i < r->nsel && r->credit; i++) {
		fprintf(r->credit, "# vCPU %d: d%dv%d\n", i, r->sel[i].domid, r->sel[i].vcpu);
		for (long k = 0; k < r->nsmp[i]; k++)
			fprintf(r->credit, "%.6f %d %lld %d\n", ms(r->smp[i][k].t), i,
				r->smp[i][k].credit, r->smp[i][k].running);
		fputs("\n\n", r->credit);
		r->samples += r->nsmp[i];
		r->nsmp[i] = 0;
	}
}

struct plot_recorder *plot_recorder_new(FILE *timeline, FILE *credit, stime_t from,
					stime_t to, stime_t period,
					const struct plot_vcpu *vcpus, int nvcpus)
{
	struct plot_recorder *r = xcalloc(1, sizeof(*r));

	r->t.record = rec_record;
	r->t.start = rec_start;
	r->t.stop = rec_stop;
	r->timeline = timeline;
	r->credit = credit;
	r->from = from;
	r->to = to;
	r->period = period > 0 ? period : 1;
	r->nsel = nvcpus;
	r->sel = xcalloc((size_t)nvcpus + 1, sizeof(*r->sel));
	if (nvcpus)
		memcpy(r->sel, vcpus, (size_t)nvcpus * sizeof(*vcpus));
	r->selv = xcalloc((size_t)nvcpus + 1, sizeof(*r->selv));
	r->cap = to > from ? (long)((to - from) / r->period) + 2 : 2;
	r->nsmp = xcalloc((size_t)nvcpus + 1, sizeof(*r->nsmp));
	r->smp = xcalloc((size_t)nvcpus + 1, sizeof(*r->smp));
	for (int i = 0; i < nvcpus; i++)
		r->smp[i] = xcalloc((size_t)r->cap, sizeof(**r->smp));
	timer_init(&r->tick, sample, r);
	return r;
}

struct tracer *plot_recorder_tracer(struct plot_recorder *r)
{
	return &r->t;
}

long plot_recorder_intervals(const struct plot_recorder *r)
{
	return r->intervals;
}

long plot_recorder_samples(const struct plot_recorder *r)
{
	return r->samples;
}

void plot_recorder_free(struct plot_recorder *r)
{
	if (!r)
		return;
	free(r->cur);
	free(r->dom_index);
	free(r->sel);
	free(r->selv);
	for (int i = 0; i < r->nsel; i++)
		free(r->smp[i]);
	free(r->smp);
	free(r->nsmp);
	free(r);
}
