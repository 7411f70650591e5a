// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep: single drive vs md/dm stripes x chunk sizes x workloads, one result line per cell. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"
#include "consent.h"
#include "mixarg.h"
#include "sweep/sweep.h"

#include "r0/array.h"
#include "r0/calibrate.h"
#include "r0/everyday.h"
#include "r0/jsonlappend.h"
#include "r0/geometry.h"
#include "r0/mix.h"
#include "r0/preset.h"
#include "r0/replay.h"
#include "r0/safety.h"
#include "r0/size.h"

#define STR_(x) #x
#define STR(x) STR_(x)

enum {
	OPT_BACKEND = CHAR_MAX + 1, OPT_CHUNKS, OPT_MEMBERS, OPT_QD, OPT_REPEATS, OPT_RAMP, OPT_REGION,
	OPT_STATE, OPT_DESCRIBE, OPT_MIX, OPT_RESUME, OPT_NO_STRADDLE, OPT_SINGLE_CHUNKS,
	OPT_READ_ONLY, OPT_WORKLOADS, OPT_NO_PRECONDITION, OPT_THRESHOLD, OPT_OUTPUT, OPT_BUDGET,
	OPT_MAX_REPEATS, OPT_EVERY_TARGET, OPT_MIN_RUNTIME, OPT_REPLAY, OPT_REPLAY_SKIP, OPT_REPLAY_SCALE, OPT_REPLAY_DISCARDS, OPT_DRIVE_GAIN,
	OPT_CALIBRATE, OPT_COPIES,
};

/* --state: the array's state, a short word */
static int opt_state(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	if (!*arg || strlen(arg) >= o->width)
		return r0_cli_usage_error(prog, "--state '%s': 1 to %zu characters", arg, o->width - 1);
	snprintf(o->dest, o->width, "%s", arg);
	return 0;
}

/* --budget: a study's length is minutes or hours, so a bare number (seconds elsewhere) is not guessed at */
static int opt_budget(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	if (arg[0] && arg[strspn(arg, "0123456789.")] == '\0' && strspn(arg, "0.") != strlen(arg))
		return r0_cli_usage_error(prog, "--budget '%s': give a unit, e.g. %sm, 2h or %ss (0: none)", arg, arg,
					  arg);
	return r0_cli_opt_duration(prog, "--budget", arg, 0, UINT64_MAX, o->dest, "a time of at most 10^7 s (115 days), e.g. 30m or 2h; 0: none");
}

static const char usage_head[] =
	"Usage:\n"
	"  " PROG " --output FILE [options] DEV DEV...\n"
	"\n"
	"The study: the first member alone (raw, no array), then md raid0 and\n"
	"dm-stripe arrays over the first n members at each chunk size, each\n"
	"measured with every workload, repeated; each repeat visits the targets\n"
	"in its own seeded order. By default the study plans itself into its\n"
	"budget (30 min): every cell 3 times, then more repeats (5, 8) only where\n"
	"a comparison that decides an answer is still undecided; the largest\n"
	"arrays on the first back end at every chunk, then only the chunks left\n"
	"in the running on the other back end and at fewer members. At the end\n"
	"it says what it left undecided or unmeasured, and why.\n"
	"First every member's test region is written once (preconditioning).\n"
	"Each array is built, measured and removed before the next (also on an\n"
	"error or a signal). Every finished cell (one workload, one repeat, one\n"
	"target) is appended to FILE as a JSON line (schema " R0_SWEEP_SCHEMA ", see\n"
	"r0sweep(1)); at the end the analysis and the verdict are printed and\n"
	"appended too.\n"
	"THE MEMBERS' DATA IS DESTROYED: the write tests write all over them.\n"
	"It first shows the plan (each device, what is written, how long it\n"
	"takes) and asks; --read-only writes nothing and asks nothing.\n";

static const char usage_tail[] =
	"Members may be disks or partitions, named any way (/dev/disk/by-id/...).\n"
	"Members that are mounted, have a mounted partition, are held by another\n"
	"device, or cannot be opened exclusively are always refused. Needs root\n"
	"and the md_mod, raid0 and dm_mod modules.\n"
	"Exit status: 0 done, 1 failure (also an interrupted sweep or I/O errors),\n"
	"2 usage or refused before anything was touched (a member in use, a trace\n"
	"it cannot replay, no yes, no terminal to ask and no --yes).\n";

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .head = usage_head, .tail = usage_tail, .retired = "o--output" };

