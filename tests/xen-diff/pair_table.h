/*
 * The table of model-versus-Xen pairs of the random differential runs
 * (tests/xen-diff/pairs, whose header gives the format), shared by
 * xen-diff-random and the fuzzer fuzz/fuzz_xen_diff.c.
 */
#ifndef SCHEDSIM_XEN_DIFF_PAIR_TABLE_H
#define SCHEDSIM_XEN_DIFF_PAIR_TABLE_H

#include <stddef.h>

#include "sim/err.h"

struct sched_modules;

#define PAIR_SPEC_MAX 256

struct pair {
	char model[PAIR_SPEC_MAX];
	char xen[PAIR_SPEC_MAX];      /* the full spec: XEN@TREE[:key=value...] */
	double need;                  /* percent of scenarios that must be identical */
	unsigned flags;               /* SCENGEN_NO_* */
	int line;                     /* in the table, 0 for one from the command line */
	const char *skip;             /* why it cannot run in this build, or NULL */
};

/* Loads the table; errors name file:line.  *out is malloc'ed. */
int pairs_load(const char *path, struct pair **out, int *n, struct err *e);
/*
 * One pair "MODEL,XEN[,FLAGS]" (XEN with its tree), needing 100%.  With
 * mods, either may be a scheduler module's file (./credit2-mine.so),
 * loaded into mods (schedulers/loader.h).
 */
int pair_parse(const char *text, struct pair *p, struct sched_modules *mods, struct err *e);
/* "nocaps,nosoft,nohard" or "-" to SCENGEN_NO_*; -1 with why on a bad one. */
int pair_flags_parse(const char *s, unsigned *flags, char *why, size_t len);
/* The flags as text ("" for none), into buf. */
const char *pair_flags_format(unsigned flags, char *buf, size_t len);

#endif
