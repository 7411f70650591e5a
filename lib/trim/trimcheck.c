// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0/trimcheck.h, the pure part: limits stacking as block/blk-settings.c
 * blk_stack_limits of Linux 6.12 does it, the range set, the verdicts and
 * the md layout audit. No I/O here, so all of it is unit-tested.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/size.h"
#include "r0/trimcheck.h"

const char *r0_check_result_name(enum r0_check_result v)
{
	switch (v) {
	case R0_CHECK_OK: return "PASS";
	case R0_CHECK_NOT_CHECKABLE: return "NOT CHECKABLE";
	case R0_CHECK_NOT_CONCLUSIVE: return "NOT CONCLUSIVE";
	case R0_CHECK_FAIL: return "FAIL";
	}
	return "?";
}

enum r0_check_result r0_check_result_worse(enum r0_check_result a, enum r0_check_result b)
{
	return a > b ? a : b;
}

void r0_discard_limits_from_device(const struct r0_device *dev, struct r0_discard_limits *l)
{
#define NN(x) ((x) > 0 ? (uint64_t)(x) : 0)
	l->granularity_bytes = NN(dev->discard_granularity_bytes);
	l->max_bytes = NN(dev->discard_max_bytes);
	l->max_hw_bytes = NN(dev->discard_max_hw_bytes);
	l->alignment_bytes = NN(dev->discard_alignment_bytes);
	l->write_zeroes_max_bytes = NN(dev->write_zeroes_max_bytes);
	l->logical_block_bytes = (uint32_t)NN(dev->logical_block_size_bytes);
#undef NN
}

static const char *mname(const char *const *names, unsigned i, char *buf, size_t len)
{
	if (names && names[i])
		return names[i];
	snprintf(buf, len, "member %u", i);
	return buf;
}

void r0_trim_check_limits(const struct r0_discard_limits *array,
			  const struct r0_discard_limits *members, const char *const *member_names,
			  unsigned n, bool splits, struct r0_limits_check *out)
{
	char nb[32];
	bool all_align0 = true, any_wz0 = false;
	unsigned i;

	memset(out, 0, sizeof(*out));
	out->no_discard_member = -1;
	for (i = 0; i < n; i++) {
		const struct r0_discard_limits *m = &members[i];

		if (m->max_bytes == 0 && out->no_discard_member < 0)
			out->no_discard_member = (int)i;
		if (m->granularity_bytes > out->expected_granularity_bytes)
			out->expected_granularity_bytes = m->granularity_bytes;
		if (m->max_bytes && (!out->min_member_max_bytes || m->max_bytes < out->min_member_max_bytes))
			out->min_member_max_bytes = m->max_bytes;
		if (m->alignment_bytes)
			all_align0 = false;
		if (m->write_zeroes_max_bytes == 0)
			any_wz0 = true;
	}
	out->effective_granularity_bytes = array->granularity_bytes > out->expected_granularity_bytes ?
		array->granularity_bytes : out->expected_granularity_bytes;

	/* support: the array, and every member below it */
	if (array->max_bytes == 0) {
		out->support = R0_CHECK_FAIL;
		if (out->no_discard_member >= 0)
			snprintf(out->why, sizeof(out->why), "the array takes no discards: %s takes none",
				 mname(member_names, (unsigned)out->no_discard_member, nb, sizeof(nb)));
		else
			snprintf(out->why, sizeof(out->why),
				 "the array takes no discards although every member does: the layer turned them off");
	} else if (out->no_discard_member >= 0) {
		out->support = R0_CHECK_FAIL;
		snprintf(out->why, sizeof(out->why),
			 "the array takes discards but %s takes none: its share is dropped",
			 mname(member_names, (unsigned)out->no_discard_member, nb, sizeof(nb)));
	}
	if (out->support == R0_CHECK_FAIL) {
		out->granularity = out->max = out->alignment = R0_CHECK_NOT_CHECKABLE;
	} else {
		out->granularity = array->granularity_bytes >= out->expected_granularity_bytes ?
			R0_CHECK_OK : R0_CHECK_FAIL;
		if (out->granularity == R0_CHECK_FAIL)
			snprintf(out->why, sizeof(out->why),
				 "array discard_granularity %llu is below a member's %llu",
				 (unsigned long long)array->granularity_bytes,
				 (unsigned long long)out->expected_granularity_bytes);
		/* md raid0 and dm-stripe split discards per member themselves */
		out->max = splits || array->max_bytes <= out->min_member_max_bytes ?
			R0_CHECK_OK : R0_CHECK_FAIL;
		if (out->max == R0_CHECK_FAIL && !out->why[0])
			snprintf(out->why, sizeof(out->why),
				 "discard_max_bytes %llu is above a member's %llu and the layer does not split",
				 (unsigned long long)array->max_bytes,
				 (unsigned long long)out->min_member_max_bytes);
		if (!all_align0)
			out->alignment = R0_CHECK_NOT_CHECKABLE;   /* stacked offsets: not modelled */
		else
			out->alignment = array->alignment_bytes == 0 ? R0_CHECK_OK : R0_CHECK_FAIL;
		if (out->alignment == R0_CHECK_FAIL && !out->why[0])
			snprintf(out->why, sizeof(out->why),
				 "discard_alignment %llu where every member has 0",
				 (unsigned long long)array->alignment_bytes);
	}
	out->write_zeroes = any_wz0 && array->write_zeroes_max_bytes ? R0_CHECK_FAIL : R0_CHECK_OK;
	if (out->write_zeroes == R0_CHECK_FAIL && !out->why[0])
		snprintf(out->why, sizeof(out->why),
			 "write_zeroes_max_bytes %llu although a member takes no write-zeroes",
			 (unsigned long long)array->write_zeroes_max_bytes);
	out->overall = r0_check_result_worse(out->support, out->granularity);
	out->overall = r0_check_result_worse(out->overall, out->max);
	out->overall = r0_check_result_worse(out->overall, out->alignment == R0_CHECK_FAIL ?
					R0_CHECK_FAIL : R0_CHECK_OK);
	out->overall = r0_check_result_worse(out->overall, out->write_zeroes);
}

