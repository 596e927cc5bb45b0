/*
 * Creating a workload instance from a scenario's <workload> element, and
 * the parameters every workload takes: its tasks' hardware profile
 * (sim/engine/hw.h).  Each workload's ops give the profile's defaults and their
 * source; the attributes override them.
 */
#include <stdlib.h>
#include <string.h>

#include "workloads/workload.h"
#include "sim/xalloc.h"
#include "workloads/kernel_ops.h"

#define POFF(f) offsetof(struct hw_profile, f)

/* No defaults here: they are each workload's (ops->hw). */
static const struct param_def profile_params[] = {
	{ "smt_speed", PARAM_DOUBLE, NULL, NULL, 0.05, 1,
	  "speed of its tasks beside a thread of their core running the same code (1: no "
	  "slowdown); beside other code it follows from both (doc/hardware.md)",
	  POFF(smt_speed) },
	{ "working_set", PARAM_SIZE, NULL, NULL, 0, 1LL << 40,
	  "bytes its tasks keep hot in the caches (touched again, and paid for, after a move or an eviction)", POFF(working_set) },
	{ "mem_intensity", PARAM_DOUBLE, NULL, NULL, 0, 1,
	  "share of its tasks' full-speed time spent waiting on memory (remote memory and "
	  "the socket's memory traffic stretch it; with working_set, how fast a cold cache "
	  "fills: 0 hides its misses)", POFF(mem_intensity) },
	{ NULL }
};

static void profile_describe(FILE *f, const struct workload_ops *ops)
{
	char smt[32], ws[32], mem[32];

	snprintf(smt, sizeof(smt), "%g", ops->hw.smt_speed);
	format_size(ops->hw.working_set, ws, sizeof(ws));
	snprintf(mem, sizeof(mem), "%g", ops->hw.mem_intensity);
	params_describe_one(f, &profile_params[0], smt, "    ");
	params_describe_one(f, &profile_params[1], ws, "    ");
	params_describe_one(f, &profile_params[2], mem, "    ");
	if (ops->hw_source)
		fprintf(f, "    %-18s source: %s\n", "", ops->hw_source);
}

void workload_list(FILE *f)
{
	const struct workload_ops *const *all = workload_all();
	int i;

	for (i = 0; all[i]; i++) {
		fprintf(f, "%s - %s\n", all[i]->name, all[i]->summary);
		if (all[i]->params && all[i]->params[0].name)
			params_describe(f, all[i]->params, "    ");
		profile_describe(f, all[i]);
	}
	fputc('\n', f);
	kernel_ops_list(f);
}

/*
 * Splits the spec's parameters into the workload's own and the profile's,
 * refusing a key that is neither (with the valid ones of both).
 */
static int split_params(const struct workload_ops *ops, const struct workload_spec *spec,
			struct kvlist *own, struct kvlist *prof, int *line, struct err *e)
{
	for (int i = 0; i < spec->params.n; i++) {
		const struct kv *kv = &spec->params.v[i];

		if (params_find(profile_params, kv->key)) {
			kvlist_add(prof, kv->key, kv->value, kv->line);
		} else if (params_find(ops->params, kv->key)) {
			kvlist_add(own, kv->key, kv->value, kv->line);
		} else {
			char valid[800];

			params_names(ops->params, profile_params, valid, sizeof(valid));
			*line = kv->line;
			return err_set(e, "%s: unknown parameter '%s' (valid: %s)", ops->name,
				       kv->key, valid);
		}
	}
	return 0;
}

int workload_check_params(const struct workload_ops *ops, const struct kvlist *kv,
			  struct err *e)
{
	struct workload_spec spec;
	struct kvlist own = { 0 }, prof = { 0 };
	struct hw_profile p = ops->hw;
	void *cfg = xcalloc(1, ops->config_size + 1);
	int line = 0, rc;

