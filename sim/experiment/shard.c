/*
 * Slices of the experiment matrix (see shard.h); the parts they write are
 * sim/output/shard_part.c's.
 *
 * Why slices are balanced by a cost table and not by count: the runs of a
 * matrix differ by fifty times in work (iperf without dom0 load processes
 * millions of events, make-xen without it a few ten thousands), so equal
 * counts would leave most machines of an array idle while one finishes.
 * The table holds events per run measured on the embedded scenario; the
 * slicing only needs the ratios to be roughly right.
 *
 * Why the results travel as bytes beside the JSON "runs": merge must print the
 * tables as the single process would, to the byte, and the JSON "runs" round
 * numbers (nine digits) for people.  The bytes are those the worker processes
 * already send to the parent (run_result_pack(), an explicit field-by-field
 * encoding, sim/experiment/experiment.h), so the merged matrix holds the very
 * figures the single process held, and a part written on one machine merges on
 * any other running the same schedsim version.
 */
#include "sim/experiment/shard.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/digest.h"
#include "sim/xalloc.h"

int shard_cli_option(struct shard_cli *c, int opt, const char *arg, struct err *e)
{
	long long i, n;
	char *end;

	switch (opt) {
	case SHARD_OPT_SHARD:
		i = strtoll(arg, &end, 10);
		if (end == arg || *end != '/' || arg[0] == '-' || arg[0] == '+')
			return err_set(e, "--shard: '%s' is not I/N (e.g. 0/4)", arg);
		arg = end + 1;
		n = strtoll(arg, &end, 10);
		if (end == arg || *end || arg[0] == '-' || arg[0] == '+')
			return err_set(e, "--shard: '%s' is not I/N (e.g. 0/4)", arg);
		if (n < 1 || n > 1 << 20)
			return err_set(e, "--shard: N must be 1 to %d, not %lld", 1 << 20, n);
		if (i >= n)
			return err_set(e, "--shard: I must be 0 to %lld (slices count from 0), not %lld",
				       n - 1, i);
		c->index = (int)i;
		c->count = (int)n;
		return 0;
	case SHARD_OPT_RUN:
		i = strtoll(arg, &end, 10);
		if (end == arg || *end || arg[0] == '-' || arg[0] == '+' || i > INT32_MAX)
			return err_set(e, "--run: '%s' is not a run number (see --list-runs)", arg);
		c->run = (long)i;
		c->run_set = true;
		return 0;
	case SHARD_OPT_LIST:
		c->list = true;
		return 0;
	}
	return err_set(e, "shard: unknown option %d", opt);
}

bool shard_cli_active(const struct shard_cli *c)
{
	return c && (c->count > 0 || c->run_set || c->list);
}

bool shard_cli_partial(const struct shard_cli *c)
{
	return c && !c->list && (c->count > 0 || c->run_set);
}

int shard_cli_check(const struct shard_cli *c, const char *format, bool plot, struct err *e)
{
	if (c->count > 0 && c->run_set)
		return err_set(e, "--shard and --run: give one of them");
	if (!shard_cli_partial(c))
		return 0;
	if (strcmp(format, "json") && strcmp(format, "text"))
		return err_set(e, "--%s writes a JSON part for `schedsim merge`; give --format=%s "
			       "to merge", c->run_set ? "run" : "shard", format);
	if (plot)
		return err_set(e, "--%s: a part has no plots; draw them with schedsim merge --plot=DIR",
			       c->run_set ? "run" : "shard");
	return 0;
}

/* ------------------------------------------------------------- slicing */

/* Events per run (thousands) on the embedded scenario, credit1/credit2. */
static const struct {
	const char *workload, *dom0;
	uint64_t cost;
} cost_table[] = {
	{ "make-xen", "off", 40 },
	{ "make-xen", "on", 450 },
	{ "iperf", "off", 2300 },
	{ "iperf", "on", 170 },
};

uint64_t shard_run_cost(const char *workload, const char *dom0_load)
{
	const char *d = dom0_load && *dom0_load ? dom0_load : "off";

	size_t n = workload ? strcspn(workload, ":") : 0;   /* the name of a spec */

	for (size_t k = 0; workload && k < sizeof(cost_table) / sizeof(cost_table[0]); k++)
		if (strlen(cost_table[k].workload) == n &&
		    !strncmp(cost_table[k].workload, workload, n) &&
		    !strncmp(cost_table[k].dom0, d, strcspn(d, ":")) &&
		    strlen(cost_table[k].dom0) == strcspn(d, ":"))
			return cost_table[k].cost;
	return 500;     /* unknown: a middling run */
}

struct job {
	uint64_t cost;
	int index;
};

