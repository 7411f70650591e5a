# SPDX-License-Identifier: GPL-2.0-or-later
# r0age on null_blk members: fill 50 writes exactly half the device (the
# member's own write-sector counter), empty discards every sector (its
# discard counter) and the data reads as zeros, used runs its random
# writes for the time asked and every byte it counts reached the member,
# steady preconditions 2x the capacity, reaches steady state on a dm-delay
# map (flat: 32 writes a round) and says it did not when the delay is
# raised half-way; each run leaves its state record, which r0bench --json
# embeds (null for a device r0age never touched); refusals (signature,
# mounted, held by md, no discard: exit 2), usage errors, steady state
# not reached (exit 3), and SIGTERM stopping a
# run with exit 1 and an incomplete record.
. ./lib.sh

statedir=/run/r0kit/state
# the state records of the members, named now: at exit the members are gone
records=""
cleanup() {
	umount /tmp/age-mnt 2> /dev/null
	rm -f $records
}
trap cleanup EXIT

members=$(r0_members fast 3 size=64) || fail "members"
set -- $members
a=$1 b=$2 c=$3
devt=$(r0_sysfs "$a" dev)
rec=$statedir/$devt.json
for d in $members; do records="$records $statedir/$(r0_sysfs "$d" dev).json"; done
rm -f $records

# stat FIELD of /sys/block/X/stat (7: write sectors, 14: discard sectors)
stat_field() { awk -v f="$2" '{ print $f }' "/sys/block/${1##*/}/stat"; }
j() { r0json "$rec" "$1"; }

expect_status 2 "no arguments" r0age --yes
expect_status 2 "unknown state" r0age --yes worn "$a"
expect_status 2 "fill 0" r0age --yes fill 0 "$a"
expect_status 2 "fill 101" r0age --yes fill 101 "$a"
expect_status 2 "used without a duration" r0age --yes used "$a"
expect_status 2 "used 0" r0age --yes used 0 "$a"
expect_status 2 "steady --rounds 4 (below the window)" r0age --yes steady --rounds 4 "$a"
expect_status 2 "--round with fill" r0age --yes fill --round 1 "$a"
expect_status 2 "a regular file" r0age --yes fill /etc/passwd
[ ! -e "$rec" ] || fail "a refused run left a record"

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

# steady_window FILE LAST: whether the window of 5 rounds ending at round LAST
# of FILE's round_iops holds SNIA's rule (range <= 20 %, |slope| x 4 <= 10 %
# of the mean), computed here from the recorded rounds, not by r0age
steady_window() {
	_i=$(($2 - 5)) _p=""
	while [ "$_i" -lt "$2" ]; do _p="$_p steady.round_iops.$_i"; _i=$((_i + 1)); done
	r0json "$1" $_p | awk '{ y[NR - 1] = $1; m += $1 / 5 }
		END { if (NR != 5) exit 2
		      lo = hi = y[0]; s = 0
		      for (i = 0; i < 5; i++) { if (y[i] < lo) lo = y[i]; if (y[i] > hi) hi = y[i]; s += (i - 2) * (y[i] - m) / 10 }
		      if (s < 0) s = -s
		      exit !(hi - lo <= 0.2 * m && 4 * s <= 0.1 * m) }'
}

# steady on a dm-delay map over a member, every write delayed 600 ms, in
# rounds of 1 s: each round counts the first 32 writes (QD32) that complete
# after 600 ms and drains the next 32 uncounted, so every round gives 32
# IOPS however busy the host is (wall-clock IOPS were not flat enough under
# TCG). Steady state must be reached, from round 5 on, at the first window
# the rule accepts. Reads are not delayed: r0age's signature check and
# udev's blkid probe (which dmsetup create waits for, and which runs again
# after each writer closes the map) read a few dozen blocks, 600 ms each,
# and steady reads nothing
base=$(r0_member r0dly fast size=2) || fail "member under dm-delay"
records="$records $statedir/$(r0_sysfs "$base" dev).json"
sectors=$((2 << 11))
dmsetup create r0delay --table "0 $sectors delay $base 0 0 $base 0 600" || fail "dm-delay"
dly=/dev/mapper/r0delay
r0_wait_dev "$dly" || fail "no $dly"
w0=$(stat_field "$base" 7)
r0age --yes --json steady --round 1 --rounds 10 "$dly" > /tmp/steady.json || fail "steady: $(cat /tmp/steady.json)"
wrote=$(( ($(stat_field "$base" 7) - w0) * 512 ))
[ "$wrote" -ge $((4 << 20)) ] || fail "steady wrote $wrote bytes, less than 2x the capacity"
echo "steady rounds (write IOPS): $(r0json /tmp/steady.json steady.round_iops | tr -d ' \n')"
expect_eq "$(r0json /tmp/steady.json steady.reached)" true "steady state reached on a flat device"
round=$(r0json /tmp/steady.json steady.round)
expect_eq "$(r0json /tmp/steady.json steady.rounds)" "$round" "steady: stops at the round it reached"
[ "$round" -ge 5 ] || fail "steady reached at round $round, before a whole window"
steady_window /tmp/steady.json "$round" || fail "rounds $((round - 4))-$round do not hold the rule"
[ "$round" = 5 ] || ! steady_window /tmp/steady.json $((round - 1)) ||
	fail "the window ending at round $((round - 1)) held the rule already"
