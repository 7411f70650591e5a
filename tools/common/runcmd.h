/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running another program from a tool (mkfs for r0trim's and r0sweep's file systems). */
#ifndef R0_CLI_RUNCMD_H
#define R0_CLI_RUNCMD_H

#include <stddef.h>

/*
 * Runs ARGV (found on PATH) with no signals blocked, so a Ctrl-C reaches it
 * too, and its output on stderr; waits for it. 0, or -errno with the
 * reason in WHY ("mkfs.xfs exited with 1").
 */
int r0_cli_run(char *const argv[], char *why, size_t len);

#endif
