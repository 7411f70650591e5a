// SPDX-License-Identifier: GPL-2.0-or-later
/* r0predict's study level: results in, predicted cells out, and the comparison (r0/predictstudy.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "r0/benchjson.h"
#include "r0/geometry.h"
#include "r0/predictstudy.h"
#include "r0/sweep.h"
#include "r0/size.h"
#include "r0/stats.h"

/* Bios md or dm send for a request of BLOCK over CHUNK (aligned: one per chunk). */
static double bios(uint32_t block, uint32_t chunk)
{
	return ceil((double)block / chunk);
}

static bool same_workload(const struct r0_run *a, const struct r0_run *b)
{
	return !strcmp(a->label, b->label) && a->access == b->access && a->read_pct == b->read_pct &&
	       a->block_bytes == b->block_bytes && a->align_bytes == b->align_bytes &&
	       a->queue_depth == b->queue_depth && a->jobs == b->jobs;
}

static bool same_cell(const struct r0_run *a, const struct r0_run *b)
{
	return a->layer == b->layer && a->n_members == b->n_members &&
	       a->chunk_bytes == b->chunk_bytes && same_workload(a, b);
}


enum figure { FIG_BPS, FIG_P50, FIG_IOPS, FIG_CPU };

/* The median over the repeats of the cell like R in SET. */
static double cell_median(const struct r0_run_set *set, const struct r0_run *r, enum figure f)
{
	double *v = malloc((set->n + 1) * sizeof(*v)), m;
	size_t n = 0;

	if (!v)
		return NAN;
	for (size_t i = 0; i < set->n; i++) {
		const struct r0_run *x = &set->recs[i];

		if (!same_cell(x, r))
			continue;
		v[n++] = f == FIG_BPS ? x->bytes_per_s : f == FIG_P50 ? (double)x->lat_p50_ns :
			 f == FIG_IOPS ? x->iops : x->cpu_s_per_io;
	}
	m = n ? r0_median(v, n) : NAN;
	free(v);
	return m;
}

/* (max - min) / median of the repeats' bytes/s of the cell like R in SET. */
static double cell_spread(const struct r0_run_set *set, const struct r0_run *r)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < set->n; i++)
		if (same_cell(&set->recs[i], r)) {
			lo = fmin(lo, set->recs[i].bytes_per_s);
			hi = fmax(hi, set->recs[i].bytes_per_s);
		}
	return (hi - lo) / cell_median(set, r, FIG_BPS);
}

static bool seen_before(const struct r0_run_set *set, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (same_cell(&set->recs[j], &set->recs[i]))
			return true;
	return false;
}

static size_t find_workload(const struct r0_predict_input *in, const struct r0_run *r)
{
	size_t i;

	for (i = 0; i < in->n_wl && !same_workload(&in->wl[i], r); i++)
		;
	return i;
}

/* A block pattern the model can split over members: no scenario through a file system, no replay. */
static bool predictable(const struct r0_run *r)
{
	return r->access == R0_ACCESS_SEQ || r->access == R0_ACCESS_RAND;
}

static int add_workload(struct r0_predict_input *in, const struct r0_run *r)
{
	if (!predictable(r) || find_workload(in, r) < in->n_wl)
		return 0;
	if (in->n_wl == R0_PREDICT_MAX_WORKLOADS)
		return -E2BIG;
	in->wl[in->n_wl++] = *r;
	return 0;
}

static int add_point(struct r0_predict_input *in, const struct r0_run *r, double bps, double p50,
		     double spread, double min_ns)
{
	struct r0_predict_point p = { r->access, r->read_pct, r->block_bytes,
				      (double)r->queue_depth * (r->jobs ? r->jobs : 1), bps, p50,
				      isnan(spread) ? 0 : spread, isnan(min_ns) ? 0 : min_ns };

	if (!predictable(r))
		return 0;
	if (r->read_pct != 0 && r->read_pct != 100)
		return 0;   /* a mix is predicted from pure reads and writes */
	return r0_predict_curve_add(&in->curve, &p);
}

