/*
 * mutilate against memcached (workloads/mutilate.c): its messages' bytes,
 * and the request loop on a host where every vCPU has its own pCPU (the
 * null scheduler, the ideal machine, free switches) against timings
 * worked out by hand: a memcached thread that bounds the rate, connections
 * handed to memcached's threads round robin, a client that bounds it with
 * requests pipelined, and mutilate's threads that never sleep.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "tests/run_suite.h"
#include "tests/testlib.h"
#include "workloads/mutilate.h"

/* "get " + 30 + "\r\n"; "VALUE " + 30 + " 0 16384\r\n" + 16384 + "\r\nEND\r\n". */
START_TEST(messages_are_memcacheds_ascii_protocol)
{
	ck_assert_uint_eq(mutilate_request_bytes(30), 36);
	ck_assert_uint_eq(mutilate_response_bytes(30, 16384), 6 + 30 + 3 + 5 + 2 + 16384 + 2 + 5);
	ck_assert_uint_eq(mutilate_response_bytes(10, 200), 6 + 10 + 3 + 3 + 2 + 200 + 2 + 5);
}
END_TEST

#define HOST "<host sockets=\"1\" cores-per-socket=\"8\" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"

/*
 * mutilate with attrs on bare metal, 8 CPUs, every kernel cost 0 but
 * poll_cost 1 us and the ioctl and epoll_ctl calls' ctl.
 */
static void run_mutilate_ctl(const char *ctl, const char *attrs, struct run_result *r)
{
	char buf[2048];
	struct run_options o = { .check = true };

	snprintf(buf, sizeof(buf),
		 "<scenario duration=\"100s\">" HOST
		 "<domain name=\"d\" vcpus=\"8\" type=\"native\"><workload type=\"mutilate\""
		 " noise=\"0\" run_noise=\"0\" warmup=\"10ms\" time=\"100ms\" copy_cost=\"0\""
		 " send_cost=\"0\" packet_cost=\"0\" recv_cost=\"0\" wake_cost=\"0\""
		 " switch_cost=\"0\" ack_cost=\"0\" tcp_call_cost=\"0\" poll_cost=\"1us\""
		 " ctl_cost=\"%s\" vdso_cost=\"0\" %s/>"
		 "</domain></scenario>",
		 ctl, attrs);
	test_run(buf, "null", &o, r);
	ck_assert_msg(r->check_error[0] == '\0', "invariant: %s", r->check_error);
	ck_assert_msg(r->metric.valid, "no metric");
}

/* ... with the ioctl and epoll_ctl calls free */
static void run_mutilate(const char *attrs, struct run_result *r)
{
	run_mutilate_ctl("0", attrs, r);
}

static double rate_ctl(const char *ctl, const char *attrs)
{
	struct run_result r;
	double v;

	run_mutilate_ctl(ctl, attrs, &r);
	v = r.metric.value;
	run_result_free(&r);
	return v;
}

static double rate(const char *attrs)
{
	return rate_ctl("0", attrs);
}

static void assert_between(double got, double lo, double hi, const char *what)
{
	ck_assert_msg(got >= lo && got <= hi, "%s %.1f, expected %.1f to %.1f", what, got, lo, hi);
}

/*
 * One memcached thread for two client threads: it answers one request a
 * batch, an epoll pass (1 us) and server_cost (100 us), and is never idle:
 * 1 / 101 us.  With two memcached threads each connection has its own
 * (connection i to thread i mod 2): a request's round trip is the server's
 * 101 us, the client's 3 us (two passes reading the 16437-byte response in
 * reads of at most 16 KiB, one writing the next request) and one or two
 * passes until the spinning client sees the response (one that began
 * before it came): 2 requests every 104 to 105 us.
 */
START_TEST(memcached_threads_bound_the_rate)
{
	const char *base = "client_cost=\"0\" server_cost=\"100us\" threads=\"2\" read_max=\"16384\"";
	char a[512];

	snprintf(a, sizeof(a), "%s server_threads=\"1\"", base);
	assert_between(rate(a), 1e6 / 101 * 0.998, 1e6 / 101 * 1.002, "req/s, one memcached thread");
	snprintf(a, sizeof(a), "%s server_threads=\"2\"", base);
	assert_between(rate(a), 2e6 / 105 * 0.998, 2e6 / 104 * 1.002, "req/s, two memcached threads");
}
END_TEST

