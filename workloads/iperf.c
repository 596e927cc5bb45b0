/*
 * iperf: a TCP stream from an iperf client in a guest to an iperf server
 * in dom0, over netfront/netback, as Linux 4.x of 2016 runs it (Linux
 * drivers/net/xen-netfront.c, drivers/net/xen-netback/netback.c and
 * interface.c, net/ipv4/tcp*.c).  Data moves in 64 KiB GSO segments, each
 * taking slots_per_segment slots of the 256-slot TX ring.  The stream's
 * flow control (TCP Small Queues, the receive window, the send buffer) is
 * workloads/tcp.h.
 *
 *   guest  client (iperf -c): write() copies into the socket (tcp_sendmsg)
 *          until the send buffer is full, then pushes what TCP allows
 *          (tcp_push -> tcp_write_xmit -> xennet_start_xmit, which also
 *          reaps TX completions).
 *   dom0   netback NAPI poll (xenvif_poll, softirq on the vif's vCPU):
 *          maps the guest's pages, copies the payload into dom0's skb as
 *          local delivery does (skb_orphan_frags), hands it to the socket,
 *          and queues the grants for the dealloc thread; past Linux's
 *          softirq bound it goes on in ksoftirqd under CFS.
 *   dom0   dealloc kthread (xenvif_dealloc_kthread): unmaps the grants and
 *          only then answers the TX requests (xenvif_tx_dealloc_action ->
 *          xenvif_idx_release): TX completion, and so TSQ, waits for it.
 *   dom0   server (iperf -s): recv() does the TCP receive processing of
 *          what netback queued (while a reader is in tcp_recvmsg, Linux 4.x
 *          queues segments to its prequeue or backlog) and copies to user;
 *          one ACK per segment (__tcp_ack_snd_check: more than one full
 *          frame received), carrying the receive window.
 *   dom0   guest-rx kthread (xenvif_kthread_guest_rx): puts the ACKs into
 *          the guest's RX ring.
 *   guest  netfront interrupt and NAPI (xennet_tx_interrupt, xennet_poll):
 *          reaps TX completions (freeing skbs lets TSQ send again:
 *          tcp_wfree -> tcp_tasklet_func), processes ACKs (tcp_ack), and
 *          sends what TCP now allows from softirq (tcp_tsq_handler,
 *          tcp_data_snd_check); wakes the client when the send buffer has
 *          room (sk_stream_write_space).
 *
 * Every stage pays CPU on its vCPU, and every hand-over between domains is
 * an event channel that wakes the receiving vCPU only when it asked for it
 * (ring event indexes).  Throughput is measured at the server after a
 * warm-up.  Batches claim their work when they run and publish it at the
 * end of their CPU time (split.h); a batch that sends reserves its
 * segments when it claims, so two contexts never send the same bytes.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/iperf.h"
#include "workloads/split.h"
#include "workloads/tcp.h"

struct iperf_config {
	long long segment;
	long long limit_output, wmem_max, rmem_max, adv_win_scale, skb_overhead;
	long long ring_slots, slots_per_segment, napi_budget, softirq_restarts;
	stime_t write_cost, tx_cost, gc_cost, netback_cost, dealloc_cost, server_cost;
	stime_t ack_cost, ack_rx_cost;
	stime_t evtchn_latency, softirq_time, warmup, time;
	long long guest_vcpu, dom0_vcpu, client_vcpu, server_vcpu;
	double noise, run_noise, work_scale;
};

#define OFF(f) offsetof(struct iperf_config, f)

/*
 * The calibration (doc/workloads.md): the costs above were set on the
 * full-speed machine; with the hardware model the work is scaled once so
 * that the stream on the default host (the 2016 test host) under the
 * Credit1 of that time (credit1:era=2016), no dom0 load, gives the real
 * 11.793 Gbit/s (real-measurements.md section 1; doc/validation.md, the
 * guest's memory on both nodes as xl leaves it after autoballooning, the
 * client started from connect() on netfront's vCPU: 0.79 gave 11.815
 * Gbit/s, 0.794 11.756, 0.7915 11.790 over 15 iterations).
 */
#define IPERF_MODEL_SCALE 0.7915
#define IPERF_MODEL_SCALE_TEXT "0.7915"

