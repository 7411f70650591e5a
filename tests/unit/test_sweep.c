// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/sweep.h (the result file) and r0/analysis.h (speed-ups, ties, verdicts). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/analysis.h"
#include "r0/sweep.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define K 1024u
#define M (1024u * 1024u)

/* A hand-made cell: target, workload and the bytes/s of each repeat (0 ends). */
struct row {
	enum r0_layer layer;
	uint32_t chunk;
	unsigned n;
	const char *label;
	enum r0_access access;
	uint32_t bs;
	unsigned qd, read_pct;
	double mbps[4];
};

static void make_rec(const struct row *w, unsigned rep, struct r0_sweep_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->layer = w->layer;
	r->chunk_bytes = w->chunk;
	r->n_members = w->n;
	snprintf(r->label, sizeof(r->label), "%s", w->label);
	r->access = w->access;
	r->read_pct = w->read_pct;
	r->block_bytes = w->bs;
	r->queue_depth = w->qd;
	r->jobs = 1;
	r->repeat = rep + 1;
	r->runtime_s = 2;
	r->bytes_per_s = w->mbps[rep] * 1e6;
	r->iops = r->bytes_per_s / w->bs;
	r->ios = (uint64_t)(r->iops * 2);
	r->lat_mean_ns = 1e9 * w->qd / r->iops;
	r->lat_p50_ns = (uint64_t)r->lat_mean_ns;
	r->lat_p90_ns = r->lat_p99_ns = r->lat_p999_ns = r->lat_p9999_ns = r->lat_max_ns =
		2 * r->lat_p50_ns;
	r->cpu_s_per_io = 2e-6;
	snprintf(r->state, sizeof(r->state), "empty");
	snprintf(r->devices, sizeof(r->devices), "/dev/r0m0 (256.0 MiB), /dev/r0m1 (256.0 MiB)");
	snprintf(r->describe, sizeof(r->describe), "2 x null_blk");
	r->region_bytes = 16 * M;
	r->test_runtime_s = 0.5;
	r->ramp_s = 0.1;
	snprintf(r->precondition, sizeof(r->precondition), "seq-fill");
	r->order_pos = 3;
	snprintf(r->tool, sizeof(r->tool), "r0sweep test");
}

/* Writes ROWS as a result file (through the library's own writer) and loads it. */
static void load_rows(const struct row *rows, size_t n, struct r0_sweep_set *set)
{
	char path[] = "/tmp/r0-test-sweep-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	unsigned bad = 99;

	cr_assert_not_null(f);
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; k < 4 && rows[i].mbps[k] > 0; k++) {
			struct r0_sweep_rec r;

			make_rec(&rows[i], k, &r);
			cr_assert_eq(r0_sweep_rec_append(f, &r), 0);
		}
	cr_assert_eq(r0_sweep_append_json(f, "analysis", "{\"verdict\":\"ignored by readers\"}"), 0);
	fclose(f);
	memset(set, 0, sizeof(*set));
	cr_assert_eq(r0_sweep_load(path, set, &bad), 0);
	cr_expect_eq(bad, 0);
	unlink(path);
}

static size_t wl_index(const struct r0_analysis *a, const char *name)
{
	for (size_t i = 0; i < a->n_wl; i++)
		if (!strcmp(a->wl[i].name, name))
			return i;
	cr_assert_fail("no workload '%s'", name);
	return 0;
}

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

Test(sweep, record_round_trip)
{
	struct row w = { R0_LAYER_DM, 64 * K, 3, "512K straddle", R0_ACCESS_RAND, 512 * K, 1, 70, { 123.5 } };
	struct r0_sweep_rec r, back;
	char k1[256], k2[256];
	char *line;

	make_rec(&w, 0, &r);
	r.align_bytes = 4096;
	r.errors = 3;
	r.time_unix = 1790000000;
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_null(strchr(line, '\n'), "one line: %s", line);
	cr_expect_not_null(strstr(line, "\"schema\":\"r0sweep/1\""), "%s", line);
	cr_expect_not_null(strstr(line, "\"rw\":\"randrw\""), "%s", line);
	cr_assert_eq(r0_sweep_rec_parse(line, &back), 0, "%s", line);
	free(line);
	cr_expect_eq(back.layer, R0_LAYER_DM);
	cr_expect_eq(back.chunk_bytes, 64 * K);
	cr_expect_eq(back.n_members, 3);
	cr_expect_str_eq(back.label, "512K straddle");
	cr_expect_eq(back.access, R0_ACCESS_RAND);
	cr_expect_eq(back.read_pct, 70);
	cr_expect_eq(back.align_bytes, 4096);
	cr_expect_eq(back.errors, 3);
	cr_expect_eq(back.lat_p99_ns, r.lat_p99_ns);
	cr_expect(NEAR(back.bytes_per_s, r.bytes_per_s));
	cr_expect_eq(back.time_unix, 1790000000);
	cr_expect_str_eq(back.devices, r.devices);
	r0_sweep_rec_key(&r, k1, sizeof(k1));
	r0_sweep_rec_key(&back, k2, sizeof(k2));
	cr_expect_str_eq(k1, k2);
	back.repeat = 2;
	r0_sweep_rec_key(&back, k2, sizeof(k2));
	cr_expect_str_neq(k1, k2, "the repeat is part of the key");
	r0_sweep_rec_workload(&back, k1, sizeof(k1));
	cr_expect_str_eq(k1, "512K straddle rw70");
}

