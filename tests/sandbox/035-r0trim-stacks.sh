# SPDX-License-Identifier: GPL-2.0-or-later
# r0trim walks the stacks people run down to the bottom devices: LVM-like
# dm-linear (two segments) over md raid0, LUKS-like dm-crypt over md raid0
# with and without allow_discards (and with a member that takes none), md
# raid1 and raid10 (near), dm-thin with and without discard passdown, a
# partition; and refuses what it cannot model with exit 2.
. ./lib.sh
. ./r0trim-lib.sh
for m in dm_crypt xts dm_thin_pool raid1 raid10; do r0_modprobe "$m" || fail "module $m"; done
KEY=$(printf '%064d' 7)

members=$(r0_members fast 3 size=8) || fail "members"
set -- $members
nd=$(r0_member r0nd no-discard size=8) || fail "no-discard member"
md=$(r0build create --yes -q -f --backend md -c 64K --name s "$1" "$2" "$3") || fail "md"
sz=$(r0_sysfs "$md" size)

# LVM on RAID0: two linear segments, the second before the first on the array
half=$((sz / 2 / 8 * 8))
dmsetup create r0-lv --table "0 $half linear $md $half
$half $half linear $md 0" || fail "linear"
trim_pass "LVM-like dm-linear (2 segments) over md raid0" -f /dev/mapper/r0-lv
grep -q '^  layer dm-[0-9]*: dm-linear r0-lv over md_r0-s' /tmp/trim.out || fail "layer not named: $(head -4 /tmp/trim.out)"
cat /tmp/trim.out > "$R0_RESULTS/lvm-on-raid0.r0trim.txt"
trim_pass "ext4 on LVM-like dm-linear over md raid0, fstrim, 2 cycles" -f --fs ext4 --cycles 2 /dev/mapper/r0-lv
dmsetup remove --retry r0-lv

# LUKS on RAID0: dm-crypt as cryptsetup loads it, small (AES under TCG is slow)
crypt() {   # NAME SECTORS DEV [allow_discards]
	dmsetup create "$1" --table "0 $2 crypt aes-xts-plain64 $KEY 0 $3 0${4:+ 1 $4}"
}
crypt r0-luks 8192 "$md" allow_discards || fail "crypt"
trim_pass "LUKS-like dm-crypt allow_discards over md raid0" -f /dev/mapper/r0-luks
cat /tmp/trim.out > "$R0_RESULTS/luks-on-raid0-allow-discards.r0trim.txt"
dmsetup remove --retry r0-luks
crypt r0-luks 16384 "$md" allow_discards || fail "crypt"
trim_pass "ext4 on dm-crypt allow_discards over md raid0, fstrim, 2 cycles" -f --fs ext4 --cycles 2 /dev/mapper/r0-luks
dmsetup remove --retry r0-luks
crypt r0-luks 8192 "$md" || fail "crypt"
trim_fail "dm-crypt without allow_discards" "dm-crypt r0-luks \(dm-[0-9]+\): allow_discards is off" -f /dev/mapper/r0-luks
cat /tmp/trim.out > "$R0_RESULTS/luks-on-raid0-no-allow-discards.r0trim.txt"
dmsetup remove --retry r0-luks
r0build remove s || fail "remove"
md=$(r0build create --yes -q -f --backend md -c 64K --name s "$1" "$2" "$nd") || fail "md with r0nd"
crypt r0-luks 8192 "$md" allow_discards || fail "crypt"
trim_fail "dm-crypt over md raid0 with a member without discard" "r0nd" -f /dev/mapper/r0-luks
dmsetup remove --retry r0-luks
r0build remove s || fail "remove"

# raid1 of two members; raid10 near over three
mdadm --create /dev/md/r1 --run --level=1 --raid-devices=2 --metadata=1.2 --assume-clean "$1" "$2" \
	> /dev/null 2>&1 || fail "raid1"
trim_pass "md raid1 of two" -f /dev/md/r1
grep -q '^  layer md[0-9]*: md raid1' /tmp/trim.out || fail "raid1 layer: $(head -3 /tmp/trim.out)"
trim_pass "ext4 on md raid1, fstrim, 2 cycles" -f --fs ext4 --cycles 2 /dev/md/r1
mdadm --stop /dev/md/r1 > /dev/null 2>&1
mdadm --create /dev/md/r10 --run --level=10 --layout=n2 --chunk=64 --raid-devices=3 --metadata=1.2 \
	--assume-clean "$1" "$2" "$3" > /dev/null 2>&1 || fail "raid10"
trim_pass "md raid10 near 2 copies over three" -f /dev/md/r10
mdadm --stop /dev/md/r10 > /dev/null 2>&1
mdadm --zero-superblock "$1" "$2" "$3" 2>/dev/null

# dm-thin, with and without passdown (the data device one null_blk member)
dd if=/dev/zero of="$3" bs=4096 count=1 oflag=direct 2>/dev/null
dmsetup create r0-pool --table "0 $(r0_sysfs "$2" size) thin-pool $3 $2 128 0" || fail "pool"
dmsetup message r0-pool 0 "create_thin 0" || fail "thin id"
dmsetup create r0-thin --table "0 8192 thin /dev/mapper/r0-pool 0" || fail "thin"
trim_pass "dm-thin with passdown" -f /dev/mapper/r0-thin
trim_pass "ext4 on dm-thin with passdown, fstrim, 2 cycles" -f --fs ext4 --cycles 2 /dev/mapper/r0-thin
dmsetup remove --retry r0-thin; dmsetup remove --retry r0-pool
dd if=/dev/zero of="$3" bs=4096 count=1 oflag=direct 2>/dev/null
dmsetup create r0-pool --table "0 $(r0_sysfs "$2" size) thin-pool $3 $2 128 0 1 no_discard_passdown" || fail "pool"
dmsetup message r0-pool 0 "create_thin 0" || fail "thin id"
dmsetup create r0-thin --table "0 8192 thin /dev/mapper/r0-pool 0" || fail "thin"
trim_fail "dm-thin with no_discard_passdown" "dm-thin r0-thin \(dm-[0-9]+\): its pool has no_discard_passdown" \
	-f /dev/mapper/r0-thin
dmsetup remove --retry r0-thin; dmsetup remove --retry r0-pool

# what it cannot model: exit 2, never 1
dmsetup create r0-err --table "0 8192 error" || fail "error target"
expect_status 2 "a dm error target" r0trim --yes -f /dev/mapper/r0-err
grep -q "target error: r0trim cannot model" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
dmsetup remove --retry r0-err
r0_remove_members || fail "a member stayed"
