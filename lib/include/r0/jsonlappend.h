/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A JSON Lines record file opened to append to (r0sweep --resume, r0age
 * record-cycle, r0trim --watch): a last line cut mid-write by a crash is
 * removed first. Readers never trust half a line, and a record appended
 * after it would be glued onto it and lost with it, turning an
 * interrupted file into a damaged one.
 */
#ifndef R0_JSONLAPPEND_H
#define R0_JSONLAPPEND_H

#include <stdbool.h>
#include <stdio.h>

/*
 * PATH opened to append into *OUT (created if missing), after cutting
 * any bytes past its last newline; *DROPPED (may be NULL) says whether
 * there were any. 0 or -errno.
 */
int r0_jsonl_open_append(const char *path, FILE **out, bool *dropped);

#endif