Test(sweep, predicted_round_trips_and_is_another_study)
{
	struct row w = { R0_LAYER_MD, 64 * K, 2, "Seq", R0_ACCESS_SEQ, 1024 * K, 1, 100, { 200.0 } };
	struct r0_sweep_rec r, back;
	char why[128];
	char *line;

	make_rec(&w, 0, &r);
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_null(strstr(line, "predicted"), "a measured cell says nothing: %s", line);
	free(line);
	r.predicted = true;
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_not_null(strstr(line, "\"predicted\":true"), "%s", line);
	cr_assert_eq(r0_sweep_rec_parse(line, &back), 0, "%s", line);
	free(line);
	cr_expect(back.predicted);
	make_rec(&w, 0, &r);
	cr_expect_eq(r0_sweep_rec_study_diff(&r, &back, why, sizeof(why)), 1);
	cr_expect_str_eq(why, "predicted (no vs yes)");
}

Test(sweep, record_knows_its_study)
{
	struct row w = { R0_LAYER_MD, 64 * K, 2, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100 } };
	struct r0_sweep_rec r, back;
	char why[512], *line;

	make_rec(&w, 0, &r);
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_assert_eq(r0_sweep_rec_parse(line, &back), 0, "%s", line);
	free(line);
	cr_expect_eq(back.region_bytes, 16 * M);
	cr_expect(NEAR(back.test_runtime_s, 0.5) && NEAR(back.ramp_s, 0.1));
	cr_expect_str_eq(back.precondition, "seq-fill");
	cr_expect_eq(back.order_pos, 3);
	cr_expect_str_eq(back.describe, "2 x null_blk");
	cr_expect_eq(r0_sweep_rec_study_diff(&r, &back, why, sizeof(why)), 0);
	/* each parameter of the study, changed alone, is named */
	{
		static const char *const named[] = { "region (16.0 MiB vs 32.0 MiB)", "runtime (0.5 s vs 1 s)",
						     "ramp (0.1 s vs 0 s)", "state (empty vs used)",
						     "preconditioning (seq-fill vs none)", "devices (" };

		for (size_t i = 0; i < N(named); i++) {
			struct r0_sweep_rec x = r;

			switch (i) {
			case 0: x.region_bytes = 32 * M; break;
			case 1: x.test_runtime_s = 1; break;
			case 2: x.ramp_s = 0; break;
			case 3: snprintf(x.state, sizeof(x.state), "used"); break;
			case 4: snprintf(x.precondition, sizeof(x.precondition), "none"); break;
			case 5: snprintf(x.devices, sizeof(x.devices), "/dev/sdz (1.0 GiB)"); break;
			}
			cr_expect_eq(r0_sweep_rec_study_diff(&r, &x, why, sizeof(why)), 1, "%s", named[i]);
			cr_expect_eq(strncmp(why, named[i], strlen(named[i])), 0, "%s: %s", named[i], why);
		}
	}
	/* the repeat, the order and the describe text are not the study's parameters */
	back.repeat = 4;
	back.order_pos = 1;
	back.describe[0] = '\0';
	cr_expect_eq(r0_sweep_rec_study_diff(&r, &back, why, sizeof(why)), 0);
}

Test(sweep, order_differs_by_repeat)
{
	size_t o[7], again[7], first_of_raw[6] = { 0 };
	bool differ = false;

	for (unsigned rep = 1; rep <= 6; rep++) {
		bool seen[7] = { false };

		r0_sweep_order(rep, 7, o);
		r0_sweep_order(rep, 7, again);
		cr_expect_eq(memcmp(o, again, sizeof(o)), 0, "the same order in every run");
		for (size_t i = 0; i < 7; i++) {
			cr_assert_lt(o[i], 7);
			cr_expect(!seen[o[i]], "a permutation");
			seen[o[i]] = true;
			if (o[i] == 0)
				first_of_raw[rep - 1] = i;
		}
		if (rep > 1) {
			size_t prev[7];

			r0_sweep_order(rep - 1, 7, prev);
			differ |= memcmp(prev, o, sizeof(o)) != 0;
		}
	}
	cr_expect(differ, "the order changes between repeats");
	{
		bool moves = false;

		for (size_t i = 1; i < 6; i++)
			moves |= first_of_raw[i] != first_of_raw[0];
		cr_expect(moves, "the raw target is not always at the same position");
	}
}

/* One line as a person (or another program) would write it. */
static const char hand_line[] =
	"{\"schema\":\"r0sweep/1\",\"type\":\"cell\",\"layer\":\"md\",\"chunk_bytes\":65536,"
	"\"members\":2,\"workload\":\"Seq\",\"rw\":\"read\",\"read_pct\":100,\"block_bytes\":1048576,"
	"\"align_bytes\":0,\"queue_depth\":1,\"jobs\":1,\"repeat\":1,\"runtime_s\":2,\"ios\":900,"
	"\"iops\":450,\"bytes_per_s\":471859200,\"errors\":0,\"lat_ns\":{\"mean\":2200000.5,"
	"\"p50\":2100000,\"p90\":2500000,\"p99\":3000000,\"p99.9\":3100000,\"p99.99\":3100000,"
	"\"max\":3200000},\"cpu_s_per_io\":1.5e-05,\"state\":\"empty\",\"devices\":\"x\","
	"\"tool\":\"r0sweep 0.1.0\",\"time\":1}";