/* The 1-member stripe at QD1 against raw: the cost of each bio through the layer. */
static double layer_cost_ns(const struct r0_run_set *set, const struct r0_run *one)
{
	struct r0_run raw = *one;
	double stripe, bare;

	raw.layer = R0_LAYER_RAW;
	raw.chunk_bytes = 0;
	stripe = cell_median(set, one, FIG_IOPS);
	bare = cell_median(set, &raw, FIG_IOPS);
	if (!(stripe > 0) || !(bare > 0))
		return NAN;
	return (1 / stripe - 1 / bare) * 1e9 / bios(one->block_bytes, one->chunk_bytes);
}

/* Raw cells: the curve; 1-member stripes: the layer cost and CPU per I/O. */
static int load_sweep(struct r0_predict_input *in, const struct r0_run_set *set)
{
	double *cost[2] = { calloc(set->n + 1, sizeof(double)), calloc(set->n + 1, sizeof(double)) };
	size_t n_cost[2] = { 0, 0 };
	int err = cost[0] && cost[1] ? 0 : -ENOMEM;

	for (size_t i = 0; i < set->n && !err; i++) {
		const struct r0_run *r = &set->recs[i];

		if (r->layer != R0_LAYER_RAW || !predictable(r) || seen_before(set, i))
			continue;
		err = add_point(in, r, cell_median(set, r, FIG_BPS), cell_median(set, r, FIG_P50),
				cell_spread(set, r), 0);   /* r0sweep/1 keeps no fastest request */
		if (!err)
			err = add_workload(in, r);
		if (!err)
			in->cpu_raw[find_workload(in, r)] = cell_median(set, r, FIG_CPU);
	}
	/* second pass: every raw workload is known now */
	for (size_t i = 0; i < set->n && !err; i++) {
		const struct r0_run *r = &set->recs[i];
		int be = r->layer == R0_LAYER_MD ? R0_BACKEND_MD : R0_BACKEND_DM;
		size_t w = find_workload(in, r);
		double c;

		if (r->layer == R0_LAYER_RAW || r->n_members != 1 || w == in->n_wl ||
		    seen_before(set, i))
			continue;
		in->cpu_one[be][w] = cell_median(set, r, FIG_CPU);
		in->chunk_one[be][w] = r->chunk_bytes;
		if (r->queue_depth * (r->jobs ? r->jobs : 1) == 1 && !isnan(c = layer_cost_ns(set, r)))
			cost[be][n_cost[be]++] = c;
	}
	for (int be = 0; be < 2 && !err; be++) {
		in->layer_ns[be] = n_cost[be] ? r0_median(cost[be], n_cost[be]) : -1;
		if (n_cost[be] && in->layer_ns[be] < 0)   /* noise can make a stripe look faster than raw */
			in->layer_ns[be] = 0;
	}
	free(cost[0]);
	free(cost[1]);
	return err;
}

/*
 * The point of the curve at R's access, direction, block and depth, or
 * NULL: a grid that measures a point again (lib/engine/preset.c) finds the first.
 */
static const struct r0_predict_point *measured_before(const struct r0_predict_input *in,
						      const struct r0_run *r)
{
	double qd = (double)r->queue_depth * (r->jobs ? r->jobs : 1);

	for (size_t i = 0; i < in->curve.n; i++) {
		const struct r0_predict_point *p = &in->curve.pts[i];

		if (p->access == r->access && p->read_pct == r->read_pct &&
		    p->block_bytes == r->block_bytes && p->queue_depth == qd)
			return p;
	}
	return NULL;
}

