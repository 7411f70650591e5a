// SPDX-License-Identifier: GPL-2.0-or-later
/* Ratios with an interval: Welch t on the log ratio of means, or the bootstrap of medians (r0/compare.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "r0/compare.h"
#include "r0/prng.h"
#include "r0/size.h"
#include "r0/stats.h"

void r0_cmp_defaults(struct r0_cmp_opts *o)
{
	o->confidence = R0_CMP_CONFIDENCE;
	o->threshold = R0_CMP_THRESHOLD;
	o->resamples = R0_CMP_RESAMPLES;
	o->seed = R0_CMP_SEED;
	o->method = R0_CMP_WELCH_T;
	o->looks = 1;
	o->worth = 1.2;        /* R0_WORTH_SPEEDUP */
	o->drive_gain = 1.2;   /* R0_DRIVE_GAIN */
	o->by_time = false;
	o->visit_rho = 0;
}

struct r0_cmp_opts r0_cmp_opts_best_of(const struct r0_cmp_opts *o, size_t k)
{
	struct r0_cmp_opts b = *o;

	/*
	 * The best is picked for being highest, so a candidate left out is in
	 * effect one pair of all k(k-1)/2 told apart: Bonferroni over every
	 * pair, not only the k - 1 made, keeps the chance of leaving an equal
	 * one out within alpha (the simulation in test_ranking.c shows it).
	 */
	if (k > 2)
		b.confidence = 1 - (1 - b.confidence) / ((double)k * (double)(k - 1) / 2);
	return b;
}

/*
 * A number and its unit: "5", "5%", "2.5 %", "1.2x" into *V and the unit
 * character ('%', 'x' or 0). The number is r0_parse_double's (digits and
 * at most one point: no sign, blank before it, hex or exponent), as every
 * other number r0kit takes.
 */
static int parse_number(const char *s, double *v, char *unit)
{
	char num[64];
	size_t n = s ? strspn(s, "0123456789.") : 0;
	const char *end = s + n;

	if (!n || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = 0;
	if (r0_parse_double(num, 0, INFINITY, v))
		return -EINVAL;
	while (*end == ' ')
		end++;
	*unit = *end == '%' || *end == 'x' ? *end++ : 0;
	return *end ? -EINVAL : 0;
}

int r0_cmp_parse_threshold(const char *s, double *out)
{
	double v;
	char unit;

	if (parse_number(s, &v, &unit) || unit == 'x' || !(v > 0 && v < 100))
		return -EINVAL;
	*out = v / 100;
	return 0;
}

int r0_cmp_parse_gain(const char *s, double *out)
{
	double v;
	char unit;

	if (parse_number(s, &v, &unit))
		return -EINVAL;
	if (unit == '%')
		v = 1 + v / 100;
	if (!(v > 1 && v <= 10))
		return -EINVAL;
	*out = v;
	return 0;
}

/* The k-th (0-based) smallest of the sorted values picked CNT[i] times each. */
static double kth(const double *sorted, const unsigned *cnt, size_t n, size_t k)
{
	size_t seen = 0;

	for (size_t i = 0; i < n; i++) {
		seen += cnt[i];
		if (seen > k)
			return sorted[i];
	}
	return sorted[n - 1];
}

/*
 * The median of one bootstrap resample of SORTED: n indices drawn with
 * replacement and counted, so the median is an order statistic of the
 * counts (O(n), no sort per resample).
 */
static double resample_median(const double *sorted, size_t n, unsigned *cnt, struct r0_prng *r)
{
	memset(cnt, 0, n * sizeof(*cnt));
	for (size_t i = 0; i < n; i++)
		cnt[r0_prng_below(r, n)]++;
	if (n % 2)
		return kth(sorted, cnt, n, n / 2);
	return (kth(sorted, cnt, n, n / 2 - 1) + kth(sorted, cnt, n, n / 2)) / 2;
}

struct side {
	double *v;
	size_t n;
	double weight;              /* the term's */
	double *cdf;                /* odd n: P(resampled median <= v[k]); NULL for even n */
};

/*
 * For an odd n the resampled median is v[k] for the smallest k with at
 * least (n+1)/2 of the n draws at or below index k: P(median <= v[k]) =
 * P(Binomial(n, (k+1)/n) >= (n+1)/2). One uniform draw and a search
 * then stand for n draws and a count.
 */
static int median_cdf(struct side *x)
{
	size_t n = x->n, m = (n + 1) / 2;

	x->cdf = malloc(n * sizeof(*x->cdf));
	if (!x->cdf)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		double p = (double)(k + 1) / (double)n, tail = 0;

		for (size_t j = m; j <= n; j++) {
			double lc = lgamma((double)n + 1) - lgamma((double)j + 1) - lgamma((double)(n - j) + 1);

			tail += p >= 1 ? (j == n) : exp(lc + (double)j * log(p) + (double)(n - j) * log1p(-p));
		}
		x->cdf[k] = tail;
	}
	x->cdf[n - 1] = 1;
	return 0;
}

