/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a whole study says about its own noise, so that three runs of one
 * cell do not decide that cell's uncertainty alone, one slow run does not
 * move a cell, and drift over the study does not move the cells measured
 * later.
 *
 *  - Drift: each run belongs to a pass (one visit of every target that a
 *    step of the study wanted, in a seeded order). A pass's effect is the
 *    median of its runs' distance from their cells, in log units, shrunk
 *    toward 0 when the pass holds few runs; the runs are compared with
 *    that effect taken out. The study measures each new target's
 *    comparison partners in the same passes (r0/adaptive.h), so the
 *    effect is seen on cells measured before and after.
 *  - Visits judged far: a visit is one target's runs in one pass, all
 *    its workloads measured together, so a pause or a slow spell of that
 *    target moves them together. A visit's effect is the median distance
 *    of its runs from their cells' runs in other visits (drift out), each
 *    in its group's robust noise times the target's own (its runs' spread
 *    about their visits' effects, at least 1). A visit whose effect is
 *    beyond R0_NOISE_FAR_SIGMAS robust standard deviations of all visits'
 *    effects (never below what independent runs give), fast or slow, is
 *    judged far whole, at most a third of a target's visits: one event,
 *    judged once.
 *  - Runs judged far: then a run further than R0_NOISE_FAR_SIGMAS robust
 *    standard deviations (times its target's own noise) from the median
 *    of its cell's other runs, either way (cells of 3 runs or more; at
 *    most a third of a cell's runs).
 *  - Far runs are measured again and kept (issue 44's "keep both"): the
 *    planner runs such cells again (a visit's target: one visit more),
 *    the report names them, and every run stays in every figure. Real
 *    noise is slow-tailed (a pause, a busy host), so leaving far runs out
 *    would leave out mostly slow ones and lift a noisy target's mean
 *    above its truth, the more the more it is repeated; a drive's slow
 *    runs are part of the time the user's I/O takes. While runs are
 *    judged, those judged far are out of the robust figures (drift,
 *    spread) that judge the others.
 *  - Pooled noise: the variance of log(run) around the cell's mean,
 *    pooled over the cells of a group (one workload on every target),
 *    and each cell's own variance moderated toward it (an empirical-Bayes
 *    prior of at most R0_NOISE_PRIOR_DF degrees of freedom, fewer the
 *    further cells' variances stray from it beyond what sampling gives:
 *    r0_noise.prior_df), so a cell's interval leans on the hundreds of
 *    runs of the study where they share one noise. The prior is
 *    the group's times the target's noise factor (its cells' variances
 *    against their groups', over all its cells' df) where that is above
 *    1: pooling never lends a noisy target the others' steadiness.
 *  - Visit correlation: the pooled correlation of the runs of one
 *    visit in different cells, each standardized about its cell.
 *
 * Pure: no I/O, no global state.
 */
#ifndef R0_NOISE_H
#define R0_NOISE_H

#include <stdbool.h>
#include <stddef.h>

/* a run this many robust standard deviations from its cell's other runs is judged far */
#define R0_NOISE_FAR_SIGMAS 3.5
/* the least noise assumed when a run is judged (a share, in log units): drives this
 * steady would judge far every run a little off */
#define R0_NOISE_FLOOR 0.01
/* the pooled noise's weight in a cell's own, in degrees of freedom, at most (noise of one level) */
#define R0_NOISE_PRIOR_DF 12
/* the cells it takes to show how far cells' noise strays from the prior (empirical Bayes) */
#define R0_NOISE_EB_MIN_CELLS 6
/* a cell whose own variance is this many times its prior (its group's, or its target's) keeps its
 * own (a cell that strays between two levels says so in its interval) */
#define R0_NOISE_OWN_RATIO 4

/* One run: what it is, and what the fit makes of it. */
struct r0_noise_obs {
	size_t cell;                /* 0 .. n_cell - 1 */
	size_t group;               /* 0 .. n_group - 1: cells of a group share one noise level */
	size_t target;              /* the cell's target (layer, chunk, members): cells of a target share visits */
	unsigned pass;              /* the pass it was measured in; 0: not recorded (no drift taken out) */
	unsigned visit;             /* the pass of its visit (PASS, or what stands for it); 0: not known */
	double value;               /* bytes/s, > 0 (anything else is left as it is, never judged far) */
	double adjusted;            /* out: VALUE with its pass's effect taken out */
	bool far;                   /* out: far from its cell's other runs, or in a visit judged far */
	bool visit_far;             /* out: judged far with its whole visit */
};

/* A visit judged far whole. */
struct r0_noise_visit {
	size_t target;
	unsigned visit;             /* r0_noise_obs.visit */
	unsigned runs;              /* its runs, all judged far */
	double effect;              /* its runs' median distance from their cells, log units */
};

struct r0_noise {
	size_t n_cell, n_group;
	double *cell_var;           /* per cell: the moderated variance of log(run); 0: unknown */
	double *cell_df;            /* its degrees of freedom */
	double *group_var;          /* per group: the pooled variance of log(run); 0: unknown */
	double *group_df;
	double prior_df;            /* the weight the prior earned (empirical Bayes), at most R0_NOISE_PRIOR_DF */
	unsigned n_far;             /* runs judged far, those of visits judged far included */
	size_t n_visits_far;
	struct r0_noise_visit *visits_far;   /* the visits judged far, by target then visit */
	unsigned n_pass;            /* passes with a drift effect taken out */
	double max_drift;           /* the largest |pass effect|, a share (0.04: 4 %) */
	/*
	 * The correlation of the runs of one visit (one target's runs in one
	 * pass) around their cells, drift taken out: a visit that is slow is
	 * slow on each workload it measures. In [0, 0.95]; 0: none shown, or
	 * fewer than 10 pairs of runs to show it.
	 */
	double visit_rho;
};

/* Fits OBS[0..n) (their adjusted, far and visit_far) into *OUT (free with r0_noise_free). 0 or -ENOMEM, -EINVAL. */
int r0_noise_fit(struct r0_noise_obs *obs, size_t n, size_t n_cell, size_t n_group, struct r0_noise *out);
void r0_noise_free(struct r0_noise *nz);

#endif
