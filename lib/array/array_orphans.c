// SPDX-License-Identifier: GPL-2.0-or-later
/* What a killed r0sweep left on its members, found by name and removed (r0/array.h). */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/array.h"

/* An array of an r0sweep that is gone: "sweep.PID" or "sweep.PID.fs" with no process PID. */
static bool of_killed_sweep(const struct r0_array *a)
{
	size_t len = strlen(R0_SWEEP_ARRAY_PREFIX);
	char *end;
	long pid;

	if (strncmp(a->name, R0_SWEEP_ARRAY_PREFIX, len))
		return false;
	pid = strtol(a->name + len, &end, 10);
	if (pid <= 0 || end == a->name + len || (*end && *end != '.'))
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

static bool in(dev_t d, const dev_t *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == d)
			return true;
	return false;
}

/* W is r0sweep's window over A: named A's name and ".fs" (tools/sweep/everyday.c) */
static bool window_of(const struct r0_array *w, const struct r0_array *a)
{
	size_t len = strlen(a->name);

	return !strncmp(w->name, a->name, len) && !strcmp(w->name + len, ".fs");
}

int r0_array_clear_killed_sweep(const dev_t *members, size_t n_members, char (*names)[R0_ARRAY_NAME_MAX + 1],
				size_t max, size_t *removed)
{
	struct r0_array *list;
	size_t n, n_owned = 0;
	dev_t *owned;
	bool *mine, *gone, more = true;
	int err = r0_array_list(&list, &n);

	*removed = 0;
	if (err)
		return err;
	owned = calloc(n_members + n + 1, sizeof(*owned));
	mine = calloc(n + 1, sizeof(*mine));
	gone = calloc(n + 1, sizeof(*gone));
	if (!owned || !mine || !gone) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(owned, members, n_members * sizeof(*owned));
	n_owned = n_members;
	/*
	 * only what stands on the named members alone, directly or through
	 * another such array; a scenario's window (a dm-linear, no striped
	 * table to read its members from) by its name: its array's and ".fs"
	 */
	while (more) {
		more = false;
		for (size_t i = 0; i < n; i++) {
			bool all = list[i].n_members > 0;

			if (mine[i] || !of_killed_sweep(&list[i]))
				continue;
			for (unsigned m = 0; all && m < list[i].n_members; m++)
				all = in(list[i].members[m], owned, n_owned);
			for (size_t j = 0; !all && !list[i].n_members && j < n; j++)
				all = mine[j] && window_of(&list[i], &list[j]);
			if (all) {
				mine[i] = more = true;
				owned[n_owned++] = list[i].devt;
			}
		}
	}
	for (size_t i = 0; i < n && !err; i++)
		if (mine[i] && r0_array_release_scratch(&list[i]) < 0)
			err = -EBUSY;   /* mounted elsewhere: the user's now */
	/* a window holds its array: what is busy is tried again while the others go */
	for (more = !err; more;) {
		more = false;
		for (size_t i = 0; i < n; i++)
			if (mine[i] && !gone[i] && !r0_array_remove(&list[i])) {
				gone[i] = more = true;
				if (*removed < max)
					snprintf(names[*removed], sizeof(names[0]), "%s", list[i].name);
				(*removed)++;
			}
	}
	for (size_t i = 0; i < n && !err; i++)
		if (mine[i] && !gone[i])
			err = -EBUSY;
out:
	free(owned);
	free(mine);
	free(gone);
	free(list);
	return err;
}
