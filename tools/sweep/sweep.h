/* SPDX-License-Identifier: GPL-2.0-or-later */
/* r0sweep's state, shared by the tool and its running and output parts (tools/sweep/). */
#ifndef R0SWEEP_SWEEP_H
#define R0SWEEP_SWEEP_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "r0/adaptive.h"
#include "r0/age.h"
#include "r0/study.h"
#include "r0/analysis.h"
#include "r0/array.h"
#include "r0/engine.h"
#include "r0/replay.h"
#include "r0/safety.h"
#include "r0/sweep.h"
#include "r0/sweepplan.h"

#define PROG "r0sweep"
#define MAX_CHUNKS 16
#define MAX_QDS 8     /* --qd LIST: queue depths of the small random tests at most */
#define MAX_PRESETS 7

struct sweep {
	char **members;
	unsigned n_members;
	struct r0_member_check chk[R0_MAX_MEMBERS];
	bool backend[2];
	uint32_t chunks[MAX_CHUNKS], single_chunks[MAX_CHUNKS];
	size_t n_chunks, n_single;
	bool count[R0_MAX_MEMBERS + 1];
	unsigned qds[MAX_QDS];
	size_t n_qds;
	struct r0_sweep_plan plan;
	bool keep[R0_SWEEP_MAX_WL];
	unsigned repeats;           /* the first look; every repeat when not adaptive */
	unsigned max_repeats;       /* adaptive: the last look */
	bool adaptive;              /* repeats where undecided, targets around the set (r0/adaptive.h) */
	uint64_t budget_ns;         /* adaptive: plan within it; 0: none */
	struct r0_study study;      /* the study loop and its planner (r0/study.h) */
	const unsigned *visit_repeat;   /* during a visit: each workload's repeat to run; 0: none */
	unsigned pass;              /* during a visit: the study's pass */
	bool budget_hit;            /* the study stopped at its budget */
	uint64_t runtime_ns, ramp_ns, region_bytes;
	uint64_t min_runtime_ns;    /* --min-runtime: end a test when steady, not before; 0: off */
	char state[32], devices[R0_DEVICES_TEXT_MAX], describe[256], array_name[R0_ARRAY_NAME_MAX + 1];
	bool precondition;
	bool read_only;             /* --read-only: nothing is written to the members, ever */
	unsigned order_pos;         /* the current target's 1-based position in its repeat */
	FILE *out;
	struct r0_run_set done;
	bool tty;
	size_t total, finished, skipped, io_error_cells;
	struct timespec t0;
	struct r0_replay_trace *trace;  /* --replay: loaded whole before anything runs */
	char trace_path[4096];
	double replay_scale;        /* --replay-scale: paced at X times the recorded speed; 0: as fast as possible */
	bool fs_made;               /* this visit made a file system: its members are wiped after it */
	bool calibrate;             /* --calibrate: copies of one array against the raw drive (r0/calibrate.h) */
	unsigned copies;            /* --copies */
	double visit_s;             /* seconds in target visits so far ... */
	size_t visit_cells;         /* ... and the cells they finished: the cell time planned from now on */
};

/* cells.c */

/* Whether workload WL is an everyday scenario through a file system (r0/everyday.h). */
bool sweep_is_everyday(const struct sweep *sw, size_t wl);
/* The study's parameters into R: what --resume and r0report compare. */
void sweep_study_rec(const struct sweep *sw, struct r0_run *r);
/* Whether the visit runs workload WL of T and the file lacks it; the cell's record into *R. */
bool sweep_cell_wanted(const struct sweep *sw, const struct r0_sweep_target *t, size_t wl, struct r0_run *r);
/* "md 3 x 64K, ext4 copy, repeat 2" */
void sweep_cell_name(const struct r0_sweep_target *t, const struct r0_run *r, char *buf, size_t len);
/* Appends a finished cell to the file and the done set, counts it, shows RESULT. 0 or -errno (said why). */
int sweep_record_cell(struct sweep *sw, struct r0_run *r, const char *name, const char *result);
/* The test region as it will be: --region, at most the smallest member. */
uint64_t sweep_region_bytes(const struct sweep *sw);
/* The progress display: a line per finished cell (RESULT), a redrawn status line before one (NULL). */
void sweep_progress(struct sweep *sw, const char *cell, const char *result);
/* Seconds a cell is planned to take at most: ramp, test and the time between tests. */
double sweep_cell_seconds(const struct sweep *sw);
/* Seconds since *T0 (CLOCK_MONOTONIC). */
double sweep_since(const struct timespec *t0);
/* The record of T's workload WL, repeat REP, before it runs. */
void sweep_cell_rec(const struct sweep *sw, const struct r0_sweep_target *t, size_t wl, unsigned rep,
		    struct r0_run *r);
/* "md 3 x 64K" */
void sweep_target_name(const struct r0_sweep_target *t, char *buf, size_t len);

/* run.c */

/* Cells of the first look already in the file (a resumed study's). */
size_t sweep_first_look_in_file(const struct sweep *sw);
/*
 * Runs the study through the library's loop (r0/study.h), each visit
 * building the target's array, running its wanted cells and removing it.
 * 0 (the budget may have ended it: study.budget_hit), -EINTR or -errno.
 */
