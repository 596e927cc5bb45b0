/*
 * kernbench: MMTests' kernel build benchmark (shellpack_src/src/kernbench,
 * gormanm/mmtests of July 2019): Linux 4.4 configured with `make
 * defconfig`, built once to warm the page cache, then for each make -j
 * of the run `make clean` and `sync` (untimed) and `time make -jN vmlinux`,
 * whose elapsed time is the figure.  The tree and the compiler are in the
 * page cache, so the build is CPU work and process creation; no block I/O
 * is modelled.
 *
 * `make vmlinux` of Linux 4.4 (top-level Makefile, scripts/Makefile.build,
 * scripts/link-vmlinux.sh) runs in three stages, each a set of jobs make
 * runs N at a time and a serial step that needs all of them (struct build,
 * workloads/makexen.h):
 *
 *  1. configuration: scripts/basic and scripts/kconfig host programs, then
 *     `silentoldconfig` writing include/config/auto.conf (serial);
 *  2. prepare: the host tools of scripts/ (kallsyms, recordmcount, modpost,
 *     sortextable ...) and arch/x86/tools, in parallel, then prepare0's
 *     kernel/bounds.s and arch/x86/kernel/asm-offsets.s (serial: the whole
 *     tree's compiles include their headers);
 *  3. the vmlinux directories (init usr arch/x86 kernel mm fs ipc security
 *     crypto block drivers sound firmware net lib), all descended at once
 *     under make's jobserver: one job per object, then the serial tail of
 *     link-vmlinux.sh (ld -r of vmlinux.o, modpost, two kallsyms passes of
 *     link, nm and assemble, the final link, sortextable, System.map).
 *
 * Each job is a process tree (make's sh, gcc, cc1, as, and Kbuild's fixdep
 * and recordmcount), whose kernel operations (page faults, system calls,
 * forks, execs) it declares: in a PV domain they cost extra work
 * (workloads/kernel_ops.h).  The N make slots are N guest tasks; the
 * metric is the build's elapsed time.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"
#include "workloads/kernel_ops.h"
#include "workloads/makexen.h"

struct kernbench_config {
	long long jobs;
	long long host_tools, objects;
	char config[PARAM_STRING_MAX];
	char host_compile[PARAM_STRING_MAX];
	char prepare[PARAM_STRING_MAX];
	char compile[PARAM_STRING_MAX];
	char link[PARAM_STRING_MAX];
	double faults, syscalls, procs;
	stime_t tlb_refill;
	stime_t start;
	long long build_seed;
	double noise, run_noise, work_scale;
};

#define OFF(f) offsetof(struct kernbench_config, f)

/*
 * The calibration (doc/workloads.md, kernbench): the compile jobs' mean is
 * set on the bare-metal row without SMT (real-measurements.md section 3,
 * HT off, make -j4: 108.73 s) with the hardware model; the ideal machine
 * keeps the figures as written (work_scale 1).
 */
#define KERNBENCH_MODEL_SCALE 1.0
#define KERNBENCH_MODEL_SCALE_TEXT "1"

