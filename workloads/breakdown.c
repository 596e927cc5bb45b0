/* Building a workload's time breakdown (breakdown.h) from its tasks' accounts. */
#include <stdio.h>
#include <string.h>

#include "workloads/breakdown.h"

void breakdown_init(struct breakdown *b, stime_t from, stime_t to)
{
	memset(b, 0, sizeof(*b));
	b->valid = true;
	b->from_ns = from;
	b->to_ns = to;
}

struct breakdown_stage *breakdown_stage(struct breakdown *b, const char *name,
					const char *domain, int tasks)
{
	struct breakdown_stage *st;

	if (b->nstages == BREAKDOWN_STAGES)
		return NULL;
	st = &b->stages[b->nstages++];
	memset(st, 0, sizeof(*st));
	snprintf(st->name, sizeof(st->name), "%s", name);
	snprintf(st->domain, sizeof(st->domain), "%s", domain);
	st->tasks = tasks;
	return st;
}

void breakdown_part(struct breakdown_stage *st, const char *name, stime_t ns)
{
	int i;

	if (!st)
		return;
	for (i = 0; i < st->nparts; i++)
		if (!strcmp(st->parts[i].name, name)) {
			st->parts[i].ns += ns;
			return;
		}
	if (st->nparts == BREAKDOWN_PARTS)
		return;
	snprintf(st->parts[st->nparts].name, sizeof(st->parts[0].name), "%s", name);
	st->parts[st->nparts++].ns = ns;
}

struct breakdown_stage *breakdown_tasks(struct breakdown *b, struct sim *s, const char *name,
					struct task *const *t, int n,
					const char *const reasons[TASK_BLOCK_REASONS])
{
	struct breakdown_stage *st;
	stime_t sum[TT_N] = { 0 }, one[TT_N];
	int first = -1, r, i, k;

	if (!n)
		return NULL;
	st = breakdown_stage(b, name, t[0]->g->dom->name, n);
	for (i = 0; i < n; i++) {
		task_time_read(s, t[i], one);
		for (k = 0; k < TT_N; k++)
			sum[k] += one[k];
	}
	breakdown_part(st, "run", sum[TT_RUN]);
	breakdown_part(st, "guest_wait", sum[TT_GUEST_WAIT]);
	breakdown_part(st, "xen_wait", sum[TT_XEN_WAIT]);
	breakdown_part(st, "xen_wake", sum[TT_XEN_WAKE]);
	for (r = 0; reasons && r < TASK_BLOCK_REASONS; r++)
		if (reasons[r] && first < 0)
			first = r;
	if (first < 0) {
		stime_t blocked = 0;

		for (r = 0; r < TASK_BLOCK_REASONS; r++)
			blocked += sum[TT_BLOCKED + r];
		breakdown_part(st, "blocked", blocked);
	} else {
		for (r = 0; r < TASK_BLOCK_REASONS; r++) {
			char part[24];
			int to = reasons[r] ? r : first;

			snprintf(part, sizeof(part), "blocked:%s", reasons[to]);
			breakdown_part(st, part, sum[TT_BLOCKED + r]);
		}
	}
	breakdown_part(st, "sleep", sum[TT_SLEEP]);
	breakdown_part(st, "exited", sum[TT_DONE]);
	return st;
}

stime_t breakdown_stage_total(const struct breakdown_stage *st)
{
	stime_t t = 0;

	for (int i = 0; i < st->nparts; i++)
		t += st->parts[i].ns;
	return t;
}
