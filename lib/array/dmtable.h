/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private: the live table of any dm device, read through libdevmapper (dm.c). */
#ifndef R0_DMTABLE_H
#define R0_DMTABLE_H

#include <stdint.h>
#include <sys/types.h>

struct r0_dm_target {
	uint64_t start_sector, length_sectors;
	char type[32];                /* "striped", "linear", "flakey" ... */
	char params[1024];            /* as `dmsetup table` prints them: devices as MAJ:MIN */
};

/*
 * Up to MAX targets of the live table of dm device DEVT (not only r0kit's)
 * into T and how many there are in *COUNT (may exceed MAX). 0; -ENODEV
 * when the kernel has no device-mapper; -ENOENT if DEVT is no dm device or
 * has no live table; other -errno.
 */
int r0_dm_table(dev_t devt, struct r0_dm_target *t, unsigned max, unsigned *count);

/* Sends MESSAGE to sector 0 of dm device DEVT's target (`dmsetup message DEV 0 MSG`). 0 or -errno. */
int r0_dm_message(dev_t devt, const char *message);

#endif
