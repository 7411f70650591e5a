// SPDX-License-Identifier: GPL-2.0-or-later
/* r0age: put a drive into a defined state (empty, filled, used, steady) and record it. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "age/age.h"
#include "cli.h"
#include "consent.h"

#include "r0/buildid.h"
#include "r0/age.h"
#include "r0/engine.h"
#include "r0/probe.h"
#include "r0/safety.h"
#include "r0/size.h"
#include "r0/steady.h"

enum { OPT_FILL = CHAR_MAX + 1, OPT_ROUND, OPT_ROUNDS, OPT_SEED, OPT_JSON, OPT_BS, OPT_QD };

static const char usage_head[] =
	"Usage:\n"
	"  " PROG " [options] empty DEVICE\n"
	"  " PROG " [options] fill [PCT] DEVICE\n"
	"  " PROG " [options] used DURATION DEVICE\n"
	"  " PROG " [options] steady DEVICE\n"
	"  " PROG " record-cycle --scenario NAME --array NAME --member-count N --ssd-mib N\n"
	"        --trim yes|no --cycle N --fill PCT --fill-bytes N [--mapped-after-delete PCT]\n"
	"        [--fstrim-bytes N] --mapped-before-bench PCT --randwrite FILE --seqwrite FILE\n"
	"        --counters-start H,F,G --counters-bench H,F,G --counters-randwrite H,F,G\n"
	"        --counters-seqwrite H,F,G RESULT\n"
	"\n"
	"Puts DEVICE into a defined state with the io_uring engine r0bench uses,\n"
	"and records what it did in " R0_STATE_DIR "/MAJ:MIN.json, which\n"
	"r0bench copies into its results:\n"
	"  empty            discard the whole device (fails if it takes no discards)\n"
	"  fill [PCT]       128K sequential writes over the first PCT % (default 90)\n"
	"  used DURATION    fill, then 4K random writes at QD32 over the filled span\n"
	"                   for DURATION (90, 30s, 10m, 1h)\n"
	"  steady           SNIA PTS: 2x the capacity in 128K sequential writes, then\n"
	"                   rounds of 4K random writes at QD32 until the write IOPS of\n"
	"                   5 rounds are steady (range <= 20 %, slope x 4 <= 10 % of\n"
	"                   the mean), or --rounds are used up\n"
	"  record-cycle     appends one cycle of an aging scenario (recipes/scenarios/)\n"
	"                   to RESULT as an r0scenario/1 line, and prints it: the\n"
	"                   facts given, the figures of two r0bench --json files, the\n"
	"                   WAFs from the SSDs' counters; bad input writes nothing\n";

static const char usage_tail[] =
	"DEVICE (a disk or a partition) is refused when it is mounted, has a\n"
	"mounted partition or is held by md/dm, and, without --force, when it\n"
	"holds a signature. It shows the plan and asks before writing. Needs\n"
	"write access to DEVICE (root). SIGINT, SIGTERM or SIGHUP stop it; the\n"
	"record then says complete: false.\n"
	"Exit status: 0 done (steady: steady state reached), 1 failure or\n"
	"interrupted, 2 usage or refused before anything was touched (a device\n"
	"in use or not a block device, no yes, no terminal to ask and no --yes;\n"
	"record-cycle: input it cannot record, with nothing written),\n"
	"3 steady state not reached in the rounds (the output says so).\n";

/*
 * What --help says of the options of the states and of record-cycle, each
 * once: the parse tables (main's, record_cycle's in age/record.c) say how
 * each is read and where it goes.
 */
