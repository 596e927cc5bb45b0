#include "sim/output/run_report.h"

#include <string.h>

#include "config.h"

static void metric_json(struct json *j, const struct metric *m)
{
	if (!m->valid) {
		json_null(j, "metric");
		return;
	}
	json_object_begin(j, "metric");
	json_string(j, "name", m->name);
	json_string(j, "unit", m->unit);
	json_double(j, "value", m->value, 9);
	json_string(j, "better", m->higher_better ? "higher" : "lower");
	json_object_end(j);
}

static void lost_json(struct json *j, const stime_t *lost)
{
	json_object_begin(j, "lost_ns");
	for (int k = 0; k < HW_NR_LOST; k++)
		json_int(j, hw_loss_names[k], lost[k]);
	json_object_end(j);
}

/* A domain's work and lost time: the sums over its vCPUs. */
static void domain_totals(const struct domain_result *dr, stime_t *work, stime_t *lost)
{
	*work = 0;
	memset(lost, 0, HW_NR_LOST * sizeof(*lost));
	for (int i = 0; i < dr->nvcpus; i++) {
		*work += dr->vcpus[i].work_ns;
		for (int k = 0; k < HW_NR_LOST; k++)
			lost[k] += dr->vcpus[i].lost_ns[k];
	}
}

/* The run time Xen gave a domain's vCPUs. */
static stime_t domain_run_ns(const struct domain_result *dr)
{
	stime_t run = 0;

	for (int i = 0; i < dr->nvcpus; i++)
		run += dr->vcpus[i].run_ns;
	return run;
}

