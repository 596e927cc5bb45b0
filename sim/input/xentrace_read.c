/*
 * Reading xentrace files (xentrace_read.h).  The layout is Xen's: struct
 * t_rec of xen/include/public/trace.h (a header word, event in bits 0-27,
 * the number of data words in 28-30, bit 31 when the 64-bit TSC follows,
 * low word first), written by tools/xentrace/xentrace.c as windows: a
 * CPU-change record (TRC_TRACE_CPU_CHANGE, no TSC, the pCPU and the
 * window's byte size), then the records of that pCPU's buffer from its
 * consumer to its producer.  Xen pads a buffer's end with a wrap record
 * (TRC_TRACE_WRAP_BUFFER, xen/common/trace.c insert_wrap_record), and
 * when its buffer was full it writes a lost-records record (TRC_LOST_RECORDS:
 * how many, the running vCPU, the first lost one's TSC) before the next
 * record that fits.
 *
 * Each pCPU's records are in TSC order, so the reader indexes the windows
 * of each pCPU in one pass over the file, then merges the pCPUs' record
 * streams by TSC (a heap of one cursor per pCPU, as xenalyze merges them)
 * and follows each vCPU's runstate (xen/common/sched/core.c,
 * vcpu_runstate_change: running 0, runnable 1, blocked 2, offline 3):
 *
 * - a burst starts when the vCPU leaves blocked and ends when it blocks
 *   again; it ran for the running time in between and waited (runnable,
 *   or offline while it had work: a parked or paused vCPU) for the rest;
 * - a blocked interval is a sleep; offline entered from blocked continues
 *   it;
 * - before its first record a vCPU is taken to have been in that record's
 *   old state since the trace's start, except that a wake record seen
 *   first means it was blocked until that wake;
 * - a runstate change whose old state is not the one the vCPU was known
 *   to be in (records lost in between) is taken as given, the time before
 *   it counted as the state known before, and counted for the warnings.
 *
 * The TSC's frequency, when not given, is measured: switch_infprev gives
 * the time in ns (Xen's NOW()) the previous vCPU ran since it was switched
 * in, whose runstate change to running was recorded on the same pCPU, so
 * the TSC ticks between the two records over those ns, summed over every
 * switch, is the frequency.  (Both records are written a little after the
 * NOW() they belong to, by about the same amount.)  Xen writes the ns in
 * 32 bits: switches long enough to have wrapped are left out (measure_khz).
 */
#include "sim/input/xentrace_read.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/engine/trace_events.h"
#include "sim/xalloc.h"

#define CPU_CHANGE_HEADER TRC_HDR(TRC_TRACE_CPU_CHANGE, 2, 0)
#define WINDOW_HEADER_BYTES 12
#define MIN_KHZ_SAMPLES 10
#define MIN_KHZ_NS 1000000.0          /* run time the measurement needs: 1 ms */
#define UNSEEN 0xff

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

struct window {
	size_t off;         /* its first record */
	size_t size;        /* bytes present (less than declared when the file is cut) */
};

struct cpu_stream {
	struct window *w;
	int n, cap;
	/* the merge's cursor */
	int wi;
	size_t pos, end;
	uint64_t tsc;       /* the current record's, or the last one's */
	uint32_t ev;
	int nextra;
	const unsigned char *d;
	size_t at;          /* the current record's offset */
	uint64_t switch_in; /* TSC of its last runstate change to running (0: none known) */
	int loaded;         /* key of the guest vCPU it last switched to (0: none) */
};

struct vstate {
	uint8_t state;      /* enum runstate, or UNSEEN */
	bool in_burst;
	bool woken;         /* unseen, but a wake record was seen */
	uint64_t wake_tsc;
	uint64_t since;     /* TSC of the last change */
	int last_cpu;       /* the pCPU of its last change to or from running (-1: none yet) */
	int wake_cpu;       /* the pCPU of a wake record since it blocked (-1: none) */
	int key;            /* its number in the trace, from 1 */
	int dirty_cpu;      /* the pCPU it last switched in on (-1: none) */
	struct replay_burst cur;   /* in TSC ticks from the trace's start */
	uint64_t ran, waited, slept;
	struct replay_burst *bursts;
	int n, cap;
};

struct dstate {
	int domid;
	struct vstate *v;
	int nv;
};

