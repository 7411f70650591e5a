# SPDX-License-Identifier: GPL-2.0-or-later
# r0profile --trace records the block requests of a dm-stripe of 3 members
# at 64K and of an md raid0 (blktrace's QUEUE events: the requests as
# issued, before the array cuts them at its chunks) while r0bench runs a
# 1 MiB sequential writer at QD8 and then a 4K random reader, and
# r0profile --from-trace classes each trace exactly: the writer
# seq-write, the reader rand-small-q1-read. The counters' own reading of the
# same runs is printed beside it, and on the stripe it names the classes
# its whole-chunk pieces cannot tell apart. The trace holds no names
# (r0bench's is not in it); a truncated trace, a damaged one and a file
# that is not a trace are refused with a clear message (exit 2); a trace
# that reaches --trace-max counts the rest, says so, and stays whole; a
# recording of blktrace itself reads as blkparse reads it.
. ./lib.sh

trap r0_cleanup EXIT
classes="seq-read seq-write rand-large-read rand-large-write rand-small-q1-read rand-small-q1-write rand-small-qd-read rand-small-qd-write"

# top FILE: the class with the largest weight and that weight
top() {
	for c in $classes; do echo "$c $(r0json "$1" "weights.$c.weight")"; done |
		awk 'BEGIN { m = -1 } $2 > m { m = $2; c = $1 } END { print c, m }'
}

# traced NAME DEV CLASS R0BENCH-ARGS...: records a trace of DEV while r0bench
# runs, prints both readings, and checks --from-trace's class (weight >= 0.9)
traced() {
	_n=$1 _dev=$2 _cls=$3; shift 3
	_tr=$R0_RESULTS/$_n.r0trace
	r0profile --for 8 --interval 0.5 --trace "$_tr" --output "$R0_RESULTS/$_n.r0mix.json" "$_dev" \
		> "/tmp/$_n.profile" 2>&1 &
	_pid=$!
	r0bench --yes -t 5 "$@" "$_dev" > "/tmp/$_n.bench" 2>&1 || { cat "/tmp/$_n.bench"; fail "r0bench $*"; }
	wait "$_pid" || { cat "/tmp/$_n.profile"; fail "r0profile --trace during $_n"; }
	echo "---- $_n: r0bench $* ----"
	grep -v '^$' "/tmp/$_n.bench" | tail -2
	echo "---- $_n: r0profile --trace (the trace's classes, then the counters alone) ----"
	cat "/tmp/$_n.profile"
	r0profile --from-trace "$_tr" > "/tmp/$_n.from" 2>&1 || { cat "/tmp/$_n.from"; fail "--from-trace $_n"; }
	echo "---- $_n: r0profile --from-trace ----"
	cat "/tmp/$_n.from"
	r0profile --from-trace "$_tr" --json > "/tmp/$_n.json" || fail "--from-trace --json $_n"
	set -- $(top "/tmp/$_n.json")
	expect_eq "$1" "$_cls" "$_n: the class of the largest weight in the trace"
	check "$2 >= 0.9" "$_n: its weight"
	expect_eq "$(top "$R0_RESULTS/$_n.r0mix.json" | cut -d' ' -f1)" "$_cls" "$_n: the mix written while tracing"
	# only offsets, sizes, directions and times: no process name
	! grep -q r0bench "$_tr" || fail "$_n: the trace holds a process name"
	note "$_n: trace of $(wc -c < "$_tr") bytes for $(r0json "/tmp/$_n.json" totals.reads) reads, $(r0json "/tmp/$_n.json" totals.writes) writes"
}

# not a device, two devices, --from-trace with a device: usage
expect_status 2 "--trace with two devices" r0profile --trace /tmp/t.r0trace /dev/null /dev/zero
expect_status 2 "--from-trace with a device" r0profile --from-trace /tmp/t.r0trace /dev/null
expect_status 2 "--from-trace with --for" r0profile --from-trace /tmp/t.r0trace --for 5

s1=$(r0_member r0trs1 fast size=64) && s2=$(r0_member r0trs2 fast size=64) && s3=$(r0_member r0trs3 fast size=64) ||
	fail "stripe members"
sz=$(( $(r0_sysfs "$s1" size) / 128 * 128 ))
dmsetup create r0trace-str --table "0 $((3 * sz)) striped 3 128 $s1 0 $s2 0 $s3 0" || fail "dmsetup striped"
traced dm-seq1m-write /dev/mapper/r0trace-str seq-write --rw write --bs 1M --qd 8
grep -q "^cannot tell     seq-write, rand-large-write" /tmp/dm-seq1m-write.profile ||
	fail "the counters on the stripe do not say what they cannot tell apart"
traced dm-rand4k-read /dev/mapper/r0trace-str rand-small-q1-read --rw randread --bs 4K --qd 1
dmsetup remove --retry r0trace-str || fail "dmsetup remove the stripe"

