/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a sweep's cells say: per workload and target (layer, chunk, member
 * count) the median of the repeats with its spread, the speed-up over a
 * single drive and the scaling efficiency; the best chunk per workload;
 * and an overall recommendation weighted by a workload mix, with its
 * reasoning and a one-sentence verdict. Pure functions over an
 * r0_run_set: no I/O.
 *
 * Noise: every comparison (an array against the single drive, a chunk
 * against the best one, under the mix or per workload) goes through
 * r0/compare.h: the ratio of medians with a seeded bootstrap interval over
 * both sides' repeats; a difference counts only when the interval
 * excludes 1 and the ratio is beyond the practical threshold. Cells with
 * I/O errors are left out of every median and named in the reasoning.
 *
 * Three files make it: lib/study/analysis.c groups the records into cells and
 * baselines, lib/study/ranking.c judges (answers, ties, choices, the pick, the
 * members to build), lib/study/verdict.c puts the judgements into words.
 */
#ifndef R0_ANALYSIS_H
#define R0_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/compare.h"
#include "r0/geometry.h"
#include "r0/mix.h"
#include "r0/stats.h"
#include "r0/runs.h"

/*
 * "worth it" needs the interval's lower bound at this speed-up or above;
 * a point at or above it with only the lower bound above 1 is "likely
 * worth it". The default of r0_cmp_opts.worth.
 */
#define R0_WORTH_SPEEDUP 1.2
/* the n-th drive is one to buy when n give at least this much of n - 1 by the same rule
 * (the default of r0_cmp_opts.drive_gain) */
#define R0_DRIVE_GAIN 1.2
/*
 * The pick among choices that cannot be told from the best: the one
 * nearest 512K only where its interval shows it within this share of the
 * best; otherwise the best itself. A tie the data cannot show close
 * enough never moves the pick away from the best measured.
 */
#define R0_PICK_MARGIN 0.025
/*
 * A choice whose figure under the mix is below this share of the best's,
 * while its interval still reaches the best, is "too noisy to tell": not
 * told apart, but no tie either; never in the recommended set, and the
 * planner measures it again while the budget allows.
 */
#define R0_TOO_NOISY 0.8
/* r0_mix_unmeasured's words for every class a mix can weigh (r0_mix_classes): never cut mid-item */
#define R0_MIX_UNMEASURED_MAX 1536
/* a measuring thread busier than this was the limit, maybe not the drives */
#define R0_CPU_BOUND 0.8
/*
 * Diminishing returns: where n - 1 members scaled well (faster than one
 * drive beyond noise, efficiency at least R0_SCALED_EFF), the n-th member
 * is held back when n members give at most 1 + R0_SHARED_GAIN / (n - 1)
 * of n - 1 (3 of 2: 1.25x, against 1.5x for clean scaling) and fall short
 * of clean scaling (n / (n - 1) of n - 1) beyond noise (r0_compare).
 */
#define R0_SCALED_EFF 0.75
#define R0_SHARED_GAIN 0.5

/* One workload: what the records with this name measured. */
struct r0_wl {
	char name[48];              /* "Seq read" (r0_run_workload) */
	char cls[24];               /* r0_workload_class */
	struct r0_run proto;  /* label, access, read_pct, block, align, depth, jobs */
	double weight;              /* under the mix, normalised (sum 1 over all workloads) */
	struct r0_stat base;        /* the single drive's bytes/s: raw, else 1-member stripes */
	double *base_v;             /* its repeats' bytes/s, base.n of them, drift taken out (r0/noise.h) */
	unsigned *base_pass;        /* the pass (visit) each was measured in; 0: not recorded */
	double base_var, base_df;   /* the noise of one of them: variance of log(run), its degrees of
	                             * freedom (0: from base_v alone) */
	double noise;               /* the workload's pooled noise, a share (sd of log(run)); 0: unknown */
	double base_cpu_busy;       /* median busy share of the baseline's measuring thread */
	bool base_raw;              /* base measured raw */
	struct r0_cmp vs_fewer;     /* at the pick, max_members against max_members - 1 members
	                             * (ratio 0: not compared) */
	bool shared_limit;          /* the last member added little where the others scaled well
	                             * (R0_SHARED_GAIN): something the members share is the limit */
};

