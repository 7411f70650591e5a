// SPDX-License-Identifier: GPL-2.0-or-later
/* One discard judged against each bottom device's counter, a read-back's and the drives' own account in words. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/trimrun.h"
#include "r0/trimshare.h"

/*
 * One discard of [start, start + n) with the counters read around it;
 * judges every member. Returns the verdict; DETAIL gets the numbers,
 * COUNTS (unless NULL) what each bottom device counted.
 */
enum r0_check_result r0_trim_run_deliver(struct r0_trim_run *r, uint64_t start, uint64_t n, uint64_t eff_gran,
					   struct r0_trim_counts *counts, char *detail, size_t len, int *ioerr)
{
	const struct r0_trim_device *t = &r->t;
	struct r0_trim_counters before, after;
	struct r0_trim_member_result res[R0_MAX_MEMBERS];
	enum r0_check_result v;
	size_t off = 0;
	char why[256] = "";
	int err;

	*ioerr = 0;
	if ((err = r0_trim_read_counters(t, &before))) {
		snprintf(detail, len, "cannot read the discard counters: %s", strerror(-err));
		return R0_CHECK_FAIL;
	}
	err = r0_trim_discard(r->fd, start, n);
	if (err) {
		*ioerr = err;
		snprintf(detail, len, "BLKDISCARD failed: %s", strerror(-err));
		return R0_CHECK_FAIL;
	}
	if ((err = r0_trim_read_counters(t, &after)) ||
	    (err = r0_trim_judge_range(t, start, n, eff_gran, &before, &after, res, &v))) {
		snprintf(detail, len, "cannot count or predict: %s", strerror(-err));
		return R0_CHECK_FAIL;
	}
	r0_trim_evidence_delivery(&r->result.ev, t->n_members, res);
	off += (size_t)snprintf(detail + off, len - off, "sectors expected/observed");
	for (unsigned i = 0; i < t->n_members && off < len; i++)
		off += (size_t)snprintf(detail + off, len - off, " %s %llu/%llu", t->members[i].chain_kname[t->members[i].depth],
					(unsigned long long)res[i].expected_sectors,
					(unsigned long long)res[i].observed_sectors);
	r0_trim_delivery_why(t, res, why, sizeof(why));
	if (counts) {
		counts->counted = true;
		memcpy(counts->member, res, t->n_members * sizeof(res[0]));
	}
	if (why[0] && off < len)
		snprintf(detail + off, len - off, ": %s", why);
	return v;
}

void r0_trim_effect_detail(const struct r0_trim_effect *e, const struct r0_trim_device *t, char *buf,
				  size_t len)
{
	size_t off = (size_t)snprintf(buf, len,
				      "discarded %llu/%llu sectors read as promised through the array, %llu/%llu on the members; "
				      "outside %llu/%llu intact through the array, %llu/%llu beside on the members",
				      (unsigned long long)e->discarded_ok,
				      (unsigned long long)(e->discarded_ok + e->discarded_bad),
				      (unsigned long long)e->member_discarded_ok,
				      (unsigned long long)(e->member_discarded_ok + e->member_discarded_bad),
				      (unsigned long long)e->intact_ok,
				      (unsigned long long)(e->intact_ok + e->intact_bad),
				      (unsigned long long)e->member_intact_ok,
				      (unsigned long long)(e->member_intact_ok + e->member_intact_bad));

	if (e->unchecked && off < len)
		off += (size_t)snprintf(buf + off, len - off, "; %llu unchecked (no promise, or part of a granule)",
					(unsigned long long)e->unchecked);
	for (unsigned i = 0; i < t->n_members && off < len; i++)
		if (e->leaf_discarded_bad[i])
			off += (size_t)snprintf(buf + off, len - off, "; %s: the drive completed the discard but "
						"still returns the old data", t->members[i].kname);
	if (e->first_bad_sector >= 0 && off < len)
		snprintf(buf + off, len - off, "; first wrong: array sector %lld on %s (%s the range)",
			 (long long)e->first_bad_sector,
			 e->first_bad_member >= 0 ? t->members[e->first_bad_member].kname : "several devices",
			 e->first_bad_inside ? "inside" : "outside");
	else if (e->first_bad_member_direct >= 0 && off < len)
		snprintf(buf + off, len - off, "; wrong on %s itself", t->members[e->first_bad_member_direct].kname);
	if (e->verdict == R0_CHECK_NOT_CHECKABLE && strlen(buf) < len)
		snprintf(buf + strlen(buf), len - strlen(buf), "; no member promises what a discarded block reads");
}

void r0_trim_run_lba_status(struct r0_trim_run *r, const char *what, const struct r0_trim_leaf_extent *x, size_t n)
{
	const struct r0_trim_device *t = &r->t;
	struct r0_trim_lba_answer a[R0_MAX_MEMBERS];
	char d[1024];
	size_t off;
	bool any = false, mapped = false;
	int err = r0_trim_leaf_lba_status(t, x, n, a);

	if (err) {
		r0_trim_run_line(r, "lba-status", R0_CHECK_NOT_CHECKABLE, "%s: GET LBA STATUS: %s", what, strerror(-err));
		return;
	}
	off = (size_t)snprintf(d, sizeof(d), "%s: the drives' own account (GET LBA STATUS), sectors deallocated/asked:",
			       what);
	for (unsigned i = 0; i < t->n_members; i++) {
		if (!a[i].answered)
			continue;
		any = true;
		mapped |= a[i].mapped != 0;
		if (off < sizeof(d))
			off += (size_t)snprintf(d + off, sizeof(d) - off, " %s %llu/%llu", t->members[i].kname,
						(unsigned long long)a[i].deallocated,
						(unsigned long long)(a[i].deallocated + a[i].mapped));
	}
	if (!any)
		return;   /* no SCSI drive that answers: nothing to say */
	r0_trim_evidence_lba_status(&r->result.ev, t->n_members, a);
	if (mapped && off < sizeof(d))
		snprintf(d + off, sizeof(d) - off, "; a drive kept discarded blocks mapped (UNMAP is a hint to it)");
	r0_trim_run_line(r, "lba-status", mapped ? R0_CHECK_NOT_CONCLUSIVE : R0_CHECK_OK, "%s", d);
}
