/*
 * Statistics for experiment reports (see stats.h for the conventions).
 *
 * The Student t quantile is found by bisection on the t CDF, itself the
 * regularized incomplete beta function evaluated by its continued
 * fraction: a few hundred operations per call, exact to double precision
 * for every df, with no table to get wrong.
 *
 * The median interval sums binomial(n, 1/2) probabilities outward from the
 * mode, taking the larger neighbour first and the left one on a tie, until
 * the requested confidence is reached; that is the interval benchstat
 * reports.  The Mann-Whitney test counts the exact null distribution of U
 * when there are no ties and both samples are small, and otherwise uses
 * the normal approximation with the tie and continuity corrections (as
 * scipy's mannwhitneyu(method="asymptotic")).
 */
#include "sim/experiment/stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double *sorted_copy(const double *x, int n)
{
	double *s = xmalloc((n > 0 ? n : 1) * sizeof(*s));

	if (n > 0)
		memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

double stats_mean(const double *x, int n)
{
	double sum = 0;

	if (n <= 0)
		return NAN;
	for (int i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

double stats_stddev(const double *x, int n)
{
	double m, ss = 0;

	if (n < 2)
		return NAN;
	m = stats_mean(x, n);
	for (int i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (n - 1));
}

static double median_sorted(const double *s, int n)
{
	if (n <= 0)
		return NAN;
	if (n % 2)
		return s[n / 2];
	return (s[n / 2 - 1] + s[n / 2]) / 2;
}

double stats_median(const double *x, int n)
{
	double *s = sorted_copy(x, n), m = median_sorted(s, n);

	free(s);
	return m;
}

double stats_geomean(const double *x, int n)
{
	double sum = 0;

	if (n <= 0)
		return NAN;
	for (int i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		sum += log(x[i]);
	}
	return exp(sum / n);
}

double stats_hmean(const double *x, int n)
{
	double sum = 0;

	if (n <= 0)
		return NAN;
	for (int i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		sum += 1 / x[i];
	}
	return n / sum;
}

double stats_normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/* Continued fraction for I_x(a, b), modified Lentz evaluation. */
static double incbeta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		double num, delta;

		/* even term */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		/* odd term */
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1) < 1e-16)
			break;
	}
	return h;
}

double stats_incbeta(double a, double b, double x)
{
	double lfront;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	/* The fraction converges fast only below the mean; use symmetry above. */
	if (x < (a + 1) / (a + b + 2))
		return exp(lfront) * incbeta_cf(a, b, x) / a;
	return 1 - exp(lfront) * incbeta_cf(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	double tail;

	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * stats_incbeta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, q;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	q = p > 0.5 ? p : 1 - p;
	while (stats_t_cdf(hi, df) < q && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 2000 && hi - lo > 4 * DBL_EPSILON * hi; i++) {
		double mid = lo + (hi - lo) / 2;

		if (stats_t_cdf(mid, df) < q)
			lo = mid;
		else
			hi = mid;
	}
	q = lo + (hi - lo) / 2;
	return p > 0.5 ? q : -q;
}

/* P(K = k) for K ~ binomial(n, 1/2); symmetric in k and n - k by construction. */
static double binom_half_pmf(int n, int k)
{
	if (k < 0 || k > n)
		return 0;
	return exp(lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) - n * log(2.0));
}

double stats_median_ci_orders(int n, double confidence, int *lo, int *hi)
{
	/*
	 * K, the number of samples below the population median, indexes the
	 * gaps between order statistics: K = k puts the median between the
	 * k-th and (k+1)-th.  Gaps [l, r) summed give the interval from
	 * order statistic l to order statistic r.
	 */
	int l, r;
	double acc;

	if (n <= 0) {
		*lo = 0;
		*hi = n + 1;
		return 1;
	}
	l = n / 2;
	r = l + 1;
	acc = binom_half_pmf(n, l);
	while (acc < confidence && (l > 0 || r <= n)) {
		double lp = binom_half_pmf(n, l - 1), rp = binom_half_pmf(n, r);

		if (lp >= rp) {
			acc += lp;
			l--;
		} else {
			acc += rp;
			r++;
		}
	}
	*lo = l;
	*hi = r;
	if (l <= 0 && r >= n + 1)
		acc = 1;
	return acc;
}

int stats_median_ci_min_n(double confidence)
{
	for (int n = 2; n <= 50; n++) {
		int lo, hi;

		stats_median_ci_orders(n, confidence, &lo, &hi);
		if (lo >= 1 && hi <= n)
			return n;
	}
	return 0;
}

