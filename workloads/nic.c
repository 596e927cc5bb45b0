/*
 * dom0's physical NIC, the link and its far end (see nic.h for the model
 * and its sources): two serialisers, the interrupt throttle, and the NAPI
 * poll on dom0's nic_vcpu that frees sent skbs and takes received frames.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/nic.h"

/* Ethernet's per-frame bytes beyond the IP packet, and IPv4 + TCP + timestamps. */
#define WIRE_EXTRA 38
#define TCPIP_HDR 52
#define ACK_WIRE_BYTES 90
/* ixgbe_poll's budget: frames per NAPI poll. */
#define NAPI_WEIGHT 64
/* UDP (nic.h): RFC 768's header, RFC 791's, the smallest IP packet a frame carries. */
#define UDP_HDR 8
#define IP_HDR 20
#define ETH_MIN_PAYLOAD 46
/* The drivers' default rings (E1000_DEFAULT_TXD/RXD, IXGBE_DEFAULT_TXD/RXD), tx_queue_len. */
#define E1000_RING 256
#define IXGBE_RING 512
#define TX_QUEUE_LEN 1000

/* ------------------------------------------------------------------------ */
/* FIFOs */

static void fifo_push(struct nic_fifo *q, const struct nic_frame *f, stime_t at)
{
	if (q->n == q->cap) {
		unsigned cap = q->cap ? 2 * q->cap : 32;
		struct nic_frame *v = xcalloc(cap, sizeof(*v));
		stime_t *t = xcalloc(cap, sizeof(*t));

		for (unsigned i = 0; i < q->n; i++) {
			v[i] = q->v[(q->head + i) % q->cap];
			t[i] = q->at[(q->head + i) % q->cap];
		}
		free(q->v);
		free(q->at);
		q->v = v;
		q->at = t;
		q->cap = cap;
		q->head = 0;
	}
	q->v[(q->head + q->n) % q->cap] = *f;
	q->at[(q->head + q->n) % q->cap] = at;
	q->n++;
}

static struct nic_frame fifo_pop(struct nic_fifo *q)
{
	struct nic_frame f = q->v[q->head];

	q->head = (q->head + 1) % q->cap;
	q->n--;
	return f;
}

static stime_t fifo_head_at(const struct nic_fifo *q)
{
	return q->at[q->head];
}

static void fifo_free(struct nic_fifo *q)
{
	free(q->v);
	free(q->at);
	memset(q, 0, sizeof(*q));
}

/* ------------------------------------------------------------------------ */
/* the link */

double nic_parse_rate(const char *s, const char *owner, struct err *e)
{
	char *end;
	double v = strtod(s, &end);
	double mult = 1;

	if (end != s) {
		if (*end == 'K' || *end == 'k')
			mult = 1e3, end++;
		else if (*end == 'M')
			mult = 1e6, end++;
		else if (*end == 'G')
			mult = 1e9, end++;
	}
	if (end == s || *end || !isfinite(v)) {
		err_set(e, "%s: nic_rate: '%s' is not a rate (a number of bit/s, with K, M or G: "
			"10G)", owner, s);
		return -1;
	}
	v *= mult;
	if (v < 1e6 || v > 400e9) {
		err_set(e, "%s: nic_rate: '%s' is out of range 1M..400G", owner, s);
		return -1;
	}
	return v;
}

int nic_check(const struct nic_config *c, const char *owner, const struct domain *d0,
	      struct err *e)
{
	if (nic_parse_rate(c->rate, owner, e) < 0)
		return -1;
	if (c->vcpu >= d0->nr_vcpus)
		return err_set(e, "%s: nic_vcpu=%lld but domain %s has %d vCPUs", owner, c->vcpu,
			       d0->name, d0->nr_vcpus);
	return 0;
}

double nic_goodput(const struct nic *n)
{
	return n->rate / 8 * (double)(n->c->mtu - TCPIP_HDR) / (double)(n->c->mtu + WIRE_EXTRA);
}

/* IP payload of each fragment but the last: a multiple of 8 (the offset's unit). */
static uint64_t frag_payload(long long mtu)
{
	return (uint64_t)((mtu - IP_HDR) / 8 * 8);
}

unsigned nic_udp_frags(long long mtu, uint64_t size)
{
	uint64_t per = frag_payload(mtu);

	return (unsigned)((size + UDP_HDR + per - 1) / per);
}

