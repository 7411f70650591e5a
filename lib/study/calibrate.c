// SPDX-License-Identifier: GPL-2.0-or-later
/* A study's own noise, and an A/A calibration's false differences (r0/calibrate.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/analysis.h"
#include "r0/calibrate.h"
#include "r0/noise.h"
#include "r0/size.h"
#include "strbuf.h"

char r0_calib_letter(unsigned copy)
{
	return copy >= 1 && copy <= R0_CALIB_MAX_COPIES ? (char)('A' + copy - 1) : '?';
}

bool r0_calib_is_calibration(const struct r0_run_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->recs[i].copy)
			return true;
	return false;
}

int r0_calib_map(const struct r0_run_set *set, struct r0_run_set *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < set->n; i++) {
		struct r0_run r = set->recs[i];

		if (r.copy && r.copy <= R0_CALIB_MAX_COPIES) {
			r.chunk_bytes = R0_CALIB_SYNTH_CHUNK(r.copy);
			r.copy = 0;
		}
		if (r0_run_set_add(out, &r)) {
			r0_run_set_free(out);
			return -ENOMEM;
		}
	}
	return 0;
}

/* --- the noise of a study's runs ------------------------------------- */

struct run {
	size_t rec, target, cell;
	unsigned visit;             /* the pass, else 1000000 + repeat */
	double r;                   /* log residual about the cell's mean, drift out */
	double s;                   /* standardized; NAN: not */
};

static bool usable(const struct r0_run *r)
{
	return !r->predicted && !r->errors && r->bytes_per_s > 0 && isfinite(r->bytes_per_s);
}

static void target_name(const struct r0_noise_target *t, char *buf, size_t len)
{
	char ck[16];

	if (t->copy)
		snprintf(buf, len, "copy %c", r0_calib_letter(t->copy));
	else if (t->layer == R0_LAYER_RAW)
		snprintf(buf, len, "raw");
	else {
		r0_format_size(t->chunk_bytes, ck, sizeof(ck));
		snprintf(buf, len, "%s %u x %s", r0_layer_name(t->layer), t->n_members, ck);
	}
}

static size_t target_of(struct r0_noise_diag *d, const struct r0_run *r)
{
	uint32_t chunk = r->layer == R0_LAYER_RAW ? 0 : r->chunk_bytes;
	struct r0_noise_target *t;

	for (size_t i = 0; i < d->n_target; i++) {
		t = &d->target[i];
		if (t->layer == r->layer && t->chunk_bytes == chunk && t->n_members == r->n_members && t->copy == r->copy)
			return i;
	}
	if (d->n_target == R0_NOISE_MAX_TARGETS)
		return SIZE_MAX;
	t = &d->target[d->n_target];
	*t = (struct r0_noise_target){ .layer = r->layer, .chunk_bytes = chunk, .n_members = r->n_members,
				       .copy = r->copy };
	target_name(t, t->name, sizeof(t->name));
	return d->n_target++;
}

/* "2.1 %", "14 %", "20.1 %" */
static const char *pct(double share, char *buf, size_t len)
{
	double p = share * 100;

	/* a whole figure as one ("8 %"), else one decimal: a bound such as 20.1 % must not read as
	 * the 20 % a figure above it rounds to */
	snprintf(buf, len, fabs(p - round(p)) >= 0.05 ? "%.1f %%" : "%.0f %%", p);
	return buf;
}

