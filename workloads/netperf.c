/*
 * netperf: one netperf test between netperf (the client) and netserver,
 * as MMTests runs it (shellpack netperf-bench of mid-2019, netperf 2.4.5:
 * "netperf -t TEST -i 3,3 -I 95,5 -H 127.0.0.1 -- -m SIZE -M SIZE", each
 * run netperf's default 10 s; src/nettest_bsd.c send_udp_stream /
 * recv_udp_stream, send_tcp_stream / recv_tcp_stream, send_tcp_rr /
 * recv_tcp_rr):
 *
 *   UDP_STREAM  netperf send()s datagrams of SIZE bytes as fast as it can
 *               (a failed send is counted and the loop goes on); netserver
 *               recv()s them into a buffer of -M bytes.  The figure MMTests
 *               reports ("send-SIZE", ExtractNetperf.pm) is the sender's:
 *               datagrams sent x SIZE / elapsed; the receiver's ("recv-")
 *               misses the datagrams the receive buffer dropped.
 *   TCP_STREAM  the same over one TCP connection; netperf stops its clock
 *               when netserver has read all it wrote, so its figure is
 *               what the reader took.
 *   UDP_RR      TCP_RR's transactions over UDP sockets (send_udp_rr /
 *               recv_udp_rr): the same calls, one datagram each way.
 *   STREAM_STREAM  TCP_STREAM's loop over a connected pair of Unix-domain
 *               stream sockets (src/nettest_unix.c send_stream_stream /
 *               recv_stream_stream, built with -DWANT_UNIX as MMTests'
 *               netperf-unix does): netperf send()s SIZE bytes at a time
 *               until the time is up and close()s; netserver recv()s -M
 *               bytes at a time.  The figure is the sender's (bytes sent /
 *               elapsed, close() not waiting for the reader), bounded by the
 *               reader's pace through the send buffer (loopback.h, LO_UNIX),
 *               which netperf 2.4.5 asks to be 0 bytes and Linux makes 4608
 *               (unix_sndbuf below): the writer sleeps after two skbs of
 *               2 KiB or six of 64 bytes and is woken when the reader has
 *               freed all but a quarter of it.
 *               peer=loopback only: the sockets' path is af_unix, no lo.
 *   TCP_RR      one transaction at a time: netperf sends a request of
 *               request_size bytes and waits for the response_size bytes
 *               netserver sends back (1 and 1, netperf's defaults, as the
 *               netperf-rr configs run it); the figure is transactions/s,
 *               and each transaction's time gives the latency percentiles.
 *
 * Both are guest tasks (workloads/split.h's workers: each batch of calls
 * is claimed when the task runs and its effects published when its work
 * is done).  A stream's sender batches consecutive calls up to batch_time
 * of work (and, for UDP, half the receive buffer's datagrams, so
 * a batch arriving at once does not overflow a buffer a reader drains as
 * it fills); a reader takes what is queued, up to the same bound.  A
 * transaction is a batch of its own: its calls wait on each other.
 *
 * The peer is where netserver runs and the path between the two: a seam.
 * peer=loopback (MMTests' 127.0.0.1): netserver in the same domain, the
 * two sockets connected over lo (workloads/loopback.h), the receive
 * processing in the sender's context.  peer=dom0: netserver in dom0 (or,
 * direction=from-dom0, netperf there), TCP_RR's packets over netfront /
 * netback (below).  Other peers fill struct np_peer_ops: where
 * netserver's task runs, and the socket calls of each end (room, work and
 * commit of a batch of sends; what is queued, work and commit of a batch
 * of receives), for the client's end (0) and the server's (1), and the
 * path's own tasks; the test logic here is the same for all.  TCP_RR and
 * UDP_RR with a remote host behind dom0's NIC take peer=dom0's path with
 * the bridge and the NIC (workloads/nic.h) for dom0's stack
 * (rr_remote_setup), the NIC dom0's one, shared with the streams through
 * it (nic_get; rm_attach).
 * TCP_STREAM and UDP_STREAM to dom0 or to a remote host
 * (peer=dom0|remote) are not such peers: they are iperf's connection
 * (workloads/pvnet.h, nic.h), whose sockets' owners are netperf's and
 * netserver's calls (stream_setup).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine/hist.h"
#include "sim/xalloc.h"
#include "workloads/kernel_ops.h"
#include "workloads/pvnet.h"
#include "workloads/loopback.h"
#include "workloads/netperf.h"

enum np_test { NP_UDP_STREAM, NP_TCP_STREAM, NP_TCP_RR, NP_UDP_RR, NP_STREAM_STREAM };
enum np_peer { NP_PEER_LOOPBACK, NP_PEER_DOM0, NP_PEER_REMOTE };
enum np_direction { NP_TO_DOM0, NP_FROM_DOM0 };
enum np_figure { NP_FIG_AUTO, NP_FIG_SEND, NP_FIG_RECV, NP_FIG_P50, NP_FIG_P90, NP_FIG_P99 };

struct netperf_config {
	int test, peer, direction, figure;
	long long size, recv_size, request_size, response_size;
	long long rcvbuf, sndbuf;
	stime_t batch_time, warmup, time;
	long long client_vcpu, server_vcpu;
	struct lo_costs lo;
	stime_t pv_copy, pv_rx, pv_gc, pv_grant_op, pv_evtchn;
	struct nic_config nic;
	double noise, run_noise;
};

#define OFF(f) offsetof(struct netperf_config, f)
#define LO_OFF(f) OFF(lo.f)
#define NIC_OFF(f) OFF(nic.f)

static const struct param_def netperf_params[] = {
	{ "test", PARAM_ENUM, "UDP_STREAM", "UDP_STREAM|TCP_STREAM|TCP_RR|UDP_RR|STREAM_STREAM",
	  0, 0, "netperf -t (STREAM_STREAM: over a Unix-domain stream socket, peer=loopback)",
	  OFF(test) },
	{ "peer", PARAM_ENUM, "loopback", "loopback|dom0|remote", 0, 0,
	  "where netserver runs: loopback, in the same domain over lo (MMTests' -H 127.0.0.1); "
	  "dom0, netperf in the guest and netserver in dom0 over netfront/netback (TCP_RR, "
	  "TCP_STREAM, UDP_STREAM, UDP_RR); remote, on another host through dom0's bridge and "
	  "NIC (the same four tests)",
	  OFF(peer) },
	{ "direction", PARAM_ENUM, "to-dom0", "to-dom0|from-dom0", 0, 0,
	  "peer=dom0 or remote: to-dom0, netperf in the guest and netserver in dom0 or on the "
	  "remote host (the guest sends: netback's TX path); from-dom0, netperf in dom0 or on "
	  "the remote host and netserver in the guest (netback's guest-rx thread)",
	  OFF(direction) },
	{ "size", PARAM_SIZE, "64", NULL, 1, 65507,
	  "bytes per send of a stream test (-m; MMTests runs 64 to 16384)", OFF(size) },
	{ "recv_size", PARAM_SIZE, "0", NULL, 0, 65507,
	  "bytes per recv of a stream test (-M; 0: size, as MMTests sets it)", OFF(recv_size) },
	{ "request_size", PARAM_SIZE, "1", NULL, 1, 65507,
	  "TCP_RR and UDP_RR request bytes (-r, netperf's default 1)", OFF(request_size) },
	{ "response_size", PARAM_SIZE, "1", NULL, 1, 65507,
	  "TCP_RR and UDP_RR response bytes (-r, netperf's default 1)", OFF(response_size) },
	{ "rcvbuf", PARAM_SIZE, "0", NULL, 0, 1LL << 31,
	  "receive buffer of both sockets (-s/-S; 0: Linux's default, 212992 for UDP, TCP "
	  "autotuned to tcp_rmem[2] 6 MiB)", OFF(rcvbuf) },
	{ "sndbuf", PARAM_SIZE, "0", NULL, 0, 1LL << 31,
	  "send buffer of both sockets (-s/-S; 0: Linux's default, 212992 for UDP, TCP "
	  "autotuned to tcp_wmem[2] 4 MiB; STREAM_STREAM: netperf 2.4.5's request of 0 "
	  "bytes, which Linux raises to 4608)", OFF(sndbuf) },
	{ "figure", PARAM_ENUM, "auto", "auto|send|recv|p50|p90|p99", 0, 0,
	  "the figure of merit: auto (send Mbit/s for a stream over lo, MMTests' send-SIZE; "
	  "the reader's over netfront/netback, what crossed the path; "
	  "transactions/s for TCP_RR), recv (the receiver's Mbit/s), p50/p90/p99 (TCP_RR "
	  "transaction time, us)", OFF(figure) },
	{ "batch_time", PARAM_DURATION, "10us", NULL, 1000, 1e9,
	  "work of consecutive calls a stream's task makes in one batch (the model's time "
	  "resolution; doc/workloads.md, netperf)", OFF(batch_time) },
	{ "warmup", PARAM_DURATION, "100ms", NULL, 0, 1e15,
	  "time before the test is measured", OFF(warmup) },
	{ "time", PARAM_DURATION, "10s", NULL, 1000000, 1e15,
	  "measured time (netperf -l, default 10 s); the run then ends", OFF(time) },
	{ "client_vcpu", PARAM_INT, "-1", NULL, -1, 4095,
	  "vCPU netperf is bound to (-T; -1: the guest kernel places it)", OFF(client_vcpu) },
	{ "server_vcpu", PARAM_INT, "-1", NULL, -1, 4095,
	  "vCPU netserver is bound to (-T; -1: the guest kernel places it)", OFF(server_vcpu) },
	LO_PARAMS(LO_OFF),
	{ "pv_copy_cost", PARAM_DURATION, PVNET_ACK_COST, NULL, 0, 0,
	  "peer=dom0|remote: dom0 CPU per small packet netback copies across, out of the guest "
	  "(netback's poll) or into it (the guest-rx kthread): iperf's ack_cost", OFF(pv_copy) },
	{ "pv_rx_cost", PARAM_DURATION, PVNET_ACK_RX_COST, NULL, 0, 0,
	  "peer=dom0|remote: CPU per small packet received by a driver and TCP's input (dom0's "
	  "stack after netback, the guest's netfront poll): iperf's ack_rx_cost", OFF(pv_rx) },
	{ "pv_gc_cost", PARAM_DURATION, PVNET_GC_COST, NULL, 0, 0,
	  "peer=dom0|remote: guest CPU per TX completion netfront reaps: iperf's gc_cost", OFF(pv_gc) },
	{ "pv_grant_copy_op", PARAM_DURATION, PVNET_GRANT_COPY_OP, NULL, 0, 0,
	  "peer=dom0|remote: Xen's CPU per grant copy op into the guest: iperf's grant_copy_op",
	  OFF(pv_grant_op) },
	{ "pv_evtchn_latency", PARAM_DURATION, PVNET_EVTCHN_LATENCY, NULL, 0, 0,
	  "peer=dom0|remote: event channel send to upcall: iperf's evtchn_latency", OFF(pv_evtchn) },
	NIC_PARAMS(NIC_OFF),
	LO_NOISE_PARAMS(OFF, "batch's CPU time", ""),
	{ NULL }
};

/* Why each task blocks (the breakdown's "blocked:" parts). */
enum { CLIENT_SNDBUF, CLIENT_RESPONSE };
static const char *const client_reasons[TASK_BLOCK_REASONS] = { "sndbuf", "response" };
/* ... and over pvnet (TCP_STREAM to dom0 or a remote host): iperf's client's */
enum { STREAM_SNDBUF, STREAM_CONNECT };
static const char *const stream_client_reasons[TASK_BLOCK_REASONS] = { "sndbuf", "connect" };
enum { SERVER_RECV };
static const char *const server_reasons[TASK_BLOCK_REASONS] = { "recv" };

