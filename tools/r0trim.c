// SPDX-License-Identifier: GPL-2.0-or-later
/* r0trim: prove whether discards pass through an array to its members, once and over repeated use. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "consent.h"
#include "mountdir.h"
#include "trim/trim.h"

#include "r0/age.h"
#include "r0/trimjson.h"

enum { OPT_CYCLES = CHAR_MAX + 1, OPT_FILL, OPT_FS, OPT_FS_DISCARD, OPT_REPEATS, OPT_FULL_SCAN, OPT_REQUIRE,
       OPT_OLD_REPEATS, OPT_LIVE, OPT_WATCH };

static const char usage_head[] =
	"Usage:\n"
	"  " PROG " [options] DEVICE\n"
	"  " PROG " [options] --live DIR\n"
	"  " PROG " [-J] --watch FILE DIR|DEVICE\n"
	"\n"
	"Checks whether discards (TRIM) pass through DEVICE, any stack of dm\n"
	"linear, striped, crypt, flakey, delay and thin, md raid0, raid1 and\n"
	"raid10 (near) and partitions, or a single device, to the devices at\n"
	"the bottom: the discard limits, discards over a set of ranges against\n"
	"each bottom device's discard counter and what every layer's mapping\n"
	"sends it, whether discarded blocks read back as each device promises\n"
	"(null_blk, SCSI LBPRZ, libata, NVMe DLFEAT), the md zone layout, and\n"
	"repeated use. One line a check: PASS, FAIL, NOT CHECKABLE or NOT\n"
	"CONCLUSIVE; the verdict names what was shown per bottom device:\n"
	"delivered or deallocated. DEVICE's data is destroyed.\n"
	"\n"
	"With --watch, over repeated use, nothing is written to any device: each\n"
	"run appends one reading of the bottom devices' discard counters to FILE\n"
	"(run it daily, or after each fstrim) and says what the readings show:\n"
	"every device received discards, one stopped receiving them (FAIL), or\n"
	"their shares drift from what the geometry predicts. With -J the same as\n"
	"one JSON document (\"mode\":\"watch\", the exit status alike).\n"
	"\n"
	"With --live, on a mounted ext4 or xfs in use, nothing is destroyed: one\n"
	"test file is written in DIR, its blocks mapped down to each bottom\n"
	"device (FIEMAP), then deleted and trimmed (FITRIM); each bottom device's\n"
	"discard counter must rise by its share, and where a device promises what\n"
	"a discarded block reads, those sectors are read back raw.\n";

static const char usage_tail[] =
	"DEVICE must not be mounted, held by another device (a member of a live\n"
	"array is refused), read-only or open elsewhere. It shows the plan (the\n"
	"device, the devices below it, what is written, how long) and asks first.\n"
	"Needs root. Exit status: 0 discards pass (--watch: also the first\n"
	"reading, a baseline), 1 they do not or a run failed, 2 usage or a\n"
	"refusal before anything was touched (a device in use, read-only or of a\n"
	"layer r0trim cannot model; no yes), 3 not conclusive.\n";

static int opt_fs(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	if (strcmp(arg, "ext4") && strcmp(arg, "xfs"))
		return r0_cli_usage_error(prog, "--fs '%s': use ext4 or xfs", arg);
	*(const char **)o->dest = arg;
	return 0;
}

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
/* --fill: a whole percentage MIN..MAX, "30" or "30%", as every --fill reads it (r0_parse_pct) */
static int opt_pct(const char *prog, const struct r0_cli_opt *o, const char *arg)
{
	if (r0_parse_pct(arg, (unsigned)o->min, (unsigned)o->max, o->dest))
		return r0_cli_usage_error(prog, "--%s '%s': %s", o->name, arg, o->why);
	return 0;
}

static const struct r0_cli cli = { .prog = PROG, .head = usage_head, .tail = usage_tail };

