/*
 * Sockets over lo (workloads/loopback.h) piece by piece: a datagram's
 * truesize, UDP's drops and its memory given back by quarters, TCP's send
 * buffer, window, Nagle and ACKs, the work each call costs; and netperf
 * on lo against timings worked out by hand on a host where every vCPU has
 * its own pCPU (the null scheduler, the ideal machine, free switches).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_suite.h"
#include "tests/testlib.h"
#include "workloads/loopback.h"

static const struct lo_costs costs = {
	.send_call = 1000, .packet = 2000, .recv_call = 500, .copy = 0.5, .wake = 3000,
	.ack = 700,
};

/*
 * A connected pair on lo: c's two ends, the writer end[0] as *tx and its
 * peer end[1] as *rx; rcvbuf and sndbuf 0 for Linux's defaults.  Free with
 * lo_conn_free.
 */
static void lo_pair(struct lo_conn *c, enum lo_proto proto, const struct lo_costs *k,
		    uint64_t rcvbuf, uint64_t sndbuf, struct lo_sock **tx, struct lo_sock **rx)
{
	lo_conn_init(c, proto, k, NULL, NULL, NULL, rcvbuf, sndbuf);
	*tx = &c->end[0];
	*rx = &c->end[1];
}

/* --- a datagram's memory --- */

/*
 * 64 bytes: 64 + 28 + 16 + 15 = 123, aligned 128, with the shared info
 * 448, kmalloc-512, and struct sk_buff: 768.  8 KiB: 8251 -> 8256 + 320,
 * past kmalloc's 8 KiB caches, an order-2 page block: 16384 + 256.
 */
START_TEST(udp_truesize_is_linuxs)
{
	ck_assert_uint_eq(lo_udp_truesize(64), 768);
	ck_assert_uint_eq(lo_udp_truesize(1024), 2048 + 256);
	ck_assert_uint_eq(lo_udp_truesize(8192), 16384 + 256);
	ck_assert_uint_eq(lo_udp_truesize(16384), 32768 + 256);
}
END_TEST

/* --- UDP --- */

/*
 * The default buffer (212992) takes datagrams while its memory is at most
 * the buffer: 277 of 768 bytes fill 212736, the 278th is still charged, the
 * rest of 300 are dropped.
 */
START_TEST(udp_drops_past_the_receive_buffer)
{
	struct lo_conn c;
	struct lo_sock *tx, *rx;

	lo_pair(&c, LO_UDP, &costs, 0, 0, &tx, &rx);
	ck_assert_ptr_eq(lo_peer(tx), rx);
	ck_assert_ptr_eq(lo_peer(rx), tx);
	ck_assert_uint_eq(lo_send_room(tx, 64), UINT64_MAX);
	ck_assert_uint_eq(lo_send_commit(tx, 300, 64), 22);
	ck_assert_uint_eq(rx->drops, 22);
	ck_assert_uint_eq(lo_recv_avail(rx), 278);
	ck_assert_uint_eq(rx->rmem, 278 * 768);
	/* full: everything is dropped until the reader gives memory back */
	ck_assert_uint_eq(lo_send_commit(tx, 5, 64), 5);
	lo_conn_free(&c);
}
END_TEST

/*
 * The reader gives memory back only when a quarter of the buffer (53248
 * bytes, 70 datagrams of 768) is due: reading 60 frees nothing, 10 more
 * free all 70.
 */
START_TEST(udp_memory_comes_back_by_quarters)
{
	struct lo_conn c;
	struct lo_sock *tx, *rx;
	struct lo_rx r;
	stime_t work;

	lo_pair(&c, LO_UDP, &costs, 0, 0, &tx, &rx);
	lo_send_commit(tx, 100, 64);
	work = lo_recv_claim(rx, 60, 64, false, &r);
	/* 60 calls of 500 ns and 60 x 64 bytes at 0.5 ns */
	ck_assert_int_eq(work, 60 * 500 + 60 * 32);
	ck_assert_uint_eq(r.msgs, 60);
	ck_assert_uint_eq(lo_recv_avail(rx), 40);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(rx->rmem, 100 * 768);
	lo_recv_claim(rx, 10, 64, false, &r);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(rx->rmem, 30 * 768);
	ck_assert_uint_eq(rx->deficit, 0);
	lo_conn_free(&c);
}
END_TEST

