/*
 * Trace points: what the engine and the scheduler modules say happens, in
 * Xen's own trace vocabulary.  The event ids are those of
 * xen/include/public/trace.h and of the TRC_CSCHED*_ defines at the top of
 * Xen's credit.c and credit2.c, with the payload layouts Xen writes (and
 * xenalyze decodes).  A record is up to 7 32-bit words; 16-bit pairs are
 * packed low half first, as Xen's "unsigned unit:16, dom:16" bit-fields
 * are on x86.
 *
 * Each helper below returns at once when tracing is off (s->tracer NULL),
 * before it builds its payload, so trace points cost one load and one
 * branch in a run without --trace.
 *
 * The records go to the struct tracer of sim/engine/sim.h; the writers
 * that turn them into files (sim/output/trace.h) are the output layer's.
 */
#ifndef SCHEDSIM_TRACE_EVENTS_H
#define SCHEDSIM_TRACE_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/engine/sim.h"

/*
 * --- A record's first word (Xen's public/trace.h, struct t_rec) ---
 * The event in bits 0-27, the count of 32-bit extra words after it in bits
 * 28-30, bit 31 set when a 64-bit TSC follows the word.  The writer
 * (sim/output/trace_xentrace.c) and the reader (sim/input/xentrace_read.c)
 * both use these.
 */
#define TRC_HDR_EVENT(h)   ((uint32_t)(h) & 0x0fffffffu)
#define TRC_HDR_EXTRA(h)   (((uint32_t)(h) >> 28) & 7u)
#define TRC_HDR_HAS_TSC(h) ((uint32_t)(h) >> 31)
#define TRC_HDR(event, extra, has_tsc) \
	(TRC_HDR_EVENT(event) | (uint32_t)(extra) << 28 | (uint32_t)(has_tsc) << 31)

/* --- Event ids (Xen's public/trace.h) --- */

#define TRC_GEN                 0x0001f000u
#define TRC_LOST_RECORDS        (TRC_GEN + 1)   /* records a full buffer dropped */
#define TRC_TRACE_WRAP_BUFFER   (TRC_GEN + 2)   /* padding up to a buffer's end */
#define TRC_TRACE_CPU_CHANGE    (TRC_GEN + 3)
#define TRC_SCHED_MIN           0x00021000u   /* runstate changes */
#define TRC_SCHED_CLASS         0x00022000u   /* scheduler-specific */
#define TRC_SCHED_VERBOSE       0x00028000u

#define TRC_SCHED_RUNSTATE_CHANGE  (TRC_SCHED_MIN + 1)   /* | old<<8 | new<<4 */
#define TRC_SCHED_CONTINUE_RUNNING (TRC_SCHED_MIN + 2)
#define TRC_SCHED_DOM_ADD        (TRC_SCHED_VERBOSE + 1)
#define TRC_SCHED_DOM_REM        (TRC_SCHED_VERBOSE + 2)
#define TRC_SCHED_SLEEP          (TRC_SCHED_VERBOSE + 3)
#define TRC_SCHED_WAKE           (TRC_SCHED_VERBOSE + 4)
#define TRC_SCHED_YIELD          (TRC_SCHED_VERBOSE + 5)
#define TRC_SCHED_BLOCK          (TRC_SCHED_VERBOSE + 6)
#define TRC_SCHED_ADJDOM         (TRC_SCHED_VERBOSE + 9)
#define TRC_SCHED_SWITCH         (TRC_SCHED_VERBOSE + 10)
#define TRC_SCHED_SWITCH_INFPREV (TRC_SCHED_VERBOSE + 14)
#define TRC_SCHED_SWITCH_INFNEXT (TRC_SCHED_VERBOSE + 15)
#define TRC_SCHED_SWITCH_INFCONT (TRC_SCHED_VERBOSE + 17)

/* Scheduler class events: 3 bits of scheduler id above a 9-bit event. */
#define TRC_SCHED_ID_CSCHED   0u
#define TRC_SCHED_ID_CSCHED2  1u
#define TRC_SCHED_ID_SNULL    5u
#define TRC_SCHED_CLASS_EVT(id, e) (TRC_SCHED_CLASS | (id) << 9 | ((e) & 0x1ffu))
/* The scheduler class of an event (TRC_SCHED_ID_*), or -1 for other events. */
#define TRC_SCHED_CLASS_ID(ev) \
	(((ev) & 0x0ffff000u) == TRC_SCHED_CLASS ? (int)(((ev) >> 9) & 7u) : -1)

