/*
 * The simulator's side of the shim: the struct sched_ops of the modules
 * xen-null, xen-credit and xen-credit2, which hand every call to Xen's own
 * scheduler code through glue.c (see bridge.h for why the two halves
 * cannot share a file), and the services glue.c asks of the simulator:
 * time, tickles, random numbers, timers on the event queue, the pause
 * state of vCPUs, and the trace sink.
 *
 * A vCPU's sched_priv is its Xen twin (struct xs_vcpu), a domain's is
 * its Xen domain; idle vCPUs get their twins when their pCPU joins.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "schedulers/sched.h"
#include "sim/xalloc.h"
#include "xen-shim/bridge.h"

struct xs_config {
	long long ratelimit_us;
	long long tslice_ms;
	long long migrate_resist_us;
	long long vcpu_migr_delay_us;
	int runqueue;
};

struct xs_sched {
	struct xs_ctx *ctx;
};

/* An event of the simulator's queue carrying one Xen timer. */
struct xs_event {
	struct timer t;
	struct sim *sim;
	void (*fire)(void *arg);
	void *arg;
};

static struct xs_ctx *ctx_of(struct scheduler *s)
{
	return ((struct xs_sched *)s->priv)->ctx;
}

/* --- services for glue.c --- */

static int64_t cb_now(void *sim)
{
	return sim_now(sim);
}

static int cb_cur_cpu(void *sim)
{
	return ((struct sim *)sim)->this_cpu;
}

static void cb_set_cur_cpu(void *sim, int cpu)
{
	((struct sim *)sim)->this_cpu = cpu;
}

static void cb_tickle(void *sim, int cpu)
{
	cpu_raise_softirq(sim, cpu);
}

static unsigned int cb_random(void *sim)
{
	return (unsigned int)(rng_next(&((struct sim *)sim)->rng) >> 32);
}

static void event_fn(struct timer *t, void *arg)
{
	struct xs_event *ev = arg;

	ev->fire(ev->arg);
}

static void *cb_timer_new(void *sim, void (*fire)(void *arg), void *arg)
{
	struct xs_event *ev = xcalloc(1, sizeof(*ev));

	ev->sim = sim;
	ev->fire = fire;
	ev->arg = arg;
	timer_init(&ev->t, event_fn, ev);
	return ev;
}

static void cb_timer_set(void *sim, void *ev, int64_t when)
{
	timer_set(&((struct sim *)sim)->q, &((struct xs_event *)ev)->t, when);
}

static void cb_timer_stop(void *sim, void *ev)
{
	timer_stop(&((struct sim *)sim)->q, &((struct xs_event *)ev)->t);
}

static void cb_timer_free(void *sim, void *ev)
{
	cb_timer_stop(sim, ev);
	free(ev);
}

/* Xen's bit numbers: _VPF_blocked 0, _VPF_down 1, _VPF_migrating 3. */
static void cb_peer_state(void *peer, unsigned long *flags, int *pause_count)
{
	const struct vcpu *v = peer;

	*flags = (v->pause_flags & VPF_BLOCKED ? 1ul << 0 : 0) |
		 (v->pause_flags & VPF_DOWN ? 1ul << 1 : 0) |
		 (v->pause_flags & VPF_MIGRATING ? 1ul << 3 : 0);
	*pause_count = v->pause_count;
}

static void cb_peer_update(void *peer, int processor, bool parked, bool migrating)
{
	struct vcpu *v = peer;

	if (is_idle_vcpu(v))
		return;
	v->processor = processor;
	if (parked)
		sched_set_pause_flags(v, VPF_PARKED);
	else
		sched_clear_pause_flags(v, VPF_PARKED);
	/* Only the core clears it (migrate_finish), as in Xen. */
	if (migrating)
		sched_set_pause_flags(v, VPF_MIGRATING);
}

static void cb_pause_nosync(void *sim, void *peer)
{
	vcpu_pause_nosync(sim, peer);
}

static void cb_unpause(void *sim, void *peer)
{
	vcpu_unpause(sim, peer);
}

static bool cb_tracing(void *sim)
{
	return ((struct sim *)sim)->tracer != NULL;
}

static void cb_trace(void *sim, int cpu, uint32_t event, int n, const uint32_t *data)
{
	sim_trace(sim, cpu, event, n, data);
}

/* --- the ops table --- */

