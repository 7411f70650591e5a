# SPDX-License-Identifier: GPL-2.0-or-later
# r0sweep: a tiny sweep (2 fast members, md and dm, 2 chunks, one workload,
# short runs) completes, every line of its result file parses and holds the
# cells it should, each with the study's parameters (region, runtime, ramp,
# state, preconditioning, devices) and its place in its repeat's order; a
# sweep interrupted by SIGINT leaves no array behind, a --resume with
# another --region is refused, and --resume finishes it without measuring
# a finished cell again; r0report turns the results into report.md and
# report.html (copied back to the host, where tests/report/check-html
# renders them in a browser) and refuses to pool files of two states.
. ./lib.sh

out=$R0_RESULTS/040-r0sweep
mkdir -p "$out"
members=$(r0_members fast 2 size=32) || fail "members"
set -- $members
# both members filled by r0age: the sweep takes their state from its records
for m in "$@"; do r0age --yes fill 10 "$m" > /dev/null 2>&1 || fail "r0age fill 10 $m"; done

# the key of each cell line: target, workload, repeat
keys() {
	sed -n 's/.*"layer":"\([a-z]*\)","chunk_bytes":\([0-9]*\),"members":\([0-9]*\),"workload":"\([^"]*\)","rw":"\([a-z]*\)".*"queue_depth":\([0-9]*\),"jobs":[0-9]*,"repeat":\([0-9]*\),.*/\1 \2 \3 \4 \5 \6 \7/p' "$1"
}

no_arrays() {
	left=$(ls /sys/block | grep -E '^(md|dm-)' || true)
	[ -z "$left" ] || fail "$1: arrays left behind: $left"
	note "ok: $1: no array left"
}

# 0. the list options hold a bounded number of items: the last one allowed
# passes the parser (then the missing devices stop the sweep), one more is a
# usage error: --preset 7, --qd 8, --chunks 16 (17 distinct sizes exist)
list() { _i=0 _l=""; for _v in $2; do [ "$_i" -lt "$1" ] || break; _l="$_l${_l:+,}$_v"; _i=$((_i + 1)); done; echo "$_l"; }
presets="cdm cdm3 cdm-nvme cdm cdm3 cdm-nvme cdm cdm3 cdm-nvme"
qds="1 2 3 4 5 6 7 8 9 10"
chunks="4K 8K 16K 32K 64K 128K 256K 512K 1M 2M 4M 8M 16M 32M 64M 128M 256M 512M"
for opt in "-p 7 presets" "--qd 8 qds" "--chunks 16 chunks"; do
	set -- $opt
	eval "items=\$$3"
	expect_status 2 "$1 with $2 items" r0sweep --yes --output /tmp/bounds.jsonl "$1" "$(list "$2" "$items")" /dev/nosuch0 /dev/nosuch1
	grep -q "/dev/nosuch0: no such device" /tmp/expect.out || fail "$1 with $2 items: $(cat /tmp/expect.out)"
	expect_status 2 "$1 with $(($2 + 1)) items, one too many" \
		r0sweep --yes --output /tmp/bounds.jsonl "$1" "$(list $(($2 + 1)) "$items")" /dev/nosuch0 /dev/nosuch1
done
set -- $members

# 1. the tiny sweep: raw + {md,dm} x (1 member at 64K, 2 members at 64K and 128K) = 7 targets x 2 repeats
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

# 2. interrupted: SIGINT while cells are being measured, then --resume
r0sweep --yes --output "$out/int.jsonl" --chunks 64K,128K --single-chunks 64K -p cdm3 -w "4K read" -r 2 -t 0.5 \
	--ramp 0 --region 16M "$@" > /tmp/int.out 2>&1 &
pid=$!
n=0
cells() { _c=$(grep -c '"type":"cell"' "$1" 2>/dev/null); echo "${_c:-0}"; }
while [ "$(cells "$out/int.jsonl")" -lt 4 ]; do
	n=$((n + 1))
	[ "$n" -gt 200 ] && { kill "$pid"; fail "the sweep made no progress"; }
	sleep 0.1
done
kill -INT "$pid"
wait "$pid"
rc=$?
cat /tmp/int.out
expect_eq "$rc" 1 "exit status of the interrupted sweep"
grep -q "interrupted by a signal" /tmp/int.out || fail "no interruption message"
no_arrays "interrupted sweep"
before=$(grep -c '"type":"cell"' "$out/int.jsonl")
[ "$before" -ge 4 ] && [ "$before" -lt 14 ] || fail "$before cells after the interruption"
grep -q '"type":"analysis"' "$out/int.jsonl" && fail "an interrupted sweep wrote an analysis"
cp "$out/int.jsonl" /tmp/int.before
# a resume with another region is refused, naming it, and changes nothing
expect_status 2 "resume with another --region" r0sweep --yes --output "$out/int.jsonl" --resume --chunks 64K,128K \
	--single-chunks 64K -p cdm3 -w "4K read" -r 2 -t 0.5 --ramp 0 --region 8M "$@"