uint64_t nic_udp_wire_bytes(long long mtu, uint64_t size)
{
	uint64_t per = frag_payload(mtu), l = size + UDP_HDR;
	unsigned k = nic_udp_frags(mtu, size);
	uint64_t last = l - (uint64_t)(k - 1) * per + IP_HDR;

	if (last < ETH_MIN_PAYLOAD)
		last = ETH_MIN_PAYLOAD;
	return (uint64_t)(k - 1) * (per + IP_HDR + WIRE_EXTRA) + last + WIRE_EXTRA;
}

/* A TCP message's segments: full ones of mtu - 52 bytes of payload, then the rest. */
unsigned nic_tcp_segs(long long mtu, uint64_t size)
{
	uint64_t mss = (uint64_t)(mtu - TCPIP_HDR);

	return size ? (unsigned)((size + mss - 1) / mss) : 1;
}

uint64_t nic_tcp_wire_bytes(long long mtu, uint64_t size)
{
	uint64_t mss = (uint64_t)(mtu - TCPIP_HDR);
	unsigned k = nic_tcp_segs(mtu, size);
	uint64_t last = size - (uint64_t)(k - 1) * mss + TCPIP_HDR;    /* >= 52: no padding */

	return (uint64_t)(k - 1) * (uint64_t)(mtu + WIRE_EXTRA) + last + WIRE_EXTRA;
}

double nic_udp_goodput(const struct nic *n, uint64_t size)
{
	return n->rate / 8 * (double)size / (double)nic_udp_wire_bytes(n->c->mtu, size);
}

/* A UDP burst's datagram size. */
static uint64_t dgram_of(const struct nic_frame *f)
{
	return f->bytes / f->dgrams;
}

/*
 * Wire time of a frame: a stream's segment as full-size frames, a message
 * as its own segments, an ACK as one small frame.
 */
static stime_t wire_time(const struct nic *n, const struct nic_frame *f)
{
	double bytes = f->kind == NIC_DATA ?
		(double)f->bytes * (double)(n->c->mtu + WIRE_EXTRA) / (double)(n->c->mtu - TCPIP_HDR) :
		f->kind == NIC_UDP ?
		(double)f->dgrams * (double)nic_udp_wire_bytes(n->c->mtu, dgram_of(f)) :
		f->kind == NIC_MSG ? (double)nic_tcp_wire_bytes(n->c->mtu, f->bytes) :
		ACK_WIRE_BYTES;

	return (stime_t)llround(bytes * 8 / n->rate * 1e9);
}

static stime_t one_way(const struct nic *n)
{
	return n->c->peer_latency / 2;
}

/* Busy time of [start, end] from n->from on: the link's account. */
static void account(struct nic *n, bool out, stime_t start, stime_t end)
{
	if (out != n->data_out)
		return;
	if (start < n->from)
		start = n->from;
	if (end > start)
		n->busy_ns += end - start;
}

static void arm(struct sim *s, struct timer *t, const struct nic_fifo *q)
{
	if (q->n && !timer_pending(t))
		timer_set(&s->q, t, fifo_head_at(q));
}

/* ------------------------------------------------------------------------ */
/* the interrupt */

/* Something for the poll: raise the interrupt when enabled, at most one per itr. */
static void irq_cause(struct nic *n)
{
	stime_t at = n->last_irq + n->itr;

	if (!n->irq_armed || timer_pending(&n->itr_timer))
		return;
	if (at < sim_now(n->sim) || !n->irqs)
		at = sim_now(n->sim);
	timer_set(&n->sim->q, &n->itr_timer, at);
}

/* The vector fires: interrupts off, NAPI scheduled on nic_vcpu through its pirq. */
static void itr_fire(struct timer *t, void *arg)
{
	struct nic *n = arg;

	(void)t;
	if (!n->irq_armed)
		return;
	n->irq_armed = false;
	n->last_irq = sim_now(n->sim);
	n->irqs++;
	n->sim->this_cpu = -1;        /* a device's interrupt, not a pCPU's send */
	evtchn_send(&n->pirq);
}

/*
 * The frames of q due by now go to 'to', in order; q's timer t is then
 * armed for the next one.  The wire's two directions and the way to the
 * remote end differ only in where a frame goes.
 */
static void drain(struct nic *n, struct nic_fifo *q, struct timer *t,
		  void (*to)(struct nic *n, const struct nic_frame *f, stime_t now))
{
	stime_t now = sim_now(n->sim);

	while (q->n && fifo_head_at(q) <= now) {
		struct nic_frame f = fifo_pop(q);

		to(n, &f, now);
	}
	arm(n->sim, t, q);
}

