# SPDX-License-Identifier: GPL-2.0-or-later
# r0bench measures what null_blk is set to deliver: a member capped at
# 200 MiB/s reads at that rate (SEQ1M Q8T1), and a member whose every
# completion waits 1 ms shows p50 latency of 1 ms plus the sandbox's own
# completion overhead (measured on a member with timer completions of 0).
. ./lib.sh

# within VALUE LOW HIGH WHAT
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
		fail "$4: $1 is not within [$2, $3]"
	note "ok: $4 = $1 (within [$2, $3])"
}

bw=$(r0_member r0bw fast size=256 mbps=200) || fail "member"
# the reference: what the member's own counters moved in nearly the same
# window (r0bench measures 2..5 s after its start; the counters 2.2..4.8 s)
r0bench --json -b 1M -q 8 --rw read --ramp 2 -t 3 "$bw" > "$R0_RESULTS/seq-200mbps.r0bench.json" &
pid=$!
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

base=$(r0_member r0lat0 fast size=64 irqmode=2 completion_nsec=0) || fail "member"
slow=$(r0_member r0lat1 fast size=64 irqmode=2 completion_nsec=1000000) || fail "member"
r0bench --json --rw randread -q 1 -t 3 --ramp 0.5 "$base" > "$R0_RESULTS/lat-0.r0bench.json" || fail "r0bench base"
r0bench --json --rw randread -q 1 -t 3 --ramp 0.5 "$slow" > "$R0_RESULTS/lat-1ms.r0bench.json" || fail "r0bench 1 ms"
o=$(r0json "$R0_RESULTS/lat-0.r0bench.json" tests.0.latency_ns.p50)
p=$(r0json "$R0_RESULTS/lat-1ms.r0bench.json" tests.0.latency_ns.p50)
note "p50 with completion_nsec=0: $o ns (the sandbox's own overhead); with 1 ms: $p ns"
want=$((1000000 + o))
within "$p" $((want * 80 / 100)) $((want * 120 / 100)) "RND4K Q1T1 p50 against 1 ms + overhead ($want ns)"
# fio on the same member: its p50 of total latency (submission to
# completion) is the same figure, so the two must agree closely
fio --name=lat --filename="$slow" --ioengine=io_uring --direct=1 --rw=randread --bs=4k \
	--iodepth=1 --runtime=3 --ramp_time=0.5 --time_based --clat_percentiles=0 --lat_percentiles=1 \
	--output-format=json > "$R0_RESULTS/lat-1ms.fio.json" || fail "fio"
fp=$(grep -m1 '"50.000000"' "$R0_RESULTS/lat-1ms.fio.json" | tr -dc '0-9\n' | sed 's/^50000000//')
note "fio's p50 on the same member: $fp ns"
within "$p" $((fp * 95 / 100)) $((fp * 105 / 100)) "r0bench's p50 against fio's (5 %)"
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
