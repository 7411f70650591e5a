/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Describe a block device: size, block sizes, queue and discard limits,
 * md/dm details, holders, partitions, mounts, I/O counters, signatures. */
#ifndef R0_PROBE_H
#define R0_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Sources. Device facts come from sysfs (Documentation/ABI/stable/sysfs-block,
 * Documentation/ABI/testing/sysfs-block), mounts from mountinfo
 * (proc(5): field 3 is "major:minor"), signatures from libblkid. Devices are
 * identified by device number (st_rdev), never by name, so every name and
 * symlink of one device gives the same answer.
 *
 * Memory. struct r0_device holds fixed-size name buffers plus malloc'ed
 * lists (holders, slaves, partitions, mounts); release them with
 * r0_device_free(). The r0_probe_* functions leave *out zeroed on failure,
 * so r0_device_free() is always safe after them.
 *
 * Numbers the kernel does not report (an attribute file is missing, as
 * nr_requests on bio-based md/dm queues, or not a number) are -1.
 */

/* Where to read from. NULL (the whole env or a member) means the real files. */
struct r0_probe_env {
	const char *sysfs_root;      /* NULL: "/sys" */
	const char *mountinfo_path;  /* NULL: "/proc/self/mountinfo" */
};

/* Kernel names fit in 32 bytes (DISK_NAME_LEN); longer ones are refused. */
#define R0_KNAME_LEN 32

struct r0_names {
	size_t count;
	char (*name)[R0_KNAME_LEN];  /* count kernel names in natural order (sda2 < sda10) */
};

struct r0_partition {
	char kname[R0_KNAME_LEN];    /* sda1, nvme0n1p2 */
	dev_t devt;
	unsigned number;             /* sysfs "partition" */
	uint64_t start_sectors;      /* 512-byte sectors from the start of the disk */
	uint64_t size_bytes;
	struct r0_names holders;     /* md/dm devices built on the partition */
};

struct r0_mount {
	char kname[R0_KNAME_LEN];    /* the probed device itself or one of its partitions */
	dev_t devt;
	char *mount_point;           /* octal escapes (\040) undone */
	char *fstype;                /* mountinfo's file system type, e.g. "ext4" */
};

struct r0_device {
	char kname[R0_KNAME_LEN];    /* nullb0, md127, md_r0-x, dm-0, sda1 */
	dev_t devt;
	bool is_partition;
	char parent[R0_KNAME_LEN];   /* partition: the whole disk's name; else "" */
	unsigned partition_number;   /* partition: sysfs "partition"; else 0 */
	int64_t start_sectors;       /* partition: sysfs "start" (512-byte units); else -1 */
	uint64_t size_bytes;         /* sysfs "size" x 512: that file is always in 512-byte sectors */
	int64_t read_only;           /* sysfs "ro": 1, 0 */
	int64_t removable;           /* sysfs "removable": 1, 0 */

	/* queue/ (a partition reports its disk's queue) */
	int64_t logical_block_size_bytes, physical_block_size_bytes;
	int64_t minimum_io_size_bytes, optimal_io_size_bytes;
	int64_t rotational;          /* 1, 0 */
	int64_t nr_requests;         /* request queue depth; -1 on bio-based md/dm */
	int64_t max_sectors_kib, max_hw_sectors_kib;   /* the kernel's max_sectors_kb: KiB */
	int64_t discard_granularity_bytes;
	int64_t discard_max_bytes;   /* 0: the device takes no discards */
	int64_t discard_max_hw_bytes;
	int64_t write_zeroes_max_bytes;
	int64_t discard_alignment_bytes;   /* disk- or partition-level "discard_alignment" */

	char model[64];              /* device/model (SCSI, NVMe), blanks trimmed; "" if none */
	char serial[64];             /* "serial" (virtio) or device/serial (NVMe); "" if none */

