/*
 * Output of single runs: the JSON contract scripts build on (documented in
 * doc/json.md) and a per-vCPU text table for people.
 */
#ifndef SCHEDSIM_RUN_REPORT_H
#define SCHEDSIM_RUN_REPORT_H

#include <stdio.h>

#include "sim/experiment/run.h"
#include "sim/output/json.h"

/* One element of "runs": {"scheduler", "label", "seed", ... "domains": [...]}. */
void run_result_json(struct json *j, const struct run_result *r);
/* A whole document: {"version", "seed", "runs": [...]}. */
void runs_json(FILE *f, uint64_t seed, const struct run_result *runs, int n);
void run_result_text(FILE *f, const struct run_result *r);

#endif