/* host -> remote: a frame's last bit has left: its TX descriptor is done. */
static void to_tx_clean(struct nic *n, const struct nic_frame *f, stime_t now)
{
	fifo_push(&n->tx_clean, f, now);
	fifo_push(&n->to_remote, f, now + one_way(n));
}

/* ... and the frame reaches the remote host. */
static void to_remote_host(struct nic *n, const struct nic_frame *f, stime_t now)
{
	(void)now;
	f->user->remote_rx(f->user->ctx, f);
}

/* The first k datagrams of a UDP burst (its slots in proportion). */
static struct nic_frame udp_part(const struct nic_frame *f, uint64_t k)
{
	struct nic_frame g = *f;

	g.slots = (uint16_t)(f->slots / f->dgrams * k);
	g.bytes = dgram_of(f) * k;
	g.dgrams = (uint32_t)k;
	return g;
}

/* remote -> host: a frame has arrived whole in the NIC's RX ring (UDP's: if it has room). */
static void to_rx_ring(struct nic *n, const struct nic_frame *f, stime_t now)
{
	struct nic_frame g;
	unsigned fr;
	uint64_t k;

	if (f->kind != NIC_UDP) {
		fifo_push(&n->rx_ring, f, now);
		return;
	}
	fr = nic_udp_frags(n->c->mtu, dgram_of(f));
	k = (n->rx_ring_size - n->rx_used) / fr;
	k = k < f->dgrams ? k : f->dgrams;
	n->rx_drops += f->dgrams - k;
	if (!k)
		return;
	g = udp_part(f, k);
	n->rx_used += (unsigned)k * fr;
	fifo_push(&n->rx_ring, &g, now);
}

static void tx_wire_fire(struct timer *t, void *arg)
{
	struct nic *n = arg;

	drain(n, &n->tx_wire, t, to_tx_clean);
	arm(n->sim, &n->remote_timer, &n->to_remote);
	irq_cause(n);
}

static void remote_fire(struct timer *t, void *arg)
{
	struct nic *n = arg;

	drain(n, &n->to_remote, t, to_remote_host);
}

static void rx_wire_fire(struct timer *t, void *arg)
{
	struct nic *n = arg;

	drain(n, &n->rx_wire, t, to_rx_ring);
	irq_cause(n);
}

/* A frame onto the wire after what it is serialising. */
static void wire_put(struct nic *n, const struct nic_frame *f)
{
	stime_t now = sim_now(n->sim);
	stime_t start = n->tx_free > now ? n->tx_free : now;

	n->tx_free = start + wire_time(n, f);
	account(n, true, start, n->tx_free);
	fifo_push(&n->tx_wire, f, n->tx_free);
	arm(n->sim, &n->tx_timer, &n->tx_wire);
}

/* The qdisc's head onto the TX ring while it has room (net_tx_action's qdisc_run). */
static void qdisc_run(struct nic *n)
{
	while (n->qdisc.n) {
		struct nic_frame *h = &n->qdisc.v[n->qdisc.head], g;
		unsigned fr = nic_udp_frags(n->c->mtu, dgram_of(h));
		uint64_t k = (n->tx_ring - n->tx_used) / fr;

		if (!k)
			return;
		if (k >= h->dgrams) {
			g = fifo_pop(&n->qdisc);
			k = g.dgrams;
		} else {
			g = udp_part(h, k);
			h->slots = (uint16_t)(h->slots - g.slots);
			h->bytes -= g.bytes;
			h->dgrams -= (uint32_t)k;
		}
		n->qdisc_pkts -= (unsigned)k * fr;
		n->tx_used += (unsigned)k * fr;
		wire_put(n, &g);
	}
}

uint64_t nic_xmit(struct nic *n, const struct nic_user *u, const struct nic_frame *uf)
{
	unsigned fr;
	uint64_t ring = 0, held, drop;
	struct nic_frame g, f0 = *uf;
	const struct nic_frame *f = &f0;

	f0.user = u;
	if (f->kind != NIC_UDP) {
		wire_put(n, f);
		return 0;
	}
	fr = nic_udp_frags(n->c->mtu, dgram_of(f));
	if (!n->qdisc.n) {
		ring = (n->tx_ring - n->tx_used) / fr;
		ring = ring < f->dgrams ? ring : f->dgrams;
	}
	held = (TX_QUEUE_LEN - n->qdisc_pkts) / fr;
	held = held < f->dgrams - ring ? held : f->dgrams - ring;
	drop = f->dgrams - ring - held;
	if (ring) {
		g = udp_part(f, ring);
		n->tx_used += (unsigned)ring * fr;
		wire_put(n, &g);
	}
	if (held) {
		g = udp_part(f, held);
		n->qdisc_pkts += (unsigned)held * fr;
		fifo_push(&n->qdisc, &g, sim_now(n->sim));
	}
	n->tx_drops += drop;
	return drop;
}