struct reader {
	const unsigned char *data;
	size_t len;
	const char *name;
	struct xentrace_host *out;
	struct err *e;
	struct cpu_stream *cpus;     /* XENTRACE_MAX_CPUS */
	int ncpus;                   /* highest with a window, plus one */
	struct cpu_stream **heap;
	int nheap;
	int32_t *dom_index;          /* by domid: index in doms, -1 none */
	struct dstate *doms;
	int ndoms, capdoms;
	long total_vcpus;
	bool started;
	uint64_t t0, tend;
	/*
	 * The trace's first instant: its first record and those that follow it
	 * at most one tick apart each, to this TSC.  schedsim's writer
	 * (sim/output/trace_xentrace.c) gives each record of another pCPU than
	 * the previous one a TSC one more (xenalyze's merge needs it: the
	 * writer's comment says why), so the records of a run's first
	 * nanosecond spread over a few ticks; a real host's records are
	 * hundreds of ticks apart and its first instant is its first record.
	 */
	uint64_t instant_end;
	bool in_instant;
	size_t tend_at;              /* the offset of the record with the last TSC */
	/* switch_infprev samples by the TSC ticks they span, 2^b to 2^(b+1) - 1 */
	struct { double ticks, ns; uint64_t n; } khz[64];
	/* the first window cut by the file's end, and the first lost-records record */
	int cut_cpu;
	size_t cut_at, cut_declared, cut_present;
	int lost_cpu;
	uint64_t lost_first_tsc;
	unsigned char lost_on[XENTRACE_MAX_CPUS / 8];
};

/* ---- pass 1: the windows of each pCPU ---- */

static int index_windows(struct reader *r)
{
	size_t off = 0;

	if (r->len == 0)
		return err_set(r->e, "%s: empty (no xentrace records)", r->name);
	while (off < r->len) {
		const unsigned char *p = r->data + off;
		uint32_t h, cpu;
		size_t size, present;
		struct cpu_stream *c;

		if (r->len - off < WINDOW_HEADER_BYTES) {
			if (off == 0)
				return err_set(r->e, "%s: not a xentrace file (%zu bytes, shorter than a record)",
					       r->name, r->len);
			r->cut_cpu = -2;     /* a cut window header */
			r->cut_at = off;
			r->cut_present = r->len - off;
			break;
		}
		h = le32(p);
		if (h != CPU_CHANGE_HEADER) {
			if (off == 0)
				return err_set(r->e, "%s:0: not a xentrace file: it starts with 0x%08x, not a CPU-change record (0x%08x)",
					       r->name, h, CPU_CHANGE_HEADER);
			return err_set(r->e, "%s:%zu: expected the CPU-change record (0x%08x) that opens a window, found 0x%08x (a corrupt window size before it?)",
				       r->name, off, CPU_CHANGE_HEADER, h);
		}
		cpu = le32(p + 4);
		size = le32(p + 8);
		if (cpu >= XENTRACE_MAX_CPUS)
			return err_set(r->e, "%s:%zu: a window of pCPU %u: more than the %d pCPUs this reader takes",
				       r->name, off, cpu, XENTRACE_MAX_CPUS);
		if (size % 4)
			return err_set(r->e, "%s:%zu: a window of %zu bytes, not a whole number of 32-bit words",
				       r->name, off, size);
		off += WINDOW_HEADER_BYTES;
		present = size <= r->len - off ? size : r->len - off;
		if (present < size) {
			r->cut_cpu = (int)cpu;
			r->cut_at = off - WINDOW_HEADER_BYTES;
			r->cut_declared = size;
			r->cut_present = present;
		}
		c = &r->cpus[cpu];
		if (c->n == c->cap) {
			c->cap = c->cap ? 2 * c->cap : 16;
			c->w = xreallocarray(c->w, (size_t)c->cap, sizeof(*c->w));
		}
		c->w[c->n++] = (struct window){ off, present };
		if ((int)cpu >= r->ncpus)
			r->ncpus = (int)cpu + 1;
		r->out->st.windows++;
		off += present;
	}
	return 0;
}

/* ---- pass 2: the pCPUs' records merged by TSC ---- */

static bool of_interest(uint32_t ev)
{
	switch (ev >> 12) {
	case TRC_SCHED_MIN >> 12:
		return true;
	case TRC_SCHED_VERBOSE >> 12:
		return ev == TRC_SCHED_WAKE || ev == TRC_SCHED_DOM_ADD || ev == TRC_SCHED_DOM_REM ||
		       ev == TRC_SCHED_SWITCH_INFPREV;
	default:
		return ev == TRC_LOST_RECORDS;
	}
}

