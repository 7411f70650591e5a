// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of lib/study/adaptive.c (the planner) and, through tests/sim/studysim.c,
 * the seeded simulation of whole studies: the adaptive plan against the
 * full plan on simulated drives with known truth, noise and drift.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/adaptive.h"
#include "r0/preset.h"
#include "r0/prng.h"
#include "studysim.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

Test(adaptive, looks)
{
	unsigned at[R0_ADAPT_MAX_LOOKS];

	cr_assert_eq(r0_adapt_looks(3, 8, at), 3);
	cr_expect(at[0] == 3 && at[1] == 5 && at[2] == 8);
	cr_assert_eq(r0_adapt_looks(3, 3, at), 1);
	cr_expect_eq(at[0], 3);
	cr_assert_eq(r0_adapt_looks(3, 10, at), 4);
	cr_expect(at[2] == 8 && at[3] == 10);
	cr_assert_eq(r0_adapt_looks(1, 2, at), 2);
	cr_expect(at[0] == 1 && at[1] == 2);
	cr_expect_eq(r0_adapt_looks(0, 5, at), 0);
	cr_expect_eq(r0_adapt_looks(6, 5, at), 0);
	cr_assert_eq(r0_adapt_looks(1, 100, at), R0_ADAPT_MAX_LOOKS);
	cr_expect_eq(at[R0_ADAPT_MAX_LOOKS - 1], 100);
}

/* How many studies a row: the recipe asks for more through R0_SIM_STUDIES. */
static unsigned studies(unsigned dflt)
{
	const char *s = getenv("R0_SIM_STUDIES");

	if (getenv("R0_SIM_SANITIZE"))
		return 2;
	return s && atoi(s) > 0 ? (unsigned)atoi(s) : dflt;
}

/*
 * Whether BAD of N studies keeps a bar that allows a share MAX_BAD (0.05:
 * 5 %). The bars are the at 200 studies a row (make perf), where
 * they hold as stated. make check's 20 cannot tell 95 % from 85 %: one
 * row there may have as many as a study that keeps the bar exactly would
 * exceed in only 5 % of rows (the binomial's 95th percentile: 3 of 20 at
 * 5 %), so a row fails on evidence, not on the draw of 20 seeds.
 */
static bool keeps(unsigned bad, unsigned n, double max_bad)
{
	double p_le = 0, term = pow(1 - max_bad, n);   /* P(X = 0) */
	unsigned allowed = 0;

	if (n >= 200)
		return bad <= max_bad * n + 1e-9;
	for (unsigned k = 0; k <= n; k++) {
		p_le += term;
		allowed = k;
		if (p_le >= 0.95)
			break;
		term *= (double)(n - k) / (double)(k + 1) * max_bad / (1 - max_bad);
	}
	return bad <= allowed;
}

/* What a row of studies (one truth, one noise, one cell time) gave. */
struct row {
	unsigned n, build_right, false_loss, false_line, worth, pick_good, fixed_good, budget;
	double minutes;
};

