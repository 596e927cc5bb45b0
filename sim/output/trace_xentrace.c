/*
 * The xentrace writer: the binary file xentrace(8) writes and xenalyze
 * reads, so a simulated run opens in Xen's own tools.
 *
 * The file is a sequence of windows, each a CPU-change record (event
 * TRC_TRACE_CPU_CHANGE, no TSC, two words: the pCPU and the byte size of
 * what follows) and then records of that pCPU.  Records are gathered in a
 * fixed buffer and written out as a window when the pCPU changes or the
 * buffer fills, so memory does not grow with the run.
 *
 * The TSC is simulated nanoseconds plus one (xenalyze ignores intervals
 * that start at TSC 0), so "xenalyze --cpu-hz=1G" reads times exactly.
 * xenalyze merges the pCPUs' streams by TSC and, on a tie, stays on the
 * pCPU it is reading; two records of different pCPUs in the same
 * nanosecond could then be read out of order (a vCPU switched in on one
 * pCPU before it is switched out on another).  So a record of another
 * pCPU than the previous one gets a TSC at least one more than the
 * previous record's: the order in the file is the order of events, at the
 * cost of a few nanoseconds.
 *
 * One instant's records cannot all keep its TSC.  xenalyze (Xen 4.17 and
 * master, tools/xentrace/xenalyze.c record_order_bubble) moves the pCPU it
 * has just read only past pCPUs whose next TSC is strictly smaller, so
 * among equal TSCs the pCPU read most recently goes first (by pCPU number
 * if built with PRESERVE_PCPU_ORDERING): an order of its reading, not of
 * the file.  At one TSC, an instant whose records go p0, p1, p0 is read
 * p0, p0, p1, and no reordering of the file can state a switch-out on p1
 * between two records of p0.  Measured: with the tick
 * taken out (TSCs only kept from going down), tests/trace/xenalyze.sh
 * fails on three of its six traces: xenalyze stops on credit1's and
 * credit2's iperf runs ("FATAL: sevt.old_runstate running, but d0v3
 * runstate runnable!") and warns of vCPUs in RUNSTATE_LOST on credit1's
 * small one.  An instant with records of k pCPU changes thus spans k ticks;
 * a reader that needs the run's first instant as one point (schedsim's,
 * sim/input/xentrace_read.c since_start) takes records at most a tick
 * apart as that instant.
 *
 * xenalyze knows nothing of a vCPU until it sees it start running (a
 * runnable-to-running change, as in a real trace started on a live host).
 * So at the window's start each pCPU's current vCPU gets such a record,
 * and the runstate records of any other vCPU are held back until its
 * first runnable-to-running change.  At the end, every vCPU that appeared
 * gets a record that closes its open interval (continue_running for the
 * running ones, a same-state change for the others; xenalyze adds the
 * time since the previous change for both), so xenalyze's totals cover
 * the whole window.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/output/trace_writer.h"
#include "sim/xalloc.h"

#define XT_BUF_WORDS 16384   /* 64 KiB per window at most */

struct xentrace {
	struct trace_writer w;
	uint32_t buf[XT_BUF_WORDS];
	int len;                 /* words in buf */
	int buf_cpu;             /* pCPU of the window being gathered, -1 none */
	int last_cpu;
	uint64_t last_tsc;
	unsigned char *seen;     /* by slot: appeared running in the trace */
	int nr_seen;
};

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static void write_words(struct xentrace *x, const uint32_t *w, int n)
{
	unsigned char tmp[4 * 64];
	int i, k;

	for (i = 0; i < n; i += 64) {
		int m = n - i < 64 ? n - i : 64;

		for (k = 0; k < m; k++)
			put_le32(tmp + 4 * k, w[i + k]);
		fwrite(tmp, 4, (size_t)m, x->w.f);
	}
}

static void flush_window(struct xentrace *x)
{
	uint32_t hdr[3];

	if (!x->len)
		return;
	hdr[0] = TRC_HDR(TRC_TRACE_CPU_CHANGE, 2, 0);
	hdr[1] = (uint32_t)x->buf_cpu;
	hdr[2] = (uint32_t)x->len * 4;
	write_words(x, hdr, 3);
	write_words(x, x->buf, x->len);
	x->len = 0;
}

