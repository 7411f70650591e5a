/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib/trim's own: what a bottom device promises a read after discard returns. */
#ifndef R0_TRIM_PROMISE_H
#define R0_TRIM_PROMISE_H

#include "r0/probe.h"
#include "r0/trimcheck.h"

/*
 * Sets M's reads and reads_why for the bottom device D: null_blk through
 * configfs, NVMe DLFEAT through Identify Namespace (no sysfs file has it),
 * SCSI and libata's SATA translation through the logical block provisioning
 * VPD page (SBC-4 B2h, byte 5 bits 4:2: LBPRZ).
 */
void r0_trim_reads_after_discard(const struct r0_device *d, struct r0_trim_member *m);

#endif