void r0_trim_device_check_limits(const struct r0_trim_device *t, struct r0_limits_check *lc,
				 uint64_t *min_write_zeroes_bytes)
{
	struct r0_discard_limits ml[R0_MAX_MEMBERS] = { 0 };   /* set for each member; zeroed for the compiler */
	const char *names[R0_MAX_MEMBERS] = { NULL };
	bool splits = t->kind != R0_TRIM_SINGLE;
	uint64_t mwz = UINT64_MAX;

	for (unsigned i = 0; i < t->n_members; i++) {
		const struct r0_trim_member *m = &t->members[i];

		/* the member's own queue, unless the stack below it takes less */
		ml[i] = m->lim;
		if (m->depth && m->leaf_lim.max_bytes == 0)
			ml[i] = m->leaf_lim;
		if (m->leaf_lim.granularity_bytes > ml[i].granularity_bytes)
			ml[i].granularity_bytes = m->leaf_lim.granularity_bytes;
		names[i] = m->leaf_lim.max_bytes == 0 && m->depth ? m->chain_kname[m->depth] : m->kname;
		if (ml[i].write_zeroes_max_bytes < mwz)
			mwz = ml[i].write_zeroes_max_bytes;
	}
	if (t->kind == R0_TRIM_SINGLE && t->members[0].depth == 0) {
		/* the device is its own member: nothing is stacked, only support to check */
		splits = true;
	}
	r0_trim_check_limits(&t->lim, ml, names, t->n_members, splits, lc);
	*min_write_zeroes_bytes = mwz == UINT64_MAX ? 0 : mwz;
}

void r0_trim_cycle_range(uint64_t array_sectors, uint32_t lbs_bytes, unsigned cycles, unsigned fill_pct,
			 unsigned c, uint64_t *start_sector, uint64_t *n_sectors)
{
	uint64_t lb = lbs_bytes / 512 ? lbs_bytes / 512 : 1;
	uint64_t share = array_sectors * fill_pct / 100 / lb * lb;

	*n_sectors = share;
	*start_sector = cycles > 1 ? (array_sectors - share) * c / (cycles - 1) / lb * lb : 0;
}

