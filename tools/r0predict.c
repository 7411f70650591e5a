// SPDX-License-Identifier: GPL-2.0-or-later
/* r0predict: what RAID0 of 2, 3, 4 drives would give, from the results of one. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sweepin.h"

#include "r0/benchjson.h"
#include "r0/filehead.h"
#include "r0/geometry.h"
#include "r0/predictstudy.h"
#include "r0/size.h"

#define PROG "r0predict"
#define MAX_CHUNKS 16


enum { OPT_LAYER = CHAR_MAX + 1, OPT_CPU, OPT_SHARED, OPT_COMPARE, OPT_TABLE, OPT_BACKEND, OPT_OUTPUT, OPT_CHUNKS, OPT_SKIP_DAMAGED };

static const char usage_head[] =
	"Usage:\n"
	"  " PROG " [options] RESULT...\n"
	"\n"
	"Predicts md raid0 and dm-stripe arrays of 2, 3 and 4 drives like the one\n"
	"measured in RESULT (r0bench --json output, e.g. of `r0bench --preset predict\n"
	"--read-only --json`, or an r0sweep result file, whose raw cells are used)\n"
	"and writes r0sweep/1 cells marked \"predicted\": true.\n"
	"\n"
	"Model: each request is split by the stripe geometry; each member holds its\n"
	"share of the queue depth and behaves as the measured drive at that part size\n"
	"and depth (interpolated in the measured grid); a request ends with its\n"
	"slowest part, a part begun when the submitting thread got past the parts\n"
	"before it (a part of more requests than its member has tags holds it);\n"
	"each request pays the layer cost. Only bytes/s, IOPS, mean and\n"
	"median (p50) latency are predicted: p90 and above, CPU and ios are null.\n";

static const char usage_tail[] =
	"A cell is not predicted, and r0predict says so (stderr, once a reason with\n"
	"the number of cells, or its table row),\n"
	"when its reads or writes moved by more than 15 % between the grid's first\n"
	"and its last measurement of a point (the drive's state changed: garbage\n"
	"collection, a cache), when grid points it rests on spread by more than\n"
	"30 % over their passes,\n"
	"when it needs a part size or depth the input did not measure (a gap wider\n"
	"than 4x, or deeper than a depth that saturated the drive; the point named),\n"
	"when it depends on a guessed layer cost, when it needs more IOPS than\n"
	"the drive's results reached and no CPU ceiling is known, or when its\n"
	"members rest between parts on a drive that waits on its bandwidth at QD1\n"
	"and a rested member could serve faster (both figures given). r0predict(1).\n"
	"How close the predictions came, per workload: r0predict(1), section VALIDATION.\n"
	"r0bench grids of more than one drive (another model, serial, path, size or\n"
	"hardware limit in their r0probe records) are refused, as is the same run\n"
	"read twice from r0sweep files.\n"
	"Exit status: 0 done, 1 failure, 2 usage or a RESULT refused (unreadable,\n"
	"not a result, damaged, read twice, of another drive, no single-drive\n"
	"result), 3 no array could be predicted.\n";

/* The reasons cells were not predicted, each once with how many cells it held back. */
struct doubt {
	char reason[320];
	char first[96];       /* the first cell it held back, "4K QD1 read on md 2 x 64 KiB" */
	size_t cells;
};

struct doubts {
	struct doubt *v;
	size_t n;
};

struct opts {
	bool members[R0_MAX_MEMBERS + 1];
	bool backends[2];
	uint32_t chunks[MAX_CHUNKS];
	size_t n_chunks;
	struct r0_predict_study_opts model;
	bool table;
	const struct r0_run_set *meas;   /* --compare's: its figures beside the table's */
	struct doubts *doubts;             /* said once each at the end, not once a cell */
};

static int doubt_add(struct doubts *d, const char *reason, const char *cell)
{
	struct doubt *p;

	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].reason, reason)) {
			d->v[i].cells++;
			return 0;
		}
	if (!(p = realloc(d->v, (d->n + 1) * sizeof(*p))))
		return -ENOMEM;
	d->v = p;
	p = &d->v[d->n++];
	snprintf(p->reason, sizeof(p->reason), "%s", reason);
	snprintf(p->first, sizeof(p->first), "%s", cell);
	p->cells = 1;
	return 0;
}

