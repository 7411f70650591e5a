# SPDX-License-Identifier: GPL-2.0-or-later
# r0bench's polled modes. --hipri on a member without a poll queue
# (null_blk poll_queues=0; the module's default gives every member one)
# is refused with the reason and exit 2, and reads nothing; on a member with
# one (poll_queues=1) its reads and writes are polled and complete;
# --sqpoll and --hipri --sqpoll run; on md and dm raid0 arrays of members
# with a poll queue --hipri polls or is refused as the array's io_poll
# says. The proof of polling: the polled
# member delays every interrupt-driven completion by 100 ms (irqmode=2),
# while null_blk completes a request on its poll queue when polled, with
# no delay; so a 1 s QD1 run can read at most 11 blocks unless it polls.
. ./lib.sh

plain=$(r0_member r0plain fast size=64 poll_queues=0) || fail "member"
expect_eq "$(cat /sys/block/r0plain/queue/io_poll)" 0 "a member without poll queues: io_poll"
reads0=$(awk '{ print $1 }' /sys/block/r0plain/stat)
expect_status 2 "--hipri on a member without poll queues" r0bench --yes --hipri -t 0.5 "$plain"
cat /tmp/expect.out
grep -q "^r0bench: $plain: --hipri: no poll queues (queue/io_poll is 0" /tmp/expect.out ||
	fail "the refusal does not say the member has no poll queues"
doc_example bench-hipri "no poll queues" "s|$plain|/dev/nullb0|g"
expect_eq "$(awk '{ print $1 }' /sys/block/r0plain/stat)" "$reads0" "reads of the refused member"

poll=$(r0_member r0poll fast size=64 poll_queues=1 irqmode=2 completion_nsec=100000000) ||
	fail "member with a poll queue"
expect_eq "$(cat /sys/block/r0poll/queue/io_poll)" 1 "a member with a poll queue: io_poll"
r0bench --yes --json -t 1 "$poll" > "$R0_RESULTS/irq-qd1.r0bench.json" || fail "r0bench on $poll"
ios=$(r0json "$R0_RESULTS/irq-qd1.r0bench.json" tests.0.passes.0.ios)
check "$ios <= 11" "reads in 1 s at QD1 without polling, 100 ms each: $ios"
for qd in 1 32; do
	f=$R0_RESULTS/hipri-qd$qd.r0bench.json
	r0bench --yes --json --hipri --qd "$qd" -t 1 "$poll" > "$f" || fail "r0bench --hipri -q $qd on $poll"
	expect_eq "$(r0json "$f" tests.0.workload.hipri)" true "JSON workload.hipri"
	expect_eq "$(r0json "$f" tests.0.errors)" 0 "errors at QD$qd"
	ios=$(r0json "$f" tests.0.passes.0.ios) p50=$(r0json "$f" tests.0.latency_ns.p50)
	check "$ios > 1000" "polled 4K reads at QD$qd in 1 s: $ios"
	check "$p50 < 10000000" "polled p50 at QD$qd, a tenth of the 100 ms interrupt delay at most: $p50 ns"
	note "QD$qd polled: $ios reads in 1 s, p50 $p50 ns"
done
expect_status 0 "--hipri write and read back" \
	timeout 60 r0bench --yes -f --hipri --rw randwrite --qd 8 --verify --span 16M "$poll"
cat /tmp/expect.out

r0bench --yes --json --sqpoll --qd 8 -t 1 "$plain" > "$R0_RESULTS/sqpoll.r0bench.json" || fail "r0bench --sqpoll"
expect_eq "$(r0json "$R0_RESULTS/sqpoll.r0bench.json" tests.0.workload.sqpoll)" true "JSON workload.sqpoll"
expect_eq "$(r0json "$R0_RESULTS/sqpoll.r0bench.json" tests.0.errors)" 0 "errors with --sqpoll"
# a submission thread is slow in the TCG guest (1568 reads/s at QD8 here,
# fio's sqthread_poll alike): it must complete I/O, not be fast
check "$(r0json "$R0_RESULTS/sqpoll.r0bench.json" tests.0.passes.0.ios) > 0" "reads with --sqpoll"
# QD8 for 2 s: at most 8 x 21 = 168 reads unless the thread polls
r0bench --yes --json --hipri --sqpoll --qd 8 -t 2 "$poll" > "$R0_RESULTS/hipri-sqpoll.r0bench.json" ||
	fail "r0bench --hipri --sqpoll"
expect_eq "$(r0json "$R0_RESULTS/hipri-sqpoll.r0bench.json" tests.0.errors)" 0 "errors with --hipri --sqpoll"
ios=$(r0json "$R0_RESULTS/hipri-sqpoll.r0bench.json" tests.0.passes.0.ios)
check "$ios > 200" "reads with --hipri --sqpoll at QD8 in 2 s: $ios"

# arrays: --hipri follows the array's own queue/io_poll, polling or refused
members=$(r0_members fast 2 size=32 poll_queues=1) || fail "two members with a poll queue"
for b in md dm; do
	arr=$(r0build create --yes -q -f --backend "$b" -c 64K --name "poll$b" $members) || fail "$b array"
	set -- $(stat -L -c '%t %T' "$arr")
	p=$(cat "/sys/dev/block/$((0x$1)):$((0x$2))/queue/io_poll") || fail "io_poll of $arr"
	if [ "$p" = 1 ]; then
		r0bench --yes --json --hipri -t 0.5 "$arr" > "$R0_RESULTS/hipri-$b.r0bench.json" ||
			fail "--hipri on the $b array, which polls"
		check "$(r0json "$R0_RESULTS/hipri-$b.r0bench.json" tests.0.passes.0.ios) > 0" "polled reads on the $b array"
	else
		expect_status 2 "--hipri on the $b array (io_poll $p)" r0bench --yes --hipri -t 0.5 "$arr"
		grep -q "no poll queues" /tmp/expect.out || fail "the reason on the $b array"
	fi
	note "$b raid0 of two members with a poll queue: io_poll $p"
	r0build remove "poll$b" || fail "remove the $b array"
done
r0_remove_members || fail "a member stayed"