	bool is_md;                  /* has md/ */
	char md_level[16];           /* md/level: "raid0"; "" if not md */
	int64_t md_chunk_size_bytes; /* md/chunk_size */
	int64_t md_raid_disks;       /* md/raid_disks */
	int64_t md_layout;           /* md/layout, signed; -1 also when md reports none */
	bool is_dm;                  /* has dm/ */
	char dm_name[128];           /* dm/name (DM_NAME_LEN) */
	char dm_uuid[129];           /* dm/uuid (DM_UUID_LEN); "" if none */

	struct r0_names holders;     /* holders/: devices built on this one */
	struct r0_names slaves;      /* slaves/: devices this one is built on (md/dm members) */
	size_t nr_partitions;        /* a whole disk's partitions (subdirectories with "partition") */
	struct r0_partition *partitions;

	bool mounted;                /* this dev_t appears in mountinfo */
	bool partition_mounted;      /* one of its partitions does */
	size_t nr_mounts;            /* every such mountinfo line, this device's first */
	struct r0_mount *mounts;
};

/*
 * Describes the block device PATH (any name or symlink of it) from the
 * real /sys and /proc/self/mountinfo. Does not open the device.
 * Returns 0, -ENOENT (no such file), -ENOTBLK (not a block device),
 * -ENODEV (no sysfs entry for its device number), -ENOMEM, other -errno.
 */
int r0_probe_device(const char *path, struct r0_device *out);

/* As r0_probe_device() for device number DEVT, reading ENV's files (NULL: the real ones). */
int r0_probe_devt(dev_t devt, const struct r0_probe_env *env, struct r0_device *out);

/*
 * A /dev node of block device DEVT in PATH: /dev/block/MAJ:MIN (udev's
 * link), else /dev/KNAME as devtmpfs names it (a system without udev has no
 * /dev/block links); only a node of that very device. 0, -ENOENT or -errno.
 */
int r0_devt_node(dev_t devt, char *path, size_t len);

/* Frees DEV's lists and zeroes it. DEV may be NULL or already freed. */
void r0_device_free(struct r0_device *dev);

/*
 * True if DEV must not be written: it is mounted, one of its partitions is
 * mounted, it or one of its partitions has holders (md, dm). The first
 * reason goes to WHY ("mounted on /mnt", "its partition sda1 is mounted on
 * /boot", "held by md127", "its partition sda1 is held by dm-0"); WHY is ""
 * when it returns false. Uses only what the probe recorded: a device in use
 * as swap or opened exclusively by a program is caught by an O_EXCL open,
 * not here (see r0/safety.h).
 */
bool r0_device_is_busy(const struct r0_device *dev, char *why, size_t len);

/* HOLDER of r0_device_is_busy_beside: any holder is allowed (a thin pool's data device). */
#define R0_ANY_HOLDER "*"

/*
 * The same rules, except that DEV itself may be held by HOLDER (kernel
 * names, space-separated: the devices stacked on it; R0_ANY_HOLDER: by anything; NULL: by
 * nothing, as r0_device_is_busy), and that when HOLDER is one of DEV's
 * partitions (a stack built on the partition, as mdadm raid0 of sda2 and
 * sdb2), that partition's holders are the stack's, not another user's.
 */
bool r0_device_is_busy_beside(const struct r0_device *dev, const char *holder, char *why, size_t len);

/* Flags of r0_probe_list_disks(). */
#define R0_LIST_ALL 1u   /* also ram*, and devices of size 0 (unbound loop, unset zram) */

/*
 * The whole disks in ENV's sysfs block/ (partitions are not listed), in
 * natural name order. Without R0_LIST_ALL, ram* devices and devices of
 * size 0 are skipped. *devts is malloc'ed (free it; NULL if none).
 * 0 or -errno.
 */
int r0_probe_list_disks(const struct r0_probe_env *env, unsigned flags,
			dev_t **devts, size_t *count);

/*
 * Where DEVT is mounted per MOUNTINFO (NULL: /proc/self/mountinfo):
 * 1 and the first mount point in WHERE, 0 if not mounted, or -errno.
 */
