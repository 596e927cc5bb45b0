/*
 * The experiment matrix (see experiment.h): a run's place and scenario,
 * the runs handed to the worker processes (workers.h) by index, their
 * results in matrix order, the byte form results travel in, and the
 * comparison table of the matrix.
 */
#include "sim/experiment/experiment.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/digest.h"
#include "sim/engine/rng.h"
#include "sim/experiment/workers.h"
#include "sim/xalloc.h"

uint64_t experiment_seed(uint64_t base, int iteration)
{
	return seed_derive(base, (uint64_t)iteration);
}

static int axis_len(int n)
{
	return n > 0 ? n : 1;
}

int experiment_nbench(const struct experiment *x)
{
	return axis_len(x->nhosts) * axis_len(x->nworkloads);
}

int experiment_total(const struct experiment *x)
{
	return x->nscheds * experiment_nbench(x) * axis_len(x->ndom0) * x->iterations;
}

int experiment_index(const struct experiment *x, int s, int b, int d, int i)
{
	int nb = experiment_nbench(x), nd = axis_len(x->ndom0);

	return ((s * nb + b) * nd + d) * x->iterations + i;
}

struct experiment_coords experiment_coords(const struct experiment *x, int idx)
{
	int nb = experiment_nbench(x), nd = axis_len(x->ndom0);
	struct experiment_coords c;

	c.i = idx % x->iterations;
	idx /= x->iterations;
	c.d = idx % nd;
	idx /= nd;
	c.b = idx % nb;
	c.s = idx / nb;
	return c;
}

const char *experiment_host(const struct experiment *x, int b)
{
	return x->nhosts ? x->hosts[b / axis_len(x->nworkloads)] : NULL;
}

const char *experiment_workload(const struct experiment *x, int b)
{
	return x->nworkloads ? x->workloads[b % x->nworkloads] : NULL;
}

static const char *axis_dom0(const struct experiment *x, int d)
{
	return x->ndom0 ? x->dom0_loads[d] : NULL;
}

int experiment_scenario(const struct experiment *x, int b, int d, struct scenario *sc,
			struct err *e)
{
	scenario_copy(sc, x->base);
	if (x->apply_axes && (x->nhosts || x->nworkloads || x->ndom0) &&
	    x->apply_axes(sc, experiment_host(x, b), experiment_workload(x, b),
			  axis_dom0(x, d), e)) {
		scenario_free(sc);
		return -1;
	}
	return 0;
}

static void describe_run(const struct experiment *x, int idx, char *buf, size_t len)
{
	struct experiment_coords c = experiment_coords(x, idx);
	const char *h = experiment_host(x, c.b), *w = experiment_workload(x, c.b);
	const char *d = axis_dom0(x, c.d);

	snprintf(buf, len, "%s%s%s%s%s%s%s iteration %d (seed %llu)", x->scheds[c.s].text,
		 h ? " --host=" : "", h ? h : "", w ? " " : "", w ? w : "",
		 d ? " dom0-load=" : "", d ? d : "", c.i,
		 (unsigned long long)experiment_seed(x->seed, c.i));
}

/* One run in the worker: the matrix cell's scenario with iteration i's seed. */
static int do_run(const struct experiment *x, int idx, struct run_result *r, struct err *e)
{
	struct experiment_coords c = experiment_coords(x, idx);
	const char *h = experiment_host(x, c.b), *w = experiment_workload(x, c.b);
	struct scenario sc;
	int rc;

	if (experiment_scenario(x, c.b, c.d, &sc, e))
		return -1;
	sc.seed = experiment_seed(x->seed, c.i);
	memset(r, 0, sizeof(*r));
	rc = run_scenario(&sc, &x->scheds[c.s], &x->ropt, r, e);
	scenario_free(&sc);
	if (rc)
		return -1;
	snprintf(r->host, sizeof(r->host), "%s", h ? h : "");
	snprintf(r->workload, sizeof(r->workload), "%s", w ? w : "");
	snprintf(r->dom0_load, sizeof(r->dom0_load), "%s", x->ndom0 ? x->dom0_loads[c.d] : "");
	r->iteration = c.i;
	r->seed = sc.seed;
	return 0;
}

/* ------------------------------------------------------- serialization */