/* --live --plan: what the live check writes (one file) and where it reads. */
static int show_live_plan(const struct r0_trim_run *r, const char *dir, const char *fs, const struct r0_consent *c)
{
	struct r0_plan p;
	struct r0_consent go = *c;

	if (r0_plan_begin(&p, PROG, "a live TRIM check: nothing is destroyed"))
		return R0_EXIT_FAILURE;
	p.keeps_data = true;
	fprintf(p.f, "  %s: %s on %s (%s)\n", dir, fs, r->t.kname, r->t.desc);
	fputs("  below it:", p.f);
	for (unsigned i = 0; i < r->t.n_members; i++)
		fprintf(p.f, " %s", r->t.members[i].kname);
	fprintf(p.f, "\n  writes: one test file of at most 64 MiB in %s, deleted again; then FITRIM\n", dir);
	fputs("  reads: the bottom devices' counters and the file's own sectors on them (read-only)\n", p.f);
	/* nothing to agree to: it writes no more than a user's own file */
	go.yes = true;
	return r0_plan_decide(&p, &go);
}

/* The plan: DEVICE, the devices below it, what is written and how long it takes. */
static int show_plan(const struct r0_trim_run *r, const char *fstype, unsigned cycles, unsigned fill,
		     const struct r0_consent *c)
{
	uint64_t bytes = r->t.size_sectors * 512;
	/* range mode: a pattern over the whole device, read back; a cycle fills FILL % and reads it */
	double s = r0_plan_write_seconds(fstype ? 0 : 2 * bytes) +
		   r0_plan_write_seconds(2 * (bytes / 100 * fill) * cycles);
	char t[48];
	struct r0_plan p;

	if (r0_plan_begin(&p, PROG, "a TRIM check that DESTROYS THE DATA on this device"))
		return R0_EXIT_FAILURE;
	r0_plan_device(&p, r->path);
	if (r->t.kind != R0_TRIM_SINGLE || r->t.members[0].depth) {
		fputs("  below it (what the array holds of them is lost):", p.f);
		for (unsigned i = 0; i < r->t.n_members; i++)
			fprintf(p.f, " %s", r->t.members[i].kname);
		fputc('\n', p.f);
	}
	if (fstype)
		fprintf(p.f, "  writes: a new %s file system, then %u cycles of files over %u %% of it\n",
			fstype, cycles, fill);
	else
		fprintf(p.f, "  writes: a pattern over the whole device, discards over ranges%s\n",
			cycles ? ", then cycles of fill and discard" : "");
	r0_plan_duration(s, t, sizeof(t));
	fprintf(p.f, "  time: %s if the drives write and read %.0f MB/s (a guess: not measured)\n", t,
		R0_PLAN_ASSUMED_MBPS);
	return r0_plan_decide(&p, c);
}

/*
 * --watch FILE DIR|DEVICE: one reading appended to its log. WHAT NULL: not
 * one DIR or DEVICE named (a usage error, as an option besides -J is). The
 * exit status.
 */
