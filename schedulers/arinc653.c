/*
 * Xen's ARINC 653 scheduler (xen/common/sched/arinc653.c), modelled.
 *
 * The algorithm: a fixed cyclic schedule, as the ARINC 653 avionics
 * standard asks for time partitioning.  The schedule is a major frame
 * divided into minor frames, each naming one vCPU (a domain and a vCPU
 * id; Xen names the domain by its handle) and a runtime; the minor frames
 * run back to back from the start of the major frame, and what is left of
 * the major frame after the last one is idle.  The major frame repeats
 * forever.  In its minor frame a vCPU runs if it is awake (woken and not
 * put to sleep) and runnable; otherwise the pCPU idles: nothing else ever
 * takes the time.  Nothing is weighed, nothing migrates.
 *
 * - The schedule is installed by the toolstack with
 *   XEN_SYSCTL_SCHEDOP_putinfo (arinc653_sched_set, the adjust_global hook
 *   here): 1 to 64 entries, each runtime > 0, their sum at most the major
 *   frame.  It takes effect at once: the next schedule starts a major
 *   frame.  Entries naming a vCPU that does not exist idle.
 * - Until then the default schedule has one 10 ms entry for each vCPU of
 *   dom0 (the control domain), added as they are created, and a major
 *   frame that is their sum: other domains do not run at all.
 * - do_schedule: at or past the end of the major frame a new one starts;
 *   within it, the minor frame the time falls in is found by walking on
 *   from the current one; the pick is that entry's vCPU, and the slice
 *   lasts to the end of its minor frame (or, after the last, to the end of
 *   the major frame).  The pool has one schedule and one position in it,
 *   shared by all its pCPUs: each pCPU runs the entry's vCPU only if that
 *   vCPU is on this pCPU, and idles otherwise.  On a pool of several pCPUs
 *   the schedule is therefore serialised: one vCPU runs at a time (Xen's
 *   commit 9f0c658bae, "These changes do not implement arinc653
 *   multicore"), and SUPPORT.md supports only single-vCPU domains.
 * - A vCPU stays on the pCPU it was created on (a653sched_pick_resource
 *   keeps the current one): hard affinity is not honoured, so sim_build
 *   refuses a hard affinity that leaves a vCPU outside it.
 * - Wake marks the vCPU awake and reschedules its pCPU; sleep marks it
 *   asleep and reschedules its pCPU if it runs there.  A blocked vCPU
 *   stays awake but not runnable: its frame idles until it is woken.
 *
 * ERAS (parameter era=2015|2016|2017|4.17|current, default current; 2015
 * to 2017 are 4.17's arinc653.c on their trees, whose domain creation puts
 * a new domain's vCPU 0 elsewhere: doc/eras.md):
 *   4.17     a major frame starts when the first schedule at or after its
 *            due time runs (next_major_frame = now + major_frame), so a
 *            late schedule delays every later frame: the drift commit
 *            f2927d8343 measured (3.5 ms over 21 frames on an emulated
 *            board).  The position in the schedule is two function
 *            statics shared by all pools (fixed by d0561ac8ab); with one
 *            pool that is the same as per-scheduler state.
 *   current  f2927d8343 (2025): major frames stay on the grid of the first
 *            one; a late schedule finds the frame the time falls in by a
 *            modulo and walks to the minor frame; 5a1121633f stops the walk
 *            reading one entry past the last; 6d412c0599 keeps the default
 *            schedule's major frame at 10 ms per dom0 vCPU, as before.
 * schedsim's timers fire exactly on time, so the two eras differ only
 * when a schedule comes late (tests/check_arinc653.c calls it late).
 */
#include <stdlib.h>

#include "schedulers/arinc653.h"
#include "sim/xalloc.h"

static struct arinc653_unit *aunit(const struct vcpu *v)
{
	return v->sched_priv;
}

/* The vCPU an entry names, or NULL. */
static struct vcpu *find_unit(struct a653sched_priv *prv, int domid, int unit_id)
{
	struct sched_list *iter;

	list_for_each(iter, &prv->unit_list) {
		struct arinc653_unit *av = list_entry(iter, struct arinc653_unit, list);

		if (av->unit->dom->domid == domid && av->unit->vcpu_id == unit_id)
			return av->unit;
	}
	return NULL;
}

static void update_schedule_units(struct a653sched_priv *prv)
{
	unsigned i;

	for (i = 0; i < prv->num_schedule_entries; i++)
		prv->schedule[i].unit = find_unit(prv, prv->schedule[i].domid,
						  prv->schedule[i].unit_id);
}

/* XEN_SYSCTL_SCHEDOP_putinfo: checks and installs a schedule, effective now. */
static int arinc653_sched_set(struct scheduler *ops, const struct sched_global_op *op,
			      struct err *e)
{
	struct a653sched_priv *prv = a653_priv(ops);
	const struct arinc653_schedule *schedule = op->arinc653;
	stime_t total_runtime = 0;
	int i;