/* A point measured again at BPS (SPREAD over its passes): how far it moved from the first. */
static void note_drift(struct r0_predict_input *in, const struct r0_predict_point *first,
		       const struct r0_run *r, double bps, double spread)
{
	int d = r->read_pct == 100 ? 0 : 1;
	double moved = fabs(bps - first->bytes_per_s) / first->bytes_per_s;
	char size[24];

	if (isnan(spread))
		spread = 0;
	if (!(moved > first->spread + spread) || !(moved > in->drift[d]))
		return;
	in->drift[d] = moved;
	r0_format_size(r->block_bytes, size, sizeof(size));
	snprintf(in->drift_what[d], sizeof(in->drift_what[d]), "%s QD%g: %.1f -> %.1f MB/s", size,
		 first->queue_depth, first->bytes_per_s / 1e6, bps / 1e6);
}

/* r0bench/1: each test's median bytes/s over its passes and its merged p50. */
static int load_bench(struct r0_predict_input *in, const struct r0_bench_doc *doc)
{
	int err = 0;

	if (doc->has_queue) {
		in->curve.tags = doc->nr_requests;
		in->curve.max_request_bytes = doc->max_sectors_kib * 1024;
	}
	for (size_t i = 0; i < doc->n_tests && !err; i++) {
		const struct r0_bench_result *t = &doc->tests[i];
		struct r0_run r = { .repeat = 1 };
		const struct r0_predict_point *first;
		double bps, spread;

		if (t->trim)
			continue;
		snprintf(r.label, sizeof(r.label), "%.*s", (int)sizeof(r.label) - 1, t->label);
		r.access = t->access;
		r.read_pct = t->read_pct;
		r.block_bytes = t->block_bytes;
		r.queue_depth = t->queue_depth;
		r.jobs = t->jobs;
		r.test_runtime_s = t->runtime_s;
		r.ramp_s = t->ramp_s;
		r.min_runtime_s = -1;   /* a prediction: no steady end of its own */
		r.region_bytes = t->span_bytes;
		snprintf(r.devices, sizeof(r.devices), "%.*s", (int)sizeof(r.devices) - 1, doc->path);
		snprintf(r.state, sizeof(r.state), "%s", doc->state);
		bps = t->bps_median;
		spread = (t->bps_max - t->bps_min) / bps;
		if ((first = measured_before(in, &r))) {   /* measured again: did the drive change? */
			note_drift(in, first, &r, bps, spread);
			continue;
		}
		err = add_point(in, &r, bps, t->lat_p50_ns, spread, t->lat_min_ns);
		if (!err)
			err = add_workload(in, &r);
	}
	return err;
}

int r0_predict_input_load(struct r0_predict_input *in, const char *path)
{
	struct r0_run_set set = { 0 };
	struct r0_bench_doc doc;
	struct stat st;
	int err;

	if (in->n_wl == 0 && in->curve.n == 0)
		in->layer_ns[0] = in->layer_ns[1] = -1;
	/* both readers take the file whole: never a device, never more than a result file holds */
	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if ((uint64_t)st.st_size > R0_PREDICT_MAX_INPUT_BYTES)
		return -EFBIG;
	err = r0_bench_load(path, &doc);
	if (err != -ENOMSG) {   /* r0bench/1, read or refused */
		/* two drives' grids read as one would be a drive that changed between them */
		if (!err && in->has_drive &&
		    r0_bench_drive_diff(&in->drive, &doc.drive, in->drive_diff, sizeof(in->drive_diff)))
			err = -EXDEV;
		if (!err && !in->has_drive) {
			in->drive = doc.drive;
			in->has_drive = true;
		}
		if (!err)
			err = load_bench(in, &doc);
		r0_bench_doc_free(&doc);
		return err;
	}
	err = r0_sweep_load(path, &set, NULL);
	if (!err)
		err = load_sweep(in, &set);
	r0_run_set_free(&set);
	return err;
}

void r0_predict_input_free(struct r0_predict_input *in)
{
	r0_predict_curve_free(&in->curve);
	in->n_wl = 0;
}

int r0_predict_input_use_set(struct r0_predict_input *in, const struct r0_run_set *set)
{
	int err = 0;

	in->n_wl = 0;
	for (size_t i = 0; i < set->n && !err; i++)
		err = add_workload(in, &set->recs[i]);
	return err;
}