static uint64_t rdown(uint64_t v, uint64_t a)
{
	return a ? v / a * a : v;
}

struct range_set {
	struct r0_trim_range *out;
	size_t max, count;
	uint64_t array, lb;
};

static void add_range(struct range_set *rs, const char *name, uint64_t start, uint64_t n,
		      const char *skip)
{
	struct r0_trim_range *r;

	if (rs->count >= rs->max)
		return;
	r = &rs->out[rs->count];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	if (!skip) {
		start = rdown(start, rs->lb);
		if (start >= rs->array)
			skip = "the device is too small for it";
	}
	if (!skip) {
		if (n > rs->array - start)
			n = rs->array - start;
		n = rdown(n, rs->lb);
		if (!n)
			skip = "the device is too small for it";
	}
	if (skip) {
		r->skip_reason = skip;
	} else {
		r->start_sector = start;
		r->n_sectors = n;
	}
	rs->count++;
}

int r0_trim_ranges(const struct r0_geometry *g, uint32_t unit_bytes, uint32_t lbs_bytes,
		   uint64_t gran_bytes, struct r0_trim_range *out, size_t max)
{
	struct range_set rs = { out, max, 0, 0, 0 };
	uint64_t u = unit_bytes / 512, lb = lbs_bytes / 512, gs = gran_bytes / 512, a, half;
	char name[48], sz[24];

	if (!g || !out || !lb || !u || u % lb || !g->array_sectors)
		return -EINVAL;
	a = g->array_sectors;
	rs.array = a;
	rs.lb = lb;
	half = rdown(u / 2, lb);

	if (a >= 2 * u)
		add_range(&rs, "one chunk", u, u, NULL);
	else
		add_range(&rs, "one chunk", 0, u, NULL);
	if (half == 0 || half >= u)
		add_range(&rs, "part of a chunk", 0, 0, "a chunk is one logical block: it has no part");
	else
		add_range(&rs, "part of a chunk", (a >= 2 * u ? u : 0) + rdown(u / 4, lb), half, NULL);
	{
		uint64_t nm = g->zones[0].n_members, start = 2 * u + half;

		/* starts mid-chunk when a chunk has parts, and ends mid-chunk: nm + 2 chunks touched */
		if (start + (nm + 1) * u > a)
			start = half;
		add_range(&rs, "across chunk boundaries", start, (nm + 1) * u, NULL);
	}
	for (unsigned k = 1; k < g->n_zones; k++) {
		uint64_t b = g->zones[k].array_start_sector;
		uint64_t before = g->zones[k - 1].n_members * u + half;
		uint64_t after = g->zones[k].n_members * u + half;
		uint64_t start = b - (before < b ? before : b);
		uint64_t end = b + (after < a - b ? after : a - b);

		snprintf(name, sizeof(name), "across md zones %u|%u", k - 1, k);
		add_range(&rs, name, start, end - start, NULL);
	}
	{
		uint64_t start = rdown(a / 8, u) + (lb < u ? lb : 0), n = rdown(a / 2, lb);

		if (start + n > a)
			n = a - start;
		r0_format_size_human(rdown(n, lb) * 512, sz, sizeof(sz));
		snprintf(name, sizeof(name), "large (%s)", sz);
		add_range(&rs, name, start, n, NULL);
	}
	if (gs > lb) {
		/* one logical block inside a granule: proves nothing by itself */
		add_range(&rs, "smaller than the granularity", rdown(a / 3, gs) + lb, lb, NULL);
	}
	add_range(&rs, "whole device", 0, a, NULL);
	return (int)rs.count;
}

void r0_trim_plan_windows(const struct r0_trim_range *rg, size_t n, uint64_t array_sectors,
			  uint64_t w, uint64_t *window)
{
	uint64_t lo = 0, hi = array_sectors;   /* what every window since the last whole read covers */

	for (size_t i = 0; i < n; i++) {
		uint64_t a = rg[i].start_sector, b = a + rg[i].n_sectors;
		size_t j = i + 1;

		window[i] = 0;
		if (rg[i].skip_reason)
			continue;
		while (j < n && rg[j].skip_reason)
			j++;
		if (a > w && a - w > lo)
			lo = a - w;
		if (array_sectors - b > w && b + w < hi)
			hi = b + w;
		if (j < n && (lo > 0 || hi < array_sectors) && rg[j].start_sector >= lo &&
		    rg[j].start_sector + rg[j].n_sectors <= hi) {
			window[i] = w;
			continue;
		}
		lo = 0;   /* a whole read: nothing is left unread */
		hi = array_sectors;
	}
}

