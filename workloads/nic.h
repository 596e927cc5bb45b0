/*
 * dom0's physical NIC, the Ethernet link and the far end of the link, for
 * a stream between a guest and a remote host.  What it models, and from
 * which real code:
 *
 *   - the link: full duplex, each direction a serialiser at nic_rate.  A
 *     TCP segment of b payload bytes leaves as full-size frames (Linux's
 *     tcp_xmit_size_goal makes a GSO skb a multiple of the MSS), each
 *     carrying mtu - 52 bytes of payload (IPv4 20, TCP 20, the timestamp
 *     option 12) in mtu + 38 bytes of wire time (Ethernet header 14, FCS
 *     4, preamble and start delimiter 8, inter-frame gap 12: IEEE 802.3),
 *     so 1500 gives 1448 of 1538 bytes: 0.9415 Gbit/s of goodput on
 *     1 GbE.  A pure ACK is one 70-byte frame, 90 bytes of wire time.
 *     peer_latency is the round trip the remote host and the wire add
 *     beyond serialisation, half each way;
 *   - the NIC: TSO on transmit (the driver's xmit per GSO skb), the frames
 *     of a segment DMAed in and merged by GRO on receive, TX completions
 *     and received frames raising one MSI-X vector (ixgbe and e1000e pair a
 *     TX and an RX ring on one vector, ixgbe_msix_clean_rings /
 *     e1000_intr_msix) whose interrupts the hardware throttles to one per
 *     nic_itr (EITR / ITR register: ixgbe's adaptive ITR settles at
 *     IXGBE_12K_ITR, 84 us, for bulk traffic, ixgbe_set_itr of Linux 4.x;
 *     e1000e's at 4000 interrupts/s, 250 us, e1000_update_itr's
 *     bulk_latency);
 *   - the interrupt's handler in dom0: a physical IRQ reaches a PV dom0 as
 *     a pirq event channel bound to one vCPU (nic_vcpu; __startup_pirq in
 *     drivers/xen/events/events_base.c binds it to vCPU 0), whose NAPI poll
 *     (ixgbe_poll: ixgbe_clean_tx_irq, then ixgbe_clean_rx_irq up to the
 *     budget of 64 frames) frees the sent skbs and hands what it received
 *     to GRO and up: for a guest's stream, to the bridge (net/bridge:
 *     br_handle_frame -> br_forward -> dev_queue_xmit) and netback's
 *     xenvif_start_xmit.  Interrupts stay off while NAPI polls
 *     (napi_complete_done re-enables them).
 *
 *   - UDP datagrams (NIC_UDP): no segmentation offload for UDP, so a
 *     datagram of s bytes is an IP packet of s + 8 (UDP header, RFC 768)
 *     + 20 (IPv4 header, RFC 791) bytes, fragmented above the MTU as
 *     Linux's ip_fragment does (ip_do_fragment: every fragment but the
 *     last carries the largest multiple of 8 bytes that fits mtu - 20,
 *     1480 at 1500; each fragment its own 20-byte header), each fragment
 *     a frame of its own on the wire (+ 38 bytes as above; an IP packet
 *     below 46 bytes padded to 46, the 64-byte minimum frame of IEEE
 *     802.3).  Each fragment takes one descriptor of the NIC's TX ring
 *     (E1000_DEFAULT_TXD 256 for e1000e up to 1G, IXGBE_DEFAULT_TXD 512
 *     above); with the ring full the driver stops the queue and the
 *     qdisc holds up to the device's tx_queue_len (DEFAULT_TX_QUEUE_LEN
 *     1000, ether_setup) packets, and drops beyond that (pfifo_fast's
 *     qdisc_drop); what the TX clean frees goes from the qdisc onto the
 *     ring (netif_wake_queue -> net_tx_action -> qdisc_run).  Received
 *     fragments fill the RX ring (E1000_DEFAULT_RXD 256, IXGBE_DEFAULT_RXD
 *     512): a frame finding it full is dropped by the NIC (rx_missed).
 *     A bridge forwards fragments as they are (no GRO for UDP, no
 *     reassembly at layer 2): each costs rx_frame_cost and bridge_cost.
 *     Datagrams are dropped whole (an approximation: a real drop loses
 *     single fragments, and with them their datagram).  TCP's segments
 *     are not counted on the rings: TCP Small Queues keeps at most four
 *     segments (about 72 descriptors) of a flow there.
 *
 * The NIC knows frames, not TCP: its users (workloads/pvnet.c's streams,
 * netperf.c's request/response path) hand it frames to send and get back,
 * through the callbacks of their struct nic_user, the frames the remote
 * end receives (at the far end of the wire), the frames that arrive at
 * dom0 (in the poll's completion) and the sent frames whose skbs the poll
 * freed.
 *
 * The NIC is the host's, not a workload's: dom0 has one physical NIC and
 * every guest's vif is bridged to it, whichever workload (iperf, netperf)
 * streams over it.  nic_get gives a user dom0's NIC, setting it up for the
 * first (it then hangs on dom0's struct guest) and checking that a later
 * user asks for the same NIC; nic_put lets go of it, and the last user
 * frees it.  A user sends with its own struct nic_user (nic_xmit,
 * nic_remote_send): each frame keeps it, and its callbacks take the frame
 * back, so a stream and a request/response path can share the NIC (each
 * frame's owner is then the user's own flow); the NAPI poll's costs are
 * drawn by the first user's cost callback (a single random stream for the
 * one driver).
 */
