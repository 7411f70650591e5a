// SPDX-License-Identifier: GPL-2.0-or-later
/* A study's own noise: drift by pass, far visits and runs judged (and kept), noise pooled by group (r0/noise.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "r0/noise.h"
#include "r0/stats.h"

/* the median of |x - y| of two normal draws is 0.6745 x sqrt(2) sigma */
#define PAIR_MAD_TO_SIGMA 0.9539
/* a pass's effect is shrunk toward 0 as if it had this many more runs at 0 */
#define PASS_SHRINK 1
/* a pass with fewer runs of cells seen elsewhere shows no effect of its own: a few
 * runs, half of them slow, would move every run of the pass */
#define PASS_MIN_RUNS 8
#define FIT_ROUNDS 10
/* a visit of fewer runs with a cell to compare is left to the run rule: its median is one run's */
#define VISIT_MIN_RUNS 3
/* fewer visits judged show no spread of their own: none is judged far whole */
#define VISIT_MIN_VISITS 8
/* fewer pairs of runs show no visit correlation */
#define RHO_MIN_PAIRS 10
#define RHO_MAX 0.95
/* a robust sd from the median absolute deviation */
#define MAD_TO_SIGMA 1.4826

struct fit {
	struct r0_noise_obs *obs;
	size_t n, n_cell, n_group, n_target;
	unsigned max_pass, max_visit;
	double *y, *z;              /* log(value); with the pass effect out (NAN: not a usable run) */
	size_t *by_cell, *cell_at;  /* runs sorted by cell: cell c is by_cell[cell_at[c] .. cell_at[c + 1]) */
	size_t *by_pass, *pass_at;
	double *center;             /* per cell */
	bool *spans;                /* per cell: runs in two passes or more (it shows a pass's effect) */
	double *delta;              /* per pass */
	double *sigma0;             /* per group: robust noise for judging runs */
	double *tfactor;            /* per target: its noise against its groups', judging runs (>= 1) */
	size_t *by_visit, *visit_at;   /* runs sorted by visit key (target x (max_visit + 1) + visit) */
	double *v_effect;           /* per visit key: its effect (NAN: not judged) */
	double *v_std;              /* per visit key: its effect in its runs' noise */
	double *v_null;             /* per visit key: v_std's sd were its runs independent */
	double *v_score;            /* per visit key: |effect| against its threshold (> 1: beyond; < 0: judged far) */
	double *pairs;              /* room for every pair of runs of one cell */
	double *dev, *ref;          /* per run: its distance from its cell's other visits; their 1 + 1 / count */
	double *buf, *buf2;
	/* while runs are judged, those judged far are out of the robust figures that judge the
	 * others; the figures the study uses keep every run (r0/noise.h) */
	bool judging;
};

static size_t n_vkeys(const struct fit *f)
{
	return f->n_target * ((size_t)f->max_visit + 1);
}

static size_t vkey(const struct fit *f, size_t i)
{
	return f->obs[i].target * ((size_t)f->max_visit + 1) + f->obs[i].visit;
}

static bool usable(const struct fit *f, size_t i)
{
	return !isnan(f->y[i]);
}

/* In the figure being made: usable, and not a run judged far while the others are judged. */
static bool in_fit(const struct fit *f, size_t i)
{
	return usable(f, i) && !(f->judging && f->obs[i].far);
}

enum key { BY_CELL, BY_PASS, BY_VISIT };

static size_t key_of(const struct fit *f, enum key by, size_t i)
{
	return by == BY_PASS ? f->obs[i].pass : by == BY_CELL ? f->obs[i].cell : vkey(f, i);
}

/* Counting sort of the runs by key into ORDER, with AT[k] the first of key k. */
static void index_by(const struct fit *f, enum key by, size_t keys, size_t *order, size_t *at)
{
	memset(at, 0, (keys + 1) * sizeof(*at));
	for (size_t i = 0; i < f->n; i++)
		at[key_of(f, by, i) + 1]++;
	for (size_t k = 0; k < keys; k++)
		at[k + 1] += at[k];
	/* a second walk places each run after the runs of its key before it */
	for (size_t i = 0; i < f->n; i++) {
		size_t k = key_of(f, by, i);

		order[at[k]++] = i;
	}
	for (size_t k = keys; k > 0; k--)
		at[k] = at[k - 1];
	at[0] = 0;
}

