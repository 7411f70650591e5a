# SPDX-License-Identifier: GPL-2.0-or-later
# r0predict against a measured study (guest side): the first of three
# emulated members (PROFILE, default sata-real, the demo's drive) measured
# alone with r0bench's predict grid, then r0sweep measures the demo-shaped
# study on the same members (raw, md and dm of 1-3 members at 4K, 64K and
# 512K chunks, the CDM3 set with 4K at QD1 and QD32 and the straddling
# test, 2 repeats), and r0predict predicts the study from the grid alone
# and compares. Writes one.json, sweep.jsonl, predicted.jsonl and
# compare.txt to $R0_RESULTS; the grid (one line, after "predict-check: grid: ")
# goes to the console and the study's cells stream to the host as they come
# (r0_stream), so a guest that is killed still leaves what it measured.
# Arguments KEY=VALUE: PROFILE, CHUNKS, REPEATS, READONLY (1: reads only).
# Usage: recipes/sandbox/run -t 3000 recipes/studies/predict-check.sh -- PROFILE=sata-real
. "$R0_GUEST/guest.sh"
PROFILE=sata-real CHUNKS=4K,64K,512K REPEATS=2 READONLY=0
for a; do
	case $a in
	PROFILE=*|CHUNKS=*|REPEATS=*|READONLY=*) eval "${a%%=*}=\${a#*=}" ;;
	*) echo "predict-check: unknown argument $a"; exit 2 ;;
	esac
done
ro=""
[ "$READONLY" = 1 ] && ro=--read-only
members=$(r0_members "$PROFILE" 3) || { echo "predict-check: cannot create the members"; exit 1; }
set -- $members
t0=$(date +%s)
r0bench --preset predict $ro --region 256M --json "$1" > "$R0_RESULTS/one.json" ||
	{ echo "predict-check: r0bench failed"; exit 1; }
echo "predict-check: grid measured in $(($(date +%s) - t0)) s"
echo "predict-check: grid: $(tr -d '\n' < "$R0_RESULTS/one.json")"
r0_stream "$R0_RESULTS/sweep.jsonl" || exit 1
profile=$(grep -v '^#' "$R0_GUEST/drives/$PROFILE.profile" | tr '\n' ' ')
r0sweep -o "$R0_RESULTS/sweep.jsonl" -p cdm3 --qd 1,32 --chunks "$CHUNKS" --single-chunks 64K \
	$ro -r "$REPEATS" -t 0.8 --ramp 0.2 --region 256M \
	--describe "3 x null_blk $PROFILE profile ($profile) in the r0kit sandbox" "$@" \
	> "$R0_RESULTS/sweep.out" || { cat "$R0_RESULTS/sweep.out"; echo "predict-check: r0sweep failed"; exit 1; }
echo "predict-check: study measured in $(($(date +%s) - t0)) s in all"
r0predict -c "$CHUNKS" --compare "$R0_RESULTS/sweep.jsonl" -o "$R0_RESULTS/predicted.jsonl" \
	"$R0_RESULTS/one.json" 2> "$R0_RESULTS/compare.txt"
rc=$?
cat "$R0_RESULTS/compare.txt"
sleep 1   # let the stream send the last lines
r0_cleanup
exit $rc
