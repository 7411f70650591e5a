// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of tools/common/cli.h's option table as data: --help written
 * from it (r0_cli_usage), the table's dump, and what it says an option
 * needs or excludes, held by r0_cli_parse.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "cli.h"

enum { OPT_PLAN = 1000, OPT_OUT, OPT_LONGNAME, OPT_RAW, OPT_PAIRS, OPT_OLD };

static bool plan, raw, pairs;
static unsigned count;
static const char *out, *old;

static const struct r0_cli_opt opts[] = {
	{ "count", 'c', R0_CLI_UINT, R0_CLI_TO(count), .max = 9, .why = "0 to 9", .arg = "N",
	  .help = "how many", .def = "3" },
	{ "plan", OPT_PLAN, R0_CLI_SET, R0_CLI_TO(plan), .help = "show what would be done and stop",
	  .section = "Safety:" },
	{ "output", OPT_OUT, R0_CLI_STRING, R0_CLI_TO(out), .arg = "FILE", .needs = "plan,count",
	  .help = "where the words go: a file named here, made new, never appended to, and synced at the end "
		  "so that a crash leaves either the whole of it or none" },
	{ "a-very-long-option-name", OPT_LONGNAME, R0_CLI_SET, R0_CLI_TO(plan), .help = "its text after two spaces" },
	{ "raw", OPT_RAW, R0_CLI_SET, R0_CLI_TO(raw), .help = "unaligned", .excludes = "pairs",
	  .excludes_why = "one table form" },
	{ "pairs", OPT_PAIRS, R0_CLI_SET, R0_CLI_TO(pairs), .help = "as pairs" },
	{ "out", OPT_OLD, R0_CLI_STRING, R0_CLI_TO(old), .renamed_to = "output", .arg = "FILE" },
	{ 0 },
};

static const struct r0_cli tool = { .prog = "r0x", .head = "Usage:\n  r0x [options]\n", .tail = "Exit status: 0.\n" };

