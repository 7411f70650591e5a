// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/provenance.h: a stored analysis named beside today's, with both verdicts where they differ. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/provenance.h"

#define ME "r0report 0.2.0+g0123456789ab"

static void today(struct r0_analysis *a, const char *lead, const char *verdict)
{
	memset(a, 0, sizeof(*a));
	snprintf(a->lead, sizeof(a->lead), "%s", lead);
	snprintf(a->detail, sizeof(a->detail), "%s", verdict);
}

static void stored(struct r0_sweep_stored *s, const char *tool, const char *lead, const char *verdict)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->tool, sizeof(s->tool), "%s", tool);
	snprintf(s->mix, sizeof(s->mix), "desktop");
	snprintf(s->lead, sizeof(s->lead), "%s", lead);
	snprintf(s->verdict, sizeof(s->verdict), "%s", verdict);
}

Test(provenance, same_code)
{
	cr_expect(r0_same_code("r0sweep 0.2.0+g0123456789ab", ME), "one library makes both tools");
	cr_expect(!r0_same_code("r0sweep 0.2.0+gfedcba987654", ME), "another commit");
	cr_expect(!r0_same_code("r0sweep 0.1.0", ME), "a build not known");
	cr_expect(!r0_same_code("r0sweep 0.2.0", "r0report 0.2.0"), "two builds outside git are not known the same");
	cr_expect(!r0_same_code("", ME));
}

Test(provenance, named_when_other_code_or_another_verdict)
{
	static struct r0_analysis a;
	static struct r0_sweep_stored s;
	static struct r0_provenance p;

	/* the same code, the same words: nothing to say */
	today(&a, "worth it under the desktop mix, md 64K at 1.50x one drive (1.40-1.60)", "V1.");
	stored(&s, "r0sweep 0.2.0+g0123456789ab", a.lead, "V1.");
	r0_provenance_of(&s, &a, ME, "s.jsonl", &p);
	cr_expect(!p.other_code && !p.differs);
	cr_expect_str_empty(p.line);
	/* other code, the same verdict */
	stored(&s, "r0sweep 0.1.0", a.lead, "V1.");
	r0_provenance_of(&s, &a, ME, "s.jsonl", &p);
	cr_expect(p.other_code && !p.differs);
	cr_expect_str_eq(p.line, "The analysis stored in s.jsonl by r0sweep 0.1.0 (build unknown) said what today's " ME
				 " says.");
	cr_expect_str_empty(p.detail);
	/* the same code but another verdict (another mix, say): both, and its verdict in detail */
	stored(&s, "r0sweep 0.2.0+g0123456789ab", "worth it under the sequential mix, md 64K at 1.90x one drive", "V2.");
	r0_provenance_of(&s, &a, ME, "s.jsonl", &p);
	cr_expect(!p.other_code && p.differs);
	cr_expect_str_eq(p.line, "The analysis stored in s.jsonl by r0sweep 0.2.0+g0123456789ab said: worth it under the "
				 "sequential mix, md 64K at 1.90x one drive; today's " ME " says: worth it under the desktop "
				 "mix, md 64K at 1.50x one drive (1.40-1.60) (both in full under Verdict in detail).");
	cr_expect_str_eq(p.detail, "The analysis stored in s.jsonl by r0sweep 0.2.0+g0123456789ab said in detail: V2.");
	/* one clause alike, the detail not; and cells measured after it */
	stored(&s, "r0sweep 0.1.0", a.lead, "V3.");
	s.cells_after = 12;
	r0_provenance_of(&s, &a, ME, "s.jsonl", &p);
	cr_expect_str_eq(p.line, "The analysis stored in s.jsonl by r0sweep 0.1.0 (build unknown), before the file's last "
				 "12 cells, said: worth it under the desktop mix, md 64K at 1.50x one drive (1.40-1.60), as "
				 "today's " ME " says, but not the same in detail (both in full under Verdict in detail).");
}

/* What an older file said in one clause: from its answer and pick, or its verdict's sentence on the mix. */
Test(provenance, older_files_said)
{
	static struct r0_analysis a;
	static struct r0_sweep_stored s;
	static struct r0_provenance p;

	today(&a, "likely worth it with 2 of them under the desktop mix, md 64K at 1.24x one drive (1.16-1.31)", "V1.");
	stored(&s, "r0sweep 0.1.0", "", "RAID0 of these 3 drives: worth it for Seq read (2.67x, 2.50-2.83). Chunk: pick "
	       "md 64K. Under the desktop mix md 64K is 1.75x a single drive (1.67-1.89): worth it.");
	snprintf(s.answer, sizeof(s.answer), "worth it");
	s.has_pick = true;
	s.layer = R0_LAYER_MD;
	s.chunk_bytes = 65536;
	s.score = 1.7524;
	s.score_min = 1.6708;
	s.score_max = 1.8885;
	r0_provenance_of(&s, &a, ME, "sweep.jsonl", &p);
	cr_expect_str_eq(p.said, "worth it under the desktop mix, md 64K at 1.75x one drive (1.67-1.89)");
	cr_expect_str_eq(p.producer, "r0sweep 0.1.0 (build unknown)");
	s.has_pick = false;
	s.answer[0] = '\0';
	r0_provenance_of(&s, &a, ME, "sweep.jsonl", &p);
	cr_expect_str_eq(p.said, "under the desktop mix md 64K is 1.75x a single drive (1.67-1.89): worth it");
	snprintf(s.verdict, sizeof(s.verdict), "No verdict: nothing measured.");
	r0_provenance_of(&s, &a, ME, "sweep.jsonl", &p);
	cr_expect_str_eq(p.said, "No verdict: nothing measured");
}