struct netperf;
struct np_stream;

/* The peer: where netserver runs and the socket calls of each end (see the top). */
struct np_peer_ops {
	const char *name;
	/* The domain whose guest runs netserver. */
	struct domain *(*server_domain)(struct netperf *np, struct err *e);
	/* Connects netperf's end (np->client) and netserver's (np->server). */
	void (*connect)(struct netperf *np);
	uint64_t (*send_room)(struct netperf *np, int end, uint64_t size);
	stime_t (*send_work)(struct netperf *np, int end, uint64_t n, uint64_t size);
	/* ... returns the bytes handed to the path (a Unix socket's writer may stop part-way) */
	uint64_t (*send_commit)(struct netperf *np, int end, uint64_t n, uint64_t size);
	uint64_t (*recv_avail)(struct netperf *np, int end);
	stime_t (*recv_claim)(struct netperf *np, int end, uint64_t calls, uint64_t size,
			      bool answers, struct lo_rx *rx);
	void (*recv_commit)(struct netperf *np, int end, const struct lo_rx *rx, bool answers);
	/* Datagrams the path dropped on the way to end (0 if it drops none). */
	uint64_t (*drops)(struct netperf *np, int end);
	/* The path's own tasks (NULL: none): their accounts start, their breakdown stages. */
	void (*time_start)(struct netperf *np);
	void (*stages)(struct netperf *np, struct breakdown *b);
	void (*destroy)(struct netperf *np);
};


struct netperf {
	struct workload *w;
	const struct netperf_config *c;
	const struct np_peer_ops *peer;
	struct worker *client, *server;
	void *path;                      /* the peer's state */
	double half_width, run_factor;
	/* the batch each task is running */
	uint64_t cl_sends, srv_sends;
	struct lo_rx cl_rx, srv_rx;
	bool outstanding;                /* TCP_RR: a request awaits its response */
	stime_t req_at;                  /* when it was sent */
	/* the measured interval */
	stime_t warm_end;
	bool measuring;
	uint64_t sent_bytes, recv_bytes, transactions;
	struct hist latency;
	struct workload_window window;
	struct np_stream *stream;        /* TCP_STREAM to dom0 or a remote host */
};

/* ------------------------------------------------------------------------ */
/* peer=loopback: netserver beside netperf, the sockets over lo */

struct np_loopback {
	struct lo_conn conn;
};

static struct lo_sock *lo_end(struct netperf *np, int end)
{
	return &((struct np_loopback *)np->path)->conn.end[end];
}

static struct domain *lo_server_domain(struct netperf *np, struct err *e)
{
	(void)e;
	return np->w->dom;
}

/*
 * netperf 2.4.5's nettest_unix.c asks for socket buffers of 0 bytes unless
 * -s/-S say otherwise (init_test_vars: lss_size_req 0, and netserver gets
 * 0 in the request; create_unix_socket -> set_sock_buffer, netlib.c, calls
 * setsockopt for any request >= 0).  Linux raises SO_SNDBUF 0 to
 * SOCK_MIN_SNDBUF, so netperf's writer has a 4608-byte sk_sndbuf.  netperf
 * took -1 for "the system's default" only from 2.6.0 (commit 3477cd7,
 * April 2012); sndbuf=212992 models that.
 */
static uint64_t unix_sndbuf(const struct netperf_config *c)
{
	return c->sndbuf ? (uint64_t)c->sndbuf : LO_MIN_SNDBUF;
}

static void lo_connect(struct netperf *np)
{
	const struct netperf_config *c = np->c;
	struct np_loopback *lp = xcalloc(1, sizeof(*lp));
	bool unix_stream = c->test == NP_STREAM_STREAM;

	np->path = lp;
	lo_conn_init(&lp->conn,
		     unix_stream ? LO_UNIX
		     : c->test == NP_UDP_STREAM || c->test == NP_UDP_RR ? LO_UDP : LO_TCP,
		     &c->lo,
		     np->w->dom, np->client, np->server, (uint64_t)c->rcvbuf,
		     unix_stream ? unix_sndbuf(c) : (uint64_t)c->sndbuf);
}

static uint64_t lo_room(struct netperf *np, int end, uint64_t size)
{
	return lo_send_room(lo_end(np, end), size);
}

static stime_t lo_swork(struct netperf *np, int end, uint64_t n, uint64_t size)
{
	return lo_send_work(lo_end(np, end), n, size);
}

static uint64_t lo_scommit(struct netperf *np, int end, uint64_t n, uint64_t size)
{
	struct lo_sock *s = lo_end(np, end);
	uint64_t before = s->sent_bytes;

	lo_send_commit(s, n, size);
	return s->sent_bytes - before;
}

static uint64_t lo_avail(struct netperf *np, int end)
{
	return lo_recv_avail(lo_end(np, end));
}

static stime_t lo_rclaim(struct netperf *np, int end, uint64_t calls, uint64_t size,
			 bool answers, struct lo_rx *rx)
{
	return lo_recv_claim(lo_end(np, end), calls, size, answers, rx);
}

static void lo_rcommit(struct netperf *np, int end, const struct lo_rx *rx, bool answers)
{
	lo_recv_commit(lo_end(np, end), rx, answers);
}

static uint64_t lo_drops(struct netperf *np, int end)
{
	return lo_end(np, end)->drops;
}

static void lo_destroy(struct netperf *np)
{
	struct np_loopback *lp = np->path;

	if (lp)
		lo_conn_free(&lp->conn);
	free(lp);
	np->path = NULL;
}

static const struct np_peer_ops peer_loopback = {
	.name = "loopback",
	.server_domain = lo_server_domain,
	.connect = lo_connect,
	.send_room = lo_room,
	.send_work = lo_swork,
	.send_commit = lo_scommit,
	.recv_avail = lo_avail,
	.recv_claim = lo_rclaim,
	.recv_commit = lo_rcommit,
	.drops = lo_drops,
	.destroy = lo_destroy,
};

