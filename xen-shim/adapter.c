/*
 * The simulator's side of the shim: the struct sched_ops of the modules
 * xen-null@NAME, xen-credit@NAME, xen-credit2@NAME, xen-rtds@NAME and
 * xen-arinc653@NAME of every Xen tree built in (XEN_SHIM_TREES, xen-trees.h from configure), which hand every call to
 * Xen's own scheduler code through that tree's glue.c (its struct
 * xs_tree; see bridge.h for why the two halves cannot share a file), and
 * the services glue.c asks of the simulator: time, tickles, random
 * numbers, timers on the event queue, the pause state of vCPUs, and the
 * trace sink.
 *
 * A vCPU's sched_priv is its Xen twin (struct xs_vcpu), a domain's is
 * its Xen domain; idle vCPUs get their twins when their pCPU joins.
 * The toolstack's settings reach Xen's code as xl sets them: weight and
 * cap (credit, credit2) once all vCPUs exist; RTDS's period, budget and
 * extratime (v->rt) by putvcpuinfo before each vCPU is inserted; the ARINC 653
 * schedule by XEN_SYSCTL_SCHEDOP_putinfo.
 * With a single tree the plain names (xen-credit2) are aliases.
 *
 * The same file makes a scheduler module of one Xen file
 * (schedsim-xen-module, xen-shim/module.mk): compiled against the
 * installed headers with a xen-trees.h and a config.h of that one file, it
 * defines that one ops table and exports it with SCHEDSIM_MODULE
 * (XS_EXPORT_OPS).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "schedulers/sched.h"
#include "sim/engine/rt_params.h"
#include "sim/xalloc.h"
#include "xen-shim/bridge.h"
#include "xen-shim/registry.h"

struct xs_config {
	long long ratelimit_us;
	long long tslice_ms;
	long long migrate_resist_us;
	long long vcpu_migr_delay_us;
	int runqueue;                 /* index in runqueue_names */
	int tick_suspend;             /* off|on */
};