/* What r0sweep's options say beside the study itself (struct sweep). */
struct options {
	const struct r0_preset *presets[MAX_PRESETS + 1];
	const char *output, *describe, *backend, *chunks, *counts, *single, *preset, *qd, *mixs;
	const char *only, *replay, *replay_skip;
	unsigned skip_mask;
	double replay_scale;        /* --replay-scale X: the replay paced, X times the recorded speed */
	bool scale_given, replay_discards;
	bool resume, force, straddle, read_only, state_given;
	bool repeats_given, every_target, min_runtime_given, budget_given;
	bool calibrate, runtime_given, qd_given;
	struct sweep_chunk_list cl;
	size_t n_presets;
	struct r0_mix mix;
	char mixdesc[1024];
	struct r0_cmp_opts cmp;
	struct r0_consent consent;
};

/*
 * --calibrate: the raw first member and COPIES copies of md 64K over all
 * the members, the cdm3 set at QD 1 and 32 (reads only with --read-only),
 * under the mix. The passes are set once the members are known
 * (calibration_passes). -1, or the exit status after saying why not.
 */
static int calibration_plan(struct sweep *sw, struct options *o)
{
	static const unsigned qds[] = { 1, 32 };
	const struct r0_preset *cdm3[] = { r0_preset_find("cdm3") };

	if (sw->n_members > R0_MAX_MEMBERS)
		return r0_cli_usage_error(PROG, "at most %d members", R0_MAX_MEMBERS);
	/* short cells: a few minutes hold three passes or more */
	if (!o->runtime_given)
		sw->runtime_ns = 1000000000ULL;
	if (!o->min_runtime_given)
		sw->min_runtime_ns = 0;
	if (sw->min_runtime_ns > sw->runtime_ns)
		return r0_cli_usage_error(PROG, "--min-runtime is above --runtime, the most a test runs");
	if (!o->budget_given)
		sw->budget_ns = R0_CALIB_DEFAULT_BUDGET_NS;
	if (!sw->budget_ns)
		return r0_cli_usage_error(PROG, "--calibrate: give a budget (--budget 5m): it sets the passes");
	sw->calibrate = true;
	sw->adaptive = false;
	sw->chunks[0] = sw->single_chunks[0] = R0_CALIB_CHUNK_BYTES;
	sw->n_chunks = sw->n_single = 1;
	sw->backend[R0_BACKEND_MD] = true;
	if (!cdm3[0] || r0_sweep_plan_workloads(&sw->plan, cdm3, 1, qds, 2, false, o->read_only) ||
	    r0_sweep_plan_copies(&sw->plan, sw->n_members, R0_CALIB_CHUNK_BYTES, sw->copies))
		return r0_cli_usage_error(PROG, "--calibrate: no plan");
	if (!o->mixs)
		o->mixs = "desktop";
	if (r0_cli_mix(PROG, "--mix", o->mixs, &o->mix, o->mixdesc, sizeof(o->mixdesc)))
		return R0_EXIT_USAGE;
	return -1;
}

/*
 * The plan from the options: members, back ends, chunks, counts,
 * workloads, the mix and the targets. -1, or the exit status after saying
 * what is wrong (nothing touched yet).
 */