/*
 * A client thread whose parse costs 100 us bounds the rate.  With four
 * requests in flight (-d 4) responses wait back to back and the 16 KiB
 * reads run across their boundaries: one read a response (16437 bytes in
 * 16384-byte reads, 1.003 on average) and the pass writing the next
 * request, 102 us each.  With two connections of one request each (-c 2),
 * the other connection's response waits whenever one is done: two reads
 * (16384 and 53 bytes) and the write, 103 us.  With one (-d 1, -c 1) the
 * round trip adds the server's pass and one or two of the client's until
 * it sees the answer: 104 to 105 us.
 */
START_TEST(a_busy_client_bounds_the_rate_whatever_the_depth)
{
	assert_between(rate("client_cost=\"100us\" server_cost=\"0\" read_max=\"16384\" depth=\"4\""),
		       1e6 / 102 * 0.998, 1e6 / 102 * 1.002, "req/s, depth 4");
	assert_between(rate("client_cost=\"100us\" server_cost=\"0\" read_max=\"16384\" connections=\"2\""),
		       1e6 / 103 * 0.998, 1e6 / 103 * 1.002, "req/s, 2 connections");
	assert_between(rate("client_cost=\"100us\" server_cost=\"0\" read_max=\"16384\""),
		       1e6 / 105 * 0.998, 1e6 / 104 * 1.002, "req/s, depth 1");
}
END_TEST

/*
 * libevent 2.1's reads (evbuffer_read): at most 4 KiB each (its
 * EVBUFFER_MAX_READ, read_max's default), each after an ioctl(FIONREAD),
 * and two epoll_ctl a request (the write event added when the request is
 * queued, removed once it is written); with EVENT_BASE_FLAG_PRECISE_TIMER
 * a timerfd_settime before each epoll_wait.  A client whose parse costs
 * 100 us, four requests in flight (responses back to back): a response is
 * 16437 / 4096 = 4.013 reads on average, each a pass (1 us), a
 * timerfd_settime and an ioctl, and the next request a pass, a
 * timerfd_settime and two epoll_ctl: 105.013 us a request with the small
 * calls free, 116.039 us at 1 us each, 111.026 us without the timerfd.
 */
START_TEST(libevent_reads_4k_after_an_ioctl_and_toggles_the_write_event)
{
	double r = 16437.0 / 4096;

	assert_between(rate("client_cost=\"100us\" server_cost=\"0\" depth=\"4\""),
		       1e6 / (101 + r) * 0.998, 1e6 / (101 + r) * 1.002, "req/s, small calls free");
	assert_between(rate_ctl("1us", "client_cost=\"100us\" server_cost=\"0\" depth=\"4\""),
		       1e6 / (104 + 3 * r) * 0.998, 1e6 / (104 + 3 * r) * 1.002,
		       "req/s, small calls 1 us");
	assert_between(rate_ctl("1us", "client_cost=\"100us\" server_cost=\"0\" depth=\"4\""
				" precise_timer=\"off\""),
		       1e6 / (103 + 2 * r) * 0.998, 1e6 / (103 + 2 * r) * 1.002,
		       "req/s, small calls 1 us, no timerfd");
}
END_TEST

/*
 * mutilate in a domain of the given type, the ideal host, lo's costs and the
 * small calls 0, passes 1 us, parse 100 us, four requests in flight
 */
static double typed_rate(const char *type, const char *attrs)
{
	char buf[2048];
	struct run_options o = { .check = true };
	struct run_result r;
	double v;

	snprintf(buf, sizeof(buf),
		 "<scenario duration=\"100s\">" HOST
		 "<domain name=\"d\" vcpus=\"8\" type=\"%s\"><workload type=\"mutilate\""
		 " noise=\"0\" run_noise=\"0\" warmup=\"10ms\" time=\"100ms\" copy_cost=\"0\""
		 " send_cost=\"0\" packet_cost=\"0\" recv_cost=\"0\" wake_cost=\"0\""
		 " switch_cost=\"0\" ack_cost=\"0\" tcp_call_cost=\"0\" poll_cost=\"1us\""
		 " ctl_cost=\"0\" client_cost=\"100us\" server_cost=\"0\" depth=\"4\" %s/>"
		 "</domain></scenario>",
		 type, attrs);
	test_run(buf, "null", &o, &r);
	ck_assert_msg(r.check_error[0] == '\0', "invariant: %s", r.check_error);
	ck_assert_msg(r.metric.valid, "no metric");
	v = r.metric.value;
	run_result_free(&r);
	return v;
}

