// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --help and the option table's dump, both from a tool's struct r0_cli_opt
 * table: what a tool says it takes is what it parses (argparse's help
 * formatter, util-linux's USAGE_OPTIONS layout).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define USAGE_WIDTH 80     /* the last column a line may use */
#define TEXT_COLUMN_MAX 25 /* where an option's text starts at the latest: a longer head has its own */

/* The rows r0_cli_parse adds to every table (-V unless the tool has no version) */
static const struct r0_cli_opt help_row = { .name = "help", .key = 'h', .help = "this text" };
static const struct r0_cli_opt version_row = { .name = "version", .key = 'V', .help = "version" };

/* "  -o, --columns LIST" or "      --plan": the option's head */
static int head_of(const struct r0_cli_opt *o, char *buf, size_t len)
{
	char letter[8] = "    ";

	if (r0_cli_short_letter(o))
		snprintf(letter, sizeof(letter), "-%c, ", o->key);
	return snprintf(buf, len, "  %s--%s%s%s", letter, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/*
 * TEXT wrapped into lines that end by column USAGE_WIDTH, the first
 * continuing after AT columns already printed, the rest indented to
 * INDENT; "\n" in TEXT starts a new line.
 */
static void wrap(FILE *f, const char *text, int at, int indent)
{
	int col = at;
	bool first = true;

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, " \n");

		if (n) {
			if (!first && col + 1 + (int)n > USAGE_WIDTH) {
				fprintf(f, "\n%*s", indent, "");
				col = indent;
			} else if (!first) {
				fputc(' ', f);
				col++;
			}
			fwrite(p, 1, n, f);
			col += (int)n;
			first = false;
			p += n;
		}
		if (*p == '\n') {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			first = true;
		}
		if (*p)
			p++;
	}
	fputc('\n', f);
}

/*
 * What --help says of O: its help and "(default DEF)"; of an old name,
 * "old name of --NEW, kept until X.Y" after its help (a subcommand's
 * "record-cycle:")
 */
static void text_of(const struct r0_cli_opt *o, char *text, size_t len)
{
	const char *help = o->help ? o->help : "";

	if (o->renamed_to)
		snprintf(text, len, "%s%sold name of --%s, kept until " R0_CLI_OLD_NAMES_UNTIL, help, *help ? " " : "",
			 o->renamed_to);
	else if (o->def)
		snprintf(text, len, "%s (default %s)", help, o->def);
	else
		snprintf(text, len, "%s", help);
}

/* One option's lines: its head, then its text at COLUMN (after two spaces past a longer head). */
static void print_option(FILE *f, int column, const struct r0_cli_opt *o)
{
	char head[128], text[1024];
	int n = head_of(o, head, sizeof(head));

	text_of(o, text, sizeof(text));
	fputs(head, f);
	if (n + 2 > column) {
		/* a long head: two spaces, then the text (as the hand-written texts did) */
		fputs("  ", f);
		wrap(f, text, n + 2, column);
	} else {
		fprintf(f, "%*s", column - n, "");
		wrap(f, text, column, column);
	}
	if (o->after)
		o->after(f);
}

void r0_cli_usage(const struct r0_cli *tool, const struct r0_cli_opt *opts, FILE *f)
{
	const struct r0_cli_opt *list = tool->usage_opts ? tool->usage_opts : opts;
	char head[128];
	int column = 2 + 4 + 9 + 2; /* "  -h, --version  " */

	fputs(tool->head ? tool->head : "", f);
	/* the text's column: after the longest head, at most TEXT_COLUMN_MAX */
	for (const struct r0_cli_opt *o = list; o->name; o++) {
		int n = head_of(o, head, sizeof(head)) + 2;

		if (n > column)
			column = n > TEXT_COLUMN_MAX ? TEXT_COLUMN_MAX : n;
	}
	/* a table in groups opens with its first group's heading instead */
	if (!list->name || !list->section)
		fputs("\nOptions:\n", f);
	for (const struct r0_cli_opt *o = list; o->name; o++) {
		if (o->section)
			fprintf(f, "\n%s\n", o->section);
		print_option(f, column, o);
	}
	print_option(f, column, &help_row);
	if (!tool->no_version)
		print_option(f, column, &version_row);
	if (tool->tail)
		fprintf(f, "\n%s", tool->tail);
}

/* S with tabs and line breaks as spaces: one field of a tab-separated line */
static void field(FILE *f, const char *s, char end)
{
	for (; s && *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
	fputc(end, f);
}

static void table_line(FILE *f, const struct r0_cli_opt *o)
{
	char letter[2] = { (char)r0_cli_short_letter(o), '\0' };
	char text[1024];

	text_of(o, text, sizeof(text));
	field(f, o->name, '\t');
	field(f, letter, '\t');
	field(f, o->arg, '\t');
	field(f, o->def, '\t');
	field(f, o->needs, '\t');
	field(f, o->excludes, '\t');
	field(f, o->renamed_to, '\t');
	field(f, o->help, '\t');
	field(f, text, '\n');
}

void r0_cli_print_table(const struct r0_cli *tool, const struct r0_cli_opt *opts, FILE *f)
{
	const struct r0_cli_opt *list = tool->usage_opts ? tool->usage_opts : opts;

	for (const struct r0_cli_opt *o = list; o->name; o++)
		table_line(f, o);
	table_line(f, &help_row);
	if (!tool->no_version)
		table_line(f, &version_row);
}
