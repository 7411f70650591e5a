# SPDX-License-Identifier: GPL-2.0-or-later
# r0bench --replay: a trace that r0profile --trace records on a null_blk
# member (sata-ssd profile: 250 MB/s, ~100 us completions) while r0bench
# runs three workloads, 4K random reads, 1 MiB sequential reads and 1 MiB
# sequential writes, each at QD1 for 2 s, replays on the same member at
# QD1 in the time r0bench's own rates (measured again untraced) give for
# each workload's bytes (within 25 %: both are
# io_uring at QD1, and under TCG a 4K read's latency varies by about that
# much between runs), each write once; at the
# recorded pace it takes about the recorded time and says its lag. On a
# member a quarter of the size the trace is mapped modulo its size and the
# report says so. A truncated trace is refused (exit 2) with a clear message, writes
# without --yes and no terminal are exit 2, and --read-only refuses a trace
# with writes, and takes one of reads only. --json writes the r0bench/1 document with a "replay" object.
# --replay-discards issues the trace's discards (the member's discard
# sectors in /sys/block/X/stat grow by them, and they read zeros after),
# and is refused on a member without discard.
# On an md raid0 of 2 such members the same trace replays in the time
# r0bench's rates there give (the same bound): a trace of one drive
# predicts the array. r0sweep --replay makes a trace a workload of the
# study: a cell per target and repeat with its seconds, and the verdict's
# sentence on the recording; with --replay-scale its cells are paced.
# Timings on a shared TCG host: a replay's time, the paced replay's or the
# pair's gain outside its bound is measured twice more and the median of
# three judged; the paced cells by their median. A trace whose writes are
# not r0bench's (CI saw 12 fewer once) is shown with r0profile's account and
# its gaps, and recorded once more.
# r0-test-timeout: 600
# (about 160 s on a busy host; each bound missed measures again, up to three times)
. ./lib.sh

trap r0_cleanup EXIT
dev=$(r0_member r0rep sata-ssd) || fail "member"
small=$(r0_member r0reps sata-ssd size=64) || fail "small member"
tr=$R0_RESULTS/replay.r0trace

workloads="rand4k:randread:4K seqr1m:read:1M seqw1m:write:1M"
# record: the three runs traced by r0profile, recorded until SIGINT (its own
# end: as long as the runs take under TCG, no longer); $trace_writes is the
# trace's writes as r0profile reads them back (each refused-and-queued-again
# write once)
record() {
	r0profile --interval 0.5 --trace "$tr" --output "$R0_RESULTS/replay.r0mix.json" "$dev" \
		> /tmp/replay.profile 2>&1 &
	pid=$!
	sleep 1   # its recorder set up before the first request
	# --ring: the replay is io_uring at QD1 too, not r0bench's pread path at QD1
	# (ramp 0, one pass: a run's pass counts every byte it issued)
	for w in $workloads; do
		ifs=$IFS; IFS=:; set -- $w; IFS=$ifs
		r0bench --yes --json --ring -t 2 --rw "$2" --bs "$3" --qd 1 "$dev" \
			> "$R0_RESULTS/replay-$1.r0bench.json" || fail "r0bench $2 $3"
		eval "rec_$1=\$(r0json \"\$R0_RESULTS/replay-$1.r0bench.json\" tests.0.summary.bytes_per_s.median)"
		eval "bytes_$1=\$(r0json \"\$R0_RESULTS/replay-$1.r0bench.json\" tests.0.passes.0.bytes)"
	done
	sleep 0.5
	kill -INT "$pid"
	wait "$pid" || { cat /tmp/replay.profile; fail "r0profile --trace"; }
	note "$(grep 'events in' /tmp/replay.profile)"
	rec_writes=$(r0json "$R0_RESULTS/replay-seqw1m.r0bench.json" tests.0.passes.0.write_ios)
	trace_writes=$(awk '$1 == "writes" { print $2; exit }' /tmp/replay.profile)
	note "r0bench while traced: 4K random reads $rec_rand4k B/s ($bytes_rand4k B), 1M reads $rec_seqr1m B/s ($bytes_seqr1m B), 1M writes $rec_seqw1m B/s ($rec_writes writes; the trace $trace_writes)"
}