#ifndef SCHEDSIM_NIC_H
#define SCHEDSIM_NIC_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/params.h"
#include "workloads/split.h"

struct nic_config {
	char rate[PARAM_STRING_MAX];
	long long mtu, vcpu;
	stime_t itr, peer_latency;
	stime_t xmit_cost, tx_clean_cost, rx_frame_cost, bridge_cost;
};

#define NIC_PARAMS(off)                                                                     \
	{ "nic_rate", PARAM_STRING, "10G", NULL, 0, 0,                                       \
	  "line rate of dom0's physical NIC (peer=remote), bit/s with K, M or G: 1G, 10G, " \
	  "25G", off(rate) },                                                                \
	{ "mtu", PARAM_INT, "1500", NULL, 576, 9216,                                         \
	  "the link's MTU: payload per frame mtu - 52 (IP, TCP with timestamps), wire "     \
	  "bytes per frame mtu + 38 (Ethernet header, FCS, preamble, gap); UDP datagrams "  \
	  "are fragmented to mtu - 20 bytes of IP payload (ip_fragment)", off(mtu) },        \
	{ "nic_itr", PARAM_DURATION, "0", NULL, 0, 0,                                        \
	  "the NIC's interrupt throttling interval (0: the driver's bulk setting for the "  \
	  "rate: e1000e's 250 us up to 1G, ixgbe's IXGBE_12K_ITR 84 us above; for "         \
	  "netperf's UDP_RR their latency setting, 50 us and 10 us)", off(itr) },            \
	{ "nic_vcpu", PARAM_INT, "0", NULL, 0, 4095,                                         \
	  "dom0 vCPU the NIC's interrupt (a pirq event channel) is bound to (Linux's "       \
	  "__startup_pirq binds it to vCPU 0)", off(vcpu) },                                 \
	{ "peer_latency", PARAM_DURATION, "20us", NULL, 0, 0,                                \
	  "round trip the wire, a switch and the remote host's stack add beyond "           \
	  "serialisation (an assumption: order of 10 us)", off(peer_latency) },             \
	{ "nic_xmit_cost", PARAM_DURATION, "2us", NULL, 0, 0,                                \
	  "dom0 CPU per GSO skb the NIC driver sends (ndo_start_xmit: DMA-map the head "   \
	  "and frags, TSO descriptors, the doorbell; an assumption)", off(xmit_cost) },     \
	{ "nic_tx_clean_cost", PARAM_DURATION, "500ns", NULL, 0, 0,                          \
	  "dom0 CPU per sent skb the NAPI poll frees (ixgbe_clean_tx_irq: unmap, free; an " \
	  "assumption)", off(tx_clean_cost) },                                               \
	{ "nic_rx_frame_cost", PARAM_DURATION, "200ns", NULL, 0, 0,                          \
	  "dom0 CPU per frame received (ixgbe_clean_rx_irq: descriptor, page reuse, GRO "   \
	  "merge; an assumption)", off(rx_frame_cost) },                                     \
	{ "bridge_cost", PARAM_DURATION, "1us", NULL, 0, 0,                                  \
	  "dom0 CPU per skb the bridge forwards between netback's vif and the NIC "         \
	  "(br_handle_frame, the FDB lookup, br_forward, dev_queue_xmit; an assumption)",    \
	  off(bridge_cost) }

