# SPDX-License-Identifier: GPL-2.0-or-later
# A dm striped table built with dmsetup over 3 members: dmsetup table reads
# it back, and data lands on the members where dm-stripe puts it.
. ./lib.sh

members=$(r0_members fast 3) || fail "cannot create members"
set -- $members
len=$((3 * 64 * 2048))   # sectors: 3 members of 64 MiB, a multiple of 3 x chunk
table="0 $len striped 3 256 $1 0 $2 0 $3 0"
dmsetup create r0-test --table "$table" || fail "dmsetup create"
r0_wait_dev /dev/mapper/r0-test || fail "no /dev/mapper/r0-test"
majmin() { r0_sysfs "$1" dev; }
expected="0 $len striped 3 256 $(majmin "$1") 0 $(majmin "$2") 0 $(majmin "$3") 0"
expect_eq "$(dmsetup table r0-test)" "$expected" "dmsetup table"
check_stripe_placement /dev/mapper/r0-test 131072 9 "$@"
dmsetup remove --retry r0-test || fail "dmsetup remove"
r0_cleanup