# writes_gaps: where the trace's 1M writes skip ahead of the last one's
# end (fio iolog v3 lines "TIME FILE write OFFSET LENGTH"), the first ten
writes_gaps() {
	r0profile --from-trace "$tr" --export-iolog /tmp/replay.iolog > /dev/null 2>&1 || return
	awk '$3 == "write" { if (n++ && $4 != end) print "  gap: write at " $4 " (t " $1 " us) after one ending at " end; end = $4 + $5 }' \
		/tmp/replay.iolog | head -10
}

record
# CI once saw 381 writes in the trace for r0bench's 393, on a loaded host
# (25 rounds here on a loaded host: always r0bench's + 1). A trace that is
# off is shown with r0profile's account of it and recorded once more: the
# checks below are of the replay, and each write once of the second trace
if ! holds "$trace_writes >= $rec_writes - 3 && $trace_writes <= $rec_writes + 3"; then
	note "the trace holds $trace_writes writes for r0bench's $rec_writes: recorded again"
	sed 's/^/  r0profile: /' /tmp/replay.profile
	writes_gaps
	record
fi
# field FILE NAME: the first word after "NAME:" in a replay report
field() { awk -v k="$2:" '$1 == k { print $2; exit }' "$1"; }

# against: r0bench's rates on the same device untraced (the recorder's own
# cost, under TCG every request's events relayed and read by the same two
# CPUs, slows what it watches), then the replay as fast as possible at QD1,
# and the ratio of its time to the time those rates give for its bytes
against() {
	on=$1
	for w in $workloads; do
		ifs=$IFS; IFS=:; set -- $w; IFS=$ifs
		r0bench --yes --json --ring -t 2 --rw "$2" --bs "$3" --qd 1 "$on" \
			> "$R0_RESULTS/replay-ref-$1.r0bench.json" || fail "r0bench $2 $3 untraced"
		eval "rate_$1=\$(r0json \"\$R0_RESULTS/replay-ref-$1.r0bench.json\" tests.0.summary.bytes_per_s.median)"
	done
	note "r0bench untraced on $on: 4K random reads $rate_rand4k B/s, 1M reads $rate_seqr1m B/s, 1M writes $rate_seqw1m B/s"
	echo "---- r0bench --replay --qd 1 (as fast as possible) on $on ----"
	r0bench --yes --replay "$tr" --qd 1 "$on" > /tmp/replay.fast 2>&1 || { cat /tmp/replay.fast; fail "replay"; }
	cat /tmp/replay.fast
	rb=$(field /tmp/replay.fast read) wb=$(field /tmp/replay.fast written) t=$(field /tmp/replay.fast time)
	check "$rb > 0 && $wb > 0" "the trace holds the workloads' requests"
	# its reads are the two read workloads' bytes (and r0bench's few probe reads)
	check "$rb >= ($bytes_rand4k + $bytes_seqr1m) * 0.98 && $rb <= ($bytes_rand4k + $bytes_seqr1m) * 1.05" \
		"the trace's reads against the two read workloads' bytes"
	want=$(awk -v a="$bytes_rand4k" -v ra="$rate_rand4k" -v b="$bytes_seqr1m" -v rb="$rate_seqr1m" \
		-v w="$wb" -v rw="$rate_seqw1m" 'BEGIN { print a / ra + b / rb + w / rw }')
	ratio=$(awk -v t="$t" -v e="$want" 'BEGIN { print t / e }')
	note "replay: $t s for $rb bytes read and $wb written; r0bench's rates give $want s (ratio $ratio)"
}

