# SPDX-License-Identifier: GPL-2.0-or-later
# r0sweep interrupted and resumed (2 fast members, md and dm, 2 chunks, one
# workload, 2 repeats, short runs): SIGINT while cells are being measured
# ends it with exit 1, a message, no array left and no analysis; a --resume
# with another --region is refused, naming it (saved as the docs' example
# sweep-resume), and changes nothing; --resume then removes a last line a
# crash cut mid-write, measures exactly the missing cells, keeps the
# finished ones as they were and measures none twice, and the file reads
# whole. A region too small for a test is refused before anything is
# written. (A resume of a finished sweep: 040-r0sweep-cells.)
. ./lib.sh
. ./r0sweep-lib.sh

out=$R0_RESULTS/044-r0sweep-resume
mkdir -p "$out"
members=$(r0_members fast 2 size=32) || fail "members"
set -- $members

# SIGINT while cells are being measured, then --resume
r0sweep --yes --output "$out/int.jsonl" --chunks 64K,128K --single-chunks 64K -p cdm3 -w "4K read" -r 2 -t 0.5 \
	--ramp 0 --region 16M "$@" > /tmp/int.out 2>&1 &
pid=$!
n=0
cells() { _c=$(grep -c '"type":"cell"' "$1" 2>/dev/null); echo "${_c:-0}"; }
while [ "$(cells "$out/int.jsonl")" -lt 4 ]; do
	n=$((n + 1))
	[ "$n" -gt 200 ] && { kill "$pid"; fail "the sweep made no progress: $(cat /tmp/int.out)"; }
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
# a crash cuts the next line mid-write: a resume removes it before appending
printf '{"schema":"r0sweep/1","type":"cell","layer":"md","chu' >> "$out/int.jsonl"
cp "$out/int.jsonl" /tmp/int.cut
# a resume with another region is refused, naming it, and changes nothing
expect_status 2 "resume with another --region" r0sweep --yes --output "$out/int.jsonl" --resume --chunks 64K,128K \
	--single-chunks 64K -p cdm3 -w "4K read" -r 2 -t 0.5 --ramp 0 --region 8M "$@"
cat /tmp/expect.out
grep -q "cannot resume: the file (first) and this run (second) differ in region (16.0 MiB vs 8.0 MiB)" /tmp/expect.out ||
	fail "refusal message: $(cat /tmp/expect.out)"
doc_example sweep-resume "cannot resume" "s|$out/int.jsonl|s.jsonl|g"
expect_eq "$(md5sum < "$out/int.jsonl")" "$(md5sum < /tmp/int.cut)" "file untouched by the refused resume"
no_arrays "refused resume"
expect_status 0 "resume the interrupted sweep" r0sweep --yes --output "$out/int.jsonl" --resume --chunks 64K,128K \
	--single-chunks 64K -p cdm3 -w "4K read" -r 2 -t 0.5 --ramp 0 --region 16M "$@"
cat /tmp/expect.out
grep -q "^r0sweep: $((14 - before)) cells measured (the rest were in the file)" /tmp/expect.out ||
	fail "resume did not measure exactly the $((14 - before)) missing cells"
no_arrays "resumed sweep"
grep -q "its last line, cut mid-write, removed" /tmp/expect.out || fail "the cut line was not said removed"
r0report --output-dir "$out/int-report" "$out/int.jsonl" > /tmp/int-report.out 2>&1 ||
	fail "the resumed file does not read whole: $(cat /tmp/int-report.out)"
expect_eq "$(head -n "$before" "$out/int.jsonl" | md5sum)" "$(md5sum < /tmp/int.before)" "finished cells kept as they were"
expect_eq "$(grep -c '"type":"cell"' "$out/int.jsonl")" 14 "cells after the resume"
expect_eq "$(keys "$out/int.jsonl" | sort -u | wc -l)" 14 "distinct cells after the resume (none measured twice)"
# a region too small for a test (cdm3's Seq reads 1M blocks) is refused before the plan: no file, nothing written
sum=$(head -c 1048576 "$1" | md5sum)
expect_status 2 "a 512K region" r0sweep --yes --output "$out/small.jsonl" --chunks 64K -p cdm3 -r 1 --region 512K "$@"
grep -q "r0sweep: --region 512K: Seq.* on $1: " /tmp/expect.out || fail "512K: no reason: $(cat /tmp/expect.out)"
[ -e "$out/small.jsonl" ] && fail "a refused study made its file"
expect_eq "$(head -c 1048576 "$1" | md5sum)" "$sum" "a member under a refused study"
no_arrays "refused region"
r0_remove_members || fail "a member stayed"
exit 0
