// SPDX-License-Identifier: GPL-2.0-or-later
/* r0report: r0sweep, r0trim, scenario and r0age result files into a Markdown report and one self-contained HTML page. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cli.h"
#include "mixarg.h"
#include "report/analyse.h"
#include "report/first.h"
#include "report/inputs.h"
#include "report/options.h"
#include "report/output.h"

#include "r0/advice.h"
#include "r0/trimanswer.h"

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
static void say(const struct report_of *r, const char *md, const char *html, char csv[][4200])
{
	if (r->w->mix && r->w->mix[0] && r->a)
		printf("%s\n", r->w->mix);
	if (r->a && r->no->k) {
		printf("%s\n", r->no->k->answer);
	} else if (r->a) {
		char first[sizeof(r->a->verdict) + 8192];

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
	struct report_args o;
	struct aside as = { .line = "" };
	static struct r0_provenance stored;
	char trim_line[1024] = "";
	struct screen_words words = { .trim = trim_line };
	struct inputs in = { 0 };
	struct r0_analysis a = { 0 };
	bool good = true;
	char verdict[3072] = "", mixdesc[1024] = "", aside_desc[1024], deftitle[128], mix_line[1024 + 4200];
	char path_md[4096] = "", path_html[4096] = "", csv_paths[N_CSV][4200] = { "", "", "", "" };
	static struct noise_of no;
	struct r0_mix mix, aside_mix;
	struct r0_cmp_opts cmp;
	struct report_of r;
	struct made_dirs made = { 0 };
	int status = R0_EXIT_OK;

	r0_cmp_defaults(&cmp);
	report_options(argc, argv, &o, &cmp);
	as.dir = o.aside_dir;
	if (optind == argc)
		return r0_cli_usage_error(PROG, "name one or more result files (r0sweep, r0trim, r0scenario, r0bench "
					  "or r0age)");
	/* a file where the report's directory goes: said before anything is read or written */
	if (not_a_dir("--output-dir", o.dir) || (o.csv_dir && not_a_dir("--csv", o.csv_dir)))
		return R0_EXIT_REFUSED;
	/* a wrong --mix is a usage error before anything is read */
	if (o.mix && r0_cli_mix(PROG, "--mix", o.mix, &mix, mixdesc, sizeof(mixdesc)))
		return R0_EXIT_USAGE;
	/* the aside's mix too: it is read after the files reported (it must be none of them) */
	if (o.aside_mix && r0_cli_mix(PROG, "--aside-mix", o.aside_mix, &aside_mix, aside_desc, sizeof(aside_desc)))
		return R0_EXIT_USAGE;
	/* an input it cannot report on, or no directory for it: refused, nothing written */
	in.sweeps.skip_damaged = o.skip_damaged;
	if (load_inputs(argv + optind, argc - optind, &in) || bench_apart(&in.x))
		goto refused;
	/* the aside's line goes under a sweep's verdict: without one it would be dropped */
	if (o.aside_file && !in.have_sweep) {
		fprintf(stderr, PROG ": --aside %s: no r0sweep results (" R0_SWEEP_SCHEMA ") among the files: its line "
			"goes under a sweep's verdict\n", o.aside_file);
		goto refused;
	}
	/* read after the files reported: it must be none of them */
	if (o.aside_file && aside_study(o.aside_file, o.aside_title ? o.aside_title : "Another study",
					o.aside_mix ? "--aside-mix" : "--mix",
					o.aside_mix ? o.aside_mix : o.mix ? o.mix : "desktop", &cmp, o.skip_damaged,
					&in, argv + optind, argc - optind, as.line, sizeof(as.line)))
		goto refused;
	if (in.have_sweep) {
		if (analyse(&in, o.mix, &mix, mixdesc, sizeof(mixdesc), &cmp, &no, &a))
			goto refused;
		snprintf(verdict, sizeof(verdict), "%s", a.detail);
		/* a measured mix in its own words, and its file, wherever the verdict goes */
		if (mixdesc[0]) {
			snprintf(mix_line, sizeof(mix_line), "For %s (the mix in %s):", mixdesc, o.mix);
			words.mix = mix_line;
		}
		good = a.worth;
		r0_trim_answer(&a, in.x.trim, in.x.n_trim, trim_line, sizeof(trim_line));
		if (stored_analysis(&in, &a, &stored))
			words.stored = &stored;
	} else if (sweep_options(o.csv_dir, o.mix)) {
		goto refused;
	} else {
		/* no sweep: the verdict is what the TRIM, scenario and r0age results say */
		extra_verdict(verdict, sizeof(verdict), &in.x, &good);
	}
	if (!o.title)
		default_title(&in, &a, &no, deftitle, sizeof(deftitle));
	/* refused over one of them: none made is left behind */
	if (output_dir("--output-dir", o.dir, &made) || (o.csv_dir && output_dir("--csv", o.csv_dir, &made))) {
		made_dirs_undo(&made);
		goto refused;
	}
	made_dirs_free(&made);
	if (o.csv_dir && !write_csv(o.csv_dir, &in.set, &a, &no.nz, csv_paths))
		status = R0_EXIT_FAILURE;
	r = (struct report_of){ .a = in.have_sweep ? &a : NULL, .no = &no, .as = &as, .w = &words, .x = &in.x,
				.title = o.title ? o.title : deftitle, .verdict = verdict, .good = good,
				.files = argv + optind, .nfiles = argc - optind, .skipped = in.sweeps.note };
	if (!write_reports(o.dir, &r, path_md, path_html, sizeof(path_md)))
		status = R0_EXIT_FAILURE;
	say(&r, path_md, path_html, csv_paths);
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
