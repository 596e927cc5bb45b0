/*
 * The hardware performance model (see hw.h for what it models and how the
 * core and the guest layer use it).  Per core it keeps how many threads run
 * a non-idle vCPU (SMT; what each runs is its vCPU's profile) and how many
 * bytes were touched in its private cache; per socket the bytes touched in
 * the last-level cache and the memory traffic of its threads; per pCPU
 * when it went idle (C-states) and when its vCPU's cache fill ends; per
 * node the free memory; per vCPU where its cached lines are and its fill;
 * per domain where its memory is; per pCPU what its vCPU's speed was
 * worked out with.  Everything is O(1) per context switch
 * and per rate query, except telling the other threads of a core that
 * what runs on it changed, and looking at a socket's threads when its
 * memory load changes.
 */
#include "sim/engine/hw.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine/sim.h"
#include "sim/xalloc.h"

const char *const hw_loss_names[HW_NR_LOST] = { "smt", "cache", "numa", "cstate", "membw" };

#define OFF(f) offsetof(struct hw_config, f)
#define NEHALEM_CSTATES "C1:1:3us:6us,C1E:1:10us:20us,C3:2:20us:80us,C6:3:200us:800us"
#define MAX_CSTATES 10      /* Linux's CPUIDLE_STATE_MAX (Xen's ACPI_PROCESSOR_MAX_POWER is 8) */
#define LINE_BYTES 64.0     /* a cache line */
#define FILL_BUFFERS 10.0   /* a Nehalem core's L1D fill buffers (Intel's optimization manual) */
#define MAX_QUEUE_LOAD 0.95 /* beyond it the bandwidth, not the queue, bounds the time */
/*
 * A running thread's time per unit of work may lag its socket's memory load
 * by this much (a fraction of its full-speed time) before it is re-timed:
 * the model's resolution of memory contention.
 */
#define LOAD_STEP 1e-2
/*
 * A thread's band (mem_band) keeps at least this much of LOAD_STEP, in
 * extra time per unit of work, away from either edge: far beyond the
 * rounding of mem_extra (1e-13 at most), so inside the band the exact test
 * cannot say stale (hw_check holds it to that).
 */
#define BAND_MARGIN 1e-9
/*
 * How a program's misses fall with the size of its cache: as size^-MISS_POWER
 * (the power law of cache misses, 0.3 to 0.7 by program, 0.5 on average:
 * Hartstein, Srinivasan, Puzak and Emma, "Cache miss behavior: is it
 * sqrt(2)?", Computing Frontiers 2006).  By the footprint theory of
 * locality (Xiang, Ding, Luo and Bao, "HOTL: a higher order theory of
 * locality", ASPLOS 2013) the miss rate at cache size c is the slope of
 * the program's footprint (the distinct bytes it touches in a window of
 * its execution) where the footprint reaches c; a power law of misses is a
 * footprint growing as t^FILL_SHARE, FILL_SHARE = 1 / (1 + MISS_POWER).
 * So a program whose working set W is in its cache and which misses at
 * rate r there touches W in the work FILL_SHARE x W / r (its fill time),
 * and in that work it would miss FILL_SHARE x W bytes even with a warm
 * cache: a cold cache costs it (1 - FILL_SHARE) x W of misses more.
 */
#define MISS_POWER 0.5
#define FILL_SHARE (1.0 / (1.0 + MISS_POWER))
/* Work (ns) left of a fill below which it is done (the fill's rounding). */
#define FILL_DONE 0.5
/* The touched-bytes counters' slopes are in bytes per ms of run time, exact sums. */
#define TOUCH_UNIT 1e6

const struct param_def hw_host_params[] = {
	{ "hw", PARAM_ENUM, "model", "model|ideal", 0, 0,
	  "model: SMT, caches, NUMA memory and idle states decide how fast vCPUs run; "
	  "ideal: full speed always, uniform memory, instant wake-ups", OFF(mode) },
	{ "l2-size", PARAM_SIZE, "256KiB", NULL, 0, 1LL << 30,
	  "private cache of a core (L2), bytes", OFF(l2_size) },
	{ "llc-size", PARAM_SIZE, "8MiB", NULL, 0, 1LL << 36,
	  "last-level cache of a socket (L3), bytes", OFF(llc_size) },
	{ "llc-bandwidth", PARAM_DOUBLE, "38", NULL, 0.01, 100000,
	  "GB/s at which a core refills its private cache from the LLC", OFF(llc_gbps) },
	{ "memory-bandwidth", PARAM_DOUBLE, "7.9", NULL, 0.01, 100000,
	  "GB/s at which a core refills from local memory", OFF(mem_gbps) },
	{ "socket-memory-bandwidth", PARAM_DOUBLE, "32", NULL, 0.01, 100000,
	  "GB/s a socket's memory controller serves to all its threads", OFF(socket_mem_gbps) },
	{ "memory-per-node", PARAM_SIZE, "6GiB", NULL, 1 << 20, 1LL << 50,
	  "host memory of each NUMA node, bytes", OFF(memory_per_node) },
	{ "remote-penalty", PARAM_DOUBLE, "1.6", NULL, 1, 100,
	  "time of a memory access to another node / to the local one", OFF(remote_penalty) },
	{ "cstates", PARAM_STRING, NEHALEM_CSTATES, NULL, 0, 0,
	  "idle states, name:type:exit-latency:target-residency, shallowest first "
	  "(\"\": none)", OFF(cstates) },
	{ "max-cstate", PARAM_INT, "15", NULL, 0, 15,
	  "Xen's max_cstate=: deepest C-state type used (0: halt only; 15: no limit)",
	  OFF(max_cstate) },
	{ "autoballoon", PARAM_BOOL, "off", NULL, 0, 0,
	  "dom0 was booted without dom0_mem= and holds the host's memory: xl balloons it down "
	  "by what each new domain needs before placing it, and the freed memory is spread "
	  "over the nodes (a PV dom0 does not see NUMA), so no single node holds the domain; "
	  "off: the nodes' memory is free (dom0_mem= given)", OFF(autoballoon) },
	{ "smt", PARAM_BOOL, "on", NULL, 0, 0,
	  "Xen's smt= boot option; off: every thread of a core but the first is parked at "
	  "boot (not online, in no cpupool), so each pCPU is a whole core: 1 socket x 4 "
	  "cores x 2 threads has 4 pCPUs, numbered 0-3 here (Xen keeps the ids, 0 2 4 6)",
	  OFF(smt) },
	{ NULL }
};

/* Where each default comes from, in hw_host_params order. */
static const char *const hw_sources[] = {
	"the model of doc/hardware.md; ideal is the first schedsim's machine",
	"Intel Xeon 5500 (Nehalem-EP) datasheet: 256 KB L2 per core",
	"Intel Xeon 5500 (Nehalem-EP) datasheet: 8 MB shared L3 per socket",
	"a core's 10 L1D fill buffers (Intel 64 and IA-32 Architectures Optimization "
	"Reference Manual, Nehalem) x 64 B lines / 17 ns L3 latency (47 cycles at "
	"2.8 GHz: AnandTech's Xeon X5570 measurements, 2010)",
	"the same 10 fill buffers x 64 B / 81 ns local memory latency (AnandTech's "
	"Xeon X5570 measurements, 2010)",
	"Intel Xeon 5500 (Nehalem-EP) datasheet: three DDR3-1333 channels per socket, "
	"3 x 10.67 GB/s",
	"the 2016 test host: about 12 GB in 2 nodes (real-measurements.md section 1)",
	"remote memory 1.5 to 1.7x the latency of local on 2010-2016 two-socket "
	"Xeons (hardware.md)",
	"Linux drivers/idle/intel_idle.c and Xen xen/arch/x86/cpu/mwait-idle.c, "
	"nehalem_cstates; type as Xen's cx->type (MWAIT C-state + 1)",
	"Xen xen/arch/x86/acpi/cpu_idle.c: max_cstate (no limit by default), "
	"compared with cx->type in acpi_processor_idle",
	"xl.conf(5) autoballoon=\"auto\": on when dom0 was booted without dom0_mem= "
	"(tools/xl/xl.c auto_autoballoon); tools/xl/xl_vmcontrol.c freemem() shrinks dom0 "
	"before libxl_domain_create_new, whose libxl__build_pre places the domain "
	"(numa_place_domain) on the free memory that leaves",
	"Xen 4.12 and later, xen/arch/x86/setup.c __start_xen: a CPU brought up whose "
	"cpu_sibling_mask already holds another thread is taken down again and counted "
	"parked (opt_smt, commit d8f974f1a646, 2018); a parked thread idles for good and "
	"leaves its core to the first",
};

_Static_assert(sizeof(hw_sources) / sizeof(hw_sources[0]) ==
	       sizeof(hw_host_params) / sizeof(hw_host_params[0]) - 1,
	       "one source per host parameter");

/* The profile of tasks that carry none: a compute loop in the L2. */
static const struct hw_profile default_profile = { 0.65, 256 << 10, 0.1, 0 };

const struct hw_profile *hw_default_profile(void)
{
	return &default_profile;
}

/* What a retold timer needs to find the threads to tell. */
struct hw_retold_arg {
	struct hw *hw;
	int at;                    /* a core's: one of its threads; a socket's: the socket */
};

