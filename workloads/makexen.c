/*
 * make-xen: building the Xen hypervisor with make -jN inside a guest.
 *
 * make keeps N jobs going.  A job reads its source through blkfront
 * (synchronous reads: the compiler waits for them), compiles for a CPU
 * time drawn from a skewed distribution (most files are small, a few are
 * large), and writes its object (asynchronous: the page cache absorbs it,
 * but the write still goes through blkback).  Stages end in a serial step
 * (ar / ld -r of a directory, and the final links of xen-syms) that needs
 * every object of the stage: with -jN only one vCPU works then, which is
 * what makes the build sensitive to how quickly the scheduler gives the
 * other vCPUs back when the next stage starts.
 *
 * The N make slots are N guest tasks that loop over the build; the guest
 * scheduler spreads them over the vCPUs.  The run stops when the build is
 * done; the metric is the build's wall-clock time.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/blk.h"
#include "workloads/makexen.h"

int build_init(struct build *b, const char *stages, struct err *e)
{
	const char *p = stages;

	memset(b, 0, sizeof(*b));
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || v < 0 || v > 1000000 || (*end && *end != ',') ||
		    (*end == ',' && !end[1])) {
			free(b->jobs);
			b->jobs = NULL;
			return err_set(e, "stages=\"%s\": expected a comma list of job counts",
				       stages);
		}
		b->jobs = xreallocarray(b->jobs, b->nstages + 1, sizeof(int));
		b->jobs[b->nstages++] = (int)v;
		p = *end ? end + 1 : end;
	}
	if (!b->nstages)
		return err_set(e, "stages=\"%s\": at least one stage is needed", stages);
	return 0;
}

void build_free(struct build *b)
{
	free(b->jobs);
	b->jobs = NULL;
}

enum build_action build_next(struct build *b)
{
	if (b->done)
		return BUILD_DONE;
	if (b->started < b->jobs[b->stage]) {
		b->started++;
		return BUILD_JOB;
	}
	if (b->finished < b->jobs[b->stage] || b->serial_taken)
		return BUILD_WAIT;
	b->serial_taken = true;
	return BUILD_SERIAL;
}

void build_job_done(struct build *b)
{
	b->finished++;
}

bool build_serial_done(struct build *b)
{
	b->stage++;
	b->started = b->finished = 0;
	b->serial_taken = false;
	b->done = b->stage == b->nstages;
	return b->done;
}

int build_total_jobs(const struct build *b)
{
	int n = 0;

	for (int i = 0; i < b->nstages; i++)
		n += b->jobs[i];
	return n;
}

struct makexen_config {
	long long jobs;
	char stages[PARAM_STRING_MAX];
	char compile[PARAM_STRING_MAX];
	char serial[PARAM_STRING_MAX];
	char link[PARAM_STRING_MAX];
	long long reads, read_size, writes, write_size;
	char disk[PARAM_STRING_MAX];
	double disk_mbps;
	long long ring_size;
	stime_t blkfront_cost, blkback_cost, blkback_irq_cost, complete_cost;
	stime_t evtchn_latency;
	long long guest_vcpu, dom0_vcpu;
	stime_t start;
	long long build_seed;
	double noise, run_noise, work_scale;
};

#define OFF(f) offsetof(struct makexen_config, f)

/*
 * The calibration (doc/workloads.md): the CPU times above were set on the
 * full-speed machine; with the hardware model the work is scaled once so
 * that the build on the default host (the 2016 test host) under the Credit1
 * of that time (credit1:era=2016), no dom0 load, takes the real 28.353 s
 * (real-measurements.md section 1; doc/validation.md, the guest's memory on
 * both nodes as xl leaves it after autoballooning: 0.915 gave 28.69 s and
 * 0.93 29.07 s over 8 iterations, 0.9015 28.12 s over 15, so 0.909).
 */
#define MAKEXEN_MODEL_SCALE 0.909
#define MAKEXEN_MODEL_SCALE_TEXT "0.909"