Test(sweep, parses_hand_written_line_and_refuses_bad_ones)
{
	struct r0_sweep_rec r;
	char buf[sizeof(hand_line) + 64];

	cr_assert_eq(r0_sweep_rec_parse(hand_line, &r), 0);
	cr_expect_eq(r.layer, R0_LAYER_MD);
	cr_expect_eq(r.access, R0_ACCESS_SEQ);
	cr_expect(NEAR(r.runtime_s, 2), "an integer where a double is expected is accepted");
	cr_expect_eq(r.lat_p90_ns, 2500000);
	cr_expect(NEAR(r.cpu_s_per_io, 1.5e-5));
	/* a line of an older r0sweep: the study's parameters read as not recorded */
	cr_expect(r.region_bytes == 0 && r.test_runtime_s < 0 && r.ramp_s < 0 && !r.precondition[0] &&
		  !r.order_pos);

	cr_expect_eq(r0_sweep_rec_parse("{\"schema\":\"r0sweep/1\",\"type\":\"analysis\"}", &r), -ENOMSG);
	cr_expect_eq(r0_sweep_rec_parse("not json", &r), -EINVAL);
	cr_expect_eq(r0_sweep_rec_parse("[1,2]", &r), -EINVAL);
	/* another schema version */
	snprintf(buf, sizeof(buf), "%s", hand_line);
	memcpy(strstr(buf, "r0sweep/1"), "r0sweep/2", 9);
	cr_expect_eq(r0_sweep_rec_parse(buf, &r), -EINVAL);
	/* a required key missing */
	snprintf(buf, sizeof(buf), "%s", hand_line);
	memcpy(strstr(buf, "\"iops\""), "\"iopz\"", 6);
	cr_expect_eq(r0_sweep_rec_parse(buf, &r), -EINVAL);
	/* raw with a chunk */
	snprintf(buf, sizeof(buf), "%s", hand_line);
	memcpy(strstr(buf, "\"md\""), "\"dx\"", 4);
	cr_expect_eq(r0_sweep_rec_parse(buf, &r), -EINVAL, "unknown layer");
	snprintf(buf, sizeof(buf), "%s", hand_line);
	memcpy(strstr(buf, "\"md\""), "\"rw\"", 4);
	cr_expect_eq(r0_sweep_rec_parse(buf, &r), -EINVAL);
}

Test(sweep, load_skips_bad_and_cut_lines)
{
	char path[] = "/tmp/r0-test-load-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct r0_sweep_set set = { 0 };
	unsigned bad = 0;

	fprintf(f, "%s\n\n{\"schema\":\"r0sweep/1\",\"type\":\"analysis\",\"x\":1}\ngarbage\n%s\n", hand_line,
		hand_line);
	fprintf(f, "%.*s", 40, hand_line);   /* a write cut short by a crash */
	fclose(f);
	cr_assert_eq(r0_sweep_load(path, &set, &bad), 0);
	cr_expect_eq(set.n, 2);
	cr_expect_eq(bad, 2);
	cr_expect(r0_sweep_set_has(&set, &set.recs[0]));
	r0_sweep_set_free(&set);

	f = fopen(path, "w");
	fprintf(f, "hello\nworld\n");
	fclose(f);
	cr_expect_eq(r0_sweep_load(path, &set, &bad), -EINVAL, "not a result file");
	cr_expect_eq(set.n, 0);
	unlink(path);
	cr_expect_eq(r0_sweep_load(path, &set, NULL), -ENOENT);
}

/* Seq 100 MB/s alone; 2 members 190 (1.9x), 3 members 270 (2.7x). */
static const struct row scaling[] = {
	{ R0_LAYER_RAW, 0, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100, 98, 102 } },
	{ R0_LAYER_MD, 64 * K, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 97, 96, 98 } },
	{ R0_LAYER_MD, 64 * K, 2, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 190, 188, 192 } },
	{ R0_LAYER_MD, 64 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 270, 265, 272 } },
	{ R0_LAYER_RAW, 0, 1, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 40, 41, 39 } },
	{ R0_LAYER_MD, 64 * K, 3, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 38, 37, 39 } },
};