static int plan_from_options(struct sweep *sw, struct options *o, int argc, char **argv)
{
	int rc;

	if (!o->output)
		return r0_cli_usage_error(PROG, "--output FILE is required");
	sw->n_members = (unsigned)(argc - optind);
	sw->members = argv + optind;
	if (sw->n_members < 2)
		return r0_cli_usage_error(PROG, "name 2 or more member devices");
	if (o->calibrate)
		return calibration_plan(sw, o);
	/* a test ends when steady, from 1 s on, where it has room to (not in a short demo's tests) */
	if (!o->min_runtime_given)
		sw->min_runtime_ns = sw->runtime_ns >= 2 * R0_SWEEP_DEFAULT_MIN_RUNTIME_NS ?
				    R0_SWEEP_DEFAULT_MIN_RUNTIME_NS : 0;
	if (sw->min_runtime_ns > sw->runtime_ns)
		return r0_cli_usage_error(PROG, "--min-runtime is above --runtime, the most a test runs");
	if (sw->n_members > R0_MAX_MEMBERS)
		return r0_cli_usage_error(PROG, "at most %d members", R0_MAX_MEMBERS);
	if (r0_cli_each_item(o->backend, r0_cli_add_backend, sw->backend))
		return r0_cli_usage_error(PROG, "--backend '%s': md, dm or md,dm", o->backend);
	o->cl = (struct sweep_chunk_list){ sw->chunks, &sw->n_chunks };
	if (r0_cli_each_item(o->chunks, sweep_add_chunk, &o->cl))
		return r0_cli_usage_error(PROG, "--chunks '%s': at most %d powers of two from 4K to 1G, e.g. 64K,512K", o->chunks, MAX_CHUNKS);
	o->cl = (struct sweep_chunk_list){ sw->single_chunks, &sw->n_single };
	if (o->single && r0_cli_each_item(o->single, sweep_add_chunk, &o->cl))
		return r0_cli_usage_error(PROG, "--single-chunks '%s': at most %d powers of two from 4K to 1G", o->single, MAX_CHUNKS);
	if (!o->single) {
		/* one chunk measures the layer's own cost: mdadm's default where it is in the list */
		sw->single_chunks[0] = sw->chunks[0];
		for (size_t i = 0; i < sw->n_chunks; i++)
			if (sw->chunks[i] == R0_MDADM_CHUNK_BYTES)
				sw->single_chunks[0] = sw->chunks[i];
		sw->n_single = 1;
	}
	/* --repeats N: the fixed plan, N of every cell; else repeats where they decide something */
	sw->adaptive = !o->repeats_given && !o->every_target;
	if (o->every_target && !o->repeats_given)
		sw->repeats = R0_SWEEP_DEFAULT_REPEATS;
	if (sw->adaptive && sw->max_repeats < sw->repeats)
		return r0_cli_usage_error(PROG, "--max-repeats %u is below the first look's %u repeats",
					  sw->max_repeats, sw->repeats);
	if (o->counts) {
		if (r0_cli_each_item(o->counts, sweep_add_count, sw->count))
			return r0_cli_usage_error(PROG, "--members '%s': counts from 1 to %d", o->counts, R0_MAX_MEMBERS);
		for (unsigned n = sw->n_members + 1; n <= R0_MAX_MEMBERS; n++)
			if (sw->count[n])
				return r0_cli_usage_error(PROG, "--members: %u, but only %u devices given", n, sw->n_members);
	} else {
		for (unsigned n = 1; n <= sw->n_members; n++)
			sw->count[n] = true;
	}
	/* an option whose targets or tests are not in the study would be ignored: refused */
	if (o->single && !sw->count[1])
		return r0_cli_usage_error(PROG, "--single-chunks are the chunks of the 1-member stripes: --members "
					  "'%s' has no 1", o->counts);
	if (r0_cli_each_item(o->preset, sweep_add_preset, o->presets))
		return r0_cli_usage_error(PROG, "--preset '%s': cdm, cdm3, cdm-nvme, everyday or everyday-xfs, comma "
					  "separated, at most %d", o->preset, MAX_PRESETS);
	if (r0_cli_each_item(o->qd, sweep_add_qd, sw))
		return r0_cli_usage_error(PROG, "--qd '%s': at most %d queue depths from 1 to %u, e.g. 1,32", o->qd, MAX_QDS, R0_QD_MAX);
	bool block_tests = false;

	for (o->n_presets = 0; o->presets[o->n_presets]; o->n_presets++)
		for (size_t i = 0; i < o->presets[o->n_presets]->n_tests; i++) {
			if (o->read_only && o->presets[o->n_presets]->tests[i].w.access == R0_ACCESS_FS)
				return r0_cli_usage_error(PROG, "--preset %s with --read-only: its scenarios make a "
							  "file system on each target", o->presets[o->n_presets]->name);
			block_tests |= o->presets[o->n_presets]->tests[i].w.access != R0_ACCESS_FS;
		}
	if (!block_tests && (o->qd_given || !o->straddle))
		return r0_cli_usage_error(PROG, "%s shapes the block tests: --preset '%s' has none (everyday work "
					  "goes through a file system)", o->qd_given ? "--qd" : "--no-straddle", o->preset);
	if (r0_sweep_plan_workloads(&sw->plan, o->presets, o->n_presets, sw->qds, sw->n_qds, o->straddle, o->read_only))
		return r0_cli_usage_error(PROG, "more than %d workloads: choose fewer presets or depths",
					  R0_SWEEP_MAX_WL);
	if (o->replay_skip && r0_replay_skip_parse(o->replay_skip, &o->skip_mask))
		return r0_cli_usage_error(PROG, "--replay-skip takes reads, writes, flushes (comma-separated)");
	if (o->replay && (rc = sweep_add_replay(sw, o->replay, o->skip_mask, o->read_only,
						o->scale_given ? o->replay_scale : 0, o->replay_discards)) >= 0)
		return rc;
	if (o->only && sweep_keep_only(sw, o->only))
		return R0_EXIT_USAGE;
	if (!sw->plan.n_wl)
		return r0_cli_usage_error(PROG, "no workload left to run");
	/* a study of everyday work or of a replay alone is judged by it, unless told otherwise */
	if (!o->mixs) {
		enum r0_access acc[R0_SWEEP_MAX_WL];

		for (size_t i = 0; i < sw->plan.n_wl; i++)
			acc[i] = sw->plan.wl[i].w.access;
		o->mixs = r0_mix_default(acc, sw->plan.n_wl);
	}
	if (r0_cli_mix(PROG, "--mix", o->mixs, &o->mix, o->mixdesc, sizeof(o->mixdesc)))
		return R0_EXIT_USAGE;
	{
		/* the mix's keys held to the study's workloads before anything is measured */
		static struct r0_run wl[R0_SWEEP_MAX_WL];

		for (size_t i = 0; i < sw->plan.n_wl; i++) {
			const struct r0_workload *w = &sw->plan.wl[i].w;

			wl[i] = (struct r0_run){ .access = w->access, .read_pct = w->read_pct,
						       .block_bytes = w->block_bytes, .align_bytes = w->align_bytes,
						       .queue_depth = w->queue_depth, .jobs = w->jobs ? w->jobs : 1 };
			snprintf(wl[i].label, sizeof(wl[i].label), "%s", sw->plan.wl[i].label);
		}
		if (r0_cli_mix_check(PROG, "--mix", o->mixs, &o->mix, wl, sw->plan.n_wl))
			return R0_EXIT_USAGE;
	}
	if (r0_sweep_plan_targets(&sw->plan, sw->backend, sw->n_members, sw->count, sw->chunks, sw->n_chunks,
				  sw->single_chunks, sw->n_single))
		return r0_cli_usage_error(PROG, "more than %d arrays: choose fewer chunks or member counts",
					  R0_SWEEP_MAX_TARGETS);

	return -1;
}

