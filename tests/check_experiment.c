/*
 * The experiment layer without running a simulation: the matrix order and
 * the paired seeds, the grouping of run figures into table cells, and the
 * byte form in which workers send results back (a round trip keeps every
 * field; a truncated message is refused, never read past its end).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sim/experiment.h"
#include "sim/xalloc.h"

static void fake_run(struct run_result *r, int ndoms)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->scheduler, sizeof(r->scheduler), "credit2");
	snprintf(r->label, sizeof(r->label), "credit2:runqueue=core");
	snprintf(r->workload, sizeof(r->workload), "iperf");
	snprintf(r->dom0_load, sizeof(r->dom0_load), "on");
	r->iteration = 4;
	r->seed = 0x123456789abcdefULL;
	r->sim_ns = 11000000001LL;
	r->events = 987654321;
	r->metric = (struct metric){ true, "throughput", "Gbit/s", 11.793000000000001, true };
	r->ndoms = ndoms;
	r->doms = xcalloc(ndoms, sizeof(*r->doms));
	for (int d = 0; d < ndoms; d++) {
		struct domain_result *dr = &r->doms[d];

		snprintf(dr->name, sizeof(dr->name), "dom%d", d);
		dr->domid = d;
		dr->weight = 256 * (d + 1);
		dr->nvcpus = d + 1;
		dr->vcpus = xcalloc(dr->nvcpus, sizeof(*dr->vcpus));
		for (int v = 0; v < dr->nvcpus; v++) {
			struct vcpu_result *vr = &dr->vcpus[v];

			vr->id = v;
			vr->run_ns = 1000 * (v + 1);
			vr->wake_p99 = 12345 + v;
			vr->npcpus = v + 2;
			vr->pcpus = xcalloc(vr->npcpus, sizeof(int));
			for (int k = 0; k < vr->npcpus; k++)
				vr->pcpus[k] = 3 * k;
			if (v == 0) {
				hist_record(&vr->wake_latency, 5000);
				hist_record(&vr->wake_latency, 5000);
				hist_record(&vr->wake_latency, 1 << 20);
			}
		}
	}
}

START_TEST(test_pack_roundtrip)
{
	struct run_result a, b;
	char *buf;
	size_t len;

	fake_run(&a, 3);
	run_result_pack(&a, &buf, &len);
	ck_assert_int_eq(run_result_unpack(buf, len, &b), 0);
	ck_assert_str_eq(b.label, a.label);
	ck_assert_str_eq(b.dom0_load, "on");
	ck_assert_int_eq(b.iteration, 4);
	ck_assert(b.seed == a.seed);
	ck_assert(b.metric.value == a.metric.value);   /* bit for bit */
	ck_assert(b.metric.higher_better);
	ck_assert_int_eq(b.ndoms, 3);
	ck_assert_str_eq(b.doms[2].name, "dom2");
	ck_assert_int_eq(b.doms[2].nvcpus, 3);
	ck_assert_int_eq(b.doms[2].vcpus[2].npcpus, 4);
	ck_assert_int_eq(b.doms[2].vcpus[2].pcpus[3], 9);
	ck_assert_int_eq(b.doms[1].vcpus[1].wake_p99, 12346);
	ck_assert_int_eq(b.doms[1].vcpus[0].wake_latency.count, 3);
	ck_assert_int_eq(hist_quantile(&b.doms[1].vcpus[0].wake_latency, 0.5),
			 hist_quantile(&a.doms[1].vcpus[0].wake_latency, 0.5));
	ck_assert_ptr_null(b.doms[1].vcpus[1].wake_latency.buckets);
	run_result_free(&b);
	/* every truncation is refused */
	for (size_t cut = 0; cut < len; cut++) {
		memset(&b, 0, sizeof(b));
		ck_assert_int_eq(run_result_unpack(buf, cut, &b), -1);
		ck_assert_ptr_null(b.doms);
	}
	/* and so is trailing garbage */
	buf = xreallocarray(buf, len + 1, 1);
	buf[len] = 0;
	memset(&b, 0, sizeof(b));
	ck_assert_int_eq(run_result_unpack(buf, len + 1, &b), -1);
	ck_assert_ptr_null(b.doms);
	free(buf);
	run_result_free(&a);
}
END_TEST

