#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the host, after the guest: the r0trim JSON the guest tests wrote (030:
# range checks and a raw cycle, 032: a "no" with its reason, 033: file
# system cycles, 037: --live, 038 and 039: --watch) validate against
# tools/schema/r0trim-1.schema.json. Broken copies of a --watch document and
# of another must be refused, so the schema's rules on the modes are known
# to check something.
# Usage: 063-r0trim-json-schema.sh RESULTS_DIR BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
results=$1
schema=$root/tools/schema/r0trim-1.schema.json
check() { /usr/bin/python3 "$here/schema-check.py" "$@"; }
shopt -s nullglob
files=("$results"/*.r0trim.json)
watch=("$results"/watch-*.r0trim.json)
((${#files[@]} >= 3)) || { echo "expected 030's, 032's and 033's r0trim JSON in $results, found ${#files[@]}"; exit 1; }
((${#watch[@]} >= 1)) || { echo "expected 038's and 039's r0trim --watch JSON (watch-*.r0trim.json) in $results"; exit 1; }
check "$schema" "${files[@]}"

other=$(grep -L '"mode":"watch"' "${files[@]}" | head -1)
[[ -n $other ]] || { echo "expected an r0trim JSON of another mode than watch in $results"; exit 1; }
tmp=$(mktemp -d /var/tmp/r0-trim-schema.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# broken NAME FILE PYTHON-EXPRESSION-ON-d: the changed copy must fail
broken() {
	/usr/bin/python3 - "$2" "$tmp/$1" "$3" <<'PY'
import json, sys
src, dst, expr = sys.argv[1:4]
d = json.load(open(src))
exec(expr)
open(dst, "w").write(json.dumps(d) + "\n")
PY
	if check "$schema" "$tmp/$1" > "$tmp/$1.out"; then
		echo "$1: a broken document passed $(basename "$schema")"; exit 1
	fi
	echo "$1: refused as expected: $(head -1 "$tmp/$1.out" | cut -c1-200)"
}
w=${watch[0]}
broken watch-without-watch.json "$w" 'del d["watch"]'
broken watch-with-a-range.json "$w" 'd["ranges"] = [{}]'
broken watch-share-over-1.json "$w" 'd["watch"]["devices"][0]["observed_share"] = 1.5'
broken watch-stopped-alone.json "$w" 'd["watch"]["devices"][0]["stopped_since"] = "2025-01-01T00:00:00Z"; d["watch"]["devices"][0].pop("others_since_bytes", None)'
broken watch-local-time.json "$w" 'd["watch"]["since"] = "2025-01-01 00:00"'
broken watch-pass-not-passing.json "$w" 'd["verdict"] = "PASS"; d["discards_pass"] = False; d["reason"] = "x"'
broken drift-outside-watch.json "$other" 'd["verdict"] = "PASS with DRIFT"; d["discards_pass"] = True; d.pop("reason", None)'
broken no-pattern-seed.json "$other" 'del d["pattern_seed"]'
broken watch-object-elsewhere.json "$other" "d[\"watch\"] = json.load(open(\"$w\"))[\"watch\"]"
