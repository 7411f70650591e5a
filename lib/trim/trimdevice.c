// SPDX-License-Identifier: GPL-2.0-or-later
/* A TRIM run's first checks on the device: the geometry, the md zone layout, the discard limits, quiet members. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "r0/trimrun.h"

void r0_trim_run_limits(struct r0_trim_run *r, struct r0_limits_check *lc)
{
	const struct r0_trim_device *t = &r->t;
	char b[6][32];
	uint64_t mwz;

	r0_trim_device_check_limits(t, lc, &mwz);
	{
		int d = r0_trim_stack_first_drop(&t->stack);

		if (d >= 0) {
			r0_trim_run_line(r, "limits", R0_CHECK_FAIL, "%s (%s): %s: discards stop there",
					 t->stack.node[d].label, t->stack.node[d].kname, t->stack.node[d].drop_why);
			return;
		}
	}
	if (lc->support == R0_CHECK_FAIL && t->kind == R0_TRIM_SINGLE && t->members[0].depth == 0) {
		r0_trim_run_line(r, "limits", R0_CHECK_FAIL, "%s takes no discards (discard_max_bytes 0)", t->kname);
		return;
	}
	if (lc->support == R0_CHECK_FAIL) {
		r0_trim_run_line(r, "limits", R0_CHECK_FAIL, "%s (array discard_max_bytes %llu)", lc->why,
				 (unsigned long long)t->lim.max_bytes);
		return;
	}
	r0_trim_run_line(r, "limits", lc->overall,
			 "granularity %s (members up to %s), max %s (members from %s%s), alignment %llu, "
			 "write-zeroes max %s (members from %s)%s%s",
			 r0_trim_exact_size(t->lim.granularity_bytes, b[0], 32), r0_trim_exact_size(lc->expected_granularity_bytes, b[1], 32),
			 r0_trim_exact_size(t->lim.max_bytes, b[2], 32), r0_trim_exact_size(lc->min_member_max_bytes, b[3], 32),
			 t->kind == R0_TRIM_SINGLE ? "" : t->lim.max_bytes > lc->min_member_max_bytes ?
				 ": the layer splits discards per member" : "",
			 (unsigned long long)t->lim.alignment_bytes, r0_trim_exact_size(t->lim.write_zeroes_max_bytes, b[4], 32),
			 r0_trim_exact_size(mwz, b[5], 32), lc->why[0] ? "; " : "", lc->why);
}

void r0_trim_run_geometry(struct r0_trim_run *r)
{
	const struct r0_trim_device *t = &r->t;
	char why[256];
	struct utsname u;

	r0_trim_run_line(r, "geometry", t->geometry_matches ? R0_CHECK_OK : R0_CHECK_FAIL,
			 "model %llu sectors, kernel %llu%s", (unsigned long long)t->geo.array_sectors,
			 (unsigned long long)t->size_sectors,
			 t->geometry_matches ? "" : ": the stripe model does not fit this array");
	uname(&u);
	const struct r0_geometry *mg = r0_trim_device_md_geometry(t);

	r0_trim_run_line(r, "layout", r0_trim_audit_layout(mg ? mg : &t->geo, u.release, why, sizeof(why)), "%s", why);
}

/* Counters twice, 0.2 s apart: other I/O on the members would disturb the comparison. */
int r0_trim_run_quiet(struct r0_trim_run *r)
{
	struct r0_trim_counters a, b;
	struct timespec ts = { 0, 200000000L };
	uint64_t dw = 0, dd = 0;
	int err = r0_trim_read_counters(&r->t, &a);

	if (!err) {
		nanosleep(&ts, NULL);
		err = r0_trim_read_counters(&r->t, &b);
	}
	if (err) {
		r0_trim_run_line(r, "quiet", R0_CHECK_FAIL, "cannot read the members' discard counters: %s",
				 err == -EOPNOTSUPP ? "this kernel's stat files have no discard fields" : strerror(-err));
		return err;
	}
	for (unsigned i = 0; i < r->t.n_members; i++) {
		dw += b.leaf_writes[i] - a.leaf_writes[i];
		dd += b.leaf_sectors[i] - a.leaf_sectors[i];
	}
	if (dw || dd)
		r0_trim_run_line(r, "quiet", R0_CHECK_NOT_CONCLUSIVE,
				 "the members are busy (%llu writes, %llu discarded sectors in 0.2 s): a counter "
				 "that moves by more than the geometry says fails", (unsigned long long)dw,
				 (unsigned long long)dd);
	else
		r0_trim_run_line(r, "quiet", R0_CHECK_OK, "no writes or discards on the members in 0.2 s");
	return 0;
}