static void run_row(enum r0_sim_truth truth, enum r0_sim_noise noise, double cell_s, bool fixed, struct row *r)
{
	const struct r0_sim_plan adaptive = R0_SIM_STUDY_PLAN(cell_s), full = R0_SIM_FULL_PLAN;
	struct r0_mix mix;

	memset(r, 0, sizeof(*r));
	r->n = studies(20);
	cr_assert_eq(r0_mix_parse("desktop", &mix), 0);
	for (unsigned s = 0; s < r->n; s++) {
		struct r0_sim_result a, f;

		cr_assert_eq(r0_sim_study(1000 + s, truth, noise, &adaptive, &mix, &a), 0);
		r->build_right += a.has_choice && a.build == a.right_build;
		r->false_loss += a.false_loss;
		r->false_line += a.false_line;
		r->worth += a.answer == R0_ANSWER_WORTH;
		r->pick_good += a.has_choice && a.pick_true_loss <= 0.05;
		r->budget += a.budget_hit;
		r->minutes += a.seconds / 60 / r->n;
		if (getenv("R0_SIM_VERBOSE") && (a.build != a.right_build || a.pick_true_loss > 0.05))
			printf("sim: %s, %s, study %u: build %u, truly %u, pick %.0f %% behind: %s\n",
			       r0_sim_truth_name(truth), r0_sim_noise_name(noise), s, a.build, a.right_build,
			       a.pick_true_loss * 100, a.headline);
		if (!fixed)
			continue;
		cr_assert_eq(r0_sim_study(1000 + s, truth, noise, &full, &mix, &f), 0);
		r->fixed_good += f.has_choice && f.pick_true_loss <= 0.05;
	}
	/* one row a line, written whole (the tests run in parallel), a sort key first
	 * (truth, cell time, noise): the recipe sorts the rows */
	char line[512], fx[32] = "-";

	if (fixed)
		snprintf(fx, sizeof(fx), "%.0f %%", 100.0 * r->fixed_good / r->n);
	snprintf(line, sizeof(line), "sim: %d %02.0f %d | %s | %s | %.1f s | %.0f %% | %.0f %% | %.0f %% | %.0f %% | %.0f %% | %s | %.0f min |\n",
		 (int)truth, 100 - cell_s * 10, (int)noise, r0_sim_truth_name(truth), r0_sim_noise_name(noise), cell_s,
		 100.0 * r->build_right / r->n, 100.0 * r->worth / r->n, 100.0 * r->false_loss / r->n,
		 100.0 * r->false_line / r->n, 100.0 * r->pick_good / r->n, fx, r->minutes);
	fputs(line, stdout);
	fflush(stdout);
}

/* The bars of the 30-minute study, in one noise model, as shares of studies (keeps: at 20 studies, on evidence). */
static void bars(enum r0_sim_truth truth, enum r0_sim_noise noise, double cell_s, const struct row *r)
{
	unsigned n = r->n;
	double build = 100.0 * r->build_right / n, pick = 100.0 * r->pick_good / n;

	/* under the sanitizers (make asan) the same code runs on 2 studies a row, for memory
	 * errors only: the bars are the plain run's */
	if (getenv("R0_SIM_SANITIZE"))
		return;
	bool low = noise == R0_SIM_GAUSS2, mid = noise == R0_SIM_GAUSS5 || noise == R0_SIM_OUTLIERS;
	const char *tn = r0_sim_truth_name(truth), *nn = r0_sim_noise_name(noise);

	cr_expect(keeps(n - r->build_right, n, low || mid ? 0.05 : 0.10), "%s, %s, %.1f s: build count right in %.0f %%",
		  tn, nn, cell_s, build);
	cr_expect(keeps(r->false_loss, n, 0.05), "%s, %s, %.1f s: false losers", tn, nn, cell_s);
	cr_expect(keeps(r->false_line, n, 0.10), "%s, %s, %.1f s: false per-workload lines", tn, nn, cell_s);
	if (truth == R0_SIM_TRUE_115)
		cr_expect(keeps(r->worth, n, 0.05), "%s, %s, %.1f s: a true 1.15x worth it", tn, nn, cell_s);
	if (truth == R0_SIM_TRUE_13 && (low || noise == R0_SIM_GAUSS5))
		cr_expect(keeps(n - r->worth, n, 0.05), "%s, %s, %.1f s: a true 1.3x worth it", tn, nn, cell_s);
	if (low || mid)
		cr_expect(keeps(n - r->pick_good, n, low ? 0.05 : 0.10), "%s, %s, %.1f s: the pick within 5 %% in %.0f %%",
			  tn, nn, cell_s, pick);
	if (r->fixed_good)
		cr_expect_geq(pick, 100.0 * r->fixed_good / n - 5, "%s, %s, %.1f s: no more than 5 points behind the fixed plan",
			      tn, nn, cell_s);
}

