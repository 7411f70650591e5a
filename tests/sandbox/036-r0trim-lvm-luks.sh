# SPDX-License-Identifier: GPL-2.0-or-later
# The stacks users build, built by the tools they build them with (under
# udev in the main boot, as on a Debian host; also without it): LVM linear on md raid0, an LVM striped LV
# over three PVs, a thin LV whose pool spans three PVs, a thin LV in a pool
# on md raid0, LUKS (cryptsetup) on LVM on md raid0 opened with and without
# --allow-discards; r0trim's answers on them.
. ./lib.sh
. ./r0trim-lib.sh
for m in dm_crypt xts dm_thin_pool; do r0_modprobe "$m" || fail "module $m"; done

members=$(r0_members fast 3 size=32) || fail "members"
set -- $members
lvm_clean() { vgremove -f -y "$1" > /dev/null 2>&1; shift; pvremove -y "$@" > /dev/null 2>&1; }

# LVM linear on md raid0 (mdadm, 1.2 superblock)
mdadm --create /dev/md/r0lvm --run --level=0 --chunk=64 --metadata=1.2 --raid-devices=3 \
	"$1" "$2" "$3" > /dev/null 2>&1 || fail "mdadm --create"
md=$(readlink -f /dev/md/r0lvm)
pvcreate -q "$md" > /dev/null && vgcreate -q r0vg "$md" > /dev/null || fail "pvcreate/vgcreate on $md"
lvcreate -q -y -L 24M -n lin r0vg > /dev/null || fail "lvcreate linear"
r0_settle
[ -b /dev/r0vg/lin ] || fail "no /dev/r0vg/lin (made by udev's 56-lvm.rules, or by lvm without udev)"
trim_pass "LVM linear LV on mdadm raid0" -f /dev/r0vg/lin
cat /tmp/trim.out > "$R0_RESULTS/lvm-linear-on-md.r0trim.txt"

# LUKS on that LV: small, and pbkdf2 with few iterations (TCG is slow)
printf 'r0kit-test-key' > /tmp/key
cryptsetup luksFormat -q --type luks1 --pbkdf-force-iterations 1000 --key-file /tmp/key /dev/r0vg/lin ||
	fail "luksFormat"
cryptsetup open --allow-discards --key-file /tmp/key /dev/r0vg/lin r0luks || fail "open --allow-discards"
trim_pass "LUKS (--allow-discards) on LVM on md raid0" -f /dev/mapper/r0luks
cryptsetup close r0luks
cryptsetup open --key-file /tmp/key /dev/r0vg/lin r0luks || fail "open"
trim_fail "LUKS without --allow-discards" "dm-crypt r0luks \(dm-[0-9]+\): allow_discards is off" \
	-f /dev/mapper/r0luks
cryptsetup close r0luks

# a thin LV in a pool on md raid0
lvremove -q -y r0vg/lin > /dev/null || fail "lvremove"
lvcreate -q -y --type thin-pool -L 40M -n pool r0vg > /dev/null || fail "thin pool on md"
lvcreate -q -y -V 16M -T r0vg/pool -n thin > /dev/null || fail "thin LV"
trim_pass "thin LV in a pool on md raid0" -f /dev/r0vg/thin
cat /tmp/trim.out > "$R0_RESULTS/lvm-thin-on-md.r0trim.txt"
lvm_clean r0vg "$md"
mdadm --stop /dev/md/r0lvm > /dev/null 2>&1 || fail "mdadm --stop"
mdadm --zero-superblock "$1" "$2" "$3" > /dev/null 2>&1

# LVM striped over three PVs, and a thin pool whose data spans them
pvcreate -q "$1" "$2" "$3" > /dev/null && vgcreate -q r0vg2 "$1" "$2" "$3" > /dev/null ||
	fail "a VG of three PVs"
lvcreate -q -y -i 3 -I 64k -L 24M -n str r0vg2 > /dev/null || fail "lvcreate striped"
trim_pass "LVM striped LV over three PVs" -f /dev/r0vg2/str
grep -q "dm-stripe" /tmp/trim.out || grep -q "striped" /tmp/trim.out || fail "no stripe layer named"
lvremove -q -y r0vg2/str > /dev/null || fail "lvremove str"
lvcreate -q -y --type thin-pool -i 3 -I 64k -L 48M -n pool r0vg2 > /dev/null || fail "striped thin pool"
lvcreate -q -y -V 16M -T r0vg2/pool -n thin > /dev/null || fail "thin LV over three PVs"
trim_pass "thin LV in a pool striped over three PVs" -f /dev/r0vg2/thin
cat /tmp/trim.out > "$R0_RESULTS/lvm-thin-striped.r0trim.txt"
lvm_clean r0vg2 "$1" "$2" "$3"
r0_settle
r0_remove_members || fail "a member stayed"
