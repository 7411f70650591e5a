# SPDX-License-Identifier: GPL-2.0-or-later
# Under udev, as on a Debian host (its blkid probe opens every new device,
# libdevmapper waits for its cookies): 25 md and 25 dm arrays created and
# removed in a row end with no EBUSY and nothing left (200 in
# sandbox/vm/udev-cycles); the tools work on an array right after it
# was built, and by the names udev gives it.
. ./lib.sh
# the main boot runs udev; run-all --no-udev runs this without it (libdevmapper makes the nodes)
udev=0
[ -e /run/udev/control ] && udev=1

members=$(r0_members fast 3 size=16) || fail "members"
set -- $members
t0=$(cut -d' ' -f1 /proc/uptime)
i=0
while [ $i -lt 25 ]; do
	for be in md dm; do
		r0build create --yes -q --backend $be -c 64K --name cyc "$@" > /dev/null 2> /tmp/c.err ||
			fail "create $be, cycle $i: $(cat /tmp/c.err)"
		r0build remove cyc 2> /tmp/c.err || fail "remove $be, cycle $i: $(cat /tmp/c.err)"
	done
	i=$((i + 1))
done
secs=$(echo "$(cut -d' ' -f1 /proc/uptime) $t0" | awk '{ printf "%.1f", $1 - $2 }')
note "ok: 25 md and 25 dm arrays created and removed ($( [ $udev = 1 ] && echo under || echo without) udev) in $secs s"
[ "$(r0build list | wc -l)" -le 1 ] || fail "arrays left: $(r0build list)"
[ -z "$(ls /sys/block | grep -E '^(md|dm-)')" ] || fail "devices left: $(ls /sys/block | grep -E '^(md|dm-)')"

# right after building, and by udev's names
a=$(r0build create --yes -q --backend dm -c 64K --name fresh "$@") || fail "create fresh"
trim_out=$(r0trim --yes -f "$a" 2>&1) || fail "r0trim right after create: $trim_out"
if [ $udev = 1 ]; then
	udevadm settle
	name=/dev/disk/by-id/dm-name-r0-fresh
else
	name=/dev/mapper/r0-fresh
fi
[ -b "$name" ] || fail "no $name"
expect_status 0 "r0bench on the name $name of a dm array" r0bench --rw randread -t 0.2 "$name"
r0build remove fresh || fail "remove fresh"
a=$(r0build create --yes -q --backend md -c 64K --name fresh "$@") || fail "create fresh md"
expect_status 0 "r0age right after create" r0age --yes fill 20 "$a"
r0build remove fresh || fail "remove fresh md"
expect_status 0 "r0sweep under udev" r0sweep --yes --output /tmp/u.jsonl -p cdm3 -w "4K write,Seq read" \
	--chunks 64K --single-chunks 64K -r 1 -t 0.2 --ramp 0 --region 8M "$@"
grep -q "udev" /tmp/expect.out && fail "r0sweep waited on udev: $(grep udev /tmp/expect.out)"
r0_remove_members || fail "a member stayed"
