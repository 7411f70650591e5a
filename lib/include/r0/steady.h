/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Steady-state detection after SNIA's Solid State Storage Performance Test
 * Specification (PTS): a pure function over the results of successive test
 * rounds (IOPS, MB/s...), used by r0age's `steady` state, and the same rule
 * over the slices of one run, which the engine uses to end a test once its
 * rate holds still (r0_steady_run_stop).
 */
#ifndef R0_STEADY_H
#define R0_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/*
 * Ending a run when it has measured (a workload's min_runtime_ns, fio's
 * steadystate option). The measured window is cut into slices; sample i
 * is the bytes completed in slice i, [i, i + 1) x slice after the ramp.
 * fio keeps a rolling window of per-second samples and stops when their
 * spread (ss=iops:X%, the largest distance from the mean) or their
 * least-squares slope (ss=iops_slope:X%) is below a bound; the rule here
 * asks both at once, as SNIA does: the window's range (max - min, twice
 * fio's distance at worst) within range_frac of its mean and its slope
 * across the window within slope_frac. A spread test alone passes a slow
 * steady climb; a slope test alone passes wild oscillation around a flat
 * line.
 */
#define R0_STEADY_RUN ((struct r0_steady_rule){ .window = 8, .range_frac = 0.10, .slope_frac = 0.05 })
#define R0_STEADY_SLICE_NS 250000000ULL   /* fio samples once a second; 4 times as often */
#define R0_STEADY_SLICE_MIN_NS 20000000ULL   /* the engine's watcher looks every 10 ms */
#define R0_STEADY_WINDOW_MAX 1024u

/*
 * The slice length of a run with minimum MIN_NS under RULE: ASKED when not
 * 0, else R0_STEADY_SLICE_NS, shortened to MIN_NS / (window + 1) (not
 * below R0_STEADY_SLICE_MIN_NS) so that a short minimum can be met: the
 * earliest end is window + 1 slices in (see r0_steady_run_stop).
 */
uint64_t r0_steady_slice_ns(uint64_t asked, uint64_t min_ns, const struct r0_steady_rule *rule);

/*
 * The decision taken after sample N of a run (y[0..n-1], y[n-1] the
 * latest; only the last rule->window are read): true when the window
 * is to close at the end of the next slice, (n + 1) x SLICE_NS in. It
 * does when n >= window, the last window samples are steady, that end is
 * at or after MIN_NS and before MAX_NS (a run that reaches MAX_NS ends
 * there by its time, not by the rule). The close is one slice after the
 * samples it was decided on because the decision is taken after the
 * slice's boundary, when requests completed after it may already be
 * counted: closing at a boundary still ahead keeps the window's
 * accounting exact. Pure; false on a bad rule (r0_steady_window's
 * ranges, window above R0_STEADY_WINDOW_MAX) or SLICE_NS 0.
 */
bool r0_steady_run_stop(const double *y, size_t n, const struct r0_steady_rule *rule,
			uint64_t slice_ns, uint64_t min_ns, uint64_t max_ns);

/*
 * The whole series at once, as the engine would see it sample by sample:
 * the number of slices in the window when the rule closes it early (the
 * first n with r0_steady_run_stop true, plus one), or 0 when it runs to
 * MAX_NS. For tests and for reading back a run's samples.
 */
size_t r0_steady_run_end(const double *y, size_t n, const struct r0_steady_rule *rule,
			 uint64_t slice_ns, uint64_t min_ns, uint64_t max_ns);

#endif