/* ------------------------------------------------------------------------ */
/*
 * peer=dom0: netperf in a guest, netserver in dom0, one TCP connection
 * over the guest's vif: netfront/netback as workloads/pvnet.h models them
 * for Linux 4.x (drivers/net/xen-netfront.c, xen-netback/netback.c), here
 * for TCP_RR's small packets only.  One transaction is in flight, one
 * packet each way, and each packet's ACK rides on the other's data
 * (delayed-ACK pingpong mode, tcp_cleanup_rbuf), so there are no pure
 * ACKs, and neither the window, TCP Small Queues nor the rings bind.
 * Stage by stage:
 *   request   netperf's send(): lo's send_cost and copy, packet_cost for
 *             TCP output and xennet_start_xmit (one slot, one grant), the
 *             TX ring pushed and netback notified (an event channel);
 *             netback's NAPI poll (dom0, an interrupt on dom0's vCPU 0,
 *             xenvif_tx_action): the packet fits PKT_PROT_LEN so it is
 *             copied whole (pv_copy_cost) and its TX request answered at
 *             once (xenvif_tx_submit -> xenvif_idx_release: an event to
 *             netfront), then up dom0's bridge, IP and tcp_v4_rcv
 *             (pv_rx_cost), waking netserver;
 *   response  netserver's recv() and send() (lo's costs and dom0's PV
 *             system call extras); its skb crosses the bridge to
 *             xenvif_start_xmit, which queues it and wakes the guest-rx
 *             kthread (xenvif_kick_thread: a dom0 task); the thread copies
 *             it into a buffer netfront posted (pv_copy_cost and one grant
 *             copy op in Xen) and notifies netfront;
 *   netfront  the guest's interrupt on its vCPU 0 (xennet_tx_interrupt,
 *             xennet_poll): reaps the TX completion (pv_gc_cost), takes
 *             the response (pv_rx_cost: xennet_get_responses, GRO,
 *             tcp_v4_rcv) and wakes netperf, whose recv() reads it.
 * direction=from-dom0 swaps the ends: netperf in dom0, netserver in the
 * guest; requests take the guest-rx thread and netfront, responses the
 * TX ring and netback.  peer=remote (TCP_RR, UDP_RR) puts dom0's end on
 * a remote host: netback's poll copies the guest's message and sends it
 * through the bridge and the NIC (nic_fwd_base) instead of up dom0's
 * stack, the remote end answers as a message arrives (no task: its
 * stack's time is the NIC's peer_latency), and its messages come in
 * through the NIC's RX ring and poll to the guest-rx thread (rm_* below);
 * the NIC's interrupt throttle is the drivers' latency setting
 * (nic_latency_itr).  On the wire a UDP_RR message is a datagram (its
 * fragments), a TCP_RR message its TCP segments with the ACK of the
 * message before it (rm_kind).  The guest's and dom0's per-message costs
 * are the same for both tests: over peer=dom0 TCP_RR and UDP_RR pay the
 * same calls and packet_cost, and so they do here.
 * Each pv_ cost is iperf's for the same step (workloads/pvnet.h; sources
 * in doc/workloads.md).  A waker pays lo's wake_cost, the task it woke
 * its switch_cost (and a PV domain's context switch extras).
 */
struct np_dom0_end {
	struct domain *dom;
	struct worker *owner;
	uint64_t queued;       /* bytes arrived, unread */
	stime_t debt;          /* work a commit incurred, paid by the next claim */
};

struct np_dom0 {
	struct np_dom0_end end[2];
	/* peer=remote (TCP_RR, UDP_RR): dom0's end is the remote host's, through the bridge and NIC */
	bool remote;
	struct nic *nic;                 /* dom0's (nic_get), shared with its other users */
	struct nic_user nic_u;
	bool nic_first;                  /* set up by this path: its time account is ours */
	struct timer first;              /* a remote netperf's first request */
	int ge, de;                      /* the guest's end and dom0's (0: netperf's) */
	struct worker *netfront, *netback, *rxk;
	struct evtchn to_back, tx_to_front, rx_to_front;
	uint64_t tx_pkts, tx_bytes;      /* requests on the TX ring */
	uint64_t tx_done;                /* TX responses netfront has not reaped */
	uint64_t rxq_pkts, rxq_bytes;    /* netback's rx_queue: responses for the guest */
	uint64_t rx_pkts, rx_bytes;      /* copied into the guest's RX ring, not taken */
	stime_t rxk_debt;                /* the guest-rx thread's switch-in */
	/* the stages' batches under way */
	uint64_t nb_pkts, nb_bytes, rk_pkts, rk_bytes, nf_gc, nf_pkts, nf_bytes;
};

static stime_t cost(struct netperf *np, stime_t work);

/* TCP_RR or UDP_RR: one transaction at a time. */
static bool is_rr(const struct netperf_config *c)
{
	return c->test == NP_TCP_RR || c->test == NP_UDP_RR;
}
static int check_vcpu(const char *what, long long v, const struct domain *d, struct err *e);

static struct np_dom0 *d0_path(struct netperf *np)
{
	return np->path;
}

/*
 * peer=remote: what a message is on the wire.  UDP_RR's a datagram;
 * TCP_RR's one TCP segment (a message above the MSS several), which
 * carries the ACK of the message it answers: in request/response
 * traffic each end's receive path defers its ACK (__tcp_ack_snd_check ->
 * tcp_send_delayed_ack: one small segment in, and no quickack once
 * tcp_event_data_sent has put the connection in pingpong mode), and the
 * answer, sent within the delayed-ACK timeout (TCP_DELACK_MIN, 40 ms),
 * takes it along (tcp_transmit_skb -> tcp_event_ack_sent stops the
 * timer): net/ipv4/tcp_input.c and tcp_output.c of Linux 4.x, see
 * doc/workloads.md.
 */
static uint8_t rm_kind(const struct netperf *np)
{
	return np->c->test == NP_TCP_RR ? NIC_MSG : NIC_UDP;
}

/* A PV domain's extra for one call of op copying bytes (loopback.h). */
static stime_t d0_kops(const struct netperf *np, const struct domain *d, enum kernel_op op,
		       uint64_t bytes)
{
	return lo_kernel_cost(&np->c->lo, d->type, op, 1, bytes);
}

/* Wakes a socket's owner: the waker's cost (0 if it was not asleep). */
static stime_t d0_wake(struct netperf *np, int end)
{
	struct np_dom0_end *e = &d0_path(np)->end[end];
	stime_t w = 0;

	if (e->owner->task->state == TASK_BLOCKED) {
		w = np->c->lo.wake;
		e->debt += np->c->lo.switch_in + d0_kops(np, e->dom, KOP_CTXSW, 0);
	}
	worker_kick_sync(np->w->sim, e->owner);     /* a socket's wake: WF_SYNC */
	return w;
}

static stime_t d0_nb_poll(struct sim *s, struct worker *w)
{
	struct netperf *np = w->ctx;
	struct np_dom0 *p = d0_path(np);

	(void)s;
	evtchn_test_and_clear(&p->to_back);
	if (!p->tx_pkts)
		return 0;
	p->nb_pkts = p->tx_pkts;
	p->nb_bytes = p->tx_bytes;
	p->tx_pkts = p->tx_bytes = 0;
	if (p->remote)          /* copied whole, then the bridge and the NIC's xmit */
		return cost(np, (stime_t)p->nb_pkts * np->c->pv_copy +
				    (stime_t)llround((double)p->nb_pkts * nic_fwd_base(p->nic, NULL)));
	return cost(np, (stime_t)p->nb_pkts * (np->c->pv_copy + np->c->pv_rx) +
			    (p->end[p->de].owner->task->state == TASK_BLOCKED ? np->c->lo.wake : 0));
}

static void d0_nb_done(struct sim *s, struct worker *w)
{
	struct netperf *np = w->ctx;
	struct np_dom0 *p = d0_path(np);

	(void)s;
	p->tx_done += p->nb_pkts;
	evtchn_send(&p->tx_to_front);
	if (p->remote) {
		/* a message (a datagram's fragments, or TCP segments) onto the link */
		nic_xmit(p->nic, &p->nic_u, &(struct nic_frame){ .owner = np, .bytes = p->nb_bytes,
						       .dgrams = (uint32_t)p->nb_pkts,
						       .kind = rm_kind(np) });
		p->nb_pkts = p->nb_bytes = 0;
		return;
	}
	p->end[p->de].queued += p->nb_bytes;
	d0_wake(np, p->de);
	p->nb_pkts = p->nb_bytes = 0;
}

static stime_t d0_rk_poll(struct sim *s, struct worker *w)
{
	struct netperf *np = w->ctx;
	struct np_dom0 *p = d0_path(np);
	stime_t debt = p->rxk_debt;

	(void)s;
	if (!p->rxq_pkts)
		return 0;
	p->rk_pkts = p->rxq_pkts;
	p->rk_bytes = p->rxq_bytes;
	p->rxq_pkts = p->rxq_bytes = 0;
	p->rxk_debt = 0;
	return cost(np, (stime_t)p->rk_pkts * (np->c->pv_copy + np->c->pv_grant_op) + debt);
}

static void d0_rk_done(struct sim *s, struct worker *w)
{
	struct netperf *np = w->ctx;
	struct np_dom0 *p = d0_path(np);

	(void)s;
	p->rx_pkts += p->rk_pkts;
	p->rx_bytes += p->rk_bytes;
	p->rk_pkts = p->rk_bytes = 0;
	evtchn_send(&p->rx_to_front);
}

