// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep's plan before it runs: the lists its options name, what it destroys and takes (the plan and
 * the yes), the checks that need the plan, the calibration's passes, and what a killed r0sweep left on
 * these members. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "consent.h"
#include "sweep.h"

#include "r0/age.h"
#include "r0/array.h"
#include "r0/calibrate.h"
#include "r0/everyday.h"
#include "r0/geometry.h"
#include "r0/preset.h"
#include "r0/size.h"

int sweep_add_chunk(const char *s, void *arg)
{
	struct sweep_chunk_list *l = arg;
	uint32_t c;

	/* the stricter md rule: one list serves both back ends */
	if (r0_parse_chunk(s, R0_BACKEND_MD, &c) || *l->n == MAX_CHUNKS)
		return -EINVAL;
	for (size_t i = 0; i < *l->n; i++)
		if (l->v[i] == c)
			return 0;
	l->v[(*l->n)++] = c;
	return 0;
}

int sweep_add_count(const char *s, void *arg)
{
	bool *c = arg;
	unsigned n;

	if (r0_parse_uint(s, R0_MAX_MEMBERS, &n) || !n)
		return -EINVAL;
	c[n] = true;
	return 0;
}

int sweep_add_qd(const char *s, void *arg)
{
	struct sweep *sw = arg;
	unsigned q;

	if (r0_parse_uint(s, R0_QD_MAX, &q) || !q || sw->n_qds == MAX_QDS)
		return -EINVAL;
	sw->qds[sw->n_qds++] = q;
	return 0;
}

int sweep_add_preset(const char *s, void *arg)
{
	const struct r0_preset **p = arg;
	size_t n = 0;

	while (n < MAX_PRESETS && p[n])
		n++;
	if (n == MAX_PRESETS || !(p[n] = r0_preset_find(s)))
		return -EINVAL;
	return 0;
}

static int find_name(const char *name, void *arg)
{
	struct sweep *sw = arg;
	int i = r0_sweep_plan_find(&sw->plan, name);

	if (i < 0) {
		r0_cli_usage_error(PROG, "--workloads: no workload '%s' in the sets chosen", name);
		return -ENOENT;
	}
	sw->keep[i] = true;
	return 0;
}

int sweep_keep_only(struct sweep *sw, const char *list)
{
	int err = r0_cli_each_item(list, find_name, sw);

	if (err == -EINVAL)
		r0_cli_usage_error(PROG, "--workloads '%s': names, comma separated", list);
	if (!err)
		r0_sweep_plan_keep(&sw->plan, sw->keep);
	return err;
}

/*
 * --resume after a SIGKILL: the killed run's array (and its scenario's
 * window and mount) still holds the members; what it left on these
 * members alone is removed, by its name, and said. What cannot be is left
 * to the member checks, which then name what holds each member.
 */
void sweep_clear_killed(const struct sweep *sw)
{
	dev_t devs[R0_MAX_MEMBERS];
	char names[8][R0_ARRAY_NAME_MAX + 1];
	size_t n = 0, removed;
	struct stat st;
	int err;

	for (unsigned i = 0; i < sw->n_members; i++)
		if (!stat(sw->members[i], &st) && S_ISBLK(st.st_mode))
			devs[n++] = st.st_rdev;
	err = r0_array_clear_killed_sweep(devs, n, names, 8, &removed);
	for (size_t i = 0; i < removed && i < 8; i++)
		fprintf(stderr, PROG ": removed %s, left on these members by an r0sweep that was killed\n", names[i]);
	if (err)
		fprintf(stderr, PROG ": what a killed r0sweep left on these members: %s\n",
			err == -EBUSY ? "mounted elsewhere or held, left alone" : strerror(-err));
}

/* "9 targets x 13 workloads x 3 repeats = 351 cells" of an adaptive study's first look */
void sweep_first_look_words(const struct sweep *sw, char *buf, size_t len)
{
	size_t active = 0;

	for (size_t t = 0; t < sw->plan.n_targets; t++)
		active += sw->study.planner.active[t];
	snprintf(buf, len, "%zu targets x %zu workloads x %u repeats = %zu cells", active, sw->plan.n_wl,
		 sw->study.planner.looks[0], r0_planner_first_cells(&sw->study.planner));
}

