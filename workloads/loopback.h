/*
 * Sockets over the loopback device inside one guest, as Linux 5.1 (the
 * kernel of the 2019 evaluation's dom0 and guests) carries them: a
 * connected pair of UDP or TCP sockets whose two ends are read and written
 * by tasks of the same domain (netperf against netserver, mutilate against
 * memcached).
 *
 * What a send costs and where (net/ipv4/udp.c udp_sendmsg, tcp.c
 * tcp_sendmsg_locked, ip_output.c, drivers/net/loopback.c loopback_xmit,
 * net/core/dev.c netif_rx):
 *   - the system call (and, in a PV domain, its trip through Xen:
 *     workloads/kernel_ops.h), the socket layer and the protocol's output
 *     with the copy of the payload from user space into the skb
 *     (send_call, copy per byte);
 *   - per packet, IP output and loopback_xmit, which orphans the skb (the
 *     sender's socket is uncharged at once: a UDP sender on lo never waits
 *     for its send buffer) and hands it to netif_rx: the skb goes on this
 *     CPU's backlog and the NET_RX softirq runs when the sender's
 *     rcu_read_unlock_bh re-enables bottom halves, still inside the
 *     sendto() (process_backlog -> ip_rcv -> udp_rcv / tcp_v4_rcv), so
 *     the receive processing up to the socket's queue is the sender's CPU
 *     work too (packet);
 *   - waking the task that sleeps on the receiving socket (sk_data_ready:
 *     sock_def_readable -> try_to_wake_up, with the IPI to its CPU), on
 *     the waker's account (wake), and switching to it on its CPU, on the
 *     sleeper's (switch_in, and in a PV domain the context switch's
 *     multicall: workloads/kernel_ops.h).
 * What a receive costs (udp_recvmsg / tcp_recvmsg): the system call, the
 * dequeue and the skb's release (recv_call) and the copy to user space
 * (copy per byte).  TCP's calls that neither start nor free an skb (a
 * send appending to the unsent tail, a recv copying out of the head skb)
 * cost tcp_call instead, for every workload over lo.
 *
 * Socket buffers (net/ipv4/udp.c, include/net/sock.h, net/ipv4/tcp*.c):
 *   - UDP: __udp_enqueue_schedule_skb drops a datagram when the socket's
 *     receive memory (sk_rmem_alloc, in skb truesize) already exceeds
 *     sk_rcvbuf (UDP_MIB_RCVBUFERRORS: the datagrams netperf's sender
 *     counts and its receiver never sees); the reader gives the memory back
 *     in steps of a quarter of the buffer (udp_rmem_release's
 *     forward_deficit), so the queue holds between 3/4 and all of it;
 *   - TCP: a byte stream.  The writer sleeps while its unacknowledged and
 *     unsent bytes (sk_wmem_queued, in truesize) fill sk_sndbuf and is
 *     woken once the free space is half of what is queued
 *     (sk_stream_is_writeable); a segment goes out when the receiver's
 *     window has room (tcp_snd_wnd_test) and Nagle allows: a segment
 *     shorter than the MSS waits while an earlier short one is
 *     unacknowledged (tcp_nagle_check with Minshall's rule, tcp_minshall_
 *     check), so small writes coalesce while one is in flight; on a
 *     socket with TCP_NODELAY (struct lo_sock's nodelay) no segment waits
 *     and each send() is its own segment.  Segments
 *     are at most the loopback MSS (65483 bytes: MTU 65536).  The reader
 *     acknowledges when it has read (tcp_cleanup_rbuf: more than rcv_mss
 *     arrived since its last ACK, or the queue emptied): the ACK rides on
 *     data it sends back at once (a request answered, delayed-ACK
 *     pingpong mode), else it is a pure ACK whose trip through lo and
 *     tcp_ack at the writer's socket is the reader's work (ack); the ACK
 *     frees the writer's buffer, wakes it, and pushes what Nagle or the
 *     window held (tcp_data_snd_check from the ACK's softirq: the reader's
 *     CPU work, delivered to its own queue).
 *
 * The interface is claim / commit, as the workloads' batches run
 * (workloads/split.h's workers): a task claims a batch of sends or
 * receives when it gets its CPU (lo_send_work, lo_recv_claim: the batch's
 * work) and commits it when that work is done (lo_send_commit,
 * lo_recv_commit): only then does the peer see the data or the room.  Work
 * a task incurs in a commit (waking a sleeper, a pure ACK, segments an ACK
 * pushed) is its socket's debt, added to that task's next claim on the
 * socket.
 *
 * A socket's owner is the worker that reads it and writes it (netperf's
 * client, a memcached worker thread); data, room and ACKs arriving kick it
 * (worker_kick), which wakes it if it sleeps.
 */