static const struct r0_cli_opt usage_opts[] = {
	{ "fill", .arg = "PCT",
	  .help = "used: the share filled first (default 90);\nrecord-cycle: the fill the cycle asked (0 to 100)" },
	{ "round", .arg = "TIME", .help = "steady: length of a round", .def = "60s" },
	{ "rounds", .arg = "N", .help = "steady: at most N rounds, 5 to 1000", .def = "25" },
	{ "bs", .arg = "SIZE", .help = "used, steady: random write size", .def = "4K" },
	{ "qd", .arg = "N", .help = "used, steady: queue depth", .def = "32" },
	{ "seed", .arg = "N", .help = "offsets and data", .def = "1" },
	{ "json", .help = "print the state record (schema " R0_STATE_SCHEMA ")" },
	{ "scenario", .arg = "NAME", .help = "record-cycle: the scenario (raid0-without-trim)" },
	{ "array", .arg = "NAME", .help = "record-cycle: the array, as the record names it" },
	{ "member-count", .arg = "N", .help = "record-cycle: members of the array" },
	{ "members", .arg = "N", .renamed_to = "member-count", .help = "record-cycle:" },
	{ "ssd-mib", .arg = "N", .help = "record-cycle: each member's size in MiB" },
	{ "trim", .arg = "yes|no", .help = "record-cycle: whether the array passes discards" },
	{ "cycle", .arg = "N", .help = "record-cycle: the cycle, 0 the fresh array" },
	{ "fill-bytes", .arg = "N", .help = "record-cycle: the bytes the cycle's files held" },
	{ "mapped-after-delete", .arg = "PCT",
	  .help = "record-cycle: the members' mapped share once the files were deleted (left out: null)" },
	{ "fstrim-bytes", .arg = "N", .help = "record-cycle: what fstrim trimmed (left out: null)" },
	{ "mapped-before-bench", .arg = "PCT", .help = "record-cycle: the members' mapped share before the benchmarks" },
	{ "randwrite", .arg = "FILE", .help = "record-cycle: r0bench --json of the random write" },
	{ "seqwrite", .arg = "FILE", .help = "record-cycle: r0bench --json of the sequential write" },
	{ "counters-start", .arg = "H,F,G",
	  .help = "record-cycle: the members' host_write_pages, flash_program_pages and gc_runs summed "
		  "(r0ssd --stats) at the cycle's start" },
	{ "counters-bench", .arg = "H,F,G", .help = "record-cycle: those counters before the random write" },
	{ "counters-randwrite", .arg = "H,F,G", .help = "record-cycle: those counters after the random write" },
	{ "counters-seqwrite", .arg = "H,F,G",
	  .help = "record-cycle: those counters after the sequential write (the cycle's end)" },
	{ "force", 'f', .help = "write to a device that holds a signature" },
	/* R0_CONSENT_OPTS's, without their destinations */
	{ "plan", .help = "show what would be written and stop (opens nothing for writing)" },
	{ "yes", 'y', .help = "write without asking (needed without a terminal)" },
	{ 0 },
};

struct prog {
	const char *what;
	uint64_t total_bytes;   /* size-based step: its bytes; 0: time-based */
	double total_s;
};

