/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bits of SVG and HTML every r0report chart writes: escaping, the chart's frame, text. */
#ifndef R0_REPORT_SVG_H
#define R0_REPORT_SVG_H

#include <stdio.h>

/* Text for HTML and SVG: & < > " escaped. */
void esc(FILE *f, const char *s);

/* An SVG chart W x H with a <title> (what the browser check looks for) on white. */
void svg_open(FILE *f, int w, int h, const char *title);

/* S at (X, Y), anchored start/middle/end, SIZE px, EXTRA attributes or NULL. */
void svg_text(FILE *f, double x, double y, const char *anchor, int size, const char *extra, const char *s);

#endif
