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
#include "r0/geometry.h"
#include "r0/mix.h"
#include "r0/preset.h"
#include "r0/replay.h"
#include "r0/safety.h"
#include "r0/size.h"

#define MAX_PRESETS 7

enum {
	OPT_BACKEND = CHAR_MAX + 1, OPT_CHUNKS, OPT_MEMBERS, OPT_QD, OPT_REPEATS, OPT_RAMP, OPT_REGION,
	OPT_STATE, OPT_DESCRIBE, OPT_MIX, OPT_RESUME, OPT_NO_STRADDLE, OPT_SINGLE_CHUNKS,
	OPT_READ_ONLY, OPT_WORKLOADS, OPT_NO_PRECONDITION, OPT_THRESHOLD, OPT_OUTPUT, OPT_BUDGET,
	OPT_MAX_REPEATS, OPT_EVERY_TARGET, OPT_MIN_RUNTIME, OPT_REPLAY, OPT_REPLAY_SKIP, OPT_REPLAY_SCALE, OPT_REPLAY_DISCARDS, OPT_DRIVE_GAIN,
	OPT_CALIBRATE, OPT_COPIES,
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

/* --workloads: drops every workload not named. */
static int keep_only(struct sweep *sw, const char *list)
{
	int err = r0_cli_each_item(list, find_name, sw);

	if (err == -EINVAL)
		r0_cli_usage_error(PROG, "--workloads '%s': names, comma separated", list);
	if (!err)
		r0_sweep_plan_keep(&sw->plan, sw->keep);
	return err;
}

/* --state: the array's state, a short word */
static int opt_state(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	if (!*arg || strlen(arg) >= o->width)
		return r0_cli_usage_error(prog, "--state: 1 to %zu characters", o->width - 1);
	snprintf(o->dest, o->width, "%s", arg);
	return 0;
}

/* --budget: a study's length is minutes or hours, so a bare number (seconds elsewhere) is not guessed at */
static int opt_budget(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	if (arg[0] && arg[strspn(arg, "0123456789.")] == '\0' && strspn(arg, "0.") != strlen(arg))
		return r0_cli_usage_error(prog, "--budget '%s': give a unit, e.g. %sm, 2h or %ss (0: none)", arg, arg,
					  arg);
	return r0_cli_opt_duration(prog, "--budget", arg, 0, UINT64_MAX, o->dest, "a time, e.g. 30m or 2h; 0: none");
}

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .usage = sweep_usage, .retired = "o--output" };

/* What r0sweep's options say beside the study itself (struct sweep). */
struct options {
	const struct r0_preset *presets[MAX_PRESETS + 1];
	const char *output, *describe, *backend, *chunks, *counts, *single, *preset, *qd, *mixs;
	const char *only, *replay, *replay_skip;
	unsigned skip_mask;
	double replay_scale;        /* --replay-scale X: the replay paced, X times the recorded speed */
	bool scale_given, replay_discards;
	bool resume, force, straddle, read_only, state_given;
	bool repeats_given, every_target, min_runtime_given, budget_given, max_repeats_given;
	bool calibrate, copies_given, runtime_given, backend_given, chunks_given, preset_given, qd_given;
	struct chunk_list cl;
	size_t n_presets;
	struct r0_mix mix;
	char mixdesc[1024];
	struct r0_cmp_opts cmp;
	struct r0_consent consent;
};

