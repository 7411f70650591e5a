# SPDX-License-Identifier: GPL-2.0-or-later
# r0trim --watch over repeated use, on ext4 on an mdadm raid0 of 3 null_blk
# members in use: each run appends one reading of the bottom devices'
# discard counters and writes nothing to any device; the first reading and
# one with no discard since are not conclusive (exit 1); after an fstrim
# every member received its share (pass); a history in which the third
# member got nothing while the others got their discards is a FAIL naming
# it; another array in the same file starts a history of its own.
. ./lib.sh
mkdir -p /mnt/watch
trap 'umount /mnt/watch 2> /dev/null; r0_cleanup' EXIT

members=$(r0_members fast 3 size=128) || fail "members"
set -- $members
mdadm --create /dev/md/watch --run --level=0 --chunk=64 --metadata=1.2 --raid-devices=3 "$1" "$2" "$3" \
	> /dev/null 2>&1 || fail "mdadm --create"
# no lazy init: its background writes would be counted as the tool's
mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 /dev/md/watch || fail "mkfs.ext4"
mount /dev/md/watch /mnt/watch || fail "mount"
log=/tmp/watch.jsonl
rm -f "$log"
# the members' write counters (stat field 5): --watch must leave them as they are
writes() { for m in "$@"; do k=$(basename "$(readlink -f "$m")"); awk '{print $5}' "/sys/block/$k/stat"; done | tr '\n' ' '; }

sync
sleep 1
before=$(writes "$@")
expect_status 1 "the first reading" r0trim --watch "$log" /mnt/watch
cat /tmp/expect.out
grep -q "^verdict NOT CONCLUSIVE: the first reading of these devices" /tmp/expect.out || fail "first reading"
expect_eq "$(writes "$@")" "$before" "the members' writes after --watch"
expect_eq "$(wc -l < "$log")" 1 "records after the first reading"
expect_status 1 "no discard since" r0trim --watch "$log" /mnt/watch
grep -q "^verdict NOT CONCLUSIVE: no discard reached any bottom device since" /tmp/expect.out ||
	fail "no discard since: $(tail -1 /tmp/expect.out)"

# use, then fstrim: every member receives discards
dd if=/dev/urandom of=/mnt/watch/big bs=1M count=48 2> /dev/null || fail "dd"
sync
rm /mnt/watch/big
sync
fstrim /mnt/watch || fail "fstrim"
expect_status 0 "after an fstrim" r0trim --watch "$log" /mnt/watch
cat /tmp/expect.out
grep -q "^verdict PASS: every bottom device received discards since" /tmp/expect.out || fail "pass after fstrim"
expect_eq "$(grep -c '% of all (the geometry: 33.3 %)' /tmp/expect.out)" 3 "members with a share and the geometry's"

# the third member stopped: a history whose readings before today gave it its count of today
last=$(tail -1 "$log")
names=$(echo "$last" | grep -o '"name":"[^"]*"' | cut -d'"' -f4 | tr '\n' ' ')
set -- $(echo "$last" | grep -o '"discard_sectors":[0-9]*' | cut -d: -f2)
c1=$1 c2=$2 c3=$3
x=$(( (c1 < c2 ? c1 : c2) / 2 ))
[ "$x" -ge 4096 ] || fail "too few discarded sectors to build the history: $c1 $c2 $c3"
boot=$(cat /proc/sys/kernel/random/boot_id)
now=$(date +%s)
rec() {   # TIME S1 S2 S3
	set -- "$@" $names
	printf '{"schema":"r0trim-watch/1","time":%s,"boot_id":"%s","top":"md127","devices":[{"name":"%s","serial":"","discard_sectors":%s},{"name":"%s","serial":"","discard_sectors":%s},{"name":"%s","serial":"","discard_sectors":%s}]}\n' \
		"$1" "$boot" "$5" "$2" "$6" "$3" "$7" "$4"
}
{ rec $((now - 172800)) $((c1 - 2 * x)) $((c2 - 2 * x)) $((c3 - x)); rec $((now - 86400)) $((c1 - x)) $((c2 - x)) "$c3"; } > /tmp/stopped.jsonl
expect_status 1 "a member that stopped" r0trim --watch /tmp/stopped.jsonl /mnt/watch
cat /tmp/expect.out
third=$(echo $names | cut -d' ' -f3)
grep -q "^verdict FAIL: $third stopped receiving discards after " /tmp/expect.out ||
	fail "the stopped member not named: $(tail -1 /tmp/expect.out)"
grep -q "^  $third: .*: none since " /tmp/expect.out || fail "its line does not say since when"

# another array in the same file (other devices): a history of its own, the first reading
umount /mnt/watch
mdadm --stop /dev/md/watch > /dev/null 2>&1 || fail "mdadm --stop"
set -- $members
mdadm --create /dev/md/watch2 --run --level=0 --chunk=64 --metadata=1.2 --raid-devices=2 "$1" "$2" \
	> /dev/null 2>&1 || fail "mdadm --create of 2"
expect_status 1 "another array in the same file" r0trim --watch "$log" /dev/md/watch2
grep -q "^verdict NOT CONCLUSIVE: the first reading of these devices" /tmp/expect.out ||
	fail "a new array's history: $(tail -1 /tmp/expect.out)"
mdadm --stop /dev/md/watch2 > /dev/null 2>&1
# bad input: a file that is no block device nor directory, and options that do not go with it
expect_status 2 "--watch on a regular file" r0trim --watch "$log" /tmp/stopped.jsonl
expect_status 2 "--watch with --yes" r0trim --watch "$log" --yes /mnt/watch
exit 0
