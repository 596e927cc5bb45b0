/*
 * The hardware model (sim/engine/hw.c) and xl's NUMA placement
 * (sim/engine/numa_place.c) on small hand-built states.  Expected figures are
 * worked out by hand from the defaults of sim/engine/hw.c (Nehalem: 256 KiB
 * L2, 8 MiB LLC, 38 and 7.9 GB/s refills, C1 3 us / 6 us ... C6 200 us / 800
 * us) and the profiles the tests give, so a change of formula shows as a
 * number.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "schedulers/sched.h"
#include "sim/engine/hw.h"
#include "sim/engine/numa_place.h"
#include "sim/experiment/build.h"
#include "sim/input/scenario_load.h"
#include "tests/testlib.h"
#include "workloads/guest.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void destroy(struct sim *s, struct scenario *sc)
{
	sim_destroy(s);
	scenario_free(sc);
}

/*
 * The hosts of the tests of a running vCPU's speed have no caches: a vCPU
 * put on a pCPU by hand starts a cache fill (cache_fill_after_moves_and_cuts)
 * that would change the speeds these tests work out.
 */
#define NO_CACHES " l2-size=\"0\" llc-size=\"0\""

/* The core's part of a context switch, for driving hw by hand. */
static void switch_on(struct sim *s, int cpu, struct vcpu *next)
{
	struct vcpu *prev = s->pcpus[cpu].curr;

	s->pcpus[cpu].curr = next;
	if (!is_idle_vcpu(next))
		next->processor = cpu;
	hw_switch(s->hw, cpu, prev, next, sim_now(s));
}

/* ---- configuration ---- */

START_TEST(config_defaults_and_errors)
{
	static const struct { const char *key, *value, *msg; } bad[] = {
		{ "cstates", "C1:1:3us", "cstates: 'C1:1:3us' is not name:type:exit-latency:target-residency" },
		{ "cstates", "C1:0:3us:6us", "cstates: C-state C1 type: '0' is out of range 1..15" },
		{ "cstates", "C1:1:3parsecs:6us", "cstates: C-state C1 exit latency: '3parsecs': unknown unit 'parsecs' (valid units: ns, us, ms, s)" },
		{ "cstates", "C3:2:20us:80us,C1:1:3us:6us", "cstates: C-state C1 is shallower than C3 before it (list them shallowest first)" },
		{ "cstates", "C1:1:3us:6us,", "cstates: a C-state list cannot end in ','" },
		{ "max-cstate", "16", "<host>: max-cstate: '16' is out of range 0..15" },
		{ "hw", "real", "<host>: hw: 'real' is not one of model|ideal" },
	};
	struct hw_config c;
	struct kvlist kv = { 0 };
	struct err e;

	ck_assert_int_eq(hw_config_init(&c, NULL, NULL, &e), 0);
	ck_assert_int_eq(c.mode, HW_MODEL);
	ck_assert(c.l2_size == 256 << 10 && c.llc_size == 8 << 20);
	ck_assert(c.memory_per_node == 6LL << 30);
	ck_assert_int_eq(c.max_cstate, 15);
	for (int i = 0; i < N(bad); i++) {
		kvlist_set(&kv, bad[i].key, bad[i].value, 0);
		ck_assert_int_eq(hw_config_init(&c, &kv, NULL, &e), -1);
		ck_assert_str_eq(e.msg, bad[i].msg);
		kvlist_free(&kv);
	}
	kvlist_set(&kv, "cstates", "", 0);
	ck_assert_int_eq(hw_config_init(&c, &kv, NULL, &e), 0);
	kvlist_free(&kv);
}
END_TEST

/* ---- the speed of a running vCPU: SMT and NUMA ---- */

START_TEST(smt_sibling_slows_and_tells)
{
	static const char xml[] =
		"<scenario><host sockets=\"1\" cores-per-socket=\"2\" threads-per-core=\"2\" hw=\"model\"" NO_CACHES "/>"
		"<domain name=\"a\" vcpus=\"3\"/></scenario>";
	static const struct hw_profile p = { 0.65, 0, 0, 0 };
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu **v = s->domains[0]->vcpus;
	struct hw_rate r;

	switch_on(s, 0, v[0]);
	hw_rate(s->hw, v[0], &p, &r);
	ck_assert(r.rate == 1.0);
	switch_on(s, 2, v[2]);                  /* another core: no effect */
	hw_rate(s->hw, v[0], &p, &r);
	ck_assert(r.rate == 1.0);
	switch_on(s, 1, v[1]);                  /* the sibling thread */
	hw_rate(s->hw, v[0], &p, &r);
	ck_assert_double_eq_tol(r.rate, 0.65, 1e-12);
	ck_assert_double_eq(r.smt_share, 1.0);
	/* 100 ns at 0.65: 65 ns of work, 35 lost to SMT. */
	{
		struct hw_stats st = { 0 };

		ck_assert(hw_charge(&st, &r, 100) == 65);
		ck_assert(st.lost_ns[HW_LOST_SMT] == 35 && st.work_ns == 65);
		ck_assert(hw_time_for(&r, 65) >= 100 && hw_time_for(&r, 65) <= 101);
		ck_assert(hw_time_for(&r, 66) == 102);
	}
	switch_on(s, 1, s->pcpus[1].idle);
	hw_rate(s->hw, v[0], &p, &r);
	ck_assert(r.rate == 1.0);
	destroy(s, &sc);
}
END_TEST

/*
 * The speed of v, running on its pCPU, for a task of profile p: as the
 * guest layer asks it (the profile becomes what v presses on its core with).
 */
static double rate_running(struct sim *s, struct vcpu *v, const struct hw_profile *p)
{
	struct hw_rate r;

	v->is_running = true;
	hw_rate(s->hw, v, p, &r);
	return r.rate;
}

/* The profiles of the pairwise tests: what workloads/ and hardware.md give. */
static const struct hw_profile compile = { 0.65, 4 << 20, 0.2, 0 };    /* make-xen */
static const struct hw_profile compute = { 0.65, 256 << 10, 0.1, 0 };  /* cpu-hog */
static const struct hw_profile stalled = { 0.95, 64 << 20, 0.8, 0 };   /* a pointer chaser */

