/*
 * The paravirtual network of a host: TCP connections between sockets in
 * guests and in dom0, over netfront/netback, as the Linux 4.x kernels of
 * 2016 run them (drivers/net/xen-netfront.c; drivers/net/xen-netback/
 * netback.c, interface.c; net/ipv4/tcp*.c).  A connection's two sockets
 * are read and written by workload tasks (iperf's client and server); the
 * path between them is modelled stage by stage, each stage a worker
 * (workloads/split.h) whose batches pay CPU on its vCPU.
 *
 * A queue (struct pvnet_queue) is one netfront/netback queue of one
 * guest's vif: a TX ring (guest -> dom0) and an RX ring (dom0 -> guest) of
 * ring_slots slots, event channels, and four workers:
 *
 *   netfront  (guest, TASK_IRQ): xennet_tx_interrupt and xennet_poll:
 *             reaps TX completions (xennet_tx_buf_gc), takes what the RX
 *             ring holds (ACKs all at once, a data packet per batch as
 *             napi_gro_receive hands skb after skb up), and, as the
 *             guest's softirq, sends what TCP then allows for a guest
 *             sender (tcp_tsq_handler, tcp_data_snd_check);
 *   netback   (dom0, TASK_IRQ): xenvif_poll -> xenvif_tx_action: takes the
 *             guest's TX requests a packet per batch: a data segment is
 *             mapped and delivered to dom0's socket, its grants go to the
 *             dealloc thread; a packet that fits PKT_PROT_LEN (an ACK) is
 *             copied whole and answered at once (xenvif_tx_submit ->
 *             xenvif_idx_release) and goes up dom0's stack (tcp_ack at a
 *             dom0 sender, which then sends from this softirq);
 *   dealloc   (dom0 kthread): xenvif_dealloc_kthread unmaps the grants and
 *             only then answers the TX requests (xenvif_tx_dealloc_action);
 *   guest-rx  (dom0 kthread): xenvif_kthread_guest_rx -> xenvif_rx_action:
 *             the skbs dom0 queued for the guest (xenvif_start_xmit ->
 *             xenvif_rx_queue_tail, netback.c of 4.4-4.9) are grant-copied
 *             into the buffers netfront posted (gnttab_batch_copy: one
 *             copy op per 4 KiB, the payload copied by Xen), answered on
 *             the RX ring and netfront notified; copy_batch (the
 *             COPY_BATCH_SIZE of 4.10's rx.c) flushes and answers every
 *             that many ops instead of once per run.  Freeing a dom0
 *             sender's copied skb releases TCP Small Queues (tcp_wfree),
 *             whose tasklet sends on this CPU (tcp_tasklet_func).
 *
 * A flow (struct pvnet_flow) is one TCP connection (or a UDP socket pair,
 * pvnet_flow_udp: datagrams, no flow control beyond the sockets' buffers,
 * drops at a full receive buffer or netback's rx_queue): its flow control is
 * workloads/tcp.h's, its sender and receiver are a guest's and dom0's
 * sockets (to-dom0: the guest sends; from-dom0: dom0 sends).  Data moves
 * in GSO segments of 'segment' bytes (64 KiB), ACKs one per read.
 *
 * Every cost is a base time drawn by pvnet_cost (the run's factor and a
 * per-batch uniform noise): the workload's calibration applies to all.
 * Claims reserve and decide, commits publish, as split.h's batches do.
 */
#ifndef SCHEDSIM_PVNET_H
#define SCHEDSIM_PVNET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/params.h"
#include "workloads/breakdown.h"
#include "workloads/nic.h"
#include "workloads/split.h"
#include "workloads/tcp.h"

/*
 * Where a socket lives: a guest, dom0, or a remote host beyond dom0's
 * physical NIC (workloads/nic.h; pvnet_attach_nic).
 */
enum pvnet_where { PVNET_GUEST, PVNET_DOM0, PVNET_REMOTE };

/*
 * The path's parameters (costs are ns at full speed before the
 * workload's scale; doc/workloads.md, iperf, has each one's source).
 * PVNET_PARAMS puts them in a workload's parameter table.
 */