int r0_predict_input_use_preset(struct r0_predict_input *in, const struct r0_preset *p)
{
	if (p->n_tests > R0_PREDICT_MAX_WORKLOADS)
		return -E2BIG;
	in->n_wl = 0;
	for (size_t i = 0; i < p->n_tests; i++) {
		const struct r0_workload *w = &p->tests[i].w;
		struct r0_run *r;

		if (w->access != R0_ACCESS_SEQ && w->access != R0_ACCESS_RAND)
			continue;
		r = &in->wl[in->n_wl++];
		*r = (struct r0_run){ .access = w->access, .read_pct = w->read_pct,
					    .block_bytes = w->block_bytes, .queue_depth = w->queue_depth,
					    .jobs = w->jobs ? w->jobs : 1, .repeat = 1,
					    .test_runtime_s = -1, .ramp_s = -1, .min_runtime_s = -1 };
		snprintf(r->label, sizeof(r->label), "%s", p->tests[i].label);
	}
	return 0;
}

/*
 * Without a CPU ceiling from the user: the 1-member stripe's CPU per I/O,
 * its extra over raw grown with the bios this chunk needs, bounds the IOPS.
 */
static double cpu_ceiling(const struct r0_predict_input *in, const struct r0_run *wl,
			  enum r0_backend be, uint32_t chunk)
{
	size_t k = find_workload(in, wl);
	double extra;

	if (k == in->n_wl || !(in->cpu_one[be][k] > 0) || !(in->cpu_raw[k] > 0))
		return 0;
	extra = fmax(in->cpu_one[be][k] - in->cpu_raw[k], 0);
	return 1 / (in->cpu_raw[k] + extra * bios(wl->block_bytes, chunk) /
		    bios(wl->block_bytes, in->chunk_one[be][k]));
}

/* The most IOPS any of the drive's results reached: what the host is known to drive. */
static double max_iops(const struct r0_predict_curve *c)
{
	double m = 0;

	for (size_t i = 0; i < c->n; i++)
		m = fmax(m, c->pts[i].bytes_per_s / c->pts[i].block_bytes);
	return m;
}

/* The workload needs a direction whose speed moved during the grid: DOUBT says so. */
static bool drifted(const struct r0_predict_input *in, const struct r0_run *wl, char *doubt,
		    size_t len)
{
	for (int d = 0; d < 2; d++) {
		if ((d == 0 ? wl->read_pct == 0 : wl->read_pct == 100) ||
		    !(in->drift[d] > R0_PREDICT_MAX_DRIFT))
			continue;
		snprintf(doubt, len, "the drive's %s moved by %.0f %% between the grid's first and its "
			 "last measurement (%s): its speed depends on a state (garbage collection, a "
			 "cache) that one drive's grid does not model (r0predict(1), STATE)",
			 d ? "writes" : "reads", 100 * in->drift[d], in->drift_what[d]);
		return true;
	}
	return false;
}

