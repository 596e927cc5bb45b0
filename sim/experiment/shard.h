/*
 * Slicing the experiment matrix for engines that run it on many machines
 * (GNU parallel, Slurm job arrays): schedsim does not distribute work
 * itself, it only says which runs a process does and writes them so that
 * `schedsim merge` (sim/output/merge.h) can put the matrix back together.
 *
 *   --shard=I/N   the I-th (0 <= I < N) of N slices: whole runs, assigned
 *                 by expected cost (longest first, to the lightest slice),
 *                 the same assignment in every process for the same matrix
 *   --run=K       run K of the matrix alone (K as in --list-runs)
 *   --list-runs   one line per run: "K<TAB>label<TAB>workload<TAB>dom0-load
 *                 <TAB>iteration<TAB>seed<TAB>host" (of the slice, with
 *                 --shard; "-" for an axis not given)
 *
 * A run keeps its index, and so its seed, whichever slice it lands in.  The
 * part a slice writes is the usual experiment JSON (its own runs and their
 * summary) plus "matrix" (what defines the whole matrix, compared by merge)
 * and "shard" (the run indices and each result's encoding, base64:
 * run_result_pack(), portable across machines).
 */
#ifndef SCHEDSIM_SHARD_H
#define SCHEDSIM_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/engine/scenario.h"
#include "sim/err.h"
#include "sim/experiment/experiment.h"

/* Command-line options, and what shard_prepare() works out from them. */
struct shard_cli {
	int index, count;       /* --shard=I/N; count 0: not given */
	long run;               /* --run=K */
	bool run_set;
	bool list;              /* --list-runs */
	/* Filled by shard_prepare(). */
	int *only;              /* the runs of this process, ascending */
	int nonly;
	int total;              /* runs in the whole matrix */
	char digest[17];        /* of the scenario file; "" for the embedded one */
	stime_t duration;
	char source[256];
	bool check;
};

/* Option codes for getopt_long: outside the range of any character. */
enum { SHARD_OPT_SHARD = 0x7601, SHARD_OPT_RUN, SHARD_OPT_LIST };

#define SHARD_LONG_OPTIONS \
	{ "shard", required_argument, NULL, SHARD_OPT_SHARD }, \
	{ "run", required_argument, NULL, SHARD_OPT_RUN }, \
	{ "list-runs", no_argument, NULL, SHARD_OPT_LIST }

#define SHARD_USAGE \
	"  --list-runs             one line per run of the matrix (index, configuration)\n" \
	"  --shard=I/N             run only slice I (0..N-1) of N, balanced by cost, and\n" \
	"                          write a part for `schedsim merge` (JSON)\n" \
	"  --run=K                 run only run K (as listed by --list-runs)\n" \
	"  schedsim merge PART.json... [--format=FMT] [--output=FILE] [--alpha=A]\n" \
	"                 [--plot=DIR...]  the tables (and plots) of the whole matrix\n" \
	"                          from its parts\n"

/* Parses one of SHARD_OPT_*; -1 with e set on bad input. */
int shard_cli_option(struct shard_cli *c, int opt, const char *arg, struct err *e);
/* True when any of the options is given (they imply an experiment). */
bool shard_cli_active(const struct shard_cli *c);
/* True when this process writes a part rather than the tables. */
bool shard_cli_partial(const struct shard_cli *c);
/* Checks the options against the other ones (--format, --plot). */
int shard_cli_check(const struct shard_cli *c, const char *format, bool plot, struct err *e);

/*
 * Before experiment_run(): validates the matrix, chooses this process's
 * runs (x->only, x->nonly) and records what identifies the matrix.  With
 * --list-runs, prints the list to f and returns 1 (nothing to run).
 * scenario_path: the --scenario file, NULL for the embedded scenario.
 */
int shard_prepare(struct shard_cli *c, struct experiment *x, const struct scenario *sc,
		  const char *scenario_path, FILE *f, struct err *e);
void shard_cli_free(struct shard_cli *c);

/* --- Pieces, exposed for the unit tests (tests/check_shard.c) --- */

/*
 * Deterministic slicing: owner[k] in [0, n) for each of m runs of the
 * given costs; the costliest runs first (ties: lower index), each to the
 * slice with the least cost so far (ties: lower slice).
 */
void shard_assign(const uint64_t *cost, int m, int n, int *owner);
/* Expected cost of one run of a workload (spec) / dom0-load cell (relative units). */
uint64_t shard_run_cost(const char *workload, const char *dom0_load);
/* Number of runs of the matrix (experiment_total()). */
int shard_total(const struct experiment *x);

/* Base64 (RFC 4648, with padding): out holds 4 * ((len + 2) / 3) + 1 bytes. */
void base64_encode(const void *in, size_t len, char *out);
/* Decodes into a new buffer (*out, *len); -1 on bad input. */
int base64_decode(const char *in, char **out, size_t *len);
/* FNV-1a 64 of a file's bytes, 16 hex digits into out[17]; -1 with e set. */
int shard_file_digest(const char *path, char *out, struct err *e);

#endif