static stime_t d0_nf_poll(struct sim *s, struct worker *w)
{
	struct netperf *np = w->ctx;
	struct np_dom0 *p = d0_path(np);
	stime_t work;

	(void)s;
	evtchn_test_and_clear(&p->tx_to_front);
	evtchn_test_and_clear(&p->rx_to_front);
	if (!p->tx_done && !p->rx_pkts)
		return 0;
	p->nf_gc = p->tx_done;
	p->nf_pkts = p->rx_pkts;
	p->nf_bytes = p->rx_bytes;
	p->tx_done = p->rx_pkts = p->rx_bytes = 0;
	work = (stime_t)p->nf_gc * np->c->pv_gc + (stime_t)p->nf_pkts * np->c->pv_rx;
	if (p->nf_pkts && p->end[p->ge].owner->task->state == TASK_BLOCKED)
		work += np->c->lo.wake;
	return cost(np, work);
}

static void d0_nf_done(struct sim *s, struct worker *w)
{
	struct netperf *np = w->ctx;
	struct np_dom0 *p = d0_path(np);

	(void)s;
	if (p->nf_pkts) {
		p->end[p->ge].queued += p->nf_bytes;
		d0_wake(np, p->ge);
	}
	p->nf_gc = p->nf_pkts = p->nf_bytes = 0;
}

/*
 * peer=remote: a message reaches the remote host.  Its netserver answers
 * at once (its stack's time is in peer_latency); its netperf, given the
 * response, counts the transaction and sends the next request.
 */
static void rm_remote_rx(void *ctx, const struct nic_frame *f)
{
	struct netperf *np = ctx;
	struct np_dom0 *p = d0_path(np);
	const struct netperf_config *c = np->c;
	stime_t now = sim_now(np->w->sim);
	uint64_t bytes = (uint64_t)c->response_size;

	(void)f;
	if (p->ge == 1) {
		if (np->measuring) {
			np->transactions++;
			hist_record(&np->latency, now - np->req_at);
		}
		np->req_at = now;
		bytes = (uint64_t)c->request_size;
	}
	nic_remote_send(p->nic, &p->nic_u, &(struct nic_frame){ .owner = np, .bytes = bytes, .dgrams = 1,
						      .kind = rm_kind(np) });
}

/* ... and one from it has crossed the NIC's poll and the bridge: xenvif_start_xmit queues it. */
static void rm_host_rx(void *ctx, const struct nic_frame *f)
{
	struct netperf *np = ctx;
	struct np_dom0 *p = d0_path(np);

	p->rxq_pkts += f->dgrams;
	p->rxq_bytes += f->bytes;
	if (p->rxk->task->state == TASK_BLOCKED)
		p->rxk_debt += np->c->lo.switch_in + d0_kops(np, split_dom0(np->w->sim), KOP_CTXSW, 0);
	worker_kick(np->w->sim, p->rxk);
}

static void rm_tx_done(void *ctx, const struct nic_frame *f)
{
	(void)ctx;
	(void)f;                      /* copied whole by netback: nothing held */
}

static stime_t rm_cost(void *ctx, double base)
{
	struct netperf *np = ctx;

	return workload_cost(&np->w->rng, np->run_factor, np->half_width, base);
}

/* A remote netperf's first request (direction=from-dom0). */
static void rm_first(struct timer *t, void *arg)
{
	struct netperf *np = arg;
	struct np_dom0 *p = d0_path(np);

	(void)t;
	np->req_at = sim_now(np->w->sim);
	nic_remote_send(p->nic, &p->nic_u, &(struct nic_frame){ .owner = np,
		.bytes = (uint64_t)np->c->request_size, .dgrams = 1, .kind = rm_kind(np) });
}

static struct domain *d0_server_domain(struct netperf *np, struct err *e)
{
	struct domain *d0 = split_dom0(np->w->sim);

	if (!d0) {
		err_set(e, "netperf: peer=dom0 needs dom0 (domid 0) for netserver");
		return NULL;
	}
	if (d0 == np->w->dom) {
		err_set(e, "netperf: peer=dom0 runs netperf in a guest, not in dom0 (dom0's own "
			   "netserver is peer=loopback)");
		return NULL;
	}
	return np->c->direction == NP_FROM_DOM0 ? np->w->dom : d0;
}

static void d0_connect(struct netperf *np)
{
	struct np_dom0 *p = xcalloc(1, sizeof(*p));
	struct sim *s = np->w->sim;
	struct domain *d0 = split_dom0(s);
	struct guest *g = guest_of(np->w->dom), *g0 = guest_of(d0);
	char name[48];

	np->path = p;
	p->ge = np->c->direction == NP_FROM_DOM0;
	p->de = !p->ge;
	p->end[p->ge].dom = np->w->dom;
	p->end[p->de].dom = d0;
	p->end[0].owner = np->client;
	p->end[1].owner = np->server;
	p->netfront = worker_create(g, "netfront-q0", TASK_IRQ, 0, true, d0_nf_poll,
				    d0_nf_done, np);
	snprintf(name, sizeof(name), "netback-%d-q0", np->w->dom->domid);
	p->netback = worker_create(g0, name, TASK_IRQ, 0, true, d0_nb_poll, d0_nb_done, np);
	snprintf(name, sizeof(name), "vif%d.0-q0-guest-rx", np->w->dom->domid);
	p->rxk = worker_create(g0, name, TASK_NORMAL, 2 % d0->nr_vcpus, false, d0_rk_poll,
			       d0_rk_done, np);
	p->netfront->softirq_time = p->netback->softirq_time = SOFTIRQ_TIME_DEFAULT;
	p->netfront->softirq_restarts = p->netback->softirq_restarts = SOFTIRQ_RESTARTS_DEFAULT;
	evtchn_init(&p->to_back, s, p->netback, np->c->pv_evtchn);
	evtchn_init(&p->tx_to_front, s, p->netfront, np->c->pv_evtchn);
	evtchn_init(&p->rx_to_front, s, p->netfront, np->c->pv_evtchn);
}

/*
 * peer=remote: dom0's NIC, shared with the streams and other guests'
 * request/response paths through it (nic_get: -1 with e set if it was set
 * up with other parameters), and a remote netperf's first request.
 */
static int rm_attach(struct netperf *np, struct err *e)
{
	struct np_dom0 *p = d0_path(np);
	struct sim *s = np->w->sim;

	p->nic_u = (struct nic_user){ np, rm_remote_rx, rm_host_rx, rm_tx_done, rm_cost };
	p->nic = nic_get(guest_of(split_dom0(s)), &np->c->nic, &p->nic_u, true, np->c->pv_evtchn,
			 "netperf", np->w->dom->name, &p->nic_first, e);
	if (!p->nic)
		return -1;
	p->remote = true;
	nic_latency_itr(p->nic);
	if (p->nic_first) {
		p->nic->napi->softirq_time = SOFTIRQ_TIME_DEFAULT;
		p->nic->napi->softirq_restarts = SOFTIRQ_RESTARTS_DEFAULT;
	}
	timer_init(&p->first, rm_first, np);
	if (p->ge == 1)
		timer_set(&s->q, &p->first, np->c->pv_evtchn);
	return 0;
}

static uint64_t d0_room(struct netperf *np, int end, uint64_t size)
{
	(void)np;
	(void)end;
	(void)size;
	return 1;
}

static stime_t d0_swork(struct netperf *np, int end, uint64_t n, uint64_t size)
{
	const struct lo_costs *l = &np->c->lo;
	struct np_dom0_end *e = &d0_path(np)->end[end];
	double w = (double)n * ((double)l->send_call + (double)size * l->copy + (double)l->packet);
	stime_t debt = e->debt;

	e->debt = 0;
	return (stime_t)w + (stime_t)n * d0_kops(np, e->dom, KOP_SYSCALL, size) + debt;
}

static uint64_t d0_scommit(struct netperf *np, int end, uint64_t n, uint64_t size)
{
	struct np_dom0 *p = d0_path(np);

	if (end == p->ge) {
		p->tx_pkts += n;
		p->tx_bytes += n * size;
		evtchn_send(&p->to_back);
		return n * size;
	}
	p->rxq_pkts += n;
	p->rxq_bytes += n * size;
	if (p->rxk->task->state == TASK_BLOCKED) {
		p->end[p->de].debt += np->c->lo.wake;
		p->rxk_debt += np->c->lo.switch_in + d0_kops(np, d0_path(np)->end[p->de].dom,
							     KOP_CTXSW, 0);
	}
	worker_kick(np->w->sim, p->rxk);
	return n * size;
}

static uint64_t d0_avail(struct netperf *np, int end)
{
	return d0_path(np)->end[end].queued;
}

static stime_t d0_rclaim(struct netperf *np, int end, uint64_t calls, uint64_t size,
			 bool answers, struct lo_rx *rx)
{
	const struct lo_costs *l = &np->c->lo;
	struct np_dom0_end *e = &d0_path(np)->end[end];
	uint64_t take = calls * size < e->queued ? calls * size : e->queued;
	stime_t debt = e->debt;

	(void)answers;
	memset(rx, 0, sizeof(*rx));
	if (!take)
		return 0;
	rx->calls = rx->msgs = 1;
	rx->bytes = take;
	e->queued -= take;
	e->debt = 0;
	return (stime_t)((double)l->recv_call + (double)take * l->copy) +
	       d0_kops(np, e->dom, KOP_SYSCALL, take) + debt;
}

