/*
 * xen-diff-random: runs model-versus-Xen pairs over N random scenarios
 * (scengen.h) and prints, per pair, how many decided identically, how
 * many diverged, and the first divergence of each divergent scenario.
 *
 *   xen-diff-random [--pairs=FILE] [--pair=MODEL,XEN] [--only=TEXT] [--count=N]
 *                   [--seed=S] [--jobs=N] [--show=K] [--save=DIR] [--flags=F]
 *   xen-diff-random --print=SEED [--flags=F]      the scenario of one seed
 *   xen-diff-random --one=SEED ...                 just that scenario
 *
 * The pairs come from a table (tests/xen-diff/pairs; see its header):
 * model spec, Xen scheduler, tree, the share of scenarios that must be
 * identical, generator flags.  The Xen side is XEN@TREE, the name the
 * shim gives each tree's schedulers; a pair whose tree is not built is
 * skipped.  Scenario i is generated from seed_derive(S, i), the same for
 * every pair, and its seed is printed with each divergence, so
 *   xen-diff-random --print=SEED > s.xml && tests/xen-diff/xen-diff s.xml MODEL XEN
 * shows it in full (the schedulers' dumps just before the divergence).
 *
 * Both runs are under the invariant checker (sim/engine/check.c): a violation
 * is an error of the pair, as is a crash.
 *
 * Each block of scenarios runs in a child process (--jobs at a time):
 * a crash in Xen's code (a failed ASSERT aborts) is reported with the
 * pair and seed it happened on instead of taking the whole run down.
 *
 * A --pair may name a scheduler module's file (./credit2-mine.so, from
 * schedsim-xen-module; doc/modules.md) on either side, loaded before the
 * children are forked.
 *
 * Exit 0: every pair that ran reached its share; 1: some did not, or a
 * run failed; 2: bad input; 77: no pair could run (no tree built).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "schedulers/loader.h"
#include "schedulers/sched.h"
#include "sim/engine/rng.h"
#include "sim/input/scenario_load.h"
#include "sim/xalloc.h"
#include "tests/xen-diff/diff.h"
#include "tests/xen-diff/pair_table.h"
#include "tests/xen-diff/scengen.h"

#ifndef XEN_DIFF_PAIRS
#define XEN_DIFF_PAIRS "tests/xen-diff/pairs"
#endif
#define BLOCK 25            /* scenarios per child process */


enum status { ST_NONE, ST_STARTED, ST_SAME, ST_DIFF, ST_ERROR };

/* What a child reports per scenario (written whole to a pipe). */
struct result {
	int status;
	int index;
	uint64_t seed;
	unsigned features;
	stime_t t;
	int cpu;
	long long at;              /* switch number on that pCPU */
	char a[24], b[24];         /* who each switched in there */
	long long ta, tb;          /* and when (-1: nothing more) */
	int rt_diffs;              /* vCPUs whose run time differs */
	long long rt_worst;
	char err[256];
};

struct opts {
	const char *pairs_file;
	const char *only;
	const char *save;
	uint64_t seed;
	int count, jobs, show;
	bool one_given;
	uint64_t one;
	unsigned flags;
	struct sched_modules mods;   /* those a --pair names (./credit2-mine.so) */
	/* compiled before the children are forked, each of whose loads it checks */
	struct scenario_schema *schema;
};

/* --- one scenario under one pair (in a child) --- */

static void copy_name(char *dst, size_t len, const struct diff_switch *r)
{
	diff_name(r, dst, len);
}

static void run_scenario_pair(const struct pair *p, const struct opts *o, uint64_t seed,
			      struct result *r)
{
	const struct sched_modules *mods = &o->mods;
	struct scengen g;
	struct scenario sc;
	struct err e = { "" };
	struct diff_run a, b;
	struct diff_point pt;
	stime_t worst;

