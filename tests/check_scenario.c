/*
 * Scenario loading.  Good files must put every attribute into the struct;
 * bad files (tests/data/scenarios/) must fail with exactly one line naming
 * file:line and the problem, print nothing, and leave an empty scenario.
 * The hostile inputs (entity bomb, external entity, a 17 MiB file, bad
 * UTF-8) are here too, and so is the promise that one process can load
 * many files in a row without libxml2 state leaking from one to the next.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/xmlerror.h>

#include "tests/run_suite.h"
#include "sim/input/scenario_load.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define DATA TESTS_SRCDIR "/data/scenarios/"

static struct scenario load_ok(const char *name)
{
	struct scenario sc;
	struct err e;
	char path[512];

	snprintf(path, sizeof(path), DATA "%s", name);
	ck_assert_msg(scenario_load_file(path, &sc, &e) == 0, "%s", e.msg);
	return sc;
}

START_TEST(test_full)
{
	struct scenario sc = load_ok("full.xml");
	struct domain_spec *d;
	struct workload_spec *w;

	ck_assert_str_eq(sc.source, DATA "full.xml");
	ck_assert(sc.duration == MSEC(2500));
	ck_assert(sc.seed == UINT64_MAX);
	ck_assert_int_eq(sc.line, 3);
	ck_assert_int_eq(sc.host.sockets, 2);
	ck_assert_int_eq(sc.host.cores_per_socket, 4);
	ck_assert_int_eq(sc.host.threads_per_core, 2);
	ck_assert_int_eq(sc.host.nodes, 2);
	ck_assert(sc.host.ipi_latency == 1500);
	ck_assert(sc.host.context_switch == USEC(3));
	ck_assert_int_eq(sc.host.line, 4);     /* where the start tag begins */
	ck_assert_int_eq(sc.ndoms, 2);

	d = &sc.doms[0];
	ck_assert_str_eq(d->name, "dom0");
	ck_assert_int_eq(d->vcpus, 16);
	ck_assert_int_eq(d->weight, 512);
	ck_assert_int_eq(d->cap, 150);
	ck_assert_int_eq(d->line, 6);
	ck_assert_str_eq(d->hard, "all");
	ck_assert_str_eq(d->soft, "nodes:0");
	ck_assert_int_eq(d->affinity_line, 7);
	ck_assert_int_eq(d->nvcpu_over, 2);
	ck_assert_int_eq(d->vcpu_over[0].id, 3);
	ck_assert_str_eq(d->vcpu_over[0].hard, "3");
	ck_assert_ptr_null(d->vcpu_over[0].soft);
	ck_assert_int_eq(d->vcpu_over[0].line, 8);
	ck_assert_int_eq(d->vcpu_over[1].id, 15);
	ck_assert_ptr_null(d->vcpu_over[1].hard);
	ck_assert_str_eq(d->vcpu_over[1].soft, "8-15");
	ck_assert_int_eq(d->vcpu_over[1].line, 9);
	ck_assert_int_eq(d->nworkloads, 1);
	w = &d->workloads[0];
	ck_assert_str_eq(w->type, "phases");
	ck_assert_int_eq(w->line, 10);
	ck_assert_int_eq(w->params.n, 2);
	ck_assert_str_eq(w->params.v[0].key, "tasks");
	ck_assert_str_eq(w->params.v[0].value, "2");
	ck_assert_int_eq(w->params.v[0].line, 10);
	ck_assert_str_eq(w->params.v[1].key, "nice");
	ck_assert_str_eq(w->params.v[1].value, "-5");
	ck_assert_int_eq(w->nphases, 3);
	ck_assert(w->phases[0].run.kind == DIST_CONST && w->phases[0].run.a == USEC(200));
	ck_assert(w->phases[0].sleep.kind == DIST_CONST && w->phases[0].sleep.a == MSEC(5));
	ck_assert_int_eq(w->phases[0].line, 11);
	ck_assert(w->phases[1].run.kind == DIST_UNIFORM && w->phases[1].run.a == MSEC(1) &&
		  w->phases[1].run.b == MSEC(3));
	ck_assert(w->phases[1].sleep.kind == DIST_EXP && w->phases[1].sleep.a == MSEC(2));
	ck_assert(w->phases[2].run.kind == DIST_LOGNORMAL && w->phases[2].run.a == MSEC(4));
	ck_assert_double_eq(w->phases[2].run.sigma, 0.5);
	/* no sleep: a constant 0 */
	ck_assert(w->phases[2].sleep.kind == DIST_CONST && w->phases[2].sleep.a == 0);
	ck_assert_int_eq(w->phases[2].line, 13);

	d = &sc.doms[1];
	ck_assert_str_eq(d->name, "guest.1");
	ck_assert_int_eq(d->vcpus, 8);
	ck_assert_int_eq(d->weight, 256);
	ck_assert_int_eq(d->cap, 0);
	ck_assert_ptr_null(d->hard);
	ck_assert_str_eq(d->soft, "^0-1");
	ck_assert_int_eq(d->affinity_line, 18);
	ck_assert_int_eq(d->nvcpu_over, 0);
	ck_assert_int_eq(d->nworkloads, 2);
	ck_assert_str_eq(d->workloads[0].type, "cpu-hog");
	ck_assert_int_eq(d->workloads[0].params.n, 0);
	ck_assert_int_eq(d->workloads[0].nphases, 0);
	ck_assert_str_eq(d->workloads[1].type, "iperf");
	ck_assert_str_eq(kvlist_get(&d->workloads[1].params, "rate"), "10");
	ck_assert_int_eq(d->workloads[1].params.v[0].line, 19);

	ck_assert_ptr_eq(scenario_domain(&sc, "guest.1"), &sc.doms[1]);
	ck_assert_ptr_null(scenario_domain(&sc, "guest"));
	scenario_free(&sc);
	ck_assert_int_eq(sc.ndoms, 0);
	ck_assert_ptr_null(sc.doms);
}
END_TEST

