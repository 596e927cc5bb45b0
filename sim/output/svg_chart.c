/* Bar and strip charts as inline SVG for the HTML report (see svg_chart.h). */
#include "sim/output/svg_chart.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

/* Okabe and Ito's colour-blind-safe palette (yellow last: it is faint on white). */
static const char *const palette[] = { "#0072b2", "#e69f00", "#009e73", "#cc79a7",
				       "#56b4e9", "#d55e00", "#000000", "#f0e442" };

const char *svg_colour(int i)
{
	return palette[i % 8];
}

void svg_text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

/* A tick step of 1, 2 or 5 times a power of ten giving about five ticks up to max. */
static double nice_step(double max)
{
	double raw = max / 5, mag = pow(10, floor(log10(raw))), norm = raw / mag;

	return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
}

/* Four significant digits, as the tables print them. */
static void fmt4(char *buf, size_t len, double v)
{
	double a = fabs(v);
	int d = a > 0 ? 3 - (int)floor(log10(a)) : 3;

	snprintf(buf, len, "%.*f", d < 0 ? 0 : d > 9 ? 9 : d, v);
}

static void legend(FILE *f, int x, int y, int nseries, const char *const *series)
{
	for (int s = 0; s < nseries; s++) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\" class=\"legend\">", x, y + s * 18, svg_colour(s),
			x + 18, y + s * 18 + 10);
		svg_text(f, series[s]);
		fputs("</text>\n", f);
	}
}

static void open_svg(FILE *f, int w, int h, const char *title)
{
	fprintf(f, "<svg class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" aria-label=\"", w, h, w, h);
	svg_text(f, title);
	fputs("\">\n<title>", f);
	svg_text(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
}

static void titles(FILE *f, int w, int top, int plot_h, const char *title, const char *ylabel)
{
	fprintf(f, "<text x=\"%d\" y=\"20\" class=\"title\" text-anchor=\"middle\">", w / 2);
	svg_text(f, title);
	fprintf(f, "</text>\n<text transform=\"translate(16,%d) rotate(-90)\" class=\"axis\" "
		"text-anchor=\"middle\">", top + plot_h / 2);
	svg_text(f, ylabel);
	fputs("</text>\n", f);
}

void svg_bars(FILE *f, const struct svg_bars *b)
{
	const int left = 78, right = 16, top = 34, plot_h = 260;
	int gw = b->nseries * 34 + 40, plot_w = b->ngroups * gw, w, h;
	double ymax = 0, ymin = 0, step, ytop, ybottom;
	char num[32];

	if (plot_w < 360) {
		plot_w = 360;
		gw = plot_w / (b->ngroups > 0 ? b->ngroups : 1);
	}
	w = left + plot_w + right;
	h = top + plot_h + 34 + 18 * b->nseries + 8;
	/* The axis holds every mean, interval end and value (an interval may reach below 0). */
	for (int i = 0; i < b->ngroups * b->nseries; i++) {
		double v[3] = { b->mean[i], b->lo[i], b->hi[i] };

		for (int k = 0; k < 3; k++)
			if (isfinite(v[k])) {
				ymax = fmax(ymax, v[k]);
				ymin = fmin(ymin, v[k]);
			}
		for (int k = 0; k < b->nvalues[i]; k++)
			if (isfinite(b->values[i][k])) {
				ymax = fmax(ymax, b->values[i][k]);
				ymin = fmin(ymin, b->values[i][k]);
			}
	}
	if (!(ymax - ymin > 0))
		ymax = ymin + 1;
	step = nice_step((ymax - ymin) * 1.05);
	ytop = ceil(ymax * 1.05 / step) * step;
	ybottom = ymin < 0 ? floor(ymin * 1.05 / step) * step : 0;
	if (!(ytop > ybottom))
		ytop = ybottom + step;
#define SY(v) (top + plot_h - ((v) - ybottom) / (ytop - ybottom) * plot_h)
	open_svg(f, w, h, b->title);
	titles(f, w, top, plot_h, b->title, b->ylabel);
	for (int k = 0; ybottom + k * step <= ytop + step * 1e-9; k++) {
		double t = ybottom + k * step;

		snprintf(num, sizeof(num), "%g", fabs(t) < step * 1e-9 ? 0 : t);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>"
			"<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>\n",
			left, SY(t), left + plot_w, SY(t), left - 6, SY(t) + 4, num);
	}
	for (int g = 0; g < b->ngroups; g++) {
		double bw = gw * 0.8 / b->nseries;

		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">",
			left + (g + 0.5) * gw, top + plot_h + 20);
		svg_text(f, b->groups[g]);
		fputs("</text>\n", f);
		for (int s = 0; s < b->nseries; s++) {
			int i = g * b->nseries + s;
			double x0 = left + g * gw + gw * 0.1 + s * bw, xc = x0 + bw / 2;
			char lo[32], hi[32];

			fputs("<g><title>", f);
			svg_text(f, b->series[s]);
			fputs(", ", f);
			svg_text(f, b->groups[g]);
			if (isfinite(b->mean[i])) {
				fmt4(num, sizeof(num), b->mean[i]);
				fprintf(f, ": mean %s ", num);
				svg_text(f, b->unit);
			} else {
				fputs(": no figure", f);
			}
			if (isfinite(b->lo[i]) && isfinite(b->hi[i])) {
				fmt4(lo, sizeof(lo), b->lo[i]);
				fmt4(hi, sizeof(hi), b->hi[i]);
				fprintf(f, ", 95%% interval %s to %s", lo, hi);
			}
			fprintf(f, ", n=%d</title>\n", b->nvalues[i]);
			if (isfinite(b->mean[i]))
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
					"fill=\"%s\" fill-opacity=\"0.85\"/>\n", x0 + 1,
					fmin(SY(b->mean[i]), SY(0)), bw - 2,
					fabs(SY(0) - SY(b->mean[i])), svg_colour(s));
			if (isfinite(b->lo[i]) && isfinite(b->hi[i]))
				fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
					"class=\"whisker\"/>\n", xc, SY(b->lo[i]), SY(b->hi[i]),
					xc - bw * 0.2, SY(b->lo[i]), xc + bw * 0.2, xc - bw * 0.2,
					SY(b->hi[i]), xc + bw * 0.2);
			for (int k = 0; k < b->nvalues[i]; k++)
				if (isfinite(b->values[i][k]))
					fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.2\" class=\"dot\"/>\n",
						x0 + bw * (k + 0.5) / b->nvalues[i], SY(b->values[i][k]));
			if (isfinite(b->mean[i])) {
				double ty = isfinite(b->hi[i]) ? SY(b->hi[i]) : SY(b->mean[i]);

				fmt4(num, sizeof(num), b->mean[i]);
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"value\" "
					"text-anchor=\"middle\">%s</text>\n", xc, ty - 4, num);
			}
			fputs("</g>\n", f);
		}
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"axisline\"/>\n",
		left, SY(0), left + plot_w, SY(0));
