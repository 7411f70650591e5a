/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a SCSI drive says about its own blocks after a discard: GET LBA STATUS. */
#ifndef R0_SCSILBA_H
#define R0_SCSILBA_H

#include <stddef.h>
#include <stdint.h>

/* The provisioning status of a range, in 512-byte sectors. */
struct r0_lba_status {
	uint64_t mapped;        /* status 0: the drive still maps them */
	uint64_t deallocated;   /* status 1 (deallocated) or 2 (anchored): no data kept */
	uint64_t other;         /* a status SBC-4 does not define */
};

/*
 * Sends GET LBA STATUS (SBC-4, SERVICE ACTION IN(16), service action 12h)
 * through SG_IO on FD (a whole SCSI disk, opened read-only; needs
 * CAP_SYS_RAWIO) for sectors [START, START + N) of a disk with logical
 * blocks of LB_BYTES, and adds what it answers to *ST. It reads no data
 * and changes nothing. 0; -EOPNOTSUPP when the device answers no GET LBA
 * STATUS (not SCSI, or ILLEGAL REQUEST: libata and many drives); -EINVAL
 * when START or N is not whole logical blocks; -EIO on another error.
 */
int r0_scsi_lba_status(int fd, uint64_t start, uint64_t n, unsigned lb_bytes, struct r0_lba_status *st);

/*
 * The answer's parameter data BUF (LEN bytes) to a GET LBA STATUS from
 * block LBA: the blocks from LBA on, up to END, that its descriptors cover
 * without a gap, added to *ST in sectors (SPB a block's), and in *NEXT the
 * first block not covered. 0; -EIO when nothing covers LBA itself.
 */
int r0_lba_status_parse(const unsigned char *buf, size_t len, uint64_t lba, uint64_t end, unsigned spb,
			struct r0_lba_status *st, uint64_t *next);

#endif
