// SPDX-License-Identifier: GPL-2.0-or-later
/* Whole studies on simulated drives, through r0sweep's own study loop (studysim.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "noisebank.h"
#include "r0/calibrate.h"
#include "r0/mix.h"
#include "r0/preset.h"
#include "r0/prng.h"
#include "r0/study.h"
#include "studysim.h"

#define K 1024u
#define SIM_MEMBERS 3
#define N_USED (R0_SWEEP_MAX_WL * 2)   /* a bank visit's runs looked at */

/* R0_SIM_TRUE_AT's speed-up (r0_sim_true_at; one a process) */
static double true_at;

const char *r0_sim_truth_name(enum r0_sim_truth t)
{
	static const char *const names[] = { "no gain", "perfect scaling", "3rd adds nothing", "shared limit 1.07x",
					     "RAID0 model, dm = md", "one chunk 10 % ahead", "chunks 0-25 % apart",
					     "true 1.15x", "true 1.3x" };
	static char at[32];

	if (t == R0_SIM_TRUE_AT && true_at > 0) {
		snprintf(at, sizeof(at), "true %gx", true_at);
		return at;
	}
	return t < R0_SIM_TRUTHS ? names[t] : "?";
}

int r0_sim_true_at(double x)
{
	if (!(x >= 1 && x <= 10))
		return -EINVAL;
	true_at = x;
	return 0;
}

double r0_sim_true_at_value(void)
{
	return true_at;
}

/* R0_SIM_BANK_NAMED's bank (r0_sim_bank_name; as r0_bank_get's cache, one a process) */
static char bank_named[32];

const char *r0_sim_noise_name(enum r0_sim_noise n)
{
	static const char *const names[] = { "gaussian 2 %", "gaussian 5 %", "gaussian 10 %", "lognormal 10 %",
					     "5 % of runs at 0.6x", "drift -10 %", "bank: demo (sata-real, TCG)",
					     "bank: sample (sata-ssd, TCG)", "bank: nvme-real md", "bank: sata-real md",
					     "bank: r0ssd md" };

	static char named[64];

	if (n == R0_SIM_BANK_NAMED && bank_named[0]) {
		snprintf(named, sizeof(named), "bank: %s", bank_named);
		return named;
	}
	return n < R0_SIM_NOISES ? names[n] : "?";
}

bool r0_sim_noise_is_bank(enum r0_sim_noise n)
{
	return n >= R0_SIM_BANK_FIRST && (n < R0_SIM_NOISES || (n == R0_SIM_BANK_NAMED && bank_named[0]));
}

const char *r0_sim_noise_bank(enum r0_sim_noise n)
{
	static const char *const files[] = { "demo", "sample", "nvme-real-md", "sata-real-md", "r0ssd-md" };

	if (!r0_sim_noise_is_bank(n))
		return NULL;
	return n == R0_SIM_BANK_NAMED ? bank_named : files[n - R0_SIM_BANK_FIRST];
}

int r0_sim_bank_name(const char *name)
{
	if (strlen(name) >= sizeof(bank_named))
		return -ENAMETOOLONG;
	if (!r0_bank_get(name))
		return -errno;
	strcpy(bank_named, name);
	return 0;
}

int r0_sim_bank_by_name(const char *name, enum r0_sim_noise *out, char *named, size_t len)
{
	*named = 0;
	for (int nz = R0_SIM_BANK_FIRST; nz < R0_SIM_NOISES; nz++)
		if (!strcmp(name, r0_sim_noise_bank((enum r0_sim_noise)nz))) {
			*out = (enum r0_sim_noise)nz;
			return 0;
		}
	if (strlen(name) >= len)
		return -ENAMETOOLONG;
	snprintf(named, len, "%s", name);
	*out = R0_SIM_BANK_NAMED;
	return 0;
}

double r0_sim_bank_run_sd(enum r0_sim_noise n)
{
	const struct r0_bank *b = r0_sim_noise_is_bank(n) ? r0_bank_get(r0_sim_noise_bank(n)) : NULL;

	return b ? b->run_sd : NAN;
}