/* What one workload (or the mix) says about the array against one drive. */
enum r0_answer {
	R0_ANSWER_NONE,             /* nothing to compare */
	R0_ANSWER_WORTH,            /* >= R0_WORTH_SPEEDUP and faster beyond noise and threshold */
	R0_ANSWER_NOT,              /* the interval's top is below R0_WORTH_SPEEDUP */
	R0_ANSWER_UNSURE,           /* the interval straddles the bar: could not tell */
	R0_ANSWER_CPU,              /* the single drive's measuring thread was busy >= R0_CPU_BOUND,
	                             * or the array's and it is not worth it beyond noise */
	R0_ANSWER_LIKELY,           /* the point at or above the bar and faster beyond noise, but the
	                             * interval's bottom below the bar */
};

/* "worth it", "likely worth it", "not worth it", "could not tell", "could not tell: the measuring CPU was the limit". */
const char *r0_answer_name(enum r0_answer a);

/* One workload on one target. */
struct r0_cell {
	enum r0_layer layer;
	uint32_t chunk_bytes;
	unsigned n_members;
	size_t wl;                  /* index into ->wl */
	struct r0_stat bps, iops, cpu_per_io;
	struct r0_stat seconds;     /* runtime_s: the time a scenario or a replay took */
	struct r0_stat lat_mean, lat_p50, lat_p99, lat_p999, lat_p9999;
	double *bps_v;              /* the repeats' bytes/s (bps.n of them), error-free ones (those judged
	                             * far too), with their pass's drift taken out (r0/noise.h) */
	unsigned *pass_v;           /* the visit (pass; in files without passes, the repeat) of each */
	double var_log, df_log;     /* the noise of one repeat: variance of log(run) moderated toward
	                             * the workload's pooled one, its degrees of freedom; 0: unknown */
	unsigned n_far;             /* repeats judged far from the cell's others, or in a visit judged
	                             * far whole (r0/noise.h): measured again, and kept */
	unsigned n_visit_far;       /* of them, in a visit judged far whole */
	struct r0_cmp vs_base;      /* bytes/s against the baseline's (both sides' noise) */
	struct r0_stat speedup;     /* med: vs_base.ratio; min, max: its interval; n 0 without a base */
	double efficiency;          /* speedup.med / n_members */
	bool tie_best;              /* cannot be told from the best chunk of its layer, count and workload */
	enum r0_answer answer;      /* worth it against the single drive? */
	double cpu_busy;            /* median share of the time the busiest measuring thread was on a
	                             * CPU (its own clock; older records: IOPS x CPU s per I/O / jobs);
	                             * near 1: CPU-bound */
	uint64_t errors;            /* summed over the repeats, excluded ones included */
	unsigned n_excluded;        /* repeats left out: I/O errors, or no request completed */
};

/* What the analysis did with one run (a record of the set). */
enum r0_run_use {
	R0_RUN_USED,                /* in its cell's figures */
	R0_RUN_FAR,                 /* in its cell's figures, far from its cell's other repeats: measured
	                             * again (r0/noise.h) */
	R0_RUN_VISIT_FAR,           /* in its cell's figures, in a visit judged far whole: visited again */
	R0_RUN_UNMEASURED,          /* left out, not a measurement: I/O errors, or no request completed */
};

/* A candidate configuration at the largest member count, scored under the mix. */
struct r0_choice {
	enum r0_layer layer;
	uint32_t chunk_bytes;
	double score, score_min, score_max;   /* speed-up under the mix and its interval */
	struct r0_cmp vs_base;                /* the same as a comparison with the baseline */
	struct r0_cmp vs_best;                /* under the mix, against the best score's choice */
	bool tie_best;                        /* cannot be told from the best: in the recommended set */
	bool too_noisy;                       /* not told from the best, its figure under R0_TOO_NOISY
	                                       * of it: neither in the set nor a loser */
	/* no figure for a workload of the mix that another choice has (its cells
	 * failed, or were not predicted): its score rests on other workloads than
	 * theirs, so it is ranked after every complete choice and never picked */
	bool incomplete;
	size_t missing_wl;                    /* incomplete: the first workload of the mix it lacks */
	/* not tie_best, compared with the best: it loses by loss_ratio on workload loss_wl,
	 * the worst beyond noise, or under the mix (loss_wl n_wl, loss_ratio vs_best.ratio) */
	bool loses;
	size_t loss_wl;
	double loss_ratio;
	char loss[96];                        /* in words: "loses 60 % on Seq read", "no figure for ..." */
};

