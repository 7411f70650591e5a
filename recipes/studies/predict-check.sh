# SPDX-License-Identifier: GPL-2.0-or-later
# r0predict against a measured study (guest side): the first of three
# emulated sata-ssd members measured alone with r0bench's predict grid
# (reads only), then r0sweep measures raw, md and dm of 1-3 members at 64K
# and 512K chunks (CDM3 reads, 4K at QD1 and QD32, 2 repeats), and
# r0predict predicts the study from the grid and compares. Writes one.json,
# sweep.jsonl, predicted.jsonl and compare.txt to $R0_RESULTS.
# Usage: recipes/sandbox/run -t 1500 recipes/studies/predict-check.sh
. "$R0_GUEST/guest.sh"
members=$(r0_members sata-ssd 3) || { echo "predict-check: cannot create the members"; exit 1; }
set -- $members
r0bench --preset predict --read-only --region 256M --json "$1" > "$R0_RESULTS/one.json" ||
	{ echo "predict-check: r0bench failed"; exit 1; }
echo "predict-check: grid measured"
profile=$(grep -v '^#' "$R0_GUEST/drives/sata-ssd.profile" | tr '\n' ' ')
r0sweep -o "$R0_RESULTS/sweep.jsonl" -p cdm3 --qd 1,32 --chunks 64K,512K --single-chunks 64K \
	--read-only -r 2 -t 0.8 --ramp 0.2 --region 256M \
	--describe "3 x null_blk sata-ssd profile ($profile) in the r0kit sandbox" "$@" \
	> "$R0_RESULTS/sweep.out" || { cat "$R0_RESULTS/sweep.out"; echo "predict-check: r0sweep failed"; exit 1; }
r0predict -c 64K,512K --compare "$R0_RESULTS/sweep.jsonl" -o "$R0_RESULTS/predicted.jsonl" \
	"$R0_RESULTS/one.json" 2> "$R0_RESULTS/compare.txt"
rc=$?
cat "$R0_RESULTS/compare.txt"
r0_cleanup
exit $rc