/* One drive's speed on workload W in MB/s: a SATA-class SSD, small random reads the slowest. */
static double drive_mbps(const struct r0_workload *w)
{
	bool rd = w->read_pct >= 50;

	if (w->access == R0_ACCESS_SEQ)
		return rd ? 520 : 480;
	if (w->block_bytes >= 128 * K)
		return rd ? 470 : 430;
	if (w->queue_depth >= 16)
		return rd ? 380 : 330;
	if (w->queue_depth >= 4)
		return rd ? 160 : 240;
	return rd ? 45 : 110;
}

/*
 * RAID0 by request: a request of B bytes at chunk C touches m = min(n,
 * B / C) members (one more when it straddles), a queue of depth q keeps
 * min(n, q x m) of them busy; splitting a request into many small pieces
 * costs, and so does the layer (md and dm alike).
 */
static double raid0_gain(const struct r0_workload *w, uint32_t chunk, unsigned n)
{
	double m = (double)w->block_bytes / chunk, busy, split = 1;
	unsigned q = w->queue_depth * (w->jobs ? w->jobs : 1);

	if (w->align_bytes && w->align_bytes < chunk && w->block_bytes >= chunk)
		m += 1;
	if (m < 1)
		m = 1;
	if (m > n)
		m = n;
	busy = q * m < n ? q * m : n;
	if ((double)w->block_bytes / chunk > 16)
		split = 0.8;
	else if ((double)w->block_bytes / chunk > 4)
		split = 0.93;
	return busy * split * 0.97;
}

/* 4K..1M: a slot per power of two */
static size_t chunk_index(uint32_t chunk)
{
	size_t i = 0;

	while (chunk > 4 * K && i < 7) {
		chunk >>= 1;
		i++;
	}
	return i;
}

struct sim {
	enum r0_sim_truth truth;
	enum r0_sim_noise noise;
	const struct r0_sim_plan *sp;
	struct r0_sweep_plan plan;
	double drive_scale;         /* this study's drives against the model's */
	double chunk_eff[2][8];     /* this study's own effect of each chunk, per layer (md, dm) */
	double study_s;             /* the study's expected length, for the drift */
	struct r0_prng rng;
	const struct r0_bank *bank;       /* a bank noise model's */
	size_t *bank_own;                 /* per target: the bank target whose noise level it takes */
	long bwl[R0_SWEEP_MAX_WL];        /* per workload: the bank's of that name, or -1 */
	char wcls[R0_SWEEP_MAX_WL][24];   /* per workload: its class */
	double elapsed;
	size_t cells;
	const struct r0_run_set *set;   /* the study's records, for the debugging output */
};

/* The truth: target T's speed on workload W against one drive. */
static double gain(const struct sim *x, const struct r0_sweep_target *t, const struct r0_workload *w)
{
	unsigned n = t->n;
	double g, eff = t->layer == R0_LAYER_RAW ? 1 : x->chunk_eff[t->layer == R0_LAYER_DM][chunk_index(t->chunk_bytes)];

	if (t->layer == R0_LAYER_RAW)
		return 1;
	switch (x->truth) {
	case R0_SIM_NO_GAIN: return 1;
	case R0_SIM_PERFECT: return n;
	case R0_SIM_THIRD_NOTHING: return n == 1 ? 1 : 2;
	case R0_SIM_SHARED: return n == 1 ? 1 : n == 2 ? 2 : 2 * 1.07;
	case R0_SIM_RAID0: return raid0_gain(w, t->chunk_bytes, n) * eff;
	case R0_SIM_CHUNK_AHEAD:
		g = n == 1 ? 1 : n == 2 ? 1.9 : 2.7;
		return g * (t->chunk_bytes == 128 * K ? 1.1 : 1);
	case R0_SIM_CHUNK_RANDOM:
		g = n == 1 ? 1 : n == 2 ? 1.9 : 2.7;
		return g * eff;
	case R0_SIM_TRUE_115: return n == 1 ? 1 : 1.15;
	case R0_SIM_TRUE_13: return n == 1 ? 1 : 1.3;
	case R0_SIM_TRUE_AT: return n == 1 ? 1 : true_at;
	default: return 1;
	}
}

