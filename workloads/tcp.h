/*
 * One TCP stream's flow control, as Linux 4.x (2016) applies it to a bulk
 * sender, kept apart from the machine so it can be tested alone.  Bytes
 * are counted from the start of the stream (64-bit, never wrapping).
 *
 * Sender (the guest):
 *   write_seq   bytes the application wrote into the socket (tcp_sendmsg)
 *   snd_nxt     bytes handed to the device (tcp_write_xmit)
 *   tx_freed    bytes whose skbs the driver has freed (TX completion:
 *               xennet_tx_buf_gc -> tcp_wfree)
 *   snd_una     bytes acknowledged (tcp_ack -> tcp_clean_rtx_queue)
 *   snd_wnd_end right edge of the receiver's window from the last ACK
 *
 * Three limits, each Linux's own:
 *   - TCP Small Queues (net/ipv4/tcp_output.c, tcp_write_xmit): no skb is
 *     sent while the socket's skbs not yet freed by the driver
 *     (sk_wmem_alloc, in truesize) exceed tcp_limit_output_bytes
 *     (262144 since c39c4c6abb89, Linux 4.2: "Xen virtual network driver
 *     has higher latency than a physical NIC"); a 64 KiB GSO skb's
 *     truesize is its payload plus the skb's head and metadata;
 *   - the receive window (tcp_snd_wnd_test): snd_nxt + segment may not
 *     pass snd_wnd_end;
 *   - the send buffer (tcp_sendmsg -> sk_stream_wait_memory): the writer
 *     sleeps while sk_wmem_queued (unacknowledged and unsent bytes, in
 *     truesize) reaches sk_sndbuf, and is woken (sk_stream_write_space)
 *     once the free space is at least half of what is queued
 *     (include/net/sock.h, sk_stream_is_writeable).
 * The congestion window is not modelled: the path is one host, loss-free,
 * and Linux grows cwnd while the flow is cwnd-limited (tcp_is_cwnd_limited),
 * so it ends above the bytes in flight and never binds.
 *
 * Receiver (dom0): the advertised window is tcp_win_from_space of the
 * free receive buffer (include/net/tcp.h: space - space >> adv_win_scale),
 * the buffer autotuned to tcp_rmem[2] (tcp_rcv_space_adjust); the ACK
 * acknowledges what TCP has processed.
 */
#ifndef SCHEDSIM_TCP_H
#define SCHEDSIM_TCP_H

#include <stdbool.h>
#include <stdint.h>

struct tcp_params {
	uint64_t segment;          /* bytes per GSO segment */
	uint64_t skb_overhead;     /* truesize - payload of a segment's skb */
	uint64_t limit_output;     /* tcp_limit_output_bytes */
	uint64_t sndbuf;           /* sk_sndbuf (tcp_wmem[2] once autotuned) */
	uint64_t rcvbuf;           /* sk_rcvbuf (tcp_rmem[2] once autotuned) */
	int adv_win_scale;         /* tcp_adv_win_scale */
};

/* Why the sender cannot put its next segment on the device now. */
enum tcp_limit {
	TCP_CAN_SEND,              /* nothing stops it */
	TCP_NO_DATA,               /* less than a segment written and unsent */
	TCP_TSQ,                   /* TCP Small Queues: the driver holds too much */
	TCP_RWND,                  /* the receive window is full */
};

struct tcp_stream {
	struct tcp_params p;
	uint64_t write_seq, snd_nxt, tx_freed, snd_una, snd_wnd_end;
	uint64_t rcv_nxt;          /* receiver: bytes processed, what it ACKs */
};

/* A stream whose receiver has announced its full window. */
void tcp_init(struct tcp_stream *t, const struct tcp_params *p);

/* Sender. */
/* True while the application may write 'bytes' more without sleeping. */
bool tcp_may_write(const struct tcp_stream *t, uint64_t bytes);
/* sk_stream_is_writeable: wake a writer sleeping for memory. */
bool tcp_writeable(const struct tcp_stream *t);
void tcp_write(struct tcp_stream *t, uint64_t bytes);
enum tcp_limit tcp_send_limit(const struct tcp_stream *t);
/* Puts the next segment on the device (tcp_send_limit said TCP_CAN_SEND). */
void tcp_send(struct tcp_stream *t);
/* The driver freed 'bytes' of sent segments (TX completion). */
void tcp_tx_freed(struct tcp_stream *t, uint64_t bytes);
/* An ACK of 'ack' with window right edge 'wnd_end' (older ones ignored). */
void tcp_ack(struct tcp_stream *t, uint64_t ack, uint64_t wnd_end);

/* Receiver. */
/* The window it announces with nothing queued unread. */
uint64_t tcp_rcv_window(const struct tcp_params *p);

#endif