START_TEST(smt_speed_depends_on_what_the_sibling_runs)
{
	static const char xml[] =
		"<scenario><host sockets=\"1\" cores-per-socket=\"2\" threads-per-core=\"2\" hw=\"model\"" NO_CACHES "/>"
		"<domain name=\"a\" vcpus=\"2\"/></scenario>";
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu **v = s->domains[0]->vcpus;
	double beside_compute, beside_stalled, stalled_beside_compute, q, one, two;

	switch_on(s, 0, v[0]);
	switch_on(s, 1, v[1]);
	rate_running(s, v[1], &compute);
	beside_compute = rate_running(s, v[0], &compute);
	rate_running(s, v[1], &stalled);
	beside_stalled = rate_running(s, v[0], &compute);
	stalled_beside_compute = rate_running(s, v[1], &stalled);
	/*
	 * Two copies of one profile: its smt_speed, as before, and a little
	 * queueing for memory: 0.79 GB/s of traffic alone, 1.58 GB/s beside
	 * its copy, of the socket's 32 (0.002 %).
	 */
	q = (64 / 32.0) / (640 / 7.9) / 2;
	one = 1 + q * (0.79 / 32) / (1 - 0.79 / 32);
	two = 1 + q * (1.58 / 32) / (1 - 1.58 / 32);
	ck_assert_double_eq_tol(beside_compute, 1 / (1 / 0.65 + 0.1 * (two / one - 1)), 1e-9);
	ck_assert(beside_compute < 0.65);
	/* sqrt(1/0.65 - 1) x sqrt(1/0.95 - 1) = 0.7338 x 0.2294: 1 / 1.1684. */
	ck_assert_double_eq_tol(beside_stalled, 1 / (1 + sqrt(0.35 / 0.65) * sqrt(0.05 / 0.95)),
				1e-3);        /* and a little queueing for memory: 0.03 % */
	ck_assert(beside_stalled > beside_compute + 0.15);
	/* The stalled thread loses as little beside the compute loop. */
	ck_assert(stalled_beside_compute > beside_compute + 0.15);
	/* An idle sibling (Xen's idle vCPU: halted) costs nothing. */
	switch_on(s, 1, s->pcpus[1].idle);
	ck_assert(rate_running(s, v[0], &compute) == 1.0);
	destroy(s, &sc);
}
END_TEST

/*
 * The figures worked out of a profile are kept for every profile a run
 * asks about (a table by address that grows): forty profiles, asked about
 * twice over, beside a sibling whose profile changes too, each give the
 * pairwise rate of its own smt_speed and the sibling's.
 */
START_TEST(figures_of_many_profiles)
{
	static const char xml[] =
		"<scenario><host sockets=\"1\" cores-per-socket=\"1\" threads-per-core=\"2\" hw=\"model\"" NO_CACHES "/>"
		"<domain name=\"a\" vcpus=\"2\"/></scenario>";
	struct hw_profile p[40], q[2] = { { 0.6, 0, 0, 0 }, { 0.9, 0, 0, 0 } };
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu **v = s->domains[0]->vcpus;

	for (int i = 0; i < N(p); i++)
		p[i] = (struct hw_profile){ 0.3 + 0.0175 * i, 0, 0, 0 };
	switch_on(s, 0, v[0]);
	switch_on(s, 1, v[1]);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < N(p); i++) {
			const struct hw_profile *sib = &q[(i + pass) % 2];
			double own = sqrt(1 / p[i].smt_speed - 1), other = sqrt(1 / sib->smt_speed - 1);

			rate_running(s, v[1], sib);
			ck_assert_double_eq_tol(rate_running(s, v[0], &p[i]), 1 / (1 + own * other),
						1e-12);
		}
	destroy(s, &sc);
}
END_TEST

/*
 * Kernbench (real-measurements.md section 3): make -j8 on a 1 x 4 x 2
 * host against make -j4 with HT off, 109.77 s / 83.65 s = 1.31x the work.
 * Eight compile threads, two per core, against four alone on their cores,
 * with every hardware effect of the model on (the socket's memory
 * traffic included), give that ratio within 2 %.
 */
START_TEST(two_compile_threads_per_core_do_kernbench_work)
{
	static const char xml[] =
		"<scenario><host sockets=\"1\" cores-per-socket=\"4\" threads-per-core=\"2\" hw=\"model\"" NO_CACHES "/>"
		"<domain name=\"a\" vcpus=\"8\"/></scenario>";
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu **v = s->domains[0]->vcpus;
	double ht_off = 0, ht_on = 0;

	for (int i = 0; i < 4; i++)             /* one thread of each core */
		switch_on(s, 2 * i, v[i]);
	for (int i = 0; i < 4; i++)
		rate_running(s, v[i], &compile);
	for (int i = 0; i < 4; i++)
		ht_off += rate_running(s, v[i], &compile);
	for (int i = 4; i < 8; i++)             /* and the other threads */
		switch_on(s, 2 * (i - 4) + 1, v[i]);
	for (int i = 0; i < 8; i++)
		rate_running(s, v[i], &compile);
	for (int i = 0; i < 8; i++)
		ht_on += rate_running(s, v[i], &compile);
	ck_assert_msg(fabs(ht_on / ht_off / (109.77 / 83.65) - 1) < 0.02,
		      "HT on does %.4fx the work of HT off, kernbench 1.3123x", ht_on / ht_off);
	destroy(s, &sc);
}
END_TEST

/*
 * A socket's memory controller serves all its threads: memory-bound
 * threads that together ask more than socket-memory-bandwidth slow
 * everything on that socket by its share of memory time, nothing on the
 * other socket.
 */
START_TEST(socket_memory_traffic_slows_its_threads)
{
	/* Memory on node 0: no remote time on socket 0; socket 1's is constant. */
	static const char xml[] =
		"<scenario><host sockets=\"2\" cores-per-socket=\"4\" nodes=\"2\" hw=\"model\"" NO_CACHES ""
		" socket-memory-bandwidth=\"12\"/>"
		"<domain name=\"a\" vcpus=\"5\" numa-nodes=\"0\"/></scenario>";
	static const struct hw_profile streamer = { 1, 64 << 20, 1.0, 0 };
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu **v = s->domains[0]->vcpus;
	struct hw_rate r;
	double alone, other_socket, q, want;
	char msg[256];

	switch_on(s, 0, v[0]);
	alone = rate_running(s, v[0], &compile);
	ck_assert(alone == 1.0);
	switch_on(s, 4, v[4]);                  /* the other socket */
	other_socket = rate_running(s, v[4], &compile);
	for (int i = 1; i <= 3; i++) {          /* three streamers: 23.7 GB/s */
		switch_on(s, i, v[i]);
		rate_running(s, v[i], &streamer);
	}
	/*
	 * Socket 0 asks 3 x 7.9 + 0.2 x 7.9 = 25.28 GB/s of its 12: memory
	 * time takes 25.28 / 12 = 2.107x (beyond the queue's 1 + q x 19 =
	 * 1.625 at a 95 % load); alone the compile thread's 1.58 GB/s queue
	 * q x 0.1317 / 0.8683 of a latency, q being a line's 5.33 ns of
	 * service over 81 ns, halved (M/D/1).
	 */
	q = (64 / 12.0) / (640 / 7.9) / 2;
	want = 1 / (1 + 0.2 * (25.28 / 12 / (1 + q * (1.58 / 12) / (1 - 1.58 / 12)) - 1));
	hw_rate(s->hw, v[0], &compile, &r);
	ck_assert_double_eq_tol(r.rate, want, 1e-9);
	ck_assert(r.rate < alone - 0.04);
	ck_assert_double_eq_tol(r.membw_share, 1.0, 1e-12);
	{
		struct hw_stats st = { 0 };

		hw_charge(&st, &r, 1000000);
		ck_assert(st.lost_ns[HW_LOST_MEMBW] > 40000 && st.lost_ns[HW_LOST_SMT] == 0 &&
			  st.lost_ns[HW_LOST_NUMA] == 0);
	}
	/* All of a streamer's time is memory time. */
	ck_assert(rate_running(s, v[1], &streamer) < r.rate - 0.1);
	hw_rate(s->hw, v[4], &compile, &r);
	ck_assert_double_eq_tol(r.rate, other_socket, 1e-12);
	ck_assert_msg(hw_check(s->hw, msg, sizeof(msg)), "%s", msg);
	/* The streamers stop: the socket's load and the compile thread's speed return. */
	for (int i = 1; i <= 3; i++)
		switch_on(s, i, s->pcpus[i].idle);
	ck_assert(rate_running(s, v[0], &compile) == 1.0);
	ck_assert_msg(hw_check(s->hw, msg, sizeof(msg)), "%s", msg);
	destroy(s, &sc);
}
END_TEST