# judged DEV WHAT: the ratio on DEV judged against the bound. A busy host
# disturbs either side (slow rates make the ratio low, a slow replay high),
# so a first ratio outside is measured twice more and the median of the
# three is judged: one disturbed round of three does not decide
judged() {
	against "$1"
	if ! holds "$ratio >= 0.75 && $ratio <= 1.33"; then
		note "outside the bound: measured twice more, the median of three judged"
		r1=$ratio t1=$t; against "$1"; r2=$ratio t2=$t; against "$1"
		ratio=$(printf '%s %s\n' "$r1" "$t1" "$r2" "$t2" "$ratio" "$t" | sort -g | sed -n 2p)
		t=${ratio#* } ratio=${ratio% *}
		note "median ratio $ratio (replay $t s)"
	fi
	check "$ratio >= 0.75 && $ratio <= 1.33" "$2"
}

judged "$dev" "replay time against r0bench's rates"
fast1=$t   # the as-fast replay's time on one drive, for the pair below
note "against the traced rates: $(awk -v t="$t" -v a="$bytes_rand4k" -v ra="$rec_rand4k" -v b="$bytes_seqr1m" -v rb="$rec_seqr1m" -v w="$wb" -v rw="$rec_seqw1m" 'BEGIN { print t / (a / ra + b / rb + w / rw) }')"
# each 1M write once: io_uring's refused nonblocking attempt (a bio that must
# be split) is queued twice in the trace and replayed once
wr=$(awk '$1 == "requests:" { print $5 }' /tmp/replay.fast)
check "$wr >= $rec_writes - 3 && $wr <= $rec_writes + 3" "writes replayed against r0bench's $rec_writes"
! grep -q "^mapped:" /tmp/replay.fast || fail "a trace of this device is not mapped"

echo "---- r0bench --replay --replay-pace ----"
# paced FILE: the paced replay on the member, its report in FILE, its time in $t
paced() {
	r0bench --yes --replay "$tr" --replay-pace "$dev" > "$1" 2>&1 || { cat "$1"; fail "paced replay"; }
	t=$(field "$1" time)
}
paced /tmp/replay.pace
cat /tmp/replay.pace
rec=$(awk '/^trace:/ { for (i = 1; i < NF; i++) if ($(i + 1) == "s)") print $i }' /tmp/replay.pace)
note "paced replay: $t s for a recording of $rec s"
# its time is one run's on a shared host: a busy moment delays its first
# issue or stretches its last requests past their due times, so one outside
# the bound is replayed twice more and the median of three judged (as judged)
if ! holds "$t >= $rec * 0.95 && $t <= $rec * 1.2 + 0.5"; then
	note "outside the bound: replayed twice more, the median of three judged"
	p1=$t; paced /tmp/replay.pace2; p2=$t; paced /tmp/replay.pace2
	t=$(printf '%s\n' "$p1" "$p2" "$t" | sort -g | sed -n 2p)
	note "paced replay times $p1, $p2 and $(field /tmp/replay.pace2 time) s: median $t"
	rm -f /tmp/replay.pace2
fi
check "$t >= $rec * 0.95 && $t <= $rec * 1.2 + 0.5" "paced replay time against the recorded time"
grep -q "^lag: .*behind its recorded time" /tmp/replay.pace || fail "the paced replay does not say its lag"

# the same as r0bench/1 JSON (060 checks it against the schema on the host)
r0bench --yes --json --replay "$tr" --replay-pace --qd 1 "$dev" > "$R0_RESULTS/replay.r0bench.json" || fail "replay --json"
expect_eq "$(r0json "$R0_RESULTS/replay.r0bench.json" replay.requests)" "$(field /tmp/replay.fast requests)" "JSON replay.requests"
check "$(r0json "$R0_RESULTS/replay.r0bench.json" replay.lag_ns.max) >= 0" "JSON replay.lag_ns.max"

echo "---- a trace of a 256 MiB device on a 64 MiB one ----"
r0bench --yes --replay "$tr" --qd 1 "$small" > /tmp/replay.small 2>&1 || { cat /tmp/replay.small; fail "mapped replay"; }
cat /tmp/replay.small
grep -q "^mapped: .* is larger than the target: [1-9][0-9]* requests" /tmp/replay.small ||
	fail "the replay on the smaller member does not say it mapped"
expect_eq "$(field /tmp/replay.small requests)" "$(field /tmp/replay.fast requests)" "requests replayed on the smaller member"

# bad input and consent
head -c $(( $(wc -c < "$tr") / 2 )) "$tr" > /tmp/cut.r0trace
expect_status 2 "a truncated trace" r0bench --yes --replay /tmp/cut.r0trace "$dev"
grep -q "/tmp/cut.r0trace: truncated" /tmp/expect.out || fail "truncated: $(cat /tmp/expect.out)"
expect_status 2 "writes without --yes and no terminal" r0bench --replay "$tr" "$dev"
expect_status 2 "--read-only and a trace with writes" r0bench --read-only --replay "$tr" "$dev"
grep -q "holds [0-9]* writes" /tmp/expect.out || fail "--read-only: $(cat /tmp/expect.out)"
# a trace of reads only (written by r0tracegen): --read-only takes it and nothing asks
printf '0 queue read 0 4096\n100 queue read 8 4096\n200 queue read 2048 65536\n' |
	r0tracegen /tmp/reads.r0trace 524288 || fail "r0tracegen"
expect_status 0 "a trace of reads only under --read-only, no --yes" r0bench --read-only --replay /tmp/reads.r0trace "$dev"
expect_eq "$(field /tmp/expect.out requests)" 3 "requests of the reads-only trace"
rm -f /tmp/reads.r0trace

echo "---- --replay-discards: the trace's discards reach the device ----"
# 8 MiB written, then its first 4 MiB discarded in 4 requests of 1 MiB
awk 'BEGIN { for (i = 0; i < 8; i++) printf "%d queue write %d 1048576\n", i * 100, i * 2048
	     for (i = 0; i < 4; i++) printf "%d queue discard %d 1048576\n", 1000 + i * 100, i * 2048 }' |
	r0tracegen /tmp/disc.r0trace 524288 || fail "r0tracegen"