/*
 * Loads c's next record of interest: 1, or 0 when it has no more, -1 on a
 * corrupt one.  The loop over the records skipped works on locals: most
 * records of a trace (the schedulers' own) are skipped.
 */
static int cursor_next(struct reader *r, struct cpu_stream *c)
{
	const unsigned char *data = r->data;
	size_t pos = c->pos, end = c->end, size = 0;
	uint64_t records = 0, wraps = 0;
	uint32_t h = 0, ev = 0;
	int rc;

	for (;;) {
		while (pos >= end) {
			if (++c->wi >= c->n) {
				rc = 0;
				goto out;
			}
			pos = c->w[c->wi].off;
			end = pos + c->w[c->wi].size;
		}
		if (end - pos < 4) {
			rc = 0;    /* the cut end of the file */
			goto out;
		}
		h = le32(data + pos);
		size = 4 + TRC_HDR_HAS_TSC(h) * 8 + 4 * TRC_HDR_EXTRA(h);
		if (pos + size > end) {
			rc = c->wi == c->n - 1 && end == r->len ? 0    /* cut by the file's end: warned */
				: err_set(r->e, "%s:%zu: a record of %zu bytes (event 0x%07x) runs past the end of its window of pCPU %d (a corrupt header?)",
					  r->name, pos, size, TRC_HDR_EVENT(h), (int)(c - r->cpus));
			goto out;
		}
		records++;
		ev = TRC_HDR_EVENT(h);
		if (of_interest(ev)) {
			if (TRC_HDR_HAS_TSC(h))
				break;
			r->out->st.no_tsc++;
		}
		wraps += ev == TRC_TRACE_WRAP_BUFFER;
		pos += size;
	}
	{
		uint64_t tsc = le32(data + pos + 4) | (uint64_t)le32(data + pos + 8) << 32;

		if (tsc < c->tsc) {
			r->out->st.tsc_back++;
			tsc = c->tsc;
		}
		c->tsc = tsc;
	}
	c->at = pos;
	c->ev = ev;
	c->nextra = (int)TRC_HDR_EXTRA(h);
	c->d = data + pos + 12;
	pos += size;
	rc = 1;
out:
	c->pos = pos;
	c->end = end;
	r->out->st.records += records;
	r->out->st.wraps += wraps;
	return rc;
}

static bool heap_less(const struct cpu_stream *a, const struct cpu_stream *b)
{
	return a->tsc < b->tsc || (a->tsc == b->tsc && a < b);
}

static void heap_down(struct reader *r, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i;
		struct cpu_stream *t;

		if (l < r->nheap && heap_less(r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->nheap && heap_less(r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = r->heap[i];
		r->heap[i] = r->heap[m];
		r->heap[m] = t;
		i = m;
	}
}

/* ---- the vCPUs ---- */

/* The state of vCPU vcpu of domain domid, made on first sight; NULL with r->e set past a limit. */
static struct vstate *vcpu_of(struct reader *r, const struct cpu_stream *c, unsigned domid,
			      unsigned vcpu)
{
	struct dstate *d;
	int32_t k = r->dom_index[domid];

	if (k < 0) {
		if (r->ndoms >= SCENARIO_MAX_DOMAINS) {
			err_set(r->e, "%s:%zu: domain %u: more than the %d domains a scenario may have",
				r->name, c->at, domid, SCENARIO_MAX_DOMAINS);
			return NULL;
		}
		if (r->ndoms == r->capdoms) {
			r->capdoms = r->capdoms ? 2 * r->capdoms : 16;
			r->doms = xreallocarray(r->doms, (size_t)r->capdoms, sizeof(*r->doms));
		}
		k = r->ndoms++;
		r->dom_index[domid] = k;
		r->doms[k] = (struct dstate){ (int)domid, NULL, 0 };
	}
	d = &r->doms[k];
	if ((int)vcpu >= d->nv) {
		int n = (int)vcpu + 1;

		if (vcpu >= SCENARIO_MAX_VCPUS) {
			err_set(r->e, "%s:%zu: vCPU %u of domain %u: more than the %d vCPUs a domain may have",
				r->name, c->at, vcpu, domid, SCENARIO_MAX_VCPUS);
			return NULL;
		}
		if (r->total_vcpus + (n - d->nv) > SCENARIO_MAX_TOTAL_VCPUS) {
			err_set(r->e, "%s:%zu: vCPU %u of domain %u: more than the %d vCPUs a scenario may have in all",
				r->name, c->at, vcpu, domid, SCENARIO_MAX_TOTAL_VCPUS);
			return NULL;
		}
		d->v = xreallocarray(d->v, (size_t)n, sizeof(*d->v));
		memset(d->v + d->nv, 0, (size_t)(n - d->nv) * sizeof(*d->v));
		for (int i = d->nv; i < n; i++) {
			d->v[i].state = UNSEEN;
			d->v[i].last_cpu = -1;
			d->v[i].wake_cpu = -1;
			d->v[i].dirty_cpu = -1;
			d->v[i].key = (int)(r->total_vcpus + (i - d->nv) + 1);
		}
		r->total_vcpus += n - d->nv;
		d->nv = n;
	}
	return &d->v[vcpu];
}

static void push_burst(struct vstate *v, uint64_t end)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 64;
		v->bursts = xreallocarray(v->bursts, (size_t)v->cap, sizeof(*v->bursts));
	}
	v->cur.end = (stime_t)end;
	v->bursts[v->n++] = v->cur;
	v->in_burst = false;
}

