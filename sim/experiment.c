/*
 * Running the experiment matrix in worker processes (see experiment.h).
 *
 * Why processes and not threads: a run owns a struct sim and nothing else,
 * so fork() gives each worker a private copy of the inputs for free, and a
 * run that crashes (a scheduler bug found by a long matrix) takes down one
 * worker, which is reported with the configuration and seed that did it,
 * instead of the whole experiment.
 *
 * The parent hands out run indices one at a time over a pipe per worker
 * and reads back each result, serialized as raw bytes (doubles and times
 * travel exactly).  Results land at their index in x->runs, so the output
 * is the same whatever the order of completion.
 *
 * SIGINT: the one piece of process-wide state in schedsim is the flag the
 * handler sets, since a signal handler can reach nothing else.  The parent
 * notices it (poll() returns EINTR), ends its workers by pid and returns
 * EXP_INTERRUPTED; nothing has been written by then.
 */
#include "sim/experiment.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/rng.h"
#include "sim/xalloc.h"

static volatile sig_atomic_t exp_interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	exp_interrupted = 1;
}

uint64_t experiment_seed(uint64_t base, int iteration)
{
	return seed_derive(base, (uint64_t)iteration);
}

static int axis_len(int n)
{
	return n > 0 ? n : 1;
}

int experiment_index(const struct experiment *x, int s, int w, int d, int i)
{
	int nw = axis_len(x->nworkloads), nd = axis_len(x->ndom0);

	return ((s * nw + w) * nd + d) * x->iterations + i;
}

struct coords {
	int s, w, d, i;
};

static struct coords index_coords(const struct experiment *x, int idx)
{
	int nw = axis_len(x->nworkloads), nd = axis_len(x->ndom0);
	struct coords c;

	c.i = idx % x->iterations;
	idx /= x->iterations;
	c.d = idx % nd;
	idx /= nd;
	c.w = idx % nw;
	c.s = idx / nw;
	return c;
}

static const char *axis_workload(const struct experiment *x, int w)
{
	return x->nworkloads ? x->workloads[w] : NULL;
}

static const char *axis_dom0(const struct experiment *x, int d)
{
	return x->ndom0 ? x->dom0_loads[d] : NULL;
}

static int build_scenario(const struct experiment *x, int w, int d,
			  struct scenario *sc, struct err *e)
{
	scenario_copy(sc, x->base);
	if (x->apply_axes && (x->nworkloads || x->ndom0) &&
	    x->apply_axes(sc, axis_workload(x, w), axis_dom0(x, d), e)) {
		scenario_free(sc);
		return -1;
	}
	return 0;
}

static void describe_run(const struct experiment *x, int idx, char *buf, size_t len)
{
	struct coords c = index_coords(x, idx);
	const char *w = axis_workload(x, c.w), *d = axis_dom0(x, c.d);

	snprintf(buf, len, "%s%s%s%s%s iteration %d (seed %llu)", x->scheds[c.s].text,
		 w ? " " : "", w ? w : "", d ? " dom0-load=" : "", d ? d : "", c.i,
		 (unsigned long long)experiment_seed(x->seed, c.i));
}

/* One run in the worker: the matrix cell's scenario with iteration i's seed. */
static int do_run(const struct experiment *x, int idx, struct run_result *r, struct err *e)
{
	struct coords c = index_coords(x, idx);
	struct scenario sc;
	int rc;

	if (build_scenario(x, c.w, c.d, &sc, e))
		return -1;
	sc.seed = experiment_seed(x->seed, c.i);
	memset(r, 0, sizeof(*r));
	rc = run_scenario(&sc, &x->scheds[c.s], &x->ropt, r, e);
	scenario_free(&sc);
	if (rc)
		return -1;
	snprintf(r->workload, sizeof(r->workload), "%s", x->nworkloads ? x->workloads[c.w] : "");
	snprintf(r->dom0_load, sizeof(r->dom0_load), "%s", x->ndom0 ? x->dom0_loads[c.d] : "");
	r->iteration = c.i;
	r->seed = sc.seed;
	return 0;
}

