/*
 * The trace options (--trace, --trace-format, --trace-window), opening the
 * writer for a run, and the part every writer shares: the output file,
 * the window state machine and the (domid, vcpu) -> vCPU map.
 *
 * Kept out of main.c so the CLI only forwards three options and two calls
 * (trace_cli_open before a run, trace_close after it).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/output/trace_writer.h"
#include "sim/params.h"
#include "sim/xalloc.h"

static int parse_window(const char *arg, stime_t *from, stime_t *to, struct err *e)
{
	const char *colon = strchr(arg, ':');
	char part[128];
	size_t len;

	if (!colon)
		return err_set(e, "--trace-window: '%s' is not FROM:TO (e.g. 1s:1.5s)", arg);
	len = (size_t)(colon - arg);
	if (len >= sizeof(part))
		return err_set(e, "--trace-window: '%s' is too long", arg);
	memcpy(part, arg, len);
	part[len] = '\0';
	*from = 0;
	*to = -1;
	if (len && parse_duration(part, from, e) < 0)
		return err_prefix(e, "--trace-window: FROM");
	if (colon[1] && parse_duration(colon + 1, to, e) < 0)
		return err_prefix(e, "--trace-window: TO");
	if (*from < 0 || (colon[1] && *to <= *from))
		return err_set(e, "--trace-window: '%s': TO must be after FROM, both >= 0", arg);
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

int trace_cli_option(struct trace_cli *c, int opt, const char *arg, struct err *e)
{
	switch (opt) {
	case TRACE_OPT_FILE:
		if (!arg[0])
			return err_set(e, "--trace: the file name is empty");
		c->path = arg;
		if (!c->format_set)
			c->format = ends_with(arg, ".json") ? TRACE_PERFETTO : TRACE_XENTRACE;
		return 0;
	case TRACE_OPT_FORMAT:
		if (strcmp(arg, "xentrace") == 0)
			c->format = TRACE_XENTRACE;
		else if (strcmp(arg, "perfetto") == 0)
			c->format = TRACE_PERFETTO;
		else
			return err_set(e, "--trace-format: '%s' is not valid (valid: xentrace, perfetto)",
				       arg);
		c->format_set = true;
		return 0;
	case TRACE_OPT_WINDOW:
		c->window = true;
		return parse_window(arg, &c->from, &c->to, e);
	}
	return err_set(e, "trace: unknown option code %d", opt);
}

int trace_cli_check(const struct trace_cli *c, bool experiment, struct err *e)
{
	if (c->path && experiment)
		return err_set(e, "--trace: traces single runs; drop --iterations, --jobs and "
			       "the workload lists, or run the configuration to trace alone");
	if (c->path)
		return 0;
	if (c->format_set)
		return err_set(e, "--trace-format needs --trace=FILE");
	if (c->window)
		return err_set(e, "--trace-window needs --trace=FILE");
	return 0;
}

/* FILE-N.EXT for run N when a command runs several. */
static char *run_path(const char *path, int run, int nruns)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	size_t len = strlen(path) + 24;
	char *out = xmalloc(len);

	if (nruns <= 1) {
		snprintf(out, len, "%s", path);
		return out;
	}
	if (!dot || (slash && dot < slash) || dot == path || (slash && dot == slash + 1))
		dot = path + strlen(path);
	snprintf(out, len, "%.*s-%d%s", (int)(dot - path), path, run, dot);
	return out;
}

struct tracer *trace_cli_open(const struct trace_cli *c, int run, int nruns, struct err *e)
{
	struct tracer *t;
	char *path;
	stime_t from = c->window ? c->from : 0, to = c->window ? c->to : -1;

	if (!c->path)
		return NULL;
	path = run_path(c->path, run, nruns);
	t = c->format == TRACE_PERFETTO ? trace_perfetto_open(path, from, to, e)
					: trace_xentrace_open(path, from, to, e);
	free(path);
	return t;
}

/* --- What the writers share --- */