/*
 * The clock reads of a client thread: libevent's clock_gettime after each
 * epoll_wait and mutilate's two gettimeofday a response (finish_op,
 * drive_write_machine).  Bare metal, the vDSO: a client whose parse costs
 * 100 us, four requests in flight, reads at 1 us each add 4.013 + 1 + 2 us (a pass each, two a response)
 * to a request's 105.013 us.  A native domain ignores the Xen-only prices
 * (clock_cost, tsc_stable).
 */
START_TEST(the_client_reads_the_clock_after_each_pass_and_twice_a_response)
{
	double r = 16437.0 / 4096;

	assert_between(typed_rate("native", "vdso_cost=\"1us\""), 1e6 / (104 + 2 * r) * 0.998, 1e6 / (104 + 2 * r) * 1.002,
		       "req/s, vDSO reads 1 us");
	assert_between(typed_rate("native", "tsc_stable=\"off\" clock_cost=\"1us\" vdso_cost=\"0\""), 1e6 / (101 + r) * 0.998, 1e6 / (101 + r) * 1.002,
		       "req/s, native: clock_cost unused");
}
END_TEST

/*
 * In a Xen guest the vDSO reads the xen clocksource only when Xen sets
 * XEN_PVCLOCK_TSC_STABLE_BIT; without it (tsc_stable off) every read is a
 * system call at clock_cost: the same run as vDSO reads at that price, and
 * slower than free reads.
 */
START_TEST(a_xen_guest_reads_the_clock_by_system_call_unless_the_tsc_is_stable)
{
	double sys = typed_rate("hvm", "tsc_stable=\"off\" clock_cost=\"1us\" vdso_cost=\"0\"");
	double vdso = typed_rate("hvm", "tsc_stable=\"on\" clock_cost=\"0\" vdso_cost=\"1us\"");
	double fast = typed_rate("hvm", "tsc_stable=\"on\" clock_cost=\"1us\" vdso_cost=\"0\"");

	ck_assert_msg(sys == vdso, "system-call reads %.1f, vDSO reads at the same price %.1f",
		      sys, vdso);
	ck_assert_msg(fast > sys * 1.05, "free vDSO reads %.1f against %.1f", fast, sys);
}
END_TEST

/*
 * In a PV domain each small call of the client (the epoll_wait and the
 * timerfd_settime of each pass, the ioctl before each read, the two
 * epoll_ctl) refills tlb_refill_small at each of its two page-table
 * switches.  Client-bound (parse 100 us, four requests in flight), a
 * request makes 4.013 passes reading and one writing, so 3 x 4.013 + 4
 * small calls: at 1 us a switch 2 x 16.04 us more a request than at 0.
 */
START_TEST(a_pv_small_call_refills_tlb_refill_small_at_each_switch)
{
	double r = 16437.0 / 4096;
	double free_ = typed_rate("pv", "tlb_refill_small=\"0\"");
	double dear = typed_rate("pv", "tlb_refill_small=\"1us\"");
	double more = 1e6 / dear - 1e6 / free_;

	assert_between(more, 2 * (3 * r + 4) * 0.995, 2 * (3 * r + 4) * 1.005,
		       "us more a request");
}
END_TEST

/*
 * TCP_NODELAY on mutilate's side (memcached's always has it): with one
 * request in flight a side sends only after reading the other's data, whose
 * piggybacked ACK acknowledged its previous segment, so Nagle never holds a
 * segment and the run is the same to the request, with lo's default costs.
 * With four in flight a request sent while an earlier one is unread waits
 * for its ACK without TCP_NODELAY and leaves at once with it: the runs
 * differ.  The client's parse is set to 1.75 us, the value this was first
 * checked with: with the default client_cost of 0 the two depth-4 runs
 * of this ideal host come out equal to the request.
 */
