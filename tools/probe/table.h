/* SPDX-License-Identifier: GPL-2.0-or-later */
/* r0probe's table: its columns, described once, and how each cell is printed. */
#ifndef R0PROBE_TABLE_H
#define R0PROBE_TABLE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "r0/probe.h"

#define PROG "r0probe"


enum col {
	COL_NAME, COL_PATH, COL_MAJMIN, COL_TYPE, COL_SIZE, COL_RO, COL_RM,
	COL_LOG_SEC, COL_PHY_SEC, COL_MIN_IO, COL_OPT_IO, COL_ROTA, COL_RQ_SIZE,
	COL_MAX_IO, COL_MAX_HW_IO, COL_DISC_ALN, COL_DISC_GRAN, COL_DISC_MAX,
	COL_DISC_MAX_HW, COL_WZERO_MAX, COL_MODEL, COL_SERIAL, COL_MD_LEVEL,
	COL_MD_CHUNK, COL_MD_DISKS, COL_DM_NAME, COL_DM_UUID, COL_HOLDERS,
	COL_SLAVES, COL_PARTS, COL_MOUNT, COL_BUSY, COL_SIGNATURES,
	COL_READS, COL_RD_SECT, COL_WRITES, COL_WR_SECT, COL_IN_FLIGHT,
	COL_DISCARDS, COL_DISC_MERGED, COL_DISC_SECT, COL_DISC_MS, COL_FLUSHES,
	NR_COLS
};

struct item {
	char path[PATH_MAX];
	struct r0_device dev;
	bool sigs_probed;           /* false: not asked for, or it failed */
	struct r0_signature *sigs;
	size_t nr_sigs;
	bool stat_read;
	struct r0_blockstat stat;
};

struct opts {
	bool json, bytes, noheadings, raw, pairs, all, no_signatures;
	enum col cols[NR_COLS * 2];
	size_t nr_cols;
};


/* -o LIST ("+COL,..." adds to the default set): 0 or R0_EXIT_USAGE (said why). */
int probe_parse_columns(const char *list, struct opts *o);

/* The default columns, or -s's counters, into *O. */
void probe_cols_default(struct opts *o);
void probe_cols_stat(struct opts *o);

/* The table of ITEMS, in O's columns (libsmartcols): 0 or -errno. */
int probe_print_table(const struct item *items, size_t n, const struct opts *o);

/* --list-columns. */
void probe_print_columns(void);

#endif
