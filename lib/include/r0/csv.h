/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sweep as CSV for spreadsheets and scripts (r0report --csv): one kind
 * of row a file, RFC 4180 (comma-separated, CRLF line ends, a field
 * quoted with "..." when it holds a comma, a quote, CR or LF, a quote
 * inside written twice), a header row first. Every quantity's unit is in
 * its name: _bytes, _s, _us, _pct (percent, 0-100), _x (a ratio, "times",
 * as the report writes 1.31x), bytes_per_s, iops, cpu_s_per_io; counts
 * (ios, errors, members, repeats_*, visits) and pure numbers (visit_rho,
 * kurtosis) carry none. Workloads and targets are named as the report's
 * tables name them ("Seq read", "4K QD32 write"; "md 3 x 64K"). An empty
 * field is a value not known (null in the JSON) or a question that has no
 * answer there (the baseline against itself): never 0 or -1.
 *
 *   cells.csv        one row per measured (or predicted) run: a cell record
 *                    of the r0sweep/1 file, in the file's order, with what
 *                    the analysis did with it: use "used" (in every
 *                    figure), "far-run" (in every figure, far from its
 *                    cell's other repeats: measured again), "far-visit"
 *                    (in every figure, its visit, that target's runs of
 *                    that pass, off across its workloads: visited again)
 *                    or "unmeasured" (left out: I/O errors, or no request
 *                    completed); pass the study's pass, or where
 *                    the file records none (pass_recorded false: an older
 *                    r0sweep, which swept repeat by repeat, or r0predict)
 *                    the repeat, which the analysis takes as its pass
 *   comparisons.csv  one row per workload and target: its repeats used (far
 *                    ones included), far, and unmeasured, the median of
 *                    those used and the
 *                    speed-up over one drive with its interval (lo, hi), as
 *                    the report's tables give it (empty where the noise is
 *                    not known: fewer than 3 repeats, a prediction); baseline "true" on the
 *                    single drive's rows, whose speed-up, efficiency,
 *                    answer and tie_best are empty
 *   choices.csv      the chunk choices at the largest member count, scored
 *                    under the mix, best first; picked "true" on the array
 *                    the verdict builds: where that is fewer drives, a last
 *                    row of the pick at that count (the headline's figure;
 *                    tie_best and loss empty: ranked at the largest count)
 *   noise.csv        the study's noise from its own runs (r0/calibrate.h):
 *                    a row "all" (visit sd, the noisiest target's run noise,
 *                    correlation within a visit, kurtosis, drift, within the
 *                    validated range, the sentence), then a row per target
 */
#ifndef R0_CSV_H
#define R0_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "r0/analysis.h"
#include "r0/calibrate.h"
#include "r0/runs.h"

/* The line end RFC 4180 asks for. */
#define R0_CSV_EOL "\r\n"

/*
 * One field: S as it is, or quoted when it holds a comma, a double quote,
 * CR or LF (quotes inside doubled); NULL writes an empty field. A comma
 * before it unless FIRST. 0 or -errno.
 */
int r0_csv_field(FILE *f, const char *s, bool first);

/* The field of a number (printf FMT of V), or an empty field when !KNOWN. 0 or -errno. */
int r0_csv_num(FILE *f, const char *fmt, double v, bool known);

/* The end of a row. 0 or -errno. */
int r0_csv_eol(FILE *f);

/*
 * cells.csv of SET: its header and a row per record, each with what A, the
 * analysis of SET, did with it. 0 or -errno (-EINVAL: A is not of SET).
 */
int r0_csv_cells(FILE *f, const struct r0_run_set *set, const struct r0_analysis *a);

/* comparisons.csv of A: its header and a row per cell (workload and target). 0 or -errno. */
int r0_csv_comparisons(FILE *f, const struct r0_analysis *a);

/* choices.csv of A: its header, a row per choice, best first, and the pick at the count built when fewer. 0 or -errno. */
int r0_csv_choices(FILE *f, const struct r0_analysis *a);

/* noise.csv of D: its header, the study's row and a row per target. 0 or -errno. */
int r0_csv_noise(FILE *f, const struct r0_noise_diag *d);

#endif