/* One run of truth TRUE: the noise model's stray, and the drift by the study's time. */
static double noisy(struct sim *x, double truth)
{
	double z = r0_prng_gauss(&x->rng), u = (double)(r0_prng_next(&x->rng) >> 11) * 0x1p-53;

	switch (x->noise) {
	case R0_SIM_GAUSS2: return truth * (1 + 0.02 * z);
	case R0_SIM_GAUSS5: return truth * (1 + 0.05 * z);
	case R0_SIM_GAUSS10: return truth * (1 + 0.10 * z);
	case R0_SIM_LOGNORMAL10: return truth * exp(0.10 * z);
	case R0_SIM_OUTLIERS: return truth * (1 + 0.02 * z) * (u < 0.05 ? 0.6 : 1);
	case R0_SIM_DRIFT: return truth * (1 + 0.02 * z) * (1 - 0.10 * (x->elapsed < x->study_s ? x->elapsed : x->study_s) / x->study_s);
	default: return truth;
	}
}

static int build_plan(struct r0_sweep_plan *plan, bool one_array)
{
	static const uint32_t chunks[] = { 4 * K, 16 * K, 64 * K, 128 * K, 512 * K, 1024 * K };
	static const uint32_t single512[] = { 512 * K };
	static const unsigned qds[] = { 1, 4, 32 };
	const struct r0_preset *presets[] = { r0_preset_find("cdm3"), r0_preset_find("cdm") };
	static const uint32_t md64[] = { 64 * K };
	const bool backend[2] = { true, true }, md_only[2] = { true, false };
	bool count[R0_MAX_MEMBERS + 1] = { false, true, true, true };
	int err;

	memset(plan, 0, sizeof(*plan));
	err = r0_sweep_plan_workloads(plan, presets, 2, qds, 3, true, false);
	if (!err && one_array)
		err = r0_sweep_plan_targets(plan, md_only, SIM_MEMBERS, count, md64, 1, single512, 0);
	else if (!err)
		err = r0_sweep_plan_targets(plan, backend, SIM_MEMBERS, count, chunks, 6, single512, 1);
	return err;
}

void r0_sim_rec(struct r0_run *r, enum r0_layer layer, uint32_t chunk, unsigned n, const char *label,
		const struct r0_workload *w, unsigned repeat, double bytes_per_s)
{
	memset(r, 0, sizeof(*r));
	r->layer = layer;
	r->chunk_bytes = chunk;
	r->n_members = n;
	snprintf(r->label, sizeof(r->label), "%s", label);
	r->access = w->access;
	r->read_pct = w->read_pct;
	r->block_bytes = w->block_bytes;
	r->align_bytes = w->align_bytes;
	r->queue_depth = w->queue_depth;
	r->jobs = w->jobs ? w->jobs : 1;
	r->repeat = repeat;
	r->runtime_s = 1;
	r->bytes_per_s = bytes_per_s;
	r->iops = bytes_per_s / w->block_bytes;
	r->ios = (uint64_t)r->iops + 1;   /* a measurement: requests completed */
	r->cpu_s_per_io = 0.1 / r->iops;
	snprintf(r->state, sizeof(r->state), "empty");
}

/* A run drawn from bank visit V's first NV runs, the unused ones (CLS: of that class only), or -1. */
static long bank_pick(struct sim *x, const struct r0_bank_visit *v, size_t nv, const bool *used, const char *cls)
{
	size_t n = 0, k;

	for (size_t i = 0; i < nv; i++)
		n += !used[i] && (!cls || !strcmp(x->bank->wl_cls[v->run[i].wl], cls));
	if (!n)
		return -1;
	k = (size_t)r0_prng_below(&x->rng, n);
	for (size_t i = 0; i < nv; i++)
		if (!used[i] && (!cls || !strcmp(x->bank->wl_cls[v->run[i].wl], cls)) && !k--)
			return (long)i;
	return -1;
}

