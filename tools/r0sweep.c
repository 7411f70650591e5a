// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep: single drive vs md/dm stripes x chunk sizes x workloads, one result line per cell. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "mixarg.h"

#include "r0/age.h"
#include "r0/analysis.h"
#include "r0/array.h"
#include "r0/engine.h"
#include "r0/geometry.h"
#include "r0/preset.h"
#include "r0/probe.h"
#include "r0/safety.h"
#include "r0/size.h"
#include "r0/sweep.h"

#define PROG "r0sweep"
#define STR_(x) #x
#define STR(x) STR_(x)
#define MAX_WL 64
#define MAX_CHUNKS 16
#define MAX_PRESETS 7
#define MAX_TARGETS 256

enum {
	OPT_BACKEND = CHAR_MAX + 1, OPT_CHUNKS, OPT_MEMBERS, OPT_QD, OPT_REPEATS, OPT_RAMP, OPT_REGION,
	OPT_STATE, OPT_DESCRIBE, OPT_MIX, OPT_RESUME, OPT_NO_STRADDLE, OPT_SINGLE_CHUNKS,
	OPT_READ_ONLY, OPT_WORKLOADS, OPT_NO_PRECONDITION, OPT_THRESHOLD,
};

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      "  " PROG " -o FILE [options] DEV DEV...\n"
	      "\n"
	      "The study: the first member alone (raw, no array), then md raid0 and\n"
	      "dm-stripe arrays over the first n members at each chunk size, each\n"
	      "measured with every workload, repeated; each repeat visits the targets\n"
	      "in its own seeded order. First every member's test region is written\n"
	      "once (preconditioning). Each array is built, measured\n"
	      "and removed before the next (also on an error or a signal). Every\n"
	      "finished cell (one workload, one repeat, one target) is appended to FILE\n"
	      "as a JSON line (schema " R0_SWEEP_SCHEMA ", see r0sweep(1)); at the end the\n"
	      "analysis and the verdict are printed and appended too.\n"
	      "THE MEMBERS' DATA IS DESTROYED: the write tests write all over them.\n"
	      "\n"
	      "Options:\n"
	      "  -o, --output FILE      result file (appended to)\n"
	      "      --resume           skip the cells FILE already holds (refused when FILE\n"
	      "                         was measured with another region, runtime, ramp,\n"
	      "                         state, preconditioning or other devices)\n"
	      "      --backend LIST     md, dm or md,dm (default md,dm)\n"
	      "      --chunks LIST      chunk sizes (default 4K,16K,64K,128K,512K,1M)\n"
	      "      --members LIST     member counts (default 1 up to all); 1 measures the\n"
	      "                         first member raw and as a 1-member stripe\n"
	      "      --single-chunks LIST  chunks of the 1-member stripes (default: --chunks)\n"
	      "  -p, --preset LIST      workload sets (default cdm3,cdm; see r0bench --help);\n"
	      "                         a workload in two sets runs once\n"
	      "      --qd LIST          queue depths of the small random tests (default 1,4,32)\n"
	      "      --no-straddle      without the chunk-straddling test (512K random reads\n"
	      "                         at 4K-aligned offsets, so most cross a chunk boundary)\n"
	      "      --read-only        only the read tests\n"
	      "  -w, --workloads LIST   only these, by name: \"Seq read,4K QD32 write\"\n"
	      "  -r, --repeats N        repeats of every cell (default " STR(R0_SWEEP_DEFAULT_REPEATS) "; below 3 every\n"
	      "                         verdict is indicative)\n"
	      "  -t, --runtime SEC      measured seconds per test (default 5)\n"
	      "      --ramp SEC         unmeasured seconds before each test (default 1)\n"
	      "      --region SIZE      test region (default 1G, CDM's; at most the target)\n"
	      "      --state LABEL      the members' state, recorded (default: the state\n"
	      "                         of their r0age records when all agree, else empty)\n"
	      "      --describe TEXT    what the members are, recorded before their list\n"
	      "      --no-precondition  do not write every member's test region once before\n"
	      "                         the first test (recorded as \"none\")\n"
	      "      --threshold PCT    the smallest difference that counts (default 5)\n"
	      "      --mix MIX          weights for the verdict: desktop (default), database,\n"
	      "                         sequential, KEY=WEIGHT,... (see r0report(1)), or\n"
	      "                         a mix file r0profile measured (r0mix/1)\n"
	      "  -f, --force            accept members that hold a signature\n"
	      "  -h, --help             this text\n"
	      "  -V, --version          version\n"
	      "\n"
	      "Members that are mounted, have a mounted partition, are held by another\n"
	      "device, are partitions, or cannot be opened exclusively are always refused.\n"
	      "Exit status: 0 ok, 1 failure (also an interrupted sweep or I/O errors), 2 usage.\n",
	      f);
}