#ifndef SCHEDSIM_LOOPBACK_H
#define SCHEDSIM_LOOPBACK_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/params.h"
#include "workloads/kernel_ops.h"
#include "workloads/split.h"

/*
 * LO_UNIX: not lo at all but a connected pair of Unix-domain stream
 * sockets (netperf's STREAM_STREAM), as net/unix/af_unix.c of Linux 5.1
 * carries them, with no network stack and no softirq:
 *   - unix_stream_sendmsg cuts a send into skbs of at most half the send
 *     buffer less 64 bytes (and SKB_MAX_HEAD(0) + 32 KiB), each from
 *     sock_alloc_send_pskb: the payload linear up to SKB_MAX_HEAD(0)
 *     (3776 bytes), beyond it in page fragments; the skb is charged to
 *     the SENDER's sk_wmem_alloc (skb_set_owner_w) until the reader frees
 *     it; sock_alloc_send_pskb sleeps (sock_wait_for_wmem) while that
 *     charge is at least sk_sndbuf (net/core/sock.c), in the middle of a
 *     send if need be: the skbs already queued stay queued, and the send
 *     goes on from there when the writer is woken (struct lo_sock's part).
 *     The payload is copied in (skb_copy_datagram_from_iter), the skb
 *     queued on the peer's sk_receive_queue under its state lock and the
 *     peer woken (sk_data_ready, sock_def_readable): send_call and copy
 *     per skb, no packet;
 *   - unix_stream_read_generic copies out of the queued skbs up to the
 *     recv()'s size (recv_call and copy), frees each skb it empties
 *     (consume_skb -> sock_wfree, uncharging the sender), and
 *     sock_wfree's sk_write_space (unix_write_space) wakes a writer that
 *     sleeps once its charge is at most a quarter of sk_sndbuf
 *     (unix_writable);
 *   - there is no receive-buffer limit for a stream socket: only the
 *     sender's sk_sndbuf (net.core.wmem_default, 212992, unless
 *     SO_SNDBUF) bounds what is in flight.
 */
enum lo_proto { LO_UDP, LO_TCP, LO_UNIX };

/*
 * The kernel's work on lo, ns at full speed on bare metal (a PV domain's
 * system calls add workloads/kernel_ops.h's extra).  LO_PARAMS puts them
 * in a workload's parameter table, with their defaults and sources.
 */
