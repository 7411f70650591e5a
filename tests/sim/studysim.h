/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whole studies on simulated drives with a known truth, run through the
 * very loop r0sweep runs (r0/study.h: the planner, the passes, the
 * analysis), so the answers a user spends money on (how many drives,
 * which array) can be checked against the truth under many models of how
 * drives really behave and misbehave.
 *
 * The plan is r0sweep's default for 3 drives: one drive, md and dm at six
 * chunks and 2 and 3 members, the 1-member stripes at 512K; the cdm3 and
 * cdm workloads (13). The truth models (enum r0_sim_truth) set every
 * target's speed against one drive; the noise models (enum r0_sim_noise)
 * how each run strays from it: designed ones, and banks of real runs'
 * noise by visit (tests/data/noise/, noisebank.h). The truth of a choice
 * under the mix is the user's time's (Amdahl's law, r0_mix_time_speedup).
 * Each study draws its own drives (0.5x to
 * 2x the model's) and seeds its noise. Used by tests/unit/test_adaptive.c
 * (20 studies a row, the bars asserted) and recipes/bench/study-plans
 * (200 a row, docs/validation.md's table).
 */
#ifndef R0_STUDYSIM_H
#define R0_STUDYSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/analysis.h"

enum r0_sim_truth {
	R0_SIM_NO_GAIN,             /* every array as fast as one drive */
	R0_SIM_PERFECT,             /* n drives n times one, every chunk and layer alike */
	R0_SIM_THIRD_NOTHING,       /* 2 drives 2x, 3 drives 2x */
	R0_SIM_SHARED,              /* 2 drives 2x, 3 drives 1.07x of 2: a limit the members share */
	R0_SIM_RAID0,               /* a model of RAID0 by request size, chunk and queue depth; dm equal to md */
	R0_SIM_CHUNK_AHEAD,         /* 1.9x and 2.7x, the 128K chunk 10 % ahead of the others */
	R0_SIM_CHUNK_RANDOM,        /* 1.9x and 2.7x, each chunk 0-25 % slower (md and dm alike), drawn per study */
	R0_SIM_TRUE_115,            /* every array 1.15x one drive: not worth it */
	R0_SIM_TRUE_13,             /* every array 1.3x one drive: worth it, with 2 */
	R0_SIM_TRUTHS,
	/* Not in the matrix: every array r0_sim_true_at's speed-up over one drive (near the bar). */
	R0_SIM_TRUE_AT = R0_SIM_TRUTHS
};

enum r0_sim_noise {
	R0_SIM_GAUSS2,              /* each run x (1 + 0.02 N(0,1)) */
	R0_SIM_GAUSS5,
	R0_SIM_GAUSS10,
	R0_SIM_LOGNORMAL10,         /* x exp(0.1 N(0,1)) */
	R0_SIM_OUTLIERS,            /* 2 % gaussian, and 5 % of runs at 0.6x (a GC pause, a backup) */
	R0_SIM_DRIFT,               /* 2 % gaussian, and every drive 10 % slower by the study's end */
	/*
	 * Real noise from a bank (tests/data/noise/, noisebank.h): each
	 * simulated target takes the noise level of one real target at its
	 * member count (drawn per study) and its visits from the whole bank,
	 * drawn with replacement and scaled from their own target's level to
	 * that one; each run its truth x exp(the residual of its workload in
	 * the visit): the same workload by name, else an unused one of its
	 * class in the visit, else one drawn from the visit. Tails, a visit's
	 * shared factor and each target's own level come along (studysim.c's
	 * bank_visit says why not a target's own visits in turn). The bank is
	 * read from tests/data/noise/ under the working directory, or
	 * $R0_SIM_BANK_DIR.
	 */
	R0_SIM_BANK_DEMO,           /* demo.json: sata-real null_blk under QEMU TCG, 5 visits a target */
	R0_SIM_BANK_SAMPLE,         /* sample.json: sata-ssd null_blk under QEMU TCG */
	R0_SIM_BANK_NVME,           /* nvme-real-md.json: r0predict's nvme-real md study (reads) */
	R0_SIM_BANK_SATA,           /* sata-real-md.json: r0predict's sata-real md study (reads) */
	R0_SIM_BANK_R0SSD,          /* r0ssd-md.json: r0ssd flash models, md 64K at 1-3 members */
	R0_SIM_NOISES,
	/* Not in the matrix: the bank last named by r0_sim_bank_name (any tests/data/noise/NAME.json). */
	R0_SIM_BANK_NAMED = R0_SIM_NOISES
};

#define R0_SIM_BANK_FIRST R0_SIM_BANK_DEMO

const char *r0_sim_truth_name(enum r0_sim_truth t);
/*
 * Makes R0_SIM_TRUE_AT every array X times one drive at every count ("true
 * 1.19x": how often a speed-up just under the worth-it bar is called worth
 * it). 0, or -EINVAL unless 1 <= X <= 10.
 */
int r0_sim_true_at(double x);
/* R0_SIM_TRUE_AT's speed-up; 0 before r0_sim_true_at. */
double r0_sim_true_at_value(void);
const char *r0_sim_noise_name(enum r0_sim_noise n);
/* Whether N draws from a bank; its bank's file name under tests/data/noise/ ("demo"), or NULL. */
bool r0_sim_noise_is_bank(enum r0_sim_noise n);
const char *r0_sim_noise_bank(enum r0_sim_noise n);
/*
 * The bank noise of file name NAME ("sample"): a built-in bank's own, else
 * R0_SIM_BANK_NAMED with NAME copied to NAMED (LEN bytes; "" for a
 * built-in) for r0_sim_bank_name to read. 0, or -ENAMETOOLONG.
 */
int r0_sim_bank_by_name(const char *name, enum r0_sim_noise *out, char *named, size_t len);
/* Makes R0_SIM_BANK_NAMED draw from bank NAME (its file's name without .json). 0, or -ENOENT,
 * -EINVAL (not a bank), -ENAMETOOLONG, -ENOMEM, -ENOSPC (too many banks read). */
int r0_sim_bank_name(const char *name);
/* The bank's pooled sd of one run's log residual (0.10: about 10 %); NAN when it cannot be read or N is no bank. */
double r0_sim_bank_run_sd(enum r0_sim_noise n);

struct r0_sim_plan {
	bool adaptive;              /* the planner's looks; else every target at `repeats` */
	unsigned repeats;           /* fixed plan: repeats; adaptive: the first look */
	unsigned max_repeats;       /* adaptive: the last look */
	double cell_s;              /* seconds a cell takes: ramp, test and overhead */
	double budget_s;            /* nothing starts that would end past it; 0: none */
	/*
	 * The plan of one array instead: one drive and md 64K at every count,
	 * no other chunk, layer or 1-member stripe. Not a plan r0sweep offers:
	 * it shows what the budget alone allows the money answers, with no
	 * cell spent on choosing the chunk (docs/validation.md).
	 */
	bool one_array;
};

/* The full plan of every target: 5 repeats of 5 s tests after a 1 s ramp. */
#define R0_SIM_FULL_PLAN ((struct r0_sim_plan){ .repeats = 5, .cell_s = 6.3 })
/* r0sweep's default: the adaptive study in 30 minutes, cells of CELL_S seconds. */
#define R0_SIM_STUDY_PLAN(cell) \
	((struct r0_sim_plan){ .adaptive = true, .repeats = 3, .max_repeats = 8, .cell_s = (cell), .budget_s = 1800 })

struct r0_sim_result {
	bool has_choice;
	enum r0_answer answer;      /* under the mix */
	enum r0_layer layer;        /* the pick */
	uint32_t chunk_bytes;
	unsigned build;             /* drives to build: build_members when worth it, 1 when not worth
	                             * it, 0 when the study could not tell (or the count is undecided) */
	unsigned right_build;       /* the truth's count at the pick (1: keep one drive) */
	double pick_true_loss;      /* how much the pick truly loses against the truly best (0.03: 3 %) */
	bool false_loss;            /* a choice said to lose under the mix that truly does not */
	bool false_line;            /* a chunk left out of a workload's best set that is truly not worse */
	double seconds;             /* simulated time of the cells */
	size_t cells;
	bool budget_hit;
	unsigned undecided;         /* comparisons still open at the end (adaptive) */
	char headline[2048];
};

/*
 * A measured cell's record as r0sweep writes it: workload W (LABEL) on
 * LAYER at CHUNK over N members, repeat REPEAT, at BYTES_PER_S over one
 * second, 10 % CPU busy (never CPU-bound), on empty drives.
 */
void r0_sim_rec(struct r0_run *r, enum r0_layer layer, uint32_t chunk, unsigned n, const char *label,
		const struct r0_workload *w, unsigned repeat, double bytes_per_s);

/* One study: SEED for the drives and the noise, under MIX. 0, -ENOMEM, -ENOENT or -EINVAL (a bank
 * noise model's bank not read), or an analysis error. */
int r0_sim_study(uint64_t seed, enum r0_sim_truth truth, enum r0_sim_noise noise, const struct r0_sim_plan *sp,
		 const struct r0_mix *mix, struct r0_sim_result *out);

#endif
