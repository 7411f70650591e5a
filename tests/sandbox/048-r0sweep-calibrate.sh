# SPDX-License-Identifier: GPL-2.0-or-later
# r0sweep --calibrate on 2 fast members (2 copies, short cells, a budget of
# a minute): the first member alone and md 2 x 64K built afresh at every
# visit as copies A and B, 3 whole passes or more; every md cell carries
# its copy (the raw ones none), no array is left, the calibration's answer
# (false differences, the noise's figures and its sentence) is printed and
# recorded; r0report's first screen is the calibration's, with its Noise
# section and noise.csv. --read-only runs the reads alone and writes
# nothing to the members; a budget too short for 3 passes is refused
# before anything is touched.
. ./lib.sh
. ./r0sweep-lib.sh

out=$R0_RESULTS/048-r0sweep-calibrate
mkdir -p "$out"
members=$(r0_members fast 2 size=32) || fail "members"
set -- $members
f=$out/calibrate.jsonl
# the three steps of r0/calibrate.h: within every bar, within the false-claim bars, beyond
sentence="^(Your machine's noise is within what the 30-minute study was validated for \(visit sd [0-9.]+ %, correlation -?[0-9.]+\)|Your machine is noisier than where the 30-minute study was shown to find a true 1.3x \(.*\): its claims keep their error rates|Your machine is noisier than any noise the study was validated on \(.*\): stop other work on the host)"

expect_status 2 "a budget too short for 3 passes" r0sweep --calibrate --copies 2 --yes --output "$out/short.jsonl" \
	-t 0.3 --ramp 0 --region 16M --budget 10s "$@"
grep -q "3 passes take" /tmp/expect.out || fail "the short budget's reason: $(cat /tmp/expect.out)"
[ -e "$out/short.jsonl" ] && fail "a refused calibration made its file"

expect_status 0 "the calibration's plan" r0sweep --calibrate --copies 2 --plan --output "$f" -t 0.3 --ramp 0 \
	--region 16M --budget 1m "$@"
grep -q "calibration: one md array of the 2 members at 64K, built afresh at every visit and measured as 2 copies (A,B)" \
	/tmp/expect.out || fail "the plan does not say what the calibration builds: $(cat /tmp/expect.out)"
grep -q "runs: 3 targets x 8 workloads x 3 passes = 72 cells" /tmp/expect.out || fail "the plan's passes"
[ -e "$f" ] && fail "a planned calibration made its file"

expect_status 0 "calibration" r0sweep --calibrate --copies 2 --yes --output "$f" -t 0.3 --ramp 0 --region 16M \
	--budget 1m "$@"
cat /tmp/expect.out
no_arrays "calibration"
grep -q "^r0sweep: calibration: 3 targets (the first member alone, 2 copies) x 8 workloads x [0-9]* passes" \
	/tmp/expect.out || fail "the calibration's start line"
grep -q "^A/A calibration: 2 copies of one md array (2 members, 64K), built afresh at every visit, [0-9]* passes" \
	/tmp/expect.out || fail "no calibration answer"
grep -qE "^False differences: [0-9]+ of 8 comparisons per workload, [0-9]+ of 1 under the desktop mix" /tmp/expect.out ||
	fail "no false differences: $(grep False /tmp/expect.out)"
grep -qE "^Noise: visit sd [0-9.]+ % \(raw [0-9.]+ %, copy A [0-9.]+ %, copy B [0-9.]+ %\), correlation within a visit" \
	/tmp/expect.out || fail "no noise figures"
grep -qE "$sentence" /tmp/expect.out || fail "no sentence"
# the records: md cells are copies 1 and 2, raw cells no copy; 3 passes or more, each visiting all 3 targets
expect_eq "$(grep '"type":"cell"' "$f" | grep '"layer":"md"' | grep -vcE '"copy":[12][,}]')" 0 "md cells without their copy"
expect_eq "$(grep '"type":"cell"' "$f" | grep '"layer":"raw"' | grep -c '"copy"')" 0 "raw cells with a copy"
expect_eq "$(grep '"type":"cell"' "$f" | grep -c '"layer":"dm"')" 0 "dm cells"
passes=$(grep '"type":"cell"' "$f" | grep -o '"pass":[0-9]*' | sort -u | wc -l)
[ "$passes" -ge 3 ] || fail "$passes passes, fewer than 3"
expect_eq "$(grep '"type":"cell"' "$f" | grep -c '"copy":2')" "$((passes * 8))" "copy B's cells: 8 workloads a pass"
grep -q '"type":"calibration"' "$f" || fail "the calibration line is not recorded"
note "ok: $passes passes, $(grep -c '"type":"cell"' "$f") cells"

# r0report: the calibration's answer first, the noise, the CSV
expect_status 0 "r0report of the calibration" r0report --output-dir /tmp/rep-cal --csv /tmp/rep-cal "$f"
grep -q "^A/A calibration: 2 copies" /tmp/expect.out || fail "r0report's screen: $(cat /tmp/expect.out)"
sed -n 3p /tmp/rep-cal/report.md | grep -qE "^Calibration: [0-9]+ false differences in 8 comparisons per workload" ||
	fail "the report's first screen: $(sed -n 3p /tmp/rep-cal/report.md)"
grep -q "^## Noise" /tmp/rep-cal/report.md || fail "no Noise section"
grep -qE "^\| copy B \| [0-9]+ \| [0-9.]+ % \|" /tmp/rep-cal/report.md || fail "no copy B in the Noise table"
grep -qE "$sentence" /tmp/rep-cal/report.md || fail "no sentence in the report"
grep -q "worth it" /tmp/rep-cal/report.md && fail "a calibration's report gives a verdict on RAID0"
grep -q '^all,' /tmp/rep-cal/noise.csv || fail "noise.csv: $(cat /tmp/rep-cal/noise.csv)"

# --read-only: the reads alone, nothing written to the members
sums=$(for m; do md5sum < "$m"; done)
expect_status 0 "read-only calibration" r0sweep --calibrate --copies 2 --read-only --output "$out/ro.jsonl" -t 0.3 \
	--ramp 0 --region 16M --budget 40s "$@"
no_arrays "read-only calibration"
grep -q "preconditioning" /tmp/expect.out && fail "a read-only calibration preconditioned"
grep -q '"rw":"[a-z]*write' "$out/ro.jsonl" && fail "a read-only calibration ran a write test"
grep -q '"type":"calibration"' "$out/ro.jsonl" || fail "the read-only calibration's line"
expect_eq "$(for m; do md5sum < "$m"; done)" "$sums" "the members after a read-only calibration"
r0_remove_members || fail "a member stayed"
exit 0