Test(analysis, speedup_and_efficiency)
{
	struct r0_sweep_set set;
	struct r0_analysis a;
	struct r0_mix mix;
	const struct r0_cell *c;
	size_t seq, q1;

	load_rows(scaling, N(scaling), &set);
	cr_assert_eq(set.n, 18);
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect_eq(a.max_members, 3);
	cr_expect_eq(a.repeats, 3);
	seq = wl_index(&a, "Seq read");
	q1 = wl_index(&a, "4K read");
	cr_expect_str_eq(a.wl[seq].cls, "seq-read");
	cr_expect_str_eq(a.wl[q1].cls, "rand-small-q1-read");
	cr_expect(a.wl[seq].base_raw);
	cr_expect(NEAR(a.wl[seq].base.med, 100e6));

	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 2, seq);
	cr_assert_not_null(c);
	cr_expect(NEAR(c->speedup.med, 1.9), "%f", c->speedup.med);
	/* the interval holds both sides' noise: 188-192 over a baseline of 98-102 */
	cr_expect(c->speedup.min < 1.9 && c->speedup.min >= 188.0 / 102 - 1e-9, "%f", c->speedup.min);
	cr_expect(c->speedup.max > 1.9 && c->speedup.max <= 192.0 / 98 + 1e-9, "%f", c->speedup.max);
	cr_expect(!c->vs_base.indicative && c->vs_base.beyond_noise);
	cr_expect(NEAR(c->efficiency, 0.95));
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, seq);
	cr_expect(NEAR(c->speedup.med, 2.7) && NEAR(c->efficiency, 0.9));
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 1, seq);
	cr_expect(NEAR(c->speedup.med, 0.97), "the layer's own cost shows at 1 member");
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, q1);
	cr_expect(NEAR(c->speedup.med, 0.95));
	cr_expect_null(r0_analysis_cell(&a, R0_LAYER_DM, 64 * K, 3, q1));
	/* the sequential mix weighs only Seq read here: worth it; 4K read is not */
	cr_expect(a.worth);
	cr_expect_not_null(strstr(a.verdict, "RAID0 of these 3 drives: worth it for Seq read (2.70x, 2.60-2.78); not for 4K read (0.95x, 0.90-1.00). Chunk: md 64K is the best under the sequential mix; pick md 64K. Under the sequential mix md 64K is 2.70x a single drive (2.60-2.78): worth it."),
			   "%s", a.verdict);
	cr_expect_eq(strncmp(a.method, "Each comparison is the ratio of the two sides' median bytes/s", 61), 0,
		     "%s", a.method);
	cr_expect_null(strstr(a.reasoning, "CPU-bound"), "%s", a.reasoning);
	r0_analysis_free(&a);

	/* the 3-member array's 4K reads with the measuring thread 90 % busy */
	for (size_t i = 0; i < set.n; i++)
		if (set.recs[i].n_members == 3 && set.recs[i].block_bytes == 4 * K)
			set.recs[i].cpu_s_per_io = 0.9 / set.recs[i].iops;
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, q1);
	cr_expect(fabs(c->cpu_busy - 0.9) < 1e-9, "%f", c->cpu_busy);
	cr_expect_not_null(strstr(a.reasoning, "- 4K read is CPU-bound: the measuring thread was busy 90% of the time on the 3-member array and 2% on the single drive;"),
			   "%s", a.reasoning);
	cr_expect_null(strstr(a.reasoning, "Seq read is CPU-bound"));
	/* CPU-bound: could not tell, not "not worth it" */
	cr_expect_eq(c->answer, R0_ANSWER_CPU);
	cr_expect_not_null(strstr(a.verdict, "; could not tell for 4K read (0.95x, 0.90-1.00) (the measuring CPU was the limit)."),
			   "%s", a.verdict);
	cr_expect_null(strstr(a.verdict, "not for 4K read"), "%s", a.verdict);
	r0_analysis_free(&a);

	/* the array's Seq read 90 % busy but 2.7x beyond noise: worth it, a lower bound */
	for (size_t i = 0; i < set.n; i++)
		if (set.recs[i].n_members == 3)
			set.recs[i].cpu_s_per_io = 0.9 / set.recs[i].iops;
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, seq);
	cr_expect_eq(c->answer, R0_ANSWER_WORTH, "%s", a.verdict);
	cr_expect_not_null(strstr(a.reasoning, "- Seq read: the measuring thread was busy 90% of the time on the 3-member array, so its 2.70x is a lower bound: worth it all the same."),
			   "%s", a.reasoning);
	cr_expect_eq(r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, q1)->answer, R0_ANSWER_CPU);
	r0_analysis_free(&a);
	/* busy on the single drive's side only: could not tell either */
	for (size_t i = 0; i < set.n; i++)
		if (set.recs[i].block_bytes == 4 * K)
			set.recs[i].cpu_s_per_io = (set.recs[i].layer == R0_LAYER_RAW ? 0.85 : 0.1) / set.recs[i].iops;
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, q1);
	cr_expect_eq(c->answer, R0_ANSWER_CPU, "%s", a.verdict);
	cr_expect(fabs(a.wl[q1].base_cpu_busy - 0.85) < 1e-9);
	{
		/* all of a mix on the CPU-limited 4K reads: the mix cannot tell either */
		struct r0_analysis b;
		struct r0_mix only4k;

		cr_assert_eq(r0_mix_parse("4K read=1", &only4k), 0);
		cr_assert_eq(r0_analyse(&set, &only4k, NULL, &b), 0);
		cr_expect_eq(b.answer, R0_ANSWER_CPU);
		cr_expect_not_null(strstr(b.verdict, ": could not tell: the measuring CPU was the limit."), "%s", b.verdict);
		r0_analysis_free(&b);
	}
	r0_analysis_free(&a);

	/* without a raw run the 1-member stripe is the baseline */
	set.n = 0;
	for (size_t i = 1; i < 4; i++)
		for (unsigned k = 0; k < 3; k++) {
			struct r0_sweep_rec r;

			make_rec(&scaling[i], k, &r);
			r0_sweep_set_add(&set, &r);
		}
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect(!a.wl[0].base_raw);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 2, 0);
	cr_expect(NEAR(c->speedup.med, 190.0 / 97), "%f", c->speedup.med);
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
}

