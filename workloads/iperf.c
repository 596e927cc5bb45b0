/*
 * iperf: a TCP stream between an iperf client and an iperf server, one in
 * a guest and the other in dom0, over netfront/netback, as Linux 4.x of
 * 2016 runs it (direction=to-dom0: the guest sends, iperf -c in the guest;
 * from-dom0: dom0 sends to iperf -s in the guest).  The path, stage by
 * stage, and the stream's flow control are workloads/pvnet.h's and
 * workloads/tcp.h's; here are iperf's two tasks:
 *
 *   client (iperf -c): write() copies into the socket (tcp_sendmsg) a
 *          segment at a time until the send buffer is full (then it
 *          sleeps in sk_stream_wait_memory), pushing what TCP allows;
 *   server (iperf -s): recv() does the TCP receive processing of what the
 *          driver queued (while a reader is in tcp_recvmsg, Linux 4.x
 *          queues segments to its prequeue or backlog), copies to user and
 *          ACKs.
 *
 * peer=remote puts the other end on a remote host beyond dom0's bridge and
 * physical NIC (workloads/nic.h): the remote end has no task here, and
 * the throughput of a guest's stream is measured where the remote host
 * receives it.
 *
 * Throughput is measured at the server after a warm-up.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/iperf.h"
#include "workloads/pvnet.h"

enum iperf_direction { TO_DOM0, FROM_DOM0 };
enum iperf_peer { PEER_DOM0, PEER_REMOTE };
enum iperf_figure { FIG_TOTAL, FIG_MEAN, FIG_MIN, FIG_MAX };

struct iperf_config {
	int direction, peer, figure;
	long long streams, max_queues;
	struct pvnet_config net;
	struct nic_config nic;
	stime_t warmup, time;
	long long client_vcpu, server_vcpu;
	double noise, run_noise, work_scale;
};

#define OFF(f) offsetof(struct iperf_config, f)
#define NET_OFF(f) OFF(net.f)
#define NIC_OFF(f) OFF(nic.f)


static const struct param_def iperf_params[] = {
	{ "direction", PARAM_ENUM, "to-dom0", "to-dom0|from-dom0", 0, 0,
	  "which way the stream goes: to-dom0, iperf -c in the guest and iperf -s in dom0 "
	  "(the guest sends, netback's TX path); from-dom0, iperf -c in dom0 (the guest "
	  "receives: netback's guest-rx thread copies into the guest, netfront's RX)",
	  OFF(direction) },
	{ "peer", PARAM_ENUM, "dom0", "dom0|remote", 0, 0,
	  "the other end of the stream: dom0 (iperf in dom0), or remote (iperf on another "
	  "host, through dom0's bridge, its physical NIC and the wire: the nic_ parameters, "
	  "mtu and peer_latency)", OFF(peer) },
	{ "streams", PARAM_INT, "1", NULL, 1, 64,
	  "parallel TCP connections (iperf -P), each its own client and server thread, "
	  "hashed onto the vif's queues", OFF(streams) },
	{ "max_queues", PARAM_INT, "0", NULL, 0, 4096,
	  "netfront's max_queues (0: one per guest vCPU, xennet_max_queues); the vif has "
	  "the smaller of it and netback's (one per dom0 vCPU, xenvif_max_queues)",
	  OFF(max_queues) },
	{ "figure", PARAM_ENUM, "total", "total|mean|min|max", 0, 0,
	  "what the streams' throughputs give: their sum (iperf's [SUM] line), or the "
	  "mean, smallest or largest stream's", OFF(figure) },
	PVNET_PARAMS(NET_OFF),
	NIC_PARAMS(NIC_OFF),
	{ "warmup", PARAM_DURATION, "1s", NULL, 0, 1e15,
	  "time before throughput is measured", OFF(warmup) },
	{ "time", PARAM_DURATION, "10s", NULL, 0, 1e15,
	  "measured time (iperf -t); the run then ends (0: at the scenario's end)", OFF(time) },
	{ "client_vcpu", PARAM_INT, "-1", NULL, -1, 4095,
	  "vCPU of its domain the client is pinned to (iperf -A, taskset; -1: the kernel "
	  "places it)", OFF(client_vcpu) },
	{ "server_vcpu", PARAM_INT, "-1", NULL, -1, 4095,
	  "vCPU of its domain the server is pinned to (-1: the kernel places it)",
	  OFF(server_vcpu) },
	{ "noise", PARAM_DOUBLE, "0.1", NULL, 0, 0.5,
	  "variation of each batch's CPU time (coefficient of variation)", OFF(noise) },
	{ "run_noise", PARAM_DOUBLE, "0.01", NULL, 0, 0.5,
	  "variation of all CPU costs from run to run (coefficient of variation)", OFF(run_noise) },
	{ "work_scale", PARAM_DOUBLE, "0", NULL, 0, 100,
	  "factor on every CPU cost above, the calibration (0: as calibrated for the machine: "
	  "1 on --hw=ideal, " PVNET_MODEL_SCALE_TEXT " with the hardware model)", OFF(work_scale) },
	{ NULL }
};

/* Why the client blocks (its breakdown's "blocked:" parts). */
enum { CLIENT_SNDBUF, CLIENT_CONNECT };
static const char *const client_reasons[TASK_BLOCK_REASONS] = { "sndbuf", "connect" };

