# SPDX-License-Identifier: GPL-2.0-or-later
# r0profile on a null_blk member (sata-ssd profile) while r0bench runs three
# known workloads in turn recovers each one's class and read share: 1M
# sequential reads at QD1 (split by the kernel at the queue's size limit),
# 4K random writes at QD1, 4K random reads at QD32. It reads only sysfs, so
# a dm device, a symlink and an md array are profiled the same way; a
# dm-stripe under a 1 MiB sequential writer is a stream, not the small writes
# its 64K pieces look like; SIGTERM ends a
# profile early and the file is still written; a missing device, a regular
# file, a zero or bad duration and a file that is not a mix get clear errors.
. ./lib.sh

trap r0_cleanup EXIT
dev=$(r0_member r0prof sata-ssd) || fail "member"
classes="seq-read seq-write rand-large-read rand-large-write rand-small-q1-read rand-small-q1-write rand-small-qd-read rand-small-qd-write"

# top FILE: the class with the largest weight and that weight
top() {
	for c in $classes; do echo "$c $(r0json "$1" "weights.$c.weight")"; done |
		awk 'BEGIN { m = -1 } $2 > m { m = $2; c = $1 } END { print c, m }'
}

# within VALUE LOW HIGH WHAT
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
		fail "$4: $1 is not within [$2, $3]"
	note "ok: $4 = $1 (within [$2, $3])"
}

# measure NAME CLASS READ_LOW READ_HIGH R0BENCH-ARGS...: profiles DEV while
# r0bench runs the workload, and checks the class (weight >= 0.8) and the
# read share by requests.
measure() {
	_n=$1 _cls=$2 _lo=$3 _hi=$4; shift 4
	_mix=$R0_RESULTS/$_n.r0mix.json
	r0profile --for 8 --interval 0.5 --output "$_mix" "$dev" > "/tmp/$_n.profile" 2>&1 &
	_pid=$!
	r0bench --yes -t 6 "$@" "$dev" > "/tmp/$_n.bench" 2>&1 || { cat "/tmp/$_n.bench"; fail "r0bench $*"; }
	wait "$_pid" || { cat "/tmp/$_n.profile"; fail "r0profile during $_n"; }
	echo "---- r0bench $* ----"
	grep -v '^$' "/tmp/$_n.bench" | tail -3
	echo "---- r0profile ----"
	cat "/tmp/$_n.profile"
	set -- $(top "$_mix")
	expect_eq "$1" "$_cls" "$_n: the class of the largest weight"
	within "$2" 0.8 1 "$_n: its weight"
	within "$(r0json "$_mix" totals.read_share_ops)" "$_lo" "$_hi" "$_n: read share by requests"
	expect_eq "$(r0json "$_mix" r0kit_schema)" r0mix/1 "$_n: schema"
}

# bad input first: nothing may be written
expect_status 2 "no device" r0profile
expect_status 2 "a missing device" r0profile --for 1 /dev/r0-no-such-dev
grep -q "/dev/r0-no-such-dev: No such file or directory" /tmp/expect.out || fail "missing device: $(cat /tmp/expect.out)"
echo data > /tmp/r0prof-file
expect_status 2 "a regular file" r0profile --for 1 /tmp/r0prof-file
grep -q "/tmp/r0prof-file: not a block device" /tmp/expect.out || fail "regular file: $(cat /tmp/expect.out)"
expect_status 2 "--for 0" r0profile --for 0 "$dev"
expect_status 2 "--for soon" r0profile --for soon "$dev"
expect_status 2 "--interval 0" r0profile --interval 0 "$dev"
expect_status 2 "--for shorter than --interval" r0profile --for 1 --interval 2 "$dev"
expect_status 2 "the same device twice" r0profile --for 1 "$dev" "$dev"
expect_status 2 "-o in a missing directory" r0profile --for 1 --output /nonexistent/m.json "$dev"
echo '{"r0kit_schema":"r0bench/1"}' > /tmp/notamix.json
expect_status 2 "r0report --mix with a file that is not a mix" r0report --output-dir /tmp/rep --mix /tmp/notamix.json /tmp/notamix.json
grep -q "not a mix file" /tmp/expect.out || fail "not a mix: $(cat /tmp/expect.out)"

measure seq1m-read-qd1 seq-read 0.99 1 --rw read --bs 1M --qd 1
# r0bench's own look at the device before it writes (libblkid: ~50 reads,
# ~1 MiB) is real traffic too: about 1 % of a 4K writer's requests, and
# 4-5 % of its bytes, depending on how fast the guest writes
measure rand4k-write-qd1 rand-small-q1-write 0 0.03 --rw randwrite --bs 4K --qd 1
measure rand4k-read-qd32 rand-small-qd-read 0.99 1 --rw randread --bs 4K --qd 32

