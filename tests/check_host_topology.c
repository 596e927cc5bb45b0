/*
 * A real host's topology: topology_init_map() on explicit maps, and the
 * lscpu -p and xl info -n readers on outputs written down from lscpu(1),
 * from tools/xl/xl_info.c's format and from this build machine's own
 * `lscpu -p` (tests/data/host/).  What the masks must be is worked out by
 * hand from each file.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "sim/engine/cpumask.h"
#include "sim/engine/scenario.h"
#include "sim/engine/topology.h"
#include "sim/input/host_topology.h"

#define DATA TESTS_SRCDIR "/data/host/"

static const char *mask(const struct cpumask *m)
{
	static char buf[256];

	return cpumask_format(m, buf, sizeof(buf));
}

static void load(struct host_spec *h, enum host_topology_format f, const char *file)
{
	struct err e = { "" };
	int rc;

	memset(h, 0, sizeof(*h));
	rc = host_topology_load(h, f, file, &e);
	ck_assert_msg(rc == 0, "%s: %s", file, e.msg);
}

static void free_host(struct host_spec *h)
{
	free(h->cpu_map);
	free(h->map_source);
}

/* Parses text; returns the message when it fails, NULL when it does not. */
static const char *parse_error(enum host_topology_format f, const char *text)
{
	static struct err e;
	struct topology_cpu *cpus;
	int n;

	memset(&e, 0, sizeof(e));
	if (host_topology_parse(text, strlen(text), "t", f, &cpus, &n, &e) == 0) {
		free(cpus);
		return NULL;
	}
	return e.msg;
}

START_TEST(map_regular_shape_equals_topology_init)
{
	/* The regular shape's own numbering, given as a map, builds the same masks. */
	struct topology a, b;
	struct topology_cpu cpus[16];
	struct err e;

	ck_assert_int_eq(topology_init(&a, 2, 4, 2, 2, &e), 0);
	for (int i = 0; i < 16; i++)
		cpus[i] = (struct topology_cpu){ i / 8, (i / 2) % 4, i / 8 };
	ck_assert_int_eq(topology_init_map(&b, cpus, 16, &e), 0);
	ck_assert_int_eq(b.nr_cpus, 16);
	ck_assert_int_eq(b.nr_sockets, 2);
	ck_assert_int_eq(b.nr_nodes, 2);
	ck_assert_int_eq(b.cores_per_socket, 4);
	ck_assert_int_eq(b.threads_per_core, 2);
	for (int i = 0; i < 16; i++) {
		ck_assert(cpumask_equal(a.sibling_mask[i], b.sibling_mask[i]));
		ck_assert(cpumask_equal(a.core_mask[i], b.core_mask[i]));
		ck_assert_int_eq(a.cpu_core[i], b.cpu_core[i]);
		ck_assert_int_eq(a.cpu_socket[i], b.cpu_socket[i]);
		ck_assert_int_eq(a.cpu_node[i], b.cpu_node[i]);
	}
	for (int n = 0; n < 2; n++)
		ck_assert(cpumask_equal(a.node_mask[n], b.node_mask[n]));
	topology_free(&a);
	topology_free(&b);
}
END_TEST

START_TEST(map_non_adjacent_siblings_and_odd_ids)
{
	/* Siblings 4 apart, socket ids 3 and 7, core ids per socket 0 and 9. */
	struct topology_cpu cpus[8] = {
		{ 3, 0, 0 }, { 3, 9, 0 }, { 7, 0, 1 }, { 7, 9, 1 },
		{ 3, 0, 0 }, { 3, 9, 0 }, { 7, 0, 1 }, { 7, 9, 1 },
	};
	struct topology t;
	struct err e;

	ck_assert_int_eq(topology_init_map(&t, cpus, 8, &e), 0);
	ck_assert_str_eq(mask(t.sibling_mask[0]), "0,4");
	ck_assert_str_eq(mask(t.sibling_mask[5]), "1,5");
	ck_assert_str_eq(mask(t.core_mask[2]), "2-3,6-7");
	ck_assert_str_eq(mask(t.node_mask[0]), "0-1,4-5");
	/* Global core indices in order of first appearance: 0, 1, 2, 3. */
	ck_assert_int_eq(t.cpu_core[0], 0);
	ck_assert_int_eq(t.cpu_core[1], 1);
	ck_assert_int_eq(t.cpu_core[6], 2);
	ck_assert_int_eq(t.cpu_core[7], 3);
	ck_assert_int_eq(t.cpu_socket[3], 7);
	ck_assert_int_eq(t.nr_sockets, 2);
	topology_free(&t);
}
END_TEST