/* What each vCPU of a test heard through work_sync, re-asking its speed as a guest layer does. */
static int heard[8];

static void count_and_reask(struct sim *s, struct vcpu *v)
{
	struct hw_rate r;

	heard[v->vcpu_id]++;
	hw_rate(s->hw, v, v->hw.prof, &r);
}

/*
 * A thread hears of its socket's memory load when the load has moved its
 * time per unit of work by more than 1 % of its full-speed time since its
 * speed was worked out: a streamer at once, a thread that waits little on
 * memory only once the changes add up.  Each speed worked out uses the
 * socket's load of that instant.
 */
START_TEST(socket_load_retimes_by_each_threads_memory_time)
{
	/*
	 * 4 GB/s: two streamers ask 15.8, beyond the bandwidth and the
	 * queue's cap (1 + 19 q = 2.877 at a 95 % load, q a line's 16 ns of
	 * service over 81 ns, halved), so the memory time is the load, and
	 * each default thread's 0.79 GB/s moves it by 0.1975.
	 */
	static const char xml[] =
		"<scenario><host sockets=\"1\" cores-per-socket=\"8\" threads-per-core=\"1\""
		" nodes=\"1\" hw=\"model\"" NO_CACHES " socket-memory-bandwidth=\"4\"/>"
		"<domain name=\"a\" vcpus=\"7\"/></scenario>";
	static const struct hw_profile streamer = { 1, 64 << 20, 1.0, 0 };
	static const struct hw_profile light = { 1, 256 << 10, 0.02, 0 };
	static const struct hw_profile lighter = { 1, 256 << 10, 0.021, 0 };
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu **v = s->domains[0]->vcpus;
	double q = (64 / 4.0) / (640 / 7.9) / 2, streamer_alone = 1 + 19 * q, light_alone, stretch;
	struct hw_rate r;

	memset(heard, 0, sizeof(heard));
	s->hooks.work_sync = count_and_reask;
	v[0]->hw.prof = v[1]->hw.prof = &streamer;     /* what their guests ran last */
	v[2]->hw.prof = &light;
	switch_on(s, 0, v[0]);
	rate_running(s, v[0], &streamer);
	switch_on(s, 1, v[1]);                  /* 3.95 / 2.877: 37 % longer */
	rate_running(s, v[1], &streamer);
	ck_assert_int_eq(heard[0], 1);
	switch_on(s, 2, v[2]);                  /* 0.158 GB/s: 0.0395 / 2.877 = 1.4 % */
	rate_running(s, v[2], &light);
	ck_assert(heard[0] == 2 && heard[1] == 1);
	/*
	 * Each default thread moves a streamer's time by 0.1975 / 2.877 =
	 * 6.9 %; the light thread's (alone about 1.004) by 0.02 x 0.1975 /
	 * 1.004 = 0.39 %: 0.79 % after two, 1.18 % after three.
	 */
	for (int i = 3; i <= 5; i++) {
		switch_on(s, i, v[i]);
		ck_assert_int_eq(heard[0], i);
		ck_assert_int_eq(heard[2], i < 5 ? 0 : 1);
	}
	/* Told, each works its speed out at the load of now. */
	stretch = (2 * 7.9 + 0.158 + 3 * 0.79) / 4;
	light_alone = 1 + q * (0.158 / 4) / (1 - 0.158 / 4);
	hw_rate(s->hw, v[2], &light, &r);
	ck_assert_double_eq_tol(r.rate, 1 / (1 + 0.02 * (stretch / light_alone - 1)), 1e-9);
	hw_rate(s->hw, v[0], &streamer, &r);
	ck_assert_double_eq_tol(r.rate, 1 / (stretch / streamer_alone), 1e-9);
	/*
	 * A thread whose guest has not asked its speed since it started is not
	 * told (it uses none); an idle pCPU's last vCPU neither.
	 */
	ck_assert(heard[3] == 0 && heard[4] == 0 && heard[5] == 0);
	hw_rate(s->hw, v[5], NULL, &r);
	switch_on(s, 5, s->pcpus[5].idle);      /* back 0.39 % for the light thread */
	switch_on(s, 6, v[6]);
	ck_assert(heard[0] == 7 && heard[2] == 1 && heard[5] == 0);
	/*
	 * A running thread's guest asking for another profile changes what it
	 * asks of the socket: the others hear in an event of their own, and
	 * only when one of them has to.  0.158 -> 0.166 GB/s moves the
	 * streamers by 0.07 %: no event; 0.79 -> 0.158 by 5.5 %: one.
	 */
	sim_run_until(s, sim_now(s));
	rate_running(s, v[2], &lighter);
	ck_assert_int_eq(sim_run_until(s, sim_now(s)), 0);
	rate_running(s, v[6], &light);
	ck_assert_int_eq(sim_run_until(s, sim_now(s)), 1);
	ck_assert_msg(heard[0] == 8 && heard[1] == 7 && heard[2] == 1 && heard[6] == 0,
		      "%d %d %d %d", heard[0], heard[1], heard[2], heard[6]);
	destroy(s, &sc);
}
END_TEST

/*
 * A thread hears a switch on its core only when what comes to run beside
 * it presses differently: two domains' workloads of equal profiles (each
 * has its own copy) are the same neighbour, and idle is none.
 */