static void d0_rcommit(struct netperf *np, int end, const struct lo_rx *rx, bool answers)
{
	(void)np;
	(void)end;
	(void)rx;
	(void)answers;
}

static uint64_t d0_drops(struct netperf *np, int end)
{
	(void)np;
	(void)end;
	return 0;
}

static void d0_destroy(struct netperf *np)
{
	struct np_dom0 *p = np->path;

	if (!p)
		return;
	if (p->remote) {
		timer_stop(&np->w->sim->q, &p->first);
		nic_put(p->nic);
	}
	evtchn_close(&p->to_back);
	evtchn_close(&p->tx_to_front);
	evtchn_close(&p->rx_to_front);
	worker_free(p->netfront);
	worker_free(p->netback);
	worker_free(p->rxk);
	free(p);
	np->path = NULL;
}

static void d0_time_start(struct netperf *np)
{
	struct np_dom0 *p = d0_path(np);
	struct sim *s = np->w->sim;

	task_time_start(s, p->netback->task);
	task_time_start(s, p->rxk->task);
	task_time_start(s, p->netfront->task);
	if (p->remote && p->nic_first) {
		task_time_start(s, p->nic->napi->task);
		nic_time_start(p->nic);
	}
}

/* In the order a transaction takes them. */
static void d0_stages(struct netperf *np, struct breakdown *b)
{
	struct np_dom0 *p = d0_path(np);
	struct sim *s = np->w->sim;
	struct task *nic = p->remote ? p->nic->napi->task : NULL;

	if (p->remote && p->ge == 0) {
		breakdown_tasks(b, s, "netperf", &np->client->task, 1, client_reasons);
		breakdown_tasks(b, s, "netback", &p->netback->task, 1, NULL);
		breakdown_tasks(b, s, "nic", &nic, 1, NULL);
		breakdown_tasks(b, s, "guest-rx", &p->rxk->task, 1, NULL);
		breakdown_tasks(b, s, "netfront", &p->netfront->task, 1, NULL);
		return;
	}
	if (p->remote) {
		breakdown_tasks(b, s, "nic", &nic, 1, NULL);
		breakdown_tasks(b, s, "guest-rx", &p->rxk->task, 1, NULL);
		breakdown_tasks(b, s, "netfront", &p->netfront->task, 1, NULL);
		breakdown_tasks(b, s, "netserver", &np->server->task, 1, server_reasons);
		breakdown_tasks(b, s, "netback", &p->netback->task, 1, NULL);
		return;
	}
	breakdown_tasks(b, s, "netperf", &np->client->task, 1, client_reasons);
	if (p->ge == 0) {
		breakdown_tasks(b, s, "netback", &p->netback->task, 1, NULL);
		breakdown_tasks(b, s, "netserver", &np->server->task, 1, server_reasons);
		breakdown_tasks(b, s, "guest-rx", &p->rxk->task, 1, NULL);
		breakdown_tasks(b, s, "netfront", &p->netfront->task, 1, NULL);
		return;
	}
	breakdown_tasks(b, s, "guest-rx", &p->rxk->task, 1, NULL);
	breakdown_tasks(b, s, "netfront", &p->netfront->task, 1, NULL);
	breakdown_tasks(b, s, "netserver", &np->server->task, 1, server_reasons);
	breakdown_tasks(b, s, "netback", &p->netback->task, 1, NULL);
}

static const struct np_peer_ops peer_dom0 = {
	.name = "dom0",
	.server_domain = d0_server_domain,
	.connect = d0_connect,
	.send_room = d0_room,
	.send_work = d0_swork,
	.send_commit = d0_scommit,
	.recv_avail = d0_avail,
	.recv_claim = d0_rclaim,
	.recv_commit = d0_rcommit,
	.drops = d0_drops,
	.time_start = d0_time_start,
	.stages = d0_stages,
	.destroy = d0_destroy,
};

static const struct np_peer_ops *const peers[] = {
	[NP_PEER_LOOPBACK] = &peer_loopback,
	[NP_PEER_DOM0] = &peer_dom0,
};

/* ------------------------------------------------------------------------ */
/* the test */

/*
 * A batch's CPU time: the kernel's work times the run's factor (run_noise:
 * the host's state) and a uniform factor of mean 1 and coefficient of
 * variation noise (as iperf's: drawn per batch, so cheap).
 */
static stime_t cost(struct netperf *np, stime_t work)
{
	return workload_cost(&np->w->rng, np->run_factor, np->half_width, (double)work);
}

static uint64_t recv_size(const struct netperf_config *c)
{
	return (uint64_t)(c->recv_size ? c->recv_size : c->size);
}

/* Calls of per_call work (an estimate: the copies and the packet) that fill batch_time. */
static uint64_t batch_calls(const struct netperf *np, double per_call)
{
	double n = (double)np->c->batch_time / (per_call > 1 ? per_call : 1);

	return n < 1 ? 1 : (uint64_t)n;
}

static double send_estimate(const struct netperf *np)
{
	const struct lo_costs *l = &np->c->lo;

	/* a Unix stream socket's send has no packet through lo */
	return (double)l->send_call + (np->c->test == NP_STREAM_STREAM ? 0.0 : (double)l->packet) +
	       (double)np->c->size * l->copy;
}

static double recv_estimate(const struct netperf *np)
{
	const struct lo_costs *l = &np->c->lo;

	return (double)l->recv_call + (double)recv_size(np->c) * l->copy;
}

/* UDP: at most half the receive buffer's datagrams arrive in one batch. */
static uint64_t udp_batch_cap(const struct netperf *np)
{
	uint64_t rcvbuf = np->c->rcvbuf ? (uint64_t)np->c->rcvbuf : LO_UDP_RCVBUF;
	uint64_t cap = rcvbuf / lo_udp_truesize((uint64_t)np->c->size) / 2;

	return cap ? cap : 1;
}

/*
 * A transaction's message of 'bytes' has arrived at end: over lo a UDP
 * socket counts datagrams (one message, one datagram), the others bytes.
 */
static bool rr_ready(struct netperf *np, int end, uint64_t bytes)
{
	uint64_t avail = np->peer->recv_avail(np, end);

	if (np->c->test == NP_UDP_RR && np->c->peer == NP_PEER_LOOPBACK)
		return avail >= 1;
	return avail >= bytes;
}

static stime_t client_poll(struct sim *s, struct worker *w)
{
	struct netperf *np = w->ctx;
	const struct netperf_config *c = np->c;
	uint64_t n, size = (uint64_t)c->size;
	stime_t work;

	(void)s;
	if (is_rr(c)) {
		uint64_t resp = (uint64_t)c->response_size;

		work = 0;
		if (np->outstanding) {
			if (!rr_ready(np, 0, resp)) {
				task_block_reason(w->task, CLIENT_RESPONSE);
				return 0;
			}
			work = np->peer->recv_claim(np, 0, 1, resp, true, &np->cl_rx);
		}
		np->cl_sends = 1;
		return cost(np, work + np->peer->send_work(np, 0, 1, (uint64_t)c->request_size));
	}
	n = batch_calls(np, send_estimate(np));
	if (c->test == NP_UDP_STREAM) {
		uint64_t cap = udp_batch_cap(np);

		n = n < cap ? n : cap;
	} else {
		uint64_t room = np->peer->send_room(np, 0, size);

		if (!room) {
			task_block_reason(w->task, CLIENT_SNDBUF);
			return 0;
		}
		n = n < room ? n : room;
		/*
		 * A Unix socket's send wakes a sleeping reader at its first skb
		 * (sk_data_ready), and the reader reads while the writer goes
		 * on.  netperf 2.4.5's 4608-byte buffer holds no more than one
		 * batch: a batch delivered whole at its end would hold the wake
		 * back by the whole buffer's sends, and the two ends would take
		 * turns.  So while netserver sleeps the batch is one skb:
		 * unix_stream_sendmsg queues each skb and calls the peer's
		 * sk_data_ready before it allocates the next (net/unix/af_unix.c
		 * of 5.1, the loop's tail), so a send cut into several skbs (8 KiB
		 * into 2240-byte ones) wakes the reader at its first, and the
		 * rest of the send goes on in the next batch without a new call.
		 */
		if (c->test == NP_STREAM_STREAM && np->server->task->state == TASK_BLOCKED) {
			np->cl_sends = 1;
			return cost(np, lo_send_work_skbs(lo_end(np, 0), 1, size, 1));
		}
	}
	np->cl_sends = n;
	return cost(np, np->peer->send_work(np, 0, n, size));
}

