# SPDX-License-Identifier: GPL-2.0-or-later
# r0report on a real sweep's results (2 fast members, raw, md and dm at
# 64K, one workload, 2 repeats, short runs, labelled state "fill"):
# report.md with the verdict and the method, and one self-contained
# report.html with its charts (copied back to the host, where
# host/041-r0report-browser.sh renders it in a browser); a file that is no
# result file is refused, and so are files of two states, naming the
# state, not pooled into one report. (The sweep's result file itself:
# 040-r0sweep-cells; the adaptive study's report: 046.)
. ./lib.sh

out=$R0_RESULTS/047-r0report-sweep
mkdir -p "$out"
members=$(r0_members fast 2 size=32) || fail "members"
set -- $members
r0sweep --yes --output "$out/sweep.jsonl" --chunks 64K --single-chunks 64K -p cdm3 -w "4K read" -r 2 -t 0.3 \
	--ramp 0 --region 16M --state fill --describe "2 x null_blk fast" "$@" > /tmp/sweep.out 2>&1 ||
	{ cat /tmp/sweep.out; fail "the sweep"; }
grep "cells measured" /tmp/sweep.out
r0_remove_members || fail "a member stayed"

# Markdown and one HTML page
expect_status 0 "r0report" r0report --output-dir "$out/report" "$out/sweep.jsonl"
[ -s "$out/report/report.md" ] && [ -s "$out/report/report.html" ] || fail "report files missing"
grep -q "^RAID0 of these 2 drives: " "$out/report/report.md" || fail "no verdict in report.md"
grep -q "^- Method: Each comparison is the ratio of the two sides' mean bytes/s" "$out/report/report.md" ||
	fail "report.md does not state the method"
grep -q "<svg" "$out/report/report.html" || fail "no SVG in report.html"
grep -qiE 'src="http|href="http|@import|<script' "$out/report/report.html" && fail "report.html is not self-contained"
expect_status 2 "r0report on a file that is not a result file" r0report --output-dir /tmp/rep /etc/passwd
# two files of different states: refused, naming the state, not pooled into one report
sed 's/"state":"fill"/"state":"used"/' "$out/sweep.jsonl" > /tmp/used.jsonl
expect_status 2 "r0report on two states" r0report --output-dir /tmp/rep2 "$out/sweep.jsonl" /tmp/used.jsonl
cat /tmp/expect.out
grep -q "/tmp/used.jsonl: another study than .*sweep.jsonl, another state (fill vs used); not pooled" /tmp/expect.out ||
	fail "r0report's refusal: $(cat /tmp/expect.out)"
[ -e /tmp/rep2/report.md ] && fail "a report of two states was written"
exit 0
