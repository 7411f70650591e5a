// SPDX-License-Identifier: GPL-2.0-or-later
/* A study's own noise: drift by pass, runs set aside, noise pooled by group (r0/noise.h). */
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

struct fit {
	struct r0_noise_obs *obs;
	size_t n, n_cell, n_group;
	unsigned max_pass;
	double *y, *z;              /* log(value); with the pass effect out (NAN: not a usable run) */
	size_t *by_cell, *cell_at;  /* runs sorted by cell: cell c is by_cell[cell_at[c] .. cell_at[c + 1]) */
	size_t *by_pass, *pass_at;
	double *center;             /* per cell */
	bool *spans;                /* per cell: runs in two passes or more (it shows a pass's effect) */
	double *delta;              /* per pass */
	double *sigma0;             /* per group: robust noise for judging runs */
	double *buf;
};

static bool usable(const struct fit *f, size_t i)
{
	return !isnan(f->y[i]);
}

/* Counting sort of the runs by KEY (cell or pass) into ORDER, with AT[k] the first of key k. */
static void index_by(const struct fit *f, bool by_pass, size_t keys, size_t *order, size_t *at)
{
	memset(at, 0, (keys + 1) * sizeof(*at));
	for (size_t i = 0; i < f->n; i++)
		at[(by_pass ? f->obs[i].pass : f->obs[i].cell) + 1]++;
	for (size_t k = 0; k < keys; k++)
		at[k + 1] += at[k];
	/* a second walk places each run after the runs of its key before it */
	for (size_t i = 0; i < f->n; i++) {
		size_t k = by_pass ? f->obs[i].pass : f->obs[i].cell;

		order[at[k]++] = i;
	}
	for (size_t k = keys; k > 0; k--)
		at[k] = at[k - 1];
	at[0] = 0;
}