/* The cells' centers: medians of all their usable runs (MEDIAN), else means of those in the fit (in_fit). */
static void centers(struct fit *f, bool median)
{
	for (size_t c = 0; c < f->n_cell; c++) {
		size_t m = 0;
		double sum = 0;

		for (size_t k = f->cell_at[c]; k < f->cell_at[c + 1]; k++) {
			size_t i = f->by_cell[k];

			if (!usable(f, i) || (!median && !in_fit(f, i)))
				continue;
			f->buf[m++] = f->y[i] - f->delta[f->obs[i].pass];
			sum += f->buf[m - 1];
		}
		f->center[c] = !m ? 0 : median ? r0_median(f->buf, m) : sum / (double)m;
	}
}

/*
 * Each pass's effect: the median (MEDIAN) or mean distance of its runs
 * from their cells, over runs of cells seen in other passes too, shrunk
 * toward 0; centred so the effects' run-weighted mean is 0.
 */
static void pass_effects(struct fit *f, bool median)
{
	double total = 0;
	size_t runs = 0;

	for (unsigned p = 1; p <= f->max_pass; p++) {
		size_t m = 0;
		double sum = 0;

		for (size_t k = f->pass_at[p]; k < f->pass_at[p + 1]; k++) {
			size_t i = f->by_pass[k];

			if (!in_fit(f, i) || !f->spans[f->obs[i].cell])
				continue;
			f->buf[m++] = f->y[i] - f->center[f->obs[i].cell];
			sum += f->buf[m - 1];
		}
		f->delta[p] = m < PASS_MIN_RUNS ? 0 : (median ? r0_median(f->buf, m) : sum / (double)m) * (double)m /
						(double)(m + PASS_SHRINK);
		total += f->delta[p] * (double)m;
		runs += m;
	}
	for (unsigned p = 1; runs && p <= f->max_pass; p++)
		f->delta[p] -= total / (double)runs;
	for (size_t i = 0; i < f->n; i++)
		f->z[i] = usable(f, i) ? f->y[i] - f->delta[f->obs[i].pass] : NAN;
}

/* Which cells have runs in two passes or more. */
static void find_spans(struct fit *f)
{
	for (size_t c = 0; c < f->n_cell; c++) {
		unsigned first = 0;

		f->spans[c] = false;
		for (size_t k = f->cell_at[c]; k < f->cell_at[c + 1]; k++) {
			size_t i = f->by_cell[k];

			if (!usable(f, i) || !f->obs[i].pass)
				continue;
			if (!first)
				first = f->obs[i].pass;
			else if (f->obs[i].pass != first)
				f->spans[c] = true;
		}
	}
}

/* Each group's robust noise: the median distance of two runs of one cell, as a standard deviation. */
static void robust_sigma(struct fit *f)
{
	size_t cap = 0;
	double *d, overall;

	for (size_t c = 0; c < f->n_cell; c++) {
		size_t m = f->cell_at[c + 1] - f->cell_at[c];

		cap += m * (m - (m > 0)) / 2;
	}
	d = malloc((cap ? cap : 1) * sizeof(*d));
	for (size_t g = 0; g <= f->n_group; g++) {
		size_t m = 0;

		for (size_t c = 0; d && c < f->n_cell; c++)
			for (size_t a = f->cell_at[c]; a < f->cell_at[c + 1]; a++)
				for (size_t b = a + 1; b < f->cell_at[c + 1]; b++) {
					size_t i = f->by_cell[a], j = f->by_cell[b];

					if ((g == f->n_group || f->obs[i].group == g) && usable(f, i) && usable(f, j))
						d[m++] = fabs(f->z[i] - f->z[j]);
				}
		if (g == f->n_group) {
			overall = m ? r0_median(d, m) / PAIR_MAD_TO_SIGMA : 0;
			for (size_t k = 0; k < f->n_group; k++)
				if (isnan(f->sigma0[k]))
					f->sigma0[k] = overall;
		} else
			f->sigma0[g] = m >= 3 ? r0_median(d, m) / PAIR_MAD_TO_SIGMA : NAN;
	}
	for (size_t g = 0; g < f->n_group; g++)
		if (!(f->sigma0[g] >= R0_NOISE_FLOOR))
			f->sigma0[g] = R0_NOISE_FLOOR;
	free(d);
}

/* The target of cell C (of its first run), or SIZE_MAX for a cell of no run. */
static size_t cell_target(const struct fit *f, size_t c)
{
	return f->cell_at[c] < f->cell_at[c + 1] ? f->obs[f->by_cell[f->cell_at[c]]].target : SIZE_MAX;
}