/*
 * Target T's next bank visit, its residuals on the wanted workloads into
 * Z: a visit of the whole bank drawn at random (with replacement), scaled
 * from its own target's noise level to T's own bank target's; in it the
 * same workload by name, else an unused run of its class, else an unused
 * run, else any run of the visit.
 *
 * Why not each target's own visits in turn: the bank centres every cell
 * on its mean, so a target's own visits sum to exactly 0 on each workload,
 * and a study that takes all of them (3 in most banks: the first look)
 * reads the truth itself, whatever the noise. Nor its own few visits
 * drawn with replacement: 3 draws from 3 repeat one visit often, and its
 * spread then reads near 0. A visit stays whole (its workloads' shared
 * factor and its tails come along) and each target keeps its own level.
 */
static void bank_visit(struct sim *x, size_t t, const unsigned *repeat, double *z)
{
	const struct r0_bank *b = x->bank;
	size_t k = (size_t)r0_prng_below(&x->rng, b->n_visits), j = 0;

	while (k >= b->target[j].n_visit)
		k -= b->target[j++].n_visit;
	const struct r0_bank_visit *v = &b->target[j].visit[k];
	const struct r0_bank_target *own = &b->target[x->bank_own[t]];
	double level = own->sd > 0 ? own->sd : b->run_sd;  /* one visit: the bank's */
	double scale = b->target[j].rms > 0 ? level / b->target[j].rms : 0;
	bool used[N_USED] = { false }, done[R0_SWEEP_MAX_WL] = { false };
	size_t nv = v->n < N_USED ? v->n : N_USED;

	for (size_t w = 0; w < x->plan.n_wl; w++)
		for (size_t i = 0; repeat[w] && x->bwl[w] >= 0 && i < nv; i++)
			if (!used[i] && v->run[i].wl == (size_t)x->bwl[w]) {
				z[w] = v->run[i].z * scale;
				used[i] = done[w] = true;
				break;
			}
	for (int pass = 0; pass < 2; pass++)
		for (size_t w = 0; w < x->plan.n_wl; w++) {
			long i;

			if (!repeat[w] || done[w])
				continue;
			i = bank_pick(x, v, nv, used, pass ? NULL : x->wcls[w]);
			if (i < 0 && pass)
				i = (long)r0_prng_below(&x->rng, nv);
			if (i < 0)
				continue;
			z[w] = v->run[i].z * scale;
			used[i] = done[w] = true;
		}
}

/* The study loop's visit: every wanted workload of target T once, from the model. */
static int visit(void *ctx, size_t t, unsigned pass, const unsigned *repeat, struct r0_run_set *set)
{
	struct sim *x = ctx;
	const struct r0_sweep_target *tg = &x->plan.targets[t];
	double z[R0_SWEEP_MAX_WL] = { 0 };

	if (x->bank)
		bank_visit(x, t, repeat, z);
	for (size_t w = 0; w < x->plan.n_wl; w++) {
		const struct r0_workload *wl = &x->plan.wl[w].w;
		struct r0_run r;
		double truth;
		int err;

		if (!repeat[w])
			continue;
		truth = x->drive_scale * drive_mbps(wl) * 1e6 * gain(x, tg, wl);
		r0_sim_rec(&r, tg->layer, tg->chunk_bytes, tg->n, x->plan.wl[w].label, wl, repeat[w],
			   x->bank ? truth * exp(z[w]) : noisy(x, truth));
		r.pass = pass;
		err = r0_run_set_add(set, &r);
		if (err)
			return err;
		x->elapsed += x->sp->cell_s;
		x->cells++;
	}
	return 0;
}

static double elapsed(void *ctx)
{
	return ((struct sim *)ctx)->elapsed;
}

static double cell_seconds(void *ctx)
{
	return ((struct sim *)ctx)->sp->cell_s;
}

/* The truth's speed-up of target T under the analysis' mix weights, by the user's time (Amdahl's law). */
static double true_score(const struct sim *x, const struct r0_analysis *a, const struct r0_sweep_target *t)
{
	double wt[R0_SWEEP_MAX_WL], g[R0_SWEEP_MAX_WL], s;
	size_t n = 0;

	for (size_t w = 0; w < x->plan.n_wl && n < R0_SWEEP_MAX_WL; w++) {
		char name[48];
		struct r0_run r;

		r0_sim_rec(&r, R0_LAYER_RAW, 0, 1, x->plan.wl[w].label, &x->plan.wl[w].w, 1, 1);
		r0_run_workload(&r, name, sizeof(name));
		for (size_t k = 0; k < a->n_wl; k++)
			if (!strcmp(a->wl[k].name, name) && a->wl[k].weight > 0) {
				wt[n] = a->wl[k].weight;
				g[n++] = gain(x, t, &x->plan.wl[w].w);
			}
	}
	s = r0_mix_time_speedup(wt, g, n);
	return isnan(s) ? 0 : s;
}

