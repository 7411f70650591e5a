/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lines r0sweep appends at the end of its file, from what the study
 * made of it: an analysis (r0/analysis.h) as r0sweep/1's "analysis" line,
 * a calibration (r0/calibrate.h) as its "calibration" line. The keys are
 * lib/results/sweepanalysis.c's (r0/sweep.h); this fills them in.
 */
#ifndef R0_ANALYSISLINE_H
#define R0_ANALYSISLINE_H

#include <stdint.h>
#include <stdio.h>

#include "r0/analysis.h"
#include "r0/calibrate.h"
#include "r0/sweep.h"

/*
 * Appends A's analysis line to F (r0_sweep_analysis_append): the mix, its
 * words, every choice best first with the pick marked, PLAN (NULL: a fixed
 * plan, no "plan" key), TOOL ("r0sweep 0.2.0+g...") and TIME_UNIX. 0,
 * -ENOMEM or -errno writing.
 */
int r0_analysis_line_append(FILE *f, const struct r0_analysis *a, const struct r0_sweep_plan_line *plan,
			    const char *tool, int64_t time_unix);

/* Appends K's calibration line to F (r0_sweep_calibration_append), as r0_analysis_line_append. */
int r0_calibration_line_append(FILE *f, const struct r0_calibration *k, const char *tool, int64_t time_unix);

#endif