/* Cell C's group (its runs share it); SIZE_MAX for a cell with no run. */
static size_t cell_group(const struct fit *f, size_t c)
{
	return f->cell_at[c] < f->cell_at[c + 1] ? f->obs[f->by_cell[f->cell_at[c]]].group : SIZE_MAX;
}

/*
 * Visit KEY's effect (the median of its runs' distances from the median
 * of their cells' runs in other visits, each kept in dev) into v_effect;
 * the median of those distances in their groups' noise into v_std, and
 * into v_null its sd were its runs independent; NAN when it has too few
 * runs to judge.
 */
static void visit_effect(struct fit *f, size_t key)
{
	size_t m = 0;
	unsigned visit = (unsigned)(key % ((size_t)f->max_visit + 1));
	double ref = 0;

	f->v_effect[key] = NAN;
	for (size_t k = f->visit_at[key]; k < f->visit_at[key + 1]; k++) {
		size_t i = f->by_visit[k], c = f->obs[i].cell, o = 0;

		f->dev[i] = NAN;
		if (!visit || !usable(f, i))
			continue;
		for (size_t q = f->cell_at[c]; q < f->cell_at[c + 1]; q++) {
			size_t j = f->by_cell[q];

			if (usable(f, j) && f->obs[j].visit != visit)
				f->buf2[o++] = f->z[j];
		}
		if (!o)
			continue;
		f->dev[i] = f->z[i] - r0_median(f->buf2, o);
		f->ref[i] = 1 + 1.0 / (double)o;
		f->buf[m++] = f->dev[i] / f->sigma0[f->obs[i].group];
		ref += f->ref[i];
	}
	if (m < VISIT_MIN_RUNS)
		return;
	f->v_std[key] = r0_median(f->buf, m);
	m = 0;
	for (size_t k = f->visit_at[key]; k < f->visit_at[key + 1]; k++)
		if (!isnan(f->dev[f->by_visit[k]]))
			f->buf[m++] = f->dev[f->by_visit[k]];
	f->v_effect[key] = r0_median(f->buf, m);
	/* the median of m independent runs, each against its cell's others: sqrt(pi / 2) sigma / sqrt(m) */
	f->v_null[key] = sqrt(M_PI / 2 * ref / (double)m / (double)m);
}

/*
 * Each target's noise against its groups' when judging its runs and
 * visits, at least 1: the robust spread of its runs about their visits'
 * effects (a shared shift of a visit is the visit's, not the runs'
 * noise: two slow visits of six must not make the target look noisy
 * and so lenient); without visits judged, the median over its cells (3
 * or more) of each one's median distance of two runs kept last round.
 * A noisier target judged by its quieter peers would have its ordinary
 * runs judged far and measured again for nothing; a quieter one judged by
 * its group is only judged leniently.
 */
static void target_factors(struct fit *f)
{
	for (size_t t = 0; t < f->n_target; t++) {
		size_t lo = t * ((size_t)f->max_visit + 1), hi = lo + f->max_visit + 1, m = 0, cells = 0;

		for (size_t key = lo; key < hi; key++) {
			if (isnan(f->v_effect[key]))
				continue;
			for (size_t k = f->visit_at[key]; k < f->visit_at[key + 1]; k++) {
				size_t i = f->by_visit[k];

				if (!isnan(f->dev[i]))
					f->buf[m++] = fabs(f->dev[i] / f->sigma0[f->obs[i].group] - f->v_std[key]) /
						      sqrt(f->ref[i]);
			}
		}
		if (m >= 6) {
			/* a gaussian's median absolute deviation is 0.6745 sigma */
			f->tfactor[t] = r0_median(f->buf, m) * MAD_TO_SIGMA;
			if (!(f->tfactor[t] >= 1))
				f->tfactor[t] = 1;
			continue;
		}
		for (size_t c = 0; c < f->n_cell; c++) {
			size_t np = 0;

			if (cell_target(f, c) != t)
				continue;
			for (size_t a = f->cell_at[c]; a < f->cell_at[c + 1]; a++)
				for (size_t b = a + 1; b < f->cell_at[c + 1]; b++) {
					size_t i = f->by_cell[a], j = f->by_cell[b];

					if (in_fit(f, i) && in_fit(f, j))
						f->pairs[np++] = fabs(f->z[i] - f->z[j]);
				}
			if (np >= 3)
				f->buf[cells++] = r0_median(f->pairs, np) / PAIR_MAD_TO_SIGMA /
						  f->sigma0[f->obs[f->by_cell[f->cell_at[c]]].group];
		}
		f->tfactor[t] = cells >= 3 ? r0_median(f->buf, cells) : 1;
		if (!(f->tfactor[t] >= 1))
			f->tfactor[t] = 1;
	}
}

