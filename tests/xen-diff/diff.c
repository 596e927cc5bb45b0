/* Recording and comparing two runs' decisions (diff.h). */
#include <stdlib.h>
#include <string.h>

#include "tests/xen-diff/diff.h"
#include "schedulers/sched.h"
#include "sim/experiment/build.h"
#include "sim/xalloc.h"

#define TRC_RUNSTATE_CHANGE 0x00021001u

static void record(struct tracer *t, int cpu, stime_t now, uint32_t event, int n,
		   const uint32_t *data)
{
	struct diff_recorder *r = (struct diff_recorder *)t;
	struct diff_seq *q;

	/* Only "runstate change to running": the vCPU switched in on cpu. */
	if ((event & ~0xff0u) != TRC_RUNSTATE_CHANGE || ((event >> 4) & 0xf) != RUNSTATE_RUNNING ||
	    n < 1 || cpu < 0 || cpu >= r->ncpu)
		return;
	q = &r->cpu[cpu];
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 1024;
		q->r = xreallocarray(q->r, q->cap, sizeof(*q->r));
	}
	q->r[q->n].t = now;
	q->r[q->n].vcpu = (int)(data[0] & 0xffff);
	q->r[q->n].dom = (int)(data[0] >> 16);
	q->n++;
}

int diff_run_build(struct diff_run *r, const struct scenario *sc, const char *spec,
		   const struct sched_modules *mods, bool rec, bool check, struct err *e)
{
	memset(r, 0, sizeof(*r));
	if (sched_spec_parse(spec, &r->spec, e) < 0)
		return -1;
	if (!(r->s = sim_build_with(sc, &r->spec, mods, e))) {
		sched_spec_free(&r->spec);
		return -1;
	}
	r->rec.t.record = record;
	r->rec.ncpu = r->s->nr_cpus;
	r->rec.cpu = xcalloc((size_t)r->s->nr_cpus, sizeof(*r->rec.cpu));
	if (rec)
		r->s->tracer = &r->rec.t;
	r->s->check = check;
	return 0;
}

int diff_run(struct diff_run *r, const struct scenario *sc, const char *spec,
	     const struct sched_modules *mods, stime_t until, bool check, struct err *e)
{
	if (diff_run_build(r, sc, spec, mods, true, check, e) < 0)
		return -1;
	sim_run_until(r->s, until);
	sim_account_all(r->s);
	if (r->s->check_error[0]) {
		err_set(e, "%s: %s", spec, r->s->check_error);
		diff_run_free(r);
		return -1;
	}
	return 0;
}

void diff_run_free(struct diff_run *r)
{
	int c;

	if (!r->s)
		return;
	for (c = 0; c < r->rec.ncpu; c++)
		free(r->rec.cpu[c].r);
	free(r->rec.cpu);
	sim_destroy(r->s);
	sched_spec_free(&r->spec);
	r->s = NULL;
}

static bool same(const struct diff_switch *x, const struct diff_switch *y)
{
	return x->t == y->t && x->dom == y->dom && x->vcpu == y->vcpu;
}

/* First index where the two sequences of one pCPU differ; its time in *t. */
static size_t first_diff(const struct diff_seq *a, const struct diff_seq *b, stime_t *t)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++) {
		if (!same(&a->r[i], &b->r[i])) {
			*t = a->r[i].t < b->r[i].t ? a->r[i].t : b->r[i].t;
			return i;
		}
	}
	if (i < a->n || i < b->n) {
		*t = i < a->n ? a->r[i].t : b->r[i].t;
		return i;
	}
	return (size_t)-1;
}

/* Switches of q strictly before t. */
static size_t before(const struct diff_seq *q, stime_t t)
{
	size_t lo = 0, hi = q->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (q->r[mid].t < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool diff_first(const struct diff_run *a, const struct diff_run *b, struct diff_point *p)
{
	stime_t t;
	size_t i;
	int c;

	memset(p, 0, sizeof(*p));
	p->cpu = -1;
	p->t = STIME_MAX;
	for (c = 0; c < a->rec.ncpu && c < b->rec.ncpu; c++) {
		i = first_diff(&a->rec.cpu[c], &b->rec.cpu[c], &t);
		if (i != (size_t)-1 && t < p->t) {
			p->t = t;
			p->cpu = c;
			p->index = i;
		}
	}
	if (p->cpu < 0) {
		p->common = diff_switches(a);
		return false;
	}
	{
		const struct diff_seq *qa = &a->rec.cpu[p->cpu], *qb = &b->rec.cpu[p->cpu];

		p->a = p->index < qa->n ? &qa->r[p->index] : NULL;
		p->b = p->index < qb->n ? &qb->r[p->index] : NULL;
	}
	for (c = 0; c < a->rec.ncpu; c++)
		p->common += before(&a->rec.cpu[c], p->t);
	return true;
}

size_t diff_switches(const struct diff_run *r)
{
	size_t n = 0;
	int c;

	for (c = 0; c < r->rec.ncpu; c++)
		n += r->rec.cpu[c].n;
	return n;
}

int diff_runtimes(const struct diff_run *a, const struct diff_run *b, stime_t *worst, FILE *f)
{
	int d, i, diffs = 0;

	*worst = 0;
	for (d = 0; d < a->s->nr_domains && d < b->s->nr_domains; d++) {
		struct domain *da = a->s->domains[d], *db = b->s->domains[d];

		for (i = 0; i < da->nr_vcpus && i < db->nr_vcpus; i++) {
			stime_t ra = da->vcpus[i]->st.runstate_ns[RUNSTATE_RUNNING];
			stime_t rb = db->vcpus[i]->st.runstate_ns[RUNSTATE_RUNNING];
			stime_t dd = ra > rb ? ra - rb : rb - ra;

			if (!dd)
				continue;
			if (f) {
				if (!diffs)
					fprintf(f, "run times differ (ns):\n");
				fprintf(f, "  %s v%d: %lld vs %lld (%+.2f%%)\n", da->name, i,
					(long long)ra, (long long)rb,
					ra ? 100.0 * (double)(rb - ra) / (double)ra : 0.0);
			}
			diffs++;
			if (dd > *worst)
				*worst = dd;
		}
	}
	return diffs;
}

const char *diff_name(const struct diff_switch *r, char *buf, size_t len)
{
	if (!r)
		snprintf(buf, len, "(nothing more)");
	else if (r->dom == DOMID_IDLE)
		snprintf(buf, len, "idle");
	else
		snprintf(buf, len, "d%dv%d", r->dom, r->vcpu);
	return buf;
}