static const struct param_def kernbench_params[] = {
	{ "jobs", PARAM_INT, "0", NULL, 0, 4096,
	  "make -j: parallel jobs (0: the domain's vCPU count)", OFF(jobs) },
	{ "objects", PARAM_INT, "2100", NULL, 1, 1000000,
	  "compile jobs of the vmlinux directories (objects of a 4.4 x86_64 defconfig)",
	  OFF(objects) },
	{ "host_tools", PARAM_INT, "25", NULL, 0, 100000,
	  "host programs compiled in prepare (scripts/, arch/x86/tools)", OFF(host_tools) },
	{ "config", PARAM_STRING, "const:1500ms", NULL, 0, 0,
	  "CPU of the configuration step (kconfig's silentoldconfig, auto.conf)", OFF(config) },
	{ "host_compile", PARAM_STRING, "lognormal:200ms:0.5", NULL, 0, 0,
	  "CPU of one host program's compile and link", OFF(host_compile) },
	{ "prepare", PARAM_STRING, "const:1500ms", NULL, 0, 0,
	  "CPU of prepare0's serial compiles (bounds.s, asm-offsets.s, missing-syscalls)",
	  OFF(prepare) },
	{ "compile", PARAM_STRING, "lognormal:164.5ms:0.6", NULL, 0, 0,
	  "CPU of one object's job (sh, gcc, cc1, as, fixdep, recordmcount)", OFF(compile) },
	{ "link", PARAM_STRING, "const:18s", NULL, 0, 0,
	  "CPU of link-vmlinux.sh's serial tail (vmlinux.o, modpost, kallsyms passes, links)",
	  OFF(link) },
	{ "faults", PARAM_DOUBLE, "7700", NULL, 0, 1e9,
	  "page faults of one compile job (scaled by CPU for the other steps)", OFF(faults) },
	{ "syscalls", PARAM_DOUBLE, "3100", NULL, 0, 1e9,
	  "system calls of one compile job", OFF(syscalls) },
	{ "procs", PARAM_DOUBLE, "6", NULL, 0, 1e6,
	  "processes (fork + exec) of one compile job", OFF(procs) },
	{ "tlb_refill", PARAM_DURATION, "1000ns", NULL, 0, 0,
	  "work a job's code spends refilling its TLB after each page-table switch of a PV "
	  "kernel entry (calibrated on the 2019 dom0 cells)", OFF(tlb_refill) },
	{ "start", PARAM_DURATION, "0", NULL, 0, 0, "when make starts", OFF(start) },
	{ "build_seed", PARAM_INT, "1", NULL, 0, 0,
	  "seed of the job CPU times: the same source tree in every run", OFF(build_seed) },
	{ "noise", PARAM_DOUBLE, "0.02", NULL, 0, 1,
	  "variation of each job's CPU time within a run (coefficient of variation)", OFF(noise) },
	{ "run_noise", PARAM_DOUBLE, "0.005", NULL, 0, 0.5,
	  "variation of all CPU times from run to run (coefficient of variation)", OFF(run_noise) },
	{ "work_scale", PARAM_DOUBLE, "0", NULL, 0, 100,
	  "factor on every CPU time above, the calibration (0: as calibrated: 1 on --hw=ideal, "
	  KERNBENCH_MODEL_SCALE_TEXT " with the hardware model)", OFF(work_scale) },
	{ NULL }
};

enum kb_stage { KB_CONFIG, KB_PREPARE, KB_VMLINUX, KB_STAGES };
enum kb_slot_state { KS_IDLE, KS_JOB, KS_SERIAL, KS_WAIT };

struct kernbench;

struct kb_slot {
	struct kernbench *k;
	struct task *t;
	enum kb_slot_state st;
};

struct kernbench {
	struct workload *w;
	struct kernbench_config *c;
	struct dist host, compile, serial[KB_STAGES];
	struct build b;
	struct kb_slot *slots;
	int nslots;
	stime_t *job_cpu, serial_cpu[KB_STAGES];   /* the tree's fixed step times */
	double run_factor;
	double mean_job;                           /* the compile jobs' mean, ns */
	int next_job;
	stime_t t_start, t_end;
	bool finished;
	struct timer begin;
};

enum { SLOT_BARRIER };
static const char *const slot_reasons[TASK_BLOCK_REASONS] = { "barrier" };

/* A step's CPU in this run: the tree's time, the run's factor, a log-normal factor of mean 1. */
static stime_t with_noise(struct kernbench *k, stime_t base)
{
	double sd = k->c->noise, f = k->run_factor;

	if (sd > 0) {
		double sigma = sqrt(log(1 + sd * sd));

		f *= exp(sigma * rng_normal(&k->w->rng) - sigma * sigma / 2);
	}
	return (stime_t)((double)base * f) + 1;
}

/*
 * The kernel work a step of `cpu` ns adds in this domain: a compile job's
 * operations (measured: doc/workloads.md), scaled by the step's CPU against
 * a compile job's mean for the serial steps and host tools.
 */
