# SPDX-License-Identifier: GPL-2.0-or-later
# r0trim --live on mounted file systems that hold "the user's" files: ext4
# on md raid0, xfs on dm-stripe, ext4 on LVM on md raid0 and on LUKS
# (--allow-discards) on md raid0 pass, per drive, deallocated (null_blk
# promises zeroes); a member without discard, LUKS without
# --allow-discards and online discard asked of a mount without it are a
# "no" naming the cause; a read-only mount and a
# full file system are refused (exit 2). Every case checks that the user's
# files (checksummed before) are unchanged and that no test file is left.
. ./lib.sh
. ./r0trim-lib.sh
for m in dm_crypt xts xfs; do r0_modprobe "$m" || fail "module $m"; done
trap 'umount /mnt/live 2> /dev/null; r0_cleanup' EXIT

members=$(r0_members fast 3 size=128) || fail "members"
set -- $members
nd=$(r0_member r0nd no-discard size=128) || fail "no-discard member"

# ext4 on mdadm raid0, with the JSON for the schema check
mdadm --create /dev/md/live --run --level=0 --chunk=64 --metadata=1.2 --raid-devices=3 "$1" "$2" "$3" \
	> /dev/null 2>&1 || fail "mdadm --create"
live_fs ext4 /dev/md/live
live_pass "ext4 on md raid0"
cp /tmp/trim.out "$R0_RESULTS/live-ext4-md.r0trim.txt"
r0trim -J --live /mnt/live > "$R0_RESULTS/live-ext4-md.r0trim.json" || fail "r0trim -J --live"
grep -q '"mode":"live"' "$R0_RESULTS/live-ext4-md.r0trim.json" || fail "the JSON does not say live"
expect_status 0 "r0report renders the live check" r0report --output-dir /tmp/live-report \
	"$R0_RESULTS/live-ext4-md.r0trim.json"
grep -q "discards pass through to every member" /tmp/live-report/report.md ||
	fail "the report lacks the live verdict: $(grep -i discard /tmp/live-report/report.md | head -3)"
untouched "ext4 on md raid0, JSON"
expect_status 0 "--plan on a live file system" r0trim --plan --live /mnt/live
grep -q "nothing is destroyed" /tmp/expect.out || fail "the live plan: $(cat /tmp/expect.out)"

# told to wait for the online discard of a mount without -o discard: none comes, a "no"
trim_fail "online discard asked of a mount without -o discard" "fewer than the" --live /mnt/live --fs-discard mount
untouched "a mount without discard"

# read-only and full: refused, nothing shown
mount -o remount,ro /mnt/live || fail "remount ro"
expect_status 2 "a read-only mount" r0trim --live /mnt/live
grep -q "mounted read-only" /tmp/expect.out || fail "the refusal: $(cat /tmp/expect.out)"
mount -o remount,rw /mnt/live || fail "remount rw"
dd if=/dev/zero of=/mnt/live/full bs=1M 2> /dev/null
expect_status 2 "a full file system" r0trim --live /mnt/live
grep -q "free: the test file and a margin need" /tmp/expect.out || fail "the refusal: $(cat /tmp/expect.out)"
rm /mnt/live/full
untouched "refusals"
umount /mnt/live

# LVM on the same md raid0, ext4
wipefs -a -q /dev/md/live && pvcreate -q /dev/md/live > /dev/null && vgcreate -q r0live /dev/md/live > /dev/null || fail "LVM on md"
lvcreate -q -y -L 120M -n data r0live > /dev/null || fail "lvcreate"
live_fs ext4 /dev/r0live/data
live_pass "ext4 on LVM on md raid0"
umount /mnt/live

# LUKS with and without --allow-discards on that LV (small: AES under TCG is slow)
lvremove -q -y r0live/data > /dev/null && lvcreate -q -y -L 100M -n data r0live > /dev/null || fail "lvcreate 2"
printf 'r0kit-test-key' > /tmp/key
cryptsetup luksFormat -q --type luks1 --pbkdf-force-iterations 1000 --key-file /tmp/key /dev/r0live/data ||
	fail "luksFormat"
cryptsetup open --allow-discards --key-file /tmp/key /dev/r0live/data r0lk || fail "open --allow-discards"
live_fs ext4 /dev/mapper/r0lk
live_pass "ext4 on LUKS (--allow-discards) on LVM on md raid0"
umount /mnt/live
cryptsetup close r0lk
cryptsetup open --key-file /tmp/key /dev/r0live/data r0lk || fail "open"
mount /dev/mapper/r0lk /mnt/live || fail "mount luks"
trim_fail "LUKS without --allow-discards" "dm-crypt r0lk \(dm-[0-9]+\): allow_discards is off" --live /mnt/live
untouched "LUKS without --allow-discards"
umount /mnt/live
cryptsetup close r0lk
vgremove -f -y r0live > /dev/null 2>&1; pvremove -y /dev/md/live > /dev/null 2>&1
mdadm --stop /dev/md/live > /dev/null 2>&1 || fail "mdadm --stop"
mdadm --zero-superblock "$1" "$2" "$3" > /dev/null 2>&1

# xfs on dm-stripe; then a stripe with a member that takes no discards
dm=$(r0build create --yes -q -f --backend dm -c 64K --name live "$1" "$2" "$3") || fail "dm-stripe"
live_fs xfs "$dm"
live_pass "xfs on dm-stripe"
umount /mnt/live
r0build remove live || fail "remove"
md=$(r0build create --yes -q -f --backend md -c 64K --name live "$1" "$nd") || fail "md with r0nd"
live_fs ext4 "$md"
trim_fail "ext4 on md raid0 with a member that takes no discards" "r0nd" --live /mnt/live
untouched "a member without discard"
umount /mnt/live
r0build remove live || fail "remove"
r0_remove_members || fail "a member stayed"
