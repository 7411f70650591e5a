// SPDX-License-Identifier: GPL-2.0-or-later
/* A stored analysis beside today's of the same cells: which code made each, and both verdicts (r0/provenance.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "r0/provenance.h"
#include "r0/size.h"
#include "strbuf.h"

/* The build id in a tool field: what follows the tool's name ("0.2.0+g1a2b3c4d5e6f"). */
static const char *build_of(const char *tool)
{
	const char *sp = strchr(tool, ' ');

	return sp ? sp + 1 : "";
}

/* a build without its commit ("0.1.0", or a tree outside git) is not known to be any other */
static bool build_known(const char *tool)
{
	return strstr(build_of(tool), "+g") != NULL;
}

bool r0_same_code(const char *tool, const char *reader)
{
	return build_known(tool) && build_known(reader) && !strcmp(build_of(tool), build_of(reader));
}

static void name_code(const char *tool, char *buf, size_t len)
{
	if (!tool[0])
		snprintf(buf, len, "a tool it does not name");
	else
		snprintf(buf, len, "%s%s", tool, build_known(tool) ? "" : " (build unknown)");
}

/* TEXT without its closing full stop, into BUF */
static void clause(const char *text, size_t n, char *buf, size_t len)
{
	while (n && (text[n - 1] == '.' || text[n - 1] == ' '))
		n--;
	snprintf(buf, len, "%.*s", (int)n, text);
}

/*
 * What S answered, in one clause: its lead; in files before the lead was
 * stored, its answer and pick, or (before the answer was) the sentence of
 * its verdict that gives the mix's figure and answer.
 */
static void said_of(const struct r0_sweep_stored *s, char *buf, size_t len)
{
	const char *u = strstr(s->verdict, "Under the ");
	char ck[16];

	if (s->lead[0]) {
		snprintf(buf, len, "%s", s->lead);
	} else if (s->answer[0] && s->has_pick) {
		if (r0_format_size(s->chunk_bytes, ck, sizeof(ck)))
			snprintf(ck, sizeof(ck), "%u", s->chunk_bytes);
		snprintf(buf, len, "%s under the %s mix, %s %s at %.2fx one drive", s->answer, s->mix,
			 r0_layer_name(s->layer), ck, s->score);
		if (!isnan(s->score_min) && !isnan(s->score_max))
			r0_strbuf_cat(buf, len, " (%.2f-%.2f)", s->score_min, s->score_max);
	} else if (u) {
		const char *end = strstr(u, ". ");

		clause(u, end ? (size_t)(end - u) : strlen(u), buf, len);
		buf[0] = (char)tolower((unsigned char)buf[0]);   /* it follows "said: " */
	} else {
		clause(s->verdict, strlen(s->verdict), buf, len);
	}
}

void r0_provenance_of(const struct r0_sweep_stored *s, const struct r0_analysis *a, const char *reader,
		      const char *file, struct r0_provenance *out)
{
	char today[512], where[96] = "", me[96];

	memset(out, 0, sizeof(*out));
	out->other_code = !r0_same_code(s->tool, reader);
	out->differs = strcmp(s->verdict, a->detail) != 0;
	name_code(s->tool, out->producer, sizeof(out->producer));
	name_code(reader, me, sizeof(me));
	said_of(s, out->said, sizeof(out->said));
	if (a->lead[0])
		snprintf(today, sizeof(today), "%s", a->lead);
	else
		clause(a->verdict, strlen(a->verdict), today, sizeof(today));
	/* cells measured after it (a resumed study) are in today's analysis, not in it */
	if (s->cells_after)
		snprintf(where, sizeof(where), ", before the file's last %u cell%s,", s->cells_after,
			 s->cells_after == 1 ? "" : "s");
	if (!out->other_code && !out->differs)
		return;
	if (!out->differs)
		snprintf(out->line, sizeof(out->line), "The analysis stored in %s by %s%s said what today's %s says.",
			 file, out->producer, where, me);
	else if (strcmp(out->said, today))
		snprintf(out->line, sizeof(out->line), "The analysis stored in %s by %s%s said: %s; today's %s says: %s "
			 "(both in full under Verdict in detail).", file, out->producer, where, out->said, me, today);
	else
		snprintf(out->line, sizeof(out->line), "The analysis stored in %s by %s%s said: %s, as today's %s "
			 "says, but not the same in detail (both in full under Verdict in detail).", file,
			 out->producer, where, out->said, me);
	if (out->differs)
		snprintf(out->detail, sizeof(out->detail), "The analysis stored in %s by %s%s said in detail: %s", file,
			 out->producer, where, s->verdict);
}
