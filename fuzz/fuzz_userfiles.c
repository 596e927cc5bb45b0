/*
 * Fuzz target: the readers of a Xen user's own files (issue 19): xl domain
 * configurations (sim/input/xlcfg.c) and CPU maps from lscpu -p and xl info -n
 * (sim/input/host_topology.c).  The first byte picks the reader, the rest is the
 * file.  Besides "no crash, one-line errors naming the file":
 *  - an accepted xl config gives a domain within the scenario's limits
 *    (1..4096 vCPUs, weight 1..65535, cap <= 100 per vCPU), and every cpu
 *    list it yields parses on a 64-pCPU, 4-node host or is refused there
 *    with a message (never an empty mask accepted);
 *  - an accepted CPU map lists CPUs 0..N-1 and builds a topology whose
 *    sibling masks partition the CPUs.
 */
#include "fuzz/fuzz.h"

#include "sim/engine/cpumask.h"
#include "sim/engine/scenario.h"
#include "sim/engine/topology.h"
#include "sim/input/host_topology.h"
#include "sim/input/xlcfg.h"

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_userfiles: %s\n", what);
	abort();
}

static void check_list(const struct topology *t, const char *list)
{
	struct cpumask *m = cpumask_alloc((unsigned)t->nr_cpus);
	struct err e = { "" };

	if (!list)
		goto out;
	if (cpulist_parse(t, list, m, &e) < 0)
		fuzz_check_error(&e, "cpulist_parse", fuzz_has_break(list));
	else if (cpumask_empty(m))
		fail("an empty cpu list was accepted");
out:
	cpumask_free(m);
}

static void xl(const char *text, size_t len)
{
	struct domain_spec d;
	struct err e = { "" };
	struct topology t;
	struct xlcfg c;

	memset(&d, 0, sizeof(d));
	d.vcpus = 1;
	d.weight = 256;
	if (xlcfg_parse(text, len, "f.cfg", &c, &e) < 0) {
		fuzz_check_error(&e, "xlcfg_parse", fuzz_has_break(text));
		if (strncmp(e.msg, "f.cfg:", 6))
			fail("an xl config error does not name the file");
		return;
	}
	if (xlcfg_domain(&c, "f.cfg", &d, &e) < 0) {
		fuzz_check_error(&e, "xlcfg_domain", fuzz_has_break(text));
		if (strncmp(e.msg, "f.cfg:", 6))
			fail("an xl value error does not name the file");
		goto out;
	}
	if (d.vcpus < 1 || d.vcpus > SCENARIO_MAX_VCPUS || d.weight < 1 || d.weight > 65535 ||
	    d.cap < 0 || d.cap > 100 * d.vcpus || d.memory_mb < 0)
		fail("an xl config gave a domain outside the limits");
	if (topology_init(&t, 4, 8, 2, 4, &e) < 0)
		fail("topology_init");
	check_list(&t, d.hard);
	check_list(&t, d.soft);
	for (int i = 0; i < d.nvcpu_over; i++) {
		if (d.vcpu_over[i].id < 0 || d.vcpu_over[i].id >= d.vcpus)
			fail("a per-vCPU affinity for a vCPU the domain does not have");
		check_list(&t, d.vcpu_over[i].hard);
		check_list(&t, d.vcpu_over[i].soft);
	}
	topology_free(&t);
out:
	scenario_free_domain(&d);
	xlcfg_free(&c);
}

static void cpu_map(enum host_topology_format f, const char *text, size_t len)
{
	struct topology_cpu *cpus;
	struct err e = { "" };
	struct topology t;
	struct cpumask *seen;
	int n;

	if (host_topology_parse(text, len, "m", f, &cpus, &n, &e) < 0) {
		fuzz_check_error(&e, "host_topology_parse", fuzz_has_break(text));
		if (strncmp(e.msg, "m:", 2))
			fail("a CPU map error does not name the file");
		return;
	}
	if (topology_init_map(&t, cpus, n, &e) < 0)
		fail("an accepted CPU map does not build");
	seen = cpumask_alloc((unsigned)n);
	for (int cpu = 0; cpu < n; cpu++) {
		if (!cpumask_test(t.sibling_mask[cpu], (unsigned)cpu))
			fail("a CPU is not its own sibling");
		if (cpumask_intersects(seen, t.sibling_mask[cpu]) &&
		    !cpumask_test(seen, (unsigned)cpu))
			fail("sibling masks overlap");
		cpumask_or(seen, seen, t.sibling_mask[cpu]);
	}
	if (!cpumask_full(seen))
		fail("sibling masks miss a CPU");
	cpumask_free(seen);
	topology_free(&t);
	free(cpus);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 1)
		return 0;
	text = fuzz_cstring(data + 1, size - 1);
	if (strlen(text) == size - 1) {    /* the readers take text: textfile.c refuses NULs */
		switch (data[0] % 3) {
		case 0: xl(text, size - 1); break;
		case 1: cpu_map(HOST_TOPOLOGY_LSCPU, text, size - 1); break;
		default: cpu_map(HOST_TOPOLOGY_XL_INFO, text, size - 1); break;
		}
	}
	free(text);
	return 0;
}
