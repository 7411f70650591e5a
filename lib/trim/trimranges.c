// SPDX-License-Identifier: GPL-2.0-or-later
/* A TRIM run's writes on the raw device: the range set (delivery and effect of each) and the fill-discard cycles. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/trimrun.h"

static bool fill_failed(struct r0_trim_run *r, int err, const char *what)
{
	if (!err)
		return false;
	if (err == -EINTR)
		r0_trim_run_line(r, what, R0_CHECK_NOT_CONCLUSIVE, "interrupted by a signal");   /* shows no "no" */
	else
		r0_trim_run_line(r, what, R0_CHECK_FAIL, "cannot write the pattern: %s", strerror(-err));
	return true;
}

/*
 * After a write through a thin volume over an array: where the pool put
 * its blocks now (a block discarded and written again may move). 0, or 1
 * to stop: without the map no discard of it can be placed on a drive.
 */
static int map_thin(struct r0_trim_run *r, const char *what)
{
	char why[256];

	if (!r0_trim_device_map_thin(&r->t, why, sizeof(why)))
		return 0;
	r0_trim_run_line(r, what, R0_CHECK_NOT_CHECKABLE, "where the thin pool put the blocks: %s", why);
	return 1;
}

/* lba_status_line for top sectors [START, START + N). */
static void lba_status_range(struct r0_trim_run *r, const char *what, uint64_t start, uint64_t n)
{
	struct r0_trim_leaf_extent *x = NULL;
	size_t cnt = 0;
	int err = r0_trim_stack_split(&r->t.stack, start, n, &x, &cnt, NULL);

	if (err)
		r0_trim_run_line(r, "lba-status", R0_CHECK_NOT_CHECKABLE, "%s: %s", what, strerror(-err));
	else
		r0_trim_run_lba_status(r, what, x, cnt);
	free(x);
}

/*
 * The pattern over the whole device, read back: what is read back later
 * means something only if the pattern is there now (else *NO_EFFECT).
 * 0, or 1 to stop.
 */
static int fill_whole(struct r0_trim_run *r, bool *no_effect)
{
	const struct r0_trim_device *t = &r->t;
	struct r0_trim_effect e;
	int err;

	if (fill_failed(r, r0_trim_fill(r->fd, r->seed, 0, t->geo.array_sectors, r->stop), "fill") ||
	    map_thin(r, "fill"))
		return 1;
	if ((err = r0_trim_verify(t, r->fd, NULL, r->seed, 0, 0, 0, &e))) {
		r0_trim_run_line(r, "fill", R0_CHECK_FAIL, "cannot read the pattern back: %s", strerror(-err));
		return 1;
	}
	*no_effect = e.intact_bad != 0;
	if (e.intact_bad)
		r0_trim_run_line(r, "fill", R0_CHECK_FAIL,
				 "%llu of %llu sectors written through the array read back wrong, the first at "
				 "array sector %lld on %s: writes there do not stick, read-backs are not checked",
				 (unsigned long long)e.intact_bad, (unsigned long long)t->geo.array_sectors,
				 (long long)e.first_bad_sector,
				 e.first_bad_member >= 0 ? t->members[e.first_bad_member].kname : "several devices");
	else
		r0_trim_run_line(r, "fill", R0_CHECK_OK, "%llu sectors written through the array and read back",
				 (unsigned long long)e.intact_ok);
	return 0;
}

/*
 * RG discarded REPEATS times, its "delivery" line the worst of them (SUB:
 * smaller than the granularity); JR, unless NULL, gets the first's counts.
 * The discard's -errno, or 0.
 */
