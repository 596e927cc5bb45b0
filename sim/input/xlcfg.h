/*
 * xl domain configuration files (xl.cfg(5), docs/man/xl.cfg.5.pod.in in
 * Xen): the file a Xen user already has for each guest, read as xl reads
 * it, and the keys that matter to scheduling turned into a domain of the
 * scenario.
 *
 * The syntax is xl's own (tools/libs/util/libxlu_cfg_l.l and
 * libxlu_cfg_y.y): KEY=VALUE or KEY+=VALUE settings separated by newlines
 * or ';'; keys are lowercase ([a-z][._0-9a-z]*); a value is a number
 * ([0-9][0-9a-fx]*, read as C's strtol with base 0 reads it: 0x1f, 010 is
 * octal), a string in single or double quotes with backslash escapes, or a
 * [list, of, values] that may be nested and may span lines; '#' starts a
 * comment to the end of the line.  A later setting of a key replaces an
 * earlier one; += appends to it (string to string, list to list).
 *
 * The keys read, as xl_parse.c reads them:
 *   name        the domain's name (required, as xl requires it)
 *   type        pv, pvh or hvm (builder="generic"|"hvm", deprecated, too);
 *               checked, no effect: Xen's schedulers treat all types alike
 *   vcpus       vCPUs online at start (xl's default 1; 0 counts as 1)
 *   maxvcpus    vCPUs the guest may bring up (>= vcpus); the ones beyond
 *               vcpus are offline, never run, and are not simulated
 *   cpus        hard affinity: a cpu list for all vCPUs ("0-3,^1",
 *               "nodes:0", "all") or one list per vCPU (["2", "3-5"]);
 *               entries past maxvcpus are ignored, as xl ignores them
 *   cpus_soft   soft affinity, the same forms
 *   cpu_weight  1..65535 (default 256), cap 0..100 x vcpus (0: none)
 *   memory      MiB, the domain's memory (NUMA placement, sim/hw)
 *   period      RTDS period in microseconds, extratime 0/1 (libxl's
 *               sched_params; xl.cfg has no budget key)
 *   pool        only Pool-0, the default pool: cpupools are not modelled yet
 * Every other key is read and ignored, as xl ignores the keys it does not
 * know (so weight=, which is not an xl key, is ignored: xl.cfg's key is
 * cpu_weight).  Syntax errors and bad values of the keys above give one
 * line "FILE:LINE: problem".
 */
#ifndef SCHEDSIM_XLCFG_H
#define SCHEDSIM_XLCFG_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/engine/scenario.h"
#include "sim/err.h"

enum xlcfg_type { XLCFG_STRING, XLCFG_LIST };

struct xlcfg_value {
	enum xlcfg_type type;
	char *s;                       /* XLCFG_STRING: numbers are strings too, as in xl */
	struct xlcfg_value *items;     /* XLCFG_LIST */
	int n;
	int line;
};

struct xlcfg_setting {
	char *key;
	struct xlcfg_value value;
	int line;
	bool append;                   /* written with += */
};

struct xlcfg {
	struct xlcfg_setting *set;     /* in file order; a key's last setting wins */
	int n;
};

#define XLCFG_MAX_DEPTH 16         /* nested lists */

/* Parses text (len bytes, NUL-terminated); messages start "name:line: ". */
int xlcfg_parse(const char *text, size_t len, const char *name, struct xlcfg *c,
		struct err *e);
void xlcfg_free(struct xlcfg *c);
/* The last setting of key, or NULL. */
const struct xlcfg_setting *xlcfg_get(const struct xlcfg *c, const char *key);

/*
 * Fills d (already holding the scenario's defaults) from the settings:
 * name (and d->line, its line), vcpus, weight, cap, memory_mb, hard/soft
 * affinity and per-vCPU overrides, whose lines are then the file's
 * (d->affinity_source = name).  Whether a name is required is the
 * caller's business (an element may give it).
 */
int xlcfg_domain(const struct xlcfg *c, const char *name, struct domain_spec *d,
		 struct err *e);

/* Reads and applies a file: xlcfg_parse, then xlcfg_domain. */
int xlcfg_load(const char *path, struct domain_spec *d, struct err *e);

/*
 * The command line's --domain=FILE: appends the domain FILE describes (it
 * must give name=, unique in the scenario) to sc, after its domains.  With
 * replace_guests (the embedded default scenario, whose guest stands in for
 * the user's) every domain but the first (dom0) is removed first, so the
 * first --domain is the benchmark guest of an experiment (workloads/axes.h).
 */
int xlcfg_add_domain(struct scenario *sc, const char *path, bool replace_guests,
		     struct err *e);

#endif
