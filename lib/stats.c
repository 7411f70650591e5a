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