/* Two chunks within noise of each other, a third clearly behind. */
static const struct row chunks[] = {
	{ R0_LAYER_RAW, 0, 1, "512K", R0_ACCESS_RAND, 512 * K, 1, 100, { 100, 100, 100 } },
	{ R0_LAYER_DM, 64 * K, 2, "512K", R0_ACCESS_RAND, 512 * K, 1, 100, { 150, 140, 160 } },
	{ R0_LAYER_DM, 128 * K, 2, "512K", R0_ACCESS_RAND, 512 * K, 1, 100, { 158, 150, 162 } },
	{ R0_LAYER_DM, 512 * K, 2, "512K", R0_ACCESS_RAND, 512 * K, 1, 100, { 110, 108, 112 } },
	{ R0_LAYER_DM, 4 * K, 2, "512K", R0_ACCESS_RAND, 512 * K, 1, 100, { 105, 95, 115 } },
};

Test(analysis, ties_within_noise)
{
	struct r0_sweep_set set;
	struct r0_analysis a;
	struct r0_mix mix;
	uint32_t best, tied[8];
	size_t nt;

	load_rows(chunks, N(chunks), &set);
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_assert_eq(r0_analysis_best_chunk(&a, R0_LAYER_DM, 2, 0, &best, tied, 8, &nt), 0);
	cr_expect_eq(best, 128 * K);
	cr_assert_eq(nt, 2, "64K is 8 MB/s behind with a spread of 20: a tie");
	cr_expect((tied[0] == 64 * K && tied[1] == 128 * K) || (tied[0] == 128 * K && tied[1] == 64 * K));
	cr_expect_eq(r0_analysis_best_chunk(&a, R0_LAYER_MD, 2, 0, &best, tied, 8, &nt), -ENOENT);
	/* the recommendation names the tie too */
	cr_assert_eq(a.n_choice, 4);
	cr_expect_eq(a.choice[0].chunk_bytes, 128 * K);
	cr_expect(a.choice[1].tie_best && a.choice[1].chunk_bytes == 64 * K);
	cr_expect(!a.choice[2].tie_best);
	cr_expect_not_null(strstr(a.verdict, "Chunk: dm 128K and dm 64K are equivalent within 5 % or the noise under the sequential mix; dm 512K loses 30 % on 512K read: avoid it; dm 4K loses 34 % on 512K read: avoid it; pick dm 128K (the rule: the chunk nearest 512K"),
			   "%s", a.verdict);
	/* 1.05x with a spread from 0.95 to 1.15: no gain beyond noise */
	{
		const struct r0_cell *c = r0_analysis_cell(&a, R0_LAYER_DM, 4 * K, 2, 0);
		cr_expect_eq(c->vs_base.sign, 0);
	}
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
}

/*
 * Chunk 1M helps sequential reads, 64K helps 4K QD32; 4K QD1 loses
 * everywhere. Each mix must pick what its weights favour.
 */
static const struct row mixrows[] = {
	{ R0_LAYER_RAW, 0, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100, 100.1, 99.9 } },
	{ R0_LAYER_MD, 64 * K, 2, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 150, 150.1, 149.9 } },
	{ R0_LAYER_MD, M, 2, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 180, 180.1, 179.9 } },
	{ R0_LAYER_RAW, 0, 1, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 100, 100.1, 99.9 } },
	{ R0_LAYER_MD, 64 * K, 2, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 90, 90.1, 89.9 } },
	{ R0_LAYER_MD, M, 2, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 90, 90.1, 89.9 } },
	{ R0_LAYER_RAW, 0, 1, "4K QD32", R0_ACCESS_RAND, 4 * K, 32, 100, { 100, 100.1, 99.9 } },
	{ R0_LAYER_MD, 64 * K, 2, "4K QD32", R0_ACCESS_RAND, 4 * K, 32, 100, { 190, 190.1, 189.9 } },
	{ R0_LAYER_MD, M, 2, "4K QD32", R0_ACCESS_RAND, 4 * K, 32, 100, { 120, 120.1, 119.9 } },
};

