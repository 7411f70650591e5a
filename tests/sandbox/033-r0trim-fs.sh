# SPDX-License-Identifier: GPL-2.0-or-later
# r0trim's file system mode: ext4 on md raid0 and dm-stripe, files written,
# deleted, then fstrim (5 cycles) or the discard mount option; the members
# receive at least what the deleted files held on them, and all fstrim
# reports; xfs on md too. An array over a member without discard fails.
. ./lib.sh
. ./r0trim-lib.sh

members=$(r0_members fast 3 size=32) || fail "members"
set -- $members
md=$(r0build create --yes -q --backend md -c 64K --name f "$1" "$2" "$3") || fail "md"
trim_pass "ext4 on md, fstrim, 5 cycles" --fs ext4 --cycles 5 "$md"
expect_eq "$(grep -c '^fs-cycle *PASS ' /tmp/trim.out)" 5 "fs cycles passed"
echo "r0trim --fs ext4 on a 3-member md raid0:"
cat /tmp/trim.out
trim_pass "ext4 on md, mount -o discard, 3 cycles" -f --fs ext4 --fs-discard mount --cycles 3 "$md"
expect_eq "$(grep -c '^fs-cycle *PASS .*mount -o discard' /tmp/trim.out)" 3 "online-discard cycles passed"
r0trim --yes -f -J --fs ext4 --cycles 1 "$md" > /tmp/fs.json || fail "JSON fs mode: $(tail -5 /tmp/fs.json)"
grep -q '"fstrim_bytes"' /tmp/fs.json || fail "JSON fs cycle figures"
cp /tmp/fs.json "$R0_RESULTS/ext4-fstrim.r0trim.json"   # for host/062's schema check
r0build remove f || fail "remove"

dm=$(r0build create --yes -q -f --backend dm -c 128K --name f "$1" "$2" "$3") || fail "dm"
trim_pass "ext4 on dm, fstrim, 2 cycles" -f --fs ext4 --cycles 2 "$dm"
r0build remove f || fail "remove"

nd=$(r0_member r0nd no-discard size=32 mbps=0 irqmode=0) || fail "no-discard member"
md=$(r0build create --yes -q -f --backend md -c 64K --name n "$1" "$nd") || fail "md over no-discard"
trim_fail "ext4 on md over a member without discard" \
	"^fs-cycle +FAIL .*r0nd received 0 sectors, fewer than the [0-9]+ the deleted files held there" \
	-f --fs ext4 --cycles 1 "$md"
r0build remove n || fail "remove"
r0_remove_member r0nd

# xfs: the module loads on demand; one that does not load fails the test
command -v mkfs.xfs > /dev/null || fail "no mkfs.xfs in the guest"
r0_modprobe xfs || fail "the xfs module does not load"
r0_remove_members || fail "members"
members=$(r0_members fast 3 size=112) || fail "members for xfs"
set -- $members
md=$(r0build create --yes -q --backend md -c 64K --name x "$1" "$2" "$3") || fail "md for xfs"
trim_pass "xfs on md, fstrim, 2 cycles" --fs xfs --fill 20 --cycles 2 "$md"
grep '^fs-cycle' /tmp/trim.out
r0build remove x || fail "remove"
r0_remove_members || fail "a member stayed"
