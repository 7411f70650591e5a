# SPDX-License-Identifier: GPL-2.0-or-later
# r0ssd serves a simulated SSD through ublk: r0probe sees 4K blocks and
# discard; data written reads back and discarded ranges read as zeros;
# sequential whole-device overwrites cost no GC (WAF 1), random 4K writes
# do (WAF > 1) and are slower than on the fresh device (time model),
# and a whole-device discard brings WAF and speed back;
# SIGTERM removes the device; after SIGKILL, --cleanup deletes the
# /dev/ublkcN left behind and leaves a live server's device alone.
. ./lib.sh

[ -e /dev/ublk-control ] || fail "no /dev/ublk-control: ublk_drv did not load"
st=/tmp/ssd.stats
pids=""
cleanup() {
	for p in $pids; do kill -TERM "$p" 2>/dev/null; done
	sleep 1
	for p in $pids; do kill -KILL "$p" 2>/dev/null; done
	r0ssd --cleanup > /dev/null 2>&1
}
trap cleanup EXIT

# counter KEY: the value from a fresh stats file (SIGUSR1, then wait for seq
# to move); "missing:KEY" when the file lacks it, which no check takes for a number
counter() {
	_seq=$(sed -n 's/^seq=//p' "$st")
	kill -USR1 "$pid"
	_n=50
	while [ "$(sed -n 's/^seq=//p' "$st")" = "$_seq" ]; do
		_n=$((_n - 1)); [ "$_n" -gt 0 ] || fail "stats file did not change after SIGUSR1"
		sleep 0.1
	done
	grep -q "^$1=" "$st" || { echo "missing:$1"; return 1; }
	sed -n "s/^$1=//p" "$st"
}

# waf_since PROGRAMS HOST: flash programs / host page writes since those counts
waf_since() {
	echo "$(counter flash_program_pages) $1 $(counter host_write_pages) $2" |
		awk '{ for (i = 1; i <= 4; i++) if ($i !~ /^[0-9]+$/) { print "missing"; exit }
		       if ($3 == $4) print "none"; else printf "%.3f", ($1 - $2) / ($3 - $4) }'
}

# write_iops SIZE IO_SIZE: 4K random writes at QD32 over the first SIZE of
# the device, IO_SIZE in all; fio's write IOPS (terse v3 field 49)
write_iops() {
	fio --name=t --filename="$dev" --rw=randwrite --bs=4k --iodepth=32 --size="$1" \
		--io_size="$2" --direct=1 --ioengine=io_uring --minimal | cut -d';' -f49 | cut -d. -f1
}

# wait_gone PATH: bounded wait until PATH no longer exists
wait_gone() {
	_n=50
	while [ -e "$1" ]; do
		_n=$((_n - 1)); [ "$_n" -gt 0 ] || fail "$1 still there"
		sleep 0.1
	done
}

expect_status 2 "r0ssd without --capacity" r0ssd
expect_status 2 "r0ssd --capacity not a multiple of 4K" r0ssd --capacity 1000
expect_status 2 "r0ssd --spare out of range" r0ssd --capacity 32M --spare 95

# a 32 MiB SSD with the default time model, in the background
dev=$(r0ssd --capacity 32M --daemon --pid-file /tmp/ssd.pid --stats "$st" --stats-interval 5) ||
	fail "r0ssd did not start"