# only sysfs is read: a dm device over the member and a symlink to it
dmsetup create r0prof-lin --table "0 $(r0_sysfs "$dev" size) linear $dev 0" || fail "dmsetup"
ln -sf /dev/mapper/r0prof-lin /tmp/r0prof-link
expect_status 0 "a dm device through a symlink" r0profile --for 1 --interval 0.5 --json /tmp/r0prof-link
for d in /sys/block/dm-*; do [ "$(cat "$d/dm/name")" = r0prof-lin ] && dmk=${d##*/}; done
expect_eq "$(r0json /tmp/expect.out devices.0.kname)" "$dmk" "the dm device's kernel name"
dmsetup remove --retry r0prof-lin || fail "dmsetup remove"

# and an md array, read while profiled
m1=$(r0_member r0prof1 fast size=32) && m2=$(r0_member r0prof2 fast size=32) || fail "md members"
mdadm --create /dev/md/r0prof --run --level=0 --chunk=64 --raid-devices=2 "$m1" "$m2" > /dev/null 2>&1 ||
	fail "mdadm --create"
md=$(readlink -f /dev/md/r0prof)
r0profile --for 2 --interval 0.5 --json /dev/md/r0prof > /tmp/md.json 2> /tmp/md.err &
pid=$!
# read until the profile ends, so its first sample cannot miss the reads
while kill -0 "$pid" 2> /dev/null; do
	dd if=/dev/md/r0prof of=/dev/null bs=1M count=8 iflag=direct 2> /dev/null || fail "dd from the array"
done
wait "$pid" || { cat /tmp/md.err; fail "r0profile on md"; }
echo "md iostats: $(cat "/sys/block/${md##*/}/queue/iostats"), stat: $(cat "/sys/block/${md##*/}/stat")"
expect_eq "$(r0json /tmp/md.json devices.0.kname)" "${md##*/}" "the md device's kernel name"
within "$(r0json /tmp/md.json totals.read_bytes)" $((1 << 20)) 1e12 "bytes read through the array, as md counted them"
mdadm --stop "$md" > /dev/null 2>&1 || fail "mdadm --stop"

# a dm-stripe of 3 members at 64K under a 1 MiB sequential writer at QD8: dm
# counts the 64K pieces it cuts each request into, which alone look like
# small writes at high QD; as a stripe's whole-chunk pieces they are a stream
s1=$(r0_member r0prs1 fast size=64) && s2=$(r0_member r0prs2 fast size=64) && s3=$(r0_member r0prs3 fast size=64) ||
	fail "stripe members"
sz=$(( $(r0_sysfs "$s1" size) / 128 * 128 ))
dmsetup create r0prof-str --table "0 $((3 * sz)) striped 3 128 $s1 0 $s2 0 $s3 0" || fail "dmsetup striped"
mix=$R0_RESULTS/stripe-seq-write.r0mix.json
r0profile --for 8 --interval 0.5 --output "$mix" /dev/mapper/r0prof-str > /tmp/str.profile 2>&1 &
pid=$!
r0bench --yes -t 6 --rw write --bs 1M --qd 8 /dev/mapper/r0prof-str > /tmp/str.bench 2>&1 ||
	{ cat /tmp/str.bench; fail "r0bench on the stripe"; }
wait "$pid" || { cat /tmp/str.profile; fail "r0profile on the stripe"; }
cat /tmp/str.profile
grep -q "a striped array (3 members, chunk 64K)" /tmp/str.profile || fail "the stripe not recognised"
set -- $(top "$mix")
expect_eq "$1" seq-write "a stripe under a 1 MiB writer: the class of the largest weight"
within "$2" 0.8 1 "a stripe under a 1 MiB writer: its weight"
dmsetup remove --retry r0prof-str || fail "dmsetup remove the stripe"

# SIGTERM ends an open-ended profile; the file is still written
r0profile --interval 0.5 --output /tmp/term.r0mix.json "$dev" > /tmp/term.out 2>&1 &
pid=$!
r0bench --yes -t 2 --rw randread --bs 4K --qd 1 "$dev" > /dev/null 2>&1 || fail "r0bench under SIGTERM"
kill -TERM "$pid"
wait "$pid" || { cat /tmp/term.out; fail "r0profile after SIGTERM: exit $?"; }
expect_eq "$(r0json /tmp/term.r0mix.json period.interrupted)" true "interrupted recorded"
grep -q "stopped by a signal" /tmp/term.out || fail "no word of the signal: $(cat /tmp/term.out)"
expect_eq "$(top /tmp/term.r0mix.json | cut -d' ' -f1)" rand-small-q1-read "the class measured before SIGTERM"
rm -f /tmp/term.r0mix.json /tmp/r0prof-link /tmp/r0prof-file