struct lo_costs {
	stime_t send_call;   /* per send(): socket layer, protocol output, skb allocation */
	stime_t packet;      /* per packet: IP output, loopback_xmit, NET_RX softirq input */
	stime_t recv_call;   /* per recv(): socket layer, dequeue, skb release */
	double copy;         /* per byte copied between user space and an skb, ns */
	stime_t wake;        /* try_to_wake_up of a task sleeping on a socket, its IPI */
	stime_t switch_in;   /* switching to that task on its CPU (schedule, switch_to) */
	stime_t ack;         /* TCP: a pure ACK through lo and tcp_ack at the writer's socket */
	/*
	 * TCP: a send() that appends to the unsent tail skb or a recv() that
	 * copies out of the head skb without freeing it: the socket layer,
	 * lock_sock / release_sock and tcp_sendmsg_locked's or tcp_recvmsg's
	 * loop, with no skb allocated or freed and no packet through lo.
	 * A TCP call that allocates or frees an skb costs send_call /
	 * recv_call as a UDP call does.
	 */
	stime_t tcp_call;
	/*
	 * PV only (kernel_ops.h): the TLB refill after each page-table switch
	 * of a system call or context switch (the call's code and data), and
	 * per 4 KiB page its copy touches (user buffer and skb), refilled once
	 * a call after the entry's switch.  0 in HVM, PVH and on bare metal.
	 */
	stime_t tlb_refill;
	stime_t tlb_page;
	/*
	 * PV only: the refill per page-table switch of a TCP call of the
	 * tcp_call kind, whose path touches no skb allocator, IP, lo or
	 * softirq page (tlb_refill is that of a call which does), and of
	 * every af_unix call, whose path has no IP, lo or softirq code either
	 * (loopback.c, call_kops).
	 */
	stime_t tlb_refill_tcp;
};

/*
 * Defaults (doc/workloads.md, "Sockets over lo"): send_call, packet and
 * copy are the calibration's on the 2019 HT column's netperf UDP cells of
 * HVMx2-v8, tlb_refill and tlb_page on its dom0 cells (what those cells
 * set is T_TOGGLE + tlb_refill, 707 ns a page-table switch: tlb_refill
 * went from 407 to 647 ns when kernel_ops.c's T_TOGGLE went from 300 to
 * 60); the others are first-principles estimates with their sources there.
 */
#define LO_SEND_CALL_DEFAULT "380ns"
#define LO_PACKET_DEFAULT "450ns"
#define LO_RECV_CALL_DEFAULT "500ns"
#define LO_COPY_DEFAULT "0.0553"
#define LO_WAKE_DEFAULT "1us"
#define LO_SWITCH_DEFAULT "500ns"
#define LO_ACK_DEFAULT "1us"
#define LO_TLB_REFILL_DEFAULT "647ns"
#define LO_TLB_PAGE_DEFAULT "86ns"
#define LO_TCP_CALL_DEFAULT "288ns"
#define LO_TLB_REFILL_TCP_DEFAULT "150ns"

