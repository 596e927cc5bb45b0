/*
 * Text and Markdown forms of a comparison table.
 *
 * Two views of the same numbers.  The mailing-list boxes (one per
 * configuration, dom0 load settings down, workloads across, `*` on the
 * best mean of each position across boxes) are what people paste into
 * xen-devel mail.  The benchstat-style table under them says whether a
 * difference is real: `mean ± CI%` per configuration (Student t interval),
 * then `+x.xx% (p=0.000 n=15)` against the baseline when the Mann-Whitney
 * test rejects at alpha, `~` when it does not, footnotes when a sample is
 * too small for an interval or a test, and a geomean row.
 *
 * Both views are first laid out as a grid of strings, then printed with
 * column widths measured in characters (the cells hold UTF-8 '±').
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/output/report_formats.h"
#include "sim/xalloc.h"

#define CELL_MAX 640

struct grid {
	int nrows, ncols;
	char (*s)[CELL_MAX];
};

static void grid_init(struct grid *g, int nrows, int ncols)
{
	g->nrows = nrows;
	g->ncols = ncols;
	g->s = xcalloc((size_t)nrows * ncols + 1, sizeof(*g->s));
}

static char *grid_at(struct grid *g, int r, int c)
{
	return g->s[r * g->ncols + c];
}

/* Printed width: UTF-8 continuation bytes take no column. */
static int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

static void put_pad(FILE *f, int n)
{
	while (n-- > 0)
		fputc(' ', f);
}

static void put_left(FILE *f, const char *s, int w)
{
	fputs(s, f);
	put_pad(f, w - text_width(s));
}

static void put_right(FILE *f, const char *s, int w)
{
	put_pad(f, w - text_width(s));
	fputs(s, f);
}

/* Four significant digits, fixed point, as benchstat prints (0.8700, 28.41, 1234). */
static void fmt_value(char *buf, size_t len, double v)
{
	double a = fabs(v);
	int decimals;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	decimals = a > 0 ? 3 - (int)floor(log10(a)) : 3;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 12)
		decimals = 12;
	snprintf(buf, len, "%.*f", decimals, v);
}

/* ---------------------------------------------------------------- boxes */

struct box_layout {
	char (*workloads)[600];  /* the benches: workload spec and host setting */
	int nw;
	char (*loads)[256];
	int nd;
	int *row_of;             /* [d * nw + w] -> table row, or -1 */
};

static void box_layout_build(const struct report_table *t, struct box_layout *b)
{
	b->workloads = xcalloc(t->nrows + 1, sizeof(*b->workloads));
	b->loads = xcalloc(t->nrows + 1, sizeof(*b->loads));
	b->nw = b->nd = 0;
	for (int r = 0; r < t->nrows; r++) {
		const struct report_row *row = &t->rows[r];
		char w[600];
		int i;

		report_bench_name(row, w, sizeof(w));

		for (i = 0; i < b->nw && strcmp(b->workloads[i], w); i++)
			;
		if (i == b->nw)
			snprintf(b->workloads[b->nw++], sizeof(*b->workloads), "%s", w);
		for (i = 0; i < b->nd && strcmp(b->loads[i], row->dom0_load); i++)
			;
		if (i == b->nd)
			snprintf(b->loads[b->nd++], sizeof(*b->loads), "%s", row->dom0_load);
	}
	b->row_of = xmalloc(((size_t)b->nw * b->nd + 1) * sizeof(*b->row_of));
	for (int i = 0; i < b->nw * b->nd; i++)
		b->row_of[i] = -1;
	for (int r = 0; r < t->nrows; r++) {
		const struct report_row *row = &t->rows[r];
		char w[600];
		int wi = 0, di = 0;

		report_bench_name(row, w, sizeof(w));

		while (strcmp(b->workloads[wi], w))
			wi++;
		while (strcmp(b->loads[di], row->dom0_load))
			di++;
		b->row_of[di * b->nw + wi] = r;
	}
}

static void box_layout_free(struct box_layout *b)
{
	free(b->workloads);
	free(b->loads);
	free(b->row_of);
}