m1=$(r0_member r0trm1 fast size=64) && m2=$(r0_member r0trm2 fast size=64) && m3=$(r0_member r0trm3 fast size=64) ||
	fail "md members"
mdadm --create /dev/md/r0trace --run --level=0 --chunk=64 --raid-devices=3 "$m1" "$m2" "$m3" > /dev/null 2>&1 ||
	fail "mdadm --create"
traced md-seq1m-write /dev/md/r0trace seq-write --rw write --bs 1M --qd 8
traced md-rand4k-read /dev/md/r0trace rand-small-q1-read --rw randread --bs 4K --qd 1
mdadm --stop /dev/md/r0trace > /dev/null 2>&1 || fail "mdadm --stop"

# --trace-max: a trace that reaches its limit counts the rest, says so, and
# is still a whole trace; --trace-max without --trace is usage
expect_status 2 "--trace-max without --trace" r0profile --trace-max 1M /dev/null
r0profile --for 3 --interval 0.5 --trace /tmp/max.r0trace --trace-max 4K "$s1" > /tmp/max.profile 2>&1 &
pid=$!
r0bench --yes -t 2 --rw randread --bs 4K --qd 1 "$s1" > /dev/null 2>&1 || fail "r0bench under --trace-max"
wait "$pid" || { cat /tmp/max.profile; fail "r0profile --trace-max 4K"; }
grep -E "beyond the --trace-max of 4K: the classes are of the rest" /tmp/max.profile ||
	{ cat /tmp/max.profile; fail "--trace-max 4K: no word of the requests beyond it"; }
size=$(wc -c < /tmp/max.r0trace)
check "$size < 4096 + 4096" "--trace-max 4K: the trace is $size bytes"
r0profile --from-trace /tmp/max.r0trace > /dev/null 2>&1 || fail "--trace-max 4K: the trace is not whole"
rm -f /tmp/max.r0trace

# a recording of blktrace itself (its per-CPU files, one a guest CPU), read
# as r0profile reads its own: the class, and every write blkparse counts
mkdir -p /sys/kernel/debug
mount -t debugfs debugfs /sys/kernel/debug 2> /dev/null
blktrace -d "$s1" -D /tmp -o bt -w 4 > /tmp/bt.out 2>&1 &
pid=$!
sleep 1
r0bench --yes -t 1 --rw write --bs 1M --qd 8 "$s1" > /dev/null 2>&1 || fail "r0bench under blktrace"
wait "$pid" || { cat /tmp/bt.out; fail "blktrace -d $s1"; }
umount /sys/kernel/debug 2> /dev/null
note "blktrace wrote $(ls /tmp/bt.blktrace.* | wc -l) per-CPU files"
r0profile --from-trace /tmp/bt --json > /tmp/bt.json || fail "--from-trace of blktrace's own recording"
set -- $(top /tmp/bt.json)
expect_eq "$1" seq-write "blktrace's recording: the class of the largest weight"
# blkparse's queued writes with data (a flush is a write without any); a
# request the driver refused and the submitter queued again is one request
# to r0profile and two Qs to blkparse: a few, never more than 1 %
queued=$(blkparse -i bt -D /tmp -a queue -f '%a %d %n\n' | awk '$1 == "Q" && $2 ~ /W/ && $3 > 0' | wc -l)
writes=$(r0json /tmp/bt.json totals.writes)
check "$writes <= $queued && $writes >= $queued * 0.99" \
	"blktrace's recording: $writes writes, blkparse queued $queued"
rm -f /tmp/bt.blktrace.* /tmp/bt.json

# a trace cut short, changed, or not a trace at all
tr=$R0_RESULTS/dm-seq1m-write.r0trace
head -c $(( $(wc -c < "$tr") / 2 )) "$tr" > /tmp/cut.r0trace
expect_status 2 "a truncated trace" r0profile --from-trace /tmp/cut.r0trace
grep -q "/tmp/cut.r0trace: truncated" /tmp/expect.out || fail "truncated: $(cat /tmp/expect.out)"
cp "$tr" /tmp/bad.r0trace
printf '\377\377\377\377' | dd of=/tmp/bad.r0trace bs=1 seek=200 conv=notrunc 2> /dev/null
expect_status 2 "a damaged trace" r0profile --from-trace /tmp/bad.r0trace
grep -q "/tmp/bad.r0trace: damaged" /tmp/expect.out || fail "damaged: $(cat /tmp/expect.out)"
echo '{"r0kit_schema":"r0mix/1"}' > /tmp/notatrace
expect_status 2 "a file that is not a trace" r0profile --from-trace /tmp/notatrace
grep -q "/tmp/notatrace: not a trace" /tmp/expect.out || fail "not a trace: $(cat /tmp/expect.out)"
rm -f /tmp/cut.r0trace /tmp/bad.r0trace /tmp/notatrace
