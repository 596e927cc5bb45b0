/*
 * Domain types (sim/engine/domain_type.h) and what they cost the guest
 * kernel's operations (workloads/kernel_ops.h): the scenario's and xl's
 * type=, the default, the cost table's shape, and the native (bare-metal)
 * domain's rules (alone, its vCPUs on the host's CPUs 1:1, no hypervisor
 * context switch).
 */
#include <check.h>
#include <stdlib.h>

#include "tests/run_suite.h"
#include "sim/input/xlcfg.h"
#include "tests/testlib.h"
#include "workloads/kernel_ops.h"

/* The type the built domain named `name` ends with. */
static enum domain_type built_type(const char *xml, const char *name)
{
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "credit2");
	enum domain_type t = DOMAIN_TYPE_DEFAULT;

	for (int i = 0; i < s->nr_domains; i++)
		if (!strcmp(s->domains[i]->name, name))
			t = s->domains[i]->type;
	sim_destroy(s);
	scenario_free(&sc);
	return t;
}

START_TEST(scenario_type_and_default)
{
	static const char xml[] =
		"<scenario><host sockets=\"1\" cores-per-socket=\"2\"/>"
		"<domain name=\"dom0\" vcpus=\"2\"/>"
		"<domain name=\"h\" vcpus=\"1\" type=\"hvm\"/>"
		"<domain name=\"p\" vcpus=\"1\" type=\"pvh\"/>"
		"<domain name=\"g\" vcpus=\"1\"/></scenario>";

	/* not given: PV, x86 dom0's type and xl.cfg(5)'s default */
	ck_assert_int_eq(built_type(xml, "dom0"), DOMAIN_PV);
	ck_assert_int_eq(built_type(xml, "g"), DOMAIN_PV);
	ck_assert_int_eq(built_type(xml, "h"), DOMAIN_HVM);
	ck_assert_int_eq(built_type(xml, "p"), DOMAIN_PVH);
}
END_TEST

static enum domain_type xl_type(const char *text)
{
	struct domain_spec d;
	struct xlcfg c;
	struct err e = { "" };
	enum domain_type t;

	memset(&d, 0, sizeof(d));
	d.vcpus = 1;
	ck_assert_msg(xlcfg_parse(text, strlen(text), "g.cfg", &c, &e) == 0, "%s", e.msg);
	ck_assert_msg(xlcfg_domain(&c, "g.cfg", &d, &e) == 0, "%s", e.msg);
	xlcfg_free(&c);
	t = d.type;
	scenario_free_domain(&d);
	return t;
}

START_TEST(xl_type_and_builder)
{
	ck_assert_int_eq(xl_type("name=\"a\"\ntype=\"hvm\"\n"), DOMAIN_HVM);
	ck_assert_int_eq(xl_type("name=\"a\"\ntype=\"pvh\"\n"), DOMAIN_PVH);
	ck_assert_int_eq(xl_type("name=\"a\"\ntype=\"pv\"\n"), DOMAIN_PV);
	ck_assert_int_eq(xl_type("name=\"a\"\nbuilder=\"hvm\"\n"), DOMAIN_HVM);
	ck_assert_int_eq(xl_type("name=\"a\"\nbuilder=\"generic\"\n"), DOMAIN_PV);
	ck_assert_int_eq(xl_type("name=\"a\"\n"), DOMAIN_TYPE_DEFAULT);
}
END_TEST

/* Only PV costs more than bare metal, each PV operation something, and the sum is linear. */
START_TEST(kernel_op_costs_by_type)
{
	struct kernel_ops ops = { .n = { [KOP_SYSCALL] = 1000, [KOP_PAGE_FAULT] = 2000,
					 [KOP_FORK] = 3, [KOP_EXEC] = 3, [KOP_CTXSW] = 10 } };
	double sum = 0;

	for (int op = 0; op < KOP_N; op++) {
		double pv = kernel_op_cost_ns(DOMAIN_PV, (enum kernel_op)op);

		ck_assert_msg(pv > 0, "%s costs nothing in PV", kernel_op_name((enum kernel_op)op));
		ck_assert(kernel_op_cost_ns(DOMAIN_HVM, (enum kernel_op)op) == 0);
		ck_assert(kernel_op_cost_ns(DOMAIN_PVH, (enum kernel_op)op) == 0);
		ck_assert(kernel_op_cost_ns(DOMAIN_NATIVE, (enum kernel_op)op) == 0);
		sum += ops.n[op] * pv;
	}
	/* a PV system call bounces through Xen twice; a page fault also writes a validated PTE */
	ck_assert(kernel_op_cost_ns(DOMAIN_PV, KOP_PAGE_FAULT) >
		  kernel_op_cost_ns(DOMAIN_PV, KOP_SYSCALL));
	ck_assert(kernel_op_cost_ns(DOMAIN_PV, KOP_FORK) > 100 * kernel_op_cost_ns(DOMAIN_PV,
										  KOP_SYSCALL));
	ck_assert_int_eq(kernel_ops_cost(DOMAIN_PV, &ops), (stime_t)(sum + 0.5));
	ck_assert_int_eq(kernel_ops_cost(DOMAIN_HVM, &ops), 0);
	ck_assert_int_eq(kernel_ops_cost(DOMAIN_NATIVE, &ops), 0);
	/* a declared TLB refill is paid at each page-table switch: 2 per system call and
	 * page fault, 1 per context switch, none for fork and exec; only in PV */
	ops.tlb_refill_ns = 100;
	ck_assert_int_eq(kernel_ops_cost(DOMAIN_PV, &ops),
			 (stime_t)(sum + 100.0 * (2 * 1000 + 2 * 2000 + 10) + 0.5));
	ck_assert_int_eq(kernel_ops_cost(DOMAIN_HVM, &ops), 0);
	ck_assert_int_eq(kernel_ops_cost(DOMAIN_PVH, &ops), 0);
}
END_TEST