	memset(&spec, 0, sizeof(spec));
	spec.params = *kv;
	rc = split_params(ops, &spec, &own, &prof, &line, e);
	if (rc == 0)
		rc = params_apply(ops->params, cfg, &own, ops->name, e);
	if (rc == 0)
		rc = params_apply(profile_params, &p, &prof, ops->name, e);
	kvlist_free(&own);
	kvlist_free(&prof);
	free(cfg);
	return rc < 0 ? -1 : 0;
}

/* The tasks the workload's setup created, in any domain, carry its profile. */
static void tag_tasks(struct sim *s, const int *before, const struct hw_profile *prof)
{
	for (int d = 0; d < s->nr_domains; d++) {
		struct guest *g = s->domains[d]->guest;

		for (int i = before[d]; g && i < g->nr_tasks; i++)
			g->tasks[i]->prof = prof;
	}
}

struct workload *workload_create(struct sim *s, struct domain *d,
				 const struct workload_spec *spec, const char *source,
				 uint64_t seed, struct err *e)
{
	const struct workload_ops *ops = workload_find(spec->type);
	struct kvlist own = { 0 }, prof = { 0 };
	struct workload *w;
	int *before = NULL, line = 0;

	if (!ops) {
		const struct workload_ops *const *all = workload_all();
		char names[256] = "";
		int i;

		for (i = 0; all[i]; i++) {
			if (i)
				strncat(names, ", ", sizeof(names) - strlen(names) - 1);
			strncat(names, all[i]->name, sizeof(names) - strlen(names) - 1);
		}
		err_set(e, "%s:%d: unknown workload type '%s' (valid: %s)", source, spec->line,
			spec->type, names);
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	w->ops = ops;
	w->sim = s;
	w->dom = d;
	w->spec = spec;
	w->source = source;
	w->config = xcalloc(1, ops->config_size ? ops->config_size : 1);
	w->prof = ops->hw;
	rng_seed(&w->rng, seed);
	if (split_params(ops, spec, &own, &prof, &line, e) < 0 ||
	    params_apply_at(profile_params, &w->prof, &prof, ops->name, &line, e) < 0 ||
	    params_apply_at(ops->params, w->config, &own, ops->name, &line, e) < 0) {
		err_prefix(e, "%s:%d", source, line ? line : spec->line);
		goto fail;
	}
	before = xcalloc((size_t)s->nr_domains + 1, sizeof(*before));
	for (int k = 0; k < s->nr_domains; k++)
		before[k] = s->domains[k]->guest ? s->domains[k]->guest->nr_tasks : 0;
	if (ops->setup && ops->setup(w, e) < 0)
		goto fail;
	tag_tasks(s, before, &w->prof);
	free(before);
	kvlist_free(&own);
	kvlist_free(&prof);
	return w;
fail:
	free(before);
	kvlist_free(&own);
	kvlist_free(&prof);
	free(w->config);
	free(w);
	return NULL;
}

void workload_destroy(struct workload *w)
{
	if (!w)
		return;
	if (w->ops->destroy)
		w->ops->destroy(w);
	free(w->config);
	free(w);
}

static void window_end(struct timer *t, void *arg)
{
	(void)t;
	sim_request_stop(arg);
}

void workload_window_arm(struct workload_window *win, struct sim *s, stime_t warmup,
			 stime_t time, timer_fn warm, void *arg)
{
	timer_init(&win->warm, warm, arg);
	timer_set(&s->q, &win->warm, warmup);
	timer_init(&win->stop, window_end, s);
	if (time > 0)
		timer_set(&s->q, &win->stop, warmup + time);
}

void workload_window_cancel(struct workload_window *win, struct sim *s)
{
	timer_stop(&s->q, &win->warm);
	timer_stop(&s->q, &win->stop);
}

stime_t workload_cost(struct rng *rng, double run_factor, double half_width, double base)
{
	double f = run_factor;

	if (half_width > 0)
		f *= 1 + half_width * (2 * rng_uniform(rng) - 1);
	return (stime_t)(base * f) + 1;
}
