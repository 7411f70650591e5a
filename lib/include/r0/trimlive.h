/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r0trim --live's decisions, apart from its I/O: which file systems it
 * follows, how large its test file is and the room it needs, the file's
 * former extents as FITRIM ranges, and what reading the file's sectors
 * back on each bottom device shows. Pure.
 */
#ifndef R0_TRIMLIVE_H
#define R0_TRIMLIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/trimcheck.h"
#include "r0/trimstack.h"

#define R0_TRIM_LIVE_MIN_BYTES (4ull << 20)
#define R0_TRIM_LIVE_MAX_BYTES (64ull << 20)
#define R0_TRIM_LIVE_MARGIN_BYTES (16ull << 20)   /* left free beside the file */

/* "ext4" or "xfs" for statfs's f_type MAGIC (the two whose FIEMAP and FITRIM --live follows), else NULL. */
const char *r0_trim_live_fs(unsigned long magic);

/* A file system's name for MAGIC ("tmpfs"), or its magic number in words for one not known, into BUF. */
void r0_trim_fs_magic_name(unsigned long magic, char *buf, size_t len);

/* The test file's size: eight full stripes of T's first striped layer, 4 to 64 MiB, in whole MiB. */
uint64_t r0_trim_live_file_bytes(const struct r0_trim_device *t);

/* The free space --live needs: the file, as much again and a margin for the user's own work. */
uint64_t r0_trim_live_room_bytes(const struct r0_trim_device *t);

/*
 * The top ranges of the N pieces X, sorted and merged where they touch
 * or overlap, as [start, end) sector pairs into RG (N of them at least):
 * what FITRIM is asked to trim. How many.
 */
size_t r0_trim_top_ranges(const struct r0_trim_leaf_extent *x, size_t n, uint64_t (*rg)[2]);

/*
 * What reading a deleted file's sectors raw on each of N bottom devices
 * found (r0_trim_leaf_readback's OK, BAD, UNCHECKED) as an effect into E:
 * FAIL where a device returned old data, unless the file system wrote to
 * that device between BEFORE and LATER (*REUSED: a block written again
 * says nothing, NOT CONCLUSIVE); else PASS where a sector read as
 * promised, else NOT CHECKABLE (no device promises anything).
 */
void r0_trim_live_effect(unsigned n, const uint64_t *ok, const uint64_t *bad, const uint64_t *unchecked,
			 const struct r0_trim_counters *before, const struct r0_trim_counters *later,
			 struct r0_trim_effect *e, bool *reused);

#endif