START_TEST(map_refuses_split_core_and_bad_ids)
{
	struct topology_cpu split[2] = { { 0, 0, 0 }, { 0, 0, 1 } };
	struct topology_cpu neg[1] = { { 0, -1, 0 } };
	struct topology t;
	struct err e;

	ck_assert_int_eq(topology_init_map(&t, split, 2, &e), -1);
	ck_assert_msg(strstr(e.msg, "threads of core 0 of socket 0") != NULL, "%s", e.msg);
	ck_assert_int_eq(topology_init_map(&t, neg, 1, &e), -1);
	ck_assert_int_eq(topology_init_map(&t, neg, 0, &e), -1);
}
END_TEST

START_TEST(smt_off_keeps_the_first_thread_of_each_core)
{
	/* Xen's smt=0 (<host smt="off">): every core keeps the thread it brought up first. */
	struct topology_cpu cpus[8] = {
		{ 3, 0, 0 }, { 3, 9, 0 }, { 7, 0, 1 }, { 7, 9, 1 },
		{ 3, 0, 0 }, { 3, 9, 0 }, { 7, 0, 1 }, { 7, 9, 1 },
	};
	struct host_spec h = { .sockets = 2, .cores_per_socket = 4, .threads_per_core = 2,
			       .nodes = 2 };
	struct topology t;
	struct err e;

	ck_assert(host_spec_smt(&h));
	ck_assert_int_eq(host_spec_cpus(&h), 16);
	kvlist_set(&h.hw, "smt", "off", 1);
	ck_assert(!host_spec_smt(&h));
	ck_assert_int_eq(host_spec_cpus(&h), 8);
	ck_assert_int_eq(host_spec_topology(&h, &t, &e), 0);
	ck_assert_int_eq(t.nr_cpus, 8);
	ck_assert_int_eq(t.threads_per_core, 1);
	ck_assert_int_eq(t.cores_per_socket, 4);
	ck_assert_str_eq(mask(t.sibling_mask[5]), "5");
	ck_assert_str_eq(mask(t.core_mask[5]), "4-7");
	ck_assert_str_eq(mask(t.node_mask[1]), "4-7");
	topology_free(&t);
	/* A machine's map, siblings 4 apart: CPUs 0-3 stay, on their sockets and nodes. */
	h.cpu_map = cpus;
	h.ncpus_map = 8;
	ck_assert_int_eq(host_spec_cpus(&h), 4);
	ck_assert_int_eq(host_spec_topology(&h, &t, &e), 0);
	ck_assert_int_eq(t.nr_cpus, 4);
	ck_assert_int_eq(t.threads_per_core, 1);
	ck_assert_int_eq(t.cpu_socket[1], 3);
	ck_assert_int_eq(t.cpu_socket[2], 7);
	ck_assert_str_eq(mask(t.node_mask[0]), "0-1");
	ck_assert_str_eq(mask(t.core_mask[3]), "2-3");
	ck_assert_str_eq(mask(t.sibling_mask[3]), "3");
	topology_free(&t);
	kvlist_set(&h.hw, "smt", "on", 1);
	ck_assert_int_eq(host_spec_cpus(&h), 8);
	kvlist_free(&h.hw);
}
END_TEST