/*
 * What a frame carries: a TCP segment's payload (GSO), a pure ACK, a
 * burst of dgrams UDP datagrams of bytes / dgrams each (their fragments),
 * or one TCP message of bytes (NIC_MSG: netperf's TCP_RR) sent whole as
 * its own segments, the last one short: each of its frames an IP packet
 * of payload + 20 (TCP, RFC 793) + 12 (the timestamp option, RFC 7323:
 * 10 bytes padded to 12 with two NOPs, as Linux's tcp_established_options
 * reserves TCPOLEN_TSTAMP_ALIGNED on an established connection) + 20
 * (IPv4, RFC 791) bytes, with Ethernet's 38 (52 bytes of headers are
 * already above the 46 of the 64-byte minimum frame: no padding).  It carries the ACK of what came the other way
 * (the receiver's delayed ACK rides on the answer), so no pure ACK
 * follows it; one GSO skb on transmit and one GRO skb on receive, its
 * frames not counted on the rings (TCP Small Queues, as a stream's).
 */
enum nic_kind { NIC_DATA, NIC_ACK, NIC_UDP, NIC_MSG };

struct nic_frame {
	void *owner;                  /* the user's (its flow) */
	const struct nic_user *user;  /* whose callbacks take it back (set by the NIC) */
	uint64_t bytes;               /* payload */
	uint64_t ack, wnd_end;        /* an ACK's */
	uint32_t dgrams;              /* NIC_UDP: datagrams */
	uint16_t slots;               /* the user's: ring slots it held */
	uint8_t kind;
};

/* A FIFO of frames, each due at a time: one direction of the wire, or a ring. */
struct nic_fifo {
	struct nic_frame *v;
	stime_t *at;
	unsigned head, n, cap;
};

/*
 * The user's callbacks, each given its ctx: remote_rx when a frame has
 * reached the remote host; host_rx and tx_done in the NAPI poll's
 * completion, for a received frame (after GRO and the bridge) and for a
 * sent one whose skb was freed.
 */
struct nic_user {
	void *ctx;
	void (*remote_rx)(void *ctx, const struct nic_frame *f);
	void (*host_rx)(void *ctx, const struct nic_frame *f);
	void (*tx_done)(void *ctx, const struct nic_frame *f);
	stime_t (*cost)(void *ctx, double base);
};

struct nic {
	struct sim *sim;
	const struct nic_config *c;
	struct nic_user u;
	double rate;                  /* bit/s */
	stime_t itr;
	/* host -> remote: serialising (done at 'at'), then in flight to the remote */
	struct nic_fifo tx_wire, to_remote;
	stime_t tx_free;              /* the host side of the link is free from then */
	struct timer tx_timer, remote_timer;
	/* remote -> host: serialising and in flight, arriving at 'at' */
	struct nic_fifo rx_wire;
	stime_t rx_free;
	struct timer rx_timer;
	/* the host: what the NAPI poll has to take */
	struct nic_fifo tx_clean, rx_ring;
	/* UDP's fragments on the TX and RX rings, the qdisc's, and the rings' sizes */
	struct nic_fifo qdisc;
	unsigned tx_used, rx_used, qdisc_pkts, tx_ring, rx_ring_size;
	uint64_t tx_drops, rx_drops;  /* datagrams the qdisc and the NIC's RX ring dropped */
	bool irq_armed;               /* interrupts enabled (NAPI not scheduled) */
	stime_t last_irq;
	struct timer itr_timer;
	struct evtchn pirq;
	struct worker *napi;
	/* the batch under way */
	unsigned b_clean, b_frames;
	bool b_rx;
	struct nic_frame b_frame;
	/* the link's busy time in the data's direction, from 'from' */
	bool data_out;                /* data goes host -> remote */
	stime_t from, busy_ns;
	uint64_t irqs;
	/* the host's (nic_get): users holding it, the first one's domain and config */
	struct guest *host;
	int users, rr_users;          /* ... of them request-response (nic_latency_itr) */
	char first[64];
	struct nic_config conf;
};