static int deliver_range(struct r0_trim_run *r, const struct r0_trim_range *rg, const struct r0_limits_check *lc,
			 unsigned repeats, bool sub, struct r0_trim_range_doc *jr)
{
	char detail[1024], what[160], b1[32], b2[32];
	enum r0_check_result v = R0_CHECK_OK;
	int ioerr = 0;

	snprintf(what, sizeof(what), "%.47s, %.31s at %.31s", rg->name,
		 r0_trim_exact_size(rg->n_sectors * 512, b1, 32), r0_trim_exact_size(rg->start_sector * 512, b2, 32));
	for (unsigned k = 0; k < repeats && !ioerr; k++) {
		char d[1024];
		enum r0_check_result rv = r0_trim_run_deliver(r, rg->start_sector, rg->n_sectors,
							      lc->effective_granularity_bytes,
							      k == 0 && jr ? &jr->counts : NULL, d, sizeof(d), &ioerr);

		if (k == 0 || (rv == R0_CHECK_FAIL && v != R0_CHECK_FAIL))
			snprintf(detail, sizeof(detail), "%.1000s%s", d, k ? " (on a repeat)" : "");
		v = r0_check_result_worse(v, rv);
	}
	if (v == R0_CHECK_OK)
		r->result.delivery_pass++;
	if (v == R0_CHECK_NOT_CONCLUSIVE)
		r->result.delivery_nc++;
	r0_trim_run_line(r, "delivery", v, "%s: %s%s", what, detail,
			 sub ? "; smaller than the granularity, proves nothing" : "");
	if (jr) {
		jr->delivery = v;
		jr->repeats = repeats;
	}
	return ioerr;
}

/*
 * RG read back after its discard (WINDOW: how far outside; EVERY: every
 * sector outside is checked, UNREAD the ranges whose far outside the next
 * whole read checks), its "effect" line and the drives' own account; JR,
 * unless NULL, gets the effect.
 */
static void range_effect(struct r0_trim_run *r, const struct r0_trim_range *rg, uint64_t window, bool every,
			 bool sub, char *unread, size_t unread_len, struct r0_trim_range_doc *jr)
{
	const struct r0_trim_device *t = &r->t;
	struct r0_trim_effect e;
	char detail[1024];
	int err = r0_trim_verify(t, r->fd, r->member_fd, r->seed, rg->start_sector, rg->n_sectors, window, &e);

	if (err) {
		r0_trim_run_line(r, "effect", R0_CHECK_FAIL, "%s: cannot read back: %s", rg->name, strerror(-err));
		return;
	}
	r0_trim_evidence_effect(&r->result.ev, t->n_members, &e);
	if (sub && e.verdict == R0_CHECK_NOT_CHECKABLE)
		e.verdict = R0_CHECK_NOT_CONCLUSIVE;
	r0_trim_effect_detail(&e, t, detail, sizeof(detail));
	r0_trim_run_line(r, "effect", e.verdict, "%s: %s%s%s%s", rg->name, detail,
			 every && window ? "; beyond two stripes either side: at the next whole read" : "",
			 every && !window && unread[0] ? "; this whole read is also the one after " : "",
			 every && !window ? unread : "");
	if (every && window) {
		size_t u = strlen(unread);

		snprintf(unread + u, unread_len - u, "%s%.47s", u ? ", " : "", rg->name);
	} else
		unread[0] = '\0';
	if (jr) {
		jr->has_effect = true;
		jr->effect = e;
	}
	lba_status_range(r, rg->name, rg->start_sector, rg->n_sectors);
}

