/*
 * The experiment layer without running a simulation: the matrix order and
 * the paired seeds, the grouping of run figures into table cells, and the
 * byte encoding in which workers send results back and parts carry them:
 * a round trip keeps every field, the bytes of a small result are the ones
 * worked out by hand from the format (experiment.c), and every truncated
 * or bit-flipped encoding is refused without reading past its end (run
 * under --enable-sanitizers to have the reads checked).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "sim/experiment/experiment.h"
#include "sim/xalloc.h"

/* FNV-1a 64, written here from its definition, for the encoding's trailer. */
static uint64_t fnv(const unsigned char *p, size_t n)
{
	uint64_t h = 14695981039346656037ull;

	while (n--) {
		h ^= *p++;
		h *= 1099511628211ull;
	}
	return h;
}

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int k = 0; k < 8; k++)
		p[k] = (unsigned char)(v >> 8 * k);
}

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
	breakdown_init(&r->breakdown, 1000000000, 11000000000LL);
	breakdown_part(breakdown_stage(&r->breakdown, "client", "guest", 1), "run", 7);
	breakdown_part(&r->breakdown.stages[0], "blocked:window", 10000000000LL - 7);
	breakdown_part(breakdown_stage(&r->breakdown, "make", "guest", 8), "run", -3);
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
	ck_assert_int_eq(run_result_unpack(buf, len, &b, NULL), 0);
	ck_assert_str_eq(b.label, a.label);
	ck_assert_str_eq(b.dom0_load, "on");
	ck_assert_int_eq(b.iteration, 4);
	ck_assert(b.seed == a.seed);
	ck_assert(b.metric.value == a.metric.value);   /* bit for bit */
	ck_assert(b.metric.higher_better);
	ck_assert(b.breakdown.valid);
	ck_assert_int_eq(b.breakdown.to_ns, 11000000000LL);
	ck_assert_int_eq(b.breakdown.nstages, 2);
	ck_assert_str_eq(b.breakdown.stages[0].parts[1].name, "blocked:window");
	ck_assert_int_eq(b.breakdown.stages[0].parts[1].ns, 10000000000LL - 7);
	ck_assert_int_eq(b.breakdown.stages[1].tasks, 8);
	ck_assert_int_eq(b.breakdown.stages[1].parts[0].ns, -3);
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
		char *part = xmalloc(cut + 1);     /* exactly cut bytes to read */
		struct err e = { "" };

		memcpy(part, buf, cut);
		ck_assert_int_eq(run_result_unpack(part, cut, &b, &e), -1);
		ck_assert_ptr_null(b.doms);
		ck_assert(e.msg[0]);
		free(part);
	}
	/* and so is trailing garbage */
	buf = xreallocarray(buf, len + 1, 1);
	buf[len] = 0;
	ck_assert_int_eq(run_result_unpack(buf, len + 1, &b, NULL), -1);
	ck_assert_ptr_null(b.doms);
	free(buf);
	run_result_free(&a);
}
END_TEST

#define Z4 0, 0, 0, 0
#define Z8 Z4, Z4

