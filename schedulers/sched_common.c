/*
 * Pieces every scheduler shares: the soft/hard affinity balancing helpers
 * of Xen's private.h, and creating a scheduler instance from a spec.
 */
#include <stdlib.h>
#include <string.h>

#include "schedulers/sched.h"
#include "sim/xalloc.h"

bool has_soft_affinity(const struct sim *s, const struct vcpu *v)
{
	return v->soft_aff_effective && !cpumask_subset(s->online, v->soft);
}

void affinity_balance_cpumask(const struct vcpu *v, enum balance_step step,
			      struct cpumask *mask)
{
	if (step == BALANCE_SOFT_AFFINITY) {
		cpumask_and(mask, v->soft, v->hard);
		if (cpumask_empty(mask))
			cpumask_copy(mask, v->hard);
	} else {
		cpumask_copy(mask, v->hard);
	}
}

int sim_cpumask_any(struct sim *s, const struct cpumask *m)
{
	unsigned cpu = cpumask_first(m), w = cpumask_weight(m);

	if (w > 1)
		for (w = (unsigned)(rng_next(&s->rng) >> 32) % w; w--;) {
			unsigned next = cpumask_next((int)cpu, m);

			if (next >= m->nbits)
				break;
			cpu = next;
		}
	return (int)cpu;
}

const struct sched_ops *sched_lookup(const char *name, struct err *e)
{
	const struct sched_ops *ops = sched_find(name);
	const struct sched_ops *const *all;
	char names[256] = "";
	int i;

	if (ops)
		return ops;
	all = sched_all();
	for (i = 0; all[i]; i++) {
		if (i)
			strncat(names, ", ", sizeof(names) - strlen(names) - 1);
		strncat(names, all[i]->name, sizeof(names) - strlen(names) - 1);
	}
	err_set(e, "unknown scheduler '%s' (valid: %s)", name, names);
	return NULL;
}

struct scheduler *sched_create(struct sim *s, const struct sched_spec *spec, struct err *e)
{
	const struct sched_ops *ops = sched_lookup(spec->name, e);
	struct scheduler *sch;

	if (!ops)
		return NULL;
	sch = xcalloc(1, sizeof(*sch));
	sch->ops = ops;
	sch->sim = s;
	sch->config = xcalloc(1, ops->config_size ? ops->config_size : 1);
	if (params_apply(ops->params, sch->config, &spec->params, ops->name, e) < 0 ||
	    (ops->init && ops->init(sch, e) < 0)) {
		free(sch->config);
		free(sch);
		return NULL;
	}
	return sch;
}

void sched_destroy(struct scheduler *sch)
{
	if (!sch)
		return;
	if (sch->ops->deinit)
		sch->ops->deinit(sch);
	free(sch->config);
	free(sch);
}

void sched_list(FILE *f)
{
	const struct sched_ops *const *all = sched_all();
	int i;

	for (i = 0; all[i]; i++) {
		fprintf(f, "%s%s%s%s - %s\n", all[i]->name, all[i]->alias ? " (alias " : "",
			all[i]->alias ? all[i]->alias : "", all[i]->alias ? ")" : "",
			all[i]->summary);
		if (all[i]->params && all[i]->params[0].name)
			params_describe(f, all[i]->params, "    ");
		else
			fprintf(f, "    (no parameters)\n");
	}
	/* real-measurements.md section 2; doc/eras.md has the whole table. */
	fputs("\nThe configurations of the 2016 series' table (\"Credit1 and Credit2 "
	      "improvements... and soft-affinity for Credit2!\"):\n"
	      "    Credit1                           credit1:era=2016\n"
	      "    Credit2, the series to patch 20   credit2:era=2016-p20\n"
	      "    Credit2, the full series          credit2:era=2016-full\n"
	      "  schedsim --sched=credit1:era=2016,credit2:era=2016-p20,credit2:era=2016-full "
	      "--workload=make-xen,iperf --dom0-load=off,on --iterations=15\n", f);
}