/* MAKEXEN, IPERF: the benchmark names as the mailing list writes them. */
static void box_header(char *buf, size_t len, const char *name)
{
	size_t j = 0;

	if (!name[0])
		name = "metric";
	/* The workload's name in capitals (MAKEXEN), its parameters and host as given. */
	for (; *name && *name != ':' && *name != ' ' && j + 1 < len; name++)
		if (*name != '-' && *name != '_')
			buf[j++] = (char)(*name >= 'a' && *name <= 'z' ? *name - 'a' + 'A' : *name);
	for (; *name && j + 1 < len; name++)
		buf[j++] = *name;
	buf[j] = 0;
}

/* "CREDIT2:runqueue=core": the scheduler name in capitals, parameters as given. */
static void box_title(char *buf, size_t len, const char *label)
{
	size_t j = 0;
	bool upper = true;

	for (; *label && j + 1 < len; label++) {
		if (*label == ':')
			upper = false;
		buf[j++] = (char)(upper && *label >= 'a' && *label <= 'z' ? *label - 'a' + 'A' : *label);
	}
	buf[j] = 0;
}

/* The mean as the box prints it (three decimals), so that equal-looking values tie. */
static double box_rounded(const struct report_cell *c)
{
	return round(c->s.mean * 1000);
}

/* Whether cell (r, c) holds the best mean of its row across the columns. */
static bool is_best(const struct report_table *t, int r, int c)
{
	const struct report_cell *me = &t->cells[r * t->ncols + c];

	if (t->ncols < 2 || me->n == 0)
		return false;
	for (int o = 0; o < t->ncols; o++) {
		const struct report_cell *other = &t->cells[r * t->ncols + o];

		if (other->n == 0)
			continue;
		if (t->rows[r].higher_better ? box_rounded(other) > box_rounded(me)
					     : box_rounded(other) < box_rounded(me))
			return false;
	}
	return true;
}

static void box_value(const struct report_table *t, const struct box_layout *b,
		      int c, int d, int w, char *buf, size_t len, bool *best)
{
	int r = b->row_of[d * b->nw + w];

	*best = false;
	if (r < 0 || t->cells[r * t->ncols + c].n == 0) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "%.3f", t->cells[r * t->ncols + c].s.mean);
	*best = is_best(t, r, c);
}

static void put_rule(FILE *f, int inner)
{
	fputc('+', f);
	for (int i = 0; i < inner; i++)
		fputc('-', f);
	fputs("+\n", f);
}

/* Column widths shared by all boxes, so that they line up one under another. */
struct box_widths {
	int left, right, inner;
	int *wid;                /* per workload column */
};

static void box_widths(const struct report_table *t, const struct box_layout *b,
		       struct box_widths *bw)
{
	char buf[CELL_MAX];
	bool best;

	bw->left = bw->right = 0;
	bw->wid = xcalloc(b->nw + 1, sizeof(*bw->wid));
	for (int d = 0; d < b->nd; d++)
		if (text_width(report_dom0_name(b->loads[d])) > bw->left)
			bw->left = text_width(report_dom0_name(b->loads[d]));
	for (int w = 0; w < b->nw; w++) {
		box_header(buf, sizeof(buf), b->workloads[w]);
		bw->wid[w] = text_width(buf);
		for (int c = 0; c < t->ncols; c++)
			for (int d = 0; d < b->nd; d++) {
				box_value(t, b, c, d, w, buf, sizeof(buf), &best);
				if (text_width(buf) > bw->wid[w])
					bw->wid[w] = text_width(buf);
			}
		bw->right += bw->wid[w] + 2;
	}
	bw->inner = bw->left + 3 + bw->right + 1;
	for (int c = 0; c < t->ncols; c++) {
		box_title(buf, sizeof(buf), t->cols[c]);
		if (text_width(buf) + 4 > bw->inner)
			bw->inner = text_width(buf) + 4;
	}
}

static void put_dashes(FILE *f, int n)
{
	while (n-- > 0)
		fputc('-', f);
}