struct iperf {
	struct workload *w;
	const struct iperf_config *c;
	struct pvnet net;
	struct workload_window window;
};

/*
 * One segment per batch, as tcp_sendmsg copies skb by skb: wait for the
 * connection, or for memory when the send buffer is full, else copy the
 * next segment and push what TCP allows.
 */
static stime_t client_poll(struct sim *s, struct worker *w)
{
	struct pvnet_flow *f = w->ctx;
	const struct iperf *ip = f->app;
	uint64_t seg = (uint64_t)ip->c->net.segment;

	(void)s;
	if (!pvnet_connected(f)) {
		task_block_reason(w->task, CLIENT_CONNECT);
		return 0;
	}
	if (!pvnet_may_write(f, seg)) {
		task_block_reason(w->task, CLIENT_SNDBUF);
		return 0;
	}
	return pvnet_write_claim(f, seg);
}

static void client_done(struct sim *s, struct worker *w)
{
	(void)s;
	pvnet_write_commit(w->ctx);
}

/* One segment per batch: tcp_recvmsg processes and copies skb by skb. */
static stime_t server_poll(struct sim *s, struct worker *w)
{
	struct pvnet_flow *f = w->ctx;
	const struct iperf *ip = f->app;

	(void)s;
	if (!pvnet_readable(f))
		return 0;
	return pvnet_read_claim(f, (uint64_t)ip->c->net.segment);
}

static void server_done(struct sim *s, struct worker *w)
{
	(void)s;
	pvnet_read_commit(w->ctx);
}

/* The measured interval starts: so does the account of where time goes. */
static void iperf_warm(struct timer *t, void *arg)
{
	struct iperf *ip = arg;

	(void)t;
	pvnet_time_start(&ip->net);
}

static int check_vcpu(const char *what, long long v, const struct domain *d, struct err *e)
{
	if (v >= d->nr_vcpus)
		return err_set(e, "iperf: %s=%lld but domain %s has %d vCPUs",
			       what, v, d->name, d->nr_vcpus);
	return 0;
}

static int iperf_check(const struct iperf_config *c, const struct domain *g,
		       const struct domain *d0, struct err *e)
{
	bool to_dom0 = c->direction == TO_DOM0;

	if (!d0 || d0 == g)
		return err_set(e, "iperf runs in a guest and needs dom0 (domid 0) for the %s",
			       c->peer == PEER_REMOTE ? "bridge and NIC" :
			       to_dom0 ? "server" : "client");
	if (pvnet_check(&c->net, "iperf", g, d0, e) < 0 ||
	    nic_check(&c->nic, "iperf", d0, e) < 0)
		return -1;
	if (c->peer == PEER_REMOTE) {
		/* the remote end's task is on the other host */
		if (to_dom0 && c->server_vcpu >= 0)
			return err_set(e, "iperf: server_vcpu=%lld but with peer=remote the server "
				       "is on the remote host", c->server_vcpu);
		if (!to_dom0 && c->client_vcpu >= 0)
			return err_set(e, "iperf: client_vcpu=%lld but with peer=remote the client "
				       "is on the remote host", c->client_vcpu);
		return check_vcpu("client_vcpu", c->client_vcpu, g, e) < 0 ||
		       check_vcpu("server_vcpu", c->server_vcpu, g, e) < 0 ? -1 : 0;
	}
	if (
	    check_vcpu("client_vcpu", c->client_vcpu, to_dom0 ? g : d0, e) < 0 ||
	    check_vcpu("server_vcpu", c->server_vcpu, to_dom0 ? d0 : g, e) < 0)
		return -1;
	return 0;
}

