/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What to build from an analysis (r0/analysis.h): the recommended array
 * in words and the commands that build it for keeps, with mdadm and with
 * LVM, on the member paths the result file recorded. Pure: no I/O.
 */
#ifndef R0_ADVICE_H
#define R0_ADVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "r0/analysis.h"

#define R0_ADVICE_PATH_MAX 128

struct r0_advice {
	bool worth;                 /* the analysis found the pick worth it under the mix */
	bool paths_known;           /* the results named at least n_members paths */
	unsigned n_members;         /* the count to build (the analysis's build_members) */
	const char *lead;           /* what to do by the answer: "Build", "Keep one drive: ... the best measured is" */
	char array[160];            /* "md RAID0 of 3 drives, 512K chunk" */
	const char *reason;         /* why not more drives, or why the count is open (the analysis's build); "" */
	char action[2560];          /* "LEAD: ARRAY[; REASON]." the sentence the terminal and the report both say */
	char mdadm[1024];           /* "mdadm --create /dev/md0 --level=0 --chunk=512 --raid-devices=3 A B C" */
	char mdadm_keep[160];       /* records the array in mdadm.conf so it assembles at boot */
	char lvm[1536];             /* "pvcreate A B C; vgcreate r0vg A B C; lvcreate --type striped ..." */
};

/*
 * The member paths in a devices text as r0sweep records it: entries
 * "PATH (size, model, ...)" separated by ", " or "; " outside parentheses;
 * entries that are not an absolute path followed by " (" (what the user
 * said with --describe) are skipped. Up to MAX into PATHS, the count into
 * *N. 0, or -ENAMETOOLONG when a path does not fit R0_ADVICE_PATH_MAX.
 */
int r0_member_paths(const char *devices, char (*paths)[R0_ADVICE_PATH_MAX], size_t max, size_t *n);

/*
 * The advice for A's pick (A->has_choice): what to do under A's answer and
 * the array at A->build_members members (A->max_members when unset), its
 * layer and chunk; the commands on the first n_members paths of
 * A->devices, or on "<your devices>" when fewer are recorded. mdadm's
 * --chunk is in KiB; LVM's --stripesize carries its unit. The one source
 * of the advice: r0report's and r0sweep's terminal and the report's first
 * screen say it from here. 0, or -ENOENT when A has no pick.
 */
int r0_advice_of(const struct r0_analysis *a, struct r0_advice *out);

/*
 * The first screen's words in plain text, as a terminal says them, one a
 * line: A's verdict (worth it, and what each drive adds), then (when A
 * has a pick) the advice's action (which array), then TRIM (the TRIM
 * answer, r0/trimanswer.h) and STORED (a stored analysis's line,
 * r0/provenance.h), each when not NULL or "". The report's first screen
 * says the same with its markup. 0, or -ENOSPC when LEN is too short (BUF
 * then holds what fit).
 */
int r0_first_screen_text(const struct r0_analysis *a, const char *trim, const char *stored, char *buf, size_t len);

#endif
