# SPDX-License-Identifier: GPL-2.0-or-later
# r0age fill and empty on a null_blk member, counted by the member itself:
# fill 50 writes exactly half the device (its write-sector counter) and
# leaves a complete record of it; an odd fill (33 %) is exact too, and
# --json prints the record; empty discards every sector (its discard
# counter) and the data then reads as zeros.
. ./lib.sh

statedir=/run/r0kit/state
# the member's state record, named now: at exit the member is gone
records=""
trap 'rm -f $records' EXIT

a=$(r0_member r0m0 fast size=64) || fail "member"
devt=$(r0_sysfs "$a" dev)
rec=$statedir/$devt.json
records=$rec
rm -f $records

# stat FIELD of /sys/block/X/stat (7: write sectors, 14: discard sectors)
stat_field() { awk -v f="$2" '{ print $f }' "/sys/block/${1##*/}/stat"; }
j() { r0json "$rec" "$1"; }

# fill 50: exactly 32 MiB, counted by the member
w0=$(stat_field "$a" 7)
expect_status 0 "fill 50" r0age --yes fill 50 "$a"
cat /tmp/expect.out
expect_eq "$(( $(stat_field "$a" 7) - w0 ))" $((32 << 11)) "write sectors the member counted for fill 50"
expect_eq "$(j state)" fill "record state"
expect_eq "$(j r0kit_schema)" r0age-state/1 "record schema"
expect_eq "$(j complete)" true "record complete"
expect_eq "$(j parameters.fill_pct)" 50 "record fill_pct"
expect_eq "$(j bytes_written)" $((32 << 20)) "record bytes_written"
expect_eq "$(j device.devt)" "$devt" "record devt"
expect_eq "$(j steady)" null "no steady part for fill"

# an odd fill: 33 % of 64 MiB is not whole 128K blocks; still exact (4K blocks)
w0=$(stat_field "$a" 7)
r0age --yes --json fill 33% "$a" > /tmp/age.json || fail "fill 33%"
want=$(( (64 << 20) * 33 / 100 / 4096 * 4096 ))
expect_eq "$(( ($(stat_field "$a" 7) - w0) * 512 ))" "$want" "bytes the member got for fill 33%"
expect_eq "$(r0json /tmp/age.json bytes_written)" "$want" "--json prints the record"
cmp -s /tmp/age.json "$rec" || fail "--json output differs from $rec"

# empty: every sector discarded, the data reads as zeros
d0=$(stat_field "$a" 14)
expect_status 0 "empty" r0age --yes empty "$a"
expect_eq "$(( $(stat_field "$a" 14) - d0 ))" $((64 << 11)) "discard sectors the member counted for empty"
expect_eq "$(j bytes_discarded)" $((64 << 20)) "record bytes_discarded"
expect_eq "$(j state)" empty "record state"
r0_drop_caches
expect_eq "$(dd if="$a" bs=1M count=64 iflag=direct 2> /dev/null | tr -d '\0' | wc -c)" 0 "device reads zeros after empty"
r0_remove_members || fail "a member stayed"
