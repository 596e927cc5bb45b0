/*
 * Applying the experiment's --workload and --dom0-load axes to a scenario
 * (see axes.h for the rules).  The scenario keeps whatever it says about
 * the host and the domains; only the workloads change, plus a benchmark
 * guest when the scenario has none, so a file can describe an unusual host
 * and still be run through the whole matrix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/axes.h"
#include "sim/params.h"
#include "sim/xalloc.h"
#include "workloads/workload.h"

/* An axis value split: the name before the first ':', then key=value pairs. */
struct axis_spec {
	char name[32];
	struct kvlist params;     /* line 0: from the command line */
};

/* opt names the option in messages ("--workload"). */
static int axis_spec_parse(const char *opt, const char *text, struct axis_spec *out,
			   struct err *e)
{
	size_t n = strcspn(text, ":");
	const char *bad;

	memset(out, 0, sizeof(*out));
	if (n >= sizeof(out->name))
		return err_set(e, "%s=%s: name too long", opt, text);
	memcpy(out->name, text, n);
	out->name[n] = '\0';
	bad = params_split_settings(text[n] ? text + n + 1 : text + n, &out->params);
	if (bad) {
		kvlist_free(&out->params);
		return err_set(e, "%s=%s: expected key=value at '%s'", opt, text, bad);
	}
	return 0;
}

/* The parameters must be the workload's, with values it takes. */
static int axis_spec_check(const char *opt, const char *text, const struct axis_spec *a,
			   struct err *e)
{
	struct err why = { "" };

	if (a->params.n && workload_check_params(workload_find(a->name), &a->params, &why) < 0)
		return err_set(e, "%s=%s: %s", opt, text, why.msg);
	return 0;
}

/* Sets (replacing the file's value, if any) each of a's parameters on w. */
static void set_params(struct workload_spec *w, const struct axis_spec *a)
{
	for (int k = 0; k < a->params.n; k++) {
		const struct kv *p = &a->params.v[k];
		struct kvlist kept = { NULL, 0 };

		for (int i = 0; i < w->params.n; i++)
			if (strcmp(w->params.v[i].key, p->key))
				kvlist_add(&kept, w->params.v[i].key, w->params.v[i].value,
					   w->params.v[i].line);
		kvlist_add(&kept, p->key, p->value, 0);
		kvlist_free(&w->params);
		w->params = kept;
	}
}

/* A benchmark: a workload with a figure of merit (make-xen, iperf, kernbench ...). */
static bool is_benchmark(const char *type)
{
	const struct workload_ops *ops = workload_find(type);

	return ops && ops->metric;
}

static void remove_workload(struct domain_spec *d, int i)
{
	kvlist_free(&d->workloads[i].params);
	free(d->workloads[i].phases);
	memmove(&d->workloads[i], &d->workloads[i + 1],
		(d->nworkloads - i - 1) * sizeof(*d->workloads));
	d->nworkloads--;
}

/* Removes every workload of d for which drop(type, arg) holds. */
static void remove_if(struct domain_spec *d, bool (*drop)(const char *, const char *),
		      const char *arg)
{
	for (int i = 0; i < d->nworkloads;)
		if (drop(d->workloads[i].type, arg))
			remove_workload(d, i);
		else
			i++;
}

static bool other_benchmark(const char *type, const char *keep)
{
	return is_benchmark(type) && strcmp(type, keep);
}

static bool other_type(const char *type, const char *keep)
{
	return strcmp(type, keep) != 0;
}

static bool any_type(const char *type, const char *unused)
{
	(void)type;
	(void)unused;
	return true;
}

static int find_workload(const struct domain_spec *d, const char *type)
{
	for (int i = 0; i < d->nworkloads; i++)
		if (!strcmp(d->workloads[i].type, type))
			return i;
	return -1;
}

static struct workload_spec *add_workload(struct domain_spec *d, const char *type)
{
	struct workload_spec *w;

	d->workloads = xreallocarray(d->workloads, d->nworkloads + 1, sizeof(*w));
	w = &d->workloads[d->nworkloads++];
	memset(w, 0, sizeof(*w));
	snprintf(w->type, sizeof(w->type), "%s", type);
	return w;
}

static struct domain_spec *add_domain(struct scenario *sc, const char *name, int vcpus)
{
	struct domain_spec *d;

	d = scenario_domain_add(sc);
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->vcpus = vcpus;
	d->weight = 256;
	return d;
}

static int host_cpus(const struct scenario *sc)
{
	return host_spec_cpus(&sc->host);
}

/* A duration parameter of w: its value, or its workload's default. */
static stime_t duration_param(const struct workload_spec *w, const char *key)
{
	const struct param_def *d = params_find(workload_find(w->type)->params, key);
	const char *s = kvlist_get(&w->params, key);
	stime_t v = 0;

	if (!s || parse_duration(s, &v, NULL) < 0)
		parse_duration(d->def, &v, NULL);
	return v;
}

/* iperf and netperf stop themselves after warmup + time: the run must last that long. */
static stime_t timed_length(const struct workload_spec *w)
{
	stime_t time = duration_param(w, "time");

	return time > 0 ? duration_param(w, "warmup") + time : 0;
}

/* make-xen and kernbench end the run themselves; this is only a bound for a stuck build. */
#define MAKEXEN_RUN_LIMIT SEC(3600)

