// SPDX-License-Identifier: GPL-2.0-or-later
/* r0report: r0sweep, r0trim, scenario and r0age result files into a Markdown report and one self-contained HTML page. */
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cli.h"
#include "mixarg.h"
#include "report/analyse.h"
#include "report/first.h"
#include "report/inputs.h"
#include "report/output.h"

#include "r0/advice.h"
#include "r0/trimanswer.h"

enum { OPT_MIX = CHAR_MAX + 1, OPT_TITLE, OPT_THRESHOLD, OPT_DRIVE_GAIN, OPT_ASIDE, OPT_ASIDE_TITLE, OPT_ASIDE_MIX, OPT_ASIDE_DIR,
       OPT_OUTPUT_DIR, OPT_OLD_OUTPUT, OPT_CSV, OPT_SKIP_DAMAGED };

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      "  " PROG " [--output-dir DIR] [--csv DIR] [--mix MIX] [--threshold PCT] [--drive-gain X] [--title TEXT]\n"
	      "           [--skip-damaged] [--aside FILE [--aside-title TEXT] [--aside-mix MIX] [--aside-dir DIR]] FILE...\n"
	      "\n"
	      "Reads result files and writes DIR/report.md and DIR/report.html: for a\n"
	      "sweep the verdict in one sentence, the mdadm and LVM commands that build\n"
	      "the recommended array, a summary chart (also DIR/summary.svg) and how it\n"
	      "was measured, then how it was reached and the evidence. Files are told\n"
	      "apart by their schema: r0sweep results (" R0_SWEEP_SCHEMA ", pooled when they\n"
	      "come from the same study: files of other devices, state, preconditioning,\n"
	      "region, runtime or ramp are refused, naming the difference), r0trim -J\n"
	      "documents (r0trim/1; of --watch: the verdict and a table of what each\n"
	      "bottom device received against its share) and scenario JSON lines\n"
	      "(r0scenario/1), and r0bench --json documents (r0bench/1: several drives or\n"
	      "arrays, each its own file, compared in one table and one chart of MB/s per\n"
	      "test, a test being one rw, block size, queue depth and jobs; files with no\n"
	      "test in common are refused). The HTML page is one self-contained file (no scripts,\n"
	      "fonts or anything from the network) with SVG charts: speed-up against\n"
	      "member count per workload (with the ideal n x line), a chunk size x\n"
	      "workload heat map per back end, latency percentiles against queue depth;\n"
	      "r0trim's discarded sectors per member and range, expected against\n"
	      "observed; a scenario's write speed and WAF against cycles with and\n"
	      "without TRIM. A sweep's report has a Noise section: the study's own\n"
	      "runs' visit sd, correlation within a visit, kurtosis, drift and run\n"
	      "noise, and whether they are within what the study was validated for;\n"
	      "an r0sweep --calibrate file's report opens with the calibration's\n"
	      "answer (its false differences and that sentence) instead of a verdict.\n"
	      "Prints the first screen's words (the verdict in one sentence with what\n"
	      "each drive bought adds, what to build, whether TRIM passes through each\n"
	      "array, and the analysis stored in the sweep file when other code made it\n"
	      "or it says otherwise), the --aside line and the two paths.\n"