pid=$(cat /tmp/ssd.pid)
pids="$pid"
[ -b "$dev" ] || fail "r0ssd printed '$dev', not a block device"
b=${dev##*/}
note "r0ssd pid $pid serves $dev"
col() { r0probe -b -n -o "$2" "$1" | sed 's/[[:space:]]*$//'; }
r0probe -o NAME,SIZE,LOG-SEC,PHY-SEC,RQ-SIZE,DISC-GRAN,DISC-MAX,WZERO-MAX "$dev"
expect_eq "$(col "$dev" SIZE)" $((32 << 20)) "SIZE"
expect_eq "$(col "$dev" LOG-SEC)" 4096 "LOG-SEC"
expect_eq "$(col "$dev" DISC-GRAN)" 4096 "DISC-GRAN (the flash page)"
expect_eq "$(col "$dev" RQ-SIZE)" 32 "RQ-SIZE (queue depth)"
[ "$(col "$dev" DISC-MAX)" -gt 0 ] || fail "discard not advertised"
note "ok: DISC-MAX $(col "$dev" DISC-MAX)"
expect_eq "$(counter state)" running "stats state"
expect_eq "$(counter logical_pages)" 8192 "logical pages"
# 8192 pages / 0.93 is 34.4 blocks of 256: 35 data blocks, and the reserve
expect_eq "$(counter spare_percent)" 7.00 "spare as asked"
expect_eq "$(counter spare_effective_percent)" 8.57 "effective spare (35 data blocks)"
expect_eq "$(counter spare_with_reserve_percent)" 11.11 "spare with the reserve block (36 blocks)"

# fresh: 4096 random writes fit the erased blocks, no GC
fresh=$(write_iops 8M 16M)
expect_eq "$(counter gc_copy_pages)" 0 "no GC copies on a fresh device"
note "fresh 4K QD32 random write: $fresh IOPS"

# sequential whole-device overwrites: every victim is empty, WAF 1
dd if=/dev/zero of="$dev" bs=512k oflag=direct 2> /dev/null
p0=$(counter flash_program_pages) h0=$(counter host_write_pages) c0=$(counter gc_copy_pages)
dd if=/dev/zero of="$dev" bs=512k oflag=direct 2> /dev/null
dd if=/dev/zero of="$dev" bs=128k oflag=direct 2> /dev/null
expect_eq "$(( $(counter host_write_pages) - h0 ))" 16384 "two overwrites counted"
expect_eq "$(counter gc_copy_pages)" "$c0" "sequential overwrite copies nothing"
expect_eq "$(waf_since "$p0" "$h0")" 1.000 "sequential overwrite WAF"
[ "$(counter gc_runs)" -gt 0 ] || fail "GC never reclaimed a block"

# random 4K overwrites of the full device: GC copies, and the drive slows down
p0=$(counter flash_program_pages) h0=$(counter host_write_pages)
fio --name=r --filename="$dev" --rw=randwrite --bs=4k --iodepth=32 --direct=1 \
	--ioengine=io_uring --io_size=32M --minimal > /dev/null || fail "fio random writes"
waf=$(waf_since "$p0" "$h0")
check "$waf > 1.5" "random overwrite WAF above 1.5"

# the engine's verify over the whole device, through GC: every block reads
# back with its own number, pass and seed
expect_status 0 "r0bench randwrite --verify on r0ssd" \
	r0bench --yes --rw randwrite --bs 16K --qd 8 --verify --seed 5 --pass 3 "$dev"
grep -q "33554432 bytes read back, 0 bad sectors" /tmp/expect.out || { cat /tmp/expect.out; fail "verify read-back"; }
used=$(write_iops 32M 8M)
note "4K QD32 random write: fresh $fresh IOPS, after random overwrite $used IOPS"
[ "$used" -lt $((fresh / 2)) ] || fail "GC did not slow writes ($fresh -> $used IOPS)"
[ "$(counter gc_stall_ms | cut -d. -f1)" -gt 0 ] || fail "no foreground GC stall counted"

# TRIM of the whole device: GC has nothing left to copy, the speed comes back
blkdiscard "$dev" || fail "blkdiscard of the whole device"
expect_eq "$(counter mapped_pages)" 0 "nothing mapped after a whole-device discard"
p0=$(counter flash_program_pages) h0=$(counter host_write_pages)
again=$(write_iops 8M 16M)
waf=$(waf_since "$p0" "$h0")
note "after TRIM: $again IOPS, WAF $waf"
check "$waf < 1.05" "WAF after TRIM about 1"
[ "$again" -gt $((used * 2)) ] || fail "TRIM did not bring the speed back ($used -> $again IOPS)"

# data: a random pattern reads back; discarded pages read zeros, the rest stays
head -c $((1 << 20)) /dev/urandom > /tmp/pattern
dd if=/tmp/pattern of="$dev" bs=64k seek=100 oflag=direct 2> /dev/null || fail "write pattern"
r0_drop_caches
got=$(dd if="$dev" bs=64k skip=100 count=16 iflag=direct 2> /dev/null | md5sum | cut -d' ' -f1)
expect_eq "$got" "$(md5sum < /tmp/pattern | cut -d' ' -f1)" "pattern reads back"
t0=$(counter host_trim_pages) m0=$(counter mapped_pages)
blkdiscard -o $((100 * 65536 + 65536)) -l 65536 "$dev" || fail "blkdiscard"
expect_eq "$(( $(counter host_trim_pages) - t0 ))" 16 "16 pages trimmed"
expect_eq "$(( m0 - $(counter mapped_pages) ))" 16 "16 pages unmapped"
zeros=$(head -c 65536 /dev/zero | md5sum | cut -d' ' -f1)
expect_eq "$(dd if="$dev" bs=64k skip=101 count=1 iflag=direct 2> /dev/null | md5sum | cut -d' ' -f1)" \
	"$zeros" "discarded range reads zeros"
expect_eq "$(dd if="$dev" bs=64k skip=102 count=1 iflag=direct 2> /dev/null | md5sum | cut -d' ' -f1)" \
	"$(chunk_sum /tmp/pattern 65536 2)" "the range after it is intact"
expect_eq "$(dd if="$dev" bs=64k skip=100 count=1 iflag=direct 2> /dev/null | md5sum | cut -d' ' -f1)" \
	"$(chunk_sum /tmp/pattern 65536 0)" "the range before it is intact"
expect_eq "$(counter failed_requests)" 0 "no failed requests"
expect_eq "$(counter server_errors)" 0 "no server errors"

# SIGKILL leaves /dev/ublkcN; --cleanup removes it, and only it
dev2=$(r0ssd --capacity 8M --no-timing --daemon --pid-file /tmp/ssd2.pid) || fail "second r0ssd"
pid2=$(cat /tmp/ssd2.pid)
pids="$pid $pid2"
id2=${dev2#/dev/ublkb}
kill -KILL "$pid2"
wait_gone "$dev2"
[ -e "/dev/ublkc$id2" ] || fail "/dev/ublkc$id2 gone without cleanup (a changed kernel?)"
expect_status 0 "r0ssd --cleanup" r0ssd --cleanup
grep -q "removed 1 left-over device$" /tmp/expect.out || fail "cleanup said: $(cat /tmp/expect.out)"
wait_gone "/dev/ublkc$id2"
[ -b "$dev" ] || fail "--cleanup removed the live server's $dev"
expect_status 2 "r0ssd --cleanup of a live server's device" r0ssd --cleanup "${dev#/dev/ublkb}"

# SIGTERM: the device goes, counters written with state=stopped
kill -TERM "$pid"
wait_gone /tmp/ssd.pid
pids=""
wait_gone "$dev"
wait_gone "/dev/ublkc${dev#/dev/ublkb}"
expect_eq "$(sed -n 's/^state=//p' "$st")" stopped "stats state after SIGTERM"
note "final counters: $(grep -E '^(host_write_pages|flash_program_pages|waf|gc_runs|free_blocks)=' "$st" | tr '\n' ' ')"

# in the foreground a stop signal removes the device and exits 0: the server's end
r0ssd --capacity 16M --no-data > /tmp/fg.path 2> /tmp/fg.err &
fg=$!
n=50
while [ ! -s /tmp/fg.path ] && [ "$n" -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
fgdev=$(cat /tmp/fg.path)
[ -b "$fgdev" ] || fail "foreground r0ssd printed '$fgdev'"
kill -TERM "$fg"
wait "$fg"
expect_eq "$?" 0 "foreground r0ssd exit status after SIGTERM"
wait_gone "$fgdev"
grep -q "stopped by Terminated, removed" /tmp/fg.err || fail "stop message: $(cat /tmp/fg.err)"
