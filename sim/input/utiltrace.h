/*
 * Utilisation traces: a VM's CPU utilisation, one value per interval, as
 * cloud studies publish them, read into a struct util_series
 * (sim/engine/scenario.h) for the utilisation workload.  Two layouts:
 *
 *   series  one value per line, per cent of one CPU (the PlanetLab/CoMon
 *           files of CloudSim, one file per VM: ../shared/traces/README.md)
 *   csv     vm,timestamp,value lines, many VMs in one file (a header line
 *           may start it; timestamps in seconds, evenly spaced per VM)
 *
 * Blank lines and lines starting with '#' are skipped.  Every error names
 * file:line.
 */
#ifndef SCHEDSIM_UTILTRACE_H
#define SCHEDSIM_UTILTRACE_H

#include "sim/engine/scenario.h"
#include "sim/err.h"

enum utiltrace_format { UTILTRACE_AUTO, UTILTRACE_SERIES, UTILTRACE_CSV };

/* Largest trace file read (a CSV of a thousand VMs over a day is ~12 MiB). */
#define UTILTRACE_MAX_FILE (256u << 20)
/* Largest value: per cent of one CPU for a domain of the most vCPUs. */
#define UTILTRACE_MAX_PCT (100.0 * SCENARIO_MAX_VCPUS)

/* "auto", "series", "csv" -> the format; -1 when none. */
int utiltrace_format_parse(const char *s);
/*
 * Reads text (len bytes, NUL-terminated, 'name' for messages) into out;
 * vm selects a VM of a CSV (NULL or "": the file must hold one).
 */
int utiltrace_parse(const char *text, size_t len, const char *name,
		    enum utiltrace_format fmt, const char *vm, struct util_series *out,
		    struct err *e);
/* The same from a file. */
int utiltrace_load(const char *path, enum utiltrace_format fmt, const char *vm,
		   struct util_series *out, struct err *e);

#endif
