/*
 * mutilate against memcached on one machine over loopback TCP, as MMTests
 * runs it (shellpack mutilate-bench and memcached-install of July 2019,
 * gormanm/mmtests 35f6d03f, configs/config-memdb-memcached-mutilate-small):
 * memcached started with its defaults but the pool (-m a quarter of
 * memory), so 4 worker threads (memcached.c settings_init: num_threads 4);
 * then "mutilate -s 127.0.0.1 -T THREADS -V 16384 -r ITEMS -t 180", THREADS
 * from 1 to the CPUs in MMTests' large stride (1, 3, 5, 7, 8 on 8 CPUs).
 * The figure is mutilate's "Total QPS" (ExtractMutilate.pm), Hmean over
 * the iterations: GETs answered per second, higher is better.
 *
 * What each side does per request (leverich/mutilate Connection.cc,
 * mutilate.cc; memcached 1.4/1.5 memcached.c):
 *   mutilate  -T threads, each with -c connections (default 1) of at most
 *             -d requests in flight (default 1), every request a GET
 *             (--update 0.0 by default) of a key of -K bytes (default 30):
 *             "get KEY\r\n".  Without --blocking (MMTests does not give
 *             it) each thread drives its libevent base with
 *             event_base_loop(EVLOOP_NONBLOCK) in a loop: it never
 *             sleeps, each pass an epoll_wait with a zero timeout
 *             (poll_cost) and the exit check, the epoll_wait preceded by
 *             a timerfd_settime (libevent's timerfd for the
 *             EVENT_BASE_FLAG_PRECISE_TIMER mutilate asks for: epoll.c
 *             epoll_dispatch; ctl_cost, precise_timer).  A response ("VALUE KEY 0
 *             16384\r\n", the value, "\r\nEND\r\n") is read by the
 *             bufferevent one read a pass, each of at most 4 KiB
 *             (libevent 2.1's evbuffer_read caps every read at
 *             EVBUFFER_MAX_READ, 4096, below bufferevent's 16 KiB
 *             MAX_SINGLE_READ_DEFAULT: read_max) and each after an
 *             ioctl(FIONREAD) asking what the socket holds
 *             (get_n_bytes_readable_on_socket), and parsed (client_cost:
 *             the parse, the latency sample, the next key and its
 *             request), whose write is one more pass.  Queuing the request
 *             adds the socket's write event (bufferevent_socket_outbuf_cb
 *             -> event_add), and writing it out removes it
 *             (bufferevent_writecb -> event_del, the output being empty):
 *             two epoll_ctl(EPOLL_CTL_MOD) a request, made at once by
 *             libevent's epoll backend without a changelist (epoll.c
 *             epoll_nochangelist_add/del; mutilate asks for none).  The
 *             ioctl, the epoll_ctl and the timerfd_settime are ctl_cost
 *             each (in a PV domain each also refills tlb_refill_small at
 *             its two page-table switches).  The thread reads
 *             the clock after every epoll_wait (libevent's
 *             update_time_cache: CLOCK_MONOTONIC, as mutilate asks for
 *             EVENT_BASE_FLAG_PRECISE_TIMER), at every return of its loop
 *             (the exit check's gettimeofday) and twice a response
 *             (Connection.cc finish_op, drive_write_machine): a vDSO read
 *             (vdso_cost) on bare metal or with Xen's TSC declared stable,
 *             otherwise a system call (clock_cost, tsc_stable).
 *   memcached a worker thread (libevent, blocking epoll_wait) owns the
 *             connections handed to it round robin (dispatch_conn_new:
 *             connection i to thread i mod 4); woken by a request it reads
 *             it (one read of its 2 KiB buffer, DATA_BUFFER_SIZE),
 *             looks the item up and sends the response with one sendmsg
 *             (server_cost: the parse, the hash lookup and item reference,
 *             the iovecs), then waits in epoll_wait again.
 * Both ends set TCP_NODELAY: mutilate on each connection once connected
 * (Connection.cc event_callback, unless --no_nodelay, which MMTests does
 * not give), memcached on its listening socket (memcached.c
 * server_socket), which each accepted socket inherits (Linux 5.1.15
 * net/core/sock.c:1797, sk_clone_lock copies the listener's tcp_sock and
 * its nonagle).  With one request in flight (-d 1) nothing changes: each
 * side sends only after reading the other's data, whose piggybacked ACK
 * acknowledged its previous segment, so Nagle never holds one; with -d
 * above 1 each request leaves as its own segment instead of waiting behind
 * an unacknowledged one.
 * The sockets, their system calls and copies, TCP's segments and ACKs, the
 * wake-ups of a sleeping memcached thread and a PV domain's extras are
 * workloads/loopback.h's, the same as netperf's, the same pricing of a
 * TCP call (one that starts or frees an skb, or one that only appends to
 * or copies out of one).  Each mutilate thread and
 * each memcached thread is a guest task (workloads/split.h's workers).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/kernel_ops.h"
#include "workloads/loopback.h"
#include "workloads/mutilate.h"

struct mutilate_config {
	long long threads, connections, depth, server_threads;
	long long key_size, value_size, read_max, server_read;
	bool nodelay, tsc_stable, precise_timer;
	stime_t client_cost, server_cost, poll_cost, ctl_cost, clock_cost, vdso_cost;
	stime_t tlb_refill_small;
	stime_t warmup, time;
	struct lo_costs lo;
	double noise, run_noise;
};

#define OFF(f) offsetof(struct mutilate_config, f)
#define LO_OFF(f) OFF(lo.f)

static const struct param_def mutilate_params[] = {
	{ "threads", PARAM_INT, "1", NULL, 1, 256,
	  "mutilate -T: client threads (MMTests runs 1 to the CPUs)", OFF(threads) },
	{ "connections", PARAM_INT, "1", NULL, 1, 64,
	  "mutilate -c: connections per thread (mutilate's default 1, as MMTests runs it)",
	  OFF(connections) },
	{ "depth", PARAM_INT, "1", NULL, 1, 64,
	  "mutilate -d: requests in flight per connection (default 1)", OFF(depth) },
	{ "server_threads", PARAM_INT, "4", NULL, 1, 256,
	  "memcached -t: worker threads (memcached's default 4; MMTests does not set it)",
	  OFF(server_threads) },
	{ "key_size", PARAM_SIZE, "30", NULL, 1, 250,
	  "mutilate -K: key bytes (default 30)", OFF(key_size) },
	{ "value_size", PARAM_SIZE, "16384", NULL, 1, 1 << 20,
	  "mutilate -V: value bytes (MMTests' MUTILATE_VALUE_SIZE 16384)", OFF(value_size) },
	{ "read_max", PARAM_SIZE, "4096", NULL, 1, 1 << 20,
	  "bytes a bufferevent reads per pass (libevent 2.1 evbuffer_read's EVBUFFER_MAX_READ)",
	  OFF(read_max) },
	{ "server_read", PARAM_SIZE, "2048", NULL, 1, 1 << 20,
	  "bytes memcached reads per read() (its DATA_BUFFER_SIZE)", OFF(server_read) },
	{ "nodelay", PARAM_BOOL, "on", NULL, 0, 0,
	  "TCP_NODELAY on mutilate's sockets (Connection.cc sets it unless --no_nodelay; "
	  "memcached's sockets always have it)", OFF(nodelay) },
	{ "precise_timer", PARAM_BOOL, "on", NULL, 0, 0,
	  "libevent's EVENT_BASE_FLAG_PRECISE_TIMER, which mutilate sets (mutilate.cc "
	  "do_mutilate): libevent 2.1's epoll backend then keeps a timerfd and calls "
	  "timerfd_settime before every epoll_wait (epoll.c epoll_dispatch), one more small "
	  "system call a pass of the client's loop; off, a libevent without the flag",
	  OFF(precise_timer) },
	{ "client_cost", PARAM_DURATION, "1us", NULL, 0, 0,
	  "mutilate's user-space CPU per request: the response's parse, the latency sample, "
	  "the next key and request (calibrated on the 2019 HT column's dom0 cells)",
	  OFF(client_cost) },
	{ "server_cost", PARAM_DURATION, "2.5us", NULL, 0, 0,
	  "memcached's user-space CPU per GET: the command's parse, the hash lookup, the "
	  "item's reference and iovecs (calibrated on the 2019 HT column)", OFF(server_cost) },
	{ "poll_cost", PARAM_DURATION, "250ns", NULL, 50, 1e6,
	  "one pass of mutilate's non-blocking event loop: epoll_wait with a zero timeout, "
	  "libevent's bookkeeping and the exit check (an estimate; a PV domain adds a "
	  "system call's extra); at least a system call's 50 ns", OFF(poll_cost) },
	{ "ctl_cost", PARAM_DURATION, "150ns", NULL, 0, 1e6,
	  "one of mutilate's small system calls: the ioctl(FIONREAD) before each read, the "
	  "two epoll_ctl a request, the timerfd_settime of each pass (precise_timer; an "
	  "estimate; a PV domain adds a system call's extra)",
	  OFF(ctl_cost) },
	{ "clock_cost", PARAM_DURATION, "150ns", NULL, 0, 1e6,
	  "one of mutilate's clock reads made as a system call (clock_gettime or "
	  "gettimeofday: entry and exit, the timekeeping read through Xen's pvclock) in a "
	  "Xen guest whose vDSO cannot read the clock (an estimate; a PV domain adds a "
	  "system call's extra)", OFF(clock_cost) },
	{ "vdso_cost", PARAM_DURATION, "20ns", NULL, 0, 1e6,
	  "one of mutilate's clock reads served by the vDSO (bare metal, or a Xen guest with "
	  "tsc_stable): rdtsc and the conversion (an estimate)", OFF(vdso_cost) },
	{ "tsc_stable", PARAM_BOOL, "on", NULL, 0, 0,
	  "Xen sets XEN_PVCLOCK_TSC_STABLE_BIT (only when booted with clocksource=tsc), so a "
	  "guest's vDSO reads the xen clocksource itself; off, Xen's default: every clock read "
	  "of a Xen guest is a system call (on: an assumption set on the 2019 dom0 HT cells, "
	  "doc/workloads.md)", OFF(tsc_stable) },
	{ "tlb_refill_small", PARAM_DURATION, "75ns", NULL, 0, 1e6,
	  "PV only: the TLB refill per page-table switch of one of mutilate's and "
	  "memcached's small calls (epoll_wait, timerfd_settime, ioctl(FIONREAD), "
	  "epoll_ctl, a clock read), whose paths touch about half the kernel pages of "
	  "the TCP calls tlb_refill_tcp was set on (an estimate, doc/workloads.md)",
	  OFF(tlb_refill_small) },
	{ "warmup", PARAM_DURATION, "20ms", NULL, 0, 1e15,
	  "time before the test is measured", OFF(warmup) },
	{ "time", PARAM_DURATION, "200ms", NULL, 1000000, 1e15,
	  "measured time (mutilate -t; MMTests runs 180 s); the run then ends", OFF(time) },
	LO_PARAMS(LO_OFF),
	LO_NOISE_PARAMS(OFF, "batch's CPU time", ""),
	{ NULL }
};

enum { SERVER_EPOLL };
static const char *const server_reasons[TASK_BLOCK_REASONS] = { "epoll" };

struct mc_conn {
	struct lo_conn lo;          /* end 0 mutilate's, end 1 memcached's */
	int depth;                  /* requests in flight */
	uint64_t rx_buf;            /* response bytes read, not yet a whole response */
	uint64_t req_buf;           /* request bytes memcached read, not yet answered */
};