struct pvnet_config {
	long long segment;
	long long limit_output, wmem_max, rmem_max, adv_win_scale, skb_overhead;
	long long ring_slots, slots_per_segment, napi_budget, softirq_restarts, copy_batch;
	stime_t write_cost, tx_cost, gc_cost, netback_cost, dealloc_cost, server_cost;
	stime_t ack_cost, ack_rx_cost, netfront_rx_cost, grant_copy_op, grant_copy_kib;
	stime_t evtchn_latency, softirq_time;
	long long guest_vcpu, dom0_vcpu;
	int queue_irqs;
};

/* Where queue i's event channels are bound (queue_irqs). */
enum { PVNET_IRQS_SPREAD, PVNET_IRQS_SAME };

/*
 * The per-packet costs of the split driver's small packets, shared by
 * iperf's table (below) and netperf's peer=dom0 (workloads/netperf.c),
 * which takes the same stages of the same drivers.
 */
#define PVNET_ACK_COST "4450ns"          /* 3 us x 1.4825 */
#define PVNET_ACK_RX_COST "2970ns"       /* 2 us x 1.4825 */
#define PVNET_GC_COST "1480ns"           /* 1 us x 1.4825 */
#define PVNET_GRANT_COPY_OP "445ns"      /* 0.3 us x 1.4825 */
#define PVNET_EVTCHN_LATENCY "2us"

/*
 * The calibration of the path's costs (doc/workloads.md, iperf): they were set on the
 * full-speed machine; with the hardware model the work is scaled once so
 * that the stream on the default host (the 2016 test host) under the
 * Credit1 of that time (credit1:era=2016), no dom0 load, gives the real
 * 11.793 Gbit/s (real-measurements.md section 1; doc/validation.md, the
 * guest's memory on both nodes as xl leaves it after autoballooning, the
 * client started from connect() on netfront's vCPU: 0.79 gave 11.815
 * Gbit/s, 0.794 11.756, 0.7915 11.790 over 15 iterations).  It was set on
 * the guest-to-dom0 stream; the other direction is a prediction.  Every workload
 * over this path (iperf, netperf's streams to dom0 or a remote host) takes it.
 */
#define PVNET_MODEL_SCALE 0.7915
#define PVNET_MODEL_SCALE_TEXT "0.7915"

