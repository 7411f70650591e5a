/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What an NVMe namespace promises a read of a deallocated block returns. */
#ifndef R0_NVMEID_H
#define R0_NVMEID_H

#include <stdint.h>

/*
 * Sends Identify Namespace (CNS 0) for the namespace open on FD (a
 * /dev/nvmeXnY node, read-only will do; needs CAP_SYS_ADMIN) and puts its
 * DLFEAT byte's read behaviour, bits 2:0, in *READ_BEHAVIOUR: 0 not
 * reported, 1 zeroes, 2 0xff (NVMe base specification, Identify Namespace
 * byte 33). 0; -ENOTTY when FD is no NVMe namespace; -EIO when the
 * controller answered with an error status; other -errno.
 */
int r0_nvme_dlfeat(int fd, uint8_t *read_behaviour);

#endif
