// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/ftlstats.h: r0ssd's --stats lines, key for key, to a stream and to a file replaced whole. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/ftlstats.h"

/* A 1 MiB model (256 pages, 16 a block) written twice over its first 64 pages. */
static void counters(struct r0_ftl_stats_file *c)
{
	struct r0_ftl_config fc;
	struct r0_ftl *f;

	r0_ftl_config_default(&fc, 256);
	fc.pages_per_block = 16;
	fc.keep_data = false;
	f = r0_ftl_new(&fc);
	cr_assert_not_null(f);
	cr_assert_eq(r0_ftl_write(f, 0, 64, NULL, 0, NULL), 0);
	cr_assert_eq(r0_ftl_write(f, 0, 64, NULL, 0, NULL), 0);
	cr_assert_eq(r0_ftl_read(f, 0, 8, NULL, 0, NULL), 0);
	cr_assert_eq(r0_ftl_trim(f, 60, 4, 0, NULL), 0);
	*c = (struct r0_ftl_stats_file){
		.pid = 4242, .device = "/dev/ublkb7", .state = "running", .seq = 3,
		.spare_pct = 7, .spare_effective_pct = 100 * r0_ftl_spare_effective(&fc, false),
		.spare_reserve_pct = 100 * r0_ftl_spare_effective(&fc, true),
		.requests = 4, .failed_requests = 0, .server_errors = 1,
	};
	r0_ftl_get_stats(f, &c->stats);
	c->stats.gc_stall_ns = 1234567;   /* no time model ran: a figure to see its three decimals */
	r0_ftl_free(f);
}

static char *lines_of(const struct r0_ftl_stats_file *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	cr_expect_eq(r0_ftl_stats_file_write(f, c), 0);
	fclose(f);
	return buf;
}

Test(ftlstats, the_lines_key_for_key)
{
	struct r0_ftl_stats_file c;
	char *s, want[2048];

	counters(&c);
	snprintf(want, sizeof(want),
		 "pid=4242\ndevice=/dev/ublkb7\nstate=running\nseq=3\n"
		 "page_bytes=4096\nlogical_pages=256\npages_per_block=16\nphysical_blocks=%llu\n"
		 "spare_percent=7.00\nspare_effective_percent=%.2f\nspare_with_reserve_percent=%.2f\n"
		 "requests=4\nfailed_requests=0\n"
		 "host_write_pages=128\nhost_read_pages=8\nhost_trim_pages=4\nflash_program_pages=%llu\n"
		 "gc_copy_pages=%llu\nerases=%llu\ngc_runs=%llu\ngc_stall_ms=1.235\nfree_blocks=%llu\n"
		 "mapped_pages=60\nwaf=%.4f\nserver_errors=1\n",
		 (unsigned long long)c.stats.physical_blocks, c.spare_effective_pct, c.spare_reserve_pct,
		 (unsigned long long)c.stats.flash_program_pages, (unsigned long long)c.stats.gc_copy_pages,
		 (unsigned long long)c.stats.erases, (unsigned long long)c.stats.gc_runs,
		 (unsigned long long)c.stats.free_blocks, (double)c.stats.flash_program_pages / 128);
	s = lines_of(&c);
	cr_expect_str_eq(s, want);
	free(s);
}

/* What the readers (tests/sandbox/050-r0ssd.sh, recipes/scenarios) take: KEY=value, each key once, seq= among them. */
Test(ftlstats, every_line_a_key_once)
{
	static const char *const keys[] = {
		"pid", "device", "state", "seq", "page_bytes", "logical_pages", "pages_per_block",
		"physical_blocks", "spare_percent", "spare_effective_percent", "spare_with_reserve_percent",
		"requests", "failed_requests", "host_write_pages", "host_read_pages", "host_trim_pages",
		"flash_program_pages", "gc_copy_pages", "erases", "gc_runs", "gc_stall_ms", "free_blocks",
		"mapped_pages", "waf", "server_errors",
	};
	struct r0_ftl_stats_file c;
	char *s, *line, *save;
	size_t k = 0;

	counters(&c);
	c.stats.host_write_pages = 0;   /* no host write: a WAF of 0, not a division by zero */
	s = lines_of(&c);
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save), k++) {
		char *eq = strchr(line, '=');

		cr_assert(k < sizeof(keys) / sizeof(keys[0]), "a line too many: %s", line);
		cr_assert_not_null(eq, "no '=' in %s", line);
		cr_expect_eq((size_t)(eq - line), strlen(keys[k]), "line %zu: %s", k, line);
		cr_expect_eq(strncmp(line, keys[k], strlen(keys[k])), 0, "line %zu: %s", k, line);
		if (!strcmp(keys[k], "waf"))
			cr_expect_str_eq(eq + 1, "0.0000");
	}
	cr_expect_eq(k, sizeof(keys) / sizeof(keys[0]));
	free(s);
}

Test(ftlstats, the_file_replaced_whole)
{
	char dir[] = "/tmp/r0-unit-ftlstats-XXXXXX", path[PATH_MAX], tmp[PATH_MAX + 8], buf[4096], *want;
	struct r0_ftl_stats_file c;
	FILE *f;
	size_t n;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/stats", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	counters(&c);
	cr_expect_eq(r0_ftl_stats_file_save(path, &c), 0);
	c.seq = 4;
	c.state = "stopped";
	cr_expect_eq(r0_ftl_stats_file_save(path, &c), 0);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	want = lines_of(&c);
	cr_expect_str_eq(buf, want);
	free(want);
	cr_expect(access(tmp, F_OK) && errno == ENOENT, "%s left behind", tmp);

	/* a pipe or a directory named: never replaced (as root a device would be) */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	cr_assert_eq(mkfifo(path, 0600), 0);
	cr_expect_eq(r0_ftl_stats_file_save(path, &c), -EINVAL);
	{
		struct stat st;

		cr_expect(!stat(path, &st) && S_ISFIFO(st.st_mode), "the pipe is still a pipe");
	}
	unlink(path);
	cr_expect_eq(r0_ftl_stats_file_save(dir, &c), -EISDIR);
	/* a directory that is not there: the error, nothing made */
	snprintf(path, sizeof(path), "%s/none/stats", dir);
	cr_expect_eq(r0_ftl_stats_file_save(path, &c), -ENOENT);
	/* a name PATH.tmp does not fit */
	{
		static char longname[PATH_MAX];

		memset(longname, 'a', sizeof(longname) - 1);
		cr_expect_eq(r0_ftl_stats_file_save(longname, &c), -ENAMETOOLONG);
	}
	snprintf(path, sizeof(path), "%s/stats", dir);
	unlink(path);
	cr_expect_eq(rmdir(dir), 0);
}

Test(ftlstats, a_stream_that_fails_is_an_error)
{
	struct r0_ftl_stats_file c;
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		cr_skip_test("no /dev/full");
	setvbuf(f, NULL, _IONBF, 0);
	counters(&c);
	cr_expect_eq(r0_ftl_stats_file_write(f, &c), -EIO);
	fclose(f);
}