static void say(struct r0_noise_diag *d)
{
	char a[16], b[16], over[256] = "";

	if (!d->measured) {
		snprintf(d->figures, sizeof(d->figures), "not measured: no target was visited twice with the same cells");
		snprintf(d->sentence, sizeof(d->sentence),
			 "This study has too few passes to measure your machine's noise (a target visited %u times or "
			 "more): run r0sweep --calibrate to measure it", R0_CALIB_MIN_PASSES);
		return;
	}
	snprintf(d->figures, sizeof(d->figures), "visit sd %s", pct(d->visit_sd, a, sizeof(a)));
	if (d->n_target <= 6) {
		size_t k = 0;

		for (size_t i = 0; i < d->n_target; i++)
			if (d->target[i].visits >= 2)
				r0_strbuf_cat(d->figures, sizeof(d->figures), "%s%s %s", k++ ? ", " : " (",
					      d->target[i].name, pct(d->target[i].visit_sd, a, sizeof(a)));
		if (k)
			r0_strbuf_cat(d->figures, sizeof(d->figures), ")");
	}
	r0_strbuf_cat(d->figures, sizeof(d->figures), ", correlation within a visit %.2f, kurtosis %.1f (a normal is 3), "
		      "drift %s, run noise up to %s", d->visit_rho, d->kurtosis, pct(d->max_drift, a, sizeof(a)),
		      pct(d->run_noise_max, b, sizeof(b)));
	if (d->visit_sd > R0_VALID_VISIT_SD)
		r0_strbuf_cat(over, sizeof(over), "%svisit sd %s, above %s", over[0] ? "; " : "",
			      pct(d->visit_sd, a, sizeof(a)), pct(R0_VALID_VISIT_SD, b, sizeof(b)));
	if (d->run_noise_max > R0_VALID_RUN_NOISE)
		r0_strbuf_cat(over, sizeof(over), "%srun noise %s, above %s", over[0] ? "; " : "",
			      pct(d->run_noise_max, a, sizeof(a)), pct(R0_VALID_RUN_NOISE, b, sizeof(b)));
	if (d->visit_rho > R0_VALID_VISIT_RHO)
		r0_strbuf_cat(over, sizeof(over), "%scorrelation %.2f, above %.2f", over[0] ? "; " : "", d->visit_rho,
			      R0_VALID_VISIT_RHO);
	d->within = !over[0];
	/* the visit sd alone: the bound r0_analyse_machine withholds every claim by, so the sentence
	 * and the verdict agree; a run's own noise is what the intervals measure */
	d->honest = d->visit_sd <= R0_HONEST_VISIT_SD;
	if (d->within)
		snprintf(d->sentence, sizeof(d->sentence),
			 "Your machine's noise is within what the 30-minute study was validated for (visit sd %s, "
			 "correlation %.2f)", pct(d->visit_sd, a, sizeof(a)), d->visit_rho);
	else if (d->honest)
		snprintf(d->sentence, sizeof(d->sentence),
			 "Your machine is noisier than where the 30-minute study was shown to find a true 1.3x (%s): "
			 "its claims keep their error rates at the truths validated, but it will often say likely "
			 "or could not tell where a gain is "
			 "real. A quieter host helps most; a larger --budget keeps the error rates but shows a real "
			 "gain only a little more often; a larger --max-repeats shows it more often and makes false "
			 "claims more often too (docs/validation.md)", over);
	else
		snprintf(d->sentence, sizeof(d->sentence),
			 "Your machine is noisier than any noise the study was validated on (%s; validated up to "
			 "visit sd %s): stop other work on the host, try longer cells (--runtime) and calibrate "
			 "again; at this noise a study makes no claim, whatever its repeats", over, pct(R0_HONEST_VISIT_SD, b, sizeof(b)));
}