/*
 * The bars of the 30-minute study under a bank of real noise (issue 44):
 * chunks equal in truth, a complete choice called a loser in at most 5 %;
 * a true 1.15x worth it in at most 5 %, a true 1.3x in 90 % or more; the
 * build count right in 95 % (90 % where the bank's runs stray 7.5 % or
 * more); the pick within 5 % of the best in 90 %. The power to show a
 * true 1.3x (and its count) where the bank's runs stray 15 % or less: at
 * 200 studies a row it was 94-100 % there, 64 % on r0ssd's (runs
 * straying 19 %), whose false-claim bars hold (docs/validation.md).
 */
static void bank_bars(enum r0_sim_truth truth, enum r0_sim_noise noise, double cell_s, const struct row *r)
{
	unsigned n = r->n;
	double build = 100.0 * r->build_right / n, pick = 100.0 * r->pick_good / n;
	double sd = r0_sim_bank_run_sd(noise);
	/* beyond the runs' noise the calibration calls validated (R0_VALID_RUN_NOISE, r0/calibrate.h)
	 * the false-claim bars hold but 30 minutes do not show a true 1.3x; the calibration says so */
	bool power = sd <= 0.15;
	const char *tn = r0_sim_truth_name(truth), *nn = r0_sim_noise_name(noise);

	if (getenv("R0_SIM_SANITIZE"))
		return;
	cr_expect(keeps(r->false_loss, n, 0.05), "%s, %s, %.1f s: false losers in %.0f %%", tn, nn, cell_s,
		  100.0 * r->false_loss / n);
	if (truth != R0_SIM_TRUE_13 || power)
		cr_expect(keeps(n - r->build_right, n, sd >= 0.075 ? 0.10 : 0.05),
			  "%s, %s, %.1f s: build count right in %.0f %%", tn, nn, cell_s, build);
	if (truth == R0_SIM_TRUE_115)
		cr_expect(keeps(r->worth, n, 0.05), "%s, %s, %.1f s: a true 1.15x worth it in %.0f %%", tn, nn, cell_s,
			  100.0 * r->worth / n);
	if (truth == R0_SIM_TRUE_13 && power)
		cr_expect(keeps(n - r->worth, n, 0.10), "%s, %s, %.1f s: a true 1.3x worth it in %.0f %%", tn, nn,
			  cell_s, 100.0 * r->worth / n);
	cr_expect(keeps(n - r->pick_good, n, 0.10), "%s, %s, %.1f s: the pick within 5 %% in %.0f %%", tn, nn, cell_s,
		  pick);
}

/*
 * The 30-minute study on simulated drives, through r0sweep's own loop:
 * the findings of issue 36 (a third drive that adds nothing, a limit the
 * members share, one slow run, drift) against their bars, 20 studies a
 * row. The whole matrix (every truth, every noise, 3.8 and 2.3 s cells,
 * the fixed plan beside it) is recipes/bench/study-plans' (make perf).
 */
Test(sim, the_money_answers_at_3_8_s_cells, .timeout = 600)
{
	static const enum r0_sim_truth truths[] = { R0_SIM_NO_GAIN, R0_SIM_PERFECT, R0_SIM_THIRD_NOTHING,
						    R0_SIM_SHARED, R0_SIM_TRUE_115, R0_SIM_TRUE_13 };
	static const enum r0_sim_noise noises[] = { R0_SIM_GAUSS2, R0_SIM_GAUSS5, R0_SIM_OUTLIERS, R0_SIM_DRIFT };

	for (size_t t = 0; t < N(truths); t++)
		for (size_t nz = 0; nz < N(noises); nz++) {
			struct row r;

			run_row(truths[t], noises[nz], 3.8, false, &r);
			bars(truths[t], noises[nz], 3.8, &r);
		}
}