int r0_predict_cell(const struct r0_predict_input *in, const struct r0_predict_study_opts *o,
		    const struct r0_run *wl, enum r0_layer layer, unsigned n, uint32_t chunk,
		    const char *tool, struct r0_run *out, char *doubt, size_t len)
{
	struct r0_predict_workload w = { wl->access, wl->read_pct, wl->block_bytes, wl->align_bytes,
					 wl->queue_depth * (wl->jobs ? wl->jobs : 1) };
	struct r0_predict_opts mo = o->model;
	struct r0_predict_result res;
	struct r0_geometry g;
	uint64_t sizes[R0_MAX_MEMBERS], member = 1ull << 30;
	enum r0_backend be = layer == R0_LAYER_DM ? R0_BACKEND_DM : R0_BACKEND_MD;
	struct r0_predict_result slow, rested = { 0 };
	double n_bios;
	bool guessed;
	int err;

	if (layer == R0_LAYER_RAW) {
		chunk = 64 * 1024;   /* a 1-member geometry: the drive itself */
		mo.layer_cost_ns = 0;
		mo.cpu_max_iops = 0;
	} else {
		mo.layer_cost_ns = o->layer_ns >= 0 ? o->layer_ns :
				   in->layer_ns[be] >= 0 ? in->layer_ns[be] : R0_PREDICT_DEFAULT_LAYER_NS;
		if (!mo.cpu_max_iops)
			mo.cpu_max_iops = cpu_ceiling(in, wl, be, chunk);
	}
	if (member < 4 * ((uint64_t)wl->block_bytes + (uint64_t)chunk * n))
		member = 4 * ((uint64_t)wl->block_bytes + (uint64_t)chunk * n);
	for (unsigned i = 0; i < n; i++)
		sizes[i] = member / 512;
	err = r0_geometry_init(&g, be, chunk, n, sizes, NULL, R0_MD_LAYOUT_ORIG);
	if (!err)
		err = r0_predict(&g, &w, &in->curve, &mo, &res);
	if (err)
		return err;
	guessed = layer != R0_LAYER_RAW && o->layer_ns < 0 && in->layer_ns[be] < 0;
	/*
	 * The host's capacity is known only as far as it was seen: md and dm
	 * send a bio per chunk touched, each may become a member request of
	 * its own, and a host that drove one drive's IOPS may not drive that
	 * many bios (r0predict(1) gives the case).
	 */
	n_bios = layer == R0_LAYER_RAW ? 1 : bios(wl->block_bytes, chunk);
	if (guessed) {
		struct r0_predict_opts slow_o = mo;

		slow_o.layer_cost_ns = R0_PREDICT_SLOW_LAYER_NS;
		err = r0_predict(&g, &w, &in->curve, &slow_o, &slow);
		if (err)
			return err;
	}
	if (res.rests) {
		struct r0_predict_opts rest_o = mo;

		rest_o.rested = true;
		err = r0_predict(&g, &w, &in->curve, &rest_o, &rested);
		if (err)
			return err;
	}
	*out = *wl;   /* the workload and the study's description; the figures below */
	out->ios = out->errors = 0;
	out->lat_p90_ns = out->lat_p99_ns = out->lat_p999_ns = out->lat_p9999_ns = 0;
	out->lat_max_ns = 0;
	out->runtime_s = out->cpu_s_per_io = out->busy = 0;
	out->order_pos = 0;
	out->layer = layer;
	out->n_members = n;
	out->chunk_bytes = layer == R0_LAYER_RAW ? 0 : chunk;
	out->repeat = 1;
	out->iops = res.iops;
	out->bytes_per_s = res.bytes_per_s;
	out->lat_mean_ns = w.queue_depth / res.iops * 1e9;
	out->lat_p50_ns = (uint64_t)llround(res.p50_ns);
	snprintf(out->tool, sizeof(out->tool), "%s", tool);
	out->time_unix = time(NULL);
	out->predicted = true;
	if (drifted(in, wl, doubt, len))
		;
	else if (res.missing[0])
		snprintf(doubt, len, "%s", res.missing);
	else if (res.grid_spread > R0_PREDICT_MAX_SPREAD)
		snprintf(doubt, len, "the drive's results it rests on spread by %.0f %% over their passes",
			 100 * res.grid_spread);
	else if (guessed && 1 - slow.bytes_per_s / res.bytes_per_s > R0_PREDICT_BAR)
		snprintf(doubt, len, "%.0f bios a request through %s, whose cost per bio was not "
			 "measured (a %.0f us guess; at %.0f us it would be %.0f %% slower): give "
			 "--layer-cost", ceil((double)wl->block_bytes / chunk) , r0_layer_name(layer),
			 R0_PREDICT_DEFAULT_LAYER_NS / 1e3, R0_PREDICT_SLOW_LAYER_NS / 1e3,
			 100 * (1 - slow.bytes_per_s / res.bytes_per_s));
	else if (!mo.cpu_max_iops && res.iops * n_bios > (1 + R0_PREDICT_BEYOND) * max_iops(&in->curve))
		snprintf(doubt, len, "%.0f IOPS through the array, %.0f bios a second, more than the "
			 "host was seen to drive (%.0f IOPS in the drive's results): give --cpu-iops",
			 res.iops, res.iops * n_bios, max_iops(&in->curve));
	else if (res.rests && rested.bytes_per_s > (1 + R0_PREDICT_BEYOND) * res.bytes_per_s)
		snprintf(doubt, len, "the members rest between their parts and the drive waits on its "
			 "bandwidth at QD1, its fastest request far quicker than its mean: rested members "
			 "may serve faster, %.1f to %.1f MB/s (r0predict(1), RESTED MEMBERS)",
			 res.bytes_per_s / 1e6, rested.bytes_per_s / 1e6);
	else if (len)
		doubt[0] = 0;
	return 0;
}

