/*
 * run_scenario(): build, run, extract, destroy.  The result holds plain
 * numbers only, so the simulation can be freed at once and results can be
 * compared, serialised or sent from a worker process.  run_in_child(): one
 * run in a process of its own, so that a scheduler module that crashes is
 * reported rather than taking schedsim down.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/experiment/run.h"
#include "schedulers/sched.h"
#include "sim/experiment/build.h"
#include "sim/experiment/experiment.h"
#include "sim/xalloc.h"

static void extract_vcpu(struct vcpu *v, struct vcpu_result *r, bool keep_hist)
{
	unsigned c;
	int n = 0;

	r->id = v->vcpu_id;
	r->run_ns = v->st.runstate_ns[RUNSTATE_RUNNING];
	r->runnable_ns = v->st.runstate_ns[RUNSTATE_RUNNABLE];
	r->blocked_ns = v->st.runstate_ns[RUNSTATE_BLOCKED];
	r->offline_ns = v->st.runstate_ns[RUNSTATE_OFFLINE];
	r->wakeups = v->st.wake_latency.count;
	r->wake_p50 = hist_quantile(&v->st.wake_latency, 0.50);
	r->wake_p95 = hist_quantile(&v->st.wake_latency, 0.95);
	r->wake_p99 = hist_quantile(&v->st.wake_latency, 0.99);
	r->wake_max = v->st.wake_latency.max;
	r->migrations = v->st.migrations;
	r->context_switches = v->st.context_switches;
	r->soft_affinity_run_ns = v->st.soft_run_ns;
	r->deadlines = v->st.deadlines;
	r->deadline_misses = v->st.deadline_misses;
	r->deadline_worst_miss_ns = v->st.deadline_worst_miss_ns;
	r->work_ns = v->st.hw.work_ns;
	memcpy(r->lost_ns, v->st.hw.lost_ns, sizeof(r->lost_ns));
	r->npcpus = (int)cpumask_weight(v->st.pcpus);
	r->pcpus = xcalloc((size_t)r->npcpus + 1, sizeof(int));
	for_each_cpu(c, v->st.pcpus)
		r->pcpus[n++] = (int)c;
	if (keep_hist)
		hist_merge(&r->wake_latency, &v->st.wake_latency);
}

int run_scenario(const struct scenario *sc, const struct sched_spec *spec,
		 const struct run_options *o, struct run_result *out, struct err *e)
{
	static const struct run_options defaults;
	struct workload **wl;
	struct sim *s;
	int d, i, nwl;

	if (!o)
		o = &defaults;
	memset(out, 0, sizeof(*out));
	s = sim_build_with(sc, spec, o->modules, e);
	if (!s)
		return -1;
	s->check = o->check;
	s->tracer = o->tracer;
	sim_run_until(s, sc->duration);
	sim_account_all(s);
	if (s->check && !s->check_error[0])
		sim_check_invariants(s);

	snprintf(out->scheduler, sizeof(out->scheduler), "%s", s->sched->ops->name);
	snprintf(out->label, sizeof(out->label), "%s", spec->text[0] ? spec->text : spec->name);
	snprintf(out->check_error, sizeof(out->check_error), "%s", s->check_error);
	out->seed = sc->seed;
	out->sim_ns = sim_now(s);
	out->events = s->q.fired;
	out->ndoms = s->nr_domains;
	out->doms = xcalloc((size_t)s->nr_domains + 1, sizeof(*out->doms));
	nwl = sim_workloads(s, &wl);
	for (d = 0; d < s->nr_domains; d++) {
		struct domain *dom = s->domains[d];
		struct domain_result *dr = &out->doms[d];

		snprintf(dr->name, sizeof(dr->name), "%s", dom->name);
		dr->domid = dom->domid;
		dr->weight = dom->weight;
		dr->cap = dom->cap;
		dr->nvcpus = dom->nr_vcpus;
		dr->memory_mb = dom->hw.memory_mb;
		dr->numa_nodes = xcalloc((size_t)s->topo.nr_nodes + 1, sizeof(int));
		for (i = 0; dom->hw.node_mb && i < s->topo.nr_nodes; i++)
			if (dom->hw.node_mb[i] > 0 || (!dom->hw.memory_mb && dom->hw.remote[i] < 1))
				dr->numa_nodes[dr->nnuma_nodes++] = i;
		dr->vcpus = xcalloc((size_t)dom->nr_vcpus + 1, sizeof(*dr->vcpus));
		for (i = 0; i < dom->nr_vcpus; i++)
			extract_vcpu(dom->vcpus[i], &dr->vcpus[i], o->keep_histograms);
		for (i = 0; i < nwl; i++) {
			struct metric m = { 0 };
			stime_t ns;

			if (wl[i]->dom != dom)
				continue;
			if (wl[i]->ops->demand && wl[i]->ops->demand(wl[i], &ns)) {
				dr->has_demand = true;
				dr->demand_ns += ns;
			}
			if (!wl[i]->ops->metric)
				continue;
			wl[i]->ops->metric(wl[i], &m);
			if (m.valid && !dr->metric.valid)
				dr->metric = m;
			if (m.valid && !out->metric.valid)
				out->metric = m;
			if (wl[i]->ops->breakdown && !out->breakdown.valid)
				wl[i]->ops->breakdown(wl[i], &out->breakdown);
		}
	}
	sim_destroy(s);
	return 0;
}

void run_result_free(struct run_result *r)
{
	int d, i;

	for (d = 0; d < r->ndoms; d++) {
		for (i = 0; i < r->doms[d].nvcpus; i++) {
			free(r->doms[d].vcpus[i].pcpus);
			hist_free(&r->doms[d].vcpus[i].wake_latency);
		}
		free(r->doms[d].vcpus);
		free(r->doms[d].numa_nodes);
	}
	free(r->doms);
	r->doms = NULL;
	r->ndoms = 0;
}

/* The child's side: 'R' and the result's bytes, or 'E' and the error line. */
static void child_run(int fd, run_fn fn, void *arg)
{
	struct run_result r;
	struct err e = { "" };
	char *buf = NULL;
	size_t len, off = 0;
	int rc = fn(arg, &r, &e);

	if (rc == 0) {
		run_result_pack(&r, &buf, &len);
		run_result_free(&r);
	} else {
		len = strlen(e.msg);
		buf = xmalloc(len + 1);
		memcpy(buf, e.msg, len);
	}
	if (write(fd, rc == 0 ? "R" : "E", 1) != 1)
		_exit(1);
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(1);
		off += (size_t)n;
	}
	_exit(0);
}

int run_in_child(run_fn fn, void *arg, struct run_result *out, int *signo, struct err *e)
{
	char *buf = NULL, chunk[65536];
	size_t len = 0;
	int fds[2], status = 0, rc;
	pid_t pid;
	ssize_t n;

	*signo = 0;
	memset(out, 0, sizeof(*out));
	if (pipe(fds))
		return err_set(e, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return err_set(e, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		child_run(fds[1], fn, arg);
	}
	close(fds[1]);
	while ((n = read(fds[0], chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		buf = xreallocarray(buf, len + (size_t)n + 1, 1);
		memcpy(buf + len, chunk, (size_t)n);
		len += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		*signo = WTERMSIG(status);
		rc = err_set(e, "the run was killed by signal %d (%s)", *signo, strsignal(*signo));
	} else if (len && buf[0] == 'E') {
		rc = err_set(e, "%.*s", (int)(len - 1), buf + 1);
	} else if (!len || buf[0] != 'R' || !WIFEXITED(status) || WEXITSTATUS(status)) {
		rc = err_set(e, "the run's process exited with status %d",
			     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	} else {
		rc = run_result_unpack(buf + 1, len - 1, out, e);
	}
	free(buf);
	return rc;
}