static void breakdown_json(struct json *j, const struct breakdown *b)
{
	if (!b->valid) {
		json_null(j, "breakdown");
		return;
	}
	json_object_begin(j, "breakdown");
	json_int(j, "from_ns", b->from_ns);
	json_int(j, "to_ns", b->to_ns);
	json_array_begin(j, "stages");
	for (int i = 0; i < b->nstages; i++) {
		const struct breakdown_stage *st = &b->stages[i];

		json_object_begin(j, NULL);
		json_string(j, "name", st->name);
		json_string(j, "domain", st->domain);
		json_int(j, "tasks", st->tasks);
		json_object_begin(j, "parts_ns");
		for (int k = 0; k < st->nparts; k++)
			json_int(j, st->parts[k].name, st->parts[k].ns);
		json_object_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

void run_result_json(struct json *j, const struct run_result *r)
{
	stime_t work, lost[HW_NR_LOST];
	int d, i, k;

	json_object_begin(j, NULL);
	json_string(j, "scheduler", r->scheduler);
	json_string(j, "label", r->label);
	json_uint(j, "seed", r->seed);
	if (r->host[0])
		json_string(j, "host", r->host);
	if (r->workload[0])
		json_string(j, "workload", r->workload);
	if (r->dom0_load[0])
		json_string(j, "dom0_load", r->dom0_load);
	json_int(j, "iteration", r->iteration);
	json_int(j, "sim_ns", r->sim_ns);
	json_uint(j, "events", r->events);
	metric_json(j, &r->metric);
	breakdown_json(j, &r->breakdown);
	if (r->check_error[0])
		json_string(j, "check_error", r->check_error);
	json_array_begin(j, "domains");
	for (d = 0; d < r->ndoms; d++) {
		const struct domain_result *dr = &r->doms[d];

		json_object_begin(j, NULL);
		json_string(j, "name", dr->name);
		json_int(j, "domid", dr->domid);
		json_int(j, "weight", dr->weight);
		json_int(j, "cap", dr->cap);
		metric_json(j, &dr->metric);
		if (dr->has_demand) {
			json_object_begin(j, "demand");
			json_int(j, "demand_ns", dr->demand_ns);
			json_int(j, "delivered_ns", domain_run_ns(dr));
			json_object_end(j);
		}
		json_int(j, "memory_mb", dr->memory_mb);
		json_array_begin(j, "numa_nodes");
		for (k = 0; k < dr->nnuma_nodes; k++)
			json_int(j, NULL, dr->numa_nodes[k]);
		json_array_end(j);
		domain_totals(dr, &work, lost);
		json_int(j, "work_ns", work);
		lost_json(j, lost);
		json_array_begin(j, "vcpus");
		for (i = 0; i < dr->nvcpus; i++) {
			const struct vcpu_result *v = &dr->vcpus[i];

			json_object_begin(j, NULL);
			json_int(j, "id", v->id);
			json_int(j, "run_ns", v->run_ns);
			json_int(j, "runnable_ns", v->runnable_ns);
			json_int(j, "blocked_ns", v->blocked_ns);
			json_int(j, "offline_ns", v->offline_ns);
			json_uint(j, "wakeups", v->wakeups);
			json_object_begin(j, "wake_latency_ns");
			json_int(j, "p50", v->wake_p50);
			json_int(j, "p95", v->wake_p95);
			json_int(j, "p99", v->wake_p99);
			json_int(j, "max", v->wake_max);
			json_object_end(j);
			json_uint(j, "migrations", v->migrations);
			json_uint(j, "context_switches", v->context_switches);
			json_int(j, "soft_affinity_run_ns", v->soft_affinity_run_ns);
			json_uint(j, "deadlines", v->deadlines);
			json_uint(j, "deadline_misses", v->deadline_misses);
			json_int(j, "deadline_worst_miss_ns", v->deadline_worst_miss_ns);
			json_int(j, "work_ns", v->work_ns);
			lost_json(j, v->lost_ns);
			json_array_begin(j, "pcpus");
			for (k = 0; k < v->npcpus; k++)
				json_int(j, NULL, v->pcpus[k]);
			json_array_end(j);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

void runs_json(FILE *f, uint64_t seed, const struct run_result *runs, int n)
{
	struct json j;
	int i;

	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_string(&j, "version", PACKAGE_VERSION);
	json_uint(&j, "seed", seed);
	json_array_begin(&j, "runs");
	for (i = 0; i < n; i++)
		run_result_json(&j, &runs[i]);
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

static void pcpu_list(const struct vcpu_result *v, char *buf, size_t len)
{
	size_t used = 0;
	int k = 0;

	buf[0] = '\0';
	while (k < v->npcpus && used < len) {
		int start = v->pcpus[k], end = start;

		while (k + 1 < v->npcpus && v->pcpus[k + 1] == end + 1)
			end = v->pcpus[++k];
		k++;
		used += (size_t)snprintf(buf + used, len - used, start == end ? "%s%d" : "%s%d-%d",
					 used ? "," : "", start, end);
	}
	if (!v->npcpus)
		snprintf(buf, len, "-");
}

/* Whether the scheduler judged any period of any vCPU (RTDS): then misses get a column. */
static bool has_deadlines(const struct run_result *r)
{
	for (int d = 0; d < r->ndoms; d++)
		for (int i = 0; i < r->doms[d].nvcpus; i++)
			if (r->doms[d].vcpus[i].deadlines)
				return true;
	return false;
}

static void hardware_line(FILE *f, const char *name, const char *vcpu, stime_t run,
			  stime_t work, const stime_t *lost)
{
	fprintf(f, "%-10s %4s %8.3f %6.1f %9.3f %9.3f %9.3f %9.3f %9.3f\n", name, vcpu, work / 1e9,
		run > 0 ? 100.0 * (double)work / (double)run : 0.0, lost[HW_LOST_SMT] / 1e6,
		lost[HW_LOST_CACHE] / 1e6, lost[HW_LOST_NUMA] / 1e6, lost[HW_LOST_MEMBW] / 1e6,
		lost[HW_LOST_CSTATE] / 1e6);
}

/*
 * Work done against run time, and where the rest went (sim/engine/hw.h): run
 * time lost to busy SMT siblings, cache fills, remote memory and the
 * socket's memory traffic, and the
 * wake-to-run time added by C-state exits.
 */
static void hardware_text(FILE *f, const struct run_result *r)
{
	fprintf(f, "\n%-10s %4s %8s %6s %9s %9s %9s %9s %9s  (%s)\n", "hardware", "vcpu",
		"work(s)", "work%", "smt(ms)", "cache(ms)", "numa(ms)", "membw(ms)", "cstate(ms)",
		"work% of run time; lost run time; C-state exits in wake-ups");
	for (int d = 0; d < r->ndoms; d++) {
		const struct domain_result *dr = &r->doms[d];
		stime_t work, lost[HW_NR_LOST], run = 0;
		char nodes[64] = "";
		size_t used = 0;

		for (int i = 0; i < dr->nvcpus; i++) {
			const struct vcpu_result *v = &dr->vcpus[i];
			char id[16];

			snprintf(id, sizeof(id), "%d", v->id);
			hardware_line(f, i == 0 ? dr->name : "", id, v->run_ns, v->work_ns, v->lost_ns);
			run += v->run_ns;
		}
		domain_totals(dr, &work, lost);
		for (int k = 0; k < dr->nnuma_nodes && used < sizeof(nodes); k++)
			used += (size_t)snprintf(nodes + used, sizeof(nodes) - used, "%s%d",
						 k ? "," : "", dr->numa_nodes[k]);
		hardware_line(f, "", "all", run, work, lost);
		if (dr->nnuma_nodes)
			fprintf(f, "%-10s %4s memory %lld MiB on node%s %s\n", "", "",
				dr->memory_mb, dr->nnuma_nodes > 1 ? "s" : "", nodes);
	}
}

/*
 * Recorded demand against delivered run time, for the domains whose
 * workload replays a record (a utilisation trace), as per cent of one CPU
 * over the run, and their sum.
 */
static void demand_text(FILE *f, const struct run_result *r)
{
	double span = (double)r->sim_ns / 100.0, dem = 0, got = 0;
	int n = 0;

	for (int d = 0; d < r->ndoms; d++) {
		const struct domain_result *dr = &r->doms[d];
		double run = (double)domain_run_ns(dr);

		if (!dr->has_demand || span <= 0)
			continue;
		if (!n++)
			fprintf(f, "\n%-10s %9s %10s %9s  (%s)\n", "demand", "demand%", "delivered%",
				"of-demand", "per cent of one CPU over the run; delivered: run time");
		fprintf(f, "%-10s %9.2f %10.2f %8.1f%%\n", dr->name, dr->demand_ns / span,
			run / span, dr->demand_ns ? 100.0 * run / (double)dr->demand_ns : 100.0);
		dem += (double)dr->demand_ns;
		got += run;
	}
	if (n > 1)
		fprintf(f, "%-10s %9.2f %10.2f %8.1f%%\n", "all", dem / span, got / span,
			dem > 0 ? 100.0 * got / dem : 100.0);
}

/*
 * One line per stage: its parts as shares of the interval (of tasks x the
 * interval for a stage of several tasks), the parts that are not zero.
 */
static void breakdown_text(FILE *f, const struct breakdown *b)
{
	double span = (double)(b->to_ns - b->from_ns);

	if (!b->valid || span <= 0)
		return;
	fprintf(f, "where the time went, %.3f s to %.3f s (%% of it per stage):\n",
		b->from_ns / 1e9, b->to_ns / 1e9);
	for (int i = 0; i < b->nstages; i++) {
		const struct breakdown_stage *st = &b->stages[i];
		char who[112];

		snprintf(who, sizeof(who), st->tasks > 1 ? "%s (%s, %d tasks)" : "%s (%s)",
			 st->name, st->domain, st->tasks);
		fprintf(f, "  %-22s", who);
		for (int k = 0; k < st->nparts; k++)
			if (st->parts[k].ns)
				fprintf(f, " %s %.1f", st->parts[k].name,
					100.0 * (double)st->parts[k].ns / (span * st->tasks));
		fprintf(f, "\n");
	}
}

void run_result_text(FILE *f, const struct run_result *r)
{
	double sim_s = (double)r->sim_ns / 1e9;
	bool deadlines = has_deadlines(r);
	int d, i;

	fprintf(f, "scheduler %s  seed %llu  simulated %.3f s  events %llu\n", r->label,
		(unsigned long long)r->seed, sim_s, (unsigned long long)r->events);
	if (r->metric.valid)
		fprintf(f, "%s: %.3f %s (%s is better)\n", r->metric.name, r->metric.value,
			r->metric.unit, r->metric.higher_better ? "higher" : "lower");
	if (r->check_error[0])
		fprintf(f, "CHECK FAILED: %s\n", r->check_error);
	fprintf(f, "%-10s %4s %8s %6s %9s %9s %30s %7s %8s %6s", "domain", "vcpu",
		"run(s)", "run%", "wait(s)", "block(s)", "wake-to-run p50/p95/p99/max us",
		"migr", "ctxsw", "soft%");
	if (deadlines)
		fprintf(f, " %15s %10s", "missed/periods", "worst(us)");
	fprintf(f, "  %s\n", "pcpus");
	for (d = 0; d < r->ndoms; d++) {
		const struct domain_result *dr = &r->doms[d];

		for (i = 0; i < dr->nvcpus; i++) {
			const struct vcpu_result *v = &dr->vcpus[i];
			char lat[64], pcpus[128];

			snprintf(lat, sizeof(lat), "%.0f/%.0f/%.0f/%.0f", v->wake_p50 / 1e3,
				 v->wake_p95 / 1e3, v->wake_p99 / 1e3, v->wake_max / 1e3);
			pcpu_list(v, pcpus, sizeof(pcpus));
			fprintf(f, "%-10s %4d %8.3f %6.1f %9.3f %9.3f %30s %7llu %8llu %6.1f",
				i == 0 ? dr->name : "", v->id, v->run_ns / 1e9,
				sim_s > 0 ? 100.0 * (double)v->run_ns / (double)r->sim_ns : 0.0,
				v->runnable_ns / 1e9, v->blocked_ns / 1e9, lat,
				(unsigned long long)v->migrations,
				(unsigned long long)v->context_switches,
				v->run_ns ? 100.0 * (double)v->soft_affinity_run_ns / (double)v->run_ns : 0.0);
			if (deadlines) {
				char dl[48];

				snprintf(dl, sizeof(dl), "%llu/%llu",
					 (unsigned long long)v->deadline_misses,
					 (unsigned long long)v->deadlines);
				fprintf(f, " %15s %10.1f", dl, v->deadline_worst_miss_ns / 1e3);
			}
			fprintf(f, "  %s\n", pcpus);
		}
	}
	demand_text(f, r);
	breakdown_text(f, &r->breakdown);
	hardware_text(f, r);
}
