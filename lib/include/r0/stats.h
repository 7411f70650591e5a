/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Descriptive statistics over arrays of doubles, the one home for them in
 * the library: the sort order, the median, a summary of median, min and
 * max, and quantiles. Comparisons of two sides with an interval are
 * r0/compare.h, built on these. Pure: no I/O, no global state.
 */
#ifndef R0_STATS_H
#define R0_STATS_H

#include <stddef.h>

/* qsort(3) comparator of doubles, ascending; NaN compares equal to anything. */
int r0_cmp_double(const void *a, const void *b);

/* Sorts V[0..n) ascending in place (qsort with r0_cmp_double). */
void r0_sort_doubles(double *v, size_t n);

/* The median of the sorted S[0..n), n > 0: the middle value, or the mean of the middle two. */
double r0_median_sorted(const double *s, size_t n);

/* The median of V[0..n) (mean of the middle two for an even n); 0 for n == 0. V is not changed. */
double r0_median(const double *v, size_t n);

struct r0_stat {
	double med, min, max;
	unsigned n;                 /* values; 0: no data (all fields 0) */
};

/* Median (mean of the middle two for an even count), min and max of V[0..n). */
void r0_stat_of(const double *v, size_t n, struct r0_stat *out);

/*
 * The P-quantile (0 <= P <= 1) of V[0..n), n > 0, by linear interpolation
 * between order statistics (Hyndman and Fan's type 7). Reorders V: a
 * selection, not a sort, for the thousands of values of a bootstrap.
 */
double r0_quantile(double *v, size_t n, double p);

/* The P-quantile of the sorted S[0..n), n > 0, by nearest rank: S[ceil(P x n) - 1]. */
double r0_quantile_nearest_rank(const double *s, size_t n, double p);

/*
 * The P-quantile (0 < P < 1) of Student's t distribution with DF > 0
 * degrees of freedom (DF need not be whole: Welch's approximation gives
 * fractions). NAN outside those ranges.
 */
double r0_t_quantile(double p, double df);

/* P(T <= t) for Student's t with DF > 0 degrees of freedom; NAN for DF <= 0. */
double r0_t_cdf(double t, double df);

/*
 * The digamma and trigamma functions (the first and second derivatives of
 * log Gamma) for X > 0, NAN otherwise: the mean and the variance of the log
 * of a chi-square variance estimate (empirical Bayes, Smyth 2004).
 */
double r0_digamma(double x);
double r0_trigamma(double x);
/* The Y > 0 with trigamma(Y) = X, for X > 0; NAN otherwise. */
double r0_trigamma_inverse(double x);

#endif
