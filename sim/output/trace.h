/*
 * Trace writers and their options.
 *
 * The core and the scheduler modules emit records through the trace
 * points of sim/engine/trace_events.h.  Writers (sim/output/trace_xentrace.c,
 * sim/output/trace_perfetto.c) turn the record stream into a file;
 * sim/output/trace.c holds the CLI options and the buffered file output
 * they share.  doc/traces.md tells how to read the files.
 */
#ifndef SCHEDSIM_TRACE_H
#define SCHEDSIM_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/engine/trace_events.h"
#include "sim/err.h"

/* --- Writers and their options --- */

enum trace_format { TRACE_XENTRACE, TRACE_PERFETTO };

/* Command-line options (trace_cli_option fills them). */
struct trace_cli {
	const char *path;         /* NULL: no trace */
	enum trace_format format;
	bool format_set;
	bool window;              /* --trace-window given */
	stime_t from, to;         /* the window; to < 0: until the end */
};

/* Option codes for getopt_long: outside the range of any character. */
enum { TRACE_OPT_FILE = 0x7401, TRACE_OPT_FORMAT, TRACE_OPT_WINDOW };

#define TRACE_LONG_OPTIONS \
	{ "trace", required_argument, NULL, TRACE_OPT_FILE }, \
	{ "trace-format", required_argument, NULL, TRACE_OPT_FORMAT }, \
	{ "trace-window", required_argument, NULL, TRACE_OPT_WINDOW }

#define TRACE_USAGE \
	"  --trace=FILE            write a trace of the run (one file per run with several:\n" \
	"                          FILE-N.EXT, N the run's number from 0)\n" \
	"  --trace-format=xentrace|perfetto\n" \
	"                          xentrace binary for xenalyze (default), or Chrome\n" \
	"                          trace-event JSON for ui.perfetto.dev (default for *.json)\n" \
	"  --trace-window=FROM:TO  trace only simulated time FROM to TO (e.g. 2s:2.5s)\n"

/* Parses one of TRACE_OPT_*; -1 with e set on bad input. */
int trace_cli_option(struct trace_cli *c, int opt, const char *arg, struct err *e);
/* Checks the options together (after parsing all); -1 with e set. */
int trace_cli_check(const struct trace_cli *c, bool experiment, struct err *e);
/* The tracer for run 'run' of 'nruns', NULL when tracing is off or on error (e set). */
struct tracer *trace_cli_open(const struct trace_cli *c, int run, int nruns, struct err *e);
/* Flushes and frees; -1 with e set when the file could not be written. */
int trace_close(struct tracer *t, struct err *e);

/* Opening a writer directly (tests): path, window [from, to], to < 0 = no end. */
struct tracer *trace_xentrace_open(const char *path, stime_t from, stime_t to, struct err *e);
struct tracer *trace_perfetto_open(const char *path, stime_t from, stime_t to, struct err *e);

#endif