static const struct param_def iperf_params[] = {
	{ "segment", PARAM_SIZE, "65536", NULL, 1024, 65536,
	  "bytes per GSO segment", OFF(segment) },
	{ "tcp_limit_output_bytes", PARAM_SIZE, "262144", NULL, 1024, 1LL << 32,
	  "TCP Small Queues: truesize of sent skbs the driver may hold before TCP "
	  "stops sending (Linux sysctl, 262144 since c39c4c6abb89, 4.2)", OFF(limit_output) },
	{ "tcp_wmem_max", PARAM_SIZE, "4194304", NULL, 1024, 1LL << 32,
	  "the client's send buffer (tcp_wmem[2], tcp_init's 4 MiB, reached by autotuning)", OFF(wmem_max) },
	{ "tcp_rmem_max", PARAM_SIZE, "6291456", NULL, 1024, 1LL << 32,
	  "the server's receive buffer (tcp_rmem[2], tcp_init's 6 MiB, reached by "
	  "tcp_rcv_space_adjust)", OFF(rmem_max) },
	{ "tcp_adv_win_scale", PARAM_INT, "1", NULL, -31, 31,
	  "receive window = buffer - buffer/2^n (n > 0) or buffer/2^-n "
	  "(tcp_win_from_space; Linux's default 1)", OFF(adv_win_scale) },
	{ "skb_overhead", PARAM_SIZE, "2624", NULL, 0, 1 << 20,
	  "truesize beyond the payload of a segment's skb: select_size's 2 KiB head "
	  "plus sk_buff and skb_shared_info (SKB_TRUESIZE)",
	  OFF(skb_overhead) },
	{ "ring_slots", PARAM_INT, "256", NULL, 1, 65536,
	  "TX and RX ring slots (256: one 4 KiB page)", OFF(ring_slots) },
	{ "slots_per_segment", PARAM_INT, "17", NULL, 1, 64,
	  "TX slots a segment takes (one per 4 KiB page and one header); netfront "
	  "keeps MAX_SKB_FRAGS + 2 more free", OFF(slots_per_segment) },
	{ "napi_budget", PARAM_INT, "64", NULL, 1, 65536,
	  "segments netback moves per poll", OFF(napi_budget) },
	{ "softirq_time", PARAM_DURATION, "2ms", NULL, 0, 0,
	  "netback's and netfront's softirq work goes on in ksoftirqd after this "
	  "(Linux's MAX_SOFTIRQ_TIME; 0: no time bound)", OFF(softirq_time) },
	{ "softirq_restarts", PARAM_INT, "10", NULL, 0, 1000000,
	  "... or after this many polls (Linux's MAX_SOFTIRQ_RESTART; 0: no bound)",
	  OFF(softirq_restarts) },
	{ "write_cost", PARAM_DURATION, "29650ns", NULL, 0, 0,
	  "guest CPU per segment written: copy from user into the socket "
	  "(20 us first-principles x the calibrated 1.4825)", OFF(write_cost) },
	{ "tx_cost", PARAM_DURATION, "14830ns", NULL, 0, 0,
	  "guest CPU per segment sent: TCP output, netfront xmit (10 us x 1.4825)", OFF(tx_cost) },
	{ "gc_cost", PARAM_DURATION, "1480ns", NULL, 0, 0,
	  "guest CPU per TX completion: ungrant, free the skb (1 us x 1.4825)", OFF(gc_cost) },
	{ "netback_cost", PARAM_DURATION, "25200ns", NULL, 0, 0,
	  "dom0 CPU per segment in netback's poll: map, copy out (skb_orphan_frags), "
	  "dom0 stack (17 us x 1.4825)", OFF(netback_cost) },
	{ "dealloc_cost", PARAM_DURATION, "4450ns", NULL, 0, 0,
	  "dom0 CPU per segment in the dealloc kthread: unmap, TX responses "
	  "(3 us x 1.4825)", OFF(dealloc_cost) },
	{ "server_cost", PARAM_DURATION, "29650ns", NULL, 0, 0,
	  "dom0 CPU per segment read by the server: TCP receive, copy to user, ACK "
	  "(20 us x 1.4825)",
	  OFF(server_cost) },
	{ "ack_cost", PARAM_DURATION, "4450ns", NULL, 0, 0,
	  "dom0 CPU per ACK in netback's guest-rx kthread (3 us x 1.4825)", OFF(ack_cost) },
	{ "ack_rx_cost", PARAM_DURATION, "2970ns", NULL, 0, 0,
	  "guest CPU per ACK received: netfront RX, TCP (2 us x 1.4825)", OFF(ack_rx_cost) },
	{ "evtchn_latency", PARAM_DURATION, "2us", NULL, 0, 0,
	  "event channel send to upcall", OFF(evtchn_latency) },
	{ "warmup", PARAM_DURATION, "1s", NULL, 0, 0,
	  "time before throughput is measured", OFF(warmup) },
	{ "time", PARAM_DURATION, "10s", NULL, 0, 0,
	  "measured time (iperf -t); the run then ends (0: at the scenario's end)", OFF(time) },
	{ "guest_vcpu", PARAM_INT, "0", NULL, 0, 4095,
	  "guest vCPU netfront's event channels are bound to", OFF(guest_vcpu) },
	{ "dom0_vcpu", PARAM_INT, "0", NULL, 0, 4095,
	  "dom0 vCPU netback's event channel is bound to", OFF(dom0_vcpu) },
	{ "client_vcpu", PARAM_INT, "-1", NULL, -1, 4095,
	  "guest vCPU the client is pinned to (iperf -A, taskset; -1: the guest "
	  "kernel places it)", OFF(client_vcpu) },
	{ "server_vcpu", PARAM_INT, "-1", NULL, -1, 4095,
	  "dom0 vCPU the server is pinned to (-1: the kernel places it)", OFF(server_vcpu) },
	{ "noise", PARAM_DOUBLE, "0.1", NULL, 0, 0.5,
	  "variation of each batch's CPU time (coefficient of variation)", OFF(noise) },
	{ "run_noise", PARAM_DOUBLE, "0.01", NULL, 0, 0.5,
	  "variation of all CPU costs from run to run (coefficient of variation)", OFF(run_noise) },
	{ "work_scale", PARAM_DOUBLE, "0", NULL, 0, 100,
	  "factor on every CPU cost above, the calibration (0: as calibrated for the machine: "
	  "1 on --hw=ideal, " IPERF_MODEL_SCALE_TEXT " with the hardware model)", OFF(work_scale) },
	{ NULL }
};

