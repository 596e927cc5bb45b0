/*
 * Traces: the xentrace file read back word by word (window structure,
 * record headers, TSC order, the runstate story of every vCPU, which must
 * add up to the run's own figures), windows, the payload layouts of the
 * trace helpers (expected words worked out by hand from Xen's bit-field
 * structs), the CLI options, and that tracing does not change a run.
 * The real xenalyze and the Perfetto schema are checked by
 * tests/trace/xenalyze.sh and tests/trace/perfetto.sh.
 */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/run_suite.h"
#include "schedulers/sched.h"
#include "sim/experiment/build.h"
#include "sim/experiment/run.h"
#include "sim/input/scenario_load.h"
#include "sim/output/trace.h"
#include "tests/testlib.h"

static const char scenario_xml[] =
	"<scenario duration=\"1s\" seed=\"3\">"
	"<host sockets=\"1\" cores-per-socket=\"2\" threads-per-core=\"1\"/>"
	"<domain name=\"dom0\" vcpus=\"2\"><workload type=\"phases\">"
	"<phase run=\"exp:300us\" sleep=\"exp:1ms\"/></workload></domain>"
	"<domain name=\"hog\" vcpus=\"1\"><workload type=\"cpu-hog\"/></domain>"
	"</scenario>";

static void run(const char *sched, struct tracer *t, struct run_result *r)
{
	struct run_options o = { .check = true, .tracer = t };

	test_run(scenario_xml, sched, &o, r);
	ck_assert_str_eq(r->check_error, "");
}

static char *tmp_path(const char *name)
{
	static char buf[4][256];
	static int k;
	char *p = buf[k++ % 4];

	snprintf(p, 256, "/tmp/check_trace.%ld.%s", (long)getpid(), name);
	return p;
}