#define PVNET_PARAMS(off)                                                                  \
	{ "segment", PARAM_SIZE, "65536", NULL, 1024, 65536,                                 \
	  "bytes per GSO segment", off(segment) },                                           \
	{ "tcp_limit_output_bytes", PARAM_SIZE, "262144", NULL, 1024, 1LL << 32,             \
	  "TCP Small Queues: truesize of sent skbs the driver may hold before TCP "         \
	  "stops sending (Linux sysctl, 262144 since c39c4c6abb89, 4.2)", off(limit_output) }, \
	{ "tcp_wmem_max", PARAM_SIZE, "4194304", NULL, 1024, 1LL << 32,                      \
	  "the sender's send buffer (tcp_wmem[2], tcp_init's 4 MiB, reached by autotuning)", \
	  off(wmem_max) },                                                                   \
	{ "tcp_rmem_max", PARAM_SIZE, "6291456", NULL, 1024, 1LL << 32,                      \
	  "the receiver's receive buffer (tcp_rmem[2], tcp_init's 6 MiB, reached by "       \
	  "tcp_rcv_space_adjust)", off(rmem_max) },                                          \
	{ "tcp_adv_win_scale", PARAM_INT, "1", NULL, -31, 31,                                \
	  "receive window = buffer - buffer/2^n (n > 0) or buffer/2^-n "                    \
	  "(tcp_win_from_space; Linux's default 1)", off(adv_win_scale) },                   \
	{ "skb_overhead", PARAM_SIZE, "2624", NULL, 0, 1 << 20,                              \
	  "truesize beyond the payload of a segment's skb: select_size's 2 KiB head "       \
	  "plus sk_buff and skb_shared_info (SKB_TRUESIZE)", off(skb_overhead) },            \
	{ "ring_slots", PARAM_INT, "256", NULL, 1, 65536,                                    \
	  "TX and RX ring slots (256: one 4 KiB page)", off(ring_slots) },                   \
	{ "slots_per_segment", PARAM_INT, "17", NULL, 1, 64,                                 \
	  "ring slots a segment takes (one per 4 KiB page and one header or GSO extra); "   \
	  "netfront keeps MAX_SKB_FRAGS + 2 more free", off(slots_per_segment) },            \
	{ "napi_budget", PARAM_INT, "64", NULL, 1, 65536,                                    \
	  "packets netback and netfront take per NAPI poll", off(napi_budget) },             \
	{ "softirq_time", PARAM_DURATION, "2ms", NULL, 0, 0,                                 \
	  "netback's and netfront's softirq work goes on in ksoftirqd after this "          \
	  "(Linux's MAX_SOFTIRQ_TIME; 0: no time bound)", off(softirq_time) },               \
	{ "softirq_restarts", PARAM_INT, "10", NULL, 0, 1000000,                             \
	  "... or after this many polls (Linux's MAX_SOFTIRQ_RESTART; 0: no bound)",         \
	  off(softirq_restarts) },                                                           \
	{ "copy_batch", PARAM_INT, "0", NULL, 0, 65536,                                      \
	  "grant copy ops netback's guest-rx thread does per hypercall before it answers "  \
	  "the packets copied (0: all it takes in one run, xenvif_rx_action of Linux "      \
	  "4.4-4.9; 64: COPY_BATCH_SIZE of 4.10's rx.c and today's)", off(copy_batch) },     \
	{ "write_cost", PARAM_DURATION, "29650ns", NULL, 0, 0,                               \
	  "CPU per segment written: copy from user into the socket (20 us "                 \
	  "first-principles x the calibrated 1.4825)", off(write_cost) },                    \
	{ "tx_cost", PARAM_DURATION, "14830ns", NULL, 0, 0,                                  \
	  "CPU per segment sent: TCP output and the driver's xmit (netfront: 17 grants; "   \
	  "dom0: the bridge and xenvif_start_xmit) (10 us x 1.4825)", off(tx_cost) },        \
	{ "gc_cost", PARAM_DURATION, PVNET_GC_COST, NULL, 0, 0,                                   \
	  "guest CPU per TX completion: ungrant, free the skb (1 us x 1.4825)", off(gc_cost) }, \
	{ "netback_cost", PARAM_DURATION, "25200ns", NULL, 0, 0,                             \
	  "dom0 CPU per segment in netback's poll: map, copy out (skb_orphan_frags), "      \
	  "dom0 stack (17 us x 1.4825)", off(netback_cost) },                                \
	{ "dealloc_cost", PARAM_DURATION, "4450ns", NULL, 0, 0,                              \
	  "dom0 CPU per segment in the dealloc kthread: unmap, TX responses "               \
	  "(3 us x 1.4825)", off(dealloc_cost) },                                            \
	{ "server_cost", PARAM_DURATION, "29650ns", NULL, 0, 0,                              \
	  "CPU per segment read by the receiver: TCP receive, copy to user, ACK "           \
	  "(20 us x 1.4825)", off(server_cost) },                                            \
	{ "ack_cost", PARAM_DURATION, PVNET_ACK_COST, NULL, 0, 0,                                  \
	  "dom0 CPU per packet netback copies across: an ACK into the guest (guest-rx "     \
	  "kthread) or out of it (netback's poll), or the per-skb part of a data copy "     \
	  "(3 us x 1.4825)", off(ack_cost) },                                                \
	{ "ack_rx_cost", PARAM_DURATION, PVNET_ACK_RX_COST, NULL, 0, 0,                               \
	  "CPU per ACK received: driver RX and tcp_ack (2 us x 1.4825)", off(ack_rx_cost) }, \
	{ "netfront_rx_cost", PARAM_DURATION, "11860ns", NULL, 0, 0,                         \
	  "guest CPU per segment netfront receives: xennet_get_responses and fill_frags "   \
	  "over 17 slots, their refill (page, grant, request: xennet_alloc_rx_buffers), "   \
	  "GRO, IP and tcp_v4_rcv to the socket (8 us x 1.4825)", off(netfront_rx_cost) },   \
	{ "grant_copy_op", PARAM_DURATION, PVNET_GRANT_COPY_OP, NULL, 0, 0,                              \
	  "Xen's CPU per grant copy op (one per 4 KiB) beyond the bytes: both grants "      \
	  "acquired and released, both pages mapped (gnttab_copy) (0.3 us x 1.4825)",        \
	  off(grant_copy_op) },                                                              \
	{ "grant_copy_kib", PARAM_DURATION, "463ns", NULL, 0, 0,                             \
	  "Xen's CPU per KiB a grant copy moves (the client's copy rate: 20 us per "        \
	  "64 KiB x 1.4825)", off(grant_copy_kib) },                                         \
	{ "evtchn_latency", PARAM_DURATION, PVNET_EVTCHN_LATENCY, NULL, 0, 0,                               \
	  "event channel send to upcall", off(evtchn_latency) },                             \
	{ "guest_vcpu", PARAM_INT, "0", NULL, 0, 4095,                                       \
	  "guest vCPU netfront's event channels are bound to", off(guest_vcpu) },            \
	{ "dom0_vcpu", PARAM_INT, "0", NULL, 0, 4095,                                        \
	  "dom0 vCPU netback's event channels are bound to", off(dom0_vcpu) },               \
	{ "queue_irqs", PARAM_ENUM, "spread", "spread|same", 0, 0,                           \
	  "with several queues: queue i's event channels on vCPU guest_vcpu + i and "       \
	  "dom0_vcpu + i (spread, as irqbalance places them), or all on guest_vcpu and "    \
	  "dom0_vcpu (same: where the kernel binds an event channel, vCPU 0, until moved)", \
	  off(queue_irqs) }