	if (!schedule)
		return 0;
	if (schedule->major_frame <= 0 || schedule->num_sched_entries < 1 ||
	    schedule->num_sched_entries > ARINC653_MAX_DOMAINS_PER_SCHEDULE)
		return err_set(e, "arinc653: the schedule needs a major frame > 0 and 1 to %d "
			       "entries", ARINC653_MAX_DOMAINS_PER_SCHEDULE);
	for (i = 0; i < schedule->num_sched_entries; i++) {
		if (schedule->entries[i].runtime <= 0)
			return err_set(e, "arinc653: entry %d has no runtime", i);
		total_runtime += schedule->entries[i].runtime;
	}
	if (total_runtime > schedule->major_frame)
		return err_set(e, "arinc653: the entries' runtimes add up to more than the major frame");

	prv->num_schedule_entries = (unsigned)schedule->num_sched_entries;
	prv->major_frame = schedule->major_frame;
	for (i = 0; i < schedule->num_sched_entries; i++) {
		prv->schedule[i].domid = schedule->entries[i].domid;
		prv->schedule[i].unit_id = schedule->entries[i].vcpu_id;
		prv->schedule[i].runtime = schedule->entries[i].runtime;
	}
	update_schedule_units(prv);
	/* No waiting for the current major frame: the next schedule starts one. */
	prv->next_major_frame = sim_now(prv->sim);
	return 0;
}

static int a653sched_init(struct scheduler *ops, struct err *e)
{
	const struct a653_config *cfg = ops->config;
	struct a653sched_priv *prv = xcalloc(1, sizeof(*prv));

	prv->sim = ops->sim;
	prv->era = cfg->era <= A653_TREE_4_17 ? A653_ERA_4_17 : A653_ERA_CURRENT;
	ops->initial_cpu = cfg->era == A653_TREE_2015 ? INITIAL_CPU_LEAST_USED :  /* d5438accce */
			   cfg->era < A653_TREE_4_17 ? INITIAL_CPU_ANY :           /* 8d3c326f67 */
			   INITIAL_CPU_FIRST;
	list_init(&prv->unit_list);
	prv->next_major_frame = 0;
	if (prv->era == A653_ERA_CURRENT) {
		/* f2927d8343: never a zero major frame, even with no entries. */
		prv->major_frame = A653_DEFAULT_TIMESLICE;
		prv->schedule[0].runtime = A653_DEFAULT_TIMESLICE;
	}
	ops->priv = prv;
	(void)e;
	return 0;
}

static void a653sched_deinit(struct scheduler *ops)
{
	free(a653_priv(ops));
}

static void *a653sched_alloc_udata(struct scheduler *ops, struct vcpu *v, void *dd)
{
	struct a653sched_priv *prv = a653_priv(ops);
	struct arinc653_unit *svc = xcalloc(1, sizeof(*svc));
	unsigned entry;

	/* Every vCPU of the control domain (dom0) gets an entry while there are slots. */
	if (!is_idle_vcpu(v) && v->dom->domid == 0) {
		entry = prv->num_schedule_entries;
		if (entry < ARINC653_MAX_DOMAINS_PER_SCHEDULE) {
			prv->schedule[entry].domid = 0;
			prv->schedule[entry].unit_id = v->vcpu_id;
			prv->schedule[entry].runtime = A653_DEFAULT_TIMESLICE;
			prv->schedule[entry].unit = v;
			/* 6d412c0599: the initial major frame already holds the first entry. */
			if (prv->era == A653_ERA_4_17 || entry)
				prv->major_frame += A653_DEFAULT_TIMESLICE;
			prv->num_schedule_entries++;
		}
	}
	/* A vCPU starts asleep; vcpu_wake marks it awake. */
	svc->unit = v;
	svc->awake = false;
	list_init(&svc->list);
	if (!is_idle_vcpu(v))
		list_add(&svc->list, &prv->unit_list);
	update_schedule_units(prv);
	(void)dd;
	return svc;
}

static void a653sched_free_udata(struct scheduler *ops, void *priv)
{
	struct a653sched_priv *prv = a653_priv(ops);
	struct arinc653_unit *av = priv;

	if (!av)
		return;
	if (!list_empty(&av->list))
		list_del_init(&av->list);
	update_schedule_units(prv);
	free(av);
}

static void a653sched_unit_sleep(struct scheduler *ops, struct vcpu *v)
{
	if (aunit(v))
		aunit(v)->awake = false;
	if (curr_on(ops->sim, v->processor) == v)
		cpu_raise_softirq(ops->sim, v->processor);
}

static void a653sched_unit_wake(struct scheduler *ops, struct vcpu *v)
{
	if (aunit(v))
		aunit(v)->awake = true;
	cpu_raise_softirq(ops->sim, v->processor);
}

/* 4.17: a major frame starts from now; the walk goes on from the current entry. */
static void find_frame_4_17(struct a653sched_priv *prv, stime_t now)
{
	if (prv->num_schedule_entries < 1) {
		prv->next_major_frame = now + A653_DEFAULT_TIMESLICE;
	} else if (now >= prv->next_major_frame) {
		prv->sched_index = 0;
		prv->next_major_frame = now + prv->major_frame;
		prv->next_switch_time = now + prv->schedule[0].runtime;
	} else {
		/*
		 * Xen adds the runtime of the entry after the last one too (one
		 * past the array when it is full; 5a1121633f): the result is
		 * replaced below, so the walk stops at the last entry here.
		 */
		while (now >= prv->next_switch_time &&
		       prv->sched_index < prv->num_schedule_entries) {
			prv->sched_index++;
			if (prv->sched_index < prv->num_schedule_entries)
				prv->next_switch_time += prv->schedule[prv->sched_index].runtime;
		}
	}
}