static void writer_start(struct tracer *t, struct sim *s)
{
	struct trace_writer *w = (struct trace_writer *)t;
	int d, maxid = 0, slot;

	if (w->sim == s || w->state == TW_CLOSED)
		return;
	w->sim = s;
	for (d = 0; d < s->nr_domains; d++)
		if (s->domains[d]->domid > maxid)
			maxid = s->domains[d]->domid;
	free(w->dom_base);
	free(w->slot_vcpu);
	w->max_domid = maxid;
	w->dom_base = xmalloc(((size_t)maxid + 1) * sizeof(int));
	for (d = 0; d <= maxid; d++)
		w->dom_base[d] = -1;
	slot = s->nr_cpus;
	for (d = 0; d < s->nr_domains; d++) {
		w->dom_base[s->domains[d]->domid] = slot;
		slot += s->domains[d]->nr_vcpus;
	}
	w->nr_slots = slot;
	w->slot_vcpu = xcalloc((size_t)slot + 1, sizeof(*w->slot_vcpu));
	for (d = 0; d < s->nr_cpus; d++)
		w->slot_vcpu[d] = s->pcpus[d].idle;
	for (d = 0; d < s->nr_domains; d++) {
		struct domain *dom = s->domains[d];
		int i;

		for (i = 0; i < dom->nr_vcpus; i++)
			w->slot_vcpu[w->dom_base[dom->domid] + i] = dom->vcpus[i];
	}
}

int trace_slot(const struct trace_writer *w, unsigned domid, unsigned vcpu)
{
	const struct sim *s = w->sim;
	int base;

	if (!s)
		return -1;
	if (domid == DOMID_IDLE)
		return vcpu < (unsigned)s->nr_cpus ? (int)vcpu : -1;
	if (domid > (unsigned)w->max_domid || (base = w->dom_base[domid]) < 0)
		return -1;
	if (vcpu >= (unsigned)w->slot_vcpu[base]->dom->nr_vcpus)
		return -1;
	return base + (int)vcpu;
}

int trace_vcpu_slot(const struct trace_writer *w, const struct vcpu *v)
{
	return trace_slot(w, (unsigned)v->dom->domid, (unsigned)v->vcpu_id);
}

static void writer_record(struct tracer *t, int cpu, stime_t now, uint32_t event, int n,
			  const uint32_t *data)
{
	struct trace_writer *w = (struct trace_writer *)t;

	if (w->state == TW_CLOSED || now < w->from || !w->sim)
		return;
	if (w->to >= 0 && now > w->to) {
		/* Nothing happened inside the window: it still shows the machine. */
		if (w->state == TW_BEFORE)
			w->open(w, w->from);
		w->close(w, w->to);
		w->state = TW_CLOSED;
		return;
	}
	if (w->state == TW_BEFORE) {
		w->open(w, w->from);
		w->state = TW_OPEN;
	}
	w->emit(w, cpu, now, event, n, data);
}

static void writer_stop(struct tracer *t, struct sim *s)
{
	struct trace_writer *w = (struct trace_writer *)t;
	stime_t now = sim_now(s);

	if (w->sim != s)
		return;
	if (w->state == TW_BEFORE && now >= w->from) {
		w->open(w, w->from);
		w->state = TW_OPEN;
	}
	if (w->state == TW_OPEN)
		w->close(w, w->to >= 0 && w->to < now ? w->to : now);
	w->state = TW_CLOSED;
	w->sim = NULL;
}

int trace_writer_init(struct trace_writer *w, const char *path, stime_t from, stime_t to,
		      struct err *e)
{
	w->f = fopen(path, "wb");
	if (!w->f)
		return err_set(e, "--trace: cannot write '%s'", path);
	/* A large stdio buffer: the trace streams out, memory stays flat. */
	setvbuf(w->f, NULL, _IOFBF, 1 << 20);
	w->path = xstrdup(path);
	w->from = from;
	w->to = to;
	w->state = TW_BEFORE;
	w->t.record = writer_record;
	w->t.start = writer_start;
	w->t.stop = writer_stop;
	return 0;
}

int trace_close(struct tracer *t, struct err *e)
{
	struct trace_writer *w = (struct trace_writer *)t;
	int rc = 0;

	if (!t)
		return 0;
	w->finish(w);
	if (ferror(w->f) | (fclose(w->f) != 0))
		rc = err_set(e, "--trace: error writing '%s'", w->path);
	free(w->path);
	free(w->dom_base);
	free(w->slot_vcpu);
	free(w);
	return rc;
}
