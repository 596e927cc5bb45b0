/*
 * The worker processes of workers_run() (see workers.h).
 *
 * Why processes and not threads: a run owns a struct sim and nothing else,
 * so fork() gives each worker a private copy of the inputs for free, and a
 * run that crashes (a scheduler bug found by a long matrix) takes down one
 * worker, which is reported with the configuration and seed that did it,
 * instead of the whole experiment.
 *
 * The parent hands out run indices one at a time over a pipe per worker
 * and reads back each result in its byte encoding (run_result_pack(),
 * field by field, so doubles and times travel exactly).  Results land at
 * their index in runs[], so the output is the same whatever the order of
 * completion.
 *
 * SIGINT: the one piece of process-wide state in schedsim is the flag the
 * handler sets, since a signal handler can reach nothing else.  The parent
 * notices it (poll() returns EINTR), ends its workers by pid and returns
 * WORKERS_INTERRUPTED; nothing has been written by then.
 */
#include "sim/experiment/workers.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/experiment/experiment.h"
#include "sim/xalloc.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

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

static void worker_main(const struct worker_pool *p, int task_fd, int result_fd,
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

		if (p->run(p->ctx, idx, &r, &e)) {
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

static int spawn(const struct worker_pool *p, struct worker *wk, struct worker *all, int n,
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
		worker_main(p, task[0], result[1], all);
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

static void worker_death(const struct worker_pool *p, struct worker *wk, struct err *e)
{
	char what[700];
	int status = 0;

	p->describe(p->ctx, wk->busy, what, sizeof(what));
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

/* The runs this process does: all, or a slice (only[]). */
static int tasks(const struct worker_pool *p)
{
	return p->only ? p->nonly : p->nruns;
}

static int task_at(const struct worker_pool *p, int k)
{
	return p->only ? p->only[k] : k;
}

static void progress(const struct worker_pool *p, double start, bool last)
{
	double el = now_s() - start;
	double left = p->ndone ? el / p->ndone * (tasks(p) - p->ndone) : 0;

	if (!p->progress)
		return;
	if (last) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r\033[K%d/%d runs, %.1fs elapsed, ~%.0fs left", p->ndone,
		tasks(p), el, left);
	fflush(stderr);
}

/* Reads one message; 0 stored, 1 the worker died, -1 the run failed. */
static int collect(struct worker_pool *p, struct worker *wk, struct err *e)
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

		p->describe(p->ctx, h.index, what, sizeof(what));
		err_set(e, "%s: %s", what, buf);
		free(buf);
		return -1;
	}
	if (run_result_unpack(buf, h.len, &p->runs[h.index], NULL)) {
		free(buf);
		return 1;
	}
	free(buf);
	wk->busy = -1;
	p->ndone++;
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

static int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* The dispatch loop; returns WORKERS_OK, WORKERS_ERROR or WORKERS_INTERRUPTED. */
static int dispatch(struct worker_pool *p, struct worker *wk, int n, struct err *e)
{
	struct pollfd *pfd = xcalloc(n, sizeof(*pfd));
	int next = 0, rc = WORKERS_OK, active = 0;
	double start = now_s();

	for (int k = 0; k < n; k++) {
		if (give(&wk[k], task_at(p, next++)))
			next--;
		else
			active++;
	}
	while (active > 0) {
		int np = 0;

		if (interrupted) {
			rc = WORKERS_INTERRUPTED;
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
		for (int k = 0, q = 0; k < n && rc == WORKERS_OK; k++) {
			int got;

			if (wk[k].busy < 0)
				continue;
			if (!pfd[q++].revents)
				continue;
			got = collect(p, &wk[k], e);
			if (got == 1 && interrupted) {
				rc = WORKERS_INTERRUPTED;
				break;
			}
			if (got == 1) {
				worker_death(p, &wk[k], e);
				rc = WORKERS_ERROR;
				break;
			}
			if (got < 0) {
				rc = WORKERS_ERROR;
				break;
			}
			active--;
			progress(p, start, false);
			if (next < tasks(p) && !give(&wk[k], task_at(p, next)))
				next++, active++;
			else
				worker_close_task(&wk[k]);
		}
		if (rc != WORKERS_OK)
			break;
	}
	progress(p, start, true);
	free(pfd);
	if (rc == WORKERS_OK && p->ndone < tasks(p))
		rc = err_set(e, "the worker processes ended after %d of %d runs", p->ndone,
			     tasks(p));
	return rc;
}

int workers_run(struct worker_pool *p, struct err *e)
{
	struct sigaction sa, old_int, old_pipe;
	struct worker *wk;
	int n, rc = WORKERS_OK;

	p->ndone = 0;
	if (tasks(p) == 0)
		return WORKERS_OK;
	n = p->jobs > 0 ? p->jobs : default_jobs();
	if (n > tasks(p))
		n = tasks(p);

	interrupted = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;     /* no SA_RESTART: poll() must return */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sa.sa_handler = SIG_IGN;       /* a dead worker's pipe must not kill us */
	sigaction(SIGPIPE, &sa, &old_pipe);

	wk = xcalloc(n, sizeof(*wk));
	for (int k = 0; k < n; k++)
		wk[k] = (struct worker){ -1, -1, -1, -1 };
	for (int k = 0; k < n && rc == WORKERS_OK; k++)
		if (spawn(p, &wk[k], wk, k, e))
			rc = WORKERS_ERROR;
	if (rc == WORKERS_OK)
		rc = dispatch(p, wk, n, e);
	if (rc == WORKERS_OK && interrupted)
		rc = WORKERS_INTERRUPTED;
	for (int k = 0; k < n; k++)
		worker_reap(&wk[k], rc != WORKERS_OK);
	free(wk);

	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGINT, &old_int, NULL);
	if (rc == WORKERS_INTERRUPTED)
		err_set(e, "interrupted after %d of %d runs; nothing written", p->ndone, tasks(p));
	return rc;
}