cat /tmp/expect.out
grep -q "cannot resume: the file (first) and this run (second) differ in region (16.0 MiB vs 8.0 MiB)" /tmp/expect.out ||
	fail "refusal message: $(cat /tmp/expect.out)"
doc_example sweep-resume "cannot resume" "s|$out/int.jsonl|s.jsonl|g"
expect_eq "$(md5sum < "$out/int.jsonl")" "$(md5sum < /tmp/int.before)" "file untouched by the refused resume"
no_arrays "refused resume"
expect_status 0 "resume the interrupted sweep" r0sweep --yes --output "$out/int.jsonl" --resume --chunks 64K,128K \
	--single-chunks 64K -p cdm3 -w "4K read" -r 2 -t 0.5 --ramp 0 --region 16M "$@"
cat /tmp/expect.out
grep -q "^r0sweep: $((14 - before)) cells measured (the rest were in the file)" /tmp/expect.out ||
	fail "resume did not measure exactly the $((14 - before)) missing cells"
no_arrays "resumed sweep"
expect_eq "$(head -n "$before" "$out/int.jsonl" | md5sum)" "$(md5sum < /tmp/int.before)" "finished cells kept as they were"
expect_eq "$(grep -c '"type":"cell"' "$out/int.jsonl")" 14 "cells after the resume"
expect_eq "$(keys "$out/int.jsonl" | sort -u | wc -l)" 14 "distinct cells after the resume (none measured twice)"

# 2b. the default, adaptive study: 3 repeats of every cell of the first targets
# (raw, md of 2 at each chunk), more only where a comparison is undecided,
# dm of 2 only at the chunks left in the running, then the 1-member stripes;
# every cell records the looks; the analysis line says how it ended
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
# target's partner (in the same passes) or for a run set aside may have more
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
# a budget shorter than the first look: it stops, says so, and still gives its analysis
expect_status 0 "adaptive study past its budget" r0sweep --yes --output "$out/short.jsonl" --chunks 64K,1M \
	-p cdm3 -w "4K read,Seq read" -t 0.3 --ramp 0 --region 16M --budget 8s "$@"
grep -q "the budget (8 s) ended it" /tmp/expect.out || fail "the budget's end not said: $(cat /tmp/expect.out)"
grep '"type":"analysis"' "$out/short.jsonl" | grep -q '"stopped":"budget"' || fail "the budget's end not recorded"
no_arrays "adaptive study past its budget"

# 3. r0report on the results: Markdown and one HTML page
expect_status 0 "r0report" r0report --output-dir "$out/report" "$out/tiny.jsonl"
[ -s "$out/report/report.md" ] && [ -s "$out/report/report.html" ] || fail "report files missing"
grep -q "^RAID0 of these 2 drives: " "$out/report/report.md" || fail "no verdict in report.md"
grep -q "^- Method: Each comparison is the ratio of the two sides' mean bytes/s" "$out/report/report.md" ||
	fail "report.md does not state the method"
grep -q "<svg" "$out/report/report.html" || fail "no SVG in report.html"
grep -qiE 'src="http|href="http|@import|<script' "$out/report/report.html" && fail "report.html is not self-contained"
expect_status 2 "r0report on a file that is not a result file" r0report --output-dir /tmp/rep /etc/passwd
# an adaptive study's report says how it planned itself
expect_status 0 "r0report of the adaptive study" r0report --output-dir /tmp/rep-ad "$out/adaptive.jsonl"
grep -q "^- Plan: adaptive: [0-9]* cells, repeated where a comparison was undecided; " /tmp/rep-ad/report.md ||
	fail "the adaptive study's report has no plan line"
grep -qE "^- Repeats: 3 to [0-9]+ per cell, more where a comparison was undecided" /tmp/rep-ad/report.md ||
	fail "the adaptive study's repeats: $(grep Repeats /tmp/rep-ad/report.md)"
# two files of different states: refused, naming the state, not pooled into one report
sed 's/"state":"fill"/"state":"used"/' "$out/tiny.jsonl" > /tmp/used.jsonl
expect_status 2 "r0report on two states" r0report --output-dir /tmp/rep2 "$out/tiny.jsonl" /tmp/used.jsonl
cat /tmp/expect.out
grep -q "/tmp/used.jsonl: another study than .*tiny.jsonl, another state (fill vs used); not pooled" /tmp/expect.out ||
	fail "r0report's refusal: $(cat /tmp/expect.out)"
[ -e /tmp/rep2/report.md ] && fail "a report of two states was written"
r0_remove_members || fail "a member stayed"
exit 0