static uint32_t *slurp(const char *path, size_t *nwords)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b;
	uint32_t *w;
	long len;
	size_t i;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	ck_assert_int_eq(len % 4, 0);
	b = malloc((size_t)len + 1);
	ck_assert_int_eq(fread(b, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	w = malloc((size_t)len + 4);
	for (i = 0; i < (size_t)len / 4; i++)
		w[i] = b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
		       (uint32_t)b[4 * i + 3] << 24;
	free(b);
	*nwords = (size_t)len / 4;
	return w;
}

/* What reading a trace back tells about each vCPU (3 domains' worth of slots). */
#define MAXV 64
struct story {
	bool seen[MAXV];
	int state[MAXV];
	uint64_t since[MAXV], first_run[MAXV];
	uint64_t ns[MAXV][4];
	int running_on[8];          /* slot running on each pCPU, -1 none */
	uint64_t first_tsc, last_tsc;
	long records;
};

static int slot_of(uint32_t unit)
{
	unsigned dom = unit >> 16, v = unit & 0xffff;

	if (dom == DOMID_IDLE)
		return 48 + (int)v;
	ck_assert_uint_lt(dom * 8 + v, 48);
	return (int)(dom * 8 + v);
}

/*
 * Walks the file: windows, headers, TSC order, and every runstate record
 * checked against the vCPU's state so far, as xenalyze does.
 */
static void read_story(const char *path, int nr_cpus, struct story *st)
{
	size_t n, i = 0;
	uint32_t *w = slurp(path, &n);
	int last_cpu = -1, k;

	memset(st, 0, sizeof(*st));
	for (k = 0; k < 8; k++)
		st->running_on[k] = -1;
	ck_assert_uint_gt(n, 3);
	while (i < n) {
		uint32_t cpu, size;
		size_t end;

		ck_assert_uint_eq(w[i], TRC_TRACE_CPU_CHANGE | 2u << 28);
		cpu = w[i + 1];
		size = w[i + 2];
		ck_assert_uint_lt(cpu, (unsigned)nr_cpus);
		ck_assert_uint_eq(size % 4, 0);
		ck_assert_uint_gt(size, 0);
		end = i + 3 + size / 4;
		ck_assert_uint_le(end, n);
		for (i += 3; i < end;) {
			uint32_t hdr = w[i], ev = hdr & 0x0fffffff;
			int nd = (int)(hdr >> 28 & 7);
			uint64_t tsc;
			const uint32_t *d;

			ck_assert_msg(hdr >> 31, "record without TSC at word %zu", i);
			tsc = w[i + 1] | (uint64_t)w[i + 2] << 32;
			d = &w[i + 3];
			i += 3 + (size_t)nd;
			ck_assert_uint_le(i, end);
			if (!st->records++) {
				ck_assert_uint_ne(tsc, 0);
				st->first_tsc = tsc;
			}
			ck_assert_uint_ge(tsc, st->last_tsc);
			if ((int)cpu != last_cpu && last_cpu >= 0)
				ck_assert_uint_gt(tsc, st->last_tsc);
			st->last_tsc = tsc;
			last_cpu = (int)cpu;
			if ((ev & 0x0ffff00f) == TRC_SCHED_RUNSTATE_CHANGE ||
			    ev == TRC_SCHED_CONTINUE_RUNNING) {
				int s = slot_of(d[0]);
				int old = ev == TRC_SCHED_CONTINUE_RUNNING ? 0 : (int)(ev >> 8 & 0xf);
				int new = ev == TRC_SCHED_CONTINUE_RUNNING ? 0 : (int)(ev >> 4 & 0xf);

				ck_assert_int_eq(nd, 1);
				if (!st->seen[s]) {
					ck_assert_msg(old == RUNSTATE_RUNNABLE && new == RUNSTATE_RUNNING,
						      "first record of d%uv%u is %d->%d", d[0] >> 16,
						      d[0] & 0xffff, old, new);
					st->seen[s] = true;
					st->first_run[s] = tsc;
				} else {
					ck_assert_int_eq(old, st->state[s]);
					st->ns[s][old] += tsc - st->since[s];
				}
				if (old == RUNSTATE_RUNNING && new != RUNSTATE_RUNNING) {
					ck_assert_int_eq(st->running_on[cpu], s);
					st->running_on[cpu] = -1;
				}
				if (new == RUNSTATE_RUNNING && old != RUNSTATE_RUNNING) {
					ck_assert_int_eq(st->running_on[cpu], -1);
					st->running_on[cpu] = s;
				}
				st->state[s] = new;
				st->since[s] = tsc;
			}
		}
	}
	free(w);
}

START_TEST(xentrace_story_matches_the_run)
{
	const char *path = tmp_path("a.xt");
	struct err e = { "" };
	struct tracer *t = trace_xentrace_open(path, 0, -1, &e);
	struct run_result r;
	struct story st;
	uint64_t runnable = 0;
	int d, i, checked = 0;

	ck_assert_ptr_nonnull(t);
	run("credit2", t, &r);
	ck_assert_int_eq(trace_close(t, &e), 0);
	read_story(path, 2, &st);
	ck_assert_uint_eq(st.first_tsc, 1);   /* simulated ns 0, plus one */
	ck_assert_uint_ge(st.last_tsc, 1000000001ULL);
	ck_assert_uint_lt(st.last_tsc, 1000000001ULL + 1000);
	for (d = 0; d < r.ndoms; d++)
		for (i = 0; i < r.doms[d].nvcpus; i++) {
			const struct vcpu_result *v = &r.doms[d].vcpus[i];
			int s = slot_of(trc_pack16((unsigned)i, (unsigned)r.doms[d].domid));
			int64_t t1 = (int64_t)st.first_run[s] - 1;

			ck_assert(st.seen[s]);
			/* Everything from the first run on is in the trace, to the ns but for nudges. */
			ck_assert_int_le(llabs((long long)st.ns[s][0] - v->run_ns), 200);
			ck_assert_int_le(llabs((long long)(st.ns[s][1] + st.ns[s][2] + (uint64_t)t1) -
					       (v->runnable_ns + v->blocked_ns)), 200);
			runnable += st.ns[s][1];
			checked++;
		}
	ck_assert_int_eq(checked, 3);
	ck_assert_uint_gt(runnable, 0);   /* three vCPUs on two pCPUs do wait */
	/* The idle vCPUs are there from the start, on their own pCPUs. */
	ck_assert(st.seen[48] && st.seen[49]);
	ck_assert_uint_eq(st.first_run[48], 1);
	run_result_free(&r);
	unlink(path);
}
END_TEST

START_TEST(xentrace_window_spans_the_window)
{
	const char *path = tmp_path("w.xt");
	struct err e = { "" };
	struct tracer *t = trace_xentrace_open(path, 400000000, 700000000, &e);
	struct run_result r;
	struct story st;
	uint64_t running = 0;
	int s;

	ck_assert_ptr_nonnull(t);
	run("credit2", t, &r);
	ck_assert_int_eq(trace_close(t, &e), 0);
	read_story(path, 2, &st);
	ck_assert_uint_eq(st.first_tsc, 400000001ULL);
	ck_assert_uint_ge(st.last_tsc, 700000001ULL);
	ck_assert_uint_lt(st.last_tsc, 700000001ULL + 1000);
	/* Two pCPUs, each running something (a vCPU or its idle vCPU) all along. */
	for (s = 0; s < MAXV; s++)
		running += st.ns[s][0];
	ck_assert_int_le(llabs((long long)running - 2 * 300000000LL), 2000);
	run_result_free(&r);
	unlink(path);
}
END_TEST

START_TEST(tracing_does_not_change_the_run)
{
	const char *path = tmp_path("b.json");
	struct err e = { "" };
	struct tracer *t = trace_perfetto_open(path, 0, -1, &e);
	struct run_result a, b;
	int d, i;

	ck_assert_ptr_nonnull(t);
	run("credit2", NULL, &a);
	run("credit2", t, &b);
	ck_assert_int_eq(trace_close(t, &e), 0);
	ck_assert_int_eq(a.events, b.events);
	for (d = 0; d < a.ndoms; d++)
		for (i = 0; i < a.doms[d].nvcpus; i++) {
			ck_assert_int_eq(a.doms[d].vcpus[i].run_ns, b.doms[d].vcpus[i].run_ns);
			ck_assert_int_eq(a.doms[d].vcpus[i].blocked_ns, b.doms[d].vcpus[i].blocked_ns);
		}
	run_result_free(&a);
	run_result_free(&b);
	unlink(path);
}
END_TEST

/* A tracer that keeps the last record. */
struct capture {
	struct tracer t;
	int count, cpu, n;
	uint32_t event, d[8];
};

static void capture_record(struct tracer *t, int cpu, stime_t now, uint32_t event, int n,
			   const uint32_t *data)
{
	struct capture *c = (struct capture *)t;

	(void)now;
	c->count++;
	c->cpu = cpu;
	c->event = event;
	c->n = n;
	memcpy(c->d, data, (size_t)n * sizeof(*data));
}

START_TEST(helpers_write_xen_payloads)
{
	struct capture c = { { capture_record, NULL, NULL }, 0, 0, 0, 0, { 0 } };
	struct sim s;
	struct domain dom = { .domid = 2 };
	struct vcpu v = { .vcpu_id = 3, .dom = &dom, .processor = 1 };

	memset(&s, 0, sizeof(s));
	s.this_cpu = -1;
	/* Off: nothing is called. */
	trace_csched2_burn(&s, 0, &v, 1, 2, 3);
	trace_vcpu_event(&s, TRC_SCHED_WAKE, &v);
	ck_assert_int_eq(c.count, 0);
	s.tracer = &c.t;

	trace_vcpu_event(&s, TRC_SCHED_WAKE, &v);
	ck_assert_uint_eq(c.event, 0x00028004);
	ck_assert_int_eq(c.cpu, 1);            /* no pCPU runs code: v's own */
	ck_assert_int_eq(c.n, 2);
	ck_assert_uint_eq(c.d[0], 2);
	ck_assert_uint_eq(c.d[1], 3);
	s.this_cpu = 0;
	trace_vcpu_event(&s, TRC_SCHED_BLOCK, &v);
	ck_assert_uint_eq(c.event, 0x00028006);
	ck_assert_int_eq(c.cpu, 0);

	trace_csched2_burn(&s, 1, &v, -5, INT_MIN, 1000);
	ck_assert_uint_eq(c.event, 0x00022203);   /* CLASS | CSCHED2 << 9 | 3 */
	ck_assert_int_eq(c.n, 4);
	ck_assert_uint_eq(c.d[0], 0x00020003);    /* unit:16, dom:16 */
	ck_assert_uint_eq(c.d[1], 0xfffffffb);
	ck_assert_uint_eq(c.d[2], 0x80000000);
	ck_assert_uint_eq(c.d[3], 1000);

	trace_csched_schedule(&s, 5, false, true);
	ck_assert_uint_eq(c.event, 0x00022009);
	ck_assert_int_eq(c.n, 1);
	ck_assert_uint_eq(c.d[0], 0x01000005);    /* cpu:16, tasklet:8, idle:8 */

	trace_csched_tickle(&s, 0, 7);
	ck_assert_uint_eq(c.event, 0x00022006);
	ck_assert_uint_eq(c.d[0], 7);
	trace_csched2_tickle(&s, 0, 7);
	ck_assert_uint_eq(c.event, 0x00022206);

	trace_csched2_runq_load(&s, 0, 1, 3, 0x100000002ULL, 5, 18);
	ck_assert_uint_eq(c.event, 0x0002220c);
	ck_assert_int_eq(c.n, 5);
	ck_assert_uint_eq(c.d[0], 2);
	ck_assert_uint_eq(c.d[1], 1);
	ck_assert_uint_eq(c.d[2], 5);
	ck_assert_uint_eq(c.d[3], 0);
	ck_assert_uint_eq(c.d[4], 0x12010003);    /* load:16, rqi:8, shift:8 */

	trace_csched2_migrate(&s, 0, &v, 1, 4);
	ck_assert_uint_eq(c.event, 0x0002220f);
	ck_assert_uint_eq(c.d[1], 0x00040001);

	trace_csched2_schedule(&s, 3, 1, false, true, true, false);
	ck_assert_uint_eq(c.event, 0x00022215);
	ck_assert_uint_eq(c.d[0], 0x00010003);
	ck_assert_uint_eq(c.d[1], 0x00010100);

	trace_csched_stolen(&s, 0, 6, &v);
	ck_assert_uint_eq(c.event, 0x00022004);
	ck_assert_uint_eq(c.d[0], 6);
	ck_assert_uint_eq(c.d[1], 2);
	ck_assert_uint_eq(c.d[2], 3);
}
END_TEST

/*
 * Every scheduler helper once, through the real xentrace writer, into
 * $TRACE_HELPERS_OUT when set: tests/trace/xenalyze.sh has the real
 * xenalyze decode that file and looks for the values written here.
 */
START_TEST(helpers_through_the_writer)
{
	const char *out = getenv("TRACE_HELPERS_OUT");
	const char *path = out ? out : tmp_path("h.xt");
	struct scenario sc;
	struct err e = { "" };
	struct tracer *t = trace_xentrace_open(path, 0, -1, &e);
	struct sim *s;
	struct vcpu *v;
	size_t n;
	uint32_t *w;

	ck_assert_ptr_nonnull(t);
	s = test_build(&sc, scenario_xml, "null");
	v = s->domains[1]->vcpus[0];                 /* d1v0 */
	s->tracer = t;
	t->start(t, s);
	s->q.now = 1000;
	s->this_cpu = 0;
	trace_vcpu_event(s, TRC_SCHED_WAKE, v);
	trace_csched_tickle(s, 0, 1);
	trace_csched_picked_cpu(s, v, 1);
	trace_csched_account(s, true, v, 2);
	trace_csched_boost(s, true, v);
	trace_csched_stolen(s, 0, 1, v);
	trace_csched_steal_check(s, 0, 1, true);
	trace_csched_schedule(s, 0, false, true);
	trace_csched_ratelimit(s, 0, v, 250000);
	trace_csched2_runq_pos(s, 0, v, 2);
	trace_csched2_burn(s, 0, v, -5, INT_MIN, 1000);
	trace_csched2_tickle_check(s, 0, v, 42, 17);
	trace_csched2_tickle_new(s, 0, v, 42);
	trace_csched2_tickle(s, 0, 1);
	trace_csched2_credit_reset(s, 0, v, 5, 10000000);
	trace_csched2_runq_assign(s, 0, v, 1);
	trace_csched2_max_weight(s, 0, 1, 256);
	trace_csched2_runq_load(s, 0, 1, 3, 0x100000002ULL, 5, 18);
	trace_csched2_unit_load(s, 0, v, 262144, 18);
	trace_csched2_picked_cpu(s, 0, v, 9, 1, 1);
	trace_csched2_migrate(s, 0, v, 1, 4);
	trace_csched2_load_check(s, 0, 0, 1, 77);
	trace_csched2_load_balance(s, 0, 10, 20, 0, 1);
	trace_csched2_ratelimit(s, 0, v, 300000);
	trace_csched2_cand_check(s, 0, v);
	trace_csched2_candidate(s, 0, v, 1, 7);
	trace_csched2_schedule(s, 0, 1, false, true, true, false);
	s->q.now = 2000;
	t->stop(t, s);
	ck_assert_int_eq(trace_close(t, &e), 0);
	sim_destroy(s);
	scenario_free(&sc);
	/* 2 opening + 27 helper + 2 closing records, one window per pCPU run. */
	w = slurp(path, &n);
	ck_assert_uint_gt(n, 29 * 3);
	free(w);
	if (!out)
		unlink(path);
}
END_TEST

START_TEST(cli_options)
{
	struct trace_cli c = { 0 };
	struct err e = { "" };
	char dir[128], path[192];
	struct tracer *t;

	ck_assert_int_eq(trace_cli_option(&c, TRACE_OPT_WINDOW, "1s:1.5s", &e), 0);
	ck_assert_int_eq(c.from, 1000000000LL);
	ck_assert_int_eq(c.to, 1500000000LL);
	ck_assert_int_eq(trace_cli_check(&c, false, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "--trace-window needs --trace"));
	ck_assert_int_eq(trace_cli_option(&c, TRACE_OPT_WINDOW, "2s:1s", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "TO must be after FROM"));
	ck_assert_int_eq(trace_cli_option(&c, TRACE_OPT_WINDOW, "2s", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "FROM:TO"));
	ck_assert_int_eq(trace_cli_option(&c, TRACE_OPT_WINDOW, "1x:2s", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "--trace-window: FROM"));
	ck_assert_int_eq(trace_cli_option(&c, TRACE_OPT_FORMAT, "ctf", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "'ctf' is not valid"));

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(trace_cli_option(&c, TRACE_OPT_FILE, "run.json", &e), 0);
	ck_assert_int_eq(c.format, TRACE_PERFETTO);
	ck_assert_int_eq(trace_cli_option(&c, TRACE_OPT_FORMAT, "xentrace", &e), 0);
	ck_assert_int_eq(c.format, TRACE_XENTRACE);
	ck_assert_int_eq(trace_cli_check(&c, false, &e), 0);
	ck_assert_int_eq(trace_cli_check(&c, true, &e), -1);

	/* Several runs: FILE-N.EXT. */
	snprintf(dir, sizeof(dir), "/tmp/check_trace.%ld.d", (long)getpid());
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	snprintf(path, sizeof(path), "%s/t.xt", dir);
	c.path = path;
	t = trace_cli_open(&c, 1, 3, &e);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(trace_close(t, &e), 0);
	snprintf(path, sizeof(path), "%s/t-1.xt", dir);
	ck_assert_int_eq(access(path, F_OK), 0);
	unlink(path);
	snprintf(path, sizeof(path), "%s/none/t.xt", dir);
	c.path = path;
	ck_assert_ptr_null(trace_cli_open(&c, 0, 1, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "cannot write"));
	rmdir(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("trace");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, xentrace_story_matches_the_run);
	tcase_add_test(tc, xentrace_window_spans_the_window);
	tcase_add_test(tc, tracing_does_not_change_the_run);
	tcase_add_test(tc, helpers_write_xen_payloads);
	tcase_add_test(tc, helpers_through_the_writer);
	tcase_add_test(tc, cli_options);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