/* One line a reason: 1,776 cells held back by three reasons are three lines. */
static void doubts_print(const struct doubts *d)
{
	for (size_t i = 0; i < d->n; i++) {
		if (d->v[i].cells == 1)
			fprintf(stderr, PROG ": %s: not predicted: %s\n", d->v[i].first, d->v[i].reason);
		else
			fprintf(stderr, PROG ": %zu cells not predicted (%s and %zu more): %s\n", d->v[i].cells,
				d->v[i].first, d->v[i].cells - 1, d->v[i].reason);
	}
}

/* --- predicting -------------------------------------------------------- */

static void print_table_row(FILE *f, const struct r0_run *r, double single_bps, const char *doubt,
			    const struct r0_run_set *meas)
{
	char wl[64];
	double m;

	r0_run_workload(r, wl, sizeof(wl));
	fprintf(f, "%-22s %-3s %2u %8u KiB ", wl, r0_layer_name(r->layer), r->n_members,
		r->chunk_bytes / 1024);
	if (*doubt)
		fprintf(f, "not predicted: %s", doubt);
	else
		fprintf(f, "%10.2f %10.0f %10.1f %6.2fx", r->bytes_per_s / 1e6, r->iops,
			r->lat_p50_ns / 1e3, single_bps > 0 ? r->bytes_per_s / single_bps : 0);
	if (!*doubt && meas && !isnan(m = r0_predict_measured_bps(meas, r)))
		fprintf(f, " %10.2f %+6.0f%%", m / 1e6, 100 * (r->bytes_per_s / m - 1));
	fputc('\n', f);
}

/*
 * One cell predicted and written (in the table, or as a JSON line and into
 * OUT); a cell outside the error bar says so instead: in the table, or on
 * stderr and left out. -ENOENT: the input lacks the direction.
 */
static int cell(const struct r0_predict_input *in, const struct opts *o, const struct r0_run *wl,
		enum r0_layer layer, unsigned n, uint32_t chunk, double single_bps, FILE *f,
		struct r0_run_set *out, struct r0_run *r)
{
	char doubt[320], name[64];
	int err = r0_predict_cell(in, &o->model, wl, layer, n, chunk, r0_cli_tool_id(PROG), r, doubt, sizeof(doubt));

	if (err)
		return err;
	if (o->table && layer != R0_LAYER_RAW)
		print_table_row(f, r, single_bps, doubt, o->meas);
	if (*doubt && !o->table) {
		char where[sizeof(((struct doubt *)0)->first)];

		r0_run_workload(r, name, sizeof(name));
		if (layer == R0_LAYER_RAW)   /* one drive alone: no members, no chunk */
			snprintf(where, sizeof(where), "%s on one drive", name);
		else
			snprintf(where, sizeof(where), "%s on %s %u x %u KiB", name, r0_layer_name(layer), n,
				 r->chunk_bytes / 1024);
		if ((err = doubt_add(o->doubts, doubt, where)))
			return err;
	}
	if (*doubt)
		return 0;
	err = o->table ? (ferror(f) ? -EIO : 0) : r0_sweep_rec_append(f, r);
	return err ? err : r0_run_set_add(out, r);
}

static int predict_all(const struct r0_predict_input *in, const char *path, const struct opts *o,
		       FILE *f, struct r0_run_set *out)
{
	int err = 0;

	if (o->table)
		fprintf(f, "%-22s %-3s %2s %12s %10s %10s %10s %7s%s\n", "workload", "be", "n", "chunk",
			"MB/s", "IOPS", "p50 us", "vs one", o->meas ? "   measured  error" : "");
	for (size_t i = 0; i < in->n_wl && !err; i++) {
		struct r0_run raw, r;
		char name[64];

		err = cell(in, o, &in->wl[i], R0_LAYER_RAW, 1, 0, 0, f, out, &raw);
		if (err == -ENOENT) {   /* e.g. a --read-only grid and a write workload */
			r0_run_workload(&in->wl[i], name, sizeof(name));
			fprintf(stderr, PROG ": %s: skipped: %s has no %s results\n", name, path,
				in->wl[i].read_pct ? "read" : "write");
			err = 0;
			continue;
		}
		for (int be = 0; be < 2; be++)
			for (unsigned n = 1; n <= R0_MAX_MEMBERS && o->backends[be]; n++)
				for (size_t c = 0; c < o->n_chunks && o->members[n] && !err; c++)
					err = cell(in, o, &in->wl[i], be == R0_BACKEND_MD ? R0_LAYER_MD :
						   R0_LAYER_DM, n, o->chunks[c], raw.bytes_per_s, f, out, &r);
	}
	return err;
}