static int watch_main(struct r0_trim_run *r, const char *watch, const char *what)
{
	/* a mode that takes one option beside it: any other would be ignored */
	const char *other = r0_cli_given_other_than((const char *const[]){ "watch", "json", NULL });
	char wpath[PATH_MAX], why[1024];
	struct r0_trim_watch_reading w;
	bool refused;
	int rc;

	if (!what)
		return r0_cli_usage_error(PROG, "--watch FILE takes one DIR or DEVICE");
	if (other)
		return r0_cli_usage_error(PROG, "--watch reads counters only: no other option but -J (not --%s)", other);
	if (r0_trim_watch_open(watch, what, &r->t, wpath, sizeof(wpath), why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return R0_EXIT_REFUSED;
	}
	r->path = wpath;
	if (r0_trim_watch_take(&r->t, watch, what, &w, &refused, why, sizeof(why))) {
		if (why[0])
			fprintf(stderr, PROG ": %s\n", why);
		rc = refused ? R0_EXIT_REFUSED : R0_EXIT_FAILURE;
	} else if (r->records && r0_trim_watch_write_json(&r->t, r->path, what, watch, &w, stdout)) {
		fprintf(stderr, PROG ": %s: cannot make the JSON document: %s\n", what, strerror(ENOMEM));
		rc = R0_EXIT_FAILURE;
	} else {
		if (!r->records)
			r0_trim_watch_write_text(&r->t, what, watch, &w, stdout);
		rc = watch_exit_status(w.j.verdict);
	}
	return r0_cli_close_stdout(PROG) ? R0_EXIT_FAILURE : rc;
}

/* The verdict line, or the whole r0trim/1 document. The exit status: RC, or a failure when the document cannot be made. */
static int say_verdict(const struct r0_trim_run *r, int rc)
{
	char line[2048];

	if (r->records && r0_trim_run_write_json(r, stdout)) {
		fprintf(stderr, PROG ": %s: cannot make the JSON document: %s\n", r->path, strerror(ENOMEM));
		return R0_EXIT_FAILURE;
	}
	if (!r->records) {
		r0_trim_run_verdict_line(r, line, sizeof(line));
		puts(line);
	}
	return rc;
}

/*
 * DEVICE, or --live DIR's device: the checks before writing, the plan and
 * a yes, then (not LIVE) DEVICE opened. -1 to go on, or the exit status.
 */
static int prepare(struct r0_trim_run *r, int described, const char *described_why, const char *live, bool force,
		   const char *fstype, unsigned cycles, unsigned fill, const struct r0_consent *consent)
{
	char why[1024];
	int rc, err = live ? r0_trim_live_ready(r, described, described_why, live, why, sizeof(why)) :
			     r0_trim_run_device_ready(r, described, force, why, sizeof(why));

	if (err) {
		fprintf(stderr, PROG ": %s\n", why);
		return R0_EXIT_REFUSED;
	}
	rc = live ? show_live_plan(r, live, r->live_fs, consent) : show_plan(r, fstype, cycles, fill, consent);
	if (rc >= 0 || live)
		return rc;
	if ((err = r0_trim_run_open(r, fstype != NULL))) {
		/* another opener came between the checks and here: still nothing written */
		fprintf(stderr, PROG ": %s: cannot open exclusively: %s\n", r->path, strerror(-err));
		return R0_EXIT_REFUSED;
	}
	return -1;
}

/* The run closed; the exit status RC, a failure when cut short or stdout failed. */
static int finish(struct r0_trim_run *r, int rc)
{
	r0_trim_run_close(r);
	/* cut short: whatever was shown so far, the run failed */
	if (r0_cli_stop_requested()) {
		fprintf(stderr, PROG ": %s: interrupted by a signal\n", r->path);
		rc = R0_EXIT_FAILURE;
	}
	return r0_cli_close_stdout(PROG) ? R0_EXIT_FAILURE : rc;
}

/* What the command line asks for. */
struct options {
	const char *fstype, *live, *watch;
	unsigned cycles, fill, repeats;
	bool cycles_set, force, mount_discard, full_scan, json;
	enum r0_trim_level require;
	struct r0_consent consent;
};

/*
 * The options of ARGV into O, by the table that is also --help; the
 * table's needs and excludes held. A usage error, --help or --version
 * ends the program.
 */
static void read_options(struct options *o, int argc, char **argv)
{
	*o = (struct options){ .fill = 50, .repeats = 1, .require = R0_LEVEL_DELIVERED };
	static const struct r0_cli_choice fs_discards[] = {
		{ "fstrim", false }, { "mount", true }, { NULL, 0 },
	};
	static const struct r0_cli_choice levels_req[] = {
		{ "delivered", R0_LEVEL_DELIVERED }, { "deallocated", R0_LEVEL_DEALLOCATED }, { NULL, 0 },
	};
	/* what each option is and what it goes with: r0_cli_parse holds .needs and .excludes, --help prints it */
	const struct r0_cli_opt opts[] = {
		{ "cycles", OPT_CYCLES, R0_CLI_UINT, R0_CLI_TO(o->cycles), 0, 10000, .why = "a number from 0 to 10000",
		  .given = &o->cycles_set, .arg = "N",
		  .help = "after the range checks, N cycles of fill, discard, verify; with --fs, N file system cycles (1 "
		  "or more)",
		  .def = "0; 3 with --fs" },
		{ "fill", OPT_FILL, R0_CLI_CALL, R0_CLI_TO(o->fill), 1, 90, .call = opt_pct,
		  .why = "a percentage from 1 to 90 (30 or 30%)", .arg = "PCT",
		  .help = "share of the device (or file system) filled in a cycle, 1-90", .def = "50" },
		{ "fs", OPT_FS, R0_CLI_CALL, R0_CLI_TO(o->fstype), .call = opt_fs, .arg = "ext4|xfs",
		  .help = "file system mode instead of the range checks: mkfs, fill with files, delete them, discard, "
			  "per cycle",
		  .excludes = "discard-repeats,full-scan",
		  .excludes_why = "--discard-repeats and --full-scan are for the range checks, which --fs replaces" },
		{ "live", OPT_LIVE, R0_CLI_STRING, R0_CLI_TO(o->live), .arg = "DIR",
		  .help = "the live check on the file system mounted at DIR (writes one test file there and nothing "
			  "else)",
		  .excludes = "fs,cycles,discard-repeats,full-scan,fill,force", .excludes_why = "it checks one test file" },
		{ "watch", OPT_WATCH, R0_CLI_STRING, R0_CLI_TO(o->watch), .arg = "FILE",
		  .help = "append a reading of DIR's (or DEVICE's) bottom devices' discard counters to FILE and judge "
			  "the readings (writes FILE only; -J is the one option beside it)" },
		{ "fs-discard", OPT_FS_DISCARD, R0_CLI_CHOICE, R0_CLI_TO(o->mount_discard), .choices = fs_discards,
		  .why = "use fstrim or mount", .arg = "fstrim|mount",
		  .help = "discard with FITRIM (fstrim, default) or by mounting with -o discard", .needs = "fs,live" },
		{ "discard-repeats", OPT_REPEATS, R0_CLI_UINT, R0_CLI_TO(o->repeats), 1, 100, .why = "a number from 1 to 100",
		  .arg = "N", .help = "discard each range N times", .def = "1" },
		{ "repeats", OPT_OLD_REPEATS, R0_CLI_UINT, R0_CLI_TO(o->repeats), 1, 100, .why = "a number from 1 to 100",
		  .renamed_to = "discard-repeats", .arg = "N" },
		{ "full-scan", OPT_FULL_SCAN, R0_CLI_SET, R0_CLI_TO(o->full_scan),
		  .help = "check every sector outside each range also on devices over 2 GiB (default there: two "
			  "stripes either side)" },
		{ "require", OPT_REQUIRE, R0_CLI_CHOICE, R0_CLI_TO(o->require), .choices = levels_req,
		  .why = "use delivered or deallocated", .arg = "deallocated",
		  .help = "fail unless every bottom device read back as it promises (default: delivered is enough)" },
		{ "force", 'f', R0_CLI_SET, R0_CLI_TO(o->force), .help = "use DEVICE although it holds a signature" },
		{ "json", 'J', R0_CLI_SET, R0_CLI_TO(o->json),
		  .help = "JSON (schema " R0_TRIM_SCHEMA ") instead of the report" },
		R0_CONSENT_OPTS(o->consent),
		{ 0 },
	};

	r0_cli_parse(&cli, opts, argc, argv);
}

int main(int argc, char **argv)
{
	struct r0_trim_run r;
	struct r0_limits_check lc;
	struct options o;
	char live_fs[16] = "", live_dev[64], mnt[64] = "", why[1024];
	bool mounted = false;
	struct utsname u;
	int err, rc;

	r0_cli_block_stop_signals();
	r0_trim_run_init(&r);
	r.stop = r0_cli_stop_requested;
	r.on_line = isatty(STDERR_FILENO) ? show_progress : NULL;
	read_options(&o, argc, argv);
	r.records = o.json;
	if (o.watch)
		return watch_main(&r, o.watch, argc - optind == 1 ? argv[optind] : NULL);
	if (o.live) {
		if (argc - optind != 0)
			return r0_cli_usage_error(PROG, "--live takes a directory, no DEVICE");
		/* nothing can be shown where no test file can be written: refused, not a "no" */
		if (r0_trim_live_device(o.live, live_fs, sizeof(live_fs), live_dev, sizeof(live_dev), why, sizeof(why))) {
			fprintf(stderr, PROG ": %s\n", why);
			return R0_EXIT_REFUSED;
		}
		r.path = live_dev;
		r.live_dir = o.live;
		r.live_fs = live_fs;
	} else if (argc - optind != 1)
		return r0_cli_usage_error(PROG, "name one device (an array or a single device)");
	/* --fs-discard needs --fs or --live, --fs excludes --discard-repeats and --full-scan: the table's */
	if (o.fstype && o.require == R0_LEVEL_DEALLOCATED)
		return r0_cli_usage_error(PROG, "--require deallocated is for the range checks, not --fs");
	if (o.fstype && !o.cycles_set)
		o.cycles = 3;
	/* file system mode is nothing but its cycles: none would make a file system and check nothing */
	if (o.fstype && !o.cycles)
		return r0_cli_usage_error(PROG, "--cycles '0': --fs is its cycles alone: give 1 or more (default 3)");
	/* the range checks fill nothing: a share for cycles that do not run would be ignored */
	if (r0_cli_given("fill") && !o.cycles)
		return r0_cli_usage_error(PROG, "--fill is the share a cycle fills: give --cycles N or --fs");
	if (!o.live)
		r.path = argv[optind];
	if (!o.consent.plan_only && (rc = r0_cli_need_root(PROG, "it writes to DEVICE and reads its bottom devices")) >= 0)
		return rc;

	/* every check before anything is written; a layer it cannot model is no "no": exit 2, before anything reads */
	err = r0_trim_device_describe(r.path, &r.t, why, sizeof(why));
	if (err == -EOPNOTSUPP) {
		fprintf(stderr, PROG ": %s: %s\n", r.path, why);
		return R0_EXIT_REFUSED;
	}
	if ((rc = prepare(&r, err, why, o.live, o.force, o.fstype, o.cycles, o.fill, &o.consent)) >= 0)
		return rc;

	uname(&u);
	r.kernel = u.release;
	if (!r.records)
		r0_trim_run_write_header(&r, stdout);   /* with -J the document has it */
	r0_trim_run_geometry(&r);
	r0_trim_run_limits(&r, &lc);
	if (o.live) {
		if (r.t.geometry_matches)
			r0_trim_run_live(&r, o.live, live_fs, o.mount_discard);
	} else if (r.t.geometry_matches && r0_trim_run_quiet(&r) == 0) {
		if (o.fstype)
			fs_mode(&r, mnt, sizeof(mnt), &mounted, o.fstype, o.mount_discard, o.cycles, o.fill);
		else if (r0_trim_run_ranges(&r, &lc, o.repeats, o.full_scan) == 0 && o.cycles)
			r0_trim_run_cycles(&r, o.cycles, o.fill);
	}
	r0_cli_leave_mount(mnt, &mounted);
	/* its pattern and discards moved the device and the ones below it from any state r0age recorded */
	for (unsigned i = 0; r.t.geometry_matches && i <= r.t.n_members; i++)
		r0_state_forget(i < r.t.n_members ? r.t.members[i].devt : r.t.devt);

	/* every bottom device shown at least at REQUIRE, no failure, one conclusive pass */
	r.result.cut_short = r0_trim_run_stopped(&r);
	r0_trim_result_judge(&r.result, &r.t, o.fstype != NULL, o.require);
	rc = trim_exit_status(r.result.overall);
	print_results(&r);
	rc = say_verdict(&r, rc);
	return finish(&r, rc);
}