static int job_cmp(const void *a, const void *b)
{
	const struct job *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

struct slot {
	uint64_t load;
	int id;
};

static bool slot_less(const struct slot *a, const struct slot *b)
{
	return a->load < b->load || (a->load == b->load && a->id < b->id);
}

static void sift_down(struct slot *h, int n, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		struct slot t;

		if (l < n && slot_less(&h[l], &h[m]))
			m = l;
		if (r < n && slot_less(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

void shard_assign(const uint64_t *cost, int m, int n, int *owner)
{
	struct job *jobs = xcalloc((size_t)m + 1, sizeof(*jobs));
	struct slot *heap = xcalloc((size_t)n, sizeof(*heap));

	for (int k = 0; k < m; k++)
		jobs[k] = (struct job){ cost[k], k };
	qsort(jobs, (size_t)m, sizeof(*jobs), job_cmp);
	for (int s = 0; s < n; s++)      /* all loads 0: ids ascending is a heap */
		heap[s] = (struct slot){ 0, s };
	for (int k = 0; k < m; k++) {
		owner[jobs[k].index] = heap[0].id;
		heap[0].load += jobs[k].cost;
		sift_down(heap, n, 0);
	}
	free(heap);
	free(jobs);
}

static int axis_len(int n)
{
	return n > 0 ? n : 1;
}

int shard_total(const struct experiment *x)
{
	return experiment_total(x);
}

static const char *dom0_of(const struct experiment *x, int d)
{
	return x->ndom0 ? x->dom0_loads[d] : "";
}

/* ------------------------------------------------------------- prepare */

int shard_file_digest(const char *path, char *out, struct err *e)
{
	if (digest_file(path, out) < 0)
		return err_set(e, "%s: cannot read the scenario again", path);
	return 0;
}

static void choose_runs(struct shard_cli *c, const struct experiment *x)
{
	int *owner;

	c->only = xcalloc((size_t)c->total + 1, sizeof(*c->only));
	c->nonly = 0;
	if (c->run_set) {
		c->only[c->nonly++] = (int)c->run;
		return;
	}
	if (c->count == 0) {
		for (int k = 0; k < c->total; k++)
			c->only[c->nonly++] = k;
		return;
	}
	{
		uint64_t *cost = xcalloc((size_t)c->total + 1, sizeof(*cost));

		owner = xcalloc((size_t)c->total + 1, sizeof(*owner));
		for (int k = 0; k < c->total; k++) {
			struct experiment_coords at = experiment_coords(x, k);

			cost[k] = shard_run_cost(experiment_workload(x, at.b), dom0_of(x, at.d));
		}
		shard_assign(cost, c->total, c->count, owner);
		for (int k = 0; k < c->total; k++)
			if (owner[k] == c->index)
				c->only[c->nonly++] = k;
		free(owner);
		free(cost);
	}
}

static void list_runs(const struct shard_cli *c, const struct experiment *x, FILE *f)
{
	for (int j = 0; j < c->nonly; j++) {
		int k = c->only[j];
		struct experiment_coords at = experiment_coords(x, k);
		const char *h = experiment_host(x, at.b), *w = experiment_workload(x, at.b);

		fprintf(f, "%d\t%s\t%s\t%s\t%d\t%llu\t%s\n", k, x->scheds[at.s].text,
			w ? w : "-", x->ndom0 ? x->dom0_loads[at.d] : "-", at.i,
			(unsigned long long)experiment_seed(x->seed, at.i), h ? h : "-");
	}
}

int shard_prepare(struct shard_cli *c, struct experiment *x, const struct scenario *sc,
		  const char *scenario_path, FILE *f, struct err *e)
{
	if (x->nscheds < 1 || x->iterations < 1)
		return err_set(e, "experiment: need at least one scheduler and one iteration");
	if ((long long)x->nscheds * axis_len(x->nhosts) * axis_len(x->nworkloads) *
	    axis_len(x->ndom0) * x->iterations > INT32_MAX / 2)
		return err_set(e, "the matrix has too many runs");
	c->total = shard_total(x);
	if (c->run_set && c->run >= c->total)
		return err_set(e, "--run: %ld is not a run of this matrix (0 to %d)", c->run,
			       c->total - 1);
	if (experiment_check_axes(x, e))
		return -1;
	c->digest[0] = '\0';
	if (scenario_path && shard_file_digest(scenario_path, c->digest, e))
		return -1;
	snprintf(c->source, sizeof(c->source), "%s", sc->source);
	c->duration = sc->duration;
	c->check = x->ropt.check;
	choose_runs(c, x);
	if (c->list) {
		list_runs(c, x, f);
		return 1;
	}
	x->only = c->only;
	x->nonly = c->nonly;
	x->ropt.keep_histograms = true;   /* so that merge --plot can draw the parts */
	return 0;
}

void shard_cli_free(struct shard_cli *c)
{
	free(c->only);
	c->only = NULL;
	c->nonly = 0;
}

/* ---------------------------------------------------------------- base64 */

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void base64_encode(const void *in, size_t len, char *out)
{
	const unsigned char *p = in;
	size_t k = 0;

	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < len)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < len)
			v |= p[i + 2];
		out[k++] = b64[v >> 18 & 63];
		out[k++] = b64[v >> 12 & 63];
		out[k++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
		out[k++] = i + 2 < len ? b64[v & 63] : '=';
	}
	out[k] = '\0';
}

static int b64_value(char ch)
{
	const char *p = ch ? strchr(b64, ch) : NULL;

	return p ? (int)(p - b64) : -1;
}

int base64_decode(const char *in, char **out, size_t *len)
{
	size_t n = strlen(in), k = 0;
	unsigned char *buf;

	if (n % 4)
		return -1;
	buf = xmalloc(n / 4 * 3 + 1);
	for (size_t i = 0; i < n; i += 4) {
		int v[4], pad = 0;

		for (int j = 0; j < 4; j++) {
			bool last = i + 4 == n;

			if (in[i + j] == '=' && last && j >= 2 && (j == 3 || in[i + 3] == '=')) {
				v[j] = 0;
				pad++;
				continue;
			}
			v[j] = b64_value(in[i + j]);
			if (v[j] < 0 || pad) {
				free(buf);
				return -1;
			}
		}
		buf[k++] = (unsigned char)(v[0] << 2 | v[1] >> 4);
		if (pad < 2)
			buf[k++] = (unsigned char)((v[1] & 15) << 4 | v[2] >> 2);
		if (pad < 1)
			buf[k++] = (unsigned char)((v[2] & 3) << 6 | v[3]);
	}
	*out = (char *)buf;
	*len = k;
	return 0;
}