/*
 * Where the sender stands at each instant (the breakdown's "tcp" stage),
 * in the spirit of Linux's own chrono counters (tcp_chrono_start, 4.10):
 * a batch that sends is under way, or the next segment waits for data,
 * for TSQ, for the receive window, for ring slots, or for nothing.
 */
enum snd_state { SND_SENDING, SND_NO_DATA, SND_TSQ, SND_RWND, SND_RING, SND_READY, SND_N };
static const char *const snd_state_name[SND_N] = {
	"sending", "no_data", "tsq", "rwnd", "ring", "ready"
};

/* Why the client blocks (its breakdown's "blocked:" parts). */
enum { CLIENT_SNDBUF, CLIENT_CONNECT };
static const char *const client_reasons[TASK_BLOCK_REASONS] = { "sndbuf", "connect" };

struct ack_slot {
	uint64_t ack, wnd_end;
};

struct iperf {
	struct workload *w;
	struct iperf_config *c;
	struct tcp_stream tcp;
	struct ring tx, rx;
	struct ack_slot *ack_val;          /* what each RX slot carries */
	struct worker *client, *netfront, *netback, *dealloc, *server, *rxk;
	struct evtchn to_back, tx_to_front, rx_to_front;
	double half_width;                 /* of the uniform cost noise */
	double run_factor;                 /* this run's host state */
	/* batches being run by each stage */
	unsigned cl_sent, nf_sent, nb_segs, dl_segs, srv_segs;
	unsigned nb_polled, nf_polled;     /* segments in the current softirq pass */
	unsigned nf_gc, nf_acks;
	uint64_t rxk_n;
	struct ack_slot rxk_ack;
	int sending;                       /* batches holding reserved segments */
	bool connected;                    /* netfront has taken the SYN-ACK */
	/* dom0 side */
	uint64_t sock_bytes;               /* received by netback, not yet read */
	uint64_t unmap_segs;               /* mapped, waiting for the dealloc thread */
	uint64_t consumed, measured, pending_acks;
	struct ack_slot pending_ack;
	/* the sender's state over time */
	int snd_cat;
	stime_t snd_from, snd_ns[SND_N];
	stime_t warm_end;
	struct timer warm, stop, syn_ack;
};

/*
 * A batch's CPU time: the model's cost times the run's factor (run_noise:
 * the host's state, so iterations differ as on a real host), varied by a
 * uniform factor of mean 1 and coefficient of variation 'noise' (caches,
 * interrupts).  Uniform rather than log-normal
 * because it is drawn per batch, hundreds of thousands of times a run:
 * one uniform draw costs a fraction of a normal one, and over so many
 * batches only the mean and spread matter.
 */
