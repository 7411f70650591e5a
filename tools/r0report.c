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
#include "sweepin.h"
#include "report/charts.h"
#include "report/doc.h"
#include "report/extra.h"
#include "report/first.h"
#include "report/sweep.h"

#include "r0/age.h"
#include "r0/advice.h"
#include "r0/analysis.h"
#include "r0/benchcommon.h"
#include "r0/benchjson.h"
#include "r0/calibrate.h"
#include "r0/csv.h"
#include "r0/provenance.h"
#include "r0/resultfiles.h"
#include "r0/sweep.h"
#include "r0/trimanswer.h"

#define PROG "r0report"
#define N_CSV 4

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

/*
 * The whole report in one format: the same calls write report.md and
 * report.html; the HTML page adds the charts (A NULL: no sweep).
 */
/* What the sweep's own runs say of the machine's noise, and a calibration's answer (NULL: not one). */
struct noise_of {
	struct r0_noise_diag nz;
	struct r0_calibration *k;
};

static void report(FILE *f, enum doc_fmt fmt, const struct r0_analysis *a, const struct aside *as,
		   const struct screen_words *w, const struct extra *x, const struct noise_of *no, const char *title,
		   const char *verdict, bool good, char **files, int nfiles, const char *skipped)
{
	struct doc d = { .f = f, .fmt = fmt };

	doc_begin(&d, title);
	if (a && no->k) {
		/* a calibration: its answer, not a verdict on RAID0 */
		calibration_screen(&d, no->k, a, files, nfiles);
	} else if (a) {
		first_screen(&d, a, as, w, &no->nz, files, nfiles, skipped);
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
		       const struct aside *as, const struct screen_words *w, const struct extra *x,
		       const struct noise_of *no, const char *title, const char *verdict, bool good, char **files,
		       int nfiles, const char *skipped, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	errno = 0;
	f = fopen(path, "we");
	if (f) {
		if (!strcmp(name, SUMMARY_SVG))
			chart_summary(f, a);
		else
			report(f, fmt, a, as, w, x, no, title, verdict, good, files, nfiles, skipped);
		if (!(ferror(f) | fclose(f)))
			return true;
	}
	fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno ? errno : EIO));
	return false;
}

/*
 * --csv DIR: the sweep's runs, comparisons, choices and noise, a file
 * each; PATHS[i] the ones written. false (and said why) when one could
 * not be.
 */
