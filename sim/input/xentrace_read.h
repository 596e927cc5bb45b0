/*
 * Reading a xentrace file: the binary format xentrace(8) writes from Xen
 * 4.x's per-pCPU trace buffers (and sim/output/trace_xentrace.c writes),
 * turned into the CPU demand of the recorded host's domains, one struct
 * replay_demand (sim/engine/scenario.h) per domain, for the xentrace
 * workload and `schedsim replay`.
 *
 * What is read: the windows (a CPU-change record, then that pCPU's records),
 * merged over the pCPUs by TSC; the scheduler's runstate changes (each
 * vCPU's running, runnable, blocked and offline intervals), wake records
 * (a vCPU first seen woken was blocked before), domain creation and
 * destruction, switch_infprev (its run time in ns against the TSC gives the
 * TSC's frequency), lost-records records and buffer-wrap padding.
 * Everything else is skipped.
 *
 * Errors name FILE:OFFSET (a byte offset from the file's start).  What a
 * damaged but readable trace lost (records a full buffer dropped, a cut end,
 * TSCs that went back, runstate changes that do not follow from their
 * vCPU's state) is counted and said in the warnings, never passed over.
 */
#ifndef SCHEDSIM_XENTRACE_READ_H
#define SCHEDSIM_XENTRACE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/engine/scenario.h"
#include "sim/err.h"

/* Domain ids from here on are Xen's own (DOMID_FIRST_RESERVED), not domains. */
#define XENTRACE_DOMID_LIMIT 0x7ff0
/* pCPUs a trace may have windows of. */
#define XENTRACE_MAX_CPUS 4096
/* The TSC frequencies taken, given or measured (kHz): 1 MHz to 100 GHz. */
#define XENTRACE_MIN_KHZ 1e3
#define XENTRACE_MAX_KHZ 1e8
#define XENTRACE_MAX_WARN 6
/* The longest span of records taken (a TSC further on is a corrupt one): 30 days. */
#define XENTRACE_MAX_SPAN_NS (30LL * 86400 * 1000000000)

/* What was read, and what was skipped or could not be used. */
struct xentrace_stats {
	uint64_t records;          /* inside windows */
	uint64_t windows;
	uint64_t runstate_changes; /* of the domains' vCPUs (not the idle ones) */
	uint64_t bursts;
	uint64_t wraps;            /* buffer-wrap padding records (normal) */
	uint64_t lost_reports;     /* lost-records records */
	uint64_t lost;             /* the records they say a full buffer dropped */
	uint64_t inconsistent;     /* runstate changes whose old state was not the vCPU's */
	uint64_t tsc_back;         /* records whose TSC was below their pCPU's previous one */
	uint64_t no_tsc;           /* scheduler records without a TSC (skipped) */
	uint64_t khz_samples;      /* switch_infprev records the frequency was measured on */
	int domains_added, domains_removed;
};

struct xentrace_host {
	int npcpus;                 /* the highest pCPU with a window, plus one */
	double cpu_khz;             /* the TSC's frequency, given or measured */
	bool khz_measured;          /* from the trace */
	stime_t length;             /* from the first record to the last, ns */
	struct replay_demand *doms; /* dom0 and the guests, by id (the idle domain is not one) */
	int ndoms;
	struct xentrace_stats st;
	char warn[XENTRACE_MAX_WARN][400];   /* one line each, "NAME: ..." */
	int nwarn;
};

/*
 * Reads a trace of len bytes ('name' for messages).  cpu_khz > 0 is the
 * TSC's frequency; 0 measures it from the trace (an error when the trace
 * has too few switch records to tell).  -1 with e set on a trace that
 * cannot be read; warnings in out->warn.
 */
int xentrace_parse(const unsigned char *data, size_t len, const char *name, double cpu_khz,
		   struct xentrace_host *out, struct err *e);
/* The same from a file (mapped, not copied: traces may be large). */
int xentrace_load(const char *path, double cpu_khz, struct xentrace_host *out, struct err *e);
void xentrace_host_free(struct xentrace_host *h);
/* The recorded domain of id domid, or NULL. */
const struct replay_demand *xentrace_domain(const struct xentrace_host *h, int domid);
/*
 * A copy of domain domid's demand into out; -1 with e set when the trace
 * ('name') has no such domain (the message lists those it has).
 */
int xentrace_copy_domain(const struct xentrace_host *h, int domid, const char *name,
			 struct replay_demand *out, struct err *e);

#endif