static stime_t cost(struct iperf *ip, double base)
{
	double f = ip->run_factor;

	if (ip->half_width > 0)
		f *= 1 + ip->half_width * (2 * rng_uniform(&ip->w->rng) - 1);
	return (stime_t)(base * f) + 1;
}

static unsigned spp(const struct iperf *ip)
{
	return (unsigned)ip->c->slots_per_segment;
}

static int snd_state(const struct iperf *ip)
{
	if (ip->sending)
		return SND_SENDING;
	switch (tcp_send_limit(&ip->tcp)) {
	case TCP_NO_DATA:
		return SND_NO_DATA;
	case TCP_TSQ:
		return SND_TSQ;
	case TCP_RWND:
		return SND_RWND;
	case TCP_CAN_SEND:
		break;
	}
	return ring_free_requests(&ip->tx) < spp(ip) + 3 ? SND_RING : SND_READY;
}

/* After every change of the sender's state: charge the time since the last. */
static void snd_update(struct iperf *ip)
{
	stime_t now = sim_now(ip->w->sim);

	ip->snd_ns[ip->snd_cat] += now - ip->snd_from;
	ip->snd_from = now;
	ip->snd_cat = snd_state(ip);
}

/*
 * Sends what TCP and the ring allow now (at most max segments, 0: no
 * limit): reserves them (TCP's snd_nxt, the ring's private producer
 * index) for the calling batch.
 * netfront keeps MAX_SKB_FRAGS + 2 slots free or stops the queue
 * (netfront_tx_slot_available), so a segment needs that many more.
 */
static unsigned send_allowed(struct iperf *ip, unsigned max)
{
	unsigned n = 0;

	while ((!max || n < max) && tcp_send_limit(&ip->tcp) == TCP_CAN_SEND &&
	       ring_free_requests(&ip->tx) >= spp(ip) + 3) {
		tcp_send(&ip->tcp);
		ring_queue_requests(&ip->tx, spp(ip));
		n++;
	}
	if (n)
		ip->sending++;
	return n;
}

/*
 * netfront's TX event index (Linux 4.4-4.8 xennet_tx_buf_gc): not "the
 * next response", as RING_FINAL_CHECK_FOR_RESPONSES would ask, but the
 * response that completes half of the requests then outstanding, so a
 * TX interrupt comes once per half of what is in flight.  False when
 * responses are already waiting (the caller takes them).
 */
static bool tx_arm_event(struct ring *r)
{
	if (ring_unconsumed_responses(r))
		return false;
	r->rsp_event = r->rsp_cons + ((ring_idx_t)(r->req_prod - r->rsp_cons) >> 1) + 1;
	return true;
}

/*
 * The batch's reserved segments go on the shared ring; netback is told if
 * it asked.  xennet_start_xmit then reaps TX completions
 * (xennet_tx_buf_gc), which sets the event index for what is now in
 * flight; responses that came meanwhile are netfront's to take.
 */
static void publish_sent(struct sim *s, struct iperf *ip, unsigned *sent)
{
	if (!*sent)
		return;
	*sent = 0;
	ip->sending--;
	if (ring_push_requests(&ip->tx))
		evtchn_send(&ip->to_back);
	if (!tx_arm_event(&ip->tx))
		worker_kick(s, ip->netfront);
}

/* TX completions, arming the TX event index as xennet_tx_buf_gc does: segments freed. */
static unsigned tx_gc(struct iperf *ip)
{
	unsigned n = 0, k;

	do {
		k = ring_unconsumed_responses(&ip->tx);
		ring_consume_responses(&ip->tx, k);
		n += k;
	} while (!tx_arm_event(&ip->tx));
	tcp_tx_freed(&ip->tcp, (uint64_t)(n / spp(ip)) * ip->c->segment);
	return n / spp(ip);
}

/*
 * One segment per batch, as tcp_sendmsg copies skb by skb: wait for
 * memory when the send buffer is full, else copy the next 64 KiB and
 * push what TCP allows (tcp_push_one / tcp_push), reaping TX completions
 * as xennet_start_xmit does after each packet.
 */
