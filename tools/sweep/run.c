// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep's running: the cells of each target, its array built and removed, preconditioning, progress. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "consent.h"
#include "sweep.h"

#include "r0/age.h"
#include "r0/array.h"
#include "r0/engine.h"
#include "r0/everyday.h"
#include "r0/geometry.h"
#include "r0/size.h"

void sweep_study_rec(const struct sweep *sw, struct r0_sweep_rec *r)
{
	snprintf(r->state, sizeof(r->state), "%s", sw->state);
	snprintf(r->devices, sizeof(r->devices), "%s", sw->devices);
	snprintf(r->describe, sizeof(r->describe), "%s", sw->describe);
	r->region_bytes = sw->region_bytes;
	r->test_runtime_s = (double)sw->runtime_ns / 1e9;
	r->ramp_s = (double)sw->ramp_ns / 1e9;
	r->min_runtime_s = (double)sw->min_runtime_ns / 1e9;
	snprintf(r->precondition, sizeof(r->precondition), "%s",
		 sw->read_only ? "read-only" : sw->precondition ? "seq-fill" : "none");
	r->order_pos = sw->order_pos;
	r->pass = sw->pass;
	r->looks = sw->adaptive ? (unsigned)sw->study.planner.n_looks : 0;
}

/* A scenario's cell, planned: its files written and read twice at the plan's assumed rate, and mkfs. */
static double everyday_cell_seconds(const struct sweep *sw, size_t wl)
{
	enum r0_everyday s;
	char fs[16];

	if (r0_everyday_parse(sw->plan.wl[wl].label, fs, sizeof(fs), &s))
		return 0;
	return 2.0 * r0_plan_write_seconds(r0_everyday_space_bytes(s, sw->region_bytes)) + 2;
}

uint64_t sweep_region_bytes(const struct sweep *sw)
{
	uint64_t r = sw->region_bytes;

	for (unsigned i = 0; i < sw->n_members; i++)
		if (sw->chk[i].size_sectors * 512 < r)
			r = sw->chk[i].size_sectors * 512;
	return r;
}

double sweep_cell_seconds(const struct sweep *sw)
{
	double block = (double)(sw->runtime_ns + sw->ramp_ns) / 1e9 + 0.3, sum = 0;

	/* once cells ran, what they took, arrays built and file systems made included */
	if (sw->visit_cells)
		return sw->visit_s / (double)sw->visit_cells;
	for (size_t i = 0; i < sw->plan.n_wl; i++)
		sum += sweep_is_everyday(sw, i)			     ? everyday_cell_seconds(sw, i) :
		       sw->plan.wl[i].w.access == R0_ACCESS_REPLAY ? sweep_replay_cell_seconds(sw) : block;
	return sw->plan.n_wl ? sum / (double)sw->plan.n_wl : block;
}

static void cell_rec(const struct sweep *sw, const struct r0_sweep_target *t, size_t wl, unsigned rep,
		     struct r0_sweep_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->layer = t->layer;
	r->chunk_bytes = t->chunk_bytes;
	r->n_members = t->n;
	snprintf(r->label, sizeof(r->label), "%s", sw->plan.wl[wl].label);
	r->access = sw->plan.wl[wl].w.access;
	r->read_pct = sw->plan.wl[wl].w.read_pct;
	r->block_bytes = sw->plan.wl[wl].w.block_bytes;
	r->align_bytes = sw->plan.wl[wl].w.align_bytes;
	r->queue_depth = sw->plan.wl[wl].w.queue_depth;
	r->jobs = sw->plan.wl[wl].w.jobs ? sw->plan.wl[wl].w.jobs : 1;
	r->repeat = rep;
	sweep_study_rec(sw, r);
	snprintf(r->tool, sizeof(r->tool), PROG " %s", R0_VERSION);
}

/* --- progress -------------------------------------------------------- */

double sweep_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void hms(double s, char *buf, size_t len)
{
	unsigned long t = (unsigned long)(s + 0.5);

	snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
}

static void target_name(const struct r0_sweep_target *t, char *buf, size_t len);

bool sweep_cell_wanted(const struct sweep *sw, const struct r0_sweep_target *t, size_t wl, struct r0_sweep_rec *r)
{
	unsigned rep = sw->visit_repeat ? sw->visit_repeat[wl] : 0;

	cell_rec(sw, t, wl, rep, r);
	return rep && !r0_sweep_set_has(&sw->done, r);
}

void sweep_cell_name(const struct r0_sweep_target *t, const struct r0_sweep_rec *r, char *buf, size_t len)
{
	char tn[48], wn[48];

	target_name(t, tn, sizeof(tn));
	r0_sweep_rec_workload(r, wn, sizeof(wn));
	snprintf(buf, len, "%s, %s, repeat %u", tn, wn, r->repeat);
}

static void target_name(const struct r0_sweep_target *t, char *buf, size_t len)
{
	char ck[16];

	if (t->layer == R0_LAYER_RAW) {
		snprintf(buf, len, "raw 1 drive");
		return;
	}
	r0_format_size(t->chunk_bytes, ck, sizeof(ck));
	snprintf(buf, len, "%s %u x %s", r0_layer_name(t->layer), t->n, ck);
}

