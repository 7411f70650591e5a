// SPDX-License-Identifier: GPL-2.0-or-later
/* Headings, paragraphs, lists and tables written once, as Markdown or HTML (doc.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "svg.h"

/*
 * S[0..LEN) as Markdown text: the characters HTML gives a meaning are
 * written as entities (a --title "<b>x</b>" is no markup), and in a table
 * CELL '|' as "\|" (a replay workload named by its trace file "a|b" would
 * split its row); code spans (`...`) as they are, but for '|' in a cell.
 */
static void md_esc(FILE *f, const char *s, size_t len, bool cell)
{
	bool code = false;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '`')
			code = !code;
		if (cell && s[i] == '|')
			fputs("\\|", f);
		else if (code || !strchr("<>&", s[i]))
			fputc(s[i], f);
		else
			fputs(s[i] == '<' ? "&lt;" : s[i] == '>' ? "&gt;" : "&amp;", f);
	}
}

/* S escaped for the document's format: HTML, or Markdown text outside a table. */
static void put_text(struct doc *d, const char *s)
{
	if (doc_html(d))
		esc(d->f, s);
	else
		md_esc(d->f, s, strlen(s), false);
}

/* Formatted text, escaped for HTML or Markdown; whole, however long (a paragraph of a large study's detail). */
static void vput(struct doc *d, const char *fmt, va_list ap)
{
	char *buf = NULL;

	if (vasprintf(&buf, fmt, ap) < 0) {
		/* no memory for the text: the file is marked, not silently short */
		fputs("(text left out: no memory)", d->f);
		return;
	}
	put_text(d, buf);
	free(buf);
}

void doc_begin(struct doc *d, const char *title)
{
	FILE *f = d->f;

	if (!doc_html(d)) {
		fputs("# ", f);
		put_text(d, title);
		fputs("\n\n", f);
		return;
	}
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	esc(f, title);
	fprintf(f, "</title>\n<style>\n"
		"body{font-family:sans-serif;margin:24px auto;max-width:1100px;color:#222;background:#fff}\n"
		".verdict{font-size:1.25em;border-left:6px solid #27ae60;background:#f3f8f3;padding:12px 16px}\n"
		".no{border-left-color:#c0392b;background:#fbf1f0}\n"
		"figure{display:inline-block;margin:8px;vertical-align:top}\n"
		"figcaption{font-size:11px;color:#555;max-width:420px}\n"
		"table{border-collapse:collapse;font-size:13px;margin:8px 0}\n"
		"td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}\n"
		"th:first-child,td:first-child{text-align:left}\n"
		"pre{white-space:pre-wrap;font-size:12px;background:#f6f6f6;padding:8px}\n"
		"</style>\n</head>\n<body>\n<h1>");
	esc(f, title);
	fprintf(f, "</h1>\n");
}

void doc_end(struct doc *d)
{
	if (doc_html(d))
		fputs("</body>\n</html>\n", d->f);
}

void doc_verdict(struct doc *d, const char *text, bool good)
{
	if (!doc_html(d)) {
		put_text(d, text);
		fputs("\n\n", d->f);
		return;
	}
	fprintf(d->f, "<p class=\"verdict%s\" id=\"verdict\">", good ? "" : " no");
	esc(d->f, text);
	fprintf(d->f, "</p>\n");
}

void doc_heading(struct doc *d, int level, const char *id, const char *text)
{
	if (!doc_html(d)) {
		fprintf(d->f, "%.*s ", level, "######");
		put_text(d, text);
		fputs("\n\n", d->f);
		return;
	}
	fprintf(d->f, "<h%d", level + d->shift);
	if (id)
		fprintf(d->f, " id=\"%s\"", id);
	fputc('>', d->f);
	esc(d->f, text);
	fprintf(d->f, "</h%d>\n", level + d->shift);
}

void doc_text(struct doc *d, const char *s)
{
	put_text(d, s);
}

void doc_block(struct doc *d, enum doc_block kind, const char *fmt, ...)
{
	/* Markdown, HTML */
	static const char *const open[][2] = { { "", "<p>" }, { "- ", "<li>" } };
	static const char *const close[][2] = { { "\n\n", "</p>\n" }, { "\n", "</li>\n" } };
	va_list ap;

	fputs(open[kind][doc_html(d)], d->f);
	va_start(ap, fmt);
	vput(d, fmt, ap);
	va_end(ap);
	fputs(close[kind][doc_html(d)], d->f);
}

void doc_ul(struct doc *d, const char *id)
{
	if (doc_html(d))
		fprintf(d->f, id ? "<ul id=\"%s\">\n" : "<ul>\n", id);
}

void doc_ul_end(struct doc *d)
{
	fputs(doc_html(d) ? "</ul>\n" : "\n", d->f);
}

