/*
 * The recorded host's domains as a scenario's (xentrace_replay.h): one
 * domain_spec per recorded domain, as xl would have created it (weight 256,
 * no cap, no affinity: a xentrace records none of them), with the
 * xentrace workload's parameters written out so that the report and a
 * copy of the scenario say what is replayed.
 */
#include "sim/input/xentrace_replay.h"

#include <stdio.h>
#include <stdlib.h>

#include "sim/params.h"
#include "sim/xalloc.h"

int xentrace_scenario(struct scenario *sc, const struct xentrace_host *h, const char *path,
		      const char *mode, struct err *e)
{
	char khz[32];

	if (!h->ndoms)
		return err_set(e, "%s: no domain's vCPU ran in the trace: nothing to replay", path);
	for (int i = 0; i < sc->ndoms; i++)
		scenario_free_domain(&sc->doms[i]);
	free(sc->doms);
	sc->doms = xcalloc((size_t)h->ndoms, sizeof(*sc->doms));
	sc->ndoms = h->ndoms;
	sc->capdoms = h->ndoms;
	snprintf(khz, sizeof(khz), "%.17g", h->cpu_khz);
	for (int k = 0; k < h->ndoms; k++) {
		const struct replay_demand *rd = &h->doms[k];
		struct domain_spec *d = &sc->doms[k];
		struct workload_spec *w;
		char id[16];

		if (rd->domid)
			snprintf(d->name, sizeof(d->name), "d%d", rd->domid);
		else
			snprintf(d->name, sizeof(d->name), "dom0");
		d->vcpus = rd->nvcpus;
		d->weight = 256;
		d->line = 1;
		d->source = xstrdup(path);
		d->workloads = w = xcalloc(1, sizeof(*w));
		d->nworkloads = 1;
		snprintf(w->type, sizeof(w->type), "xentrace");
		snprintf(id, sizeof(id), "%d", rd->domid);
		kvlist_add(&w->params, "file", path, 1);
		kvlist_add(&w->params, "domain", id, 1);
		kvlist_add(&w->params, "mode", mode, 1);
		kvlist_add(&w->params, "cpu_khz", khz, 1);
		w->line = 1;
		replay_demand_copy(&w->replay, rd);
	}
	return 0;
}
