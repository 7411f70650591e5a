# SPDX-License-Identifier: GPL-2.0-or-later
# r0build refuses what it must and leaves nothing behind: a member with an
# ext4 signature (refused, then accepted with --force), a mounted member, a
# member already in an array, the same device twice (also by a second name
# and a symlink), a missing device, bad chunks, bad names; a partition is taken;
# a SIGTERM during create; remove of a mounted array; remove --all.
. ./lib.sh

members=$(r0_members fast 4 size=32) || fail "members"
set -- $members
m0=$1 m1=$2 m2=$3 m3=$4

# state: every array and dm device there is
state() { r0build list; ls /sys/block | grep '^md'; dmsetup ls; }

# refuse CODE WHAT MESSAGE-PATTERN ARGS...: r0build exits CODE, says MESSAGE, builds nothing
refuse() {
	code=$1 what=$2 pat=$3; shift 3
	before=$(state)
	r0build "$@" > /tmp/r.out 2> /tmp/r.err
	rc=$?
	[ "$rc" = "$code" ] || { cat /tmp/r.out /tmp/r.err; fail "$what: exit $rc, expected $code"; }
	grep -q -- "$pat" /tmp/r.err || { cat /tmp/r.err; fail "$what: message lacks '$pat'"; }
	[ -s /tmp/r.out ] && fail "$what: printed a path: $(cat /tmp/r.out)"
	[ "$(state)" = "$before" ] || fail "$what: arrays changed: $(state)"
	note "ok: $what refused: $(head -1 /tmp/r.err)"
}

mkfs.ext4 -q -F "$m1" || fail "mkfs.ext4"
refuse 2 "ext4 member" "$m1: holds an ext4 signature (use --force" create --backend md -c 64K "$m0" "$m1"
refuse 2 "ext4 member (dm)" "holds an ext4 signature" create --backend dm -c 64K "$m0" "$m1"
p=$(r0build create --yes --backend md -c 64K --force "$m0" "$m1") || fail "--force did not accept the ext4 member"
r0build remove "$p" || fail "remove by path"

mkdir -p /mnt/t && mount "$m1" /mnt/t || fail "mount"
refuse 2 "mounted member" "$m1: mounted on /mnt/t" create --backend md -c 64K --force "$m0" "$m1"
refuse 2 "mounted member (dm)" "mounted on /mnt/t" create --backend dm -c 64K --force "$m1"
umount /mnt/t

p=$(r0build create --yes --backend dm -c 64K --name held "$m2") || fail "create held"
refuse 2 "member of another array" "$m2: held by dm-" create --backend md -c 64K "$m0" "$m2"
mdadm --build /dev/md9 --level=0 --chunk=64 --raid-devices=1 "$m3" --force > /dev/null 2>&1 || fail "mdadm --build"
refuse 2 "member of an mdadm array" "$m3: held by md9" create --backend dm -c 64K "$m3"
expect_status 2 "r0build remove of a foreign array" r0build remove md9
mdadm --stop /dev/md9 > /dev/null 2>&1
r0build remove held || fail "remove held"

refuse 2 "same device twice" "$m0: the same device as $m0" create --backend md -c 64K "$m0" "$m0"
ln -s "$m0" /dev/r0-link
refuse 2 "device and its symlink" "/dev/r0-link: the same device as $m0" create --backend md -c 64K "$m0" /dev/r0-link
mknod /dev/r0-second b $(r0_sysfs "$m0" dev | tr : ' ')
refuse 2 "device under a second name" "the same device as" create --backend dm -c 64K "$m0" /dev/r0-second
refuse 2 "missing device" "/dev/nosuch: no such device" create --backend md -c 64K "$m0" /dev/nosuch
refuse 2 "not a block device" "/etc/r0-kernel: not a block device" create --backend md -c 64K /etc/r0-kernel

# a partition (a member like a disk), and a disk with a mounted partition
# (loop: null_blk has no partitions)
truncate -s 32M /tmp/disk.img
printf 'label: dos\n,16M,L\n' | sfdisk -q /tmp/disk.img > /dev/null || fail "sfdisk"
loop=$(r0_loop_parts /tmp/disk.img 1) || fail "losetup"
p=$(r0build create --yes --backend md -c 64K --force "${loop}p1") || fail "a partition as a member"
r0build remove "$p" || fail "remove the array over a partition"
mkfs.ext4 -q -F "${loop}p1" && mount "${loop}p1" /mnt/t || fail "mount partition"
refuse 2 "disk with a mounted partition" "$loop: its partition ${loop##*/}p1 is mounted on /mnt/t" \
	create --backend md -c 64K --force "$loop"
umount /mnt/t
losetup -d "$loop"

refuse 2 "chunk 3k (md)" "power of two" create --backend md -c 3k "$m0"
refuse 2 "chunk 0" "--chunk '0'" create --backend md -c 0 "$m0"
refuse 2 "chunk 0 (dm)" "--chunk '0'" create --backend dm -c 0 "$m0"
refuse 2 "chunk 6k (dm)" "multiple of 4K" create --backend dm -c 6k "$m0"
refuse 2 "chunk 2k (md)" "--chunk '2k'" create --backend md -c 2k "$m0"
refuse 2 "chunk garbage" "--chunk '64Q'" create --backend md -c 64Q "$m0"
refuse 2 "no backend" "--backend" create -c 64K "$m0"
refuse 2 "bad backend" "--backend 'zfs'" create --backend zfs -c 64K "$m0"
refuse 2 "no members" "member" create --backend md -c 64K
refuse 2 "bad name" "--name" create --backend md -c 64K --name 'a/b' "$m0"
refuse 2 "unknown command" "unknown command" frob
refuse 2 "chunk larger than the members" "chunk" create --backend md -c 64M "$m0"