int r0_trim_run_ranges(struct r0_trim_run *r, const struct r0_limits_check *lc, unsigned repeats, bool full_scan)
{
	const struct r0_trim_device *t = &r->t;
	struct r0_trim_range rg[R0_TRIM_MAX_RANGES];
	bool no_effect = false, every;
	uint64_t window[R0_TRIM_MAX_RANGES];
	char unread[256] = "";   /* the ranges whose far outside the next whole read checks */
	int n = r0_trim_ranges(&t->geo, t->unit_bytes, t->lim.logical_block_bytes ? t->lim.logical_block_bytes : 512,
			       lc->effective_granularity_bytes, rg, R0_TRIM_MAX_RANGES);

	if (n < 0) {
		r0_trim_run_line(r, "ranges", R0_CHECK_FAIL, "cannot build the range set: %s", strerror(-n));
		return 1;
	}
	r0_trim_readback_plan(&t->geo, t->n_members, rg, (size_t)n, full_scan, window, &every);
	if (fill_whole(r, &no_effect))
		return 1;
	for (int i = 0; i < n; i++) {
		struct r0_trim_range_doc *jr = NULL;   /* with -J: this range's record */
		bool sub = rg[i].n_sectors * 512 < lc->effective_granularity_bytes;

		if (r0_trim_run_stopped(r)) {
			r0_trim_run_line(r, "delivery", R0_CHECK_NOT_CONCLUSIVE, "interrupted by a signal");
			return 1;
		}
		if (rg[i].skip_reason) {
			r0_trim_run_line(r, "delivery", R0_CHECK_NOT_CHECKABLE, "%s: %s", rg[i].name, rg[i].skip_reason);
			continue;
		}
		if (r->records) {
			jr = &r->ranges[r->n_ranges++];
			memset(jr, 0, sizeof(*jr));
			snprintf(jr->name, sizeof(jr->name), "%.47s", rg[i].name);
			jr->start_bytes = rg[i].start_sector * 512;
			jr->length_bytes = rg[i].n_sectors * 512;
			jr->smaller_than_granularity = sub;
		}
		if (deliver_range(r, &rg[i], lc, repeats, sub, jr))
			return 1;   /* the array refuses discards: nothing more to see */
		if (no_effect)
			r0_trim_run_line(r, "effect", R0_CHECK_NOT_CHECKABLE, "%s: the pattern did not stick", rg[i].name);
		else
			range_effect(r, &rg[i], window[i], every, sub, unread, sizeof(unread), jr);
		/* put the pattern back, so the next range's neighbours hold it */
		if (i + 1 < n && (fill_failed(r, r0_trim_fill(r->fd, r->seed, rg[i].start_sector,
							      rg[i].n_sectors, r->stop), "fill") ||
				  map_thin(r, "fill")))
			return 1;
	}
	return 0;
}

/* --cycles on the raw device: fill a share, discard it, verify, N times. */
int r0_trim_run_cycles(struct r0_trim_run *r, unsigned cycles, unsigned fill_pct)
{
	const struct r0_trim_device *t = &r->t;

	for (unsigned c = 0; c < cycles; c++) {
		uint64_t start, share;
		char d[1024], e_d[1024], b1[32], b2[32];
		struct r0_trim_effect e;
		enum r0_check_result v;
		int ioerr = 0, err;
		struct r0_trim_counts counts = { 0 };

		r0_trim_cycle_range(t->geo.array_sectors, t->lim.logical_block_bytes, cycles, fill_pct, c, &start, &share);
		if (fill_failed(r, r0_trim_fill(r->fd, r->seed + c + 1, start, share, r->stop), "cycle") ||
		    map_thin(r, "cycle"))
			return 1;
		v = r0_trim_run_deliver(r, start, share, 0, &counts, d, sizeof(d), &ioerr);
		err = ioerr ? ioerr : r0_trim_verify(t, r->fd, r->member_fd, r->seed + c + 1, start, share,
						     R0_TRIM_NO_OUTSIDE, &e);
		if (err) {
			r0_trim_run_line(r, "cycle", R0_CHECK_FAIL, "%u/%u: %s", c + 1, cycles,
					 ioerr ? d : strerror(-err));
			return 1;
		}
		r0_trim_evidence_effect(&r->result.ev, t->n_members, &e);
		r0_trim_effect_detail(&e, t, e_d, sizeof(e_d));
		v = r0_check_result_worse(v, e.verdict == R0_CHECK_FAIL ? R0_CHECK_FAIL : R0_CHECK_OK);
		r0_trim_run_line(r, "cycle", v, "%u/%u: %s at %s filled, discarded: %s; read back: %s", c + 1, cycles,
				 r0_trim_exact_size(share * 512, b1, 32), r0_trim_exact_size(start * 512, b2, 32), d, r0_check_result_name(e.verdict));
		if (r->records) {
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