/*
 * Judges far whole the visits whose effect, in units of their runs'
 * noise, is beyond R0_NOISE_FAR_SIGMAS robust standard deviations of
 * all visits' (either way), the furthest first, at most a third of a
 * target's visits judged.
 */
static void judge_visits(struct fit *f)
{
	size_t nk = n_vkeys(f), judged = 0;
	double med, scale;

	for (size_t key = 0; key < nk; key++) {
		f->v_score[key] = 0;
		if (isnan(f->v_effect[key]))
			continue;
		/* in the target's own noise */
		f->v_std[key] /= f->tfactor[key / ((size_t)f->max_visit + 1)];
		f->buf[judged++] = f->v_std[key];
	}
	if (judged < VISIT_MIN_VISITS)
		return;
	med = r0_median(f->buf, judged);
	for (size_t k = 0; k < judged; k++)
		f->buf[k] = fabs(f->buf[k] - med);
	scale = MAD_TO_SIGMA * r0_median(f->buf, judged);
	for (size_t key = 0; key < nk; key++) {
		if (isnan(f->v_effect[key]) || fabs(f->v_effect[key]) <= R0_NOISE_FAR_SIGMAS * R0_NOISE_FLOOR)
			continue;
		/* never below what the runs' own noise gives a visit of no shared factor: a few
		 * visits' spread can be small by chance, and only a shared factor is a visit's event */
		f->v_score[key] = fabs(f->v_std[key] - med) / (R0_NOISE_FAR_SIGMAS * fmax(scale, f->v_null[key]));
	}
	for (size_t t = 0; t < f->n_target; t++) {
		size_t lo = t * ((size_t)f->max_visit + 1), hi = lo + f->max_visit + 1, n_judged = 0, most;

		for (size_t key = lo; key < hi; key++)
			n_judged += !isnan(f->v_effect[key]);
		/* at most a third: the visits not far outnumber those judged far two to one */
		for (most = n_judged / 3; most; most--) {
			size_t worst = SIZE_MAX;

			for (size_t key = lo; key < hi; key++)
				if (f->v_score[key] > 1 && (worst == SIZE_MAX || f->v_score[key] > f->v_score[worst]))
					worst = key;
			if (worst == SIZE_MAX)
				break;
			f->v_score[worst] = -f->v_score[worst];   /* judged far: negative */
			for (size_t k = f->visit_at[worst]; k < f->visit_at[worst + 1]; k++) {
				size_t i = f->by_visit[k];

				if (usable(f, i))
					f->obs[i].far = f->obs[i].visit_far = true;
			}
		}
	}
}

/*
 * Judges far, cell by cell (3 runs or more), the runs furthest from the
 * median of the cell's other runs beyond R0_NOISE_FAR_SIGMAS, either
 * way, until a third of the cell's runs are judged far (visits' included).
 */
static void judge_runs(struct fit *f)
{
	for (size_t c = 0; c < f->n_cell; c++) {
		size_t lo = f->cell_at[c], hi = f->cell_at[c + 1], m = 0, already = 0, most;
		size_t t = cell_target(f, c);

		for (size_t k = lo; k < hi; k++) {
			m += usable(f, f->by_cell[k]);
			already += usable(f, f->by_cell[k]) && f->obs[f->by_cell[k]].far;
		}
		if (m < 3 || already >= m / 3)
			continue;
		/* at most a third: the runs not far outnumber those judged far two to one */
		for (most = m / 3 - already; most; most--) {
			double worst = 0;
			size_t wi = SIZE_MAX, g = 0;

			for (size_t k = lo; k < hi; k++) {
				size_t i = f->by_cell[k], o = 0;
				double dev;

				if (!usable(f, i) || f->obs[i].far)
					continue;
				for (size_t q = lo; q < hi; q++) {
					size_t j = f->by_cell[q];

					if (j != i && usable(f, j) && !f->obs[j].far)
						f->buf[o++] = f->z[j];
				}
				/* either way: judging only slow runs would measure a cell again only when it strayed slow */
				dev = fabs(r0_median(f->buf, o) - f->z[i]) / sqrt(1 + 1.0 / (double)o);
				if (dev > worst) {
					worst = dev;
					wi = i;
					g = f->obs[i].group;
				}
			}
			if (wi == SIZE_MAX || worst <= R0_NOISE_FAR_SIGMAS * f->sigma0[g] * f->tfactor[t])
				break;
			f->obs[wi].far = true;
		}
	}
}