/* Accounts v's time since its last change to the state it was in. */
static void account(struct vstate *v, uint64_t t)
{
	uint64_t dt = t - v->since;

	switch (v->state) {
	case RUNSTATE_RUNNING:
		v->ran += dt;
		v->cur.run += (stime_t)dt;
		break;
	case RUNSTATE_RUNNABLE:
		v->waited += dt;
		break;
	case RUNSTATE_BLOCKED:
		v->slept += dt;
		break;
	default:
		if (v->in_burst)
			v->waited += dt;
		else
			v->slept += dt;
		break;
	}
	v->since = t;
}

/*
 * TSC t from the trace's start, in ticks; a record of the first instant is
 * at the start itself (a burst woken then is due at the replay's start, as
 * it was in the recorded run, not a few ticks into it, when the replay's
 * idle pCPUs count as asleep: sim/engine/hw.c hw_model_wake_delay).
 */
static uint64_t since_start(const struct reader *r, uint64_t t)
{
	return t <= r->instant_end ? 0 : t - r->t0;
}

/*
 * v changes to state new at TSC t, recorded on pCPU cpu (-1: not from a
 * record).  Xen writes a record into the buffer of the pCPU whose code
 * makes it: vcpu_wake's wake record into the waker's, so a burst whose
 * wake record (or, without one, whose change out of blocked) is on another
 * pCPU than the one the vCPU last ran on was woken from there.
 */
static void change(struct reader *r, struct vstate *v, unsigned new, uint64_t t, int cpu)
{
	account(v, t);
	if (new == v->state)
		return;
	if (new == RUNSTATE_BLOCKED && v->in_burst) {
		push_burst(v, since_start(r, t));
		r->out->st.bursts++;
	}
	if ((new == RUNSTATE_RUNNABLE || new == RUNSTATE_RUNNING) && !v->in_burst) {
		int waker = v->wake_cpu >= 0 ? v->wake_cpu : cpu;

		v->in_burst = true;
		v->cur = (struct replay_burst){ (stime_t)since_start(r, t), 0, 0, 0,
			waker >= 0 && v->last_cpu >= 0 && waker != v->last_cpu ? waker : -1 };
	}
	v->wake_cpu = -1;
	/*
	 * A switch-in that costs the recording host a context switch: not a
	 * lazy one (Xen's rule, stated at sim/engine/core.c switch_cost).  The
	 * state a pCPU holds is read off the trace: the guest vCPU it last
	 * switched to (loaded), if that vCPU was last switched in there
	 * (dirty_cpu), i.e. has run nowhere else since.
	 */
	if (new == RUNSTATE_RUNNING) {
		if (cpu < 0 || r->cpus[cpu].loaded != v->key || v->dirty_cpu != cpu)
			v->cur.switches++;
		if (cpu >= 0) {
			r->cpus[cpu].loaded = v->key;
			v->dirty_cpu = cpu;
		}
	}
	if (cpu >= 0 && (new == RUNSTATE_RUNNING || v->state == RUNSTATE_RUNNING))
		v->last_cpu = cpu;
	v->state = (uint8_t)new;
}

