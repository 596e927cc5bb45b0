/*
 * The comparison table of sim/experiment/report.h printed: text with the
 * mailing-list boxes, markdown, CSV (sim/output/report_text.c,
 * report_data.c), the JSON summary, and the grid of formatted cells that
 * the HTML report renders.
 */
#ifndef SCHEDSIM_REPORT_FORMATS_H
#define SCHEDSIM_REPORT_FORMATS_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/experiment/report.h"

/*
 * Output formats.  The text and markdown forms print the mailing-list
 * boxes (experiments only) then the benchstat-style table; csv one line
 * per cell; json the summary array (the caller wraps it with the runs).
 */
void report_text(FILE *f, const struct report_table *t, bool boxes);
/* Only the mailing-list boxes, as report_text prints them. */
void report_text_boxes(FILE *f, const struct report_table *t);

/*
 * The benchstat-style table as a grid of formatted cells, the same text
 * report_text prints, for renderers of other formats
 * (sim/output/report_html.c).  Row 0 holds each group's title (a configuration
 * or file) in the group's first column, row 1 the column titles, then one row
 * per table row and the geomean row when there is one.  Footnotes, each with
 * its mark.
 */
enum report_col_kind { REPORT_COL_NAME, REPORT_COL_CENTER, REPORT_COL_VS, REPORT_COL_SPEEDUP };

struct report_grid {
	int nrows, ncols;
	char (*cell)[640];             /* nrows * ncols, row-major */
	int *group;                    /* per column: its table column, -1 for the names */
	enum report_col_kind *kind;    /* per column */
	char notes[3][200];
	int nnotes;
};

void report_grid_build(const struct report_table *t, struct report_grid *g);
void report_grid_free(struct report_grid *g);
void report_markdown(FILE *f, const struct report_table *t, bool boxes);
void report_csv(FILE *f, const struct report_table *t);
/* Writes the member "summary": [...] into the object open in j. */
struct json;
void report_json_summary(struct json *j, const struct report_table *t);

#endif
