# SPDX-License-Identifier: GPL-2.0-or-later
# r0sweep's default, adaptive study (2 fast members, 2 chunks, two
# workloads, short runs, a budget of 3 minutes): 3 repeats of every cell of
# the first targets (raw, md of 2 at each chunk), more only where a
# comparison is undecided, dm of 2 only at the chunks left in the running,
# then the 1-member stripes; every cell records the looks and its pass, the
# analysis line says how it ended, a target it names as not measured is not
# in the file; r0report's page of it says how the study planned itself.
# With a budget shorter than its first look (8 s) it stops, says the budget
# ended it, still gives its analysis (recorded as stopped by the budget)
# and leaves no array.
. ./lib.sh
. ./r0sweep-lib.sh

out=$R0_RESULTS/046-r0sweep-adaptive
mkdir -p "$out"
members=$(r0_members fast 2 size=32) || fail "members"
set -- $members

expect_status 0 "adaptive study" r0sweep --yes --output "$out/adaptive.jsonl" --chunks 64K,1M \
	-p cdm3 -w "4K read,Seq read" -t 0.3 --ramp 0 --region 16M --budget 3m "$@"
cat /tmp/expect.out
no_arrays "adaptive study"
grep -q "^r0sweep: first 3 targets x 2 workloads x 3 repeats = 18 cells" /tmp/expect.out ||
	fail "the adaptive study's first look"
grep -q "^Plan: repeats where a comparison was undecided, looking at 3, 5 and 8 repeats; " /tmp/expect.out ||
	fail "no plan summary"
n=$(grep -c '"type":"cell"' "$out/adaptive.jsonl")
[ "$n" -ge 18 ] || fail "$n cells: fewer than the first look's 18"
expect_eq "$(grep '"type":"cell"' "$out/adaptive.jsonl" | grep -vc '"looks":3')" 0 "cells without their looks"
# every cell measured at least the first look; a cell measured again as a new
# target's partner (in the same passes) or for a run judged far may have more
# repeats than a look, but every repeat of a cell carries its own pass
for t in "raw 0 1" "md 65536 1" "dm 65536 1" "md 65536 2" "md 1048576 2" "dm 65536 2" "dm 1048576 2"; do
	for w in "4K randread 1" "Seq read 1"; do
		k=$(keys "$out/adaptive.jsonl" | grep -c "^$t $w ")
		case "$t:$k" in
		*:0) case $t in "raw 0 1"|"md 65536 2"|"md 1048576 2") fail "$t $w: not measured" ;; esac ;;
		*:1|*:2) fail "$t $w: $k repeats, fewer than the first look's 3" ;;
		esac
	done
done
expect_eq "$(grep '"type":"cell"' "$out/adaptive.jsonl" | grep -vc '"pass":')" 0 "cells without their pass"
grep '"type":"analysis"' "$out/adaptive.jsonl" | grep -qE '"plan":\{"adaptive":true,"looks":\[3,5,8\],"budget_s":180(\.0)?,"stopped":"(decided|last-look|budget)"' ||
	fail "the analysis line's plan: $(grep '"type":"analysis"' "$out/adaptive.jsonl" | tr ',' '\n' | grep -A8 plan)"
# a target dropped is named and absent; one measured is in the file
if grep -q "^Not measured: " /tmp/expect.out; then
	for t in "dm 2 x 64K" "dm 2 x 1024K"; do
		if grep "^Not measured: " /tmp/expect.out | grep -q "$t"; then
			set -- $t
			c=$(( ${4%K} * 1024 ))
			keys "$out/adaptive.jsonl" | grep -q "^dm $c 2 " && fail "$t is named as not measured but is in the file"
		fi
	done
	set -- $members
fi

# an adaptive study's report says how it planned itself
expect_status 0 "r0report of the adaptive study" r0report --output-dir /tmp/rep-ad "$out/adaptive.jsonl"
grep -q "^- Plan: adaptive: [0-9]* cells, repeated where a comparison was undecided; " /tmp/rep-ad/report.md ||
	fail "the adaptive study's report has no plan line"
grep -qE "^- Repeats: 3 to [0-9]+ per cell, more where a comparison was undecided" /tmp/rep-ad/report.md ||
	fail "the adaptive study's repeats: $(grep Repeats /tmp/rep-ad/report.md)"

# a budget shorter than the first look: it stops, says so, and still gives its analysis
expect_status 0 "adaptive study past its budget" r0sweep --yes --output "$out/short.jsonl" --chunks 64K,1M \
	-p cdm3 -w "4K read,Seq read" -t 0.3 --ramp 0 --region 16M --budget 8s "$@"
grep -q "the budget (8 s) ended it" /tmp/expect.out || fail "the budget's end not said: $(cat /tmp/expect.out)"
grep '"type":"analysis"' "$out/short.jsonl" | grep -q '"stopped":"budget"' || fail "the budget's end not recorded"
no_arrays "adaptive study past its budget"
r0_remove_members || fail "a member stayed"
exit 0