static stime_t client_poll(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;
	uint64_t seg = (uint64_t)ip->c->segment;
	unsigned gc = 0;

	(void)s;
	if (!ip->connected) {
		task_block_reason(w->task, CLIENT_CONNECT);
		return 0;
	}
	if (!tcp_may_write(&ip->tcp, seg)) {
		task_block_reason(w->task, CLIENT_SNDBUF);
		return 0;
	}
	tcp_write(&ip->tcp, seg);
	ip->cl_sent = send_allowed(ip, 0);
	if (ip->cl_sent)
		gc = tx_gc(ip);
	snd_update(ip);
	return cost(ip, (double)ip->c->write_cost + (double)ip->cl_sent * ip->c->tx_cost +
		    (double)gc * ip->c->gc_cost);
}

static void client_done(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	publish_sent(s, ip, &ip->cl_sent);
	snd_update(ip);
}

/*
 * One segment per batch: each skb goes up the stack (netif_receive_skb)
 * and its grants to the dealloc thread as soon as it is built; up to
 * napi_budget of them make one poll, one softirq pass.
 */
static stime_t netback_poll(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	(void)s;
	evtchn_test_and_clear(&ip->to_back);
	if (ring_unconsumed_requests(&ip->tx) < spp(ip) && !ring_final_check_requests(&ip->tx)) {
		ip->nb_polled = 0;
		return 0;
	}
	if (ring_unconsumed_requests(&ip->tx) < spp(ip)) {
		ip->nb_polled = 0;
		return 0;
	}
	ring_consume_requests(&ip->tx, spp(ip));
	w->continues_pass = ip->nb_polled > 0 && ip->nb_polled < (unsigned)ip->c->napi_budget;
	if (!w->continues_pass)
		ip->nb_polled = 0;
	ip->nb_polled++;
	ip->nb_segs = 1;
	return cost(ip, ip->c->netback_cost);
}

static void netback_done(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	(void)w;
	ip->sock_bytes += (uint64_t)ip->nb_segs * ip->c->segment;
	ip->unmap_segs += ip->nb_segs;
	ip->nb_segs = 0;
	worker_kick(s, ip->dealloc);
	worker_kick(s, ip->server);
}

static stime_t dealloc_poll(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	(void)s;
	if (!ip->unmap_segs)
		return 0;
	ip->dl_segs = (unsigned)ip->unmap_segs;
	ip->unmap_segs = 0;
	return cost(ip, (double)ip->dl_segs * ip->c->dealloc_cost);
}

static void dealloc_done(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	(void)s;
	ring_queue_responses(&ip->tx, ip->dl_segs * spp(ip));
	ip->dl_segs = 0;
	if (ring_push_responses(&ip->tx))
		evtchn_send(&ip->tx_to_front);
}

/* One segment per batch: tcp_recvmsg processes and copies skb by skb. */
static stime_t server_poll(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	(void)s;
	(void)w;
	if (ip->sock_bytes < (uint64_t)ip->c->segment)
		return 0;
	ip->sock_bytes -= (uint64_t)ip->c->segment;
	ip->srv_segs = 1;
	return cost(ip, ip->c->server_cost);
}

/*
 * The segment is processed and read: TCP ACKs it (one ACK per segment),
 * announcing the window past what it ACKs.
 */
static void server_done(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;
	uint64_t b = (uint64_t)ip->srv_segs * ip->c->segment;

	ip->consumed += b;
	if (sim_now(s) > ip->warm_end)
		ip->measured += b;
	ip->pending_acks += ip->srv_segs;
	ip->srv_segs = 0;
	ip->pending_ack = (struct ack_slot){ ip->consumed,
					     ip->consumed + tcp_rcv_window(&ip->tcp.p) };
	worker_kick(s, ip->rxk);
}

static stime_t rxk_poll(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	(void)s;
	if (!ip->pending_acks)
		return 0;
	ip->rxk_n = ip->pending_acks;
	ip->rxk_ack = ip->pending_ack;
	ip->pending_acks = 0;
	return cost(ip, (double)ip->rxk_n * ip->c->ack_cost);
}

/*
 * n ACKs carrying a go on the RX ring, one slot each, and netfront is told
 * if it asked.  ACKs are cumulative, so when the guest has not freed a
 * slot the newest value replaces the last unconsumed one.
 */
static void rx_put_acks(struct iperf *ip, uint64_t n, struct ack_slot a)
{
	unsigned size = ip->rx.size;

	for (uint64_t i = 0; i < n; i++) {
		if ((ring_idx_t)(ip->rx.rsp_prod_pvt - ip->rx.rsp_cons) >= size) {
			ip->ack_val[(ip->rx.rsp_prod_pvt - 1) % size] = a;
			break;
		}
		ip->ack_val[ip->rx.rsp_prod_pvt % size] = a;
		ring_queue_responses(&ip->rx, 1);
	}
	if (ring_push_responses(&ip->rx))
		evtchn_send(&ip->rx_to_front);
}