static void client_done(struct sim *s, struct worker *w)
{
	struct netperf *np = w->ctx;
	const struct netperf_config *c = np->c;
	stime_t now = sim_now(s);
	uint64_t bytes;

	(void)w;
	if (is_rr(c)) {
		if (np->outstanding) {
			np->peer->recv_commit(np, 0, &np->cl_rx, true);
			if (np->measuring) {
				np->transactions++;
				hist_record(&np->latency, now - np->req_at);
			}
		}
		np->peer->send_commit(np, 0, 1, (uint64_t)c->request_size);
		np->outstanding = true;
		np->req_at = now;
		return;
	}
	/* netperf counts a send when it returns; the bytes handed over differ by one send at most */
	bytes = np->peer->send_commit(np, 0, np->cl_sends, (uint64_t)c->size);
	if (np->measuring)
		np->sent_bytes += bytes;
}

static stime_t server_poll(struct sim *s, struct worker *w)
{
	struct netperf *np = w->ctx;
	const struct netperf_config *c = np->c;

	(void)s;
	if (is_rr(c)) {
		uint64_t req = (uint64_t)c->request_size;
		stime_t work;

		if (!rr_ready(np, 1, req)) {
			task_block_reason(w->task, SERVER_RECV);
			return 0;
		}
		work = np->peer->recv_claim(np, 1, 1, req, true, &np->srv_rx);
		np->srv_sends = 1;
		return cost(np, work + np->peer->send_work(np, 1, 1, (uint64_t)c->response_size));
	}
	if (!np->peer->recv_avail(np, 1)) {
		task_block_reason(w->task, SERVER_RECV);
		return 0;
	}
	np->srv_sends = 0;
	return cost(np, np->peer->recv_claim(np, 1, batch_calls(np, recv_estimate(np)),
					     recv_size(c), false, &np->srv_rx));
}

static void server_done(struct sim *s, struct worker *w)
{
	struct netperf *np = w->ctx;
	const struct netperf_config *c = np->c;

	(void)s;
	(void)w;
	if (is_rr(c)) {
		np->peer->recv_commit(np, 1, &np->srv_rx, true);
		np->peer->send_commit(np, 1, 1, (uint64_t)c->response_size);
		return;
	}
	np->peer->recv_commit(np, 1, &np->srv_rx, false);
	if (np->measuring)
		np->recv_bytes += np->srv_rx.bytes;
}

/* ------------------------------------------------------------------------ */
/*
 * TCP_STREAM to dom0 or to a remote host (peer=dom0|remote), and
 * UDP_STREAM to dom0 (pvnet_flow_udp: datagrams of size bytes, a batch of
 * calls as over lo, the sockets' 212992-byte buffers, drops where Linux
 * drops them): the connection is workloads/pvnet.h's, the one iperf streams over, stage by
 * stage (netfront, netback, its dealloc and guest-rx threads; TCP Small
 * Queues, the window and the send buffer of workloads/tcp.h) and, for
 * peer=remote, dom0's bridge, NIC and link (workloads/nic.h).  The path's
 * parameters are iperf's defaults taken by name (PVNET_PARAMS below, with
 * iperf's calibration PVNET_MODEL_SCALE on the hardware model), but for
 * the NIC's, which netperf takes itself (NIC_PARAMS), the small-packet
 * costs, netperf's pv_* (whose defaults are iperf's), and the buffers
 * (rcvbuf and sndbuf, when set, are the sockets' tcp_rmem/tcp_wmem).
 * What is netperf's own is the calls: a send() of size bytes costs lo's
 * send_cost and a PV domain's system call extras (loopback.h), its copy
 * pvnet's write_cost share; a recv() of recv_size bytes lo's recv_cost and
 * extras, its TCP receive and copy pvnet's server_cost share.  TCP output
 * and the driver's xmit are the path's, per segment sent.  A batch is the
 * calls of one GSO segment: TCP sends nothing before a segment is written
 * (tcp.h: tcp_xmit_size_goal, autocorking behind TSQ), and the reader
 * ACKs per segment read, as iperf's does.
 */
struct np_stream {
	struct pvnet_config net;
	struct pvnet pv;
	struct pvnet_flow *flow;
	uint64_t sends;               /* the client's batch: send() calls */
};

#define PV_OFF(f) offsetof(struct pvnet_config, f)
static const struct param_def stream_path_params[] = {
	PVNET_PARAMS(PV_OFF),
	{ NULL }
};

/* n system calls of a socket owner in domain d, each copying bytes. */
static stime_t stream_calls(const struct netperf *np, const struct pvnet_flow *f,
			    enum pvnet_where where, stime_t call, uint64_t n, uint64_t bytes)
{
	const struct domain *d = pvnet_guest_of(f, where)->dom;

	return (stime_t)n * (call + lo_kernel_cost(&np->c->lo, d->type, KOP_SYSCALL, 1, bytes));
}

static stime_t stream_client_poll(struct sim *s, struct worker *w)
{
	struct pvnet_flow *f = w->ctx;
	struct netperf *np = f->app;
	struct np_stream *st = np->stream;
	uint64_t size = (uint64_t)np->c->size;
	uint64_t n = (uint64_t)st->net.segment / size;

	(void)s;
	if (f->udp) {
		/* batch_time of calls, at most half the receiver's buffer, what the socket takes */
		uint64_t room = pvnet_udp_room(f), cap = udp_batch_cap(np);

		n = batch_calls(np, send_estimate(np));
		n = n < cap ? n : cap;
		n = n < room ? n : room;
		if (!n) {
			task_block_reason(w->task, STREAM_SNDBUF);
			return 0;
		}
		st->sends = n;
		return pvnet_udp_send_claim(f, n) +
		       cost(np, stream_calls(np, f, f->snd_at, np->c->lo.send_call, n, size) +
				(stime_t)((double)n * ((double)size * np->c->lo.copy +
						       (double)(f->frags * np->c->lo.packet))));
	}
	if (!pvnet_connected(f)) {
		task_block_reason(w->task, STREAM_CONNECT);
		return 0;
	}
	if (!n)
		n = 1;
	while (n > 1 && !pvnet_may_write(f, n * size))
		n /= 2;
	if (!pvnet_may_write(f, n * size)) {
		task_block_reason(w->task, STREAM_SNDBUF);
		return 0;
	}
	st->sends = n;
	return pvnet_write_claim(f, n * size) +
	       cost(np, stream_calls(np, f, f->snd_at, np->c->lo.send_call, n, size));
}

static void stream_client_done(struct sim *s, struct worker *w)
{
	struct pvnet_flow *f = w->ctx;
	struct netperf *np = f->app;

	(void)s;
	if (f->udp)
		pvnet_udp_send_commit(f);
	else
		pvnet_write_commit(f);
	if (np->measuring)
		np->sent_bytes += np->stream->sends * (uint64_t)np->c->size;
}

static stime_t stream_server_poll(struct sim *s, struct worker *w)
{
	struct pvnet_flow *f = w->ctx;
	struct netperf *np = f->app;
	struct np_stream *st = np->stream;
	uint64_t rs = recv_size(np->c);
	stime_t work;

	(void)s;
	if (!pvnet_readable(f)) {
		task_block_reason(w->task, SERVER_RECV);
		return 0;
	}
	if (f->udp) {
		/* a datagram per recv(), up to batch_time of them */
		uint64_t size = (uint64_t)np->c->size, calls = batch_calls(np, recv_estimate(np));
		uint64_t avail = pvnet_readable(f) / size;

		calls = calls < avail ? calls : avail;
		return pvnet_read_claim(f, calls * size) +
		       cost(np, stream_calls(np, f, f->rcv_at, np->c->lo.recv_call, calls, size) +
				(stime_t)((double)(calls * size) * np->c->lo.copy));
	}
	work = pvnet_read_claim(f, (uint64_t)st->net.segment);
	return work + cost(np, stream_calls(np, f, f->rcv_at, np->c->lo.recv_call,
					    (f->rd_bytes + rs - 1) / rs, rs));
}

static void stream_server_done(struct sim *s, struct worker *w)
{
	(void)s;
	pvnet_read_commit(w->ctx);
}

static int stream_vcpu(const char *what, long long v, bool remote, const struct domain *d,
		       struct err *e)
{
	if (remote && v >= 0)
		return err_set(e, "netperf: %s=%lld but with peer=remote that end is on the "
			       "remote host", what, v);
	return remote ? 0 : check_vcpu(what, v, d, e);
}

