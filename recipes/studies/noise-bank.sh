# SPDX-License-Identifier: GPL-2.0-or-later
# A short study for the bank of real noise (guest side; issue 44,
# tests/data/noise/): three members, the first raw and r0sweep's fixed plan
# of md raid0 of 1 (64K), 2 and 3 members at 64K and 512K (6 targets), six
# CDM3 workloads, REPEATS passes (every target once a pass, so each visit is
# one target's workloads measured together), cells of at most RUNTIME s
# (r0sweep ends one early once its rate is steady). About 6-10 minutes
# under TCG; recipes/studies/noise-bank-record runs it per condition and
# makes each sweep.jsonl a bank.
# The members: PROFILE's null_blk drives (default sata-real, the demo's),
# or DRIVES=nvme|sata (the three QEMU drives the boot was given,
# sandbox/drives/DRIVES.qemu), or SSD=SIZE (r0ssd flash models keeping
# their data; r0sweep writes their regions once before the study, as on
# any member, so reads see written pages and writes meet garbage collection).
# Writes sweep.jsonl and sweep.out to $R0_RESULTS and streams sweep.jsonl to
# the host as it grows (r0_stream); ./sweep.partial.jsonl (the cells of a
# boot that died) makes r0sweep --resume on.
# Arguments KEY=VALUE: PROFILE, DRIVES, SSD, CHUNKS, REPEATS, RUNTIME, RAMP,
# REGION, WORKLOADS.
# Usage: sandbox/vm/run -t 1500 recipes/studies/noise-bank.sh -- SSD=128M
. "$R0_GUEST/guest.sh"
PROFILE=sata-real DRIVES="" SSD="" CHUNKS=64K,512K REPEATS=3 RUNTIME=2 RAMP=0.5 REGION=64M
# reads and writes of each size class the mixes weigh, not the whole set of
# nine: keeps a study near 6-10 minutes on 6 targets
WORKLOADS="Seq read,Seq write,512K read,4K read,4K QD32 read,4K QD32 write"
for a; do
	case $a in
	PROFILE=*|DRIVES=*|SSD=*|CHUNKS=*|REPEATS=*|RUNTIME=*|RAMP=*|REGION=*|WORKLOADS=*)
		eval "${a%%=*}=\${a#*=}" ;;
	*) echo "noise-bank: unknown argument $a"; exit 2 ;;
	esac
done
if [ -n "$DRIVES" ]; then
	members=$(r0_drives_by_id "$DRIVES" 3) || exit 1
	what=$(r0_describe_drives "$DRIVES" 3)
elif [ -n "$SSD" ]; then
	members=$(r0_members_ssd 3 "$SSD")
	what="3 x r0ssd $SSD flash models (with data, written once before the study)"
else
	members=$(r0_members "$PROFILE" 3)
	what=$(r0_describe_profile "$PROFILE" 3)
fi
[ -n "$members" ] || { echo "noise-bank: cannot create the members"; exit 1; }
out=$R0_RESULTS/sweep.jsonl
resume=""
if [ -s ./sweep.partial.jsonl ]; then
	cp ./sweep.partial.jsonl "$out"
	resume=--resume
	echo "noise-bank: resuming: $(grep -c '"type":"cell"' "$out") cells from the boots before"
fi
r0_stream "$out" || exit 1
t0=$(date +%s)
r0sweep --yes --output "$out" $resume -p cdm3 --qd 1,32 --no-straddle -w "$WORKLOADS" \
	--backend md --chunks "$CHUNKS" --members 1,2,3 --single-chunks 64K \
	-r "$REPEATS" -t "$RUNTIME" --ramp "$RAMP" --region "$REGION" \
	--describe "$what in the r0kit sandbox (QEMU TCG, 2 vCPUs, kernel $(uname -r))" \
	$members > "$R0_RESULTS/sweep.out"
rc=$?
cat "$R0_RESULTS/sweep.out"
echo "noise-bank: study measured in $(($(date +%s) - t0)) s (rc $rc)"
sleep 1   # let the stream send the last lines
r0_cleanup
exit $rc