struct r0_analysis {
	size_t n_wl;
	struct r0_wl *wl;
	size_t n_cell;
	struct r0_cell *cell;
	unsigned max_members;       /* the largest count measured */
	unsigned repeats;           /* the most repeats any cell has */
	double runtime_s;           /* the longest measured window of one repeat */
	unsigned min_repeats;       /* the fewest error-free repeats of a compared cell */
	bool indicative;            /* min_repeats < R0_CMP_MIN_REPEATS: noise unknown */
	/* the machine's noise beyond any the study was validated on (r0_analyse_machine): every
	 * claim withheld, the figures ranked, none told apart; NOISE_WHY says the figures */
	bool noise_beyond;
	char noise_why[160];
	bool predicted;             /* its cells are r0predict's (predicted: true), not measured */
	char devices[256 + 2 + R0_DEVICES_TEXT_MAX];   /* of the first record: its describe; its devices */
	char state[32], tool[48], precondition[16];
	char mix_name[32];
	bool mix_per_request;       /* the mix was given in shares of requests (runs), turned into
	                             * shares of one drive's time by its time per request here */
	/* the mix's classes no workload of the study belongs to, with their shares
	 * (r0_mix_unmeasured); "": none. Also in the reasoning. Room for every class,
	 * none cut: 15 classes of at most 80 characters each */
	char mix_unmeasured[R0_MIX_UNMEASURED_MAX];
	double mix_unmeasured_share;   /* their share of the mix's weight, 0 to 1: the verdict's figure leaves it out */
	struct r0_cmp_opts cmp;     /* as asked: the rate each family of claims is held to */
	struct r0_cmp_opts cmp_diff, cmp_bar, cmp_primary;   /* the families' levels (see diff_level):
	                                                      * what each comparison is made at */
	size_t n_choice;
	struct r0_choice *choice;   /* best score first */
	size_t pick;                /* the recommended one, from the tie_best set (see method) */
	bool has_choice;
	bool pick_for_counts;       /* the pick is the set's choice measured at every member count
	                             * (the best measured was not): how many drives is answered there,
	                             * and fewer than max_members are built */
	size_t pick_best;           /* the pick the set prefers, before any move for the counts */
	size_t counts_at;           /* the choice the money answers are made at (answer, worth, how many
	                             * drives, build_vs_base, the verdict): the pick, or, where the pick
	                             * lacks a count and max_members are built, the choice of the set
	                             * measured at every count (the pick is then pick_best) */
	enum r0_answer answer;      /* the pick under the mix (R0_ANSWER_CPU when not worth it
	                             * and half the weight or more is on CPU-limited workloads) */
	bool worth;                 /* answer == R0_ANSWER_WORTH */
	size_t n_excluded;          /* repeats left out: I/O errors, or no request completed */
	size_t n_far;               /* repeats judged far (r0/noise.h), those of far visits included; kept */
	enum r0_run_use *run_use;   /* each record of the set analysed, in its order: used (far or not) or why not */
	size_t n_run;               /* the set's records */
	char far[1024];             /* those judged far alone: "md 3 x 64K Seq read repeat 2 (0.61x of its cell)" */
	size_t n_visits_far;        /* visits (one target's runs in one pass) judged far whole */
	char visits_far[1024];      /* which: "md 3 x 512K, pass 3: 0.85x across 5 workloads" */
	double max_drift;           /* the largest drift of a pass taken out, a share; 0: none */
	double visit_rho;           /* the correlation of one visit's runs (r0_noise.visit_rho): the
	                             * mix's workloads measured in one visit do not count as independent */
	bool pooled;                /* comparisons use the study's pooled noise (r0/noise.h) */
	bool ordered;               /* the cells record their repeat's order (order_pos) */
	bool passes;                /* the records carry their pass; else (an older r0sweep, which swept
	                             * repeat by repeat, or r0predict) each repeat stands for its pass */
	char method[3072];          /* a few sentences: how differences are told from noise */
	char chunks[1024];          /* "md 64K, md 512K are equivalent within 5 %; md 4K loses 60 % on ..." */
	bool shared_limit;          /* some workload's wl[].shared_limit */
	char shared[1024];          /* "3 drives: 1.15x of 2: something the members share is the limit
	                             * - a controller, a link, or the CPU (on Seq read, ...)." or "" */
	/*
	 * How many members to build (the pick's layer and chunk): the fewest,
	 * from 2, whose speed-up under the mix no larger count beats beyond
	 * noise (r0_compare, sign > 0) and whose answer against one drive is the
	 * largest array's; max_members when none is fewer.
	 */
	unsigned build_members;
	bool build_decided;         /* every count up to the one built was measured at the pick */
	unsigned build_unmeasured;  /* !build_decided: the first count the pick lacks */
	struct r0_cmp build_vs_base;   /* the mix's speed-up at build_members (as choice[].vs_base) */
	struct r0_cmp more_vs_build;   /* max_members against build_members under the mix
	                                * (ratio 0: build_members == max_members) */
	struct r0_cmp fewer_vs_base;   /* build_members - 1 (2 or more) against one drive, not shown
	                                * worth it: the count below the fewest that is (ratio 0: none) */
	unsigned build_fewest;      /* the fewest count worth it (or likely) under the mix; 0: none */
	/*
	 * What each drive adds at the pick under the mix, with build_fewest:
	 * [2] 2 drives against one, [n] n against n - 1 (n up to max_members);
	 * ratio 0: not compared
	 */
	struct r0_cmp drive_step[R0_MAX_MEMBERS + 1];
	char build[768];            /* why this count: what each drive bought beyond the 2nd adds ("2
	                             * drives give 1.80x one drive (...), worth it; the 3rd adds 1.40x
	                             * of 2 (...), at least the 1.20x a drive must add"), then why not
	                             * more: "a 4th drive adds 1.03x (1.02-1.08) under the sequential
	                             * mix, shown not to reach the 1.20x a drive must add: something
	                             * the members share is the limit"; "" if the verdict's figure
	                             * says it all (2 drives of 2) */
	/*
	 * The study's claims, in three families, each held to the rate 1 -
	 * confidence by Benjamini-Hochberg: differences (a chunk or an array
	 * told apart from the best), the verdict's own answers under the mix
	 * (worth it, each drive worth buying: primary) and each workload's
	 * worth it (bar). The level is what each claim's interval was made
	 * at; the count how many claims the family held.
	 */
	double diff_level, bar_level, primary_level;
	size_t diff_claims, bar_claims, primary_claims;
	char lead[512];             /* the verdict's answer in one clause: "worth it with 2 of them under
	                             * the desktop mix, md 64K at 1.92x one drive (1.89-1.95)"; "" without
	                             * a pick */
	char verdict[2048];         /* the verdict in one sentence: "RAID0 of these 3 drives: worth it
	                             * under the desktop mix, md 512K at 1.85x one drive (...); ..." */
	char detail[3072];          /* the verdict in detail: "RAID0 of these 2 drives: worth it for ...; not for ...; ..." */
	char reasoning[16384];      /* a few lines on how the verdict was reached */
};