/*
 * The 30-minute study under real noise: three banks (tests/data/noise/,
 * each simulated target borrowing a real target's visits whole) under
 * the truths the bars speak of, 20 studies a row. The bars: bank_bars;
 * the rows print their figures. R0_SIM_BANKS (a list of the banks'
 * names: "sample,r0ssd-md") runs those banks' rows instead; a name that is
 * no built-in bank is read from tests/data/noise/NAME.json (a new
 * recording's, through R0_SIM_BANK_NAMED).
 */
Test(sim, bank_noise_at_3_8_s_cells, .timeout = 3600)
{
	static const enum r0_sim_truth truths[] = { R0_SIM_PERFECT, R0_SIM_THIRD_NOTHING, R0_SIM_TRUE_115,
						    R0_SIM_TRUE_13 };
	enum { MAX_BANKS = 16 };
	enum r0_sim_noise noises[MAX_BANKS] = { R0_SIM_BANK_DEMO, R0_SIM_BANK_NVME, R0_SIM_BANK_SATA };
	char names[MAX_BANKS][32] = { "" };   /* a named bank's name; "" for a built-in */
	size_t nn = 3;
	const char *only = getenv("R0_SIM_BANKS");
	/* R0_SIM_TRUTH=N: that truth (enum r0_sim_truth) alone, for a look at one row */
	const char *one = getenv("R0_SIM_TRUTH");

	/* R0_SIM_BANKS=sample,r0ssd-md: those banks' rows instead (their files' names) */
	if (only && *only) {
		char list[512], *save = NULL;

		cr_assert_lt(strlen(only), sizeof(list), "R0_SIM_BANKS: too long");
		strcpy(list, only);
		nn = 0;
		for (char *b = strtok_r(list, ",", &save); b; b = strtok_r(NULL, ",", &save)) {
			cr_assert_lt(nn, MAX_BANKS, "R0_SIM_BANKS: at most %d banks", MAX_BANKS);
			noises[nn] = R0_SIM_BANK_NAMED;
			for (int nz = R0_SIM_BANK_FIRST; nz < R0_SIM_NOISES; nz++)
				if (!strcmp(b, r0_sim_noise_bank((enum r0_sim_noise)nz)))
					noises[nn] = (enum r0_sim_noise)nz;
			if (noises[nn] == R0_SIM_BANK_NAMED) {
				cr_assert_lt(strlen(b), sizeof(names[nn]), "R0_SIM_BANKS: %s: name too long", b);
				strcpy(names[nn], b);
			}
			nn++;
		}
	}
	/* bank by bank: the named slot holds one at a time */
	for (size_t nz = 0; nz < nn; nz++) {
		cr_assert(!names[nz][0] || r0_sim_bank_name(names[nz]) == 0,
			  "bank %s: not read from tests/data/noise/%s.json", names[nz], names[nz]);
		cr_assert(!isnan(r0_sim_bank_run_sd(noises[nz])), "%s: the bank is read from tests/data/noise/",
			  r0_sim_noise_name(noises[nz]));
		for (size_t t = 0; t < N(truths); t++) {
			struct row r;
			enum r0_sim_truth truth = one && *one ? (enum r0_sim_truth)atoi(one) : truths[t];

			if (one && *one && t)
				break;
			run_row(truth, noises[nz], 3.8, false, &r);
			bank_bars(truth, noises[nz], 3.8, &r);
		}
	}
}

/* A bank by name reads as its built-in self; a name with no file is refused, and the slot stays empty. */
Test(sim, a_bank_by_name)
{
	cr_expect(!r0_sim_noise_is_bank(R0_SIM_BANK_NAMED), "nothing named yet");
	cr_expect_eq(r0_sim_bank_name("no-such-bank"), -ENOENT);
	cr_expect(!r0_sim_noise_is_bank(R0_SIM_BANK_NAMED));
	cr_assert_eq(r0_sim_bank_name("sata-real-md"), 0, "tests/data/noise/sata-real-md.json is read");
	cr_expect(r0_sim_noise_is_bank(R0_SIM_BANK_NAMED));
	cr_expect_str_eq(r0_sim_noise_bank(R0_SIM_BANK_NAMED), "sata-real-md");
	cr_expect_str_eq(r0_sim_noise_name(R0_SIM_BANK_NAMED), "bank: sata-real-md");
	cr_expect_eq(r0_sim_bank_run_sd(R0_SIM_BANK_NAMED), r0_sim_bank_run_sd(R0_SIM_BANK_SATA));
}