/* A send's work: the calls, the copies, each datagram's trip through lo. */
START_TEST(udp_send_work_counts_calls_copies_and_packets)
{
	struct lo_conn c;
	struct lo_sock *tx, *rx;

	lo_pair(&c, LO_UDP, &costs, 0, 0, &tx, &rx);
	ck_assert_int_eq(lo_send_work(tx, 10, 1000), 10 * (1000 + 2000 + 500));
	/* a recv buffer smaller than the datagram truncates it */
	lo_send_commit(tx, 2, 1000);
	{
		struct lo_rx r;

		lo_recv_claim(rx, 5, 100, false, &r);
		ck_assert_uint_eq(r.calls, 2);
		ck_assert_uint_eq(r.bytes, 200);
	}
	lo_conn_free(&c);
}
END_TEST

/* --- TCP --- */

/*
 * Minshall's Nagle: the first short write goes at once, the next ones wait
 * while it is unacknowledged and go out as one segment when the reader's
 * ACK comes, pushed in the reader's context (its debt: the ACK and the
 * segment's trip through lo).
 */
START_TEST(tcp_short_writes_coalesce_until_the_ack)
{
	struct lo_conn c;
	struct lo_sock *tx, *rx;
	struct lo_rx r;
	stime_t work;

	lo_pair(&c, LO_TCP, &costs, 0, 0, &tx, &rx);
	ck_assert_int_eq(lo_send_work(tx, 1, 100), 1000 + 50);
	lo_send_commit(tx, 1, 100);
	ck_assert_uint_eq(lo_recv_avail(rx), 100);
	ck_assert_int_eq(tx->debt, 2000);
	lo_send_commit(tx, 5, 100);
	lo_send_commit(tx, 5, 100);
	ck_assert_uint_eq(lo_recv_avail(rx), 100);
	ck_assert_uint_eq(tx->sent, 1);
	/* one call reads the 100 bytes and acknowledges them: a pure ACK */
	work = lo_recv_claim(rx, 4, 4096, false, &r);
	ck_assert_int_eq(work, 500 + 50 + 700);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(tx->snd_una, 100);
	ck_assert_uint_eq(tx->sent, 2);
	ck_assert_uint_eq(lo_recv_avail(rx), 1000);
	ck_assert_int_eq(rx->debt, 2000);
	lo_conn_free(&c);
}
END_TEST

/*
 * An ACK owed rides on data sent back (a request answered): no pure ACK's
 * work, and the writer's buffer is freed when that data goes.
 */
START_TEST(tcp_ack_rides_on_the_answer)
{
	struct lo_conn c;
	struct lo_sock *cl, *sv;
	struct lo_rx r;

	lo_pair(&c, LO_TCP, &costs, 0, 0, &cl, &sv);
	lo_send_commit(cl, 1, 1);
	ck_assert_int_eq(lo_recv_claim(sv, 1, 1, true, &r), 500 + 0);
	lo_recv_commit(sv, &r, true);
	ck_assert_uint_eq(cl->snd_una, 0);
	ck_assert_uint_eq(sv->acks, 0);
	lo_send_commit(sv, 1, 1);
	ck_assert_uint_eq(cl->snd_una, 1);
	ck_assert_uint_eq(sv->acks, 1);
	ck_assert_uint_eq(lo_recv_avail(cl), 1);
	lo_conn_free(&c);
}
END_TEST

/*
 * The writer may queue up to its send buffer (in truesize); what the
 * window does not take waits; an ACK of data read opens both.
 */
START_TEST(tcp_send_buffer_and_window_hold_the_writer)
{
	struct lo_conn c;
	struct lo_sock *tx, *rx;
	struct lo_rx r;

	/* a 256 KiB receive buffer: a 128 KiB window; a 200000-byte send buffer */
	lo_pair(&c, LO_TCP, &costs, 262144, 200000, &tx, &rx);
	ck_assert_uint_eq(lo_send_room(tx, 10000), 21);
	lo_send_commit(tx, 19, 10000);
	/* two full segments fit the window, the third (a part one) would not */
	ck_assert_uint_eq(lo_recv_avail(rx), 131072);
	ck_assert_uint_eq(lo_send_room(tx, 10000), 1);
	lo_send_commit(tx, 1, 10000);
	ck_assert_uint_eq(lo_send_room(tx, 10000), 0);
	lo_recv_claim(rx, 1000, 65536, false, &r);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(tx->snd_una, 131072);
	ck_assert_uint_eq(lo_recv_avail(rx), 200000 - 131072);
	ck_assert(lo_send_room(tx, 10000) > 10);
	lo_conn_free(&c);
}
END_TEST

/*
 * Every TCP call's pricing (tcp_call 100 ns): a send that appends to the
 * unsent tail skb costs tcp_call, one that starts an skb send_call; a
 * recv that copies out of the head skb without freeing it tcp_call, the
 * one that frees it recv_call.
 */
