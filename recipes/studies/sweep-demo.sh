# SPDX-License-Identifier: GPL-2.0-or-later
# The demo study (guest side): r0sweep over three emulated sata-real members
# (null_blk, sandbox/drives/sata-real.drive): the first member raw, md
# raid0 and dm-stripe of 1, 2 and 3 members at 3 chunk sizes (dm-stripe's
# large reads over these 8-tag members stalled in Linux 6.12 until r0bench
# sent requests of more pieces than the member has tags through io_uring's
# workers: tests/sandbox/024), the
# CrystalDiskMark 3 set with the 4K random tests at QD1 and QD32, plus the
# chunk-straddling 512K test; the members preconditioned, then r0sweep's
# adaptive plan (r0/adaptive.h): 3 repeats of every cell of the first
# targets, more (5, 8) only where a comparison is undecided, dm and 2
# members only at the chunks left in the running, all within a 10-minute
# budget; tests of 0.7 s after a 0.1 s ramp (the drives are emulated and
# steady from the start). REPEATS=N gives the fixed plan of N repeats of
# every target instead. The region is 64M, not 256M:
# at sata-real's 8 MiB/s, preconditioning three 256M members took 96 s of the
# 15 minutes, 64M takes 24 s; a random test still lands anywhere in 16384
# blocks, and null_blk has no cache that a small region would fit in.
# Writes sweep.jsonl to $R0_RESULTS
# and streams it to the host as it grows (r0_stream), so recipes/demo can
# resume in a fresh boot when the guest dies: then ./sweep.partial.jsonl
# holds the cells of the boots before, and r0sweep --resume goes on.
# Then the shared-bottleneck study (SHARED=1): three members of the same
# profile behind one queue of 4 commands (a controller's: r0_members_queue),
# each command 7 ms there (0.9 ms more than alone): about 16 MiB/s in all
# (4 x 32 KiB / ~7.5 ms), 2 members' worth, while one member alone stays at
# its own 8 MiB/s. Probed on a host at load ~10 (r0bench, 3 s, md raid0 64K):
# Seq read 7.3, 12.9 and 10.5 MiB/s with 1, 2, 3; with 6.1 ms, at load ~5,
# 6.8, 15.2 and 18.9 (3 at 1.24x of 2: too close to "added little"); with
# 4 commands of 24 KiB 6.6, 10.5 and 9.2 in a sweep (2 at only 1.4x of 1).
# md raid0 of 1, 2 and 3 at 64K, Seq read and
# 512K random read only, 2 s tests, so it takes about 2-3 minutes; sweep-shared.jsonl,
# reported beside sweep.jsonl (r0report pools only one study). It streams
# too: the serial port carries one stream at a time, so the main study's
# stream ends first and the host's stream.log holds the main file, whose
# last line is its analysis, then the shared one's lines; recipes/demo
# splits them there, and ./sweep-shared.partial.jsonl lets a fresh boot
# resume the shared study. Its progress goes to the console (the
# terminal) like the main study's: r0sweep's stderr is not redirected.
# Arguments KEY=VALUE set CHUNKS, REPEATS, BUDGET, RUNTIME, RAMP, REGION, TRIM (1 runs
# trim-demo.sh after the sweep when it was passed in; 0 does not), SHARED
# and SHARED_RUNTIME, and DRIVES (nvme or sata: the three QEMU drives the
# boot was given, sandbox/drives/*.qemu, instead of null_blk members; the
# TRIM step then runs on them too).
. "$R0_GUEST/guest.sh"
CHUNKS=4K,64K,512K REPEATS= BUDGET=10m RUNTIME=0.7 RAMP=0.1 TRIM=1 SHARED=1 DRIVES=
PROFILE=sata-real REGION=64M
# 2 s, not 0.8: a 0.8 s Seq read at ~10 MiB/s is 8 transfers, and in the
# demo of 2026-12-03 17:04 its repeats spread 3 vs 2 members over 0.75-1.50x,
# too wide to tell 0.90x from clean scaling (1.5x)
SHARED_RUNTIME=2
for a; do
	case $a in
	CHUNKS=*|REPEATS=*|BUDGET=*|RUNTIME=*|RAMP=*|REGION=*|TRIM=*|SHARED=*|SHARED_RUNTIME=*|DRIVES=*)
		eval "${a%%=*}=\${a#*=}" ;;
	*) echo "sweep-demo: unknown argument $a"; exit 2 ;;
	esac
