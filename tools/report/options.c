// SPDX-License-Identifier: GPL-2.0-or-later
/* r0report's command line: its options as data (struct r0_cli_opt), --help from them. */
#include <limits.h>
#include <stdlib.h>

#include "cli.h"
#include "inputs.h"
#include "options.h"

#include "r0/sweep.h"

enum { OPT_MIX = CHAR_MAX + 1, OPT_TITLE, OPT_THRESHOLD, OPT_DRIVE_GAIN, OPT_ASIDE, OPT_ASIDE_TITLE, OPT_ASIDE_MIX,
       OPT_ASIDE_DIR, OPT_OUTPUT_DIR, OPT_OLD_OUTPUT, OPT_CSV, OPT_SKIP_DAMAGED };

static const char usage_head[] =
	"Usage:\n"
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
	"or it says otherwise), the --aside line and the two paths.\n";

static const char usage_tail[] =
	"r0age records (r0age --json, or /run/r0kit/state/*.json) give a drive-state section\n"
	"with the steady-state rounds charted.\n"
	"The same run read twice (a file given twice or copied, a line repeated) is\n"
	"refused: it would narrow every interval on no new evidence; so is any other\n"
	"result given twice or copied: it would be reported twice.\n"
	"Exit status: 0 the report written, 1 it could not be written, 2 usage or\n"
	"an input refused (unreadable, of no schema it reads, damaged, read twice,\n"
	"no measured cell, r0bench files with no test in common).\n";

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .head = usage_head, .tail = usage_tail, .retired = "o--output-dir" };

void report_options(int argc, char **argv, struct report_args *a, struct r0_cmp_opts *cmp)
{
	const struct r0_cli_opt opts[] = {
		{ "output-dir", OPT_OUTPUT_DIR, R0_CLI_STRING, R0_CLI_TO(a->dir), .arg = "DIR",
		  .help = "where the report goes (default .; created if missing)" },
		{ "output", OPT_OLD_OUTPUT, R0_CLI_STRING, R0_CLI_TO(a->dir), .renamed_to = "output-dir", .arg = "DIR" },
		{ "csv", OPT_CSV, R0_CLI_STRING, R0_CLI_TO(a->csv_dir), .arg = "DIR",
		  .help = "also write the sweep as CSV into DIR (created if missing): cells.csv (a row per run, those "
			  "judged far flagged), comparisons.csv (a row per workload and target: median, speed-up and "
			  "its interval; none for the single drive), choices.csv (the chunk choices under the mix) "
			  "and noise.csv (the study's noise, a row per target); RFC 4180, the report's names, units "
			  "in the column names, empty: not known or no answer" },
		{ "mix", OPT_MIX, R0_CLI_STRING, R0_CLI_TO(a->mix), .arg = "MIX",
		  .help = "the workload mix the verdict weighs: desktop (default; everyday or replay for results of "
			  "those alone), database, sequential, or KEY=WEIGHT,... where KEY is a workload (\"4K QD32 "
			  "read\") or a class (seq-read, rand-small-q1-write, rand-large-read, ...), or a mix file "
			  "r0profile measured (r0mix/1)" },
		{ "threshold", OPT_THRESHOLD, R0_CLI_CALL, R0_CLI_TO(cmp->threshold), .call = r0_cli_threshold,
		  .arg = "PCT", .def = "5", .help = "the smallest difference that counts" },
		{ "drive-gain", OPT_DRIVE_GAIN, R0_CLI_CALL, R0_CLI_TO(cmp->drive_gain), .call = r0_cli_drive_gain,
		  .arg = "X", .def = "1.2",
		  .help = "what a drive must add over one fewer to be worth buying, by the worth-it rule, from the "
			  "drive after the fewest worth it (the 2nd drive: the worth-it bar)" },
		{ "title", OPT_TITLE, R0_CLI_STRING, R0_CLI_TO(a->title), .arg = "TEXT", .help = "the report's title" },
		{ "skip-damaged", OPT_SKIP_DAMAGED, R0_CLI_SET, R0_CLI_TO(a->skip_damaged),
		  .help = "report an r0sweep or scenario file with damaged lines inside from the lines that can be "
			  "read (refused without it); the report says how many were skipped. A last line cut "
			  "mid-write (an interrupted study) is skipped and said without it" },
		{ "aside", OPT_ASIDE, R0_CLI_STRING, R0_CLI_TO(a->aside_file), .arg = "FILE",
		  .help = "another study's r0sweep results (not pooled), said in one line under the verdict: how many "
			  "of its drives to build and why, or that its last drive added little, else its verdict" },
		/* an option about the aside with no aside is one the user thinks did something */
		{ "aside-title", OPT_ASIDE_TITLE, R0_CLI_STRING, R0_CLI_TO(a->aside_title), .arg = "TEXT",
		  .def = "\"Another study\"", .help = "what that study is", .needs = "aside" },
		{ "aside-mix", OPT_ASIDE_MIX, R0_CLI_STRING, R0_CLI_TO(a->aside_mix), .arg = "MIX",
		  .help = "the mix it is weighed under (default: --mix)", .needs = "aside" },
		{ "aside-dir", OPT_ASIDE_DIR, R0_CLI_STRING, R0_CLI_TO(a->aside_dir), .arg = "DIR",
		  .help = "its report's folder, relative to DIR: the line links DIR/report.md and DIR/report.html",
		  .needs = "aside" },
		{ 0 },
	};

	*a = (struct report_args){ .dir = "." };
	r0_cli_parse(&cli, opts, argc, argv);
	/* an empty title would leave the report, or the aside's line, without its first words */
	if (a->title && !a->title[0])
		exit(r0_cli_usage_error(PROG, "--title '': empty: name the report, or leave --title out for the "
					"default"));
	if (a->aside_title && !a->aside_title[0])
		exit(r0_cli_usage_error(PROG, "--aside-title '': empty: name the study, or leave --aside-title out "
					"for \"Another study\""));
}
