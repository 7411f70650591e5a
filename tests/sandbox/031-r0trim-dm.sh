# SPDX-License-Identifier: GPL-2.0-or-later
# r0trim passes dm striped arrays whose discards reach the members: 2 and 3
# null_blk members at 4K, 64K and 512K chunks, equal and unequal sizes; a
# striped table made with dmsetup, with member offsets; a dm linear map.
. ./lib.sh
. ./r0trim-lib.sh

members=$(r0_members fast 3 size=8) || fail "members"
set -- $members
a=$(r0_member u0 fast size=5) && b=$(r0_member u1 fast size=7) && c=$(r0_member u2 fast size=12) ||
	fail "unequal members"
for chunk in 4K 64K 512K; do
	for set in "$1 $2" "$1 $2 $3" "$a $b" "$c $a $b"; do
		dm=$(r0build create --yes -q -f --backend dm -c "$chunk" --name t $set) || fail "dm $chunk $set"
		trim_pass "dm $chunk over $set" -f "$dm"
		expect_ranges "one chunk" "across chunk boundaries" "large" "whole device"
		r0build remove t || fail "remove"
	done
done

# a table r0build did not make: dmsetup, members from an offset on
dmsetup create trimx --table "0 24576 striped 2 128 $1 2048 $2 4096" || fail "dmsetup striped"
r0_wait_dev /dev/mapper/trimx || fail "no /dev/mapper/trimx"
trim_pass "dmsetup striped table with offsets 2048 and 4096, 3 repeats" -f --repeats 3 /dev/mapper/trimx
grep -q 'dm striped, 2 members, chunk 64K' /tmp/trim.out || fail "description: $(head -1 /tmp/trim.out)"
echo "r0trim of a dmsetup striped table:"
cat /tmp/trim.out
dmsetup remove --retry trimx || fail "dmsetup remove"

dmsetup create trimx --table "0 8192 linear $3 1024" || fail "dmsetup linear"
r0_wait_dev /dev/mapper/trimx || fail "no /dev/mapper/trimx"
trim_pass "dm linear at offset 1024" -f /dev/mapper/trimx
grep -q "dm-linear trimx over one device" /tmp/trim.out || fail "description: $(head -1 /tmp/trim.out)"
dmsetup remove --retry trimx || fail "dmsetup remove"
r0_remove_members || fail "a member stayed"
