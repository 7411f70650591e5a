// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NVMe Identify Namespace through libnvme (the library under nvme-cli),
 * for DLFEAT: no sysfs attribute exposes it, and the kernel keeps only
 * whether Write Zeroes may deallocate, not what a read returns.
 */
#include <errno.h>

#include <libnvme.h>

#include "nvmeid.h"

int r0_nvme_dlfeat(int fd, uint8_t *read_behaviour)
{
	struct nvme_id_ns ns;
	__u32 nsid;
	int rc;

	if (nvme_get_nsid(fd, &nsid) < 0)
		return errno ? -errno : -ENOTTY;
	rc = nvme_identify_ns(fd, nsid, &ns);
	if (rc < 0)
		return errno ? -errno : -EIO;
	if (rc > 0)
		return -EIO;   /* an NVMe status from the controller */
	*read_behaviour = ns.dlfeat & NVME_NS_DLFEAT_RB;
	return 0;
}