/* What a ring slot carries (a packet's record sits at its first slot). */
enum pvnet_kind { PVNET_DATA, PVNET_ACK };

struct pvnet_flow;

struct pvnet_pkt {
	struct pvnet_flow *flow;
	uint32_t bytes;               /* payload */
	uint16_t slots;               /* ring slots it takes */
	uint8_t kind;
	uint64_t ack, wnd_end;        /* an ACK's: bytes acknowledged, window's right edge */
	uint32_t dgrams;              /* a UDP flow's: datagrams in the burst (0: TCP) */
};

/* A FIFO of packets (netback's rx_queue). */
struct pvnet_pktq {
	struct pvnet_pkt *v;
	unsigned head, n, cap;
};

struct pvnet;

struct pvnet_queue {
	struct pvnet *net;
	struct guest *g;              /* the guest whose vif it is */
	int id;
	struct ring tx, rx;
	struct pvnet_pkt *txp, *rxp;  /* each slot's packet */
	struct worker *netfront, *netback, *dealloc, *rxk;
	struct evtchn to_back, tx_to_front, rx_to_front, rx_to_back;
	struct pvnet_pktq rxq;        /* netback's rx_queue: skbs for the guest */
	bool rx_stalled;              /* the guest-rx thread waits for RX buffers */
	struct pvnet_flow **flows;    /* the flows hashed onto it */
	int nflows;
	uint64_t rxq_udp_bytes;       /* UDP payload on rxq (rx_queue_len's share) */
	unsigned ans_slots;           /* UDP to a remote host: TX slots done, not yet answered */
	/* the batches under way */
	struct pvnet_flow *nf_flow, *nb_flow, *rxk_flow;   /* a sending context's flow */
	unsigned nf_sent, nb_sent, rxk_sent;
	unsigned nf_gc, nf_acks, nb_polled, nf_polled;
	bool nf_data, nb_has;
	struct pvnet_pkt nf_pkt, nb_pkt;
	unsigned rxk_n;               /* packets of rxq the guest-rx batch took */
	uint64_t unmap_pkts, unmap_slots;  /* mapped, waiting for the dealloc thread */
	unsigned dl_pkts, dl_slots;
};

/* The sender's state over time (the breakdown's "tcp-sender" stage). */
enum pvnet_snd { SND_SENDING, SND_NO_DATA, SND_TSQ, SND_RWND, SND_RING, SND_READY, SND_N };
extern const char *const pvnet_snd_name[SND_N];

