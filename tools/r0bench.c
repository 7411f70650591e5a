// SPDX-License-Identifier: GPL-2.0-or-later
/* r0bench: measure a block device or file with the io_uring engine. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cli.h"
#include "consent.h"

#include "r0/age.h"
#include "r0/engine.h"
#include "r0/preset.h"
#include "r0/replay.h"
#include "r0/safety.h"
#include "r0/size.h"


enum {
	OPT_RW = CHAR_MAX + 1, OPT_SHARED, OPT_OFFSET, OPT_SPAN, OPT_RAMP, OPT_MIX, OPT_ALIGN,
	OPT_COVER, OPT_SEED, OPT_VERIFY, OPT_PASS, OPT_CONTINUE, OPT_PASSES, OPT_WARMUP,
	OPT_REGION, OPT_JSON, OPT_REAP, OPT_STALL, OPT_READ_ONLY, OPT_HIPRI, OPT_SQPOLL, OPT_RING,
	OPT_BS, OPT_QD, OPT_MIN_RUNTIME, OPT_STEADY, OPT_REPLAY, OPT_REPLAY_PACE, OPT_REPLAY_SCALE, OPT_REPLAY_SKIP, OPT_REPLAY_DISCARDS,
};


/* --- options ---------------------------------------------------------- */

static int parse_rw(const char *s, struct r0_workload *w)
{
	static const struct {
		const char *name;
		enum r0_access access;
		int read_pct;   /* -1: rwmix */
		bool trim;
	} kinds[] = {
		{ "read", R0_ACCESS_SEQ, 100, false }, { "write", R0_ACCESS_SEQ, 0, false },
		{ "randread", R0_ACCESS_RAND, 100, false }, { "randwrite", R0_ACCESS_RAND, 0, false },
		{ "rw", R0_ACCESS_SEQ, -1, false }, { "readwrite", R0_ACCESS_SEQ, -1, false },
		{ "randrw", R0_ACCESS_RAND, -1, false },
		{ "trim", R0_ACCESS_SEQ, 0, true }, { "randtrim", R0_ACCESS_RAND, 0, true },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(s, kinds[i].name))
			continue;
		w->access = kinds[i].access;
		w->read_pct = kinds[i].read_pct < 0 ? 50 : (unsigned)kinds[i].read_pct;
		w->trim = kinds[i].trim;
		return kinds[i].read_pct < 0 ? 1 : 0;
	}
	return -EINVAL;
}

/* --rw: the workload's kind; a mix takes --rwmix-read after all options are read. */
struct rw_arg {
	struct r0_workload *w;
	bool mixed;
};

static int opt_rw(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	struct rw_arg *rw = o->dest;
	int err = parse_rw(arg, rw->w);

	if (err < 0)
		return r0_cli_usage_error(prog, "--rw '%s': use read, write, randread, randwrite, rw, randrw, trim or randtrim", arg);
	rw->mixed = err == 1;
	return 0;
}

static int opt_seed(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	if (r0_parse_seed(arg, o->dest))
		return r0_cli_usage_error(prog, "--seed '%s': not a number", arg);
	return 0;
}

static int opt_preset(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	const struct r0_preset **p = o->dest;
	char names[256];

	r0_preset_names(true, names, sizeof(names));
	if (!(*p = r0_preset_find(arg)))
		return r0_cli_usage_error(prog, "--preset '%s': use %s", arg, names);
	if (r0_preset_is_fs(*p))
		return r0_cli_usage_error(prog, "--preset '%s': everyday work is timed through a file system by "
					  "r0sweep -p %s; r0bench runs %s", arg, arg, names);
	return 0;
}

static bool writes(const struct r0_workload *w)
{
	return w->trim || w->read_pct < 100;
}

static int add_test(struct run *run, const char *label, const struct r0_workload *w)
{
	if (run->ntests == MAX_TESTS)
		return -ENOSPC;
	run->tests[run->ntests].label = label;
	run->tests[run->ntests].w = *w;
	run->ntests++;
	return 0;
}

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .usage = bench_usage, .retired = "b--bs q--qd" };