/* How many of SET's cells are arrays, not the single drive. */
static size_t arrays_in(const struct r0_run_set *set)
{
	size_t n = 0;

	for (size_t i = 0; i < set->n; i++)
		n += set->recs[i].layer != R0_LAYER_RAW;
	return n;
}

/* Predicted against measured: the error per workload on stderr. */
static int compare(const struct r0_run_set *pred, const struct r0_run_set *meas,
		   const char *path)
{
	struct r0_predict_error *rows = NULL;
	struct r0_mix mix;
	char pick[512];
	bool in_tied, picked;
	size_t n = 0, missing = 0;
	int err = r0_predict_compare(pred, meas, &rows, &n);

	if (err)
		fprintf(stderr, PROG ": %s: cannot compare: %s\n", path, strerror(-err));
	else if (!n)
		fprintf(stderr, PROG ": %s: no measured md/dm cell matches a predicted one\n", path);
	else
		fprintf(stderr, "%-22s %6s %12s %12s %8s %9s %14s\n", "workload (bytes/s)", "cells",
			"median err", "p90 err", "<=15 %", "not pred.", "repeat spread");
	for (size_t i = 0; i < n; i++) {
		fprintf(stderr, "%-22s %6zu ", rows[i].workload, rows[i].cells);
		if (rows[i].cells)
			fprintf(stderr, "%11.1f%% %11.1f%% %7.0f%%", 100 * rows[i].median,
				100 * rows[i].p90, 100 * rows[i].within_15);
		else
			fprintf(stderr, "%12s %12s %8s", "-", "-", "-");
		fprintf(stderr, " %9zu", rows[i].not_predicted);
		if (isnan(rows[i].repeat_spread))
			fprintf(stderr, " %14s\n", "-");
		else
			fprintf(stderr, " %13.1f%%\n", 100 * rows[i].repeat_spread);
	}
	for (size_t i = 0; i < n; i++)   /* the last row sums the others */
		if (!strcmp(rows[i].workload, "all"))
			missing = rows[i].not_predicted;
	free(rows);
	/* the demo's mix: the pick r0sweep's verdict would make; a choice with a cell not
	 * predicted cannot be picked (r0_analyse), which the line says */
	if (!err && !r0_mix_parse("desktop", &mix) &&
	    !r0_predict_check_pick(pred, meas, &mix, &picked, &in_tied, pick, sizeof(pick))) {
		if (!picked) {   /* what it could pick is contradicted by its own measurements */
			fprintf(stderr, "chunk picked (desktop mix), predicted: %s\n", pick);
			return err;
		}
		fprintf(stderr, "chunk picked (desktop mix), predicted: %s: %s", pick,
			in_tied ? "in the tied set" : "NOT in the tied set");
		if (missing)
			fprintf(stderr, " (only choices predicted whole could be picked: %zu cells not predicted)",
				missing);
		fputc('\n', stderr);
	}
	return err;
}

/* --- options ----------------------------------------------------------- */

/*
 * PATH's first bytes before it is read whole: an r0sweep/1 record as its
 * first line, or (unless SWEEP_ONLY) an r0bench/1 document, and not
 * larger than any result file. 0, or 1 after saying what it is instead.
 */
static int check_input(const char *path, bool sweep_only, bool *is_sweep)
{
	struct r0_file_head h;
	char words[128];
	int err = r0_file_head(path, &h);

	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(-err));
		return 1;
	}
	if (h.kind == R0_HEAD_JSON && ((h.line_object && !strcmp(h.schema, R0_SWEEP_SCHEMA)) ||
				       (!sweep_only && !strcmp(h.schema, R0_BENCH_SCHEMA)))) {
		*is_sweep = !strcmp(h.schema, R0_SWEEP_SCHEMA);
		if (h.size_bytes <= R0_PREDICT_MAX_INPUT_BYTES)
			return 0;
		fprintf(stderr, PROG ": %s: %llu MiB, more than any result file (%u MiB at most)\n", path,
			(unsigned long long)(h.size_bytes >> 20), (unsigned)(R0_PREDICT_MAX_INPUT_BYTES >> 20));
		return 1;
	}
	if (h.kind == R0_HEAD_MISSING) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(ENOENT));
		return 1;
	}
	r0_file_head_describe(&h, words, sizeof(words));
	fprintf(stderr, PROG ": %s: not %s but %s\n", path,
		sweep_only ? "an r0sweep file (its first line an " R0_SWEEP_SCHEMA " record)" :
		"a result r0predict reads (r0bench --json output, " R0_BENCH_SCHEMA ", or an r0sweep file, "
		"its first line an " R0_SWEEP_SCHEMA " record)", words);
	return 1;
}