START_TEST(lscpu_this_machine)
{
	/* This build machine's `lscpu -p` (a KVM guest: 1 socket, 2 cores, no SMT). */
	struct host_spec h;

	load(&h, HOST_TOPOLOGY_LSCPU, DATA "kvm-2cpu.lscpu");
	ck_assert_int_eq(h.ncpus_map, 2);
	ck_assert_int_eq(h.sockets, 1);
	ck_assert_int_eq(h.cores_per_socket, 2);
	ck_assert_int_eq(h.threads_per_core, 1);
	ck_assert_int_eq(h.nodes, 1);
	ck_assert_str_eq(h.map_source, "lscpu:" DATA "kvm-2cpu.lscpu");
	free_host(&h);
}
END_TEST

/* The 2 x 4 x 2 Xeon as Linux numbers it: CPUs 0-7 the first threads, 8-15 the second. */
static void check_linux_xeon(const struct host_spec *h)
{
	struct topology t;
	struct err e;

	ck_assert_int_eq(h->ncpus_map, 16);
	ck_assert_int_eq(h->sockets, 2);
	ck_assert_int_eq(h->cores_per_socket, 4);
	ck_assert_int_eq(h->threads_per_core, 2);
	ck_assert_int_eq(h->nodes, 2);
	ck_assert_int_eq(topology_init_map(&t, h->cpu_map, h->ncpus_map, &e), 0);
	ck_assert_str_eq(mask(t.sibling_mask[0]), "0,8");
	ck_assert_str_eq(mask(t.sibling_mask[13]), "5,13");
	ck_assert_str_eq(mask(t.core_mask[1]), "0-3,8-11");
	ck_assert_str_eq(mask(t.core_mask[12]), "4-7,12-15");
	ck_assert_str_eq(mask(t.node_mask[1]), "4-7,12-15");
	topology_free(&t);
}

START_TEST(lscpu_compatible_format_with_caches)
{
	struct host_spec h;

	load(&h, HOST_TOPOLOGY_LSCPU, DATA "xeon-2s-4c-2t.lscpu");
	check_linux_xeon(&h);
	free_host(&h);
}
END_TEST

START_TEST(lscpu_column_list)
{
	struct host_spec h;

	load(&h, HOST_TOPOLOGY_LSCPU, DATA "xeon-2s-4c-2t-cols.lscpu");
	check_linux_xeon(&h);
	free_host(&h);
}
END_TEST

START_TEST(lscpu_no_numa_and_extra_columns)
{
	/* Node empty everywhere: one node; siblings are CPUs c and c+4. */
	struct host_spec h;
	struct topology t;
	struct err e;

	load(&h, HOST_TOPOLOGY_LSCPU, DATA "desktop-1s-4c-2t.lscpu");
	ck_assert_int_eq(h.nodes, 1);
	ck_assert_int_eq(h.threads_per_core, 2);
	ck_assert_int_eq(topology_init_map(&t, h.cpu_map, h.ncpus_map, &e), 0);
	ck_assert_str_eq(mask(t.sibling_mask[1]), "1,5");
	ck_assert_str_eq(mask(t.node_mask[0]), "0-7");
	topology_free(&t);
	free_host(&h);
}
END_TEST

START_TEST(xl_info_numa_table)
{
	/* Xen's numbering: siblings adjacent, per-socket core ids 0, 1, 9, 10. */
	struct host_spec h;
	struct topology t;
	struct err e;

	load(&h, HOST_TOPOLOGY_XL_INFO, DATA "xeon-2s-4c-2t.xl-info");
	ck_assert_int_eq(h.ncpus_map, 16);
	ck_assert_int_eq(h.sockets, 2);
	ck_assert_int_eq(h.cores_per_socket, 4);
	ck_assert_int_eq(h.nodes, 2);
	ck_assert_int_eq(topology_init_map(&t, h.cpu_map, h.ncpus_map, &e), 0);
	ck_assert_str_eq(mask(t.sibling_mask[4]), "4-5");
	ck_assert_str_eq(mask(t.core_mask[9]), "8-15");
	/* Core 9 of socket 0 and core 9 of socket 1 are different cores. */
	ck_assert_int_ne(t.cpu_core[4], t.cpu_core[12]);
	ck_assert_str_eq(h.map_source, "xl-info:" DATA "xeon-2s-4c-2t.xl-info");
	topology_free(&t);
	free_host(&h);
}
END_TEST