/*
 * Root, what a killed run left (--resume), every member's checks at once,
 * the everyday region, the state and the members' description. -1, or the
 * exit status after saying why not.
 */
static int check_members(struct sweep *sw, const struct options *o)
{
	int rc;

	/* --read-only writes nothing, ever: no preconditioning either */
	if (o->read_only)
		sw->precondition = false;
	sw->read_only = o->read_only;
	if (!o->consent.plan_only &&
	    (rc = r0_cli_need_root(PROG, "it builds md and dm arrays over the members")) >= 0)
		return rc;

	if (o->resume && !o->consent.plan_only)
		sweep_clear_killed(sw);
	/*
	 * every check before anything is touched, of every member: a user
	 * preparing a study hears of all the problems at once; a signature
	 * matters only to a writer
	 */
	{
		r0_member_why why[R0_MAX_MEMBERS];

		if (r0_members_check((const char *const *)sw->members, sw->n_members, o->force || o->read_only,
				     sw->chunks[0], sw->chk, why)) {
			for (unsigned i = 0; i < sw->n_members; i++)
				if (why[i][0])
					fprintf(stderr, PROG ": %s: %s\n", sw->members[i], why[i]);
			return R0_EXIT_REFUSED;
		}
	}
	if ((rc = sweep_check_region(sw)) >= 0 || (rc = sweep_check_everyday_region(sw)) >= 0)
		return rc;
	if (!o->state_given)
		sweep_state_from_records(sw);
	sweep_describe_members(sw, o->describe);
	return sw->calibrate ? sweep_calibration_passes(sw) : -1;
}

/*
 * The result file: a resumed one read and held to this study, a new one
 * empty; the study planned, shown and agreed to, the file opened. -1, or
 * the exit status.
 */
