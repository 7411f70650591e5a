// SPDX-License-Identifier: GPL-2.0-or-later
/* The first screen's TRIM answer, per array: what the r0trim results say of each (r0/trimanswer.h). */
#include <errno.h>
#include <string.h>

#include "r0/trimanswer.h"
#include "strbuf.h"

static const char *array_name(enum r0_layer l)
{
	return l == R0_LAYER_MD ? "md raid0" : "dm striped";
}

/* One r0trim result of the array: its verdict, then what was checked ("3 members, chunk 64K"). */
static void one_result(const struct r0_trimres *t, char *buf, size_t len)
{
	const char *what = strchr(t->description, ',');

	what = what ? what + 2 : "";
	if (t->watch)
		r0_strbuf_cat(buf, len, "%s over repeated use (r0trim --watch, %u reading%s%s%s)", t->verdict, t->w.records,
			      t->w.records == 1 ? "" : "s", *what ? ", " : "", what);
	else
		r0_strbuf_cat(buf, len, "%s (r0trim%s%s)", t->verdict, *what ? ", " : "", what);
}

int r0_trim_answer(const struct r0_analysis *a, const struct r0_trimres *t, size_t n, char *buf, size_t len)
{
	bool measured[R0_LAYER_DM + 1] = { false }, unchecked = false;
	enum r0_layer first, order[2];
	size_t said = 0;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	for (size_t k = 0; k < a->n_cell; k++)
		measured[a->cell[k].layer] = true;
	if (!measured[R0_LAYER_MD] && !measured[R0_LAYER_DM])
		return 0;   /* no array: nothing for TRIM to pass through */
	/* the array to build first */
	first = a->has_choice ? a->choice[a->pick].layer : R0_LAYER_MD;
	order[0] = first;
	order[1] = first == R0_LAYER_MD ? R0_LAYER_DM : R0_LAYER_MD;
	r0_strbuf_cat(buf, len, "TRIM:");
	for (size_t o = 0; o < 2; o++) {
		size_t k = 0;
		bool checked = false;

		for (size_t i = 0; i < n; i++)
			checked |= t[i].layer == order[o];
		/* an array the study did not measure is said only where a result checked it */
		if (!measured[order[o]] && !checked)
			continue;
		r0_strbuf_cat(buf, len, "%s %s", said++ ? ";" : "", array_name(order[o]));
		for (size_t i = 0; i < n; i++) {
			if (t[i].layer != order[o])
				continue;
			r0_strbuf_cat(buf, len, "%s", k++ ? " and " : " ");
			one_result(&t[i], buf, len);
		}
		if (!k) {
			r0_strbuf_cat(buf, len, " not checked");
			unchecked = true;
		}
	}
	if (unchecked)
		r0_strbuf_cat(buf, len, " (r0trim on the array checks whether discards reach its members)");
	r0_strbuf_cat(buf, len, ".");
	return strlen(buf) + 1 >= len ? -ENOSPC : 0;
}