#undef SY
	legend(f, left, top + plot_h + 34, b->nseries, b->series);
	fputs("</svg>\n", f);
}

/* "1 ns", "10 us" ... "10 s" for a power of ten of nanoseconds. */
static void decade_label(char *buf, size_t len, int e)
{
	static const char *const unit[] = { "ns", "µs", "ms", "s" };
	int u = e / 3 < 3 ? e / 3 : 3;
	double v = pow(10, e - 3 * u);

	snprintf(buf, len, "%g %s", v, unit[u]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void svg_strip(FILE *f, const struct svg_strip *st)
{
	const int left = 78, right = 16, top = 52, plot_h = 260;
	int cw = 44, pw = st->nseries * cw + 30, w, h, emin = 9, emax = 0;
	bool any = false;
	char num[32];

	if (pw < 200) {
		pw = 200;
		cw = (pw - 30) / (st->nseries > 0 ? st->nseries : 1);
	}
	w = left + st->npanels * pw + right;
	h = top + plot_h + 20 + 18 * st->nseries + 8;
	for (int i = 0; i < st->npanels * st->nseries; i++)
		for (int k = 0; k < st->nvalues[i]; k++) {
			double v = st->values[i][k] < 1 ? 1 : st->values[i][k];
			int lo = (int)floor(log10(v)), hi = (int)ceil(log10(v));

			if (!any || lo < emin)
				emin = lo;
			if (!any || hi > emax)
				emax = hi;
			any = true;
		}
	if (!any) {
		emin = 3;
		emax = 6;
	}
	if (emax <= emin)
		emax = emin + 1;
#define SY(v) (top + plot_h - (log10((v) < 1 ? 1 : (v)) - emin) / (emax - emin) * plot_h)
	open_svg(f, w, h, st->title);
	titles(f, w, top, plot_h, st->title, st->ylabel);
	for (int e = emin; e <= emax; e++) {
		decade_label(num, sizeof(num), e);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>"
			"<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>\n",
			left, SY(pow(10, e)), left + st->npanels * pw, SY(pow(10, e)), left - 6,
			SY(pow(10, e)) + 4, num);
	}
	for (int p = 0; p < st->npanels; p++) {
		int px = left + p * pw;

		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">",
			px + pw / 2.0, top - 10);
		svg_text(f, st->panels[p]);
		fputs("</text>\n", f);
		if (p)
			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"axisline\"/>\n",
				px, top, px, top + plot_h);
		for (int s = 0; s < st->nseries; s++) {
			int i = p * st->nseries + s, n = st->nvalues[i];
			double xc = px + 15 + (s + 0.5) * cw, *sorted;

			fputs("<g><title>", f);
			svg_text(f, st->series[s]);
			fputs(", ", f);
			svg_text(f, st->panels[p]);
			if (n == 0) {
				fputs(": no value</title></g>\n", f);
				continue;
			}
			sorted = xcalloc((size_t)n, sizeof(*sorted));
			memcpy(sorted, st->values[i], (size_t)n * sizeof(*sorted));
			qsort(sorted, (size_t)n, sizeof(*sorted), cmp_double);
			fprintf(f, ": %d values, median %.0f ns, highest %.0f ns</title>\n", n,
				sorted[n / 2], sorted[n - 1]);
			for (int k = 0; k < n; k++) {
				/* spread across the column, the same way for the same data */
				double jitter = ((k * 37) % 21 - 10) / 10.0 * cw * 0.3;

				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.4\" fill=\"%s\" "
					"fill-opacity=\"0.7\"/>\n", xc + jitter, SY(st->values[i][k]),
					svg_colour(s));
			}
			fprintf(f, "<path d=\"M%.1f %.1fH%.1f\" class=\"median\"/>\n", xc - cw * 0.35,
				SY(sorted[n / 2]), xc + cw * 0.35);
			free(sorted);
			fputs("</g>\n", f);
		}
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"axisline\"/>\n",
		left, top + plot_h, left + st->npanels * pw, top + plot_h);
#undef SY
	legend(f, left, top + plot_h + 20, st->nseries, st->series);
	fputs("</svg>\n", f);
}
