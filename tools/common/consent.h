/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Nothing is destroyed unless the user saw what and said yes: every tool
 * that writes to a device first writes its plan (each device with model,
 * serial, size and what it holds; what will be written; how long it takes)
 * and then goes on only after a typed "yes" on a terminal or --yes.
 * --plan prints the plan on stdout and stops before anything is opened for
 * writing.
 */
#ifndef R0_CONSENT_H
#define R0_CONSENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What the command line said: --plan, --yes. */
struct r0_consent {
	bool plan_only;
	bool yes;
};

/* Option keys of --plan and --yes: above every tool's own long-only keys. */
enum { R0_CLI_OPT_PLAN = 0x7000 };

/* The --plan and --yes (-y) entries of a tool's r0_cli_opt table. */
#define R0_CONSENT_OPTS(c)                                                                        \
	{ "plan", R0_CLI_OPT_PLAN, R0_CLI_SET, R0_CLI_TO((c).plan_only),                            \
	  .help = "show what would be written and stop (opens nothing for writing)" },             \
	{ "yes", 'y', R0_CLI_SET, R0_CLI_TO((c).yes), .help = "write without asking (needed without a terminal)" }

/*
 * The write rate the time estimates assume where the drive has not been
 * measured yet: a SATA SSD's sustained sequential write, so a faster drive
 * finishes sooner and a slower one (or a used one) later. Said in the plan.
 */
#define R0_PLAN_ASSUMED_MBPS 200.0

/* A plan being written: its text collects in memory until r0_plan_decide. */
struct r0_plan {
	const char *prog;
	bool keeps_data;  /* set by a tool that only reads (r0sweep --read-only) */
	FILE *f;      /* write the plan's own lines here */
	char *text;
	size_t len;
};

/* Starts a plan whose first line is HEADLINE. 0 or -ENOMEM. */
int r0_plan_begin(struct r0_plan *p, const char *prog, const char *headline);

/*
 * One device line: PATH as typed and its kernel name, model, serial, size,
 * and what it holds (signatures libblkid finds, partitions, holders,
 * mounts), so a mistyped name shows what it would cost.
 */
void r0_plan_device(struct r0_plan *p, const char *path);

/* SECONDS as "about 4 h 12 min" (or "under a minute") into BUF. */
void r0_plan_duration(double seconds, char *buf, size_t len);

/* Seconds to write BYTES at R0_PLAN_ASSUMED_MBPS. */
/* A bound, not a guess: "8 s", "22 min", "1 h 5 min". */
void r0_plan_bound(double s, char *buf, size_t len);
double r0_plan_write_seconds(uint64_t bytes);

/*
 * The plan shown and the user's answer. With C->plan_only the plan goes to
 * stdout and the result is R0_EXIT_OK (stop, successfully). Otherwise,
 * with C->yes, go on (-1) silently; on a terminal (stdin) the plan goes to
 * stderr with the question, "yes" goes on (-1) and anything else is
 * R0_EXIT_REFUSED; without a terminal the plan and the reason go to stderr
 * and the result is R0_EXIT_REFUSED too: nothing was touched either way.
 * Frees the plan in every case.
 */
int r0_plan_decide(struct r0_plan *p, const struct r0_consent *c);

/*
 * Tools that build arrays need root: "PROG: needs root: WHY" and
 * R0_EXIT_REFUSED for anyone else, -1 for root.
 */
int r0_cli_need_root(const char *prog, const char *why);

#endif
