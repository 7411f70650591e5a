// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of r0/probe.h on a fake sysfs tree and mountinfo, and of libblkid probing on images. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "r0/probe.h"

static char root[256];           /* the fake tree: ROOT/sys and ROOT/mountinfo */
static char sysroot[300];
static char mountinfo[300];
static struct r0_probe_env env;

/* mkdir -p of PATH's parent */
static void mkparents(const char *path)
{
	char buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			cr_assert_fail("mkdir %s: %s", buf, strerror(errno));
		*p = '/';
	}
}

/* PATH = SYSROOT/REL (REL from FMT and AP), with its parent directories made. */
static void sys_path(char *path, size_t len, const char *fmt, va_list ap)
{
	char rel[1024];

	vsnprintf(rel, sizeof(rel), fmt, ap);
	snprintf(path, len, "%s/%s", sysroot, rel);
	mkparents(path);
}

/* Writes ROOT/sys/REL (the format gives REL), content CONTENT. */
static void put(const char *content, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(const char *content, const char *fmt, ...)
{
	char path[2048];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	sys_path(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "w");
	cr_assert_not_null(f, "create %s", path);
	fputs(content, f);
	fclose(f);
}

static void dir(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void dir(const char *fmt, ...)
{
	char path[2048];
	va_list ap;

	va_start(ap, fmt);
	sys_path(path, sizeof(path) - 1, fmt, ap);
	va_end(ap);
	strcat(path, "/");   /* mkparents makes every component before a '/' */
	mkparents(path);
}

static void link_at(const char *target, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void link_at(const char *target, const char *fmt, ...)
{
	char path[2048];
	va_list ap;

	va_start(ap, fmt);
	sys_path(path, sizeof(path), fmt, ap);
	va_end(ap);
	cr_assert_eq(symlink(target, path), 0, "symlink %s: %s", path, strerror(errno));
}

static void write_mountinfo(const char *text)
{
	FILE *f = fopen(mountinfo, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

static const char stat17[] =
	"    1000      20   80000     300     2000      30   160000     400"
	"        2     500      700      7       1    4096      9       11       13\n";

/* A whole disk as the kernel shows it: /sys/dev/block/MAJ:MIN -> ../../block/NAME */
static void add_disk(const char *name, unsigned maj, unsigned min, unsigned long long sectors)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%u:%u\n", maj, min);
	put(buf, "block/%s/dev", name);
	snprintf(buf, sizeof(buf), "%llu\n", sectors);
	put(buf, "block/%s/size", name);
	put("0\n", "block/%s/ro", name);
	put("0\n", "block/%s/removable", name);
	put("0\n", "block/%s/discard_alignment", name);
	put(stat17, "block/%s/stat", name);
	put("512\n", "block/%s/queue/logical_block_size", name);
	put("4096\n", "block/%s/queue/physical_block_size", name);
	put("4096\n", "block/%s/queue/minimum_io_size", name);
	put("0\n", "block/%s/queue/optimal_io_size", name);
	put("0\n", "block/%s/queue/rotational", name);
	put("64\n", "block/%s/queue/nr_requests", name);
	put("1280\n", "block/%s/queue/max_sectors_kb", name);
	put("32767\n", "block/%s/queue/max_hw_sectors_kb", name);
	put("4096\n", "block/%s/queue/discard_granularity", name);
	put("2147450880\n", "block/%s/queue/discard_max_bytes", name);
	put("2147450880\n", "block/%s/queue/discard_max_hw_bytes", name);
	put("33553920\n", "block/%s/queue/write_zeroes_max_bytes", name);
	dir("block/%s/holders", name);
	dir("block/%s/slaves", name);
	snprintf(buf, sizeof(buf), "../../block/%s", name);
	link_at(buf, "dev/block/%u:%u", maj, min);
	link_at(buf, "class/block/%s", name);
}

static void add_part(const char *disk, const char *name, unsigned maj, unsigned min,
		     unsigned number, unsigned long long start, unsigned long long sectors)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%u:%u\n", maj, min);
	put(buf, "block/%s/%s/dev", disk, name);
	snprintf(buf, sizeof(buf), "%u\n", number);
	put(buf, "block/%s/%s/partition", disk, name);
	snprintf(buf, sizeof(buf), "%llu\n", start);
	put(buf, "block/%s/%s/start", disk, name);
	snprintf(buf, sizeof(buf), "%llu\n", sectors);
	put(buf, "block/%s/%s/size", disk, name);
	put("0\n", "block/%s/%s/ro", disk, name);
	put("512\n", "block/%s/%s/discard_alignment", disk, name);
	put(stat17, "block/%s/%s/stat", disk, name);
	dir("block/%s/%s/holders", disk, name);
	snprintf(buf, sizeof(buf), "../../block/%s/%s", disk, name);
	link_at(buf, "dev/block/%u:%u", maj, min);
	link_at(buf, "class/block/%s", name);
}

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/r0probe-test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	cr_assert_not_null(mkdtemp(root), "mkdtemp: %s", strerror(errno));
	snprintf(sysroot, sizeof(sysroot), "%s/sys", root);
	snprintf(mountinfo, sizeof(mountinfo), "%s/mountinfo", root);
	env = (struct r0_probe_env){ .sysfs_root = sysroot, .mountinfo_path = mountinfo };

	/* sda: an SSD with three partitions, one mounted at /boot and one in md127 */
	add_disk("sda", 8, 0, 1953525168ULL);
	put("  Samsung SSD 860   \n", "block/sda/device/model");
	add_part("sda", "sda1", 8, 1, 1, 2048, 1048576);
	add_part("sda", "sda2", 8, 2, 2, 1050624, 2097152);
	add_part("sda", "sda10", 8, 10, 10, 3147776, 2048);
	link_at("../../../../md127", "block/sda/sda2/holders/md127");
	/* sdb: a whole disk in md127 */
	add_disk("sdb", 8, 16, 1953525168ULL);
	link_at("../../md127", "block/sdb/holders/md127");
	/* md127: raid0 over sda2 and sdb, bio-based: no nr_requests */
	add_disk("md127", 9, 127, 2 * 1953525168ULL);
	put("raid0\n", "block/md127/md/level");
	put("65536\n", "block/md127/md/chunk_size");
	put("2\n", "block/md127/md/raid_disks");
	put("-1\n", "block/md127/md/layout");
	link_at("../../sdb", "block/md127/slaves/sdb");
	link_at("../../sda/sda2", "block/md127/slaves/sda2");
	/* dm-0: a device-mapper device, mounted twice (a bind mount) at a path with a space */
	add_disk("dm-0", 253, 0, 2048);
	put("r0-fast\n", "block/dm-0/dm/name");
	put("R0KIT-fast\n", "block/dm-0/dm/uuid");

	write_mountinfo(
		"22 27 0:21 / /proc rw,relatime - proc proc rw\n"
		"27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		"this line is not mountinfo\n"
		"31 27 8:1 / /boot rw,relatime shared:7 master:2 - vfat /dev/sda1 rw\n"
		"40 27 253:0 / /mnt/my\\040data rw - xfs /dev/mapper/r0-fast rw\n"
		"41 27 253:0 /sub /srv rw - xfs /dev/mapper/r0-fast rw\n");
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

static void teardown(void)
{
	if (root[0])
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(probe, .init = setup, .fini = teardown);

Test(probe, whole_disk_limits_and_model)
{
	struct r0_device d;

	cr_assert_eq(r0_probe_devt(makedev(8, 16), &env, &d), 0);
	cr_expect_str_eq(d.kname, "sdb");
	cr_expect_eq(d.devt, makedev(8, 16));
	cr_expect_not(d.is_partition);
	cr_expect_str_eq(d.parent, "");
	cr_expect_eq(d.start_sectors, -1);
	cr_expect_eq(d.size_bytes, 1953525168ULL * 512, "sysfs size is in 512-byte sectors");
	cr_expect_eq(d.logical_block_size_bytes, 512);
	cr_expect_eq(d.physical_block_size_bytes, 4096);
	cr_expect_eq(d.minimum_io_size_bytes, 4096);
	cr_expect_eq(d.optimal_io_size_bytes, 0);
	cr_expect_eq(d.rotational, 0);
	cr_expect_eq(d.nr_requests, 64);
	cr_expect_eq(d.max_sectors_kib, 1280);
	cr_expect_eq(d.max_hw_sectors_kib, 32767);
	cr_expect_eq(d.discard_granularity_bytes, 4096);
	cr_expect_eq(d.discard_max_bytes, 2147450880);
	cr_expect_eq(d.discard_max_hw_bytes, 2147450880);
	cr_expect_eq(d.write_zeroes_max_bytes, 33553920);
	cr_expect_eq(d.discard_alignment_bytes, 0);
	cr_expect_eq(d.read_only, 0);
	cr_expect_str_eq(d.model, "", "sdb has no device/model");
	cr_expect_not(d.is_md);
	cr_expect_not(d.is_dm);
	cr_expect_eq(d.md_chunk_size_bytes, -1);
	cr_expect_eq(d.nr_partitions, 0);
	cr_expect_not(d.mounted);
	cr_expect_eq(d.nr_mounts, 0);
	r0_device_free(&d);

	cr_assert_eq(r0_probe_devt(makedev(8, 0), &env, &d), 0);
	cr_expect_str_eq(d.model, "Samsung SSD 860", "blanks trimmed at both ends");
	r0_device_free(&d);
}

Test(probe, missing_and_bad_attributes_are_minus_one)
{
	struct r0_device d;

	put("none\n", "block/sdb/queue/discard_max_bytes");
	put("-5\n", "block/sdb/queue/discard_granularity");
	put("", "block/sdb/queue/write_zeroes_max_bytes");
	cr_assert_eq(unlink(strcat(strcpy((char[2048]){ 0 }, sysroot), "/block/sdb/queue/rotational")), 0);
	cr_assert_eq(r0_probe_devt(makedev(8, 16), &env, &d), 0);
	cr_expect_eq(d.discard_max_bytes, -1);
	cr_expect_eq(d.discard_granularity_bytes, -1);
	cr_expect_eq(d.write_zeroes_max_bytes, -1);
	cr_expect_eq(d.rotational, -1);
	cr_expect_eq(d.logical_block_size_bytes, 512);
	r0_device_free(&d);
}

Test(probe, partitions_of_a_disk_in_natural_order)
{
	struct r0_device d;

	cr_assert_eq(r0_probe_devt(makedev(8, 0), &env, &d), 0);
	cr_assert_eq(d.nr_partitions, 3);
	cr_expect_str_eq(d.partitions[0].kname, "sda1");
	cr_expect_str_eq(d.partitions[1].kname, "sda2");
	cr_expect_str_eq(d.partitions[2].kname, "sda10", "sda10 sorts after sda2");
	cr_expect_eq(d.partitions[0].devt, makedev(8, 1));
	cr_expect_eq(d.partitions[0].number, 1);
	cr_expect_eq(d.partitions[0].start_sectors, 2048);
	cr_expect_eq(d.partitions[0].size_bytes, 1048576ULL * 512);
	cr_expect_eq(d.partitions[0].holders.count, 0);
	cr_assert_eq(d.partitions[1].holders.count, 1);
	cr_expect_str_eq(d.partitions[1].holders.name[0], "md127");
	cr_expect_eq(d.partitions[2].number, 10);
	r0_device_free(&d);
}

Test(probe, a_partition_knows_its_disk)
{
	struct r0_device d;

	cr_assert_eq(r0_probe_devt(makedev(8, 2), &env, &d), 0);
	cr_expect_str_eq(d.kname, "sda2");
	cr_expect(d.is_partition);
	cr_expect_str_eq(d.parent, "sda");
	cr_expect_eq(d.partition_number, 2);
	cr_expect_eq(d.start_sectors, 1050624);
	cr_expect_eq(d.size_bytes, 2097152ULL * 512);
	cr_expect_eq(d.discard_alignment_bytes, 512, "the partition's own discard_alignment");
	cr_expect_eq(d.logical_block_size_bytes, 512, "the disk's queue");
	cr_expect_eq(d.discard_max_bytes, 2147450880);
	cr_expect_eq(d.nr_requests, 64);
	cr_expect_str_eq(d.model, "Samsung SSD 860", "the disk's model");
	cr_expect_eq(d.nr_partitions, 0);
	cr_assert_eq(d.holders.count, 1);
	cr_expect_str_eq(d.holders.name[0], "md127");
	r0_device_free(&d);
}

Test(probe, md_array_and_its_members)
{
	struct r0_device d;
	char why[128];

	cr_assert_eq(r0_probe_devt(makedev(9, 127), &env, &d), 0);
	cr_expect_str_eq(d.kname, "md127");
	cr_expect(d.is_md);
	cr_expect_str_eq(d.md_level, "raid0");
	cr_expect_eq(d.md_chunk_size_bytes, 65536);
	cr_expect_eq(d.md_raid_disks, 2);
	cr_expect_eq(d.md_layout, -1);
	cr_assert_eq(d.slaves.count, 2);
	cr_expect_str_eq(d.slaves.name[0], "sda2");
	cr_expect_str_eq(d.slaves.name[1], "sdb");
	cr_expect_eq(d.holders.count, 0);
	cr_expect_not(r0_device_is_busy(&d, why, sizeof(why)));
	cr_expect_str_eq(why, "");
	r0_device_free(&d);

	/* bio-based queue: no nr_requests file */
	put("4\n", "block/md127/md/layout");
	cr_assert_eq(unlink(strcat(strcpy((char[2048]){ 0 }, sysroot), "/block/md127/queue/nr_requests")), 0);
	cr_assert_eq(r0_probe_devt(makedev(9, 127), &env, &d), 0);
	cr_expect_eq(d.nr_requests, -1);
	cr_expect_eq(d.md_layout, 4);
	r0_device_free(&d);

	cr_assert_eq(r0_probe_devt(makedev(8, 16), &env, &d), 0);
	cr_assert_eq(d.holders.count, 1);
	cr_expect_str_eq(d.holders.name[0], "md127");
	cr_expect(r0_device_is_busy(&d, why, sizeof(why)));
	cr_expect_str_eq(why, "held by md127");
	/* a member under a stack may be held by the layer above it, and only by it */
	cr_expect_not(r0_device_is_busy_beside(&d, "md127", why, sizeof(why)));
	cr_expect_not(r0_device_is_busy_beside(&d, R0_ANY_HOLDER, why, sizeof(why)));
	cr_expect(r0_device_is_busy_beside(&d, "dm-0", why, sizeof(why)));
	cr_expect_str_eq(why, "also held by md127");
	r0_device_free(&d);
}

Test(probe, dm_device_mounted_twice)
{
	struct r0_device d;
	char why[128];

	cr_assert_eq(r0_probe_devt(makedev(253, 0), &env, &d), 0);
	cr_expect(d.is_dm);
	cr_expect_str_eq(d.dm_name, "r0-fast");
	cr_expect_str_eq(d.dm_uuid, "R0KIT-fast");
	cr_expect(d.mounted);
	cr_expect_not(d.partition_mounted);
	cr_assert_eq(d.nr_mounts, 2);
	cr_expect_str_eq(d.mounts[0].mount_point, "/mnt/my data", "\\040 is a space");
	cr_expect_str_eq(d.mounts[0].fstype, "xfs");
	cr_expect_str_eq(d.mounts[0].kname, "dm-0");
	cr_expect_str_eq(d.mounts[1].mount_point, "/srv");
	cr_expect(r0_device_is_busy(&d, why, sizeof(why)));
	cr_expect_str_eq(why, "mounted on /mnt/my data");
	r0_device_free(&d);
}

Test(probe, mounted_partition_makes_the_disk_busy)
{
	struct r0_device d;
	char why[128];

	cr_assert_eq(r0_probe_devt(makedev(8, 0), &env, &d), 0);
	cr_expect_not(d.mounted);
	cr_expect(d.partition_mounted);
	cr_assert_eq(d.nr_mounts, 1);
	cr_expect_str_eq(d.mounts[0].kname, "sda1");
	cr_expect_eq(d.mounts[0].devt, makedev(8, 1));
	cr_expect_str_eq(d.mounts[0].mount_point, "/boot");
	cr_expect_str_eq(d.mounts[0].fstype, "vfat", "fstype after optional fields");
	cr_expect(r0_device_is_busy(&d, why, sizeof(why)));
	cr_expect_str_eq(why, "its partition sda1 is mounted on /boot");
	r0_device_free(&d);

	/* unmounted, the held partition still makes it busy */
	write_mountinfo("27 1 254:0 / / rw - ext4 /dev/vda rw\n");
	cr_assert_eq(r0_probe_devt(makedev(8, 0), &env, &d), 0);
	cr_expect_not(d.partition_mounted);
	cr_expect(r0_device_is_busy(&d, why, sizeof(why)));
	cr_expect_str_eq(why, "its partition sda2 is held by md127");
	r0_device_free(&d);

	cr_assert_eq(r0_probe_devt(makedev(8, 1), &env, &d), 0);
	cr_expect_not(r0_device_is_busy(&d, why, sizeof(why)));
	r0_device_free(&d);
}

Test(probe, devt_mounted)
{
	char where[64] = "x";

	cr_expect_eq(r0_devt_mounted(makedev(8, 1), mountinfo, where, sizeof(where)), 1);
	cr_expect_str_eq(where, "/boot");
	cr_expect_eq(r0_devt_mounted(makedev(253, 0), mountinfo, where, sizeof(where)), 1);
	cr_expect_str_eq(where, "/mnt/my data");
	cr_expect_eq(r0_devt_mounted(makedev(8, 0), mountinfo, where, sizeof(where)), 0);
	cr_expect_eq(r0_devt_mounted(makedev(8, 10), mountinfo, where, sizeof(where)), 0,
		     "8:10 is not 8:1");
	cr_expect_eq(r0_devt_mounted(makedev(8, 1), "/nonexistent/mountinfo", where, sizeof(where)),
		     -ENOENT);
}

/* libmount reads the file: a line it cannot parse is skipped, the rest are read;
 * optional fields (shared:, master:) and a bind mount's root are no trouble */
Test(probe, devt_mounted_past_a_bad_line)
{
	char path[] = "/tmp/r0-mountinfo-XXXXXX", where[64] = "";
	int fd = mkstemp(path);
	const char text[] = "21 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw\n"
			    "this line is not mountinfo\n"
			    "40 21 8:3 /srv/sub /mnt/bind rw shared:5 master:2 - xfs /dev/sda3 rw\n";

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	cr_expect_eq(r0_devt_mounted(makedev(8, 3), path, where, sizeof(where)), 1);
	cr_expect_str_eq(where, "/mnt/bind");
	cr_expect_eq(r0_devt_mounted(makedev(8, 2), path, where, sizeof(where)), 1);
	cr_expect_str_eq(where, "/");
	unlink(path);
}

Test(probe, unreadable_mountinfo_fails_the_probe)
{
	struct r0_device d;
	struct r0_probe_env bad = { .sysfs_root = sysroot, .mountinfo_path = "/nonexistent/mountinfo" };

	cr_expect_eq(r0_probe_devt(makedev(8, 0), &bad, &d), -ENOENT);
	cr_expect_eq(d.nr_partitions, 0, "left zeroed");
	cr_expect_null(d.partitions);
	r0_device_free(&d);
}

Test(probe, unknown_devices)
{
	struct r0_device d;
	char longname[64];

	cr_expect_eq(r0_probe_devt(makedev(8, 99), &env, &d), -ENODEV);
	cr_expect_str_eq(d.kname, "");
	cr_expect_eq(r0_probe_device("/nonexistent/dev", &d), -ENOENT);
	cr_expect_eq(r0_probe_device(mountinfo, &d), -ENOTBLK, "a regular file");
	cr_expect_eq(r0_probe_device("/dev/null", &d), -ENOTBLK, "a character device");

	/* a kernel name past DISK_NAME_LEN */
	memset(longname, 'x', 40);
	longname[40] = '\0';
	add_disk(longname, 7, 9, 8);
	cr_expect_eq(r0_probe_devt(makedev(7, 9), &env, &d), -ENAMETOOLONG);
	r0_device_free(&d);
	r0_device_free(NULL);
}

Test(probe, list_disks)
{
	dev_t *v;
	size_t n;

	add_disk("nullb10", 250, 10, 2048);
	add_disk("nullb2", 250, 2, 2048);
	add_disk("ram0", 1, 0, 8192);
	add_disk("loop0", 7, 0, 0);
	add_disk("zram0", 252, 0, 0);
	cr_assert_eq(r0_probe_list_disks(&env, 0, &v, &n), 0);
	cr_assert_eq(n, 6, "not ram0, nor the empty loop0 and zram0");
	cr_expect_eq(v[0], makedev(253, 0));
	{
		static const char *const want[] = { "dm-0", "md127", "nullb2", "nullb10", "sda", "sdb" };
		for (size_t i = 0; i < n && i < 6; i++) {
			struct r0_device d;
			cr_assert_eq(r0_probe_devt(v[i], &env, &d), 0);
			cr_expect_str_eq(d.kname, want[i], "position %zu", i);
			r0_device_free(&d);
		}
	}
	free(v);

	cr_assert_eq(r0_probe_list_disks(&env, R0_LIST_ALL, &v, &n), 0);
	cr_expect_eq(n, 9, "ram0, loop0, zram0 too");
	free(v);
}

Test(probe, stat_fields)
{
	struct r0_blockstat s;

	cr_assert_eq(r0_read_stat("sda", &env, &s), 0);
	cr_expect_eq(s.nr_fields, 17);
	cr_expect_eq(s.reads, 1000);
	cr_expect_eq(s.reads_merged, 20);
	cr_expect_eq(s.read_sectors, 80000);
	cr_expect_eq(s.read_ticks_ms, 300);
	cr_expect_eq(s.writes, 2000);
	cr_expect_eq(s.writes_merged, 30);
	cr_expect_eq(s.write_sectors, 160000);
	cr_expect_eq(s.write_ticks_ms, 400);
	cr_expect_eq(s.in_flight, 2);
	cr_expect_eq(s.io_ticks_ms, 500);
	cr_expect_eq(s.time_in_queue_ms, 700);
	cr_expect_eq(s.discards, 7, "field 12");
	cr_expect_eq(s.discards_merged, 1, "field 13");
	cr_expect_eq(s.discard_sectors, 4096, "field 14");
	cr_expect_eq(s.discard_ticks_ms, 9, "field 15");
	cr_expect_eq(s.flushes, 11);
	cr_expect_eq(s.flush_ticks_ms, 13);

	cr_assert_eq(r0_read_stat("sda1", &env, &s), 0, "partitions have counters too");
	cr_expect_eq(s.discard_sectors, 4096);
	cr_assert_eq(r0_read_stat_devt(makedev(8, 16), &env, &s), 0);
	cr_expect_eq(s.writes, 2000);
}

Test(probe, stat_of_older_kernels_and_bad_files)
{
	static const struct { const char *text; int err; unsigned fields; uint64_t discards; } t[] = {
		{ "1 2 3 4 5 6 7 8 9 10 11\n", 0, 11, 0 },                 /* before 4.18 */
		{ "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", 0, 15, 12 },    /* before 5.5 */
		{ "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n", 0, 17, 12 },
		{ "1 2 3 4 5 6 7 8 9 10\n", -EINVAL, 0, 0 },
		{ "", -EINVAL, 0, 0 },
		{ "a b c\n", -EINVAL, 0, 0 },
		{ "1 2 3 4 5 6 7 8 9 10 99999999999999999999999\n", -EINVAL, 0, 0 },
	};
	struct r0_blockstat s;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		put(t[i].text, "block/sdb/stat");
		cr_expect_eq(r0_read_stat("sdb", &env, &s), t[i].err, "case %zu", i);
		cr_expect_eq(s.nr_fields, t[i].fields, "case %zu", i);
		cr_expect_eq(s.discards, t[i].discards, "case %zu", i);
	}
	cr_expect_eq(r0_read_stat("nosuch", &env, &s), -ENOENT);
	cr_expect_eq(r0_read_stat("../sda", &env, &s), -EINVAL);
	cr_expect_eq(r0_read_stat("", &env, &s), -EINVAL);
	cr_expect_eq(r0_read_stat_devt(makedev(8, 99), &env, &s), -ENOENT);
}

/* A temporary image of SIZE bytes with LEN bytes of DATA at OFFSET; its path in PATH. */
static void image(char *path, size_t plen, off_t size, off_t offset, const void *data, size_t len)
{
	int fd;

	snprintf(path, plen, "%s/image.XXXXXX", root);
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(ftruncate(fd, size), 0);
	if (len)
		cr_assert_eq(pwrite(fd, data, len, offset), (ssize_t)len);
	close(fd);
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

Test(probe, signatures_none_on_zeros)
{
	char path[PATH_MAX], sig[32] = "x";
	struct r0_signature *s = (void *)1;
	size_t n = 99;
	int fd;

	image(path, sizeof(path), 1 << 20, 0, NULL, 0);
	cr_assert_eq(r0_probe_signatures(path, &s, &n), 0);
	cr_expect_eq(n, 0);
	cr_expect_null(s);
	fd = open(path, O_RDONLY);
	cr_assert_eq(r0_probe_signature(fd, sig, sizeof(sig)), 0);
	cr_expect_str_eq(sig, "");
	close(fd);
	cr_expect_eq(r0_probe_signatures("/nonexistent/image", &s, &n), -ENOENT);
}

/* mkswap's v1 header: version 1 and last_page at 1024, label at 1052, magic at page end - 10 */
static void swap_page(unsigned char *page)
{
	memset(page, 0, 4096);
	put_le32(page + 1024, 1);
	put_le32(page + 1028, 15);
	memcpy(page + 1052, "r0swap", 6);
	memcpy(page + 4086, "SWAPSPACE2", 10);
}

Test(probe, signatures_swap)
{
	unsigned char page[4096];
	char path[PATH_MAX], sig[32];
	struct r0_signature *s;
	size_t n;
	int fd;

	swap_page(page);
	image(path, sizeof(path), 16 * 4096, 0, page, sizeof(page));
	cr_assert_eq(r0_probe_signatures(path, &s, &n), 0);
	cr_assert_eq(n, 1);
	cr_expect_str_eq(s[0].type, "swap");
	cr_expect_str_eq(s[0].usage, "other");
	cr_expect_str_eq(s[0].label, "r0swap");
	cr_expect_eq(s[0].offset_bytes, 4086);
	cr_expect_not(s[0].is_partition_table);
	free(s);

	fd = open(path, O_RDONLY);
	cr_assert_eq(r0_probe_signature(fd, sig, sizeof(sig)), 0);
	cr_expect_str_eq(sig, "swap");
	close(fd);
}

/* A DOS MBR with one Linux partition at 1 MiB */
static void mbr(unsigned char *sector)
{
	memset(sector, 0, 512);
	sector[446 + 4] = 0x83;
	put_le32(sector + 446 + 8, 2048);
	put_le32(sector + 446 + 12, 4096);
	put_le32(sector + 440, 0x12345678);   /* disk identifier: PTUUID */
	sector[510] = 0x55;
	sector[511] = 0xaa;
}

Test(probe, signatures_dos_partition_table)
{
	unsigned char sector[512];
	char path[PATH_MAX];
	struct r0_signature *s;
	size_t n;

	mbr(sector);
	image(path, sizeof(path), 4 << 20, 0, sector, sizeof(sector));
	cr_assert_eq(r0_probe_signatures(path, &s, &n), 0);
	cr_assert_eq(n, 1);
	cr_expect_str_eq(s[0].type, "dos");
	cr_expect(s[0].is_partition_table);
	cr_expect_str_eq(s[0].usage, "partition table");
	cr_expect_str_eq(s[0].uuid, "12345678");
	cr_expect_eq(s[0].offset_bytes, 510);
	free(s);
}

Test(probe, signatures_lists_every_one)
{
	unsigned char buf[4096];
	char path[PATH_MAX];
	struct r0_signature *s;
	size_t n, i;
	bool swap = false, dos = false;

	/* a stale swap signature under a partition table: both must be seen */
	swap_page(buf);
	mbr(buf);
	image(path, sizeof(path), 4 << 20, 0, buf, sizeof(buf));
	cr_assert_eq(r0_probe_signatures(path, &s, &n), 0);
	for (i = 0; i < n; i++) {
		swap |= strcmp(s[i].type, "swap") == 0;
		dos |= strcmp(s[i].type, "dos") == 0;
	}
	cr_expect(swap, "swap listed");
	cr_expect(dos, "dos listed");
	cr_expect_eq(n, 2);
	free(s);
}
