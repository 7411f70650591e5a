// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0/jsontext.h: the text a tool prints (what r0_cli_print_json printed before it)
 * before the writers moved to lib (pretty, slashes unescaped, a newline),
 * and a file is written whole as json_object_to_file_ext wrote it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <json-c/json.h>

#include "r0/jsonfields.h"
#include "r0/jsontext.h"

static json_object *sample(void)
{
	json_object *o = r0_json_doc_new("r0test/1");

	cr_assert_not_null(o);
	r0_json_set_str(o, "path", "/dev/md_r0-a");
	r0_json_set_int(o, "n", 3);
	return o;
}

Test(jsontext, a_document_starts_with_its_schema_key)
{
	json_object *o = sample();

	json_object_object_foreach(o, k, v) {
		cr_expect_str_eq(k, "r0kit_schema");
		cr_expect_str_eq(json_object_get_string(v), "r0test/1");
		break;
	}
	json_object_put(o);
}

Test(jsontext, printed_pretty_slashes_unescaped_with_a_newline)
{
	json_object *o = sample();
	char *text = NULL;
	const char *want = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);

	cr_assert_eq(r0_json_text(o, &text), 0);
	cr_expect_eq(strncmp(text, want, strlen(want)), 0);
	cr_expect_str_eq(text + strlen(want), "\n");
	cr_expect_not_null(strstr(text, "\"/dev/md_r0-a\""), "slashes unescaped");
	free(text);
	json_object_put(o);
}

Test(jsontext, a_file_written_whole_as_printed_without_the_newline)
{
	char dir[] = "/tmp/r0-jsontext-XXXXXX", path[64], bad[80], *text = NULL, buf[512];
	json_object *o = sample();
	FILE *f;
	size_t n;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/mix.json", dir);
	snprintf(bad, sizeof(bad), "%s/missing/mix.json", dir);
	cr_assert_eq(r0_json_file_replace(path, o), 0);
	cr_assert_eq(r0_json_text(o, &text), 0);
	cr_assert_not_null(f = fopen(path, "r"));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	text[strlen(text) - 1] = '\0';
	cr_expect_str_eq(buf, text);
	cr_expect_eq(r0_json_file_replace(bad, o), -ENOENT);
	free(text);
	json_object_put(o);
	cr_expect_eq(unlink(path), 0);
	cr_expect_eq(rmdir(dir), 0, "no temporary file left beside it");
}

/* a pipe or a directory named as the file: never replaced (as root a device would be), the rest written */
Test(jsontext, a_file_replaced_is_a_regular_file)
{
	char dir[] = "/tmp/r0-unit-jsontext-XXXXXX", path[256];
	json_object *o = json_object_new_object();
	struct stat st;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	cr_assert_eq(mkfifo(path, 0600), 0);
	cr_expect_eq(r0_json_file_replace(path, o), -EINVAL);
	cr_expect(!stat(path, &st) && S_ISFIFO(st.st_mode), "the pipe is still a pipe");
	unlink(path);
	cr_expect_eq(r0_json_file_replace(dir, o), -EISDIR);
	snprintf(path, sizeof(path), "%s/doc.json", dir);
	cr_expect_eq(r0_json_file_replace(path, o), 0);
	cr_expect(!stat(path, &st) && S_ISREG(st.st_mode));
	unlink(path);
	rmdir(dir);
	json_object_put(o);
}