static void progress(const struct r0_progress *p, void *arg)
{
	const struct prog *g = arg;
	double rate = p->elapsed_s > 0 ? (double)p->bytes / 1e6 / p->elapsed_s : 0;

	if (g->total_bytes)
		fprintf(stdout, "\r\033[K%s: %5.1f s %6.1f %% %8.1f MB/s", g->what, p->elapsed_s,
			100.0 * (double)p->bytes / (double)g->total_bytes, rate);
	else
		fprintf(stdout, "\r\033[K%s: %5.1f of %.0f s %8.1f MB/s %9.0f IOPS", g->what,
			p->elapsed_s, g->total_s, rate, p->elapsed_s > 0 ? (double)p->ios / p->elapsed_s : 0);
	fflush(stdout);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *step_name(enum r0_age_step_kind k)
{
	switch (k) {
	case R0_AGE_STEP_DISCARD: return "discard";
	case R0_AGE_STEP_FILL: return "fill";
	case R0_AGE_STEP_PRECONDITION: return "precondition";
	case R0_AGE_STEP_RANDOM: return "random writes";
	case R0_AGE_STEP_ROUND: return "round";
	}
	return "?";
}

/* Runs one step; adds what it wrote to REC. 0, -EINTR, -EIO (said), other -errno (said). */
static int run_step(const struct r0_io_file *t, const struct r0_age_step *s, unsigned round,
		    bool tty, struct r0_state_record *rec, struct r0_result *res)
{
	struct r0_run_opts o = { .stop = r0_cli_stop_flag() };
	struct prog g = { 0 };
	char what[64];
	int ret;

	if (s->kind == R0_AGE_STEP_ROUND)
		snprintf(what, sizeof(what), "round %u", round);
	else
		snprintf(what, sizeof(what), "%s", step_name(s->kind));
	g.what = what;
	g.total_bytes = s->w.runtime_ns ? 0 : (s->w.size_bytes ? s->w.size_bytes : s->w.span_bytes);
	g.total_s = (double)s->w.runtime_ns / 1e9;
	if (tty) {
		o.progress = progress;
		o.progress_arg = &g;
	}
	memset(res, 0, sizeof(*res));
	ret = r0_engine_run(t, &s->w, &o, res);
	if (tty) {
		fputs("\r\033[K", stdout);
		fflush(stdout);
	}
	rec->bytes_written += res->moved_bytes[R0_OP_WRITE];
	rec->bytes_discarded += res->moved_bytes[R0_OP_TRIM];
	if (ret == -EINTR)
		return ret;
	if (ret) {
		fprintf(stderr, PROG ": %s: %s: cannot run: %s\n", t->path, what, strerror(-ret));
		return ret;
	}
	if (res->errors) {
		const struct r0_io_error *e = &res->first_error;

		fprintf(stderr, PROG ": %s: %s: %s error at offset %llu (%u bytes): %s%s\n", t->path,
			what, r0_op_name(e->op), (unsigned long long)e->offset_bytes, e->length_bytes,
			strerror(e->err), res->errors > 1 ? " (and more)" : "");
		return -EIO;
	}
	return 0;
}

static void print_summary(const struct r0_state_record *r, const struct r0_age_plan *plan)
{
	char sz[32], span[32];

	r0_format_size_human(r->device_bytes, sz, sizeof(sz));
	r0_format_size_human(plan->span_bytes, span, sizeof(span));
	printf("%s (%s): %s", r->device_path, sz, r0_age_state_name(r->state));
	if (r->state == R0_AGE_FILL || r->state == R0_AGE_USED)
		printf(" %u %% (%s)", r->params.fill_pct, span);
	if (r->state == R0_AGE_USED)
		printf(", then %.0f s of random writes", (double)r->params.duration_ns / 1e9);
	printf("%s\n", r->complete ? "" : ": NOT COMPLETE (stopped early)");
	printf("  %.1f s, %llu bytes written, %llu bytes discarded\n", r->seconds,
	       (unsigned long long)r->bytes_written, (unsigned long long)r->bytes_discarded);
	if (r->state == R0_AGE_STEADY) {
		if (r->steady_round)
			printf("  steady state reached at round %u (rounds %u-%u)\n", r->steady_round,
			       r->steady_round - (unsigned)R0_STEADY_SNIA.window + 1, r->steady_round);
		else
			printf("  steady state NOT reached in %u round%s\n", r->rounds,
			       r->rounds == 1 ? "" : "s");
	}
	printf("  state record: " R0_STATE_DIR "/%u:%u.json\n", major(r->devt), minor(r->devt));
}

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .head = usage_head, .tail = usage_tail, .usage_opts = usage_opts,
				   .retired = "b--bs q--qd" };

/* The plan: the device, what each step writes, how long it takes. */
static int show_plan(const char *path, const struct r0_age_params *p, const struct r0_age_plan *plan,
		     const struct r0_consent *c)
{
	double s = r0_plan_write_seconds(plan->planned_bytes);
	char span[32], t[48];
	struct r0_plan pl;

	if (r0_plan_begin(&pl, PROG, "puts this device into a state: ITS DATA IS DESTROYED"))
		return R0_EXIT_FAILURE;
	r0_plan_device(&pl, path);
	r0_format_size_human(plan->span_bytes, span, sizeof(span));
	fprintf(pl.f, "  writes:");
	for (size_t i = 0; i < plan->n_steps; i++)   /* a remainder step is its step's tail */
		if (!i || plan->steps[i].kind != plan->steps[i - 1].kind)
			fprintf(pl.f, "%s %s", i ? "," : "", step_name(plan->steps[i].kind));
	fprintf(pl.f, " over the first %s\n", span);
	if (p->state == R0_AGE_USED)
		s += (double)p->duration_ns / 1e9;
	if (p->state == R0_AGE_STEADY)
		s += (double)p->round_ns / 1e9 * p->max_rounds;
	r0_plan_duration(s, t, sizeof(t));
	fprintf(pl.f, "  time: %s%s at most, if the drive writes %.0f MB/s (a guess: not measured)\n", t,
		p->state == R0_AGE_STEADY ? " (all rounds)" : "", R0_PLAN_ASSUMED_MBPS);
	return r0_plan_decide(&pl, c);
}