static const struct r0_sweep_target *target_of(const struct sim *x, enum r0_layer l, uint32_t chunk, unsigned n)
{
	for (size_t t = 0; t < x->plan.n_targets; t++) {
		const struct r0_sweep_target *y = &x->plan.targets[t];

		if (y->layer == l && y->n == n && (l == R0_LAYER_RAW || y->chunk_bytes == chunk))
			return y;
	}
	return NULL;
}

/* The truth's workload W on target T, for the cells of the analysis. */
static double true_cell(const struct sim *x, const struct r0_analysis *a, const struct r0_cell *c)
{
	const struct r0_sweep_target *t = target_of(x, c->layer, c->chunk_bytes, c->n_members);

	for (size_t w = 0; t && w < x->plan.n_wl; w++) {
		char name[48];
		struct r0_run r;

		r0_sim_rec(&r, R0_LAYER_RAW, 0, 1, x->plan.wl[w].label, &x->plan.wl[w].w, 1, 1);
		r0_run_workload(&r, name, sizeof(name));
		if (!strcmp(a->wl[c->wl].name, name))
			return gain(x, t, &x->plan.wl[w].w);
	}
	return 0;
}

/*
 * What the truth says at the pick, by the analysis' own bars: the fewest
 * drives worth it, then each further drive that adds the drive gain; 1
 * (keep one drive) when no count is worth it.
 */
static unsigned right_build(const struct sim *x, const struct r0_analysis *a)
{
	const struct r0_choice *p = &a->choice[a->pick];
	double worth = a->cmp.worth > 0 ? a->cmp.worth : R0_WORTH_SPEEDUP;
	double drive = a->cmp.drive_gain > 0 ? a->cmp.drive_gain : R0_DRIVE_GAIN;
	double s[R0_SWEEP_MAX_TARGETS + 1] = { 0 };
	unsigned b = 1;

	for (unsigned n = 2; n <= a->max_members && n <= R0_SWEEP_MAX_TARGETS; n++) {
		const struct r0_sweep_target *t = target_of(x, p->layer, p->chunk_bytes, n);

		s[n] = t ? true_score(x, a, t) : 0;
		if (b == 1 && s[n] >= worth)
			b = n;
		else if (b > 1 && b == n - 1 && s[n] / s[n - 1] >= drive)
			b = n;
	}
	return b;
}

