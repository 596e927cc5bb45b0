/*
 * Two small charts as inline SVG, for the self-contained HTML report
 * (sim/output/report_html.c): no script, no font or file to fetch, every mark
 * with a <title> that a browser shows on hover.  Coordinates are written
 * with fixed precision, so the same numbers give the same bytes.
 *
 *   svg_bars    groups along x (the dom0-load settings), a bar per series
 *               (configuration) in each: the mean, the 95 % interval of
 *               the mean as a whisker, each iteration's value as a dot
 *   svg_strip   panels side by side (a domain each), a column per series
 *               in each, one dot per value on a logarithmic time axis and
 *               a tick at the median
 */
#ifndef SCHEDSIM_SVG_CHART_H
#define SCHEDSIM_SVG_CHART_H

#include <stdio.h>

/* The colour of series i (a colour-blind-safe palette, repeating after 8). */
const char *svg_colour(int i);

/* Writes s as XML/HTML text (&, <, >, " escaped). */
void svg_text(FILE *f, const char *s);

struct svg_bars {
	const char *title;             /* above the plot */
	const char *ylabel;            /* the figure, its unit and which way is better */
	const char *unit;              /* for the hover titles */
	int ngroups, nseries;
	const char *const *groups;     /* ngroups names */
	const char *const *series;     /* nseries names */
	/* [g * nseries + s]: mean and interval (NaN: none), the iterations' values */
	const double *mean, *lo, *hi;
	const double *const *values;
	const int *nvalues;
};

void svg_bars(FILE *f, const struct svg_bars *b);

struct svg_strip {
	const char *title;
	const char *ylabel;
	int npanels, nseries;
	const char *const *panels;     /* npanels names */
	const char *const *series;     /* nseries names */
	/* [p * nseries + s]: values in ns (0 is drawn at 1 ns) */
	const double *const *values;
	const int *nvalues;
};

void svg_strip(FILE *f, const struct svg_strip *s);

#endif
