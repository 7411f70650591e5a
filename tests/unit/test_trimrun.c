// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/trimrun.h without a device: a run's lines and callback, its words for sizes, chains, effects, the header and the verdict. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/trimrun.h"

/* A run on N bottom devices sda.. under md0 (an md raid0), or on sda alone (N 1, SINGLE). */
static void target(struct r0_trim_run *r, unsigned n, bool single)
{
	r0_trim_run_init(r);
	r->path = single ? "/dev/sda" : "/dev/md0";
	r->kernel = "6.12.0";
	r->t.kind = single ? R0_TRIM_SINGLE : R0_TRIM_MD;
	r->t.n_members = n;
	r->t.geometry_matches = true;
	r->t.size_sectors = 2097152;
	snprintf(r->t.kname, sizeof(r->t.kname), "%s", single ? "sda" : "md0");
	snprintf(r->t.desc, sizeof(r->t.desc), "%s", single ? "disk" : "md raid0, 3 members, chunk 64K");
	for (unsigned i = 0; i < n; i++) {
		struct r0_trim_member *m = &r->t.members[i];

		snprintf(m->kname, R0_KNAME_LEN, "sd%c", 'a' + i);
		snprintf(m->chain_kname[0], R0_KNAME_LEN, "sd%c", 'a' + i);
		m->leaf_lim.granularity_bytes = 4096;
		m->leaf_lim.max_bytes = 1536 * 1024;
		snprintf(m->reads_why, sizeof(m->reads_why), "no promise");
	}
}

static size_t told, told_n;
static char told_check[16];
static enum r0_check_result told_v;

static void on_line(void *ctx, size_t n_lines, const char *check, enum r0_check_result v)
{
	told += ctx == &told;
	told_n = n_lines;
	snprintf(told_check, sizeof(told_check), "%s", check);
	told_v = v;
}

static bool stop_now(void)
{
	return true;
}

Test(trimrun, a_new_run_is_empty_and_closed_twice_safely)
{
	struct r0_trim_run r;

	r0_trim_run_init(&r);
	cr_expect_eq(r.fd, -1);
	for (unsigned i = 0; i < R0_MAX_MEMBERS; i++)
		cr_expect_eq(r.member_fd[i], -1);
	cr_expect_neq(r.seed, 0);
	cr_expect_eq(r.result.n_lines, 0);
	cr_expect_not(r0_trim_run_stopped(&r));
	r.stop = stop_now;
	cr_expect(r0_trim_run_stopped(&r));
	r.cycles = calloc(2, sizeof(*r.cycles));
	r.n_cycles = 2;
	r0_trim_run_close(&r);
	cr_expect_null(r.cycles);
	cr_expect_eq(r.n_cycles, 0);
	r0_trim_run_close(&r);
}

Test(trimrun, lines_are_kept_and_told)
{
	struct r0_trim_run r;

	target(&r, 3, false);
	r0_trim_run_line(&r, "quiet", R0_CHECK_OK, "no writes in %.1f s", 0.2);
	cr_expect_eq(told, 0);   /* no callback: kept only */
	r.on_line = on_line;
	r.ctx = &told;
	r0_trim_run_line(&r, "delivery", R0_CHECK_FAIL, "%s got %u of %u sectors", "sdb", 0u, 8u);
	cr_expect_eq(told, 1);
	cr_expect_eq(told_n, 2);
	cr_expect_str_eq(told_check, "delivery");
	cr_expect_eq(told_v, R0_CHECK_FAIL);
	cr_assert_eq(r.result.n_lines, 2);
	cr_expect_str_eq(r.result.lines[0].detail, "no writes in 0.2 s");
	cr_expect_str_eq(r.result.first_fail, "delivery: sdb got 0 of 8 sectors");
	r0_trim_run_close(&r);
}