START_TEST(sibling_hears_only_a_different_neighbour)
{
	static const char xml[] =
		"<scenario><host sockets=\"1\" cores-per-socket=\"1\" threads-per-core=\"2\""
		" hw=\"model\"" NO_CACHES "/><domain name=\"a\" vcpus=\"4\"/></scenario>";
	static const struct hw_profile mine = { 0.65, 256 << 10, 0.1, 0 };
	static const struct hw_profile copy = { 0.65, 256 << 10, 0.1, 0 };
	static const struct hw_profile lighter = { 0.95, 256 << 10, 0.1, 0 };   /* same traffic */
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu **v = s->domains[0]->vcpus;
	double beside_mine;

	memset(heard, 0, sizeof(heard));
	s->hooks.work_sync = count_and_reask;
	v[0]->hw.prof = v[1]->hw.prof = &mine;
	v[2]->hw.prof = &copy;
	v[3]->hw.prof = &lighter;
	switch_on(s, 0, v[0]);
	rate_running(s, v[0], &mine);
	switch_on(s, 1, v[1]);                  /* a neighbour where there was none */
	ck_assert_int_eq(heard[0], 1);
	beside_mine = rate_running(s, v[0], &mine);
	switch_on(s, 1, v[2]);                  /* equal figures: the same speed, no word */
	ck_assert_int_eq(heard[0], 1);
	ck_assert(rate_running(s, v[0], &mine) == beside_mine);
	switch_on(s, 1, v[3]);                  /* presses less: v0 runs faster, and hears */
	ck_assert_int_eq(heard[0], 2);
	ck_assert(rate_running(s, v[0], &mine) > beside_mine + 0.1);
	switch_on(s, 1, v[1]);
	ck_assert_int_eq(heard[0], 3);
	switch_on(s, 1, s->pcpus[1].idle);      /* the neighbour goes */
	ck_assert_int_eq(heard[0], 4);
	ck_assert(heard[1] == 0 && heard[2] == 0 && heard[3] == 0);
	destroy(s, &sc);
}
END_TEST

/*
 * A vCPU asked again gives its speed from its pCPU's memo while nothing it
 * depends on moved, and works it out anew when its core changed: profiles
 * without memory traffic, so that the socket's memory time never moves and
 * only the core's switches and profile changes tell the memo it is stale.
 * The invariant checker agrees with the memo at every step.
 */
static void assert_hw_holds(struct sim *s)
{
	char msg[256];

	ck_assert_msg(hw_check(s->hw, msg, sizeof(msg)), "%s", msg);
}

START_TEST(rate_memo_follows_the_core)
{
	static const char xml[] =
		"<scenario><host sockets=\"1\" cores-per-socket=\"1\" threads-per-core=\"2\""
		" hw=\"model\"" NO_CACHES "/><domain name=\"a\" vcpus=\"3\"/></scenario>";
	static const struct hw_profile p = { 0.65, 0, 0, 0 }, q = { 0.9, 0, 0, 0 };
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu **v = s->domains[0]->vcpus;
	double beside_p = 0.65, beside_q = 1 / (1 + sqrt(1 / 0.65 - 1) * sqrt(1 / 0.9 - 1));

	v[1]->hw.prof = v[2]->hw.prof = &p;
	switch_on(s, 0, v[0]);
	ck_assert(rate_running(s, v[0], &p) == 1.0);
	ck_assert(rate_running(s, v[0], &p) == 1.0);
	assert_hw_holds(s);
	switch_on(s, 1, v[1]);                  /* a neighbour: the memo is stale */
	assert_hw_holds(s);
	ck_assert_double_eq_tol(rate_running(s, v[0], &p), beside_p, 1e-12);
	ck_assert_double_eq_tol(rate_running(s, v[1], &q), beside_q, 1e-12);
	assert_hw_holds(s);                     /* v1's profile changed: so did v0's neighbour */
	ck_assert_double_eq_tol(rate_running(s, v[0], &p), beside_q, 1e-12);
	switch_on(s, 1, s->pcpus[1].idle);
	assert_hw_holds(s);
	ck_assert(rate_running(s, v[0], &p) == 1.0);
	switch_on(s, 1, v[2]);
	ck_assert_double_eq_tol(rate_running(s, v[0], &p), beside_p, 1e-12);
	switch_on(s, 1, v[1]);                  /* v1 comes back with q */
	assert_hw_holds(s);
	ck_assert_double_eq_tol(rate_running(s, v[0], &p), beside_q, 1e-12);
	ck_assert_double_eq_tol(rate_running(s, v[0], &p), beside_q, 1e-12);
	assert_hw_holds(s);
	destroy(s, &sc);
}
END_TEST

START_TEST(numa_remote_memory_stretches_memory_time)
{
	static const char xml[] =
		"<scenario><host sockets=\"2\" cores-per-socket=\"2\" nodes=\"2\" hw=\"model\"" NO_CACHES "/>"
		"<domain name=\"a\" vcpus=\"2\" numa-nodes=\"0\" memory=\"1024\"/>"
		"<domain name=\"b\" vcpus=\"1\" memory=\"2048\" numa-nodes=\"0,1\"/></scenario>";
	static const struct hw_profile p = { 1, 0, 0.5, 0 };
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu *a0 = s->domains[0]->vcpus[0], *a1 = s->domains[0]->vcpus[1];
	struct vcpu *b0 = s->domains[1]->vcpus[0];
	struct hw_rate r;

	ck_assert(s->domains[0]->hw.node_mb[0] == 1024 && s->domains[0]->hw.node_mb[1] == 0);
	ck_assert(s->domains[1]->hw.node_mb[0] == 1024 && s->domains[1]->hw.node_mb[1] == 1024);
	ck_assert(hw_node_free_mb(s->hw, 0) == 6144 - 2048);
	switch_on(s, 0, a0);
	hw_rate(s->hw, a0, &p, &r);
	ck_assert(r.rate == 1.0);                              /* local */
	switch_on(s, 2, a1);
	hw_rate(s->hw, a1, &p, &r);                            /* all remote: 1 + 0.5 x 0.6 */
	ck_assert_double_eq_tol(r.rate, 1 / 1.3, 1e-12);
	ck_assert_double_eq(r.smt_share, 0.0);
	switch_on(s, 3, b0);
	hw_rate(s->hw, b0, &p, &r);                            /* half remote */
	ck_assert_double_eq_tol(r.rate, 1 / 1.15, 1e-12);
	destroy(s, &sc);
}
END_TEST

/* ---- caches ---- */

/*
 * v runs on cpu for dt ns (from now) doing work of profile p, as a guest
 * layer would: its speed asked at the start and at the end; returns the
 * speed it started at.
 */
static double run_for(struct sim *s, int cpu, struct vcpu *v, const struct hw_profile *p,
		      stime_t dt)
{
	double rate;

	switch_on(s, cpu, v);
	rate = rate_running(s, v, p);
	s->q.now += dt;
	rate_running(s, v, p);
	switch_on(s, cpu, s->pcpus[cpu].idle);
	v->is_running = false;
	return rate;
}

/*
 * A cold cache makes the work slower while it fills, not later: p misses
 * 0.25 x 8 GB/s = 2 B/ns warm, so it touches its 1 MiB in 2/3 x 1 MiB / 2
 * = 349525.3 ns of work (its fill time, MISS_POWER 0.5), and of the 1 MiB
 * a warm cache misses 2/3 too: a cold one costs a third of the 131072 ns
 * that 1 MiB takes from memory at 8 B/ns, 0.125 ns per ns of work.  A run
 * cut short has paid for, and warmed, only the part it touched.
 */
