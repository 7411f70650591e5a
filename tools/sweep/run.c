// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep's running: the cells of each target, its array built and removed, preconditioning, progress. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "sweep.h"

#include "r0/age.h"
#include "r0/array.h"
#include "r0/engine.h"
#include "r0/everyday.h"
#include "r0/geometry.h"
#include "r0/preset.h"
#include "r0/size.h"

/* Runs every workload the visit wants on the open target. 0, -EINTR, -errno. */
static int run_cells(struct sweep *sw, const struct r0_sweep_target *t, const char *path)
{
	struct r0_io_file tg;
	struct r0_run_opts o = { .stop = r0_cli_stop_flag() };
	struct r0_result *res = malloc(sizeof(*res));
	bool writable = false, any = false;
	int err;

	for (size_t i = 0; i < sw->plan.n_wl; i++) {
		struct r0_run r;

		any |= !sweep_is_everyday(sw, i) && sweep_cell_wanted(sw, t, i, &r);
		writable |= !sweep_is_everyday(sw, i) && sw->plan.wl[i].w.read_pct < 100;
	}
	if (!any || !res) {
		free(res);
		return any ? -ENOMEM : 0;
	}
	err = r0_io_file_open(path, writable, &tg);
	if (err) {
		fprintf(stderr, PROG ": %s: cannot open: %s\n", path, strerror(-err));
		free(res);
		return err;
	}
	for (size_t i = 0; i < sw->plan.n_wl && !err; i++) {
		struct r0_run r;
		struct r0_workload w = sw->plan.wl[i].w;
		char name[160], wn[48], why[256], line[128];

		if (sweep_is_everyday(sw, i) || !sweep_cell_wanted(sw, t, i, &r))
			continue;
		r0_run_workload(&r, wn, sizeof(wn));
		sweep_cell_name(t, &r, name, sizeof(name));
		if (w.access == R0_ACCESS_REPLAY) {
			if (sw->tty)
				sweep_progress(sw, name, NULL);
			err = sweep_run_replay(sw, &tg, i, r.repeat, &r);
			if (err == -EINTR || r0_cli_stop_requested()) {
				err = -EINTR;
				break;
			}
			if (err) {
				fprintf(stderr, "%s" PROG ": %s: %s: cannot replay: %s\n", sw->tty ? "\n" : "", path, wn,
					strerror(-err));
				break;
			}
			snprintf(line, sizeof(line), "%.2f s, %.1f MB/s, %.0f IOPS, p99 %.0f us", r.runtime_s,
				 r.bytes_per_s / 1e6, r.iops, (double)r.lat_p99_ns / 1e3);
			err = sweep_record_cell(sw, &r, name, line);
			continue;
		}
		sweep_cell_workload(sw, &w, tg.size_bytes);
		w.seed = r.repeat;
		if (r0_workload_check(&w, &tg, why, sizeof(why))) {
			fprintf(stderr, "%s" PROG ": %s: %s: %s\n", sw->tty ? "\n" : "", path, wn, why);
			err = -EINVAL;
			break;
		}
		if (sw->tty)
			sweep_progress(sw, name, NULL);
		err = r0_engine_run(&tg, &w, &o, res);
		if (err == -EINTR || r0_cli_stop_requested()) {
			err = -EINTR;
			break;
		}
		if (err) {
			fprintf(stderr, "%s" PROG ": %s: %s: cannot run: %s\n", sw->tty ? "\n" : "", path, wn,
				strerror(-err));
			break;
		}
		r0_run_take_result(&r, res);
		r.time_unix = (int64_t)time(NULL);
		if (res->errors) {
			sw->io_error_cells++;
			fprintf(stderr, "%s" PROG ": %s: %s: %llu I/O errors, first: %s at offset %llu: %s\n",
				sw->tty ? "\n" : "", path, wn, (unsigned long long)res->errors,
				r0_op_name(res->first_error.op),
				(unsigned long long)res->first_error.offset_bytes,
				strerror(res->first_error.err));
		}
		snprintf(line, sizeof(line), "%.1f MB/s, %.0f IOPS, p99 %.0f us", r.bytes_per_s / 1e6,
			 r.iops, (double)r.lat_p99_ns / 1e3);
		err = sweep_record_cell(sw, &r, name, line);
	}
	r0_io_file_close(&tg);
	free(res);
	return err;
}

size_t sweep_first_look_in_file(const struct sweep *sw)
{
	const struct r0_planner *p = &sw->study.planner;
	size_t n = 0;

	for (size_t t = 0; t < sw->plan.n_targets; t++)
		for (size_t w = 0; p->active[t] && w < sw->plan.n_wl; w++)
			for (unsigned rep = 1; rep <= p->looks[0]; rep++) {
				struct r0_run r;

				sweep_cell_rec(sw, &sw->plan.targets[t], w, rep, &r);
				n += r0_run_set_has(&sw->done, &r);
			}
	return n;
}

/* Builds the target's array, runs its cells, removes it. 0, -EINTR or -errno. */
static int run_target(struct sweep *sw, const struct r0_sweep_target *t);