/*
 * A wake-up's VM exits: one on each side in HVM and PVH (the event-channel
 * hypercall; the kick), and for a halted vCPU the entry back from its HLT
 * exit besides the tick's restart: more than one exit, less than two;
 * none charged in PV (its hypercalls do not exit a VM: the 2016 and dom0
 * calibrations stand) nor on bare metal, nor for a type not resolved yet.
 */
START_TEST(wake_exit_costs_by_type)
{
	stime_t kick = kernel_wake_cost(DOMAIN_HVM, WAKE_IPI_TAKE);
	stime_t halt = kernel_wake_cost(DOMAIN_HVM, WAKE_HALT_TAKE);

	ck_assert_msg(halt > kick && halt < 2 * kick, "halted %lld, running %lld ns",
		      (long long)halt, (long long)kick);
	for (int side = 0; side < WAKE_SIDE_N; side++) {
		stime_t hvm = kernel_wake_cost(DOMAIN_HVM, (enum wake_side)side);

		ck_assert_msg(hvm >= 300 && hvm <= 1500, "side %d: %lld ns", side, (long long)hvm);
		ck_assert_int_eq(kernel_wake_cost(DOMAIN_PVH, (enum wake_side)side), hvm);
		ck_assert_int_eq(kernel_wake_cost(DOMAIN_PV, (enum wake_side)side), 0);
		ck_assert_int_eq(kernel_wake_cost(DOMAIN_TYPE_DEFAULT, (enum wake_side)side), 0);
		ck_assert_int_eq(kernel_wake_cost(DOMAIN_NATIVE, (enum wake_side)side), 0);
	}
}
END_TEST

static const char *build_error(const char *xml)
{
	static struct err e;
	struct scenario sc;
	struct sched_spec spec;
	struct sim *s;

	memset(&e, 0, sizeof(e));
	test_load(&sc, xml);
	ck_assert(sched_spec_parse("null", &spec, &e) == 0);
	s = sim_build(&sc, &spec, &e);
	sched_spec_free(&spec);
	scenario_free(&sc);
	if (s) {
		sim_destroy(s);
		return "(built)";
	}
	return e.msg;
}

START_TEST(native_domain_rules)
{
	const char *m;

	m = build_error("<scenario><host sockets=\"1\" cores-per-socket=\"2\"/>"
			"<domain name=\"bm\" vcpus=\"2\" type=\"native\"/>"
			"<domain name=\"g\" vcpus=\"1\"/></scenario>");
	ck_assert_msg(strstr(m, "test.xml:1: domain 'bm' is native") && strstr(m, "only domain"),
		      "%s", m);
	m = build_error("<scenario><host sockets=\"1\" cores-per-socket=\"2\"/>"
			"<domain name=\"bm\" vcpus=\"3\" type=\"native\"/></scenario>");
	ck_assert_msg(strstr(m, "native with 3 vCPUs but its pool has 2 pCPUs"), "%s", m);
	m = build_error("<scenario><host sockets=\"1\" cores-per-socket=\"2\"/>"
			"<domain name=\"bm\" vcpus=\"2\" type=\"native\">"
			"<affinity hard=\"0\"/></domain></scenario>");
	ck_assert_msg(strstr(m, "take no affinity"), "%s", m);
}
END_TEST

/*
 * Bare metal: vCPU i runs on pCPU i alone, under any scheduler, and its
 * switches to and from idle cost no hypervisor context switch: a 1 ms burst
 * every 10 ms takes 1 ms of run time even with a 500 us switch cost.
 */
START_TEST(native_vcpus_are_the_cpus)
{
	static const char xml[] =
		"<scenario duration=\"100ms\">"
		"<host sockets=\"1\" cores-per-socket=\"4\" context-switch=\"500us\" hw=\"ideal\"/>"
		"<domain name=\"bm\" vcpus=\"4\" type=\"native\">"
		"<workload type=\"phases\" tasks=\"4\"><phase run=\"1ms\" sleep=\"9ms\"/></workload>"
		"</domain></scenario>";
	struct run_options o = { .check = true };
	struct run_result r;

	test_run(xml, "credit2", &o, &r);
	ck_assert_msg(r.check_error[0] == '\0', "invariant: %s", r.check_error);
	for (int i = 0; i < 4; i++) {
		const struct vcpu_result *v = &r.doms[0].vcpus[i];

		ck_assert_int_eq(v->migrations, 0);
		ck_assert_int_eq(v->npcpus, 1);
		ck_assert_int_eq(v->pcpus[0], i);
		/* 10 bursts of 1 ms, and no switch cost: run time is the work alone */
		ck_assert_msg(v->run_ns >= MSEC(10) - USEC(1) && v->run_ns <= MSEC(10) + USEC(1),
			      "vCPU %d ran %lld ns", i, (long long)v->run_ns);
	}
	run_result_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("domain_types");
	TCase *t = tcase_create("types");

	tcase_add_test(t, scenario_type_and_default);
	tcase_add_test(t, xl_type_and_builder);
	tcase_add_test(t, kernel_op_costs_by_type);
	tcase_add_test(t, wake_exit_costs_by_type);
	tcase_add_test(t, native_domain_rules);
	tcase_add_test(t, native_vcpus_are_the_cpus);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
