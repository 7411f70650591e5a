// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of lib/results/watchfile.c: the r0trim-watch/1 record file written, read back and refused. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/watchfile.h"

/* A fresh path in /tmp: no file there yet. */
static void fresh(char *path)
{
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	unlink(path);
}

/* TEXT into a new file at PATH, a mkstemp template (used again: its XXXXXX made again). */
static void put(char *path, const char *text)
{
	FILE *f;
	int fd;

	memcpy(path + strlen(path) - 6, "XXXXXX", 6);
	fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert(f = fdopen(fd, "w"));
	cr_assert_geq(fputs(text, f), 0);
	cr_assert_eq(fclose(f), 0);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = calloc(1, 4096);
	size_t n;

	cr_assert(f && buf);
	n = fread(buf, 1, 4095, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void reading(struct r0_watch_rec *r, int64_t t, const char *boot, uint64_t a, uint64_t b)
{
	memset(r, 0, sizeof(*r));
	r->time = t;
	snprintf(r->boot_id, sizeof(r->boot_id), "%s", boot);
	r->n = 2;
	snprintf(r->name[0], sizeof(r->name[0]), "nvme0n1");
	snprintf(r->name[1], sizeof(r->name[1]), "sdb");
	snprintf(r->serial[0], sizeof(r->serial[0]), "S4EWNX0R/123");
	r->sectors[0] = a;
	r->sectors[1] = b;
}

/* The lines as r0trim --watch has always written them: key for key, slashes not escaped. */
Test(watchfile, written_as_before_and_read_back)
{
	static const char want[] =
		"{\"r0kit_schema\":\"r0trim-watch/1\",\"time\":1738303200,\"boot_id\":\"b39a640f\",\"top\":\"md127\","
		"\"devices\":[{\"name\":\"nvme0n1\",\"serial\":\"S4EWNX0R/123\",\"discard_sectors\":4096},"
		"{\"name\":\"sdb\",\"serial\":\"\",\"discard_sectors\":0}]}\n"
		"{\"r0kit_schema\":\"r0trim-watch/1\",\"time\":1738389600,\"boot_id\":\"c0ffee\",\"top\":\"md127\","
		"\"devices\":[{\"name\":\"nvme0n1\",\"serial\":\"S4EWNX0R/123\",\"discard_sectors\":9007199254740993},"
		"{\"name\":\"sdb\",\"serial\":\"\",\"discard_sectors\":2048}]}\n";
	char path[] = "/tmp/r0-test-watch-XXXXXX", words[128];
	struct r0_watch_rec w[2], *got;
	size_t n;
	unsigned skipped;
	char *text;

	fresh(path);
	cr_expect_eq(r0_watch_file_check(path, words, sizeof(words)), 0);
	cr_assert_eq(r0_watch_file_load(path, &got, &n, &skipped), 0);
	cr_expect_eq(n, 0);
	cr_expect_eq(skipped, 0);
	free(got);
	reading(&w[0], 1738303200, "b39a640f", 4096, 0);
	reading(&w[1], 1738389600, "c0ffee", 9007199254740993ull, 2048);
	cr_assert_eq(r0_watch_file_append(path, &w[0], "md127"), 0);
	cr_assert_eq(r0_watch_file_append(path, &w[1], "md127"), 0);
	text = slurp(path);
	cr_expect_str_eq(text, want);
	free(text);

	cr_expect_eq(r0_watch_file_check(path, words, sizeof(words)), 0);
	cr_assert_eq(r0_watch_file_load(path, &got, &n, &skipped), 0);
	cr_assert_eq(n, 2);
	cr_expect_eq(skipped, 0);
	for (size_t i = 0; i < 2; i++) {
		cr_expect_eq(got[i].time, w[i].time);
		cr_expect_str_eq(got[i].boot_id, w[i].boot_id);
		cr_expect_eq(got[i].n, 2);
		for (unsigned k = 0; k < 2; k++) {
			cr_expect_str_eq(got[i].name[k], w[i].name[k]);
			cr_expect_str_eq(got[i].serial[k], w[i].serial[k]);
			cr_expect_eq(got[i].sectors[k], w[i].sectors[k], "record %zu device %u", i, k);
		}
	}
	free(got);
	unlink(path);
}

/* Older records name their schema "schema" and may lack boot_id and serials. */
Test(watchfile, older_records_read)
{
	char path[] = "/tmp/r0-test-watch-XXXXXX", words[128];
	struct r0_watch_rec *got;
	size_t n;
	unsigned skipped;

	put(path, "{\"schema\":\"r0trim-watch/1\",\"time\":5,\"devices\":[{\"name\":\"sda\",\"discard_sectors\":7}]}\n");
	cr_expect_eq(r0_watch_file_check(path, words, sizeof(words)), 0);
	cr_assert_eq(r0_watch_file_load(path, &got, &n, &skipped), 0);
	cr_assert_eq(n, 1);
	cr_expect_eq(skipped, 0);
	cr_expect_eq(got[0].time, 5);
	cr_expect_str_eq(got[0].boot_id, "");
	cr_expect_eq(got[0].n, 1);
	cr_expect_str_eq(got[0].name[0], "sda");
	cr_expect_str_eq(got[0].serial[0], "");
	cr_expect_eq(got[0].sectors[0], 7);
	free(got);
	unlink(path);
}

/* A damaged record file: what is no reading is skipped and counted, the readings kept. */
Test(watchfile, damaged_lines_skipped)
{
	static const char good[] =
		"{\"r0kit_schema\":\"r0trim-watch/1\",\"time\":1,\"boot_id\":\"a\",\"top\":\"md0\","
		"\"devices\":[{\"name\":\"sda\",\"serial\":\"\",\"discard_sectors\":1}]}\n";
	char path[] = "/tmp/r0-test-watch-XXXXXX", words[128], *text;
	struct r0_watch_rec *got;
	size_t n;
	unsigned skipped;

	text = calloc(1, 4096);
	cr_assert(text);
	snprintf(text, 4096, "%s%s%s%s%s%s%s%s", good,
		 "{\"r0kit_schema\":\"r0trim-watch/1\",\"time\":2,\"devi\n",               /* cut short */
		 "not json at all\n",
		 "{\"r0kit_schema\":\"r0trim-watch/2\",\"time\":3,\"devices\":[{\"discard_sectors\":1}]}\n",
		 "{\"r0kit_schema\":\"r0trim-watch/1\",\"devices\":[{\"discard_sectors\":1}]}\n",   /* no time */
		 "{\"r0kit_schema\":\"r0trim-watch/1\",\"time\":4,\"devices\":[]}\n",
		 "{\"r0kit_schema\":\"r0trim-watch/1\",\"time\":5,\"devices\":[{\"name\":\"sda\"}]}\n",
		 good);
	put(path, text);
	free(text);
	/* its first line a record: it may take more */
	cr_expect_eq(r0_watch_file_check(path, words, sizeof(words)), 0);
	cr_assert_eq(r0_watch_file_load(path, &got, &n, &skipped), 0);
	cr_expect_eq(n, 2);
	cr_expect_eq(skipped, 6);
	free(got);
	unlink(path);

	/* damaged from its first line: refused as damaged before a reading is appended */
	put(path, "{\"r0kit_schema\":\"r0trim-watch/1\",\"time\":2,\"devi\n");
	cr_expect_eq(r0_watch_file_check(path, words, sizeof(words)), -EBADMSG);
	unlink(path);
}

/* Another tool's file, a disk image, a directory: refused with what it is. */
Test(watchfile, other_files_refused)
{
	static const char zeros[512] = { 0 };
	char path[] = "/tmp/r0-test-watch-XXXXXX", words[128];
	int fd;

	put(path, "{\"schema\":\"r0sweep/1\",\"type\":\"cell\"}\n");
	cr_expect_eq(r0_watch_file_check(path, words, sizeof(words)), -EINVAL);
	cr_expect_str_eq(words, "r0sweep results (r0sweep/1)");
	unlink(path);

	put(path, "{\"r0kit_schema\":\"r0trim/1\",\"version\":\"0.1.0\"}\n");
	cr_expect_eq(r0_watch_file_check(path, words, sizeof(words)), -EINVAL);
	cr_expect_str_eq(words, "an r0trim -J document (r0trim/1)");
	unlink(path);

	memcpy(path + strlen(path) - 6, "XXXXXX", 6);
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, zeros, sizeof(zeros)), (ssize_t)sizeof(zeros));
	close(fd);
	cr_expect_eq(r0_watch_file_check(path, words, sizeof(words)), -EINVAL);
	cr_expect_str_eq(words, "binary data (a disk image?)");
	unlink(path);

	/* empty: it may take the first reading */
	put(path, "");
	cr_expect_eq(r0_watch_file_check(path, words, sizeof(words)), 0);
	unlink(path);

	cr_expect_eq(r0_watch_file_check("/tmp", words, sizeof(words)), -EINVAL);
	cr_expect_str_eq(words, "a directory");
}

