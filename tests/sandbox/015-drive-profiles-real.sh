# SPDX-License-Identifier: GPL-2.0-or-later
# The scaled real-drive profiles (sata-real, nvme-real) deliver their
# configured limits on one member: 1M sequential reads at QD8 no more than
# 5 % above what null_blk's bandwidth cap passes (and no more than 15 %
# below it: a busy host), 4K QD1 p50 latency between the configured
# completion time and 10 % above it plus the sandbox's overhead, 4K QD32 no
# faster than the queue allows; and members behind a shared limit
# (r0_members_shared) read no more than that limit together, 3 no more than
# 1.25x of 2. The demo's busiest cell (3 sata-real members, 4K QD32) keeps
# r0bench's thread under 50 % busy. r0bench and fio measure each figure; r0bench's passes give
# medians.
. ./lib.sh

# bench LABEL DEV SECONDS ARGS...: r0bench, 3 passes of SECONDS after a
# 0.5 s ramp (sequential reads take 3 s: 1 MiB reads at 8 MiB/s are too few
# in 1 s for 5 %)
bench() {
	_l=$1 _d=$2 _t=$3; shift 3
	r0bench --json -t "$_t" --passes 3 --ramp 0.5 "$@" "$_d" > "$R0_RESULTS/$_l.r0bench.json" ||
		fail "r0bench $_l"
}
# fiorun LABEL DEV RW BS QD: fio with io_uring, 3 s after a 0.5 s ramp
fiorun() {
	fio --name="$1" --filename="$2" --ioengine=io_uring --direct=1 --rw="$3" --bs="$4" \
		--iodepth="$5" --runtime=3 --ramp_time=0.5 --time_based --clat_percentiles=1 --lat_percentiles=1 \
		--output-format=json > "$R0_RESULTS/$1.fio.json" || fail "fio $1"
}
mibs() { r0json "$R0_RESULTS/$1.r0bench.json" tests.0.summary.bytes_per_s.median | awk '{ printf "%.2f", $1 / 1048576 }'; }
iops() { r0json "$R0_RESULTS/$1.r0bench.json" tests.0.summary.iops.median | awk '{ printf "%.0f", $1 }'; }
busy() { r0json "$R0_RESULTS/$1.r0bench.json" tests.0.summary.busy.median; }
# fio's read bandwidth (KiB/s in its JSON) in MiB/s, and its p50 of total
# latency (lat_ns: from preparing a request to reaping it; its percentiles
# follow clat_ns's)
fio_mibs() { grep -m1 '"bw" :' "$R0_RESULTS/$1.fio.json" | tr -dc '0-9' | awk '{ printf "%.2f", $1 / 1024 }'; }
fio_p50() { grep '"50.000000"' "$R0_RESULTS/$1.fio.json" | sed -n 2p | tr -dc '0-9\n' | sed 's/^50000000//'; }
# passed DEV: what null_blk's cap lets through in MiB/s: it refills
# mbps x 20971 bytes 50 times a second and passes whole requests while the
# budget lasts (requests of max_sectors_kb, the largest a read is split to)
passed() {
	awk -v m="$(cat "$R0_NULLB/${1##*/}/mbps")" -v r="$(($(r0_sysfs "$1" queue/max_sectors_kb) * 1024))" \
		'BEGIN { printf "%.2f", int(m * 20971 / r) * r * 50 / 1048576 }'
}

for prof in sata-real nvme-real; do
	m=$(r0_member r0real "$prof") || fail "a $prof member"
	C=$(cat "$R0_NULLB/r0real/completion_nsec") tags=$(cat "$R0_NULLB/r0real/hw_queue_depth")
	cap=$(passed "$m")

	# 6 s, not 3: at QD8 the 1M requests complete in bursts, and a 3 s
	# window of whole requests counted 25 where the cap passes 23.4
	# (8.33 MiB/s of 7.81, twice in fresh-clone CI runs)
	bench "$prof-seq" "$m" 6 --rw read -b 1M -q 8
	fiorun "$prof-seq" "$m" read 1M 8
	note "$prof SEQ1M Q8T1: r0bench $(mibs "$prof-seq") MiB/s, fio $(fio_mibs "$prof-seq") MiB/s, the cap passes $cap"
	# never above the cap by more than 5 %; below it by 5 % on a quiet host,
	# by up to 15 % on a busy one (null_blk's refills and restarts run late:
	# 6.3-6.7 MiB/s of 7.8 seen at load 8 on 2 cores), so 15 % is allowed
	check "$(mibs "$prof-seq") >= $cap * 0.85 && $(mibs "$prof-seq") <= $cap * 1.05" \
		"$prof r0bench SEQ1M Q8T1 within [-15 %, +5 %] of $cap MiB/s"
	check "$(fio_mibs "$prof-seq") >= $cap * 0.85 && $(fio_mibs "$prof-seq") <= $cap * 1.05" \
		"$prof fio SEQ1M Q8T1 within [-15 %, +5 %] of $cap MiB/s"

	# The sandbox's overhead at QD1: fio's p50 of total latency on the same
	# member, right after r0bench, minus C (the timer firing late under TCG,
	# the interrupt, the wake-up, the emulated system calls; see 020)
	bench "$prof-q1" "$m" 1 --rw randread -q 1
	fiorun "$prof-q1" "$m" randread 4k 1
	p=$(r0json "$R0_RESULTS/$prof-q1.r0bench.json" tests.0.latency_ns.p50)
	fp=$(fio_p50 "$prof-q1")
	[ -n "$fp" ] || fail "fio's p50 not found in $prof-q1.fio.json"
	o=$((fp > C ? fp - C : 0))
	note "$prof RND4K Q1T1: r0bench p50 $p ns, $(iops "$prof-q1") IOPS, $(mibs "$prof-q1") MiB/s; fio p50 $fp ns: C $C + overhead $o ns"
	# Never below C (null_blk's timer does not fire early), never 10 % above
	# fio's. Not 10 % below fio's either: a busy host delays fio's run
	# alone now and then (fio 4.75 ms, r0bench 3.30 ms on C 2.9 ms in a CI run)
	check "$p >= $C && $p <= ($C + $o) * 1.1" "$prof RND4K Q1T1 p50 between C and 10 % above C + the overhead"

	# QD32 is bounded by the tags: at most tags / (C + overhead) IOPS;
	# below that when the host is busy (the guest then completes late).
	# The overhead here is the smaller of the two tools' (a disturbed run
	# only raises its own, and a larger overhead would lower the bound)
	bench "$prof-q32" "$m" 1 --rw randread -q 32
	fiorun "$prof-q32" "$m" randread 4k 32
	least=$((p < fp ? p : fp))
	top=$(awk -v t="$tags" -v l="$least" 'BEGIN { printf "%.0f", t * 1e9 / l }')
	note "$prof RND4K Q32T1: r0bench $(iops "$prof-q32") IOPS ($(mibs "$prof-q32") MiB/s, busy $(busy "$prof-q32")), fio $(fio_mibs "$prof-q32") MiB/s; the tags allow $top IOPS"
	check "$(iops "$prof-q32") <= $top * 1.1" "$prof RND4K Q32T1 within what $tags tags allow"
	check "$(iops "$prof-q32") >= $(iops "$prof-q1") * 4" "$prof RND4K Q32T1 at least 4x Q1T1"
	r0_remove_member r0real || fail "remove the $prof member"
done

# The demo's busiest cell, 3 sata-real members at 4K QD32, leaves the
# measuring thread under half busy (what the scaling down is for)
set -- $(r0_members sata-real 3)
[ $# = 3 ] || fail "3 sata-real members: got $*"
mdadm --create /dev/md0 --run --level=0 --chunk=64 --raid-devices=3 "$@" > /dev/null 2>&1 ||
	fail "md raid0 of 3 sata-real members"
bench busiest /dev/md0 1 --rw randread -q 32
mdadm --stop /dev/md0 > /dev/null 2>&1 || fail "stop md0"
note "md raid0 of 3 sata-real, RND4K Q32T1: $(iops busiest) IOPS, busy $(busy busiest)"
check "$(busy busiest) < 0.5" "the measuring thread under 50 % busy on 3 sata-real members at QD32"
r0_remove_members || fail "remove the sata-real members"

# A shared limit: 3 sata-real slices behind one 16 MiB/s cap (2x one
# member's 7.8). md raid0 of 2 and of 3 of them, 64 KiB chunks, SEQ1M Q8T1.
set -- $(r0_members_shared sata-real 3 16) || fail "shared members"
[ $# = 3 ] || fail "3 shared members: got $*"
cap=$(passed "$R0_NULLB/r0shared")
mdadm --create /dev/md0 --run --level=0 --chunk=64 --raid-devices=2 "$1" "$2" > /dev/null 2>&1 ||
	fail "md raid0 of 2 shared members"
bench shared-md2 /dev/md0 3 --rw read -b 1M -q 8
mdadm --stop /dev/md0 > /dev/null 2>&1 || fail "stop md0"
mdadm --create /dev/md0 --run --level=0 --chunk=64 --raid-devices=3 "$@" > /dev/null 2>&1 ||
	fail "md raid0 of 3 shared members"
bench shared-md3 /dev/md0 3 --rw read -b 1M -q 8
fiorun shared-md3 /dev/md0 read 1M 8
mdadm --stop /dev/md0 > /dev/null 2>&1 || fail "stop md0"
two=$(mibs shared-md2) three=$(mibs shared-md3)
note "shared cap 16 MiB/s (passes $cap): md raid0 of 2 $two MiB/s, of 3 $three MiB/s (fio $(fio_mibs shared-md3))"
check "$three <= $cap * 1.05" "3 shared members read no more than the cap"
check "$three >= $cap * 0.85" "3 shared members reach the cap (15 %, as above)"
check "$three <= $two * 1.25" "3 shared members no more than 1.25x of 2"
r0_cleanup