static int iperf_setup(struct workload *w, struct err *e)
{
	const struct iperf_config *c = w->config;
	struct domain *d0 = split_dom0(w->sim);
	struct sim *s = w->sim;
	bool to_dom0 = c->direction == TO_DOM0;
	const struct pvnet_app client = { "iperf-client", client_poll, client_done,
					  c->client_vcpu };
	const struct pvnet_app server = { "iperf-server", server_poll, server_done,
					  c->server_vcpu };
	struct iperf *ip;
	enum pvnet_where peer;
	double run_factor;
	int nq;

	if (iperf_check(c, w->dom, d0, e) < 0)
		return err_prefix(e, "%s:%d", w->source, w->spec->line);
	ip = xcalloc(1, sizeof(*ip));
	w->priv = ip;
	ip->w = w;
	ip->c = c;
	run_factor = 1 + c->run_noise * sqrt(3.0) * (2 * rng_uniform(&w->rng) - 1);
	run_factor *= c->work_scale > 0 ? c->work_scale
		    : hw_is_ideal(s->hw) ? 1.0 : PVNET_MODEL_SCALE;
	pvnet_init(&ip->net, s, &c->net, &w->rng, c->noise, run_factor);
	ip->net.warm_end = c->warmup;
	/* dom0's one NIC: an earlier guest's iperf or netperf may have set it up */
	if (c->peer == PEER_REMOTE &&
	    pvnet_attach_nic(&ip->net, &c->nic, to_dom0, "iperf", w->dom->name, e) < 0) {
		pvnet_free(&ip->net);
		free(ip);
		w->priv = NULL;
		return err_prefix(e, "%s:%d", w->source, w->spec->line);
	}
	peer = c->peer == PEER_REMOTE ? PVNET_REMOTE : PVNET_DOM0;
	/*
	 * netfront asks for min(max_queues, the backend's multi-queue-max-queues)
	 * queues; a connection's skbs take queue skb_get_hash % queues
	 * (xennet_select_queue), the hash a keyed jhash of its ports: a draw.
	 * A single stream keeps the one queue it makes.
	 */
	nq = c->max_queues ? (int)c->max_queues : w->dom->nr_vcpus;
	if (nq > d0->nr_vcpus)
		nq = d0->nr_vcpus;
	for (long long i = 0; i < c->streams; i++) {
		int q = c->streams == 1 ? -1 : (int)(rng_next(&w->rng) % (uint64_t)nq);

		pvnet_flow_add(&ip->net, guest_of(w->dom), q, to_dom0 ? PVNET_GUEST : peer,
			       to_dom0 ? peer : PVNET_GUEST, &client, &server, ip);
	}
	pvnet_start(&ip->net);
	workload_window_arm(&ip->window, s, c->warmup, c->time, iperf_warm, ip);
	return 0;
}

static void iperf_metric(struct workload *w, struct metric *m)
{
	struct iperf *ip = w->priv;
	stime_t now = sim_now(w->sim);

	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "throughput");
	snprintf(m->unit, sizeof(m->unit), "Gbit/s");
	m->higher_better = true;
	m->valid = ip && now > ip->net.warm_end;
	if (!m->valid)
		return;
	for (int i = 0; i < ip->net.nflows; i++) {
		double v = (double)ip->net.flows[i]->measured * 8 / (double)(now - ip->net.warm_end);

		if (ip->c->figure == FIG_TOTAL || ip->c->figure == FIG_MEAN)
			m->value += v;
		else if (!i || (ip->c->figure == FIG_MIN ? v < m->value : v > m->value))
			m->value = v;
	}
	if (ip->c->figure == FIG_MEAN)
		m->value /= ip->net.nflows;
}

/* Each stage's time over the measured interval, in pipeline order, then TCP's sender. */
static void iperf_breakdown(struct workload *w, struct breakdown *b)
{
	struct iperf *ip = w->priv;
	struct sim *s = w->sim;
	const struct pvnet_flow *f;

	if (!ip || !ip->net.nflows || sim_now(s) <= ip->net.warm_end)
		return;
	f = ip->net.flows[0];
	if (!(f->sender ? f->sender : f->receiver)->task->timed)
		return;
	breakdown_init(b, ip->net.warm_end, sim_now(s));
	pvnet_breakdown(&ip->net, b, "client", client_reasons, "server", NULL);
}

static void iperf_destroy(struct workload *w)
{
	struct iperf *ip = w->priv;

	if (!ip)
		return;
	workload_window_cancel(&ip->window, w->sim);
	pvnet_free(&ip->net);
	free(ip);
	w->priv = NULL;
}

const struct workload_ops iperf_ops = {
	.name = "iperf",
	.summary = "a TCP stream between a guest and an iperf client or server in dom0 over "
		   "netfront/netback (direction=to-dom0|from-dom0), or on a remote host "
		   "through dom0's NIC (peer=remote), under Linux's TCP Small "
		   "Queues, receive window and send buffer; metric throughput (Gbit/s, higher "
		   "is better) after a warm-up",
	.params = iperf_params,
	.config_size = sizeof(struct iperf_config),
	.setup = iperf_setup,
	.hw = { 0.55, 512 << 10, 0.5, 0 },
	.hw_source = "memory copies: smt_speed at the low end of hardware.md's 0.55 to 0.75 (memory-"
		     "bound code gains little from a second thread); working set: the 512 KiB window "
		     "of bytes in flight; mem_intensity 0.5: copies wait on memory about half the "
		     "time, a modelling choice",
	.metric = iperf_metric,
	.breakdown = iperf_breakdown,
	.destroy = iperf_destroy,
};
