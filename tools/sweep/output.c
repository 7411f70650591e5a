// SPDX-License-Identifier: GPL-2.0-or-later
/* r0sweep's output: usage, the resume check, the analysis printed and recorded, the members described. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "consent.h"
#include "sweep.h"

#define STR_(x) #x
#define STR(x) STR_(x)

#include "r0/age.h"
#include "r0/advice.h"
#include "r0/analysis.h"
#include "r0/analysisline.h"
#include "r0/calibrate.h"
#include "r0/geometry.h"
#include "r0/preset.h"
#include "r0/probe.h"
#include "r0/size.h"
#include "r0/trimanswer.h"
#include "consent.h"



void sweep_usage(FILE *f)
{
	fputs("Usage:\n"
	      "  " PROG " --output FILE [options] DEV DEV...\n"
	      "\n"
	      "The study: the first member alone (raw, no array), then md raid0 and\n"
	      "dm-stripe arrays over the first n members at each chunk size, each\n"
	      "measured with every workload, repeated; each repeat visits the targets\n"
	      "in its own seeded order. By default the study plans itself into its\n"
	      "budget (30 min): every cell 3 times, then more repeats (5, 8) only where\n"
	      "a comparison that decides an answer is still undecided; the largest\n"
	      "arrays on the first back end at every chunk, then only the chunks left\n"
	      "in the running on the other back end and at fewer members. At the end\n"
	      "it says what it left undecided or unmeasured, and why.\n"
	      "First every member's test region is written\n"
	      "once (preconditioning). Each array is built, measured\n"
	      "and removed before the next (also on an error or a signal). Every\n"
	      "finished cell (one workload, one repeat, one target) is appended to FILE\n"
	      "as a JSON line (schema " R0_SWEEP_SCHEMA ", see r0sweep(1)); at the end the\n"
	      "analysis and the verdict are printed and appended too.\n"
	      "THE MEMBERS' DATA IS DESTROYED: the write tests write all over them.\n"
	      "It first shows the plan (each device, what is written, how long it\n"
	      "takes) and asks; --read-only writes nothing and asks nothing.\n"
	      "\n"
	      "Options:\n"
	      "      --output FILE      result file: a new or empty one (--resume: the one\n"
	      "                         the study wrote, appended to)\n"
	      "      --resume           skip the cells FILE already holds (refused when FILE\n"
	      "                         was measured with another region, runtime, ramp,\n"
	      "                         min-runtime, state, preconditioning or other\n"
	      "                         devices)\n"
	      "      --backend LIST     md, dm or md,dm (default md,dm)\n"
	      "      --chunks LIST      chunk sizes (default " R0_DEFAULT_CHUNKS ")\n"
	      "      --members LIST     member counts (default 1 up to all); 1 measures the\n"
	      "                         first member raw and as a 1-member stripe\n"
	      "      --single-chunks LIST  chunks of the 1-member stripes (default: 512K,\n"
	      "                         or the first of --chunks): the layer's own cost\n"
	      "  -p, --preset LIST      workload sets (default cdm3,cdm; r0bench --help has them);\n"
	      "                         a workload in two sets runs once; everyday (ext4)\n"
	      "                         and everyday-xfs: a large copy, small files, an\n"
	      "                         application start alone and in a copy, unpacking,\n"
	      "                         timed through a file system made over the region\n"
	      "                         on each target (32M region at least; xfs 300M)\n"
	      "      --qd LIST          queue depths of the small random tests (default 1,4,32)\n"
	      "      --no-straddle      without the chunk-straddling test (512K random reads\n"
	      "                         at 4K-aligned offsets, so most cross a chunk boundary)\n"
	      "      --read-only        only the read tests, nothing written, ever (no\n"
	      "                         preconditioning): reads see the drives' data\n"
	      "                         as it is; a signature needs no --force\n"
	      "  -w, --workloads LIST   only these, by name: \"Seq read,4K QD32 write\"\n"
	      "      --budget TIME      plan the study into TIME, preconditioning included\n"
	      "                         (default 30m, --calibrate 5m; 0: no bound); nothing\n"
	      "                         starts that would end past it\n"
	      "      --max-repeats N    repeats of an undecided cell at most (default " STR(R0_ADAPT_MAX_REPEATS) ")\n"
	      "  -r, --repeats N        a fixed plan instead: N repeats of every cell of\n"
	      "                         every target (below 3 every verdict is indicative)\n"
	      "      --every-target     a fixed plan of every target at every chunk, " STR(R0_SWEEP_DEFAULT_REPEATS) "\n"
	      "                         repeats (or --repeats); hours on real drives\n"
	      "  -t, --runtime TIME     measured time per test at most (default 3 s;\n"
	      "                         --calibrate 1 s; 500ms, 2m)\n"
	      "      --ramp TIME        unmeasured time before each test (default 0.5 s)\n"
	      "      --min-runtime TIME  end a test once its rate is steady, not before\n"
	      "                         TIME; --runtime is then its most (default 1 s\n"
	      "                         where --runtime is 2 s or more, else 0: off)\n"
	      "      --region SIZE      test region (default 1G, CDM's; at most the target)\n"
	      "      --state LABEL      the members' state, recorded (default: the state\n"
	      "                         of their r0age records when all agree, else empty)\n"
	      "      --describe TEXT    what the members are, recorded before their list\n"
	      "      --no-precondition  do not write every member's test region once before\n"
	      "                         the first test (recorded as \"none\")\n"
	      "      --threshold PCT    the smallest difference that counts (default 5)\n"
	      "      --drive-gain X     what a drive must add over one fewer to be worth\n"
	      "                         buying, by the worth-it rule (default 1.2), from the\n"
	      "                         drive after the fewest worth it (the 2nd drive: the\n"
	      "                         worth-it bar)\n"
	      "      --mix MIX          weights for the verdict: desktop (default), database,\n"
	      "                         sequential, everyday (default of -p everyday alone),\n"
	      "                         replay (default of a --replay alone),\n"
	      "                         KEY=WEIGHT,... (see r0report(1)), or\n"
	      "                         a mix file r0profile measured (r0mix/1)\n"
	      "      --replay TRACE     also replay TRACE (r0profile --trace: your own I/O)\n"
	      "                         on each target as fast as it allows, mapped onto the\n"
	      "                         region; workload \"replay NAME\", mix replay\n"
	      "      --replay-skip KINDS  leave out the trace's reads, writes or flushes\n"
	      "                         (comma-separated; fio's replay_skip)\n"
	      "      --replay-scale X   pace the replay at X times the recorded speed\n"
	      "                         (2 twice as fast, 0.5 half; fio's\n"
	      "                         replay_time_scale=200, 50); workload\n"
	      "                         \"replay NAME xX\"\n"
	      "      --replay-discards  issue the trace's discards too (BLKDISCARD, one at\n"
	      "                         a time; refused unless every member takes them)\n"
	      "      --calibrate        instead of a study, how noisy this machine is (an\n"
	      "                         A/A calibration): one md array of the members at\n"
	      "                         64K, built afresh at every visit and measured as\n"
	      "                         copies A, B, ... beside the first member alone, the\n"
	      "                         cdm3 set at QD 1 and 32 in 1 s cells, as many whole\n"
	      "                         passes as --budget holds (at least 3); counts the\n"
	      "                         differences the study's statistics find between\n"
	      "                         the copies and says whether the noise is within\n"
	      "                         what the study was validated for\n"
	      "      --copies K         the calibration's copies (2 to 8, default 3)\n"
      "  -f, --force            accept members that hold a signature\n"
	      R0_CONSENT_HELP
	      "  -h, --help             this text\n"
	      "  -V, --version          version\n"
	      "\n"
	      "Members may be disks or partitions, named any way (/dev/disk/by-id/...).\n"
	      "Members that are mounted, have a mounted partition, are held by another\n"
	      "device, or cannot be opened exclusively are always refused. Needs root\n"
	      "and the md_mod, raid0 and dm_mod modules.\n"
	      "Exit status: 0 done, 1 failure (also an interrupted sweep or I/O errors),\n"
	      "2 usage or refused before anything was touched (a member in use, a trace\n"
	      "it cannot replay, no yes, no terminal to ask and no --yes).\n",
	      f);
}


int sweep_check_resume(const struct sweep *sw, const char *path)
{
	struct r0_sweep_rec now;
	char why[1200];

	memset(&now, 0, sizeof(now));
	sweep_study_rec(sw, &now);
	for (size_t i = 0; i < sw->done.n; i++)
		if (r0_sweep_rec_study_diff(&sw->done.recs[i], &now, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s: cannot resume: the file (first) and this run (second) differ "
				"in %s; use another file\n", path, why);
			return -EINVAL;
		}
	return 0;
}

/* --- the end: analysis ---------------------------------------------- */