#define LO_PARAMS(off)                                                                   \
	{ "send_cost", PARAM_DURATION, LO_SEND_CALL_DEFAULT, NULL, 0, 0,                   \
	  "kernel CPU per send() on a socket beyond the system call's entry: socket "     \
	  "layer, udp_sendmsg/tcp_sendmsg, skb allocation", off(send_call) },              \
	{ "packet_cost", PARAM_DURATION, LO_PACKET_DEFAULT, NULL, 0, 0,                    \
	  "kernel CPU per packet through lo, in the sender's context: IP output, "        \
	  "loopback_xmit, netif_rx and the NET_RX softirq's IP and UDP/TCP input",        \
	  off(packet) },                                                                   \
	{ "recv_cost", PARAM_DURATION, LO_RECV_CALL_DEFAULT, NULL, 0, 0,                   \
	  "kernel CPU per recv(): socket layer, dequeue, skb release", off(recv_call) },   \
	{ "copy_cost", PARAM_DOUBLE, LO_COPY_DEFAULT, NULL, 0, 100,                        \
	  "ns per byte copied between user space and an skb (copy_from_user into it, "    \
	  "copy_to_user out of it)", off(copy) },                                          \
	{ "wake_cost", PARAM_DURATION, LO_WAKE_DEFAULT, NULL, 0, 0,                        \
	  "kernel CPU of waking a task that sleeps on a socket (try_to_wake_up, the "      \
	  "IPI), on the waker", off(wake) },                                               \
	{ "switch_cost", PARAM_DURATION, LO_SWITCH_DEFAULT, NULL, 0, 0,                    \
	  "kernel CPU of switching to a task woken on a socket (schedule, switch_mm, "     \
	  "switch_to), on the wakee", off(switch_in) },                                    \
	{ "ack_cost", PARAM_DURATION, LO_ACK_DEFAULT, NULL, 0, 0,                          \
	  "TCP: kernel CPU of a pure ACK through lo and its tcp_ack at the writer's "      \
	  "socket, on the reader", off(ack) },                                            \
	{ "tlb_refill", PARAM_DURATION, LO_TLB_REFILL_DEFAULT, NULL, 0, 0,                 \
	  "PV only: work refilling the TLB after each page-table switch of a system "    \
	  "call or context switch (calibrated on the 2019 dom0 netperf cells)",          \
	  off(tlb_refill) },                                                               \
	{ "tlb_page", PARAM_DURATION, LO_TLB_PAGE_DEFAULT, NULL, 0, 0,                     \
	  "PV only: TLB refill per 4 KiB page a call copies (user buffer and skb), once " \
	  "a call (calibrated on the 2019 dom0 netperf cells)", off(tlb_page) },           \
	{ "tcp_call_cost", PARAM_DURATION, LO_TCP_CALL_DEFAULT, NULL, 0, 0,                \
	  "TCP: kernel CPU of a send() appending to the unsent tail skb or a recv() "     \
	  "copying out of the head skb, neither allocating nor freeing one (calibrated "  \
	  "on the 2019 HVM-v8 HT netperf TCP cells)", off(tcp_call) },                    \
	{ "tlb_refill_tcp", PARAM_DURATION, LO_TLB_REFILL_TCP_DEFAULT, NULL, 0, 0,         \
	  "PV only: TLB refill per page-table switch of such a TCP call (no skb, IP or "  \
	  "lo pages on its path; calibrated on the 2019 dom0 HT netperf TCP cells) and "  \
	  "of an af_unix call (no IP, lo or softirq pages)",                              \
	  off(tlb_refill_tcp) }

/*
 * The CPU-cost noise of the workloads over lo (netperf, mutilate,
 * hackbench; workload_cost): noise, the coefficient of variation of each
 * batch's (burst's) CPU time, and run_noise, of a factor on all of a run's
 * costs.  what names the unit noise varies, note ends both descriptions
 * inside their parenthesis ("" for none).
 */
#define LO_NOISE_PARAMS(off, what, note)                                                \
	{ "noise", PARAM_DOUBLE, "0.05", NULL, 0, 0.5,                                     \
	  "variation of each " what " (coefficient of variation" note ")", off(noise) },  \
	{ "run_noise", PARAM_DOUBLE, "0.01", NULL, 0, 0.5,                                 \
	  "variation of all CPU costs from run to run (coefficient of variation" note ")", \
	  off(run_noise) }

/* The loopback device's MTU (drivers/net/loopback.c: 64 KiB) and TCP's MSS over it. */
#define LO_MTU 65536
#define LO_TCP_MSS 65483
/*
 * The receiver's first estimate of the sender's MSS (tcp_initialize_rcv_mss:
 * at most TCP_MSS_DEFAULT, 536), which tcp_measure_rcv_mss raises to the
 * length of any longer segment.
 */
#define LO_TCP_RCV_MSS0 536

/*
 * Linux's default socket buffers: net.core.rmem_default / wmem_default
 * (212992: SK_RMEM_MAX, 256 skbs of 832 bytes, include/net/sock.h) for a
 * UDP socket netperf does not size (-s/-S unset), and the TCP limits that
 * autotuning grows a bulk receiver and sender to (tcp_rmem[2] 6 MiB,
 * tcp_wmem[2] 4 MiB, net/ipv4/tcp.c tcp_init).
 */
#define LO_UDP_RCVBUF 212992
#define LO_TCP_RCVBUF 6291456
#define LO_TCP_SNDBUF 4194304
/* net.core.wmem_default: a Unix stream socket's sk_sndbuf unless SO_SNDBUF sets it */
#define LO_UNIX_SNDBUF 212992
/*
 * SOCK_MIN_SNDBUF (include/net/sock.h: 2 x (2048 + sk_buff's 256)): the
 * floor sock_setsockopt puts under SO_SNDBUF, what a request of 0 gives.
 */
