// SPDX-License-Identifier: GPL-2.0-or-later
/* A TRIM run's result: its check lines, their tally and the verdict from the evidence (r0/trimresult.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r0/trimresult.h"

int r0_trim_result_add(struct r0_trim_result *res, const char *check, enum r0_check_result v, const char *detail)
{
	struct r0_trim_check_line *x;

	res->overall = r0_check_result_worse(res->overall, v == R0_CHECK_FAIL ? v : R0_CHECK_OK);
	if (v == R0_CHECK_FAIL && !res->first_fail[0])
		snprintf(res->first_fail, sizeof(res->first_fail), "%s: %s", check, detail);
	if (v == R0_CHECK_NOT_CONCLUSIVE && !res->first_nc[0])
		snprintf(res->first_nc, sizeof(res->first_nc), "%s: %s", check, detail);
	x = realloc(res->lines, (res->n_lines + 1) * sizeof(*x));
	if (!x)
		return -ENOMEM;   /* the line is lost, its verdict above is not */
	res->lines = x;
	x = &res->lines[res->n_lines];
	snprintf(x->check, sizeof(x->check), "%s", check);
	x->verdict = v;
	x->detail = strdup(detail);
	if (!x->detail)
		return -ENOMEM;
	res->n_lines++;
	return 0;
}

void r0_trim_result_free(struct r0_trim_result *res)
{
	for (size_t i = 0; i < res->n_lines; i++)
		free(res->lines[i].detail);
	free(res->lines);
	res->lines = NULL;
	res->n_lines = 0;
}

void r0_trim_result_judge(struct r0_trim_result *res, const struct r0_trim_device *t, bool fs_mode,
			  enum r0_trim_level require)
{
	res->judged = false;
	res->levels[0] = '\0';
	if (!fs_mode && t->geometry_matches) {
		char fail[sizeof(res->first_fail)];
		enum r0_check_result ev;

		res->judged = true;
		ev = r0_trim_evidence_verdict(&res->ev, t, require, res->levels, sizeof(res->levels), fail,
					      sizeof(fail));
		/* a broken read-back promise is the finding to name, whatever failed first */
		if (ev == R0_CHECK_FAIL &&
		    (res->overall != R0_CHECK_FAIL || strstr(fail, "still returns the old data"))) {
			res->overall = R0_CHECK_FAIL;
			snprintf(res->first_fail, sizeof(res->first_fail), "%s", fail);
		} else if (ev == R0_CHECK_NOT_CONCLUSIVE && res->overall != R0_CHECK_FAIL) {
			/* nothing failed, something was not shown: no "no" (a busy device, --live's quiet check) */
			res->overall = R0_CHECK_NOT_CONCLUSIVE;
			snprintf(res->first_fail, sizeof(res->first_fail), "%s", fail);
		}
	}
	if (res->overall != R0_CHECK_FAIL && res->delivery_pass == 0) {
		res->overall = R0_CHECK_NOT_CONCLUSIVE;
		snprintf(res->first_fail, sizeof(res->first_fail), "%s",
			 res->first_nc[0] ? res->first_nc : "no check could show a discard arriving");
	} else if (res->overall != R0_CHECK_FAIL && res->cut_short) {
		res->overall = R0_CHECK_NOT_CONCLUSIVE;
		snprintf(res->first_fail, sizeof(res->first_fail), "interrupted by a signal before every check "
			 "asked for ran");
	}
}