/* What the study claims and the truth denies: a choice losing, a chunk left out. */
static void false_claims(const struct sim *x, const struct r0_analysis *a, struct r0_sim_result *out)
{
	double best = true_score(x, a, target_of(x, a->choice[0].layer, a->choice[0].chunk_bytes, a->max_members));

	for (size_t k = 1; k < a->n_choice; k++) {
		const struct r0_choice *c = &a->choice[k];

		/* "too noisy to tell" claims nothing: only a loss is a false claim */
		if (!c->tie_best && !c->incomplete && c->loses &&
		    true_score(x, a, target_of(x, c->layer, c->chunk_bytes, a->max_members)) >= best * (1 - 1e-9)) {
			out->false_loss = true;
			if (getenv("R0_SIM_LINES"))
				fprintf(stderr, "false loss: %s %uK %s: %.3f (%.3f-%.3f) of %s %uK\n", r0_layer_name(c->layer),
					c->chunk_bytes / 1024, c->loss, c->vs_best.ratio, c->vs_best.lo, c->vs_best.hi,
					r0_layer_name(a->choice[0].layer), a->choice[0].chunk_bytes / 1024);
		}
	}
	for (size_t i = 0; i < a->n_cell; i++) {
		const struct r0_cell *c = &a->cell[i], *b;

		if (c->layer == R0_LAYER_RAW || c->n_members != a->max_members || !c->bps.n || c->tie_best)
			continue;
		b = NULL;
		for (size_t j = 0; j < a->n_cell; j++) {
			const struct r0_cell *y = &a->cell[j];

			if (y->layer == c->layer && y->n_members == c->n_members && y->wl == c->wl && y->bps.n &&
			    (!b || y->bps.med > b->bps.med))
				b = y;
		}
		if (b && true_cell(x, a, c) >= true_cell(x, a, b) * (1 - 1e-9)) {
			out->false_line = true;
			if (getenv("R0_SIM_LINES")) {
				fprintf(stderr, "false line: %s %u x %uK %s: n %u far %u med %.4g vs best %uK n %u med %.4g:",
					r0_layer_name(c->layer), c->n_members, c->chunk_bytes / 1024, a->wl[c->wl].name,
					c->bps.n, c->n_far, c->bps.med, b->chunk_bytes / 1024, b->bps.n, b->bps.med);
				for (unsigned k = 0; k < c->bps.n; k++)
					fprintf(stderr, " %.4g", c->bps_v[k] / b->bps.med);
				fprintf(stderr, " | raw:");
				for (size_t q = 0; x->set && q < x->set->n; q++) {
					const struct r0_run *r = &x->set->recs[q];
					char nm[48];

					r0_run_workload(r, nm, sizeof(nm));
					if (r->layer == c->layer && r->chunk_bytes == c->chunk_bytes && r->n_members == c->n_members &&
					    !strcmp(nm, a->wl[c->wl].name))
						fprintf(stderr, " %.4g@p%u", r->bytes_per_s / b->bps.med, r->pass);
				}
				fprintf(stderr, " | best:");
				for (unsigned k = 0; k < b->bps.n; k++)
					fprintf(stderr, " %.4g", b->bps_v[k] / b->bps.med);
				fprintf(stderr, "\n");
			}
		}
	}
}

static void judge(const struct sim *x, const struct r0_analysis *a, struct r0_sim_result *out)
{
	double best = 0, pick;

	out->has_choice = a->has_choice;
	out->answer = a->answer;
	snprintf(out->headline, sizeof(out->headline), "%s", a->verdict);
	if (!a->has_choice)
		return;
	out->layer = a->choice[a->pick].layer;
	out->chunk_bytes = a->choice[a->pick].chunk_bytes;
	for (size_t t = 0; t < x->plan.n_targets; t++) {
		const struct r0_sweep_target *y = &x->plan.targets[t];
		double v;

		if (y->layer == R0_LAYER_RAW || y->n != a->max_members)
			continue;
		v = true_score(x, a, y);
		if (v > best)
			best = v;
	}
	pick = true_score(x, a, target_of(x, out->layer, out->chunk_bytes, a->max_members));
	out->pick_true_loss = best > 0 ? 1 - pick / best : 0;
	out->right_build = right_build(x, a);
	/* anything short of "worth it" builds nothing: keep one drive (an undecided count builds nothing either) */
	out->build = a->answer != R0_ANSWER_WORTH ? 1 : a->build_decided ? a->build_members : 0;
	false_claims(x, a, out);
}

static void shuffle(struct r0_prng *rng, size_t *v, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t r = (size_t)r0_prng_below(rng, i), t = v[i - 1];

		v[i - 1] = v[r];
		v[r] = t;
	}
}

/*
 * A bank noise model: the targets at each member count take the noise
 * level of the bank's targets at that count (any, where the bank has none
 * there) in a shuffled turn, so as few share one as can; their visits
 * are drawn from the whole bank (bank_visit).
 */
