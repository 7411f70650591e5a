# SPDX-License-Identifier: GPL-2.0-or-later
# r0bench and failures: a member with bad blocks ends a read test with the
# error (offset, errno) and exit 1, or counts on with --continue-on-error;
# bad values are usage errors (exit 2) that touch nothing; writes to a
# device with a signature, a mounted one or an array member are refused
# (exit 2, as a missing target);
# a device that completes nothing ends the run with an error (--stall)
# instead of hanging.
. ./lib.sh

bad=$(r0_member r0bad fast size=16) || fail "member"
echo "+2048-2055" > /sys/kernel/config/nullb/r0bad/badblocks || fail "null_blk takes no badblocks"
expect_status 1 "a sequential read over bad blocks fails" \
	r0bench --yes --rw read --bs 4K --qd 4 --size 16M "$bad"
cat /tmp/expect.out
grep -q "r0bench: $bad: read error at offset 1048576 (4096 bytes): Input/output error" /tmp/expect.out ||
	fail "the error message does not name offset 1048576 and EIO"
doc_example bench-errors "read error at offset" "s|$bad|/dev/nullb0|g"
r0bench --yes --json --rw read --bs 4K --qd 4 --size 16M "$bad" > /tmp/err.json
expect_eq "$?" 1 "exit status with --json"
expect_eq "$(r0json /tmp/err.json tests.0.first_error.offset_bytes)" 1048576 "JSON first_error.offset_bytes"
expect_eq "$(r0json /tmp/err.json tests.0.first_error.errno)" 5 "JSON first_error.errno"
expect_eq "$(r0json /tmp/err.json exit.status)" 1 "JSON exit.status"
cp /tmp/err.json "$R0_RESULTS/badblocks.r0bench.json"
r0bench --yes --json --continue-on-error --rw read --bs 4K --qd 1 --size 16M "$bad" > /tmp/cont.json
expect_eq "$?" 1 "exit status with --continue-on-error"
expect_eq "$(r0json /tmp/cont.json tests.0.errors)" 1 "one bad 4K block, one error"
expect_eq "$(r0json /tmp/cont.json tests.0.passes.0.read_ios)" 4095 "every other block read"

dev=$(r0_member r0use fast size=16) || fail "member"
expect_status 2 "--bs 0" r0bench --yes --bs 0 "$dev"
expect_status 2 "--bs not a multiple of the 4096-byte logical block" r0bench --yes --bs 6K "$dev"
grep -q "not a multiple of the logical block size 4096" /tmp/expect.out || fail "reason for --bs 6K"
expect_status 2 "--qd 0" r0bench --yes --qd 0 "$dev"
expect_status 2 "--qd above the ring limit" r0bench --yes --qd 5000 "$dev"
expect_status 2 "--span past the end" r0bench --yes --span 17M "$dev"
grep -q "passes the end" /tmp/expect.out || fail "reason for --span"
expect_status 2 "--rw nonsense" r0bench --yes --rw sideways "$dev"
expect_status 2 "--runtime and --size together" r0bench --yes -t 1 -s 1M "$dev"
expect_status 2 "a missing target" r0bench --yes /dev/nosuch

mkfs.ext4 -q -F "$dev" || fail "mkfs"
sum=$(md5sum < "$dev")
expect_status 2 "a write to a device with ext4 on it" r0bench --yes --rw write -t 0.2 "$dev"
grep -q "holds an ext4 signature (use --force to overwrite)" /tmp/expect.out || fail "reason: signature"
expect_eq "$(md5sum < "$dev")" "$sum" "the refused device is unchanged"
expect_status 0 "a read of it is fine" r0bench --yes --rw randread -t 0.2 "$dev"
mkdir -p /mnt/b && mount "$dev" /mnt/b || fail "mount"
expect_status 2 "a write to a mounted device, even with --force" r0bench --yes -f --rw write -t 0.2 "$dev"
grep -q "mounted on /mnt/b" /tmp/expect.out || fail "reason: mounted"
umount /mnt/b
expect_status 0 "with --force the ext4 device is written" r0bench --yes -f --rw write -t 0.2 "$dev"
arr=$(r0build create --yes -q -f --backend md -c 64K --name held "$dev") || fail "array"
expect_status 2 "a write to an array member" r0bench --yes -f --rw randwrite -t 0.2 "$dev"
grep -q "held by md_r0-held" /tmp/expect.out || fail "reason: held"
r0build remove held || fail "remove"
r0_remove_members || fail "a member stayed"

# Requests that take 8 s each: with --stall 1 the run is abandoned after
# about a second with exit 1 and says why, long before they complete. A
# run that waits for them is stopped by timeout's SIGTERM at 6 s and also
# exits 1 (interrupted), so the message is what tells the two apart: with
# the stall check disabled this test failed on it.
slow=$(r0_member r0stall fast size=16 irqmode=2 completion_nsec=8000000000) || fail "member"
expect_status 1 "a device that completes nothing for --stall 1" \
	timeout 6 r0bench --yes --rw randread --bs 4K --qd 4 -t 3 --stall 1 "$slow"
grep -q "r0bench: $slow: randread: no request completed for 1 s: the device or the kernel stalls" \
	/tmp/expect.out || fail "the stall message"
doc_example bench-stall "no request completed" "s|$slow|/dev/nullb0|g"
sleep 9   # the abandoned requests complete in the kernel before the member goes
r0_remove_members || fail "the slow member stayed"
