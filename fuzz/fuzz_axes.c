/*
 * Fuzz target: the experiment's axis values, as a user types them after
 * --host=, --workload= or --dom0-load= (sim/experiment/host_axis.c,
 * workloads/axes.c) with their {a,b} groups (sim/experiment/spec_axes.c).  The
 * first byte picks the axis: 'h' the host, 'w' the workload, 'd' the dom0 load
 * (any other byte: the three in turn by its value); the rest is the value.
 * Each value the groups expand to (the first four) is applied to the embedded
 * default scenario as an experiment applies it: a refused value must say why
 * on one line, and an accepted one must give a scenario that builds and runs
 * for a moment under the invariant checker with one of the models.
 */
#include "fuzz/fuzz.h"

#include "sim/experiment/host_axis.h"
#include "sim/experiment/spec_axes.h"
#include "sim/input/scenario_load.h"
#include "sim/xalloc.h"
#include "workloads/axes.h"

#define MAX_VALUES 4
#define RUN_FOR MSEC(2)
#define MAX_EVENTS 20000

enum axis { AXIS_HOST, AXIS_WORKLOAD, AXIS_DOM0 };

static enum axis axis_of(uint8_t c)
{
	switch (c) {
	case 'h': return AXIS_HOST;
	case 'w': return AXIS_WORKLOAD;
	case 'd': return AXIS_DOM0;
	default: return (enum axis)(c % 3);
	}
}

static void try_value(enum axis a, const char *value, size_t pick)
{
	struct scenario sc;
	struct err e = { "" };
	int echo = fuzz_has_break(value);

	if (scenario_load_default(&sc, &e) < 0) {
		fprintf(stderr, "fuzz_axes: the default scenario: %s\n", e.msg);
		abort();
	}
	if (bench_axes_apply(&sc, a == AXIS_HOST ? value : NULL,
			     a == AXIS_WORKLOAD ? value : NULL,
			     a == AXIS_DOM0 ? value : NULL, &e) < 0)
		fuzz_check_error(&e, "fuzz_axes: apply", echo);
	else
		fuzz_run_briefly(&sc, pick, RUN_FOR, MAX_EVENTS, "fuzz_axes", echo);
	scenario_free(&sc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = { "" };
	char **items;
	int n = 1;

	if (size < 1 || size > 2048)
		return 0;
	items = xcalloc(1, sizeof(*items));
	items[0] = fuzz_cstring(data + 1, size - 1);
	if (spec_axes_expand(&items, &n, &e) < 0)
		fuzz_check_error(&e, "fuzz_axes: expand", fuzz_has_break(items[0]));
	else
		for (int i = 0; i < n && i < MAX_VALUES; i++)
			try_value(axis_of(data[0]), items[i], size + (size_t)i);
	for (int i = 0; i < n; i++)
		free(items[i]);
	free(items);
	return 0;
}