/* A vCPU's first record: what it was doing before, as far as the trace tells. */
static void first_sight(struct reader *r, struct vstate *v, unsigned old)
{
	v->since = r->t0;
	if (old == RUNSTATE_RUNNABLE && v->woken) {
		v->state = RUNSTATE_BLOCKED;
		change(r, v, RUNSTATE_RUNNABLE, v->wake_tsc, -1);
		return;
	}
	v->state = (uint8_t)old;
	v->in_burst = old == RUNSTATE_RUNNING || old == RUNSTATE_RUNNABLE;
	if (v->in_burst)
		v->cur = (struct replay_burst){ 0, 0, 0, old == RUNSTATE_RUNNING, -1 };
}

static int on_runstate(struct reader *r, struct cpu_stream *c)
{
	unsigned old = (c->ev >> 8) & 3u, new = (c->ev >> 4) & 3u;
	uint32_t w;
	unsigned domid, vcpu;
	struct vstate *v;

	if (c->ev != (TRC_SCHED_RUNSTATE_CHANGE | old << 8 | new << 4) || c->nextra < 1)
		return 0;    /* continue_running, or another TRC_SCHED_MIN record */
	w = le32(c->d);
	domid = w >> 16;
	vcpu = w & 0xffffu;
	if (new == RUNSTATE_RUNNING)
		c->switch_in = c->tsc;
	if (domid >= XENTRACE_DOMID_LIMIT)
		return 0;    /* the idle vCPUs and Xen's own */
	v = vcpu_of(r, c, domid, vcpu);
	if (!v)
		return -1;
	r->out->st.runstate_changes++;
	if (v->state == UNSEEN)
		first_sight(r, v, old);
	else if (v->state != old)
		r->out->st.inconsistent++;
	change(r, v, new, c->tsc, (int)(c - r->cpus));
	return 0;
}

static int on_record(struct reader *r, struct cpu_stream *c)
{
	struct vstate *v;

	if ((c->ev & 0x0ffff000u) == TRC_SCHED_MIN)
		return on_runstate(r, c);
	switch (c->ev) {
	case TRC_SCHED_WAKE:
		if (c->nextra < 2 || le32(c->d) >= XENTRACE_DOMID_LIMIT)
			return 0;
		v = vcpu_of(r, c, le32(c->d), le32(c->d + 4) & 0xffffu);
		if (!v)
			return -1;
		if (v->state == UNSEEN && !v->woken) {
			v->woken = true;
			v->wake_tsc = c->tsc;
		}
		if (!v->in_burst)
			v->wake_cpu = (int)(c - r->cpus);
		return 0;
	case TRC_SCHED_DOM_ADD:
		r->out->st.domains_added++;
		return 0;
	case TRC_SCHED_DOM_REM:
		r->out->st.domains_removed++;
		return 0;
	case TRC_SCHED_SWITCH_INFPREV:
		/* Xen 4.7 and before: domid, ns; from 4.8: domid, vcpu, ns */
		if (c->nextra >= 2 && c->switch_in && c->tsc > c->switch_in) {
			uint32_t ns = le32(c->d + 4 * (c->nextra >= 3 ? 2 : 1));

			if (ns > 0) {
				uint64_t ticks = c->tsc - c->switch_in;
				int b = 63 - __builtin_clzll(ticks);

				r->khz[b].ticks += (double)ticks;
				r->khz[b].ns += ns;
				r->khz[b].n++;
				r->out->st.khz_samples++;
			}
		}
		return 0;
	case TRC_LOST_RECORDS:
		r->out->st.lost_reports++;
		r->out->st.lost += c->nextra >= 1 ? le32(c->d) : 0;
		if (r->out->st.lost_reports == 1) {
			r->lost_cpu = (int)(c - r->cpus);
			r->lost_first_tsc = c->nextra >= 4
				? (le32(c->d + 8) | (uint64_t)le32(c->d + 12) << 32) : c->tsc;
		}
		r->lost_on[(c - r->cpus) / 8] |= (unsigned char)(1u << ((c - r->cpus) % 8));
		c->switch_in = 0;    /* its last switch may be among the lost */
		return 0;
	default:
		return 0;
	}
}

