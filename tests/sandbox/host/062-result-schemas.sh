#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the host, after the guest: the result formats r0report reads validate
# against their schemas in tools/schema/ (r0trim/1 is checked elsewhere):
# r0sweep/1 (the stored sweep, the result files of 040-r0sweep-cells and
# 046-r0sweep-adaptive (with its looks and plan), 048's calibration (copies and
# its calibration line), 042's everyday and 059's replay
# studies ("fs" and "replay" cells), and r0predict's
# cells predicted here from the stored sweep), r0scenario/1 (the stored
# scenario and 056's) and r0age-state/1 (the stored steady record, and
# r0bench-1's copy of it must stay equal). A record with a key missing,
# one of the wrong type and one with an unknown key must be refused, so
# the schemas are known to check something.
# Usage: 062-result-schemas.sh RESULTS_DIR BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
results=$1 build=$2
schema=$root/tools/schema data=$root/tests/report/data
check() { /usr/bin/python3 "$here/schema-check.py" "$@"; }
tmp=$(mktemp -d /var/tmp/r0-schemas.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

for f in "$results/040-r0sweep-cells/tiny.jsonl" "$results/046-r0sweep-adaptive/adaptive.jsonl" "$results/raid0-without-trim.jsonl" \
	"$results/048-r0sweep-calibrate/calibrate.jsonl" \
	"$results/042-everyday/everyday.jsonl" "$results/042-everyday/xfs.jsonl" "$results/059-sweep.jsonl"; do
	[[ -s $f ]] || { echo "expected the guest's result file $f"; exit 1; }
done
"$build/bin/r0predict" -m 2,3 --chunks 64K,512K "$data/sample.jsonl" > "$tmp/predicted.jsonl"
# the stored sample is an older file ("schema", which r0kit still reads): checked as written now
sed 's/^{"schema":/{"r0kit_schema":/' "$data/sample.jsonl" > "$tmp/sample.jsonl"
check "$schema/r0sweep-1.schema.json" "$tmp/sample.jsonl" "$results/040-r0sweep-cells/tiny.jsonl" \
	"$results/046-r0sweep-adaptive/adaptive.jsonl" "$results/048-r0sweep-calibrate/calibrate.jsonl" \
	"$tmp/predicted.jsonl" "$results/042-everyday/everyday.jsonl" \
	"$results/042-everyday/xfs.jsonl" "$results/059-sweep.jsonl"
check "$schema/r0scenario-1.schema.json" "$data/scenario.jsonl" "$results/raid0-without-trim.jsonl"
check "$schema/r0age-state-1.schema.json" "$data/age-steady.json"

# one schema for the state record: r0bench-1 embeds the same definition
/usr/bin/python3 - "$schema/r0bench-1.schema.json" "$schema/r0age-state-1.schema.json" <<'PY'
import json, sys
bench, age = (json.load(open(p)) for p in sys.argv[1:3])
own = {k: v for k, v in age.items() if not k.startswith("$") and k != "title"}
if bench["$defs"]["state_record"] != own or bench["$defs"]["count"] != age["$defs"]["count"]:
    sys.exit("r0bench-1.schema.json $defs/state_record differs from r0age-state-1.schema.json")
print("r0bench-1 state_record: the same as r0age-state-1")
PY

# the schemas refuse what they should: each broken copy must fail
broken() {   # broken NAME SCHEMA FILE PYTHON-EXPRESSION-ON-d
	/usr/bin/python3 - "$3" "$tmp/$1" "$4" <<'PY'
import json, sys
src, dst, expr = sys.argv[1:4]
d = json.loads(open(src).readline()) if src.endswith(".jsonl") else json.load(open(src))
exec(expr)
open(dst, "w").write(json.dumps(d) + "\n")
PY
	if check "$2" "$tmp/$1" > "$tmp/$1.out"; then
		echo "$1: a broken record passed $(basename "$2")"; exit 1
	fi
	echo "$1: refused as expected: $(head -1 "$tmp/$1.out")"
}
broken no-lat.jsonl "$schema/r0sweep-1.schema.json" "$tmp/sample.jsonl" 'del d["lat_ns"]'
broken raw-chunk.jsonl "$schema/r0sweep-1.schema.json" "$tmp/sample.jsonl" 'd["chunk_bytes"] = 65536'
broken minus-one.jsonl "$schema/r0sweep-1.schema.json" "$tmp/predicted.jsonl" 'd["ramp_s"] = -1'
broken old-key.jsonl "$schema/r0sweep-1.schema.json" "$data/sample.jsonl" 'pass'
broken trim-str.jsonl "$schema/r0scenario-1.schema.json" "$data/scenario.jsonl" 'd["trim"] = "yes"'
broken extra-key.jsonl "$schema/r0scenario-1.schema.json" "$data/scenario.jsonl" 'd["waf"] = 1.0'
broken no-rounds.json "$schema/r0age-state-1.schema.json" "$data/age-steady.json" 'del d["steady"]["round_iops"]'
