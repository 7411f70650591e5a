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

/* --rw: the workload's kind; a mix takes --rwmix-read after all options are read. */
struct rw_arg {
	struct r0_workload *w;
	bool mixed;
};

static int opt_rw(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	struct rw_arg *rw = o->dest;
	int err = r0_bench_rw_parse(arg, rw->w);

	if (err < 0)
		return r0_cli_usage_error(prog, "--rw '%s': use read, write, randread, randwrite, rw (or readwrite), randrw, trim or randtrim", arg);
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

static const char usage_head[] =
	"Usage:\n"
	"  " PROG " [options] TARGET\n"
	"  " PROG " --preset NAME [options] TARGET\n"
	"  " PROG " --replay TRACE [--replay-pace [--replay-scale X]] [--replay-skip KINDS] [--replay-discards] [--qd N] TARGET\n"
	"\n"
	"Runs I/O on TARGET (a block device or a regular file) with io_uring and\n"
	"O_DIRECT and reports throughput, IOPS, latency percentiles and CPU time.\n";

static const char usage_tail[] =
	"Writes and trims to a block device are refused when it is mounted, has a\n"
	"mounted partition or is held by md/dm, and, without --force, when it holds\n"
	"a signature; otherwise r0bench shows the plan and asks first. Reads\n"
	"never ask. A block device needs read (and for writes, write) access:\n"
	"root, as a rule. Exit status: 0 done, 1 failure (I/O error, verify\n"
	"fault, interrupted), 2 usage or refused before anything was touched (a\n"
	"target in use or missing, a trace it cannot replay, no yes, writes with\n"
	"no terminal to ask and no --yes).\n";

/* --help after --preset: the presets r0bench runs, each a line "  -p NAME  what it runs" */
static void preset_list(FILE *f)
{
	size_t n;
	const struct r0_preset *p = r0_presets(&n);

	/* everyday work is timed through a file system on each array: r0sweep's, not a block benchmark's */
	for (size_t i = 0; i < n; i++)
		if (!r0_preset_is_fs(&p[i]))
			fprintf(f, "  -p %-9s %s\n", p[i].name, p[i].description);
	fputs("  (everyday work through a file system: r0sweep -p everyday)\n", f);
}

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .head = usage_head, .tail = usage_tail, .retired = "b--bs q--qd" };

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
 * Safety before anything is opened for writing, then PATH opened (nothing
 * written), the preset's region fitted to it and its state record read.
 * -1 to go on, or the exit status.
 */
static int open_target(struct run *run, const char *path, bool any_writes, bool force, bool preset)
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
	err = r0_io_file_open(path, any_writes, &run->target);
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
 * The plan, once every test is known to fit the target (a plan --plan
 * showed was refused when run), and a yes for writes to a block device;
 * a user's own file, or reads, need no yes; the plan is still shown when
 * asked. -1 to go on, or the exit status (--plan stops here).
 */
static int agree(struct run *run, const char *path, bool any_writes, const struct r0_consent *consent)
{
	bool asks = any_writes && run->target.is_block;
	struct r0_consent c = { .yes = consent->yes || !asks, .plan_only = consent->plan_only };
	int err;

	if (!asks && !consent->plan_only)
		return -1;
	if ((err = show_plan(run, path, any_writes, &c)) >= 0)
		r0_io_file_close(&run->target);
	return err;
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
		    r0_io_file_poll_check(&run->target, why, sizeof(why))) {
			/* no I/O yet: a target without poll queues is refused, not a failed run */
			fprintf(stderr, PROG ": %s: --hipri: %s\n", path, why);
			r0_io_file_close(&run->target);
			r0_state_saved_free(run->state);
			return R0_EXIT_REFUSED;
		}
		if (err) {
			r0_io_file_close(&run->target);
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
	r0_io_file_close(&run->target);
	r0_state_saved_free(run->state);
	for (unsigned i = 0; i < run->ntests; i++)
		free(run->tests[i].passes);
	if (r0_cli_close_stdout(PROG))
		return R0_EXIT_FAILURE;
	return status;
}

/* Which workload options were given, for the rules between them. */
struct given {
	bool time, size, min, steady, verify, rw, preset;
};

/* All a replay takes: the trace is the workload, so nothing else shapes it. */
static const char *const replay_takes[] = {
	"replay", "replay-pace", "replay-scale", "replay-skip", "replay-discards", "qd", "seed", "stall",
	"read-only", "json", "force", "plan", "yes", NULL,
};