static const struct param_def makexen_params[] = {
	{ "jobs", PARAM_INT, "0", NULL, 0, 4096,
	  "make -j: parallel jobs (0: the guest's vCPU count)", OFF(jobs) },
	{ "stages", PARAM_STRING, "30,120,150,120,60", NULL, 0, 0,
	  "compile jobs per stage; each stage ends in a serial step", OFF(stages) },
	{ "compile", PARAM_STRING, "lognormal:362ms:0.8", NULL, 0, 0,
	  "CPU time of one compile job (distribution)", OFF(compile) },
	{ "serial", PARAM_STRING, "lognormal:258ms:0.5", NULL, 0, 0,
	  "CPU time of the serial step after a stage (ar, ld -r)", OFF(serial) },
	{ "link", PARAM_STRING, "const:2580ms", NULL, 0, 0,
	  "CPU time of the last serial step (the xen-syms links)", OFF(link) },
	{ "reads", PARAM_INT, "1", NULL, 0, 1000,
	  "synchronous block reads per compile job (sources, headers)", OFF(reads) },
	{ "read_size", PARAM_SIZE, "65536", NULL, 512, 1 << 24,
	  "bytes per read", OFF(read_size) },
	{ "writes", PARAM_INT, "1", NULL, 0, 1000,
	  "asynchronous block writes per job and per serial step (objects)", OFF(writes) },
	{ "write_size", PARAM_SIZE, "65536", NULL, 512, 1 << 24,
	  "bytes per write", OFF(write_size) },
	{ "disk", PARAM_STRING, "exp:100us", NULL, 0, 0,
	  "disk (or dom0 page cache) latency per request", OFF(disk) },
	{ "disk_mbps", PARAM_DOUBLE, "500", NULL, 0, 1e6,
	  "disk transfer rate in MB/s (0: no transfer time)", OFF(disk_mbps) },
	{ "ring_size", PARAM_INT, "32", NULL, 1, 4096,
	  "blkif ring slots (32: one page)", OFF(ring_size) },
	{ "blkfront_cost", PARAM_DURATION, "5us", NULL, 0, 0,
	  "guest CPU per response in blkfront's interrupt", OFF(blkfront_cost) },
	{ "blkback_cost", PARAM_DURATION, "15us", NULL, 0, 0,
	  "dom0 CPU per request in the blkback kthread (map, submit)", OFF(blkback_cost) },
	{ "blkback_irq_cost", PARAM_DURATION, "2us", NULL, 0, 0,
	  "dom0 CPU per notification (interrupt that wakes the kthread)", OFF(blkback_irq_cost) },
	{ "complete_cost", PARAM_DURATION, "5us", NULL, 0, 0,
	  "dom0 CPU per completed request (unmap, make the response)", OFF(complete_cost) },
	{ "evtchn_latency", PARAM_DURATION, "2us", NULL, 0, 0,
	  "event channel send to upcall", OFF(evtchn_latency) },
	{ "guest_vcpu", PARAM_INT, "0", NULL, 0, 4095,
	  "guest vCPU blkfront's event channel is bound to", OFF(guest_vcpu) },
	{ "dom0_vcpu", PARAM_INT, "0", NULL, 0, 4095,
	  "dom0 vCPU blkback's event channel is bound to", OFF(dom0_vcpu) },
	{ "start", PARAM_DURATION, "0", NULL, 0, 0,
	  "when make starts", OFF(start) },
	{ "build_seed", PARAM_INT, "1", NULL, 0, 0,
	  "seed of the job CPU times: the same source tree in every run", OFF(build_seed) },
	{ "noise", PARAM_DOUBLE, "0.02", NULL, 0, 1,
	  "variation of each step's CPU time within a run (coefficient of variation)", OFF(noise) },
	{ "run_noise", PARAM_DOUBLE, "0.01", NULL, 0, 0.5,
	  "variation of all CPU times from run to run (coefficient of variation)", OFF(run_noise) },
	{ "work_scale", PARAM_DOUBLE, "0", NULL, 0, 100,
	  "factor on every CPU time above, the calibration (0: as calibrated for the machine: "
	  "1 on --hw=ideal, " MAKEXEN_MODEL_SCALE_TEXT " with the hardware model)", OFF(work_scale) },
	{ NULL }
};