static void judge_far(struct fit *f)
{
	for (size_t key = 0; key < n_vkeys(f); key++)
		visit_effect(f, key);
	target_factors(f);
	for (size_t i = 0; i < f->n; i++)
		f->obs[i].far = f->obs[i].visit_far = false;
	judge_visits(f);
	judge_runs(f);
}

/*
 * The weight the prior has earned, in degrees of freedom (Smyth 2004's
 * empirical Bayes): each cell's log(variance / prior) scatters by
 * trigamma(d/2) from sampling alone; what it scatters beyond that is how
 * far true cell variances stray from their priors, and trigamma(d0/2)
 * equal to that excess gives the prior's d0. Noise that differs by cell
 * more than the prior knows (a target noisy on one workload, heavy tails)
 * so lends less; noise that is one level lends up to R0_NOISE_PRIOR_DF.
 * The prior is the one each cell is moderated toward, quieter targets'
 * the pool's: their cells stray from it too, and it lends them less (each
 * target's own level instead lent more than the bank's runs bear,
 * docs/validation.md, "Real noise"). Fewer than R0_NOISE_EB_MIN_CELLS cells cannot show the
 * excess: then the prior weighs as much as one cell's own runs.
 */
static double prior_weight(const double *ss_c, const double *d_c, const double *prior_c, size_t n_cell)
{
	double sum = 0, sum2 = 0, sampling = 0, own_df = 0, excess, d0;
	size_t n = 0;

	for (size_t c = 0; c < n_cell; c++) {
		double z;

		if (!(d_c[c] >= 1) || !(ss_c[c] > 0) || !(prior_c[c] > 0))
			continue;
		z = log(ss_c[c] / d_c[c] / prior_c[c]) - r0_digamma(d_c[c] / 2) + log(d_c[c] / 2);
		sum += z;
		sum2 += z * z;
		sampling += r0_trigamma(d_c[c] / 2);
		own_df += d_c[c];
		n++;
	}
	if (!n)
		return R0_NOISE_PRIOR_DF;   /* no cell shows a variance: nothing to moderate */
	if (n < R0_NOISE_EB_MIN_CELLS)
		return own_df / (double)n < R0_NOISE_PRIOR_DF ? own_df / (double)n : R0_NOISE_PRIOR_DF;
	excess = (sum2 - sum * sum / (double)n) / (double)(n - 1) - sampling / (double)n;
	if (!(excess > 0))
		return R0_NOISE_PRIOR_DF;
	d0 = 2 * r0_trigamma_inverse(excess);
	return d0 < R0_NOISE_PRIOR_DF ? d0 : R0_NOISE_PRIOR_DF;
}