#define LO_MIN_SNDBUF 4608

struct lo_conn;

/* A datagram run in a UDP receive queue: n datagrams of one size. */
struct lo_run {
	uint64_t n;
	uint32_t bytes;
};

struct lo_sock {
	struct lo_conn *conn;
	struct worker *owner;          /* kicked when data, room or an ACK arrives */
	/* receive side */
	uint64_t rcvbuf, rmem;         /* sk_rcvbuf, sk_rmem_alloc (truesize) */
	uint64_t deficit;              /* UDP: truesize read but not yet given back */
	struct lo_run *runs;           /* UDP: the queue, a ring of runs */
	unsigned nruns, run_head, run_cap;
	uint64_t queued;               /* UDP: datagrams queued */
	uint64_t rcv_nxt, copied;      /* TCP: bytes received, bytes read */
	uint64_t rcv_segs;             /* TCP: segments queued unread (their truesize) */
	uint64_t rcv_wup, rcv_mss;     /* TCP: rcv_nxt at the last ACK; icsk_ack.rcv_mss */
	bool ack_due;                  /* TCP: read since the last ACK */
	uint64_t head_used;            /* UNIX: bytes read of the skb at the queue's head */
	uint64_t part;                 /* UNIX: bytes queued of the send the writer is within */
	uint64_t plan_skbs;            /* UNIX: the skbs lo_send_work planned, for lo_send_commit */
	bool planned;
	/* send side (TCP, UNIX) */
	uint64_t sndbuf;
	uint64_t wmem;                 /* UNIX: sk_wmem_alloc, the truesize of its skbs unread */
	uint64_t write_seq, snd_nxt, snd_una, snd_sml, snd_wnd_end;
	bool nospace;                  /* SOCK_NOSPACE: its writer waits for room */
	/*
	 * TCP: TCP_NODELAY set on this socket (tp->nonagle's TCP_NAGLE_OFF,
	 * Linux 5.1.15 net/ipv4/tcp.c:2846-2857): Nagle never holds a short
	 * segment (tcp_nagle_check, net/ipv4/tcp_output.c:1690-1695, is false
	 * once nonagle is set), so each send() leaves as its own segment at
	 * the tcp_push that ends tcp_sendmsg_locked (tcp.c:1407) and the next
	 * send finds no unsent tail to append to (tcp.c:1269-1273).  Set by
	 * the workload after lo_conn_init (mutilate's and memcached's sockets).
	 */
	bool nodelay;
	/* counters */
	uint64_t sent, sent_bytes, received, received_bytes, drops, acks, wakes;
	stime_t debt;                  /* work incurred in commits, for the next claim */
};

struct lo_conn {
	enum lo_proto proto;
	const struct lo_costs *c;
	struct domain *dom;            /* both ends run in its guest */
	struct lo_sock end[2];
};

/*
 * Connects two sockets of proto in domain d (its type prices the system
 * calls and switches: workloads/kernel_ops.h), read and written by owner0
 * and owner1; rcvbuf and sndbuf as setsockopt would set them (0: Linux's
 * defaults above).  costs must outlive the connection.  A connection
 * without a domain has bare metal's costs and no owners (the unit tests').
 */
void lo_conn_init(struct lo_conn *c, enum lo_proto proto, const struct lo_costs *costs,
		  struct domain *d, struct worker *owner0, struct worker *owner1,
		  uint64_t rcvbuf, uint64_t sndbuf);
void lo_conn_free(struct lo_conn *c);
/* The other end. */
struct lo_sock *lo_peer(struct lo_sock *s);

/*
 * How many sends of size bytes s may make now without sleeping (UDP: no
 * limit; UNIX: the sends it may enter or go on with, the last of which
 * may stop part-way at the send buffer); 0 marks it out of space, so that
 * the ACK or the free that makes room wakes its owner.
 */
