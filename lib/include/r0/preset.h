/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CrystalDiskMark's test sets, as engine workloads. CDM's method: a 1 GiB
 * test region, each test run as passes of 5 s after one warm-up pass that
 * is not counted; CDM reports the best pass, r0kit the median with min and
 * max beside it.
 */
#ifndef R0_PRESET_H
#define R0_PRESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "r0/engine.h"

struct r0_preset_test {
	const char *label;          /* CDM's name: "SEQ1M Q8T1", "RND4K Q32T1" */
	struct r0_workload w;       /* access, rw, block, depth, jobs; the rest is the method's */
};

struct r0_preset {
	const char *name;           /* "cdm", "cdm3", "cdm-nvme" */
	const char *description;
	size_t n_tests;
	const struct r0_preset_test *tests;   /* in CDM's order: each read, then write */
	/* the method, where it is not CDM's: 0 takes R0_CDM_PASSES / _PASS_NS */
	unsigned passes;
	unsigned warmup_passes;     /* used only when passes is set */
	uint64_t pass_ns;
};

#define R0_CDM_REGION_BYTES (1ULL << 30)
#define R0_CDM_PASS_NS 5000000000ULL
#define R0_CDM_WARMUP_PASSES 1u
#define R0_CDM_PASSES 5u

/*
 * "predict": the grid r0predict interpolates in, random reads and writes at
 * 4K..1M x QD 1..32 (at most 1 MiB in flight); 3 passes of 3 s, no warm-up,
 * to stay a few minutes: a 1M read on an 8 MiB/s drive takes 125 ms, and a
 * pass should count a few dozen of them (1 s passes counted 8).
 */
#define R0_PREDICT_PASSES 3u
#define R0_PREDICT_PASS_NS 3000000000ULL

/*
 * The test region on a device of SIZE bytes when ASKED is wanted: the
 * smaller, cut to whole MiB as CDM's test sizes (a region under 1 MiB is
 * kept as it is). Every test of a study, block or file system or replay,
 * runs over this one region.
 */
uint64_t r0_test_region_bytes(uint64_t asked, uint64_t size);

/* NULL if there is no preset of that name. */
const struct r0_preset *r0_preset_find(const char *name);

/* Every preset, for --help and docs; *count set. */
const struct r0_preset *r0_presets(size_t *count);

/* Whether P's tests go through a file system (everyday work): timed, never predicted. */
bool r0_preset_is_fs(const struct r0_preset *p);

/*
 * "cdm, cdm3, ... or predict": every preset's name (BLOCK_ONLY: only those
 * of block patterns, not r0_preset_is_fs), for an error message; BUF cut to LEN.
 */
void r0_preset_names(bool block_only, char *buf, size_t len);

#endif