/* The pooled and the moderated variances of log(run), over every run (far ones too). 0 or -ENOMEM. */
static int variances(struct fit *f, struct r0_noise *out)
{
	double ss_all = 0, df_all = 0;
	double *ss_c = calloc(f->n_cell ? f->n_cell : 1, sizeof(*ss_c));
	double *d_c = calloc(f->n_cell ? f->n_cell : 1, sizeof(*d_c));
	double *t_ss = calloc(f->n_target ? f->n_target : 1, sizeof(*t_ss));
	double *t_exp = calloc(f->n_target ? f->n_target : 1, sizeof(*t_exp));
	double *t_df = calloc(f->n_target ? f->n_target : 1, sizeof(*t_df));
	double *prior_c = calloc(f->n_cell ? f->n_cell : 1, sizeof(*prior_c));
	double *d0_c = calloc(f->n_cell ? f->n_cell : 1, sizeof(*d0_c));
	int err = -ENOMEM;

	if (!ss_c || !d_c || !t_ss || !t_exp || !t_df || !prior_c || !d0_c)
		goto out;
	for (size_t c = 0; c < f->n_cell; c++) {
		size_t m = 0;
		double mean = 0;

		for (size_t k = f->cell_at[c]; k < f->cell_at[c + 1]; k++) {
			size_t i = f->by_cell[k];

			if (in_fit(f, i)) {
				mean += f->z[i];
				m++;
			}
		}
		if (m < 2)
			continue;
		mean /= (double)m;
		for (size_t k = f->cell_at[c]; k < f->cell_at[c + 1]; k++) {
			size_t i = f->by_cell[k];

			if (in_fit(f, i))
				ss_c[c] += (f->z[i] - mean) * (f->z[i] - mean);
		}
		d_c[c] = (double)m - 1;
	}
	for (size_t c = 0; c < f->n_cell; c++) {
		size_t g = cell_group(f, c);

		if (g == SIZE_MAX || !d_c[c])
			continue;
		out->group_var[g] += ss_c[c];
		out->group_df[g] += d_c[c];
		ss_all += ss_c[c];
		df_all += d_c[c];
	}
	for (size_t g = 0; g < f->n_group; g++) {
		if (out->group_df[g] > 0)
			out->group_var[g] /= out->group_df[g];
		else if (df_all > 0) {
			out->group_var[g] = ss_all / df_all;
			out->group_df[g] = df_all;
		}
	}
	/*
	 * Each target's noise factor: its cells' variances against their
	 * groups', over all its cells' df. The prior a cell is moderated
	 * toward is its group's times that factor where it is above 1, never
	 * below: a target noisier than its workloads' pool shows it on all its
	 * cells, and pooling must not lend it the quieter targets' steadiness
	 * (an interval too narrow makes false claims); one that looks quieter
	 * keeps the pool's, since its few df cannot show that as surely as the
	 * pool's many (an interval too wide costs only power). That holds
	 * whatever the noise's shape: it compares only variances.
	 */
	for (size_t c = 0; c < f->n_cell; c++) {
		size_t g = cell_group(f, c), t = cell_target(f, c);

		if (g == SIZE_MAX || !d_c[c] || !(out->group_var[g] > 0))
			continue;
		t_ss[t] += ss_c[c];
		t_exp[t] += d_c[c] * out->group_var[g];
		t_df[t] += d_c[c];
	}
	for (size_t c = 0; c < f->n_cell; c++) {
		size_t g = cell_group(f, c), t = cell_target(f, c);

		prior_c[c] = NAN;
		if (g == SIZE_MAX)
			continue;
		d0_c[c] = out->group_df[g] < R0_NOISE_PRIOR_DF ? out->group_df[g] : R0_NOISE_PRIOR_DF;
		prior_c[c] = out->group_var[g];
		if (t_exp[t] > 0 && t_ss[t] > t_exp[t]) {
			prior_c[c] *= t_ss[t] / t_exp[t];
			/* the prior is then known to the target's df, not the pool's */
			if (t_df[t] < d0_c[c])
				d0_c[c] = t_df[t];
		}
	}
	out->prior_df = prior_weight(ss_c, d_c, prior_c, f->n_cell);
	for (size_t c = 0; c < f->n_cell; c++) {
		double d0 = d0_c[c] < out->prior_df ? d0_c[c] : out->prior_df, prior = prior_c[c];

		if (isnan(prior) || d0 + d_c[c] <= 0)
			continue;
		/* a cell far noisier than its prior is not of the same noise: its own, unmoderated */
		if (d_c[c] >= 1 && ss_c[c] / d_c[c] > R0_NOISE_OWN_RATIO * prior) {
			out->cell_var[c] = ss_c[c] / d_c[c];
			out->cell_df[c] = d_c[c];
			continue;
		}
		out->cell_var[c] = (d0 * prior + ss_c[c]) / (d0 + d_c[c]);
		out->cell_df[c] = d0 + d_c[c];
	}
	err = 0;
out:
	free(ss_c);
	free(d_c);
	free(t_ss);
	free(t_exp);
	free(t_df);
	free(prior_c);
	free(d0_c);
	return err;
}

/*
 * The correlation of one visit's runs of different cells: each run's
 * residual about its cell's mean (drift out) over the cell's sd, pooled
 * over every such pair of every visit; clamped to [0, RHO_MAX], 0 with
 * fewer than RHO_MIN_PAIRS pairs. The cells' means are over the same
 * visits, so the residuals' shrinkage cancels in the ratio.
 */