void stats_summarize(const double *x, int n, double confidence,
		     struct stats_summary *s)
{
	double *sorted = sorted_copy(x, n);
	int lo, hi;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->mean = stats_mean(x, n);
	s->stddev = stats_stddev(x, n);
	s->median = median_sorted(sorted, n);
	s->min = n > 0 ? sorted[0] : NAN;
	s->max = n > 0 ? sorted[n - 1] : NAN;
	s->mean_lo = s->mean_hi = NAN;
	s->median_lo = s->median_hi = NAN;
	if (n >= 2) {
		double t = stats_t_quantile((1 + confidence) / 2, n - 1);
		double half = t * s->stddev / sqrt(n);

		s->has_mean_ci = true;
		s->mean_lo = s->mean - half;
		s->mean_hi = s->mean + half;
	}
	s->median_conf = stats_median_ci_orders(n, confidence, &lo, &hi);
	if (n > 0 && lo >= 1 && hi <= n) {
		s->has_median_ci = true;
		s->median_lo = sorted[lo - 1];
		s->median_hi = sorted[hi - 1];
	}
	free(sorted);
}

struct ranked {
	double v;
	int from_x;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

/*
 * Number of orderings of nx x's and ny y's with U (pairs x > y) at most
 * umax, over the total number of orderings.  cnt[m][u] holds, for the
 * current number j of y's, the orderings of m x's and j y's with U = u:
 * the largest element is either an x (beating all j y's) or a y.
 */
static double mwu_exact_cdf(int nx, int ny, int umax)
{
	int width = nx * ny + 1;
	double *cnt = xcalloc((size_t)(nx + 1) * width, sizeof(*cnt));
	double below = 0, total = 0;

	for (int m = 0; m <= nx; m++)
		cnt[m * width] = 1;         /* j = 0: U = 0 */
	for (int j = 1; j <= ny; j++)
		for (int m = 1; m <= nx; m++)
			for (int u = width - 1; u >= j; u--)
				cnt[m * width + u] += cnt[(m - 1) * width + u - j];
	for (int u = 0; u < width; u++) {
		total += cnt[nx * width + u];
		if (u <= umax)
			below += cnt[nx * width + u];
	}
	free(cnt);
	return below / total;
}

double stats_mann_whitney(const double *x, int nx, const double *y, int ny,
			  struct mwu_result *r)
{
	int n = nx + ny;
	struct ranked *all;
	double rank_x = 0, ties = 0, u1, u2;
	bool tied = false;

	memset(r, 0, sizeof(*r));
	r->p = 1;
	if (nx <= 0 || ny <= 0)
		return r->p;
	all = xmalloc(n * sizeof(*all));
	for (int i = 0; i < nx; i++)
		all[i] = (struct ranked){ x[i], 1 };
	for (int i = 0; i < ny; i++)
		all[nx + i] = (struct ranked){ y[i], 0 };
	qsort(all, n, sizeof(*all), cmp_ranked);
	for (int i = 0; i < n;) {
		int j = i;
		double avg;

		while (j < n && all[j].v == all[i].v)
			j++;
		avg = (i + 1 + j) / 2.0;    /* mean of ranks i+1 .. j */
		for (int k = i; k < j; k++)
			if (all[k].from_x)
				rank_x += avg;
		if (j - i > 1) {
			double t = j - i;

			tied = true;
			ties += t * t * t - t;
		}
		i = j;
	}
	free(all);
	u1 = rank_x - nx * (nx + 1) / 2.0;
	u2 = (double)nx * ny - u1;
	r->u = u1;
	if (ties == (double)n * n * n - n) {
		r->all_equal = true;
		return r->p;
	}
	if (!tied && nx <= STATS_MWU_EXACT_MAX && ny <= STATS_MWU_EXACT_MAX) {
		r->exact = true;
		r->p = 2 * mwu_exact_cdf(nx, ny, (int)fmin(u1, u2));
	} else {
		double mu = nx * (double)ny / 2;
		double var = nx * (double)ny / 12 * ((n + 1) - ties / ((double)n * (n - 1)));
		double z = (fmax(u1, u2) - mu - 0.5) / sqrt(var);

		r->p = erfc(z / sqrt(2.0));
	}
	if (r->p > 1)
		r->p = 1;
	return r->p;
}

double stats_mwu_min_p(int n)
{
	double c = 1;

	/* 2 / C(2n, n): the two fully separated orderings. */
	for (int k = 1; k <= n; k++)
		c = c * (n + k) / k;
	return 2 / c;
}

int stats_mwu_min_n(double alpha)
{
	for (int n = 1; n <= STATS_MWU_EXACT_MAX; n++)
		if (stats_mwu_min_p(n) <= alpha)
			return n;
	return 0;
}