/* Residuals, visit effects, correlation and tails over RUNS[0..n) with the fit's NZ. */
static void measure(struct r0_noise_diag *d, struct run *runs, size_t n, size_t n_cell, const struct r0_noise *nz)
{
	double *sum = calloc(n_cell ? n_cell : 1, sizeof(*sum));
	size_t *cnt = calloc(n_cell ? n_cell : 1, sizeof(*cnt));
	double ss_t[R0_NOISE_MAX_TARGETS] = { 0 }, var_t[R0_NOISE_MAX_TARGETS] = { 0 };
	unsigned cells_t[R0_NOISE_MAX_TARGETS] = { 0 };
	double ss_all = 0, df_all = 0, m2 = 0, m4 = 0, xy = 0, sq = 0;
	size_t ns = 0;

	if (!sum || !cnt)
		goto out;
	for (size_t i = 0; i < n; i++) {
		sum[runs[i].cell] += runs[i].r;
		cnt[runs[i].cell]++;
	}
	for (size_t c = 0; c < n_cell; c++) {
		size_t t = SIZE_MAX;

		for (size_t i = 0; i < n && t == SIZE_MAX; i++)
			if (runs[i].cell == c)
				t = runs[i].target;
		if (t != SIZE_MAX && nz->cell_var[c] > 0 && cnt[c] >= 2) {
			var_t[t] += nz->cell_var[c];
			cells_t[t]++;
		}
	}
	for (size_t t = 0; t < d->n_target; t++)
		if (cells_t[t])
			d->target[t].run_noise = sqrt(var_t[t] / cells_t[t]);
	/*
	 * each cell's runs about its mean, standardized by its target's run
	 * noise: a cell's own variance holds its far runs (r0/noise.h keeps
	 * them), and a run measured by a scale that rests on itself shows no tail
	 */
	for (size_t i = 0; i < n; i++) {
		size_t c = runs[i].cell, m = cnt[c];
		double noise = d->target[runs[i].target].run_noise;

		runs[i].r -= sum[c] / (double)m;
		runs[i].s = NAN;
		if (m < 2)
			continue;
		if (noise > 0) {
			runs[i].s = runs[i].r * sqrt((double)m / (double)(m - 1)) / noise;
			m2 += runs[i].s * runs[i].s;
			m4 += runs[i].s * runs[i].s * runs[i].s * runs[i].s;
			ns++;
		}
		d->n_runs++;
	}
	/* runs come sorted by target and visit: each block one visit */
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		double e = 0;
		size_t m = 0;

		for (hi = lo; hi < n && runs[hi].target == runs[lo].target && runs[hi].visit == runs[lo].visit; hi++)
			if (cnt[runs[hi].cell] >= 2) {
				e += runs[hi].r;
				m++;
			}
		if (!m)
			continue;
		e /= (double)m;
		ss_t[runs[lo].target] += e * e;
		d->target[runs[lo].target].visits++;
		d->n_visits++;
		for (size_t i = lo; i < hi; i++)
			for (size_t j = i + 1; j < hi; j++) {
				const struct run *x = &runs[i], *y = &runs[j];

				if (isnan(x->s) || isnan(y->s) || x->cell == y->cell)
					continue;
				xy += x->s * y->s;
				sq += (x->s * x->s + y->s * y->s) / 2;
				d->rho_pairs++;
			}
	}
	for (size_t t = 0; t < d->n_target; t++) {
		struct r0_noise_target *x = &d->target[t];

		if (x->visits >= 2) {
			x->visit_sd = sqrt(ss_t[t] / (double)(x->visits - 1));
			ss_all += ss_t[t];
			df_all += (double)(x->visits - 1);
		}
		if (x->run_noise > d->run_noise_max)
			d->run_noise_max = x->run_noise;
	}
	d->measured = df_all > 0 && ns >= 4;
	d->visit_sd = df_all > 0 ? sqrt(ss_all / df_all) : 0;
	d->visit_rho = sq > 0 ? xy / sq : 0;
	d->kurtosis = m2 > 0 ? m4 / (double)ns / ((m2 / (double)ns) * (m2 / (double)ns)) : 0;
out:
	free(sum);
	free(cnt);
}

/* Targets in the study's order: the raw drive, then by layer, members, chunk and copy. */
static int cmp_target(const void *pa, const void *pb)
{
	const struct r0_noise_target *a = pa, *b = pb;

	if (a->layer != b->layer)
		return a->layer < b->layer ? -1 : 1;
	if (a->n_members != b->n_members)
		return a->n_members < b->n_members ? -1 : 1;
	if (a->chunk_bytes != b->chunk_bytes)
		return a->chunk_bytes < b->chunk_bytes ? -1 : 1;
	return a->copy < b->copy ? -1 : a->copy > b->copy;
}