static void text_box(FILE *f, const struct report_table *t, const struct box_layout *b,
		     const struct box_widths *bw, int c)
{
	int fill = bw->inner - (bw->left + 3 + bw->right);
	char buf[CELL_MAX];
	bool best;

	put_rule(f, bw->inner);
	box_title(buf, sizeof(buf), t->cols[c]);
	fputs("|  ", f);
	put_left(f, buf, bw->inner - 2);
	fputs("|\n", f);
	put_rule(f, bw->inner);
	fputs("| ", f);
	put_pad(f, bw->left);
	fputs(" |", f);
	for (int w = 0; w < b->nw; w++) {
		box_header(buf, sizeof(buf), b->workloads[w]);
		fputc(' ', f);
		put_right(f, buf, bw->wid[w]);
		fputc(' ', f);
	}
	put_pad(f, fill);
	fputs("|\n|", f);
	put_dashes(f, bw->left + 2);
	fputc('|', f);
	put_dashes(f, bw->inner - bw->left - 3);
	fputs("|\n", f);
	for (int d = 0; d < b->nd; d++) {
		fputs("| ", f);
		put_left(f, report_dom0_name(b->loads[d]), bw->left);
		fputs(" |", f);
		for (int w = 0; w < b->nw; w++) {
			box_value(t, b, c, d, w, buf, sizeof(buf), &best);
			fputc(' ', f);
			put_right(f, buf, bw->wid[w]);
			fputc(best ? '*' : ' ', f);
		}
		put_pad(f, fill);
		fputs("|\n", f);
	}
	put_rule(f, bw->inner);
	fputc('\n', f);
}

static void text_boxes(FILE *f, const struct report_table *t)
{
	struct box_layout b;
	struct box_widths bw;

	box_layout_build(t, &b);
	box_widths(t, &b, &bw);
	for (int c = 0; c < t->ncols; c++)
		text_box(f, t, &b, &bw, c);
	free(bw.wid);
	box_layout_free(&b);
}