# discard sectors completed: /sys/block/X/stat's 14th field (Documentation/block/stat.rst)
dsec() { awk '{ print $14 }' "/sys/block/${1#/dev/}/stat"; }
# nonzero DEV SKIP_MIB COUNT_MIB: how many bytes there are not zero (read past the page cache)
nonzero() { r0_drop_caches; dd if="$1" bs=1M skip="$2" count="$3" 2>/dev/null | tr -d '\000' | wc -c; }
d0=$(dsec "$dev")
r0bench --yes --replay /tmp/disc.r0trace "$dev" > /tmp/disc.skip 2>&1 || { cat /tmp/disc.skip; fail "replay"; }
grep -q "^skipped: *4 discards (not replayed)" /tmp/disc.skip || { cat /tmp/disc.skip; fail "default: discards skipped"; }
expect_eq "$(dsec "$dev")" "$d0" "discard sectors without --replay-discards"
check "$(nonzero "$dev" 0 4) > 0" "the written 4 MiB are not zeros"
r0bench --yes --json --replay /tmp/disc.r0trace --replay-discards "$dev" > "$R0_RESULTS/replay-discards.r0bench.json" ||
	fail "replay --replay-discards --json"
expect_eq "$(r0json "$R0_RESULTS/replay-discards.r0bench.json" replay.discards)" 4 "JSON replay.discards"
r0bench --yes --replay /tmp/disc.r0trace --replay-discards "$dev" > /tmp/disc.out 2>&1 ||
	{ cat /tmp/disc.out; fail "replay --replay-discards"; }
cat /tmp/disc.out
grep -q "^discarded: *4194304 bytes .* in 4 requests (--replay-discards: BLKDISCARD)" /tmp/disc.out ||
	fail "the report does not say the discards"
d1=$(dsec "$dev")
note "discard sectors: $d0 before, $d1 after two replays with --replay-discards"
check "$d1 - $d0 >= 2 * 8192" "the trace's 4 MiB of discards arrived, twice"
# null_blk's memory-backed pages are freed by a discard: the first 4 MiB read zeros, the next do not
check "$(nonzero "$dev" 0 4) == 0" "the discarded 4 MiB read zeros"
check "$(nonzero "$dev" 4 4) > 0" "the 4 MiB written beside them are kept"
nd=$(r0_member r0repn no-discard) || fail "member without discard"
expect_status 2 "--replay-discards on a device that takes none" \
	r0bench --yes --replay /tmp/disc.r0trace --replay-discards "$nd"
grep -q "cannot discard: the device takes no discards" /tmp/expect.out || fail "no-discard: $(cat /tmp/expect.out)"
expect_status 2 "r0sweep --replay-discards with a member that takes none" \
	r0sweep --plan --output /tmp/disc.jsonl --replay /tmp/disc.r0trace --replay-discards "$small" "$nd"