/* Why an adaptive study ended. */
static enum r0_sweep_stopped stopped(const struct sweep *sw)
{
	if (sw->budget_hit)
		return R0_SWEEP_STOPPED_BUDGET;
	return sw->study.planner.at_max ? R0_SWEEP_STOPPED_LAST_LOOK : R0_SWEEP_STOPPED_DECIDED;
}

void sweep_print_plan_summary(const struct sweep *sw)
{
	const struct r0_planner *p = &sw->study.planner;
	char looks[64] = "";

	if (!sw->adaptive)
		return;
	for (size_t i = 0; i < p->n_looks; i++)
		snprintf(looks + strlen(looks), sizeof(looks) - strlen(looks), "%s%u",
			 !i ? "" : i + 1 == p->n_looks ? " and " : ", ", p->looks[i]);
	printf("Plan: repeats where a comparison was undecided, looking at %s repeats; %zu cells in %.0f min; ",
	       looks, sw->finished + sw->skipped, sweep_since(&sw->t0) / 60);
	if (sw->budget_hit) {
		char b[32];

		r0_plan_bound((double)sw->budget_ns / 1e9, b, sizeof(b));
		printf("the budget (%s) ended it with %s still open.\n", b,
		       p->open[0] ? p->open : "cells of the plan");
	}
	else if (p->at_max)
		printf("still open after %u repeats: %s.\n", p->looks[p->n_looks - 1], p->open);
	else
		printf("every comparison decided.\n");
	if (p->dropped[0])
		printf("Not measured: %s.\n", p->dropped);
	printf("\n");
}