/* Credit1 (Xen's credit.c) */
#define TRC_CSCHED_SCHED_TASKLET TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED, 1)
#define TRC_CSCHED_ACCOUNT_START TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED, 2)
#define TRC_CSCHED_ACCOUNT_STOP  TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED, 3)
#define TRC_CSCHED_STOLEN_UNIT   TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED, 4)
#define TRC_CSCHED_PICKED_CPU    TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED, 5)
#define TRC_CSCHED_TICKLE        TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED, 6)
#define TRC_CSCHED_BOOST_START   TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED, 7)
#define TRC_CSCHED_BOOST_END     TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED, 8)
#define TRC_CSCHED_SCHEDULE      TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED, 9)
#define TRC_CSCHED_RATELIMIT     TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED, 10)
#define TRC_CSCHED_STEAL_CHECK   TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED, 11)

/* Credit2 (Xen's credit2.c) */
#define TRC_CSCHED2_TICK             TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 1)
#define TRC_CSCHED2_RUNQ_POS         TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 2)
#define TRC_CSCHED2_CREDIT_BURN      TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 3)
#define TRC_CSCHED2_CREDIT_ADD       TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 4)
#define TRC_CSCHED2_TICKLE_CHECK     TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 5)
#define TRC_CSCHED2_TICKLE           TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 6)
#define TRC_CSCHED2_CREDIT_RESET     TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 7)
#define TRC_CSCHED2_SCHED_TASKLET    TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 8)
#define TRC_CSCHED2_UPDATE_LOAD      TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 9)
#define TRC_CSCHED2_RUNQ_ASSIGN      TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 10)
#define TRC_CSCHED2_UPDATE_UNIT_LOAD TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 11)
#define TRC_CSCHED2_UPDATE_RUNQ_LOAD TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 12)
#define TRC_CSCHED2_TICKLE_NEW       TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 13)
#define TRC_CSCHED2_RUNQ_MAX_WEIGHT  TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 14)
#define TRC_CSCHED2_MIGRATE          TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 15)
#define TRC_CSCHED2_LOAD_CHECK       TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 16)
#define TRC_CSCHED2_LOAD_BALANCE     TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 17)
#define TRC_CSCHED2_PICKED_CPU       TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 19)
#define TRC_CSCHED2_RUNQ_CANDIDATE   TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 20)
#define TRC_CSCHED2_SCHEDULE         TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 21)
#define TRC_CSCHED2_RATELIMIT        TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 22)
#define TRC_CSCHED2_RUNQ_CAND_CHECK  TRC_SCHED_CLASS_EVT(TRC_SCHED_ID_CSCHED2, 23)

/* --- Payload helpers --- */

/* "unsigned unit:16, dom:16": the vCPU in one word. */
static inline uint32_t trc_unit(const struct vcpu *v)
{
	return ((uint32_t)v->vcpu_id & 0xffffu) | ((uint32_t)v->dom->domid & 0xffffu) << 16;
}

static inline uint32_t trc_pack16(unsigned lo, unsigned hi)
{
	return (lo & 0xffffu) | (hi & 0xffffu) << 16;
}

/* The pCPU whose buffer gets a record: the one running the code, else v's. */
static inline int trc_cpu(const struct sim *s, const struct vcpu *v)
{
	return s->this_cpu >= 0 ? s->this_cpu : v->processor;
}

static inline void trc_words(struct sim *s, int cpu, uint32_t ev, int n, const uint32_t *d)
{
	s->tracer->record(s->tracer, cpu, s->q.now, ev, n, d);
}

/* Xen's TRACE_2D(ev, domid, vcpu_id): wake, sleep, block, yield. */
static inline void trace_vcpu_event(struct sim *s, uint32_t ev, const struct vcpu *v)
{
	uint32_t d[2];

	if (!s->tracer)
		return;
	d[0] = (uint32_t)v->dom->domid;
	d[1] = (uint32_t)v->vcpu_id;
	trc_words(s, trc_cpu(s, v), ev, 2, d);
}

/* One word "unit | dom << 16" (continue_running, Credit2 cand_check). */
static inline void trace_unit(struct sim *s, int cpu, uint32_t ev, const struct vcpu *v)
{
	uint32_t d;

	if (!s->tracer)
		return;
	d = trc_unit(v);
	trc_words(s, cpu, ev, 1, &d);
}