static double draw_median(const struct side *x, unsigned *cnt, struct r0_prng *r)
{
	double u;
	size_t k = 0;

	if (!x->cdf)
		return resample_median(x->v, x->n, cnt, r);
	u = (double)(r0_prng_next(r) >> 11) * 0x1p-53;
	while (k + 1 < x->n && x->cdf[k] <= u)
		k++;
	return x->v[k];
}

static bool usable(const struct r0_cmp_term *t)
{
	return t->na && t->nb && t->weight > 0;
}

static void mean_var(const double *v, size_t n, double *mean, double *var)
{
	double m = 0, q = 0;

	for (size_t i = 0; i < n; i++)
		m += v[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		q += (v[i] - m) * (v[i] - m);
	*mean = m;
	*var = n > 1 ? q / (double)(n - 1) : 0;
}

/*
 * One term's share of a side's sum: as rates w x mean, as time w / mean
 * (the time its work takes; r0_cmp_opts.by_time).
 */
static double part(double weight, double mean, bool by_time)
{
	return by_time ? weight / mean : weight * mean;
}

/*
 * The point ratio of means, A / B as rates, B's time / A's as time
 * (alone: an indicative comparison, no interval). *SUM_A, *SUM_B: each
 * side's sum of parts.
 */
static void welch_point(const struct r0_cmp_term *t, size_t n, bool by_time, struct r0_cmp *out, double *sum_a,
			double *sum_b)
{
	double A = 0, B = 0, m, v;

	for (size_t i = 0; i < n; i++) {
		if (!usable(&t[i]))
			continue;
		mean_var(t[i].a, t[i].na, &m, &v);
		A += part(t[i].weight, m, by_time);
		mean_var(t[i].b, t[i].nb, &m, &v);
		B += part(t[i].weight, m, by_time);
	}
	out->ratio = by_time ? B / A : A / B;
	out->lo = out->hi = out->ratio;
	*sum_a = A;
	*sum_b = B;
}

/* How many pairs of runs, one of X's and one of Y's, were measured in the same visit (pass). */
static size_t shared_visits(const unsigned *px, size_t nx, const unsigned *py, size_t ny)
{
	size_t pairs = 0;

	if (!px || !py)
		return 0;
	for (size_t k = 0; k < nx; k++)
		for (size_t l = 0; px[k] && l < ny; l++)
			pairs += px[k] == py[l];
	return pairs;
}

/* One side of a Welch interval: each term's share of the side and its run noise. */
struct welch_side {
	double share;               /* d log(side) / d log(mean): the term's part of the side */
	double rel_var;             /* variance of one run, relative (of log(run)) */
	double df;
	size_t n;
	const unsigned *pass;
};

/* A term's own part of var(log side): share^2 x var(log run) / runs. */
static double term_var(const struct welch_side *x)
{
	return x->share * x->share * x->rel_var / (double)x->n;
}

/*
 * var(log side) of N terms, the runs of one visit correlated by RHO
 * (r0_cmp_opts.visit_rho): sum share_i share_j cov(log mean_i, log mean_j),
 * the covariance of two terms' means rho x sd_i x sd_j x (runs measured in
 * the same visit) / (n_i n_j). *DIAG: the independent part alone.
 */
static double side_var(const struct welch_side *s, size_t n, double rho, double *diag)
{
	double v = 0;

	*diag = 0;
	for (size_t i = 0; i < n; i++) {
		*diag += term_var(&s[i]);
		for (size_t j = i + 1; rho > 0 && j < n; j++) {
			size_t pairs = shared_visits(s[i].pass, s[i].n, s[j].pass, s[j].n);

			if (pairs)
				v += 2 * rho * s[i].share * s[j].share * sqrt(s[i].rel_var * s[j].rel_var) *
				     (double)pairs / ((double)s[i].n * (double)s[j].n);
		}
	}
	return v + *diag;
}

/*
 * A side's part of Welch-Satterthwaite's denominator: sum C_i^2 / df_i over
 * its terms, C_i a term's part of the variance, and for two terms measured in the same
 * visits the covariance of their variance estimates: those of runs
 * correlated by RHO covary by rho^2 (2 rho^2 s_i^2 s_j^2 / df for normal
 * runs), so workloads of one visit count for fewer independent degrees of
 * freedom than their sum, and by one visit's at rho = 1.
 */
static double side_dfden(const struct welch_side *s, size_t n, double rho)
{
	double den = 0;

	for (size_t i = 0; i < n; i++) {
		double ci = term_var(&s[i]);

		if (!(ci > 0))
			continue;
		den += ci * ci / s[i].df;
		for (size_t j = i + 1; rho > 0 && j < n; j++) {
			double cj = term_var(&s[j]);
			size_t pairs = shared_visits(s[i].pass, s[i].n, s[j].pass, s[j].n);

			if (pairs && cj > 0)
				den += 2 * rho * rho * ci * cj * (double)pairs / sqrt((double)s[i].n * (double)s[j].n) /
				       sqrt(s[i].df * s[j].df);
		}
	}
	return den;
}

/*
 * A side's degrees of freedom from its terms' independent parts DIAG
 * (side_var's): Welch-Satterthwaite's over its terms (side_dfden), never
 * more than its best-known term's. Its terms share what their variances
 * are moderated toward (one pool per workload times one target's noise
 * factor, r0/noise.h) and their visits, so an error in those is every
 * term's at once: the sum is known no better than one term. Counted as
 * independent, a mix of 13 workloads on 3 visits read as dozens of
 * degrees of freedom, and equal choices were called losers
 * (docs/validation.md, "Real noise").
 */
static double side_df(const struct welch_side *s, size_t n, double rho, double diag)
{
	double den = side_dfden(s, n, rho), best = 0, df;

	for (size_t i = 0; i < n; i++)
		if (s[i].df > best)
			best = s[i].df;
	if (!(den > 0))
		return 0;
	/* the correlated part scales every term alike: it cancels in diag^2 / den */
	df = diag * diag / den;
	return df < best ? df : best;
}

/* A side's part of Welch-Satterthwaite's denominator, VAR^2 / DF; 0 with no variance. */
static double side_share(double var, double df)
{
	return var > 0 && df > 0 ? var * var / df : 0;
}

/*
 * Welch, by the delta method on the log of each side's sum. As rates a
 * side is A = sum(w mean(a)) and a term's share of it w mean(a) / A; as
 * time A = sum(w / mean(a)) and the share (w / mean(a)) / A, the part of
 * the time the workload takes (Amdahl's law: the slow part weighs). Then
 * var(log ratio) = var(log A) + var(log B), each side's terms correlated
 * within a visit (side_var), and Welch-Satterthwaite gives the degrees of
 * freedom from each term's own (n - 1), fewer where they share visits,
 * at most the best-known term's (side_df). A side whose noise is known
 * from the whole study (var_a, var_b: of log(run)) has that variance and
 * its degrees of freedom. The interval is ratio x exp(+-t x se).
 */
static int welch_interval(const struct r0_cmp_term *t, size_t n, const struct r0_cmp_opts *o, double conf,
			  struct r0_cmp *out)
{
	struct welch_side *sa = calloc(n ? n : 1, sizeof(*sa)), *sb = calloc(n ? n : 1, sizeof(*sb));
	double A, B, v = 0, dfden = 0, half, va_all, vb_all, da, db;
	size_t u = 0;

	if (!sa || !sb) {
		free(sa);
		free(sb);
		return -ENOMEM;
	}
	welch_point(t, n, o->by_time, out, &A, &B);
	/* nothing moved on A's side: no log, and no interval needed */
	if (!(A > 0) || !isfinite(A))
		goto out;
	for (size_t i = 0; i < n; i++) {
		double ma, va, mb, vb;

		if (!usable(&t[i]))
			continue;
		mean_var(t[i].a, t[i].na, &ma, &va);
		mean_var(t[i].b, t[i].nb, &mb, &vb);
		sa[u] = (struct welch_side){ part(t[i].weight, ma, o->by_time) / A, ma > 0 ? va / (ma * ma) : 0,
					     (double)t[i].na - 1, t[i].na, t[i].pass_a };
		sb[u] = (struct welch_side){ part(t[i].weight, mb, o->by_time) / B, mb > 0 ? vb / (mb * mb) : 0,
					     (double)t[i].nb - 1, t[i].nb, t[i].pass_b };
		if (t[i].var_a > 0 && t[i].df_a > 0) {
			sa[u].rel_var = t[i].var_a;
			sa[u].df = t[i].df_a;
		}
		if (t[i].var_b > 0 && t[i].df_b > 0) {
			sb[u].rel_var = t[i].var_b;
			sb[u].df = t[i].df_b;
		}
		u++;
	}
	va_all = side_var(sa, u, o->visit_rho, &da);
	vb_all = side_var(sb, u, o->visit_rho, &db);
	v = va_all + vb_all;
	dfden = side_share(va_all, side_df(sa, u, o->visit_rho, da)) + side_share(vb_all, side_df(sb, u, o->visit_rho, db));
	if (!(v > 0) || !(dfden > 0))   /* identical repeats on both sides: the point is all there is */
		goto out;
	out->se = sqrt(v);
	out->df = v * v / dfden;
	half = r0_t_quantile(1 - (1 - conf) / 2, out->df) * out->se;
	out->lo = out->ratio * exp(-half);
	out->hi = out->ratio * exp(half);
out:
	free(sa);
	free(sb);
	return 0;
}

double r0_cmp_p_against(const struct r0_cmp *c, double bar, unsigned looks)
{
	double p;

	if (!(c->se > 0) || !(c->df > 0) || !(c->ratio > 0) || !(bar > 0))
		return 1;
	p = 2 * (1 - r0_t_cdf(fabs(log(c->ratio / bar)) / c->se, c->df)) * (looks > 1 ? looks : 1);
	return p < 1 ? p : 1;
}

double r0_cmp_p_beyond(const struct r0_cmp *c, double bar, unsigned looks)
{
	double p;

	if (!(c->se > 0) || !(c->df > 0) || !(c->ratio > 0) || !(bar > 0))
		return 1;
	p = (1 - r0_t_cdf(fabs(log(c->ratio / bar)) / c->se, c->df)) * (looks > 1 ? looks : 1);
	return p < 1 ? p : 1;
}

static int cmp_p(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

double r0_cmp_bh_level(const double *p, size_t n, double q)
{
	double *s, level;

	if (!n)
		return 1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return q / (double)n;   /* Bonferroni: never more than BH allows */
	memcpy(s, p, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_p);
	level = q / (double)n;
	for (size_t k = n; k > 0; k--)
		if (s[k - 1] <= q * (double)k / (double)n) {
			level = q * (double)k / (double)n;
			break;
		}
	free(s);
	return level;
}

/* The bootstrap of medians: each side's repeats resampled, the ratio's percentiles. */
static int bootstrap_interval(const struct r0_cmp_term *t, size_t n, const struct r0_cmp_opts *o,
			      double conf, struct r0_cmp *out)
{
	struct side *s = calloc(2 * (n ? n : 1), sizeof(*s));
	double *boot = NULL, num = 0, den = 0;
	unsigned *cnt = NULL;
	size_t used = 0, maxn = 1;
	struct r0_prng rng;
	int err = -ENOMEM;

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const double *src[2] = { t[i].a, t[i].b };
		size_t cnt_n[2] = { t[i].na, t[i].nb };

		if (!usable(&t[i]))
			continue;
		for (int k = 0; k < 2; k++) {
			struct side *x = &s[2 * used + (size_t)k];

			x->v = malloc(cnt_n[k] * sizeof(*x->v));
			if (!x->v)
				goto out;
			memcpy(x->v, src[k], cnt_n[k] * sizeof(*x->v));
			x->n = cnt_n[k];
			x->weight = t[i].weight;
			r0_sort_doubles(x->v, x->n);
			if (x->n % 2 && median_cdf(x))
				goto out;
			if (x->n > maxn)
				maxn = x->n;
		}
		num += part(t[i].weight, r0_median_sorted(s[2 * used].v, s[2 * used].n), o->by_time);
		den += part(t[i].weight, r0_median_sorted(s[2 * used + 1].v, s[2 * used + 1].n), o->by_time);
		used++;
	}
	err = -EDOM;
	if (!(den > 0) || !(num > 0 || !o->by_time))
		goto out;
	out->ratio = o->by_time ? den / num : num / den;
	out->lo = out->hi = out->ratio;
	err = 0;
	if (out->indicative)
		goto out;
	err = -ENOMEM;
	boot = malloc(o->resamples * sizeof(*boot));
	cnt = malloc(maxn * sizeof(*cnt));
	if (!boot || !cnt)
		goto out;
	r0_prng_seed(&rng, o->seed);
	for (unsigned r = 0; r < o->resamples; r++) {
		double sa = 0, sb = 0;

		for (size_t u = 0; u < used; u++) {
			sa += part(s[2 * u].weight, draw_median(&s[2 * u], cnt, &rng), o->by_time);
			sb += part(s[2 * u + 1].weight, draw_median(&s[2 * u + 1], cnt, &rng), o->by_time);
		}
		if (o->by_time)
			boot[r] = sa > 0 && isfinite(sa) ? sb / sa : 0;
		else
			boot[r] = sb > 0 ? sa / sb : INFINITY;
	}
	out->lo = r0_quantile(boot, o->resamples, (1 - conf) / 2);
	out->hi = r0_quantile(boot, o->resamples, 1 - (1 - conf) / 2);
	err = 0;
out:
	for (size_t i = 0; i < 2 * (n ? n : 1); i++) {
		free(s[i].v);
		free(s[i].cdf);
	}
	free(s);
	free(boot);
	free(cnt);
	return err;
}

int r0_compare(const struct r0_cmp_term *t, size_t n, const struct r0_cmp_opts *o, struct r0_cmp *out)
{
	struct r0_cmp_opts def;
	double conf, den = 0, band;
	size_t used = 0;
	bool known = true;          /* every side's noise known from the study (r0/noise.h) */
	int err = 0;

	if (!o) {
		r0_cmp_defaults(&def);
		o = &def;
	}
	memset(out, 0, sizeof(*out));
	if (!(o->confidence > 0 && o->confidence < 1) || !(o->threshold >= 0) || o->resamples < 100 ||
	    (o->method != R0_CMP_WELCH_T && o->method != R0_CMP_BOOTSTRAP))
		return -EINVAL;
	/* each look at the data spends its share of the error rate */
	conf = 1 - (1 - o->confidence) / (o->looks > 1 ? (double)o->looks : 1);
	out->min_n = UINT32_MAX;
	for (size_t i = 0; i < n; i++) {
		double m = 0;

		if (!usable(&t[i]))
			continue;
		known &= t[i].var_a > 0 && t[i].var_b > 0;
		if (t[i].na < out->min_n)
			out->min_n = (unsigned)t[i].na;
		if (t[i].nb < out->min_n)
			out->min_n = (unsigned)t[i].nb;
		for (size_t k = 0; k < t[i].nb; k++)
			m += t[i].b[k];
		/* as time, every term of B must have moved: a zero rate is no time */
		den = o->by_time && !(m > 0) ? -1 : den < 0 ? den : den + t[i].weight * m;
		used++;
	}
	if (!used)
		return -EINVAL;
	if (!(den > 0)) {
		memset(out, 0, sizeof(*out));
		return -EDOM;
	}
	out->indicative = out->min_n < R0_CMP_MIN_REPEATS && !(known && o->method == R0_CMP_WELCH_T);
	if (o->method == R0_CMP_BOOTSTRAP)
		err = bootstrap_interval(t, n, o, conf, out);
	else if (out->indicative) {
		double A, B;

		welch_point(t, n, o->by_time, out, &A, &B);
	} else
		err = welch_interval(t, n, o, conf, out);
	if (err) {
		memset(out, 0, sizeof(*out));
		return err;
	}
	/* a practical difference, symmetric in the ratio: beyond 1+t either way */
	if (out->ratio > 1 + o->threshold && (out->indicative || out->lo > 1))
		out->sign = 1;
	else if (out->ratio * (1 + o->threshold) < 1 && (out->indicative || out->hi < 1))
		out->sign = -1;
	out->beyond_noise = out->sign && !out->indicative;
	out->p = r0_cmp_p_against(out, 1, o->looks);
	band = 1 + o->threshold;
	out->decided = !out->indicative && (out->sign || (out->lo * band >= 1 && out->hi <= band));
	return 0;
}

int r0_compare_one(const double *a, size_t na, const double *b, size_t nb, const struct r0_cmp_opts *o,
		   struct r0_cmp *out)
{
	struct r0_cmp_term t = { .a = a, .na = na, .b = b, .nb = nb, .weight = 1 };

	return r0_compare(&t, 1, o, out);
}