START_TEST(tcp_calls_without_an_skb_cost_tcp_call)
{
	struct lo_costs k = costs;
	struct lo_conn c;
	struct lo_sock *tx, *rx;
	struct lo_rx r;

	k.tcp_call = 100;
	lo_pair(&c, LO_TCP, &k, 0, 0, &tx, &rx);
	/* nothing unsent: the first send starts an skb, the other 9 append */
	ck_assert_int_eq(lo_send_work(tx, 10, 100), 1000 + 9 * 100 + 10 * 50);
	lo_send_commit(tx, 1, 100);     /* pushed at once: nothing unsent again */
	lo_send_commit(tx, 5, 100);     /* held by Nagle: 500 bytes unsent */
	ck_assert_int_eq(lo_send_work(tx, 4, 100), 2000 + 4 * 100 + 4 * 50);  /* the push's packet */
	/* the one segment of 100 bytes read in 4 calls of 25: the last frees it */
	ck_assert_int_eq(lo_recv_claim(rx, 4, 25, false, &r), 3 * 100 + 500 + 50 + 700);
	lo_recv_commit(rx, &r, false);
	lo_conn_free(&c);
}
END_TEST

/*
 * TCP_NODELAY (mutilate's and memcached's sockets): Nagle holds no short
 * segment, so a send behind an unacknowledged short one leaves at once,
 * and each send of a batch is its own segment, each starting its own skb
 * (send_call) and paying its own trip through lo (packet, the writer's
 * debt).  Without it (netperf's) the second send waits for the ACK.
 */
START_TEST(tcp_nodelay_sends_each_call_at_once)
{
	struct lo_costs k = costs;
	struct lo_conn c;
	struct lo_sock *tx, *rx;

	k.tcp_call = 100;
	/* Nagle: the second short send waits behind the first */
	lo_pair(&c, LO_TCP, &k, 0, 0, &tx, &rx);
	lo_send_commit(tx, 1, 100);
	lo_send_commit(tx, 1, 100);
	ck_assert_uint_eq(tx->sent, 1);
	ck_assert_uint_eq(lo_recv_avail(rx), 100);
	/* three sends after it append to the held 100 bytes: no skb started */
	tx->debt = 0;
	ck_assert_int_eq(lo_send_work(tx, 3, 100), 3 * 100 + 3 * 50);
	lo_conn_free(&c);

	lo_pair(&c, LO_TCP, &k, 0, 0, &tx, &rx);
	tx->nodelay = true;
	lo_send_commit(tx, 1, 100);
	lo_send_commit(tx, 1, 100);
	ck_assert_uint_eq(tx->sent, 2);
	ck_assert_uint_eq(lo_recv_avail(rx), 200);
	/* nothing unsent: each of three sends starts an skb */
	ck_assert_int_eq(lo_send_work(tx, 3, 100), 2 * 2000 + 3 * 1000 + 3 * 50);
	lo_send_commit(tx, 3, 100);
	ck_assert_uint_eq(tx->sent, 5);
	ck_assert_uint_eq(rx->rcv_segs, 5);
	ck_assert_int_eq(tx->debt, 3 * 2000);
	lo_conn_free(&c);
}
END_TEST

/*
 * tcp_cleanup_rbuf: a read that leaves data queued acknowledges only once
 * more than rcv_mss (536 until a longer segment is seen) arrived since the
 * last ACK; a read that empties the queue acknowledges.
 */
START_TEST(tcp_reader_acks_on_rcv_mss_or_an_empty_queue)
{
	struct lo_conn c;
	struct lo_sock *tx, *rx;
	struct lo_rx r;

	lo_pair(&c, LO_TCP, &costs, 0, 0, &tx, &rx);
	lo_send_commit(tx, 1, 400);
	ck_assert_uint_eq(rx->rcv_mss, 536);
	/* 100 of 400 read: 400 arrived, not more than 536, data left: no ACK */
	ck_assert_int_eq(lo_recv_claim(rx, 1, 100, false, &r), 500 + 50);
	ck_assert(!r.ack);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(rx->acks, 0);
	ck_assert_uint_eq(tx->snd_una, 0);
	/*
	 * the rest empties the queue: an ACK.  The segment's skb was counted
	 * freed by the first read, which reached into it (tcp_segs_read's
	 * share, rounded up), so these three copy out without freeing one:
	 * tcp_call each, 0 here
	 */
	ck_assert_int_eq(lo_recv_claim(rx, 3, 100, false, &r), 3 * 0 + 150 + 700);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(rx->acks, 1);
	ck_assert_uint_eq(tx->snd_una, 400);
	/* a 1000-byte segment raises rcv_mss; 1000 arrived is not more than it */
	lo_send_commit(tx, 1, 1000);
	ck_assert_uint_eq(rx->rcv_mss, 1000);
	lo_recv_claim(rx, 1, 100, false, &r);
	ck_assert(!r.ack);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(rx->acks, 1);
	lo_conn_free(&c);
}
END_TEST

