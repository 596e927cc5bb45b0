/*
 * Sockets over lo (loopback.h): the receive queues, UDP's drops and
 * memory steps, TCP's send buffer, window, Nagle and ACKs, and the work
 * each costs, after Linux 5.1's net/ipv4/udp.c, tcp.c, tcp_output.c,
 * tcp_input.c, include/net/sock.h and drivers/net/loopback.c; and a Unix
 * stream socket's queue, send-buffer charge and writer's wake-up, after
 * net/unix/af_unix.c and net/core/sock.c (loopback.h, LO_UNIX).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/kernel_ops.h"
#include "workloads/loopback.h"

/*
 * skb sizes (include/linux/skbuff.h, net/core/skbuff.c, 5.1 on x86-64):
 * SKB_DATA_ALIGN rounds to the 64-byte cache line; struct sk_buff (224
 * bytes) and struct skb_shared_info (320) take 256 and 320 aligned.
 */
#define SKB_ALIGN(x) (((x) + 63) & ~(uint64_t)63)
#define SKB_STRUCT 256
#define SKB_SHINFO 320
/* The link-layer room lo reserves (LL_RESERVED_SPACE: ETH_HLEN 14 aligned to 16). */
#define LO_HH_LEN 16
/* UDP and IPv4 headers. */
#define UDP_IP_HDRS 28
/*
 * A TCP skb's truesize beyond its payload: tcp_sendmsg's skbs carry the
 * payload in page fragments and only MAX_TCP_HEADER linear (select_size
 * is 0 on a scatter-gather device such as lo), a fast-clone sk_buff and
 * the shared info: about a kmalloc-1024 head and struct sk_buff.
 */
#define TCP_SKB_OVERHEAD (1024 + SKB_STRUCT)

/*
 * The size kmalloc gives (ksize): its caches of 8 bytes to 8 KiB
 * (powers of two, and 96 and 192), then whole pages by order
 * (kmalloc_large under SLUB).
 */
static uint64_t kmalloc_size(uint64_t n)
{
	uint64_t k = 8;

	if (n > 64 && n <= 96)
		return 96;
	if (n > 128 && n <= 192)
		return 192;
	while (k < n)
		k <<= 1;
	return k;
}

/*
 * __ip_append_data allocates a datagram's headers and payload linearly on
 * a device without UDP GSO (sock_alloc_send_skb of fraglen + hh_len + 15),
 * __alloc_skb adds the aligned shared info and takes what kmalloc gives
 * (ksize), and SKB_TRUESIZE adds struct sk_buff: a 64-byte datagram is
 * 768 bytes of receive memory, an 8 KiB one 16640.
 */
uint64_t lo_udp_truesize(uint64_t payload)
{
	uint64_t data = SKB_ALIGN(payload + UDP_IP_HDRS + LO_HH_LEN + 15) + SKB_SHINFO;

	return kmalloc_size(data) + SKB_STRUCT;
}

