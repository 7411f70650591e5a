/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Workload mixes: the weights a verdict puts on the workloads of a study.
 * A mix is named ("desktop", "database", "sequential"), written out
 * ("KEY=WEIGHT,..."), or measured by r0profile and read from its mix file
 * (r0_mix_load in r0/mixfile.h, lib/study/mixfile.c). Keys are workload classes
 * (r0_workload_class) or workload names. Pure: no I/O.
 */
#ifndef R0_MIX_H
#define R0_MIX_H

#include <stdbool.h>
#include <stddef.h>

#include "r0/runs.h"

/*
 * Workload classes a mix weighs: "seq-read", "seq-write", "rand-large-read"
 * (random, blocks over 64 KiB), "rand-small-q1-read" (64 KiB or less, at
 * most 2 I/Os in flight), "rand-small-qd-read" (more in flight), and the
 * same with -write; "mixed" for a read/write mix; an everyday scenario's
 * own ("copy", "small-files", "app-start", "app-start-busy", "unpack");
 * "replay" for a recorded trace replayed.
 */
void r0_workload_class(const struct r0_run *r, char *buf, size_t len);

/*
 * The mix a study is judged by when none is asked for: "everyday" when
 * each of the N workloads' ACCESS is an everyday scenario, "replay" when
 * each is a replay, else "desktop" (a block mix: they would weigh nothing).
 */
const char *r0_mix_default(const enum r0_access *access, size_t n);

#define R0_MIX_MAX 32

/*
 * A workload mix: weights by class or by workload name ("4K QD32 read").
 * A class's weight is shared equally by the measured workloads of that
 * class; a name takes precedence over its class. Weights are normalised
 * over the workloads present.
 */
struct r0_mix {
	char name[32];              /* "desktop", "database", "sequential", "custom" */
	/*
	 * The weights are shares of requests (a trace's without completions)
	 * or of runs (everyday: one of each scenario), not of one drive's
	 * time: the analysis turns them into time shares by the single
	 * drive's measured time per request (per run) in the same study.
	 */
	bool per_request;
	size_t n;
	struct { char key[48]; double weight; } e[R0_MIX_MAX];
};

/* The largest weight a mix written out takes: weights are shares, so 1,3 is 10,30. */
#define R0_MIX_WEIGHT_MAX 1e6

/*
 * "desktop", "database", "sequential", "everyday", "replay", or
 * "KEY=WEIGHT,..." (KEY a class or a workload name, WEIGHT a number of
 * r0_parse_double's, 0 to R0_MIX_WEIGHT_MAX, at least one > 0).
 * 0, -EINVAL (not that form), -ERANGE (that form, but a weight below 0
 * or none above 0), -EOVERFLOW (a weight above R0_MIX_WEIGHT_MAX), -EEXIST
 * (a key given twice, in any case: OUT's last entry is the second).
 */
int r0_mix_parse(const char *s, struct r0_mix *out);

/* Every workload class r0_workload_class gives, ", "-separated ("seq-read, seq-write, ..."). */
const char *r0_mix_classes(void);

/* Whether KEY is one of them (case-insensitive, as a mix is weighed). */
bool r0_mix_is_class(const char *key);

/*
 * Holds MIX's keys to a study, RECS[0..n) its records (one of each
 * workload is enough): 0 when every key is a known class (r0_mix_classes)
 * or the name of a workload in RECS (r0_run_workload), as the
 * weights are matched (case-insensitive); -ENOENT when one is neither,
 * *BAD its index in MIX->e: a typo that would silently drop its share.
 * -ENOTUNIQ when a class with a weight above 0 has workloads in RECS and
 * MIX names every one of them ("seq-read=1,Seq read=3"): a name takes
 * precedence over its class, so the class's share would go to no
 * workload; *BAD the class's index.
 */
int r0_mix_check(const struct r0_mix *mix, const struct r0_run *recs, size_t n, size_t *bad);

/*
 * The classes MIX weighs that no workload of RECS[0..n) belongs to, each
 * with its share of the mix, into BUF ("rand-small-qd-write: 5 % of the
 * mix, no workload of that class measured", "; "-separated; "" when
 * none; "predicted" where every record is r0predict's): their weight
 * goes nowhere, the rest is weighed as if the mix were only that. How
 * many; *SHARE (may be NULL) their share of the mix's weight, 0 to 1.
 */
size_t r0_mix_unmeasured(const struct r0_mix *mix, const struct r0_run *recs, size_t n, char *buf,
			 size_t len, double *share);

/*
 * The speed-up the user's time sees under a mix (Amdahl's law): W[i] the
 * share of one drive's time workload i takes (normalised here), S[i> 0]
 * its speed-up; the I/O then takes sum(w / s) of the time, so the mix's
 * speed-up is 1 / sum(w / s). Terms with w <= 0 are skipped; NAN when no
 * term is left or a weighted speed-up is not above 0.
 */
double r0_mix_time_speedup(const double *w, const double *s, size_t n);

#endif