void r0_trim_readback_plan(const struct r0_geometry *g, unsigned n_members, const struct r0_trim_range *rg,
			   size_t n, bool full_scan, uint64_t *window, bool *every)
{
	uint64_t stripes2 = 2 * (uint64_t)g->chunk_sectors * n_members;

	*every = full_scan || g->array_sectors <= R0_TRIM_FULL_SCAN_MAX_SECTORS;
	for (size_t i = 0; i < n; i++)
		window[i] = stripes2;
	if (*every)
		r0_trim_plan_windows(rg, n, g->array_sectors, stripes2, window);
}

void r0_trim_interior(uint64_t start, uint64_t n, uint64_t gran_sectors, uint64_t align_sectors,
		      uint64_t *a, uint64_t *b)
{
	uint64_t g = gran_sectors, sh;

	if (g <= 1) {
		*a = start;
		*b = start + n;
		return;
	}
	/* granules start at align + k * g; shift so they start at multiples of g */
	sh = (g - align_sectors % g) % g;
	*a = (start + sh + g - 1) / g * g;
	*b = (start + n + sh) / g * g;
	if (*a >= *b) {
		*a = *b = start;
		return;
	}
	*a -= sh;
	*b -= sh;
}

bool r0_trim_holds_granule(uint64_t start, uint64_t n, uint64_t gran_sectors,
			   uint64_t align_sectors)
{
	uint64_t a, b;

	if (n == 0)
		return false;
	r0_trim_interior(start, n, gran_sectors, align_sectors, &a, &b);
	return b > a;
}

enum r0_check_result r0_trim_judge_member(uint64_t expected_sectors, uint64_t observed_sectors,
				     bool conclusive)
{
	if (observed_sectors > expected_sectors)
		return R0_CHECK_FAIL;
	if (expected_sectors == 0)
		return R0_CHECK_OK;   /* nothing sent, nothing seen */
	if (!conclusive)
		return R0_CHECK_NOT_CONCLUSIVE;
	return observed_sectors == expected_sectors ? R0_CHECK_OK : R0_CHECK_FAIL;
}

int r0_kernel_version(const char *release, unsigned *major, unsigned *minor)
{
	int n = 0;

	if (!release || sscanf(release, "%u.%u%n", major, minor, &n) != 2 || n == 0)
		return -EINVAL;
	return 0;
}

enum r0_check_result r0_trim_audit_layout(const struct r0_geometry *g, const char *release,
				     char *why, size_t len)
{
	unsigned maj, min;

	if (g->backend != R0_BACKEND_MD) {
		snprintf(why, len, "not md raid0: no zone layout");
		return R0_CHECK_OK;
	}
	if (!r0_geometry_needs_layout(g)) {
		snprintf(why, len, "%u zone%s: the layouts map alike", g->n_zones,
			 g->n_zones == 1 ? "" : "s");
		return R0_CHECK_OK;
	}
	if (g->layout == R0_MD_LAYOUT_ALT) {
		snprintf(why, len, "%u zones, layout alt", g->n_zones);
		return R0_CHECK_OK;
	}
	if (r0_kernel_version(release, &maj, &min)) {
		snprintf(why, len, "%u zones, layout orig; kernel version unknown", g->n_zones);
		return R0_CHECK_NOT_CHECKABLE;
	}
	if (maj < 6 || (maj == 6 && min < 3)) {
		snprintf(why, len,
			 "%u zones, layout orig on Linux %u.%u: raid0 discards before 6.3 (e836007089ba) "
			 "hit the wrong blocks and corrupt data unless the fix was backported",
			 g->n_zones, maj, min);
		return R0_CHECK_FAIL;
	}
	snprintf(why, len, "%u zones, layout orig on Linux %u.%u (discards fixed in 6.3)",
		 g->n_zones, maj, min);
	return R0_CHECK_OK;
}