/* Every truth under every noise at one cell time: only when R0_SIM_MATRIX is set (the recipe's). */
static void matrix(enum r0_sim_truth truth, double cell_s)
{
	if (!getenv("R0_SIM_MATRIX"))
		cr_skip_test("the whole matrix is recipes/bench/study-plans' (R0_SIM_MATRIX=1)");
	for (int nz = 0; nz < R0_SIM_NOISES; nz++) {
		struct row r;
		bool fixed = nz <= R0_SIM_GAUSS5 || nz == R0_SIM_OUTLIERS;

		run_row(truth, (enum r0_sim_noise)nz, cell_s, fixed, &r);
		if (r0_sim_noise_is_bank((enum r0_sim_noise)nz))
			bank_bars(truth, (enum r0_sim_noise)nz, cell_s, &r);
		else
			bars(truth, (enum r0_sim_noise)nz, cell_s, &r);
	}
}

#define SIM_TEST(t, cell) \
	Test(matrix, t##_##cell, .timeout = 3600) { matrix(R0_SIM_##t, cell / 10.0); }

SIM_TEST(NO_GAIN, 38)
SIM_TEST(PERFECT, 38)
SIM_TEST(THIRD_NOTHING, 38)
SIM_TEST(SHARED, 38)
SIM_TEST(RAID0, 38)
SIM_TEST(CHUNK_AHEAD, 38)
SIM_TEST(CHUNK_RANDOM, 38)
SIM_TEST(TRUE_115, 38)
SIM_TEST(TRUE_13, 38)
SIM_TEST(NO_GAIN, 23)
SIM_TEST(PERFECT, 23)
SIM_TEST(THIRD_NOTHING, 23)
SIM_TEST(SHARED, 23)
SIM_TEST(RAID0, 23)
SIM_TEST(CHUNK_AHEAD, 23)
SIM_TEST(CHUNK_RANDOM, 23)
SIM_TEST(TRUE_115, 23)
SIM_TEST(TRUE_13, 23)

/* Records of every active target up to its need, at the truths of a_beaten_chunk_is_not_expanded. */
static size_t fill_needs(const struct r0_sweep_plan *plan, const struct r0_planner *p, struct r0_sweep_set *set)
{
	size_t added = 0;

	for (size_t t = 0; t < plan->n_targets; t++)
		for (size_t w = 0; w < plan->n_wl; w++)
			for (unsigned rep = p->have[t][w] + 1; p->active[t] && rep <= p->need[t][w]; rep++) {
				const struct r0_sweep_target *x = &plan->targets[t];
				struct r0_sweep_rec r = { .layer = x->layer, .chunk_bytes = x->chunk_bytes,
							  .n_members = x->n, .repeat = rep, .runtime_s = 1 };
				double truth = x->layer == R0_LAYER_RAW ? 100e6 : x->chunk_bytes == 65536 ? 280e6 : 150e6;

				snprintf(r.label, sizeof(r.label), "%s", plan->wl[w].label);
				r.access = plan->wl[w].w.access;
				r.read_pct = plan->wl[w].w.read_pct;
				r.block_bytes = plan->wl[w].w.block_bytes;
				r.queue_depth = plan->wl[w].w.queue_depth;
				r.jobs = 1;
				r.bytes_per_s = truth * (1 + 0.01 * ((double)(rep % 3) - 1));
				r.iops = r.bytes_per_s / r.block_bytes;
				r.ios = 1000;
				r.cpu_s_per_io = 0.1 / r.iops;
				cr_assert_eq(r0_sweep_set_add(set, &r), 0);
				added++;
			}
	return added;
}

/*
 * One look at clear data: 64K well ahead of 1M, 1 % noise. The next step
 * measures 64K at 2 members, with its partners again, and nothing else:
 * the money answers have a step to themselves while they take cells. The
 * one after measures 64K on dm, but not 1M there, and names what it left
 * out; nothing is undecided.
 */
Test(adaptive, a_beaten_chunk_is_not_expanded)
{
	static const uint32_t chunks[] = { 64 * 1024, 1024 * 1024 };
	static const unsigned qd1[] = { 1 };
	const struct r0_preset *cdm3 = r0_preset_find("cdm3");
	const bool backend[2] = { true, true };
	const bool count[R0_MAX_MEMBERS + 1] = { false, true, true, true };
	static struct r0_sweep_plan plan;
	static struct r0_planner p;
	struct r0_sweep_set set = { 0 };
	struct r0_mix mix;

	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	memset(&plan, 0, sizeof(plan));
	cr_assert_eq(r0_sweep_plan_workloads(&plan, &cdm3, 1, qd1, 1, false, true), 0);
	cr_assert_eq(r0_sweep_plan_targets(&plan, backend, 3, count, chunks, 2, chunks, 1), 0);
	cr_assert_eq(r0_planner_init(&p, &plan, true, 3, 8), 0);
	/* first: raw and md of 3 at both chunks */
	for (size_t t = 0; t < plan.n_targets; t++) {
		const struct r0_sweep_target *x = &plan.targets[t];

		cr_expect_eq(p.active[t], x->layer == R0_LAYER_RAW || (x->layer == R0_LAYER_MD && x->n == 3),
			     "target %zu: %d %u %u", t, x->layer, x->n, x->chunk_bytes);
	}
	cr_assert_eq(r0_planner_step(&p, &set, &mix, NULL, SIZE_MAX), 1, "the first look is to run");
	cr_assert_gt(fill_needs(&plan, &p, &set), 0);
	cr_assert_eq(r0_planner_step(&p, &set, &mix, NULL, SIZE_MAX), 1, "the counts");
	for (size_t t = 0; t < plan.n_targets; t++) {
		const struct r0_sweep_target *x = &plan.targets[t];
		bool want = x->layer == R0_LAYER_RAW || (x->layer == R0_LAYER_MD && x->n == 3) ||
			    (x->layer == R0_LAYER_MD && x->chunk_bytes == 65536 && x->n == 2);

		cr_expect_eq(p.active[t], want, "the counts: target %zu: %s %u x %uK", t, r0_layer_name(x->layer),
			     x->n, x->chunk_bytes / 1024);
	}
	/* the new target's partners, the pick at 3 and the single drive, are measured again in its passes */
	for (size_t t = 0; t < plan.n_targets; t++) {
		const struct r0_sweep_target *x = &plan.targets[t];

		if (x->layer == R0_LAYER_RAW || (x->layer == R0_LAYER_MD && x->n == 3 && x->chunk_bytes == 65536))
			cr_expect_eq(p.need[t][0], 6, "target %zu: %u", t, p.need[t][0]);
	}
	cr_assert_gt(fill_needs(&plan, &p, &set), 0);
	cr_assert_eq(r0_planner_step(&p, &set, &mix, NULL, SIZE_MAX), 1, "around the set");
	for (size_t t = 0; t < plan.n_targets; t++) {
		const struct r0_sweep_target *x = &plan.targets[t];
		/* dm of 2 only once dm of 3 is measured and in the set; the 1-member stripes only
		 * when nothing before them wants a cell */
		bool want = x->layer == R0_LAYER_RAW || (x->layer == R0_LAYER_MD && x->n == 3) ||
			    (x->chunk_bytes == 65536 && x->n >= 2 && !(x->layer == R0_LAYER_DM && x->n == 2));

		cr_expect_eq(p.active[t], want, "target %zu: %s %u x %uK", t, r0_layer_name(x->layer), x->n,
			     x->chunk_bytes / 1024);
	}
	cr_expect(strstr(p.dropped, "dm 3 x 1024K") && strstr(p.dropped, "md 2 x 1024K"), "%s", p.dropped);
	cr_expect_eq(p.at_max, 0);
	r0_sweep_set_free(&set);
}

/* The first look of md 3 x 64K and 1M against one drive, 2 % noise, pass = repeat; SLOW: 1M's pass 2 at 0.7x. */
static void first_look(const struct r0_sweep_plan *plan, const struct r0_planner *p, bool slow,
		       struct r0_sweep_set *set)
{
	struct r0_prng rng;

	r0_prng_seed(&rng, 17);
	for (unsigned rep = 1; rep <= 3; rep++)
		for (size_t t = 0; t < plan->n_targets; t++)
			for (size_t w = 0; p->active[t] && w < plan->n_wl; w++) {
				const struct r0_sweep_target *x = &plan->targets[t];
				struct r0_sweep_rec r;
				double v = (x->layer == R0_LAYER_RAW ? 100e6 : x->chunk_bytes == 65536 ? 280e6 : 150e6) *
					   (1 + 0.02 * r0_prng_gauss(&rng));

				if (slow && x->chunk_bytes == 1024 * 1024 && rep == 2)
					v *= 0.7;
				r0_sim_rec(&r, x->layer, x->chunk_bytes, x->n, plan->wl[w].label, &plan->wl[w].w, rep, v);
				r.pass = rep;
				cr_assert_eq(r0_sweep_set_add(set, &r), 0);
			}
}

/*
 * A visit set aside whole (md 3 x 1M slow on every workload in pass 2)
 * brings one visit more of its target, every workload, though the chunk
 * is beaten; without it the beaten chunk gets no more runs.
 */
Test(adaptive, a_visit_set_aside_is_visited_again)
{
	static const uint32_t chunks[] = { 64 * 1024, 1024 * 1024 };
	static const unsigned qd1[] = { 1 };
	const struct r0_preset *cdm3 = r0_preset_find("cdm3");
	const bool backend[2] = { true, false };
	const bool count[R0_MAX_MEMBERS + 1] = { false, true, false, true };
	static struct r0_sweep_plan plan;
	static struct r0_planner p;
	struct r0_mix mix;

	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	memset(&plan, 0, sizeof(plan));
	cr_assert_eq(r0_sweep_plan_workloads(&plan, &cdm3, 1, qd1, 1, false, true), 0);
	cr_assert_eq(r0_sweep_plan_targets(&plan, backend, 3, count, chunks, 2, chunks, 1), 0);
	for (int slow = 1; slow >= 0; slow--) {
		struct r0_sweep_set set = { 0 };
		struct r0_sweep_rec probe = { .layer = R0_LAYER_MD, .chunk_bytes = 1024 * 1024, .n_members = 3 };
		int t;

		cr_assert_eq(r0_planner_init(&p, &plan, true, 3, 8), 0);
		first_look(&plan, &p, slow, &set);
		t = r0_planner_target_of(&p, &probe);
		cr_assert_geq(t, 0);
		cr_assert_geq(r0_planner_step(&p, &set, &mix, NULL, SIZE_MAX), 0);
		/* one visit more: each workload once, not a run more per run set aside and one more */
		for (size_t w = 0; w < plan.n_wl; w++) {
			cr_expect_eq(r0_planner_next_repeat(&p, (size_t)t, w), slow ? 4u : 0u, "slow %d, workload %zu", slow, w);
			cr_expect_eq(p.aside[t][w], slow ? 1u : 0u, "slow %d, workload %zu", slow, w);
		}
		r0_sweep_set_free(&set);
	}
}