/* What FN writes to a FILE, as a string (free it). */
static char *written(void (*fn)(const struct r0_cli *, const struct r0_cli_opt *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	fn(&tool, opts, f);
	fclose(f);
	return buf;
}

Test(cli, help_is_written_from_the_table)
{
	char *help = written(r0_cli_usage);

	cr_assert(strncmp(help, "Usage:\n  r0x [options]\n\nOptions:\n  -c, --count N          how many (default 3)\n",
			  strlen("Usage:\n  r0x [options]\n\nOptions:\n")) == 0, "%s", help);
	cr_assert(strstr(help, "  -c, --count N          how many (default 3)\n"), "%s", help);
	cr_assert(strstr(help, "\n\nSafety:\n      --plan             show what would be done and stop\n"), "%s", help);
	cr_assert(strstr(help, "      --a-very-long-option-name  its text after two spaces\n"), "%s", help);
	cr_assert(strstr(help, "      --out FILE         old name of --output, kept until " R0_CLI_OLD_NAMES_UNTIL "\n"),
		  "%s", help);
	cr_assert(strstr(help, "  -h, --help             this text\n  -V, --version          version\n"), "%s", help);
	cr_assert(strstr(help, "version\n\nExit status: 0.\n"), "%s", help);
	free(help);
}

Test(cli, a_long_text_wraps_at_80_columns_under_its_column)
{
	char *help = written(r0_cli_usage), *next;

	for (char *line = help; *line; line = next + 1) {
		next = strchr(line, '\n');
		cr_assert_not_null(next);
		cr_assert_leq(next - line, 80, "%.*s", (int)(next - line), line);
	}
	cr_assert(strstr(help, "      --output FILE      where the words go: a file named here, made new, never\n"
			       "                         appended to,"), "%s", help);
	free(help);
}

Test(cli, the_table_dump_is_one_line_an_option)
{
	char *t = written(r0_cli_print_table);

	cr_assert(strstr(t, "count\tc\tN\t3\t\t\t\thow many\thow many (default 3)\n"), "%s", t);
	cr_assert(strstr(t, "output\t\tFILE\t\tplan,count\t\t\twhere the words go:"), "%s", t);
	cr_assert(strstr(t, "raw\t\t\t\t\tpairs\t\tunaligned\tunaligned\n"), "%s", t);
	cr_assert(strstr(t, "out\t\tFILE\t\t\t\toutput\t\told name of --output, kept until"), "%s", t);
	cr_assert(strstr(t, "help\th\t\t\t\t\t\tthis text\tthis text\n"), "%s", t);
	free(t);
}

/* r0_cli_parse on ARGS in a child: its exit status (0 when it returned) and stderr into ERR. */
static int parse_in_child(const char *const *args, char *err, size_t len)
{
	int fd[2], status;
	pid_t pid;
	ssize_t n;

	cr_assert_eq(pipe(fd), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		char *argv[16];
		int argc = 0;

		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		for (argv[argc++] = "r0x"; *args; args++)
			argv[argc++] = (char *)*args;
		argv[argc] = NULL;
		r0_cli_parse(&tool, opts, argc, argv);
		_exit(0);
	}
	close(fd[1]);
	for (size_t k = 0;; k += (size_t)n) {
		n = read(fd[0], err + k, len - 1 - k);
		if (n <= 0) {
			err[k] = '\0';
			break;
		}
	}
	close(fd[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(cli, what_an_option_excludes_is_refused_with_the_reason)
{
	char err[512];

	cr_assert_eq(parse_in_child((const char *const[]){ "--raw", "--pairs", NULL }, err, sizeof(err)), 2, "%s", err);
	cr_assert(strstr(err, "r0x: --raw and --pairs cannot be used together: one table form\n"), "%s", err);
	cr_assert_eq(parse_in_child((const char *const[]){ "--pairs", NULL }, err, sizeof(err)), 0, "%s", err);
}

Test(cli, what_an_option_needs_is_refused_without_it)
{
	char err[512];

	cr_assert_eq(parse_in_child((const char *const[]){ "--output", "f", NULL }, err, sizeof(err)), 2);
	cr_assert(strstr(err, "r0x: --output needs --plan or --count\n"), "%s", err);
	/* one of them is enough, and the old name counts as the new one */
	cr_assert_eq(parse_in_child((const char *const[]){ "--output", "f", "-c", "2", NULL }, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(parse_in_child((const char *const[]){ "--out", "f", NULL }, err, sizeof(err)), 2);
	cr_assert(strstr(err, "--output needs --plan or --count"), "%s", err);
}

Test(cli, an_exclusion_is_said_before_a_need)
{
	char err[512];

	cr_assert_eq(parse_in_child((const char *const[]){ "--output", "f", "--raw", "--pairs", NULL }, err,
				    sizeof(err)), 2);
	cr_assert(strstr(err, "cannot be used together") && !strstr(err, "needs"), "%s", err);
}

/* a tool of subcommands: its --help table must list what each subcommand parses, alike */
static int parse_listed_in_child(const struct r0_cli_opt *listed)
{
	const struct r0_cli t = { .prog = "r0x", .usage_opts = listed };
	char *argv[] = { "r0x", NULL };
	int status;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		freopen("/dev/null", "w", stderr);
		r0_cli_parse(&t, opts, 1, argv);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(cli, an_option_parsed_but_not_in_help_is_the_tools_bug)
{
	struct r0_cli_opt listed[16];
	size_t n = 0;

	for (const struct r0_cli_opt *o = opts; o->name; o++)
		listed[n++] = *o;
	listed[n] = (struct r0_cli_opt){ 0 };
	cr_assert_eq(parse_listed_in_child(listed), 0, "the same table lists every option alike");
	listed[0].key = 'k';
	cr_assert_eq(parse_listed_in_child(listed), 70, "another short letter");
	listed[0].key = 'c';
	listed[2].arg = NULL;
	cr_assert_eq(parse_listed_in_child(listed), 70, "a value --help does not name");
	listed[2].arg = "FILE";
	listed[n - 1] = (struct r0_cli_opt){ 0 };
	cr_assert_eq(parse_listed_in_child(listed), 70, "an option left out of --help");
}