START_TEST(cache_fill_after_moves_and_cuts)
{
	static const char xml[] =
		"<scenario><host sockets=\"2\" cores-per-socket=\"2\" nodes=\"2\" hw=\"model\""
		" llc-bandwidth=\"40\" memory-bandwidth=\"8\"/>"
		"<domain name=\"a\" vcpus=\"1\" numa-nodes=\"0\"/></scenario>";
	static const struct hw_profile p = { 1, 1 << 20, 0.25, 0 };
	const double fill = 2.0 / 3 * 1048576 / 2;
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu *v = s->domains[0]->vcpus[0];
	struct hw_rate r;
	struct hw_stats st = { 0 };
	char msg[256];

	/* Not running: nothing to fill. */
	hw_rate(s->hw, v, &p, &r);
	ck_assert(r.rate == 1.0);
	/* Never ran: 1 MiB cold in the L2 and the LLC, all from local memory. */
	switch_on(s, 0, v);
	hw_rate(s->hw, v, &p, &r);
	ck_assert_double_eq_tol(r.per_rate, 1.125, 1e-12);
	ck_assert(r.cache_share == 1.0);
	ck_assert_msg(hw_check(s->hw, msg, sizeof(msg)), "%s", msg);
	/* The whole fill: 349525.3 ns of work in 393216 ns, 43690.7 ns lost. */
	ck_assert_int_eq(hw_charge(&st, &r, 393216), 349525);
	ck_assert_int_eq(st.lost_ns[HW_LOST_CACHE], 43691);
	s->q.now = 393216;
	ck_assert(rate_running(s, v, &p) == 1.0);
	switch_on(s, 0, s->pcpus[0].idle);
	/* Back on the same core, nothing else ran there: warm. */
	ck_assert(run_for(s, 0, v, &p, 1000) == 1.0);
	/*
	 * The other core of the socket: the L2's 256 KiB from the LLC at 40
	 * B/ns, a third of 6553.6 ns over the fill.  Cut after half the fill's
	 * work: half of the L2 part stays cold.
	 */
	ck_assert_double_eq_tol(1 / run_for(s, 1, v, &p, (stime_t)(fill / 2 * (1 + 6553.6 / 3 / fill))),
				1 + 6553.6 / 3 / fill, 1e-12);
	ck_assert_double_eq_tol(1 / run_for(s, 1, v, &p, 0), 1 + 6553.6 / 2 / 3 / fill, 1e-5);
	/* The other socket (node 0 remote): 1 MiB from memory at 8 B/ns x 1.6. */
	ck_assert_double_eq_tol(1 / run_for(s, 2, v, &p, 0), 1 + 0.25 * 0.6 + 209715.2 / 3 / fill,
				1e-12);
	/* That run did no work: it touched nothing, and all of it is still cold. */
	ck_assert_double_eq_tol(1 / run_for(s, 2, v, &p, 0), 1 + 0.25 * 0.6 + 209715.2 / 3 / fill,
				1e-12);
	/* A profile that never waits on memory has its misses hidden: no fill to pay. */
	{
		static const struct hw_profile hidden = { 1, 1 << 20, 0, 0 };

		hw_rate(s->hw, v, &hidden, &r);
		ck_assert_double_eq_tol(1 / run_for(s, 3, v, &hidden, 0), 1, 1e-12);
	}
	ck_assert_msg(hw_check(s->hw, msg, sizeof(msg)), "%s", msg);
	destroy(s, &sc);
}
END_TEST

/*
 * Least recently used lines go first, whoever brought them in: a vCPU's
 * lines age by what the others touch in the cache, their hits included,
 * not only by what they miss.  u's 7.5 MiB and v's 1 MiB do not fit the
 * 8 MiB LLC together, so when u has run through its working set again
 * (every line of it still in the LLC: u pays next to nothing), 0.5 MiB of
 * v's lines are gone: v finds them cold, a third of 65536 ns over its fill.
 */
START_TEST(cache_lines_age_by_what_others_touch)
{
	static const char xml[] =
		"<scenario><host sockets=\"1\" cores-per-socket=\"2\" hw=\"model\""
		" memory-bandwidth=\"8\"/>"
		"<domain name=\"a\" vcpus=\"2\"/></scenario>";
	static const struct hw_profile p = { 1, 1 << 20, 0.25, 0 }, big = { 1, 15 << 19, 0.25, 0 };
	const double fill = 2.0 / 3 * 1048576 / 2, big_fill = 2.0 / 3 * (15 << 19) / 2;
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu *v = s->domains[0]->vcpus[0], *u = s->domains[0]->vcpus[1];
	struct hw_rate r;
	char msg[256];
	double u_again;

	hw_rate(s->hw, u, &big, &r);
	hw_rate(s->hw, v, &p, &r);
	/* u fills 7.5 MiB from memory; then v its 1 MiB: half a MiB of u's lines go. */
	ck_assert_double_eq_tol(1 / run_for(s, 1, u, &big, (stime_t)(big_fill * 1.125) + 1), 1.125,
				1e-12);
	ck_assert_double_eq_tol(1 / run_for(s, 0, v, &p, (stime_t)(fill * 1.125) + 1), 1.125, 1e-12);
	u_again = 1 + 65536.0 / 3 / big_fill;
	ck_assert_double_eq_tol(1 / run_for(s, 1, u, &big, (stime_t)(big_fill * u_again) + 1),
				u_again, 1e-5);
	/* Back on its core: the L2 is v's alone, the LLC lost 0.5 MiB of it. */
	switch_on(s, 0, v);
	ck_assert_double_eq_tol(1 / rate_running(s, v, &p), 1 + 65536.0 / 3 / fill, 1e-5);
	ck_assert_msg(hw_check(s->hw, msg, sizeof(msg)), "%s", msg);
	destroy(s, &sc);
}
END_TEST

/*
 * A vCPU re-pinned every 3 ms (xl vcpu-pin in a loop) to a pCPU of the
 * other socket does less work than one re-pinned to the same pCPU: the
 * same migrations through the scheduler, only the destination differs.
 */
static stime_t bounce(bool cross)
{
	static const char xml[] =
		"<scenario duration=\"1s\"><host sockets=\"2\" cores-per-socket=\"2\" nodes=\"2\""
		" hw=\"model\" cstates=\"\"/>"
		"<domain name=\"a\" vcpus=\"1\" numa-nodes=\"0,1\">"
		"<workload type=\"cpu-hog\" working_set=\"4MiB\" smt_speed=\"1\"/></domain></scenario>";
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "credit2");
	struct vcpu *v = s->domains[0]->vcpus[0];
	struct cpumask *m = cpumask_alloc((unsigned)s->nr_cpus);
	stime_t work;

	for (int k = 0; k < 100; k++) {
		cpumask_zero(m);
		cpumask_set(m, cross && k % 2 ? 2 : 0);
		ck_assert_int_eq(vcpu_set_affinity(s, v, m, NULL), 0);
		sim_run_until(s, MSEC(3) * (k + 1));
	}
	sim_account_all(s);
	ck_assert(v->st.runstate_ns[RUNSTATE_RUNNING] > MSEC(299));
	work = v->st.hw.work_ns;
	/*
	 * 100 fills of 4 MiB from memory half remote (x 1.3), a third of it
	 * paid (MISS_POWER 0.5): 230 us each over its 3.54 ms of work, of
	 * which a 3 ms run does most.
	 */
	if (cross)
		ck_assert_msg(v->st.hw.lost_ns[HW_LOST_CACHE] > 100 * 0.7 * 4 * 1048576 / 7.9 * 1.3 / 3,
			      "%lld", (long long)v->st.hw.lost_ns[HW_LOST_CACHE]);
	else
		ck_assert_msg(v->st.hw.lost_ns[HW_LOST_CACHE] < MSEC(1),
			      "%lld", (long long)v->st.hw.lost_ns[HW_LOST_CACHE]);
	cpumask_free(m);
	destroy(s, &sc);
	return work;
}

