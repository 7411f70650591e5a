/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One writer, two formats: r0report builds each heading, paragraph, list
 * and table once and the writer renders it as Markdown or as HTML, so the
 * page never has to read back the Markdown it wrote.
 */
#ifndef R0_REPORT_DOC_H
#define R0_REPORT_DOC_H

#include <stdbool.h>
#include <stdio.h>

enum doc_fmt { DOC_MD, DOC_HTML };

#define DOC_MAX_COLS 64

struct doc {
	FILE *f;
	enum doc_fmt fmt;
	int shift;              /* HTML heading level = Markdown level + shift */
	/* the table being written */
	unsigned ncol;
	bool head, in_row;
	char align[DOC_MAX_COLS];  /* a column: 'r' right-aligned, from its header cell */
};

static inline bool doc_html(const struct doc *d) { return d->fmt == DOC_HTML; }

/* The document's start with its title (HTML: the page's head and style), and its end. */
void doc_begin(struct doc *d, const char *title);
void doc_end(struct doc *d);

/* The verdict, the page's first paragraph (HTML: id "verdict", a red border unless GOOD). */
void doc_verdict(struct doc *d, const char *text, bool good);

/* A heading of LEVEL (2: "## ") with an HTML id (or NULL). */
void doc_heading(struct doc *d, int level, const char *id, const char *text);

/* Plain text inside the current element. */
void doc_text(struct doc *d, const char *s);

/* A paragraph or a list item (inside doc_ul) of plain text. */
enum doc_block { DOC_P, DOC_LI };
void doc_block(struct doc *d, enum doc_block kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define doc_p(d, ...) doc_block(d, DOC_P, __VA_ARGS__)
#define doc_li(d, ...) doc_block(d, DOC_LI, __VA_ARGS__)

/* A bulleted list: begin (HTML id or NULL), doc_li items, end. */
void doc_ul(struct doc *d, const char *id);
void doc_ul_end(struct doc *d);

/*
 * Markdown the analysis wrote itself ("- " lines with **bold** and `code`):
 * as it is in Markdown, a list in HTML.
 */
void doc_md_list(struct doc *d, const char *md);

/* One list item of such Markdown. */
void doc_md_li(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A list item "LABEL: `file` `file`...". */
void doc_files_li(struct doc *d, const char *label, char **files, int nfiles);

/* Commands in a code block, "; " a line break; HTML: <pre class="commands" id=ID>. */
void doc_commands(struct doc *d, const char *id, const char *cmds, const char *comment);

/*
 * A table: doc_table, then the header row with doc_th ('l' or 'r' sets the
 * column's alignment), doc_row, then the rows with doc_td (BOLD: strong),
 * doc_row after each, and doc_table_end.
 */
void doc_table(struct doc *d);
void doc_th(struct doc *d, char align, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void doc_td(struct doc *d, bool bold, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void doc_row(struct doc *d);
void doc_table_end(struct doc *d);

#endif