static bool write_csv(const char *dir, const struct r0_sweep_set *set, const struct r0_analysis *a,
		      const struct r0_noise_diag *nz, char paths[N_CSV][4200])
{
	static const char *const names[N_CSV] = { "cells.csv", "comparisons.csv", "choices.csv", "noise.csv" };
	bool ok = true;

	for (size_t i = 0; i < N_CSV; i++) {
		char path[4200];
		FILE *f;
		int err;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		f = fopen(path, "we");
		if (!f) {
			err = -errno;
		} else {
			err = i == 0 ? r0_csv_cells(f, set, a) : i == 1 ? r0_csv_comparisons(f, a) :
			      i == 2 ? r0_csv_choices(f, a) : r0_csv_noise(f, nz);
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
		       bool skip_damaged, char *line, size_t len)
{
	struct r0_sweep_set set = { 0 };
	struct sweep_in in = { .set = &set, .skip_damaged = skip_damaged };
	struct r0_analysis s = { 0 };
	enum r0_result_kind kind;
	struct r0_mix mix;
	char desc[1024];
	int err;

	if (r0_cli_mix(PROG, mixs, &mix, desc, sizeof(desc)))
		return 1;
	err = r0_result_kind(path, &kind);
	if (!err && kind != R0_RESULT_SWEEP)
		err = -EINVAL;
	if (!err && sweep_in_read(PROG, &in, path, NULL)) {
		sweep_in_free(&in);
		r0_sweep_set_free(&set);
		return 1;
	}
	if (!err && r0_cli_mix_check(PROG, "--aside-mix", mixs, &mix, set.recs, set.n)) {
		sweep_in_free(&in);
		r0_sweep_set_free(&set);
		return 1;
	}
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
	/* its lines skipped go with its line, wherever the line goes */
	if (!err && in.note[0] && strlen(line) + 16 < len)
		snprintf(line + strlen(line), len - strlen(line), " (Skipped: %s.)", in.note);
	sweep_in_free(&in);
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

/* What the files given hold: sweeps pooled into one set, the rest beside it. */
struct inputs {
	struct r0_sweep_set set;
	struct sweep_in sweeps;     /* how they were read: the files, the lines skipped */
	struct extra x;
	bool have_sweep;
};

static void inputs_free(struct inputs *in)
{
	r0_sweep_set_free(&in->set);
	sweep_in_free(&in->sweeps);
	free(in->x.trim);
	free(in->x.age);
	for (size_t i = 0; i < in->x.n_bench; i++)
		r0_bench_doc_free(&in->x.bench[i]);
	free(in->x.bench);
	free(in->x.bench_file);
	r0_scenario_free(&in->x.scen);
}

#define NOT_READ "not a result file r0report reads (schema " R0_SWEEP_SCHEMA ", r0trim/1, " R0_SCENARIO_SCHEMA \
	", " R0_STATE_SCHEMA " or r0bench/1)"

/* Every file of FILES[0..N) by its schema into IN: 0, or -1 after saying why one cannot be read. */
static int load_inputs(char **files, int n, struct inputs *in)
{
	const char *first_sweep = NULL;
	struct extra *x = &in->x;

	x->trim = calloc((size_t)n, sizeof(*x->trim));
	x->age = calloc((size_t)n, sizeof(*x->age));
	x->bench = calloc((size_t)n, sizeof(*x->bench));
	x->bench_file = calloc((size_t)n, sizeof(*x->bench_file));
	if (!x->trim || !x->age || !x->bench || !x->bench_file) {
		fprintf(stderr, PROG ": %s\n", strerror(ENOMEM));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		enum r0_result_kind kind;
		unsigned bad = 0;
		int err = r0_result_kind(files[i], &kind);

		if (!err && kind == R0_RESULT_SWEEP) {
			size_t before = in->set.n;

			in->sweeps.set = &in->set;
			if (sweep_in_read(PROG, &in->sweeps, files[i], NOT_READ))
				return -1;
			in->have_sweep = true;
			if (study_mixed(&in->set, before, first_sweep ? first_sweep : files[i], files[i]))
				return -1;
			if (!first_sweep && in->set.n)
				first_sweep = files[i];
		} else if (!err && kind == R0_RESULT_TRIM) {
			err = r0_trimres_load(files[i], &x->trim[x->n_trim]);
			x->n_trim += !err;
		} else if (!err && kind == R0_RESULT_BENCH) {
			err = r0_bench_load(files[i], &x->bench[x->n_bench]);
			if (err == -ENOMSG)
				err = -EINVAL;
			x->bench_file[x->n_bench] = files[i];
			x->n_bench += !err;
		} else if (!err && kind == R0_RESULT_AGE) {
			err = r0_ageres_load(files[i], &x->age[x->n_age]);
			x->n_age += !err;
		} else if (!err) {
			err = r0_scenario_load(files[i], &x->scen, &bad);
		}
		if (err) {
			fprintf(stderr, PROG ": %s: %s\n", files[i],
				err == -EINVAL ? NOT_READ : strerror(-err));
			return -1;
		}
		if (bad)
			fprintf(stderr, PROG ": %s: %u unreadable line%s skipped\n", files[i], bad, bad == 1 ? "" : "s");
	}
	return 0;
}

/*
 * The sweeps of IN analysed under MIX into *A (without --mix, everyday
 * scenarios or a replay alone by their own mix, as r0sweep did): 0, or -1
 * after saying why not.
 */
static int analyse(struct inputs *in, const char *mixs, struct r0_mix *mix, char *mixdesc, size_t desc_len,
		   const struct r0_cmp_opts *cmp, struct r0_analysis *a)
{
	bool mix_given = mixs != NULL;
	int err;

	if (!mix_given) {
		enum r0_access *acc = calloc(in->set.n ? in->set.n : 1, sizeof(*acc));

		for (size_t i = 0; acc && i < in->set.n; i++)
			acc[i] = in->set.recs[i].access;
		err = r0_cli_mix(PROG, acc ? r0_mix_default(acc, in->set.n) : "desktop", mix, mixdesc, desc_len);
		free(acc);
		if (err)
			return -1;
	}
	/* a key of the mix that names nothing in the study would drop its share unsaid */
	if (r0_cli_mix_check(PROG, "--mix", mix_given ? mixs : mix->name, mix, in->set.recs, in->set.n))
		return -1;
	{
		/* the runs' own noise: beyond any the study was validated on, no claim is made */
		struct r0_noise_diag nz;

		err = r0_noise_diag(&in->set, &nz);
		if (!err)
			err = r0_analyse_machine(&in->set, mix, cmp, &nz, a);
	}
	if (err) {
		fprintf(stderr, PROG ": %s\n", err == -ENODATA ? "the sweep files hold no measured cell" : strerror(-err));
		return -1;
	}
	return 0;
}

/*
 * The noise of the sweeps' own runs into NO, and a calibration's answer
 * when the records hold copies (r0sweep --calibrate). 0, or -1 after
 * saying why not.
 */
static int noise_and_calibration(const struct inputs *in, const struct r0_mix *mix, const struct r0_cmp_opts *cmp,
				 struct noise_of *no)
{
	int err = r0_noise_diag(&in->set, &no->nz);

	if (!err && r0_calib_is_calibration(&in->set)) {
		no->k = malloc(sizeof(*no->k));
		err = no->k ? r0_calibrate(&in->set, mix, cmp, no->k) : -ENOMEM;
	}
	if (err)
		fprintf(stderr, PROG ": %s\n", err == -ENODATA ? "a calibration without its baseline (the first member "
			"alone) or its copies" : strerror(-err));
	return err ? -1 : 0;
}

/*
 * The analysis r0sweep stored in the one sweep file read, beside A (the
 * same cells, today's code) into *P: true when the report names it (other
 * code made it, or it says otherwise). Pooled files each stored theirs
 * of other cells: none is the pool's.
 */
static bool stored_analysis(const struct inputs *in, const struct r0_analysis *a, struct r0_provenance *p)
{
	struct r0_sweep_stored *s;
	const char *file, *base;
	bool say = false;

	if (in->sweeps.n_files != 1 || !(s = malloc(sizeof(*s))))
		return false;
	file = in->sweeps.file[0];
	base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	if (!r0_sweep_stored_analysis(file, s)) {
		r0_provenance_of(s, a, r0_cli_tool_id(PROG), base, p);
		say = p->line[0] != '\0';
	}
	free(s);
	return say;
}

/* r0bench/1 documents with no test in common: refused, naming each file's tests (they compare nothing). */
static int bench_apart(const struct extra *x)
{
	char why[4096];

	if (!r0_bench_none_common(x->bench, x->bench_file, x->n_bench, why, sizeof(why)))
		return 0;
	fprintf(stderr, PROG ": the r0bench files have no test in common (one test is one rw, block size, queue "
		"depth and jobs), so nothing compares them: %s\n", why);
	return -1;
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

/* DIR (--output-dir or --csv, named OPT) made with its parents: 0, or -1 after saying why not. */
static int output_dir(const char *opt, const char *dir)
{
	int err = make_dirs(dir);

	if (err)
		fprintf(stderr, PROG ": %s %s: %s\n", opt, dir, err == -ENOTDIR ? "a file is in its path" :
			strerror(-err));
	return err ? -1 : 0;
}

/* report.md, summary.svg (a sweep with a pick) and report.html into DIR; the paths written into MD and HTML. */
static bool write_reports(const char *dir, const struct inputs *in, const struct r0_analysis *a,
			  const struct aside *as, const struct screen_words *w, const struct noise_of *no,
			  const char *title, const char *verdict, bool good, char **files, int nf, char *md, char *html,
			  size_t len)
{
	const struct r0_analysis *pa = in->have_sweep ? a : NULL;
	char svg[4200];
	bool ok = true;

	if (!write_file(dir, "report.md", DOC_MD, pa, as, w, &in->x, no, title, verdict, good, files, nf, in->sweeps.note, md, len)) {
		ok = false;
		md[0] = '\0';
	}
	if (pa && a->has_choice && !no->k &&
	    !write_file(dir, SUMMARY_SVG, DOC_MD, pa, as, w, &in->x, no, title, verdict, good, files, nf, in->sweeps.note, svg, sizeof(svg)))
		ok = false;
	if (!write_file(dir, "report.html", DOC_HTML, pa, as, w, &in->x, no, title, verdict, good, files, nf, in->sweeps.note, html, len)) {
		ok = false;
		html[0] = '\0';
	}
	return ok;
}

/*
 * The terminal: a measured mix's description, then the report's first
 * screen word for word (its headline and what to build) or the verdict
 * of the other results, the aside's line, and the files written.
 */
static void say(const struct inputs *in, const struct r0_analysis *a, const struct noise_of *no, const char *mixdesc,
		const char *verdict, const struct aside *as, const struct screen_words *w, const char *md,
		const char *html, char csv[][4200])
{
	if (mixdesc[0] && in->have_sweep)
		printf("For %s:\n", mixdesc);
	if (in->have_sweep && no->k) {
		printf("%s\n", no->k->answer);
	} else if (in->have_sweep) {
		char first[sizeof(a->headline) + 8192];

		r0_first_screen_text(a, w->trim, w->stored ? w->stored->line : NULL, first, sizeof(first));
		fputs(first, stdout);
	} else
		printf("%s\n", verdict);
	if (as->line[0] && in->have_sweep)
		printf("%s\n", as->line);
	if (in->sweeps.note[0])
		printf("Skipped: %s.\n", in->sweeps.note);
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
	struct stat st;
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
	if (!stat(dir, &st) && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, PROG ": --output-dir %s: not a directory\n", dir);
		return R0_EXIT_REFUSED;
	}
	if (csv_dir && !stat(csv_dir, &st) && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, PROG ": --csv %s: not a directory\n", csv_dir);
		return R0_EXIT_REFUSED;
	}
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
		if (analyse(&in, mixs, &mix, mixdesc, sizeof(mixdesc), &cmp, &a))
			goto refused;
		snprintf(verdict, sizeof(verdict), "%s", a.verdict);
		good = a.worth;
		if (noise_and_calibration(&in, &mix, &cmp, &no))
			goto refused;
		r0_trim_answer(&a, in.x.trim, in.x.n_trim, trim_line, sizeof(trim_line));
		if (stored_analysis(&in, &a, &stored))
			words.stored = &stored;
	} else if (csv_dir) {
		fprintf(stderr, PROG ": --csv: no r0sweep results (" R0_SWEEP_SCHEMA ") among the files: nothing to "
			"write as CSV\n");
		goto refused;
	} else if (mixs || r0_cli_given("threshold") || r0_cli_given("drive-gain")) {
		/* they weigh a sweep's verdict: without one they would be ignored */
		fprintf(stderr, PROG ": --%s: no r0sweep results (" R0_SWEEP_SCHEMA ") among the files: it weighs a "
			"sweep's verdict\n", mixs ? "mix" : r0_cli_given("threshold") ? "threshold" : "drive-gain");
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
	if (!write_reports(dir, &in, &a, &as, &words, &no, title ? title : deftitle, verdict, good, argv + optind,
			   argc - optind, path_md, path_html, sizeof(path_md)))
		status = R0_EXIT_FAILURE;
	say(&in, &a, &no, mixdesc, verdict, &as, &words, path_md, path_html, csv_paths);
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