static int merge(struct reader *r)
{
	r->heap = xcalloc((size_t)r->ncpus + 1, sizeof(*r->heap));
	for (int i = 0; i < r->ncpus; i++) {
		struct cpu_stream *c = &r->cpus[i];
		int rc;

		if (!c->n)
			continue;
		c->wi = -1;
		c->pos = c->end = 0;
		rc = cursor_next(r, c);
		if (rc < 0)
			return -1;
		if (rc)
			r->heap[r->nheap++] = c;
	}
	for (int i = r->nheap / 2 - 1; i >= 0; i--)
		heap_down(r, i);
	while (r->nheap) {
		struct cpu_stream *c = r->heap[0];
		int rc;

		if (!r->started) {
			r->started = true;
			r->t0 = r->instant_end = c->tsc;
			r->in_instant = true;
		} else if (r->in_instant && c->tsc <= r->tend + 1) {
			r->instant_end = c->tsc;
		} else {
			r->in_instant = false;
		}
		r->tend = c->tsc;
		r->tend_at = c->at;
		if (on_record(r, c) < 0)
			return -1;
		rc = cursor_next(r, c);
		if (rc < 0)
			return -1;
		if (!rc)
			r->heap[0] = r->heap[--r->nheap];
		heap_down(r, 0);
	}
	return 0;
}

/* ---- the result ---- */

static stime_t to_ns(uint64_t ticks, double khz)
{
	return (stime_t)llround((double)ticks * 1e6 / khz);
}

/*
 * The TSC's frequency from the switch_infprev samples.  Xen writes the run
 * time as a 32-bit word (TRACE_3D's arguments are uint32_t): a vCPU that
 * ran 2^32 ns (4.29 s) or more without a switch, as the idle vCPU of a
 * pCPU with nothing to do does, gives its run time modulo 2^32, and such
 * samples took the sum's ns far below its ticks (a make-xen run's trace,
 * with 8 idle vCPUs switched out after 4.9 to 17.5 s, read 1.29 GHz for
 * its 1 GHz).  So the samples are summed by the
 * ticks they span, in powers of two: those under 2^22 ticks cannot have
 * wrapped at any frequency taken (2^32 ns at 1000 kHz is 4.29e6 ticks)
 * and give a first estimate; the result sums every class whose ticks stay
 * under half the wrap at that estimate (and at least those first ones).
 */
static int ratio_upto(const struct reader *r, double max_ticks, double *ticks, double *ns,
		      uint64_t *n)
{
	*ticks = *ns = 0;
	*n = 0;
	for (int b = 0; b < 64 && ldexp(1, b + 1) <= max_ticks; b++) {
		*ticks += r->khz[b].ticks;
		*ns += r->khz[b].ns;
		*n += r->khz[b].n;
	}
	return *n >= MIN_KHZ_SAMPLES && *ns >= MIN_KHZ_NS;
}

static int measure_khz(struct reader *r)
{
	struct xentrace_host *h = r->out;
	double ticks, ns;
	uint64_t n;

	if (h->cpu_khz > 0)
		return 0;
	if (!ratio_upto(r, ldexp(1, 22), &ticks, &ns, &n))
		return err_set(r->e, "%s: cannot tell the TSC's frequency: %llu switch records with a run time "
			       "(switch_infprev, recorded with xentrace -e 0x0002f000), %llu of them "
			       "under 2^22 TSC ticks, too few; give it "
			       "(cpu-khz=, the 'Detected ... MHz processor' of xl dmesg times 1000)",
			       r->name, (unsigned long long)h->st.khz_samples, (unsigned long long)n);
	/* ticks / ns per ns is the estimate; half the wrap, 2^31 ns, in ticks */
	ratio_upto(r, fmax(ldexp(1, 22), ticks / ns * ldexp(1, 31)), &ticks, &ns, &n);
	h->cpu_khz = ticks / ns * 1e6;
	h->khz_measured = true;
	if (h->cpu_khz < XENTRACE_MIN_KHZ || h->cpu_khz > XENTRACE_MAX_KHZ)
		return err_set(r->e, "%s: the switch records give a TSC of %.0f kHz, outside %g..%g: "
			       "give the host's (cpu-khz=)", r->name, h->cpu_khz, XENTRACE_MIN_KHZ,
			       XENTRACE_MAX_KHZ);
	return 0;
}