/* The format, byte by byte, for a small result worked out by hand. */
START_TEST(test_pack_bytes)
{
	static const unsigned char want[] = {
		'S', 'S', 'R', 'R', 6, 0, 0, 0,                 /* magic, version 6 */
		2, 0, 0, 0, 'c', '2',                           /* scheduler */
		6, 0, 0, 0, 'c', '2', ':', 'x', '=', '1',       /* label */
		Z4,                                             /* host "" */
		Z4,                                             /* workload "" */
		2, 0, 0, 0, 'o', 'n',                           /* dom0_load */
		2, 0, 0, 0,                                     /* iteration */
		8, 7, 6, 5, 4, 3, 2, 1,                         /* seed */
		0xe8, 3, 0, 0, Z4,                              /* sim_ns 1000 */
		7, 0, 0, 0, Z4,                                 /* events */
		1, 1, 0, 0, 0, 't', 1, 0, 0, 0, 's',            /* metric: valid, name, unit */
		Z4, 0, 0, 0xf8, 0x3f, 1,                        /* 1.5, higher_better */
		1, 10, 0, 0, 0, Z4, 20, 0, 0, 0, Z4,            /* breakdown: valid, 10 to 20 */
		1, 0, 0, 0,                                     /* one stage */
		1, 0, 0, 0, 'c', 1, 0, 0, 0, 'g', 1, 0, 0, 0,   /* "c" in "g", 1 task */
		1, 0, 0, 0, 3, 0, 0, 0, 'r', 'u', 'n',          /* one part: "run" */
		10, 0, 0, 0, Z4,                                /* 10 ns */
		Z4,                                             /* check_error "" */
		1, 0, 0, 0,                                     /* ndoms */
		2, 0, 0, 0, 'd', '0', Z4, 0, 1, 0, 0, 50, 0, 0, 0, /* name, domid, weight 256, cap */
		0, Z4, Z4, Z8, 0,                               /* metric, all zero */
		32, 0, 0, 0, Z4,                                /* memory_mb 32 */
		1, 0, 0, 0, 1, 0, 0, 0,                         /* numa_nodes: 1 */
		1, 0, 0, 0,                                     /* nvcpus */
		Z4, 5, 0, 0, 0, Z4, Z8, Z8, Z8,                 /* id, run_ns 5, runnable, blocked, offline */
		1, 0, 0, 0, Z4, Z8, Z8, Z8,                     /* wakeups 1, p50, p95, p99 */
		0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* wake_max -2 */
		Z8, 3, 0, 0, 0, Z4, Z8,                         /* migrations, switches 3, soft */
		4, 0, 0, 0, Z4, 1, 0, 0, 0, Z4,                 /* deadlines 4, misses 1 */
		0x10, 0x27, 0, 0, Z4,                           /* worst miss 10000 */
		4, 0, 0, 0, Z4,                                 /* work_ns 4 */
		1, 0, 0, 0, Z4, Z8, Z8, 9, 0, 0, 0, Z4, Z8,     /* lost: smt 1, cstate 9, membw 0 */
		2, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0,             /* npcpus 2: 1 and 256 */
		1, 0, 0, 0, Z4, 5, 0, 0, 0, Z4, 5, 0, 0, 0, Z4, /* hist count 1, max 5, sum 5 */
		1, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, Z4,         /* one bucket: #5 holds 1 */
	};
	struct domain_result dom;
	struct vcpu_result vc;
	struct run_result r, back;
	uint64_t buckets[HIST_BUCKETS] = { 0 };
	int pcpus[2] = { 1, 256 }, nodes[1] = { 1 };
	char *buf, *again;
	size_t len, len2;

	/* the checksum as its definition's test vector has it */
	ck_assert(fnv((const unsigned char *)"a", 1) == 0xaf63dc4c8601ec8cull);
	memset(&r, 0, sizeof(r));
	memset(&dom, 0, sizeof(dom));
	memset(&vc, 0, sizeof(vc));
	strcpy(r.scheduler, "c2");
	strcpy(r.label, "c2:x=1");
	strcpy(r.dom0_load, "on");
	r.iteration = 2;
	r.seed = 0x0102030405060708ull;
	r.sim_ns = 1000;
	r.events = 7;
	r.metric.valid = true;
	strcpy(r.metric.name, "t");
	strcpy(r.metric.unit, "s");
	r.metric.value = 1.5;
	r.metric.higher_better = true;
	breakdown_init(&r.breakdown, 10, 20);
	breakdown_part(breakdown_stage(&r.breakdown, "c", "g", 1), "run", 10);
	strcpy(r.label + 7, "junk after the NUL, not sent");
	r.ndoms = 1;
	r.doms = &dom;
	strcpy(dom.name, "d0");
	dom.weight = 256;
	dom.cap = 50;
	dom.nvcpus = 1;
	dom.vcpus = &vc;
	dom.memory_mb = 32;
	dom.numa_nodes = nodes;
	dom.nnuma_nodes = 1;
	vc.run_ns = 5;
	vc.work_ns = 4;
	vc.lost_ns[HW_LOST_SMT] = 1;
	vc.lost_ns[HW_LOST_CSTATE] = 9;
	vc.wakeups = 1;
	vc.wake_max = -2;
	vc.context_switches = 3;
	vc.deadlines = 4;
	vc.deadline_misses = 1;
	vc.deadline_worst_miss_ns = 10000;
	vc.npcpus = 2;
	vc.pcpus = pcpus;
	buckets[5] = 1;
	vc.wake_latency = (struct hist){ 1, 5, 5, buckets };
	run_result_pack(&r, &buf, &len);
	ck_assert_uint_eq(len, sizeof(want) + 8);
	ck_assert(memcmp(buf, want, sizeof(want)) == 0);
	for (size_t k = 0; k < sizeof(want); k++)
		ck_assert_msg((unsigned char)buf[k] == want[k], "byte %zu", k);
	{
		unsigned char sum[8];

		put_le64(sum, fnv(want, sizeof(want)));
		ck_assert(memcmp(buf + sizeof(want), sum, 8) == 0);
	}
	/* the same figures at other addresses are the same bytes */
	ck_assert_int_eq(run_result_unpack(buf, len, &back, NULL), 0);
	ck_assert_int_eq(back.doms[0].vcpus[0].pcpus[1], 256);
	ck_assert_int_eq(back.doms[0].vcpus[0].wake_max, -2);
	ck_assert_uint_eq(back.doms[0].vcpus[0].deadlines, 4);
	ck_assert_uint_eq(back.doms[0].vcpus[0].deadline_misses, 1);
	ck_assert_uint_eq(back.doms[0].vcpus[0].wake_latency.buckets[5], 1);
	ck_assert_int_eq(back.doms[0].numa_nodes[0], 1);
	ck_assert(back.doms[0].vcpus[0].lost_ns[HW_LOST_CSTATE] == 9);
	run_result_pack(&back, &again, &len2);
	ck_assert_uint_eq(len2, len);
	ck_assert(memcmp(again, buf, len) == 0);
	run_result_free(&back);
	free(again);
	/* another version is named as such */
	{
		struct err e = { "" };

		buf[4] = 2;
		put_le64((unsigned char *)buf + len - 8, fnv((unsigned char *)buf, len - 8));
		ck_assert_int_eq(run_result_unpack(buf, len, &back, &e), -1);
		ck_assert_msg(strstr(e.msg, "encoding version 2, this schedsim reads 6"), "%s", e.msg);
	}
	free(buf);
}
END_TEST