static double visit_rho(struct fit *f, const struct r0_noise *out)
{
	double sxy = 0, sxx = 0, syy = 0, rho;
	size_t pairs = 0;

	for (size_t c = 0; c < f->n_cell; c++) {
		size_t kept = 0;

		for (size_t k = f->cell_at[c]; k < f->cell_at[c + 1]; k++)
			kept += in_fit(f, f->by_cell[k]);
		/* buf: each run's standardized residual; NAN: none */
		for (size_t k = f->cell_at[c]; k < f->cell_at[c + 1]; k++) {
			size_t i = f->by_cell[k];

			f->buf[i] = in_fit(f, i) && kept >= 2 && out->cell_var[c] > 0
					    ? (f->z[i] - f->center[c]) / sqrt(out->cell_var[c]) : NAN;
		}
	}
	for (size_t key = 0; key < n_vkeys(f); key++) {
		if (!(key % ((size_t)f->max_visit + 1)))
			continue;
		for (size_t a = f->visit_at[key]; a < f->visit_at[key + 1]; a++)
			for (size_t b = a + 1; b < f->visit_at[key + 1]; b++) {
				size_t i = f->by_visit[a], j = f->by_visit[b];

				if (isnan(f->buf[i]) || isnan(f->buf[j]) || f->obs[i].cell == f->obs[j].cell)
					continue;
				sxy += f->buf[i] * f->buf[j];
				sxx += f->buf[i] * f->buf[i];
				syy += f->buf[j] * f->buf[j];
				pairs++;
			}
	}
	if (pairs < RHO_MIN_PAIRS || !(sxx > 0 && syy > 0))
		return 0;
	rho = sxy / sqrt(sxx * syy);
	return rho < 0 ? 0 : rho > RHO_MAX ? RHO_MAX : rho;
}

/* The visits judged far into OUT. 0 or -ENOMEM. */
static int list_visits(const struct fit *f, struct r0_noise *out)
{
	size_t n = 0;

	for (size_t key = 0; key < n_vkeys(f); key++)
		n += f->v_score[key] < 0;
	if (!n)
		return 0;
	out->visits_far = calloc(n, sizeof(*out->visits_far));
	if (!out->visits_far)
		return -ENOMEM;
	for (size_t key = 0; key < n_vkeys(f); key++) {
		struct r0_noise_visit *v = &out->visits_far[out->n_visits_far];

		if (!(f->v_score[key] < 0))
			continue;
		v->target = key / ((size_t)f->max_visit + 1);
		v->visit = (unsigned)(key % ((size_t)f->max_visit + 1));
		v->effect = f->v_effect[key];
		for (size_t k = f->visit_at[key]; k < f->visit_at[key + 1]; k++)
			v->runs += f->obs[f->by_visit[k]].visit_far;
		out->n_visits_far++;
	}
	return 0;
}

void r0_noise_free(struct r0_noise *nz)
{
	free(nz->cell_var);
	free(nz->cell_df);
	free(nz->group_var);
	free(nz->group_df);
	free(nz->visits_far);
	memset(nz, 0, sizeof(*nz));
}

static void fit_free(struct fit *f)
{
	free(f->y);
	free(f->z);
	free(f->by_cell);
	free(f->cell_at);
	free(f->by_pass);
	free(f->pass_at);
	free(f->center);
	free(f->spans);
	free(f->delta);
	free(f->sigma0);
	free(f->tfactor);
	free(f->by_visit);
	free(f->visit_at);
	free(f->v_effect);
	free(f->v_std);
	free(f->v_null);
	free(f->v_score);
	free(f->pairs);
	free(f->buf);
	free(f->buf2);
	free(f->dev);
	free(f->ref);
}

