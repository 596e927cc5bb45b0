/*
 * iperf: a TCP stream from an iperf client in a guest to an iperf server
 * in dom0, over netfront/netback (Linux drivers/net/xen-netfront.c and
 * drivers/net/xen-netback/).  Data moves in 64 KiB GSO segments, each
 * taking slots_per_segment slots of the 256-slot TX ring.
 *
 *   guest  sender (iperf -c): write() -> TCP -> netfront xmit, per-segment
 *          CPU; reaps TX completions as netfront's xmit path does; stops
 *          when the window or the TX ring is full.
 *   dom0   netback poll (interrupt/NAPI on the vif's vCPU): grant-copies
 *          segments into dom0's stack, answers the TX requests; past
 *          Linux's softirq bound it goes on in ksoftirqd under CFS.
 *   dom0   server (iperf -s): reads and consumes; each read sends an ACK
 *          that opens the window (the window counts bytes not yet read by
 *          the server: TCP's receive window and in-flight data in one).
 *   dom0   netback guest-rx kthread: puts the ACKs into the guest's RX ring.
 *   guest  netfront interrupt: TX completions and ACKs; wakes the sender.
 *
 * Every stage pays CPU on its vCPU, and every hand-over between domains is
 * an event channel that wakes the receiving vCPU only when it asked for it
 * (ring event indexes).  Throughput is measured at the server after a
 * warm-up.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/iperf.h"
#include "workloads/split.h"

bool flow_can_send(const struct tcp_flow *f, uint64_t bytes)
{
	return flow_in_flight(f) + bytes <= f->window;
}

void flow_sent(struct tcp_flow *f, uint64_t bytes)
{
	f->sent += bytes;
}

void flow_ack(struct tcp_flow *f, uint64_t ack)
{
	if (ack > f->acked && ack <= f->sent)
		f->acked = ack;
}

uint64_t flow_in_flight(const struct tcp_flow *f)
{
	return f->sent - f->acked;
}

struct iperf_config {
	long long segment, write_size, read_size, window;
	long long ring_slots, slots_per_segment, napi_budget, softirq_restarts;
	stime_t tx_cost, gc_cost, netback_cost, server_cost, ack_cost, ack_rx_cost;
	stime_t evtchn_latency, softirq_time, warmup, time;
	long long guest_vcpu, dom0_vcpu;
	double noise, run_noise, work_scale;
};

#define OFF(f) offsetof(struct iperf_config, f)

/*
 * The calibration (doc/workloads.md): the costs above were set on the
 * full-speed machine; with the hardware model the stream on the default
 * host, Credit1, no dom0 load, gave 11.68 Gbit/s instead of 11.81 (15
 * iterations), so its work is scaled once by 11.68 / 11.793.
 */
#define IPERF_MODEL_SCALE 0.9904
#define IPERF_MODEL_SCALE_TEXT "0.9904"

