# SPDX-License-Identifier: GPL-2.0-or-later
# In the guest of host/070-drive-protocols.sh (drives nvme0-2, sata0-1; nvme2
# and sata1 ignore discards): discards through the real NVMe and SATA
# protocols. Writes $R0_RESULTS/alloc-expect, what each backing file must
# hold afterwards, for the host to check.
. ./lib.sh
. ./r0trim-lib.sh
trap r0_cleanup EXIT
MiB=1048576
exp=$R0_RESULTS/alloc-expect
: > "$exp"

# the bare drives: write 16 MiB, discard 8 MiB of it
for d in nvme:0 nvme:2 sata:0 sata:1; do
	dev=$(r0_drive "${d%:*}" "${d#*:}") || fail "no drive $d"
	dd if=/dev/urandom of="$dev" bs=1M count=16 oflag=direct 2>/dev/null || fail "write $dev"
	blkdiscard -o 0 -l $((8 * MiB)) "$dev" || fail "blkdiscard $dev"
	note "ok: $dev (${d%:*} ${d#*:}): 16 MiB written, 8 MiB discarded: $(sed -n 's/^ *//p' /sys/block/${dev#/dev/}/stat | awk '{ print $15 }') sectors counted"
	case $d in
	*:0) echo "${d%:*}${d#*:}.img max $((8 * MiB))" >> "$exp" ;;
	*) echo "${d%:*}${d#*:}.img min $((16 * MiB))" >> "$exp" ;;
	esac
done
# nvme1: written whole, discarded whole
dev=$(r0_drive nvme 1) || fail "no drive nvme 1"
dd if=/dev/urandom of="$dev" bs=1M count=64 oflag=direct 2>/dev/null || fail "write $dev"
blkdiscard "$dev" || fail "blkdiscard $dev"
echo "nvme1.img max 0" >> "$exp"
cat "$exp"