/*
 * The arguments after the options (GNU getopt moves the options before
 * them): STATE [ARG] DEVICE into *STATE, *P (its defaults and ARG) and
 * *PATH. -1, or R0_EXIT_USAGE after saying what is wrong.
 */
static int parse_args(char **pos, int npos, enum r0_age_state *state, struct r0_age_params *p, const char **path)
{
	if (npos > 3)
		return r0_cli_usage_error(PROG, "too many arguments");
	if (!npos)
		return r0_cli_usage_error(PROG, "name a STATE (empty, fill, used, steady) and a DEVICE, or "
					  "record-cycle and its RESULT");
	if (!strcmp(pos[0], "record-cycle"))
		return r0_cli_usage_error(PROG, "record-cycle comes first: " PROG " record-cycle [options] RESULT");
	if (r0_age_parse_state(pos[0], state))
		return r0_cli_usage_error(PROG, "'%s': not a state (empty, fill, used, steady)", pos[0]);
	r0_age_params_init(*state, p);
	if (*state == R0_AGE_USED) {
		if (npos != 3)
			return r0_cli_usage_error(PROG, "used takes a DURATION and a DEVICE");
		if (r0_parse_duration(pos[1], &p->duration_ns) || !p->duration_ns)
			return r0_cli_usage_error(PROG, "used '%s': a time above 0 and at most 10^7 s (115 days), e.g. 90, 30s, 10m, 1h", pos[1]);
	} else if (*state == R0_AGE_FILL && npos == 3) {
		if (r0_age_parse_pct(pos[1], &p->fill_pct))
			return r0_cli_usage_error(PROG, "fill '%s': a percentage from 1 to 100", pos[1]);
	} else if (npos != 2) {
		return r0_cli_usage_error(PROG, "%s takes %sone DEVICE", pos[0],
					  *state == R0_AGE_FILL ? "an optional PCT and " : "");
	}
	*path = pos[npos - 1];
	return -1;
}

/*
 * Safety before anything is opened for writing (a refusal touches
 * nothing): a block device, the checks every writer makes into *CHK, and
 * for empty, a device that takes discards. -1, or R0_EXIT_REFUSED after
 * saying why.
 */
static int check_device(const char *path, bool force, enum r0_age_state state, struct r0_member_check *chk)
{
	struct stat st;
	char why[512];

	if (stat(path, &st)) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return R0_EXIT_REFUSED;
	}
	if (!S_ISBLK(st.st_mode)) {
		fprintf(stderr, PROG ": %s: not a block device\n", path);
		return R0_EXIT_REFUSED;
	}
	if (r0_write_check(path, force, chk, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s: refusing to write: %s\n", path, why);
		return R0_EXIT_REFUSED;
	}
	if (state == R0_AGE_EMPTY) {
		struct r0_device d;
		uint64_t v;
		int err = r0_probe_devt(chk->devt, NULL, &d);

		if (err) {
			fprintf(stderr, PROG ": %s: cannot probe: %s\n", path, strerror(-err));
			return R0_EXIT_REFUSED;
		}
		v = d.discard_max_bytes > 0 ? (uint64_t)d.discard_max_bytes : 0;
		r0_device_free(&d);
		if (!v) {
			fprintf(stderr, PROG ": %s: cannot empty: the device takes no discards "
				"(queue/discard_max_bytes is 0)\n", path);
			return R0_EXIT_REFUSED;
		}
	}
	return -1;
}

/*
 * PLAN's steps run on T into REC (steady: rounds until the rule holds or
 * MAX_ROUNDS ran, each said unless JSON). 0, -EINTR when a signal cut it
 * short, or another -errno when a step failed.
 */
static int run_plan(struct r0_io_file *t, const struct r0_age_plan *plan, unsigned max_rounds, bool tty, bool json,
		    struct r0_state_record *rec, struct r0_result *res)
{
	int err;

