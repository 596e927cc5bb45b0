/*
 * Statistics over the iterations of one experiment cell, and between two
 * cells: what a reader needs to tell a real difference from noise.
 *
 * Pure C with libm only.  The conventions follow Go's benchstat, which
 * scheduler developers already read: the centre is the median with an
 * order-statistic confidence interval, differences are judged by the
 * Mann-Whitney U test.  The mean and its Student t interval are kept as
 * well, because the mailing-list tables report means.
 */
#ifndef SCHEDSIM_STATS_H
#define SCHEDSIM_STATS_H

#include <stdbool.h>

struct stats_summary {
	int n;
	double mean, stddev, median, min, max;   /* stddev: sample (n - 1) */
	bool has_mean_ci;                        /* n >= 2 */
	double mean_lo, mean_hi;
	bool has_median_ci;                      /* n large enough at this confidence */
	double median_lo, median_hi;
	double median_conf;                      /* confidence actually achieved */
};

/* Fills s from x[0..n-1] (not modified) at the given confidence (0.95). */
void stats_summarize(const double *x, int n, double confidence,
		     struct stats_summary *s);

double stats_mean(const double *x, int n);
double stats_stddev(const double *x, int n);       /* NaN when n < 2 */
double stats_median(const double *x, int n);       /* NaN when n == 0 */
/* exp(mean(log x)); NaN when n == 0 or any x <= 0. */
double stats_geomean(const double *x, int n);
/* n / sum(1/x): the centre of rates (MMTests' Hmean); NaN when n == 0 or any x <= 0. */
double stats_hmean(const double *x, int n);

/* Standard normal CDF, and Student t CDF and quantile with df degrees of freedom. */
double stats_normal_cdf(double z);
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);
/* Regularized incomplete beta I_x(a, b). */
double stats_incbeta(double a, double b, double x);

/*
 * The order statistics bounding the confidence interval of the median of
 * n samples: 1-based ranks *lo and *hi, with 0 and n + 1 meaning -inf and
 * +inf (no interval at this confidence).  Returns the confidence achieved.
 */
double stats_median_ci_orders(int n, double confidence, int *lo, int *hi);
/* Smallest n with a finite median interval at this confidence (0: > 50). */
int stats_median_ci_min_n(double confidence);

struct mwu_result {
	double p;        /* two-sided p-value; 1 when all values are equal */
	double u;        /* U statistic of the first sample */
	bool exact;      /* exact distribution (no ties, small samples) */
	bool all_equal;  /* every value of both samples equal: no test */
};

/* Largest sample size for which the exact distribution is used. */
#define STATS_MWU_EXACT_MAX 25

/* Two-sided Mann-Whitney U test of x against y; returns r->p. */
double stats_mann_whitney(const double *x, int nx, const double *y, int ny,
			  struct mwu_result *r);
/* Smallest p the exact test can give for two samples of size n each. */
double stats_mwu_min_p(int n);
/* Smallest n (both samples) that can reach p <= alpha (0: more than 25). */
int stats_mwu_min_n(double alpha);

#endif