/* The connection over pvnet (c checked by netperf_check). */
static int stream_setup(struct netperf *np, struct err *e)
{
	const struct netperf_config *c = np->c;
	struct workload *w = np->w;
	struct sim *s = w->sim;
	struct domain *d0 = split_dom0(s);
	bool to_dom0 = c->direction == NP_TO_DOM0, remote = c->peer == NP_PEER_REMOTE;
	const struct pvnet_app client = { "netperf", stream_client_poll, stream_client_done,
					  c->client_vcpu };
	const struct pvnet_app server = { "netserver", stream_server_poll, stream_server_done,
					  c->server_vcpu };
	enum pvnet_where peer = remote ? PVNET_REMOTE : PVNET_DOM0;
	struct np_stream *st;

	if (!d0)
		return err_set(e, "netperf: peer=%s needs dom0 (domid 0) for %s",
			       remote ? "remote" : "dom0",
			       remote ? "the bridge and NIC" : "netserver");
	if (d0 == w->dom)
		return err_set(e, "netperf: peer=%s runs netperf's end in a guest, not in dom0 "
			       "(dom0's own netserver is peer=loopback)", remote ? "remote" : "dom0");
	if (stream_vcpu("client_vcpu", c->client_vcpu, remote && !to_dom0,
			to_dom0 ? w->dom : d0, e) < 0 ||
	    stream_vcpu("server_vcpu", c->server_vcpu, remote && to_dom0,
			to_dom0 ? d0 : w->dom, e) < 0)
		return -1;
	st = xcalloc(1, sizeof(*st));
	if (params_apply(stream_path_params, &st->net, NULL, "netperf", e) < 0) {
		free(st);
		return -1;
	}
	/* netperf's pv_* are the path's small-packet costs, here as on TCP_RR's path */
	st->net.ack_cost = c->pv_copy;
	st->net.ack_rx_cost = c->pv_rx;
	st->net.gc_cost = c->pv_gc;
	st->net.grant_copy_op = c->pv_grant_op;
	st->net.evtchn_latency = c->pv_evtchn;
	if (c->rcvbuf && c->test == NP_TCP_STREAM)
		st->net.rmem_max = c->rcvbuf;
	if (c->sndbuf && c->test == NP_TCP_STREAM)
		st->net.wmem_max = c->sndbuf;
	/* the path's own checks (pvnet_check) in netperf's words */
	if (c->test == NP_TCP_STREAM &&
	    (st->net.wmem_max < 2 * (st->net.segment + st->net.skb_overhead) ||
	     st->net.rmem_max < 2 * st->net.segment)) {
		bool snd = st->net.wmem_max < 2 * (st->net.segment + st->net.skb_overhead);

		err_set(e, "netperf: %s=%lld is below %lld bytes, the two %lld-byte segments TCP "
			"over netfront/netback needs %s", snd ? "sndbuf" : "rcvbuf",
			snd ? c->sndbuf : c->rcvbuf,
			snd ? 2 * (st->net.segment + st->net.skb_overhead) : 2 * st->net.segment,
			st->net.segment, snd ? "queued" : "in the window (half the buffer)");
		free(st);
		return -1;
	}
	if (pvnet_check(&st->net, "netperf", w->dom, d0, e) < 0 ||
	    (remote && nic_check(&c->nic, "netperf", d0, e) < 0)) {
		free(st);
		return -1;
	}
	np->stream = st;
	pvnet_init(&st->pv, s, &st->net, &w->rng, c->noise,
		   np->run_factor * (hw_is_ideal(s->hw) ? 1.0 : PVNET_MODEL_SCALE));
	st->pv.warm_end = c->warmup;
	/* dom0's one NIC: an earlier guest's netperf or iperf may have set it up */
	if (remote && pvnet_attach_nic(&st->pv, &c->nic, to_dom0, "netperf", w->dom->name, e) < 0) {
		pvnet_free(&st->pv);
		free(st);
		np->stream = NULL;
		return -1;
	}
	st->flow = pvnet_flow_add(&st->pv, guest_of(w->dom), -1, to_dom0 ? PVNET_GUEST : peer,
				  to_dom0 ? peer : PVNET_GUEST, &client, &server, np);
	/*
	 * UDP: Linux's rmem_default and wmem_default (212992) unless -s/-S set
	 * them (a remote end's are outside the host: pvnet_flow_udp)
	 */
	if (c->test == NP_UDP_STREAM)
		pvnet_flow_udp(st->flow, (uint64_t)c->size, lo_udp_truesize((uint64_t)c->size),
			       c->sndbuf ? (uint64_t)c->sndbuf : LO_UDP_RCVBUF,
			       c->rcvbuf ? (uint64_t)c->rcvbuf : LO_UDP_RCVBUF);
	pvnet_start(&st->pv);
	return 0;
}

/*
 * TCP_RR or UDP_RR with a remote host (c checked): the guest's end is netperf
 * (to-dom0) or netserver (from-dom0), the other end beyond dom0's NIC;
 * the path is peer=dom0's, its dom0 end the bridge and the NIC.
 */
static int rr_remote_setup(struct netperf *np, struct err *e)
{
	const struct netperf_config *c = np->c;
	struct workload *w = np->w;
	struct domain *d0 = split_dom0(w->sim);
	bool to = c->direction == NP_TO_DOM0;

	if (!d0)
		return err_set(e, "netperf: peer=remote needs dom0 (domid 0) for the bridge and NIC");
	if (d0 == w->dom)
		return err_set(e, "netperf: peer=remote runs netperf's end in a guest, not in dom0 "
			       "(dom0's own netserver is peer=loopback)");
	if (stream_vcpu("client_vcpu", c->client_vcpu, !to, w->dom, e) < 0 ||
	    stream_vcpu("server_vcpu", c->server_vcpu, to, w->dom, e) < 0 ||
	    nic_check(&c->nic, "netperf", d0, e) < 0)
		return -1;
	np->peer = &peer_dom0;
	if (to)
		np->client = worker_create(guest_of(w->dom), "netperf", TASK_NORMAL,
					   c->client_vcpu >= 0 ? (int)c->client_vcpu : 0,
					   c->client_vcpu >= 0, client_poll, client_done, np);
	else
		np->server = worker_create(guest_of(w->dom), "netserver", TASK_NORMAL,
					   c->server_vcpu >= 0 ? (int)c->server_vcpu :
					   1 % w->dom->nr_vcpus, c->server_vcpu >= 0,
					   server_poll, server_done, np);
	d0_connect(np);
	if (rm_attach(np, e) < 0) {
		d0_destroy(np);
		worker_free(np->client);
		worker_free(np->server);
		np->client = np->server = NULL;
		return -1;
	}
	return 0;
}

/* The measured interval starts: so does the account of where time goes. */
static void netperf_warm(struct timer *t, void *arg)
{
	struct netperf *np = arg;
	struct sim *s = np->w->sim;

	(void)t;
	np->measuring = true;
	if (np->stream) {
		pvnet_time_start(&np->stream->pv);
		return;
	}
	if (np->client)
		task_time_start(s, np->client->task);
	if (np->server)
		task_time_start(s, np->server->task);
	if (np->peer->time_start)
		np->peer->time_start(np);
}

static int check_vcpu(const char *what, long long v, const struct domain *d,
		      struct err *e)
{
	if (v >= d->nr_vcpus)
		return err_set(e, "netperf: %s=%lld but domain %s has %d vCPUs",
			       what, v, d->name, d->nr_vcpus);
	return 0;
}

static int netperf_check(const struct netperf_config *c, const struct domain *d,
			 struct err *e)
{
	static const char *const test_names[] = { "UDP_STREAM", "TCP_STREAM", "TCP_RR", "UDP_RR",
						  "STREAM_STREAM" };

	if (check_vcpu("client_vcpu", c->client_vcpu, d, e) < 0)
		return -1;
	if (nic_parse_rate(c->nic.rate, "netperf", e) < 0)
		return -1;
	if (c->test == NP_STREAM_STREAM && c->peer != NP_PEER_LOOPBACK)
		return err_set(e, "netperf: test=STREAM_STREAM needs peer=loopback (a Unix-domain "
			       "socket joins two tasks of one kernel), not peer=%s",
			       c->peer == NP_PEER_DOM0 ? "dom0" : "remote");
	/* sock_setsockopt's floor of sk_sndbuf: SOCK_MIN_SNDBUF, 2 x (2048 + sk_buff's 256) */
	if (c->test == NP_STREAM_STREAM && c->sndbuf && c->sndbuf < LO_MIN_SNDBUF)
		return err_set(e, "netperf: sndbuf=%lld is below Linux's least send buffer "
			       "(SOCK_MIN_SNDBUF, 4608 bytes) for test=STREAM_STREAM", c->sndbuf);
	if (c->peer == NP_PEER_LOOPBACK && c->direction != NP_TO_DOM0)
		return err_set(e, "netperf: direction=from-dom0 needs peer=dom0 or remote (over lo "
			       "both ends are in one domain)");
	if (is_rr(c) && (c->figure == NP_FIG_SEND || c->figure == NP_FIG_RECV))
		return err_set(e, "netperf: figure=%s is a stream's; %s gives auto "
			       "(transactions/s), p50, p90 or p99",
			       c->figure == NP_FIG_SEND ? "send" : "recv", test_names[c->test]);
	if (!is_rr(c) && c->figure >= NP_FIG_P50)
		return err_set(e, "netperf: figure=p%d is TCP_RR's and UDP_RR's; %s gives auto (send), "
			       "send or recv",
			       c->figure == NP_FIG_P50 ? 50 : c->figure == NP_FIG_P90 ? 90 : 99,
			       test_names[c->test]);
	return 0;
}

