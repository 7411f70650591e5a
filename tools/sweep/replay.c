// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0sweep --replay: the user's own recorded I/O (r0profile --trace) as a
 * workload of the study. On each target the trace is replayed as fast as
 * the target allows at the trace's queue depth (r0bench --replay's way),
 * or with --replay-scale X paced at X times its recorded speed, with
 * --replay-discards its discards issued too (r0/replay.h),
 * mapped onto the test region as the block tests are, so it writes nowhere
 * else; its cell holds the replay's seconds and bytes/s, and the verdict
 * says what the recording gains on the pick.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "consent.h"
#include "sweep.h"

#include "r0/preset.h"
#include "r0/replay.h"
#include "r0/size.h"

/* --replay-discards: every member takes discards (an array over them then does too), or -1 said why */
static int members_discard(const struct sweep *sw)
{
	for (unsigned i = 0; i < sw->n_members; i++) {
		struct r0_io_file m = { .fd = -1, .is_block = true };
		struct stat st;
		char why[256];

		if (stat(sw->members[i], &st) || !S_ISBLK(st.st_mode))
			continue;   /* not a block device: the member checks say so */
		m.devt = st.st_rdev;
		if (r0_io_file_discard_check(&m, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s: --replay-discards: cannot discard: %s\n", sw->members[i], why);
			return -1;
		}
	}
	return 0;
}

int sweep_add_replay(struct sweep *sw, const char *path, unsigned skip, bool read_only, double scale,
		     bool discards)
{
	struct r0_replay_trace *t = calloc(1, sizeof(*t));
	struct r0_workload w = { .access = R0_ACCESS_REPLAY, .jobs = 1 };
	char copy[4096], *base, *dot, label[sizeof(sw->plan.wl[0].label)], pace[16] = "";
	uint64_t bytes;
	int err;

	if (!t)
		return R0_EXIT_FAILURE;
	err = r0_replay_load_flags(path, discards ? R0_REPLAY_LOAD_DISCARDS : 0, t);
	if (err) {
		char where[512];
		const char *text = r0_trace_fault_text(err, &t->fault, where, sizeof(where));

		if (text)
			fprintf(stderr, PROG ": --replay %s: %s\n", path, text);
		else
			fprintf(stderr, PROG ": --replay %s: cannot read the trace: %s\n", path, strerror(-err));
		goto fail;
	}
	if (skip)
		fprintf(stderr, PROG ": --replay %s: --replay-skip: %llu requests left out\n", path,
			(unsigned long long)r0_replay_skip(t, skip));
	if (!t->n) {
		fprintf(stderr, PROG ": --replay %s: no read or write to replay\n", path);
		goto fail;
	}
	if (read_only && r0_replay_writes(t)) {
		if (t->writes)
			fprintf(stderr, PROG ": --replay %s: --read-only: the trace holds %llu writes (--replay-skip "
				"writes leaves them out)\n", path, (unsigned long long)t->writes);
		else
			fprintf(stderr, PROG ": --replay %s: --read-only: --replay-discards and the trace holds "
				"%llu discards\n", path, (unsigned long long)t->discards);
		goto fail;
	}
	if (discards && !t->discards)
		fprintf(stderr, PROG ": --replay %s: --replay-discards: the trace holds no discard\n", path);
	/* refused before any array is built: members that take no discards make none that does */
	if (t->discards_kept && t->discards && members_discard(sw))
		goto fail;
	/* a fio iolog v2 has no times: nothing to pace by */
	if (scale > 0 && t->h.untimed) {
		fprintf(stderr, PROG ": --replay %s: a %s has no times: --replay-scale cannot pace it\n", path,
			r0_trace_format_name(t->h.format));
		goto fail;
	}
	/*
	 * "replay NAME": the file's name without its extension, as long as
	 * the label holds; paced, its speed after it ("replay day x10"), so a
	 * resumed study never mixes a paced replay's cells with a fast one's
	 */
	if (scale > 0)
		snprintf(pace, sizeof(pace), " x%g", scale);
	snprintf(copy, sizeof(copy), "%s", path);
	base = basename(copy);
	if ((dot = strrchr(base, '.')) && dot != base)
		*dot = '\0';
	snprintf(label, sizeof(label), "replay %.*s%s", (int)(sizeof(label) - 8 - strlen(pace)), base, pace);
	bytes = t->read_bytes + t->write_bytes;
	/* fixed figures of the trace: its reads' share, its largest request, the depth it replays at */
	w.read_pct = bytes ? (unsigned)(100.0 * (double)t->read_bytes / (double)bytes + 0.5) : 100;
	if (w.read_pct == 100 && r0_replay_writes(t))
		w.read_pct = 99;   /* a replay that writes or discards is a writing workload (the target opened for it) */
	w.block_bytes = t->max_request_bytes;
	w.queue_depth = t->max_in_flight ? t->max_in_flight : R0_REPLAY_DEFAULT_QD;
	if (r0_sweep_plan_add(&sw->plan, label, &w)) {
		fprintf(stderr, PROG ": more than %d workloads: choose fewer presets or depths\n", R0_SWEEP_MAX_WL);
		goto fail;
	}
	sw->trace = t;
	sw->replay_scale = scale;
	snprintf(sw->trace_path, sizeof(sw->trace_path), "%s", path);
	return -1;
fail:
	/* a trace it cannot replay: refused before any array is built */
	r0_replay_trace_free(t);
	free(t);
	return R0_EXIT_REFUSED;
}

void sweep_free_replay(struct sweep *sw)
{
	if (sw->trace) {
		r0_replay_trace_free(sw->trace);
		free(sw->trace);
		sw->trace = NULL;
	}
}

double sweep_replay_cell_seconds(const struct sweep *sw)
{
	double fast;

	if (!sw->trace)
		return 0;
	/* its bytes at the plan's assumed rate, and 50 us a request; paced, at least its scaled time */
	fast = r0_plan_write_seconds(sw->trace->read_bytes + sw->trace->write_bytes) + (double)sw->trace->n * 50e-6 + 0.3;
	if (sw->replay_scale > 0 && (double)sw->trace->duration_us / 1e6 / sw->replay_scale + 0.3 > fast)
		return (double)sw->trace->duration_us / 1e6 / sw->replay_scale + 0.3;
	return fast;
}

int sweep_run_replay(struct sweep *sw, const struct r0_io_file *tg, size_t wl, unsigned rep, struct r0_run *r)
{
	struct r0_replay_opts o = { .queue_depth = sw->plan.wl[wl].w.queue_depth, .seed = rep,
				    .pace = sw->replay_scale > 0, .time_scale = sw->replay_scale,
				    .stop = r0_cli_stop_flag() };
	struct r0_replay_result res;
	struct r0_io_file region = *tg;
	int err;

	/* onto the test region, as every block test: the trace is mapped modulo its size */
	region.size_bytes = r0_test_region_bytes(sw->region_bytes, region.size_bytes);
	err = r0_replay_run(sw->trace, &region, &o, &res);
	if (err)
		return err;
	r->runtime_s = (double)res.wall_ns / 1e9;
	r->ios = res.requests;
	r->iops = res.iops;
	r->bytes_per_s = res.wall_ns ? (double)(res.read_bytes + res.written_bytes) / ((double)res.wall_ns / 1e9) : 0;
	r->lat_p50_ns = res.lat_p50_ns;
	r->lat_p99_ns = res.lat_p99_ns;
	r->time_unix = (int64_t)time(NULL);
	return 0;
}

void sweep_print_replay(const struct sweep *sw, const struct r0_analysis *a)
{
	const struct r0_choice *pick = a->has_choice ? &a->choice[a->pick] : NULL;
	char rec[32], ck[16];

	if (!sw->trace || !pick)
		return;
	for (size_t w = 0; w < a->n_wl; w++) {
		const struct r0_cell *c = r0_analysis_cell(a, pick->layer, pick->chunk_bytes, a->max_members, w);

		if (strncmp(a->wl[w].name, "replay ", 7) || !c || !c->speedup.n)
			continue;
		/* a recording of seconds in seconds, a longer one in minutes and hours */
		if (sw->trace->duration_us < 60000000ULL)
			snprintf(rec, sizeof(rec), "%.3g s", (double)sw->trace->duration_us / 1e6);
		else
			r0_plan_bound((double)sw->trace->duration_us / 1e6, rec, sizeof(rec));
		r0_format_size(pick->chunk_bytes, ck, sizeof(ck));
		if (sw->replay_scale > 0)
			printf("Your recorded I/O (%s: %zu requests over %s, replayed at %g times its pace): ",
			       sw->trace_path, sw->trace->n, rec, sw->replay_scale);
		else
			printf("Your recorded I/O (%s: %zu requests over %s, replayed as fast as each target allows): ",
			       sw->trace_path, sw->trace->n, rec);
		printf("%.2fx one drive on %s %s", c->speedup.med,
		       r0_layer_name(pick->layer), ck);
		if (!c->vs_base.indicative)
			printf(" (%.2f-%.2f)", c->speedup.min, c->speedup.max);
		printf(", %u drives: %s.\n\n", a->max_members, r0_answer_name(c->answer));
	}
}