START_TEST(bounced_between_sockets_does_less_work)
{
	stime_t stay = bounce(false), moved = bounce(true);

	ck_assert_msg(moved < stay * 0.95, "bounced %lld, stayed %lld", (long long)moved,
		      (long long)stay);
}
END_TEST

/* ---- idle states ---- */

/*
 * The idle-state tests' host: one socket with hw="model" and the <host>
 * attributes host_attrs (its cores and threads, max-cstate, ipi-latency),
 * a domain a of vcpus vCPUs, built under sched; freed with destroy.
 */
static struct sim *idle_host(struct scenario *sc, const char *host_attrs, int vcpus,
			     const char *sched)
{
	char xml[256];
	int n = snprintf(xml, sizeof(xml),
			 "<scenario><host sockets=\"1\" hw=\"model\" %s/>"
			 "<domain name=\"a\" vcpus=\"%d\"/></scenario>", host_attrs, vcpus);

	ck_assert_msg(n > 0 && (size_t)n < sizeof(xml), "idle_host: scenario too long");
	return test_build(sc, xml, sched);
}

/*
 * One idle period of pCPU cpu, from *t (when it last went idle or woke):
 * idle for idle, woken then; *t moves past the exit; returns the exit.
 */
static stime_t idle_for(struct sim *s, int cpu, stime_t *t, stime_t idle)
{
	stime_t lat;

	*t += idle;
	lat = hw_wake_delay(s->hw, cpu, *t);
	*t += lat;
	return lat;
}

START_TEST(cstate_exit_latency_by_idle_time)
{
	struct scenario sc;
	struct sim *s = idle_host(&sc, "cores-per-socket=\"4\"", 1, "null");
	stime_t t;

	/* pCPUs idle since 0. */
	ck_assert_int_eq(hw_wake_delay(s->hw, 0, 0), 0);            /* not asleep yet */
	ck_assert_int_eq(hw_wake_delay(s->hw, 0, USEC(5)), USEC(3));    /* C1 */
	ck_assert_int_eq(hw_wake_delay(s->hw, 0, USEC(6)), USEC(2));    /* that wake-up */
	/*
	 * Xen's menu governor: a state past C1 only when its exit x 10 is
	 * within the decaying average of the pCPU's earlier idles (none at
	 * boot).  Idles of 30 us reach C1E's residency but never its 100 us.
	 */
	t = 0;
	for (int k = 0; k < 10; k++)
		ck_assert_int_eq(idle_for(s, 1, &t, USEC(30)), USEC(3));
	/* Idles of 1 ms: C1, then C3 (average 250 us), never C6 (2 ms). */
	t = 0;
	ck_assert_int_eq(idle_for(s, 2, &t, MSEC(1)), USEC(3));
	for (int k = 0; k < 10; k++)
		ck_assert_int_eq(idle_for(s, 2, &t, MSEC(1)), USEC(20));
	/* Idles of 5 ms: C1, C3 (average 1250 us), then C6 (2188 us). */
	t = 0;
	ck_assert_int_eq(idle_for(s, 3, &t, MSEC(5)), USEC(3));
	ck_assert_int_eq(idle_for(s, 3, &t, MSEC(5)), USEC(20));
	ck_assert_int_eq(idle_for(s, 3, &t, MSEC(5)), USEC(200));
	/* A short idle after them: the residency rule still takes C1. */
	ck_assert_int_eq(idle_for(s, 3, &t, USEC(5)), USEC(3));
	/* A running pCPU is awake. */
	s->pcpus[3].curr = s->domains[0]->vcpus[0];
	ck_assert_int_eq(hw_wake_delay(s->hw, 3, t + MSEC(10)), 0);
	s->pcpus[3].curr = s->pcpus[3].idle;
	destroy(s, &sc);
	s = idle_host(&sc, "cores-per-socket=\"4\" max-cstate=\"1\"", 1, "null");
	t = 0;
	ck_assert_int_eq(idle_for(s, 3, &t, MSEC(5)), USEC(3));
	ck_assert_int_eq(idle_for(s, 3, &t, MSEC(5)), USEC(10));   /* C1E at most */
	ck_assert_int_eq(idle_for(s, 3, &t, MSEC(5)), USEC(10));
	destroy(s, &sc);
	s = idle_host(&sc, "cores-per-socket=\"4\" max-cstate=\"0\"", 1, "null");
	t = 0;
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(idle_for(s, 3, &t, MSEC(5)), USEC(3));    /* halt */
	destroy(s, &sc);
	/* A table led by Linux's POLL state (bare-metal Linux): no such rule. */
	s = idle_host(&sc, "cores-per-socket=\"2\" cstates=\"POLL:1:0us:0us,C1:1:2us:2us,"
		      "C1E:1:10us:20us\"", 1, "null");
	ck_assert_int_eq(hw_wake_delay(s->hw, 1, USEC(30)), USEC(10));
	destroy(s, &sc);
}
END_TEST

/*
 * sched-gran=core: a thread idle inside a guest's unit is in the series'
 * guest_idle_loop (sched_guest_idle, urgent), which the July 2019 staging's
 * mwait_idle halts (C1, with the IPI); the same thread under its idle unit
 * sleeps as deep as its idle time allows.
 */
START_TEST(cstate_guest_idle_thread_stays_shallow)
{
	struct scenario sc;
	struct sim *s = idle_host(&sc, "cores-per-socket=\"2\" threads-per-core=\"2\"", 2,
				  "credit2:gran=core");
	struct vcpu *u = s->domains[0]->units[0];
	stime_t t = 0, t2 = 0;

	/* Thread 1 idle since 0 under its idle unit: C6 from its third 5 ms idle. */
	idle_for(s, 1, &t, MSEC(5));
	idle_for(s, 1, &t, MSEC(5));
	ck_assert_int_eq(idle_for(s, 1, &t, MSEC(5)), USEC(200));
	idle_for(s, 2, &t2, MSEC(5));       /* thread 2's history: two 5 ms idles */
	idle_for(s, 2, &t2, MSEC(5));
	/*
	 * Thread 3's resource runs a's unit (its vCPU 1 not running): the
	 * July 2019 staging's mwait_idle halts it, C1 (3 us in this table),
	 * not C1E (10 us) after 5 ms, and a softirq raised there takes the IPI.
	 */
	ck_assert(u != NULL && u->nr_members == 2);
	s->pcpus[2].unit = s->pcpus[3].unit = u;
	ck_assert(hw_needs_ipi(s->hw, 3));
	ck_assert_int_eq(hw_wake_delay(s->hw, 3, MSEC(5)), USEC(3));
	/* Thread 2 halts too, and the governor sees none of these idles. */
	ck_assert_int_eq(idle_for(s, 2, &t2, MSEC(5)), USEC(3));
	s->pcpus[2].unit = s->pcpus[3].unit = s->pcpus[3].idle_unit;
	ck_assert_int_eq(idle_for(s, 2, &t2, MSEC(5)), USEC(200));
	destroy(s, &sc);
}
END_TEST

