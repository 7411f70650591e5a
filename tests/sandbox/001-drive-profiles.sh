# SPDX-License-Identifier: GPL-2.0-or-later
# Drive profiles become null_blk members whose sysfs limits match the profile.
. ./lib.sh

members=$(r0_members sata-ssd 3) || fail "cannot create 3 sata-ssd members"
set -- $members
expect_eq "$#" 3 "members created"
for m in "$@"; do
	b=${m##*/}
	expect_eq "$(r0_sysfs "$b" size)" $((256 * 2048)) "$b size in sectors (256 MiB)"
	expect_eq "$(r0_sysfs "$b" queue/logical_block_size)" 4096 "$b logical block size"
	expect_eq "$(r0_sysfs "$b" queue/physical_block_size)" 4096 "$b physical block size"
	expect_eq "$(r0_sysfs "$b" queue/discard_granularity)" 4096 "$b discard granularity"
	[ "$(r0_sysfs "$b" queue/discard_max_bytes)" -gt 0 ] || fail "$b: no discard"
done
# a whole-device discard on a bandwidth-capped member finishes (null_blk
# hangs on requests larger than one refill of its budget: capped at 1 MiB)
expect_eq "$(r0_sysfs "$1" queue/discard_max_bytes)" 1048576 "sata-ssd discard_max_bytes cap"
expect_status 0 "whole-device discard on a sata-ssd member" timeout 60 blkdiscard "$1"

nd=$(r0_member r0nd no-discard size=128) || fail "cannot create a no-discard member"
expect_eq "$(r0_sysfs "$nd" size)" $((128 * 2048)) "size override (128 MiB)"
expect_eq "$(r0_sysfs "$nd" queue/discard_max_bytes)" 0 "no-discard member discard_max_bytes"

hd=$(r0_member r0hd hdd-like) || fail "cannot create an hdd-like member"
expect_eq "$(r0_sysfs "$hd" queue/logical_block_size)" 512 "hdd-like logical block size"
nv=$(r0_member r0nv nvme-ssd) || fail "cannot create an nvme-ssd member"
expect_eq "$(r0_sysfs "$nv" queue/nr_requests)" 128 "nvme-ssd queue depth"

r0_member r0bad no-such-profile 2>/dev/null && fail "a missing profile was accepted"
r0_member r0bad2 sata-ssd nosuchkey=1 2>/dev/null && fail "an unknown null_blk key was accepted"
[ -e "$R0_NULLB/r0bad2" ] && fail "a failed member was left in configfs"
r0_cleanup
expect_eq "$(r0_leftovers)" "" "clean-up removes every member"
