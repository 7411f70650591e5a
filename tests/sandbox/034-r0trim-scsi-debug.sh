# SPDX-License-Identifier: GPL-2.0-or-later
# r0trim over SCSI members with UNMAP (scsi_debug lbpu=1): with lbprz=1 the
# discarded blocks read back as zeroes, with lbprz=2 as 0xff, and r0trim
# checks each against that; an unmap granularity of 8K makes a one-block
# discard "not conclusive" rather than a pass. With lbprz=0 no read-back
# can show anything; the drives' own account (GET LBA STATUS) shows the
# blocks deallocated, for r0trim and for r0trim --live on ext4 (the user's
# files unchanged).
. ./lib.sh
. ./r0trim-lib.sh

# sd_disks: the scsi_debug disks, one line
sd_disks() {
	for s in /sys/block/sd*; do
		[ "$(cat "$s/device/model" 2>/dev/null | tr -d ' ')" = scsi_debug ] && echo "/dev/${s##*/}"
	done | tr '\n' ' '
}
load() {
	r0_modprobe scsi_debug add_host=3 per_host_store=1 dev_size_mb=16 lbpu=1 delay=0 "$@" ||
		fail "scsi_debug does not load"
	n=50
	while [ "$(sd_disks | wc -w)" -lt 3 ]; do
		n=$((n - 1)); [ $n -gt 0 ] || fail "scsi_debug disks did not appear"; sleep 0.1
	done
	for d in $(sd_disks); do r0_wait_dev "$d" || fail "$d"; done
}
# a disk still held keeps scsi_debug loaded: that fails the test
unload() { rmmod scsi_debug || fail "scsi_debug cannot be unloaded"; }
trap 'umount /mnt/live 2> /dev/null; rmmod scsi_debug 2> /dev/null' EXIT

load lbprz=1
set -- $(sd_disks)
md=$(r0build create --yes -q --backend md -c 64K --name s "$@") || fail "md over scsi_debug"
trim_pass "md over scsi_debug lbprz=1" "$md"
grep -q 'reads zeroes (SCSI LBPRZ=1)' /tmp/trim.out || fail "promise: $(sed -n 2p /tmp/trim.out)"
expect_eq "$(grep -c '^effect *PASS ' /tmp/trim.out)" "$(grep -c '^delivery *PASS ' /tmp/trim.out)" \
	"every delivered range read back as zeroes"
echo "r0trim of md raid0 over 3 scsi_debug disks (lbpu=1 lbprz=1):"
cat /tmp/trim.out
r0build remove s || fail "remove"
dm=$(r0build create --yes -q -f --backend dm -c 64K --name s "$@") || fail "dm over scsi_debug"
trim_pass "dm over scsi_debug lbprz=1" -f "$dm"
r0build remove s || fail "remove"
unload

load lbprz=2 unmap_granularity=16
set -- $(sd_disks)
expect_eq "$(r0_sysfs "$1" queue/discard_granularity)" 8192 "unmap_granularity 16 blocks"
md=$(r0build create --yes -q --backend md -c 64K --name s "$@") || fail "md over scsi_debug"
trim_pass "md over scsi_debug lbprz=2, 8K granularity" "$md"
grep -q 'reads 0xff (SCSI LBPRZ=2 (0xff))' /tmp/trim.out || fail "promise: $(sed -n 2p /tmp/trim.out)"
grep -q '^delivery *NOT CONCLUSIVE *smaller than the granularity, 512 at .*proves nothing' /tmp/trim.out ||
	fail "sub-granularity range: $(grep granularity /tmp/trim.out)"
echo "r0trim of md raid0 over 3 scsi_debug disks (lbprz=2, 8K unmap granularity):"
cat /tmp/trim.out
r0build remove s || fail "remove"
unload

load lbprz=0
set -- $(sd_disks)
md=$(r0build create --yes -q --backend md -c 64K --name s "$@") || fail "md over scsi_debug"
trim_pass "md over scsi_debug lbprz=0" "$md"
grep -q 'reads unknown (SCSI LBPRZ=0: no promise)' /tmp/trim.out || fail "promise: $(sed -n 2p /tmp/trim.out)"
grep -q '^lba-status *PASS .*GET LBA STATUS' /tmp/trim.out || fail "no GET LBA STATUS line: $(cat /tmp/trim.out)"
grep -q "^verdict *PASS .*${3#/dev/} deallocated" /tmp/trim.out || fail "not deallocated: $(tail -1 /tmp/trim.out)"
echo "r0trim of md raid0 over 3 scsi_debug disks (lbprz=0: the drives' account):"
cat /tmp/trim.out
live_fs ext4 "$md"
live_pass "ext4 on md raid0 over scsi_debug lbprz=0, --live"
grep -q '^lba-status *PASS .*the file.s sectors' /tmp/trim.out || fail "live: no GET LBA STATUS line"
echo "r0trim --live on ext4 on that array:"
cat /tmp/trim.out
umount /mnt/live
r0build remove s || fail "remove"
unload
