#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the host: the Debian package (tests/dist/check-deb: dpkg-buildpackage,
# its contents, lintian) extracted with dpkg-deb -x, and a guest test run
# in a boot of its own with the tools as the package installs them: the
# guest's r0kit binaries are the package's usr/bin, built with Debian's
# hardening flags, not the build folder's. 010-r0build-geometry writes
# through md and dm arrays and reads the members back at the offsets the
# geometry predicts.
# Usage: 072-deb-in-guest.sh RESULTS_DIR BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$(cd "$2" && pwd)
out=$root/build/sandbox/check/deb
tests=(010-r0build-geometry.sh)
rm -rf "$out"; mkdir -p "$out/debs" "$out/root" "$out/build/bin" "$out/build/sandbox"
# one build job: the main guest runs on the other CPU (run-all's lanes)
R0_DEB_JOBS=1 "$root/tests/dist/check-deb" --keep "$out/debs"
deb=$(ls "$out"/debs/r0kit_*.deb)
dpkg-deb -x "$deb" "$out/root"
# the guest's build folder: the package's tools, the build's guest helpers
n=0
for t in "$build"/bin/*; do
	b=$(basename "$t")
	[[ -x $out/root/usr/bin/$b ]] || { echo "the package has no usr/bin/$b"; exit 1; }
	cp "$out/root/usr/bin/$b" "$out/build/bin/"
	n=$((n + 1))
done
cmp -s "$out/build/bin/r0build" "$build/bin/r0build" && { echo "the package's r0build is the build folder's"; exit 1; }
cp -r "$build/sandbox/bin" "$out/build/sandbox/"
echo "072: $n tools from $(basename "$deb") into the guest"
rc=0
"$root/sandbox/vm/run" -q -b "$out/build" -o "$out/guest" -t "${R0_SANDBOX_TIMEOUT:-900}" \
	"$here/../guest-driver.sh" "$(cd "$here/.." && pwd)" -- "${tests[@]}" || rc=$?
cat "$out/guest/results/summary" 2>/dev/null
for t in "${tests[@]}"; do
	grep -q "^PASS ${t%.sh} " "$out/guest/results/summary" 2>/dev/null ||
		{ echo "${t%.sh} did not pass with the package's tools"; cat "$out/guest/results/${t%.sh}.log" 2>/dev/null; rc=1; }
done
exit $rc