static void rxk_done(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	(void)s;
	rx_put_acks(ip, ip->rxk_n, ip->rxk_ack);
	ip->rxk_n = 0;
}

/*
 * netfront's interrupt and NAPI poll.  A batch first takes the TX
 * completions and ACKs that wait (freeing skbs lets TSQ send again, ACKs
 * free the send buffer and open the window); with none waiting, it sends
 * the next segment TCP allows, one per batch as tcp_write_xmit hands skb
 * after skb to xennet_start_xmit, all in the same softirq pass.
 */
static stime_t netfront_poll(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;
	unsigned ntx, nrx;

	(void)s;
	evtchn_test_and_clear(&ip->tx_to_front);
	evtchn_test_and_clear(&ip->rx_to_front);
	ntx = ring_unconsumed_responses(&ip->tx);
	nrx = ring_unconsumed_responses(&ip->rx);
	if (!ntx && !nrx) {
		/* the TX event index stays as the last xennet_tx_buf_gc set it */
		if (ring_final_check_responses(&ip->rx))
			nrx = ring_unconsumed_responses(&ip->rx);
		else if ((ip->nf_sent = send_allowed(ip, 1)) > 0) {
			w->continues_pass = ip->nf_polled > 0;
			ip->nf_polled++;
			snd_update(ip);
			return cost(ip, ip->c->tx_cost);
		} else {
			ip->nf_polled = 0;
			return 0;
		}
	}
	ip->nf_gc = tx_gc(ip);
	if (nrx) {
		const struct ack_slot *a = &ip->ack_val[(ip->rx.rsp_cons + nrx - 1) % ip->rx.size];

		tcp_ack(&ip->tcp, a->ack, a->wnd_end);
	}
	ring_consume_responses(&ip->rx, nrx);
	ip->nf_acks = nrx;
	ip->connected |= nrx > 0;     /* the first is the SYN-ACK */
	w->continues_pass = ip->nf_polled > 0;
	ip->nf_polled++;
	snd_update(ip);
	return cost(ip, (double)ip->nf_gc * ip->c->gc_cost + (double)nrx * ip->c->ack_rx_cost);
}

static void netfront_done(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	(void)w;
	publish_sent(s, ip, &ip->nf_sent);
	if (ip->nf_gc || ip->nf_acks) {
		ip->nf_gc = ip->nf_acks = 0;
		if (tcp_writeable(&ip->tcp))
			worker_kick(s, ip->client);
	}
	snd_update(ip);
}

/* The measured interval starts: so does the account of where time goes. */
static void iperf_warm(struct timer *t, void *arg)
{
	struct iperf *ip = arg;
	struct sim *s = ip->w->sim;

	(void)t;
	task_time_start(s, ip->client->task);
	task_time_start(s, ip->netfront->task);
	task_time_start(s, ip->netback->task);
	task_time_start(s, ip->dealloc->task);
	task_time_start(s, ip->server->task);
	task_time_start(s, ip->rxk->task);
	memset(ip->snd_ns, 0, sizeof(ip->snd_ns));
	ip->snd_from = sim_now(s);
	ip->snd_cat = snd_state(ip);
}

static void iperf_stop(struct timer *t, void *arg)
{
	struct iperf *ip = arg;

	(void)t;
	sim_request_stop(ip->w->sim);
}

/*
 * The client starts in connect(), blocked until the SYN-ACK comes back.
 * It arrives as an RX response that netfront's NAPI poll takes on its
 * vCPU (tcp_rcv_state_process, then the wake-up of connect's waiter from
 * softirq), so the client's first wake-up, and with it where Linux places
 * it (wake_affine towards the interrupt's CPU), is netfront's, as on a
 * real guest.  The SYN reaches dom0 one event channel's latency after the
 * start and the SYN-ACK is put on the RX ring then; the CPU both take in
 * dom0 is left out (microseconds, long before the measurement starts).
 */
static void iperf_syn_ack(struct timer *t, void *arg)
{
	struct iperf *ip = arg;

	(void)t;
	rx_put_acks(ip, 1, (struct ack_slot){ 0, tcp_rcv_window(&ip->tcp.p) });
}

static int check_vcpu(const char *what, long long v, const struct domain *d,
		      struct err *e)
{
	if (v >= d->nr_vcpus)
		return err_set(e, "iperf: %s=%lld but domain %s has %d vCPUs",
			       what, v, d->name, d->nr_vcpus);
	return 0;
}

