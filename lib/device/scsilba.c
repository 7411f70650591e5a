// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * GET LBA STATUS through SG_IO: the drive's own account of which blocks it
 * still maps. Where a SCSI drive promises no value for a discarded block
 * (LBPRZ 0), reading the block back proves nothing; this answer does.
 * The kernel has no other interface for it (sd sends no GET LBA STATUS).
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include <scsi/sg.h>

#include "r0/scsilba.h"

enum {
	SERVICE_ACTION_IN_16 = 0x9e,
	GET_LBA_STATUS = 0x12,
	STATUS_CHECK_CONDITION = 0x02,
	SENSE_ILLEGAL_REQUEST = 0x05,
	DRIVER_SENSE = 0x08,    /* sg_io_hdr driver_status: sense data came back */
	HEADER = 8,             /* parameter data length (4), reserved (4) */
	DESCRIPTOR = 16,        /* LBA (8), number of blocks (4), status (1), reserved (3) */
	MAX_DESCRIPTORS = 255,
};

static void put_be(unsigned char *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
}

static uint64_t get_be(const unsigned char *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

/* The sense key of fixed (70h/71h) or descriptor (72h/73h) format sense data. */
static unsigned sense_key(const unsigned char *s, unsigned len)
{
	if (len >= 3 && ((s[0] & 0x7f) == 0x70 || (s[0] & 0x7f) == 0x71))
		return s[2] & 0x0f;
	if (len >= 2 && ((s[0] & 0x7f) == 0x72 || (s[0] & 0x7f) == 0x73))
		return s[1] & 0x0f;
	return 0;
}

int r0_lba_status_parse(const unsigned char *buf, size_t len, uint64_t lba, uint64_t end, unsigned spb,
			struct r0_lba_status *st, uint64_t *next)
{
	uint64_t got = len >= 4 ? get_be(buf, 4) + 4 : 0;   /* the length counts the bytes after itself */

	if (got > len)
		got = len;   /* more than fitted: the next ask goes on from *NEXT */
	*next = lba;
	for (uint64_t o = HEADER; o + DESCRIPTOR <= got && *next < end; o += DESCRIPTOR) {
		uint64_t a = get_be(buf + o, 8), b = a + get_be(buf + o + 8, 4);
		unsigned status = buf[o + 12] & 0x0f;

		if (b <= *next || a > *next)
			continue;   /* before what was asked, or after a gap: asked again from *NEXT */
		if (b > end)
			b = end;
		*(status == 0 ? &st->mapped : status <= 2 ? &st->deallocated : &st->other) += (b - *next) * spb;
		*next = b;
	}
	return *next > lba ? 0 : -EIO;   /* nothing about LBA itself: no progress to make */
}

/* One command from block LBA; what it answers up to END into *ST, *NEXT the first block not covered. */
static int ask(int fd, uint64_t lba, uint64_t end, unsigned spb, struct r0_lba_status *st, uint64_t *next)
{
	unsigned char cdb[16] = { SERVICE_ACTION_IN_16, GET_LBA_STATUS }, sense[64];
	unsigned char buf[HEADER + DESCRIPTOR * MAX_DESCRIPTORS];
	struct sg_io_hdr h = {
		.interface_id = 'S',
		.dxfer_direction = SG_DXFER_FROM_DEV,
		.cmd_len = sizeof(cdb),
		.mx_sb_len = sizeof(sense),
		.dxfer_len = sizeof(buf),
		.dxferp = buf,
		.cmdp = cdb,
		.sbp = sense,
		.timeout = 30000,
	};

	put_be(cdb + 2, lba, 8);
	put_be(cdb + 10, sizeof(buf), 4);
	memset(buf, 0, sizeof(buf));
	if (ioctl(fd, SG_IO, &h) < 0)
		return errno == ENOTTY || errno == EINVAL ? -EOPNOTSUPP : -errno;
	if (h.status == STATUS_CHECK_CONDITION && sense_key(sense, h.sb_len_wr) == SENSE_ILLEGAL_REQUEST)
		return -EOPNOTSUPP;
	if (h.status || h.host_status || (h.driver_status & ~DRIVER_SENSE))
		return -EIO;
	return r0_lba_status_parse(buf, sizeof(buf) - (size_t)(h.resid > 0 ? h.resid : 0), lba, end, spb,
				   st, next);
}

int r0_scsi_lba_status(int fd, uint64_t start, uint64_t n, unsigned lb_bytes, struct r0_lba_status *st)
{
	unsigned spb = lb_bytes / 512;
	uint64_t lba, end;
	int err = 0;

	if (!spb || lb_bytes % 512 || start % spb || n % spb)
		return -EINVAL;
	lba = start / spb;
	end = (start + n) / spb;
	while (lba < end && !(err = ask(fd, lba, end, spb, st, &lba)))
		;
	return err;
}
