// SPDX-License-Identifier: GPL-2.0-or-later
/* The sweeps analysed (their noise worked out once), a calibration's answer, the stored analysis, the aside (analyse.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyse.h"
#include "cli.h"
#include "first.h"
#include "mixarg.h"

#include "r0/mix.h"
#include "r0/resultfiles.h"

/* A calibration's answer into NO->k when the records hold copies (r0sweep --calibrate): 0, or -1 after saying why not. */
static int calibration(const struct inputs *in, const struct r0_mix *mix, const struct r0_cmp_opts *cmp,
		       struct noise_of *no)
{
	int err;

	if (!r0_calib_is_calibration(&in->set))
		return 0;
	no->k = malloc(sizeof(*no->k));
	err = no->k ? r0_calibrate(&in->set, mix, cmp, no->k) : -ENOMEM;
	if (err)
		fprintf(stderr, PROG ": %s\n", err == -ENODATA ? "a calibration without its baseline (the first member "
			"alone) or its copies" : strerror(-err));
	return err ? -1 : 0;
}

int analyse(const struct inputs *in, const char *mixs, struct r0_mix *mix, char *mixdesc, size_t desc_len,
	    const struct r0_cmp_opts *cmp, struct noise_of *no, struct r0_analysis *a)
{
	bool mix_given = mixs != NULL;
	int err;

	if (!mix_given) {
		enum r0_access *acc = calloc(in->set.n ? in->set.n : 1, sizeof(*acc));

		for (size_t i = 0; acc && i < in->set.n; i++)
			acc[i] = in->set.recs[i].access;
		err = r0_cli_mix(PROG, "--mix", acc ? r0_mix_default(acc, in->set.n) : "desktop", mix, mixdesc, desc_len);
		free(acc);
		if (err)
			return -1;
	}
	/* a key of the mix that names nothing in the study would drop its share unsaid */
	if (r0_cli_mix_check(PROG, "--mix", mix_given ? mixs : mix->name, mix, in->set.recs, in->set.n))
		return -1;
	/* the runs' own noise: beyond any the study was validated on, no claim is made */
	err = r0_noise_diag(&in->set, &no->nz);
	if (!err)
		err = r0_analyse_machine(&in->set, mix, cmp, &no->nz, a);
	if (err) {
		fprintf(stderr, PROG ": %s\n", err == -ENODATA ? "the sweep files hold no measured cell" : strerror(-err));
		return -1;
	}
	return calibration(in, mix, cmp, no);
}

bool stored_analysis(const struct inputs *in, const struct r0_analysis *a, struct r0_provenance *p)
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

/*
 * The aside is the report's own study: PATH one of the files reported (by
 * inode), or its records runs the report reads (r0_run_same, as a study
 * read twice is found). true after saying so: its runs would stand as
 * independent evidence for the verdict they make.
 */
static bool aside_is_main(const char *path, const struct r0_run_set *set, const struct inputs *main, char **files,
			  int n_files)
{
	for (int i = 0; i < n_files; i++)
		if (r0_cli_same_file(path, files[i])) {
			fprintf(stderr, PROG ": --aside '%s': the same file as %s, one of the files reported: the aside "
				"is another study\n", path, files[i]);
			return true;
		}
	for (size_t i = 0; i < set->n; i++)
		for (size_t j = 0; j < main->set.n; j++)
			if (r0_run_same(&set->recs[i], &main->set.recs[j])) {
				fprintf(stderr, PROG ": --aside '%s': the same runs as %s, a file reported (its line %u is "
					"line %u there): the aside is another study\n", path,
					sweep_in_file_of(&main->sweeps, j), set->recs[i].line, main->set.recs[j].line);
				return true;
			}
	return false;
}

int aside_study(const char *path, const char *title, const char *mix_opt, const char *mixs, const struct r0_cmp_opts *cmp,
		bool skip_damaged, const struct inputs *main, char **files, int n_files, char *line, size_t len)
{
	struct r0_run_set set = { 0 };
	struct sweep_in in = { .set = &set, .skip_damaged = skip_damaged };
	struct r0_analysis s = { 0 };
	enum r0_result_kind kind;
	struct r0_mix mix;
	char desc[1024];
	int err;

	if (r0_cli_mix(PROG, mix_opt, mixs, &mix, desc, sizeof(desc)))
		return 1;
	err = r0_result_kind(path, &kind);
	if (!err && kind != R0_RESULT_SWEEP)
		err = -EINVAL;
	if (!err && sweep_in_read(PROG, &in, path, NULL)) {
		sweep_in_free(&in);
		r0_run_set_free(&set);
		return 1;
	}
	if (!err && (aside_is_main(path, &set, main, files, n_files) ||
		     r0_cli_mix_check(PROG, "--aside-mix", mixs, &mix, set.recs, set.n))) {
		sweep_in_free(&in);
		r0_run_set_free(&set);
		return 1;
	}
	if (!err)
		err = r0_analyse(&set, &mix, cmp, &s);
	if (!err && !s.has_choice)
		err = -ENODATA;
	if (err)
		fprintf(stderr, PROG ": --aside %s: %s\n", path,
			err == -EINVAL && has_bom(path) ? BOM_SAID
			: err == -EINVAL ? "not r0sweep results (" R0_SWEEP_SCHEMA ")"
			: err == -ENODATA ? "no stripe measured against a single drive" : strerror(-err));
	else
		aside_line(&s, title, line, len);
	/* its lines skipped go with its line, wherever the line goes */
	if (!err && in.note[0] && strlen(line) + 16 < len)
		snprintf(line + strlen(line), len - strlen(line), " (Skipped: %s.)", in.note);
	sweep_in_free(&in);
	r0_analysis_free(&s);
	r0_run_set_free(&set);
	return err ? 1 : 0;
}