Test(trimrun, sizes_exactly_as_they_read_back)
{
	const struct { uint64_t bytes; const char *text; } cases[] = {
		{ 0, "0" }, { 512, "512" }, { 1000, "1000" }, { 1536, "1536" }, { 65536, "64K" },
		{ 1536 * 1024, "1536K" }, { 4ull << 30, "4G" }, { (4ull << 30) + 512, "4294967808" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_expect_str_eq(r0_trim_exact_size(cases[i].bytes, buf, sizeof(buf)), cases[i].text,
				 "%llu bytes", (unsigned long long)cases[i].bytes);
}

Test(trimrun, a_bottom_device_named_down_its_chain)
{
	struct r0_trim_member m = { 0 };
	char buf[64];

	snprintf(m.chain_kname[0], R0_KNAME_LEN, "r0m1");
	r0_trim_chain_name(&m, buf, sizeof(buf));
	cr_expect_str_eq(buf, "r0m1");
	m.depth = 1;
	snprintf(m.chain_kname[0], R0_KNAME_LEN, "dm-3");
	snprintf(m.chain_type[0], sizeof(m.chain_type[0]), "flakey");
	snprintf(m.chain_kname[1], R0_KNAME_LEN, "r0m1");
	r0_trim_chain_name(&m, buf, sizeof(buf));
	cr_expect_str_eq(buf, "dm-3 (flakey) > r0m1");
	r0_trim_chain_name(&m, buf, 8);   /* cut, never past the buffer */
	cr_expect_str_eq(buf, "dm-3 (f");
}

Test(trimrun, the_verdict_line_of_a_pass_a_no_and_a_doubt)
{
	struct r0_trim_run r;
	char line[2048];

	target(&r, 1, true);
	r.result.delivery_pass = 4;
	r.result.delivery_nc = 1;
	r0_trim_run_verdict_line(&r, line, sizeof(line));
	cr_expect_str_eq(line, "verdict    PASS           discards reach /dev/sda (4 conclusive checks, 1 not conclusive)");

	target(&r, 3, false);
	r.result.delivery_pass = 2;
	snprintf(r.result.levels, sizeof(r.result.levels), "sda delivered, sdb delivered, sdc deallocated");
	r0_trim_run_verdict_line(&r, line, sizeof(line));
	cr_expect_str_eq(line, "verdict    PASS           discards pass through /dev/md0 to all 3 bottom devices "
			 "(2 conclusive checks, 0 not conclusive): sda delivered, sdb delivered, sdc deallocated");
	r.t.n_members = 1;
	r0_trim_run_verdict_line(&r, line, sizeof(line));
	cr_expect(strstr(line, "to its 1 bottom device (2 conclusive"), "%s", line);

	r.result.overall = R0_CHECK_FAIL;
	snprintf(r.result.first_fail, sizeof(r.result.first_fail), "delivery: sdb got nothing");
	r.result.levels[0] = '\0';
	r0_trim_run_verdict_line(&r, line, sizeof(line));
	cr_expect_str_eq(line, "verdict    FAIL           no: delivery: sdb got nothing");

	/* not shown is no "no" */
	r.result.overall = R0_CHECK_NOT_CHECKABLE;
	snprintf(r.result.first_fail, sizeof(r.result.first_fail), "no conclusive delivery");
	snprintf(r.result.levels, sizeof(r.result.levels), "sda delivered");
	r0_trim_run_verdict_line(&r, line, sizeof(line));
	cr_expect_str_eq(line, "verdict    NOT CONCLUSIVE no conclusive delivery; shown: sda delivered");
}

Test(trimrun, what_a_read_back_showed_in_words)
{
	struct r0_trim_run r;
	struct r0_trim_effect e = {
		.discarded_ok = 6, .discarded_bad = 2, .intact_ok = 10, .member_discarded_ok = 6,
		.member_discarded_bad = 2, .member_intact_ok = 4, .first_bad_sector = 17, .first_bad_member = 1,
		.first_bad_inside = true, .first_bad_member_direct = -1, .verdict = R0_CHECK_FAIL,
	};
	char buf[1024];

	target(&r, 3, false);
	e.leaf_discarded_bad[1] = 2;
	r0_trim_effect_detail(&e, &r.t, buf, sizeof(buf));
	cr_expect_str_eq(buf, "discarded 6/8 sectors read as promised through the array, 6/8 on the members; "
			 "outside 10/10 intact through the array, 4/4 beside on the members; sdb: the drive "
			 "completed the discard but still returns the old data; first wrong: array sector 17 "
			 "on sdb (inside the range)");
	e = (struct r0_trim_effect){ .unchecked = 8, .first_bad_sector = -1, .first_bad_member = -1,
				     .first_bad_member_direct = -1, .verdict = R0_CHECK_NOT_CHECKABLE };
	r0_trim_effect_detail(&e, &r.t, buf, sizeof(buf));
	cr_expect_str_eq(buf, "discarded 0/0 sectors read as promised through the array, 0/0 on the members; "
			 "outside 0/0 intact through the array, 0/0 beside on the members; 8 unchecked (no "
			 "promise, or part of a granule); no member promises what a discarded block reads");
}

Test(trimrun, the_header)
{
	struct r0_trim_run r;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	target(&r, 2, false);
	r0_trim_run_write_header(&r, f);
	fclose(f);
	cr_expect_str_eq(text, "r0trim: /dev/md0 (md0): md raid0, 3 members, chunk 64K, 1.0 GiB, Linux 6.12.0\n"
			 "  bottom 0: sda: discard granularity 4K, max 1536K; after discard reads unknown (no promise)\n"
			 "  bottom 1: sdb: discard granularity 4K, max 1536K; after discard reads unknown (no promise)\n");
	free(text);
}
