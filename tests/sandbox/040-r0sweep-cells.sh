# SPDX-License-Identifier: GPL-2.0-or-later
# r0sweep's result file: a tiny sweep (2 fast members filled by r0age, md
# and dm, 2 chunks, one workload, 2 repeats, short runs) completes, leaves
# no array, and every line of its result file parses and holds the cells it
# should, each with the study's parameters (region, runtime, ramp, the
# members' state from their r0age records, preconditioning, devices) and
# its place in its repeat's order; a second run on the file is refused
# without --resume, and --resume on the finished file measures nothing.
# (Interrupted and resumed: 044; the adaptive study and its budget: 046;
# r0report's pages of a sweep: 047; the list options' bounds: 043.)
. ./lib.sh
. ./r0sweep-lib.sh

out=$R0_RESULTS/040-r0sweep-cells
mkdir -p "$out"
statedir=/run/r0kit/state
# the members' state records, named now: at exit the members are gone
records=""
trap 'rm -f $records' EXIT
members=$(r0_members fast 2 size=32) || fail "members"
set -- $members
for m in "$@"; do records="$records $statedir/$(r0_sysfs "$m" dev).json"; done
rm -f $records
# both members filled by r0age: the sweep takes their state from its records
for m in "$@"; do r0age --yes fill 10 "$m" > /dev/null 2>&1 || fail "r0age fill 10 $m"; done

# the tiny sweep: raw + {md,dm} x (1 member at 64K, 2 members at 64K and 128K) = 7 targets x 2 repeats
expect_status 0 "tiny sweep" r0sweep --yes --output "$out/tiny.jsonl" --chunks 64K,128K --single-chunks 64K \
	-p cdm3 -w "4K read" -r 2 -t 0.3 --ramp 0 --region 16M --describe "2 x null_blk fast" "$@"
cat /tmp/expect.out
no_arrays "tiny sweep"
expect_eq "$(grep -c '"type":"cell"' "$out/tiny.jsonl")" 14 "cells in the result file"
expect_eq "$(keys "$out/tiny.jsonl" | sort -u | wc -l)" 14 "distinct cells"
expect_eq "$(grep -c '"type":"analysis"' "$out/tiny.jsonl")" 1 "analysis records"
expect_eq "$(wc -l < "$out/tiny.jsonl")" 15 "lines in all"
for t in "raw 0 1" "md 65536 1" "md 65536 2" "md 131072 2" "dm 65536 1" "dm 65536 2" "dm 131072 2"; do
	expect_eq "$(keys "$out/tiny.jsonl" | grep -c "^$t 4K randread 1 [12]$")" 2 "repeats of $t"
done
grep -q '"errors":0,' "$out/tiny.jsonl" || fail "no error count"
expect_eq "$(grep '"type":"cell"' "$out/tiny.jsonl" | grep -c '"state":"fill"')" 14 "cells labelled with the r0age state"
grep '"type":"cell"' "$out/tiny.jsonl" | grep -qv '"errors":0,' && fail "I/O errors in the tiny sweep"
grep -q "^RAID0 of these 2 drives: indicative: 2 repeats, noise unknown. " /tmp/expect.out ||
	fail "no indicative verdict printed for 2 repeats"
grep -q "^r0sweep: preconditioning: writing the first 16 MiB of each member once" /tmp/expect.out ||
	fail "no preconditioning"
grep -q '"devices":"/dev/r0m0 (32.0 MiB' "$out/tiny.jsonl" || fail "device description"
# every cell carries the study's parameters
for kv in '"describe":"2 x null_blk fast"' '"region_bytes":16777216' '"test_runtime_s":0.3,' '"ramp_s":0,' \
	'"precondition":"seq-fill"' '"state":"fill"'; do
	expect_eq "$(grep '"type":"cell"' "$out/tiny.jsonl" | grep -c "$kv")" 14 "cells with $kv"
done
# each repeat visits the 7 targets in an order of its own: positions 1..7 once per repeat
for r in 1 2; do
	expect_eq "$(grep '"type":"cell"' "$out/tiny.jsonl" | grep "\"repeat\":$r," |
		sed -n 's/.*"order_pos":\([0-9]*\).*/\1/p' | sort -n | tr '\n' ' ')" "1 2 3 4 5 6 7 " "order of repeat $r"
done
pos() { grep '"type":"cell"' "$out/tiny.jsonl" | grep "\"repeat\":$1," | sed -n 's/.*"layer":"\([a-z]*\)","chunk_bytes":\([0-9]*\),"members":\([0-9]*\).*"order_pos":\([0-9]*\).*/\1 \2 \3 \4/p' | sort; }
[ "$(pos 1)" != "$(pos 2)" ] || fail "both repeats visited the targets in the same order"
# a second run on the same file without --resume is refused
expect_status 2 "sweep on a non-empty file without --resume" r0sweep --yes --output "$out/tiny.jsonl" "$@"
grep -q "exists and is not empty" /tmp/expect.out || fail "refusal message: $(cat /tmp/expect.out)"
# --resume on a finished file measures nothing
expect_status 0 "resume a finished sweep" r0sweep --yes --output "$out/tiny.jsonl" --resume --chunks 64K,128K \
	--single-chunks 64K -p cdm3 -w "4K read" -r 2 -t 0.3 --ramp 0 --region 16M "$@"
grep -q "0 cells measured" /tmp/expect.out || fail "resume of a finished sweep: $(cat /tmp/expect.out)"
expect_eq "$(grep -c '"type":"cell"' "$out/tiny.jsonl")" 14 "cells after a resume with nothing to do"
r0_remove_members || fail "a member stayed"
exit 0
