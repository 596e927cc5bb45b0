/*
 * The Perfetto writer: Chrome's trace-event JSON, which ui.perfetto.dev
 * and chrome://tracing both load, for people who want to look at a run.
 *
 * - Process 1 "pCPUs": one thread (track) per pCPU, a complete ("X")
 *   slice for every run of a vCPU on it, named "dN vM" and coloured by
 *   domain (Chrome's reserved colour names; Perfetto colours by name).
 *   Idle time is the gaps.  Wakes and tickles are instant events on the
 *   pCPU concerned (the woken vCPU's, the tickled one).
 * - Process 2 "credit": a counter per vCPU, sampled from the scheduler's
 *   unit_credit hook whenever the vCPU starts or stops running, and from
 *   Credit2's burn/reset records, which carry the credit.
 * - Process 3 "runqueues": the number of runnable (waiting) vCPUs on the
 *   host, and each Credit2 runqueue's load from its update records.
 *
 * Everything is derived from the record stream as it comes (slices are
 * written when they end) and written through stdio's buffer; the only
 * state kept is one open slice per pCPU.  Times are microseconds with
 * three decimals: simulated nanoseconds exactly.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "schedulers/sched.h"
#include "sim/output/trace_writer.h"
#include "sim/xalloc.h"

#define PID_PCPUS 1
#define PID_CREDIT 2
#define PID_RUNQ 3

struct slice {
	int slot;                /* -1: idle or nothing */
	stime_t start;
};

struct perfetto {
	struct trace_writer w;
	struct slice *slices;    /* by pCPU */
	int nr_cpus;
	bool first;              /* no event written yet */
	long runnable;           /* non-idle vCPUs waiting */
};

/* Chrome's reserved colour names, one per domain (by domid). */
static const char *const palette[] = {
	"thread_state_running", "rail_response", "rail_animation", "rail_load",
	"cq_build_passed", "thread_state_iowait", "good", "bad", "terrible", "yellow",
	"olive", "generic_work", "startup", "rail_idle",
};

static void sep(struct perfetto *p)
{
	fputs(p->first ? "\n" : ",\n", p->w.f);
	p->first = false;
}

static void put_ts(FILE *f, const char *key, stime_t ns)
{
	fprintf(f, "\"%s\":%" PRId64 ".%03" PRId64, key, ns / 1000, ns % 1000);
}

static void meta(struct perfetto *p, int pid, int tid, const char *what, const char *name,
		 int sort)
{
	FILE *f = p->w.f;

	sep(p);
	fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"name\":\"%s\"}}",
		pid, tid, what, name);
	sep(p);
	fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"sort_index\":%d}}",
		pid, tid, strcmp(what, "thread_name") ? "process_sort_index" : "thread_sort_index",
		sort);
}

static void counter(struct perfetto *p, int pid, const char *name, stime_t at, const char *key,
		    long long value)
{
	FILE *f = p->w.f;

	sep(p);
	fprintf(f, "{\"ph\":\"C\",\"pid\":%d,\"tid\":0,\"name\":\"%s\",", pid, name);
	put_ts(f, "ts", at);
	fprintf(f, ",\"args\":{\"%s\":%lld}}", key, value);
}

static void credit_value(struct perfetto *p, const struct vcpu *v, stime_t at, long long credit)
{
	char name[64];

	snprintf(name, sizeof(name), "credit d%d v%d", v->dom->domid, v->vcpu_id);
	counter(p, PID_CREDIT, name, at, "credit", credit);
}

static void sample_credit(struct perfetto *p, struct vcpu *v, stime_t at)
{
	struct scheduler *sch = p->w.sim->sched;
	long long credit;

	if (is_idle_vcpu(v) || !sch->ops->unit_credit || !sch->ops->unit_credit(sch, v, &credit))
		return;
	credit_value(p, v, at, credit);
}

static void instant(struct perfetto *p, int cpu, stime_t at, const char *name, const char *cat)
{
	FILE *f = p->w.f;

	sep(p);
	fprintf(f, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"cat\":\"%s\",",
		PID_PCPUS, cpu, name, cat);
	put_ts(f, "ts", at);
	fputc('}', f);
}

static void slice_begin(struct perfetto *p, int cpu, struct vcpu *v, stime_t at)
{
	if (cpu < 0 || cpu >= p->nr_cpus)
		return;
	p->slices[cpu].slot = is_idle_vcpu(v) ? -1 : trace_vcpu_slot(&p->w, v);
	p->slices[cpu].start = at;
	if (p->slices[cpu].slot >= 0)
		sample_credit(p, v, at);
}

static void slice_end(struct perfetto *p, int cpu, stime_t at)
{
	struct slice *sl;
	struct vcpu *v;
	FILE *f = p->w.f;

	if (cpu < 0 || cpu >= p->nr_cpus || p->slices[cpu].slot < 0)
		return;
	sl = &p->slices[cpu];
	v = p->w.slot_vcpu[sl->slot];
	sep(p);
	fprintf(f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":\"d%d v%d\",\"cat\":\"vcpu\","
		"\"cname\":\"%s\",", PID_PCPUS, cpu, v->dom->domid, v->vcpu_id,
		palette[(unsigned)v->dom->domid % (sizeof(palette) / sizeof(palette[0]))]);
	put_ts(f, "ts", sl->start);
	fputc(',', f);
	put_ts(f, "dur", at - sl->start);
	fprintf(f, ",\"args\":{\"domid\":%d,\"vcpu\":%d}}", v->dom->domid, v->vcpu_id);
	sl->slot = -1;
	sample_credit(p, v, at);
}

