/*
 * Applying a --host setting to a scenario copy (see host_axis.h).  The ranges
 * are the loader's (sim/input/scenario_xml.c), and the topology is checked by
 * building it, so a setting the loader would refuse in a file is refused here
 * with the same reason.
 */
#include "sim/experiment/host_axis.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine/hw.h"
#include "sim/engine/topology.h"
#include "sim/params.h"
#include "sim/xalloc.h"
#include "workloads/axes.h"

#define HOST_MAX_VALUE 65536      /* as the loader: pCPUs, sockets, ... */
#define HOST_MAX_DELAY SEC(1)

static const char *const topo_keys =
	"sockets, cores-per-socket, threads-per-core, nodes, ipi-latency, context-switch";

/* Every key, for messages: the topology's, then the hardware model's. */
static void host_keys(char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", topo_keys);

	for (int i = 0; hw_host_params[i].name && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, ", %s", hw_host_params[i].name);
}

static int set_int(const char *setting, const char *key, const char *v, int *out,
		   struct err *e)
{
	long long x;
	struct err why = { "" };

	if (parse_int(v, 1, HOST_MAX_VALUE, &x, &why) < 0)
		return err_set(e, "--host=%s: %s: %s", setting, key, why.msg);
	*out = (int)x;
	return 0;
}

static int set_delay(const char *setting, const char *key, const char *v, stime_t *out,
		     struct err *e)
{
	stime_t x;
	struct err why = { "" };

	if (parse_duration(v, &x, &why) < 0)
		return err_set(e, "--host=%s: %s: %s", setting, key, why.msg);
	if (x < 0 || x > HOST_MAX_DELAY)
		return err_set(e, "--host=%s: %s: '%s' is out of range 0..1s", setting, key, v);
	*out = x;
	return 0;
}

static int set_one(const char *setting, const char *key, const char *v, struct host_spec *h,
		   struct err *e)
{
	static const char *const shape[] = { "sockets", "cores-per-socket", "threads-per-core",
					     "nodes", NULL };
	const struct param_def *d = params_find(hw_host_params, key);
	char keys[1024];

	for (int i = 0; h->cpu_map && shape[i]; i++)
		if (!strcmp(key, shape[i]))
			return err_set(e, "--host=%s: %s: the host's CPU map (%s) gives the topology",
				       setting, key, h->map_source);
	if (!strcmp(key, "sockets"))
		return set_int(setting, key, v, &h->sockets, e);
	if (!strcmp(key, "cores-per-socket"))
		return set_int(setting, key, v, &h->cores_per_socket, e);
	if (!strcmp(key, "threads-per-core"))
		return set_int(setting, key, v, &h->threads_per_core, e);
	if (!strcmp(key, "nodes"))
		return set_int(setting, key, v, &h->nodes, e);
	if (!strcmp(key, "ipi-latency"))
		return set_delay(setting, key, v, &h->ipi_latency, e);
	if (!strcmp(key, "context-switch"))
		return set_delay(setting, key, v, &h->context_switch, e);
	if (d) {       /* the hardware model's: checked with the others below */
		kvlist_set(&h->hw, d->name, v, 0);
		return 0;
	}
	host_keys(keys, sizeof(keys));
	return err_set(e, "--host=%s: unknown key '%s' (valid: %s)", setting, key, keys);
}

int host_axis_apply(struct scenario *sc, const char *setting, struct err *e)
{
	struct host_spec *h = &sc->host;
	struct hw_config c;
	struct topology t;
	char keys[1024];
	int line;
	struct err why = { "" };
	struct kvlist kv = { 0 };
	const char *bad;
	long long cpus;
	int rc = 0;

	if (!setting || !*setting)
		return 0;
	/* Each setting in order, then the place that is not one, if any. */
	bad = params_split_settings(setting, &kv);
	for (int i = 0; i < kv.n && rc == 0; i++) {
		if (!*kv.v[i].value)
			rc = err_set(e, "--host=%s: empty value for '%s'", setting, kv.v[i].key);
		else
			rc = set_one(setting, kv.v[i].key, kv.v[i].value, h, e);
	}
	kvlist_free(&kv);
	if (rc < 0)
		return -1;
	if (bad) {
		host_keys(keys, sizeof(keys));
		return err_set(e, "--host=%s: expected key=value at '%s' (keys: %s)", setting, bad,
			       keys);
	}
	/* A CPU map (sim/input/host_topology.h) was checked when it was read. */
	cpus = (long long)h->sockets * h->cores_per_socket * h->threads_per_core;
	if (!h->cpu_map && cpus > HOST_MAX_VALUE)
		return err_set(e, "--host=%s: %lld pCPUs, more than the %d supported", setting,
			       cpus, HOST_MAX_VALUE);
	if (hw_config_init(&c, &h->hw, &line, &why) < 0)
		return err_set(e, "--host=%s: %s", setting, why.msg);
	if (!h->cpu_map) {
		if (host_spec_topology(h, &t, &why) < 0)
			return err_set(e, "--host=%s: %s", setting, why.msg);
		topology_free(&t);
	}
	return 0;
}

int bench_axes_apply(struct scenario *sc, const char *host, const char *workload,
		     const char *dom0_load, struct err *e)
{
	if (host && *host && host_axis_apply(sc, host, e) < 0)
		return -1;
	return workload_axes_apply(sc, workload, dom0_load, e);
}
