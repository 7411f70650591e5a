/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Steady-state detection after SNIA's Solid State Storage Performance Test
 * Specification (PTS): a pure function over the results of successive test
 * rounds (IOPS, MB/s...), used by r0age's `steady` state.
 */
#ifndef R0_STEADY_H
#define R0_STEADY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The rule: a measurement window of `window` consecutive rounds is steady
 * when its range (max - min) is at most range_frac of the window's mean,
 * and its least-squares line changes by at most slope_frac of the mean
 * across the window (|slope| x (window - 1) rounds). SNIA PTS: 5 rounds,
 * 20 %, 10 %.
 */
struct r0_steady_rule {
	size_t window;        /* >= 2 */
	double range_frac;    /* > 0 */
	double slope_frac;    /* > 0 */
};

#define R0_STEADY_SNIA ((struct r0_steady_rule){ .window = 5, .range_frac = 0.20, .slope_frac = 0.10 })

/* What a window measured; filled by r0_steady_window. */
struct r0_steady_window {
	double mean, range, slope;    /* slope: per round */
	bool steady;
};

/*
 * Evaluates the window y[0..rule->window-1]. The mean's absolute value is
 * the reference, so a window of all zeros is steady. 0, or -EINVAL (NULL,
 * a rule outside the ranges above, a non-finite value).
 */
int r0_steady_window(const double *y, const struct r0_steady_rule *rule,
		     struct r0_steady_window *out);

/*
 * Scans rounds y[0..n-1] (round k is y[k-1]) for the first window that is
 * steady. Returns 1 and *round = the number (1-based) of that window's
 * last round, the round steady state was reached; 0 if no window is
 * steady (or n < window), *round untouched; -EINVAL as above. rule NULL
 * means R0_STEADY_SNIA.
 */
int r0_steady_reached(const double *y, size_t n, const struct r0_steady_rule *rule,
		      size_t *round);

#endif