double r0_predict_measured_bps(const struct r0_run_set *meas, const struct r0_run *r)
{
	struct r0_run m = *r;

	m.predicted = false;
	return cell_median(meas, &m, FIG_BPS);
}

/* The row of V[0..N) (sorted here): its median, p90 and share within 15 %; SP[0..NS) the repeats' spreads. */
static void error_row(struct r0_predict_error *row, const char *name, double *v, size_t n,
		      size_t not_predicted, double *sp, size_t ns)
{
	size_t ok = 0;

	for (size_t i = 0; i < n; i++)
		ok += v[i] <= R0_PREDICT_BAR;
	snprintf(row->workload, sizeof(row->workload), "%s", name);
	row->cells = n;
	r0_sort_doubles(v, n);
	row->median = n ? r0_median_sorted(v, n) : NAN;
	row->p90 = n ? r0_quantile_nearest_rank(v, n, 0.9) : NAN;
	row->within_15 = n ? (double)ok / n : NAN;
	row->not_predicted = not_predicted;
	row->repeat_spread = ns ? r0_median(sp, ns) : NAN;
}

static size_t repeats(const struct r0_run_set *set, const struct r0_run *r)
{
	size_t n = 0;

	for (size_t i = 0; i < set->n; i++)
		n += same_cell(&set->recs[i], r);
	return n;
}

int r0_predict_compare(const struct r0_run_set *pred, const struct r0_run_set *meas,
		       struct r0_predict_error **rows, size_t *n)
{
	size_t sz = (meas->n + 1) * sizeof(double);
	double *all = malloc(sz), *per = malloc(sz), *sp_all = malloc(sz), *sp = malloc(sz);
	struct r0_predict_error *r = calloc(meas->n + 1, sizeof(*r));
	size_t n_all = 0, n_rows = 0, np_all = 0, ns_all = 0;
	int err = 0;

	if (!all || !per || !sp_all || !sp || !r) {
		free(r);
		r = NULL;
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < meas->n; i++) {
		const struct r0_run *w = &meas->recs[i];
		size_t n_per = 0, np = 0, ns = 0;
		bool first = true;
		char name[64];

		if (w->layer == R0_LAYER_RAW)
			continue;
		for (size_t j = 0; j < i && first; j++)
			first = meas->recs[j].layer == R0_LAYER_RAW || !same_workload(&meas->recs[j], w);
		for (size_t j = 0; j < meas->n && first; j++) {
			const struct r0_run *m = &meas->recs[j];
			size_t k;

			if (m->layer == R0_LAYER_RAW || !same_workload(m, w) || seen_before(meas, j))
				continue;
			/* a cell that completed nothing (median 0) has no spread */
			if (repeats(meas, m) > 1 && isfinite(cell_spread(meas, m)))
				sp_all[ns_all++] = sp[ns++] = cell_spread(meas, m);
			for (k = 0; k < pred->n && !same_cell(&pred->recs[k], m); k++)
				;
			if (k == pred->n) {
				np++;
				continue;
			}
			per[n_per] = fabs(pred->recs[k].bytes_per_s / cell_median(meas, m, FIG_BPS) - 1);
			all[n_all++] = per[n_per++];
		}
		if (!n_per && !np)
			continue;
		np_all += np;
		r0_run_workload(w, name, sizeof(name));
		error_row(&r[n_rows++], name, per, n_per, np, sp, ns);
	}
	if (n_all)
		error_row(&r[n_rows++], "all", all, n_all, np_all, sp_all, ns_all);
	else
		n_rows = 0;   /* no cell in common */
out:
	free(all);
	free(per);
	free(sp_all);
	free(sp);
	*rows = r;
	*n = n_rows;
	return err;
}

