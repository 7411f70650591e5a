// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SNIA PTS steady-state detection (SNIA Solid State Storage Performance
 * Test Specification, Enterprise v1.1, section 3 "steady state"): range
 * and least-squares slope of a window of rounds.
 */
#include <errno.h>
#include <math.h>

#include "r0/steady.h"

static bool rule_ok(const struct r0_steady_rule *r)
{
	return r && r->window >= 2 && r->range_frac > 0 && r->slope_frac > 0 &&
	       isfinite(r->range_frac) && isfinite(r->slope_frac);
}

int r0_steady_window(const double *y, const struct r0_steady_rule *rule,
		     struct r0_steady_window *out)
{
	double sum = 0, min, max, xm, sxy = 0, sxx = 0, ref;
	size_t w;

	if (!y || !out || !rule_ok(rule))
		return -EINVAL;
	w = rule->window;
	min = max = y[0];
	for (size_t i = 0; i < w; i++) {
		if (!isfinite(y[i]))
			return -EINVAL;
		sum += y[i];
		if (y[i] < min)
			min = y[i];
		if (y[i] > max)
			max = y[i];
	}
	out->mean = sum / (double)w;
	out->range = max - min;
	xm = (double)(w - 1) / 2;
	for (size_t i = 0; i < w; i++) {
		sxy += ((double)i - xm) * (y[i] - out->mean);
		sxx += ((double)i - xm) * ((double)i - xm);
	}
	out->slope = sxy / sxx;
	ref = fabs(out->mean);
	out->steady = out->range <= rule->range_frac * ref &&
		      fabs(out->slope) * (double)(w - 1) <= rule->slope_frac * ref;
	return 0;
}

int r0_steady_reached(const double *y, size_t n, const struct r0_steady_rule *rule,
		      size_t *round)
{
	struct r0_steady_rule snia = R0_STEADY_SNIA;
	struct r0_steady_window sw;

	if (!rule)
		rule = &snia;
	if (!y || !round || !rule_ok(rule))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(y[i]))
			return -EINVAL;
	for (size_t end = rule->window; end <= n; end++) {
		int err = r0_steady_window(y + end - rule->window, rule, &sw);

		if (err)
			return err;
		if (sw.steady) {
			*round = end;
			return 1;
		}
	}
	return 0;
}

uint64_t r0_steady_slice_ns(uint64_t asked, uint64_t min_ns, const struct r0_steady_rule *rule)
{
	uint64_t s, fit;

	if (asked)
		return asked;
	s = R0_STEADY_SLICE_NS;
	fit = rule && rule->window ? min_ns / (rule->window + 1) : 0;
	if (fit && fit < s)
		s = fit < R0_STEADY_SLICE_MIN_NS ? R0_STEADY_SLICE_MIN_NS : fit;
	return s;
}

bool r0_steady_run_stop(const double *y, size_t n, const struct r0_steady_rule *rule,
			uint64_t slice_ns, uint64_t min_ns, uint64_t max_ns)
{
	struct r0_steady_window sw;
	uint64_t close;

	if (!y || !rule_ok(rule) || rule->window > R0_STEADY_WINDOW_MAX || !slice_ns ||
	    n < rule->window)
		return false;
	/* (n + 1) x slice, saturated: a run of years is still a run */
	if (n + 1 > UINT64_MAX / slice_ns)
		return false;
	close = (uint64_t)(n + 1) * slice_ns;
	if (close < min_ns || close >= max_ns)
		return false;
	return !r0_steady_window(y + n - rule->window, rule, &sw) && sw.steady;
}

size_t r0_steady_run_end(const double *y, size_t n, const struct r0_steady_rule *rule,
			 uint64_t slice_ns, uint64_t min_ns, uint64_t max_ns)
{
	for (size_t k = 1; k <= n; k++)
		if (r0_steady_run_stop(y, k, rule, slice_ns, min_ns, max_ns))
			return k + 1;
	return 0;
}
