// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim's checks: limits, geometry, quiet members, the range set and raw cycles. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>


#include "cli.h"

#include "r0/geometry.h"
#include "r0/probe.h"
#include "r0/safety.h"
#include "r0/size.h"
#include "r0/trimcheck.h"
#include "r0/trimshare.h"


#include "trim.h"

/* ------------------------------------------------------------ checks */

void check_limits(struct run *r, struct r0_limits_check *lc)
{
	const struct r0_trim_target *t = &r->t;
	char b[6][32];
	uint64_t mwz;

	r0_trim_target_check_limits(t, lc, &mwz);
	{
		int d = r0_trim_stack_first_drop(&t->stack);

		if (d >= 0) {
			check_line(r, "limits", R0_CHECK_FAIL, "%s (%s): %s: discards stop there",
				   t->stack.node[d].label, t->stack.node[d].kname, t->stack.node[d].drop_why);
			return;
		}
	}
	if (lc->support == R0_CHECK_FAIL && t->kind == R0_TRIM_SINGLE && t->members[0].depth == 0) {
		check_line(r, "limits", R0_CHECK_FAIL, "%s takes no discards (discard_max_bytes 0)", t->kname);
		return;
	}
	if (lc->support == R0_CHECK_FAIL) {
		check_line(r, "limits", R0_CHECK_FAIL, "%s (array discard_max_bytes %llu)", lc->why,
			   (unsigned long long)t->lim.max_bytes);
		return;
	}
	check_line(r, "limits", lc->overall,
		   "granularity %s (members up to %s), max %s (members from %s%s), alignment %llu, "
		   "write-zeroes max %s (members from %s)%s%s",
		   sz(t->lim.granularity_bytes, b[0], 32), sz(lc->expected_granularity_bytes, b[1], 32),
		   sz(t->lim.max_bytes, b[2], 32), sz(lc->min_member_max_bytes, b[3], 32),
		   t->kind == R0_TRIM_SINGLE ? "" : t->lim.max_bytes > lc->min_member_max_bytes ?
			   ": the layer splits discards per member" : "",
		   (unsigned long long)t->lim.alignment_bytes, sz(t->lim.write_zeroes_max_bytes, b[4], 32),
		   sz(mwz, b[5], 32), lc->why[0] ? "; " : "", lc->why);
}

void check_geometry(struct run *r)
{
	const struct r0_trim_target *t = &r->t;
	char why[256];
	struct utsname u;

	check_line(r, "geometry", t->geometry_matches ? R0_CHECK_OK : R0_CHECK_FAIL,
		   "model %llu sectors, kernel %llu%s", (unsigned long long)t->geo.array_sectors,
		   (unsigned long long)t->size_sectors,
		   t->geometry_matches ? "" : ": the stripe model does not fit this array");
	uname(&u);
	const struct r0_geometry *mg = r0_trim_target_md_geometry(t);

	check_line(r, "layout", r0_trim_audit_layout(mg ? mg : &t->geo, u.release, why, sizeof(why)), "%s", why);
}

/* Counters twice, 0.2 s apart: other I/O on the members would disturb the comparison. */
int check_quiet(struct run *r)
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
		check_line(r, "quiet", R0_CHECK_FAIL, "cannot read the members' discard counters: %s",
			   err == -EOPNOTSUPP ? "this kernel's stat files have no discard fields" : strerror(-err));
		return err;
	}
	for (unsigned i = 0; i < r->t.n_members; i++) {
		dw += b.leaf_writes[i] - a.leaf_writes[i];
		dd += b.leaf_sectors[i] - a.leaf_sectors[i];
	}
	if (dw || dd)
		check_line(r, "quiet", R0_CHECK_NOT_CONCLUSIVE,
			   "the members are busy (%llu writes, %llu discarded sectors in 0.2 s): a counter "
			   "that moves by more than the geometry says fails", (unsigned long long)dw,
			   (unsigned long long)dd);
	else
		check_line(r, "quiet", R0_CHECK_OK, "no writes or discards on the members in 0.2 s");
	return 0;
}