struct pvnet_flow {
	struct pvnet *net;
	struct pvnet_queue *q;
	int id;
	enum pvnet_where snd_at, rcv_at;
	struct tcp_stream tcp;
	struct worker *sender, *receiver;  /* the sockets' owners, kicked for room or data */
	bool connected;               /* the sender has its SYN-ACK */
	int sending;                  /* batches holding reserved segments */
	unsigned cl_sent;             /* segments the sender's own batch reserved */
	uint64_t rd_bytes;            /* bytes the receiver's batch reads */
	uint64_t sock_bytes;          /* arrived at the receiver, not read */
	uint64_t consumed, measured;  /* read; read after the warm-up */
	bool ack_waits;               /* a guest receiver's ACK waits for TX ring slots */
	void *app;                    /* the workload's */
	struct timer pump;            /* a remote sender: its link is free again */
	int snd_cat;
	stime_t snd_from, snd_ns[SND_N];
	/*
	 * A UDP flow (pvnet_flow_udp): datagrams of 'dgram' bytes, each 'frags'
	 * packets of one ring slot (IP fragments of a 1500-byte MTU), no ACKs,
	 * no TSQ, no window.  The sender's skbs count in wmem (sk_wmem_alloc)
	 * until the driver frees them; the receiver's in rmem (sk_rmem_alloc):
	 * a datagram arriving at a full receive buffer is dropped, as is one
	 * netback's rx_queue has no room for (both counted in drops).
	 */
	bool udp;
	uint32_t dgram, frags;
	uint64_t truesize, sndbuf, rcvbuf;
	uint64_t wmem, rmem, drops;
	uint64_t cl_dgrams;           /* the sender's batch */
	bool mapped;                  /* to a remote host: netback maps its datagrams (zerocopy) */
	uint64_t sent_measured;       /* a remote sender's bytes sent after the warm-up */
};

struct pvnet {
	struct sim *sim;
	const struct pvnet_config *c;
	struct tcp_params tp;
	struct rng *rng;
	double half_width, run_factor;
	struct guest *dom0;
	struct pvnet_queue **queues;
	int nqueues;
	struct pvnet_queue **qmap;    /* the vif's queues by index, as flows hash onto them */
	int nqmap;
	struct pvnet_flow **flows;
	int nflows;
	stime_t warm_end;             /* reads after it are measured */
	struct timer syn_ack;
	struct nic *nic;              /* dom0's physical NIC, for remote sockets */
	struct nic_user nic_u;        /* its callbacks for this network's frames */
	bool nic_owned;               /* set up by this network: its time account is ours */
};

/*
 * Checks c against the guest g and dom0 d0 (ring and segment sizes, the
 * vCPUs interrupts are bound to): -1 with a one-line error that starts
 * with owner (the workload's name).
 */
int pvnet_check(const struct pvnet_config *c, const char *owner, const struct domain *g,
		const struct domain *d0, struct err *e);
/*
 * A network for one workload: costs drawn from rng with noise (coefficient
 * of variation) and the run's factor.
 */
void pvnet_init(struct pvnet *n, struct sim *s, const struct pvnet_config *c,
		struct rng *rng, double noise, double run_factor);
/*
 * dom0's physical NIC (c checked with nic_check), for flows to or from a
 * remote host: data_out when the data goes out through it.  The NIC is the
 * host's (nic_get): the first network to attach sets it up, every later one
 * (another guest's iperf or netperf) shares it, each with its own vif,
 * queues and netback threads, the bridge, the NIC's poll and the link
 * shared; a later one whose c differs is refused (-1 with a one-line
 * error starting with owner, the workload's name; user is its domain's).
 * A guest's segment to the remote host leaves netback's poll for the
 * bridge and the NIC still grant-mapped (netback's zerocopy:
 * xenvif_tx_submit hands the mapped pages on, xenvif_zerocopy_callback
 * queues them for the dealloc thread when the NIC's driver frees the skb),
 * so the guest's TX completion, and with it TCP Small Queues, waits for
 * the wire.  What arrives goes through the bridge to netback's
 * xenvif_start_xmit and the guest-rx thread as dom0's own skbs do.  The
 * remote host reads what arrives at once and ACKs each segment; as a
 * sender it fills the link while the guest's window allows (its own costs
 * are outside the host).
 */
int pvnet_attach_nic(struct pvnet *n, const struct nic_config *c, bool data_out,
		     const char *owner, const char *user, struct err *e);
/*
 * A task of the workload's that owns one end of a flow (iperf's client or
 * server): its worker's poll and done get the flow as their worker's ctx.
 */
struct pvnet_app {
	const char *name;
	worker_poll_fn poll;
	worker_done_fn done;
	long long vcpu;               /* pinned there; -1: the kernel places it */
};

/*
 * A flow between guest g's socket and dom0's or a remote host's (snd_at
 * and rcv_at: which sends), on queue 'queue' of g's vif (created with its
 * first flow; -1: a new queue of its own); app is the workload's, for its
 * tasks (f->app).  A remote end has no task (its app is NULL).
 */