static int cmp_run(const void *pa, const void *pb)
{
	const struct run *a = pa, *b = pb;

	if (a->target != b->target)
		return a->target < b->target ? -1 : 1;
	if (a->visit != b->visit)
		return a->visit < b->visit ? -1 : 1;
	return a->rec < b->rec ? -1 : a->rec > b->rec;
}

int r0_noise_diag(const struct r0_run_set *set, struct r0_noise_diag *out)
{
	struct run *runs = calloc(set->n ? set->n : 1, sizeof(*runs));
	struct r0_noise_obs *obs = calloc(set->n ? set->n : 1, sizeof(*obs));
	size_t *cell_t = calloc(set->n ? set->n : 1, sizeof(*cell_t));   /* per cell: target, first record */
	size_t *cell_r = calloc(set->n ? set->n : 1, sizeof(*cell_r));
	size_t *wl_r = calloc(set->n ? set->n : 1, sizeof(*wl_r));       /* per workload: a record */
	size_t n = 0, n_cell = 0, n_wl = 0;
	struct r0_noise nz = { 0 };
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!runs || !obs || !cell_t || !cell_r || !wl_r)
		goto out;
	for (size_t i = 0; i < set->n; i++) {
		const struct r0_run *r = &set->recs[i];
		char name[48], other[48];
		size_t t, c, w;

		if (!usable(r) || (t = target_of(out, r)) == SIZE_MAX)
			continue;
		r0_run_workload(r, name, sizeof(name));
		for (w = 0; w < n_wl; w++) {
			r0_run_workload(&set->recs[wl_r[w]], other, sizeof(other));
			if (!strcmp(name, other))
				break;
		}
		if (w == n_wl)
			wl_r[n_wl++] = i;
		for (c = 0; c < n_cell; c++) {
			if (cell_t[c] != t)
				continue;
			r0_run_workload(&set->recs[cell_r[c]], other, sizeof(other));
			if (!strcmp(name, other))
				break;
		}
		if (c == n_cell) {
			cell_t[n_cell] = t;
			cell_r[n_cell++] = i;
		}
		if (r->pass > out->passes)
			out->passes = r->pass;
		runs[n] = (struct run){ .rec = i, .target = t, .cell = c,
					.visit = r->pass ? r->pass : 1000000u + r->repeat };
		obs[n++] = (struct r0_noise_obs){ .cell = c, .group = w, .pass = r->pass, .value = r->bytes_per_s };
	}
	err = r0_noise_fit(obs, n, n_cell, n_wl ? n_wl : 1, &nz);
	if (err)
		goto out;
	out->max_drift = nz.max_drift;
	for (size_t i = 0; i < n; i++)
		runs[i].r = log(obs[i].adjusted);
	qsort(runs, n, sizeof(*runs), cmp_run);
	measure(out, runs, n, n_cell, &nz);
	qsort(out->target, out->n_target, sizeof(out->target[0]), cmp_target);
	say(out);
	r0_noise_free(&nz);
out:
	free(runs);
	free(obs);
	free(cell_t);
	free(cell_r);
	free(wl_r);
	return err;
}

/* --- the calibration ------------------------------------------------- */

static unsigned copy_of_chunk(uint32_t chunk)
{
	for (unsigned c = 1; c <= R0_CALIB_MAX_COPIES; c++)
		if (R0_CALIB_SYNTH_CHUNK(c) == chunk)
			return c;
	return 0;
}