Test(analysis, recommendation_under_each_mix)
{
	static const struct {
		const char *mix;
		uint32_t chunk;
		bool worth;
		double score;
	} cases[] = {
		/* desktop: 4K QD1 35, Seq 15, 4K QD32 5 of the classes present (55) */
		{ "desktop", M, false, (35 * 0.9 + 15 * 1.8 + 5 * 1.2) / 55 },
		{ "database", 64 * K, true, (35 * 1.9 + 15 * 0.9 + 5 * 1.5) / 55 },
		{ "sequential", M, true, 1.8 },
		{ "4K QD32 read=3,Seq read=1", 64 * K, true, (3 * 1.9 + 1.5) / 4 },
		{ "rand-small-q1-read=1", 64 * K, false, 0.9 },
	};
	struct r0_sweep_set set;

	load_rows(mixrows, N(mixrows), &set);
	for (size_t i = 0; i < N(cases); i++) {
		struct r0_analysis a;
		struct r0_mix mix;

		cr_assert_eq(r0_mix_parse(cases[i].mix, &mix), 0, "%s", cases[i].mix);
		cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
		cr_expect(a.has_choice);
		cr_expect_eq(a.choice[0].chunk_bytes, cases[i].chunk, "%s: chunk %u", cases[i].mix,
			     a.choice[0].chunk_bytes);
		cr_expect(fabs(a.choice[0].score - cases[i].score) < 1e-3, "%s: score %f, expected %f",
			  cases[i].mix, a.choice[0].score, cases[i].score);
		cr_expect_eq(a.worth, cases[i].worth, "%s: %s", cases[i].mix, a.verdict);
		cr_expect_not_null(strstr(a.verdict, cases[i].worth ? ": worth it." : ": not worth it."),
				   "%s", a.verdict);
		cr_expect_not_null(strstr(a.verdict, "not for 4K read (0.90x, 0.90-0.90)"), "%s", a.verdict);
		if (!strcmp(cases[i].mix, "rand-small-q1-read=1"))
			cr_expect(a.choice[1].tie_best, "both chunks give 0.9x: a tie");
		else if (!strcmp(cases[i].mix, "desktop"))
			cr_expect(a.choice[1].tie_best, "1.15x against 1.17x: within the 5 %% threshold");
		else
			cr_expect(!a.choice[1].tie_best, "%s: %s", cases[i].mix, a.reasoning);
		r0_analysis_free(&a);
	}
	r0_sweep_set_free(&set);
}

/*
 * 64K best by a hair, 512K and 128K within 5 %, 4K 60 % behind on
 * sequential reads: the set is 64K, 128K and 512K, the rule picks 512K.
 */
static const struct row pickrows[] = {
	{ R0_LAYER_RAW, 0, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100, 101, 99, 100 } },
	{ R0_LAYER_MD, 4 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 110, 111, 109, 110 } },
	{ R0_LAYER_MD, 64 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 280, 282, 278, 280 } },
	{ R0_LAYER_MD, 128 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 276, 278, 274, 276 } },
	{ R0_LAYER_MD, 512 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 272, 274, 270, 272 } },
};

Test(analysis, recommended_set_and_pick_rule)
{
	struct r0_sweep_set set;
	struct r0_analysis a;
	struct r0_mix mix;

	load_rows(pickrows, N(pickrows), &set);
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_assert_eq(a.n_choice, 4);
	cr_expect_eq(a.choice[0].chunk_bytes, 64 * K, "the best score");
	cr_expect_eq(a.choice[a.pick].chunk_bytes, 512 * K, "the rule: nearest 512K within the set");
	cr_expect_not_null(strstr(a.verdict, "Chunk: md 64K, md 128K and md 512K are equivalent within 5 % or the noise under the sequential mix; md 4K loses 61 % on Seq read: avoid it; pick md 512K (the rule: the chunk nearest 512K, mdadm's default; md before dm)."),
			   "%s", a.verdict);
	cr_expect_not_null(strstr(a.verdict, "Under the sequential mix md 512K is 2.72x a single drive"), "%s", a.verdict);
	/* a 2 % threshold: 512K (3 % behind, beyond the noise) leaves the set */
	{
		struct r0_analysis b;
		struct r0_cmp_opts o;

		r0_cmp_defaults(&o);
		o.threshold = 0.02;
		cr_assert_eq(r0_analyse(&set, &mix, &o, &b), 0);
		cr_expect_eq(b.choice[b.pick].chunk_bytes, 128 * K, "%s", b.verdict);
		cr_expect_not_null(strstr(b.verdict, "equivalent within 2 %"), "%s", b.verdict);
		r0_analysis_free(&b);
	}
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
}

/*
 * Repeat REPEAT of md 64K is no measurement (ERRORS I/O errors, IOS
 * requests completed, 0 B/s): it must be in no median and be named as
 * NAMED in the reasoning.
 */
static void left_out(unsigned repeat, uint64_t errors, uint64_t ios, const char *named)
{
	struct r0_sweep_set set;
	struct r0_analysis a;
	struct r0_mix mix;
	const struct r0_cell *c;

	load_rows(pickrows, N(pickrows), &set);
	for (size_t i = 0; i < set.n; i++)
		if (set.recs[i].chunk_bytes == 64 * K && set.recs[i].repeat == repeat) {
			set.recs[i].errors = errors;
			set.recs[i].ios = ios;
			set.recs[i].bytes_per_s = 0;
		}
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, 0);
	cr_assert_not_null(c);
	cr_expect_eq(c->bps.n, 3, "3 measured repeats of 4");
	cr_expect_eq(c->n_excluded, 1);
	cr_expect_eq(c->errors, errors);
	cr_expect(NEAR(c->bps.med, 280e6) && c->bps.min > 0, "the 0 B/s repeat is in no median");
	cr_expect_eq(a.n_excluded, 1);
	cr_expect_not_null(strstr(a.reasoning, named), "%s", a.reasoning);
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
}