static void warn(struct xentrace_host *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn(struct xentrace_host *h, const char *fmt, ...)
{
	va_list ap;

	if (h->nwarn == XENTRACE_MAX_WARN)
		return;
	va_start(ap, fmt);
	vsnprintf(h->warn[h->nwarn++], sizeof(h->warn[0]), fmt, ap);
	va_end(ap);
}

static void warnings(struct reader *r)
{
	struct xentrace_host *h = r->out;
	const struct xentrace_stats *st = &h->st;

	if (r->cut_cpu == -2)
		warn(h, "%s:%zu: the trace ends inside a window header (%zu bytes): skipped",
		     r->name, r->cut_at, r->cut_present);
	else if (r->cut_declared)
		warn(h, "%s:%zu: the trace ends inside a window of pCPU %d (%zu of its %zu bytes): "
		     "its records from there on are missing, a record cut short skipped",
		     r->name, r->cut_at, r->cut_cpu, r->cut_present, r->cut_declared);
	if (st->lost_reports) {
		char cpus[120] = "";
		int n = 0;

		for (int i = 0; i < r->ncpus; i++)
			if (r->lost_on[i / 8] & (1u << (i % 8)) && strlen(cpus) < sizeof(cpus) - 12)
				snprintf(cpus + strlen(cpus), sizeof(cpus) - strlen(cpus), "%s%d",
					 n++ ? "," : "", i);
		warn(h, "%s: %llu records were lost to full trace buffers (%llu lost-records records, "
		     "pCPUs %s, the first lost at %.9f s): what the vCPUs did then is not in the demand",
		     r->name, (unsigned long long)st->lost, (unsigned long long)st->lost_reports, cpus,
		     r->lost_first_tsc > r->t0 ? (double)to_ns(r->lost_first_tsc - r->t0, h->cpu_khz) / 1e9
					       : 0.0);
	}
	if (st->inconsistent)
		warn(h, "%s: %llu runstate changes did not follow from their vCPU's last known state "
		     "(records lost or damaged): each was taken as given, the time before it counted in "
		     "the state known before", r->name, (unsigned long long)st->inconsistent);
	if (st->tsc_back)
		warn(h, "%s: %llu records had a TSC below the one before them on their pCPU: each was "
		     "taken at the one before", r->name, (unsigned long long)st->tsc_back);
	if (st->no_tsc)
		warn(h, "%s: %llu scheduler records had no TSC and were skipped", r->name,
		     (unsigned long long)st->no_tsc);
	if (!st->runstate_changes)
		warn(h, "%s: no runstate changes of any domain's vCPU (recorded with xentrace -e "
		     "0x0002f000?): nothing to replay", r->name);
}

/* Each vCPU's open interval closed at the trace's end, ticks turned into ns. */
static void finish(struct reader *r)
{
	struct xentrace_host *h = r->out;
	int k = 0;

	h->npcpus = r->ncpus;
	h->length = to_ns(r->tend - r->t0, h->cpu_khz);
	h->doms = xcalloc((size_t)r->ndoms + 1, sizeof(*h->doms));
	for (int domid = 0; domid < XENTRACE_DOMID_LIMIT; domid++) {
		struct dstate *d;
		struct replay_demand *out;

		if (r->dom_index[domid] < 0)
			continue;
		d = &r->doms[r->dom_index[domid]];
		out = &h->doms[k++];
		out->domid = domid;
		out->nvcpus = d->nv;
		out->length = h->length;
		out->vcpus = xcalloc((size_t)d->nv, sizeof(*out->vcpus));
		for (int i = 0; i < d->nv; i++) {
			struct vstate *v = &d->v[i];
			struct replay_vcpu *o = &out->vcpus[i];

			if (v->state == UNSEEN)
				continue;    /* no runstate change, only a wake */
			account(v, r->tend);
			if (v->in_burst) {
				push_burst(v, r->tend - r->t0);
				h->st.bursts++;
			}
			for (int b = 0; b < v->n; b++) {
				struct replay_burst *x = &v->bursts[b];

				x->wake = to_ns((uint64_t)x->wake, h->cpu_khz);
				x->end = to_ns((uint64_t)x->end, h->cpu_khz);
				x->run = to_ns((uint64_t)x->run, h->cpu_khz);
			}
			o->bursts = v->bursts;
			o->n = v->n;
			o->ran = to_ns(v->ran, h->cpu_khz);
			o->waited = to_ns(v->waited, h->cpu_khz);
			o->slept = to_ns(v->slept, h->cpu_khz);
			v->bursts = NULL;
		}
	}
	h->ndoms = k;
}

static void reader_free(struct reader *r)
{
	if (r->cpus)
		for (int i = 0; i < XENTRACE_MAX_CPUS; i++)
			free(r->cpus[i].w);
	free(r->cpus);
	free(r->heap);
	for (int k = 0; k < r->ndoms; k++) {
		for (int i = 0; i < r->doms[k].nv; i++)
			free(r->doms[k].v[i].bursts);
		free(r->doms[k].v);
	}
	free(r->doms);
	free(r->dom_index);
}

int xentrace_parse(const unsigned char *data, size_t len, const char *name, double cpu_khz,
		   struct xentrace_host *out, struct err *e)
{
	struct reader r;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	if (cpu_khz < 0 || (cpu_khz > 0 && (cpu_khz < XENTRACE_MIN_KHZ || cpu_khz > XENTRACE_MAX_KHZ)))
		return err_set(e, "%s: a TSC of %g kHz is outside %g..%g", name, cpu_khz,
			       XENTRACE_MIN_KHZ, XENTRACE_MAX_KHZ);
	r.data = data;
	r.len = len;
	r.name = name;
	r.out = out;
	r.e = e;
	r.cut_cpu = -1;
	out->cpu_khz = cpu_khz;
	r.cpus = xcalloc(XENTRACE_MAX_CPUS, sizeof(*r.cpus));
	r.dom_index = xmalloc(XENTRACE_DOMID_LIMIT * sizeof(*r.dom_index));
	memset(r.dom_index, 0xff, XENTRACE_DOMID_LIMIT * sizeof(*r.dom_index));
	if (index_windows(&r) < 0 || merge(&r) < 0)
		goto out;
	if (!r.started) {
		err_set(e, "%s: no scheduler records with a TSC (recorded with xentrace -e 0x0002f000?)",
			name);
		goto out;
	}
	if (measure_khz(&r) < 0)
		goto out;
	if ((double)(r.tend - r.t0) * 1e6 / out->cpu_khz > (double)XENTRACE_MAX_SPAN_NS) {
		err_set(e, "%s:%zu: a record %.0f days after the trace's first (at %.0f kHz): a corrupt TSC? (traces of up to %lld days are read)",
			name, r.tend_at, (double)(r.tend - r.t0) * 1e6 / out->cpu_khz / 86400e9,
			out->cpu_khz, XENTRACE_MAX_SPAN_NS / 86400000000000LL);
		goto out;
	}
	finish(&r);
	warnings(&r);
	rc = 0;
out:
	reader_free(&r);
	if (rc < 0)
		xentrace_host_free(out);
	return rc;
}

int xentrace_load(const char *path, double cpu_khz, struct xentrace_host *out, struct err *e)
{
	struct stat st;
	void *map;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(e, "%s: not a regular file", path);
	}
	if (st.st_size == 0) {
		close(fd);
		return xentrace_parse(NULL, 0, path, cpu_khz, out, e);
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return err_set(e, "%s: cannot map: %s", path, strerror(errno));
	/* the pCPUs' cursors move through the file together: read ahead */
	madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	rc = xentrace_parse(map, (size_t)st.st_size, path, cpu_khz, out, e);
	munmap(map, (size_t)st.st_size);
	return rc;
}

void xentrace_host_free(struct xentrace_host *h)
{
	for (int i = 0; i < h->ndoms; i++)
		replay_demand_free(&h->doms[i]);
	free(h->doms);
	h->doms = NULL;
	h->ndoms = 0;
}

const struct replay_demand *xentrace_domain(const struct xentrace_host *h, int domid)
{
	for (int i = 0; i < h->ndoms; i++)
		if (h->doms[i].domid == domid)
			return &h->doms[i];
	return NULL;
}

int xentrace_copy_domain(const struct xentrace_host *h, int domid, const char *name,
			 struct replay_demand *out, struct err *e)
{
	const struct replay_demand *d = xentrace_domain(h, domid);
	char ids[200] = "";

	memset(out, 0, sizeof(*out));
	if (d) {
		replay_demand_copy(out, d);
		return 0;
	}
	for (int i = 0; i < h->ndoms && strlen(ids) < sizeof(ids) - 16; i++)
		snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids), "%s%d", i ? ", " : "",
			 h->doms[i].domid);
	if (strlen(ids) >= sizeof(ids) - 16)
		snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids), ", ...");
	return err_set(e, "%s holds no domain %d (its domains: %s)", name, domid,
		       h->ndoms ? ids : "none");
}