/* **bold** to <b>, `code` to <code>, the rest escaped. */
static void inline_md(FILE *f, const char *s, size_t len)
{
	bool bold = false, code = false;

	for (size_t i = 0; i < len; i++) {
		char one[2] = { s[i], 0 };

		if (s[i] == '*' && i + 1 < len && s[i + 1] == '*') {
			fputs(bold ? "</b>" : "<b>", f);
			bold = !bold;
			i++;
		} else if (s[i] == '`') {
			fputs(code ? "</code>" : "<code>", f);
			code = !code;
		} else {
			esc(f, one);
		}
	}
	fputs(code ? "</code>" : "", f);
	fputs(bold ? "</b>" : "", f);
}

void doc_md_li(struct doc *d, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!doc_html(d)) {
		fputs("- ", d->f);
		md_esc(d->f, buf, strlen(buf), false);
		fputc('\n', d->f);
		return;
	}
	fputs("<li>", d->f);
	inline_md(d->f, buf, strlen(buf));
	fputs("</li>\n", d->f);
}

void doc_files_li(struct doc *d, const char *label, char **files, int nfiles)
{
	char buf[4096];
	int k = snprintf(buf, sizeof(buf), "%s:", label);

	for (int i = 0; i < nfiles && k < (int)sizeof(buf) - 1; i++)
		k += snprintf(buf + k, sizeof(buf) - (size_t)k, " `%s`", files[i]);
	doc_md_li(d, "%s", buf);
}

void doc_md_list(struct doc *d, const char *md)
{
	if (!doc_html(d)) {
		md_esc(d->f, md, strlen(md), false);
		fputc('\n', d->f);
		return;
	}
	fputs("<ul>\n", d->f);
	while (*md) {
		const char *nl = strchr(md, '\n');
		size_t len = nl ? (size_t)(nl - md) : strlen(md);

		if (len > 2 && md[0] == '-') {
			fputs("<li>", d->f);
			inline_md(d->f, md + 2, len - 2);
			fputs("</li>\n", d->f);
		}
		md += len + (nl ? 1 : 0);
	}
	fputs("</ul>\n", d->f);
}

void doc_commands(struct doc *d, const char *id, const char *cmds, const char *comment)
{
	fprintf(d->f, doc_html(d) ? "<pre class=\"commands\" id=\"%s\">" : "```sh\n", id);
	for (const char *s = cmds; *s; s++) {
		char one[2] = { *s, 0 };

		if (!strncmp(s, "; ", 2)) {
			fputc('\n', d->f);
			s++;
		} else if (doc_html(d)) {
			esc(d->f, one);
		} else {
			fputc(*s, d->f);
		}
	}
	if (comment)
		fprintf(d->f, "   # %s", comment);
	fputs(doc_html(d) ? "\n</pre>\n" : "\n```\n\n", d->f);
}

void doc_table(struct doc *d)
{
	d->ncol = 0;
	d->head = true;
	d->in_row = false;
	fputs(doc_html(d) ? "<table>\n" : "", d->f);
}

static void cell(struct doc *d, bool bold, const char *fmt, va_list ap)
{
	const char *tag = d->head ? "th" : "td";
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (!d->in_row)
		fputs(doc_html(d) ? "<tr>" : "|", d->f);
	d->in_row = true;
	if (doc_html(d)) {
		fprintf(d->f, "<%s>%s", tag, bold ? "<b>" : "");
		esc(d->f, buf);
		fprintf(d->f, "%s</%s>", bold ? "</b>" : "", tag);
	} else {
		fputs(bold ? " **" : *buf ? " " : "", d->f);
		md_esc(d->f, buf, strlen(buf), true);
		fputs(bold ? "** |" : " |", d->f);
	}
}

void doc_th(struct doc *d, char align, const char *fmt, ...)
{
	va_list ap;

	if (d->ncol < DOC_MAX_COLS)
		d->align[d->ncol++] = align;
	va_start(ap, fmt);
	cell(d, false, fmt, ap);
	va_end(ap);
}

void doc_td(struct doc *d, bool bold, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cell(d, bold, fmt, ap);
	va_end(ap);
}

/* Markdown's separator after the header: "---:" where a column is right-aligned. */
void doc_row(struct doc *d)
{
	if (doc_html(d))
		fputs("</tr>\n", d->f);
	else
		fputs("\n", d->f);
	if (d->head && !doc_html(d)) {
		fputc('|', d->f);
		for (unsigned c = 0; c < d->ncol; c++)
			fputs(d->align[c] == 'r' ? "---:|" : "---|", d->f);
		fputc('\n', d->f);
	}
	d->head = d->in_row = false;
}

void doc_table_end(struct doc *d)
{
	fputs(doc_html(d) ? "</table>\n" : "\n", d->f);
}
