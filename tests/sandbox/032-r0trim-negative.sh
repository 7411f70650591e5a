# SPDX-License-Identifier: GPL-2.0-or-later
# r0trim says "no" (exit 1, naming the cause) where discards do not pass:
# md raid0 over a member without discard (Linux 6.12 advertises discard on
# the array and silently skips that member), md with discard_max_bytes 0,
# dm over a member without discard, and the hidden defect: a member under
# a dm-flakey drop_writes layer, which takes discards and loses them; and
# another program discarding on a member meanwhile. Also the safety rules:
# members of a live array, mounted devices, signatures, a device claimed
# for a moment or for good, usage errors, and SIGTERM.
. ./lib.sh
. ./r0trim-lib.sh

members=$(r0_members fast 3 size=8) || fail "members"
set -- $members
nd=$(r0_member r0nd no-discard size=8) || fail "no-discard member"

md=$(r0build create --yes -q --backend md -c 64K --name n "$1" "$nd") || fail "md over a no-discard member"
trim_fail "md over a member without discard" \
	"limits +FAIL +the array takes discards but r0nd takes none" "$md"
grep -q '^delivery *FAIL .*r0nd received 0 of 128 sectors: dropped (it takes no discards)' /tmp/trim.out ||
	fail "delivery does not name r0nd: $(grep ^delivery /tmp/trim.out | head -2)"
grep -q '^effect *NOT CHECKABLE *one chunk: .*no member promises' /tmp/trim.out ||
	fail "r0nd promises nothing after a discard: $(grep '^effect.*one chunk' /tmp/trim.out)"
echo "r0trim of md raid0 over a member without discard:"
cat /tmp/trim.out
# the same as JSON, a "no" with its reason, for host/062's schema check
expect_status 1 "r0trim -J, member without discard" sh -c "r0trim --yes -f -J $md > $R0_RESULTS/no-discard-member.r0trim.json"
grep -q '"reason": *".*r0nd' "$R0_RESULTS/no-discard-member.r0trim.json" || fail "JSON reason does not name r0nd"
r0build remove n || fail "remove"

md=$(r0build create --yes -q -f --backend md -c 64K --name z "$1" "$2" "$3") || fail "md"
echo 0 > /sys/block/md_r0-z/queue/discard_max_bytes || fail "discard_max_bytes 0"
trim_fail "md with discard_max_bytes 0" "the array takes no discards although every member does" -f "$md"
grep -q '^delivery *FAIL .*BLKDISCARD failed: Operation not supported' /tmp/trim.out ||
	fail "delivery: $(grep ^delivery /tmp/trim.out)"
echo "r0trim of md raid0 with discard_max_bytes 0:"
cat /tmp/trim.out
r0build remove z || fail "remove"

dm=$(r0build create --yes -q -f --backend dm -c 64K --name d "$1" "$nd") || fail "dm over a no-discard member"
trim_fail "dm over a member without discard" "the array takes no discards: r0nd takes none" -f "$dm"
r0build remove d || fail "remove"
trim_fail "a single device without discard" "limits +FAIL +r0nd takes no discards" -f "$nd"

# the hidden defect: u1's flakey layer advertises discard, counts it, drops it
dmsetup create r0flaky --table "0 $(r0_sysfs "$2" size) flakey $2 0 0 3600 1 drop_writes" || fail "flakey"
r0_wait_dev /dev/mapper/r0flaky || fail "no flakey node"
md=$(r0build create --yes -q -f --backend md -c 64K --name h "$1" /dev/mapper/r0flaky "$3") || fail "md over flakey"
trim_fail "md with a member that drops discards" \
	"^delivery +FAIL .*r0m1 received 0 of [0-9]+ sectors although dm-[0-9]+ above it counted [0-9]+: the flakey layer dropped them" \
	-f "$md"
grep -q '^limits *PASS' /tmp/trim.out || fail "the defect is hidden: limits should look fine"
echo "r0trim of md raid0 with a member behind a discard-dropping layer (first lines):"
head -12 /tmp/trim.out
r0build remove h || fail "remove"
dmsetup remove --retry r0flaky || fail "remove flakey"

# other I/O on a member while r0trim counts (a loop discarding r0m1's first
# 64K, which is array chunk 1): noticed, and it makes the check fail (the
# pattern vanishes, or a counter moves by more than was sent), never pass
md=$(r0build create --yes -q -f --backend md -c 64K --name q "$1" "$2") || fail "md"
( while :; do blkdiscard --force -o 0 -l 65536 "$2" 2> /dev/null; done ) &
noise=$!
r0trim --yes -f "$md" > /tmp/trim.out 2>&1; rc=$?
kill $noise; wait $noise 2> /dev/null
grep -q '^quiet *NOT CONCLUSIVE *the members are busy' /tmp/trim.out ||
	{ cat /tmp/trim.out; fail "a member discarding on its own was not noticed"; }