/* what --calibrate measures itself: the options that would choose it otherwise, or NULL */
static const char *calibration_conflict(const struct options *o)
{
	const struct { bool given; const char *name; } c[] = {
		{ o->backend_given, "--backend" }, { o->chunks_given, "--chunks" }, { o->counts != NULL, "--members" },
		{ o->single != NULL, "--single-chunks" }, { o->preset_given, "--preset" }, { o->qd_given, "--qd" },
		{ o->only != NULL, "--workloads" }, { o->repeats_given, "--repeats" }, { o->every_target, "--every-target" },
		{ o->max_repeats_given, "--max-repeats" }, { o->replay != NULL, "--replay" }, { o->resume, "--resume" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (c[i].given)
			return c[i].name;
	return NULL;
}

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
	const char *bad = calibration_conflict(o);

	if (bad)
		return r0_cli_usage_error(PROG, "--calibrate measures its own targets and workloads: %s does not go "
					  "with it", bad);
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
	if (r0_cli_mix(PROG, o->mixs, &o->mix, o->mixdesc, sizeof(o->mixdesc)))
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
	o->cl = (struct chunk_list){ sw->chunks, &sw->n_chunks };
	if (r0_cli_each_item(o->chunks, add_chunk, &o->cl))
		return r0_cli_usage_error(PROG, "--chunks '%s': powers of two from 4K to 1G, e.g. 64K,512K", o->chunks);
	o->cl = (struct chunk_list){ sw->single_chunks, &sw->n_single };
	if (o->single && r0_cli_each_item(o->single, add_chunk, &o->cl))
		return r0_cli_usage_error(PROG, "--single-chunks '%s': powers of two from 4K to 1G", o->single);
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
	if (!sw->adaptive && (o->budget_given || o->max_repeats_given))
		return r0_cli_usage_error(PROG, "--budget and --max-repeats plan the adaptive study; "
					  "--repeats and --every-target run a fixed plan");
	if (o->every_target && !o->repeats_given)
		sw->repeats = R0_SWEEP_DEFAULT_REPEATS;
	if (sw->adaptive && sw->max_repeats < sw->repeats)
		return r0_cli_usage_error(PROG, "--max-repeats %u is below the first look's %u repeats",
					  sw->max_repeats, sw->repeats);
	if (o->counts) {
		if (r0_cli_each_item(o->counts, add_count, sw->count))
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
	if (r0_cli_each_item(o->preset, add_preset, o->presets))
		return r0_cli_usage_error(PROG, "--preset '%s': cdm, cdm3, cdm-nvme, everyday or everyday-xfs, comma "
					  "separated, at most %d", o->preset, MAX_PRESETS);
	if (r0_cli_each_item(o->qd, add_qd, sw))
		return r0_cli_usage_error(PROG, "--qd '%s': queue depths from 1 to %u, e.g. 1,32", o->qd, R0_QD_MAX);
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
	if (o->replay_skip && !o->replay)
		return r0_cli_usage_error(PROG, "--replay-skip goes with --replay");
	if (o->replay_skip && r0_replay_skip_parse(o->replay_skip, &o->skip_mask))
		return r0_cli_usage_error(PROG, "--replay-skip takes reads, writes, flushes (comma-separated)");
	if ((o->scale_given || o->replay_discards) && !o->replay)
		return r0_cli_usage_error(PROG, "--replay-scale and --replay-discards go with --replay");
	if (o->replay && (rc = sweep_add_replay(sw, o->replay, o->skip_mask, o->read_only,
						o->scale_given ? o->replay_scale : 0, o->replay_discards)) >= 0)
		return rc;
	if (o->only && keep_only(sw, o->only))
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
	if (r0_cli_mix(PROG, o->mixs, &o->mix, o->mixdesc, sizeof(o->mixdesc)))
		return R0_EXIT_USAGE;
	{
		/* the mix's keys held to the study's workloads before anything is measured */
		static struct r0_sweep_rec wl[R0_SWEEP_MAX_WL];

		for (size_t i = 0; i < sw->plan.n_wl; i++) {
			const struct r0_workload *w = &sw->plan.wl[i].w;

			wl[i] = (struct r0_sweep_rec){ .access = w->access, .read_pct = w->read_pct,
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
	if ((rc = sweep_check_everyday_region(sw)) >= 0)
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
			r0_sweep_set_free(&sw->done);
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
		r0_sweep_set_free(&sw->done);
		return r0_cli_usage_error(PROG, "no plan: check --repeats and --max-repeats");
	}
	/* the first look's cells (every cell of a fixed plan), some maybe in a resumed file */
	sw->total = r0_planner_todo(&sw->study.planner);
	sw->skipped = sweep_first_look_in_file(sw);
	if ((rc = sweep_show_plan(sw, o->read_only, o->output, &o->consent)) >= 0) {
		r0_sweep_set_free(&sw->done);
		return rc;
	}
	sw->out = fopen(o->output, "ae");
	if (!sw->out) {
		/* no array built yet: refused, as a bad --output */
		fprintf(stderr, PROG ": %s: %s\n", o->output, strerror(errno));
		r0_sweep_set_free(&sw->done);
		return R0_EXIT_REFUSED;
	}
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
	r0_sweep_set_free(&sw->done);
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

	const struct r0_cli_opt opts[] = {
		{ "output", OPT_OUTPUT, R0_CLI_STRING, R0_CLI_TO(o.output) },
		{ "resume", OPT_RESUME, R0_CLI_SET, R0_CLI_TO(o.resume) },
		{ "calibrate", OPT_CALIBRATE, R0_CLI_SET, R0_CLI_TO(o.calibrate) },
		{ "copies", OPT_COPIES, R0_CLI_UINT, R0_CLI_TO(sw.copies), R0_CALIB_MIN_COPIES, R0_CALIB_MAX_COPIES,
		  .why = "from 2 to 8", .given = &o.copies_given },
		{ "backend", OPT_BACKEND, R0_CLI_STRING, R0_CLI_TO(o.backend), .given = &o.backend_given },
		{ "chunks", OPT_CHUNKS, R0_CLI_STRING, R0_CLI_TO(o.chunks), .given = &o.chunks_given },
		{ "members", OPT_MEMBERS, R0_CLI_STRING, R0_CLI_TO(o.counts) },
		{ "single-chunks", OPT_SINGLE_CHUNKS, R0_CLI_STRING, R0_CLI_TO(o.single) },
		{ "preset", 'p', R0_CLI_STRING, R0_CLI_TO(o.preset), .given = &o.preset_given },
		{ "qd", OPT_QD, R0_CLI_STRING, R0_CLI_TO(o.qd), .given = &o.qd_given },
		{ "no-straddle", OPT_NO_STRADDLE, R0_CLI_CLEAR, R0_CLI_TO(o.straddle) },
		{ "read-only", OPT_READ_ONLY, R0_CLI_SET, R0_CLI_TO(o.read_only) },
		{ "workloads", 'w', R0_CLI_STRING, R0_CLI_TO(o.only) },
		{ "repeats", 'r', R0_CLI_UINT, R0_CLI_TO(sw.repeats), 1, 100, .why = "from 1 to 100",
		  .given = &o.repeats_given },
		{ "max-repeats", OPT_MAX_REPEATS, R0_CLI_UINT, R0_CLI_TO(sw.max_repeats), 3, 100,
		  .why = "from 3 to 100", .given = &o.max_repeats_given },
		{ "budget", OPT_BUDGET, R0_CLI_CALL, R0_CLI_TO(sw.budget_ns), .call = opt_budget,
		  .given = &o.budget_given },
		{ "every-target", OPT_EVERY_TARGET, R0_CLI_SET, R0_CLI_TO(o.every_target) },
		{ "runtime", 't', R0_CLI_DURATION, R0_CLI_TO(sw.runtime_ns), 1, UINT64_MAX, .why = "seconds above 0, e.g. 5 or 0.5",
		  .given = &o.runtime_given },
		{ "ramp", OPT_RAMP, R0_CLI_DURATION, R0_CLI_TO(sw.ramp_ns), 0, UINT64_MAX, .why = "seconds, e.g. 1" },
		{ "min-runtime", OPT_MIN_RUNTIME, R0_CLI_DURATION, R0_CLI_TO(sw.min_runtime_ns), 0, UINT64_MAX, .why = "seconds, e.g. 2 (0: off)",
		  .given = &o.min_runtime_given },
		{ "region", OPT_REGION, R0_CLI_SIZE, R0_CLI_TO(sw.region_bytes), 1, UINT64_MAX, .why = "a size above 0" },
		{ "state", OPT_STATE, R0_CLI_CALL, R0_CLI_TO(sw.state), .call = opt_state, .given = &o.state_given },
		{ "describe", OPT_DESCRIBE, R0_CLI_STRING, R0_CLI_TO(o.describe) },
		{ "mix", OPT_MIX, R0_CLI_STRING, R0_CLI_TO(o.mixs) },
		{ "no-precondition", OPT_NO_PRECONDITION, R0_CLI_CLEAR, R0_CLI_TO(sw.precondition) },
		{ "threshold", OPT_THRESHOLD, R0_CLI_CALL, R0_CLI_TO(o.cmp.threshold), .call = r0_cli_threshold },
		{ "drive-gain", OPT_DRIVE_GAIN, R0_CLI_CALL, R0_CLI_TO(o.cmp.drive_gain), .call = r0_cli_drive_gain },
		{ "replay", OPT_REPLAY, R0_CLI_STRING, R0_CLI_TO(o.replay) },
		{ "replay-skip", OPT_REPLAY_SKIP, R0_CLI_STRING, R0_CLI_TO(o.replay_skip) },
		{ "replay-scale", OPT_REPLAY_SCALE, R0_CLI_DOUBLE, R0_CLI_TO(o.replay_scale), .dmin = 0.001, .dmax = 1000,
		  .why = "a speed factor from 0.001 to 1000 (2: twice as fast)", .given = &o.scale_given },
		{ "replay-discards", OPT_REPLAY_DISCARDS, R0_CLI_SET, R0_CLI_TO(o.replay_discards) },
		{ "force", 'f', R0_CLI_SET, R0_CLI_TO(o.force) },
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
	if (o.copies_given && !o.calibrate)
		return r0_cli_usage_error(PROG, "--copies goes with --calibrate");
	if ((rc = plan_from_options(&sw, &o, argc, argv)) >= 0 || (rc = check_members(&sw, &o)) >= 0 ||
	    (rc = open_output(&sw, &o)) >= 0)
		return rc;
	return run(&sw, &o);
}