/*
 * The byte form of a run result, encoding version RUN_RESULT_ENCODING.
 *
 * Why an explicit encoding and not the structures' bytes: the same bytes
 * travel from a worker to its parent and, in base64, in the parts that
 * `schedsim merge` reads on another machine (sim/output/shard_part.c).  Raw
 * structures would carry heap addresses and padding out of the process and tie
 * a part to one build's struct layout.  Here every field is written on its
 * own, fixed width, little-endian, whatever the host; doubles as their IEEE
 * 754 bits, so every figure travels exactly and merge prints what the single
 * process prints, to the byte.
 *
 *   header   "SSRR", u32 version
 *   run      str scheduler, str label, str host, str workload, str dom0_load,
 *            i32 iteration, u64 seed, i64 sim_ns, u64 events, metric,
 *            breakdown, str check_error, u32 ndoms, ndoms x domain
 *   metric   u8 valid, str name, str unit, f64 value, u8 higher_better
 *   breakdown  u8 valid, i64 from_ns, i64 to_ns, u32 nstages, nstages x
 *            (str name, str domain, i32 tasks, u32 nparts,
 *             nparts x (str name, i64 ns))
 *   domain   str name, i32 domid, i32 weight, i32 cap, metric,
 *            i64 memory_mb, u32 nnodes, nnodes x i32 (its NUMA nodes),
 *            u32 nvcpus, nvcpus x vcpu
 *   vcpu     i32 id, i64 run_ns, i64 runnable_ns, i64 blocked_ns,
 *            i64 offline_ns, u64 wakeups, i64 wake_p50, i64 wake_p95,
 *            i64 wake_p99, i64 wake_max, u64 migrations,
 *            u64 context_switches, i64 soft_affinity_run_ns,
 *            u64 deadlines, u64 deadline_misses, i64 deadline_worst_miss_ns,
 *            i64 work_ns, 4 x i64 lost_ns (smt, cache, numa, cstate),
 *            u32 npcpus, npcpus x i32, hist
 *   hist     u64 count, i64 max, i64 sum, u32 n, n x (u32 bucket, u64 count)
 *            (the non-zero buckets only, in ascending order)
 *   str      u32 length, the bytes (no NUL; shorter than the field)
 *   trailer  u64 FNV-1a 64 of every byte before it
 *
 * The decoder takes nothing on trust: a length or count is checked against
 * the bytes left before anything is allocated, every read is bounded, and
 * a value the encoder cannot produce (a bool that is not 0 or 1, a bucket
 * out of order) is refused, so an accepted input is exactly the encoding
 * of what it decodes to.  The checksum catches damage that would still
 * parse (a flipped bit in a figure).
 */

_Static_assert(sizeof(double) == sizeof(uint64_t), "doubles travel as 64-bit words");
_Static_assert(INT_MAX == INT32_MAX, "int fields travel as 32 bits");

static const char rr_magic[4] = { 'S', 'S', 'R', 'R' };

struct enc {
	unsigned char *p;
	size_t len, cap;
};

