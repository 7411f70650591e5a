/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A row of simulated studies (one truth, one noise, one cell time, many
 * seeds) and the bars of the 30-minute study it is judged against: the
 * unit tests assert a row's bars (tests/unit/test_adaptive.c), the
 * simulator program prints rows and the bars they miss
 * (tests/sim/prog/r0studysim.c, recipes/bench/study-plans).
 */
#ifndef R0_SIMROW_H
#define R0_SIMROW_H

#include <stdbool.h>
#include <stddef.h>

#include "studysim.h"

/* What a row of studies gave: counts of studies. */
struct r0_sim_row {
	enum r0_sim_truth truth;
	enum r0_sim_noise noise;
	double cell_s;
	bool fixed;                 /* the fixed plan of every target ran beside (fixed_good) */
	unsigned n, build_right, false_loss, false_line, worth, pick_good, fixed_good, budget;
	double minutes;             /* simulated minutes a study, on average */
};

/*
 * STUDIES studies (seeds 1000 on) of TRUTH under NOISE by PLAN (r0sweep's
 * R0_SIM_STUDY_PLAN, or another budget), the desktop mix, and with FIXED
 * the fixed plan on the same seeds. VERBOSE: each study whose count or pick is wrong is printed.
 * 0, or the first study's error.
 */
int r0_sim_row_run(enum r0_sim_truth truth, enum r0_sim_noise noise, const struct r0_sim_plan *plan, bool fixed,
		   unsigned studies, bool verbose, struct r0_sim_row *r);

/*
 * The row as one line: "sim: KEY | truth | noise | cell | build count
 * right | worth it | false losers | false chunk lines | pick within 5 % |
 * the fixed plan's | time |", the key (truth, cell, noise) first for
 * sorting (docs/validation.md's table is the lines after "sim: KEY ").
 */
void r0_sim_row_line(const struct r0_sim_row *r, char *buf, size_t len);

/*
 * Whether BAD of N studies keeps a bar that allows a share MAX_BAD (0.05).
 * At 200 studies or more the bar as stated; fewer cannot tell 95 % from
 * 85 %, so a row may have as many as a study keeping the bar exactly would
 * exceed in only 5 % of rows (the binomial's 95th percentile).
 */
bool r0_sim_keeps(unsigned bad, unsigned n, double max_bad);

/*
 * The bars the row misses, each a sentence in MISSED[] (at most MAX of
 * them): a designed noise's bars, or a bank's where the noise is a
 * bank (docs/validation.md says both). Returns how many were missed.
 */
size_t r0_sim_row_bars(const struct r0_sim_row *r, char (*missed)[200], size_t max);

#endif