grep -q "$nd: --replay-discards: cannot discard" /tmp/expect.out || fail "r0sweep no-discard: $(cat /tmp/expect.out)"
expect_status 2 "--replay-discards without --replay" r0bench --replay-discards "$dev"
rm -f /tmp/disc.r0trace /tmp/disc.jsonl

echo "---- the single drive's trace on md raid0 of 2: r0bench's rates there predict it ----"
pair=$(r0_members sata-ssd 2) || fail "members of the pair"
set -- $pair
mdadm --create /dev/md/r0rep2 --run --level=0 --chunk=64 --metadata=1.2 --raid-devices=2 "$@" \
	> /dev/null 2>&1 || fail "mdadm --create of the pair"
md=$(readlink -f /dev/md/r0rep2)
# written once first: null_blk's first write to a page allocates it (a fresh member is slower)
r0bench --yes --rw write --bs 1M --qd 4 -t 3 "$md" > /dev/null || fail "preconditioning the pair"
judged "$md" "replay time on md raid0 of 2 against r0bench's rates there"
note "the trace took $fast1 s on one drive and $t s on md raid0 of 2, as fast as each allows at QD1"
mdadm --stop "$md" > /dev/null 2>&1 || fail "mdadm --stop"
for m in "$@"; do mdadm --zero-superblock "$m" 2>/dev/null; done

echo "---- r0sweep --replay: the trace as a workload of the study ----"
# 60 MB/s members: the drives, not the guest CPU (near 300 MB/s under TCG), are the limit
sw=$(r0_members sata-ssd 2 size=64 mbps=60) || fail "members of the study"
set -- $sw
# 64 MiB of 1 MiB writes in a stream and 200 4K reads: a copy and some lookups
awk 'BEGIN { for (i = 0; i < 64; i++) printf "%d queue write %d 1048576\n", i * 1000, i * 2048
	     for (i = 0; i < 200; i++) printf "%d queue read %d 4096\n", 64000 + i * 100, (i * 7919 % 60000) * 8 }' |
	r0tracegen /tmp/day.r0trace 524288 || fail "r0tracegen"
expect_status 2 "--replay of a cut trace" r0sweep --output /tmp/cut.jsonl --replay /tmp/cut.r0trace --yes "$@"
grep -q "truncated" /tmp/expect.out || fail "cut trace: $(cat /tmp/expect.out)"
expect_status 2 "--replay of a trace with writes under --read-only" \
	r0sweep --output /tmp/ro.jsonl --replay /tmp/day.r0trace --read-only --yes "$@"
grep -q "holds 64 writes" /tmp/expect.out || fail "read-only: $(cat /tmp/expect.out)"
# its writes left out (fio's replay_skip), the reads alone are a read-only study's workload
expect_status 0 "--replay-skip writes under --read-only (--plan)" \
	r0sweep --plan --output /tmp/ro-skip.jsonl --replay /tmp/day.r0trace --replay-skip writes --read-only "$@"
grep -q "^r0sweep: --replay /tmp/day.r0trace: --replay-skip: 64 requests left out$" /tmp/expect.out ||
	fail "--replay-skip: $(cat /tmp/expect.out)"
r0sweep --output "$R0_RESULTS/059-sweep.jsonl" --replay /tmp/day.r0trace -w "replay day" --backend md \
	--chunks 64K --members 1,2 -r 3 --region 32M --no-precondition --yes "$@" \
	> /tmp/replay.sweep 2> /tmp/replay.sweep.log || { tail /tmp/replay.sweep.log; fail "r0sweep --replay"; }
head -3 /tmp/replay.sweep
expect_eq "$(grep -c '"rw":"replay"' "$R0_RESULTS/059-sweep.jsonl")" 9 "replay cells: raw, md 1, md 2 x 3 repeats"
grep -q '^Your recorded I/O (/tmp/day.r0trace: 264 requests over .*): [0-9.]*x one drive on md 64K' /tmp/replay.sweep ||
	fail "no sentence on the recording"