/* ------------------------------------------------------- serialization */

struct sbuf {
	char *p;
	size_t len, cap;
};

static void sput(struct sbuf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = 2 * (b->len + n) + 256;
		b->p = xreallocarray(b->p, b->cap, 1);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

struct rbuf {
	const char *p;
	size_t len, off;
};

static int rget(struct rbuf *b, void *p, size_t n)
{
	if (b->len - b->off < n)
		return -1;
	memcpy(p, b->p + b->off, n);
	b->off += n;
	return 0;
}

static void pack_hist(struct sbuf *b, const struct hist *h)
{
	uint32_t nz = 0;

	if (h->buckets)
		for (int i = 0; i < HIST_BUCKETS; i++)
			nz += h->buckets[i] != 0;
	sput(b, &nz, sizeof(nz));
	for (int i = 0; h->buckets && i < HIST_BUCKETS; i++)
		if (h->buckets[i]) {
			uint32_t k = (uint32_t)i;

			sput(b, &k, sizeof(k));
			sput(b, &h->buckets[i], sizeof(h->buckets[i]));
		}
}

static int unpack_hist(struct rbuf *b, struct hist *h)
{
	uint32_t nz;

	h->buckets = NULL;
	if (rget(b, &nz, sizeof(nz)) || nz > HIST_BUCKETS)
		return -1;
	if (nz)
		h->buckets = xcalloc(HIST_BUCKETS, sizeof(*h->buckets));
	for (uint32_t j = 0; j < nz; j++) {
		uint32_t k;

		if (rget(b, &k, sizeof(k)) || k >= HIST_BUCKETS ||
		    rget(b, &h->buckets[k], sizeof(h->buckets[k])))
			return -1;
	}
	return 0;
}

void run_result_pack(const struct run_result *r, char **buf, size_t *len)
{
	struct sbuf b = { NULL, 0, 0 };

	sput(&b, r, sizeof(*r));
	for (int d = 0; d < r->ndoms; d++) {
		const struct domain_result *dr = &r->doms[d];

		sput(&b, dr, sizeof(*dr));
		for (int v = 0; v < dr->nvcpus; v++) {
			const struct vcpu_result *vr = &dr->vcpus[v];

			sput(&b, vr, sizeof(*vr));
			sput(&b, vr->pcpus, vr->npcpus * sizeof(*vr->pcpus));
			pack_hist(&b, &vr->wake_latency);
		}
	}
	*buf = b.p;
	*len = b.len;
}

int run_result_unpack(const char *buf, size_t len, struct run_result *r)
{
	struct rbuf b = { buf, len, 0 };

	if (rget(&b, r, sizeof(*r)) || r->ndoms < 0 || r->ndoms > 1 << 20)
		goto bad_top;
	r->doms = xcalloc(r->ndoms + 1, sizeof(*r->doms));
	for (int d = 0; d < r->ndoms; d++) {
		struct domain_result *dr = &r->doms[d];

		if (rget(&b, dr, sizeof(*dr)) || dr->nvcpus < 0 || dr->nvcpus > 1 << 20) {
			dr->vcpus = NULL;       /* the sender's pointer */
			dr->nvcpus = 0;
			r->ndoms = d + 1;
			goto bad;
		}
		dr->vcpus = xcalloc(dr->nvcpus + 1, sizeof(*dr->vcpus));
		for (int v = 0; v < dr->nvcpus; v++) {
			struct vcpu_result *vr = &dr->vcpus[v];

			if (rget(&b, vr, sizeof(*vr)) || vr->npcpus < 0 || vr->npcpus > 1 << 20) {
				memset(vr, 0, sizeof(*vr));
				goto bad_at;
			}
			vr->pcpus = NULL;               /* the sender's pointers */
			vr->wake_latency.buckets = NULL;
			vr->pcpus = xcalloc(vr->npcpus + 1, sizeof(*vr->pcpus));
			if (rget(&b, vr->pcpus, vr->npcpus * sizeof(*vr->pcpus)) ||
			    unpack_hist(&b, &vr->wake_latency))
				goto bad_at;
			continue;
bad_at:
			dr->nvcpus = v + 1;
			r->ndoms = d + 1;
			goto bad;
		}
	}
	if (b.off != len)
		goto bad;
	return 0;
bad_top:
	r->ndoms = 0;
	r->doms = NULL;
	return -1;
bad:
	run_result_free(r);
	return -1;
}

/* ------------------------------------------------------------- workers */

struct msg_head {
	int32_t index;
	int32_t status;       /* 0: result follows; 1: error text follows */
	uint64_t len;
};

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t k = write(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/* 0 on success, 1 on end of file before the first byte, -1 otherwise. */
static int read_all(int fd, void *p, size_t n)
{
	char *c = p;
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, c + got, n - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k == 0 && got == 0)
			return 1;
		if (k <= 0)
			return -1;
		got += (size_t)k;
	}
	return 0;
}

