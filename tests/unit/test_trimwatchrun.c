// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/trimwatchrun.h without a device: --watch's files refused, its verdicts in words and its text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/trimwatchrun.h"

#define GiB (1ull << 21)   /* in sectors */

static void utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

/* A reading of two devices judged by r0_watch_judge over a history of (time, sectors a, sectors b). */
static void reading(struct r0_trim_watch_reading *w, const int64_t (*h)[3], size_t n)
{
	struct r0_watch_rec recs[8];
	const double half[2] = { 0.5, 0.5 };

	memset(w, 0, sizeof(*w));
	for (size_t k = 0; k < n; k++) {
		memset(&recs[k], 0, sizeof(recs[k]));
		recs[k].time = h[k][0];
		snprintf(recs[k].boot_id, sizeof(recs[k].boot_id), "b1");
		recs[k].n = 2;
		for (unsigned i = 0; i < 2; i++) {
			snprintf(recs[k].name[i], sizeof(recs[k].name[i]), "nvme%un1", i);
			recs[k].sectors[i] = (uint64_t)h[k][1 + i];
		}
		snprintf(recs[k].serial[0], sizeof(recs[k].serial[0]), "S0");
	}
	cr_assert_eq(r0_watch_judge(recs, n, half, &w->j), 0);
	w->now = recs[n - 1];
	w->pred[0] = w->pred[1] = 0.5;
	w->known = true;
	w->since_time = recs[w->j.first].time;
	r0_trim_watch_time(w->since_time, w->since, sizeof(w->since));
}

Test(trimwatchrun, times_in_local_time)
{
	char buf[32];

	utc();
	r0_trim_watch_time(0, buf, sizeof(buf));
	cr_expect_str_eq(buf, "1970-01-01 00:00");
	r0_trim_watch_time(1796571054, buf, sizeof(buf));
	cr_expect_str_eq(buf, "2026-12-06 15:30");
}

Test(trimwatchrun, verdicts_in_words)
{
	static const int64_t first[][3] = { { 0, 10, 10 } };
	static const int64_t idle[][3] = { { 0, 10, 10 }, { 3600, 10, 10 } };
	static const int64_t little[][3] = { { 0, 10, 10 }, { 3600, 20, 20 } };
	static const int64_t pass[][3] = { { 0, 0, 0 }, { 3600, GiB, GiB } };
	static const int64_t drift[][3] = { { 0, 0, 0 }, { 3600, GiB, GiB / 4 } };
	static const int64_t stopped[][3] = { { 0, 0, 0 }, { 3600, GiB, GiB }, { 7200, 2 * GiB, GiB } };
	struct r0_trim_watch_reading w;
	char buf[256];

	utc();
	reading(&w, first, 1);
	r0_trim_watch_detail(&w, 0, buf, sizeof(buf));
	cr_expect_str_eq(buf, "the first reading of these devices; run again after the next fstrim (fstrim.timer: "
			 "weekly) or a day of use");
	reading(&w, idle, 2);
	r0_trim_watch_detail(&w, 0, buf, sizeof(buf));
	cr_expect_str_eq(buf, "no discard reached any bottom device since 1970-01-01 00:00 (no fstrim and no online "
			 "discard since then)");
	reading(&w, little, 2);
	r0_trim_watch_detail(&w, 0, buf, sizeof(buf));
	cr_expect_str_eq(buf, "every bottom device received discards since 1970-01-01 00:00 (10K in all: too little "
			 "to judge their shares)");
	reading(&w, pass, 2);
	r0_trim_watch_detail(&w, 0, buf, sizeof(buf));
	cr_expect_str_eq(buf, "every bottom device received discards since 1970-01-01 00:00, each within 25 % of its "
			 "share");
	reading(&w, drift, 2);
	cr_assert_eq(w.j.verdict, R0_WATCH_DRIFT);
	r0_trim_watch_detail(&w, 0, buf, sizeof(buf));
	cr_expect(strstr(buf, "but a share is more than 25 % off the geometry's"), "%s", buf);
	reading(&w, stopped, 3);
	cr_assert_eq(w.j.verdict, R0_WATCH_STOPPED);
	r0_trim_watch_detail(&w, 1, buf, sizeof(buf));
	cr_expect_str_eq(buf, "nvme1n1 stopped receiving discards after 1970-01-01 01:00 while the others got 1G");
}

Test(trimwatchrun, the_text_report)
{
	static const int64_t stopped[][3] = { { 0, 0, 0 }, { 3600, GiB, GiB }, { 7200, 2 * GiB, GiB } };
	struct r0_trim_device t = { .n_members = 2 };
	struct r0_trim_watch_reading w;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	utc();
	snprintf(t.kname, sizeof(t.kname), "md0");
	snprintf(t.desc, sizeof(t.desc), "md raid0, 2 members, chunk 64K");
	reading(&w, stopped, 3);
	w.skipped = 1;
	r0_trim_watch_write_text(&t, "/mnt/data", "/var/lib/r0trim/md0.log", &w, f);
	fclose(f);
	cr_expect_str_eq(text,
		"r0trim: watch of /mnt/data (md0, md raid0, 2 members, chunk 64K): record 3 in /var/lib/r0trim/md0.log "
		"(lines that are no record skipped)\n"
		"  since 1970-01-01 00:00: 2 intervals\n"
		"  nvme0n1 (serial S0): 2G discarded, 66.7 % of all (the geometry: 50.0 %)\n"
		"  nvme1n1: 1G discarded, 33.3 % of all (the geometry: 50.0 %): none since 1970-01-01 01:00 while the "
		"others got 1G\n"
		"verdict FAIL: nvme1n1 stopped receiving discards after 1970-01-01 01:00 while the others got 1G\n");
	free(text);
}

Test(trimwatchrun, files_and_devices_refused_before_a_reading)
{
	char dir[] = "/tmp/r0-unit-watch.XXXXXX", log[64], missing[64], path[256], why[1024];
	struct r0_trim_device t;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(log, sizeof(log), "%s/notes.txt", dir);
	f = fopen(log, "w");
	cr_assert_not_null(f);
	fputs("shopping: milk, eggs\n", f);
	fclose(f);
	cr_expect_eq(r0_trim_watch_open(log, dir, &t, path, sizeof(path), why, sizeof(why)), -EINVAL);
	cr_expect(strncmp(why, log, strlen(log)) == 0 && strstr(why, ": not a record file of r0trim --watch"), "%s", why);
	unlink(log);
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	cr_expect_eq(r0_trim_watch_open(log, missing, &t, path, sizeof(path), why, sizeof(why)), -ENOENT);
	cr_expect(strstr(why, "/missing: No such file or directory"), "%s", why);
	cr_expect_eq(r0_trim_watch_open(log, "/dev/null", &t, path, sizeof(path), why, sizeof(why)), -EINVAL);
	cr_expect_str_eq(why, "/dev/null: neither a block device nor a directory of a mounted file system");
	rmdir(dir);
}