	for (size_t i = 0; i < plan->n_steps; i++) {
		const struct r0_age_step *s = &plan->steps[i];

		if (s->kind != R0_AGE_STEP_ROUND) {
			if ((err = run_step(t, s, 0, tty, rec, res)))
				return err;
			continue;
		}
		for (unsigned k = 1; k <= max_rounds; k++) {
			size_t reached;

			if ((err = run_step(t, s, k, tty, rec, res)))
				return err;
			rec->round_iops[k - 1] = r0_result_iops(res);
			rec->rounds = k;
			if (!json)
				printf("round %u: %.0f write IOPS, %.1f MB/s\n", k, rec->round_iops[k - 1],
				       r0_result_bytes_per_s(res) / 1e6);
			fflush(stdout);
			if (r0_steady_reached(rec->round_iops, k, NULL, &reached) == 1) {
				rec->steady_round = (unsigned)reached;
				break;
			}
		}
	}
	return 0;
}

/* REC saved as the device's state record (unless SAVE is false) and said (JSON, or PLAN's summary). 0, or -1 after saying what failed. */
static int save_and_say(const struct r0_state_record *rec, const struct r0_age_plan *plan, const char *path,
			bool json, bool save)
{
	char *text;
	int err = r0_state_record_text(rec, &text);

	if (err) {
		fprintf(stderr, PROG ": %s: cannot build the state record: %s\n", path, strerror(-err));
		return -1;
	}
	/* a run that failed before its first byte left the device in the state its record says */
	if (!save)
		fprintf(stderr, PROG ": %s: nothing was written or discarded: its state record is left as it was\n",
			path);
	else if ((err = r0_state_record_save(rec)))
		fprintf(stderr, PROG ": %s: cannot save the state record in " R0_STATE_DIR ": %s\n",
			path, strerror(-err));
	if (json)
		fputs(text, stdout);
	else
		print_summary(rec, plan);
	free(text);
	return err ? -1 : 0;
}