static void worker_main(const struct experiment *x, int task_fd, int result_fd,
			void *parent_alloc)
{
	free(parent_alloc);     /* the parent's worker table, not needed here */

	int32_t idx;

	while (read_all(task_fd, &idx, sizeof(idx)) == 0) {
		struct run_result r;
		struct err e = { "" };
		struct msg_head h = { idx, 0, 0 };
		char *buf = NULL;
		size_t len;

		if (do_run(x, idx, &r, &e)) {
			h.status = 1;
			len = strlen(e.msg);
			buf = xstrdup(e.msg);
		} else {
			run_result_pack(&r, &buf, &len);
			run_result_free(&r);
		}
		h.len = len;
		if (write_all(result_fd, &h, sizeof(h)) || write_all(result_fd, buf, len))
			_exit(1);
		free(buf);
	}
	_exit(0);
}

struct worker {
	pid_t pid;
	int task_fd, result_fd;   /* -1 when closed */
	int busy;                 /* run index, or -1 */
};

static int spawn(const struct experiment *x, struct worker *wk, struct worker *all, int n,
		 struct err *e)
{
	int task[2], result[2];

	if (pipe(task))
		return err_set(e, "pipe: %s", strerror(errno));
	if (pipe(result)) {
		close(task[0]);
		close(task[1]);
		return err_set(e, "pipe: %s", strerror(errno));
	}
	fflush(NULL);
	wk->pid = fork();
	if (wk->pid < 0) {
		close(task[0]);
		close(task[1]);
		close(result[0]);
		close(result[1]);
		return err_set(e, "fork: %s", strerror(errno));
	}
	if (wk->pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		for (int i = 0; i < n; i++) {     /* the other workers' ends */
			if (all[i].task_fd >= 0)
				close(all[i].task_fd);
			if (all[i].result_fd >= 0)
				close(all[i].result_fd);
		}
		close(task[1]);
		close(result[0]);
		worker_main(x, task[0], result[1], all);
	}
	close(task[0]);
	close(result[1]);
	wk->task_fd = task[1];
	wk->result_fd = result[0];
	wk->busy = -1;
	return 0;
}

static void worker_close_task(struct worker *wk)
{
	if (wk->task_fd >= 0)
		close(wk->task_fd);
	wk->task_fd = -1;
}