struct xs_sched {
	const struct xs_tree *tree;
	int module;                   /* XS_CREDIT ... */
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

static const struct xs_tree *tree_of(struct scheduler *s)
{
	return ((struct xs_sched *)s->priv)->tree;
}

static int module_of(struct scheduler *s)
{
	return ((struct xs_sched *)s->priv)->module;
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
static void cb_peer_state(void *peer, struct xs_peer_state *st)
{
	const struct vcpu *v = peer;

	st->pause_flags = (v->pause_flags & VPF_BLOCKED ? 1ul << 0 : 0) |
			  (v->pause_flags & VPF_DOWN ? 1ul << 1 : 0) |
			  (v->pause_flags & VPF_MIGRATING ? 1ul << 3 : 0);
	st->pause_count = v->pause_count;
	st->runstate = (int)v->runstate;
	st->runstate_entry = v->runstate_entry;
}

/* A unit of several vCPUs (sched-gran > cpu) moves and is flagged as a whole. */
static void cb_peer_update(void *sim, void *peer, int processor, bool parked, bool migrating)
{
	struct vcpu *v = peer;

	if (is_idle_vcpu(v))
		return;
	if (v->members)
		sched_set_res(sim, v, processor);
	else
		v->processor = processor;
	if (parked)
		sched_set_pause_flags(v, VPF_PARKED);
	else
		sched_clear_pause_flags(v, VPF_PARKED);
	/* Only the core clears it (migrate_finish), as in Xen. */
	if (migrating)
		sched_set_pause_flags(v, VPF_MIGRATING);
}

static void *cb_unit_member(void *unit_peer, int idx)
{
	struct vcpu *u = unit_peer;

	return idx < u->nr_members ? u->members[idx] : NULL;
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

/* --- the ops tables --- */

/* credit2's runqueue= choices, 0 being "auto" (the tree's default). */
static const char *const runqueue_names[] = { NULL, "cpu", "core", "socket", "node", "all" };

static int xs_init(struct scheduler *s, const struct xs_tree *t, int module, struct err *e)
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
		.pool_id = s->pool->id,
		.gran = s->pool->gran == SCHED_GRAN_CPU ? 0 : s->pool->gran == SCHED_GRAN_CORE ? 1 : 2,
		.sched_gran = s->pool->sched_gran,
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
		.unit_member = cb_unit_member,
		.pause_nosync = cb_pause_nosync,
		.unpause = cb_unpause,
		.trace = cb_trace,
		.tracing = cb_tracing,
	};
	struct xs_params p = {
		.ratelimit_us = cfg->ratelimit_us,
		.tslice_ms = cfg->tslice_ms,
		.runqueue = cfg->runqueue > 0 && cfg->runqueue < 6 ? runqueue_names[cfg->runqueue] : NULL,
		.migrate_resist_us = cfg->migrate_resist_us,
		.vcpu_migr_delay_us = cfg->vcpu_migr_delay_us,
		.tick_suspend = cfg->tick_suspend == 1,
	};
	struct xs_sched *xs;
	char msg[256];

	/*
	 * A pool of any part of the host: its pCPUs join this instance one
	 * scheduling resource at a time (xs_init_pdata), as schedule_cpu_add
	 * does when cpupool_assign_cpu_locked moves them in.
	 */
	xs = xcalloc(1, sizeof(*xs));
	xs->tree = t;
	xs->module = module;
	xs->ctx = t->ctx_new(t->modules[module], &h, &p, msg, sizeof(msg));
	if (!xs->ctx) {
		free(xs);
		return err_set(e, "%s: %s", s->ops->name, msg);
	}
	s->priv = xs;
	/* where the tree's domain creation puts vCPU 0 (probe-tree.sh) */
	s->initial_cpu = (enum initial_cpu_rule)t->initial_cpu;
	return 0;
}

static void xs_deinit(struct scheduler *s)
{
	tree_of(s)->ctx_free(ctx_of(s));
	free(s->priv);
}

/* The resource of master cpu joins: all its threads, their idle vCPUs and its idle unit. */
static void xs_init_pdata(struct scheduler *s, int cpu)
{
	struct pcpu *pc = &s->sim->pcpus[cpu];
	const struct sched_resource *r = pc->res;
	void *idle[XS_NR_CPUS];
	int k;

	for (k = 0; k < r->nr_cpus; k++)
		idle[k] = s->sim->pcpus[r->cpus[k]].idle;
	tree_of(s)->cpu_add(ctx_of(s), r->nr_cpus, r->cpus, idle, pc->idle_unit);
	for (k = 0; k < r->nr_cpus; k++)
		s->sim->pcpus[r->cpus[k]].idle->sched_priv =
			tree_of(s)->idle_of(ctx_of(s), r->cpus[k]);
	pc->idle_unit->sched_priv = tree_of(s)->idle_of(ctx_of(s), cpu);
}

static void *xs_alloc_domdata(struct scheduler *s, struct domain *d)
{
	return tree_of(s)->domain_new(ctx_of(s), d, d->domid, d->nr_vcpus);
}

static void xs_free_domdata(struct scheduler *s, void *data)
{
	tree_of(s)->domain_free(ctx_of(s), data);
}

static void *xs_alloc_udata(struct scheduler *s, struct vcpu *v, void *dd)
{
	int nr = 1;

	if (is_idle_vcpu(v))
		return NULL;
	/* A unit (sched-gran > cpu): its vCPUs from its first, as sched_alloc_unit groups them. */
	if (v->members) {
		nr = v->dom->nr_vcpus - v->vcpu_id;
		if (nr > s->pool->sched_gran)
			nr = s->pool->sched_gran;
	}
	return tree_of(s)->vcpu_new(ctx_of(s), dd, v, v->vcpu_id, v->processor, nr);
}

static void xs_free_udata(struct scheduler *s, void *data)
{
	tree_of(s)->vcpu_free(ctx_of(s), data);
}

static bool rt_given(const struct rt_params *p)
{
	return p->period || p->budget || p->extratime != RT_EXTRATIME_DEFAULT;
}

/*
 * v's RTDS parameters as the toolstack passes them: both values always
 * (libxl reads the current ones first), Xen's defaults for those not
 * given.  The scenario loader and xs_check_rt have refused what the
 * tree's rt.c would: a refusal here is the shim's bug.
 */
static void put_rt(struct scheduler *s, struct vcpu *v)
{
	const struct rt_params *p = &v->rt;
	stime_t period = p->period ? p->period : RTDS_DEFAULT_PERIOD;
	stime_t budget = p->budget ? p->budget : RTDS_DEFAULT_BUDGET;
	int rc = tree_of(s)->put_rt(ctx_of(s), v->dom->sched_priv, v->vcpu_id, period / USEC(1),
				    budget / USEC(1), p->extratime != RT_EXTRATIME_OFF);

	if (rc != 0) {
		fprintf(stderr, "schedsim: %s: Xen's rt.c refused d%dv%d's parameters (error %d)\n",
			s->ops->name, v->dom->domid, v->vcpu_id, rc);
		abort();
	}
}

/* What this tree's rt.c cannot take from a scenario, refused before the run. */
static int xs_check_rt(struct scheduler *s, const struct rt_params *rt, int nr, struct err *e)
{
	int i;

	if (tree_of(s)->rt_extratime)
		return 0;
	for (i = 0; i < nr; i++)
		if (rt[i].extratime == RT_EXTRATIME_ON)
			return err_set(e, "vCPU %d: extratime=\"on\": %s has no extratime "
				       "(463b958317, Xen 4.10); its vCPUs never run beyond their budget",
				       i, s->ops->name);
	return 0;
}

/*
 * Weight and cap by putinfo, as xl sets them.  The loader has refused
 * what Xen refuses but one thing: credit2 (4.13 on) takes at most 100
 * per unit, and under sched-gran=core a domain has fewer units than
 * vCPUs; xl would fail there, and so does the run.
 */
static void put_weight_cap(struct scheduler *s, struct domain *d)
{
	int rc = tree_of(s)->adjust(ctx_of(s), d->sched_priv, d->weight, d->cap);

	if (rc != 0) {
		fprintf(stderr, "schedsim: %s: Xen refused domain d%d's weight %d and cap %d "
			"(error %d; credit2's cap is at most 100 per unit: %d units)\n",
			s->ops->name, d->domid, d->weight, d->cap, rc, d->nr_units);
		exit(2);
	}
}

static void xs_insert_unit(struct scheduler *s, struct vcpu *v)
{
	struct domain *d = v->dom;

	if (module_of(s) == XS_RTDS && rt_given(&v->rt))
		put_rt(s, v);
	tree_of(s)->insert(ctx_of(s), v->sched_priv);
	/*
	 * As xl builds a domain: it is created with all its vCPUs (inserted
	 * with default affinities; sim_build sets the configured ones after,
	 * through vcpu_set_affinity), and its scheduling parameters are set
	 * once the units exist (credit2's cap budget is per unit).
	 */
	if ((module_of(s) == XS_CREDIT || module_of(s) == XS_CREDIT2 || module_of(s) == XS_NULL) &&
	    (v->members ? v == d->units[d->nr_units - 1] : v->vcpu_id == d->nr_vcpus - 1) &&
	    (d->weight != 256 || d->cap != 0))
		put_weight_cap(s, d);
}

static void xs_remove_unit(struct scheduler *s, struct vcpu *v)
{
	tree_of(s)->remove(ctx_of(s), v->sched_priv);
}

static void xs_sleep_op(struct scheduler *s, struct vcpu *v)
{
	tree_of(s)->sleep(ctx_of(s), v->sched_priv);
}

static void xs_wake_op(struct scheduler *s, struct vcpu *v)
{
	tree_of(s)->wake(ctx_of(s), v->sched_priv);
}

static void xs_yield_op(struct scheduler *s, struct vcpu *v)
{
	tree_of(s)->yield(ctx_of(s), v->sched_priv);
}

static void xs_context_saved_op(struct scheduler *s, struct vcpu *v)
{
	tree_of(s)->context_saved(ctx_of(s), v->sched_priv);
}

static void xs_do_schedule_op(struct scheduler *s, struct vcpu *curr, stime_t now,
			      bool tasklet, struct sched_decision *out)
{
	int64_t slice;
	bool migrated;

	out->next = tree_of(s)->do_schedule(ctx_of(s), s->sim->this_cpu, curr->sched_priv, now,
					    tasklet, &slice, &migrated);
	out->time_slice = slice;
	out->migrated = migrated;
}

static int xs_pick_resource_op(struct scheduler *s, struct vcpu *v)
{
	return tree_of(s)->pick_resource(ctx_of(s), v->sched_priv);
}

static void xs_migrate_op(struct scheduler *s, struct vcpu *v, int new_cpu)
{
	tree_of(s)->migrate(ctx_of(s), v->sched_priv, new_cpu);
}

static void xs_adjust_op(struct scheduler *s, struct domain *d)
{
	int i;

	switch (module_of(s)) {
	case XS_RTDS:
		for (i = 0; i < d->nr_vcpus; i++)
			put_rt(s, d->vcpus[i]);
		break;
	case XS_ARINC653:
		break;
	default:
		put_weight_cap(s, d);
	}
}

static int xs_adjust_global_op(struct scheduler *s, const struct sched_global_op *op,
			       struct err *e)
{
	const struct arinc653_schedule *a = op->arinc653;
	struct xs_a653_entry entries[ARINC653_MAX_DOMAINS_PER_SCHEDULE];
	int i, rc;

