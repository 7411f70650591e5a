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
