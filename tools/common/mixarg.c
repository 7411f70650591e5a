// SPDX-License-Identifier: GPL-2.0-or-later
/* --mix for the tools that weigh a verdict: a mix spec or an r0profile mix file. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "mixarg.h"

#include "r0/profile.h"

int r0_cli_mix(const char *prog, const char *arg, struct r0_mix *mix, char *desc, size_t len)
{
	int err;

	desc[0] = '\0';
	/* a spec such as "seq-read=1" is never a file name in practice; a file wins */
	if (!access(arg, R_OK)) {
		if ((err = r0_mix_load(arg, mix, desc, len)))
			return r0_cli_usage_error(prog, "--mix %s: %s", arg,
						  err == -EINVAL ? "not a mix file (" R0_MIX_SCHEMA ", written by r0profile -o)"
								 : strerror(-err));
		return 0;
	}
	if (r0_mix_parse(arg, mix))
		return r0_cli_usage_error(prog, "--mix '%s': desktop, database, sequential, KEY=WEIGHT,... "
					  "or a mix file of r0profile", arg);
	return 0;
}
