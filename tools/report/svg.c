// SPDX-License-Identifier: GPL-2.0-or-later
/* The bits of SVG every r0report chart shares (svg.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/* An SVG chart W x H with a <title> (what the browser check looks for) on white. */
void svg_open(FILE *f, int w, int h, const char *title)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
		w, h, w, h);
	fprintf(f, "<title>");
	esc(f, title);
	fprintf(f, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
}

/* S at (X, Y), anchored start/middle/end, SIZE px, EXTRA attributes or NULL. */
void svg_text(FILE *f, double x, double y, const char *anchor, int size, const char *extra, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s>", x, y, anchor, size,
		extra ? " " : "", extra ? extra : "");
	esc(f, s);
	fprintf(f, "</text>\n");
}

/* A line; EXTRA attributes or "". */
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, const char *extra)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>\n", x1, y1, x2, y2, stroke,
		extra);
}

/* A legend entry: a 10 px swatch at (X, Y), LABEL beside it. */
void svg_swatch(FILE *f, double x, double y, const char *color, const char *label)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", x, y, color);
	svg_text(f, x + 14, y + 9, "start", 10, NULL, label);
}

/* The bold title centred over a chart W wide. */
void svg_heading(FILE *f, int w, const char *s)
{
	svg_text(f, w / 2.0, 16, "middle", 13, "font-weight=\"bold\"", s);
}

/* A series' line: open, then points, then svg_series_end. DASH "" for a solid line. */
void svg_series(FILE *f, const char *color, const char *dash)
{
	fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"", color);
	if (*dash)
		fprintf(f, " stroke-dasharray=\"%s\"", dash);
	fprintf(f, " points=\"");
}

void svg_series_end(FILE *f)
{
	fprintf(f, "\"/>\n");
}

/* A point of R px with a tooltip. */
void svg_dot(FILE *f, double x, double y, double r, const char *color, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"><title>", x, y, r, color);
	esc(f, buf);
	fprintf(f, "</title></circle>\n");
}


double yof(const struct yaxis *y, double v)
{
	return y->top + y->ph - v / y->ymax * y->ph;
}

/* Grid lines every STEP labelled "%g" SUFFIX, and the two axes. */
void y_grid(FILE *f, const struct yaxis *y, double step, const char *suffix)
{
	char buf[32];

	/* a bounded number of lines, whatever the scale */
	if (!(step > 0) || !isfinite(y->ymax) || y->ymax / step > 200)
		return;
	for (double v = 0; v <= y->ymax * 1.0001; v += step) {
		svg_line(f, y->x0, yof(y, v), y->x1, yof(y, v), GRID, "");
		snprintf(buf, sizeof(buf), "%g%s", v, suffix);
		svg_text(f, y->x0 - 4, yof(y, v) + 4, "end", 10, NULL, buf);
	}
	svg_line(f, y->x0, y->top, y->x0, y->top + y->ph, "#333", "");
	svg_line(f, y->x0, y->top + y->ph, y->x1, y->top + y->ph, "#333", "");
}

/* A round top for values up to YMAX, and a step of 1, 2 or 5 x 10^k. */
double nice_scale(double ymax, double *step)
{
	*step = pow(10, floor(log10(ymax > 0 ? ymax : 1)));
	if (ymax / *step < 2.5)
		*step /= 2;
	ymax = ceil(ymax * 1.08 / *step) * *step;
	return ymax > 0 ? ymax : 1;
}

