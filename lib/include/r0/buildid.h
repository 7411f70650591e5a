/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which code made a result: "0.2.0+g1a2b3c4d5e6f" (the version, then the
 * commit the build was made from, "-dirty" with uncommitted changes), or
 * "0.2.0" when built outside a git tree. Every result file's tool field
 * carries it, so two verdicts from the same cells say which code made each.
 */
#ifndef R0_BUILDID_H
#define R0_BUILDID_H

const char *r0_build_id(void);

#endif