"\n"
	      "Options:\n"
	      "      --output-dir DIR  where the report goes (default .; created if missing)\n"
	      "      --output DIR   old name of --output-dir, kept until " R0_CLI_OLD_NAMES_UNTIL "\n"
	      "      --csv DIR      also write the sweep as CSV into DIR (created if missing):\n"
	      "                     cells.csv (a row per run, those set aside flagged),\n"
	      "                     comparisons.csv (a row per workload and target: median,\n"
	      "                     speed-up and its interval; none for the single drive),\n"
	      "                     choices.csv (the chunk choices under the mix) and\n"
	      "                     noise.csv (the study's noise, a row per target); RFC\n"
	      "                     4180, the report's names, units in the column names,\n"
	      "                     empty: not known or no answer\n"
	      "      --mix MIX      the workload mix the verdict weighs: desktop (default;\n"
	      "                     everyday or replay for results of those alone),\n"
	      "                     database, sequential, or KEY=WEIGHT,... where KEY is a\n"
	      "                     workload (\"4K QD32 read\") or a class (seq-read,\n"
	      "                     rand-small-q1-write, rand-large-read, ...), or a mix\n"
	      "                     file r0profile measured (r0mix/1)\n"
	      "      --threshold PCT  the smallest difference that counts (default 5)\n"
	      "      --drive-gain X  what a drive must add over one fewer to be worth buying,\n"
	      "                     by the worth-it rule (default 1.2), from the drive after\n"
	      "                     the fewest worth it (the 2nd drive: the worth-it bar)\n"
	      "      --title TEXT   the report's title\n"
	      "      --skip-damaged  report an r0sweep file with damaged lines inside from the\n"
	      "                     lines that can be read (refused without it); the report\n"
	      "                     says how many were skipped. A last line cut mid-write\n"
	      "                     (an interrupted study) is skipped and said without it\n"
	      "      --aside FILE   another study's r0sweep results (not pooled), said in one\n"
	      "                     line under the verdict: how many of its drives to build\n"
	      "                     and why, or that its last drive added little, else its\n"
	      "                     verdict\n"
	      "      --aside-title TEXT  what that study is (default \"Another study\")\n"
	      "      --aside-mix MIX  the mix it is weighed under (default: --mix)\n"
	      "      --aside-dir DIR  its report's folder, relative to DIR: the line links\n"
	      "                     DIR/report.md and DIR/report.html\n"
	      "  -h, --help         this text\n"
	      "  -V, --version      version\n"
	      "\n"
	      "r0age records (r0age --json, or /run/r0kit/state/*.json) give a drive-state section\n"
	      "with the steady-state rounds charted.\n"
	      "The same run read twice (a file given twice or copied, a line repeated) is\n"
	      "refused: it would narrow every interval on no new evidence.\n"
	      "Exit status: 0 the report written, 1 it could not be written, 2 usage or\n"
	      "an input refused (unreadable, of no schema it reads, damaged, read twice,\n"
	      "no measured cell, r0bench files with no test in common).\n",
	      f);
}

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .usage = usage, .retired = "o--output-dir" };

/* DIR, given as OPT, is a file (a directory that is not there yet is made later): true after saying so. */
static bool not_a_dir(const char *opt, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) || S_ISDIR(st.st_mode))
		return false;
	fprintf(stderr, PROG ": %s %s: not a directory\n", opt, dir);
	return true;
}

/*
 * Options for a sweep given with no sweep among the files: --csv (there
 * would be nothing to write) and --mix, --threshold, --drive-gain (they
 * weigh a sweep's verdict: they would be ignored). true after saying which.
 */
static bool sweep_options(const char *csv_dir, const char *mixs)
{
	if (csv_dir) {
		fprintf(stderr, PROG ": --csv: no r0sweep results (" R0_SWEEP_SCHEMA ") among the files: nothing to "
			"write as CSV\n");
		return true;
	}
	if (mixs || r0_cli_given("threshold") || r0_cli_given("drive-gain")) {
		fprintf(stderr, PROG ": --%s: no r0sweep results (" R0_SWEEP_SCHEMA ") among the files: it weighs a "
			"sweep's verdict\n", mixs ? "mix" : r0_cli_given("threshold") ? "threshold" : "drive-gain");
		return true;
	}
	return false;
}

/* The title a report gets without --title, by what it reports on. */
static void default_title(const struct inputs *in, const struct r0_analysis *a, const struct noise_of *no,
			  char *buf, size_t len)
{
	const struct extra *x = &in->x;

	if (in->have_sweep && no->k)
		snprintf(buf, len, "r0kit: how noisy is this machine? An A/A calibration");
	else if (in->have_sweep)
		snprintf(buf, len, "r0kit: RAID0 of %u drives, is it worth it?", a->max_members);
	else if (x->scen.n)
		snprintf(buf, len, "r0kit: RAID0 of SSDs with and without TRIM, over cycles of use");
	else if (x->n_bench && !x->n_trim && !x->n_age)
		snprintf(buf, len, "r0kit: drives compared");
	else if (!x->n_trim)
		snprintf(buf, len, "r0kit: the drives' state");
	else
		snprintf(buf, len, "r0kit: does TRIM pass through the array?");
}

