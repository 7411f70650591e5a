// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep's cells: which are wanted, their names, records and times, and the
 * progress line. run.c, everyday.c and replay.c all use it, and it calls none
 * of them, so the study loop and its everyday step do not call each other. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "consent.h"
#include "sweep.h"

#include "r0/calibrate.h"
#include "r0/everyday.h"
#include "r0/size.h"

bool sweep_is_everyday(const struct sweep *sw, size_t wl)
{
	return sw->plan.wl[wl].w.access == R0_ACCESS_FS;
}

void sweep_study_rec(const struct sweep *sw, struct r0_run *r)
{
	snprintf(r->state, sizeof(r->state), "%s", sw->state);
	snprintf(r->devices, sizeof(r->devices), "%s", sw->devices);
	snprintf(r->describe, sizeof(r->describe), "%s", sw->describe);
	r->region_bytes = r0_test_region_bytes(sw->region_bytes, UINT64_MAX);   /* whole MiB, as tested */
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

void sweep_cell_workload(const struct sweep *sw, struct r0_workload *w, uint64_t target_bytes)
{
	w->span_bytes = r0_test_region_bytes(sw->region_bytes, target_bytes);
	w->runtime_ns = sw->runtime_ns;
	w->ramp_ns = sw->ramp_ns;
	w->min_runtime_ns = sw->min_runtime_ns;
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

void sweep_cell_rec(const struct sweep *sw, const struct r0_sweep_target *t, size_t wl, unsigned rep,
		     struct r0_run *r)
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
	r->copy = t->copy;
	sweep_study_rec(sw, r);
	snprintf(r->tool, sizeof(r->tool), "%s", r0_cli_tool_id(PROG));
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


bool sweep_cell_wanted(const struct sweep *sw, const struct r0_sweep_target *t, size_t wl, struct r0_run *r)
{
	unsigned rep = sw->visit_repeat ? sw->visit_repeat[wl] : 0;

	sweep_cell_rec(sw, t, wl, rep, r);
	return rep && !r0_run_set_has(&sw->done, r);
}

void sweep_cell_name(const struct r0_sweep_target *t, const struct r0_run *r, char *buf, size_t len)
{
	char tn[48], wn[48];

	sweep_target_name(t, tn, sizeof(tn));
	r0_run_workload(r, wn, sizeof(wn));
	snprintf(buf, len, "%s, %s, repeat %u", tn, wn, r->repeat);
}

void sweep_target_name(const struct r0_sweep_target *t, char *buf, size_t len)
{
	char ck[16];

	if (t->layer == R0_LAYER_RAW) {
		snprintf(buf, len, "raw 1 drive");
		return;
	}
	r0_format_size(t->chunk_bytes, ck, sizeof(ck));
	if (t->copy)
		snprintf(buf, len, "%s %u x %s copy %c", r0_layer_name(t->layer), t->n, ck, r0_calib_letter(t->copy));
	else
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

int sweep_record_cell(struct sweep *sw, struct r0_run *r, const char *name, const char *result)
{
	int err = r0_sweep_rec_append(sw->out, r);

	if (err) {
		fprintf(stderr, PROG ": cannot append to the result file: %s\n", strerror(-err));
		return err;
	}
	r0_run_set_add(&sw->done, r);
	sw->finished++;
	sweep_progress(sw, name, result);
	return 0;
}

