// SPDX-License-Identifier: GPL-2.0-or-later
/* r0report: r0sweep, r0trim, scenario and r0age result files into a Markdown report and one self-contained HTML page. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "mixarg.h"
#include "report/charts.h"
#include "report/doc.h"
#include "report/extra.h"
#include "report/first.h"
#include "report/sweep.h"

#include "r0/age.h"
#include "r0/advice.h"
#include "r0/analysis.h"
#include "r0/benchjson.h"
#include "r0/csv.h"
#include "r0/resultfiles.h"
#include "r0/sweep.h"

#define PROG "r0report"

enum { OPT_MIX = CHAR_MAX + 1, OPT_TITLE, OPT_THRESHOLD, OPT_DRIVE_GAIN, OPT_ASIDE, OPT_ASIDE_TITLE, OPT_ASIDE_MIX, OPT_ASIDE_DIR,
       OPT_OUTPUT_DIR, OPT_OLD_OUTPUT, OPT_CSV };

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      "  " PROG " [--output-dir DIR] [--csv DIR] [--mix MIX] [--threshold PCT] [--drive-gain X] [--title TEXT]\n"
	      "           [--aside FILE [--aside-title TEXT] [--aside-mix MIX] [--aside-dir DIR]] FILE...\n"
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
	      "test). The HTML page is one self-contained file (no scripts,\n"
	      "fonts or anything from the network) with SVG charts: speed-up against\n"
	      "member count per workload (with the ideal n x line), a chunk size x\n"
	      "workload heat map per back end, latency percentiles against queue depth;\n"
	      "r0trim's discarded sectors per member and range, expected against\n"
	      "observed; a scenario's write speed and WAF against cycles with and\n"
	      "without TRIM. Prints the first screen's words (the verdict in one\n"
	      "sentence, what to build), the --aside line and the two paths.\n"
"\n"
	      "Options:\n"
	      "      --output-dir DIR  where the report goes (default .; created if missing)\n"
	      "      --csv DIR      also write the sweep as CSV into DIR (created if missing):\n"
	      "                     cells.csv (a row per run), comparisons.csv (a row per\n"
	      "                     workload and target: median, speed-up and its interval)\n"
	      "                     and choices.csv (the chunk choices under the mix);\n"
	      "                     RFC 4180, units in the column names, empty: not known\n"
	      "      --mix MIX      the workload mix the verdict weighs: desktop (default;\n"
	      "                     everyday or replay for results of those alone),\n"
	      "                     database, sequential, or KEY=WEIGHT,... where KEY is a\n"
	      "                     workload (\"4K QD32 read\") or a class (seq-read,\n"
	      "                     rand-small-q1-write, rand-large-read, ...), or a mix\n"
	      "                     file r0profile measured (r0mix/1)\n"
	      "      --threshold PCT  the smallest difference that counts (default 5)\n"
	      "      --drive-gain X  what a drive must add over one fewer to be worth buying,\n"
	      "                     by the worth-it rule (default 1.2)\n"
	      "      --title TEXT   the report's title\n"
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
	      "Exit status: 0 the report written, 1 it could not be written, 2 usage or\n"
	      "an input refused (unreadable, of no schema it reads, no measured cell).\n",
	      f);
}

/*
 * The whole report in one format: the same calls write report.md and
 * report.html; the HTML page adds the charts (A NULL: no sweep).
 */
static void report(FILE *f, enum doc_fmt fmt, const struct r0_analysis *a, const struct aside *as,
		   const struct extra *x, const char *title, const char *verdict, bool good, char **files, int nfiles)
{
	struct doc d = { .f = f, .fmt = fmt };

	doc_begin(&d, title);
	if (a) {
		first_screen(&d, a, as, files, nfiles);
		if (doc_html(&d)) {
			sweep_charts(f, a);
			fprintf(f, "<h2>Tables</h2>\n");
			d.shift = 1;
		}
		sweep_tables(&d, a);
		d.shift = 0;
	} else {
		doc_verdict(&d, verdict, good);
		doc_ul(&d, NULL);
		doc_files_li(&d, "Results", files, nfiles);
		doc_ul_end(&d);
	}
	extra_sections(&d, x);
	doc_end(&d);
}

/* One report file in DIR; false (and said why) when it could not be written. */
static bool write_file(const char *dir, const char *name, enum doc_fmt fmt, const struct r0_analysis *a,
		       const struct aside *as, const struct extra *x, const char *title, const char *verdict, bool good,
		       char **files, int nfiles, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	errno = 0;
	f = fopen(path, "we");
	if (f) {
		if (!strcmp(name, SUMMARY_SVG))
			chart_summary(f, a);
		else
			report(f, fmt, a, as, x, title, verdict, good, files, nfiles);
		if (!(ferror(f) | fclose(f)))
			return true;
	}
	fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno ? errno : EIO));
	return false;
}

