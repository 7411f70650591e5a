# SPDX-License-Identifier: GPL-2.0-or-later
# The state record r0age leaves is what r0bench --json embeds for its
# target (a member after r0age used: its state and bytes written), and
# null for a device r0age never touched. Both documents are kept in
# $R0_RESULTS.
. ./lib.sh

statedir=/run/r0kit/state
# the state records of the members, named now: at exit the members are gone
records=""
trap 'rm -f $records' EXIT

members=$(r0_members fast 2 size=32) || fail "members"
set -- $members
a=$1 c=$2
rec=$statedir/$(r0_sysfs "$a" dev).json
for d in $members; do records="$records $statedir/$(r0_sysfs "$d" dev).json"; done
rm -f $records
r0age --yes used 1s --fill 50 "$a" > /tmp/age.out 2>&1 || { cat /tmp/age.out; fail "r0age used 1s"; }
bw=$(r0json "$rec" bytes_written)

# r0bench embeds the record of its target; null for a device without one
r0bench --yes --json --rw randread -t 0.3 "$a" > "$R0_RESULTS/age-state.r0bench.json" || fail "r0bench"
expect_eq "$(r0json "$R0_RESULTS/age-state.r0bench.json" state.state)" used "r0bench state.state"
expect_eq "$(r0json "$R0_RESULTS/age-state.r0bench.json" state.bytes_written)" "$bw" "r0bench state.bytes_written"
r0bench --yes --json --rw randread -t 0.3 "$c" > "$R0_RESULTS/age-nostate.r0bench.json" || fail "r0bench"
expect_eq "$(r0json "$R0_RESULTS/age-nostate.r0bench.json" state)" null "r0bench state without a record"
r0_remove_members || fail "a member stayed"
