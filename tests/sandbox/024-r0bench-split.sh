# SPDX-License-Identifier: GPL-2.0-or-later
# r0bench on a stack whose bottom device has few tags: dm-stripe over a
# sata-real member (8 tags, 32 KiB requests). Linux 6.12 stalls for ever
# when a nonblocking io_uring read through dm must become more pieces than
# the member has tags (a 288K read: 9 pieces); r0bench sends such requests
# through io_uring's workers (r0_engine_submits_async) and must finish,
# saying so in its JSON; 4K at QD32 (one piece each) and the raw member
# (which never stalled) are submitted as usual; a stripe's chunk counts as a
# cut (1M over 4K chunks on an nvme-real member). Without it this test
# hangs (seen). QD1 goes through the ring here with --ring; by default a
# QD1 job reads itself (pread), which blocks and cannot stall: checked too.
. ./lib.sh
trap r0_cleanup EXIT

m=$(r0_member r0m0 sata-real size=64) || fail "member"
a=$(r0build create --yes -q --backend dm -c 64K --name split "$m") || fail "dm-stripe over $m"
for t in "$a" "$m"; do
	for job in "288K 1" "1M 8" "4K 32"; do
		set -- $job
		[ "$t" = "$a" ] && [ "$1" != 4K ] && set -- "$1" "$2" true || set -- "$1" "$2" false
		f=$R0_RESULTS/split-$(basename "$t")-$1-q$2.json
		timeout 60 r0bench --yes --json --ring --rw read --bs "$1" --qd "$2" -t 1 "$t" > "$f" ||
			fail "r0bench $1 QD$2 on $t did not finish (exit $?)"
		expect_eq "$(r0json "$f" tests.0.workload.async_submit)" "$3" "$1 QD$2 on $t: through io_uring's workers"
		check "$(r0json "$f" tests.0.passes.0.ios) > 0" "$1 QD$2 on $t: reads done"
	done
done
f=$R0_RESULTS/split-sync-288K-q1.json
timeout 60 r0bench --yes --json --rw read --bs 288K --qd 1 -t 1 "$a" > "$f" ||
	fail "r0bench 288K QD1 (pread) on $a did not finish (exit $?)"
expect_eq "$(r0json "$f" tests.0.workload.sync)" true "288K QD1 on $a: read by the job itself"
expect_eq "$(r0json "$f" tests.0.workload.async_submit)" false "288K QD1 on $a: not through the ring's workers"
check "$(r0json "$f" tests.0.passes.0.ios) > 0" "288K QD1 (pread) on $a: reads done"
r0build remove "$a" || fail "remove $a"

# The chunk cuts requests too: a 1M read over a 4K-chunk stripe is 256
# pieces, where the member alone (nvme-real: 128 KiB requests, 32 tags)
# would make 8. Counted by the member's size alone it went the usual way
# and read nothing in 3 s (then 110 s to end), as fio's io_uring got EAGAIN.
n=$(r0_member r0m1 nvme-real size=64) || fail "nvme-real member"
a=$(r0build create --yes -q --backend dm -c 4K --name split4k "$n") || fail "dm-stripe at 4K over $n"
f=$R0_RESULTS/split-4k-chunk-1M-q1.json
timeout 60 r0bench --yes --json --ring --rw read --bs 1M --qd 1 -t 1 "$a" > "$f" ||
	fail "r0bench 1M QD1 over 4K chunks did not finish (exit $?)"
expect_eq "$(r0json "$f" tests.0.workload.async_submit)" true "1M QD1 over 4K chunks: through io_uring's workers"
check "$(r0json "$f" tests.0.passes.0.ios) > 0" "1M QD1 over 4K chunks: reads done"
r0build remove "$a" || fail "remove $a"

# A job that runs one request of its queue itself beside the ring (a target
# that takes no nonblocking requests, 4K reaped one at a time, a CPU each
# for the job and its io-wq worker: the guest has 2) stops at the first
# such request that sleeps: dm-delay takes no nonblocking requests and
# holds each one 20 ms, so exactly one is carried and the rest go through
# the ring (r0_engine_may_carry_one).
d=$(r0_member r0m2 fast size=16) || fail "member under dm-delay"
dmsetup create r0carry --table "0 $((16 << 11)) delay $d 0 20" || fail "dm-delay over $d"
r0_wait_dev /dev/mapper/r0carry || fail "no /dev/mapper/r0carry"
for rw in randread randwrite; do
	f=$R0_RESULTS/carry-delay-$rw.json
	timeout 60 r0bench --yes --json -f --rw $rw --bs 4k --qd 8 -t 1 /dev/mapper/r0carry > "$f" ||
		fail "r0bench $rw on dm-delay (exit $?)"
	expect_eq "$(r0json "$f" tests.0.passes.0.carried_ios)" 1 "$rw on dm-delay: one request carried"
	expect_eq "$(r0json "$f" tests.0.passes.0.carry_stopped)" true "$rw on dm-delay: carrying stopped (it slept)"
	check "$(r0json "$f" tests.0.passes.0.ios) >= 100" "$rw on dm-delay: QD8 through the ring (8 per 20 ms)"
done
dmsetup remove --retry r0carry || fail "dmsetup remove --retry r0carry"
