/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What r0kit writes. Plain writes: seedable pseudo-random bytes, stamped
 * per 4 KiB with the offset and a counter, so no two written blocks are
 * alike and a compressing or deduplicating layer cannot cheat them.
 * Verify writes: every 512-byte sector carries a header (magic, its own
 * sector number, the pass number, a check of the seed) and a payload that
 * follows from those, so a later read tells right data from stale,
 * misplaced, zeroed or foreign data.
 */
#ifndef R0_PATTERN_H
#define R0_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define R0_VERIFY_SECTOR 512u
#define R0_VERIFY_MAGIC 0x59465654494b3052ULL   /* "R0KITVFY" little-endian */

/* Fills BUF (LEN bytes) with pseudo-random bytes from SEED. */
void r0_pattern_fill(void *buf, size_t len, uint64_t seed);

/*
 * Stamps BUF (LEN bytes, to be written at OFFSET) so it differs from every
 * other block: the first 16 bytes of each 4 KiB (or of the whole buffer if
 * smaller) get OFFSET and SERIAL.
 */
void r0_pattern_stamp(void *buf, size_t len, uint64_t offset_bytes, uint64_t serial);

/* Writes verify sectors into BUF (LEN a multiple of 512) for data at OFFSET. */
void r0_verify_fill(void *buf, size_t len, uint64_t offset_bytes, uint64_t seed, uint32_t pass);

enum r0_verify_fault {
	R0_VERIFY_OK = 0,
	R0_VERIFY_ZEROED,      /* all zeros: discarded, never written, zeroed */
	R0_VERIFY_ONES,        /* all 0xff: e.g. discarded on an lbprz=2 device */
	R0_VERIFY_FOREIGN,     /* no r0kit header: not written by a verify pass */
	R0_VERIFY_MISPLACED,   /* another sector's data */
	R0_VERIFY_OTHER_SEED,  /* a verify pass with another seed */
	R0_VERIFY_STALE,       /* right sector and seed, another pass */
	R0_VERIFY_CORRUPT,     /* right header, wrong payload */
};

struct r0_verify_report {
	enum r0_verify_fault fault;
	uint64_t offset_bytes;         /* the first bad sector */
	uint64_t expected_sector, found_sector;
	uint32_t expected_pass, found_pass;
	uint32_t bad_byte;             /* CORRUPT: first differing byte in the sector */
};

/*
 * Checks BUF (LEN a multiple of 512, read from OFFSET) against what
 * r0_verify_fill would have written. Returns the number of bad sectors
 * and describes the first in *REP (fault R0_VERIFY_OK when none).
 */
size_t r0_verify_check(const void *buf, size_t len, uint64_t offset_bytes, uint64_t seed,
		       uint32_t pass, struct r0_verify_report *rep);

/* "zeroed", "stale", ... for messages and JSON. */
const char *r0_verify_fault_name(enum r0_verify_fault f);

#endif