	r->seed = seed;
	scengen_seeded(&g, seed, p->flags);
	r->features = g.features;
	if (scenario_load_memory_with(o->schema, g.xml, (int)g.len, "random.xml", &sc, &e) < 0) {
		r->status = ST_ERROR;
		snprintf(r->err, sizeof(r->err), "the generated scenario does not load: %s", e.msg);
		scengen_free(&g);
		return;
	}
	scengen_free(&g);
	if (diff_run(&a, &sc, p->model, mods, sc.duration, true, &e) < 0) {
		r->status = ST_ERROR;
		snprintf(r->err, sizeof(r->err), "%s", e.msg);
		scenario_free(&sc);
		return;
	}
	if (diff_run(&b, &sc, p->xen, mods, sc.duration, true, &e) < 0) {
		r->status = ST_ERROR;
		snprintf(r->err, sizeof(r->err), "%s", e.msg);
		diff_run_free(&a);
		scenario_free(&sc);
		return;
	}
	r->status = ST_SAME;
	if (diff_first(&a, &b, &pt)) {
		r->status = ST_DIFF;
		r->t = pt.t;
		r->cpu = pt.cpu;
		r->at = (long long)pt.index;
		copy_name(r->a, sizeof(r->a), pt.a);
		copy_name(r->b, sizeof(r->b), pt.b);
		r->ta = pt.a ? (long long)pt.a->t : -1;
		r->tb = pt.b ? (long long)pt.b->t : -1;
	}
	r->rt_diffs = diff_runtimes(&a, &b, &worst, NULL);
	r->rt_worst = (long long)worst;
	if (r->rt_diffs && r->status == ST_SAME)
		r->status = ST_DIFF;   /* same switches, other run times: still a divergence */
	diff_run_free(&a);
	diff_run_free(&b);
	scenario_free(&sc);
}

static void write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(3);
		p += w;
		n -= (size_t)w;
	}
}

/* The child: scenarios [first, last) of pair p; a "started" record before each. */
static void child(const struct pair *p, const struct opts *o, int first, int last, int fd)
{
	int i;

	for (i = first; i < last; i++) {
		struct result r;
		uint64_t seed = o->one_given ? o->one : seed_derive(o->seed, (uint64_t)i);

		memset(&r, 0, sizeof(r));
		r.status = ST_STARTED;
		r.index = i;
		r.seed = seed;
		write_all(fd, &r, sizeof(r));
		run_scenario_pair(p, o, seed, &r);
		write_all(fd, &r, sizeof(r));
	}
	_exit(0);
}

/* --- the parent: blocks of work, children, results --- */

struct unit {
	int pair, first, last;
	pid_t pid;
	int fd;
};

struct tally {
	struct result *res;        /* per scenario */
	int run, same, diff, errors;
};

/*
 * A child's records fit in the pipe (Linux: 64 KiB), so it never blocks
 * on writing and the parent can wait for any child, then read its pipe.
 */
_Static_assert(2 * BLOCK * sizeof(struct result) <= 65536, "a block's results must fit a pipe");

static void start_unit(struct unit *u, const struct pair *pairs, const struct opts *o)
{
	int fds[2];

	if (pipe(fds) < 0) {
		perror("xen-diff-random: pipe");
		exit(2);
	}
	fflush(stdout);
	fflush(stderr);
	u->pid = fork();
	if (u->pid < 0) {
		perror("xen-diff-random: fork");
		exit(2);
	}
	if (u->pid == 0) {
		close(fds[0]);
		child(&pairs[u->pair], o, u->first, u->last, fds[1]);
	}
	close(fds[1]);
	u->fd = fds[0];
}

/*
 * Reads the records of a unit whose child has exited.  A child that died
 * leaves its last scenario "started": that one becomes an error, and a
 * new child takes the rest of the block.  Returns true when the unit is
 * finished.
 */
