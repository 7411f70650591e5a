// SPDX-License-Identifier: GPL-2.0-or-later
/* The everyday scenarios on a temporary directory of the host's file system (no cache drop: not root). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "r0/everyday.h"

#define MIB (1024ULL * 1024ULL)

static char dir[] = "/tmp/r0-everyday-test.XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

/* Entries left in the test directory: the scenario removes its own. */
static unsigned left(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void teardown(void)
{
	rmdir(dir);
}

static struct r0_everyday_result run(enum r0_everyday s, uint64_t scale)
{
	struct r0_everyday_opts o = { .scale_bytes = scale, .seed = 3 };
	struct r0_everyday_result r;

	cr_assert_eq(r0_everyday_run(s, dir, &o, &r), 0, "%s", r0_everyday_name(s));
	cr_expect_gt(r.seconds, 0);
	cr_expect_eq(left(), 0, "%s left files behind", r0_everyday_name(s));
	return r;
}

TestSuite(everyday, .init = setup, .fini = teardown);

Test(everyday, copy_reads_and_writes_an_eighth_of_the_region)
{
	struct r0_everyday_result r = run(R0_EVERYDAY_COPY, 64 * MIB);

	cr_expect_eq(r.read_bytes, 8 * MIB);
	cr_expect_eq(r.written_bytes, 8 * MIB);
	cr_expect_eq(r.files, 2);
}

Test(everyday, small_files_are_written_copied_and_read_back)
{
	struct r0_everyday_result r = run(R0_EVERYDAY_SMALL_FILES, 64 * MIB);

	/* 4 MiB of files written, copied (read + written again), read back */
	cr_expect_geq(r.written_bytes, 8 * MIB);
	cr_expect_lt(r.written_bytes, 8 * MIB + 2 * 1 * MIB);
	cr_expect_eq(r.read_bytes, r.written_bytes);
	/* 4K..1M spread on a log scale: tens of files, each opened four times (written, copied from and to, read) */
	cr_expect_gt(r.files, 4 * 10);
	cr_expect_eq(r.files % 4, 0);
}

Test(everyday, an_app_start_pages_its_files_in_at_32k)
{
	struct r0_everyday_result a = run(R0_EVERYDAY_APP_START, 128 * MIB);

	cr_expect_eq(a.written_bytes, 0);
	cr_expect_geq(a.read_bytes, 2 * MIB);   /* the 1 MiB image and 1 MiB of libraries at least */
	cr_expect_geq(a.pieces, a.read_bytes / (32 * 1024));
	cr_expect_gt(a.files, 8, "a dozen files or so, not %llu", (unsigned long long)a.files);
}

Test(everyday, a_start_in_a_copy_begins_a_quarter_of_the_way_in)
{
	struct r0_everyday_result b = run(R0_EVERYDAY_APP_START_BUSY, 64 * MIB);

	cr_expect_geq(b.busy_written_bytes, 2 * MIB);
	cr_expect_eq(b.written_bytes, 0, "the start itself reads only; the copy is counted apart");
	cr_expect_gt(b.read_bytes, 0);
}

Test(everyday, unpack_reads_the_archive_once_and_writes_its_files)
{
	struct r0_everyday_result u = run(R0_EVERYDAY_UNPACK, 64 * MIB);

	cr_expect_eq(u.read_bytes, u.written_bytes);
	cr_expect_geq(u.read_bytes, 4 * MIB);
	cr_expect_gt(u.files, 20);
}

Test(everyday, the_same_seed_gives_the_same_files)
{
	struct r0_everyday_result a = run(R0_EVERYDAY_SMALL_FILES, 32 * MIB), b = run(R0_EVERYDAY_SMALL_FILES, 32 * MIB);

	cr_expect_eq(a.files, b.files);
	cr_expect_eq(a.written_bytes, b.written_bytes);
}

Test(everyday, bad_input_is_refused_and_writes_nothing)
{
	struct r0_everyday_opts o = { .scale_bytes = 16 * MIB };
	struct r0_everyday_result r;

	cr_expect_eq(r0_everyday_run(R0_EVERYDAY_COPY, dir, &o, &r), -EINVAL);
	o.scale_bytes = 64 * MIB;
	cr_expect_eq(r0_everyday_run(R0_EVERYDAY_COUNT, dir, &o, &r), -EINVAL);
	cr_expect_eq(r0_everyday_run(R0_EVERYDAY_COPY, "/nonexistent/r0", &o, &r), -ENOENT);
	cr_expect_eq(left(), 0);
	cr_expect_null(r0_everyday_name(R0_EVERYDAY_COUNT));
}

Test(everyday, a_stop_ends_it_and_removes_its_files)
{
	volatile sig_atomic_t stop = 1;
	struct r0_everyday_opts o = { .scale_bytes = 64 * MIB, .stop = &stop };
	struct r0_everyday_result r;

	for (enum r0_everyday s = 0; s < R0_EVERYDAY_COUNT; s++) {
		cr_expect_eq(r0_everyday_run(s, dir, &o, &r), -EINTR, "%s", r0_everyday_name(s));
		cr_expect_eq(left(), 0, "%s", r0_everyday_name(s));
	}
}

/* --- as r0sweep's workloads ---------------------------------------- */

#include "r0/mix.h"
#include "r0/preset.h"
#include "r0/sweep.h"
#include "r0/sweepplan.h"

Test(everyday_workloads, the_presets_carry_each_scenarios_own_figures)
{
	const char *names[] = { "everyday", "everyday-xfs" }, *fs[] = { "ext4", "xfs" };

	for (int k = 0; k < 2; k++) {
		const struct r0_preset *p = r0_preset_find(names[k]);

		cr_assert_not_null(p);
		cr_assert_eq(p->n_tests, R0_EVERYDAY_COUNT);
		for (size_t i = 0; i < p->n_tests; i++) {
			enum r0_everyday s;
			char f[16];

			cr_assert_eq(r0_everyday_parse(p->tests[i].label, f, sizeof(f), &s), 0, "%s", p->tests[i].label);
			cr_expect_str_eq(f, fs[k]);
			cr_expect_eq(s, (enum r0_everyday)i);
			cr_expect_eq(p->tests[i].w.access, R0_ACCESS_FS);
			cr_expect_eq(p->tests[i].w.read_pct, r0_everyday_read_pct(s), "%s", p->tests[i].label);
			cr_expect_eq(p->tests[i].w.block_bytes, r0_everyday_piece_bytes(s), "%s", p->tests[i].label);
		}
	}
}

Test(everyday_workloads, labels_that_are_no_scenario_are_refused)
{
	enum r0_everyday s;
	char f[16];

	cr_expect_eq(r0_everyday_parse("ext4copy", f, sizeof(f), &s), -EINVAL);
	cr_expect_eq(r0_everyday_parse("btrfs copy", f, sizeof(f), &s), -EINVAL);
	cr_expect_eq(r0_everyday_parse("ext4 copy now", f, sizeof(f), &s), -EINVAL);
	cr_expect_eq(r0_everyday_parse("ext4 copy", f, 4, &s), -EINVAL);
	cr_expect_eq(r0_everyday_parse("xfs start in copy", f, sizeof(f), &s), 0);
	cr_expect_eq(s, R0_EVERYDAY_APP_START_BUSY);
}

Test(everyday_workloads, the_plan_keeps_the_two_start_scenarios_apart_and_read_only_drops_all)
{
	const struct r0_preset *p[] = { r0_preset_find("everyday") };
	struct r0_sweep_plan plan = { 0 }, ro = { 0 };
	unsigned qd[] = { 1 };

	/* no chunk-straddling block test in a study of scenarios alone */
	cr_assert_eq(r0_sweep_plan_workloads(&plan, p, 1, qd, 1, true, false), 0);
	cr_expect_eq(plan.n_wl, R0_EVERYDAY_COUNT, "app start and start in copy have the same pattern, not the same label");
	cr_expect_geq(r0_sweep_plan_find(&plan, "ext4 start in copy"), 0);
	cr_expect_lt(r0_sweep_plan_find(&plan, "512K straddle read"), 0);
	cr_assert_eq(r0_sweep_plan_workloads(&ro, p, 1, qd, 1, true, true), 0);
	cr_expect_eq(ro.n_wl, 0, "an app start only reads, but its file system is written");
}

Test(everyday_workloads, a_cell_goes_through_the_result_file_and_has_its_class)
{
	struct r0_run r = { .layer = R0_LAYER_MD, .chunk_bytes = 65536, .n_members = 2, .access = R0_ACCESS_FS,
				  .read_pct = 100, .block_bytes = 32768, .queue_depth = 1, .jobs = 1, .repeat = 1,
				  .runtime_s = 1.5, .bytes_per_s = 2e6, .ios = 90 }, back;
	char *line, name[64], cls[64];

	snprintf(r.label, sizeof(r.label), "ext4 app start");
	line = r0_sweep_rec_to_json(&r);
	cr_assert_not_null(line);
	cr_expect_not_null(strstr(line, "\"rw\":\"fs\""));
	cr_assert_eq(r0_sweep_rec_parse(line, &back), 0, "%s", line);
	cr_expect_eq(back.access, R0_ACCESS_FS);
	r0_run_workload(&back, name, sizeof(name));
	cr_expect_str_eq(name, "ext4 app start");
	r0_workload_class(&back, cls, sizeof(cls));
	cr_expect_str_eq(cls, "app-start");
	free(line);
}

#include "r0/predictstudy.h"

Test(everyday_workloads, r0predict_leaves_the_scenarios_out)
{
	static struct r0_predict_input in;

	cr_assert_eq(r0_predict_input_use_preset(&in, r0_preset_find("everyday")), 0);
	cr_expect_eq(in.n_wl, 0, "a scenario through a file system is no block pattern to split over members");
	r0_predict_input_free(&in);
}

#include "r0/analysis.h"

Test(everyday_workloads, the_default_mix_follows_what_was_measured)
{
	enum r0_access fs[] = { R0_ACCESS_FS, R0_ACCESS_FS }, rp[] = { R0_ACCESS_REPLAY },
		       both[] = { R0_ACCESS_FS, R0_ACCESS_RAND };

	cr_expect_str_eq(r0_mix_default(fs, 2), "everyday");
	cr_expect_str_eq(r0_mix_default(rp, 1), "replay");
	cr_expect_str_eq(r0_mix_default(both, 2), "desktop");
	cr_expect_str_eq(r0_mix_default(NULL, 0), "desktop");
}

/* Copies of 8 MiB read and written: SECONDS on one drive, a third of them on md 3 x 64K; starts alike. */
static void everyday_set(struct r0_run_set *set)
{
	for (unsigned rep = 1; rep <= 3; rep++)
		for (int t = 0; t < 2; t++)
			for (int k = 0; k < 2; k++) {
				double s = (k ? 0.5 : 2.0) / (t && !k ? 3.0 : 1.0) * (1 + 0.01 * rep);
				struct r0_run r = { .layer = t ? R0_LAYER_MD : R0_LAYER_RAW,
							  .chunk_bytes = t ? 65536 : 0, .n_members = t ? 3 : 1,
							  .access = R0_ACCESS_FS, .read_pct = k ? 100 : 50,
							  .block_bytes = k ? 32768 : 1048576, .queue_depth = 1, .jobs = 1,
							  .repeat = rep, .runtime_s = s, .ios = 16,
							  .bytes_per_s = (k ? 2e6 : 16e6) / s };

				snprintf(r.label, sizeof(r.label), "%s", k ? "ext4 app start" : "ext4 copy");
				cr_assert_eq(r0_run_set_add(set, &r), 0);
			}
}

Test(everyday_workloads, the_verdict_weighs_them_by_the_everyday_mix_only)
{
	struct r0_run_set set = { 0 };
	struct r0_analysis a;
	struct r0_cmp_opts cmp;
	struct r0_mix mix;

	everyday_set(&set);
	r0_cmp_defaults(&cmp);
	cr_assert_eq(r0_mix_parse("everyday", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, &cmp, &a), 0);
	cr_expect_not_null(strstr(a.detail, "worth it for ext4 copy (3.00x"), "%s", a.detail);
	cr_expect_not_null(strstr(a.detail, "not for ext4 app start (1.00x"), "%s", a.detail);
	{
		const struct r0_cell *c = r0_analysis_cell(&a, R0_LAYER_RAW, 0, 1, 0);

		cr_assert_not_null(c);
		cr_expect_float_eq(c->seconds.med, 2.04, 1e-9, "the copy's median seconds on one drive");
	}
	r0_analysis_free(&a);
	cr_assert_eq(r0_mix_parse("desktop", &mix), 0);
	cr_assert_eq(r0_analyse(&set, &mix, &cmp, &a), 0);
	cr_expect_not_null(strstr(a.detail, "no workload of these results is in the desktop mix"), "%s", a.detail);
	r0_analysis_free(&a);
	r0_run_set_free(&set);
}
