// SPDX-License-Identifier: GPL-2.0-or-later
/* Medians, summaries and quantiles of doubles (r0/stats.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "r0/stats.h"

int r0_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void r0_sort_doubles(double *v, size_t n)
{
	if (n)   /* V may be NULL then, which qsort may not be given */
		qsort(v, n, sizeof(*v), r0_cmp_double);
}

double r0_median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double r0_median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)   /* no median without memory: the middle value as given */
		return v[n / 2];
	memcpy(s, v, n * sizeof(*s));
	r0_sort_doubles(s, n);
	m = r0_median_sorted(s, n);
	free(s);
	return m;
}

void r0_stat_of(const double *v, size_t n, struct r0_stat *out)
{
	double *s;

	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	s = malloc(n * sizeof(*s));
	if (!s) {   /* no median without memory: fall back on the first value */
		out->med = out->min = out->max = v[0];
		out->n = 1;
		return;
	}
	memcpy(s, v, n * sizeof(*s));
	r0_sort_doubles(s, n);
	out->min = s[0];
	out->max = s[n - 1];
	out->med = r0_median_sorted(s, n);
	out->n = (unsigned)n;
	free(s);
}

/* Puts the k-th smallest of V[0..n) at V[k], smaller ones before it, larger after (quickselect). */
static void select_kth(double *v, size_t n, size_t k)
{
	long lo = 0, hi = (long)n - 1, kk = (long)k;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2], t;
		long i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			return;
	}
}

double r0_quantile(double *v, size_t n, double p)
{
	double h = p * (double)(n - 1), next;
	size_t i = (size_t)h;

	select_kth(v, n, i);
	if (i + 1 >= n)
		return v[i];
	next = v[i + 1];
	for (size_t k = i + 2; k < n; k++)
		if (v[k] < next)
			next = v[k];
	return v[i] + (h - (double)i) * (next - v[i]);
}

double r0_quantile_nearest_rank(const double *s, size_t n, double p)
{
	return s[(size_t)ceil(p * (double)n) - 1];
}

/*
 * The regularized incomplete beta function I_x(a, b) by its continued
 * fraction (modified Lentz), in the half of [0, 1] where it converges
 * fast; the other half by the symmetry I_x(a, b) = 1 - I_{1-x}(b, a).
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2)), del;

		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(T <= t) for Student's t with DF degrees of freedom, t >= 0. */
static double t_cdf_upper_half(double t, double df)
{
	return 1 - 0.5 * ibeta(df / 2, 0.5, df / (df + t * t));
}

double r0_t_cdf(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	return t >= 0 ? t_cdf_upper_half(t, df) : 1 - t_cdf_upper_half(-t, df);
}

double r0_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -r0_t_quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	while (t_cdf_upper_half(hi, df) < p && hi < 1e12)
		hi *= 2;
	/* bisection: the CDF is monotone, and 100 halvings reach double precision */
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (t_cdf_upper_half(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* recurrence up to x >= 10, then the asymptotic series (Abramowitz and Stegun 6.3.18, 6.4.12) */
double r0_digamma(double x)
{
	double r = 0, f;

	if (!(x > 0))
		return NAN;
	for (; x < 10; x++)
		r -= 1 / x;
	f = 1 / (x * x);
	return r + log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

double r0_trigamma(double x)
{
	double r = 0, f;

	if (!(x > 0))
		return NAN;
	for (; x < 10; x++)
		r += 1 / (x * x);
	f = 1 / (x * x);
	return r + 1 / x + f / 2 + f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f / 30)));
}

double r0_trigamma_inverse(double x)
{
	double lo = -40, hi = 40;   /* log y: trigamma falls from e^80 to e^-40 over it */

	if (!(x > 0))
		return NAN;
	/* bisection on log y: trigamma is decreasing on (0, inf) */
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (r0_trigamma(exp(mid)) > x)
			lo = mid;
		else
			hi = mid;
	}
	return exp((lo + hi) / 2);
}
