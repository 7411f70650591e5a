/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * r0predict's study level: one drive's results in (r0bench/1 JSON or an
 * r0sweep/1 file's raw cells), predicted r0sweep/1 cells out
 * (r0/predict.h does the model), and predicted cells held against a
 * measured study.
 */
#ifndef R0_PREDICTSTUDY_H
#define R0_PREDICTSTUDY_H

#include <stdbool.h>
#include <stddef.h>

#include "r0/analysis.h"
#include "r0/benchjson.h"
#include "r0/predict.h"
#include "r0/preset.h"
#include "r0/runs.h"

#define R0_PREDICT_MAX_WORKLOADS 64

/* The bar a predicted cell is held to: within 15 % of what was measured. */
#define R0_PREDICT_BAR 0.15

/*
 * A predicted figure beyond what was seen by more than this share (the
 * host's highest IOPS, a rested member's speed) is said to be in doubt.
 */
#define R0_PREDICT_BEYOND 0.15

/* The layer cost when neither the user nor the input gives one: a guess for
 * md/dm's remap on a current x86 CPU, not measured. */
#define R0_PREDICT_DEFAULT_LAYER_NS 2000.0

/*
 * A prediction rests on grid points whose repeats spread (max - min over
 * the median of bytes/s) by at most this: beyond it the drive's own figure
 * is not known to +-15 %, the bar for a predicted cell, and the
 * cell is not predicted.
 */
#define R0_PREDICT_MAX_SPREAD 0.30

/*
 * Neither given nor measured, the layer cost is a guess; a cell whose
 * figure moves by more than 15 % when a bio costs this much instead (what
 * a busy or emulated CPU can cost: the lab notebook has the sandbox's)
 * depends on the guess and is not predicted.
 */
#define R0_PREDICT_SLOW_LAYER_NS 50000.0

/*
 * The predict grid measures two of its points again at its end
 * (lib/engine/preset.c); when one moved by more than this (the +-15 % a
 * predicted cell is held to: a drive that moved more cannot be predicted
 * within it), and by more than the
 * two measurements' own spreads together, the drive changed its state
 * during the grid (garbage collection, a write cache filling): its speed
 * depends on a state one drive's grid does not model, and no cell of that
 * direction is predicted. Repeated grid points of a drive that kept its
 * state differ by a few per cent (docs/notes/lab-notebook.md), far inside it.
 */
#define R0_PREDICT_MAX_DRIFT R0_PREDICT_BAR

/* What one drive's results gave. Zero it before the first load. */
struct r0_predict_input {
	struct r0_predict_curve curve;
	struct r0_run wl[R0_PREDICT_MAX_WORKLOADS];  /* the workloads to predict */
	size_t n_wl;
	double layer_ns[2];          /* per bio, by enum r0_backend; < 0: not measured */
	/* per workload: CPU seconds per I/O raw and through a 1-member stripe (0: none) */
	double cpu_raw[R0_PREDICT_MAX_WORKLOADS], cpu_one[2][R0_PREDICT_MAX_WORKLOADS];
	uint32_t chunk_one[2][R0_PREDICT_MAX_WORKLOADS];
	/*
	 * By direction (0 reads, 1 writes): the largest change of a point
	 * measured again (|again - first| / first; 0: none measured again),
	 * beyond the two measurements' spreads, and that point in words with
	 * both figures ("4K QD1: 21.3 -> 7.9 MB/s").
	 */
	double drift[2];
	char drift_what[2][64];
	/* the drive of the first r0bench/1 grid added: every other must be the same one */
	bool has_drive;
	struct r0_bench_drive drive;
	char drive_diff[320];        /* after -EXDEV: how the grid refused differs ("max_hw_sectors_kib (32 vs 128)") */
};

/* No result file is larger (a full study's r0sweep file is a few MiB): a larger input is refused unread. */
#define R0_PREDICT_MAX_INPUT_BYTES (64ull << 20)

/*
 * Adds the results at PATH: r0bench/1 JSON (each test's median bytes/s
 * over its passes, its merged p50) or an r0sweep/1 file (its raw cells,
 * the median over repeats; the layer cost from the 1-member stripes at
 * QD1 against raw). Their workloads become the ones to predict.
 * 0, -EINVAL (neither format, or not a regular file), -EFBIG (more than
 * R0_PREDICT_MAX_INPUT_BYTES), -E2BIG (more than R0_PREDICT_MAX_WORKLOADS
 * workloads), -EXDEV (an r0bench/1 grid of another drive than the first
 * grid added: r0_bench_drive_diff; in->drive_diff says how), -ENOMEM, or
 * the errors of r0_sweep_load.
 */
int r0_predict_input_load(struct r0_predict_input *in, const char *path);
void r0_predict_input_free(struct r0_predict_input *in);

/* The workloads to predict: SET's (any layer), or preset P's. 0, -E2BIG. */
int r0_predict_input_use_set(struct r0_predict_input *in, const struct r0_run_set *set);
int r0_predict_input_use_preset(struct r0_predict_input *in, const struct r0_preset *p);

struct r0_predict_study_opts {
	struct r0_predict_opts model;   /* cpu_max_iops 0: from the input's CPU per I/O */
	double layer_ns;                /* < 0: the input's, else the default */
};

/*
 * Predicts workload WL (one of IN's) on LAYER with N members at CHUNK
 * (ignored for raw: the drive itself) into *OUT, an r0sweep/1 cell with
 * predicted set, tool TOOL. When the prediction is outside the error bar
 * (R0_PREDICT_MAX_SPREAD, R0_PREDICT_SLOW_LAYER_NS, with no CPU ceiling
 * given or measured more than 1.15x the IOPS any of the drive's results
 * reached: the host's capacity is not known beyond them, or members that
 * rest whose rested reading, r0_predict_opts.rested, is more than 15 %
 * faster: DOUBT then gives both figures) DOUBT (LEN bytes) says why, else
 * it is "".
 * 0, -ENOENT (the input has no result of a direction WL needs), the
 * errors of r0_predict.
 */
int r0_predict_cell(const struct r0_predict_input *in, const struct r0_predict_study_opts *o,
		    const struct r0_run *wl, enum r0_layer layer, unsigned n, uint32_t chunk,
		    const char *tool, struct r0_run *out, char *doubt, size_t len);

/* The median bytes/s over MEAS's repeats of the measured cell like R (NAN: none). */
double r0_predict_measured_bps(const struct r0_run_set *meas, const struct r0_run *r);

/* The error of predicted bytes/s against measured over a set of cells. */
struct r0_predict_error {
	char workload[64];           /* r0_run_workload's name, or "all" */
	size_t cells;
	double median, p90;          /* of |predicted / measured - 1| */
	double within_15;            /* share of cells within 15 %, 0..1 (NAN: none predicted) */
	size_t not_predicted;        /* measured cells PRED does not have */
	double repeat_spread;        /* median over the measured cells of (max - min) / median
					of their repeats' bytes/s (NAN: no cell repeated) */
};

/*
 * PRED against MEAS: every md/dm cell of MEAS (the median over its
 * repeats) that PRED has, per workload in MEAS's order and then "all"
 * last; the cells PRED lacks are counted, and the spread of MEAS's own
 * repeats (over all its md/dm cells) says how precise the measured side is. *ROWS is allocated (free() it), *N its length; no cell in common
 * gives *N 0. 0 or -ENOMEM.
 */
int r0_predict_compare(const struct r0_run_set *pred, const struct r0_run_set *meas,
		       struct r0_predict_error **rows, size_t *n);

/*
 * The chunk the verdict picks under MIX from PRED (layer and chunk at its
 * largest member count) against the measured study MEAS's tied set (the
 * choices that cannot be told from its best): *IN_TIED, and both in
 * words into TEXT ("md 512K; measured: md 64K, md 512K"). No pick
 * (*PICKED false, TEXT says why) where PRED's own cells cannot make one
 * that MEAS would not contradict: fewer than two choices predicted whole
 * (too little to rank), or the choices predicted whole hold none of MEAS's
 * tied set (the measured best could not be picked). 0, -ENODATA (either
 * has no choice), the errors of r0_analyse.
 */
int r0_predict_check_pick(const struct r0_run_set *pred, const struct r0_run_set *meas,
			  const struct r0_mix *mix, bool *picked, bool *in_tied, char *text, size_t len);

#endif