static int xs_init(struct scheduler *s, const struct xs_module *m, struct err *e)
{
	const struct xs_config *cfg = s->config;
	struct sim *sim = s->sim;
	struct xs_host h = {
		.sim = sim,
		.nr_cpus = sim->nr_cpus,
		.cpu_socket = sim->topo.cpu_socket,
		.cpu_core = sim->topo.cpu_core,
		.cpu_node = sim->topo.cpu_node,
		.nr_nodes = sim->topo.nr_nodes,
		.now = cb_now,
		.cur_cpu = cb_cur_cpu,
		.set_cur_cpu = cb_set_cur_cpu,
		.tickle = cb_tickle,
		.random = cb_random,
		.timer_new = cb_timer_new,
		.timer_set = cb_timer_set,
		.timer_stop = cb_timer_stop,
		.timer_free = cb_timer_free,
		.peer_state = cb_peer_state,
		.peer_update = cb_peer_update,
		.pause_nosync = cb_pause_nosync,
		.unpause = cb_unpause,
		.trace = cb_trace,
		.tracing = cb_tracing,
	};
	struct xs_params p = {
		.ratelimit_us = cfg->ratelimit_us,
		.tslice_ms = cfg->tslice_ms,
		.runqueue = cfg->runqueue,
		.migrate_resist_us = cfg->migrate_resist_us,
		.vcpu_migr_delay_us = cfg->vcpu_migr_delay_us,
	};
	struct xs_sched *xs = xcalloc(1, sizeof(*xs));
	char msg[256];

	xs->ctx = xs_ctx_new(m, &h, &p, msg, sizeof(msg));
	if (!xs->ctx) {
		free(xs);
		return err_set(e, "%s", msg);
	}
	s->priv = xs;
	return 0;
}

static int xs_init_null(struct scheduler *s, struct err *e)
{
	return xs_init(s, &xs_module_null, e);
}

static int xs_init_credit(struct scheduler *s, struct err *e)
{
	return xs_init(s, &xs_module_credit, e);
}

static int xs_init_credit2(struct scheduler *s, struct err *e)
{
	return xs_init(s, &xs_module_credit2, e);
}

static void xs_deinit(struct scheduler *s)
{
	xs_ctx_free(ctx_of(s));
	free(s->priv);
}

static void xs_init_pdata(struct scheduler *s, int cpu)
{
	struct pcpu *pc = &s->sim->pcpus[cpu];

	xs_cpu_add(ctx_of(s), cpu, pc->idle);
	pc->idle->sched_priv = xs_idle_of(ctx_of(s), cpu);
}

static void *xs_alloc_domdata(struct scheduler *s, struct domain *d)
{
	return xs_domain_new(ctx_of(s), d, d->domid, d->nr_vcpus, d->weight, d->cap);
}

static void xs_free_domdata(struct scheduler *s, void *data)
{
	xs_domain_free(ctx_of(s), data);
}

static void *xs_alloc_udata(struct scheduler *s, struct vcpu *v, void *dd)
{
	if (is_idle_vcpu(v))
		return NULL;
	return xs_vcpu_new(ctx_of(s), dd, v, v->vcpu_id, v->processor);
}

static void xs_free_udata(struct scheduler *s, void *data)
{
	xs_vcpu_free(ctx_of(s), data);
}

static void xs_insert_unit(struct scheduler *s, struct vcpu *v)
{
	struct domain *d = v->dom;

	xs_insert(ctx_of(s), v->sched_priv);
	/*
	 * As xl builds a domain: it is created with all its vCPUs (inserted
	 * with default affinities; sim_build sets the configured ones after,
	 * through vcpu_set_affinity), and its scheduling parameters are set
	 * once the units exist (credit2's cap budget is per unit).
	 */
	if (v->vcpu_id == d->nr_vcpus - 1 && (d->weight != 256 || d->cap != 0))
		xs_adjust(ctx_of(s), d->sched_priv, d->weight, d->cap);
}

static void xs_remove_unit(struct scheduler *s, struct vcpu *v)
{
	xs_remove(ctx_of(s), v->sched_priv);
}

static void xs_sleep_op(struct scheduler *s, struct vcpu *v)
{
	xs_sleep(ctx_of(s), v->sched_priv);
}

static void xs_wake_op(struct scheduler *s, struct vcpu *v)
{
	xs_wake(ctx_of(s), v->sched_priv);
}

static void xs_yield_op(struct scheduler *s, struct vcpu *v)
{
	xs_yield(ctx_of(s), v->sched_priv);
}

static void xs_context_saved_op(struct scheduler *s, struct vcpu *v)
{
	xs_context_saved(ctx_of(s), v->sched_priv);
}