int main(int argc, char **argv)
{
	static struct r0_state_record rec;
	static struct r0_result res;
	struct r0_age_params p;
	struct r0_age_plan plan;
	struct r0_io_file t = { .fd = -1 };
	struct r0_consent consent = { 0 };
	struct r0_member_check chk;
	const char *path = NULL, *fill_arg = NULL, *round_arg = NULL, *rounds_arg = NULL, *bs_arg = NULL,
		   *qd_arg = NULL, *seed_arg = NULL;
	bool json = false, force = false, tty, failed = false, interrupted = false;
	enum r0_age_state state;
	char why[512];
	double t0;
	uint64_t v;
	unsigned u;
	int err;

	const struct r0_cli_opt opts[] = {
		{ "fill", OPT_FILL, R0_CLI_STRING, R0_CLI_TO(fill_arg) },
		{ "round", OPT_ROUND, R0_CLI_STRING, R0_CLI_TO(round_arg) },
		{ "rounds", OPT_ROUNDS, R0_CLI_STRING, R0_CLI_TO(rounds_arg) },
		{ "bs", OPT_BS, R0_CLI_STRING, R0_CLI_TO(bs_arg) },
		{ "qd", OPT_QD, R0_CLI_STRING, R0_CLI_TO(qd_arg) },
		{ "seed", OPT_SEED, R0_CLI_STRING, R0_CLI_TO(seed_arg) },
		{ "json", OPT_JSON, R0_CLI_SET, R0_CLI_TO(json) },
		{ "force", 'f', R0_CLI_SET, R0_CLI_TO(force) },
		R0_CONSENT_OPTS(consent),
		{ 0 },
	};

	if (argc > 1 && !strcmp(argv[1], "record-cycle"))
		return record_cycle(&cli, argc - 1, argv + 1);
	r0_cli_parse(&cli, opts, argc, argv);
	if ((err = parse_args(argv + optind, argc - optind, &state, &p, &path)) >= 0)
		return err;
	if (fill_arg && state != R0_AGE_USED)
		return r0_cli_usage_error(PROG, "--fill goes with used");
	if (fill_arg && r0_age_parse_pct(fill_arg, &p.fill_pct))
		return r0_cli_usage_error(PROG, "--fill '%s': a percentage from 1 to 100", fill_arg);
	if ((round_arg || rounds_arg) && state != R0_AGE_STEADY)
		return r0_cli_usage_error(PROG, "--round and --rounds go with steady");
	if (round_arg && r0_cli_opt_duration(PROG, "--round", round_arg, 1, UINT64_MAX, &p.round_ns, "a time above 0 and at most 10^7 s (115 days), e.g. 60, 10s, 500ms"))
		return R0_EXIT_USAGE;
	if (rounds_arg && r0_cli_opt_uint(PROG, "--rounds", rounds_arg, R0_STEADY_SNIA.window,
					  R0_AGE_ROUNDS_MAX, &p.max_rounds, "from %zu to %u",
					  R0_STEADY_SNIA.window, R0_AGE_ROUNDS_MAX))
		return R0_EXIT_USAGE;
	if ((bs_arg || qd_arg) && state != R0_AGE_USED && state != R0_AGE_STEADY)
		return r0_cli_usage_error(PROG, "--bs and --qd go with used and steady");
	if (bs_arg) {
		if (r0_cli_opt_size(PROG, "--bs", bs_arg, 1, R0_BLOCK_MAX, &v, "a size from 1 to 64M, e.g. 4K"))
			return R0_EXIT_USAGE;
		p.block_bytes = (uint32_t)v;
	}
	if (qd_arg && r0_cli_opt_uint(PROG, "--qd", qd_arg, 1, R0_QD_MAX, &u, "from 1 to %u", R0_QD_MAX))
		return R0_EXIT_USAGE;
	if (qd_arg)
		p.queue_depth = u;
	if (seed_arg && r0_parse_seed(seed_arg, &p.seed))
		return r0_cli_usage_error(PROG, "--seed '%s': a number, decimal or 0x hex", seed_arg);

	if ((err = check_device(path, force, state, &chk)) >= 0)
		return err;
	/* planned from the check's size: --plan opens nothing for writing */
	if (r0_age_plan(&p, chk.size_sectors * 512, chk.logical_block_bytes, &plan, why, sizeof(why)))
		return r0_cli_usage_error(PROG, "%s: %s", path, why);
	if ((err = show_plan(path, &p, &plan, &consent)) >= 0)
		return err;
	err = r0_io_file_open(path, true, &t);
	if (err) {
		fprintf(stderr, PROG ": %s: cannot open: %s%s\n", path, strerror(-err),
			err == -EACCES ? " (writing a block device needs root)" : "");
		return R0_EXIT_REFUSED;
	}
	for (size_t i = 0; i < plan.n_steps; i++)
		if (r0_workload_check(&plan.steps[i].w, &t, why, sizeof(why))) {
			r0_io_file_close(&t);
			return r0_cli_usage_error(PROG, "%s: %s: %s", path, step_name(plan.steps[i].kind), why);
		}

	rec.state = state;
	rec.params = p;
	rec.devt = t.devt;
	rec.device_bytes = t.size_bytes;
	snprintf(rec.device_path, sizeof(rec.device_path), "%s", path);
	snprintf(rec.version, sizeof(rec.version), "%s", r0_build_id());
	tty = !json && isatty(STDOUT_FILENO);
	r0_cli_catch_stop_signals();
	rec.started = time(NULL);
	t0 = now_s();
	err = run_plan(&t, &plan, p.max_rounds, tty, json, &rec, &res);
	interrupted = err == -EINTR;
	failed = err && !interrupted;
	rec.seconds = now_s() - t0;
	rec.finished = time(NULL);
	rec.complete = !failed && !interrupted;
	r0_io_file_close(&t);
	if (interrupted)
		fprintf(stderr, PROG ": %s: interrupted by a signal; the device is between states\n", path);

	err = save_and_say(&rec, &plan, path, json, !failed || rec.bytes_written || rec.bytes_discarded);
	if (r0_cli_close_stdout(PROG) || err || failed || interrupted)
		return R0_EXIT_FAILURE;
	/* steady asked whether the drive settles: rounds ran out before it could tell */
	return state == R0_AGE_STEADY && !rec.steady_round ? R0_EXIT_NOT_CONCLUSIVE : R0_EXIT_OK;
}
