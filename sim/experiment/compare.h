/*
 * `schedsim compare OLD.json NEW.json [...]`: results saved by different
 * binaries, patches or days, compared cell by cell.  Each file is one
 * column (the first is the baseline); a row is a configuration label,
 * workload and dom0 load found in any file.
 */
#ifndef SCHEDSIM_COMPARE_H
#define SCHEDSIM_COMPARE_H

#include "sim/err.h"
#include "sim/experiment/report.h"

/*
 * Reads each file's "summary" values or, for single-run output without a
 * summary, the "metric" of each of its "runs"; fills t (t->compare set).
 */
int compare_load(const char *const *files, int nfiles, struct report_table *t,
		 struct err *e);

#endif