static void worker_reap(struct worker *wk, bool kill_it)
{
	int status;

	worker_close_task(wk);
	if (wk->result_fd >= 0)
		close(wk->result_fd);
	wk->result_fd = -1;
	if (wk->pid > 0) {
		if (kill_it)
			kill(wk->pid, SIGTERM);
		while (waitpid(wk->pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	wk->pid = -1;
}

static void worker_death(const struct experiment *x, struct worker *wk, struct err *e)
{
	char what[700];
	int status = 0;

	describe_run(x, wk->busy, what, sizeof(what));
	worker_close_task(wk);
	close(wk->result_fd);
	wk->result_fd = -1;
	/* Dead already (a zombie: no effect), or alive but talking nonsense. */
	kill(wk->pid, SIGTERM);
	while (waitpid(wk->pid, &status, 0) < 0 && errno == EINTR)
		;
	wk->pid = -1;
	if (WIFSIGNALED(status))
		err_set(e, "%s: the run was killed by signal %d", what, WTERMSIG(status));
	else
		err_set(e, "%s: the worker process exited with status %d", what,
			WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The runs this process does: all, or a slice (x->only, sim/shard.h). */
static int tasks(const struct experiment *x)
{
	return x->only ? x->nonly : x->nruns;
}

static int task_at(const struct experiment *x, int k)
{
	return x->only ? x->only[k] : k;
}

static void progress(const struct experiment *x, double start, bool last)
{
	double el = now_s() - start;
	double left = x->ndone ? el / x->ndone * (tasks(x) - x->ndone) : 0;

	if (!x->progress)
		return;
	if (last) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r\033[K%d/%d runs, %.1fs elapsed, ~%.0fs left", x->ndone,
		tasks(x), el, left);
	fflush(stderr);
}

/* Reads one message; 0 stored, 1 the worker died, -1 the run failed. */
static int collect(struct experiment *x, struct worker *wk, struct err *e)
{
	struct msg_head h;
	char *buf;
	int rc = read_all(wk->result_fd, &h, sizeof(h));

	if (rc)
		return 1;
	if (h.index != wk->busy || h.len > (1ull << 34))
		return 1;
	buf = xmalloc(h.len + 1);
	if (read_all(wk->result_fd, buf, h.len) && h.len > 0) {
		free(buf);
		return 1;
	}
	buf[h.len] = 0;
	if (h.status) {
		char what[700];

		describe_run(x, h.index, what, sizeof(what));
		err_set(e, "%s: %s", what, buf);
		free(buf);
		return -1;
	}
	if (run_result_unpack(buf, h.len, &x->runs[h.index])) {
		free(buf);
		return 1;
	}
	free(buf);
	wk->busy = -1;
	x->ndone++;
	return 0;
}

static int give(struct worker *wk, int idx)
{
	int32_t i = idx;

	if (write_all(wk->task_fd, &i, sizeof(i)))
		return -1;
	wk->busy = idx;
	return 0;
}

static int check_axes(const struct experiment *x, struct err *e)
{
	if (!x->apply_axes)
		return 0;
	for (int w = 0; w < axis_len(x->nworkloads); w++)
		for (int d = 0; d < axis_len(x->ndom0); d++) {
			struct scenario sc;

			if (build_scenario(x, w, d, &sc, e))
				return -1;
			scenario_free(&sc);
		}
	return 0;
}

static int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* The dispatch loop; returns EXP_OK, EXP_ERROR or EXP_INTERRUPTED. */
static int dispatch(struct experiment *x, struct worker *wk, int n, struct err *e)
{
	struct pollfd *pfd = xcalloc(n, sizeof(*pfd));
	int next = 0, rc = EXP_OK, active = 0;
	double start = now_s();

	for (int k = 0; k < n; k++) {
		if (give(&wk[k], task_at(x, next++)))
			next--;
		else
			active++;
	}
	while (active > 0) {
		int np = 0;

		if (exp_interrupted) {
			rc = EXP_INTERRUPTED;
			break;
		}
		for (int k = 0; k < n; k++)
			if (wk[k].busy >= 0) {
				pfd[np].fd = wk[k].result_fd;
				pfd[np].events = POLLIN;
				pfd[np].revents = 0;
				np++;
			}
		if (poll(pfd, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc = err_set(e, "poll: %s", strerror(errno));
			break;
		}
		for (int k = 0, p = 0; k < n && rc == EXP_OK; k++) {
			int got;

			if (wk[k].busy < 0)
				continue;
			if (!pfd[p++].revents)
				continue;
			got = collect(x, &wk[k], e);
			if (got == 1 && exp_interrupted) {
				rc = EXP_INTERRUPTED;
				break;
			}
			if (got == 1) {
				worker_death(x, &wk[k], e);
				rc = EXP_ERROR;
				break;
			}
			if (got < 0) {
				rc = EXP_ERROR;
				break;
			}
			active--;
			progress(x, start, false);
			if (next < tasks(x) && !give(&wk[k], task_at(x, next)))
				next++, active++;
			else
				worker_close_task(&wk[k]);
		}
		if (rc != EXP_OK)
			break;
	}
	progress(x, start, true);
	free(pfd);
	if (rc == EXP_OK && x->ndone < tasks(x))
		rc = err_set(e, "the worker processes ended after %d of %d runs", x->ndone,
			     tasks(x));
	return rc;
}

int experiment_run(struct experiment *x, struct err *e)
{
	struct sigaction sa, old_int, old_pipe;
	struct worker *wk;
	int n, rc = EXP_OK;

	if (x->nscheds < 1 || x->iterations < 1)
		return err_set(e, "experiment: need at least one scheduler and one iteration");
	x->nruns = x->nscheds * axis_len(x->nworkloads) * axis_len(x->ndom0) * x->iterations;
	x->runs = xcalloc(x->nruns, sizeof(*x->runs));
	x->ndone = 0;
	if (check_axes(x, e))
		return EXP_ERROR;
	n = x->jobs > 0 ? x->jobs : default_jobs();
	if (n > tasks(x))
		n = tasks(x);

	exp_interrupted = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;     /* no SA_RESTART: poll() must return */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sa.sa_handler = SIG_IGN;       /* a dead worker's pipe must not kill us */
	sigaction(SIGPIPE, &sa, &old_pipe);

	wk = xcalloc(n, sizeof(*wk));
	for (int k = 0; k < n; k++)
		wk[k] = (struct worker){ -1, -1, -1, -1 };
	for (int k = 0; k < n && rc == EXP_OK; k++)
		if (spawn(x, &wk[k], wk, k, e))
			rc = EXP_ERROR;
	if (rc == EXP_OK)
		rc = dispatch(x, wk, n, e);
	if (rc == EXP_OK && exp_interrupted)
		rc = EXP_INTERRUPTED;
	for (int k = 0; k < n; k++)
		worker_reap(&wk[k], rc != EXP_OK);
	free(wk);

	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGINT, &old_int, NULL);
	if (rc == EXP_INTERRUPTED)
		err_set(e, "interrupted after %d of %d runs; nothing written", x->ndone, tasks(x));
	return rc;
}

void experiment_free(struct experiment *x)
{
	for (int i = 0; x->runs && i < x->nruns; i++)
		run_result_free(&x->runs[i]);
	free(x->runs);
	x->runs = NULL;
	x->nruns = 0;
}

void experiment_table(const struct experiment *x, struct report_table *t)
{
	int nw = axis_len(x->nworkloads), nd = axis_len(x->ndom0);

	report_init(t, nw * nd, x->nscheds);
	for (int s = 0; s < x->nscheds; s++)
		t->cols[s] = xstrdup(x->scheds[s].text);
	for (int w = 0; w < nw; w++)
		for (int d = 0; d < nd; d++) {
			struct report_row *row = &t->rows[w * nd + d];

			snprintf(row->workload, sizeof(row->workload), "%s",
				 x->nworkloads ? x->workloads[w] : "");
			snprintf(row->dom0_load, sizeof(row->dom0_load), "%s",
				 x->ndom0 ? x->dom0_loads[d] : "");
			for (int s = 0; s < x->nscheds; s++) {
				struct report_cell *c = report_cell(t, w * nd + d, s);

				snprintf(c->label, sizeof(c->label), "%s", x->scheds[s].text);
				snprintf(c->scheduler, sizeof(c->scheduler), "%s", x->scheds[s].name);
				for (int i = 0; i < x->iterations; i++) {
					const struct run_result *r =
						&x->runs[experiment_index(x, s, w, d, i)];

					if (!r->metric.valid)
						continue;
					if (!row->metric[0]) {
						snprintf(row->metric, sizeof(row->metric), "%s",
							 r->metric.name);
						snprintf(row->unit, sizeof(row->unit), "%s",
							 r->metric.unit);
						row->higher_better = r->metric.higher_better;
					}
					report_add_value(c, r->metric.value);
				}
			}
		}
	report_compute(t);
}