START_TEST(test_minimal_defaults)
{
	struct scenario sc = load_ok("minimal.xml");

	ck_assert(sc.duration == SEC(10));
	ck_assert(sc.seed == 1);
	ck_assert_int_eq(sc.host.sockets, 1);
	ck_assert_int_eq(sc.host.cores_per_socket, 1);
	ck_assert_int_eq(sc.host.threads_per_core, 1);
	ck_assert_int_eq(sc.host.nodes, 1);
	ck_assert(sc.host.ipi_latency == USEC(1));
	ck_assert(sc.host.context_switch == USEC(2));
	ck_assert_int_eq(sc.host.line, 0);
	ck_assert_int_eq(sc.ndoms, 1);
	ck_assert_str_eq(sc.doms[0].name, "d");
	ck_assert_int_eq(sc.doms[0].vcpus, 1);
	ck_assert_int_eq(sc.doms[0].weight, 256);
	ck_assert_int_eq(sc.doms[0].cap, 0);
	ck_assert_ptr_null(sc.doms[0].hard);
	ck_assert_ptr_null(sc.doms[0].soft);
	ck_assert_int_eq(sc.doms[0].affinity_line, 0);
	ck_assert_int_eq(sc.doms[0].nworkloads, 0);
	ck_assert_int_eq(sc.doms[0].line, 2);
	scenario_free(&sc);
}
END_TEST