/*
 * What Xen's menu governor remembers of a pCPU's idles for its
 * LATENCY_MULTIPLIER rule (xen/arch/x86/acpi/cpuidle_menu.c, struct
 * menu_device, zeroed at enable): the idle that ended last, and the
 * decaying average of the idles before it, both in whole microseconds.
 */
struct hw_menu {
	long long measured_us, latency_factor_us;
};

struct cstate {
	char name[16];
	int type;
	stime_t exit_latency, residency;
};

/*
 * What a pCPU's running vCPU makes of its socket's memory time: the extra
 * time per unit of work at stretch S is intensity * (S * per_alone - 1)
 * once S passes alone, and its speed was last worked out with 'told'.
 * An idle pCPU's intensity is 0: nothing it runs waits on memory.
 */
struct hw_mem_view {
	double intensity, alone, per_alone, told;
};

/*
 * Socket memory times (stretches) strictly between lo and hi: those at which
 * a pCPU's vCPU is certainly not stale (its band, mem_band), or no thread of
 * a socket is (its quiet range, the bands' intersection): a switch that
 * leaves its socket's stretch within the range walks none of its threads.
 */
struct hw_band {
	double lo, hi;
};

/* The band of a view that is never stale (an idle pCPU's), and a socket's widest range. */
static const struct hw_band band_everywhere = { -INFINITY, INFINITY };

/* Socket stretches already worked out, by total demand (stretch_of). */
#define STRETCH_MEMO 64
struct hw_stretch_memo {
	long long demand;
	double stretch;
};

/*
 * The bytes touched in a cache (a core's private one, a socket's LLC)
 * since the run began: 'bytes' at time 'at', growing since by 'slope'
 * bytes per TOUCH_UNIT ns, the sum of what its running threads touch.
 */
struct hw_touched {
	double bytes;
	stime_t at;
	long long slope;
};

/*
 * The speed a pCPU's running vCPU was last given (hw_rate), with what it
 * is a function of besides the vCPU and its profile: its core's gen (what
 * runs on the core's threads, and their profiles), its socket's memory
 * time, and whether its cache still fills.  While all are the same a query
 * gives the same speed, and hw_rate takes it from here (a vCPU re-asked in
 * the instant it asked, as a core's retold event does).
 */
struct hw_rate_memo {
	const struct vcpu *v;      /* NULL: none */
	const struct hw_profile *p;
	unsigned long gen;
	double stretch;
	bool filling;
	struct hw_rate r;
};

/* A profile's figures, worked out once per run (struct hw's table of them). */
struct hw_figures {
	const struct hw_profile *p;
	double pressure;           /* on its core's pipeline */
	long long demand;          /* MB/s of memory traffic at full speed */
	double misses;             /* bytes it brings from memory per ns of work */
	double alone;              /* memory time with its own traffic alone */
	double per_alone;          /* its inverse */
	double band_half;          /* of its views' bands (mem_band) */
};

struct hw {
	struct sim *s;
	struct hw_config c;
	int nr_cores, nr_sockets, nr_nodes;
	int *busy;                 /* per core: threads running a non-idle vCPU */
	/*
	 * The threads of each pCPU's core, itself included, ascending (its
	 * topology sibling_mask as a list: walked when a profile changed):
	 * those of cpu are threads[thread_start[cpu] .. thread_start[cpu + 1]).
	 */
	int *thread_start, *threads;
	/*
	 * The same lists without cpu itself (its SMT siblings, ascending),
	 * walked on every switch and on every rate query of a busy core:
	 * those of cpu are sibs[sib_start[cpu] .. sib_start[cpu + 1]).
	 */
	int *sib_start, *sibs;
	/* The pCPUs of each socket, ascending: socket_cpus[socket_start[k] .. socket_start[k + 1]). */
	int *socket_start, *socket_cpus;
	/*
	 * Per core: moves on whenever one of its threads switches vCPUs or a
	 * running vCPU's profile changes (each thread's SMT inputs).
	 */
	unsigned long *core_gen;
	struct hw_rate_memo *memo; /* per pCPU */
	struct timer *retold;      /* per core: tells its threads a profile changed */
	struct hw_retold_arg *retold_arg;
	long long *cpu_demand;     /* per pCPU: MB/s of memory traffic of what it runs */
	long long *socket_demand;  /* per socket: their sum */
	double *socket_stretch;    /* per socket: the memory time at its threads' load */
	struct hw_mem_view *mem_view; /* per pCPU */
	struct hw_band *band;      /* per pCPU: where its mem_view is not stale */
	struct hw_band *quiet;     /* per socket: within its threads' bands */
	struct hw_stretch_memo stretch_memo[STRETCH_MEMO];
	struct timer *mem_retold;  /* per socket: tells its threads the load changed */
	struct hw_retold_arg *mem_retold_arg;
	double queue_per_load;     /* a line's service / its unloaded latency, over 2 */
	/*
	 * The figures of every profile asked about, by the profile's address
	 * (open addressing, at most half full); each entry is allocated once and
	 * kept for the run, so a vCPU may keep a pointer to its own.  A run has
	 * a profile per workload: a fixed handful of entries thrashed at a
	 * thousand pCPUs, where every domain brings its own.
	 */
	struct hw_figures **figures;
	size_t figures_cap, nr_figures;
	struct hw_touched *core_touched; /* per core: bytes touched in its private cache */
	struct hw_touched *llc_touched;  /* per socket: bytes touched in its LLC */
	long long *cpu_touch;      /* per pCPU: its vCPU's part of those slopes */
	struct timer *fill_end;    /* per pCPU: its vCPU's cache fill ends */
	struct hw_retold_arg *fill_end_arg;
	stime_t *idle_since;       /* per pCPU: idle from, or awake from after a wake */
	stime_t *exit_latency;     /* per pCPU: of the wake in progress, to charge */
	struct hw_menu *menu;      /* per pCPU: Xen's menu governor's idle history */
	struct cstate cst[MAX_CSTATES];
	int ncst;                  /* the states max-cstate allows */
	bool halts;                /* max_cstate=0: the idle loop halts, it does not mwait */
	long long *free_mb;        /* per node */
	double llc_ns_per_byte, mem_ns_per_byte, remote_extra;
	/*
	 * hw_check's sums, per core then per socket: the check runs after
	 * every event under --check, and allocates nothing there.
	 */
	long long *check_sums;
};

static void retold_fire(struct timer *t, void *arg);
static void mem_retold_fire(struct timer *t, void *arg);
static void fill_end_fire(struct timer *t, void *arg);

/* ------------------------------------------------------------ configuration */

/* Parses "name:type:lat:res,..." into cst; -1 with a message. */
static int parse_cstates(const char *text, struct cstate *cst, int *n, struct err *e)
{
	const char *p = text;

	*n = 0;
	while (*p) {
		char item[PARAM_STRING_MAX], *f[4], *save = NULL;
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		long long type;
		int k = 0;

		if (*n == MAX_CSTATES)
			return err_set(e, "more than %d C-states", MAX_CSTATES);
		memcpy(item, p, len);
		item[len] = '\0';
		for (char *tok = strtok_r(item, ":", &save); tok && k < 4;
		     tok = strtok_r(NULL, ":", &save))
			f[k++] = tok;
		if (k != 4 || strtok_r(NULL, ":", &save) || !f[0][0] || strlen(f[0]) >= 16)
			return err_set(e, "'%.*s' is not name:type:exit-latency:target-residency",
				       (int)len, p);
		snprintf(cst[*n].name, sizeof(cst[*n].name), "%s", f[0]);
		if (parse_int(f[1], 1, 15, &type, e) < 0)
			return err_prefix(e, "C-state %s type", f[0]);
		cst[*n].type = (int)type;
		if (parse_duration(f[2], &cst[*n].exit_latency, e) < 0)
			return err_prefix(e, "C-state %s exit latency", f[0]);
		if (parse_duration(f[3], &cst[*n].residency, e) < 0)
			return err_prefix(e, "C-state %s target residency", f[0]);
		if (*n > 0 && (cst[*n].type < cst[*n - 1].type ||
			       cst[*n].residency < cst[*n - 1].residency ||
			       cst[*n].exit_latency < cst[*n - 1].exit_latency))
			return err_set(e, "C-state %s is shallower than %s before it (list them "
				       "shallowest first)", cst[*n].name, cst[*n - 1].name);
		(*n)++;
		if (!comma)
			break;
		p = comma + 1;
		if (!*p)
			return err_set(e, "a C-state list cannot end in ','");
	}
	return 0;
}

int hw_config_check(const struct hw_config *c, struct err *e)
{
	struct cstate cst[MAX_CSTATES];
	int n;

	if (parse_cstates(c->cstates, cst, &n, e) < 0)
		return err_prefix(e, "cstates");
	return 0;
}

int hw_config_init(struct hw_config *c, const struct kvlist *attrs, int *line, struct err *e)
{
	memset(c, 0, sizeof(*c));
	if (params_apply_at(hw_host_params, c, attrs, "<host>", line, e) < 0)
		return -1;
	return hw_config_check(c, e);
}

