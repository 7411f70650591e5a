// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim --watch's report: the reading and what the records show (r0/trimwatchrun.h), as text, and its exit status. */
#include <stdio.h>

#include "cli.h"
#include "trim.h"

/*
 * The first reading only records the baseline a later one is judged
 * against: done, not a "no", so a timer's first run succeeds. No discard
 * since it cannot decide either way.
 */
int watch_exit_status(enum r0_watch_verdict v)
{
	switch (v) {
	case R0_WATCH_FIRST:
	case R0_WATCH_PASS:
	case R0_WATCH_DRIFT:
		return R0_EXIT_OK;
	case R0_WATCH_STOPPED:
		return R0_EXIT_FAILURE;
	default:
		return R0_EXIT_NOT_CONCLUSIVE;
	}
}

void print_watch(const struct r0_trim_run *r, const struct r0_trim_watch_reading *w, const char *log,
		 const char *what)
{
	const struct r0_watch_judgement *j = &w->j;
	const struct r0_watch_rec *now = &w->now;
	char b1[32], b2[32], detail[256];

	printf(PROG ": watch of %s (%s, %s): record %zu in %s%s\n", what, r->t.kname, r->t.desc, j->n_records, log,
	       w->skipped ? " (lines that are no record skipped)" : "");
	if (j->n_records > 1)
		printf("  since %s: %u interval%s%s\n", w->since, j->n_intervals, j->n_intervals == 1 ? "" : "s",
		       j->boots ? ", counted from each boot after a reboot" : "");
	for (unsigned i = 0; i < now->n; i++) {
		printf("  %s%s%s%s: %s discarded%s", now->name[i], now->serial[i][0] ? " (serial " : "", now->serial[i],
		       now->serial[i][0] ? ")" : "", r0_trim_exact_size(j->total[i] * 512, b1, sizeof(b1)),
		       j->n_records > 1 ? "" : " (first reading: nothing to compare)");
		if (j->n_records > 1)
			printf(", %.1f %% of all (the geometry: %.1f %%%s)", j->share[i] * 100, w->pred[i] * 100,
			       w->known ? "" : ", not known here: equal assumed");
		if (j->stopped_since[i]) {
			r0_trim_watch_time(j->stopped_since[i], b2, sizeof(b2));
			printf(": none since %s while the others got %s", b2,
			       r0_trim_exact_size(j->others_since[i] * 512, b1, sizeof(b1)));
		}
		printf("\n");
	}
	/* a FAIL: one line for each device that stopped */
	for (unsigned i = 0; i < now->n; i++) {
		if (j->verdict == R0_WATCH_STOPPED && !j->stopped_since[i])
			continue;
		r0_trim_watch_detail(w, i, detail, sizeof(detail));
		printf("verdict %s: %s\n", r0_watch_verdict_label(j->verdict), detail);
		if (j->verdict != R0_WATCH_STOPPED)
			break;
	}
}
