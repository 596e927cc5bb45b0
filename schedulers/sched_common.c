/*
 * Pieces every scheduler shares: the soft/hard affinity balancing helpers
 * of Xen's private.h, and creating a scheduler instance from a spec.
 */
#include <stdlib.h>
#include <string.h>

#include "schedulers/sched.h"
#include "sim/xalloc.h"

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

/*
 * soft ∩ hard is empty or hard itself exactly when soft_aff_effective is
 * false, and then the mask is hard either way: so the soft step needs no
 * test of the whole mask's emptiness, and works on the words given.
 */
void affinity_balance_cpumask_words(const struct vcpu *v, enum balance_step step,
				    struct cpumask *mask, struct cpumask_words w)
{
	if (step == BALANCE_SOFT_AFFINITY && v->soft_aff_effective)
		cpumask_and_words(mask, v->soft, v->hard, w);
	else
		cpumask_copy_words(mask, v->hard, w);
}

int sim_cpumask_any(struct sim *s, const struct cpumask *m)
{
	unsigned w = cpumask_weight(m);

	if (w > 1)
		return (int)cpumask_nth(m, (unsigned)(rng_next(&s->rng) >> 32) % w);
	return (int)cpumask_first(m);
}

/* Appends ", s" (or s first) to out. */
static void add_name(char *out, size_t len, const char *s, int n)
{
	size_t used = strlen(out);

	snprintf(out + used, len - used, "%s%.*s", used ? ", " : "", n, s);
}

/*
 * The valid names, for the message: the models, then Xen's own code once
 * per module (xen-credit2@TREE) and the trees it was built from, rather
 * than every combination.  For a name that is a Xen module without a
 * (known) tree, that module's names instead, and true.
 */
static bool valid_names(const char *name, char *out, size_t len)
{
	const struct sched_ops *const *all = sched_all();
	char trees[256] = "";
	size_t want = strcspn(name, "@");
	int i, j;

	out[0] = '\0';
	for (i = 0; all[i]; i++) {
		const char *at = strchr(all[i]->name, '@');

		if (at && (size_t)(at - all[i]->name) == want &&
		    strncmp(all[i]->name, name, want) == 0)
			add_name(out, len, all[i]->name, (int)strlen(all[i]->name));
	}
	if (out[0])
		return true;
	for (i = 0; all[i]; i++) {
		const char *at = strchr(all[i]->name, '@');
		bool seen_module = false, seen_tree = false;

		for (j = 0; j < i && at; j++) {
			const char *other = strchr(all[j]->name, '@');

			if (!other)
				continue;
			seen_module |= other - all[j]->name == at - all[i]->name &&
				       strncmp(all[j]->name, all[i]->name, (size_t)(at - all[i]->name)) == 0;
			seen_tree |= strcmp(other, at) == 0;
		}
		if (!at) {
			add_name(out, len, all[i]->name, (int)strlen(all[i]->name));
			continue;
		}
		if (!seen_module) {
			add_name(out, len, all[i]->name, (int)(at - all[i]->name + 1));
			strncat(out, "TREE", len - strlen(out) - 1);
		}
		if (!seen_tree)
			add_name(trees, sizeof(trees), at + 1, (int)strlen(at + 1));
	}
	if (trees[0])
		snprintf(out + strlen(out), len - strlen(out), "; TREE: %s", trees);
	return false;
}

const struct sched_ops *sched_lookup(const char *name, struct err *e)
{
	const struct sched_ops *ops = sched_find(name);
	char names[400];

	if (ops)
		return ops;
	if (valid_names(name, names, sizeof(names)))
		err_set(e, "unknown scheduler '%s' (name its Xen tree: %s)", name, names);
	else
		err_set(e, "unknown scheduler '%s' (valid: %s)", name, names);
	return NULL;
}

struct scheduler *sched_create(const struct sched_ops *ops, struct sim *s, struct cpupool *pool,
			       const struct sched_spec *spec, struct err *e)
{
	struct scheduler *sch = xcalloc(1, sizeof(*sch));

	sch->ops = ops;
	sch->sim = s;
	sch->pool = pool;
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

void sched_describe(FILE *f, const char *name, const struct sched_ops *ops, const char *from)
{
	fprintf(f, "%s%s%s%s - %s\n", name ? name : ops->name, ops->alias ? " (alias " : "",
		ops->alias ? ops->alias : "", ops->alias ? ")" : "", ops->summary);
	if (from)
		fprintf(f, "    (module %s, scheduler %s)\n", from, ops->name);
	if (ops->params && ops->params[0].name)
		params_describe(f, ops->params, "    ");
	else
		fprintf(f, "    (no parameters)\n");
}

void sched_list_notes(FILE *f)
{
	fputs("\nEvery scheduler also takes gran=cpu|core|socket: Xen's sched-gran= (4.13 and later, "
	      "per cpupool): vCPUs scheduled\n    in units of one per thread of a core (socket), "
	      "gang-scheduled on its threads (doc/pools.md).\n", f);
	/* real-measurements.md section 2; doc/eras.md has the whole table. */
	fputs("\nThe configurations of the 2016 series' table (\"Credit1 and Credit2 "
	      "improvements... and soft-affinity for Credit2!\"):\n"
	      "    Credit1                           credit1:era=2016\n"
	      "    Credit2, the series to patch 20   credit2:era=2016-p20\n"
	      "    Credit2, the full series          credit2:era=2016-full\n"
	      "  schedsim --sched=credit1:era=2016,credit2:era=2016-p20,credit2:era=2016-full "
	      "--workload=make-xen,iperf --dom0-load=off,on --iterations=15\n", f);
}