void hw_list(FILE *f)
{
	fputs("Host hardware: attributes of <host> (sockets, cores-per-socket, threads-per-core,\n"
	      "nodes, ipi-latency and context-switch are the topology and the core's costs).\n"
	      "--hw=ideal|model overrides hw.  Sizes take B, KiB, MiB, GiB; bandwidths are GB/s.\n",
	      f);
	for (int i = 0; hw_host_params[i].name; i++) {
		params_describe_one(f, &hw_host_params[i], NULL, "    ");
		fprintf(f, "    %-18s source: %s\n", "", hw_sources[i]);
	}
}

/* ------------------------------------------------------------------ life */

struct hw *hw_create(struct sim *s, const struct hw_config *c)
{
	struct hw *hw = xcalloc(1, sizeof(*hw));
	struct cstate all[MAX_CSTATES];
	struct err e;
	int n = 0;

	hw->s = s;
	hw->c = *c;
	/*
	 * Cores and sockets by their ids in the topology: with a machine's own
	 * CPU map (lscpu -p, xl info -n) a core's threads need not be adjacent,
	 * cores may differ in threads and socket ids may have gaps.
	 */
	for (int cpu = 0; cpu < s->topo.nr_cpus; cpu++) {
		if (s->topo.cpu_core[cpu] >= hw->nr_cores)
			hw->nr_cores = s->topo.cpu_core[cpu] + 1;
		if (s->topo.cpu_socket[cpu] >= hw->nr_sockets)
			hw->nr_sockets = s->topo.cpu_socket[cpu] + 1;
	}
	hw->nr_nodes = s->topo.nr_nodes;
	hw->thread_start = xcalloc((size_t)s->topo.nr_cpus + 1, sizeof(*hw->thread_start));
	for (int cpu = 0; cpu < s->topo.nr_cpus; cpu++)
		hw->thread_start[cpu + 1] = hw->thread_start[cpu] +
					    (int)cpumask_weight(s->topo.sibling_mask[cpu]);
	hw->threads = xcalloc((size_t)hw->thread_start[s->topo.nr_cpus] + 1, sizeof(*hw->threads));
	for (int cpu = 0, k = 0; cpu < s->topo.nr_cpus; cpu++) {
		const struct cpumask *m = s->topo.sibling_mask[cpu];

		for (unsigned i = cpumask_first(m); i < (unsigned)s->topo.nr_cpus;
		     i = cpumask_next((int)i, m))
			hw->threads[k++] = (int)i;
	}
	hw->sib_start = xcalloc((size_t)s->topo.nr_cpus + 1, sizeof(*hw->sib_start));
	hw->sibs = xcalloc((size_t)hw->thread_start[s->topo.nr_cpus] + 1, sizeof(*hw->sibs));
	for (int cpu = 0, j = 0; cpu < s->topo.nr_cpus; cpu++) {
		for (int k = hw->thread_start[cpu]; k < hw->thread_start[cpu + 1]; k++)
			if (hw->threads[k] != cpu)
				hw->sibs[j++] = hw->threads[k];
		hw->sib_start[cpu + 1] = j;
	}
	hw->socket_start = xcalloc((size_t)hw->nr_sockets + 1, sizeof(*hw->socket_start));
	hw->socket_cpus = xcalloc((size_t)s->topo.nr_cpus + 1, sizeof(*hw->socket_cpus));
	for (int k = 0; k < hw->nr_sockets; k++) {
		hw->socket_start[k + 1] = hw->socket_start[k];
		for (int cpu = 0; cpu < s->topo.nr_cpus; cpu++)
			if (s->topo.cpu_socket[cpu] == k)
				hw->socket_cpus[hw->socket_start[k + 1]++] = cpu;
	}
	hw->busy = xcalloc((size_t)hw->nr_cores, sizeof(*hw->busy));
	hw->core_gen = xcalloc((size_t)hw->nr_cores, sizeof(*hw->core_gen));
	hw->memo = xcalloc((size_t)s->topo.nr_cpus, sizeof(*hw->memo));
	hw->retold = xcalloc((size_t)hw->nr_cores, sizeof(*hw->retold));
	hw->retold_arg = xcalloc((size_t)hw->nr_cores, sizeof(*hw->retold_arg));
	for (int core = 0; core < hw->nr_cores; core++) {
		hw->retold_arg[core].hw = hw;
		timer_init(&hw->retold[core], retold_fire, &hw->retold_arg[core]);
	}
	hw->core_touched = xcalloc((size_t)hw->nr_cores, sizeof(*hw->core_touched));
	hw->llc_touched = xcalloc((size_t)hw->nr_sockets, sizeof(*hw->llc_touched));
	hw->cpu_touch = xcalloc((size_t)s->topo.nr_cpus, sizeof(*hw->cpu_touch));
	hw->fill_end = xcalloc((size_t)s->topo.nr_cpus, sizeof(*hw->fill_end));
	hw->fill_end_arg = xcalloc((size_t)s->topo.nr_cpus, sizeof(*hw->fill_end_arg));
	for (int cpu = 0; cpu < s->topo.nr_cpus; cpu++) {
		hw->fill_end_arg[cpu].hw = hw;
		hw->fill_end_arg[cpu].at = cpu;
		timer_init(&hw->fill_end[cpu], fill_end_fire, &hw->fill_end_arg[cpu]);
	}
	hw->cpu_demand = xcalloc((size_t)s->topo.nr_cpus, sizeof(*hw->cpu_demand));
	hw->socket_demand = xcalloc((size_t)hw->nr_sockets, sizeof(*hw->socket_demand));
	hw->socket_stretch = xcalloc((size_t)hw->nr_sockets, sizeof(*hw->socket_stretch));
	hw->mem_view = xcalloc((size_t)s->topo.nr_cpus, sizeof(*hw->mem_view));
	hw->band = xcalloc((size_t)s->topo.nr_cpus, sizeof(*hw->band));
	for (int cpu = 0; cpu < s->topo.nr_cpus; cpu++)
		hw->band[cpu] = band_everywhere;
	hw->quiet = xcalloc((size_t)hw->nr_sockets, sizeof(*hw->quiet));
	for (int sk = 0; sk < hw->nr_sockets; sk++)
		hw->quiet[sk] = band_everywhere;
	for (int k = 0; k < STRETCH_MEMO; k++)
		hw->stretch_memo[k].demand = -1;
	hw->mem_retold = xcalloc((size_t)hw->nr_sockets, sizeof(*hw->mem_retold));
	hw->mem_retold_arg = xcalloc((size_t)hw->nr_sockets, sizeof(*hw->mem_retold_arg));
	for (int sk = 0; sk < hw->nr_sockets; sk++) {
		hw->mem_retold_arg[sk].hw = hw;
		hw->mem_retold_arg[sk].at = sk;
		timer_init(&hw->mem_retold[sk], mem_retold_fire, &hw->mem_retold_arg[sk]);
	}
	hw->idle_since = xcalloc((size_t)s->topo.nr_cpus, sizeof(*hw->idle_since));
	hw->exit_latency = xcalloc((size_t)s->topo.nr_cpus, sizeof(*hw->exit_latency));
	hw->menu = xcalloc((size_t)s->topo.nr_cpus, sizeof(*hw->menu));
	hw->free_mb = xcalloc((size_t)hw->nr_nodes, sizeof(*hw->free_mb));
	hw->check_sums = xcalloc((size_t)hw->nr_cores + (size_t)hw->nr_sockets,
				 sizeof(*hw->check_sums));
	for (int i = 0; i < hw->nr_nodes; i++)
		hw->free_mb[i] = c->memory_per_node >> 20;
	/* Checked at load; a table that does not parse here means no C-states. */
	if (parse_cstates(c->cstates, all, &n, &e) < 0)
		n = 0;
	/* max_cstate=0: Xen halts (C1); otherwise the states of type <= max. */
	hw->halts = c->max_cstate == 0;
	for (int i = 0; i < n; i++)
		if (c->max_cstate == 0 ? i == 0 : all[i].type <= c->max_cstate)
			hw->cst[hw->ncst++] = all[i];
	hw->llc_ns_per_byte = 1.0 / c->llc_gbps;
	hw->mem_ns_per_byte = 1.0 / c->mem_gbps;
	hw->remote_extra = c->remote_penalty - 1;
	/*
	 * A line's service at the controller (64 B at the socket's bandwidth)
	 * against its unloaded latency (a core's 10 fill buffers of 64 B at
	 * memory-bandwidth: 81 ns), halved as an M/D/1 queue's wait is.
	 */
	hw->queue_per_load = (LINE_BYTES / c->socket_mem_gbps) /
			     (FILL_BUFFERS * LINE_BYTES / c->mem_gbps) / 2;
	for (int sk = 0; sk < hw->nr_sockets; sk++)
		hw->socket_stretch[sk] = 1.0;
	return hw;
}

