/*
 * The part a slice of the matrix writes (--shard, --run; the slicing is
 * sim/experiment/shard.c's): the usual experiment JSON of its own runs,
 * plus "matrix", what defines the whole matrix, and "shard", the run
 * indices and each result's bytes (run_result_pack(), base64), which
 * `schedsim merge` (sim/output/merge.c) reads back.  A matrix with
 * scheduler modules names each with its file's digest.
 */
#include "sim/output/shard_part.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#include "schedulers/loader.h"
#include "sim/output/json.h"
#include "sim/output/report_formats.h"
#include "sim/output/run_report.h"
#include "sim/xalloc.h"

/*
 * The scheduler modules the matrix loaded, each "NAME DIGEST" (of the
 * file's bytes): merge compares "matrix" member by member, so parts of
 * other builds of a module are refused.  No member without modules.
 */
static void modules_json(struct json *j, const struct sched_modules *m)
{
	if (!m || !m->n)
		return;
	json_array_begin(j, "modules");
	for (int k = 0; k < m->n; k++) {
		char text[600];

		snprintf(text, sizeof(text), "%s %s", m->m[k].name, m->m[k].digest);
		json_string(j, NULL, text);
	}
	json_array_end(j);
}

static void matrix_json(struct json *j, const struct shard_cli *c, const struct experiment *x)
{
	char seed[32];

	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)x->seed);
	json_object_begin(j, "matrix");
	json_string(j, "seed", seed);
	json_string(j, "scenario", c->source);
	json_string(j, "scenario_digest", c->digest);
	json_int(j, "duration_ns", c->duration);
	json_bool(j, "check", c->check);
	json_array_begin(j, "schedulers");
	for (int s = 0; s < x->nscheds; s++)
		json_string(j, NULL, x->scheds[s].text);
	json_array_end(j);
	json_array_begin(j, "hosts");
	for (int h = 0; h < x->nhosts; h++)
		json_string(j, NULL, x->hosts[h]);
	json_array_end(j);
	json_array_begin(j, "workloads");
	for (int w = 0; w < x->nworkloads; w++)
		json_string(j, NULL, x->workloads[w]);
	json_array_end(j);
	json_array_begin(j, "dom0_loads");
	for (int d = 0; d < x->ndom0; d++)
		json_string(j, NULL, x->dom0_loads[d]);
	json_array_end(j);
	json_int(j, "iterations", x->iterations);
	json_int(j, "runs", c->total);
	json_int(j, "result_encoding", RUN_RESULT_ENCODING);
	modules_json(j, x->ropt.modules);
	json_object_end(j);
}

static void part_json(struct json *j, const struct shard_cli *c, const struct experiment *x)
{
	char slice[64];

	if (c->run_set)
		snprintf(slice, sizeof(slice), "run %ld", c->run);
	else
		snprintf(slice, sizeof(slice), "%d/%d", c->index, c->count);
	json_object_begin(j, "shard");
	json_string(j, "slice", slice);
	json_array_begin(j, "runs");
	for (int k = 0; k < c->nonly; k++)
		json_int(j, NULL, c->only[k]);
	json_array_end(j);
	json_array_begin(j, "results");
	for (int k = 0; k < c->nonly; k++) {
		char *buf, *text;
		size_t len;

		run_result_pack(&x->runs[c->only[k]], &buf, &len);
		text = xmalloc(4 * ((len + 2) / 3) + 1);
		base64_encode(buf, len, text);
		json_string(j, NULL, text);
		free(text);
		free(buf);
	}
	json_array_end(j);
	json_object_end(j);
}

static void write_part(FILE *f, const struct shard_cli *c, const struct experiment *x,
		       double alpha)
{
	struct report_table t;
	struct json j;

	experiment_table(x, &t);          /* of this part's runs only */
	t.alpha = alpha;
	report_compute(&t);
	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_string(&j, "version", PACKAGE_VERSION);
	json_uint(&j, "seed", x->seed);
	json_int(&j, "iterations", x->iterations);
	json_double(&j, "alpha", alpha, 17);
	json_array_begin(&j, "runs");
	for (int k = 0; k < c->nonly; k++)
		run_result_json(&j, &x->runs[c->only[k]]);
	json_array_end(&j);
	report_json_summary(&j, &t);
	matrix_json(&j, c, x);
	part_json(&j, c, x);
	json_object_end(&j);
	json_finish(&j);
	report_free(&t);
}

int shard_output(const struct shard_cli *c, const char *path, const struct experiment *x,
		 double alpha, struct err *e)
{
	char tmp[4096];
	FILE *f = stdout;

	if (path) {
		snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
		f = fopen(tmp, "w");
		if (!f)
			return err_set(e, "--output: cannot write '%s'", path);
	}
	write_part(f, c, x, alpha);
	if (!path)
		return fflush(stdout) == 0 ? 0 : err_set(e, "cannot write the part");
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		remove(tmp);
		return err_set(e, "--output: cannot write '%s'", path);
	}
	return 0;
}
