/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The part of the ublk UAPI r0kit uses, copied from Linux 6.12
 * include/uapi/linux/ublk_cmd.h (the sandbox kernel). Debian 12's
 * linux-libc-dev (6.1) has no UBLK_U_* commands and older layouts
 * (struct ublksrv_ctrl_cmd with data[2], no owner_uid in the device
 * info), so r0kit carries its own copy; names are the kernel's with an
 * R0_ prefix so the two never clash. Layouts are unchanged from 6.12 to
 * mainline for everything here.
 */
#ifndef R0_UBLK_UAPI_H
#define R0_UBLK_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* control commands on /dev/ublk-control (ioctl-encoded, the 6.12 way) */
#define R0_UBLK_CMD_GET_DEV_INFO   0x02
#define R0_UBLK_CMD_ADD_DEV        0x04
#define R0_UBLK_CMD_DEL_DEV        0x05
#define R0_UBLK_CMD_START_DEV      0x06
#define R0_UBLK_CMD_STOP_DEV       0x07
#define R0_UBLK_CMD_SET_PARAMS     0x08

#define R0_UBLK_U_CMD_GET_DEV_INFO _IOR('u', R0_UBLK_CMD_GET_DEV_INFO, struct r0_ublksrv_ctrl_cmd)
#define R0_UBLK_U_CMD_ADD_DEV      _IOWR('u', R0_UBLK_CMD_ADD_DEV, struct r0_ublksrv_ctrl_cmd)
#define R0_UBLK_U_CMD_DEL_DEV      _IOWR('u', R0_UBLK_CMD_DEL_DEV, struct r0_ublksrv_ctrl_cmd)
#define R0_UBLK_U_CMD_START_DEV    _IOWR('u', R0_UBLK_CMD_START_DEV, struct r0_ublksrv_ctrl_cmd)
#define R0_UBLK_U_CMD_STOP_DEV     _IOWR('u', R0_UBLK_CMD_STOP_DEV, struct r0_ublksrv_ctrl_cmd)
#define R0_UBLK_U_CMD_SET_PARAMS   _IOWR('u', R0_UBLK_CMD_SET_PARAMS, struct r0_ublksrv_ctrl_cmd)

/* I/O commands on /dev/ublkcN */
#define R0_UBLK_U_IO_FETCH_REQ            _IOWR('u', 0x20, struct r0_ublksrv_io_cmd)
#define R0_UBLK_U_IO_COMMIT_AND_FETCH_REQ _IOWR('u', 0x21, struct r0_ublksrv_io_cmd)

#define R0_UBLK_IO_RES_OK        0
#define R0_UBLK_IO_RES_ABORT     (-ENODEV)   /* no more requests on this tag */

#define R0_UBLKSRV_CMD_BUF_OFFSET 0          /* mmap offset of the I/O descriptors */
#define R0_UBLK_MAX_QUEUE_DEPTH   4096

#define R0_UBLK_F_CMD_IOCTL_ENCODE (1ULL << 6)

#define R0_UBLK_IO_OP_READ         0
#define R0_UBLK_IO_OP_WRITE        1
#define R0_UBLK_IO_OP_FLUSH        2
#define R0_UBLK_IO_OP_DISCARD      3
#define R0_UBLK_IO_OP_WRITE_SAME   4
#define R0_UBLK_IO_OP_WRITE_ZEROES 5
#define R0_UBLK_IO_F_NOUNMAP       (1U << 15)

/* shipped in sqe->cmd of an IORING_OP_URING_CMD (needs IORING_SETUP_SQE128) */
struct r0_ublksrv_ctrl_cmd {
	__u32 dev_id;
	__u16 queue_id;    /* 0xffff unless the command is for a queue */
	__u16 len;         /* of the buffer at addr */
	__u64 addr;
	__u64 data[1];
	__u16 dev_path_len;
	__u16 pad;
	__u32 reserved;
};

struct r0_ublksrv_ctrl_dev_info {
	__u16 nr_hw_queues;
	__u16 queue_depth;
	__u16 state;
	__u16 pad0;
	__u32 max_io_buf_bytes;
	__u32 dev_id;
	__s32 ublksrv_pid;
	__u32 pad1;
	__u64 flags;
	__u64 ublksrv_flags;   /* for the server's own use: the driver keeps it */
	__u32 owner_uid;
	__u32 owner_gid;
	__u64 reserved1;
	__u64 reserved2;
};

/* one per tag, in the area mmap'ed from /dev/ublkcN (read-only) */
struct r0_ublksrv_io_desc {
	__u32 op_flags;        /* op: bits 0-7, flags: 8-31 */
	__u32 nr_sectors;
	__u64 start_sector;
	__u64 addr;
};

/* shipped in sqe->cmd of a FETCH / COMMIT_AND_FETCH (fits a 64-byte SQE) */
struct r0_ublksrv_io_cmd {
	__u16 q_id;
	__u16 tag;
	__s32 result;
	__u64 addr;
};

struct r0_ublk_param_basic {
	__u32 attrs;
	__u8 logical_bs_shift;
	__u8 physical_bs_shift;
	__u8 io_opt_shift;
	__u8 io_min_shift;
	__u32 max_sectors;
	__u32 chunk_sectors;
	__u64 dev_sectors;
	__u64 virt_boundary_mask;
};

struct r0_ublk_param_discard {
	__u32 discard_alignment;
	__u32 discard_granularity;
	__u32 max_discard_sectors;
	__u32 max_write_zeroes_sectors;
	__u16 max_discard_segments;
	__u16 reserved0;
};

#define R0_UBLK_PARAM_TYPE_BASIC   (1 << 0)
#define R0_UBLK_PARAM_TYPE_DISCARD (1 << 1)

/* the head of 6.12's struct ublk_params; len says how much of it is sent */
struct r0_ublk_params {
	__u32 len;
	__u32 types;
	struct r0_ublk_param_basic basic;
	struct r0_ublk_param_discard discard;
};

#endif
