#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the host, after the guest: every r0bench JSON the guest tests wrote
# (block devices, errors, presets) and a preset run on a regular file here
# validate against tools/schema/r0bench-1.schema.json.
# Usage: 060-r0bench-json-schema.sh RESULTS_DIR BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
results=$1 build=$2
tmp=$(mktemp -d /var/tmp/r0-schema.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
truncate -s 64M "$tmp/target.img"
"$build/bin/r0bench" --json --preset cdm3 -t 0.2 --passes 2 --region 32M "$tmp/target.img" > "$tmp/preset.r0bench.json"
"$build/bin/r0bench" --json --rw randwrite --bs 8K --verify "$tmp/target.img" > "$tmp/verify.r0bench.json"
shopt -s nullglob
guest=("$results"/*.r0bench.json)
((${#guest[@]} >= 3)) || { echo "expected the guest's r0bench JSON files in $results, found ${#guest[@]}"; exit 1; }
/usr/bin/python3 "$here/schema-check.py" "$root/tools/schema/r0bench-1.schema.json" "${guest[@]}" "$tmp"/*.json