# a check that failed (1) or, where nothing failed, not conclusive (3): never a pass
[ "$rc" = 1 ] || [ "$rc" = 3 ] ||
	{ cat /tmp/trim.out; fail "r0trim exit $rc while another program discarded on a member"; }
note "ok: busy member noticed, exit $rc: $(sed -n 's/^verdict *[A-Z ]*  *//p' /tmp/trim.out | cut -c1-100)"
r0build remove q || fail "remove"

# safety: never a member of a live array, a mounted device, or a signature without --force
md=$(r0build create --yes -q -f --backend md -c 64K --name s "$1" "$2") || fail "md"
expect_status 2 "r0trim of a member of a live array" r0trim --yes -f "$1"
grep -q "r0trim: $1: held by md_r0-s" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
r0build remove s || fail "remove"
mkfs.ext4 -q -F "$3" || fail "mkfs"
expect_status 2 "r0trim of a device holding ext4" r0trim --yes "$3"
grep -q "holds an ext4 signature (use --force" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
mkdir -p /mnt/t && mount "$3" /mnt/t || fail "mount"
expect_status 2 "r0trim of a mounted device, even with --force" r0trim --yes -f "$3"
grep -q "mounted on /mnt/t" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
umount /mnt/t
# a claim for a moment (udev's partition rescan after a write takes one) is
# waited out; a claim a program keeps is refused as in use, within seconds
r0hold "$1" 2000 > /tmp/hold.out & hold=$!
until [ -s /tmp/hold.out ]; do sleep 0.05; done
expect_status 0 "r0trim of a device claimed for 2 s" r0trim --yes -f "$1"
wait $hold || fail "r0hold for 2 s"
r0hold "$1" 30000 > /tmp/hold.out & hold=$!
until [ -s /tmp/hold.out ]; do sleep 0.05; done
t0=$(date +%s)
expect_status 2 "r0trim of a device a program keeps claimed" r0trim --yes -f "$1"
[ $(($(date +%s) - t0)) -le 10 ] || fail "the refusal of a claimed device took $(($(date +%s) - t0)) s"
grep -q "r0trim: $1: cannot open exclusively: Device or resource busy (in use)" /tmp/expect.out ||
	fail "message: $(cat /tmp/expect.out)"
kill $hold; wait $hold 2> /dev/null
expect_status 2 "no device" r0trim --yes
expect_status 2 "two devices" r0trim --yes "$1" "$2"
expect_status 2 "--fs btrfs" r0trim --yes --fs btrfs "$1"
expect_status 2 "--cycles x" r0trim --yes --cycles x "$1"
expect_status 2 "--fill 95" r0trim --yes --fill 95 "$1"
expect_status 2 "--fs-discard without --fs" r0trim --yes --fs-discard mount "$1"
expect_status 0 "--help" r0trim --help
expect_status 0 "--version" r0trim --version

# SIGTERM part-way: exit 1, nothing left mounted or open
md=$(r0build create --yes -q -f --backend md -c 64K --name s "$1" "$2") || fail "md"
r0trim --yes -f --cycles 10000 "$md" > /tmp/sig.out 2>&1 &
pid=$!
# once it runs (its first line is out): loading its libraries takes a while under TCG
n=0
while [ ! -s /tmp/sig.out ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
sleep 1
kill -TERM $pid
wait $pid; rc=$?
expect_eq "$rc" 1 "r0trim exit after SIGTERM"
grep -q "interrupted by a signal" /tmp/sig.out || fail "no interruption message: $(tail -3 /tmp/sig.out)"
# an interruption shows nothing about discards: not a "no"
grep -q "^verdict *FAIL" /tmp/sig.out && fail "an interrupted run said no: $(grep '^verdict' /tmp/sig.out)"
grep -q "^verdict *NOT CONCLUSIVE" /tmp/sig.out || fail "no verdict NOT CONCLUSIVE: $(tail -3 /tmp/sig.out)"
r0trim --yes -f --fs ext4 --cycles 100 "$md" > /tmp/sig.out 2>&1 &
pid=$!
sleep 2
kill -TERM $pid
wait $pid; rc=$?
expect_eq "$rc" 1 "r0trim --fs exit after SIGTERM"
grep -q "^verdict *FAIL" /tmp/sig.out && fail "an interrupted --fs run said no: $(grep '^verdict' /tmp/sig.out)"
grep -q r0trim /proc/mounts && fail "a file system left mounted: $(grep r0trim /proc/mounts)"
ls -d /tmp/r0trim.* 2>/dev/null && fail "mount point left behind"
note "ok: nothing left mounted"
r0build remove s || fail "remove after SIGTERM"
r0_remove_members || fail "a member stayed"