static int iperf_check(const struct iperf_config *c, struct domain *g,
		       struct domain *d0, struct err *e)
{
	if (!d0 || d0 == g)
		return err_set(e, "iperf runs in a guest and needs dom0 (domid 0) for the server");
	if (c->slots_per_segment + 3 > c->ring_slots)
		return err_set(e, "iperf: ring_slots=%lld cannot take a segment of "
			       "slots_per_segment=%lld and the %lld slots netfront keeps free",
			       c->ring_slots, c->slots_per_segment, 2LL);
	if (c->wmem_max < 2 * (c->segment + c->skb_overhead))
		return err_set(e, "iperf: tcp_wmem_max=%lld holds less than two segments of "
			       "segment=%lld", c->wmem_max, c->segment);
	if (check_vcpu("guest_vcpu", c->guest_vcpu, g, e) < 0 ||
	    check_vcpu("dom0_vcpu", c->dom0_vcpu, d0, e) < 0 ||
	    check_vcpu("client_vcpu", c->client_vcpu, g, e) < 0 ||
	    check_vcpu("server_vcpu", c->server_vcpu, d0, e) < 0)
		return -1;
	return 0;
}

static int iperf_setup(struct workload *w, struct err *e)
{
	struct iperf_config *c = w->config;
	struct domain *d0 = split_dom0(w->sim);
	struct guest *g = guest_of(w->dom), *g0;
	struct sim *s = w->sim;
	struct tcp_params tp;
	struct iperf *ip;

	if (iperf_check(c, w->dom, d0, e) < 0)
		return err_prefix(e, "%s:%d", w->source, w->spec->line);
	tp = (struct tcp_params){
		.segment = (uint64_t)c->segment, .skb_overhead = (uint64_t)c->skb_overhead,
		.limit_output = (uint64_t)c->limit_output, .sndbuf = (uint64_t)c->wmem_max,
		.rcvbuf = (uint64_t)c->rmem_max, .adv_win_scale = (int)c->adv_win_scale,
	};
	if (tcp_rcv_window(&tp) < tp.segment) {
		err_set(e, "iperf: tcp_rmem_max=%lld with tcp_adv_win_scale=%lld gives a window "
			"below one segment", c->rmem_max, c->adv_win_scale);
		return err_prefix(e, "%s:%d", w->source, w->spec->line);
	}
	g0 = guest_of(d0);
	ip = xcalloc(1, sizeof(*ip));
	w->priv = ip;
	ip->w = w;
	ip->c = c;
	tcp_init(&ip->tcp, &tp);
	ip->half_width = c->noise * sqrt(3.0);
	ip->run_factor = 1 + c->run_noise * sqrt(3.0) * (2 * rng_uniform(&w->rng) - 1);
	ip->run_factor *= c->work_scale > 0 ? c->work_scale
			: hw_is_ideal(s->hw) ? 1.0 : IPERF_MODEL_SCALE;
	ring_init(&ip->tx, (unsigned)c->ring_slots);
	ring_init(&ip->rx, (unsigned)c->ring_slots);
	ip->ack_val = xcalloc((size_t)c->ring_slots, sizeof(*ip->ack_val));
	/*
	 * The interrupts are bound to their event channels' vCPUs; the
	 * client, the server and the kthreads start next to them and then
	 * go where the guest kernel's wake placement and balancing put them,
	 * unless the client or the server is pinned.
	 */
	ip->client = worker_create(g, "iperf-client", TASK_NORMAL,
				   c->client_vcpu >= 0 ? (int)c->client_vcpu :
				   (int)(c->guest_vcpu + 1) % g->nr_cpus, c->client_vcpu >= 0,
				   client_poll, client_done, ip);
	ip->netfront = worker_create(g, "netfront-q0", TASK_IRQ, (int)c->guest_vcpu, true,
				     netfront_poll, netfront_done, ip);
	ip->netback = worker_create(g0, "netback-q0", TASK_IRQ, (int)c->dom0_vcpu, true,
				    netback_poll, netback_done, ip);
	ip->dealloc = worker_create(g0, "vif-q0-dealloc", TASK_NORMAL,
				    (int)(c->dom0_vcpu + 3) % g0->nr_cpus, false,
				    dealloc_poll, dealloc_done, ip);
	ip->server = worker_create(g0, "iperf-server", TASK_NORMAL,
				   c->server_vcpu >= 0 ? (int)c->server_vcpu :
				   (int)(c->dom0_vcpu + 1) % g0->nr_cpus, c->server_vcpu >= 0,
				   server_poll, server_done, ip);
	ip->rxk = worker_create(g0, "vif-q0-guest-rx", TASK_NORMAL,
				(int)(c->dom0_vcpu + 2) % g0->nr_cpus, false,
				rxk_poll, rxk_done, ip);
	ip->netfront->softirq_time = ip->netback->softirq_time = c->softirq_time;
	ip->netfront->softirq_restarts = (int)c->softirq_restarts;
	ip->netback->softirq_restarts = (int)c->softirq_restarts;
	evtchn_init(&ip->to_back, s, ip->netback, c->evtchn_latency);
	evtchn_init(&ip->tx_to_front, s, ip->netfront, c->evtchn_latency);
	evtchn_init(&ip->rx_to_front, s, ip->netfront, c->evtchn_latency);
	timer_init(&ip->syn_ack, iperf_syn_ack, ip);
	timer_set(&s->q, &ip->syn_ack, c->evtchn_latency);
	ip->warm_end = c->warmup;
	ip->snd_cat = snd_state(ip);
	timer_init(&ip->warm, iperf_warm, ip);
	timer_set(&s->q, &ip->warm, c->warmup);
	timer_init(&ip->stop, iperf_stop, ip);
	if (c->time > 0)
		timer_set(&s->q, &ip->stop, c->warmup + c->time);
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
	m->valid = ip && now > ip->warm_end;
	if (m->valid)
		m->value = (double)ip->measured * 8 / (double)(now - ip->warm_end);
}