/* The plan part of the analysis line: what an adaptive study did and left. */
static struct r0_sweep_plan_line plan_line(const struct sweep *sw)
{
	const struct r0_planner *p = &sw->study.planner;

	return (struct r0_sweep_plan_line){
		.adaptive = sw->adaptive, .looks = p->looks, .n_looks = p->n_looks,
		.budget_s = (double)sw->budget_ns / 1e9, .stopped = stopped(sw), .open = p->open,
		.dropped = p->dropped, .cells = sw->finished + sw->skipped,
	};
}

int sweep_finish(struct sweep *sw, const char *path, const struct r0_mix *mix, const struct r0_cmp_opts *cmp)
{
	struct r0_sweep_set set = { 0 };
	struct r0_analysis a;
	struct r0_sweep_plan_line plan;
	int err = r0_sweep_load(path, &set, NULL);

	if (!err) {
		struct r0_cmp_opts o = r0_planner_cmp(&sw->study.planner, cmp);

		struct r0_noise_diag nz;

		/* as r0report reads it: no claim where the runs' noise is beyond any validated */
		err = r0_noise_diag(&set, &nz);
		if (!err)
			err = r0_analyse_machine(&set, mix, &o, &nz, &a);
	}
	r0_sweep_set_free(&set);
	if (err) {
		fprintf(stderr, PROG ": %s: no analysis: %s\n", path, strerror(-err));
		return err;
	}
	{
		/* what r0report's terminal and the report's first screen say, then the detail */
		char first[sizeof(a.headline) + 4096], trim[512];

		r0_trim_answer(&a, NULL, 0, trim, sizeof(trim));
		r0_first_screen_text(&a, trim, NULL, first, sizeof(first));
		printf("%s\n%s\n\n", first, a.verdict);
	}
	sweep_print_replay(sw, &a);
	printf("Method: %s\n\n%s", a.method, a.reasoning);
	plan = plan_line(sw);
	err = r0_analysis_line_append(sw->out, &a, sw->adaptive ? &plan : NULL, r0_cli_tool_id(PROG),
				      (int64_t)time(NULL));
	r0_analysis_free(&a);
	if (err)
		fprintf(stderr, PROG ": cannot append the analysis: %s\n", strerror(-err));
	return err;
}