enum slot_state { S_IDLE, S_IO, S_COMPILE, S_SERIAL, S_WAIT };

struct makexen;

struct mx_slot {
	struct makexen *m;
	struct task *t;
	enum slot_state st;
	int reads_left;
	int job;
	bool io_done;
};

struct makexen {
	struct workload *w;
	struct makexen_config *c;
	struct dist compile, serial, link, disk;
	struct build b;
	struct blkdev *blk;
	struct mx_slot *slots;
	int nslots;
	stime_t *job_cpu, *serial_cpu;    /* the build's fixed step times */
	double run_factor;                /* this run's host state */
	int next_job;
	stime_t t_start, t_end;
	bool finished;
	struct timer begin;               /* make starts: the account of time starts */
};

/* Why a make slot blocks (its breakdown's "blocked:" parts). */
enum { SLOT_IO, SLOT_BARRIER };
static const char *const slot_reasons[TASK_BLOCK_REASONS] = { "io", "barrier" };

/*
 * A step's CPU time in this run: the build's fixed time, scaled by the
 * run's factor (the host's state for the whole run) and varied by a
 * log-normal factor of mean 1 (cache state, frequency, interrupts).
 */
static stime_t with_noise(struct makexen *m, stime_t base)
{
	double sd = m->c->noise, f = m->run_factor;

	if (sd > 0) {
		double sigma = sqrt(log(1 + sd * sd));

		f *= exp(sigma * rng_normal(&m->w->rng) - sigma * sigma / 2);
	}
	return (stime_t)(base * f) + 1;
}

/*
 * Draws the CPU time of every compile job and serial step once, from the
 * build's own seed: every run compiles the same files, so these do not
 * change between iterations; only the run's noise and timing do.
 */
static void draw_build(struct makexen *m)
{
	struct rng r;
	int n = build_total_jobs(&m->b);

	rng_seed(&r, (uint64_t)m->c->build_seed);
	m->job_cpu = xcalloc(n ? n : 1, sizeof(stime_t));
	m->serial_cpu = xcalloc(m->b.nstages, sizeof(stime_t));
	for (int i = 0; i < n; i++)
		m->job_cpu[i] = dist_draw(&m->compile, &r);
	for (int i = 0; i < m->b.nstages; i++)
		m->serial_cpu[i] = dist_draw(i == m->b.nstages - 1 ? &m->link : &m->serial, &r);
}

static void read_done(struct sim *s, void *cookie)
{
	struct mx_slot *sl = cookie;

	sl->io_done = true;
	task_wake(s, sl->t);
}

static void submit_read(struct mx_slot *sl)
{
	struct makexen *m = sl->m;

	sl->io_done = false;
	blk_submit(m->blk, false, (uint32_t)m->c->read_size, read_done, sl);
}

static void submit_writes(struct makexen *m)
{
	for (long long i = 0; i < m->c->writes; i++)
		blk_submit(m->blk, true, (uint32_t)m->c->write_size, NULL, NULL);
}

/* A free make slot takes the next thing the build allows. */
static void slot_next(struct sim *s, struct mx_slot *sl)
{
	struct makexen *m = sl->m;

	switch (build_next(&m->b)) {
	case BUILD_JOB:
		sl->job = m->next_job++;
		sl->reads_left = (int)m->c->reads;
		if (sl->reads_left > 0) {
			sl->st = S_IO;
			submit_read(sl);
			task_block_reason(sl->t, SLOT_IO);
			task_block(s, sl->t);
			return;
		}
		sl->st = S_COMPILE;
		task_run(s, sl->t, with_noise(m, m->job_cpu[sl->job]));
		return;
	case BUILD_SERIAL:
		sl->st = S_SERIAL;
		task_run(s, sl->t, with_noise(m, m->serial_cpu[m->b.stage]));
		return;
	case BUILD_WAIT:
		sl->st = S_WAIT;
		task_block_reason(sl->t, SLOT_BARRIER);
		task_block(s, sl->t);
		return;
	case BUILD_DONE:
		sl->st = S_IDLE;
		task_exit(s, sl->t);
		return;
	}
}