static stime_t kernel_extra(struct kernbench *k, stime_t cpu, bool compile_job)
{
	double share = compile_job ? 1.0 : (double)cpu / k->mean_job;
	struct kernel_ops ops = { { [KOP_PAGE_FAULT] = k->c->faults * share,
				    [KOP_SYSCALL] = k->c->syscalls * share,
				    [KOP_FORK] = k->c->procs * share,
				    [KOP_EXEC] = k->c->procs * share,
				    [KOP_CTXSW] = 2 * k->c->procs * share },
				  (double)k->c->tlb_refill };

	return kernel_ops_cost(k->w->dom->type, &ops);
}

static void draw_tree(struct kernbench *k)
{
	struct rng r;
	int n = build_total_jobs(&k->b);

	rng_seed(&r, (uint64_t)k->c->build_seed);
	k->job_cpu = xcalloc(n ? (size_t)n : 1, sizeof(stime_t));
	for (int i = 0; i < n; i++)
		k->job_cpu[i] = dist_draw(i < k->c->host_tools ? &k->host : &k->compile, &r);
	for (int i = 0; i < KB_STAGES; i++)
		k->serial_cpu[i] = dist_draw(&k->serial[i], &r);
}

static void slot_next(struct sim *s, struct kb_slot *sl)
{
	struct kernbench *k = sl->k;
	int job;

	switch (build_next(&k->b)) {
	case BUILD_JOB:
		job = k->next_job++;
		sl->st = KS_JOB;
		task_fork(s, sl->t);      /* make forks the job's shell */
		task_run(s, sl->t, with_noise(k, k->job_cpu[job]) +
			 kernel_extra(k, k->job_cpu[job], job >= k->c->host_tools));
		return;
	case BUILD_SERIAL:
		sl->st = KS_SERIAL;
		task_fork(s, sl->t);
		task_run(s, sl->t, with_noise(k, k->serial_cpu[k->b.stage]) +
			 kernel_extra(k, k->serial_cpu[k->b.stage], false));
		return;
	case BUILD_WAIT:
		sl->st = KS_WAIT;
		task_block_reason(sl->t, SLOT_BARRIER);
		task_block(s, sl->t);
		return;
	case BUILD_DONE:
		sl->st = KS_IDLE;
		task_exit(s, sl->t);
		return;
	}
}

static void slot_step(struct sim *s, struct task *t)
{
	struct kb_slot *sl = t->ctx;
	struct kernbench *k = sl->k;

	switch (sl->st) {
	case KS_JOB:
		build_job_done(&k->b);
		break;
	case KS_SERIAL:
		if (build_serial_done(&k->b)) {
			k->finished = true;
			k->t_end = sim_now(s);
			sim_request_stop(s);
		}
		sl->st = KS_IDLE;
		/* the next stage opens: every slot waiting for it looks for work */
		for (int i = 0; i < k->nslots; i++)
			if (k->slots[i].st == KS_WAIT && k->slots[i].t->state == TASK_BLOCKED)
				task_wake(s, k->slots[i].t);
		break;
	case KS_WAIT:
	case KS_IDLE:
		break;
	}
	sl->st = KS_IDLE;
	slot_next(s, sl);
}

static void kernbench_begin(struct timer *t, void *arg)
{
	struct kernbench *k = arg;

	(void)t;
	for (int i = 0; i < k->nslots; i++)
		task_time_start(k->w->sim, k->slots[i].t);
}