START_TEST(cpu_lists_over_a_machine_map)
{
	/* nodes:1 on the Linux-numbered Xeon is its second socket, both threads. */
	struct host_spec h;
	struct topology t;
	struct cpumask *m;
	struct err e;

	load(&h, HOST_TOPOLOGY_LSCPU, DATA "xeon-2s-4c-2t.lscpu");
	ck_assert_int_eq(topology_init_map(&t, h.cpu_map, h.ncpus_map, &e), 0);
	m = cpumask_alloc(16);
	ck_assert_int_eq(cpulist_parse(&t, "nodes:1", m, &e), 0);
	ck_assert_str_eq(mask(m), "4-7,12-15");
	ck_assert_int_eq(cpulist_parse(&t, "16", m, &e), -1);
	cpumask_free(m);
	topology_free(&t);
	free_host(&h);
}
END_TEST

START_TEST(lscpu_bad_inputs)
{
	static const char hdr[] = "# CPU,Core,Socket,Node\n";
	char buf[512];

	ck_assert_ptr_null(parse_error(HOST_TOPOLOGY_LSCPU, "# CPU,Core,Socket,Node\n0,0,0,0\n"));
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, ""), "t:1: empty file");
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, "0,0,0,0\n"),
			 "t:1: a CPU line before the column header (lscpu -p starts with "
			 "'# CPU,Core,Socket,Node...')");
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, "# CPU,Node\n0,0\n"),
			 "t:1: the lscpu header has no Core column (write it with lscpu -p or "
			 "lscpu -p=CPU,CORE,SOCKET,NODE)");
	snprintf(buf, sizeof(buf), "%s0,0,0,0\n1,1,0\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, buf),
			 "t:3: 3 fields, but the header (line 1) names 4");
	snprintf(buf, sizeof(buf), "%s0,0,0,0\n0,1,0,0\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, buf),
			 "t:3: CPU 0 is listed twice (lines 2 and 3)");
	snprintf(buf, sizeof(buf), "%s0,0,0,0\n2,1,0,0\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, buf),
			 "t:3: CPU 2 is listed but CPU 1 is not: schedsim numbers pCPUs 0..N-1 "
			 "and needs every one (offline CPUs?)");
	snprintf(buf, sizeof(buf), "%s0,0,0,0\n1,0,0,1\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, buf),
			 "t:3: CPU 1 is a thread of core 0 of socket 0 like CPU 0 (line 2), but on "
			 "node 1, not 0");
	snprintf(buf, sizeof(buf), "%s0,0,0,0\n1,,,\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, buf),
			 "t:3: CPU 1 has no Core id (an offline CPU? schedsim needs every CPU online)");
	snprintf(buf, sizeof(buf), "%s0,x,0,0\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, buf),
			 "t:2: CPU 0: Core 'x' is not an id (0..1048575)");
	snprintf(buf, sizeof(buf), "%s0,0,0,0\r\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, buf),
			 "t:2: carriage return (a DOS line ending?): the tools write plain newlines");
	snprintf(buf, sizeof(buf), "# CPU,Core,Socket,Online\n0,0,0,Y\n1,1,0,N\n");
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, buf),
			 "t:3: CPU 1 is offline (schedsim needs every CPU online)");
	snprintf(buf, sizeof(buf), "%s0,0,0,0\n1,1,0,\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, buf),
			 "t:3: CPU 1 has no node, but the CPUs above have");
	snprintf(buf, sizeof(buf), "%s99999999999,0,0,0\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, buf),
			 "t:2: CPU '99999999999' is not a CPU number (0..65535)");
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, "Architecture: x86_64\n"),
			 "t:1: not the output of lscpu -p: 'Architecture: x86_64' (lscpu -p prints a "
			 "'# CPU,Core,Socket,Node...' header, then one line per CPU)");
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_LSCPU, "# just a comment\n"),
			 "t:1: no lscpu column header ('# CPU,Core,Socket,Node...'): not the output "
			 "of lscpu -p");
}
END_TEST

