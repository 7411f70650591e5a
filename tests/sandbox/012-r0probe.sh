# SPDX-License-Identifier: GPL-2.0-or-later
# r0probe reports what the guest's sysfs says about null_blk members, an md
# raid0 and a dm stripe over them (level, chunk, members, holders, discard
# limits), signatures, mounts, and discard counters that move.
. ./lib.sh

members=$(r0_members sata-ssd 3 size=32) || fail "members"
set -- $members
nd=$(r0_member r0nd no-discard size=32) || fail "no-discard member"

# col DEV COLUMN: one value from r0probe's table, sizes in bytes
col() { r0probe -b -n -o "$2" "$1" | sed 's/[[:space:]]*$//'; }

for m in "$@"; do
	b=${m##*/}
	expect_eq "$(col "$m" NAME)" "$b" "$b NAME"
	expect_eq "$(col "$m" MAJ:MIN)" "$(r0_sysfs "$b" dev)" "$b MAJ:MIN"
	expect_eq "$(col "$m" SIZE)" $((32 << 20)) "$b SIZE"
	expect_eq "$(col "$m" LOG-SEC)" 4096 "$b LOG-SEC"
	expect_eq "$(col "$m" DISC-GRAN)" "$(r0_sysfs "$b" queue/discard_granularity)" "$b DISC-GRAN"
	expect_eq "$(col "$m" DISC-MAX)" "$(r0_sysfs "$b" queue/discard_max_bytes)" "$b DISC-MAX"
	expect_eq "$(col "$m" RQ-SIZE)" 32 "$b RQ-SIZE (hw_queue_depth 32)"
	expect_eq "$(col "$m" TYPE)" disk "$b TYPE"
done
expect_eq "$(col "$nd" DISC-MAX)" 0 "no-discard member DISC-MAX"

md=$(r0build create --yes --backend md -c 64K --name probe "$1" "$2" "$3") || fail "md"
dm=$(r0build create --yes --backend dm -c 128K --name probe2 "$nd") || fail "dm"
echo "r0probe of the arrays and their members:"
r0probe "$md" "$dm" "$@" "$nd"
expect_eq "$(col "$md" TYPE)" md "md TYPE"
expect_eq "$(col "$md" MD-LEVEL)" raid0 "md MD-LEVEL"
expect_eq "$(col "$md" MD-CHUNK)" 65536 "md MD-CHUNK"
expect_eq "$(col "$md" MD-DISKS)" 3 "md MD-DISKS"
expect_eq "$(col "$md" SIZE)" $((3 * 32 << 20)) "md SIZE"
expect_eq "$(col "$md" SLAVES)" "r0m0,r0m1,r0m2" "md SLAVES"
expect_eq "$(col "$1" HOLDERS)" md_r0-probe "member HOLDERS"
expect_eq "$(col "$1" BUSY)" "held by md_r0-probe" "member BUSY"
expect_eq "$(col "$md" OPT-IO)" $((3 * 65536)) "md OPT-IO (stripe width)"
expect_eq "$(col "$dm" TYPE)" dm "dm TYPE"
expect_eq "$(col "$dm" DM-NAME)" r0-probe2 "dm DM-NAME"
expect_eq "$(col "$dm" DM-UUID)" R0KIT-probe2 "dm DM-UUID"
expect_eq "$(col "$dm" DISC-MAX)" 0 "dm over a no-discard member DISC-MAX"
expect_eq "$(col /dev/mapper/r0-probe2 NAME)" "$(col "$(readlink -f "$dm")" NAME)" "a symlink is the same device"

# discard counters move by what was discarded: one 64K chunk on each member
# (md itself counts no discards: raid0 splits them before its accounting)
for m in "$@"; do eval "before_${m##*/}=\$(col "$m" DISC-SECT)"; done
blkdiscard -o 0 -l $((3 * 65536)) "$md" || fail "blkdiscard"
for m in "$@"; do
	eval "b=\$before_${m##*/}"
	expect_eq "$(( $(col "$m" DISC-SECT) - b ))" 128 "${m##*/} DISC-SECT grew by one chunk"
done
r0probe -o NAME,DISCARDS,DISC-SECT "$md" "$@"

# signatures and mounts
mkfs.ext4 -q -F "$md" || fail "mkfs"
expect_eq "$(col "$md" SIGNATURES)" ext4 "md SIGNATURES after mkfs.ext4"
mkdir -p /mnt/p && mount "$md" /mnt/p || fail "mount"
expect_eq "$(col "$md" MOUNT)" /mnt/p "md MOUNT"
expect_eq "$(col "$md" BUSY)" "mounted on /mnt/p" "md BUSY"
# lsblk's forms and letters: -P (--pairs) is read by eval, -r (--raw) escapes the space of a mount point
pairs=$(r0probe -P -b -o NAME,MAJ:MIN,SIZE,MOUNT "$md") || fail "--pairs"
eval "$pairs"
mdk=$(col "$md" NAME)
expect_eq "$NAME $MAJ_MIN $MOUNT" "$mdk $(r0_sysfs "$mdk" dev) /mnt/p" "--pairs read by eval"
expect_eq "$SIZE" "$(col "$md" SIZE)" "--pairs SIZE in bytes"
umount /mnt/p
mkdir -p "/mnt/p q" && mount "$md" "/mnt/p q" || fail "mount on a path with a space"
expect_eq "$(r0probe -r -n -o NAME,MOUNT "$md")" "$mdk /mnt/p\\x20q" "--raw escapes the space"
umount "/mnt/p q"
expect_status 2 "--raw and --pairs together" r0probe --raw --pairs "$md"
r0probe -J "$md" > /tmp/probe.json || fail "--json"
grep -q '"r0kit_schema": *"r0probe/1"' /tmp/probe.json || fail "JSON schema tag: $(head -5 /tmp/probe.json)"
grep -q '"level": *"raid0"' /tmp/probe.json || fail "JSON md.level: $(cat /tmp/probe.json)"
expect_status 2 "r0probe of a missing device" r0probe /dev/nosuch
expect_status 2 "r0probe with a bad option" r0probe --frob
# -o holds twice the 43 columns: 86 pass, one more is a usage error
cols() { _i=1 _l=NAME; while [ "$_i" -lt "$1" ]; do _l="$_l,NAME"; _i=$((_i + 1)); done; echo "$_l"; }
expect_status 0 "r0probe -o with 86 columns" r0probe -o "$(cols 86)" "$md"
expect_status 2 "r0probe -o with 87 columns, one too many" r0probe -o "$(cols 87)" "$md"
grep -q "too many columns" /tmp/expect.out || fail "87 columns: $(cat /tmp/expect.out)"
r0build remove probe || fail "remove md"
r0build remove "$dm" || fail "remove dm by path"

# a 3-member dm stripe over the same members (ext4 of the md is still on r0m0)
dm3=$(r0build create --yes -q -f --backend dm -c 64K --name probe3 "$@") || fail "dm of 3"
echo "r0probe of a 3-member dm stripe and its members:"
r0probe -o NAME,TYPE,SIZE,LOG-SEC,OPT-IO,DISC-GRAN,DISC-MAX,DM-NAME,SLAVES,HOLDERS "$dm3" "$@"
expect_eq "$(col "$dm3" SLAVES)" "r0m0,r0m1,r0m2" "dm SLAVES"
expect_eq "$(col "$dm3" OPT-IO)" $((3 * 65536)) "dm OPT-IO (stripe width)"
expect_eq "$(col "$dm3" SIZE)" $((3 * 32 << 20)) "dm SIZE"
r0build remove probe3 || fail "remove dm of 3"
r0_remove_members || fail "a member stayed"
