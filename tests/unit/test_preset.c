// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/preset.h: the lookups and the one test region every test of a study runs over. */
#include <stdint.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/preset.h"

#define MIB (1ULL << 20)

Test(preset, the_region_is_the_smaller_cut_to_whole_mib)
{
	cr_assert_eq(r0_test_region_bytes(R0_CDM_REGION_BYTES, 8 * R0_CDM_REGION_BYTES), R0_CDM_REGION_BYTES);
	/* a device smaller than the region: all of it, in whole MiB */
	cr_assert_eq(r0_test_region_bytes(R0_CDM_REGION_BYTES, 100 * MIB + 4096), 100 * MIB);
	cr_assert_eq(r0_test_region_bytes(3 * MIB + 512, UINT64_MAX), 3 * MIB);
	cr_assert_eq(r0_test_region_bytes(MIB, MIB), MIB);
}

Test(preset, a_region_under_one_mib_is_kept_as_it_is)
{
	cr_assert_eq(r0_test_region_bytes(4096, R0_CDM_REGION_BYTES), 4096);
	cr_assert_eq(r0_test_region_bytes(R0_CDM_REGION_BYTES, MIB - 512), MIB - 512);
	cr_assert_eq(r0_test_region_bytes(0, R0_CDM_REGION_BYTES), 0);
}

Test(preset, every_preset_is_found_by_its_name)
{
	size_t n;
	const struct r0_preset *p = r0_presets(&n);

	cr_assert_gt(n, 0);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(r0_preset_find(p[i].name), &p[i]);
	cr_assert_null(r0_preset_find("cdm9"));
}
