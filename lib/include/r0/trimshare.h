/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What share of a discard each bottom device of the device r0trim checks should
 * receive, and what it received against that: the geometry's shares of
 * discards spread over the whole device (fstrim's free space, --watch), a
 * file's sectors per bottom device (--live, --fs), a share against the
 * counters read around its discard, and why a delivery fell short. Pure:
 * the counters are read by r0_trim_read_counters (r0/trimcheck.h).
 */
#ifndef R0_TRIMSHARE_H
#define R0_TRIMSHARE_H

#include <stddef.h>
#include <stdint.h>

#include "r0/trimcheck.h"
#include "r0/trimstack.h"

/*
 * The share (0 to 1) of each of T's bottom devices in discards over the
 * whole top device, from the stack's geometry (r0_trim_stack_totals),
 * into SHARE[0..n_members-1]. 0; else -errno of the split or -ENODATA
 * when the stack passes nothing down, with equal shares in SHARE.
 */
int r0_trim_expected_shares(const struct r0_trim_device *t, double *share);

/* Adds each of the N pieces X (r0_trim_stack_split, r0_trim_file_extents) to SHARE[its leaf], in sectors. */
void r0_trim_extents_share(const struct r0_trim_leaf_extent *x, size_t n, uint64_t *share);

/*
 * Each of T's bottom devices after a discard that had to reach SHARE[i]
 * sectors there at least (a deleted file's), from the counters read
 * BEFORE and AFTER it, into RES[0..n_members-1]: PASS when it counted
 * SHARE[i] or more (other free space may come with it), else FAIL;
 * conclusive where its share is not 0.
 */
void r0_trim_share_results(const struct r0_trim_device *t, const uint64_t *share,
			   const struct r0_trim_counters *before, const struct r0_trim_counters *after,
			   struct r0_trim_member_result *res);

/*
 * Why one discard's delivery failed (RES from r0_trim_judge_range), in
 * words into WHY, of the first bottom device that failed: it received
 * more than expected (misrouted, or other I/O on it), a layer on its path
 * drops discards, the layer above it dropped what its member counted,
 * it was cut short, or nothing arrived. "" when none failed.
 */
void r0_trim_delivery_why(const struct r0_trim_device *t, const struct r0_trim_member_result *res,
			  char *why, size_t len);

#endif
