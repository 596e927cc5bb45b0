/*
 * make-xen: a guest builds Xen with make -jN.  The build is a sequence of
 * stages; each stage is a set of independent compile jobs that make runs
 * N at a time, followed by one serial step (archive, ld -r, and after the
 * last stage the final link) that needs every job of the stage.  struct
 * build is that bookkeeping alone, so it can be tested without a machine.
 */
#ifndef SCHEDSIM_MAKEXEN_H
#define SCHEDSIM_MAKEXEN_H

#include <stdbool.h>

#include "sim/err.h"
#include "workloads/workload.h"

enum build_action {
	BUILD_JOB,      /* compile one file */
	BUILD_SERIAL,   /* run the stage's serial step */
	BUILD_WAIT,     /* nothing to start: wait for the barrier */
	BUILD_DONE,     /* the build is finished */
};

struct build {
	int nstages;
	int *jobs;             /* compile jobs per stage */
	int stage;
	int started, finished; /* jobs of the current stage */
	bool serial_taken;
	bool done;
};

/* Parses "a,b,c" (jobs per stage, each >= 0); -1 with a message if bad. */
int build_init(struct build *b, const char *stages, struct err *e);
void build_free(struct build *b);
/* What a free make slot does next. */
enum build_action build_next(struct build *b);
/* A compile job of the current stage has finished. */
void build_job_done(struct build *b);
/* The serial step has finished: the next stage opens (true: it was the last). */
bool build_serial_done(struct build *b);
int build_total_jobs(const struct build *b);

extern const struct workload_ops makexen_ops;

#endif