/* The cells' centers: medians of all their usable runs (MEDIAN), else means of those not set aside. */
static void centers(struct fit *f, bool median)
{
	for (size_t c = 0; c < f->n_cell; c++) {
		size_t m = 0;
		double sum = 0;

		for (size_t k = f->cell_at[c]; k < f->cell_at[c + 1]; k++) {
			size_t i = f->by_cell[k];

			if (!usable(f, i) || (!median && f->obs[i].aside))
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

			if (!usable(f, i) || f->obs[i].aside || !f->spans[f->obs[i].cell])
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

/*
 * Sets aside, cell by cell (3 runs or more), the runs furthest below the
 * median of the cell's other runs beyond R0_NOISE_ASIDE_SIGMAS, at most a
 * third of the cell's runs.
 */
static void set_aside(struct fit *f)
{
	for (size_t i = 0; i < f->n; i++)
		f->obs[i].aside = false;
	for (size_t c = 0; c < f->n_cell; c++) {
		size_t lo = f->cell_at[c], hi = f->cell_at[c + 1], m = 0, most;

		for (size_t k = lo; k < hi; k++)
			m += usable(f, f->by_cell[k]);
		if (m < 3)
			continue;
		/* at most a third: the runs kept outnumber those set aside two to one, so a
		 * cell whose re-runs happened to be slow again cannot keep the slow ones */
		for (most = m / 3; most; most--) {
			double worst = 0;
			size_t wi = SIZE_MAX, g = 0;

			for (size_t k = lo; k < hi; k++) {
				size_t i = f->by_cell[k], o = 0;
				double dev;

				if (!usable(f, i) || f->obs[i].aside)
					continue;
				for (size_t q = lo; q < hi; q++) {
					size_t j = f->by_cell[q];

					if (j != i && usable(f, j) && !f->obs[j].aside)
						f->buf[o++] = f->z[j];
				}
				/* only a slow run: a drive is slowed by a pause far more often than
				 * sped up, and a cell of two slow runs and one right one must not
				 * set the right one aside */
				dev = (r0_median(f->buf, o) - f->z[i]) / sqrt(1 + 1.0 / (double)o);
				if (dev > worst) {
					worst = dev;
					wi = i;
					g = f->obs[i].group;
				}
			}
			if (wi == SIZE_MAX || worst <= R0_NOISE_ASIDE_SIGMAS * f->sigma0[g])
				break;
			f->obs[wi].aside = true;
		}
	}
}

/* The pooled and the moderated variances of log(run), over the runs kept. */
static void variances(struct fit *f, struct r0_noise *out)
{
	double ss_all = 0, df_all = 0;
	double *ss_c = calloc(f->n_cell ? f->n_cell : 1, sizeof(*ss_c));
	double *d_c = calloc(f->n_cell ? f->n_cell : 1, sizeof(*d_c));

	if (!ss_c || !d_c)
		goto out;
	for (size_t c = 0; c < f->n_cell; c++) {
		size_t m = 0;
		double mean = 0;

		for (size_t k = f->cell_at[c]; k < f->cell_at[c + 1]; k++) {
			size_t i = f->by_cell[k];

			if (usable(f, i) && !f->obs[i].aside) {
				mean += f->z[i];
				m++;
			}
		}
		if (m < 2)
			continue;
		mean /= (double)m;
		for (size_t k = f->cell_at[c]; k < f->cell_at[c + 1]; k++) {
			size_t i = f->by_cell[k];

			if (usable(f, i) && !f->obs[i].aside)
				ss_c[c] += (f->z[i] - mean) * (f->z[i] - mean);
		}
		d_c[c] = (double)m - 1;
	}
	for (size_t c = 0; c < f->n_cell; c++) {
		size_t g = SIZE_MAX;

		for (size_t k = f->cell_at[c]; k < f->cell_at[c + 1] && g == SIZE_MAX; k++)
			g = f->obs[f->by_cell[k]].group;
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
	for (size_t c = 0; c < f->n_cell; c++) {
		size_t g = SIZE_MAX;
		double d0;

		for (size_t k = f->cell_at[c]; k < f->cell_at[c + 1] && g == SIZE_MAX; k++)
			g = f->obs[f->by_cell[k]].group;
		if (g == SIZE_MAX)
			continue;
		d0 = out->group_df[g] < R0_NOISE_PRIOR_DF ? out->group_df[g] : R0_NOISE_PRIOR_DF;
		if (d0 + d_c[c] <= 0)
			continue;
		/* a cell far noisier than its group is not of the same noise: its own, unmoderated */
		if (d_c[c] >= 1 && ss_c[c] / d_c[c] > R0_NOISE_OWN_RATIO * out->group_var[g]) {
			out->cell_var[c] = ss_c[c] / d_c[c];
			out->cell_df[c] = d_c[c];
			continue;
		}
		out->cell_var[c] = (d0 * out->group_var[g] + ss_c[c]) / (d0 + d_c[c]);
		out->cell_df[c] = d0 + d_c[c];
	}
out:
	free(ss_c);
	free(d_c);
}

void r0_noise_free(struct r0_noise *nz)
{
	free(nz->cell_var);
	free(nz->cell_df);
	free(nz->group_var);
	free(nz->group_df);
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
	free(f->buf);
}

int r0_noise_fit(struct r0_noise_obs *obs, size_t n, size_t n_cell, size_t n_group, struct r0_noise *out)
{
	struct fit f = { .obs = obs, .n = n, .n_cell = n_cell, .n_group = n_group };
	size_t one = 1;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (obs[i].cell >= n_cell || obs[i].group >= n_group)
			return -EINVAL;
		if (obs[i].pass > f.max_pass)
			f.max_pass = obs[i].pass;
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
	f.cell_at = malloc((n_cell + 2) * sizeof(size_t));
	f.pass_at = malloc(((size_t)f.max_pass + 2) * sizeof(size_t));
	f.center = calloc(n_cell ? n_cell : one, sizeof(double));
	f.spans = calloc(n_cell ? n_cell : one, sizeof(bool));
	f.delta = calloc((size_t)f.max_pass + 1, sizeof(double));
	f.sigma0 = malloc((n_group + 1) * sizeof(double));
	f.buf = malloc((n ? n : one) * sizeof(double));
	if (!out->cell_var || !out->cell_df || !out->group_var || !out->group_df || !f.y || !f.z || !f.by_cell ||
	    !f.by_pass || !f.cell_at || !f.pass_at || !f.center || !f.spans || !f.delta || !f.sigma0 || !f.buf)
		goto out;
	for (size_t i = 0; i < n; i++) {
		obs[i].aside = false;
		f.y[i] = obs[i].value > 0 && isfinite(obs[i].value) ? log(obs[i].value) : NAN;
	}
	index_by(&f, false, n_cell, f.by_cell, f.cell_at);
	index_by(&f, true, (size_t)f.max_pass + 1, f.by_pass, f.pass_at);
	find_spans(&f);
	for (int round = 0; round < FIT_ROUNDS; round++) {
		centers(&f, round == 0);
		pass_effects(&f, round == 0);
		if (round + 1 < FIT_ROUNDS) {
			for (size_t g = 0; g < n_group; g++)
				f.sigma0[g] = NAN;
			robust_sigma(&f);
			set_aside(&f);
		}
	}
	centers(&f, false);
	variances(&f, out);
	for (size_t i = 0; i < n; i++) {
		obs[i].adjusted = usable(&f, i) ? obs[i].value * exp(-f.delta[obs[i].pass]) : obs[i].value;
		out->n_aside += obs[i].aside;
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