/* The barrier opens: every slot waiting for it looks for work again. */
static void open_stage(struct sim *s, struct makexen *m)
{
	for (int i = 0; i < m->nslots; i++)
		if (m->slots[i].st == S_WAIT && m->slots[i].t->state == TASK_BLOCKED)
			task_wake(s, m->slots[i].t);
}

static void slot_step(struct sim *s, struct task *t)
{
	struct mx_slot *sl = t->ctx;
	struct makexen *m = sl->m;

	switch (sl->st) {
	case S_IO:
		if (!sl->io_done) {
			task_block_reason(t, SLOT_IO);
			task_block(s, t);
			return;
		}
		if (--sl->reads_left > 0) {
			submit_read(sl);
			task_block_reason(t, SLOT_IO);
			task_block(s, t);
			return;
		}
		sl->st = S_COMPILE;
		task_run(s, t, with_noise(m, m->job_cpu[sl->job]));
		return;
	case S_COMPILE:
		submit_writes(m);
		build_job_done(&m->b);
		break;
	case S_SERIAL:
		submit_writes(m);
		if (build_serial_done(&m->b)) {
			m->finished = true;
			m->t_end = sim_now(s);
			sim_request_stop(s);
		}
		sl->st = S_IDLE;
		open_stage(s, m);
		break;
	case S_WAIT:
	case S_IDLE:
		break;
	}
	sl->st = S_IDLE;
	slot_next(s, sl);
}

static int parse_dist(const char *name, const char *text, struct dist *d,
		      struct err *e)
{
	if (dist_parse(text, d, e) < 0)
		return err_prefix(e, "%s", name);
	return 0;
}

static int check_vcpu(const char *what, long long v, const struct domain *d,
		      struct err *e)
{
	if (v >= d->nr_vcpus)
		return err_set(e, "make-xen: %s=%lld but domain %s has %d vCPUs",
			       what, v, d->name, d->nr_vcpus);
	return 0;
}

static void makexen_begin(struct timer *t, void *arg)
{
	struct makexen *m = arg;
	struct sim *s = m->w->sim;

	(void)t;
	for (int i = 0; i < m->nslots; i++)
		task_time_start(s, m->slots[i].t);
	task_time_start(s, m->blk->kthread->task);
	task_time_start(s, m->blk->front_irq->task);
}

static int makexen_setup(struct workload *w, struct err *e)
{
	struct makexen_config *c = w->config;
	struct domain *d0 = split_dom0(w->sim);
	struct makexen *m;
	struct blk_params bp;

	if (!d0 || d0 == w->dom) {
		err_set(e, "make-xen runs in a guest and needs dom0 (domid 0) for blkback");
		return err_prefix(e, "%s:%d", w->source, w->spec->line);
	}
	if (check_vcpu("guest_vcpu", c->guest_vcpu, w->dom, e) < 0 ||
	    check_vcpu("dom0_vcpu", c->dom0_vcpu, d0, e) < 0)
		return err_prefix(e, "%s:%d", w->source, w->spec->line);
	m = xcalloc(1, sizeof(*m));
	w->priv = m;
	m->w = w;
	m->c = c;
	if (parse_dist("compile", c->compile, &m->compile, e) < 0 ||
	    parse_dist("serial", c->serial, &m->serial, e) < 0 ||
	    parse_dist("link", c->link, &m->link, e) < 0 ||
	    parse_dist("disk", c->disk, &m->disk, e) < 0 ||
	    build_init(&m->b, c->stages, e) < 0) {
		free(m);
		w->priv = NULL;
		err_prefix(e, "make-xen");
		return err_prefix(e, "%s:%d", w->source, w->spec->line);
	}
	bp = (struct blk_params){
		.ring_size = (int)c->ring_size, .batch = (int)c->ring_size,
		.front_cost = c->blkfront_cost, .back_irq_cost = c->blkback_irq_cost,
		.back_cost = c->blkback_cost, .complete_cost = c->complete_cost,
		.evtchn_latency = c->evtchn_latency, .disk = m->disk,
		.disk_bw = c->disk_mbps * 1e6, .guest_vcpu = (int)c->guest_vcpu,
		.dom0_vcpu = (int)c->dom0_vcpu,
	};
	draw_build(m);
	m->run_factor = 1 + c->run_noise * sqrt(3.0) * (2 * rng_uniform(&w->rng) - 1);
	m->run_factor *= c->work_scale > 0 ? c->work_scale
		       : hw_is_ideal(w->sim->hw) ? 1.0 : MAKEXEN_MODEL_SCALE;
	m->blk = blk_create(w->sim, guest_of(w->dom), guest_of(d0), &bp, &w->rng, "xvda");
	m->nslots = c->jobs ? (int)c->jobs : w->dom->nr_vcpus;
	m->slots = xcalloc(m->nslots, sizeof(*m->slots));
	m->t_start = c->start;
	timer_init(&m->begin, makexen_begin, m);
	timer_set(&w->sim->q, &m->begin, c->start);
	for (int i = 0; i < m->nslots; i++) {
		char name[32];

		snprintf(name, sizeof(name), "make-job%d", i);
		m->slots[i].m = m;
		m->slots[i].t = task_create(guest_of(w->dom), name, TASK_NORMAL,
					    i % w->dom->nr_vcpus, false, slot_step,
					    &m->slots[i], c->start);
	}
	return 0;
}