static void markdown_boxes(FILE *f, const struct report_table *t)
{
	struct box_layout b;
	char buf[CELL_MAX];
	bool best;

	box_layout_build(t, &b);
	for (int c = 0; c < t->ncols; c++) {
		box_title(buf, sizeof(buf), t->cols[c]);
		fprintf(f, "**%s**\n\n|  |", buf);
		for (int w = 0; w < b.nw; w++) {
			box_header(buf, sizeof(buf), b.workloads[w]);
			fprintf(f, " %s |", buf);
		}
		fputs("\n|---|", f);
		for (int w = 0; w < b.nw; w++)
			fputs("---:|", f);
		fputc('\n', f);
		for (int d = 0; d < b.nd; d++) {
			fprintf(f, "| %s |", report_dom0_name(b.loads[d]));
			for (int w = 0; w < b.nw; w++) {
				box_value(t, &b, c, d, w, buf, sizeof(buf), &best);
				fprintf(f, " %s%s |", buf, best ? "\\*" : "");
			}
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	box_layout_free(&b);
}

/* ------------------------------------------------------ benchstat table */

enum { KIND_NAME = REPORT_COL_NAME, KIND_CENTER = REPORT_COL_CENTER, KIND_VS = REPORT_COL_VS,
       KIND_SPEEDUP = REPORT_COL_SPEEDUP };

enum { NOTE_CI, NOTE_TEST, NOTE_EQUAL, NOTE_MAX };

struct notes {
	bool used[NOTE_MAX];
	int number[NOTE_MAX];    /* 1-based, in order of first use */
	int next;
};

static const char *const superscript[] = { "", "¹", "²", "³" };

static const char *note_mark(struct notes *n, int which)
{
	if (!n->used[which]) {
		n->used[which] = true;
		n->number[which] = ++n->next;
	}
	return superscript[n->number[which]];
}

static void note_text(const struct report_table *t, int which, char *buf, size_t len)
{
	switch (which) {
	case NOTE_CI:
		snprintf(buf, len, "need >= 2 samples for confidence interval at level %g",
			 t->confidence);
		break;
	case NOTE_TEST:
		snprintf(buf, len, "need >= %d samples to detect a difference at alpha level %g",
			 stats_mwu_min_n(t->alpha), t->alpha);
		break;
	default:
		snprintf(buf, len, "all samples are equal");
		break;
	}
}

static void fmt_center(char *buf, size_t len, const struct report_cell *c, struct notes *n)
{
	char v[32];
	double pct;

	if (c->n == 0) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_value(v, sizeof(v), c->s.mean);
	if (!c->s.has_mean_ci) {
		snprintf(buf, len, "%s ± ∞ %s", v, note_mark(n, NOTE_CI));
		return;
	}
	pct = c->s.mean != 0 ? (c->s.mean_hi - c->s.mean) / fabs(c->s.mean) * 100 : 0;
	if (pct < 1)
		snprintf(buf, len, "%s ± %.2f%%", v, pct);
	else if (pct < 10)
		snprintf(buf, len, "%s ± %.1f%%", v, pct);
	else
		snprintf(buf, len, "%s ± %.0f%%", v, pct);
}

static void fmt_vs_base(char *buf, size_t len, const struct report_table *t,
			const struct report_cell *c, const struct report_cell *base,
			struct notes *n)
{
	char ns[32];
	const char *mark = "";

	if (!c->has_cmp) {
		snprintf(buf, len, "-");
		return;
	}
	if (base->n == c->n)
		snprintf(ns, sizeof(ns), "n=%d", c->n);
	else
		snprintf(ns, sizeof(ns), "n=%d+%d", base->n, c->n);
	if (c->mwu.all_equal)
		mark = note_mark(n, NOTE_EQUAL);
	else if (c->mwu.p >= t->alpha) {
		int need = stats_mwu_min_n(t->alpha);

		if (need == 0 || (base->n < need && c->n < need))
			mark = note_mark(n, NOTE_TEST);
	}
	if (c->mwu.p < t->alpha)
		snprintf(buf, len, "%+.2f%% (p=%.3f %s)", c->delta_pct, c->mwu.p, ns);
	else
		snprintf(buf, len, "~ (p=%.3f %s)%s%s", c->mwu.p, ns, *mark ? " " : "", mark);
}

/*
 * Geomean across rows of each column's means, over the rows where every
 * column has a positive mean (so the columns are comparable), and the
 * geomean of the ratios to the baseline.
 */
static int geomean_row(const struct report_table *t, double *gm, double *ratio)
{
	int nrows = 0;
	double *x = xcalloc(t->nrows + 1, sizeof(*x));

	for (int c = 0; c < t->ncols; c++) {
		int k = 0;
		double *rr = xcalloc(t->nrows + 1, sizeof(*rr));

		for (int r = 0; r < t->nrows; r++) {
			bool ok = true;

			for (int o = 0; o < t->ncols; o++) {
				const struct report_cell *cell = &t->cells[r * t->ncols + o];

				if (cell->n == 0 || !(cell->s.mean > 0))
					ok = false;
			}
			if (!ok)
				continue;
			x[k] = t->cells[r * t->ncols + c].s.mean;
			rr[k] = x[k] / t->cells[r * t->ncols].s.mean;
			k++;
		}
		gm[c] = stats_geomean(x, k);
		ratio[c] = stats_geomean(rr, k);
		nrows = k;
		free(rr);
	}
	free(x);
	return nrows;
}

struct bench_layout {
	struct grid g;           /* header rows 0-1, data rows, geomean row */
	int *group_of;           /* text column -> table column (-1: names) */
	int *kind;               /* text column -> KIND_* */
	int ndata;
	struct notes notes;
};

static int bench_cols_per_group(const struct report_table *t, int c)
{
	if (c == 0)
		return 1;
	return t->compare ? 3 : 2;
}

static void bench_build(const struct report_table *t, struct bench_layout *b)
{
	int ncols = 1, nrows, col;
	double *gm = xcalloc(t->ncols + 1, sizeof(*gm));
	double *ratio = xcalloc(t->ncols + 1, sizeof(*ratio));
	int ngeo = geomean_row(t, gm, ratio);
	bool geo = ngeo >= 2;

	memset(&b->notes, 0, sizeof(b->notes));
	for (int c = 0; c < t->ncols; c++)
		ncols += bench_cols_per_group(t, c);
	nrows = 2 + t->nrows + (geo ? 1 : 0);
	b->ndata = nrows;
	grid_init(&b->g, nrows, ncols);
	b->group_of = xcalloc(ncols, sizeof(*b->group_of));
	b->kind = xcalloc(ncols, sizeof(*b->kind));
	b->group_of[0] = -1;
	col = 1;
	for (int c = 0; c < t->ncols; c++) {
		int k = bench_cols_per_group(t, c);

		snprintf(grid_at(&b->g, 0, col), CELL_MAX, "%s", t->cols[c]);
		snprintf(grid_at(&b->g, 1, col), CELL_MAX, "mean ± 95%% CI");
		if (k > 1)
			snprintf(grid_at(&b->g, 1, col + 1), CELL_MAX, "vs base");
		if (k > 2)
			snprintf(grid_at(&b->g, 1, col + 2), CELL_MAX, "speedup");
		for (int i = 0; i < k; i++) {
			b->group_of[col + i] = c;
			b->kind[col + i] = KIND_CENTER + i;
		}
		col += k;
	}
	for (int r = 0; r < t->nrows; r++) {
		const struct report_row *row = &t->rows[r];
		char name[CELL_MAX - 20];

		report_row_name(row, name, sizeof(name));
		if (row->unit[0])
			snprintf(grid_at(&b->g, 2 + r, 0), CELL_MAX, "%s (%s)", name, row->unit);
		else
			snprintf(grid_at(&b->g, 2 + r, 0), CELL_MAX, "%s", name);
		col = 1;
		for (int c = 0; c < t->ncols; c++) {
			const struct report_cell *cell = &t->cells[r * t->ncols + c];
			int k = bench_cols_per_group(t, c);

			fmt_center(grid_at(&b->g, 2 + r, col), CELL_MAX, cell, &b->notes);
			if (k > 1)
				fmt_vs_base(grid_at(&b->g, 2 + r, col + 1), CELL_MAX, t, cell,
					    &t->cells[r * t->ncols], &b->notes);
			if (k > 2 && cell->has_cmp && row->higher_better)
				snprintf(grid_at(&b->g, 2 + r, col + 2), CELL_MAX, "%.2fx",
					 cell->speedup);
			col += k;
		}
	}
	if (geo) {
		int gr = 2 + t->nrows;

		snprintf(grid_at(&b->g, gr, 0), CELL_MAX, "geomean");
		col = 1;
		for (int c = 0; c < t->ncols; c++) {
			fmt_value(grid_at(&b->g, gr, col), CELL_MAX, gm[c]);
			if (c > 0)
				snprintf(grid_at(&b->g, gr, col + 1), CELL_MAX, "%+.2f%%",
					 (ratio[c] - 1) * 100);
			col += bench_cols_per_group(t, c);
		}
	}
	free(gm);
	free(ratio);
}

static void bench_free(struct bench_layout *b)
{
	free(b->g.s);
	free(b->group_of);
	free(b->kind);
}

static void print_notes(FILE *f, const struct report_table *t, const struct notes *n,
			const char *prefix)
{
	char buf[160];

	for (int k = 1; k <= n->next; k++)
		for (int w = 0; w < NOTE_MAX; w++)
			if (n->used[w] && n->number[w] == k) {
				note_text(t, w, buf, sizeof(buf));
				fprintf(f, "%s%s %s\n", prefix, superscript[k], buf);
			}
}

/* Copies text to f without the blanks that padding leaves at line ends. */
static void put_trimmed(FILE *f, const char *text, size_t len)
{
	size_t start = 0;

	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		size_t end = i;

		while (end > start && text[end - 1] == ' ')
			end--;
		fwrite(text + start, 1, end - start, f);
		if (i < len)
			fputc('\n', f);
		start = i + 1;
	}
}

static void text_bench_raw(FILE *f, const struct report_table *t);

static void text_bench(FILE *out, const struct report_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	text_bench_raw(f, t);
	fclose(f);
	put_trimmed(out, buf, len);
	free(buf);
}

static void text_bench_raw(FILE *f, const struct report_table *t)
{
	struct bench_layout b;
	int *wid;

	bench_build(t, &b);
	wid = xcalloc(b.g.ncols, sizeof(*wid));
	for (int r = 0; r < b.g.nrows; r++)
		for (int c = 0; c < b.g.ncols; c++)
			if (r != 0 && text_width(grid_at(&b.g, r, c)) > wid[c])
				wid[c] = text_width(grid_at(&b.g, r, c));
	/* A group is at least as wide as its title. */
	for (int c = 1; c < b.g.ncols;) {
		int start = c, span = 0, title;

		while (c < b.g.ncols && b.group_of[c] == b.group_of[start])
			span += wid[c++] + 2;
		title = text_width(grid_at(&b.g, 0, start)) + 2;
		if (title > span)
			wid[c - 1] += title - span;
	}
	for (int r = 0; r < b.g.nrows; r++) {
		put_left(f, grid_at(&b.g, r, 0), wid[0]);
		for (int c = 1; c < b.g.ncols; c++) {
			bool first = b.group_of[c] != b.group_of[c - 1];

			fputs(first ? (r < 2 ? " | " : "   ") : "  ", f);
			if (r == 0) {
				int span = wid[c], k = c + 1;

				while (k < b.g.ncols && b.group_of[k] == b.group_of[c])
					span += wid[k++] + 2;
				put_left(f, grid_at(&b.g, r, c), span);
				c = k - 1;
			} else if (r >= 2 && b.kind[c] != KIND_VS) {
				put_right(f, grid_at(&b.g, r, c), wid[c]);
			} else {
				put_left(f, grid_at(&b.g, r, c), wid[c]);
			}
		}
		fputs(r < 2 ? " |\n" : "\n", f);
	}
	print_notes(f, t, &b.notes, "");
	free(wid);
	bench_free(&b);
}

static void markdown_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '*' || *s == '~' || *s == '_')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void markdown_bench(FILE *f, const struct report_table *t)
{
	struct bench_layout b;

	bench_build(t, &b);
	fputs("|  |", f);
	for (int c = 1; c < b.g.ncols; c++) {
		const char *group = t->cols[b.group_of[c]];

		fputc(' ', f);
		if (b.kind[c] == KIND_CENTER)
			markdown_escape(f, group);
		else {
			markdown_escape(f, group);
			fputc(' ', f);
			fputs(grid_at(&b.g, 1, c), f);
		}
		fputs(" |", f);
	}
	fputs("\n|---|", f);
	for (int c = 1; c < b.g.ncols; c++)
		fputs("---:|", f);
	fputc('\n', f);
	for (int r = 2; r < b.g.nrows; r++) {
		fputc('|', f);
		for (int c = 0; c < b.g.ncols; c++) {
			fputc(' ', f);
			markdown_escape(f, grid_at(&b.g, r, c));
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	if (b.notes.next) {
		fputc('\n', f);
		print_notes(f, t, &b.notes, "");
	}
	bench_free(&b);
}

void report_text_boxes(FILE *f, const struct report_table *t)
{
	text_boxes(f, t);
}

void report_grid_build(const struct report_table *t, struct report_grid *g)
{
	struct bench_layout b;

	bench_build(t, &b);
	memset(g, 0, sizeof(*g));
	g->nrows = b.g.nrows;
	g->ncols = b.g.ncols;
	g->cell = b.g.s;
	g->group = b.group_of;
	g->kind = xcalloc((size_t)b.g.ncols, sizeof(*g->kind));
	for (int c = 0; c < b.g.ncols; c++)
		g->kind[c] = (enum report_col_kind)b.kind[c];
	free(b.kind);
	for (int k = 1; k <= b.notes.next; k++)
		for (int w = 0; w < NOTE_MAX; w++)
			if (b.notes.used[w] && b.notes.number[w] == k && g->nnotes < 3) {
				char text[160];

				note_text(t, w, text, sizeof(text));
				snprintf(g->notes[g->nnotes++], sizeof(g->notes[0]), "%s %s",
					 superscript[k], text);
			}
}

void report_grid_free(struct report_grid *g)
{
	free(g->cell);
	free(g->group);
	free(g->kind);
	memset(g, 0, sizeof(*g));
}

void report_text(FILE *f, const struct report_table *t, bool boxes)
{
	if (boxes)
		text_boxes(f, t);
	text_bench(f, t);
}

void report_markdown(FILE *f, const struct report_table *t, bool boxes)
{
	if (boxes)
		markdown_boxes(f, t);
	markdown_bench(f, t);
}
