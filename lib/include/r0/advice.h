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
	unsigned n_members;
	char array[160];            /* "md RAID0 of 3 drives, 512K chunk" */
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
 * The advice for A's pick (A->has_choice): the array at A->max_members
 * members, its layer and chunk; the commands on the first n_members paths
 * of A->devices, or on "<your devices>" when fewer are recorded. mdadm's
 * --chunk is in KiB; LVM's --stripesize carries its unit. 0, or -ENOENT
 * when A has no pick.
 */
int r0_advice_of(const struct r0_analysis *a, struct r0_advice *out);

#endif