/* Whether C is among A's choices predicted whole (every workload of the mix) at MEMBERS. */
static bool whole_choice(const struct r0_analysis *a, const struct r0_choice *c, unsigned members)
{
	for (size_t i = 0; i < a->n_choice && a->max_members == members; i++)
		if (!a->choice[i].incomplete && a->choice[i].layer == c->layer &&
		    a->choice[i].chunk_bytes == c->chunk_bytes)
			return true;
	return false;
}

/* "md 64 KiB, md 512 KiB" into TEXT at *USED: the choices of A that WANT (tied best, or whole) */
static void list_choices(const struct r0_analysis *a, bool tied, char *text, size_t len, size_t *used)
{
	bool first = true;

	for (size_t i = 0; i < a->n_choice; i++) {
		const struct r0_choice *c = &a->choice[i];

		if (tied ? !c->tie_best : c->incomplete)
			continue;
		if (*used < len)
			*used += (size_t)snprintf(text + *used, len - *used, "%s%s %u KiB", first ? " " : ", ",
						  r0_layer_name(c->layer), c->chunk_bytes / 1024);
		first = false;
	}
}

int r0_predict_check_pick(const struct r0_run_set *pred, const struct r0_run_set *meas,
			  const struct r0_mix *mix, bool *picked, bool *in_tied, char *text, size_t len)
{
	struct r0_analysis p = { 0 }, m = { 0 };
	const struct r0_choice *pick;
	size_t used = 0, whole = 0, best_whole = 0;
	int err = r0_analyse(pred, mix, NULL, &p);

	if (!err)
		err = r0_analyse(meas, mix, NULL, &m);
	if (!err && (!p.has_choice || !m.has_choice))
		err = -ENODATA;
	if (err)
		goto out;
	*picked = *in_tied = false;
	for (size_t i = 0; i < p.n_choice; i++)
		whole += !p.choice[i].incomplete;
	for (size_t i = 0; i < m.n_choice; i++)
		best_whole += m.choice[i].tie_best && whole_choice(&p, &m.choice[i], m.max_members);
	/* a pick from what was predicted whole, when that leaves out what was measured best, is no pick */
	if (whole < 2) {
		used = (size_t)snprintf(text, len, "none: too little predicted to rank the choices (%zu of %zu "
					"predicted for every workload of the mix); measured, tied best:", whole,
					p.n_choice);
		list_choices(&m, true, text, len, &used);
		goto out;
	}
	if (!best_whole) {
		used = (size_t)snprintf(text, len, "none: the choices predicted for every workload of the mix "
					"(%zu of %zu:", whole, p.n_choice);
		list_choices(&p, false, text, len, &used);
		if (used < len)
			used += (size_t)snprintf(text + used, len - used, ") exclude the measured best (tied:");
		list_choices(&m, true, text, len, &used);
		if (used < len)
			snprintf(text + used, len - used, ")");
		goto out;
	}
	*picked = true;
	pick = &p.choice[p.pick];
	used = (size_t)snprintf(text, len, "%s %u KiB at %u members; measured, tied best:",
				r0_layer_name(pick->layer), pick->chunk_bytes / 1024, p.max_members);
	for (size_t i = 0; i < m.n_choice; i++) {
		const struct r0_choice *c = &m.choice[i];

		if (c->tie_best && c->layer == pick->layer && c->chunk_bytes == pick->chunk_bytes &&
		    p.max_members == m.max_members)
			*in_tied = true;
	}
	list_choices(&m, true, text, len, &used);
out:
	r0_analysis_free(&p);
	r0_analysis_free(&m);
	return err;
}
