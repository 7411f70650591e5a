# SPDX-License-Identifier: GPL-2.0-or-later
# A performance check (make perf; not in make check): it measures against a
# bar that a loaded host can miss.
# r0bench measures what null_blk is set to deliver: a member capped at
# 200 MiB/s reads at that rate (SEQ1M Q8T1), and a member whose every
# completion waits 4 ms shows p50 latency of 4 ms within 5 % plus the
# sandbox's own overhead (measured by fio's p50 on the same member), at
# QD1 and QD32.
. ./lib.sh

# within VALUE LOW HIGH WHAT
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
		fail "$4: $1 is not within [$2, $3]"
	note "ok: $4 = $1 (within [$2, $3])"
}

bw=$(r0_member r0bw fast size=256 mbps=200) || fail "member"
# the reference: the member's own counters, read 2.2 and 4.8 s after the
# first I/O while r0bench measures 2..5 s after it (the wait for that first
# I/O keeps r0bench's start-up, which a busy host stretches to a good part
# of a second, out of the comparison): the sectors read per time the member
# had I/O in flight (io_ticks, /sys/block/X/stat field 10, in ms). Not per
# uptime: a busy host oversleeps the shell past r0bench's end, and the
# idle member then lowered the rate (174 MiB/s against r0bench's 191 at
# load 7, twice in a row).
# seq200 JSON: prints r0bench's MiB/s and the member's
seq200() {
	r0bench --yes --json --bs 1M --qd 8 --rw read --ramp 2 -t 3 "$bw" > "$1" &
	_pid=$! _n=0
	while [ "$(awk '{ print $1 + $9 }' /sys/block/r0bw/stat)" = 0 ] && [ $_n -lt 1000 ]; do
		sleep 0.01
		_n=$((_n + 1))
	done
	sleep 2.2
	_s0=$(awk '{ print $3, $10 }' /sys/block/r0bw/stat)
	sleep 2.6
	_s1=$(awk '{ print $3, $10 }' /sys/block/r0bw/stat)
	wait $_pid || fail "r0bench on the capped member"
	echo "$(r0json "$1" tests.0.summary.bytes_per_s.median) $_s0 $_s1" |
		awk '{ printf "%.1f %.1f\n", $1 / 1048576, ($5 > $3 ? ($4 - $2) * 512 / 1048576 / (($5 - $3) / 1000) : 0) }'
}
set -- $(seq200 "$R0_RESULTS/seq-200mbps.r0bench.json")
note "SEQ1M Q8T1 read: r0bench $1 MiB/s, the member's counters $2 MiB/s, the cap 200"
# Below 170 MiB/s (a busy host runs null_blk's refill timer late), or 5 %
# off the counters (the two windows differ by 0.4 s, and a stall of the
# guest in that part shows in one only: 150.3 against 166.2 at load 6, the
# next pair 185.7 and 184.7), the pair is measured once more and the
# second counts: a busy host, not r0bench, disturbs one run
if ! holds "$1 >= 170 && $1 >= $2 * 0.95 && $1 <= $2 * 1.05"; then
	set -- $(seq200 "$R0_RESULTS/seq-200mbps-again.r0bench.json")
	note "measured again: r0bench $1 MiB/s, the counters $2 MiB/s"
fi
mib=$1 dev=$2
within "$mib" "$(echo "$dev" | awk '{ printf "%.1f", $1 * 0.95 }')" \
	"$(echo "$dev" | awk '{ printf "%.1f", $1 * 1.05 }')" "r0bench's MiB/s against the member's counters (5 %)"
# against the cap: 5 % is what the sandbox gives on a quiet host; a busy
# host slows null_blk's refill timer, so the test allows 15 %
within "$mib" 170 230 "SEQ1M Q8T1 read MiB/s on a 200 MiB/s member"
r0_remove_member r0bw

# the counts are the device's: a size-based run of 3000 4K random reads
# moves exactly 3000 x 8 sectors through the member's own counters
cnt=$(r0_member r0cnt fast size=64) || fail "member"
before=$(awk '{ print $3 }' /sys/block/r0cnt/stat)
r0bench --yes --json --rw randread --qd 16 -s 12000K "$cnt" > /tmp/cnt.json || fail "r0bench size-based"
after=$(awk '{ print $3 }' /sys/block/r0cnt/stat)
expect_eq "$(r0json /tmp/cnt.json tests.0.passes.0.read_ios)" 3000 "r0bench counts 3000 reads"
expect_eq "$((after - before))" 24000 "the member read 24000 sectors"
r0_remove_member r0cnt