int r0_trim_judge_range(const struct r0_trim_device *t, uint64_t start, uint64_t n,
			uint64_t effective_gran_bytes, const struct r0_trim_counters *before,
			const struct r0_trim_counters *after, struct r0_trim_member_result *res,
			enum r0_check_result *v)
{
	struct r0_trim_leaf_extent *ext = NULL;
	bool sub = n * 512 < effective_gran_bytes;
	size_t cnt = 0;
	int err;

	*v = R0_CHECK_OK;
	if ((err = r0_trim_stack_split(&t->stack, start, n, &ext, &cnt, NULL)))
		return err;
	for (unsigned i = 0; i < t->n_members; i++) {
		res[i] = (struct r0_trim_member_result){ 0 };
		res[i].observed_sectors = after->leaf_sectors[i] - before->leaf_sectors[i];
		res[i].observed_member_sectors = after->member_sectors[i] - before->member_sectors[i];
	}
	for (size_t k = 0; k < cnt; k++) {
		const struct r0_trim_member *m = &t->members[ext[k].leaf];
		struct r0_trim_member_result *r = &res[ext[k].leaf];
		uint64_t g = m->leaf_lim.granularity_bytes > m->lim.granularity_bytes ?
			m->leaf_lim.granularity_bytes : m->lim.granularity_bytes;

		r->expected_sectors += ext[k].n_sectors;
		/* below dm-thin the place is unknown: blocks land whole, so size decides */
		if (!sub && (ext[k].placed ?
			     r0_trim_holds_granule(ext[k].leaf_start_sector, ext[k].n_sectors, g / 512,
						   m->leaf_lim.alignment_bytes / 512) :
			     ext[k].n_sectors * 512 >= g))
			r->conclusive = true;
	}
	for (unsigned i = 0; i < t->n_members; i++) {
		struct r0_trim_member_result *r = &res[i];

		if (!sub && r->expected_sectors == 0)
			r->conclusive = true;
		r->verdict = r0_trim_judge_member(r->expected_sectors, r->observed_sectors, r->conclusive);
		*v = r0_check_result_worse(*v, r->verdict);
	}
	if (sub && *v != R0_CHECK_FAIL)
		*v = R0_CHECK_NOT_CONCLUSIVE;
	free(ext);
	return 0;
}

void r0_trim_evidence_delivery(struct r0_trim_evidence *ev, unsigned n,
			       const struct r0_trim_member_result *res)
{
	for (unsigned i = 0; i < n; i++) {
		if (res[i].verdict == R0_CHECK_FAIL)
			ev->short_[i]++;
		else if (res[i].verdict == R0_CHECK_OK && res[i].expected_sectors)
			ev->delivered[i]++;
	}
}

void r0_trim_evidence_effect(struct r0_trim_evidence *ev, unsigned n, const struct r0_trim_effect *e)
{
	for (unsigned i = 0; i < n; i++) {
		ev->dealloc_ok_sectors[i] += e->leaf_discarded_ok[i];
		ev->dealloc_bad_sectors[i] += e->leaf_discarded_bad[i];
	}
}

void r0_trim_evidence_lba_status(struct r0_trim_evidence *ev, unsigned n, const struct r0_trim_lba_answer *a)
{
	for (unsigned i = 0; i < n; i++) {
		ev->lbas_dealloc_sectors[i] += a[i].deallocated;
		ev->lbas_mapped_sectors[i] += a[i].mapped;
	}
}

