/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The user's own machine, checked (issue #44): how noisy a study's runs
 * are, and an A/A calibration.
 *
 *  - The noise of any r0sweep study, from its own runs: each target's
 *    visit sd (a visit is one target's runs in one pass; its effect the
 *    mean log residual of its runs about their cells, after each pass's
 *    drift is taken out), the correlation of the runs of one visit, the
 *    tails (kurtosis), the drift and each target's run noise; then one
 *    sentence: within what the study was validated for, or not and what
 *    to do.
 *  - A calibration (r0sweep --calibrate): one md array of the members at
 *    64K, built afresh at every visit and labelled as COPIES copies (A,
 *    B, ...), beside the raw first member as the baseline. The copies are
 *    the same array, so every difference the study's own statistics
 *    (r0_analyse) find between them is a false one: they are counted per
 *    workload and under the mix.
 *
 * Pure: no I/O, no global state.
 */
#ifndef R0_CALIBRATE_H
#define R0_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/compare.h"
#include "r0/mix.h"
#include "r0/runs.h"

#define R0_CALIB_DEFAULT_COPIES 3
#define R0_CALIB_MIN_COPIES 2
#define R0_CALIB_MAX_COPIES 8
#define R0_CALIB_CHUNK_BYTES (64u * 1024)   /* the copies' array: md at 64K */
#define R0_CALIB_MIN_PASSES 3               /* fewer tell no visit sd worth the name */
#define R0_CALIB_DEFAULT_BUDGET_NS (5ULL * 60 * 1000000000ULL)

/*
 * What the 30-minute study's statistics were validated for, as these
 * figures read the stored real studies behind the bank tests/data/noise/
 * (docs/validation.md, "Real noise"; 200 simulated studies a row, 3.8 s
 * cells, each visit drawn whole from the whole bank; far runs kept in
 * every figure, r0/noise.h):
 *  - every bar held (a true 1.3x worth it in 98-99 %, a true 1.15x in
 *    0 %, false losers within theirs) on nvme-real-md and sata-real-md:
 *    visit sd up to 4.1 %, run noise up to 10.0 %, correlation up to
 *    0.47 (all nvme-real's);
 *  - the false claims stayed within their bars (a true 1.15x worth it in
 *    0-1 %, a true 1.19x in 2-4 %) on demo, sample and r0ssd-md too,
 *    where a true 1.3x was worth it in only 46-88 %: up to r0ssd's visit
 *    sd 13.3 % (run noise up to the sample's 33.5 %). Beyond that visit
 *    sd a study makes no claim (r0_analyse_machine), and the sentence
 *    goes by the same bound: a run's own noise is what the intervals
 *    measure, a visit's shared part is what the rules were shown to
 *    hold under.
 * Run noise and correlation are read over every run, far ones too, each
 * residual against its target's run noise: the bounds are read the way a
 * study is (docs/validation.md, "Real noise", has them as first read).
 * Kurtosis is reported, not judged: three runs a cell make it unstable
 * (3.3 to 7.7 on the stored studies, every one within the false-claim bars).
 */
#define R0_VALID_VISIT_SD 0.042       /* every bar held up to here */
#define R0_VALID_RUN_NOISE 0.101
#define R0_VALID_VISIT_RHO 0.48
#define R0_HONEST_VISIT_SD 0.133      /* the false-claim bars held up to here */

#define R0_NOISE_MAX_TARGETS 64

/* One target's noise: a raw drive, an array, or a calibration's copy. */
struct r0_noise_target {
	enum r0_layer layer;
	uint32_t chunk_bytes;
	unsigned n_members, copy;
	char name[32];              /* "raw", "md 2 x 64K", "copy A" */
	unsigned visits;            /* visits with a residual: runs of cells measured twice or more */
	double visit_sd;            /* sd of its visits' effects, a share (0.02: 2 %); 0: unknown */
	double run_noise;           /* the sd of one run about its cell (log units: a share); 0: unknown */
};

