/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sweep as CSV for spreadsheets and scripts (r0report --csv): one kind
 * of row a file, RFC 4180 (comma-separated, CRLF line ends, a field
 * quoted with "..." when it holds a comma, a quote, CR or LF, a quote
 * inside written twice), a header row first whose names carry the units
 * (bytes_per_s, chunk_bytes, p99_us). An empty field is a value not known
 * (null in the JSON): never 0 or -1.
 *
 *   cells.csv        one row per measured (or predicted) run: a cell record
 *                    of the r0sweep/1 file, in the file's order
 *   comparisons.csv  one row per workload and target: the median of its
 *                    repeats and the speed-up over one drive with its
 *                    interval (lo, hi), as the report's tables give it
 *   choices.csv      the chunk choices at the largest member count, scored
 *                    under the mix, best first
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
#include "r0/sweep.h"

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

/* cells.csv of SET: its header and a row per record. 0 or -errno. */
int r0_csv_cells(FILE *f, const struct r0_sweep_set *set);

/* comparisons.csv of A: its header and a row per cell (workload and target). 0 or -errno. */
int r0_csv_comparisons(FILE *f, const struct r0_analysis *a);

/* choices.csv of A: its header and a row per choice, best first. 0 or -errno. */
int r0_csv_choices(FILE *f, const struct r0_analysis *a);

/* noise.csv of D: its header, the study's row and a row per target. 0 or -errno. */
int r0_csv_noise(FILE *f, const struct r0_noise_diag *d);

#endif
