// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/trimanswer.h: the first screen's TRIM answer per array, from hand-made results. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/trimanswer.h"

/* A study that measured the layers LAYERS[0..n) (raw first), its pick on PICK. */
static void study(struct r0_analysis *a, struct r0_cell *cells, struct r0_choice *c, const enum r0_layer *layers,
		  size_t n, enum r0_layer pick)
{
	memset(a, 0, sizeof(*a));
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		memset(&cells[i], 0, sizeof(cells[i]));
		cells[i].layer = layers[i];
	}
	a->cell = cells;
	a->n_cell = n;
	c->layer = pick;
	a->choice = c;
	a->n_choice = 1;
	a->has_choice = true;
}

static struct r0_trimres result(const char *desc, const char *verdict)
{
	struct r0_trimres t;

	memset(&t, 0, sizeof(t));
	snprintf(t.description, sizeof(t.description), "%s", desc);
	snprintf(t.verdict, sizeof(t.verdict), "%s", verdict);
	t.layer = !strncmp(desc, "md raid0, ", 10) ? R0_LAYER_MD : !strncmp(desc, "dm striped, ", 12) ? R0_LAYER_DM :
		  R0_LAYER_RAW;
	t.pass = !strcmp(verdict, "PASS");
	return t;
}

Test(trimanswer, per_array)
{
	static const enum r0_layer both[] = { R0_LAYER_RAW, R0_LAYER_MD, R0_LAYER_DM };
	static const enum r0_layer md_only[] = { R0_LAYER_RAW, R0_LAYER_MD };
	struct r0_analysis a;
	struct r0_cell cells[3];
	struct r0_choice c;
	struct r0_trimres t[4];
	char line[1024];

	/* nothing checked: each array the study compared says so, the pick's first */
	study(&a, cells, &c, both, 3, R0_LAYER_DM);
	cr_assert_eq(r0_trim_answer(&a, NULL, 0, line, sizeof(line)), 0);
	cr_expect_str_eq(line, "TRIM: dm striped not checked; md raid0 not checked (r0trim on the array checks whether "
			       "discards reach its members).");
	/* the demo's two checks */
	study(&a, cells, &c, both, 3, R0_LAYER_MD);
	t[0] = result("dm striped, 3 members, chunk 64K", "PASS");
	t[1] = result("md raid0, 3 members, chunk 64K", "PASS");
	cr_assert_eq(r0_trim_answer(&a, t, 2, line, sizeof(line)), 0);
	cr_expect_str_eq(line, "TRIM: md raid0 PASS (r0trim, 3 members, chunk 64K); dm striped PASS (r0trim, 3 members, "
			       "chunk 64K).");
	/* one checked, and a FAIL beside a PASS of the same back end; a stack over a stripe answers for none */
	t[0] = result("md raid0, 3 members, chunk 64K", "PASS");
	t[1] = result("md raid0, 2 members, chunk 4K", "FAIL");
	t[2] = result("crypt over 3 bottom devices", "PASS");
	cr_assert_eq(r0_trim_answer(&a, t, 3, line, sizeof(line)), 0);
	cr_expect_str_eq(line, "TRIM: md raid0 PASS (r0trim, 3 members, chunk 64K) and FAIL (r0trim, 2 members, chunk 4K); "
			       "dm striped not checked (r0trim on the array checks whether discards reach its members).");
	/* a study of md alone: dm is said only where a result checked it; a watch over months */
	study(&a, cells, &c, md_only, 2, R0_LAYER_MD);
	cr_assert_eq(r0_trim_answer(&a, NULL, 0, line, sizeof(line)), 0);
	cr_expect_str_eq(line, "TRIM: md raid0 not checked (r0trim on the array checks whether discards reach its members).");
	t[0] = result("md raid0, 3 members, chunk 64K", "PASS with DRIFT");
	t[0].watch = true;
	t[0].w.records = 12;
	t[1] = result("dm striped, 2 members, chunk 512K", "NOT CONCLUSIVE");
	cr_assert_eq(r0_trim_answer(&a, t, 2, line, sizeof(line)), 0);
	cr_expect_str_eq(line, "TRIM: md raid0 PASS with DRIFT over repeated use (r0trim --watch, 12 readings, 3 members, "
			       "chunk 64K); dm striped NOT CONCLUSIVE (r0trim, 2 members, chunk 512K).");
	/* no array measured: nothing for TRIM to pass through */
	study(&a, cells, &c, both, 1, R0_LAYER_MD);
	a.has_choice = false;
	cr_assert_eq(r0_trim_answer(&a, t, 2, line, sizeof(line)), 0);
	cr_expect_str_empty(line);
	study(&a, cells, &c, both, 3, R0_LAYER_MD);
	cr_expect_eq(r0_trim_answer(&a, NULL, 0, line, 20), -ENOSPC);
}