START_TEST(test_index_and_seeds)
{
	struct sched_spec specs[2] = { { "credit1", "credit1", { NULL, 0 } },
				       { "credit2", "credit2", { NULL, 0 } } };
	char workloads[2][EXP_NAME_MAX] = { "make-xen", "iperf" };
	char loads[2][EXP_NAME_MAX] = { "off", "on" };
	struct experiment x;
	bool seen[24] = { false };

	memset(&x, 0, sizeof(x));
	x.scheds = specs;
	x.nscheds = 2;
	x.workloads = workloads;
	x.nworkloads = 2;
	x.dom0_loads = loads;
	x.ndom0 = 2;
	x.iterations = 3;
	/* matrix order: scheduler, workload, dom0 load, iteration; a bijection */
	ck_assert_int_eq(experiment_index(&x, 0, 0, 0, 0), 0);
	ck_assert_int_eq(experiment_index(&x, 0, 0, 0, 2), 2);
	ck_assert_int_eq(experiment_index(&x, 0, 0, 1, 0), 3);
	ck_assert_int_eq(experiment_index(&x, 0, 1, 0, 0), 6);
	ck_assert_int_eq(experiment_index(&x, 1, 0, 0, 0), 12);
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 2; w++)
			for (int d = 0; d < 2; d++)
				for (int i = 0; i < 3; i++) {
					int k = experiment_index(&x, s, w, d, i);

					ck_assert(k >= 0 && k < 24 && !seen[k]);
					seen[k] = true;
				}
	/* the seed depends on the iteration only, and iterations differ */
	ck_assert(experiment_seed(1, 0) != experiment_seed(1, 1));
	ck_assert(experiment_seed(1, 0) != experiment_seed(2, 0));
	ck_assert(experiment_seed(7, 2) == experiment_seed(7, 2));
}
END_TEST

START_TEST(test_table)
{
	struct sched_spec specs[2] = { { "credit1", "credit1", { NULL, 0 } },
				       { "credit2", "credit2:runqueue=core", { NULL, 0 } } };
	char workloads[2][EXP_NAME_MAX] = { "make-xen", "iperf" };
	char loads[1][EXP_NAME_MAX] = { "on" };
	struct experiment x;
	struct report_table t;

	memset(&x, 0, sizeof(x));
	x.scheds = specs;
	x.nscheds = 2;
	x.workloads = workloads;
	x.nworkloads = 2;
	x.dom0_loads = loads;
	x.ndom0 = 1;
	x.iterations = 2;
	x.nruns = 8;
	x.ndone = 8;
	x.runs = xcalloc(8, sizeof(*x.runs));
	for (int s = 0; s < 2; s++)
		for (int w = 0; w < 2; w++)
			for (int i = 0; i < 2; i++) {
				struct run_result *r = &x.runs[experiment_index(&x, s, w, 0, i)];

				/* value encodes its place: 100 s + 10 w + i */
				r->metric = (struct metric){ true, "", "", 100.0 * s + 10 * w + i, w == 1 };
				snprintf(r->metric.name, sizeof(r->metric.name), w ? "throughput" : "build_time");
				snprintf(r->metric.unit, sizeof(r->metric.unit), w ? "Gbit/s" : "s");
			}
	/* a run without a figure is left out of its cell */
	x.runs[experiment_index(&x, 1, 1, 0, 1)].metric.valid = false;
	experiment_table(&x, &t);
	ck_assert_int_eq(t.nrows, 2);
	ck_assert_int_eq(t.ncols, 2);
	ck_assert_str_eq(t.cols[1], "credit2:runqueue=core");
	ck_assert_str_eq(t.rows[1].workload, "iperf");
	ck_assert_str_eq(t.rows[1].dom0_load, "on");
	ck_assert_str_eq(t.rows[1].unit, "Gbit/s");
	ck_assert(t.rows[1].higher_better);
	ck_assert(!t.rows[0].higher_better);
	ck_assert_int_eq(report_cell(&t, 0, 1)->n, 2);
	ck_assert_double_eq(report_cell(&t, 0, 1)->values[0], 100);
	ck_assert_double_eq(report_cell(&t, 0, 1)->values[1], 101);
	ck_assert_double_eq(report_cell(&t, 1, 0)->values[1], 11);
	ck_assert_int_eq(report_cell(&t, 1, 1)->n, 1);
	ck_assert_str_eq(report_cell(&t, 1, 1)->scheduler, "credit2");
	ck_assert_str_eq(report_cell(&t, 1, 1)->label, "credit2:runqueue=core");
	ck_assert(report_cell(&t, 1, 1)->has_cmp);
	ck_assert(!report_cell(&t, 1, 0)->has_cmp);
	report_free(&t);
	experiment_free(&x);
}
END_TEST

static Suite *experiment_suite(void)
{
	Suite *s = suite_create("experiment");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_pack_roundtrip);
	tcase_add_test(tc, test_index_and_seeds);
	tcase_add_test(tc, test_table);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(experiment_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