iops=$(r0json /tmp/steady.json "steady.round_iops.$((round - 1))")
check "$iops == 32" "round $round: 32 writes counted in 1 s"

# the same map, its delay raised to 2 s after the second round (the rounds
# after it count nothing): the only window (5 rounds) spans both, so steady
# state must NOT be reached, and r0age must say so
w0=$(stat_field "$base" 7)
r0age --yes --json steady --round 1 --rounds 5 "$dly" > /tmp/unsteady.json 2>&1 &
apid=$!
n=600
while [ $(( $(stat_field "$base" 7) - w0 )) -lt $((sectors * 2)) ]; do
	n=$((n - 1)); [ "$n" -gt 0 ] || fail "steady: preconditioning did not end in 60 s"
	sleep 0.1
done
sleep 2.5
dmsetup suspend r0delay && dmsetup reload r0delay --table "0 $sectors delay $base 0 0 $base 0 2000" &&
	dmsetup resume r0delay || fail "dm-delay to 2 s"
wait "$apid"
# steady state not reached in the rounds: not conclusive
expect_eq "$?" 3 "steady with the delay raised (exit)"
echo "steady rounds, delay raised (write IOPS): $(r0json /tmp/unsteady.json steady.round_iops | tr -d ' \n')"
expect_eq "$(r0json /tmp/unsteady.json steady.reached)" false "steady state not reached when the device slowed down"
expect_eq "$(r0json /tmp/unsteady.json steady.round)" null "steady round when not reached"
expect_eq "$(r0json /tmp/unsteady.json steady.rounds)" 5 "steady not reached: all rounds run"
steady_window /tmp/unsteady.json 5 && fail "the recorded rounds hold the rule, yet r0age says not reached"
rm -f "$statedir/$(r0json /tmp/steady.json device.devt).json"
dmsetup remove --retry r0delay || fail "dmsetup remove --retry r0delay"
# reached (0) or not in 5 rounds (3, not conclusive): either is a run that worked
r0age --yes steady --round 0.3 --rounds 5 "$b" > /tmp/steady.txt
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "steady (table): exit $rc"
grep -Eq "steady state (reached at round 5 \(rounds 1-5\)|NOT reached in 5 rounds)" /tmp/steady.txt ||
	fail "steady summary: $(cat /tmp/steady.txt)"

# r0bench embeds the record of its target; null for a device without one
r0bench --yes --json --rw randread -t 0.3 "$a" > "$R0_RESULTS/age-state.r0bench.json" || fail "r0bench"
expect_eq "$(r0json "$R0_RESULTS/age-state.r0bench.json" state.state)" used "r0bench state.state"
expect_eq "$(r0json "$R0_RESULTS/age-state.r0bench.json" state.bytes_written)" "$bw" "r0bench state.bytes_written"
r0bench --yes --json --rw randread -t 0.3 "$c" > "$R0_RESULTS/age-nostate.r0bench.json" || fail "r0bench"
expect_eq "$(r0json "$R0_RESULTS/age-nostate.r0bench.json" state)" null "r0bench state without a record"

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

# refusals: no discard, a signature, mounted, held by md
nd=$(r0_member r0nd no-discard size=32 mbps=0 irqmode=0) || fail "no-discard member"
records="$records $statedir/$(r0_sysfs "$nd" dev).json"
expect_status 2 "empty on a device without discard" r0age --yes empty "$nd"
grep -q "takes no discards" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
mkfs.ext4 -q "$c" || fail "mkfs"
expect_status 2 "a device with a signature" r0age --yes fill 10 "$c"
grep -q "signature" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
mkdir -p /tmp/age-mnt
mount "$c" /tmp/age-mnt || fail "mount"
expect_status 2 "a mounted device, even with --force" r0age --yes -f fill 10 "$c"
grep -q "mounted" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
umount /tmp/age-mnt
md=$(r0build create --yes -q -f --backend md -c 64K --name age "$a" "$b") || fail "md"
expect_status 2 "an md member, even with --force" r0age --yes -f fill 10 "$a"
grep -q "held by" /tmp/expect.out || fail "message: $(cat /tmp/expect.out)"
r0build remove age || fail "remove"
r0_remove_members || fail "a member stayed"
