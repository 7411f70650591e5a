# SPDX-License-Identifier: GPL-2.0-or-later
# r0trim passes md raid0 arrays whose discards reach the members: 2 and 3
# null_blk members at 4K, 64K and 512K chunks, equal and unequal sizes
# (zones, both layouts), an mdadm-made array with a superblock (data offset),
# the JSON figures, --cycles, and a single device as its own member.
. ./lib.sh
. ./r0trim-lib.sh

members=$(r0_members fast 3 size=8) || fail "members"
set -- $members
a=$(r0_member u0 fast size=5) && b=$(r0_member u1 fast size=7) && c=$(r0_member u2 fast size=12) ||
	fail "unequal members"
for chunk in 4K 64K 512K; do
	for set in "$1 $2" "$1 $2 $3" "$a $b" "$a $b $c"; do
		md=$(r0build create --yes -q -f --backend md -c "$chunk" --name t $set) || fail "md $chunk $set"
		trim_pass "md $chunk over $set" -f "$md"
		expect_ranges "one chunk" "across chunk boundaries" "large" "whole device"
		case $set in *u2*) expect_ranges "across md zones 0|1" "across md zones 1|2" ;; esac
		r0build remove t || fail "remove"
	done
done
expect_ranges "part of a chunk, 256K at 640K"

# the ORIG layout over unequal members maps zones differently; Linux 6.12 discards it right
md=$(r0build create --yes -q -f --backend md -c 64K --layout orig --name t "$c" "$a" "$b") || fail "md orig"
trim_pass "md 64K layout orig" -f "$md"
grep -q '^layout *PASS *3 zones, layout orig on Linux 6' /tmp/trim.out || fail "layout audit: $(grep ^layout /tmp/trim.out)"
echo "r0trim of a 3-member md raid0, unequal members, orig layout:"
cat /tmp/trim.out
r0build remove t || fail "remove"

# the 3-member md of equal members, in full, with --cycles and JSON
md=$(r0build create --yes -q -f --backend md -c 64K --name t "$1" "$2" "$3") || fail "md"
trim_pass "md 64K, 5 cycles" -f --cycles 5 "$md"
expect_eq "$(grep -c '^cycle *PASS ' /tmp/trim.out)" 5 "cycles passed"
echo "r0trim of a 3-member md raid0 at 64K:"
cat /tmp/trim.out
r0trim --yes -f -J --cycles 1 "$md" > /tmp/trim.json; rc=$?
expect_eq "$rc" 0 "r0trim --json exit"
cp /tmp/trim.json "$R0_RESULTS/md-cycles.r0trim.json"   # for host/062's schema check
grep -q '"r0kit_schema": *"r0trim/1"' /tmp/trim.json || fail "JSON schema: $(head -3 /tmp/trim.json)"
grep -q '"discards_pass": *true' /tmp/trim.json || fail "JSON discards_pass"
n=$(json_delivery_exact /tmp/trim.json) || fail "JSON expected/observed: $n"
note "ok: JSON: $n, each observed = expected"
r0build remove t || fail "remove"

# an array r0build did not make: mdadm, 1.2 superblock, so data starts at an offset
mdadm --create /dev/md/trimx --run --level=0 --chunk=64 --raid-devices=3 --metadata=1.2 \
	"$a" "$b" "$c" > /dev/null 2>&1 || fail "mdadm --create"
md=$(readlink -f /dev/md/trimx)
off=$(cat /sys/block/${md##*/}/md/rd0/offset)
[ "$off" -gt 0 ] || fail "mdadm array has no data offset"
trim_pass "mdadm 1.2 array (data offset $off sectors)" -f "$md"
mdadm --stop "$md" > /dev/null 2>&1 || fail "mdadm --stop"

# one device alone: its own member
trim_pass "a single device" -f "$c"
grep -q '^verdict *PASS *discards reach /dev/u2' /tmp/trim.out || fail "single device verdict: $(tail -1 /tmp/trim.out)"
r0_remove_members || fail "a member stayed"
