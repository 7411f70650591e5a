# SPDX-License-Identifier: GPL-2.0-or-later
# r0age used on null_blk members: it fills, then runs its random writes for
# the time asked, and every byte its record counts reached the member (its
# write-sector counter); r0bench --json embeds that record for its target
# (null for a device r0age never touched; both documents kept in
# $R0_RESULTS), and r0bench's writes and r0trim remove it (the state it
# says is no longer the device's); SIGTERM stops a run with exit 1, a message and a record that
# says it is not complete.
. ./lib.sh

statedir=/run/r0kit/state
# the state records of the members, named now: at exit the members are gone
records=""
trap 'rm -f $records' EXIT

members=$(r0_members fast 2 size=64) || fail "members"
set -- $members
a=$1 c=$2
rec=$statedir/$(r0_sysfs "$a" dev).json
for d in $members; do records="$records $statedir/$(r0_sysfs "$d" dev).json"; done
rm -f $records

# stat FIELD of /sys/block/X/stat (7: write sectors)
stat_field() { awk -v f="$2" '{ print $f }' "/sys/block/${1##*/}/stat"; }
j() { r0json "$rec" "$1"; }

# used: fill 50, then 2 s of random 4K writes; the member got every byte counted
w0=$(stat_field "$a" 7)
t0=$(cut -d' ' -f1 /proc/uptime)
expect_status 0 "used 2s --fill 50" r0age --yes used 2s --fill 50 "$a"
secs=$(echo "$(cut -d' ' -f1 /proc/uptime) $t0" | awk '{ printf "%d", $1 - $2 }')
[ "$secs" -ge 2 ] && [ "$secs" -le 20 ] || fail "used 2s took $secs s"
bw=$(j bytes_written)
# the record counts every write that completed, those still in flight
# when the time was up included
got=$(( ($(stat_field "$a" 7) - w0) * 512 ))
expect_eq "$got" "$bw" "used: the bytes the member got are the record's"
[ "$bw" -gt $(( (32 << 20) + (1 << 20) )) ] || fail "used wrote only $bw bytes: no random writes after the fill"
expect_eq "$(j parameters.duration_s)" 2.0 "record duration_s"
expect_eq "$(j parameters.queue_depth)" 32 "record queue_depth"

# r0bench embeds the record of its target; null for a device without one
r0bench --yes --json --rw randread -t 0.3 "$a" > "$R0_RESULTS/age-state.r0bench.json" || fail "r0bench"
expect_eq "$(r0json "$R0_RESULTS/age-state.r0bench.json" state.state)" used "r0bench state.state"
expect_eq "$(r0json "$R0_RESULTS/age-state.r0bench.json" state.bytes_written)" "$bw" "r0bench state.bytes_written"
r0bench --yes --json --rw randread -t 0.3 "$c" > "$R0_RESULTS/age-nostate.r0bench.json" || fail "r0bench"
expect_eq "$(r0json "$R0_RESULTS/age-nostate.r0bench.json" state)" null "r0bench state without a record"
# a tool that writes the device ends the state r0age recorded: r0bench's reads keep it (above), its
# writes remove it, and r0trim's pattern and discards do (its record is made again first)
r0bench --yes --rw randwrite -t 0.2 "$a" > /tmp/age-w.out 2>&1 || fail "r0bench writes: $(cat /tmp/age-w.out)"
[ -e "$rec" ] && fail "r0bench's writes left the state record: $(cat "$rec")"
expect_status 0 "fill 10 again" r0age --yes fill 10 "$a"
[ -e "$rec" ] || fail "no record after fill"
r0trim --yes -f "$a" > /tmp/age-trim.out 2>&1 || fail "r0trim: $(tail -3 /tmp/age-trim.out)"
[ -e "$rec" ] && fail "r0trim's run left the state record: $(cat "$rec")"

# SIGTERM: exit 1, a message, and a record that says it is not complete
r0age --yes used 60 "$c" > /tmp/age-term.out 2>&1 &
pid=$!
sleep 2   # the fill of a fast member is done by then; the random writes run
kill -TERM "$pid"
wait "$pid"
rc=$?
expect_eq "$rc" 1 "r0age after SIGTERM"
grep -q "interrupted by a signal" /tmp/age-term.out || fail "no message: $(cat /tmp/age-term.out)"
expect_eq "$(r0json "$statedir/$(r0_sysfs "$c" dev).json" complete)" false "record complete after SIGTERM"
r0_remove_members || fail "a member stayed"