int r0_devt_mounted(dev_t devt, const char *mountinfo, char *where, size_t len);

/*
 * A device's "stat" file (Documentation/block/stat.rst). Sector counts are
 * in 512-byte units whatever the block size. Kernels before 4.18 have 11
 * fields, before 5.5 15: nr_fields says how many were read, and fields
 * beyond it are 0 — so check nr_fields >= 15 before trusting discards.
 */
struct r0_blockstat {
	unsigned nr_fields;
	uint64_t reads, reads_merged, read_sectors, read_ticks_ms;             /* 1-4 */
	uint64_t writes, writes_merged, write_sectors, write_ticks_ms;         /* 5-8 */
	uint64_t in_flight, io_ticks_ms, time_in_queue_ms;                     /* 9-11 */
	uint64_t discards, discards_merged, discard_sectors, discard_ticks_ms; /* 12-15 */
	uint64_t flushes, flush_ticks_ms;                                      /* 16-17 */
};

/*
 * Parses one stat line into *OUT: 11 fields (before 4.18), 15 (discards,
 * before 5.5) or 17 (flushes; 6.12); later kernels' extra numeric fields
 * are ignored. 0, or -EINVAL for anything else (12-14 or 16 fields, a
 * sign, a non-number, trailing garbage, overflow); *OUT is zeroed then.
 */
int r0_blockstat_parse(const char *line, struct r0_blockstat *out);

/*
 * Reads the counters of the device or partition named KNAME (ENV's
 * sysfs class/block/KNAME/stat). 0, -ENOENT, -EINVAL (fewer than 11
 * numbers), other -errno. Usable alone: e.g. before and after a discard.
 */
int r0_read_stat(const char *kname, const struct r0_probe_env *env, struct r0_blockstat *out);

/* The same for device number DEVT (ENV's sysfs dev/block/MAJ:MIN/stat). */
int r0_read_stat_devt(dev_t devt, const struct r0_probe_env *env, struct r0_blockstat *out);

/* One superblock or partition table libblkid found. Longer values are truncated. */
struct r0_signature {
	char type[32];               /* TYPE (ext4, xfs, swap, linux_raid_member, LVM2_member) or PTTYPE (dos, gpt) */
	char usage[32];              /* "filesystem", "raid", "crypto", "other"; "partition table" */
	char uuid[64];               /* UUID or PTUUID; "" if none */
	char label[64];              /* LABEL; "" if none */
	uint64_t offset_bytes;       /* where its magic is (SBMAGIC_OFFSET, PTMAGIC_OFFSET) */
	bool is_partition_table;
	bool bad_checksum;           /* libblkid's SBBADCSUM: found, but its checksum is wrong */
};

/*
 * Every signature libblkid (superblocks and partition tables) finds on
 * PATH, a block device or a regular file (an image). PATH is opened
 * read-only without O_EXCL, so probing a busy device does not disturb it.
 * *sigs is malloc'ed (free it; NULL if none); *count may be 0.
 * 0 or -errno (-EACCES without permission to read the device).
 */
int r0_probe_signatures(const char *path, struct r0_signature **sigs, size_t *count);

/* The same on an open file descriptor (read from; offset not used). */
int r0_probe_signatures_fd(int fd, struct r0_signature **sigs, size_t *count);

/*
 * Erases the magic bytes of every signature libblkid finds on PATH whose
 * magic lies below BELOW_BYTES (0: anywhere), as wipefs --all does,
 * opened O_EXCL; *WIPED counts them. For a tool that made a file system
 * in a region for its own use and must not leave the device looking like
 * it holds one, nor touch what lies past the region. 0 or -errno.
 */
int r0_wipe_signatures(const char *path, uint64_t below_bytes, unsigned *wiped);

/* The first signature's type on FD into SIG ("" if none), for messages. 0 or -errno. */
int r0_probe_signature(int fd, char *sig, size_t len);

#endif