/*
 * The core: a softirq raised on a pCPU asleep in MWAIT runs after the exit
 * alone (no IPI: Xen's arch_skip_send_event_check); on a halted one
 * (max-cstate=0) after the IPI and the exit.
 */
START_TEST(raise_on_a_sleeping_pcpu_waits_for_its_exit)
{
	struct scenario sc;
	struct sim *s = idle_host(&sc, "cores-per-socket=\"2\" ipi-latency=\"1us\"", 1, "null");
	stime_t t0 = 0, t1 = 0, now;

	/* Both pCPUs with a history of 5 ms idles (C6 allowed), idle since. */
	for (int k = 0; k < 3; k++) {
		idle_for(s, 0, &t0, MSEC(5));
		idle_for(s, 1, &t1, MSEC(5));
	}
	now = (t0 > t1 ? t0 : t1) + MSEC(1);
	s->q.now = now;
	s->this_cpu = 0;
	ck_assert(!hw_needs_ipi(s->hw, 1));
	cpu_raise_softirq(s, 1);            /* idle 1 ms: C6, no IPI */
	ck_assert(timer_pending(&s->pcpus[1].softirq));
	ck_assert_int_eq(s->pcpus[1].softirq.expires, now + USEC(200));
	s->this_cpu = 1;                    /* a local raise meanwhile joins that wake-up */
	cpu_raise_softirq(s, 1);
	ck_assert_int_eq(s->pcpus[1].softirq.expires, now + USEC(200));
	/* A local raise on a sleeping pCPU: its timer interrupt woke it from C6. */
	s->this_cpu = 0;
	cpu_raise_softirq(s, 0);
	ck_assert_int_eq(s->pcpus[0].softirq.expires, now + USEC(200));
	/* A pCPU that runs a vCPU is awake: at once. */
	timer_stop(&s->q, &s->pcpus[0].softirq);
	s->pcpus[0].curr = s->domains[0]->vcpus[0];
	cpu_raise_softirq(s, 0);
	ck_assert_int_eq(s->pcpus[0].softirq.expires, now);
	s->pcpus[0].curr = s->pcpus[0].idle;
	destroy(s, &sc);

	/* max-cstate=0: the idle loop halts and takes the IPI, then C1's exit. */
	s = idle_host(&sc, "cores-per-socket=\"2\" ipi-latency=\"1us\" max-cstate=\"0\"", 1,
		      "null");
	s->q.now = MSEC(1);
	s->this_cpu = 0;
	ck_assert(hw_needs_ipi(s->hw, 1));
	cpu_raise_softirq(s, 1);
	ck_assert_int_eq(s->pcpus[1].softirq.expires, MSEC(1) + USEC(1) + USEC(3));
	destroy(s, &sc);
}
END_TEST

START_TEST(ideal_machine_is_full_speed)
{
	static const char xml[] =
		"<scenario><host sockets=\"1\" cores-per-socket=\"1\" threads-per-core=\"2\" hw=\"ideal\"/>"
		"<domain name=\"a\" vcpus=\"2\"/></scenario>";
	static const struct hw_profile p = { 0.5, 8 << 20, 1, 0 };
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "null");
	struct vcpu **v = s->domains[0]->vcpus;
	struct hw_rate r;

	ck_assert(hw_is_ideal(s->hw));
	switch_on(s, 0, v[0]);
	switch_on(s, 1, v[1]);
	hw_rate(s->hw, v[0], &p, &r);
	ck_assert(r.rate == 1.0);
	ck_assert_int_eq(hw_wake_delay(s->hw, 0, MSEC(5)), 0);
	ck_assert_ptr_null(s->domains[0]->hw.node_mb);
	destroy(s, &sc);
}
END_TEST

/* ---- memory placement ---- */

START_TEST(xl_placement_candidates)
{
	int cpus2[] = { 8, 8 }, cpus4[] = { 4, 4, 4, 4 };
	long long free2[] = { 6144, 6144 }, free4[] = { 1000, 3000, 2000, 3000 };
	int none2[] = { 0, 0 }, dom0[] = { 16, 16 }, busy0[] = { 24, 16 };
	int busy4[] = { 4, 4, 0, 4 };
	bool ch[4];

	/* One node fits: the first of equals. */
	ck_assert_int_eq(numa_place_candidate(2, cpus2, NULL, free2, dom0, 8, 32, ch), 1);
	ck_assert(ch[0] && !ch[1]);
	/* Fewer vCPUs able to run there wins. */
	ck_assert_int_eq(numa_place_candidate(2, cpus2, NULL, free2, busy0, 8, 32, ch), 1);
	ck_assert(!ch[0] && ch[1]);
	/* Too many vCPUs or too much memory for a node: both. */
	ck_assert_int_eq(numa_place_candidate(2, cpus2, NULL, free2, none2, 9, 32, ch), 2);
	ck_assert_int_eq(numa_place_candidate(2, cpus2, NULL, free2, none2, 1, 8192, ch), 2);
	/* Nowhere enough memory: no candidate. */
	ck_assert_int_eq(numa_place_candidate(2, cpus2, NULL, free2, none2, 1, 20000, ch), 0);
	/* One node: nothing to place. */
	ck_assert_int_eq(numa_place_candidate(1, cpus2, NULL, free2, none2, 1, 32, ch), 0);
	/*
	 * 5 vCPUs on 4-pCPU nodes: pairs.  {0,2}, {1,2} and {2,3} have 4 vCPUs;
	 * {1,2} and {2,3} 5000 MiB free, and the first found of equals stays.
	 */
	ck_assert_int_eq(numa_place_candidate(4, cpus4, NULL, free4, busy4, 5, 2000, ch), 2);
	ck_assert(!ch[0] && ch[1] && ch[2] && !ch[3]);
	free4[3] = 3001;
	numa_place_candidate(4, cpus4, NULL, free4, busy4, 5, 2000, ch);
	ck_assert(!ch[0] && !ch[1] && ch[2] && ch[3]);
	/*
	 * A pool of pCPUs of node 1 only (libxl passes the pool's cpumap): node 1,
	 * though node 0 has more free memory; a pool holding 2 pCPUs of each node
	 * gives a 3-vCPU domain both (2 pCPUs per node are too few).
	 */
	{
		int pool1[] = { 0, 4 }, pool01[] = { 2, 2 };
		long long freeb[] = { 9000, 6144 };

		ck_assert_int_eq(numa_place_candidate(2, cpus2, pool1, freeb, none2, 1, 32, ch), 1);
		ck_assert(!ch[0] && ch[1]);
		ck_assert_int_eq(numa_place_candidate(2, cpus2, pool01, free2, none2, 3, 32, ch), 2);
		ck_assert(ch[0] && ch[1]);
		ck_assert_int_eq(numa_place_candidate(2, cpus2, pool1, free2, none2, 5, 32, ch), 0);
	}
}
END_TEST

