// SPDX-License-Identifier: GPL-2.0-or-later
/* TRIM over repeated use: what a history of discard counters shows (r0/trimwatch.h). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "r0/trimwatch.h"

const char *r0_watch_verdict_name(enum r0_watch_verdict v)
{
	static const char *const names[] = { "first record", "no discards", "pass", "drift", "stopped" };

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

const char *r0_watch_verdict_label(enum r0_watch_verdict v)
{
	static const char *const labels[] = { "BASELINE RECORDED", "NOT CONCLUSIVE", "PASS", "PASS with DRIFT", "FAIL" };

	return (unsigned)v < sizeof(labels) / sizeof(labels[0]) ? labels[v] : "?";
}

bool r0_watch_passes(enum r0_watch_verdict v)
{
	return v == R0_WATCH_PASS || v == R0_WATCH_DRIFT;
}

bool r0_watch_share_drifts(double share, double predicted)
{
	return predicted > 0 && fabs(share - predicted) / predicted > R0_WATCH_DRIFT_BOUND;
}

/* Whether A and B read the same devices, in the same order. */
static bool same_devices(const struct r0_watch_rec *a, const struct r0_watch_rec *b)
{
	if (a->n != b->n)
		return false;
	for (unsigned i = 0; i < a->n; i++) {
		if (a->serial[i][0] && b->serial[i][0]) {
			if (strcmp(a->serial[i], b->serial[i]))
				return false;
		} else if (strcmp(a->name[i], b->name[i]))
			return false;
	}
	return true;
}

int r0_watch_judge(const struct r0_watch_rec *recs, size_t n, const double *predicted,
		   struct r0_watch_judgement *out)
{
	const struct r0_watch_rec *last;
	uint64_t all = 0;
	size_t first;
	double sum = 0;

	memset(out, 0, sizeof(*out));
	if (!n || !recs[n - 1].n || recs[n - 1].n > R0_MAX_MEMBERS)
		return -EINVAL;
	last = &recs[n - 1];
	for (unsigned i = 0; i < last->n; i++) {
		if (!(predicted[i] >= 0))
			return -EINVAL;
		sum += predicted[i];
	}
	if (!(fabs(sum - 1) < 1e-6))
		return -EINVAL;
	for (first = n - 1; first > 0 && same_devices(&recs[first - 1], last); first--)
		;
	out->first = first;
	out->n_records = n - first;
	if (out->n_records < 2) {
		out->verdict = R0_WATCH_FIRST;
		return 0;
	}
	for (size_t k = first + 1; k < n; k++) {
		const struct r0_watch_rec *a = &recs[k - 1], *b = &recs[k];
		bool reboot = strcmp(a->boot_id, b->boot_id) != 0;
		uint64_t got[R0_MAX_MEMBERS], sum_got = 0;

		out->n_intervals++;
		out->boots += reboot;
		for (unsigned i = 0; i < b->n; i++) {
			/* a counter that fell without a new boot id was reset: count from 0 */
			got[i] = reboot || b->sectors[i] < a->sectors[i] ? b->sectors[i] : b->sectors[i] - a->sectors[i];
			out->total[i] += got[i];
			sum_got += got[i];
		}
		for (unsigned i = 0; i < b->n; i++) {
			double others_pred = 1 - predicted[i];
			double expected = others_pred > 0 ? (double)(sum_got - got[i]) * predicted[i] / others_pred : 0;

			if (got[i]) {
				out->stopped_since[i] = 0;
				out->others_since[i] = 0;
				continue;
			}
			/* nothing here while the others' discards should have brought it some */
			if (!out->stopped_since[i] && expected >= R0_WATCH_STOP_SECTORS)
				out->stopped_since[i] = a->time;
			if (out->stopped_since[i])
				out->others_since[i] += sum_got;
		}
	}
	for (unsigned i = 0; i < last->n; i++)
		all += out->total[i];
	for (unsigned i = 0; i < last->n; i++)
		out->share[i] = all ? (double)out->total[i] / (double)all : 0;
	if (!all) {
		out->verdict = R0_WATCH_IDLE;
		return 0;
	}
	out->verdict = R0_WATCH_PASS;
	for (unsigned i = 0; i < last->n; i++)
		if (out->stopped_since[i])
			out->verdict = R0_WATCH_STOPPED;
	if (out->verdict == R0_WATCH_PASS && all >= R0_WATCH_MIN_TOTAL_SECTORS)
		for (unsigned i = 0; i < last->n; i++)
			if (r0_watch_share_drifts(out->share[i], predicted[i]))
				out->verdict = R0_WATCH_DRIFT;
	return 0;
}