static bool collect_unit(struct unit *u, int status, struct tally *t, const struct pair *pairs,
			 const struct opts *o)
{
	struct result r;
	size_t got = 0;
	int crashed_at = -1, i;

	for (;;) {
		ssize_t n = read(u->fd, (char *)&r + got, sizeof(r) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
		if (got == sizeof(r)) {
			t->res[r.index] = r;
			got = 0;
		}
	}
	close(u->fd);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true;
	for (i = u->first; i < u->last; i++)
		if (t->res[i].status == ST_STARTED)
			crashed_at = i;
	if (crashed_at < 0) {
		/* Died before its first scenario: nothing to blame, nothing to retry. */
		for (i = u->first; i < u->last; i++) {
			t->res[i].status = ST_ERROR;
			snprintf(t->res[i].err, sizeof(t->res[i].err), "not run (status %d)", status);
		}
		return true;
	}
	r = t->res[crashed_at];
	r.status = ST_ERROR;
	if (WIFSIGNALED(status))
		snprintf(r.err, sizeof(r.err), "the run crashed (signal %d; its message is above)",
			 WTERMSIG(status));
	else
		snprintf(r.err, sizeof(r.err), "the run exited with status %d", WEXITSTATUS(status));
	t->res[crashed_at] = r;
	if (crashed_at + 1 >= u->last)
		return true;
	u->first = crashed_at + 1;
	start_unit(u, pairs, o);
	return false;
}

static void save_scenario(const struct opts *o, const struct pair *p, int pi, const struct result *r)
{
	struct scengen g;
	char path[4096];
	FILE *f;

	mkdir(o->save, 0777);
	snprintf(path, sizeof(path), "%s/pair%d-%016" PRIx64 ".xml", o->save, pi + 1, r->seed);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "xen-diff-random: %s: %s\n", path, strerror(errno));
		return;
	}
	scengen_seeded(&g, r->seed, p->flags);
	fprintf(f, "<!-- xen-diff-random seed 0x%016" PRIx64 ": %s vs %s diverge -->\n%s",
		r->seed, p->model, p->xen, g.xml);
	scengen_free(&g);
	fclose(f);
}


/* Prints one pair's divergences and its features line; returns true if it passes. */
static bool report_pair(const struct opts *o, const struct pair *p, int pi, struct tally *t,
			int count)
{
	static const char *const names[] = SCENGEN_FEATURE_NAMES;
	int with[SCENGEN_NFEATURES] = { 0 }, div_with[SCENGEN_NFEATURES] = { 0 };
	char feat[128], fl[32];
	int i, shown = 0, bad = t->diff + t->errors;

	if (!bad)
		return true;
	printf("\n%s vs %s: %d of %d diverge%s (first divergence: pCPU, switch number there,\n"
	       "  model's choice@time / Xen's choice@time)\n", p->model, p->xen, bad, count,
	       o->show >= 0 && bad > o->show ? ", the first ones shown" : "");
	pair_flags_format(p->flags, fl, sizeof(fl));
	for (i = 0; i < count; i++) {
		const struct result *r = &t->res[i];
		int k;

		for (k = 0; k < SCENGEN_NFEATURES; k++) {
			if (!(r->features & (1u << k)))
				continue;
			with[k]++;
			if (r->status != ST_SAME)
				div_with[k]++;
		}
		if (r->status == ST_SAME)
			continue;
		if (o->save)
			save_scenario(o, p, pi, r);
		if (o->show >= 0 && shown >= o->show)
			continue;
		shown++;
		scengen_features(r->features, feat, sizeof(feat));
		if (r->status == ST_ERROR)
			printf("  seed 0x%016" PRIx64 " [%s]: error: %s\n", r->seed, feat, r->err);
		else if (r->a[0] || r->b[0])
			printf("  seed 0x%016" PRIx64 " [%s]: pCPU %d switch #%lld: %s@%lld / %s@%lld\n",
			       r->seed, feat, r->cpu, r->at, r->a, r->ta, r->b, r->tb);
		else
			printf("  seed 0x%016" PRIx64 " [%s]: same switches, %d run time(s) differ (at most %lld ns)\n",
			       r->seed, feat, r->rt_diffs, r->rt_worst);
	}
	printf("  divergent/scenarios by feature:");
	for (i = 0; i < SCENGEN_NFEATURES; i++)
		printf(" %s %d/%d", names[i], div_with[i], with[i]);
	printf("\n  reproduce: xen-diff-random --print=SEED%s%s > s.xml && xen-diff s.xml '%s' '%s'\n",
	       fl[0] ? " --flags=" : "", fl, p->model, p->xen);
	return 100.0 * t->same >= p->need * count;
}

