# SPDX-License-Identifier: GPL-2.0-or-later
# r0sweep -p everyday on the demo's drive profile (sata-real: a SATA SSD at
# 1/64 of its rates): the first member alone and md raid0 of 1 and 3 at 64K,
# ext4 made over a 32M region on each, the large copy, the application
# start and the start during a copy, 2 repeats (the less disturbed of each
# pair is compared; when a comparison misses, both targets run once more
# and the shortest of three is judged; the study with intervals is
# recipes/studies/everyday.sh). What the review found must
# show: the copy scales with the members, the start does not (one page at a
# time), and a start behind a copy waits (the queueing). Every cell is an
# "fs" cell with its seconds; the file system stayed inside the region (a
# mark just past it is intact); nothing is left mounted or built, also after
# a SIGINT in the middle of a scenario, a SIGKILL there cleared by r0build
# remove --all, another cleared by r0sweep --resume, and no file system
# signature stays
# on a member. Bad input changes nothing: everyday with --read-only, a
# region below 32M, xfs on less than 300M. everyday-xfs runs too, on md
# raid0 of two fast members with a 300M region (xfs's least), once: its
# cells and no signature left, not its figures (CPU-bound under TCG).
. ./lib.sh

trap r0_cleanup EXIT
out=$R0_RESULTS/042-everyday
mkdir -p "$out"
members=$(r0_members sata-real 3 size=48) || fail "members"
set -- $members
wl="ext4 copy,ext4 app start,ext4 start in copy"

# bad input first: refused with a reason, nothing written (the mark below comes after)
expect_status 2 "everyday with --read-only" r0sweep --output "$out/ro.jsonl" -p everyday --read-only --yes "$@"
grep -q "make a file system" /tmp/expect.out || fail "read-only: no reason: $(cat /tmp/expect.out)"
expect_status 2 "a 16M region" r0sweep --output "$out/small.jsonl" -p everyday --region 16M --yes "$@"
grep -q "32M at least" /tmp/expect.out || fail "16M: no reason: $(cat /tmp/expect.out)"
expect_status 2 "xfs on 32M" r0sweep --output "$out/xfs.jsonl" -p everyday-xfs --region 32M --yes "$@"
grep -q "300M at least for mkfs.xfs" /tmp/expect.out || fail "xfs: no reason: $(cat /tmp/expect.out)"
[ ! -s "$out/ro.jsonl" ] && [ ! -s "$out/small.jsonl" ] && [ ! -s "$out/xfs.jsonl" ] || fail "a refused study wrote results"

# a mark just past the region of each member: no mkfs may reach it
for m in "$@"; do
	dd if=/dev/urandom of="$m" bs=1M seek=32 count=1 conv=notrunc,fsync 2>/dev/null || fail "mark $m"
	eval "mark_${m##*/}=$(chunk_sum "$m" 1048576 32)"
done

# in_scenario NAME MEMBERS...: starts a one-cell everyday study in the
# background (its pid in $pid) and waits until its file system is mounted
in_scenario() {
	_name=$1; shift
	r0sweep --output "$out/$_name.jsonl" -p everyday -w "ext4 copy" --backend md --chunks 64K --members 3 -r 1 \
		--region 32M --no-precondition --yes "$@" > "$out/$_name.log" 2>&1 &
	pid=$!
	_i=0
	while ! grep -q '/tmp/r0sweep\.' /proc/mounts && [ $_i -lt 300 ]; do sleep 0.1; _i=$((_i + 1)); done
	grep -q '/tmp/r0sweep\.' /proc/mounts || fail "no file system was mounted in 30 s: $(cat "$out/$_name.log")"
}

# interrupted inside a scenario: nothing left mounted or built, exit 1
in_scenario int "$@"
sleep 0.5
kill -INT $pid
wait $pid
expect_eq "$?" 1 "r0sweep's exit after SIGINT"
grep -q '/tmp/r0sweep\.' /proc/mounts && fail "a file system left mounted: $(grep r0sweep /proc/mounts)"
expect_eq "$(r0_leftovers | grep -v '^nullb:' | tr '\n' ' ')" "" "nothing left built after SIGINT"

# killed (SIGKILL) inside a scenario: its file system stays mounted on r0kit's
# window; r0build remove --all unmounts r0kit's own scratch mount, then removes
in_scenario kill "$@"
kill -KILL $pid
wait $pid 2>/dev/null
grep -q '/tmp/r0sweep\.' /proc/mounts || fail "SIGKILL left no mount: nothing to clear"
expect_status 0 "r0build remove --all after a SIGKILL" r0build remove --all
grep -q "unmounted from r0sweep's scratch directory" /tmp/expect.out || fail "remove --all: $(cat /tmp/expect.out)"
grep -q '/tmp/r0sweep\.' /proc/mounts && fail "a scratch mount left: $(grep r0sweep /proc/mounts)"
expect_eq "$(r0_leftovers | grep -v '^nullb:' | tr '\n' ' ')" "" "nothing left built after remove --all"
# the killed study could not wipe its members: what follows starts clean
for m in "$@"; do wipefs -a -q "$m" || fail "wipefs $m"; done

# killed again, then resumed: --resume itself removes what the killed run left
# on these members (its window, mount and array, by their names) and goes on
# (--force: the killed run's ext4 lies on the first member)
in_scenario resume "$@"
killed=$pid
kill -KILL $pid
wait $pid 2>/dev/null
expect_status 0 "r0sweep --resume after a SIGKILL" r0sweep --resume --force --output "$out/resume.jsonl" -p everyday \
	-w "ext4 copy" --backend md --chunks 64K --members 3 -r 1 --region 32M --no-precondition --yes "$@"