static const struct param_def iperf_params[] = {
	{ "segment", PARAM_INT, "65536", NULL, 1024, 65536,
	  "bytes per GSO segment", OFF(segment) },
	{ "write_size", PARAM_INT, "131072", NULL, 1024, 1 << 24,
	  "bytes per write() of the client (a multiple of segment)", OFF(write_size) },
	{ "read_size", PARAM_INT, "131072", NULL, 1024, 1 << 24,
	  "bytes per read() of the server (one ACK each)", OFF(read_size) },
	{ "window", PARAM_INT, "524288", NULL, 1024, 1LL << 32,
	  "bytes sent but not yet read by the server", OFF(window) },
	{ "ring_slots", PARAM_INT, "256", NULL, 1, 65536,
	  "TX and RX ring slots (256: one 4 KiB page)", OFF(ring_slots) },
	{ "slots_per_segment", PARAM_INT, "17", NULL, 1, 64,
	  "TX slots a segment takes (one per 4 KiB page and one header)", OFF(slots_per_segment) },
	{ "napi_budget", PARAM_INT, "64", NULL, 1, 65536,
	  "segments netback moves per poll", OFF(napi_budget) },
	{ "softirq_time", PARAM_DURATION, "2ms", NULL, 0, 0,
	  "netback's and netfront's softirq work goes on in ksoftirqd after this "
	  "(Linux's MAX_SOFTIRQ_TIME; 0: no time bound)", OFF(softirq_time) },
	{ "softirq_restarts", PARAM_INT, "10", NULL, 0, 1000000,
	  "... or after this many polls (Linux's MAX_SOFTIRQ_RESTART; 0: no bound)",
	  OFF(softirq_restarts) },
	{ "tx_cost", PARAM_DURATION, "44500ns", NULL, 0, 0,
	  "guest CPU per segment sent (copy from user, TCP, netfront xmit)", OFF(tx_cost) },
	{ "gc_cost", PARAM_DURATION, "1480ns", NULL, 0, 0,
	  "guest CPU per TX completion (ungrant, free the skb)", OFF(gc_cost) },
	{ "netback_cost", PARAM_DURATION, "29650ns", NULL, 0, 0,
	  "dom0 CPU per segment in netback (grant copy, dom0 stack)", OFF(netback_cost) },
	{ "server_cost", PARAM_DURATION, "29650ns", NULL, 0, 0,
	  "dom0 CPU per segment read by the server (copy to user)", OFF(server_cost) },
	{ "ack_cost", PARAM_DURATION, "4450ns", NULL, 0, 0,
	  "dom0 CPU per ACK in netback's guest-rx kthread", OFF(ack_cost) },
	{ "ack_rx_cost", PARAM_DURATION, "2970ns", NULL, 0, 0,
	  "guest CPU per ACK received (netfront RX, TCP)", OFF(ack_rx_cost) },
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
	{ "noise", PARAM_DOUBLE, "0.1", NULL, 0, 0.5,
	  "variation of each batch's CPU time (coefficient of variation)", OFF(noise) },
	{ "run_noise", PARAM_DOUBLE, "0.01", NULL, 0, 0.5,
	  "variation of all CPU costs from run to run (coefficient of variation)", OFF(run_noise) },
	{ "work_scale", PARAM_DOUBLE, "0", NULL, 0, 100,
	  "factor on every CPU cost above, the calibration (0: as calibrated for the machine: "
	  "1 on --hw=ideal, " IPERF_MODEL_SCALE_TEXT " with the hardware model)", OFF(work_scale) },
	{ NULL }
};

