/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The r0scenario/1 record (tools/schema/r0scenario-1.schema.json): one JSON
 * line per array and cycle of a scenario (recipes/scenarios/), written by
 * r0age record-cycle and read by r0report. Both directions live here, on
 * one table of its keys, so the names, their order and how each number is
 * written are spelt once.
 */
#ifndef R0_SCENARIOJSON_H
#define R0_SCENARIOJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "r0/benchjson.h"
#include "r0/sweep.h"

#define R0_SCENARIO_SCHEMA "r0scenario/1"

/* An integer member that is null in the record (fstrim_bytes: no fstrim, or it failed). */
#define R0_SCENARIO_NULL UINT64_MAX

/*
 * One line: every key of the record, in its order. A double that may be
 * null is NAN for null; one that may not is refused as NAN. How each is
 * written: percentages with one decimal, MB/s with two, WAFs with three,
 * randwrite_iops as a whole number (its fraction cut off), bench_s as
 * short as it reads back.
 */
struct r0_scenario_cycle {
	char scenario[64];                 /* "raid0-without-trim" */
	char array[32];                    /* "r0s1" */
	unsigned members, ssd_mib;         /* members of the array; each r0ssd's size in MiB */
	bool trim;                         /* the array passes discards */
	unsigned cycle;                    /* 0 (fresh) .. N */
	unsigned fill_pct;                 /* the fill asked, 0 to 100 */
	uint64_t fill_bytes;               /* what the files held (0 in cycle 0) */
	double mapped_after_delete_pct;    /* mapped / logical pages once the files are gone; NAN: null */
	uint64_t fstrim_bytes;             /* what fstrim reported; R0_SCENARIO_NULL: null */
	double mapped_before_bench_pct;
	double bench_s;                    /* seconds of each benchmark */
	double randwrite_iops, randwrite_mb_s, seqwrite_mb_s;
	double waf_randwrite, waf_seqwrite, waf_cycle, waf_total;   /* NAN: null (nothing written) */
	uint64_t gc_runs;                  /* during the cycle */
	uint64_t host_write_pages, flash_program_pages;   /* the members' totals at the cycle's end */
};

/* The members' counters summed at one moment (r0ssd --stats: host_write_pages, flash_program_pages, gc_runs). */
struct r0_scenario_counts {
	uint64_t host_write_pages, flash_program_pages, gc_runs;
};

/* When the counters of a cycle are read, in order. */
enum r0_scenario_moment {
	R0_SCENARIO_AT_START,       /* before the cycle's file system is made */
	R0_SCENARIO_AT_BENCH,       /* before the 4K random write benchmark */
	R0_SCENARIO_AT_RANDWRITE,   /* after it, before the sequential write benchmark */
	R0_SCENARIO_AT_SEQWRITE,    /* after that: the cycle's end */
	R0_SCENARIO_MOMENTS,
};

/*
 * Sets C's WAFs (flash programs / host page writes between two moments:
 * the random write, the sequential write, the cycle, since the start;
 * NAN where no host page was written), gc_runs during the cycle and the
 * totals at its end from AT. 0; -ERANGE (C untouched) when a counter is
 * lower at a later moment than at an earlier one (an SSD restarted).
 */
int r0_scenario_cycle_set_counts(struct r0_scenario_cycle *c, const struct r0_scenario_counts at[R0_SCENARIO_MOMENTS]);

/*
 * Sets bench_s, randwrite_iops, randwrite_mb_s and seqwrite_mb_s from two
 * r0bench/1 documents: RAND one 100 % write random test, SEQ one 100 %
 * write sequential test, each with a median IOPS and MB/s, both of the
 * same runtime. 0; -EINVAL (C untouched, WHY says which and why, if
 * not NULL) otherwise.
 */
int r0_scenario_cycle_set_bench(struct r0_scenario_cycle *c, const struct r0_bench_doc *rand,
				const struct r0_bench_doc *seq, char *why, size_t why_len);

/*
 * C as its JSON line, without the newline (malloc'd; the caller frees).
 * NULL and errno: EINVAL when a member breaks the schema (an empty
 * scenario or array, members or ssd_mib 0, a percentage above 100, a
 * negative or NAN number where no null is allowed), ENOMEM.
 */
char *r0_scenario_cycle_to_json(const struct r0_scenario_cycle *c);

/* C's line and a newline appended to F in one write, flushed and synced. 0, -EINVAL (as above), -ENOMEM, -errno. */
int r0_scenario_cycle_append(FILE *f, const struct r0_scenario_cycle *c);

/*
 * Reads one line into *C. 0; -EINVAL when it is not JSON, not
 * r0scenario/1, or has no array, trim, cycle, randwrite_iops or
 * seqwrite_mb_s. Another key missing or of the wrong type reads as 0, ""
 * or null (NAN, R0_SCENARIO_NULL).
 */
int r0_scenario_cycle_parse(const char *line, struct r0_scenario_cycle *c);

/* The lines of a scenario's result file. */
struct r0_scenario {
	struct r0_scenario_cycle *row;
	size_t n;
	unsigned max_cycle;
};

/* r0_scenario_load: appends the r0scenario/1 lines of PATH to S (rows kept
 * in file order), what could not be read into *DMG (NULL: not wanted) as
 * a sweep file's (r0_sweep_damage_inside tells damage inside from a last
 * line cut mid-write). 0, -EINVAL (no readable line), -ENOMEM, -errno. */
int r0_scenario_load(const char *path, struct r0_scenario *s, struct r0_sweep_damage *dmg);

/*
 * Whether A and B are rows of one scenario run (its name, members, r0ssd
 * size, fill and benchmark length): false, or true with what differs in
 * WHY ("ssd_mib (128 vs 512)"). Rows of two runs are never pooled.
 */
bool r0_scenario_study_diff(const struct r0_scenario_cycle *a, const struct r0_scenario_cycle *b, char *why,
			    size_t len);

/* r0_scenario_find: the row of the array with (TRIM) or without TRIM at
 * CYCLE, the last one read when there are several; NULL when none. */
const struct r0_scenario_cycle *r0_scenario_find(const struct r0_scenario *s, bool trim, unsigned cycle);

/*
 * The cycles read more than once (a resumed run measures an interrupted
 * cycle again), of which r0_scenario_find takes the last: how many, and
 * which into BUF ("cycle 3 with TRIM (2 lines), cycle 5 without TRIM (2
 * lines)"; whole names while they fit, then "and N more"; "18 cycles"
 * when not one name fits).
 */
size_t r0_scenario_repeated(const struct r0_scenario *s, char *buf, size_t len);

void r0_scenario_free(struct r0_scenario *s);

#endif