static int open_output(struct sweep *sw, struct options *o)
{
	bool cut = false;
	int err, rc;

	if (o->resume) {
		unsigned bad = 0;

		err = r0_sweep_load(o->output, &sw->done, &bad);
		if (err && err != -ENOENT) {
			fprintf(stderr, PROG ": %s: cannot resume: %s\n", o->output,
				err == -EINVAL ? "not an r0sweep result file" : strerror(-err));
			return R0_EXIT_REFUSED;
		}
		if (bad)
			fprintf(stderr, PROG ": %s: %u unreadable line%s skipped (measured again)\n", o->output, bad,
				bad == 1 ? "" : "s");
		if (sweep_check_resume(sw, o->output)) {
			r0_run_set_free(&sw->done);
			return R0_EXIT_REFUSED;
		}
	} else if (access(o->output, F_OK) == 0) {
		FILE *f = fopen(o->output, "r");
		int ch = f ? fgetc(f) : EOF;

		if (f)
			fclose(f);
		if (ch != EOF) {
			fprintf(stderr, PROG ": %s: exists and is not empty (use --resume, or another file)\n",
				o->output);
			return R0_EXIT_REFUSED;
		}
	}
	if (r0_study_init(&sw->study, &sw->plan, sw->adaptive, sw->repeats, sw->adaptive ? sw->max_repeats : sw->repeats,
			  &o->mix, &o->cmp, sw->adaptive ? (double)sw->budget_ns / 1e9 : 0, sweep_cell_seconds(sw))) {
		r0_run_set_free(&sw->done);
		return r0_cli_usage_error(PROG, "no plan: check --repeats and --max-repeats");
	}
	/* the first look's cells (every cell of a fixed plan), some maybe in a resumed file */
	sw->total = r0_planner_todo(&sw->study.planner);
	sw->skipped = sweep_first_look_in_file(sw);
	if ((rc = sweep_show_plan(sw, o->read_only, o->output, &o->consent)) >= 0) {
		r0_run_set_free(&sw->done);
		return rc;
	}
	if ((err = r0_jsonl_open_append(o->output, &sw->out, &cut))) {
		/* no array built yet: refused, as a bad --output */
		fprintf(stderr, PROG ": %s: %s\n", o->output, strerror(-err));
		r0_run_set_free(&sw->done);
		return R0_EXIT_REFUSED;
	}
	if (cut)
		fprintf(stderr, PROG ": %s: its last line, cut mid-write, removed from the file\n", o->output);
	return -1;
}

/* The study run and said: preconditioning, the passes, the verdict. The exit status. */
static int run(struct sweep *sw, struct options *o)
{
	int err = 0, status = R0_EXIT_OK;

	snprintf(sw->array_name, sizeof(sw->array_name), R0_SWEEP_ARRAY_PREFIX "%ld", (long)getpid());
	sw->tty = isatty(STDERR_FILENO);
	if (sw->adaptive) {
		char first[96], b[32] = "none";

		sweep_first_look_words(sw, first, sizeof(first));
		if (sw->budget_ns)
			r0_plan_bound((double)sw->budget_ns / 1e9, b, sizeof(b));
		fprintf(stderr, PROG ": first %s%s; then repeats where undecided, up to %u; budget %s\n", first,
			sw->skipped ? " (some already in the file)" : "", sw->max_repeats, b);
	} else if (sw->calibrate) {
		fprintf(stderr, PROG ": calibration: %zu targets (the first member alone, %u copies) x %zu workloads x %u "
			"passes = %zu cells; about %.0f min\n", sw->plan.n_targets, sw->copies, sw->plan.n_wl, sw->repeats,
			sw->total, (double)sw->total * sweep_cell_seconds(sw) / 60);
	} else {
		fprintf(stderr, PROG ": %zu targets x %zu workloads x %u repeats = %zu cells%s; about %.0f min\n",
			sw->plan.n_targets, sw->plan.n_wl, sw->repeats, sw->total,
			sw->skipped ? " (some already in the file)" : "",
			(double)(sw->total - sw->skipped) * sweep_cell_seconds(sw) / 60);
	}
	r0_cli_catch_stop_signals();
	clock_gettime(CLOCK_MONOTONIC, &sw->t0);
	/* the members' regions written once before any test; on a resume too,
	 * since the members may be new (the demo resumes on fresh null_blk
	 * members after a guest death, which would read unwritten blocks) */
	if (sw->precondition && sw->skipped < sw->total) {
		fprintf(stderr, PROG ": preconditioning: writing the first %.0f MiB of each member once\n",
			(double)sw->region_bytes / (1 << 20));
		err = sweep_precondition(sw);
	}
	/* look, run what the look asks for, look again: until decided, the last look or the budget */
	if (!err)
		err = sweep_run_study(sw);
	sw->budget_hit = sw->study.budget_hit;
	if (sw->tty)
		fputs("\r\033[K", stderr);
	if (err == -EINTR) {
		fprintf(stderr, PROG ": interrupted by a signal; %zu cells in %s, --resume goes on\n",
			sw->finished + sw->skipped, o->output);
		status = R0_EXIT_FAILURE;
	} else if (err) {
		fprintf(stderr, PROG ": stopped after %zu cells; they are in %s\n", sw->finished + sw->skipped,
			o->output);
		status = R0_EXIT_FAILURE;
	} else {
		fprintf(stderr, PROG ": %zu cells measured%s in %.0f s; results in %s\n", sw->finished,
			sw->skipped ? " (the rest were in the file)" : "", sweep_since(&sw->t0), o->output);
		/* a measured mix: what it was, on its own line before the verdict */
		if (o->mixdesc[0])
			printf("For %s:\n", o->mixdesc);
		sweep_print_plan_summary(sw);
		if (sw->calibrate ? sweep_finish_calibration(sw, o->output, &o->mix, &o->cmp) :
				    sweep_finish(sw, o->output, &o->mix, &o->cmp))
			status = R0_EXIT_FAILURE;
		if (sw->io_error_cells) {
			fprintf(stderr, PROG ": %zu cells had I/O errors (counted in their records)\n",
				sw->io_error_cells);
			status = R0_EXIT_FAILURE;
		}
	}
	if (fclose(sw->out)) {
		fprintf(stderr, PROG ": %s: %s\n", o->output, strerror(errno));
		status = R0_EXIT_FAILURE;
	}
	r0_run_set_free(&sw->done);
	sweep_free_replay(sw);
	if (r0_cli_close_stdout(PROG))
		status = R0_EXIT_FAILURE;
	return status;
}


