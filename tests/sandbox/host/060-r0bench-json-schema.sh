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
# a mixed test: reads and writes timed apart beside the combined latency
"$build/bin/r0bench" --json --rw randrw --rwmix-read 70 --bs 4K --qd 4 -t 0.3 "$tmp/target.img" > "$tmp/mixed.r0bench.json"
/usr/bin/python3 - "$tmp/mixed.r0bench.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
r, w, a = t["read_latency_ns"], t["write_latency_ns"], t["latency_ns"]
assert r and w and r["count"] > 0 and w["count"] > 0, "a mixed test has both kinds' latency"
assert r["count"] + w["count"] == a["count"], (r["count"], w["count"], a["count"])
PY
# a replay of reads and writes (r0tracegen is one of the sandbox's helpers)
if [[ -x $build/tests/bin/r0tracegen ]]; then
	printf '%s\n' "0 queue write 0 4096" "10 queue read 8 4096" "20 queue write 64 8192" "30 queue read 0 4096" |
		"$build/tests/bin/r0tracegen" "$tmp/mixed.r0trace" 131072
	"$build/bin/r0bench" --json --replay "$tmp/mixed.r0trace" "$tmp/target.img" > "$tmp/replay.r0bench.json"
	/usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["replay"]; assert r["read_latency_ns"] and r["write_latency_ns"]' "$tmp/replay.r0bench.json"
fi
shopt -s nullglob
guest=("$results"/*.r0bench.json)
((${#guest[@]} >= 3)) || { echo "expected the guest's r0bench JSON files in $results, found ${#guest[@]}"; exit 1; }
/usr/bin/python3 "$here/schema-check.py" "$root/tools/schema/r0bench-1.schema.json" "${guest[@]}" "$tmp"/*.json