	if (!a)
		return 0;
	for (i = 0; i < a->num_sched_entries && i < ARINC653_MAX_DOMAINS_PER_SCHEDULE; i++) {
		entries[i].domid = a->entries[i].domid;
		entries[i].vcpu_id = a->entries[i].vcpu_id;
		entries[i].runtime = a->entries[i].runtime;
	}
	rc = tree_of(s)->put_arinc653(ctx_of(s), a->major_frame, a->num_sched_entries, entries);
	if (rc != 0)
		return err_set(e, "%s: Xen's arinc653_sched_set refused the schedule (error %d: "
			       "1 to %d minor frames, each runtime > 0, their sum at most the major frame)",
			       s->ops->name, rc, ARINC653_MAX_DOMAINS_PER_SCHEDULE);
	return 0;
}

static void xs_adjust_affinity_op(struct scheduler *s, struct vcpu *v)
{
	tree_of(s)->adjust_affinity(ctx_of(s), v->sched_priv, v->hard->w, v->soft->w);
}

static void xs_dump_op(struct scheduler *s, FILE *f)
{
	tree_of(s)->dump(ctx_of(s), f);
}

#define CFG(f) offsetof(struct xs_config, f)
#define P_RATELIMIT { "ratelimit_us", PARAM_INT, "1000", NULL, 0, 500000, \
	"sched_ratelimit_us: minimum run before preemption (0: off)", CFG(ratelimit_us) }
