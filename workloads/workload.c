/* Creating a workload instance from a scenario's <workload> element. */
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/workload.h"

void workload_list(FILE *f)
{
	const struct workload_ops *const *all = workload_all();
	int i;

	for (i = 0; all[i]; i++) {
		fprintf(f, "%s - %s\n", all[i]->name, all[i]->summary);
		if (all[i]->params && all[i]->params[0].name)
			params_describe(f, all[i]->params, "    ");
		else
			fprintf(f, "    (no parameters)\n");
	}
}

struct workload *workload_create(struct sim *s, struct domain *d,
				 const struct workload_spec *spec, const char *source,
				 uint64_t seed, struct err *e)
{
	const struct workload_ops *ops = workload_find(spec->type);
	struct workload *w;

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
	rng_seed(&w->rng, seed);
	if (params_apply(ops->params, w->config, &spec->params, ops->name, e) < 0) {
		int line = spec->line, i;

		/* Name the line of the offending attribute when we know it. */
		for (i = 0; i < spec->params.n; i++)
			if (strstr(e->msg, spec->params.v[i].key) && spec->params.v[i].line)
				line = spec->params.v[i].line;
		err_prefix(e, "%s:%d", source, line);
		goto fail;
	}
	if (ops->setup && ops->setup(w, e) < 0)
		goto fail;
	return w;
fail:
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