void hw_free(struct hw *hw)
{
	if (!hw)
		return;
	for (int d = 0; d < hw->s->nr_domains; d++) {
		struct domain *dom = hw->s->domains[d];

		if (!dom)
			continue;
		free(dom->hw.node_mb);
		free(dom->hw.remote);
		dom->hw.node_mb = NULL;
		dom->hw.remote = NULL;
	}
	for (size_t i = 0; i < hw->figures_cap; i++)
		free(hw->figures[i]);
	free(hw->figures);
	free(hw->busy);
	free(hw->check_sums);
	free(hw->core_gen);
	free(hw->memo);
	free(hw->thread_start);
	free(hw->threads);
	free(hw->sib_start);
	free(hw->sibs);
	free(hw->socket_start);
	free(hw->socket_cpus);
	free(hw->retold);
	free(hw->retold_arg);
	free(hw->cpu_demand);
	free(hw->socket_demand);
	free(hw->socket_stretch);
	free(hw->mem_view);
	free(hw->band);
	free(hw->quiet);
	free(hw->mem_retold);
	free(hw->mem_retold_arg);
	free(hw->core_touched);
	free(hw->llc_touched);
	free(hw->cpu_touch);
	free(hw->fill_end);
	free(hw->fill_end_arg);
	free(hw->idle_since);
	free(hw->exit_latency);
	free(hw->menu);
	free(hw->free_mb);
	free(hw);
}

/* ------------------------------------------------------------------- SMT */

/*
 * How hard a profile presses on its core's shared resources (issue slots,
 * execution ports, the L1/L2 and their fill buffers), which is also how
 * much it suffers when a sibling presses on them: sqrt(1/smt_speed - 1).
 * A thread of profile a beside a busy thread of profile b takes
 * 1 + pressure(a) * pressure(b) ns per unit of work, so two threads of the
 * same profile run at exactly its smt_speed (kernbench's 0.65 for two
 * compilers), a compute loop beside a memory-stalled thread (smt_speed
 * near 1: it leaves the pipeline to its sibling) loses little, and
 * beside an idle thread (Xen's idle vCPU: halted or in mwait) nothing.
 */
static double smt_pressure(const struct hw_profile *p)
{
	return sqrt(1.0 / p->smt_speed - 1.0);
}

static const struct hw_profile *profile_of(const struct vcpu *v)
{
	return v->hw.prof ? v->hw.prof : &default_profile;
}

/* The threads of cpu's core that run a vCPU hear that their speed changed. */
static void tell_core(struct hw *hw, int cpu)
{
	struct sim *s = hw->s;

	if (!s->hooks.work_sync)
		return;
	for (int k = hw->thread_start[cpu]; k < hw->thread_start[cpu + 1]; k++) {
		struct vcpu *u = s->pcpus[hw->threads[k]].curr;

		if (!is_idle_vcpu(u))
			s->hooks.work_sync(s, u);
	}
}

/* The same for cpu's siblings, cpu itself left out. */
static void tell_siblings(struct hw *hw, int cpu)
{
	struct sim *s = hw->s;

	if (!s->hooks.work_sync)
		return;
	for (int k = hw->sib_start[cpu]; k < hw->sib_start[cpu + 1]; k++) {
		struct vcpu *u = s->pcpus[hw->sibs[k]].curr;

		if (!is_idle_vcpu(u))
			s->hooks.work_sync(s, u);
	}
}

/*
 * A running vCPU's task changed profile: its siblings' speed changes too.
 * They hear it in an event of its own, at the same time, not from inside
 * the guest layer's accounting that asked for the new rate.
 */
static void retold_fire(struct timer *t, void *arg)
{
	struct hw_retold_arg *a = arg;

	(void)t;
	tell_core(a->hw, a->at);
}

static void profile_changed(struct hw *hw, int cpu)
{
	int core = hw->s->topo.cpu_core[cpu];

	if (hw->busy[core] < 2)
		return;
	hw->retold_arg[core].at = cpu;
	if (!timer_pending(&hw->retold[core]))
		timer_set(&hw->s->q, &hw->retold[core], sim_now(hw->s));
}

/* ------------------------------------------------------ memory bandwidth */

/* GB/s at which a thread of profile p misses while it waits on memory. */
static double miss_gbps(const struct hw *hw, const struct hw_profile *p)
{
	return p->stream_gbps > 0 ? p->stream_gbps : hw->c.mem_gbps;
}

/* MB/s of memory traffic a thread of profile p makes at full speed. */
static long long mem_demand(const struct hw *hw, const struct hw_profile *p)
{
	return (long long)(p->mem_intensity * miss_gbps(hw, p) * 1000 + 0.5);
}

/* A socket's load: its threads' demand over its controller's bandwidth. */
static double load_of(const struct hw *hw, long long demand_mbps)
{
	return (double)demand_mbps / (hw->c.socket_mem_gbps * 1000);
}

/*
 * Memory time at load rho, relative to an idle controller: a line waits
 * as in an M/D/1 queue (rho / (2 (1 - rho)) services, small beside the
 * unloaded latency until rho nears 1); at or beyond the bandwidth the
 * traffic itself takes rho times as long.
 */
static double mem_stretch(const struct hw *hw, double rho)
{
	double q = rho < MAX_QUEUE_LOAD ? rho : MAX_QUEUE_LOAD;
	double t = 1 + hw->queue_per_load * q / (1 - q);

	return t > rho ? t : rho;
}

/*
 * The memory time of a socket whose threads make 'demand' MB/s: the same
 * function of the same number as mem_stretch(load_of(demand)), remembered
 * for the last demands seen (a socket's load moves among a few sums as its
 * threads switch between idle and a vCPU), which saves its two divisions.
 */
static double stretch_of(struct hw *hw, long long demand)
{
	struct hw_stretch_memo *m =
		&hw->stretch_memo[(uint64_t)demand * 0x9e3779b97f4a7c15ULL >> 58];

	if (m->demand != demand) {
		m->demand = demand;
		m->stretch = mem_stretch(hw, load_of(hw, demand));
	}
	return m->stretch;
}

/* The extra time per unit of work that memory time 'stretch' gives m's vCPU. */
static double mem_extra(const struct hw_mem_view *m, double stretch)
{
	return stretch > m->alone ? m->intensity * (stretch * m->per_alone - 1) : 0;
}

/*
 * Whether the vCPU whose speed view m holds has to hear of its socket's
 * memory time 'stretch': it moved its time per unit of work by more than
 * LOAD_STEP since its speed was worked out.  The rest keep their speed: a
 * thread that waits little on memory is re-timed less often, and a socket
 * of many threads is not re-timed whole at every switch.
 */
static bool view_stale(const struct hw_mem_view *m, double stretch)
{
	return m->intensity > 0 && fabs(mem_extra(m, stretch) - m->told) > LOAD_STEP;
}

/*
 * The band where a view worked out at stretch 'at' is not stale, for a
 * profile of half-width w (its figures' band_half: alone * (LOAD_STEP - 2
 * BAND_MARGIN) / intensity).  Above alone, mem_extra is intensity * (S /
 * alone - 1) to 1e-13, so moving S by less than w moves it by less than
 * LOAD_STEP; at or below alone it is 0, which is within LOAD_STEP of what
 * 'at' gave while at - w has not passed alone.  No memory intensity: w is
 * infinite, and so is the band.
 */
static struct hw_band mem_band(double at, double alone, double w)
{
	double top = at > alone ? at : alone;

	return (struct hw_band){ at - w > alone ? at - w : -INFINITY, top + w };
}

static bool in_band(const struct hw_band *b, double stretch)
{
	return stretch > b->lo && stretch < b->hi;
}

/* Narrows *b to its part within o. */
static void band_narrow(struct hw_band *b, const struct hw_band *o)
{
	if (o->lo > b->lo)
		b->lo = o->lo;
	if (o->hi < b->hi)
		b->hi = o->hi;
}

/* pCPU cpu of 'socket' has a view of band b: the socket's quiet range keeps within it. */
static void band_set(struct hw *hw, int cpu, int socket, struct hw_band b)
{
	hw->band[cpu] = b;
	band_narrow(&hw->quiet[socket], &b);
}

/*
 * One pass over the threads of 'socket' at its memory time now: those but
 * pCPU 'except' whose speed is stale hear it if 'tell'; returns whether
 * any was.  The pass leaves the socket's quiet range at its threads' bands'
 * intersection, narrowed by any band set meanwhile (by a thread that heard).
 */
static bool socket_pass(struct hw *hw, int socket, int except, bool tell)
{
	struct sim *s = hw->s;
	double stretch = hw->socket_stretch[socket];
	struct hw_band q = band_everywhere;
	bool stale = false;

	hw->quiet[socket] = q;
	for (int k = hw->socket_start[socket]; k < hw->socket_start[socket + 1]; k++) {
		int cpu = hw->socket_cpus[k];
		const struct hw_band *b = &hw->band[cpu];

		/* inside its band a view is not stale (hw_check holds that): no need to ask */
		if (cpu != except && !in_band(b, stretch) &&
		    view_stale(&hw->mem_view[cpu], stretch)) {
			stale = true;
			if (tell)
				s->hooks.work_sync(s, s->pcpus[cpu].curr);
		}
		band_narrow(&q, b);
	}
	band_narrow(&hw->quiet[socket], &q);
	return stale;
}

/* The threads of 'socket' whose speed is stale, except pCPU 'except', hear it. */
static void tell_socket(struct hw *hw, int socket, int except)
{
	if (hw->s->hooks.work_sync && !in_band(&hw->quiet[socket], hw->socket_stretch[socket]))
		socket_pass(hw, socket, except, true);
}