/* --- Unix stream sockets (LO_UNIX) --- */

/*
 * af_unix's skbs: linear up to SKB_MAX_HEAD(0), 3776 bytes (64: kmalloc-512
 * and struct sk_buff, 768; 2048 and 3776: kmalloc-4096, 4352); beyond it
 * the page-aligned part in fragments (8192: an empty head, 768, and two
 * pages).  A send is cut at half the buffer less 64, and at most
 * 3776 + 32 KiB.
 */
START_TEST(unix_skbs_are_af_unixs)
{
	ck_assert_uint_eq(lo_unix_truesize(64), 768);
	ck_assert_uint_eq(lo_unix_truesize(256), 1280);
	ck_assert_uint_eq(lo_unix_truesize(2048), 4352);
	ck_assert_uint_eq(lo_unix_truesize(3776), 4352);
	ck_assert_uint_eq(lo_unix_truesize(8192), 768 + 8192);
	ck_assert_uint_eq(lo_unix_truesize(36544), 4352 + 32768);
	ck_assert_uint_eq(lo_unix_chunk(212992), 36544);
	ck_assert_uint_eq(lo_unix_chunk(4608), 2240);
}
END_TEST

/*
 * The writer is charged its skbs' truesize: with the default 212992 it
 * allocates while below the buffer, 278 sends of 64 bytes (213504), then
 * waits; the reader's frees wake it only once the charge is a quarter of
 * the buffer (53248): 200 skbs read leave 59904, 10 more 52224.
 */
START_TEST(unix_send_buffer_holds_the_writer_to_a_quarter)
{
	struct lo_conn c;
	struct lo_sock *tx, *rx;
	struct lo_rx r;

	lo_pair(&c, LO_UNIX, &costs, 0, 0, &tx, &rx);
	ck_assert_uint_eq(lo_send_room(tx, 64), 278);
	ck_assert_uint_eq(lo_send_commit(tx, 278, 64), 0);
	ck_assert_uint_eq(tx->wmem, 278 * 768);
	ck_assert_uint_eq(lo_recv_avail(rx), 278 * 64);
	ck_assert_uint_eq(lo_send_room(tx, 64), 0);
	ck_assert(tx->nospace);
	lo_recv_claim(rx, 200, 64, false, &r);
	ck_assert_uint_eq(r.msgs, 200);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(tx->wmem, 78 * 768);
	ck_assert(tx->nospace);
	lo_recv_claim(rx, 10, 64, false, &r);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(tx->wmem, 68 * 768);
	ck_assert(!tx->nospace);
	lo_conn_free(&c);
}
END_TEST

/*
 * A recv() fills its buffer across skbs and frees those it empties: 2500
 * bytes of three 1000-byte sends empty two (2 x 2304 of truesize), the
 * next read the third.  A send costs its call and copy, no packet; a
 * receive its call and copy, no ACK; a send above the cut (200000 bytes:
 * five skbs of 36544 and one of 17280) one call per skb.
 */
START_TEST(unix_reads_cross_skbs_and_sends_pay_no_packet)
{
	struct lo_conn c;
	struct lo_sock *tx, *rx;
	struct lo_rx r;
	stime_t work;

	lo_pair(&c, LO_UNIX, &costs, 0, 0, &tx, &rx);
	ck_assert_int_eq(lo_send_work(tx, 3, 1000), 3 * (1000 + 500));
	lo_send_commit(tx, 3, 1000);
	work = lo_recv_claim(rx, 1, 2500, false, &r);
	ck_assert_int_eq(work, 500 + 1250);
	ck_assert_uint_eq(r.bytes, 2500);
	ck_assert_uint_eq(r.msgs, 2);
	ck_assert_int_eq(r.truesize, 2 * 2304);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(tx->wmem, 2304);
	lo_recv_claim(rx, 5, 2500, false, &r);
	ck_assert_uint_eq(r.calls, 1);
	ck_assert_uint_eq(r.bytes, 500);
	ck_assert_uint_eq(r.msgs, 1);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(tx->wmem, 0);
	ck_assert_uint_eq(lo_recv_avail(rx), 0);
	ck_assert_int_eq(lo_send_work(tx, 1, 200000), 6 * 1000 + 100000);
	lo_send_commit(tx, 1, 200000);
	ck_assert_uint_eq(tx->wmem, 5 * (4352 + 32768) + lo_unix_truesize(17280));
	ck_assert_uint_eq(tx->sent, 3 + 6);
	lo_recv_claim(rx, 1, 200000, false, &r);
	ck_assert_uint_eq(r.msgs, 6);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(tx->wmem, 0);
	lo_conn_free(&c);
}
END_TEST