int main(int argc, char **argv)
{
	static struct sweep sw;
	static struct options o = { .backend = "md,dm", .chunks = R0_DEFAULT_CHUNKS, .preset = "cdm3,cdm",
				    .qd = "1,4,32", .straddle = true };
	int rc;

	const char *fixed = "--budget and --max-repeats plan the adaptive study; --repeats and --every-target run a fixed plan";
	const struct r0_cli_opt opts[] = {
		{ "output", OPT_OUTPUT, R0_CLI_STRING, R0_CLI_TO(o.output), .arg = "FILE",
		  .help = "result file: a new or empty one (--resume: the one the study wrote, appended to)" },
		{ "resume", OPT_RESUME, R0_CLI_SET, R0_CLI_TO(o.resume), .help = "skip the cells FILE already holds "
		  "(refused when FILE was measured with another region, runtime, ramp, min-runtime, state, "
		  "preconditioning or other devices)" },
		{ "backend", OPT_BACKEND, R0_CLI_STRING, R0_CLI_TO(o.backend), .arg = "LIST", .help = "md, dm or md,dm",
		  .def = "md,dm" },
		{ "chunks", OPT_CHUNKS, R0_CLI_STRING, R0_CLI_TO(o.chunks), .arg = "LIST", .help = "chunk sizes, at most " STR(MAX_CHUNKS),
		  .def = R0_DEFAULT_CHUNKS },
		{ "members", OPT_MEMBERS, R0_CLI_STRING, R0_CLI_TO(o.counts), .arg = "LIST",
		  .help = "member counts; 1 measures the first member raw and as a 1-member stripe", .def = "1 up to all" },
		{ "single-chunks", OPT_SINGLE_CHUNKS, R0_CLI_STRING, R0_CLI_TO(o.single), .arg = "LIST",
		  .help = "chunks of the 1-member stripes: the layer's own cost", .def = "512K, or the first of --chunks without it" },
		{ "preset", 'p', R0_CLI_STRING, R0_CLI_TO(o.preset), .arg = "LIST", .def = "cdm3,cdm",
		  .help = "workload sets (r0bench --help has them); a workload in two sets runs once; everyday (ext4) and "
		  "everyday-xfs: a large copy, small files, an application start alone and in a copy, unpacking, timed "
		  "through a file system made over the region on each target (32M region at least; xfs 300M)" },
		{ "qd", OPT_QD, R0_CLI_STRING, R0_CLI_TO(o.qd), .given = &o.qd_given, .arg = "LIST",
		  .help = "queue depths of the small random tests, at most " STR(MAX_QDS), .def = "1,4,32" },
		{ "no-straddle", OPT_NO_STRADDLE, R0_CLI_CLEAR, R0_CLI_TO(o.straddle), .help = "without the "
		  "chunk-straddling test (512K random reads at 4K-aligned offsets, so most cross a chunk boundary)" },
		{ "read-only", OPT_READ_ONLY, R0_CLI_SET, R0_CLI_TO(o.read_only), .help = "only the read tests, nothing "
		  "written, ever (no preconditioning): reads see the drives' data as it is; a signature needs no --force" },
		{ "workloads", 'w', R0_CLI_STRING, R0_CLI_TO(o.only), .arg = "LIST",
		  .help = "only these, by name: \"Seq read,4K QD32 write\"" },
		{ "budget", OPT_BUDGET, R0_CLI_CALL, R0_CLI_TO(sw.budget_ns), .call = opt_budget, .given = &o.budget_given,
		  .arg = "TIME", .help = "plan the study into TIME, preconditioning included (0: no bound); nothing "
		  "starts that would end past it", .def = "30m, --calibrate 5m", .excludes = "repeats,every-target",
		  .excludes_why = fixed },
		{ "max-repeats", OPT_MAX_REPEATS, R0_CLI_UINT, R0_CLI_TO(sw.max_repeats), 3, 100, .why = "from 3 to 100",
		  .arg = "N", .help = "repeats of an undecided cell at most", .def = STR(R0_ADAPT_MAX_REPEATS),
		  .excludes = "repeats,every-target", .excludes_why = fixed },
		{ "repeats", 'r', R0_CLI_UINT, R0_CLI_TO(sw.repeats), 1, 100, .why = "from 1 to 100",
		  .given = &o.repeats_given, .arg = "N", .help = "a fixed plan instead: N repeats of every cell of every "
		  "target (below 3 every verdict is indicative)" },
		{ "every-target", OPT_EVERY_TARGET, R0_CLI_SET, R0_CLI_TO(o.every_target), .help = "a fixed plan of "
		  "every target at every chunk, " STR(R0_SWEEP_DEFAULT_REPEATS) " repeats (or --repeats); hours on real drives" },
		{ "runtime", 't', R0_CLI_DURATION, R0_CLI_TO(sw.runtime_ns), 1, UINT64_MAX, .arg = "TIME",
		  .why = "seconds above 0 and at most 10^7 (115 days), e.g. 5 or 0.5", .given = &o.runtime_given,
		  .help = "measured time per test at most (500ms, 2m)", .def = "3 s; --calibrate 1 s" },
		{ "ramp", OPT_RAMP, R0_CLI_DURATION, R0_CLI_TO(sw.ramp_ns), 0, UINT64_MAX, .why = "seconds, at most 10^7 (115 days), e.g. 1",
		  .arg = "TIME", .help = "unmeasured time before each test", .def = "0.5 s" },
		{ "min-runtime", OPT_MIN_RUNTIME, R0_CLI_DURATION, R0_CLI_TO(sw.min_runtime_ns), 0, UINT64_MAX,
		  .why = "seconds, at most 10^7 (115 days), e.g. 2 (0: off)", .given = &o.min_runtime_given, .arg = "TIME",
		  .help = "end a test once its rate is steady, not before TIME; --runtime is then its most",
		  .def = "1 s where --runtime is 2 s or more, else 0: off" },
		{ "region", OPT_REGION, R0_CLI_SIZE, R0_CLI_TO(sw.region_bytes), 1, UINT64_MAX, .why = "a size above 0",
		  .arg = "SIZE", .help = "test region (at most the target)", .def = "1G, CrystalDiskMark's" },
		{ "state", OPT_STATE, R0_CLI_CALL, R0_CLI_TO(sw.state), .call = opt_state, .given = &o.state_given,
		  .arg = "LABEL", .help = "the members' state, recorded",
		  .def = "the state of their r0age records when all agree, else empty" },
		{ "describe", OPT_DESCRIBE, R0_CLI_STRING, R0_CLI_TO(o.describe), .arg = "TEXT",
		  .help = "what the members are, recorded before their list" },
		{ "no-precondition", OPT_NO_PRECONDITION, R0_CLI_CLEAR, R0_CLI_TO(sw.precondition), .help = "do not "
		  "write every member's test region once before the first test (recorded as \"none\")" },
		{ "threshold", OPT_THRESHOLD, R0_CLI_CALL, R0_CLI_TO(o.cmp.threshold), .call = r0_cli_threshold,
		  .arg = "PCT", .help = "the smallest difference that counts", .def = "5" },
		{ "drive-gain", OPT_DRIVE_GAIN, R0_CLI_CALL, R0_CLI_TO(o.cmp.drive_gain), .call = r0_cli_drive_gain,
		  .arg = "X", .help = "what a drive must add over one fewer to be worth buying, by the worth-it rule, "
		  "from the drive after the fewest worth it (the 2nd drive: the worth-it bar)", .def = "1.2" },
		{ "mix", OPT_MIX, R0_CLI_STRING, R0_CLI_TO(o.mixs), .arg = "MIX", .help = "weights for the verdict: "
		  "desktop (default), database, sequential, everyday (default of -p everyday alone), replay (default of "
		  "a --replay alone), KEY=WEIGHT,... (see r0report(1)), or a mix file r0profile measured (r0mix/1)" },
		{ "replay", OPT_REPLAY, R0_CLI_STRING, R0_CLI_TO(o.replay), .arg = "TRACE", .help = "also replay TRACE "
		  "(r0profile --trace: your own I/O) on each target as fast as it allows, mapped onto the region; "
		  "workload \"replay NAME\", mix replay" },
		{ "replay-skip", OPT_REPLAY_SKIP, R0_CLI_STRING, R0_CLI_TO(o.replay_skip), .arg = "KINDS", .needs = "replay",
		  .help = "leave out the trace's reads, writes or flushes (comma-separated; fio's replay_skip)" },
		{ "replay-scale", OPT_REPLAY_SCALE, R0_CLI_DOUBLE, R0_CLI_TO(o.replay_scale), .dmin = 0.001, .dmax = 1000,
		  .why = "a speed factor from 0.001 to 1000 (2: twice as fast)", .given = &o.scale_given, .arg = "X",
		  .needs = "replay", .help = "pace the replay at X times the recorded speed (2 twice as fast, 0.5 half; "
		  "fio's replay_time_scale=200, 50); workload \"replay NAME xX\"" },
		{ "replay-discards", OPT_REPLAY_DISCARDS, R0_CLI_SET, R0_CLI_TO(o.replay_discards), .needs = "replay",
		  .help = "issue the trace's discards too (BLKDISCARD, one at a time; refused unless every member takes "
		  "them)" },
		{ "calibrate", OPT_CALIBRATE, R0_CLI_SET, R0_CLI_TO(o.calibrate), .help = "instead of a study, how noisy "
		  "this machine is (an A/A calibration): one md array of the members at 64K, built afresh at every visit "
		  "and measured as copies A, B, ... beside the first member alone, the cdm3 set at QD 1 and 32 in 1 s "
		  "cells, as many whole passes as --budget holds (at least 3); counts the differences the study's "
		  "statistics find between the copies and says whether the noise is within what the study was "
		  "validated for", .excludes = "backend,chunks,members,single-chunks,preset,qd,workloads,repeats,"
		  "every-target,max-repeats,replay,resume,no-straddle,drive-gain", .excludes_why = "--calibrate measures its own targets and "
		  "workloads" },
		{ "copies", OPT_COPIES, R0_CLI_UINT, R0_CLI_TO(sw.copies), R0_CALIB_MIN_COPIES, R0_CALIB_MAX_COPIES,
		  .why = "from 2 to 8", .arg = "K", .needs = "calibrate", .help = "the calibration's copies, 2 to 8",
		  .def = STR(R0_CALIB_DEFAULT_COPIES) },
		{ "force", 'f', R0_CLI_SET, R0_CLI_TO(o.force), .help = "accept members that hold a signature" },
		R0_CONSENT_OPTS(o.consent),
		{ 0 },
	};
	r0_cmp_defaults(&o.cmp);
	sw.precondition = true;
	sw.copies = R0_CALIB_DEFAULT_COPIES;
	sw.repeats = R0_ADAPT_MIN_REPEATS;
	sw.max_repeats = R0_ADAPT_MAX_REPEATS;
	sw.budget_ns = R0_SWEEP_DEFAULT_BUDGET_NS;
	sw.runtime_ns = R0_SWEEP_DEFAULT_RUNTIME_NS;
	sw.ramp_ns = R0_SWEEP_DEFAULT_RAMP_NS;
	sw.region_bytes = R0_CDM_REGION_BYTES;
	snprintf(sw.state, sizeof(sw.state), "empty");
	r0_cli_parse(&cli, opts, argc, argv);
	if ((rc = plan_from_options(&sw, &o, argc, argv)) >= 0 || (rc = check_members(&sw, &o)) >= 0 ||
	    (rc = open_output(&sw, &o)) >= 0)
		return rc;
	return run(&sw, &o);
}