/* Whether a thread of 'socket' but 'except' has a stale speed. */
static bool socket_stale(struct hw *hw, int socket, int except)
{
	return !in_band(&hw->quiet[socket], hw->socket_stretch[socket]) &&
	       socket_pass(hw, socket, except, false);
}

static void mem_retold_fire(struct timer *t, void *arg)
{
	struct hw_retold_arg *a = arg;

	(void)t;
	tell_socket(a->hw, a->at, -1);
}

/*
 * pCPU cpu now runs code making 'demand' MB/s of memory traffic.  Its
 * socket's threads hear of the new load (tell_socket): at once from the
 * core's switch (but for cpu, whose guest layer asks anew), in an event of
 * its own from a rate query, if one of them has to.
 */
static void set_demand(struct hw *hw, int cpu, long long demand, bool from_switch)
{
	int socket = hw->s->topo.cpu_socket[cpu];

	if (demand == hw->cpu_demand[cpu])
		return;
	hw->socket_demand[socket] += demand - hw->cpu_demand[cpu];
	hw->cpu_demand[cpu] = demand;
	hw->socket_stretch[socket] = stretch_of(hw, hw->socket_demand[socket]);
	if (from_switch)
		tell_socket(hw, socket, cpu);
	else if (!timer_pending(&hw->mem_retold[socket]) && socket_stale(hw, socket, cpu))
		timer_set(&hw->s->q, &hw->mem_retold[socket], sim_now(hw->s));
}