/* Each stage's time over the measured interval, in pipeline order, then TCP's sender. */
static void iperf_breakdown(struct workload *w, struct breakdown *b)
{
	struct iperf *ip = w->priv;
	struct sim *s = w->sim;
	struct breakdown_stage *st;

	if (!ip || !ip->client->task->timed || sim_now(s) <= ip->warm_end)
		return;
	breakdown_init(b, ip->warm_end, sim_now(s));
	breakdown_tasks(b, s, "client", &ip->client->task, 1, client_reasons);
	breakdown_tasks(b, s, "netback", &ip->netback->task, 1, NULL);
	breakdown_tasks(b, s, "dealloc", &ip->dealloc->task, 1, NULL);
	breakdown_tasks(b, s, "server", &ip->server->task, 1, NULL);
	breakdown_tasks(b, s, "guest-rx", &ip->rxk->task, 1, NULL);
	breakdown_tasks(b, s, "netfront", &ip->netfront->task, 1, NULL);
	snd_update(ip);
	st = breakdown_stage(b, "tcp-sender", w->dom->name, 1);
	for (int k = 0; k < SND_N; k++)
		breakdown_part(st, snd_state_name[k], ip->snd_ns[k]);
}

static void iperf_destroy(struct workload *w)
{
	struct iperf *ip = w->priv;

	if (!ip)
		return;
	evtchn_close(&ip->to_back);
	evtchn_close(&ip->tx_to_front);
	evtchn_close(&ip->rx_to_front);
	timer_stop(&w->sim->q, &ip->warm);
	timer_stop(&w->sim->q, &ip->syn_ack);
	timer_stop(&w->sim->q, &ip->stop);
	worker_free(ip->client);
	worker_free(ip->netfront);
	worker_free(ip->netback);
	worker_free(ip->dealloc);
	worker_free(ip->server);
	worker_free(ip->rxk);
	free(ip->ack_val);
	free(ip);
	w->priv = NULL;
}

const struct workload_ops iperf_ops = {
	.name = "iperf",
	.summary = "a TCP stream from the guest to an iperf server in dom0 over "
		   "netfront/netback, under Linux's TCP Small Queues, receive window "
		   "and send buffer; metric throughput (Gbit/s, higher is better) after "
		   "a warm-up",
	.params = iperf_params,
	.config_size = sizeof(struct iperf_config),
	.setup = iperf_setup,
	.hw = { 0.55, 512 << 10, 0.5 },
	.hw_source = "memory copies: smt_speed at the low end of hardware.md's 0.55 to 0.75 (memory-"
		     "bound code gains little from a second thread); working set: the 512 KiB window "
		     "of bytes in flight; mem_intensity 0.5: copies wait on memory about half the "
		     "time, a modelling choice",
	.metric = iperf_metric,
	.breakdown = iperf_breakdown,
	.destroy = iperf_destroy,
};