static int kernbench_setup(struct workload *w, struct err *e)
{
	struct kernbench_config *c = w->config;
	struct kernbench *k = xcalloc(1, sizeof(*k));
	char stages[64];

	w->priv = k;
	k->w = w;
	k->c = c;
	snprintf(stages, sizeof(stages), "0,%lld,%lld", c->host_tools, c->objects);
	if (dist_parse(c->host_compile, &k->host, e) < 0 ? err_prefix(e, "host_compile") :
	    dist_parse(c->compile, &k->compile, e) < 0 ? err_prefix(e, "compile") :
	    dist_parse(c->config, &k->serial[KB_CONFIG], e) < 0 ? err_prefix(e, "config") :
	    dist_parse(c->prepare, &k->serial[KB_PREPARE], e) < 0 ? err_prefix(e, "prepare") :
	    dist_parse(c->link, &k->serial[KB_VMLINUX], e) < 0 ? err_prefix(e, "link") :
	    build_init(&k->b, stages, e)) {
		free(k);
		w->priv = NULL;
		err_prefix(e, "kernbench");
		return err_prefix(e, "%s:%d", w->source, w->spec->line);
	}
	k->mean_job = dist_mean(&k->compile);
	if (k->mean_job <= 0)
		k->mean_job = 1;
	draw_tree(k);
	k->run_factor = 1 + c->run_noise * sqrt(3.0) * (2 * rng_uniform(&w->rng) - 1);
	k->run_factor *= c->work_scale > 0 ? c->work_scale
		       : hw_is_ideal(w->sim->hw) ? 1.0 : KERNBENCH_MODEL_SCALE;
	k->nslots = c->jobs ? (int)c->jobs : w->dom->nr_vcpus;
	k->slots = xcalloc((size_t)k->nslots, sizeof(*k->slots));
	k->t_start = c->start;
	timer_init(&k->begin, kernbench_begin, k);
	timer_set(&w->sim->q, &k->begin, c->start);
	for (int i = 0; i < k->nslots; i++) {
		char name[32];

		snprintf(name, sizeof(name), "make-job%d", i);
		k->slots[i].k = k;
		k->slots[i].t = task_create(guest_of(w->dom), name, TASK_NORMAL,
					    i % w->dom->nr_vcpus, false, slot_step, &k->slots[i],
					    c->start);
	}
	return 0;
}

static void kernbench_metric(struct workload *w, struct metric *mt)
{
	struct kernbench *k = w->priv;

	memset(mt, 0, sizeof(*mt));
	snprintf(mt->name, sizeof(mt->name), "elapsed");
	snprintf(mt->unit, sizeof(mt->unit), "s");
	mt->higher_better = false;
	mt->valid = k && k->finished;
	if (mt->valid)
		mt->value = (double)(k->t_end - k->t_start) / 1e9;
}

static void kernbench_breakdown(struct workload *w, struct breakdown *b)
{
	struct kernbench *k = w->priv;
	struct task **slots;

	if (!k || !k->nslots || !k->slots[0].t->timed || sim_now(w->sim) <= k->t_start)
		return;
	breakdown_init(b, k->t_start, sim_now(w->sim));
	slots = xcalloc((size_t)k->nslots, sizeof(*slots));
	for (int i = 0; i < k->nslots; i++)
		slots[i] = k->slots[i].t;
	breakdown_tasks(b, w->sim, "make", slots, k->nslots, slot_reasons);
	free(slots);
}

static void kernbench_destroy(struct workload *w)
{
	struct kernbench *k = w->priv;

	if (!k)
		return;
	timer_stop(&w->sim->q, &k->begin);
	build_free(&k->b);
	free(k->slots);
	free(k->job_cpu);
	free(k);
	w->priv = NULL;
}

const struct workload_ops kernbench_ops = {
	.name = "kernbench",
	.summary = "MMTests kernbench: time make -jN vmlinux of Linux 4.4 defconfig, tree in the "
		   "page cache: configuration, prepare (host tools, asm-offsets), the objects "
		   "under make's jobserver, link-vmlinux.sh's serial tail; each job's page faults, "
		   "system calls and processes cost more in a PV domain; metric elapsed "
		   "(s, lower is better); the run ends with the build",
	.params = kernbench_params,
	.config_size = sizeof(struct kernbench_config),
	.setup = kernbench_setup,
	.hw = { 0.70, 4 << 20, 0.2, 0 },
	.hw_source = "smt_speed 0.70: kernbench's bare-metal rows, HT on against off at make -j8 "
		     "(83.65 and 109.77 s, real-measurements.md section 3) with the serial steps "
		     "left out (doc/workloads.md); working set: a few MB per compiler (hardware.md); mem_intensity "
		     "0.2: compilers are mostly compute-bound, as make-xen's",
	.metric = kernbench_metric,
	.breakdown = kernbench_breakdown,
	.destroy = kernbench_destroy,
};