/* Where p's figures are looked for first in a table of cap (a power of 2) slots. */
static size_t figures_slot(const struct hw_profile *p, size_t cap)
{
	return (size_t)(((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ULL >> 32) & (cap - 1);
}

static void figures_grow(struct hw *hw)
{
	size_t cap = hw->figures_cap ? hw->figures_cap * 2 : 16;
	struct hw_figures **t = xcalloc(cap, sizeof(*t));

	for (size_t i = 0; i < hw->figures_cap; i++) {
		struct hw_figures *f = hw->figures[i];
		size_t k;

		if (!f)
			continue;
		for (k = figures_slot(f->p, cap); t[k]; k = (k + 1) & (cap - 1))
			;
		t[k] = f;
	}
	free(hw->figures);
	hw->figures = t;
	hw->figures_cap = cap;
}

/* p's pressure, memory demand and memory time alone, worked out once per run. */
static const struct hw_figures *figures_of(struct hw *hw, const struct hw_profile *p)
{
	struct hw_figures *f;
	size_t k;

	if (2 * (hw->nr_figures + 1) > hw->figures_cap)
		figures_grow(hw);
	for (k = figures_slot(p, hw->figures_cap); hw->figures[k]; k = (k + 1) & (hw->figures_cap - 1))
		if (hw->figures[k]->p == p)
			return hw->figures[k];
	f = xmalloc(sizeof(*f));
	f->p = p;
	f->pressure = smt_pressure(p);
	f->demand = mem_demand(hw, p);
	f->misses = p->mem_intensity * miss_gbps(hw, p);
	f->alone = mem_stretch(hw, load_of(hw, f->demand));
	f->per_alone = 1.0 / f->alone;
	f->band_half = p->mem_intensity > 0 ?
		f->alone * (LOAD_STEP - 2 * BAND_MARGIN) / p->mem_intensity : INFINITY;
	hw->figures[k] = f;
	hw->nr_figures++;
	return f;
}

/*
 * The same for a vCPU's profile p: the vCPU keeps the entry of the profile
 * it asked about last, and those of the three before (the table's entries
 * stay where they are): a vCPU whose tasks take turns (dom0's netback,
 * dealloc and rx threads) finds theirs without the table's hash.
 */
static const struct hw_figures *vcpu_figures_anew(struct hw *hw, struct vcpu *v,
						  const struct hw_profile *p)
{
	struct hw_vcpu *h = &v->hw;
	const int n = (int)(sizeof(h->figures_before) / sizeof(h->figures_before[0]));
	const struct hw_figures *f;
	int i;

	for (i = 0; i < n; i++)
		if (h->figures_before[i] && h->figures_before[i]->p == p)
			break;
	if (i < n) {
		f = h->figures_before[i];
		h->figures_before[i] = h->figures;
	} else {
		f = figures_of(hw, p);
		for (i = n - 1; i > 0; i--)
			h->figures_before[i] = h->figures_before[i - 1];
		h->figures_before[0] = h->figures;
	}
	return h->figures = f;
}

/* Inline: asked on every rate query, for the vCPU and its siblings. */
static inline const struct hw_figures *vcpu_figures(struct hw *hw, struct vcpu *v,
						    const struct hw_profile *p)
{
	const struct hw_figures *f = v->hw.figures;

	return f && f->p == p ? f : vcpu_figures_anew(hw, v, p);
}

/*
 * Whether a sibling of a thread that switches from vCPU a to vCPU b runs
 * at another speed after it: only the pressure of what runs beside it
 * enters its speed (smt_extra), and profiles of equal figures (each
 * domain's workload has its own) press alike.
 */
static bool presses_differently(struct hw *hw, struct vcpu *a, struct vcpu *b)
{
	const struct hw_profile *pa = profile_of(a), *pb = profile_of(b);

	return pa != pb && vcpu_figures(hw, a, pa)->pressure != vcpu_figures(hw, b, pb)->pressure;
}

/*
 * The time per unit of work that pCPU cpu's busy SMT siblings add at
 * pressure 'own'.  Inline: called on every rate query of a vCPU whose core
 * is busy, where a call of its own saved and restored six registers for a
 * loop over one sibling.
 */
static inline __attribute__((always_inline)) double smt_extra(struct hw *hw, int cpu, double own)
{
	struct sim *s = hw->s;
	double smt = 0;

	for (int k = hw->sib_start[cpu]; k < hw->sib_start[cpu + 1]; k++) {
		struct vcpu *u = s->pcpus[hw->sibs[k]].curr;

		if (!is_idle_vcpu(u))
			smt += own * vcpu_figures(hw, u, profile_of(u))->pressure;
	}
	return smt;
}

static void fill_track(struct hw *hw, struct vcpu *v, int cpu, const struct hw_figures *f,
		       const struct hw_rate *r);

/* Full speed: nothing lost. */
static void rate_full(struct hw_rate *r)
{
	r->rate = r->per_rate = 1.0;
	r->smt_share = 0;
	r->membw_share = 0;
	r->cache_share = 0;
}

/* The fill of v's cache done by now (at the speed it was last given). */
static void fill_fold(struct hw_vcpu *h, stime_t now)
{
	if (now <= h->fill_from)
		return;
	if (h->fill_left > 0) {
		h->fill_left -= (double)(now - h->fill_from) * h->fill_rate;
		if (h->fill_left < FILL_DONE)
			h->fill_left = 0;
	}
	h->fill_from = now;
}

/*
 * The speed of v on cpu doing p (figures f) at its socket's memory time
 * 'stretch', and in *mem what its memory time gives it: a function of what
 * runs on cpu's core, of v's domain's memory and of whether v's cache fills.
 */
static inline __attribute__((always_inline)) void
rate_work_out(struct hw *hw, const struct vcpu *v, const struct hw_profile *p,
	      const struct hw_figures *f, int cpu, double stretch, struct hw_mem_view *mem,
	      struct hw_rate *r)
{
	struct sim *s = hw->s;
	const double *remote = v->dom->hw.remote;
	double smt = 0, numa = 0, membw, cache, lost;

	if (hw->busy[s->topo.cpu_core[cpu]] > 1)
		smt = smt_extra(hw, cpu, f->pressure);
	if (remote && p->mem_intensity > 0)
		numa = p->mem_intensity * remote[s->topo.cpu_node[cpu]] * hw->remote_extra;
	*mem = (struct hw_mem_view){ p->mem_intensity, f->alone, f->per_alone, 0 };
	mem->told = membw = mem_extra(mem, stretch);
	cache = v->hw.fill_left > 0 ? v->hw.fill_extra : 0;
	lost = smt + membw + numa + cache;
	if (lost <= 0) {
		rate_full(r);
	} else {
		r->per_rate = 1.0 + lost;
		r->rate = 1.0 / r->per_rate;
		/* x / x is 1 and 0 / x is 0 exactly: a single effect needs no division */
		r->smt_share = smt == 0 ? 0 : smt == lost ? 1 : smt / lost;
		r->membw_share = membw == 0 ? 0 : membw == lost ? 1 : membw / lost;
		r->cache_share = cache == 0 ? 0 : cache == lost ? 1 : cache / lost;
	}
}

/* Whether pCPU cpu's memo holds what a query of v doing p would give now. */
static inline bool memo_holds(const struct hw *hw, int cpu, const struct vcpu *v,
			      const struct hw_profile *p)
{
	const struct hw_rate_memo *m = &hw->memo[cpu];

	return m->v == v && m->p == p && m->gen == hw->core_gen[hw->s->topo.cpu_core[cpu]] &&
	       m->stretch == hw->socket_stretch[hw->s->topo.cpu_socket[cpu]] &&
	       m->filling == (v->hw.fill_left > 0);
}

void hw_rate(struct hw *hw, struct vcpu *v, const struct hw_profile *p, struct hw_rate *r)
{
	struct sim *s;
	const struct hw_figures *f;
	struct hw_mem_view mem;
	double stretch;
	int cpu, socket;
	bool running;

	if (!hw) {
		rate_full(r);
		return;
	}
	s = hw->s;
	if (!p)
		p = &default_profile;
	cpu = v->processor;
	running = s->pcpus[cpu].curr == v;
	/* f stays valid: a sibling's look-up below changes its own entry, not f */
	f = vcpu_figures(hw, v, p);
	if (v->hw.prof != p && running) {
		hw->core_gen[s->topo.cpu_core[cpu]]++;   /* the siblings' neighbour changed */
		if (v->is_running) {
			v->hw.prof = p;
			profile_changed(hw, cpu);
			set_demand(hw, cpu, f->demand, false);
		}
	}
	v->hw.prof = p;
	socket = s->topo.cpu_socket[cpu];
	stretch = hw->socket_stretch[socket];
	if (!running) {
		rate_work_out(hw, v, p, f, cpu, stretch, &mem, r);
		return;
	}
	fill_fold(&v->hw, sim_now(s));
	if (memo_holds(hw, cpu, v, p)) {
		/* the view and band it set are still this stretch's */
		*r = hw->memo[cpu].r;
	} else {
		rate_work_out(hw, v, p, f, cpu, stretch, &mem, r);
		hw->mem_view[cpu] = mem;        /* what v's speed is now worked out with */
		band_set(hw, cpu, socket, mem_band(stretch, f->alone, f->band_half));
		hw->memo[cpu] = (struct hw_rate_memo){ v, p, hw->core_gen[s->topo.cpu_core[cpu]],
						       stretch, v->hw.fill_left > 0, *r };
	}
	fill_track(hw, v, cpu, f, r);
}

bool hw_rate_kept(struct hw *hw, struct vcpu *v, const struct hw_profile *p,
		  const struct hw_rate *r)
{
	int cpu = v->processor;

	if (!hw)
		return true;
	if (!p)
		p = &default_profile;
	if (hw->s->pcpus[cpu].curr != v || v->hw.prof != p)
		return false;
	/* what hw_rate does first; a query after it folds nothing more */
	fill_fold(&v->hw, sim_now(hw->s));
	if (!memo_holds(hw, cpu, v, p) || memcmp(&hw->memo[cpu].r, r, sizeof(*r)) != 0)
		return false;
	fill_track(hw, v, cpu, vcpu_figures(hw, v, p), r);
	return true;
}

/* ---------------------------------------------------------------- caches */

/* A cache's touched bytes at 'now'. */
static double touched_at(const struct hw_touched *c, stime_t now)
{
	return c->bytes + (double)c->slope * (double)(now - c->at) / TOUCH_UNIT;
}

static void touched_slope(struct hw_touched *c, stime_t now, long long by)
{
	c->bytes = touched_at(c, now);
	c->at = now;
	c->slope += by;
}

/*
 * pCPU cpu's vCPU now touches 'per_ns' bytes of its caches per ns it runs:
 * its core's and its socket's counters grow by that much more or less.
 * Returns whether they changed (both then have their bytes at now).
 */
static bool set_touch(struct hw *hw, int cpu, double per_ns)
{
	long long t = (long long)(per_ns * TOUCH_UNIT + 0.5), by = t - hw->cpu_touch[cpu];
	stime_t now;

	if (!by)
		return false;
	now = sim_now(hw->s);
	touched_slope(&hw->core_touched[hw->s->topo.cpu_core[cpu]], now, by);
	touched_slope(&hw->llc_touched[hw->s->topo.cpu_socket[cpu]], now, by);
	hw->cpu_touch[cpu] = t;
	return true;
}

/*
 * ceil(x) as a time, for the fill's work left (0 < x): the truncation, one
 * more when it dropped a fraction; the same number as (stime_t)ceil(x)
 * without libm's call on every rate query of a filling vCPU.
 */
static inline stime_t ceil_ns(double x)
{
	stime_t i;

	if (!(x > 0 && x < 0x1p62))
		return (stime_t)ceil(x);
	i = (stime_t)x;
	return (double)i < x ? i + 1 : i;
}

/*
 * Running vCPU v was given speed r: its fill goes on at that speed, and
 * ends (a change of speed: the vCPU hears it) after the work left of it;
 * meanwhile v touches its working set at the fill's rate, and after it at
 * the rate its profile f brings new lines from memory.
 */
static void fill_track(struct hw *hw, struct vcpu *v, int cpu, const struct hw_figures *f,
		       const struct hw_rate *r)
{
	struct hw_vcpu *h = &v->hw;
	struct timer *t = &hw->fill_end[cpu];

	h->fill_rate = r->rate;
	if (h->fill_left > 0) {
		stime_t from = h->fill_from > sim_now(hw->s) ? h->fill_from : sim_now(hw->s);

		timer_set(&hw->s->q, t, from + hw_time_for(r, ceil_ns(h->fill_left)));
		set_touch(hw, cpu, h->fill_touch * r->rate);
	} else {
		if (timer_pending(t))
			timer_stop(&hw->s->q, t);
		set_touch(hw, cpu, f->misses * r->rate);
	}
}

/* pCPU cpu's vCPU has touched its whole working set: it speeds up. */
static void fill_end_fire(struct timer *t, void *arg)
{
	struct hw_retold_arg *a = arg;
	struct hw *hw = a->hw;
	struct sim *s = hw->s;
	struct vcpu *v = s->pcpus[a->at].curr;

	(void)t;
	fill_fold(&v->hw, sim_now(s));
	v->hw.fill_left = 0;
	set_touch(hw, a->at, vcpu_figures(hw, v, profile_of(v))->misses * v->hw.fill_rate);
	if (s->hooks.work_sync)
		s->hooks.work_sync(s, v);
}

/*
 * Bytes of 'resident' that survive 'touched' bytes that others touched in
 * a cache of 'size' bytes, least recently used first: the room the owner's
 * lines did not take goes first.
 */
static long long survive(long long resident, double touched, long long size)
{
	double room = size > resident ? (double)(size - resident) : 0, evicted;

	if (touched <= room)
		return resident;
	evicted = touched - room;
	return evicted >= (double)resident ? 0 : resident - (long long)evicted;
}

static long long min_ll(long long a, long long b)
{
	return a < b ? a : b;
}

/*
 * v starts on cpu, its work at work_from: the part of its working set that
 * is cold there, and the fill in which its work touches the working set
 * again.  The cold lines cost what refilling them at the host's bandwidths
 * takes, but a warm cache misses FILL_SHARE of the bytes a fill touches
 * too (the full-speed time holds those), so the fill's extra time is the
 * rest, spread over the fill's work: a run cut short pays for the part it
 * touched.
 */
static void cache_enter(struct hw *hw, struct vcpu *v, int cpu, stime_t work_from)
{
	struct hw_vcpu *h = &v->hw;
	const struct hw_profile *p = profile_of(v);
	double misses = vcpu_figures(hw, v, p)->misses;
	int core = hw->s->topo.cpu_core[cpu], socket = hw->s->topo.cpu_socket[cpu];
	long long want_core = min_ll(p->working_set, hw->c.l2_size);
	long long want_llc = min_ll(p->working_set, hw->c.llc_size);
	long long warm_core = 0, warm_llc = 0, from_mem, from_llc;
	stime_t now = sim_now(hw->s);
	double ns, mem_stretch = 1;

	if (h->warm_core == core)
		warm_core = survive(h->core_bytes,
				    touched_at(&hw->core_touched[core], now) - h->core_mark,
				    hw->c.l2_size);
	if (h->warm_socket == socket)
		warm_llc = survive(h->llc_bytes,
				   touched_at(&hw->llc_touched[socket], now) - h->llc_mark,
				   hw->c.llc_size);
	h->cold_core = want_core - min_ll(warm_core, want_core);
	h->cold_llc = want_llc - min_ll(warm_llc, want_llc);
	/* Private lines that are cold in the LLC too come from memory. */
	from_mem = h->cold_llc;
	from_llc = h->cold_core > from_mem ? h->cold_core - from_mem : 0;
	if (v->dom->hw.remote)
		mem_stretch += v->dom->hw.remote[hw->s->topo.cpu_node[cpu]] * hw->remote_extra;
	ns = (double)from_llc * hw->llc_ns_per_byte +
	     (double)from_mem * hw->mem_ns_per_byte * mem_stretch;
	h->warm_core = core;
	h->warm_socket = socket;
	h->core_bytes = want_core;
	h->llc_bytes = want_llc;
	h->fill_from = work_from;
	h->fill_rate = 0;
	if (misses > 0 && want_llc > 0) {
		h->fill_work = FILL_SHARE * (double)want_llc / misses;
		h->fill_left = h->fill_work;
		h->fill_extra = (1 - FILL_SHARE) * ns / h->fill_work;
		h->fill_touch = (double)want_llc / h->fill_work;
	} else {
		h->fill_work = h->fill_left = h->fill_extra = h->fill_touch = 0;
	}
}

/* v leaves cpu at now: what its fill did not touch stays cold; it touches nothing more. */
static void cache_leave(struct hw *hw, struct vcpu *v, int cpu, stime_t now)
{
	struct hw_vcpu *h = &v->hw;
	int core = hw->s->topo.cpu_core[cpu], socket = hw->s->topo.cpu_socket[cpu];

	fill_fold(h, now);
	if (h->fill_left > 0) {
		double undone = h->fill_left / h->fill_work;

		h->core_bytes -= (long long)(undone * (double)h->cold_core);
		h->llc_bytes -= (long long)(undone * (double)h->cold_llc);
		h->fill_left = 0;
	}
	timer_stop(&hw->s->q, &hw->fill_end[cpu]);
	if (set_touch(hw, cpu, 0)) {
		/* touched_at(c, now) of counters just brought to now: their bytes */
		h->core_mark = hw->core_touched[core].bytes;
		h->llc_mark = hw->llc_touched[socket].bytes;
	} else {
		h->core_mark = touched_at(&hw->core_touched[core], now);
		h->llc_mark = touched_at(&hw->llc_touched[socket], now);
	}
}

/* ------------------------------------------------------------ the switch */

void hw_model_switch(struct hw *hw, int cpu, struct vcpu *prev, struct vcpu *next,
		     stime_t work_from)
{
	bool was_busy = !is_idle_vcpu(prev), busy = !is_idle_vcpu(next);
	stime_t now = sim_now(hw->s);

	if (was_busy)
		cache_leave(hw, prev, cpu, now);
	hw->core_gen[hw->s->topo.cpu_core[cpu]]++;
	if (was_busy != busy) {
		int *core_busy = &hw->busy[hw->s->topo.cpu_core[cpu]];

		*core_busy += busy ? 1 : -1;
		if (*core_busy > busy)          /* a sibling runs a vCPU: its speed changed */
			tell_siblings(hw, cpu);
	} else if (busy && hw->busy[hw->s->topo.cpu_core[cpu]] > 1 &&
		   presses_differently(hw, prev, next)) {
		tell_siblings(hw, cpu);    /* the siblings' neighbour presses differently */
	}
	hw->mem_view[cpu].intensity = 0;        /* until next's guest asks its speed */
	hw->band[cpu] = band_everywhere;
	set_demand(hw, cpu, busy ? vcpu_figures(hw, next, profile_of(next))->demand : 0, true);
	if (!busy) {
		hw->idle_since[cpu] = now;
		hw->exit_latency[cpu] = 0;
		return;
	}
	/* Woken from a C-state for this vCPU: the exit latency delayed it. */
	if (!was_busy && hw->exit_latency[cpu] && hw->idle_since[cpu] == now)
		next->st.hw.lost_ns[HW_LOST_CSTATE] += hw->exit_latency[cpu];
	hw->exit_latency[cpu] = 0;
	cache_enter(hw, next, cpu, work_from);
}

/* ----------------------------------------------------------- idle states */

/* The pCPU idles with sched_has_urgent_vcpu() true (hw_model_wake_delay below). */
static bool urgent_idle(const struct hw *hw, int cpu)
{
	const struct vcpu *unit = hw->s->pcpus[cpu].unit;

	return unit && !is_idle_vcpu(unit);
}

/*
 * Whether a softirq raised on idle pCPU cpu needs the event-check IPI.
 * An idle loop that sleeps in MWAIT monitors the line of its pending
 * softirqs, so the write that raises one wakes it and no IPI is sent:
 * Xen's cpu_raise_softirq skips it when arch_skip_send_event_check finds
 * the pCPU in cpuidle_mwait_flags (xen/common/softirq.c:100-103,
 * xen/arch/x86/acpi/cpu_idle.c:394-402 and 428-434 of the July 2019
 * staging, since commit 9a727a813e of 2014), and bare-metal Linux 5.1
 * skips its reschedule IPI to a CPU whose idle task polls
 * (TIF_POLLING_NRFLAG, which mwait_idle_with_hints keeps set:
 * set_nr_and_not_polling in resched_curr).  A halting idle loop takes the
 * IPI: max_cstate=0, no C-state table, or Xen's mwait_idle with an
 * urgent vCPU (cpu/mwait-idle.c:727-746, safe_halt).
 */
bool hw_model_needs_ipi(const struct hw *hw, int cpu)
{
	return !is_idle_vcpu(hw->s->pcpus[cpu].curr) || !hw->ncst || hw->halts ||
	       urgent_idle(hw, cpu);
}

/* Xen's menu governor: the weight of history and the latency margin. */
#define MENU_DECAY 4               /* cpuidle_menu.c:36 DECAY (4.8 and 2019 alike) */
#define MENU_LATENCY_MULTIPLIER 10 /* cpuidle_menu.c:38 LATENCY_MULTIPLIER */

/*
 * The retrospective choice of an idle governor: the deepest allowed state
 * whose target residency the idle time reached; a pCPU idle for less than
 * the shallowest state's residency still halted in it (Xen's idle loop
 * always enters at least C1).
 *
 * Xen's menu governor also refuses, from the second state on, a state
 * whose exit latency times LATENCY_MULTIPLIER (10) exceeds its
 * latency_factor, a running average (DECAY 4, rounded) of the pCPU's
 * previous idle periods in microseconds, zero at boot: menu_select of
 * xen/arch/x86/acpi/cpuidle_menu.c, lines 205-207 and 230-231 of the July
 * 2019 staging (8706d38479), 206-208 and 231 of 4.8.0, the same code from
 * commit 775c681db1 (June 2014) to 4.17.5 and master, so every era the
 * project models; menu_reflect (lines 245-252) keeps the idle that ended,
 * less the exit latency, for the next choice.  The average here takes each
 * idle the governor saw (not those of the urgent halt below, which skips
 * select and reflect) when the next one ends, as menu_select does when it
 * starts.  A table led by Linux's POLL state (exit latency and residency
 * 0, drivers/cpuidle/poll_state.c) is bare-metal Linux's, whose governor
 * is not Xen's: the rule is not applied to it.
 */
stime_t hw_model_wake_delay(struct hw *hw, int cpu, stime_t at)
{
	struct hw_menu *menu = &hw->menu[cpu];
	stime_t idle, lat;
	bool xen_menu;
	int i;

	if (!is_idle_vcpu(hw->s->pcpus[cpu].curr) || !hw->ncst)
		return 0;
	if (at < hw->idle_since[cpu])          /* a wake-up is already under way */
		return hw->idle_since[cpu] - at;
	idle = at - hw->idle_since[cpu];
	if (idle <= 0)                         /* it has not gone to sleep yet */
		return 0;
	xen_menu = !urgent_idle(hw, cpu) &&
		   !(hw->cst[0].exit_latency == 0 && hw->cst[0].residency == 0);
	if (xen_menu)
		menu->latency_factor_us = (menu->latency_factor_us * (MENU_DECAY - 1) +
					   menu->measured_us + MENU_DECAY / 2) / MENU_DECAY;
	for (i = 0; i + 1 < hw->ncst; i++) {
		const struct cstate *deeper = &hw->cst[i + 1];

		if (deeper->residency > idle)
			break;
		if (xen_menu && deeper->exit_latency * MENU_LATENCY_MULTIPLIER >
				menu->latency_factor_us * 1000)
			break;
	}
	if (xen_menu)
		menu->measured_us = idle / 1000;
	/*
	 * sched-gran > 1: a thread idle beside a running sibling of its unit
	 * (its resource's unit is a guest's) idles in the core-scheduling
	 * series' guest_idle_loop (4.13.0 xen/arch/x86/domain.c:162-179),
	 * whose sched_guest_idle (xen/common/schedule.c:290-302) raises the
	 * pCPU's sched_urgent_count.  The idle driver of the Xen the 2019
	 * evaluation ran (staging of July 2019, 8706d38479) then skips the
	 * governor and halts: mwait_idle's and acpi_processor_idle's
	 * `!sched_has_urgent_vcpu()` test (cpu/mwait-idle.c:727-746,
	 * acpi/cpu_idle.c:582) leaves cx NULL and safe_halt runs, HLT, the
	 * shallowest state (C1: Xen's mwait-idle disables the promotion of C1
	 * to C1E on the 2019 host's CPU model, idle_cpu_skl's
	 * disable_promotion_to_c1e).  That halt is also why such a thread
	 * takes the IPI (hw_model_needs_ipi).  Xen 4.13.0 lets it pick any
	 * C1-type state by MWAIT instead (commit 1bce2a94e9 of 22 July 2019,
	 * after the evaluation's figures), not modelled.  At sched-gran=cpu an
	 * idle pCPU's unit is its idle unit, and this never applies.  (A
	 * table's POLL state, type 0, is Linux's, not a halt.)
	 */
	if (urgent_idle(hw, cpu))
		for (i = 0; i < hw->ncst - 1 && hw->cst[i].type < 1; i++)
			;
	lat = hw->cst[i].exit_latency;
	hw->idle_since[cpu] = at + lat;
	hw->exit_latency[cpu] = lat;
	return lat;
}

/* ---------------------------------------------------------------- memory */

long long hw_node_free_mb(const struct hw *hw, int node)
{
	return hw->free_mb[node];
}

bool hw_autoballoon(const struct hw *hw)
{
	return hw && hw->c.autoballoon;
}

static void describe_nodes(const bool *nodes, int n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		if (nodes[i])
			used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", i);
}

/* Puts up to *left MiB on node i of hw; returns what it took. */
static long long take(struct hw *hw, struct domain *d, int i, long long want)
{
	long long t = min_ll(want, hw->free_mb[i]);

	hw->free_mb[i] -= t;
	d->hw.node_mb[i] += t;
	return t;
}

int hw_domain_memory(struct hw *hw, struct domain *d, const bool *nodes, long long memory_mb,
		     bool strict, struct err *e)
{
	int n = hw->nr_nodes, k = 0, seen = 0;
	long long left = memory_mb, free_in_set = 0;
	char list[256];

	free(d->hw.node_mb);
	free(d->hw.remote);
	d->hw.memory_mb = memory_mb;
	d->hw.node_mb = xcalloc((size_t)n, sizeof(*d->hw.node_mb));
	d->hw.remote = xcalloc((size_t)n, sizeof(*d->hw.remote));
	for (int i = 0; i < n; i++)
		if (nodes[i]) {
			k++;
			free_in_set += hw->free_mb[i];
		}
	if (k == 0)
		return err_set(e, "no NUMA node to put its memory on");
	if (strict && free_in_set < memory_mb) {
		describe_nodes(nodes, n, list, sizeof(list));
		return err_set(e, "memory=%lld MiB does not fit on node%s %s (%lld MiB free)",
			       memory_mb, k > 1 ? "s" : "", list, free_in_set);
	}
	/* Evenly over the set (Xen's allocator cycles through the node affinity). */
	for (int i = 0; i < n; i++)
		if (nodes[i]) {
			long long share = memory_mb / k + (seen < memory_mb % k ? 1 : 0);

			seen++;
			left -= take(hw, d, i, share);
		}
	/* What a full node could not hold: the set first, then any node. */
	for (int i = 0; i < n && left > 0; i++)
		if (nodes[i])
			left -= take(hw, d, i, left);
	for (int i = 0; i < n && left > 0 && !strict; i++)
		left -= take(hw, d, i, left);
	if (left > 0) {
		long long total = 0;

		for (int i = 0; i < n; i++)
			total += hw->free_mb[i] + d->hw.node_mb[i];
		return err_set(e, "memory=%lld MiB does not fit in the host's free memory (%lld MiB)",
			       memory_mb, total);
	}
	for (int i = 0; i < n; i++) {
		double share = memory_mb > 0 ? (double)d->hw.node_mb[i] / (double)memory_mb
					     : (nodes[i] ? 1.0 / k : 0.0);

		d->hw.remote[i] = 1.0 - share;
	}
	return 0;
}

/* ---------------------------------------------------------------- checks */

/*
 * pCPU cpu's band says "not stale" only where view_stale agrees: at its
 * inner edges (mem_extra grows with the stretch there) and at its socket's
 * stretch now; and its socket's quiet range (unless empty) is inside it.
 */
static bool band_holds(const struct hw *hw, int cpu, char *msg, size_t len)
{
	int socket = hw->s->topo.cpu_socket[cpu];
	const struct hw_band *b = &hw->band[cpu], *q = &hw->quiet[socket];
	double at[3] = { nextafter(b->lo, INFINITY), nextafter(b->hi, -INFINITY),
			 hw->socket_stretch[socket] };

	for (int i = 0; i < 3; i++)
		if (at[i] > b->lo && at[i] < b->hi && isfinite(at[i]) &&
		    view_stale(&hw->mem_view[cpu], at[i])) {
			snprintf(msg, len, "hw: pCPU %d's band (%.17g, %.17g) holds memory time %.17g, "
				 "at which its speed is stale", cpu, b->lo, b->hi, at[i]);
			return false;
		}
	if (q->lo < q->hi && (q->lo < b->lo || q->hi > b->hi)) {
		snprintf(msg, len, "hw: socket %d's quiet range (%.17g, %.17g) leaves pCPU %d's "
			 "band (%.17g, %.17g)", socket, q->lo, q->hi, cpu, b->lo, b->hi);
		return false;
	}
	return true;
}

/*
 * A pCPU's memo, where it holds for the vCPU running there, gives what
 * working the speed out anew gives, to the bit.
 */
static bool memo_right(struct hw *hw, int cpu, char *msg, size_t len)
{
	struct vcpu *v = hw->s->pcpus[cpu].curr;
	const struct hw_profile *p = v->hw.prof;
	struct hw_mem_view mem;
	struct hw_rate r;

	if (is_idle_vcpu(v) || !p || !memo_holds(hw, cpu, v, p))
		return true;
	rate_work_out(hw, v, p, vcpu_figures(hw, v, p), cpu,
		      hw->socket_stretch[hw->s->topo.cpu_socket[cpu]], &mem, &r);
	if (memcmp(&r, &hw->memo[cpu].r, sizeof(r)) == 0)
		return true;
	snprintf(msg, len, "hw: pCPU %d keeps speed %.17g for its vCPU, worked out anew it is %.17g",
		 cpu, hw->memo[cpu].r.rate, r.rate);
	return false;
}

/*
 * The touched-bytes slopes: an idle pCPU has no part in them, and no fill
 * ends on it; a core's and a socket's slopes are the sums of their threads'
 * parts.
 */
static bool touch_holds(struct hw *hw, char *msg, size_t len)
{
	const struct topology *t = &hw->s->topo;
	long long *core = hw->check_sums, *socket = hw->check_sums + hw->nr_cores;
	bool ok = true;

	memset(hw->check_sums, 0, ((size_t)hw->nr_cores + (size_t)hw->nr_sockets) *
	       sizeof(*hw->check_sums));
	for (int cpu = 0; cpu < t->nr_cpus && ok; cpu++) {
		core[t->cpu_core[cpu]] += hw->cpu_touch[cpu];
		socket[t->cpu_socket[cpu]] += hw->cpu_touch[cpu];
		if (is_idle_vcpu(hw->s->pcpus[cpu].curr) &&
		    (hw->cpu_touch[cpu] || timer_pending(&hw->fill_end[cpu]))) {
			snprintf(msg, len, "hw: idle pCPU %d touches %lld bytes per ms of its caches%s",
				 cpu, hw->cpu_touch[cpu], timer_pending(&hw->fill_end[cpu]) ?
				 ", and a cache fill ends on it" : "");
			ok = false;
		}
	}
	for (int c = 0; c < hw->nr_cores && ok; c++)
		if (core[c] != hw->core_touched[c].slope) {
			snprintf(msg, len, "hw: core %d's threads touch %lld bytes per ms of its cache, "
				 "the model counts %lld", c, core[c], hw->core_touched[c].slope);
			ok = false;
		}
	for (int k = 0; k < hw->nr_sockets && ok; k++)
		if (socket[k] != hw->llc_touched[k].slope) {
			snprintf(msg, len, "hw: socket %d's threads touch %lld bytes per ms of its LLC, "
				 "the model counts %lld", k, socket[k], hw->llc_touched[k].slope);
			ok = false;
		}
	return ok;
}

bool hw_check(struct hw *hw, char *msg, size_t len)
{
	if (!hw)
		return true;
	long long *busy = hw->check_sums;
	bool ok = true;

	memset(busy, 0, (size_t)hw->nr_cores * sizeof(*busy));
	for (int cpu = 0; cpu < hw->s->topo.nr_cpus; cpu++)
		busy[hw->s->topo.cpu_core[cpu]] += !is_idle_vcpu(hw->s->pcpus[cpu].curr);
	for (int core = 0; core < hw->nr_cores && ok; core++)
		if (busy[core] != hw->busy[core]) {
			snprintf(msg, len, "hw: core %d runs %lld non-idle vCPUs, the SMT model counts %d",
				 core, busy[core], hw->busy[core]);
			ok = false;
		}
	for (int sk = 0; sk < hw->nr_sockets && ok; sk++) {
		long long sum = 0;

		for (int cpu = 0; cpu < hw->s->topo.nr_cpus; cpu++)
			if (hw->s->topo.cpu_socket[cpu] == sk)
				sum += hw->cpu_demand[cpu];
		if (sum != hw->socket_demand[sk]) {
			snprintf(msg, len, "hw: socket %d's threads make %lld MB/s of memory traffic, "
				 "the model counts %lld", sk, sum, hw->socket_demand[sk]);
			ok = false;
		} else if (hw->socket_stretch[sk] != mem_stretch(hw, load_of(hw, sum))) {
			snprintf(msg, len, "hw: socket %d's memory time is %g, its load gives %g", sk,
				 hw->socket_stretch[sk], mem_stretch(hw, load_of(hw, sum)));
			ok = false;
		}
	}
	for (int cpu = 0; cpu < hw->s->topo.nr_cpus && ok; cpu++)
		if (is_idle_vcpu(hw->s->pcpus[cpu].curr) && hw->cpu_demand[cpu]) {
			snprintf(msg, len, "hw: idle pCPU %d counts %lld MB/s of memory traffic", cpu,
				 hw->cpu_demand[cpu]);
			ok = false;
		}
	for (int cpu = 0; cpu < hw->s->topo.nr_cpus && ok; cpu++)
		ok = band_holds(hw, cpu, msg, len) && memo_right(hw, cpu, msg, len);
	return ok && touch_holds(hw, msg, len);
}