/* The plan of a run that writes to a block device: the device, the tests that write, the time. */
static int show_plan(const struct run *run, const char *path, bool any_writes, const struct r0_consent *c)
{
	double s = 0;
	char t[48];
	struct r0_plan p;
	bool first = true;

	if (r0_plan_begin(&p, PROG, any_writes ? "write tests that DESTROY THE DATA they cover on this target" :
			  "read tests only: nothing is written to this target"))
		return R0_EXIT_FAILURE;
	p.keeps_data = !any_writes;
	r0_plan_device(&p, path);
	fputs("  writes:", p.f);
	for (unsigned i = 0; i < run->ntests; i++) {
		const struct r0_workload *w = &run->tests[i].w;

		s += (double)(run->passes + run->warmup) *
		     (w->runtime_ns ? (double)(w->runtime_ns + w->ramp_ns) / 1e9 :
		      r0_plan_write_seconds(w->size_bytes ? w->size_bytes * w->jobs : w->span_bytes));
		if (!writes(w) && w->verify != R0_VERIFY_WRITE)
			continue;
		fprintf(p.f, "%s %s", first ? "" : ",", run->tests[i].label);
		first = false;
	}
	fputs(first ? " nothing\n" : " (from --offset over --span, or the preset's region)\n", p.f);
	r0_plan_duration(s, t, sizeof(t));
	fprintf(p.f, "  time: %s\n", t);
	return r0_plan_decide(&p, c);
}

/* The tests of PRESET with W's method (a --runtime or --size given overrides the preset's); whether any writes. */
static bool add_preset_tests(struct run *run, const struct r0_preset *preset, const struct r0_workload *w,
			     bool time_given, bool size_given, bool read_only)
{
	bool any_writes = false;

	for (size_t i = 0; i < preset->n_tests; i++) {
		struct r0_workload pw = preset->tests[i].w;

		pw.seed = w->seed;
		if (read_only && writes(&pw))
			continue;
		pw.runtime_ns = time_given ? w->runtime_ns : size_given ? 0 :
				preset->pass_ns ? preset->pass_ns : R0_CDM_PASS_NS;
		pw.size_bytes = w->size_bytes;
		pw.ramp_ns = w->ramp_ns;
		pw.offset_bytes = w->offset_bytes;
		pw.continue_on_error = w->continue_on_error;
		pw.reap_batch = w->reap_batch > pw.queue_depth ? pw.queue_depth : w->reap_batch;
		pw.hipri = w->hipri;
		pw.sqpoll = w->sqpoll;
		pw.ring = w->ring;
		pw.stall_ns = w->stall_ns;
		if (pw.runtime_ns) {
			pw.min_runtime_ns = w->min_runtime_ns;
			pw.steady = w->steady;
		}
		add_test(run, preset->tests[i].label, &pw);
		any_writes |= writes(&pw);
	}
	return any_writes;
}

/*
 * Safety before anything is opened for writing (--plan stops here in
 * every case), the plan and a yes for writes to a block device, then
 * PATH opened, the preset's region fitted to it and its state record
 * read. -1 to go on, or the exit status.
 */