/* Two words: the vCPU packed, then one value (Credit1/2 ratelimit, runq_pos, runq_assign). */
static inline void trace_unit_val(struct sim *s, int cpu, uint32_t ev, const struct vcpu *v,
				  uint32_t val)
{
	uint32_t d[2];

	if (!s->tracer)
		return;
	d[0] = trc_unit(v);
	d[1] = val;
	trc_words(s, cpu, ev, 2, d);
}

/* Three words: the vCPU packed, then two values (tickle_check, credit_reset, candidate). */
static inline void trace_unit_2val(struct sim *s, int cpu, uint32_t ev, const struct vcpu *v,
				   uint32_t a, uint32_t b)
{
	uint32_t d[3];

	if (!s->tracer)
		return;
	d[0] = trc_unit(v);
	d[1] = a;
	d[2] = b;
	trc_words(s, cpu, ev, 3, d);
}

/* Up to 7 plain words, for records with no vCPU (load checks, schedule, tickle). */
static inline void trace_words(struct sim *s, int cpu, uint32_t ev, int n, const uint32_t *d)
{
	if (s->tracer)
		trc_words(s, cpu, ev, n, d);
}

/* --- Credit1 (TRACE_nD with plain words, as credit.c writes them) --- */

/* __runq_tickle: one record per pCPU it tickles. */
static inline void trace_csched_tickle(struct sim *s, int cpu, int tickled)
{
	uint32_t d = (uint32_t)tickled;

	trace_words(s, cpu, TRC_CSCHED_TICKLE, 1, &d);
}

/* csched_res_pick: PICKED_CPU {domid, vcpu, cpu}. */
static inline void trace_csched_picked_cpu(struct sim *s, const struct vcpu *v, int cpu)
{
	uint32_t d[3];

	if (!s->tracer)
		return;
	d[0] = (uint32_t)v->dom->domid;
	d[1] = (uint32_t)v->vcpu_id;
	d[2] = (uint32_t)cpu;
	trc_words(s, trc_cpu(s, v), TRC_CSCHED_PICKED_CPU, 3, d);
}

/* ACCOUNT_START / ACCOUNT_STOP {domid, vcpu, active vCPUs of the domain}. */
static inline void trace_csched_account(struct sim *s, bool start, const struct vcpu *v,
					unsigned active)
{
	uint32_t d[3];

	if (!s->tracer)
		return;
	d[0] = (uint32_t)v->dom->domid;
	d[1] = (uint32_t)v->vcpu_id;
	d[2] = active;
	trc_words(s, trc_cpu(s, v), start ? TRC_CSCHED_ACCOUNT_START : TRC_CSCHED_ACCOUNT_STOP,
		  3, d);
}

/* BOOST_START (csched_unit_wake) / BOOST_END (csched_unit_acct) {domid, vcpu}. */
static inline void trace_csched_boost(struct sim *s, bool start, const struct vcpu *v)
{
	trace_vcpu_event(s, start ? TRC_CSCHED_BOOST_START : TRC_CSCHED_BOOST_END, v);
}

/* csched_runq_steal: STOLEN_UNIT {peer_cpu, domid, vcpu}. */
static inline void trace_csched_stolen(struct sim *s, int cpu, int peer_cpu,
				       const struct vcpu *v)
{
	uint32_t d[3];

	if (!s->tracer)
		return;
	d[0] = (uint32_t)peer_cpu;
	d[1] = (uint32_t)v->dom->domid;
	d[2] = (uint32_t)v->vcpu_id;
	trc_words(s, cpu, TRC_CSCHED_STOLEN_UNIT, 3, d);
}

/* csched_load_balance: STEAL_CHECK {peer_cpu, checked (1) or skipped (0)}. */
static inline void trace_csched_steal_check(struct sim *s, int cpu, int peer_cpu, bool checked)
{
	uint32_t d[2] = { (uint32_t)peer_cpu, checked };

	trace_words(s, cpu, TRC_CSCHED_STEAL_CHECK, 2, d);
}

/* csched_schedule entry: SCHEDULE {cpu:16, tasklet:8, idle:8}. */
static inline void trace_csched_schedule(struct sim *s, int cpu, bool tasklet, bool idle)
{
	uint32_t d = ((uint32_t)cpu & 0xffffu) | (uint32_t)tasklet << 16 | (uint32_t)idle << 24;

	trace_words(s, cpu, TRC_CSCHED_SCHEDULE, 1, &d);
}

/* csched_schedule, ratelimit keeps curr: RATELIMIT {unit|dom, runtime ns}. */
static inline void trace_csched_ratelimit(struct sim *s, int cpu, const struct vcpu *v,
					  stime_t runtime)
{
	trace_unit_val(s, cpu, TRC_CSCHED_RATELIMIT, v, (uint32_t)runtime);
}