static int run_pairs(const struct opts *o, struct pair *pairs, int npairs)
{
	struct unit *units;
	struct tally *tallies = xcalloc((size_t)npairs, sizeof(*tallies));
	int nunits = 0, i, k, next = 0, running = 0, ran = 0, failed = 0, width = 20;
	int count = o->one_given ? 1 : o->count;
	int block = o->one_given ? 1 : BLOCK;

	units = xcalloc((size_t)npairs * (size_t)((count + block - 1) / block) + 1, sizeof(*units));
	for (i = 0; i < npairs; i++) {
		if (pairs[i].skip)
			continue;
		tallies[i].res = xcalloc((size_t)count, sizeof(*tallies[i].res));
		for (k = 0; k < count; k += block) {
			units[nunits].pair = i;
			units[nunits].first = k;
			units[nunits].last = k + block < count ? k + block : count;
			nunits++;
		}
	}
	/* At most o->jobs children at once; whichever ends first is read first. */
	while (next < nunits || running) {
		pid_t pid;
		int status;

		while (next < nunits && running < o->jobs) {
			start_unit(&units[next], pairs, o);
			next++;
			running++;
		}
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			perror("xen-diff-random: waitpid");
			exit(2);
		}
		for (i = 0; i < next; i++)
			if (units[i].pid == pid)
				break;
		if (i == next)
			continue;
		units[i].pid = 0;
		if (collect_unit(&units[i], status, &tallies[units[i].pair], pairs, o))
			running--;
	}
	for (i = 0; i < npairs; i++) {
		int w = (int)(strlen(pairs[i].model) + strlen(pairs[i].xen) + 4);

		if (w > width)
			width = w;
	}
	printf("%-*s %5s %9s %9s %6s  %s\n", width, "pair (model vs Xen)", "run", "identical",
	       "divergent", "need", "result");
	for (i = 0; i < npairs; i++) {
		struct tally *t = &tallies[i];
		char name[2 * PAIR_SPEC_MAX + 8];

		snprintf(name, sizeof(name), "%s vs %s", pairs[i].model, pairs[i].xen);
		if (pairs[i].skip) {
			printf("%-*s %5s %9s %9s %6s  skipped: %s\n", width, name, "-", "-", "-", "-",
			       pairs[i].skip);
			continue;
		}
		for (k = 0; k < count; k++) {
			t->run++;
			if (t->res[k].status == ST_SAME)
				t->same++;
			else if (t->res[k].status == ST_DIFF)
				t->diff++;
			else
				t->errors++;
		}
		ran++;
		printf("%-*s %5d %9d %9d %5.4g%%  %s%s\n", width, name, t->run, t->same, t->diff + t->errors,
		       pairs[i].need, 100.0 * t->same >= pairs[i].need * count ? "ok" : "FAIL",
		       t->errors ? " (with errors)" : "");
	}
	for (i = 0; i < npairs; i++) {
		if (pairs[i].skip)
			continue;
		if (!report_pair(o, &pairs[i], i, &tallies[i], count) || tallies[i].errors)
			failed++;
		free(tallies[i].res);
	}
	free(tallies);
	free(units);
	if (!ran) {
		printf("no pair could run: configure --with-xen-source=DIR with the trees the pairs name\n");
		return 77;
	}
	return failed ? 1 : 0;
}

/* --- command line --- */

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return *s && !*end && !errno && *s != '-' ? 0 : -1;
}

static int usage(const char *why)
{
	fprintf(stderr, "xen-diff-random: %s\n"
		"usage: xen-diff-random [--pairs=FILE] [--pair=MODEL,XEN] [--only=TEXT] [--count=N]\n"
		"                       [--seed=S] [--jobs=N] [--show=K] [--save=DIR] [--flags=F]\n"
		"       xen-diff-random --print=SEED [--flags=F]\n", why);
	return 2;
}

