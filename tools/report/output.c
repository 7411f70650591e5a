// SPDX-License-Identifier: GPL-2.0-or-later
/* What r0report writes: report.md, summary.svg, report.html, the CSV files, and the directories they go in (output.h). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "charts.h"
#include "doc.h"
#include "output.h"
#include "sweep.h"

#include "r0/csv.h"

/*
 * The whole report in one format: the same calls write report.md and
 * report.html; the HTML page adds the charts.
 */
static void report(FILE *f, enum doc_fmt fmt, const struct report_of *r)
{
	struct doc d = { .f = f, .fmt = fmt };

	doc_begin(&d, r->title);
	if (r->a && r->no->k) {
		/* a calibration: its answer, not a verdict on RAID0 */
		calibration_screen(&d, r->no->k, r->a, r->files, r->nfiles);
	} else if (r->a) {
		first_screen(&d, r->a, r->as, r->w, &r->no->nz, r->files, r->nfiles, r->skipped);
		if (doc_html(&d)) {
			sweep_charts(f, r->a);
			fprintf(f, "<h2>Tables</h2>\n");
			d.shift = 1;
		}
		sweep_tables(&d, r->a);
		d.shift = 0;
	} else {
		doc_verdict(&d, r->verdict, r->good);
		doc_ul(&d, NULL);
		doc_files_li(&d, "Results", r->files, r->nfiles);
		doc_ul_end(&d);
	}
	extra_sections(&d, r->x);
	doc_end(&d);
}

/* One report file in DIR; false (and said why) when it could not be written. */
static bool write_file(const char *dir, const char *name, enum doc_fmt fmt, const struct report_of *r, char *path,
		       size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	errno = 0;
	f = fopen(path, "we");
	if (f) {
		if (!strcmp(name, SUMMARY_SVG))
			chart_summary(f, r->a);
		else
			report(f, fmt, r);
		if (!(ferror(f) | fclose(f)))
			return true;
	}
	fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno ? errno : EIO));
	return false;
}

bool write_reports(const char *dir, const struct report_of *r, char *md, char *html, size_t len)
{
	char svg[4200];
	bool ok = true;

	if (!write_file(dir, "report.md", DOC_MD, r, md, len)) {
		ok = false;
		md[0] = '\0';
	}
	if (r->a && r->a->has_choice && !r->no->k && !write_file(dir, SUMMARY_SVG, DOC_MD, r, svg, sizeof(svg)))
		ok = false;
	if (!write_file(dir, "report.html", DOC_HTML, r, html, len)) {
		ok = false;
		html[0] = '\0';
	}
	return ok;
}

bool write_csv(const char *dir, const struct r0_run_set *set, const struct r0_analysis *a,
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
 * DIR and the directories above it, as mkdir -p makes them; each one made
 * is added to MADE (its paths, to remove on a refusal). 0, or -errno
 * (-ENOTDIR where DIR or one above it is a file).
 */
static int make_dirs(const char *dir, struct made_dirs *made)
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
		if (!mkdir(path, 0777)) {
			if (made->n < MADE_DIRS_MAX && (made->path[made->n] = strdup(path)))
				made->n++;
		} else if (errno != EEXIST) {
			return -errno;
		}
		if (stat(path, &st))
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
		*p = c;
		if (!c)
			return 0;
	}
}

int output_dir(const char *opt, const char *dir, struct made_dirs *made)
{
	int err = make_dirs(dir, made);

	/* one that cannot be written to is said now, before anything else is made */
	if (!err && access(dir, W_OK | X_OK))
		err = -errno;

	if (err)
		fprintf(stderr, PROG ": %s %s: %s\n", opt, dir, err == -ENOTDIR ? "a file is in its path" :
			strerror(-err));
	return err ? -1 : 0;
}

void made_dirs_undo(struct made_dirs *made)
{
	/* the last made first: it is inside those before it; one not empty is left */
	while (made->n) {
		made->n--;
		rmdir(made->path[made->n]);
		free(made->path[made->n]);
	}
}

void made_dirs_free(struct made_dirs *made)
{
	while (made->n)
		free(made->path[--made->n]);
}
