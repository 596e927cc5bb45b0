/*
 * The paravirtual network: netfront/netback queues and the TCP flows over
 * them (see pvnet.h for the model and its sources).  Each queue's four
 * workers claim a batch when they run and publish it when its CPU time is
 * done; the flows' sockets are the workload's tasks' to read and write.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/pvnet.h"
#include "workloads/workload.h"

/*
 * UDP (pvnet_flow_udp): a datagram above the MTU leaves as IP fragments of
 * 1480 bytes (a 1500-byte MTU less the IP header; Linux 4.x's UDP has no
 * segmentation offload to netfront), each a packet of one ring slot;
 * netfront stops its queue with fewer than MAX_SKB_FRAGS + 2 = 19 slots
 * free (netfront_tx_slot_available); netback's rx_queue takes
 * XENVIF_RX_QUEUE_BYTES = XEN_NETIF_RX_RING_SIZE / 2 pages = 512 KiB before
 * xenvif_rx_queue_tail stops the vif's queue, whose qdisc then holds
 * XENVIF_QUEUE_LENGTH = 32 packets and drops the rest (interface.c of
 * Linux 4.4-4.9).  A burst (one pvnet_pkt) is at most UDP_BURST_SLOTS
 * slots, so that the guest-rx thread can always take one.
 */
#define UDP_FRAG_BYTES 1480
#define UDP_HDR 8
#define XENNET_STOP_SLOTS 19
#define XENVIF_RX_QUEUE_BYTES (256 / 2 * 4096)
#define XENVIF_QUEUE_LENGTH 32
#define UDP_BURST_SLOTS 64
/* netback copies this much of a packet into the skb's head, maps the rest (netback.c). */
#define XEN_NETBACK_TX_COPY_LEN 128
/* ... of an Ethernet header, IPv4's and UDP's */
#define ETH_IP_UDP_HDR 42

const char *const pvnet_snd_name[SND_N] = {
	"sending", "no_data", "tsq", "rwnd", "ring", "ready"
};

/* ------------------------------------------------------------------------ */
/* packets */

static void pktq_push(struct pvnet_pktq *q, const struct pvnet_pkt *p)
{
	if (q->n == q->cap) {
		unsigned cap = q->cap ? 2 * q->cap : 64;
		struct pvnet_pkt *v = xcalloc(cap, sizeof(*v));

		for (unsigned i = 0; i < q->n; i++)
			v[i] = q->v[(q->head + i) % q->cap];
		free(q->v);
		q->v = v;
		q->cap = cap;
		q->head = 0;
	}
	q->v[(q->head + q->n) % q->cap] = *p;
	q->n++;
}

static struct pvnet_pkt *pktq_at(const struct pvnet_pktq *q, unsigned i)
{
	return &q->v[(q->head + i) % q->cap];
}

static void pktq_drop(struct pvnet_pktq *q, unsigned k)
{
	q->head = (q->head + k) % q->cap;
	q->n -= k;
}

static unsigned spp(const struct pvnet *n)
{
	return (unsigned)n->c->slots_per_segment;
}

/* A per-segment cost for a data packet of 'bytes' (a segment's share). */
static double per_byte(const struct pvnet *n, stime_t seg_cost, uint64_t bytes)
{
	return (double)seg_cost * (double)bytes / (double)n->c->segment;
}

stime_t pvnet_cost(struct pvnet *n, double base)
{
	return workload_cost(n->rng, n->run_factor, n->half_width, base);
}

/* ------------------------------------------------------------------------ */
/* the TCP sender */

static int snd_state(const struct pvnet_flow *f)
{
	if (f->sending)
		return SND_SENDING;
	switch (tcp_send_limit(&f->tcp)) {
	case TCP_NO_DATA:
		return SND_NO_DATA;
	case TCP_TSQ:
		return SND_TSQ;
	case TCP_RWND:
		return SND_RWND;
	case TCP_CAN_SEND:
		break;
	}
	if (f->snd_at == PVNET_GUEST && ring_free_requests(&f->q->tx) < spp(f->net) + 3)
		return SND_RING;
	return SND_READY;
}

/* After every change of the sender's state: charge the time since the last. */
static void snd_update(struct pvnet_flow *f)
{
	stime_t now = sim_now(f->net->sim);

	f->snd_ns[f->snd_cat] += now - f->snd_from;
	f->snd_from = now;
	f->snd_cat = snd_state(f);
}

/*
 * Sends what TCP (and a guest's TX ring) allow now, at most max segments
 * (0: no limit), reserving them (TCP's snd_nxt; the ring's private
 * producer index) for the calling batch.  netfront keeps MAX_SKB_FRAGS + 2
 * slots free or stops the queue (netfront_tx_slot_available), so a segment
 * needs that many more.  A dom0 sender's segments go to netback's
 * rx_queue when the batch publishes them.
 */
static unsigned send_allowed(struct pvnet_flow *f, unsigned max)
{
	struct pvnet *n = f->net;
	struct ring *tx = &f->q->tx;
	bool guest = f->snd_at == PVNET_GUEST;
	unsigned k = 0;

	while ((!max || k < max) && tcp_send_limit(&f->tcp) == TCP_CAN_SEND &&
	       (!guest || ring_free_requests(tx) >= spp(n) + 3)) {
		tcp_send(&f->tcp);
		if (guest) {
			f->q->txp[tx->req_prod_pvt % tx->size] = (struct pvnet_pkt){
				.flow = f, .bytes = (uint32_t)n->c->segment,
				.slots = (uint16_t)spp(n), .kind = PVNET_DATA };
			ring_queue_requests(tx, spp(n));
		}
		k++;
	}
	if (k)
		f->sending++;
	return k;
}

/*
 * A sending context of queue q (netfront's softirq for a guest sender,
 * netback's or the guest-rx thread's for a dom0 one) sends the next
 * segment TCP allows, for the first of q's flows sending from 'where'
 * that may: the flow in *which, 0 when none may.
 */