struct iperf {
	struct workload *w;
	struct iperf_config *c;
	struct tcp_flow flow;
	struct ring tx, rx;
	uint64_t *ack_val;                 /* what each RX slot carries */
	struct worker *sender, *netfront, *netback, *server, *rxk;
	struct evtchn to_back, tx_to_front, rx_to_front;
	unsigned segs_per_write;
	double half_width;                 /* of the uniform cost noise */
	double run_factor;                 /* this run's host state */
	/* batches being run by each stage */
	unsigned snd_slots, snd_gc, nb_segs, nf_acks;
	uint64_t nf_ack, srv_bytes, rxk_ack, rxk_n;
	/* dom0 socket and ACK queue */
	uint64_t sock_bytes, consumed, measured, pending_acks, pending_ack;
	stime_t warm_end;
	struct timer stop;
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

/* Reaps TX completions, arming the TX event index as netfront's gc does. */
static unsigned tx_gc(struct iperf *ip)
{
	unsigned n = 0, k;

	do {
		k = ring_unconsumed_responses(&ip->tx);
		ring_consume_responses(&ip->tx, k);
		n += k;
	} while (ring_final_check_responses(&ip->tx));
	return n;
}

static stime_t sender_poll(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;
	uint64_t bytes = (uint64_t)ip->c->write_size;
	unsigned need = ip->segs_per_write * spp(ip);

	(void)s;
	ip->snd_gc = tx_gc(ip) / spp(ip);
	if (!flow_can_send(&ip->flow, bytes) || ring_free_requests(&ip->tx) < need) {
		ip->snd_slots = 0;
		return 0;
	}
	ip->snd_slots = need;
	return cost(ip, (double)ip->segs_per_write * ip->c->tx_cost +
		    (double)ip->snd_gc * ip->c->gc_cost);
}

static void sender_done(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	(void)s;
	ring_queue_requests(&ip->tx, ip->snd_slots);
	flow_sent(&ip->flow, (uint64_t)ip->segs_per_write * ip->c->segment);
	if (ring_push_requests(&ip->tx))
		evtchn_send(&ip->to_back);
}

static stime_t netback_poll(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;
	unsigned n;

	(void)s;
	evtchn_test_and_clear(&ip->to_back);
	n = ring_unconsumed_requests(&ip->tx) / spp(ip);
	if (!n && !ring_final_check_requests(&ip->tx))
		return 0;
	n = ring_unconsumed_requests(&ip->tx) / spp(ip);
	if (n > (unsigned)ip->c->napi_budget)
		n = (unsigned)ip->c->napi_budget;
	if (!n)
		return 0;
	ring_consume_requests(&ip->tx, n * spp(ip));
	ip->nb_segs = n;
	return cost(ip, (double)n * ip->c->netback_cost);
}

static void netback_done(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	ip->sock_bytes += (uint64_t)ip->nb_segs * ip->c->segment;
	ring_queue_responses(&ip->tx, ip->nb_segs * spp(ip));
	ip->nb_segs = 0;
	if (ring_push_responses(&ip->tx))
		evtchn_send(&ip->tx_to_front);
	worker_kick(s, ip->server);
}

static stime_t server_poll(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;
	uint64_t b = ip->sock_bytes;

	(void)s;
	if (!b)
		return 0;
	if (b > (uint64_t)ip->c->read_size)
		b = (uint64_t)ip->c->read_size;
	ip->sock_bytes -= b;
	ip->srv_bytes = b;
	return cost(ip, (double)b / ip->c->segment * ip->c->server_cost);
}

static void server_done(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	ip->consumed += ip->srv_bytes;
	if (sim_now(s) > ip->warm_end)
		ip->measured += ip->srv_bytes;
	ip->srv_bytes = 0;
	ip->pending_acks++;
	ip->pending_ack = ip->consumed;
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
 * One RX slot per ACK.  ACKs are cumulative, so when the guest has not
 * freed a slot the newest value replaces the last unconsumed one.
 */
static void rxk_done(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;
	unsigned size = ip->rx.size;

	(void)s;
	for (uint64_t i = 0; i < ip->rxk_n; i++) {
		if ((ring_idx_t)(ip->rx.rsp_prod_pvt - ip->rx.rsp_cons) >= size) {
			ip->ack_val[(ip->rx.rsp_prod_pvt - 1) % size] = ip->rxk_ack;
			break;
		}
		ip->ack_val[ip->rx.rsp_prod_pvt % size] = ip->rxk_ack;
		ring_queue_responses(&ip->rx, 1);
	}
	ip->rxk_n = 0;
	if (ring_push_responses(&ip->rx))
		evtchn_send(&ip->rx_to_front);
}

static stime_t netfront_poll(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;
	unsigned ntx, nrx;
	bool more;

	(void)s;
	evtchn_test_and_clear(&ip->tx_to_front);
	evtchn_test_and_clear(&ip->rx_to_front);
	ntx = ring_unconsumed_responses(&ip->tx);
	nrx = ring_unconsumed_responses(&ip->rx);
	if (!ntx && !nrx) {
		more = ring_final_check_responses(&ip->tx);
		more |= ring_final_check_responses(&ip->rx);
		if (!more)
			return 0;
		ntx = ring_unconsumed_responses(&ip->tx);
		nrx = ring_unconsumed_responses(&ip->rx);
	}
	ring_consume_responses(&ip->tx, ntx);
	ip->nf_acks = nrx;
	if (nrx)
		ip->nf_ack = ip->ack_val[(ip->rx.rsp_cons + nrx - 1) % ip->rx.size];
	ring_consume_responses(&ip->rx, nrx);
	return cost(ip, (double)(ntx / spp(ip)) * ip->c->gc_cost +
		    (double)nrx * ip->c->ack_rx_cost);
}

static void netfront_done(struct sim *s, struct worker *w)
{
	struct iperf *ip = w->ctx;

	if (ip->nf_acks)
		flow_ack(&ip->flow, ip->nf_ack);
	ip->nf_acks = 0;
	worker_kick(s, ip->sender);
}

static void iperf_stop(struct timer *t, void *arg)
{
	struct iperf *ip = arg;

	(void)t;
	sim_request_stop(ip->w->sim);
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
	if (c->write_size % c->segment)
		return err_set(e, "iperf: write_size=%lld is not a multiple of segment=%lld",
			       c->write_size, c->segment);
	if (c->write_size / c->segment * c->slots_per_segment > c->ring_slots)
		return err_set(e, "iperf: a write of %lld bytes needs more than ring_slots=%lld",
			       c->write_size, c->ring_slots);
	if ((unsigned long long)c->window < (unsigned long long)c->write_size)
		return err_set(e, "iperf: window=%lld is smaller than write_size=%lld",
			       c->window, c->write_size);
	if (check_vcpu("guest_vcpu", c->guest_vcpu, g, e) < 0 ||
	    check_vcpu("dom0_vcpu", c->dom0_vcpu, d0, e) < 0)
		return -1;
	return 0;
}

static int iperf_setup(struct workload *w, struct err *e)
{
	struct iperf_config *c = w->config;
	struct domain *d0 = split_dom0(w->sim);
	struct guest *g = guest_of(w->dom), *g0;
	struct sim *s = w->sim;
	struct iperf *ip;

	if (iperf_check(c, w->dom, d0, e) < 0)
		return err_prefix(e, "%s:%d", w->source, w->spec->line);
	g0 = guest_of(d0);
	ip = xcalloc(1, sizeof(*ip));
	w->priv = ip;
	ip->w = w;
	ip->c = c;
	ip->flow.window = (uint64_t)c->window;
	ip->segs_per_write = (unsigned)(c->write_size / c->segment);
	ip->half_width = c->noise * sqrt(3.0);
	ip->run_factor = 1 + c->run_noise * sqrt(3.0) * (2 * rng_uniform(&w->rng) - 1);
	ip->run_factor *= c->work_scale > 0 ? c->work_scale
			: hw_is_ideal(s->hw) ? 1.0 : IPERF_MODEL_SCALE;
	ring_init(&ip->tx, (unsigned)c->ring_slots);
	ring_init(&ip->rx, (unsigned)c->ring_slots);
	ip->ack_val = xcalloc((size_t)c->ring_slots, sizeof(uint64_t));
	/*
	 * The client, the server and the guest-rx kthread stay next to the
	 * interrupt's vCPU rather than on it.  Linux moves a task off a CPU
	 * whose capacity interrupt work eats (active balancing); the guest
	 * layer has no periodic balancing, and an idle vCPU's pull could
	 * stack the server onto netback's vCPU for good.  Binding them gives
	 * Linux's steady state.
	 */
	ip->sender = worker_create(g, "iperf-client", TASK_NORMAL,
				   (int)(c->guest_vcpu + 1) % g->nr_cpus, true,
				   sender_poll, sender_done, ip);
	ip->netfront = worker_create(g, "netfront-q0", TASK_IRQ, (int)c->guest_vcpu, true,
				     netfront_poll, netfront_done, ip);
	ip->netback = worker_create(g0, "netback-q0", TASK_IRQ, (int)c->dom0_vcpu, true,
				    netback_poll, netback_done, ip);
	ip->server = worker_create(g0, "iperf-server", TASK_NORMAL,
				   (int)(c->dom0_vcpu + 1) % g0->nr_cpus, true,
				   server_poll, server_done, ip);
	ip->rxk = worker_create(g0, "vif-q0-guest-rx", TASK_NORMAL,
				(int)(c->dom0_vcpu + 2) % g0->nr_cpus, true,
				rxk_poll, rxk_done, ip);
	ip->netfront->softirq_time = ip->netback->softirq_time = c->softirq_time;
	ip->netfront->softirq_restarts = (int)c->softirq_restarts;
	ip->netback->softirq_restarts = (int)c->softirq_restarts;
	evtchn_init(&ip->to_back, s, ip->netback, c->evtchn_latency);
	evtchn_init(&ip->tx_to_front, s, ip->netfront, c->evtchn_latency);
	evtchn_init(&ip->rx_to_front, s, ip->netfront, c->evtchn_latency);
	ip->warm_end = c->warmup;
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

static void iperf_destroy(struct workload *w)
{
	struct iperf *ip = w->priv;

	if (!ip)
		return;
	evtchn_close(&ip->to_back);
	evtchn_close(&ip->tx_to_front);
	evtchn_close(&ip->rx_to_front);
	timer_stop(&w->sim->q, &ip->stop);
	worker_free(ip->sender);
	worker_free(ip->netfront);
	worker_free(ip->netback);
	worker_free(ip->server);
	worker_free(ip->rxk);
	free(ip->ack_val);
	free(ip);
	w->priv = NULL;
}

const struct workload_ops iperf_ops = {
	.name = "iperf",
	.summary = "a TCP stream from the guest to an iperf server in dom0 over "
		   "netfront/netback, window-throttled; metric throughput "
		   "(Gbit/s, higher is better) after a warm-up",
	.params = iperf_params,
	.config_size = sizeof(struct iperf_config),
	.setup = iperf_setup,
	.hw = { 0.55, 512 << 10, 0.5 },
	.hw_source = "memory copies: smt_speed at the low end of hardware.md's 0.55 to 0.75 (memory-"
		     "bound code gains little from a second thread); working set: the 512 KiB window "
		     "of bytes in flight; mem_intensity 0.5: copies wait on memory about half the "
		     "time, a modelling choice",
	.metric = iperf_metric,
	.destroy = iperf_destroy,
};
