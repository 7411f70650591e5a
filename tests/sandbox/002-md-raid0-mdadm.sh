# SPDX-License-Identifier: GPL-2.0-or-later
# md raid0 built with mdadm (the reference) over 3 members: mdadm --detail
# agrees, and data lands on the members where raid0 puts it.
. ./lib.sh

members=$(r0_members fast 3) || fail "cannot create members"
set -- $members
mdadm --build /dev/md0 --level=0 --chunk=64 --raid-devices=3 "$@" > /tmp/mdadm.out 2>&1 ||
	{ cat /tmp/mdadm.out; fail "mdadm --build"; }
detail=$(mdadm --detail /dev/md0)
expect_eq "$(echo "$detail" | sed -n 's/^ *Raid Level : //p')" raid0 "mdadm --detail level"
expect_eq "$(echo "$detail" | sed -n 's/^ *Raid Devices : //p')" 3 "mdadm --detail raid devices"
expect_eq "$(echo "$detail" | sed -n 's/^ *Chunk Size : //p')" 64K "mdadm --detail chunk size"
expect_eq "$(r0_sysfs md0 md/chunk_size)" 65536 "sysfs md/chunk_size"
expect_eq "$(r0_sysfs md0 size)" $((3 * 64 * 2048)) "array size is the sum of the members"
check_stripe_placement /dev/md0 65536 12 "$@"
mdadm --stop /dev/md0 > /dev/null 2>&1 || fail "mdadm --stop"
[ -e /sys/block/md0/md/level ] && fail "md0 still active after --stop"
r0_cleanup