/* --- Credit2 (bit-field structs, as credit2.c writes them) --- */

/* runq_insert: RUNQ_POS {unit|dom, position}. */
static inline void trace_csched2_runq_pos(struct sim *s, int cpu, const struct vcpu *v,
					  unsigned pos)
{
	trace_unit_val(s, cpu, TRC_CSCHED2_RUNQ_POS, v, pos);
}

/* burn_credits: CREDIT_BURN {unit|dom, credit, budget (INT32_MIN: no cap), delta}. */
static inline void trace_csched2_burn(struct sim *s, int cpu, const struct vcpu *v,
				      int credit, int budget, int delta)
{
	uint32_t d[4];

	if (!s->tracer)
		return;
	d[0] = trc_unit(v);
	d[1] = (uint32_t)credit;
	d[2] = (uint32_t)budget;
	d[3] = (uint32_t)delta;
	trc_words(s, cpu, TRC_CSCHED2_CREDIT_BURN, 4, d);
}

/* tickle_score: TICKLE_CHECK {unit|dom of the running vCPU, its credit, score}. */
static inline void trace_csched2_tickle_check(struct sim *s, int cpu, const struct vcpu *cur,
					      int credit, int score)
{
	trace_unit_2val(s, cpu, TRC_CSCHED2_TICKLE_CHECK, cur, (uint32_t)credit, (uint32_t)score);
}

/* runq_tickle entry: TICKLE_NEW {unit|dom, its processor, credit}. */
static inline void trace_csched2_tickle_new(struct sim *s, int cpu, const struct vcpu *v,
					    int credit)
{
	trace_unit_2val(s, cpu, TRC_CSCHED2_TICKLE_NEW, v, (uint32_t)v->processor, (uint32_t)credit);
}

/* runq_tickle, the chosen pCPU: TICKLE {cpu:16, pad:16}. */
static inline void trace_csched2_tickle(struct sim *s, int cpu, int tickled)
{
	uint32_t d = (uint32_t)tickled & 0xffffu;

	trace_words(s, cpu, TRC_CSCHED2_TICKLE, 1, &d);
}

/* reset_credit: CREDIT_RESET {unit|dom, credit before, credit after}, per vCPU reset. */
static inline void trace_csched2_credit_reset(struct sim *s, int cpu, const struct vcpu *v,
					      int start, int end)
{
	trace_unit_2val(s, cpu, TRC_CSCHED2_CREDIT_RESET, v, (uint32_t)start, (uint32_t)end);
}

/* runq_assign: RUNQ_ASSIGN {unit|dom, rqi:16}. */
static inline void trace_csched2_runq_assign(struct sim *s, int cpu, const struct vcpu *v,
					     unsigned rqi)
{
	trace_unit_val(s, cpu, TRC_CSCHED2_RUNQ_ASSIGN, v, rqi & 0xffffu);
}

/* update_max_weight: RUNQ_MAX_WEIGHT {rqi:16, max_weight:16}. */
static inline void trace_csched2_max_weight(struct sim *s, int cpu, unsigned rqi,
					    unsigned max_weight)
{
	uint32_t d = trc_pack16(rqi, max_weight);

	trace_words(s, cpu, TRC_CSCHED2_RUNQ_MAX_WEIGHT, 1, &d);
}

/* update_runq_load: UPDATE_RUNQ_LOAD {u64 avgload, u64 b_avgload, load:16|rqi:8|shift:8}. */
static inline void trace_csched2_runq_load(struct sim *s, int cpu, unsigned rqi, unsigned load,
					   uint64_t avgload, uint64_t b_avgload, unsigned shift)
{
	uint32_t d[5];

	if (!s->tracer)
		return;
	d[0] = (uint32_t)avgload;
	d[1] = (uint32_t)(avgload >> 32);
	d[2] = (uint32_t)b_avgload;
	d[3] = (uint32_t)(b_avgload >> 32);
	d[4] = (load & 0xffffu) | (rqi & 0xffu) << 16 | (shift & 0xffu) << 24;
	trc_words(s, cpu, TRC_CSCHED2_UPDATE_RUNQ_LOAD, 5, d);
}