/* an error in the ramp: 0 B/s */
Test(analysis, error_cells_left_out_and_named)
{
	left_out(2, 5, 3, "- Left out of every median (I/O errors, or no request completed in the window): "
		 "md 3 x 64K Seq read repeat 2 (5 errors).\n");
}

/* not one request completed in the window, no error: a stalled stack */
Test(analysis, stalled_cells_left_out_and_named)
{
	left_out(3, 0, 0, "md 3 x 64K Seq read repeat 3 (no request completed)");
}

Test(analysis, predicted_cells_count_no_requests_and_stay_in)
{
	struct r0_sweep_set set;
	struct r0_analysis a;
	struct r0_mix mix;
	const struct r0_cell *c;

	load_rows(pickrows, N(pickrows), &set);
	for (size_t i = 0; i < set.n; i++) {   /* r0predict writes ios 0 */
		set.recs[i].predicted = true;
		set.recs[i].ios = 0;
	}
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	c = r0_analysis_cell(&a, R0_LAYER_MD, 64 * K, 3, 0);
	cr_assert_not_null(c);
	cr_expect_eq(c->bps.n, 4, "every predicted repeat is an input");
	cr_expect_eq(a.n_excluded, 0);
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
}

Test(analysis, below_three_repeats_is_indicative)
{
	struct row one[N(pickrows)];
	struct r0_sweep_set set;
	struct r0_analysis a;
	struct r0_mix mix;

	memcpy(one, pickrows, sizeof(one));
	for (size_t i = 0; i < N(one); i++)
		one[i].mbps[1] = 0;   /* 1 repeat each */
	load_rows(one, N(one), &set);
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, NULL, &a), 0);
	cr_expect(a.indicative && a.min_repeats == 1);
	cr_expect_not_null(strstr(a.verdict, "RAID0 of these 3 drives: indicative: 1 repeat, noise unknown. worth it for Seq read (2.72x)"),
			   "%s", a.verdict);
	cr_expect_null(strstr(a.verdict, "-"), "no interval without noise: %s", a.verdict);
	for (size_t k = 0; k < a.n_cell; k++)
		cr_expect(!a.cell[k].vs_base.beyond_noise, "nothing is beyond noise with 1 repeat");
	for (size_t k = 1; k < a.n_choice; k++)
		cr_expect(!a.choice[k].vs_best.beyond_noise);
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
}

/*
 * Diminishing returns from the data alone: Seq scales to 1.9x at 2
 * members; the 3rd member's repeats (ROW3) decide. 4K never scales, so
 * its flat 3rd member says nothing about a shared limit.
 */
static void analyse_third(const double third[4], struct r0_sweep_set *set, struct r0_analysis *a)
{
	struct row rows[] = {
		{ R0_LAYER_RAW, 0, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 100, 98, 102 } },
		{ R0_LAYER_MD, 64 * K, 1, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 97, 96, 98 } },
		{ R0_LAYER_MD, 64 * K, 2, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 190, 188, 192 } },
		{ R0_LAYER_MD, 64 * K, 3, "Seq", R0_ACCESS_SEQ, M, 1, 100, { 0 } },
		{ R0_LAYER_RAW, 0, 1, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 40, 41, 39 } },
		{ R0_LAYER_MD, 64 * K, 2, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 40, 39, 41 } },
		{ R0_LAYER_MD, 64 * K, 3, "4K", R0_ACCESS_RAND, 4 * K, 1, 100, { 40, 41, 40 } },
	};
	struct r0_mix mix;

	memcpy(rows[3].mbps, third, sizeof(rows[3].mbps));
	load_rows(rows, N(rows), set);
	cr_assert_eq(r0_mix_parse("sequential", &mix), 0);
	cr_assert_eq(r0_analyse(set, &mix, NULL, a), 0);
}

Test(analysis, shared_limit_fires_on_a_small_third_member)
{
	static const double third[4] = { 209, 207, 211 };   /* 1.1x of 2 */
	struct r0_sweep_set set;
	struct r0_analysis a;
	size_t seq, q1;

	analyse_third(third, &set, &a);
	seq = wl_index(&a, "Seq read");
	q1 = wl_index(&a, "4K read");
	cr_expect(NEAR(a.wl[seq].vs_fewer.ratio, 1.1), "%f", a.wl[seq].vs_fewer.ratio);
	cr_expect(a.wl[seq].shared_limit, "%s", a.reasoning);
	cr_expect(!a.wl[q1].shared_limit, "2 members did not scale 4K: no shared limit to tell");
	cr_expect(a.shared_limit);
	cr_expect_not_null(strstr(a.verdict, " 3 drives: 1.10x of 2: something the members share is the limit "
					      "\u2014 a controller, a link, or the CPU (on Seq read, 1."),
			   "%s", a.verdict);
	cr_expect_not_null(strstr(a.headline, "; 3 drives: 1.10x of 2 on Seq read: something the members share is the limit."),
			   "%s", a.headline);
	cr_expect_not_null(strstr(a.reasoning, "- Seq read: 3 drives 1.10x of 2 (1."), "%s", a.reasoning);
	cr_expect_eq(a.build_members, 3, "1.10x of 2 is beyond noise and the 5 %% threshold: %s", a.reasoning);
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
}