START_TEST(xl_info_bad_inputs)
{
	static const char hdr[] = "cpu_topology           :\ncpu:    core    socket     node\n";
	char buf[512];

	snprintf(buf, sizeof(buf), "%s  0:  0  0  0\n  1:  0  0  0\n", hdr);
	ck_assert_ptr_null(parse_error(HOST_TOPOLOGY_XL_INFO, buf));
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_XL_INFO, "nr_cpus : 16\n"),
			 "t:1: no cpu_topology table ('cpu: core socket node'): write the file with "
			 "xl info -n");
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_XL_INFO, hdr),
			 "t:2: the cpu_topology table has no rows");
	snprintf(buf, sizeof(buf), "%s  0:  0  0\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_XL_INFO, buf),
			 "t:3: CPU 0: expected three ids (core socket node, nodes below 1024) after "
			 "'0:': '0:  0  0'");
	/* A CPU on node 1 alone (node 0 holds memory only): a host schedsim runs. */
	snprintf(buf, sizeof(buf), "%s  0:  0  0  1\n", hdr);
	ck_assert_ptr_null(parse_error(HOST_TOPOLOGY_XL_INFO, buf));
	snprintf(buf, sizeof(buf), "%s  0:  0  0  1024\n", hdr);
	ck_assert_ptr_nonnull(parse_error(HOST_TOPOLOGY_XL_INFO, buf));
	snprintf(buf, sizeof(buf), "%s  0:  0  0  0\n  2:  1  0  0\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_XL_INFO, buf),
			 "t:4: CPU 2 is listed but CPU 1 is not: schedsim numbers pCPUs 0..N-1 "
			 "and needs every one (offline CPUs?)");
	snprintf(buf, sizeof(buf), "%s  0:  0  0  0\n  1 0 0 0\n", hdr);
	ck_assert_str_eq(parse_error(HOST_TOPOLOGY_XL_INFO, buf),
			 "t:4: not a cpu_topology row ('CPU: CORE SOCKET NODE', as xl info -n prints "
			 "them): '1 0 0 0'");
}
END_TEST

START_TEST(option_forms)
{
	struct host_spec h;
	struct err e;

	memset(&h, 0, sizeof(h));
	ck_assert_int_eq(host_topology_option(&h, "lscpu:" DATA "kvm-2cpu.lscpu", &e), 0);
	ck_assert_int_eq(h.ncpus_map, 2);
	ck_assert_int_eq(host_topology_option(&h, "xl-info:" DATA "xeon-2s-4c-2t.xl-info", &e), 0);
	ck_assert_int_eq(h.ncpus_map, 16);
	ck_assert_int_eq(host_topology_option(&h, "lscpu:", &e), -1);
	ck_assert_str_eq(e.msg, "--host=lscpu: needs a file (--host=lscpu:FILE)");
	ck_assert_int_eq(host_topology_option(&h, "sockets=2", &e), -1);
	ck_assert_str_eq(e.msg, "--host: 'sockets=2' is not lscpu:FILE or xl-info:FILE (the "
			 "output of lscpu -p or xl info -n)");
	ck_assert_int_eq(host_topology_option(&h, "lscpu:/nonexistent", &e), -1);
	ck_assert_str_eq(e.msg, "--host: /nonexistent: cannot open: No such file or directory");
	free_host(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("host_topology");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, map_regular_shape_equals_topology_init);
	tcase_add_test(tc, map_non_adjacent_siblings_and_odd_ids);
	tcase_add_test(tc, map_refuses_split_core_and_bad_ids);
	tcase_add_test(tc, smt_off_keeps_the_first_thread_of_each_core);
	tcase_add_test(tc, lscpu_this_machine);
	tcase_add_test(tc, lscpu_compatible_format_with_caches);
	tcase_add_test(tc, lscpu_column_list);
	tcase_add_test(tc, lscpu_no_numa_and_extra_columns);
	tcase_add_test(tc, xl_info_numa_table);
	tcase_add_test(tc, cpu_lists_over_a_machine_map);
	tcase_add_test(tc, lscpu_bad_inputs);
	tcase_add_test(tc, xl_info_bad_inputs);
	tcase_add_test(tc, option_forms);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