static int bank_setup(struct sim *x)
{
	const struct r0_bank *b = r0_bank_get(r0_sim_noise_bank(x->noise));
	size_t *order;

	if (!b)
		return errno ? -errno : -ENOENT;
	x->bank = b;
	for (size_t w = 0; w < x->plan.n_wl; w++) {
		char name[48];
		struct r0_run r;

		r0_sim_rec(&r, R0_LAYER_RAW, 0, 1, x->plan.wl[w].label, &x->plan.wl[w].w, 1, 1);
		r0_run_workload(&r, name, sizeof(name));
		r0_workload_class(&r, x->wcls[w], sizeof(x->wcls[w]));
		x->bwl[w] = r0_bank_wl(b, name);
	}
	x->bank_own = calloc(x->plan.n_targets, sizeof(*x->bank_own));
	order = calloc(b->n_target, sizeof(*order));
	if (!x->bank_own || !order) {
		free(order);
		return -ENOMEM;
	}
	for (unsigned n = 1; n <= R0_MAX_MEMBERS; n++) {
		size_t same = 0, turn = 0;

		for (size_t j = 0; j < b->n_target; j++)
			if (b->target[j].n_members == n)
				order[same++] = j;
		if (!same)
			for (size_t j = 0; j < b->n_target; j++)
				order[same++] = j;
		shuffle(&x->rng, order, same);
		for (size_t t = 0; t < x->plan.n_targets; t++)
			if (x->plan.targets[t].n == n)
				x->bank_own[t] = order[turn++ % same];
	}
	free(order);
	return 0;
}

int r0_sim_study(uint64_t seed, enum r0_sim_truth truth, enum r0_sim_noise noise, const struct r0_sim_plan *sp,
		 const struct r0_mix *mix, struct r0_sim_result *out)
{
	static const struct r0_study_ops ops = { visit, elapsed, cell_seconds };
	struct sim *x = calloc(1, sizeof(*x));
	struct r0_study *s = malloc(sizeof(*s));
	struct r0_run_set set = { 0 };
	struct r0_analysis a;
	struct r0_cmp_opts o;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!x || !s)
		goto out;
	x->truth = truth;
	x->noise = noise;
	x->sp = sp;
	r0_prng_seed(&x->rng, seed);
	x->drive_scale = exp((double)(r0_prng_next(&x->rng) >> 11) * 0x1p-53 * 1.4 - 0.7);
	for (size_t c = 0; c < 8; c++) {
		double u = (double)(r0_prng_next(&x->rng) >> 11) * 0x1p-53;

		if (truth == R0_SIM_CHUNK_RANDOM) {
			/* a chunk's effect on the stripe, the same through md and dm */
			x->chunk_eff[0][c] = 1 - 0.25 * u;
			x->chunk_eff[1][c] = x->chunk_eff[0][c];
		} else {
			x->chunk_eff[0][c] = 1 + 0.05 * r0_prng_gauss(&x->rng);
			x->chunk_eff[1][c] = x->chunk_eff[0][c];   /* dm equal to md */
		}
	}
	err = build_plan(&x->plan, sp->one_array);
	if (err)
		goto out;
	if (r0_sim_noise_is_bank(noise)) {
		err = bank_setup(x);
		if (err)
			goto out;
	}
	x->study_s = sp->budget_s > 0 ? sp->budget_s :
		     (double)(x->plan.n_targets * x->plan.n_wl * sp->repeats) * sp->cell_s;
	err = r0_study_init(s, &x->plan, sp->adaptive, sp->repeats, sp->adaptive ? sp->max_repeats : sp->repeats,
			    mix, NULL, sp->budget_s, sp->cell_s);
	if (!err)
		err = r0_study_run(s, &set, &ops, x);
	if (err)
		goto out;
	o = r0_planner_cmp(&s->planner, NULL);
	x->set = &set;
	{
		/* judged as r0report judges it: no claim where the runs' noise is beyond any validated */
		struct r0_noise_diag nz;

		err = r0_noise_diag(&set, &nz);
		if (!err)
			err = r0_analyse_machine(&set, mix, &o, &nz, &a);
	}
	if (err)
		goto out;
	judge(x, &a, out);
	out->seconds = x->elapsed;
	out->cells = x->cells;
	out->budget_hit = s->budget_hit;
	for (int k = 0; k < R0_ADAPT_KINDS; k++)
		out->undecided += s->planner.undecided[k];
	r0_analysis_free(&a);
out:
	r0_run_set_free(&set);
	if (x)
		free(x->bank_own);
	free(x);
	free(s);
	return err;
}