/*
 * One discard of [start, start + n) with the counters read around it;
 * judges every member. Returns the verdict; DETAIL gets the numbers,
 * COUNTS (unless NULL) what each bottom device counted.
 */
enum r0_check_result deliver(struct run *r, uint64_t start, uint64_t n, uint64_t eff_gran,
			       struct r0_trim_counts *counts, char *detail, size_t len, int *ioerr)
{
	const struct r0_trim_target *t = &r->t;
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

void effect_detail(const struct r0_trim_effect *e, const struct r0_trim_target *t, char *buf,
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

bool fill_failed(struct run *r, int err, const char *what)
{
	if (!err)
		return false;
	if (err == -EINTR)
		check_line(r, what, R0_CHECK_FAIL, "interrupted by a signal");
	else
		check_line(r, what, R0_CHECK_FAIL, "cannot write the pattern: %s", strerror(-err));
	return true;
}

/*
 * After a write through a thin volume over an array: where the pool put
 * its blocks now (a block discarded and written again may move). 0, or 1
 * to stop: without the map no discard of it can be placed on a drive.
 */
static int map_thin(struct run *r, const char *what)
{
	char why[256];

	if (!r0_trim_target_map_thin(&r->t, why, sizeof(why)))
		return 0;
	check_line(r, what, R0_CHECK_NOT_CHECKABLE, "where the thin pool put the blocks: %s", why);
	return 1;
}

void lba_status_line(struct run *r, const char *what, const struct r0_trim_leaf_extent *x, size_t n)
{
	const struct r0_trim_target *t = &r->t;
	struct r0_trim_lba_answer a[R0_MAX_MEMBERS];
	char d[1024];
	size_t off;
	bool any = false, mapped = false;
	int err = r0_trim_leaf_lba_status(t, x, n, a);

	if (err) {
		check_line(r, "lba-status", R0_CHECK_NOT_CHECKABLE, "%s: GET LBA STATUS: %s", what, strerror(-err));
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
	check_line(r, "lba-status", mapped ? R0_CHECK_NOT_CONCLUSIVE : R0_CHECK_OK, "%s", d);
}

/* lba_status_line for top sectors [START, START + N). */
static void lba_status_range(struct run *r, const char *what, uint64_t start, uint64_t n)
{
	struct r0_trim_leaf_extent *x = NULL;
	size_t cnt = 0;
	int err = r0_trim_stack_split(&r->t.stack, start, n, &x, &cnt, NULL);

	if (err)
		check_line(r, "lba-status", R0_CHECK_NOT_CHECKABLE, "%s: %s", what, strerror(-err));
	else
		lba_status_line(r, what, x, cnt);
	free(x);
}

/* The range set: delivery and effect for each. 0, or 1 to stop. */
int check_ranges(struct run *r, const struct r0_limits_check *lc, unsigned repeats, bool full_scan)
{
	const struct r0_trim_target *t = &r->t;
	struct r0_trim_range rg[R0_TRIM_MAX_RANGES];
	bool no_effect = false, every;
	uint64_t window[R0_TRIM_MAX_RANGES];
	char unread[256] = "";   /* the ranges whose far outside the next whole read checks */
	int n = r0_trim_ranges(&t->geo, t->unit_bytes, t->lim.logical_block_bytes ? t->lim.logical_block_bytes : 512,
			       lc->effective_granularity_bytes, rg, R0_TRIM_MAX_RANGES);

	if (n < 0) {
		check_line(r, "ranges", R0_CHECK_FAIL, "cannot build the range set: %s", strerror(-n));
		return 1;
	}
	r0_trim_readback_plan(&t->geo, t->n_members, rg, (size_t)n, full_scan, window, &every);
	if (fill_failed(r, r0_trim_fill(r->fd, r->seed, 0, t->geo.array_sectors, r0_cli_stop_requested), "fill") ||
	    map_thin(r, "fill"))
		return 1;
	{
		/* what is read back later means something only if the pattern is there now */
		struct r0_trim_effect e;
		int err = r0_trim_verify(t, r->fd, NULL, r->seed, 0, 0, 0, &e);

		if (err) {
			check_line(r, "fill", R0_CHECK_FAIL, "cannot read the pattern back: %s", strerror(-err));
			return 1;
		}
		if (e.intact_bad) {
			check_line(r, "fill", R0_CHECK_FAIL,
				   "%llu of %llu sectors written through the array read back wrong, the first at "
				   "array sector %lld on %s: writes there do not stick, read-backs are not checked",
				   (unsigned long long)e.intact_bad, (unsigned long long)t->geo.array_sectors,
				   (long long)e.first_bad_sector,
				   e.first_bad_member >= 0 ? t->members[e.first_bad_member].kname : "several devices");
			no_effect = true;
		} else {
			check_line(r, "fill", R0_CHECK_OK, "%llu sectors written through the array and read back",
				   (unsigned long long)e.intact_ok);
		}
	}
	for (int i = 0; i < n; i++) {
		char detail[1024], what[160], b1[32], b2[32];
		struct r0_trim_range_doc *jr = NULL;   /* with -J: this range's record */
		enum r0_check_result v = R0_CHECK_OK;
		bool sub = rg[i].n_sectors * 512 < lc->effective_granularity_bytes;
		int ioerr = 0;

		if (r0_cli_stop_requested()) {
			check_line(r, "delivery", R0_CHECK_FAIL, "interrupted by a signal");
			return 1;
		}
		if (rg[i].skip_reason) {
			check_line(r, "delivery", R0_CHECK_NOT_CHECKABLE, "%s: %s", rg[i].name, rg[i].skip_reason);
			continue;
		}
		snprintf(what, sizeof(what), "%.47s, %.31s at %.31s", rg[i].name, sz(rg[i].n_sectors * 512, b1, 32),
			 sz(rg[i].start_sector * 512, b2, 32));
		if (r->json) {
			jr = &r->ranges[r->n_ranges];
			memset(jr, 0, sizeof(*jr));
			snprintf(jr->name, sizeof(jr->name), "%.47s", rg[i].name);
			jr->start_bytes = rg[i].start_sector * 512;
			jr->length_bytes = rg[i].n_sectors * 512;
			jr->smaller_than_granularity = sub;
		}
		for (unsigned k = 0; k < repeats && !ioerr; k++) {
			char d[1024];
			enum r0_check_result rv = deliver(r, rg[i].start_sector, rg[i].n_sectors,
						     lc->effective_granularity_bytes, k == 0 && jr ? &jr->counts : NULL,
						     d, sizeof(d), &ioerr);

			if (k == 0 || (rv == R0_CHECK_FAIL && v != R0_CHECK_FAIL))
				snprintf(detail, sizeof(detail), "%.1000s%s", d,
					 k ? " (on a repeat)" : "");
			v = r0_check_result_worse(v, rv);
		}
		if (v == R0_CHECK_OK)
			r->result.delivery_pass++;
		if (v == R0_CHECK_NOT_CONCLUSIVE)
			r->result.delivery_nc++;
		check_line(r, "delivery", v, "%s: %s%s", what, detail,
			   sub ? "; smaller than the granularity, proves nothing" : "");
		if (jr) {
			jr->delivery = v;
			jr->repeats = repeats;
		}
		if (ioerr) {
			if (jr)
				r->n_ranges++;
			return 1;   /* the array refuses discards: nothing more to see */
		}
		if (no_effect) {
			check_line(r, "effect", R0_CHECK_NOT_CHECKABLE, "%s: the pattern did not stick", rg[i].name);
		} else {
			struct r0_trim_effect e;
			int err = r0_trim_verify(t, r->fd, r->member_fd, r->seed, rg[i].start_sector,
						 rg[i].n_sectors, window[i], &e);

			if (err) {
				check_line(r, "effect", R0_CHECK_FAIL, "%s: cannot read back: %s", rg[i].name, strerror(-err));
			} else {
				r0_trim_evidence_effect(&r->result.ev, t->n_members, &e);
				if (sub && e.verdict == R0_CHECK_NOT_CHECKABLE)
					e.verdict = R0_CHECK_NOT_CONCLUSIVE;
				effect_detail(&e, t, detail, sizeof(detail));
				check_line(r, "effect", e.verdict, "%s: %s%s%s%s", rg[i].name, detail,
					   every && window[i] ? "; beyond two stripes either side: at the next whole read" : "",
					   every && !window[i] && unread[0] ? "; this whole read is also the one after " : "",
					   every && !window[i] ? unread : "");
				if (every && window[i]) {
					size_t u = strlen(unread);

					snprintf(unread + u, sizeof(unread) - u, "%s%.47s", u ? ", " : "", rg[i].name);
				} else
					unread[0] = '\0';
				if (jr) {
					jr->has_effect = true;
					jr->effect = e;
				}
				lba_status_range(r, rg[i].name, rg[i].start_sector, rg[i].n_sectors);
			}
		}
		if (jr)
			r->n_ranges++;
		/* put the pattern back, so the next range's neighbours hold it */
		if (i + 1 < n && (fill_failed(r, r0_trim_fill(r->fd, r->seed, rg[i].start_sector,
							      rg[i].n_sectors, r0_cli_stop_requested), "fill") ||
				  map_thin(r, "fill")))
			return 1;
	}
	return 0;
}

/* --cycles on the raw device: fill a share, discard it, verify, N times. */
int raw_cycles(struct run *r, unsigned cycles, unsigned fill_pct)
{
	const struct r0_trim_target *t = &r->t;

	for (unsigned c = 0; c < cycles; c++) {
		uint64_t start, share;
		char d[1024], e_d[1024], b1[32], b2[32];
		struct r0_trim_effect e;
		enum r0_check_result v;
		int ioerr = 0, err;
		struct r0_trim_counts counts = { 0 };

		r0_trim_cycle_range(t->geo.array_sectors, t->lim.logical_block_bytes, cycles, fill_pct, c, &start, &share);
		if (fill_failed(r, r0_trim_fill(r->fd, r->seed + c + 1, start, share, r0_cli_stop_requested), "cycle") ||
		    map_thin(r, "cycle"))
			return 1;
		v = deliver(r, start, share, 0, &counts, d, sizeof(d), &ioerr);
		err = ioerr ? ioerr : r0_trim_verify(t, r->fd, r->member_fd, r->seed + c + 1, start, share,
						     R0_TRIM_NO_OUTSIDE, &e);
		if (err) {
			check_line(r, "cycle", R0_CHECK_FAIL, "%u/%u: %s", c + 1, cycles,
				   ioerr ? d : strerror(-err));
			return 1;
		}
		r0_trim_evidence_effect(&r->result.ev, t->n_members, &e);
		effect_detail(&e, t, e_d, sizeof(e_d));
		v = r0_check_result_worse(v, e.verdict == R0_CHECK_FAIL ? R0_CHECK_FAIL : R0_CHECK_OK);
		check_line(r, "cycle", v, "%u/%u: %s at %s filled, discarded: %s; read back: %s", c + 1, cycles,
			   sz(share * 512, b1, 32), sz(start * 512, b2, 32), d, r0_check_result_name(e.verdict));
		if (r->json) {
			struct r0_trim_cycle_doc *o = realloc(r->cycles, (r->n_cycles + 1) * sizeof(*o));

			/* out of memory: the document lacks the cycle, its check line above has it */
			if (o) {
				r->cycles = o;
				r->cycles[r->n_cycles++] = (struct r0_trim_cycle_doc){
					.cycle = c + 1, .verdict = v, .start_bytes = start * 512,
					.length_bytes = share * 512, .counts = counts, .effect = e,
				};
			}
		}
		if (v == R0_CHECK_OK)
			r->result.delivery_pass++;
	}
	return 0;
}