struct r0_noise_diag {
	bool measured;              /* some target had 2 visits or more of cells measured twice */
	size_t n_runs;              /* runs used: measured, error-free, of cells with 2 runs or more */
	size_t n_visits;
	unsigned passes;            /* the last pass recorded (0: an older file; visits by repeat) */
	size_t n_target;
	struct r0_noise_target target[R0_NOISE_MAX_TARGETS];
	double visit_sd;            /* pooled over the targets */
	double visit_rho;           /* correlation of two runs of one visit (different workloads) */
	size_t rho_pairs;
	double kurtosis;            /* of the standardized residuals; a normal is 3 (with 3 or 4 passes
	                             * a normal reads about 2.2-2.6, and the figure rests on a few
	                             * hundred runs: one above the bound asks for more passes) */
	double max_drift;           /* the largest pass effect, a share */
	double run_noise_max;       /* the noisiest target's run noise */
	bool within;                /* each figure where every bar held (R0_VALID_*) */
	bool honest;                /* where the false-claim bars held, power not shown (R0_HONEST_VISIT_SD) */
	char figures[512];          /* "visit sd 2.1 % (raw 1.0 %, copy A 2.2 %, ...), correlation ..." */
	char sentence[768];         /* "Your machine's noise is within what ..." */
};

/*
 * The noise of SET's own runs into *OUT: cells as the analysis makes them
 * (one workload on one target, a calibration's copies apart), drift taken
 * out pass by pass (r0/noise.h). Residuals are log(run) about the cell's
 * mean, scaled by sqrt(n / (n - 1)) and standardized by the cell's sd (the
 * study's moderated one, r0_noise_fit's cell_var). Visits are (target,
 * pass), or (target, repeat) in files without passes. 0; -ENOMEM.
 */
int r0_noise_diag(const struct r0_run_set *set, struct r0_noise_diag *out);

struct r0_analysis;
/*
 * r0_analyse, told the machine's noise D (r0_noise_diag of the same
 * set): where its visit sd is beyond any the study was validated on
 * (R0_HONEST_VISIT_SD), on which even the false-claim bars were not shown
 * to hold, no claim is made: the answer is "too noisy to tell", no choice
 * loses, no chunk line is drawn and no drive count is decided; the
 * figures are ranked as measured (noise_beyond). D NULL or not measured:
 * r0_analyse.
 */
int r0_analyse_machine(const struct r0_run_set *set, const struct r0_mix *mix, const struct r0_cmp_opts *cmp,
		       const struct r0_noise_diag *d, struct r0_analysis *out);

/* Whether SET holds a calibration's records (a copy). */
bool r0_calib_is_calibration(const struct r0_run_set *set);

/* 'A' for copy 1 ... 'H' for 8; '?' otherwise. */
char r0_calib_letter(unsigned copy);

/*
 * The copies as distinct targets for r0_analyse: a copy of SET into OUT in
 * which copy c's records have the synthetic chunk R0_CALIB_SYNTH_CHUNK(c)
 * (one r0_analyse groups apart; never shown) and copy 0. 0 or -ENOMEM.
 */
#define R0_CALIB_SYNTH_CHUNK(c) (4096u << (c))
int r0_calib_map(const struct r0_run_set *set, struct r0_run_set *out);

struct r0_calibration {
	unsigned copies;            /* copies measured */
	unsigned members;
	unsigned passes;
	char mix_name[32];
	/* per workload: each copy against the best copy (copies - 1 a workload) */
	size_t wl_compared, wl_false;
	/* under the mix: each copy's choice against the best */
	size_t mix_compared, mix_loses, mix_too_noisy;
	char false_words[512];      /* the false differences: "Seq read: copy B 0.91x of copy A; ..." */
	struct r0_noise_diag noise;
	char answer[2560];          /* the calibration's answer, a few lines: its parts' buffers fit whole */
};

/*
 * A calibration's answer from SET (records with copies) under MIX with
 * CMP (NULL: the defaults). 0; -ENODATA (no copies, or no baseline),
 * -EINVAL, -ENOMEM as r0_analyse.
 */
int r0_calibrate(const struct r0_run_set *set, const struct r0_mix *mix, const struct r0_cmp_opts *cmp,
		 struct r0_calibration *out);

#endif
