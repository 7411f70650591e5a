# SPDX-License-Identifier: GPL-2.0-or-later
# The demo study (guest side): r0sweep over three emulated sata-ssd members
# (null_blk, recipes/drives/sata-ssd.profile): the first member raw, md
# raid0 and dm-stripe of 1, 2 and 3 members at 3 chunk sizes, the
# CrystalDiskMark 3 set with the 4K random tests at QD1 and QD32, plus the
# chunk-straddling 512K test; the members preconditioned, then 5 repeats
# (r0sweep's default: the fewest at which tests/unit/test_compare.c's
# simulation keeps false differences at 5 % or less) of 0.8 s, so 135
# cells x 5 still fit the demo's ~15 minutes. Writes sweep.jsonl to
# $R0_RESULTS. Settings come from the environment (recipes/demo passes them).
. "$R0_GUEST/guest.sh"
CHUNKS=${CHUNKS:-4K,64K,512K} REPEATS=${REPEATS:-5} RUNTIME=${RUNTIME:-0.8} RAMP=${RAMP:-0.2}
set -- $(r0_members sata-ssd 3) || exit 1
profile=$(grep -v '^#' "$R0_GUEST/drives/sata-ssd.profile" | tr '\n' ' ')
r0sweep -o "$R0_RESULTS/sweep.jsonl" -p cdm3 --qd 1,32 --chunks "$CHUNKS" --single-chunks 64K \
	-r "$REPEATS" -t "$RUNTIME" --ramp "$RAMP" --region 256M --mix desktop \
	--describe "3 x null_blk sata-ssd profile ($profile) in the r0kit sandbox (QEMU TCG, 2 vCPUs, kernel $(uname -r))" \
	"$@" > "$R0_RESULTS/sweep.out"
rc=$?
cat "$R0_RESULTS/sweep.out"
# r0trim on the 3-member md and dm arrays at 64K (trim-demo.sh, passed in
# by recipes/demo): trim-md.json and trim-dm.json beside sweep.jsonl.
if [ -f ./trim-demo.sh ]; then
	sh ./trim-demo.sh "$@" || [ $rc != 0 ] || rc=1
fi
r0_cleanup
exit $rc