/* The plan: what will be destroyed, written and how long it takes. */
int sweep_show_plan(const struct sweep *sw, bool read_only, const char *output,
		     const struct r0_consent *consent)
{
	double cells_s = (double)(sw->total - sw->skipped) * sweep_cell_seconds(sw);
	double pre_s = 0, all_s;
	char region[32], t_cells[48], t_pre[48], t_all[48], first[96];
	struct r0_plan p;

	if (r0_plan_begin(&p, PROG, read_only ?
			  "a read-only study: nothing is written to these devices" :
			  "a study that DESTROYS THE DATA on these devices"))
		return R0_EXIT_FAILURE;
	p.keeps_data = read_only;
	for (unsigned i = 0; i < sw->n_members; i++)
		r0_plan_device(&p, sw->members[i]);
	r0_format_size_human(sweep_region_bytes(sw), region, sizeof(region));
	if (read_only)
		fprintf(p.f, "  writes: nothing (--read-only): the reads hit the drives' data as it is\n");
	else {
		for (unsigned i = 0; sw->precondition && i < sw->n_members; i++) {
			uint64_t b = sw->chk[i].size_sectors * 512;

			pre_s += r0_plan_write_seconds(b < sw->region_bytes ? b : sw->region_bytes);
		}
		fprintf(p.f, "  writes: %s the first %s of each member, then write tests all over it\n",
			sw->precondition ? "preconditioning writes" : "no preconditioning;", region);
	}
	r0_plan_duration(pre_s, t_pre, sizeof(t_pre));
	if (sw->adaptive) {
		sweep_first_look_words(sw, first, sizeof(first));
		cells_s = (double)r0_planner_first_cells(&sw->study.planner) * sweep_cell_seconds(sw);
		r0_plan_bound(cells_s, t_cells, sizeof(t_cells));
		fprintf(p.f, "  runs: first %s%s, at most %s; then more repeats (up to %u) only where a comparison "
			"is still undecided, and the chunks left in the running on the other layer and at fewer "
			"members\n", first, sw->skipped ? " (some already in the file)" : "", t_cells, sw->max_repeats);
		if (sw->study.planner.money_first)
			fprintf(p.f, "  the budget does not hold every chunk's first look: the first is worth it and how "
				"many drives at one chunk; the other chunks only where they fit with their counts\n");
	} else if (sw->calibrate) {
		char letters[2 * R0_CALIB_MAX_COPIES] = "";

		for (unsigned c = 1; c <= sw->copies; c++)
			snprintf(letters + strlen(letters), sizeof(letters) - strlen(letters), "%s%c", c > 1 ? "," : "",
				 r0_calib_letter(c));
		r0_plan_duration(cells_s, t_cells, sizeof(t_cells));
		fprintf(p.f, "  calibration: one md array of the %u members at 64K, built afresh at every visit and "
			"measured as %u copies (%s), beside the first member alone; the study's statistics count the "
			"differences they find between the copies\n", sw->n_members, sw->copies, letters);
		fprintf(p.f, "  runs: %zu targets x %zu workloads x %u passes = %zu cells, %s\n", sw->plan.n_targets,
			sw->plan.n_wl, sw->repeats, sw->total, t_cells);
	} else {
		r0_plan_duration(cells_s, t_cells, sizeof(t_cells));
		fprintf(p.f, "  runs: %zu targets x %zu workloads x %u repeats = %zu cells%s, %s\n",
			sw->plan.n_targets, sw->plan.n_wl, sw->repeats, sw->total,
			sw->skipped ? " (some already in the file)" : "", t_cells);
	}
	if (pre_s > 0)
		fprintf(p.f, "  preconditioning: %s at %.0f MB/s a drive (a guess: not measured yet)\n",
			t_pre, R0_PLAN_ASSUMED_MBPS);
	all_s = cells_s + pre_s;
	if (sw->adaptive && sw->budget_ns) {
		/* the budget bounds it all: nothing starts that would end past it */
		all_s = (double)sw->budget_ns / 1e9;
		r0_plan_bound(all_s, t_all, sizeof(t_all));
		fprintf(p.f, "  time: at most %s in all (--budget), preconditioning included; results in %s\n",
			t_all, output);
	} else {
		r0_plan_duration(all_s, t_all, sizeof(t_all));
		fprintf(p.f, "  time: %s%s in all; results in %s\n", sw->adaptive ? "at least " : "", t_all, output);
	}
	/* a read-only study writes nothing: there is nothing to agree to */
	if (read_only && !consent->plan_only) {
		struct r0_consent go = { .yes = true };
		return r0_plan_decide(&p, &go);
	}
	return r0_plan_decide(&p, consent);
}

/*
 * W on member I alone (the smallest target), as a cell takes it (CELL) or
 * as the preconditioning does (its region only, written once), checked:
 * 0, or the usage error's status.
 */