struct pvnet_flow *pvnet_flow_add(struct pvnet *n, struct guest *g, int queue,
				  enum pvnet_where snd_at, enum pvnet_where rcv_at,
				  const struct pvnet_app *sender, const struct pvnet_app *receiver,
				  void *app);
/* The guest of where, for flow f: the guest's kernel or dom0's. */
struct guest *pvnet_guest_of(const struct pvnet_flow *f, enum pvnet_where where);
/* Starts the connections: each SYN-ACK comes back one event channel later. */
void pvnet_start(struct pvnet *n);
/* A base cost drawn as a batch's CPU time (see the top). */
stime_t pvnet_cost(struct pvnet *n, double base);

/* The sender's socket (its owner's batches). */
bool pvnet_connected(const struct pvnet_flow *f);
/* The owner may write 'bytes' more without sleeping (sk_stream_memory_free). */
bool pvnet_may_write(const struct pvnet_flow *f, uint64_t bytes);
/*
 * Writes 'bytes' and reserves what TCP then lets the socket send, reaping
 * a guest's TX completions as xennet_start_xmit does: the batch's CPU
 * time.  pvnet_write_commit publishes what it sent.
 */
stime_t pvnet_write_claim(struct pvnet_flow *f, uint64_t bytes);
void pvnet_write_commit(struct pvnet_flow *f);

/* The receiver's socket. */
uint64_t pvnet_readable(const struct pvnet_flow *f);
/* Reads up to max bytes (at least one must be readable): the batch's CPU time. */
stime_t pvnet_read_claim(struct pvnet_flow *f, uint64_t max);
/* The read is done: the bytes are consumed and acknowledged (one ACK per read). */
void pvnet_read_commit(struct pvnet_flow *f);

/*
 * f (not started) carries UDP datagrams of dgram bytes, truesize each in
 * the sockets' accounts, with the sender's sndbuf and the receiver's
 * rcvbuf.  A remote end (through the NIC, attached before) has no socket
 * here: as a receiver it takes what arrives at once; as a sender it puts
 * bursts of datagrams on the link back to back, its own NIC's full TX
 * ring blocking it (its CPU is outside the host).  A guest's datagram to
 * the remote host above XEN_NETBACK_TX_COPY_LEN (128 bytes with its
 * Ethernet, IP and UDP headers) is grant-mapped by netback and answered
 * only when the NIC's driver has freed its fragments (the dealloc
 * thread), a smaller one copied whole and answered at once.
 */
void pvnet_flow_udp(struct pvnet_flow *f, uint64_t dgram, uint64_t truesize, uint64_t sndbuf,
		    uint64_t rcvbuf);
/* Datagrams the sender may send now (sock_alloc_send_skb; a guest's TX ring). */
uint64_t pvnet_udp_room(const struct pvnet_flow *f);
/*
 * Sends n datagrams (n <= pvnet_udp_room): the path's CPU for them, a
 * guest's reaping of TX completions (xennet_start_xmit); the commit puts
 * them on the TX ring or, from dom0, on netback's rx_queue, dropping what
 * it has no room for.
 */
stime_t pvnet_udp_send_claim(struct pvnet_flow *f, uint64_t n);
void pvnet_udp_send_commit(struct pvnet_flow *f);

/* The measured interval starts: time accounting of every task, the sender's states. */
void pvnet_time_start(struct pvnet *n);
/* Bytes read by every flow's receiver after the warm-up. */
uint64_t pvnet_measured(const struct pvnet *n);
/* Bytes remote UDP senders sent after the warm-up. */
uint64_t pvnet_remote_sent(const struct pvnet *n);
/*
 * The path's stages into b, in the order a packet of the first flow takes
 * them, each the sum over every flow's or queue's task of that stage; the
 * sockets' owners are named 'sender' and 'receiver', with the reasons
 * they block for (split.h's breakdown_tasks); then the TCP sender's states.
 */
void pvnet_breakdown(struct pvnet *n, struct breakdown *b, const char *sender,
		     const char *const sender_reasons[TASK_BLOCK_REASONS],
		     const char *receiver, const char *const receiver_reasons[TASK_BLOCK_REASONS]);
void pvnet_free(struct pvnet *n);

#endif