/*
 * netperf 2.4.5's buffer: SO_SNDBUF 0, raised to SOCK_MIN_SNDBUF (4608).
 * A send is cut at 4608 / 2 - 64 = 2240 bytes (kmalloc-4096 and struct
 * sk_buff: 4352 of truesize each), and the writer allocates while its
 * charge is below 4608: six skbs of 64 bytes; of an 8 KiB send two
 * skbs (8704), then it sleeps part-way through the send.  Woken once the
 * reader has freed both (the charge at most 1152), it goes on with the
 * same send: 2240 bytes and the last 1472 (2304), no new system call.
 */
START_TEST(unix_writer_stops_part_way_at_a_small_buffer)
{
	struct lo_conn c;
	struct lo_sock *tx, *rx;
	struct lo_rx r;

	lo_pair(&c, LO_UNIX, &costs, 0, LO_MIN_SNDBUF, &tx, &rx);
	ck_assert_uint_eq(lo_unix_chunk(LO_MIN_SNDBUF), 2240);
	ck_assert_uint_eq(lo_unix_truesize(2240), 4352);
	ck_assert_uint_eq(lo_unix_truesize(1472), 2304);
	ck_assert_uint_eq(lo_send_room(tx, 64), 6);
	ck_assert_uint_eq(lo_send_room(tx, 8192), 1);
	ck_assert_int_eq(lo_send_work(tx, 1, 8192), 2 * 1000 + 4480 / 2);
	lo_send_commit(tx, 1, 8192);
	ck_assert_uint_eq(tx->wmem, 2 * 4352);
	ck_assert_uint_eq(tx->part, 4480);
	ck_assert_uint_eq(tx->sent_bytes, 4480);
	ck_assert_uint_eq(lo_recv_avail(rx), 4480);
	ck_assert_uint_eq(lo_send_room(tx, 8192), 0);
	ck_assert(tx->nospace);
	/* one skb read: 4352 left, above a quarter; the writer still waits */
	lo_recv_claim(rx, 1, 2240, false, &r);
	lo_recv_commit(rx, &r, false);
	ck_assert(tx->nospace);
	lo_recv_claim(rx, 1, 8192, false, &r);
	ck_assert_uint_eq(r.bytes, 2240);
	lo_recv_commit(rx, &r, false);
	ck_assert_uint_eq(tx->wmem, 0);
	ck_assert(!tx->nospace);
	/* the rest of the send: no system call entered, two skbs */
	ck_assert_uint_eq(lo_send_room(tx, 8192), 1);
	ck_assert_int_eq(lo_send_work(tx, 1, 8192), 2 * 1000 + 3712 / 2);
	lo_send_commit(tx, 1, 8192);
	ck_assert_uint_eq(tx->part, 0);
	ck_assert_uint_eq(tx->wmem, 4352 + 2304);
	ck_assert_uint_eq(tx->sent_bytes, 8192);
	ck_assert_uint_eq(tx->sent, 4);
	/* a commit without a plan queues what the buffer takes: nothing at 6656 */
	lo_send_commit(tx, 1, 8192);
	ck_assert_uint_eq(tx->sent, 4);
	lo_conn_free(&c);
}
END_TEST

/*
 * A writer whose reader sleeps plans one skb at a time (netperf's batch
 * then, lo_send_work_skbs): of an 8 KiB send the first 2240-byte skb is
 * claimed, costs its call and copy, and reaches the reader at its commit;
 * the rest of the send goes on without a new call, as far as the buffer
 * takes it (one more skb: 4352 + 4352 reaches 4608).
 */
START_TEST(unix_writer_hands_over_one_skb_at_a_time)
{
	struct lo_conn c;
	struct lo_sock *tx, *rx;

	lo_pair(&c, LO_UNIX, &costs, 0, LO_MIN_SNDBUF, &tx, &rx);
	ck_assert_int_eq(lo_send_work_skbs(tx, 1, 8192, 1), 1000 + 2240 / 2);
	lo_send_commit(tx, 1, 8192);
	ck_assert_uint_eq(lo_recv_avail(rx), 2240);
	ck_assert_uint_eq(tx->part, 2240);
	ck_assert_uint_eq(tx->wmem, 4352);
	ck_assert_uint_eq(tx->sent, 1);
	ck_assert_int_eq(lo_send_work_skbs(tx, 1, 8192, UINT64_MAX), 1000 + 2240 / 2);
	lo_send_commit(tx, 1, 8192);
	ck_assert_uint_eq(tx->part, 4480);
	ck_assert_uint_eq(lo_recv_avail(rx), 4480);
	ck_assert_uint_eq(lo_send_room(tx, 8192), 0);
	lo_conn_free(&c);
}
END_TEST

