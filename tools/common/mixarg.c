// SPDX-License-Identifier: GPL-2.0-or-later
/* --mix for the tools that weigh a verdict: a mix spec or an r0profile mix file. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "mixarg.h"

#include "r0/mixfile.h"

int r0_cli_mix(const char *prog, const char *opt, const char *arg, struct r0_mix *mix, char *desc, size_t len)
{
	int err;

	desc[0] = '\0';
	/* a name or weights first, so a file called "desktop" cannot shadow it (./desktop reads the file) */
	if (!(err = r0_mix_parse(arg, mix)))
		return 0;
	if (err == -EEXIST && access(arg, F_OK))
		return r0_cli_usage_error(prog, "%s '%s': '%s' is given twice", opt, arg, mix->e[mix->n - 1].key);
	if (err == -ERANGE && access(arg, F_OK))
		return r0_cli_usage_error(prog, "%s '%s': a weight must be above 0 (and none below)", opt, arg);
	if (err == -EOVERFLOW && access(arg, F_OK))
		return r0_cli_usage_error(prog, "%s '%s': a weight is at most %.0f (weights are shares: 1,3 weighs "
					  "as 10,30)", opt, arg, R0_MIX_WEIGHT_MAX);
	if (access(arg, R_OK) && strchr(arg, '='))
		return r0_cli_usage_error(prog, "%s '%s': KEY=WEIGHT,..., at most %d, each KEY a class or a workload, "
					  "each WEIGHT a number (digits and at most one point: 2, 0.5)", opt, arg, R0_MIX_MAX);
	if (access(arg, R_OK))
		return r0_cli_usage_error(prog, "%s '%s': desktop, database, sequential, everyday, replay, "
					  "KEY=WEIGHT,... or a readable mix file of r0profile", opt, arg);
	if ((err = r0_mix_load(arg, mix, desc, len)))
		return r0_cli_usage_error(prog, "%s '%s': %s", opt, arg,
					  err == -EINVAL ? "not a mix file (" R0_MIX_SCHEMA ", written by r0profile --output)"
							 : strerror(-err));
	return 0;
}

int r0_cli_mix_check(const char *prog, const char *opt, const char *arg, const struct r0_mix *mix,
		     const struct r0_run *recs, size_t n)
{
	char note[R0_MIX_UNMEASURED_MAX];
	size_t bad = 0;

	int err = r0_mix_check(mix, recs, n, &bad);

	if (err == -ENOTUNIQ)
		return r0_cli_usage_error(prog, "%s '%s': %s's weight goes to no workload: each of its workloads is "
					  "named (give the class's share to them, or leave one unnamed)", opt, arg,
					  mix->e[bad].key);
	if (err)
		return r0_cli_usage_error(prog, "%s '%s': '%s' is neither a workload class (%s) nor a workload of "
					  "this study", opt, arg, mix->e[bad].key, r0_mix_classes());
	if (r0_mix_unmeasured(mix, recs, n, note, sizeof(note), NULL))
		fprintf(stderr, "%s: %s %s: %s\n", prog, opt, arg, note);
	return 0;
}