/*
 * Where netserver's process starts when the guest kernel places it.
 * netserver (2.4.5, src/netserver.c:699-783) is a daemon that accept()s
 * each netperf's control connection and fork()s a child to serve it; the
 * child is the task that receives.  MMTests restarts the daemon for each
 * size and runs netperf five times, so each run has a child of its own,
 * placed by the guest's fork balancing (Linux 4.4 and 5.1 alike:
 * wake_up_new_task -> select_task_rq_fair with SD_BALANCE_FORK ->
 * find_idlest_group / find_idlest_cpu): with netperf the only busy task,
 * an idle CPU other than netperf's, the first in the sched groups' ring
 * order after the forking CPU whose load average is lowest.  Those loads
 * and the daemon's and netperf's own CPUs come from what ran before in
 * the harness (the shell's fork and exec balancing, the monitors, the
 * previous run's tasks), which the model does not have; so, an
 * assumption: over netperf's runs the child lands on each of the other
 * vCPUs of its domain alike, drawn per run from a stream of its own (the
 * other draws of the run are unchanged).  Over loopback only (both ends
 * in one domain); a netserver in another domain keeps that domain's
 * vCPU 1.
 */
#define NETSERVER_FORK_STREAM 0x6e6574736572ULL    /* "netser" */

static int server_start_vcpu(struct sim *s, const struct domain *sd, const struct domain *cd,
			     int client_cpu)
{
	struct rng r;
	int n = sd->nr_vcpus;

	if (sd != cd || n < 2)
		return 1 % n;
	rng_seed(&r, seed_derive(s->seed, NETSERVER_FORK_STREAM));
	return (client_cpu + 1 + (int)rng_below(&r, (uint64_t)(n - 1))) % n;
}

static int netperf_setup(struct workload *w, struct err *e)
{
	struct netperf_config *c = w->config;
	struct sim *s = w->sim;
	struct domain *sd, *cd = w->dom;
	struct netperf *np;
	int cpu;

	/* direction=from-dom0: netperf in dom0 (peer_dom0 checks there is one) */
	if (c->peer == NP_PEER_DOM0 && c->direction == NP_FROM_DOM0 && split_dom0(s))
		cd = split_dom0(s);
	if (c->peer == NP_PEER_REMOTE)
		cd = w->dom;          /* netperf in the guest or on the remote host */
	if (netperf_check(c, cd, e) < 0)
		return err_prefix(e, "%s:%d", w->source, w->spec->line);
	np = xcalloc(1, sizeof(*np));
	w->priv = np;
	np->w = w;
	np->c = c;
	np->peer = c->peer < (int)(sizeof(peers) / sizeof(peers[0])) ? peers[c->peer] : NULL;
	np->half_width = c->noise * sqrt(3.0);
	np->run_factor = 1 + c->run_noise * sqrt(3.0) * (2 * rng_uniform(&w->rng) - 1);
	if (c->peer == NP_PEER_REMOTE && is_rr(c)) {
		if (rr_remote_setup(np, e) < 0) {
			free(np);
			w->priv = NULL;
			return err_prefix(e, "%s:%d", w->source, w->spec->line);
		}
		goto timers;
	}
	if (c->peer != NP_PEER_LOOPBACK && !is_rr(c)) {
		if (stream_setup(np, e) < 0) {
			free(np);
			w->priv = NULL;
			return err_prefix(e, "%s:%d", w->source, w->spec->line);
		}
		goto timers;
	}
	sd = np->peer->server_domain(np, e);
	if (!sd || check_vcpu("server_vcpu", c->server_vcpu, sd, e) < 0) {
		free(np);
		w->priv = NULL;
		return err_prefix(e, "%s:%d", w->source, w->spec->line);
	}
	/*
	 * netperf starts on the first vCPU; netserver on the vCPU its child
	 * process is forked to (server_start_vcpu); then the guest kernel
	 * places them.
	 */
	cpu = c->client_vcpu >= 0 ? (int)c->client_vcpu : 0;
	np->client = worker_create(guest_of(cd), "netperf", TASK_NORMAL, cpu, c->client_vcpu >= 0,
				   client_poll, client_done, np);
	cpu = c->server_vcpu >= 0 ? (int)c->server_vcpu : server_start_vcpu(s, sd, cd, cpu);
	np->server = worker_create(guest_of(sd), "netserver", TASK_NORMAL, cpu,
				   c->server_vcpu >= 0, server_poll, server_done, np);
	np->peer->connect(np);
timers:
	np->warm_end = c->warmup;
	workload_window_arm(&np->window, s, c->warmup, c->time, netperf_warm, np);
	return 0;
}

static void netperf_metric(struct workload *w, struct metric *m)
{
	struct netperf *np = w->priv;
	const struct netperf_config *c = w->config;
	double secs;

	memset(m, 0, sizeof(*m));
	m->valid = np && np->measuring && sim_now(w->sim) > np->warm_end;
	secs = m->valid ? (double)(sim_now(w->sim) - np->warm_end) / 1e9 : 0;
	if (is_rr(c) && c->figure >= NP_FIG_P50) {
		double q = c->figure == NP_FIG_P50 ? 0.5 : c->figure == NP_FIG_P90 ? 0.9 : 0.99;

		snprintf(m->name, sizeof(m->name), "latency_p%d", (int)lround(q * 100));
		snprintf(m->unit, sizeof(m->unit), "us");
		m->higher_better = false;
		m->valid = m->valid && np->latency.count > 0;
		if (m->valid)
			m->value = (double)hist_quantile(&np->latency, q) / 1e3;
		return;
	}
	m->higher_better = true;
	if (is_rr(c)) {
		snprintf(m->name, sizeof(m->name), "transactions");
		snprintf(m->unit, sizeof(m->unit), "trans/s");
		if (m->valid)
			m->value = (double)np->transactions / secs;
		return;
	}
	snprintf(m->name, sizeof(m->name), c->figure == NP_FIG_RECV ? "recv_throughput"
								    : "throughput");
	snprintf(m->unit, sizeof(m->unit), "Mbit/s");
	/*
	 * TCP_STREAM's netperf stops its clock only once netserver has read
	 * everything (send_tcp_stream: shutdown, then a recv() until the
	 * remote closes): in a steady state, what the reader took.
	 */
	if (m->valid)
		m->value = (double)(c->figure == NP_FIG_RECV || c->test == NP_TCP_STREAM ?
				    np->recv_bytes : np->sent_bytes) * 8 / 1e6 / secs;
	/* a remote netserver reads at once, without a task: pvnet counts it */
	if (m->valid && np->stream && (c->test == NP_TCP_STREAM || c->figure != NP_FIG_SEND))
		m->value = (double)pvnet_measured(&np->stream->pv) * 8 / 1e6 / secs;
	/* ... and a remote netperf's datagrams sent */
	else if (m->valid && np->stream && c->peer == NP_PEER_REMOTE && c->direction == NP_FROM_DOM0)
		m->value = (double)pvnet_remote_sent(&np->stream->pv) * 8 / 1e6 / secs;
}

static void netperf_breakdown(struct workload *w, struct breakdown *b)
{
	struct netperf *np = w->priv;
	struct sim *s = w->sim;

	if (!np || !np->measuring || sim_now(s) <= np->warm_end)
		return;
	breakdown_init(b, np->warm_end, sim_now(s));
	if (np->stream) {
		pvnet_breakdown(&np->stream->pv, b, "netperf", stream_client_reasons, "netserver",
				server_reasons);
		return;
	}
	if (np->peer->stages) {
		np->peer->stages(np, b);
		return;
	}
	breakdown_tasks(b, s, "netperf", &np->client->task, 1, client_reasons);
	breakdown_tasks(b, s, "netserver", &np->server->task, 1, server_reasons);
}

static void netperf_destroy(struct workload *w)
{
	struct netperf *np = w->priv;

	if (!np)
		return;
	workload_window_cancel(&np->window, w->sim);
	if (np->stream) {
		pvnet_free(&np->stream->pv);
		free(np->stream);
	} else {
		np->peer->destroy(np);
	}
	worker_free(np->client);
	worker_free(np->server);
	hist_free(&np->latency);
	free(np);
	w->priv = NULL;
}

const struct workload_ops netperf_ops = {
	.name = "netperf",
	.summary = "netperf UDP_STREAM, TCP_STREAM, TCP_RR or UDP_RR between netperf and netserver "
		   "in one domain over lo (peer=loopback; STREAM_STREAM over a Unix-domain "
		   "socket), any of them between a guest "
		   "and dom0 over netfront/netback (peer=dom0) or a remote host through dom0's "
		   "NIC (peer=remote), as MMTests runs it; metric the "
		   "sender's Mbit/s (MMTests' send-SIZE) or TCP_RR's and UDP_RR's transactions/s (higher is "
		   "better), or a latency percentile",
	.params = netperf_params,
	.config_size = sizeof(struct netperf_config),
	.setup = netperf_setup,
	.hw = { 0.6, 256 << 10, 0.2, 0 },
	.hw_source = "the kernel's network path and copies of a few KiB: smt_speed 0.6, between "
		     "kernbench's 0.65 and iperf's 0.55 for bulk copies; working set: the 208 KiB "
		     "receive buffer and netperf's buffers; mem_intensity 0.2: copies within the "
		     "caches, a modelling choice",
	.metric = netperf_metric,
	.breakdown = netperf_breakdown,
	.destroy = netperf_destroy,
};
