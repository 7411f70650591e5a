// SPDX-License-Identifier: GPL-2.0-or-later
/* The bits of SVG and HTML every r0report chart writes (svg.h). */
#include <stdio.h>

#include "svg.h"

void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

void svg_open(FILE *f, int w, int h, const char *title)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
		w, h, w, h);
	fprintf(f, "<title>");
	esc(f, title);
	fprintf(f, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
}

void svg_text(FILE *f, double x, double y, const char *anchor, int size, const char *extra,
	      const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s>", x, y, anchor, size,
		extra ? " " : "", extra ? extra : "");
	esc(f, s);
	fprintf(f, "</text>\n");
}