static void makexen_metric(struct workload *w, struct metric *mt)
{
	struct makexen *m = w->priv;

	memset(mt, 0, sizeof(*mt));
	snprintf(mt->name, sizeof(mt->name), "build_time");
	snprintf(mt->unit, sizeof(mt->unit), "s");
	mt->higher_better = false;
	mt->valid = m && m->finished;
	if (mt->valid)
		mt->value = (double)(m->t_end - m->t_start) / 1e9;
}

/* The make slots' time, summed, and the block path's, over the build. */
static void makexen_breakdown(struct workload *w, struct breakdown *b)
{
	struct makexen *m = w->priv;
	struct sim *s = w->sim;
	struct task **slots;

	/* The build's end stops the run, so now is its end when it finished. */
	if (!m || !m->nslots || !m->slots[0].t->timed || sim_now(s) <= m->t_start)
		return;
	breakdown_init(b, m->t_start, sim_now(s));
	slots = xcalloc((size_t)m->nslots, sizeof(*slots));
	for (int i = 0; i < m->nslots; i++)
		slots[i] = m->slots[i].t;
	breakdown_tasks(b, s, "make", slots, m->nslots, slot_reasons);
	free(slots);
	breakdown_tasks(b, s, "blkback", &m->blk->kthread->task, 1, NULL);
	breakdown_tasks(b, s, "blkfront", &m->blk->front_irq->task, 1, NULL);
}

static void makexen_destroy(struct workload *w)
{
	struct makexen *m = w->priv;

	if (!m)
		return;
	timer_stop(&w->sim->q, &m->begin);
	blk_free(m->blk);
	build_free(&m->b);
	free(m->slots);
	free(m->job_cpu);
	free(m->serial_cpu);
	free(m);
	w->priv = NULL;
}

const struct workload_ops makexen_ops = {
	.name = "make-xen",
	.summary = "a guest builds Xen with make -jN: parallel compile stages, "
		   "serial archive/link steps, I/O through blkfront/blkback; "
		   "metric build_time (s, lower is better); the run ends with the build",
	.params = makexen_params,
	.config_size = sizeof(struct makexen_config),
	.setup = makexen_setup,
	.hw = { 0.65, 4 << 20, 0.2, 0 },
	.hw_source = "smt_speed 0.65: kernbench, a parallel kernel build (real-measurements.md section "
		     "3); working set: a few MB per compiler (hardware.md); mem_intensity 0.2: "
		     "compilers are mostly compute-bound (hardware.md), a modelling choice",
	.metric = makexen_metric,
	.breakdown = makexen_breakdown,
	.destroy = makexen_destroy,
};
