#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On the host: the demo survives a guest death. A quick demo (recipes/demo
# --quick) whose QEMU is killed after a few cells must resume in a fresh
# boot, say so on the terminal, and still end in the full report, with every
# cell of the study exactly once in sweep.jsonl.
# Usage: 080-demo-resume.sh RESULTS_DIR BUILD_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$2
tmp=$(mktemp -d /var/tmp/r0-demo-resume.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [[ -f $tmp/demo.log ]] && tail -30 "$tmp/demo.log"; exit 1; }

"$root/recipes/demo" --quick --build "$build" --out "$tmp/out" > "$tmp/demo.log" 2>&1 &
demo=$!
# kill the VM once 5 cells have streamed to the host
stream="$tmp/out/sandbox/stream.log"
for _ in $(seq 1200); do
	[[ -f $stream ]] && (($(grep -c '"type":"cell"' "$stream") >= 5)) && break
	kill -0 "$demo" 2>/dev/null || break
	sleep 0.25
done
killed=$(grep -c '"type":"cell"' "$stream" 2>/dev/null)
pkill -KILL -f "file:$tmp/out/sandbox/console.log" || fail "no QEMU of the demo to kill"
echo "killed the guest after $killed cells had streamed"
wait "$demo"
rc=$?
((rc == 0)) || fail "the demo exited $rc after its guest was killed"
grep -E '^demo: the sandbox guest died at cell [0-9]+ of [0-9]+ \(vm-died: .*\); resuming in a fresh boot$' "$tmp/demo.log" ||
	fail "the demo did not say that it resumed"
grep -q '^demo: guest deaths: 1; resumed in a fresh boot 1 time' "$tmp/demo.log" || fail "no death count"
[[ -s $tmp/out/report.html && -s $tmp/out/report.md ]] || fail "no report"
total=$(tr -d '\r' < "$tmp/out/sandbox/console.log" | sed -n 's/.* = \([0-9]*\) cells.*/\1/p' | tail -1)
cells=$(grep -c '"type":"cell"' "$tmp/out/sweep.jsonl")
uniq=$(python3 -c '
import json, sys
keys = set()
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "cell":
        keys.add((r["layer"], r["chunk_bytes"], r["members"], r["workload"], r["rw"], r["repeat"]))
print(len(keys))' "$tmp/out/sweep.jsonl")
echo "study: $total cells; sweep.jsonl: $cells cells, $uniq distinct"
[[ -n $total && $cells == "$total" && $uniq == "$total" ]] || fail "the resumed study does not hold every cell exactly once"
grep -q '"type":"analysis"' "$tmp/out/sweep.jsonl" || fail "no analysis in sweep.jsonl"