/* Unpacks a copy of exactly len bytes; a result must re-encode to them. */
static int try_unpack(const unsigned char *p, size_t len)
{
	char *copy = xmalloc(len + 1), *again;
	struct run_result r;
	struct err e = { "" };
	size_t len2;
	int rc;

	memcpy(copy, p, len);
	rc = run_result_unpack(copy, len, &r, &e);
	if (rc) {
		ck_assert_ptr_null(r.doms);
		ck_assert_int_eq(r.ndoms, 0);
		ck_assert_msg(e.msg[0] && !strchr(e.msg, '\n'), "message '%s'", e.msg);
	} else {
		run_result_pack(&r, &again, &len2);
		ck_assert_uint_eq(len2, len);
		ck_assert(memcmp(again, p, len) == 0);
		free(again);
		run_result_free(&r);
	}
	free(copy);
	return rc;
}

/*
 * Damage: every single bit flipped is caught by the checksum; with the
 * checksum made right again (damage the checksum cannot see), the decoder
 * must still refuse every broken structure without reading out of bounds,
 * and whatever it accepts must be a faithful encoding.
 */
START_TEST(test_unpack_damage)
{
	struct run_result a;
	unsigned char *buf, *m;
	size_t len;
	int refused = 0, accepted = 0;

	fake_run(&a, 3);
	snprintf(a.check_error, sizeof(a.check_error), "d1v0 ran on two pCPUs");
	run_result_pack(&a, (char **)&buf, &len);
	run_result_free(&a);
	m = xmalloc(len);
	for (size_t bit = 0; bit < 8 * len; bit++) {
		memcpy(m, buf, len);
		m[bit / 8] ^= (unsigned char)(1u << bit % 8);
		ck_assert_int_eq(try_unpack(m, len), -1);
		if (bit / 8 >= len - 8)
			continue;
		put_le64(m + len - 8, fnv(m, len - 8));
		if (try_unpack(m, len))
			refused++;
		else
			accepted++;
	}
	/* counts, lengths, flags and bucket indices are checked; figures are not */
	ck_assert_int_gt(refused, 100);
	ck_assert_int_gt(accepted, 100);
	/* a body cut anywhere, with a checksum of its own, is refused */
	for (size_t cut = 0; cut < len - 8; cut++) {
		memcpy(m, buf, cut);
		put_le64(m + cut, fnv(m, cut));
		ck_assert_int_eq(try_unpack(m, cut + 8), -1);
	}
	/* huge counts and lengths (0xffffffff) anywhere, with a right checksum */
	refused = 0;
	for (size_t at = 0; at + 4 <= len - 8; at++) {
		memcpy(m, buf, len);
		memset(m + at, 0xff, 4);
		put_le64(m + len - 8, fnv(m, len - 8));
		refused += try_unpack(m, len) != 0;
	}
	ck_assert_int_gt(refused, 50);
	free(m);
	free(buf);
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

	/*
	 * The damage test decodes every one-bit damage of a result, quadratic
	 * in its size (a breakdown and per-vCPU work and lost time): under
	 * distcheck's sanitizers on a loaded 2-core machine that outlasts
	 * Check's default 4 s by far.
	 */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_pack_roundtrip);
	tcase_add_test(tc, test_pack_bytes);
	tcase_add_test(tc, test_unpack_damage);
	tcase_add_test(tc, test_index_and_seeds);
	tcase_add_test(tc, test_table);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(experiment_suite());
}
