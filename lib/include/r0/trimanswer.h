/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The first screen's third answer: do discards (TRIM) pass through the
 * arrays the study compared? Per array (each back end the study measured,
 * the pick's first, then any other an r0trim result checked), what the
 * r0trim results given say of it: PASS, FAIL, r0trim's other verdicts
 * (NOT CONCLUSIVE, PASS with DRIFT over repeated use), or not checked.
 * Pure: no I/O.
 */
#ifndef R0_TRIMANSWER_H
#define R0_TRIMANSWER_H

#include <stddef.h>

#include "r0/analysis.h"
#include "r0/resultfiles.h"

/*
 * The line for A and the r0trim results T[0..n) into BUF: "TRIM: md raid0
 * PASS (r0trim, 3 members, chunk 64K); dm striped not checked (r0trim on
 * the array checks whether discards reach its members)." Results of
 * anything but a stripe itself (a disk, a file system's stack) answer for
 * no array here. "" when A measured no array. 0, or -ENOSPC when LEN is
 * too short (BUF then holds what fit).
 */
int r0_trim_answer(const struct r0_analysis *a, const struct r0_trimres *t, size_t n, char *buf, size_t len);

#endif