/* --- netperf on a running machine --- */

#define HOST "<host sockets=\"1\" cores-per-socket=\"4\" ipi-latency=\"0\" context-switch=\"0\" hw=\"ideal\"/>"

/* netperf with attrs on bare metal (no extra kernel work), or in a domain of type. */
static char *netperf_xml(const char *type, const char *attrs)
{
	static char buf[2048];

	snprintf(buf, sizeof(buf),
		 "<scenario duration=\"100s\">" HOST
		 "<domain name=\"d\" vcpus=\"4\" type=\"%s\"><workload type=\"netperf\""
		 " noise=\"0\" run_noise=\"0\" warmup=\"10ms\" copy_cost=\"0\""
		 " %s/></domain></scenario>", type, attrs);
	return buf;
}

static void run_netperf_in(const char *type, const char *attrs, struct run_result *r)
{
	struct run_options o = { .check = true };

	test_run(netperf_xml(type, attrs), "null", &o, r);
	ck_assert_msg(r->check_error[0] == '\0', "invariant: %s", r->check_error);
	ck_assert_msg(r->metric.valid, "no metric");
}

static void run_netperf(const char *attrs, struct run_result *r)
{
	run_netperf_in("native", attrs, r);
}

static double netperf_metric_in(const char *type, const char *attrs)
{
	struct run_result r;
	double v;

	run_netperf_in(type, attrs, &r);
	v = r.metric.value;
	run_result_free(&r);
	return v;
}

static double netperf_metric(const char *attrs)
{
	return netperf_metric_in("native", attrs);
}

static void assert_near(double got, double want, double tol, const char *what)
{
	ck_assert_msg(got > want * (1 - tol) && got < want * (1 + tol), "%s %.4f, expected %.4f",
		      what, got, want);
}

/*
 * The sender alone bounds UDP_STREAM: 1 us of call and 1 us of packet per
 * 1000-byte datagram is 4000 Mbit/s, whatever the receiver does.  With a
 * wake-up of 2 us, each batch of 25 datagrams (50 us) finds the receiver
 * asleep (it reads them in 25 us) and pays one wake-up: 52 us a batch.  In
 * a PV domain each send's system call costs kernel_ops.h's PV system call
 * more (160 ns): 1000 bytes in 2.16 us; and the TLB refills after its two
 * page-table switches (tlb_refill each) and of the two pages' worth its
 * copy touches (user buffer and skb, 2 x 1000 / 4096 pages of tlb_page):
 * with 100 ns and 2048 ns, 200 + 1000 ns more, 3.36 us.  In an HVM domain the TLB
 * refills cost nothing, but each batch's wake-up of the receiver on
 * another vCPU is an event-channel hypercall, a VM exit on the sender's
 * path (kernel_wake_cost): 50.5 us a batch.
 */
START_TEST(netperf_udp_stream_is_the_senders_rate)
{
	const char *base = "time=\"200ms\" batch_time=\"50us\" size=\"1000\" send_cost=\"1us\" "
			   "packet_cost=\"1us\" recv_cost=\"1us\"";
	char a[512];
	double pv;

	snprintf(a, sizeof(a), "%s wake_cost=\"0\"", base);
	assert_near(netperf_metric(a), 4000, 0.002, "Mbit/s");
	snprintf(a, sizeof(a), "%s wake_cost=\"2us\"", base);
	assert_near(netperf_metric(a), 25 * 8000.0 / 52, 0.002, "Mbit/s with wake-ups");
	snprintf(a, sizeof(a), "%s wake_cost=\"0\" tlb_refill=\"0\" tlb_page=\"0\"", base);
	pv = 2 + kernel_op_cost_ns(DOMAIN_PV, KOP_SYSCALL) / 1e3;
	assert_near(netperf_metric_in("pv", a), 8000 / pv, 0.002, "Mbit/s in PV");
	snprintf(a, sizeof(a), "%s wake_cost=\"0\" tlb_refill=\"100ns\" tlb_page=\"2048ns\"", base);
	assert_near(netperf_metric_in("pv", a), 8000 / (pv + 1.2), 0.002,
		    "Mbit/s in PV with TLB refills");
	assert_near(netperf_metric_in("hvm", a),
		    25 * 8000.0 / (50 + kernel_wake_cost(DOMAIN_HVM, WAKE_IPI_SEND) / 1e3), 0.002,
		    "Mbit/s in HVM with TLB refills set");
}
END_TEST

/*
 * A receiver slower than the sender (10 us a datagram against 2) keeps up
 * with a fifth: the sender's figure stays 4000 Mbit/s, the receiver's is
 * 800, and the rest is dropped at its full buffer.
 */