static uint64_t umin(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* SKB_MAX_HEAD(0): a page less the aligned shared info, the linear part af_unix keeps. */
#define UNIX_MAX_HEAD (4096 - SKB_SHINFO)
/* UNIX_SKB_FRAGS_SZ: the fragments one af_unix skb may carry (32 KiB). */
#define UNIX_FRAGS 32768
#define PAGE_ALIGN4K(x) (((x) + 4095) & ~(uint64_t)4095)

uint64_t lo_unix_chunk(uint64_t sndbuf)
{
	/* at most half the buffer less 64 ("two messages in the pipe"), and what one skb holds */
	uint64_t half = sndbuf / 2 > 64 ? sndbuf / 2 - 64 : 1;

	return umin(half, UNIX_MAX_HEAD + UNIX_FRAGS);
}

/*
 * unix_stream_sendmsg: the part beyond SKB_MAX_HEAD(0), page-aligned, goes
 * into fragments (whole pages charged: alloc_skb_with_frags), the rest is
 * linear (kmalloc of it aligned plus the shared info, and struct sk_buff):
 * 64 bytes are 768 of truesize, 2048 are 4352, 8192 (all in two pages of
 * fragments, an empty head) 8960.
 */
uint64_t lo_unix_truesize(uint64_t payload)
{
	uint64_t frag = payload > UNIX_MAX_HEAD ? umin(payload, PAGE_ALIGN4K(payload - UNIX_MAX_HEAD))
						: 0;

	return kmalloc_size(SKB_ALIGN(payload - frag) + SKB_SHINFO) + SKB_STRUCT + PAGE_ALIGN4K(frag);
}

static void runs_append(struct lo_sock *p, uint64_t n, uint64_t bytes);

/* UNIX: what a walk over a writer's skbs (unix_walk) made. */
struct unix_tx {
	uint64_t skbs, bytes, truesize;
	uint64_t calls;     /* send() calls entered (a send gone on with is not one) */
	uint64_t touched;   /* sends entered or gone on with */
};

/*
 * UNIX: the skbs unix_stream_sendmsg cuts from up to n sends of size
 * bytes from s, the first going on with the send s is within (s->part
 * bytes of it queued), at most max_skbs of them and, with at_buffer,
 * stopping where sock_alloc_send_pskb would sleep: the charge, the
 * writer's plus the walk's, at least sk_sndbuf.  With queue, the skbs
 * go on the peer's queue and their truesize on the writer's charge, and
 * s->part follows.
 */
static void unix_walk(struct lo_sock *s, uint64_t n, uint64_t size, uint64_t max_skbs,
		      bool at_buffer, bool queue, struct unix_tx *tx)
{
	uint64_t chunk = lo_unix_chunk(s->sndbuf), part = s->part % (size ? size : 1);
	/* the last skb's length and truesize: most skbs of a walk are alike */
	uint64_t last_len = UINT64_MAX, last_ts = 0;

	memset(tx, 0, sizeof(*tx));
	while (tx->skbs < max_skbs) {
		uint64_t len, ts;

		if (at_buffer && s->wmem + tx->truesize >= s->sndbuf)
			break;
		if (part == 0 || tx->skbs == 0) {     /* a send entered, or the one gone on with */
			if (tx->touched == n)
				break;
			tx->touched++;
			tx->calls += part == 0;
		}
		len = umin(size - part, chunk);
		if (len != last_len) {
			last_ts = lo_unix_truesize(len);
			last_len = len;
		}
		ts = last_ts;
		tx->skbs++;
		tx->bytes += len;
		tx->truesize += ts;
		if (queue)
			runs_append(lo_peer(s), 1, len);
		part += len;
		if (part >= size)
			part = 0;
	}
	if (queue) {
		s->part = part;
		s->wmem += tx->truesize;
	}
}

/* tcp_win_from_space with tcp_adv_win_scale 1: half the free buffer. */
static uint64_t tcp_window(const struct lo_sock *s)
{
	uint64_t space = s->rmem < s->rcvbuf ? s->rcvbuf - s->rmem : 0;

	return space - space / 2;
}

void lo_conn_init(struct lo_conn *c, enum lo_proto proto, const struct lo_costs *costs,
		  struct domain *d, struct worker *owner0, struct worker *owner1,
		  uint64_t rcvbuf, uint64_t sndbuf)
{
	memset(c, 0, sizeof(*c));
	c->proto = proto;
	c->c = costs;
	c->dom = d;
	for (int i = 0; i < 2; i++) {
		struct lo_sock *s = &c->end[i];

		s->conn = c;
		s->owner = i ? owner1 : owner0;
		s->rcvbuf = rcvbuf ? rcvbuf : proto == LO_UDP ? LO_UDP_RCVBUF : LO_TCP_RCVBUF;
		s->sndbuf = sndbuf ? sndbuf : proto == LO_UNIX ? LO_UNIX_SNDBUF : LO_TCP_SNDBUF;
		s->rcv_mss = LO_TCP_RCV_MSS0;
	}
	for (int i = 0; i < 2; i++)
		c->end[i].snd_wnd_end = tcp_window(&c->end[!i]);
}

void lo_conn_free(struct lo_conn *c)
{
	for (int i = 0; i < 2; i++) {
		free(c->end[i].runs);
		c->end[i].runs = NULL;
	}
}

struct lo_sock *lo_peer(struct lo_sock *s)
{
	struct lo_conn *c = s->conn;

	return s == &c->end[0] ? &c->end[1] : &c->end[0];
}

/* lo_kernel_cost with refill ns per page-table switch for the call's own path. */
static stime_t kernel_cost(const struct lo_costs *c, enum domain_type t, enum kernel_op op,
			   uint64_t n, uint64_t bytes, stime_t path_refill)
{
	double toggles = kernel_op_pv_toggles(op);
	double refill = (double)path_refill;

	if (toggles > 0)    /* the copied pages' refills, once a call */
		refill += (double)c->tlb_page * 2.0 * (double)bytes / 4096.0 / toggles;
	return kernel_op_n_cost(t, op, (double)n, refill);
}

stime_t lo_kernel_cost(const struct lo_costs *c, enum domain_type t, enum kernel_op op,
		       uint64_t n, uint64_t bytes)
{
	return kernel_cost(c, t, op, n, bytes, c->tlb_refill);
}

/* lo_kernel_cost in the connection's domain (none without one: a unit test's). */
static stime_t kops(const struct lo_sock *s, enum kernel_op op, uint64_t n, uint64_t bytes)
{
	if (!s->conn->dom)
		return 0;
	return lo_kernel_cost(s->conn->c, s->conn->dom->type, op, n, bytes);
}

/*
 * The PV extras of n send or recv calls on s, each copying bytes.  An
 * af_unix call (unix_stream_sendmsg, unix_stream_read_generic) runs,
 * between its entry and its return, the socket layer, af_unix and the slab
 * allocator of its skbs, and nothing of the IP output, lo, NET_RX softirq
 * and UDP code that UDP's sendto() runs, over which tlb_refill was
 * calibrated (the 2019 dom0 netperf UDP cells).  Its refill per
 * page-table switch is taken to be tlb_refill_tcp's, that of a TCP call
 * which touches no skb, IP, lo or softirq page: a lower bound, short by
 * the skb's slab pages (one or two a call, tlb_page's order each).
 */
static stime_t call_kops(const struct lo_sock *s, uint64_t n, uint64_t bytes)
{
	const struct lo_costs *c = s->conn->c;

	if (!s->conn->dom)
		return 0;
	return kernel_cost(c, s->conn->dom->type, KOP_SYSCALL, n, bytes,
			   s->conn->proto == LO_UNIX ? c->tlb_refill_tcp : c->tlb_refill);
}

/*
 * A batch of TCP calls, 'full' of which allocate or free an skb (full_call
 * each, on the path tlb_refill was calibrated on) and the rest only append
 * to or copy out of one (tcp_call each, tlb_refill_tcp), with bytes copied
 * in all: their work beyond the copy (w, the copy's) and the system calls'
 * PV extras.
 */
static stime_t tcp_calls(const struct lo_sock *s, double w, uint64_t calls, uint64_t full,
			 stime_t full_call, uint64_t bytes)
{
	const struct lo_costs *c = s->conn->c;
	uint64_t per = calls ? bytes / calls : 0;
	stime_t k = 0;

	w += (double)full * (double)full_call + (double)(calls - full) * (double)c->tcp_call;
	if (s->conn->dom) {
		enum domain_type t = s->conn->dom->type;

		k = kernel_cost(c, t, KOP_SYSCALL, full, per, c->tlb_refill);
		if (calls > full)
			k += kernel_cost(c, t, KOP_SYSCALL, calls - full, per, c->tlb_refill_tcp);
	}
	return (stime_t)w + k;
}

/*
 * Kicks the owner of s, which data or room reached.  Waking a sleeper is
 * the waker's work (try_to_wake_up, the IPI); switching to it (schedule,
 * and a PV domain's context-switch multicall) is the sleeper's, in its
 * next claim on s.
 */
static void wake_owner(struct lo_sock *s, struct lo_sock *waker)
{
	struct worker *w = s->owner;

	if (!w)
		return;
	if (w->task->state == TASK_BLOCKED) {
		waker->debt += s->conn->c->wake;
		waker->wakes++;
		s->debt += s->conn->c->switch_in + kops(s, KOP_CTXSW, 1, 0);
	}
	/* sock_def_readable and sk_write_space wake with wake_up_interruptible_sync_poll */
	worker_kick_sync(s->conn->dom->guest->sim, w);
}

/* sk_wmem_queued: bytes written and not acknowledged, in truesize (one skb per MSS). */
static uint64_t wmem_queued(const struct lo_sock *s)
{
	uint64_t b = s->write_seq - s->snd_una;

	return b + (b + LO_TCP_MSS - 1) / LO_TCP_MSS * TCP_SKB_OVERHEAD;
}

uint64_t lo_send_room(struct lo_sock *s, uint64_t size)
{
	uint64_t q;

	if (s->conn->proto == LO_UDP)
		return UINT64_MAX;
	if (s->conn->proto == LO_UNIX) {
		struct unix_tx tx;

		/* sock_alloc_send_pskb allocates while the charge is below sk_sndbuf */
		if (s->wmem >= s->sndbuf) {
			s->nospace = true;
			return 0;
		}
		unix_walk(s, UINT64_MAX, size, UINT64_MAX, true, false, &tx);
		return tx.touched;
	}
	/*
	 * sk_stream_memory_free: tcp_sendmsg copies while the queue is under
	 * the buffer, else it marks the socket SOCK_NOSPACE and waits
	 */
	q = wmem_queued(s);
	if (q >= s->sndbuf) {
		s->nospace = true;
		return 0;
	}
	return (s->sndbuf - q) / (size ? size : 1) + 1;
}

/*
 * TCP: how many of n sends of size bytes start a new skb.  tcp_sendmsg_locked
 * appends to the unsent tail skb until it holds size_goal bytes (on lo,
 * whose GSO size exceeds the MSS, tcp_xmit_size_goal gives the MSS) and
 * allocates the next one (sk_stream_alloc_skb) only then; a tail that has
 * been pushed (no unsent bytes) is not appended to.  The unsent bytes
 * after the batch cover ceil(end / MSS) skbs, ceil(start / MSS) of which
 * existed.  With TCP_NODELAY each send is pushed at its end, so with
 * nothing unsent and the window open for the whole batch every send
 * starts its own skb; a window that shuts part-way through a batch is not
 * followed (the sends then append as above, from the batch's start).
 */
static uint64_t tcp_new_skbs(const struct lo_sock *s, uint64_t n, uint64_t size)
{
	uint64_t a = s->write_seq - s->snd_nxt, b = a + n * size;
	uint64_t k = (b + LO_TCP_MSS - 1) / LO_TCP_MSS - (a + LO_TCP_MSS - 1) / LO_TCP_MSS;

	if (s->nodelay && a == 0 && s->snd_wnd_end >= s->snd_nxt + n * size)
		return n;
	return umin(k, n);
}

stime_t lo_send_work(struct lo_sock *s, uint64_t n, uint64_t size)
{
	return lo_send_work_skbs(s, n, size, UINT64_MAX);
}

stime_t lo_send_work_skbs(struct lo_sock *s, uint64_t n, uint64_t size, uint64_t max_skbs)
{
	const struct lo_costs *c = s->conn->c;
	double w = (double)n * (double)size * c->copy;
	stime_t debt = s->debt;

	s->debt = 0;
	if (s->conn->proto == LO_TCP)
		return tcp_calls(s, w, n, tcp_new_skbs(s, n, size), c->send_call, n * size) + debt;
	if (s->conn->proto == LO_UNIX) {     /* each skb its allocation; a system call per send entered */
		struct unix_tx tx;

		unix_walk(s, n, size, max_skbs, true, false, &tx);
		s->plan_skbs = tx.skbs;
		s->planned = true;
		w = (double)tx.bytes * c->copy + (double)tx.skbs * (double)c->send_call;
		return (stime_t)w + call_kops(s, tx.calls, size) + debt;
	}
	w += (double)n * ((double)c->send_call + (double)c->packet);
	return (stime_t)w + call_kops(s, n, size) + debt;
}

/* Appends n skbs (datagrams) of bytes each to the queue of p, a ring of runs. */
static void runs_append(struct lo_sock *p, uint64_t n, uint64_t bytes)
{
	struct lo_run *tail = p->nruns ? &p->runs[(p->run_head + p->nruns - 1) % p->run_cap] : NULL;

	if (tail && tail->bytes == bytes) {
		tail->n += n;
		return;
	}
	if (p->nruns == p->run_cap) {
		unsigned cap = p->run_cap ? 2 * p->run_cap : 4;
		struct lo_run *r = xcalloc(cap, sizeof(*r));

		for (unsigned i = 0; i < p->nruns; i++)
			r[i] = p->runs[(p->run_head + i) % p->run_cap];
		free(p->runs);
		p->runs = r;
		p->run_cap = cap;
		p->run_head = 0;
	}
	p->runs[(p->run_head + p->nruns++) % p->run_cap] = (struct lo_run){ n, (uint32_t)bytes };
}

/*
 * UNIX: the planned skbs of n sends of size bytes from s (without a plan,
 * those the send buffer takes now) are charged to s and queued at the
 * peer, which is woken.
 *
 * This walks the plan's skbs a second time, on purpose.  The plan is
 * made when the writer's work is claimed (lo_send_work) and the skbs may
 * reach the peer only when that work is done, a later instant, so the
 * queueing cannot ride on the plan's walk.  Keeping the plan's cut (each
 * skb's length, for the peer's runs) until then would take either a list
 * per batch or a closed form of unix_stream_sendmsg's cutting beside
 * unix_walk's: the rule stated twice.  Walked again from the same s->part
 * (only a queueing walk moves it), with the n and size the work was
 * claimed for and the same sndbuf, and stopped at the plan's count rather
 * than at the buffer (the reader's frees since the plan do not change what
 * the writer already allocated), the walk cuts the very skbs the plan
 * counted: the same totals.
 */
static void unix_deliver(struct lo_sock *s, uint64_t n, uint64_t size)
{
	struct lo_sock *p = lo_peer(s);
	struct unix_tx tx;

	unix_walk(s, n, size, s->planned ? s->plan_skbs : UINT64_MAX, !s->planned, true, &tx);
	s->planned = false;
	s->sent += tx.skbs;
	s->sent_bytes += tx.bytes;
	p->rcv_nxt += tx.bytes;
	p->received += tx.skbs;
	p->received_bytes += tx.bytes;
	if (tx.skbs)
		wake_owner(p, s);
}

/* UNIX: bytes read off the queue of s: the skbs emptied and their truesize go in rx. */
static void unix_take(struct lo_sock *s, uint64_t bytes, struct lo_rx *rx)
{
	s->copied += bytes;
	while (bytes > 0 && s->nruns) {
		struct lo_run *r = &s->runs[s->run_head];
		uint64_t left = r->bytes - s->head_used;

		if (bytes < left) {
			s->head_used += bytes;
			return;
		}
		bytes -= left;
		s->head_used = 0;
		rx->msgs++;
		rx->truesize += (stime_t)lo_unix_truesize(r->bytes);
		/* whole skbs of this run */
		if (--r->n && r->bytes) {
			uint64_t k = umin(r->n, bytes / r->bytes);

			r->n -= k;
			bytes -= k * r->bytes;
			rx->msgs += k;
			rx->truesize += (stime_t)(k * lo_unix_truesize(r->bytes));
		}
		if (!r->n) {
			s->run_head = (s->run_head + 1) % s->run_cap;
			s->nruns--;
		}
	}
}

/* UDP: n datagrams of size bytes reach the peer's queue, as far as its memory allows. */
static uint64_t udp_deliver(struct lo_sock *s, uint64_t n, uint64_t size)
{
	struct lo_sock *p = lo_peer(s);
	uint64_t ts = lo_udp_truesize(size), k = 0;

	/* __udp_enqueue_schedule_skb: drop while rmem is above the buffer, else charge */
	if (p->rmem <= p->rcvbuf)
		k = umin(n, (p->rcvbuf - p->rmem) / ts + 1);
	p->rmem += k * ts;
	p->drops += n - k;
	s->sent += n;
	s->sent_bytes += n * size;
	if (!k)
		return n;
	runs_append(p, k, size);
	p->queued += k;
	p->received += k;
	p->received_bytes += k * size;
	wake_owner(p, s);
	return n - k;
}

/*
 * tcp_write_xmit from s, in the context whose debt is ctx's: segments of
 * at most the MSS while the peer's window has room, a short one only when
 * no earlier short one is unacknowledged (Minshall's Nagle) or the socket
 * has TCP_NODELAY.  Each goes through lo into the peer's queue.
 */
static void tcp_push(struct lo_sock *s, struct lo_sock *ctx)
{
	struct lo_sock *p = lo_peer(s);
	uint64_t pushed = 0;

	while (s->write_seq > s->snd_nxt) {
		uint64_t seg = umin(s->write_seq - s->snd_nxt, LO_TCP_MSS);

		if (s->snd_nxt >= s->snd_wnd_end)
			break;
		seg = umin(seg, s->snd_wnd_end - s->snd_nxt);
		if (seg < LO_TCP_MSS && s->snd_sml > s->snd_una && !s->nodelay)
			break;
		s->snd_nxt += seg;
		if (seg < LO_TCP_MSS)
			s->snd_sml = s->snd_nxt;
		p->rcv_nxt += seg;
		p->rcv_segs++;
		/* tcp_measure_rcv_mss: a longer segment raises the estimate */
		if (seg > p->rcv_mss)
			p->rcv_mss = seg;
		p->rmem += seg + TCP_SKB_OVERHEAD;
		p->received_bytes += seg;
		s->sent++;
		ctx->debt += s->conn->c->packet;
		pushed++;
	}
	if (pushed)
		wake_owner(p, ctx);
}

/*
 * tcp_ack at the writer w of what reader r has received, with r's window:
 * the buffer it frees may wake w's owner, and what Nagle or the window held
 * goes out now, in r's context (the ACK's softirq runs on r's CPU).
 */
static void tcp_ack(struct lo_sock *r)
{
	struct lo_sock *w = lo_peer(r);
	uint64_t end = r->rcv_nxt + tcp_window(r);

	r->ack_due = false;
	r->acks++;
	r->rcv_wup = r->rcv_nxt;    /* the window announced with it (tcp_select_window) */
	if (r->rcv_nxt > w->snd_una)
		w->snd_una = r->rcv_nxt;
	if (end > w->snd_wnd_end)
		w->snd_wnd_end = end;
	tcp_push(w, r);
	/* sk_stream_write_space: a writer out of space, free space half of what is queued */
	if (w->nospace && wmem_queued(w) <= w->sndbuf &&
	    w->sndbuf - wmem_queued(w) >= wmem_queued(w) / 2) {
		w->nospace = false;
		wake_owner(w, r);
	}
}

uint64_t lo_send_commit(struct lo_sock *s, uint64_t n, uint64_t size)
{
	if (s->conn->proto == LO_UDP)
		return udp_deliver(s, n, size);
	if (s->conn->proto == LO_UNIX) {
		unix_deliver(s, n, size);
		return 0;
	}
	/* an ACK the task owed the peer rides on this data */
	if (s->ack_due)
		tcp_ack(s);
	s->sent_bytes += n * size;
	if (s->nodelay) {    /* each send() pushed at its end, its own segment */
		for (uint64_t i = 0; i < n; i++) {
			s->write_seq += size;
			tcp_push(s, s);
		}
		return 0;
	}
	s->write_seq += n * size;
	tcp_push(s, s);
	return 0;
}

uint64_t lo_recv_avail(const struct lo_sock *s)
{
	return s->conn->proto == LO_UDP ? s->queued : s->rcv_nxt - s->copied;
}

/* Takes up to max datagrams off the queue, each read into a buffer of size bytes. */
static void udp_take(struct lo_sock *s, uint64_t max, uint64_t size, struct lo_rx *rx)
{
	while (max > 0 && s->nruns) {
		struct lo_run *r = &s->runs[s->run_head];
		uint64_t k = umin(max, r->n);

		rx->msgs += k;
		rx->bytes += k * umin(r->bytes, size);
		rx->truesize += (stime_t)(k * lo_udp_truesize(r->bytes));
		r->n -= k;
		max -= k;
		if (!r->n) {
			s->run_head = (s->run_head + 1) % s->run_cap;
			s->nruns--;
		}
	}
	s->queued -= rx->msgs;
	rx->calls = rx->msgs;
}

/*
 * TCP: the segments whose last byte a read of bytes (already taken off
 * s: s->copied includes them) reaches, in proportion to the bytes of the
 * segments queued unread before it.
 */
static uint64_t tcp_segs_read(const struct lo_sock *s, uint64_t bytes)
{
	uint64_t unread = s->rcv_nxt - s->copied + bytes;
	uint64_t segs = unread ? (s->rcv_segs * bytes + unread - 1) / unread : 0;

	return umin(segs, s->rcv_segs);
}

stime_t lo_recv_claim(struct lo_sock *s, uint64_t max_calls, uint64_t size, bool piggyback,
		      struct lo_rx *rx)
{
	const struct lo_costs *c = s->conn->c;
	stime_t debt = s->debt;
	double w;

	memset(rx, 0, sizeof(*rx));
	if (s->conn->proto == LO_UDP) {
		udp_take(s, max_calls, size, rx);
	} else {
		uint64_t avail = s->rcv_nxt - s->copied;

		if (avail && size) {
			/* unix_stream_read_generic, like tcp_recvmsg, fills the buffer across skbs */
			rx->calls = umin(max_calls, (avail + size - 1) / size);
			rx->bytes = umin(avail, rx->calls * size);
			if (s->conn->proto == LO_UNIX)
				unix_take(s, rx->bytes, rx);
			else
				s->copied += rx->bytes;
		}
	}
	if (!rx->calls)
		return 0;
	s->debt = 0;
	w = (double)rx->bytes * c->copy;
	if (s->conn->proto != LO_TCP)     /* UDP, UNIX: a whole call each */
		return (stime_t)(w + (double)rx->calls * (double)c->recv_call) +
		       call_kops(s, rx->calls, rx->bytes / rx->calls) + debt;
	/*
	 * tcp_cleanup_rbuf, at the end of each tcp_recvmsg, sends a pure ACK
	 * when more than rcv_mss bytes arrived since the last one, or when
	 * the read emptied the queue (after short segments, ICSK_ACK_PUSHED:
	 * taken to be always, the delayed-ACK timer acknowledging otherwise);
	 * else the ACK stays pending.  The batch's last call decides.
	 */
	if (!piggyback && (s->rcv_nxt - s->rcv_wup > s->rcv_mss || s->copied == s->rcv_nxt)) {
		rx->ack = true;
		w += (double)c->ack;
	}
	/*
	 * tcp_recvmsg frees a segment's skb (sk_eat_skb) in the call that
	 * copies its last byte; the other calls only copy out of the head skb
	 */
	return tcp_calls(s, w, rx->calls, umin(rx->calls, tcp_segs_read(s, rx->bytes)),
			 c->recv_call, rx->bytes) + debt;
}

void lo_recv_commit(struct lo_sock *s, const struct lo_rx *rx, bool piggyback)
{
	if (!rx->calls)
		return;
	if (s->conn->proto == LO_UDP) {
		/* udp_rmem_release: the memory goes back once a quarter of the buffer is due */
		s->deficit += (uint64_t)rx->truesize;
		if (s->deficit >= s->rcvbuf / 4) {
			s->rmem -= umin(s->rmem, s->deficit);
			s->deficit = 0;
		}
		return;
	}
	if (s->conn->proto == LO_UNIX) {
		/* consume_skb -> sock_wfree: the writer's charge falls; unix_write_space */
		struct lo_sock *w = lo_peer(s);

		w->wmem -= umin(w->wmem, (uint64_t)rx->truesize);
		if (w->nospace && w->wmem * 4 <= w->sndbuf) {
			w->nospace = false;
			wake_owner(w, s);
		}
		return;
	}
	/* the segments read, in proportion to the bytes (their skbs are freed) */
	{
		uint64_t segs = tcp_segs_read(s, rx->bytes);

		s->rcv_segs -= segs;
		s->rmem -= umin(s->rmem, rx->bytes + segs * TCP_SKB_OVERHEAD);
	}
	s->ack_due = true;
	if (!piggyback && rx->ack)
		tcp_ack(s);
}
