// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of lib/results/filehead.c: what a file looks like from its type and first bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/filehead.h"

static void put(char *path, const char *text, size_t n)
{
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, n), (ssize_t)n);
	close(fd);
}

Test(filehead, kinds_and_schemas)
{
	static const char bench[] = "{\n  \"r0kit_schema\":\"r0bench/1\",\n  \"tool\":\"r0bench\",\n";
	static const char zeros[512] = { 0 };
	static const struct {
		const char *text;
		size_t n;
		enum r0_head_kind kind;
		const char *schema;
		bool line_object;
		const char *words;
	} t[] = {
		{ "", 0, R0_HEAD_EMPTY, "", false, "empty" },
		{ "{\"schema\":\"r0sweep/1\",\"type\":\"cell\"}\n{\"schema\"", 44, R0_HEAD_JSON, "r0sweep/1", true,
		  "r0sweep results (r0sweep/1)" },
		{ "{\"schema\":\"r0trim-watch/1\",\"time\":1}\n", 37, R0_HEAD_JSON, "r0trim-watch/1", true,
		  "an r0trim --watch record file (r0trim-watch/1)" },
		/* a pretty document: its first key read, its first line no record */
		{ bench, sizeof(bench) - 1, R0_HEAD_JSON, "r0bench/1", false, "r0bench --json output (r0bench/1)" },
		{ "{\"time\":1,\"schema\":\"r0trim-watch/1\"}\n", 37, R0_HEAD_JSON, "", true, "JSON without an r0kit schema" },
		{ "[1,2]\n", 6, R0_HEAD_JSON, "", false, "JSON without an r0kit schema" },
		{ "{\"schema\":\"x/2\"}\n", 17, R0_HEAD_JSON, "x/2", true, "JSON of schema x/2" },
		{ "# a script\n", 11, R0_HEAD_TEXT, "", false, "text, not JSON" },
		{ zeros, sizeof(zeros), R0_HEAD_BINARY, "", false, "binary data (a disk image?)" },
		{ "r0trace/1\n\x01\x02", 12, R0_HEAD_BINARY, "r0trace/1", false,
		  "an r0profile --trace recording (r0trace/1)" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char path[] = "/tmp/r0-test-head-XXXXXX", words[128];
		struct r0_file_head h;

		put(path, t[i].text, t[i].n);
		cr_assert_eq(r0_file_head(path, &h), 0, "case %zu", i);
		cr_expect_eq(h.kind, t[i].kind, "case %zu: kind %d", i, h.kind);
		cr_expect_str_eq(h.schema, t[i].schema, "case %zu", i);
		cr_expect_eq(h.line_object, t[i].line_object, "case %zu", i);
		cr_expect_eq(h.size_bytes, t[i].n, "case %zu", i);
		r0_file_head_describe(&h, words, sizeof(words));
		cr_expect_str_eq(words, t[i].words, "case %zu", i);
		unlink(path);
	}
}

Test(filehead, what_is_no_regular_file)
{
	struct r0_file_head h;
	char words[128];

	cr_assert_eq(r0_file_head("/nonexistent/r0", &h), 0);
	cr_expect_eq(h.kind, R0_HEAD_MISSING);
	cr_assert_eq(r0_file_head("/tmp", &h), 0);
	cr_expect_eq(h.kind, R0_HEAD_DIR);
	cr_assert_eq(r0_file_head("/dev/null", &h), 0);
	cr_expect_eq(h.kind, R0_HEAD_DEVICE);
	r0_file_head_describe(&h, words, sizeof(words));
	cr_expect_str_eq(words, "a character device");
}