/*
 * --csv DIR: the sweep's runs, comparisons and choices, a file each;
 * PATHS[i] the ones written. false (and said why) when one could not be.
 */
static bool write_csv(const char *dir, const struct r0_sweep_set *set, const struct r0_analysis *a,
		      char paths[3][4200])
{
	static const char *const names[3] = { "cells.csv", "comparisons.csv", "choices.csv" };
	bool ok = true;

	for (size_t i = 0; i < 3; i++) {
		char path[4200];
		FILE *f;
		int err;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		f = fopen(path, "we");
		if (!f) {
			err = -errno;
		} else {
			err = i == 0 ? r0_csv_cells(f, set) : i == 1 ? r0_csv_comparisons(f, a) : r0_csv_choices(f, a);
			if ((ferror(f) | fclose(f)) && !err)
				err = -EIO;
		}
		if (err) {
			fprintf(stderr, PROG ": %s: %s\n", path, strerror(-err));
			ok = false;
		} else {
			snprintf(paths[i], sizeof(paths[i]), "%s", path);
		}
	}
	return ok;
}

/*
 * Sweep files are pooled only when every cell comes from the same study
 * (devices, state, preconditioning, region, runtime, ramp): a report over
 * two studies would tell neither. The records SET->recs[from..] just
 * read from PATH against the first one (of FIRST). true (and said why)
 * when they differ.
 */
static bool study_mixed(const struct r0_sweep_set *set, size_t from, const char *first, const char *path)
{
	char why[1200];

	for (size_t i = from; i < set->n; i++)
		if (r0_sweep_rec_study_diff(&set->recs[0], &set->recs[i], why, sizeof(why))) {
			if (!strcmp(first, path))
				fprintf(stderr, PROG ": %s: cells of two studies in one file, another %s; not pooled "
					"(report each study from its own file)\n", path, why);
			else
				fprintf(stderr, PROG ": %s: another study than %s, another %s; not pooled (report "
					"each file on its own)\n", path, first, why);
			return true;
		}
	return false;
}

/*
 * --aside: PATH, a study of its own (never pooled with the report's),
 * analysed under MIXS into its line (aside_line). 0, or 1 after saying why.
 */
static int aside_study(const char *path, const char *title, const char *mixs, const struct r0_cmp_opts *cmp,
		       char *line, size_t len)
{
	struct r0_sweep_set set = { 0 };
	struct r0_analysis s = { 0 };
	enum r0_result_kind kind;
	struct r0_mix mix;
	char desc[1024];
	unsigned bad = 0;
	int err;

	if (r0_cli_mix(PROG, mixs, &mix, desc, sizeof(desc)))
		return 1;
	err = r0_result_kind(path, &kind);
	if (!err && kind != R0_RESULT_SWEEP)
		err = -EINVAL;
	if (!err)
		err = r0_sweep_load(path, &set, &bad);
	if (!err)
		err = r0_analyse(&set, &mix, cmp, &s);
	if (!err && !s.has_choice)
		err = -ENODATA;
	if (err)
		fprintf(stderr, PROG ": --aside %s: %s\n", path,
			err == -EINVAL ? "not r0sweep results (" R0_SWEEP_SCHEMA ")"
			: err == -ENODATA ? "no stripe measured against a single drive" : strerror(-err));
	else
		aside_line(&s, title, line, len);
	r0_analysis_free(&s);
	r0_sweep_set_free(&set);
	return err ? 1 : 0;
}

/*
 * --output-dir DIR and the directories above it, as mkdir -p makes them.
 * 0, or -errno (-ENOTDIR where DIR or one above it is a file).
 */
