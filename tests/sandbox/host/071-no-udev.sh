#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the host: the tools without udev (libdevmapper makes the /dev nodes
# itself, nobody probes new devices): a boot of its own with
# sandbox/vm/run --no-udev runs a few guest tests that build arrays
# and check TRIM through them; the main boot runs everything under udev.
# Usage: 071-no-udev.sh RESULTS_DIR BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$2
out=$root/build/sandbox/check/no-udev
tests=(014-udev-cycles.sh 031-r0trim-dm.sh)
rc=0
"$root/sandbox/vm/run" -q --no-udev -b "$build" -o "$out" -t "${R0_SANDBOX_TIMEOUT:-900}" \
	"$here/../guest-driver.sh" "$(cd "$here/.." && pwd)" -- "${tests[@]}" || rc=$?
# grep on the file itself: under pipefail, `tr | grep -q` failed when grep
# matched and left before tr's second write (SIGPIPE), one CI run in five
grep -q '^sandbox: no udev in this boot' "$out/console.log" ||
	{ echo "the boot ran udev"; exit 1; }
cat "$out/results/summary" 2>/dev/null
for t in "${tests[@]}"; do
	grep -q "^PASS ${t%.sh} " "$out/results/summary" 2>/dev/null || { echo "${t%.sh} did not pass without udev"; rc=1; }
done
exit $rc