grep -q "under the replay mix" /tmp/replay.sweep || fail "a replay alone is not judged by the replay mix"
# rate FILE LAYER MEMBERS: bytes/s of the replay on a target of FILE, the less disturbed of 3
rate() {
	grep "\"layer\":\"$2\",[^}]*\"members\":$3,\"workload\":\"replay day\"" "$1" |
		sed 's/.*"bytes_per_s":\([0-9.e+-]*\).*/\1/' | sort -g | tail -1
}
# gain FILE: the pair's rate over one drive's
gain() {
	awk -v a="$(rate "$1" md 2)" -v b="$(rate "$1" raw 1)" 'BEGIN { if (a > 0 && b > 0) printf "%.4f\n", a / b }'
}
g=$(gain "$R0_RESULTS/059-sweep.jsonl")
note "the pair's replay rate over one drive's: $g ($(rate "$R0_RESULTS/059-sweep.jsonl" md 2) / $(rate "$R0_RESULTS/059-sweep.jsonl" raw 1) B/s)"
# each side is a best of 3 on a shared host, where one side's three can all
# be disturbed (CI's margin was 1.29x on this bound): a gain outside it is
# measured twice more (the cells again: raw 1 and md 2, with md 1 beside
# them), and the median of the three gains judged
if ! holds "$g > 1.3"; then
	note "outside the bound: the study's replay cells twice more, the median of three gains judged"
	gains=$g
	for k in 2 3; do
		r0sweep --output /tmp/again.jsonl --replay /tmp/day.r0trace -w "replay day" --backend md \
			--chunks 64K --members 1,2 -r 3 --region 32M --no-precondition --yes "$@" \
			> /tmp/again.sweep 2> /tmp/again.sweep.log || { tail /tmp/again.sweep.log; fail "r0sweep --replay again"; }
		note "again: $(gain /tmp/again.jsonl) ($(rate /tmp/again.jsonl md 2) / $(rate /tmp/again.jsonl raw 1) B/s)"
		gains="$gains $(gain /tmp/again.jsonl)"
		rm -f /tmp/again.jsonl /tmp/again.sweep /tmp/again.sweep.log
	done
	g=$(printf '%s\n' $gains | sort -g | sed -n 2p)
	note "gains $gains: median $g"
fi
check "$g > 1.3" "the replay's 1M writes gain on 2 drives (md 2 over raw 1)"

echo "---- r0sweep --replay-scale: the replay cells paced ----"
expect_status 2 "--replay-scale without --replay" r0sweep --plan --output /tmp/scale.jsonl --replay-scale 2 "$@"
# at 0.05 times its speed the 0.084 s recording takes 1.68 s, more than its 64 MiB of writes at 60 MB/s
r0sweep --output /tmp/scale.jsonl --replay /tmp/day.r0trace --replay-scale 0.05 -w "replay day x0.05" \
	--backend md --chunks 64K --members 1,2 -r 1 --region 32M --no-precondition --yes "$@" \
	> /tmp/scale.sweep 2> /tmp/scale.sweep.log || { tail /tmp/scale.sweep.log; fail "r0sweep --replay-scale"; }
cells=$(grep -c '"workload":"replay day x0.05"' /tmp/scale.jsonl)
expect_eq "$cells" 3 "paced replay cells under their own label: raw, md 1, md 2"
secs=$(sed -n 's/.*"workload":"replay day x0.05".*"runtime_s":\([0-9.e+-]*\).*/\1/p' /tmp/scale.jsonl | sort -g)
mid=$(echo "$secs" | sed -n "$(((cells + 1) / 2))p")
note "the paced replay's cells: $(echo $secs) s, their median $mid s (recorded 0.084 s, at 0.05 times its speed)"
# (a replay's time runs from its first request's issue, which a busy guest can delay past its due
# time while the pace holds the last to its own: 5 % below the recorded span is still paced)
# The median of the cells, not the quickest: the pace does not depend on the
# target, so a pace that does not hold shortens every cell, while one cell's
# first issue delayed on a busy host (CI's quickest came near the bound)
# shortens that cell alone
check "$mid >= 0.084 / 0.05 * 0.95" "the paced cells last the recorded time over the scale (their median)"
grep -q "replayed at 0.05 times its pace" /tmp/scale.sweep || fail "the sentence does not say the pace"
rm -f /tmp/scale.jsonl
rm -f /tmp/cut.r0trace /tmp/day.r0trace