#define P_RESIST { "migrate_resist_us", PARAM_INT, "500", NULL, 0, 1000000, \
	"sched_credit2_migrate_resist", CFG(migrate_resist_us) }

/* null, rtds and arinc653 have no boot parameters the shim sets. */
static const struct param_def null_params[] = { { NULL } };

#define P_CREDIT \
	P_RATELIMIT, \
	{ "tslice_ms", PARAM_INT, "30", NULL, 1, 1000, \
	  "sched_credit_tslice_ms: the time slice", CFG(tslice_ms) }, \
	{ "vcpu_migr_delay_us", PARAM_INT, "0", NULL, 0, 100000, \
	  "vcpu_migration_delay: cache-hot time", CFG(vcpu_migr_delay_us) }

static const struct param_def credit_params[] __attribute__((unused)) = { P_CREDIT, { NULL } };

/* Up to 969f58bde2 (2019) credit.c left an idle pCPU's tick to the idle driver. */
static const struct param_def credit_params_tick[] __attribute__((unused)) = {
	P_CREDIT,
	{ "tick_suspend", PARAM_ENUM, "on", "off|on", 0, 0,
	  "the idle driver's sched_tick_suspend/resume around idle (cpuidle with C-states); "
	  "off: an idle loop that only halts, the tick runs on", CFG(tick_suspend) },
	{ NULL }
};