int sweep_run_study(struct sweep *sw);
/* Writes every member's test region once. 0, -EINTR or -errno (said why). */
int sweep_precondition(struct sweep *sw);

/* everyday.c */

/* T's wanted everyday cells on PATH: per file system, made over the region, mounted, removed. */
int sweep_run_everyday(struct sweep *sw, const struct r0_sweep_target *t, const char *path);

/* replay.c */

/*
 * --replay PATH: loads the trace and adds its workload, paced at SCALE
 * times its recorded speed (--replay-scale; 0: as fast as possible), its
 * discards replayed too with DISCARDS (--replay-discards: refused unless
 * every member takes discards). -1, or an exit status (said why).
 */
int sweep_add_replay(struct sweep *sw, const char *path, unsigned skip, bool read_only, double scale,
		     bool discards);
void sweep_free_replay(struct sweep *sw);
/* A replay cell's seconds, planned. */
double sweep_replay_cell_seconds(const struct sweep *sw);
/* Replays the trace on TG, mapped onto the region, into R's measurement. 0, -EINTR or -errno. */
int sweep_run_replay(struct sweep *sw, const struct r0_io_file *tg, size_t wl, unsigned rep, struct r0_run *r);
/* After the verdict: what the recording gains on the pick, in a sentence. */
void sweep_print_replay(const struct sweep *sw, const struct r0_analysis *a);

/* After a visit's array is removed: any file system signature within the region off its members. */
void sweep_wipe_members(struct sweep *sw, const struct r0_sweep_target *t);

/* plan.c */

/* The lists of the options, item by item (r0_cli_each_item): 0 or -EINVAL. */
struct sweep_chunk_list {
	uint32_t *v;
	size_t *n;
};
/* a chunk size into a struct sweep_chunk_list, once */
int sweep_add_chunk(const char *s, void *arg);
/* a member count into bool[R0_MAX_MEMBERS + 1] */
int sweep_add_count(const char *s, void *arg);
/* a queue depth into struct sweep's qds */
int sweep_add_qd(const char *s, void *arg);
/* a preset into presets[MAX_PRESETS + 1], NULL-terminated: an item beyond MAX_PRESETS is refused */
int sweep_add_preset(const char *s, void *arg);
/* --workloads: drops every workload not named; 0, or an error after saying why */
int sweep_keep_only(struct sweep *sw, const char *list);

struct r0_consent;
/* The plan: what will be destroyed, written and how long it takes; then the yes. An exit status. */
int sweep_show_plan(const struct sweep *sw, bool read_only, const char *output, const struct r0_consent *consent);
/* A file system over the region must hold the scenarios and be one mkfs makes: -1 if so, else an exit. */
/* W as a cell on a target of TARGET_BYTES runs it: the region fitted to the target, the study's times. */
void sweep_cell_workload(const struct sweep *sw, struct r0_workload *w, uint64_t target_bytes);

/* The members' preconditioning: their region written once, 128K sequential (r0age's fill). */
#define SWEEP_PRECONDITION_WORKLOAD \
	{ .access = R0_ACCESS_SEQ, .read_pct = 0, .block_bytes = R0_AGE_FILL_BLOCK_BYTES, .queue_depth = 4, .jobs = 1 }

/* Every block test and the preconditioning fit the region on every member: -1 if so, else an exit. */
int sweep_check_region(const struct sweep *sw);
int sweep_check_everyday_region(const struct sweep *sw);
/* The calibration's whole passes within the budget (at least R0_CALIB_MIN_PASSES): -1, or an exit. */
int sweep_calibration_passes(struct sweep *sw);
/* "9 targets x 13 workloads x 3 repeats = 351 cells" of an adaptive study's first look */
void sweep_first_look_words(const struct sweep *sw, char *buf, size_t len);
/* --resume after a SIGKILL: what the killed run left on these members alone, removed and said. */
void sweep_clear_killed(const struct sweep *sw);

/* output.c */

/* --resume: every cell of the file from the same study as this run. 0 or -EINVAL (said why). */
int sweep_check_resume(const struct sweep *sw, const char *path);
/* Prints the analysis and the verdict and appends them to the file. 0 or -errno (said why). */
int sweep_finish(struct sweep *sw, const char *path, const struct r0_mix *mix, const struct r0_cmp_opts *cmp);
/* --calibrate: the calibration's answer printed and appended to the file. 0 or -errno (said why). */
int sweep_finish_calibration(struct sweep *sw, const char *path, const struct r0_mix *mix,
			     const struct r0_cmp_opts *cmp);
/* How the study planned itself, in words, on stdout (adaptive studies). */
void sweep_print_plan_summary(const struct sweep *sw);
/* Path, size, model and serial (where the kernel has them) of every member. */
void sweep_describe_members(struct sweep *sw, const char *describe);
/* The members' state from their r0age records, where they agree. */
void sweep_state_from_records(struct sweep *sw);

#endif
