/*
 * xentrace in: the reader (sim/input/xentrace_read.c) on traces built here
 * record by record (a vCPU's bursts, waits and sleeps; pCPUs merged by TSC
 * whatever the order of their windows; the TSC's frequency measured from
 * switch records; lost records, wrap padding, a TSC going back; every cut
 * of a file and corrupt headers named by offset), and on a trace schedsim
 * wrote of a run (the recorded totals are the run's).
 */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/run_suite.h"
#include "sim/engine/trace_events.h"
#include "sim/experiment/run.h"
#include "sim/input/xentrace_read.h"
#include "sim/output/trace.h"
#include "tests/testlib.h"

#define RUNNING RUNSTATE_RUNNING
#define RUNNABLE RUNSTATE_RUNNABLE
#define BLOCKED RUNSTATE_BLOCKED
#define OFFLINE RUNSTATE_OFFLINE

/* ---- building traces ---- */

struct tb {
	unsigned char buf[1 << 16];
	size_t len, hdr;
};

static void put32(struct tb *b, uint32_t v)
{
	ck_assert_uint_le(b->len + 4, sizeof(b->buf));
	for (int i = 0; i < 4; i++)
		b->buf[b->len++] = (unsigned char)(v >> (8 * i));
}

static void set32(struct tb *b, size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b->buf[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}

/* Opens a window of pCPU cpu; tb_close fills in its size. */
static void tb_window(struct tb *b, unsigned cpu)
{
	b->hdr = b->len;
	put32(b, TRC_TRACE_CPU_CHANGE | 2u << 28);
	put32(b, cpu);
	put32(b, 0);
}

static void tb_close(struct tb *b)
{
	set32(b, b->hdr + 8, (uint32_t)(b->len - b->hdr - 12));
}

static void tb_rec(struct tb *b, uint32_t ev, uint64_t tsc, int n, ...)
{
	va_list ap;

	put32(b, ev | (uint32_t)n << 28 | 1u << 31);
	put32(b, (uint32_t)tsc);
	put32(b, (uint32_t)(tsc >> 32));
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		put32(b, va_arg(ap, uint32_t));
	va_end(ap);
}

static void tb_rs(struct tb *b, uint64_t tsc, unsigned dom, unsigned v, unsigned old, unsigned new)
{
	tb_rec(b, TRC_SCHED_RUNSTATE_CHANGE | old << 8 | new << 4, tsc, 1, v | dom << 16);
}

static const char *parse(const struct tb *b, size_t len, double khz, struct xentrace_host *h)
{
	static struct err e;

	memset(&e, 0, sizeof(e));
	if (xentrace_parse(b->buf, len, "t.xt", khz, h, &e) < 0)
		return e.msg;
	return NULL;
}

static const struct replay_vcpu *vcpu(const struct xentrace_host *h, int dom, int v)
{
	const struct replay_demand *d = xentrace_domain(h, dom);

	ck_assert_ptr_nonnull(d);
	ck_assert_int_lt(v, d->nvcpus);
	return &d->vcpus[v];
}

static bool has_warning(const struct xentrace_host *h, const char *text)
{
	for (int i = 0; i < h->nwarn; i++)
		if (strstr(h->warn[i], text))
			return true;
	return false;
}

/* d1v0 on one pCPU at 1 GHz: runs 2000, sleeps 2000, waits 1000, runs 2000, blocks. */
static void one_vcpu(struct tb *b)
{
	tb_window(b, 0);
	tb_rs(b, 1000, 1, 0, RUNNABLE, RUNNING);
	tb_rs(b, 3000, 1, 0, RUNNING, BLOCKED);
	tb_rec(b, TRC_SCHED_WAKE, 5000, 2, 1, 0);
	tb_rs(b, 5000, 1, 0, BLOCKED, RUNNABLE);
	tb_rs(b, 6000, 1, 0, RUNNABLE, RUNNING);
	tb_rs(b, 8000, 1, 0, RUNNING, BLOCKED);
	tb_rs(b, 9000, 32767, 0, RUNNING, RUNNING);   /* idle: not a domain */
	tb_close(b);
}

START_TEST(bursts_waits_and_sleeps)
{
	static struct tb b;
	struct xentrace_host h;
	const struct replay_vcpu *v;
	const char *msg;

	one_vcpu(&b);
	msg = parse(&b, b.len, 1e6, &h);
	ck_assert_msg(!msg, "%s", msg ? msg : "");
	ck_assert_int_eq(h.npcpus, 1);
	ck_assert_int_eq(h.ndoms, 1);
	ck_assert_int_eq(h.length, 8000);
	ck_assert_int_eq(h.nwarn, 0);
	v = vcpu(&h, 1, 0);
	ck_assert_int_eq(v->n, 2);
	ck_assert_int_eq(v->bursts[0].wake, 0);
	ck_assert_int_eq(v->bursts[0].run, 2000);
	ck_assert_int_eq(v->bursts[0].end, 2000);
	ck_assert_int_eq(v->bursts[0].switches, 1);
	ck_assert_int_eq(v->bursts[1].wake, 4000);
	ck_assert_int_eq(v->bursts[1].run, 2000);
	ck_assert_int_eq(v->bursts[1].end, 7000);
	ck_assert_int_eq(v->ran, 4000);
	ck_assert_int_eq(v->waited, 1000);
	ck_assert_int_eq(v->slept, 3000);   /* to the trace's end, at 9000 */
	xentrace_host_free(&h);
	/* At 2 GHz the same ticks are half the ns. */
	ck_assert_ptr_null(parse(&b, b.len, 2e6, &h));
	ck_assert_int_eq(vcpu(&h, 1, 0)->bursts[1].wake, 2000);
	ck_assert(!h.khz_measured && h.cpu_khz == 2e6);
	xentrace_host_free(&h);
}
END_TEST

/*
 * Who woke a burst: d1v0 runs on pCPU 0 and blocks three times.  Woken by
 * a wake record on pCPU 0 (its own timer), then on pCPU 1 (an event from a
 * vCPU there: the burst's waker is 1), then with no wake record, its change
 * out of blocked written on pCPU 1.  Its first burst, running when the
 * trace starts, has no waker.
 */
START_TEST(a_burst_s_waker_is_the_wake_record_s_pcpu)
{
	static struct tb b;
	struct xentrace_host h;
	const struct replay_vcpu *v;
	const char *msg;

	tb_window(&b, 0);
	tb_rs(&b, 1000, 1, 0, RUNNABLE, RUNNING);
	tb_rs(&b, 2000, 1, 0, RUNNING, BLOCKED);
	tb_rec(&b, TRC_SCHED_WAKE, 3000, 2, 1, 0);
	tb_rs(&b, 3000, 1, 0, BLOCKED, RUNNABLE);
	tb_rs(&b, 3500, 1, 0, RUNNABLE, RUNNING);
	tb_rs(&b, 4000, 1, 0, RUNNING, BLOCKED);
	tb_rs(&b, 5500, 1, 0, RUNNABLE, RUNNING);
	tb_rs(&b, 6000, 1, 0, RUNNING, BLOCKED);
	tb_rs(&b, 7500, 1, 0, RUNNABLE, RUNNING);
	tb_rs(&b, 8000, 1, 0, RUNNING, BLOCKED);
	tb_close(&b);
	tb_window(&b, 1);
	tb_rec(&b, TRC_SCHED_WAKE, 5000, 2, 1, 0);
	tb_rs(&b, 5000, 1, 0, BLOCKED, RUNNABLE);
	tb_rs(&b, 7000, 1, 0, BLOCKED, RUNNABLE);
	tb_rs(&b, 9000, 32767, 1, RUNNING, RUNNING);
	tb_close(&b);
	msg = parse(&b, b.len, 1e6, &h);
	ck_assert_msg(!msg, "%s", msg ? msg : "");
	v = vcpu(&h, 1, 0);
	ck_assert_int_eq(v->n, 4);
	ck_assert_int_eq(v->bursts[0].waker, -1);
	ck_assert_int_eq(v->bursts[1].waker, -1);
	ck_assert_int_eq(v->bursts[2].waker, 1);
	ck_assert_int_eq(v->bursts[2].wake, 4000);
	ck_assert_int_eq(v->bursts[3].waker, 1);
	xentrace_host_free(&h);
}
END_TEST

/*
 * Two pCPUs, the later one's window first in the file: d2v1 is woken on
 * pCPU 1 and runs on pCPU 0, is preempted there (a burst with a wait in
 * it), parked offline and run again (offline with work is waiting), and is
 * still running at the end (its last burst ends with the trace).  d3v0 is
 * first seen woken, so blocked before; d4v2 is first seen running.
 */
START_TEST(pcpus_merge_by_tsc)
{
	static struct tb b;
	struct xentrace_host h;
	const struct replay_vcpu *v;
	const char *msg;

	tb_window(&b, 1);
	tb_rec(&b, TRC_SCHED_WAKE, 150, 2, 2, 1);
	tb_rs(&b, 150, 2, 1, BLOCKED, RUNNABLE);
	tb_rec(&b, TRC_SCHED_WAKE, 160, 2, 3, 0);
	tb_rs(&b, 900, 4, 2, RUNNING, BLOCKED);
	tb_close(&b);
	tb_window(&b, 0);
	tb_rs(&b, 100, 2, 1, RUNNING, BLOCKED);
	tb_rs(&b, 200, 2, 1, RUNNABLE, RUNNING);
	tb_rs(&b, 300, 2, 1, RUNNING, RUNNABLE);
	tb_rs(&b, 400, 2, 1, RUNNABLE, RUNNING);
	tb_rs(&b, 500, 2, 1, RUNNING, OFFLINE);
	tb_rs(&b, 600, 2, 1, OFFLINE, RUNNING);
	tb_rs(&b, 650, 3, 0, RUNNABLE, RUNNING);
	tb_rs(&b, 700, 3, 0, RUNNING, BLOCKED);
	tb_rs(&b, 1100, 2, 1, RUNNING, RUNNING);
	tb_close(&b);
	msg = parse(&b, b.len, 1e6, &h);
	ck_assert_msg(!msg, "%s", msg ? msg : "");
	ck_assert_int_eq(h.npcpus, 2);
	ck_assert_int_eq(h.ndoms, 3);
	ck_assert_int_eq(h.nwarn, 0);
	ck_assert_int_eq(h.length, 1000);
	v = vcpu(&h, 2, 1);
	ck_assert_int_eq(xentrace_domain(&h, 2)->nvcpus, 2);
	ck_assert_int_eq(xentrace_domain(&h, 2)->vcpus[0].n, 0);
	ck_assert_int_eq(v->n, 2);
	ck_assert_int_eq(v->bursts[0].wake, 0);      /* running since the start */
	ck_assert_int_eq(v->bursts[0].end, 0);
	ck_assert_int_eq(v->bursts[1].wake, 50);
	ck_assert_int_eq(v->bursts[1].run, 100 + 100 + 500);
	/*
	 * Switched in three times, all on pCPU 0, which ran nothing else
	 * between (idle from 300 to 400 and from 500 to 600): the second and
	 * third are back to the vCPU whose state the pCPU still holds, lazy in
	 * Xen (context_switch skips __context_switch), so one cost.
	 */
	ck_assert_int_eq(v->bursts[1].switches, 1);
	ck_assert_int_eq(v->bursts[1].end, 1000);
	ck_assert_int_eq(v->waited, 50 + 100 + 100);
	v = vcpu(&h, 3, 0);
	ck_assert_int_eq(v->n, 1);
	ck_assert_int_eq(v->bursts[0].wake, 60);
	ck_assert_int_eq(v->bursts[0].run, 50);
	ck_assert_int_eq(v->bursts[0].switches, 1);   /* pCPU 0 held d2v1's state */
	ck_assert_int_eq(v->slept, 60 + 400);
	v = vcpu(&h, 4, 2);
	ck_assert_int_eq(v->n, 1);
	ck_assert_int_eq(v->bursts[0].run, 800);
	xentrace_host_free(&h);
}
END_TEST

/*
 * A 2.5 GHz host's switches: infprev's ns against the TSC since the
 * switch-in, 100 us each, then runs of 'longer' ns (0: none), written as
 * Xen writes them: the ns in 32 bits.
 */
static void switches(struct tb *b, int n, int infprev_words, const uint64_t *longer)
{
	uint64_t t = 1000;

	tb_window(b, 0);
	for (int i = 0; i < n || (longer && longer[i - n]); i++) {
		uint64_t ns = i < n ? 100000 : longer[i - n];

		tb_rs(b, t, 1, 0, i ? BLOCKED : RUNNABLE, RUNNABLE);
		tb_rs(b, t + 10, 1, 0, RUNNABLE, RUNNING);
		t += 10 + ns * 5 / 2;
		if (infprev_words == 3)
			tb_rec(b, TRC_SCHED_SWITCH_INFPREV, t, 3, 1, 0, (uint32_t)ns);
		else
			tb_rec(b, TRC_SCHED_SWITCH_INFPREV, t, 2, 1, (uint32_t)ns);
		tb_rs(b, t, 1, 0, RUNNING, BLOCKED);
		t += 500000;
	}
	tb_close(b);
}

START_TEST(tsc_frequency_from_switches)
{
	static struct tb b, old, few, wrap, fewshort;
	static const uint64_t wrapped[] = { 1000000000, 5000000000, 9000000000, 0 };
	struct xentrace_host h;
	const char *msg;

	switches(&b, 20, 3, NULL);
	msg = parse(&b, b.len, 0, &h);
	ck_assert_msg(!msg, "%s", msg ? msg : "");
	ck_assert(h.khz_measured);
	ck_assert_msg(fabs(h.cpu_khz - 2.5e6) < 1, "%f", h.cpu_khz);
	ck_assert_int_eq(h.st.khz_samples, 20);
	ck_assert_int_eq(vcpu(&h, 1, 0)->bursts[0].run, 100000);
	ck_assert_int_eq(vcpu(&h, 1, 0)->n, 20);
	xentrace_host_free(&h);
	/* Xen 4.7's infprev (domid, ns) measures the same. */
	switches(&old, 20, 2, NULL);
	ck_assert_ptr_null(parse(&old, old.len, 0, &h));
	ck_assert_msg(fabs(h.cpu_khz - 2.5e6) < 1, "%f", h.cpu_khz);
	xentrace_host_free(&h);
	/* Too few to tell: say so, and what to do. */
	switches(&few, 3, 3, NULL);
	msg = parse(&few, few.len, 0, &h);
	ck_assert_ptr_nonnull(msg);
	ck_assert_msg(strstr(msg, "t.xt: cannot tell the TSC's frequency") && strstr(msg, "cpu-khz="),
		      "%s", msg);
	ck_assert_ptr_null(parse(&few, few.len, 2.5e6, &h));
	xentrace_host_free(&h);
	msg = parse(&few, few.len, 5, &h);
	ck_assert_str_eq(msg, "t.xt: a TSC of 5 kHz is outside 1000..1e+08");
	/*
	 * Runs of 5 s and 9 s (Xen writes 705 ms and 410 ms: their ns modulo
	 * 2^32) are left out: summed in, they read 17.7 GHz; the 1 s run is
	 * taken.
	 */
	switches(&wrap, 20, 3, wrapped);
	msg = parse(&wrap, wrap.len, 0, &h);
	ck_assert_msg(!msg, "%s", msg ? msg : "");
	ck_assert_msg(fabs(h.cpu_khz - 2.5e6) < 1, "%f", h.cpu_khz);
	ck_assert_int_eq(h.st.khz_samples, 23);
	ck_assert_int_eq(vcpu(&h, 1, 0)->bursts[21].run, 5000000000);
	xentrace_host_free(&h);
	/* Only long runs: too few that cannot have wrapped. */
	switches(&fewshort, 5, 3, wrapped);
	msg = parse(&fewshort, fewshort.len, 0, &h);
	ck_assert_ptr_nonnull(msg);
	ck_assert_msg(strstr(msg, "cannot tell the TSC's frequency: 8 switch records") &&
		      strstr(msg, "5 of them under 2^22 TSC ticks"), "%s", msg);
}
END_TEST

START_TEST(lost_records_and_damage_are_warned)
{
	static struct tb b;
	struct xentrace_host h;
	const char *msg;

	tb_window(&b, 0);
	tb_rs(&b, 100, 1, 0, RUNNABLE, RUNNING);
	tb_rec(&b, TRC_TRACE_WRAP_BUFFER, 150, 7, 0, 0, 0, 0, 0, 0, 0);   /* padding: skipped */
	tb_rec(&b, TRC_LOST_RECORDS, 400, 4, 12, 1, 200, 0);
	tb_rs(&b, 450, 1, 0, RUNNABLE, RUNNING);     /* its block and wake were lost */
	tb_rs(&b, 300, 1, 0, RUNNING, BLOCKED);      /* a TSC that goes back */
	tb_close(&b);
	msg = parse(&b, b.len, 1e6, &h);
	ck_assert_msg(!msg, "%s", msg ? msg : "");
	ck_assert_int_eq(h.st.wraps, 1);
	ck_assert_int_eq(h.st.lost, 12);
	ck_assert_int_eq(h.st.inconsistent, 1);
	ck_assert_int_eq(h.st.tsc_back, 1);
	ck_assert_int_eq(h.nwarn, 3);
	ck_assert_msg(has_warning(&h, "t.xt: 12 records were lost to full trace buffers (1 lost-records records, pCPUs 0, the first lost at 0.000000100 s)"), "%s", h.warn[0]);
	ck_assert(has_warning(&h, "t.xt: 1 runstate changes did not follow"));
	ck_assert(has_warning(&h, "t.xt: 1 records had a TSC below the one before them"));
	/* The change taken as given: it ran from 100 to 450 as far as we know. */
	ck_assert_int_eq(vcpu(&h, 1, 0)->ran, 350);
	xentrace_host_free(&h);
}
END_TEST

/* Every cut of a trace is read with a warning, or refused with a message naming the file. */
START_TEST(every_cut_is_read_or_refused)
{
	static struct tb b;
	struct xentrace_host h;

	one_vcpu(&b);
	tb_window(&b, 1);
	tb_rs(&b, 9500, 2, 0, RUNNABLE, RUNNING);
	tb_close(&b);
	for (size_t len = 0; len < b.len; len++) {
		const char *msg = parse(&b, len, 1e6, &h);

		if (len == 128) {    /* the first window whole, the second not begun: a whole trace */
			ck_assert_msg(!msg && h.nwarn == 0, "%s", msg ? msg : h.warn[0]);
			xentrace_host_free(&h);
			continue;
		}
		if (msg) {
			ck_assert_msg(!strncmp(msg, "t.xt", 4) && !strchr(msg, '\n'), "%zu: %s", len, msg);
			continue;
		}
		ck_assert_msg(h.nwarn >= 1 && strstr(h.warn[0], "the trace ends inside a window"),
			      "cut at %zu: %d warnings", len, h.nwarn);
		xentrace_host_free(&h);
	}
	ck_assert_ptr_null(parse(&b, b.len, 1e6, &h));
	ck_assert_int_eq(h.nwarn, 0);
	xentrace_host_free(&h);
	/* Cut inside pCPU 1's window: "FILE:OFFSET", the window's bytes. */
	ck_assert_ptr_null(parse(&b, b.len - 2, 1e6, &h));
	ck_assert_msg(strstr(h.warn[0], "t.xt:128: the trace ends inside a window of pCPU 1 (14 of its 16 bytes)"),
		      "%s", h.warn[0]);
	xentrace_host_free(&h);
}
END_TEST

START_TEST(corrupt_traces_name_the_offset)
{
	static struct tb b;
	struct xentrace_host h;
	const char *msg;

	one_vcpu(&b);
	ck_assert_str_eq(parse(&b, 0, 1e6, &h), "t.xt: empty (no xentrace records)");
	ck_assert_str_eq(parse(&b, 5, 1e6, &h), "t.xt: not a xentrace file (5 bytes, shorter than a record)");
	b.buf[0] ^= 1;
	ck_assert_str_eq(parse(&b, b.len, 1e6, &h),
			 "t.xt:0: not a xentrace file: it starts with 0x2001f002, not a CPU-change record (0x2001f003)");
	b.buf[0] ^= 1;
	/* A window size one word short: its last record runs past it. */
	set32(&b, 8, (uint32_t)(b.len - 12 - 4));
	msg = parse(&b, b.len, 1e6, &h);
	ck_assert_str_eq(msg, "t.xt:112: a record of 16 bytes (event 0x0021001) runs past the end of its window of pCPU 0 (a corrupt header?)");
	memset(&b, 0, sizeof(b));
	tb_window(&b, 0);
	tb_rs(&b, 10, 1, 0, RUNNABLE, RUNNING);
	set32(&b, 8, 14);
	ck_assert_str_eq(parse(&b, b.len, 1e6, &h),
			 "t.xt:0: a window of 14 bytes, not a whole number of 32-bit words");
	set32(&b, 8, 16);
	b.buf[15] = 0x20;    /* a record header whose event is not a CPU change, after the window */
	tb_rs(&b, 20, 1, 0, RUNNING, BLOCKED);
	msg = parse(&b, b.len, 1e6, &h);
	ck_assert_msg(msg && !strncmp(msg, "t.xt:28: expected the CPU-change record (0x2001f003) that opens a window, found 0x80021021", 80), "%s", msg);
	memset(&b, 0, sizeof(b));
	tb_window(&b, 5000);
	tb_close(&b);
	ck_assert_str_eq(parse(&b, b.len, 1e6, &h),
			 "t.xt:0: a window of pCPU 5000: more than the 4096 pCPUs this reader takes");
	memset(&b, 0, sizeof(b));
	tb_window(&b, 0);
	tb_rs(&b, 10, 1, 4096, RUNNABLE, RUNNING);
	tb_close(&b);
	ck_assert_str_eq(parse(&b, b.len, 1e6, &h),
			 "t.xt:12: vCPU 4096 of domain 1: more than the 4096 vCPUs a domain may have");
	/* A TSC years ahead: a corrupt record, not a trace to replay for years. */
	memset(&b, 0, sizeof(b));
	tb_window(&b, 0);
	tb_rs(&b, 10, 1, 0, RUNNABLE, RUNNING);
	tb_rs(&b, 10 + 3ULL * 365 * 86400 * 1000000000, 1, 0, RUNNING, BLOCKED);
	tb_close(&b);
	ck_assert_str_eq(parse(&b, b.len, 1e6, &h),
			 "t.xt:28: a record 1095 days after the trace's first (at 1000000 kHz): a corrupt TSC? (traces of up to 30 days are read)");
	memset(&b, 0, sizeof(b));
	tb_window(&b, 0);
	tb_rec(&b, TRC_SCHED_WAKE, 10, 2, 1, 0);
	tb_close(&b);
	ck_assert_ptr_null(parse(&b, b.len, 1e6, &h));
	ck_assert(has_warning(&h, "no runstate changes of any domain's vCPU"));
	ck_assert_int_eq(h.ndoms, 1);
	ck_assert_int_eq(xentrace_domain(&h, 1)->vcpus[0].n, 0);
	xentrace_host_free(&h);
}
END_TEST

/* ---- traces of runs ---- */

static char *tmp_path(const char *name)
{
	static char buf[4][256];
	static int k;
	char *p = buf[k++ % 4];

	snprintf(p, 256, "/tmp/check_xentrace.%ld.%s", (long)getpid(), name);
	return p;
}

/* Four pCPUs: an I/O-like dom0, a web server, two hogs and a small fast I/O domain. */
#define HOST "<host sockets=\"1\" cores-per-socket=\"2\" threads-per-core=\"2\"/>"
static const char *const orig_doms[] = {
	"<domain name=\"dom0\" vcpus=\"4\"><workload type=\"phases\"><phase run=\"exp:300us\" sleep=\"exp:3ms\"/></workload></domain>",
	"<domain name=\"web\" vcpus=\"2\"><workload type=\"phases\"><phase run=\"exp:1ms\" sleep=\"exp:2ms\"/></workload></domain>",
	"<domain name=\"batch\" vcpus=\"2\"><workload type=\"cpu-hog\"/></domain>",
	"<domain name=\"io\" vcpus=\"1\"><workload type=\"phases\"><phase run=\"50us\" sleep=\"exp:500us\"/></workload></domain>",
};
static const int orig_vcpus[] = { 4, 2, 2, 1 };

static void original_xml(char *xml, size_t len, const char *duration)
{
	int n = snprintf(xml, len, "<scenario duration=\"%s\" seed=\"3\">" HOST, duration);

	for (int d = 0; d < 4; d++)
		n += snprintf(xml + n, len - (size_t)n, "%s", orig_doms[d]);
	snprintf(xml + n, len - (size_t)n, "</scenario>");
}

/* Runs xml under sched, traced into path when it is not NULL, with histograms. */
static void traced_run(const char *xml, const char *sched, const char *path,
		       struct run_result *r)
{
	struct err e = { "" };
	struct run_options o = { .check = false, .keep_histograms = true };

	if (path) {
		o.tracer = trace_xentrace_open(path, 0, -1, &e);
		ck_assert_msg(o.tracer != NULL, "%s", e.msg);
	}
	test_run(xml, sched, &o, r);
	if (path)
		ck_assert_int_eq(trace_close(o.tracer, &e), 0);
}

START_TEST(a_run_s_trace_holds_its_totals)
{
	const char *path = tmp_path("totals.xt");
	char xml[4096];
	struct run_result r;
	struct xentrace_host h;
	struct err e = { "" };

	original_xml(xml, sizeof(xml), "1s");
	traced_run(xml, "credit2", path, &r);
	ck_assert_msg(xentrace_load(path, 0, &h, &e) == 0, "%s", e.msg);
	ck_assert(h.khz_measured);
	ck_assert_msg(fabs(h.cpu_khz - 1e6) < 1, "%f", h.cpu_khz);   /* TSC = ns + 1 */
	ck_assert_int_eq(h.npcpus, 4);
	ck_assert_int_eq(h.ndoms, 4);
	ck_assert_int_eq(h.nwarn, 0);
	ck_assert(llabs(h.length - SEC(1)) < 100);
	for (int d = 0; d < 4; d++)
		for (int i = 0; i < orig_vcpus[d]; i++) {
			const struct replay_vcpu *v = vcpu(&h, d, i);
			const struct vcpu_result *o = &r.doms[d].vcpus[i];

			/* to the ns but for the writer's nudges */
			ck_assert_msg(llabs(v->ran - o->run_ns) < 200, "d%d v%d ran %lld, run %lld", d,
				      i, (long long)v->ran, (long long)o->run_ns);
			ck_assert(v->n >= 1);
		}
	xentrace_host_free(&h);
	run_result_free(&r);
	unlink(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("xentrace");
	TCase *tc = tcase_create("reader");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, bursts_waits_and_sleeps);
	tcase_add_test(tc, a_burst_s_waker_is_the_wake_record_s_pcpu);
	tcase_add_test(tc, pcpus_merge_by_tsc);
	tcase_add_test(tc, tsc_frequency_from_switches);
	tcase_add_test(tc, lost_records_and_damage_are_warned);
	tcase_add_test(tc, every_cut_is_read_or_refused);
	tcase_add_test(tc, corrupt_traces_name_the_offset);
	tcase_add_test(tc, a_run_s_trace_holds_its_totals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