START_TEST(netperf_udp_receiver_drops_what_it_cannot_take)
{
	const char *base = "time=\"200ms\" size=\"1000\" send_cost=\"1us\" packet_cost=\"1us\" recv_cost=\"10us\""
			   " wake_cost=\"0\"";
	char a[512];

	snprintf(a, sizeof(a), "%s figure=\"send\"", base);
	assert_near(netperf_metric(a), 4000, 0.002, "sent Mbit/s");
	snprintf(a, sizeof(a), "%s figure=\"recv\"", base);
	assert_near(netperf_metric(a), 800, 0.01, "received Mbit/s");
}
END_TEST

/*
 * TCP_RR is one transaction at a time: netperf reads the response (10 us)
 * and sends the next request (10 us call, 10 us packet), netserver does the
 * same: 60 us a transaction, 16667 a second, and every transaction 60 us.
 * Each side sleeps for the other's answer: switching back to it (5 us)
 * makes 70 us.
 */
START_TEST(netperf_tcp_rr_is_a_chain_of_calls)
{
	const char *base = "time=\"200ms\" test=\"TCP_RR\" send_cost=\"10us\" packet_cost=\"10us\" "
			   "recv_cost=\"10us\" wake_cost=\"0\" switch_cost=\"0\"";
	char a[512];

	assert_near(netperf_metric(base), 1e6 / 60, 0.002, "transactions/s");
	snprintf(a, sizeof(a), "time=\"200ms\" test=\"TCP_RR\" send_cost=\"10us\" "
		 "packet_cost=\"10us\" recv_cost=\"10us\" wake_cost=\"0\" switch_cost=\"5us\"");
	assert_near(netperf_metric(a), 1e6 / 70, 0.002, "transactions/s with switches");
	snprintf(a, sizeof(a), "%s figure=\"p50\"", base);
	/* the histogram knows a value within 1/16 of it, and gives its bucket's top */
	assert_near(netperf_metric(a), 60, 0.07, "p50 us");
	snprintf(a, sizeof(a), "%s figure=\"p99\" ", base);
	assert_near(netperf_metric(a), 60, 0.07, "p99 us");
}
END_TEST

/*
 * A TCP receiver slower than its sender (100-byte reads of 1 us each, 10
 * a 1000-byte write of 1 us, whether a call starts or frees an skb or
 * not; packets and ACKs free, as the reader's ACKs push segments in its
 * own context) sets the rate, 800 Mbit/s: TCP's window and the send
 * buffer hold netperf, asleep on the buffer most of the time.
 */
START_TEST(netperf_tcp_stream_is_held_by_a_slow_reader)
{
	struct run_result r;
	const struct breakdown_stage *st;
	stime_t sndbuf = 0, total;

	run_netperf("test=\"TCP_STREAM\" size=\"1000\" recv_size=\"100\" send_cost=\"1us\""
		    " packet_cost=\"0\" switch_cost=\"0\" recv_cost=\"1us\" tcp_call_cost=\"1us\""
		    " wake_cost=\"0\" ack_cost=\"0\" time=\"1s\"", &r);
	assert_near(r.metric.value, 800, 0.003, "Mbit/s");
	ck_assert(r.breakdown.valid);
	st = &r.breakdown.stages[0];
	ck_assert_str_eq(st->name, "netperf");
	total = breakdown_stage_total(st);
	for (int i = 0; i < st->nparts; i++)
		if (!strcmp(st->parts[i].name, "blocked:sndbuf"))
			sndbuf = st->parts[i].ns;
	ck_assert_msg(sndbuf > total / 2, "blocked on the send buffer %lld of %lld",
		      (long long)sndbuf, (long long)total);
	ck_assert_int_eq(total, r.breakdown.to_ns - r.breakdown.from_ns);
	run_result_free(&r);
}
END_TEST

/*
 * STREAM_STREAM with Linux's default buffer (212992, netperf 2.6's -1): a
 * reader slower than the writer (10 us per 1000-byte read against 1 us a
 * send) sets the rate, 800 Mbit/s, the writer asleep on its send buffer
 * most of the time; the other way round the writer sets it (10 us a
 * send), and no packet is paid (packet_cost 100 us).
 */
