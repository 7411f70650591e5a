# SPDX-License-Identifier: GPL-2.0-or-later
# r0sweep's adaptive study with a budget shorter than its first look (2
# fast members, 2 chunks, two workloads, short runs, 8 s): it stops, says
# the budget ended it, still gives its analysis (recorded as stopped by the
# budget) and leaves no array. (The adaptive study in its budget:
# 046-r0sweep-adaptive.)
. ./lib.sh

members=$(r0_members fast 2 size=32) || fail "members"
set -- $members

no_arrays() {
	left=$(ls /sys/block | grep -E '^(md|dm-)' || true)
	[ -z "$left" ] || fail "$1: arrays left behind: $left"
	note "ok: $1: no array left"
}

out=$R0_RESULTS/047-r0sweep-budget
mkdir -p "$out"
expect_status 0 "adaptive study past its budget" r0sweep --yes --output "$out/short.jsonl" --chunks 64K,1M \
	-p cdm3 -w "4K read,Seq read" -t 0.3 --ramp 0 --region 16M --budget 8s "$@"
grep -q "the budget (8 s) ended it" /tmp/expect.out || fail "the budget's end not said: $(cat /tmp/expect.out)"
grep '"type":"analysis"' "$out/short.jsonl" | grep -q '"stopped":"budget"' || fail "the budget's end not recorded"
no_arrays "adaptive study past its budget"
r0_remove_members || fail "a member stayed"
exit 0