int r0_noise_fit(struct r0_noise_obs *obs, size_t n, size_t n_cell, size_t n_group, struct r0_noise *out)
{
	struct fit f = { .obs = obs, .n = n, .n_cell = n_cell, .n_group = n_group };
	size_t one = 1, cap = 0;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (obs[i].cell >= n_cell || obs[i].group >= n_group)
			return -EINVAL;
		if (obs[i].pass > f.max_pass)
			f.max_pass = obs[i].pass;
		if (obs[i].visit > f.max_visit)
			f.max_visit = obs[i].visit;
		if (obs[i].target >= f.n_target)
			f.n_target = obs[i].target + 1;
	}
	out->n_cell = n_cell;
	out->n_group = n_group;
	out->cell_var = calloc(n_cell ? n_cell : one, sizeof(double));
	out->cell_df = calloc(n_cell ? n_cell : one, sizeof(double));
	out->group_var = calloc(n_group ? n_group : one, sizeof(double));
	out->group_df = calloc(n_group ? n_group : one, sizeof(double));
	f.y = malloc((n ? n : one) * sizeof(double));
	f.z = malloc((n ? n : one) * sizeof(double));
	f.by_cell = malloc((n ? n : one) * sizeof(size_t));
	f.by_pass = malloc((n ? n : one) * sizeof(size_t));
	f.by_visit = malloc((n ? n : one) * sizeof(size_t));
	f.cell_at = malloc((n_cell + 2) * sizeof(size_t));
	f.pass_at = malloc(((size_t)f.max_pass + 2) * sizeof(size_t));
	f.visit_at = malloc((n_vkeys(&f) + 2) * sizeof(size_t));
	f.center = calloc(n_cell ? n_cell : one, sizeof(double));
	f.spans = calloc(n_cell ? n_cell : one, sizeof(bool));
	f.delta = calloc((size_t)f.max_pass + 1, sizeof(double));
	f.sigma0 = malloc((n_group + 1) * sizeof(double));
	f.tfactor = malloc((f.n_target ? f.n_target : one) * sizeof(double));
	f.v_effect = malloc((n_vkeys(&f) ? n_vkeys(&f) : one) * sizeof(double));
	f.v_std = malloc((n_vkeys(&f) ? n_vkeys(&f) : one) * sizeof(double));
	f.v_null = malloc((n_vkeys(&f) ? n_vkeys(&f) : one) * sizeof(double));
	f.v_score = calloc(n_vkeys(&f) ? n_vkeys(&f) : one, sizeof(double));
	f.buf = malloc((n ? n : one) * sizeof(double));
	f.buf2 = malloc((n ? n : one) * sizeof(double));
	f.dev = malloc((n ? n : one) * sizeof(double));
	f.ref = malloc((n ? n : one) * sizeof(double));
	if (!out->cell_var || !out->cell_df || !out->group_var || !out->group_df || !f.y || !f.z || !f.by_cell ||
	    !f.by_pass || !f.by_visit || !f.cell_at || !f.pass_at || !f.visit_at || !f.center || !f.spans ||
	    !f.delta || !f.sigma0 || !f.tfactor || !f.v_effect || !f.v_std || !f.v_null || !f.v_score || !f.buf || !f.buf2 ||
	    !f.dev || !f.ref)
		goto out;
	for (size_t i = 0; i < n; i++) {
		obs[i].far = obs[i].visit_far = false;
		f.y[i] = obs[i].value > 0 && isfinite(obs[i].value) ? log(obs[i].value) : NAN;
	}
	for (size_t t = 0; t < f.n_target; t++)
		f.tfactor[t] = 1;
	index_by(&f, BY_CELL, n_cell, f.by_cell, f.cell_at);
	index_by(&f, BY_PASS, (size_t)f.max_pass + 1, f.by_pass, f.pass_at);
	index_by(&f, BY_VISIT, n_vkeys(&f), f.by_visit, f.visit_at);
	for (size_t c = 0; c < n_cell; c++) {
		size_t m = f.cell_at[c + 1] - f.cell_at[c];

		cap += m * (m - (m > 0)) / 2;
	}
	f.pairs = malloc((cap ? cap : one) * sizeof(double));
	if (!f.pairs)
		goto out;
	find_spans(&f);
	f.judging = true;
	for (int round = 0; round < FIT_ROUNDS; round++) {
		centers(&f, round == 0);
		pass_effects(&f, round == 0);
		if (round + 1 < FIT_ROUNDS) {
			for (size_t g = 0; g < n_group; g++)
				f.sigma0[g] = NAN;
			robust_sigma(&f);
			judge_far(&f);
		}
	}
	/* every run in the figures: a slow tail trimmed would lift a noisy target's mean */
	f.judging = false;
	centers(&f, false);
	if (variances(&f, out) || list_visits(&f, out))
		goto out;
	out->visit_rho = visit_rho(&f, out);
	for (size_t i = 0; i < n; i++) {
		obs[i].adjusted = usable(&f, i) ? obs[i].value * exp(-f.delta[obs[i].pass]) : obs[i].value;
		out->n_far += obs[i].far;
	}
	for (unsigned p = 1; p <= f.max_pass; p++) {
		out->n_pass += f.delta[p] != 0;
		if (fabs(expm1(f.delta[p])) > out->max_drift)
			out->max_drift = fabs(expm1(f.delta[p]));
	}
	err = 0;
out:
	fit_free(&f);
	if (err)
		r0_noise_free(out);
	return err;
}
