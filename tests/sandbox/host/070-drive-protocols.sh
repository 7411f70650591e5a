#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the host: boots a guest of its own with QEMU-emulated NVMe and SATA
# drives on sparse files (sandbox/vm/run --nvme/--sata), runs
# drive-protocols.guest.sh in it, then checks each drive's backing file:
# its allocated bytes must be what the guest says its discards left
# (expect lines "FILE min|max BYTES", or "FILE below OTHER BYTES": at
# least BYTES less than OTHER holds). The witness outside the guest.
# Usage: 070-drive-protocols.sh RESULTS_DIR BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$2
out=$root/build/sandbox/check/drive-protocols
# nvme3 completes discards and keeps the data (discard=ignore); nvme4-5
# carry the live check's file system, nvme6-7 its twin without the check
"$root/sandbox/vm/run" -q -b "$build" -o "$out" -t "${R0_SANDBOX_TIMEOUT:-900}" \
	--nvme 64M --nvme 64M --nvme 64M --nvme 64M:ignore --sata 64M --sata 64M \
	--nvme 64M --nvme 64M --nvme 64M --nvme 64M \
	"$here/drive-protocols.guest.sh" "$here/../lib.sh" "$here/../r0trim-lib.sh"
expect=$out/results/alloc-expect
[[ -s $expect ]] || { echo "the guest wrote no $expect"; exit 1; }
bad=0
printf '%-10s %12s %14s  %s\n' file size allocated expected
allocated() { echo $(( $(stat -c %b "$1") * $(stat -c %B "$1") )); }
while read -r file how bytes other; do
	f=$out/drives/$file
	alloc=$(allocated "$f")
	ok=1
	case $how in
	max) ((alloc <= bytes)) || ok=0 ;;
	min) ((alloc >= bytes)) || ok=0 ;;
	below)   # "FILE below OTHER BYTES"
		twin=$(allocated "$out/drives/$bytes")
		((alloc + other <= twin)) || ok=0
		how="$how $bytes ($twin) by" bytes=$other ;;
	*) echo "bad expect line: $file $how $bytes"; exit 1 ;;
	esac
	printf '%-10s %12s %14s  %s %s%s\n' "$file" "$(stat -c %s "$f")" "$alloc" "$how" "$bytes" \
		"$( ((ok)) || echo '  <- WRONG')"
	((ok)) || bad=1
done < "$expect"
exit $bad
