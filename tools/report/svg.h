/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bits of SVG every r0report chart shares: escaping, frame, text, lines, legend, points, a linear y axis. */
#ifndef R0_REPORT_SVG_H
#define R0_REPORT_SVG_H

#include <stdio.h>

#define CW 300   /* one small chart */
#define CH 220
#define ML 44    /* margins */
#define MR 12
#define MT 28
#define MB 36
#define GRID "#e3e3e3"

/* Text for HTML and SVG: & < > " escaped. */
void esc(FILE *f, const char *s);

/* An SVG chart W x H with a <title> (what the browser check looks for) on white. */
void svg_open(FILE *f, int w, int h, const char *title);

/* S at (X, Y), anchored start/middle/end, SIZE px, EXTRA attributes or NULL. */
void svg_text(FILE *f, double x, double y, const char *anchor, int size, const char *extra, const char *s);

/* The bold title centred over a chart W wide. */
void svg_heading(FILE *f, int w, const char *s);

/* A line; EXTRA attributes or "". */
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, const char *extra);

/* A legend entry: a 10 px swatch at (X, Y), LABEL beside it. */
void svg_swatch(FILE *f, double x, double y, const char *color, const char *label);

/* A series' line: svg_series, the points "x,y ", svg_series_end. DASH "" for a solid line. */
void svg_series(FILE *f, const char *color, const char *dash);
void svg_series_end(FILE *f);

/* A point of R px with a tooltip. */
void svg_dot(FILE *f, double x, double y, double r, const char *color, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* A linear y axis from 0 to YMAX over the plot (X0..X1, TOP, PH high). */
struct yaxis {
	double x0, x1, top, ph, ymax;
};

/* Y of value V on the axis. */
double yof(const struct yaxis *y, double v);

/* Grid lines every STEP labelled "%g" SUFFIX, and the two axes. */
void y_grid(FILE *f, const struct yaxis *y, double step, const char *suffix);

/* A round top for values up to YMAX (returned), and a step of 1, 2 or 5 x 10^k. */
double nice_scale(double ymax, double *step);

#endif