/*
 * Analyses SET under MIX into *OUT (free with r0_analysis_free), comparing
 * with CMP (NULL: r0_cmp_defaults). The recommended chunk is picked from
 * the tie_best set by one rule: the chunk nearest 512K (mdadm's default)
 * in powers of two, the larger on a tie, md before dm. 0; -ENODATA if SET
 * has no cell; -EINVAL for bad CMP options; -ENOMEM.
 */
int r0_analyse(const struct r0_run_set *set, const struct r0_mix *mix, const struct r0_cmp_opts *cmp,
	       struct r0_analysis *out);
void r0_analysis_free(struct r0_analysis *a);

/* The cell of workload WL on that target, or NULL. */
const struct r0_cell *r0_analysis_cell(const struct r0_analysis *a, enum r0_layer layer,
				       uint32_t chunk_bytes, unsigned n_members, size_t wl);

/*
 * Whether cell C is its workload's single drive, the baseline its speed-ups
 * are over: the raw cell, or (no raw run usable) each 1-member stripe,
 * their repeats pooled. Such a cell answers nothing against itself.
 */
bool r0_analysis_is_baseline(const struct r0_analysis *a, const struct r0_cell *c);

/*
 * The best chunk for workload WL on LAYER at N members (highest median
 * bytes/s) into *BEST, and every chunk that cannot be told from it (the
 * best included; r0_compare) into TIED[0..*n_tied) (at most MAX). 0, or
 * -ENOENT if no chunk was measured there.
 */
int r0_analysis_best_chunk(const struct r0_analysis *a, enum r0_layer layer, unsigned n,
			   size_t wl, uint32_t *best, uint32_t *tied, size_t max, size_t *n_tied);

/*
 * " (40 % of the mix's time is in workloads not measured)" into BUF, as
 * the verdict's headline says it beside its figure; "" when the study
 * measured every class the mix weighs. BUF.
 */
const char *r0_analysis_unmeasured_caveat(const struct r0_analysis *a, char *buf, size_t len);

#endif