START_TEST(netperf_stream_stream_is_the_slower_ends_rate)
{
	const char *base = "test=\"STREAM_STREAM\" size=\"1000\" packet_cost=\"100us\" "
			   "switch_cost=\"0\" wake_cost=\"0\" time=\"1s\" sndbuf=\"212992\"";
	char a[512];
	struct run_result r;
	const struct breakdown_stage *st;
	stime_t sndbuf = 0, total;

	snprintf(a, sizeof(a), "%s send_cost=\"1us\" recv_cost=\"10us\"", base);
	run_netperf(a, &r);
	assert_near(r.metric.value, 800, 0.003, "Mbit/s");
	ck_assert(r.breakdown.valid);
	st = &r.breakdown.stages[0];
	ck_assert_str_eq(st->name, "netperf");
	total = breakdown_stage_total(st);
	for (int i = 0; i < st->nparts; i++)
		if (!strcmp(st->parts[i].name, "blocked:sndbuf"))
			sndbuf = st->parts[i].ns;
	ck_assert_msg(sndbuf > total / 2, "blocked on the send buffer %lld of %lld",
		      (long long)sndbuf, (long long)total);
	ck_assert_str_eq(r.breakdown.stages[1].name, "netserver");
	run_result_free(&r);
	snprintf(a, sizeof(a), "%s send_cost=\"10us\" recv_cost=\"1us\"", base);
	assert_near(netperf_metric(a), 800, 0.003, "Mbit/s, the writer slower");
}
END_TEST

/*
 * In a PV domain an af_unix call pays tlb_refill_tcp per page-table
 * switch, not tlb_refill (UDP's path): with the reader the bound (recv 10
 * us, 1000-byte sends), a tlb_refill of 50 us leaves the rate alone, and a
 * tlb_refill_tcp of 2 us adds 4 us to each recv (and send): 1000 bytes in
 * 14.16 us instead of 10.16 (the PV system call's 160 ns beside it).
 */
START_TEST(netperf_stream_stream_pv_calls_refill_as_tcp_calls)
{
	const char *base = "test=\"STREAM_STREAM\" size=\"1000\" switch_cost=\"0\" wake_cost=\"0\" "
			   "time=\"200ms\" sndbuf=\"212992\" send_cost=\"1us\" recv_cost=\"10us\" "
			   "tlb_page=\"0\"";
	char a[512];
	double plain, refill, refill_tcp;

	snprintf(a, sizeof(a), "%s tlb_refill=\"0\" tlb_refill_tcp=\"0\"", base);
	plain = netperf_metric_in("pv", a);
	snprintf(a, sizeof(a), "%s tlb_refill=\"50us\" tlb_refill_tcp=\"0\"", base);
	refill = netperf_metric_in("pv", a);
	snprintf(a, sizeof(a), "%s tlb_refill=\"0\" tlb_refill_tcp=\"2us\"", base);
	refill_tcp = netperf_metric_in("pv", a);
	assert_near(refill, plain, 0.01, "Mbit/s with tlb_refill 50 us");
	assert_near(refill_tcp / plain, 10.16 / 14.16, 0.02, "rate ratio with tlb_refill_tcp 2 us");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("loopback");
	TCase *unit = tcase_create("sockets");
	TCase *sim = tcase_create("netperf");

	tcase_add_test(unit, udp_truesize_is_linuxs);
	tcase_add_test(unit, udp_drops_past_the_receive_buffer);
	tcase_add_test(unit, udp_memory_comes_back_by_quarters);
	tcase_add_test(unit, udp_send_work_counts_calls_copies_and_packets);
	tcase_add_test(unit, tcp_short_writes_coalesce_until_the_ack);
	tcase_add_test(unit, tcp_ack_rides_on_the_answer);
	tcase_add_test(unit, tcp_send_buffer_and_window_hold_the_writer);
	tcase_add_test(unit, tcp_calls_without_an_skb_cost_tcp_call);
	tcase_add_test(unit, tcp_nodelay_sends_each_call_at_once);
	tcase_add_test(unit, tcp_reader_acks_on_rcv_mss_or_an_empty_queue);
	tcase_add_test(unit, unix_skbs_are_af_unixs);
	tcase_add_test(unit, unix_send_buffer_holds_the_writer_to_a_quarter);
	tcase_add_test(unit, unix_reads_cross_skbs_and_sends_pay_no_packet);
	tcase_add_test(unit, unix_writer_stops_part_way_at_a_small_buffer);
	tcase_add_test(unit, unix_writer_hands_over_one_skb_at_a_time);
	suite_add_tcase(s, unit);
	tcase_set_timeout(sim, 60);
	tcase_add_test(sim, netperf_udp_stream_is_the_senders_rate);
	tcase_add_test(sim, netperf_udp_receiver_drops_what_it_cannot_take);
	tcase_add_test(sim, netperf_tcp_rr_is_a_chain_of_calls);
	tcase_add_test(sim, netperf_tcp_stream_is_held_by_a_slow_reader);
	tcase_add_test(sim, netperf_stream_stream_is_the_slower_ends_rate);
	tcase_add_test(sim, netperf_stream_stream_pv_calls_refill_as_tcp_calls);
	suite_add_tcase(s, sim);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