# an existing name is refused, the first array stays
p=$(r0build create --yes --backend md -c 64K --name dup "$m0") || fail "create dup"
r0build create --yes --backend dm -c 64K --name dup "$m2" > /dev/null 2> /tmp/r.err && fail "a second array named dup"
grep -q "exists" /tmp/r.err || fail "duplicate name message: $(cat /tmp/r.err)"
[ -b "$p" ] || fail "the first dup array was disturbed"

# remove refuses a mounted array
mkfs.ext4 -q -F "$p" && mount "$p" /mnt/t || fail "mount array"
expect_status 2 "remove of a mounted array" r0build remove dup
grep -q "open or mounted" /tmp/expect.out || fail "remove message: $(cat /tmp/expect.out)"
umount /mnt/t
r0build remove dup || fail "remove dup"
wipefs -a -q "$m0" || fail "wipefs"

# SIGTERM at known points of create (r0sigat sends it as r0build enters that
# ioctl; r0build holds it pending): in the member checks (BLKGETSIZE64)
# nothing is built yet; at RUN_ARRAY (md) and at the resume that makes the dm
# table live (DM_DEV_SUSPEND) the array exists, and create must take it
# down again. Nothing may be left, and the exit status is 1.
nothing_left() {
	expect_eq "$(r0build list | tail -n +2 | wc -l)" 0 "$1: no r0kit array left"
	[ -z "$(ls /sys/block | grep '^md')" ] || fail "$1: an md device left: $(ls /sys/block | grep '^md')"
	[ -z "$(dmsetup ls | grep -v '^No devices')" ] || fail "$1: a dm device left: $(dmsetup ls)"
}
r0sigat BLKGETSIZE64 r0build create --yes --backend md -c 64K --name sig "$m0" "$m2" > /tmp/sig.out 2> /tmp/sig.err
expect_eq "$?" 1 "exit after SIGTERM in the member checks"
grep -q "^r0build: create: interrupted by a signal before anything was built$" /tmp/sig.err ||
	fail "SIGTERM in the member checks: $(cat /tmp/sig.err)"
nothing_left "SIGTERM in the member checks"
for at in md:RUN_ARRAY dm:DM_DEV_SUSPEND; do
	be=${at%%:*} req=${at#*:}
	r0sigat "$req" r0build create --yes --backend "$be" -c 64K --name sig "$m0" "$m2" > /tmp/sig.out 2> /tmp/sig.err
	expect_eq "$?" 1 "$be: exit after SIGTERM at $req"
	grep -q "^r0build: create .*sig: interrupted by a signal; removed it again$" /tmp/sig.err ||
		fail "$be: SIGTERM at $req: $(cat /tmp/sig.err)"
	[ -s /tmp/sig.out ] && fail "$be: SIGTERM at $req: printed a path: $(cat /tmp/sig.out)"
	nothing_left "$be: SIGTERM at $req"
done

# SIGTERM at any other moment: either create finished (exit 0, the array is
# whole) or it failed and removed what it had built (exit 1, nothing left)
t0=$(cut -d' ' -f1 /proc/uptime)
r0build create --yes --backend md -c 64K --name sig "$m0" "$m2" > /dev/null || fail "create sig"
t1=$(cut -d' ' -f1 /proc/uptime)
r0build remove sig || fail "remove sig"
step=$(echo "$t0 $t1" | awk '{ printf "%d", ($2 - $1) * 1000000 / 10 }')   # a tenth of a create, in us
note "r0build create takes $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s here"
i=0
while [ $i -lt 12 ]; do
	r0build create --yes --backend md -c 64K --name sig "$m0" "$m2" > /tmp/sig.out 2> /tmp/sig.err &
	pid=$!
	usleep $((i * step))   # from before main() to after the array is up
	kill -TERM $pid 2>/dev/null
	wait $pid
	rc=$?
	left=$(r0build list | tail -n +2 | wc -l)
	if [ "$rc" = 0 ]; then
		expect_eq "$left" 1 "create that finished before SIGTERM left its array"
		r0build remove sig || fail "remove sig"
	else
		nothing_left "create stopped by SIGTERM (exit $rc)"
		# 143: killed while the program was still loading, before main()
		if [ "$rc" != 143 ]; then
			expect_eq "$rc" 1 "exit status after SIGTERM"
			grep -q "^r0build: create.*interrupted by a signal" /tmp/sig.err ||
				fail "no message after SIGTERM: $(cat /tmp/sig.err)"
		fi
	fi
	i=$((i + 1))
done

# remove --all takes r0kit's arrays and nothing else
r0build create --yes --backend md -c 64K "$m0" > /dev/null || fail "create for --all"
r0build create --yes --backend dm -c 64K "$m2" > /dev/null || fail "create for --all (dm)"
mdadm --build /dev/md9 --level=0 --chunk=64 --raid-devices=1 "$m3" --force > /dev/null 2>&1 || fail "foreign md"
r0build remove --all || fail "remove --all"
expect_eq "$(r0build list | wc -l)" 1 "remove --all removed every r0kit array"
[ -e /sys/block/md9/md ] || fail "remove --all touched a foreign array"
mdadm --stop /dev/md9 > /dev/null 2>&1 || fail "mdadm --stop md9"
r0_remove_members || fail "a member stayed"
