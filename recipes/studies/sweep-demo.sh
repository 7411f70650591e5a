# SPDX-License-Identifier: GPL-2.0-or-later
# The demo study (guest side): r0sweep over three emulated sata-ssd members
# (null_blk, recipes/drives/sata-ssd.profile): the first member raw, md
# raid0 and dm-stripe of 1, 2 and 3 members at 3 chunk sizes, the
# CrystalDiskMark 3 set with the 4K random tests at QD1 and QD32, plus the
# chunk-straddling 512K test; the members preconditioned, then 5 repeats
# (r0sweep's default: the fewest at which tests/unit/test_compare.c's
# simulation keeps false differences at 5 % or less) of 0.8 s, so 135
# cells x 5 still fit the demo's ~15 minutes. Writes sweep.jsonl to $R0_RESULTS
# and streams it to the host as it grows (r0_stream), so recipes/demo can
# resume in a fresh boot when the guest dies: then ./sweep.partial.jsonl
# holds the cells of the boots before, and r0sweep --resume goes on.
# Arguments KEY=VALUE set CHUNKS, REPEATS, RUNTIME, RAMP and TRIM (1 runs
# trim-demo.sh after the sweep when it was passed in; 0 does not).
. "$R0_GUEST/guest.sh"
CHUNKS=4K,64K,512K REPEATS=5 RUNTIME=0.8 RAMP=0.2 TRIM=1
for a; do
	case $a in
	CHUNKS=*|REPEATS=*|RUNTIME=*|RAMP=*|TRIM=*) eval "${a%%=*}=\${a#*=}" ;;
	*) echo "sweep-demo: unknown argument $a"; exit 2 ;;
	esac
done
members=$(r0_members sata-ssd 3) || { echo "sweep-demo: cannot create the members"; exit 1; }
set -- $members
out=$R0_RESULTS/sweep.jsonl
resume=""
if [ -s ./sweep.partial.jsonl ]; then
	cp ./sweep.partial.jsonl "$out"
	resume=--resume
	echo "sweep-demo: resuming: $(grep -c '"type":"cell"' "$out") cells from the boots before"
fi
r0_stream "$out" || exit 1
rc=0
# a file that already ends in the analysis is a finished sweep: only TRIM is left
if ! grep -q '"type":"analysis"' "$out"; then
	profile=$(grep -v '^#' "$R0_GUEST/drives/sata-ssd.profile" | tr '\n' ' ')
	r0sweep -o "$out" $resume -p cdm3 --qd 1,32 --chunks "$CHUNKS" --single-chunks 64K \
		-r "$REPEATS" -t "$RUNTIME" --ramp "$RAMP" --region 256M --mix desktop \
		--describe "3 x null_blk sata-ssd profile ($profile) in the r0kit sandbox (QEMU TCG, 2 vCPUs, kernel $(uname -r))" \
		"$@" > "$R0_RESULTS/sweep.out"
	rc=$?
	cat "$R0_RESULTS/sweep.out"
fi
# r0trim on the 3-member md and dm arrays at 64K (trim-demo.sh, passed in
# by recipes/demo): trim-md.json and trim-dm.json beside sweep.jsonl.
if [ "$TRIM" = 1 ] && [ -f ./trim-demo.sh ]; then
	echo "sweep-demo: the TRIM step"
	sh ./trim-demo.sh "$@" || [ $rc != 0 ] || rc=1
fi
sleep 1   # let the stream send the last lines
r0_cleanup
exit $rc
