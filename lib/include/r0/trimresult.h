/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A TRIM run's result: every check's line in order, the first failure and
 * the first doubt, the conclusive deliveries, the evidence per bottom
 * device and, once judged, the run's verdict. r0trim's checks add to it
 * and r0trim prints it; nothing here prints or touches a device.
 */
#ifndef R0_TRIMRESULT_H
#define R0_TRIMRESULT_H

#include <stdbool.h>
#include <stddef.h>

#include "r0/trimcheck.h"

/* One check's line: "limits", PASS, "granularity 4K (members up to 4K), ...". */
struct r0_trim_check_line {
	char check[12];
	enum r0_check_result verdict;
	char *detail;                  /* malloc'ed (r0_trim_result_add; r0_trim_result_free frees it) */
};

/*
 * Zero-initialised it is empty, with OVERALL PASS. Only FAIL lowers
 * OVERALL as lines are added: a NOT CONCLUSIVE or NOT CHECKABLE line
 * alone says nothing against the run until r0_trim_result_judge.
 */
struct r0_trim_result {
	struct r0_trim_check_line *lines;   /* N_LINES of them, in the order added */
	size_t n_lines;
	enum r0_check_result overall;       /* FAIL once a line failed; after judging, the verdict */
	char first_fail[1100];              /* "check: detail" of the first FAIL; after judging, why not PASS */
	char first_nc[1100];                /* "check: detail" of the first NOT CONCLUSIVE */
	unsigned delivery_pass, delivery_nc;   /* conclusive passes; not conclusive deliveries */
	struct r0_trim_evidence ev;         /* per bottom device */
	bool judged;                        /* r0_trim_result_judge weighed EV (a document then records it) */
	char levels[600];                   /* after judging: each bottom device's level, or "" */
	bool cut_short;                     /* a signal stopped the run before all it was asked ran */
};

/*
 * Adds CHECK's line of verdict V with DETAIL (copied). The tally (OVERALL,
 * FIRST_FAIL, FIRST_NC) counts it even when the line cannot be kept:
 * 0, or -ENOMEM with the line lost.
 */
int r0_trim_result_add(struct r0_trim_result *res, const char *check, enum r0_check_result v, const char *detail);

/* The lines freed; the rest of RES is left as it is. */
void r0_trim_result_free(struct r0_trim_result *res);

/*
 * The run's verdict into RES->overall and, unless PASS, its reason into
 * RES->first_fail. Unless FS_MODE (the file system mode judges its own
 * cycles) or T's geometry does not match the kernel's, the evidence is
 * weighed (r0_trim_evidence_verdict at REQUIRE; RES->judged, RES->levels):
 * its FAIL overrides a run that had none, and a broken read-back promise
 * ("still returns the old data") is the reason whatever failed first;
 * its NOT CONCLUSIVE, where nothing failed, makes the run not conclusive.
 * Then a run without a failure and without one conclusive delivery
 * (DELIVERY_PASS 0) is NOT CONCLUSIVE, with the first doubt as reason,
 * and so is one CUT_SHORT without a failure: what it was asked (cycles
 * over repeated use) was not all shown.
 */
void r0_trim_result_judge(struct r0_trim_result *res, const struct r0_trim_device *t, bool fs_mode,
			  enum r0_trim_level require);

#endif