uint64_t lo_send_room(struct lo_sock *s, uint64_t size);
/*
 * The work of n sends of size bytes from s (system calls, copies, and for
 * UDP each datagram's trip through lo), plus s's debt, which it clears.
 * UNIX: the first of the n goes on with a send the writer is within, and
 * the skbs stop where the send buffer would put the writer to sleep;
 * what is planned is what the next lo_send_commit on s queues.
 */
stime_t lo_send_work(struct lo_sock *s, uint64_t n, uint64_t size);
/*
 * UNIX: lo_send_work stopping after max_skbs skbs (the rest of the send
 * goes on at the next claim, as one cut by the buffer does); the other
 * protocols ignore max_skbs.
 */
stime_t lo_send_work_skbs(struct lo_sock *s, uint64_t n, uint64_t size, uint64_t max_skbs);
/*
 * The n sends are done: UDP delivers each datagram to the peer's queue or
 * drops it; TCP queues the bytes and sends what the window and Nagle
 * allow; UNIX queues the skbs lo_send_work planned (without a plan, those
 * the send buffer takes now).  The peer's owner is kicked.  Returns the
 * datagrams dropped.  s->sent_bytes counts the bytes handed over.
 */
uint64_t lo_send_commit(struct lo_sock *s, uint64_t n, uint64_t size);

/* UDP: datagrams queued; TCP: bytes received and not read. */
uint64_t lo_recv_avail(const struct lo_sock *s);
/* What a claim took: calls, datagrams (UDP) or bytes. */
struct lo_rx {
	uint64_t calls, msgs, bytes;
	stime_t truesize;              /* UDP: the datagrams' memory, given back at commit */
	bool ack;                      /* TCP, not piggybacked: tcp_cleanup_rbuf sends an ACK */
};
/*
 * Claims up to max_calls recv() calls of at most size bytes each (a
 * datagram per call, truncated to size; TCP: up to size bytes of the
 * stream per call), taking the data off the queue; returns their work,
 * plus s's debt, which it clears (0 calls: none).  A TCP claim that reads
 * acknowledges at its commit: add the ACK's work unless the task answers
 * on this socket in the same batch (piggyback).
 */
stime_t lo_recv_claim(struct lo_sock *s, uint64_t max_calls, uint64_t size, bool piggyback,
		      struct lo_rx *rx);
/*
 * The claimed receive is done: the memory is given back (UDP: by
 * forward_deficit's quarter steps), and TCP acknowledges (piggyback: the
 * ACK goes with the next send on s, which the task makes in this batch).
 */
void lo_recv_commit(struct lo_sock *s, const struct lo_rx *rx, bool piggyback);

/* A datagram's skb truesize on lo (__ip_append_data, __alloc_skb, SKB_TRUESIZE). */
uint64_t lo_udp_truesize(uint64_t payload);
/*
 * UNIX: the payload bytes of the skbs unix_stream_sendmsg cuts from a send
 * on a socket whose sk_sndbuf is sndbuf (the last one may be shorter), and
 * the truesize of an skb of payload bytes (sock_alloc_send_pskb ->
 * alloc_skb_with_frags: the linear part's kmalloc and struct sk_buff, plus
 * whole pages for the fragments).
 */
uint64_t lo_unix_chunk(uint64_t sndbuf);
uint64_t lo_unix_truesize(uint64_t payload);

/*
 * What n socket calls or switches of kind op cost beyond bare metal in a
 * domain of type t, each call copying bytes: in a PV domain the TLB refill
 * after each page-table switch (c->tlb_refill), and once a call the pages
 * its copy touches, the user buffer's and the skb's (2 x bytes / 4 KiB
 * pages of c->tlb_page each), spread over the call's switches.
 */
stime_t lo_kernel_cost(const struct lo_costs *c, enum domain_type t, enum kernel_op op,
		       uint64_t n, uint64_t bytes);

#endif