static int check_on_member(const struct sweep *sw, unsigned i, struct r0_workload w, const char *what, bool cell)
{
	/* its shape only: the cells open it writable when a test writes */
	struct r0_io_file t = { .is_block = true, .writable = true, .size_bytes = sw->chk[i].size_sectors * 512,
				.logical_block_bytes = sw->chk[i].logical_block_bytes };
	char why[256], region[32];

	snprintf(t.path, sizeof(t.path), "%s", sw->members[i]);
	if (cell)
		sweep_cell_workload(sw, &w, t.size_bytes);
	else
		w.span_bytes = r0_test_region_bytes(sw->region_bytes, t.size_bytes);
	if (!r0_workload_check(&w, &t, why, sizeof(why)))
		return 0;
	r0_format_size(sw->region_bytes, region, sizeof(region));
	return r0_cli_usage_error(PROG, "--region %s: %s on %s: %s", region, what, sw->members[i], why);
}

/*
 * Every block test and the preconditioning on the region as each member
 * gives it, before the plan is shown: a region too small for a test was
 * found only at that test's first cell, after the members were written.
 * An array is larger than its members and its logical block their
 * largest, so what passes on every member passes on it.
 */
int sweep_check_region(const struct sweep *sw)
{
	const struct r0_workload fill = SWEEP_PRECONDITION_WORKLOAD;
	int rc;

	for (unsigned i = 0; i < sw->n_members; i++) {
		if (sw->precondition && (rc = check_on_member(sw, i, fill, "preconditioning", false)))
			return rc;
		for (size_t k = 0; k < sw->plan.n_wl; k++) {
			const struct r0_workload *w = &sw->plan.wl[k].w;

			if ((w->access == R0_ACCESS_SEQ || w->access == R0_ACCESS_RAND) &&
			    (rc = check_on_member(sw, i, *w, sw->plan.wl[k].label, true)))
				return rc;
		}
	}
	return -1;
}

/* A file system over the region must hold the scenarios and be one mkfs makes: -1 if so, else an exit. */
int sweep_check_everyday_region(const struct sweep *sw)
{
	uint64_t r = r0_test_region_bytes(sweep_region_bytes(sw), UINT64_MAX);

	for (size_t i = 0; i < sw->plan.n_wl; i++) {
		enum r0_everyday s;
		char fs[16], need[32];

		if (!sweep_is_everyday(sw, i) || r0_everyday_parse(sw->plan.wl[i].label, fs, sizeof(fs), &s))
			continue;
		if (r >= r0_everyday_fs_min_bytes(fs))
			continue;
		r0_format_size(r0_everyday_fs_min_bytes(fs), need, sizeof(need));
		return r0_cli_usage_error(PROG, "%s: a test region of %s at least for %s (the region is %llu MiB%s)",
					  sw->plan.wl[i].label, need,
					  strcmp(fs, "xfs") ? "the scenarios to keep their shape" : "mkfs.xfs",
					  (unsigned long long)(r >> 20),
					  r < sw->region_bytes ? ", the smallest member" : "");
	}
	return -1;
}

/*
 * The calibration's passes: as many whole ones as the budget holds after
 * preconditioning, each visit building and removing its array; at least
 * R0_CALIB_MIN_PASSES. -1, or the exit status after saying why not.
 */
int sweep_calibration_passes(struct sweep *sw)
{
	/* a visit builds an array and removes it: about a second beside its cells (md, udev) */
	const double visit_s = 1.0;
	double pre_s = 0, pass_s, budget_s = (double)sw->budget_ns / 1e9;
	unsigned passes;
	char need[48], have[48];

	for (unsigned i = 0; sw->precondition && i < sw->n_members; i++) {
		uint64_t b = sw->chk[i].size_sectors * 512;

		pre_s += r0_plan_write_seconds(b < sw->region_bytes ? b : sw->region_bytes);
	}
	pass_s = (double)(sw->plan.n_targets * sw->plan.n_wl) * sweep_cell_seconds(sw) +
		 (double)sw->plan.n_targets * visit_s;
	passes = budget_s > pre_s ? (unsigned)((budget_s - pre_s) / pass_s) : 0;
	if (passes < R0_CALIB_MIN_PASSES) {
		r0_plan_duration(pre_s + R0_CALIB_MIN_PASSES * pass_s, need, sizeof(need));
		r0_plan_bound(budget_s, have, sizeof(have));
		return r0_cli_usage_error(PROG, "--calibrate: %d passes take %s, beyond the budget (%s): give a "
					  "longer --budget or a shorter --runtime", R0_CALIB_MIN_PASSES, need, have);
	}
	sw->repeats = passes > 100 ? 100 : passes;
	return -1;
}