static int open_target(struct run *run, const char *path, bool any_writes, bool force, bool preset,
		       const struct r0_consent *consent)
{
	struct r0_member_check chk;
	char why[512];
	struct stat st;
	bool block = !stat(path, &st) && S_ISBLK(st.st_mode);
	int err;

	if (any_writes && block && r0_write_check(path, force, &chk, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s: refusing to write: %s\n", path, why);
		return R0_EXIT_REFUSED;
	}
	for (unsigned i = 0; preset && i < run->ntests; i++)
		run->tests[i].w.span_bytes = run->region_bytes;
	/* a user's own file, or reads, need no yes; the plan is still shown when asked */
	if ((any_writes && block) || consent->plan_only) {
		struct r0_consent c = *consent;

		c.yes |= !(any_writes && block);
		if ((err = show_plan(run, path, any_writes, &c)) >= 0)
			return err;
	}
	err = r0_target_open(path, any_writes, &run->target);
	if (err) {
		fprintf(stderr, PROG ": %s: cannot open: %s\n", path,
			err == -ENOTBLK ? "not a block device or regular file" : strerror(-err));
		return R0_EXIT_REFUSED;
	}
	if (preset) {
		run->region_bytes = r0_test_region_bytes(run->region_bytes,
							 run->target.size_bytes - run->tests[0].w.offset_bytes);
		for (unsigned i = 0; i < run->ntests; i++)
			run->tests[i].w.span_bytes = run->region_bytes;
	}
	/* the state the target is in before this run: r0age's last record, if any */
	if (run->target.is_block) {
		err = r0_state_saved_load(run->target.devt, &run->state);
		if (err && err != -ENOENT)
			fprintf(stderr, PROG ": %s: ignoring its state record in " R0_STATE_DIR ": %s\n",
				path, err == -EINVAL ? "not an " R0_STATE_SCHEMA " record" : strerror(-err));
	}
	return -1;
}

/*
 * Every test's workload against the target; --hipri on one without poll
 * queues is refused before any I/O. -1 to go on, or the exit status.
 */
static int check_tests(struct run *run, const char *path, bool hipri)
{
	int err;

	for (unsigned i = 0; i < run->ntests; i++) {
		char why[256];

		err = r0_workload_check(&run->tests[i].w, &run->target, why, sizeof(why));
		if (!err && hipri && !run->tests[i].w.trim &&
		    r0_target_poll_check(&run->target, why, sizeof(why))) {
			/* no I/O yet: a target without poll queues is refused, not a failed run */
			fprintf(stderr, PROG ": %s: --hipri: %s\n", path, why);
			r0_target_close(&run->target);
			r0_state_saved_free(run->state);
			return R0_EXIT_REFUSED;
		}
		if (err) {
			r0_target_close(&run->target);
			r0_state_saved_free(run->state);
			return r0_cli_usage_error(PROG, "%s: %s", run->tests[i].label, why);
		}
	}
	return -1;
}

/* The tests run (SIGINT, SIGTERM and SIGHUP end them with what was measured), printed, freed. The exit status. */
static int run_tests(struct run *run, const char *path)
{
	const char *reason = NULL;
	int err = 0, status = R0_EXIT_OK;

	run->tty = !run->json && isatty(STDOUT_FILENO);
	/* SIGINT, SIGTERM and SIGHUP end the run with what was measured */
	r0_cli_catch_stop_signals();
	run->stop = r0_cli_stop_flag();
	for (unsigned i = 0; i < run->ntests; i++) {
		err = bench_run_test(run, &run->tests[i], &reason);
		if (err) {
			status = R0_EXIT_FAILURE;
			if (err == -EINTR || !run->tests[i].w.continue_on_error)
				break;
		}
	}
	if (err == -EINTR)
		fprintf(stderr, PROG ": %s: interrupted by a signal\n", path);
	if (run->json)
		bench_print_json(run, status, reason);
	else
		bench_print_table(run);
	r0_target_close(&run->target);
	r0_state_saved_free(run->state);
	for (unsigned i = 0; i < run->ntests; i++)
		free(run->tests[i].passes);
	if (r0_cli_close_stdout(PROG))
		return R0_EXIT_FAILURE;
	return status;
}

/* Which workload options were given, for the rules between them. */
struct given {
	bool time, size, min, steady, verify, rw, preset, ramp;
};

/* What a preset sets in each of its tests: given with --preset, each would be ignored. */
static const char *const preset_sets[] = {
	"rw", "bs", "qd", "jobs", "shared", "span", "align", "cover", "verify", "pass", NULL,
};

/* All a replay takes: the trace is the workload, so nothing else shapes it. */
static const char *const replay_takes[] = {
	"replay", "replay-pace", "replay-scale", "replay-skip", "replay-discards", "qd", "seed", "stall",
	"read-only", "json", "force", "plan", "yes", NULL,
};

/*
 * W shaped by the options G says were given: a time or a size, a steady
 * end (STEADY_PCT), a verify pass, else 5 s. -1, or R0_EXIT_USAGE after
 * saying which options exclude each other.
 */
static int shape_workload(struct r0_workload *w, const struct given *g, double steady_pct)
{
	if (g->time && g->size)
		return r0_cli_usage_error(PROG, "--runtime and --size exclude each other");
	if (g->steady && !g->min)
		return r0_cli_usage_error(PROG, "--steady goes with --min-runtime");
	if (g->min && (g->size || g->verify))
		return r0_cli_usage_error(PROG, "--min-runtime ends a time-based test: no --size or --verify with it");
	/* the engine ramps only a test that runs for a time */
	if (g->ramp && (g->size || g->verify))
		return r0_cli_usage_error(PROG, "--ramp runs a time-based test before it is measured: no --size or "
					  "--verify with it");
	if (g->min && g->time && w->min_runtime_ns > w->runtime_ns)
		return r0_cli_usage_error(PROG, "--min-runtime is above --runtime, the most a test runs");
	if (g->min && !g->time && w->min_runtime_ns > 5000000000ULL)
		return r0_cli_usage_error(PROG, "--min-runtime is above the default --runtime of 5 s, the most a test runs: give a --runtime");
	if (g->steady) {
		/* SNIA's proportion: the trend's bound half the span's */
		w->steady = R0_STEADY_RUN;
		w->steady.range_frac = steady_pct / 100;
		w->steady.slope_frac = steady_pct / 200;
	}
	if (g->verify) {
		if (w->trim || (w->read_pct != 0 && w->read_pct != 100))
			return r0_cli_usage_error(PROG, "--verify goes with read, write, randread or randwrite");
		if (g->time || g->size)
			return r0_cli_usage_error(PROG, "--verify covers the region once: no --runtime or --size (use --span)");
		w->verify = w->read_pct ? R0_VERIFY_READ : R0_VERIFY_WRITE;
		if (w->access == R0_ACCESS_RAND)
			w->cover = true;
	} else if (!g->size) {
		w->runtime_ns = g->time ? w->runtime_ns : 5000000000ULL;
	}
	return -1;
}

/*
 * An option given without what it works on would be ignored: refused, the
 * first such said (R0_EXIT_USAGE); -1 when there is none. MIXED: --rw rw
 * or randrw; PRESET, REPLAY: --preset or --replay given.
 */
static int ignored_options(const struct r0_workload *w, bool mixed, bool preset, bool replay)
{
	const char *other;

	if (r0_cli_given("rwmix-read") && !mixed)
		return r0_cli_usage_error(PROG, "--rwmix-read is the share of reads of --rw rw or randrw: give one of them");
	if (r0_cli_given("pass") && !r0_cli_given("verify"))
		return r0_cli_usage_error(PROG, "--pass is the pass --verify stamps or checks: give --verify");
	for (const char *const *k = preset_sets; preset && *k; k++)
		if (r0_cli_given(*k))
			return r0_cli_usage_error(PROG, "--preset sets the workloads: no --%s with it%s", *k,
						  strcmp(*k, "span") ? "" : " (--region is its span)");
	if ((r0_cli_given("replay-pace") || r0_cli_given("replay-skip") || r0_cli_given("replay-discards")) && !replay)
		return r0_cli_usage_error(PROG, "--replay-pace, --replay-skip and --replay-discards go with --replay");
	if (r0_cli_given("replay-scale") && !r0_cli_given("replay-pace"))
		return r0_cli_usage_error(PROG, "--replay-scale scales the pace: it goes with --replay-pace");
	if (replay && (other = r0_cli_given_other_than(replay_takes)))
		return r0_cli_usage_error(PROG, "--replay takes only --replay-pace, --replay-scale, --replay-skip, "
					  "--replay-discards, --qd, --seed, --stall, --read-only, --json, --force, --plan "
					  "and --yes: not --%s", other);
	if (!preset && w->shared_region && w->jobs < 2)
		return r0_cli_usage_error(PROG, "--shared gives the jobs one region: give --jobs 2 or more");
	if (!preset && w->cover && w->access != R0_ACCESS_RAND)
		return r0_cli_usage_error(PROG, "--cover is for random offsets: --rw randread, randwrite, randrw or "
					  "randtrim");
	return -1;
}

int main(int argc, char **argv)
{
	static struct run run;
	struct r0_workload w = { .access = R0_ACCESS_RAND, .read_pct = 100, .block_bytes = 4096,
				 .queue_depth = 1, .jobs = 1, .seed = 1, .verify_pass = 1 };
	const struct r0_preset *preset = NULL;
	const char *path;
	struct rw_arg rw = { &w, false };
	bool force = false, verify = false, time_given = false, size_given = false, rw_given = false;
	bool passes_given = false, warmup_given = false, any_writes = false, read_only = false;
	unsigned mix = 50;
	double steady_pct = 0;
	bool min_given = false, steady_given = false, qd_given = false, replay_pace = false, replay_discards = false;
	const char *replay = NULL, *replay_skip = NULL;
	double replay_scale = 1;
	unsigned skip_mask = 0;
	uint64_t region = 0;
	static char label[64];
	int err;
	struct r0_consent consent = { 0 };
	const struct r0_cli_opt opts[] = {
		{ "rw", OPT_RW, R0_CLI_CALL, R0_CLI_TO(rw), .call = opt_rw, .given = &rw_given },
		{ "bs", OPT_BS, R0_CLI_SIZE, R0_CLI_TO(w.block_bytes), 1, R0_BLOCK_MAX, .why = "a size from 1 to 64M, e.g. 4K" },
		{ "qd", OPT_QD, R0_CLI_UINT, R0_CLI_TO(w.queue_depth), 1, R0_QD_MAX, .why = "a queue depth from 1 to %u", .given = &qd_given },
		{ "jobs", 'j', R0_CLI_UINT, R0_CLI_TO(w.jobs), 1, R0_JOBS_MAX, .why = "from 1 to %u" },
		{ "shared", OPT_SHARED, R0_CLI_SET, R0_CLI_TO(w.shared_region) },
		{ "offset", OPT_OFFSET, R0_CLI_SIZE, R0_CLI_TO(w.offset_bytes), 0, UINT64_MAX, .why = "not a size" },
		{ "span", OPT_SPAN, R0_CLI_SIZE, R0_CLI_TO(w.span_bytes), 1, UINT64_MAX, .why = "a size above 0" },
		{ "rwmix-read", OPT_MIX, R0_CLI_UINT, R0_CLI_TO(mix), 0, 100, .why = "a percentage from 0 to 100" },
		{ "align", OPT_ALIGN, R0_CLI_SIZE, R0_CLI_TO(w.align_bytes), 1, R0_BLOCK_MAX, .why = "a size from 1 to 64M" },
		{ "cover", OPT_COVER, R0_CLI_SET, R0_CLI_TO(w.cover) },
		{ "seed", OPT_SEED, R0_CLI_CALL, R0_CLI_TO(w.seed), .call = opt_seed },
		{ "runtime", 't', R0_CLI_DURATION, R0_CLI_TO(w.runtime_ns), 1, UINT64_MAX, .why = "a time above 0, e.g. 5, 0.5, 500ms or 2m", .given = &time_given },
		{ "min-runtime", OPT_MIN_RUNTIME, R0_CLI_DURATION, R0_CLI_TO(w.min_runtime_ns), 1, UINT64_MAX, .why = "a time above 0, e.g. 10, 500ms or 1m", .given = &min_given },
		{ "steady", OPT_STEADY, R0_CLI_DOUBLE, R0_CLI_TO(steady_pct), .dmin = 0.1, .dmax = 100, .why = "a percentage from 0.1 to 100", .given = &steady_given },
		{ "ramp", OPT_RAMP, R0_CLI_DURATION, R0_CLI_TO(w.ramp_ns), 0, UINT64_MAX, .why = "a time, e.g. 2 or 500ms" },
		{ "size", 's', R0_CLI_SIZE, R0_CLI_TO(w.size_bytes), 1, UINT64_MAX, .why = "a size above 0", .given = &size_given },
		{ "passes", OPT_PASSES, R0_CLI_UINT, R0_CLI_TO(run.passes), 1, 64, .why = "from 1 to 64", .given = &passes_given },
		{ "reap-batch", OPT_REAP, R0_CLI_UINT, R0_CLI_TO(w.reap_batch), 1, R0_QD_MAX, .why = "from 1 to the queue depth" },
		{ "stall", OPT_STALL, R0_CLI_DURATION, R0_CLI_TO(w.stall_ns), 1, UINT64_MAX, .why = "a time above 0, e.g. 60 or 500ms" },
		{ "hipri", OPT_HIPRI, R0_CLI_SET, R0_CLI_TO(w.hipri) },
		{ "sqpoll", OPT_SQPOLL, R0_CLI_SET, R0_CLI_TO(w.sqpoll) },
		{ "ring", OPT_RING, R0_CLI_SET, R0_CLI_TO(w.ring) },
		{ "warmup", OPT_WARMUP, R0_CLI_UINT, R0_CLI_TO(run.warmup), 0, 64, .why = "from 0 to 64", .given = &warmup_given },
		{ "preset", 'p', R0_CLI_CALL, R0_CLI_TO(preset), .call = opt_preset },
		{ "region", OPT_REGION, R0_CLI_SIZE, R0_CLI_TO(region), 1, UINT64_MAX, .why = "a size above 0" },
		{ "read-only", OPT_READ_ONLY, R0_CLI_SET, R0_CLI_TO(read_only) },
		{ "verify", OPT_VERIFY, R0_CLI_SET, R0_CLI_TO(verify) },
		{ "pass", OPT_PASS, R0_CLI_UINT, R0_CLI_TO(w.verify_pass), 0, UINT32_MAX, .why = "not a number" },
		{ "continue-on-error", OPT_CONTINUE, R0_CLI_SET, R0_CLI_TO(w.continue_on_error) },
		{ "replay", OPT_REPLAY, R0_CLI_STRING, R0_CLI_TO(replay) },
		{ "replay-pace", OPT_REPLAY_PACE, R0_CLI_SET, R0_CLI_TO(replay_pace) },
		{ "replay-scale", OPT_REPLAY_SCALE, R0_CLI_DOUBLE, R0_CLI_TO(replay_scale), .dmin = 0.001, .dmax = 1000, .why = "a speed factor from 0.001 to 1000 (2: twice as fast)" },
		{ "replay-skip", OPT_REPLAY_SKIP, R0_CLI_STRING, R0_CLI_TO(replay_skip) },
		{ "replay-discards", OPT_REPLAY_DISCARDS, R0_CLI_SET, R0_CLI_TO(replay_discards) },
		{ "json", OPT_JSON, R0_CLI_SET, R0_CLI_TO(run.json) },
		{ "force", 'f', R0_CLI_SET, R0_CLI_TO(force) },
		R0_CONSENT_OPTS(consent),
		{ 0 },
	};

	r0_cli_parse(&cli, opts, argc, argv);
	if (optind == argc)
		return r0_cli_usage_error(PROG, "name a TARGET (a block device or a regular file)");
	if (argc - optind > 1)
		return r0_cli_usage_error(PROG, "one TARGET at a time");
	path = argv[optind];
	if ((err = ignored_options(&w, rw.mixed, preset != NULL, replay != NULL)) >= 0)
		return err;
	if (replay_skip && r0_replay_skip_parse(replay_skip, &skip_mask))
		return r0_cli_usage_error(PROG, "--replay-skip takes reads, writes, flushes (comma-separated)");
	if (replay) {
		struct bench_replay_args ra = { .pace = replay_pace, .time_scale = replay_scale, .skip = skip_mask, .discards = replay_discards, .force = force, .read_only = read_only,
						.queue_depth = qd_given ? w.queue_depth : 0, .seed = w.seed,
						.stall_ns = w.stall_ns, .consent = consent, .json = run.json };

		return bench_replay(path, replay, &ra);
	}
	if (rw.mixed)
		w.read_pct = mix;
	{
		const struct given g = { time_given, size_given, min_given, steady_given, verify, rw_given, preset != NULL,
					 r0_cli_given("ramp") };

		if ((err = shape_workload(&w, &g, steady_pct)) >= 0)
			return err;
	}
	if (read_only && !preset)
		return r0_cli_usage_error(PROG, "--read-only is for presets; use --rw read or randread");
	if (preset) {
		run.preset = preset->name;
		run.passes = passes_given ? run.passes : preset->passes ? preset->passes : R0_CDM_PASSES;
		run.warmup = warmup_given ? run.warmup :
			     preset->passes ? preset->warmup_passes : R0_CDM_WARMUP_PASSES;
		run.region_bytes = region ? region : R0_CDM_REGION_BYTES;
	} else if (!passes_given) {
		run.passes = 1;
	}
	if (region && !preset)
		return r0_cli_usage_error(PROG, "--region is for presets; use --span");

	if (preset) {
		any_writes = add_preset_tests(&run, preset, &w, time_given, size_given, read_only);
	} else {
		snprintf(label, sizeof(label), "%s", r0_bench_rw_name(&w));
		add_test(&run, label, &w);
		any_writes = writes(&w) || w.verify == R0_VERIFY_WRITE;
	}

	if ((err = open_target(&run, path, any_writes, force, preset != NULL, &consent)) >= 0 ||
	    (err = check_tests(&run, path, w.hipri)) >= 0)
		return err;
	return run_tests(&run, path);
}