static const struct param_def credit2_params[] = {
	P_RATELIMIT,
	{ "runqueue", PARAM_ENUM, "auto", "auto|cpu|core|socket|node|all", 0, 0,
	  "credit2_runqueue: which pCPUs share a runqueue (auto: the tree's default; "
	  "cpu since 2017)", CFG(runqueue) },
	P_RESIST,
	{ NULL }
};

/* Trees before credit2_runqueue= (April 2016): one runqueue per socket. */
static const struct param_def credit2_params_norunq[] __attribute__((unused)) = {
	P_RATELIMIT,
	P_RESIST,
	{ NULL }
};

#define XS_OPS_COMMON(init_fn, prm) \
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

/*
 * With one tree, the plain names too (as before several trees could be
 * built); a module of one file (below) has none.
 */
#if XEN_SHIM_NTREES == 1 && !defined(XS_EXPORT_OPS)
#define XS_ALIAS(name) name
#else
#define XS_ALIAS(name) NULL
#endif

/* What --list-schedulers says of it: a module's config.h says where its file comes from. */
#ifdef XS_EXPORT_OPS
#define XS_SUMMARY(file, tname, version) "Xen's own " file " of " XS_MODULE_FILE ", built by " \
	"schedsim-xen-module against the Xen tree " XS_MODULE_TREE " (Xen " version ", interface " \
	XS_MODULE_IFACE ")"
#else
#define XS_SUMMARY(file, tname, version) "Xen's own " file " of the tree " tname " (Xen " version ")"
#endif

/* EXTRA: the hooks only one module has (check_rt, adjust_global). */
#define XS_MODULE_OPS(i, tname, version, mod, MOD, file, prm, ...) \
	static int xs_init_##mod##_##i(struct scheduler *s, struct err *e) \
	{ \
		return xs_init(s, &xs_tree_##i, MOD, e); \
	} \
	const struct sched_ops xen_##mod##_ops_##i = { \
		.name = "xen-" #mod "@" tname, \
		.alias = XS_ALIAS("xen-" #mod), \
		.summary = XS_SUMMARY(file, tname, version), \
		XS_OPS_COMMON(xs_init_##mod##_##i, prm), \
		__VA_ARGS__ \
	};

#define XS_TREE_OPS(i, tname, version, has_null, has_credit, has_credit2, has_runq, has_tick, \
		    has_rt, has_a653) \
	extern const struct xs_tree xs_tree_##i; \
	XS_IF(has_null, XS_MODULE_OPS(i, tname, version, null, XS_NULL, "null.c", null_params, )) \
	XS_IF(has_rt, XS_MODULE_OPS(i, tname, version, rtds, XS_RTDS, "rt.c (RTDS)", null_params, \
				  .check_rt = xs_check_rt,)) \
	XS_IF(has_a653, XS_MODULE_OPS(i, tname, version, arinc653, XS_ARINC653, "arinc653.c", \
				      null_params, .adjust_global = xs_adjust_global_op,)) \
	XS_IF(has_credit, XS_MODULE_OPS(i, tname, version, credit, XS_CREDIT, "credit.c (credit1)", \
		XS_IF_##has_tick(credit_params_tick) XS_IF_##has_tick##_NOT(credit_params), )) \
	XS_IF(has_credit2, XS_MODULE_OPS(i, tname, version, credit2, XS_CREDIT2, "credit2.c", \
		XS_IF_##has_runq(credit2_params) XS_IF_##has_runq##_NOT(credit2_params_norunq), ))
#define XS_IF_0_NOT(...) __VA_ARGS__
#define XS_IF_1_NOT(...)

XEN_SHIM_TREES(XS_TREE_OPS)

/*
 * A scheduler module of one Xen file (schedsim-xen-module,
 * xen-shim/module.mk): its xen-trees.h holds XEN_SHIM_TREES of that one
 * file, its config.h names the ops table it exports to the loader (doc/modules.md).
 */
#ifdef XS_EXPORT_OPS
#include "schedulers/module.h"

SCHEDSIM_MODULE(XS_EXPORT_OPS);
#endif