static void xs_do_schedule_op(struct scheduler *s, struct vcpu *curr, stime_t now,
			      bool tasklet, struct sched_decision *out)
{
	int64_t slice;
	bool migrated;

	out->next = xs_do_schedule(ctx_of(s), s->sim->this_cpu, curr->sched_priv, now,
				   tasklet, &slice, &migrated);
	out->time_slice = slice;
	out->migrated = migrated;
}

static int xs_pick_resource_op(struct scheduler *s, struct vcpu *v)
{
	return xs_pick_resource(ctx_of(s), v->sched_priv);
}

static void xs_migrate_op(struct scheduler *s, struct vcpu *v, int new_cpu)
{
	xs_migrate(ctx_of(s), v->sched_priv, new_cpu);
}

static void xs_adjust_op(struct scheduler *s, struct domain *d)
{
	xs_adjust(ctx_of(s), d->sched_priv, d->weight, d->cap);
}

static void xs_adjust_affinity_op(struct scheduler *s, struct vcpu *v)
{
	xs_adjust_affinity(ctx_of(s), v->sched_priv, v->hard->w, v->soft->w);
}

static void xs_dump_op(struct scheduler *s, FILE *f)
{
	xs_dump(ctx_of(s), f);
}

#define CFG(f) offsetof(struct xs_config, f)
#define P_RATELIMIT { "ratelimit_us", PARAM_INT, "1000", NULL, 0, 500000, \
	"sched_ratelimit_us: minimum run before preemption (0: off)", CFG(ratelimit_us) }

static const struct param_def null_params[] = { { NULL } };

static const struct param_def credit_params[] = {
	P_RATELIMIT,
	{ "tslice_ms", PARAM_INT, "30", NULL, 1, 1000,
	  "sched_credit_tslice_ms: the time slice", CFG(tslice_ms) },
	{ "vcpu_migr_delay_us", PARAM_INT, "0", NULL, 0, 100000,
	  "vcpu_migration_delay: cache-hot time", CFG(vcpu_migr_delay_us) },
	{ NULL }
};

static const struct param_def credit2_params[] = {
	P_RATELIMIT,
	{ "runqueue", PARAM_ENUM, "socket", "cpu|core|socket|node|all", 0, 0,
	  "credit2_runqueue: which pCPUs share a runqueue", CFG(runqueue) },
	{ "migrate_resist_us", PARAM_INT, "500", NULL, 0, 1000000,
	  "sched_credit2_migrate_resist", CFG(migrate_resist_us) },
	{ NULL }
};

#define XS_OPS(init_fn, prm) \
	.params = prm, \
	.config_size = sizeof(struct xs_config), \
	.init = init_fn, \
	.deinit = xs_deinit, \
	.init_pdata = xs_init_pdata, \
	.alloc_domdata = xs_alloc_domdata, \
	.free_domdata = xs_free_domdata, \
	.alloc_udata = xs_alloc_udata, \
	.free_udata = xs_free_udata, \
	.insert_unit = xs_insert_unit, \
	.remove_unit = xs_remove_unit, \
	.sleep = xs_sleep_op, \
	.wake = xs_wake_op, \
	.yield = xs_yield_op, \
	.context_saved = xs_context_saved_op, \
	.do_schedule = xs_do_schedule_op, \
	.pick_resource = xs_pick_resource_op, \
	.migrate = xs_migrate_op, \
	.adjust = xs_adjust_op, \
	.adjust_affinity = xs_adjust_affinity_op, \
	.dump = xs_dump_op

/* Each tree's modules are named after it; the plain name is an alias. */
const struct sched_ops xen_null_ops = {
	.name = "xen-null@" XEN_SOURCE_NAME,
	.alias = "xen-null",
	.summary = "Xen's own null.c of Xen " XEN_SOURCE_VERSION " (tree " XEN_SOURCE_NAME ")",
	XS_OPS(xs_init_null, null_params),
};

const struct sched_ops xen_credit_ops = {
	.name = "xen-credit@" XEN_SOURCE_NAME,
	.alias = "xen-credit",
	.summary = "Xen's own credit.c (credit1) of Xen " XEN_SOURCE_VERSION " (tree " XEN_SOURCE_NAME ")",
	XS_OPS(xs_init_credit, credit_params),
};

const struct sched_ops xen_credit2_ops = {
	.name = "xen-credit2@" XEN_SOURCE_NAME,
	.alias = "xen-credit2",
	.summary = "Xen's own credit2.c of Xen " XEN_SOURCE_VERSION " (tree " XEN_SOURCE_NAME ")",
	XS_OPS(xs_init_credit2, credit2_params),
};