static void put_bytes(struct enc *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = 2 * (b->len + n) + 256;
		b->p = xreallocarray(b->p, b->cap, 1);
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put_u64(struct enc *b, uint64_t v)
{
	unsigned char c[8];

	for (int k = 0; k < 8; k++)
		c[k] = (unsigned char)(v >> 8 * k);
	put_bytes(b, c, sizeof(c));
}

static void put_u32(struct enc *b, uint32_t v)
{
	unsigned char c[4];

	for (int k = 0; k < 4; k++)
		c[k] = (unsigned char)(v >> 8 * k);
	put_bytes(b, c, sizeof(c));
}

static void put_u8(struct enc *b, unsigned v)
{
	unsigned char c = (unsigned char)v;

	put_bytes(b, &c, 1);
}

static void put_i32(struct enc *b, int v)
{
	put_u32(b, (uint32_t)v);
}

static void put_i64(struct enc *b, int64_t v)
{
	put_u64(b, (uint64_t)v);
}

static void put_f64(struct enc *b, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	put_u64(b, u);
}

/* A fixed-size field's text, up to its NUL (cap - 1 bytes at most). */
static void put_str(struct enc *b, const char *s, size_t cap)
{
	size_t n = strnlen(s, cap - 1);

	put_u32(b, (uint32_t)n);
	put_bytes(b, s, n);
}

static void put_metric(struct enc *b, const struct metric *m)
{
	put_u8(b, m->valid);
	put_str(b, m->name, sizeof(m->name));
	put_str(b, m->unit, sizeof(m->unit));
	put_f64(b, m->value);
	put_u8(b, m->higher_better);
}

static void put_breakdown(struct enc *b, const struct breakdown *bd)
{
	put_u8(b, bd->valid);
	put_i64(b, bd->from_ns);
	put_i64(b, bd->to_ns);
	put_u32(b, (uint32_t)bd->nstages);
	for (int i = 0; i < bd->nstages; i++) {
		const struct breakdown_stage *st = &bd->stages[i];

		put_str(b, st->name, sizeof(st->name));
		put_str(b, st->domain, sizeof(st->domain));
		put_i32(b, st->tasks);
		put_u32(b, (uint32_t)st->nparts);
		for (int k = 0; k < st->nparts; k++) {
			put_str(b, st->parts[k].name, sizeof(st->parts[k].name));
			put_i64(b, st->parts[k].ns);
		}
	}
}

static void put_hist(struct enc *b, const struct hist *h)
{
	uint32_t nz = 0;

	put_u64(b, h->count);
	put_i64(b, h->max);
	put_i64(b, h->sum);
	for (int i = 0; h->buckets && i < HIST_BUCKETS; i++)
		nz += h->buckets[i] != 0;
	put_u32(b, nz);
	for (int i = 0; h->buckets && i < HIST_BUCKETS; i++)
		if (h->buckets[i]) {
			put_u32(b, (uint32_t)i);
			put_u64(b, h->buckets[i]);
		}
}

static void put_vcpu(struct enc *b, const struct vcpu_result *vr)
{
	put_i32(b, vr->id);
	put_i64(b, vr->run_ns);
	put_i64(b, vr->runnable_ns);
	put_i64(b, vr->blocked_ns);
	put_i64(b, vr->offline_ns);
	put_u64(b, vr->wakeups);
	put_i64(b, vr->wake_p50);
	put_i64(b, vr->wake_p95);
	put_i64(b, vr->wake_p99);
	put_i64(b, vr->wake_max);
	put_u64(b, vr->migrations);
	put_u64(b, vr->context_switches);
	put_i64(b, vr->soft_affinity_run_ns);
	put_u64(b, vr->deadlines);
	put_u64(b, vr->deadline_misses);
	put_i64(b, vr->deadline_worst_miss_ns);
	put_i64(b, vr->work_ns);
	for (int k = 0; k < HW_NR_LOST; k++)
		put_i64(b, vr->lost_ns[k]);
	put_u32(b, (uint32_t)vr->npcpus);
	for (int k = 0; k < vr->npcpus; k++)
		put_i32(b, vr->pcpus[k]);
	put_hist(b, &vr->wake_latency);
}

static void put_domain(struct enc *b, const struct domain_result *dr)
{
	put_str(b, dr->name, sizeof(dr->name));
	put_i32(b, dr->domid);
	put_i32(b, dr->weight);
	put_i32(b, dr->cap);
	put_metric(b, &dr->metric);
	put_i64(b, dr->memory_mb);
	put_u32(b, (uint32_t)dr->nnuma_nodes);
	for (int k = 0; k < dr->nnuma_nodes; k++)
		put_i32(b, dr->numa_nodes[k]);
	put_u32(b, (uint32_t)dr->nvcpus);
	for (int v = 0; v < dr->nvcpus; v++)
		put_vcpu(b, &dr->vcpus[v]);
}

void run_result_pack(const struct run_result *r, char **buf, size_t *len)
{
	struct enc b = { NULL, 0, 0 };

	put_bytes(&b, rr_magic, sizeof(rr_magic));
	put_u32(&b, RUN_RESULT_ENCODING);
	put_str(&b, r->scheduler, sizeof(r->scheduler));
	put_str(&b, r->label, sizeof(r->label));
	put_str(&b, r->host, sizeof(r->host));
	put_str(&b, r->workload, sizeof(r->workload));
	put_str(&b, r->dom0_load, sizeof(r->dom0_load));
	put_i32(&b, r->iteration);
	put_u64(&b, r->seed);
	put_i64(&b, r->sim_ns);
	put_u64(&b, r->events);
	put_metric(&b, &r->metric);
	put_breakdown(&b, &r->breakdown);
	put_str(&b, r->check_error, sizeof(r->check_error));
	put_u32(&b, (uint32_t)r->ndoms);
	for (int d = 0; d < r->ndoms; d++)
		put_domain(&b, &r->doms[d]);
	put_u64(&b, digest_bytes(DIGEST_SEED, b.p, b.len));
	*buf = (char *)b.p;
	*len = b.len;
}

/*
 * The reader: after the first failure every read returns 0 and the error
 * (the first one, with its byte offset) stays, so the field-by-field code
 * below checks it only where a value decides what comes next.
 */
struct dec {
	const unsigned char *p;
	size_t len, off;
	bool bad;
	struct err *e;
};

static int dec_fail(struct dec *d, const char *what)
{
	if (!d->bad)
		err_set(d->e, "%s at byte %zu", what, d->off);
	d->bad = true;
	return -1;
}

static const unsigned char *take(struct dec *d, size_t n)
{
	const unsigned char *p;

	if (d->bad)
		return NULL;
	if (d->len - d->off < n) {
		dec_fail(d, "truncated");
		return NULL;
	}
	p = d->p + d->off;
	d->off += n;
	return p;
}

static uint64_t get_u64(struct dec *d)
{
	const unsigned char *c = take(d, 8);
	uint64_t v = 0;

	for (int k = 7; c && k >= 0; k--)
		v = v << 8 | c[k];
	return v;
}

static uint32_t get_u32(struct dec *d)
{
	const unsigned char *c = take(d, 4);
	uint32_t v = 0;

	for (int k = 3; c && k >= 0; k--)
		v = v << 8 | c[k];
	return v;
}

/* Two's complement back to a signed value without relying on the cast. */
static int get_i32(struct dec *d)
{
	uint32_t u = get_u32(d);

	return u <= INT32_MAX ? (int)u : -(int)(~u) - 1;
}

static int64_t get_i64(struct dec *d)
{
	uint64_t u = get_u64(d);

	return u <= INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

static double get_f64(struct dec *d)
{
	uint64_t u = get_u64(d);
	double v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

static bool get_bool(struct dec *d)
{
	const unsigned char *c = take(d, 1);

	if (c && *c > 1)
		dec_fail(d, "a flag that is neither 0 nor 1");
	return c && *c;
}

static void get_str(struct dec *d, char *dst, size_t cap)
{
	uint32_t n = get_u32(d);
	const unsigned char *c;

	if (!d->bad && n >= cap) {
		dec_fail(d, "a text longer than its field");
		return;
	}
	c = take(d, n);
	if (!c)
		return;
	if (memchr(c, '\0', n)) {
		dec_fail(d, "a NUL inside a text");
		return;
	}
	memcpy(dst, c, n);
	dst[n] = '\0';
}

/*
 * A count of items of at least min bytes each: no more than the bytes left
 * can hold, so a damaged count never makes us allocate more than a few
 * times the input.
 */
static int get_count(struct dec *d, size_t min)
{
	uint32_t n = get_u32(d);

	if (d->bad)
		return -1;
	if (n > INT32_MAX || n > (d->len - d->off) / min)
		return dec_fail(d, "a count larger than the bytes left");
	return (int)n;
}

static void get_metric(struct dec *d, struct metric *m)
{
	m->valid = get_bool(d);
	get_str(d, m->name, sizeof(m->name));
	get_str(d, m->unit, sizeof(m->unit));
	m->value = get_f64(d);
	m->higher_better = get_bool(d);
}

static int get_breakdown(struct dec *d, struct breakdown *bd)
{
	uint32_t n;

	bd->valid = get_bool(d);
	bd->from_ns = get_i64(d);
	bd->to_ns = get_i64(d);
	n = get_u32(d);
	if (!d->bad && n > BREAKDOWN_STAGES)
		return dec_fail(d, "more breakdown stages than a result holds");
	bd->nstages = d->bad ? 0 : (int)n;
	for (int i = 0; i < bd->nstages; i++) {
		struct breakdown_stage *st = &bd->stages[i];

		get_str(d, st->name, sizeof(st->name));
		get_str(d, st->domain, sizeof(st->domain));
		st->tasks = get_i32(d);
		n = get_u32(d);
		if (!d->bad && n > BREAKDOWN_PARTS)
			return dec_fail(d, "more breakdown parts than a stage holds");
		st->nparts = d->bad ? 0 : (int)n;
		for (int k = 0; k < st->nparts; k++) {
			get_str(d, st->parts[k].name, sizeof(st->parts[k].name));
			st->parts[k].ns = get_i64(d);
		}
	}
	if (!d->bad && !bd->valid && bd->nstages)
		return dec_fail(d, "stages in a breakdown marked invalid");
	return d->bad ? -1 : 0;
}

static int get_hist(struct dec *d, struct hist *h)
{
	int nz, last = -1;

	h->count = get_u64(d);
	h->max = get_i64(d);
	h->sum = get_i64(d);
	nz = get_count(d, 12);
	if (nz < 0)
		return -1;
	if (nz > HIST_BUCKETS)
		return dec_fail(d, "more histogram buckets than there are");
	if (nz)
		h->buckets = xcalloc(HIST_BUCKETS, sizeof(*h->buckets));
	for (int j = 0; j < nz; j++) {
		uint32_t k = get_u32(d);
		uint64_t n = get_u64(d);

		if (d->bad)
			return -1;
		if (k >= HIST_BUCKETS || (int)k <= last)
			return dec_fail(d, "histogram buckets out of range or order");
		if (!n)
			return dec_fail(d, "an empty histogram bucket listed");
		h->buckets[k] = n;
		last = (int)k;
	}
	return 0;
}

static int get_vcpu(struct dec *d, struct vcpu_result *vr)
{
	vr->id = get_i32(d);
	vr->run_ns = get_i64(d);
	vr->runnable_ns = get_i64(d);
	vr->blocked_ns = get_i64(d);
	vr->offline_ns = get_i64(d);
	vr->wakeups = get_u64(d);
	vr->wake_p50 = get_i64(d);
	vr->wake_p95 = get_i64(d);
	vr->wake_p99 = get_i64(d);
	vr->wake_max = get_i64(d);
	vr->migrations = get_u64(d);
	vr->context_switches = get_u64(d);
	vr->soft_affinity_run_ns = get_i64(d);
	vr->deadlines = get_u64(d);
	vr->deadline_misses = get_u64(d);
	vr->deadline_worst_miss_ns = get_i64(d);
	vr->work_ns = get_i64(d);
	for (int k = 0; k < HW_NR_LOST; k++)
		vr->lost_ns[k] = get_i64(d);
	vr->npcpus = get_count(d, 4);
	if (vr->npcpus < 0) {
		vr->npcpus = 0;
		return -1;
	}
	vr->pcpus = xcalloc((size_t)vr->npcpus + 1, sizeof(*vr->pcpus));
	for (int k = 0; k < vr->npcpus; k++)
		vr->pcpus[k] = get_i32(d);
	return get_hist(d, &vr->wake_latency);
}

static int get_domain(struct dec *d, struct domain_result *dr)
{
	int n;

	get_str(d, dr->name, sizeof(dr->name));
	dr->domid = get_i32(d);
	dr->weight = get_i32(d);
	dr->cap = get_i32(d);
	get_metric(d, &dr->metric);
	dr->memory_mb = get_i64(d);
	n = get_count(d, 4);
	if (n < 0)
		return -1;
	dr->numa_nodes = xcalloc((size_t)n + 1, sizeof(*dr->numa_nodes));
	dr->nnuma_nodes = n;
	for (int k = 0; k < n; k++)
		dr->numa_nodes[k] = get_i32(d);
	n = get_count(d, 4);
	if (n < 0)
		return -1;
	dr->vcpus = xcalloc((size_t)n + 1, sizeof(*dr->vcpus));
	for (int v = 0; v < n; v++) {
		dr->nvcpus = v + 1;     /* what run_result_free() must see */
		if (get_vcpu(d, &dr->vcpus[v]))
			return -1;
	}
	return 0;
}

static int get_run(struct dec *d, struct run_result *r)
{
	const unsigned char *magic = take(d, sizeof(rr_magic));
	uint32_t version = get_u32(d);
	int n;

	if (!d->bad && memcmp(magic, rr_magic, sizeof(rr_magic)))
		return dec_fail(d, "not a run result (no \"SSRR\")");
	if (!d->bad && version != RUN_RESULT_ENCODING)
		return err_set(d->e, "encoding version %u, this schedsim reads %d", version,
			       RUN_RESULT_ENCODING);
	get_str(d, r->scheduler, sizeof(r->scheduler));
	get_str(d, r->label, sizeof(r->label));
	get_str(d, r->host, sizeof(r->host));
	get_str(d, r->workload, sizeof(r->workload));
	get_str(d, r->dom0_load, sizeof(r->dom0_load));
	r->iteration = get_i32(d);
	r->seed = get_u64(d);
	r->sim_ns = get_i64(d);
	r->events = get_u64(d);
	get_metric(d, &r->metric);
	if (get_breakdown(d, &r->breakdown))
		return -1;
	get_str(d, r->check_error, sizeof(r->check_error));
	n = get_count(d, 4);
	if (n < 0)
		return -1;
	r->doms = xcalloc((size_t)n + 1, sizeof(*r->doms));
	for (int k = 0; k < n; k++) {
		r->ndoms = k + 1;
		if (get_domain(d, &r->doms[k]))
			return -1;
	}
	if (d->bad)
		return -1;
	if (d->off != d->len)
		return dec_fail(d, "bytes left over");
	return 0;
}

int run_result_unpack(const char *buf, size_t len, struct run_result *r, struct err *e)
{
	const unsigned char *p = (const unsigned char *)buf;
	struct dec d = { p, 0, 0, false, e };
	uint64_t sum = 0;

	memset(r, 0, sizeof(*r));
	if (len < sizeof(rr_magic) + 4 + 8)
		return err_set(e, "truncated: %zu bytes", len);
	d.len = len - 8;
	for (int k = 7; k >= 0; k--)
		sum = sum << 8 | p[d.len + k];
	if (sum != digest_bytes(DIGEST_SEED, p, d.len))
		return err_set(e, "checksum does not match the bytes");
	if (get_run(&d, r) == 0)
		return 0;
	run_result_free(r);
	memset(r, 0, sizeof(*r));
	return -1;
}

int experiment_check_axes(const struct experiment *x, struct err *e)
{
	if (!x->apply_axes)
		return 0;
	for (int b = 0; b < experiment_nbench(x); b++)
		for (int d = 0; d < axis_len(x->ndom0); d++) {
			struct scenario sc;

			if (experiment_scenario(x, b, d, &sc, e))
				return -1;
			scenario_free(&sc);
		}
	return 0;
}

static int pool_run(const void *ctx, int idx, struct run_result *r, struct err *e)
{
	return do_run(ctx, idx, r, e);
}

static void pool_describe(const void *ctx, int idx, char *buf, size_t len)
{
	describe_run(ctx, idx, buf, len);
}

int experiment_run(struct experiment *x, struct err *e)
{
	struct worker_pool p = { .run = pool_run, .describe = pool_describe, .ctx = x };
	int rc;

	if (x->nscheds < 1 || x->iterations < 1)
		return err_set(e, "experiment: need at least one scheduler and one iteration");
	x->nruns = experiment_total(x);
	x->runs = xcalloc(x->nruns, sizeof(*x->runs));
	x->ndone = 0;
	if (experiment_check_axes(x, e))
		return EXP_ERROR;
	p.nruns = x->nruns;
	p.only = x->only;
	p.nonly = x->nonly;
	p.jobs = x->jobs;
	p.progress = x->progress;
	p.runs = x->runs;
	rc = workers_run(&p, e);
	x->ndone = p.ndone;
	return rc;
}

void experiment_free(struct experiment *x)
{
	for (int i = 0; x->runs && i < x->nruns; i++)
		run_result_free(&x->runs[i]);
	free(x->runs);
	x->runs = NULL;
	x->nruns = 0;
}

void experiment_table(const struct experiment *x, struct report_table *t)
{
	int nb = experiment_nbench(x), nd = axis_len(x->ndom0);

	report_init(t, nb * nd, x->nscheds);
	for (int s = 0; s < x->nscheds; s++)
		t->cols[s] = xstrdup(x->scheds[s].text);
	for (int b = 0; b < nb; b++)
		for (int d = 0; d < nd; d++) {
			struct report_row *row = &t->rows[b * nd + d];
			const char *h = experiment_host(x, b), *w = experiment_workload(x, b);

			snprintf(row->host, sizeof(row->host), "%s", h ? h : "");
			snprintf(row->workload, sizeof(row->workload), "%s", w ? w : "");
			snprintf(row->dom0_load, sizeof(row->dom0_load), "%s",
				 x->ndom0 ? x->dom0_loads[d] : "");
			for (int s = 0; s < x->nscheds; s++) {
				struct report_cell *c = report_cell(t, b * nd + d, s);

				snprintf(c->label, sizeof(c->label), "%s", x->scheds[s].text);
				snprintf(c->scheduler, sizeof(c->scheduler), "%s", x->scheds[s].name);
				for (int i = 0; i < x->iterations; i++) {
					const struct run_result *r =
						&x->runs[experiment_index(x, s, b, d, i)];

					if (!r->metric.valid)
						continue;
					if (!row->metric[0]) {
						snprintf(row->metric, sizeof(row->metric), "%s",
							 r->metric.name);
						snprintf(row->unit, sizeof(row->unit), "%s",
							 r->metric.unit);
						row->higher_better = r->metric.higher_better;
					}
					report_add_value(c, r->metric.value);
				}
			}
		}
	report_compute(t);
}