/* update_svc_load: UPDATE_UNIT_LOAD {u64 avgload, unit|dom, shift}. */
static inline void trace_csched2_unit_load(struct sim *s, int cpu, const struct vcpu *v,
					   uint64_t avgload, unsigned shift)
{
	uint32_t d[4];

	if (!s->tracer)
		return;
	d[0] = (uint32_t)avgload;
	d[1] = (uint32_t)(avgload >> 32);
	d[2] = trc_unit(v);
	d[3] = shift;
	trc_words(s, cpu, TRC_CSCHED2_UPDATE_UNIT_LOAD, 4, d);
}

/* csched2_res_pick: PICKED_CPU {u64 b_avgload, unit|dom, rqi:16|cpu:16}. */
static inline void trace_csched2_picked_cpu(struct sim *s, int cpu, const struct vcpu *v,
					    uint64_t b_avgload, unsigned rqi, int new_cpu)
{
	uint32_t d[4];

	if (!s->tracer)
		return;
	d[0] = (uint32_t)b_avgload;
	d[1] = (uint32_t)(b_avgload >> 32);
	d[2] = trc_unit(v);
	d[3] = trc_pack16(rqi, (unsigned)new_cpu);
	trc_words(s, cpu, TRC_CSCHED2_PICKED_CPU, 4, d);
}

/* migrate: MIGRATE {unit|dom, from rqi:16 | to rqi:16}. */
static inline void trace_csched2_migrate(struct sim *s, int cpu, const struct vcpu *v,
					 unsigned rqi, unsigned trqi)
{
	trace_unit_val(s, cpu, TRC_CSCHED2_MIGRATE, v, trc_pack16(rqi, trqi));
}

/* balance_load: LOAD_CHECK {lrqi:16|orqi:16, load delta}. */
static inline void trace_csched2_load_check(struct sim *s, int cpu, unsigned lrqi, unsigned orqi,
					    uint32_t delta)
{
	uint32_t d[2] = { trc_pack16(lrqi, orqi), delta };

	trace_words(s, cpu, TRC_CSCHED2_LOAD_CHECK, 2, d);
}

/* balance_load, a pull or push: LOAD_BALANCE {u64 local b_avgload, u64 other's, lrqi:16|orqi:16}. */
static inline void trace_csched2_load_balance(struct sim *s, int cpu, uint64_t lb_avgload,
					      uint64_t ob_avgload, unsigned lrqi, unsigned orqi)
{
	uint32_t d[5];

	if (!s->tracer)
		return;
	d[0] = (uint32_t)lb_avgload;
	d[1] = (uint32_t)(lb_avgload >> 32);
	d[2] = (uint32_t)ob_avgload;
	d[3] = (uint32_t)(ob_avgload >> 32);
	d[4] = trc_pack16(lrqi, orqi);
	trc_words(s, cpu, TRC_CSCHED2_LOAD_BALANCE, 5, d);
}

/* runq_candidate, ratelimit keeps curr: RATELIMIT {unit|dom, runtime ns}. */
static inline void trace_csched2_ratelimit(struct sim *s, int cpu, const struct vcpu *v,
					   stime_t runtime)
{
	trace_unit_val(s, cpu, TRC_CSCHED2_RATELIMIT, v, (uint32_t)runtime);
}

/* runq_candidate, each queued vCPU looked at: RUNQ_CAND_CHECK {unit|dom}. */
static inline void trace_csched2_cand_check(struct sim *s, int cpu, const struct vcpu *v)
{
	trace_unit(s, cpu, TRC_CSCHED2_RUNQ_CAND_CHECK, v);
}

/* runq_candidate's choice: RUNQ_CANDIDATE {unit|dom, tickled_cpu (-1: none), credit}. */
static inline void trace_csched2_candidate(struct sim *s, int cpu, const struct vcpu *v,
					   int tickled_cpu, int credit)
{
	trace_unit_2val(s, cpu, TRC_CSCHED2_RUNQ_CANDIDATE, v, (uint32_t)tickled_cpu,
			(uint32_t)credit);
}

/* csched2_schedule entry: SCHEDULE {cpu:16|rqi:16, tasklet:8|idle:8|smt_idle:8|tickled:8}. */
static inline void trace_csched2_schedule(struct sim *s, int cpu, unsigned rqi, bool tasklet,
					  bool idle, bool smt_idle, bool tickled)
{
	uint32_t d[2];

	if (!s->tracer)
		return;
	d[0] = trc_pack16((unsigned)cpu, rqi);
	d[1] = (uint32_t)tasklet | (uint32_t)idle << 8 | (uint32_t)smt_idle << 16 |
	       (uint32_t)tickled << 24;
	trc_words(s, cpu, TRC_CSCHED2_SCHEDULE, 2, d);
}

#endif
