/*
 * Writing the part of a slice of the experiment matrix (--shard=I/N,
 * --run=K; sim/experiment/shard.h chooses the runs), for `schedsim merge`.
 */
#ifndef SCHEDSIM_SHARD_PART_H
#define SCHEDSIM_SHARD_PART_H

#include "sim/err.h"
#include "sim/experiment/experiment.h"
#include "sim/experiment/shard.h"

/* After experiment_run(): writes the part to path (atomically) or stdout. */
int shard_output(const struct shard_cli *c, const char *path, const struct experiment *x,
		 double alpha, struct err *e);

#endif