/* current (f2927d8343): major frames on a fixed grid, found by modulo when late. */
static void find_frame_current(struct a653sched_priv *prv, stime_t now)
{
	if (now >= prv->next_major_frame) {
		stime_t remainder = (now - prv->next_major_frame) % prv->major_frame;

		prv->sched_index = 0;
		prv->next_major_frame = now - remainder + prv->major_frame;
		prv->next_switch_time = now - remainder + prv->schedule[0].runtime;
	}
	/* The minor frame now falls in, also after a miss. */
	while (now >= prv->next_switch_time &&
	       ++prv->sched_index < prv->num_schedule_entries)
		prv->next_switch_time += prv->schedule[prv->sched_index].runtime;
}

static void a653sched_do_schedule(struct scheduler *ops, struct vcpu *prev, stime_t now,
				  bool tasklet_work_scheduled, struct sched_decision *out)
{
	struct a653sched_priv *prv = a653_priv(ops);
	int cpu = ops->sim->this_cpu;
	struct vcpu *idle = sched_idle_unit(ops->sim, cpu);
	struct vcpu *new_task;

	if (prv->era == A653_ERA_4_17)
		find_frame_4_17(prv, now);
	else
		find_frame_current(prv, now);
	/* Past the last minor frame: idle to the end of the major frame. */
	if (prv->sched_index >= prv->num_schedule_entries)
		prv->next_switch_time = prv->next_major_frame;

	new_task = prv->sched_index < prv->num_schedule_entries ?
		   prv->schedule[prv->sched_index].unit : idle;
	/* It runs only if it exists, is awake and is runnable. */
	if (!new_task || !aunit(new_task) || !aunit(new_task)->awake || !vcpu_runnable(new_task))
		new_task = idle;
	/* Tasklet work, in the idle vCPU, overrides all else. */
	if (tasklet_work_scheduled)
		new_task = idle;
	/* Running it here would be a migration: this pCPU idles. */
	if (!is_idle_vcpu(new_task) && new_task->processor != cpu)
		new_task = idle;

	out->next = new_task;
	out->time_slice = prv->next_switch_time - now;
	out->migrated = false;
	(void)prev;
}

/* Its current pCPU if in the pool, else the pool's first. */
static int a653sched_pick_resource(struct scheduler *ops, struct vcpu *v)
{
	const struct cpumask *online = cpupool_domain_master_cpumask(v->dom);
	unsigned cpu = cpumask_first(online);

	if (cpumask_test(online, (unsigned)v->processor) || cpu >= online->nbits)
		cpu = (unsigned)v->processor;
	return (int)cpu;
}

static void a653sched_dump(struct scheduler *ops, FILE *f)
{
	struct a653sched_priv *prv = a653_priv(ops);
	char buf[32];
	unsigned i;

	fprintf(f, "arinc653: major frame %s, %u entries, at entry %u, next switch %lld, "
		"next major frame %lld\n", format_duration(prv->major_frame, buf, sizeof(buf)),
		prv->num_schedule_entries, prv->sched_index, (long long)prv->next_switch_time,
		(long long)prv->next_major_frame);
	for (i = 0; i < prv->num_schedule_entries; i++)
		fprintf(f, "  %u: d%dv%d %s%s\n", i, prv->schedule[i].domid, prv->schedule[i].unit_id,
			format_duration(prv->schedule[i].runtime, buf, sizeof(buf)),
			prv->schedule[i].unit ? "" : " (no such vCPU)");
}

static const struct param_def a653_params[] = {
	{ "era", PARAM_ENUM, "current", "2015|2016|2017|4.17|current", 0, 0,
	  "which arinc653.c: 4.17 (a major frame starts at the first schedule after it is "
	  "due; 2015 to 2017: the same file, with their trees' placement of a new domain's "
	  "vCPU 0) or current (f2927d8343: frames stay on a fixed grid)",
	  offsetof(struct a653_config, era) },
	{ NULL }
};

const struct sched_ops arinc653_ops = {
	.name = "arinc653",
	.summary = "Xen's ARINC 653: a fixed cyclic schedule of minor frames in a major frame "
		   "(<arinc653> in the scenario); outside them the pCPU idles",
	.params = a653_params,
	.config_size = sizeof(struct a653_config),
	.init = a653sched_init,
	.deinit = a653sched_deinit,
	.alloc_udata = a653sched_alloc_udata,
	.free_udata = a653sched_free_udata,
	.sleep = a653sched_unit_sleep,
	.wake = a653sched_unit_wake,
	.do_schedule = a653sched_do_schedule,
	.pick_resource = a653sched_pick_resource,
	.adjust_global = arinc653_sched_set,
	.dump = a653sched_dump,
};