done
if [ -n "$DRIVES" ]; then
	members=$(r0_drives_by_id "$DRIVES" 3) || exit 1
	describe=$(r0_describe_drives "$DRIVES" 3)
else
	members=$(r0_members $PROFILE 3) || { echo "sweep-demo: cannot create the members"; exit 1; }
	describe=$(r0_describe_profile "$PROFILE" 3)
fi
set -- $members
out=$R0_RESULTS/sweep.jsonl
resume=""
if [ -s ./sweep.partial.jsonl ]; then
	cp ./sweep.partial.jsonl "$out"
	resume=--resume
	echo "sweep-demo: resuming: $(grep -c '"type":"cell"' "$out") cells from the boots before"
fi
r0_stream "$out" || exit 1
stream=$!
rc=0
# a file that already ends in the analysis is a finished sweep: only TRIM is left
if ! grep -q '"type":"analysis"' "$out"; then
	if [ -n "$REPEATS" ]; then plan="-r $REPEATS"; else plan="--budget $BUDGET"; fi
	r0sweep --yes --output "$out" $resume -p cdm3 --qd 1,32 --chunks "$CHUNKS" --single-chunks 64K \
		$plan -t "$RUNTIME" --ramp "$RAMP" --region $REGION --mix desktop \
		--describe "$describe in the r0kit sandbox (QEMU TCG, 2 vCPUs, kernel $(uname -r))" \
		"$@" > "$R0_RESULTS/sweep.out"
	rc=$?
	cat "$R0_RESULTS/sweep.out"
fi
# r0trim on 3-member md and dm arrays at 64K (trim-demo.sh, passed in by
# recipes/demo): trim-md.json and trim-dm.json beside sweep.jsonl. On 16 MiB
# members of the profile, not the study's 256 MiB: r0trim fills and reads
# back whole members, which at 8 MiB/s each took over 10 minutes.
if [ "$TRIM" = 1 ] && [ -f ./trim-demo.sh ]; then
	echo "sweep-demo: the TRIM step"
	r0_cleanup
	[ -n "$DRIVES" ] || members=$(r0_members $PROFILE 3 size=16) ||
		{ echo "sweep-demo: cannot create the TRIM step's members"; exit 1; }
	sh ./trim-demo.sh $members || [ $rc != 0 ] || rc=1
fi
sleep 1   # let the stream send the last lines
r0_cleanup
if [ "$SHARED" = 1 ]; then
	echo "sweep-demo: the shared-bottleneck study"
	members=$(r0_members_queue $PROFILE 3 4 completion_nsec=7000000) ||
		{ echo "sweep-demo: cannot create the members behind one queue"; exit 1; }
	shared=$R0_RESULTS/sweep-shared.jsonl
	resume=""
	rm -f "$shared"
	if [ -s ./sweep-shared.partial.jsonl ]; then
		cp ./sweep-shared.partial.jsonl "$shared"
		resume=--resume
		echo "sweep-demo: resuming the shared study: $(grep -c '"type":"cell"' "$shared") cells from the boots before"
	fi
	# the main study's lines are out (the sleep above): its stream ends, the shared one's begins;
	# not after a main study without its analysis line, where the host could not tell them apart
	if grep -q '"type":"analysis"' "$out"; then
		kill "$stream" 2>/dev/null
		r0_stream "$shared" || exit 1
	fi
	if ! grep -q '"type":"analysis"' "$shared"; then
		r0sweep --yes --output "$shared" $resume -p cdm3 -w "Seq read,512K read" --no-straddle \
			--backend md --chunks 64K --single-chunks 64K -r "${REPEATS:-5}" -t "$SHARED_RUNTIME" --ramp "$RAMP" \
			--region 32M --mix sequential \
			--describe "3 x null_blk $PROFILE members, 7 ms a command, sharing one queue of 4 commands (null_blk shared_tags) in the r0kit sandbox (QEMU TCG, 2 vCPUs, kernel $(uname -r))" \
			$members > "$R0_RESULTS/sweep-shared.out" || [ $rc != 0 ] || rc=1
		cat "$R0_RESULTS/sweep-shared.out"
	fi
	sleep 1   # the last lines, as above
	r0_cleanup
fi
exit $rc