static void put_record(struct xentrace *x, int cpu, stime_t now, uint32_t event, int n,
		       const uint32_t *data)
{
	uint64_t tsc = (uint64_t)now + 1;
	uint64_t floor = x->last_tsc + (cpu != x->last_cpu && x->last_cpu >= 0);
	int i;

	if (n > 7)
		n = 7;
	if (tsc < floor)
		tsc = floor;
	if (cpu != x->buf_cpu || x->len + 3 + n > XT_BUF_WORDS) {
		flush_window(x);
		x->buf_cpu = cpu;
	}
	x->buf[x->len++] = TRC_HDR(event, n, 1);
	x->buf[x->len++] = (uint32_t)tsc;
	x->buf[x->len++] = (uint32_t)(tsc >> 32);
	for (i = 0; i < n; i++)
		x->buf[x->len++] = data[i];
	x->last_tsc = tsc;
	x->last_cpu = cpu;
}

static uint32_t runstate_event(enum runstate old, enum runstate new)
{
	return TRC_SCHED_RUNSTATE_CHANGE | (uint32_t)old << 8 | (uint32_t)new << 4;
}

static void mark_seen(struct xentrace *x, int slot)
{
	if (slot >= x->nr_seen) {
		int n = slot + 64;

		x->seen = xreallocarray(x->seen, (size_t)n, 1);
		memset(x->seen + x->nr_seen, 0, (size_t)(n - x->nr_seen));
		x->nr_seen = n;
	}
	x->seen[slot] = 1;
}

static bool was_seen(const struct xentrace *x, int slot)
{
	return slot >= 0 && slot < x->nr_seen && x->seen[slot];
}

static void xt_open(struct trace_writer *w, stime_t at)
{
	struct xentrace *x = (struct xentrace *)w;
	struct sim *s = w->sim;
	int cpu;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct vcpu *v = s->pcpus[cpu].curr;
		uint32_t d = trc_unit(v);

		put_record(x, cpu, at, runstate_event(RUNSTATE_RUNNABLE, RUNSTATE_RUNNING), 1, &d);
		mark_seen(x, trace_vcpu_slot(w, v));
	}
}

static void xt_close(struct trace_writer *w, stime_t at)
{
	struct xentrace *x = (struct xentrace *)w;
	struct sim *s = w->sim;
	int slot, cpu;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		uint32_t d = trc_unit(s->pcpus[cpu].curr);

		put_record(x, cpu, at, TRC_SCHED_CONTINUE_RUNNING, 1, &d);
	}
	for (slot = 0; slot < w->nr_slots; slot++) {
		struct vcpu *v = w->slot_vcpu[slot];
		uint32_t d = trc_unit(v);

		if (!was_seen(x, slot) || v->runstate == RUNSTATE_RUNNING)
			continue;
		put_record(x, v->processor, at, runstate_event(v->runstate, v->runstate), 1, &d);
	}
}

static void xt_emit(struct trace_writer *w, int cpu, stime_t now, uint32_t event, int n,
		    const uint32_t *data)
{
	struct xentrace *x = (struct xentrace *)w;

	if ((event & 0x0ffff000u) == TRC_SCHED_MIN && n >= 1) {
		int slot = trace_slot(w, data[0] >> 16, data[0] & 0xffffu);

		if (!was_seen(x, slot)) {
			if (event != runstate_event(RUNSTATE_RUNNABLE, RUNSTATE_RUNNING))
				return;
			if (slot >= 0)
				mark_seen(x, slot);
		}
	}
	put_record(x, cpu, now, event, n, data);
}

static void xt_finish(struct trace_writer *w)
{
	struct xentrace *x = (struct xentrace *)w;

	flush_window(x);
	free(x->seen);
}

struct tracer *trace_xentrace_open(const char *path, stime_t from, stime_t to, struct err *e)
{
	struct xentrace *x = xcalloc(1, sizeof(*x));

	if (trace_writer_init(&x->w, path, from, to, e) < 0) {
		free(x);
		return NULL;
	}
	x->buf_cpu = -1;
	x->last_cpu = -1;
	x->w.open = xt_open;
	x->w.close = xt_close;
	x->w.emit = xt_emit;
	x->w.finish = xt_finish;
	return &x->w.t;
}