static int add_count(const char *s, void *arg)
{
	unsigned n;

	if (r0_parse_uint(s, R0_MAX_MEMBERS, &n) || !n)
		return -EINVAL;
	((bool *)arg)[n] = true;
	return 0;
}

static bool has_chunk(const struct opts *o, uint32_t chunk)
{
	for (size_t i = 0; i < o->n_chunks; i++)
		if (o->chunks[i] == chunk)
			return true;
	return false;
}

static int add_chunk(const char *s, void *arg)
{
	struct opts *o = arg;
	uint32_t c;

	if (r0_parse_chunk(s, R0_BACKEND_MD, &c))
		return -EINVAL;
	/* a chunk named twice is one chunk, as -m 2,2 is one count: each cell predicted once */
	if (has_chunk(o, c))
		return 0;
	if (o->n_chunks == MAX_CHUNKS)
		return -EINVAL;
	o->chunks[o->n_chunks++] = c;
	return 0;
}

/*
 * --layer-cost: a time per bio, into the model's nanoseconds (a double). At
 * most 10 ms, a slow disk's whole request: md and dm cost microseconds, and
 * a bare "2" (seconds) predicted 0.00x everywhere with exit 0.
 */
static int opt_layer(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	uint64_t ns;

	if (r0_cli_opt_duration(prog, "--layer-cost", arg, 0, 10 * 1000 * 1000, &ns,
				"a time per bio from 0 to 10ms, e.g. 2us (a bare number is seconds)"))
		return R0_EXIT_USAGE;
	*(double *)o->dest = (double)ns;
	return 0;
}

/* a whole number MIN..MAX (r0_parse_uint's: no sign, blank, hex or exponent) into a double */
static int opt_positive(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	char opt[64];
	unsigned v;

	snprintf(opt, sizeof(opt), "--%s", o->name);
	if (r0_cli_opt_uint(prog, opt, arg, (unsigned)o->min, o->max, &v, "%s", o->why))
		return R0_EXIT_USAGE;
	*(double *)o->dest = v;
	return 0;
}

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .head = usage_head, .tail = usage_tail,
				   .retired = "b--backend c--chunks o--output" };

/*
 * The RESULTs named, each checked, then loaded into IN (an r0sweep file
 * damaged inside, or runs read twice, refused before any is used). 0, or
 * -1 after saying why.
 */
static int load_inputs(int argc, char **argv, struct r0_predict_input *in, struct sweep_in *sweeps)
{
	struct r0_run_set read = { 0 };
	bool is_sweep = false;
	int err = 0;

	sweeps->set = &read;
	for (int i = optind; i < argc && !err; i++) {
		err = -1;
		if (check_input(argv[i], false, &is_sweep) ||
		    (is_sweep && sweep_in_read(PROG, sweeps, argv[i], "cannot read: not an r0sweep/1 file")))
			break;
		err = r0_predict_input_load(in, argv[i]);
		if (err == -EXDEV)
			fprintf(stderr, PROG ": %s: another drive than the first r0bench grid given, another %s: "
				"the grids of one drive only (predict each drive on its own)\n", argv[i], in->drive_diff);
		else if (err)
			fprintf(stderr, PROG ": %s: cannot read: %s\n", argv[i],
				err == -EINVAL ? "neither r0bench/1 JSON nor an r0sweep/1 file" :
				err == -E2BIG ? "more than 64 workloads" : strerror(-err));
	}
	sweep_in_free(sweeps);
	sweeps->set = NULL;
	r0_run_set_free(&read);
	if (err)
		return -1;
	if (!in->curve.n) {
		fprintf(stderr, PROG ": %s: no single-drive read or write result in it\n", argv[argc - 1]);
		return -1;
	}
	return 0;
}

/* Without -m or -c: the counts and chunks of the study compared with (MEAS), else the defaults. */
static void arrays_default(struct opts *o, const struct r0_run_set *meas, bool members_given, bool chunks_given)
{
	for (size_t i = 0; i < meas->n; i++)
		if (meas->recs[i].layer != R0_LAYER_RAW) {
			o->members[meas->recs[i].n_members] |= !members_given;
			if (!chunks_given && !has_chunk(o, meas->recs[i].chunk_bytes) && o->n_chunks < MAX_CHUNKS)
				o->chunks[o->n_chunks++] = meas->recs[i].chunk_bytes;
		}
	if (!members_given && !meas->n)
		r0_cli_each_item("2,3,4", add_count, o->members);
	if (!chunks_given && !meas->n)
		r0_cli_each_item(R0_DEFAULT_CHUNKS, add_chunk, o);
}

