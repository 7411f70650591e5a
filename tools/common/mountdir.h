/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tool's own temporary mount point (r0trim's and r0sweep's file systems). */
#ifndef R0_CLI_MOUNTDIR_H
#define R0_CLI_MOUNTDIR_H

#include <stdbool.h>

/*
 * Unmounts MNT if *MOUNTED (after a sync; a busy moment, as udev's probe
 * after a write, is waited out for up to 5 s) and removes the directory
 * if MNT is set; *MOUNTED becomes false and MNT "".
 */
void r0_cli_leave_mount(char *mnt, bool *mounted);

#endif
