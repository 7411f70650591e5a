# SPDX-License-Identifier: GPL-2.0-or-later
# r0trim --watch over repeated use, on ext4 on an mdadm raid0 of 3 null_blk
# members in use: each run appends one reading of the bottom devices'
# discard counters and writes nothing to any device; the first reading is a
# baseline (exit 0), one with no discard since is not conclusive (exit 3);
# after an fstrim every member received its share (pass); another array in
# the same file starts a history of its own; a target that is no block
# device nor directory, and options that do not go with --watch, are usage
# errors. r0trim -J --watch on the same readings says what the text says
# (r0trim-watch-lib.sh): the first reading and the pass, each kept in
# $R0_RESULTS for host/063's schema check. (A history's FAIL and drift:
# 039-r0trim-watch-history.)
. ./lib.sh
. ./r0trim-watch-lib.sh
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
# the first reading is a baseline, not a failure: a timer's first run succeeds
expect_status 0 "the first reading" r0trim --watch "$log" /mnt/watch
cat /tmp/expect.out
grep -q "^verdict BASELINE RECORDED: the first reading of these devices" /tmp/expect.out || fail "first reading"
rm -f /tmp/watch-first.jsonl
watch_json 0 "the first reading" /tmp/watch-first.jsonl /mnt/watch
watch_same /tmp/expect.out /tmp/watch.json "the first reading"
cp /tmp/watch.json "$R0_RESULTS/watch-first.r0trim.json"
expect_eq "$(writes "$@")" "$before" "the members' writes after --watch and -J --watch"
expect_eq "$(wc -l < "$log")" 1 "records after the first reading"
expect_status 3 "no discard since" r0trim --watch "$log" /mnt/watch
grep -q "^verdict NOT CONCLUSIVE: no discard reached any bottom device since" /tmp/expect.out ||
	fail "no discard since: $(tail -1 /tmp/expect.out)"

# use, then fstrim: every member receives discards
dd if=/dev/urandom of=/mnt/watch/big bs=1M count=48 2> /dev/null || fail "dd"
sync
rm /mnt/watch/big
sync
fstrim /mnt/watch || fail "fstrim"
cp "$log" /tmp/watch-copy.jsonl
expect_status 0 "after an fstrim" r0trim --watch "$log" /mnt/watch
cat /tmp/expect.out
grep -q "^verdict PASS: every bottom device received discards since" /tmp/expect.out || fail "pass after fstrim"
expect_eq "$(grep -c '% of all (the geometry: 33.3 %)' /tmp/expect.out)" 3 "members with a share and the geometry's"
# -J on a copy of the same readings: no discard comes between the two runs
watch_json 0 "after an fstrim" /tmp/watch-copy.jsonl /mnt/watch
cat /tmp/watch.json
watch_same /tmp/expect.out /tmp/watch.json "after an fstrim"
cp /tmp/watch.json "$R0_RESULTS/watch-ext4-md.r0trim.json"

# another array in the same file (other devices): a history of its own, the first reading
umount /mnt/watch
mdadm --stop /dev/md/watch > /dev/null 2>&1 || fail "mdadm --stop"
set -- $members
mdadm --create /dev/md/watch2 --run --level=0 --chunk=64 --metadata=1.2 --raid-devices=2 "$1" "$2" \
	> /dev/null 2>&1 || fail "mdadm --create of 2"
expect_status 0 "another array in the same file" r0trim --watch "$log" /dev/md/watch2
grep -q "^verdict BASELINE RECORDED: the first reading of these devices" /tmp/expect.out ||
	fail "a new array's history: $(tail -1 /tmp/expect.out)"
mdadm --stop /dev/md/watch2 > /dev/null 2>&1
# bad input: a file that is no block device nor directory, and options that do not go with it
expect_status 2 "--watch on a regular file" r0trim --watch "$log" /tmp/watch-copy.jsonl
expect_status 2 "--watch with --yes" r0trim --watch "$log" --yes /mnt/watch
expect_status 2 "-J --watch with --plan" r0trim -J --watch "$log" --plan /mnt/watch
watch_json 2 "-J --watch on a regular file" "$log" /tmp/watch-copy.jsonl
expect_eq "$(wc -c < /tmp/watch.json)" 0 "-J --watch's output on an error"
exit 0