START_TEST(placement_sets_soft_affinity_and_memory)
{
	static const char xml[] =
		"<scenario><host sockets=\"2\" cores-per-socket=\"4\" threads-per-core=\"2\" nodes=\"2\""
		" hw=\"model\"/>"
		"<domain name=\"dom0\" vcpus=\"16\"/>"
		"<domain name=\"g1\" vcpus=\"8\" memory=\"2048\"/>"
		"<domain name=\"g2\" vcpus=\"8\"/>"
		"<domain name=\"pinned\" vcpus=\"2\"><affinity hard=\"12-15\"/></domain>"
		"<domain name=\"big\" vcpus=\"2\" memory=\"9000\"/></scenario>";
	struct scenario sc;
	struct sim *s = test_build(&sc, xml, "credit2");
	char buf[64];
	struct domain **d = s->domains;

	/* dom0: spread over both nodes, no affinity change. */
	ck_assert_int_eq(d[0]->hw.memory_mb, 0);
	ck_assert_double_eq(d[0]->hw.remote[0], 0.5);
	ck_assert(cpumask_full(d[0]->vcpus[0]->soft));
	/* g1: node 0 (first of equals), soft affinity 0-7. */
	ck_assert_str_eq(cpumask_format(d[1]->vcpus[7]->soft, buf, sizeof(buf)), "0-7");
	ck_assert(cpumask_full(d[1]->vcpus[7]->hard));
	ck_assert(d[1]->hw.node_mb[0] == 2048);
	/* g2: node 1, where fewer vCPUs can run now. */
	ck_assert_str_eq(cpumask_format(d[2]->vcpus[0]->soft, buf, sizeof(buf)), "8-15");
	ck_assert(d[2]->hw.node_mb[1] == 32);
	/* An affinity given: no placement; memory follows the node affinity. */
	ck_assert(cpumask_full(d[3]->vcpus[0]->soft));
	ck_assert(d[3]->hw.node_mb[1] == 32 && d[3]->hw.node_mb[0] == 0);
	/* Too big for a node: both; node 0's 4096 MiB free, the rest on node 1. */
	ck_assert(cpumask_full(d[4]->vcpus[0]->soft));
	ck_assert(d[4]->hw.node_mb[0] == 4096 && d[4]->hw.node_mb[1] == 4904);
	destroy(s, &sc);
}
END_TEST

START_TEST(memory_errors_name_the_domain)
{
	static const struct { const char *xml, *msg; } bad[] = {
		{ "<scenario><host sockets=\"2\" nodes=\"2\" hw=\"model\"/>"
		  "<domain name=\"a\" numa-nodes=\"2\"/></scenario>",
		  "test.xml:1: domain 'a': numa-nodes: node 2 out of range in \"2\" (host has nodes 0-1)" },
		{ "<scenario><host sockets=\"2\" nodes=\"2\" hw=\"model\"/>"
		  "<domain name=\"a\" numa-nodes=\"0\" memory=\"7000\"/></scenario>",
		  "test.xml:1: domain 'a': memory=7000 MiB does not fit on node 0 (6144 MiB free)" },
		{ "<scenario><host sockets=\"2\" nodes=\"2\" hw=\"model\"/>"
		  "<domain name=\"a\" memory=\"13000\"/></scenario>",
		  "test.xml:1: domain 'a': memory=13000 MiB does not fit in the host's free memory (12288 MiB)" },
		{ "<scenario><host hw=\"model\"/>"
		  "<domain name=\"a\" numa-nodes=\"0,\"/></scenario>",
		  "test.xml:1: does not match the schema: Invalid attribute numa-nodes for element domain" },
	};
	for (int i = 0; i < N(bad); i++) {
		struct scenario sc;
		struct sched_spec spec;
		struct err e = { "" };
		struct sim *s = NULL;

		if (scenario_load_memory(bad[i].xml, (int)strlen(bad[i].xml), "test.xml", &sc, &e) == 0) {
			ck_assert_int_eq(sched_spec_parse("credit2", &spec, &e), 0);
			s = sim_build(&sc, &spec, &e);
			sched_spec_free(&spec);
			scenario_free(&sc);
		}
		ck_assert_ptr_null(s);
		ck_assert_str_eq(e.msg, bad[i].msg);
	}
}
END_TEST

START_TEST(node_lists)
{
	bool n[4];
	struct err e;

	ck_assert_int_eq(numa_parse_nodes("0-1,3", 4, n, &e), 0);
	ck_assert(n[0] && n[1] && !n[2] && n[3]);
	ck_assert_int_eq(numa_parse_nodes("2-1", 4, n, &e), -1);
	ck_assert_str_eq(e.msg, "numa-nodes: '2-1' is not a node list (e.g. 0 or 0,1 or 0-3)");
	ck_assert_int_eq(numa_parse_nodes("1", 1, n, &e), -1);
	ck_assert_str_eq(e.msg, "numa-nodes: node 1 out of range in \"1\" (host has node 0)");
}
END_TEST

int main(void)
{
	Suite *su = suite_create("hw");
	TCase *t = tcase_create("core");

	tcase_add_test(t, config_defaults_and_errors);
	tcase_add_test(t, smt_sibling_slows_and_tells);
	tcase_add_test(t, smt_speed_depends_on_what_the_sibling_runs);
	tcase_add_test(t, figures_of_many_profiles);
	tcase_add_test(t, two_compile_threads_per_core_do_kernbench_work);
	tcase_add_test(t, socket_memory_traffic_slows_its_threads);
	tcase_add_test(t, socket_load_retimes_by_each_threads_memory_time);
	tcase_add_test(t, sibling_hears_only_a_different_neighbour);
	tcase_add_test(t, rate_memo_follows_the_core);
	tcase_add_test(t, numa_remote_memory_stretches_memory_time);
	tcase_add_test(t, cache_fill_after_moves_and_cuts);
	tcase_add_test(t, cache_lines_age_by_what_others_touch);
	tcase_add_test(t, bounced_between_sockets_does_less_work);
	tcase_add_test(t, cstate_exit_latency_by_idle_time);
	tcase_add_test(t, cstate_guest_idle_thread_stays_shallow);
	tcase_add_test(t, raise_on_a_sleeping_pcpu_waits_for_its_exit);
	tcase_add_test(t, ideal_machine_is_full_speed);
	tcase_add_test(t, xl_placement_candidates);
	tcase_add_test(t, placement_sets_soft_affinity_and_memory);
	tcase_add_test(t, memory_errors_name_the_domain);
	tcase_add_test(t, node_lists);
	suite_add_tcase(su, t);
	return test_run_suite(su);
}