enum r0_trim_level r0_trim_evidence_level(const struct r0_trim_evidence *ev, const struct r0_trim_device *t,
					  unsigned i, char *why, size_t len)
{
	const struct r0_trim_member *m = &t->members[i];

	if (ev->dealloc_bad_sectors[i]) {
		snprintf(why, len, "the drive completed the discard but still returns the old data "
			 "(%llu sectors; it promises %s: %s)", (unsigned long long)ev->dealloc_bad_sectors[i],
			 m->reads == R0_READS_ZEROES ? "zeroes" : "0xff", m->reads_why);
		return R0_LEVEL_NONE;
	}
	if (ev->short_[i]) {
		snprintf(why, len, "not delivered: %u discard%s fell short", ev->short_[i],
			 ev->short_[i] == 1 ? "" : "s");
		return R0_LEVEL_NONE;
	}
	if (!ev->delivered[i]) {
		snprintf(why, len, "no conclusive delivery");
		return R0_LEVEL_NONE;
	}
	/* SCSI UNMAP is a hint: a drive that keeps blocks mapped broke no promise, it freed nothing */
	if (ev->lbas_mapped_sectors[i]) {
		snprintf(why, len, "delivered; the drive reports %llu discarded sectors still mapped "
			 "(GET LBA STATUS)", (unsigned long long)ev->lbas_mapped_sectors[i]);
		return R0_LEVEL_DELIVERED;
	}
	if (ev->dealloc_ok_sectors[i]) {
		snprintf(why, len, "deallocated (%s%s)", m->reads_why,
			 ev->lbas_dealloc_sectors[i] ? "; GET LBA STATUS: deallocated" : "");
		return R0_LEVEL_DEALLOCATED;
	}
	if (ev->lbas_dealloc_sectors[i]) {
		snprintf(why, len, "deallocated (GET LBA STATUS: %llu sectors deallocated)",
			 (unsigned long long)ev->lbas_dealloc_sectors[i]);
		return R0_LEVEL_DEALLOCATED;
	}
	snprintf(why, len, "delivered; read-back not checkable: %s", m->reads_why);
	return R0_LEVEL_DELIVERED;
}

const char *r0_discard_reads_name(enum r0_discard_reads v)
{
	return v == R0_READS_ZEROES ? "zeroes" : v == R0_READS_ONES ? "0xff" : "unknown";
}

const char *r0_trim_level_name(enum r0_trim_level l)
{
	return l == R0_LEVEL_DEALLOCATED ? "deallocated" : l == R0_LEVEL_DELIVERED ? "delivered" : "not shown";
}

enum r0_check_result r0_trim_evidence_verdict(const struct r0_trim_evidence *ev, const struct r0_trim_device *t,
					 enum r0_trim_level require, char *list, size_t len, char *fail, size_t flen)
{
	enum r0_check_result v = R0_CHECK_OK;
	size_t off = 0;
	bool broken = false;

	list[0] = fail[0] = '\0';
	for (unsigned i = 0; i < t->n_members; i++) {
		char why[256];
		enum r0_trim_level l = r0_trim_evidence_level(ev, t, i, why, sizeof(why));
		const char *k = t->members[i].kname;
		/* short of REQUIRE only for want of a conclusive check: nothing went wrong there */
		bool unshown = l == R0_LEVEL_NONE && !ev->delivered[i] && !ev->short_[i] &&
			       !ev->dealloc_bad_sectors[i];
		enum r0_check_result mine = unshown ? R0_CHECK_NOT_CONCLUSIVE : R0_CHECK_FAIL;

		if (off < len)
			off += (size_t)snprintf(list + off, len - off, "%s%s %s", i ? ", " : "", k,
						r0_trim_level_name(l));
		if (l >= require)
			continue;
		/* the reason: a broken read-back promise first, else the first failure, else the first unshown */
		if (v == R0_CHECK_OK || (v == R0_CHECK_NOT_CONCLUSIVE && mine == R0_CHECK_FAIL) ||
		    (!broken && ev->dealloc_bad_sectors[i]))
			snprintf(fail, flen, "bottom device %s: %s%s", k, why,
				 l >= R0_LEVEL_DELIVERED ? " (--require deallocated)" : "");
		broken |= ev->dealloc_bad_sectors[i] != 0;
		v = r0_check_result_worse(v, mine);
	}
	return v;
}

bool r0_trim_evidence_summary(const struct r0_trim_evidence *ev, const struct r0_trim_device *t,
			      enum r0_trim_level require, char *list, size_t len, char *fail, size_t flen)
{
	return r0_trim_evidence_verdict(ev, t, require, list, len, fail, flen) == R0_CHECK_OK;
}