# Latency against null_blk's timer completions (irqmode=2) of C = 4 ms, at
# QD1 and QD32 (hw_queue_depth 64, so no request waits for a tag; 32 / 4 ms
# = 8k IOPS, half the sandbox's ~15k timer-completion ceiling).
# The sandbox's own overhead is measured by fio on the same member at the
# same depth, right after r0bench: its p50 of total latency (lat: from
# preparing a request to reaping it) minus C, the lower of two fio runs. That is the timer firing late
# under TCG, the interrupt, the wake-up, and the emulated submission call
# (fio's clat, which starts after io_uring_enter returns, leaves that out
# while r0bench's stamp before the call includes it: clat is noted too). A
# member with completion_nsec=0 is no reference: null_blk then completes
# at once, and the 4 ms timer's lateness (~300 us under TCG) is not in it.
# r0bench's p50 must lie in [0.95 C, 1.05 C + that overhead]. A busy host
# only raises a p50 (one disturbed fio run is a bound too wide, one
# disturbed r0bench run a failure by chance), so above the bound r0bench
# is measured once more and its lower p50 counts.
C=4000000
slow=$(r0_member r0lat1 fast size=64 irqmode=2 completion_nsec=$C) || fail "member"
# lat4ms QD OUT: r0bench's p50 at QD on the 4 ms member, its JSON in OUT
lat4ms() {
	r0bench --yes --json --rw randread --qd "$1" -t 3 --ramp 0.5 "$slow" > "$2.r0bench.json" ||
		fail "r0bench 4 ms QD$1"
	r0json "$2.r0bench.json" tests.0.latency_ns.p50
}
for qd in 1 32; do
	out=$R0_RESULTS/lat-4ms-q$qd
	p=$(lat4ms $qd "$out")
	for run in 1 2; do
		fio --name=lat --filename="$slow" --ioengine=io_uring --direct=1 --rw=randread --bs=4k \
			--iodepth=$qd --runtime=3 --ramp_time=0.5 --time_based --clat_percentiles=1 \
			--lat_percentiles=1 --output-format=json > "$out.fio$run.json" || fail "fio QD$qd"
	done
	fc=$(fio_p50 "$out.fio1.json" clat) fp1=$(fio_p50 "$out.fio1.json") fp2=$(fio_p50 "$out.fio2.json")
	[ -n "$fc" ] && [ -n "$fp1" ] && [ -n "$fp2" ] || fail "fio's p50 not found in $out.fio1.json or $out.fio2.json"
	fp=$(least "$fp1" "$fp2")
	o=$((fp > C ? fp - C : 0))
	note "RND4K Q${qd}T1, C = $C ns: r0bench p50 $p ns (C + $((p - C))); fio lat p50 $fp1 and $fp2 ns (the overhead: $o ns), fio clat p50 $fc ns"
	if ! holds "$p <= $C * 1.05 + $o"; then
		p2=$(lat4ms $qd "$out-again")
		note "r0bench measured again, above the bound: p50 $p2 ns"
		p=$(least "$p" "$p2")
	fi
	within "$p" $((C * 95 / 100)) $((C * 105 / 100 + o)) "RND4K Q${qd}T1 p50 against C (5 % + the overhead $o ns)"
done
r0bench --yes --rw randread --qd 1 -t 1 "$slow"

# the CrystalDiskMark 8 set, shortened: 8 tests, each a warm-up and 2 passes
r0bench --yes --json --preset cdm -t 0.3 --passes 2 --region 32M -f "$slow" > "$R0_RESULTS/cdm.r0bench.json" ||
	fail "r0bench --preset cdm"
expect_eq "$(r0json "$R0_RESULTS/cdm.r0bench.json" tests.7.label)" "RND4K Q1T1" "the 8th CDM test"
expect_eq "$(r0json "$R0_RESULTS/cdm.r0bench.json" tests.7.workload.rw)" randwrite "the 8th CDM test writes"
expect_eq "$(r0json "$R0_RESULTS/cdm.r0bench.json" tests.0.workload.queue_depth)" 8 "SEQ1M Q8T1 queue depth"
expect_eq "$(r0json "$R0_RESULTS/cdm.r0bench.json" method.region_bytes)" $((32 << 20)) "region"
r0json "$R0_RESULTS/cdm.r0bench.json" tests.0.passes.1.iops > /dev/null || fail "two counted passes"
r0_remove_members || fail "a member stayed"
