// SPDX-License-Identifier: GPL-2.0-or-later
/* What share of a discard each bottom device should receive, and what it received (r0/trimshare.h). */
#include <errno.h>
#include <stdio.h>

#include "r0/trimshare.h"

int r0_trim_expected_shares(const struct r0_trim_device *t, double *share)
{
	uint64_t tot[R0_MAX_MEMBERS] = { 0 }, all = 0;
	int err = r0_trim_stack_totals(&t->stack, 0, t->size_sectors, tot);

	if (!err)
		for (unsigned i = 0; i < t->n_members; i++)
			all += tot[i];
	for (unsigned i = 0; i < t->n_members; i++)
		share[i] = all ? (double)tot[i] / (double)all : 1.0 / t->n_members;
	return err ? err : all ? 0 : -ENODATA;
}

void r0_trim_extents_share(const struct r0_trim_leaf_extent *x, size_t n, uint64_t *share)
{
	for (size_t k = 0; k < n; k++)
		share[x[k].leaf] += x[k].n_sectors;
}

void r0_trim_share_results(const struct r0_trim_device *t, const uint64_t *share,
			   const struct r0_trim_counters *before, const struct r0_trim_counters *after,
			   struct r0_trim_member_result *res)
{
	for (unsigned i = 0; i < t->n_members; i++) {
		uint64_t obs = after->leaf_sectors[i] - before->leaf_sectors[i];

		res[i] = (struct r0_trim_member_result){
			.expected_sectors = share[i],
			.observed_sectors = obs,
			.observed_member_sectors = after->member_sectors[i] - before->member_sectors[i],
			.conclusive = share[i] > 0,
			.verdict = obs >= share[i] ? R0_CHECK_OK : R0_CHECK_FAIL,
		};
	}
}

void r0_trim_delivery_why(const struct r0_trim_device *t, const struct r0_trim_member_result *res,
			  char *why, size_t len)
{
	why[0] = '\0';
	for (unsigned i = 0; i < t->n_members && !why[0]; i++) {
		const struct r0_trim_member *m = &t->members[i];
		const struct r0_trim_member_result *x = &res[i];
		const char *at = m->chain_kname[m->depth];
		unsigned long long e = x->expected_sectors, o = x->observed_sectors, mo = x->observed_member_sectors;
		int drop;

		if (x->verdict != R0_CHECK_FAIL)
			continue;
		if (o > e) {
			snprintf(why, len, "%s received %llu sectors, %llu expected: misrouted, or other I/O on it",
				 at, o, e);
		} else if ((drop = r0_trim_stack_drop_on_path(&t->stack, i)) >= 0) {
			const struct r0_trim_node *dn = &t->stack.node[drop];

			snprintf(why, len, "%s received %llu of %llu sectors: %s (%s) drops them: %s",
				 at, o, e, dn->label, dn->kname, dn->drop_why);
		} else if (m->depth && mo >= e) {
			snprintf(why, len, "%s received %llu of %llu sectors although %s above it counted %llu: "
				 "the %s layer dropped them", at, o, e, m->chain_kname[0], mo, m->chain_type[0]);
		} else {
			snprintf(why, len, "%s received %llu of %llu sectors: %s", at, o, e,
				 o ? "cut short" : m->leaf_lim.max_bytes == 0 ? "dropped (it takes no discards)" : "dropped");
		}
	}
}