/* Parses a rate ("10G", "2.5G", "100M", "1000000"): bit/s, or -1 with e set. */
double nic_parse_rate(const char *s, const char *owner, struct err *e);
/* Checks c against dom0 d0: -1 with a one-line error that starts with owner. */
int nic_check(const struct nic_config *c, const char *owner, const struct domain *d0,
	      struct err *e);
/*
 * The NIC of dom0 d0 (c checked), its poll's costs drawn by u's cost
 * callback; data_out: where the data goes; irq_latency: from the
 * interrupt to the pirq's upcall in dom0.
 */
void nic_init(struct nic *n, struct sim *s, struct guest *d0, const struct nic_config *c,
	      const struct nic_user *u, bool data_out, stime_t irq_latency);
/*
 * dom0 d0's NIC for a user in domain 'user' (c checked with nic_check):
 * the NIC a user already set up, which must have c's parameters (else NULL
 * with a one-line error that starts with owner, the workload's name), or a
 * new one set up with nic_init's arguments (*first is then true: its
 * account of time, nic_time_start, is this user's).  u is the user's
 * (it must outlive its use of the NIC).
 */
struct nic *nic_get(struct guest *d0, const struct nic_config *c, const struct nic_user *u,
		    bool data_out, stime_t irq_latency, const char *owner, const char *user,
		    bool *first, struct err *e);
/* A user lets go of n: the last one frees it (after the run, as workloads are freed). */
void nic_put(struct nic *n);
/*
 * A user of request-response traffic: while every user of n is one, the
 * interrupt throttle is what the drivers' adaptive moderation settles at
 * for a few small packets per interrupt (a stream among them keeps the
 * bulk setting, as its traffic would), unless nic_itr sets one: ixgbe_update_itr's lowest_latency below 10 MB/s,
 * IXGBE_100K_ITR (10 us); e1000e's lowest_latency, which its default
 * conservative mode (InterruptThrottleRate 3) turns into low_latency,
 * 20000 interrupts/s (50 us: e1000_set_itr).
 */
void nic_latency_itr(struct nic *n);
/* Payload bytes per second the link can carry (full-size frames). */
double nic_goodput(const struct nic *n);
/*
 * dom0 sends a frame (the driver's xmit is done): onto the link in turn.
 * A NIC_UDP burst goes onto the TX ring, or into the qdisc while the ring
 * is full; returns the datagrams the qdisc dropped (the frame carries the
 * others on; slots shrink in proportion).
 */
uint64_t nic_xmit(struct nic *n, const struct nic_user *u, const struct nic_frame *f);
/* IP fragments of a UDP datagram of 'size' bytes at mtu (ip_fragment). */
unsigned nic_udp_frags(long long mtu, uint64_t size);
/* Bytes of wire time of one such datagram: its frames, padding, Ethernet's 38 each. */
uint64_t nic_udp_wire_bytes(long long mtu, uint64_t size);
/* TCP segments of a message of 'size' bytes sent whole at mtu (1 for 0 bytes). */
unsigned nic_tcp_segs(long long mtu, uint64_t size);
/* Bytes of wire time of such a message: its frames, padding, Ethernet's 38 each. */
uint64_t nic_tcp_wire_bytes(long long mtu, uint64_t size);
/* UDP payload bytes per second the link carries with datagrams of 'size' bytes. */
double nic_udp_goodput(const struct nic *n, uint64_t size);
/*
 * The remote host sends u's user a frame at once; returns when its last
 * bit has left it.
 */
stime_t nic_remote_send(struct nic *n, const struct nic_user *u, const struct nic_frame *f);
/* The CPU of a driver's xmit of f after the bridge (the base, before the user's cost). */
double nic_fwd_base(const struct nic *n, const struct nic_frame *f);
/* Starts the account of the link's busy time. */
void nic_time_start(struct nic *n);
/* The link's busy time in the data's direction since nic_time_start, to now. */
stime_t nic_busy(const struct nic *n);
void nic_free(struct nic *n);

#endif