static int make_dirs(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;
	size_t len = strlen(dir);

	if (len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (char *p = path + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			return -errno;
		if (stat(path, &st))
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
		*p = c;
		if (!c)
			return 0;
	}
}

/* the tool for r0_cli_parse: its name in messages, its usage, its quirks */
static const struct r0_cli cli = { .prog = PROG, .usage = usage, .retired = "o--output-dir" };

int main(int argc, char **argv)
{
	const char *dir = ".", *mixs = NULL, *title = NULL, *csv_dir = NULL;
	const char *aside_file = NULL, *aside_title = "Another study", *aside_mix = NULL;
	struct aside as = { .line = "" };
	struct r0_sweep_set set = { 0 };
	struct r0_analysis a = { 0 };
	struct extra x = { 0 };
	bool have_sweep = false, good = true;
	char verdict[3072] = "";
	struct r0_mix mix;
	char mixdesc[1024] = "";
	struct r0_cmp_opts cmp;
	const char *first_sweep = NULL;
	char path_md[4096], path_html[4096], deftitle[128], csv_paths[3][4200] = { "", "", "" };
	int err, status = R0_EXIT_OK;

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
		{ 0 },
	};

	r0_cli_parse(&cli, opts, argc, argv);
	if (optind == argc)
		return r0_cli_usage_error(PROG, "name one or more result files (r0sweep, r0trim, r0scenario or r0age)");
	/* a file where the report's directory goes: said before anything is read or written */
	{
		struct stat st;

		if (!stat(dir, &st) && !S_ISDIR(st.st_mode)) {
			fprintf(stderr, PROG ": --output-dir %s: not a directory\n", dir);
			return R0_EXIT_REFUSED;
		}
		if (csv_dir && !stat(csv_dir, &st) && !S_ISDIR(st.st_mode)) {
			fprintf(stderr, PROG ": --csv %s: not a directory\n", csv_dir);
			return R0_EXIT_REFUSED;
		}
	}
	/* a wrong --mix is a usage error before anything is read */
	if (mixs && r0_cli_mix(PROG, mixs, &mix, mixdesc, sizeof(mixdesc)))
		return R0_EXIT_USAGE;
	if (aside_file && aside_study(aside_file, aside_title, aside_mix ? aside_mix : mixs ? mixs : "desktop", &cmp, as.line,
				      sizeof(as.line)))
		return R0_EXIT_REFUSED;
	x.trim = calloc((size_t)(argc - optind), sizeof(*x.trim));
	x.age = calloc((size_t)(argc - optind), sizeof(*x.age));
	x.bench = calloc((size_t)(argc - optind), sizeof(*x.bench));
	x.bench_file = calloc((size_t)(argc - optind), sizeof(*x.bench_file));
	if (!x.trim || !x.age || !x.bench || !x.bench_file) {
		fprintf(stderr, PROG ": %s\n", strerror(ENOMEM));
		return R0_EXIT_FAILURE;
	}
	for (int i = optind; i < argc; i++) {
		enum r0_result_kind kind;
		unsigned bad = 0;

		err = r0_result_kind(argv[i], &kind);
		if (!err && kind == R0_RESULT_SWEEP) {
			size_t before = set.n;

			err = r0_sweep_load(argv[i], &set, &bad);
			have_sweep = true;
			if (!err && study_mixed(&set, before, first_sweep ? first_sweep : argv[i], argv[i]))
				goto fail;
			if (!first_sweep && set.n)
				first_sweep = argv[i];
		} else if (!err && kind == R0_RESULT_TRIM) {
			err = r0_trimres_load(argv[i], &x.trim[x.n_trim]);
			x.n_trim += !err;
		} else if (!err && kind == R0_RESULT_BENCH) {
			err = r0_bench_load(argv[i], &x.bench[x.n_bench]);
			if (err == -ENOMSG)
				err = -EINVAL;
			x.bench_file[x.n_bench] = argv[i];
			x.n_bench += !err;
		} else if (!err && kind == R0_RESULT_AGE) {
			err = r0_ageres_load(argv[i], &x.age[x.n_age]);
			x.n_age += !err;
		} else if (!err) {
			err = r0_scenario_load(argv[i], &x.scen, &bad);
		}
		if (err) {
			fprintf(stderr, PROG ": %s: %s\n", argv[i],
				err == -EINVAL ? "not a result file r0report reads (schema " R0_SWEEP_SCHEMA
						 ", r0trim/1, r0scenario/1, " R0_STATE_SCHEMA " or r0bench/1)" : strerror(-err));
			goto fail;
		}
		if (bad)
			fprintf(stderr, PROG ": %s: %u unreadable line%s skipped\n", argv[i], bad, bad == 1 ? "" : "s");
	}
	if (have_sweep && !mixs) {
		/* everyday scenarios or a replay alone: judged by their own mix, as r0sweep did */
		enum r0_access *acc = calloc(set.n ? set.n : 1, sizeof(*acc));

		for (size_t i = 0; acc && i < set.n; i++)
			acc[i] = set.recs[i].access;
		err = r0_cli_mix(PROG, acc ? r0_mix_default(acc, set.n) : "desktop", &mix, mixdesc, sizeof(mixdesc));
		free(acc);
		if (err)
			goto fail;
	}
	if (have_sweep) {
		err = r0_analyse(&set, &mix, &cmp, &a);
		if (err) {
			fprintf(stderr, PROG ": %s\n", err == -ENODATA ? "the sweep files hold no measured cell" : strerror(-err));
			goto fail;
		}
		snprintf(verdict, sizeof(verdict), "%s", a.verdict);
		good = a.worth;
	} else if (csv_dir) {
		fprintf(stderr, PROG ": --csv: no r0sweep results (" R0_SWEEP_SCHEMA ") among the files: nothing to "
			"write as CSV\n");
		goto fail;
	} else {
		/* no sweep: the verdict is what the TRIM, scenario and r0age results say */
		extra_verdict(verdict, sizeof(verdict), &x, &good);
	}
	if (!title) {
		if (have_sweep)
			snprintf(deftitle, sizeof(deftitle), "r0kit: RAID0 of %u drives, is it worth it?", a.max_members);
		else if (x.scen.n)
			snprintf(deftitle, sizeof(deftitle), "r0kit: RAID0 of SSDs with and without TRIM, over cycles of use");
		else if (x.n_bench && !x.n_trim && !x.n_age)
			snprintf(deftitle, sizeof(deftitle), "r0kit: drives compared");
		else if (!x.n_trim)
			snprintf(deftitle, sizeof(deftitle), "r0kit: the drives' state");
		else
			snprintf(deftitle, sizeof(deftitle), "r0kit: does TRIM pass through the array?");
		title = deftitle;
	}
	if ((err = make_dirs(dir))) {
		fprintf(stderr, PROG ": --output-dir %s: %s\n", dir, err == -ENOTDIR ? "a file is in its path" :
			strerror(-err));
		goto fail;
	}
	if (csv_dir && (err = make_dirs(csv_dir))) {
		fprintf(stderr, PROG ": --csv %s: %s\n", csv_dir, err == -ENOTDIR ? "a file is in its path" :
			strerror(-err));
		goto fail;
	}
	if (csv_dir && !write_csv(csv_dir, &set, &a, csv_paths))
		status = R0_EXIT_FAILURE;
	r0_sweep_set_free(&set);
	{
		const struct r0_analysis *pa = have_sweep ? &a : NULL;
		char **files = argv + optind, path_svg[4200];
		int nf = argc - optind;

		if (!write_file(dir, "report.md", DOC_MD, pa, &as, &x, title, verdict, good, files, nf, path_md,
				sizeof(path_md))) {
			status = R0_EXIT_FAILURE;
			path_md[0] = '\0';
		}
		if (have_sweep && a.has_choice &&
		    !write_file(dir, SUMMARY_SVG, DOC_MD, pa, &as, &x, title, verdict, good, files, nf, path_svg,
				sizeof(path_svg)))
			status = R0_EXIT_FAILURE;
		if (!write_file(dir, "report.html", DOC_HTML, pa, &as, &x, title, verdict, good, files, nf, path_html,
				sizeof(path_html))) {
			status = R0_EXIT_FAILURE;
			path_html[0] = '\0';
		}
	}
	/* a measured mix: what it was, on its own line before the verdict */
	if (mixdesc[0] && have_sweep)
		printf("For %s:\n", mixdesc);
	if (have_sweep) {
		/* the report's first screen, word for word: its headline and what to build */
		char first[sizeof(a.headline) + 4096];

		r0_first_screen_text(&a, first, sizeof(first));
		fputs(first, stdout);
	} else
		printf("%s\n", verdict);
	if (as.line[0] && have_sweep)
		printf("%s\n", as.line);
	/* only what was written */
	for (const char *p = path_md; p; p = p == path_md ? path_html : NULL)
		if (p[0])
			printf("%s\n", p);
	for (size_t i = 0; i < 3; i++)
		if (csv_paths[i][0])
			printf("%s\n", csv_paths[i]);
	r0_analysis_free(&a);
	free(x.trim);
	free(x.age);
	for (size_t i = 0; i < x.n_bench; i++)
		r0_bench_doc_free(&x.bench[i]);
	free(x.bench);
	free(x.bench_file);
	r0_scenario_free(&x.scen);
	if (r0_cli_close_stdout(PROG))
		status = R0_EXIT_FAILURE;
	return status;
fail:
	/* an input it cannot report on, or no directory for it: refused, nothing written */
	r0_sweep_set_free(&set);
	r0_analysis_free(&a);
	free(x.trim);
	free(x.age);
	for (size_t i = 0; i < x.n_bench; i++)
		r0_bench_doc_free(&x.bench[i]);
	free(x.bench);
	free(x.bench_file);
	r0_scenario_free(&x.scen);
	return R0_EXIT_REFUSED;
}