static unsigned send_one(struct pvnet_queue *q, enum pvnet_where where,
			 struct pvnet_flow **which)
{
	for (int i = 0; i < q->nflows; i++) {
		struct pvnet_flow *f = q->flows[i];
		unsigned k;

		if (f->snd_at != where)
			continue;
		if ((k = send_allowed(f, 1)) > 0) {
			*which = f;
			return k;
		}
	}
	return 0;
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
 * The guest's requests queued on the TX ring are published and netback is
 * told if it asked; then, as xennet_start_xmit reaps TX completions
 * (xennet_tx_buf_gc), the event index is set for what is in flight, and
 * responses that came meanwhile are netfront's to take.
 */
static void tx_publish(struct pvnet_queue *q)
{
	if (ring_push_requests(&q->tx))
		evtchn_send(&q->to_back);
	if (!tx_arm_event(&q->tx))
		worker_kick(q->net->sim, q->netfront);
}

/* A batch's reserved segments go out: on the TX ring, or to netback's rx_queue. */
static void publish_sent(struct pvnet_flow *f, unsigned *sent)
{
	struct pvnet *n = f->net;
	struct pvnet_queue *q = f->q;
	unsigned k = *sent;

	if (!k)
		return;
	*sent = 0;
	f->sending--;
	if (f->snd_at == PVNET_GUEST) {
		tx_publish(q);
		return;
	}
	for (unsigned i = 0; i < k; i++)
		pktq_push(&q->rxq, &(struct pvnet_pkt){ .flow = f,
							.bytes = (uint32_t)n->c->segment,
							.slots = (uint16_t)spp(n),
							.kind = PVNET_DATA });
	worker_kick(n->sim, q->rxk);
}

/*
 * TX completions, arming the TX event index as xennet_tx_buf_gc does: the
 * packets whose slots are all answered are freed (a guest sender's
 * segments release TCP Small Queues: tcp_wfree).  Responses are counted,
 * not identified, so they free the requests in the order they were made.
 * Returns the packets freed.
 */
static unsigned tx_gc(struct pvnet_queue *q)
{
	struct ring *tx = &q->tx;
	unsigned freed = 0, k;

	do {
		k = ring_unconsumed_responses(tx);
		for (unsigned i = 0; i < k;) {
			const struct pvnet_pkt *p = &q->txp[(tx->rsp_cons + i) % tx->size];

			if (p->kind == PVNET_DATA && p->flow->udp)
				p->flow->wmem -= p->dgrams * p->flow->truesize;
			else if (p->kind == PVNET_DATA && p->flow->snd_at == PVNET_GUEST)
				tcp_tx_freed(&p->flow->tcp, p->bytes);
			i += p->slots;
			freed++;
		}
		ring_consume_responses(tx, k);
	} while (!tx_arm_event(tx));
	return freed;
}

/* ------------------------------------------------------------------------ */
/* the sockets' owners */

bool pvnet_connected(const struct pvnet_flow *f)
{
	return f->connected;
}

bool pvnet_may_write(const struct pvnet_flow *f, uint64_t bytes)
{
	return tcp_may_write(&f->tcp, bytes);
}

/*
 * tcp_sendmsg copies skb by skb: the copy of 'bytes' and the push of what
 * TCP allows (tcp_push -> tcp_write_xmit); a guest's xennet_start_xmit
 * reaps TX completions after each packet.
 */
stime_t pvnet_write_claim(struct pvnet_flow *f, uint64_t bytes)
{
	struct pvnet *n = f->net;
	unsigned gc = 0;

	tcp_write(&f->tcp, bytes);
	f->cl_sent = send_allowed(f, 0);
	if (f->cl_sent && f->snd_at == PVNET_GUEST)
		gc = tx_gc(f->q);
	snd_update(f);
	return pvnet_cost(n, per_byte(n, n->c->write_cost, bytes) +
			  (double)f->cl_sent * n->c->tx_cost + (double)gc * n->c->gc_cost);
}

void pvnet_write_commit(struct pvnet_flow *f)
{
	publish_sent(f, &f->cl_sent);
	snd_update(f);
}

uint64_t pvnet_readable(const struct pvnet_flow *f)
{
	return f->sock_bytes;
}

/* tcp_recvmsg processes and copies skb by skb, what netback or netfront queued. */
stime_t pvnet_read_claim(struct pvnet_flow *f, uint64_t max)
{
	struct pvnet *n = f->net;

	f->rd_bytes = f->sock_bytes < max ? f->sock_bytes : max;
	f->sock_bytes -= f->rd_bytes;
	if (f->udp)                   /* UDP's receive was the softirq's: only the calls */
		return 0;
	return pvnet_cost(n, per_byte(n, n->c->server_cost, f->rd_bytes));
}

/*
 * An ACK of the guest's goes out as netfront's xmit of a one-slot packet;
 * with the ring short of slots (netback has not answered) the newest ACK
 * waits for netfront's next TX completion: ACKs are cumulative.
 */
static void guest_send_ack(struct pvnet_flow *f)
{
	struct pvnet_queue *q = f->q;
	struct ring *tx = &q->tx;

	if (ring_free_requests(tx) < 1) {
		f->ack_waits = true;
		return;
	}
	f->ack_waits = false;
	q->txp[tx->req_prod_pvt % tx->size] = (struct pvnet_pkt){
		.flow = f, .slots = 1, .kind = PVNET_ACK, .ack = f->consumed,
		.wnd_end = f->consumed + tcp_rcv_window(&f->tcp.p) };
	ring_queue_requests(tx, 1);
	tx_publish(q);
}

/*
 * The bytes read are acknowledged (__tcp_ack_snd_check: more than one full
 * frame received, so at once), the window announced past what is acked.
 * dom0's ACK goes to netback's rx_queue for the guest-rx thread; the
 * guest's onto its TX ring.
 */
void pvnet_read_commit(struct pvnet_flow *f)
{
	struct pvnet *n = f->net;
	uint64_t b = f->rd_bytes;

	f->consumed += b;
	if (sim_now(n->sim) > n->warm_end)
		f->measured += b;
	f->rd_bytes = 0;
	if (f->udp) {                 /* skb_consume_udp frees the datagrams: no ACK */
		f->rmem -= b / f->dgram * f->truesize;
		return;
	}
	if (f->rcv_at == PVNET_GUEST) {
		guest_send_ack(f);
		return;
	}
	pktq_push(&f->q->rxq, &(struct pvnet_pkt){
		.flow = f, .slots = 1, .kind = PVNET_ACK, .ack = f->consumed,
		.wnd_end = f->consumed + tcp_rcv_window(&f->tcp.p) });
	worker_kick(n->sim, f->q->rxk);
}

/* ------------------------------------------------------------------------ */
/* UDP flows */

void pvnet_flow_udp(struct pvnet_flow *f, uint64_t dgram, uint64_t truesize, uint64_t sndbuf,
		    uint64_t rcvbuf)
{
	f->udp = true;
	f->connected = true;          /* connect() of a UDP socket sends nothing */
	f->dgram = (uint32_t)dgram;
	f->frags = (uint32_t)((dgram + UDP_HDR + UDP_FRAG_BYTES - 1) / UDP_FRAG_BYTES);
	if (f->net->nic && (f->snd_at == PVNET_REMOTE || f->rcv_at == PVNET_REMOTE)) {
		/* the vif is bridged to the NIC: fragments at the link's MTU */
		f->frags = nic_udp_frags(f->net->nic->c->mtu, dgram);
		f->mapped = f->snd_at == PVNET_GUEST && dgram + ETH_IP_UDP_HDR > XEN_NETBACK_TX_COPY_LEN;
	}
	f->truesize = truesize;
	f->sndbuf = sndbuf;
	f->rcvbuf = rcvbuf;
}

/*
 * sock_alloc_send_pskb allocates while sk_wmem_alloc < sk_sndbuf; a
 * guest's datagrams also need netfront's ring (with its queue stopped
 * the qdisc would hold them, charged to the same sndbuf: an assumption
 * that the two bind alike, as they do for small datagrams).
 */
uint64_t pvnet_udp_room(const struct pvnet_flow *f)
{
	uint64_t n, cap = UDP_BURST_SLOTS / f->frags;

	if (f->wmem >= f->sndbuf)
		return 0;
	n = (f->sndbuf - f->wmem + f->truesize - 1) / f->truesize;
	if (f->snd_at == PVNET_GUEST) {
		unsigned free = ring_free_requests(&f->q->tx);
		uint64_t r = free > XENNET_STOP_SLOTS ? (free - XENNET_STOP_SLOTS) / f->frags : 0;

		n = n < r ? n : r;
	}
	cap = cap ? cap : 1;
	return n < cap ? n : cap;
}

stime_t pvnet_udp_send_claim(struct pvnet_flow *f, uint64_t n)
{
	struct pvnet_queue *q = f->q;
	struct ring *tx = &q->tx;
	unsigned gc;

	f->cl_dgrams = n;
	f->wmem += n * f->truesize;
	f->sending++;
	if (f->snd_at != PVNET_GUEST)
		return 0;
	q->txp[tx->req_prod_pvt % tx->size] = (struct pvnet_pkt){
		.flow = f, .bytes = (uint32_t)(n * f->dgram), .slots = (uint16_t)(n * f->frags),
		.kind = PVNET_DATA, .dgrams = (uint32_t)n };
	ring_queue_requests(tx, (unsigned)(n * f->frags));
	gc = tx_gc(q);
	return gc ? pvnet_cost(f->net, (double)gc * f->net->c->gc_cost) : 0;
}

/*
 * n datagrams for the guest: xenvif_start_xmit queues what rx_queue and
 * the vif's qdisc take for the guest-rx thread, the rest is dropped:
 * the datagrams queued.
 */
static uint64_t udp_to_rxq(struct pvnet_flow *f, uint64_t n)
{
	struct pvnet_queue *q = f->q;
	uint64_t k = 0, cap = XENVIF_RX_QUEUE_BYTES + (uint64_t)XENVIF_QUEUE_LENGTH * f->dgram;

	while (k < n && q->rxq_udp_bytes + f->dgram <= cap) {
		q->rxq_udp_bytes += f->dgram;
		k++;
	}
	f->drops += n - k;
	if (!k)
		return 0;
	pktq_push(&q->rxq, &(struct pvnet_pkt){ .flow = f, .bytes = (uint32_t)(k * f->dgram),
						.slots = (uint16_t)(k * f->frags),
						.kind = PVNET_DATA, .dgrams = (uint32_t)k });
	worker_kick(f->net->sim, q->rxk);
	return k;
}

/* dom0's datagrams: the bridge and xenvif_start_xmit queue them for the guest-rx thread. */
void pvnet_udp_send_commit(struct pvnet_flow *f)
{
	struct pvnet_queue *q = f->q;
	uint64_t n = f->cl_dgrams, k;

	f->cl_dgrams = 0;
	f->sending--;
	if (f->snd_at == PVNET_GUEST) {
		tx_publish(q);
		return;
	}
	k = udp_to_rxq(f, n);
	f->wmem -= (n - k) * f->truesize;   /* freed at once: their sndbuf share comes back */
}

/*
 * k datagrams reach the receiver's socket: each is queued while
 * sk_rmem_alloc is below sk_rcvbuf, else dropped (__sock_queue_rcv_skb of
 * Linux 4.4, called by udp_queue_rcv_skb; 4.10's __udp_enqueue_schedule_skb
 * the same test).
 */
static void udp_deliver(struct pvnet_flow *f, uint64_t k)
{
	uint64_t got = 0;

	while (got < k && f->rmem < f->rcvbuf) {
		f->rmem += f->truesize;
		got++;
	}
	f->drops += k - got;
	f->sock_bytes += got * f->dgram;
	if (got)
		worker_kick(f->net->sim, f->receiver);
}

/* The sender sleeping for memory is woken when half its sndbuf is free (sock_def_write_space). */
static void udp_write_space(struct pvnet_flow *f)
{
	if (f->wmem * 2 <= f->sndbuf && pvnet_udp_room(f))
		worker_kick(f->net->sim, f->sender);
}

/*
 * A UDP flow's TX requests done (to a remote host: in pieces, as the NIC
 * frees a burst's fragments or the qdisc drops them): answered a whole
 * burst at a time, in order, so that netfront frees whole bursts.
 */
static void udp_answer(struct pvnet_queue *q, uint64_t slots)
{
	struct ring *tx = &q->tx;
	bool any = false;

	q->ans_slots += (unsigned)slots;
	while (q->ans_slots) {
		const struct pvnet_pkt *p = &q->txp[tx->rsp_prod_pvt % tx->size];

		if (p->slots > q->ans_slots)
			break;
		ring_queue_responses(tx, p->slots);
		q->ans_slots -= p->slots;
		any = true;
	}
	if (any && ring_push_responses(tx))
		evtchn_send(&q->tx_to_front);
}

/* ------------------------------------------------------------------------ */
/* netback: the TX ring's requests, a packet per batch (xenvif_tx_action) */

/*
 * A guest's segment forwarded off the host (netback's zerocopy, 3.15 and
 * later: f53c3fe8dad7 "xen-netback: Introduce TX grant mapping"): its slots grant-mapped rather than copied (xenvif_tx_build_gops,
 * gnttab_map_refs: one map op per slot, each the grant lookup, pin and
 * mapping a copy op costs beyond its bytes, grant_copy_op) and the skb
 * built (the per-skb part of netback's work, ack_cost); no copy: the
 * NIC's DMA reads the guest's pages.
 */
static double fwd_map_base(const struct pvnet *n, const struct pvnet_pkt *p)
{
	return (double)n->c->ack_cost + (double)p->slots * n->c->grant_copy_op;
}

/* A packet of flow f as a frame for the NIC. */
static struct nic_frame frame_of(const struct pvnet_pkt *p)
{
	return (struct nic_frame){ .owner = p->flow, .bytes = p->bytes, .ack = p->ack,
				   .wnd_end = p->wnd_end, .slots = p->slots,
				   .kind = p->kind == PVNET_DATA ? NIC_DATA : NIC_ACK };
}

static stime_t netback_poll(struct sim *s, struct worker *w)
{
	struct pvnet_queue *q = w->ctx;
	struct pvnet *n = q->net;
	struct ring *tx = &q->tx;
	const struct pvnet_pkt *p = &q->txp[tx->req_cons % tx->size];
	unsigned need = ring_unconsumed_requests(tx) ? p->slots : 1;

	(void)s;
	evtchn_test_and_clear(&q->to_back);
	if ((ring_unconsumed_requests(tx) < need && !ring_final_check_requests(tx)) ||
	    ring_unconsumed_requests(tx) < need) {
		/* nothing to take: the softirq sends for a dom0 sender (tcp_data_snd_check) */
		if ((q->nb_sent = send_one(q, PVNET_DOM0, &q->nb_flow)) > 0) {
			w->continues_pass = q->nb_polled > 0 && q->nb_polled < (unsigned)n->c->napi_budget;
			q->nb_polled++;
			snd_update(q->nb_flow);
			return pvnet_cost(n, n->c->tx_cost);
		}
		q->nb_polled = 0;
		return 0;
	}
	q->nb_pkt = *p;
	q->nb_has = true;
	ring_consume_requests(tx, p->slots);
	w->continues_pass = q->nb_polled > 0 && q->nb_polled < (unsigned)n->c->napi_budget;
	if (!w->continues_pass)
		q->nb_polled = 0;
	q->nb_polled++;
	/*
	 * A guest's datagrams to the remote host: each fragment an skb of its
	 * own, its head copied (a small packet's work), the rest mapped if it
	 * is longer, then the bridge and the driver's xmit.
	 */
	if (p->kind == PVNET_DATA && p->flow->udp && p->flow->rcv_at == PVNET_REMOTE)
		return pvnet_cost(n, (double)p->slots *
				     ((double)n->c->ack_cost +
				      (p->flow->mapped ? (double)n->c->grant_copy_op : 0) +
				      nic_fwd_base(n->nic, NULL)));
	if (p->kind == PVNET_DATA && p->flow->rcv_at == PVNET_REMOTE)
		return pvnet_cost(n, fwd_map_base(n, p) + nic_fwd_base(n->nic, NULL));
	/* a burst of datagrams: each packet a small one's work, the bytes a segment's share */
	if (p->kind == PVNET_DATA && p->flow->udp)
		return pvnet_cost(n, (double)p->slots * (double)(n->c->ack_cost + n->c->ack_rx_cost) +
				     per_byte(n, n->c->netback_cost, p->bytes));
	if (p->kind == PVNET_DATA)
		return pvnet_cost(n, per_byte(n, n->c->netback_cost, p->bytes));
	/*
	 * A packet within PKT_PROT_LEN is copied whole and answered at once;
	 * up dom0's stack its ACK reaches the sender's socket (tcp_ack), or
	 * the bridge sends it out through the NIC to a remote sender.
	 */
	if (p->flow->snd_at == PVNET_REMOTE)
		return pvnet_cost(n, (double)n->c->ack_cost + nic_fwd_base(n->nic, NULL));
	tcp_ack(&p->flow->tcp, p->ack, p->wnd_end);
	p->flow->connected = true;
	snd_update(p->flow);
	return pvnet_cost(n, (double)n->c->ack_cost + (double)n->c->ack_rx_cost);
}

static void netback_done(struct sim *s, struct worker *w)
{
	struct pvnet_queue *q = w->ctx;
	const struct pvnet_pkt *p = &q->nb_pkt;
	struct pvnet_flow *f = p->flow;

	(void)w;
	if (q->nb_sent) {
		publish_sent(q->nb_flow, &q->nb_sent);
		snd_update(q->nb_flow);
		return;
	}
	if (!q->nb_has)
		return;
	q->nb_has = false;
	if (p->kind == PVNET_DATA && f->udp && f->rcv_at == PVNET_REMOTE) {
		/* to the NIC: a copied burst is answered now, a mapped one when the NIC frees it */
		uint64_t drop = nic_xmit(q->net->nic, &q->net->nic_u, &(struct nic_frame){
			.owner = f, .bytes = p->bytes, .dgrams = p->dgrams,
			.slots = (uint16_t)(f->mapped ? p->slots : 0), .kind = NIC_UDP });

		f->drops += drop;
		if (!f->mapped) {
			udp_answer(q, p->slots);
		} else if (drop) {
			q->unmap_pkts += (drop * f->frags + spp(q->net) - 1) / spp(q->net);
			q->unmap_slots += drop * f->frags;
			worker_kick(s, q->dealloc);
		}
		return;
	}
	if (p->kind == PVNET_DATA && f->rcv_at == PVNET_REMOTE) {
		/* to the bridge and the NIC, mapped: the dealloc thread waits for its TX clean */
		nic_xmit(q->net->nic, &q->net->nic_u, &(struct nic_frame){ .owner = f, .bytes = p->bytes,
							   .slots = p->slots, .kind = NIC_DATA });
		return;
	}
	if (p->kind == PVNET_DATA && f->udp) {
		/* up dom0's stack to the socket; answered at once (an assumption, below) */
		udp_deliver(f, p->dgrams);
		ring_queue_responses(&q->tx, p->slots);
		if (ring_push_responses(&q->tx))
			evtchn_send(&q->tx_to_front);
		return;
	}
	if (p->kind == PVNET_DATA) {
		/* delivered; the grants go to the dealloc thread */
		f->sock_bytes += p->bytes;
		q->unmap_pkts++;
		q->unmap_slots += p->slots;
		worker_kick(s, q->dealloc);
		worker_kick(s, f->receiver);
		return;
	}
	ring_queue_responses(&q->tx, p->slots);
	if (ring_push_responses(&q->tx))
		evtchn_send(&q->tx_to_front);
	if (f->snd_at == PVNET_REMOTE) {
		struct nic_frame a = frame_of(p);

		nic_xmit(q->net->nic, &q->net->nic_u, &a);
		return;
	}
	if (tcp_writeable(&f->tcp))
		worker_kick(s, f->sender);
	snd_update(f);
}

/* The dealloc thread unmaps and answers what netback mapped (xenvif_tx_dealloc_action). */
static stime_t dealloc_poll(struct sim *s, struct worker *w)
{
	struct pvnet_queue *q = w->ctx;

	(void)s;
	if (!q->unmap_pkts)
		return 0;
	q->dl_pkts = (unsigned)q->unmap_pkts;
	q->dl_slots = (unsigned)q->unmap_slots;
	q->unmap_pkts = q->unmap_slots = 0;
	return pvnet_cost(q->net, (double)q->dl_pkts * q->net->c->dealloc_cost);
}

static void dealloc_done(struct sim *s, struct worker *w)
{
	struct pvnet_queue *q = w->ctx;

	(void)s;
	if (q->nflows && q->flows[0]->udp) {
		udp_answer(q, q->dl_slots);
		q->dl_pkts = q->dl_slots = 0;
		return;
	}
	ring_queue_responses(&q->tx, q->dl_slots);
	q->dl_pkts = q->dl_slots = 0;
	if (ring_push_responses(&q->tx))
		evtchn_send(&q->tx_to_front);
}

/* ------------------------------------------------------------------------ */
/* the guest-rx thread: netback's rx_queue into the guest (xenvif_rx_action) */

/* RX buffers netfront has posted and netback has not filled: it keeps them all posted. */
static unsigned rx_free(const struct ring *rx)
{
	return rx->size - (ring_idx_t)(rx->rsp_prod_pvt - rx->rsp_cons);
}

static stime_t rxk_poll(struct sim *s, struct worker *w)
{
	struct pvnet_queue *q = w->ctx;
	struct pvnet *n = q->net;
	const struct pvnet_config *c = n->c;
	unsigned k, slots = 0, free = rx_free(&q->rx);
	long long ops = 0;
	double base = 0;

	(void)s;
	if (!q->rxq.n) {
		/* the TSQ tasklet that freeing a dom0 sender's skbs scheduled here */
		if ((q->rxk_sent = send_one(q, PVNET_DOM0, &q->rxk_flow)) > 0) {
			snd_update(q->rxk_flow);
			return pvnet_cost(n, c->tx_cost);
		}
		return 0;
	}
	for (k = 0; k < q->rxq.n; k++) {
		const struct pvnet_pkt *p = pktq_at(&q->rxq, k);

		if (p->kind == PVNET_ACK) {
			ops++;
			base += (double)c->ack_cost;
			continue;
		}
		if (p->flow->udp) {
			/* one copy op per fragment (each below a page), a small packet's work each */
			if (slots + p->slots > free || (c->copy_batch && k && ops + p->slots > c->copy_batch))
				break;
			ops += p->slots;
			slots += p->slots;
			base += (double)p->slots * (double)(c->ack_cost + c->grant_copy_op) +
				(double)p->bytes / 1024 * c->grant_copy_kib;
			continue;
		}
		{
			long long pops = ((long long)p->bytes + 4095) / 4096;

			if (slots + p->slots > free || (c->copy_batch && k && ops + pops > c->copy_batch))
				break;
			ops += pops;
			slots += p->slots;
			base += (double)c->ack_cost + (double)pops * c->grant_copy_op +
				(double)p->bytes / 1024 * c->grant_copy_kib;
		}
	}
	if (!k) {
		q->rx_stalled = true;     /* netfront's refill will notify (req_event) */
		return 0;
	}
	q->rxk_n = k;
	return pvnet_cost(n, base);
}

/*
 * A packet onto the RX ring (a response in a buffer netfront posted).  An
 * ACK that finds no buffer replaces the newest unread ACK of its flow,
 * exact because ACKs are cumulative; false when it cannot (it waits).
 */
static bool rx_put(struct pvnet_queue *q, const struct pvnet_pkt *p)
{
	struct ring *rx = &q->rx;

	if (rx_free(rx) < p->slots) {
		struct pvnet_pkt *last = &q->rxp[(rx->rsp_prod_pvt - 1) % rx->size];

		if (p->kind != PVNET_ACK || last->kind != PVNET_ACK || last->flow != p->flow)
			return false;
		last->ack = p->ack;
		last->wnd_end = p->wnd_end;
		return true;
	}
	q->rxp[rx->rsp_prod_pvt % rx->size] = *p;
	ring_queue_responses(rx, p->slots);
	return true;
}

static void rxk_done(struct sim *s, struct worker *w)
{
	struct pvnet_queue *q = w->ctx;
	unsigned put = 0;

	(void)s;
	if (q->rxk_sent) {
		publish_sent(q->rxk_flow, &q->rxk_sent);
		snd_update(q->rxk_flow);
		return;
	}
	while (put < q->rxk_n && rx_put(q, pktq_at(&q->rxq, put))) {
		const struct pvnet_pkt *p = pktq_at(&q->rxq, put);

		/* the copied skb is freed: a dom0 UDP sender's sndbuf (sock_wfree) */
		if (p->kind == PVNET_DATA && p->flow->udp) {
			q->rxq_udp_bytes -= p->bytes;
			if (p->flow->snd_at == PVNET_DOM0) {
				p->flow->wmem -= p->dgrams * p->flow->truesize;
				udp_write_space(p->flow);
			}
		/* the copied skb is freed: a dom0 sender's TSQ room (tcp_wfree) */
		} else if (p->kind == PVNET_DATA && p->flow->snd_at == PVNET_DOM0) {
			tcp_tx_freed(&p->flow->tcp, p->bytes);
			snd_update(p->flow);
		}
		put++;
	}
	if (put < q->rxk_n)
		q->rx_stalled = true;
	pktq_drop(&q->rxq, put);
	q->rxk_n = 0;
	if (ring_push_responses(&q->rx))
		evtchn_send(&q->rx_to_front);
}

/* ------------------------------------------------------------------------ */
/* netfront: TX interrupt and RX NAPI poll (xennet_tx_interrupt, xennet_poll) */

/*
 * A batch first takes the TX completions and the ACKs at the RX ring's
 * head (freeing skbs lets TSQ send again, ACKs free the send buffer and
 * open the window), or the data packet at its head; with nothing waiting
 * it sends the next segment TCP allows, one per batch as tcp_write_xmit
 * hands skb after skb to xennet_start_xmit, all in the same softirq pass.
 * Consumed RX slots are posted again at once (xennet_alloc_rx_buffers),
 * which notifies a guest-rx thread waiting for them.
 */
static stime_t netfront_poll(struct sim *s, struct worker *w)
{
	struct pvnet_queue *q = w->ctx;
	struct pvnet *n = q->net;
	struct ring *rx = &q->rx;
	unsigned ntx, nrx, acks = 0;
	double base;

	(void)s;
	evtchn_test_and_clear(&q->tx_to_front);
	evtchn_test_and_clear(&q->rx_to_front);
	ntx = ring_unconsumed_responses(&q->tx);
	nrx = ring_unconsumed_responses(rx);
	if (!ntx && !nrx) {
		/* the TX event index stays as the last xennet_tx_buf_gc set it */
		if (ring_final_check_responses(rx)) {
			nrx = ring_unconsumed_responses(rx);
		} else if ((q->nf_sent = send_one(q, PVNET_GUEST, &q->nf_flow)) > 0) {
			w->continues_pass = q->nf_polled > 0;
			q->nf_polled++;
			snd_update(q->nf_flow);
			return pvnet_cost(n, n->c->tx_cost);
		} else {
			q->nf_polled = 0;
			return 0;
		}
	}
	q->nf_gc = tx_gc(q);
	q->nf_data = false;
	while (nrx > 0) {
		const struct pvnet_pkt *p = &q->rxp[rx->rsp_cons % rx->size];

		if (p->kind == PVNET_DATA) {
			if (!acks) {
				q->nf_pkt = *p;
				q->nf_data = true;
				ring_consume_responses(rx, p->slots);
			}
			break;
		}
		tcp_ack(&p->flow->tcp, p->ack, p->wnd_end);
		p->flow->connected = true;     /* the first is the SYN-ACK */
		ring_consume_responses(rx, 1);
		nrx--;
		acks++;
	}
	if (q->rx_stalled && (acks || q->nf_data)) {
		q->rx_stalled = false;
		evtchn_send(&q->rx_to_back);
	}
	q->nf_acks = acks;
	w->continues_pass = q->nf_polled > 0 &&
			    (!q->nf_data || q->nf_polled % (unsigned)n->c->napi_budget);
	q->nf_polled++;
	for (int i = 0; i < q->nflows; i++)
		snd_update(q->flows[i]);
	base = (double)q->nf_gc * n->c->gc_cost + (double)acks * n->c->ack_rx_cost;
	if (q->nf_data && q->nf_pkt.flow->udp)
		base += (double)q->nf_pkt.slots * (double)n->c->ack_rx_cost;
	if (q->nf_data)
		base += per_byte(n, n->c->netfront_rx_cost, q->nf_pkt.bytes);
	return pvnet_cost(n, base);
}

static void netfront_done(struct sim *s, struct worker *w)
{
	struct pvnet_queue *q = w->ctx;

	(void)w;
	if (q->nf_sent)
		publish_sent(q->nf_flow, &q->nf_sent);
	if (q->nf_gc || q->nf_acks) {
		q->nf_gc = q->nf_acks = 0;
		for (int i = 0; i < q->nflows; i++) {
			struct pvnet_flow *f = q->flows[i];

			if (f->snd_at == PVNET_GUEST && f->udp)
				udp_write_space(f);
			else if (f->snd_at == PVNET_GUEST && tcp_writeable(&f->tcp))
				worker_kick(s, f->sender);
		}
	}
	if (q->nf_data) {
		struct pvnet_flow *f = q->nf_pkt.flow;

		q->nf_data = false;
		if (f->udp) {
			udp_deliver(f, q->nf_pkt.dgrams);
		} else {
			f->sock_bytes += q->nf_pkt.bytes;
			worker_kick(s, f->receiver);
		}
	}
	for (int i = 0; i < q->nflows; i++) {
		if (q->flows[i]->ack_waits)
			guest_send_ack(q->flows[i]);
		snd_update(q->flows[i]);
	}
}

/* ------------------------------------------------------------------------ */
/* the remote host, beyond dom0's NIC */

/*
 * A remote sender puts its next segment on the link when the link is free
 * and the guest's window allows: its application always has data, and its
 * own TCP Small Queues and send buffer, on a bare host whose NIC completes
 * at line rate, never stop it (its limits are set out of reach).
 */
static void remote_pump(struct pvnet_flow *f)
{
	struct pvnet *n = f->net;
	stime_t free_at;

	if (f->sending || !f->connected)
		return;
	if (f->udp) {
		/*
		 * a burst of at most UDP_BURST_SLOTS fragments and a segment's
		 * bytes (the model's grain, as a TCP sender's), the next when it
		 * has left
		 */
		uint64_t k = UDP_BURST_SLOTS / f->frags, kb = (uint64_t)n->c->segment / f->dgram;

		k = k < kb ? k : kb;
		k = k ? k : 1;
		f->sending = 1;
		if (sim_now(n->sim) >= n->warm_end)
			f->sent_measured += k * f->dgram;
		free_at = nic_remote_send(n->nic, &n->nic_u, &(struct nic_frame){ .owner = f,
			.bytes = k * f->dgram, .dgrams = (uint32_t)k, .kind = NIC_UDP });
		timer_set(&n->sim->q, &f->pump, free_at);
		return;
	}
	if (f->tcp.write_seq - f->tcp.snd_nxt < f->tcp.p.segment)
		tcp_write(&f->tcp, f->tcp.p.segment);
	if (tcp_send_limit(&f->tcp) != TCP_CAN_SEND) {
		snd_update(f);
		return;
	}
	tcp_send(&f->tcp);
	f->sending = 1;
	free_at = nic_remote_send(n->nic, &n->nic_u, &(struct nic_frame){ .owner = f,
		.bytes = (uint64_t)n->c->segment, .slots = (uint16_t)spp(n), .kind = NIC_DATA });
	timer_set(&n->sim->q, &f->pump, free_at);
	snd_update(f);
}

static void pump_fn(struct timer *t, void *arg)
{
	struct pvnet_flow *f = arg;

	(void)t;
	f->sending = 0;
	remote_pump(f);
	snd_update(f);
}

/* A frame reaches the remote host: a guest's segment is read and ACKed, an ACK taken. */
static void remote_rx(void *ctx, const struct nic_frame *fr)
{
	struct pvnet_flow *f = fr->owner;
	struct pvnet *n = f->net;

	(void)ctx;

	if (fr->kind == NIC_UDP) {
		/* the remote netserver reads what arrives at once */
		f->consumed += fr->bytes;
		if (sim_now(n->sim) > n->warm_end)
			f->measured += fr->bytes;
		return;
	}
	if (fr->kind == NIC_ACK) {
		tcp_ack(&f->tcp, fr->ack, fr->wnd_end);
		f->connected = true;
		remote_pump(f);
		snd_update(f);
		return;
	}
	f->consumed += fr->bytes;
	if (sim_now(n->sim) > n->warm_end)
		f->measured += fr->bytes;
	nic_remote_send(n->nic, &n->nic_u, &(struct nic_frame){ .owner = f, .kind = NIC_ACK,
		.ack = f->consumed, .wnd_end = f->consumed + tcp_rcv_window(&f->tcp.p) });
}

/* What dom0's NIC received, after GRO and the bridge: xenvif_start_xmit queues it. */
static void nic_host_rx(void *ctx, const struct nic_frame *fr)
{
	struct pvnet_flow *f = fr->owner;
	struct pvnet *n = f->net;
	bool data = fr->kind == NIC_DATA;

	(void)ctx;

	if (fr->kind == NIC_UDP) {
		udp_to_rxq(f, fr->dgrams);
		return;
	}
	pktq_push(&f->q->rxq, &(struct pvnet_pkt){ .flow = f, .bytes = (uint32_t)fr->bytes,
		.slots = (uint16_t)(data ? spp(n) : 1), .kind = data ? PVNET_DATA : PVNET_ACK,
		.ack = fr->ack, .wnd_end = fr->wnd_end });
	worker_kick(n->sim, f->q->rxk);
}

/* The NIC's driver freed a sent skb: a guest's mapped pages go to the dealloc thread. */
static void nic_tx_done(void *ctx, const struct nic_frame *fr)
{
	struct pvnet_flow *f = fr->owner;
	struct pvnet *n = f->net;

	(void)ctx;
	if (fr->kind == NIC_UDP && fr->slots) {
		/* each fragment an skb whose zerocopy callback queues its grant: the
		   dealloc thread's work per slot a segment's share */
		f->q->unmap_pkts += (fr->slots + spp(n) - 1) / spp(n);
		f->q->unmap_slots += fr->slots;
		worker_kick(n->sim, f->q->dealloc);
		return;
	}
	if (fr->kind != NIC_DATA)
		return;
	f->q->unmap_pkts++;
	f->q->unmap_slots += fr->slots;
	worker_kick(n->sim, f->q->dealloc);
}

static stime_t nic_cost(void *ctx, double base)
{
	return pvnet_cost(ctx, base);
}

int pvnet_attach_nic(struct pvnet *n, const struct nic_config *c, bool data_out,
		     const char *owner, const char *user, struct err *e)
{

	n->nic_u = (struct nic_user){ n, remote_rx, nic_host_rx, nic_tx_done, nic_cost };
	n->nic = nic_get(n->dom0, c, &n->nic_u, data_out, n->c->evtchn_latency, owner, user,
			 &n->nic_owned, e);
	if (!n->nic)
		return -1;
	if (n->nic_owned) {
		n->nic->napi->softirq_time = n->c->softirq_time;
		n->nic->napi->softirq_restarts = (int)n->c->softirq_restarts;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* setting up */

static int check_vcpu(const char *owner, const char *what, long long v,
		      const struct domain *d, struct err *e)
{
	if (v >= d->nr_vcpus)
		return err_set(e, "%s: %s=%lld but domain %s has %d vCPUs", owner, what, v,
			       d->name, d->nr_vcpus);
	return 0;
}

int pvnet_check(const struct pvnet_config *c, const char *owner, const struct domain *g,
		const struct domain *d0, struct err *e)
{
	struct tcp_params tp = {
		.segment = (uint64_t)c->segment, .rcvbuf = (uint64_t)c->rmem_max,
		.adv_win_scale = (int)c->adv_win_scale,
	};

	if (c->slots_per_segment + 3 > c->ring_slots)
		return err_set(e, "%s: ring_slots=%lld cannot take a segment of "
			       "slots_per_segment=%lld and the %lld slots netfront keeps free",
			       owner, c->ring_slots, c->slots_per_segment, 2LL);
	if (c->wmem_max < 2 * (c->segment + c->skb_overhead))
		return err_set(e, "%s: tcp_wmem_max=%lld holds less than two segments of "
			       "segment=%lld", owner, c->wmem_max, c->segment);
	if (tcp_rcv_window(&tp) < tp.segment)
		return err_set(e, "%s: tcp_rmem_max=%lld with tcp_adv_win_scale=%lld gives a "
			       "window below one segment", owner, c->rmem_max, c->adv_win_scale);
	if (check_vcpu(owner, "guest_vcpu", c->guest_vcpu, g, e) < 0 ||
	    check_vcpu(owner, "dom0_vcpu", c->dom0_vcpu, d0, e) < 0)
		return -1;
	return 0;
}

static void syn_ack_fn(struct timer *t, void *arg);

void pvnet_init(struct pvnet *n, struct sim *s, const struct pvnet_config *c,
		struct rng *rng, double noise, double run_factor)
{
	memset(n, 0, sizeof(*n));
	n->sim = s;
	n->c = c;
	n->rng = rng;
	n->half_width = noise * sqrt(3.0);
	n->run_factor = run_factor;
	n->dom0 = guest_of(split_dom0(s));
	n->tp = (struct tcp_params){
		.segment = (uint64_t)c->segment, .skb_overhead = (uint64_t)c->skb_overhead,
		.limit_output = (uint64_t)c->limit_output, .sndbuf = (uint64_t)c->wmem_max,
		.rcvbuf = (uint64_t)c->rmem_max, .adv_win_scale = (int)c->adv_win_scale,
	};
	/* armed by pvnet_start; set up here so that pvnet_free may follow pvnet_init */
	timer_init(&n->syn_ack, syn_ack_fn, n);
}

struct guest *pvnet_guest_of(const struct pvnet_flow *f, enum pvnet_where where)
{
	return where == PVNET_GUEST ? f->q->g : f->net->dom0;
}

/* An application's worker on its socket's side: pinned, or next to its interrupts. */
static struct worker *app_worker(struct pvnet_flow *f, struct guest *g, enum pvnet_where where,
				 const struct pvnet_app *a)
{
	long long irq = where == PVNET_GUEST ? f->net->c->guest_vcpu : f->net->c->dom0_vcpu;
	int cpu = a->vcpu >= 0 ? (int)a->vcpu : (int)((irq + 1 + f->id) % g->nr_cpus);

	return worker_create(g, a->name, TASK_NORMAL, cpu, a->vcpu >= 0, a->poll, a->done, f);
}

/*
 * netfront's interrupt, netback's NAPI and dealloc thread of a new queue:
 * the interrupts are bound to their event channels' vCPUs, the threads
 * start next to them and go where dom0's kernel places them.
 */
static struct pvnet_queue *queue_new(struct pvnet *n, struct guest *g, int irq_shift)
{
	const struct pvnet_config *c = n->c;
	struct pvnet_queue *q = xcalloc(1, sizeof(*q));
	struct guest *d0 = n->dom0;
	char name[32];
	int id = n->nqueues;
	int front_cpu = (int)((c->guest_vcpu + irq_shift) % g->nr_cpus);
	int back_cpu = (int)((c->dom0_vcpu + irq_shift) % d0->nr_cpus);

	q->net = n;
	q->g = g;
	q->id = id;
	ring_init(&q->tx, (unsigned)c->ring_slots);
	ring_init(&q->rx, (unsigned)c->ring_slots);
	q->txp = xcalloc((size_t)c->ring_slots, sizeof(*q->txp));
	q->rxp = xcalloc((size_t)c->ring_slots, sizeof(*q->rxp));
	snprintf(name, sizeof(name), "netfront-q%d", id);
	q->netfront = worker_create(g, name, TASK_IRQ, front_cpu, true,
				    netfront_poll, netfront_done, q);
	snprintf(name, sizeof(name), "netback-%d-q%d", g->dom->domid, id);
	q->netback = worker_create(d0, name, TASK_IRQ, back_cpu, true,
				   netback_poll, netback_done, q);
	snprintf(name, sizeof(name), "vif%d.0-q%d-dealloc", g->dom->domid, id);
	q->dealloc = worker_create(d0, name, TASK_NORMAL,
				   (int)(c->dom0_vcpu + 3 + 4 * id) % d0->nr_cpus, false,
				   dealloc_poll, dealloc_done, q);
	q->netfront->softirq_time = q->netback->softirq_time = c->softirq_time;
	q->netfront->softirq_restarts = (int)c->softirq_restarts;
	q->netback->softirq_restarts = (int)c->softirq_restarts;
	evtchn_init(&q->to_back, n->sim, q->netback, c->evtchn_latency);
	evtchn_init(&q->tx_to_front, n->sim, q->netfront, c->evtchn_latency);
	evtchn_init(&q->rx_to_front, n->sim, q->netfront, c->evtchn_latency);
	n->queues = xreallocarray(n->queues, (size_t)n->nqueues + 1, sizeof(*n->queues));
	n->queues[n->nqueues++] = q;
	return q;
}

/* The guest-rx thread, once the queue's first flow has both its ends. */
static void queue_rx_thread(struct pvnet_queue *q)
{
	struct pvnet *n = q->net;
	struct guest *d0 = n->dom0;
	char name[32];

	snprintf(name, sizeof(name), "vif%d.0-q%d-guest-rx", q->g->dom->domid, q->id);
	q->rxk = worker_create(d0, name, TASK_NORMAL,
			       (int)(n->c->dom0_vcpu + 2 + 4 * q->id) % d0->nr_cpus, false,
			       rxk_poll, rxk_done, q);
	evtchn_init(&q->rx_to_back, n->sim, q->rxk, n->c->evtchn_latency);
}

/*
 * A connection comes up: its sender's task, the queue it hashes onto (a
 * new one: netfront, netback, the dealloc thread), its receiver's task,
 * then the queue's guest-rx thread.
 */
struct pvnet_flow *pvnet_flow_add(struct pvnet *n, struct guest *g, int queue,
				  enum pvnet_where snd_at, enum pvnet_where rcv_at,
				  const struct pvnet_app *sender, const struct pvnet_app *receiver,
				  void *app)
{
	struct pvnet_flow *f = xcalloc(1, sizeof(*f));
	struct pvnet_queue *q = NULL;
	bool fresh;

	f->net = n;
	f->id = n->nflows;
	f->snd_at = snd_at;
	f->rcv_at = rcv_at;
	f->app = app;
	tcp_init(&f->tcp, &n->tp);
	timer_init(&f->pump, pump_fn, f);
	if (snd_at == PVNET_REMOTE)
		f->tcp.p.limit_output = f->tcp.p.sndbuf = UINT64_C(1) << 62;
	else
		f->sender = app_worker(f, snd_at == PVNET_GUEST ? g : n->dom0, snd_at, sender);
	if (queue >= 0) {
		if (queue >= n->nqmap) {
			n->qmap = xreallocarray(n->qmap, (size_t)queue + 1, sizeof(*n->qmap));
			for (int i = n->nqmap; i <= queue; i++)
				n->qmap[i] = NULL;
			n->nqmap = queue + 1;
		}
		q = n->qmap[queue];
	}
	fresh = !q;
	if (fresh)
		q = queue_new(n, g, queue > 0 && n->c->queue_irqs == PVNET_IRQS_SPREAD ? queue : 0);
	if (queue >= 0)
		n->qmap[queue] = q;
	f->q = q;
	if (rcv_at != PVNET_REMOTE)
		f->receiver = app_worker(f, rcv_at == PVNET_GUEST ? g : n->dom0, rcv_at,
					 receiver);
	if (fresh)
		queue_rx_thread(q);
	q->flows = xreallocarray(q->flows, (size_t)q->nflows + 1, sizeof(*q->flows));
	q->flows[q->nflows++] = f;
	f->snd_cat = snd_state(f);
	n->flows = xreallocarray(n->flows, (size_t)n->nflows + 1, sizeof(*n->flows));
	n->flows[n->nflows++] = f;
	return f;
}

/*
 * The handshake: the SYN reaches the other side one event channel's
 * latency after the start and the SYN-ACK is queued then (the CPU both
 * take is left out: microseconds, long before the measurement starts).
 * A guest sender's SYN-ACK comes on the RX ring, so netfront's softirq
 * wakes it from connect() and the guest kernel places it there (wake_affine
 * towards the interrupt's vCPU), as on a real guest; a dom0 sender's comes
 * from the guest's TX ring through netback's poll.
 */
static void syn_ack_fn(struct timer *t, void *arg)
{
	struct pvnet *n = arg;

	(void)t;
	for (int i = 0; i < n->nflows; i++) {
		struct pvnet_flow *f = n->flows[i];
		struct pvnet_pkt a = { .flow = f, .slots = 1, .kind = PVNET_ACK,
				       .wnd_end = tcp_rcv_window(&f->tcp.p) };

		if (f->udp) {
			if (f->snd_at == PVNET_REMOTE)
				remote_pump(f);
			continue;
		}
		if (f->snd_at == PVNET_GUEST) {
			rx_put(f->q, &a);
			if (ring_push_responses(&f->q->rx))
				evtchn_send(&f->q->rx_to_front);
		} else {
			struct ring *tx = &f->q->tx;

			f->q->txp[tx->req_prod_pvt % tx->size] = a;
			ring_queue_requests(tx, 1);
			tx_publish(f->q);
		}
	}
}

void pvnet_start(struct pvnet *n)
{
	timer_set(&n->sim->q, &n->syn_ack, n->c->evtchn_latency);
}

/* ------------------------------------------------------------------------ */
/* accounting */

void pvnet_time_start(struct pvnet *n)
{
	struct sim *s = n->sim;

	for (int i = 0; i < n->nflows; i++) {
		struct pvnet_flow *f = n->flows[i];

		if (f->sender)
			task_time_start(s, f->sender->task);
		if (f->receiver)
			task_time_start(s, f->receiver->task);
		memset(f->snd_ns, 0, sizeof(f->snd_ns));
		f->snd_from = sim_now(s);
		f->snd_cat = snd_state(f);
	}
	for (int i = 0; i < n->nqueues; i++) {
		struct pvnet_queue *q = n->queues[i];

		task_time_start(s, q->netfront->task);
		task_time_start(s, q->netback->task);
		task_time_start(s, q->dealloc->task);
		task_time_start(s, q->rxk->task);
	}
	if (n->nic && n->nic_owned) {
		task_time_start(s, n->nic->napi->task);
		nic_time_start(n->nic);
	}
}

uint64_t pvnet_remote_sent(const struct pvnet *n)
{
	uint64_t b = 0;

	for (int i = 0; i < n->nflows; i++)
		b += n->flows[i]->sent_measured;
	return b;
}

uint64_t pvnet_measured(const struct pvnet *n)
{
	uint64_t b = 0;

	for (int i = 0; i < n->nflows; i++)
		b += n->flows[i]->measured;
	return b;
}

enum stage { ST_SENDER, ST_RECEIVER, ST_NETBACK, ST_DEALLOC, ST_RXK, ST_NETFRONT };

/* One stage of every flow's or every queue's task of that kind. */
static void add_stage(struct pvnet *n, struct breakdown *b, enum stage st, const char *name,
		      const char *const reasons[TASK_BLOCK_REASONS])
{
	bool per_flow = st == ST_SENDER || st == ST_RECEIVER;
	int m = per_flow ? n->nflows : n->nqueues;
	struct task **t = xcalloc((size_t)m, sizeof(*t));

	for (int i = 0; i < m; i++) {
		const struct pvnet_flow *f = per_flow ? n->flows[i] : NULL;
		const struct pvnet_queue *q = per_flow ? NULL : n->queues[i];

		t[i] = st == ST_SENDER ? f->sender->task : st == ST_RECEIVER ? f->receiver->task :
		       st == ST_NETBACK ? q->netback->task : st == ST_DEALLOC ? q->dealloc->task :
		       st == ST_RXK ? q->rxk->task : q->netfront->task;
	}
	breakdown_tasks(b, n->sim, name, t, m, reasons);
	free(t);
}

/* dom0's NIC's NAPI poll, as a stage. */
static void add_nic(struct pvnet *n, struct breakdown *b)
{
	struct task *t = n->nic->napi->task;

	breakdown_tasks(b, n->sim, "nic", &t, 1, NULL);
}

void pvnet_breakdown(struct pvnet *n, struct breakdown *b, const char *sender,
		     const char *const sender_reasons[TASK_BLOCK_REASONS],
		     const char *receiver, const char *const receiver_reasons[TASK_BLOCK_REASONS])
{
	struct breakdown_stage *st;
	const struct pvnet_flow *f0 = n->flows[0];
	bool guest_sends = f0->snd_at == PVNET_GUEST;
	bool remote = f0->snd_at == PVNET_REMOTE || f0->rcv_at == PVNET_REMOTE;

	if (f0->snd_at != PVNET_REMOTE)
		add_stage(n, b, ST_SENDER, sender, sender_reasons);
	else
		add_nic(n, b);
	if (guest_sends) {
		/* data: netback delivers (or forwards to the NIC), the dealloc thread answers;
		   ACKs: (the NIC,) guest-rx, netfront */
		add_stage(n, b, ST_NETBACK, "netback", NULL);
		if (remote)
			add_nic(n, b);
		add_stage(n, b, ST_DEALLOC, "dealloc", NULL);
		if (!remote)
			add_stage(n, b, ST_RECEIVER, receiver, receiver_reasons);
		add_stage(n, b, ST_RXK, "guest-rx", NULL);
		add_stage(n, b, ST_NETFRONT, "netfront", NULL);
	} else {
		/* data: (the NIC,) guest-rx copies, netfront delivers; ACKs: netback */
		add_stage(n, b, ST_RXK, "guest-rx", NULL);
		add_stage(n, b, ST_NETFRONT, "netfront", NULL);
		add_stage(n, b, ST_RECEIVER, receiver, receiver_reasons);
		add_stage(n, b, ST_NETBACK, "netback", NULL);
	}
	st = f0->udp ? NULL :
	     breakdown_stage(b, "tcp-sender", f0->snd_at == PVNET_REMOTE ? "remote" :
			     pvnet_guest_of(f0, f0->snd_at)->dom->name, n->nflows);
	for (int i = 0; st && i < n->nflows; i++) {
		snd_update(n->flows[i]);
		for (int k = 0; k < SND_N; k++)
			breakdown_part(st, pvnet_snd_name[k], n->flows[i]->snd_ns[k]);
	}
	if (remote) {
		/* the link in the data's direction: serialising frames, or idle */
		stime_t busy = nic_busy(n->nic), all = b->to_ns - b->from_ns;

		st = breakdown_stage(b, "link", "wire", 1);
		breakdown_part(st, "busy", busy);
		breakdown_part(st, "idle", all - busy);
	}
}

void pvnet_free(struct pvnet *n)
{
	struct sim *s = n->sim;

	if (!s)
		return;
	timer_stop(&s->q, &n->syn_ack);
	nic_put(n->nic);
	for (int i = 0; i < n->nflows; i++) {
		timer_stop(&s->q, &n->flows[i]->pump);
		worker_free(n->flows[i]->sender);
		worker_free(n->flows[i]->receiver);
		free(n->flows[i]);
	}
	for (int i = 0; i < n->nqueues; i++) {
		struct pvnet_queue *q = n->queues[i];

		evtchn_close(&q->to_back);
		evtchn_close(&q->tx_to_front);
		evtchn_close(&q->rx_to_front);
		evtchn_close(&q->rx_to_back);
		worker_free(q->netfront);
		worker_free(q->netback);
		worker_free(q->dealloc);
		worker_free(q->rxk);
		free(q->txp);
		free(q->rxp);
		free(q->rxq.v);
		free(q->flows);
		free(q);
	}
	free(n->flows);
	free(n->queues);
	free(n->qmap);
	memset(n, 0, sizeof(*n));
}
