// SPDX-License-Identifier: GPL-2.0-or-later
/* The comparison method's simulation: whole studies of known truth and Gaussian noise, and their error rates. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "methodsim.h"
#include "r0/analysis.h"
#include "r0/mix.h"
#include "studysim.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define K 1024u

/* Demo-like workloads: label, access, block, depth, read share, true speed-up of 3 drives. */
static const struct simwl {
	const char *label;
	enum r0_access access;
	uint32_t bs;
	unsigned qd, read_pct;
	double base_mbps, speedup;
} simwl[] = {
	{ "Seq", R0_ACCESS_SEQ, 1024 * K, 1, 100, 250, 2.8 },
	{ "Seq", R0_ACCESS_SEQ, 1024 * K, 1, 0, 230, 2.7 },
	{ "512K", R0_ACCESS_RAND, 512 * K, 1, 100, 250, 2.0 },
	{ "512K", R0_ACCESS_RAND, 512 * K, 1, 0, 230, 1.9 },
	{ "4K", R0_ACCESS_RAND, 4 * K, 1, 100, 30, 0.97 },
	{ "4K", R0_ACCESS_RAND, 4 * K, 1, 0, 60, 0.98 },
	{ "4K QD32", R0_ACCESS_RAND, 4 * K, 32, 100, 200, 2.6 },
	{ "4K QD32", R0_ACCESS_RAND, 4 * K, 32, 0, 180, 2.5 },
	{ "512K straddle", R0_ACCESS_RAND, 512 * K, 1, 100, 250, 1.8 },
};
const uint32_t r0_method_chunk[R0_METHOD_CHUNKS] = { 4 * K, 64 * K, 512 * K };

static void sim_rec(struct r0_run *r, const struct simwl *w, enum r0_layer l, uint32_t chunk,
		    unsigned rep, double bps)
{
	const struct r0_workload x = { .access = w->access, .read_pct = w->read_pct, .block_bytes = w->bs,
				       .queue_depth = w->qd, .jobs = 1 };

	r0_sim_rec(r, l, chunk, l == R0_LAYER_RAW ? 1 : 3, w->label, &x, rep, bps);
}

int r0_method_study(struct r0_prng *rng, unsigned repeats, double sigma, int best, double adv,
		    struct r0_run_set *set)
{
	set->n = 0;
	for (size_t w = 0; w < N(simwl); w++)
		for (int t = -1; t < R0_METHOD_CHUNKS; t++)
			for (unsigned k = 1; k <= repeats; k++) {
				double truth = simwl[w].base_mbps * 1e6;
				struct r0_run r;
				int err;

				if (t >= 0)
					truth *= simwl[w].speedup * (t == best ? adv : 1);
				sim_rec(&r, &simwl[w], t < 0 ? R0_LAYER_RAW : R0_LAYER_MD, t < 0 ? 0 : r0_method_chunk[t],
					k, truth * (1 + sigma * r0_prng_gauss(rng)));
				if ((err = r0_run_set_add(set, &r)))
					return err;
			}
	return 0;
}

/* One analysed study's claims added to OUT. */
static int count(const struct r0_analysis *a, int best, unsigned s, struct r0_method_rates *out)
{
	size_t n_set = 0;
	bool best_in = false;

	/* per workload: 64K against 512K head to head, and the best-chunk sets */
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *x = r0_analysis_cell(a, R0_LAYER_MD, 64 * K, 3, w);
		const struct r0_cell *y = r0_analysis_cell(a, R0_LAYER_MD, 512 * K, 3, w);
		struct r0_cmp c;
		size_t in = 0;
		int err;

		if (!x || !y)
			return -ENODATA;
		if ((err = r0_compare_one(x->bps_v, x->bps.n, y->bps_v, y->bps.n, &a->cmp, &c)))
			return err;
		out->pair_claims += c.sign != 0;
		out->pairs++;
		for (size_t k = 0; k < R0_METHOD_CHUNKS; k++) {
			const struct r0_cell *ck = r0_analysis_cell(a, R0_LAYER_MD, r0_method_chunk[k], 3, w);

			in += ck && ck->tie_best;
		}
		out->wl_sets_short += in < R0_METHOD_CHUNKS;
		out->wl_sets++;
	}
	for (size_t k = 0; k < a->n_choice; k++) {
		n_set += a->choice[k].tie_best;
		best_in |= best >= 0 && a->choice[k].tie_best && a->choice[k].chunk_bytes == r0_method_chunk[best];
	}
	out->pick_claims += n_set < R0_METHOD_CHUNKS;
	out->exact += best >= 0 && n_set == 1 && best_in;
	out->has_best += best_in;
	if (!s || (best >= 0 && n_set != 1 && !out->sample_missed)) {
		snprintf(out->sample, sizeof(out->sample), "%s", a->chunks);
		out->sample_missed = s > 0;
	}
	return 0;
}

int r0_method_rates(unsigned studies, unsigned repeats, double sigma, int best, double adv, uint64_t seed,
		    const struct r0_cmp_opts *cmp, struct r0_method_rates *out)
{
	struct r0_run_set set = { 0 };
	struct r0_prng rng;
	struct r0_mix mix;
	int err;

	memset(out, 0, sizeof(*out));
	if ((err = r0_mix_parse("desktop", &mix)))
		return err;
	r0_prng_seed(&rng, seed);
	for (unsigned s = 0; s < studies && !err; s++) {
		struct r0_analysis a;

		if ((err = r0_method_study(&rng, repeats, sigma, best, adv, &set)))
			break;
		if ((err = r0_analyse(&set, &mix, cmp, &a)))
			break;
		err = count(&a, best, s, out);
		r0_analysis_free(&a);
	}
	out->studies = studies;
	r0_run_set_free(&set);
	return err;
}

int r0_method_row(bool old, unsigned row, unsigned studies, struct r0_method_row *out)
{
	static const unsigned repeats[] = { 3, 5, 10 };
	static const double sigmas[] = { 0.02, 0.05, 0.10 };
	unsigned i = row / N(sigmas), j = row % N(sigmas);
	struct r0_cmp_opts o;
	int err;

	if (row >= R0_METHOD_ROWS)
		return -EINVAL;
	r0_cmp_defaults(&o);
	o.method = old ? R0_CMP_BOOTSTRAP : R0_CMP_WELCH_T;
	out->repeats = repeats[i];
	out->sigma = sigmas[j];
	err = r0_method_rates(studies, repeats[i], sigmas[j], -1, 1, 500 + 10 * i + j, &o, &out->eq);
	if (!err)
		err = r0_method_rates(studies, repeats[i], sigmas[j], 1, 1.15, 600 + 10 * i + j, &o, &out->better);
	return err;
}

static double rate(unsigned x, unsigned n)
{
	return n ? 100.0 * x / n : 0;
}

void r0_method_row_line(bool old, const struct r0_method_row *r, char *buf, size_t len)
{
	snprintf(buf, len, "simulation: | %s | %u | %.0f %% | %.1f %% | %.1f %% | %u/%u |",
		 old ? "bootstrap (old)" : "Welch t (new)", r->repeats, r->sigma * 100,
		 rate(r->eq.pick_claims, r->eq.studies), rate(r->eq.wl_sets_short, r->eq.wl_sets), r->better.exact,
		 r->better.studies);
}