stime_t nic_remote_send(struct nic *n, const struct nic_user *u, const struct nic_frame *uf)
{
	stime_t now = sim_now(n->sim);
	stime_t start = n->rx_free > now ? n->rx_free : now;
	struct nic_frame f0 = *uf;
	const struct nic_frame *f = &f0;

	f0.user = u;
	n->rx_free = start + wire_time(n, f);
	account(n, false, start, n->rx_free);
	fifo_push(&n->rx_wire, f, n->rx_free + one_way(n));
	arm(n->sim, &n->rx_timer, &n->rx_wire);
	return n->rx_free;
}

double nic_fwd_base(const struct nic *n, const struct nic_frame *f)
{
	(void)f;
	return (double)n->c->bridge_cost + (double)n->c->xmit_cost;
}

/* ------------------------------------------------------------------------ */
/* the NAPI poll (ixgbe_poll): TX clean, then a received segment per batch */

static unsigned frames_of(const struct nic *n, const struct nic_frame *f)
{
	uint64_t mss = (uint64_t)(n->c->mtu - TCPIP_HDR);

	if (f->kind == NIC_UDP)
		return f->dgrams * nic_udp_frags(n->c->mtu, dgram_of(f));
	if (f->kind == NIC_MSG)
		return nic_tcp_segs(n->c->mtu, f->bytes);
	return f->kind == NIC_DATA ? (unsigned)((f->bytes + mss - 1) / mss) : 1;
}

/* A UDP burst's skbs are its fragments; TCP's GSO skb and an ACK are one. */
static unsigned skbs_of(const struct nic *n, const struct nic_frame *f)
{
	return f->kind == NIC_UDP ? frames_of(n, f) : 1;
}

static stime_t napi_poll(struct sim *s, struct worker *w)
{
	struct nic *n = w->ctx;
	const struct nic_config *c = n->c;
	uint64_t skbs;
	double base;

	(void)s;
	evtchn_test_and_clear(&n->pirq);
	if (!n->tx_clean.n && !n->rx_ring.n) {
		/* napi_complete_done: interrupts back on; a cause already waiting raises one */
		n->b_frames = 0;
		n->irq_armed = true;
		return 0;
	}
	n->b_clean = n->tx_clean.n;
	skbs = 0;
	for (unsigned i = 0; i < n->b_clean; i++)
		skbs += skbs_of(n, &n->tx_clean.v[(n->tx_clean.head + i) % n->tx_clean.cap]);
	base = (double)skbs * c->tx_clean_cost;
	n->b_rx = n->rx_ring.n > 0;
	if (n->b_rx) {
		n->b_frame = n->rx_ring.v[n->rx_ring.head];
		base += (double)frames_of(n, &n->b_frame) * c->rx_frame_cost +
			(double)skbs_of(n, &n->b_frame) * c->bridge_cost;
	}
	/* the frames of one poll, up to its weight, are one softirq pass */
	w->continues_pass = n->b_frames > 0 && n->b_frames < NAPI_WEIGHT;
	if (!w->continues_pass)
		n->b_frames = 0;
	n->b_frames += n->b_rx ? frames_of(n, &n->b_frame) : 1;
	return n->u.cost(n->u.ctx, base);
}

static void napi_done(struct sim *s, struct worker *w)
{
	struct nic *n = w->ctx;

	(void)s;
	for (unsigned i = 0; i < n->b_clean; i++) {
		struct nic_frame f = fifo_pop(&n->tx_clean);

		if (f.kind == NIC_UDP)
			n->tx_used -= frames_of(n, &f);
		f.user->tx_done(f.user->ctx, &f);
	}
	if (n->b_clean)
		qdisc_run(n);
	n->b_clean = 0;
	if (n->b_rx) {
		struct nic_frame f = fifo_pop(&n->rx_ring);

		n->b_rx = false;
		if (f.kind == NIC_UDP)
			n->rx_used -= frames_of(n, &f);
		f.user->host_rx(f.user->ctx, &f);
	}
}

/* ------------------------------------------------------------------------ */
/* setting up */

/*
 * The interrupt throttle: nic_itr if set, else the drivers' latency
 * setting while every user is request-response (nic_latency_itr), their
 * bulk one otherwise (nic.h).
 */
