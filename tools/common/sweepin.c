// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep/1 files read and pooled: damage and runs read twice refused or said (sweepin.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sweepin.h"

const char *sweep_in_file_of(const struct sweep_in *in, size_t rec)
{
	const char *f = in->n_files ? in->file[0] : "?";

	for (size_t i = 0; i < in->n_files && in->start[i] <= rec; i++)
		f = in->file[i];
	return f;
}

/* PATH's lines skipped, in words, added to IN->note */
static void note_skipped(struct sweep_in *in, const char *path, const struct r0_sweep_damage *d)
{
	size_t len = strlen(in->note);
	bool inside = r0_sweep_damage_inside(d);

	snprintf(in->note + len, sizeof(in->note) - len, "%s%s: %u unreadable line%s (%s)",
		 len ? "; " : "", path, d->bad, d->bad == 1 ? "" : "s",
		 !inside ? "its last line cut mid-write: an interrupted study" :
		 d->cut_tail ? "damaged inside, and its last line cut mid-write" : "damaged inside");
}

int sweep_in_read(const char *prog, struct sweep_in *in, const char *path, const char *not_sweep)
{
	struct r0_sweep_damage d;
	size_t before = in->set->n, first = 0, of = 0, dups;
	const char **file = realloc(in->file, (in->n_files + 1) * sizeof(*file));
	size_t *start;
	int err;

	if (file)
		in->file = file;
	start = file ? realloc(in->start, (in->n_files + 1) * sizeof(*start)) : NULL;
	if (!start) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(ENOMEM));
		return R0_EXIT_REFUSED;
	}
	in->start = start;
	err = r0_sweep_load_file(path, in->set, &d);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, path,
			err == -EINVAL && not_sweep ? not_sweep :
			err == -EINVAL ? "not r0sweep results (" R0_SWEEP_SCHEMA ")" : strerror(-err));
		return R0_EXIT_REFUSED;
	}
	if (r0_sweep_damage_inside(&d) && !in->skip_damaged) {
		fprintf(stderr, "%s: %s: line %u damaged (%u unreadable line%s): what reads is part of a study; "
			"--skip-damaged to go on without %s\n", prog, path, d.first_bad, d.bad,
			d.bad == 1 ? "" : "s", d.bad == 1 ? "it" : "them");
		return R0_EXIT_REFUSED;
	}
	in->file[in->n_files] = path;
	in->start[in->n_files++] = before;
	dups = r0_run_set_dups(in->set, before, &first, &of);
	if (dups) {
		if (of >= before)
			fprintf(stderr, "%s: %s: line %u the same run as line %u (%zu duplicate record%s): a study "
				"counted twice\n", prog, path, in->set->recs[first].line, in->set->recs[of].line, dups,
				dups == 1 ? "" : "s");
		else
			fprintf(stderr, "%s: %s: the same runs as %s (%zu duplicate record%s): a study counted twice\n",
				prog, path, sweep_in_file_of(in, of), dups, dups == 1 ? "" : "s");
		return R0_EXIT_REFUSED;
	}
	r0_run_set_pool_passes(in->set, before);
	if (d.bad) {
		in->skipped += d.bad;
		note_skipped(in, path, &d);
		fprintf(stderr, "%s: %s: %u unreadable line%s skipped (line %u%s)\n", prog, path, d.bad,
			d.bad == 1 ? "" : "s", d.first_bad,
			r0_sweep_damage_inside(&d) ? ", --skip-damaged" : ": the last, cut mid-write");
	}
	return 0;
}

void sweep_in_free(struct sweep_in *in)
{
	free(in->file);
	free(in->start);
	in->file = NULL;
	in->start = NULL;
	in->n_files = 0;
}