/* A file of another schema read as records: none of its lines is a reading. */
Test(watchfile, wrong_schema_has_no_readings)
{
	char path[] = "/tmp/r0-test-watch-XXXXXX";
	struct r0_watch_rec *got;
	size_t n;
	unsigned skipped;

	put(path, "{\"schema\":\"r0sweep/1\",\"time\":1,\"devices\":[{\"discard_sectors\":1}]}\n"
		  "{\"r0kit_schema\":\"r0bench/1\",\"time\":1,\"devices\":[{\"discard_sectors\":1}]}\n");
	cr_assert_eq(r0_watch_file_load(path, &got, &n, &skipped), 0);
	cr_expect_eq(n, 0);
	cr_expect_eq(skipped, 2);
	free(got);
	unlink(path);
}

Test(watchfile, errors)
{
	struct r0_watch_rec r, *got;
	size_t n;
	unsigned skipped;

	reading(&r, 1, "a", 1, 2);
	cr_expect_eq(r0_watch_file_append("/nonexistent/r0/watch.rec", &r, "md0"), -ENOENT);
	/* a missing file has no readings yet */
	cr_expect_eq(r0_watch_file_load("/nonexistent/r0/watch.rec", &got, &n, &skipped), 0);
	cr_expect_eq(n, 0);
	cr_expect_null(got);
}