grep -q "^r0sweep: removed sweep\.$killed\.fs, left on these members by an r0sweep that was killed$" /tmp/expect.out &&
	grep -q "^r0sweep: removed sweep\.$killed, left on these members by an r0sweep that was killed$" /tmp/expect.out ||
	fail "--resume did not clear the killed run: $(head -5 /tmp/expect.out)"
grep -q '"workload":"ext4 copy"' "$out/resume.jsonl" || fail "--resume measured nothing after clearing"
grep -q '/tmp/r0sweep\.' /proc/mounts && fail "a scratch mount left after --resume: $(grep r0sweep /proc/mounts)"
expect_eq "$(r0_leftovers | grep -v '^nullb:' | tr '\n' ' ')" "" "nothing left built after --resume"
for m in "$@"; do wipefs -a -q "$m" || fail "wipefs $m"; done

r0sweep --output "$out/everyday.jsonl" -p everyday -w "$wl" --backend md --chunks 64K --members 1,3 -r 2 \
	--region 32M --no-precondition --yes "$@" > "$out/verdict.txt" 2> "$out/sweep.log" ||
	{ tail -20 "$out/sweep.log"; fail "r0sweep -p everyday"; }
cat "$out/verdict.txt" | head -3
grep -q "^RAID0 of these 3 drives" "$out/verdict.txt" || fail "no verdict"
grep -q "everyday mix" "$out/verdict.txt" || fail "the everyday study is not judged by the everyday mix"

cells=$(grep -c '"type":"cell"' "$out/everyday.jsonl")
expect_eq "$cells" 18 "cells: raw, md 1 and md 3, 3 scenarios, 2 repeats"
expect_eq "$(grep '"type":"cell"' "$out/everyday.jsonl" | grep -vc '"rw":"fs"')" 0 "cells that are not fs cells"

# best WORKLOAD LAYER MEMBERS: the shortest time of a scenario's repeats on a
# target (in the study's file and, once taken, the repeat run again)
runs="$out/everyday.jsonl"
best() {
	grep -h '"type":"cell"' $runs | grep "\"layer\":\"$2\",[^}]*\"members\":$3,\"workload\":\"$1\"" |
		sed 's/.*"runtime_s":\([0-9.e+-]*\).*/\1/' | sort -g | sed -n 1p
}
figures() {
	copy1=$(best "ext4 copy" raw 1) copy3=$(best "ext4 copy" md 3)
	start1=$(best "ext4 app start" raw 1) start3=$(best "ext4 app start" md 3)
	busy1=$(best "ext4 start in copy" raw 1)
	note "seconds: copy $copy1 alone, $copy3 on md 3; start $start1, $start3; start in copy $busy1"
}
# judged MEMBERS...: the three comparisons, each side the shortest of its
# repeats. Each is one cell's time on a shared TCG host, where a disturbed
# repeat on either side moves a ratio (CI's margins were 1.3-1.7x): when
# one misses, both targets run once more (raw and md 3; -r 1 runs md 1
# too) and each side's shortest of three is judged, so one disturbed pair
# of repeats does not decide
judged() {
	figures
	if ! holds "$copy3 < 0.6 * $copy1 && $start3 > 0.75 * $start1 && $busy1 > 1.5 * $start1"; then
		note "a comparison outside its bound: both targets once more, the shortest of three judged"
		r0sweep --output "$out/again.jsonl" -p everyday -w "$wl" --backend md --chunks 64K --members 1,3 -r 1 \
			--region 32M --no-precondition --yes "$@" > "$out/again.txt" 2> "$out/again.log" ||
			{ tail -20 "$out/again.log"; fail "r0sweep -p everyday once more"; }
		expect_eq "$(grep -c '"type":"cell"' "$out/again.jsonl")" 9 "cells run again: raw, md 1 and md 3, 3 scenarios"
		runs="$runs $out/again.jsonl"
		figures
	fi
	check "$copy3 < 0.6 * $copy1" "the copy scales with the members (review: RAID0 copies faster)"
	check "$start3 > 0.75 * $start1" "the application start does not (one page at a time)"
	check "$busy1 > 1.5 * $start1" "a start behind a copy waits for it"
}
judged "$@"

for m in "$@"; do
	eval "want=\$mark_${m##*/}"
	expect_eq "$(chunk_sum "$m" 1048576 32)" "$want" "${m##*/}: the mark past the 32M region"
done
grep -q '/tmp/r0sweep\.' /proc/mounts && fail "a file system left mounted"
expect_eq "$(r0_leftovers | grep -v '^nullb:' | tr '\n' ' ')" "" "nothing left built"
for m in "$@"; do
	blkid -p "$m" > /dev/null 2>&1 && fail "${m##*/}: a signature left: $(blkid -p "$m")"
done
note "ok: no signature left on the members"

r0_modprobe xfs || fail "xfs"
big=$(r0_members fast 2 size=304) || fail "members for xfs"
set -- $big
r0sweep --output "$out/xfs.jsonl" -p everyday-xfs -w "xfs copy,xfs app start" --backend md --chunks 64K \
	--members 2 -r 1 --region 300M --no-precondition --yes "$@" > "$out/xfs.txt" 2> "$out/xfs.log" ||
	{ tail -20 "$out/xfs.log"; fail "r0sweep -p everyday-xfs"; }
expect_eq "$(grep '"type":"cell"' "$out/xfs.jsonl" | grep -c '"workload":"xfs [a-z ]*","rw":"fs"')" 2 \
	"xfs cells: md 2, 2 scenarios"
for m in "$@"; do
	blkid -p "$m" > /dev/null 2>&1 && fail "${m##*/}: a signature left: $(blkid -p "$m")"
done
expect_eq "$(r0_leftovers | grep -v '^nullb:' | tr '\n' ' ')" "" "nothing left built after xfs"
exit 0