START_TEST(test_default)
{
	struct scenario sc;
	struct err e;
	struct phase_spec *p;

	ck_assert_msg(scenario_load_default(&sc, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(sc.source, "<default>");
	ck_assert(sc.duration == SEC(10));
	ck_assert(sc.seed == 1);
	ck_assert_int_eq(sc.host.sockets * sc.host.cores_per_socket * sc.host.threads_per_core, 16);
	ck_assert_int_eq(sc.host.sockets, 2);
	ck_assert_int_eq(sc.host.cores_per_socket, 4);
	ck_assert_int_eq(sc.host.threads_per_core, 2);
	ck_assert_int_eq(sc.host.nodes, 2);
	ck_assert_int_eq(sc.ndoms, 2);
	ck_assert_str_eq(sc.doms[0].name, "dom0");
	ck_assert_int_eq(sc.doms[0].vcpus, 16);
	ck_assert_int_eq(sc.doms[0].nworkloads, 1);
	ck_assert_str_eq(sc.doms[0].workloads[0].type, "phases");
	ck_assert_int_eq(sc.doms[0].workloads[0].nphases, 1);
	p = &sc.doms[0].workloads[0].phases[0];
	ck_assert(p->run.kind == DIST_CONST && p->run.a == USEC(200));
	ck_assert(p->sleep.kind == DIST_CONST && p->sleep.a == MSEC(5));
	ck_assert_str_eq(sc.doms[1].name, "guest");
	ck_assert_int_eq(sc.doms[1].vcpus, 8);
	ck_assert_str_eq(sc.doms[1].workloads[0].type, "cpu-hog");
	scenario_free(&sc);
}
END_TEST

static const struct bad {
	const char *file;
	int line;
	const char *msg;
} bad[] = {
	{ "malformed.xml", 3, "Opening and ending tag mismatch: domain line 2 and domian" },
	{ "truncated.xml", 4, "Premature end of data in tag domain line 3" },
	{ "unknown-element.xml", 3, "unknown element <domian> in <scenario> (valid: host, pool, domain, arinc653)" },
	{ "unknown-element-domain.xml", 4, "unknown element <workloads> in <domain> (valid: affinity, vcpu, workload)" },
	{ "workload-unknown-child.xml", 3, "unknown element <step> in <workload> (valid: phase)" },
	{ "unknown-attr-host.xml", 2, "unknown attribute 'sockts' on <host> (valid: sockets, cores-per-socket, threads-per-core, nodes, lscpu, xl-info, ipi-latency, context-switch, hw, l2-size, llc-size, llc-bandwidth, memory-bandwidth, socket-memory-bandwidth, memory-per-node, remote-penalty, cstates, max-cstate, autoballoon, smt)" },
	{ "unknown-attr-domain.xml", 3, "unknown attribute 'vcpu' on <domain> (valid: name, xl, vcpus, weight, cap, memory, numa-nodes, period, budget, extratime, pool, type, kernel, llc)" },
	{ "affinity-unknown-attr.xml", 3, "unknown attribute 'sfot' on <affinity> (valid: hard, soft)" },
	{ "domain-ns-attr.xml", 2, "unknown attribute 'x:vcpus' on <domain> (valid: name, xl, vcpus, weight, cap, memory, numa-nodes, period, budget, extratime, pool, type, kernel, llc)" },
	{ "workload-ns-attr.xml", 3, "unknown attribute 'xml:lang' on <workload> (parameters have no namespace)" },
	{ "missing-name.xml", 3, "<domain> is missing the required attribute 'name'" },
	{ "name-empty.xml", 2, "<domain> name: '' is not a valid name (1 to 63 letters, digits, '_', '-', '.')" },
	{ "name-space.xml", 2, "<domain> name: 'a b' is not a valid name (1 to 63 letters, digits, '_', '-', '.')" },
	{ "vcpus-zero.xml", 2, "<domain> vcpus: '0' is out of range 1..4096" },
	{ "vcpus-negative.xml", 2, "<domain> vcpus: '-3' is out of range 1..4096" },
	{ "vcpus-overflow.xml", 2, "<domain> vcpus: '99999999999999999999' is out of range 1..4096" },
	{ "vcpus-too-many.xml", 2, "<domain> vcpus: '4097' is out of range 1..4096" },
	{ "vcpus-text.xml", 2, "<domain> vcpus: 'two' is not an integer" },
	{ "weight-zero.xml", 2, "<domain> weight: '0' is out of range 1..65535" },
	{ "weight-too-big.xml", 2, "<domain> weight: '65536' is out of range 1..65535" },
	{ "cap-too-big.xml", 2, "<domain> cap: '201' is out of range 0..200" },
	{ "duration-zero.xml", 2, "<scenario> duration: '0s' is out of range 1ns..1000000s" },
	{ "duration-negative.xml", 2, "<scenario> duration: '-5ms': a duration cannot be negative" },
	{ "duration-overflow.xml", 2, "<scenario> duration: '9300000000s' is too large (the limit is 9223372036854775807ns, about 292 years)" },
	{ "duration-unit.xml", 2, "<scenario> duration: '10min': unknown unit 'min' (valid units: ns, us, ms, s)" },
	{ "seed-negative.xml", 1, "<scenario> seed: '-1' is not a non-negative integer" },
	{ "seed-overflow.xml", 1, "<scenario> seed: '18446744073709551616' is out of range 0..18446744073709551615" },
	{ "host-ipi-too-long.xml", 2, "<host> ipi-latency: '2s' is out of range 0s..1s" },
	{ "host-too-many-pcpus.xml", 2, "<host> has 131072 pCPUs, more than the 65536 supported" },
	{ "host-zero-nodes.xml", 2, "<host> nodes: '0' is out of range 1..65536" },
	{ "host-twice.xml", 4, "second <host> (the first is at line 2)" },
	{ "duplicate-domain.xml", 4, "duplicate domain name 'web' (the first is at line 2)" },
	{ "vcpu-id-range.xml", 3, "<vcpu> id: '4' is out of range 0..3" },
	{ "vcpu-id-twice.xml", 4, "duplicate <vcpu id=\"1\"> in domain 'a' (the first is at line 3)" },
	{ "vcpu-no-id.xml", 3, "<vcpu> is missing the required attribute 'id'" },
	{ "affinity-twice.xml", 4, "second <affinity> in domain 'a' (the first is at line 3)" },
	{ "workload-no-type.xml", 3, "<workload> is missing the required attribute 'type'" },
	{ "phase-no-run.xml", 4, "<phase> is missing the required attribute 'run'" },
	{ "phase-bad-dist.xml", 5, "<phase> run: 'gauss:1ms': unknown distribution 'gauss' (const:T, uniform:T:T, exp:T, lognormal:T:SIGMA or T)" },
	{ "phase-uniform-backwards.xml", 4, "<phase> run: 'uniform:5ms:1ms': the lower bound is above the upper bound" },
	{ "text.xml", 4, "unexpected text in <domain>" },
	{ "wrong-root.xml", 1, "the root element is <config>, expected <scenario>" },
	{ "namespace.xml", 1, "the root element is in namespace 'urn:schedsim' (scenario files use none)" },
	{ "no-domain.xml", 1, "<scenario> has no <domain>" },
	{ "billion-laughs.xml", 2, "DOCTYPE not allowed (scenario files take no DTD and no entities)" },
	{ "external-entity.xml", 3, "DOCTYPE not allowed (scenario files take no DTD and no entities)" },
	{ "external-dtd.xml", 2, "DOCTYPE not allowed (scenario files take no DTD and no entities)" },
	{ "undefined-entity.xml", 2, "Entity 'undefined' not defined" },
	{ "bad-utf8.xml", 3, "Input is not proper UTF-8, indicate encoding ! Bytes: 0xC3 0x28 0x22 0x2F" },
	{ "empty.xml", 1, "empty file" },
	{ "too-many-attrs.xml", 3, "more than 256 attributes on one element" },
	{ "too-many-params.xml", 3, "more than 32 parameters on <workload>" },
};

static void expect_bad(const struct bad *b)
{
	char path[512], want[1024];
	struct scenario sc;
	struct err e = { "" };

	snprintf(path, sizeof(path), DATA "%s", b->file);
	snprintf(want, sizeof(want), "%s:%d: %s", path, b->line, b->msg);
	ck_assert_msg(scenario_load_file(path, &sc, &e) == -1, "%s loaded", b->file);
	ck_assert_str_eq(e.msg, want);
	ck_assert(strchr(e.msg, '\n') == NULL);
	ck_assert_int_eq(sc.ndoms, 0);
	ck_assert_ptr_null(sc.doms);
}

START_TEST(test_bad)
{
	expect_bad(&bad[_i]);
}
END_TEST

/* Nothing reaches stderr, whatever the file. */
START_TEST(test_silent)
{
	char tmpl[] = "/tmp/check_scenario_XXXXXX";
	int fd = mkstemp(tmpl), saved = dup(2);
	struct scenario sc;
	struct err e;
	struct stat st;

	ck_assert(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, 2);
	for (int i = 0; i < N(bad); i++) {
		char path[512];

		snprintf(path, sizeof(path), DATA "%s", bad[i].file);
		scenario_load_file(path, &sc, &e);
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ck_assert_int_eq(fstat(fd, &st), 0);
	close(fd);
	unlink(tmpl);
	ck_assert_int_eq((int)st.st_size, 0);
}
END_TEST

static int handler_calls;

static void count_serror(void *data, xmlErrorPtr err)
{
	handler_calls++;
}

/*
 * Loads interleaved: a bad load leaves nothing behind that changes the next
 * one, and the caller's own libxml2 handlers are neither called nor lost.
 */
START_TEST(test_repeated_loads)
{
	static const char *const files[] = { "billion-laughs.xml", "full.xml", "malformed.xml",
					     "bad-utf8.xml", "full.xml", "truncated.xml" };
	struct scenario first, sc;
	struct err e;
	char path[512];

	xmlSetStructuredErrorFunc(NULL, count_serror);
	first = load_ok("full.xml");
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < N(files); i++) {
			snprintf(path, sizeof(path), DATA "%s", files[i]);
			if (strcmp(files[i], "full.xml") != 0) {
				ck_assert_int_eq(scenario_load_file(path, &sc, &e), -1);
				continue;
			}
			ck_assert_int_eq(scenario_load_file(path, &sc, &e), 0);
			ck_assert_int_eq(sc.ndoms, first.ndoms);
			ck_assert_int_eq(sc.doms[0].workloads[0].nphases, 3);
			ck_assert(sc.doms[0].workloads[0].phases[2].run.sigma == 0.5);
			scenario_free(&sc);
		}
	}
	ck_assert_int_eq(scenario_load_file(DATA "truncated.xml", &sc, &e), -1);
	ck_assert_str_eq(e.msg, DATA "truncated.xml:4: Premature end of data in tag domain line 3");
	ck_assert_ptr_eq((void *)xmlStructuredError, (void *)count_serror);
	ck_assert_int_eq(handler_calls, 0);
	xmlSetStructuredErrorFunc(NULL, NULL);
	scenario_free(&first);
}
END_TEST

START_TEST(test_copy)
{
	struct scenario a = load_ok("full.xml"), b;

	scenario_copy(&b, &a);
	/* the copy owns everything: freeing the original leaves it whole */
	scenario_free(&a);
	ck_assert_int_eq(b.ndoms, 2);
	ck_assert_str_eq(b.doms[0].hard, "all");
	ck_assert_str_eq(b.doms[0].vcpu_over[1].soft, "8-15");
	ck_assert_str_eq(b.doms[0].workloads[0].params.v[1].value, "-5");
	ck_assert(b.doms[0].workloads[0].phases[1].sleep.a == MSEC(2));
	ck_assert_str_eq(b.doms[1].workloads[1].type, "iperf");
	ck_assert(b.host.ipi_latency == 1500);
	ck_assert_ptr_eq(scenario_domain(&b, "dom0"), &b.doms[0]);
	scenario_free(&b);
}
END_TEST

static char *tmpdir(void)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/check_scenario_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

/* Writes a valid scenario padded with blank lines to exactly 'size' bytes. */
static void write_padded(const char *path, long size)
{
	static const char head[] = "<scenario>\n  <domain name=\"a\"/>\n";
	static const char tail[] = "</scenario>\n";
	FILE *f = fopen(path, "w");
	long pad = size - (long)strlen(head) - (long)strlen(tail);

	ck_assert_ptr_nonnull(f);
	fputs(head, f);
	for (long i = 0; i < pad; i++)
		fputc(i % 64 == 63 ? '\n' : ' ', f);
	fputs(tail, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* RTDS parameters per domain and per vCPU, and the ARINC 653 schedule, survive a copy. */
START_TEST(test_rt_and_arinc653)
{
	static const char xml[] =
		"<scenario>\n"
		"  <domain name=\"a\" vcpus=\"2\" period=\"20ms\" budget=\"5ms\" extratime=\"no\">\n"
		"    <vcpu id=\"1\" budget=\"7ms\" extratime=\"yes\"/>\n"
		"  </domain>\n"
		"  <arinc653>\n"
		"    <minor-frame domain=\"b\" runtime=\"2ms\"/>\n"
		"    <minor-frame domain=\"a\" vcpu=\"1\" runtime=\"1.5ms\"/>\n"
		"  </arinc653>\n"
		"  <domain name=\"b\"/>\n"
		"</scenario>\n";
	struct scenario sc, copy;
	struct err e;

	ck_assert_msg(scenario_load_memory(xml, (int)strlen(xml), "rt.xml", &sc, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(sc.doms[0].rt.period, MSEC(20));
	ck_assert_int_eq(sc.doms[0].rt.budget, MSEC(5));
	ck_assert_int_eq(sc.doms[0].rt.extratime, RT_EXTRATIME_OFF);
	ck_assert_int_eq(sc.doms[0].vcpu_over[0].rt.period, 0);
	ck_assert_int_eq(sc.doms[0].vcpu_over[0].rt.budget, MSEC(7));
	ck_assert_int_eq(sc.doms[0].vcpu_over[0].rt.extratime, RT_EXTRATIME_ON);
	ck_assert_int_eq(sc.doms[1].rt.period, 0);
	ck_assert_int_eq(sc.doms[1].rt.extratime, RT_EXTRATIME_DEFAULT);
	ck_assert_int_eq(sc.arinc653.line, 5);
	ck_assert_int_eq(sc.arinc653.major_frame, 0);        /* not given: the sum */
	ck_assert_int_eq(sc.arinc653.nframes, 2);
	ck_assert_str_eq(sc.arinc653.frames[0].domain, "b");
	ck_assert_int_eq(sc.arinc653.frames[0].vcpu, 0);
	ck_assert_int_eq(sc.arinc653.frames[1].vcpu, 1);
	ck_assert_int_eq(sc.arinc653.frames[1].runtime, USEC(1500));
	ck_assert_int_eq(sc.arinc653.frames[1].line, 7);
	scenario_copy(&copy, &sc);
	scenario_free(&sc);
	ck_assert_int_eq(copy.arinc653.nframes, 2);
	ck_assert_str_eq(copy.arinc653.frames[1].domain, "a");
	ck_assert_int_eq(copy.doms[0].vcpu_over[0].rt.budget, MSEC(7));
	scenario_free(&copy);
	ck_assert_ptr_null(copy.arinc653.frames);
	ck_assert_int_eq(copy.arinc653.line, 0);
}
END_TEST

START_TEST(test_size_limit)
{
	char *dir = tmpdir(), path[128], want[256];
	struct scenario sc;
	struct err e;

	snprintf(path, sizeof(path), "%s/big.xml", dir);
	write_padded(path, 17L << 20);
	ck_assert_int_eq(scenario_load_file(path, &sc, &e), -1);
	snprintf(want, sizeof(want),
		 "%s: too large (17825792 bytes; scenario files are limited to 16 MiB)", path);
	ck_assert_str_eq(e.msg, want);

	/* one byte over the limit fails, the limit itself loads */
	write_padded(path, (16L << 20) + 1);
	ck_assert_int_eq(scenario_load_file(path, &sc, &e), -1);
	ck_assert(strstr(e.msg, "too large (16777217 bytes;") != NULL);
	write_padded(path, 16L << 20);
	ck_assert_msg(scenario_load_file(path, &sc, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(sc.doms[0].name, "a");
	scenario_free(&sc);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* Past line 65535 libxml2 only guesses element lines; ours stay exact. */
START_TEST(test_big_line_numbers)
{
	char *dir = tmpdir(), path[128], want[256];
	struct scenario sc;
	struct err e;
	FILE *f;

	snprintf(path, sizeof(path), "%s/lines.xml", dir);
	f = fopen(path, "w");
	fputs("<scenario>\n  <domain name=\"a\"/>\n", f);
	for (int i = 0; i < 70000; i++)
		fputc('\n', f);
	fputs("  <domain name=\"a\"/>\n</scenario>\n", f);
	fclose(f);
	ck_assert_int_eq(scenario_load_file(path, &sc, &e), -1);
	snprintf(want, sizeof(want), "%s:70003: duplicate domain name 'a' (the first is at line 2)",
		 path);
	ck_assert_str_eq(e.msg, want);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_io_errors)
{
	struct scenario sc;
	struct err e;
	char big[64];

	ck_assert_int_eq(scenario_load_file("/nonexistent/s.xml", &sc, &e), -1);
	ck_assert_str_eq(e.msg, "/nonexistent/s.xml: cannot open: No such file or directory");
	ck_assert_int_eq(scenario_load_file(TESTS_SRCDIR "/data", &sc, &e), -1);
	ck_assert_str_eq(e.msg, TESTS_SRCDIR "/data: is a directory");
	ck_assert_int_eq(scenario_load_memory(big, 0, "mem", &sc, &e), -1);
	ck_assert_str_eq(e.msg, "mem:1: empty file");
	ck_assert_int_eq(scenario_load_memory(big, SCENARIO_MAX_FILE + 1, "mem", &sc, &e), -1);
	ck_assert_str_eq(e.msg, "mem: too large (16777217 bytes; scenario files are limited to 16 MiB)");
}
END_TEST

START_TEST(test_memory)
{
	static const char xml[] =
		"<scenario seed=\"42\">\n"
		"  <domain name=\"x\" vcpus=\"3\" cap=\"300\">\n"
		"    <workload type=\"phases\"><phase run=\"1ms\" sleep=\"lognormal:9ms:1.25\"/></workload>\n"
		"  </domain>\n"
		"</scenario>\n";
	static const char dup[] = "<scenario><domain name=\"x\"/>\n<domain name=\"x\"/></scenario>";
	struct scenario sc;
	struct err e;

	ck_assert_int_eq(scenario_load_memory(xml, (int)strlen(xml), "inline", &sc, &e), 0);
	ck_assert_str_eq(sc.source, "inline");
	ck_assert(sc.seed == 42);
	ck_assert_int_eq(sc.doms[0].cap, 300);
	ck_assert_double_eq(sc.doms[0].workloads[0].phases[0].sleep.sigma, 1.25);
	ck_assert(sc.doms[0].workloads[0].phases[0].sleep.a == MSEC(9));
	scenario_free(&sc);
	ck_assert_int_eq(scenario_load_memory(dup, (int)strlen(dup), "inline", &sc, &e), -1);
	ck_assert_str_eq(e.msg, "inline:2: duplicate domain name 'x' (the first is at line 1)");
	/* the length bounds the text: the same bytes cut short are truncated XML */
	ck_assert_int_eq(scenario_load_memory(xml, 30, "cut", &sc, &e), -1);
	ck_assert_str_eq(e.msg, "cut:2: Premature end of data in tag scenario line 1");
}
END_TEST

/* Counts that would make a 16 MiB file slow to check are refused early. */
START_TEST(test_count_limits)
{
	size_t cap = 64 * (SCENARIO_MAX_DOMAINS + 2), len = 0;
	char *xml = malloc(cap);
	struct scenario sc;
	struct err e;
	char want[128];

	len += (size_t)sprintf(xml + len, "<scenario>\n");
	for (int i = 0; i < SCENARIO_MAX_DOMAINS; i++)
		len += (size_t)sprintf(xml + len, "<domain name=\"d%d\"/>\n", i);
	len += (size_t)sprintf(xml + len, "</scenario>\n");
	ck_assert_msg(scenario_load_memory(xml, (int)len, "max", &sc, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(sc.ndoms, SCENARIO_MAX_DOMAINS);
	ck_assert_str_eq(sc.doms[SCENARIO_MAX_DOMAINS - 1].name, "d4095");
	scenario_free(&sc);

	len -= strlen("</scenario>\n");
	len += (size_t)sprintf(xml + len, "<domain name=\"one-more\"/>\n</scenario>\n");
	ck_assert_int_eq(scenario_load_memory(xml, (int)len, "max", &sc, &e), -1);
	snprintf(want, sizeof(want), "max:%d: more than 4096 domains", SCENARIO_MAX_DOMAINS + 2);
	ck_assert_str_eq(e.msg, want);
	free(xml);
}
END_TEST

/*
 * The attribute pre-scan skips what is not a start tag: '=' in comments,
 * CDATA, processing instructions and quoted values do not count.
 */
START_TEST(test_prescan_skips)
{
	size_t cap = 16 * 1024, len = 0;
	char *xml = malloc(cap);
	struct scenario sc;
	struct err e;

	len += (size_t)sprintf(xml + len, "<?pi ");
	for (int i = 0; i < 300; i++)
		len += (size_t)sprintf(xml + len, "a%d=\"1\" ", i);
	len += (size_t)sprintf(xml + len, "?>\n<scenario>\n<!-- ");
	for (int i = 0; i < 300; i++)
		len += (size_t)sprintf(xml + len, "= ");
	len += (size_t)sprintf(xml + len, "-->\n<domain name=\"a\"><workload type=\"t\" p=\"");
	for (int i = 0; i < 300; i++)
		len += (size_t)sprintf(xml + len, "=>");
	len += (size_t)sprintf(xml + len, "\"/></domain>\n</scenario>\n");
	ck_assert_msg(scenario_load_memory(xml, (int)len, "skips", &sc, &e) == 0, "%s", e.msg);
	ck_assert_int_eq((int)strlen(kvlist_get(&sc.doms[0].workloads[0].params, "p")), 600);
	scenario_free(&sc);
	free(xml);
}
END_TEST

/* The schema compiled into the binary is the file in the repository. */
START_TEST(test_schema_embedded)
{
	FILE *f = fopen(TESTS_SRCDIR "/../sim/input/scenario.rng", "r");
	char *text = malloc(1 << 20);
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	text[n] = '\0';
	ck_assert_str_eq(scenario_schema_rng, text);
	free(text);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *t = tcase_create("load");

	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_full);
	tcase_add_test(t, test_minimal_defaults);
	tcase_add_test(t, test_default);
	tcase_add_loop_test(t, test_bad, 0, N(bad));
	tcase_add_test(t, test_silent);
	tcase_add_test(t, test_repeated_loads);
	tcase_add_test(t, test_copy);
	tcase_add_test(t, test_rt_and_arinc653);
	tcase_add_test(t, test_size_limit);
	tcase_add_test(t, test_big_line_numbers);
	tcase_add_test(t, test_io_errors);
	tcase_add_test(t, test_memory);
	tcase_add_test(t, test_schema_embedded);
	tcase_add_test(t, test_count_limits);
	tcase_add_test(t, test_prescan_skips);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