/* The study loop's visit (r0/study.h): target T of the plan in pass PASS. */
static int visit(void *ctx, size_t t, unsigned pass, const unsigned *repeat, struct r0_run_set *set)
{
	struct sweep *sw = ctx;
	size_t order[R0_SWEEP_MAX_TARGETS], before = sw->finished;
	struct timespec t0;
	int err;

	(void)set;   /* sw->done: sweep_record_cell adds each finished cell to it */
	r0_pass_order(pass, sw->plan.n_targets, order);
	for (size_t i = 0; i < sw->plan.n_targets; i++)
		if (order[i] == t)
			sw->order_pos = (unsigned)i + 1;
	sw->pass = pass;
	sw->visit_repeat = repeat;
	/* what is left to run, for the progress line */
	sw->total = sw->finished + sw->skipped + r0_planner_todo(&sw->study.planner);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = run_target(sw, &sw->plan.targets[t]);
	sweep_wipe_members(sw, &sw->plan.targets[t]);
	sw->visit_s += sweep_since(&t0);
	sw->visit_cells += sw->finished - before;
	sw->visit_repeat = NULL;
	return err;
}

static double elapsed(void *ctx)
{
	return sweep_since(&((struct sweep *)ctx)->t0);
}

static double cell_seconds(void *ctx)
{
	return sweep_cell_seconds(ctx);
}

int sweep_run_study(struct sweep *sw)
{
	static const struct r0_study_ops ops = { visit, elapsed, cell_seconds };

	return r0_study_run(&sw->study, &sw->done, &ops, sw);
}

static int run_target(struct sweep *sw, const struct r0_sweep_target *t)
{
	struct r0_array_spec spec = { .md_layout = R0_MD_LAYOUT_ALT };
	struct r0_geometry geo;
	struct r0_array a;
	int err, rerr;

	if (t->layer == R0_LAYER_RAW) {
		err = run_cells(sw, t, sw->members[0]);
		return err ? err : sweep_run_everyday(sw, t, sw->members[0]);
	}
	spec.backend = t->layer == R0_LAYER_MD ? R0_BACKEND_MD : R0_BACKEND_DM;
	spec.name = sw->array_name;
	spec.chunk_bytes = t->chunk_bytes;
	err = r0_array_spec_members(&spec, sw->chk, t->n, &geo);
	if (err) {
		fprintf(stderr, PROG ": members too small for a %u-member array at this chunk\n", t->n);
		return err;
	}
	if (r0_cli_stop_requested())
		return -EINTR;
	err = r0_array_create(&spec, &a);
	if (err) {
		const char *why = r0_array_last_error();
		char tn[48];

		sweep_target_name(t, tn, sizeof(tn));
		fprintf(stderr, "%s" PROG ": create %s (array %s): %s%s%s\n", sw->tty ? "\n" : "", tn,
			sw->array_name, strerror(-err), *why ? ": " : "", why);
		return err;
	}
	err = r0_cli_stop_requested() ? -EINTR : run_cells(sw, t, a.path);
	if (!err)
		err = r0_cli_stop_requested() ? -EINTR : sweep_run_everyday(sw, t, a.path);
	rerr = r0_array_remove(&a);
	if (rerr) {
		const char *why = r0_array_last_error();

		fprintf(stderr, "%s" PROG ": remove %s: %s%s%s (r0build remove %s)\n", sw->tty ? "\n" : "",
			a.path, strerror(-rerr), *why ? ": " : "", why, sw->array_name);
		if (!err)
			err = rerr;
	}
	return err;
}

/* --- preconditioning ------------------------------------------------ */

/*
 * Writes the test region of every member once, sequentially, through the
 * raw member, so no read test reads blocks never written (free on an SSD,
 * and in null_blk or r0ssd). Arrays start at offset 0 of each member, so
 * an array's region lies within the members' first REGION bytes.
 */
int sweep_precondition(struct sweep *sw)
{
	struct r0_run_opts o = { .stop = r0_cli_stop_flag() };
	struct r0_result *res = malloc(sizeof(*res));
	int err = 0;

	if (!res)
		return -ENOMEM;
	for (unsigned i = 0; i < sw->n_members && !err; i++) {
		struct r0_workload w = SWEEP_PRECONDITION_WORKLOAD;
		struct r0_io_file tg;
		char why[256];

		err = r0_io_file_open(sw->members[i], true, &tg);
		if (err) {
			fprintf(stderr, PROG ": %s: cannot open: %s\n", sw->members[i], strerror(-err));
			break;
		}
		w.span_bytes = r0_test_region_bytes(sw->region_bytes, tg.size_bytes);
		if (r0_workload_check(&w, &tg, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s: preconditioning: %s\n", sw->members[i], why);
			err = -EINVAL;
		} else {
			err = r0_engine_run(&tg, &w, &o, res);
			if (r0_cli_stop_requested())
				err = -EINTR;
			else if (err)
				fprintf(stderr, PROG ": %s: preconditioning: %s\n", sw->members[i], strerror(-err));
			else if (res->errors) {
				fprintf(stderr, PROG ": %s: preconditioning: %llu I/O errors\n", sw->members[i],
					(unsigned long long)res->errors);
				err = -EIO;
			}
		}
		r0_io_file_close(&tg);
	}
	free(res);
	return err;
}

/* --resume: every cell of the file from the same study as this run. 0 or -EINVAL (said why). */