int sweep_finish_calibration(struct sweep *sw, const char *path, const struct r0_mix *mix,
			     const struct r0_cmp_opts *cmp)
{
	struct r0_sweep_set set = { 0 };
	struct r0_calibration *k = malloc(sizeof(*k));
	int err = k ? r0_sweep_load(path, &set, NULL) : -ENOMEM;

	if (!err) {
		struct r0_cmp_opts co = r0_planner_cmp(&sw->study.planner, cmp);

		err = r0_calibrate(&set, mix, &co, k);
	}
	r0_sweep_set_free(&set);
	if (err) {
		fprintf(stderr, PROG ": %s: no calibration: %s\n", path, strerror(-err));
		free(k);
		return err;
	}
	printf("%s\n", k->answer);
	err = r0_calibration_line_append(sw->out, k, r0_cli_tool_id(PROG), (int64_t)time(NULL));
	free(k);
	if (err)
		fprintf(stderr, PROG ": cannot append the calibration: %s\n", strerror(-err));
	return err;
}

/* Path as given, size, kernel name, model and serial (where the kernel has them) of every member. */
void sweep_describe_members(struct sweep *sw, const char *describe)
{
	size_t off = 0;

	if (describe)
		snprintf(sw->describe, sizeof(sw->describe), "%s", describe);
	for (unsigned i = 0; i < sw->n_members && off < sizeof(sw->devices); i++) {
		struct r0_device d;
		char sz[32] = "?", what[200] = "";

		if (!r0_probe_device(sw->members[i], &d)) {
			r0_format_size_human(d.size_bytes, sz, sizeof(sz));
			/* the kernel's name beside the one given (a by-id link), then what the drive is */
			snprintf(what, sizeof(what), "%s%s%s%s%s%s, %lld-byte blocks", d.kname,
				 d.model[0] ? ", " : "", d.model, d.serial[0] ? ", serial " : "", d.serial,
				 d.rotational == 1 ? ", rotational" : "", (long long)d.logical_block_size_bytes);
			r0_device_free(&d);
		}
		off += (size_t)snprintf(sw->devices + off, sizeof(sw->devices) - off, "%s%s (%s, %s)",
					i ? ", " : "", sw->members[i], sz, what);
	}
}

/*
 * The members' state from their r0age records (r0/age.h): when every
 * member has a complete record of the same state, that state labels the
 * cells; otherwise the default (or --state) stands.
 */
void sweep_state_from_records(struct sweep *sw)
{
	enum r0_age_state first = 0;

	for (unsigned i = 0; i < sw->n_members; i++) {
		struct r0_state_record rec;
		int ok = !r0_state_read(sw->chk[i].devt, &rec) && rec.complete;

		if (!ok || (i && rec.state != first))
			return;
		first = rec.state;
	}
	if (sw->n_members)
		snprintf(sw->state, sizeof(sw->state), "%s", r0_age_state_name(first));
}