struct target {
	enum r0_layer layer;
	uint32_t chunk_bytes;
	unsigned n;
};

struct sweep {
	char **members;
	unsigned n_members;
	struct r0_member_check chk[R0_MAX_MEMBERS];
	bool backend[2];
	uint32_t chunks[MAX_CHUNKS], single_chunks[MAX_CHUNKS];
	size_t n_chunks, n_single;
	bool count[R0_MAX_MEMBERS + 1];
	unsigned qds[8];
	size_t n_qds;
	struct { char label[32]; struct r0_workload w; } wl[MAX_WL];
	size_t n_wl;
	bool keep[MAX_WL];
	unsigned repeats;
	uint64_t runtime_ns, ramp_ns, region_bytes;
	char state[32], devices[512], describe[256], array_name[R0_ARRAY_NAME_MAX + 1];
	bool precondition;
	unsigned order_pos;         /* the current target's 1-based position in its repeat */
	struct target targets[MAX_TARGETS];
	size_t n_targets;
	FILE *out;
	struct r0_sweep_set done;
	bool tty;
	size_t total, finished, skipped, io_error_cells;
	struct timespec t0;
};

/* --- options --------------------------------------------------------- */

struct chunk_list {
	uint32_t *v;
	size_t *n;
};

static int add_chunk(const char *s, void *arg)
{
	struct chunk_list *l = arg;
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

static int add_count(const char *s, void *arg)
{
	bool *c = arg;
	unsigned n;

	if (r0_parse_uint(s, R0_MAX_MEMBERS, &n) || !n)
		return -EINVAL;
	c[n] = true;
	return 0;
}

static int add_qd(const char *s, void *arg)
{
	struct sweep *sw = arg;
	unsigned q;

	if (r0_parse_uint(s, R0_QD_MAX, &q) || !q || sw->n_qds == 8)
		return -EINVAL;
	sw->qds[sw->n_qds++] = q;
	return 0;
}

/* presets[MAX_PRESETS + 1], NULL-terminated: an item beyond MAX_PRESETS is refused */
static int add_preset(const char *s, void *arg)
{
	const struct r0_preset **p = arg;
	size_t n = 0;

	while (n < MAX_PRESETS && p[n])
		n++;
	if (n == MAX_PRESETS || !(p[n] = r0_preset_find(s)))
		return -EINVAL;
	return 0;
}

/* --- workloads ------------------------------------------------------- */

static bool same_workload(const struct r0_workload *a, const struct r0_workload *b)
{
	return a->access == b->access && a->read_pct == b->read_pct && a->block_bytes == b->block_bytes &&
	       a->align_bytes == b->align_bytes && a->queue_depth == b->queue_depth &&
	       (a->jobs ? a->jobs : 1) == (b->jobs ? b->jobs : 1);
}

static void add_wl(struct sweep *sw, const char *label, const struct r0_workload *w, bool read_only)
{
	if (read_only && w->read_pct < 100)
		return;
	for (size_t i = 0; i < sw->n_wl; i++)
		if (same_workload(&sw->wl[i].w, w))
			return;
	if (sw->n_wl == MAX_WL)
		return;
	snprintf(sw->wl[sw->n_wl].label, sizeof(sw->wl[0].label), "%s", label);
	sw->wl[sw->n_wl].w = *w;
	sw->n_wl++;
}

/*
 * The presets' tests in order; small random ones (64K or less) are run at
 * every --qd instead of their own depth, labelled in the preset's style.
 */
static void build_workloads(struct sweep *sw, const struct r0_preset **presets, bool straddle,
			    bool read_only)
{
	for (; *presets; presets++) {
		const struct r0_preset *p = *presets;

		for (size_t i = 0; i < p->n_tests; i++) {
			const struct r0_preset_test *t = &p->tests[i];
			char label[48], bs[16];

			if (t->w.access != R0_ACCESS_RAND || t->w.block_bytes > 64 * 1024) {
				add_wl(sw, t->label, &t->w, read_only);
				continue;
			}
			r0_format_size(t->w.block_bytes, bs, sizeof(bs));
			for (size_t q = 0; q < sw->n_qds; q++) {
				struct r0_workload w = t->w;
				const char *own = NULL;

				w.queue_depth = sw->qds[q];
				for (size_t k = 0; k < p->n_tests; k++)
					if (same_workload(&p->tests[k].w, &w))
						own = p->tests[k].label;
				if (own)
					snprintf(label, sizeof(label), "%s", own);
				else if (!strcmp(p->name, "cdm3"))
					snprintf(label, sizeof(label), "%s QD%u", bs, w.queue_depth);
				else
					snprintf(label, sizeof(label), "RND%s Q%uT%u", bs, w.queue_depth,
						 w.jobs ? w.jobs : 1);
				add_wl(sw, label, &w, read_only);
			}
		}
	}
	if (straddle) {
		struct r0_workload w = { .access = R0_ACCESS_RAND, .read_pct = 100,
					 .block_bytes = 512 * 1024, .align_bytes = 4096,
					 .queue_depth = 1, .jobs = 1 };

		add_wl(sw, "512K straddle", &w, read_only);
	}
}

static int find_name(const char *name, void *arg)
{
	struct sweep *sw = arg;

	for (size_t i = 0; i < sw->n_wl; i++) {
		struct r0_sweep_rec r = { .read_pct = sw->wl[i].w.read_pct };
		char wn[64];

		snprintf(r.label, sizeof(r.label), "%s", sw->wl[i].label);
		r0_sweep_rec_workload(&r, wn, sizeof(wn));
		if (!strcmp(wn, name)) {
			sw->keep[i] = true;
			return 0;
		}
	}
	r0_cli_usage_error(PROG, "--workloads: no workload '%s' in the sets chosen", name);
	return -ENOENT;
}

/* --workloads: drops every workload not named. */
static int keep_only(struct sweep *sw, const char *list)
{
	size_t k = 0;
	int err = r0_cli_each_item(list, find_name, sw);

	if (err == -EINVAL)
		r0_cli_usage_error(PROG, "--workloads '%s': names, comma separated", list);
	if (err)
		return err;
	for (size_t i = 0; i < sw->n_wl; i++)
		if (sw->keep[i])
			sw->wl[k++] = sw->wl[i];
	sw->n_wl = k;
	return 0;
}

static void build_targets(struct sweep *sw)
{
	if (sw->count[1])
		sw->targets[sw->n_targets++] = (struct target){ R0_LAYER_RAW, 0, 1 };
	for (int b = 0; b < 2; b++) {
		if (!sw->backend[b])
			continue;
		for (unsigned n = 1; n <= sw->n_members; n++) {
			const uint32_t *ch = n == 1 ? sw->single_chunks : sw->chunks;
			size_t nc = n == 1 ? sw->n_single : sw->n_chunks;

			if (!sw->count[n])
				continue;
			for (size_t c = 0; c < nc && sw->n_targets < MAX_TARGETS; c++)
				sw->targets[sw->n_targets++] = (struct target){
					b == R0_BACKEND_MD ? R0_LAYER_MD : R0_LAYER_DM, ch[c], n };
		}
	}
}

/* The study's parameters into R: what --resume and r0report compare. */
static void study_rec(const struct sweep *sw, struct r0_sweep_rec *r)
{
	snprintf(r->state, sizeof(r->state), "%s", sw->state);
	snprintf(r->devices, sizeof(r->devices), "%s", sw->devices);
	snprintf(r->describe, sizeof(r->describe), "%s", sw->describe);
	r->region_bytes = sw->region_bytes;
	r->test_runtime_s = (double)sw->runtime_ns / 1e9;
	r->ramp_s = (double)sw->ramp_ns / 1e9;
	snprintf(r->precondition, sizeof(r->precondition), "%s", sw->precondition ? "seq-fill" : "none");
	r->order_pos = sw->order_pos;
}

static void cell_rec(const struct sweep *sw, const struct target *t, size_t wl, unsigned rep,
		     struct r0_sweep_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->layer = t->layer;
	r->chunk_bytes = t->chunk_bytes;
	r->n_members = t->n;
	snprintf(r->label, sizeof(r->label), "%s", sw->wl[wl].label);
	r->access = sw->wl[wl].w.access;
	r->read_pct = sw->wl[wl].w.read_pct;
	r->block_bytes = sw->wl[wl].w.block_bytes;
	r->align_bytes = sw->wl[wl].w.align_bytes;
	r->queue_depth = sw->wl[wl].w.queue_depth;
	r->jobs = sw->wl[wl].w.jobs ? sw->wl[wl].w.jobs : 1;
	r->repeat = rep;
	study_rec(sw, r);
	snprintf(r->tool, sizeof(r->tool), PROG " %s", R0_VERSION);
}

/* --- progress -------------------------------------------------------- */

static double since(const struct timespec *t0)
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

static void target_name(const struct target *t, char *buf, size_t len)
{
	char ck[16];

	if (t->layer == R0_LAYER_RAW) {
		snprintf(buf, len, "raw 1 drive");
		return;
	}
	r0_format_size(t->chunk_bytes, ck, sizeof(ck));
	snprintf(buf, len, "%s %u x %s", r0_layer_name(t->layer), t->n, ck);
}

static void show_progress(struct sweep *sw, const char *cell, const char *result)
{
	double el = since(&sw->t0);
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

/* Runs every unfinished workload of repeat REP on the open target. 0, -EINTR, -errno. */
static int run_cells(struct sweep *sw, const struct target *t, const char *path, unsigned rep)
{
	struct r0_target tg;
	struct r0_run_opts o = { .stop = r0_cli_stop_flag() };
	struct r0_result *res = malloc(sizeof(*res));
	bool writable = false;
	int err;

	if (!res)
		return -ENOMEM;
	for (size_t i = 0; i < sw->n_wl; i++)
		writable |= sw->wl[i].w.read_pct < 100;
	err = r0_target_open(path, writable, &tg);
	if (err) {
		fprintf(stderr, PROG ": %s: cannot open: %s\n", path, strerror(-err));
		free(res);
		return err;
	}
	for (size_t i = 0; i < sw->n_wl && !err; i++) {
		struct r0_sweep_rec r;
		struct r0_workload w = sw->wl[i].w;
		char name[160], tn[48], wn[48], why[256], line[128];

		cell_rec(sw, t, i, rep, &r);
		if (r0_sweep_set_has(&sw->done, &r))
			continue;
		target_name(t, tn, sizeof(tn));
		r0_sweep_rec_workload(&r, wn, sizeof(wn));
		snprintf(name, sizeof(name), "%s, %s, repeat %u", tn, wn, rep);
		w.span_bytes = sw->region_bytes < tg.size_bytes ? sw->region_bytes : tg.size_bytes;
		if (w.span_bytes >= (1u << 20))
			w.span_bytes -= w.span_bytes % (1u << 20);
		w.runtime_ns = sw->runtime_ns;
		w.ramp_ns = sw->ramp_ns;
		w.seed = rep;
		if (r0_workload_check(&w, &tg, why, sizeof(why))) {
			fprintf(stderr, "%s" PROG ": %s: %s: %s\n", sw->tty ? "\n" : "", path, wn, why);
			err = -EINVAL;
			break;
		}
		if (sw->tty)
			show_progress(sw, name, NULL);
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
		err = r0_sweep_rec_append(sw->out, &r);
		if (err) {
			fprintf(stderr, PROG ": cannot append to the result file: %s\n", strerror(-err));
			break;
		}
		r0_sweep_set_add(&sw->done, &r);
		sw->finished++;
		snprintf(line, sizeof(line), "%.1f MB/s, %.0f IOPS, p99 %.0f us", r.bytes_per_s / 1e6,
			 r.iops, (double)r.lat_p99_ns / 1e3);
		show_progress(sw, name, line);
	}
	r0_target_close(&tg);
	free(res);
	return err;
}

/* Cells of TARGET at repeat REP not yet in the file. */
static size_t todo(const struct sweep *sw, const struct target *t, unsigned rep)
{
	size_t n = 0;

	for (size_t i = 0; i < sw->n_wl; i++) {
		struct r0_sweep_rec r;

		cell_rec(sw, t, i, rep, &r);
		n += !r0_sweep_set_has(&sw->done, &r);
	}
	return n;
}

/*
 * A device can stay busy for a moment after a test: engines before commit
 * bbf9aad released the target in io_uring's deferred ring clean-up, after
 * r0_target_close returned (md then refused to stop: "open ... busy"), and
 * on a real system udev probes a new array right after it appears. So
 * -EBUSY from create or remove is retried for a few seconds.
 */
#define BUSY_TRIES 50
#define BUSY_WAIT_US 100000

static int create_retry(const struct r0_array_spec *spec, struct r0_array *a)
{
	int err = -EBUSY;

	for (int i = 0; i < BUSY_TRIES && err == -EBUSY; i++) {
		if (i)
			usleep(BUSY_WAIT_US);
		err = r0_array_create(spec, a);
	}
	return err;
}

static int remove_retry(const struct r0_array *a)
{
	int err = -EBUSY;

	for (int i = 0; i < BUSY_TRIES && err == -EBUSY; i++) {
		if (i)
			usleep(BUSY_WAIT_US);
		err = r0_array_remove(a);
	}
	return err;
}

/* Builds the target's array, runs its cells, removes it. 0, -EINTR or -errno. */
static int run_target(struct sweep *sw, const struct target *t, unsigned rep)
{
	struct r0_array_spec spec = { .md_layout = R0_MD_LAYOUT_ALT };
	uint64_t sizes[R0_MAX_MEMBERS];
	struct r0_geometry geo;
	struct r0_array a;
	int err, rerr;

	if (!todo(sw, t, rep))
		return 0;
	if (t->layer == R0_LAYER_RAW)
		return run_cells(sw, t, sw->members[0], rep);
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
	err = create_retry(&spec, &a);
	if (err) {
		const char *why = r0_array_last_error();
		char tn[48];

		target_name(t, tn, sizeof(tn));
		fprintf(stderr, "%s" PROG ": create %s (array %s): %s%s%s\n", sw->tty ? "\n" : "", tn,
			sw->array_name, strerror(-err), *why ? ": " : "", why);
		return err;
	}
	err = r0_cli_stop_requested() ? -EINTR : run_cells(sw, t, a.path, rep);
	rerr = remove_retry(&a);
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
static int precondition(struct sweep *sw)
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
static int check_resume(const struct sweep *sw, const char *path)
{
	struct r0_sweep_rec now;
	char why[1200];

	memset(&now, 0, sizeof(now));
	study_rec(sw, &now);
	for (size_t i = 0; i < sw->done.n; i++)
		if (r0_sweep_rec_study_diff(&sw->done.recs[i], &now, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s: cannot resume: the file (first) and this run (second) differ "
				"in %s; use another file\n", path, why);
			return -EINVAL;
		}
	return 0;
}

/* --- the end: analysis ---------------------------------------------- */

static int finish(struct sweep *sw, const char *path, const struct r0_mix *mix, const struct r0_cmp_opts *cmp)
{
	struct r0_sweep_set set = { 0 };
	struct r0_analysis a;
	json_object *o, *ch;
	int err = r0_sweep_load(path, &set, NULL);

	if (!err)
		err = r0_analyse(&set, mix, cmp, &a);
	r0_sweep_set_free(&set);
	if (err) {
		fprintf(stderr, PROG ": %s: no analysis: %s\n", path, strerror(-err));
		return err;
	}
	printf("%s\n\nMethod: %s\n\n%s", a.verdict, a.method, a.reasoning);
	o = json_object_new_object();
	json_object_object_add(o, "mix", json_object_new_string(a.mix_name));
	json_object_object_add(o, "verdict", json_object_new_string(a.verdict));
	json_object_object_add(o, "reasoning", json_object_new_string(a.reasoning));
	json_object_object_add(o, "members", json_object_new_int((int)a.max_members));
	json_object_object_add(o, "answer", json_object_new_string(r0_answer_name(a.answer)));
	json_object_object_add(o, "method", json_object_new_string(a.method));
	json_object_object_add(o, "chunks", json_object_new_string(a.chunks));
	json_object_object_add(o, "threshold", json_object_new_double(a.cmp.threshold));
	json_object_object_add(o, "confidence", json_object_new_double(a.cmp.confidence));
	json_object_object_add(o, "indicative", json_object_new_boolean(a.indicative));
	ch = json_object_new_array();
	for (size_t k = 0; k < a.n_choice; k++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "layer", json_object_new_string(r0_layer_name(a.choice[k].layer)));
		json_object_object_add(c, "chunk_bytes", json_object_new_int64(a.choice[k].chunk_bytes));
		json_object_object_add(c, "score", json_object_new_double(a.choice[k].score));
		json_object_object_add(c, "score_min", json_object_new_double(a.choice[k].score_min));
		json_object_object_add(c, "score_max", json_object_new_double(a.choice[k].score_max));
		json_object_object_add(c, "tie_best", json_object_new_boolean(a.choice[k].tie_best));
		json_object_object_add(c, "picked", json_object_new_boolean(k == a.pick));
		json_object_array_add(ch, c);
	}
	json_object_object_add(o, "choices", ch);
	json_object_object_add(o, "tool", json_object_new_string(PROG " " R0_VERSION));
	json_object_object_add(o, "time", json_object_new_int64((int64_t)time(NULL)));
	err = r0_sweep_append_json(sw->out, "analysis", json_object_to_json_string(o));
	json_object_put(o);
	r0_analysis_free(&a);
	if (err)
		fprintf(stderr, PROG ": cannot append the analysis: %s\n", strerror(-err));
	return err;
}

/* Path, size, model and serial (where the kernel has them) of every member. */
static void describe_members(struct sweep *sw, const char *describe)
{
	size_t off = 0;

	if (describe)
		snprintf(sw->describe, sizeof(sw->describe), "%s", describe);
	for (unsigned i = 0; i < sw->n_members && off < sizeof(sw->devices); i++) {
		struct r0_device d;
		char sz[32] = "?", what[200] = "";

		if (!r0_probe_device(sw->members[i], &d)) {
			r0_format_size_human(d.size_bytes, sz, sizeof(sz));
			snprintf(what, sizeof(what), "%s%s%s%s, %lld-byte blocks", d.model[0] ? d.model : d.kname,
				 d.serial[0] ? ", serial " : "", d.serial, d.rotational == 1 ? ", rotational" : "",
				 (long long)d.logical_block_size_bytes);
			r0_device_free(&d);
		}
		off += (size_t)snprintf(sw->devices + off, sizeof(sw->devices) - off, "%s%s (%s, %s)",
					i ? ", " : "", sw->members[i], sz, what);
	}
}

/*
 * The members' state from their r0age records (r0/age.h): when every
 * member has a complete record of the same state, that state labels the
 * cells; otherwise the default (or --state) stands.
 */
static void state_from_records(struct sweep *sw)
{
	enum r0_age_state first = 0;

	for (unsigned i = 0; i < sw->n_members; i++) {
		struct r0_state_record rec;
		json_object *o = NULL;
		int ok = !r0_state_load(sw->chk[i].devt, &o) && !r0_state_record_parse(o, &rec) &&
			 rec.complete;

		json_object_put(o);
		if (!ok || (i && rec.state != first))
			return;
		first = rec.state;
	}
	if (sw->n_members)
		snprintf(sw->state, sizeof(sw->state), "%s", r0_age_state_name(first));
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "resume", no_argument, NULL, OPT_RESUME },
		{ "backend", required_argument, NULL, OPT_BACKEND },
		{ "chunks", required_argument, NULL, OPT_CHUNKS },
		{ "members", required_argument, NULL, OPT_MEMBERS },
		{ "single-chunks", required_argument, NULL, OPT_SINGLE_CHUNKS },
		{ "preset", required_argument, NULL, 'p' },
		{ "qd", required_argument, NULL, OPT_QD },
		{ "no-straddle", no_argument, NULL, OPT_NO_STRADDLE },
		{ "read-only", no_argument, NULL, OPT_READ_ONLY },
		{ "workloads", required_argument, NULL, 'w' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "runtime", required_argument, NULL, 't' },
		{ "ramp", required_argument, NULL, OPT_RAMP },
		{ "region", required_argument, NULL, OPT_REGION },
		{ "state", required_argument, NULL, OPT_STATE },
		{ "describe", required_argument, NULL, OPT_DESCRIBE },
		{ "mix", required_argument, NULL, OPT_MIX },
		{ "no-precondition", no_argument, NULL, OPT_NO_PRECONDITION },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static struct sweep sw;
	const struct r0_preset *presets[MAX_PRESETS + 1] = { 0 };
	const char *output = NULL, *describe = NULL, *backend = "md,dm", *chunks = "4K,16K,64K,128K,512K,1M";
	const char *counts = NULL, *single = NULL, *preset = "cdm3,cdm", *qd = "1,4,32", *mixs = "desktop";
	const char *only = NULL;
	bool resume = false, force = false, straddle = true, read_only = false, state_given = false;
	struct chunk_list cl;
	struct r0_mix mix;
	char mixdesc[1024];
	struct r0_cmp_opts cmp;
	int c, err = 0, status = R0_EXIT_OK;

	r0_cmp_defaults(&cmp);
	sw.precondition = true;
	sw.repeats = R0_SWEEP_DEFAULT_REPEATS;
	sw.runtime_ns = 5000000000ULL;
	sw.ramp_ns = 1000000000ULL;
	sw.region_bytes = R0_CDM_REGION_BYTES;
	snprintf(sw.state, sizeof(sw.state), "empty");
	while ((c = getopt_long(argc, argv, "o:p:r:t:w:fhV", opts, NULL)) != -1) {
		switch (c) {
		case 'o': output = optarg; break;
		case OPT_RESUME: resume = true; break;
		case OPT_BACKEND: backend = optarg; break;
		case OPT_CHUNKS: chunks = optarg; break;
		case OPT_MEMBERS: counts = optarg; break;
		case OPT_SINGLE_CHUNKS: single = optarg; break;
		case 'p': preset = optarg; break;
		case OPT_QD: qd = optarg; break;
		case OPT_NO_STRADDLE: straddle = false; break;
		case OPT_READ_ONLY: read_only = true; break;
		case 'w': only = optarg; break;
		case 'r':
			if (r0_parse_uint(optarg, 100, &sw.repeats) || !sw.repeats)
				return r0_cli_usage_error(PROG, "--repeats '%s': from 1 to 100", optarg);
			break;
		case 't':
			if (r0_parse_duration(optarg, &sw.runtime_ns) || !sw.runtime_ns)
				return r0_cli_usage_error(PROG, "--runtime '%s': seconds above 0, e.g. 5 or 0.5", optarg);
			break;
		case OPT_RAMP:
			if (r0_parse_duration(optarg, &sw.ramp_ns))
				return r0_cli_usage_error(PROG, "--ramp '%s': seconds, e.g. 1", optarg);
			break;
		case OPT_REGION:
			if (r0_parse_size(optarg, &sw.region_bytes) || !sw.region_bytes)
				return r0_cli_usage_error(PROG, "--region '%s': a size above 0", optarg);
			break;
		case OPT_STATE:
			if (!*optarg || strlen(optarg) >= sizeof(sw.state))
				return r0_cli_usage_error(PROG, "--state: 1 to %zu characters", sizeof(sw.state) - 1);
			snprintf(sw.state, sizeof(sw.state), "%s", optarg);
			state_given = true;
			break;
		case OPT_DESCRIBE: describe = optarg; break;
		case OPT_MIX: mixs = optarg; break;
		case OPT_NO_PRECONDITION: sw.precondition = false; break;
		case OPT_THRESHOLD:
			if (r0_cmp_parse_threshold(optarg, &cmp.threshold))
				return r0_cli_usage_error(PROG, "--threshold '%s': a percentage above 0 and below 100, e.g. 5", optarg);
			break;
		case 'f': force = true; break;
		case 'h': usage(stdout); return r0_cli_close_stdout(PROG);
		case 'V': printf(PROG " from r0kit %s\n", R0_VERSION); return r0_cli_close_stdout(PROG);
		default: return r0_cli_usage_error(PROG, "bad option");
		}
	}
	if (!output)
		return r0_cli_usage_error(PROG, "--output FILE is required");
	sw.n_members = (unsigned)(argc - optind);
	sw.members = argv + optind;
	if (sw.n_members < 2)
		return r0_cli_usage_error(PROG, "name 2 or more member devices");
	if (sw.n_members > R0_MAX_MEMBERS)
		return r0_cli_usage_error(PROG, "at most %d members", R0_MAX_MEMBERS);
	if (r0_cli_each_item(backend, r0_cli_add_backend, sw.backend))
		return r0_cli_usage_error(PROG, "--backend '%s': md, dm or md,dm", backend);
	cl = (struct chunk_list){ sw.chunks, &sw.n_chunks };
	if (r0_cli_each_item(chunks, add_chunk, &cl))
		return r0_cli_usage_error(PROG, "--chunks '%s': powers of two from 4K to 1G, e.g. 64K,512K", chunks);
	cl = (struct chunk_list){ sw.single_chunks, &sw.n_single };
	if (single && r0_cli_each_item(single, add_chunk, &cl))
		return r0_cli_usage_error(PROG, "--single-chunks '%s': powers of two from 4K to 1G", single);
	if (!single) {
		memcpy(sw.single_chunks, sw.chunks, sizeof(sw.chunks));
		sw.n_single = sw.n_chunks;
	}
	if (counts) {
		if (r0_cli_each_item(counts, add_count, sw.count))
			return r0_cli_usage_error(PROG, "--members '%s': counts from 1 to %d", counts, R0_MAX_MEMBERS);
		for (unsigned n = sw.n_members + 1; n <= R0_MAX_MEMBERS; n++)
			if (sw.count[n])
				return r0_cli_usage_error(PROG, "--members: %u, but only %u devices given", n, sw.n_members);
	} else {
		for (unsigned n = 1; n <= sw.n_members; n++)
			sw.count[n] = true;
	}
	if (r0_cli_each_item(preset, add_preset, presets))
		return r0_cli_usage_error(PROG, "--preset '%s': cdm, cdm3 or cdm-nvme, comma separated, at most %d", preset, MAX_PRESETS);
	if (r0_cli_each_item(qd, add_qd, &sw))
		return r0_cli_usage_error(PROG, "--qd '%s': queue depths from 1 to %u, e.g. 1,32", qd, R0_QD_MAX);
	if (r0_cli_mix(PROG, mixs, &mix, mixdesc, sizeof(mixdesc)))
		return R0_EXIT_USAGE;
	build_workloads(&sw, presets, straddle, read_only);
	if (only && keep_only(&sw, only))
		return R0_EXIT_USAGE;
	if (!sw.n_wl)
		return r0_cli_usage_error(PROG, "no workload left to run");
	build_targets(&sw);

	/* every check before anything is touched */
	for (unsigned i = 0; i < sw.n_members; i++) {
		char why[256];

		err = r0_member_check(sw.members[i], force, sw.chunks[0], &sw.chk[i], why, sizeof(why));
		if (err) {
			fprintf(stderr, PROG ": %s: %s\n", sw.members[i], why);
			return R0_EXIT_FAILURE;
		}
		for (unsigned j = 0; j < i; j++)
			if (sw.chk[j].devt == sw.chk[i].devt) {
				fprintf(stderr, PROG ": %s: the same device as %s\n", sw.members[i], sw.members[j]);
				return R0_EXIT_FAILURE;
			}
	}
	if (!state_given)
		state_from_records(&sw);
	describe_members(&sw, describe);
	if (resume) {
		unsigned bad = 0;

		err = r0_sweep_load(output, &sw.done, &bad);
		if (err && err != -ENOENT) {
			fprintf(stderr, PROG ": %s: cannot resume: %s\n", output,
				err == -EINVAL ? "not an r0sweep result file" : strerror(-err));
			return R0_EXIT_FAILURE;
		}
		if (bad)
			fprintf(stderr, PROG ": %s: %u unreadable line%s skipped (measured again)\n", output, bad,
				bad == 1 ? "" : "s");
		if (check_resume(&sw, output)) {
			r0_sweep_set_free(&sw.done);
			return R0_EXIT_FAILURE;
		}
	} else if (access(output, F_OK) == 0) {
		FILE *f = fopen(output, "r");
		int ch = f ? fgetc(f) : EOF;

		if (f)
			fclose(f);
		if (ch != EOF) {
			fprintf(stderr, PROG ": %s: exists and is not empty (use --resume, or another file)\n",
				output);
			return R0_EXIT_FAILURE;
		}
	}
	sw.out = fopen(output, "ae");
	if (!sw.out) {
		fprintf(stderr, PROG ": %s: %s\n", output, strerror(errno));
		r0_sweep_set_free(&sw.done);
		return R0_EXIT_FAILURE;
	}
	snprintf(sw.array_name, sizeof(sw.array_name), "sweep.%ld", (long)getpid());
	sw.tty = isatty(STDERR_FILENO);
	sw.total = sw.n_targets * sw.n_wl * sw.repeats;
	for (unsigned rep = 1; rep <= sw.repeats; rep++)
		for (size_t t = 0; t < sw.n_targets; t++)
			sw.skipped += sw.n_wl - todo(&sw, &sw.targets[t], rep);
	fprintf(stderr, PROG ": %zu targets x %zu workloads x %u repeats = %zu cells%s; about %.0f min\n",
		sw.n_targets, sw.n_wl, sw.repeats, sw.total,
		sw.skipped ? " (some already in the file)" : "",
		(double)(sw.total - sw.skipped) * ((double)(sw.runtime_ns + sw.ramp_ns) / 1e9 + 0.3) / 60);
	r0_cli_catch_stop_signals();
	clock_gettime(CLOCK_MONOTONIC, &sw.t0);
	/* the members' regions written once before any test; on a resume too,
	 * since the members may be new (the demo resumes on fresh null_blk
	 * members after a guest death, which would read unwritten blocks) */
	if (sw.precondition && sw.skipped < sw.total) {
		fprintf(stderr, PROG ": preconditioning: writing the first %.0f MiB of each member once\n",
			(double)sw.region_bytes / (1 << 20));
		err = precondition(&sw);
	}
	/* repeats outermost, each in its own seeded order: drift and position spread over all */
	for (unsigned rep = 1; rep <= sw.repeats && !err; rep++) {
		size_t order[MAX_TARGETS];

		r0_sweep_order(rep, sw.n_targets, order);
		for (size_t t = 0; t < sw.n_targets && !err; t++) {
			sw.order_pos = (unsigned)t + 1;
			err = run_target(&sw, &sw.targets[order[t]], rep);
		}
	}
	if (sw.tty)
		fputs("\r\033[K", stderr);
	if (err == -EINTR) {
		fprintf(stderr, PROG ": interrupted by a signal; %zu cells in %s, --resume goes on\n",
			sw.finished + sw.skipped, output);
		status = R0_EXIT_FAILURE;
	} else if (err) {
		fprintf(stderr, PROG ": stopped after %zu cells; they are in %s\n", sw.finished + sw.skipped,
			output);
		status = R0_EXIT_FAILURE;
	} else {
		fprintf(stderr, PROG ": %zu cells measured%s in %.0f s; results in %s\n", sw.finished,
			sw.skipped ? " (the rest were in the file)" : "", since(&sw.t0), output);
		/* a measured mix: what it was, on its own line before the verdict */
		if (mixdesc[0])
			printf("For %s:\n", mixdesc);
		if (finish(&sw, output, &mix, &cmp))
			status = R0_EXIT_FAILURE;
		if (sw.io_error_cells) {
			fprintf(stderr, PROG ": %zu cells had I/O errors (counted in their records)\n",
				sw.io_error_cells);
			status = R0_EXIT_FAILURE;
		}
	}
	if (fclose(sw.out)) {
		fprintf(stderr, PROG ": %s: %s\n", output, strerror(errno));
		status = R0_EXIT_FAILURE;
	}
	r0_sweep_set_free(&sw.done);
	if (r0_cli_close_stdout(PROG))
		status = R0_EXIT_FAILURE;
	return status;
}