/* Whether d runs a benchmark (of any type). */
static bool has_benchmark(const struct domain_spec *d)
{
	for (int i = 0; i < d->nworkloads; i++)
		if (is_benchmark(d->workloads[i].type))
			return true;
	return false;
}

/* Returns whether the benchmark runs in dom0 (the scenario gave dom0 one, and no guest it). */
static bool apply_workload(struct scenario *sc, const struct axis_spec *spec)
{
	const char *type = spec->name;
	struct domain_spec *d = NULL;
	struct workload_spec *w;
	stime_t need;
	int i, k = -1;
	bool in_dom0 = sc->ndoms > 0 && sc->doms[0].type != DOMAIN_NATIVE &&
		has_benchmark(&sc->doms[0]);

	for (i = 1; i < sc->ndoms && in_dom0; i++)
		if (find_workload(&sc->doms[i], type) >= 0)
			in_dom0 = false;
	for (i = 0; i < sc->ndoms; i++)
		remove_if(&sc->doms[i], other_benchmark, type);
	if (in_dom0) {
		d = &sc->doms[0];
		k = find_workload(d, type);
	}
	for (i = 1; i < sc->ndoms && k < 0 && !d; i++)
		if ((k = find_workload(&sc->doms[i], type)) >= 0)
			d = &sc->doms[i];
	/* Bare metal: the one native domain runs the benchmark itself. */
	if (!d && sc->ndoms == 1 && sc->doms[0].type == DOMAIN_NATIVE) {
		d = &sc->doms[0];
		k = find_workload(d, type);
	}
	if (!d) {
		int n = host_cpus(sc);

		d = sc->ndoms > 1 ? &sc->doms[1] :
		    add_domain(sc, AXES_GUEST_NAME, n < AXES_GUEST_VCPUS ? n : AXES_GUEST_VCPUS);
	}
	if (k < 0) {
		add_workload(d, type);
		k = d->nworkloads - 1;
	}
	/* The benchmark runs alone in its guest. */
	for (i = d->nworkloads - 1; i >= 0; i--)
		if (i != k) {
			remove_workload(d, i);
			if (i < k)
				k--;
		}
	w = &d->workloads[k];
	set_params(w, spec);
	need = !strcmp(type, "iperf") || !strcmp(type, "netperf") ? timed_length(w) :
	       !strcmp(type, "make-xen") || !strcmp(type, "kernbench") ? MAKEXEN_RUN_LIMIT : 0;
	if (need > sc->duration)
		sc->duration = need;
	return in_dom0;
}

int workload_axes_apply(struct scenario *sc, const char *workload, const char *dom0_load,
			struct err *e)
{
	bool set_load = dom0_load && *dom0_load, load_on = false, bench_in_dom0 = false;
	struct axis_spec ws = { "", { NULL, 0 } }, ls = { "", { NULL, 0 } };
	int rc = -1;

	if (workload && *workload) {
		if (axis_spec_parse("--workload", workload, &ws, e) < 0)
			return -1;
		if (!workload_find(ws.name) || !strcmp(ws.name, "dom0-load")) {
			err_set(e, "--workload=%s: unknown benchmark (make-xen, iperf, "
				"or another of --list-workloads)", workload);
			goto out;
		}
		if (!strcmp(ws.name, "utilisation")) {
			err_set(e, "--workload=%s: utilisation replays a trace file read with the "
				"scenario: give it as a <workload> of a domain in --scenario", workload);
			goto out;
		}
		if (axis_spec_check("--workload", workload, &ws, e) < 0)
			goto out;
	}
	if (set_load) {
		if (axis_spec_parse("--dom0-load", dom0_load, &ls, e) < 0)
			goto out;
		if (!strcmp(ls.name, "on"))
			load_on = true;
		else if (strcmp(ls.name, "off") || ls.params.n) {
			err_set(e, "--dom0-load=%s: expected off, on or on:key=value...", dom0_load);
			goto out;
		}
		snprintf(ls.name, sizeof(ls.name), "dom0-load");
		if (axis_spec_check("--dom0-load", dom0_load, &ls, e) < 0)
			goto out;
	}
	if (sc->ndoms == 0)
		add_domain(sc, "Domain-0", host_cpus(sc));
	if (load_on && sc->doms[0].type == DOMAIN_NATIVE) {
		err_set(e, "--dom0-load=%s: the scenario is bare metal (a native domain): there is "
			"no dom0 to load", dom0_load);
		goto out;
	}
	if (workload && *workload)
		bench_in_dom0 = apply_workload(sc, &ws);
	if (sc->doms[0].type == DOMAIN_NATIVE || bench_in_dom0) {
		/* bare metal, or the benchmark in dom0: its domain keeps it */
		if (bench_in_dom0 && load_on) {
			err_set(e, "--dom0-load=%s: the benchmark runs in dom0 (the scenario gives "
				"it one)", dom0_load);
			goto out;
		}
	} else if (set_load) {
		struct domain_spec *d0 = &sc->doms[0];

		remove_if(d0, load_on ? other_type : any_type, "dom0-load");
		if (load_on && !d0->nworkloads)
			add_workload(d0, "dom0-load");
		if (load_on)
			set_params(&d0->workloads[0], &ls);
	} else if (workload && *workload) {
		/* A benchmark's dom0 runs back ends, and a dom0 load if the file has one. */
		remove_if(&sc->doms[0], other_type, "dom0-load");
	}
	rc = 0;
out:
	kvlist_free(&ws.params);
	kvlist_free(&ls.params);
	return rc;
}
