# SPDX-License-Identifier: GPL-2.0-or-later
# r0bench --verify over md raid0 and dm-stripe: a random write pass reads
# back clean; a block overwritten on a member behind the array's back is
# found, named by its array offset, where the stripe geometry puts it.
. ./lib.sh

# -j 3 on a 200 MiB member of 512-byte sectors: 200 MiB / 3 is no whole
# number of sectors, and the old slicing sent two jobs off alignment
# (EINVAL at once). Now the slices sit on 4K and the last takes the rest:
# a verify write pass covers every sector once, the read-back finds them
# all, and the member's own counters saw exactly the region.
odd=$(r0_member r0odd fast size=200 blocksize=512) || fail "member"
w0=$(awk '{ print $7 }' /sys/block/r0odd/stat)
expect_status 0 "-j 3 randwrite --verify on a 200 MiB member of 512-byte sectors" \
	r0bench --yes --rw randwrite --bs 4K --qd 8 -j 3 --verify --seed 5 "$odd"
cat /tmp/expect.out
w1=$(awk '{ print $7 }' /sys/block/r0odd/stat)
expect_eq "$((w1 - w0))" $((200 * 2048)) "sectors the member wrote (each exactly once)"
expect_status 0 "-j 3 read --verify (another job count's slices) finds every sector" \
	r0bench --yes --rw read --bs 64K --qd 4 -j 3 --verify --seed 5 "$odd"
grep -q "$((200 << 20)) bytes checked, 0 bad sectors" /tmp/expect.out || { cat /tmp/expect.out; fail "read-back"; }
expect_status 0 "-j 3 time-based randrw" r0bench --yes --rw randrw --qd 4 -j 3 -t 1 "$odd"
r0_remove_member r0odd

members=$(r0_members fast 3 size=16) || fail "members"
set -- $members
for be in md dm; do
	arr=$(r0build create --yes -q --backend "$be" -c 64K --name vfy "$@") || fail "$be array"
	expect_status 0 "$be: randwrite --verify reads back clean" \
		r0bench --yes --rw randwrite --bs 16K --qd 8 --verify --seed 77 "$arr"
	cat /tmp/expect.out
	# array chunk 7 (row 2, member 1 of 3) gets other data on r0m1 itself
	dd if=/dev/urandom of="$2" bs=4096 seek=$((2 * 16 + 3)) count=1 conv=notrunc,fsync 2>/dev/null ||
		fail "dd to the member"
	r0_drop_caches
	expect_status 1 "$be: a read --verify finds the overwritten block" \
		r0bench --yes --rw read --bs 64K --qd 4 --verify --seed 77 "$arr"
	cat /tmp/expect.out
	off=$((7 * 65536 + 3 * 4096))
	grep -q "first at offset $off (sector $((off / 512))): not written by a verify pass" /tmp/expect.out ||
		fail "$be: the message does not name offset $off"
	grep -q ": 8 bad sectors" /tmp/expect.out || fail "$be: 8 bad sectors expected"
	note "ok: $be: the bad block is named at array offset $off"
	expect_status 1 "$be: the wrong seed is caught" \
		r0bench --yes --rw read --bs 64K --qd 4 --verify --seed 78 "$arr"
	grep -q "written with another seed" /tmp/expect.out || fail "$be: wrong seed not named"
	r0build remove vfy || fail "remove $be"
done
r0_remove_members || fail "a member stayed"