struct mutilate;

struct mc_client {
	struct mutilate *m;
	struct worker *w;
	int first, n;               /* its connections */
	int next;                   /* round robin over them */
	stime_t seen_ran;           /* its task's last_ran at the last batch */
	/* the batch under way */
	struct mc_conn *conn;
	struct lo_rx rx;
	uint64_t sends, done;
};

struct mc_server {
	struct mutilate *m;
	struct worker *w;
	int next;
	struct mc_conn *conn;
	struct lo_rx rx;
	uint64_t answers;
};

struct mutilate {
	struct workload *w;
	const struct mutilate_config *c;
	uint64_t req_bytes, resp_bytes;
	double half_width, run_factor;
	int nconns;
	struct mc_conn *conns;
	struct mc_client *clients;
	struct mc_server *servers;
	int nclients, nservers;
	stime_t warm_end;
	bool measuring;
	uint64_t answered;
	struct workload_window window;
};

/* "get KEY\r\n" and "VALUE KEY 0 SIZE\r\n" DATA "\r\nEND\r\n". */
static uint64_t digits(uint64_t v)
{
	uint64_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

uint64_t mutilate_request_bytes(uint64_t key)
{
	return 4 + key + 2;
}

uint64_t mutilate_response_bytes(uint64_t key, uint64_t value)
{
	return 6 + key + 3 + digits(value) + 2 + value + 2 + 5;
}

static stime_t cost(struct mutilate *m, stime_t work)
{
	return workload_cost(&m->w->rng, m->run_factor, m->half_width, (double)work);
}

/*
 * n system calls whose path touches no skb, IP, lo or softirq page (an
 * epoll_wait, a timerfd_settime, an ioctl(FIONREAD) or an epoll_ctl on a
 * socket, a clock read): their PV extra, each page-table switch refilling
 * tlb_refill_small, the kernel pages of such a short path.
 */
static stime_t small_calls(struct mutilate *m, uint64_t n)
{
	return kernel_op_n_cost(m->w->dom->type, KOP_SYSCALL, (double)n,
				(double)m->c->tlb_refill_small);
}

/* passes of the event loop and their system calls, as a PV domain prices them */
static stime_t passes(struct mutilate *m, uint64_t n)
{
	return (stime_t)n * m->c->poll_cost + small_calls(m, n);
}

/*
 * n passes of a mutilate thread's loop.  With EVENT_BASE_FLAG_PRECISE_TIMER
 * (precise_timer) libevent 2.1's epoll_dispatch disarms or sets its timerfd
 * with timerfd_settime before each epoll_wait, even with a zero timeout
 * (epoll.c:421-445 of release-2.1.8-stable, the timerfd created at
 * epoll.c:191-216 only with the flag): one small call more a pass, whose
 * path (fs/timerfd.c do_timerfd_settime: the context's lock and an
 * hrtimer_try_to_cancel of a timer that is not armed) touches no skb, IP,
 * lo or softirq page and programs no clock event.  memcached's base has no
 * such flag, so its passes have no timerfd (passes).
 */
static stime_t client_passes(struct mutilate *m, uint64_t n)
{
	stime_t t = passes(m, n);

	if (m->c->precise_timer)
		t += (stime_t)n * m->c->ctl_cost + small_calls(m, n);
	return t;
}

/* mutilate's ioctl and epoll_ctl calls: one before each read, two a request sent */
static stime_t ctl_calls(struct mutilate *m, uint64_t reads, uint64_t sends)
{
	uint64_t n = reads + 2 * sends;

	return (stime_t)n * m->c->ctl_cost + small_calls(m, n);
}

/*
 * n clock reads of mutilate's thread: libevent's clock_gettime(CLOCK_MONOTONIC)
 * after each epoll_wait, gettimeofday at each return of its loop and in
 * finish_op and drive_write_machine.  On bare metal, or with Xen's TSC
 * declared stable, the vDSO reads the clock; otherwise the guest's xen
 * clocksource has no vDSO mode and each read is a system call, whose path
 * touches no skb, IP, lo or softirq page (small_calls).
 */
static stime_t clock_reads(struct mutilate *m, uint64_t n)
{
	const struct mutilate_config *c = m->c;

	if (m->w->dom->type == DOMAIN_NATIVE || c->tsc_stable)
		return (stime_t)n * c->vdso_cost;
	return (stime_t)n * c->clock_cost + small_calls(m, n);
}

/*
 * A mutilate thread never sleeps: each batch is one connection's response
 * read, parsed and answered by the next request (its reads and the write
 * each a pass of the loop), a first request on a connection with room, or
 * one empty pass.
 */
static stime_t client_poll(struct sim *s, struct worker *w)
{
	struct mc_client *cl = w->ctx;
	struct mutilate *m = cl->m;
	const struct mutilate_config *c = m->c;
	stime_t work = 0;
	int k;

	(void)s;
	cl->conn = NULL;
	cl->sends = cl->done = 0;
	memset(&cl->rx, 0, sizeof(cl->rx));
	/*
	 * Another task ran on its vCPU since its last batch (it never
	 * sleeps: a memcached thread woken there, or the load balancer's
	 * move): switching back to mutilate's address space is a process
	 * switch, schedule() and switch_mm, in a PV domain the multicall and
	 * the TLB refill after the page-table switch.
	 */
	if (w->task->last_ran != cl->seen_ran)
		work += c->lo.switch_in + lo_kernel_cost(&c->lo, m->w->dom->type, KOP_CTXSW, 1, 0);
	cl->seen_ran = w->task->last_ran;
	for (k = 0; k < cl->n; k++) {
		struct mc_conn *mc = &m->conns[cl->first + (cl->next + k) % cl->n];
		struct lo_sock *so = &mc->lo.end[0];

		if (mc->depth && lo_recv_avail(so) + mc->rx_buf >= m->resp_bytes) {
			uint64_t calls = (m->resp_bytes - mc->rx_buf + (uint64_t)c->read_max - 1) /
					 (uint64_t)c->read_max;

			work += lo_recv_claim(so, calls, (uint64_t)c->read_max, true, &cl->rx);
			cl->done = (mc->rx_buf + cl->rx.bytes) / m->resp_bytes;
			cl->sends = cl->done;
			work += client_passes(m, cl->rx.calls + 1) +
				ctl_calls(m, cl->rx.calls, cl->sends) +
				clock_reads(m, cl->rx.calls + 1 + 2 * cl->done) +
				(stime_t)cl->done * c->client_cost +
				lo_send_work(so, cl->sends, m->req_bytes);
			cl->conn = mc;
			break;
		}
		if (mc->depth < c->depth) {
			cl->sends = (uint64_t)(c->depth - mc->depth);
			work += client_passes(m, 1) + ctl_calls(m, 0, cl->sends) + clock_reads(m, 2) +
				(stime_t)cl->sends * c->client_cost +
				lo_send_work(so, cl->sends, m->req_bytes);
			cl->conn = mc;
			break;
		}
	}
	cl->next = (cl->next + 1) % cl->n;
	if (!cl->conn)
		work += client_passes(m, 1) + clock_reads(m, 2);
	return cost(m, work);
}

static void client_done(struct sim *s, struct worker *w)
{
	struct mc_client *cl = w->ctx;
	struct mutilate *m = cl->m;
	struct mc_conn *mc = cl->conn;

	(void)s;
	if (!mc)
		return;
	if (cl->rx.calls) {
		lo_recv_commit(&mc->lo.end[0], &cl->rx, true);
		mc->rx_buf = (mc->rx_buf + cl->rx.bytes) % m->resp_bytes;
		mc->depth -= (int)cl->done;
		if (m->measuring)
			m->answered += cl->done;
	}
	if (cl->sends) {
		lo_send_commit(&mc->lo.end[0], cl->sends, m->req_bytes);
		mc->depth += (int)cl->sends;
	}
}

/* A memcached thread answers the requests read on one of its connections a batch. */
static stime_t server_poll(struct sim *s, struct worker *w)
{
	struct mc_server *sv = w->ctx;
	struct mutilate *m = sv->m;
	const struct mutilate_config *c = m->c;
	int k;

	(void)s;
	sv->conn = NULL;
	for (k = 0; k < m->nconns; k++) {
		int i = (sv->next + k) % m->nconns;
		struct mc_conn *mc = &m->conns[i];
		struct lo_sock *so = &mc->lo.end[1];
		stime_t work;

		if (i % m->nservers != (int)(sv - m->servers) ||
		    lo_recv_avail(so) + mc->req_buf < m->req_bytes)
			continue;
		work = lo_recv_claim(so, 1, (uint64_t)c->server_read, true, &sv->rx);
		sv->answers = (mc->req_buf + sv->rx.bytes) / m->req_bytes;
		sv->conn = mc;
		sv->next = (i + 1) % m->nconns;
		return cost(m, work + passes(m, 1) + (stime_t)sv->answers * c->server_cost +
				       lo_send_work(so, sv->answers, m->resp_bytes));
	}
	task_block_reason(w->task, SERVER_EPOLL);
	return 0;
}

static void server_done(struct sim *s, struct worker *w)
{
	struct mc_server *sv = w->ctx;
	struct mutilate *m = sv->m;
	struct mc_conn *mc = sv->conn;

	(void)s;
	lo_recv_commit(&mc->lo.end[1], &sv->rx, true);
	mc->req_buf = (mc->req_buf + sv->rx.bytes) % m->req_bytes;
	if (sv->answers)
		lo_send_commit(&mc->lo.end[1], sv->answers, m->resp_bytes);
}

static void mutilate_warm(struct timer *t, void *arg)
{
	struct mutilate *m = arg;
	struct sim *s = m->w->sim;
	int i;

	(void)t;
	m->measuring = true;
	for (i = 0; i < m->nclients; i++)
		task_time_start(s, m->clients[i].w->task);
	for (i = 0; i < m->nservers; i++)
		task_time_start(s, m->servers[i].w->task);
}

static int mutilate_setup(struct workload *w, struct err *e)
{
	const struct mutilate_config *c = w->config;
	struct sim *s = w->sim;
	struct domain *d = w->dom;
	struct guest *g = guest_of(d);
	struct mutilate *m;
	int i, nv = d->nr_vcpus;

	m = xcalloc(1, sizeof(*m));
	w->priv = m;
	m->w = w;
	m->c = c;
	m->req_bytes = mutilate_request_bytes((uint64_t)c->key_size);
	m->resp_bytes = mutilate_response_bytes((uint64_t)c->key_size, (uint64_t)c->value_size);
	m->half_width = c->noise * sqrt(3.0);
	m->run_factor = 1 + c->run_noise * sqrt(3.0) * (2 * rng_uniform(&w->rng) - 1);
	m->nclients = (int)c->threads;
	m->nservers = (int)c->server_threads;
	m->nconns = (int)(c->threads * c->connections);
	m->conns = xcalloc((size_t)m->nconns, sizeof(*m->conns));
	m->clients = xcalloc((size_t)m->nclients, sizeof(*m->clients));
	m->servers = xcalloc((size_t)m->nservers, sizeof(*m->servers));
	/*
	 * memcached starts first, its threads on the first vCPUs; mutilate's
	 * threads after them; then the guest kernel places them all.
	 */
	for (i = 0; i < m->nservers; i++) {
		m->servers[i].m = m;
		m->servers[i].w = worker_create(g, "memcached", TASK_NORMAL, i % nv, false,
						server_poll, server_done, &m->servers[i]);
	}
	for (i = 0; i < m->nclients; i++) {
		struct mc_client *cl = &m->clients[i];

		cl->m = m;
		cl->first = i * (int)c->connections;
		cl->n = (int)c->connections;
		cl->w = worker_create(g, "mutilate", TASK_NORMAL, (m->nservers + i) % nv, false,
				      client_poll, client_done, cl);
	}
	for (i = 0; i < m->nconns; i++) {
		lo_conn_init(&m->conns[i].lo, LO_TCP, &c->lo, d,
			     m->clients[i / (int)c->connections].w,
			     m->servers[i % m->nservers].w, 0, 0);
		m->conns[i].lo.end[0].nodelay = c->nodelay;
		m->conns[i].lo.end[1].nodelay = true;
	}
	m->warm_end = c->warmup;
	workload_window_arm(&m->window, s, c->warmup, c->time, mutilate_warm, m);
	(void)e;
	return 0;
}

static void mutilate_metric(struct workload *w, struct metric *m)
{
	struct mutilate *mu = w->priv;

	memset(m, 0, sizeof(*m));
	m->valid = mu && mu->measuring && sim_now(w->sim) > mu->warm_end;
	m->higher_better = true;
	snprintf(m->name, sizeof(m->name), "requests");
	snprintf(m->unit, sizeof(m->unit), "req/s");
	if (m->valid)
		m->value = (double)mu->answered / ((double)(sim_now(w->sim) - mu->warm_end) / 1e9);
}

static void mutilate_breakdown(struct workload *w, struct breakdown *b)
{
	struct mutilate *m = w->priv;
	struct sim *s = w->sim;
	struct task **t;
	int i;

	if (!m || !m->measuring || sim_now(s) <= m->warm_end)
		return;
	breakdown_init(b, m->warm_end, sim_now(s));
	t = xcalloc((size_t)(m->nclients + m->nservers), sizeof(*t));
	for (i = 0; i < m->nclients; i++)
		t[i] = m->clients[i].w->task;
	for (i = 0; i < m->nservers; i++)
		t[m->nclients + i] = m->servers[i].w->task;
	breakdown_tasks(b, s, "mutilate", t, m->nclients, NULL);
	breakdown_tasks(b, s, "memcached", t + m->nclients, m->nservers, server_reasons);
	free(t);
}

static void mutilate_destroy(struct workload *w)
{
	struct mutilate *m = w->priv;
	int i;

	if (!m)
		return;
	workload_window_cancel(&m->window, w->sim);
	for (i = 0; i < m->nconns; i++)
		lo_conn_free(&m->conns[i].lo);
	for (i = 0; i < m->nclients; i++)
		worker_free(m->clients[i].w);
	for (i = 0; i < m->nservers; i++)
		worker_free(m->servers[i].w);
	free(m->conns);
	free(m->clients);
	free(m->servers);
	free(m);
	w->priv = NULL;
}

const struct workload_ops mutilate_ops = {
	.name = "mutilate",
	.summary = "mutilate's GETs against memcached in one domain over lo, as MMTests runs "
		   "it (threads=T client threads spinning in their event loops, 4 memcached "
		   "threads, 16 KiB values); metric requests/s (mutilate's Total QPS, higher is "
		   "better)",
	.params = mutilate_params,
	.config_size = sizeof(struct mutilate_config),
	.setup = mutilate_setup,
	.hw = { 0.6, 256 << 10, 0.2 },
	.hw_source = "the kernel's network path and 16 KiB copies, as netperf's: smt_speed 0.6, "
		     "working set 256 KiB (socket buffers, the values in flight), mem_intensity "
		     "0.2 (a modelling choice, netperf's)",
	.metric = mutilate_metric,
	.breakdown = mutilate_breakdown,
	.destroy = mutilate_destroy,
};