START_TEST(nodelay_changes_nothing_with_one_request_in_flight)
{
	char buf[2048];
	double v[2][2];

	for (int d = 0; d < 2; d++)
		for (int nd = 0; nd < 2; nd++) {
			struct run_options o = { .check = true };
			struct run_result r;

			snprintf(buf, sizeof(buf),
				 "<scenario duration=\"100s\">" HOST
				 "<domain name=\"d\" vcpus=\"8\" type=\"native\">"
				 "<workload type=\"mutilate\" noise=\"0\" run_noise=\"0\""
				 " warmup=\"10ms\" time=\"100ms\" threads=\"3\" depth=\"%s\""
				 " client_cost=\"1.75us\" nodelay=\"%s\"/></domain></scenario>",
				 d ? "4" : "1", nd ? "on" : "off");
			test_run(buf, "null", &o, &r);
			ck_assert_msg(r.check_error[0] == '\0', "invariant: %s", r.check_error);
			ck_assert(r.metric.valid);
			v[d][nd] = r.metric.value;
			run_result_free(&r);
		}
	ck_assert_msg(v[0][0] == v[0][1], "depth 1: %.1f without TCP_NODELAY, %.1f with",
		      v[0][0], v[0][1]);
	ck_assert_msg(v[1][0] != v[1][1], "depth 4: %.1f either way", v[1][0]);
}
END_TEST

/*
 * Where the time goes: mutilate's threads spin in their event loops (run
 * all the time, never blocked); memcached's wait in epoll_wait between
 * requests.  Each stage adds up to its tasks' measured time.
 */
START_TEST(mutilate_spins_and_memcached_sleeps)
{
	struct run_result r;
	const struct breakdown_stage *cl, *sv;
	stime_t epoll = 0;

	run_mutilate("client_cost=\"10us\" server_cost=\"10us\" threads=\"2\" read_max=\"16384\"", &r);
	ck_assert(r.breakdown.valid);
	ck_assert_int_eq(r.breakdown.nstages, 2);
	cl = &r.breakdown.stages[0];
	sv = &r.breakdown.stages[1];
	ck_assert_str_eq(cl->name, "mutilate");
	ck_assert_str_eq(sv->name, "memcached");
	ck_assert_int_eq(breakdown_stage_total(cl), 2 * (r.breakdown.to_ns - r.breakdown.from_ns));
	ck_assert_int_eq(breakdown_stage_total(sv), 4 * (r.breakdown.to_ns - r.breakdown.from_ns));
	for (int i = 0; i < cl->nparts; i++)
		if (!strcmp(cl->parts[i].name, "run"))
			ck_assert_int_eq(cl->parts[i].ns, breakdown_stage_total(cl));
	for (int i = 0; i < sv->nparts; i++)
		if (!strcmp(sv->parts[i].name, "blocked:epoll"))
			epoll = sv->parts[i].ns;
	/* two of the four memcached threads have no connection: blocked all along */
	ck_assert_msg(epoll > breakdown_stage_total(sv) / 2, "memcached blocked %lld of %lld",
		      (long long)epoll, (long long)breakdown_stage_total(sv));
	run_result_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mutilate");
	TCase *unit = tcase_create("messages"), *sim = tcase_create("loop");

	tcase_add_test(unit, messages_are_memcacheds_ascii_protocol);
	suite_add_tcase(s, unit);
	tcase_set_timeout(sim, 60);
	tcase_add_test(sim, memcached_threads_bound_the_rate);
	tcase_add_test(sim, a_busy_client_bounds_the_rate_whatever_the_depth);
	tcase_add_test(sim, libevent_reads_4k_after_an_ioctl_and_toggles_the_write_event);
	tcase_add_test(sim, the_client_reads_the_clock_after_each_pass_and_twice_a_response);
	tcase_add_test(sim, a_xen_guest_reads_the_clock_by_system_call_unless_the_tsc_is_stable);
	tcase_add_test(sim, a_pv_small_call_refills_tlb_refill_small_at_each_switch);
	tcase_add_test(sim, mutilate_spins_and_memcached_sleeps);
	tcase_add_test(sim, nodelay_changes_nothing_with_one_request_in_flight);
	suite_add_tcase(s, sim);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