/* Per workload: each copy against the best copy of its count. */
static void count_workloads(struct r0_calibration *k, const struct r0_analysis *a)
{
	size_t said = 0;

	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *best = NULL;
		size_t m = 0;

		for (size_t i = 0; i < a->n_cell; i++) {
			const struct r0_cell *c = &a->cell[i];

			if (c->wl != w || c->layer == R0_LAYER_RAW || c->n_members != a->max_members || !c->bps.n)
				continue;
			m++;
			if (!best || c->bps.med > best->bps.med)
				best = c;
		}
		if (m < 2)
			continue;
		k->wl_compared += m - 1;
		for (size_t i = 0; i < a->n_cell; i++) {
			const struct r0_cell *c = &a->cell[i];

			if (c->wl != w || c == best || c->layer == R0_LAYER_RAW || c->n_members != a->max_members ||
			    !c->bps.n || c->tie_best)
				continue;
			k->wl_false++;
			if (said++ < 4)
				r0_strbuf_cat(k->false_words, sizeof(k->false_words), "%s%s: copy %c %.2fx of copy %c",
					      k->false_words[0] ? "; " : "", a->wl[w].name,
					      r0_calib_letter(copy_of_chunk(c->chunk_bytes)), c->bps.med / best->bps.med,
					      r0_calib_letter(copy_of_chunk(best->chunk_bytes)));
		}
	}
	if (said > 4)
		r0_strbuf_cat(k->false_words, sizeof(k->false_words), "; and %zu more", said - 4);
}

static void answer(struct r0_calibration *k, double alpha)
{
	char ck[16];
	size_t mix_false = k->mix_loses + k->mix_too_noisy;
	bool many = (k->wl_false >= 2 && (double)k->wl_false > 2 * alpha * (double)k->wl_compared) ||
		    (mix_false >= 2 && (double)mix_false > 2 * alpha * (double)k->mix_compared);

	r0_format_size(R0_CALIB_CHUNK_BYTES, ck, sizeof(ck));
	snprintf(k->answer, sizeof(k->answer),
		 "A/A calibration: %u copies of one md array (%u members, %s), built afresh at every visit, %u "
		 "passes.\nFalse differences: %zu of %zu comparisons per workload, %zu of %zu under the %s mix%s",
		 k->copies, k->members, ck, k->passes, k->wl_false, k->wl_compared, mix_false, k->mix_compared,
		 k->mix_name, many ? " (more than the study's rate allows: it would report differences that are not "
				     "there)" : " (the copies are one array: each would be a difference that is not there)");
	if (k->mix_too_noisy)
		r0_strbuf_cat(k->answer, sizeof(k->answer), "; %zu too noisy to tell under the mix", k->mix_too_noisy);
	if (k->false_words[0])
		r0_strbuf_cat(k->answer, sizeof(k->answer), ".\nTold apart: %s", k->false_words);
	r0_strbuf_cat(k->answer, sizeof(k->answer), ".\nNoise: %s.\n%s.", k->noise.figures, k->noise.sentence);
}

int r0_calibrate(const struct r0_run_set *set, const struct r0_mix *mix, const struct r0_cmp_opts *cmp,
		 struct r0_calibration *out)
{
	struct r0_run_set mapped = { 0 };
	struct r0_analysis a = { 0 };
	int err;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < set->n; i++) {
		const struct r0_run *r = &set->recs[i];

		if (r->copy > out->copies && r->copy <= R0_CALIB_MAX_COPIES)
			out->copies = r->copy;
		if (r->copy)
			out->members = r->n_members;
	}
	if (!out->copies)
		return -ENODATA;
	err = r0_calib_map(set, &mapped);
	if (!err)
		err = r0_analyse(&mapped, mix, cmp, &a);
	if (!err && !a.has_choice)
		err = -ENODATA;
	if (!err)
		err = r0_noise_diag(set, &out->noise);
	if (err)
		goto out;
	out->passes = out->noise.passes;
	snprintf(out->mix_name, sizeof(out->mix_name), "%s", a.mix_name);
	count_workloads(out, &a);
	for (size_t c = 1; c < a.n_choice; c++) {
		if (a.choice[c].incomplete || a.choice[c].layer == R0_LAYER_RAW)
			continue;
		out->mix_compared++;
		out->mix_loses += a.choice[c].loses;
		out->mix_too_noisy += a.choice[c].too_noisy;
	}
	answer(out, 1 - a.cmp.confidence);
out:
	r0_analysis_free(&a);
	r0_run_set_free(&mapped);
	return err;
}