static void set_itr(struct nic *n)
{
	if (n->c->itr > 0)
		n->itr = n->c->itr;
	else if (n->rr_users > 0 && n->rr_users >= n->users)
		n->itr = n->rate <= 1e9 ? USEC(50) : USEC(10);
	else
		n->itr = n->rate <= 1e9 ? USEC(250) : USEC(84);
}

void nic_init(struct nic *n, struct sim *s, struct guest *d0, const struct nic_config *c,
	      const struct nic_user *u, bool data_out, stime_t irq_latency)
{
	struct err e;

	memset(n, 0, sizeof(*n));
	n->sim = s;
	n->c = c;
	n->u = *u;
	n->rate = nic_parse_rate(c->rate, "nic", &e);
	set_itr(n);
	n->tx_ring = n->rx_ring_size = n->rate <= 1e9 ? E1000_RING : IXGBE_RING;
	n->data_out = data_out;
	n->irq_armed = true;
	timer_init(&n->tx_timer, tx_wire_fire, n);
	timer_init(&n->remote_timer, remote_fire, n);
	timer_init(&n->rx_timer, rx_wire_fire, n);
	timer_init(&n->itr_timer, itr_fire, n);
	n->napi = worker_create(d0, "nic-napi", TASK_IRQ, (int)c->vcpu, true, napi_poll,
				napi_done, n);
	evtchn_init(&n->pirq, s, n->napi, irq_latency);
}

static bool same_config(const struct nic_config *a, const struct nic_config *b)
{
	return !strcmp(a->rate, b->rate) && a->mtu == b->mtu && a->vcpu == b->vcpu &&
	       a->itr == b->itr && a->peer_latency == b->peer_latency &&
	       a->xmit_cost == b->xmit_cost && a->tx_clean_cost == b->tx_clean_cost &&
	       a->rx_frame_cost == b->rx_frame_cost && a->bridge_cost == b->bridge_cost;
}

struct nic *nic_get(struct guest *d0, const struct nic_config *c, const struct nic_user *u,
		    bool data_out, stime_t irq_latency, const char *owner, const char *user,
		    bool *first, struct err *e)
{
	struct nic *n = d0->nic;

	*first = !n;
	if (n) {
		if (!same_config(&n->conf, c)) {
			err_set(e, "%s: dom0's NIC is %s's, set up with other nic_rate, mtu, nic_itr, "
				"nic_vcpu, peer_latency or NIC costs", owner, n->first);
			return NULL;
		}
		n->users++;
		set_itr(n);
		return n;
	}
	n = xcalloc(1, sizeof(*n));
	nic_init(n, d0->sim, d0, c, u, data_out, irq_latency);
	n->conf = *c;
	n->c = &n->conf;
	n->host = d0;
	n->users = 1;
	snprintf(n->first, sizeof(n->first), "%s", user);
	d0->nic = n;
	return n;
}

void nic_put(struct nic *n)
{
	struct guest *d0;

	if (!n || --n->users > 0)
		return;
	d0 = n->host;
	if (d0->nic == n)
		d0->nic = NULL;
	nic_free(n);
	free(n);
}

void nic_latency_itr(struct nic *n)
{
	n->rr_users++;
	set_itr(n);
}

void nic_time_start(struct nic *n)
{
	stime_t now = sim_now(n->sim);
	stime_t free_at = n->data_out ? n->tx_free : n->rx_free;

	n->from = now;
	n->busy_ns = free_at > now ? free_at - now : 0;
}

stime_t nic_busy(const struct nic *n)
{
	stime_t now = sim_now(n->sim);
	stime_t free_at = n->data_out ? n->tx_free : n->rx_free;

	return n->busy_ns - (free_at > now ? free_at - now : 0);
}

void nic_free(struct nic *n)
{
	struct sim *s = n->sim;

	if (!s)
		return;
	timer_stop(&s->q, &n->tx_timer);
	timer_stop(&s->q, &n->remote_timer);
	timer_stop(&s->q, &n->rx_timer);
	timer_stop(&s->q, &n->itr_timer);
	evtchn_close(&n->pirq);
	worker_free(n->napi);
	fifo_free(&n->tx_wire);
	fifo_free(&n->to_remote);
	fifo_free(&n->rx_wire);
	fifo_free(&n->tx_clean);
	fifo_free(&n->rx_ring);
	fifo_free(&n->qdisc);
	memset(n, 0, sizeof(*n));
}