int main(int argc, char **argv)
{
	struct opts o = { .pairs_file = XEN_DIFF_PAIRS, .seed = 16, .count = 200, .jobs = 1,
			  .show = 10 };
	struct pair *pairs = NULL, adhoc;
	struct err e = { "" };
	const char *pair_arg = NULL;
	bool print = false;
	uint64_t v, print_seed = 0;
	char why[200];
	int npairs = 0, i, j, rc;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = strchr(a, '=');

		val = val ? val + 1 : "";
#define OPT(name) (strncmp(a, name "=", sizeof(name)) == 0)
		if (OPT("--pairs"))
			o.pairs_file = val;
		else if (OPT("--pair"))
			pair_arg = val;
		else if (OPT("--only"))
			o.only = val;
		else if (OPT("--save"))
			o.save = val;
		else if (OPT("--seed")) {
			if (parse_u64(val, &o.seed) < 0)
				return usage("--seed: not a number");
		} else if (OPT("--count") || OPT("--jobs") || OPT("--show")) {
			if (parse_u64(val, &v) < 0 || v > 10000000)
				return usage("--count, --jobs, --show: a number up to 10000000");
			if (OPT("--count"))
				o.count = (int)v;
			else if (OPT("--jobs"))
				o.jobs = v ? (int)v : 1;
			else
				o.show = (int)v;
		} else if (OPT("--one")) {
			if (parse_u64(val, &o.one) < 0)
				return usage("--one: not a seed");
			o.one_given = true;
		} else if (OPT("--print")) {
			if (parse_u64(val, &print_seed) < 0)
				return usage("--print: not a seed");
			print = true;
		} else if (OPT("--flags")) {
			if (pair_flags_parse(val, &o.flags, why, sizeof(why)) < 0)
				return usage(why);
		} else if (strcmp(a, "--show-all") == 0) {
			o.show = -1;
		} else {
			snprintf(why, sizeof(why), "unknown option %s", a);
			return usage(why);
		}
#undef OPT
	}
	if (print) {
		struct scengen g;

		scengen_seeded(&g, print_seed, o.flags);
		fputs(g.xml, stdout);
		scengen_free(&g);
		return 0;
	}
	if (o.count <= 0)
		return usage("--count must be at least 1");
	sched_modules_init(&o.mods, NULL);
	if (pair_arg) {
		if (pair_parse(pair_arg, &adhoc, &o.mods, &e) < 0) {
			fprintf(stderr, "xen-diff-random: --pair: %s\n", e.msg);
			sched_modules_free(&o.mods);
			return 2;
		}
		adhoc.flags |= o.flags;
		pairs = &adhoc;
		npairs = 1;
	} else if (pairs_load(o.pairs_file, &pairs, &npairs, &e) < 0) {
		fprintf(stderr, "xen-diff-random: %s\n", e.msg);
		return 2;
	}
	if (o.only) {
		for (i = j = 0; i < npairs; i++) {
			char name[2 * PAIR_SPEC_MAX + 8];

			snprintf(name, sizeof(name), "%s vs %s", pairs[i].model, pairs[i].xen);
			if (strstr(name, o.only))
				pairs[j++] = pairs[i];
		}
		if (!j) {
			fprintf(stderr, "xen-diff-random: --only=%s: no pair matches\n", o.only);
			if (pairs != &adhoc)
				free(pairs);
			sched_modules_free(&o.mods);
			return 2;
		}
		npairs = j;
	}
	printf("xen-diff-random: %d scenario(s) per pair, base seed %" PRIu64 "\n",
	       o.one_given ? 1 : o.count, o.seed);
	if (!(o.schema = scenario_schema_new(&e))) {
		fprintf(stderr, "xen-diff-random: %s\n", e.msg);
		rc = 2;
	} else {
		rc = run_pairs(&o, pairs, npairs);
	}
	scenario_schema_free(o.schema);
	if (pairs != &adhoc)
		free(pairs);
	sched_modules_free(&o.mods);
	return rc;
}
