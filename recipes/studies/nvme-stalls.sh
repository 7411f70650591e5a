# SPDX-License-Identifier: GPL-2.0-or-later
# Counts the 60 s stalls of QEMU NVMe drives (guest side): md raid0 of the
# first two --nvme drives at 4K chunks, then ROUNDS rounds of four 0.8 s
# r0bench tests (1M writes QD1, 512K random writes QD1, 4K random writes
# QD32, 1M reads QD1) in the first 64 MiB; each test's wall time from
# /proc/uptime, then the guest nvme driver's timeouts and resets. A test
# of about 60 s more is a lost shadow doorbell (docs/sandbox.md: why run
# keeps QEMU on one host CPU with NVMe drives).
# Usage: sandbox/vm/run --nvme 256M --nvme 256M [--drive-limits BPS,0]
#        recipes/studies/nvme-stalls.sh [-- ROUNDS]
. "$R0_GUEST/guest.sh"
ROUNDS=${1:-6}
udevadm settle
a=$(r0_drive nvme 0) || exit 1
b=$(r0_drive nvme 1) || exit 1
echo "nvme-stalls: io_timeout $(cat /sys/module/nvme_core/parameters/io_timeout) s"
md=$(r0build create --backend md --chunk 4K --yes --quiet "$a" "$b") || exit 1
t() {
	s=$(cut -d' ' -f1 /proc/uptime)
	r0bench --yes "$@" --span 64M "$md" > /tmp/nvme-stalls.out 2>&1
	rc=$?
	e=$(cut -d' ' -f1 /proc/uptime)
	echo "nvme-stalls: $(echo "$e - $s" | bc) s rc=$rc r0bench $*"
}
i=0
while [ $i -lt "$ROUNDS" ]; do
	t --rw write --bs 1M --qd 1 -t 0.7 --ramp 0.1
	t --rw randwrite --bs 512K --qd 1 -t 0.7 --ramp 0.1
	t --rw randwrite --bs 4K --qd 32 -t 0.7 --ramp 0.1
	t --rw read --bs 1M --qd 1 -t 0.7 --ramp 0.1
	i=$((i + 1))
done
echo "nvme-stalls: $(dmesg | grep -c 'timeout, aborting') commands timed out, $(dmesg | grep -c 'reset controller') controller resets"
r0build remove --all
