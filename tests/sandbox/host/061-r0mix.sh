#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the host, after the guest: the mix files 057-r0profile wrote validate
# against tools/schema/r0mix-1.schema.json, and r0report weighs the stored
# sweep result (tests/report/data/sample.jsonl) by each of them, printing
# the mix's description before the verdict.
# Usage: 061-r0mix.sh RESULTS_DIR BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
results=$1 build=$2
tmp=$(mktemp -d /var/tmp/r0-mix.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
shopt -s nullglob
mixes=("$results"/*.r0mix.json)
((${#mixes[@]} >= 3)) || { echo "expected 057-r0profile's mix files in $results, found ${#mixes[@]}"; exit 1; }
/usr/bin/python3 "$here/schema-check.py" "$root/tools/schema/r0mix-1.schema.json" "${mixes[@]}"
for m in "${mixes[@]}"; do
	"$build/bin/r0report" --output-dir "$tmp" --mix "$m" "$root/tests/report/data/sample.jsonl" > "$tmp/out"
	cat "$tmp/out"
	head -1 "$tmp/out" | grep -q "^For the workload measured on " ||
		{ echo "$m: no description before the verdict"; exit 1; }
	sed -n 2p "$tmp/out" | grep -q " under the measured mix, " ||
		{ echo "$m: the verdict is not weighed by the measured mix"; exit 1; }
done
