// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a bottom device promises a read after discard returns (zeroes, ones
 * or nothing known), from the kernel and the device alone: trimpromise.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "r0/probe.h"
#include "nvmeid.h"
#include "sysfs.h"
#include "trimpromise.h"

static void promise(struct r0_trim_member *m, enum r0_discard_reads r, const char *fmt, unsigned v)
{
	m->reads = r;
	snprintf(m->reads_why, sizeof(m->reads_why), fmt, v);
}

void r0_trim_reads_after_discard(const struct r0_device *d, struct r0_trim_member *m)
{
	char path[PATH_MAX], vendor[16] = "";
	unsigned char vpd[64];
	uint64_t v;
	uint8_t rb;
	ssize_t n;
	int fd, err;
	bool ata;

	promise(m, R0_READS_UNKNOWN, "no promise the kernel reports", 0);
	if (d->discard_max_bytes <= 0) {
		promise(m, R0_READS_UNKNOWN, "takes no discards", 0);
		return;
	}
	if (r0_path(path, sizeof(path), "/sys/kernel/config/nullb/%s/memory_backed", d->kname) == 0 &&
	    r0_sysfs_read_u64(path, &v) == 0) {
		/* null_handle_discard frees the pages; reads of freed pages return zeroes */
		if (v == 1)
			promise(m, R0_READS_ZEROES, "null_blk memory-backed", 0);
		else
			promise(m, R0_READS_UNKNOWN, "null_blk keeps no data", 0);
		return;
	}
	if (strncmp(d->kname, "nvme", 4) == 0) {
		err = r0_devt_node(d->devt, path, sizeof(path));
		fd = err ? -1 : open(path, O_RDONLY | O_CLOEXEC);
		if (!err)
			err = fd < 0 ? -errno : r0_nvme_dlfeat(fd, &rb);
		if (fd >= 0)
			close(fd);
		if (err)
			promise(m, R0_READS_UNKNOWN, "NVMe Identify Namespace failed (errno %u): no promise read",
				(unsigned)-err);
		else if (rb == 1)
			promise(m, R0_READS_ZEROES, "NVMe DLFEAT=%u", rb);
		else if (rb == 2)
			promise(m, R0_READS_ONES, "NVMe DLFEAT=%u (0xff)", rb);
		else
			promise(m, R0_READS_UNKNOWN, "NVMe DLFEAT=%u: no promise", rb);
		return;
	}
	if (r0_path(path, sizeof(path), "/sys/dev/block/%u:%u/device/vendor", major(d->devt),
		    minor(d->devt)) == 0)
		r0_sysfs_read(path, vendor, sizeof(vendor));
	ata = strncmp(vendor, "ATA", 3) == 0;   /* libata's SCSI translation */
	if (r0_path(path, sizeof(path), "/sys/dev/block/%u:%u/device/vpd_pgb2", major(d->devt),
		    minor(d->devt)))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, vpd, sizeof(vpd));
	close(fd);
	if (n < 6 || vpd[1] != 0xb2)
		return;
	v = (vpd[5] >> 2) & 7;
	if (v & 1)   /* SBC-4: xx1b, every read of an unmapped block returns zeroes */
		promise(m, R0_READS_ZEROES, ata ? "SATA via libata, LBPRZ=%u" : "SCSI LBPRZ=%u", (unsigned)v);
	else if (v == 2 && strcmp(d->model, "scsi_debug") == 0)
		promise(m, R0_READS_ONES, "SCSI LBPRZ=%u (0xff)", (unsigned)v);   /* its pattern */
	else if (v == 2)
		promise(m, R0_READS_UNKNOWN, "SCSI LBPRZ=%u: a format-defined pattern, not known here",
			(unsigned)v);
	else if (ata)
		promise(m, R0_READS_UNKNOWN, "SATA via libata, LBPRZ=%u: no zeroes-after-TRIM promise",
			(unsigned)v);
	else
		promise(m, R0_READS_UNKNOWN, "SCSI LBPRZ=%u: no promise", (unsigned)v);
}
