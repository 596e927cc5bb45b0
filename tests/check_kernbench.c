/*
 * kernbench (workloads/kernbench.c): its stages timed by hand on the ideal
 * machine with one vCPU per pCPU, make -j, the PV domain's kernel work, the
 * figure, and the errors of its parameters.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "tests/run_suite.h"
#include "tests/testlib.h"
#include "workloads/kernel_ops.h"

/* kernbench without its noise in a bm domain on the 8-CPU ideal host (testlib.h). */
static const char *kb_xml(const char *type, int vcpus, const char *params)
{
	return test_ideal_xml(type, vcpus, "kernbench", "noise=\"0\" run_noise=\"0\"", params);
}

/*
 * Stages by hand, bare metal, 4 CPUs, -j4: configuration 1 s (serial);
 * prepare: 4 host tools of 100 ms at once, then 200 ms serial; vmlinux: 8
 * objects of 300 ms in two rounds, then the 2 s link: 1 + 0.1 + 0.2 + 0.6 + 2.
 */
#define STAGES "config=\"const:1s\" host_tools=\"4\" host_compile=\"const:100ms\" " \
	       "prepare=\"const:200ms\" objects=\"8\" compile=\"const:300ms\" link=\"const:2s\""

START_TEST(stages_by_hand)
{
	double t = test_elapsed_null(kb_xml("native", 4, STAGES " jobs=\"4\""));

	ck_assert_msg(fabs(t - 3.9) < 1e-4, "elapsed %.6f s, expected 3.9", t);
	/* -j2: host tools in two rounds, objects in four: 1 + 0.2 + 0.2 + 1.2 + 2 */
	t = test_elapsed_null(kb_xml("native", 4, STAGES " jobs=\"2\""));
	ck_assert_msg(fabs(t - 4.6) < 1e-4, "elapsed %.6f s, expected 4.6", t);
	/* -j0: the domain's vCPUs (4) */
	t = test_elapsed_null(kb_xml("native", 4, STAGES));
	ck_assert_msg(fabs(t - 3.9) < 1e-4, "elapsed %.6f s, expected 3.9", t);
}
END_TEST

/*
 * In a PV domain each compile job adds its operations' extra work, the
 * serial steps theirs in proportion to their CPU; HVM adds only the VM
 * exits of the jobs' wake-ups across vCPUs (kernel_wake_cost), a few.  The
 * PV paths' page-table switches (2 per page fault and system call, 1 per
 * context switch) each cost the job's code tlb_refill of TLB refill.
 */
START_TEST(pv_kernel_work)
{
	const char *ops = STAGES " jobs=\"4\" faults=\"1000\" syscalls=\"500\" procs=\"2\""
			  " tlb_refill=\"1us\"";
	double native = test_elapsed_null(kb_xml("native", 4, ops));
	double hvm = test_elapsed_null(kb_xml("hvm", 4, ops));
	double pv = test_elapsed_null(kb_xml("pv", 4, ops));
	double per_job = (1000 * kernel_op_cost_ns(DOMAIN_PV, KOP_PAGE_FAULT) +
			  500 * kernel_op_cost_ns(DOMAIN_PV, KOP_SYSCALL) +
			  2 * (kernel_op_cost_ns(DOMAIN_PV, KOP_FORK) +
			       kernel_op_cost_ns(DOMAIN_PV, KOP_EXEC)) +
			  4 * kernel_op_cost_ns(DOMAIN_PV, KOP_CTXSW) +
			  (2 * 1000 + 2 * 500 + 4) * 1000.0) / 1e9;
	/* the critical path: 1 s + 100 ms + 200 ms + 2 x 300 ms + 2 s of a job's 300 ms */
	double expect = 3.9 + per_job * (1000.0 + 100 + 200 + 600 + 2000) / 300.0;

	ck_assert_msg(fabs(native - 3.9) < 1e-4, "native %.6f", native);
	ck_assert_msg(hvm > native && hvm < native + 20 * kernel_wake_cost(DOMAIN_HVM,
									  WAKE_IPI_SEND) / 1e9,
		      "hvm %.6f native %.6f", hvm, native);
	ck_assert_msg(fabs(pv - expect) < 1e-4, "pv %.6f s, expected %.6f", pv, expect);
}
END_TEST

START_TEST(bad_parameters)
{
	static const char *const bad[][2] = {
		{ "jobs=\"-1\"", "jobs" },
		{ "objects=\"0\"", "objects" },
		{ "compile=\"lognormal:1ms\"", "compile" },
		{ "link=\"soon\"", "link" },
		{ "faults=\"-3\"", "faults" },
		{ "cc=\"gcc\"", "unknown parameter 'cc'" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct scenario sc;
		struct sched_spec spec;
		struct err e = { "" };
		struct sim *s;

		test_load(&sc, kb_xml("native", 4, bad[i][0]));
		ck_assert(sched_spec_parse("null", &spec, &e) == 0);
		s = sim_build(&sc, &spec, &e);
		sched_spec_free(&spec);
		scenario_free(&sc);
		ck_assert_msg(!s, "%s accepted", bad[i][0]);
		ck_assert_msg(strstr(e.msg, "test.xml:1") && strstr(e.msg, bad[i][1]) &&
			      !strchr(e.msg, '\n'), "%s: %s", bad[i][0], e.msg);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("kernbench");
	TCase *t = tcase_create("kernbench");

	tcase_add_test(t, stages_by_hand);
	tcase_add_test(t, pv_kernel_work);
	tcase_add_test(t, bad_parameters);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
