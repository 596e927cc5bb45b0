/* TCP flow control of one stream (tcp.h), after Linux 4.x. */
#include "workloads/tcp.h"

static uint64_t truesize(const struct tcp_params *p, uint64_t bytes)
{
	return bytes + (bytes + p->segment - 1) / p->segment * p->skb_overhead;
}

uint64_t tcp_rcv_window(const struct tcp_params *p)
{
	uint64_t space = p->rcvbuf;

	return p->adv_win_scale <= 0 ? space >> -p->adv_win_scale :
				       space - (space >> p->adv_win_scale);
}

void tcp_init(struct tcp_stream *t, const struct tcp_params *p)
{
	*t = (struct tcp_stream){ .p = *p };
	t->snd_wnd_end = tcp_rcv_window(p);
}

/* sk_wmem_queued: written and not yet acknowledged, in truesize. */
static uint64_t wmem_queued(const struct tcp_stream *t)
{
	return truesize(&t->p, t->write_seq - t->snd_una);
}

bool tcp_may_write(const struct tcp_stream *t, uint64_t bytes)
{
	return wmem_queued(t) + truesize(&t->p, bytes) <= t->p.sndbuf;
}

bool tcp_writeable(const struct tcp_stream *t)
{
	uint64_t q = wmem_queued(t);

	return q <= t->p.sndbuf && t->p.sndbuf - q >= q / 2;
}

void tcp_write(struct tcp_stream *t, uint64_t bytes)
{
	t->write_seq += bytes;
}

enum tcp_limit tcp_send_limit(const struct tcp_stream *t)
{
	if (t->write_seq - t->snd_nxt < t->p.segment)
		return TCP_NO_DATA;
	if (truesize(&t->p, t->snd_nxt - t->tx_freed) > t->p.limit_output)
		return TCP_TSQ;
	if (t->snd_nxt + t->p.segment > t->snd_wnd_end)
		return TCP_RWND;
	return TCP_CAN_SEND;
}

void tcp_send(struct tcp_stream *t)
{
	t->snd_nxt += t->p.segment;
}

void tcp_tx_freed(struct tcp_stream *t, uint64_t bytes)
{
	t->tx_freed += bytes;
	if (t->tx_freed > t->snd_nxt)
		t->tx_freed = t->snd_nxt;
}

void tcp_ack(struct tcp_stream *t, uint64_t ack, uint64_t wnd_end)
{
	if (ack < t->snd_una || ack > t->snd_nxt)
		return;
	t->snd_una = ack;
	if (wnd_end > t->snd_wnd_end)
		t->snd_wnd_end = wnd_end;
}
