// SPDX-License-Identifier: GPL-2.0-or-later
/* r0_build_id: the version, then the commit the build was made from (issue 45: every result traceable). */
#include <ctype.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/buildid.h"

Test(buildid, the_version_then_the_commit)
{
	const char *id = r0_build_id();
	size_t v = strlen(R0_VERSION);

	cr_assert_eq(strncmp(id, R0_VERSION, v), 0, "%s", id);
	/* built from a git tree: +g and 12 hex digits, -dirty with changes; else the version alone */
	if (id[v]) {
		cr_expect_eq(strncmp(id + v, "+g", 2), 0, "%s", id);
		for (size_t i = v + 2; i < v + 14; i++)
			cr_expect(isxdigit((unsigned char)id[i]), "%s", id);
		cr_expect(!id[v + 14] || !strcmp(id + v + 14, "-dirty"), "%s", id);
	}
}
