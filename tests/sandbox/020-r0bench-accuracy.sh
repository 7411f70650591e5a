# SPDX-License-Identifier: GPL-2.0-or-later
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
# the reference: what the member's own counters moved in nearly the same
# window (r0bench measures 2..5 s after its first I/O; the counters 2.2..4.8
# s after it). The wait for that first I/O keeps r0bench's start-up, which a
# busy host stretches to a good part of a second, out of the comparison.
r0bench --json -b 1M -q 8 --rw read --ramp 2 -t 3 "$bw" > "$R0_RESULTS/seq-200mbps.r0bench.json" &
pid=$!
n=0
while [ "$(awk '{ print $1 + $9 }' /sys/block/r0bw/stat)" = 0 ] && [ $n -lt 1000 ]; do
	sleep 0.01
	n=$((n + 1))
done
sleep 2.2
t0=$(cut -d' ' -f1 /proc/uptime) s0=$(awk '{ print $3 }' /sys/block/r0bw/stat)
sleep 2.6
t1=$(cut -d' ' -f1 /proc/uptime) s1=$(awk '{ print $3 }' /sys/block/r0bw/stat)
wait $pid || fail "r0bench on the capped member"
mib=$(r0json "$R0_RESULTS/seq-200mbps.r0bench.json" tests.0.summary.bytes_per_s.median |
	awk '{ printf "%.1f", $1 / 1048576 }')
dev=$(echo "$s0 $s1 $t0 $t1" | awk '{ printf "%.1f", ($2 - $1) * 512 / 1048576 / ($4 - $3) }')
note "SEQ1M Q8T1 read: r0bench $mib MiB/s, the member's counters $dev MiB/s, the cap 200"
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
r0bench --json --rw randread -q 16 -s 12000K "$cnt" > /tmp/cnt.json || fail "r0bench size-based"
after=$(awk '{ print $3 }' /sys/block/r0cnt/stat)
expect_eq "$(r0json /tmp/cnt.json tests.0.passes.0.read_ios)" 3000 "r0bench counts 3000 reads"
expect_eq "$((after - before))" 24000 "the member read 24000 sectors"
r0_remove_member r0cnt

# Latency against null_blk's timer completions (irqmode=2) of C = 4 ms, at
# QD1 and QD32 (hw_queue_depth 64, so no request waits for a tag; 32 / 4 ms
# = 8k IOPS, half the sandbox's ~15k timer-completion ceiling).
# The sandbox's own overhead is measured by fio on the same member at the
# same depth, right after r0bench: its p50 of total latency (lat: from
# preparing a request to reaping it) minus C. That is the timer firing late
# under TCG, the interrupt, the wake-up, and the emulated submission call
# (fio's clat, which starts after io_uring_enter returns, leaves that out
# while r0bench's stamp before the call includes it: clat is noted too). A
# member with completion_nsec=0 is no reference: null_blk then completes
# at once, and the 4 ms timer's lateness (~300 us under TCG) is not in it.
# r0bench's p50 must lie in [0.95 C, 1.05 C + that overhead].
C=4000000
slow=$(r0_member r0lat1 fast size=64 irqmode=2 completion_nsec=$C) || fail "member"
for qd in 1 32; do
	out=$R0_RESULTS/lat-4ms-q$qd
	r0bench --json --rw randread -q $qd -t 3 --ramp 0.5 "$slow" > "$out.r0bench.json" ||
		fail "r0bench 4 ms QD$qd"
	p=$(r0json "$out.r0bench.json" tests.0.latency_ns.p50)
	fio --name=lat --filename="$slow" --ioengine=io_uring --direct=1 --rw=randread --bs=4k \
		--iodepth=$qd --runtime=3 --ramp_time=0.5 --time_based --clat_percentiles=1 \
		--lat_percentiles=1 --output-format=json > "$out.fio.json" || fail "fio QD$qd"
	# fio's JSON: clat_ns's percentiles come first, then lat_ns's
	fc=$(grep '"50.000000"' "$out.fio.json" | sed -n 1p | tr -dc '0-9\n' | sed 's/^50000000//')
	fp=$(grep '"50.000000"' "$out.fio.json" | sed -n 2p | tr -dc '0-9\n' | sed 's/^50000000//')
	[ -n "$fc" ] && [ -n "$fp" ] || fail "fio's p50 not found in $out.fio.json"
	o=$((fp > C ? fp - C : 0))
	note "RND4K Q${qd}T1, C = $C ns: r0bench p50 $p ns (C + $((p - C))); fio lat p50 $fp ns (the overhead: $o ns), fio clat p50 $fc ns"
	within "$p" $((C * 95 / 100)) $((C * 105 / 100 + o)) "RND4K Q${qd}T1 p50 against C (5 % + the overhead $o ns)"
done
r0bench --rw randread -q 1 -t 1 "$slow"

# the CrystalDiskMark 8 set, shortened: 8 tests, each a warm-up and 2 passes
r0bench --json --preset cdm -t 0.3 --passes 2 --region 32M -f "$slow" > "$R0_RESULTS/cdm.r0bench.json" ||
	fail "r0bench --preset cdm"
expect_eq "$(r0json "$R0_RESULTS/cdm.r0bench.json" tests.7.label)" "RND4K Q1T1" "the 8th CDM test"
expect_eq "$(r0json "$R0_RESULTS/cdm.r0bench.json" tests.7.workload.rw)" randwrite "the 8th CDM test writes"
expect_eq "$(r0json "$R0_RESULTS/cdm.r0bench.json" tests.0.workload.queue_depth)" 8 "SEQ1M Q8T1 queue depth"
expect_eq "$(r0json "$R0_RESULTS/cdm.r0bench.json" method.region_bytes)" $((32 << 20)) "region"
r0json "$R0_RESULTS/cdm.r0bench.json" tests.0.passes.1.iops > /dev/null || fail "two counted passes"
r0_remove_members || fail "a member stayed"