static void pf_open(struct trace_writer *w, stime_t at)
{
	struct perfetto *p = (struct perfetto *)w;
	struct sim *s = w->sim;
	char name[32];
	int cpu, d;

	free(p->slices);
	p->nr_cpus = s->nr_cpus;
	p->slices = xcalloc((size_t)s->nr_cpus, sizeof(*p->slices));
	meta(p, PID_PCPUS, 0, "process_name", "pCPUs", 0);
	meta(p, PID_CREDIT, 0, "process_name", "credit", 1);
	meta(p, PID_RUNQ, 0, "process_name", "runqueues", 2);
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		snprintf(name, sizeof(name), "pCPU %d", cpu);
		meta(p, PID_PCPUS, cpu, "thread_name", name, cpu);
		slice_begin(p, cpu, s->pcpus[cpu].curr, at);
	}
	p->runnable = 0;
	for (d = 0; d < s->nr_domains; d++) {
		int i;

		for (i = 0; i < s->domains[d]->nr_vcpus; i++)
			p->runnable += s->domains[d]->vcpus[i]->runstate == RUNSTATE_RUNNABLE;
	}
	counter(p, PID_RUNQ, "runnable vCPUs", at, "vcpus", p->runnable);
}

static void pf_close(struct trace_writer *w, stime_t at)
{
	struct perfetto *p = (struct perfetto *)w;
	int cpu;

	for (cpu = 0; cpu < p->nr_cpus; cpu++)
		slice_end(p, cpu, at);
	counter(p, PID_RUNQ, "runnable vCPUs", at, "vcpus", p->runnable);
}

static struct vcpu *unit_of(struct perfetto *p, uint32_t word)
{
	int slot = trace_slot(&p->w, word >> 16, word & 0xffffu);

	return slot < 0 ? NULL : p->w.slot_vcpu[slot];
}

static void runstate(struct perfetto *p, int cpu, stime_t now, uint32_t event, uint32_t word)
{
	unsigned old = (event >> 8) & 0xf, new = (event >> 4) & 0xf;
	struct vcpu *v = unit_of(p, word);

	if (!v)
		return;
	if (old == RUNSTATE_RUNNING && new != RUNSTATE_RUNNING && !is_idle_vcpu(v)) {
		int slot = trace_vcpu_slot(&p->w, v), c;

		/* The record comes from v->processor; end the slice where v runs. */
		for (c = 0; c < p->nr_cpus && p->slices[cpu].slot != slot; c++)
			if (p->slices[c].slot == slot)
				cpu = c;
		slice_end(p, cpu, now);
	}
	if (new == RUNSTATE_RUNNING && old != RUNSTATE_RUNNING)
		slice_begin(p, cpu, v, now);
	if (!is_idle_vcpu(v) && (old == RUNSTATE_RUNNABLE) != (new == RUNSTATE_RUNNABLE)) {
		p->runnable += new == RUNSTATE_RUNNABLE ? 1 : -1;
		counter(p, PID_RUNQ, "runnable vCPUs", now, "vcpus", p->runnable);
	}
}

static void pf_emit(struct trace_writer *w, int cpu, stime_t now, uint32_t event, int n,
		    const uint32_t *d)
{
	struct perfetto *p = (struct perfetto *)w;
	struct vcpu *v;
	char name[64];

	if ((event & 0x0ffff00fu) == TRC_SCHED_RUNSTATE_CHANGE && n >= 1) {
		runstate(p, cpu, now, event, d[0]);
	} else if (event == TRC_SCHED_WAKE && n >= 2) {
		v = unit_of(p, trc_pack16(d[1], d[0]));
		if (v) {
			snprintf(name, sizeof(name), "wake d%d v%d", v->dom->domid, v->vcpu_id);
			instant(p, v->processor, now, name, "wake");
		}
	} else if ((event == TRC_CSCHED_TICKLE || event == TRC_CSCHED2_TICKLE) && n >= 1) {
		instant(p, (int)(d[0] & 0xffffu), now, "tickle", "tickle");
	} else if (event == TRC_CSCHED2_CREDIT_BURN && n >= 2 && (v = unit_of(p, d[0]))) {
		credit_value(p, v, now, (int32_t)d[1]);
	} else if (event == TRC_CSCHED2_CREDIT_RESET && n >= 3 && (v = unit_of(p, d[0]))) {
		credit_value(p, v, now, (int32_t)d[2]);
	} else if (event == TRC_CSCHED2_UPDATE_RUNQ_LOAD && n >= 5) {
		snprintf(name, sizeof(name), "runq %u load", (d[4] >> 16) & 0xffu);
		counter(p, PID_RUNQ, name, now, "load", d[4] & 0xffffu);
	}
}

static void pf_finish(struct trace_writer *w)
{
	struct perfetto *p = (struct perfetto *)w;

	fputs("\n]}\n", w->f);
	free(p->slices);
}

struct tracer *trace_perfetto_open(const char *path, stime_t from, stime_t to, struct err *e)
{
	struct perfetto *p = xcalloc(1, sizeof(*p));

	if (trace_writer_init(&p->w, path, from, to, e) < 0) {
		free(p);
		return NULL;
	}
	p->first = true;
	p->w.open = pf_open;
	p->w.close = pf_close;
	p->w.emit = pf_emit;
	p->w.finish = pf_finish;
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"schedsim\"},"
	      "\"traceEvents\":[", p->w.f);
	return &p->w.t;
}