/* The options main reads besides those of struct opts, as given. */
struct args {
	const char *members, *chunks, *backend, *preset, *cmp, *output;
};

/* The command line into O, A and SWEEPS, each value checked: 0, or the usage error's exit status. */
static int read_options(int argc, char **argv, struct opts *o, struct args *a, struct sweep_in *sweeps)
{
	bool cap_given = false;
	const struct r0_cli_opt opts[] = {
		{ "members", 'm', R0_CLI_STRING, R0_CLI_TO(a->members), .arg = "LIST",
		  .help = "member counts (default 2,3,4; with --compare the compared study's)" },
		{ "chunks", OPT_CHUNKS, R0_CLI_STRING, R0_CLI_TO(a->chunks), .arg = "LIST",
		  .help = "chunk sizes (default " R0_DEFAULT_CHUNKS "; with --compare the compared study's)" },
		{ "backend", OPT_BACKEND, R0_CLI_STRING, R0_CLI_TO(a->backend), .arg = "LIST", .def = "md,dm",
		  .help = "md, dm or md,dm" },
		{ "preset", 'p', R0_CLI_STRING, R0_CLI_TO(a->preset), .arg = "NAME",
		  .help = "predict that preset's workloads (default: the workloads in RESULT)" },
		{ "layer-cost", OPT_LAYER, R0_CLI_CALL, R0_CLI_TO(o->model.layer_ns), .call = opt_layer, .arg = "TIME",
		  .help = "per-request cost of md/dm (default: 1-member stripe minus raw at QD1 in an r0sweep "
			  "RESULT, else 2us, a guess for a current x86 CPU)" },
		{ "cpu-iops", OPT_CPU, R0_CLI_CALL, R0_CLI_TO(o->model.model.cpu_max_iops), .call = opt_positive,
		  .min = 1, .max = 1000000000, .why = "a whole number of IOPS from 1 to 1000000000, e.g. 200000",
		  .arg = "N", .help = "at most N IOPS through the array (a CPU ceiling), 1 to 10^9" },
		{ "shared-cap", OPT_SHARED, R0_CLI_DOUBLE, .dest = &o->model.model.shared_cap_bytes_per_s,
		  .dmin = R0_PREDICT_SHARED_CAP_MIN / 1e6, .dmax = 1000000, .why = "MB/s from 1 to 1000000, e.g. 550",
		  .given = &cap_given, .arg = "MBPS",
		  .help = "at most MBPS MB/s (10^6) in total, 1 to 10^6: a shared link or controller" },
		{ "compare", OPT_COMPARE, R0_CLI_STRING, R0_CLI_TO(a->cmp), .arg = "FILE",
		  .help = "predict FILE's workloads (unless --preset) and compare with its measured md/dm cells: the "
			  "error per workload on stderr, and whether the chunk the verdict picks (desktop mix) is in "
			  "its tied set" },
		{ "table", OPT_TABLE, R0_CLI_SET, R0_CLI_TO(o->table), .help = "a human table instead of JSON lines" },
		{ "output", OPT_OUTPUT, R0_CLI_STRING, R0_CLI_TO(a->output), .arg = "FILE",
		  .help = "write there instead of stdout: whole, once every prediction is written; left as it "
			  "was when nothing is predicted or the prediction fails" },
		{ "skip-damaged", OPT_SKIP_DAMAGED, R0_CLI_SET, R0_CLI_TO(sweeps->skip_damaged),
		  .help = "read an r0sweep file with damaged lines inside (refused without it) from the lines that "
			  "can be read, saying how many were skipped; a last line cut mid-write is skipped and said "
			  "without it" },
		{ 0 },
	};

	r0_cli_parse(&cli, opts, argc, argv);
	if (cap_given)   /* MB/s */
		o->model.model.shared_cap_bytes_per_s *= 1e6;
	if (optind == argc)
		return r0_cli_usage_error(PROG, "name a RESULT (r0bench --json output or an r0sweep file)");
	if (a->members && r0_cli_each_item(a->members, add_count, o->members))
		return r0_cli_usage_error(PROG, "--members '%s': counts from 1 to %d, e.g. 2,3,4", a->members,
					  R0_MAX_MEMBERS);
	if (a->chunks && r0_cli_each_item(a->chunks, add_chunk, o))
		return r0_cli_usage_error(PROG, "--chunks '%s': powers of two from 4K to 1G, at most %d, e.g. 64K,512K",
					  a->chunks, MAX_CHUNKS);
	if (r0_cli_each_item(a->backend, r0_cli_add_backend, o->backends))
		return r0_cli_usage_error(PROG, "--backend '%s': md, dm or md,dm", a->backend);
	if (a->preset && (!r0_preset_find(a->preset) || r0_preset_is_fs(r0_preset_find(a->preset)))) {
		char names[256];

		r0_preset_names(true, names, sizeof(names));
		return r0_cli_usage_error(PROG, "--preset '%s': %suse %s", a->preset, r0_preset_find(a->preset) ?
					  "work through a file system is timed, not predicted; " : "", names);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct r0_predict_input in;
	struct doubts doubts = { 0 };
	struct opts o = { .model.layer_ns = -1, .doubts = &doubts };
	struct r0_run_set pred = { 0 }, meas = { 0 };
	struct sweep_in sweeps = { 0 }, measin = { .set = &meas };
	struct args a = { .backend = "md,dm" };
	bool is_sweep = false;
	FILE *f = stdout;
	char tmp[PATH_MAX] = "";
	int err = 0, status = R0_EXIT_OK;

	if ((err = read_options(argc, argv, &o, &a, &sweeps)))
		return err;
	measin.skip_damaged = sweeps.skip_damaged;
	for (int i = optind; i <= argc; i++)   /* the study replaced by its prediction */
		if ((err = r0_cli_refuse_output_over(PROG, "--output", a.output, &(struct r0_cli_file){
				i < argc ? "the input" : "--compare's file", i < argc ? argv[i] : a.cmp }, 1)))
			return err;
	if (load_inputs(argc, argv, &in, &sweeps))
		return R0_EXIT_REFUSED;
	if (a.cmp && check_input(a.cmp, true, &is_sweep))
		return R0_EXIT_REFUSED;
	if (a.cmp && sweep_in_read(PROG, &measin, a.cmp, "cannot read: not an r0sweep/1 file"))
		return R0_EXIT_REFUSED;
	sweep_in_free(&measin);
	arrays_default(&o, &meas, a.members != NULL, a.chunks != NULL);
	if (a.preset)
		err = r0_predict_input_use_preset(&in, r0_preset_find(a.preset));
	else if (a.cmp)
		err = r0_predict_input_use_set(&in, &meas);
	if (err) {
		fprintf(stderr, PROG ": %s: more than 64 workloads\n", a.preset ? a.preset : a.cmp);
		return R0_EXIT_REFUSED;
	}
	if (a.output && !(f = r0_cli_output_open(a.output, tmp, sizeof(tmp)))) {
		fprintf(stderr, PROG ": %s: cannot write: %s\n", a.output, strerror(errno));
		return R0_EXIT_REFUSED;
	}
	o.meas = a.cmp ? &meas : NULL;
	err = predict_all(&in, argv[argc - 1], &o, f, &pred);
	doubts_print(&doubts);
	if (err) {
		fprintf(stderr, PROG ": predicting: %s\n", strerror(-err));
		status = R0_EXIT_FAILURE;
	} else if (!arrays_in(&pred)) {
		/* only the single drive itself, or nothing: the input cannot decide any array */
		fprintf(stderr, PROG ": %s: nothing predicted\n", argv[argc - 1]);
		status = R0_EXIT_NOT_CONCLUSIVE;
	}
	free(doubts.v);
	if (!err && a.cmp && compare(&pred, &meas, a.cmp))
		status = R0_EXIT_FAILURE;
	if (a.output && fclose(f)) {
		fprintf(stderr, PROG ": %s: cannot write: %s\n", a.output, strerror(errno));
		status = R0_EXIT_FAILURE;
	}
	/* FILE whole or as it was: predictions that failed, or that predict no array, leave it alone */
	if (a.output && tmp[0]) {
		if (status != R0_EXIT_OK)
			unlink(tmp);
		else if (rename(tmp, a.output)) {
			fprintf(stderr, PROG ": %s: cannot write: %s\n", a.output, strerror(errno));
			unlink(tmp);
			status = R0_EXIT_FAILURE;
		}
	}
	r0_run_set_free(&pred);
	r0_run_set_free(&meas);
	r0_predict_input_free(&in);
	if (r0_cli_close_stdout(PROG))
		return R0_EXIT_FAILURE;
	return status;
}
