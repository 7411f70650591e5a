/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What r0report writes: report.md, summary.svg and report.html, all from
 * one description of the report; the sweep as CSV (--csv); and the
 * directories they go in, made first.
 */
#ifndef R0_REPORT_OUTPUT_H
#define R0_REPORT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "analyse.h"
#include "extra.h"
#include "first.h"

#include "r0/analysis.h"
#include "r0/sweep.h"

/* The CSV files --csv writes: cells.csv, comparisons.csv, choices.csv, noise.csv. */
#define N_CSV 4

/* What every file of the report is written from. */
struct report_of {
	const struct r0_analysis *a;    /* the sweeps' analysis; NULL: no sweep */
	const struct noise_of *no;      /* their noise, and a calibration's answer */
	const struct aside *as;         /* the --aside line (line "": none) */
	const struct screen_words *w;   /* the TRIM answer and the stored analysis */
	const struct extra *x;          /* the r0trim, scenario, r0age and r0bench results */
	const char *title;
	const char *verdict;            /* without a sweep: what the other results say */
	bool good;                      /* ... and whether it is good news */
	char **files;                   /* the result files, as given */
	int nfiles;
	const char *skipped;            /* their lines skipped, in words ("": none) */
};

/* The directories r0report made, to remove when it is refused after making them. */
#define MADE_DIRS_MAX 64
struct made_dirs {
	size_t n;
	char *path[MADE_DIRS_MAX];   /* in the order made: each one inside or beside those before it */
};

/*
 * DIR (--output-dir or --csv, named OPT) made with its parents, as mkdir -p
 * makes them, each one made added to MADE, and writable: 0, or -1 after
 * saying why not.
 */
int output_dir(const char *opt, const char *dir, struct made_dirs *made);

/* Removes the directories in MADE, the last made first (those not empty are left), and forgets them. */
void made_dirs_undo(struct made_dirs *made);

/* Forgets MADE's directories, leaving them. */
void made_dirs_free(struct made_dirs *made);

/*
 * report.md, summary.svg (a sweep with a pick, not a calibration) and
 * report.html of R into DIR; the paths written into MD and HTML (LEN
 * bytes each; "" where one was not). false when one could not be
 * written (said why on stderr).
 */
bool write_reports(const char *dir, const struct report_of *r, char *md, char *html, size_t len);

/*
 * --csv DIR: the sweep SET's runs, comparisons (A), choices (A) and noise
 * (NZ), a file each; PATHS[i] the ones written. false (and said why) when
 * one could not be.
 */
bool write_csv(const char *dir, const struct r0_run_set *set, const struct r0_analysis *a,
	       const struct r0_noise_diag *nz, char paths[N_CSV][4200]);

#endif