/*
 * W shaped by the options G says were given: a time or a size, a steady
 * end (STEADY_PCT), a verify pass, else 5 s. -1, or R0_EXIT_USAGE after
 * saying which values do not go together (which options exclude each
 * other is the table's: r0_cli_parse held them to it).
 */
static int shape_workload(struct r0_workload *w, const struct given *g, double steady_pct)
{
	if (g->min && g->time && w->min_runtime_ns > w->runtime_ns)
		return r0_cli_usage_error(PROG, "--min-runtime is above --runtime, the most a test runs");
	if (g->min && !g->time && w->min_runtime_ns > 5000000000ULL)
		return r0_cli_usage_error(PROG, "--min-runtime is above the default --runtime of 5 s, the most a test runs: give a --runtime");
	/* --min-runtime 0 is off: a bound for a steady end that never comes would be ignored */
	if (g->steady && !w->min_runtime_ns)
		return r0_cli_usage_error(PROG, "--steady is the bound of --min-runtime, which 0 turns off");
	if (g->steady) {
		/* SNIA's proportion: the trend's bound half the span's */
		w->steady = R0_STEADY_RUN;
		w->steady.range_frac = steady_pct / 100;
		w->steady.slope_frac = steady_pct / 200;
	}
	if (g->verify) {
		if (w->trim || (w->read_pct != 0 && w->read_pct != 100))
			return r0_cli_usage_error(PROG, "--verify goes with read, write, randread or randwrite");
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
 * or randrw; PRESET, REPLAY: --preset or --replay given. An option that
 * needs another, whatever their values, is the table's (.needs, .excludes:
 * r0_cli_parse held them); here those that depend on a value or a mode.
 */
static int ignored_options(const struct r0_workload *w, bool mixed, bool preset, bool replay)
{
	const char *other;

	if (r0_cli_given("rwmix-read") && !mixed)
		return r0_cli_usage_error(PROG, "--rwmix-read is the share of reads of --rw rw or randrw: give one of them");
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

/* What the command line sets, the option table's destinations: the defaults until it is read. */
static struct args {
	struct run run;
	struct r0_workload w;
	struct rw_arg rw;
	const struct r0_preset *preset;
	const char *replay, *replay_skip;
	bool force, verify, read_only, replay_pace, replay_discards;
	bool time_given, size_given, rw_given, passes_given, warmup_given, min_given, steady_given, qd_given;
	unsigned mix;
	double steady_pct, replay_scale;
	uint64_t region;
	struct r0_consent consent;
} args = {
	.w = { .access = R0_ACCESS_RAND, .read_pct = 100, .block_bytes = 4096, .queue_depth = 1, .jobs = 1,
	       .seed = 1, .verify_pass = 1 },
	.rw = { &args.w, false },
	.mix = 50,
	.replay_scale = 1,
};

/* The options, in the order --help lists them, each group under its heading. */
static const struct r0_cli_opt opts[] = {
	{ "rw", OPT_RW, R0_CLI_CALL, R0_CLI_TO(args.rw), .call = opt_rw, .given = &args.rw_given, .arg = "KIND",
	  .help = "read, write, randread, randwrite, rw (or readwrite, as fio), randrw, trim, randtrim", .def = "randread",
	  .section = "Workload:" },
	{ "bs", OPT_BS, R0_CLI_SIZE, R0_CLI_TO(args.w.block_bytes), 1, R0_BLOCK_MAX, .why = "a size from 1 to 64M, e.g. 4K",
	  .arg = "SIZE", .help = "block size", .def = "4K" },
	{ "qd", OPT_QD, R0_CLI_UINT, R0_CLI_TO(args.w.queue_depth), 1, R0_QD_MAX, .why = "a queue depth from 1 to %u", .given = &args.qd_given,
	  .arg = "N", .help = "queue depth per job", .def = "1" },
	{ "jobs", 'j', R0_CLI_UINT, R0_CLI_TO(args.w.jobs), 1, R0_JOBS_MAX, .why = "from 1 to %u",
	  .arg = "N", .help = "threads, each with its own ring", .def = "1" },
	{ "shared", OPT_SHARED, R0_CLI_SET, R0_CLI_TO(args.w.shared_region),
	  .help = "jobs share the region (default: a slice each, on the block size, device blocks and --align; "
		  "the last takes the rest)" },
	{ "offset", OPT_OFFSET, R0_CLI_SIZE, R0_CLI_TO(args.w.offset_bytes), 0, UINT64_MAX, .why = "not a size",
	  .arg = "SIZE", .help = "region start", .def = "0" },
	/* a preset's span is --region: said here, before --preset's own list of what it sets */
	{ "span", OPT_SPAN, R0_CLI_SIZE, R0_CLI_TO(args.w.span_bytes), 1, UINT64_MAX, .why = "a size above 0",
	  .arg = "SIZE", .help = "region length (default: to the end)",
	  .excludes = "preset", .excludes_why = "--region is the preset's span" },
	{ "rwmix-read", OPT_MIX, R0_CLI_UINT, R0_CLI_TO(args.mix), 0, 100, .why = "a percentage from 0 to 100",
	  .arg = "PCT", .help = "rw/randrw: share of reads", .def = "50" },
	{ "align", OPT_ALIGN, R0_CLI_SIZE, R0_CLI_TO(args.w.align_bytes), 1, R0_BLOCK_MAX, .why = "a size from 1 to 64M",
	  .arg = "SIZE", .help = "random offsets are the slice start plus multiples of SIZE", .def = "the block size" },
	{ "cover", OPT_COVER, R0_CLI_SET, R0_CLI_TO(args.w.cover), .help = "random: every block exactly once per pass" },
	{ "seed", OPT_SEED, R0_CLI_CALL, R0_CLI_TO(args.w.seed), .call = opt_seed,
	  .arg = "N", .help = "offsets and data", .def = "1" },
	{ "runtime", 't', R0_CLI_DURATION, R0_CLI_TO(args.w.runtime_ns), 1, UINT64_MAX, .why = "a time above 0 and at most 10^7 s (115 days), e.g. 5, 0.5, 500ms or 2m", .given = &args.time_given,
	  .arg = "TIME", .help = "time-based: measure for TIME (default 5 s; 500ms, 2m)",
	  .excludes = "size", .excludes_why = "a test runs for a time or a size" },
	/* the engine ramps only a test that runs for a time */
	{ "ramp", OPT_RAMP, R0_CLI_DURATION, R0_CLI_TO(args.w.ramp_ns), 0, UINT64_MAX, .why = "a time of at most 10^7 s (115 days), e.g. 2 or 500ms",
	  .arg = "TIME", .help = "run TIME first without counting", .def = "0",
	  .excludes = "size,verify", .excludes_why = "it runs a time-based test before it is measured" },
	{ "min-runtime", OPT_MIN_RUNTIME, R0_CLI_DURATION, R0_CLI_TO(args.w.min_runtime_ns), 0, UINT64_MAX, .why = "a time of at most 10^7 s (115 days), e.g. 10, 500ms or 1m (0: off)", .given = &args.min_given,
	  .arg = "TIME", .help = "end a time-based test once its rate is steady, not before TIME: --runtime is then "
				 "the most it runs (fio's steadystate); 0: off, the full --runtime, as r0sweep's",
	  .def = "0",
	  .excludes = "size,verify", .excludes_why = "it ends a time-based test" },
	{ "steady", OPT_STEADY, R0_CLI_DOUBLE, R0_CLI_TO(args.steady_pct), .dmin = 0.1, .dmax = 100, .why = "a percentage from 0.1 to 100", .given = &args.steady_given,
	  .arg = "PCT", .help = "with --min-runtime: steady is 8 slices of 250 ms (shorter for a minimum under 2.25 s) "
				"whose throughput spans at most PCT % of their mean and trends by at most PCT/2 %",
	  .def = "10", .needs = "min-runtime" },
	{ "size", 's', R0_CLI_SIZE, R0_CLI_TO(args.w.size_bytes), 1, UINT64_MAX, .why = "a size above 0", .given = &args.size_given,
	  .arg = "SIZE", .help = "size-based: SIZE bytes per job instead of a time" },
	{ "reap-batch", OPT_REAP, R0_CLI_UINT, R0_CLI_TO(args.w.reap_batch), 1, R0_QD_MAX, .why = "from 1 to the queue depth",
	  .arg = "N", .help = "wait for N completions at once (default 1: each timed as it arrives; more costs "
			      "latency accuracy, saves wake-ups on CPU-bound devices)" },
	{ "stall", OPT_STALL, R0_CLI_DURATION, R0_CLI_TO(args.w.stall_ns), 1, UINT64_MAX, .why = "a time above 0 and at most 10^7 s (115 days), e.g. 60 or 500ms",
	  .arg = "TIME", .help = "abandon the run with an error when requests are out and none completes for TIME",
	  .def = "60 s" },
	{ "hipri", OPT_HIPRI, R0_CLI_SET, R0_CLI_TO(args.w.hipri),
	  .help = "polled completions (io_uring IOPOLL, fio's hipri): needs a device with poll queues (NVMe, "
		  "null_blk poll_queues); fails on one without" },
	{ "sqpoll", OPT_SQPOLL, R0_CLI_SET, R0_CLI_TO(args.w.sqpoll),
	  .help = "a kernel thread submits (io_uring SQPOLL, fio's sqthread_poll)" },
	{ "ring", OPT_RING, R0_CLI_SET, R0_CLI_TO(args.w.ring),
	  .help = "io_uring at QD1 too (default there: the job reads and writes itself, pread/pwrite: no "
		  "hand-over to an io_uring worker on devices such as zram)" },
	{ "passes", OPT_PASSES, R0_CLI_UINT, R0_CLI_TO(args.run.passes), 1, 64, .why = "from 1 to 64", .given = &args.passes_given,
	  .arg = "N", .help = "repeat the test N times", .def = "1" },
	{ "warmup", OPT_WARMUP, R0_CLI_UINT, R0_CLI_TO(args.run.warmup), 0, 64, .why = "from 0 to 64", .given = &args.warmup_given,
	  .arg = "N", .help = "passes run first and not counted", .def = "0" },
	/* what a preset sets in each of its tests: given with it, each would be ignored (--span: above) */
	{ "preset", 'p', R0_CLI_CALL, R0_CLI_TO(args.preset), .call = opt_preset,
	  .arg = "NAME", .help = "run the preset's tests (one of those below) instead of --rw; no --rw or --verify "
				 "with it",
	  .section = "Presets (CrystalDiskMark's method: a 1 GiB region, 1 warm-up and 5 passes\n"
		     "of 5 s, unless the preset says otherwise; each test read, then write):",
	  .after = preset_list,
	  .excludes = "rw,bs,qd,jobs,shared,align,cover,verify,pass",
	  .excludes_why = "the preset sets the workloads" },
	{ "region", OPT_REGION, R0_CLI_SIZE, R0_CLI_TO(args.region), 1, UINT64_MAX, .why = "a size above 0",
	  .arg = "SIZE", .help = "preset region, at most the target", .def = "1G" },
	{ "read-only", OPT_READ_ONLY, R0_CLI_SET, R0_CLI_TO(args.read_only),
	  .help = "a preset's read tests only (nothing is written); a replay of a trace with writes is refused" },
	{ "replay", OPT_REPLAY, R0_CLI_STRING, R0_CLI_TO(args.replay),
	  .arg = "TRACE", .help = "issue the trace's reads, writes and flushes (fdatasync) again on TARGET, as fast "
				  "as --qd allows (default: the trace's deepest queue, else 32); writes carry a "
				  "pattern, discards are skipped (--replay-discards issues them); a trace from a "
				  "larger device is mapped modulo TARGET's size and says so",
	  .section = "Replay (fio's read_iolog: a trace recorded by r0profile --trace, a\n"
		     "blktrace recording or blkparse -d dump, a fio iolog v2 or v3):" },
	{ "replay-skip", OPT_REPLAY_SKIP, R0_CLI_STRING, R0_CLI_TO(args.replay_skip),
	  .arg = "KINDS", .help = "leave out reads, writes or flushes (comma-separated; fio's replay_skip)",
	  .needs = "replay" },
	{ "replay-discards", OPT_REPLAY_DISCARDS, R0_CLI_SET, R0_CLI_TO(args.replay_discards),
	  .help = "issue the trace's discards too, in their place and one at a time: BLKDISCARD on a block device "
		  "(one that takes none is refused), a punched hole in a file; they destroy data as writes do",
	  .needs = "replay" },
	{ "replay-scale", OPT_REPLAY_SCALE, R0_CLI_DOUBLE, R0_CLI_TO(args.replay_scale), .dmin = 0.001, .dmax = 1000, .why = "a speed factor from 0.001 to 1000 (2: twice as fast)",
	  .arg = "X", .help = "with --replay-pace: X times the recorded speed (2 twice as fast, 0.5 half; fio's "
			      "replay_time_scale=200, 50)",
	  .needs = "replay-pace" },
	{ "replay-pace", OPT_REPLAY_PACE, R0_CLI_SET, R0_CLI_TO(args.replay_pace),
	  .help = "no request before its recorded time; reports how far behind it the target fell",
	  .needs = "replay" },
	{ "verify", OPT_VERIFY, R0_CLI_SET, R0_CLI_TO(args.verify),
	  .help = "write: stamp every 512-byte sector with its number, the pass and the seed, then read it all "
		  "back and check; read: check what an earlier pass wrote",
	  .section = "Checks:",
	  .excludes = "runtime,size", .excludes_why = "it covers the region once (use --span)" },
	{ "pass", OPT_PASS, R0_CLI_UINT, R0_CLI_TO(args.w.verify_pass), 0, UINT32_MAX, .why = "not a number",
	  .arg = "N", .help = "the pass number stamped or expected", .def = "1", .needs = "verify" },
	{ "continue-on-error", OPT_CONTINUE, R0_CLI_SET, R0_CLI_TO(args.w.continue_on_error),
	  .help = "count I/O errors and go on (default: stop)" },
	{ "json", OPT_JSON, R0_CLI_SET, R0_CLI_TO(args.run.json), .help = "JSON (schema " JSON_SCHEMA ", see r0bench(1))",
	  .section = "Output and safety:" },
	{ "force", 'f', R0_CLI_SET, R0_CLI_TO(args.force), .help = "write to a device that holds a signature" },
	R0_CONSENT_OPTS(args.consent),
	{ 0 },
};

int main(int argc, char **argv)
{
	struct run *run = &args.run;
	struct r0_workload *w = &args.w;
	const struct r0_preset *preset;
	const char *path;
	bool any_writes;
	unsigned skip_mask = 0;
	static char label[64];
	int err;

	r0_cli_parse(&cli, opts, argc, argv);
	if (optind == argc)
		return r0_cli_usage_error(PROG, "name a TARGET (a block device or a regular file)");
	if (argc - optind > 1)
		return r0_cli_usage_error(PROG, "one TARGET at a time");
	path = argv[optind];
	preset = args.preset;
	if ((err = ignored_options(w, args.rw.mixed, preset != NULL, args.replay != NULL)) >= 0)
		return err;
	if (args.replay_skip && r0_replay_skip_parse(args.replay_skip, &skip_mask))
		return r0_cli_usage_error(PROG, "--replay-skip takes reads, writes, flushes (comma-separated)");
	if (args.replay) {
		struct bench_replay_args ra = { .pace = args.replay_pace, .time_scale = args.replay_scale, .skip = skip_mask,
						.discards = args.replay_discards, .force = args.force, .read_only = args.read_only,
						.queue_depth = args.qd_given ? w->queue_depth : 0, .seed = w->seed,
						.stall_ns = w->stall_ns, .consent = args.consent, .json = run->json };

		return bench_replay(path, args.replay, &ra);
	}
	if (args.rw.mixed)
		w->read_pct = args.mix;
	{
		const struct given g = { args.time_given, args.size_given, args.min_given, args.steady_given, args.verify,
					 args.rw_given, preset != NULL };

		if ((err = shape_workload(w, &g, args.steady_pct)) >= 0)
			return err;
	}
	if (args.read_only && !preset)
		return r0_cli_usage_error(PROG, "--read-only is for presets; use --rw read or randread");
	if (preset) {
		run->preset = preset->name;
		run->passes = args.passes_given ? run->passes : preset->passes ? preset->passes : R0_CDM_PASSES;
		run->warmup = args.warmup_given ? run->warmup :
			      preset->passes ? preset->warmup_passes : R0_CDM_WARMUP_PASSES;
		run->region_bytes = args.region ? args.region : R0_CDM_REGION_BYTES;
	} else if (!args.passes_given) {
		run->passes = 1;
	}
	if (args.region && !preset)
		return r0_cli_usage_error(PROG, "--region is for presets; use --span");

	if (preset) {
		any_writes = add_preset_tests(run, preset, w, args.time_given, args.size_given, args.read_only);
	} else {
		snprintf(label, sizeof(label), "%s", r0_bench_rw_name(w));
		add_test(run, label, w);
		any_writes = writes(w) || w->verify == R0_VERIFY_WRITE;
	}

	if ((err = open_target(run, path, any_writes, args.force, preset != NULL)) >= 0 ||
	    (err = check_tests(run, path, w->hipri)) >= 0 ||
	    (err = agree(run, path, any_writes, &args.consent)) >= 0)
		return err;
	err = run_tests(run, path);
	/* its writes moved the device from the state r0age recorded: that label is gone */
	if (any_writes && run->target.is_block)
		r0_state_forget(run->target.devt);
	return err;
}