void sweep_progress(struct sweep *sw, const char *cell, const char *result)
{
	double el = sweep_since(&sw->t0);
	size_t ran = sw->finished, left = sw->total - sw->finished - sw->skipped;
	char e[32], eta[32] = "?";

	hms(el, e, sizeof(e));
	if (ran)
		hms(el / (double)ran * (double)left, eta, sizeof(eta));
	/* a log line per finished cell; on a terminal also a status line that is redrawn */
	if (sw->tty)
		fputs("\r\033[K", stderr);
	if (result)
		fprintf(stderr, PROG ": [%zu/%zu] %s: %s (elapsed %s, left ~%s)\n",
			sw->finished + sw->skipped, sw->total, cell, result, e, eta);
	else if (sw->tty)
		fprintf(stderr, "[%zu/%zu] %s  elapsed %s  left ~%s", sw->finished + sw->skipped + 1,
			sw->total, cell, e, eta);
	fflush(stderr);
}

/* --- running --------------------------------------------------------- */

int sweep_record_cell(struct sweep *sw, struct r0_sweep_rec *r, const char *name, const char *result)
{
	int err = r0_sweep_rec_append(sw->out, r);

	if (err) {
		fprintf(stderr, PROG ": cannot append to the result file: %s\n", strerror(-err));
		return err;
	}
	r0_sweep_set_add(&sw->done, r);
	sw->finished++;
	sweep_progress(sw, name, result);
	return 0;
}

/* Runs every workload the visit wants on the open target. 0, -EINTR, -errno. */
static int run_cells(struct sweep *sw, const struct r0_sweep_target *t, const char *path)
{
	struct r0_target tg;
	struct r0_run_opts o = { .stop = r0_cli_stop_flag() };
	struct r0_result *res = malloc(sizeof(*res));
	bool writable = false, any = false;
	int err;

	for (size_t i = 0; i < sw->plan.n_wl; i++) {
		struct r0_sweep_rec r;

		any |= !sweep_is_everyday(sw, i) && sweep_cell_wanted(sw, t, i, &r);
		writable |= !sweep_is_everyday(sw, i) && sw->plan.wl[i].w.read_pct < 100;
	}
	if (!any || !res) {
		free(res);
		return any ? -ENOMEM : 0;
	}
	err = r0_target_open(path, writable, &tg);
	if (err) {
		fprintf(stderr, PROG ": %s: cannot open: %s\n", path, strerror(-err));
		free(res);
		return err;
	}
	for (size_t i = 0; i < sw->plan.n_wl && !err; i++) {
		struct r0_sweep_rec r;
		struct r0_workload w = sw->plan.wl[i].w;
		char name[160], wn[48], why[256], line[128];

		if (sweep_is_everyday(sw, i) || !sweep_cell_wanted(sw, t, i, &r))
			continue;
		r0_sweep_rec_workload(&r, wn, sizeof(wn));
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
		w.span_bytes = sw->region_bytes < tg.size_bytes ? sw->region_bytes : tg.size_bytes;
		if (w.span_bytes >= (1u << 20))
			w.span_bytes -= w.span_bytes % (1u << 20);
		w.runtime_ns = sw->runtime_ns;
		w.ramp_ns = sw->ramp_ns;
		w.min_runtime_ns = sw->min_runtime_ns;
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
		r0_sweep_rec_set_result(&r, res);
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
	r0_target_close(&tg);
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
				struct r0_sweep_rec r;

				cell_rec(sw, &sw->plan.targets[t], w, rep, &r);
				n += r0_sweep_set_has(&sw->done, &r);
			}
	return n;
}

/* Builds the target's array, runs its cells, removes it. 0, -EINTR or -errno. */
static int run_target(struct sweep *sw, const struct r0_sweep_target *t);

/* The study loop's visit (r0/study.h): target T of the plan in pass PASS. */
static int visit(void *ctx, size_t t, unsigned pass, const unsigned *repeat, struct r0_sweep_set *set)
{
	struct sweep *sw = ctx;
	size_t order[R0_SWEEP_MAX_TARGETS], before = sw->finished;
	struct timespec t0;
	int err;

	(void)set;   /* sw->done: sweep_record_cell adds each finished cell to it */
	r0_sweep_order(pass, sw->plan.n_targets, order);
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
	uint64_t sizes[R0_MAX_MEMBERS];
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
	spec.n_members = t->n;
	for (unsigned i = 0; i < t->n; i++) {
		spec.members[i] = sw->chk[i].devt;
		sizes[i] = sw->chk[i].size_sectors;
	}
	err = r0_geometry_init(&geo, spec.backend, spec.chunk_bytes, spec.n_members, sizes, NULL,
			       spec.md_layout);
	if (err) {
		fprintf(stderr, PROG ": members too small for a %u-member array at this chunk\n", t->n);
		return err;
	}
	spec.dm_length_sectors = geo.array_sectors;
	if (r0_cli_stop_requested())
		return -EINTR;
	err = r0_array_create(&spec, &a);
	if (err) {
		const char *why = r0_array_last_error();
		char tn[48];

		target_name(t, tn, sizeof(tn));
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
		struct r0_workload w = { .access = R0_ACCESS_SEQ, .read_pct = 0,
					 .block_bytes = R0_AGE_FILL_BLOCK_BYTES, .queue_depth = 4, .jobs = 1 };
		struct r0_target tg;
		char why[256];

		err = r0_target_open(sw->members[i], true, &tg);
		if (err) {
			fprintf(stderr, PROG ": %s: cannot open: %s\n", sw->members[i], strerror(-err));
			break;
		}
		w.span_bytes = sw->region_bytes < tg.size_bytes ? sw->region_bytes : tg.size_bytes;
		if (w.span_bytes >= (1u << 20))
			w.span_bytes -= w.span_bytes % (1u << 20);
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
		r0_target_close(&tg);
	}
	free(res);
	return err;
}

/* --resume: every cell of the file from the same study as this run. 0 or -EINVAL (said why). */