/*
 * The terminal: a measured mix's description, then the report's first
 * screen word for word (its headline and what to build) or the verdict
 * of the other results, the aside's line, and the files written.
 */
static void say(const struct report_of *r, const char *mixdesc, const char *md, const char *html, char csv[][4200])
{
	if (mixdesc[0] && r->a)
		printf("For %s:\n", mixdesc);
	if (r->a && r->no->k) {
		printf("%s\n", r->no->k->answer);
	} else if (r->a) {
		char first[sizeof(r->a->headline) + 8192];

		r0_first_screen_text(r->a, r->w->trim, r->w->stored ? r->w->stored->line : NULL, first, sizeof(first));
		fputs(first, stdout);
	} else
		printf("%s\n", r->verdict);
	if (r->as->line[0] && r->a)
		printf("%s\n", r->as->line);
	if (r->skipped[0])
		printf("Skipped: %s.\n", r->skipped);
	for (const char *p = md; p; p = p == md ? html : NULL)
		if (p[0])
			printf("%s\n", p);
	for (size_t i = 0; i < N_CSV; i++)
		if (csv[i][0])
			printf("%s\n", csv[i]);
}

int main(int argc, char **argv)
{
	const char *dir = ".", *mixs = NULL, *title = NULL, *csv_dir = NULL;
	const char *aside_file = NULL, *aside_title = NULL, *aside_mix = NULL;
	struct aside as = { .line = "" };
	static struct r0_provenance stored;
	char trim_line[1024] = "";
	struct screen_words words = { .trim = trim_line };
	struct inputs in = { 0 };
	struct r0_analysis a = { 0 };
	bool good = true, skip_damaged = false;
	char verdict[3072] = "", mixdesc[1024] = "", deftitle[128];
	char path_md[4096] = "", path_html[4096] = "", csv_paths[N_CSV][4200] = { "", "", "", "" };
	static struct noise_of no;
	struct r0_mix mix;
	struct r0_cmp_opts cmp;
	struct report_of r;
	int status = R0_EXIT_OK;

	r0_cmp_defaults(&cmp);
	const struct r0_cli_opt opts[] = {
		{ "output-dir", OPT_OUTPUT_DIR, R0_CLI_STRING, R0_CLI_TO(dir) },
		{ "output", OPT_OLD_OUTPUT, R0_CLI_STRING, R0_CLI_TO(dir), .renamed_to = "output-dir" },
		{ "csv", OPT_CSV, R0_CLI_STRING, R0_CLI_TO(csv_dir) },
		{ "mix", OPT_MIX, R0_CLI_STRING, R0_CLI_TO(mixs) },
		{ "title", OPT_TITLE, R0_CLI_STRING, R0_CLI_TO(title) },
		{ "threshold", OPT_THRESHOLD, R0_CLI_CALL, R0_CLI_TO(cmp.threshold), .call = r0_cli_threshold },
		{ "drive-gain", OPT_DRIVE_GAIN, R0_CLI_CALL, R0_CLI_TO(cmp.drive_gain), .call = r0_cli_drive_gain },
		{ "aside", OPT_ASIDE, R0_CLI_STRING, R0_CLI_TO(aside_file) },
		{ "aside-title", OPT_ASIDE_TITLE, R0_CLI_STRING, R0_CLI_TO(aside_title) },
		{ "aside-mix", OPT_ASIDE_MIX, R0_CLI_STRING, R0_CLI_TO(aside_mix) },
		{ "aside-dir", OPT_ASIDE_DIR, R0_CLI_STRING, R0_CLI_TO(as.dir) },
		{ "skip-damaged", OPT_SKIP_DAMAGED, R0_CLI_SET, R0_CLI_TO(skip_damaged) },
		{ 0 },
	};

	r0_cli_parse(&cli, opts, argc, argv);
	if (optind == argc)
		return r0_cli_usage_error(PROG, "name one or more result files (r0sweep, r0trim, r0scenario, r0bench "
					  "or r0age)");
	/* an option about the aside with no aside is one the user thinks did something */
	if (!aside_file && (aside_title || aside_mix || as.dir))
		return r0_cli_usage_error(PROG, "%s is for --aside FILE: name the other study's results with it",
					  aside_title ? "--aside-title" : aside_mix ? "--aside-mix" : "--aside-dir");
	/* a file where the report's directory goes: said before anything is read or written */
	if (not_a_dir("--output-dir", dir) || (csv_dir && not_a_dir("--csv", csv_dir)))
		return R0_EXIT_REFUSED;
	/* a wrong --mix is a usage error before anything is read */
	if (mixs && r0_cli_mix(PROG, mixs, &mix, mixdesc, sizeof(mixdesc)))
		return R0_EXIT_USAGE;
	if (aside_file && aside_study(aside_file, aside_title ? aside_title : "Another study",
				      aside_mix ? aside_mix : mixs ? mixs : "desktop", &cmp, skip_damaged, as.line,
				      sizeof(as.line)))
		return R0_EXIT_REFUSED;
	/* an input it cannot report on, or no directory for it: refused, nothing written */
	in.sweeps.skip_damaged = skip_damaged;
	if (load_inputs(argv + optind, argc - optind, &in) || bench_apart(&in.x))
		goto refused;
	/* the aside's line goes under a sweep's verdict: without one it would be dropped */
	if (aside_file && !in.have_sweep) {
		fprintf(stderr, PROG ": --aside %s: no r0sweep results (" R0_SWEEP_SCHEMA ") among the files: its line "
			"goes under a sweep's verdict\n", aside_file);
		goto refused;
	}
	if (in.have_sweep) {
		if (analyse(&in, mixs, &mix, mixdesc, sizeof(mixdesc), &cmp, &no, &a))
			goto refused;
		snprintf(verdict, sizeof(verdict), "%s", a.verdict);
		good = a.worth;
		r0_trim_answer(&a, in.x.trim, in.x.n_trim, trim_line, sizeof(trim_line));
		if (stored_analysis(&in, &a, &stored))
			words.stored = &stored;
	} else if (sweep_options(csv_dir, mixs)) {
		goto refused;
	} else {
		/* no sweep: the verdict is what the TRIM, scenario and r0age results say */
		extra_verdict(verdict, sizeof(verdict), &in.x, &good);
	}
	if (!title)
		default_title(&in, &a, &no, deftitle, sizeof(deftitle));
	if (output_dir("--output-dir", dir) || (csv_dir && output_dir("--csv", csv_dir)))
		goto refused;
	if (csv_dir && !write_csv(csv_dir, &in.set, &a, &no.nz, csv_paths))
		status = R0_EXIT_FAILURE;
	r = (struct report_of){ .a = in.have_sweep ? &a : NULL, .no = &no, .as = &as, .w = &words, .x = &in.x,
				.title = title ? title : deftitle, .verdict = verdict, .good = good, .files = argv + optind,
				.nfiles = argc - optind, .skipped = in.sweeps.note };
	if (!write_reports(dir, &r, path_md, path_html, sizeof(path_md)))
		status = R0_EXIT_FAILURE;
	say(&r, mixdesc, path_md, path_html, csv_paths);
	free(no.k);
	r0_analysis_free(&a);
	inputs_free(&in);
	if (r0_cli_close_stdout(PROG))
		status = R0_EXIT_FAILURE;
	return status;
refused:
	free(no.k);
	r0_analysis_free(&a);
	inputs_free(&in);
	return R0_EXIT_REFUSED;
}
