// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/advice.h: member paths from recorded devices, the build commands. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "r0/advice.h"

Test(advice, member_paths)
{
	char p[4][R0_ADVICE_PATH_MAX];
	size_t n = 99;

	/* an older file: what the user said, "; ", then the members */
	cr_assert_eq(r0_member_paths("3 x null_blk (size=256, a, b) in the sandbox (QEMU, 2 vCPUs); "
				     "/dev/r0m0 (256.0 MiB, r0m0, 4096-byte blocks), /dev/r0m1 (256.0 MiB, r0m1, "
				     "4096-byte blocks), /dev/r0m2 (256.0 MiB, x)", p, 4, &n), 0);
	cr_assert_eq(n, 3);
	cr_expect_str_eq(p[0], "/dev/r0m0");
	cr_expect_str_eq(p[2], "/dev/r0m2");
	/* a path inside the parentheses or the user's words is not a member */
	cr_assert_eq(r0_member_paths("disks like /dev/sdz (old), /dev/sda (1 TiB, /dev/sdq (?))", p, 4, &n), 0);
	cr_assert_eq(n, 1);
	cr_expect_str_eq(p[0], "/dev/sda");
	cr_assert_eq(r0_member_paths("2 x SATA SSD", p, 4, &n), 0);
	cr_expect_eq(n, 0);
	cr_assert_eq(r0_member_paths("/dev/a (1), /dev/b (2), /dev/c (3)", p, 2, &n), 0);
	cr_expect_eq(n, 2, "at most MAX");
}

static void analysis_with(struct r0_analysis *a, struct r0_choice *c, enum r0_layer l, uint32_t chunk,
			  const char *devices)
{
	memset(a, 0, sizeof(*a));
	memset(c, 0, sizeof(*c));
	c->layer = l;
	c->chunk_bytes = chunk;
	a->choice = c;
	a->n_choice = 1;
	a->has_choice = true;
	a->max_members = 3;
	a->worth = true;
	snprintf(a->devices, sizeof(a->devices), "%s", devices);
}

Test(advice, commands)
{
	struct r0_analysis a;
	struct r0_choice c;
	struct r0_advice v;

	analysis_with(&a, &c, R0_LAYER_MD, 512 * 1024,
		      "/dev/sdb (1 TiB, X), /dev/sdc (1 TiB, X), /dev/sdd (1 TiB, X), /dev/sde (1 TiB, X)");
	cr_assert_eq(r0_advice_of(&a, &v), 0);
	cr_expect(v.paths_known && v.worth);
	cr_expect_str_eq(v.array, "md RAID0 of 3 drives, 512K chunk");
	cr_expect_str_eq(v.mdadm, "mdadm --create /dev/md0 --level=0 --chunk=512 --raid-devices=3 /dev/sdb /dev/sdc /dev/sdd");
	cr_expect_str_eq(v.lvm, "pvcreate /dev/sdb /dev/sdc /dev/sdd; vgcreate r0vg /dev/sdb /dev/sdc /dev/sdd; "
				"lvcreate --type striped --stripes 3 --stripesize 512k -l 100%FREE -n r0 r0vg");
	/* fewer paths recorded than members: the user's own */
	analysis_with(&a, &c, R0_LAYER_DM, 64 * 1024, "3 x SATA SSD; /dev/sdb (1 TiB, X)");
	cr_assert_eq(r0_advice_of(&a, &v), 0);
	cr_expect(!v.paths_known);
	cr_expect_str_eq(v.array, "dm striped RAID0 of 3 drives, 64K chunk");
	cr_expect_str_eq(v.mdadm, "mdadm --create /dev/md0 --level=0 --chunk=64 --raid-devices=3 <your devices>");
	cr_expect_not_null(strstr(v.lvm, "--stripes 3 --stripesize 64k"));
	a.has_choice = false;
	cr_expect_eq(r0_advice_of(&a, &v), -ENOENT);
}

/* The action both the terminal and the report say: by the answer, at the count to build, with its reason. */
Test(advice, action_by_answer)
{
	struct r0_analysis a;
	struct r0_choice c;
	struct r0_advice v;
	char text[4096];

	analysis_with(&a, &c, R0_LAYER_MD, 64 * 1024, "/dev/sdb (1 TiB, X), /dev/sdc (1 TiB, X), /dev/sdd (1 TiB, X)");
	a.answer = R0_ANSWER_WORTH;
	a.build_members = 2;
	snprintf(a.build, sizeof(a.build), "a 3rd drive adds 1.06x");
	snprintf(a.verdict, sizeof(a.verdict), "RAID0 of these 3 drives: worth it with 2 of them.");
	cr_assert_eq(r0_advice_of(&a, &v), 0);
	cr_expect_str_eq(v.action, "Build: md RAID0 of 2 drives, 64K chunk; a 3rd drive adds 1.06x.");
	cr_expect_str_eq(v.mdadm, "mdadm --create /dev/md0 --level=0 --chunk=64 --raid-devices=2 /dev/sdb /dev/sdc");
	cr_assert_eq(r0_first_screen_text(&a, NULL, NULL, text, sizeof(text)), 0);
	cr_expect_str_eq(text, "RAID0 of these 3 drives: worth it with 2 of them.\n"
			       "Build: md RAID0 of 2 drives, 64K chunk; a 3rd drive adds 1.06x.\n");
	/* the three questions, then a stored analysis other code made, one a line; "" says nothing */
	cr_assert_eq(r0_first_screen_text(&a, "TRIM: md raid0 PASS.", "The analysis stored ...", text, sizeof(text)), 0);
	cr_expect_str_eq(text, "RAID0 of these 3 drives: worth it with 2 of them.\n"
			       "Build: md RAID0 of 2 drives, 64K chunk; a 3rd drive adds 1.06x.\n"
			       "TRIM: md raid0 PASS.\n"
			       "The analysis stored ...\n");
	cr_assert_eq(r0_first_screen_text(&a, "", "The analysis stored ...", text, sizeof(text)), 0);
	cr_expect_str_eq(text, "RAID0 of these 3 drives: worth it with 2 of them.\n"
			       "Build: md RAID0 of 2 drives, 64K chunk; a 3rd drive adds 1.06x.\n"
			       "The analysis stored ...\n");
	cr_expect_eq(r0_first_screen_text(&a, "TRIM: md raid0 PASS.", NULL, text, 120), -ENOSPC);
	a.answer = R0_ANSWER_NOT;
	a.build[0] = '\0';
	cr_assert_eq(r0_advice_of(&a, &v), 0);
	cr_expect(!strncmp(v.action, "Keep one drive: ", 16), "%s", v.action);
	/* too few repeats: no answer stronger than a guess */
	a.answer = R0_ANSWER_WORTH;
	a.indicative = true;
	cr_assert_eq(r0_advice_of(&a, &v), 0);
	cr_expect(!strncmp(v.action, "Indicative only: ", 17), "%s", v.action);
	cr_expect_eq(r0_first_screen_text(&a, NULL, NULL, text, 8), -ENOSPC);
	/* no pick: the headline alone */
	a.has_choice = false;
	cr_assert_eq(r0_first_screen_text(&a, NULL, NULL, text, sizeof(text)), 0);
	cr_expect_str_eq(text, "RAID0 of these 3 drives: worth it with 2 of them.\n");
}