Test(analysis, shared_limit_not_on_clean_scaling_or_noise)
{
	static const double clean[4] = { 285, 282, 288 };        /* 1.5x of 2 */
	static const double noisy[4] = { 150, 230, 290, 222 };   /* median 1.19x of 2, but up to 1.53x */
	struct r0_sweep_set set;
	struct r0_analysis a;
	size_t seq;

	analyse_third(clean, &set, &a);
	seq = wl_index(&a, "Seq read");
	cr_expect(NEAR(a.wl[seq].vs_fewer.ratio, 1.5), "%f", a.wl[seq].vs_fewer.ratio);
	cr_expect(!a.shared_limit && !a.wl[seq].shared_limit, "%s", a.verdict);
	cr_expect_null(strstr(a.verdict, "share"), "%s", a.verdict);
	cr_expect_null(strstr(a.headline, "share"), "%s", a.headline);
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);

	analyse_third(noisy, &set, &a);
	seq = wl_index(&a, "Seq read");
	/* the point alone is below 1.25x; the interval reaches clean scaling */
	cr_expect(a.wl[seq].vs_fewer.ratio <= 1.25, "%f", a.wl[seq].vs_fewer.ratio);
	cr_expect(a.wl[seq].vs_fewer.hi >= 1.5, "%f", a.wl[seq].vs_fewer.hi);
	cr_expect(!a.shared_limit && !a.wl[seq].shared_limit, "%s", a.verdict);
	cr_expect_null(strstr(a.verdict, "share"), "%s", a.verdict);
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
}

/*
 * How many to build: the fewest members that no larger count beats beyond
 * noise under the mix. A 3rd member at 1.5x of 2 (clean) is built; one at
 * 1.03x of 2 is not, and the first screen's words say why.
 */
Test(analysis, build_three_when_the_third_clearly_adds)
{
	static const double clean[4] = { 285, 282, 288 };   /* 1.5x of 2 */
	struct r0_sweep_set set;
	struct r0_analysis a;

	analyse_third(clean, &set, &a);
	cr_expect_eq(a.build_members, 3, "%s", a.reasoning);
	cr_expect_str_empty(a.build);
	cr_expect_eq(a.more_vs_build.ratio, 0);
	cr_expect(NEAR(a.build_vs_base.ratio, a.choice[a.pick].score));
	cr_expect_null(strstr(a.headline, " of them"), "%s", a.headline);
	cr_expect_not_null(strstr(a.reasoning, "- Members at md 64K, speed-up under the mix: 2: 1.9"), "%s", a.reasoning);
	cr_expect_not_null(strstr(a.reasoning, "no fewer drives qualify: build 3.\n"), "%s", a.reasoning);
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
}

Test(analysis, build_two_when_the_third_adds_little)
{
	static const double flat[4] = { 196, 194, 198 };   /* 1.03x of 2 */
	struct r0_sweep_set set;
	struct r0_analysis a;

	analyse_third(flat, &set, &a);
	cr_expect_eq(a.build_members, 2, "%s", a.reasoning);
	cr_expect(NEAR(a.more_vs_build.ratio, 196.0 / 190), "%f", a.more_vs_build.ratio);
	cr_expect_eq(a.more_vs_build.sign, 0);
	cr_expect(NEAR(a.build_vs_base.ratio, 1.9), "%f", a.build_vs_base.ratio);
	cr_expect(a.worth && a.shared_limit);
	cr_expect_str_eq(a.build, "a 3rd drive adds 1.03x (1.01-1.05) under the sequential mix: something the members share is the limit",
			 "%s", a.build);
	cr_expect_not_null(strstr(a.headline, "RAID0 of these 3 drives: worth it with 2 of them under the sequential mix, "
					       "md 64K at 1.90x one drive (1."), "%s", a.headline);
	cr_expect_not_null(strstr(a.headline, "; worth it for Seq read; not for 4K read; a 3rd drive adds 1.03x"), "%s", a.headline);
	cr_expect_null(strstr(a.headline, "3 drives: 1.03x of 2 on"), "said once: %s", a.headline);
	cr_expect_not_null(strstr(a.verdict, " Build 2 of them (1.90x one drive): a 3rd drive adds 1.03x"), "%s", a.verdict);
	cr_expect_not_null(strstr(a.reasoning, "something the members share is the limit; build 2.\n"), "%s", a.reasoning);
	cr_expect_not_null(strstr(a.method, "the array to build has the fewest drives (from 2) that no more drives beat"),
			   "%s", a.method);
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
}

Test(analysis, build_two_when_the_third_cannot_be_told)
{
	static const double noisy[4] = { 150, 230, 290, 222 };   /* median 1.19x of 2, interval past 1.5x */
	static const double small[4] = { 199, 198, 200 };        /* 1.05x of 2: within the threshold */
	struct r0_sweep_set set;
	struct r0_analysis a;

	analyse_third(noisy, &set, &a);
	cr_expect_eq(a.build_members, 2, "%s", a.reasoning);
	cr_expect(!a.shared_limit);
	cr_expect_not_null(strstr(a.build, ": a gain the noise cannot tell from none"), "%s", a.build);
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
	analyse_third(small, &set, &a);
	cr_expect_eq(a.build_members, 2, "%s", a.reasoning);
	r0_analysis_free(&a);
	r0_sweep_set_free(&set);
}
